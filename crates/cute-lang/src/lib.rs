//! # cute-lang: the expression language over CuTe's algebra
//!
//! Parse → evaluate → print, on top of [`cute_core`]. What users paste from CuTe C++ and
//! CuTeDSL code (one line, a script of `NAME = expr` bindings, or a block with `using`,
//! `constexpr` and comments) becomes a [`Value`] that prints exactly as CuTe C++ `print()`
//! prints it (with the `_` of static integers dropped). The language knows functions only
//! through its op table ([`OPS`]); every row converts its arguments and calls one typed
//! algebra function of `cute_core`.
//!
//! Map of the crate, bottom layer first; a module imports only its own layer or those
//! below it, and no files import each other in a circle (`tests/architecture.rs` reads
//! the imports and holds both):
//! - syntax: `lex` (tokens), `block` (C++/CuTeDSL blocks: statements, comments,
//!   dialects), `parse` (the recursive-descent parser and the namespaces read through,
//!   [`NAMESPACES`]). Knows no values.
//! - values: [`value`] ([`Value`], what an expression evaluates to, and its print format)
//!   and `convert` (conversions of values to the typed arguments of the algebra).
//! - [`ops`]: the op table ([`OPS`]), one row per function, each converting its arguments
//!   and calling one typed `cute_core` function; the bodies by subject (`algebra`, `atoms`,
//!   `tensors`, `partitions`, `tma`, `descriptors`, `families`, `smem`).
//! - `types`: what C++ spells as a type: the type table ([`TYPES`]), the plain names
//!   (`names`), and the ordered resolvers of `Name<targs>` (`resolve`: smem atoms, the
//!   UMMA/SM120 families, CUTLASS's dispatch policies, the table, GMMA ops).
//! - `eval`: the evaluator and its bindings ([`Env`]).
//! - [`session`]: [`Session`], [`eval_line`], [`run_script`], [`eval_block`] and the
//!   `render --print` lines ([`print_one`], [`print_script`], [`format_result`]).
//! - [`kernel`]: the whole-kernel report of a pasted configuration.
//!
//! The docs' tables and the fuzz dictionary are generated from the op and type tables
//! (`tests/op_table_docs.rs`).
//!
//! ```
//! use cute_lang::eval_line;
//! let v = eval_line("zipped_divide((9,(4,8)):(59,(13,1)), (3:3,(2,4):(1,8)))").unwrap();
//! assert_eq!(v.to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// The first picture's build (no `full`) leaves most of the language unreferenced.
#![cfg_attr(not(feature = "full"), allow(dead_code, unused_imports))]

/// A table row's help text (parameters, meaning): the light build (the page's first
/// picture) reads none of it, so it leaves it out; `keep` holds it there too (the algebra
/// view's caption).
macro_rules! help {
    ($text:literal) => {
        help!($text, false)
    };
    ($text:literal, $keep:expr) => {
        if cfg!(feature = "full") || $keep {
            $text
        } else {
            ""
        }
    };
}

mod block;
mod convert;
mod eval;
mod host;
pub mod kernel;
mod lex;
pub mod ops;
mod parse;
pub mod session;
mod types;
pub mod value;
pub mod words;

/// Whether this build knows the whole language (the default `full` feature); without it,
/// only the algebra, swizzles and TV layouts (the page's first-picture module).
pub const FULL: bool = cfg!(feature = "full");

pub use eval::Env;
pub use lex::MAX_LINE_BYTES;
#[cfg(feature = "full")]
pub use ops::explain::{explain_call, EXPLAINED};

/// `functionally_equal(a, b)` of two values (the page's compare mode compares two tabs'
/// values without writing a call).
///
/// ```
/// let a = cute_lang::eval_line("(4,8):(1,4)").unwrap();
/// let b = cute_lang::eval_line("32:1").unwrap();
/// assert_eq!(cute_lang::functionally_equal(&a, &b).unwrap().to_string(), "true");
/// ```
#[cfg(feature = "full")]
pub fn functionally_equal(a: &Value, b: &Value) -> cute_core::Result<Value> {
    Ok(Value::Compare(Box::new(ops::compare::compare(a, b)?)))
}
pub use ops::{function_names, lookup, Op, Targs, OPS};
pub use parse::{MAX_NESTING, NAMESPACES};
pub use session::{
    eval_block, eval_line, format_result, print_one, print_script, run_script, Call, HostFunction,
    Note, ScriptLine, Session,
};
pub use types::names::KEYWORDS;
pub use types::table::{lookup_type, TypeRow, TYPES};
pub use value::{Explained, Value};
