//! The SM120 dense builder (`sm120_mma_builder.inl`): GeForce Blackwell's TMA
//! warp-specialized F8F6F4 `mma.sync` mainloop (`MainloopSm120TmaWarpSpecialized`).

use super::common::{
    check_atoms_divide, no_builder, refuse, round_up, sm1xx_is_aligned, smem_layout,
    DispatchPolicy, Mainloop, MainloopConfig, Schedule, Stages, TmaLoad, SM120_SMEM_CAPACITY,
};
use crate::atom::make_tiled_mma;
use crate::elem::Elem;
use crate::error::{arith, Result};
use crate::int_tuple::IntTuple;
use crate::layout::{Layout, Tiler};
use crate::sm120::Sm120Template;
use crate::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};

/// `sizeof(PipelineTmaUmmaAsync<1>::SharedStorage)`, the builder's proxy for a stage's
/// barriers.
const STAGE_BARRIER_BYTES: i64 = 16;
/// `SchedulerPipelineStageCount`.
const SCHEDULER_STAGES: i64 = 2;

/// `sm120_rr_smem_selector<SmemAllocType, TileK>`: the widest K-major atom whose K divides
/// the tile's.
pub(super) fn smem_selector(bits: i64, k: i64) -> Result<AtomSwizzle> {
    AtomSwizzle::GMMA_WIDEST_FIRST
        .into_iter()
        .find(|sw| k % (sw.row_bits() / bits) == 0)
        .ok_or_else(|| {
            refuse(
                "No shared memory copy atom can be selected.",
                format!(
                    "tile K = {k} is not a multiple of 16 bytes of {bits}-bit elements in shared memory"
                ),
            )
        })
}

/// `sm120_rr_smem_copy_selector_A/B`: the ldmatrix that unpacks 4- and 6-bit operands read
/// by MXF8F6F4, else `LDSM`; B's narrows to x2 / x1 for N below 32 / 16.
pub(super) fn smem_copy(e: Elem, unpack: bool, n: Option<i64>) -> &'static str {
    let x = match n {
        Some(n) if n < 16 => 1,
        Some(n) if n < 32 => 2,
        _ => 4,
    };
    match (unpack, e.bits(), x) {
        (true, 6, _) => "SM100_SU6_DU8x16_x4_LDSM_N",
        (true, 4, 1) => "SM100_SU4_DU8x16_x1_LDSM_N",
        (true, 4, 2) => "SM100_SU4_DU8x16_x2_LDSM_N",
        (true, 4, _) => "SM100_SU4_DU8x16_x4_LDSM_N",
        (_, _, 1) => "SM75_U32x1_LDSM_N",
        (_, _, 2) => "SM75_U32x2_LDSM_N",
        _ => "SM75_U32x4_LDSM_N",
    }
}

/// The builder's static checks, in the order C++ fires them.
fn check(cfg: &MainloopConfig) -> Result<()> {
    if !matches!(
        cfg.schedule,
        Schedule::Auto | Schedule::Cooperative | Schedule::Pingpong | Schedule::F8f6f4Sm120
    ) {
        return Err(no_builder(
            cfg,
            "KernelScheduleAuto, KernelTmaWarpSpecializedCooperative, KernelTmaWarpSpecializedPingpong or KernelScheduleF8f6f4Sm120",
        ));
    }
    if !sm1xx_is_aligned(cfg, cfg.a.0.bits() < 8 || cfg.b.0.bits() < 8)? {
        return Err(refuse(
            "Could not build a collective for given parameters.",
            format!(
                "AlignmentA = {} of {} and AlignmentB = {} of {} are not TMA-aligned (128 bits, or 512 / 768 bits for 4- / 6-bit operands)",
                cfg.a.2,
                cfg.a.0.cpp_name(),
                cfg.b.2,
                cfg.b.0.cpp_name()
            ),
        ));
    }
    if !(cfg.a.0.is_f8f6f4() && cfg.b.0.is_f8f6f4()) {
        return Err(refuse(
            "SM120 TmaWarpSpecialized builder currently only supports F8F6F4 MMA.",
            format!(
                "{} x {}: SM120's TensorOp builder takes 8-, 6- and 4-bit floats (float_e4m3_t, float_e5m2_t, float_e3m2_t, float_e2m3_t, float_e2m1_t); 16-bit GEMMs on SM120 are SM80-style kernels",
                cfg.a.0.cpp_name(),
                cfg.b.0.cpp_name()
            ),
        ));
    }
    let [cm, cn, ck] = cfg.cluster;
    if cm * cn * ck != 1 {
        return Err(refuse(
            "no programmatic multicast on this arch",
            format!("cluster ({cm},{cn},{ck}): SM120 runs one CTA a cluster, Shape<_1,_1,_1>"),
        ));
    }
    if cfg.a.1.major(false) != AtomMajor::K || cfg.b.1.major(true) != AtomMajor::K {
        return Err(refuse(
            "Only TN layout is supported.",
            format!(
                "A {} and B {}: SM120 reads both K-major (A RowMajor, B ColumnMajor)",
                cfg.a.1.name(),
                cfg.b.1.name()
            ),
        ));
    }
    // 4- and 6-bit operands load by TMA in 128-element K rows.
    if (cfg.a.0.bits() < 8 || cfg.b.0.bits() < 8) && cfg.tile[2] % 128 != 0 {
        return Err(refuse(
            "TileSize and MNK Major does not met with MMA Mix 8-bit TMA load requirement",
            format!(
                "tile K = {}: a K-major 4- or 6-bit operand takes a tile K that is a multiple of 128",
                cfg.tile[2]
            ),
        ));
    }
    Ok(())
}

/// CUTLASS's SM120 dense F8F6F4 mainloop builder.
pub(super) fn build(cfg: &MainloopConfig) -> Result<Mainloop> {
    check(cfg)?;
    let mut notes = Vec::new();
    let [tm, tn, tk] = cfg.tile;
    let coop = cfg.schedule != Schedule::Pingpong;
    let schedule = match cfg.schedule {
        Schedule::Auto => Schedule::Cooperative,
        s => s,
    };
    let atom = Sm120Template::F8F6F4.atom(&[cfg.a.0, cfg.b.0, cfg.acc], None)?;
    let (wm, wn) = if coop { (4, 2) } else { (2, 2) };
    let atom_layout = Layout::col_major(IntTuple::ints(&[wm, wn, 1]))?;
    let perm = [
        Tiler::Int(tm.min(128)),
        Tiler::Int(tn.min(32)),
        Tiler::Int(32),
    ];
    let tiled_mma = make_tiled_mma(&atom, &atom_layout, &perm)?;
    notes.push(format!(
        "TiledMma: {} over {wm}x{wn} warps ({}), permuted to ({},{},32)",
        atom.name,
        if coop {
            "cooperative: KernelScheduleAuto, Cooperative and F8f6f4 schedules"
        } else {
            "pingpong"
        },
        tm.min(128),
        tn.min(32)
    ));
    let sw = smem_selector(8, tk)?;
    let smem_atom = smem_atom(AtomMajor::K, sw, 8)?;
    check_atoms_divide([&smem_atom, &smem_atom], [tm, tn], tk)?;
    // Every operand takes a byte an element in shared memory.
    let stage = arith::add(arith::mul(arith::add(tm, tn)?, tk)?, STAGE_BARRIER_BYTES)?;
    let stages = match cfg.stages {
        Stages::Count(s) => {
            notes.push(format!("{}: {s} stages as given", cfg.stages));
            s
        }
        Stages::Auto | Stages::AutoCarveout(_) => {
            let user = match cfg.stages {
                Stages::AutoCarveout(b) => b,
                _ => 0,
            };
            let s = (SM120_SMEM_CAPACITY - user) / stage;
            notes.push(format!(
                "{}: ({SM120_SMEM_CAPACITY} B of SM120 shared memory - {user} B carveout) / {stage} B a stage (A {tm}x{tk} + B {tn}x{tk} bytes, one byte an element, + {STAGE_BARRIER_BYTES} B of barriers) = {s} stages; no room is kept for the epilogue or the kernel's barriers unless the carveout names them",
                cfg.stages
            ));
            s
        }
    };
    if stages < 2 {
        return Err(refuse(
            "Specialization requires Stages set to value 2 or more.",
            format!(
                "{stages} stage(s) of {stage} B fit in SM120's {SM120_SMEM_CAPACITY} B: use a smaller tile (K = {tk}) or a smaller carveout"
            ),
        ));
    }
    if cfg.stages == Stages::Auto {
        // The mainloop's SharedStorage: A and B 1024-aligned, then the stages' barriers.
        let buf =
            |mn: i64| -> Result<i64> { round_up(arith::mul(arith::mul(mn, tk)?, stages)?, 1024) };
        let storage = round_up(
            arith::add(arith::add(buf(tm)?, buf(tn)?)?, 16 * stages)?,
            1024,
        )?;
        notes.push(format!(
            "warning: StageCountAuto fills SM120's shared memory with A and B alone: the mainloop's SharedStorage is {storage} B (its buffers 1024-byte aligned), leaving {} B of {SM120_SMEM_CAPACITY} for the epilogue's SharedStorage, the tile scheduler and the kernel's barriers; a kernel over the limit fails at launch (cudaFuncSetAttribute) | fix: pass StageCountAutoCarveout<static_cast<int>(sizeof(typename CollectiveEpilogue::SharedStorage))>, or StageCount<{}>",
            SM120_SMEM_CAPACITY - storage,
            (stages - 1).max(2)
        ));
    }
    let smem_layout_a = smem_layout(&smem_atom, tm, tk, stages, AtomMajor::K)?;
    let smem_layout_b = smem_layout(&smem_atom, tn, tk, stages, AtomMajor::K)?;
    let sched_name = if coop {
        "KernelTmaWarpSpecializedCooperativeSm120"
    } else {
        "KernelTmaWarpSpecializedPingpongSm120"
    };
    Ok(Mainloop {
        config: cfg.clone(),
        schedule,
        majors: [AtomMajor::K; 2],
        mma_types: [cfg.a.0, cfg.b.0],
        smem_bits: [8, 8],
        smem_atoms: [sw; 2],
        smem_layout_a,
        smem_layout_b,
        op: atom.name.clone(),
        tiled_mma,
        gmem_copy: [TmaLoad::Load; 2],
        smem_copy: Some([
            smem_copy(cfg.a.0, true, None),
            smem_copy(cfg.b.0, true, None),
        ]),
        stages,
        policy: DispatchPolicy {
            template: "MainloopSm120TmaWarpSpecialized",
            scheduler_stages: Some(SCHEDULER_STAGES),
            acc_stages: None,
            schedule: format!("{sched_name}<{SCHEDULER_STAGES}>"),
        },
        stage_bytes: stage,
        notes,
        block_scale: None,
    })
}
