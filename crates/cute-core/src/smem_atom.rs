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
use crate::layout::Layout;
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
        return Err(Error::new(format!(
            "element width {bits} bits: expected a power of two"
        )));
    }
    let in_bits = AnyLayout::Composed(ComposedLayout {
        swizzle: Swizzle::new(b, m, s)?,
        offset: Offset::SmemPtr { bits: 1 },
        layout,
    });
    in_bits.cast(bits, true)
}
