//! # cute-core: CuTe's layout algebra, exactly
//!
//! A pure (no I/O, no web) implementation of NVIDIA CuTe's layout algebra with CuTe C++
//! semantics for static integers, and the expression language the page and the `render`
//! CLI share. Printed results match CuTe C++ `print()` character for character (with the
//! `_` of static integers dropped).
//!
//! Map of the crate:
//! - [`int_tuple`]: [`IntTuple`] (an integer or a nested tuple) and its operations —
//!   rank, depth, size, flatten, congruent, compatible, prefix_product, shape_div,
//!   ceil_div, idx2crd, crd2idx, crd2crd.
//! - [`layout`]: [`Layout`] and every algebra operation by its CuTe name — coalesce,
//!   filter, composition, complement, right/left_inverse, the divides and products,
//!   upcast/downcast/recast_layout, make_layout_tv.
//! - [`swizzle`]: [`Swizzle`] `Sw<B,M,S>` (masks exposed) and [`ComposedLayout`].
//! - [`atom`]: MMA and copy atoms with CuTe's traits, `make_tiled_mma`, `make_tiled_copy`
//!   and their thread-value layouts.
//! - [`bank`]: the shared-memory bank model (phases, wavefronts, swizzle search).
//! - [`desc`]: GMMA/UMMA shared-memory descriptors and the UMMA instruction descriptor.
//! - [`tma`]: the TMA swizzle mode of a shared-memory layout.
//! - [`tmem`]: Blackwell tensor memory: UMMA accumulators (`tmem_frg`) and `tcgen05.ld` registers.
//! - [`value`]: [`Value`], what an expression evaluates to, and its print format.
//! - [`expr`]: the expression language — [`eval_line`], [`Session`], [`run_script`].
//! - [`error`]: [`Error`], what went wrong and where.
//!
//! ```
//! use cute_core::eval_line;
//! let v = eval_line("zipped_divide((9,(4,8)):(59,(13,1)), (3:3,(2,4):(1,8)))").unwrap();
//! assert_eq!(v.to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod atom;
pub mod bank;
pub mod desc;
pub mod error;
pub mod expr;
pub mod int_tuple;
pub mod layout;
pub mod literal;
pub mod smem_atom;
pub mod swizzle;
pub mod tma;
pub mod tmem;
pub mod value;

pub use error::{Error, Result};
pub use expr::{
    eval_block, eval_line, format_result, print_one, print_script, run_script, ScriptLine, Session,
};
pub use int_tuple::IntTuple;
pub use layout::Layout;
pub use swizzle::{ComposedLayout, Swizzle};
pub use value::Value;
