//! The SM90 builder (`sm90_gmma_builder.inl`): the TMA warp-specialized SS GMMA mainloops.

use super::common::{
    check_atoms_divide, no_builder, refuse, round_up, smem_layout, DispatchPolicy, Mainloop,
    MainloopConfig, Schedule, Stages, TmaLoad, SM90_PIPELINE_BYTES, SM90_SMEM_CAPACITY,
    TMA_ALIGNMENT_BYTES,
};
use crate::atom::make_tiled_mma;
use crate::elem::Elem;
use crate::error::{arith, Result};
use crate::gmma::op_selector;
use crate::int_tuple::IntTuple;
use crate::layout::{Layout, Tiler};
use crate::smem_atom::{smem_atom, ss_smem_selector, AtomMajor};

/// The alignment the stage count rounds to (`compute_stage_count_or_override`'s default).
const STAGE_ALIGNMENT: i64 = 128;

fn is_fp8(e: Elem) -> bool {
    matches!(e, Elem::E4M3 | Elem::E5M2)
}

/// The SS mainloop's static checks before anything is picked: static tile and cluster
/// shapes, TMA's 16-byte alignment, the types an SS GMMA reads from shared memory.
fn check_config(cfg: &MainloopConfig) -> Result<()> {
    for (name, (e, _, align)) in [("A", cfg.a), ("B", cfg.b)] {
        let bytes = arith::mul(e.bits(), align)? / 8;
        if align <= 0 || bytes % TMA_ALIGNMENT_BYTES != 0 {
            return Err(refuse(
                "Should meet TMA alignment requirement\\n",
                format!(
                    "Alignment{name} = {align} elements of {} is {bytes} bytes; TMA needs a multiple of 16 bytes (for {}: {})",
                    e.cpp_name(),
                    e.cpp_name(),
                    16 * 8 / e.bits().max(1)
                ),
            ));
        }
    }
    let (a, b) = (cfg.a.0.bits(), cfg.b.0.bits());
    let two_byte = a == 16 && b == 16;
    let k_major = cfg.a.1.major(false) == AtomMajor::K && cfg.b.1.major(true) == AtomMajor::K;
    if a != b || (!two_byte && !k_major) {
        return Err(crate::err!(
            "{} A ({}) and {} B ({}) go to CUTLASS's register-sourced (RS) mainloop (is_use_rmem_A: not both 16-bit and not both K-major, or mixed widths), which this builder does not resolve yet; make both K-major (A RowMajor, B ColumnMajor) for the SS mainloop",
            cfg.a.0.cpp_name(),
            cfg.a.1.name(),
            cfg.b.0.cpp_name(),
            cfg.b.1.name()
        ));
    }
    Ok(())
}

/// `KernelScheduleAuto` as nvcc 12.1+ resolves it (`sm90_gmma_builder.inl`): Pingpong for a
/// 64-row tile, Cooperative otherwise (TMA-aligned operands; the cp.async fallback is
/// refused by [`check_config`] first).
fn resolve_schedule(cfg: &MainloopConfig, notes: &mut Vec<String>) -> Result<Schedule> {
    let s = match cfg.schedule {
        Schedule::Auto if cfg.tile[0] == 64 => Schedule::Pingpong,
        Schedule::Auto => Schedule::Cooperative,
        s => s,
    };
    if cfg.schedule == Schedule::Auto {
        notes.push(format!(
            "KernelScheduleAuto -> {s}: TMA-aligned operands, tile M = {} (nvcc >= 12.1: Pingpong for M = 64, else Cooperative; older nvcc picks KernelTmaWarpSpecialized)",
            cfg.tile[0]
        ));
    }
    let fp8 = is_fp8(cfg.a.0) && is_fp8(cfg.b.0);
    if s.fast_accum() && !fp8 {
        return Err(refuse(
            "Only FP8 datatypes are compatible with these kernel schedules\\n",
            format!("{s} takes FP8 A and B (float_e4m3_t / float_e5m2_t)"),
        ));
    }
    if s.cooperative() && cfg.tile[0] < 128 {
        // The builder builds it; the kernel (GemmUniversal) refuses it.
        notes.push(format!(
            "warning: {s} with tile M = {} builds, but the cooperative kernel refuses it: \"Cooperative kernel requires Tile Size to be greater than or equal to 128 along the M-dimension.\" | fix: use a tile of 128 or more rows, or KernelTmaWarpSpecializedPingpong",
            cfg.tile[0]
        ));
    }
    Ok(s)
}

/// The stage count (`compute_stage_count_or_override`): as given, or the arch's shared
/// memory (rounded down to 128) less the carveout (rounded up to 128) over a stage's bytes
/// (A and B tiles rounded up to 128, plus the barriers).
fn stage_count(
    cfg: &MainloopConfig,
    bits: [i64; 2],
    notes: &mut Vec<String>,
) -> Result<(i64, i64)> {
    let [m, n, k] = cfg.tile;
    let tile_bytes = |bits: i64, mn: i64| -> Result<i64> {
        round_up(arith::mul(arith::mul(bits, mn)?, k)?, 8).map(|b| b / 8)
    };
    let ab = arith::add(tile_bytes(bits[0], m)?, tile_bytes(bits[1], n)?)?;
    let stage = arith::add(round_up(ab, STAGE_ALIGNMENT)?, SM90_PIPELINE_BYTES)?;
    let carveout = match cfg.stages {
        Stages::Count(s) => {
            notes.push(format!("{}: {s} stages as given", cfg.stages));
            return Ok((s, stage));
        }
        Stages::Auto => 0,
        Stages::AutoCarveout(b) => round_up(b, STAGE_ALIGNMENT)?,
    };
    let capacity = SM90_SMEM_CAPACITY / STAGE_ALIGNMENT * STAGE_ALIGNMENT;
    let stages = (capacity - carveout) / stage;
    notes.push(format!(
        "{}: ({capacity} B of SM90 shared memory - {carveout} B carveout) / {stage} B a stage (A {m}x{k} + B {n}x{k} = {ab} B, rounded to 128, + {SM90_PIPELINE_BYTES} B of barriers) = {stages} stages",
        cfg.stages
    ));
    Ok((stages, stage))
}

/// CUTLASS's SM90 TMA warp-specialized SS mainloop builder (`GMMA_TMA_WS_SS`, its FP8
/// fast-accumulate twin and `KernelScheduleAuto`'s dispatch to them).
pub(super) fn build(cfg: &MainloopConfig) -> Result<Mainloop> {
    if matches!(
        cfg.schedule,
        Schedule::TmaWs1SmSm100 | Schedule::TmaWs2SmSm100 | Schedule::F8f6f4Sm120
    ) {
        return Err(no_builder(
            cfg,
            "KernelScheduleAuto or KernelTmaWarpSpecialized[Cooperative|Pingpong][FP8FastAccum]",
        ));
    }
    check_config(cfg)?;
    let mut notes = Vec::new();
    let schedule = resolve_schedule(cfg, &mut notes)?;
    let [tm, tn, tk] = cfg.tile;
    // The MMA reads float as tf32; tf32 and 8-bit operands are K-major whatever the tag.
    let mma_types = [cfg.a.0, cfg.b.0].map(|e| if e == Elem::F32 { Elem::TF32 } else { e });
    let gmem_majors = [cfg.a.1.major(false), cfg.b.1.major(true)];
    let majors = [0, 1].map(|i| {
        let e = mma_types[i];
        if gmem_majors[i] == AtomMajor::MN && e != Elem::TF32 && e.bits() != 8 {
            AtomMajor::MN
        } else {
            AtomMajor::K
        }
    });
    notes.push(format!(
        "GMMA majors: A {:?}, B {:?} (A {}, B {})",
        majors[0],
        majors[1],
        cfg.a.1.name(),
        cfg.b.1.name()
    ));
    // C++ builds the TiledMma first: the GMMA's tile rules fire before the smem atoms'.
    let op = op_selector(
        false,
        [mma_types[0], mma_types[1], cfg.acc],
        cfg.tile,
        majors,
    )?;
    let bits = mma_types.map(Elem::bits);
    let sw = [
        ss_smem_selector(majors[0], bits[0], tm, tk)?,
        ss_smem_selector(majors[1], bits[1], tn, tk)?,
    ];
    let (stages, stage_bytes) = stage_count(cfg, [cfg.a.0.bits(), cfg.b.0.bits()], &mut notes)?;
    if stages < 2 {
        // The FP8 mainloop asserts the same bound in other words.
        let fp8_policy = is_fp8(cfg.a.0) && is_fp8(cfg.b.0) && !schedule.fast_accum();
        return Err(refuse(
            if fp8_policy {
                "Specialization requires Stages set to value 1 or more."
            } else {
                "Specialization requires Stages set to value 2 or more."
            },
            format!(
                "{stages} stage(s) of {stage_bytes} B fit in SM90's {SM90_SMEM_CAPACITY} B of shared memory with {}: use a smaller tile (K = {tk}) or a smaller carveout",
                cfg.stages
            ),
        ));
    }
    let atoms = [
        smem_atom(majors[0], sw[0], bits[0])?,
        smem_atom(majors[1], sw[1], bits[1])?,
    ];
    check_atoms_divide([&atoms[0], &atoms[1]], [tm, tn], tk)?;
    let smem_layout_a = smem_layout(&atoms[0], tm, tk, stages, gmem_majors[0])?;
    let smem_layout_b = smem_layout(&atoms[1], tn, tk, stages, gmem_majors[1])?;
    let warpgroups = schedule.warpgroups();
    let atom_layout = Layout::col_major(IntTuple::ints(&[warpgroups, 1, 1]))?;
    let tiled_mma = make_tiled_mma(
        &op.atom(majors)?,
        &atom_layout,
        &[Tiler::Under, Tiler::Under, Tiler::Under],
    )?;
    notes.push(format!(
        "TiledMma: ss_op_selector -> {op} (the widest N dividing {tn}) over {warpgroups} warpgroup(s) along M ({schedule})"
    ));
    let gmem_copy = [
        TmaLoad::of(cfg.cluster[1], false),
        TmaLoad::of(cfg.cluster[0], false),
    ];
    notes.push(format!(
        "GmemTiledCopyA/B: {} (cluster N = {}), {} (cluster M = {})",
        gmem_copy[0].name(),
        cfg.cluster[1],
        gmem_copy[1].name(),
        cfg.cluster[0]
    ));
    let fp8_policy = is_fp8(cfg.a.0) && is_fp8(cfg.b.0) && !schedule.fast_accum();
    Ok(Mainloop {
        config: cfg.clone(),
        schedule,
        majors,
        mma_types,
        smem_bits: bits,
        smem_atoms: sw,
        smem_layout_a,
        smem_layout_b,
        op: op.to_string(),
        tiled_mma,
        gmem_copy,
        smem_copy: None,
        stages,
        policy: DispatchPolicy {
            template: if fp8_policy {
                "MainloopSm90TmaGmmaWarpSpecializedFP8"
            } else {
                "MainloopSm90TmaGmmaWarpSpecialized"
            },
            scheduler_stages: None,
            acc_stages: None,
            schedule: schedule.name().to_string(),
        },
        stage_bytes,
        notes,
        block_scale: None,
    })
}
