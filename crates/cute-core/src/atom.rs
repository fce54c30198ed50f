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
use crate::error::{Error, Result};
use crate::int_tuple::{Coord, IntTuple};
use crate::layout::{self as alg, Layout, Tiler};
use std::fmt;

/// The generated table: `kind<TAB>NAME<TAB>Trait=VALUE...` per line, `#` comments.
const TABLE: &str = include_str!("atoms.tsv");

/// The names of every known atom, in table order.
pub fn atom_names() -> impl Iterator<Item = &'static str> {
    table_rows().map(|(_, name, _)| name)
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

/// One trait of a table row as C++ printed it, `None` if the row or the trait is absent:
/// also the traits only some atoms have (`ELayout` of the sparse MMAs, `SFALayout` /
/// `SFBLayout` of the block-scaled SM120 MMAs, `ValID` of the TMEM and UTCCP copies).
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
        _ => Err(Error::new(format!("{known}, not {t}"))),
    }
}

/// Whether `name` is a known atom (cheap: no parsing of its traits).
pub fn is_atom_name(name: &str) -> bool {
    atom_names().any(|n| n == name)
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
    crate::literal::layout(s).map_err(|e| Error::new(format!("atom table: {what}: {}", e.msg)))
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
        let Some((kind, name, rest)) = table_rows().find(|(_, n, _)| *n == name) else {
            return Err(unknown_atom(name));
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
                .ok_or_else(|| Error::new(format!("atom table: {name} has no {k}")))
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
            })),
            _ => Ok(Atom::Copy(CopyAtom {
                name: name.to_string(),
                thr_id: parse_layout(get("ThrID")?, "ThrID")?,
                src: parse_layout(get("SrcLayout")?, "SrcLayout")?,
                dst: parse_layout(get("DstLayout")?, "DstLayout")?,
                ref_: parse_layout(get("RefLayout")?, "RefLayout")?,
                val_bits: None,
            })),
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
                _ => optional_trait(
                    &m.name,
                    t,
                    "an MMA atom has Shape_MNK, ThrID, ALayout, BLayout and CLayout (sparse ones ELayout, block-scaled SM120 ones SFALayout and SFBLayout)",
                ),
            },
            Atom::Copy(c) => match t {
                "ThrID" => Ok(Trait::Layout(c.thr_id.clone())),
                "SrcLayout" | "ValLayoutSrc" => Ok(Trait::Layout(c.val_layout(&c.src)?)),
                "DstLayout" | "ValLayoutDst" => Ok(Trait::Layout(c.val_layout(&c.dst)?)),
                "RefLayout" | "ValLayoutRef" => Ok(Trait::Layout(c.val_layout(&c.ref_)?)),
                _ => optional_trait(
                    &c.name,
                    t,
                    "a copy atom has ThrID, SrcLayout, DstLayout and RefLayout (TMEM and UTCCP ones ValID, in bits)",
                ),
            },
        }
    }
}

fn unknown_atom(name: &str) -> Error {
    let near = atom_names()
        .filter(|n| n.starts_with(name) || crate::error::edit_distance(n, name) <= 3)
        .take(3)
        .collect::<Vec<_>>();
    if near.is_empty() {
        Error::new(format!(
            "unknown atom '{name}' (the table has the SM61-SM90 MMA atoms incl. every dense and sparse GMMA, the SM100 SIMD and SM120 MMAs, LDSM/STSM, MOVM, UniversalCopy_N, SM80_CP_ASYNC_*_N, DefaultCopy, the SM100 TMEM load/store and UTCCP copies; SM100 UMMA atoms are templates: SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>)"
        ))
    } else {
        Error::new(format!(
            "unknown atom '{name}' (did you mean {}?)",
            near.join(", ")
        ))
    }
}

impl CopyAtom {
    /// The atom with a value type of `bits` bits, as `Copy_Atom<Op, uint_bit_t<bits>>`.
    pub fn with_value_bits(&self, bits: i64) -> Result<CopyAtom> {
        let mut c = self.clone();
        c.val_bits = Some(bits);
        let nthr = c.thr_id.size()?;
        for (what, l) in [("Src", &c.src), ("Dst", &c.dst), ("Ref", &c.ref_)] {
            let v = c.val_layout(l)?;
            if v.mode(0)?.size()? != nthr {
                return Err(Error::new(format!(
                    "{} is not valid for {what} with {bits}-bit values",
                    c.name
                )));
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
            Error::new(format!(
                "the copy atom needs a value type: atom({}, half_t) or atom({}, 16)",
                self.name, self.name
            ))
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
        let n = self.name.as_str();
        let width = || -> Result<u32> {
            n.rsplit('_')
                .next()
                .and_then(|b| b.parse().ok())
                .ok_or_else(|| Error::new(format!("{n}: the atom's name gives no access width")))
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
            return Err(Error::new(format!(
                "{n}: the copy names no access width (name the instruction: bank_conflicts(smem, tiled_copy, LDS128))"
            )));
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
            return Err(Error::new(format!(
                "{n}: no shared-memory instruction is known for this copy atom (name one: bank_conflicts(smem, tiled_copy, LDS128))"
            )));
        };
        instr.check()?;
        Ok(instr)
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
    /// `MMA_Traits<SM100_MMA_*<A, B, C, M, N, ...>>` of a `tcgen05.mma` (UMMA) atom, as
    /// `mma_traits_sm100.hpp` defines them: K is 256 bits of the A type; one CTA issues it
    /// (`ThrID` 1) or a CTA pair (`2x1SM`: `ThrID` 2, each CTA holding half of M and of N).
    ///
    /// ```
    /// use cute_core::atom::MmaAtom;
    /// let a = MmaAtom::umma("SM100_MMA_F16BF16_2x1SM_SS".into(), 16, 256, 128, true).unwrap();
    /// assert_eq!(a.shape_mnk.to_string(), "(256,128,16)");
    /// assert_eq!(a.a.to_string(), "(2,(128,16)):(128,(1,256))");
    /// ```
    pub fn umma(name: String, a_bits: i64, m: i64, n: i64, two_sm: bool) -> Result<MmaAtom> {
        if a_bits <= 0 || 256 % a_bits != 0 {
            return Err(Error::new(format!(
                "{name}: a {a_bits}-bit A type does not divide the 256-bit K of tcgen05.mma"
            )));
        }
        let cta = if two_sm { 2 } else { 1 };
        if m <= 0 || n <= 0 || m % cta != 0 || n % cta != 0 {
            return Err(Error::new(format!(
                "{name}: M = {m} and N = {n} must be positive{}",
                if two_sm {
                    " and even (each CTA of the pair holds half)"
                } else {
                    ""
                }
            )));
        }
        let k = 256 / a_bits;
        let (hm, hn) = (m / cta, n / cta);
        let lay = |s: String| crate::literal::layout(&s);
        let thr = if two_sm { hm } else { 0 };
        let thr_n = if two_sm { hn } else { 0 };
        Ok(MmaAtom {
            shape_mnk: IntTuple::ints(&[m, n, k]),
            thr_id: Layout::col_major(IntTuple::Int(cta))?,
            a: lay(format!("({cta},({hm},{k})):({thr},(1,{m}))"))?,
            b: lay(format!("({cta},({hn},{k})):({thr_n},(1,{n}))"))?,
            c: lay(format!("({cta},({hm},{n})):({thr},(1,{m}))"))?,
            name,
            mn_major: [false, false],
        })
    }

    /// `MMA_Traits<UniversalFMA<D, A, B, C>>`: one thread, one multiply-add.
    pub fn universal_fma(name: String) -> Result<MmaAtom> {
        let one = crate::literal::layout("(1,1):(0,0)")?;
        Ok(MmaAtom {
            name,
            shape_mnk: IntTuple::ints(&[1, 1, 1]),
            thr_id: Layout::col_major(IntTuple::Int(1))?,
            a: one.clone(),
            b: one.clone(),
            c: one,
            mn_major: [false, false],
        })
    }

    /// `make_tiled_mma(atom)`: one atom, no permutation.
    pub fn tiled(&self) -> Result<TiledMma> {
        make_tiled_mma(self, &Layout::col_major(IntTuple::ints(&[1, 1, 1]))?, &[])
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
/// use cute_core::atom::{make_tiled_mma, Atom};
/// use cute_core::layout::Tiler;
/// let Atom::Mma(atom) = Atom::lookup("SM80_16x8x16_F16F16F16F16_TN").unwrap() else { unreachable!() };
/// let under = [Tiler::Under, Tiler::Under, Tiler::Under];
/// let mma = make_tiled_mma(&atom, &"(2,2,1)".parse().unwrap(), &under).unwrap();
/// assert_eq!(mma.tile_shape().unwrap().to_string(), "(32,16,16)");
/// ```
pub fn make_tiled_mma(atom: &MmaAtom, atom_layout: &Layout, perm: &[Tiler]) -> Result<TiledMma> {
    if atom_layout.rank() > 3 {
        return Err(Error::new(format!(
            "the atom layout {atom_layout} has rank {} (at most 3: M, N, K)",
            atom_layout.rank()
        )));
    }
    if perm.len() > 3 {
        return Err(Error::new(format!(
            "the permutation has {} modes (at most 3: M, N, K)",
            perm.len()
        )));
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
    /// use cute_core::atom::{make_tiled_mma, Atom};
    /// use cute_core::layout::Tiler;
    /// let Atom::Mma(atom) = Atom::lookup("SM80_16x8x16_F16F16F16F16_TN").unwrap() else { unreachable!() };
    /// let under = [Tiler::Under, Tiler::Under, Tiler::Under];
    /// let mma = make_tiled_mma(&atom, &"(2,2,1)".parse().unwrap(), &under).unwrap();
    /// assert_eq!(mma.partition_shape('C', &"(64,64)".parse().unwrap()).unwrap().to_string(), "((2,2),2,4)");
    /// ```
    pub fn partition_shape(&self, which: char, shape: &IntTuple) -> Result<IntTuple> {
        let dummy = Layout::col_major(shape.clone())?;
        if dummy.rank() < 2 {
            return Err(Error::new(format!(
                "partition_shape_{which}: the shape {shape} must have at least two modes"
            )));
        }
        let (modes, atom_tv) = match which {
            'A' => ((0, 2), &self.atom.a),
            'B' => ((1, 2), &self.atom.b),
            _ => ((0, 1), &self.atom.c),
        };
        let tv = self.thrfrg(&dummy, modes, atom_tv)?;
        let rest = Coord::Tuple(vec![Coord::Under; dummy.rank()]);
        let c = Coord::Tuple(vec![Coord::Int(0), Coord::Tuple(vec![Coord::Under, rest])]);
        Ok(tv.slice(&c)?.shape().clone())
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
        let sub = Layout::new(
            IntTuple::ints(&[self.vmnk_size(1)?, self.vmnk_size(2)?]),
            IntTuple::ints(&[1, 0]),
        )?;
        self.finish(frg, Some(sub))
    }

    /// CuTe `get_layoutB_TV()`: (thr_idx, val) → (n, k).
    pub fn layout_b_tv(&self) -> Result<Layout> {
        let ref_b = Layout::col_major(IntTuple::ints(&[self.tile_size(1)?, self.tile_size(2)?]))?;
        let frg = self.thrfrg(&ref_b, (1, 2), &self.atom.b)?;
        let sub = Layout::new(
            IntTuple::ints(&[self.vmnk_size(1)?, self.vmnk_size(2)?]),
            IntTuple::ints(&[0, 1]),
        )?;
        self.finish(frg, Some(sub))
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
    /// `Tiler_MN`.
    pub tiler: IntTuple,
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
/// `which` (`'A'`, `'B'` or `'C'`) of the MMA, thread for thread.
///
/// ```
/// use cute_core::atom::{make_tiled_copy_operand, make_tiled_mma, Atom};
/// use cute_core::layout::Tiler;
/// let Atom::Mma(mma) = Atom::lookup("SM80_16x8x16_F16F16F16F16_TN").unwrap() else { unreachable!() };
/// let under = [Tiler::Under, Tiler::Under, Tiler::Under];
/// let mma = make_tiled_mma(&mma, &"(2,2,1)".parse().unwrap(), &under).unwrap();
/// let Atom::Copy(ldsm) = Atom::lookup("SM75_U32x4_LDSM_N").unwrap() else { unreachable!() };
/// let copy = make_tiled_copy_operand(&ldsm.with_value_bits(16).unwrap(), &mma, 'A').unwrap();
/// assert_eq!(copy.tiler.to_string(), "(32,16)");
/// ```
pub fn make_tiled_copy_operand(atom: &CopyAtom, mma: &TiledMma, which: char) -> Result<TiledCopy> {
    let (tv, tiler) = match which {
        'A' => (mma.layout_a_tv()?, [mma.tile_size(0)?, mma.tile_size(2)?]),
        'B' => (mma.layout_b_tv()?, [mma.tile_size(1)?, mma.tile_size(2)?]),
        _ => (mma.layout_c_tv()?, [mma.tile_size(0)?, mma.tile_size(1)?]),
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
        return Err(Error::new(format!(
            "TiledCopy uses too few threads for {}: {tthr} is not a multiple of {athr}",
            atom.name
        )));
    }
    if tval % aval != 0 {
        return Err(Error::new(format!(
            "TiledCopy uses too few values for {}: {tval} is not a multiple of {aval}",
            atom.name
        )));
    }
    let c = TiledCopy {
        atom: atom.clone(),
        layout_tv,
        tiler,
    };
    c.layout_s_tv()?;
    c.layout_d_tv()?;
    Ok(c)
}

impl TiledCopy {
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
        let unfolded = tv.slice(&c)?;
        unfolded.slice(&Coord::Tuple(vec![
            Coord::Under,
            Coord::Under,
            Coord::Int(0),
        ]))
    }

    fn layout_x_tv(&self, trg: &Layout) -> Result<Layout> {
        let ref_shape = IntTuple::Tuple(vec![self.tiler.clone(), IntTuple::Int(1)]);
        let ref_l = Layout::col_major(ref_shape)?;
        let r = self.atom.val_layout(&self.atom.ref_)?;
        let ref2trg = alg::composition(&alg::right_inverse(&r)?, &self.atom.val_layout(trg)?)?;
        self.tile2thrfrg(&ref_l, &ref2trg)
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
                )
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
            self.tiler,
            self.layout_tv
        )
    }
}
