//! The SM100 epilogue builder (`sm100_builder.inl`): the TMA warp-specialized epilogue of a
//! 1-SM or 2-SM UMMA (`Sm100TmaWarpSpecialized`) and the no-smem one (`Sm100NoSmem`), both
//! reading the accumulators out of TMEM with a `tcgen05.ld` the builder picks.

use super::common::{
    atom_layout, aux_bytes, check_alignment, fusion_bytes, no_builder, refuse, shared_storage,
    Epilogue, EpilogueConfig, EpilogueSchedule, TmaEpilogue,
};
use crate::collective::GemmLayout;
use crate::elem::Elem;
use crate::error::{arith, Error, Result};
use crate::int_tuple::IntTuple;
use crate::layout::{self, Layout, ModeOrder};
use crate::smem_atom::{sm100_smem_selector, AtomMajor, AtomSwizzle};
use crate::swizzle::AnyLayout;

/// `sizeof(SharedStorage)` of the no-smem epilogue (its fusion's storage and an empty
/// aligned array).
const NO_SMEM_STORAGE: i64 = 32;

/// The schedule `EpilogueScheduleAuto` stands for (`is_2sm()`: an even cluster M and a
/// 128- or 256-row MMA tile), checked against the cluster.
fn resolve_schedule(cfg: &EpilogueConfig, notes: &mut Vec<String>) -> Result<EpilogueSchedule> {
    let [tm, ..] = cfg.tile;
    let cm = cfg.cluster[0];
    let s = match cfg.schedule {
        EpilogueSchedule::Auto => {
            if cfg.epi_tile.is_some() {
                return Err(refuse(
                    "Don't specify epilogue tile with auto schedule",
                    "EpilogueScheduleAuto takes EpilogueTileAuto: name TmaWarpSpecialized1Sm/2Sm to give a tile".to_string(),
                ));
            }
            // A block-scaled MMA runs on a CTA pair only with a 256-row tile.
            let two = cm % 2 == 0 && (tm == 256 || (tm == 128 && !cfg.block_scaled));
            let s = if two {
                EpilogueSchedule::TmaWs2Sm
            } else {
                EpilogueSchedule::TmaWs1Sm
            };
            notes.push(format!(
                "EpilogueScheduleAuto -> {s}: cluster M = {cm}, MMA tile M = {tm} (2-SM for an even cluster M and a {} tile; SM100's auto epilogue keeps C and D in shared memory, unlike SM90's)",
                if cfg.block_scaled { "256-row (block-scaled)" } else { "128- or 256-row" }
            ));
            s
        }
        s @ (EpilogueSchedule::TmaWs1Sm
        | EpilogueSchedule::TmaWs2Sm
        | EpilogueSchedule::NoSmem1Sm
        | EpilogueSchedule::NoSmem2Sm) => s,
        _ => {
            return Err(no_builder(
                cfg,
                "EpilogueScheduleAuto, TmaWarpSpecialized1Sm/2Sm or NoSmemWarpSpecialized1Sm/2Sm",
            ))
        }
    };
    let two = matches!(s, EpilogueSchedule::TmaWs2Sm | EpilogueSchedule::NoSmem2Sm);
    if two && (cm % 2 != 0 || tm % 2 != 0) {
        return Err(refuse(
            "schedule + cluster mismatch",
            format!("{s} runs on a CTA pair along the cluster's M, but cluster M = {cm}"),
        ));
    }
    Ok(s)
}

/// `sm100_get_tmem_load_op`: the `tcgen05.ld` shape for a warp's part of the epilogue tile
/// (datapaths = its rows), repeated as wide as its columns' bits allow.
fn tmem_load_op(acc: Elem, d: (Elem, GemmLayout), [dp, cols]: [i64; 2]) -> Result<(String, i64)> {
    if dp != 16 && dp != 32 {
        return Err(refuse(
            "Unsupported tmem datapath count",
            format!("a warp's epilogue subtile has {dp} rows; a TMEM load reads 16 or 32"),
        ));
    }
    let m_major = d.1 == GemmLayout::ColumnMajor;
    let (a, db) = (acc.bits(), d.0.bits());
    // (shape, bits a repetition, widest repetition, suffix)
    let (base, w, max, sfx): (&str, i64, i64, &str) = match (a, db, dp, m_major) {
        (32, 32, 16, true) | (32, 16, 16, _) | (32, 16, 32, true) | (32, 8, 16, true) => {
            ("16dp256b", 256, 32, "")
        }
        (32, 32, 16, false) => ("16dp128b", 128, 64, ""),
        (32, 8, 16, false) => ("16dp32b", 64, 128, ""),
        (32, 32 | 16 | 8, 32, _) | (32, 6 | 4, 32, _) => ("32dp32b", 32, 128, ""),
        (32, 6 | 4, 16, _) => {
            return Err(refuse(
                "num_dp == 32",
                format!(
                    "a {}-bit D is read out of TMEM 32 rows a warp, and a warp's epilogue subtile has 16",
                    db
                ),
            ))
        }
        (16, 16, 32, false) => ("32dp32b", 32, 128, "_16b"),
        (16, 16, _, _) => ("16dp128b", 128, 64, "_16b"),
        _ => {
            return Err(crate::err!(
                "a {} accumulator stored as {}: the SM100 epilogue's TMEM load for these widths is not resolved (32-bit accumulators to 32-, 16- or 8-bit outputs, 16-bit to 16-bit are)",
                acc.cpp_name(),
                d.0.cpp_name()
            ))
        }
    };
    let bits = arith::mul(cols, a)?;
    let r = (0..=max.trailing_zeros())
        .rev()
        .map(|p| 1i64 << p)
        .find(|r| bits % (w * r) == 0)
        .ok_or_else(|| {
            crate::err!(
                "a warp's {cols} accumulator columns ({bits} bits) are not a multiple of the {base} TMEM load's {w} bits"
            )
        })?;
    Ok((format!("SM100_TMEM_LOAD_{base}{r}x{sfx}"), r))
}

/// `sm100_get_smem_store_op` for an operand's element and layout given the TMEM load
/// (stmatrix where the load's registers line up with it), and its ldmatrix twin for C.
fn smem_ops(
    acc: Elem,
    (e, l): (Elem, GemmLayout),
    t2r: &str,
    r: i64,
) -> (&'static str, &'static str) {
    let n_major = l == GemmLayout::RowMajor;
    let (a, b) = (acc.bits(), e.bits());
    let shape = |s: &str| t2r.contains(s);
    let wide = (a == 32 && b == 32 && n_major && shape("16dp128b"))
        || (a == 32 && b == 16 && shape("16dp256b"))
        || (a == 16 && b == 16 && shape("16dp128b"));
    let auto = "AutoVectorizingCopyWithAssumedAlignment<128>";
    match (wide, n_major, r >= 2) {
        (true, true, true) => ("SM90_U32x4_STSM_N", "SM75_U32x4_LDSM_N"),
        (true, true, false) => ("SM90_U32x2_STSM_N", "SM75_U32x2_LDSM_N"),
        (true, false, true) => ("SM90_U16x8_STSM_T", "SM75_U16x8_LDSM_T"),
        (true, false, false) => ("SM90_U16x4_STSM_T", "SM75_U16x4_LDSM_T"),
        _ if a == 32 && b == 8 && !n_major && shape("16dp256b") => match r {
            1 => ("SM100_U8x4_STSM_T", auto),
            2 => ("SM100_U8x8_STSM_T", "SM100_U8x8_LDSM_T"),
            _ => ("SM100_U8x16_STSM_T", "SM100_U8x16_LDSM_T"),
        },
        _ => (auto, auto),
    }
}

/// `sm100_dense_compute_tile_shape_or_override`'s automatic tile: M the TMEM warps' 32
/// lanes each (at most the CTA's), N the widest of the output's preferred width and the
/// narrowest TMA row of C and D, as a tile of layouts over the TMEM warps' columns.
fn auto_tile(
    cfg: &EpilogueConfig,
    [cta_m, cta_n]: [i64; 2],
    warps: [i64; 2],
) -> Result<[Layout; 2]> {
    let c = cfg.c.map(|(e, l, _)| (e, l));
    let per_col_scale = cfg.fusion.is_some_and(|f| f.kind.per_col_scale());
    epilogue_tile(
        [cta_m, cta_n],
        warps,
        (cfg.d.0, cfg.d.1),
        c,
        false,
        per_col_scale,
    )
}

/// The TMEM warps of an SM100 epilogue: 2x2 on a CTA pair's 64-row halves, else 4x1
/// (`sm100_tmem_warps`; CuTeDSL's `tmem_warp_shape_mn` default).
pub fn tmem_warps(cta_m: i64, two_sm: bool) -> [i64; 2] {
    if two_sm && cta_m == 64 {
        [2, 2]
    } else {
        [4, 1]
    }
}

/// The automatic SM100 epilogue tile of a CTA tile (`[M, N]`) over TMEM warps, for D and
/// (where the epilogue reads one) C: C++'s `EpilogueTileAuto`, and with `halve_to_divide`
/// CuTeDSL's `sm100_utils.compute_epilogue_tile_shape`, which halves the preferred N
/// until it divides the CTA's; `per_col_scale` for a fusion with per-column alpha and beta
/// (`IsPerColScaleSupported`: with C, its narrower tile keeps the registers).
///
/// ```
/// use cute_core::{elem::Elem, epilogue::sm100_epilogue_tile, collective::GemmLayout};
/// let d = (Elem::F16, GemmLayout::RowMajor);
/// let t = sm100_epilogue_tile([64, 128], [2, 2], d, Some(d), false, false).unwrap();
/// assert_eq!(format!("({},{})", t[0], t[1]), "(64:1,(16,2):(1,64))");
/// ```
pub fn epilogue_tile(
    [cta_m, cta_n]: [i64; 2],
    [wm, wn]: [i64; 2],
    d: (Elem, GemmLayout),
    c: Option<(Elem, GemmLayout)>,
    halve_to_divide: bool,
    per_col_scale: bool,
) -> Result<[Layout; 2]> {
    if cta_m <= 0 || cta_n <= 0 || wm <= 0 || wn <= 0 {
        return Err(crate::err!(
            "the CTA tile ({cta_m},{cta_n}) and TMEM warps ({wm},{wn}) must be positive"
        ));
    }
    let m = cta_m.min(arith::mul(32, wm)?);
    let c_bits = c.map_or(d.0.bits(), |c| c.0.bits());
    let max_bits = c_bits.max(d.0.bits());
    let mut n_perf = match (c, max_bits) {
        (None, 4) => 8192 / m,
        (None, _) => 4096 / m,
        (_, 32) if cta_m > 64 && cta_n <= 128 => 16,
        (_, 32) => 32,
        _ if per_col_scale => 32,
        (_, 16) if cta_n <= 128 => 32,
        _ => 64,
    };
    if halve_to_divide {
        while n_perf > 1 && cta_n % n_perf != 0 {
            n_perf /= 2;
        }
    }
    let n_min = |op: Option<(Elem, GemmLayout)>| match op {
        None | Some((_, GemmLayout::ColumnMajor)) => arith::mul(8, wn),
        Some((e, _)) if e.bits() == 6 => arith::mul(128, wn),
        Some((e, _)) => arith::mul(128 / e.bits().max(1), wn),
    };
    let (min_c, min_d) = (n_min(c)?, n_min(Some(d))?);
    if cta_n < min_c || cta_n < min_d {
        return Err(refuse(
            "CTA tile too small",
            format!(
                "the CTA tile's N = {cta_n} is narrower than a TMA row of C or D ({} elements)",
                min_c.max(min_d)
            ),
        ));
    }
    let tmp = cta_n.min(n_perf.max(min_c).max(min_d)).max(1);
    let n = if cta_n % tmp == 0 { tmp } else { cta_n };
    if n % wn != 0 || cta_n % wn != 0 {
        return Err(crate::err!(
            "the epilogue tile's N = {n} does not split over {wn} TMEM warps"
        ));
    }
    let n_mode = Layout::new(
        IntTuple::ints(&[n / wn, wn]),
        IntTuple::ints(&[1, cta_n / wn]),
    )?;
    Ok([
        Layout::col_major(IntTuple::Int(m))?,
        layout::coalesce(&n_mode, None)?,
    ])
}

/// CuTeDSL `sm100_utils.get_tmem_load_op`'s choice for a warp's part of the epilogue tile
/// (`dp` rows, `cols` accumulator columns): the `tcgen05.ld` shape (datapaths, bits), its
/// repetition, and whether 16-bit accumulators are packed two to a 32-bit column.
///
/// ```
/// use cute_core::{elem::Elem, epilogue::dsl_tmem_load};
/// // 32-bit accumulators to a 16-bit N-major D, 32 rows by 32 columns a warp.
/// assert_eq!(dsl_tmem_load(Elem::F32, Elem::F16, false, 32, 32).unwrap(), (32, 32, 32, false));
/// ```
pub fn dsl_tmem_load(
    acc: Elem,
    d: Elem,
    m_major: bool,
    dp: i64,
    cols: i64,
) -> Result<(i64, i64, i64, bool)> {
    if dp != 16 && dp != 32 {
        return Err(crate::err!(
            "Cta tile and 2sm config does not generate correct num dp: a warp's epilogue subtile has {dp} rows; a TMEM load reads 16 or 32"
        ));
    }
    let (a, db) = (acc.bits(), d.bits());
    let sixteen = dp == 16;
    let (tdp, tbit, pack) = match (a, db) {
        (32, 32) if sixteen => (16, if m_major { 256 } else { 128 }, false),
        (32, 32) => (32, 32, false),
        (32, 16) if sixteen || m_major => (16, 256, false),
        (32, 16) => (32, 32, false),
        (32, 8) if m_major => (16, 256, false),
        (32, 8) if sixteen => (16, 32, false),
        (32, 8) => (32, 32, false),
        (16, 16) if sixteen || m_major => (16, 128, true),
        (16, 16) => (32, 32, true),
        (32, 6 | 4) if dp == 32 => (32, 32, false),
        (32, 6 | 4) => {
            return Err(Error::new(
                "Num dp must be 32: a 6- or 4-bit D takes 32 rows a warp",
            ))
        }
        _ => {
            return Err(crate::err!(
                "Can not handle acc/d type combination: a {} accumulator to a {} D",
                acc.cpp_name(),
                d.cpp_name()
            ))
        }
    };
    let col_bits = arith::mul(cols, a)?;
    let div = if tdp == 16 && tbit == 32 { 64 } else { tbit };
    // The widest repetition the shape has (128 only for the narrow shapes, 64 up to
    // 16x128b) whose bits divide the columns'.
    let widest = match (tdp, tbit) {
        (16, 64) | (16, 32) | (32, 32) => 128,
        (16, 128) => 64,
        _ => 32,
    };
    let rep = [128i64, 64, 32, 16, 8, 4, 2, 1]
        .into_iter()
        .filter(|r| *r <= widest)
        .find(|r| col_bits % (div * r) == 0)
        .ok_or_else(|| {
            crate::err!(
                "Can not pick tmem_rep based on cta tile shape and tmem atom: {col_bits} column bits are not a multiple of {div}"
            )
        })?;
    Ok((tdp, tbit, rep, pack))
}

/// One operand's smem: its atom (over the TMA box, the first contiguous chunk of each tile
/// mode), one stage tiled to the epilogue tile, and the stage's bits.
fn stage_layout(
    (e, l): (Elem, GemmLayout),
    [em, en]: [i64; 2],
    [bm, bn]: [i64; 2],
) -> Result<((AtomMajor, AtomSwizzle, i64), AnyLayout)> {
    let major = match l {
        GemmLayout::RowMajor => AtomMajor::K,
        GemmLayout::ColumnMajor => AtomMajor::MN,
    };
    let sw = sm100_smem_selector(major, e.bits(), bm, bn)?;
    let atom = (major, sw, e.bits());
    let order = match major {
        AtomMajor::MN => ModeOrder::Step(IntTuple::ints(&[2, 1])),
        AtomMajor::K => ModeOrder::Step(IntTuple::ints(&[1, 2])),
    };
    let a = atom_layout(atom)?;
    let stage = layout::tile_to_shape(a.inner(), &IntTuple::ints(&[em, en]), &order)?;
    Ok((atom, a.with_inner(stage)))
}

/// The stage mode appended (`append<3>(stage, Layout<Stages, Stride>)`) and the bytes.
fn staged(stage: &AnyLayout, stages: i64, stride: i64, bits: i64) -> Result<(AnyLayout, i64)> {
    let mode = Layout::new(IntTuple::Int(stages), IntTuple::Int(stride))?;
    let l = layout::append(stage.inner(), 3, Some(&mode))?;
    let bytes = arith::mul(l.cosize()?, bits)? / 8;
    Ok((stage.with_inner(l), bytes))
}

/// The epilogue tile: the one given (N a multiple of 8) or the automatic one; its layouts
/// when automatic; the TMA box of each mode (the first contiguous run); it divides the CTA
/// tile.
#[allow(clippy::type_complexity)]
fn checked_tile(
    cfg: &EpilogueConfig,
    cta: [i64; 2],
    warps: [i64; 2],
) -> Result<([i64; 2], Option<[Layout; 2]>, [i64; 2])> {
    let (epi, layouts, boxes) = match cfg.epi_tile {
        Some([em, en]) => {
            if en % 8 != 0 {
                return Err(refuse(
                    "Unsupported tile shape",
                    format!("an epilogue tile ({em},{en}): N is a multiple of 8"),
                ));
            }
            ([em, en], None, [em, en])
        }
        // The block-scaled kernels' 256-column CTA tile: 128 columns, so that one
        // accumulator buffer's epilogue can overlap the next tile's MMA.
        None if cfg.block_scaled && cta[1] == 256 => {
            let m = cta[0].min(arith::mul(32, warps[0])?);
            ([m, 128], None, [m, 128])
        }
        None => {
            let l = auto_tile(cfg, cta, warps)?;
            let [em, en] = [l[0].size()?, l[1].size()?];
            // The TMA box's N: the first contiguous run of the N mode.
            let chunk = match l[1].shape() {
                IntTuple::Tuple(v) if !v.is_empty() => v[0].size()?,
                s => s.size()?,
            };
            ([em, en], Some(l), [em, chunk])
        }
    };
    let [em, en] = epi;
    if em <= 0 || en <= 0 || cta[0] % em != 0 || cta[1] % en != 0 {
        return Err(refuse(
            "Divisibility Condition",
            format!(
                "the epilogue tile ({em},{en}) does not divide the CTA tile's ({},{})",
                cta[0], cta[1]
            ),
        ));
    }
    Ok((epi, layouts, boxes))
}

/// CUTLASS's SM100 epilogue builder, the default fusion.
pub(super) fn build(cfg: &EpilogueConfig) -> Result<Epilogue> {
    let mut notes = Vec::new();
    let schedule = resolve_schedule(cfg, &mut notes)?;
    let two = matches!(
        schedule,
        EpilogueSchedule::TmaWs2Sm | EpilogueSchedule::NoSmem2Sm
    );
    let [tm, tn, _] = cfg.tile;
    let cta = [if two { tm / 2 } else { tm }, tn];
    let warps = tmem_warps(cta[0], two);
    let d = (cfg.d.0, cfg.d.1);
    let t2r = |[em, en]: [i64; 2]| tmem_load_op(cfg.acc, d, [em / warps[0], en / warps[1]]);
    if matches!(
        schedule,
        EpilogueSchedule::NoSmem1Sm | EpilogueSchedule::NoSmem2Sm
    ) {
        let tile = cfg.epi_tile.unwrap_or([cta[0], cta[1].min(64)]);
        let (load, _) = t2r(tile)?;
        notes.push(format!(
            "{schedule}: accumulators from TMEM ({load}) straight to global memory in ({},{}) subtiles; SharedStorage {NO_SMEM_STORAGE} B",
            tile[0], tile[1]
        ));
        return Ok(Epilogue {
            config: cfg.clone(),
            schedule,
            tma: None,
            shared_storage_bytes: NO_SMEM_STORAGE,
            tmem_load: Some(load),
            no_smem_tile: Some(tile),
            notes,
        });
    }
    check_alignment(cfg)?;
    let c_bits = cfg.c.map_or(cfg.d.0.bits(), |c| c.0.bits());
    if two
        && cfg.epi_tile.is_none()
        && c_bits.max(cfg.d.0.bits()) == 16
        && cta[1] > 128
        && cta[1] % 64 != 0
    {
        return Err(refuse(
            "SM100 2SM TMA epilogue: 16-bit element types (f16/bf16) with CtaN > 128 require CtaN to be divisible by 64. CtaN=160 and CtaN=224 are unsupported. Use a CtaN that is a multiple of 64 (e.g. 128, 192, 256) or use a 32-bit output type (f32).",
            format!("a 2-SM epilogue of 16-bit C/D with CTA tile N = {}", cta[1]),
        ));
    }
    let (epi, layouts, boxes) = checked_tile(cfg, cta, warps)?;
    let [em, en] = epi;
    let (load, r) = t2r(epi)?;
    let epi_tiles = arith::mul(cta[0] / em, cta[1] / en)?;
    let reuse = cfg.c.is_some_and(|c| c.0.bits() > 8);
    let stages_d = epi_tiles.min(2);
    let stages_c = if reuse {
        epi_tiles.min(4).max(stages_d + 1)
    } else {
        epi_tiles.min(4)
    };
    notes.push(format!(
        "EpilogueTile ({em},{en}) of the {}x{} CTA tile ({} TMEM warps), {epi_tiles} subtiles -> StagesC {stages_c}, StagesD {stages_d}{}; CopyOpT2R {load}",
        cta[0],
        cta[1],
        if warps[1] == 2 { "2x2" } else { "4x1" },
        if reuse { ", C and D share shared memory (C wider than 8 bits)" } else { "" }
    ));
    let (ce, cl, _) = cfg.c.unwrap_or(cfg.d);
    let (atom_c, stage_c) = stage_layout((ce, cl), epi, boxes)?;
    let (atom_d, stage_d) = stage_layout(d, epi, boxes)?;
    let bits_c = arith::mul(stage_c.inner().cosize()?, ce.bits())?;
    let bits_d = arith::mul(stage_d.inner().cosize()?, d.0.bits())?;
    let max_bits = bits_c.max(bits_d);
    let stride = |own: i64, e: Elem| if reuse { max_bits } else { own } / e.bits();
    let d_stages = if reuse { stages_c } else { stages_d };
    let (smem_c, bytes_c) = staged(&stage_c, stages_c, stride(bits_c, ce), ce.bits())?;
    let (smem_d, bytes_d) = staged(&stage_d, d_stages, stride(bits_d, d.0), d.0.bits())?;
    let align_of = |l: &AnyLayout| l.swizzle().map_or(1, |(sw, _)| sw.repeat());
    // The aux tensor's atom is chosen over the TMA box as C's and D's are.
    let aux = |e: Elem, l: GemmLayout, stages: i64| -> Result<(i64, i64)> {
        let (atom, _) = stage_layout((e, l), epi, boxes)?;
        aux_bytes(atom, epi, stages)
    };
    let fusion = fusion_bytes(cfg, cta[1], epi, [stages_c, stages_d], &aux, &mut notes)?;
    let (shared, note) = shared_storage(
        cfg,
        reuse,
        stages_c,
        [align_of(&smem_c), align_of(&smem_d)],
        [bytes_c, bytes_d],
        fusion,
    )?;
    notes.push(note);
    let store = smem_ops(cfg.acc, d, &load, r).0;
    let c_load = smem_ops(cfg.acc, (ce, cl), &load, r).1;
    Ok(Epilogue {
        config: cfg.clone(),
        schedule,
        tma: Some(TmaEpilogue {
            epi_tile: epi,
            epi_tile_layouts: layouts,
            stages_c,
            stages_d,
            fragment_size: arith::mul(em, en)? / 128,
            reuse_smem_c: reuse,
            delay_tma_store: cfg.c.is_none(),
            atoms: [atom_c, atom_d],
            smem_layouts: [smem_c, smem_d],
            copy_ops: [c_load, store],
            copy_atom_c: None,
        }),
        shared_storage_bytes: shared,
        tmem_load: Some(load),
        no_smem_tile: None,
        notes,
    })
}
