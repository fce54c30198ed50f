//! The algebra view: operands and result side by side, tilers per mode, cell caps.

mod common;

use common::*;
use cute_core::Layout;
use cute_lang::eval_line;
use cute_render::views::{CELL_HARD_CAP, CELL_TEXT_CAP};
use cute_render::{render_figure, render_svg, svg_to_png, Options, Palette, Theme, View};

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

#[test]
fn snapshot() {
    let f = render_figure(example("algebra"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "algebra");
    insta::assert_snapshot!("view_algebra", f.to_svg(Theme::Light));
}
