//! The swizzle view: before and after the swizzle, and the bits of one offset.

mod common;

use common::*;
use cute_render::{render_figure, Options, Theme};

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

#[test]
fn snapshot() {
    let f = render_figure(example("swizzle"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "swizzle");
    insta::assert_snapshot!("view_swizzle", f.to_svg(Theme::Light));
}
