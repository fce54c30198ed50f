//! Every view: well-formed XML that resvg rasterises, escaped text, palettes, errors,
//! fuzz findings, and the page's level of detail (fills and labels) adding up to the whole picture.

mod common;

use common::*;
use cute_lang::{eval_line, Session};
use cute_render::grid::{cell_key, CELL_KEYS};
use cute_render::views::{infer_view_of_call, CELL_HARD_CAP};
use cute_render::{
    render_figure, render_svg, svg_to_png, Highlight, Options, Palette, Theme, View,
};

#[test]
fn every_view_is_xml_and_rasterises() {
    for (view, expr) in EXAMPLES {
        let v = eval_line(expr).unwrap();
        let call = Session::default().call_operands(expr);
        assert_eq!(
            infer_view_of_call(&v, call.as_ref()).name(),
            *view,
            "{expr}"
        );
        let s = svg(expr);
        let doc = parse(&s);
        assert_eq!(doc.root_element().attribute("data-view"), Some(*view));
        let png = svg_to_png(&s, 1.0).unwrap_or_else(|e| panic!("{view}: {e}"));
        assert_eq!(&png[1..4], b"PNG");
        let opts = Options {
            palette: Palette::ColorBlind,
            ..Options::default()
        };
        parse(&render_svg(expr, &opts, Theme::Dark).unwrap());
    }
}

#[test]
fn colour_blind_palette_changes_the_colours() {
    let expr = EXAMPLES[2].1;
    let cb = Options {
        palette: Palette::ColorBlind,
        ..Options::default()
    };
    let a = svg(expr);
    let b = render_svg(expr, &cb, Theme::Light).unwrap();
    assert!(a.contains("#afafff") && !b.contains("#afafff"));
    assert!(b.contains("#e69f00"));
}

#[test]
fn every_string_reaching_the_svg_is_escaped() {
    // The only free text a user controls is the script: bindings and comments end up in
    // the title; values, labels and notes are printed by the core. Put markup everywhere.
    for (_, expr) in EXAMPLES {
        for hostile in [
            "<script>alert(1)</script>",
            "\"><img src=x onerror=alert(1)>",
            "a & b 'q' \"d\"",
        ] {
            let script = format!("X = 1 # {hostile}\n{expr} # {hostile}");
            let s = render_svg(&script, &Options::default(), Theme::Light).unwrap();
            let doc = parse(&s);
            assert!(!s.contains("<script") && !s.contains("<img"), "{s}");
            let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
            assert!(
                title.text().unwrap().contains(hostile),
                "title keeps the text, escaped"
            );
        }
    }
}

#[test]
fn bad_input_is_an_error_not_a_picture() {
    let o = Options::default();
    let e = render_svg("(4,8):(8", &o, Theme::Light).unwrap_err();
    assert!(e.to_string().contains("column"), "{e}");
    let e = render_svg("8", &o, Theme::Light).unwrap_err();
    assert!(e.to_string().contains("layout view"), "{e}");
    let e = render_svg("(4096,4096):(1,4096)", &o, Theme::Light).unwrap_err();
    assert!(e.to_string().contains("too many"), "{e}");
    for (view, expr) in [
        (View::Swizzle, "(4,8):(8,1)"),
        (View::Tv, "(4,8):(8,1)"),
        (View::Mma, "(4,8):(8,1)"),
        (View::Copy, "SM80_16x8x8_F16F16F16F16_TN"),
        (View::Banks, "(4,8):(8,1)"),
        (View::Search, "(4,8):(8,1)"),
        (View::Algebra, "(4,8):(8,1)"),
        (View::Algebra, "size((4,8):(8,1))"),
        (View::Algebra, "right_inverse(_)"),
    ] {
        let o = Options {
            view,
            ..Options::default()
        };
        let e = render_svg(expr, &o, Theme::Light).unwrap_err();
        assert!(e.to_string().contains("view"), "{view:?}: {e}");
    }
    let o = Options {
        warp: 3,
        ..Options::default()
    };
    assert!(render_svg(EXAMPLES[5].1, &o, Theme::Light).is_err());
}

#[test]
fn view_and_palette_names_round_trip() {
    for v in View::ALL {
        assert_eq!(View::parse(v.name()), Some(*v));
    }
    let names: Vec<&str> = View::ALL.iter().map(|v| v.name()).collect();
    for (view, _) in EXAMPLES {
        assert!(names.contains(view), "{view}");
    }
    for p in Palette::ALL {
        assert_eq!(Palette::parse(p.name()), Some(*p));
    }
    assert_eq!(View::parse("Algebra"), None);
    assert_eq!(Palette::parse(""), None);
}

/// Inputs the renderer's fuzzer flagged (`render-*` in the core's fuzz corpus): every view,
/// both themes, extreme highlights — a figure or an error, never a panic, and every SVG
/// parses as XML.
#[test]
fn fuzz_findings_draw_in_every_view() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fuzz");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("fuzz corpus") {
        let path = entry.expect("entry").path();
        if !path
            .file_name()
            .and_then(|f| f.to_str())
            .is_some_and(|f| f.starts_with("render-"))
        {
            continue;
        }
        let src = String::from_utf8_lossy(&std::fs::read(&path).expect("readable")).into_owned();
        for view in View::ALL {
            for highlight in [
                None,
                Some(Highlight::Warp(i64::MAX)),
                Some(Highlight::Thread(i64::MIN)),
            ] {
                for theme in [Theme::Light, Theme::Dark] {
                    let opts = Options {
                        view: *view,
                        highlight,
                        ..Options::default()
                    };
                    let r = std::panic::catch_unwind(|| render_svg(&src, &opts, theme));
                    let r = r.unwrap_or_else(|_| panic!("panic on {} in {view:?}", path.display()));
                    if let Ok(svg) = r {
                        roxmltree::Document::parse(&svg)
                            .unwrap_or_else(|e| panic!("{}: {view:?}: {e}", path.display()));
                    }
                }
            }
        }
        n += 1;
    }
    assert!(n >= 3, "only {n} renderer findings");
}

/// The page's level of detail: `Detail::Fills` is the same picture without cell text, and
/// `labels` over every cell gives back exactly the text the whole picture has, at the same
/// places and in the same colours, for every view (one renderer, two levels of detail).
#[test]
fn fills_and_labels_add_up_to_the_whole_picture() {
    use cute_render::grid::Detail;
    let opts = Options {
        cell_text_cap: CELL_HARD_CAP,
        ..Options::default()
    };
    let mut examples: Vec<&str> = EXAMPLES.iter().map(|(_, e)| *e).collect();
    examples.push("(128,128):(1,128)"); // above the files' text cap
    examples.push("make_layout_tv((32,4):(4,1), (4,2):(2,1))");
    for expr in examples {
        let f = render_figure(expr, &opts).unwrap_or_else(|e| panic!("{expr}: {e}"));
        assert!(f.cell_text, "{expr}");
        // Every <text> inside a cell of the whole picture: (x, y, fill, dim, lines).
        let whole = f.to_svg(Theme::Light);
        let doc = parse(&whole);
        let mut want: Vec<(i64, i64, String, bool, String)> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| {
                let class = n.parent()?.attribute("class")?;
                let mut classes = class.split(' ');
                (classes.next() == Some("cell")).then_some(())?;
                let dim = classes.any(|c| c == "dim");
                let lines: Vec<&str> = n
                    .descendants()
                    .filter(|t| t.is_text())
                    .filter_map(|t| t.text())
                    .collect();
                Some((
                    attr(&n, "x"),
                    attr(&n, "y"),
                    n.attribute("fill")?.to_string(),
                    dim,
                    lines.join("\n"),
                ))
            })
            .collect();
        let fills = f.to_svg_with(Theme::Light, Detail::Fills);
        let fdoc = parse(&fills);
        assert!(
            fdoc.descendants().all(|n| !n.has_tag_name("text")
                || n.ancestors().all(|a| a.attribute("class") != Some("cells"))),
            "{expr}: fills carry no cell text"
        );
        // Same size as the whole picture, and the panel boxes are where its cells are.
        let root = |d: &roxmltree::Document| {
            let r = d.root_element();
            (
                r.attribute("width").map(str::to_string),
                r.attribute("height").map(str::to_string),
            )
        };
        assert_eq!(root(&doc), root(&fdoc), "{expr}");
        let boxes = f.panel_boxes();
        for b in &boxes {
            let hit = fdoc
                .descendants()
                .filter(|n| n.attribute("data-panel") == Some(b.id.as_str()))
                .flat_map(|p| p.descendants())
                .find(|n| n.attribute("class") == Some("hit"))
                .unwrap_or_else(|| panic!("{expr}: panel {} has a hit rectangle", b.id));
            assert_eq!(
                (attr(&hit, "x"), attr(&hit, "y")),
                (b.x as i64, b.y as i64),
                "{expr}: panel {}",
                b.id
            );
            if b.rows * b.cols > 0 {
                let first = cells(&doc, &b.id)[0]
                    .children()
                    .find(|n| n.has_tag_name("rect"))
                    .unwrap();
                assert_eq!(
                    (attr(&first, "x"), attr(&first, "y")),
                    (b.x as i64, b.y as i64),
                    "{expr}: panel {}",
                    b.id
                );
            }
        }
        let mut got: Vec<(i64, i64, String, bool, String)> = boxes
            .iter()
            .flat_map(|b| f.labels(b, 0..usize::MAX, 0..usize::MAX))
            .map(|l| {
                let lines = match l.second {
                    None => l.text.to_string(),
                    Some(b) => format!("{}\n{b}", l.text),
                };
                (l.x as i64, l.y as i64, l.fill.to_string(), l.dim, lines)
            })
            .collect();
        want.sort();
        got.sort();
        assert!(!want.is_empty(), "{expr}");
        assert_eq!(want, got, "{expr}");
    }
    // A window of cells: exactly those, and dimmed cells say so.
    let f = render_figure(
        "make_layout_tv((32,4):(4,1), (4,2):(2,1))",
        &Options {
            highlight: Some(Highlight::Thread(3)),
            ..opts.clone()
        },
    )
    .unwrap();
    let b = &f.panel_boxes()[0];
    let part = f.labels(b, 1..3, 2..6);
    assert_eq!(part.len(), 8);
    let all = f.labels(b, 0..usize::MAX, 0..usize::MAX);
    assert!(all.iter().any(|l| l.dim) && all.iter().any(|l| !l.dim));
    assert!(f.labels(b, 5..5, 0..9).is_empty());
}

/// The page's inspector labels every key from the renderer's one table: every `data-*` key
/// of every cell of every view is in it.
#[test]
fn every_cell_key_is_in_the_key_table() {
    let mut seen = std::collections::BTreeSet::new();
    // The examples, a TMEM accumulator (m, n, mma, values), a broadcast TV layout
    // (several threads on one element: also) and a copy's partition (instr).
    let more = [
        "partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 64, 32, UMMA::Major::K, UMMA::Major::K>{}), Shape<_128,_32>{})",
        "((4,2), (4,2):(1,0))",
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{}).get_slice(9).partition_S(make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(32, Int<64>{}), LayoutRight{}))",
    ];
    // The kernel view draws a whole block, chosen (no value implies it).
    let kernel = Options {
        view: cute_render::View::Kernel,
        ..Options::default()
    };
    let runs = EXAMPLES
        .iter()
        .map(|(_, e)| (*e, Options::default()))
        .chain(more.into_iter().map(|e| (e, Options::default())))
        .chain(
            cute_lang::kernel::PRESETS
                .iter()
                .filter(|p| p.0 == "broken_sm80")
                .map(|p| (p.2, kernel.clone())),
        );
    for (expr, opts) in runs {
        let f = render_figure(expr, &opts).unwrap();
        for (p, _) in &f.panels {
            for r in 0..p.rows {
                for c in 0..p.cols {
                    for (k, _) in &p.cell(r, c).unwrap().data {
                        seen.insert(*k);
                    }
                }
            }
        }
    }
    let missing: Vec<&str> = seen
        .iter()
        .copied()
        .filter(|k| cell_key(k).is_none())
        .collect();
    assert!(missing.is_empty(), "not in CELL_KEYS: {missing:?}");
    // The table lists no key that no view writes, but the page's own `panel`.
    let unused: Vec<&str> = CELL_KEYS
        .iter()
        .map(|k| k.key)
        .filter(|k| !seen.contains(k))
        .collect();
    assert_eq!(unused, ["panel"], "keys no view writes");
}
