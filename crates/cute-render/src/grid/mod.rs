//! Figures and their one SVG writer. Every view builds a [`Figure`] (the model);
//! the geometry places its panels and cells; the SVG writer turns it into one
//! document ([`Figure::to_svg`]); the bitmap gives the fills of grids computed on demand
//! ([`Figure::pixels`]).
//!
//! Escaping: the frame (title, subtitle, captions, headers, legend, notes) is written with
//! the `svg` crate, which escapes `&`, `<` and `>` in text and attribute values (not quotes:
//! none of its attributes holds text from the user). The cells, fills, grid lines, outlines
//! and marks — the bulk of every picture — are written by hand into the document as
//! blobs, every text and attribute value that is not a number through the writer's own
//! `escape`, which also escapes `"` and `'`.
//!
//! Stable hooks for the page: the root has `class="cute-view"` and `data-view`; each panel
//! is `<g class="panel" id="panel-ID" data-panel="ID">`; each cell is
//! `<g class="cell ..." data-...>` holding a `rect` and (unless in overview) a `text`.

mod bitmap;
mod figure;
mod geometry;
mod html_writer;
mod keys;
mod svg_writer;

pub use figure::{
    contrast, dimmed_fill, text_on, Cell, CellSource, Data, DataList, Figure, Mark, Panel, Theme,
    DIM_OPACITY, DIM_OPACITY_CSS,
};
pub use geometry::{HeaderLabel, Label, PanelBox, LINE_OFFSET};
pub use keys::{cell_key, CellKey, Unit, Word, CELL_KEYS};
pub use svg_writer::{Detail, FONT};
