//! Views: core values turned into [`Figure`]s.
//!
//! | view | value | picture |
//! |---|---|---|
//! | `layout` | layout, composed layout | rank-2 grid of offsets (rank 1: one row; modes 1.. grouped into columns), hierarchical headers and mode boundaries, CuTe's 8-grey ramp |
//! | `swizzle` | composed layout | before/after grids (`a→b`), coloured by bank, and the swizzle's bit fields for one offset |
//! | `tv` | `make_layout_tv(..)`, `(tile, tv)` | M×N grid, each cell `T#` over `V#`, coloured by thread |
//! | `mma` | MMA atom, TiledMMA | A (M×K) left, B (K×N) on top, C (M×N) at the origin, as CuTe's print_latex |
//! | `copy` | copy atom with a value type, TiledCopy | S and D side by side |
//! | `banks` | `bank_conflicts(..)` | 32 banks × 4-byte word rows per instruction: which lane touches which word in which phase, conflicts outlined, wavefront summary |
//! | `search` | `swizzle_search(..)` | ranked table, one row per candidate (best first, at most [`SEARCH_ROWS`]): candidate, wavefronts, ideal, conflicts, × ideal, padding; coloured best (green / yellow) to worst (red / blue) |
//! | `algebra` | a call of one of [`ALGEBRA_OPS`] | each layout operand (`A = …`, `B = …`; a tiler one panel per layout mode) and the result (`composition(A, B) = …`) side by side, as offset grids; other operands as notes |

use crate::grid::{Cell, Data, Figure, Panel};
use cute_core::atom::{Atom, TiledCopy, TiledMma};
use cute_core::bank::{bank_of_offset, BankReport, Candidate, BANKS, WORD_BYTES};
use cute_core::expr::Call;
use cute_core::int_tuple::idx2crd;
use cute_core::swizzle::AnyLayout;
use cute_core::{ComposedLayout, Error, IntTuple, Layout, Result, Swizzle, Value};

/// Above this many cells a figure is an overview without per-cell text.
pub const CELL_TEXT_CAP: usize = 16_384;
/// Above this many cells nothing is drawn (the SVG would not be usable).
pub const CELL_HARD_CAP: usize = 1 << 18;

/// Which picture to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum View {
    /// Inferred from the value: layout → layout, composed → swizzle, (tile, tv) → tv,
    /// MMA → mma, copy → copy, bank analysis → banks.
    Auto,
    /// Offsets of a layout.
    Layout,
    /// A composed layout before and after its swizzle.
    Swizzle,
    /// A thread-value layout.
    Tv,
    /// A/B/C of an MMA.
    Mma,
    /// S/D of a copy.
    Copy,
    /// Shared-memory banks of an access.
    Banks,
    /// The ranking of a swizzle search.
    Search,
    /// The operands and the result of an algebra operation, side by side.
    Algebra,
}

impl View {
    /// Every view, in menu order (`auto` first).
    ///
    /// ```
    /// use cute_render::View;
    /// for v in View::ALL {
    ///     assert_eq!(View::parse(v.name()), Some(*v));
    /// }
    /// assert_eq!(View::ALL.len(), 9);
    /// ```
    pub const ALL: &'static [View] = &[
        View::Auto,
        View::Layout,
        View::Swizzle,
        View::Tv,
        View::Mma,
        View::Copy,
        View::Banks,
        View::Search,
        View::Algebra,
    ];

    /// The view's name: what [`View::parse`] reads, `--view` takes and a figure's
    /// `data-view` says.
    ///
    /// ```
    /// use cute_render::View;
    /// assert_eq!(View::Algebra.name(), "algebra");
    /// assert_eq!(View::parse("search"), Some(View::Search));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            View::Auto => "auto",
            View::Layout => "layout",
            View::Swizzle => "swizzle",
            View::Tv => "tv",
            View::Mma => "mma",
            View::Copy => "copy",
            View::Banks => "banks",
            View::Search => "search",
            View::Algebra => "algebra",
        }
    }

    /// Parse a view name (the inverse of [`View::name`]).
    pub fn parse(s: &str) -> Option<View> {
        View::ALL.iter().copied().find(|v| v.name() == s)
    }
}

/// Colour schemes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Palette {
    /// CuTe's print_latex colours (grey ramp, 8 pastels) and a hue wheel for banks.
    Cute,
    /// Colour-blind-safe: Okabe–Ito for threads and phases, cividis for banks.
    #[cfg_attr(feature = "cli", value(name = "colorblind"))]
    ColorBlind,
}

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
    /// Offset whose swizzle bits the swizzle view spells out (default: one that changes).
    pub bit_offset: Option<i64>,
    /// Emphasised thread or warp.
    pub highlight: Option<Highlight>,
    /// Warp whose instructions the bank view draws.
    pub warp: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            view: View::Auto,
            palette: Palette::Cute,
            elem_bits: 16,
            bit_offset: None,
            highlight: None,
            warp: 0,
        }
    }
}

/// CuTe print_latex's grey ramp for offsets (`black!00, black!40, black!20, …`), as RGB.
const GREY_RAMP: [&str; 8] = [
    "#ffffff", "#999999", "#cccccc", "#666666", "#e6e6e6", "#808080", "#b3b3b3", "#4d4d4d",
];
/// CuTe print_latex's 8 thread colours (TikzColor_TV).
const TV_PASTELS: [&str; 8] = [
    "#afafff", "#afffaf", "#ffffaf", "#ffafaf", "#d2d2ff", "#d2ffd2", "#ffffd2", "#ffd2d2",
];
/// Okabe–Ito, lightened where black text must stay readable.
const OKABE_ITO: [&str; 8] = [
    "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#bbbbbb",
];

impl Palette {
    /// Every palette, in menu order.
    pub const ALL: &'static [Palette] = &[Palette::Cute, Palette::ColorBlind];

    /// The palette's name: `cute` or `colorblind` (what `--palette` takes).
    ///
    /// ```
    /// use cute_render::Palette;
    /// assert_eq!(Palette::ColorBlind.name(), "colorblind");
    /// assert_eq!(Palette::parse("cute"), Some(Palette::Cute));
    /// assert_eq!(Palette::parse("CB"), None);
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Palette::Cute => "cute",
            Palette::ColorBlind => "colorblind",
        }
    }

    /// Parse a palette name (the inverse of [`Palette::name`]).
    pub fn parse(s: &str) -> Option<Palette> {
        Palette::ALL.iter().copied().find(|p| p.name() == s)
    }

    /// The colour of a quality from `t = 0` (best) to `t = 1` (worst): green → yellow →
    /// red, or (colour-blind) cividis from yellow (best) to dark blue (worst).
    fn quality(self, t: f64) -> String {
        let t = t.clamp(0.0, 1.0);
        match self {
            Palette::Cute => hsl(120.0 * (1.0 - t), 0.6, 0.72),
            Palette::ColorBlind => cividis(1.0 - t),
        }
    }

    fn thread(self, t: i64) -> String {
        let k = t.rem_euclid(8) as usize;
        match self {
            Palette::Cute => TV_PASTELS[k],
            Palette::ColorBlind => OKABE_ITO[k],
        }
        .to_string()
    }

    fn bank(self, b: u64) -> String {
        match self {
            // A hue wheel with alternating lightness so neighbouring banks differ.
            Palette::Cute => {
                let h = (b * 360 / BANKS) as f64;
                let l = if b.is_multiple_of(2) { 0.78 } else { 0.66 };
                hsl(h, 0.65, l)
            }
            Palette::ColorBlind => cividis(b as f64 / (BANKS - 1) as f64),
        }
    }

    fn phase(self, p: usize) -> String {
        match self {
            Palette::Cute => ["#afafff", "#afffaf", "#ffffaf", "#ffd2d2"][p % 4].to_string(),
            Palette::ColorBlind => ["#56b4e9", "#e69f00", "#009e73", "#cc79a7"][p % 4].to_string(),
        }
    }
}

fn hsl(h: f64, s: f64, l: f64) -> String {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match (h / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let to = |v: f64| ((v + m) * 255.0).round() as u8;
    format!("#{:02x}{:02x}{:02x}", to(r), to(g), to(b))
}

/// The cividis colour map (blue → yellow, readable with any colour vision), by 5 stops.
fn cividis(t: f64) -> String {
    const STOPS: [(f64, f64, f64); 5] = [
        (0.0, 34.0, 78.0),
        (72.0, 82.0, 110.0),
        (124.0, 123.0, 120.0),
        (187.0, 170.0, 108.0),
        (253.0, 231.0, 55.0),
    ];
    let x = t.clamp(0.0, 1.0) * 4.0;
    let i = (x as usize).min(3);
    let f = x - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |p: f64, q: f64| (p + (q - p) * f).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// Whether the algebra view draws a call of `name` (the op table's `algebra` column).
fn is_algebra_op(name: &str) -> bool {
    cute_core::expr::lookup(name).is_some_and(|o| o.algebra)
}

/// The operations the algebra view draws, for messages.
fn algebra_ops() -> String {
    let names: Vec<&str> = cute_core::expr::OPS
        .iter()
        .filter(|o| o.algebra)
        .map(|o| o.name)
        .collect();
    names.join(", ")
}

/// The view a value gets when none is asked for (see [`infer_view_of_call`] for the
/// algebra view, which also needs the drawn line's call).
///
/// ```
/// use cute_render::{views::infer_view, View};
/// let v = cute_core::eval_line("swizzle_search((32,64):(64,1), 32, (32,4):(1,32), LDS128)").unwrap();
/// assert_eq!(infer_view(&v), View::Search);
/// ```
pub fn infer_view(value: &Value) -> View {
    match value {
        Value::Ranked(_) => View::Search,
        Value::Composed(_) => View::Swizzle,
        Value::Tuple(vs) if vs.len() == 2 && matches!(vs[1], Value::Layout(_)) => View::Tv,
        Value::Atom(a) if matches!(**a, Atom::Mma(_)) => View::Mma,
        Value::TiledMma(_) => View::Mma,
        Value::Atom(_) | Value::TiledCopy(_) => View::Copy,
        Value::Banks(_) => View::Banks,
        _ => View::Layout,
    }
}

/// The view a value gets when none is asked for, knowing the drawn line's call: a layout
/// computed by a call of one of [`ALGEBRA_OPS`] gets the algebra view; otherwise
/// [`infer_view`].
///
/// ```
/// use cute_core::Session;
/// use cute_render::{views::infer_view_of_call, View};
/// let s = Session::default();
/// let line = "logical_divide((4,2,3):(2,1,8), 4:2)";
/// let v = cute_core::eval_line(line).unwrap();
/// assert_eq!(infer_view_of_call(&v, s.call_operands(line).as_ref()), View::Algebra);
/// assert_eq!(infer_view_of_call(&v, None), View::Layout);
/// ```
pub fn infer_view_of_call(value: &Value, call: Option<&Call>) -> View {
    match (value, call) {
        (Value::Layout(_), Some(c)) if is_algebra_op(&c.name) => View::Algebra,
        _ => infer_view(value),
    }
}

/// Draw `value` as a figure titled `title` (no call known: the algebra view is an error;
/// see [`figure_with_call`]).
///
/// ```
/// use cute_render::views::{figure, Options};
/// let v = cute_core::eval_line("(4,8):(8,1)").unwrap();
/// let f = figure("(4,8):(8,1)", &v, &Options::default()).unwrap();
/// let p = &f.panels[0].0;
/// assert_eq!((p.rows, p.cols), (4, 8));
/// assert_eq!(p.cells[1].text, "1");   // row 0, column 1
/// assert_eq!(p.cells[8].text, "8");   // row 1, column 0
/// ```
pub fn figure(title: &str, value: &Value, opts: &Options) -> Result<Figure> {
    figure_with_call(title, value, None, opts)
}

/// Draw `value`, the result of the line whose top-level call is `call` (from
/// [`cute_core::Session::call_operands`]), as a figure titled `title`. The call is what
/// the algebra view draws beside the result.
///
/// ```
/// use cute_core::Session;
/// use cute_render::views::{figure_with_call, Options};
/// let line = "composition((4,8):(8,1), (2,4):(4,1))";
/// let v = cute_core::eval_line(line).unwrap();
/// let call = Session::default().call_operands(line);
/// let f = figure_with_call(line, &v, call.as_ref(), &Options::default()).unwrap();
/// assert_eq!(f.view, "algebra");
/// let ids: Vec<&str> = f.panels.iter().map(|(p, _)| p.id.as_str()).collect();
/// assert_eq!(ids, ["A", "B", "result"]);
/// ```
pub fn figure_with_call(
    title: &str,
    value: &Value,
    call: Option<&Call>,
    opts: &Options,
) -> Result<Figure> {
    let view = match opts.view {
        View::Auto => infer_view_of_call(value, call),
        v => v,
    };
    // The title is the user's text: XML cannot carry control characters, even escaped.
    let title: String = title
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    let title = title.as_str();
    match view {
        View::Layout | View::Auto => layout_figure(title, value, opts),
        View::Swizzle => match value {
            Value::Composed(c) => swizzle_figure(title, c, opts),
            v => Err(Error::new(format!(
                "the swizzle view draws a composed layout (Sw<B,M,S> o 0 o L), got {}",
                v.kind()
            ))),
        },
        View::Tv => tv_figure(title, value, opts),
        View::Mma => {
            let m = match value {
                Value::TiledMma(m) => (**m).clone(),
                Value::Atom(a) => match &**a {
                    Atom::Mma(a) => a.tiled()?,
                    Atom::Copy(c) => {
                        return Err(Error::new(format!(
                            "{} is a copy atom: use the copy view",
                            c.name
                        )))
                    }
                },
                v => {
                    return Err(Error::new(format!(
                        "the mma view draws an MMA atom or TiledMMA, got {}",
                        v.kind()
                    )))
                }
            };
            mma_figure(title, &m, opts)
        }
        View::Copy => {
            let c = match value {
                Value::TiledCopy(c) => (**c).clone(),
                Value::Atom(a) => match &**a {
                    Atom::Copy(c) => {
                        let c = if c.val_bits.is_some() {
                            c.clone()
                        } else {
                            c.with_value_bits(16)?
                        };
                        let r = c.val_layout(&c.ref_)?;
                        let thr = r.mode(0)?.size()?;
                        let val = r.mode(1)?.size()?;
                        cute_core::atom::make_tiled_copy_impl(
                            &c,
                            Layout::col_major(IntTuple::ints(&[thr, val]))?,
                            IntTuple::ints(&[thr, val]),
                        )?
                    }
                    Atom::Mma(m) => {
                        return Err(Error::new(format!(
                            "{} is an MMA atom: use the mma view",
                            m.name
                        )))
                    }
                },
                v => {
                    return Err(Error::new(format!(
                        "the copy view draws a copy atom or TiledCopy, got {}",
                        v.kind()
                    )))
                }
            };
            copy_figure(title, &c, opts)
        }
        View::Banks => match value {
            Value::Banks(b) => bank_figure(title, b, opts),
            v => Err(Error::new(format!(
                "the bank view draws bank_conflicts(...), got {}",
                v.kind()
            ))),
        },
        View::Search => match value {
            Value::Ranked(cs) => search_figure(title, cs, opts),
            v => Err(Error::new(format!(
                "the search view draws swizzle_search(...), got {}",
                v.kind()
            ))),
        },
        View::Algebra => match call {
            Some(c) if is_algebra_op(&c.name) => {
                algebra_figure(title, c, value, opts)
            }
            Some(c) => Err(Error::new(format!(
                "the algebra view draws a call of {}; the line calls {}",
                algebra_ops(),
                c.name
            ))),
            None => Err(Error::new(format!(
                "the algebra view draws the operands and result of a call of {}; the drawn line is not such a call",
                algebra_ops()
            ))),
        },
    }
}

fn check_cells(n: i64) -> Result<bool> {
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if n > CELL_HARD_CAP {
        return Err(Error::new(format!(
            "{n} cells is too many to draw (limit {CELL_HARD_CAP})"
        )));
    }
    Ok(n <= CELL_TEXT_CAP)
}

fn overview_note(n: usize) -> String {
    format!("overview: {n} cells exceed {CELL_TEXT_CAP}, so cell text is left out (hover a cell for its values)")
}

// ---------------------------------------------------------------------------------------
// Layout and swizzle views
// ---------------------------------------------------------------------------------------

fn header(i: usize, shape: &IntTuple) -> String {
    if shape.is_int() {
        return i.to_string();
    }
    match idx2crd(&IntTuple::Int(i as i64), shape) {
        Ok(c) => format!("{i} {c}"),
        Err(_) => i.to_string(),
    }
}

/// Where the innermost sub-mode of a grouped mode wraps: thicker lines there.
fn breaks(shape: &IntTuple, n: usize) -> Vec<usize> {
    match shape {
        IntTuple::Tuple(ms) if ms.len() > 1 => match ms[0].size() {
            Ok(k) if k > 1 && (k as usize) < n => (1..)
                .map(|j| j * k as usize)
                .take_while(|&b| b < n)
                .collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// A layout's rows and columns: mode 0 down, the other modes across.
fn row_col_shapes(layout: &Layout) -> (IntTuple, IntTuple) {
    match layout.shape() {
        IntTuple::Int(_) | IntTuple::Dyn(_) => (IntTuple::Int(1), layout.shape().clone()),
        // The empty layout `():()` has one cell.
        IntTuple::Tuple(modes) if modes.is_empty() => (IntTuple::Int(1), IntTuple::Int(1)),
        IntTuple::Tuple(modes) if modes.len() == 1 => (IntTuple::Int(1), modes[0].clone()),
        IntTuple::Tuple(modes) => (
            modes[0].clone(),
            if modes.len() == 2 {
                modes[1].clone()
            } else {
                IntTuple::Tuple(modes[1..].to_vec())
            },
        ),
    }
}

/// One grid of a layout's domain; `text(pre, post)` and `fill(pre, post)` pick the labels.
fn offsets_panel(
    id: &str,
    label: &str,
    map: &AnyLayout,
    cell_text: bool,
    bits: u32,
    text: impl Fn(i64, i64) -> String,
    fill: impl Fn(i64, i64) -> String,
) -> Result<Panel> {
    let (row_shape, col_shape) = row_col_shapes(map.inner());
    if map.inner().shape().leaves().iter().any(|&s| s < 0) {
        return Err(Error::new(format!(
            "cannot draw {}: a shape entry is negative",
            map.inner()
        )));
    }
    let size = map.size()?;
    let rows = row_shape.size()?;
    let cols = if rows == 0 { 0 } else { size / rows };
    let (rows, cols) = (rows as usize, cols as usize);
    let mut cells = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let idx = (r + rows * c) as i64;
            let (a, b) = (map.unswizzled(idx)?, map.call_index(idx)?);
            let mut data = vec![
                ("idx", Data::from(idx)),
                ("row", Data::from(r)),
                ("col", Data::from(c)),
                ("offset", Data::from(b)),
                ("bank", Data::from(bank_of_offset(b, bits))),
            ];
            if map.swizzle().is_some() {
                data.push(("pre", Data::from(a)));
            }
            cells.push(Cell {
                text: if cell_text { text(a, b) } else { String::new() },
                fill: fill(a, b),
                class: String::new(),
                data,
            });
        }
    }
    Ok(Panel {
        id: id.to_string(),
        label: label.to_string(),
        rows,
        cols,
        row_headers: (0..rows).map(|r| header(r, &row_shape)).collect(),
        col_headers: (0..cols).map(|c| header(c, &col_shape)).collect(),
        cells,
        col_breaks: breaks(&col_shape, cols),
        row_breaks: breaks(&row_shape, rows),
    })
}

/// The layout view's grid: cell = (swizzled) offset, colour = offset mod 8 in CuTe's grey
/// ramp.
fn grey_panel(
    id: &str,
    label: &str,
    layout: &AnyLayout,
    cell_text: bool,
    opts: &Options,
) -> Result<Panel> {
    offsets_panel(
        id,
        label,
        layout,
        cell_text,
        opts.elem_bits,
        |_, b| b.to_string(),
        |_, b| GREY_RAMP[b.rem_euclid(8) as usize].to_string(),
    )
}

fn grey_legend() -> Vec<(String, String)> {
    GREY_RAMP
        .iter()
        .enumerate()
        .map(|(k, g)| (g.to_string(), k.to_string()))
        .collect()
}

fn layout_figure(title: &str, value: &Value, opts: &Options) -> Result<Figure> {
    let Some(layout) = value.to_any_layout() else {
        return Err(Error::new(format!(
            "the layout view draws a layout or a composed layout, got {}",
            value.kind()
        )));
    };
    // Shared-memory atoms are drawn in elements, as a tensor over them is addressed.
    let layout = layout.in_elements()?;
    let size = layout.size()?;
    let cell_text = check_cells(size)?;
    let what = if layout.swizzle().is_some() {
        "swizzled offset"
    } else {
        "offset"
    };
    let panel = grey_panel("layout", "", &layout, cell_text, opts)?;
    let (rows, cols) = (panel.rows, panel.cols);
    Ok(Figure {
        view: "layout",
        title: title.to_string(),
        subtitle: format!("{value}  ·  {rows}x{cols}, cell = {what}, colour = {what} mod 8"),
        panels: vec![(panel, (0, 0))],
        legend_title: format!("{what} mod 8:"),
        legend: grey_legend(),
        notes: if cell_text {
            Vec::new()
        } else {
            vec![overview_note(size as usize)]
        },
        cell_text,
    })
}

fn swizzle_figure(title: &str, original: &ComposedLayout, opts: &Options) -> Result<Figure> {
    // Shared-memory atoms are drawn in elements, as a tensor over them is addressed.
    let map = AnyLayout::Composed(original.clone()).in_elements()?;
    let AnyLayout::Composed(c) = &map else {
        // The swizzle is the identity in elements: nothing moves.
        return layout_figure(title, &Value::Composed(original.clone()), opts);
    };
    let size = c.layout.size()?;
    let cell_text = check_cells(size.saturating_mul(2))?;
    let bits = opts.elem_bits;
    let pal = opts.palette;
    // 32 colours, computed once rather than per cell.
    let bank_fill: Vec<String> = (0..BANKS).map(|b| pal.bank(b)).collect();
    let before = offsets_panel(
        "before",
        &format!("before: {} + {}", c.offset, c.layout),
        &map,
        cell_text,
        bits,
        |a, _| a.to_string(),
        |a, _| bank_fill[bank_of_offset(a, bits) as usize].clone(),
    )?;
    let after = offsets_panel(
        "after",
        &format!("after: {}", c.swizzle),
        &map,
        cell_text,
        bits,
        |a, b| format!("{a}\u{2192}{b}"),
        |_, b| bank_fill[bank_of_offset(b, bits) as usize].clone(),
    )?;
    let sw = c.swizzle;
    // The offset to spell out: asked for, or the first one the swizzle moves.
    let shown = match opts.bit_offset {
        Some(o) => o,
        None => (0..size.min(1 << 16))
            .map(|i| map.unswizzled(i))
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .find(|&a| sw.apply(a) != a)
            .unwrap_or(0),
    };
    let bits_panel = bit_panel(sw, shown, pal);
    let (b, m, s) = (sw.b, sw.m, sw.s);
    let mut notes = vec![
        format!(
            "{sw}: yyy = bits [{}, {}) are XORed into zzz = bits [{m}, {}); base = the low {m} bits (2^{m} = {} elements) stay together",
            m + s.max(0),
            m + s.max(0) + b,
            m + b,
            1i64 << m.clamp(0, 62)
        ),
        format!(
            "colour = bank of the offset for {bits}-bit elements (bank = offset*{bits}/32 mod 32); cells read 'before\u{2192}after'"
        ),
    ];
    if !cell_text {
        notes.push(overview_note(size as usize * 2));
    }
    Ok(Figure {
        view: "swizzle",
        title: title.to_string(),
        subtitle: format!(
            "{original}  ·  {}x{} before and after the swizzle, offset {shown} spelled out in bits",
            before.rows, before.cols
        ),
        // Wide tiles stack vertically, tall ones sit side by side.
        panels: if before.cols > 2 * before.rows {
            vec![(before, (0, 0)), (after, (0, 1)), (bits_panel, (0, 2))]
        } else {
            vec![(before, (0, 0)), (after, (1, 0)), (bits_panel, (0, 1))]
        },
        legend_title: "bank:".into(),
        legend: (0..BANKS)
            .step_by(4)
            .map(|k| (pal.bank(k), k.to_string()))
            .collect(),
        notes,
        cell_text,
    })
}

/// Two rows of bits (the offset, and after the swizzle), MSB first, coloured by field.
fn bit_panel(sw: Swizzle, a: i64, pal: Palette) -> Panel {
    let b = sw.apply(a);
    let top = (sw.m + sw.s.abs() + sw.b)
        .max(64 - (a.max(b).max(1) as u64).leading_zeros() as i64)
        .clamp(1, 62);
    let nbits = top as usize;
    let field = |k: i64| -> (&'static str, String) {
        let (zl, yl) = (sw.m, sw.m + sw.s);
        if k < sw.m {
            ("base", "#d9d9d9".into())
        } else if (zl..zl + sw.b).contains(&k) {
            ("zzz", pal.phase(0))
        } else if (yl..yl + sw.b).contains(&k) {
            ("yyy", pal.phase(1))
        } else {
            ("", "#ffffff".into())
        }
    };
    let mut cells = Vec::new();
    for (row, v) in [a, b].into_iter().enumerate() {
        for col in 0..nbits {
            let k = (nbits - 1 - col) as i64;
            let bit = (v >> k) & 1;
            let (f, fill) = field(k);
            let flipped = row == 1 && ((a >> k) & 1) != bit;
            cells.push(Cell {
                text: bit.to_string(),
                fill,
                class: if flipped {
                    "conflict".into()
                } else {
                    String::new()
                },
                data: vec![("bit", Data::from(k)), ("field", Data::Text(f.to_string()))],
            });
        }
    }
    Panel {
        id: "bits".into(),
        label: format!("offset {a} \u{2192} {b} in bits (yyy XOR into zzz; changed bits outlined)"),
        rows: 2,
        cols: nbits,
        row_headers: vec![format!("{a}"), format!("{b}")],
        col_headers: (0..nbits).map(|c| (nbits - 1 - c).to_string()).collect(),
        cells,
        col_breaks: Vec::new(),
        row_breaks: Vec::new(),
    }
}

// ---------------------------------------------------------------------------------------
// Thread-value views
// ---------------------------------------------------------------------------------------

fn dimmed(h: Option<Highlight>, t: i64) -> bool {
    match h {
        None => false,
        Some(Highlight::Thread(x)) => t != x,
        Some(Highlight::Warp(w)) => t.div_euclid(32) != w,
    }
}

/// A (thread, value) → column-major index layout drawn over an M×N tile; `transpose`
/// draws it N×M (B of an MMA: K rows, N columns); `axes` name the drawn rows and columns.
#[allow(clippy::too_many_arguments)]
fn tv_panel(
    id: &str,
    label: &str,
    tv: &Layout,
    m: i64,
    n: i64,
    transpose: bool,
    axes: [&str; 2],
    cell_text: bool,
    opts: &Options,
) -> Result<Panel> {
    if tv.rank() != 2 {
        return Err(Error::new(format!(
            "a thread-value layout has rank 2 (thread, value), got {tv}"
        )));
    }
    let (rows, cols) = if transpose { (n, m) } else { (m, n) };
    let (rows, cols) = (rows as usize, cols as usize);
    let threads = tv.mode(0)?.size()?;
    let values = tv.mode(1)?.size()?;
    if threads.saturating_mul(values) > CELL_HARD_CAP as i64 * 4 {
        return Err(Error::new(format!(
            "{threads} threads x {values} values is too many to draw"
        )));
    }
    let mut cells: Vec<Cell> = (0..rows * cols)
        .map(|k| Cell {
            text: String::new(),
            fill: "#ffffff".into(),
            class: "empty".into(),
            data: vec![("row", Data::from(k / cols)), ("col", Data::from(k % cols))],
        })
        .collect();
    let size = m * n;
    for t in 0..threads {
        for v in 0..values {
            let idx = tv.call_coord(&IntTuple::ints(&[t, v]))?;
            if idx < 0 || idx >= size {
                return Err(Error::new(format!(
                    "thread {t} value {v} maps to {idx}, outside the {m}x{n} tile"
                )));
            }
            let (r, c) = (idx % m, idx / m);
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            let cell = &mut cells[r as usize * cols + c as usize];
            if cell.class == "empty" {
                cell.text = if cell_text {
                    format!("T{t}\nV{v}")
                } else {
                    String::new()
                };
                cell.fill = opts.palette.thread(t);
                cell.class = if dimmed(opts.highlight, t) {
                    "dim".into()
                } else {
                    String::new()
                };
                cell.data.extend([
                    ("idx", Data::from(idx)),
                    ("thread", Data::from(t)),
                    ("value", Data::from(v)),
                ]);
            } else {
                // Several (thread, value) pairs on one element (broadcast / duplicates).
                match cell.data.iter_mut().find(|(k, _)| *k == "also") {
                    Some((_, Data::Text(s))) => s.push_str(&format!(" T{t}V{v}")),
                    _ => cell.data.push(("also", Data::Text(format!("T{t}V{v}")))),
                }
            }
        }
    }
    let [rn, cn] = axes;
    Ok(Panel {
        id: id.to_string(),
        label: label.to_string(),
        rows,
        cols,
        row_headers: (0..rows).map(|r| format!("{rn}{r}")).collect(),
        col_headers: (0..cols).map(|c| format!("{cn}{c}")).collect(),
        cells,
        col_breaks: Vec::new(),
        row_breaks: Vec::new(),
    })
}

fn thread_legend(threads: i64, pal: Palette) -> Vec<(String, String)> {
    (0..threads.min(8))
        .map(|t| (pal.thread(t), format!("T{t} (+8k)")))
        .collect()
}

fn tv_notes(opts: &Options, cell_text: bool, cells: usize) -> Vec<String> {
    let mut notes = vec!["cell = T# (thread) over V# (value); colour = thread mod 8".to_string()];
    match opts.highlight {
        Some(Highlight::Thread(t)) => notes.push(format!("thread {t} highlighted")),
        Some(Highlight::Warp(w)) => notes.push(format!(
            "warp {w} (threads {}..{}) highlighted",
            32 * i128::from(w),
            32 * i128::from(w) + 31
        )),
        None => {}
    }
    if !cell_text {
        notes.push(overview_note(cells));
    }
    notes
}

fn tile_mn(tiler: &IntTuple) -> Result<(i64, i64)> {
    match tiler {
        IntTuple::Int(m) | IntTuple::Dyn(m) => Ok((*m, 1)),
        IntTuple::Tuple(ts) if ts.len() == 1 => Ok((ts[0].size()?, 1)),
        IntTuple::Tuple(ts) if ts.len() == 2 => Ok((ts[0].size()?, ts[1].size()?)),
        t => Err(Error::new(format!(
            "a tile of rank 1 or 2 is drawn, got {t}"
        ))),
    }
}

fn tv_figure(title: &str, value: &Value, opts: &Options) -> Result<Figure> {
    let (tiler, tv) = match value {
        Value::Tuple(vs) if vs.len() == 2 => (vs[0].to_int_tuple()?, vs[1].to_layout()?.clone()),
        v => {
            return Err(Error::new(format!(
            "the TV view draws make_layout_tv(thr, val) or a (tile_shape, tv_layout) pair, got {}",
            v.kind()
        )))
        }
    };
    let (m, n) = tile_mn(&tiler)?;
    let cell_text = check_cells(m.saturating_mul(n))?;
    let panel = tv_panel("tv", "", &tv, m, n, false, ["m", "n"], cell_text, opts)?;
    let threads = tv.mode(0)?.size()?;
    Ok(Figure {
        view: "tv",
        title: title.to_string(),
        subtitle: format!(
            "{tv} over a {m}x{n} tile  ·  {threads} threads x {} values",
            tv.mode(1)?.size()?
        ),
        panels: vec![(panel, (0, 0))],
        legend_title: "thread:".into(),
        legend: thread_legend(threads, opts.palette),
        notes: tv_notes(opts, cell_text, (m * n) as usize),
        cell_text,
    })
}

fn mma_figure(title: &str, mma: &TiledMma, opts: &Options) -> Result<Figure> {
    let (m, n, k) = (mma.tile_size(0)?, mma.tile_size(1)?, mma.tile_size(2)?);
    let total = m * n + m * k + n * k;
    let cell_text = check_cells(total)?;
    let a = tv_panel(
        "A",
        &format!("A ({m}x{k})"),
        &mma.layout_a_tv()?,
        m,
        k,
        false,
        ["m", "k"],
        cell_text,
        opts,
    )?;
    let b = tv_panel(
        "B",
        &format!("B ({k}x{n}, drawn K x N)"),
        &mma.layout_b_tv()?,
        n,
        k,
        true,
        ["k", "n"],
        cell_text,
        opts,
    )?;
    let c = tv_panel(
        "C",
        &format!("C ({m}x{n})"),
        &mma.layout_c_tv()?,
        m,
        n,
        false,
        ["m", "n"],
        cell_text,
        opts,
    )?;
    let threads = mma.thr_layout_vmnk.size()?;
    Ok(Figure {
        view: "mma",
        title: title.to_string(),
        subtitle: format!(
            "{}  ·  tile {m}x{n}x{k}, {threads} threads, ThrLayoutVMNK {}",
            mma.atom.name, mma.thr_layout_vmnk
        ),
        panels: vec![(b, (1, 0)), (a, (0, 1)), (c, (1, 1))],
        legend_title: "thread:".into(),
        legend: thread_legend(threads, opts.palette),
        notes: tv_notes(opts, cell_text, total as usize),
        cell_text,
    })
}

fn copy_figure(title: &str, copy: &TiledCopy, opts: &Options) -> Result<Figure> {
    let (m, n) = tile_mn(&copy.tiler)?;
    let cell_text = check_cells(2 * m * n)?;
    let s = tv_panel(
        "S",
        "S (source)",
        &copy.layout_s_tv()?,
        m,
        n,
        false,
        ["m", "n"],
        cell_text,
        opts,
    )?;
    let d = tv_panel(
        "D",
        "D (destination)",
        &copy.layout_d_tv()?,
        m,
        n,
        false,
        ["m", "n"],
        cell_text,
        opts,
    )?;
    let threads = copy.layout_tv.mode(0)?.size()?;
    Ok(Figure {
        view: "copy",
        title: title.to_string(),
        subtitle: format!(
            "{} ({}-bit values)  ·  tile {m}x{n}, {threads} threads",
            copy.atom.name,
            copy.atom.val_bits.unwrap_or(0)
        ),
        panels: vec![(s, (0, 0)), (d, (1, 0))],
        legend_title: "thread:".into(),
        legend: thread_legend(threads, opts.palette),
        notes: tv_notes(opts, cell_text, (2 * m * n) as usize),
        cell_text,
    })
}

// ---------------------------------------------------------------------------------------
// Bank view
// ---------------------------------------------------------------------------------------

/// Instructions drawn per figure (the summary covers all of them).
pub const BANK_PANELS: usize = 4;

fn bank_figure(title: &str, r: &BankReport, opts: &Options) -> Result<Figure> {
    let warp = opts.warp;
    let instrs: Vec<_> = r.instrs.iter().filter(|i| i.warp == warp).collect();
    if instrs.is_empty() {
        return Err(Error::new(format!(
            "warp {warp} does not exist: the access has {} warp(s)",
            r.warps()
        )));
    }
    let mut panels = Vec::new();
    let mut notes = Vec::new();
    for (k, wi) in instrs.iter().take(BANK_PANELS).enumerate() {
        // word -> (lanes, phase of the first lane)
        let mut words: std::collections::BTreeMap<u64, (Vec<usize>, usize)> = Default::default();
        for lane in 0..32 {
            let Some(p) = wi.phase_of(lane) else { continue };
            for (_, w) in wi.lane_words(lane, r.instr) {
                words
                    .entry(w)
                    .or_insert_with(|| (Vec::new(), p))
                    .0
                    .push(lane);
            }
        }
        // A bank conflicts within a phase when it holds more than one word there.
        let mut phase_words: std::collections::HashMap<
            (usize, u64),
            std::collections::BTreeSet<u64>,
        > = Default::default();
        for lane in 0..32 {
            let Some(p) = wi.phase_of(lane) else { continue };
            for (b, w) in wi.lane_words(lane, r.instr) {
                phase_words.entry((p, b)).or_default().insert(w);
            }
        }
        let rows: Vec<u64> = {
            let mut rs: Vec<u64> = words.keys().map(|w| w / BANKS).collect();
            rs.dedup();
            rs
        };
        if rows.len() * 32 > CELL_HARD_CAP {
            return Err(Error::new("too many shared-memory rows to draw"));
        }
        let mut cells = Vec::with_capacity(rows.len() * 32);
        for &row in &rows {
            for bank in 0..BANKS {
                let w = row * BANKS + bank;
                match words.get(&w) {
                    None => cells.push(Cell {
                        text: String::new(),
                        fill: "#ffffff".into(),
                        class: "empty".into(),
                        data: vec![("bank", Data::from(bank)), ("word", Data::from(w))],
                    }),
                    Some((lanes, p)) => {
                        let t0 = i64::from(warp) * 32 + lanes[0] as i64;
                        let text = if lanes.len() == 1 {
                            format!("T{t0}")
                        } else {
                            format!("T{t0}+{}", lanes.len() - 1)
                        };
                        let ways = phase_words.get(&(*p, bank)).map_or(1, |ws| ws.len());
                        let mut class = Vec::new();
                        if ways > 1 {
                            class.push("conflict");
                        }
                        if lanes
                            .iter()
                            .all(|&l| dimmed(opts.highlight, i64::from(warp) * 32 + l as i64))
                        {
                            class.push("dim");
                        }
                        cells.push(Cell {
                            text,
                            fill: opts.palette.phase(*p),
                            class: class.join(" "),
                            data: vec![
                                ("bank", Data::from(bank)),
                                ("word", Data::from(w)),
                                ("byte", Data::from(w * WORD_BYTES)),
                                ("phase", Data::from(*p)),
                                ("ways", Data::from(ways)),
                                (
                                    "threads",
                                    lanes
                                        .iter()
                                        .map(|&l| (i64::from(warp) * 32 + l as i64).to_string())
                                        .collect::<Vec<_>>()
                                        .join(" ")
                                        .into(),
                                ),
                            ],
                        });
                    }
                }
            }
        }
        let phases: Vec<String> = wi
            .phases
            .iter()
            .map(|p| {
                format!(
                    "T{}-{}: {}",
                    p.first_lane,
                    p.first_lane + p.lanes - 1,
                    p.wavefronts
                )
            })
            .collect();
        notes.push(format!(
            "instruction {}: {} wavefronts, ideal {}{}  (phases {})",
            wi.index,
            wi.wavefronts,
            wi.ideal,
            if wi.wavefronts > wi.ideal {
                format!(", {}-way conflict", wi.ways)
            } else {
                ", conflict-free".into()
            },
            phases.join(", ")
        ));
        panels.push((
            Panel {
                id: format!("i{}", wi.index),
                label: format!("warp {warp}, instruction {}: {}", wi.index, r.instr),
                rows: rows.len(),
                cols: BANKS as usize,
                row_headers: rows
                    .iter()
                    .map(|w| format!("B{}", w * BANKS * WORD_BYTES))
                    .collect(),
                col_headers: (0..BANKS).map(|b| b.to_string()).collect(),
                cells,
                col_breaks: Vec::new(),
                row_breaks: Vec::new(),
            },
            (0, k),
        ));
    }
    if instrs.len() > BANK_PANELS {
        notes.push(format!(
            "{} more instructions in this warp are summarised, not drawn",
            instrs.len() - BANK_PANELS
        ));
    }
    notes.push(format!(
        "tile: {} warp(s) x {} instruction(s): {} wavefronts, ideal {}{}",
        r.warps(),
        r.per_warp,
        r.wavefronts(),
        r.ideal(),
        if r.wavefronts() > r.ideal() {
            format!(
                " ({} extra, {}-way worst)",
                r.wavefronts() - r.ideal(),
                r.ways()
            )
        } else {
            ", conflict-free".into()
        }
    ));
    let nphases = r.instr.max_phases();
    let mut legend: Vec<(String, String)> = (0..nphases)
        .map(|p| (opts.palette.phase(p), format!("phase {p}")))
        .collect();
    legend.push((
        "#ffffff".into(),
        "red outline = bank conflict in that phase".into(),
    ));
    Ok(Figure {
        view: "banks",
        title: title.to_string(),
        subtitle: format!(
            "{} of {}-bit elements, {} per lane, over {}  ·  rows = 128-byte lines (B = byte address), columns = banks",
            r.instr, r.elem_bits, r.vec, r.smem
        ),
        panels,
        legend_title: "phase:".into(),
        legend,
        notes,
        cell_text: true,
    })
}

// ---------------------------------------------------------------------------------------
// Search view
// ---------------------------------------------------------------------------------------

/// Candidates drawn by the search view (the rest are counted in a note).
pub const SEARCH_ROWS: usize = 64;

/// The search view's columns: header, and the `data-field` of its cells.
const SEARCH_COLUMNS: [(&str, &str); 6] = [
    ("candidate", "candidate"),
    ("wavefronts", "wavefronts"),
    ("ideal", "ideal"),
    ("conflicts", "conflicts"),
    ("x ideal", "ratio"),
    ("smem +", "extra-elems"),
];

fn search_figure(title: &str, cs: &[Candidate], opts: &Options) -> Result<Figure> {
    if cs.is_empty() {
        return Err(Error::new("the search view has no candidates to draw"));
    }
    let shown = cs.len().min(SEARCH_ROWS);
    let cols = SEARCH_COLUMNS.len();
    let cell_text = check_cells((shown * cols) as i64)?;
    let best = cs.iter().map(|c| c.wavefronts).min().unwrap_or(0);
    let worst = cs.iter().map(|c| c.wavefronts).max().unwrap_or(0);
    // 0 = the fewest wavefronts of the search, 1 = the most, on a log scale (conflicts
    // multiply: 2-way, 4-way, ...).
    let (lo, hi) = ((best.max(1) as f64).ln(), (worst.max(1) as f64).ln());
    let quality = |w: u64| {
        if hi > lo {
            ((w.max(1) as f64).ln() - lo) / (hi - lo)
        } else {
            0.0
        }
    };
    let ratio = |c: &Candidate| {
        if c.ideal > 0 {
            format!("{:.2}", c.wavefronts as f64 / c.ideal as f64)
        } else {
            "-".to_string()
        }
    };
    let mut cells = Vec::with_capacity(shown * cols);
    for (k, c) in cs[..shown].iter().enumerate() {
        let fill = opts.palette.quality(quality(c.wavefronts));
        let conflicts = c.wavefronts.saturating_sub(c.ideal);
        let smem = c.smem.to_string();
        for (j, (_, field)) in SEARCH_COLUMNS.iter().enumerate() {
            let text = match j {
                0 => c.label.clone(),
                1 => c.wavefronts.to_string(),
                2 => c.ideal.to_string(),
                3 => conflicts.to_string(),
                4 => ratio(c),
                _ if c.extra_elems > 0 => format!("+{}", c.extra_elems),
                _ => "0".to_string(),
            };
            cells.push(Cell {
                text: if cell_text { text } else { String::new() },
                fill: fill.clone(),
                class: String::new(),
                data: vec![
                    ("row", Data::from(k)),
                    ("col", Data::from(j)),
                    ("field", Data::Text(field.to_string())),
                    ("rank", Data::from(k + 1)),
                    ("candidate", Data::Text(c.label.clone())),
                    ("wavefronts", Data::from(c.wavefronts)),
                    ("ideal", Data::from(c.ideal)),
                    ("conflicts", Data::from(conflicts)),
                    ("ratio", Data::Text(ratio(c))),
                    ("extra-elems", Data::from(c.extra_elems)),
                    ("smem", Data::Text(smem.clone())),
                ],
            });
        }
    }
    let panel = Panel {
        id: "ranking".into(),
        label: format!(
            "{} candidates, fewest wavefronts first{}",
            cs.len(),
            if shown < cs.len() {
                format!(" (best {shown} drawn)")
            } else {
                String::new()
            }
        ),
        rows: shown,
        cols,
        row_headers: (1..=shown).map(|r| format!("#{r}")).collect(),
        col_headers: SEARCH_COLUMNS.iter().map(|(h, _)| h.to_string()).collect(),
        cells,
        col_breaks: vec![1],
        row_breaks: Vec::new(),
    };
    let top = &cs[0];
    let base = cs.iter().find(|c| c.label == "none");
    let mut notes = vec![format!(
        "best: {} (#1): {} wavefronts, ideal {}{}",
        top.smem,
        top.wavefronts,
        top.ideal,
        match top.wavefronts.saturating_sub(top.ideal) {
            0 => ", conflict-free".to_string(),
            n => format!(", {n} extra"),
        }
    )];
    if let Some((rank, none)) = cs.iter().enumerate().find(|(_, c)| c.label == "none") {
        notes.push(format!(
            "no swizzle (#{}): {} wavefronts, {:.2} x the best",
            rank + 1,
            none.wavefronts,
            none.wavefronts as f64 / top.wavefronts.max(1) as f64
        ));
    }
    notes.push(
        "conflicts = wavefronts beyond the ideal; x ideal = wavefronts / ideal; smem + = elements of padding; ties: no padding first, shorter names first"
            .to_string(),
    );
    if shown < cs.len() {
        notes.push(format!(
            "{} more candidates (#{}..#{}) are not drawn",
            cs.len() - shown,
            shown + 1,
            cs.len()
        ));
    }
    if !cell_text {
        notes.push(overview_note(shown * cols));
    }
    // Five legend stops from the best to the worst wavefront count.
    let mut legend: Vec<(String, String)> = Vec::new();
    if hi > lo {
        for k in 0..5 {
            let t = f64::from(k) / 4.0;
            let w = (lo + (hi - lo) * t).exp().round();
            let tag = match k {
                0 => " (best)",
                4 => " (worst)",
                _ => "",
            };
            legend.push((opts.palette.quality(t), format!("{w}{tag}")));
        }
    } else {
        legend.push((opts.palette.quality(0.0), format!("{best} (all equal)")));
    }
    Ok(Figure {
        view: "search",
        title: title.to_string(),
        subtitle: format!(
            "swizzles, no swizzle and row paddings of {} ranked by total wavefronts  ·  colour = wavefronts (log scale), best to worst",
            base.map_or_else(|| top.smem.to_string(), |b| b.smem.to_string())
        ),
        panels: vec![(panel, (0, 0))],
        legend_title: "wavefronts:".into(),
        legend,
        notes,
        cell_text,
    })
}

// ---------------------------------------------------------------------------------------
// Algebra view
// ---------------------------------------------------------------------------------------

/// One grid of the algebra view before it is built.
struct Operand {
    id: String,
    label: String,
    layout: AnyLayout,
    size: usize,
}

impl Operand {
    /// Whether `v` is drawn as a grid.
    fn of_kind(v: &Value) -> bool {
        matches!(v, Value::Layout(_) | Value::Composed(_))
    }

    /// The grid of `v`, or `None` when `v` is not a layout.
    fn of(id: String, label: String, v: &Value) -> Result<Option<Operand>> {
        let Some(layout) = v.to_any_layout() else {
            return Ok(None);
        };
        let layout = layout.in_elements()?;
        let size = usize::try_from(layout.size()?).unwrap_or(usize::MAX);
        Ok(Some(Operand {
            id,
            label,
            layout,
            size,
        }))
    }
}

/// `A`, `B`, `C`, ... for argument `k`.
fn operand_name(k: usize) -> String {
    match u8::try_from(k) {
        Ok(k) if k < 26 => char::from(b'A' + k).to_string(),
        _ => format!("X{k}"),
    }
}

fn algebra_figure(title: &str, call: &Call, value: &Value, opts: &Options) -> Result<Figure> {
    let names: Vec<String> = (0..call.args.len()).map(operand_name).collect();
    let result_label = format!("{}({}) = {value}", call.name, names.join(", "));
    let Some(result) = Operand::of("result".into(), result_label, value)? else {
        return Err(Error::new(format!(
            "the algebra view draws a layout result, got {}",
            value.kind()
        )));
    };
    if result.size > CELL_HARD_CAP {
        return Err(Error::new(format!(
            "{} cells is too many to draw (limit {CELL_HARD_CAP})",
            result.size
        )));
    }
    let mut notes = Vec::new();
    if let Some(op) = cute_core::expr::lookup(&call.name) {
        notes.push(format!("{}{}: {}", op.name, op.params, op.meaning));
    }
    // Operands are drawn while the whole figure stays under the cell cap; the others (and
    // every operand that is not a layout) are described in notes.
    let mut total = result.size;
    let mut grids: Vec<Operand> = Vec::new();
    for (name, arg) in names.iter().zip(&call.args) {
        let v = match arg {
            Ok(v) => v,
            Err(e) => {
                notes.push(format!("{name}: error: {e}"));
                continue;
            }
        };
        let mut group = Vec::new();
        let mut too_big = Vec::new();
        match v {
            Value::Tuple(modes) if modes.iter().any(Operand::of_kind) => {
                for (j, m) in modes.iter().enumerate() {
                    let label = format!("{name}[{j}] = {m}");
                    match Operand::of(format!("{name}{j}"), label.clone(), m) {
                        Ok(Some(op)) => group.push(op),
                        Ok(None) => {}
                        Err(e) => notes.push(format!("{label}: not drawn: {e}")),
                    }
                }
                notes.push(format!(
                    "{name} = {v}: a tiler, one panel per layout mode {name}[i] (an integer mode n is n:1, _ keeps the mode)"
                ));
            }
            v => match Operand::of(name.clone(), format!("{name} = {v}"), v) {
                Ok(Some(op)) => group.push(op),
                Ok(None) => notes.push(format!("{name} = {v} ({}, not drawn)", v.kind())),
                Err(e) => notes.push(format!("{name} = {v}: not drawn: {e}")),
            },
        }
        group.retain(|op| {
            if total.saturating_add(op.size) <= CELL_HARD_CAP {
                total += op.size;
                true
            } else {
                too_big.push(format!("{} ({} cells)", op.label, op.size));
                false
            }
        });
        for t in too_big {
            notes.push(format!("{t}: too many cells to draw beside the result"));
        }
        grids.extend(group);
    }
    grids.push(result);
    let cell_text = check_cells(total as i64)?;
    // Side by side while the figure stays readable; one grid per row otherwise.
    let width: usize = grids.iter().map(|op| grid_cols(op.layout.inner())).sum();
    let side_by_side = cell_text && width <= 64;
    let mut panels = Vec::new();
    for op in &grids {
        let mut panel = grey_panel(&op.id, &op.label, &op.layout, cell_text, opts)?;
        add_coords(&mut panel, op.layout.inner().shape());
        let k = panels.len();
        panels.push((panel, if side_by_side { (k, 0) } else { (0, k) }));
    }
    if !cell_text {
        notes.push(overview_note(total));
    }
    let what = if grids.iter().any(|g| g.layout.swizzle().is_some()) {
        "(swizzled) offset"
    } else {
        "offset"
    };
    Ok(Figure {
        view: "algebra",
        title: title.to_string(),
        subtitle: format!(
            "{}: {} and the result {}  ·  cell = {what}, colour = {what} mod 8",
            call.name,
            if names.is_empty() {
                "no operands".to_string()
            } else {
                format!("operands {}", names.join(", "))
            },
            if side_by_side {
                "side by side"
            } else {
                "one above the other"
            }
        ),
        panels,
        legend_title: format!("{what} mod 8:"),
        legend: grey_legend(),
        notes,
        cell_text,
    })
}

/// Columns of a layout's grid (as [`offsets_panel`] draws it).
fn grid_cols(layout: &Layout) -> usize {
    let (rows, _) = row_col_shapes(layout);
    match (layout.size(), rows.size()) {
        (Ok(n), Ok(r)) if r > 0 => usize::try_from(n / r).unwrap_or(usize::MAX),
        _ => 0,
    }
}

/// `data-coord`: each cell's coordinate in the layout's own (hierarchical) shape.
fn add_coords(panel: &mut Panel, shape: &IntTuple) {
    for cell in &mut panel.cells {
        let idx = cell.data.iter().find_map(|(k, v)| match (k, v) {
            (&"idx", Data::Int(i)) => Some(*i),
            _ => None,
        });
        if let Some(Ok(c)) = idx.map(|i| idx2crd(&IntTuple::Int(i), shape)) {
            cell.data.push(("coord", Data::Text(c.to_string())));
        }
    }
}
