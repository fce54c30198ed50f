//! # cute-render
//!
//! The one renderer of CuTe Layout Explorer, used by the `render` CLI and the web page.
//!
//! Map of the crate:
//! - text mode: [`print_script`] and [`print_one`], what `render --print` prints;
//! - [`views`]: core values turned into grids — the layout view ([`views::layout_grid`]);
//! - [`grid`]: the single SVG writer ([`grid::Grid::to_svg`]), with `data-*` attributes on
//!   every cell for the page's hover inspector;
//! - [`render_svg`]: expression text in, SVG document out.

pub mod grid;
pub mod views;

pub use grid::Theme;

use cute_core::{format_result, Error, Result, Session, Value};
use std::io::{self, Write};

/// The value a script draws: the result of its last evaluated line.
///
/// ```
/// let v = cute_render::eval_for_drawing("A = (4,8):(1,4)\ncoalesce(A)").unwrap();
/// assert_eq!(v.to_string(), "32:1");
/// ```
pub fn eval_for_drawing(script: &str) -> Result<Value> {
    let mut session = Session::default();
    let mut last = None;
    for line in script.lines() {
        if let Some(r) = session.eval(line) {
            last = Some(r?);
        }
    }
    last.ok_or_else(|| Error::new("nothing to draw: the expression is empty"))
}

/// Evaluate `script` and draw its value as an SVG document (the layout view).
///
/// ```
/// let svg = cute_render::render_svg("(4,8):(8,1)", cute_render::Theme::Light).unwrap();
/// assert!(svg.starts_with("<svg"));
/// assert_eq!(svg.matches("class=\"cell\"").count(), 32);
/// ```
pub fn render_svg(script: &str, theme: Theme) -> Result<String> {
    let value = eval_for_drawing(script)?;
    let title = script.trim().lines().last().unwrap_or("").trim();
    Ok(views::layout_grid(title, &value)?.to_svg(theme))
}

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
