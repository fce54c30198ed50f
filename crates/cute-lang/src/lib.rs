//! # cute-lang: the expression language over CuTe's algebra
//!
//! Parse → evaluate → print, on top of [`cute_core`]. What users paste from CuTe C++ and
//! CuTeDSL code (one line, a script of `NAME = expr` bindings, or a block with `using`,
//! `constexpr` and comments) becomes a [`Value`] that prints exactly as CuTe C++ `print()`
//! prints it (with the `_` of static integers dropped). The language knows functions only
//! through its op table ([`OPS`]); every row converts its arguments and calls one typed
//! algebra function of `cute_core`.
//!
//! Map of the crate:
//! - [`session`]: [`Session`], [`eval_line`], [`run_script`], [`eval_block`] and the
//!   `render --print` lines ([`print_one`], [`print_script`], [`format_result`]).
//! - `lex`, `parse`, `block`: tokens, the recursive-descent parser, C++/CuTeDSL blocks
//!   (statements, comments, dialects).
//! - `eval`: the evaluator and its bindings ([`Env`]).
//! - [`ops`]: the op table ([`OPS`]), one row per function; `types`: the type table
//!   ([`TYPES`]: class templates and type traits, rows shaped like the op rows), the
//!   namespaces read through ([`NAMESPACES`]), keywords and the smem-atom templates. The
//!   docs' tables and the fuzz dictionary are generated from them (`tests/op_table_docs.rs`).
//! - `policy`: CUTLASS's mainloop dispatch policies (a generated table, a typed reader).
//! - `convert`: the one leaf module of value conversions to typed arguments (element
//!   types, widths, majors, layouts) that the rows share.
//! - `atom_args`, `desc_args`, `tmem_args`, `families`: argument conversions for atoms,
//!   descriptors, tensor memory and the GMMA/UMMA/SM120 families, each calling typed
//!   `cute_core` functions.
//! - [`value`]: [`Value`], what an expression evaluates to, and its print format.
//!
//! ```
//! use cute_lang::eval_line;
//! let v = eval_line("zipped_divide((9,(4,8)):(59,(13,1)), (3:3,(2,4):(1,8)))").unwrap();
//! assert_eq!(v.to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod atom_args;
mod block;
mod convert;
mod desc_args;
mod eval;
mod families;
pub mod kernel;
mod lex;
pub mod ops;
mod parse;
mod policy;
pub mod session;
pub mod tensor_args;
mod tmem_args;
mod types;
pub mod value;

pub use eval::Env;
pub use ops::{function_names, lookup, Op, Targs, OPS};
pub use parse::{MAX_LINE_BYTES, MAX_NESTING};
pub use session::{
    eval_block, eval_line, format_result, print_one, print_script, run_script, Call, ScriptLine,
    Session,
};
pub use types::{lookup_type, TypeRow, KEYWORDS, NAMESPACES, TYPES};
pub use value::Value;
