//! The builders' shared vocabulary: the configuration, the schedules, the result and the
//! checks every arch's builder makes.

use crate::arch::Arch;
use crate::atom::TiledMma;
use crate::elem::Elem;
use crate::error::{arith, Error, Result};
use crate::int_tuple::IntTuple;
use crate::layout::{self, Layout, ModeOrder};
use crate::smem_atom::{AtomMajor, AtomSwizzle};
use crate::swizzle::AnyLayout;
use std::fmt;

/// Shared memory one CTA may use on SM90 (`detail::sm90_smem_capacity_bytes`): 227 KiB.
pub const SM90_SMEM_CAPACITY: i64 = 232_448;
/// The bytes of one stage's pipeline barriers (`PipelineTmaAsync<1>::SharedStorage`: a full
/// and an empty `ClusterBarrier`).
pub const SM90_PIPELINE_BYTES: i64 = 16;
/// Shared memory one CTA may use on SM100 (`arch::Sm100::kSharedMemoryCapacityBytes`).
pub const SM100_SMEM_CAPACITY: i64 = 232_448;
/// Shared memory one CTA may use on SM120 (`arch::Sm120::kSharedMemoryCapacityBytes`): 99 KiB.
pub const SM120_SMEM_CAPACITY: i64 = 101_376;
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

/// A block-scaled GEMM operand's element type: its data type and how its scale factors
/// are named (`detail::blockscaled::blockscaled_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScaledElem {
    /// `nv_float4_t<float_e2m1_t>`: `float_ue4m3_t` scales, one per 16 elements.
    Nv(Elem),
    /// `mx_float4_t<T>`, `mx_float6_t<T>`, `mx_float8_t<T>`: `float_ue8m0_t` scales, one per
    /// 32 elements.
    Mx(Elem),
    /// `cute::tuple<T, SF>` (the schedule's vector size) or `cute::tuple<T, SF, Int<VS>>`.
    Pair(Elem, Elem, Option<i64>),
}

impl ScaledElem {
    /// `nv_float4_t<T>`, checked as CUTLASS's `static_assert` checks it.
    pub fn nv(data: Elem) -> Result<ScaledElem> {
        if data != Elem::E2M1 {
            return Err(refuse(
                "Only float_e2m1_t type_erased_dynamic_float4_t can have scale factors for NVFP4",
                format!("nv_float4_t<{}>", data.cpp_name()),
            ));
        }
        Ok(ScaledElem::Nv(data))
    }

    /// `mx_float{bits}_t<T>` (bits 4, 6 or 8), checked as CUTLASS checks it.
    pub fn mx(bits: i64, data: Elem) -> Result<ScaledElem> {
        let (ok, msg) = match bits {
            4 => (
                data == Elem::E2M1,
                "Only float_e2m1_t type_erased_dynamic_float4_t can have scale factors for MXFP4",
            ),
            6 => (
                matches!(data, Elem::E2M3 | Elem::E3M2),
                "Only float_e2m3_t, float_e3m2_t can have scale factors for MXFP6",
            ),
            8 => (
                matches!(data, Elem::E4M3 | Elem::E5M2),
                "Only float_e5m2_t, float_e4m3_t can have scale factors for MXFP8",
            ),
            _ => (
                false,
                "mx_float4_t, mx_float6_t and mx_float8_t are CUTLASS's MX types",
            ),
        };
        if !ok {
            return Err(refuse(
                msg,
                format!("mx_float{bits}_t<{}>", data.cpp_name()),
            ));
        }
        Ok(ScaledElem::Mx(data))
    }

    /// The data type (`DataType`).
    pub fn data(self) -> Elem {
        match self {
            ScaledElem::Nv(e) | ScaledElem::Mx(e) | ScaledElem::Pair(e, _, _) => e,
        }
    }

    /// The scale-factor type (`ScaleFactorType`).
    pub fn sf(self) -> Elem {
        match self {
            ScaledElem::Nv(_) => Elem::UE4M3,
            ScaledElem::Mx(_) => Elem::UE8M0,
            ScaledElem::Pair(_, sf, _) => sf,
        }
    }

    /// `SfVectorSize`: the elements one scale factor covers, the pair's own or the
    /// schedule's (`find_vector_size`) where the type does not say.
    pub fn vs(self, tag: BlockScaledTag) -> i64 {
        match self {
            ScaledElem::Nv(_) => 16,
            ScaledElem::Mx(_) => 32,
            ScaledElem::Pair(_, _, Some(vs)) => vs,
            ScaledElem::Pair(_, _, None) => tag.vs,
        }
    }
}

impl fmt::Display for ScaledElem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ScaledElem::Nv(e) => write!(f, "nv_float4_t<{e}>"),
            ScaledElem::Mx(e) => write!(f, "mx_float{}_t<{e}>", e.bits()),
            ScaledElem::Pair(e, sf, None) => write!(f, "cute::tuple<{e},{sf}>"),
            ScaledElem::Pair(e, sf, Some(vs)) => write!(f, "cute::tuple<{e},{sf},Int<{vs}>>"),
        }
    }
}

/// The kernel schedule tags of the TMA warp-specialized mainloops: SM90's, SM100's 1-SM and
/// 2-SM dense UMMA tags and SM120's F8F6F4 tag (SM120 also takes the SM90 cooperative and
/// pingpong tags).
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
    /// `KernelTmaWarpSpecialized1SmSm100`: a 1-SM UMMA.
    TmaWs1SmSm100,
    /// `KernelTmaWarpSpecialized2SmSm100`: a 2-SM UMMA on a CTA pair.
    TmaWs2SmSm100,
    /// `KernelScheduleF8f6f4Sm120`: SM120's F8F6F4 schedule (cooperative).
    F8f6f4Sm120,
    /// `KernelScheduleBlockScaledGemmSm100`: SM100's block-scaled base tag (1-SM or 2-SM and
    /// the instruction by the tile and the types).
    BlockScaledSm100,
    /// `KernelScheduleMxNvf4Sm100`: the `MXF4`/`NVF4` instruction, 1-SM or 2-SM by the tile.
    MxNvf4Sm100,
    /// `KernelScheduleMxf8f6f4Sm100`: the `MXF8F6F4` instruction, 1-SM or 2-SM by the tile.
    Mxf8f6f4Sm100,
    /// `KernelTmaWarpSpecialized1SmBlockScaledSm100`: a 1-SM block-scaled UMMA.
    BlockScaled1SmSm100,
    /// `KernelTmaWarpSpecialized2SmBlockScaledSm100`: a 2-SM block-scaled UMMA.
    BlockScaled2SmSm100,
    /// `KernelTmaWarpSpecialized1SmNvf4Sm100`: 1-SM `MXF4` with 16-element scale vectors.
    Nvf41SmSm100,
    /// `KernelTmaWarpSpecialized2SmNvf4Sm100`.
    Nvf42SmSm100,
    /// `KernelTmaWarpSpecialized1SmMxf4Sm100`: 1-SM `MXF4` with 32-element scale vectors.
    Mxf41SmSm100,
    /// `KernelTmaWarpSpecialized2SmMxf4Sm100`.
    Mxf42SmSm100,
    /// `KernelTmaWarpSpecialized1SmMxf8f6f4Sm100`: 1-SM `MXF8F6F4`.
    Mxf8f6f41SmSm100,
    /// `KernelTmaWarpSpecialized2SmMxf8f6f4Sm100`.
    Mxf8f6f42SmSm100,
    /// `KernelScheduleBlockScaledGemmSm120`: SM120's block-scaled base tag (cooperative, the
    /// instruction by the types).
    BlockScaledSm120,
    /// `KernelScheduleMxNvf4Sm120`: SM120's `MXF4`/`NVF4` `mma.sync`, cooperative.
    MxNvf4Sm120,
    /// `KernelScheduleMxf8f6f4Sm120`: SM120's `MXF8F6F4` `mma.sync`, cooperative.
    Mxf8f6f4Sm120,
    /// `KernelTmaWarpSpecializedNvf4Sm120`: cooperative NVF4 (16-element scale vectors).
    Nvf4Sm120,
    /// `KernelTmaWarpSpecializedPingpongNvf4Sm120`.
    PingpongNvf4Sm120,
    /// `KernelTmaWarpSpecializedMxf4Sm120`: cooperative MXF4 (32-element scale vectors).
    Mxf4Sm120,
    /// `KernelTmaWarpSpecializedPingpongMxf4Sm120`.
    PingpongMxf4Sm120,
    /// `KernelTmaWarpSpecializedMxf8f6f4Sm120`: cooperative MXF8F6F4.
    CooperativeMxf8f6f4Sm120,
    /// `KernelTmaWarpSpecializedPingpongMxf8f6f4Sm120`.
    PingpongMxf8f6f4Sm120,
}

/// The block-scaled UMMA instruction a schedule or the types select
/// (`detail::blockscaled::BlockScaledInstr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockScaledInstr {
    /// `MXF4_NVF4`: `SM100_MMA_MXF4[_2x1SM]_SS`, 4-bit A and B, K-major.
    Mxf4Nvf4,
    /// `MXF4F6F8`: `SM100_MMA_MXF8F6F4[_2x1SM]_SS`, any mix of 4-, 6- and 8-bit floats.
    Mxf8f6f4,
}

/// What a block-scaled schedule tag fixes: the CTAs of the MMA (`None`: by the tile), the
/// instruction (`None`: by the types) and `find_vector_size`'s scale vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockScaledTag {
    /// `Some(true)` for a `KernelSchedule2Sm` tag, `Some(false)` for a `KernelSchedule1Sm` one.
    pub two_sm: Option<bool>,
    /// The instruction the tag names.
    pub instr: Option<BlockScaledInstr>,
    /// `find_vector_size<Tag>()`: 16 for the `Nvf4` tags, else 32.
    pub vs: i64,
}

impl Schedule {
    /// Every schedule.
    pub const ALL: [Schedule; 30] = [
        Schedule::Auto,
        Schedule::WarpSpecialized,
        Schedule::Cooperative,
        Schedule::Pingpong,
        Schedule::WarpSpecializedFp8FastAccum,
        Schedule::CooperativeFp8FastAccum,
        Schedule::PingpongFp8FastAccum,
        Schedule::TmaWs1SmSm100,
        Schedule::TmaWs2SmSm100,
        Schedule::F8f6f4Sm120,
        Schedule::BlockScaledSm100,
        Schedule::MxNvf4Sm100,
        Schedule::Mxf8f6f4Sm100,
        Schedule::BlockScaled1SmSm100,
        Schedule::BlockScaled2SmSm100,
        Schedule::Nvf41SmSm100,
        Schedule::Nvf42SmSm100,
        Schedule::Mxf41SmSm100,
        Schedule::Mxf42SmSm100,
        Schedule::Mxf8f6f41SmSm100,
        Schedule::Mxf8f6f42SmSm100,
        Schedule::BlockScaledSm120,
        Schedule::MxNvf4Sm120,
        Schedule::Mxf8f6f4Sm120,
        Schedule::Nvf4Sm120,
        Schedule::PingpongNvf4Sm120,
        Schedule::Mxf4Sm120,
        Schedule::PingpongMxf4Sm120,
        Schedule::CooperativeMxf8f6f4Sm120,
        Schedule::PingpongMxf8f6f4Sm120,
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
            Schedule::TmaWs1SmSm100 => "KernelTmaWarpSpecialized1SmSm100",
            Schedule::TmaWs2SmSm100 => "KernelTmaWarpSpecialized2SmSm100",
            Schedule::F8f6f4Sm120 => "KernelScheduleF8f6f4Sm120",
            Schedule::BlockScaledSm100 => "KernelScheduleBlockScaledGemmSm100",
            Schedule::MxNvf4Sm100 => "KernelScheduleMxNvf4Sm100",
            Schedule::Mxf8f6f4Sm100 => "KernelScheduleMxf8f6f4Sm100",
            Schedule::BlockScaled1SmSm100 => "KernelTmaWarpSpecialized1SmBlockScaledSm100",
            Schedule::BlockScaled2SmSm100 => "KernelTmaWarpSpecialized2SmBlockScaledSm100",
            Schedule::Nvf41SmSm100 => "KernelTmaWarpSpecialized1SmNvf4Sm100",
            Schedule::Nvf42SmSm100 => "KernelTmaWarpSpecialized2SmNvf4Sm100",
            Schedule::Mxf41SmSm100 => "KernelTmaWarpSpecialized1SmMxf4Sm100",
            Schedule::Mxf42SmSm100 => "KernelTmaWarpSpecialized2SmMxf4Sm100",
            Schedule::Mxf8f6f41SmSm100 => "KernelTmaWarpSpecialized1SmMxf8f6f4Sm100",
            Schedule::Mxf8f6f42SmSm100 => "KernelTmaWarpSpecialized2SmMxf8f6f4Sm100",
            Schedule::BlockScaledSm120 => "KernelScheduleBlockScaledGemmSm120",
            Schedule::MxNvf4Sm120 => "KernelScheduleMxNvf4Sm120",
            Schedule::Mxf8f6f4Sm120 => "KernelScheduleMxf8f6f4Sm120",
            Schedule::Nvf4Sm120 => "KernelTmaWarpSpecializedNvf4Sm120",
            Schedule::PingpongNvf4Sm120 => "KernelTmaWarpSpecializedPingpongNvf4Sm120",
            Schedule::Mxf4Sm120 => "KernelTmaWarpSpecializedMxf4Sm120",
            Schedule::PingpongMxf4Sm120 => "KernelTmaWarpSpecializedPingpongMxf4Sm120",
            Schedule::CooperativeMxf8f6f4Sm120 => "KernelTmaWarpSpecializedMxf8f6f4Sm120",
            Schedule::PingpongMxf8f6f4Sm120 => "KernelTmaWarpSpecializedPingpongMxf8f6f4Sm120",
        }
    }

    /// What a block-scaled tag fixes on `arch`'s builder (`None` for the tags it does not
    /// take; `KernelScheduleAuto` and SM120's base, cooperative and pingpong tags fix
    /// nothing and read 32-element vectors).
    ///
    /// ```
    /// use cute_core::arch::Arch;
    /// use cute_core::collective::{BlockScaledInstr, Schedule};
    /// let t = Schedule::Nvf42SmSm100.block_scaled(Arch::Sm100).unwrap();
    /// assert_eq!((t.two_sm, t.instr, t.vs), (Some(true), Some(BlockScaledInstr::Mxf4Nvf4), 16));
    /// let t = Schedule::PingpongNvf4Sm120.block_scaled(Arch::Sm120).unwrap();
    /// assert_eq!((t.two_sm, t.instr, t.vs), (None, Some(BlockScaledInstr::Mxf4Nvf4), 16));
    /// assert!(Schedule::Nvf42SmSm100.block_scaled(Arch::Sm120).is_none());
    /// ```
    pub fn block_scaled(self, arch: Arch) -> Option<BlockScaledTag> {
        use BlockScaledInstr::{Mxf4Nvf4, Mxf8f6f4};
        let (two_sm, instr, vs) = match (arch, self) {
            (Arch::Sm100 | Arch::Sm120, Schedule::Auto) => (None, None, 32),
            (Arch::Sm100, s) => match s {
                Schedule::BlockScaledSm100 => (None, None, 32),
                Schedule::MxNvf4Sm100 => (None, Some(Mxf4Nvf4), 32),
                Schedule::Mxf8f6f4Sm100 => (None, Some(Mxf8f6f4), 32),
                Schedule::BlockScaled1SmSm100 => (Some(false), None, 32),
                Schedule::BlockScaled2SmSm100 => (Some(true), None, 32),
                Schedule::Nvf41SmSm100 => (Some(false), Some(Mxf4Nvf4), 16),
                Schedule::Nvf42SmSm100 => (Some(true), Some(Mxf4Nvf4), 16),
                Schedule::Mxf41SmSm100 => (Some(false), Some(Mxf4Nvf4), 32),
                Schedule::Mxf42SmSm100 => (Some(true), Some(Mxf4Nvf4), 32),
                Schedule::Mxf8f6f41SmSm100 => (Some(false), Some(Mxf8f6f4), 32),
                Schedule::Mxf8f6f42SmSm100 => (Some(true), Some(Mxf8f6f4), 32),
                _ => return None,
            },
            (Arch::Sm120, s) => match s {
                Schedule::Cooperative | Schedule::Pingpong | Schedule::BlockScaledSm120 => {
                    (None, None, 32)
                }
                Schedule::MxNvf4Sm120 | Schedule::Mxf4Sm120 | Schedule::PingpongMxf4Sm120 => {
                    (None, Some(Mxf4Nvf4), 32)
                }
                Schedule::Nvf4Sm120 | Schedule::PingpongNvf4Sm120 => (None, Some(Mxf4Nvf4), 16),
                Schedule::Mxf8f6f4Sm120
                | Schedule::CooperativeMxf8f6f4Sm120
                | Schedule::PingpongMxf8f6f4Sm120 => (None, Some(Mxf8f6f4), 32),
                _ => return None,
            },
            _ => return None,
        };
        Some(BlockScaledTag { two_sm, instr, vs })
    }

    /// Whether an SM120 tag runs its two consumer warpgroups on alternate tiles
    /// (`KernelTmaWarpSpecializedPingpong` and the tags derived from it).
    pub(super) fn sm120_pingpong(self) -> bool {
        matches!(
            self,
            Schedule::Pingpong
                | Schedule::PingpongNvf4Sm120
                | Schedule::PingpongMxf4Sm120
                | Schedule::PingpongMxf8f6f4Sm120
        )
    }

    /// The schedule of that tag name.
    pub fn parse(name: &str) -> Option<Schedule> {
        Schedule::ALL.into_iter().find(|s| s.name() == name)
    }

    pub(super) fn fast_accum(self) -> bool {
        matches!(
            self,
            Schedule::WarpSpecializedFp8FastAccum
                | Schedule::CooperativeFp8FastAccum
                | Schedule::PingpongFp8FastAccum
        )
    }

    pub(super) fn cooperative(self) -> bool {
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

/// The TMA load a mainloop issues for an operand (`sm90_cluster_shape_to_tma_atom`, and
/// SM100's `sm100_cluster_shape_to_tma_atom_A/B` for a 2-SM MMA).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmaLoad {
    /// `SM90_TMA_LOAD`: the cluster has one CTA along the other operand's mode.
    Load,
    /// `SM90_TMA_LOAD_MULTICAST`: the tile goes to every CTA of the cluster along it.
    Multicast,
    /// `SM100_TMA_2SM_LOAD`: a CTA pair's load, not multicast.
    TwoSmLoad,
    /// `SM100_TMA_2SM_LOAD_MULTICAST`: a CTA pair's load, multicast along the cluster.
    TwoSmMulticast,
}

impl TmaLoad {
    /// As CuTe names the op.
    pub fn name(self) -> &'static str {
        match self {
            TmaLoad::Load => "SM90_TMA_LOAD",
            TmaLoad::Multicast => "SM90_TMA_LOAD_MULTICAST",
            TmaLoad::TwoSmLoad => "SM100_TMA_2SM_LOAD",
            TmaLoad::TwoSmMulticast => "SM100_TMA_2SM_LOAD_MULTICAST",
        }
    }

    /// The load of `n` CTAs along the cluster mode it is shared over (1: no multicast).
    pub(super) fn of(n: i64, two_sm: bool) -> TmaLoad {
        match (n == 1, two_sm) {
            (true, false) => TmaLoad::Load,
            (false, false) => TmaLoad::Multicast,
            (true, true) => TmaLoad::TwoSmLoad,
            (false, true) => TmaLoad::TwoSmMulticast,
        }
    }
}

/// One `CollectiveBuilder<arch::SmXX, arch::OpClassTensorOp, ...>` line's arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct MainloopConfig {
    /// The arch tag (`arch::Sm90`, `Sm100`, `Sm120`).
    pub arch: Arch,
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
    /// `arch::OpClassBlockScaledTensorOp`'s operands: A's and B's scaled types (their data
    /// types are `a.0` and `b.0`); `None` for `OpClassTensorOp`.
    pub scaled: Option<[ScaledElem; 2]>,
}

/// What the builder picked: every member of `CollectiveOp` a kernel is made of, and the
/// steps that chose them.
#[derive(Clone, Debug, PartialEq)]
pub struct Mainloop {
    /// The arguments it was built from.
    pub config: MainloopConfig,
    /// The schedule after `KernelScheduleAuto` (the one the policy carries).
    pub schedule: Schedule,
    /// The MMA majors of A and B (`gmma_ss_tag_to_major_A/B`, `tag_to_umma_major_A/B`).
    pub majors: [AtomMajor; 2],
    /// The element types the MMA reads (`float` is read as `tfloat32_t`).
    pub mma_types: [Elem; 2],
    /// The bits of an element in shared memory (`SmemAllocTypeA/B`: sub-byte types take a
    /// byte where the MMA reads them unpacked).
    pub smem_bits: [i64; 2],
    /// `SmemLayoutAtomA/B`: the atom's swizzle.
    pub smem_atoms: [AtomSwizzle; 2],
    /// `SmemLayoutA`: the atom tiled to (M, K, Stages).
    pub smem_layout_a: AnyLayout,
    /// `SmemLayoutB`: (N, K, Stages).
    pub smem_layout_b: AnyLayout,
    /// The MMA op the builder picked, with its template arguments where C++ names them.
    pub op: String,
    /// `TiledMma`: the op over the schedule's warpgroups (SM90), on one SM or a CTA pair
    /// (SM100), over eight warps (SM120).
    pub tiled_mma: TiledMma,
    /// `GmemTiledCopyA/B`.
    pub gmem_copy: [TmaLoad; 2],
    /// `SmemCopyAtomA/B` (SM120's ldmatrix ops; `void` where the MMA reads shared memory
    /// through descriptors).
    pub smem_copy: Option<[&'static str; 2]>,
    /// `DispatchPolicy::Stages`.
    pub stages: i64,
    /// The dispatch policy's other template arguments.
    pub policy: DispatchPolicy,
    /// Bytes of one stage (A and B tiles rounded to 128, plus the barriers), when counted.
    pub stage_bytes: i64,
    /// The steps of the resolution, one a line, in CUTLASS's terms.
    pub notes: Vec<String>,
    /// A block-scaled mainloop's scale factors.
    pub block_scale: Option<BlockScale>,
}

/// What a block-scaled mainloop adds: the scale factors of A and B, their shared-memory
/// layouts (`Sm1xxBlockScaledConfig::deduce_smem_layoutSFA/SFB`, then the stages) and
/// their TMA loads.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockScale {
    /// `ElementSF`.
    pub sf: Elem,
    /// `SFVecSize`: the K elements one scale factor covers.
    pub vs: i64,
    /// The instruction selected.
    pub instr: BlockScaledInstr,
    /// `SmemLayoutAtomSFA/SFB`: one stage's scale factors of the CTA tile.
    pub atoms: [Layout; 2],
    /// `SmemLayoutSFA/SFB`: the atoms with the stage mode appended.
    pub layouts: [Layout; 2],
    /// `GmemTiledCopySFA/SFB`.
    pub gmem_copy: [TmaLoad; 2],
    /// Bytes of one stage's SFA and SFB (`size(filter_zeros(SmemLayoutAtomSF))`).
    pub stage_bytes: [i64; 2],
}

/// A mainloop's dispatch policy (`DispatchPolicy`): the template and what it carries beside
/// the stage count and the cluster shape.
#[derive(Clone, Debug, PartialEq)]
pub struct DispatchPolicy {
    /// The policy template (`MainloopSm100TmaUmmaWarpSpecialized`).
    pub template: &'static str,
    /// `SchedulerPipelineStageCount` (SM100, SM120).
    pub scheduler_stages: Option<i64>,
    /// `AccumulatorPipelineStageCount` (SM100): TMEM accumulator buffers.
    pub acc_stages: Option<i64>,
    /// The kernel schedule the policy carries, as C++ names it.
    pub schedule: String,
}

impl Mainloop {
    /// `DispatchPolicy` as C++ names the type.
    pub fn policy_name(&self) -> String {
        let [cm, cn, ck] = self.config.cluster;
        let cluster = format!("Shape<_{cm},_{cn},_{ck}>");
        let p = &self.policy;
        let sch = p.scheduler_stages.unwrap_or(0);
        match self.config.arch {
            Arch::Sm100 => format!(
                "{}<{}, {sch}, {}, {cluster}, arch::Sm100>",
                p.template,
                self.stages,
                p.acc_stages.unwrap_or(0)
            ),
            Arch::Sm120 => format!(
                "{}<{}, {sch}, {cluster}, {}>",
                p.template, self.stages, p.schedule
            ),
            _ => format!("{}<{}, {cluster}, {}>", p.template, self.stages, p.schedule),
        }
    }

    /// Whether a CTA pair issues the MMA (SM100's 2-SM UMMA).
    pub fn two_sm(&self) -> bool {
        self.config.arch == Arch::Sm100 && self.tiled_mma.atom.thr_id.size().unwrap_or(1) == 2
    }

    /// Who runs the tiled MMA: SM90's warpgroups, SM100's one SM or CTA pair, SM120's warps.
    pub fn mma_threads(&self) -> String {
        match self.config.arch {
            Arch::Sm100 if self.two_sm() => "on a CTA pair (2 SMs)".to_string(),
            Arch::Sm100 => "on 1 SM".to_string(),
            Arch::Sm120 => format!(
                "over {} warps",
                self.tiled_mma.thr_layout_vmnk.size().unwrap_or(0) / 32
            ),
            _ => {
                let w = self.schedule.warpgroups();
                format!("over {w} warpgroup{}", if w == 1 { "" } else { "s" })
            }
        }
    }

    /// `TmaTransactionBytes` (SM100, SM120's block-scaled mainloop): what one stage's TMA
    /// loads bring a CTA (a CTA pair's MMA counts both CTAs' halves), A and B at their global
    /// widths, and the scale factors.
    pub fn tma_transaction_bytes(&self) -> Result<i64> {
        let pair: i64 = if self.two_sm() { 2 } else { 1 };
        let mut bytes = 0i64;
        for (l, e) in [
            (&self.smem_layout_a, self.config.a.0),
            (&self.smem_layout_b, self.config.b.0),
        ] {
            bytes = arith::add(bytes, arith::mul(stage_cosize(l.inner())?, e.bits())?)?;
        }
        bytes = arith::mul(pair, (bytes + 7) / 8)?;
        if let Some(bs) = &self.block_scale {
            for l in &bs.layouts {
                let s = arith::mul(stage_cosize(l)?, bs.sf.bits())? / 8;
                bytes = arith::add(bytes, arith::mul(pair, s)?)?;
            }
        }
        Ok(bytes)
    }

    /// The shared memory the mainloop's `SharedStorage` holds: its stages' tiles and
    /// barriers (SM100's, a 128-byte aligned struct, rounded up to 128; SM120's block-scaled
    /// one lays A and B out 1024-byte aligned, the scale factors 16-byte aligned, then the
    /// barriers, the whole 1024-byte aligned).
    pub fn smem_bytes(&self) -> Result<i64> {
        match (self.config.arch, &self.block_scale) {
            (Arch::Sm100, _) => round_up(arith::mul(self.stages, self.stage_bytes)?, 128),
            (Arch::Sm120, Some(bs)) => {
                let mut end = 0i64;
                let buffers = [
                    (&self.smem_layout_a, self.smem_bits[0], 1024),
                    (&self.smem_layout_b, self.smem_bits[1], 1024),
                ];
                for (l, bits, align) in buffers {
                    let bytes = arith::mul(l.inner().cosize()?, bits)? / 8;
                    end = arith::add(round_up(end, align)?, bytes)?;
                }
                for l in &bs.layouts {
                    // An empty buffer (SFA of a tile below 128 rows) is an empty struct of
                    // one byte.
                    let bytes = (arith::mul(l.cosize()?, bs.sf.bits())? / 8).max(1);
                    end = arith::add(round_up(end, 16)?, bytes)?;
                }
                let barriers = arith::mul(self.stages, 16)?;
                round_up(arith::add(round_up(end, 1024)?, barriers)?, 1024)
            }
            _ => arith::mul(self.stages, self.stage_bytes),
        }
    }

    /// What SM120's block-scaled `SharedStorage` holds beyond its buffers (A, B and the
    /// scale factors at their cosizes): the 1024-byte alignment padding and the stages'
    /// barriers, which CUTLASS's stage count leaves out; 0 for the other mainloops.
    pub fn storage_padding_bytes(&self) -> Result<i64> {
        let (Arch::Sm120, Some(bs)) = (self.config.arch, &self.block_scale) else {
            return Ok(0);
        };
        let mut buffers = 0i64;
        for (l, bits) in [
            (self.smem_layout_a.inner(), self.smem_bits[0]),
            (self.smem_layout_b.inner(), self.smem_bits[1]),
            (&bs.layouts[0], bs.sf.bits()),
            (&bs.layouts[1], bs.sf.bits()),
        ] {
            buffers = arith::add(buffers, arith::mul(l.cosize()?, bits)? / 8)?;
        }
        arith::sub(self.smem_bytes()?, buffers)
    }
}

/// The cosize of one stage of a staged buffer: its modes but the last.
fn stage_cosize(l: &Layout) -> Result<i64> {
    let r = i64::try_from(l.rank().saturating_sub(1)).unwrap_or(0);
    layout::take(l, 0, Some(r))?.cosize()
}

impl fmt::Display for Mainloop {
    /// One line: the `CollectiveMma`'s policy, tile, MMA, smem layouts and TMA loads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [m, n, k] = self.config.tile;
        write!(
            f,
            "CollectiveMma<{}>: TileShape ({m},{n},{k}), TiledMma {} {}, SmemLayoutA {}, SmemLayoutB {}, GmemTiledCopyA {}, GmemTiledCopyB {}",
            self.policy_name(),
            self.op,
            self.mma_threads(),
            self.smem_layout_a,
            self.smem_layout_b,
            self.gmem_copy[0].name(),
            self.gmem_copy[1].name()
        )?;
        if let Some(bs) = &self.block_scale {
            write!(
                f,
                ", SmemLayoutSFA {}, SmemLayoutSFB {}, GmemTiledCopySFA {}, GmemTiledCopySFB {}",
                bs.layouts[0],
                bs.layouts[1],
                bs.gmem_copy[0].name(),
                bs.gmem_copy[1].name()
            )?;
        }
        Ok(())
    }
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
    let trg = IntTuple::ints(&[mn, k, stages]);
    Ok(atom.with_inner(layout::tile_to_shape(
        atom.inner(),
        &trg,
        &stage_order(gmem_major),
    )?))
}

/// The order a buffer's (MN, K, Stages) modes are tiled in: MN first for an operand K-major
/// in global memory (`Step<_1,_2,_3>`), K first for one MN-major (`Step<_2,_1,_3>`).
pub(super) fn stage_order(gmem_major: AtomMajor) -> ModeOrder {
    match gmem_major {
        AtomMajor::K => ModeOrder::Step(IntTuple::ints(&[1, 2, 3])),
        AtomMajor::MN => ModeOrder::Step(IntTuple::ints(&[2, 1, 3])),
    }
}

/// `static_assert`s of the collectives: each operand's smem atom divides its (MN, K) tile.
pub(super) fn check_atoms_divide(atoms: [&AnyLayout; 2], mn: [i64; 2], k: i64) -> Result<()> {
    for (i, name) in ["A", "B"].into_iter().enumerate() {
        let inner = atoms[i].inner();
        let (amn, ak) = (inner.mode(0)?.size()?, inner.mode(1)?.size()?);
        if mn[i] % amn != 0 || k % ak != 0 {
            return Err(refuse(
                "SmemLayoutAtom must evenly divide tile shape.",
                format!(
                    "the {name} atom {} does not divide the {name} tile ({},{k})",
                    atoms[i], mn[i]
                ),
            ));
        }
    }
    Ok(())
}

pub(super) fn refuse(msg: &str, why: String) -> Error {
    crate::err!("{why} (CUTLASS: \"{msg}\")")
}

/// The tile and cluster are positive and the cluster at most 16 CTAs, (M, N, 1).
pub(super) fn check_shapes(cfg: &MainloopConfig) -> Result<()> {
    if cfg.tile.iter().chain(&cfg.cluster).any(|&x| x <= 0) {
        return Err(crate::err!(
            "the tile {:?} and cluster {:?} must be positive",
            cfg.tile,
            cfg.cluster
        ));
    }
    let size = cfg
        .cluster
        .iter()
        .try_fold(1i64, |a, &x| arith::mul(a, x))?;
    if cfg.cluster[2] != 1 || size > 16 {
        return Err(crate::err!(
            "a cluster is (M, N, 1) with at most 16 CTAs (8 portably), got ({},{},{})",
            cfg.cluster[0],
            cfg.cluster[1],
            cfg.cluster[2]
        ));
    }
    Ok(())
}

/// `sm1xx_gemm_is_aligned` / `sm1xx_blockscaled_gemm_is_aligned`: each operand's alignment
/// in bits a multiple of 128, or of 512 (4-bit) / 768 (6-bit) elements' bits where the
/// builder reads sub-byte operands unpacked (`subbyte`: the dense builder whenever either
/// operand is narrower than a byte, the block-scaled one under an MXF8F6F4 tag).
pub(super) fn sm1xx_is_aligned(cfg: &MainloopConfig, subbyte: bool) -> Result<bool> {
    for (e, _, align) in [cfg.a, cfg.b] {
        let need = match (subbyte, e.bits()) {
            (true, 4) => 512,
            (true, 6) => 768,
            _ => 128,
        };
        if align <= 0 || arith::mul(e.bits(), align)? % need != 0 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The schedule tag is not one of the arch's builders': no specialization matches.
pub(super) fn no_builder(cfg: &MainloopConfig, takes: &str) -> Error {
    refuse(
        "Could not build a collective for given parameters.",
        format!(
            "no {} mainloop builder takes {}: it takes {takes}",
            cfg.arch.name(),
            cfg.schedule
        ),
    )
}
