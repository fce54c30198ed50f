//! The swizzle view: before and after the swizzle, and the bits of one offset.

mod common;

use common::*;
use cute_render::views::figure_with_call;
use cute_render::{render_figure, Options, Theme, View};

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

/// The cell under (row, col) of a panel.
fn cell_at<'a>(
    doc: &'a roxmltree::Document<'a>,
    panel: &str,
    row: &str,
    col: &str,
) -> roxmltree::Node<'a, 'a> {
    cells(doc, panel)
        .into_iter()
        .find(|c| c.attribute("data-row") == Some(row) && c.attribute("data-col") == Some(col))
        .unwrap()
}

#[test]
fn the_before_panel_reports_its_own_offset_and_bank() {
    let s = svg("composition(Sw<3,2,3>, (8,32):(32,1))");
    let doc = parse(&s);
    let c = cell_at(&doc, "before", "1", "0");
    // Coloured by offset 32 (bank 16 for 16-bit elements), so it reports that, not the
    // swizzled 36 (bank 18).
    assert_eq!(c.attribute("data-offset"), Some("32"));
    assert_eq!(c.attribute("data-bank"), Some("16"));
    assert_eq!(c.attribute("data-pre"), None);
}

#[test]
fn the_element_width_is_the_values_then_the_blocks_then_the_chosen_one() {
    let opts = Options::default(); // 16-bit chosen
                                   // A float GMMA atom prints smem_ptr[32b]: its cells are 32-bit, whatever was chosen.
    let f = render_figure("GMMA::Layout_K_SW128_Atom<float>{}", &opts).unwrap();
    let s = f.to_svg(Theme::Light);
    let doc = parse(&s);
    // Offset 1 of floats is byte 4: bank 1 (a 16-bit reading says bank 0).
    assert_eq!(
        cell_at(&doc, "before", "0", "1").attribute("data-bank"),
        Some("1")
    );
    assert!(
        f.notes
            .iter()
            .any(|n| n.contains("32-bit elements (from smem_ptr[32b]")),
        "{:?}",
        f.notes
    );
    // An 8-bit atom: offsets 0..3 share bank 0, offset 4 is bank 1.
    let f = render_figure("GMMA::Layout_K_SW128_Atom<uint8_t>{}", &opts).unwrap();
    let doc_s = f.to_svg(Theme::Light);
    let doc = parse(&doc_s);
    assert_eq!(
        cell_at(&doc, "before", "0", "3").attribute("data-bank"),
        Some("0")
    );
    assert_eq!(
        cell_at(&doc, "before", "0", "4").attribute("data-bank"),
        Some("1")
    );
    // A block's declared element type sets the width of a swizzle in elements.
    let f = render_figure(
        "using Element = float;\nSw<3,2,3> o 0 o (8,32):(32,1)",
        &opts,
    )
    .unwrap();
    let s = f.to_svg(Theme::Light);
    let doc = parse(&s);
    assert_eq!(
        cell_at(&doc, "before", "1", "0").attribute("data-bank"),
        Some("0")
    );
    assert!(f
        .notes
        .iter()
        .any(|n| n.contains("from using Element = float")));
    // Nothing fixes it: the chosen width, said so.
    let f = render_figure("Sw<3,2,3> o 0 o (8,32):(32,1)", &opts).unwrap();
    assert!(f
        .notes
        .iter()
        .any(|n| n.contains("16-bit elements (the chosen width")));
}

/// A value made without a block (a Python op call, the fuzz target's figures) fixes its own
/// width too: `figure_with_call` draws what `render_figure` draws for the same text.
#[test]
fn a_value_without_a_block_is_drawn_at_its_own_width() {
    let text = "tile_to_shape(GMMA::Layout_K_SW128_Atom<float>{}, make_shape(_8{}, _64{}))";
    let v = cute_lang::eval_block(text).unwrap();
    assert!(v.to_string().contains("smem_ptr[32b]"), "{v}");
    for view in [View::Auto, View::Layout, View::Swizzle] {
        let opts = Options {
            view,
            ..Options::default() // 16-bit chosen
        };
        let made = figure_with_call(text, &v, None, &opts).unwrap();
        let from_text = render_figure(text, &opts).unwrap();
        assert_eq!(
            made.to_svg(Theme::Light),
            from_text.to_svg(Theme::Light),
            "{view:?}"
        );
        // The swizzle view (Auto's choice here) says where its bank width comes from.
        assert!(
            view == View::Layout
                || made
                    .notes
                    .iter()
                    .any(|n| n.contains("32-bit elements (from smem_ptr[32b]")),
            "{view:?}: {:?}",
            made.notes
        );
    }
}

/// A staged swizzled smem layout: a before/after pair per stage, the bits panel under all.
#[test]
fn a_staged_swizzle_draws_a_pair_per_stage() {
    let s = svg("Sw<2,2,2> o 0 o ((4,2),8,3):((8,32),1,64)");
    let doc = parse(&s);
    let ids = panel_ids(&doc);
    assert_eq!(
        ids,
        ["before-0", "after-0", "before-1", "after-1", "before-2", "after-2", "bits"]
    );
    // Stage 2's row 4, column 0: index 4 + 64*2, offset 32 + 64*2 = 160 before, and 168
    // after (bits 4-5 of 160 are 0b10, XORed into bits 2-3).
    let c = cell_at(&doc, "after-2", "4", "0");
    assert_eq!(c.attribute("data-idx"), Some("132"));
    assert_eq!(c.attribute("data-pre"), Some("160"));
    assert_eq!(c.attribute("data-offset"), Some("168"));
    let below = |id: &str| corner(panel(&doc, id)).1;
    assert!(ids[..6].iter().all(|id| below(id) < below("bits")));
}
