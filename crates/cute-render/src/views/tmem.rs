//! TMEM view: Blackwell tensor memory as lanes (rows) x 32-bit columns. An UMMA
//! accumulator shows which C element each lane and column holds, coloured by the
//! sub-partition (the warp of a warpgroup that may reach those lanes); a TMEM load/store
//! atom shows which thread (T#) and register (R#) each lane and column goes to or from,
//! coloured by thread, for the four warps of a warpgroup.

use super::common::{check_cells, dimmed, overview_note, Options};
use crate::grid::{Cell, Data, Figure, Panel};
use crate::view::View;
use cute_core::atom::CopyAtom;
use cute_core::tmem::{decode, tmem_copy_regs, TmemTensor, LANES};
use cute_core::{Layout, Result};
use std::collections::HashMap;

/// One accumulator value: which MMA of the fragment, and its (m, n) in that MMA.
type Held = (i64, i64, i64);

/// The most values of a TMEM tensor the view walks (TMEM holds 2^16 32-bit words).
const MAX_VALUES: usize = 1 << 20;

/// Lanes of one sub-partition (one warp's reach).
const SUB: usize = 32;

fn lane_headers(rows: usize) -> Vec<String> {
    (0..rows)
        .map(|l| {
            if l % SUB == 0 {
                format!("{l} w{}", l / SUB)
            } else {
                l.to_string()
            }
        })
        .collect()
}

fn empty(lane: usize, col: usize) -> Cell {
    Cell {
        text: String::new(),
        fill: "#ffffff".into(),
        class: "empty".into(),
        data: vec![("lane", Data::from(lane)), ("column", Data::from(col))],
    }
}

/// A grid of lanes (rows, sub-partitions separated) x 32-bit columns.
fn panel(id: &str, label: String, rows: usize, cols: usize, cells: Vec<Cell>) -> Panel {
    Panel {
        row_headers: lane_headers(rows),
        row_breaks: (1..rows.div_ceil(SUB)).map(|k| k * SUB).collect(),
        ..Panel::numbered(id, label, rows, cols, cells)
    }
}

/// The accumulator: every coordinate of the fragment at its lane and column.
pub(super) fn tmem_tensor_figure(title: &str, t: &TmemTensor, opts: &Options) -> Result<Figure> {
    let l = &t.layout;
    let size = l.size()?;
    if size > MAX_VALUES as i64 {
        return Err(cute_core::err!("{size} values is too many to draw"));
    }
    // (lane, column, slot) of every value, by its linear index.
    let mut at = Vec::with_capacity(size as usize);
    let (mut lanes, mut cols) = (0i64, 0i64);
    for addr in l.offsets(0, MAX_VALUES)? {
        let a = decode(cute_core::error::arith::add(t.base, addr)?, t.value_bits)?;
        lanes = lanes.max(a.lane + 1);
        cols = cols.max(a.column + 1);
        at.push(a);
    }
    if lanes > LANES {
        return Err(cute_core::err!(
            "the tensor reaches lane {}: TMEM has {LANES}",
            lanes - 1
        ));
    }
    let (rows, ncols) = (lanes as usize, cols as usize);
    let cell_text = check_cells((rows * ncols) as i64, opts)?;
    // The fragment's first mode is (M_MMA, N_MMA): C's row and column within one MMA,
    // flattened column-major as CuTe indexes it.
    let mma = l.mode(0)?;
    let per_mma = mma.size()?.max(1);
    let rows_mma = mma.mode(0)?.size()?.max(1);
    // (lane, column) -> every (MMA, m, n) there.
    let mut grid: HashMap<(i64, i64), Vec<Held>> = HashMap::new();
    for (i, a) in at.iter().enumerate() {
        let (rep, j) = (i as i64 / per_mma, i as i64 % per_mma);
        grid.entry((a.lane, a.column))
            .or_default()
            .push((rep, j % rows_mma, j / rows_mma));
    }
    let mut cells = Vec::with_capacity(rows * ncols);
    for lane in 0..rows {
        for col in 0..ncols {
            let Some(vs) = grid.get(&(lane as i64, col as i64)) else {
                cells.push(empty(lane, col));
                continue;
            };
            let (rep, m, n) = vs[0];
            let warp = lane / SUB;
            let mut fill = opts.palette.thread(2 * warp as i64);
            if rep % 2 == 1 {
                fill = opts.palette.thread(2 * warp as i64 + 1);
            }
            cells.push(Cell {
                text: if cell_text {
                    format!("{m}\n{n}")
                } else {
                    String::new()
                },
                fill,
                class: String::new(),
                data: vec![
                    ("lane", Data::from(lane)),
                    ("column", Data::from(col)),
                    ("warp", Data::from(warp)),
                    ("m", Data::from(m)),
                    ("n", Data::from(n)),
                    ("mma", Data::from(rep)),
                    ("values", Data::from(vs.len())),
                ],
            });
        }
    }
    let notes = vec![format!(
        "{size} values of {} bits in {rows} lanes x {ncols} columns; warp w of the warpgroup reaches lanes 32w..32w+31 (sub-partition w)",
        t.value_bits
    )];
    let legend = (0..rows.div_ceil(SUB))
        .map(|w| {
            (
                opts.palette.thread(2 * w as i64),
                format!("warp {w}: lanes {}-{}", w * SUB, w * SUB + SUB - 1),
            )
        })
        .collect();
    let subtitle = format!(
        "{t}  ·  rows = TMEM lanes, columns = 32-bit columns; cell = C row m over column n of one MMA, colour = sub-partition (alternate shade: next MMA)"
    );
    let grid = Grid {
        rows,
        cols: ncols,
        cells,
        cell_text,
    };
    Ok(grid.figure(title, subtitle, ("sub-partition:", legend), notes, opts))
}

/// A TMEM grid of cells and the figure around it.
struct Grid {
    rows: usize,
    cols: usize,
    cells: Vec<Cell>,
    cell_text: bool,
}

impl Grid {
    fn figure(
        self,
        title: &str,
        subtitle: String,
        (legend_title, legend): (&str, Vec<(String, String)>),
        mut notes: Vec<String>,
        opts: &Options,
    ) -> Figure {
        if !self.cell_text {
            notes.push(overview_note(self.rows * self.cols, opts));
        }
        Figure {
            view: View::Tmem,
            title: title.to_string(),
            subtitle,
            panels: vec![(
                panel(
                    "tmem",
                    "tensor memory".into(),
                    self.rows,
                    self.cols,
                    self.cells,
                ),
                (0, 0),
            )],
            legend_title: legend_title.into(),
            legend,
            notes,
            cell_text: self.cell_text,
        }
    }
}

/// A TMEM load/store atom for a warpgroup: thread and register of every lane and column.
pub(super) fn tmem_atom_figure(
    title: &str,
    atom: &CopyAtom,
    val_id: &Layout,
    opts: &Options,
) -> Result<Figure> {
    let regs = tmem_copy_regs(&atom.dst, val_id)?;
    let rows = regs.iter().map(|r| r.lane + 1).max().unwrap_or(1) as usize;
    let ncols = regs.iter().map(|r| r.column + 1).max().unwrap_or(1) as usize;
    let cell_text = check_cells((rows * ncols) as i64, opts)?;
    let mut at: HashMap<(i64, i64), (i64, i64)> = HashMap::new();
    for r in &regs {
        at.insert((r.lane, r.column), (r.thread, r.reg));
    }
    let per_thread = regs.iter().filter(|r| r.thread == 0).count();
    let mut cells = Vec::with_capacity(rows * ncols);
    for lane in 0..rows {
        for col in 0..ncols {
            let Some(&(t, r)) = at.get(&(lane as i64, col as i64)) else {
                cells.push(empty(lane, col));
                continue;
            };
            cells.push(Cell {
                text: if cell_text {
                    format!("T{t}\nR{r}")
                } else {
                    String::new()
                },
                fill: opts.palette.thread(t),
                class: if dimmed(opts.highlight, t) {
                    "dim".into()
                } else {
                    String::new()
                },
                data: vec![
                    ("lane", Data::from(lane)),
                    ("column", Data::from(col)),
                    ("thread", Data::from(t)),
                    ("register", Data::from(r)),
                    ("warp", Data::from(t / 32)),
                ],
            });
        }
    }
    let load = atom.tmem_copy() == Some(cute_core::atom::TmemCopy::Load);
    let notes = vec![format!(
        "each thread {} {per_thread} 32-bit register(s); warp w works on lanes 32w..32w+31 (sub-partition w), so a warpgroup covers all 128 lanes",
        if load { "receives" } else { "sends" }
    )];
    let subtitle = format!(
        "{} ({}) for the 4 warps of a warpgroup  ·  rows = TMEM lanes, columns = 32-bit columns; cell = thread T over register R",
        atom.name,
        if load { "tcgen05.ld" } else { "tcgen05.st" }
    );
    let legend = (0..8)
        .map(|t| (opts.palette.thread(t), format!("T{t}")))
        .collect();
    let grid = Grid {
        rows,
        cols: ncols,
        cells,
        cell_text,
    };
    Ok(grid.figure(title, subtitle, ("thread mod 8:", legend), notes, opts))
}
