//! Kernel view: a whole configuration's report ([`cute_lang::kernel::report`]) as a table,
//! one row per object (its name, kind, verdict and the number behind it), coloured by
//! verdict; on the page a row opens the object in its own view (the block with the
//! section's view expression appended, the row's `data-open`).

use super::common::{check_cells, Options};
use crate::grid::{Cell, Data, Figure, Panel};
use crate::view::View;
use cute_core::Result;
use cute_lang::kernel::{Report, Verdict};

/// The columns: header, and the `data-field` of its cells.
const COLUMNS: [(&str, &str); 4] = [
    ("object", "object"),
    ("kind", "kind"),
    ("verdict", "verdict"),
    ("the number behind it", "headline"),
];

fn shade(v: Verdict) -> f64 {
    match v {
        Verdict::Ok => 0.0,
        Verdict::Warn => 0.55,
        Verdict::Fail => 1.0,
    }
}

/// The kernel figure of `script`'s report.
pub(crate) fn kernel_figure(
    title: &str,
    script: &str,
    r: &Report,
    opts: &Options,
) -> Result<Figure> {
    let rows = r.sections.len();
    let cols = COLUMNS.len();
    let cell_text = check_cells((rows * cols) as i64, opts)?;
    let mut cells = Vec::with_capacity(rows * cols);
    for (k, s) in r.sections.iter().enumerate() {
        let open = s
            .view
            .as_ref()
            .map(|v| format!("{}\n{v}", script.trim_end()));
        for (j, (_, field)) in COLUMNS.iter().enumerate() {
            let text = match j {
                0 => s.name.clone(),
                1 => s.kind.to_string(),
                2 => s.verdict.name().to_string(),
                _ => s.headline.clone(),
            };
            let mut data = vec![
                ("row", Data::from(k)),
                ("col", Data::from(j)),
                ("field", Data::Text(field.to_string())),
                ("object", Data::Text(s.name.clone())),
                ("kind", Data::Text(s.kind.to_string())),
                ("verdict", Data::Text(s.verdict.name().to_string())),
                ("headline", Data::Text(s.headline.clone())),
            ];
            for (i, w) in s.warnings.iter().enumerate() {
                let fix = w
                    .fix
                    .as_ref()
                    .map_or_else(String::new, |f| format!(" Fix: {f}."));
                data.push((
                    if i == 0 { "warning" } else { "warning-more" },
                    Data::Text(format!("{}.{fix}", w.reason)),
                ));
            }
            // The section's facts (a descriptor's decoded fields, a TMA box's
            // cuTensorMapEncodeTiled arguments), one "name: value" a line, for the inspector.
            if !s.facts.is_empty() {
                let facts: Vec<String> = s.facts.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                data.push(("facts", Data::Text(facts.join("\n"))));
            }
            if let Some(o) = &open {
                data.push(("open", Data::Text(o.clone())));
            }
            cells.push(Cell {
                text: if cell_text { text } else { String::new() },
                fill: opts.palette.quality(shade(s.verdict)),
                class: if open.is_some() {
                    "opens".into()
                } else {
                    String::new()
                },
                data,
            });
        }
    }
    let panel = Panel {
        id: "report".into(),
        label: format!("{}: {} objects, {}", r.arch, rows, r.verdict().name()),
        rows,
        cols,
        row_headers: (1..=rows).map(|r| r.to_string()).collect(),
        col_headers: COLUMNS.iter().map(|(h, _)| h.to_string()).collect(),
        cells,
        col_breaks: vec![2, 3],
        row_breaks: Vec::new(),
        source: None,
        marks: Vec::new(),
    };
    let notes: Vec<String> = r
        .sections
        .iter()
        .flat_map(|s| {
            s.warnings.iter().map(move |w| {
                let fix = w
                    .fix
                    .as_ref()
                    .map_or_else(String::new, |f| format!(" Fix: {f}."));
                format!("{} ({}): {}.{fix}", s.name, s.verdict.name(), w.reason)
            })
        })
        .collect();
    Ok(Figure {
        view: View::Kernel,
        title: title.to_string(),
        subtitle: format!(
            "every smem buffer, copy and MMA of the block, checked; {} of shared memory per CTA on {}",
            cute_lang::kernel::kib(r.smem_limit),
            r.arch
        ),
        panels: vec![(panel, (0, 0))],
        legend_title: "verdict:".into(),
        legend: [Verdict::Ok, Verdict::Warn, Verdict::Fail]
            .into_iter()
            .map(|v| (opts.palette.quality(shade(v)), v.name().to_string()))
            .collect(),
        notes,
        cell_text,
    })
}
