//! CUTLASS's GEMM mainloop builder for Hopper (`cutlass::gemm::collective::CollectiveBuilder`
//! of `arch::Sm90`, `OpClassTensorOp`, in `gemm/collective/builders/sm90_gmma_builder.inl`):
//! what one `CollectiveBuilder<...>::CollectiveOp` line picks out of sight, resolved as
//! CUTLASS resolves it when nvcc 12.9 compiles the headers — the schedule `KernelScheduleAuto`
//! stands for, the GMMA majors, the shared-memory atoms and layouts with their stages, the
//! tiled MMA, the TMA loads, the stage count for the arch's shared memory and the dispatch
//! policy — with each step written down, and CUTLASS's refusals in its own words.
//!
//! ```
//! use cute_core::collective::{build_mainloop, GemmLayout, MainloopConfig, Schedule, Stages};
//! use cute_core::elem::Elem;
//! let cfg = MainloopConfig {
//!     a: (Elem::F16, GemmLayout::RowMajor, 8),
//!     b: (Elem::F16, GemmLayout::ColumnMajor, 8),
//!     acc: Elem::F32,
//!     tile: [128, 128, 64],
//!     cluster: [1, 2, 1],
//!     stages: Stages::Auto,
//!     schedule: Schedule::Auto,
//! };
//! let m = build_mainloop(&cfg).unwrap();
//! assert_eq!(m.stages, 7);
//! assert_eq!(m.schedule, Schedule::Cooperative);
//! assert_eq!(m.smem_layout_a.to_string(),
//!            "Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1),(1,7)):((64,512),(1,0),(0,8192))");
//! ```

use crate::atom::{make_tiled_mma, TiledMma};
use crate::elem::Elem;
use crate::error::{arith, Error, Result};
use crate::gmma::{op_selector, GmmaOp};
use crate::int_tuple::IntTuple;
use crate::layout::{self, Layout, ModeOrder, Tiler};
use crate::smem_atom::{smem_atom, ss_smem_selector, AtomMajor, AtomSwizzle};
use crate::swizzle::{AnyLayout, ComposedLayout};
use std::fmt;

/// Shared memory one CTA may use on SM90 (`detail::sm90_smem_capacity_bytes`): 227 KiB.
pub const SM90_SMEM_CAPACITY: i64 = 232_448;
/// The bytes of one stage's pipeline barriers (`PipelineTmaAsync<1>::SharedStorage`: a full
/// and an empty `ClusterBarrier`).
pub const SM90_PIPELINE_BYTES: i64 = 16;
/// The alignment the stage count rounds to (`compute_stage_count_or_override`'s default).
const STAGE_ALIGNMENT: i64 = 128;
/// TMA's alignment of a row in global memory, in bytes (`detail::tma_alignment_bytes`).
pub const TMA_ALIGNMENT_BYTES: i64 = 16;

/// A GEMM operand's layout tag in global memory (`cutlass::layout::RowMajor` /
/// `ColumnMajor`), which `TagToStrideA/B` turn into strides: A `RowMajor` is K-major
/// (`Stride<int64_t, _1, int64_t>`), A `ColumnMajor` M-major; B `ColumnMajor` is K-major, B
/// `RowMajor` N-major.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GemmLayout {
    /// `cutlass::layout::RowMajor`.
    RowMajor,
    /// `cutlass::layout::ColumnMajor`.
    ColumnMajor,
}

impl GemmLayout {
    /// The major of operand A (`b == false`) or B in global memory.
    pub fn major(self, b: bool) -> AtomMajor {
        match (self, b) {
            (GemmLayout::RowMajor, false) | (GemmLayout::ColumnMajor, true) => AtomMajor::K,
            _ => AtomMajor::MN,
        }
    }

    /// The stride type `TagToStrideA_t` (`b == false`) or `TagToStrideB_t` makes of it.
    pub fn stride(self, b: bool) -> &'static str {
        match self.major(b) {
            AtomMajor::K => "(int64_t,_1,int64_t)",
            AtomMajor::MN => "(_1,int64_t,int64_t)",
        }
    }

    /// As CUTLASS spells it.
    pub fn name(self) -> &'static str {
        match self {
            GemmLayout::RowMajor => "cutlass::layout::RowMajor",
            GemmLayout::ColumnMajor => "cutlass::layout::ColumnMajor",
        }
    }
}

/// The stage-count argument: `StageCountAuto`, `StageCount<N>` (or `Int<N>`),
/// `StageCountAutoCarveout<bytes>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stages {
    /// `StageCountAuto`: as many as fit (`StageCountAutoCarveout<0>`).
    Auto,
    /// `StageCount<N>`.
    Count(i64),
    /// `StageCountAutoCarveout<bytes>`: as many as fit beside `bytes` the kernel keeps for
    /// itself (the epilogue's `SharedStorage`).
    AutoCarveout(i64),
}

impl fmt::Display for Stages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stages::Auto => write!(f, "StageCountAuto"),
            Stages::Count(n) => write!(f, "StageCount<{n}>"),
            Stages::AutoCarveout(b) => write!(f, "StageCountAutoCarveout<{b}>"),
        }
    }
}

/// The SM90 kernel schedules of the TMA warp-specialized mainloops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Schedule {
    /// `KernelScheduleAuto`.
    Auto,
    /// `KernelTmaWarpSpecialized`: one consumer warpgroup, not persistent.
    WarpSpecialized,
    /// `KernelTmaWarpSpecializedCooperative`: two consumer warpgroups on one tile.
    Cooperative,
    /// `KernelTmaWarpSpecializedPingpong`: two consumer warpgroups on alternate tiles.
    Pingpong,
    /// `KernelTmaWarpSpecializedFP8FastAccum`.
    WarpSpecializedFp8FastAccum,
    /// `KernelTmaWarpSpecializedCooperativeFP8FastAccum`.
    CooperativeFp8FastAccum,
    /// `KernelTmaWarpSpecializedPingpongFP8FastAccum`.
    PingpongFp8FastAccum,
}

impl Schedule {
    /// Every schedule.
    pub const ALL: [Schedule; 7] = [
        Schedule::Auto,
        Schedule::WarpSpecialized,
        Schedule::Cooperative,
        Schedule::Pingpong,
        Schedule::WarpSpecializedFp8FastAccum,
        Schedule::CooperativeFp8FastAccum,
        Schedule::PingpongFp8FastAccum,
    ];

    /// The tag as CUTLASS names it (in `cutlass::gemm`; `KernelScheduleAuto` in
    /// `cutlass::gemm::collective`).
    pub fn name(self) -> &'static str {
        match self {
            Schedule::Auto => "KernelScheduleAuto",
            Schedule::WarpSpecialized => "KernelTmaWarpSpecialized",
            Schedule::Cooperative => "KernelTmaWarpSpecializedCooperative",
            Schedule::Pingpong => "KernelTmaWarpSpecializedPingpong",
            Schedule::WarpSpecializedFp8FastAccum => "KernelTmaWarpSpecializedFP8FastAccum",
            Schedule::CooperativeFp8FastAccum => "KernelTmaWarpSpecializedCooperativeFP8FastAccum",
            Schedule::PingpongFp8FastAccum => "KernelTmaWarpSpecializedPingpongFP8FastAccum",
        }
    }

    /// The schedule of that tag name.
    pub fn parse(name: &str) -> Option<Schedule> {
        Schedule::ALL.into_iter().find(|s| s.name() == name)
    }

    fn fast_accum(self) -> bool {
        matches!(
            self,
            Schedule::WarpSpecializedFp8FastAccum
                | Schedule::CooperativeFp8FastAccum
                | Schedule::PingpongFp8FastAccum
        )
    }

    fn cooperative(self) -> bool {
        matches!(
            self,
            Schedule::Cooperative | Schedule::CooperativeFp8FastAccum
        )
    }

    /// The consumer warpgroups one tile's MMA is split over (the atom layout's M).
    pub fn warpgroups(self) -> i64 {
        if self.cooperative() {
            2
        } else {
            1
        }
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The TMA load a mainloop issues for an operand (`sm90_cluster_shape_to_tma_atom`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaLoad {
    /// `SM90_TMA_LOAD`: the cluster has one CTA along the other operand's mode.
    Load,
    /// `SM90_TMA_LOAD_MULTICAST`: the tile goes to every CTA of the cluster along it.
    Multicast,
}

impl TmaLoad {
    /// As CuTe names the op.
    pub fn name(self) -> &'static str {
        match self {
            TmaLoad::Load => "SM90_TMA_LOAD",
            TmaLoad::Multicast => "SM90_TMA_LOAD_MULTICAST",
        }
    }
}

/// One `CollectiveBuilder<arch::Sm90, arch::OpClassTensorOp, ...>` line's arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct MainloopConfig {
    /// A's element, layout tag and alignment (in elements).
    pub a: (Elem, GemmLayout, i64),
    /// B's.
    pub b: (Elem, GemmLayout, i64),
    /// The accumulator.
    pub acc: Elem,
    /// `TileShape_MNK`.
    pub tile: [i64; 3],
    /// `ClusterShape_MNK`.
    pub cluster: [i64; 3],
    /// The stage-count argument.
    pub stages: Stages,
    /// The kernel schedule tag.
    pub schedule: Schedule,
}

/// What the builder picked: every member of `CollectiveOp` a kernel is made of, and the
/// steps that chose them.
#[derive(Clone, Debug, PartialEq)]
pub struct Mainloop {
    /// The arguments it was built from.
    pub config: MainloopConfig,
    /// The schedule after `KernelScheduleAuto` (the one the policy carries).
    pub schedule: Schedule,
    /// The GMMA majors of A and B (`gmma_ss_tag_to_major_A/B`).
    pub majors: [AtomMajor; 2],
    /// The element types the MMA reads (`float` is read as `tfloat32_t`).
    pub mma_types: [Elem; 2],
    /// `SmemLayoutAtomA/B`: the GMMA atom's swizzle.
    pub smem_atoms: [AtomSwizzle; 2],
    /// `SmemLayoutA`: the atom tiled to (M, K, Stages).
    pub smem_layout_a: AnyLayout,
    /// `SmemLayoutB`: (N, K, Stages).
    pub smem_layout_b: AnyLayout,
    /// The GMMA op `ss_op_selector` picked.
    pub op: GmmaOp,
    /// `TiledMma`: the op over the schedule's warpgroups.
    pub tiled_mma: TiledMma,
    /// `GmemTiledCopyA/B`.
    pub gmem_copy: [TmaLoad; 2],
    /// `DispatchPolicy::Stages`.
    pub stages: i64,
    /// Bytes of one stage (A and B tiles rounded to 128, plus the barriers), when counted.
    pub stage_bytes: i64,
    /// The steps of the resolution, one a line, in CUTLASS's terms.
    pub notes: Vec<String>,
}

impl Mainloop {
    /// `DispatchPolicy` as C++ names the type.
    pub fn policy_name(&self) -> String {
        let fp8 = is_fp8(self.config.a.0) && is_fp8(self.config.b.0) && !self.schedule.fast_accum();
        let [cm, cn, ck] = self.config.cluster;
        format!(
            "MainloopSm90TmaGmmaWarpSpecialized{}<{}, Shape<_{cm},_{cn},_{ck}>, {}>",
            if fp8 { "FP8" } else { "" },
            self.stages,
            self.schedule
        )
    }

    /// The shared memory the mainloop's `SharedStorage` holds: its stages' tiles and
    /// barriers.
    pub fn smem_bytes(&self) -> Result<i64> {
        arith::mul(self.stages, self.stage_bytes)
    }
}

impl fmt::Display for Mainloop {
    /// One line: the `CollectiveMma`'s policy, tile, MMA, smem layouts and TMA loads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [m, n, k] = self.config.tile;
        write!(
            f,
            "CollectiveMma<{}>: TileShape ({m},{n},{k}), TiledMma {} over {} warpgroup(s), SmemLayoutA {}, SmemLayoutB {}, GmemTiledCopyA {}, GmemTiledCopyB {}",
            self.policy_name(),
            self.op,
            self.schedule.warpgroups(),
            self.smem_layout_a,
            self.smem_layout_b,
            self.gmem_copy[0].name(),
            self.gmem_copy[1].name()
        )
    }
}

fn is_fp8(e: Elem) -> bool {
    matches!(e, Elem::E4M3 | Elem::E5M2)
}

fn refuse(msg: &str, why: String) -> Error {
    Error::new(format!("{why} (CUTLASS: \"{msg}\")"))
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
    if cfg.tile.iter().chain(&cfg.cluster).any(|&x| x <= 0) {
        return Err(Error::new(format!(
            "the tile {:?} and cluster {:?} must be positive",
            cfg.tile, cfg.cluster
        )));
    }
    let size = cfg
        .cluster
        .iter()
        .try_fold(1i64, |a, &x| arith::mul(a, x))?;
    if cfg.cluster[2] != 1 || size > 16 {
        return Err(Error::new(format!(
            "a Hopper cluster is (M, N, 1) with at most 16 CTAs (8 portably), got ({},{},{})",
            cfg.cluster[0], cfg.cluster[1], cfg.cluster[2]
        )));
    }
    let (a, b) = (cfg.a.0.bits(), cfg.b.0.bits());
    let two_byte = a == 16 && b == 16;
    let k_major = cfg.a.1.major(false) == AtomMajor::K && cfg.b.1.major(true) == AtomMajor::K;
    if a != b || (!two_byte && !k_major) {
        return Err(Error::new(format!(
            "{} A ({}) and {} B ({}) go to CUTLASS's register-sourced (RS) mainloop (is_use_rmem_A: not both 16-bit and not both K-major, or mixed widths), which this builder does not resolve yet; make both K-major (A RowMajor, B ColumnMajor) for the SS mainloop",
            cfg.a.0.cpp_name(),
            cfg.a.1.name(),
            cfg.b.0.cpp_name(),
            cfg.b.1.name()
        )));
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
            "warning: {s} with tile M = {} builds, but the cooperative kernel refuses it: \"Cooperative kernel requires Tile Size to be greater than or equal to 128 along the M-dimension.\"",
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

/// `x` rounded up to a multiple of `a` (`x >= 0`, `a > 0`).
pub(crate) fn round_up(x: i64, a: i64) -> Result<i64> {
    arith::mul(arith::add(x, a - 1)? / a, a)
}

/// An operand's `SmemLayout`: the GMMA atom tiled to (MN, K, Stages), MN-first for an
/// operand K-major in global memory, K-first for one MN-major (C++'s `Step<_2,_1,_3>`).
pub(crate) fn smem_layout(
    atom: &AnyLayout,
    mn: i64,
    k: i64,
    stages: i64,
    gmem_major: AtomMajor,
) -> Result<AnyLayout> {
    let order = match gmem_major {
        AtomMajor::K => ModeOrder::Step(IntTuple::ints(&[1, 2, 3])),
        AtomMajor::MN => ModeOrder::Step(IntTuple::ints(&[2, 1, 3])),
    };
    let trg = IntTuple::ints(&[mn, k, stages]);
    let inner = layout::tile_to_shape(atom.inner(), &trg, &order)?;
    Ok(match atom {
        AnyLayout::Composed(c) => AnyLayout::Composed(ComposedLayout {
            layout: inner,
            ..c.clone()
        }),
        AnyLayout::Layout(_) => AnyLayout::Layout(inner),
    })
}

/// CUTLASS's SM90 TMA warp-specialized SS mainloop builder (`GMMA_TMA_WS_SS`, its FP8
/// fast-accumulate twin and `KernelScheduleAuto`'s dispatch to them).
pub fn build_mainloop(cfg: &MainloopConfig) -> Result<Mainloop> {
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
    for (i, (mn, name)) in [(tm, "A"), (tn, "B")].into_iter().enumerate() {
        let inner = atoms[i].inner();
        let (amn, ak) = (inner.mode(0)?.size()?, inner.mode(1)?.size()?);
        if mn % amn != 0 || tk % ak != 0 {
            return Err(refuse(
                "SmemLayoutAtom must evenly divide tile shape.",
                format!(
                    "the {name} atom {} does not divide the {name} tile ({mn},{tk})",
                    atoms[i]
                ),
            ));
        }
    }
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
    let tma = |n: i64| {
        if n == 1 {
            TmaLoad::Load
        } else {
            TmaLoad::Multicast
        }
    };
    let gmem_copy = [tma(cfg.cluster[1]), tma(cfg.cluster[0])];
    notes.push(format!(
        "GmemTiledCopyA/B: {} (cluster N = {}), {} (cluster M = {})",
        gmem_copy[0].name(),
        cfg.cluster[1],
        gmem_copy[1].name(),
        cfg.cluster[0]
    ));
    Ok(Mainloop {
        config: cfg.clone(),
        schedule,
        majors,
        mma_types,
        smem_atoms: sw,
        smem_layout_a,
        smem_layout_b,
        op,
        tiled_mma,
        gmem_copy,
        stages,
        stage_bytes,
        notes,
    })
}
