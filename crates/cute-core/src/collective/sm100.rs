//! The SM100 dense builder (`sm100_umma_builder.inl`): the TMA warp-specialized UMMA
//! mainloop on one SM or a CTA pair (`MainloopSm100TmaUmmaWarpSpecialized`).

use super::common::{
    no_builder, refuse, sm1xx_is_aligned, stage_order, DispatchPolicy, Mainloop, MainloopConfig,
    Schedule, Stages, TmaLoad, SM100_SMEM_CAPACITY,
};
use crate::atom::{MmaAtom, Operand, TiledMma};
use crate::elem::Elem;
use crate::error::{arith, Result};
use crate::int_tuple::IntTuple;
use crate::smem_atom::{sm100_smem_selector, smem_atom, tile_to_mma_shape, AtomMajor, AtomSwizzle};
use crate::swizzle::AnyLayout;
use crate::umma::{sm100_trivial_mma_op, Sm100Schedule, UmmaArgs, UmmaFamily};

/// TMEM the accumulator stages share: 128 lanes x 512 columns of 32 bits
/// (`TotalTmemRows * Sm100TmemCapacityColumns`).
const TMEM_WORDS: i64 = 65_536;
/// `sizeof(PipelineTmaUmmaAsync<1>::SharedStorage)`: a stage's full and empty barriers.
const STAGE_BARRIER_BYTES: i64 = 16;
/// The CLC scheduler's pipeline stages of a GEMM that is not grouped.
const SCHEDULER_STAGES: i64 = 2;

/// `check_input_datatypes`: TF32/F16/BF16/8-bit integers of one type, or any pair of
/// 8-, 6- and 4-bit floats.
fn check_types(cfg: &MainloopConfig) -> Result<()> {
    let (a, b) = (cfg.a.0, cfg.b.0);
    let one_type = matches!(
        a,
        Elem::TF32 | Elem::F32 | Elem::F16 | Elem::BF16 | Elem::S8 | Elem::U8
    ) && a == b;
    if one_type || (a.is_f8f6f4() && b.is_f8f6f4()) {
        return Ok(());
    }
    Err(refuse(
        "Unsupported data type for ElementA",
        format!(
            "SM100's UMMA builder takes A and B of one type among tfloat32_t, float, half_t, bfloat16_t, int8_t and uint8_t, or any two of the 8-, 6- and 4-bit floats; got {} and {}",
            a.cpp_name(),
            b.cpp_name()
        ),
    ))
}

/// Which builder the schedule and the alignments select: a misaligned `KernelScheduleAuto`
/// goes to the cp.async UMMA builder, a misaligned explicit schedule to none.
fn check_dispatch(cfg: &MainloopConfig) -> Result<()> {
    if !matches!(
        cfg.schedule,
        Schedule::Auto | Schedule::TmaWs1SmSm100 | Schedule::TmaWs2SmSm100
    ) {
        return Err(no_builder(
            cfg,
            "KernelScheduleAuto, KernelTmaWarpSpecialized1SmSm100 or KernelTmaWarpSpecialized2SmSm100",
        ));
    }
    let bytes = |(e, _, align): (Elem, _, i64)| arith::mul((e.bits() / 8).max(1), align);
    let cp_async = bytes(cfg.a)? % 16 != 0 || bytes(cfg.b)? % 16 != 0;
    if cfg.schedule == Schedule::Auto && cp_async {
        return Err(crate::err!(
            "AlignmentA = {} / AlignmentB = {} are not 16 bytes: KernelScheduleAuto goes to CUTLASS's cp.async UMMA mainloop (MainloopSm100UmmaCpAsyncWarpSpecialized), which this tool does not resolve; give 16-byte alignments ({} {} elements, {} {}) for the TMA mainloop",
            cfg.a.2,
            cfg.b.2,
            128 / cfg.a.0.bits().max(1),
            cfg.a.0.cpp_name(),
            128 / cfg.b.0.bits().max(1),
            cfg.b.0.cpp_name()
        ));
    }
    if !sm1xx_is_aligned(cfg, cfg.a.0.bits() < 8 || cfg.b.0.bits() < 8)? {
        return Err(refuse(
            "Could not build a collective for given parameters.",
            format!(
                "AlignmentA = {} of {} and AlignmentB = {} of {} are not TMA-aligned (128 bits, or 512 / 768 bits for 4- / 6-bit operands), so no SM100 builder takes {}",
                cfg.a.2,
                cfg.a.0.cpp_name(),
                cfg.b.2,
                cfg.b.0.cpp_name(),
                cfg.schedule
            ),
        ));
    }
    Ok(())
}

/// `sm100_make_trivial_tiled_mma`'s tile rules, in CUTLASS's words.
fn check_tile(two_sm: bool, [m, n, _]: [i64; 3]) -> Result<()> {
    let (ok, cta) = if two_sm {
        (m == 128 || m == 256, "2-SM (a CTA pair): 128 or 256")
    } else {
        (m == 64 || m == 128, "1-SM: 64 or 128")
    };
    if !ok {
        return Err(refuse(
            "Invalid TileShape_M.",
            format!("tile M = {m}, but a {cta} rows"),
        ));
    }
    if n % 8 != 0 || n > 256 {
        return Err(refuse(
            "Invalid TileShape_N.",
            format!("tile N = {n}, but N is a multiple of 8 up to 256"),
        ));
    }
    Ok(())
}

/// The op structs' static_asserts on the accumulator and N, in CUTLASS's words (the
/// atom checks the rest).
pub(super) fn check_op(args: &UmmaArgs) -> Result<()> {
    let (op, n) = (args.op, args.n);
    let s8 = args.op.family == UmmaFamily::S8;
    if s8 && !op.two_sm && args.c != Elem::S32 {
        return Err(refuse(
            "SM100_MMA_S8_SS result type can only be int32_t.",
            format!(
                "an int8 UMMA accumulates in int32_t, not {}",
                args.c.cpp_name()
            ),
        ));
    }
    let (ok, rule) = match (args.op.family, op.two_sm) {
        (UmmaFamily::S8, false) => (
            n == 8 || (n % 16 == 0 && (16..=256).contains(&n)),
            "8 or a multiple of 16 between 16 and 256",
        ),
        (UmmaFamily::S8, true) => (
            n % 32 == 0 && (32..=256).contains(&n),
            "a multiple of 32 between 32 and 256",
        ),
        (UmmaFamily::Tf32 | UmmaFamily::F16Bf16, true) => (
            n % 16 == 0 && (16..=256).contains(&n),
            "a multiple of 16 between 16 and 256",
        ),
        _ => (true, ""),
    };
    if !ok {
        let name = if op.two_sm || s8 {
            op.to_string()
        } else {
            format!("SM100_MMA_{}", op.family.tag())
        };
        return Err(refuse(
            &format!("{name} N-mode size should be {rule}."),
            format!("tile N = {n} for {op}"),
        ));
    }
    Ok(())
}

/// `sm100_cluster_shape_to_tma_atom_A/B`: A is multicast along the cluster's N, B along its
/// M (a CTA pair's M for a 2-SM MMA).
pub(super) fn tma_loads(cfg: &MainloopConfig, two_sm: bool) -> Result<[TmaLoad; 2]> {
    let [cm, cn, _] = cfg.cluster;
    if two_sm && cm % 2 != 0 {
        return Err(refuse(
            "Cluster shape not divisible by MMA size",
            format!("a 2-SM MMA runs on a CTA pair along the cluster's M, but cluster M = {cm}: make it even"),
        ));
    }
    let b_peers = if two_sm { cm / 2 } else { cm };
    Ok([TmaLoad::of(cn, two_sm), TmaLoad::of(b_peers, two_sm)])
}

/// `AccumulatorPipelineStageCount`: the accumulator tiles TMEM holds, at most 4.
fn acc_stages(flag_2sm: bool, cta_m: i64, n: i64) -> Result<i64> {
    let cells = arith::mul(cta_m, n)?;
    let acc = if flag_2sm || cta_m > 64 {
        TMEM_WORDS / cells
    } else {
        (512 / n) * 2
    };
    if acc <= 0 {
        return Err(refuse(
            "Accumulator pipeline stage count must be positive.  This error probably means that TileShape_MNK and/or TiledMma::ThrLayoutVMNK are wrong.",
            format!("a {cta_m}x{n} accumulator does not fit TMEM's 128x512 columns"),
        ));
    }
    Ok(acc.min(4))
}

/// `sm100_compute_stage_count_or_override`: as given, or the shared memory less the kernel's
/// carveout (barriers, CLC responses, TMEM pointers: 16·Acc + 128 bytes) and the user's,
/// over a stage's A and B tiles and its barriers.
fn stage_count(
    cfg: &MainloopConfig,
    tile_bytes: [i64; 2],
    acc: i64,
    notes: &mut Vec<String>,
) -> Result<(i64, i64)> {
    let stage = arith::add(
        arith::add(tile_bytes[0], tile_bytes[1])?,
        STAGE_BARRIER_BYTES,
    )?;
    let user = match cfg.stages {
        Stages::Count(s) => {
            notes.push(format!("{}: {s} stages as given", cfg.stages));
            return Ok((s, stage));
        }
        Stages::Auto => 0,
        Stages::AutoCarveout(b) => b,
    };
    let kernel = 16 * acc + 128;
    let stages = (SM100_SMEM_CAPACITY - kernel - user) / stage;
    notes.push(format!(
        "{}: ({SM100_SMEM_CAPACITY} B of SM100 shared memory - {kernel} B of the kernel's barriers and CLC storage (16 x {acc} accumulator stages + 128) - {user} B carveout) / {stage} B a stage (A {} B + B {} B + {STAGE_BARRIER_BYTES} B of barriers) = {stages} stages",
        cfg.stages, tile_bytes[0], tile_bytes[1]
    ));
    if stages <= 0 {
        return Err(refuse(
            "Smem usage is too high. Can't create any SMEM buffers for A, and B.",
            format!("not one stage of {stage} B fits beside a {user} B carveout: lower the carveout or the tile's K"),
        ));
    }
    Ok((stages, stage))
}

/// The MMA: 1-SM or 2-SM (the schedule's, or `KernelScheduleAuto`'s choice), the UMMA op
/// and its TiledMma; and the builder's own 2-SM flag, which feeds the accumulator count
/// and differs for `KernelScheduleAuto` on an even cluster with a 64-row tile.
fn choose_mma(
    cfg: &MainloopConfig,
    mma_types: [Elem; 2],
    majors: [AtomMajor; 2],
    notes: &mut Vec<String>,
) -> Result<(Schedule, bool, UmmaArgs, TiledMma)> {
    let [tm, tn, tk] = cfg.tile;
    let cm = cfg.cluster[0];
    let (flag_2sm, sched) = match cfg.schedule {
        Schedule::TmaWs2SmSm100 => (true, Sm100Schedule::TwoSm),
        Schedule::TmaWs1SmSm100 => (false, Sm100Schedule::OneSm),
        _ => (cm % 2 == 0, Sm100Schedule::Auto),
    };
    let two_sm = match sched {
        Sm100Schedule::TwoSm => true,
        Sm100Schedule::OneSm => false,
        Sm100Schedule::Auto => cm % 2 == 0 && tm % 128 == 0,
    };
    let schedule = if two_sm {
        Schedule::TmaWs2SmSm100
    } else {
        Schedule::TmaWs1SmSm100
    };
    if cfg.schedule == Schedule::Auto {
        notes.push(format!(
            "KernelScheduleAuto -> {schedule}: cluster M = {cm}, tile M = {tm} (a 2-SM MMA for an even cluster M and a tile M that is a multiple of 128, else 1-SM)"
        ));
    }
    check_tile(two_sm, cfg.tile)?;
    let args = sm100_trivial_mma_op(
        [mma_types[0], mma_types[1], cfg.acc],
        [tm, tn],
        cm,
        majors,
        sched,
    )?;
    check_op(&args)?;
    let atom = MmaAtom::umma(&args)?;
    atom.check_op()?;
    let atom_k = atom.shape_mnk.get(2)?.size()?;
    if tk % atom_k != 0 {
        return Err(refuse(
            "Static cluster shape used: TileShape should be evenly divided by TiledMma",
            format!("tile K = {tk} is not a multiple of the UMMA's K = {atom_k}"),
        ));
    }
    notes.push(format!(
        "TiledMma: sm100_make_trivial_tiled_mma -> {args} ({}); UMMA majors A {:?}, B {:?}",
        if two_sm {
            "a CTA pair, each CTA holding half of M and of B's N"
        } else {
            "one SM"
        },
        majors[0],
        majors[1]
    ));
    Ok((schedule, flag_2sm, args, atom.tiled()?))
}

/// `SmemLayoutA/B`: each operand's atom tiled with `UMMA::tile_to_mma_shape` over the MMA's
/// partition of its (MN, K) tile, the stages appended.
pub(super) fn smem_layouts(
    tiled_mma: &TiledMma,
    majors: [AtomMajor; 2],
    atoms: [(AtomSwizzle, i64); 2],
    [tm, tn, tk]: [i64; 3],
    stages: i64,
) -> Result<[AnyLayout; 2]> {
    let smem = |i: usize, op: Operand, mn: i64| -> Result<_> {
        let atom = smem_atom(majors[i], atoms[i].0, atoms[i].1)?;
        let shape = tiled_mma.partition_shape(op, &IntTuple::ints(&[mn, tk]))?;
        let mut staged = match shape {
            IntTuple::Tuple(v) => v,
            s => vec![s],
        };
        staged.push(IntTuple::Int(stages));
        tile_to_mma_shape(&atom, &IntTuple::Tuple(staged), &stage_order(majors[i]))
    };
    Ok([smem(0, Operand::A, tm)?, smem(1, Operand::B, tn)?])
}

/// CUTLASS's SM100 dense TMA UMMA mainloop builder.
pub(super) fn build(cfg: &MainloopConfig) -> Result<Mainloop> {
    check_dispatch(cfg)?;
    check_types(cfg)?;
    let mut notes = Vec::new();
    let [tm, tn, tk] = cfg.tile;
    let cm = cfg.cluster[0];
    let mma_types = [cfg.a.0, cfg.b.0].map(|e| if e == Elem::F32 { Elem::TF32 } else { e });
    if mma_types.iter().any(|e| e.bits() < 8) {
        return Err(crate::err!(
            "{} x {}: the builder reads 4- and 6-bit operands unpacked in shared memory (float_e2m1_unpacksmem_t, ...), which this tool does not resolve yet; 8-bit and wider types are",
            cfg.a.0.cpp_name(),
            cfg.b.0.cpp_name()
        ));
    }
    let majors = [cfg.a.1.major(false), cfg.b.1.major(true)];
    let (schedule, flag_2sm, args, tiled_mma) = choose_mma(cfg, mma_types, majors, &mut notes)?;
    let two_sm = args.op.two_sm;
    let t = if two_sm { 2 } else { 1 };
    let gmem_copy = tma_loads(cfg, two_sm)?;
    notes.push(format!(
        "GmemTiledCopyA/B: {} (cluster N = {}), {} (cluster M = {cm})",
        gmem_copy[0].name(),
        cfg.cluster[1],
        gmem_copy[1].name()
    ));
    let (cta_m, cta_n) = (tm / t, tn / t);
    let bits = mma_types.map(|e| e.bits().max(8));
    let sw = [
        sm100_smem_selector(majors[0], bits[0], cta_m, tk)?,
        sm100_smem_selector(majors[1], bits[1], cta_n, tk)?,
    ];
    let acc = acc_stages(flag_2sm, cta_m, tn)?;
    notes.push(format!(
        "AccumulatorPipelineStageCount: min(4, {}) = {acc} ({cta_m}x{tn} accumulators per CTA in TMEM's 128 lanes x 512 columns)",
        if flag_2sm || cta_m > 64 {
            format!("65536 / ({cta_m} x {tn})")
        } else {
            format!("512 / {tn} x 2")
        }
    ));
    let tile_bytes = [
        arith::mul(arith::mul(cta_m, tk)?, bits[0])? / 8,
        arith::mul(arith::mul(cta_n, tk)?, bits[1])? / 8,
    ];
    let (stages, stage_bytes) = stage_count(cfg, tile_bytes, acc, &mut notes)?;
    if stages < 2 {
        return Err(refuse(
            "Specialization requires Stages set to value 1 or more.",
            format!(
                "{stages} stage(s) of {stage_bytes} B: the mainloop needs 2 or more (a smaller tile K = {tk}, or a smaller carveout)"
            ),
        ));
    }
    let [smem_layout_a, smem_layout_b] = smem_layouts(
        &tiled_mma,
        majors,
        [(sw[0], bits[0]), (sw[1], bits[1])],
        cfg.tile,
        stages,
    )?;
    Ok(Mainloop {
        config: cfg.clone(),
        schedule,
        majors,
        mma_types,
        smem_bits: bits,
        smem_atoms: sw,
        smem_layout_a,
        smem_layout_b,
        op: args.to_string(),
        tiled_mma,
        gmem_copy,
        smem_copy: None,
        stages,
        policy: DispatchPolicy {
            template: "MainloopSm100TmaUmmaWarpSpecialized",
            scheduler_stages: Some(SCHEDULER_STAGES),
            acc_stages: Some(acc),
            schedule: format!("KernelTmaWarpSpecializedSm100<{SCHEDULER_STAGES}, {acc}>"),
        },
        stage_bytes,
        notes,
        block_scale: None,
    })
}
