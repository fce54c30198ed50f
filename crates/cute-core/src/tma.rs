//! Hopper TMA (`cp.async.bulk.tensor`): the shared-memory swizzle mode a tensor map needs
//! for a shared-memory layout, as `make_tma_copy` derives it (`get_tma_swizzle_bits`,
//! `get_tma_swizzle_base`, `to_CUtensorMapSwizzle`).
//!
//! ```
//! use cute_core::tma::tma_swizzle;
//! use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
//! let sw128 = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 16).unwrap();
//! assert_eq!(tma_swizzle(&sw128).unwrap(), "CU_TENSOR_MAP_SWIZZLE_128B");
//! let sw32b = smem_atom(AtomMajor::MN, AtomSwizzle::Sw128Base32B, 32).unwrap();
//! assert_eq!(tma_swizzle(&sw32b).unwrap(), "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B");
//! ```

use crate::error::{Error, Result};
use crate::swizzle::{AnyLayout, Swizzle};

/// The `CUtensorMapSwizzle` a TMA copy into a shared-memory layout uses. The layout's
/// swizzle is taken as written (`get_swizzle_portion`): the GMMA/UMMA atoms' byte-address
/// swizzle, `Sw<0,4,3>` for a plain layout. Errors carry CuTe's static_assert messages.
pub fn tma_swizzle(smem: &AnyLayout) -> Result<&'static str> {
    let sw = smem
        .swizzle()
        .map_or(Swizzle { b: 0, m: 4, s: 3 }, |(s, _)| s);
    let Swizzle { b, m, s } = sw;
    let err = |msg: &str| Err(Error::new(format!("{msg} ({sw})")));
    // get_tma_swizzle_bits
    let bits = match m {
        4 if !(0..=3).contains(&b) => {
            return err("Expected B = 0,1,2, or 3 when M == 4. Unsupported layout swizzle.")
        }
        4 => b,
        5 | 6 if b != 2 => {
            return err("Expected B = 2 when M == 5 or 6. Unsupported layout swizzle.")
        }
        5 | 6 => 3,
        _ => return err("Unsupported layout swizzle."),
    };
    // get_tma_swizzle_base: 16, 32 or 64 bytes
    let base = match m {
        4 if s != 3 => return err("Expected S = 3 when M == 4. Unsupported layout swizzle."),
        5 if s != 2 => return err("Expected S = 2 when M == 5. Unsupported layout swizzle."),
        4 => 16,
        5 => 32,
        _ => 64,
    };
    // to_CUtensorMapSwizzle
    Ok(match (bits, base) {
        (0, 16) => "CU_TENSOR_MAP_SWIZZLE_NONE",
        (1, 16) => "CU_TENSOR_MAP_SWIZZLE_32B",
        (2, 16) => "CU_TENSOR_MAP_SWIZZLE_64B",
        (3, 16) => "CU_TENSOR_MAP_SWIZZLE_128B",
        (3, 32) => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
        (3, 64) => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B",
        _ => {
            return err("Unsupported tma swizzle: no CUtensorMapSwizzle has this swizzle and base")
        }
    })
}
