//! The TMA view: every element in its box and chunk.

mod common;

use common::*;
use cute_core::IntTuple;
use cute_lang::{eval_line, Value};
use cute_render::{render_figure, Options, Theme};

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

#[test]
fn snapshot() {
    let f = render_figure(example("tma"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "tma");
    insta::assert_snapshot!("view_tma", f.to_svg(Theme::Light));
}
