//! The descriptor view: bits, fields, core matrices and LBO/SBO.

mod common;

use common::*;
use cute_core::IntTuple;
use cute_lang::{eval_line, Value};
use cute_render::{render_figure, Options, Theme};

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
    let all = cells(&doc, "bits");
    assert_eq!(
        all.len(),
        128,
        "two words of 32 bits, each with its names row"
    );
    // Rows 0 and 2 hold the bits; rows 1 and 3 name the fields of the row above.
    let bits: Vec<_> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| (i / 32) % 2 == 0)
        .map(|(_, c)| c)
        .collect();
    assert_eq!(bits.len(), 64);
    let labels = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("mlabel"))
        .filter_map(|n| n.text())
        .collect::<Vec<_>>();
    for f in &d.fields {
        assert!(
            labels
                .iter()
                .any(|l| f.name.starts_with(*l) && !l.is_empty()),
            "{} not named on the ruler: {labels:?}",
            f.name
        );
    }
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
    let mut bits = cells(&doc, "bits");
    assert_eq!(bits.len(), 64, "32 bits and their names row");
    bits.truncate(32);
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

#[test]
fn snapshot() {
    let f = render_figure(example("descriptor"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "descriptor");
    insta::assert_snapshot!("view_descriptor", f.to_svg(Theme::Light));
}
