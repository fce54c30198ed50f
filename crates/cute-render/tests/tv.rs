//! The TV view: every (thread, value) where the core's layout puts it; highlights.

mod common;

use common::*;
use cute_lang::{eval_line, Value};
use cute_render::{render_figure, render_svg, Highlight, Options, Theme};

#[test]
fn tv_view_places_every_thread_value() {
    let expr = "make_layout_tv((4,8):(8,1), (2,2):(2,1))";
    let v = eval_line(expr).unwrap();
    let Value::Tuple(parts) = &v else { panic!() };
    let tv = parts[1].to_layout().unwrap();
    let doc_s = svg(expr);
    let doc = parse(&doc_s);
    check_tv_panel(&doc, "tv", tv, 8, false);
    assert_eq!(cells(&doc, "tv").len(), 8 * 16);
}

#[test]
fn highlight_dims_every_other_thread() {
    let opts = Options {
        highlight: Some(Highlight::Thread(5)),
        ..Options::default()
    };
    let s = render_svg(
        "make_layout_tv((4,8):(8,1), (2,2):(2,1))",
        &opts,
        Theme::Light,
    )
    .unwrap();
    let doc = parse(&s);
    for c in cells(&doc, "tv") {
        let dim = c.attribute("class") == Some("cell dim");
        assert_eq!(dim, attr(&c, "data-thread") != 5);
    }
    let opts = Options {
        highlight: Some(Highlight::Warp(1)),
        ..Options::default()
    };
    let s = render_svg(
        "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN, (2,1,1))",
        &opts,
        Theme::Light,
    )
    .unwrap();
    let doc = parse(&s);
    for c in cells(&doc, "C") {
        assert_eq!(
            c.attribute("class") == Some("cell dim"),
            attr(&c, "data-thread") / 32 != 1
        );
    }
}

#[test]
fn snapshot() {
    let f = render_figure(example("tv"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "tv");
    insta::assert_snapshot!("view_tv", f.to_svg(Theme::Light));
}

/// A highlighted thread or warp the layout does not have leaves every cell dim: the note
/// says why instead of only "highlighted".
#[test]
fn a_highlight_past_the_threads_says_so() {
    let tv = "make_layout_tv((4,8):(8,1), (2,2):(2,1))";
    for (highlight, says, absent) in [
        (
            Highlight::Thread(999),
            "thread 999 highlighted: not among its 32 threads (0..31)",
            true,
        ),
        (
            Highlight::Thread(-1),
            "thread -1 highlighted: not among its 32 threads",
            true,
        ),
        (
            Highlight::Warp(1),
            "warp 1 (threads 32..63) highlighted: not among its 32 threads",
            true,
        ),
        (Highlight::Thread(31), "thread 31 highlighted", false),
        (
            Highlight::Warp(0),
            "warp 0 (threads 0..31) highlighted",
            false,
        ),
    ] {
        let opts = Options {
            highlight: Some(highlight),
            ..Options::default()
        };
        let s = render_svg(tv, &opts, Theme::Light).unwrap();
        assert!(s.contains(says), "{highlight:?}: {says}");
        assert_eq!(s.contains("not among"), absent, "{highlight:?}");
    }
}
