//! Every view as SVG: well-formed XML that resvg rasterises, one cell per element with the
//! right data attributes (checked against the core), escaped text, overviews above the cell
//! cap, highlight and palette options, and an insta snapshot per view of the seeds' examples.

use cute_core::bank::format_candidates;
use cute_core::int_tuple::idx2crd;
use cute_core::{IntTuple, Layout};
use cute_lang::{eval_line, Session, Value};
use cute_render::views::{infer_view_of_call, CELL_HARD_CAP, CELL_TEXT_CAP, SEARCH_ROWS};
use cute_render::{
    render_figure, render_svg, svg_to_png, Highlight, Options, Palette, Theme, View,
};

/// One example per view (the seeds' pictures).
const EXAMPLES: &[(&str, &str)] = &[
    ("layout", "(8,32):(32,1)"),
    ("swizzle", "composition(Sw<3,2,3>, (8,32):(32,1))"),
    ("tv", "make_layout_tv((4,8):(8,1), (2,2):(2,1))"),
    ("mma", "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN)"),
    (
        "copy",
        "make_tiled_copy_A(atom(SM75_U32x4_LDSM_N, half_t), make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN))",
    ),
    ("banks", "bank_conflicts(Sw<3,2,4> o 0 o (32,64):(64,1), 32, (32,4):(1,32), LDS128)"),
    ("search", "swizzle_search((8,32):(32,1), 32, (8,4):(1,8), LDS128)"),
    ("algebra", "zipped_divide((4,6):(6,1), (2:1,3:1))"),
    (
        "descriptor",
        "make_gmma_desc<GMMA::Major::MN>(composition(tile_to_shape(GMMA::Layout_MN_SW32_Atom<half_t>{}, Shape<_32,_32>{}), make_tile(_32{}, _16{})))",
    ),
    ("tmem", "atom(SM100_TMEM_LOAD_16dp256b1x)"),
    (
        "tma",
        "make_tma_copy(make_layout(make_shape(256, 512), make_stride(512, _1{})), tile_to_shape(GMMA::Layout_K_SW32_Atom<half_t>{}, Shape<_16,_16>{}))",
    ),
];

fn svg(expr: &str) -> String {
    render_svg(expr, &Options::default(), Theme::Light).unwrap_or_else(|e| panic!("{expr}: {e}"))
}

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"))
}

fn cells<'a>(doc: &'a roxmltree::Document<'a>, panel: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    let p = doc
        .descendants()
        .find(|n| n.attribute("data-panel") == Some(panel))
        .unwrap_or_else(|| panic!("no panel {panel}"));
    p.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split(' ').next() == Some("cell"))
        })
        .collect()
}

fn attr(n: &roxmltree::Node, a: &str) -> i64 {
    n.attribute(a)
        .unwrap_or_else(|| panic!("no {a}"))
        .parse()
        .unwrap()
}

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
fn layout_cells_carry_index_and_offset() {
    let s = svg("(4,8):(8,1)");
    let doc = parse(&s);
    let cells = cells(&doc, "layout");
    assert_eq!(cells.len(), 32);
    for c in &cells {
        let idx = attr(c, "data-idx");
        let off = attr(c, "data-offset");
        let (row, col) = (idx % 4, idx / 4);
        assert_eq!(off, row * 8 + col, "idx {idx}");
        let text = c.descendants().find(|n| n.has_tag_name("text")).unwrap();
        assert_eq!(text.text().map(str::trim), Some(off.to_string().as_str()));
    }
}

/// A layout of C++ run-time integers (`make_shape(4, 8)` in a C++ block) draws as its
/// static twin does: every cell, at the same offset.
#[test]
fn run_time_integer_layouts_draw_like_static_ones() {
    for (dynamic, fixed) in [
        (
            "auto L = make_layout(make_shape(4, 8), make_stride(8, 1));",
            "(4,8):(8,1)",
        ),
        (
            "composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})(_, 0);",
            "(8):(72)",
        ),
    ] {
        let offsets = |expr: &str| -> Vec<i64> {
            let s = svg(expr);
            let doc = parse(&s);
            cells(&doc, "layout")
                .iter()
                .map(|c| attr(c, "data-offset"))
                .collect()
        };
        let (oa, ob) = (offsets(dynamic), offsets(fixed));
        assert!(!oa.is_empty(), "{dynamic}: no cells");
        assert_eq!(oa, ob, "{dynamic} vs {fixed}");
    }
}

#[test]
fn hierarchical_modes_draw_boundaries() {
    let s = svg("(4,(2,4)):(2,(1,8))");
    let doc = parse(&s);
    let breaks = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("breaks"))
        .unwrap();
    // Column mode (2,4): a boundary after every 2 columns (3 of them).
    assert_eq!(breaks.children().filter(|n| n.is_element()).count(), 3);
    assert!(s.contains("\n3 (1,1)\n"), "hierarchical column header");
}

#[test]
fn swizzle_view_shows_before_after_and_bits() {
    let s = svg("composition(Sw<3,2,3>, (8,32):(32,1))");
    let doc = parse(&s);
    let c = cells(&doc, "after")
        .into_iter()
        .find(|c| c.attribute("data-row") == Some("1") && c.attribute("data-col") == Some("0"))
        .unwrap();
    // Row 1 starts at offset 32 = bit 5, which Sw<3,2,3> XORs into bit 2: 36.
    assert_eq!(c.attribute("data-offset"), Some("36"));
    assert_eq!(c.attribute("data-pre"), Some("32"));
    assert!(c
        .descendants()
        .any(|n| n.text().map(str::trim) == Some("32\u{2192}36")));
    // 16-bit elements: offset 36 is byte 72, word 18, bank 18.
    assert_eq!(c.attribute("data-bank"), Some("18"));
    let bits = cells(&doc, "bits");
    assert_eq!(bits.len(), 16); // 2 rows x 8 bits
    let flipped: Vec<_> = bits
        .iter()
        .filter(|b| b.attribute("class") == Some("cell conflict"))
        .map(|b| attr(b, "data-bit"))
        .collect();
    assert_eq!(flipped, vec![2]);
}

/// Every drawn (thread, value) is where the core's TV layout puts it.
fn check_tv_panel(
    doc: &roxmltree::Document,
    panel: &str,
    tv: &cute_core::Layout,
    m: i64,
    transpose: bool,
) {
    let cs = cells(doc, panel);
    let mut drawn = 0;
    for c in &cs {
        if c.attribute("class") == Some("cell empty") {
            continue;
        }
        let (t, v) = (attr(c, "data-thread"), attr(c, "data-value"));
        let idx = tv.call_coord(&IntTuple::ints(&[t, v])).unwrap();
        assert_eq!(attr(c, "data-idx"), idx);
        let (r, col) = (idx % m, idx / m);
        let (r, col) = if transpose { (col, r) } else { (r, col) };
        assert_eq!(
            (attr(c, "data-row"), attr(c, "data-col")),
            (r, col),
            "{panel} T{t}V{v}"
        );
        drawn += 1;
    }
    assert!(drawn > 0);
}

#[test]
fn tv_view_places_every_thread_value() {
    let expr = "make_layout_tv((4,8):(8,1), (2,2):(2,1))";
    let v = eval_line(expr).unwrap();
    let Value::Tuple(parts) = &v else { panic!() };
    let tv = parts[1].to_layout().unwrap();
    let doc_s = svg(expr);
    let doc = parse(&doc_s);
    check_tv_panel(&doc, "tv", tv, 8, false);
    assert_eq!(cells(&doc, "tv").len(), 8 * 16);
}

#[test]
fn mma_view_arranges_a_b_c_like_cute() {
    let expr = "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN)";
    let Value::TiledMma(m) = eval_line(expr).unwrap() else {
        panic!()
    };
    let s = svg(expr);
    let doc = parse(&s);
    check_tv_panel(&doc, "A", &m.layout_a_tv().unwrap(), 16, false);
    check_tv_panel(&doc, "B", &m.layout_b_tv().unwrap(), 8, true);
    check_tv_panel(&doc, "C", &m.layout_c_tv().unwrap(), 16, false);
    let panel = |id: &str| {
        doc.descendants()
            .find(|n| n.attribute("data-panel") == Some(id))
            .unwrap()
    };
    let (a, b, c) = (panel("A"), panel("B"), panel("C"));
    assert_eq!((attr(&a, "data-rows"), attr(&a, "data-cols")), (16, 8));
    assert_eq!((attr(&b, "data-rows"), attr(&b, "data-cols")), (8, 8)); // K x N
    assert_eq!((attr(&c, "data-rows"), attr(&c, "data-cols")), (16, 8));
    // C at the origin: A to its left, B above it.
    let x = |n: roxmltree::Node| -> f64 {
        n.descendants()
            .find(|r| r.has_tag_name("rect"))
            .unwrap()
            .attribute("x")
            .unwrap()
            .parse()
            .unwrap()
    };
    let y = |n: roxmltree::Node| -> f64 {
        n.descendants()
            .find(|r| r.has_tag_name("rect"))
            .unwrap()
            .attribute("y")
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(x(a) < x(c) && y(b) < y(c), "A left of C, B above C");
}

#[test]
fn copy_view_draws_source_and_destination() {
    let expr = EXAMPLES[4].1;
    let Value::TiledCopy(c) = eval_line(expr).unwrap() else {
        panic!()
    };
    let s = svg(expr);
    let doc = parse(&s);
    check_tv_panel(&doc, "S", &c.layout_s_tv().unwrap(), 16, false);
    check_tv_panel(&doc, "D", &c.layout_d_tv().unwrap(), 16, false);
}

#[test]
fn bank_view_marks_conflicts_and_summarises() {
    let plain = svg("bank_conflicts((32,64):(64,1), 32, (32,4):(1,32), LDS128)");
    let doc = parse(&plain);
    let cs = cells(&doc, "i0");
    let used: Vec<_> = cs
        .iter()
        .filter(|c| c.attribute("data-threads").is_some())
        .collect();
    assert_eq!(used.len(), 128); // 32 lanes x 4 words
    assert!(used
        .iter()
        .all(|c| c.attribute("class") == Some("cell conflict")));
    for c in &used {
        assert_eq!(attr(c, "data-bank"), attr(c, "data-word") % 32);
    }
    assert!(plain.contains("32 wavefronts, ideal 4"));
    let swizzled = svg(EXAMPLES[5].1);
    let doc = parse(&swizzled);
    assert!(cells(&doc, "i0")
        .iter()
        .all(|c| !c.attribute("class").unwrap().contains("conflict")));
    assert!(swizzled.contains("4 wavefronts, ideal 4, conflict-free"));
}

#[test]
fn highlight_dims_every_other_thread() {
    let opts = Options {
        highlight: Some(Highlight::Thread(5)),
        ..Options::default()
    };
    let s = render_svg(
        "make_layout_tv((4,8):(8,1), (2,2):(2,1))",
        &opts,
        Theme::Light,
    )
    .unwrap();
    let doc = parse(&s);
    for c in cells(&doc, "tv") {
        let dim = c.attribute("class") == Some("cell dim");
        assert_eq!(dim, attr(&c, "data-thread") != 5);
    }
    let opts = Options {
        highlight: Some(Highlight::Warp(1)),
        ..Options::default()
    };
    let s = render_svg(
        "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN, (2,1,1))",
        &opts,
        Theme::Light,
    )
    .unwrap();
    let doc = parse(&s);
    for c in cells(&doc, "C") {
        assert_eq!(
            c.attribute("class") == Some("cell dim"),
            attr(&c, "data-thread") / 32 != 1
        );
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
fn big_layouts_render_as_an_overview() {
    for expr in ["(256,256):(256,1)", "Sw<3,4,3> o 0 o (256,256):(256,1)"] {
        let s = svg(expr);
        let doc = parse(&s);
        // Cells are subpaths of a few coloured paths; one hit rectangle per panel.
        let class = |n: &roxmltree::Node, c: &str| {
            n.attribute("class")
                .is_some_and(|x| x.split(' ').next() == Some(c))
        };
        assert_eq!(doc.descendants().filter(|n| class(n, "cell")).count(), 0);
        let runs: Vec<_> = doc.descendants().filter(|n| class(n, "run")).collect();
        assert!(
            !runs.is_empty() && runs.len() <= 128,
            "{expr}: {} paths",
            runs.len()
        );
        let subpaths: usize = runs
            .iter()
            .map(|n| n.attribute("d").unwrap().matches('M').count())
            .sum();
        assert!((256..=65536 * 2).contains(&subpaths), "{expr}: {subpaths}");
        // One hit rectangle per panel; the covered area is exactly the grid.
        let f = cute_render::render_figure(expr, &Options::default()).unwrap();
        let hits = doc.descendants().filter(|n| class(n, "hit")).count();
        assert_eq!(hits, f.panels.len(), "{expr}");
        let (p, _) = f
            .panels
            .iter()
            .rev()
            .find(|(p, _)| (p.rows, p.cols) == (256, 256))
            .unwrap();
        let area: usize = runs
            .iter()
            .filter(|n| {
                n.ancestors()
                    .any(|a| a.attribute("data-panel") == Some(p.id.as_str()))
            })
            .map(|n| {
                let d = n.attribute("d").unwrap();
                d.split('M')
                    .skip(1)
                    .map(|sub| {
                        let w: usize = sub
                            .split('h')
                            .nth(1)
                            .unwrap()
                            .split('v')
                            .next()
                            .unwrap()
                            .parse()
                            .unwrap();
                        let h: usize = sub
                            .split('v')
                            .nth(1)
                            .unwrap()
                            .split('h')
                            .next()
                            .unwrap()
                            .parse()
                            .unwrap();
                        w * h
                    })
                    .sum::<usize>()
            })
            .sum();
        let hit = doc
            .descendants()
            .find(|n| {
                class(n, "hit")
                    && n.ancestors()
                        .any(|a| a.attribute("data-panel") == Some(p.id.as_str()))
            })
            .unwrap();
        let wh = |k| hit.attribute(k).unwrap().parse::<usize>().unwrap();
        assert_eq!(area, wh("width") * wh("height"), "{expr}");
        assert!(doc
            .descendants()
            .all(|n| !n.has_tag_name("text") || !n.ancestors().any(|a| class(&a, "cells"))));
        assert!(
            s.contains("overview: "),
            "the picture says it is an overview"
        );
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
fn snapshots_of_every_view() {
    for (view, expr) in EXAMPLES {
        let f = render_figure(expr, &Options::default()).unwrap();
        assert_eq!(f.view.name(), *view);
        insta::assert_snapshot!(format!("view_{view}"), f.to_svg(Theme::Light));
    }
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

fn panel<'a>(doc: &'a roxmltree::Document<'a>, id: &str) -> roxmltree::Node<'a, 'a> {
    doc.descendants()
        .find(|n| n.attribute("data-panel") == Some(id))
        .unwrap_or_else(|| panic!("no panel {id}"))
}

fn panel_ids(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants()
        .filter_map(|n| n.attribute("data-panel").map(str::to_string))
        .collect()
}

/// The top-left corner of a panel's first cell.
fn corner(p: roxmltree::Node) -> (f64, f64) {
    let r = p
        .descendants()
        .find(|n| n.has_tag_name("rect"))
        .expect("a cell");
    let at = |a: &str| r.attribute(a).unwrap().parse::<f64>().unwrap();
    (at("x"), at("y"))
}

/// Every cell of a drawn layout panel holds the core's offset and coordinate of its index,
/// and the panel holds every index once.
fn check_layout_panel(doc: &roxmltree::Document, id: &str, layout: &Layout) {
    let cs = cells(doc, id);
    assert_eq!(cs.len() as i64, layout.size().unwrap(), "{id}");
    let mut seen: Vec<i64> = cs.iter().map(|c| attr(c, "data-idx")).collect();
    seen.sort();
    assert!(
        seen.iter().copied().eq(0..cs.len() as i64),
        "{id}: every index once"
    );
    for c in &cs {
        let idx = attr(c, "data-idx");
        assert_eq!(
            attr(c, "data-offset"),
            layout.call_index(idx).unwrap(),
            "{id} idx {idx}"
        );
        let crd = idx2crd(&IntTuple::Int(idx), layout.shape()).unwrap();
        assert_eq!(c.attribute("data-coord"), Some(crd.to_string().as_str()));
    }
}

#[test]
fn algebra_view_draws_operands_and_result_side_by_side() {
    let expr = "composition((4,8):(8,1), (2,4):(4,1))";
    let s = svg(expr);
    let doc = parse(&s);
    assert_eq!(doc.root_element().attribute("data-view"), Some("algebra"));
    assert_eq!(panel_ids(&doc), ["A", "B", "result"]);
    let a: Layout = "(4,8):(8,1)".parse().unwrap();
    let b: Layout = "(2,4):(4,1)".parse().unwrap();
    let r = eval_line(expr).unwrap();
    let r = r.to_layout().unwrap();
    assert_eq!(r.to_string(), "(2,4):(1,8)");
    check_layout_panel(&doc, "A", &a);
    check_layout_panel(&doc, "B", &b);
    check_layout_panel(&doc, "result", r);
    // composition(A, B)(i) = A(B(i)), cell by cell.
    for c in cells(&doc, "result") {
        let i = attr(&c, "data-idx");
        assert_eq!(
            attr(&c, "data-offset"),
            a.call_index(b.call_index(i).unwrap()).unwrap()
        );
    }
    // Captions, one row, left to right.
    for label in [
        "A = (4,8):(8,1)",
        "B = (2,4):(4,1)",
        "composition(A, B) = (2,4):(1,8)",
    ] {
        assert!(
            doc.descendants()
                .any(|n| n.attribute("class") == Some("plabel")
                    && n.text().map(str::trim) == Some(label)),
            "{label}"
        );
    }
    let (pa, pb, pr) = (
        corner(panel(&doc, "A")),
        corner(panel(&doc, "B")),
        corner(panel(&doc, "result")),
    );
    assert!(pa.0 < pb.0 && pb.0 < pr.0, "{pa:?} {pb:?} {pr:?}");
    assert!(s.contains("A(B(i))"), "the note says what composition is");
    // Light and dark, both palettes, rasterised.
    for theme in [Theme::Light, Theme::Dark] {
        for palette in [Palette::Cute, Palette::ColorBlind] {
            let o = Options {
                palette,
                ..Options::default()
            };
            let s = render_svg(expr, &o, theme).unwrap();
            parse(&s);
            assert_eq!(&svg_to_png(&s, 1.0).unwrap()[1..4], b"PNG");
        }
    }
}

#[test]
fn algebra_view_draws_tilers_per_mode_and_notes_other_operands() {
    let s = svg("zipped_divide((8,16):(16,1), (2:1,4:1))");
    let doc = parse(&s);
    assert_eq!(panel_ids(&doc), ["A", "B0", "B1", "result"]);
    check_layout_panel(&doc, "B0", &"2:1".parse().unwrap());
    check_layout_panel(&doc, "B1", &"4:1".parse().unwrap());
    let r = eval_line("zipped_divide((8,16):(16,1), (2:1,4:1))").unwrap();
    check_layout_panel(&doc, "result", r.to_layout().unwrap());
    assert!(s.contains("B = (2:1,4:1): a tiler"), "tiler note");

    // An integer operand is a note, never a failure.
    let s = svg("complement((2,2):(1,6), 24)");
    let doc = parse(&s);
    assert_eq!(panel_ids(&doc), ["A", "result"]);
    assert!(s.contains("B = 24 (an integer, not drawn)"), "{s}");
    let s = svg("logical_divide((4,2,3):(2,1,8), (2,_))");
    assert!(s.contains("not drawn"));
    // One operand: right_inverse.
    let doc_s = svg("right_inverse((4,(2,4)):(2,(1,8)))");
    let doc = parse(&doc_s);
    assert_eq!(panel_ids(&doc), ["A", "result"]);
}

#[test]
fn algebra_operands_are_the_bindings_the_call_saw() {
    // The drawn statement is the last with a value, a binding included; its call saw A
    // before the statement rebinds it.
    let script = "A = (4,8):(8,1)\nB = (2,4):(4,1)\nA = composition(A, B) # tile";
    let s = render_svg(script, &Options::default(), Theme::Light).unwrap();
    let doc = parse(&s);
    assert_eq!(panel_ids(&doc), ["A", "B", "result"]);
    check_layout_panel(&doc, "A", &"(4,8):(8,1)".parse().unwrap());
    // A bound function name is an application, not a call: `L(13)` is an integer.
    let e = render_svg(
        "coalesce = (4,8):(8,1)\ncoalesce(_, 1)",
        &Options {
            view: View::Algebra,
            ..Options::default()
        },
        Theme::Light,
    )
    .unwrap_err();
    assert!(e.to_string().contains("algebra view"), "{e}");
}

#[test]
fn explicit_layout_view_draws_only_the_result() {
    let o = Options {
        view: View::Layout,
        ..Options::default()
    };
    let s = render_svg("composition((4,8):(8,1), (2,4):(4,1))", &o, Theme::Light).unwrap();
    let doc = parse(&s);
    assert_eq!(doc.root_element().attribute("data-view"), Some("layout"));
    assert_eq!(panel_ids(&doc), ["layout"]);
    // Composed results keep the swizzle view in auto; the algebra view draws them on request.
    assert!(svg("composition(Sw<3,2,3>, (8,32):(32,1))").contains("data-view=\"swizzle\""));
    let o = Options {
        view: View::Algebra,
        ..Options::default()
    };
    let s = render_svg("composition(Sw<3,2,3>, (8,32):(32,1))", &o, Theme::Light).unwrap();
    let doc = parse(&s);
    assert_eq!(panel_ids(&doc), ["B", "result"]);
    assert!(s.contains("A = Sw&lt;3,2,3&gt; (a swizzle, not drawn)"));
    let c = cells(&doc, "result")
        .into_iter()
        .find(|c| attr(c, "data-idx") == 1)
        .unwrap();
    assert_eq!((attr(&c, "data-pre"), attr(&c, "data-offset")), (32, 36));
}

#[test]
fn algebra_cell_caps_count_every_panel() {
    // 2 x 16,384 cells: over the text cap together, so an overview, one panel per row.
    let s = svg("logical_divide((128,128):(128,1), (8:1,8:1))");
    let doc = parse(&s);
    // Overview: cells are looked up from the figure, not drawn one element each.
    let f = cute_render::render_figure(
        "logical_divide((128,128):(128,1), (8:1,8:1))",
        &Options::default(),
    )
    .unwrap();
    let n: usize = f.panels.iter().map(|(p, _)| p.cells.len()).sum();
    assert_eq!(n, 2 * 16_384 + 16);
    assert!(n > CELL_TEXT_CAP);
    assert!(s.contains("overview: "));
    assert!(doc.descendants().all(|n| !n.has_tag_name("tspan")));
    // Stacked: the result starts below A's last row.
    let hit = panel(&doc, "A")
        .descendants()
        .find(|n| n.attribute("class") == Some("hit"))
        .unwrap();
    let at = |k: &str| hit.attribute(k).unwrap().parse::<f64>().unwrap();
    let a_bottom = at("y") + at("height");
    let pr = corner(panel(&doc, "result"));
    assert!(pr.1 > a_bottom, "stacked: {a_bottom} {pr:?}");
    // A at the hard cap by itself: left out (with a note), the rest drawn.
    let s = svg("composition((512,512):(512,1), (2,2):(1,512))");
    let doc = parse(&s);
    assert_eq!(panel_ids(&doc), ["B", "result"]);
    assert!(s.contains(&format!(
        "A = (512,512):(512,1) ({CELL_HARD_CAP} cells): too many cells to draw beside the result"
    )));
}

/// The search of the cap test: 68 candidates.
const BIG_SEARCH: &str = "swizzle_search((32,64):(64,1), 32, (32,4):(1,32), LDS128)";

#[test]
fn search_view_ranks_every_candidate() {
    let expr = EXAMPLES[6].1;
    let Value::Ranked(cs) = eval_line(expr).unwrap() else {
        panic!()
    };
    assert!(cs.len() <= SEARCH_ROWS);
    let s = svg(expr);
    let doc = parse(&s);
    let p = panel(&doc, "ranking");
    assert_eq!(attr(&p, "data-rows"), cs.len() as i64);
    let cols = attr(&p, "data-cols");
    let all = cells(&doc, "ranking");
    assert_eq!(all.len() as i64, cs.len() as i64 * cols);
    // The first row is the best candidate, as format_candidates ranks it.
    let first = format_candidates(&cs, 1);
    let (label, rest) = first.split_once(": ").unwrap();
    let w: i64 = rest.split(' ').next().unwrap().parse().unwrap();
    for c in all.iter().filter(|c| attr(c, "data-row") == 0) {
        assert_eq!(c.attribute("data-candidate"), Some(label));
        assert_eq!(attr(c, "data-rank"), 1);
        assert_eq!(attr(c, "data-wavefronts"), w);
    }
    // Every cell carries its candidate's numbers; rows follow the ranking.
    for c in &all {
        let k = attr(c, "data-row") as usize;
        let cand = &cs[k];
        assert_eq!(attr(c, "data-rank"), k as i64 + 1);
        assert_eq!(c.attribute("data-candidate"), Some(cand.label.as_str()));
        assert_eq!(attr(c, "data-wavefronts"), cand.wavefronts as i64);
        assert_eq!(attr(c, "data-ideal"), cand.ideal as i64);
        assert_eq!(
            attr(c, "data-conflicts"),
            (cand.wavefronts - cand.ideal) as i64
        );
        assert_eq!(attr(c, "data-extra-elems"), cand.extra_elems);
        assert_eq!(
            c.attribute("data-smem"),
            Some(cand.smem.to_string().as_str())
        );
    }
    let text = |row: i64, field: &str| -> String {
        let c = all
            .iter()
            .find(|c| attr(c, "data-row") == row && c.attribute("data-field") == Some(field))
            .unwrap();
        c.descendants()
            .find(|n| n.has_tag_name("text"))
            .and_then(|t| t.text())
            .unwrap()
            .to_string()
    };
    assert_eq!(text(0, "candidate"), label);
    assert_eq!(text(0, "wavefronts"), w.to_string());
    assert!(!s.contains("more candidates"));
    let best = format!("best: {} (#1)", cs[0].smem);
    assert!(
        doc.descendants()
            .any(|n| n.attribute("class") == Some("note")
                && n.text().is_some_and(|t| t.trim().starts_with(&best))),
        "{best}"
    );
}

#[test]
fn search_view_caps_rows_and_colours_by_quality() {
    let Value::Ranked(cs) = eval_line(BIG_SEARCH).unwrap() else {
        panic!()
    };
    assert!(cs.len() > SEARCH_ROWS);
    let s = svg(BIG_SEARCH);
    let doc = parse(&s);
    assert_eq!(
        attr(&panel(&doc, "ranking"), "data-rows"),
        SEARCH_ROWS as i64
    );
    assert!(s.contains(&format!(
        "{} more candidates (#{}..#{}) are not drawn",
        cs.len() - SEARCH_ROWS,
        SEARCH_ROWS + 1,
        cs.len()
    )));
    let fill = |s: &str, rank: usize| -> String {
        let doc = parse(s);
        let c = cells(&doc, "ranking")
            .into_iter()
            .find(|c| attr(c, "data-rank") == rank as i64)
            .unwrap();
        c.descendants()
            .find(|n| n.has_tag_name("rect"))
            .unwrap()
            .attribute("fill")
            .unwrap()
            .to_string()
    };
    // Best and worst drawn rows differ; the colour-blind ramp is cividis (yellow = best).
    let worst_drawn = SEARCH_ROWS;
    assert_eq!(
        cs[worst_drawn - 1].wavefronts,
        cs.iter().map(|c| c.wavefronts).max().unwrap()
    );
    assert_ne!(fill(&s, 1), fill(&s, worst_drawn));
    let cb = Options {
        palette: Palette::ColorBlind,
        ..Options::default()
    };
    let s_cb = render_svg(BIG_SEARCH, &cb, Theme::Dark).unwrap();
    assert_eq!(fill(&s_cb, 1), "#fde737");
    assert_eq!(fill(&s_cb, worst_drawn), "#00224e");
    assert_ne!(fill(&s, 1), fill(&s_cb, 1));
}

/// Inputs the renderer's fuzzer flagged (`render-*` in the core's fuzz corpus): every view,
/// both themes, extreme highlights — a figure or an error, never a panic, and every SVG
/// parses as XML.
#[test]
fn fuzz_findings_draw_in_every_view() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../cute-lang/tests/data/fuzz");
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

/// Above the hard cap, the page's layout view keeps offsets, not cells: a 1024x1024 grid
/// (plain and swizzled) whose cells, labels, hover data and fills are computed when asked
/// and equal the layout's values; files (lazy_cap 0) still refuse it.
#[test]
fn lazy_grids_compute_what_is_asked_and_equal_the_layout() {
    use cute_render::grid::Detail;
    use cute_render::views::LAZY_CAP;
    let opts = Options {
        cell_text_cap: CELL_HARD_CAP,
        lazy_cap: LAZY_CAP,
        ..Options::default()
    };
    for (expr, swizzled) in [
        ("(1024,1024):(1024,1)", false),
        ("composition(Sw<3,4,3>, (1024,(8,128)):(8,(1,8192)))", true),
    ] {
        let opts = Options {
            view: if swizzled { View::Layout } else { View::Auto },
            ..opts
        };
        let f = render_figure(expr, &opts).unwrap_or_else(|e| panic!("{expr}: {e}"));
        assert!(f.is_lazy(), "{expr}");
        assert_eq!(f.cell_count(), 1 << 20);
        let v = cute_lang::eval_line(expr).unwrap();
        let map = v.to_any_layout().unwrap();
        let b = &f.panel_boxes()[0];
        assert_eq!((b.rows, b.cols), (1024, 1024));
        // Hover data and labels at the corners and inside.
        for (r, c) in [(0, 0), (1023, 1023), (517, 3), (2, 999)] {
            let want = map.call_index((r + 1024 * c) as i64).unwrap();
            let d = f.cell_data_at("layout", r, c).unwrap();
            assert!(
                d.contains(&("offset".into(), want.to_string())),
                "{expr} {r},{c}: {d:?}"
            );
            assert_eq!(d.iter().any(|(k, _)| k == "pre"), swizzled);
            let l = f.labels(b, r..r + 1, c..c + 1);
            assert_eq!(l[0].text, want.to_string());
            assert_eq!(
                (l[0].x, l[0].y),
                (
                    b.x + c * b.cell_w + b.cell_w / 2,
                    b.y + r * b.cell_h + b.cell_h / 2
                )
            );
        }
        assert!(f.cell_data_at("layout", 1024, 0).is_none());
        assert_eq!(f.labels(b, 1020..1030, 0..2).len(), 8);
        // Fills: one RGBA pixel per cell, the grey of offset mod 8.
        let px = f.pixels(0).unwrap();
        assert_eq!(px.len(), 4 << 20);
        for (r, c) in [(0, 1), (700, 300)] {
            let o = map.call_index((r + 1024 * c) as i64).unwrap();
            let grey = [0xff, 0x99, 0xcc, 0x66, 0xe6, 0x80, 0xb3, 0x4d][o.rem_euclid(8) as usize];
            let k = 4 * (r * 1024 + c);
            assert_eq!(&px[k..k + 4], &[grey, grey, grey, 255], "{expr} {r},{c}");
        }
        // The page's drawing leaves the cells to the canvas: grid lines and the hit area.
        let svg = f.to_svg_with(Theme::Light, Detail::Fills);
        assert!(!svg.contains("class=\"run"), "{expr}");
        // ... and its headers, which the page paints where they are in view.
        assert!(!svg.contains("class=\"hdr\""), "{expr}");
        let h: Vec<&str> = f
            .headers(b, 1022..1030, 0..2, 1)
            .iter()
            .map(|h| h.text)
            .collect();
        assert_eq!(h[..2], ["1022", "1023"]);
        assert_eq!(h.len(), 4, "{h:?}");
        assert_eq!(f.headers(b, 0..1024, 0..0, 256).len(), 4);
        // ... under a background with a hole where the canvas shows through.
        let hole = format!("M{} {}h{}v{}", b.x, b.y, 1024 * b.cell_w, 1024 * b.cell_h);
        assert!(svg.contains(&hole) && svg.contains("evenodd"), "{expr}");
        assert_eq!(svg.matches("class=\"hit\"").count(), 1);
        assert!(svg.len() < 200_000, "{expr}: {} bytes", svg.len());
        roxmltree::Document::parse(&svg).unwrap();
    }
    let files = render_figure("(1024,1024):(1024,1)", &Options::default()).unwrap_err();
    assert!(files.msg.contains("too many to draw"), "{}", files.msg);
    let long = render_figure("(524288,2):(2,1)", &opts).unwrap_err();
    assert!(long.msg.contains("at most 4096 cells"), "{}", long.msg);
    let over = render_figure("(1025,1024):(1024,1)", &opts).unwrap_err();
    assert!(over.msg.contains("too many to draw"), "{}", over.msg);
    // The swizzle view holds its cells (two panels): one this big is drawn in the layout
    // view, saying so; files still refuse it.
    let sw = "composition(Sw<3,4,3>, (1024,1024):(1024,1))";
    let f = render_figure(sw, &opts).unwrap();
    assert_eq!((f.view, f.is_lazy()), (View::Layout, true));
    assert!(f
        .notes
        .iter()
        .any(|n| n.contains("layout view of the swizzled offsets")));
    let files = render_figure(sw, &Options::default()).unwrap_err();
    assert!(files.msg.contains("too many to draw"), "{}", files.msg);
    let o = Options {
        view: View::Swizzle,
        ..opts
    };
    let e = render_figure("composition(Sw<3,4,3>, (2048,1024):(1024,1))", &o).unwrap_err();
    assert!(
        e.msg.contains("the layout view draws up to 1048576"),
        "{}",
        e.msg
    );
}

/// A layout drawn from cells computed on demand is the same picture as one drawn from held
/// cells: the whole SVG byte for byte, and its bitmap is the held cells' fills.
#[test]
fn lazy_and_held_grids_are_the_same_picture() {
    let held = Options {
        cell_text_cap: CELL_HARD_CAP,
        view: View::Layout,
        ..Options::default()
    };
    let lazy = Options {
        lazy_from: 1,
        lazy_cap: cute_render::views::LAZY_CAP,
        ..held.clone()
    };
    for expr in [
        "(4,8):(8,1)",
        "((2,4),(2,8)):((1,16),(2,4))",
        "(64,64):(1,64)",
        "composition(Sw<3,4,3>, (16,64):(64,1))",
        "composition(Sw<2,3,3>, 8, (8,(4,8)):(32,(1,4)))",
        "(7,13):(-13,1)",
        "swizzle: composition(Sw<3,4,3>, (16,64):(64,1))",
        "swizzle: composition(Sw<2,3,3>, 8, (8,(4,8)):(32,(1,4)))",
        "swizzle: tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(64, 64))",
        "swizzle: composition(Sw<3,3,3>, (4,256):(256,1))",
    ] {
        let (view, expr) = match expr.strip_prefix("swizzle: ") {
            Some(e) => (View::Swizzle, e),
            None => (View::Layout, expr),
        };
        let held = Options {
            view,
            ..held.clone()
        };
        let lazy = Options {
            view,
            ..lazy.clone()
        };
        let (h, l) = (
            render_figure(expr, &held).unwrap(),
            render_figure(expr, &lazy).unwrap(),
        );
        assert_eq!((h.view, l.view), (view, view), "{expr}");
        assert!(!h.is_lazy() && l.is_lazy(), "{expr}");
        assert_eq!(l.cell_count(), h.cell_count(), "{expr}");
        assert_eq!(l.to_svg(Theme::Light), h.to_svg(Theme::Light), "{expr}");
        // The page's labels, painted from either.
        for (bh, bl) in h.panel_boxes().iter().zip(l.panel_boxes()) {
            assert_eq!(bh, &bl, "{expr}");
            let (rows, cols) = (0..bh.rows + 1, 0..bh.cols + 1);
            assert_eq!(
                h.labels(bh, rows.clone(), cols.clone()),
                l.labels(&bl, rows, cols),
                "{expr}"
            );
        }
        let p = &h.panels[0].0;
        let want: Vec<u8> = p
            .cells
            .iter()
            .flat_map(|c| {
                let v = |i: usize| u8::from_str_radix(&c.fill[i..i + 2], 16).unwrap();
                [v(1), v(3), v(5), 255]
            })
            .collect();
        assert_eq!(l.pixels(0).unwrap(), want, "{expr}");
    }
}

/// The descriptor view: one cell per bit holding that bit of the word, each bit's field on
/// hover; the operand's core matrices outlined and the LBO/SBO arrows reaching the blocks
/// those offsets point to (checked against the layout's own offsets).
#[test]
fn descriptor_view_draws_bits_fields_core_matrices_and_offsets() {
    let expr = EXAMPLES.iter().find(|(v, _)| *v == "descriptor").unwrap().1;
    let Value::Descriptor(d) = eval_line(expr).unwrap() else {
        panic!("not a descriptor")
    };
    let s = svg(expr);
    let doc = parse(&s);
    let bits = cells(&doc, "bits");
    assert_eq!(bits.len(), 64);
    for (k, c) in bits.iter().enumerate() {
        let bit = attr(c, "data-bit");
        // Row 0 is bits 63..32, left to right from the top bit.
        assert_eq!(bit, 63 - k as i64);
        let text = c.descendants().find(|n| n.has_tag_name("text")).unwrap();
        assert_eq!(
            text.text(),
            Some(((d.word >> bit) & 1).to_string().as_str())
        );
        let want = d.field_at(bit as u32).map_or("unused", |f| f.name);
        assert_eq!(c.attribute("data-field"), Some(want), "bit {bit}");
    }
    let op = d.smem.as_ref().unwrap();
    assert_eq!(
        (op.lbo, op.sbo),
        (16, 32),
        "LBO 256 B to the next 16 rows of MN, SBO 512 B to the next 8 K"
    );
    let smem = cells(&doc, "smem");
    assert_eq!(smem.len(), 32 * 16);
    // 8x8 core matrices of a 32x16 block: 8 outlines, plus the ruler's field frames.
    let panel = doc
        .descendants()
        .find(|n| n.attribute("data-panel") == Some("smem"))
        .unwrap();
    let outlines = panel
        .descendants()
        .filter(|n| n.attribute("class") == Some("outline"))
        .count();
    assert_eq!(outlines, 8);
    let labels: Vec<&str> = panel
        .descendants()
        .filter(|n| n.attribute("class") == Some("arrow"))
        .filter_map(|a| {
            a.descendants()
                .find(|n| n.has_tag_name("text"))
                .and_then(|t| t.text())
        })
        .collect();
    assert_eq!(labels, ["LBO 256 B", "SBO 512 B"]);
    // The blocks the arrows reach start at those byte offsets (before the swizzle).
    let f = render_figure(expr, &Options::default()).unwrap();
    assert!(f.notes.iter().any(|n| n.contains(
        "LBO = 16 x 16 B = 256 B: from the core matrix at (0, 0) to the one at (16, 0)"
    )));
    assert!(f.notes.iter().any(|n| n
        .contains("SBO = 32 x 16 B = 512 B: from the core matrix at (0, 0) to the one at (0, 8)")));
    let inner = op.layout.inner();
    assert_eq!(
        inner.call_coord(&IntTuple::ints(&[16, 0])).unwrap() * 2,
        256
    );
    assert_eq!(inner.call_coord(&IntTuple::ints(&[0, 8])).unwrap() * 2, 512);

    // The instruction descriptor: one row of 32 bits.
    let i = svg(
        "UMMA::make_instr_desc<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>()",
    );
    let doc = parse(&i);
    let bits = cells(&doc, "bits");
    assert_eq!(bits.len(), 32);
    let m_dim: Vec<_> = bits
        .iter()
        .filter(|c| c.attribute("data-field") == Some("m_dim"))
        .collect();
    assert_eq!(m_dim.len(), 5);
    assert_eq!(m_dim[0].attribute("data-value"), Some("8 = 0x8"));
    assert!(doc
        .descendants()
        .all(|n| n.attribute("data-panel") != Some("smem")));
}

/// The TMEM view: an accumulator's every (m, n) at the lane and column CuTe's layout gives
/// it; a tcgen05.ld atom's every thread and register at its lane and column, for the four
/// warps of a warpgroup, each within its own 32-lane sub-partition.
#[test]
fn tmem_view_places_accumulators_and_load_registers() {
    let expr = "partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 64, 32, UMMA::Major::K, UMMA::Major::K>{}), Shape<_128,_32>{})";
    let Value::Tmem(t) = eval_line(expr).unwrap() else {
        panic!("not a TMEM tensor")
    };
    let doc_s = svg(expr);
    let doc = parse(&doc_s);
    assert_eq!(doc.root_element().attribute("data-view"), Some("tmem"));
    let cs = cells(&doc, "tmem");
    // M=64 atoms: 16 lanes of each sub-partition per MMA; 2 MMAs fill 32 of them.
    assert_eq!(cs.len(), 128 * 32);
    let mut seen = std::collections::HashSet::new();
    for c in &cs {
        if c.attribute("class").is_some_and(|k| k.contains("empty")) {
            continue;
        }
        let (lane, col) = (attr(c, "data-lane"), attr(c, "data-column"));
        let (m, n, rep) = (attr(c, "data-m"), attr(c, "data-n"), attr(c, "data-mma"));
        // The layout's own address for that coordinate decodes to this lane and column.
        let a = t.layout.call_index(m + 64 * n + 2048 * rep).unwrap();
        assert_eq!((a >> 16, a & 0xffff), (lane, col), "m {m} n {n} mma {rep}");
        assert_eq!(attr(c, "data-warp"), lane / 32);
        seen.insert((m, n, rep));
    }
    assert_eq!(seen.len(), 64 * 32 * 2);

    let s = svg("atom(SM100_TMEM_LOAD_32dp32b4x)");
    let doc = parse(&s);
    let cs = cells(&doc, "tmem");
    assert_eq!(cs.len(), 128 * 4);
    for c in &cs {
        // Thread t reads its own lane, register r column r.
        let (lane, col) = (attr(c, "data-lane"), attr(c, "data-column"));
        assert_eq!(attr(c, "data-thread"), lane);
        assert_eq!(attr(c, "data-register"), col);
    }
    assert!(render_svg(
        "partition_fragment_C(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN), (16,8))",
        &Options::default(),
        Theme::Light
    )
    .unwrap_err()
    .to_string()
    .contains("registers"));
}

/// The TMA view: every element of the tile in both panels, each in the box and 16-byte chunk
/// the box layout gives it, landing at its swizzled shared-memory offset.
#[test]
fn tma_view_places_every_element_in_its_box_and_chunk() {
    let expr = "make_tma_copy(make_layout(make_shape(256, 512), make_stride(_1{}, 256)), tile_to_shape(GMMA::Layout_MN_SW64_Atom<half_t>{}, Shape<_64,_16>{}))";
    let Value::Tma(t) = eval_line(expr).unwrap() else {
        panic!("not a TMA box")
    };
    // Box (32,8): 32 halves of M (64 bytes, the SW64 span) by 8 rows of K; 4 per tile.
    assert_eq!(t.to_string(), "(32,8):(1@0,1@1)");
    assert_eq!(t.per_tile, 4);
    let s = svg(expr);
    let doc = parse(&s);
    assert_eq!(doc.root_element().attribute("data-view"), Some("tma"));
    let g = cells(&doc, "gmem");
    assert_eq!(g.len(), 64 * 16);
    let sm: Vec<_> = cells(&doc, "smem")
        .into_iter()
        .filter(|c| !c.attribute("class").is_some_and(|k| k.contains("empty")))
        .collect();
    assert_eq!(sm.len(), 64 * 16);
    let map = t.smem.in_elements().unwrap();
    for c in &g {
        // The tile is drawn with M down and K across.
        let (m, k) = (attr(c, "data-row"), attr(c, "data-col"));
        let pre = map.inner().call_coord(&IntTuple::ints(&[m, k])).unwrap();
        assert_eq!(attr(c, "data-box"), pre / 256);
        assert_eq!(attr(c, "data-chunk"), (pre % 32) / 8);
        assert_eq!(
            attr(c, "data-smem-offset"),
            map.call_coord(&IntTuple::ints(&[m, k])).unwrap()
        );
    }
    // Four boxes, each a 32x8 rectangle of the tile, framed.
    let frames = doc
        .descendants()
        .find(|n| n.attribute("data-panel") == Some("gmem"))
        .unwrap()
        .descendants()
        .filter(|n| n.attribute("class") == Some("outline"))
        .count();
    assert_eq!(frames, 4);
}
