//! What the view tests share: one example per view (the seeds' pictures), drawing and
//! parsing helpers, and the checks of layout and TV panels against the core.
#![allow(dead_code)]

use cute_core::int_tuple::idx2crd;
use cute_core::{IntTuple, Layout};
use cute_render::{render_svg, Options, Theme};

/// One example per view (the seeds' pictures).
pub const EXAMPLES: &[(&str, &str)] = &[
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
    (
        "coalescing",
        "coalescing(make_tensor(make_gmem_ptr<half_t>(48), make_shape(64, 32), make_stride(40, 1)), make_tiled_copy(atom(UniversalCopy_64, half_t), (16,8):(8,1), (1,4)))",
    ),
    (
        "partition",
        "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}).get_slice(5).partition_A(make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<16>{}, Int<16>{}), LayoutRight{}))",
    ),
];

pub fn svg(expr: &str) -> String {
    render_svg(expr, &Options::default(), Theme::Light).unwrap_or_else(|e| panic!("{expr}: {e}"))
}

pub fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"))
}

pub fn cells<'a>(doc: &'a roxmltree::Document<'a>, panel: &str) -> Vec<roxmltree::Node<'a, 'a>> {
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

pub fn attr(n: &roxmltree::Node, a: &str) -> i64 {
    n.attribute(a)
        .unwrap_or_else(|| panic!("no {a}"))
        .parse()
        .unwrap()
}

/// Every drawn (thread, value) is where the core's TV layout puts it.
pub fn check_tv_panel(
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

pub fn panel<'a>(doc: &'a roxmltree::Document<'a>, id: &str) -> roxmltree::Node<'a, 'a> {
    doc.descendants()
        .find(|n| n.attribute("data-panel") == Some(id))
        .unwrap_or_else(|| panic!("no panel {id}"))
}

pub fn panel_ids(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants()
        .filter_map(|n| n.attribute("data-panel").map(str::to_string))
        .collect()
}

/// The top-left corner of a panel's first cell.
pub fn corner(p: roxmltree::Node) -> (f64, f64) {
    let r = p
        .descendants()
        .find(|n| n.has_tag_name("rect"))
        .expect("a cell");
    let at = |a: &str| r.attribute(a).unwrap().parse::<f64>().unwrap();
    (at("x"), at("y"))
}

/// Every cell of a drawn layout panel holds the core's offset and coordinate of its index,
/// and the panel holds every index once.
pub fn check_layout_panel(doc: &roxmltree::Document, id: &str, layout: &Layout) {
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

/// The example of `view` (one of [`EXAMPLES`]).
pub fn example(view: &str) -> &'static str {
    EXAMPLES
        .iter()
        .find(|(v, _)| *v == view)
        .unwrap_or_else(|| panic!("no example of {view}"))
        .1
}
