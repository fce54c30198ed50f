//! The derivations of `cute_core::explain`: worked examples whose every line was checked by
//! hand against CuTe's definitions (`layout.hpp`), each written as the lines of the
//! derivation (its heading names the call that makes it); their nested blocks against the
//! real functions; and a sweep over many small random layouts (a tiny LCG, no
//! dependencies): the explanation ends with the real result, or fails with the real error.

use cute_core::explain::*;
use cute_core::layout::{self as alg, Tiler};
use cute_core::{IntTuple, Layout, Result};

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn it(s: &str) -> IntTuple {
    s.parse().unwrap()
}

// ---------------------------------------------------------------------------------------
// Calls: an operation, real and explained, and its operands
// ---------------------------------------------------------------------------------------

/// An operation, real and explained, by what it takes after its layout.
#[derive(Clone, Copy)]
enum Op {
    /// Nothing more.
    Unary(
        fn(&Layout) -> Result<Layout>,
        fn(&Layout) -> Result<Explanation>,
    ),
    /// A second layout.
    Layout(
        fn(&Layout, &Layout) -> Result<Layout>,
        fn(&Layout, &Layout) -> Result<Explanation>,
    ),
    /// A tiler.
    Tiler(
        fn(&Layout, &Tiler) -> Result<Layout>,
        fn(&Layout, &Tiler) -> Result<Explanation>,
    ),
    /// An optional int-tuple (a cotarget or a profile).
    Tuple(
        fn(&Layout, Option<&IntTuple>) -> Result<Layout>,
        fn(&Layout, Option<&IntTuple>) -> Result<Explanation>,
    ),
}

/// The second operand of a call.
enum Arg {
    None,
    Layout(Layout),
    Tiler(Tiler),
    Tuple(Option<IntTuple>),
}

/// Every operation by its name, as a derivation's heading writes it; composition by a
/// tiler (by a layout it is also [`PLAIN_COMPOSITION`]).
fn op(name: &str) -> Op {
    match name {
        "coalesce" => Op::Tuple(alg::coalesce, explain_coalesce),
        "complement" => Op::Tuple(alg::complement, explain_complement),
        "composition" => Op::Tiler(alg::composition_tiler, explain_composition_tiler),
        "right_inverse" => Op::Unary(alg::right_inverse, explain_right_inverse),
        "left_inverse" => Op::Unary(alg::left_inverse, explain_left_inverse),
        "logical_divide" => Op::Tiler(alg::logical_divide, explain_logical_divide),
        "zipped_divide" => Op::Tiler(alg::zipped_divide, explain_zipped_divide),
        "tiled_divide" => Op::Tiler(alg::tiled_divide, explain_tiled_divide),
        "flat_divide" => Op::Tiler(alg::flat_divide, explain_flat_divide),
        "logical_product" => Op::Tiler(alg::logical_product, explain_logical_product),
        "zipped_product" => Op::Tiler(alg::zipped_product, explain_zipped_product),
        "tiled_product" => Op::Tiler(alg::tiled_product, explain_tiled_product),
        "flat_product" => Op::Tiler(alg::flat_product, explain_flat_product),
        "blocked_product" => Op::Layout(alg::blocked_product, explain_blocked_product),
        "raked_product" => Op::Layout(alg::raked_product, explain_raked_product),
        _ => panic!("no operation {name}"),
    }
}

/// Composition by a layout: the same derivation as by the layout as a tiler.
const PLAIN_COMPOSITION: Op = Op::Layout(alg::composition, explain_composition);

impl Op {
    /// The real result and the derivation of the call, if `b` is the operation's operand.
    fn run(self, a: &Layout, b: &Arg) -> Option<(Result<Layout>, Result<Explanation>)> {
        Some(match (self, b) {
            (Op::Unary(f, e), Arg::None) => (f(a), e(a)),
            (Op::Layout(f, e), Arg::Layout(b)) => (f(a, b), e(a, b)),
            (Op::Tiler(f, e), Arg::Tiler(b)) => (f(a, b), e(a, b)),
            (Op::Tuple(f, e), Arg::Tuple(b)) => (f(a, b.as_ref()), e(a, b.as_ref())),
            _ => return None,
        })
    }
    /// The operand a heading writes as `text`, read as this operation takes it (`None`:
    /// the text is not such an operand).
    fn arg(self, text: Option<&str>) -> Option<Arg> {
        Some(match (self, text) {
            (Op::Unary(..), None) => Arg::None,
            // A layout literal has a `:` (`8` alone would read as `8:1`).
            (Op::Layout(..), Some(b)) if b.contains(':') => Arg::Layout(b.parse().ok()?),
            (Op::Tiler(..), Some(b)) => Arg::Tiler(tiler(b)),
            (Op::Tuple(..), b) => Arg::Tuple(b.map(it)),
            _ => return None,
        })
    }
}

/// `s` split at the `sep`s outside parentheses, trimmed.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0usize, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c == sep && depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out
}

/// A tiler as CuTe prints it: `_`, an integer, a layout, or a tuple of tilers.
fn tiler(s: &str) -> Tiler {
    if s == "_" {
        return Tiler::Under;
    }
    if let Ok(n) = s.parse() {
        return Tiler::Int(n);
    }
    match s.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
        Some(inner) if split_top(s, ':').len() == 1 => {
            Tiler::Tuple(split_top(inner, ',').into_iter().map(tiler).collect())
        }
        _ => Tiler::Layout(l(s)),
    }
}

/// The calls a heading `op(A)` or `op(A, B)` names, real and explained (composition by a
/// layout both ways).
fn calls(heading: &str) -> Vec<(Result<Layout>, Result<Explanation>)> {
    let (name, rest) = heading.split_once('(').unwrap();
    let args = split_top(rest.strip_suffix(')').unwrap(), ',');
    let (a, b) = (l(args[0]), args.get(1).copied());
    let mut ops = vec![op(name)];
    if name == "composition" {
        ops.push(PLAIN_COMPOSITION);
    }
    let found: Vec<_> = ops
        .into_iter()
        .filter_map(|o| o.run(&a, &o.arg(b)?))
        .collect();
    assert!(!found.is_empty(), "{heading}: no call");
    found
}

/// A derivation nested one level, as a divide or product shows it.
fn nested<'a>(lines: &'a [&str]) -> impl Iterator<Item = String> + 'a {
    lines.iter().map(|x| format!("  {x}"))
}

/// The derivation `expected` is what its heading's call gives, ending with the real result.
fn check<S: AsRef<str>>(expected: &[S]) {
    let want: Vec<&str> = expected.iter().map(AsRef::as_ref).collect();
    for (real, e) in calls(want[0]) {
        let e = e.unwrap();
        assert_eq!(
            e.lines,
            want,
            "\n--- got ---\n{e}\n--- expected ---\n{}\n",
            want.join("\n")
        );
        assert_eq!(e.result, real.unwrap(), "{}", want[0]);
    }
}

fn check_all(examples: &[&[&str]]) {
    for x in examples {
        check(x);
    }
}

// ---------------------------------------------------------------------------------------
// Worked examples
// ---------------------------------------------------------------------------------------

/// CuTe's layout-algebra docs: (6,2):(8,2) o (4,3):(3,1).
const COMPOSITION_DOCS: &[&str] = &[
    "composition((6,2):(8,2), (4,3):(3,1))",
    "  A' = coalesce_x(A) = (6,2):(8,2)",
    "  B = (4,3):(3,1), by mode:",
    "    get<0>(B) = 4:3:",
    "      6:8, rest 4:3: 3 < 6; take min(ceil_div(6,3),4) = 2 -> 2:24; rest 2:1",
    "      2:2 (last), rest 2:1 -> 2:2",
    "      = (2,2):(24,2)",
    "    get<1>(B) = 3:1:",
    "      6:8, rest 3:1: 1 < 6; take min(ceil_div(6,1),3) = 3 -> 3:8; rest 1:1",
    "      2:2 (last): nothing left",
    "      = 3:8",
    "=> ((2,2),3):((24,2),8)",
];

/// CuTe's docs: complement((2,2):(1,6), 24) = (3,2):(2,12).
const COMPLEMENT_DOCS: &[&str] = &[
    "complement((2,2):(1,6), 24)",
    "  filter(A) = (2,2):(1,6)",
    "  mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2",
    "  mode 2:6 (last): 6/2 = 3, next stride 6*2 = 12",
    "  rest: coalesce(ceil_div(24,12)) = 2 -> 2:12",
    "  coalesce(((1,3),2):((1,2),12)) = (3,2):(2,12)",
    "=> (3,2):(2,12)",
];

/// CuTe's docs: logical_divide((4,2,3):(2,1,8), 4:2) = ((2,2),(2,3)):((4,1),(2,8)).
const DIVIDE_DOCS: &[&str] = &[
    "logical_divide((4,2,3):(2,1,8), 4:2)",
    "  = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))",
    "  shape(coalesce(A)) = (4,2,3)",
    "  complement(4:2, (4,2,3))",
    "    filter(A) = 4:2",
    "    mode 4:2 (last): 2/1 = 2, next stride 2*4 = 8",
    "    rest: coalesce(ceil_div((4,2,3),8)) = 3 -> 3:8",
    "    coalesce(((2),3):((1),8)) = (2,3):(1,8)",
    "  => (2,3):(1,8)",
    "  make_layout(B, (2,3):(1,8)) = (4,(2,3)):(2,(1,8))",
    "  composition((4,2,3):(2,1,8), (4,(2,3)):(2,(1,8)))",
    "    A' = coalesce_x(A) = (4,2,3):(2,1,8)",
    "    B = (4,(2,3)):(2,(1,8)), by mode:",
    "      get<0>(B) = 4:2:",
    "        4:2, rest 4:2: 2 < 4; take min(ceil_div(4,2),4) = 2 -> 2:4; rest 2:1",
    "        2:1, rest 2:1: 1 < 2; take min(ceil_div(2,1),2) = 2 -> 2:1; rest 1:1",
    "        3:8 (last): nothing left",
    "        = (2,2):(4,1)",
    "      get<1>(B) = (2,3):(1,8), by mode:",
    "        get<1,0>(B) = 2:1:",
    "          4:2, rest 2:1: 1 < 4; take min(ceil_div(4,1),2) = 2 -> 2:2; rest 1:1",
    "          2:1, rest 1:1: 1 < 2; nothing left; rest 1:1",
    "          3:8 (last): nothing left",
    "          = 2:2",
    "        get<1,1>(B) = 3:8:",
    "          4:2, rest 3:8: 8 % 4 == 0; ceil_div(4,8) = 1, skip; rest 3:2",
    "          2:1, rest 3:2: 2 % 2 == 0; ceil_div(2,2) = 1, skip; rest 3:1",
    "          3:8 (last), rest 3:1 -> 3:8",
    "          = 3:8",
    "        = (2,3):(2,8)",
    "  => ((2,2),(2,3)):((4,1),(2,8))",
    "=> ((2,2),(2,3)):((4,1),(2,8))",
];

/// The docs' 2-D divide: (9,(4,8)):(59,(13,1)) by the tiler <3:3, (2,4):(1,8)>.
const DIVIDE_BY_MODE: &[&str] = &[
    "logical_divide((9,(4,8)):(59,(13,1)), (3:3,(2,4):(1,8)))",
    "  by mode:",
    "    logical_divide(9:59, 3:3)",
    "      = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))",
    "      shape(coalesce(A)) = 9",
    "      complement(3:3, 9)",
    "        filter(A) = 3:3",
    "        mode 3:3 (last): 3/1 = 3, next stride 3*3 = 9",
    "        rest: coalesce(ceil_div(9,9)) = 1 -> 1:0",
    "        coalesce(((3),1):((1),0)) = 3:1",
    "      => 3:1",
    "      make_layout(B, 3:1) = (3,3):(3,1)",
    "      composition(9:59, (3,3):(3,1))",
    "        A' = coalesce_x(A) = 9:59",
    "        B = (3,3):(3,1), by mode:",
    "          get<0>(B) = 3:3:",
    "            A' is the one mode 9:59: stride 3*59 -> 3:177",
    "            = 3:177",
    "          get<1>(B) = 3:1:",
    "            A' is the one mode 9:59: stride 1*59 -> 3:59",
    "            = 3:59",
    "      => (3,3):(177,59)",
    "    => (3,3):(177,59)",
    "    logical_divide((4,8):(13,1), (2,4):(1,8))",
    "      = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))",
    "      shape(coalesce(A)) = (4,8)",
    "      complement((2,4):(1,8), (4,8))",
    "        filter(A) = (2,4):(1,8)",
    "        mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2",
    "        mode 4:8 (last): 8/2 = 4, next stride 8*4 = 32",
    "        rest: coalesce(ceil_div((4,8),32)) = 1 -> 1:0",
    "        coalesce(((1,4),1):((1,2),0)) = 4:2",
    "      => 4:2",
    "      make_layout(B, 4:2) = ((2,4),4):((1,8),2)",
    "      composition((4,8):(13,1), ((2,4),4):((1,8),2))",
    "        A' = coalesce_x(A) = (4,8):(13,1)",
    "        B = ((2,4),4):((1,8),2), by mode:",
    "          get<0>(B) = (2,4):(1,8), by mode:",
    "            get<0,0>(B) = 2:1:",
    "              4:13, rest 2:1: 1 < 4; take min(ceil_div(4,1),2) = 2 -> 2:13; rest 1:1",
    "              8:1 (last): nothing left",
    "              = 2:13",
    "            get<0,1>(B) = 4:8:",
    "              4:13, rest 4:8: 8 % 4 == 0; ceil_div(4,8) = 1, skip; rest 4:2",
    "              8:1 (last), rest 4:2 -> 4:2",
    "              = 4:2",
    "            = (2,4):(13,2)",
    "          get<1>(B) = 4:2:",
    "            4:13, rest 4:2: 2 < 4; take min(ceil_div(4,2),4) = 2 -> 2:26; rest 2:1",
    "            8:1 (last), rest 2:1 -> 2:1",
    "            = (2,2):(26,1)",
    "      => ((2,4),(2,2)):((13,2),(26,1))",
    "    => ((2,4),(2,2)):((13,2),(26,1))",
    "=> ((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))",
];

/// An integer tiler: make_layout(4).
const DIVIDE_INT: &[&str] = &[
    "logical_divide(16:1, 4)",
    "  B = 4: make_layout(4) = 4:1",
    "  = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))",
    "  shape(coalesce(A)) = 16",
    "  complement(4:1, 16)",
    "    filter(A) = 4:1",
    "    mode 4:1 (last): 1/1 = 1, next stride 1*4 = 4",
    "    rest: coalesce(ceil_div(16,4)) = 4 -> 4:4",
    "    coalesce(((1),4):((1),4)) = 4:4",
    "  => 4:4",
    "  make_layout(B, 4:4) = (4,4):(1,4)",
    "  composition(16:1, (4,4):(1,4))",
    "    A' = coalesce_x(A) = 16:1",
    "    B = (4,4):(1,4), by mode:",
    "      get<0>(B) = 4:1:",
    "        A' is the one mode 16:1: stride 1*1 -> 4:1",
    "        = 4:1",
    "      get<1>(B) = 4:4:",
    "        A' is the one mode 16:1: stride 4*1 -> 4:4",
    "        = 4:4",
    "  => (4,4):(1,4)",
    "=> (4,4):(1,4)",
];

/// A `_` tiler mode keeps the mode.
const DIVIDE_UNDER: &[&str] = &[
    "logical_divide((8,6):(1,8), (_,2:3))",
    "  by mode:",
    "    logical_divide(8:1, _)",
    "      _ keeps A",
    "    => 8:1",
    "    logical_divide(6:8, 2:3)",
    "      = composition(A, make_layout(B, complement(B, shape(coalesce(A)))))",
    "      shape(coalesce(A)) = 6",
    "      complement(2:3, 6)",
    "        filter(A) = 2:3",
    "        mode 2:3 (last): 3/1 = 3, next stride 3*2 = 6",
    "        rest: coalesce(ceil_div(6,6)) = 1 -> 1:0",
    "        coalesce(((3),1):((1),0)) = 3:1",
    "      => 3:1",
    "      make_layout(B, 3:1) = (2,3):(3,1)",
    "      composition(6:8, (2,3):(3,1))",
    "        A' = coalesce_x(A) = 6:8",
    "        B = (2,3):(3,1), by mode:",
    "          get<0>(B) = 2:3:",
    "            A' is the one mode 6:8: stride 3*8 -> 2:24",
    "            = 2:24",
    "          get<1>(B) = 3:1:",
    "            A' is the one mode 6:8: stride 1*8 -> 3:8",
    "            = 3:8",
    "      => (2,3):(24,8)",
    "    => (2,3):(24,8)",
    "=> (8,(2,3)):(1,(24,8))",
];

/// CuTe's docs: logical_product((2,2):(4,1), 6:1) = ((2,2),(2,3)):((4,1),(2,8)).
const PRODUCT_DOCS: &[&str] = &[
    "logical_product((2,2):(4,1), 6:1)",
    "  = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))",
    "  size(A)*cosize(B) = 4*6 = 24",
    "  complement((2,2):(4,1), 24)",
    "    filter(A) = (2,2):(4,1)",
    "    mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2",
    "    mode 2:4 (last): 4/2 = 2, next stride 4*2 = 8",
    "    rest: coalesce(ceil_div(24,8)) = 3 -> 3:8",
    "    coalesce(((1,2),3):((1,2),8)) = (2,3):(2,8)",
    "  => (2,3):(2,8)",
    "  composition((2,3):(2,8), 6:1)",
    "    A' = coalesce_x(A) = (2,3):(2,8)",
    "    B = 6:1:",
    "      2:2, rest 6:1: 1 < 2; take min(ceil_div(2,1),6) = 2 -> 2:2; rest 3:1",
    "      3:8 (last), rest 3:1 -> 3:8",
    "  => (2,3):(2,8)",
    "  make_layout(A, (2,3):(2,8)) = ((2,2),(2,3)):((4,1),(2,8))",
    "=> ((2,2),(2,3)):((4,1),(2,8))",
];

/// CuTe's docs' blocked and raked products: (2,5):(5,1) and (3,4):(1,3).
const PRODUCT_2D: &[&str] = &[
    "logical_product((2,5):(5,1), (3,4):(1,3))",
    "  = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))",
    "  size(A)*cosize(B) = 10*12 = 120",
    "  complement((2,5):(5,1), 120)",
    "    filter(A) = (2,5):(5,1)",
    "    mode 5:1 (smallest stride): 1/1 = 1, next stride 1*5 = 5",
    "    mode 2:5 (last): 5/5 = 1, next stride 5*2 = 10",
    "    rest: coalesce(ceil_div(120,10)) = 12 -> 12:10",
    "    coalesce(((1,1),12):((1,5),10)) = 12:10",
    "  => 12:10",
    "  composition(12:10, (3,4):(1,3))",
    "    A' = coalesce_x(A) = 12:10",
    "    B = (3,4):(1,3), by mode:",
    "      get<0>(B) = 3:1:",
    "        A' is the one mode 12:10: stride 1*10 -> 3:10",
    "        = 3:10",
    "      get<1>(B) = 4:3:",
    "        A' is the one mode 12:10: stride 3*10 -> 4:30",
    "        = 4:30",
    "  => (3,4):(10,30)",
    "  make_layout(A, (3,4):(10,30)) = ((2,5),(3,4)):((5,1),(10,30))",
    "=> ((2,5),(3,4)):((5,1),(10,30))",
];

/// By mode: the mode past the tiler is kept.
const PRODUCT_BY_MODE: &[&str] = &[
    "logical_product((2,3):(1,2), (4:4))",
    "  by mode:",
    "    logical_product(2:1, 4:4)",
    "      = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))",
    "      size(A)*cosize(B) = 2*13 = 26",
    "      complement(2:1, 26)",
    "        filter(A) = 2:1",
    "        mode 2:1 (last): 1/1 = 1, next stride 1*2 = 2",
    "        rest: coalesce(ceil_div(26,2)) = 13 -> 13:2",
    "        coalesce(((1),13):((1),2)) = 13:2",
    "      => 13:2",
    "      composition(13:2, 4:4)",
    "        A' = coalesce_x(A) = 13:2",
    "        B = 4:4:",
    "          A' is the one mode 13:2: stride 4*2 -> 4:8",
    "      => 4:8",
    "      make_layout(A, 4:8) = (2,4):(1,8)",
    "    => (2,4):(1,8)",
    "    get<1>(A) = 3:2, kept",
    "=> ((2,4),3):((1,8),2)",
];

/// An integer tiler: make_layout(3).
const PRODUCT_INT: &[&str] = &[
    "logical_product(2:1, 3)",
    "  B = 3: make_layout(3) = 3:1",
    "  = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))",
    "  size(A)*cosize(B) = 2*3 = 6",
    "  complement(2:1, 6)",
    "    filter(A) = 2:1",
    "    mode 2:1 (last): 1/1 = 1, next stride 1*2 = 2",
    "    rest: coalesce(ceil_div(6,2)) = 3 -> 3:2",
    "    coalesce(((1),3):((1),2)) = 3:2",
    "  => 3:2",
    "  composition(3:2, 3:1)",
    "    A' = coalesce_x(A) = 3:2",
    "    B = 3:1:",
    "      A' is the one mode 3:2: stride 1*2 -> 3:2",
    "  => 3:2",
    "  make_layout(A, 3:2) = (2,3):(1,2)",
    "=> (2,3):(1,2)",
];

/// A block of rank 1 padded with 1:0.
const PRODUCT_PADDED_A: &[&str] = &[
    "logical_product((4,1):(1,0), (2,3):(1,2))",
    "  = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))",
    "  size(A)*cosize(B) = 4*6 = 24",
    "  complement((4,1):(1,0), 24)",
    "    filter(A) = 4:1",
    "    mode 4:1 (last): 1/1 = 1, next stride 1*4 = 4",
    "    rest: coalesce(ceil_div(24,4)) = 6 -> 6:4",
    "    coalesce(((1),6):((1),4)) = 6:4",
    "  => 6:4",
    "  composition(6:4, (2,3):(1,2))",
    "    A' = coalesce_x(A) = 6:4",
    "    B = (2,3):(1,2), by mode:",
    "      get<0>(B) = 2:1:",
    "        A' is the one mode 6:4: stride 1*4 -> 2:4",
    "        = 2:4",
    "      get<1>(B) = 3:2:",
    "        A' is the one mode 6:4: stride 2*4 -> 3:8",
    "        = 3:8",
    "  => (2,3):(4,8)",
    "  make_layout(A, (2,3):(4,8)) = ((4,1),(2,3)):((1,0),(4,8))",
    "=> ((4,1),(2,3)):((1,0),(4,8))",
];

/// A tiler of rank 1 padded with 1:0 (its stride-0 mode composes as is).
const PRODUCT_PADDED_B: &[&str] = &[
    "logical_product((2,2):(1,2), (3,1):(1,0))",
    "  = make_layout(A, composition(complement(A, size(A)*cosize(B)), B))",
    "  size(A)*cosize(B) = 4*3 = 12",
    "  complement((2,2):(1,2), 12)",
    "    filter(A) = 4:1",
    "    mode 4:1 (last): 1/1 = 1, next stride 1*4 = 4",
    "    rest: coalesce(ceil_div(12,4)) = 3 -> 3:4",
    "    coalesce(((1),3):((1),4)) = 3:4",
    "  => 3:4",
    "  composition(3:4, (3,1):(1,0))",
    "    A' = coalesce_x(A) = 3:4",
    "    B = (3,1):(1,0), by mode:",
    "      get<0>(B) = 3:1:",
    "        A' is the one mode 3:4: stride 1*4 -> 3:4",
    "        = 3:4",
    "      get<1>(B) = 1:0:",
    "        stride 0: -> 1:0",
    "        = 1:0",
    "  => (3,1):(4,0)",
    "  make_layout(A, (3,1):(4,0)) = ((2,2),(3,1)):((1,2),(4,0))",
    "=> ((2,2),(3,1)):((1,2),(4,0))",
];

/// Composition, by a layout (both ways) and by other tilers.
const COMPOSITION: &[&[&str]] = &[
    COMPOSITION_DOCS,
    // The docs' second one: (10,2):(16,4) o (5,4):(1,5) = (5,(2,2)):(16,(80,4)).
    &[
        "composition((10,2):(16,4), (5,4):(1,5))",
        "  A' = coalesce_x(A) = (10,2):(16,4)",
        "  B = (5,4):(1,5), by mode:",
        "    get<0>(B) = 5:1:",
        "      10:16, rest 5:1: 1 < 10; take min(ceil_div(10,1),5) = 5 -> 5:16; rest 1:1",
        "      2:4 (last): nothing left",
        "      = 5:16",
        "    get<1>(B) = 4:5:",
        "      10:16, rest 4:5: 5 < 10; take min(ceil_div(10,5),4) = 2 -> 2:80; rest 2:1",
        "      2:4 (last), rest 2:1 -> 2:4",
        "      = (2,2):(80,4)",
        "=> (5,(2,2)):(16,(80,4))",
    ],
    // A last mode of size 1 (coalesce_x keeps its stride as 2:0), a mode the rest has used
    // up, and a stride-0 mode of B.
    &[
        "composition((4,(2,1)):(2,(1,0)), (2,3):(2,0))",
        "  A' = coalesce_x(A) = (4,2,2):(2,1,0)",
        "  B = (2,3):(2,0), by mode:",
        "    get<0>(B) = 2:2:",
        "      4:2, rest 2:2: 2 < 4; take min(ceil_div(4,2),2) = 2 -> 2:4; rest 1:1",
        "      2:1, rest 1:1: 1 < 2; nothing left; rest 1:1",
        "      2:0 (last): nothing left",
        "      = 2:4",
        "    get<1>(B) = 3:0:",
        "      stride 0: -> 3:0",
        "      = 3:0",
        "=> (2,3):(4,0)",
    ],
    // A coalesces to one mode; B is one mode.
    &[
        "composition((4,2):(1,4), 4:2)",
        "  A' = coalesce_x(A) = 8:1",
        "  B = 4:2:",
        "    A' is the one mode 8:1: stride 2*1 -> 4:2",
        "=> 4:2",
    ],
    // The stride that passes whole modes: 3:8 through (4,2,3):(2,1,8).
    &[
        "composition((4,2,3):(2,1,8), 3:8)",
        "  A' = coalesce_x(A) = (4,2,3):(2,1,8)",
        "  B = 3:8:",
        "    4:2, rest 3:8: 8 % 4 == 0; ceil_div(4,8) = 1, skip; rest 3:2",
        "    2:1, rest 3:2: 2 % 2 == 0; ceil_div(2,2) = 1, skip; rest 3:1",
        "    3:8 (last), rest 3:1 -> 3:8",
        "=> 3:8",
    ],
    // By mode: (12,(4,8)):(59,(13,1)) o <3:4, 8:2>.
    &[
        "composition((12,(4,8)):(59,(13,1)), (3:4,8:2))",
        "  by mode:",
        "    composition(12:59, 3:4)",
        "      A' = coalesce_x(A) = 12:59",
        "      B = 3:4:",
        "        A' is the one mode 12:59: stride 4*59 -> 3:236",
        "    => 3:236",
        "    composition((4,8):(13,1), 8:2)",
        "      A' = coalesce_x(A) = (4,8):(13,1)",
        "      B = 8:2:",
        "        4:13, rest 8:2: 2 < 4; take min(ceil_div(4,2),8) = 2 -> 2:26; rest 4:1",
        "        8:1 (last), rest 4:1 -> 4:1",
        "    => (2,4):(26,1)",
        "=> (3,(2,4)):(236,(26,1))",
    ],
    // An integer: the layout 8:1.
    &[
        "composition((4,8):(8,1), 8)",
        "  B = 8 means the layout 8:1",
        "  A' = coalesce_x(A) = (4,8):(8,1)",
        "  B = 8:1:",
        "    4:8, rest 8:1: 1 < 4; take min(ceil_div(4,1),8) = 4 -> 4:8; rest 2:1",
        "    8:1 (last), rest 2:1 -> 2:1",
        "=> (4,2):(8,1)",
    ],
    // `_` keeps a mode, an integer takes the first elements, a mode past the tiler drops.
    &[
        "composition((4,8,2):(1,4,32), (_,2))",
        "  by mode:",
        "    composition(4:1, _)",
        "      _ keeps A",
        "    => 4:1",
        "    composition(8:4, 2)",
        "      B = 2 means the layout 2:1",
        "      A' = coalesce_x(A) = 8:4",
        "      B = 2:1:",
        "        A' is the one mode 8:4: stride 1*4 -> 2:4",
        "    => 2:4",
        "    get<2>(A) = 2:32, dropped",
        "=> (4,2):(1,4)",
    ],
];

/// Complement, of a given cotarget and of the default one.
const COMPLEMENT: &[&[&str]] = &[
    COMPLEMENT_DOCS,
    // complement((4,2):(2,1), 24) = 3:8.
    &[
        "complement((4,2):(2,1), 24)",
        "  filter(A) = (4,2):(2,1)",
        "  mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2",
        "  mode 4:2 (last): 2/2 = 1, next stride 2*4 = 8",
        "  rest: coalesce(ceil_div(24,8)) = 3 -> 3:8",
        "  coalesce(((1,1),3):((1,2),8)) = 3:8",
        "=> 3:8",
    ],
    // The default cotarget, cosize(filter(A)) = 1 + 1*1 + 3*6 = 20.
    &[
        "complement((2,4):(1,6))",
        "  filter(A) = (2,4):(1,6)",
        "  cotarget = cosize(filter(A)) = 20",
        "  mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2",
        "  mode 4:6 (last): 6/2 = 3, next stride 6*4 = 24",
        "  rest: coalesce(ceil_div(20,24)) = 1 -> 1:0",
        "  coalesce(((1,3),1):((1,2),0)) = 3:2",
        "=> 3:2",
    ],
    // A stride-0 layout filters to 1:0: the complement is the whole cotarget.
    &[
        "complement(4:0, 8)",
        "  filter(A) = 1:0",
        "  stride 0: make_layout(coalesce(8)) = 8:1",
        "=> 8:1",
    ],
    // A division C++ truncates (3/2), and a shape as the cotarget.
    &[
        "complement((2,3):(1,3), (6,3))",
        "  filter(A) = (2,3):(1,3)",
        "  mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2",
        "  mode 3:3 (last): 3/2 = 1 (truncated), next stride 3*3 = 9",
        "  rest: coalesce(ceil_div((6,3),9)) = 2 -> 2:9",
        "  coalesce(((1,1),2):((1,2),9)) = 2:9",
        "=> 2:9",
    ],
];

/// The logical divides.
const DIVIDE: &[&[&str]] = &[DIVIDE_DOCS, DIVIDE_BY_MODE, DIVIDE_INT, DIVIDE_UNDER];

/// The logical products.
const PRODUCT: &[&[&str]] = &[
    PRODUCT_DOCS,
    PRODUCT_2D,
    PRODUCT_BY_MODE,
    PRODUCT_INT,
    PRODUCT_PADDED_A,
    PRODUCT_PADDED_B,
];

/// Coalesce, whole and by a profile.
const COALESCE: &[&[&str]] = &[
    &[
        "coalesce((2,(1,6)):(1,(6,2)))",
        "  flatten(A) = (2,1,6):(1,6,2)",
        "  start from the last mode 6:2",
        "  1:6: size 1, dropped",
        "  2:1: 2*1 == 2, merge -> 12:1",
        "=> 12:1",
    ],
    &[
        "coalesce(((2,4),(3,2)):((1,2),(8,24)), (1,1))",
        "  by mode of the profile:",
        "    coalesce((2,4):(1,2), 1)",
        "      flatten(A) = (2,4):(1,2)",
        "      start from the last mode 4:2",
        "      2:1: 2*1 == 2, merge -> 8:1",
        "    => 8:1",
        "    coalesce((3,2):(8,24), 1)",
        "      flatten(A) = (3,2):(8,24)",
        "      start from the last mode 2:24",
        "      3:8: 3*8 == 24, merge -> 6:8",
        "    => 6:8",
        "=> (8,6):(1,8)",
    ],
    // Without the profile the same layout is one mode.
    &[
        "coalesce(((2,4),(3,2)):((1,2),(8,24)))",
        "  flatten(A) = (2,4,3,2):(1,2,8,24)",
        "  start from the last mode 2:24",
        "  3:8: 3*8 == 24, merge -> 6:8",
        "  4:2: 4*2 == 8, merge -> 24:2",
        "  2:1: 2*1 == 2, merge -> 48:1",
        "=> 48:1",
    ],
    &[
        "coalesce((4,1,2):(1,0,8))",
        "  flatten(A) = (4,1,2):(1,0,8)",
        "  start from the last mode 2:8",
        "  1:0: size 1, dropped",
        "  4:1: 4*1 != 8, prepend -> (4,2):(1,8)",
        "=> (4,2):(1,8)",
    ],
    // A size-1 start is replaced; all size 1 is 1:0.
    &[
        "coalesce(((2,1),(1,1)):((3,5),(6,7)))",
        "  flatten(A) = (2,1,1,1):(3,5,6,7)",
        "  start from the last mode 1:7",
        "  1:6: size 1, dropped",
        "  1:5: size 1, dropped",
        "  2:3: replaces the size-1 mode -> 2:3",
        "=> 2:3",
    ],
    &[
        "coalesce((1,1):(3,5))",
        "  flatten(A) = (1,1):(3,5)",
        "  start from the last mode 1:5",
        "  1:3: size 1, dropped",
        "  size 1: 1:0",
        "=> 1:0",
    ],
];

/// The right and left inverses.
const INVERSE: &[&[&str]] = &[
    &[
        "right_inverse((4,8):(8,1))",
        "  coalesce(A) = (4,8):(8,1)",
        "  prefix products of (4,8): (1,4,32)",
        "  strides sorted: 1 (mode 1), 8 (mode 0)",
        "  mode 1, 8:1: stride 1 == curr 1 -> (1,8):(0,4); curr 8",
        "  mode 0, 4:8: stride 8 == curr 8 -> (1,8,4):(0,4,1); curr 32",
        "  coalesce((1,8,4):(0,4,1)) = (8,4):(4,1)",
        "=> (8,4):(4,1)",
    ],
    &[
        "right_inverse((2,3):(3,1))",
        "  coalesce(A) = (2,3):(3,1)",
        "  prefix products of (2,3): (1,2,6)",
        "  strides sorted: 1 (mode 1), 3 (mode 0)",
        "  mode 1, 3:1: stride 1 == curr 1 -> (1,3):(0,2); curr 3",
        "  mode 0, 2:3: stride 3 == curr 3 -> (1,3,2):(0,2,1); curr 6",
        "  coalesce((1,3,2):(0,2,1)) = (3,2):(2,1)",
        "=> (3,2):(2,1)",
    ],
    // Not onto: the inverse stops at the first gap.
    &[
        "right_inverse((4,2):(1,8))",
        "  coalesce(A) = (4,2):(1,8)",
        "  prefix products of (4,2): (1,4,8)",
        "  strides sorted: 1 (mode 0), 8 (mode 1)",
        "  mode 0, 4:1: stride 1 == curr 1 -> (1,4):(0,1); curr 4",
        "  mode 1, 2:8: stride 8 != curr 4, skipped",
        "  coalesce((1,4):(0,1)) = 4:1",
        "=> 4:1",
    ],
    &[
        "right_inverse((2,4):(0,1))",
        "  coalesce(A) = (2,4):(0,1)",
        "  prefix products of (2,4): (1,2,8)",
        "  strides sorted: 0 (mode 0), 1 (mode 1)",
        "  mode 0, 2:0: stride 0 != curr 1, skipped",
        "  mode 1, 4:1: stride 1 == curr 1 -> (1,4):(0,2); curr 4",
        "  coalesce((1,4):(0,2)) = 4:2",
        "=> 4:2",
    ],
    &[
        "left_inverse((8,5,2):(40,4,20))",
        "  coalesce(A) = (8,10):(40,4)",
        "  prefix products of (8,10): (1,8,80)",
        "  strides sorted: 4 (mode 1), 40 (mode 0)",
        "  mode 1, 10:4: 4 % 1 == 0; 4/1 = 4; shape (4), stride (0,8); size 4",
        "  mode 0, 8:40: 40 % 4 == 0; 40/4 = 10; shape (4,10), stride (0,8,1); size 40",
        "  last by stride, mode 0: its shape 8 closes the shape (4,10,8)",
        "  coalesce((4,10,8):(0,8,1)) = (4,10,8):(0,8,1)",
        "=> (4,10,8):(0,8,1)",
    ],
    &[
        "left_inverse((4,8):(8,1))",
        "  coalesce(A) = (4,8):(8,1)",
        "  prefix products of (4,8): (1,4,32)",
        "  strides sorted: 1 (mode 1), 8 (mode 0)",
        "  mode 1, 8:1: 1 % 1 == 0; 1/1 = 1; shape (1), stride (0,4); size 1",
        "  mode 0, 4:8: 8 % 1 == 0; 8/1 = 8; shape (1,8), stride (0,4,1); size 8",
        "  last by stride, mode 0: its shape 4 closes the shape (1,8,4)",
        "  coalesce((1,8,4):(0,4,1)) = (8,4):(4,1)",
        "=> (8,4):(4,1)",
    ],
    &[
        "left_inverse((2,4):(0,1))",
        "  coalesce(A) = (2,4):(0,1)",
        "  prefix products of (2,4): (1,2,8)",
        "  strides sorted: 0 (mode 0), 1 (mode 1)",
        "  mode 0, 2:0: stride 0, skipped",
        "  mode 1, 4:1: 1 % 1 == 0; 1/1 = 1; shape (1), stride (0,2); size 1",
        "  last by stride, mode 1: its shape 4 closes the shape (1,4)",
        "  coalesce((1,4):(0,2)) = 4:2",
        "=> 4:2",
    ],
    // Not onto: the gaps map to 0.
    &[
        "left_inverse(4:2)",
        "  coalesce(A) = 4:2",
        "  prefix products of (4): (1,4)",
        "  strides sorted: 2 (mode 0)",
        "  mode 0, 4:2: 2 % 1 == 0; 2/1 = 2; shape (2), stride (0,1); size 2",
        "  last by stride, mode 0: its shape 4 closes the shape (2,4)",
        "  coalesce((2,4):(0,1)) = (2,4):(0,1)",
        "=> (2,4):(0,1)",
    ],
];

/// A regrouped divide or product (`how`: `zipped`, `tiled` or `flat`) of the logical
/// derivation `logical`: its heading, the logical one nested, `tile_unzip`'s result `zip`,
/// then the unpacking line (tiled and flat).
fn regrouped(how: &str, logical: &[&str], zip: &str, unpacked: Option<&str>) -> Vec<String> {
    let (op, args) = logical[0].split_once('(').unwrap();
    let mut out = vec![
        format!("{}({args}", op.replace("logical", how)),
        format!("  L = {op}(A, B); Z = tile_unzip(L, B): the tiles in mode 0, the rests in mode 1"),
    ];
    out.extend(nested(logical));
    out.push(format!("  tile_unzip(L, B) = {zip}"));
    out.extend(unpacked.map(|z| format!("  {z}")));
    let result = unpacked.map_or(zip, |z| z.rsplit(" = ").next().unwrap());
    out.push(format!("=> {result}"));
    out
}

/// The regroupings of logical derivations: `tile_unzip`'s result, then the tiled and flat
/// unpackings.
const REGROUPED: [(&[&str], &str, &str, &str); 6] = [
    (
        DIVIDE_DOCS,
        "((2,2),(2,3)):((4,1),(2,8))",
        "Z(_,repeat<2>(_)) = ((2,2),2,3):((4,1),2,8)",
        "Z(repeat<2>(_),repeat<2>(_)) = (2,2,2,3):(4,1,2,8)",
    ),
    // The docs' 2-D one (the crate's doc examples of the three).
    (
        DIVIDE_BY_MODE,
        "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))",
        "Z(_,repeat<2>(_)) = ((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))",
        "Z(repeat<2>(_),repeat<2>(_)) = (3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))",
    ),
    // An integer tiler: the rank-1 rest mode unpacks as `_`.
    (
        DIVIDE_INT,
        "(4,4):(1,4)",
        "Z(_,_) = (4,4):(1,4)",
        "Z(_,_) = (4,4):(1,4)",
    ),
    (
        PRODUCT_DOCS,
        "((2,2),(2,3)):((4,1),(2,8))",
        "Z(_,repeat<2>(_)) = ((2,2),2,3):((4,1),2,8)",
        "Z(repeat<2>(_),repeat<2>(_)) = (2,2,2,3):(4,1,2,8)",
    ),
    // zip2_by: mode 0 of the product splits into (2) and (4); mode 1 joins the rest.
    (
        PRODUCT_BY_MODE,
        "((2),(4,3)):((1),(8,2))",
        "Z(_,repeat<2>(_)) = ((2),4,3):((1),8,2)",
        "Z(_,repeat<2>(_)) = ((2),4,3):((1),8,2)",
    ),
    (
        PRODUCT_INT,
        "(2,3):(1,2)",
        "Z(_,_) = (2,3):(1,2)",
        "Z(_,_) = (2,3):(1,2)",
    ),
];

/// A blocked or raked product `name(args)` (both of rank 2 at most): its heading, the
/// padding (`padded`, where one operand is padded), the logical product `logical` nested,
/// then the `zip` line.
fn rank_sensitive(
    name: &str,
    args: &str,
    padded: Option<&str>,
    logical: &[&str],
    zip: &str,
) -> Vec<String> {
    let first = usize::from(name == "raked_product");
    let mut out = vec![
        format!("{name}({args})"),
        format!(
            "  = zip(get<{first}>(L), get<{}>(L)), L = logical_product(append<R>(A), append<R>(B))",
            1 - first
        ),
        "  R = max(rank(A), rank(B)) = 2".to_string(),
    ];
    out.extend(padded.map(|p| format!("  {p}")));
    out.extend(nested(logical));
    out.push(format!("  {zip}"));
    out.push(format!("=> {}", zip.rsplit(" = ").next().unwrap()));
    out
}

/// Blocked and raked products: the operands, the padding, the logical product, the zip.
type RankSensitive = (
    &'static str,
    &'static str,
    Option<&'static str>,
    &'static [&'static str],
    &'static str,
);

const RANK_SENSITIVE: [RankSensitive; 6] = [
    // CuTe's docs: (2,5):(5,1) and (3,4):(1,3).
    (
        "blocked_product",
        "(2,5):(5,1), (3,4):(1,3)",
        None,
        PRODUCT_2D,
        "zip((2,5):(5,1), (3,4):(10,30)) = ((2,3),(5,4)):((5,10),(1,30))",
    ),
    (
        "raked_product",
        "(2,5):(5,1), (3,4):(1,3)",
        None,
        PRODUCT_2D,
        "zip((3,4):(10,30), (2,5):(5,1)) = ((3,2),(4,5)):((10,5),(30,1))",
    ),
    // A block of rank 1 padded with 1:0.
    (
        "blocked_product",
        "4:1, (2,3):(1,2)",
        Some("append<2>(A) = (4,1):(1,0)"),
        PRODUCT_PADDED_A,
        "zip((4,1):(1,0), (2,3):(4,8)) = ((4,2),(1,3)):((1,4),(0,8))",
    ),
    (
        "raked_product",
        "4:1, (2,3):(1,2)",
        Some("append<2>(A) = (4,1):(1,0)"),
        PRODUCT_PADDED_A,
        "zip((2,3):(4,8), (4,1):(1,0)) = ((2,4),(3,1)):((4,1),(8,0))",
    ),
    // A tiler of rank 1 padded with 1:0.
    (
        "blocked_product",
        "(2,2):(1,2), 3:1",
        Some("append<2>(B) = (3,1):(1,0)"),
        PRODUCT_PADDED_B,
        "zip((2,2):(1,2), (3,1):(4,0)) = ((2,3),(2,1)):((1,4),(2,0))",
    ),
    (
        "raked_product",
        "(2,2):(1,2), 3:1",
        Some("append<2>(B) = (3,1):(1,0)"),
        PRODUCT_PADDED_B,
        "zip((3,1):(4,0), (2,2):(1,2)) = ((3,2),(1,2)):((4,1),(0,2))",
    ),
];

/// Calls that fail: the derivation fails with the function's own error.
const ERRORS: &[&str] = &[
    // Shape divisibility: 3 elements at stride 2 through 4:1 would take 2 of them.
    "composition((4,6):(1,10), 3:2)",
    // Stride divisibility: stride 6 against the mode of size 4.
    "composition((4,6):(1,10), 2:6)",
    "logical_divide((4,6):(1,10), 3:2)",
    // A non-injective layout has no complement.
    "complement((2,2):(1,1), 4)",
    "logical_product((2,2):(1,1), 2:1)",
    // left_inverse's divisibility: stride 3 after a size of 2.
    "left_inverse((2,2):(2,3))",
    // Too many tiler modes.
    "logical_divide(8:1, (2,2))",
    "composition(8:1, (2,2))",
    // A profile with more modes than the layout.
    "coalesce(8:1, (1,1))",
    // A `_` tiler mode leaves a mode that zip2_by cannot split: C++'s static_assert, the
    // crate's error, and the explanation's, the same.
    "zipped_divide((8,6):(1,8), (_,2:3))",
    "tiled_divide((8,6):(1,8), (_,2:3))",
    "flat_divide((8,6):(1,8), (_,2:3))",
];

#[test]
fn composition_examples() {
    check_all(COMPOSITION);
}

#[test]
fn complement_examples() {
    check_all(COMPLEMENT);
}

#[test]
fn logical_divide_examples() {
    check_all(DIVIDE);
}

#[test]
fn logical_product_examples() {
    check_all(PRODUCT);
}

#[test]
fn zipped_tiled_flat_examples() {
    for (logical, zip, tiled, flat) in REGROUPED {
        check(&regrouped("zipped", logical, zip, None));
        check(&regrouped("tiled", logical, zip, Some(tiled)));
        check(&regrouped("flat", logical, zip, Some(flat)));
    }
}

#[test]
fn blocked_and_raked_product_examples() {
    for (name, args, padded, logical, zip) in RANK_SENSITIVE {
        check(&rank_sensitive(name, args, padded, logical, zip));
    }
}

#[test]
fn coalesce_examples() {
    check_all(COALESCE);
}

#[test]
fn inverse_examples() {
    check_all(INVERSE);
}

#[test]
fn errors_are_the_functions_errors() {
    for call in ERRORS {
        for (real, e) in calls(call) {
            assert_eq!(e.unwrap_err(), real.unwrap_err(), "{call}");
        }
    }
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

/// Every operation [`op`] knows: the divides and products by their regrouping, then the
/// others (composition both ways).
fn all_ops() -> Vec<Op> {
    let regrouped = ["logical", "zipped", "tiled", "flat"]
        .into_iter()
        .flat_map(|how| ["divide", "product"].map(|what| format!("{how}_{what}")));
    let others = [
        "coalesce",
        "complement",
        "composition",
        "right_inverse",
        "left_inverse",
        "blocked_product",
        "raked_product",
    ];
    regrouped
        .chain(others.map(String::from))
        .map(|name| op(&name))
        .chain([PLAIN_COMPOSITION])
        .collect()
}

#[test]
fn explanations_end_with_the_real_results() {
    let mut g = Lcg(0x5eed_cafe);
    let mut ok: Vec<usize> = Vec::new();
    let ops = all_ops();
    for _ in 0..1500 {
        let a = g.layout();
        let b = g.layout();
        let tiler = g.tiler(&a, 2);
        let m = IntTuple::Int(1 + g.below(64) as i64);
        let w = format!("A = {a}, B = {b}, T = {tiler}, M = {m}");
        let profile = b.shape().product_each().unwrap();
        // Every operation with every operand it takes: a cotarget or profile given as `m`,
        // as the shape of `B` and not at all.
        let args = [
            Arg::None,
            Arg::Layout(b.clone()),
            Arg::Tiler(tiler),
            Arg::Tuple(Some(m)),
            Arg::Tuple(Some(profile)),
            Arg::Tuple(None),
        ];
        let results: Vec<bool> = ops
            .iter()
            .flat_map(|o| args.iter().filter_map(|x| o.run(&a, x)))
            .map(|(real, e)| agrees(&w, real, e))
            .collect();
        ok.resize(results.len(), 0);
        for (n, r) in ok.iter_mut().zip(results) {
            *n += usize::from(r);
        }
        if a.shape().is_static() && a.stride().is_static() && b.shape().is_static() {
            check_intermediates(&a, &b);
        }
    }
    // Every operation succeeded often enough for the sweep to mean something.
    for (i, n) in ok.iter().enumerate() {
        assert!(*n >= 40, "call {i} succeeded only {n} times: {ok:?}");
    }
}
