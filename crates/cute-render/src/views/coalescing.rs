//! Coalescing view: the 128-byte lines one warp instruction touches in global memory, its
//! 32-byte sectors, and which bytes of them its lanes ask for.

use super::common::{dimmed, Options, PlacedPanel};
use crate::grid::{Cell, Data, Figure, Panel};
use crate::limits::CELL_HARD_CAP;
use crate::view::View;
use cute_core::gmem::{CoalesceReport, GmemInstr, GmemOp, LINE_BYTES, SECTOR_BYTES};
use cute_core::{Error, Result};
use std::collections::{BTreeMap, BTreeSet};

/// Instructions drawn per figure (the notes cover all of them).
pub const COALESCING_PANELS: usize = 4;
/// Bytes a cell stands for: a 4-byte word, 32 to a line as in the bank view.
const CELL_BYTES: u64 = 4;
/// Fill of a fetched sector's bytes no lane asked for.
const WASTE: &str = "#e0e0e0";

pub(super) fn coalescing_figure(title: &str, r: &CoalesceReport, opts: &Options) -> Result<Figure> {
    let warp = opts.warp;
    let instrs: Vec<&GmemInstr> = r.instrs.iter().filter(|i| i.warp == warp).collect();
    if instrs.is_empty() {
        return Err(cute_core::err!(
            "warp {warp} does not exist: the access has {} warp(s)",
            r.warps()
        ));
    }
    let mut panels = Vec::new();
    let mut notes = Vec::new();
    for (k, gi) in instrs.iter().take(COALESCING_PANELS).enumerate() {
        panels.push(instr_panel(r, gi, k, opts)?);
        notes.push(instr_note(gi, r.op));
    }
    if instrs.len() > COALESCING_PANELS {
        notes.push(format!(
            "{} more instructions in this warp are summarised, not drawn",
            instrs.len() - COALESCING_PANELS
        ));
    }
    notes.push(tile_note(r));
    if let GmemOp::CpAsync { bypass: true, .. } = r.op {
        notes.push(
            "cp.async.cg reads a quarter-warp at a time and counts one sector per lane pair per line (measured on the H100): repeated addresses are not merged"
                .into(),
        );
    }
    Ok(Figure {
        view: View::Coalescing,
        title: title.to_string(),
        subtitle: format!(
            "{} of {}-bit elements, {} per lane, over {} from byte {}  ·  rows = 128-byte lines (B = byte address), columns = bytes in the line, thick lines = 32-byte sectors",
            r.op, r.elem_bits, r.vec, r.gmem, r.base
        ),
        panels,
        legend_title: "bytes:".into(),
        legend: vec![
            (opts.palette.thread(0), "asked for (colour = thread, T0 .. T7 repeat)".into()),
            (WASTE.into(), "fetched with its sector, unused".into()),
            ("#ffffff".into(), "not fetched".into()),
        ],
        notes,
        cell_text: true,
    })
}

/// One warp instruction's panel: the 128-byte lines it touches, a cell per 4 bytes.
fn instr_panel(
    r: &CoalesceReport,
    gi: &GmemInstr,
    k: usize,
    opts: &Options,
) -> Result<PlacedPanel> {
    let (warp, width) = (opts.warp, u64::from(r.op.bits() / 8));
    let cols = (LINE_BYTES / CELL_BYTES) as usize;
    // word address -> lanes that ask for bytes of it
    let mut words: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for (lane, a) in gi.addrs.iter().enumerate() {
        let Some(a) = *a else { continue };
        for w in (a / CELL_BYTES)..(a + width).div_ceil(CELL_BYTES) {
            let lanes = words.entry(w).or_default();
            if !lanes.contains(&lane) {
                lanes.push(lane);
            }
        }
    }
    let sectors: BTreeSet<u64> = words
        .keys()
        .map(|w| w * CELL_BYTES / SECTOR_BYTES)
        .collect();
    let lines: Vec<u64> = sectors
        .iter()
        .map(|s| s * SECTOR_BYTES / LINE_BYTES)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if lines.len() * cols > CELL_HARD_CAP {
        return Err(Error::new("too many global-memory lines to draw"));
    }
    let cells = line_cells(&lines, &words, &sectors, opts);
    Ok((
        Panel {
            id: format!("i{}", gi.index),
            label: format!(
                "warp {warp}, instruction {}: {}, {} sectors (min {}), {} lines",
                gi.index, r.op, gi.sectors, gi.min_sectors, gi.lines
            ),
            rows: lines.len(),
            cols,
            row_headers: lines
                .iter()
                .map(|l| format!("B{}", l * LINE_BYTES))
                .collect(),
            col_headers: (0..cols as u64)
                .map(|c| (c * CELL_BYTES).to_string())
                .collect(),
            cells,
            // sector boundaries
            col_breaks: (1..(LINE_BYTES / SECTOR_BYTES) as usize)
                .map(|s| s * (SECTOR_BYTES / CELL_BYTES) as usize)
                .collect(),
            row_breaks: Vec::new(),
            source: None,
            marks: Vec::new(),
        },
        (0, k),
    ))
}

/// The cells of the lines: the bytes each lane asks for (coloured by thread), the rest of
/// each fetched sector, and what is not fetched.
fn line_cells(
    lines: &[u64],
    words: &BTreeMap<u64, Vec<usize>>,
    sectors: &BTreeSet<u64>,
    opts: &Options,
) -> Vec<Cell> {
    let (warp, cols) = (opts.warp, (LINE_BYTES / CELL_BYTES) as usize);
    let thread = |lane: usize| i64::from(warp) * 32 + lane as i64;
    let mut cells = Vec::with_capacity(lines.len() * cols);
    for &line in lines {
        for c in 0..cols as u64 {
            let w = line * (LINE_BYTES / CELL_BYTES) + c;
            let byte = w * CELL_BYTES;
            let sector = byte / SECTOR_BYTES;
            let mut data = vec![
                ("byte", Data::from(byte)),
                ("sector", Data::from(sector)),
                ("line", Data::from(line)),
            ];
            let cell = match words.get(&w) {
                Some(lanes) => {
                    let t0 = thread(lanes[0]);
                    data.push((
                        "threads",
                        lanes
                            .iter()
                            .map(|&l| thread(l).to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                            .into(),
                    ));
                    let all_dim = lanes.iter().all(|&l| dimmed(opts.highlight, thread(l)));
                    Cell {
                        text: if lanes.len() == 1 {
                            format!("T{t0}")
                        } else {
                            format!("T{t0}+{}", lanes.len() - 1)
                        },
                        fill: opts.palette.thread(t0),
                        class: if all_dim { "dim".into() } else { String::new() },
                        data,
                    }
                }
                None if sectors.contains(&sector) => Cell {
                    text: String::new(),
                    fill: WASTE.into(),
                    class: "waste".into(),
                    data,
                },
                None => Cell {
                    text: String::new(),
                    fill: "#ffffff".into(),
                    class: "empty".into(),
                    data,
                },
            };
            cells.push(cell);
        }
    }
    cells
}

fn instr_note(gi: &GmemInstr, op: GmemOp) -> String {
    format!(
        "instruction {}: {} sectors, min {}; {} lines, min {}; {} bytes asked{}",
        gi.index,
        gi.sectors,
        gi.min_sectors,
        gi.lines,
        gi.min_lines,
        gi.bytes,
        if gi.requests == 0 {
            format!(" (no active lane: {op} not issued)")
        } else if gi.coalesced() {
            ", coalesced".into()
        } else {
            format!(
                ", {}% of fetched bytes used",
                gi.bytes * 100 / (u64::from(gi.sectors) * SECTOR_BYTES)
            )
        }
    )
}

fn tile_note(r: &CoalesceReport) -> String {
    let (s, ms) = (r.sectors(), r.min_sectors());
    format!(
        "tile: {} warp(s) x {} instruction(s): {s} sectors, min {ms}; {} lines, min {}; {} requests{}",
        r.warps(),
        r.per_warp,
        r.lines(),
        r.min_lines(),
        r.requests(),
        if s == ms {
            ", coalesced".into()
        } else {
            format!(
                " ({} extra sectors, {}% of fetched bytes used)",
                s - ms,
                r.bytes() * 100 / (s * SECTOR_BYTES).max(1)
            )
        }
    )
}
