//! Thread-value views: TV layouts, MMA (A, B, C) and copy (S, D) over their tiles.

use super::common::{check_cells, dimmed, overview_note, Highlight, Options};
use super::palette::Palette;
use crate::grid::{Cell, Data, Figure, Mark, Panel};
use crate::limits::CELL_HARD_CAP;
use crate::view::View;
use cute_core::atom::{MmaParams, TiledCopy, TiledMma};
use cute_core::{IntTuple, Layout, Result};
use cute_lang::value::Partitioner;
use cute_lang::Value;

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
        return Err(cute_core::err!(
            "a thread-value layout has rank 2 (thread, value), got {tv}"
        ));
    }
    let (rows, cols) = if transpose { (n, m) } else { (m, n) };
    let (rows, cols) = (rows as usize, cols as usize);
    let threads = tv.mode(0)?.size()?;
    let values = tv.mode(1)?.size()?;
    if threads.saturating_mul(values) > CELL_HARD_CAP as i64 * 4 {
        return Err(cute_core::err!(
            "{threads} threads x {values} values is too many to draw"
        ));
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
                return Err(cute_core::err!(
                    "thread {t} value {v} maps to {idx}, outside the {m}x{n} tile"
                ));
            }
            let (r, c) = (idx % m, idx / m);
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            let cell = &mut cells[r as usize * cols + c as usize];
            if cell.class == "empty" {
                cell.text = if cell_text {
                    // A cell's index and coordinate are the tile's (m, n), column-major.
                    let tile = IntTuple::ints(&[m, n]);
                    opts.labels
                        .generic(idx as usize, &tile, (r as usize, c as usize))
                        .unwrap_or_else(|| format!("T{t}\nV{v}"))
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
                // Several (thread, value) pairs on one element (broadcast / duplicates). A
                // highlighted thread shows itself there; the others are listed.
                let (mut t, mut v) = (t, v);
                if opts.highlight == Some(Highlight::Thread(t)) {
                    if let (Some(t0), Some(v0)) =
                        (cell_int(cell, "thread"), cell_int(cell, "value"))
                    {
                        if cell_text && opts.labels.generic(0, &IntTuple::Int(1), (0, 0)).is_none()
                        {
                            cell.text = format!("T{t}\nV{v}");
                        }
                        cell.fill = opts.palette.thread(t);
                        cell.class = String::new();
                        for (k, d) in cell.data.iter_mut() {
                            match *k {
                                "thread" => *d = Data::from(t),
                                "value" => *d = Data::from(v),
                                _ => {}
                            }
                        }
                        (t, v) = (t0, v0);
                    }
                }
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
        source: None,
        marks: Vec::new(),
    })
}

fn thread_legend(threads: i64, pal: Palette) -> Vec<(String, String)> {
    (0..threads.min(8))
        .map(|t| (pal.thread(t), format!("T{t} (+8k)")))
        .collect()
}

/// The notes of a view of `threads` threads: what a cell shows, what is highlighted (and
/// when that thread or warp is not among them, so that no cell being bright says why).
fn tv_notes(opts: &Options, cell_text: bool, cells: usize, threads: i64) -> Vec<String> {
    let mut notes = vec![format!(
        "cell = {}; colour = thread mod 8",
        opts.labels.says("T# (thread) over V# (value)")
    )];
    let absent = |first: i128| {
        if (0..i128::from(threads)).contains(&first) {
            String::new()
        } else {
            format!(": not among its {threads} threads (0..{})", threads - 1)
        }
    };
    match opts.highlight {
        Some(Highlight::Thread(t)) => {
            notes.push(format!("thread {t} highlighted{}", absent(i128::from(t))))
        }
        Some(Highlight::Warp(w)) => notes.push(format!(
            "warp {w} (threads {}..{}) highlighted{}",
            32 * i128::from(w),
            32 * i128::from(w) + 31,
            absent(32 * i128::from(w))
        )),
        None => {}
    }
    if !cell_text {
        notes.push(overview_note(cells, opts));
    }
    notes
}

fn tile_mn(tiler: &IntTuple) -> Result<(i64, i64)> {
    match tiler {
        IntTuple::Int(m) | IntTuple::Dyn(m) => Ok((*m, 1)),
        IntTuple::Tuple(ts) if ts.len() == 1 => Ok((ts[0].size()?, 1)),
        IntTuple::Tuple(ts) if ts.len() == 2 => Ok((ts[0].size()?, ts[1].size()?)),
        t => Err(cute_core::err!("a tile of rank 1 or 2 is drawn, got {t}")),
    }
}

pub(super) fn tv_figure(title: &str, value: &Value, opts: &Options) -> Result<Figure> {
    let (tiler, tv) = match value {
        Value::Tuple(vs) if vs.len() == 2 => (vs[0].to_int_tuple()?, vs[1].to_layout()?.clone()),
        v => {
            return Err(cute_core::err!(
            "the TV view draws make_layout_tv(thr, val) or a (tile_shape, tv_layout) pair, got {}",
            v.kind()
        ))
        }
    };
    let (m, n) = tile_mn(&tiler)?;
    let cell_text = check_cells(m.saturating_mul(n), opts)?;
    let panel = tv_panel("tv", "", &tv, m, n, false, ["m", "n"], cell_text, opts)?;
    let threads = tv.mode(0)?.size()?;
    Ok(Figure {
        view: View::Tv,
        title: title.to_string(),
        subtitle: format!(
            "{tv} over a {m}x{n} tile  ·  {threads} threads x {} values",
            tv.mode(1)?.size()?
        ),
        panels: vec![(panel, (0, 0))],
        legend_title: "thread:".into(),
        legend: thread_legend(threads, opts.palette),
        notes: tv_notes(opts, cell_text, (m * n) as usize, threads),
        cell_text,
    })
}

pub(super) fn mma_figure(title: &str, mma: &TiledMma, opts: &Options) -> Result<Figure> {
    let (m, n, k) = (mma.tile_size(0)?, mma.tile_size(1)?, mma.tile_size(2)?);
    let total = m * n + m * k + n * k;
    let cell_text = check_cells(total, opts)?;
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
    let umma = matches!(mma.atom.params, Some(MmaParams::Umma(_)));
    let mut notes = tv_notes(opts, cell_text, total as usize, threads);
    if umma {
        // tcgen05.mma has no per-thread fragments: the "thread" of its TV layouts is a CTA.
        notes.insert(
            0,
            format!(
                "UMMA (tcgen05.mma): one thread issues the MMA for its CTA, so ThrID counts CTAs ({threads} here), not threads; every value of a panel belongs to CTA T0{}. A and B are read from shared memory through descriptors (the descriptor view of make_umma_desc), and C lives in tensor memory: the tmem view of partition_fragment_C(tiled_mma, Shape<_{m},_{n}>{{}}) shows its lanes and columns",
                if threads > 1 { " or T1 (2-SM: the CTA pair)" } else { "" }
            ),
        );
    }
    Ok(Figure {
        view: View::Mma,
        title: title.to_string(),
        subtitle: if umma {
            format!(
                "{}  ·  tile {m}x{n}x{k}, {threads} CTA{} (UMMA: one issuing thread each), ThrLayoutVMNK {}",
                mma.atom.name,
                if threads == 1 { "" } else { "s" },
                mma.thr_layout_vmnk
            )
        } else {
            format!(
                "{}  ·  tile {m}x{n}x{k}, {threads} threads, ThrLayoutVMNK {}",
                mma.atom.name, mma.thr_layout_vmnk
            )
        },
        panels: vec![(b, (1, 0)), (a, (0, 1)), (c, (1, 1))],
        legend_title: if umma { "CTA:" } else { "thread:" }.into(),
        legend: thread_legend(threads, opts.palette),
        notes,
        cell_text,
    })
}

/// A copy's TV layouts over the grid it is drawn on: its tile, or for a cotiled copy
/// (`make_tmem_copy`: `Tiler_MN` a tuple of layouts) the data elements the tile's modes
/// pick, so that a cell stands at its data coordinate (lane 1 in row 1), not at its index
/// within the permuted tile.
fn copy_grid(copy: &TiledCopy, tv: Layout) -> Result<(Layout, i64, i64)> {
    use cute_core::layout::{self as alg, Tiler};
    let Some(ls) = &copy.tiler_layouts else {
        let (m, n) = tile_mn(&copy.tiler)?;
        return Ok((tv, m, n));
    };
    if ls.len() != 2 {
        return Err(cute_core::err!(
            "a copy tile of rank 2 is drawn, got {}",
            copy.tiler_mn()
        ));
    }
    let (m, n) = (ls[0].cosize()?, ls[1].cosize()?);
    let tile2data = alg::composition_tiler(
        &Layout::col_major(IntTuple::ints(&[m, n]))?,
        &Tiler::Tuple(ls.iter().cloned().map(Tiler::Layout).collect()),
    )?;
    Ok((alg::composition(&tile2data, &tv)?, m, n))
}

pub(super) fn copy_figure(title: &str, copy: &TiledCopy, opts: &Options) -> Result<Figure> {
    let (s_tv, m, n) = copy_grid(copy, copy.layout_s_tv()?)?;
    let (d_tv, _, _) = copy_grid(copy, copy.layout_d_tv()?)?;
    let cell_text = check_cells(2 * m * n, opts)?;
    let s = tv_panel(
        "S",
        "S (source)",
        &s_tv,
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
        &d_tv,
        m,
        n,
        false,
        ["m", "n"],
        cell_text,
        opts,
    )?;
    let threads = copy.layout_tv.mode(0)?.size()?;
    Ok(Figure {
        view: View::Copy,
        title: title.to_string(),
        subtitle: format!(
            "{} ({}-bit values)  ·  tile {m}x{n}, {threads} threads",
            copy.atom.name,
            copy.atom.val_bits.unwrap_or(0)
        ),
        panels: vec![(s, (0, 0)), (d, (1, 0))],
        legend_title: "thread:".into(),
        legend: thread_legend(threads, opts.palette),
        notes: tv_notes(opts, cell_text, (2 * m * n) as usize, threads),
        cell_text,
    })
}

/// A thread's partition of a tensor: the whole tensor (mode 0 down, the others across),
/// every element coloured by the thread that owns it and labelled with its value index
/// in that thread's part, the thread's own elements lit (unless another thread or warp is
/// highlighted).
/// A cell's integer `data-*` attribute `key`.
fn cell_int(cell: &Cell, key: &str) -> Option<i64> {
    cell.data
        .iter()
        .find(|(n, _)| *n == key)
        .and_then(|(_, d)| match d {
            Data::Int(x) => Some(*x),
            _ => None,
        })
}

/// Mark thread `thr`'s cells of a TV panel with the instruction that moves them (`data-instr`:
/// value / `per`) and outline each instruction's cells where they form a rectangle. Returns
/// the number of instructions. A panel of computed cells (too large to hold) is left as is.
fn group_instructions(panel: &mut Panel, thr: i64, per: i64) -> usize {
    // instruction -> (cells, min row, min col, max row, max col)
    let mut groups: std::collections::BTreeMap<i64, (usize, usize, usize, usize, usize)> =
        Default::default();
    let cols = panel.cols.max(1);
    for (k, cell) in panel.cells.iter_mut().enumerate() {
        if cell_int(cell, "thread") != Some(thr) {
            continue;
        }
        let Some(v) = cell_int(cell, "value") else {
            continue;
        };
        let i = v / per.max(1);
        cell.data.push(("instr", Data::from(i)));
        let (r, c) = (k / cols, k % cols);
        let g = groups.entry(i).or_insert((0, r, c, r, c));
        *g = (g.0 + 1, g.1.min(r), g.2.min(c), g.3.max(r), g.4.max(c));
    }
    for (n, r0, c0, r1, c1) in groups.values().copied() {
        let (rows, cols) = (r1 - r0 + 1, c1 - c0 + 1);
        if rows * cols == n {
            panel.marks.push(Mark::Outline {
                row: r0,
                col: c0,
                rows,
                cols,
                colour: "#000000".into(),
                width: 2.0,
            });
        }
    }
    groups.len()
}

pub(super) fn partition_figure(
    title: &str,
    p: &cute_lang::value::Partition,
    opts: &Options,
) -> Result<Figure> {
    let (m, n) = match &p.shape {
        IntTuple::Tuple(ms) if ms.len() >= 2 => {
            let m = ms[0].size()?;
            (m, p.shape.size()? / m.max(1))
        }
        s => (s.size()?, 1),
    };
    let cell_text = check_cells(m.saturating_mul(n), opts)?;
    let lit = Options {
        highlight: opts.highlight.or(Some(Highlight::Thread(p.thr))),
        ..opts.clone()
    };
    let (rn, cn) = match p.what {
        "partition_A" => ("m", "k"),
        "partition_B" => ("n", "k"),
        "partition_C" => ("m", "n"),
        _ => ("r", "c"),
    };
    let tv = p.tv()?;
    let mut panel = tv_panel(
        "partition",
        &format!("{} of a {m}x{n} tensor, thread {}", p.what, p.thr),
        &tv,
        m,
        n,
        false,
        [rn, cn],
        cell_text,
        &lit,
    )?;
    // Hover: where each of the thread's values sits in its partition (V# flattened).
    let part_shape = p.tensor.layout.shape();
    for cell in panel.cells.iter_mut() {
        if let (Some(t), Some(v)) = (cell_int(cell, "thread"), cell_int(cell, "value")) {
            if t == p.thr {
                let crd = cute_core::int_tuple::idx2crd(&IntTuple::Int(v), part_shape)?;
                cell.data.push(("coord", Data::Text(crd.to_string())));
            }
        }
    }
    let threads = tv.mode(0)?.size()?;
    let values = p.tensor.layout.size()?;
    let mut notes = tv_notes(&lit, cell_text, (m * n) as usize, threads);
    notes.insert(
        0,
        format!("thread {}: {} elements, {}", p.thr, values, p.tensor),
    );
    let mut panels = Vec::new();
    if let Partitioner::Copy(c, src) = &p.by {
        // A copy: its instructions outlined on both sides, the other side beside it.
        let per = |side: bool| -> Result<i64> {
            let l = if side { &c.atom.src } else { &c.atom.dst };
            c.atom.val_layout(l)?.mode(1)?.size()
        };
        let n_instr = group_instructions(&mut panel, p.thr, per(*src)?);
        let (this, that) = if *src { ("S", "D") } else { ("D", "S") };
        let mut other = tv_panel(
            "other",
            &format!(
                "{that}: where the copy's {that} side holds thread {}'s values",
                p.thr
            ),
            &c.tv_over(!*src, &p.shape)?,
            m,
            n,
            false,
            [rn, cn],
            cell_text,
            &lit,
        )?;
        group_instructions(&mut other, p.thr, per(!*src)?);
        panel.label = format!("{this}: {}", panel.label);
        notes.insert(
            1,
            format!(
                "{} moves {} values of thread {} in {n_instr} instruction(s) of {} ({this} side), outlined",
                c.atom.name,
                values,
                p.thr,
                per(*src)?
            ),
        );
        panels.push((panel, (0, 0)));
        panels.push((other, (1, 0)));
    } else {
        panels.push((panel, (0, 0)));
    }
    Ok(Figure {
        view: View::Partition,
        title: title.to_string(),
        subtitle: format!(
            "{}  ·  {threads} threads over a {m}x{n} tensor; cell = T# (owner) over V# (its value index)",
            p.tensor
        ),
        panels,
        legend_title: "thread:".into(),
        legend: thread_legend(threads, opts.palette),
        notes,
        cell_text,
    })
}
