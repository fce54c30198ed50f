//! Layout, swizzle and swizzle-bit views: offset grids of a layout's domain.

use super::common::{check_cells, overview_note, Options, PlacedPanel};
use super::palette::Palette;
use super::palette::GREY_RAMP;
use crate::grid::{Cell, CellSource, Data, DataList, Figure, Panel};
use crate::limits::CELL_HARD_CAP;
use crate::view::{Labels, View};
use cute_core::bank::{bank_of_offset, BANKS};
use cute_core::int_tuple::idx2crd;
use cute_core::swizzle::AnyLayout;
use cute_core::{ComposedLayout, IntTuple, Layout, Result, Swizzle};
use cute_lang::Value;
use std::sync::Arc;

fn header(i: usize, shape: &IntTuple) -> String {
    if shape.is_int() {
        return i.to_string();
    }
    match idx2crd(&IntTuple::Int(i as i64), shape) {
        Ok(c) => format!("{i} {c}"),
        Err(_) => i.to_string(),
    }
}

/// A grid side's headers: index and coordinate while they are short (`5 (1,2)`); the
/// flat index alone when a coordinate would be long (`((0,0),(0,0))` of a staged tile made
/// its cells ~115 px wide). The inspector gives every cell's coordinate on hover.
pub(super) fn headers(n: usize, shape: &IntTuple) -> Vec<String> {
    /// Widest header (characters) still written with its coordinate.
    const SHORT: usize = 8;
    let full: Vec<String> = (0..n).map(|i| header(i, shape)).collect();
    if full.iter().any(|h| h.chars().count() > SHORT) {
        (0..n).map(|i| i.to_string()).collect()
    } else {
        full
    }
}

/// Where the innermost sub-mode of a grouped mode wraps: thicker lines there.
pub(super) fn breaks(shape: &IntTuple, n: usize) -> Vec<usize> {
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
pub(super) fn row_col_shapes(layout: &Layout) -> (IntTuple, IntTuple) {
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

/// A layout's domain as a grid: every cell's offset before (`pre`) and after the swizzle,
/// computed in one pass ([`Layout::offsets`]) rather than a `call_index` each.
struct OffsetGrid {
    /// The domain's shape (a cell's coordinate is its index's in it).
    shape: IntTuple,
    rows: usize,
    cols: usize,
    row_shape: IntTuple,
    col_shape: IntTuple,
    pre: Vec<i64>,
    /// `None`: not swizzled (`post == pre`).
    post: Option<Vec<i64>>,
}

impl OffsetGrid {
    fn new(map: &AnyLayout, limit: usize) -> Result<OffsetGrid> {
        let (row_shape, col_shape) = row_col_shapes(map.inner());
        if map.inner().shape().leaves().iter().any(|&s| s < 0) {
            return Err(cute_core::err!(
                "cannot draw {}: a shape entry is negative",
                map.inner()
            ));
        }
        let size = map.size()?;
        let rows = row_shape.size()?;
        let cols = if rows == 0 { 0 } else { size / rows };
        let base = map.swizzle().map_or(0, |(_, o)| o.value());
        let pre = map.inner().offsets(base, limit)?;
        let post = map
            .swizzle()
            .map(|(sw, _)| pre.iter().map(|&a| sw.apply(a)).collect());
        Ok(OffsetGrid {
            shape: map.inner().shape().clone(),
            rows: rows as usize,
            cols: cols as usize,
            row_shape,
            col_shape,
            pre,
            post,
        })
    }

    /// The linear index and (pre, post) offsets of a cell (in range).
    fn at(&self, r: usize, c: usize) -> (usize, i64, i64) {
        let idx = r + self.rows * c;
        let a = self.pre[idx];
        (idx, a, self.post.as_ref().map_or(a, |p| p[idx]))
    }

    /// A cell's `data-*` attributes: index, row, column, offset, bank (of `bits`-bit
    /// elements) and, swizzled, the offset before the swizzle. A panel of the offsets
    /// `before` the swizzle reports those: its cells are coloured by them.
    fn data(&self, r: usize, c: usize, part: &Part, bits: u32, before: bool) -> DataList {
        let (idx, a, b) = self.at(r, part.col0 + c);
        let shown = if before { a } else { b };
        let mut data = vec![
            ("idx", Data::from(idx)),
            ("row", Data::from(r)),
            ("col", Data::from(c)),
            ("offset", Data::from(shown)),
            ("bank", Data::from(bank_of_offset(shown, bits))),
        ];
        if self.post.is_some() && !before {
            data.push(("pre", Data::from(a)));
        }
        data
    }

    /// The grid whole, as one panel.
    fn whole(&self) -> Part {
        Part {
            col0: 0,
            cols: self.cols,
            col_shape: self.col_shape.clone(),
            slice: None,
        }
    }

    /// The grid cut into slices of the layout's last mode (stages, k-blocks), one panel
    /// each: its columns are `cols` apart (the last mode is the slowest), and a slice's
    /// columns are the middle modes. `None` where the layout has fewer than 3 modes or its
    /// last mode has 1 or more than [`MAX_SLICES`] slices.
    fn slices(&self, layout: &Layout) -> Option<Vec<Part>> {
        let IntTuple::Tuple(modes) = layout.shape() else {
            return None;
        };
        let rank = modes.len();
        if rank < 3 {
            return None;
        }
        let n = usize::try_from(modes[rank - 1].size().ok()?).ok()?;
        if !(2..=MAX_SLICES).contains(&n) || !self.cols.is_multiple_of(n) {
            return None;
        }
        let middle = if rank == 3 {
            modes[1].clone()
        } else {
            IntTuple::Tuple(modes[1..rank - 1].to_vec())
        };
        let cols = self.cols / n;
        Some(
            (0..n)
                .map(|k| Part {
                    col0: k * cols,
                    cols,
                    col_shape: middle.clone(),
                    slice: Some((k, rank)),
                })
                .collect(),
        )
    }

    /// A panel of this grid's `part` with the given cells (or source).
    fn panel(&self, id: &str, label: &str, part: &Part, source: Option<CellSource>) -> Panel {
        Panel {
            id: part.id(id),
            label: part.label(label),
            rows: self.rows,
            cols: part.cols,
            row_headers: headers(self.rows, &self.row_shape),
            col_headers: headers(part.cols, &part.col_shape),
            cells: Vec::new(),
            col_breaks: breaks(&part.col_shape, part.cols),
            row_breaks: breaks(&self.row_shape, self.rows),
            source,
            marks: Vec::new(),
        }
    }
}

/// Most slices of a layout's last mode drawn as panels of their own; more are drawn as one
/// grid.
const MAX_SLICES: usize = 16;

/// The columns of an [`OffsetGrid`] one panel draws: all of them, or one slice of the last
/// mode.
#[derive(Clone)]
struct Part {
    col0: usize,
    cols: usize,
    col_shape: IntTuple,
    /// The slice's index in the last mode, and the layout's rank.
    slice: Option<(usize, usize)>,
}

impl Part {
    /// `layout`, or `layout-2` for slice 2.
    fn id(&self, id: &str) -> String {
        match self.slice {
            None => id.to_string(),
            Some((k, _)) => format!("{id}-{k}"),
        }
    }

    /// The panel's label, with the slice as C++ writes it: `before (_,_,2)`.
    fn label(&self, label: &str) -> String {
        match self.slice {
            None => label.to_string(),
            Some((k, rank)) => {
                let slice = format!("({}{k})", "_,".repeat(rank - 1));
                if label.is_empty() {
                    slice
                } else {
                    format!("{label} {slice}")
                }
            }
        }
    }
}

/// How many units (a slice's panel, or its before/after pair), each `w` x `h` cells of
/// `aspect` (width / height), go in a row of panels so the figure is about as wide as a
/// screen is (16:10).
fn units_per_row(n: usize, w: usize, h: usize, aspect: f64) -> usize {
    let score = |per_row: usize| {
        let rows = n.div_ceil(per_row);
        let ratio = (per_row * w) as f64 * aspect / (rows * h).max(1) as f64;
        (ratio.ln() - 1.6f64.ln()).abs()
    };
    (1..=n.max(1))
        .min_by(|&a, &b| score(a).total_cmp(&score(b)))
        .unwrap_or(1)
}

/// The width / height of a cell of `chars` characters, as the figure will size it.
fn cell_aspect(chars: usize, cell_text: bool) -> f64 {
    if cell_text {
        (chars * 7 + 12).max(26) as f64 / 24.0
    } else {
        1.0
    }
}

/// The longest side of a grid computed on demand.
const LAZY_SIDE: usize = 4096;

/// Characters of `v` written in decimal (no division: this runs for every cell of a
/// 1024x1024 grid).
fn digits(v: i64) -> usize {
    const TENS: [u64; 19] = {
        let mut t = [10u64; 19];
        let mut k = 1;
        while k < 19 {
            t[k] = t[k - 1] * 10;
            k += 1;
        }
        t
    };
    let m = v.unsigned_abs();
    usize::from(v < 0) + 1 + TENS.iter().take_while(|&&t| m >= t).count()
}

/// How a grid of offsets labels and colours a cell from its (pre, post) offsets: the text,
/// its width in characters (without building it), and the fill as an index into the
/// palette.
#[derive(Clone)]
struct OffsetStyle {
    palette: Arc<[String]>,
    text: fn(i64, i64) -> String,
    width: fn(i64, i64) -> usize,
    /// The fill of (pre, post) for `bits`-bit elements.
    fill: fn(i64, i64, u32) -> usize,
    /// The panel shows the offsets before the swizzle: a cell's inspector data is its own
    /// offset and bank, not the swizzled ones.
    before: bool,
}

impl OffsetStyle {
    /// The layout view's: cell = (swizzled) offset, colour = offset mod 8 in CuTe's grey
    /// ramp.
    fn grey() -> OffsetStyle {
        OffsetStyle {
            palette: GREY_RAMP.iter().map(|g| g.to_string()).collect(),
            text: |_, b| b.to_string(),
            width: |_, b| digits(b),
            fill: |_, b, _| b.rem_euclid(8) as usize,
            before: false,
        }
    }
}

/// How a panel of offsets holds its cells.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hold {
    /// Every cell built, with its text where `text` (held cells: files, small figures).
    Cells { text: bool },
    /// Cells built when asked ([`CellSource`]): what the page draws from
    /// `opts.lazy_from` cells on (up to [`crate::limits::LAZY_CAP`], above the hard cap),
    /// where holding a [`Cell`] each costs more than painting what is in view.
    OnDemand,
}

/// One grid of a layout's domain, its cells labelled and coloured by `style`: one source of
/// cells, computed on demand or filled in (a held grid is a computed grid whose cells are
/// all built).
fn offsets_panel(
    (id, label): (&str, &str),
    grid: &Arc<OffsetGrid>,
    part: &Part,
    bits: u32,
    style: OffsetStyle,
    hold: Hold,
    labels: Labels,
) -> Result<Panel> {
    let widest = match hold {
        Hold::Cells { .. } => 0,
        // Other labels than the offsets: the widest is the last cell's (every leaf of its
        // coordinate at its largest).
        Hold::OnDemand if labels.generic(0, &grid.shape, (0, 0)).is_some() => {
            let last = (grid.rows * grid.cols).saturating_sub(1);
            labels
                .generic(
                    last,
                    &grid.shape,
                    (grid.rows.saturating_sub(1), grid.cols.saturating_sub(1)),
                )
                .map_or(1, |t| t.chars().count().max(1))
        }
        Hold::OnDemand => {
            // Longer sides would be hundreds of thousands of pixels even zoomed out, and
            // more than a bitmap holds.
            if grid.rows.max(part.cols) > LAZY_SIDE {
                return Err(cute_core::err!(
                    "a {}x{} grid is too long to draw: above {CELL_HARD_CAP} cells, a side has at most {LAZY_SIDE} cells",
                    grid.rows, part.cols
                ));
            }
            // In storage order, not row by row across it.
            let post = grid.post.as_deref().unwrap_or(&grid.pre);
            grid.pre
                .iter()
                .zip(post)
                .map(|(&a, &b)| (style.width)(a, b))
                .max()
                .unwrap_or(0)
                .max(1)
        }
    };
    let OffsetStyle {
        palette,
        text,
        fill,
        before,
        ..
    } = style;
    let (g1, g2, g3) = (Arc::clone(grid), Arc::clone(grid), Arc::clone(grid));
    let col0 = part.col0;
    let p = part.clone();
    let source = CellSource {
        text: match hold {
            // An overview's cells have no text.
            Hold::Cells { text: false } => Arc::new(|_, _| String::new()),
            _ => Arc::new(move |r, c| {
                let (idx, a, b) = g1.at(r, col0 + c);
                labels
                    .generic(idx, &g1.shape, (r, col0 + c))
                    .unwrap_or_else(|| text(a, b))
            }),
        },
        palette,
        fill: Arc::new(move |r, c| {
            let (_, a, b) = g2.at(r, col0 + c);
            fill(a, b, bits)
        }),
        data: Arc::new(move |r, c| g3.data(r, c, &p, bits, before)),
        widest,
    };
    let panel = grid.panel(id, label, part, Some(source));
    Ok(match hold {
        Hold::OnDemand => panel,
        Hold::Cells { .. } => panel.filled(),
    })
}

/// The layout view's grid of held cells ([`OffsetStyle::grey`]), with text where
/// `cell_text`.
pub(super) fn grey_panel(
    id: &str,
    label: &str,
    layout: &AnyLayout,
    cell_text: bool,
    opts: &Options,
) -> Result<Panel> {
    let grid = Arc::new(OffsetGrid::new(layout, CELL_HARD_CAP)?);
    let hold = Hold::Cells { text: cell_text };
    let style = OffsetStyle::grey();
    offsets_panel(
        (id, label),
        &grid,
        &grid.whole(),
        opts.elem_bits,
        style,
        hold,
        opts.labels,
    )
}

/// Whether the page computes a grid of `cells` cells, `side` on its longest side, on
/// demand.
fn is_lazy(cells: i64, side: usize, opts: &Options) -> bool {
    usize::try_from(cells).is_ok_and(|n| {
        (opts.lazy_from..=opts.lazy_cap).contains(&n)
            // Held grids may be long strips; computed ones are painted as one bitmap.
            && (n > CELL_HARD_CAP || side <= LAZY_SIDE)
    })
}

pub(super) fn grey_legend() -> Vec<(String, String)> {
    GREY_RAMP
        .iter()
        .enumerate()
        .map(|(k, g)| (g.to_string(), k.to_string()))
        .collect()
}

pub(super) fn layout_figure(title: &str, value: &Value, opts: &Options) -> Result<Figure> {
    let Some(layout) = value.to_any_layout().ok() else {
        return Err(cute_core::err!(
            "the layout view draws a layout or a composed layout, got {}",
            value.kind()
        ));
    };
    // Shared-memory atoms are drawn in elements, as a tensor over them is addressed.
    let layout = layout.in_elements()?;
    let size = layout.size()?;
    let lazy = is_lazy(size, grid_side(&layout), opts);
    let cell_text = lazy || check_cells(size, opts)?;
    let what = if layout.swizzle().is_some() {
        "swizzled offset"
    } else {
        "offset"
    };
    let grid = Arc::new(OffsetGrid::new(
        &layout,
        if lazy { opts.lazy_cap } else { CELL_HARD_CAP },
    )?);
    let hold = if lazy {
        Hold::OnDemand
    } else {
        Hold::Cells { text: cell_text }
    };
    let parts = grid.slices(layout.inner());
    let mut panels = Vec::new();
    for part in parts.clone().unwrap_or_else(|| vec![grid.whole()]) {
        let style = OffsetStyle::grey();
        panels.push(offsets_panel(
            ("layout", ""),
            &grid,
            &part,
            opts.elem_bits,
            style,
            hold,
            opts.labels,
        )?);
    }
    let (rows, cols) = (grid.rows, panels[0].cols);
    let shape = match &parts {
        None => format!("{rows}x{cols}"),
        Some(p) => format!("{} slices (last mode) of {rows}x{cols}", p.len()),
    };
    let widest = grid.pre.iter().map(|&a| digits(a)).max().unwrap_or(1);
    let per_row = units_per_row(panels.len(), cols, rows, cell_aspect(widest, cell_text));
    Ok(Figure {
        view: View::Layout,
        title: title.to_string(),
        subtitle: format!(
            "{value}  ·  {shape}, cell = {}, colour = {what} mod 8",
            opts.labels.says(what)
        ),
        panels: panels
            .into_iter()
            .enumerate()
            .map(|(k, p)| (p, (k % per_row, k / per_row)))
            .collect(),
        legend_title: format!("{what} mod 8:"),
        legend: grey_legend(),
        notes: if cell_text {
            Vec::new()
        } else {
            vec![overview_note(size as usize, opts)]
        },
        cell_text,
    })
}

pub(super) fn swizzle_figure(
    title: &str,
    original: &ComposedLayout,
    opts: &Options,
) -> Result<Figure> {
    // Shared-memory atoms are drawn in elements, as a tensor over them is addressed.
    let map = AnyLayout::Composed(original.clone()).in_elements()?;
    let AnyLayout::Composed(c) = &map else {
        // The swizzle is the identity in elements: nothing moves.
        return layout_figure(title, &Value::Composed(original.clone()), opts);
    };
    let size = c.layout.size()?;
    let two = usize::try_from(size.saturating_mul(2)).unwrap_or(usize::MAX);
    if two > CELL_HARD_CAP && usize::try_from(size).is_ok_and(|n| n <= opts.lazy_cap) {
        // Too big for two panels, not for one the page computes on demand.
        let mut f = layout_figure(title, &Value::Composed(original.clone()), opts)?;
        f.notes.push(format!(
            "the swizzle view draws up to {} cells a panel: this is the layout view of the swizzled offsets",
            CELL_HARD_CAP / 2
        ));
        return Ok(f);
    }
    let lazy = is_lazy(size.saturating_mul(2), grid_side(&map), opts);
    let cell_text = lazy || check_cells(size.saturating_mul(2), opts)?;
    let bits = opts.elem_bits;
    let pal = opts.palette;
    let before_label = format!("before: {} + {}", c.offset, c.layout);
    let after_label = format!("after: {}", c.swizzle);
    // One grid of offsets serves both panels; 32 colours, computed once rather than per
    // cell.
    let grid = Arc::new(OffsetGrid::new(&map, CELL_HARD_CAP)?);
    let palette: Arc<[String]> = (0..BANKS).map(|b| pal.bank(b)).collect();
    let hold = if lazy {
        Hold::OnDemand
    } else {
        Hold::Cells { text: cell_text }
    };
    // Coloured by the bank of the offset before, or after.
    let by_bank = |text, width, fill, before| OffsetStyle {
        palette: Arc::clone(&palette),
        text,
        width,
        fill,
        before,
    };
    let before = by_bank(
        |a, _| a.to_string(),
        |a, _| digits(a),
        |a, _, bits| bank_of_offset(a, bits) as usize,
        true,
    );
    let after = by_bank(
        |a, b| format!("{a}\u{2192}{b}"),
        |a, b| digits(a) + 1 + digits(b),
        |_, b, bits| bank_of_offset(b, bits) as usize,
        false,
    );
    let parts = grid.slices(&c.layout);
    let mut pairs = Vec::new();
    for part in parts.clone().unwrap_or_else(|| vec![grid.whole()]) {
        // One slice's labels name the slice; the subtitle has the whole map.
        let (bl, al) = if parts.is_some() {
            ("before", "after")
        } else {
            (before_label.as_str(), after_label.as_str())
        };
        pairs.push((
            offsets_panel(
                ("before", bl),
                &grid,
                &part,
                bits,
                before.clone(),
                hold,
                opts.labels,
            )?,
            offsets_panel(
                ("after", al),
                &grid,
                &part,
                bits,
                after.clone(),
                hold,
                opts.labels,
            )?,
        ));
    }
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
    let mut notes = swizzle_notes(sw, bits, opts);
    if !cell_text {
        notes.push(overview_note(size as usize * 2, opts));
    }
    let (rows, cols) = (grid.rows, pairs[0].0.cols);
    let shape = match &parts {
        None => format!("{rows}x{cols}"),
        Some(p) => format!("{} slices (last mode) of {rows}x{cols}", p.len()),
    };
    let widest = grid
        .pre
        .iter()
        .map(|&a| 2 * digits(a) + 1)
        .max()
        .unwrap_or(1);
    let (mut panels, below) = place_pairs(pairs, (rows, cols), widest, cell_text);
    panels.push((bits_panel, (0, below)));
    Ok(Figure {
        view: View::Swizzle,
        title: title.to_string(),
        subtitle: format!(
            "{original}  ·  {shape} before and after the swizzle, offset {shown} spelled out in bits"
        ),
        panels,
        legend_title: "bank:".into(),
        legend: (0..BANKS)
            .step_by(4)
            .map(|k| (pal.bank(k), k.to_string()))
            .collect(),
        notes,
        cell_text,
    })
}

/// The swizzle's notes: which bits it XORs where, and what the colours mean.
fn swizzle_notes(sw: Swizzle, bits: u32, opts: &Options) -> Vec<String> {
    let (b, m, s) = (sw.b, sw.m, sw.s);
    vec![
        format!(
            "{sw}: yyy = bits [{}, {}) are XORed into zzz = bits [{m}, {}); base = the low {m} bits (2^{m} = {} elements) stay together",
            m + s.max(0),
            m + s.max(0) + b,
            m + b,
            1i64 << m.clamp(0, 62)
        ),
        format!(
            "colour = bank of the offset for {bits}-bit elements ({}; bank = offset*{bits}/32 mod 32); cells read 'before\u{2192}after'",
            opts.elem_from.as_deref().map_or_else(|| "the chosen width".to_string(), |f| format!("from {f}"))
        ),
    ]
}

/// Where the (before, after) panel pairs go: wide tiles stack before over after, tall ones
/// sit side by side; the pairs fill rows of a screen's shape. Also the first grid row free
/// below them.
fn place_pairs(
    pairs: Vec<(Panel, Panel)>,
    (rows, cols): (usize, usize),
    widest: usize,
    cell_text: bool,
) -> (Vec<PlacedPanel>, usize) {
    let stacked = cols > 2 * rows;
    let (unit_w, unit_h) = if stacked {
        (cols, 2 * rows)
    } else {
        (2 * cols, rows)
    };
    let per_row = units_per_row(pairs.len(), unit_w, unit_h, cell_aspect(widest, cell_text));
    let mut panels = Vec::new();
    let mut below = 0;
    for (k, (before, after)) in pairs.into_iter().enumerate() {
        let (ux, uy) = (k % per_row, k / per_row);
        let (b, a) = if stacked {
            ((ux, 2 * uy), (ux, 2 * uy + 1))
        } else {
            ((2 * ux, uy), (2 * ux + 1, uy))
        };
        below = below.max(a.1 + 1);
        panels.push((before, b));
        panels.push((after, a));
    }
    (panels, below)
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
        source: None,
        marks: Vec::new(),
    }
}

/// The longer side of a layout's grid (as [`offsets_panel`] draws it).
fn grid_side(layout: &AnyLayout) -> usize {
    let (rows, _) = row_col_shapes(layout.inner());
    let rows = rows
        .size()
        .ok()
        .and_then(|r| usize::try_from(r).ok())
        .unwrap_or(0);
    rows.max(grid_cols(layout.inner()))
}

/// Columns of a layout's grid (as [`offsets_panel`] draws it).
pub(super) fn grid_cols(layout: &Layout) -> usize {
    let (rows, _) = row_col_shapes(layout);
    match (layout.size(), rows.size()) {
        (Ok(n), Ok(r)) if r > 0 => usize::try_from(n / r).unwrap_or(usize::MAX),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn digits_counts_characters() {
        for v in [
            0i64,
            7,
            9,
            10,
            99,
            100,
            12345,
            -1,
            -10,
            -999,
            i64::MAX,
            i64::MIN,
        ] {
            assert_eq!(super::digits(v), v.to_string().len(), "{v}");
        }
    }
}
