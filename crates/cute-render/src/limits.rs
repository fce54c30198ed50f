//! How many cells a figure may have: with text, at all, and computed on demand. The views
//! check them when they build a figure; the SVG writer reads them when it chooses how to
//! write a panel.

/// Above this many cells a figure is an overview without per-cell text.
pub const CELL_TEXT_CAP: usize = 16_384;
/// Above this many cells nothing is drawn (the SVG would not be usable).
pub const CELL_HARD_CAP: usize = 1 << 18;

/// The most cells the page's layout view draws (a 1024x1024 layout), computed on demand
/// ([`crate::Options::lazy_cap`]).
pub const LAZY_CAP: usize = 1 << 20;
