//! CUTLASS's epilogue builders (`cutlass::epilogue::collective::CollectiveBuilder` of
//! `arch::Sm90` and `arch::Sm100`, in `epilogue/collective/builders/sm90_builder.inl` and
//! `sm100_builder.inl`) with their default fusion (`LinearCombination`): the schedule
//! `EpilogueScheduleAuto` stands for, the epilogue tile, the stages of C and D, their
//! shared-memory atoms, layouts and copies (and SM100's TMEM load), and
//! `sizeof(SharedStorage)` — the bytes a mainloop's `StageCountAutoCarveout` leaves it.
//!
//! ```
//! use cute_core::arch::Arch;
//! use cute_core::collective::GemmLayout;
//! use cute_core::elem::Elem;
//! use cute_core::epilogue::{build_epilogue, EpilogueConfig, EpilogueSchedule};
//! let cfg = EpilogueConfig {
//!     arch: Arch::Sm90,
//!     cluster: [1, 1, 1],
//!     acc: Elem::F32,
//!     compute: Elem::F32,
//!     tile: [128, 128, 64],
//!     epi_tile: None,
//!     c: Some((Elem::F16, GemmLayout::RowMajor, 8)),
//!     d: (Elem::F16, GemmLayout::RowMajor, 8),
//!     schedule: EpilogueSchedule::Cooperative,
//!     block_scaled: false,
//!     fusion: None,
//! };
//! let e = build_epilogue(&cfg).unwrap();
//! assert_eq!(e.shared_storage_bytes, 33792);
//! assert_eq!(e.policy_name(), "Sm90TmaWarpSpecialized<4, 2, 16, true, false>");
//!
//! // SM100's auto epilogue is a TMA one; a 2x1 cluster and a 128-row MMA tile make it 2-SM.
//! let cfg = EpilogueConfig { arch: Arch::Sm100, cluster: [2, 1, 1], schedule: EpilogueSchedule::Auto, ..cfg };
//! let e = build_epilogue(&cfg).unwrap();
//! assert_eq!(e.schedule, EpilogueSchedule::TmaWs2Sm);
//! assert_eq!(e.shared_storage_bytes, 16896);
//! assert_eq!(e.tmem_load.as_deref(), Some("SM100_TMEM_LOAD_32dp32b16x"));
//! ```
mod common;
mod fusion;
mod sm100;
mod sm120;
mod sm90;

pub use common::{atom_layout, EpiAtom, Epilogue, EpilogueConfig, EpilogueSchedule, TmaEpilogue};
pub use fusion::{Activation, BlockScale, Fusion, FusionKind, FusionParam};
pub use sm100::{
    dsl_tmem_load, epilogue_tile as sm100_epilogue_tile, tmem_warps as sm100_tmem_warps,
};

use crate::arch::Arch;
use crate::error::Result;

/// CUTLASS's epilogue builder for the configuration's arch, the default fusion.
pub fn build_epilogue(cfg: &EpilogueConfig) -> Result<Epilogue> {
    if cfg.tile.iter().chain(&cfg.cluster).any(|&x| x <= 0)
        || cfg.epi_tile.is_some_and(|t| t.iter().any(|&x| x <= 0))
    {
        return Err(crate::err!(
            "the tile {:?}, cluster {:?} and epilogue tile must be positive",
            cfg.tile,
            cfg.cluster
        ));
    }
    check_fusion(cfg)?;
    match cfg.arch {
        Arch::Sm90 => sm90::build(cfg),
        Arch::Sm100 => sm100::build(cfg),
        Arch::Sm120 => sm120::build(cfg),
        a => Err(crate::err!(
            "the {} epilogue builder is not resolved (SM90's, SM100's and SM120's are)",
            a.name()
        )),
    }
}

/// A fusion other than the default builds only a TMA epilogue: SM90's automatic schedule
/// (its no-smem epilogue) and its no-smem builder refuse it in CUTLASS's words; SM100's
/// no-smem epilogue takes it through register-only callbacks this tool does not resolve.
fn check_fusion(cfg: &EpilogueConfig) -> Result<()> {
    let Some(f) = cfg.fusion else { return Ok(()) };
    let refuse = |msg: &str, why: String| Err(crate::err!("{why} (CUTLASS: \"{msg}\")"));
    match (cfg.arch, cfg.schedule) {
        (Arch::Sm90, EpilogueSchedule::Auto) => refuse(
            "Auto schedule doesn't support fusion. Use one of the TmaWarpSpecialized schedules instead.",
            format!("{f} is not the default fusion, and SM90's EpilogueScheduleAuto is its no-smem epilogue"),
        ),
        (Arch::Sm90, EpilogueSchedule::NoSmem) => refuse(
            "Could not build a collective epilogue for given parameters.",
            format!("SM90's NoSmemWarpSpecialized takes only the default fusion, not {f}: use TmaWarpSpecialized[Cooperative]"),
        ),
        (_, EpilogueSchedule::NoSmem1Sm | EpilogueSchedule::NoSmem2Sm) => Err(crate::err!(
            "{f} on SM100's no-smem epilogue is not resolved yet: its TMA epilogues and the default fusion are"
        )),
        _ => Ok(()),
    }
}
