//! The derivations of `cute_core::explain`: worked examples whose every line was checked by
//! hand against CuTe's definitions (`layout.hpp`), their nested blocks against the real
//! functions, and a sweep over many small random layouts (a tiny LCG, no dependencies):
//! the explanation ends with the real result, or fails with the real error.

use cute_core::explain::*;
use cute_core::layout::{self as alg, Tiler};
use cute_core::{Error, IntTuple, Layout, Result};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn t(s: &str) -> Tiler {
    Tiler::Layout(l(s))
}

fn it(s: &str) -> IntTuple {
    s.parse().unwrap()
}

/// Lines of a text block (the expected derivations are written as text).
fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// A derivation nested one level, as a divide or product shows it.
fn nested(text: &str) -> String {
    text.lines()
        .map(|x| format!("  {x}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn check(e: Result<Explanation>, expected: &str) {
    let e = e.unwrap();
    assert_eq!(
        e.lines,
        lines(expected),
        "\n--- got ---\n{e}\n--- expected ---\n{expected}\n"
    );
}

// ---------------------------------------------------------------------------------------
// Worked examples
// ---------------------------------------------------------------------------------------

const COMPOSITION_DOCS: &str = "\
composition((6,2):(8,2), (4,3):(3,1))
  A' = coalesce_x(A) = (6,2):(8,2)
  B = (4,3):(3,1), by mode:
    get<0>(B) = 4:3:
      6:8, rest 4:3: 3 < 6; take min(ceil_div(6,3),4) = 2 -> 2:24; rest 2:1
      2:2 (last), rest 2:1 -> 2:2
      = (2,2):(24,2)
    get<1>(B) = 3:1:
      6:8, rest 3:1: 1 < 6; take min(ceil_div(6,1),3) = 3 -> 3:8; rest 1:1
      2:2 (last): nothing left
      = 3:8
=> ((2,2),3):((24,2),8)";

#[test]
fn composition_examples() {
    // CuTe's layout-algebra docs: (6,2):(8,2) o (4,3):(3,1).
    check(
        explain_composition(&l("(6,2):(8,2)"), &l("(4,3):(3,1)")),
        COMPOSITION_DOCS,
    );
    // The docs' second one: (10,2):(16,4) o (5,4):(1,5) = (5,(2,2)):(16,(80,4)).
    check(
        explain_composition(&l("(10,2):(16,4)"), &l("(5,4):(1,5)")),
        "\
composition((10,2):(16,4), (5,4):(1,5))
  A' = coalesce_x(A) = (10,2):(16,4)
  B = (5,4):(1,5), by mode:
    get<0>(B) = 5:1:
      10:16, rest 5:1: 1 < 10; take min(ceil_div(10,1),5) = 5 -> 5:16; rest 1:1
      2:4 (last): nothing left
      = 5:16
    get<1>(B) = 4:5:
      10:16, rest 4:5: 5 < 10; take min(ceil_div(10,5),4) = 2 -> 2:80; rest 2:1
      2:4 (last), rest 2:1 -> 2:4
      = (2,2):(80,4)
=> (5,(2,2)):(16,(80,4))",
    );
    // A last mode of size 1 (coalesce_x keeps its stride as 2:0), a mode the rest has used
    // up, and a stride-0 mode of B.
    check(
        explain_composition(&l("(4,(2,1)):(2,(1,0))"), &l("(2,3):(2,0)")),
        "\
composition((4,(2,1)):(2,(1,0)), (2,3):(2,0))
  A' = coalesce_x(A) = (4,2,2):(2,1,0)
  B = (2,3):(2,0), by mode:
    get<0>(B) = 2:2:
      4:2, rest 2:2: 2 < 4; take min(ceil_div(4,2),2) = 2 -> 2:4; rest 1:1
      2:1, rest 1:1: 1 < 2; nothing left; rest 1:1
      2:0 (last): nothing left
      = 2:4
    get<1>(B) = 3:0:
      stride 0: -> 3:0
      = 3:0
=> (2,3):(4,0)",
    );
    // A coalesces to one mode; B is one mode.
    check(
        explain_composition(&l("(4,2):(1,4)"), &l("4:2")),
        "\
composition((4,2):(1,4), 4:2)
  A' = coalesce_x(A) = 8:1
  B = 4:2:
    A' is the one mode 8:1: stride 2*1 -> 4:2
=> 4:2",
    );
    // The stride that passes whole modes: 3:8 through (4,2,3):(2,1,8).
    check(
        explain_composition(&l("(4,2,3):(2,1,8)"), &l("3:8")),
        "\
composition((4,2,3):(2,1,8), 3:8)
  A' = coalesce_x(A) = (4,2,3):(2,1,8)
  B = 3:8:
    4:2, rest 3:8: 8 % 4 == 0; ceil_div(4,8) = 1, skip; rest 3:2
    2:1, rest 3:2: 2 % 2 == 0; ceil_div(2,2) = 1, skip; rest 3:1
    3:8 (last), rest 3:1 -> 3:8
=> 3:8",
    );
}

#[test]
fn composition_tiler_examples() {
    // By mode: (12,(4,8)):(59,(13,1)) o <3:4, 8:2>.
    check(
        explain_composition_tiler(
            &l("(12,(4,8)):(59,(13,1))"),
            &Tiler::Tuple(vec![t("3:4"), t("8:2")]),
        ),
        "\
composition((12,(4,8)):(59,(13,1)), (3:4,8:2))
  by mode:
    composition(12:59, 3:4)
      A' = coalesce_x(A) = 12:59
      B = 3:4:
        A' is the one mode 12:59: stride 4*59 -> 3:236
    => 3:236
    composition((4,8):(13,1), 8:2)
      A' = coalesce_x(A) = (4,8):(13,1)
      B = 8:2:
        4:13, rest 8:2: 2 < 4; take min(ceil_div(4,2),8) = 2 -> 2:26; rest 4:1
        8:1 (last), rest 4:1 -> 4:1
    => (2,4):(26,1)
=> (3,(2,4)):(236,(26,1))",
    );
    // An integer: the layout 8:1.
    check(
        explain_composition_tiler(&l("(4,8):(8,1)"), &Tiler::Int(8)),
        "\
composition((4,8):(8,1), 8)
  B = 8 means the layout 8:1
  A' = coalesce_x(A) = (4,8):(8,1)
  B = 8:1:
    4:8, rest 8:1: 1 < 4; take min(ceil_div(4,1),8) = 4 -> 4:8; rest 2:1
    8:1 (last), rest 2:1 -> 2:1
=> (4,2):(8,1)",
    );
    // `_` keeps a mode, an integer takes the first elements, a mode past the tiler drops.
    check(
        explain_composition_tiler(
            &l("(4,8,2):(1,4,32)"),
            &Tiler::Tuple(vec![Tiler::Under, Tiler::Int(2)]),
        ),
        "\
composition((4,8,2):(1,4,32), (_,2))
  by mode:
    composition(4:1, _)
      _ keeps A
    => 4:1
    composition(8:4, 2)
      B = 2 means the layout 2:1
      A' = coalesce_x(A) = 8:4
      B = 2:1:
        A' is the one mode 8:4: stride 1*4 -> 2:4
    => 2:4
    get<2>(A) = 2:32, dropped
=> (4,2):(1,4)",
    );
    // A layout tiler is the plain composition.
    check(
        explain_composition_tiler(&l("(6,2):(8,2)"), &t("(4,3):(3,1)")),
        COMPOSITION_DOCS,
    );
}

const COMPLEMENT_DOCS: &str = "\
complement((2,2):(1,6), 24)
  filter(A) = (2,2):(1,6)
  mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2
  mode 2:6 (last): 6/2 = 3, next stride 6*2 = 12
  rest: coalesce(ceil_div(24,12)) = 2 -> 2:12
  coalesce(((1,3),2):((1,2),12)) = (3,2):(2,12)
=> (3,2):(2,12)";

#[test]
fn complement_examples() {
    // CuTe's docs: complement((2,2):(1,6), 24) = (3,2):(2,12).
    check(
        explain_complement(&l("(2,2):(1,6)"), Some(&IntTuple::Int(24))),
        COMPLEMENT_DOCS,
    );
    // complement((4,2):(2,1), 24) = 3:8.
    check(
        explain_complement(&l("(4,2):(2,1)"), Some(&IntTuple::Int(24))),
        "\
complement((4,2):(2,1), 24)
  filter(A) = (4,2):(2,1)
  mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2
  mode 4:2 (last): 2/2 = 1, next stride 2*4 = 8
  rest: coalesce(ceil_div(24,8)) = 3 -> 3:8
  coalesce(((1,1),3):((1,2),8)) = 3:8
=> 3:8",
    );
    // The default cotarget, cosize(filter(A)) = 1 + 1*1 + 3*6 = 20.
    check(
        explain_complement(&l("(2,4):(1,6)"), None),
        "\
complement((2,4):(1,6))
  filter(A) = (2,4):(1,6)
  cotarget = cosize(filter(A)) = 20
  mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2
  mode 4:6 (last): 6/2 = 3, next stride 6*4 = 24
  rest: coalesce(ceil_div(20,24)) = 1 -> 1:0
  coalesce(((1,3),1):((1,2),0)) = 3:2
=> 3:2",
    );
    // A stride-0 layout filters to 1:0: the complement is the whole cotarget.
    check(
        explain_complement(&l("4:0"), Some(&IntTuple::Int(8))),
        "\
complement(4:0, 8)
  filter(A) = 1:0
  stride 0: make_layout(coalesce(8)) = 8:1
=> 8:1",
    );
    // A division C++ truncates (3/2), and a shape as the cotarget.
    check(
        explain_complement(&l("(2,3):(1,3)"), Some(&it("(6,3)"))),
        "\
complement((2,3):(1,3), (6,3))
  filter(A) = (2,3):(1,3)
  mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2
  mode 3:3 (last): 3/2 = 1 (truncated), next stride 3*3 = 9
  rest: coalesce(ceil_div((6,3),9)) = 2 -> 2:9
  coalesce(((1,1),2):((1,2),9)) = 2:9
=> 2:9",
    );
}

const DIVIDE_DOCS: &str = "\
logical_divide((4,2,3):(2,1,8), 4:2)
  = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))
  shape(coalesce(A)) = (4,2,3)
  complement(4:2, (4,2,3))
    filter(A) = 4:2
    mode 4:2 (last): 2/1 = 2, next stride 2*4 = 8
    rest: coalesce(ceil_div((4,2,3),8)) = 3 -> 3:8
    coalesce(((2),3):((1),8)) = (2,3):(1,8)
  => (2,3):(1,8)
  make_layout(B, (2,3):(1,8)) = (4,(2,3)):(2,(1,8))
  composition((4,2,3):(2,1,8), (4,(2,3)):(2,(1,8)))
    A' = coalesce_x(A) = (4,2,3):(2,1,8)
    B = (4,(2,3)):(2,(1,8)), by mode:
      get<0>(B) = 4:2:
        4:2, rest 4:2: 2 < 4; take min(ceil_div(4,2),4) = 2 -> 2:4; rest 2:1
        2:1, rest 2:1: 1 < 2; take min(ceil_div(2,1),2) = 2 -> 2:1; rest 1:1
        3:8 (last): nothing left
        = (2,2):(4,1)
      get<1>(B) = (2,3):(1,8), by mode:
        get<1,0>(B) = 2:1:
          4:2, rest 2:1: 1 < 4; take min(ceil_div(4,1),2) = 2 -> 2:2; rest 1:1
          2:1, rest 1:1: 1 < 2; nothing left; rest 1:1
          3:8 (last): nothing left
          = 2:2
        get<1,1>(B) = 3:8:
          4:2, rest 3:8: 8 % 4 == 0; ceil_div(4,8) = 1, skip; rest 3:2
          2:1, rest 3:2: 2 % 2 == 0; ceil_div(2,2) = 1, skip; rest 3:1
          3:8 (last), rest 3:1 -> 3:8
          = 3:8
        = (2,3):(2,8)
  => ((2,2),(2,3)):((4,1),(2,8))
=> ((2,2),(2,3)):((4,1),(2,8))";

const DIVIDE_BY_MODE: &str = "\
logical_divide((9,(4,8)):(59,(13,1)), (3:3,(2,4):(1,8)))
  by mode:
    logical_divide(9:59, 3:3)
      = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))
      shape(coalesce(A)) = 9
      complement(3:3, 9)
        filter(A) = 3:3
        mode 3:3 (last): 3/1 = 3, next stride 3*3 = 9
        rest: coalesce(ceil_div(9,9)) = 1 -> 1:0
        coalesce(((3),1):((1),0)) = 3:1
      => 3:1
      make_layout(B, 3:1) = (3,3):(3,1)
      composition(9:59, (3,3):(3,1))
        A' = coalesce_x(A) = 9:59
        B = (3,3):(3,1), by mode:
          get<0>(B) = 3:3:
            A' is the one mode 9:59: stride 3*59 -> 3:177
            = 3:177
          get<1>(B) = 3:1:
            A' is the one mode 9:59: stride 1*59 -> 3:59
            = 3:59
      => (3,3):(177,59)
    => (3,3):(177,59)
    logical_divide((4,8):(13,1), (2,4):(1,8))
      = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))
      shape(coalesce(A)) = (4,8)
      complement((2,4):(1,8), (4,8))
        filter(A) = (2,4):(1,8)
        mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2
        mode 4:8 (last): 8/2 = 4, next stride 8*4 = 32
        rest: coalesce(ceil_div((4,8),32)) = 1 -> 1:0
        coalesce(((1,4),1):((1,2),0)) = 4:2
      => 4:2
      make_layout(B, 4:2) = ((2,4),4):((1,8),2)
      composition((4,8):(13,1), ((2,4),4):((1,8),2))
        A' = coalesce_x(A) = (4,8):(13,1)
        B = ((2,4),4):((1,8),2), by mode:
          get<0>(B) = (2,4):(1,8), by mode:
            get<0,0>(B) = 2:1:
              4:13, rest 2:1: 1 < 4; take min(ceil_div(4,1),2) = 2 -> 2:13; rest 1:1
              8:1 (last): nothing left
              = 2:13
            get<0,1>(B) = 4:8:
              4:13, rest 4:8: 8 % 4 == 0; ceil_div(4,8) = 1, skip; rest 4:2
              8:1 (last), rest 4:2 -> 4:2
              = 4:2
            = (2,4):(13,2)
          get<1>(B) = 4:2:
            4:13, rest 4:2: 2 < 4; take min(ceil_div(4,2),4) = 2 -> 2:26; rest 2:1
            8:1 (last), rest 2:1 -> 2:1
            = (2,2):(26,1)
      => ((2,4),(2,2)):((13,2),(26,1))
    => ((2,4),(2,2)):((13,2),(26,1))
=> ((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))";

const DIVIDE_INT: &str = "\
logical_divide(16:1, 4)
  B = 4: make_layout(4) = 4:1
  = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))
  shape(coalesce(A)) = 16
  complement(4:1, 16)
    filter(A) = 4:1
    mode 4:1 (last): 1/1 = 1, next stride 1*4 = 4
    rest: coalesce(ceil_div(16,4)) = 4 -> 4:4
    coalesce(((1),4):((1),4)) = 4:4
  => 4:4
  make_layout(B, 4:4) = (4,4):(1,4)
  composition(16:1, (4,4):(1,4))
    A' = coalesce_x(A) = 16:1
    B = (4,4):(1,4), by mode:
      get<0>(B) = 4:1:
        A' is the one mode 16:1: stride 1*1 -> 4:1
        = 4:1
      get<1>(B) = 4:4:
        A' is the one mode 16:1: stride 4*1 -> 4:4
        = 4:4
  => (4,4):(1,4)
=> (4,4):(1,4)";

const DIVIDE_UNDER: &str = "\
logical_divide((8,6):(1,8), (_,2:3))
  by mode:
    logical_divide(8:1, _)
      _ keeps A
    => 8:1
    logical_divide(6:8, 2:3)
      = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))
      shape(coalesce(A)) = 6
      complement(2:3, 6)
        filter(A) = 2:3
        mode 2:3 (last): 3/1 = 3, next stride 3*2 = 6
        rest: coalesce(ceil_div(6,6)) = 1 -> 1:0
        coalesce(((3),1):((1),0)) = 3:1
      => 3:1
      make_layout(B, 3:1) = (2,3):(3,1)
      composition(6:8, (2,3):(3,1))
        A' = coalesce_x(A) = 6:8
        B = (2,3):(3,1), by mode:
          get<0>(B) = 2:3:
            A' is the one mode 6:8: stride 3*8 -> 2:24
            = 2:24
          get<1>(B) = 3:1:
            A' is the one mode 6:8: stride 1*8 -> 3:8
            = 3:8
      => (2,3):(24,8)
    => (2,3):(24,8)
=> (8,(2,3)):(1,(24,8))";

fn by_mode_tiler() -> Tiler {
    Tiler::Tuple(vec![t("3:3"), t("(2,4):(1,8)")])
}

#[test]
fn logical_divide_examples() {
    // CuTe's docs: logical_divide((4,2,3):(2,1,8), 4:2) = ((2,2),(2,3)):((4,1),(2,8)).
    check(
        explain_logical_divide(&l("(4,2,3):(2,1,8)"), &t("4:2")),
        DIVIDE_DOCS,
    );
    // The docs' 2-D one: (9,(4,8)):(59,(13,1)) by the tiler <3:3, (2,4):(1,8)>.
    check(
        explain_logical_divide(&l("(9,(4,8)):(59,(13,1))"), &by_mode_tiler()),
        DIVIDE_BY_MODE,
    );
    check(
        explain_logical_divide(&l("16:1"), &Tiler::Int(4)),
        DIVIDE_INT,
    );
    check(
        explain_logical_divide(
            &l("(8,6):(1,8)"),
            &Tiler::Tuple(vec![Tiler::Under, t("2:3")]),
        ),
        DIVIDE_UNDER,
    );
}

/// A regrouped divide or product: its heading, the logical one nested, the regrouping.
fn regrouped(head: &str, what: &str, logical: &str, tail: &str) -> String {
    format!(
        "{head}\n  L = {what}(A, B); Z = tile_unzip(L, B): the tiles in mode 0, the rests in mode 1\n{}\n{tail}",
        nested(logical)
    )
}

#[test]
fn zipped_tiled_flat_divide_examples() {
    let a = l("(4,2,3):(2,1,8)");
    let b = t("4:2");
    let zip = "  tile_unzip(L, B) = ((2,2),(2,3)):((4,1),(2,8))";
    check(
        explain_zipped_divide(&a, &b),
        &regrouped(
            "zipped_divide((4,2,3):(2,1,8), 4:2)",
            "logical_divide",
            DIVIDE_DOCS,
            &format!("{zip}\n=> ((2,2),(2,3)):((4,1),(2,8))"),
        ),
    );
    check(
        explain_tiled_divide(&a, &b),
        &regrouped(
            "tiled_divide((4,2,3):(2,1,8), 4:2)",
            "logical_divide",
            DIVIDE_DOCS,
            &format!(
                "{zip}\n  Z(_,repeat<2>(_)) = ((2,2),2,3):((4,1),2,8)\n=> ((2,2),2,3):((4,1),2,8)"
            ),
        ),
    );
    check(
        explain_flat_divide(&a, &b),
        &regrouped(
            "flat_divide((4,2,3):(2,1,8), 4:2)",
            "logical_divide",
            DIVIDE_DOCS,
            &format!(
                "{zip}\n  Z(repeat<2>(_),repeat<2>(_)) = (2,2,2,3):(4,1,2,8)\n=> (2,2,2,3):(4,1,2,8)"
            ),
        ),
    );

    // The docs' 2-D one (the crate's doc examples of the three).
    let a = l("(9,(4,8)):(59,(13,1))");
    let b = by_mode_tiler();
    let zip = "  tile_unzip(L, B) = ((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))";
    let head = "(9,(4,8)):(59,(13,1)), (3:3,(2,4):(1,8)))";
    check(
        explain_zipped_divide(&a, &b),
        &regrouped(
            &format!("zipped_divide({head}"),
            "logical_divide",
            DIVIDE_BY_MODE,
            &format!("{zip}\n=> ((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))"),
        ),
    );
    check(
        explain_tiled_divide(&a, &b),
        &regrouped(
            &format!("tiled_divide({head}"),
            "logical_divide",
            DIVIDE_BY_MODE,
            &format!(
                "{zip}\n  Z(_,repeat<2>(_)) = ((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))\n=> ((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))"
            ),
        ),
    );
    check(
        explain_flat_divide(&a, &b),
        &regrouped(
            &format!("flat_divide({head}"),
            "logical_divide",
            DIVIDE_BY_MODE,
            &format!(
                "{zip}\n  Z(repeat<2>(_),repeat<2>(_)) = (3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))\n=> (3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))"
            ),
        ),
    );

    // An integer tiler: the rank-1 rest mode unpacks as `_`.
    let a = l("16:1");
    let b = Tiler::Int(4);
    let zip = "  tile_unzip(L, B) = (4,4):(1,4)";
    check(
        explain_zipped_divide(&a, &b),
        &regrouped(
            "zipped_divide(16:1, 4)",
            "logical_divide",
            DIVIDE_INT,
            &format!("{zip}\n=> (4,4):(1,4)"),
        ),
    );
    check(
        explain_tiled_divide(&a, &b),
        &regrouped(
            "tiled_divide(16:1, 4)",
            "logical_divide",
            DIVIDE_INT,
            &format!("{zip}\n  Z(_,_) = (4,4):(1,4)\n=> (4,4):(1,4)"),
        ),
    );
    check(
        explain_flat_divide(&a, &b),
        &regrouped(
            "flat_divide(16:1, 4)",
            "logical_divide",
            DIVIDE_INT,
            &format!("{zip}\n  Z(_,_) = (4,4):(1,4)\n=> (4,4):(1,4)"),
        ),
    );

    // A `_` tiler mode leaves a mode that zip2_by cannot split: C++'s static_assert, the
    // crate's error, and the explanation's, the same.
    let a = l("(8,6):(1,8)");
    let b = Tiler::Tuple(vec![Tiler::Under, t("2:3")]);
    let want = alg::zipped_divide(&a, &b).unwrap_err();
    assert_eq!(explain_zipped_divide(&a, &b).unwrap_err(), want);
    assert_eq!(
        explain_tiled_divide(&a, &b).unwrap_err(),
        alg::tiled_divide(&a, &b).unwrap_err()
    );
    assert_eq!(
        explain_flat_divide(&a, &b).unwrap_err(),
        alg::flat_divide(&a, &b).unwrap_err()
    );
}

const PRODUCT_DOCS: &str = "\
logical_product((2,2):(4,1), 6:1)
  = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))
  size(A)*cosize(B) = 4*6 = 24
  complement((2,2):(4,1), 24)
    filter(A) = (2,2):(4,1)
    mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2
    mode 2:4 (last): 4/2 = 2, next stride 4*2 = 8
    rest: coalesce(ceil_div(24,8)) = 3 -> 3:8
    coalesce(((1,2),3):((1,2),8)) = (2,3):(2,8)
  => (2,3):(2,8)
  composition((2,3):(2,8), 6:1)
    A' = coalesce_x(A) = (2,3):(2,8)
    B = 6:1:
      2:2, rest 6:1: 1 < 2; take min(ceil_div(2,1),6) = 2 -> 2:2; rest 3:1
      3:8 (last), rest 3:1 -> 3:8
  => (2,3):(2,8)
  make_layout(A, (2,3):(2,8)) = ((2,2),(2,3)):((4,1),(2,8))
=> ((2,2),(2,3)):((4,1),(2,8))";

const PRODUCT_2D: &str = "\
logical_product((2,5):(5,1), (3,4):(1,3))
  = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))
  size(A)*cosize(B) = 10*12 = 120
  complement((2,5):(5,1), 120)
    filter(A) = (2,5):(5,1)
    mode 5:1 (smallest stride): 1/1 = 1, next stride 1*5 = 5
    mode 2:5 (last): 5/5 = 1, next stride 5*2 = 10
    rest: coalesce(ceil_div(120,10)) = 12 -> 12:10
    coalesce(((1,1),12):((1,5),10)) = 12:10
  => 12:10
  composition(12:10, (3,4):(1,3))
    A' = coalesce_x(A) = 12:10
    B = (3,4):(1,3), by mode:
      get<0>(B) = 3:1:
        A' is the one mode 12:10: stride 1*10 -> 3:10
        = 3:10
      get<1>(B) = 4:3:
        A' is the one mode 12:10: stride 3*10 -> 4:30
        = 4:30
  => (3,4):(10,30)
  make_layout(A, (3,4):(10,30)) = ((2,5),(3,4)):((5,1),(10,30))
=> ((2,5),(3,4)):((5,1),(10,30))";

const PRODUCT_BY_MODE: &str = "\
logical_product((2,3):(1,2), (4:4))
  by mode:
    logical_product(2:1, 4:4)
      = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))
      size(A)*cosize(B) = 2*13 = 26
      complement(2:1, 26)
        filter(A) = 2:1
        mode 2:1 (last): 1/1 = 1, next stride 1*2 = 2
        rest: coalesce(ceil_div(26,2)) = 13 -> 13:2
        coalesce(((1),13):((1),2)) = 13:2
      => 13:2
      composition(13:2, 4:4)
        A' = coalesce_x(A) = 13:2
        B = 4:4:
          A' is the one mode 13:2: stride 4*2 -> 4:8
      => 4:8
      make_layout(A, 4:8) = (2,4):(1,8)
    => (2,4):(1,8)
    get<1>(A) = 3:2, kept
=> ((2,4),3):((1,8),2)";

const PRODUCT_INT: &str = "\
logical_product(2:1, 3)
  B = 3: make_layout(3) = 3:1
  = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))
  size(A)*cosize(B) = 2*3 = 6
  complement(2:1, 6)
    filter(A) = 2:1
    mode 2:1 (last): 1/1 = 1, next stride 1*2 = 2
    rest: coalesce(ceil_div(6,2)) = 3 -> 3:2
    coalesce(((1),3):((1),2)) = 3:2
  => 3:2
  composition(3:2, 3:1)
    A' = coalesce_x(A) = 3:2
    B = 3:1:
      A' is the one mode 3:2: stride 1*2 -> 3:2
  => 3:2
  make_layout(A, 3:2) = (2,3):(1,2)
=> (2,3):(1,2)";

#[test]
fn logical_product_examples() {
    // CuTe's docs: logical_product((2,2):(4,1), 6:1) = ((2,2),(2,3)):((4,1),(2,8)).
    check(
        explain_logical_product(&l("(2,2):(4,1)"), &t("6:1")),
        PRODUCT_DOCS,
    );
    check(
        explain_logical_product(&l("(2,5):(5,1)"), &t("(3,4):(1,3)")),
        PRODUCT_2D,
    );
    check(
        explain_logical_product(&l("(2,3):(1,2)"), &Tiler::Tuple(vec![t("4:4")])),
        PRODUCT_BY_MODE,
    );
    check(
        explain_logical_product(&l("2:1"), &Tiler::Int(3)),
        PRODUCT_INT,
    );
}

#[test]
fn zipped_tiled_flat_product_examples() {
    type Ex = fn(&Layout, &Tiler) -> Result<Explanation>;
    let cases: [(&str, Tiler, &str, [&str; 4]); 3] = [
        (
            "(2,2):(4,1)",
            t("6:1"),
            PRODUCT_DOCS,
            [
                "((2,2),(2,3)):((4,1),(2,8))",
                "((2,2),(2,3)):((4,1),(2,8))",
                "Z(_,repeat<2>(_)) = ((2,2),2,3):((4,1),2,8)",
                "Z(repeat<2>(_),repeat<2>(_)) = (2,2,2,3):(4,1,2,8)",
            ],
        ),
        (
            "(2,3):(1,2)",
            Tiler::Tuple(vec![t("4:4")]),
            PRODUCT_BY_MODE,
            [
                // zip2_by: mode 0 of the product splits into (2) and (4); mode 1 joins the rest.
                "((2),(4,3)):((1),(8,2))",
                "((2),(4,3)):((1),(8,2))",
                "Z(_,repeat<2>(_)) = ((2),4,3):((1),8,2)",
                "Z(_,repeat<2>(_)) = ((2),4,3):((1),8,2)",
            ],
        ),
        (
            "2:1",
            Tiler::Int(3),
            PRODUCT_INT,
            [
                "(2,3):(1,2)",
                "(2,3):(1,2)",
                "Z(_,_) = (2,3):(1,2)",
                "Z(_,_) = (2,3):(1,2)",
            ],
        ),
    ];
    for (a, b, logical, [zipped, zipped_result, tiled, flat]) in cases {
        let a = l(a);
        let zip = format!("  tile_unzip(L, B) = {zipped}");
        let result = |line: &str| line.rsplit(" = ").next().unwrap().to_string();
        let ops: [(&str, Ex, String); 3] = [
            (
                "zipped_product",
                explain_zipped_product,
                format!("{zip}\n=> {zipped_result}"),
            ),
            (
                "tiled_product",
                explain_tiled_product,
                format!("{zip}\n  {tiled}\n=> {}", result(tiled)),
            ),
            (
                "flat_product",
                explain_flat_product,
                format!("{zip}\n  {flat}\n=> {}", result(flat)),
            ),
        ];
        for (name, f, tail) in ops {
            let head = format!("{name}({a}, {b})");
            check(
                f(&a, &b),
                &regrouped(&head, "logical_product", logical, &tail),
            );
        }
    }
}

#[test]
fn blocked_and_raked_product_examples() {
    let head = |name: &str, a: &str, b: &str, first: usize| {
        format!(
            "{name}({a}, {b})\n  = zip(get<{first}>(L), get<{}>(L)), L = logical_product(append<R>(A), append<R>(B))\n  R = max(rank(A), rank(B)) = 2",
            1 - first
        )
    };
    // CuTe's docs: (2,5):(5,1) and (3,4):(1,3).
    let (a, b) = (l("(2,5):(5,1)"), l("(3,4):(1,3)"));
    check(
        explain_blocked_product(&a, &b),
        &format!(
            "{}\n{}\n  zip((2,5):(5,1), (3,4):(10,30)) = ((2,3),(5,4)):((5,10),(1,30))\n=> ((2,3),(5,4)):((5,10),(1,30))",
            head("blocked_product", "(2,5):(5,1)", "(3,4):(1,3)", 0),
            nested(PRODUCT_2D)
        ),
    );
    check(
        explain_raked_product(&a, &b),
        &format!(
            "{}\n{}\n  zip((3,4):(10,30), (2,5):(5,1)) = ((3,2),(4,5)):((10,5),(30,1))\n=> ((3,2),(4,5)):((10,5),(30,1))",
            head("raked_product", "(2,5):(5,1)", "(3,4):(1,3)", 1),
            nested(PRODUCT_2D)
        ),
    );

    // A block of rank 1 padded with 1:0.
    let padded_a = "\
logical_product((4,1):(1,0), (2,3):(1,2))
  = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))
  size(A)*cosize(B) = 4*6 = 24
  complement((4,1):(1,0), 24)
    filter(A) = 4:1
    mode 4:1 (last): 1/1 = 1, next stride 1*4 = 4
    rest: coalesce(ceil_div(24,4)) = 6 -> 6:4
    coalesce(((1),6):((1),4)) = 6:4
  => 6:4
  composition(6:4, (2,3):(1,2))
    A' = coalesce_x(A) = 6:4
    B = (2,3):(1,2), by mode:
      get<0>(B) = 2:1:
        A' is the one mode 6:4: stride 1*4 -> 2:4
        = 2:4
      get<1>(B) = 3:2:
        A' is the one mode 6:4: stride 2*4 -> 3:8
        = 3:8
  => (2,3):(4,8)
  make_layout(A, (2,3):(4,8)) = ((4,1),(2,3)):((1,0),(4,8))
=> ((4,1),(2,3)):((1,0),(4,8))";
    let (a, b) = (l("4:1"), l("(2,3):(1,2)"));
    for (name, first, zip) in [
        (
            "blocked_product",
            0,
            "zip((4,1):(1,0), (2,3):(4,8)) = ((4,2),(1,3)):((1,4),(0,8))",
        ),
        (
            "raked_product",
            1,
            "zip((2,3):(4,8), (4,1):(1,0)) = ((2,4),(3,1)):((4,1),(8,0))",
        ),
    ] {
        let e = if first == 0 {
            explain_blocked_product(&a, &b)
        } else {
            explain_raked_product(&a, &b)
        };
        check(
            e,
            &format!(
                "{}\n  append<2>(A) = (4,1):(1,0)\n{}\n  {zip}\n=> {}",
                head(name, "4:1", "(2,3):(1,2)", first),
                nested(padded_a),
                zip.rsplit(" = ").next().unwrap()
            ),
        );
    }

    // A tiler of rank 1 padded with 1:0 (its stride-0 mode composes as is).
    let padded_b = "\
logical_product((2,2):(1,2), (3,1):(1,0))
  = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))
  size(A)*cosize(B) = 4*3 = 12
  complement((2,2):(1,2), 12)
    filter(A) = 4:1
    mode 4:1 (last): 1/1 = 1, next stride 1*4 = 4
    rest: coalesce(ceil_div(12,4)) = 3 -> 3:4
    coalesce(((1),3):((1),4)) = 3:4
  => 3:4
  composition(3:4, (3,1):(1,0))
    A' = coalesce_x(A) = 3:4
    B = (3,1):(1,0), by mode:
      get<0>(B) = 3:1:
        A' is the one mode 3:4: stride 1*4 -> 3:4
        = 3:4
      get<1>(B) = 1:0:
        stride 0: -> 1:0
        = 1:0
  => (3,1):(4,0)
  make_layout(A, (3,1):(4,0)) = ((2,2),(3,1)):((1,2),(4,0))
=> ((2,2),(3,1)):((1,2),(4,0))";
    let (a, b) = (l("(2,2):(1,2)"), l("3:1"));
    for (name, first, zip) in [
        (
            "blocked_product",
            0,
            "zip((2,2):(1,2), (3,1):(4,0)) = ((2,3),(2,1)):((1,4),(2,0))",
        ),
        (
            "raked_product",
            1,
            "zip((3,1):(4,0), (2,2):(1,2)) = ((3,2),(1,2)):((4,1),(0,2))",
        ),
    ] {
        let e = if first == 0 {
            explain_blocked_product(&a, &b)
        } else {
            explain_raked_product(&a, &b)
        };
        check(
            e,
            &format!(
                "{}\n  append<2>(B) = (3,1):(1,0)\n{}\n  {zip}\n=> {}",
                head(name, "(2,2):(1,2)", "3:1", first),
                nested(padded_b),
                zip.rsplit(" = ").next().unwrap()
            ),
        );
    }
}

#[test]
fn coalesce_examples() {
    check(
        explain_coalesce(&l("(2,(1,6)):(1,(6,2))"), None),
        "\
coalesce((2,(1,6)):(1,(6,2)))
  flatten(A) = (2,1,6):(1,6,2)
  start from the last mode 6:2
  1:6: size 1, dropped
  2:1: 2*1 == 2, merge -> 12:1
=> 12:1",
    );
    check(
        explain_coalesce(&l("((2,4),(3,2)):((1,2),(8,24))"), Some(&it("(1,1)"))),
        "\
coalesce(((2,4),(3,2)):((1,2),(8,24)), (1,1))
  by mode of the profile:
    coalesce((2,4):(1,2), 1)
      flatten(A) = (2,4):(1,2)
      start from the last mode 4:2
      2:1: 2*1 == 2, merge -> 8:1
    => 8:1
    coalesce((3,2):(8,24), 1)
      flatten(A) = (3,2):(8,24)
      start from the last mode 2:24
      3:8: 3*8 == 24, merge -> 6:8
    => 6:8
=> (8,6):(1,8)",
    );
    // Without the profile the same layout is one mode.
    check(
        explain_coalesce(&l("((2,4),(3,2)):((1,2),(8,24))"), None),
        "\
coalesce(((2,4),(3,2)):((1,2),(8,24)))
  flatten(A) = (2,4,3,2):(1,2,8,24)
  start from the last mode 2:24
  3:8: 3*8 == 24, merge -> 6:8
  4:2: 4*2 == 8, merge -> 24:2
  2:1: 2*1 == 2, merge -> 48:1
=> 48:1",
    );
    check(
        explain_coalesce(&l("(4,1,2):(1,0,8)"), None),
        "\
coalesce((4,1,2):(1,0,8))
  flatten(A) = (4,1,2):(1,0,8)
  start from the last mode 2:8
  1:0: size 1, dropped
  4:1: 4*1 != 8, prepend -> (4,2):(1,8)
=> (4,2):(1,8)",
    );
    // A size-1 start is replaced; all size 1 is 1:0.
    check(
        explain_coalesce(&l("((2,1),(1,1)):((3,5),(6,7))"), None),
        "\
coalesce(((2,1),(1,1)):((3,5),(6,7)))
  flatten(A) = (2,1,1,1):(3,5,6,7)
  start from the last mode 1:7
  1:6: size 1, dropped
  1:5: size 1, dropped
  2:3: replaces the size-1 mode -> 2:3
=> 2:3",
    );
    check(
        explain_coalesce(&l("(1,1):(3,5)"), None),
        "\
coalesce((1,1):(3,5))
  flatten(A) = (1,1):(3,5)
  start from the last mode 1:5
  1:3: size 1, dropped
  size 1: 1:0
=> 1:0",
    );
}

#[test]
fn right_inverse_examples() {
    check(
        explain_right_inverse(&l("(4,8):(8,1)")),
        "\
right_inverse((4,8):(8,1))
  coalesce(A) = (4,8):(8,1)
  prefix products of (4,8): (1,4,32)
  strides sorted: 1 (mode 1), 8 (mode 0)
  mode 1, 8:1: stride 1 == curr 1 -> (1,8):(0,4); curr 8
  mode 0, 4:8: stride 8 == curr 8 -> (1,8,4):(0,4,1); curr 32
  coalesce((1,8,4):(0,4,1)) = (8,4):(4,1)
=> (8,4):(4,1)",
    );
    check(
        explain_right_inverse(&l("(2,3):(3,1)")),
        "\
right_inverse((2,3):(3,1))
  coalesce(A) = (2,3):(3,1)
  prefix products of (2,3): (1,2,6)
  strides sorted: 1 (mode 1), 3 (mode 0)
  mode 1, 3:1: stride 1 == curr 1 -> (1,3):(0,2); curr 3
  mode 0, 2:3: stride 3 == curr 3 -> (1,3,2):(0,2,1); curr 6
  coalesce((1,3,2):(0,2,1)) = (3,2):(2,1)
=> (3,2):(2,1)",
    );
    // Not onto: the inverse stops at the first gap.
    check(
        explain_right_inverse(&l("(4,2):(1,8)")),
        "\
right_inverse((4,2):(1,8))
  coalesce(A) = (4,2):(1,8)
  prefix products of (4,2): (1,4,8)
  strides sorted: 1 (mode 0), 8 (mode 1)
  mode 0, 4:1: stride 1 == curr 1 -> (1,4):(0,1); curr 4
  mode 1, 2:8: stride 8 != curr 4, skipped
  coalesce((1,4):(0,1)) = 4:1
=> 4:1",
    );
    check(
        explain_right_inverse(&l("(2,4):(0,1)")),
        "\
right_inverse((2,4):(0,1))
  coalesce(A) = (2,4):(0,1)
  prefix products of (2,4): (1,2,8)
  strides sorted: 0 (mode 0), 1 (mode 1)
  mode 0, 2:0: stride 0 != curr 1, skipped
  mode 1, 4:1: stride 1 == curr 1 -> (1,4):(0,2); curr 4
  coalesce((1,4):(0,2)) = 4:2
=> 4:2",
    );
}

#[test]
fn left_inverse_examples() {
    check(
        explain_left_inverse(&l("(8,5,2):(40,4,20)")),
        "\
left_inverse((8,5,2):(40,4,20))
  coalesce(A) = (8,10):(40,4)
  prefix products of (8,10): (1,8,80)
  strides sorted: 4 (mode 1), 40 (mode 0)
  mode 1, 10:4: 4 % 1 == 0; 4/1 = 4; shape (4), stride (0,8); size 4
  mode 0, 8:40: 40 % 4 == 0; 40/4 = 10; shape (4,10), stride (0,8,1); size 40
  last by stride, mode 0: its shape 8 closes the shape (4,10,8)
  coalesce((4,10,8):(0,8,1)) = (4,10,8):(0,8,1)
=> (4,10,8):(0,8,1)",
    );
    check(
        explain_left_inverse(&l("(4,8):(8,1)")),
        "\
left_inverse((4,8):(8,1))
  coalesce(A) = (4,8):(8,1)
  prefix products of (4,8): (1,4,32)
  strides sorted: 1 (mode 1), 8 (mode 0)
  mode 1, 8:1: 1 % 1 == 0; 1/1 = 1; shape (1), stride (0,4); size 1
  mode 0, 4:8: 8 % 1 == 0; 8/1 = 8; shape (1,8), stride (0,4,1); size 8
  last by stride, mode 0: its shape 4 closes the shape (1,8,4)
  coalesce((1,8,4):(0,4,1)) = (8,4):(4,1)
=> (8,4):(4,1)",
    );
    check(
        explain_left_inverse(&l("(2,4):(0,1)")),
        "\
left_inverse((2,4):(0,1))
  coalesce(A) = (2,4):(0,1)
  prefix products of (2,4): (1,2,8)
  strides sorted: 0 (mode 0), 1 (mode 1)
  mode 0, 2:0: stride 0, skipped
  mode 1, 4:1: 1 % 1 == 0; 1/1 = 1; shape (1), stride (0,2); size 1
  last by stride, mode 1: its shape 4 closes the shape (1,4)
  coalesce((1,4):(0,2)) = 4:2
=> 4:2",
    );
    // Not onto: the gaps map to 0.
    check(
        explain_left_inverse(&l("4:2")),
        "\
left_inverse(4:2)
  coalesce(A) = 4:2
  prefix products of (4): (1,4)
  strides sorted: 2 (mode 0)
  mode 0, 4:2: 2 % 1 == 0; 2/1 = 2; shape (2), stride (0,1); size 2
  last by stride, mode 0: its shape 4 closes the shape (2,4)
  coalesce((2,4):(0,1)) = (2,4):(0,1)
=> (2,4):(0,1)",
    );
}

#[test]
fn errors_are_the_functions_errors() {
    let same = |got: Result<Explanation>, want: Result<Layout>| {
        let want: Error = want.unwrap_err();
        assert_eq!(got.unwrap_err(), want);
    };
    // Shape divisibility: 3 elements at stride 2 through 4:1 would take 2 of them.
    let a = l("(4,6):(1,10)");
    same(
        explain_composition(&a, &l("3:2")),
        alg::composition(&a, &l("3:2")),
    );
    // Stride divisibility: stride 6 against the mode of size 4.
    same(
        explain_composition(&a, &l("2:6")),
        alg::composition(&a, &l("2:6")),
    );
    same(
        explain_logical_divide(&a, &t("3:2")),
        alg::logical_divide(&a, &t("3:2")),
    );
    // A non-injective layout has no complement.
    let a = l("(2,2):(1,1)");
    same(
        explain_complement(&a, Some(&IntTuple::Int(4))),
        alg::complement(&a, Some(&IntTuple::Int(4))),
    );
    same(
        explain_logical_product(&a, &t("2:1")),
        alg::logical_product(&a, &t("2:1")),
    );
    // left_inverse's divisibility: stride 3 after a size of 2.
    let a = l("(2,2):(2,3)");
    same(explain_left_inverse(&a), alg::left_inverse(&a));
    // Too many tiler modes.
    let a = l("8:1");
    let b = Tiler::Tuple(vec![Tiler::Int(2), Tiler::Int(2)]);
    same(explain_logical_divide(&a, &b), alg::logical_divide(&a, &b));
    same(
        explain_composition_tiler(&a, &b),
        alg::composition_tiler(&a, &b),
    );
    // A profile with more modes than the layout.
    same(
        explain_coalesce(&a, Some(&it("(1,1)"))),
        alg::coalesce(&a, Some(&it("(1,1)"))),
    );
}

// ---------------------------------------------------------------------------------------
// Nested blocks are the real functions' derivations
// ---------------------------------------------------------------------------------------

/// Whether `outer` holds `inner`'s lines, nested `depth` levels, as one block.
fn holds(outer: &Explanation, inner: &Explanation, depth: usize) -> bool {
    let pad = "  ".repeat(depth);
    let want: Vec<String> = inner.lines.iter().map(|x| format!("{pad}{x}")).collect();
    outer
        .lines
        .windows(want.len())
        .any(|w| w == want.as_slice())
}

/// The `= X` line closing the block headed at `lines[at]`.
fn block_result(lines: &[String], at: usize) -> Option<String> {
    let indent = |s: &str| s.len() - s.trim_start().len();
    let k = indent(&lines[at]);
    let mut found = None;
    for x in &lines[at + 1..] {
        if indent(x) <= k {
            break;
        }
        if indent(x) == k + 2 && x.trim_start().starts_with("= ") {
            found = Some(x.trim_start()[2..].to_string());
        }
    }
    found
}

/// The checks of one derivation's intermediate results against the real functions.
fn check_intermediates(a: &Layout, b: &Layout) {
    // logical_divide: its complement and its composition are the real ones, and their
    // derivations appear whole.
    if let Ok(e) = explain_logical_divide(a, &Tiler::Layout(b.clone())) {
        let target = alg::coalesce(a, None).unwrap().shape().clone();
        let c = alg::complement(b, Some(&target)).unwrap();
        let whole = alg::make_layout(&[b.clone(), c.clone()]);
        assert!(e
            .lines
            .contains(&format!("  make_layout(B, {c}) = {whole}")));
        assert!(holds(&e, &explain_complement(b, Some(&target)).unwrap(), 1));
        assert!(holds(&e, &explain_composition(a, &whole).unwrap(), 1));
    }
    // logical_product likewise.
    if let Ok(e) = explain_logical_product(a, &Tiler::Layout(b.clone())) {
        // The kind of the cotarget follows C++'s: dynamic where the size or cosize is.
        let target = a
            .shape()
            .size_num()
            .unwrap()
            .mul(b.cosize_num().unwrap())
            .unwrap()
            .leaf();
        let c = alg::complement(a, Some(&target)).unwrap();
        let ec = explain_complement(a, Some(&target)).unwrap();
        assert!(holds(&e, &ec, 1), "{e}\n---\n{ec}");
        assert!(holds(&e, &explain_composition(&c, b).unwrap(), 1));
    }
    // composition: each top-level mode's block ends with composition(A, get<i>(B)).
    if let Ok(e) = explain_composition(a, b) {
        if b.rank() > 1 || matches!(b.shape(), IntTuple::Tuple(_)) {
            for (i, m) in b.modes().iter().enumerate() {
                let head = format!("    get<{i}>(B) = {m}");
                let at = e.lines.iter().position(|x| x.starts_with(&head)).unwrap();
                let want = alg::composition(a, m).unwrap();
                assert_eq!(block_result(&e.lines, at), Some(want.to_string()), "{e}");
            }
        }
    }
    // coalesce: the layout after each flat mode is the coalesce of the modes from there on.
    let e = explain_coalesce(a, None).unwrap();
    let flat = a.flatten();
    let (fs, fd) = (flat.shape().leaves(), flat.stride().leaves());
    let start = e
        .lines
        .iter()
        .position(|x| x.starts_with("  start from"))
        .unwrap();
    for (j, x) in e.lines[start + 1..e.lines.len() - 1].iter().enumerate() {
        let Some(cur) = x.split(" -> ").nth(1) else {
            continue;
        };
        let i = fs.len() - 2 - j;
        let suffix = Layout::new(IntTuple::ints(&fs[i..]), IntTuple::ints(&fd[i..])).unwrap();
        assert_eq!(
            alg::coalesce(&suffix, None).unwrap().to_string(),
            cur,
            "{e}"
        );
    }
    // complement: the coalesced layout of the last step is the result.
    if let Ok(e) = explain_complement(a, Some(&IntTuple::Int(64))) {
        let real = alg::complement(a, Some(&IntTuple::Int(64))).unwrap();
        let n = e.lines.len();
        assert!(e.lines[n - 2].ends_with(&format!(" = {real}")), "{e}");
    }
}

#[test]
fn nested_blocks_are_the_real_derivations() {
    let cases = [
        ("(4,2,3):(2,1,8)", "4:2"),
        ("(6,2):(8,2)", "(4,3):(3,1)"),
        ("(2,5):(5,1)", "(3,4):(1,3)"),
        ("(10,2):(16,4)", "(5,4):(1,5)"),
        ("((2,4),(3,2)):((1,2),(8,24))", "(2,(2,3)):(1,(4,8))"),
    ];
    for (a, b) in cases {
        check_intermediates(&l(a), &l(b));
    }
}

// ---------------------------------------------------------------------------------------
// The sweep
// ---------------------------------------------------------------------------------------

/// A tiny deterministic LCG (Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn leaf(&mut self, v: i64) -> IntTuple {
        // Now and then a dynamic integer, for CuTe's static-only branches.
        if self.below(10) == 0 {
            IntTuple::Dyn(v)
        } else {
            IntTuple::Int(v)
        }
    }
    /// A small shape: rank 1-3, depth ≤ 2, extents 1-6.
    fn shape(&mut self, depth: u32) -> IntTuple {
        if depth == 0 || self.below(3) == 0 {
            let v = 1 + self.below(6) as i64;
            return self.leaf(v);
        }
        let r = 1 + self.below(3);
        IntTuple::Tuple((0..r).map(|_| self.shape(depth - 1)).collect())
    }
    fn stride(&mut self, shape: &IntTuple, compact: bool) -> IntTuple {
        let n = shape.leaf_count();
        let mut v: Vec<i64> = if compact {
            // A compact layout in a random mode order, sometimes scaled.
            let leaves = shape.leaves();
            let mut order: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                order.swap(i, self.below(i as u64 + 1) as usize);
            }
            let scale = 1 + self.below(3) as i64;
            let mut d = vec![0; n];
            let mut cur = scale;
            for i in order {
                d[i] = cur;
                cur *= leaves[i];
            }
            d
        } else {
            (0..n)
                .map(|_| match self.below(12) {
                    0 => 0,
                    1 => -(1 + self.below(4) as i64),
                    _ => 1 + self.below(24) as i64,
                })
                .collect()
        };
        let mut it = v.drain(..);
        let d = shape.unflatten_like(&mut it);
        // The kinds of the stride's leaves: dynamic now and then.
        self.kinds(&d)
    }
    fn kinds(&mut self, t: &IntTuple) -> IntTuple {
        match t {
            IntTuple::Tuple(ts) => IntTuple::Tuple(ts.iter().map(|x| self.kinds(x)).collect()),
            leaf => {
                let v = leaf.as_int().unwrap();
                self.leaf(v)
            }
        }
    }
    fn layout(&mut self) -> Layout {
        let s = self.shape(2);
        let compact = self.below(2) == 0;
        let d = self.stride(&s, compact);
        Layout::new(s, d).unwrap()
    }
    fn tiler(&mut self, a: &Layout, depth: u32) -> Tiler {
        match self.below(6) {
            0 => Tiler::Int(1 + self.below(6) as i64),
            1 if depth > 0 => Tiler::Under,
            2 | 3 if depth > 0 => {
                let r = 1 + self.below(a.rank() as u64 + 1) as usize;
                Tiler::Tuple((0..r).map(|_| self.tiler(a, depth - 1)).collect())
            }
            _ => {
                let s = self.shape(1);
                let compact = self.below(3) != 0;
                let d = self.stride(&s, compact);
                Tiler::Layout(Layout::new(s, d).unwrap())
            }
        }
    }
}

/// The explanation ends with the real result, or fails with the real error. Returns
/// whether it succeeded.
fn agrees(what: &str, real: Result<Layout>, e: Result<Explanation>) -> bool {
    match (real, e) {
        (Ok(r), Ok(e)) => {
            assert_eq!(e.result, r, "{what}\n{e}");
            assert_eq!(e.lines.last(), Some(&format!("=> {r}")), "{what}\n{e}");
            assert!(!e.lines[0].starts_with(' '), "{what}\n{e}");
            true
        }
        (Err(x), Err(y)) => {
            assert_eq!(x, y, "{what}");
            false
        }
        (Ok(r), Err(y)) => panic!("{what}: the function gives {r}, the explanation {y}"),
        (Err(x), Ok(e)) => panic!("{what}: the function fails ({x}), the explanation gives\n{e}"),
    }
}

#[test]
fn explanations_end_with_the_real_results() {
    let mut g = Lcg(0x5eed_cafe);
    let mut ok = [0usize; 18];
    for _ in 0..1500 {
        let a = g.layout();
        let b = g.layout();
        let tiler = g.tiler(&a, 2);
        let m = IntTuple::Int(1 + g.below(64) as i64);
        let w = format!("A = {a}, B = {b}, T = {tiler}, M = {m}");
        let results = [
            agrees(&w, alg::composition(&a, &b), explain_composition(&a, &b)),
            agrees(
                &w,
                alg::composition_tiler(&a, &tiler),
                explain_composition_tiler(&a, &tiler),
            ),
            agrees(
                &w,
                alg::complement(&a, Some(&m)),
                explain_complement(&a, Some(&m)),
            ),
            agrees(&w, alg::complement(&a, None), explain_complement(&a, None)),
            agrees(&w, alg::right_inverse(&a), explain_right_inverse(&a)),
            agrees(&w, alg::left_inverse(&a), explain_left_inverse(&a)),
            agrees(
                &w,
                alg::logical_divide(&a, &tiler),
                explain_logical_divide(&a, &tiler),
            ),
            agrees(
                &w,
                alg::zipped_divide(&a, &tiler),
                explain_zipped_divide(&a, &tiler),
            ),
            agrees(
                &w,
                alg::tiled_divide(&a, &tiler),
                explain_tiled_divide(&a, &tiler),
            ),
            agrees(
                &w,
                alg::flat_divide(&a, &tiler),
                explain_flat_divide(&a, &tiler),
            ),
            agrees(
                &w,
                alg::logical_product(&a, &tiler),
                explain_logical_product(&a, &tiler),
            ),
            agrees(
                &w,
                alg::zipped_product(&a, &tiler),
                explain_zipped_product(&a, &tiler),
            ),
            agrees(
                &w,
                alg::tiled_product(&a, &tiler),
                explain_tiled_product(&a, &tiler),
            ),
            agrees(
                &w,
                alg::flat_product(&a, &tiler),
                explain_flat_product(&a, &tiler),
            ),
            agrees(
                &w,
                alg::blocked_product(&a, &b),
                explain_blocked_product(&a, &b),
            ),
            agrees(
                &w,
                alg::raked_product(&a, &b),
                explain_raked_product(&a, &b),
            ),
            agrees(&w, alg::coalesce(&a, None), explain_coalesce(&a, None)),
            agrees(
                &w,
                alg::coalesce(&a, Some(&b.shape().product_each().unwrap())),
                explain_coalesce(&a, Some(&b.shape().product_each().unwrap())),
            ),
        ];
        for (n, r) in ok.iter_mut().zip(results) {
            *n += usize::from(r);
        }
        if a.shape().is_static() && a.stride().is_static() && b.shape().is_static() {
            check_intermediates(&a, &b);
        }
    }
    // Every operation succeeded often enough for the sweep to mean something.
    for (i, n) in ok.iter().enumerate() {
        assert!(*n >= 40, "operation {i} succeeded only {n} times: {ok:?}");
    }
}
