//! The one SVG writer. Every view builds a [`Figure`]: a title, panels of cells placed in
//! slots of a grid (side by side, A left of C, B above C, ...), a legend and notes. Only this
//! module emits SVG (with the `svg` crate, which escapes all text and attribute values).
//!
//! Stable hooks for the page: the root has `class="cute-view"` and `data-view`; each panel
//! is `<g class="panel" id="panel-ID" data-panel="ID">`; each cell is
//! `<g class="cell ..." data-...>` holding a `rect` and (unless in overview) a `text`.

use crate::View;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::Arc;
use svg::node::element::{Group, Rectangle, Style, Text, Title};
use svg::node::Blob;
use svg::Document;

/// One cell: its label (one or two lines), fill, extra classes, and the `data-*`
/// attributes the page reads on hover.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Cell {
    /// Text drawn in the cell; a `\n` splits two lines.
    pub text: String,
    /// Fill colour (CSS).
    pub fill: String,
    /// Extra classes (`conflict`, `dim`, `empty`, ...), space-separated.
    pub class: String,
    /// `data-NAME="VALUE"` attributes.
    pub data: Vec<(&'static str, Data)>,
}

/// A `data-*` value: mostly integers, which are written without an allocation each.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// An integer.
    Int(i64),
    /// Text.
    Text(String),
}

impl From<i64> for Data {
    fn from(v: i64) -> Data {
        Data::Int(v)
    }
}
impl From<usize> for Data {
    fn from(v: usize) -> Data {
        Data::Int(v as i64)
    }
}
impl From<u64> for Data {
    fn from(v: u64) -> Data {
        Data::Int(v as i64)
    }
}
impl From<String> for Data {
    fn from(v: String) -> Data {
        Data::Text(v)
    }
}

impl Data {
    /// The value as it appears in the attribute.
    pub fn text(&self) -> String {
        match self {
            Data::Int(v) => v.to_string(),
            Data::Text(s) => s.clone(),
        }
    }
}

/// A grid of cells with row and column headers and a caption.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Panel {
    /// Stable id (`layout`, `before`, `after`, `bits`, `A`, `B`, `C`, `S`, `D`, `i0`, ...,
    /// `ranking`; the algebra view's operands `A`, `B`, tiler modes `B0`, `B1`, ..., and
    /// `result`).
    pub id: String,
    /// Caption drawn above the panel (may be empty).
    pub label: String,
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// One label per row.
    pub row_headers: Vec<String>,
    /// One label per column.
    pub col_headers: Vec<String>,
    /// `rows * cols` cells, row-major.
    pub cells: Vec<Cell>,
    /// Thicker lines after these columns / rows (hierarchical mode boundaries).
    pub col_breaks: Vec<usize>,
    /// Thicker lines after these rows.
    pub row_breaks: Vec<usize>,
    /// Cells computed when asked, for grids too big to hold (`cells` is then empty): only
    /// the page draws these ([`crate::Options::lazy_cap`]).
    pub source: Option<CellSource>,
    /// Outlines and arrows drawn over the cells.
    pub marks: Vec<Mark>,
}

/// A shape drawn over a panel's cells, in cell units (the descriptor view's core matrices
/// and its LBO/SBO arrows).
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A rectangle around rows `row..row+rows` and columns `col..col+cols`.
    Outline {
        /// First row.
        row: usize,
        /// First column.
        col: usize,
        /// Rows covered.
        rows: usize,
        /// Columns covered.
        cols: usize,
        /// Stroke colour.
        colour: String,
        /// Stroke width in pixels.
        width: f32,
    },
    /// An arrow between two points given as (row, column) in cells (fractions allowed:
    /// (0.5, 0.5) is the first cell's centre), labelled at its middle.
    Arrow {
        /// Start (row, column).
        from: (f64, f64),
        /// Tip (row, column).
        to: (f64, f64),
        /// Stroke colour.
        colour: String,
        /// Text at the middle.
        label: String,
    },
}

/// A grid's cells computed on demand: the page's way to draw grids above
/// [`crate::views::CELL_HARD_CAP`] (a 1024x1024 layout), where holding a [`Cell`] each
/// would take hundreds of megabytes. The page reads the fills of every cell at once
/// ([`Figure::pixels`]) and the full cells of those in view (labels, hover).
#[derive(Clone)]
pub struct CellSource {
    /// The cell at (row, column), both in range. Computed cells carry no classes.
    pub cell: Arc<dyn Fn(usize, usize) -> Cell + Send + Sync>,
    /// Its text, without building the cell (labels of the cells in view, every frame).
    pub text: Arc<dyn Fn(usize, usize) -> String + Send + Sync>,
    /// The fills (`#rrggbb`) the cells use.
    pub palette: Arc<[String]>,
    /// The cell's fill as an index into `palette`, without building the cell.
    pub fill: Arc<dyn Fn(usize, usize) -> usize + Send + Sync>,
    /// Characters in the widest line of any cell's text (the figure's cell width).
    pub widest: usize,
}

impl std::fmt::Debug for CellSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CellSource {{ widest: {} }}", self.widest)
    }
}

impl PartialEq for CellSource {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.cell, &other.cell) && Arc::ptr_eq(&self.fill, &other.fill)
    }
}

impl Panel {
    /// A grid of held cells (`rows * cols`, row-major) headed by row and column numbers,
    /// without breaks or marks.
    pub fn numbered(id: &str, label: String, rows: usize, cols: usize, cells: Vec<Cell>) -> Panel {
        Panel {
            id: id.into(),
            label,
            rows,
            cols,
            row_headers: (0..rows).map(|r| r.to_string()).collect(),
            col_headers: (0..cols).map(|c| c.to_string()).collect(),
            cells,
            ..Panel::default()
        }
    }

    /// The cell at (`row`, `col`), held or computed; `None` out of range.
    pub fn cell(&self, row: usize, col: usize) -> Option<Cow<'_, Cell>> {
        if row >= self.rows || col >= self.cols {
            return None;
        }
        match &self.source {
            Some(src) => Some(Cow::Owned((src.cell)(row, col))),
            None => self.cells.get(row * self.cols + col).map(Cow::Borrowed),
        }
    }
}

/// A whole picture.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Figure {
    /// The view that drew it (a drawn figure's is never [`View::Auto`]).
    pub view: View,
    /// Title line (the expression).
    pub title: String,
    /// Subtitle (what the cells show).
    pub subtitle: String,
    /// Panels and their (column, row) slot.
    pub panels: Vec<(Panel, (usize, usize))>,
    /// What the legend shows, drawn before its entries.
    pub legend_title: String,
    /// Legend entries: (fill, label).
    pub legend: Vec<(String, String)>,
    /// Lines drawn under the legend (summaries, overview notices).
    pub notes: Vec<String>,
    /// Draw per-cell text (false: an overview of coloured cells only).
    pub cell_text: bool,
}

/// How much of a figure [`Figure::to_svg_with`] spells out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Everything: each cell a `<g class="cell" data-*>` with its rect and text.
    Full,
    /// The same picture without cell text: fills as one path per colour, grid lines, a
    /// transparent hit rectangle per panel, and hidden one-cell outlines
    /// (`rect.focus`, `rect.pin`) for the page to place on the hovered and pinned cell.
    /// How the page draws big figures: browsers paint a few paths fast, but every SVG text
    /// node costs ~30 µs of style and layout, so the page paints [`Figure::labels`] of the
    /// cells in view on a canvas above the drawing (~1 µs each).
    Fills,
}

/// Where a panel's grid of cells lies in the SVG ([`Figure::panel_boxes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanelBox {
    /// The panel's index in [`Figure::panels`].
    pub index: usize,
    /// The panel's id.
    pub id: String,
    /// Left edge of the first column.
    pub x: usize,
    /// Top edge of the first row.
    pub y: usize,
    /// Cell width.
    pub cell_w: usize,
    /// Cell height.
    pub cell_h: usize,
    /// Rows of cells.
    pub rows: usize,
    /// Columns of cells.
    pub cols: usize,
}

struct Slots {
    col_x: Vec<usize>,
    row_y: Vec<usize>,
    col_w: Vec<usize>,
    row_h: Vec<usize>,
}

/// Colours of the page around the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Dark text on white.
    Light,
    /// Light text on near-black.
    Dark,
}

impl Theme {
    fn background(self) -> &'static str {
        match self {
            Theme::Light => "#ffffff",
            Theme::Dark => "#16181b",
        }
    }
    fn foreground(self) -> &'static str {
        match self {
            Theme::Light => "#1c1c1c",
            Theme::Dark => "#e6e6e6",
        }
    }
    /// The colour of headers and secondary text.
    pub fn muted(self) -> &'static str {
        match self {
            Theme::Light => "#5f5f5f",
            Theme::Dark => "#a0a0a0",
        }
    }
}

/// Monospace first; DejaVu Sans Mono is what PNG export finds on Debian.
pub const FONT: &str =
    "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace";
const MARGIN: usize = 16;
const TITLE_H: usize = 46;
const GAP: usize = 28;
const LABEL_H: usize = 20;
const CHAR_W: usize = 7;

/// Whether black or white text reads better on `fill` (`#rrggbb`).
pub fn text_on(fill: &str) -> &'static str {
    let [r, g, b, _] = rgba(fill);
    let luma = 0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b);
    if luma < 128.0 {
        "#ffffff"
    } else {
        "#000000"
    }
}

/// `#rrggbb` as opaque RGBA (white where it does not parse).
fn rgba(fill: &str) -> [u8; 4] {
    let hex = fill.trim_start_matches('#');
    let c = |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("ff"), 16).unwrap_or(255);
    [c(0), c(2), c(4), 255]
}

fn text_width(s: &str, px_per_char: usize) -> usize {
    s.chars().count() * px_per_char
}

/// Sizes shared by every panel of a figure.
struct Metrics {
    cell_w: usize,
    cell_h: usize,
}

impl Panel {
    fn header_w(&self, m: &Metrics, cell_text: bool) -> usize {
        let every = if cell_text { 1 } else { row_stride(self.rows) };
        self.row_headers
            .iter()
            .step_by(every.max(1))
            .map(|h| text_width(h, CHAR_W) + 12)
            .max()
            .unwrap_or(0)
            .max(if m.cell_w > 0 { 24 } else { 0 })
    }
    fn header_h(&self, cell_text: bool) -> usize {
        if self.col_headers.is_empty() {
            4
        } else if cell_text {
            22
        } else {
            16
        }
    }
    /// Top-left corner of the grid of cells for a panel placed at (`x0`, `y0`).
    fn grid_origin(&self, x0: usize, y0: usize, m: &Metrics, cell_text: bool) -> (usize, usize) {
        let label_h = if self.label.is_empty() { 0 } else { LABEL_H };
        (
            x0 + self.header_w(m, cell_text),
            y0 + label_h + self.header_h(cell_text),
        )
    }
    fn size(&self, m: &Metrics, cell_text: bool) -> (usize, usize) {
        let label_h = if self.label.is_empty() { 0 } else { LABEL_H };
        // The caption starts above the grid, right of the row headers.
        let header_w = self.header_w(m, cell_text);
        let w = header_w + (self.cols * m.cell_w).max(text_width(&self.label, 8));
        let h = label_h + self.header_h(cell_text) + self.rows * m.cell_h;
        (w, h)
    }
}

/// Headers in overviews: one label every so many rows/columns.
fn row_stride(n: usize) -> usize {
    (n / 16).max(1).next_power_of_two()
}

impl Figure {
    fn metrics(&self) -> Metrics {
        if self.cell_text {
            let mut widest = 1;
            let mut two_lines = false;
            let mut widest_header = 0;
            for (p, _) in &self.panels {
                if let Some(src) = &p.source {
                    widest = widest.max(src.widest);
                }
                for c in &p.cells {
                    for (k, line) in c.text.split('\n').enumerate() {
                        widest = widest.max(line.chars().count());
                        two_lines |= k > 0;
                    }
                }
                for h in &p.col_headers {
                    widest_header = widest_header.max(h.chars().count());
                }
            }
            Metrics {
                cell_w: (widest * 7 + 12).max(widest_header * 6 + 8).max(26),
                cell_h: if two_lines { 34 } else { 24 },
            }
        } else {
            let cols = self.panels.iter().map(|(p, _)| p.cols).max().unwrap_or(1);
            let w = (2048 / cols.max(1)).clamp(2, 24);
            Metrics {
                cell_w: w,
                cell_h: w,
            }
        }
    }

    /// The `data-*` attributes (names without `data-`) of the cell at `row`, `col` of the
    /// panel `panel_id`, as the SVG writes them; how the page inspects overview cells,
    /// which are drawn as paths without per-cell attributes.
    ///
    /// ```
    /// use cute_render::{render_figure, Options};
    /// let f = render_figure("(256,256):(256,1)", &Options::default()).unwrap();
    /// let d = f.cell_data_at("layout", 3, 5).unwrap();
    /// assert!(d.contains(&("offset".to_string(), (3 * 256 + 5).to_string())));
    /// assert!(f.cell_data_at("layout", 256, 0).is_none());
    /// ```
    pub fn cell_data_at(
        &self,
        panel_id: &str,
        row: usize,
        col: usize,
    ) -> Option<Vec<(String, String)>> {
        let (p, _) = self.panels.iter().find(|(p, _)| p.id == panel_id)?;
        let cell = p.cell(row, col)?;
        Some(
            cell.data
                .iter()
                .map(|(k, v)| (k.to_string(), v.text()))
                .collect(),
        )
    }

    /// Slot grid: the x of each slot column and the y of each slot row, and their sizes.
    fn slots(&self, m: &Metrics) -> Slots {
        let ncols = self
            .panels
            .iter()
            .map(|(_, (c, _))| c + 1)
            .max()
            .unwrap_or(0);
        let nrows = self
            .panels
            .iter()
            .map(|(_, (_, r))| r + 1)
            .max()
            .unwrap_or(0);
        let mut col_w = vec![0; ncols];
        let mut row_h = vec![0; nrows];
        for (p, (c, r)) in &self.panels {
            let (w, h) = p.size(m, self.cell_text);
            col_w[*c] = col_w[*c].max(w);
            row_h[*r] = row_h[*r].max(h);
        }
        let col_x: Vec<usize> = col_w
            .iter()
            .scan(MARGIN, |x, w| {
                let here = *x;
                *x += w + GAP;
                Some(here)
            })
            .collect();
        let row_y: Vec<usize> = row_h
            .iter()
            .scan(MARGIN + TITLE_H, |y, h| {
                let here = *y;
                *y += h + GAP;
                Some(here)
            })
            .collect();
        Slots {
            col_x,
            row_y,
            col_w,
            row_h,
        }
    }

    /// Where each panel's grid of cells lies in the SVG's coordinates, in panel order: what
    /// the page needs to find the cells in view (and the cell under the pointer).
    ///
    /// ```
    /// use cute_render::{render_figure, Options};
    /// let f = render_figure("(4,8):(8,1)", &Options::default()).unwrap();
    /// let b = &f.panel_boxes()[0];
    /// assert_eq!((b.id.as_str(), b.rows, b.cols), ("layout", 4, 8));
    /// assert!(b.cell_w > 0 && b.cell_h > 0);
    /// ```
    pub fn panel_boxes(&self) -> Vec<PanelBox> {
        let m = self.metrics();
        let slots = self.slots(&m);
        self.panels
            .iter()
            .enumerate()
            .map(|(index, (p, (c, r)))| {
                let (gx, gy) = p.grid_origin(slots.col_x[*c], slots.row_y[*r], &m, self.cell_text);
                PanelBox {
                    index,
                    id: p.id.clone(),
                    x: gx,
                    y: gy,
                    cell_w: m.cell_w,
                    cell_h: m.cell_h,
                    rows: p.rows,
                    cols: p.cols,
                }
            })
            .collect()
    }

    /// The number of cells of all panels together.
    pub fn cell_count(&self) -> usize {
        self.panels.iter().map(|(p, _)| p.rows * p.cols).sum()
    }

    /// Whether a panel's cells are computed on demand ([`CellSource`]): such a figure is
    /// too big for a file, and [`Figure::pixels`] gives its fills.
    pub fn is_lazy(&self) -> bool {
        self.panels.iter().any(|(p, _)| p.source.is_some())
    }

    /// The fills of a lazy panel ([`Panel::source`]) as RGBA bytes, one pixel per cell,
    /// row-major: what the page paints under a [`Detail::Fills`] drawing, which leaves
    /// such panels' cells empty. `None` for held panels (their fills are in the SVG).
    pub fn pixels(&self, index: usize) -> Option<Vec<u8>> {
        let (p, _) = self.panels.get(index)?;
        let src = p.source.as_ref()?;
        let mut out = vec![0u8; p.rows * p.cols * 4];
        let colours: Vec<[u8; 4]> = src.palette.iter().map(|f| rgba(f)).collect();
        let white = rgba("#ffffff");
        // In 64x64 tiles: sources keep cells in column-major order, the bitmap is
        // row-major, and walking the whole of either across the other is cache-hostile.
        const TILE: usize = 64;
        for r0 in (0..p.rows).step_by(TILE) {
            for c0 in (0..p.cols).step_by(TILE) {
                for c in c0..(c0 + TILE).min(p.cols) {
                    for r in r0..(r0 + TILE).min(p.rows) {
                        let v = colours.get((src.fill)(r, c)).unwrap_or(&white);
                        let k = 4 * (r * p.cols + c);
                        out[k..k + 4].copy_from_slice(v);
                    }
                }
            }
        }
        Some(out)
    }

    /// Render to an SVG document string: the whole, self-contained picture (every cell's
    /// text where the figure has cell text). What export and the `render` CLI write.
    pub fn to_svg(&self, theme: Theme) -> String {
        self.to_svg_with(theme, Detail::Full)
    }

    /// Render to an SVG document string at a level of detail: [`Detail::Fills`] writes the
    /// same picture, at the same coordinates, without cell text, for [`Figure::labels`]
    /// to fill in where the cells are on screen and legible.
    ///
    /// ```
    /// use cute_render::{grid::Detail, render_figure, Options, Theme};
    /// let f = render_figure("(64,64):(64,1)", &Options::default()).unwrap();
    /// let svg = f.to_svg_with(Theme::Light, Detail::Fills);
    /// assert_eq!(svg.matches("class=\"hit\"").count(), 1);
    /// assert!(!svg.contains(">4095<"));
    /// assert!(f.to_svg(Theme::Light).contains(">4095<"));
    /// ```
    pub fn to_svg_with(&self, theme: Theme, detail: Detail) -> String {
        let m = self.metrics();
        let Slots {
            col_x,
            row_y,
            col_w,
            row_h,
        } = self.slots(&m);
        let (ncols, nrows) = (col_w.len(), row_h.len());
        let body_w = col_w.iter().sum::<usize>() + GAP * ncols.saturating_sub(1);
        let body_h = row_h.iter().sum::<usize>() + GAP * nrows.saturating_sub(1);
        let legend_y = MARGIN + TITLE_H + body_h + 14;
        let legend_title_w = text_width(&self.legend_title, CHAR_W) + 10;
        // The legend wraps onto several lines when it is wider than the figure.
        let min_w = (MARGIN * 2 + body_w)
            .max(MARGIN * 2 + text_width(&self.title, 9))
            .max(MARGIN * 2 + text_width(&self.subtitle, CHAR_W))
            .max(
                self.notes
                    .iter()
                    .map(|n| MARGIN * 2 + text_width(n, CHAR_W))
                    .max()
                    .unwrap_or(0),
            )
            .max(360);
        let mut legend_lines = 1;
        let mut lx = MARGIN + legend_title_w;
        let mut placed = Vec::new();
        for (_, label) in &self.legend {
            let w = text_width(label, CHAR_W) + 30;
            if lx + w > min_w - MARGIN && lx > MARGIN + legend_title_w {
                legend_lines += 1;
                lx = MARGIN + legend_title_w;
            }
            placed.push((lx, legend_lines - 1));
            lx += w;
        }
        let legend_h = if self.legend.is_empty() && self.legend_title.is_empty() {
            0
        } else {
            20 * legend_lines + 4
        };
        let notes_y = legend_y + legend_h;
        let width = min_w;
        let height = notes_y + 18 * self.notes.len() + MARGIN;

        let mut doc = Document::new()
            .set("xmlns", "http://www.w3.org/2000/svg")
            .set("width", width)
            .set("height", height)
            .set("viewBox", (0, 0, width, height))
            .set("class", "cute-view")
            .set("data-view", self.view.name())
            .add(Title::new(self.title.clone()))
            .add(Style::new(format!(
                "text{{font-family:{FONT};}} .cell rect{{stroke:#00000038;stroke-width:0.5}} \
                 .cell text{{font-size:11px;text-anchor:middle;dominant-baseline:central}} \
                 .cell.dim,.run.dim{{opacity:0.22}} .cell.conflict rect,.run.conflict{{stroke:#d00000;stroke-width:2}} \
                 .hdr{{font-size:10px;fill:{m}}} .plabel{{font-size:12px;font-weight:bold;fill:{f}}}{fills}",
                m = theme.muted(),
                f = theme.foreground(),
                fills = if detail == Detail::Fills && self.cell_text {
                    " .focus,.pin{pointer-events:none} \
                     .gridlines{stroke:#00000038;stroke-width:0.5;fill:none}"
                } else {
                    ""
                }
            )))
            .add(self.background(width, height, theme, detail, &m, &col_x, &row_y))
            .add(
                Text::new(self.title.clone())
                    .set("x", MARGIN)
                    .set("y", MARGIN + 16)
                    .set("font-size", 15)
                    .set("font-weight", "bold")
                    .set("fill", theme.foreground())
                    .set("class", "title"),
            )
            .add(
                Text::new(self.subtitle.clone())
                    .set("x", MARGIN)
                    .set("y", MARGIN + 35)
                    .set("font-size", 11)
                    .set("fill", theme.muted())
                    .set("class", "subtitle"),
            );
        for (p, (c, r)) in &self.panels {
            doc = doc.add(self.panel_svg(p, col_x[*c], row_y[*r], &m, theme, detail));
        }

        let mut legend = Group::new().set("class", "legend");
        if !self.legend_title.is_empty() {
            legend = legend.add(
                Text::new(self.legend_title.clone())
                    .set("x", MARGIN)
                    .set("y", legend_y + 11)
                    .set("font-size", 11)
                    .set("fill", theme.muted()),
            );
        }
        for ((fill, label), (x, line)) in self.legend.iter().zip(placed) {
            let y = legend_y + 20 * line;
            legend = legend
                .add(
                    Rectangle::new()
                        .set("x", x)
                        .set("y", y)
                        .set("width", 14)
                        .set("height", 14)
                        .set("fill", fill.clone())
                        .set("stroke", theme.muted()),
                )
                .add(
                    Text::new(label.clone())
                        .set("x", x + 19)
                        .set("y", y + 11)
                        .set("font-size", 11)
                        .set("fill", theme.foreground()),
                );
        }
        doc = doc.add(legend);
        let mut notes = Group::new().set("class", "notes");
        for (k, n) in self.notes.iter().enumerate() {
            notes = notes.add(
                Text::new(n.clone())
                    .set("x", MARGIN)
                    .set("y", notes_y + 18 * k + 12)
                    .set("font-size", 11)
                    .set("fill", theme.foreground())
                    .set("class", "note"),
            );
        }
        doc.add(notes).to_string()
    }

    /// The page's colour behind everything. In [`Detail::Fills`] it has a hole over each
    /// lazy panel's grid, where the page paints [`Figure::pixels`] on a canvas under the
    /// drawing; the grid lines, frame and outlines stay above it.
    #[allow(clippy::too_many_arguments)]
    fn background(
        &self,
        width: usize,
        height: usize,
        theme: Theme,
        detail: Detail,
        m: &Metrics,
        col_x: &[usize],
        row_y: &[usize],
    ) -> Box<dyn svg::Node> {
        if detail != Detail::Fills || !self.is_lazy() {
            return Box::new(
                Rectangle::new()
                    .set("width", width)
                    .set("height", height)
                    .set("fill", theme.background()),
            );
        }
        let mut d = format!("M0 0H{width}V{height}H0z");
        for (p, (c, r)) in self.panels.iter().filter(|(p, _)| p.source.is_some()) {
            let (gx, gy) = p.grid_origin(col_x[*c], row_y[*r], m, self.cell_text);
            let (w, h) = (p.cols * m.cell_w, p.rows * m.cell_h);
            let _ = write!(d, "M{gx} {gy}h{w}v{h}h-{w}z");
        }
        Box::new(
            svg::node::element::Path::new()
                .set("class", "bg")
                .set("d", d)
                .set("fill", theme.background())
                .set("fill-rule", "evenodd"),
        )
    }

    fn panel_svg(
        &self,
        p: &Panel,
        x0: usize,
        y0: usize,
        m: &Metrics,
        theme: Theme,
        detail: Detail,
    ) -> Group {
        let (grid_x, grid_y) = p.grid_origin(x0, y0, m, self.cell_text);
        let (cw, ch) = (m.cell_w, m.cell_h);
        let mut g = Group::new()
            .set("class", "panel")
            .set("id", format!("panel-{}", p.id))
            .set("data-panel", p.id.clone())
            .set("data-rows", p.rows)
            .set("data-cols", p.cols);
        if !p.label.is_empty() {
            g = g.add(
                Text::new(p.label.clone())
                    .set("class", "plabel")
                    .set("x", grid_x)
                    .set("y", y0 + 13),
            );
        }
        let mut headers = Group::new().set("class", "headers");
        // A lazy grid's thousands of headers are the page's to paint, those in view
        // (Figure::headers): as SVG text they cost more than everything else.
        if !(detail == Detail::Fills && p.source.is_some()) {
            let (rstep, cstep) = if self.cell_text {
                (1, 1)
            } else {
                (row_stride(p.rows), row_stride(p.cols))
            };
            let b = (grid_x, grid_y, cw, ch);
            for h in header_labels(p, b, 0..p.rows, 0..p.cols, (rstep, cstep)) {
                headers = headers.add(
                    Text::new(h.text)
                        .set("class", "hdr")
                        .set("x", h.x)
                        .set("y", h.y)
                        .set("text-anchor", if h.end { "end" } else { "middle" }),
                );
            }
        }
        g = g.add(headers);
        let cells =
            Group::new()
                .set("class", "cells")
                .add(Blob::new(match (self.cell_text, detail) {
                    // Too big for a cell element each: fills only.
                    (true, Detail::Full)
                        if p.source.is_some() && p.rows * p.cols > crate::views::CELL_HARD_CAP =>
                    {
                        let mut out = write_runs(p, grid_x, grid_y, cw, ch, true);
                        write_hit(&mut out, p, grid_x, grid_y, cw, ch);
                        out
                    }
                    (true, Detail::Full) => write_cells(p, grid_x, grid_y, cw, ch),
                    (true, Detail::Fills) => {
                        // A lazy panel's fills are the page's to paint (Figure::pixels).
                        let mut out = match p.source {
                            Some(_) => String::new(),
                            None => write_runs(p, grid_x, grid_y, cw, ch, false),
                        };
                        write_grid_lines(&mut out, p, grid_x, grid_y, cw, ch);
                        write_outlines(&mut out, grid_x, grid_y, cw, ch);
                        write_hit(&mut out, p, grid_x, grid_y, cw, ch);
                        out
                    }
                    (false, _) => {
                        let mut out = write_runs(p, grid_x, grid_y, cw, ch, true);
                        write_hit(&mut out, p, grid_x, grid_y, cw, ch);
                        out
                    }
                }));
        g = g.add(cells);
        // Mode boundaries, then the frame.
        let mut lines = Group::new().set("class", "breaks");
        for &c in &p.col_breaks {
            lines = lines.add(
                Rectangle::new()
                    .set("x", grid_x + c * cw)
                    .set("y", grid_y)
                    .set("width", 1)
                    .set("height", p.rows * ch)
                    .set("fill", theme.foreground()),
            );
        }
        for &r in &p.row_breaks {
            lines = lines.add(
                Rectangle::new()
                    .set("x", grid_x)
                    .set("y", grid_y + r * ch)
                    .set("width", p.cols * cw)
                    .set("height", 1)
                    .set("fill", theme.foreground()),
            );
        }
        let g = g.add(lines).add(
            Rectangle::new()
                .set("x", grid_x)
                .set("y", grid_y)
                .set("width", p.cols * cw)
                .set("height", p.rows * ch)
                .set("fill", "none")
                .set("stroke", theme.foreground())
                .set("stroke-width", 1.5),
        );
        if p.marks.is_empty() {
            return g;
        }
        g.add(Blob::new(write_marks(p, grid_x, grid_y, cw, ch, theme)))
    }
}

/// A panel's [`Mark`]s: outlines first, then arrows (a line, a filled head and a label on
/// the page's colour, so it reads over any cell).
fn write_marks(p: &Panel, gx: usize, gy: usize, cw: usize, ch: usize, theme: Theme) -> String {
    let mut out = String::from("<g class=\"marks\" pointer-events=\"none\">");
    let at = |(r, c): (f64, f64)| (gx as f64 + c * cw as f64, gy as f64 + r * ch as f64);
    for m in &p.marks {
        if let Mark::Outline {
            row,
            col,
            rows,
            cols,
            colour,
            width,
        } = m
        {
            out.push_str("<rect class=\"outline\" fill=\"none\" stroke=\"");
            escape(&mut out, colour);
            let _ = write!(
                out,
                "\" stroke-width=\"{width}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                gx + col * cw,
                gy + row * ch,
                cols * cw,
                rows * ch
            );
        }
    }
    for m in &p.marks {
        if let Mark::Arrow {
            from,
            to,
            colour,
            label,
        } = m
        {
            let ((x0, y0), (x1, y1)) = (at(*from), at(*to));
            let (dx, dy) = (x1 - x0, y1 - y0);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (ux, uy) = (dx / len, dy / len);
            // The head: 10 px long, 8 px wide; the line stops at its base.
            let (bx, by) = (x1 - 10.0 * ux, y1 - 10.0 * uy);
            out.push_str("<g class=\"arrow\" stroke=\"");
            escape(&mut out, colour);
            out.push_str("\" fill=\"");
            escape(&mut out, colour);
            let _ = write!(
                out,
                "\"><line x1=\"{x0:.1}\" y1=\"{y0:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" stroke-width=\"2.5\"/>\
                 <path stroke=\"none\" d=\"M{x1:.1} {y1:.1}L{:.1} {:.1}L{:.1} {:.1}z\"/>",
                bx - 4.0 * uy,
                by + 4.0 * ux,
                bx + 4.0 * uy,
                by - 4.0 * ux
            );
            // Beside the line, not on it: to its right going down, above it going across.
            let (px, py) = (uy, -ux);
            let _ = write!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" stroke=\"{}\" stroke-width=\"3\" paint-order=\"stroke\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"{}\" dominant-baseline=\"central\">",
                (x0 + x1) / 2.0 + 8.0 * px,
                (y0 + y1) / 2.0 + 10.0 * py,
                theme.background(),
                if px > 0.3 { "start" } else if px < -0.3 { "end" } else { "middle" }
            );
            escape(&mut out, label);
            out.push_str("</text></g>");
        }
    }
    out.push_str("</g>");
    out
}

/// `s` with XML's special characters escaped (text and attribute values).
fn escape(out: &mut String, s: &str) {
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
}

/// The cells of a panel as SVG markup. Cells are the bulk of every picture, so they are
/// written directly into one string — with every text and attribute escaped — instead of as
/// one `svg` crate node each, which is ~5x slower. A cell is
/// `<g class="cell" data-*><rect/><text/></g>`.
fn write_cells(p: &Panel, gx: usize, gy: usize, cw: usize, ch: usize) -> String {
    let n = p.rows * p.cols;
    let mut out = String::with_capacity(n * 200);
    for k in 0..n {
        let (r, c) = (k / p.cols.max(1), k % p.cols.max(1));
        // Held, or computed (a lazy grid, exported whole).
        let Some(cell) = p.cell(r, c) else {
            break;
        };
        let (x, y) = (gx + c * cw, gy + r * ch);
        out.push_str("<g class=\"cell");
        if !cell.class.is_empty() {
            out.push(' ');
            escape(&mut out, &cell.class);
        }
        out.push('"');
        for (name, value) in &cell.data {
            match value {
                Data::Int(v) => {
                    let _ = write!(out, " data-{name}=\"{v}\"");
                }
                Data::Text(t) => {
                    let _ = write!(out, " data-{name}=\"");
                    escape(&mut out, t);
                    out.push('"');
                }
            }
        }
        let _ = write!(
            out,
            "><rect x=\"{x}\" y=\"{y}\" width=\"{cw}\" height=\"{ch}\" fill=\""
        );
        escape(&mut out, &cell.fill);
        out.push_str("\"/>");
        write_label(&mut out, &cell, x + cw / 2, y + ch / 2);
        out.push_str("</g>\n");
    }
    out
}

/// A cell's text as placed in the picture ([`Figure::labels`]): centred at (`x`, `y`), one
/// line or two (7 px above and below the centre), in the colour that reads on the cell's
/// fill, dimmed (opacity 0.22) where the cell is.
#[derive(Clone, Debug, PartialEq)]
pub struct Label<'a> {
    /// Centre x.
    pub x: usize,
    /// Centre y.
    pub y: usize,
    /// The first line.
    pub text: Cow<'a, str>,
    /// The second line, if any.
    pub second: Option<Cow<'a, str>>,
    /// Text colour (CSS).
    pub fill: &'static str,
    /// Drawn at opacity 0.22 (a cell the highlight leaves out).
    pub dim: bool,
}

/// The offset of each line of a label from its centre: one line at the centre, two 7 px
/// above and below.
pub const LINE_OFFSET: i32 = 7;

fn label_of(cell: &Cell, x: usize, y: usize) -> Option<Label<'_>> {
    if cell.text.is_empty() {
        return None;
    }
    let (text, second) = match cell.text.split_once('\n') {
        None => (cell.text.as_str(), None),
        Some((a, b)) => (a, Some(b)),
    };
    Some(Label {
        x,
        y,
        text: Cow::Borrowed(text),
        second: second.map(Cow::Borrowed),
        fill: text_on(&cell.fill),
        dim: cell.class.split(' ').any(|c| c == "dim"),
    })
}

/// A cell's text as SVG (inside its cell's group, which carries the classes).
fn write_label(out: &mut String, cell: &Cell, tx: usize, ty: usize) {
    let Some(l) = label_of(cell, tx, ty) else {
        return;
    };
    let _ = write!(out, "<text x=\"{tx}\" y=\"{ty}\" fill=\"{}\">", l.fill);
    match l.second {
        None => escape(out, &l.text),
        Some(b) => {
            let d = LINE_OFFSET as usize;
            let _ = write!(out, "<tspan x=\"{tx}\" y=\"{}\">", ty - d);
            escape(out, &l.text);
            let _ = write!(out, "</tspan><tspan x=\"{tx}\" y=\"{}\">", ty + d);
            escape(out, &b);
            out.push_str("</tspan>");
        }
    }
    out.push_str("</text>");
}

impl Figure {
    /// The text of the cells in `rows` x `cols` (clamped) of the panel `b` (one of
    /// [`Figure::panel_boxes`], which the caller keeps: computing them reads every cell),
    /// placed as [`Detail::Full`] draws it: what the page paints over a [`Detail::Fills`]
    /// drawing for the cells in view. Empty when the figure has no cell text.
    ///
    /// ```
    /// use cute_render::{render_figure, Options};
    /// let f = render_figure("(64,64):(64,1)", &Options::default()).unwrap();
    /// let boxes = f.panel_boxes();
    /// let l = f.labels(&boxes[0], 2..3, 5..7);
    /// let texts: Vec<&str> = l.iter().map(|l| l.text.as_ref()).collect();
    /// assert_eq!(texts, ["133", "134"]);
    /// assert_eq!(l[1].x - l[0].x, boxes[0].cell_w);
    /// ```
    pub fn labels(
        &self,
        b: &PanelBox,
        rows: std::ops::Range<usize>,
        cols: std::ops::Range<usize>,
    ) -> Vec<Label<'_>> {
        let Some((p, _)) = self.panels.get(b.index) else {
            return Vec::new();
        };
        if !self.cell_text {
            return Vec::new();
        }
        let rows = rows.start.min(p.rows)..rows.end.min(p.rows);
        let cols = cols.start.min(p.cols)..cols.end.min(p.cols);
        let mut out = Vec::with_capacity(rows.len() * cols.len());
        if let Some(src) = &p.source {
            // Text and fill only: building whole cells (data attributes and all) for every
            // label in view would be most of a zoom frame.
            let on: Vec<&'static str> = src.palette.iter().map(|f| text_on(f)).collect();
            for r in rows {
                for c in cols.clone() {
                    let text = (src.text)(r, c);
                    if text.is_empty() {
                        continue;
                    }
                    let (text, second) = match text.split_once('\n') {
                        None => (text, None),
                        Some((a, b)) => (a.to_string(), Some(Cow::Owned(b.to_string()))),
                    };
                    out.push(Label {
                        x: b.x + c * b.cell_w + b.cell_w / 2,
                        y: b.y + r * b.cell_h + b.cell_h / 2,
                        text: Cow::Owned(text),
                        second,
                        fill: on.get((src.fill)(r, c)).copied().unwrap_or("#000000"),
                        dim: false,
                    });
                }
            }
            return out;
        }
        for r in rows {
            for c in cols.clone() {
                if let Some(l) = p.cells.get(r * p.cols + c).and_then(|cell| {
                    label_of(
                        cell,
                        b.x + c * b.cell_w + b.cell_w / 2,
                        b.y + r * b.cell_h + b.cell_h / 2,
                    )
                }) {
                    out.push(l);
                }
            }
        }
        out
    }
}

/// A row or column header as placed in the picture: its text's baseline at `y`, ending at
/// `x` (row headers, `end`) or centred on it (column headers); 10 px, the theme's
/// [`Theme::muted`] colour.
#[derive(Clone, Debug, PartialEq)]
pub struct HeaderLabel<'a> {
    /// Right end (row headers) or centre (column headers).
    pub x: usize,
    /// Baseline.
    pub y: usize,
    /// The text.
    pub text: &'a str,
    /// Right-aligned (a row header) rather than centred.
    pub end: bool,
}

/// The headers of `rows` and `cols` (clamped) of a panel whose grid is at (`gx`, `gy`)
/// with `cw` x `ch` cells, every `step.0`-th row and `step.1`-th column (counted from 0).
fn header_labels<'a>(
    p: &'a Panel,
    (gx, gy, cw, ch): (usize, usize, usize, usize),
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
    (rstep, cstep): (usize, usize),
) -> impl Iterator<Item = HeaderLabel<'a>> {
    let first = |start: usize, step: usize| start.div_ceil(step.max(1)) * step.max(1);
    let rows = first(rows.start, rstep)..rows.end.min(p.row_headers.len());
    let cols = first(cols.start, cstep)..cols.end.min(p.col_headers.len());
    let row_h = rows.step_by(rstep.max(1)).map(move |r| HeaderLabel {
        x: gx.saturating_sub(6),
        y: gy + r * ch + ch / 2 + 4,
        text: &p.row_headers[r],
        end: true,
    });
    let col_h = cols.step_by(cstep.max(1)).map(move |c| HeaderLabel {
        x: gx + c * cw + cw / 2,
        y: gy.saturating_sub(7),
        text: &p.col_headers[c],
        end: false,
    });
    row_h.chain(col_h)
}

impl Figure {
    /// The row headers of `rows` and the column headers of `cols` of the panel `b`, every
    /// `step`-th (the page thins them out when zoomed out), placed as the SVG places them:
    /// what the page paints for a lazy grid, whose [`Detail::Fills`] drawing leaves them out.
    ///
    /// ```
    /// use cute_render::{render_figure, Options};
    /// let f = render_figure("(4,8):(8,1)", &Options::default()).unwrap();
    /// let b = &f.panel_boxes()[0];
    /// let h: Vec<&str> = f.headers(b, 1..3, 6..20, 1).iter().map(|h| h.text).collect();
    /// assert_eq!(h, ["1", "2", "6", "7"]);
    /// ```
    pub fn headers(
        &self,
        b: &PanelBox,
        rows: std::ops::Range<usize>,
        cols: std::ops::Range<usize>,
        step: usize,
    ) -> Vec<HeaderLabel<'_>> {
        let Some((p, _)) = self.panels.get(b.index) else {
            return Vec::new();
        };
        header_labels(p, (b.x, b.y, b.cell_w, b.cell_h), rows, cols, (step, step)).collect()
    }
}

/// Thin lines between the cells of a panel: one path (what each cell's rect stroke draws
/// in [`Detail::Full`]).
fn write_grid_lines(out: &mut String, p: &Panel, gx: usize, gy: usize, cw: usize, ch: usize) {
    let (w, h) = (p.cols * cw, p.rows * ch);
    out.push_str("<path class=\"gridlines\" d=\"");
    for r in 1..p.rows {
        let _ = write!(out, "M{gx} {}h{w}", gy + r * ch);
    }
    for c in 1..p.cols {
        let _ = write!(out, "M{} {gy}v{h}", gx + c * cw);
    }
    out.push_str("\"/>\n");
}

/// Outlines the page moves to the hovered and the pinned cell.
fn write_outlines(out: &mut String, gx: usize, gy: usize, cw: usize, ch: usize) {
    for class in ["focus", "pin"] {
        let _ = writeln!(
            out,
            "<rect class=\"{class}\" x=\"{gx}\" y=\"{gy}\" width=\"{cw}\" height=\"{ch}\" fill=\"none\" visibility=\"hidden\"/>"
        );
    }
}

/// The transparent rectangle over a panel's grid that takes the pointer where cells are
/// paths: the page finds the cell from the position and [`Figure::cell_data_at`].
fn write_hit(out: &mut String, p: &Panel, gx: usize, gy: usize, cw: usize, ch: usize) {
    let _ = writeln!(
        out,
        "<rect class=\"hit\" x=\"{gx}\" y=\"{gy}\" width=\"{}\" height=\"{}\" fill=\"#000\" fill-opacity=\"0\"/>",
        p.cols.max(1) * cw,
        p.rows * ch
    );
}

/// Cell fills as one `<path class="run">` per (fill, class), each cell a subpath;
/// horizontal neighbours of the same colour are merged, and with `merge_marked` also those
/// with classes (an overview: a conflict outline then frames the run, not each cell).
/// Browsers parse, lay out and paint a few paths in milliseconds where 65,536 cell elements
/// take half a second.
fn write_runs(p: &Panel, gx: usize, gy: usize, cw: usize, ch: usize, merge_marked: bool) -> String {
    let cols = p.cols.max(1);
    let mut keys: Vec<(&str, &str)> = Vec::new();
    let mut paths: Vec<String> = Vec::new();
    let mut run: Option<(usize, usize, usize, usize)> = None; // (key, row, first col, len)
    let flush = |run: Option<(usize, usize, usize, usize)>, paths: &mut Vec<String>| {
        if let Some((k, r, c0, n)) = run {
            let _ = write!(
                paths[k],
                "M{} {}h{}v{ch}h-{}z",
                gx + c0 * cw,
                gy + r * ch,
                n * cw,
                n * cw
            );
        }
    };
    let lazy = p.source.as_ref();
    let n = if lazy.is_some() {
        p.rows * p.cols
    } else {
        p.cells.len()
    };
    for i in 0..n {
        let (r, c) = (i / cols, i % cols);
        let key = match (lazy, p.cells.get(i)) {
            (Some(src), _) => (
                src.palette
                    .get((src.fill)(r, c))
                    .map_or("#ffffff", String::as_str),
                "",
            ),
            (None, Some(cell)) => (cell.fill.as_str(), cell.class.as_str()),
            (None, None) => break,
        };
        let k = match keys.iter().position(|x| *x == key) {
            Some(k) => k,
            None => {
                keys.push(key);
                paths.push(String::new());
                keys.len() - 1
            }
        };
        run = match run {
            Some((rk, rr, c0, n))
                if rk == k && rr == r && c0 + n == c && (merge_marked || key.1.is_empty()) =>
            {
                Some((rk, rr, c0, n + 1))
            }
            prev => {
                flush(prev, &mut paths);
                Some((k, r, c, 1))
            }
        };
    }
    flush(run, &mut paths);
    let mut out = String::with_capacity(paths.iter().map(|d| d.len() + 60).sum::<usize>() + 200);
    for ((fill, class), d) in keys.iter().zip(&paths) {
        out.push_str("<path class=\"run");
        if !class.is_empty() {
            out.push(' ');
            escape(&mut out, class);
        }
        out.push_str("\" fill=\"");
        escape(&mut out, fill);
        let _ = writeln!(out, "\" d=\"{d}\"/>");
    }
    out
}
