//! The SM100 block-scaled builder (`sm100_blockscaled_umma_builder.inl`): the TMA
//! warp-specialized UMMA mainloop over `nv_float4_t` / `mx_float*_t` operands
//! (`MainloopSm100TmaUmmaWarpSpecializedBlockScaled`): the instruction the types select,
//! the scale factors' shared-memory layouts (`Sm1xxBlockScaledConfig`) and their TMA loads.

use super::blockscaled::{
    check_aligned, check_data, check_types, check_unpacked, select_instr, sf_per_mma, sf_staged,
    stage_count, stage_parts, stage_storage, BLK_MN, BLK_SF,
};
use super::common::{
    no_builder, refuse, BlockScale, BlockScaledInstr, BlockScaledTag, DispatchPolicy, Mainloop,
    MainloopConfig, ScaledElem, Schedule, TmaLoad, SM100_SMEM_CAPACITY,
};
use super::sm100::{check_op, smem_layouts, tma_loads};
use crate::arch::Arch;
use crate::atom::MmaAtom;
use crate::elem::Elem;
use crate::error::{arith, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::smem_atom::{sm100_smem_selector, AtomMajor};
use crate::umma::{UmmaArgs, UmmaFamily, UmmaOp, UmmaVariant};

/// The CLC scheduler's pipeline stages of a GEMM that is not grouped.
const SCHEDULER_STAGES: i64 = 2;
/// `blockscaled::is_2sm`: the tag's, else a 256-row tile on an even cluster M.
fn is_2sm(cfg: &MainloopConfig, tag: BlockScaledTag, notes: &mut Vec<String>) -> Result<bool> {
    if let Some(two) = tag.two_sm {
        return Ok(two);
    }
    let ([tm, ..], cm) = (cfg.tile, cfg.cluster[0]);
    let two = if cm % 2 != 0 {
        false
    } else if tm == 256 || tm == 128 {
        tm == 256
    } else {
        return Err(refuse(
            "Unsupported M dimension for TileShape_MNK.",
            format!(
                "{} on an even cluster M takes a 128-row (1-SM) or 256-row (2-SM) tile, not {tm}",
                cfg.schedule
            ),
        ));
    };
    notes.push(format!(
        "{} -> {}: cluster M = {cm}, tile M = {tm} (a 2-SM MMA for a 256-row tile on an even cluster M, else 1-SM)",
        cfg.schedule,
        if two { "2-SM" } else { "1-SM" }
    ));
    Ok(two)
}

/// `sm100_make_blockscaled_{1,2}sm_trivial_tiled_mma`'s tile rules.
fn check_tile(two_sm: bool, [m, n, _]: [i64; 3]) -> Result<()> {
    let rows = if two_sm { 256 } else { 128 };
    if m != rows {
        return Err(refuse(
            "Invalid TileShape_M.",
            format!(
                "tile M = {m}, but a {} block-scaled UMMA takes {rows} rows",
                if two_sm { "2-SM" } else { "1-SM" }
            ),
        ));
    }
    if !matches!(n, 64 | 128 | 192 | 256) {
        return Err(refuse(
            "Invalid TileShape_N.",
            format!("tile N = {n}, but a block-scaled UMMA takes 64, 128, 192 or 256"),
        ));
    }
    Ok(())
}

/// `deduce_smem_layoutSFA/SFB`: one stage's scale factors of `rows` rows (A's per-CTA M,
/// B's N rounded up to 128) over the tile's K, 4 factors of 128 rows a block:
/// `((((32,4),rows/128),(VS,K_atom/VS)),1,(4/(K_atom/VS),K/VS/4))`.
fn sf_atom(rows: i64, vs: i64, atom_k: i64, k: i64) -> Result<Layout> {
    let nsf = sf_per_mma(atom_k, vs, k)?;
    let t = |v: Vec<IntTuple>| IntTuple::Tuple(v);
    let i = IntTuple::Int;
    let blocks = rows / BLK_MN;
    let shape = t(vec![
        t(vec![
            t(vec![IntTuple::ints(&[32, 4]), i(blocks)]),
            IntTuple::ints(&[vs, nsf]),
        ]),
        i(1),
        IntTuple::ints(&[BLK_SF / nsf, k / vs / BLK_SF]),
    ]);
    let stride = t(vec![
        t(vec![
            t(vec![IntTuple::ints(&[16, 4]), i(BLK_MN * BLK_SF)]),
            IntTuple::ints(&[0, 1]),
        ]),
        i(0),
        IntTuple::ints(&[nsf, arith::mul(blocks, BLK_MN * BLK_SF)?]),
    ]);
    Layout::new(shape, stride)
}

/// The block-scaled UMMA op and its arguments.
fn umma_args(
    cfg: &MainloopConfig,
    instr: BlockScaledInstr,
    two_sm: bool,
    sf: Elem,
    vs: i64,
    majors: [AtomMajor; 2],
) -> UmmaArgs {
    let family = match instr {
        BlockScaledInstr::Mxf4Nvf4 => UmmaFamily::MxF4,
        BlockScaledInstr::Mxf8f6f4 => UmmaFamily::MxF8F6F4,
    };
    let op = UmmaOp {
        family,
        two_sm,
        a_tmem: false,
        variant: UmmaVariant::Dense,
    };
    let mut args = UmmaArgs::new(
        op,
        [cfg.a.0, cfg.b.0, cfg.acc],
        cfg.tile[0],
        cfg.tile[1],
        majors,
    );
    args.sf = Some(sf);
    args.vs = (instr == BlockScaledInstr::Mxf4Nvf4).then_some(vs);
    args
}

/// The op as C++ names it: MXF8F6F4 reads 4- and 6-bit operands unpacked
/// (`float_e2m1_unpacksmem_t`, ...).
fn op_name(args: &UmmaArgs, instr: BlockScaledInstr) -> String {
    let name = args.to_string();
    if instr != BlockScaledInstr::Mxf8f6f4 {
        return name;
    }
    let unpack = |e: Elem| match e {
        Elem::E2M1 | Elem::E2M3 | Elem::E3M2 => {
            format!("{}_unpacksmem_t", e.cpp_name().trim_end_matches("_t"))
        }
        e => e.cpp_name().to_string(),
    };
    let (open, rest) = name.split_once('<').unwrap_or((&name, ""));
    let mut parts: Vec<String> = rest.split(',').map(str::to_string).collect();
    if parts.len() > 2 {
        parts[0] = unpack(args.a);
        parts[1] = unpack(args.b);
    }
    format!("{open}<{}", parts.join(","))
}

/// `GmemTiledCopyA/B` and `GmemTiledCopySFA/SFB`: SFA loads as A does; SFB as B does on
/// one SM, and always multicast on a CTA pair.
fn loads(
    cfg: &MainloopConfig,
    two_sm: bool,
    notes: &mut Vec<String>,
) -> Result<([TmaLoad; 2], [TmaLoad; 2])> {
    let gmem_copy = tma_loads(cfg, two_sm)?;
    let sfb_copy = if two_sm {
        TmaLoad::TwoSmMulticast
    } else {
        TmaLoad::of(cfg.cluster[0], false)
    };
    let sf_copy = [gmem_copy[0], sfb_copy];
    notes.push(format!(
        "GmemTiledCopyA/SFA: {} (cluster N = {}); GmemTiledCopyB: {}, SFB: {} ({})",
        gmem_copy[0].name(),
        cfg.cluster[1],
        gmem_copy[1].name(),
        sfb_copy.name(),
        if two_sm {
            "a CTA pair always multicasts SFB"
        } else {
            "multicast along the cluster's M"
        }
    ));
    Ok((gmem_copy, sf_copy))
}

/// CUTLASS's SM100 block-scaled TMA UMMA mainloop builder.
pub(super) fn build(cfg: &MainloopConfig, scaled: [ScaledElem; 2]) -> Result<Mainloop> {
    let Some(tag) = cfg.schedule.block_scaled(Arch::Sm100) else {
        return Err(no_builder(
            cfg,
            "KernelScheduleAuto or a block-scaled tag (KernelTmaWarpSpecialized1Sm/2SmBlockScaledSm100, ...Nvf4Sm100, ...Mxf4Sm100, ...Mxf8f6f4Sm100)",
        ));
    };
    check_data(cfg, scaled)?;
    check_aligned(cfg, tag)?;
    check_types(cfg, scaled, tag)?;
    let mut notes = Vec::new();
    let two_sm = is_2sm(cfg, tag, &mut notes)?;
    let instr = select_instr(cfg, scaled, tag)?;
    let majors = [cfg.a.1.major(false), cfg.b.1.major(true)];
    if instr != BlockScaledInstr::Mxf8f6f4 && majors != [AtomMajor::K; 2] {
        return Err(refuse(
            "Only MMA.MXF8F6F4 supports non-K major inputs",
            format!(
                "{} x {} on MXF4 read K-major A (RowMajor) and B (ColumnMajor)",
                scaled[0], scaled[1]
            ),
        ));
    }
    check_unpacked(cfg, instr, two_sm)?;
    check_tile(two_sm, cfg.tile)?;
    let (sf, vs) = (scaled[0].sf(), scaled[0].vs(tag));
    let args = umma_args(cfg, instr, two_sm, sf, vs, majors);
    check_op(&args)?;
    let atom = MmaAtom::umma(&args)?;
    atom.check_op()?;
    let [tm, tn, tk] = cfg.tile;
    let atom_k = atom.shape_mnk.get(2)?.size()?;
    if tk % atom_k != 0 {
        return Err(refuse(
            "Static cluster shape used: TileShape should be evenly divided by TiledMma",
            format!("tile K = {tk} is not a multiple of the UMMA's K = {atom_k}"),
        ));
    }
    let op = op_name(&args, instr);
    let schedule = match (tag.two_sm, two_sm) {
        (Some(_), _) => cfg.schedule,
        (None, true) => Schedule::BlockScaled2SmSm100,
        (None, false) => Schedule::BlockScaled1SmSm100,
    };
    notes.push(format!(
        "TiledMma: {op} ({}; {} scales of {vs} elements, the instruction {})",
        if two_sm {
            "a CTA pair, each CTA holding half of M"
        } else {
            "one SM"
        },
        sf,
        match (tag.instr, instr) {
            (Some(_), _) => format!("the schedule {} names", cfg.schedule),
            (None, BlockScaledInstr::Mxf4Nvf4) => "MXF4 for two K-major 4-bit operands".to_string(),
            (None, BlockScaledInstr::Mxf8f6f4) => "MXF8F6F4 for these types and majors".to_string(),
        }
    ));
    let tiled_mma = atom.tiled()?;
    let (gmem_copy, sf_copy) = loads(cfg, two_sm, &mut notes)?;
    let t = if two_sm { 2 } else { 1 };
    let (cta_m, cta_n) = (tm / t, tn / t);
    // MXF8F6F4 keeps every operand a byte an element in shared memory.
    let bits = [cfg.a.0, cfg.b.0].map(|e| match instr {
        BlockScaledInstr::Mxf8f6f4 => 8,
        BlockScaledInstr::Mxf4Nvf4 => e.bits(),
    });
    let sw = [
        sm100_smem_selector(majors[0], bits[0], cta_m, tk)?,
        sm100_smem_selector(majors[1], bits[1], cta_n, tk)?,
    ];
    let sfb_rows = arith::mul((tn + BLK_MN - 1) / BLK_MN, BLK_MN)?;
    let sf_atoms = [
        sf_atom(cta_m, vs, atom_k, tk)?,
        sf_atom(sfb_rows, vs, atom_k, tk)?,
    ];
    let acc = if tn == 256 { 1 } else { 2 };
    notes.push(format!(
        "AccumulatorPipelineStageCount: {acc} (MMA N = {tn}: 1 for 256, else 2); SFB over {sfb_rows} columns{}",
        if sfb_rows != tn { " (N rounded up to 128 rows, as the TMEM copy of SFB reads it)" } else { "" }
    ));
    let (tile_bytes, sf_bytes) = stage_parts([cta_m, cta_n], tk, bits, &sf_atoms)?;
    let kernel = 16 * acc + 128;
    let stages = stage_count(
        cfg,
        SM100_SMEM_CAPACITY - kernel,
        &format!("{SM100_SMEM_CAPACITY} B of SM100 shared memory - {kernel} B of the kernel's barriers and CLC storage (16 x {acc} accumulator stages + 128)"),
        tile_bytes,
        sf_bytes,
        &mut notes,
    )?;
    if stages <= 0 {
        return Err(refuse(
            "Smem usage is too high. Can't create any SMEM buffers for A, B, SFA, and SFB.",
            format!("not one stage of A, B and their scale factors fits beside the carveout ({}): lower the carveout or the tile's K", cfg.stages),
        ));
    }
    let [smem_layout_a, smem_layout_b] = smem_layouts(
        &tiled_mma,
        majors,
        [(sw[0], bits[0]), (sw[1], bits[1])],
        cfg.tile,
        stages,
    )?;
    let layouts = [
        sf_staged(&sf_atoms[0], stages)?.0,
        sf_staged(&sf_atoms[1], stages)?.0,
    ];
    let stage_bytes = stage_storage(tile_bytes, sf_bytes)?;
    Ok(Mainloop {
        config: cfg.clone(),
        schedule,
        majors,
        mma_types: [cfg.a.0, cfg.b.0],
        smem_bits: bits,
        smem_atoms: sw,
        smem_layout_a,
        smem_layout_b,
        op,
        tiled_mma,
        gmem_copy,
        smem_copy: None,
        stages,
        policy: DispatchPolicy {
            template: "MainloopSm100TmaUmmaWarpSpecializedBlockScaled",
            scheduler_stages: Some(SCHEDULER_STAGES),
            acc_stages: Some(acc),
            schedule: format!(
                "KernelTmaWarpSpecializedBlockScaledSm100<{SCHEDULER_STAGES}, {acc}>"
            ),
        },
        stage_bytes,
        notes,
        block_scale: Some(BlockScale {
            sf,
            vs,
            instr,
            atoms: sf_atoms,
            layouts,
            gmem_copy: sf_copy,
            stage_bytes: sf_bytes,
        }),
    })
}
