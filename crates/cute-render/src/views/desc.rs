//! Descriptor view: a GMMA/UMMA descriptor's bits as a ruler of named fields, and for a
//! shared-memory descriptor the operand block it describes, its core matrices outlined
//! and LBO/SBO drawn as arrows from the first core matrix to the ones they reach.

use super::common::{check_cells, overview_note, Options};
use super::layout::grey_panel;
use crate::grid::{Cell, Data, Figure, Mark, Panel};
use crate::view::View;
use cute_core::desc::{Descriptor, SmemOperand};
use cute_core::smem_atom::AtomMajor;
use cute_core::{IntTuple, Result};

/// Fill of bits no field uses.
const UNUSED: &str = "#ffffff";
/// The first core matrix, the one LBO reaches and the one SBO reaches: fill, arrow.
const ORIGIN: &str = "#f7f0a0";
const LBO: (&str, &str) = ("#f6c9a8", "#c04a00");
const SBO: (&str, &str) = ("#a9cce3", "#0060a0");
/// Other core matrices, alternating.
const CORE: [&str; 2] = ["#f4f4f4", "#dedede"];

pub(super) fn desc_figure(title: &str, d: &Descriptor, opts: &Options) -> Result<Figure> {
    let ruler = ruler_panel(d, opts);
    let legend = d
        .fields
        .iter()
        .enumerate()
        .map(|(k, f)| {
            let range = if f.width == 1 {
                format!("[{}]", f.lo)
            } else {
                format!("[{}:{}]", f.lo + f.width - 1, f.lo)
            };
            let meaning = if f.meaning.is_empty() {
                String::new()
            } else {
                format!(" ({})", f.meaning)
            };
            (
                opts.palette.thread(k as i64),
                format!("{} {range} = {}{meaning}", f.name, f.value),
            )
        })
        .collect();
    let mut panels = vec![(ruler, (0, 0))];
    let mut notes = Vec::new();
    let mut cell_text = true;
    let subtitle = match &d.smem {
        None => format!("0x{:08x}  ·  one cell per bit, coloured by field", d.word),
        Some(s) => {
            let (panel, text, mut more) = operand_panel(s, opts)?;
            cell_text = text;
            panels.push((panel, (0, 1)));
            notes.push(format!("canonical form: {}", s.form));
            notes.push(format!(
                "in 16-byte units: {}  ->  divided into core-matrix modes: {}",
                s.u128, s.canonical
            ));
            notes.append(&mut more);
            notes.extend(s.warnings.iter().cloned());
            format!(
                "0x{:016x}  ·  one cell per bit, coloured by field; below: the {}-major operand ({}-bit elements), cell = offset, outlines = 8-row x 16-byte core matrices",
                d.word,
                match s.major {
                    AtomMajor::K => "K",
                    AtomMajor::MN => "MN",
                },
                s.elem_bits
            )
        }
    };
    if d.kind != cute_core::desc::DescKind::UmmaInstr {
        notes.push(
            "start_addr is 0 here: on the GPU it is the block's shared-memory address >> 4, and CuTe adds each later block's offset (in 16 B) to it".into(),
        );
    }
    Ok(Figure {
        view: View::Descriptor,
        title: title.to_string(),
        subtitle,
        panels,
        legend_title: "fields:".into(),
        legend,
        notes,
        cell_text,
    })
}

/// The ruler: a row of bits per 32-bit word (highest word on top) and under it a row
/// naming its fields, each field's run framed.
fn ruler_panel(d: &Descriptor, opts: &Options) -> Panel {
    let bits = d.bits();
    let words = (bits / 32) as usize;
    let mut cells = Vec::with_capacity(words * 32);
    let mut marks = Vec::new();
    for word in 0..words {
        // Row 0 holds the highest word: the ruler reads left to right from the top bit;
        // under each word, a row naming its fields.
        let row = 2 * word;
        let base = bits - 32 * (word as u32 + 1);
        for col in 0..32u32 {
            cells.push(bit_cell(d, base + 31 - col, opts));
        }
        // The names row: blank cells (hover still names the field) under the bits.
        for col in 0..32usize {
            let mut data = cells[cells.len() - 32 + col].data.clone();
            data.retain(|(k, _)| *k != "value");
            cells.push(Cell {
                text: String::new(),
                fill: "#ffffff".to_string(),
                class: String::new(),
                data,
            });
        }
        // Each field's run of bits in this row, framed.
        for f in &d.fields {
            let (lo, hi) = (f.lo.max(base), (f.lo + f.width).min(base + 32));
            if lo < hi {
                let col = (base + 31 - (hi - 1)) as usize;
                let cols = (hi - lo) as usize;
                marks.push(Mark::Outline {
                    row,
                    col,
                    rows: 2,
                    cols,
                    colour: "#202020".into(),
                    width: 2.0,
                });
                // The name under the run, cut where the run is narrow (one-digit cells are
                // 26 px: four 10px characters each); the legend and hover give it whole.
                let room = cols * 4;
                let name: String = if f.name.chars().count() <= room {
                    f.name.to_string()
                } else {
                    f.name.chars().take(room.max(1)).collect()
                };
                marks.push(Mark::Label {
                    at: (row as f64 + 1.5, col as f64 + cols as f64 / 2.0),
                    text: name,
                });
            }
        }
    }
    Panel {
        id: "bits".into(),
        label: format!("{} ({bits} bits)", d.type_name()),
        rows: 2 * words,
        cols: 32,
        row_headers: (0..2 * words)
            .map(|r| {
                let base = bits as usize - 32 * (r / 2 + 1);
                if r % 2 == 0 {
                    format!("{}..{}", base + 31, base)
                } else {
                    "field".to_string()
                }
            })
            .collect(),
        col_headers: (0..32).map(|c| (31 - c).to_string()).collect(),
        cells,
        col_breaks: vec![8, 16, 24],
        row_breaks: Vec::new(),
        source: None,
        marks,
    }
}

/// The cell of one bit of the ruler: its value, coloured and named by its field.
fn bit_cell(d: &Descriptor, bit: u32, opts: &Options) -> Cell {
    let colour = |k: usize| opts.palette.thread(k as i64);
    let on = (d.word >> bit) & 1;
    let mut data = vec![("bit", Data::from(u64::from(bit)))];
    let fill = match d
        .fields
        .iter()
        .position(|f| bit >= f.lo && bit < f.lo + f.width)
    {
        Some(k) => {
            let f = &d.fields[k];
            data.push(("field", Data::from(f.name.to_string())));
            data.push((
                "bits",
                Data::from(format!("{}..{}", f.lo + f.width - 1, f.lo)),
            ));
            data.push((
                "value",
                Data::from(format!("{} = 0x{:x}", f.value, f.value)),
            ));
            if !f.meaning.is_empty() {
                data.push(("meaning", Data::from(f.meaning.clone())));
            }
            colour(k)
        }
        None => {
            data.push(("field", Data::from("unused".to_string())));
            UNUSED.to_string()
        }
    };
    Cell {
        text: on.to_string(),
        fill,
        class: String::new(),
        data,
    }
}

/// The operand block: offsets in elements, core matrices outlined and shaded, the ones
/// LBO and SBO reach coloured with arrows from the first. Also whether cells carry text,
/// and notes on what LBO/SBO reach.
fn operand_panel(s: &SmemOperand, opts: &Options) -> Result<(Panel, bool, Vec<String>)> {
    let layout = s.layout.in_elements()?;
    let size = layout.size()?;
    let cell_text = check_cells(size, opts)?;
    let mut p = grey_panel("smem", "", &layout, cell_text, opts)?;
    p.label = format!("operand block {}", s.layout);
    let (cr, cc) = (s.core.0 as usize, s.core.1 as usize);
    let (rows, cols) = (p.rows, p.cols);
    // Offsets before the swizzle: the descriptor's LBO/SBO count in those.
    let inner = layout.inner();
    let pre = |r: usize, c: usize| inner.call_coord(&IntTuple::ints(&[r as i64, c as i64]));
    let byte = |o: i64| o.checked_mul(s.elem_bits).map(|b| b / 8);
    let origin_of = |bytes: i64| -> Result<Option<(usize, usize)>> {
        for c in (0..cols).step_by(cc.max(1)) {
            for r in (0..rows).step_by(cr.max(1)) {
                if byte(pre(r, c)?) == Some(bytes) {
                    return Ok(Some((r, c)));
                }
            }
        }
        Ok(None)
    };
    let mut notes = Vec::new();
    let lbo_at = if s.lbo_used && s.lbo != 0 {
        origin_of(s.lbo.saturating_mul(16))?
    } else {
        None
    };
    let sbo_at = if s.sbo != 0 {
        origin_of(s.sbo.saturating_mul(16))?
    } else {
        None
    };
    let start = byte(pre(0, 0)?).unwrap_or(0);
    if start != 0 {
        notes.push(format!(
            "the block starts {start} B into its layout's offsets: the descriptor's start address points there"
        ));
    }
    for (name, v, at, used) in [
        ("LBO", s.lbo, lbo_at, s.lbo_used),
        ("SBO", s.sbo, sbo_at, true),
    ] {
        let bytes = v.saturating_mul(16);
        notes.push(match (used, at) {
            (false, _) => format!(
                "{name} = {v} ({bytes} B) is not read: a swizzled K-major block has its two 16-byte K halves side by side in each row"
            ),
            (true, Some((r, c))) => format!(
                "{name} = {v} x 16 B = {bytes} B: from the core matrix at (0, 0) to the one at ({r}, {c})"
            ),
            (true, None) if v == 0 => format!(
                "{name} = 0: the block has one core matrix along the mode {name} steps"
            ),
            (true, None) => format!(
                "{name} = {v} x 16 B = {bytes} B: no core matrix of this block starts there"
            ),
        });
    }
    // Shade and outline the core matrices.
    for r in 0..rows {
        for c in 0..cols {
            let (br, bc) = (r / cr.max(1), c / cc.max(1));
            let at = (br * cr, bc * cc);
            let fill = if at == (0, 0) {
                ORIGIN
            } else if Some(at) == lbo_at {
                LBO.0
            } else if Some(at) == sbo_at {
                SBO.0
            } else {
                CORE[(br + bc) % 2]
            };
            let cell = &mut p.cells[r * cols + c];
            cell.fill = fill.to_string();
            cell.data
                .push(("core", Data::from(format!("({br}, {bc})"))));
        }
    }
    let blocks = (rows.div_ceil(cr.max(1))) * (cols.div_ceil(cc.max(1)));
    if blocks <= 4096 {
        for r in (0..rows).step_by(cr.max(1)) {
            for c in (0..cols).step_by(cc.max(1)) {
                p.marks.push(Mark::Outline {
                    row: r,
                    col: c,
                    rows: cr.min(rows - r),
                    cols: cc.min(cols - c),
                    colour: "#404040".into(),
                    width: 1.5,
                });
            }
        }
    }
    let centre = |(r, c): (usize, usize)| {
        (
            r as f64 + cr.min(rows - r) as f64 / 2.0,
            c as f64 + cc.min(cols - c) as f64 / 2.0,
        )
    };
    for (at, (_, stroke), name, v) in [(lbo_at, LBO, "LBO", s.lbo), (sbo_at, SBO, "SBO", s.sbo)] {
        if let Some(to) = at {
            p.marks.push(Mark::Arrow {
                from: centre((0, 0)),
                to: centre(to),
                colour: stroke.into(),
                label: format!("{name} {} B", v.saturating_mul(16)),
            });
        }
    }
    if !cell_text {
        notes.push(overview_note(size as usize, opts));
    }
    Ok((p, cell_text, notes))
}
