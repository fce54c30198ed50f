//! The layout view as SVG: well-formed XML, one cell per coordinate with the right data,
//! escaped text, overview above the cell cap, and a snapshot of the default picture.

use cute_render::{render_svg, Theme};

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"))
}

fn cells<'a>(doc: &'a roxmltree::Document<'a>) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("cell"))
        .collect()
}

#[test]
fn cells_carry_index_and_offset() {
    let svg = render_svg("(4,8):(8,1)", Theme::Light).unwrap();
    let doc = parse(&svg);
    let cells = cells(&doc);
    assert_eq!(cells.len(), 32);
    for c in &cells {
        let idx: i64 = c.attribute("data-idx").unwrap().parse().unwrap();
        let off: i64 = c.attribute("data-offset").unwrap().parse().unwrap();
        let (row, col) = (idx % 4, idx / 4);
        assert_eq!(off, row * 8 + col, "idx {idx}");
        let text = c.descendants().find(|n| n.has_tag_name("text")).unwrap();
        assert_eq!(text.text().map(str::trim), Some(off.to_string().as_str()));
    }
}

#[test]
fn swizzled_cells_show_swizzled_offsets() {
    let svg = render_svg("composition(Sw<3,2,3>, (8,32):(32,1))", Theme::Dark).unwrap();
    let doc = parse(&svg);
    let c = cells(&doc)
        .into_iter()
        .find(|c| c.attribute("data-row") == Some("1") && c.attribute("data-col") == Some("0"))
        .unwrap();
    // Row 1 starts at offset 32 = bit 5, which Sw<3,2,3> XORs into bit 2: 36.
    assert_eq!(c.attribute("data-offset"), Some("36"));
}

#[test]
fn text_is_escaped() {
    for hostile in [
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "a & b 'q'",
    ] {
        let script = format!("L = (2,2):(1,2) # {hostile}\nL");
        let svg = render_svg(&script, Theme::Light).unwrap();
        parse(&svg);
        assert!(!svg.contains("<script"), "{svg}");
        assert!(!svg.contains("<img"), "{svg}");
    }
    // A title that is the expression itself, with markup in a comment-free binding name.
    let svg = render_svg("(2,2):(1,2)", Theme::Light).unwrap();
    let doc = parse(&svg);
    let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
    assert_eq!(title.text().map(str::trim), Some("(2,2):(1,2)"));
}

#[test]
fn big_layouts_render_as_an_overview() {
    let svg = render_svg("(256,256):(256,1)", Theme::Light).unwrap();
    let doc = parse(&svg);
    let cells = cells(&doc);
    assert_eq!(cells.len(), 65536);
    assert!(cells
        .iter()
        .all(|c| c.descendants().all(|n| !n.has_tag_name("text"))));
    assert!(svg.contains("overview: 65536 cells"));
}

#[test]
fn bad_input_is_an_error_not_a_picture() {
    let e = render_svg("(4,8):(8", Theme::Light).unwrap_err();
    assert!(e.to_string().contains("column"), "{e}");
    let e = render_svg("8", Theme::Light).unwrap_err();
    assert!(e.to_string().contains("layout view"), "{e}");
    let e = render_svg("(4096,4096):(1,4096)", Theme::Light).unwrap_err();
    assert!(e.to_string().contains("too many"), "{e}");
}

#[test]
fn default_picture_snapshot() {
    let svg = render_svg("composition(Sw<3,2,3>, (8,32):(32,1))", Theme::Light).unwrap();
    insta::assert_snapshot!("default_swizzled_tile", svg);
}
