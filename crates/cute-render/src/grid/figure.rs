//! The figure model: what every view builds and the writer draws. A [`Figure`] is a
//! title, [`Panel`]s of [`Cell`]s placed in slots of a grid (side by side, A left of C, B
//! above C, ...), a legend and notes; a panel's cells are held, or computed when asked
//! ([`CellSource`]); [`Mark`]s are drawn over them; a [`Theme`] colours the page around.

use crate::view::View;
use std::borrow::Cow;
use std::sync::Arc;

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
    pub data: DataList,
}

/// A cell's `data-*` attributes: (NAME, VALUE) in the order they are written.
pub type DataList = Vec<(&'static str, Data)>;

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
    /// Text centred at a point given as (row, column) in cells, on a halo of the
    /// background (a field's name over its run of cells).
    Label {
        /// Centre (row, column).
        at: (f64, f64),
        /// The text.
        text: String,
    },
}

/// A grid's cells computed on demand: the page's way to draw grids above
/// [`crate::limits::CELL_HARD_CAP`] (a 1024x1024 layout), where holding a [`Cell`] each
/// would take hundreds of megabytes. The page reads the fills of every cell at once
/// ([`Figure::pixels`]) and the full cells of those in view (labels, hover). A held grid
/// can be a computed one whose cells are all built ([`Panel::filled`]). Each part of a
/// cell is computed apart, at (row, column), both in range; computed cells carry no
/// classes.
#[derive(Clone)]
pub struct CellSource {
    /// The cell's text (labels of the cells in view, every frame).
    pub text: Arc<dyn Fn(usize, usize) -> String + Send + Sync>,
    /// The fills (`#rrggbb`) the cells use.
    pub palette: Arc<[String]>,
    /// The cell's fill as an index into `palette` (white outside it).
    pub fill: Arc<dyn Fn(usize, usize) -> usize + Send + Sync>,
    /// The cell's `data-*` attributes (hover).
    pub data: Arc<dyn Fn(usize, usize) -> DataList + Send + Sync>,
    /// Characters in the widest line of any cell's text (the figure's cell width).
    pub widest: usize,
}

impl CellSource {
    /// The cell at (`row`, `col`), both in range, built.
    pub fn cell(&self, row: usize, col: usize) -> Cell {
        Cell {
            text: (self.text)(row, col),
            fill: self.fill_of(row, col).to_string(),
            class: String::new(),
            data: (self.data)(row, col),
        }
    }

    /// The fill (CSS) of the cell at (`row`, `col`), both in range: white where its index
    /// is outside the palette (the bitmap's rule too).
    #[inline]
    pub fn fill_of(&self, row: usize, col: usize) -> &str {
        self.palette
            .get((self.fill)(row, col))
            .map_or("#ffffff", String::as_str)
    }
}

impl std::fmt::Debug for CellSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CellSource {{ widest: {} }}", self.widest)
    }
}

impl PartialEq for CellSource {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.data, &other.data) && Arc::ptr_eq(&self.fill, &other.fill)
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
        match &self.source {
            Some(src) if row < self.rows && col < self.cols => Some(Cow::Owned(src.cell(row, col))),
            Some(_) => None,
            None => self.held(row, col).map(Cow::Borrowed),
        }
    }

    /// The held cell at (`row`, `col`); `None` out of range or when computed.
    #[inline]
    fn held(&self, row: usize, col: usize) -> Option<&Cell> {
        if row >= self.rows || col >= self.cols {
            return None;
        }
        self.cells.get(row * self.cols + col)
    }

    /// The fill (CSS) and classes of the cell at (`row`, `col`), held or computed, without
    /// building it: what a drawing's fills read. `None` out of range.
    #[inline]
    pub fn paint(&self, row: usize, col: usize) -> Option<(&str, &str)> {
        match &self.source {
            Some(src) if row < self.rows && col < self.cols => Some((src.fill_of(row, col), "")),
            Some(_) => None,
            None => self
                .held(row, col)
                .map(|c| (c.fill.as_str(), c.class.as_str())),
        }
    }

    /// The text of the cell at (`row`, `col`), held or computed, without building it.
    /// `None` out of range.
    pub fn text(&self, row: usize, col: usize) -> Option<Cow<'_, str>> {
        match &self.source {
            Some(src) if row < self.rows && col < self.cols => {
                Some(Cow::Owned((src.text)(row, col)))
            }
            Some(_) => None,
            None => self.held(row, col).map(|c| Cow::Borrowed(c.text.as_str())),
        }
    }

    /// The panel with every cell held: a computed grid's cells all built, in row-major
    /// order (a held grid is a computed grid whose cells are filled in).
    pub fn filled(mut self) -> Panel {
        if let Some(src) = self.source.take() {
            let mut cells = Vec::with_capacity(self.rows * self.cols);
            for r in 0..self.rows {
                for c in 0..self.cols {
                    cells.push(src.cell(r, c));
                }
            }
            self.cells = cells;
        }
        self
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

/// Colours of the page around the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Dark text on white.
    Light,
    /// Light text on near-black.
    Dark,
}

impl Theme {
    /// The page's background behind the figure.
    pub fn background(self) -> &'static str {
        match self {
            Theme::Light => "#ffffff",
            Theme::Dark => "#16181b",
        }
    }
    /// The page's text colour: a dimmed cell's label, which reads on any dimmed fill.
    pub fn foreground(self) -> &'static str {
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

/// Black or white text, whichever contrasts more with `fill` (`#rrggbb`) by WCAG's ratio:
/// at least 4.58:1 on any fill.
///
/// ```
/// use cute_render::grid::{contrast, text_on};
/// assert_eq!(text_on("#0072b2"), "#ffffff");
/// assert_eq!(text_on("#e69f00"), "#000000");
/// assert!(contrast(text_on("#777777"), "#777777") >= 4.5);
/// ```
pub fn text_on(fill: &str) -> &'static str {
    // Black and white contrast equally at luminance sqrt(1.05 * 0.05) - 0.05 = 0.1791;
    // a label a cell, so the luminance is a table lookup, not a power.
    if luminance(fill) >= 0.052_5_f64.sqrt() - 0.05 {
        "#000000"
    } else {
        "#ffffff"
    }
}

/// WCAG 2's contrast ratio of two `#rrggbb` colours (1 to 21).
pub fn contrast(a: &str, b: &str) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// WCAG 2's relative luminance of an sRGB `#rrggbb` colour.
fn luminance(c: &str) -> f64 {
    static LINEAR: std::sync::OnceLock<[f64; 256]> = std::sync::OnceLock::new();
    let lin = LINEAR.get_or_init(|| {
        std::array::from_fn(|i| {
            let v = i as f64 / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        })
    });
    let [r, g, b, _] = rgba(c);
    0.2126 * lin[usize::from(r)] + 0.7152 * lin[usize::from(g)] + 0.0722 * lin[usize::from(b)]
}

/// How a cell the highlight leaves out is shown: its fill at this opacity over the page.
pub const DIM_OPACITY: f64 = 0.22;

/// [`DIM_OPACITY`] as the SVG's style writes it (a literal: formatting the float would put
/// float printing into the first picture's module).
///
/// ```
/// use cute_render::grid::{DIM_OPACITY, DIM_OPACITY_CSS};
/// assert_eq!(DIM_OPACITY_CSS, DIM_OPACITY.to_string());
/// ```
pub const DIM_OPACITY_CSS: &str = "0.22";

/// `fill` at [`DIM_OPACITY`] over `background` (both `#rrggbb`), as a dimmed cell shows.
pub fn dimmed_fill(fill: &str, background: &str) -> String {
    let (f, b) = (rgba(fill), rgba(background));
    let mix = |i: usize| {
        (DIM_OPACITY * f64::from(f[i]) + (1.0 - DIM_OPACITY) * f64::from(b[i])).round() as u8
    };
    format!("#{:02x}{:02x}{:02x}", mix(0), mix(1), mix(2))
}

/// `#rrggbb` as opaque RGBA (white where it does not parse).
pub(super) fn rgba(fill: &str) -> [u8; 4] {
    let hex = fill.trim_start_matches('#');
    let c = |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("ff"), 16).unwrap_or(255);
    [c(0), c(2), c(4), 255]
}

impl Figure {
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

    /// The number of cells of all panels together.
    pub fn cell_count(&self) -> usize {
        self.panels.iter().map(|(p, _)| p.rows * p.cols).sum()
    }

    /// Whether a panel's cells are computed on demand ([`CellSource`]): such a figure is
    /// too big for a file, and [`Figure::pixels`] gives its fills.
    pub fn is_lazy(&self) -> bool {
        self.panels.iter().any(|(p, _)| p.source.is_some())
    }
}
