//! The SM120 block-scaled builder (`sm120_blockscaled_mma_builder.inl`): GeForce
//! Blackwell's TMA warp-specialized `mma.sync` mainloop over `nv_float4_t` / `mx_float*_t`
//! operands (`MainloopSm120TmaWarpSpecializedBlockScaled`), cooperative or pingpong: the
//! instruction the types select, the warps and permutation of the tiled MMA, the ldmatrix
//! copies, and the scale factors' shared-memory layouts and stages.

use super::blockscaled::{
    check_aligned, check_data, check_types, check_unpacked, select_instr, sf_per_mma, sf_staged,
    stage_count, stage_parts, stage_storage, BLK_MN, BLK_SF,
};
use super::common::{
    check_atoms_divide, no_builder, refuse, smem_layout, BlockScale, BlockScaledInstr,
    BlockScaledTag, DispatchPolicy, Mainloop, MainloopConfig, ScaledElem, Schedule, TmaLoad,
    SM120_SMEM_CAPACITY,
};
use super::sm120::{smem_copy, smem_selector};
use crate::arch::Arch;
use crate::atom::{make_tiled_mma, MmaAtom, TiledMma};
use crate::elem::Elem;
use crate::error::{arith, Result};
use crate::int_tuple::IntTuple;
use crate::layout::{self, Layout, Tiler};
use crate::sm120::Sm120Template;
use crate::smem_atom::{smem_atom, AtomMajor};

/// `SchedulerPipelineStageCount`.
const SCHEDULER_STAGES: i64 = 3;
/// What the kernel keeps of the shared memory before the stages are counted:
/// `sizeof(PipelineCLCFetchAsync<3, Shape<_1,_1,_1>>::SharedStorage)` (3 full and 3 empty
/// barriers) and 3 CLC responses of 16 bytes.
const KERNEL_BYTES: i64 = 48 + 3 * 16;

/// The builder's own static checks before `check_input_datatypes`, in the order C++ fires
/// them.
fn check(cfg: &MainloopConfig, s: [ScaledElem; 2], vs: [i64; 2]) -> Result<()> {
    let types = format!("{} x {}", s[0], s[1]);
    if s[0].sf() != s[1].sf() {
        return Err(refuse(
            "Scale factor types for A and B must be the same.",
            format!("{types}: A scales by {}, B by {}", s[0].sf(), s[1].sf()),
        ));
    }
    if vs[0] != vs[1] {
        return Err(refuse(
            "Scale factor vector size for A and B must be the same.",
            format!("{types}: A scales {} elements a factor, B {}", vs[0], vs[1]),
        ));
    }
    if cfg.a.1.major(false) != AtomMajor::K || cfg.b.1.major(true) != AtomMajor::K {
        return Err(refuse(
            "Only TN layout is supported.",
            format!(
                "A {} and B {}: SM120's block-scaled mainloop reads both K-major (A RowMajor, B ColumnMajor)",
                cfg.a.1.name(),
                cfg.b.1.name()
            ),
        ));
    }
    Ok(())
}

/// `sm120_tile_n_permute_selector<SFVectorSize, N>`: the tiled MMA's N permutation, which
/// keeps a thread's scale factors together.
fn n_permutation(vs: i64, n: i64) -> Result<Layout> {
    if vs != 16 && vs != 32 {
        return Err(refuse(
            "Unsupported SFVectorSize for SM120 collective builder.",
            format!("{vs}-element scale vectors: SM120 scales 16 or 32 elements a factor"),
        ));
    }
    let (shape, stride): (&[i64], &[i64]) = match n {
        n if n >= 32 => (&[8, 2, 2], &[1, 16, 8]),
        16 => (&[8, 2], &[1, 8]),
        8 => (&[8], &[1]),
        _ => {
            return Err(refuse(
                "TileShape_N must be at least 8 for SM120 blockscaled.",
                format!("tile N = {n}: SM120's block-scaled tile N is 8, 16 or at least 32"),
            ))
        }
    };
    Layout::new(IntTuple::ints(shape), IntTuple::ints(stride))
}

/// The builder's `SmemLayoutAtomSFA/SFB`: one tile's scale factors of `rows` rows (A's M,
/// B's N rounded up to 128) over the tile's K, 4 factors of 128 rows a block, each MMA's
/// `nsf` factors a row together:
/// `(((32,4),rows/128),((VS,nsf),4/nsf,K/VS/4)):(((16,4),512),((0,1),nsf,rows/128*512))`.
fn sf_atom(rows: i64, vs: i64, nsf: i64, k: i64) -> Result<Layout> {
    let t = IntTuple::Tuple;
    let i = IntTuple::Int;
    let blocks = rows / BLK_MN;
    let block = BLK_MN * BLK_SF;
    let shape = t(vec![
        t(vec![IntTuple::ints(&[32, 4]), i(blocks)]),
        t(vec![
            IntTuple::ints(&[vs, nsf]),
            i(BLK_SF / nsf),
            i(k / vs / BLK_SF),
        ]),
    ]);
    let stride = t(vec![
        t(vec![IntTuple::ints(&[16, 4]), i(block)]),
        t(vec![
            IntTuple::ints(&[0, 1]),
            i(nsf),
            i(arith::mul(blocks, block)?),
        ]),
    ]);
    Layout::new(shape, stride)
}

/// The tiled MMA: `rr_blockscaled_op_selector_sm120`'s op over the schedule's warps (4x2
/// cooperative, 8x1 below N = 16, 2x2 pingpong), permuted to `(min(M,128), N permutation,
/// 64 or 32)`.
fn tiled_mma(
    cfg: &MainloopConfig,
    tag: BlockScaledTag,
    instr: BlockScaledInstr,
    sf: Elem,
    vs: i64,
    notes: &mut Vec<String>,
) -> Result<(MmaAtom, TiledMma)> {
    let [tm, tn, _] = cfg.tile;
    let pingpong = cfg.schedule.sm120_pingpong();
    let m8 = instr == BlockScaledInstr::Mxf8f6f4;
    let perm_n = n_permutation(vs, tn)?;
    let (wm, wn) = match (pingpong, tn >= 16) {
        (true, _) => (2, 2),
        (false, true) => (4, 2),
        (false, false) => (8, 1),
    };
    let template = if m8 {
        Sm120Template::F8F6F4Vs
    } else {
        Sm120Template::Fp4Vs
    };
    let atom = template.atom(&[cfg.a.0, cfg.b.0, cfg.acc, sf], Some(vs))?;
    let perm_k = if m8 { 32 } else { 64 };
    let tiled_mma = make_tiled_mma(
        &atom,
        &Layout::col_major(IntTuple::ints(&[wm, wn, 1]))?,
        &[
            Tiler::Int(tm.min(128)),
            Tiler::Layout(perm_n.clone()),
            Tiler::Int(perm_k),
        ],
    )?;
    notes.push(format!(
        "TiledMma: {} over {wm}x{wn} warps ({}), permuted to ({},{perm_n},{perm_k}); {sf} scales of {vs} elements, the instruction {}",
        atom.name,
        if pingpong { "pingpong" } else if tn >= 16 { "cooperative" } else { "cooperative, N below 16" },
        tm.min(128),
        match (tag.instr, instr) {
            (Some(_), _) => format!("the schedule {} names", cfg.schedule),
            (None, BlockScaledInstr::Mxf4Nvf4) => "MXF4 for two 4-bit operands".to_string(),
            (None, BlockScaledInstr::Mxf8f6f4) => "MXF8F6F4 for these types".to_string(),
        }
    ));
    Ok((atom, tiled_mma))
}

/// One CTA a cluster, and a tile N of at least 8.
fn check_cta(cfg: &MainloopConfig) -> Result<()> {
    let [cm, cn, ck] = cfg.cluster;
    if cm * cn * ck != 1 {
        return Err(refuse(
            "no programmatic multicast on this arch",
            format!("cluster ({cm},{cn},{ck}): SM120 runs one CTA a cluster, Shape<_1,_1,_1>"),
        ));
    }
    if cfg.tile[1] < 8 {
        return Err(refuse(
            "Invalid tile shape N.",
            format!(
                "tile N = {}: SM120's block-scaled mainloop takes N of at least 8",
                cfg.tile[1]
            ),
        ));
    }
    Ok(())
}

/// CUTLASS's SM120 block-scaled TMA warp-specialized mainloop builder.
pub(super) fn build(cfg: &MainloopConfig, scaled: [ScaledElem; 2]) -> Result<Mainloop> {
    let [tm, tn, tk] = cfg.tile;
    let pingpong = cfg.schedule.sm120_pingpong();
    let tag = match cfg.schedule.block_scaled(Arch::Sm120) {
        Some(tag) if !(pingpong && tn < 16) => tag,
        _ => return Err(no_builder(
            cfg,
            "KernelScheduleAuto, KernelTmaWarpSpecializedCooperative, KernelTmaWarpSpecializedPingpong (tile N at least 16) or an SM120 block-scaled tag (KernelScheduleBlockScaledGemmSm120, KernelTmaWarpSpecialized[Pingpong]Nvf4Sm120, ...Mxf4Sm120, ...Mxf8f6f4Sm120)",
        )),
    };
    check_data(cfg, scaled)?;
    check_aligned(cfg, tag)?;
    let vs = [scaled[0].vs(tag), scaled[1].vs(tag)];
    check(cfg, scaled, vs)?;
    check_types(cfg, scaled, tag)?;
    check_cta(cfg)?;
    let mut notes = Vec::new();
    let instr = select_instr(cfg, scaled, tag)?;
    let (sf, vs) = (scaled[0].sf(), vs[0]);
    let m8 = instr == BlockScaledInstr::Mxf8f6f4;
    if tag.instr == Some(BlockScaledInstr::Mxf8f6f4) {
        check_unpacked(cfg, instr, false)?;
    }
    let (atom, tiled_mma) = tiled_mma(cfg, tag, instr, sf, vs, &mut notes)?;
    let schedule = match cfg.schedule {
        Schedule::Auto => Schedule::Cooperative,
        s => s,
    };
    // MXF8F6F4 keeps every operand a byte an element in shared memory.
    let bits = [cfg.a.0, cfg.b.0].map(|e| if m8 { 8 } else { e.bits() });
    let sw = [smem_selector(bits[0], tk)?, smem_selector(bits[1], tk)?];
    let atoms = [
        smem_atom(AtomMajor::K, sw[0], bits[0])?,
        smem_atom(AtomMajor::K, sw[1], bits[1])?,
    ];
    check_atoms_divide([&atoms[0], &atoms[1]], [tm, tn], tk)?;
    let unpack = [cfg.a.0, cfg.b.0].map(|e| m8 && e.bits() < 8);
    let smem_copy = [
        smem_copy(cfg.a.0, unpack[0], None),
        smem_copy(cfg.b.0, unpack[1], Some(tn)),
    ];
    let atom_k = atom.shape_mnk.get(2)?.size()?;
    let nsf = sf_per_mma(atom_k, vs, tk)?;
    let sfb_rows = tn.max(BLK_MN);
    if tn > BLK_MN && tn % BLK_MN != 0 {
        // SFB's blocks hold 128 columns each: N / 128 truncates, and the TMA box of the
        // scale factors no longer divides the tile.
        return Err(refuse(
            "Shape Divisibility Condition",
            format!("tile N = {tn}: SFB is laid out in blocks of 128 columns, so an N above 128 is a multiple of 128"),
        ));
    }
    let sf_atoms = [sf_atom(tm, vs, nsf, tk)?, sf_atom(sfb_rows, vs, nsf, tk)?];
    if tm < BLK_MN {
        notes.push(format!(
            "warning: tile M = {tm}: the builder lays SFA out in blocks of 128 rows and M / 128 = 0, so SmemLayoutSFA holds no scale factors (as CUTLASS builds it) | fix: a tile M of 128 or more"
        ));
    }
    let (tile_bytes, sf_bytes) = stage_parts([tm, tn], tk, bits, &sf_atoms)?;
    let capacity = SM120_SMEM_CAPACITY - KERNEL_BYTES;
    let stages = stage_count(
        cfg,
        capacity,
        &format!("{SM120_SMEM_CAPACITY} B of SM120 shared memory - {KERNEL_BYTES} B of the CLC scheduler's pipeline and responses"),
        tile_bytes,
        sf_bytes,
        &mut notes,
    )?;
    if stages < 2 {
        return Err(refuse(
            "Specialization requires Stages set to value 2 or more.",
            format!(
                "{stages} stage(s) of A, B and their scale factors fit in SM120's {SM120_SMEM_CAPACITY} B ({}): use a smaller tile (K = {tk}) or a smaller carveout",
                cfg.stages
            ),
        ));
    }
    let smem_layout_a = smem_layout(&atoms[0], tm, tk, stages, AtomMajor::K)?;
    let smem_layout_b = smem_layout(&atoms[1], tn, tk, stages, AtomMajor::K)?;
    let sfa = sf_staged(&sf_atoms[0], stages)?.0;
    let mut sfb = sf_staged(&sf_atoms[1], stages)?.0;
    if tn < BLK_MN {
        // The collective keeps the tile's N columns of SFB's 128.
        sfb = layout::logical_divide(&sfb, &Tiler::Tuple(vec![Tiler::Int(tn), Tiler::Int(tk)]))?;
        notes.push(format!(
            "SmemLayoutSFB: SFB is laid out over 128 columns and divided by the tile's ({tn},{tk})"
        ));
    }
    let stage_bytes = stage_storage(tile_bytes, sf_bytes)?;
    let sched_name = if pingpong {
        "KernelTmaWarpSpecializedPingpongBlockScaledSm120"
    } else {
        "KernelTmaWarpSpecializedCooperativeBlockScaledSm120"
    };
    Ok(Mainloop {
        config: cfg.clone(),
        schedule,
        majors: [AtomMajor::K; 2],
        mma_types: [cfg.a.0, cfg.b.0],
        smem_bits: bits,
        smem_atoms: sw,
        smem_layout_a,
        smem_layout_b,
        op: atom.name.clone(),
        tiled_mma,
        gmem_copy: [TmaLoad::Load; 2],
        smem_copy: Some(smem_copy),
        stages,
        policy: DispatchPolicy {
            template: "MainloopSm120TmaWarpSpecializedBlockScaled",
            scheduler_stages: Some(SCHEDULER_STAGES),
            acc_stages: None,
            schedule: format!("{sched_name}<{SCHEDULER_STAGES}>"),
        },
        stage_bytes,
        notes,
        block_scale: Some(BlockScale {
            sf,
            vs,
            instr,
            atoms: sf_atoms,
            layouts: [sfa, sfb],
            gmem_copy: [TmaLoad::Load; 2],
            stage_bytes: sf_bytes,
        }),
    })
}
