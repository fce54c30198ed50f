//! TMA view: the boxes `make_tma_copy` cuts a CTA tile into, over the global tile (box 0
//! outlined) and where each box lands in shared memory, drawn as 128-byte rows of the
//! (swizzled) buffer.

use super::common::{check_cells, Options};
use crate::grid::{Cell, Data, Figure, Mark, Panel};
use crate::view::View;
use cute_core::int_tuple::idx2crd;
use cute_core::tma::TmaBox;
use cute_core::{Error, IntTuple, Result};

pub(super) fn tma_figure(title: &str, t: &TmaBox, opts: &Options) -> Result<Figure> {
    // Offsets in elements (a GMMA atom's swizzle is on bytes).
    let map = &t.smem.in_elements()?;
    let inner = map.inner();
    let size = inner.size()?;
    let cell_text = check_cells(size.saturating_mul(2), opts)?;
    // The tile as rows (smem mode 0) x columns (the other modes).
    let shape = inner.shape();
    let rows = inner.mode(0)?.size()?.max(1);
    let cols = size / rows;
    let box_size = t.size().max(1);
    let boxes = (size / box_size).max(1);
    let colour = |b: i64| opts.palette.thread(b);
    // Shared memory as 128-byte rows of elements.
    let per_row = (1024 / t.elem_bits).max(1);
    // Every offset once, in index order: before the swizzle (the box's smem index) and
    // after it (where the element lands).
    let pre_all = inner.offsets(0, crate::limits::CELL_HARD_CAP)?;
    let base = map.swizzle().map_or(0, |(_, o)| o.value());
    let post_all: Vec<i64> = match map.swizzle() {
        Some((sw, _)) => pre_all.iter().map(|&a| sw.apply(base + a)).collect(),
        None => pre_all.clone(),
    };
    let cosize = post_all
        .iter()
        .fold(0i64, |m, &o| m.max(o.saturating_add(1)));
    let smem_rows = (cosize + per_row - 1) / per_row;
    if smem_rows.saturating_mul(per_row) > 1 << 18 {
        return Err(Error::new("the shared-memory buffer is too large to draw"));
    }
    let mut gmem_cells = vec![Cell::default(); size as usize];
    let mut smem_cells: Vec<Cell> = (0..smem_rows * per_row)
        .map(|o| Cell {
            text: String::new(),
            fill: "#ffffff".into(),
            class: "empty".into(),
            data: vec![("offset", Data::from(o))],
        })
        .collect();
    // Each box's bounding rows and columns in the tile, to frame it when it is a rectangle.
    let mut frames: Vec<(i64, i64, i64, i64)> = vec![(i64::MAX, -1, i64::MAX, -1); boxes as usize];
    let inner_extent = t.modes[0].extent().max(1);
    for i in 0..size {
        let (r, c) = (i % rows, i / rows);
        let (pre, post) = (pre_all[i as usize], post_all[i as usize]);
        let b = pre.div_euclid(box_size);
        // Within the box: the row (along box mode 1 and up) and the 16-byte chunk of the
        // row (along box mode 0), which the swizzle moves.
        let local = pre.rem_euclid(box_size);
        let (row, chunk) = (
            local / inner_extent,
            (local % inner_extent) * t.elem_bits / 128,
        );
        let e = Element {
            coord: idx2crd(&IntTuple::Int(i), shape)?.to_string(),
            text: if cell_text {
                chunk.to_string()
            } else {
                String::new()
            },
            fill: colour(row),
            b,
            row,
            chunk,
        };
        gmem_cells[(r * cols + c) as usize] = e.gmem_cell(r, c, post);
        if let Some(f) = frames.get_mut(b as usize) {
            *f = (f.0.min(r), f.1.max(r), f.2.min(c), f.3.max(c));
        }
        if let Some(cell) = usize::try_from(post)
            .ok()
            .and_then(|p| smem_cells.get_mut(p))
        {
            *cell = e.smem_cell(pre, post, t.elem_bits);
        }
    }
    let mut g = Panel::numbered(
        "gmem",
        format!("global tile {shape}: boxes framed"),
        rows as usize,
        cols as usize,
        gmem_cells,
    );
    g.marks.extend(box_frames(&frames, box_size));
    let mut s = Panel::numbered(
        "smem",
        format!("shared memory, {} B rows", per_row * t.elem_bits / 8),
        smem_rows as usize,
        per_row as usize,
        smem_cells,
    );
    s.row_headers = (0..smem_rows)
        .map(|r| format!("B{}", r * per_row * t.elem_bits / 8))
        .collect();
    let notes = box_notes(t, box_size);
    Ok(Figure {
        view: View::Tma,
        title: title.to_string(),
        subtitle: format!(
            "{} box(es) of {} elements of {} bits; above: the CTA tile, each box framed; below: where it lands in shared memory. Cell = 16-byte chunk of the box row, colour = box row (mod 8)",
            boxes, box_size, t.elem_bits
        ),
        panels: vec![(g, (0, 0)), (s, (0, 1))],
        legend_title: "box row mod 8:".into(),
        legend: (0..8).map(|b| (colour(b), format!("row {b}"))).collect(),
        notes,
        cell_text,
    })
}

/// A frame around every box that is one rectangle of the tile (its bounding rows and
/// columns hold exactly the box's elements), at most 256.
fn box_frames(frames: &[(i64, i64, i64, i64)], box_size: i64) -> Vec<Mark> {
    let mut marks = Vec::new();
    for &(r0, r1, c0, c1) in frames.iter().take(256) {
        if r1 >= 0 && (r1 - r0 + 1) * (c1 - c0 + 1) == box_size {
            marks.push(Mark::Outline {
                row: r0 as usize,
                col: c0 as usize,
                rows: (r1 - r0 + 1) as usize,
                cols: (c1 - c0 + 1) as usize,
                colour: "#202020".into(),
                width: 3.0,
            });
        }
    }
    marks
}

/// The notes: the box and how often it fits the tile, and which gmem mode each box mode
/// walks.
fn box_notes(t: &TmaBox, box_size: i64) -> Vec<String> {
    let dims: Vec<String> = t.modes.iter().map(|m| m.extent().to_string()).collect();
    let mut notes = vec![
        format!(
            "box {{{}}} ({} elements, {} B) x {} per tile, {}",
            dims.join(", "),
            box_size,
            box_size * t.elem_bits / 8,
            t.per_tile,
            t.swizzle
        ),
        format!("TmaGmemBasis {t}: box mode k walks gmem mode i (k@i), innermost first"),
    ];
    for (k, m) in t.modes.iter().enumerate() {
        let modes: Vec<String> = m.basis.iter().map(|(s, i)| format!("{s}@{i}")).collect();
        notes.push(format!(
            "box mode {k}: {} elements along gmem mode {}, gmem stride {}{}",
            m.extent(),
            modes.join("+"),
            m.gstride.0,
            if m.gstride.1 { " (run time)" } else { "" }
        ));
    }
    notes
}

/// One element of the tile: its coordinate, the box that loads it, the box row and the
/// 16-byte chunk of that row it sits in, and how its cells show it.
struct Element {
    coord: String,
    text: String,
    fill: String,
    b: i64,
    row: i64,
    chunk: i64,
}

impl Element {
    /// Its cell in the global tile, at row `r`, column `c`, landing at smem offset `post`.
    fn gmem_cell(&self, r: i64, c: i64, post: i64) -> Cell {
        Cell {
            text: self.text.clone(),
            fill: self.fill.clone(),
            class: String::new(),
            data: vec![
                ("row", Data::from(r)),
                ("col", Data::from(c)),
                ("coord", Data::from(self.coord.clone())),
                ("box", Data::from(self.b)),
                ("boxrow", Data::from(self.row)),
                ("chunk", Data::from(self.chunk)),
                ("smem-offset", Data::from(post)),
            ],
        }
    }

    /// Its cell in shared memory: offset `post` (swizzled) of the box's index `pre`.
    fn smem_cell(&self, pre: i64, post: i64, elem_bits: i64) -> Cell {
        Cell {
            text: self.text.clone(),
            fill: self.fill.clone(),
            class: String::new(),
            data: vec![
                ("offset", Data::from(post)),
                ("byte", Data::from(post * elem_bits / 8)),
                ("box", Data::from(self.b)),
                ("boxrow", Data::from(self.row)),
                ("chunk", Data::from(self.chunk)),
                ("coord", Data::from(self.coord.clone())),
                ("pre", Data::from(pre)),
            ],
        }
    }
}
