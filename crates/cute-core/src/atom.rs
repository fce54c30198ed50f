//! MMA and copy atoms with CuTe's exact traits, and the tiled atoms built from them
//! (`make_tiled_mma`, `make_tiled_copy`) with their thread-value layouts.
//!
//! The traits are data generated from the real CuTe C++ headers (`atoms.tsv`, written by
//! `tools/oracle/atoms.py`); the tiling follows CuTe's `TiledMMA` / `TiledCopy` step by step.
//!
//! ```
//! use cute_core::atom::{Atom, Trait};
//! let atom = Atom::lookup("SM80_16x8x8_F16F16F16F16_TN").unwrap();
//! let Trait::Layout(c) = atom.trait_value("CLayout").unwrap() else { unreachable!() };
//! assert_eq!(c.to_string(), "((4,8),(2,2)):((32,1),(16,8))");
//! ```

use crate::bank::Instr;
use crate::elem::Elem;
use crate::error::{Error, Result};
use crate::gmma::{self, GmmaOp};
use crate::int_tuple::{Coord, IntTuple};
use crate::layout::{self as alg, Layout, Tiler};
use crate::smem_atom::AtomMajor;
use crate::tensor::Tensor;
use crate::umma::UmmaArgs;
use std::fmt;

/// The generated table: `kind<TAB>NAME<TAB>Trait=VALUE...` per line, `#` comments (what the
/// rows hold is in `atoms.txt` beside it, kept out of the wasm); the row
/// `derive<TAB>sparse_gmma` stands for the sparse GMMA rows, derived from the dense ones
/// ([`sparse_atom`], as C++ builds them) instead of stored.
const TABLE: &str = include_str!("atoms.tsv");

/// The names of every known atom, in table order (the derived sparse GMMA rows where the
/// table's `derive` row stands).
pub fn atom_names() -> impl Iterator<Item = &'static str> {
    table_rows().flat_map(|(kind, name, _)| {
        let derived: &'static [String] = if kind == "derive" {
            sparse_gmma_names()
        } else {
            &[]
        };
        (kind != "derive")
            .then_some(name)
            .into_iter()
            .chain(derived.iter().map(String::as_str))
    })
}

/// The sparse GMMA ops, one per dense GMMA row, in the order the CUTLASS headers define
/// them: by family (in the order the dense rows first name it), N, SS before RS.
fn sparse_gmma_names() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let dense: Vec<GmmaOp> = table_rows()
            .filter(|(kind, _, _)| *kind == "mma")
            .filter_map(|(_, name, _)| name.parse::<GmmaOp>().ok())
            .filter(|op| !op.sparse)
            .collect();
        let family = |op: &GmmaOp| (op.c, op.a, op.b, op.tn, op.saturate);
        let mut families = Vec::new();
        for op in &dense {
            if !families.contains(&family(op)) {
                families.push(family(op));
            }
        }
        let mut ops = dense;
        ops.sort_by_key(|op| {
            let f = families.iter().position(|f| *f == family(op));
            (f, op.n, op.a_reg)
        });
        ops.iter().map(|op| op.sparse().to_string()).collect()
    })
}

fn table_rows() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    TABLE
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut it = l.splitn(3, '\t');
            Some((it.next()?, it.next()?, it.next().unwrap_or("")))
        })
}

/// One trait of a stored table row as C++ printed it, `None` if the row or the trait is
/// absent: also the traits only some atoms have (`ELayout` of the sparse SM120 MMAs,
/// `SFALayout` / `SFBLayout` of the block-scaled SM120 MMAs, `ValID` of the TMEM and UTCCP
/// copies). The derived sparse GMMA rows are not stored: [`Atom::trait_value`] has theirs.
pub fn table_trait(name: &str, t: &str) -> Option<&'static str> {
    let (_, _, rest) = table_rows().find(|(_, n, _)| *n == name)?;
    rest.split('\t')
        .find_map(|f| f.strip_prefix(t)?.strip_prefix('='))
}

/// A trait only some table atoms have (see [`table_trait`]), of the row `name` (template
/// arguments left out) names.
fn optional_trait(name: &str, t: &str, known: &str) -> Result<Trait> {
    let row = name.split('<').next().unwrap_or(name);
    match table_trait(row, t) {
        Some(v) if matches!(t, "ELayout" | "SFALayout" | "SFBLayout" | "ValID") => {
            Ok(Trait::Layout(parse_layout(v, t)?))
        }
        _ => Err(crate::err!("{known}, not {t}")),
    }
}

/// Whether `name` is a known atom (cheap: no parsing of its traits).
pub fn is_atom_name(name: &str) -> bool {
    atom_names().any(|n| n == name)
}

/// Whether `name` is spelled like an atom of the table (`SM80_...`, `UniversalCopy_...`),
/// so that an unknown one deserves the table's "did you mean".
///
/// ```
/// assert!(cute_core::atom::is_atom_like_name("SM80_16x8x16"));
/// assert!(!cute_core::atom::is_atom_like_name("make_layout"));
/// ```
pub fn is_atom_like_name(name: &str) -> bool {
    name.starts_with("SM") || name.starts_with("UniversalCopy")
}

/// What a table row's name spells, read once from every row's name: the typed key the
/// typed constructors ask the table by ([`CopyAtom::universal`], [`CopyAtom::matrix`],
/// [`CopyAtom::tmem`], [`CopyAtom::cp_async`], [`MmaAtom::sm80_f16bf16`], [`GmmaOp::atom`],
/// the SM120 templates), so that no caller spells a name to find a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomKey {
    /// `UniversalCopy<uint_bit_t<bits>>`.
    Universal(i64),
    /// `ldmatrix` (`load`) / `stmatrix` of `count` 8x8 matrices of 16-bit elements,
    /// transposed or not (`SM75_U32x4_LDSM_N`, `SM90_U16x8_STSM_T`).
    Matrix {
        /// `ldmatrix` (else `stmatrix`).
        load: bool,
        /// The number of 8x8 matrices.
        count: i64,
        /// `.trans`.
        trans: bool,
    },
    /// `SM100_TMEM_{LOAD,STORE}_{dp}dp{bits}b{repeat}x[_16b]`.
    Tmem {
        /// Load or store.
        dir: TmemCopy,
        /// Data paths (lanes): 16 or 32.
        dp: i64,
        /// Bits a data path moves per repetition.
        bits: i64,
        /// Repetitions.
        repeat: i64,
        /// `_16b`: two 16-bit values packed in a 32-bit register.
        packed: bool,
    },
    /// `SM80_CP_ASYNC_CACHE{ALWAYS,GLOBAL}[_ZFILL]` of `bits` bits.
    CpAsync(CpAsyncOp, i64),
    /// The SM80 `mma.sync` `SM80_16x8x{k}_{D}{A}{B}{C}_TN` (not `_SATURATE`).
    Sm80 {
        /// K (8 or 16 for the F16/BF16 ones).
        k: i64,
        /// `(D, A, B, C)`.
        types: [Elem; 4],
    },
    /// A dense GMMA op.
    Gmma(GmmaOp),
    /// An SM120 `mma.sync` template `SM120_[SPARSE_]16x8x{k}_TN[_VS]`, without its
    /// template arguments.
    Sm120 {
        /// `SPARSE`.
        sparse: bool,
        /// K.
        k: i64,
        /// `_VS`: block-scaled.
        vs: bool,
    },
}

impl AtomKey {
    /// The key a table row's name spells; `None` for rows no typed constructor asks for.
    fn of_name(name: &str) -> Option<AtomKey> {
        if let Some(bits) = name.strip_prefix("UniversalCopy_") {
            return bits.parse().ok().map(AtomKey::Universal);
        }
        if let Ok(op) = name.parse::<GmmaOp>() {
            return (!op.sparse).then_some(AtomKey::Gmma(op));
        }
        if let Some(rest) = name.strip_prefix("SM100_TMEM_") {
            return AtomKey::tmem_of(rest);
        }
        if let Some(rest) = name.strip_prefix("SM120_") {
            let (sparse, rest) = match rest.strip_prefix("SPARSE_") {
                Some(r) => (true, r),
                None => (false, rest),
            };
            let rest = rest.strip_prefix("16x8x")?;
            let (k, tail) = rest.split_once('_')?;
            let vs = match tail {
                "TN" => false,
                "TN_VS" => true,
                _ => return None,
            };
            return Some(AtomKey::Sm120 {
                sparse,
                k: k.parse().ok()?,
                vs,
            });
        }
        if CpAsyncOp::is_named(name) {
            let (op, bits) = name.rsplit_once('_')?;
            return Some(AtomKey::CpAsync(op.parse().ok()?, bits.parse().ok()?));
        }
        if let Some(rest) = name.strip_prefix("SM80_16x8x") {
            let (k, rest) = rest.split_once('_')?;
            let letters = rest.strip_suffix("_TN")?;
            let types = types_of_letters(letters)?.try_into().ok()?;
            return Some(AtomKey::Sm80 {
                k: k.parse().ok()?,
                types,
            });
        }
        AtomKey::matrix_of(name)
    }

    /// `LOAD_32dp32b8x_16b` and the like (what follows `SM100_TMEM_`).
    fn tmem_of(rest: &str) -> Option<AtomKey> {
        let (dir, rest) = match rest.split_once('_')? {
            ("LOAD", r) => (TmemCopy::Load, r),
            ("STORE", r) => (TmemCopy::Store, r),
            _ => return None,
        };
        let (rest, packed) = match rest.strip_suffix("_16b") {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let (dp, rest) = rest.strip_suffix('x')?.split_once("dp")?;
        let (bits, repeat) = rest.split_once('b')?;
        Some(AtomKey::Tmem {
            dir,
            dp: dp.parse().ok()?,
            bits: bits.parse().ok()?,
            repeat: repeat.parse().ok()?,
            packed,
        })
    }

    /// `SM75_U32x{n}_LDSM_N`, `SM75_U16x{2n}_LDSM_T`, `SM90_U32x{n}_STSM_N`,
    /// `SM90_U16x{2n}_STSM_T`.
    fn matrix_of(name: &str) -> Option<AtomKey> {
        let mut parts = name.split('_');
        let (arch, regs, kind, t) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let load = match (arch, kind) {
            ("SM75", "LDSM") => true,
            ("SM90", "STSM") => false,
            _ => return None,
        };
        let (unit, n) = regs.split_once('x')?;
        let n: i64 = n.parse().ok()?;
        let (count, trans) = match (unit, t) {
            ("U32", "N") => (n, false),
            ("U16", "T") if n % 2 == 0 => (n / 2, true),
            _ => return None,
        };
        Some(AtomKey::Matrix { load, count, trans })
    }
}

/// The table row of every typed key, built once from the rows' names.
fn row_of(key: AtomKey) -> Option<&'static str> {
    static INDEX: std::sync::OnceLock<std::collections::HashMap<AtomKey, &'static str>> =
        std::sync::OnceLock::new();
    INDEX
        .get_or_init(|| {
            table_rows()
                .filter(|(kind, _, _)| *kind != "derive")
                .filter_map(|(_, name, _)| Some((AtomKey::of_name(name)?, name)))
                .collect()
        })
        .get(&key)
        .copied()
}

/// The element types that letters such as `F32BF16BF16F32` spell, in their order.
fn types_of_letters(mut letters: &str) -> Option<Vec<Elem>> {
    const TOKENS: [&str; 13] = [
        "BF16", "TF32", "E4M3", "E5M2", "F64", "F32", "F16", "S32", "S8", "U8", "S4", "U4", "U1",
    ];
    let mut out = Vec::with_capacity(4);
    while !letters.is_empty() {
        let t = TOKENS.iter().find(|t| letters.starts_with(**t))?;
        out.push(Elem::from_letters(t)?);
        letters = &letters[t.len()..];
    }
    Some(out)
}

/// The value of one atom trait: `Shape_MNK` is an int-tuple, every other trait a layout.
#[derive(Clone, Debug, PartialEq)]
pub enum Trait {
    /// `Shape_MNK`.
    Shape(IntTuple),
    /// A layout trait (`ThrID`, `ALayout`, `SrcLayout`, ...).
    Layout(Layout),
}

/// An MMA atom: `MMA_Traits<Op>`.
#[derive(Clone, Debug, PartialEq)]
pub struct MmaAtom {
    /// C++ operation name, e.g. `SM80_16x8x16_F16F16F16F16_TN`.
    pub name: String,
    /// `Shape_MNK`.
    pub shape_mnk: IntTuple,
    /// `ThrID`: atom thread → thread index.
    pub thr_id: Layout,
    /// `ALayout`: (thr, val) → (m, k) column-major index.
    pub a: Layout,
    /// `BLayout`: (thr, val) → (n, k).
    pub b: Layout,
    /// `CLayout`: (thr, val) → (m, n).
    pub c: Layout,
    /// Whether A and B are read MN-major (the `Major` template arguments of GMMA/UMMA atoms;
    /// every other atom reads both K-major). The traits do not depend on it; the CuTeDSL
    /// smem helpers that take a tiled MMA do.
    pub mn_major: [bool; 2],
    /// The op's typed parts and template arguments, where the atom has them (GMMA and UMMA
    /// atoms): what the op struct's `static_assert`s read ([`MmaAtom::check_op`]).
    pub params: Option<MmaParams>,
}

/// The typed op of a GMMA or UMMA atom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MmaParams {
    /// An SM90 GMMA op (dense or sparse).
    Gmma(GmmaOp),
    /// An SM100/SM103 UMMA op with its template arguments.
    Umma(UmmaArgs),
}

/// A copy atom: `Copy_Traits<Op>` (layouts in bits), optionally with a value type as in
/// `Copy_Atom<Op, T>` (layouts recast to elements).
#[derive(Clone, Debug, PartialEq)]
pub struct CopyAtom {
    /// C++ operation name, e.g. `SM75_U32x4_LDSM_N`.
    pub name: String,
    /// `ThrID`.
    pub thr_id: Layout,
    /// `SrcLayout` (bits): (thr, bit) → bit offset.
    pub src: Layout,
    /// `DstLayout` (bits).
    pub dst: Layout,
    /// `RefLayout` (bits).
    pub ref_: Layout,
    /// Element width of `Copy_Atom<Op, T>`, if given.
    pub val_bits: Option<i64>,
    /// A TMA atom's box and coordinate strides (`make_tma_copy`, `make_tma_atom`).
    pub tma: Option<Box<crate::tma::TmaAtom>>,
    /// The op's own `static_assert` that fails for these template arguments: C++ prints
    /// its `Copy_Traits` (they never instantiate the op) but refuses to make the op or a
    /// `Copy_Atom` of it.
    pub op_assert: Option<String>,
}

/// A known atom.
#[derive(Clone, Debug, PartialEq)]
pub enum Atom {
    /// An MMA atom.
    Mma(MmaAtom),
    /// A copy atom.
    Copy(CopyAtom),
}

fn parse_layout(s: &str, what: &str) -> Result<Layout> {
    crate::literal::layout(s).map_err(|e| crate::err!("atom table: {what}: {}", e.msg))
}

impl Atom {
    /// Look an atom up by its C++ name.
    ///
    /// ```
    /// use cute_core::atom::Atom;
    /// assert!(Atom::lookup("SM75_U32x4_LDSM_N").is_ok());
    /// assert!(Atom::lookup("SM80_16x8x16").unwrap_err().msg.contains("did you mean"));
    /// ```
    pub fn lookup(name: &str) -> Result<Atom> {
        let Some((kind, name, rest)) = table_rows().find(|(k, n, _)| *n == name && *k != "derive")
        else {
            return match name.parse::<GmmaOp>() {
                Ok(op) if op.sparse => match Atom::by_key(AtomKey::Gmma(op.dense())) {
                    Some(Ok(Atom::Mma(dense))) => Ok(Atom::Mma(sparse_atom(&dense)?)),
                    _ => Err(unknown_atom(name)),
                },
                _ => Err(unknown_atom(name)),
            };
        };
        let mut traits = std::collections::HashMap::new();
        for field in rest.split('\t') {
            if let Some((k, v)) = field.split_once('=') {
                traits.insert(k, v);
            }
        }
        let get = |k: &str| {
            traits
                .get(k)
                .copied()
                .ok_or_else(|| crate::err!("atom table: {name} has no {k}"))
        };
        match kind {
            "mma" => Ok(Atom::Mma(MmaAtom {
                name: name.to_string(),
                shape_mnk: crate::literal::int_tuple(get("Shape_MNK")?)?,
                thr_id: parse_layout(get("ThrID")?, "ThrID")?,
                a: parse_layout(get("ALayout")?, "ALayout")?,
                b: parse_layout(get("BLayout")?, "BLayout")?,
                c: parse_layout(get("CLayout")?, "CLayout")?,
                mn_major: [false, false],
                params: name.parse().ok().map(MmaParams::Gmma),
            })),
            _ => Ok(Atom::Copy(CopyAtom {
                name: name.to_string(),
                thr_id: parse_layout(get("ThrID")?, "ThrID")?,
                src: parse_layout(get("SrcLayout")?, "SrcLayout")?,
                dst: parse_layout(get("DstLayout")?, "DstLayout")?,
                ref_: parse_layout(get("RefLayout")?, "RefLayout")?,
                val_bits: None,
                tma: None,
                op_assert: None,
            })),
        }
    }

    /// The table's atom of a typed key, `None` where the table has no such row.
    ///
    /// ```
    /// use cute_core::atom::{Atom, AtomKey};
    /// assert_eq!(Atom::by_key(AtomKey::Universal(64)).unwrap().unwrap().name(), "UniversalCopy_64");
    /// assert!(Atom::by_key(AtomKey::Universal(24)).is_none());
    /// ```
    pub fn by_key(key: AtomKey) -> Option<Result<Atom>> {
        row_of(key).map(Atom::lookup)
    }

    /// [`Atom::by_key`], or where the table has no such row the "unknown atom" error (with
    /// its "did you mean") of the name C++ would spell, `name()`.
    fn by_key_or(key: AtomKey, name: impl FnOnce() -> String) -> Result<Atom> {
        Atom::by_key(key).unwrap_or_else(|| Err(unknown_atom(&name())))
    }

    fn into_mma(self) -> Result<MmaAtom> {
        match self {
            Atom::Mma(m) => Ok(m),
            Atom::Copy(c) => Err(crate::err!("{} is a copy atom", c.name)),
        }
    }

    fn into_copy(self) -> Result<CopyAtom> {
        match self {
            Atom::Copy(c) => Ok(c),
            Atom::Mma(m) => Err(crate::err!("{} is not a copy", m.name)),
        }
    }

    /// The C++ name.
    pub fn name(&self) -> &str {
        match self {
            Atom::Mma(m) => &m.name,
            Atom::Copy(c) => &c.name,
        }
    }

    /// One trait by its C++ name (`Shape_MNK`, `ThrID`, `ALayout`, ..., `SrcLayout`, ...).
    pub fn trait_value(&self, t: &str) -> Result<Trait> {
        match self {
            Atom::Mma(m) => match t {
                "Shape_MNK" => Ok(Trait::Shape(m.shape_mnk.clone())),
                "ThrID" => Ok(Trait::Layout(m.thr_id.clone())),
                "ALayout" | "LayoutA_TV" => Ok(Trait::Layout(m.a.clone())),
                "BLayout" | "LayoutB_TV" => Ok(Trait::Layout(m.b.clone())),
                "CLayout" | "LayoutC_TV" => Ok(Trait::Layout(m.c.clone())),
                "ELayout" => match &m.params {
                    Some(MmaParams::Gmma(op)) if op.sparse => {
                        Ok(Trait::Layout(gmma::sparse_e_layout(op)?))
                    }
                    _ => optional_trait(&m.name, t, MMA_TRAITS),
                },
                _ => optional_trait(&m.name, t, MMA_TRAITS),
            },
            Atom::Copy(c) => match t {
                "ThrID" => Ok(Trait::Layout(c.thr_id.clone())),
                "SrcLayout" | "ValLayoutSrc" => Ok(Trait::Layout(c.val_layout(&c.src)?)),
                "DstLayout" | "ValLayoutDst" => Ok(Trait::Layout(c.val_layout(&c.dst)?)),
                "RefLayout" | "ValLayoutRef" => Ok(Trait::Layout(c.val_layout(&c.ref_)?)),
                // Copy_Atom's names of the traits' own layouts, in bits.
                "BitLayoutSrc" => Ok(Trait::Layout(c.src.clone())),
                "BitLayoutDst" => Ok(Trait::Layout(c.dst.clone())),
                "BitLayoutRef" => Ok(Trait::Layout(c.ref_.clone())),
                _ => optional_trait(
                    &c.name,
                    t,
                    "a copy atom has ThrID, SrcLayout, DstLayout and RefLayout (TMEM and UTCCP ones ValID, in bits)",
                ),
            },
        }
    }
}

const MMA_TRAITS: &str = "an MMA atom has Shape_MNK, ThrID, ALayout, BLayout and CLayout (sparse ones ELayout, block-scaled SM120 ones SFALayout and SFBLayout)";

fn unknown_atom(name: &str) -> Error {
    let near = crate::error::nearest_names(name, atom_names(), 3);
    if near.is_empty() {
        crate::err!(
            "unknown atom '{name}' (the table has the SM61-SM90 MMA atoms incl. every dense and sparse GMMA, the SM100 SIMD and SM120 MMAs, LDSM/STSM, MOVM, UniversalCopy_N, SM80_CP_ASYNC_*_N, DefaultCopy, the SM100 TMEM load/store and UTCCP copies; SM100 UMMA atoms are templates: SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>)"
        )
    } else {
        crate::err!("unknown atom '{name}' (did you mean {}?)", near.join(", "))
    }
}

/// An SM80 `cp.async` op: `SM80_CP_ASYNC_CACHE{ALWAYS,GLOBAL}[_ZFILL]<TS, TD>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CpAsyncOp {
    /// `CACHEGLOBAL` (`cp.async.cg`, 16 bytes only), else `CACHEALWAYS` (`cp.async.ca`).
    pub global: bool,
    /// `_ZFILL`: zero-fills past the source size.
    pub zfill: bool,
}

impl CpAsyncOp {
    /// Whether `name` is spelled as an SM80 `cp.async` op (`SM80_CP_ASYNC_CACHE...`).
    ///
    /// ```
    /// assert!(cute_core::atom::CpAsyncOp::is_named("SM80_CP_ASYNC_CACHEALWAYS"));
    /// ```
    pub fn is_named(name: &str) -> bool {
        name.starts_with("SM80_CP_ASYNC_CACHE")
    }
}

impl fmt::Display for CpAsyncOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "SM80_CP_ASYNC_CACHE{}{}",
            if self.global { "GLOBAL" } else { "ALWAYS" },
            if self.zfill { "_ZFILL" } else { "" }
        )
    }
}

impl std::str::FromStr for CpAsyncOp {
    type Err = Error;

    fn from_str(name: &str) -> Result<CpAsyncOp> {
        let (global, zfill) = match name.strip_prefix("SM80_CP_ASYNC_CACHE") {
            Some("ALWAYS") => (false, false),
            Some("GLOBAL") => (true, false),
            Some("ALWAYS_ZFILL") => (false, true),
            Some("GLOBAL_ZFILL") => (true, true),
            _ => return Err(crate::err!("unknown type '{name}'")),
        };
        Ok(CpAsyncOp { global, zfill })
    }
}

impl CopyAtom {
    /// `SM80_CP_ASYNC_CACHE{ALWAYS,GLOBAL}[_ZFILL]<T>` of a `bits`-bit `T`: the op's
    /// `static_assert` on the width (`cp.async.ca` moves 4, 8 or 16 bytes, `cp.async.cg` 16),
    /// and the table's atom of that width.
    ///
    /// ```
    /// use cute_core::atom::{CopyAtom, CpAsyncOp};
    /// let op: CpAsyncOp = "SM80_CP_ASYNC_CACHEGLOBAL".parse().unwrap();
    /// assert_eq!(CopyAtom::cp_async(op, 128).unwrap().name, "SM80_CP_ASYNC_CACHEGLOBAL_128");
    /// assert!(CopyAtom::cp_async(op, 64).is_err());
    /// ```
    pub fn cp_async(op: CpAsyncOp, bits: i64) -> Result<CopyAtom> {
        let widths: &[i64] = if op.global { &[128] } else { &[32, 64, 128] };
        if !widths.contains(&bits) {
            let list = |f: fn(i64) -> i64, sep: &str| {
                widths
                    .iter()
                    .map(|w| f(*w).to_string())
                    .collect::<Vec<_>>()
                    .join(sep)
            };
            return Err(crate::err!(
                "{op} copies {} bits, not {bits} (cp.async{} moves {} bytes)",
                list(|w| w, ", "),
                if op.global { ".cg" } else { ".ca" },
                list(|w| w / 8, "/")
            ));
        }
        CopyAtom::by_key(AtomKey::CpAsync(op, bits), || format!("{op}_{bits}"))
    }

    /// `Copy_Traits<SM80_CP_ASYNC_CACHE{ALWAYS,GLOBAL}[_ZFILL]<T>>` of any width: the
    /// table's atom where the op takes that width, else the traits C++ prints for it
    /// (`SrcLayout (1,bits):(0,1)`), carrying the op's refusal in
    /// [`CopyAtom::op_assert`].
    ///
    /// ```
    /// use cute_core::atom::{CopyAtom, CpAsyncOp};
    /// let op: CpAsyncOp = "SM80_CP_ASYNC_CACHEGLOBAL".parse().unwrap();
    /// let c = CopyAtom::cp_async_traits(op, 32).unwrap();
    /// assert_eq!(c.src.to_string(), "(1,32):(0,1)");
    /// assert!(c.op_assert.is_some());
    /// ```
    pub fn cp_async_traits(op: CpAsyncOp, bits: i64) -> Result<CopyAtom> {
        match CopyAtom::cp_async(op, bits) {
            Ok(c) => Ok(c),
            Err(e) if bits > 0 && bits <= 1024 => {
                let vals = Layout::new(IntTuple::ints(&[1, bits]), IntTuple::ints(&[0, 1]))?;
                Ok(CopyAtom {
                    name: format!("{op}_{bits}"),
                    thr_id: Layout::new(IntTuple::Int(1), IntTuple::Int(0))?,
                    src: vals.clone(),
                    dst: vals.clone(),
                    ref_: vals,
                    val_bits: None,
                    tma: None,
                    op_assert: Some(format!(
                        "{} (static_assert: cp.async sizeof(TS) is not supported)",
                        e.msg
                    )),
                })
            }
            Err(e) => Err(e),
        }
    }

    /// The op's own check, which C++ makes when the op or a `Copy_Atom` of it is made.
    pub fn check_op(&self) -> Result<()> {
        match &self.op_assert {
            Some(m) => Err(Error::new(m.clone())),
            None => Ok(()),
        }
    }

    /// The atom with a value type of `bits` bits, as `Copy_Atom<Op, uint_bit_t<bits>>`.
    pub fn with_value_bits(&self, bits: i64) -> Result<CopyAtom> {
        let mut c = self.clone();
        c.val_bits = Some(bits);
        let nthr = c.thr_id.size()?;
        for (what, l) in [("Src", &c.src), ("Dst", &c.dst), ("Ref", &c.ref_)] {
            let v = c.val_layout(l)?;
            if v.mode(0)?.size()? != nthr {
                return Err(crate::err!(
                    "{} is not valid for {what} with {bits}-bit values",
                    c.name
                ));
            }
        }
        Ok(c)
    }

    /// `recast_layout<uint1_t, T>(layout)`, or the layout in bits without a value type.
    pub fn val_layout(&self, l: &Layout) -> Result<Layout> {
        match self.val_bits {
            None => Ok(l.clone()),
            Some(b) => alg::recast_layout(1, b, l),
        }
    }

    fn val_bits_or_err(&self) -> Result<i64> {
        self.val_bits.ok_or_else(|| {
            crate::err!(
                "the copy atom needs a value type: atom({}, half_t) or atom({}, 16)",
                self.name,
                self.name
            )
        })
    }

    /// The shared-memory instruction this atom issues: LDSM/STSM → ldmatrix/stmatrix,
    /// `SM80_CP_ASYNC_CACHEALWAYS[_ZFILL]_N` → LDGSTS.N (cp.async.ca),
    /// `SM80_CP_ASYNC_CACHEGLOBAL[_ZFILL]_128` → LDGSTS.BYPASS.128 (cp.async.cg; both write
    /// shared memory), `UniversalCopy_N` → LDS.N as a load (`bank_conflicts` takes an
    /// explicit store instruction).
    ///
    /// ```
    /// use cute_core::{atom::Atom, bank::Instr};
    /// let Atom::Copy(c) = Atom::lookup("SM80_CP_ASYNC_CACHEGLOBAL_128").unwrap() else { panic!() };
    /// assert_eq!(c.instr().unwrap(), Instr::Ldgsts { bits: 128, bypass: true });
    /// let Atom::Copy(c) = Atom::lookup("UniversalCopy_8").unwrap() else { panic!() };
    /// assert_eq!(c.instr().unwrap(), Instr::Lds(8));
    /// ```
    pub fn instr(&self) -> Result<Instr> {
        // Executing the op is what C++ refuses.
        self.check_op()?;
        let n = self.name.as_str();
        let width = || -> Result<u32> {
            n.rsplit('_')
                .next()
                .and_then(|b| b.parse().ok())
                .ok_or_else(|| crate::err!("{n}: the atom's name gives no access width"))
        };
        if let Some(rest) = n.strip_prefix("SM80_CP_ASYNC_") {
            let bits = width()?;
            let instr = Instr::Ldgsts {
                bits,
                bypass: rest.starts_with("CACHEGLOBAL"),
            };
            instr.check()?;
            return Ok(instr);
        }
        // DefaultCopy / AutoVectorizingCopy name no width.
        if n == "DefaultCopy" || n == "AutoVectorizingCopy" {
            return Err(crate::err!(
                "{n}: the copy names no access width (name the instruction: bank_conflicts(smem, tiled_copy, LDS128))"
            ));
        }
        let count = if n.contains("x1_") || n.contains("U16x2") {
            1
        } else if n.contains("x2_") || n.contains("U16x4") {
            2
        } else {
            4
        };
        let trans = n.ends_with("_T");
        let instr = if n.contains("LDSM") {
            Instr::Ldsm { count, trans }
        } else if n.contains("STSM") {
            Instr::Stsm { count, trans }
        } else if n.starts_with("UniversalCopy_") {
            Instr::Lds(width()?)
        } else {
            return Err(crate::err!(
                "{n}: no shared-memory instruction is known for this copy atom (name one: bank_conflicts(smem, tiled_copy, LDS128))"
            ));
        };
        instr.check()?;
        Ok(instr)
    }

    /// The global-memory instruction this atom issues for [`crate::gmem::coalescing`]:
    /// `SM80_CP_ASYNC_*` → its cp.async read, `UniversalCopy_N` → LDG.N (a load;
    /// `coalescing` takes an explicit `STG` for a store). Other atoms do not touch global
    /// memory, or name no width.
    ///
    /// ```
    /// use cute_core::{atom::Atom, gmem::GmemOp};
    /// let Atom::Copy(c) = Atom::lookup("SM80_CP_ASYNC_CACHEALWAYS_64").unwrap() else { panic!() };
    /// assert_eq!(c.gmem_op().unwrap(), GmemOp::CpAsync { bits: 64, bypass: false });
    /// let Atom::Copy(c) = Atom::lookup("UniversalCopy_128").unwrap() else { panic!() };
    /// assert_eq!(c.gmem_op().unwrap(), GmemOp::Ldg(128));
    /// let Atom::Copy(c) = Atom::lookup("SM75_U32x4_LDSM_N").unwrap() else { panic!() };
    /// assert!(c.gmem_op().is_err());
    /// ```
    pub fn gmem_op(&self) -> Result<crate::gmem::GmemOp> {
        use crate::gmem::GmemOp;
        let n = self.name.as_str();
        if n.starts_with("SM80_CP_ASYNC_") || n.starts_with("UniversalCopy_") {
            return match self.instr()? {
                Instr::Ldgsts { bits, bypass } => Ok(GmemOp::CpAsync { bits, bypass }),
                Instr::Lds(b) => {
                    let op = GmemOp::Ldg(b);
                    op.check()?;
                    Ok(op)
                }
                i => Err(crate::err!("{n}: {i} is not a global access")),
            };
        }
        if n == "DefaultCopy" || n == "AutoVectorizingCopy" {
            return Err(crate::err!(
                "{n}: the copy names no access width (name the instruction: coalescing(gmem, tiled_copy, LDG128))"
            ));
        }
        Err(crate::err!(
            "{n} does not access global memory (coalescing takes a cp.async or UniversalCopy copy, or an instruction such as LDG128)"
        ))
    }

    /// One atom as a TiledCopy: its threads and values (of the reference layout, in values
    /// of its type) over a threads x values tile, thread-major, as `make_tiled_copy_impl`
    /// of `(thr,val):(1,thr)` over `(thr,val)` builds it. Needs a value type.
    ///
    /// ```
    /// use cute_core::atom::Atom;
    /// let Atom::Copy(ldsm) = Atom::lookup("SM75_U32x4_LDSM_N").unwrap() else { unreachable!() };
    /// let copy = ldsm.with_value_bits(16).unwrap().tiled().unwrap();
    /// assert_eq!(copy.tiler.to_string(), "(32,8)");
    /// assert!(ldsm.tiled().is_err()); // no value type
    /// ```
    pub fn tiled(&self) -> Result<TiledCopy> {
        let r = self.val_layout(&self.ref_)?;
        let (thr, val) = (r.mode(0)?.size()?, r.mode(1)?.size()?);
        make_tiled_copy_impl(
            self,
            Layout::col_major(IntTuple::ints(&[thr, val]))?,
            IntTuple::ints(&[thr, val]),
        )
    }
}

impl MmaAtom {
    /// The value types `(D, A, B, C)` of a register MMA, spelled in its name
    /// (`SM80_16x8x16_F32BF16BF16F32_TN`: float, bfloat16_t, bfloat16_t, float): what
    /// `partition_fragment_A/B/C` hold. `None` for GMMA/UMMA atoms, whose A/B fragments are
    /// descriptors and whose UMMA accumulator lives in tensor memory, and for names
    /// without four types.
    ///
    /// ```
    /// use cute_core::atom::Atom;
    /// use cute_core::elem::Elem;
    /// let Atom::Mma(m) = Atom::lookup("SM80_16x8x16_F32BF16BF16F32_TN").unwrap() else { unreachable!() };
    /// assert_eq!(m.value_types(), Some([Elem::F32, Elem::BF16, Elem::BF16, Elem::F32]));
    /// ```
    pub fn value_types(&self) -> Option<[Elem; 4]> {
        if self.params.is_some() {
            return None;
        }
        self.named_types()?.try_into().ok()
    }

    /// The value types `(D, A, B, C)` of an MMA whose operands all live in registers: the
    /// ones its name spells ([`MmaAtom::value_types`]), `UniversalFMA<D, A = D, B = A,
    /// C = D>`'s arguments, the int8/int16 dot products `SM61_DP4A`/`SM61_DP2A`
    /// (accumulating in `int32_t`). `None` for the others (GMMA/UMMA, whose operands may
    /// be descriptors or tensor memory).
    ///
    /// ```
    /// use cute_core::{atom::MmaAtom, elem::Elem};
    /// let a = MmaAtom::universal_fma(&[Elem::F32, Elem::F16]).unwrap();
    /// assert_eq!(a.register_types().unwrap(), Some([Elem::F32, Elem::F16, Elem::F16, Elem::F32]));
    /// ```
    pub fn register_types(&self) -> Result<Option<[Elem; 4]>> {
        if let Some(t) = self.value_types() {
            return Ok(Some(t));
        }
        if let Some(args) = self
            .name
            .strip_prefix("UniversalFMA<")
            .and_then(|r| r.strip_suffix('>'))
        {
            let ts: Vec<Elem> = args
                .split(',')
                .map(Elem::from_cpp)
                .collect::<Option<_>>()
                .ok_or_else(|| crate::err!("{}: unknown element type", self.name))?;
            let d = ts[0];
            let a = ts.get(1).copied().unwrap_or(d);
            let b = ts.get(2).copied().unwrap_or(a);
            let c = ts.get(3).copied().unwrap_or(d);
            return Ok(Some([d, a, b, c]));
        }
        Ok(match self.name.as_str() {
            "SM61_DP4A" => Some([Elem::S32, Elem::S8, Elem::S8, Elem::S32]),
            "SM61_DP2A" => Some([Elem::S32, Elem::S16, Elem::S16, Elem::S32]),
            _ => None,
        })
    }

    /// The element types the name spells, in its order: `(D, A, B, C)` of a register MMA,
    /// `(D, A, B)` of a GMMA (`SM90_64x128x16_F32F16F16_SS`, whose C is D).
    ///
    /// ```
    /// use cute_core::atom::Atom;
    /// use cute_core::elem::Elem;
    /// let Atom::Mma(m) = Atom::lookup("SM90_64x128x16_F32F16F16_SS").unwrap() else { unreachable!() };
    /// assert_eq!(m.named_types(), Some(vec![Elem::F32, Elem::F16, Elem::F16]));
    /// ```
    pub fn named_types(&self) -> Option<Vec<Elem>> {
        types_of_letters(self.name.split('_').nth(2)?)
    }

    /// `MMA_Traits<SM100_MMA_*<A, B, C, M, N, ...>>` of a `tcgen05.mma` (UMMA) atom, as
    /// `mma_traits_sm100.hpp` defines them: the element types checked as `MMA_Traits` does,
    /// K by the family's rule; one CTA issues it (`ThrID` 1) or a CTA pair (`2x1SM`:
    /// `ThrID` 2, each CTA holding half of M and of N).
    ///
    /// ```
    /// use cute_core::{atom::MmaAtom, elem::Elem, smem_atom::AtomMajor, umma::UmmaArgs};
    /// let args = UmmaArgs::new("SM100_MMA_F16BF16_2x1SM_SS".parse().unwrap(), [Elem::BF16, Elem::BF16, Elem::F32], 256, 128, [AtomMajor::K; 2]);
    /// let a = MmaAtom::umma(&args).unwrap();
    /// assert_eq!(a.shape_mnk.to_string(), "(256,128,16)");
    /// assert_eq!(a.a.to_string(), "(2,(128,16)):(128,(1,256))");
    /// assert_eq!(a.c.to_string(), "(2,(128,128)):(128,(1,256))");
    /// ```
    pub fn umma(args: &UmmaArgs) -> Result<MmaAtom> {
        args.check_types()?;
        let k = args.op.k(args.a.bits())?;
        let (m, n, two_sm) = (args.m, args.n, args.op.two_sm);
        let cta = if two_sm { 2 } else { 1 };
        if m <= 0 || n <= 0 || m % cta != 0 || n % cta != 0 {
            return Err(crate::err!(
                "{args}: M = {m} and N = {n} must be positive{}",
                if two_sm {
                    " and even (each CTA of the pair holds half)"
                } else {
                    ""
                }
            ));
        }
        let (hm, hn) = (m / cta, n / cta);
        let (thr_m, thr_n) = if two_sm { (hm, hn) } else { (0, 0) };
        // (cta, (x, y)) : (t, (1, ld)): the CTA, then a column-major x by y block.
        let tv = |x: i64, y: i64, t: i64, ld: i64| -> Result<Layout> {
            let pair = |p: i64, q: i64, r: i64| {
                IntTuple::Tuple(vec![IntTuple::Int(p), IntTuple::ints(&[q, r])])
            };
            Layout::new(pair(cta, x, y), pair(t, 1, ld))
        };
        Ok(MmaAtom {
            name: args.to_string(),
            shape_mnk: IntTuple::ints(&[m, n, k]),
            thr_id: Layout::col_major(IntTuple::Int(cta))?,
            a: tv(hm, k, thr_m, m)?,
            b: tv(hn, k, thr_n, n)?,
            c: tv(hm, n, thr_m, m)?,
            mn_major: args.majors.map(|x| x == AtomMajor::MN),
            params: Some(MmaParams::Umma(*args)),
        })
    }

    /// The `static_assert`s of the op struct, which C++ checks when a value of it is made
    /// (`make_tiled_mma(Op{})`) but not when only its traits are named (`MMA_Traits<Op>`):
    /// an RS GMMA with an MN-major A, UMMA M/N/VS out of the instruction's range.
    ///
    /// ```
    /// use cute_core::atom::{Atom, MmaAtom};
    /// let Atom::Mma(mut a) = Atom::lookup("SM90_64x8x16_F16F16F16_RS").unwrap() else { unreachable!() };
    /// a.mn_major = [true, false];
    /// assert!(a.check_op().is_err());
    /// ```
    pub fn check_op(&self) -> Result<()> {
        match &self.params {
            Some(MmaParams::Gmma(g)) => {
                g.check_op(
                    self.mn_major
                        .map(|mn| if mn { AtomMajor::MN } else { AtomMajor::K }),
                )
            }
            Some(MmaParams::Umma(u)) => u.check_op(),
            None => Ok(()),
        }
    }

    /// The table's MMA atom of a typed key; where there is none, the "unknown atom" error
    /// of the name C++ would spell, `name()`.
    pub fn by_key(key: AtomKey, name: impl FnOnce() -> String) -> Result<MmaAtom> {
        Atom::by_key_or(key, name)?.into_mma()
    }

    /// `MMA_Traits<UniversalFMA<D, A, B, C>>`: one thread, one multiply-add.
    ///
    /// ```
    /// use cute_core::{atom::MmaAtom, elem::Elem};
    /// let a = MmaAtom::universal_fma(&[Elem::F32]).unwrap();
    /// assert_eq!((a.name.as_str(), a.c.to_string().as_str()), ("UniversalFMA<float>", "(1,1):(0,0)"));
    /// ```
    pub fn universal_fma(types: &[Elem]) -> Result<MmaAtom> {
        if !(1..=4).contains(&types.len()) {
            return Err(crate::err!(
                "UniversalFMA<D[, A, B, C]> takes 1 to 4 element types, got {}",
                types.len()
            ));
        }
        let names: Vec<&str> = types.iter().map(|t| t.cpp_name()).collect();
        let one = Layout::new(IntTuple::ints(&[1, 1]), IntTuple::ints(&[0, 0]))?;
        Ok(MmaAtom {
            name: format!("UniversalFMA<{}>", names.join(",")),
            shape_mnk: IntTuple::ints(&[1, 1, 1]),
            thr_id: Layout::col_major(IntTuple::Int(1))?,
            a: one.clone(),
            b: one.clone(),
            c: one,
            mn_major: [false, false],
            params: None,
        })
    }

    /// CuTeDSL `warp.MmaF16BF16Op(ab_dtype, acc_dtype, shape_mnk)`: the SM80 `mma.sync`
    /// `SM80_16x8x{8,16}_{C}{A}{B}{C}_TN` of F16/BF16 inputs (BF16 accumulates in F32 only).
    ///
    /// ```
    /// use cute_core::{atom::MmaAtom, elem::Elem};
    /// let a = MmaAtom::sm80_f16bf16(Elem::BF16, Elem::F32, &[16, 8, 16]).unwrap();
    /// assert_eq!(a.name, "SM80_16x8x16_F32BF16BF16F32_TN");
    /// ```
    pub fn sm80_f16bf16(ab: Elem, acc: Elem, shape: &[i64]) -> Result<MmaAtom> {
        let l = |t: Elem| t.letters().unwrap_or("?");
        if !matches!(ab, Elem::F16 | Elem::BF16)
            || !matches!(acc, Elem::F16 | Elem::F32)
            || (ab, acc) == (Elem::BF16, Elem::F16)
        {
            return Err(crate::err!(
                "MmaF16BF16Op: A/B must be Float16 or BFloat16 and the accumulator Float16 (Float16 inputs) or Float32, got {} and {}",
                l(ab),
                l(acc)
            ));
        }
        let k = match shape {
            [16, 8, k @ (8 | 16)] => *k,
            _ => {
                return Err(crate::err!(
                "MmaF16BF16Op: the SM80 instruction shape is (16, 8, 8) or (16, 8, 16), got ({})",
                shape
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ))
            }
        };
        let key = AtomKey::Sm80 {
            k,
            types: [acc, ab, ab, acc],
        };
        MmaAtom::by_key(key, || {
            format!("SM80_16x8x{k}_{}{}{}{}_TN", l(acc), l(ab), l(ab), l(acc))
        })
    }

    /// `make_tiled_mma(atom)`: one atom, no permutation.
    pub fn tiled(&self) -> Result<TiledMma> {
        make_tiled_mma(self, &Layout::col_major(IntTuple::ints(&[1, 1, 1]))?, &[])
    }
}

/// An MMA operand: A (M x K), B (N x K) or the accumulator C (M x N), as CuTe's `_A`,
/// `_B`, `_C` member suffixes name them.
///
/// ```
/// assert_eq!(cute_core::atom::Operand::B.to_string(), "B");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// The M x K operand.
    A,
    /// The N x K operand.
    B,
    /// The M x N accumulator.
    C,
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Operand::A => "A",
            Operand::B => "B",
            Operand::C => "C",
        })
    }
}

// ---------------------------------------------------------------------------------------
// TiledMMA
// ---------------------------------------------------------------------------------------

/// CuTe `TiledMMA`: an MMA atom tiled over an atom layout, with MNK permutations.
#[derive(Clone, Debug, PartialEq)]
pub struct TiledMma {
    /// The atom.
    pub atom: MmaAtom,
    /// `ThrLayoutVMNK = tiled_product(ThrID, AtomLayoutMNK)`.
    pub thr_layout_vmnk: Layout,
    /// `PermutationMNK` (three tilers, `_` where none).
    pub perm: [Tiler; 3],
}

/// CuTe `make_tiled_mma(atom, atom_layout, permutations)`.
///
/// ```
/// use cute_core::atom::{make_tiled_mma, Atom, Operand};
/// use cute_core::layout::Tiler;
/// let Atom::Mma(atom) = Atom::lookup("SM80_16x8x16_F16F16F16F16_TN").unwrap() else { unreachable!() };
/// let under = [Tiler::Under, Tiler::Under, Tiler::Under];
/// let mma = make_tiled_mma(&atom, &"(2,2,1)".parse().unwrap(), &under).unwrap();
/// assert_eq!(mma.tile_shape().unwrap().to_string(), "(32,16,16)");
/// ```
pub fn make_tiled_mma(atom: &MmaAtom, atom_layout: &Layout, perm: &[Tiler]) -> Result<TiledMma> {
    if atom_layout.rank() > 3 {
        return Err(crate::err!(
            "the atom layout {atom_layout} has rank {} (at most 3: M, N, K)",
            atom_layout.rank()
        ));
    }
    if perm.len() > 3 {
        return Err(crate::err!(
            "the permutation has {} modes (at most 3: M, N, K)",
            perm.len()
        ));
    }
    let thr_layout_mnk = atom_layout.append_to(3);
    let thr_layout_vmnk = alg::tiled_product(&atom.thr_id, &Tiler::Layout(thr_layout_mnk))?;
    let mut p = [Tiler::Under, Tiler::Under, Tiler::Under];
    for (i, t) in perm.iter().enumerate() {
        p[i] = t.clone();
    }
    let m = TiledMma {
        atom: atom.clone(),
        thr_layout_vmnk,
        perm: p,
    };
    // Every TV layout must exist (C++ fails to compile otherwise).
    m.layout_c_tv()?;
    m.layout_a_tv()?;
    m.layout_b_tv()?;
    Ok(m)
}

fn col(n: i64) -> Result<Layout> {
    Layout::col_major(IntTuple::Int(n))
}

fn tiler_size(t: &Tiler) -> Result<i64> {
    match t {
        Tiler::Layout(l) => l.size(),
        Tiler::Int(n) => Ok(*n),
        Tiler::Tuple(ts) => ts
            .iter()
            .try_fold(1i64, |acc, t| crate::error::arith::mul(acc, tiler_size(t)?)),
        Tiler::Under => Err(Error::new("'_' has no size")),
    }
}

impl TiledMma {
    fn vmnk_size(&self, i: usize) -> Result<i64> {
        self.thr_layout_vmnk.mode(i)?.size()
    }

    /// CuTe `permutation_mnk<I>()`: `_` becomes the atom size times the thread tiling.
    fn permutation(&self, i: usize) -> Result<Tiler> {
        match &self.perm[i] {
            Tiler::Under => Ok(Tiler::Int(crate::error::arith::mul(
                self.atom.shape_mnk.get(i)?.size()?,
                self.vmnk_size(i + 1)?,
            )?)),
            t => Ok(t.clone()),
        }
    }

    /// CuTe `tile_size_mnk<I>()`.
    pub fn tile_size(&self, i: usize) -> Result<i64> {
        tiler_size(&self.permutation(i)?)
    }

    /// `(tile_size<0>, tile_size<1>, tile_size<2>)`.
    pub fn tile_shape(&self) -> Result<IntTuple> {
        Ok(IntTuple::ints(&[
            self.tile_size(0)?,
            self.tile_size(1)?,
            self.tile_size(2)?,
        ]))
    }

    /// CuTe `thrfrg_C/A/B`: `(M,N)` → `((ThrV,(ThrX,ThrY)),(FrgV,(RestX,RestY)))`.
    fn thrfrg(&self, t: &Layout, modes: (usize, usize), atom_tv: &Layout) -> Result<Layout> {
        let (x, y) = modes;
        let t_tile = Tiler::Tuple(vec![self.permutation(x)?, self.permutation(y)?]);
        let t_tensor = alg::logical_divide(t, &t_tile)?;
        let a_tile = Tiler::Tuple(vec![
            Tiler::Layout(col(self.atom.shape_mnk.get(x)?.size()?)?),
            Tiler::Layout(col(self.atom.shape_mnk.get(y)?.size()?)?),
        ]);
        let a_tensor = alg::zipped_divide(&t_tensor, &a_tile)?;
        let tv_tensor = alg::composition_tiler(
            &a_tensor,
            &Tiler::Tuple(vec![Tiler::Layout(atom_tv.clone()), Tiler::Under]),
        )?;
        let thr_tile = Tiler::Tuple(vec![
            Tiler::Under,
            Tiler::Tuple(vec![
                Tiler::Layout(col(self.vmnk_size(x + 1)?)?),
                Tiler::Layout(col(self.vmnk_size(y + 1)?)?),
            ]),
        ]);
        alg::zipped_divide(&tv_tensor, &thr_tile)
    }

    /// Operand `which`'s modes of (M, N, K) and its atom TV layout: A is (M, K), B (N, K),
    /// C (M, N).
    fn operand(&self, which: Operand) -> ((usize, usize), &Layout) {
        match which {
            Operand::A => ((0, 2), &self.atom.a),
            Operand::B => ((1, 2), &self.atom.b),
            Operand::C => ((0, 1), &self.atom.c),
        }
    }

    /// The (ThrM, ThrN) → (ThrM, ThrK) / (ThrN, ThrK) map `get_layoutA/B_TV` compose with
    /// (A ignores ThrN, B ignores ThrM); none for C.
    fn operand_sub(&self, which: Operand) -> Result<Option<Layout>> {
        let stride = match which {
            Operand::A => [1, 0],
            Operand::B => [0, 1],
            Operand::C => return Ok(None),
        };
        Ok(Some(Layout::new(
            IntTuple::ints(&[self.vmnk_size(1)?, self.vmnk_size(2)?]),
            IntTuple::ints(&stride),
        )?))
    }

    /// thr_idx → (ThrV,ThrM,ThrN,ThrK).
    fn thridx_2_thrid(&self) -> Result<Layout> {
        let v = &self.thr_layout_vmnk;
        let full = alg::make_layout(&[v.clone(), alg::complement(v, None)?]);
        let head = Layout::new(IntTuple::ints(&[v.size()?, 1]), IntTuple::ints(&[1, 0]))?;
        alg::composition(&head, &alg::right_inverse(&full)?)
    }

    fn finish(&self, frg: Layout, sub: Option<Layout>) -> Result<Layout> {
        let mut l = frg;
        if let Some(s) = sub {
            // C++ `compose(atile, _)` with atile = (_, (s, _)): (ThrV,(ThrM,ThrK)) -> (ThrV,(ThrM,ThrN,ThrK)).
            let atile = Tiler::Tuple(vec![
                Tiler::Under,
                Tiler::Tuple(vec![Tiler::Layout(s), Tiler::Under]),
            ]);
            l = alg::composition_tiler(&l, &Tiler::Tuple(vec![atile, Tiler::Under]))?;
        }
        alg::composition_tiler(
            &l,
            &Tiler::Tuple(vec![Tiler::Layout(self.thridx_2_thrid()?), Tiler::Under]),
        )
    }

    /// CuTe `partition_shape_A/B/C(tiled_mma, shape)`: the shape of one thread's fragment of
    /// a tile of `shape` (`(M,K,...)`, `(N,K,...)` or `(M,N,...)`): `(FrgV, RestX, RestY, ...)`.
    ///
    /// ```
    /// use cute_core::atom::{make_tiled_mma, Atom, Operand};
    /// use cute_core::layout::Tiler;
    /// let Atom::Mma(atom) = Atom::lookup("SM80_16x8x16_F16F16F16F16_TN").unwrap() else { unreachable!() };
    /// let under = [Tiler::Under, Tiler::Under, Tiler::Under];
    /// let mma = make_tiled_mma(&atom, &"(2,2,1)".parse().unwrap(), &under).unwrap();
    /// assert_eq!(mma.partition_shape(Operand::C, &"(64,64)".parse().unwrap()).unwrap().to_string(), "((2,2),2,4)");
    /// ```
    pub fn partition_shape(&self, which: Operand, shape: &IntTuple) -> Result<IntTuple> {
        let dummy = Layout::col_major(shape.clone())?;
        if dummy.rank() < 2 {
            return Err(crate::err!(
                "partition_shape_{which}: the shape {shape} must have at least two modes"
            ));
        }
        let (modes, atom_tv) = self.operand(which);
        let tv = self.thrfrg(&dummy, modes, atom_tv)?;
        let rest = Coord::Tuple(vec![Coord::Under; dummy.rank()]);
        let c = Coord::Tuple(vec![Coord::Int(0), Coord::Tuple(vec![Coord::Under, rest])]);
        Ok(tv.slice(&c)?.shape().clone())
    }

    /// CuTe `ThrMMA::partition_A/B/C(tensor)`, on the tensor's layout: thread
    /// `thr_idx`'s slice of a tile `(M,K,...)`, `(N,K,...)` or `(M,N,...)` — the layout
    /// `(FrgV, RestX, RestY, ...)` and the offset of its first element (the pointer moves
    /// by it).
    ///
    /// ```
    /// use cute_core::atom::{make_tiled_mma, Atom, Operand};
    /// use cute_core::layout::Tiler;
    /// let Atom::Mma(atom) = Atom::lookup("SM80_16x8x16_F16F16F16F16_TN").unwrap() else { unreachable!() };
    /// let under = [Tiler::Under, Tiler::Under, Tiler::Under];
    /// let mma = make_tiled_mma(&atom, &"(2,2,1)".parse().unwrap(), &under).unwrap();
    /// let (l, off) = mma.partition(Operand::A, &"(64,32):(32,1)".parse().unwrap(), 37).unwrap();
    /// assert_eq!((l.to_string(), off), ("((2,2,2),2,2):((1,256,8),1024,16)".to_string(), 546));
    /// ```
    pub fn partition(
        &self,
        which: Operand,
        layout: &Layout,
        thr_idx: i64,
    ) -> Result<(Layout, i64)> {
        let (tv, c) = self.partition_coord(which, layout, thr_idx)?;
        let offset = tv.call_coord(&c.start())?;
        Ok((tv.slice(&c)?, offset))
    }

    /// CuTe `ThrMMA::partition_A/B/C(tensor)` of a whole tensor: its iterator moved to the
    /// thread's first element over [`TiledMma::partition`]'s layout. A composed layout in
    /// element units (`Sw o 0 o L`) is sliced as C++ slices it, the thread's coordinate a
    /// run-time one: the swizzle decays into strides where it can.
    ///
    /// ```
    /// use cute_core::atom::{make_tiled_mma, Atom, Operand};
    /// use cute_core::layout::Tiler;
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout};
    /// use cute_core::tensor::{Ptr, Space, Tensor};
    /// use cute_core::Swizzle;
    /// let Atom::Mma(atom) = Atom::lookup("SM80_16x8x16_F32F16F16F32_TN").unwrap() else { unreachable!() };
    /// let perm = [Tiler::Int(32), Tiler::Int(32), Tiler::Int(16)];
    /// let mma = make_tiled_mma(&atom, &"(2,2,1)".parse().unwrap(), &perm).unwrap();
    /// let sw = ComposedLayout::new(Swizzle::new(2, 3, 3).unwrap(), 0, "((8,8),(32,1)):((32,256),(1,0))".parse().unwrap());
    /// let s = Tensor::over(Ptr::new(Space::Smem, 16, 0), &AnyLayout::Composed(sw)).unwrap();
    /// let t = mma.partition_tensor(Operand::A, &s, 37).unwrap();
    /// assert_eq!(t.to_string(), "smem_ptr[16b](0x444) o ((2,2,2),2,2):((1,256,8),1024,16)");
    /// ```
    pub fn partition_tensor(&self, which: Operand, t: &Tensor, thr_idx: i64) -> Result<Tensor> {
        let (tv, c) = self.partition_coord(which, &t.layout, thr_idx)?;
        let dynamic = vec![true; c.start().leaf_count()];
        t.with_layout(tv)?.slice_dynamic(&c, &dynamic)
    }

    /// `thrfrg_A/B/C` of `layout` and thread `thr_idx`'s coordinate in it,
    /// `((ThrV,(ThrX,ThrY)),(_,(_,...)))`.
    fn partition_coord(
        &self,
        which: Operand,
        layout: &Layout,
        thr_idx: i64,
    ) -> Result<(Layout, Coord)> {
        let threads = self.thr_layout_vmnk.size()?;
        if thr_idx < 0 || thr_idx >= threads {
            return Err(crate::err!(
                "thread {thr_idx} is outside the TiledMMA's {threads} threads"
            ));
        }
        let tv = self.thrfrg_checked(which, layout)?;
        let (x, y) = self.operand(which).0;
        // get_flat_coord: (ThrV, ThrM, ThrN, ThrK) of the thread, one integer a mode.
        let v = &self.thr_layout_vmnk;
        let hier =
            crate::int_tuple::idx2crd_strided(&IntTuple::Int(thr_idx), v.shape(), v.stride())?;
        let flat: Vec<i64> = match (&hier, v.shape()) {
            (IntTuple::Tuple(cs), IntTuple::Tuple(ss)) => cs
                .iter()
                .zip(ss)
                .map(|(c, s)| crate::int_tuple::crd2idx_shape(c, s))
                .collect::<Result<_>>()?,
            _ => return Err(Error::new("the TiledMMA's thread layout is not (V,M,N,K)")),
        };
        let thr = Coord::Tuple(vec![
            Coord::Int(flat[0]),
            Coord::Tuple(vec![Coord::Int(flat[x + 1]), Coord::Int(flat[y + 1])]),
        ]);
        let rest = tv.mode(1)?.mode(1)?.rank().max(1);
        let frg = Coord::Tuple(vec![Coord::Under, Coord::Tuple(vec![Coord::Under; rest])]);
        Ok((tv, Coord::Tuple(vec![thr, frg])))
    }

    /// `thrfrg_A/B/C(layout)` of a tensor's layout, after checking the TiledMMA's tile
    /// divides its first two modes.
    fn thrfrg_checked(&self, which: Operand, layout: &Layout) -> Result<Layout> {
        if layout.rank() < 2 {
            return Err(crate::err!(
                "partition_{which}: the tensor's layout {layout} must have at least two modes"
            ));
        }
        let (modes, atom_tv) = self.operand(which);
        let (x, y) = modes;
        for (mode, i) in [(0, x), (1, y)] {
            let (have, tile) = (layout.mode(mode)?.size()?, self.tile_size(i)?);
            if tile == 0 || have % tile != 0 {
                return Err(Error::new(format!(
                    "partition_{which}: mode {mode} of the tensor ({have}) is not a multiple of the TiledMMA's tile ({tile}, of {})",
                    self.tile_shape()?
                )));
            }
        }
        self.thrfrg(layout, modes, atom_tv)
    }

    /// Who owns what of a whole `(M,K)`, `(N,K)` or `(M,N)` tile `shape` under
    /// `partition_A/B/C`: the TV layout `(thr_idx, (FrgV,(RestX,RestY))) → ` column-major
    /// index of `shape`. Thread `t`'s values are [`TiledMma::partition`]'s of the
    /// column-major layout of `shape`, in its order.
    ///
    /// ```
    /// use cute_core::atom::{make_tiled_mma, Atom, Operand};
    /// use cute_core::{layout::Tiler, IntTuple, Layout};
    /// let Atom::Mma(atom) = Atom::lookup("SM80_16x8x16_F16F16F16F16_TN").unwrap() else { unreachable!() };
    /// let under = [Tiler::Under, Tiler::Under, Tiler::Under];
    /// let mma = make_tiled_mma(&atom, &"(2,2,1)".parse().unwrap(), &under).unwrap();
    /// let shape: IntTuple = "(64,32)".parse().unwrap();
    /// let tv = mma.tv_over(Operand::A, &shape).unwrap();
    /// let (l, off) = mma.partition(Operand::A, &Layout::col_major(shape).unwrap(), 37).unwrap();
    /// for v in 0..l.size().unwrap() {
    ///     assert_eq!(tv.call_coord(&IntTuple::ints(&[37, v])).unwrap(), off + l.call_index(v).unwrap());
    /// }
    /// ```
    pub fn tv_over(&self, which: Operand, shape: &IntTuple) -> Result<Layout> {
        let frg = self.thrfrg_checked(which, &Layout::col_major(shape.clone())?)?;
        self.finish(frg, self.operand_sub(which)?)
    }

    /// CuTe `get_layoutC_TV()`: (thr_idx, val) → (m, n) column-major index.
    pub fn layout_c_tv(&self) -> Result<Layout> {
        let ref_c = Layout::col_major(IntTuple::ints(&[self.tile_size(0)?, self.tile_size(1)?]))?;
        let frg = self.thrfrg(&ref_c, (0, 1), &self.atom.c)?;
        self.finish(frg, None)
    }

    /// CuTe `get_layoutA_TV()`: (thr_idx, val) → (m, k).
    pub fn layout_a_tv(&self) -> Result<Layout> {
        let ref_a = Layout::col_major(IntTuple::ints(&[self.tile_size(0)?, self.tile_size(2)?]))?;
        let frg = self.thrfrg(&ref_a, (0, 2), &self.atom.a)?;
        self.finish(frg, self.operand_sub(Operand::A)?)
    }

    /// CuTe `get_layoutB_TV()`: (thr_idx, val) → (n, k).
    pub fn layout_b_tv(&self) -> Result<Layout> {
        let ref_b = Layout::col_major(IntTuple::ints(&[self.tile_size(1)?, self.tile_size(2)?]))?;
        let frg = self.thrfrg(&ref_b, (1, 2), &self.atom.b)?;
        self.finish(frg, self.operand_sub(Operand::B)?)
    }
}

// ---------------------------------------------------------------------------------------
// TiledCopy
// ---------------------------------------------------------------------------------------

/// CuTe `TiledCopy`: a copy atom (with a value type) over a (thread, value) layout.
#[derive(Clone, Debug, PartialEq)]
pub struct TiledCopy {
    /// The atom, with `val_bits` set.
    pub atom: CopyAtom,
    /// `TiledLayout_TV`: (thr_idx, val_idx) → (m, n) index.
    pub layout_tv: Layout,
    /// `shape(Tiler_MN)`.
    pub tiler: IntTuple,
    /// A cotiled copy's `Tiler_MN` (`make_cotiled_copy`, `make_tmem_copy`): one layout per
    /// mode, the elements of the data each mode of the tile takes; `None` for a tile that
    /// is a shape.
    pub tiler_layouts: Option<Vec<Layout>>,
}

/// CuTe `make_tiled_copy(copy_atom, thr_layout, val_layout)`.
///
/// ```
/// use cute_core::atom::{make_tiled_copy, Atom};
/// let Atom::Copy(atom) = Atom::lookup("UniversalCopy_128").unwrap() else { unreachable!() };
/// let atom = atom.with_value_bits(16).unwrap();
/// let copy = make_tiled_copy(&atom, &"(16,8):(8,1)".parse().unwrap(), &"(1,8):(1,1)".parse().unwrap()).unwrap();
/// assert_eq!(copy.tiler.to_string(), "(16,64)");
/// ```
pub fn make_tiled_copy(atom: &CopyAtom, thr: &Layout, val: &Layout) -> Result<TiledCopy> {
    atom.val_bits_or_err()?;
    let (tiler, layout_tv) = alg::make_layout_tv(thr, val)?;
    make_tiled_copy_impl(atom, layout_tv, tiler)
}

/// CuTe `make_tiled_copy_A/B/C(copy_atom, tiled_mma)`: the copy that feeds operand
/// `which` (A, B or C) of the MMA, thread for thread.
///
/// ```
/// use cute_core::atom::{make_tiled_copy_operand, make_tiled_mma, Atom, Operand};
/// use cute_core::layout::Tiler;
/// let Atom::Mma(mma) = Atom::lookup("SM80_16x8x16_F16F16F16F16_TN").unwrap() else { unreachable!() };
/// let under = [Tiler::Under, Tiler::Under, Tiler::Under];
/// let mma = make_tiled_mma(&mma, &"(2,2,1)".parse().unwrap(), &under).unwrap();
/// let Atom::Copy(ldsm) = Atom::lookup("SM75_U32x4_LDSM_N").unwrap() else { unreachable!() };
/// let copy = make_tiled_copy_operand(&ldsm.with_value_bits(16).unwrap(), &mma, Operand::A).unwrap();
/// assert_eq!(copy.tiler.to_string(), "(32,16)");
/// ```
pub fn make_tiled_copy_operand(
    atom: &CopyAtom,
    mma: &TiledMma,
    which: Operand,
) -> Result<TiledCopy> {
    let (tv, tiler) = match which {
        Operand::A => (mma.layout_a_tv()?, [mma.tile_size(0)?, mma.tile_size(2)?]),
        Operand::B => (mma.layout_b_tv()?, [mma.tile_size(1)?, mma.tile_size(2)?]),
        Operand::C => (mma.layout_c_tv()?, [mma.tile_size(0)?, mma.tile_size(1)?]),
    };
    make_tiled_copy_impl(atom, tv, IntTuple::ints(&tiler))
}

/// CuTe `make_tiled_copy_impl(atom, layout_tv, tiler)`.
pub fn make_tiled_copy_impl(
    atom: &CopyAtom,
    layout_tv: Layout,
    tiler: IntTuple,
) -> Result<TiledCopy> {
    atom.val_bits_or_err()?;
    let r = atom.val_layout(&atom.ref_)?;
    let (athr, aval) = (r.mode(0)?.size()?, r.mode(1)?.size()?);
    let (tthr, tval) = (layout_tv.mode(0)?.size()?, layout_tv.mode(1)?.size()?);
    if tthr % athr != 0 {
        return Err(crate::err!(
            "TiledCopy uses too few threads for {}: {tthr} is not a multiple of {athr}",
            atom.name
        ));
    }
    if tval % aval != 0 {
        return Err(crate::err!(
            "TiledCopy uses too few values for {}: {tval} is not a multiple of {aval}",
            atom.name
        ));
    }
    let c = TiledCopy {
        atom: atom.clone(),
        layout_tv,
        tiler,
        tiler_layouts: None,
    };
    c.layout_s_tv()?;
    c.layout_d_tv()?;
    Ok(c)
}

impl TiledCopy {
    /// CuTe `tile2thrfrg(tensor, ref2trg)` unfolded: `(thr, val, rest)`.
    fn tile2thrfrg(&self, t: &Layout, ref2trg: &Layout) -> Result<Layout> {
        let r = self.atom.val_layout(&self.atom.ref_)?;
        let shape = IntTuple::ints(&[r.mode(0)?.size()?, r.mode(1)?.size()?]);
        let atom_tv = alg::zipped_divide(
            &self.layout_tv,
            &Tiler::Tuple(vec![
                Tiler::Int(shape.get(0)?.size()?),
                Tiler::Int(shape.get(1)?.size()?),
            ]),
        )?;
        let trg_tv = alg::composition_tiler(
            &atom_tv,
            &Tiler::Tuple(vec![Tiler::Layout(ref2trg.clone()), Tiler::Under]),
        )?;
        let zipped = alg::zip_layouts(&trg_tv.mode(0)?, &trg_tv.mode(1)?)?;
        let profile = IntTuple::Tuple(vec![IntTuple::Int(1), IntTuple::ints(&[1, 1])]);
        let thrval2mn = alg::coalesce(&zipped, Some(&profile))?;
        let tv = alg::composition_tiler(
            t,
            &Tiler::Tuple(vec![Tiler::Layout(thrval2mn), Tiler::Under]),
        )?;
        // tv(make_coord(_,_), _) then (_,_,0).
        let c = Coord::Tuple(vec![
            Coord::Tuple(vec![Coord::Under, Coord::Under]),
            Coord::Under,
        ]);
        tv.slice(&c)
    }

    /// `right_inverse(AtomLayoutRef).compose(AtomLayoutSrc/Dst)`.
    fn ref2trg(&self, trg: &Layout) -> Result<Layout> {
        let r = self.atom.val_layout(&self.atom.ref_)?;
        alg::composition(&alg::right_inverse(&r)?, &self.atom.val_layout(trg)?)
    }

    fn layout_x_tv(&self, trg: &Layout) -> Result<Layout> {
        let ref_shape = IntTuple::Tuple(vec![self.tiler.clone(), IntTuple::Int(1)]);
        let ref_l = Layout::col_major(ref_shape)?;
        let unfolded = self.tile2thrfrg(&ref_l, &self.ref2trg(trg)?)?;
        // (thr, val, (1)) → (thr, val).
        unfolded.slice(&Coord::Tuple(vec![
            Coord::Under,
            Coord::Under,
            Coord::Int(0),
        ]))
    }

    /// CuTe `tidfrg_S/D(layout)` of a tensor's layout, `(thr, val, rest)`, after checking
    /// the copy's tile divides its modes (`src`: the source side).
    pub fn tidfrg(&self, src: bool, layout: &Layout) -> Result<Layout> {
        let which = if src { 'S' } else { 'D' };
        let tile = self.tiler.product_each()?.leaves();
        if layout.rank() < tile.len() {
            return Err(crate::err!(
                "partition_{which}: the tensor's layout {layout} has fewer modes than the copy's tile {}",
                self.tiler
            ));
        }
        for (i, t) in tile.iter().enumerate() {
            let have = layout.mode(i)?.size()?;
            if *t == 0 || have % t != 0 {
                return Err(crate::err!(
                    "partition_{which}: mode {i} of the tensor ({have}) is not a multiple of the copy's tile ({t}, of {})",
                    self.tiler
                ));
            }
        }
        let tiler = match &self.tiler_layouts {
            Some(ls) => Tiler::Tuple(ls.iter().cloned().map(Tiler::Layout).collect()),
            None => Tiler::Tuple(tile.iter().map(|&t| Tiler::Int(t)).collect()),
        };
        let tiled = alg::zipped_divide(layout, &tiler)?;
        let trg = if src { &self.atom.src } else { &self.atom.dst };
        self.tile2thrfrg(&tiled, &self.ref2trg(trg)?)
    }

    /// Who owns what of a whole tile `shape` under `partition_S/D`: the TV layout
    /// `(thr_idx, (val, rest)) → ` column-major index of `shape`; thread `t`'s values are
    /// [`TiledCopy::partition`]'s of the column-major layout of `shape`, in its order.
    pub fn tv_over(&self, src: bool, shape: &IntTuple) -> Result<Layout> {
        let tv = self.tidfrg(src, &Layout::col_major(shape.clone())?)?;
        // (thr, val, rest) → (thr, (val, rest)).
        let (thr, val, rest) = (tv.mode(0)?, tv.mode(1)?, tv.mode(2)?);
        Ok(alg::make_layout(&[thr, alg::make_layout(&[val, rest])]))
    }

    /// CuTe `TiledCopy::retile(layout)` (what `retile_S/D` give a fragment): a thread's
    /// fragment `(V, RestM, RestN, ...)` re-tiled to the copy's `((atom_vals, rest_vals),
    /// RestM, RestN, ...)`, assuming its first `V` values are the first of the copy's
    /// `TiledLayout_TV`, as C++ does.
    ///
    /// ```
    /// use cute_core::atom::{make_tiled_copy_operand, make_tiled_mma, Atom, Operand};
    /// use cute_core::layout::Tiler;
    /// let Atom::Mma(mma) = Atom::lookup("SM80_16x8x16_F16F16F16F16_TN").unwrap() else { unreachable!() };
    /// let under = [Tiler::Under, Tiler::Under, Tiler::Under];
    /// let mma = make_tiled_mma(&mma, &"(2,2,1)".parse().unwrap(), &under).unwrap();
    /// let Atom::Copy(ldsm) = Atom::lookup("SM75_U32x4_LDSM_N").unwrap() else { unreachable!() };
    /// let copy = make_tiled_copy_operand(&ldsm.with_value_bits(16).unwrap(), &mma, Operand::A).unwrap();
    /// let frag = "((2,2,2),2,2):((1,2,4),16,8)".parse().unwrap(); // partition_fragment_A of 64x32
    /// assert_eq!(copy.retile(&frag).unwrap().to_string(), "((8,1),2,2):((1,0),16,8)");
    /// ```
    pub fn retile(&self, layout: &Layout) -> Result<Layout> {
        let (tiled, at) = self.retile_tiled(layout)?;
        tiled.slice(&at)
    }

    /// [`TiledCopy::retile`] before its last step, C++'s `v_tensor(_, append<R>(_0, _))`:
    /// the re-tiled layout and that coordinate. A tensor over a swizzled layout slices it as
    /// tensors slice (the swizzle decays where the slice no longer reaches its bits).
    pub fn retile_tiled(&self, layout: &Layout) -> Result<(Layout, Coord)> {
        let r = layout.rank();
        if r < 1 {
            return Err(crate::err!("retile: {layout} has no modes"));
        }
        let v = layout.mode(0)?.size()?;
        let threads = self.layout_tv.mode(0)?.size()?;
        let atom_vals = self.atom.val_layout(&self.atom.ref_)?.mode(1)?.size()?;
        let frg_mn = alg::upcast(
            crate::error::arith::mul(threads, v)?,
            &alg::right_inverse(&self.layout_tv)?.with_shape(self.tiler.clone())?,
        )?;
        let frg_v = alg::zipped_divide(
            &alg::logical_product(
                &Layout::col_major(IntTuple::Int(v))?,
                &Tiler::Layout(alg::right_inverse(&frg_mn)?),
            )?,
            &Tiler::Layout(Layout::col_major(IntTuple::Int(atom_vals))?),
        )?;
        let mut tile = vec![Tiler::Int(v)];
        for s in frg_mn.shape().product_each()?.leaves() {
            tile.push(Tiler::Int(s));
        }
        let tiled = alg::zipped_divide(layout, &Tiler::Tuple(tile))?;
        let composed = alg::composition_tiler(
            &tiled,
            &Tiler::Tuple(vec![Tiler::Layout(frg_v), Tiler::Under]),
        )?;
        // v_tensor(_, append<R>(_0, _)).
        let mut rest = vec![Coord::Int(0)];
        rest.resize(r.max(1), Coord::Under);
        Ok((
            composed,
            Coord::Tuple(vec![Coord::Under, Coord::Tuple(rest)]),
        ))
    }

    /// CuTe `ThrCopy::partition_S/D(tensor)` on the tensor's layout: thread `thr_idx`'s
    /// values of a tensor the copy tiles, `(CPY, CPY_M, CPY_N, ...)`, and the offset of
    /// its first element. `src`: the source side (`partition_S`), else the destination.
    ///
    /// ```
    /// use cute_core::atom::{make_tiled_copy, Atom};
    /// let Atom::Copy(atom) = Atom::lookup("UniversalCopy_128").unwrap() else { unreachable!() };
    /// let atom = atom.with_value_bits(16).unwrap();
    /// let copy = make_tiled_copy(&atom, &"(16,8):(8,1)".parse().unwrap(), &"(1,8)".parse().unwrap()).unwrap();
    /// let (l, off) = copy.partition(true, &"(128,64):(64,1)".parse().unwrap(), 9).unwrap();
    /// assert_eq!((l.to_string(), off), ("((8,1),8,1):((1,0),1024,0)".to_string(), 72));
    /// ```
    pub fn partition(&self, src: bool, layout: &Layout, thr_idx: i64) -> Result<(Layout, i64)> {
        let (tv, c) = self.partition_coord(src, layout, thr_idx)?;
        let offset = tv.call_coord(&c.start())?;
        Ok((tv.slice(&c)?, offset))
    }

    /// CuTe `ThrCopy::partition_S/D(tensor)` of a whole tensor (see
    /// [`TiledMma::partition_tensor`] for a swizzled layout in element units).
    pub fn partition_tensor(&self, src: bool, t: &Tensor, thr_idx: i64) -> Result<Tensor> {
        let (tv, c) = self.partition_coord(src, &t.layout, thr_idx)?;
        t.with_layout(tv)?.slice_dynamic(&c, &[true])
    }

    /// `tidfrg_S/D` of `layout` and thread `thr_idx`'s coordinate in it,
    /// `(thr_idx, _, (_,...))`.
    fn partition_coord(&self, src: bool, layout: &Layout, thr_idx: i64) -> Result<(Layout, Coord)> {
        let threads = self.layout_tv.mode(0)?.size()?;
        if thr_idx < 0 || thr_idx >= threads {
            return Err(crate::err!(
                "thread {thr_idx} is outside the TiledCopy's {threads} threads"
            ));
        }
        let tv = self.tidfrg(src, layout)?;
        // thr_tensor(thr_idx, _, repeat<rank>(_)).
        let rest = tv.mode(2)?.rank().max(1);
        let c = Coord::Tuple(vec![
            Coord::Int(thr_idx),
            Coord::Under,
            Coord::Tuple(vec![Coord::Under; rest]),
        ]);
        Ok((tv, c))
    }

    /// CuTe `get_layoutS_TV()`: (thr_idx, val_idx) → (m, n) of the source.
    pub fn layout_s_tv(&self) -> Result<Layout> {
        self.layout_x_tv(&self.atom.src)
    }

    /// CuTe `get_layoutD_TV()`: (thr_idx, val_idx) → (m, n) of the destination.
    pub fn layout_d_tv(&self) -> Result<Layout> {
        self.layout_x_tv(&self.atom.dst)
    }
}

// ---------------------------------------------------------------------------------------
// Printing (one line each: scripts print one line per result)
// ---------------------------------------------------------------------------------------

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Atom::Mma(m) => write!(
                f,
                "MMA_Atom {}: Shape_MNK {}, ThrID {}, ALayout {}, BLayout {}, CLayout {}",
                m.name, m.shape_mnk, m.thr_id, m.a, m.b, m.c
            ),
            Atom::Copy(c) => {
                let (s, d, r) = match (
                    c.val_layout(&c.src),
                    c.val_layout(&c.dst),
                    c.val_layout(&c.ref_),
                ) {
                    (Ok(s), Ok(d), Ok(r)) => (s, d, r),
                    _ => (c.src.clone(), c.dst.clone(), c.ref_.clone()),
                };
                match c.val_bits {
                    None => write!(f, "Copy_Atom {} (bits)", c.name)?,
                    Some(b) => write!(f, "Copy_Atom {} ({b}-bit values)", c.name)?,
                }
                write!(
                    f,
                    ": ThrID {}, SrcLayout {s}, DstLayout {d}, RefLayout {r}",
                    c.thr_id
                )?;
                match &c.op_assert {
                    Some(m) => write!(
                        f,
                        " (note: only its traits: C++ refuses to make or execute the op: {m})"
                    ),
                    None => Ok(()),
                }
            }
        }
    }
}

impl fmt::Display for TiledMma {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "TiledMMA {}: ThrLayoutVMNK {}, PermutationMNK ({},{},{})",
            self.atom.name, self.thr_layout_vmnk, self.perm[0], self.perm[1], self.perm[2]
        )?;
        if let Ok(t) = self.tile_shape() {
            write!(f, ", tile {t}")?;
        }
        Ok(())
    }
}

impl fmt::Display for TiledCopy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "TiledCopy {} ({}-bit values): Tiler_MN {}, TiledLayout_TV {}",
            self.atom.name,
            self.atom.val_bits.unwrap_or(0),
            self.tiler_mn(),
            self.layout_tv
        )
    }
}

impl TiledCopy {
    /// `Tiler_MN` as C++ prints it: a shape, or a cotiled copy's layouts (`((4,32):(32,1),8:1)`).
    pub fn tiler_mn(&self) -> String {
        match &self.tiler_layouts {
            None => self.tiler.to_string(),
            Some(ls) => format!(
                "({})",
                ls.iter()
                    .map(Layout::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }
}

/// CuTe `make_cotiled_copy(copy_atom, atom_tv_layout, data_layout)`: the TiledCopy whose
/// atom `(thr, val) → data address` lands on the addresses of `data_layout`, its tile the
/// data's elements it reaches, mode by mode.
pub fn make_cotiled_copy(atom: &CopyAtom, atom_tv: &Layout, data: &Layout) -> Result<TiledCopy> {
    let unit = Layout::new(IntTuple::Int(1), IntTuple::Int(0))?;
    // data addr -> data coord; off-the-end addresses to 0.
    let inv_data = alg::make_layout(&[alg::left_inverse(data)?, unit.clone()]);
    let tv_data = alg::composition(&inv_data, atom_tv)?;
    let back = alg::coalesce(
        &alg::composition(&alg::make_layout(&[data.clone(), unit]), &tv_data.mode(1)?)?,
        None,
    )?;
    if back != alg::coalesce(&atom_tv.mode(1)?, None)? {
        return Err(crate::err!(
            "make_cotiled_copy: the memory {} reaches does not exist in the data layout {data} (static_assert: The memory pointed to by AtomTVLayout does not exist in the DataLayout.)",
            atom.name
        ));
    }
    let flat = data.shape().product_each()?;
    let n = flat.rank();
    let mut tiler = Vec::with_capacity(n);
    for i in 0..n {
        let unit_i: Vec<i64> = (0..n).map(|k| i64::from(k == i)).collect();
        let proj = Layout::new(flat.clone(), IntTuple::ints(&unit_i))?;
        tiler.push(alg::filter(&alg::composition(&proj, &tv_data)?)?);
    }
    let tile2data = alg::composition_tiler(
        &Layout::col_major(flat)?,
        &Tiler::Tuple(tiler.iter().cloned().map(Tiler::Layout).collect()),
    )?;
    let layout_tv = alg::composition(&alg::left_inverse(&tile2data)?, &tv_data)?;
    let shape = IntTuple::Tuple(tiler.iter().map(|l| l.shape().clone()).collect());
    let mut c = make_tiled_copy_impl(atom, layout_tv, shape)?;
    c.tiler_layouts = Some(tiler);
    c.layout_s_tv()?;
    c.layout_d_tv()?;
    Ok(c)
}

impl GmmaOp {
    /// The atom of the op (a table row) with these majors (the traits are the same for
    /// every major; the DSL smem helpers read them).
    ///
    /// ```
    /// use cute_core::{gmma::GmmaOp, smem_atom::AtomMajor};
    /// let op: GmmaOp = "SM90_64x16x16_F32BF16BF16_SS".parse().unwrap();
    /// let atom = op.atom([AtomMajor::MN, AtomMajor::K]).unwrap();
    /// assert_eq!((atom.shape_mnk.to_string(), atom.mn_major), ("(64,16,16)".to_string(), [true, false]));
    /// ```
    pub fn atom(&self, majors: [AtomMajor; 2]) -> Result<MmaAtom> {
        let dense = MmaAtom::by_key(AtomKey::Gmma(self.dense()), || self.dense().to_string())?;
        let mut at = if self.sparse {
            sparse_atom(&dense)?
        } else {
            dense
        };
        at.mn_major = majors.map(|m| m == AtomMajor::MN);
        Ok(at)
    }
}

// Sparse GMMA traits from the dense ones (mma_traits_sm90_gmma_sparse.hpp).

/// `MMA_Traits<SM90::GMMA::SPARSE::GMMA_64xNx(2K)_...>` from the dense op's
/// `MMA_Traits<SM90_64xNxK_...>`, as `mma_traits_sm90_gmma_sparse.hpp` writes every one of
/// them: the logical K doubles, A is `ABLayout<64, 2K>` (SS) or `ALayout_64x(2K)` (RS), B is
/// `ABLayout<N, 2K>`, `ThrID` and `CLayout` are the dense op's; the metadata layout is
/// [`gmma::e_layout`]`(2K)` ([`gmma::sparse_e_layout`]).
///
/// ```
/// use cute_core::atom::Atom;
/// let Atom::Mma(dense) = Atom::lookup("SM90_64x8x16_F16F16F16_RS").unwrap() else { unreachable!() };
/// let sparse = cute_core::atom::sparse_atom(&dense).unwrap();
/// assert_eq!(sparse.name, "GMMA_64x8x32_F16F16F16_RS");
/// assert_eq!(sparse.a.to_string(), "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))");
/// ```
pub fn sparse_atom(dense: &MmaAtom) -> Result<MmaAtom> {
    let op: GmmaOp = dense.name.parse()?;
    if op.sparse {
        return Err(crate::err!("{op} is sparse already"));
    }
    let sp = op.sparse();
    Ok(MmaAtom {
        name: sp.to_string(),
        shape_mnk: IntTuple::ints(&[64, sp.n, sp.k]),
        thr_id: dense.thr_id.clone(),
        a: if sp.a_reg {
            gmma::a_layout_rs(sp.k)?
        } else {
            gmma::ab_layout(64, sp.k)?
        },
        b: gmma::ab_layout(sp.n, sp.k)?,
        c: dense.c.clone(),
        mn_major: dense.mn_major,
        params: Some(MmaParams::Gmma(sp)),
    })
}

// Typed keys of an atom, read from its name here, in the atom table's module, once: the
// language and the renderer ask these instead of testing names.

/// The architecture whose instruction an atom issues (`SM90_TMA_LOAD` is SM90's; SM103's
/// atoms are Blackwell datacenter's, SM100), `None` for the arch-neutral ones
/// (`UniversalCopy`, `UniversalFMA`).
fn arch_of_name(name: &str) -> Option<crate::arch::Arch> {
    use crate::arch::Arch;
    let sm = name.strip_prefix("SM")?;
    let digits: String = sm.chars().take_while(char::is_ascii_digit).collect();
    match digits.as_str() {
        "100" | "103" => Some(Arch::Sm100),
        "120" => Some(Arch::Sm120),
        "90" => Some(Arch::Sm90),
        "80" | "75" | "70" | "61" | "50" => Some(Arch::Sm80),
        _ => None,
    }
}

impl MmaAtom {
    /// The architecture of the MMA instruction, `None` for `UniversalFMA`.
    ///
    /// ```
    /// use cute_core::{arch::Arch, atom::Atom};
    /// let Atom::Mma(m) = Atom::lookup("SM90_64x128x16_F32F16F16_SS").unwrap() else { unreachable!() };
    /// assert_eq!(m.arch(), Some(Arch::Sm90));
    /// ```
    pub fn arch(&self) -> Option<crate::arch::Arch> {
        arch_of_name(&self.name)
    }

    /// Whether the MMA reads both operands from shared memory through descriptors (a GMMA
    /// `_SS` or any UMMA).
    ///
    /// ```
    /// use cute_core::atom::Atom;
    /// let Atom::Mma(ss) = Atom::lookup("SM90_64x128x16_F32F16F16_SS").unwrap() else { unreachable!() };
    /// let Atom::Mma(rs) = Atom::lookup("SM90_64x128x16_F32F16F16_RS").unwrap() else { unreachable!() };
    /// assert!(ss.reads_smem_descriptors() && !rs.reads_smem_descriptors());
    /// ```
    pub fn reads_smem_descriptors(&self) -> bool {
        match &self.params {
            Some(MmaParams::Umma(_)) => true,
            Some(MmaParams::Gmma(op)) => !op.a_reg,
            _ => false,
        }
    }
}

/// Which way a tensor-memory copy (`tcgen05.ld` / `tcgen05.st`) moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TmemCopy {
    /// TMEM → registers (`SM100_TMEM_LOAD_*`).
    Load,
    /// Registers → TMEM (`SM100_TMEM_STORE_*`).
    Store,
}

impl CopyAtom {
    /// The architecture of the copy instruction, `None` for `UniversalCopy`.
    pub fn arch(&self) -> Option<crate::arch::Arch> {
        arch_of_name(&self.name)
    }

    /// Whether this is a tensor-memory load or store, and which.
    ///
    /// ```
    /// use cute_core::atom::{Atom, TmemCopy};
    /// let Atom::Copy(ld) = Atom::lookup("SM100_TMEM_LOAD_32dp32b8x").unwrap() else { unreachable!() };
    /// assert_eq!(ld.tmem_copy(), Some(TmemCopy::Load));
    /// ```
    pub fn tmem_copy(&self) -> Option<TmemCopy> {
        if self.name.starts_with("SM100_TMEM_LOAD_") {
            Some(TmemCopy::Load)
        } else if self.name.starts_with("SM100_TMEM_STORE_") {
            Some(TmemCopy::Store)
        } else {
            None
        }
    }

    /// The `ValID` trait of a table atom that has one (the TMEM and UTCCP copies): which of
    /// the atom's values each lane's registers hold, `None` where the row has none.
    pub fn val_id(&self) -> Result<Option<Layout>> {
        table_trait(&self.name, "ValID")
            .map(|v| parse_layout(v, "ValID"))
            .transpose()
    }
}

impl CopyAtom {
    /// The table's copy atom of a typed key; where there is none, the "unknown atom" error
    /// of the name C++ would spell, `name()`.
    fn by_key(key: AtomKey, name: impl FnOnce() -> String) -> Result<CopyAtom> {
        Atom::by_key_or(key, name)?.into_copy()
    }

    /// `UniversalCopy<uint_bit_t<bits>>`: one thread moves `bits` bits.
    ///
    /// ```
    /// use cute_core::atom::CopyAtom;
    /// assert_eq!(CopyAtom::universal(128).unwrap().name, "UniversalCopy_128");
    /// assert!(CopyAtom::universal(24).is_err());
    /// ```
    pub fn universal(bits: i64) -> Result<CopyAtom> {
        CopyAtom::by_key(AtomKey::Universal(bits), || format!("UniversalCopy_{bits}"))
    }

    /// `ldmatrix` (`load`) or `stmatrix` of `count` 8x8 matrices, transposed or not:
    /// `SM75_U32x{n}_LDSM_N`, `SM75_U16x{2n}_LDSM_T`, `SM90_U32x{n}_STSM_N`, ...
    ///
    /// ```
    /// use cute_core::atom::CopyAtom;
    /// assert_eq!(CopyAtom::matrix(true, 4, true).unwrap().name, "SM75_U16x8_LDSM_T");
    /// ```
    pub fn matrix(load: bool, count: i64, trans: bool) -> Result<CopyAtom> {
        let (arch, kind) = if load {
            ("SM75", "LDSM")
        } else {
            ("SM90", "STSM")
        };
        let key = AtomKey::Matrix { load, count, trans };
        CopyAtom::by_key(key, || {
            if trans {
                format!("{arch}_U16x{}_{kind}_T", count.saturating_mul(2))
            } else {
                format!("{arch}_U32x{count}_{kind}_N")
            }
        })
    }

    /// A tensor-memory load or store, `SM100_TMEM_{LOAD,STORE}_{shape}{repeat}x[_16b]`
    /// (`shape` as `32dp32b`), `None` where the table has no such repetition.
    ///
    /// ```
    /// use cute_core::atom::{CopyAtom, TmemCopy};
    /// let ld = CopyAtom::tmem(TmemCopy::Load, "32dp32b", 8, false).unwrap().unwrap();
    /// assert_eq!(ld.name, "SM100_TMEM_LOAD_32dp32b8x");
    /// assert!(CopyAtom::tmem(TmemCopy::Load, "32dp32b", 3, false).is_none());
    /// ```
    pub fn tmem(dir: TmemCopy, shape: &str, repeat: i64, packed: bool) -> Option<Result<CopyAtom>> {
        let (dp, bits) = shape.strip_suffix('b')?.split_once("dp")?;
        let key = AtomKey::Tmem {
            dir,
            dp: dp.parse().ok()?,
            bits: bits.parse().ok()?,
            repeat,
            packed,
        };
        Atom::by_key(key).map(|a| a?.into_copy())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row a typed key reads is the one row of its key, and each family's
    /// constructor finds exactly the rows the old name spellings named.
    #[test]
    fn typed_keys_name_one_row_each() {
        let mut seen = std::collections::HashMap::new();
        let mut keyed = 0;
        for (kind, name, _) in table_rows().filter(|(k, _, _)| *k != "derive") {
            let Some(key) = AtomKey::of_name(name) else {
                continue;
            };
            keyed += 1;
            assert!(kind == "mma" || kind == "copy", "{name}: {kind}");
            if let Some(other) = seen.insert(key, name) {
                panic!("{name} and {other} share the key {key:?}");
            }
            assert_eq!(row_of(key), Some(name));
        }
        assert!(keyed > 300, "only {keyed} keyed rows");
        for bits in [8, 16, 32, 64, 128] {
            assert_eq!(
                CopyAtom::universal(bits).unwrap().name,
                format!("UniversalCopy_{bits}")
            );
        }
        for (load, count, trans, name) in [
            (true, 1, false, "SM75_U32x1_LDSM_N"),
            (true, 2, true, "SM75_U16x4_LDSM_T"),
            (false, 4, false, "SM90_U32x4_STSM_N"),
            (false, 4, true, "SM90_U16x8_STSM_T"),
        ] {
            assert_eq!(CopyAtom::matrix(load, count, trans).unwrap().name, name);
        }
        assert!(CopyAtom::matrix(true, 3, false)
            .unwrap_err()
            .msg
            .contains("SM75_U32x3_LDSM_N"));
        let st = CopyAtom::tmem(TmemCopy::Store, "16dp256b", 4, true);
        assert_eq!(st.unwrap().unwrap().name, "SM100_TMEM_STORE_16dp256b4x_16b");
        let op: CpAsyncOp = "SM80_CP_ASYNC_CACHEALWAYS_ZFILL".parse().unwrap();
        assert_eq!(
            CopyAtom::cp_async(op, 64).unwrap().name,
            "SM80_CP_ASYNC_CACHEALWAYS_ZFILL_64"
        );
        let m = MmaAtom::sm80_f16bf16(Elem::F16, Elem::F32, &[16, 8, 8]).unwrap();
        assert_eq!(m.name, "SM80_16x8x8_F32F16F16F32_TN");
        let sparse: GmmaOp = "GMMA_64x16x32_F16F16F16_RS".parse().unwrap();
        let a = sparse.atom([AtomMajor::K; 2]).unwrap();
        assert_eq!(
            Some(&a),
            Atom::lookup(&sparse.to_string())
                .ok()
                .as_ref()
                .and_then(|x| match x {
                    Atom::Mma(m) => Some(m),
                    Atom::Copy(_) => None,
                })
        );
    }
}
