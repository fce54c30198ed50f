//! Views: core values turned into [`Grid`]s.
//!
//! - layout view ([`layout_grid`]): a layout or composed layout as a rank-2 grid of offsets
//!   (rank 1 is one row; modes 1.. of higher ranks are grouped into columns), coloured by
//!   offset with CuTe's 8-grey ramp.

use crate::grid::{Cell, Grid};
use cute_core::int_tuple::idx2crd;
use cute_core::{ComposedLayout, Error, IntTuple, Layout, Result, Value};

/// Above this many cells the picture is an overview without per-cell text.
pub const CELL_TEXT_CAP: usize = 16_384;
/// Above this many cells nothing is drawn (the SVG would not be usable).
pub const CELL_HARD_CAP: usize = 1 << 18;

/// CuTe print_latex's grey ramp for offsets (`black!00, black!40, black!20, …`), as RGB.
const GREY_RAMP: [&str; 8] = [
    "#ffffff", "#999999", "#cccccc", "#666666", "#e6e6e6", "#808080", "#b3b3b3", "#4d4d4d",
];

/// Something that maps a linear index to an offset: a layout or a composed layout.
enum Mapping<'a> {
    Plain(&'a Layout),
    Composed(&'a ComposedLayout),
}

impl Mapping<'_> {
    fn layout(&self) -> &Layout {
        match self {
            Mapping::Plain(l) => l,
            Mapping::Composed(c) => &c.layout,
        }
    }
    fn offset(&self, i: i64) -> Result<i64> {
        match self {
            Mapping::Plain(l) => l.call_index(i),
            Mapping::Composed(c) => c.call_index(i),
        }
    }
}

fn header(i: usize, shape: &IntTuple) -> String {
    if shape.is_int() {
        return i.to_string();
    }
    match idx2crd(&IntTuple::Int(i as i64), shape) {
        Ok(c) => format!("{i} {c}"),
        Err(_) => i.to_string(),
    }
}

/// The layout view of `value` (a layout or a composed layout), titled `title`.
///
/// ```
/// let v = cute_core::eval_line("(4,8):(8,1)").unwrap();
/// let g = cute_render::views::layout_grid("(4,8):(8,1)", &v).unwrap();
/// assert_eq!((g.rows, g.cols), (4, 8));
/// assert_eq!(g.cells[1].text, "1");   // row 0, column 1
/// assert_eq!(g.cells[8].text, "8");   // row 1, column 0
/// ```
pub fn layout_grid(title: &str, value: &Value) -> Result<Grid> {
    let map = match value {
        Value::Layout(l) => Mapping::Plain(l),
        Value::Composed(c) => Mapping::Composed(c),
        v => {
            return Err(Error::new(format!(
                "the layout view draws a layout or a composed layout, got {}",
                v.kind()
            )))
        }
    };
    let layout = map.layout();
    let size = layout.size()?;
    let (row_shape, col_shape) = match layout.shape() {
        IntTuple::Int(_) => (IntTuple::Int(1), layout.shape().clone()),
        IntTuple::Tuple(modes) if modes.len() == 1 => (IntTuple::Int(1), modes[0].clone()),
        IntTuple::Tuple(modes) => (
            modes[0].clone(),
            IntTuple::Tuple(modes[1..].to_vec()).unwrap(),
        ),
    };
    let rows = row_shape.size()?;
    let cols = if rows == 0 { 0 } else { size / rows };
    let cells_n = usize::try_from(rows.saturating_mul(cols)).unwrap_or(usize::MAX);
    if cells_n > CELL_HARD_CAP {
        return Err(Error::new(format!(
            "{rows}x{cols} = {cells_n} cells is too many to draw (limit {CELL_HARD_CAP})"
        )));
    }
    let (rows, cols) = (rows as usize, cols as usize);
    let cell_text = cells_n <= CELL_TEXT_CAP;
    let mut cells = Vec::with_capacity(cells_n);
    for r in 0..rows {
        for c in 0..cols {
            let idx = (r + rows * c) as i64;
            let off = map.offset(idx)?;
            cells.push(Cell {
                text: if cell_text {
                    off.to_string()
                } else {
                    String::new()
                },
                fill: GREY_RAMP[off.rem_euclid(8) as usize].to_string(),
                data: vec![
                    ("idx", idx.to_string()),
                    ("row", r.to_string()),
                    ("col", c.to_string()),
                    ("offset", off.to_string()),
                ],
            });
        }
    }
    let what = match map {
        Mapping::Plain(_) => "offset",
        Mapping::Composed(_) => "swizzled offset",
    };
    Ok(Grid {
        title: title.to_string(),
        subtitle: format!("{value}  ·  {rows}x{cols}, cell = {what}, colour = {what} mod 8"),
        rows,
        cols,
        row_headers: (0..rows).map(|r| header(r, &row_shape)).collect(),
        col_headers: (0..cols).map(|c| header(c, &col_shape)).collect(),
        cells,
        legend_title: format!("{what} mod 8:"),
        legend: GREY_RAMP
            .iter()
            .enumerate()
            .map(|(k, g)| (g.to_string(), k.to_string()))
            .collect(),
        note: (!cell_text).then(|| {
            format!("overview: {cells_n} cells exceed {CELL_TEXT_CAP}, so cell text is left out")
        }),
        cell_text,
    })
}
