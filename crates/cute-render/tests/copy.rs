//! The copy view: source and destination.

mod common;

use common::*;
use cute_lang::{eval_line, Value};
use cute_render::{render_figure, Options, Theme};

#[test]
fn copy_view_draws_source_and_destination() {
    let expr = EXAMPLES[4].1;
    let Value::TiledCopy(c) = eval_line(expr).unwrap() else {
        panic!()
    };
    let s = svg(expr);
    let doc = parse(&s);
    check_tv_panel(&doc, "S", &c.layout_s_tv().unwrap(), 16, false);
    check_tv_panel(&doc, "D", &c.layout_d_tv().unwrap(), 16, false);
}

#[test]
fn snapshot() {
    let f = render_figure(example("copy"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "copy");
    insta::assert_snapshot!("view_copy", f.to_svg(Theme::Light));
}
