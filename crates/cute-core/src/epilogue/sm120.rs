//! The SM120 epilogue builder (`sm120_builder.inl`): SM90's TMA warp-specialized epilogue
//! collective with SM120's smaller tile and stage counts (its 99 KiB of shared memory), the
//! auto schedule included; the policy is SM90's (`Sm90TmaWarpSpecialized`).

use super::common::{
    no_builder, refuse, stacked_storage, Epilogue, EpilogueConfig, EpilogueSchedule, TmaEpilogue,
};
use crate::collective::GemmLayout;
use crate::elem::Elem;
use crate::error::{arith, Error, Result};

/// `FragmentSize`: the four accumulators a thread holds of each SM120 MMA.
const FRAGMENT_SIZE: i64 = 4;

/// `sm120_compute_tile_shape_or_override`: (64, 32), or (128, N) for a tile narrower than
/// 16, or the tile given, which must divide the CTA tile.
fn epilogue_tile(cfg: &EpilogueConfig) -> Result<[i64; 2]> {
    let [m, n, _] = cfg.tile;
    if let Some([em, en]) = cfg.epi_tile {
        if m % em != 0 || n % en != 0 {
            return Err(refuse(
                "EpilogueTile must evenly divide CTA tile",
                format!("an epilogue tile ({em},{en}) of the ({m},{n}) CTA tile"),
            ));
        }
        return Ok([em, en]);
    }
    Ok([if n < 16 { 128 } else { 64 }, n.min(32)])
}

/// `sm120_get_smem_store_op_for_accumulator` (D) and `sm120_get_smem_load_op_for_source`
/// (C): stmatrix / ldmatrix of 16-bit elements, else a vectorized copy.
fn smem_copy_op(e: Elem, layout: GemmLayout, load: bool) -> &'static str {
    let auto = "AutoVectorizingCopyWithAssumedAlignment<128>";
    match (e.bits() == 16, layout, load) {
        (true, GemmLayout::ColumnMajor, false) => "SM90_U16x4_STSM_T",
        (true, GemmLayout::RowMajor, false) => "SM90_U32x2_STSM_N",
        (true, GemmLayout::ColumnMajor, true) => "SM75_U16x4_LDSM_T",
        (true, GemmLayout::RowMajor, true) => "SM75_U32x2_LDSM_N",
        _ => auto,
    }
}

/// CUTLASS's SM120 epilogue builder, the default fusion.
pub(super) fn build(cfg: &EpilogueConfig) -> Result<Epilogue> {
    let mut notes = Vec::new();
    let schedule = match cfg.schedule {
        EpilogueSchedule::Auto => {
            notes.push("EpilogueScheduleAuto: SM120's auto epilogue is its TMA epilogue (C and D staged through shared memory), like TmaWarpSpecializedCooperative".to_string());
            EpilogueSchedule::Cooperative
        }
        s @ (EpilogueSchedule::WarpSpecialized | EpilogueSchedule::Cooperative) => s,
        _ => {
            return Err(no_builder(
                cfg,
                "EpilogueScheduleAuto, TmaWarpSpecialized or TmaWarpSpecializedCooperative",
            ))
        }
    };
    if cfg.c.iter().chain([&cfg.d]).any(|(e, _, _)| e.bits() == 6) {
        return Err(Error::new(
            "a 6-bit C or D goes through SM120's FP6 epilogue (8-bit containers, a 128-wide subtile), which this tool does not resolve yet",
        ));
    }
    let [m, n, _] = cfg.tile;
    let [em, en] = epilogue_tile(cfg)?;
    if m % em != 0 || n % en != 0 {
        return Err(refuse(
            "Divisibility Condition",
            format!("the epilogue tile ({em},{en}) does not divide the CTA tile's ({m},{n})"),
        ));
    }
    let epi_tiles = arith::mul(m / em, n / en)?;
    let c_bits = cfg.c.map_or(0, |c| c.0.bits());
    let d_bits = cfg.d.0.bits();
    let reuse = c_bits == d_bits && d_bits > 8;
    let stages_d = epi_tiles.min(2);
    let stages_c = if reuse {
        epi_tiles.min(2).max(stages_d + 1)
    } else {
        stages_d
    };
    notes.push(format!(
        "EpilogueTile ({em},{en}), {epi_tiles} subtiles -> StagesC {stages_c}, StagesD {stages_d} (SM120 keeps fewer stages than SM90 for its 99 KiB){}",
        if reuse { ", C and D share shared memory" } else { "" }
    ));
    let (atoms, smem_layouts, shared) =
        stacked_storage(cfg, reuse, n, [em, en], [stages_c, stages_d], &mut notes)?;
    let (ce, cl, _) = cfg.c.unwrap_or(cfg.d);
    Ok(Epilogue {
        config: cfg.clone(),
        schedule,
        tma: Some(TmaEpilogue {
            epi_tile: [em, en],
            epi_tile_layouts: None,
            stages_c,
            stages_d,
            fragment_size: FRAGMENT_SIZE,
            reuse_smem_c: reuse,
            delay_tma_store: cfg.c.is_none(),
            atoms,
            smem_layouts,
            copy_ops: [
                smem_copy_op(ce, cl, true),
                smem_copy_op(cfg.d.0, cfg.d.1, false),
            ],
            copy_atom_c: Some("Copy_Atom<SM90_U32x2_STSM_N, half_t>"),
        }),
        shared_storage_bytes: shared,
        tmem_load: None,
        no_smem_tile: None,
        notes,
    })
}
