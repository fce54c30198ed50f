//! The SM90 epilogue builder (`sm90_builder.inl`): the no-smem `DefaultEpilogue` and the
//! TMA warp-specialized epilogues (`Sm90TmaWarpSpecialized`).

use super::common::{
    check_alignment, no_builder, refuse, stacked_storage, Epilogue, EpilogueConfig,
    EpilogueSchedule, TmaEpilogue,
};
use crate::collective::GemmLayout;
use crate::elem::Elem;
use crate::error::{arith, Result};
use crate::layout::gcd;

/// The epilogue tile (`sm90_compute_tile_shape_or_override`).
fn epilogue_tile(cfg: &EpilogueConfig, coop: bool) -> Result<[i64; 2]> {
    let [m, n, _] = cfg.tile;
    if let Some([em, en]) = cfg.epi_tile {
        if !(em == 64 && !coop || em == 128 && coop) || en % 16 != 0 {
            return Err(refuse(
                "Unsupported tile shape",
                format!(
                    "an epilogue tile ({em},{en}) for {}: M is 64 for TmaWarpSpecialized, 128 for the cooperative schedule, and N a multiple of 16",
                    cfg.schedule
                ),
            ));
        }
        return Ok([em, en]);
    }
    let n_perf = if !coop && cfg.d.0.bits() == 8 && n % 64 == 0 {
        64
    } else {
        32
    };
    let em = m.min(if coop { 128 } else { 64 });
    Ok([em, gcd(n_perf.min(n), n)])
}

/// The shared-to-register op reading C, or the register-to-shared op storing D, of a
/// 16-bit element (stmatrix / ldmatrix), else a vectorized copy.
fn smem_copy_op(e: Elem, layout: GemmLayout, epi_n: i64, load: bool) -> &'static str {
    let n_major = layout == GemmLayout::RowMajor;
    let op = match (e.bits() == 16, n_major, epi_n % 16 == 0, epi_n % 8 == 0) {
        (true, true, true, _) => ("SM90_U32x4_STSM_N", "SM75_U32x4_LDSM_N"),
        (true, true, false, true) => ("SM90_U32x2_STSM_N", "SM75_U32x2_LDSM_N"),
        (true, false, true, _) => ("SM90_U16x8_STSM_T", "SM75_U16x8_LDSM_T"),
        (true, false, false, true) => ("SM90_U16x4_STSM_T", "SM75_U16x4_LDSM_T"),
        _ => (
            "AutoVectorizingCopyWithAssumedAlignment<128>",
            "AutoVectorizingCopyWithAssumedAlignment<128>",
        ),
    };
    if load {
        op.1
    } else {
        op.0
    }
}

/// The epilogue tile, checked as the builder checks it (it divides the CTA tile; C and D
/// are TMA-aligned; stmatrix takes its N), and `CopyAtomC`.
fn checked_tile(cfg: &EpilogueConfig, coop: bool) -> Result<([i64; 2], &'static str)> {
    let [m, n, _] = cfg.tile;
    let [em, en] = epilogue_tile(cfg, coop)?;
    if em <= 0 || en <= 0 || m % em != 0 || n % en != 0 {
        return Err(refuse(
            "Divisibility Condition",
            format!("the epilogue tile ({em},{en}) does not divide the CTA tile's ({m},{n})"),
        ));
    }
    check_alignment(cfg)?;
    let copy_atom_c = match (en % 16, en % 8) {
        (0, _) => "Copy_Atom<SM90_U32x4_STSM_N, half_t>",
        (_, 0) => "Copy_Atom<SM90_U32x2_STSM_N, half_t>",
        _ => {
            return Err(refuse(
                "CopyAtomC can't be void, divisiblity check for EpilogueTile_MN failed",
                format!("the epilogue tile's N ({en}) is not a multiple of 8"),
            ))
        }
    };
    Ok(([em, en], copy_atom_c))
}

/// CUTLASS's SM90 epilogue builder, the default fusion.
pub(super) fn build(cfg: &EpilogueConfig) -> Result<Epilogue> {
    if !matches!(
        cfg.schedule,
        EpilogueSchedule::Auto
            | EpilogueSchedule::NoSmem
            | EpilogueSchedule::WarpSpecialized
            | EpilogueSchedule::Cooperative
    ) {
        return Err(no_builder(
            cfg,
            "EpilogueScheduleAuto, NoSmemWarpSpecialized, TmaWarpSpecialized or TmaWarpSpecializedCooperative",
        ));
    }
    let mut notes = Vec::new();
    let schedule = match cfg.schedule {
        EpilogueSchedule::Auto => {
            notes.push("EpilogueScheduleAuto -> NoSmemWarpSpecialized: SM90's auto epilogue is the no-smem one, whatever the mainloop (accumulators stored straight to global memory)".to_string());
            EpilogueSchedule::NoSmem
        }
        s => s,
    };
    if schedule == EpilogueSchedule::NoSmem {
        return Ok(Epilogue {
            config: cfg.clone(),
            schedule,
            tma: None,
            shared_storage_bytes: 1,
            tmem_load: None,
            no_smem_tile: None,
            notes,
        });
    }
    let coop = schedule == EpilogueSchedule::Cooperative;
    let [m, n, _] = cfg.tile;
    let ([em, en], copy_atom_c) = checked_tile(cfg, coop)?;
    notes.push(format!(
        "EpilogueTile ({em},{en}): {} of the CTA tile's {m} rows, N = gcd(min({}, {n}), {n})",
        if coop { "min(128," } else { "min(64," },
        if !coop && cfg.d.0.bits() == 8 && n % 64 == 0 {
            64
        } else {
            32
        }
    ));
    let epi_tiles = arith::mul(m / em, n / en)?;
    let fragment_size = arith::mul(em, en)? / if coop { 256 } else { 128 };
    let c_bits = cfg.c.map_or(0, |c| c.0.bits());
    let d_bits = cfg.d.0.bits();
    let reuse = c_bits == d_bits && d_bits > 8;
    let stages_d = epi_tiles.min(2);
    let stages_c = if reuse {
        epi_tiles.min(4).max(stages_d + 1)
    } else {
        epi_tiles.min(4)
    };
    notes.push(format!(
        "stages: {epi_tiles} epilogue subtiles -> StagesC {stages_c}, StagesD {stages_d}{}",
        if reuse {
            ", C and D share shared memory (same width, wider than 8 bits)"
        } else {
            ""
        }
    ));
    let (atoms, smem_layouts, shared) =
        stacked_storage(cfg, reuse, n, [em, en], [stages_c, stages_d], &mut notes)?;
    // C's copy is D's where there is no C.
    let (ce, cl, _) = cfg.c.unwrap_or(cfg.d);
    Ok(Epilogue {
        config: cfg.clone(),
        schedule,
        tma: Some(TmaEpilogue {
            epi_tile: [em, en],
            epi_tile_layouts: None,
            stages_c,
            stages_d,
            fragment_size,
            reuse_smem_c: reuse,
            delay_tma_store: cfg.c.is_none(),
            atoms,
            smem_layouts,
            copy_ops: [
                smem_copy_op(ce, cl, en, true),
                smem_copy_op(cfg.d.0, cfg.d.1, en, false),
            ],
            copy_atom_c: Some(copy_atom_c),
        }),
        shared_storage_bytes: shared,
        tmem_load: None,
        no_smem_tile: None,
        notes,
    })
}
