//! Algebra view: the layout operands of a call and its result, side by side.

use super::common::{check_cells, overview_note, Options};
use super::layout::{grey_legend, grey_panel, grid_cols};
use crate::grid::{Data, Figure, Panel};
use crate::limits::CELL_HARD_CAP;
use crate::view::View;
use cute_core::int_tuple::idx2crd;
use cute_core::swizzle::AnyLayout;
use cute_core::{IntTuple, Result};
use cute_lang::Call;
use cute_lang::Value;

/// One grid of the algebra view before it is built.
struct Operand {
    id: String,
    label: String,
    layout: AnyLayout,
    size: usize,
}

impl Operand {
    /// Whether `v` is drawn as a grid.
    fn of_kind(v: &Value) -> bool {
        matches!(v, Value::Layout(_) | Value::Composed(_))
    }

    /// The grid of `v`, or `None` when `v` is not a layout.
    fn of(id: String, label: String, v: &Value) -> Result<Option<Operand>> {
        let Some(layout) = v.to_any_layout().ok() else {
            return Ok(None);
        };
        let layout = layout.in_elements()?;
        let size = usize::try_from(layout.size()?).unwrap_or(usize::MAX);
        Ok(Some(Operand {
            id,
            label,
            layout,
            size,
        }))
    }
}

/// `A`, `B`, `C`, ... for argument `k`.
fn operand_name(k: usize) -> String {
    match u8::try_from(k) {
        Ok(k) if k < 26 => char::from(b'A' + k).to_string(),
        _ => format!("X{k}"),
    }
}

pub(super) fn algebra_figure(
    title: &str,
    call: &Call,
    value: &Value,
    opts: &Options,
) -> Result<Figure> {
    let names: Vec<String> = (0..call.args.len()).map(operand_name).collect();
    let result_label = format!("{}({}) = {value}", call.name, names.join(", "));
    let Some(result) = Operand::of("result".into(), result_label, value)? else {
        return Err(cute_core::err!(
            "the algebra view draws a layout result, got {}",
            value.kind()
        ));
    };
    if result.size > CELL_HARD_CAP {
        return Err(cute_core::err!(
            "{} cells is too many to draw (limit {CELL_HARD_CAP})",
            result.size
        ));
    }
    let mut notes = Vec::new();
    if let Some(op) = cute_lang::lookup(&call.name) {
        notes.push(format!("{}{}: {}", op.name, op.params, op.meaning));
    }
    // Operands are drawn while the whole figure stays under the cell cap; the others (and
    // every operand that is not a layout) are described in notes.
    let mut total = result.size;
    let mut grids: Vec<Operand> = Vec::new();
    for (name, arg) in names.iter().zip(&call.args) {
        let v = match arg {
            Ok(v) => v,
            Err(e) => {
                notes.push(format!("{name}: error: {e}"));
                continue;
            }
        };
        let mut group = Vec::new();
        let mut too_big = Vec::new();
        match v {
            Value::Tuple(modes) if modes.iter().any(Operand::of_kind) => {
                for (j, m) in modes.iter().enumerate() {
                    let label = format!("{name}[{j}] = {m}");
                    match Operand::of(format!("{name}{j}"), label.clone(), m) {
                        Ok(Some(op)) => group.push(op),
                        Ok(None) => {}
                        Err(e) => notes.push(format!("{label}: not drawn: {e}")),
                    }
                }
                notes.push(format!(
                    "{name} = {v}: a tiler, one panel per layout mode {name}[i] (an integer mode n is n:1, _ keeps the mode)"
                ));
            }
            v => match Operand::of(name.clone(), format!("{name} = {v}"), v) {
                Ok(Some(op)) => group.push(op),
                Ok(None) => notes.push(format!("{name} = {v} ({}, not drawn)", v.kind())),
                Err(e) => notes.push(format!("{name} = {v}: not drawn: {e}")),
            },
        }
        group.retain(|op| {
            if total.saturating_add(op.size) <= CELL_HARD_CAP {
                total += op.size;
                true
            } else {
                too_big.push(format!("{} ({} cells)", op.label, op.size));
                false
            }
        });
        for t in too_big {
            notes.push(format!("{t}: too many cells to draw beside the result"));
        }
        grids.extend(group);
    }
    grids.push(result);
    let cell_text = check_cells(total as i64, opts)?;
    // Side by side while the figure stays readable; one grid per row otherwise.
    let width: usize = grids.iter().map(|op| grid_cols(op.layout.inner())).sum();
    let side_by_side = cell_text && width <= 64;
    let mut panels = Vec::new();
    for op in &grids {
        let mut panel = grey_panel(&op.id, &op.label, &op.layout, cell_text, opts)?;
        add_coords(&mut panel, op.layout.inner().shape());
        let k = panels.len();
        panels.push((panel, if side_by_side { (k, 0) } else { (0, k) }));
    }
    if !cell_text {
        notes.push(overview_note(total, opts));
    }
    let what = if grids.iter().any(|g| g.layout.swizzle().is_some()) {
        "(swizzled) offset"
    } else {
        "offset"
    };
    Ok(Figure {
        view: View::Algebra,
        title: title.to_string(),
        subtitle: format!(
            "{}: {} and the result {}  ·  cell = {}, colour = {what} mod 8",
            call.name,
            if names.is_empty() {
                "no operands".to_string()
            } else {
                format!("operands {}", names.join(", "))
            },
            if side_by_side {
                "side by side"
            } else {
                "one above the other"
            },
            opts.labels.says(what)
        ),
        panels,
        legend_title: format!("{what} mod 8:"),
        legend: grey_legend(),
        notes,
        cell_text,
    })
}

/// `data-coord`: each cell's coordinate in the layout's own (hierarchical) shape.
fn add_coords(panel: &mut Panel, shape: &IntTuple) {
    for cell in &mut panel.cells {
        let idx = cell.data.iter().find_map(|(k, v)| match (k, v) {
            (&"idx", Data::Int(i)) => Some(*i),
            _ => None,
        });
        if let Some(Ok(c)) = idx.map(|i| idx2crd(&IntTuple::Int(i), shape)) {
            cell.data.push(("coord", Data::Text(c.to_string())));
        }
    }
}
