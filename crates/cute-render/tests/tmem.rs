//! The TMEM view: accumulators and tcgen05.ld registers.

mod common;

use common::*;
use cute_lang::{eval_line, Value};
use cute_render::{render_figure, render_svg, Options, Theme};

/// The TMEM view: an accumulator's every (m, n) at the lane and column CuTe's layout gives
/// it; a tcgen05.ld atom's every thread and register at its lane and column, for the four
/// warps of a warpgroup, each within its own 32-lane sub-partition.
#[test]
fn tmem_view_places_accumulators_and_load_registers() {
    let expr = "partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 64, 32, UMMA::Major::K, UMMA::Major::K>{}), Shape<_128,_32>{})";
    let Value::Tensor(t) = eval_line(expr).unwrap() else {
        panic!("not a TMEM tensor")
    };
    assert!(t.to_string().starts_with("tmem_[32b](0x0000.0000) o "));
    let doc_s = svg(expr);
    let doc = parse(&doc_s);
    assert_eq!(doc.root_element().attribute("data-view"), Some("tmem"));
    let cs = cells(&doc, "tmem");
    // M=64 atoms: 16 lanes of each sub-partition per MMA; 2 MMAs fill 32 of them.
    assert_eq!(cs.len(), 128 * 32);
    let mut seen = std::collections::HashSet::new();
    for c in &cs {
        if c.attribute("class").is_some_and(|k| k.contains("empty")) {
            continue;
        }
        let (lane, col) = (attr(c, "data-lane"), attr(c, "data-column"));
        let (m, n, rep) = (attr(c, "data-m"), attr(c, "data-n"), attr(c, "data-mma"));
        // The layout's own address for that coordinate decodes to this lane and column.
        let a = t.layout.call_index(m + 64 * n + 2048 * rep).unwrap();
        assert_eq!((a >> 16, a & 0xffff), (lane, col), "m {m} n {n} mma {rep}");
        assert_eq!(attr(c, "data-warp"), lane / 32);
        seen.insert((m, n, rep));
    }
    assert_eq!(seen.len(), 64 * 32 * 2);

    let s = svg("atom(SM100_TMEM_LOAD_32dp32b4x)");
    let doc = parse(&s);
    let cs = cells(&doc, "tmem");
    assert_eq!(cs.len(), 128 * 4);
    for c in &cs {
        // Thread t reads its own lane, register r column r.
        let (lane, col) = (attr(c, "data-lane"), attr(c, "data-column"));
        assert_eq!(attr(c, "data-thread"), lane);
        assert_eq!(attr(c, "data-register"), col);
    }
    // A register MMA's accumulator is a register tensor: drawn as its layout, not in TMEM.
    let regs = render_svg(
        "partition_fragment_C(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN), (16,8))",
        &Options::default(),
        Theme::Light,
    )
    .unwrap();
    assert!(regs.contains(r#"data-view="layout""#));
}

#[test]
fn snapshot() {
    let f = render_figure(example("tmem"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "tmem");
    insta::assert_snapshot!("view_tmem", f.to_svg(Theme::Light));
}

/// A TMEM load's TiledCopy (make_tmem_copy: a Tiler_MN of layouts that permutes the
/// accumulator's rows) is drawn at the data's coordinates: with 32dp32b, thread t reads
/// lane t, so the destination's row t is thread t's (not the tile's index order, where row
/// 1 would be lane 32).
#[test]
fn a_tmem_copy_is_drawn_at_lanes() {
    let expr = "make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>{}), make_shape(Int<128>{}, Int<256>{}))(make_coord(_,_),_0{},_0{}))";
    let s = svg(expr);
    let doc = parse(&s);
    assert_eq!(doc.root_element().attribute("data-view"), Some("copy"));
    let d = cells(&doc, "D");
    assert_eq!(d.len(), 128 * 8);
    for c in &d {
        let (row, col) = (attr(c, "data-row"), attr(c, "data-col"));
        assert_eq!(attr(c, "data-thread"), row, "row {row} col {col}");
        assert_eq!(attr(c, "data-value"), col, "row {row} col {col}");
    }
}
