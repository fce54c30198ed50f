//! The value of a plain name (no template arguments): layout tags, the words CuTe spells
//! as types or enumerators (element types, majors, operand sources, ...), atoms named by
//! their op, CuTeDSL's element types and CUTLASS's schedule tags.

use crate::parse::tail;
use crate::value::{Major, Value};
use crate::words::{
    AddressSpace, ArchTag, CacheMode, CtaGroup, LayoutEnum, MaxShift, OpClass, OperandSource,
    ScaleIn, ScheduleTag, TmaOp, TmaSwizzleBase, TmaSwizzleBits, Word,
};
use cute_core::atom::Atom;
use cute_core::collective::{GemmLayout, Stages};
use cute_core::epilogue::EpilogueSchedule;
use cute_core::error::Result;
use cute_core::smem_atom::{atom_kind, AtomMajor};
use cute_core::swizzle::Offset;

/// Names with a fixed meaning: atom traits, element types and majors (instruction names
/// are [`Instr::NAMES`] and [`cute_core::gmem::GmemOp::NAMES`]).
pub const KEYWORDS: &[&str] = &[
    "Shape_MNK",
    "ThrID",
    "ALayout",
    "BLayout",
    "CLayout",
    "LayoutA_TV",
    "LayoutB_TV",
    "LayoutC_TV",
    "SrcLayout",
    "DstLayout",
    "RefLayout",
    "ValLayoutSrc",
    "ValLayoutDst",
    "ValLayoutRef",
    "BitLayoutSrc",
    "BitLayoutDst",
    "BitLayoutRef",
    "ELayout",
    "SFALayout",
    "SFBLayout",
    "ValID",
    "Major",
    "ScaleIn",
    "SM100_MMA_F8F6F4_SS",
    "SM100_MMA_F8F6F4_2x1SM_SS",
    "float_e2m1_t",
    "float_e3m2_t",
    "float_e2m3_t",
    "float_ue8m0_t",
    "float_ue4m3_t",
    "uint1_t",
    "int4_t",
    "uint4_t",
    "int4b_t",
    "uint4b_t",
    "uint1b_t",
    "bin1_t",
    "int8_t",
    "uint8_t",
    "float_e4m3_t",
    "float_e5m2_t",
    "int16_t",
    "uint16_t",
    "half_t",
    "bfloat16_t",
    "int32_t",
    "uint32_t",
    "float",
    "tfloat32_t",
    "int64_t",
    "uint64_t",
    "double",
    "uint128_t",
    "Major::K",
    "Major::MN",
    "complex<float>",
    "complex<double>",
    "LayoutEnum.ROW_MAJOR",
    "LayoutEnum.COL_MAJOR",
];

/// CuTeDSL's element types and their C++ names.
const DSL_TYPES: &[(&str, &str)] = &[
    ("Float16", "half_t"),
    ("BFloat16", "bfloat16_t"),
    ("Float32", "float"),
    ("TFloat32", "tfloat32_t"),
    ("Float64", "double"),
    ("Float8E4M3FN", "float_e4m3_t"),
    ("Float8E5M2", "float_e5m2_t"),
    ("Float8E8M0FNU", "float_ue8m0_t"),
    ("Float6E3M2FN", "float_e3m2_t"),
    ("Float6E2M3FN", "float_e2m3_t"),
    ("Float4E2M1FN", "float_e2m1_t"),
    ("Int8", "int8_t"),
    ("Uint8", "uint8_t"),
    ("Int16", "int16_t"),
    ("Uint16", "uint16_t"),
    ("Int32", "int32_t"),
    ("Uint32", "uint32_t"),
    ("Int64", "int64_t"),
    ("Uint64", "uint64_t"),
    ("Int4", "int4_t"),
    ("Uint4", "uint4_t"),
    ("int", "int32_t"),
    ("bool", "uint8_t"),
];

/// The value of a plain (unbound) name: tags, keywords, types, atoms. `None` when the name
/// means nothing here.
pub(crate) fn name_value(name: &str) -> Option<Result<Value>> {
    let (last, before) = tail(name);
    if last.ends_with("_Atom_Bits") {
        return crate::types::smem::atom_bits_template(name, &[]);
    }
    // The TMA copy operations (`make_tma_copy(SM90_TMA_LOAD{}, ...)`).
    if let Some(op) = TmaOp::parse(last) {
        return Some(Ok(Value::Word(Word::Tma(op))));
    }
    // `LayoutEnum.ROW_MAJOR`, `TMA::SmemSwizzleBits::B128`, `UMMA::ScaleIn::Neg`, ...
    if let Some(w) = before.and_then(|scope| scoped_word(scope, last)) {
        return Some(Ok(Value::Word(w)));
    }
    // GMMA's named thread-value layouts (`GMMA::CLayout_64x64`, `ALayout_64x16`).
    if let Some(l) = cute_core::gmma::named_layout(last) {
        return Some(l.map(Value::Layout));
    }
    let v = match (before, last) {
        (_, "LayoutLeft" | "GenColMajor") => Value::Major(Major::Left),
        (_, "LayoutRight" | "GenRowMajor") => Value::Major(Major::Right),
        // CuTe's static negative integers `_m1` .. `_m32`.
        (_, n)
            if n.strip_prefix("_m").is_some_and(|d| {
                matches!(
                    d,
                    "1" | "2"
                        | "3"
                        | "4"
                        | "5"
                        | "6"
                        | "7"
                        | "8"
                        | "9"
                        | "10"
                        | "12"
                        | "16"
                        | "24"
                        | "32"
                )
            }) =>
        {
            Value::Int(-n[2..].parse::<i64>().unwrap_or(0))
        }
        // CuTe's `using X = Underscore;` (projections: `Step<_1, X, _1>{}`).
        (_, "Underscore" | "None" | "X") => Value::Under,
        (_, "nullptr" | "NULL") => Value::Word(Word::Nullptr),
        (_, "smem_ptr_flag") => Value::Offset(Offset::SmemPtr { bits: 1 }),
        // A collective builder's arguments (`cutlass::arch::Sm90`, `cutlass::layout::RowMajor`).
        (Some("arch"), n) if ArchTag::member(n).is_some() => {
            Value::Word(Word::Arch(ArchTag::member(n)?))
        }
        (Some("arch"), n) if OpClass::member(n).is_some() => {
            Value::Word(Word::OpClass(OpClass::member(n)?))
        }
        (_, "RowMajor") => Value::Word(Word::GemmLayout(GemmLayout::RowMajor)),
        (_, "ColumnMajor") => Value::Word(Word::GemmLayout(GemmLayout::ColumnMajor)),
        (_, "StageCountAuto") => Value::Word(Word::Stages(Stages::Auto)),
        (_, "void") => Value::Word(Word::Void),
        (Some("thread"), n) if cute_core::epilogue::Activation::parse(n).is_some() => {
            Value::Word(Word::Activation(cute_core::epilogue::Activation::parse(n)?))
        }
        (Some("epilogue"), n) if EpilogueSchedule::parse(n).is_some() => {
            Value::Word(Word::EpiSchedule(EpilogueSchedule::parse(n)?))
        }
        (Some("OperandMajorMode" | "Major"), "K") => Value::Word(Word::Major(AtomMajor::K)),
        (Some("OperandMajorMode" | "Major"), "MN") => Value::Word(Word::Major(AtomMajor::MN)),
        (_, "true" | "True" | "true_type") => Value::Bool(true),
        (_, "false" | "False" | "false_type") => Value::Bool(false),
        // CUTLASS's schedule tags (a list of every tag: not in the first picture's build).
        #[cfg(feature = "full")]
        (_, n) if n.starts_with("Kernel") || n.starts_with("Epilogue") => {
            match ScheduleTag::parse(n) {
                Some(tag) => Value::Word(Word::Schedule(tag)),
                None => return None,
            }
        }
        // CuTeDSL tcgen05: a TMEM copy's repetitions, and whether it packs (loads) or
        // unpacks (stores) 16-bit values in 32-bit registers.
        (Some("Repetition"), x) if x.strip_prefix('x').is_some_and(|n| n.parse::<u8>().is_ok()) => {
            Value::Int(x[1..].parse::<i64>().unwrap_or(1))
        }
        (Some("Pack"), "NONE") | (Some("Unpack"), "NONE") => Value::Bool(false),
        (Some("Pack"), "PACK_16b_IN_32b") | (Some("Unpack"), "UNPACK_32b_IN_16b") => {
            Value::Bool(true)
        }
        (Some("SmemLayoutAtomKind"), kind) => match atom_kind(kind) {
            Some((major, sw)) => Value::Word(Word::SmemAtomKind(major, sw)),
            None => return Some(Err(cute_core::err!("unknown SmemLayoutAtomKind '{kind}'"))),
        },
        // The atom tables are the full build's (the first picture leaves them out).
        (_, n) if cfg!(feature = "full") && cute_core::atom::is_atom_name(n) => {
            return Some(atom_value(n));
        }
        (_, n) => {
            let word = Word::bare(n).or_else(|| {
                let (_, cpp) = DSL_TYPES.iter().find(|(d, _)| *d == n)?;
                Word::bare(cpp)
            })?;
            Value::Word(word)
        }
    };
    Some(Ok(v))
}

/// A named MMA or copy atom (`SM80_16x8x16_F16F16F16F16_TN{}`).
#[cfg(feature = "full")]
pub(crate) fn atom_value(name: &str) -> Result<Value> {
    Atom::lookup(name).map(|a| Value::Atom(Box::new(a)))
}

/// The first picture's module has no atom tables: an atom is the full module's to draw.
#[cfg(not(feature = "full"))]
pub(crate) fn atom_value(name: &str) -> Result<Value> {
    Err(cute_core::err!(
        "{name}: atoms are in the page's full module"
    ))
}

/// The enumerator `member` of the scope `scope` (C++'s `Scope::member`, CuTeDSL's
/// `Scope.member`), if the scope is one of the language's words and has that member.
fn scoped_word(scope: &str, member: &str) -> Option<Word> {
    Some(match scope {
        "LayoutEnum" => Word::LayoutEnum(LayoutEnum::member(member)?),
        "LoadCacheMode" => Word::CacheMode(CacheMode::member(member)?),
        "CtaGroup" => Word::CtaGroup(CtaGroup::member(member)?),
        "AddressSpace" => Word::Space(AddressSpace::member(member)?),
        "SmemSwizzleBits" => Word::TmaSwizzleBits(TmaSwizzleBits::member(member)?),
        "SmemSwizzleBase" => Word::TmaSwizzleBase(TmaSwizzleBase::member(member)?),
        "OperandSource" => Word::Source(OperandSource::member(member)?),
        "ScaleIn" => Word::ScaleIn(ScaleIn::member(member)?),
        "MaxShift" => Word::MaxShift(MaxShift::member(member)?),
        _ => return None,
    })
}
