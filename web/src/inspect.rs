//! The hover inspector: a cell's `data-*` attributes (written by the renderer) turned into
//! labelled rows, enriched from the drawn value (hierarchical coordinate, offset bits under
//! the swizzle, bank and word). Pure: the page reads the attributes, this explains them.
//! The labels and the word of an offset are the renderer's ([`cute_render::grid::CELL_KEYS`],
//! [`cute_render::grid::Word`]).

use cute_core::int_tuple::idx2crd;
use cute_core::swizzle::AnyLayout;
use cute_core::{IntTuple, Swizzle};
use cute_lang::Value;
use cute_render::grid::{cell_key, Word};

/// One inspector row: label and value.
pub type Row = (String, String);

/// What the drawn value contributes to explanations.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// Shape of the drawn layout (for hierarchical coordinates).
    pub shape: Option<IntTuple>,
    /// Swizzle of a drawn composed layout (for its bit fields), in the units drawn: a
    /// shared-memory atom's byte swizzle recast to its elements, as the figure shows it.
    pub swizzle: Option<Swizzle>,
    /// Element width in bits (the one the figure used).
    pub bits: u32,
}

impl Context {
    /// The context of a drawn value.
    pub fn of(value: &Value, bits: u32) -> Context {
        let (shape, swizzle) = match value {
            Value::Layout(l) => (Some(l.shape().clone()), None),
            Value::Composed(c) => {
                let drawn = AnyLayout::Composed(c.clone()).in_elements().ok();
                let sw = match drawn {
                    Some(AnyLayout::Composed(d)) => Some(d.swizzle),
                    // The swizzle is the identity in elements.
                    _ => None,
                };
                (Some(c.layout.shape().clone()), sw)
            }
            _ => (None, None),
        };
        Context {
            shape,
            swizzle,
            bits,
        }
    }
}

fn get<'a>(data: &'a [(String, String)], k: &str) -> Option<&'a str> {
    data.iter()
        .find(|(key, _)| key == k)
        .map(|(_, v)| v.as_str())
}

/// `offset` in binary, grouped by 4 from the right, at least `width` digits.
fn binary(v: i64, width: usize) -> String {
    let raw = format!("{:0width$b}", v.max(0));
    let n = raw.len();
    raw.chars()
        .enumerate()
        .flat_map(|(i, c)| {
            let sep = i > 0 && (n - i).is_multiple_of(4);
            sep.then_some('_').into_iter().chain(std::iter::once(c))
        })
        .collect()
}

/// Inspector rows for one cell's attributes (`data-` prefix removed, document order).
///
/// ```
/// use cute_web::inspect::{rows, Context};
/// let v = cute_lang::eval_line("Sw<3,4,3> o 0 o (8,64):(64,1)").unwrap();
/// let data: Vec<(String, String)> = [("panel", "after"), ("idx", "9"), ("row", "1"), ("col", "1"),
///     ("offset", "65"), ("bank", "0"), ("pre", "65")]
///     .iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
/// let r = rows(&data, &Context::of(&v, 16));
/// let find = |k: &str| r.iter().find(|(l, _)| l == k).map(|(_, v)| v.clone());
/// assert_eq!(find("coordinate").as_deref(), Some("(1,1)"));
/// assert_eq!(find("flat (row, col)").as_deref(), Some("(1, 1)"));
/// assert_eq!(find("word").as_deref(), Some("32 (bytes 128..131)"));
/// ```
pub fn rows(data: &[(String, String)], ctx: &Context) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    let mut push = |k: &str, v: String| out.push((k.to_string(), v));
    if let Some(p) = get(data, "panel") {
        push("panel", p.to_string());
    }
    let idx = get(data, "idx").and_then(|v| v.parse::<i64>().ok());
    if let Some(c) = get(data, "coord") {
        // Algebra panels carry the coordinate in their own operand's shape.
        push("coordinate", c.to_string());
    } else if let (Some(i), Some(shape)) = (idx, &ctx.shape) {
        // A slice of the last mode (`after-2`) is indexed in the whole value too.
        let panel = get(data, "panel").map(|p| p.split('-').next().unwrap_or(p));
        let drawn_is_value = matches!(panel, Some("layout" | "before" | "after"));
        if drawn_is_value {
            if let Ok(c) = idx2crd(&IntTuple::Int(i), shape) {
                push("coordinate", c.to_string());
            }
        }
    }
    if let (Some(r), Some(c)) = (get(data, "row"), get(data, "col")) {
        push("flat (row, col)", format!("({r}, {c})"));
    }
    let offset = get(data, "offset").and_then(|v| v.parse::<i64>().ok());
    let pre = get(data, "pre").and_then(|v| v.parse::<i64>().ok());
    for (k, v) in data {
        match k.as_str() {
            "panel" | "row" | "col" | "coord" => {}
            "offset" | "pre" => {}
            // A row that opens the block with a view line appended (the kernel view's):
            // the line it adds, not the whole block again.
            // A kernel row's facts, one "name: value" a line: a row each.
            "facts" => {
                for line in v.lines() {
                    match line.split_once(": ") {
                        Some((name, value)) => push(name, value.to_string()),
                        None => push("fact", line.to_string()),
                    }
                }
            }
            "open" if v.contains('\n') => {
                let line = v.lines().last().unwrap_or_default();
                push(
                    cell_key(k).map_or(k.as_str(), |c| c.label),
                    format!("… + {line}"),
                );
            }
            _ => {
                // Keys the table does not know are shown as they are.
                let label = cell_key(k).map_or(k.as_str(), |c| c.label);
                push(label, v.clone());
            }
        }
    }
    if let Some(o) = offset {
        let width = ctx
            .swizzle
            .map_or(0, |s| {
                (64 - (s.yyy_mask() | s.zzz_mask()).leading_zeros()) as usize
            })
            .max(64 - o.max(1).leading_zeros() as usize);
        match (pre, ctx.swizzle) {
            (Some(p), Some(s)) => {
                push(
                    "offset before swizzle",
                    format!("{p} = 0b{}", binary(p, width)),
                );
                push("swizzled offset", format!("{o} = 0b{}", binary(o, width)));
                push(
                    "swizzle bits",
                    format!(
                        "yyy 0b{} → zzz 0b{} (Sw<{},{},{}>)",
                        binary(s.yyy_mask(), width),
                        binary(s.zzz_mask(), width),
                        s.b,
                        s.m,
                        s.s
                    ),
                );
            }
            _ => push("offset", format!("{o} = 0b{}", binary(o, width))),
        }
        if get(data, "word").is_none() && ctx.bits > 0 {
            push("word", Word::of_offset(o, ctx.bits).to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// A kernel row's facts are a row each, named as the report names them.
    #[test]
    fn kernel_facts_are_rows() {
        let r = rows(
            &data(&[(
                "facts",
                "op: SM90_TMA_LOAD\ncuTensorMapEncodeTiled: rank 2, boxDim {64, 64}",
            )]),
            &Context::default(),
        );
        assert!(r.contains(&("op".into(), "SM90_TMA_LOAD".into())), "{r:?}");
        assert!(
            r.contains(&(
                "cuTensorMapEncodeTiled".into(),
                "rank 2, boxDim {64, 64}".into()
            )),
            "{r:?}"
        );
    }

    #[test]
    fn binary_groups_by_four() {
        assert_eq!(binary(0b1_0110_0001, 0), "1_0110_0001");
        assert_eq!(binary(5, 8), "0000_0101");
    }

    #[test]
    fn hierarchical_coordinate_of_a_nested_layout() {
        let v = cute_lang::eval_line("((2,4),8):((1,16),2)").unwrap();
        let r = rows(
            &data(&[("panel", "layout"), ("idx", "13"), ("offset", "0")]),
            &Context::of(&v, 16),
        );
        assert!(
            r.contains(&("coordinate".into(), "((1,2),1)".into())),
            "{r:?}"
        );
    }

    #[test]
    fn a_slice_panel_gives_the_coordinate_in_the_whole_layout() {
        let v = cute_lang::eval_line("(4,8,3):(8,1,32)").unwrap();
        let r = rows(
            &data(&[("panel", "layout-2"), ("idx", "69"), ("offset", "69")]),
            &Context::of(&v, 16),
        );
        assert!(
            r.contains(&("coordinate".into(), "(1,1,2)".into())),
            "{r:?}"
        );
    }

    #[test]
    fn tv_cell_shows_thread_and_value() {
        let v = cute_lang::eval_line("make_layout_tv((4,8):(8,1), (4,1):(1,0))").unwrap();
        let r = rows(
            &data(&[
                ("panel", "tv"),
                ("idx", "3"),
                ("thread", "17"),
                ("value", "2"),
            ]),
            &Context::of(&v, 16),
        );
        assert!(r.contains(&("thread".into(), "17".into())));
        assert!(r.contains(&("value".into(), "2".into())));
    }
}
