//! The compare and bits views and the explained algebra view: what each draws, cell by
//! cell, against the algebra that defines it.

mod common;

use common::*;
use cute_core::Swizzle;

#[test]
fn compare_view_marks_exactly_the_cells_that_differ() {
    let expr = "functionally_equal(Sw<1,2,3> o 0 o (8,8):(8,1), (8,8):(8,1))";
    let s = svg(expr);
    let doc = parse(&s);
    assert_eq!(doc.root_element().attribute("data-view"), Some("compare"));
    assert_eq!(panel_ids(&doc), ["A", "B"]);
    let sw = Swizzle::new(1, 2, 3).unwrap();
    let (a, b) = (cells(&doc, "A"), cells(&doc, "B"));
    assert_eq!((a.len(), b.len()), (64, 64));
    let mut differ = 0;
    for (ca, cb) in a.iter().zip(&b) {
        let (r, c) = (attr(ca, "data-row"), attr(ca, "data-col"));
        let plain = 8 * r + c;
        let swizzled = sw.apply(plain);
        let marked = ca.attribute("class").unwrap_or("").contains("differ");
        assert_eq!(marked, swizzled != plain, "({r},{c})");
        assert_eq!(
            marked,
            cb.attribute("class").unwrap_or("").contains("differ")
        );
        differ += usize::from(marked);
    }
    assert_eq!(differ, 32);
    assert!(
        s.contains("not equal: 32 of 64 cells differ"),
        "the subtitle counts them"
    );
    // Equal functions of different shapes: nothing marked.
    let s = svg("functionally_equal((4,8):(1,4), 32:1)");
    assert!(!s.contains("class=\"cell differ"));
    assert!(s.contains("functionally equal"));
}

#[test]
fn bits_view_is_the_swizzles_matrix() {
    let s = svg("Sw<3,4,3>{}");
    let doc = parse(&s);
    assert_eq!(doc.root_element().attribute("data-view"), Some("bits"));
    let sw = Swizzle::new(3, 4, 3).unwrap();
    let cs = cells(&doc, "bits");
    assert_eq!(cs.len(), 100);
    for c in cs {
        let (r, k) = (attr(&c, "data-row"), attr(&c, "data-col"));
        // Column k is the image of bit k; row r its bit r.
        let one = (sw.apply(1 << k) >> r) & 1 == 1;
        assert_eq!(
            c.attribute("class").unwrap_or("").contains("one"),
            one,
            "({r},{k})"
        );
    }
}

#[test]
fn bits_view_of_a_tv_layout_names_thread_and_value_bits() {
    let fig = cute_render::render_figure(
        "make_layout_tv((4,8):(8,1), (2,2):(2,1))",
        &cute_render::Options {
            view: cute_render::View::Bits,
            ..Default::default()
        },
    )
    .unwrap();
    let p = &fig.panels[0].0;
    assert_eq!(p.col_headers, ["t0", "t1", "t2", "t3", "t4", "v0", "v1"]);
    assert_eq!(p.row_headers, ["m0", "m1", "m2", "n0", "n1", "n2", "n3"]);
    assert_eq!(
        (p.col_breaks.clone(), p.row_breaks.clone()),
        (vec![5], vec![3])
    );
}

#[test]
fn bits_view_says_why_a_layout_has_no_matrix() {
    let opts = cute_render::Options {
        view: cute_render::View::Bits,
        ..Default::default()
    };
    // Offsets that carry: (4,4):(1,5) has L(5) = 6 but L(1) ^ L(4) = 4.
    let fig = cute_render::render_figure("(4,4):(1,5)", &opts).unwrap();
    assert!(fig.subtitle.starts_with("not linear over GF(2)"));
    assert!(
        fig.notes[0].contains("L(1 ^ 4) = L(5) = 6"),
        "{:?}",
        fig.notes
    );
    assert_eq!(fig.panels[0].0.marks.len(), 3, "the three cells outlined");
    let fig = cute_render::render_figure("(3,4):(1,3)", &opts).unwrap();
    assert!(
        fig.notes[0].contains("size 12 is not a power of two"),
        "{:?}",
        fig.notes
    );
}

#[test]
fn explain_draws_the_algebra_view_with_its_steps() {
    let fig = cute_render::render_figure(
        "explain(logical_divide((4,2,3):(2,1,8), 4:2))",
        &cute_render::Options::default(),
    )
    .unwrap();
    assert_eq!(fig.view, cute_render::View::Algebra);
    let ids: Vec<&str> = fig.panels.iter().map(|(p, _)| p.id.as_str()).collect();
    assert_eq!(ids, ["A", "B", "result"]);
    assert_eq!(fig.notes.last().unwrap(), "=> ((2,2),(2,3)):((4,1),(2,8))");
    // Indentation survives SVG's collapsing of spaces.
    assert!(fig
        .notes
        .iter()
        .any(|n| n.starts_with("\u{a0}\u{a0}complement(4:2")));
}

#[test]
fn labels_replace_what_every_cell_says() {
    use cute_render::{render_figure, Labels, Options};
    let l: cute_core::Layout = "((2,2),(2,4)):((1,4),(2,8))".parse().unwrap();
    let at = |labels| {
        let f = render_figure(
            &l.to_string(),
            &Options {
                labels,
                ..Default::default()
            },
        )
        .unwrap();
        let p = f.panels[0].0.clone();
        (p, f.subtitle)
    };
    let (p, sub) = at(Labels::Coord);
    assert!(sub.contains("cell = its natural coordinate"), "{sub}");
    for r in 0..p.rows {
        for c in 0..p.cols {
            let idx = r + p.rows * c;
            let want =
                cute_core::int_tuple::idx2crd(&cute_core::IntTuple::Int(idx as i64), l.shape())
                    .unwrap();
            assert_eq!(p.text(r, c).unwrap(), want.to_string());
        }
    }
    let (p, _) = at(Labels::Index);
    assert_eq!(p.text(1, 2).unwrap(), "9");
    let (p, _) = at(Labels::Flat);
    assert_eq!(p.text(1, 2).unwrap(), "(1,2)");
    let (p, _) = at(Labels::None);
    assert_eq!(p.text(1, 2).unwrap(), "");
    let (p, _) = at(Labels::Offset);
    assert_eq!(p.text(1, 2).unwrap(), l.call_index(9).unwrap().to_string());
    // The thread-value views: T#/V# by default and for tv, the tile's index otherwise; the
    // SVG export keeps the labels.
    let tv = "make_layout_tv((4,8):(8,1), (2,2):(2,1))";
    let f = render_figure(
        tv,
        &Options {
            labels: Labels::Index,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(f.panels[0].0.text(1, 0).unwrap(), "1");
    let f = render_figure(
        tv,
        &Options {
            labels: Labels::Tv,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(f.panels[0].0.text(0, 0).unwrap(), "T0\nV0");
    let svg = cute_render::render_svg(
        "(2,2):(1,2)",
        &Options {
            labels: Labels::Coord,
            ..Default::default()
        },
        cute_render::Theme::Light,
    )
    .unwrap();
    assert!(svg.contains(">(1,1)<"), "{svg}");
}
