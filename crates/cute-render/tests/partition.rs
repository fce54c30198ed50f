//! The partition view: every element of the partitioned tensor coloured by its owner, the
//! thread's own elements lit and numbered as its part numbers them (checked against the
//! core's partition of the column-major layout), for MMA and copy partitions.

mod common;

use common::*;
use cute_core::atom::{make_tiled_mma, Atom};
use cute_core::layout::Tiler;
use cute_core::{IntTuple, Layout};
use cute_render::{render_figure, Options, Theme};

/// The (row, col) → (thread, value) of the partition panel's lit cells.
fn lit(doc: &roxmltree::Document) -> Vec<(i64, i64, i64, i64)> {
    cells(doc, "partition")
        .iter()
        .filter(|c| {
            c.attribute("class")
                .is_some_and(|k| !k.contains("dim") && !k.contains("empty"))
        })
        .map(|c| {
            (
                attr(c, "data-row"),
                attr(c, "data-col"),
                attr(c, "data-thread"),
                attr(c, "data-value"),
            )
        })
        .collect()
}

#[test]
fn an_mma_partition_lights_the_threads_part_in_its_order() {
    let Atom::Mma(atom) = Atom::lookup("SM80_16x8x16_F16F16F16F16_TN").unwrap() else {
        unreachable!()
    };
    let under = [Tiler::Under, Tiler::Under, Tiler::Under];
    let mma = make_tiled_mma(&atom, &"(2,2,1)".parse().unwrap(), &under).unwrap();
    let shape: IntTuple = "(64,32)".parse().unwrap();
    let whole = Layout::col_major(shape).unwrap();
    // Thread 37 owns its elements first; thread 101 (the same M and K, the other N) holds
    // the same ones: it is shown there when it is the one asked for.
    for thr in [37, 101] {
        let expr = format!(
            "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{{}}, Layout<Shape<_2,_2,_1>>{{}}).get_slice({thr}).partition_A(make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<64>{{}}, Int<32>{{}}), LayoutRight{{}}))"
        );
        let s = svg(&expr);
        let doc = parse(&s);
        let cells = lit(&doc);
        let (part, off) = mma
            .partition(cute_core::atom::Operand::A, &whole, thr)
            .unwrap();
        assert_eq!(cells.len() as i64, part.size().unwrap(), "thread {thr}");
        for (r, c, t, v) in cells {
            assert_eq!(t, thr);
            assert_eq!(
                r + 64 * c,
                off + part.call_index(v).unwrap(),
                "thread {thr} V{v}"
            );
        }
    }
}

#[test]
fn a_copy_partition_lights_the_threads_source_values() {
    let expr = "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{}).get_slice(9).partition_S(make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(32, Int<64>{}), LayoutRight{}))";
    let s = svg(expr);
    let doc = parse(&s);
    let mut cells = lit(&doc);
    cells.sort();
    // Thread 9: row 1 of the 16x8 threads, its 8 halves at columns 8..15, in rows 1 and 17.
    let want: Vec<(i64, i64, i64, i64)> = [1, 17]
        .iter()
        .enumerate()
        .flat_map(|(k, &r)| (0..8).map(move |j| (r, 8 + j, 9, j + 8 * k as i64)))
        .collect();
    assert_eq!(cells, want);
}

#[test]
fn snapshot() {
    let f = render_figure(example("partition"), &Options::default()).unwrap();
    assert_eq!(f.view.name(), "partition");
    insta::assert_snapshot!("view_partition", f.to_svg(Theme::Light));
}

#[test]
fn a_copy_partition_shows_both_sides_and_outlines_each_instruction() {
    // 8-byte vectors: thread 9 moves its 16 halves in 4 instructions of 4.
    let expr = "make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{}).get_slice(9).partition_S(make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(32, Int<64>{}), LayoutRight{}))";
    let s = svg(expr);
    let doc = parse(&s);
    assert_eq!(panel_ids(&doc), ["partition", "other"]);
    for id in ["partition", "other"] {
        let mine: Vec<_> = cells(&doc, id)
            .into_iter()
            .filter(|c| c.attribute("data-thread") == Some("9"))
            .collect();
        assert_eq!(mine.len(), 16, "{id}");
        for c in &mine {
            assert_eq!(attr(c, "data-instr"), attr(c, "data-value") / 4, "{id}");
        }
        let outlines = panel(&doc, id)
            .descendants()
            .filter(|n| n.attribute("class") == Some("outline"))
            .count();
        assert_eq!(outlines, 4, "{id}: one outline per instruction");
    }
    // The partitioned side names each value's coordinate in the thread's partition
    // ((4,2),2,1): V5 is the second instruction's second value.
    let v5 = cells(&doc, "partition")
        .into_iter()
        .find(|c| c.attribute("data-thread") == Some("9") && c.attribute("data-value") == Some("5"))
        .unwrap();
    assert_eq!(v5.attribute("data-coord"), Some("((1,1),0,0)"));
}
