//! The coalescing view: each instruction's lines, its lanes' bytes where the core's model
//! puts them, the rest of each fetched sector grey, and the counts in the labels.

mod common;

use common::*;
use cute_render::{render_figure, Options, Theme};

/// Cells of an instruction panel: (byte, sector, class, threads).
fn panel_cells(doc: &roxmltree::Document, id: &str) -> Vec<(i64, i64, String, Vec<i64>)> {
    cells(doc, id)
        .iter()
        .map(|c| {
            let threads = c
                .attribute("data-threads")
                .map(|t| t.split(' ').map(|x| x.parse().unwrap()).collect())
                .unwrap_or_default();
            (
                attr(c, "data-byte"),
                attr(c, "data-sector"),
                c.attribute("class").unwrap_or("").to_string(),
                threads,
            )
        })
        .collect()
}

#[test]
fn lanes_bytes_and_the_fetched_sectors_are_where_the_model_puts_them() {
    let expr = example("coalescing");
    let r = match cute_lang::eval_line(expr).unwrap() {
        cute_lang::Value::Coalesce(r) => r,
        v => panic!("{v:?}"),
    };
    let s = svg(expr);
    let doc = parse(&s);
    let gi = &r.instrs[0];
    let cells = panel_cells(&doc, "i0");
    // Every byte a lane asks for is in a cell naming that lane's thread.
    for (lane, a) in gi.addrs.iter().enumerate() {
        let a = a.unwrap() as i64;
        for b in a..a + 8 {
            let cell = cells
                .iter()
                .find(|c| c.0 <= b && b < c.0 + 4)
                .unwrap_or_else(|| panic!("byte {b} of lane {lane} is not drawn"));
            assert!(cell.3.contains(&(lane as i64)), "byte {b}: {:?}", cell.3);
        }
    }
    // The sectors drawn as fetched (asked or grey) are the model's.
    let mut fetched: Vec<i64> = cells
        .iter()
        .filter(|c| !c.2.contains("empty"))
        .map(|c| c.1)
        .collect();
    fetched.dedup();
    assert_eq!(fetched.len() as u32, gi.sectors);
    // 48-byte base, 80-byte rows of 64-bit lanes: 10 sectors over 3 lines, 2 of them part-used
    assert_eq!((gi.sectors, gi.lines, gi.min_sectors), (10, 3, 8));
    let waste = cells.iter().filter(|c| c.2.contains("waste")).count();
    assert_eq!(
        waste * 4,
        10 * 32 - 256,
        "the unused bytes of the fetched sectors"
    );
    let label = doc
        .descendants()
        .find(|n| {
            n.has_tag_name("text") && n.text().is_some_and(|t| t.trim().starts_with("warp 0"))
        })
        .and_then(|n| n.text())
        .unwrap()
        .trim()
        .to_string();
    assert_eq!(
        label,
        "warp 0, instruction 0: LDG.E.64, 10 sectors (min 8), 3 lines"
    );
}

#[test]
fn cp_async_cg_says_it_does_not_merge() {
    let f = render_figure(
        "coalescing((8,64):(64,1), 16, make_tiled_copy(atom(SM80_CP_ASYNC_CACHEGLOBAL_128, half_t), (8,8):(8,1), (1,8)))",
        &Options::default(),
    )
    .unwrap();
    assert!(
        f.notes.iter().any(|n| n.contains("lane pair")),
        "{:?}",
        f.notes
    );
}

#[test]
fn a_warp_out_of_range_is_an_error() {
    let opts = Options {
        warp: 9,
        ..Options::default()
    };
    let e = render_figure(example("coalescing"), &opts).unwrap_err();
    assert!(e.to_string().contains("warp 9 does not exist"), "{e}");
}

#[test]
fn snapshot() {
    let f = render_figure(example("coalescing"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "coalescing");
    insta::assert_snapshot!("view_coalescing", f.to_svg(Theme::Light));
}
