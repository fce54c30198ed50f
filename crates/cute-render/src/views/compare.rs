//! Compare view: `functionally_equal(A, B)`'s two functions side by side, each cell its
//! value, the cells where they differ filled and counted, the first one outlined.

use super::common::{check_cells, overview_note, Options};
use super::layout::{breaks, headers, row_col_shapes};
use super::palette::Palette;
use crate::grid::{Cell, Data, Figure, Mark, Panel};
use crate::view::View;
use cute_core::compare::{Comparison, Image, Sampled};
use cute_core::tensor::Iter;
use cute_core::{Layout, Result};

/// The fill of a cell where A and B differ.
fn differ_fill(palette: Palette) -> &'static str {
    match palette {
        Palette::Cute => "#ff8a80",
        Palette::ColorBlind => "#e69f00",
    }
}

/// Where two cells agree.
const SAME_FILL: &str = "#ffffff";

/// A cell's text: the offset, the coordinate, or an address in hex.
fn short(image: &Image) -> String {
    match image {
        Image::Addr(Iter::Ptr(p)) => format!("{:#x}", p.addr),
        Image::Addr(Iter::Owned { offset, .. }) => offset.to_string(),
        i => i.to_string(),
    }
}

/// One side's grid: mode 0 down, the other modes across, as the layout view draws it.
fn side(
    (id, name): (&str, &str),
    s: &Sampled,
    differs: &[bool],
    first: Option<usize>,
    opts: &Options,
) -> Result<Panel> {
    // The grid's geometry is the shape's; strides do not matter.
    let (row_shape, col_shape) = row_col_shapes(&Layout::col_major(s.shape.clone())?);
    let rows = usize::try_from(row_shape.size()?).unwrap_or(0);
    let cols = s.size().checked_div(rows).unwrap_or(0);
    let fill = differ_fill(opts.palette);
    let mut cells = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let i = r + rows * c;
            let differ = differs.get(i).copied().unwrap_or(true);
            cells.push(Cell {
                text: opts
                    .labels
                    .generic(i, &s.shape, (r, c))
                    .unwrap_or_else(|| short(&s.images[i])),
                fill: (if differ { fill } else { SAME_FILL }).to_string(),
                class: if differ {
                    "differ".into()
                } else {
                    String::new()
                },
                data: vec![
                    ("idx", Data::from(i)),
                    ("row", Data::from(r)),
                    ("col", Data::from(c)),
                    ("coord", Data::Text(s.coord(i))),
                    ("value", Data::Text(s.images[i].to_string())),
                ],
            });
        }
    }
    let marks = first
        .filter(|&i| i < rows * cols)
        .map(|i| Mark::Outline {
            row: i % rows,
            col: i / rows,
            rows: 1,
            cols: 1,
            colour: "#c62828".into(),
            width: 3.0,
        })
        .into_iter()
        .collect();
    Ok(Panel {
        id: id.into(),
        label: format!("{name}: {}", s.shape),
        rows,
        cols,
        row_headers: headers(rows, &row_shape),
        col_headers: headers(cols, &col_shape),
        cells,
        col_breaks: breaks(&col_shape, cols),
        row_breaks: breaks(&row_shape, rows),
        source: None,
        marks,
    })
}

pub(super) fn compare_figure(title: &str, c: &Comparison, opts: &Options) -> Result<Figure> {
    let total = c.a.size().saturating_add(c.b.size());
    let cell_text = check_cells(total as i64, opts)?;
    let mut differs = vec![false; c.a.size().max(c.b.size())];
    if !c.same_domain() {
        // Indices beyond the smaller domain have no partner.
        let common = c.a.size().min(c.b.size());
        differs[common..].iter_mut().for_each(|d| *d = true);
    }
    for &i in &c.differ {
        differs[i] = true;
    }
    let first = c.differ.first().copied();
    let panels = vec![
        (side(("A", "A"), &c.a, &differs, first, opts)?, (0, 0)),
        (side(("B", "B"), &c.b, &differs, first, opts)?, (1, 0)),
    ];
    let verdict = if c.equal() {
        "functionally equal: the same value at every coordinate".to_string()
    } else if !c.same_domain() {
        format!(
            "not equal: the domains differ ({} and {} elements)",
            c.a.size(),
            c.b.size()
        )
    } else {
        format!(
            "not equal: {} of {} cells differ",
            c.differ.len(),
            c.a.size()
        )
    };
    let mut notes = vec![format!("functionally_equal(A, B) = {c}")];
    if !cell_text {
        notes.push(overview_note(total, opts));
    }
    Ok(Figure {
        view: View::Compare,
        title: title.to_string(),
        subtitle: format!(
            "{verdict}  ·  cell = {}, A left of B",
            opts.labels.says("the value at that coordinate")
        ),
        panels,
        legend_title: "cells:".into(),
        legend: vec![
            (SAME_FILL.into(), "A = B".into()),
            (
                differ_fill(opts.palette).into(),
                "A ≠ B (the first outlined)".into(),
            ),
        ],
        notes,
        cell_text,
    })
}
