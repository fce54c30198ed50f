//! The page's pure parts: what the components show, computed without the DOM (so tested
//! natively; [`crate::app`] is the wasm32 glue around them).

use cute_render::grid::PanelBox;
use cute_render::{Highlight, View};
use std::ops::Range;

/// One printed line of the script: source line, text, whether it failed.
#[derive(Clone, Debug, PartialEq)]
pub struct Printed {
    /// 1-based source line.
    pub line: usize,
    /// What CuTe prints for it (or the error).
    pub text: String,
    /// Column and message when the line failed.
    pub error: Option<(Option<usize>, String)>,
    /// Whether it is a note of what the host code left out, not a value.
    pub note: bool,
}

/// The first error of a script, for the editor: line, column, message, source line.
#[derive(Clone, Debug, PartialEq)]
pub struct LineError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, when the error has one.
    pub col: Option<usize>,
    /// What is wrong.
    pub msg: String,
    /// The source line.
    pub src: String,
}

impl LineError {
    /// `line L, column C` (or `line L` without a column).
    pub fn place(&self) -> String {
        match self.col {
            Some(c) => format!("line {}, column {c}", self.line),
            None => format!("line {}", self.line),
        }
    }

    /// A caret under the column (`   ^`), when there is one.
    pub fn caret(&self) -> Option<String> {
        self.col
            .map(|c| format!("{}^", " ".repeat(c.saturating_sub(1))))
    }
}

/// The results pane's lines and the editor's first error, from the one evaluation of the
/// script ([`cute_render::evaluate`]), with the notes of what its host code left out in
/// line order.
pub fn printed_lines(
    script: &str,
    lines: &[cute_lang::ScriptLine],
    notes: &[cute_lang::Note],
) -> (Vec<Printed>, Option<LineError>) {
    let src: Vec<&str> = script.lines().collect();
    let mut first = None;
    let printed = lines
        .iter()
        .map(|l| {
            let error = l.result.as_ref().err().map(|e| (e.col, e.msg.clone()));
            if let (None, Some((col, msg))) = (&first, &error) {
                first = Some(LineError {
                    line: l.line,
                    col: *col,
                    msg: msg.clone(),
                    src: src.get(l.line - 1).unwrap_or(&"").to_string(),
                });
            }
            Printed {
                line: l.line,
                text: cute_lang::format_result(&l.result),
                error,
                note: false,
            }
        })
        .collect::<Vec<_>>();
    if notes.is_empty() {
        return (printed, first);
    }
    let mut all: Vec<Printed> = printed
        .into_iter()
        .chain(notes.iter().map(|n| Printed {
            line: n.line,
            text: format!("note: {}", n.text),
            error: None,
            note: true,
        }))
        .collect();
    // A stable sort: a line's value before its note.
    all.sort_by_key(|p| (p.line, p.note));
    (all, first)
}

/// Figures with more cells than this are drawn as fills, their labels painted only where
/// they are on screen and legible ([`cute_render::grid::Detail::Fills`]); smaller ones
/// whole, one element per cell (cheap at this size, and each cell carries its own `data-*`).
pub const WHOLE_CELLS: usize = 128;

/// Labels are painted once a cell is at least this tall on screen (px): 11px text at a
/// zoom of 1/2 or more.
pub const LEGIBLE_CELL_PX: f64 = 12.0;

/// The zoom down to which cell text stays legible: the renderer's 11px labels at 9px. A new
/// figure opens no smaller (labels are still painted down to [`LEGIBLE_CELL_PX`], for a user
/// who zooms out).
pub const LEGIBLE_ZOOM: f64 = 9.0 / 11.0;

/// The zoom a new figure of `natural` size (SVG px) opens at in a stage of `room` (CSS px,
/// the page's and the first picture's alike): whole if that is legible ([`LEGIBLE_ZOOM`] or
/// more, 100% at most); otherwise at its width, between the legible zoom and 100%, from its
/// corner.
///
/// ```
/// use cute_web::page::{opening_zoom, LEGIBLE_ZOOM};
/// assert_eq!(opening_zoom((400.0, 300.0), (800.0, 600.0)), 1.0);
/// assert_eq!(opening_zoom((1000.0, 300.0), (900.0, 600.0)), 0.9);
/// assert_eq!(opening_zoom((3000.0, 3000.0), (1000.0, 700.0)), LEGIBLE_ZOOM);
/// assert_eq!(opening_zoom((1000.0, 5000.0), (1000.0, 700.0)), 1.0);
/// ```
pub fn opening_zoom(natural: (f64, f64), room: (f64, f64)) -> f64 {
    let ((w, h), (aw, ah)) = (natural, room);
    if w <= 0.0 || h <= 0.0 {
        return 1.0;
    }
    let whole = (aw / w).min(ah / h).min(1.0);
    if whole >= LEGIBLE_ZOOM {
        whole
    } else {
        (aw / w).clamp(LEGIBLE_ZOOM, 1.0)
    }
}

/// The cells of `b` within the visible rectangle `view` (SVG units: x0, y0, x1, y1).
pub fn visible_cells(b: &PanelBox, view: (f64, f64, f64, f64)) -> (Range<usize>, Range<usize>) {
    let span = |lo: f64, hi: f64, origin: usize, cell: usize, n: usize| {
        let cell = cell.max(1) as f64;
        let a = ((lo - origin as f64) / cell).floor().clamp(0.0, n as f64) as usize;
        let z = ((hi - origin as f64) / cell).ceil().clamp(0.0, n as f64) as usize;
        a..z.max(a)
    };
    (
        span(view.1, view.3, b.y, b.cell_h, b.rows),
        span(view.0, view.2, b.x, b.cell_w, b.cols),
    )
}

/// The canvas size (px) a PNG export of a `w` x `h` drawing is rasterised at: 2x where
/// the canvas allows (browsers cap canvases near 16k px a side / 268 M px).
pub fn png_size(w: f64, h: f64) -> (f64, f64) {
    let scale = (2.0f64)
        .min((120_000_000.0 / (w * h).max(1.0)).sqrt())
        .min(16_000.0 / w.max(h).max(1.0));
    ((w * scale).round().max(1.0), (h * scale).round().max(1.0))
}

/// A file name for exports from the chosen view: `cute-<view>.svg`.
pub fn export_name(view: View, ext: &str) -> String {
    format!("cute-{}.{ext}", view.name())
}

/// The highlight pane's menu value (`none`, `thread`, `warp`) and index field.
pub fn highlight_fields(h: Option<Highlight>) -> (&'static str, String) {
    match h {
        Some(Highlight::Thread(t)) => ("thread", t.to_string()),
        Some(Highlight::Warp(w)) => ("warp", w.to_string()),
        None => ("none", String::new()),
    }
}

/// The highlight the pane's menu value and index field ask for (none when the index is
/// not a number from 0 to 2^20).
pub fn highlight_of(kind: &str, n: &str) -> Option<Highlight> {
    let n = n
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|n| (0..1 << 20).contains(n))?;
    match kind {
        "thread" => Some(Highlight::Thread(n)),
        "warp" => Some(Highlight::Warp(n)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_lines_and_the_first_error() {
        let script = "A = (4,8):(8,1)\nsize(A)\ncomposition(A, foo)\n(2,2";
        let e = cute_render::evaluate(script);
        let (printed, first) = printed_lines(script, &e.lines, e.notes());
        let lines: Vec<usize> = printed.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 3, 4]);
        assert_eq!(printed[0].text, "32");
        assert!(printed[0].error.is_none());
        assert!(printed[1].error.is_some() && printed[2].error.is_some());
        let first = first.unwrap();
        assert_eq!((first.line, first.src.as_str()), (3, "composition(A, foo)"));
        let col = first.col.unwrap();
        assert_eq!(first.place(), format!("line 3, column {col}"));
        assert_eq!(first.caret().unwrap().len(), col);
        let (_, none) = printed_lines(
            "(4,8):(8,1)",
            &cute_render::evaluate("(4,8):(8,1)").lines,
            &[],
        );
        assert!(none.is_none());
        // What host code left out is listed at its line, after the values above it.
        let script = "void f(int m) {\n  auto M = int(m);\n  auto L = make_layout(Int<8>{});\n  dim3 g(1);\n}";
        let e = cute_render::evaluate(script);
        let (printed, first) = printed_lines(script, &e.lines, e.notes());
        assert!(first.is_none());
        let shown: Vec<(usize, bool)> = printed.iter().map(|p| (p.line, p.note)).collect();
        assert_eq!(shown, [(1, true), (2, true), (3, false), (4, true)]);
        assert!(printed[3]
            .text
            .starts_with("note: left out `dim3 g(1)`: launch code"));
    }

    #[test]
    fn visible_cells_clamp_to_the_panel() {
        let b = PanelBox {
            index: 0,
            id: "layout".into(),
            x: 10,
            y: 20,
            rows: 8,
            cols: 16,
            cell_w: 5,
            cell_h: 4,
        };
        // Rows 20..52 in y, columns 10..90 in x.
        assert_eq!(visible_cells(&b, (0.0, 0.0, 1000.0, 1000.0)), (0..8, 0..16));
        assert_eq!(visible_cells(&b, (12.0, 25.0, 21.0, 29.0)), (1..3, 0..3));
        assert_eq!(
            visible_cells(&b, (500.0, 500.0, 600.0, 600.0)),
            (8..8, 16..16)
        );
    }

    #[test]
    fn png_size_is_2x_within_the_canvas_caps() {
        assert_eq!(png_size(100.0, 50.0), (200.0, 100.0));
        let (w, h) = png_size(20_000.0, 100.0);
        assert!(w <= 16_000.0 && h >= 1.0);
        let (w, h) = png_size(12_000.0, 12_000.0);
        assert!(w * h <= 120_000_000.0 + 2.0 * w);
    }

    #[test]
    fn export_names_and_highlight_fields() {
        assert_eq!(export_name(View::Auto, "svg"), "cute-auto.svg");
        assert_eq!(export_name(View::Banks, "png"), "cute-banks.png");
        for h in [None, Some(Highlight::Thread(5)), Some(Highlight::Warp(1))] {
            let (kind, n) = highlight_fields(h);
            let n = if n.is_empty() { "0".to_string() } else { n };
            assert_eq!(highlight_of(kind, &n), h);
        }
        assert_eq!(highlight_of("thread", " 7 "), Some(Highlight::Thread(7)));
        assert_eq!(highlight_of("thread", "-1"), None);
        assert_eq!(highlight_of("warp", "1048576"), None);
    }
}

/// One name the page knows, for its searchable list: what kind it is, how to write it and
/// what it means.
#[derive(Clone, Debug, PartialEq)]
pub struct KnownName {
    /// `function`, `type` or `atom`.
    pub kind: &'static str,
    /// The name as written, with its parameters (`make_layout(shape[, stride])`).
    pub spelling: String,
    /// What it is, in a line (empty for atoms: their name says it).
    pub meaning: &'static str,
}

/// The functions, types and atoms whose name contains every word of `query` (case aside,
/// any order), at most `max` of them, and how many match in all.
///
/// ```
/// use cute_web::page::known_names;
/// let (hits, total) = known_names("ldsm x4", 5);
/// assert!(total >= 2 && hits.iter().all(|h| h.kind == "atom"));
/// assert!(hits.iter().any(|h| h.spelling == "SM75_U32x4_LDSM_N"));
/// let (hits, _) = known_names("logical_divide", 5);
/// assert_eq!(hits[0].spelling, "logical_divide(layout, tiler)");
/// ```
pub fn known_names(query: &str, max: usize) -> (Vec<KnownName>, usize) {
    let q = query.to_ascii_lowercase();
    let words: Vec<&str> = q.split([' ', '_']).filter(|w| !w.is_empty()).collect();
    let matches = |name: &str| {
        let n = name.to_ascii_lowercase();
        words.iter().all(|w| n.contains(w))
    };
    let functions = cute_lang::OPS
        .iter()
        .filter(|o| matches(o.name))
        .map(|o| KnownName {
            kind: "function",
            spelling: format!("{}{}", o.name, o.params),
            meaning: o.meaning,
        });
    let types = cute_lang::TYPES
        .iter()
        .filter(|t| matches(t.name))
        .map(|t| KnownName {
            kind: "type",
            spelling: format!("{}{}", t.name, t.params),
            meaning: t.meaning,
        });
    let atoms = cute_core::atom::atom_names()
        .filter(|a| matches(a))
        .map(|a| KnownName {
            kind: "atom",
            spelling: a.to_string(),
            meaning: "",
        });
    let mut total = 0;
    let mut hits = Vec::new();
    for k in functions.chain(types).chain(atoms) {
        total += 1;
        if hits.len() < max {
            hits.push(k);
        }
    }
    (hits, total)
}
