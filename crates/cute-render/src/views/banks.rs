//! Bank view: which lane touches which shared-memory word in which phase.

use super::common::{dimmed, Options, PlacedPanel};
use crate::grid::{Cell, Data, Figure, Panel};
use crate::limits::CELL_HARD_CAP;
use crate::view::View;
use cute_core::bank::{BankReport, WarpInstr, BANKS, WORD_BYTES};
use cute_core::{Error, Result};

/// Instructions drawn per figure (the summary covers all of them).
pub const BANK_PANELS: usize = 4;

pub(super) fn bank_figure(title: &str, r: &BankReport, opts: &Options) -> Result<Figure> {
    let warp = opts.warp;
    let instrs: Vec<_> = r.instrs.iter().filter(|i| i.warp == warp).collect();
    if instrs.is_empty() {
        return Err(cute_core::err!(
            "warp {warp} does not exist: the access has {} warp(s)",
            r.warps()
        ));
    }
    let mut panels = Vec::new();
    let mut notes = Vec::new();
    for (k, wi) in instrs.iter().take(BANK_PANELS).enumerate() {
        let (panel, note) = instr_panel(r, wi, warp, k, opts)?;
        panels.push(panel);
        notes.push(note);
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
        view: View::Banks,
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

/// One warp instruction's panel (its 128-byte lines of shared memory, a cell per bank) and
/// its note (wavefronts, conflicts, phases).
fn instr_panel(
    r: &BankReport,
    wi: &WarpInstr,
    warp: u32,
    k: usize,
    opts: &Options,
) -> Result<(PlacedPanel, String)> {
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
    let mut phase_words: std::collections::HashMap<(usize, u64), std::collections::BTreeSet<u64>> =
        Default::default();
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
    let cells = word_cells(warp, &rows, &words, &phase_words, opts);
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
    let note = format!(
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
    );
    let panel = (
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
            source: None,
            marks: Vec::new(),
        },
        (0, k),
    );
    Ok((panel, note))
}

/// The cells of an instruction's rows: each bank's word, the lanes that touch it, the phase
/// and how many words of its bank that phase touches.
fn word_cells(
    warp: u32,
    rows: &[u64],
    words: &std::collections::BTreeMap<u64, (Vec<usize>, usize)>,
    phase_words: &std::collections::HashMap<(usize, u64), std::collections::BTreeSet<u64>>,
    opts: &Options,
) -> Vec<Cell> {
    let mut cells = Vec::with_capacity(rows.len() * 32);
    for &row in rows {
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
    cells
}
