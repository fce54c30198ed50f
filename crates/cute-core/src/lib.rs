//! # cute-core: CuTe's layout algebra and the hardware model, exactly
//!
//! A pure (no I/O, no dependencies, builds for wasm32) implementation of NVIDIA CuTe's
//! layout algebra with CuTe C++ semantics for static integers, and the model of the
//! hardware those layouts meet: MMA/copy atoms, shared-memory banks, GMMA/UMMA
//! descriptors, TMA and tensor memory. Every CuTe function lives here under its CuTe
//! name, as a typed function; the expression language (`cute-lang`) sits on top and knows
//! nothing this crate does not. Printed values match CuTe C++ `print()` character for
//! character (with the `_` of static integers dropped).
//!
//! Map of the crate:
//! - [`int_tuple`]: [`IntTuple`] (an integer or a nested tuple) and its operations —
//!   rank, depth, size, flatten, congruent, compatible, prefix_product, shape_div,
//!   ceil_div, idx2crd, crd2idx, crd2crd.
//! - [`layout`]: [`Layout`] and every algebra operation by its CuTe name — coalesce,
//!   filter, composition, complement, right/left_inverse, the divides and products,
//!   upcast/downcast/recast_layout, make_layout_tv.
//! - [`explain`]: the derivation of an algebra result as CuTe C++ computes it, one step a
//!   line in CuTe notation (composition, complement, inverses, divides, products, coalesce).
//! - [`swizzle`]: [`Swizzle`] `Sw<B,M,S>` (masks exposed) and [`ComposedLayout`].
//! - [`f2`]: a layout, swizzle or swizzled layout as a linear map over GF(2) on the bits of
//!   its index ([`f2::BitMatrix`], Triton's linear layouts), or the witness that it is none.
//! - [`literal`]: the reader of CuTe's printed literals (`(4,8):(8,1)`), behind `str::parse`.
//! - [`atom`]: MMA and copy atoms with CuTe's traits, `make_tiled_mma`, `make_tiled_copy`
//!   and their thread-value layouts; [`smem_atom`]: the GMMA/UMMA shared-memory atoms.
//! - [`elem`]: [`elem::Elem`], CuTe's element types (bits, C++ name, MMA-name letters).
//! - [`gmma`], [`umma`], [`sm120`]: the SM90 GMMA, SM100 UMMA and SM120 MMA ops by their
//!   typed parts (name grammar, K rule, the C++ `static_assert`s, CUTLASS's selectors; the
//!   sparse GMMA traits derived from the dense ones).
//! - [`bank`]: the shared-memory bank model (phases, wavefronts, swizzle search).
//! - [`desc`]: GMMA/UMMA shared-memory descriptors and the UMMA instruction descriptor.
//! - [`tma`]: the TMA swizzle mode and box of a shared-memory layout.
//! - [`tmem`]: Blackwell tensor memory: UMMA accumulators (`tmem_frg`) and `tcgen05.ld` registers.
//! - [`compare`]: `functionally_equal` of two sampled functions, and where they differ.
//! - [`error`]: [`Error`], what went wrong and where.
//!
//! ```
//! use cute_core::{layout::{zipped_divide, Tiler}, Layout};
//! let a: Layout = "(9,(4,8)):(59,(13,1))".parse().unwrap();
//! let tiler = Tiler::Tuple(vec![Tiler::Layout("3:3".parse().unwrap()), Tiler::Layout("(2,4):(1,8)".parse().unwrap())]);
//! assert_eq!(zipped_divide(&a, &tiler).unwrap().to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod arch;
pub mod atom;
pub mod bank;
pub mod basis;
pub mod collective;
pub mod compare;
pub mod desc;
pub mod elem;
pub mod epilogue;
pub mod error;
pub mod explain;
pub mod f2;
pub mod gmem;
pub mod gmma;
pub mod int_tuple;
pub mod layout;
pub mod literal;
pub mod sm120;
pub mod smem_atom;
pub mod swizzle;
pub mod tensor;
pub mod tma;
pub mod tma_copy;
pub mod tmem;
mod trace;
pub mod umma;

pub use error::{Error, Result};
pub use int_tuple::IntTuple;
pub use layout::Layout;
pub use swizzle::{ComposedLayout, Swizzle};
