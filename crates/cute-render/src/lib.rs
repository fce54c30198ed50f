//! # cute-render
//!
//! The renderer crate of CuTe Layout Explorer. Today it holds the text mode that
//! `render --print` uses ([`print_script`], [`print_one`]); the SVG views build on the same
//! entry points.

use cute_core::{format_result, Session};
use std::io::{self, Write};

/// Evaluate one expression and return the line `render --print` prints, and whether it failed.
///
/// ```
/// let (text, ok) = cute_render::print_one("coalesce((2,4):(1,2))");
/// assert_eq!(text, "8:1");
/// assert!(ok);
/// ```
pub fn print_one(expr: &str) -> (String, bool) {
    let mut session = Session::default();
    match session.eval(expr) {
        Some(r) => (format_result(&r), r.is_ok()),
        None => ("error: empty expression".to_string(), false),
    }
}

/// Evaluate a script line by line into `out` (one output line per evaluated line,
/// bindings carried, evaluation continues after errors). Returns the number of failed lines.
///
/// ```
/// let mut out = Vec::new();
/// let failed = cute_render::print_script("A = 8:1\nsize(A)\nfoo(1)\n", &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap().lines().next(), Some("8"));
/// assert_eq!(failed, 1);
/// ```
pub fn print_script(src: &str, out: &mut impl Write) -> io::Result<usize> {
    let mut session = Session::default();
    let mut failed = 0;
    for line in src.lines() {
        if let Some(r) = session.eval(line) {
            if r.is_err() {
                failed += 1;
            }
            writeln!(out, "{}", format_result(&r))?;
        }
    }
    Ok(failed)
}
