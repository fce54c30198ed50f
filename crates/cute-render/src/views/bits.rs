//! Bit-matrix view: a swizzle, or a layout, composed layout or thread-value layout that is
//! linear over GF(2) on the bits of its index, as its matrix (columns = input bits, rows =
//! output bits), Triton's linear layouts' picture; a note and the offsets where it is not.

use super::common::Options;
use super::layout::{grey_legend, grey_panel};
use crate::grid::{Cell, Data, Figure, Mark, Panel};
use crate::view::View;
use cute_core::f2::{self, BitMatrix, F2};
use cute_core::swizzle::AnyLayout;
use cute_core::{IntTuple, Layout, Result};
use cute_lang::Value;

/// Fill of a 1.
const ONE: &str = "#9ecae1";

/// Names of `n` bits of each mode: `prefix` plus the mode's letter and bit, or `b0`... for a
/// layout of one mode.
fn bit_names(modes: &[(String, i64)], n: usize) -> (Vec<String>, Vec<usize>) {
    let mut names = Vec::with_capacity(n);
    let mut breaks = Vec::new();
    for (name, size) in modes {
        let bits = size.max(&1).trailing_zeros() as usize;
        if size.count_ones() != 1 {
            // Not a power of two: the bits do not split by mode.
            return ((0..n).map(|k| format!("b{k}")).collect(), Vec::new());
        }
        for k in 0..bits {
            names.push(format!("{name}{k}"));
        }
        if !names.is_empty() && names.len() < n {
            breaks.push(names.len());
        }
    }
    breaks.retain(|&b| b < n);
    breaks.dedup();
    while names.len() < n {
        names.push(format!("b{}", names.len()));
    }
    (names, breaks)
}

/// Each top-level mode of `shape` with a name from `letters`.
fn modes_of(shape: &IntTuple, letters: &[&str]) -> Result<Vec<(String, i64)>> {
    let sizes: Vec<i64> = match shape {
        IntTuple::Tuple(ms) => ms.iter().map(IntTuple::size).collect::<Result<_>>()?,
        s => vec![s.size()?],
    };
    Ok(sizes
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            (
                letters.get(k).map_or(format!("x{k}_"), |l| l.to_string()),
                s,
            )
        })
        .collect())
}

fn matrix_panel(
    m: &BitMatrix,
    cols: (Vec<String>, Vec<usize>),
    rows: (Vec<String>, Vec<usize>),
) -> Panel {
    let mut cells = Vec::with_capacity(m.rows() * m.cols());
    for r in 0..m.rows() {
        for c in 0..m.cols() {
            let one = m.get(r, c);
            cells.push(Cell {
                text: if one { "1" } else { "0" }.into(),
                fill: if one { ONE } else { "#ffffff" }.into(),
                class: if one { "one".into() } else { String::new() },
                data: vec![
                    ("row", Data::from(r)),
                    ("col", Data::from(c)),
                    ("in", Data::Text(cols.0[c].clone())),
                    ("out", Data::Text(rows.0[r].clone())),
                ],
            });
        }
    }
    Panel {
        id: "bits".into(),
        label: format!(
            "{} output bits x {} input bits, rank {}",
            m.rows(),
            m.cols(),
            m.rank()
        ),
        rows: m.rows(),
        cols: m.cols(),
        row_headers: rows.0,
        col_headers: cols.0,
        cells,
        col_breaks: cols.1,
        row_breaks: rows.1,
        source: None,
        marks: Vec::new(),
    }
}

/// The function a value is, over which bits: the matrix or the witness, the input and
/// output bits' names, what the picture says.
struct Linear {
    /// The matrix or the witness; the reason there is neither (a size not a power of two).
    f2: std::result::Result<F2, String>,
    inputs: Vec<(String, i64)>,
    outputs: Vec<(String, i64)>,
    what: String,
    /// The layout drawn beside a note when the function is not linear.
    layout: Option<AnyLayout>,
}

fn linear_of(value: &Value) -> Result<Linear> {
    match value {
        Value::Swizzle(sw) => {
            let m = f2::to_f2_matrix_swizzle(sw, None);
            let n = m.cols() as i64;
            Ok(Linear {
                f2: Ok(F2::Linear(m)),
                inputs: vec![("a".into(), 1i64 << n.min(62))],
                outputs: vec![("a".into(), 1i64 << n.min(62))],
                what: format!("{sw}: address bit k (column) to the bits it flips into (rows)"),
                layout: None,
            })
        }
        Value::Layout(l) => layout_linear(
            l,
            &AnyLayout::Layout(l.clone()),
            f2::to_f2_matrix_layout(l),
        ),
        Value::Composed(c) => {
            let e = AnyLayout::Composed(c.clone()).in_elements()?;
            let f2 = match &e {
                AnyLayout::Layout(l) => f2::to_f2_matrix_layout(l),
                AnyLayout::Composed(c) => f2::to_f2_matrix_composed(c),
            };
            layout_linear(e.inner(), &e, f2)
        }
        // `(tile, tv)`: thread and value bits to the bits of the tile's (m, n) index.
        Value::Tuple(vs) if vs.len() == 2 && matches!(vs[1], Value::Layout(_)) => {
            let Value::Layout(tv) = &vs[1] else {
                unreachable!("matched above")
            };
            let tile = vs[0].to_int_tuple()?.product_each()?;
            Ok(Linear {
                f2: f2::to_f2_matrix_layout(tv).map_err(|e| e.to_string()),
                inputs: modes_of(tv.shape(), &["t", "v"])?,
                outputs: modes_of(&tile, &["m", "n"])?,
                what: "thread-value layout: thread bits t and value bits v (columns) to the bits of the tile's index, m then n (rows)".into(),
                layout: Some(AnyLayout::Layout(tv.clone())),
            })
        }
        v => Err(cute_core::err!(
            "the bits view draws a swizzle, a layout, a composed layout or a thread-value layout (tile, tv), got {}",
            v.kind()
        )),
    }
}

fn layout_linear(l: &Layout, drawn: &AnyLayout, f2: Result<F2>) -> Result<Linear> {
    let letters: &[&str] = if l.rank() == 2 {
        &["r", "c"]
    } else {
        &["i", "j", "k", "l"]
    };
    Ok(Linear {
        f2: f2.map_err(|e| e.to_string()),
        inputs: modes_of(l.shape(), letters)?,
        outputs: vec![("o".into(), i64::MAX)],
        what: format!(
            "{drawn}: the bits of the index, mode by mode (columns), to the bits of the offset (rows)"
        ),
        layout: Some(drawn.clone()),
    })
}

/// Outline the cells of 1-D indices `at` (column-major, as the grid is laid out).
fn outline(p: &mut Panel, at: impl Iterator<Item = i64>) {
    for i in at {
        let Ok(i) = usize::try_from(i) else { continue };
        if p.rows == 0 || i >= p.rows * p.cols {
            continue;
        }
        p.marks.push(Mark::Outline {
            row: i % p.rows,
            col: i / p.rows,
            rows: 1,
            cols: 1,
            colour: "#c62828".into(),
            width: 3.0,
        });
    }
}

pub(super) fn bits_figure(title: &str, value: &Value, opts: &Options) -> Result<Figure> {
    let lin = linear_of(value)?;
    let mut notes = Vec::new();
    let (panels, linear) = match &lin.f2 {
        Ok(F2::Linear(m)) => {
            let cols = bit_names(&lin.inputs, m.cols());
            let rows = if lin.outputs.len() == 1 && lin.outputs[0].1 == i64::MAX {
                ((0..m.rows()).map(|k| format!("o{k}")).collect(), Vec::new())
            } else {
                bit_names(&lin.outputs, m.rows())
            };
            notes.push(format!(
                "column k is the image of input bit k: f(x) = XOR of the columns of x's set bits (rank {} of {})",
                m.rank(),
                m.cols()
            ));
            (vec![(matrix_panel(m, cols, rows), (0, 0))], true)
        }
        not => {
            let witness = match not {
                Ok(F2::NotLinear(w)) => {
                    notes.push(format!(
                        "no bit matrix: {w}; the three cells are outlined (offsets that add with a carry are not an XOR of bits)"
                    ));
                    Some([w.a, w.b, w.index()])
                }
                Err(e) => {
                    notes.push(format!("no bit matrix: {e}"));
                    None
                }
                Ok(F2::Linear(_)) => unreachable!("matched above"),
            };
            let panels = match &lin.layout {
                Some(l) if l.size()? <= 4096 => {
                    let mut p = grey_panel("layout", "offsets", l, true, opts)?;
                    outline(&mut p, witness.iter().flatten().copied());
                    vec![(p, (0, 0))]
                }
                _ => Vec::new(),
            };
            (panels, false)
        }
    };
    Ok(Figure {
        view: View::Bits,
        title: title.to_string(),
        subtitle: if linear {
            format!("linear over GF(2): {}", lin.what)
        } else {
            "not linear over GF(2): its offsets, and the bits that break it".into()
        },
        panels,
        legend_title: if linear {
            "bits:".into()
        } else {
            "offset mod 8:".into()
        },
        legend: if linear {
            vec![(ONE.into(), "1".into()), ("#ffffff".into(), "0".into())]
        } else {
            grey_legend()
        },
        notes,
        cell_text: true,
    })
}
