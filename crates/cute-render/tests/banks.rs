//! The bank view: conflicts outlined and the wavefront summary.

mod common;

use common::*;
use cute_render::{render_figure, Options, Theme};

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
fn snapshot() {
    let f = render_figure(example("banks"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "banks");
    insta::assert_snapshot!("view_banks", f.to_svg(Theme::Light));
}
