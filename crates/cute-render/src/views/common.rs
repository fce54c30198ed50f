//! What every view shares: the drawing options, the cell limits' checks and the dimming of
//! a highlighted thread's neighbours. Imports nothing from the views.

use super::palette::Palette;
use crate::grid::Panel;
use crate::limits::{CELL_HARD_CAP, CELL_TEXT_CAP};
use crate::view::{Labels, View};
use cute_core::Result;

/// One thread or one warp to emphasise; other cells are dimmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Highlight {
    /// Thread index.
    Thread(i64),
    /// Warp index (threads 32w..32w+31).
    Warp(i64),
}

/// What to draw and how.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The view.
    pub view: View,
    /// Colour scheme.
    pub palette: Palette,
    /// Element width in bits for bank colouring in the layout and swizzle views.
    pub elem_bits: u32,
    /// Where `elem_bits` comes from when the drawn value or its block fixes it (the
    /// figure's notes say so); `None`: chosen (the page's menu, `render --bits`).
    /// [`super::figure_with_call`] sets it from the value, [`crate::Evaluated`] also from the block
    /// ([`Options::at_width`]).
    pub elem_from: Option<String>,
    /// Offset whose swizzle bits the swizzle view spells out (default: one that changes).
    pub bit_offset: Option<i64>,
    /// Emphasised thread or warp.
    pub highlight: Option<Highlight>,
    /// Warp whose instructions the bank view draws.
    pub warp: u32,
    /// Above this many cells a figure is an overview without cell text (at most
    /// [`CELL_HARD_CAP`]). [`CELL_TEXT_CAP`] for files; the page, which paints only the
    /// labels in view ([`crate::grid::Detail::Fills`]), keeps text up to the hard cap.
    pub cell_text_cap: usize,
    /// The layout and swizzle views draw figures of `lazy_from..=lazy_cap` cells from
    /// cells computed on demand ([`crate::grid::CellSource`]), the layout view up to
    /// [`LAZY_CAP`] (a 1024x1024 layout), above [`CELL_HARD_CAP`]. Files: none (the
    /// default `1..=0`), a figure above the hard cap is too big for one; the page, which
    /// paints only what is in view, uses `129..=LAZY_CAP`: its figures of more than 128
    /// cells are painted, not written as SVG cells.
    pub lazy_cap: usize,
    /// See [`Options::lazy_cap`].
    pub lazy_from: usize,
    /// What the cells say (the view's own label by default).
    pub labels: Labels,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            view: View::Auto,
            palette: Palette::Cute,
            elem_bits: 16,
            elem_from: None,
            bit_offset: None,
            highlight: None,
            warp: 0,
            cell_text_cap: CELL_TEXT_CAP,
            lazy_cap: 0,
            lazy_from: 1,
            labels: Labels::Auto,
        }
    }
}

impl Options {
    /// These options at the element width a value or its block fixes (`width`: bits and
    /// where they come from, as [`super::own_element_width`] and [`crate::Evaluated::element_width`]
    /// give them), or unchanged (no copy) when nothing fixes it.
    ///
    /// ```
    /// use cute_render::Options;
    /// let o = Options::default();
    /// let f = o.at_width(Some((32, "smem_ptr[32b]".into())));
    /// assert_eq!((f.elem_bits, f.elem_from.as_deref()), (32, Some("smem_ptr[32b]")));
    /// assert_eq!(*o.at_width(None), o);
    /// ```
    pub fn at_width(&self, width: Option<(u32, String)>) -> std::borrow::Cow<'_, Options> {
        match width {
            Some((bits, from)) => std::borrow::Cow::Owned(Options {
                elem_bits: bits,
                elem_from: Some(from),
                ..self.clone()
            }),
            None => std::borrow::Cow::Borrowed(self),
        }
    }
}

pub(crate) fn check_cells(n: i64, opts: &Options) -> Result<bool> {
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if n > CELL_HARD_CAP {
        let lazy = if opts.lazy_cap > CELL_HARD_CAP {
            format!("; the layout view draws up to {} cells", opts.lazy_cap)
        } else {
            String::new()
        };
        return Err(cute_core::err!(
            "{n} cells is too many to draw (limit {CELL_HARD_CAP}{lazy}); draw a tile of it: composition(L, (256,256)) is the top-left 256x256 block of a layout L, logical_divide(L, (256,256)) its tiles"
        ));
    }
    Ok(n <= opts.cell_text_cap)
}

pub(crate) fn overview_note(n: usize, opts: &Options) -> String {
    format!(
        "overview: {n} cells exceed {}, so cell text is left out (hover a cell for its values)",
        opts.cell_text_cap
    )
}

pub(crate) fn dimmed(h: Option<Highlight>, t: i64) -> bool {
    match h {
        None => false,
        Some(Highlight::Thread(x)) => t != x,
        Some(Highlight::Warp(w)) => t.div_euclid(32) != w,
    }
}

/// A panel and its (column, row) place in the figure's grid of panels.
pub(crate) type PlacedPanel = (Panel, (usize, usize));
