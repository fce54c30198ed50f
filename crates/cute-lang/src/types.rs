//! C++ and CuTeDSL names that denote values: element types, majors, layout tags, the
//! class templates whose default-constructed value is a layout, swizzle, atom or tuple
//! (`Int<8>{}`, `Layout<Shape<..>,Stride<..>>{}`, `GMMA::Layout_K_SW128_Atom<half_t>{}`,
//! `MMA_Atom<SM80_...>{}`, `TiledMMA<...>{}`), and their member types.

use crate::convert::{bits_of, major_of, type_bits};
use crate::ops;
use crate::value::{Major, Value};
use cute_core::atom::Atom;
use cute_core::bank::Instr;
use cute_core::elem::Elem;
use cute_core::error::{Error, Result};
use cute_core::gmma::GmmaOp;
use cute_core::layout::Layout;
use cute_core::smem_atom::{
    atom_kind, atom_kind_name, smem_atom, widest_swizzle, AtomMajor, AtomSwizzle,
};
use cute_core::swizzle::Offset;

/// Namespace qualifiers that do not change what a name means (C++ namespaces and CuTeDSL
/// modules); a name is looked up without them. `GMMA::` and `UMMA::` are not here: they
/// tell the ops which family is meant.
pub const NAMESPACES: &[&str] = &[
    "cute::",
    "cutlass::",
    "gemm::",
    "collective::",
    "detail::",
    "cute.",
    "cutlass.",
    "SM90::",
    "SM100::",
    "nvgpu.",
    "warpgroup.",
    "warp.",
    "tcgen05.",
    "cpasync.",
    "utils.",
    "sm90_utils.",
    "sm100_utils.",
];

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

/// CUTLASS's kernel and epilogue schedule tags (a list taken from the headers).
fn schedule_tag(name: &str) -> Option<&'static str> {
    include_str!("schedule_tags.txt")
        .lines()
        .find(|l| !l.starts_with('#') && *l == name)
}

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

fn keyword(k: &str) -> Option<&'static str> {
    KEYWORDS
        .iter()
        .chain(Instr::NAMES)
        .chain(cute_core::gmem::GmemOp::NAMES)
        .find(|n| **n == k)
        .copied()
}

/// The last `::`/`.` segment of a name, and the one before it.
fn tail(name: &str) -> (&str, Option<&str>) {
    let mut parts = name.rsplit([':', '.']).filter(|p| !p.is_empty());
    let last = parts.next().unwrap_or(name);
    (last, parts.next())
}

/// The value of a plain (unbound) name: tags, keywords, types, atoms. `None` when the name
/// means nothing here.
pub(crate) fn name_value(name: &str) -> Option<Result<Value>> {
    let (last, before) = tail(name);
    if last.ends_with("_Atom_Bits") {
        return Some(template(name, &[]));
    }
    // The TMA copy operations (`make_tma_copy(SM90_TMA_LOAD{}, ...)`).
    if let Some(op) = cute_core::tma::TMA_OPS.iter().find(|o| **o == last) {
        return Some(Ok(Value::Keyword(op)));
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
        (_, "nullptr" | "NULL") => Value::Keyword("nullptr"),
        (_, "smem_ptr_flag") => Value::Offset(Offset::SmemPtr { bits: 1 }),
        (Some("LayoutEnum"), "ROW_MAJOR") => Value::Keyword("LayoutEnum.ROW_MAJOR"),
        (Some("LayoutEnum"), "COL_MAJOR") => Value::Keyword("LayoutEnum.COL_MAJOR"),
        (Some("OperandMajorMode"), "K") => Value::Keyword("Major::K"),
        (Some("OperandMajorMode"), "MN") => Value::Keyword("Major::MN"),
        (_, "true" | "True" | "true_type") => Value::Bool(true),
        (_, "false" | "False" | "false_type") => Value::Bool(false),
        (Some("LoadCacheMode"), "ALWAYS") => Value::Keyword("LoadCacheMode.ALWAYS"),
        (Some("LoadCacheMode"), "GLOBAL") => Value::Keyword("LoadCacheMode.GLOBAL"),
        (Some("CtaGroup"), "ONE") => Value::Keyword("CtaGroup.ONE"),
        (Some("CtaGroup"), "TWO") => Value::Keyword("CtaGroup.TWO"),
        (Some("AddressSpace"), "gmem") => Value::Keyword("AddressSpace.gmem"),
        (Some("AddressSpace"), "smem") => Value::Keyword("AddressSpace.smem"),
        (Some("AddressSpace"), "rmem") => Value::Keyword("AddressSpace.rmem"),
        (Some("SmemSwizzleBits"), b @ ("DISABLE" | "B32" | "B64" | "B128")) => {
            Value::Keyword(match b {
                "DISABLE" => "TMA::SmemSwizzleBits::DISABLE",
                "B32" => "TMA::SmemSwizzleBits::B32",
                "B64" => "TMA::SmemSwizzleBits::B64",
                _ => "TMA::SmemSwizzleBits::B128",
            })
        }
        (
            Some("SmemSwizzleBase"),
            b @ ("SWIZZLE_BASE_16B" | "SWIZZLE_BASE_32B" | "SWIZZLE_BASE_64B"),
        ) => Value::Keyword(match b {
            "SWIZZLE_BASE_16B" => "TMA::SmemSwizzleBase::SWIZZLE_BASE_16B",
            "SWIZZLE_BASE_32B" => "TMA::SmemSwizzleBase::SWIZZLE_BASE_32B",
            _ => "TMA::SmemSwizzleBase::SWIZZLE_BASE_64B",
        }),
        (Some("OperandSource"), "SMEM") => Value::Keyword("OperandSource.SMEM"),
        (Some("OperandSource"), "TMEM") => Value::Keyword("OperandSource.TMEM"),
        (Some("OperandSource"), "RMEM") => Value::Keyword("OperandSource.RMEM"),
        (Some("ScaleIn"), "One") => Value::Keyword("ScaleIn::One"),
        (Some("ScaleIn"), "Neg") => Value::Keyword("ScaleIn::Neg"),
        (Some("MaxShift"), s @ ("NoShift" | "MaxShift8" | "MaxShift16" | "MaxShift32")) => {
            Value::Keyword(match s {
                "NoShift" => "MaxShift::NoShift",
                "MaxShift8" => "MaxShift::MaxShift8",
                "MaxShift16" => "MaxShift::MaxShift16",
                _ => "MaxShift::MaxShift32",
            })
        }
        (_, n)
            if (n.starts_with("Kernel") || n.starts_with("Epilogue"))
                && schedule_tag(n).is_some() =>
        {
            Value::Keyword(schedule_tag(n).expect("listed"))
        }
        (Some("Major"), "K") => Value::Keyword("Major::K"),
        (Some("Major"), "MN") => Value::Keyword("Major::MN"),
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
            Some((major, sw)) => Value::Keyword(atom_kind_name(major, sw)),
            None => {
                return Some(Err(Error::new(format!(
                    "unknown SmemLayoutAtomKind '{kind}'"
                ))))
            }
        },
        (_, n) if cute_core::atom::is_atom_name(n) => {
            return Some(Atom::lookup(n).map(|a| Value::Atom(Box::new(a))))
        }
        (_, n) => {
            match keyword(n).or_else(|| DSL_TYPES.iter().find(|(d, _)| *d == n).map(|(_, c)| *c)) {
                Some(k) => Value::Keyword(keyword(k).expect("listed")),
                None => return None,
            }
        }
    };
    Some(Ok(v))
}

/// CuTeDSL `make_smem_layout_atom(SmemLayoutAtomKind.KIND, dtype)`: the same value as C++'s
/// `Layout_KIND_Atom<T>`.
pub(crate) fn smem_atom_of_kind(kind: &str, bits: i64) -> Result<Value> {
    let (major, sw) = atom_kind(kind)
        .ok_or_else(|| Error::new(format!("unknown SmemLayoutAtomKind '{kind}'")))?;
    dsl_smem_atom(major, sw, bits)
}

/// CuTeDSL's smem atom of a major and swizzle: C++'s `Layout_KIND_Atom<T>` with offset 0.
pub(crate) fn dsl_smem_atom(major: AtomMajor, sw: AtomSwizzle, bits: i64) -> Result<Value> {
    // CuTeDSL's atom carries offset 0 where C++'s carries the smem_ptr flag.
    Ok(match smem_atom(major, sw, bits)? {
        cute_core::swizzle::AnyLayout::Composed(mut c) => {
            c.offset = Offset::Int(0);
            Value::Composed(c)
        }
        l => l.into(),
    })
}

/// `Layout_{MN,K}_{INTER,SW32,SW64,SW128}_Atom`, `Layout_MN_SW128_32B_Atom`, or the
/// `Layout_{INTER,SW32,SW64,SW128}_Atom<T, Major>` forms.
fn smem_atom_template(full: &str, targs: &[Value]) -> Option<Result<Value>> {
    let (name, _) = tail(full);
    let umma = full.starts_with("UMMA::");
    let body = name.strip_prefix("Layout_")?.strip_suffix("_Atom")?;
    let major_of = |v: &Value| major_of(v, "the atom");
    let parsed = match atom_kind(body) {
        Some((major, sw)) => {
            if targs.len() != 1 {
                return Some(Err(Error::new(format!(
                    "{name}<T> takes one element type, got {} template arguments",
                    targs.len()
                ))));
            }
            Ok((major, sw))
        }
        None => {
            let sw = AtomSwizzle::parse(body)?;
            if umma {
                return Some(Err(Error::new(format!(
                    "UMMA has no {name}<T, Major> (GMMA::{name} has; UMMA::Layout_{{MN,K}}_*_Atom<T> are the UMMA spellings)"
                ))));
            }
            if targs.len() != 2 {
                return Some(Err(Error::new(format!(
                    "{name}<T, Major> takes an element type and a major, got {} template arguments",
                    targs.len()
                ))));
            }
            major_of(&targs[1]).map(|m| (m, sw))
        }
    };
    Some(parsed.and_then(|(major, sw)| Ok(smem_atom(major, sw, bits_of(&targs[0])?)?.into())))
}

pub(crate) fn arity(name: &str, targs: &[Value], lo: usize, hi: usize) -> Result<()> {
    if targs.len() < lo || targs.len() > hi {
        return Err(Error::new(format!(
            "{name}<...>: expected {} template argument{}, got {}",
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo} to {hi}")
            },
            if hi == 1 { "" } else { "s" },
            targs.len()
        )));
    }
    Ok(())
}

/// One C++ class template or type trait of the language: its name, the other spellings
/// that mean it, how many template arguments it takes, one line of meaning, and a body
/// that builds its value from the arguments. The type table's rows are shaped like the op
/// table's ([`crate::ops::Op`]); families whose names follow a grammar (GMMA/UMMA ops, smem
/// atoms, dispatch policies) are read by their modules before the table is consulted.
pub struct TypeRow {
    /// C++'s name.
    pub name: &'static str,
    /// Other spellings with the same meaning.
    pub spellings: &'static [&'static str],
    /// The template parameters, as the docs show them.
    pub params: &'static str,
    /// Fewest and most template arguments (`None`: any number, as `Shape<...>`).
    pub arity: Option<(usize, usize)>,
    /// What its value is, in one line.
    pub meaning: &'static str,
    body: fn(&[Value]) -> Result<Value>,
}

impl TypeRow {
    /// Whether `name` (namespaces stripped) spells this type.
    pub fn is_named(&self, name: &str) -> bool {
        self.name == name || self.spellings.contains(&name)
    }
}

macro_rules! ty {
    ($name:literal $(| $alt:literal)*, $params:literal, $arity:expr, $meaning:literal, $body:expr) => {
        TypeRow {
            name: $name,
            spellings: &[$($alt),*],
            params: $params,
            arity: $arity,
            meaning: $meaning,
            body: $body,
        }
    };
}

const ANY: Option<(usize, usize)> = None;
const fn n(lo: usize, hi: usize) -> Option<(usize, usize)> {
    Some((lo, hi))
}

/// The unsigned element type of `bits` bits, if there is one.
fn unsigned_of_bits(bits: i64) -> Option<Value> {
    Elem::uint_of_bits(bits).map(|e| Value::Keyword(e.cpp_name()))
}

/// A type trait's boolean.
fn trait_of(f: fn(&Value) -> bool) -> impl Fn(&[Value]) -> Result<Value> {
    move |t| Ok(Value::Bool(f(&t[0])))
}

/// The language's class templates and type traits, one row each.
pub static TYPES: &[TypeRow] = &[
    // --- integers and tuples -----------------------------------------------------------
    ty!("Int" | "C", "<N>", n(1, 1), "the static integer N",
        |t| Ok(Value::Int(t[0].to_int()?))),
    ty!("Shape" | "Stride" | "Step" | "Coord", "<T...>", ANY,
        "a tuple of its arguments; a run-time integer type (`int64_t`) is a dynamic 0, as C++ value-initializes it",
        |t| Ok(Value::Tuple(t.iter().map(tuple_entry).collect::<Result<_>>()?))),
    ty!("Tile", "<T...>", ANY, "a tuple of tilers (layouts, integers, `_`)",
        |t| {
            for x in t {
                x.to_tiler()?;
            }
            Ok(Value::Tuple(t.to_vec()))
        }),
    // --- layouts and swizzles ----------------------------------------------------------
    ty!("Layout", "<Shape[, Stride | LayoutLeft | LayoutRight]>", n(1, 2),
        "the layout of the shape (column-major by default)",
        |t| {
            let shape = t[0].to_int_tuple()?;
            match t.get(1) {
                None | Some(Value::Major(Major::Left)) => Ok(Layout::col_major(shape)?.into()),
                Some(Value::Major(Major::Right)) => Ok(Layout::row_major(shape)?.into()),
                Some(d) => Ok(Layout::new(shape, d.to_int_tuple()?)?.into()),
            }
        }),
    ty!("Swizzle" | "Sw", "<B, M[, S]>", n(2, 3), "the swizzle Sw<B,M,S> (S defaults to B)",
        |t| match t {
            [b, m] => ops::make_swizzle(&[b.clone(), m.clone(), b.clone()]),
            t => ops::make_swizzle(t),
        }),
    ty!("smem_ptr_flag_bits", "<B>", n(1, 1), "the offset of a GMMA/UMMA smem atom: a shared-memory pointer of B-bit elements",
        |t| Ok(Value::Offset(Offset::SmemPtr { bits: bits_of(&t[0])? }))),
    ty!("ComposedLayout", "<Outer, Offset, Inner>", n(3, 3), "the composed layout Outer o Offset o Inner",
        |t| Ok(Value::Composed(ops::make_composed(t)?))),
    // --- atoms -------------------------------------------------------------------------
    ty!("MMA_Atom" | "MMA_Traits" | "Copy_Traits", "<Op>", n(1, 1), "the atom of the op, with CuTe's traits",
        |t| crate::atom_args::atom_with_type(&t[0], None)),
    ty!("Copy_Atom", "<Op, T>", n(2, 2), "the copy atom of the op with value type T (layouts recast to T)",
        |t| crate::atom_args::atom_with_type(&t[0], Some(&t[1]))),
    ty!("UniversalCopy", "<S[, D]>", n(1, 2), "the universal copy of sizeof_bits<S> bits",
        |t| {
            let bits = bits_of(&t[0])?;
            Atom::lookup(&format!("UniversalCopy_{bits}")).map(|a| Value::Atom(Box::new(a)))
        }),
    ty!("TiledMMA", "<Atom[, AtomLayout[, Permutations]]>", n(1, 3), "make_tiled_mma of its arguments",
        |t| crate::atom_args::make_tiled_mma(t, &[])),
    // --- element types -----------------------------------------------------------------
    ty!("uint_bit_t", "<N>", n(1, 1), "the unsigned type of N bits",
        |t| {
            let bits = t[0].to_int()?;
            unsigned_of_bits(bits).ok_or_else(|| Error::new(format!("no unsigned type of {bits} bits")))
        }),
    ty!("uint_byte_t", "<N>", n(1, 1), "the unsigned type of N bytes",
        |t| {
            let bytes = t[0].to_int()?;
            unsigned_of_bits(bytes.checked_mul(8).unwrap_or(0))
                .ok_or_else(|| Error::new(format!("no unsigned type of {bytes} bytes")))
        }),
    ty!("complex", "<T>", n(1, 1), "complex<float> or complex<double>",
        |t| match bits_of(&t[0])? {
            32 => Ok(Value::Keyword("complex<float>")),
            64 => Ok(Value::Keyword("complex<double>")),
            b => Err(Error::new(format!("complex of a {b}-bit type is not an element type here"))),
        }),
    ty!("sizeof_bits" | "sizeof_bits_v", "<T>", n(1, 1), "the width of T in bits",
        |t| Ok(Value::Int(bits_of(&t[0])?))),
    // --- type traits (everything here is static) ---------------------------------------
    ty!("conditional_t" | "conditional", "<Cond, T, F>", n(3, 3), "T if Cond holds, else F",
        |t| {
            let c = match &t[0] {
                Value::Bool(b) => *b,
                Value::Int(v) | Value::Dyn(v) => *v != 0,
                v => {
                    return Err(Error::new(format!(
                        "the condition must be a boolean, got {}",
                        v.kind()
                    )))
                }
            };
            Ok(t[if c { 1 } else { 2 }].clone())
        }),
    ty!("is_same_v" | "is_same", "<A, B>", n(2, 2), "whether A and B are the same",
        |t| Ok(Value::Bool(t[0] == t[1]))),
    ty!("is_static" | "is_static_v", "<T>", n(1, 1), "whether T is known at compile time",
        |t| trait_of(is_static)(t)),
    ty!("is_layout", "<T>", n(1, 1), "whether T is a layout",
        |t| trait_of(|v| matches!(v, Value::Layout(_)))(t)),
    ty!("is_composed_layout", "<T>", n(1, 1), "whether T is a composed layout",
        |t| trait_of(|v| matches!(v, Value::Composed(_)))(t)),
    ty!("is_tuple", "<T>", n(1, 1), "whether T is a tuple",
        |t| trait_of(|v| matches!(v, Value::Tuple(_)))(t)),
    ty!("is_integral", "<T>", n(1, 1), "whether T is an integer (or a boolean)",
        |t| trait_of(|v| matches!(v, Value::Int(_) | Value::Dyn(_) | Value::Bool(_)))(t)),
];

/// The type spelled `name` (C++ name or another spelling).
pub fn lookup_type(name: &str) -> Option<&'static TypeRow> {
    TYPES.iter().find(|t| t.is_named(name))
}

/// A `Shape<...>` entry: a run-time integer type (`Stride<_1, int64_t>`, as kernels spell
/// StrideA) is a dynamic integer that C++ value-initializes to 0 (`Shape<int,int>{}`
/// prints (0,0)).
fn tuple_entry(v: &Value) -> Result<Value> {
    match v {
        Value::Keyword(k) if is_dynamic_int(k) => Ok(Value::Dyn(0)),
        // `Step<_1, X, _1>`: CuTe's `X` is `Underscore`, a tuple element like any type.
        Value::Under => Ok(Value::Under),
        Value::Tuple(vs) => Ok(Value::Tuple(
            vs.iter().map(tuple_entry).collect::<Result<_>>()?,
        )),
        v => v.to_int_tuple().map(|_| v.clone()),
    }
}

/// The value of a C++ class template with its arguments (`Name<targs>{}`).
pub(crate) fn template(name: &str, targs: &[Value]) -> Result<Value> {
    let (last, _) = tail(name);
    let ctx = |e: Error| Error {
        msg: format!("{last}<...>: {}", e.msg),
        col: e.col,
    };
    if let Some(v) = smem_atom_template(name, targs) {
        return v.map_err(ctx);
    }
    // `Layout_K_SW128_Atom_Bits`: the atom of 1-bit elements the `<T>` atoms upcast.
    if let Some(kind) = last
        .strip_prefix("Layout_")
        .and_then(|b| b.strip_suffix("_Atom_Bits"))
    {
        if let Some((major, sw)) = atom_kind(kind) {
            arity(last, targs, 0, 0).map_err(ctx)?;
            // UMMA declares only its own 1-bit atom; GMMA declares the others.
            let umma_only = sw == AtomSwizzle::Sw128Base32B;
            if name.starts_with("UMMA::") != umma_only {
                return Err(Error::new(format!(
                    "{} declares no {last} (UMMA::Layout_MN_SW128_32B_Atom_Bits is UMMA's; the others are GMMA's)",
                    if umma_only { "GMMA" } else { "UMMA" }
                )));
            }
            return Ok(smem_atom(major, sw, 1).map_err(ctx)?.into());
        }
    }
    if let Some(v) = crate::families::template(last, targs) {
        return v.map_err(ctx);
    }
    if last.starts_with("Mainloop") {
        if let Some(v) = crate::policy::policy(last, targs) {
            return v.map_err(ctx);
        }
    }
    if let Some(row) = lookup_type(last) {
        return (|| {
            if let Some((lo, hi)) = row.arity {
                arity(last, targs, lo, hi)?;
            }
            (row.body)(targs)
        })()
        .map_err(ctx);
    }
    if let Ok(op) = last.parse::<GmmaOp>() {
        return gmma_atom(op, targs).map_err(ctx);
    }
    Err(Error::new(match ops::lookup(last) {
        Some(_) => format!("'{last}' is a function: call it, e.g. {last}<...>(...)"),
        None => format!("unknown type '{last}'"),
    }))
}

/// An integer type standing for a run-time integer (`int`, `int64_t`, ...).
pub(crate) fn is_dynamic_int(k: &str) -> bool {
    Elem::from_cpp(k).is_some_and(Elem::is_int_8_plus)
}

/// Whether a value is a compile-time constant in C++: everything but the dynamic `int`-like
/// type names standing for run-time integers.
fn is_static(v: &Value) -> bool {
    match v {
        Value::Keyword(k) => type_bits(k).is_none(),
        Value::Tuple(vs) => vs.iter().all(is_static),
        Value::Dyn(_) => false,
        Value::Layout(l) => l.shape().is_static() && l.stride().is_static(),
        Value::Composed(c) => c.layout.shape().is_static() && c.layout.stride().is_static(),
        _ => true,
    }
}

/// `SM90_64xNx16_..._SS<GMMA::Major::A, GMMA::Major::B>`: the traits are the same for every
/// major; C++ refuses an MN-major A read from registers (RS). The `_TN` families take no
/// majors (`<>`).
fn gmma_atom(op: GmmaOp, targs: &[Value]) -> Result<Value> {
    if !op.is_class_template() {
        return Err(Error::new(format!(
            "{op} is not a template (the integer GMMAs take no arguments): write {op}{{}}"
        )));
    }
    arity(
        &op.to_string(),
        targs,
        if op.tn { 0 } else { 2 },
        if op.tn { 0 } else { 2 },
    )?;
    // The traits take any majors; an RS op with an MN-major A is refused only where a
    // value of it is made (`families::check_instance`), as C++ does.
    let mut majors = [AtomMajor::K; 2];
    for (m, (t, which)) in majors.iter_mut().zip(targs.iter().zip(["A", "B"])) {
        if crate::convert::is_mn_major(t, which)? {
            *m = AtomMajor::MN;
        }
    }
    Ok(Value::Atom(Box::new(Atom::Mma(op.atom(majors)?))))
}

/// `T::member` of a type's value: atom traits, composed-layout parts.
pub(crate) fn member_type(v: &Value, member: &str) -> Result<Value> {
    match (v, member) {
        (Value::Composed(c), "layout_a" | "LayoutA") => Ok(Value::Swizzle(c.swizzle)),
        (Value::Composed(c), "layout_b" | "LayoutB") => Ok(Value::Layout(c.layout.clone())),
        (Value::Composed(c), "offset") => Ok(Value::Offset(c.offset)),
        // CuTeDSL names the parts of a composed layout inner (the swizzle) and outer.
        (Value::Composed(c), "inner") => Ok(Value::Swizzle(c.swizzle)),
        (Value::Composed(c), "outer") => Ok(Value::Layout(c.layout.clone())),
        (Value::Keyword(k), "width") => type_bits(k)
            .map(Value::Int)
            .ok_or_else(|| Error::new(format!("'{k}' is not an element type"))),
        (Value::Policy(p), m) => p
            .members
            .iter()
            .find(|(n, _)| n == m)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| {
                let known: Vec<&str> = p.members.iter().map(|(n, _)| n.as_str()).collect();
                Error::new(format!(
                    "{} has no member '{m}' here (known: {})",
                    p.name,
                    known.join(", ")
                ))
            }),
        // C++ `Trait<...>::value` of a value computed here.
        (v @ (Value::Bool(_) | Value::Int(_) | Value::Dyn(_)), "value") => Ok(v.clone()),
        (
            v @ (Value::Layout(_) | Value::Composed(_)),
            "shape" | "stride" | "size" | "cosize" | "rank" | "depth",
        ) => match ops::lookup(member) {
            Some(op) => ops::call_op(op, &[], std::slice::from_ref(v), &[]),
            None => unreachable!("the layout queries are ops"),
        },
        // The member types of a TiledCopy (`typename decltype(tiled_copy)::Tiler_MN{}`).
        (Value::TiledCopy(c), "Tiler_MN") => Ok(match &c.tiler_layouts {
            Some(ls) => Value::Tuple(ls.iter().cloned().map(Value::Layout).collect()),
            None => c.tiler.clone().into(),
        }),
        (Value::TiledCopy(c), "TiledLayout_TV") => Ok(Value::Layout(c.layout_tv.clone())),
        (Value::TiledCopy(c), "TiledNumThr") => Ok(Value::Int(c.layout_tv.mode(0)?.size()?)),
        (Value::TiledCopy(c), "TiledNumVal") => Ok(Value::Int(c.layout_tv.mode(1)?.size()?)),
        // The member types of a TiledMMA: its atom's traits under `Atom*` names (the
        // permutations are a template parameter, not a member: C++ refuses `::PermutationMNK`).
        (Value::TiledMma(_), "AtomShape_MNK") => crate::atom_args::get_trait(v, "Shape_MNK"),
        (Value::TiledMma(_), "AtomThrID") => crate::atom_args::get_trait(v, "ThrID"),
        (Value::TiledMma(_), "AtomLayoutA_TV") => crate::atom_args::get_trait(v, "ALayout"),
        (Value::TiledMma(_), "AtomLayoutB_TV") => crate::atom_args::get_trait(v, "BLayout"),
        (Value::TiledMma(_), "AtomLayoutC_TV") => crate::atom_args::get_trait(v, "CLayout"),
        (Value::Atom(_) | Value::TiledMma(_) | Value::TiledCopy(_), k) if keyword(k).is_some() => {
            crate::atom_args::get_trait(v, k)
        }
        (v, m) => match ops::lookup(m) {
            Some(op) => ops::call_op(op, &[], std::slice::from_ref(v), &[]),
            None => Err(Error::new(format!("{} has no member '{m}'", v.kind()))),
        },
    }
}

/// CuTeDSL `LayoutEnum`: whether it is ROW_MAJOR (else COL_MAJOR).
fn is_row_major(layout: &Value) -> Result<bool> {
    match layout {
        Value::Keyword("LayoutEnum.ROW_MAJOR") => Ok(true),
        Value::Keyword("LayoutEnum.COL_MAJOR") => Ok(false),
        v => Err(Error::new(format!(
            "expected a LayoutEnum, got {}",
            v.kind()
        ))),
    }
}

/// CuTeDSL `sm90_utils.get_smem_layout_atom(layout, dtype, major_size)`: the widest swizzle
/// kind whose contiguous bits (1024, 512, 256) divide the major mode's bits.
pub(crate) fn dsl_atom_kind(layout: &Value, dtype: &Value, major: i64) -> Result<Value> {
    let row = is_row_major(layout)?;
    if major <= 0 || major % 8 != 0 {
        return Err(Error::new(format!(
            "the major mode size {major} must be a positive multiple of 8"
        )));
    }
    let major_bits = major
        .checked_mul(bits_of(dtype)?)
        .ok_or_else(|| Error::new("the major mode is too large"))?;
    let major = if row { AtomMajor::K } else { AtomMajor::MN };
    Ok(Value::Keyword(atom_kind_name(
        major,
        widest_swizzle(major_bits),
    )))
}

/// CuTeDSL `sm90_utils.make_smem_layout_{a,b,epi}` (`cutlass/utils/hopper_helpers.py`): the
/// widest swizzle atom whose contiguous bits divide the major mode, tiled over the operand's
/// tile with the stages appended. `which`: `a`, `b` or `c` (epilogue).
pub(crate) fn dsl_smem_layout(which: char, a: &[Value]) -> Result<Value> {
    if let (Value::TiledMma(m), 'a' | 'b') = (&a[0], which) {
        return crate::ops::dsl_sm100_smem_layout(which, m, a);
    }
    let (layout, tile, dtype, stages) = match which {
        'c' => (&a[1], &a[2], &a[0], &a[3]),
        _ => (&a[0], &a[1], &a[2], &a[3]),
    };
    let row = is_row_major(layout)?;
    let bits = bits_of(dtype)?;
    let Value::Tuple(t) = tile else {
        return Err(Error::new(format!(
            "expected a tile tuple, got {}",
            tile.kind()
        )));
    };
    let mode = |i: usize| -> Result<Value> {
        t.get(i)
            .cloned()
            .ok_or_else(|| Error::new(format!("the tile has no mode {i}")))
    };
    let size = |i: usize| -> Result<i64> { mode(i)?.to_int_tuple()?.size() };
    // The operand's modes and its contiguous (major) mode.
    let (mut trg, major) = match which {
        'a' => (
            vec![mode(0)?, mode(2)?],
            if row { size(2)? } else { size(0)? },
        ),
        'b' => (
            vec![mode(1)?, mode(2)?],
            if row { size(2)? } else { size(1)? },
        ),
        _ => (t.clone(), if row { size(1)? } else { size(0)? }),
    };
    let Value::Keyword(kind) = dsl_atom_kind(layout, dtype, major)? else {
        unreachable!("a kind keyword")
    };
    let atom = smem_atom_of_kind(kind, bits)?;
    trg.push(stages.clone());
    let order: [i64; 3] = if row { [0, 1, 2] } else { [1, 0, 2] };
    let order = Value::Tuple(order.iter().map(|o| Value::Int(*o)).collect());
    ops::tile_to_shape(&atom, &Value::Tuple(trg), Some(&order))
        .map_err(|e| e.within("tile_to_shape"))
}
