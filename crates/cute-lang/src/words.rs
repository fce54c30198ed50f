//! The words of the language: what CuTe C++ and CuTeDSL spell as a type or an enumerator
//! (`half_t`, `GMMA::Major::K`, `OperandSource.SMEM`, `LDS128`, `SM90_TMA_LOAD`), each an
//! enum read once where the name is looked up and printed as CuTe spells it. The ops match
//! on these, never on their text.

use cute_core::bank::Instr;
use cute_core::collective::{GemmLayout, ScaledElem, Stages};
use cute_core::elem::Elem;
use cute_core::epilogue::{Activation, EpilogueSchedule, Fusion};
use cute_core::gmem::GmemOp;
use cute_core::smem_atom::{atom_kind_name, AtomMajor, AtomSwizzle};
use std::fmt;

/// An enum of words that print as fixed text: its variants, `ALL`, `name()` and `parse()`.
macro_rules! words {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident => $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $var),+
        }

        impl $name {
            /// Every word, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$var),+];

            /// The word as CuTe spells (and this language prints) it.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$var => $text),+
                }
            }

            /// The word spelled `s` (its printed name).
            pub fn parse(s: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|w| w.name() == s)
            }

            /// The word whose name ends in the member `m` of its scope (`ROW_MAJOR` of
            /// `LayoutEnum.ROW_MAJOR`, `B128` of `TMA::SmemSwizzleBits::B128`).
            pub fn member(m: &str) -> Option<$name> {
                Self::ALL
                    .iter()
                    .copied()
                    .find(|w| w.name().rsplit([':', '.']).next() == Some(m))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

words! {
    /// CuTeDSL's `LayoutEnum`: the order of a GEMM operand in global memory.
    LayoutEnum {
        /// `LayoutEnum.ROW_MAJOR`.
        RowMajor => "LayoutEnum.ROW_MAJOR",
        /// `LayoutEnum.COL_MAJOR`.
        ColMajor => "LayoutEnum.COL_MAJOR",
    }
}

words! {
    /// Where an MMA reads an operand (`OperandSource.SMEM`, CuTeDSL).
    OperandSource {
        /// Shared memory (a descriptor).
        Smem => "OperandSource.SMEM",
        /// Tensor memory (UMMA's A).
        Tmem => "OperandSource.TMEM",
        /// Registers (GMMA's RS A).
        Rmem => "OperandSource.RMEM",
    }
}

words! {
    /// How many CTAs one UMMA spans (`CtaGroup.ONE`, CuTeDSL).
    CtaGroup {
        /// One CTA.
        One => "CtaGroup.ONE",
        /// A CTA pair (`2x1SM`).
        Two => "CtaGroup.TWO",
    }
}

words! {
    /// cp.async's cache mode (`LoadCacheMode.ALWAYS`, CuTeDSL).
    CacheMode {
        /// `cp.async.ca`.
        Always => "LoadCacheMode.ALWAYS",
        /// `cp.async.cg`.
        Global => "LoadCacheMode.GLOBAL",
    }
}

words! {
    /// CuTeDSL's `AddressSpace` of a pointer.
    AddressSpace {
        /// Global memory.
        Gmem => "AddressSpace.gmem",
        /// Shared memory.
        Smem => "AddressSpace.smem",
        /// Registers.
        Rmem => "AddressSpace.rmem",
    }
}

impl AddressSpace {
    /// The core's address space.
    pub fn space(self) -> cute_core::tensor::Space {
        match self {
            AddressSpace::Gmem => cute_core::tensor::Space::Gmem,
            AddressSpace::Smem => cute_core::tensor::Space::Smem,
            AddressSpace::Rmem => cute_core::tensor::Space::Rmem,
        }
    }
}

words! {
    /// `TMA::SmemSwizzleBits`: the width of a TMA box's swizzle.
    TmaSwizzleBits {
        /// No swizzle.
        Disable => "TMA::SmemSwizzleBits::DISABLE",
        /// 32-byte rows.
        B32 => "TMA::SmemSwizzleBits::B32",
        /// 64-byte rows.
        B64 => "TMA::SmemSwizzleBits::B64",
        /// 128-byte rows.
        B128 => "TMA::SmemSwizzleBits::B128",
    }
}

words! {
    /// `TMA::SmemSwizzleBase`: the unit a TMA swizzle permutes.
    TmaSwizzleBase {
        /// 16-byte chunks.
        Base16B => "TMA::SmemSwizzleBase::SWIZZLE_BASE_16B",
        /// 32-byte chunks.
        Base32B => "TMA::SmemSwizzleBase::SWIZZLE_BASE_32B",
        /// 64-byte chunks.
        Base64B => "TMA::SmemSwizzleBase::SWIZZLE_BASE_64B",
    }
}

words! {
    /// The driver's `CUtensorMapSwizzle`.
    CuSwizzle {
        /// No swizzle.
        None => "CU_TENSOR_MAP_SWIZZLE_NONE",
        /// 32B.
        S32B => "CU_TENSOR_MAP_SWIZZLE_32B",
        /// 64B.
        S64B => "CU_TENSOR_MAP_SWIZZLE_64B",
        /// 128B.
        S128B => "CU_TENSOR_MAP_SWIZZLE_128B",
        /// 128B of 32-byte atoms.
        S128BAtom32B => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
        /// 128B of 64-byte atoms.
        S128BAtom64B => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B",
    }
}

words! {
    /// `GMMA::ScaleIn`: whether an MMA negates an operand.
    ScaleIn {
        /// As is.
        One => "ScaleIn::One",
        /// Negated.
        Neg => "ScaleIn::Neg",
    }
}

words! {
    /// `UMMA::MaxShift` of an instruction descriptor.
    MaxShift {
        /// No shift.
        NoShift => "MaxShift::NoShift",
        /// 8.
        MaxShift8 => "MaxShift::MaxShift8",
        /// 16.
        MaxShift16 => "MaxShift::MaxShift16",
        /// 32.
        MaxShift32 => "MaxShift::MaxShift32",
    }
}

words! {
    /// The traits of an atom (`MMA_Traits<Op>::ALayout`, `Copy_Traits<Op>::SrcLayout`).
    TraitName {
        /// `Shape_MNK`.
        ShapeMnk => "Shape_MNK",
        /// `ThrID`.
        ThrId => "ThrID",
        /// `ALayout`.
        ALayout => "ALayout",
        /// `BLayout`.
        BLayout => "BLayout",
        /// `CLayout`.
        CLayout => "CLayout",
        /// `LayoutA_TV`.
        LayoutATv => "LayoutA_TV",
        /// `LayoutB_TV`.
        LayoutBTv => "LayoutB_TV",
        /// `LayoutC_TV`.
        LayoutCTv => "LayoutC_TV",
        /// `SrcLayout`.
        SrcLayout => "SrcLayout",
        /// `DstLayout`.
        DstLayout => "DstLayout",
        /// `RefLayout`.
        RefLayout => "RefLayout",
        /// `ValLayoutSrc`.
        ValLayoutSrc => "ValLayoutSrc",
        /// `ValLayoutDst`.
        ValLayoutDst => "ValLayoutDst",
        /// `ValLayoutRef`.
        ValLayoutRef => "ValLayoutRef",
        /// `BitLayoutSrc` (Copy_Atom's name of the traits' SrcLayout, in bits).
        BitLayoutSrc => "BitLayoutSrc",
        /// `BitLayoutDst`.
        BitLayoutDst => "BitLayoutDst",
        /// `BitLayoutRef`.
        BitLayoutRef => "BitLayoutRef",
        /// `ELayout`.
        ELayout => "ELayout",
        /// `SFALayout`.
        SfaLayout => "SFALayout",
        /// `SFBLayout`.
        SfbLayout => "SFBLayout",
        /// `ValID`.
        ValId => "ValID",
    }
}

words! {
    /// CUTLASS's architecture tags (`cutlass::arch::Sm90`), a collective builder's first
    /// argument.
    ArchTag {
        /// Ampere.
        Sm80 => "arch::Sm80",
        /// Ada.
        Sm89 => "arch::Sm89",
        /// Hopper.
        Sm90 => "arch::Sm90",
        /// Blackwell (B200).
        Sm100 => "arch::Sm100",
        /// Blackwell Ultra (B300).
        Sm103 => "arch::Sm103",
        /// Blackwell GeForce (RTX 50).
        Sm120 => "arch::Sm120",
        /// DGX Spark (GB10).
        Sm121 => "arch::Sm121",
    }
}

words! {
    /// CUTLASS's operator classes (`cutlass::arch::OpClassTensorOp`).
    OpClass {
        /// CUDA cores.
        Simt => "arch::OpClassSimt",
        /// Tensor cores.
        TensorOp => "arch::OpClassTensorOp",
        /// Sparse tensor cores.
        SparseTensorOp => "arch::OpClassSparseTensorOp",
        /// Block-scaled tensor cores (MX / NV FP4-FP8).
        BlockScaledTensorOp => "arch::OpClassBlockScaledTensorOp",
        /// Block-scaled sparse tensor cores.
        BlockScaledSparseTensorOp => "arch::OpClassBlockScaledSparseTensorOp",
    }
}

words! {
    /// The scopes whose members are words (`GMMA::Major`, `GMMA::ScaleIn` named alone).
    Scope {
        /// `Major`.
        Major => "Major",
        /// `ScaleIn`.
        ScaleIn => "ScaleIn",
    }
}

words! {
    /// The CuTeDSL copy operations that are not atoms by themselves (the width comes with
    /// `make_copy_atom`).
    CopyOp {
        /// `CopyUniversalOp`.
        Universal => "UniversalCopy",
        /// `CopyG2SOp()` (`cp.async.ca`).
        CpAsyncAlways => "SM80_CP_ASYNC_CACHEALWAYS",
        /// `CopyG2SOp(LoadCacheMode.GLOBAL)` (`cp.async.cg`).
        CpAsyncGlobal => "SM80_CP_ASYNC_CACHEGLOBAL",
    }
}

words! {
    /// The SM100 F8F6F4 MMAs whose traits take the types (`MMA_Traits<Op, A, B, ...>`).
    F8f6f4Op {
        /// One CTA.
        Ss => "SM100_MMA_F8F6F4_SS",
        /// A CTA pair.
        Ss2Sm => "SM100_MMA_F8F6F4_2x1SM_SS",
    }
}

words! {
    /// The TMA copy operations `make_tma_copy` and `make_tma_atom` take.
    TmaOp {
        /// `SM90_TMA_LOAD`.
        Load => "SM90_TMA_LOAD",
        /// `SM90_TMA_LOAD_MULTICAST`.
        LoadMulticast => "SM90_TMA_LOAD_MULTICAST",
        /// `SM90_TMA_STORE`.
        Store => "SM90_TMA_STORE",
        /// `SM90_TMA_REDUCE_ADD`.
        ReduceAdd => "SM90_TMA_REDUCE_ADD",
        /// `SM100_TMA_2SM_LOAD`.
        Load2Sm => "SM100_TMA_2SM_LOAD",
        /// `SM100_TMA_2SM_LOAD_MULTICAST`.
        Load2SmMulticast => "SM100_TMA_2SM_LOAD_MULTICAST",
    }
}

/// A memory instruction named by the bank or coalescing model (`LDS128`, `LDSM_X4_N`,
/// `LDG128`, `LDGSTS128`): its canonical spelling and what each model reads it as, parsed
/// once. `LDGSTS*` is both: a shared-memory write and a global read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstrWord {
    name: &'static str,
    /// The shared-memory instruction, for the bank model.
    pub smem: Option<Instr>,
    /// The global-memory instruction, for the coalescing model.
    pub gmem: Option<GmemOp>,
}

impl InstrWord {
    /// The instruction spelled `s` (one of [`Instr::NAMES`] or [`GmemOp::NAMES`]).
    pub fn parse(s: &str) -> Option<InstrWord> {
        let name = Instr::NAMES
            .iter()
            .chain(GmemOp::NAMES)
            .find(|n| **n == s)?;
        Some(InstrWord {
            name,
            smem: Instr::parse(name),
            gmem: GmemOp::parse(name),
        })
    }

    /// The word of a shared-memory instruction (its canonical spelling).
    pub fn of_smem(instr: Instr) -> Option<InstrWord> {
        Instr::NAMES
            .iter()
            .filter_map(|n| InstrWord::parse(n))
            .find(|w| w.smem == Some(instr))
    }

    /// Its canonical spelling.
    pub fn name(self) -> &'static str {
        self.name
    }
}

/// A CUTLASS kernel or epilogue schedule tag (`KernelTmaWarpSpecializedCooperative`), one of
/// the tags listed from the headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScheduleTag(&'static str);

impl ScheduleTag {
    /// The tag spelled `s`, if CUTLASS declares it.
    pub fn parse(s: &str) -> Option<ScheduleTag> {
        include_str!("types/schedule_tags.txt")
            .lines()
            .find(|l| !l.starts_with('#') && *l == s)
            .map(ScheduleTag)
    }

    /// The tag's name.
    pub fn name(self) -> &'static str {
        self.0
    }
}

/// A word of the language: what C++ spells as a type or an enumerator.
///
/// ```
/// use cute_lang::{eval_line, Value};
/// use cute_lang::words::Word;
/// use cute_core::smem_atom::AtomMajor;
/// assert_eq!(eval_line("GMMA::Major::MN").unwrap(), Value::Word(Word::Major(AtomMajor::MN)));
/// assert_eq!(eval_line("GMMA::Major::MN").unwrap().to_string(), "Major::MN");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    /// An element type (`half_t`, CuTeDSL's `Float16`).
    Elem(Elem),
    /// `GMMA::Major::K` / `UMMA::Major::MN` (CuTeDSL's `OperandMajorMode`).
    Major(AtomMajor),
    /// An atom trait's name (`ALayout`).
    Trait(TraitName),
    /// A scope whose members are words, named alone (`Major`).
    Scope(Scope),
    /// CuTeDSL's `LayoutEnum`.
    LayoutEnum(LayoutEnum),
    /// CuTeDSL's `OperandSource`.
    Source(OperandSource),
    /// CuTeDSL's `CtaGroup`.
    CtaGroup(CtaGroup),
    /// CuTeDSL's `LoadCacheMode`.
    CacheMode(CacheMode),
    /// CuTeDSL's `AddressSpace`.
    Space(AddressSpace),
    /// A memory instruction of the bank or coalescing model.
    Instr(InstrWord),
    /// A CuTeDSL copy operation.
    CopyOp(CopyOp),
    /// An F8F6F4 UMMA whose traits take the types.
    F8f6f4(F8f6f4Op),
    /// A TMA copy operation.
    Tma(TmaOp),
    /// `TMA::SmemSwizzleBits`.
    TmaSwizzleBits(TmaSwizzleBits),
    /// `TMA::SmemSwizzleBase`.
    TmaSwizzleBase(TmaSwizzleBase),
    /// `CUtensorMapSwizzle`.
    CuSwizzle(CuSwizzle),
    /// `GMMA::ScaleIn`.
    ScaleIn(ScaleIn),
    /// `UMMA::MaxShift`.
    MaxShift(MaxShift),
    /// A CUTLASS schedule tag.
    Schedule(ScheduleTag),
    /// `cutlass::arch::Sm90` and the other architecture tags.
    Arch(ArchTag),
    /// `cutlass::arch::OpClassTensorOp` and the other operator classes.
    OpClass(OpClass),
    /// `cutlass::layout::RowMajor` / `ColumnMajor`.
    GemmLayout(GemmLayout),
    /// An SM90 epilogue schedule (`cutlass::epilogue::TmaWarpSpecializedCooperative`).
    EpiSchedule(EpilogueSchedule),
    /// C++'s `void` (an epilogue without a source C).
    Void,
    /// A collective builder's stage count: `StageCountAuto`, `StageCount<N>`,
    /// `StageCountAutoCarveout<bytes>`.
    Stages(Stages),
    /// CuTeDSL's `SmemLayoutAtomKind`: a major and a swizzle.
    SmemAtomKind(AtomMajor, AtomSwizzle),
    /// `nullptr`.
    Nullptr,
    /// A block-scaled operand type (`cutlass::nv_float4_t<float_e2m1_t>`,
    /// `mx_float8_t<float_e4m3_t>`).
    Scaled(ScaledElem),
    /// An epilogue activation functor (`cutlass::epilogue::thread::ReLu`).
    Activation(Activation),
    /// An epilogue fusion (`cutlass::epilogue::fusion::LinCombEltAct<ReLu, half_t, float>`).
    Fusion(Fusion),
}

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // A stage count prints with its number (`StageCount<3>`).
            Word::Stages(st) => write!(f, "{st}"),
            Word::Scaled(e) => write!(f, "{e}"),
            Word::Fusion(e) => write!(f, "{e}"),
            w => f.write_str(w.name()),
        }
    }
}

impl Word {
    /// The word as CuTe spells it (and this language prints it).
    pub fn name(self) -> &'static str {
        match self {
            Word::Elem(e) => e.cpp_name(),
            Word::Major(AtomMajor::K) => "Major::K",
            Word::Major(AtomMajor::MN) => "Major::MN",
            Word::Trait(t) => t.name(),
            Word::Scope(s) => s.name(),
            Word::LayoutEnum(w) => w.name(),
            Word::Source(w) => w.name(),
            Word::CtaGroup(w) => w.name(),
            Word::CacheMode(w) => w.name(),
            Word::Space(w) => w.name(),
            Word::Instr(w) => w.name(),
            Word::CopyOp(w) => w.name(),
            Word::F8f6f4(w) => w.name(),
            Word::Tma(w) => w.name(),
            Word::TmaSwizzleBits(w) => w.name(),
            Word::TmaSwizzleBase(w) => w.name(),
            Word::CuSwizzle(w) => w.name(),
            Word::ScaleIn(w) => w.name(),
            Word::MaxShift(w) => w.name(),
            Word::Schedule(w) => w.name(),
            Word::Arch(w) => w.name(),
            Word::EpiSchedule(w) => w.name(),
            Word::Void => "void",
            Word::OpClass(w) => w.name(),
            Word::GemmLayout(w) => w.name(),
            Word::Stages(Stages::Auto) => "StageCountAuto",
            Word::Stages(Stages::Count(_)) => "StageCount",
            Word::Stages(Stages::AutoCarveout(_)) => "StageCountAutoCarveout",
            Word::SmemAtomKind(m, s) => atom_kind_name(m, s),
            Word::Nullptr => "nullptr",
            Word::Scaled(ScaledElem::Nv(_)) => "nv_float4_t",
            Word::Scaled(ScaledElem::Mx(_)) => "mx_float_t",
            Word::Scaled(ScaledElem::Pair(..)) => "cute::tuple",
            Word::Activation(a) => a.name(),
            Word::Fusion(f) => f.kind.name(),
        }
    }

    /// The word a bare name (no scope) spells: an atom trait, a scope, an element type, an
    /// instruction, a copy operation or an F8F6F4 op; the keyword list of the docs.
    pub fn bare(name: &str) -> Option<Word> {
        if let Some(e) = Elem::from_cpp(name) {
            return Some(Word::Elem(e));
        }
        let word = TraitName::parse(name)
            .map(Word::Trait)
            .or_else(|| Scope::parse(name).map(Word::Scope));
        // The operands of the atoms, banks and coalescing ops (not in the first picture's
        // build).
        #[cfg(feature = "full")]
        let word = word
            .or_else(|| F8f6f4Op::parse(name).map(Word::F8f6f4))
            .or_else(|| InstrWord::parse(name).map(Word::Instr));
        word
    }

    /// The memory instruction this word names, if it names one.
    pub fn instr(self) -> Option<InstrWord> {
        match self {
            Word::Instr(i) => Some(i),
            _ => None,
        }
    }

    /// The element type this word names, if it names one.
    pub fn elem(self) -> Option<Elem> {
        match self {
            Word::Elem(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Word;
    use crate::Value;

    /// Every keyword the docs list reads as a word that prints as the keyword (the sub-byte
    /// integers' CUTLASS spellings print as CuTe's).
    #[test]
    fn every_listed_keyword_is_a_word_that_prints_as_itself() {
        for k in crate::KEYWORDS {
            let v = crate::eval_line(k).unwrap_or_else(|e| panic!("{k}: {e}"));
            let Value::Word(w) = v else {
                panic!("{k} is {v:?}, not a word")
            };
            match *k {
                "int4b_t" | "uint4b_t" | "uint1b_t" | "bin1_t" => {
                    assert_eq!(Some(w), Word::bare(&w.to_string()), "{k}")
                }
                _ => assert_eq!(w.to_string(), *k),
            }
        }
    }

    /// Every instruction the bank and coalescing models name is a word, parsed once.
    #[test]
    fn every_instruction_name_is_a_word() {
        use cute_core::{bank::Instr, gmem::GmemOp};
        for n in Instr::NAMES.iter().chain(GmemOp::NAMES) {
            let Some(Word::Instr(w)) = Word::bare(n) else {
                panic!("{n}")
            };
            assert_eq!(w.name(), *n);
            assert_eq!(w.smem, Instr::parse(n));
            assert_eq!(w.gmem, GmemOp::parse(n));
        }
    }
}
