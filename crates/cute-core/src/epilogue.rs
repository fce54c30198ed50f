//! CUTLASS's Hopper epilogue builder (`cutlass::epilogue::collective::CollectiveBuilder` of
//! `arch::Sm90`, in `epilogue/collective/builders/sm90_builder.inl`) with its default fusion
//! (`LinearCombination`): the schedule `EpilogueScheduleAuto` stands for, the epilogue tile,
//! the stages of C and D, their shared-memory atoms, layouts and copies, and
//! `sizeof(SharedStorage)` — the bytes a mainloop's `StageCountAutoCarveout` leaves it.
//!
//! ```
//! use cute_core::collective::GemmLayout;
//! use cute_core::elem::Elem;
//! use cute_core::epilogue::{build_epilogue, EpilogueConfig, EpilogueSchedule};
//! let cfg = EpilogueConfig {
//!     tile: [128, 128, 64],
//!     epi_tile: None,
//!     c: Some((Elem::F16, GemmLayout::RowMajor, 8)),
//!     d: (Elem::F16, GemmLayout::RowMajor, 8),
//!     schedule: EpilogueSchedule::Cooperative,
//! };
//! let e = build_epilogue(&cfg).unwrap();
//! assert_eq!(e.shared_storage_bytes, 33792);
//! assert_eq!(e.policy_name(), "Sm90TmaWarpSpecialized<4, 2, 16, true, false>");
//! ```

use crate::collective::{round_up, smem_layout, GemmLayout};
use crate::elem::Elem;
use crate::error::{arith, Error, Result};
use crate::layout::gcd;

use crate::smem_atom::{smem_atom, ss_smem_selector, AtomMajor, AtomSwizzle};
use crate::swizzle::AnyLayout;
use std::fmt;

/// The SM90 epilogue schedules with the default fusion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EpilogueSchedule {
    /// `EpilogueScheduleAuto`: SM90 takes the no-smem epilogue.
    Auto,
    /// `cutlass::epilogue::NoSmemWarpSpecialized`: accumulators straight to global memory.
    NoSmem,
    /// `cutlass::epilogue::TmaWarpSpecialized`: one warpgroup, TMA loads of C and stores of D.
    WarpSpecialized,
    /// `cutlass::epilogue::TmaWarpSpecializedCooperative`: two warpgroups.
    Cooperative,
}

impl EpilogueSchedule {
    /// Every schedule.
    pub const ALL: [EpilogueSchedule; 4] = [
        EpilogueSchedule::Auto,
        EpilogueSchedule::NoSmem,
        EpilogueSchedule::WarpSpecialized,
        EpilogueSchedule::Cooperative,
    ];

    /// The tag's name (in `cutlass::epilogue`; `EpilogueScheduleAuto` in
    /// `cutlass::epilogue::collective`).
    pub fn name(self) -> &'static str {
        match self {
            EpilogueSchedule::Auto => "EpilogueScheduleAuto",
            EpilogueSchedule::NoSmem => "NoSmemWarpSpecialized",
            EpilogueSchedule::WarpSpecialized => "TmaWarpSpecialized",
            EpilogueSchedule::Cooperative => "TmaWarpSpecializedCooperative",
        }
    }

    /// The schedule of that tag name.
    pub fn parse(name: &str) -> Option<EpilogueSchedule> {
        EpilogueSchedule::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for EpilogueSchedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One epilogue `CollectiveBuilder<arch::Sm90, ...>` line's arguments (the default
/// `LinearCombination` fusion; the accumulator and compute types do not change what the
/// builder picks).
#[derive(Clone, Debug, PartialEq)]
pub struct EpilogueConfig {
    /// `TileShape_MNK` (the CTA tile).
    pub tile: [i64; 3],
    /// `EpilogueTileType`: `None` for `EpilogueTileAuto`, else the (M, N) shape given.
    pub epi_tile: Option<[i64; 2]>,
    /// C's element, layout tag and alignment; `None` for `void` (no source).
    pub c: Option<(Elem, GemmLayout, i64)>,
    /// D's.
    pub d: (Elem, GemmLayout, i64),
    /// The schedule tag.
    pub schedule: EpilogueSchedule,
}

/// A TMA epilogue's pieces (`Sm90TmaWarpSpecialized<StagesC, StagesD, FragmentSize,
/// ReuseSmemC, DelayTmaStore>`).
#[derive(Clone, Debug, PartialEq)]
pub struct TmaEpilogue {
    /// `EpilogueTile`: (M, N).
    pub epi_tile: [i64; 2],
    /// `StagesC`.
    pub stages_c: i64,
    /// `StagesD`.
    pub stages_d: i64,
    /// `FragmentSize`: accumulators a thread stores per epilogue subtile.
    pub fragment_size: i64,
    /// C and D share shared memory (`ReuseSmemC`).
    pub reuse_smem_c: bool,
    /// D's store waits for the next subtile (`DelayTmaStore`, no source).
    pub delay_tma_store: bool,
    /// `SmemLayoutAtomC/D`: (major, swizzle, element bits).
    pub atoms: [(AtomMajor, AtomSwizzle, i64); 2],
    /// `SmemLayoutC/D`: the atoms tiled to (EpiM, EpiN, stages).
    pub smem_layouts: [AnyLayout; 2],
    /// `CopyOpS2R` (C's shared-to-register load) and `CopyOpR2S` (D's store).
    pub copy_ops: [&'static str; 2],
    /// `CopyAtomC`.
    pub copy_atom_c: &'static str,
}

/// What the builder picked.
#[derive(Clone, Debug, PartialEq)]
pub struct Epilogue {
    /// The arguments.
    pub config: EpilogueConfig,
    /// The schedule after `EpilogueScheduleAuto`.
    pub schedule: EpilogueSchedule,
    /// The TMA epilogue's pieces; `None` for the no-smem one.
    pub tma: Option<TmaEpilogue>,
    /// `sizeof(SharedStorage)`.
    pub shared_storage_bytes: i64,
    /// The steps of the resolution, one a line.
    pub notes: Vec<String>,
}

impl Epilogue {
    /// `DispatchPolicy` as C++ names the type.
    pub fn policy_name(&self) -> String {
        match &self.tma {
            None => "gemm::EpilogueDefault".to_string(),
            Some(t) => format!(
                "Sm90TmaWarpSpecialized<{}, {}, {}, {}, {}>",
                t.stages_c, t.stages_d, t.fragment_size, t.reuse_smem_c, t.delay_tma_store
            ),
        }
    }
}

impl fmt::Display for Epilogue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CollectiveEpilogue<{}>", self.policy_name())?;
        if let Some(t) = &self.tma {
            write!(
                f,
                ": EpilogueTile ({},{}), SmemLayoutAtomC {}, SmemLayoutAtomD {}, GmemTiledCopyC SM90_TMA_LOAD, GmemTiledCopyD SM90_TMA_STORE",
                t.epi_tile[0],
                t.epi_tile[1],
                atom_layout(t.atoms[0]).map_err(|_| fmt::Error)?,
                atom_layout(t.atoms[1]).map_err(|_| fmt::Error)?
            )?;
        }
        write!(f, ", sizeof(SharedStorage) {}", self.shared_storage_bytes)
    }
}

/// A smem atom as a value.
pub fn atom_layout((major, sw, bits): (AtomMajor, AtomSwizzle, i64)) -> Result<AnyLayout> {
    smem_atom(major, sw, bits)
}

fn refuse(msg: &str, why: String) -> Error {
    Error::new(format!("{why} (CUTLASS: \"{msg}\")"))
}

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

/// `sizeof(SharedStorage)`: the C and D arrays (a union when they share, D alone without
/// C), the fusion's empty storage and the load pipeline's barriers, aligned to the
/// swizzles; and the note that says so.
fn shared_storage(
    cfg: &EpilogueConfig,
    [stages_c, d_stages]: [i64; 2],
    [al_c, al_d]: [i64; 2],
    [c_bits, d_bits]: [i64; 2],
    [em, en]: [i64; 2],
) -> Result<(i64, String)> {
    let reuse = c_bits == d_bits && d_bits > 8;
    let tile = arith::mul(em, en)?;
    let bytes_c = arith::mul(arith::mul(tile, stages_c)?, c_bits)? / 8;
    let bytes_d = arith::mul(arith::mul(tile, d_stages)?, d_bits)? / 8;
    let align = if cfg.c.is_none() {
        al_d
    } else {
        al_c.max(al_d)
    };
    let coll = match (cfg.c, reuse) {
        (None, _) => round_up(bytes_d, al_d)?,
        (Some(_), true) => round_up(bytes_c.max(bytes_d), align)?,
        (Some(_), false) => round_up(arith::add(round_up(bytes_c, al_d)?, bytes_d)?, align)?,
    };
    let tensors = round_up(arith::add(coll, 1)?, align)?;
    let shared = round_up(arith::add(tensors, arith::mul(16, stages_c)?)?, align)?;
    Ok((shared, format!(
        "sizeof(SharedStorage) = {shared} B: C and D smem {coll} B ({} B of C, {} B of D), aligned to {align} B, + {} B of load barriers",
        bytes_c,
        bytes_d,
        16 * stages_c
    )))
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
    for (name, (e, _, align)) in cfg.c.iter().map(|c| ("C", *c)).chain([("D", cfg.d)]) {
        if align <= 0 || arith::mul(e.bits(), align)? % 128 != 0 {
            return Err(refuse(
                "C/D Should meet TMA alignment requirement\\n",
                format!(
                    "Alignment{name} = {align} elements of {} is not a multiple of 16 bytes",
                    e.cpp_name()
                ),
            ));
        }
    }
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
pub fn build_epilogue(cfg: &EpilogueConfig) -> Result<Epilogue> {
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
    let epi_tiles = (m / em) * (n / en);
    let fragment_size = em * en / if coop { 256 } else { 128 };
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
    // C's atom, layout and copy are D's where there is no C.
    let (ce, cl, _) = cfg.c.unwrap_or(cfg.d);
    let atom = |e: Elem, l: GemmLayout| -> Result<(AtomMajor, AtomSwizzle, i64)> {
        let major = if l == GemmLayout::RowMajor {
            AtomMajor::K
        } else {
            AtomMajor::MN
        };
        Ok((major, ss_smem_selector(major, e.bits(), em, en)?, e.bits()))
    };
    let atoms = [atom(ce, cl)?, atom(cfg.d.0, cfg.d.1)?];
    // Tiled to (EpiM, EpiN, stages) in the order of the major, as the mainloop's buffers.
    let staged = |a: (AtomMajor, AtomSwizzle, i64), stages: i64| -> Result<AnyLayout> {
        smem_layout(&atom_layout(a)?, em, en, stages, a.0)
    };
    let d_stages = if reuse { stages_c } else { stages_d };
    let smem_layouts = [staged(atoms[0], stages_c)?, staged(atoms[1], d_stages)?];
    // A buffer starts where its swizzle's pattern does (`alignment_for_swizzle`).
    let align_of = |l: &AnyLayout| l.swizzle().map_or(1, |(sw, _)| sw.repeat());
    let (al_c, al_d) = (align_of(&smem_layouts[0]), align_of(&smem_layouts[1]));
    let (shared, note) = shared_storage(
        cfg,
        [stages_c, d_stages],
        [al_c, al_d],
        [c_bits, d_bits],
        [em, en],
    )?;
    notes.push(note);
    Ok(Epilogue {
        config: cfg.clone(),
        schedule,
        tma: Some(TmaEpilogue {
            epi_tile: [em, en],
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
            copy_atom_c,
        }),
        shared_storage_bytes: shared,
        notes,
    })
}
