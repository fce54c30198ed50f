//! Search view: the ranked table of a swizzle search.

use super::common::{check_cells, overview_note, Options};
use crate::grid::{Cell, Data, Figure, Panel};
use crate::view::View;
use cute_core::bank::Candidate;
use cute_core::{Error, Result};
use cute_lang::{Call, Value};

/// Candidates drawn by the search view (the rest are counted in a note).
pub const SEARCH_ROWS: usize = 64;

/// The search view's columns: header, and the `data-field` of its cells.
const SEARCH_COLUMNS: [(&str, &str); 7] = [
    ("candidate", "candidate"),
    ("in a kernel (bytes)", "kernel"),
    ("wavefronts", "wavefronts"),
    ("ideal", "ideal"),
    ("conflicts", "conflicts"),
    ("x ideal", "ratio"),
    ("smem +", "extra-elems"),
];

/// The bank check of each candidate, as text the language reads back: the search's own
/// call with the candidate's layout for its first operand (`None` when the operands do
/// not print as a call that gives the first candidate's wavefronts back).
fn bank_calls(cs: &[Candidate], call: Option<&Call>) -> Option<Vec<String>> {
    let call = call.filter(|c| c.name == "swizzle_search")?;
    let rest: Vec<String> = call.args[1..]
        .iter()
        .map(|a| a.as_ref().ok().map(Value::to_string))
        .collect::<Option<_>>()?;
    let text = |c: &Candidate| format!("bank_conflicts({}, {})", c.smem, rest.join(", "));
    // The printed operands must read back as the same access.
    match cute_lang::eval_line(&text(&cs[0])) {
        Ok(Value::Banks(r)) if r.wavefronts() == cs[0].wavefronts => {}
        _ => return None,
    }
    Some(cs.iter().map(text).collect())
}

pub(super) fn search_figure(
    title: &str,
    cs: &[Candidate],
    call: Option<&Call>,
    opts: &Options,
) -> Result<Figure> {
    if cs.is_empty() {
        return Err(Error::new("the search view has no candidates to draw"));
    }
    let shown = cs.len().min(SEARCH_ROWS);
    let opens = bank_calls(&cs[..shown], call);
    let cols = SEARCH_COLUMNS.len();
    let cell_text = check_cells((shown * cols) as i64, opts)?;
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
    let mut cells = Vec::with_capacity(shown * cols);
    for (k, c) in cs[..shown].iter().enumerate() {
        let fill = opts.palette.quality(quality(c.wavefronts));
        cells.extend(row_cells(k, c, &fill, cell_text, opens.as_ref()));
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
        col_breaks: vec![2],
        row_breaks: Vec::new(),
        source: None,
        marks: Vec::new(),
    };
    let top = &cs[0];
    let base = cs.iter().find(|c| c.label == "none");
    let mut notes = vec![format!(
        "best: {} (#1): {} wavefronts, ideal {}{}{}",
        top.smem,
        top.wavefronts,
        top.ideal,
        match top.wavefronts.saturating_sub(top.ideal) {
            0 => ", conflict-free".to_string(),
            n => format!(", {n} extra"),
        },
        top.kernel_spelling()
            .map_or_else(String::new, |k| format!("; in a kernel: {k}"))
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
    if opens.is_some() {
        notes.push(
            "on the page, a row opens its bank check (the call is the row's data-open)".to_string(),
        );
    }
    if shown < cs.len() {
        notes.push(format!(
            "{} more candidates (#{}..#{}) are not drawn",
            cs.len() - shown,
            shown + 1,
            cs.len()
        ));
    }
    if !cell_text {
        notes.push(overview_note(shown * cols, opts));
    }
    let legend = quality_legend(lo, hi, best, opts);
    Ok(Figure {
        view: View::Search,
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

/// The ratio of a candidate's wavefronts to the ideal, as the table prints it.
fn ratio(c: &Candidate) -> String {
    if c.ideal > 0 {
        format!("{:.2}", c.wavefronts as f64 / c.ideal as f64)
    } else {
        "-".to_string()
    }
}

/// The cells of the table's row `k`: candidate `c`, every column, with its data.
fn row_cells(
    k: usize,
    c: &Candidate,
    fill: &str,
    cell_text: bool,
    opens: Option<&Vec<String>>,
) -> Vec<Cell> {
    let mut out = Vec::with_capacity(SEARCH_COLUMNS.len());
    let conflicts = c.wavefronts.saturating_sub(c.ideal);
    let smem = c.smem.to_string();
    let kernel = c.kernel_spelling();
    for (j, (_, field)) in SEARCH_COLUMNS.iter().enumerate() {
        let text = match j {
            0 => c.label.clone(),
            1 => kernel
                .as_deref()
                .map_or("-".to_string(), |k| k.replace(" on bytes", "")),
            2 => c.wavefronts.to_string(),
            3 => c.ideal.to_string(),
            4 => conflicts.to_string(),
            5 => ratio(c),
            _ if c.extra_elems > 0 => format!("+{}", c.extra_elems),
            _ => "0".to_string(),
        };
        let mut data = vec![
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
        ];
        if let Some(k) = &kernel {
            data.push(("kernel", Data::Text(k.clone())));
        }
        if let Some(o) = &opens {
            data.push(("open", Data::Text(o[k].clone())));
        }
        out.push(Cell {
            text: if cell_text { text } else { String::new() },
            fill: fill.to_string(),
            class: if opens.is_some() {
                "opens".into()
            } else {
                String::new()
            },
            data,
        });
    }
    out
}

/// Five legend stops from the best to the worst wavefront count (log scale `lo..hi`).
fn quality_legend(lo: f64, hi: f64, best: u64, opts: &Options) -> Vec<(String, String)> {
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
    legend
}
