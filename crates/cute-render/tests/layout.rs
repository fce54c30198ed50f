//! The layout view: every cell's index and offset, run-time integers, mode boundaries, overviews
//! above the text cap, and grids computed on demand (the page's) equal to held ones.

mod common;

use common::*;
use cute_render::views::CELL_HARD_CAP;
use cute_render::{render_figure, Options, Theme, View};

#[test]
fn layout_cells_carry_index_and_offset() {
    let s = svg("(4,8):(8,1)");
    let doc = parse(&s);
    let cells = cells(&doc, "layout");
    assert_eq!(cells.len(), 32);
    for c in &cells {
        let idx = attr(c, "data-idx");
        let off = attr(c, "data-offset");
        let (row, col) = (idx % 4, idx / 4);
        assert_eq!(off, row * 8 + col, "idx {idx}");
        let text = c.descendants().find(|n| n.has_tag_name("text")).unwrap();
        assert_eq!(text.text().map(str::trim), Some(off.to_string().as_str()));
    }
}

/// A layout of C++ run-time integers (`make_shape(4, 8)` in a C++ block) draws as its
/// static twin does: every cell, at the same offset.
#[test]
fn run_time_integer_layouts_draw_like_static_ones() {
    for (dynamic, fixed) in [
        (
            "auto L = make_layout(make_shape(4, 8), make_stride(8, 1));",
            "(4,8):(8,1)",
        ),
        (
            "composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})(_, 0);",
            "(8):(72)",
        ),
    ] {
        let offsets = |expr: &str| -> Vec<i64> {
            let s = svg(expr);
            let doc = parse(&s);
            cells(&doc, "layout")
                .iter()
                .map(|c| attr(c, "data-offset"))
                .collect()
        };
        let (oa, ob) = (offsets(dynamic), offsets(fixed));
        assert!(!oa.is_empty(), "{dynamic}: no cells");
        assert_eq!(oa, ob, "{dynamic} vs {fixed}");
    }
}

#[test]
fn hierarchical_modes_draw_boundaries() {
    let s = svg("(4,(2,4)):(2,(1,8))");
    let doc = parse(&s);
    let breaks = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("breaks"))
        .unwrap();
    // Column mode (2,4): a boundary after every 2 columns (3 of them).
    assert_eq!(breaks.children().filter(|n| n.is_element()).count(), 3);
    assert!(s.contains("\n3 (1,1)\n"), "hierarchical column header");
}

#[test]
fn big_layouts_render_as_an_overview() {
    for expr in ["(256,256):(256,1)", "Sw<3,4,3> o 0 o (256,256):(256,1)"] {
        let s = svg(expr);
        let doc = parse(&s);
        // Cells are subpaths of a few coloured paths; one hit rectangle per panel.
        let class = |n: &roxmltree::Node, c: &str| {
            n.attribute("class")
                .is_some_and(|x| x.split(' ').next() == Some(c))
        };
        assert_eq!(doc.descendants().filter(|n| class(n, "cell")).count(), 0);
        let runs: Vec<_> = doc.descendants().filter(|n| class(n, "run")).collect();
        assert!(
            !runs.is_empty() && runs.len() <= 128,
            "{expr}: {} paths",
            runs.len()
        );
        let subpaths: usize = runs
            .iter()
            .map(|n| n.attribute("d").unwrap().matches('M').count())
            .sum();
        assert!((256..=65536 * 2).contains(&subpaths), "{expr}: {subpaths}");
        // One hit rectangle per panel; the covered area is exactly the grid.
        let f = cute_render::render_figure(expr, &Options::default()).unwrap();
        let hits = doc.descendants().filter(|n| class(n, "hit")).count();
        assert_eq!(hits, f.panels.len(), "{expr}");
        let (p, _) = f
            .panels
            .iter()
            .rev()
            .find(|(p, _)| (p.rows, p.cols) == (256, 256))
            .unwrap();
        let area: usize = runs
            .iter()
            .filter(|n| {
                n.ancestors()
                    .any(|a| a.attribute("data-panel") == Some(p.id.as_str()))
            })
            .map(|n| {
                let d = n.attribute("d").unwrap();
                d.split('M')
                    .skip(1)
                    .map(|sub| {
                        let w: usize = sub
                            .split('h')
                            .nth(1)
                            .unwrap()
                            .split('v')
                            .next()
                            .unwrap()
                            .parse()
                            .unwrap();
                        let h: usize = sub
                            .split('v')
                            .nth(1)
                            .unwrap()
                            .split('h')
                            .next()
                            .unwrap()
                            .parse()
                            .unwrap();
                        w * h
                    })
                    .sum::<usize>()
            })
            .sum();
        let hit = doc
            .descendants()
            .find(|n| {
                class(n, "hit")
                    && n.ancestors()
                        .any(|a| a.attribute("data-panel") == Some(p.id.as_str()))
            })
            .unwrap();
        let wh = |k| hit.attribute(k).unwrap().parse::<usize>().unwrap();
        assert_eq!(area, wh("width") * wh("height"), "{expr}");
        assert!(doc
            .descendants()
            .all(|n| !n.has_tag_name("text") || !n.ancestors().any(|a| class(&a, "cells"))));
        assert!(
            s.contains("overview: "),
            "the picture says it is an overview"
        );
    }
}

/// Above the hard cap, the page's layout view keeps offsets, not cells: a 1024x1024 grid
/// (plain and swizzled) whose cells, labels, hover data and fills are computed when asked
/// and equal the layout's values; files (lazy_cap 0) still refuse it.
#[test]
fn lazy_grids_compute_what_is_asked_and_equal_the_layout() {
    use cute_render::grid::Detail;
    use cute_render::views::LAZY_CAP;
    let opts = Options {
        cell_text_cap: CELL_HARD_CAP,
        lazy_cap: LAZY_CAP,
        ..Options::default()
    };
    for (expr, swizzled) in [
        ("(1024,1024):(1024,1)", false),
        ("composition(Sw<3,4,3>, (1024,(8,128)):(8,(1,8192)))", true),
    ] {
        let opts = Options {
            view: if swizzled { View::Layout } else { View::Auto },
            ..opts.clone()
        };
        let f = render_figure(expr, &opts).unwrap_or_else(|e| panic!("{expr}: {e}"));
        assert!(f.is_lazy(), "{expr}");
        assert_eq!(f.cell_count(), 1 << 20);
        let v = cute_lang::eval_line(expr).unwrap();
        let map = v.to_any_layout().unwrap();
        let b = &f.panel_boxes()[0];
        assert_eq!((b.rows, b.cols), (1024, 1024));
        // Hover data and labels at the corners and inside.
        for (r, c) in [(0, 0), (1023, 1023), (517, 3), (2, 999)] {
            let want = map.call_index((r + 1024 * c) as i64).unwrap();
            let d = f.cell_data_at("layout", r, c).unwrap();
            assert!(
                d.contains(&("offset".into(), want.to_string())),
                "{expr} {r},{c}: {d:?}"
            );
            assert_eq!(d.iter().any(|(k, _)| k == "pre"), swizzled);
            let l = f.labels(b, r..r + 1, c..c + 1);
            assert_eq!(l[0].text, want.to_string());
            assert_eq!(
                (l[0].x, l[0].y),
                (
                    b.x + c * b.cell_w + b.cell_w / 2,
                    b.y + r * b.cell_h + b.cell_h / 2
                )
            );
        }
        assert!(f.cell_data_at("layout", 1024, 0).is_none());
        assert_eq!(f.labels(b, 1020..1030, 0..2).len(), 8);
        // Fills: one RGBA pixel per cell, the grey of offset mod 8.
        let px = f.pixels(0).unwrap();
        assert_eq!(px.len(), 4 << 20);
        for (r, c) in [(0, 1), (700, 300)] {
            let o = map.call_index((r + 1024 * c) as i64).unwrap();
            let grey = [0xff, 0x99, 0xcc, 0x66, 0xe6, 0x80, 0xb3, 0x4d][o.rem_euclid(8) as usize];
            let k = 4 * (r * 1024 + c);
            assert_eq!(&px[k..k + 4], &[grey, grey, grey, 255], "{expr} {r},{c}");
        }
        // The page's drawing leaves the cells to the canvas: grid lines and the hit area.
        let svg = f.to_svg_with(Theme::Light, Detail::Fills);
        assert!(!svg.contains("class=\"run"), "{expr}");
        // ... and its headers, which the page paints where they are in view.
        assert!(!svg.contains("class=\"hdr\""), "{expr}");
        let h: Vec<&str> = f
            .headers(b, 1022..1030, 0..2, 1)
            .iter()
            .map(|h| h.text)
            .collect();
        assert_eq!(h[..2], ["1022", "1023"]);
        assert_eq!(h.len(), 4, "{h:?}");
        assert_eq!(f.headers(b, 0..1024, 0..0, 256).len(), 4);
        // ... under a background with a hole where the canvas shows through.
        let hole = format!("M{} {}h{}v{}", b.x, b.y, 1024 * b.cell_w, 1024 * b.cell_h);
        assert!(svg.contains(&hole) && svg.contains("evenodd"), "{expr}");
        assert_eq!(svg.matches("class=\"hit\"").count(), 1);
        assert!(svg.len() < 200_000, "{expr}: {} bytes", svg.len());
        roxmltree::Document::parse(&svg).unwrap();
    }
    let files = render_figure("(1024,1024):(1024,1)", &Options::default()).unwrap_err();
    assert!(files.msg.contains("too many to draw"), "{}", files.msg);
    let long = render_figure("(524288,2):(2,1)", &opts).unwrap_err();
    assert!(long.msg.contains("at most 4096 cells"), "{}", long.msg);
    let over = render_figure("(1025,1024):(1024,1)", &opts).unwrap_err();
    assert!(over.msg.contains("too many to draw"), "{}", over.msg);
    // The swizzle view holds its cells (two panels): one this big is drawn in the layout
    // view, saying so; files still refuse it.
    let sw = "composition(Sw<3,4,3>, (1024,1024):(1024,1))";
    let f = render_figure(sw, &opts).unwrap();
    assert_eq!((f.view, f.is_lazy()), (View::Layout, true));
    assert!(f
        .notes
        .iter()
        .any(|n| n.contains("layout view of the swizzled offsets")));
    let files = render_figure(sw, &Options::default()).unwrap_err();
    assert!(files.msg.contains("too many to draw"), "{}", files.msg);
    let o = Options {
        view: View::Swizzle,
        ..opts.clone()
    };
    let e = render_figure("composition(Sw<3,4,3>, (2048,1024):(1024,1))", &o).unwrap_err();
    assert!(
        e.msg.contains("the layout view draws up to 1048576"),
        "{}",
        e.msg
    );
}

/// A layout drawn from cells computed on demand is the same picture as one drawn from held
/// cells: the whole SVG byte for byte, and its bitmap is the held cells' fills.
#[test]
fn lazy_and_held_grids_are_the_same_picture() {
    let held = Options {
        cell_text_cap: CELL_HARD_CAP,
        view: View::Layout,
        ..Options::default()
    };
    let lazy = Options {
        lazy_from: 1,
        lazy_cap: cute_render::views::LAZY_CAP,
        ..held.clone()
    };
    for expr in [
        "(4,8):(8,1)",
        "((2,4),(2,8)):((1,16),(2,4))",
        "(64,64):(1,64)",
        "composition(Sw<3,4,3>, (16,64):(64,1))",
        "composition(Sw<2,3,3>, 8, (8,(4,8)):(32,(1,4)))",
        "(7,13):(-13,1)",
        "swizzle: composition(Sw<3,4,3>, (16,64):(64,1))",
        "swizzle: composition(Sw<2,3,3>, 8, (8,(4,8)):(32,(1,4)))",
        "swizzle: tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(64, 64))",
        "swizzle: composition(Sw<3,3,3>, (4,256):(256,1))",
    ] {
        let (view, expr) = match expr.strip_prefix("swizzle: ") {
            Some(e) => (View::Swizzle, e),
            None => (View::Layout, expr),
        };
        let held = Options {
            view,
            ..held.clone()
        };
        let lazy = Options {
            view,
            ..lazy.clone()
        };
        let (h, l) = (
            render_figure(expr, &held).unwrap(),
            render_figure(expr, &lazy).unwrap(),
        );
        assert_eq!((h.view, l.view), (view, view), "{expr}");
        assert!(!h.is_lazy() && l.is_lazy(), "{expr}");
        assert_eq!(l.cell_count(), h.cell_count(), "{expr}");
        assert_eq!(l.to_svg(Theme::Light), h.to_svg(Theme::Light), "{expr}");
        // The page's labels, painted from either.
        for (bh, bl) in h.panel_boxes().iter().zip(l.panel_boxes()) {
            assert_eq!(bh, &bl, "{expr}");
            let (rows, cols) = (0..bh.rows + 1, 0..bh.cols + 1);
            assert_eq!(
                h.labels(bh, rows.clone(), cols.clone()),
                l.labels(&bl, rows, cols),
                "{expr}"
            );
        }
        let p = &h.panels[0].0;
        let want: Vec<u8> = p
            .cells
            .iter()
            .flat_map(|c| {
                let v = |i: usize| u8::from_str_radix(&c.fill[i..i + 2], 16).unwrap();
                [v(1), v(3), v(5), 255]
            })
            .collect();
        assert_eq!(l.pixels(0).unwrap(), want, "{expr}");
    }
}

#[test]
fn snapshot() {
    let f = render_figure(example("layout"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "layout");
    insta::assert_snapshot!("view_layout", f.to_svg(Theme::Light));
}

/// A rank-3 layout (stages, k-blocks) is drawn one panel per slice of its last mode, each
/// labelled as C++ slices it and holding that slice's cells, with short headers; more
/// slices than fit are one grid.
#[test]
fn rank_3_layouts_draw_a_panel_per_slice_of_the_last_mode() {
    let layout: cute_core::Layout = "((2,4),(2,2),3):((1,16),(2,8),64)".parse().unwrap();
    let s = svg("((2,4),(2,2),3):((1,16),(2,8),64)");
    let doc = parse(&s);
    assert_eq!(panel_ids(&doc), ["layout-0", "layout-1", "layout-2"]);
    let mut seen = Vec::new();
    for k in 0..3 {
        let id = format!("layout-{k}");
        let p = panel(&doc, &id);
        assert_eq!(p.attribute("data-rows"), Some("8"));
        assert_eq!(p.attribute("data-cols"), Some("4"));
        let label = p
            .descendants()
            .find(|n| n.attribute("class") == Some("plabel"))
            .and_then(|n| n.text())
            .map(str::trim);
        assert_eq!(label, Some(format!("(_,_,{k})").as_str()));
        for c in cells(&doc, &id) {
            let idx = attr(&c, "data-idx");
            // Its row and column within the slice, its index and offset in the whole.
            let (r, col) = (attr(&c, "data-row"), attr(&c, "data-col"));
            assert_eq!(idx, r + 8 * col + 32 * k, "{id} ({r},{col})");
            assert_eq!(attr(&c, "data-offset"), layout.call_index(idx).unwrap());
            seen.push(idx);
        }
    }
    seen.sort();
    assert!(seen.into_iter().eq(0..96));
    // 17 slices: one grid.
    let s = svg("(4,8,17):(8,1,32)");
    assert_eq!(panel_ids(&parse(&s)), ["layout"]);
    // Rank 2: one grid, as before.
    assert_eq!(panel_ids(&parse(&svg("(4,8):(8,1)"))), ["layout"]);
}
