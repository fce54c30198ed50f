//! The epilogue builders' shared vocabulary: the configuration, the schedules, the result
//! and what both archs' builders compute alike (alignment, `sizeof(SharedStorage)`).

use crate::arch::Arch;
use crate::collective::{round_up, smem_layout, GemmLayout};
use crate::elem::Elem;
use crate::error::{arith, Error, Result};
use crate::smem_atom::{smem_atom, ss_smem_selector, AtomMajor, AtomSwizzle};
use crate::swizzle::AnyLayout;
use std::fmt;

/// The SM90 and SM100 epilogue schedules with the default fusion.
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
    /// SM100's `cutlass::epilogue::TmaWarpSpecialized1Sm`.
    TmaWs1Sm,
    /// SM100's `cutlass::epilogue::TmaWarpSpecialized2Sm`: the epilogue of a 2-SM MMA.
    TmaWs2Sm,
    /// SM100's `cutlass::epilogue::NoSmemWarpSpecialized1Sm`.
    NoSmem1Sm,
    /// SM100's `cutlass::epilogue::NoSmemWarpSpecialized2Sm`.
    NoSmem2Sm,
}

impl EpilogueSchedule {
    /// Every schedule.
    pub const ALL: [EpilogueSchedule; 8] = [
        EpilogueSchedule::Auto,
        EpilogueSchedule::NoSmem,
        EpilogueSchedule::WarpSpecialized,
        EpilogueSchedule::Cooperative,
        EpilogueSchedule::TmaWs1Sm,
        EpilogueSchedule::TmaWs2Sm,
        EpilogueSchedule::NoSmem1Sm,
        EpilogueSchedule::NoSmem2Sm,
    ];

    /// The tag's name (in `cutlass::epilogue`; `EpilogueScheduleAuto` in
    /// `cutlass::epilogue::collective`).
    pub fn name(self) -> &'static str {
        match self {
            EpilogueSchedule::Auto => "EpilogueScheduleAuto",
            EpilogueSchedule::NoSmem => "NoSmemWarpSpecialized",
            EpilogueSchedule::WarpSpecialized => "TmaWarpSpecialized",
            EpilogueSchedule::Cooperative => "TmaWarpSpecializedCooperative",
            EpilogueSchedule::TmaWs1Sm => "TmaWarpSpecialized1Sm",
            EpilogueSchedule::TmaWs2Sm => "TmaWarpSpecialized2Sm",
            EpilogueSchedule::NoSmem1Sm => "NoSmemWarpSpecialized1Sm",
            EpilogueSchedule::NoSmem2Sm => "NoSmemWarpSpecialized2Sm",
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

/// One epilogue `CollectiveBuilder<arch::Sm90|Sm100, ...>` line's arguments (the default
/// `LinearCombination` fusion with a float accumulator; the compute type does not change
/// what the builder picks).
#[derive(Clone, Debug, PartialEq)]
pub struct EpilogueConfig {
    /// The arch tag.
    pub arch: Arch,
    /// `ClusterShape_MNK` (SM100's auto schedule reads its M).
    pub cluster: [i64; 3],
    /// `ElementAccumulator` (SM100's TMEM load reads it).
    pub acc: Elem,
    /// `ElementCompute` (the default fusion's).
    pub compute: Elem,
    /// `TileShape_MNK`: the CTA tile (SM90), the MMA tile (SM100: a 2-SM MMA's pair).
    pub tile: [i64; 3],
    /// `EpilogueTileType`: `None` for `EpilogueTileAuto`, else the (M, N) shape given.
    pub epi_tile: Option<[i64; 2]>,
    /// C's element, layout tag and alignment; `None` for `void` (no source).
    pub c: Option<(Elem, GemmLayout, i64)>,
    /// D's.
    pub d: (Elem, GemmLayout, i64),
    /// The schedule tag.
    pub schedule: EpilogueSchedule,
    /// `arch::OpClassBlockScaledTensorOp` (SM100's automatic schedule and tile differ).
    pub block_scaled: bool,
    /// The fusion argument when it is not the builder's default.
    pub fusion: Option<super::fusion::Fusion>,
}

/// A C or D smem atom: its major, its swizzle and the element's bits.
pub type EpiAtom = (AtomMajor, AtomSwizzle, i64);

/// A TMA epilogue's pieces (`Sm90TmaWarpSpecialized<StagesC, StagesD, FragmentSize,
/// ReuseSmemC, DelayTmaStore>`).
#[derive(Clone, Debug, PartialEq)]
pub struct TmaEpilogue {
    /// `EpilogueTile`'s (M, N) extents.
    pub epi_tile: [i64; 2],
    /// SM100's automatic `EpilogueTile`, a tile of layouts (`(64:1,(16,2):(1,64))` on a 2-SM
    /// pair's 2x2 TMEM warps).
    pub epi_tile_layouts: Option<[crate::layout::Layout; 2]>,
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
    pub atoms: [EpiAtom; 2],
    /// `SmemLayoutC/D`: the atoms tiled to (EpiM, EpiN, stages).
    pub smem_layouts: [AnyLayout; 2],
    /// `CopyOpS2R` (C's shared-to-register load) and `CopyOpR2S` (D's store).
    pub copy_ops: [&'static str; 2],
    /// `CopyAtomC` (SM90 only).
    pub copy_atom_c: Option<&'static str>,
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
    /// SM100's `CopyOpT2R`: the `tcgen05.ld` reading the accumulators out of TMEM.
    pub tmem_load: Option<String>,
    /// SM100's no-smem `EpilogueTile`.
    pub no_smem_tile: Option<[i64; 2]>,
    /// The steps of the resolution, one a line.
    pub notes: Vec<String>,
}

impl Epilogue {
    /// `ThreadEpilogueOp`: the fusion operation, the builder's default where none was given.
    pub fn fusion_op(&self) -> super::fusion::Fusion {
        let c = &self.config;
        c.fusion.unwrap_or_else(|| {
            super::fusion::Fusion::default_for(c.d.0, c.compute, c.c.map(|c| c.0))
        })
    }

    /// `DispatchPolicy` as C++ names the type.
    pub fn policy_name(&self) -> String {
        let arch = if self.config.arch == Arch::Sm100 {
            "Sm100"
        } else {
            "Sm90"
        };
        match &self.tma {
            None if self.config.arch == Arch::Sm100 => "Sm100NoSmem".to_string(),
            None => "gemm::EpilogueDefault".to_string(),
            Some(t) => format!(
                "{arch}TmaWarpSpecialized<{}, {}, {}, {}, {}>",
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

pub(super) fn no_builder(cfg: &EpilogueConfig, takes: &str) -> Error {
    refuse(
        "Could not build a collective epilogue for given parameters.",
        format!(
            "no {} epilogue builder takes {}: it takes {takes}",
            cfg.arch.name(),
            cfg.schedule
        ),
    )
}

pub(super) fn refuse(msg: &str, why: String) -> Error {
    crate::err!("{why} (CUTLASS: \"{msg}\")")
}

/// `sizeof(SharedStorage)`: the C and D arrays (a union when they share, D alone without
/// C), the fusion's storage (an empty one still takes a byte) and the load pipeline's
/// barriers, aligned to the swizzles; and the note that says so.
pub(super) fn shared_storage(
    cfg: &EpilogueConfig,
    reuse: bool,
    stages_c: i64,
    [al_c, al_d]: [i64; 2],
    [bytes_c, bytes_d]: [i64; 2],
    fusion: Option<(i64, i64)>,
) -> Result<(i64, String)> {
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
    // `struct TensorStorage { CollectiveStorage collective; FusionStorage thread; }`.
    let (tensors, align) = match fusion {
        None => (round_up(arith::add(coll, 1)?, align)?, align),
        Some((size, fa)) => {
            let a = align.max(fa);
            (round_up(arith::add(round_up(coll, fa)?, size)?, a)?, a)
        }
    };
    let shared = round_up(arith::add(tensors, arith::mul(16, stages_c)?)?, align)?;
    Ok((shared, format!(
        "sizeof(SharedStorage) = {shared} B: C and D smem {coll} B ({} B of C, {} B of D){}, aligned to {align} B, + {} B of load barriers",
        bytes_c,
        bytes_d,
        fusion.map_or(String::new(), |(size, _)| format!(", the fusion's {size} B")),
        16 * stages_c
    )))
}

/// The fusion's storage on this epilogue (`None` for the default's, which is empty), with
/// the note of what it stages pushed.
pub(super) fn fusion_bytes(
    cfg: &EpilogueConfig,
    cta_n: i64,
    epi: [i64; 2],
    stages: [i64; 2],
    aux_buffer: &dyn Fn(Elem, GemmLayout, i64) -> Result<(i64, i64)>,
    notes: &mut Vec<String>,
) -> Result<Option<(i64, i64)>> {
    let Some(f) = &cfg.fusion else {
        return Ok(None);
    };
    let cx = super::fusion::FusionContext {
        arch: cfg.arch,
        cta_n,
        epi,
        stages,
        aux_buffer,
    };
    let (bytes, note) = super::fusion::fusion_storage(f, &cx)?;
    notes.push(note);
    Ok(bytes)
}

/// An aux tensor's buffer over the epilogue tile as SM90's collective (and SM120's) keeps
/// it: `ss_smem_selector`'s atom for its major, `stages` whole subtiles.
fn stacked_aux([em, en]: [i64; 2]) -> impl Fn(Elem, GemmLayout, i64) -> Result<(i64, i64)> {
    move |e, l, stages| {
        let major = match l {
            GemmLayout::RowMajor => AtomMajor::K,
            GemmLayout::ColumnMajor => AtomMajor::MN,
        };
        let sw = crate::smem_atom::ss_smem_selector(major, e.bits(), em, en)?;
        aux_bytes((major, sw, e.bits()), [em, en], stages)
    }
}

/// An aux buffer of `stages` (EpiM, EpiN) subtiles over an atom: its bytes and the atom's
/// swizzle alignment (`alignment_for_swizzle`).
pub(super) fn aux_bytes(
    atom: (AtomMajor, AtomSwizzle, i64),
    [em, en]: [i64; 2],
    stages: i64,
) -> Result<(i64, i64)> {
    let align = atom_layout(atom)?
        .swizzle()
        .map_or(1, |(sw, _)| sw.repeat());
    let bits = arith::mul(arith::mul(arith::mul(em, en)?, stages)?, atom.2)?;
    Ok((bits / 8, align))
}

/// The bytes of C's and D's buffers where every stage is a whole (EpiM, EpiN) tile (SM90's
/// collective, which SM120's reuses).
fn stacked_bytes([em, en]: [i64; 2], stages: [i64; 2], bits: [i64; 2]) -> Result<[i64; 2]> {
    let tile = arith::mul(em, en)?;
    Ok([
        arith::mul(arith::mul(tile, stages[0])?, bits[0])? / 8,
        arith::mul(arith::mul(tile, stages[1])?, bits[1])? / 8,
    ])
}

/// SM90's collective's C and D buffers, which SM120's reuses: each an `ss_smem_selector`
/// atom for its layout (C's are D's where there is no C), tiled to (EpiM, EpiN, stages) in
/// the order of the major (D with C's stages when they share shared memory), and
/// `sizeof(SharedStorage)` with the fusion's storage; the notes pushed.
pub(super) fn stacked_storage(
    cfg: &EpilogueConfig,
    reuse: bool,
    cta_n: i64,
    [em, en]: [i64; 2],
    [stages_c, stages_d]: [i64; 2],
    notes: &mut Vec<String>,
) -> Result<([EpiAtom; 2], [AnyLayout; 2], i64)> {
    let (ce, cl, _) = cfg.c.unwrap_or(cfg.d);
    let atom = |e: Elem, l: GemmLayout| -> Result<EpiAtom> {
        let major = match l {
            GemmLayout::RowMajor => AtomMajor::K,
            GemmLayout::ColumnMajor => AtomMajor::MN,
        };
        Ok((major, ss_smem_selector(major, e.bits(), em, en)?, e.bits()))
    };
    let atoms = [atom(ce, cl)?, atom(cfg.d.0, cfg.d.1)?];
    let d_stages = if reuse { stages_c } else { stages_d };
    let staged = |a: EpiAtom, stages: i64| -> Result<AnyLayout> {
        smem_layout(&atom_layout(a)?, em, en, stages, a.0)
    };
    let smem_layouts = [staged(atoms[0], stages_c)?, staged(atoms[1], d_stages)?];
    // A buffer starts where its swizzle's pattern does (`alignment_for_swizzle`).
    let align_of = |l: &AnyLayout| l.swizzle().map_or(1, |(sw, _)| sw.repeat());
    let aligns = [align_of(&smem_layouts[0]), align_of(&smem_layouts[1])];
    let c_bits = cfg.c.map_or(0, |c| c.0.bits());
    let bytes = stacked_bytes([em, en], [stages_c, d_stages], [c_bits, cfg.d.0.bits()])?;
    let fusion = fusion_bytes(
        cfg,
        cta_n,
        [em, en],
        [stages_c, stages_d],
        &stacked_aux([em, en]),
        notes,
    )?;
    let (shared, note) = shared_storage(cfg, reuse, stages_c, aligns, bytes, fusion)?;
    notes.push(note);
    Ok((atoms, smem_layouts, shared))
}

/// C and D are TMA-aligned: 16 bytes (96 for 6-bit elements) an alignment.
pub(super) fn check_alignment(cfg: &EpilogueConfig) -> Result<()> {
    for (name, (e, _, align)) in cfg.c.iter().map(|c| ("C", *c)).chain([("D", cfg.d)]) {
        let need = if e.bits() == 6 { 768 } else { 128 };
        if align <= 0 || arith::mul(e.bits(), align)? % need != 0 {
            return Err(refuse(
                "C/D Should meet TMA alignment requirement\\n",
                format!(
                    "Alignment{name} = {align} elements of {} is not a multiple of {} bytes",
                    e.cpp_name(),
                    need / 8
                ),
            ));
        }
    }
    Ok(())
}
