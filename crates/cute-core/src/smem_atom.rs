//! The shared-memory layout atoms of Hopper GMMA and Blackwell UMMA, exactly as
//! `mma_traits_sm90_gmma.hpp` and `mma_traits_sm100.hpp` define them: a swizzle on byte
//! addresses, the `smem_ptr` flag, and a layout in bits, upcast to the element type.
//!
//! ```
//! use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
//! let a = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 16).unwrap();
//! assert_eq!(a.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)");
//! ```

use crate::error::{Error, Result};
use crate::int_tuple::IntTuple;
use crate::layout::{self, Layout, ModeOrder, Tiler};
use crate::swizzle::{AnyLayout, ComposedLayout, Offset, Swizzle};

/// Which operand mode is contiguous: `GMMA::Major::MN` or `GMMA::Major::K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomMajor {
    /// M or N contiguous.
    MN,
    /// K contiguous.
    K,
}

/// The swizzle family of an atom (`INTER` is the unswizzled interleaved one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomSwizzle {
    /// `INTER`: `Sw<0,4,3>`, 16-byte rows.
    Inter,
    /// `SW32`: `Sw<1,4,3>`.
    Sw32,
    /// `SW64`: `Sw<2,4,3>`.
    Sw64,
    /// `SW128`: `Sw<3,4,3>`.
    Sw128,
    /// UMMA's `SW128_32B` (MN-major only): `Sw<2,5,2>`.
    Sw128Base32B,
}

impl AtomSwizzle {
    /// The C++ spelling (`INTER`, `SW32`, ..., `SW128_32B`).
    pub fn parse(s: &str) -> Option<AtomSwizzle> {
        Some(match s {
            "INTER" => AtomSwizzle::Inter,
            "SW32" => AtomSwizzle::Sw32,
            "SW64" => AtomSwizzle::Sw64,
            "SW128" => AtomSwizzle::Sw128,
            "SW128_32B" => AtomSwizzle::Sw128Base32B,
            _ => return None,
        })
    }
}

/// `Layout_{MN,K}_{INTER,SW32,SW64,SW128}_Atom<T>` (and UMMA's `Layout_MN_SW128_32B_Atom<T>`)
/// for `bits`-bit elements.
pub fn smem_atom(major: AtomMajor, sw: AtomSwizzle, bits: i64) -> Result<AnyLayout> {
    let (b, m, s, width) = match sw {
        AtomSwizzle::Inter => (0, 4, 3, 128),
        AtomSwizzle::Sw32 => (1, 4, 3, 256),
        AtomSwizzle::Sw64 => (2, 4, 3, 512),
        AtomSwizzle::Sw128 => (3, 4, 3, 1024),
        AtomSwizzle::Sw128Base32B => (2, 5, 2, 1024),
    };
    let rows = if sw == AtomSwizzle::Sw128Base32B {
        4
    } else {
        8
    };
    let layout = match (major, sw) {
        (AtomMajor::K, AtomSwizzle::Sw128Base32B) => return Err(Error::new(
            "Layout_K_SW128_32B_Atom does not exist: the 32B-atom 128B swizzle is MN-major only",
        )),
        (AtomMajor::MN, _) => {
            Layout::new(IntTuple::ints(&[width, rows]), IntTuple::ints(&[1, width]))?
        }
        (AtomMajor::K, _) => {
            Layout::new(IntTuple::ints(&[rows, width]), IntTuple::ints(&[width, 1]))?
        }
    };
    if bits <= 0 || bits.count_ones() != 1 {
        return Err(crate::err!(
            "element width {bits} bits: expected a power of two"
        ));
    }
    let in_bits = AnyLayout::Composed(ComposedLayout {
        swizzle: Swizzle::new(b, m, s)?,
        offset: Offset::SmemPtr { bits: 1 },
        layout,
    });
    in_bits.cast(bits, true)
}

impl AtomSwizzle {
    /// The swizzles of the GMMA atoms, widest first (`SW128`, `SW64`, `SW32`, `INTER`).
    pub const GMMA_WIDEST_FIRST: [AtomSwizzle; 4] = [
        AtomSwizzle::Sw128,
        AtomSwizzle::Sw64,
        AtomSwizzle::Sw32,
        AtomSwizzle::Inter,
    ];

    /// The C++ spelling (`INTER`, `SW32`, `SW64`, `SW128`, `SW128_32B`).
    ///
    /// ```
    /// use cute_core::smem_atom::AtomSwizzle;
    /// assert_eq!(AtomSwizzle::Sw128Base32B.name(), "SW128_32B");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            AtomSwizzle::Inter => "INTER",
            AtomSwizzle::Sw32 => "SW32",
            AtomSwizzle::Sw64 => "SW64",
            AtomSwizzle::Sw128 => "SW128",
            AtomSwizzle::Sw128Base32B => "SW128_32B",
        }
    }

    /// The bits one swizzle row spans (the atom's contiguous extent): 128 for `INTER`,
    /// 256, 512, 1024 for `SW32`, `SW64`, `SW128` (and `SW128_32B`).
    ///
    /// ```
    /// use cute_core::smem_atom::AtomSwizzle;
    /// assert_eq!(AtomSwizzle::Sw64.row_bits(), 512);
    /// ```
    pub fn row_bits(self) -> i64 {
        match self {
            AtomSwizzle::Inter => 128,
            AtomSwizzle::Sw32 => 256,
            AtomSwizzle::Sw64 => 512,
            AtomSwizzle::Sw128 | AtomSwizzle::Sw128Base32B => 1024,
        }
    }
}

/// The `SmemLayoutAtomKind` name of an atom (`K_SW128`, `MN_SW128_32B`), as CuTeDSL spells
/// it and C++'s `Layout_{KIND}_Atom<T>` contains it.
///
/// ```
/// use cute_core::smem_atom::{atom_kind_name, AtomMajor, AtomSwizzle};
/// assert_eq!(atom_kind_name(AtomMajor::MN, AtomSwizzle::Sw64), "MN_SW64");
/// ```
pub fn atom_kind_name(major: AtomMajor, sw: AtomSwizzle) -> &'static str {
    match (major, sw) {
        (AtomMajor::MN, AtomSwizzle::Inter) => "MN_INTER",
        (AtomMajor::MN, AtomSwizzle::Sw32) => "MN_SW32",
        (AtomMajor::MN, AtomSwizzle::Sw64) => "MN_SW64",
        (AtomMajor::MN, AtomSwizzle::Sw128) => "MN_SW128",
        (AtomMajor::MN, AtomSwizzle::Sw128Base32B) => "MN_SW128_32B",
        (AtomMajor::K, AtomSwizzle::Inter) => "K_INTER",
        (AtomMajor::K, AtomSwizzle::Sw32) => "K_SW32",
        (AtomMajor::K, AtomSwizzle::Sw64) => "K_SW64",
        (AtomMajor::K, AtomSwizzle::Sw128) => "K_SW128",
        (AtomMajor::K, AtomSwizzle::Sw128Base32B) => "K_SW128_32B",
    }
}

/// The major and swizzle a `SmemLayoutAtomKind` name spells (`MN_SW128_32B`); `None` for
/// a name that spells none. (`K_SW128_32B` is spelled, but [`smem_atom`] refuses it.)
///
/// ```
/// use cute_core::smem_atom::{atom_kind, AtomMajor, AtomSwizzle};
/// assert_eq!(atom_kind("K_SW32"), Some((AtomMajor::K, AtomSwizzle::Sw32)));
/// assert_eq!(atom_kind("K_SW16"), None);
/// ```
pub fn atom_kind(kind: &str) -> Option<(AtomMajor, AtomSwizzle)> {
    let (major, sw) = if let Some(sw) = kind.strip_prefix("MN_") {
        (AtomMajor::MN, sw)
    } else {
        (AtomMajor::K, kind.strip_prefix("K_")?)
    };
    Some((major, AtomSwizzle::parse(sw)?))
}

/// The widest GMMA/UMMA swizzle whose row (1024, 512, 256 bits; else the 128-bit
/// interleave) divides a major mode of `major_bits`, as the CuTeDSL helpers
/// (`get_smem_layout_atom`, `make_smem_layout_a/b`) choose it.
///
/// ```
/// use cute_core::smem_atom::{widest_swizzle, AtomSwizzle};
/// assert_eq!(widest_swizzle(64 * 16), AtomSwizzle::Sw128);
/// assert_eq!(widest_swizzle(24 * 16), AtomSwizzle::Inter);
/// ```
pub fn widest_swizzle(major_bits: i64) -> AtomSwizzle {
    AtomSwizzle::GMMA_WIDEST_FIRST
        .into_iter()
        .find(|sw| major_bits % sw.row_bits() == 0)
        .unwrap_or(AtomSwizzle::Inter)
}

/// CUTLASS `detail::ss_smem_selector<Major, Element, BLK_MN, BLK_K>()`
/// (`gemm/collective/builders/sm90_common.inl`): for an MN-major operand the widest
/// `Layout_MN_SW*_Atom` whose M/N extent divides BLK_MN, for K-major the widest
/// `Layout_K_SW*_Atom` whose K extent divides BLK_K; C++ refuses a tile no atom divides.
///
/// ```
/// use cute_core::smem_atom::{ss_smem_selector, AtomMajor, AtomSwizzle};
/// assert_eq!(ss_smem_selector(AtomMajor::K, 16, 128, 32).unwrap(), AtomSwizzle::Sw64);
/// assert!(ss_smem_selector(AtomMajor::K, 16, 128, 4).is_err());
/// ```
pub fn ss_smem_selector(
    major: AtomMajor,
    bits: i64,
    blk_mn: i64,
    blk_k: i64,
) -> Result<AtomSwizzle> {
    for (b, name) in [(blk_mn, "BLK_MN0"), (blk_k, "BLK_K0")] {
        if b % 8 != 0 {
            return Err(crate::err!(
                "the tile extent {b} is not a multiple of 8 (CUTLASS: \"{name} must be a multiple of 8.\")"
            ));
        }
    }
    let blk = match major {
        AtomMajor::MN => blk_mn,
        AtomMajor::K => blk_k,
    };
    for sw in AtomSwizzle::GMMA_WIDEST_FIRST {
        let atom = smem_atom(major, sw, bits)?;
        let extent = match major {
            AtomMajor::MN => atom.inner().mode(0)?.size()?,
            AtomMajor::K => atom.inner().mode(1)?.size()?,
        };
        if extent > 0 && blk % extent == 0 {
            return Ok(sw);
        }
    }
    let rule = match major {
        AtomMajor::MN => {
            "BLK_MN must be a multiple of size<0>(GMMA::Layout_MN_INTER_Atom<ElementType>{})"
        }
        AtomMajor::K => {
            "BLK_K0 must be a multiple of size<1>(GMMA::Layout_K_INTER_Atom<ElementType>{})"
        }
    };
    Err(crate::err!(
        "no GMMA smem atom of {bits}-bit elements divides the tile extent {blk} (CUTLASS: \"{rule}\")"
    ))
}

/// CUTLASS `detail::sm100_smem_selector<Major, Element, BLK_MN, BLK_K>()`
/// (`gemm/collective/builders/sm100_common.inl`): SM90's selector, except that a 32-bit
/// MN-major operand always takes `Layout_MN_SW128_32B_Atom` (its MN extent, 32, must divide
/// BLK_MN); both extents must be multiples of 8.
///
/// ```
/// use cute_core::smem_atom::{sm100_smem_selector, AtomMajor, AtomSwizzle};
/// assert_eq!(sm100_smem_selector(AtomMajor::MN, 32, 128, 32).unwrap(), AtomSwizzle::Sw128Base32B);
/// assert_eq!(sm100_smem_selector(AtomMajor::K, 16, 128, 64).unwrap(), AtomSwizzle::Sw128);
/// assert!(sm100_smem_selector(AtomMajor::MN, 32, 16, 32).is_err());
/// ```
pub fn sm100_smem_selector(
    major: AtomMajor,
    bits: i64,
    blk_mn: i64,
    blk_k: i64,
) -> Result<AtomSwizzle> {
    for (blk, name) in [(blk_mn, "BLK_MN0"), (blk_k, "BLK_K0")] {
        if blk % 8 != 0 {
            return Err(crate::err!(
                "the tile's {} extent {blk} is not a multiple of 8 (CUTLASS: \"{name} must be a multiple of 8.\")",
                if name == "BLK_K0" { "K" } else { "M/N" }
            ));
        }
    }
    if major == AtomMajor::MN && bits == 32 {
        if blk_mn % 32 != 0 {
            return Err(crate::err!(
                "an MN-major 32-bit operand takes Layout_MN_SW128_32B_Atom, whose 32 rows do not divide the tile's {blk_mn} (CUTLASS: \"for mn-major tf32 operands, SW128_32B is the only available smem layout\")"
            ));
        }
        return Ok(AtomSwizzle::Sw128Base32B);
    }
    ss_smem_selector(major, bits, blk_mn, blk_k).map_err(|_| {
        let (what, blk, mode) = match major {
            AtomMajor::MN => ("BLK_MN0", blk_mn, "size<0>(UMMA::Layout_MN_INTER_Atom<ElementType>{})"),
            AtomMajor::K => ("BLK_K0", blk_k, "size<1>(UMMA::Layout_K_INTER_Atom<ElementType>{})"),
        };
        crate::err!(
            "no UMMA smem atom of {bits}-bit elements divides the tile's {blk} (CUTLASS: \"{what} must be a multiple of {mode}\")"
        )
    })
}

/// CuTe `UMMA::tile_to_mma_shape(atom, ((MMA_M, MMA_K), M_MMAs, K_MMAs, ...), order)`:
/// `tile_to_shape` over `((MMA_M, M_MMAs), (MMA_K, K_MMAs), ...)`, then `tiled_divide` by
/// `(MMA_M, MMA_K)`, so the MMA's tile comes first; a swizzled atom keeps its swizzle.
///
/// ```
/// use cute_core::{int_tuple::IntTuple, layout::ModeOrder};
/// use cute_core::smem_atom::{smem_atom, tile_to_mma_shape, AtomMajor, AtomSwizzle};
/// let atom = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 16).unwrap();
/// let shape: IntTuple = "((128,16),1,4,7)".parse().unwrap();
/// let l = tile_to_mma_shape(&atom, &shape, &ModeOrder::Step(IntTuple::ints(&[1, 2, 3]))).unwrap();
/// assert_eq!(l.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o ((128,16),1,4,(1,7)):((64,1),0,16,(0,8192))");
/// ```
pub fn tile_to_mma_shape(
    atom: &AnyLayout,
    shape: &IntTuple,
    order: &ModeOrder,
) -> Result<AnyLayout> {
    let (IntTuple::Tuple(modes), true) = (shape, shape.rank() >= 3) else {
        return Err(crate::err!(
            "the MMA tile shape must be ((MMA_M, MMA_N), M_MMAs, N_MMAs, ...), got {shape}"
        ));
    };
    let mma = &modes[0];
    if mma.rank() != 2 || mma.is_int() {
        return Err(crate::err!(
            "mode 0 of the MMA tile shape must be (MMA_M, MMA_N), got {mma}"
        ));
    }
    let mut mn = vec![
        IntTuple::Tuple(vec![mma.get(0)?.clone(), modes[1].clone()]),
        IntTuple::Tuple(vec![mma.get(1)?.clone(), modes[2].clone()]),
    ];
    mn.extend(modes[3..].iter().cloned());
    let tiled = layout::tile_to_shape(atom.inner(), &IntTuple::Tuple(mn), order)
        .map_err(|e| e.within("tile_to_shape"))?;
    let tiler = Tiler::Tuple(vec![
        Tiler::Int(mma.get(0)?.size()?),
        Tiler::Int(mma.get(1)?.size()?),
    ]);
    let inner = layout::tiled_divide(&tiled, &tiler).map_err(|e| e.within("tiled_divide"))?;
    Ok(atom.with_inner(inner))
}

/// CuTeDSL `sm100_utils.get_smem_layout_atom_ab`'s choice of UMMA smem atom
/// (`cutlass/utils/blackwell_helpers.py`): the widest swizzle whose row divides the major
/// mode of `major` elements of `bits` bits, MN-major 32-bit types taking `SW128_32B` for
/// `SW128`; the major mode must be a multiple of 8 elements and of 128 bits.
///
/// ```
/// use cute_core::smem_atom::{umma_smem_atom_choice, AtomMajor, AtomSwizzle};
/// assert_eq!(umma_smem_atom_choice(AtomMajor::MN, 128, 32).unwrap(), AtomSwizzle::Sw128Base32B);
/// assert_eq!(umma_smem_atom_choice(AtomMajor::K, 64, 16).unwrap(), AtomSwizzle::Sw128);
/// assert!(umma_smem_atom_choice(AtomMajor::K, 12, 16).is_err());
/// ```
pub fn umma_smem_atom_choice(major: AtomMajor, major_size: i64, bits: i64) -> Result<AtomSwizzle> {
    let major_bits = crate::error::arith::mul(major_size, bits)?;
    if major_size % 8 != 0 || major_bits % 128 != 0 {
        return Err(crate::err!(
            "the major mode ({major_size} elements of {bits} bits) must be a multiple of 8 elements and 128 bits"
        ));
    }
    Ok(match (major, widest_swizzle(major_bits)) {
        (AtomMajor::MN, AtomSwizzle::Sw128) if bits == 32 => AtomSwizzle::Sw128Base32B,
        (_, sw) => sw,
    })
}
