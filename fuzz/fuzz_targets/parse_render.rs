//! Evaluate arbitrary scripts and draw what they end with in every view, palette-varied,
//! in both themes: never panic, never hang, bounded memory; every view either returns a
//! well-formed SVG document or a clean error (a non-empty message).
//!
//! The script is evaluated as `render_value` (the page and the CLI) does: `Session::run`
//! with `track_operands` (pasted C++/CuTeDSL, `;`-separated statements, multi-line calls);
//! when no statement fails, its last value (`Session::last_value`) is drawn with its
//! statement's call (`last_call_operands`, for the algebra view) in every view. Also:
//! `eval_block` must agree with the session, `render_svg` with `figure_with_call` (sampled),
//! and the line-by-line API (`Session::eval`, `call_operands`) must not panic.
//!
//! Values whose drawing would cover more than `FULL_CELLS` cells are evaluated and printed
//! but drawn only once (inferred view, one theme) up to `OVERVIEW_CELLS`, and not at all
//! beyond, to keep executions fast.
#![no_main]

use cute_core::atom::Atom;
use cute_lang::Call;
use cute_lang::{eval_block, format_result, Session, Value};
use cute_render::grid::Detail;
use cute_render::views::{figure_with_call, infer_view_of_call};
use cute_render::{render_svg, Highlight, Labels, Options, Palette, Theme, View};
use libfuzzer_sys::fuzz_target;

/// Up to this many cells a value is drawn in every view and both themes.
const FULL_CELLS: i64 = 4096;
/// Up to this many cells (past `CELL_TEXT_CAP`: the overview path) a value is drawn in
/// its inferred view only, in one theme.
const OVERVIEW_CELLS: i64 = 24_576;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let seed = fnv1a(data);

    // The drawing path (render_value, the page and the CLI): the block, statement by
    // statement, every result printed; the first error stops the drawing.
    let mut block = Session::default();
    block.track_operands();
    let lines = block.run(src);
    let mut first_err = None;
    for line in &lines {
        let text = format_result(&line.result);
        if let Err(e) = &line.result {
            assert!(!e.msg.trim().is_empty(), "empty error message: {text:?}");
            first_err.get_or_insert_with(|| e.clone());
        }
    }
    let value = block.last_value().cloned();
    // eval_block agrees with the session.
    match eval_block(src) {
        Ok(v) => {
            assert!(
                first_err.is_none(),
                "eval_block succeeded although a statement failed"
            );
            assert_eq!(
                Some(&v),
                value.as_ref(),
                "eval_block's value differs from the session's"
            );
        }
        Err(e) => assert!(!e.msg.trim().is_empty(), "empty eval_block error"),
    }
    // The line-by-line API (Session::eval, call_operands): evaluated and printed only.
    let mut session = Session::default();
    for line in src.lines() {
        if let Some(r) = session.eval(line) {
            let _ = format_result(&r);
            let _ = session.call_operands(line);
        }
    }

    let drawable = match (&first_err, &value) {
        (None, Some(v)) => Some(v),
        _ => None,
    };
    let call = drawable.and_then(|_| block.last_call_operands());
    let title = block
        .last_statement()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let n = drawable.map_or(0, |v| draw(&title, v, call.as_ref(), seed));

    // render_svg is this very path: the same picture, or the same error (sampled: it
    // evaluates the script once more).
    if seed % 4 == 0 && n <= FULL_CELLS {
        let opts = options(seed, View::Auto);
        let theme = if seed & 0x100 == 0 {
            Theme::Light
        } else {
            Theme::Dark
        };
        let theirs = render_svg(src, &opts, theme);
        // A block that opens as its report (a builder line, a host function) is the
        // kernel view's picture of the whole block, not its last value's.
        let report = cute_render::evaluate(src).opens_as_report();
        if report {
            let kernel = options(seed, View::Kernel);
            let kernel = render_svg(src, &kernel, theme);
            match (&theirs, &kernel) {
                (Ok(a), Ok(b)) => {
                    assert!(
                        a == b,
                        "the report's automatic view differs from the kernel view"
                    );
                    check_svg(a, a.len() <= 64 * 1024, &opts);
                }
                (Err(a), Err(b)) => assert_eq!(a, b),
                (a, b) => panic!(
                    "the automatic and kernel views disagree: {} vs {}",
                    a.is_ok(),
                    b.is_ok()
                ),
            }
            return;
        }
        match (drawable, theirs) {
            (Some(v), theirs) => {
                // render_svg draws at the width the block declares (`using Element = float;`).
                let opts = opts.at_width(cute_render::evaluate(src).element_width());
                let ours =
                    figure_with_call(&title, v, call.as_ref(), &opts).map(|f| f.to_svg(theme));
                match (ours, theirs) {
                    (Ok(a), Ok(b)) => assert!(a == b, "render_svg differs from figure_with_call"),
                    (Err(a), Err(b)) => assert_eq!(a, b),
                    (a, b) => panic!(
                        "render_svg and figure_with_call disagree: {} vs {}",
                        a.is_ok(),
                        b.is_ok()
                    ),
                }
            }
            (None, Ok(_)) => panic!("render_svg drew a script that failed or has no value"),
            (None, Err(e)) => {
                assert!(!e.msg.trim().is_empty(), "empty render_svg error");
                if let Some(first) = &first_err {
                    assert_eq!(&e, first, "render_svg reports another error than the first");
                }
            }
        }
    }
});

/// Draw `value` in every view (or, when large, its inferred view once); returns its cells.
fn draw(title: &str, value: &Value, call: Option<&Call>, seed: u64) -> i64 {
    let n = sat_add(cells(value), call.map_or(0, call_cells));
    if n <= FULL_CELLS {
        for (i, &view) in View::ALL.iter().enumerate() {
            let opts = options(seed.rotate_left(i as u32 * 7), view);
            match figure_with_call(title, value, call, &opts) {
                Ok(fig) => {
                    let light = fig.to_svg(Theme::Light);
                    let dark = fig.to_svg(Theme::Dark);
                    // XML parsing is costly under coverage instrumentation: small documents
                    // always, large ones one time in eight.
                    let parse = light.len() <= 64 * 1024 || (seed >> 40) % 8 == 0;
                    check_svg(&light, parse, &opts);
                    check_svg(&dark, false, &opts);
                    // The page's level of detail: fills, then the labels of a window of
                    // cells in each panel (and one past the edges).
                    check_svg(&fig.to_svg_with(Theme::Light, Detail::Fills), parse, &opts);
                    for b in fig.panel_boxes() {
                        let labels = fig.labels(&b, 1..b.rows.saturating_add(2), 0..8);
                        assert!(
                            labels.len() <= b.rows * 8,
                            "{opts:?}: labels outside the panel"
                        );
                        assert!(labels.iter().all(|l| !l.text.is_empty()));
                        let headers = fig.headers(&b, 0..b.rows.saturating_add(1), 2..5, 2);
                        assert!(headers.len() <= b.rows.div_ceil(2) + 2);
                        // A computed grid's bitmap: one pixel a cell.
                        if let Some(px) = fig.pixels(b.index) {
                            assert_eq!(px.len(), b.rows * b.cols * 4, "{opts:?}: bitmap size");
                        }
                    }
                    // The page's hover inspector on a few cells of each panel.
                    for (p, _) in &fig.panels {
                        let _ = fig.cell_data_at(&p.id, 0, 0);
                        let _ = fig.cell_data_at(
                            &p.id,
                            p.rows.saturating_sub(1),
                            p.cols.saturating_sub(1),
                        );
                        let _ = fig.cell_data_at(&p.id, p.rows, 0);
                    }
                }
                Err(e) => assert!(!e.msg.trim().is_empty(), "{view:?}: empty error message"),
            }
        }
    } else if n <= OVERVIEW_CELLS {
        let opts = options(seed, View::Auto);
        let _ = infer_view_of_call(value, call);
        match figure_with_call(title, value, call, &opts) {
            Ok(fig) => {
                let theme = if seed & 1 == 0 {
                    Theme::Light
                } else {
                    Theme::Dark
                };
                check_svg(&fig.to_svg(theme), false, &opts);
            }
            Err(e) => assert!(!e.msg.trim().is_empty(), "empty error message"),
        }
    }
    n
}

/// A well-formed SVG document; `parse`: also parse it as XML (one theme is enough: the
/// themes differ only in colours).
fn check_svg(svg: &str, parse: bool, opts: &Options) {
    assert!(
        svg.starts_with("<svg"),
        "{opts:?}: not an SVG document: {:?}",
        &svg[..svg.len().min(80)]
    );
    assert!(
        svg.trim_end().ends_with("</svg>"),
        "{opts:?}: unterminated SVG"
    );
    // Geometry is numbers (the script's own text, in titles and labels, may say NaN).
    for attr in [
        " x=\"",
        " y=\"",
        " width=\"",
        " height=\"",
        " viewBox=\"",
        " x1=\"",
        " y1=\"",
        " x2=\"",
        " y2=\"",
        " d=\"",
        " transform=\"",
    ] {
        for bad in ["NaN", "inf", "-inf"] {
            let pat = format!("{attr}{bad}");
            assert!(!svg.contains(&pat), "{opts:?}: {pat:?} in the SVG");
        }
    }
    if parse {
        if let Err(e) = roxmltree::Document::parse(svg) {
            panic!("{opts:?}: the SVG is not well-formed XML: {e}");
        }
    }
}

/// Options for `view`, varied by `seed`: mostly the defaults, sometimes extreme values
/// (the CLI accepts any u32/i64 for these).
fn options(seed: u64, view: View) -> Options {
    const BITS: [u32; 12] = [16, 16, 16, 8, 32, 64, 4, 128, 1, 0, 24, u32::MAX];
    const OFFS: [i64; 8] = [0, 1, 72, 4095, -1, 1 << 40, i64::MAX, i64::MIN];
    const THREADS: [i64; 8] = [0, 5, 31, 32, 127, -1, i64::MAX, i64::MIN];
    const WARPS: [u32; 8] = [0, 0, 0, 1, 3, 7, 1 << 20, u32::MAX];
    let pick = |shift: u32, n: usize| ((seed >> shift) as usize) % n;
    Options {
        view,
        palette: Palette::ALL[pick(0, Palette::ALL.len())],
        elem_bits: BITS[pick(2, BITS.len())],
        // Where a value fixes its element width, the renderer sets it (and this).
        elem_from: None,
        bit_offset: match pick(8, 4) {
            0 | 1 => None,
            _ => Some(OFFS[pick(11, OFFS.len())]),
        },
        highlight: match pick(16, 4) {
            0 | 1 => None,
            2 => Some(Highlight::Thread(THREADS[pick(19, THREADS.len())])),
            _ => Some(Highlight::Warp(THREADS[pick(22, THREADS.len())])),
        },
        warp: WARPS[pick(26, WARPS.len())],
        cell_text_cap: if pick(30, 4) == 0 {
            cute_render::views::CELL_HARD_CAP
        } else {
            cute_render::views::CELL_TEXT_CAP
        },
        // The page's cap: the layout view's cells computed on demand above the hard cap.
        lazy_cap: if pick(30, 4) == 0 {
            cute_render::views::LAZY_CAP
        } else {
            0
        },
        // Computed cells from every size, from the page's 129, or (above the hard cap)
        // only where nothing else draws.
        lazy_from: [1, 129, cute_render::views::CELL_HARD_CAP + 1][pick(34, 3)],
        labels: Labels::ALL[pick(36, Labels::ALL.len())],
    }
}

/// How many cells drawing `v` may take (saturating; 0 where no view draws it or where
/// the size cannot be computed, so that the views' own errors are exercised).
fn cells(v: &Value) -> i64 {
    match v {
        Value::Layout(_) | Value::Composed(_) => {
            let Ok(l) = v.to_any_layout() else { return 0 };
            let a = l.size().unwrap_or(0);
            let b = l.in_elements().and_then(|e| e.size()).unwrap_or(0);
            a.saturating_abs().max(b.saturating_abs())
        }
        Value::Tuple(vs) if vs.len() == 2 && matches!(vs[1], Value::Layout(_)) => {
            let tile = vs[0]
                .to_int_tuple()
                .ok()
                .and_then(|t| t.size().ok())
                .unwrap_or(0);
            sat_add(tile.saturating_abs(), cells(&vs[1]))
        }
        Value::Tuple(vs) => vs.iter().map(cells).fold(0, sat_add),
        Value::Atom(a) => match &**a {
            Atom::Mma(m) => m.tiled().map_or(0, |t| mma_cells(&t)),
            Atom::Copy(c) => c
                .val_layout(&c.ref_)
                .and_then(|l| l.size())
                .map_or(0, |s| s.saturating_abs().saturating_mul(4)),
        },
        Value::TiledMma(m) => mma_cells(m),
        Value::TiledCopy(c) => c
            .tiler
            .size()
            .map_or(0, |s| s.saturating_abs().saturating_mul(2)),
        Value::Ranked(cs) => cs.len().min(64) as i64 * 8,
        _ => 0,
    }
}

fn mma_cells(m: &cute_core::atom::TiledMma) -> i64 {
    let t = |i| m.tile_size(i).map_or(0, |s: i64| s.saturating_abs());
    let (a, b, c) = (t(0), t(1), t(2));
    sat_add(
        sat_add(a.saturating_mul(b), a.saturating_mul(c)),
        b.saturating_mul(c),
    )
}

/// The algebra view also draws the call's layout operands.
fn call_cells(c: &Call) -> i64 {
    c.args
        .iter()
        .filter_map(|a| a.as_ref().ok())
        .map(cells)
        .fold(0, sat_add)
}

fn sat_add(a: i64, b: i64) -> i64 {
    a.saturating_add(b)
}

fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
