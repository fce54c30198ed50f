//! The MMA view: A, B and C arranged as CuTe draws them.

mod common;

use common::*;
use cute_lang::{eval_line, Value};
use cute_render::{render_figure, Options, Theme, View};

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
fn snapshot() {
    let f = render_figure(example("mma"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "mma");
    insta::assert_snapshot!("view_mma", f.to_svg(Theme::Light));
}

#[test]
fn an_umma_tiled_mma_says_its_thread_is_a_cta_and_where_c_lives() {
    let f = render_figure(
        "make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>{})",
        &Options { view: View::Mma, ..Options::default() },
    )
    .unwrap();
    assert!(
        f.subtitle.contains("1 CTA (UMMA: one issuing thread each)"),
        "{}",
        f.subtitle
    );
    assert_eq!(f.legend_title, "CTA:");
    assert!(
        f.notes[0].contains("the tmem view of partition_fragment_C(tiled_mma, Shape<_128,_256>{})"),
        "{:?}",
        f.notes
    );
}
