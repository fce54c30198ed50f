//! Derivations: how CuTe C++ (`layout.hpp`) arrives at an algebra result, one step a line.
//!
//! Each `explain_*` function takes the operands of the [`crate::layout`] function of the same
//! name and returns an [`Explanation`]: the steps in CuTe notation (values printed as the
//! crate prints them, CuTe `print` with the `_` of static integers dropped), ending with
//! `=> result`. The steps are the function's own: the algorithms of [`crate::layout`] report
//! every step of their folds (the same `if constexpr` branches, the same checked arithmetic)
//! to a tracer, which the public functions leave empty and which here writes each step as a
//! line. So a derivation is the very run that computed its result, and an operation that
//! fails returns exactly its error (`tests/explain.rs` runs them over many random layouts).
//!
//! Within one block of lines `A` names the block's first operand and `B` its second, as in
//! the block's heading line; a nested block (a complement inside a divide, say) is indented
//! and has its own heading.
//!
//! ```
//! use cute_core::{explain::explain_complement, IntTuple, Layout};
//! let a: Layout = "(2,2):(1,6)".parse().unwrap();
//! let e = explain_complement(&a, Some(&IntTuple::Int(24))).unwrap();
//! assert_eq!(e.lines.last().unwrap(), "=> (3,2):(2,12)");
//! ```

use crate::error::Result;
use crate::int_tuple::{IntTuple, Num};
use crate::layout::{self as alg, Layout, Logical, Regroup, Tiler};
use crate::trace::{
    Coalesce, Complement, Compose, Fit, Inverse, LeftTaken, Merge, Op, Step, Tiling, Took, Trace,
};
use std::fmt;

/// A derivation: its lines (nested steps indented by two spaces a level), the last one
/// `=> result`, and the result itself (the real function's).
///
/// ```
/// use cute_core::{explain::explain_coalesce, Layout};
/// let a: Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
/// let e = explain_coalesce(&a, None).unwrap();
/// assert_eq!(e.to_string().lines().last(), Some("=> 12:1"));
/// assert_eq!(e.result.to_string(), "12:1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// One step a line; the first is the call, the last `=> result`.
    pub lines: Vec<String>,
    /// The result, as the explained function returns it.
    pub result: Layout,
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, l) in self.lines.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            f.write_str(l)?;
        }
        Ok(())
    }
}

/// The derivation of the run `run` makes with a recorder: its lines and its result.
fn explain(run: impl FnOnce(&mut Recorder) -> Result<Layout>) -> Result<Explanation> {
    let mut rec = Recorder::default();
    let result = run(&mut rec)?;
    Ok(Explanation {
        lines: rec.lines,
        result,
    })
}

// ---------------------------------------------------------------------------------------
// The recorder: steps as lines
// ---------------------------------------------------------------------------------------

/// Writes the steps of a run as lines: an operation's heading, its steps indented under it
/// (a nested operation, or the modes of a by-mode step, one level deeper), then `=> result`.
#[derive(Default)]
struct Recorder {
    lines: Vec<String>,
    /// The indentation of the next line, in levels of two spaces.
    depth: usize,
    /// Where in `B` the composition is: the index of each mode entered.
    path: Vec<usize>,
    /// The index the next mode entered gets, for each mode of `B` open.
    next: Vec<usize>,
}

impl Recorder {
    fn line(&mut self, text: impl fmt::Display) {
        self.lines
            .push(format!("{}{text}", "  ".repeat(self.depth)));
    }
    /// A line that opens a level (a heading).
    fn open(&mut self, text: impl fmt::Display) {
        self.line(text);
        self.depth = self.depth.saturating_add(1);
    }
    fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}

/// The name of the mode of `B` at `path`.
fn path_name(path: &[usize]) -> String {
    if path.is_empty() {
        return "B".to_string();
    }
    let p: Vec<String> = path.iter().map(|i| i.to_string()).collect();
    format!("get<{}>(B)", p.join(","))
}

/// `s:d` of two lists, printed as a layout (one-element lists as integers).
fn listed<X>(s: &[X], d: &[X], leaf: impl Fn(&X) -> IntTuple) -> Layout {
    match (s, d) {
        ([s], [d]) => Layout::raw(leaf(s), leaf(d)),
        _ => Layout::raw(tuple(s, &leaf), tuple(d, &leaf)),
    }
}

/// A list printed as a tuple.
fn tuple<X>(v: &[X], leaf: impl Fn(&X) -> IntTuple) -> IntTuple {
    IntTuple::Tuple(v.iter().map(leaf).collect())
}

fn num(n: &Num) -> IntTuple {
    n.leaf()
}

/// The flat mode `s:d`.
fn mode((s, d): (Num, Num)) -> String {
    format!("{}:{}", s.v, d.v)
}

/// `repeat<R>(_)` as CuTe writes it for a mode of rank `r`.
fn repeat(r: usize) -> String {
    if r == 1 {
        "_".to_string()
    } else {
        format!("repeat<{r}>(_)")
    }
}

impl Trace for Recorder {
    fn step<'a>(&mut self, step: impl Into<Step<'a>>) {
        match step.into() {
            Step::Op(s) => self.op(s),
            Step::Coalesce(s) => self.coalesce(s),
            Step::Compose(s) => self.compose(s),
            Step::Complement(s) => self.complement(s),
            Step::Inverse(s) => self.inverse(s),
            Step::Tiling(s) => self.tiling(s),
        }
    }
}

impl Recorder {
    /// An operation's frame: its heading, by-mode blocks and result.
    fn op(&mut self, step: Op<'_>) {
        match step {
            Op::Begin { op, a, b: Some(b) } => self.open(format_args!("{op}({a}, {b})")),
            Op::Begin { op, a, b: None } => self.open(format_args!("{op}({a})")),
            Op::End { result } => {
                self.close();
                self.line(format_args!("=> {result}"));
            }
            Op::ByMode { profile: false } => self.open("by mode:"),
            Op::ByMode { profile: true } => self.open("by mode of the profile:"),
            Op::ByModeEnd => self.close(),
            Op::Past { i, mode, kept } => {
                let what = if kept { "kept" } else { "dropped" };
                self.line(format_args!("get<{i}>(A) = {mode}, {what}"));
            }
            Op::Keeps => self.line("_ keeps A"),
            Op::IntTiler { n, layout } => {
                self.line(format_args!("B = {n}: make_layout({n}) = {layout}"))
            }
        }
    }

    /// `bw_coalesce`'s merges.
    fn coalesce(&mut self, step: Coalesce<'_>) {
        match step {
            Coalesce::Start { layout, last } => {
                self.line(format_args!("flatten(A) = {}", layout.flatten()));
                self.line(format_args!("start from the last mode {}", mode(last)));
            }
            Coalesce::Mode {
                mode: (s, d),
                how,
                front,
                into: (rs, rd),
            } => {
                let m = mode((s, d));
                let (sv, dv, f) = (s.v, d.v, front.v);
                let why = match how {
                    Merge::Dropped => return self.line(format_args!("{m}: size 1, dropped")),
                    Merge::Replaced => {
                        return self.line(format_args!("{m}: replaces the size-1 mode -> {m}"))
                    }
                    Merge::Merged => {
                        let cur = listed(rs, rd, num);
                        return self.line(format_args!("{m}: {sv}*{dv} == {f}, merge -> {cur}"));
                    }
                    Merge::Prepended { product: None } => "the front shape is dynamic".to_string(),
                    Merge::Prepended { product: Some(p) } if p.v == f => {
                        format!("{sv}*{dv} == {f} only at run time")
                    }
                    Merge::Prepended { product: Some(_) } => format!("{sv}*{dv} != {f}"),
                };
                let cur = listed(rs, rd, num);
                self.line(format_args!("{m}: {why}, prepend -> {cur}"));
            }
            Coalesce::Unit => self.line("size 1: 1:0"),
            Coalesce::Of { of, result } => self.line(format_args!("coalesce({of}) = {result}")),
        }
    }

    /// `composition_impl`'s modes of `B` and its fold over `A`'s modes.
    fn compose(&mut self, step: Compose<'_>) {
        match step {
            Compose::CoalescedX { flat } => self.line(format_args!("A' = coalesce_x(A) = {flat}")),
            Compose::IntAsLayout { n } => self.line(format_args!("B = {n} means the layout {n}:1")),
            Compose::Mode {
                shape,
                stride,
                by_mode,
            } => {
                // A mode of a tuple gets the next index of the tuple open around it.
                if let Some(k) = self.next.last_mut() {
                    self.path.push(*k);
                    *k = k.saturating_add(1);
                }
                self.next.push(0);
                let tail = if by_mode { ", by mode:" } else { ":" };
                let name = path_name(&self.path);
                self.open(format_args!("{name} = {shape}:{stride}{tail}"));
            }
            Compose::Done { result } => {
                self.next.pop();
                // The whole of `B` ends with the block's `=> result` instead.
                if self.path.pop().is_some() {
                    self.line(format_args!("= {result}"));
                }
                self.close();
            }
            Compose::Zero { result } => self.line(format_args!("stride 0: -> {result}")),
            Compose::OneMode {
                lhs,
                stride,
                lhs_stride,
                result,
            } => self.line(format_args!(
                "A' is the one mode {lhs}: stride {}*{} -> {result}",
                stride.v, lhs_stride.v
            )),
            Compose::Fold {
                mode: (cs, cd),
                rest: (n, r),
                fit,
                abs_rest,
                next_stride: next,
                took,
            } => {
                let check = match fit {
                    Fit::Divides => format!("{} % {} == 0", r.v, cs.v),
                    Fit::Below => format!("{} < {}", r.v, cs.v),
                    Fit::Unchecked => "unchecked (dynamic)".to_string(),
                };
                let head = format!("{}, rest {}: {check}", mode((cs, cd)), mode((n, r)));
                let ceil = format!("ceil_div({},{})", cs.v, abs_rest.v);
                match took {
                    Took::Skip => self.line(format_args!(
                        "{head}; {ceil} = 1, skip; rest {}",
                        mode((n, next))
                    )),
                    Took::Empty => {
                        self.line(format_args!("{head}; nothing left; rest 1:{}", next.v))
                    }
                    Took::Take {
                        shape: k,
                        stride: d,
                        left,
                    } => self.line(format_args!(
                        "{head}; take min({ceil},{}) = {} -> {}; rest {}",
                        n.v,
                        k.v,
                        mode((k, d)),
                        mode((left, next))
                    )),
                }
            }
            Compose::Last { mode: m, rest } => match rest {
                Some((n, r, d)) => self.line(format_args!(
                    "{} (last), rest {} -> {}",
                    mode(m),
                    mode((n, r)),
                    mode((n, d))
                )),
                None => self.line(format_args!("{} (last): nothing left", mode(m))),
            },
        }
    }

    /// `complement`'s fold over the sorted strides.
    fn complement(&mut self, step: Complement<'_>) {
        match step {
            Complement::Filtered { layout } => self.line(format_args!("filter(A) = {layout}")),
            Complement::Cotarget { cotarget } => {
                self.line(format_args!("cotarget = cosize(filter(A)) = {cotarget}"))
            }
            Complement::Zero { cotarget, result } => self.line(format_args!(
                "stride 0: make_layout(coalesce({cotarget})) = {result}"
            )),
            Complement::Mode {
                mode: (sh, d),
                last,
                prev,
                quotient: q,
                next,
            } => {
                let which = if last { "last" } else { "smallest stride" };
                // C++ truncates the division; a remainder (or a zero divisor) is noted.
                let note = if d.v.checked_rem(prev.v) == Some(0) {
                    ""
                } else {
                    " (truncated)"
                };
                self.line(format_args!(
                    "mode {} ({which}): {}/{} = {}{note}, next stride {}*{} = {}",
                    mode((sh, d)),
                    d.v,
                    prev.v,
                    q.v,
                    d.v,
                    sh.v,
                    next.v
                ));
            }
            Complement::Rest {
                cotarget,
                from,
                rest: (shape, stride),
            } => self.line(format_args!(
                "rest: coalesce(ceil_div({cotarget},{})) = {shape} -> {shape}:{stride}",
                from.v
            )),
        }
    }

    /// The inverses' walks over the strides.
    fn inverse(&mut self, step: Inverse<'_>) {
        match step {
            Inverse::CoalescedA { result } => self.line(format_args!("coalesce(A) = {result}")),
            Inverse::Prefix { shape, pre } => self.line(format_args!(
                "prefix products of {}: {}",
                tuple(shape, num),
                tuple(pre, num)
            )),
            Inverse::DynamicStride { i, mode: m } => self.line(format_args!(
                "mode {i}, {}: dynamic stride, left out",
                mode(m)
            )),
            Inverse::Sorted { order, stride } => {
                let by: Vec<String> = order
                    .iter()
                    .filter_map(|&i| stride.get(i).map(|d| format!("{} (mode {i})", d.v)))
                    .collect();
                self.line(format_args!("strides sorted: {}", by.join(", ")));
            }
            Inverse::RightMode {
                i,
                mode: (sh, d),
                curr,
                taken,
            } => {
                let m = format!("mode {i}, {}", mode((sh, d)));
                match taken {
                    Some((rs, rd, next)) => self.line(format_args!(
                        "{m}: stride {} == curr {} -> {}; curr {}",
                        d.v,
                        curr.v,
                        listed(rs, rd, IntTuple::clone),
                        next.v
                    )),
                    None => {
                        let why = if d.v == curr.v {
                            "== curr only at run time"
                        } else {
                            "!= curr"
                        };
                        self.line(format_args!(
                            "{m}: stride {} {why} {}, skipped",
                            d.v, curr.v
                        ));
                    }
                }
            }
            Inverse::LeftMode {
                i,
                mode: (sh, d),
                taken,
            } => {
                let m = format!("mode {i}, {}", mode((sh, d)));
                let Some(LeftTaken {
                    checked,
                    size,
                    quotient,
                    shapes,
                    strides,
                    grown,
                }) = taken
                else {
                    return self.line(format_args!("{m}: stride 0, skipped"));
                };
                let check = if checked {
                    format!("{} % {} == 0", d.v, size.v)
                } else {
                    "unchecked (dynamic)".to_string()
                };
                self.line(format_args!(
                    "{m}: {check}; {}/{} = {}; shape {}, stride {}; size {}",
                    d.v,
                    size.v,
                    quotient.v,
                    tuple(shapes, IntTuple::clone),
                    tuple(strides, IntTuple::clone),
                    grown.v
                ));
            }
            Inverse::LeftLast { i, shape, shapes } => self.line(format_args!(
                "last by stride, mode {i}: its shape {} closes the shape {}",
                shape.v,
                tuple(shapes, IntTuple::clone)
            )),
        }
    }

    /// The divides and products: their formulas and the layouts they make.
    fn tiling(&mut self, step: Tiling<'_>) {
        match step {
            Tiling::DivideFormula => self.line(
                "= composition(A, make_layout(B, complement(B, shape(coalesce(A)))))",
            ),
            Tiling::DivideTarget { target } => {
                self.line(format_args!("shape(coalesce(A)) = {target}"))
            }
            Tiling::ProductFormula => {
                self.line("= make_layout(A, composition(complement(A, size(A)*cosize(B)), B))")
            }
            Tiling::ProductTarget {
                size,
                cosize,
                target,
            } => self.line(format_args!(
                "size(A)*cosize(B) = {}*{} = {}",
                size.v, cosize.v, target.v
            )),
            Tiling::Made {
                first,
                second,
                result,
            } => self.line(format_args!("make_layout({first}, {second}) = {result}")),
            Tiling::RegroupFormula { logical } => self.line(format_args!(
                "L = {logical}(A, B); Z = tile_unzip(L, B): the tiles in mode 0, the rests in mode 1"
            )),
            Tiling::Unzipped { result } => self.line(format_args!("tile_unzip(L, B) = {result}")),
            Tiling::Unpacked {
                both,
                ranks: (r0, r1),
                result,
            } => {
                // Mode 0 left whole is `_`, as a rank-1 mode unpacks.
                let first = repeat(if both { r0 } else { 1 });
                self.line(format_args!("Z({first},{}) = {result}", repeat(r1)));
            }
            Tiling::RankFormula { raked } => {
                let (first, second) = if raked { (1, 0) } else { (0, 1) };
                self.line(format_args!(
                    "= zip(get<{first}>(L), get<{second}>(L)), L = logical_product(append<R>(A), append<R>(B))"
                ));
            }
            Tiling::Rank { r } => self.line(format_args!("R = max(rank(A), rank(B)) = {r}")),
            Tiling::Appended { name, r, from, to } => {
                if to.rank() != from.rank() {
                    self.line(format_args!("append<{r}>({name}) = {to}"));
                }
            }
            Tiling::Zipped { x, y, result } => self.line(format_args!("zip({x}, {y}) = {result}")),
        }
    }
}

// ---------------------------------------------------------------------------------------
// The derivations
// ---------------------------------------------------------------------------------------

/// The derivation of [`alg::coalesce`]: the flattened modes walked from the last, each merge
/// rule of CuTe's `bw_coalesce` (size-1 modes dropped, `s0*d0 == d1` merged, else prepended);
/// with a profile, one block per mode of the profile.
///
/// ```
/// use cute_core::{explain::explain_coalesce, Layout};
/// let a: Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
/// let e = explain_coalesce(&a, None).unwrap();
/// assert_eq!(e.lines, [
///     "coalesce((2,(1,6)):(1,(6,2)))",
///     "  flatten(A) = (2,1,6):(1,6,2)",
///     "  start from the last mode 6:2",
///     "  1:6: size 1, dropped",
///     "  2:1: 2*1 == 2, merge -> 12:1",
///     "=> 12:1",
/// ]);
/// ```
pub fn explain_coalesce(layout: &Layout, profile: Option<&IntTuple>) -> Result<Explanation> {
    explain(|t| alg::coalesce_traced(layout, profile, t))
}

/// The derivation of [`alg::composition`]: `A' = coalesce_x(A)`, then CuTe's
/// `composition_impl` by mode of `B`: for each mode `n:r` of `B`, each mode `s:d` of `A'`
/// but the last checks `r % s == 0 or r < s`, skips when `ceil_div(s,|r|) == 1` (the stride
/// steps over it) and else takes `k = min(ceil_div(s,|r|), n)` elements at stride `r*d`, the
/// rest going on as `n/k : ceil_div(|r|,s)`; the last mode of `A'` takes what is left.
///
/// ```
/// use cute_core::{explain::explain_composition, Layout};
/// let a: Layout = "(6,2):(8,2)".parse().unwrap();
/// let b: Layout = "(4,3):(3,1)".parse().unwrap();
/// let e = explain_composition(&a, &b).unwrap();
/// assert_eq!(e.lines[0], "composition((6,2):(8,2), (4,3):(3,1))");
/// assert_eq!(e.lines.last().unwrap(), "=> ((2,2),3):((24,2),8)");
/// ```
pub fn explain_composition(lhs: &Layout, rhs: &Layout) -> Result<Explanation> {
    explain(|t| alg::composition_traced(lhs, rhs, t))
}

/// The derivation of [`alg::composition_tiler`]: a layout tiler as
/// [`explain_composition`], `n` as the layout `n:1`, `_` keeping `A`, and a tuple by mode
/// (a nested block per mode; the modes of `A` past the tiler dropped).
///
/// ```
/// use cute_core::{explain::explain_composition_tiler, layout::Tiler, Layout};
/// let a: Layout = "(12,(4,8)):(59,(13,1))".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Layout("3:4".parse().unwrap()), Tiler::Layout("8:2".parse().unwrap())]);
/// let e = explain_composition_tiler(&a, &t).unwrap();
/// assert_eq!(e.lines[1], "  by mode:");
/// assert_eq!(e.lines[2], "    composition(12:59, 3:4)");
/// assert_eq!(e.lines.last().unwrap(), "=> (3,(2,4)):(236,(26,1))");
/// ```
pub fn explain_composition_tiler(lhs: &Layout, tiler: &Tiler) -> Result<Explanation> {
    explain(|t| alg::composition_tiler_traced(lhs, tiler, t))
}

/// The derivation of [`alg::complement`]: `filter(A)`, then CuTe's fold over its modes by
/// increasing stride (each new mode `d_i / (s_{i-1}*d_{i-1})`, the division C++ truncates
/// noted), the rest mode up to the cotarget, and the coalesced result.
///
/// ```
/// use cute_core::{explain::explain_complement, IntTuple, Layout};
/// let a: Layout = "(2,2):(1,6)".parse().unwrap();
/// let e = explain_complement(&a, Some(&IntTuple::Int(24))).unwrap();
/// assert_eq!(e.lines, [
///     "complement((2,2):(1,6), 24)",
///     "  filter(A) = (2,2):(1,6)",
///     "  mode 2:1 (smallest stride): 1/1 = 1, next stride 1*2 = 2",
///     "  mode 2:6 (last): 6/2 = 3, next stride 6*2 = 12",
///     "  rest: coalesce(ceil_div(24,12)) = 2 -> 2:12",
///     "  coalesce(((1,3),2):((1,2),12)) = (3,2):(2,12)",
///     "=> (3,2):(2,12)",
/// ]);
/// ```
pub fn explain_complement(layout: &Layout, cotarget: Option<&IntTuple>) -> Result<Explanation> {
    explain(|t| alg::complement_traced(layout, cotarget, t))
}

/// The derivation of [`alg::right_inverse`]: `coalesce(A)`, the prefix products of its
/// shape, its static strides sorted, and CuTe's fold appending `shape_i : prefix_i` while
/// the stride is the current one (`curr = shape_i * stride_i` after each).
///
/// ```
/// use cute_core::{explain::explain_right_inverse, Layout};
/// let a: Layout = "(4,8):(8,1)".parse().unwrap();
/// let e = explain_right_inverse(&a).unwrap();
/// assert_eq!(e.lines, [
///     "right_inverse((4,8):(8,1))",
///     "  coalesce(A) = (4,8):(8,1)",
///     "  prefix products of (4,8): (1,4,32)",
///     "  strides sorted: 1 (mode 1), 8 (mode 0)",
///     "  mode 1, 8:1: stride 1 == curr 1 -> (1,8):(0,4); curr 8",
///     "  mode 0, 4:8: stride 8 == curr 8 -> (1,8,4):(0,4,1); curr 32",
///     "  coalesce((1,8,4):(0,4,1)) = (8,4):(4,1)",
///     "=> (8,4):(4,1)",
/// ]);
/// ```
pub fn explain_right_inverse(layout: &Layout) -> Result<Explanation> {
    explain(|t| alg::right_inverse_traced(layout, t))
}

/// The derivation of [`alg::left_inverse`]: `coalesce(A)`, the prefix products of its
/// shape, its strides sorted, and CuTe's fold: each nonzero stride `d` (a multiple of the
/// size so far) appends the shape `d / size` and the stride `prefix_i`; the shape of the
/// last mode by stride closes the shape.
///
/// ```
/// use cute_core::{explain::explain_left_inverse, Layout};
/// let a: Layout = "(8,5,2):(40,4,20)".parse().unwrap();
/// let e = explain_left_inverse(&a).unwrap();
/// assert_eq!(e.lines.last().unwrap(), "=> (4,10,8):(0,8,1)");
/// ```
pub fn explain_left_inverse(layout: &Layout) -> Result<Explanation> {
    explain(|t| alg::left_inverse_traced(layout, t))
}

/// The derivation of [`alg::logical_divide`]: `composition(A, make_layout(B,
/// complement(B, shape(coalesce(A)))))` with the complement and the composition as nested
/// blocks; an integer tiler is `make_layout(n)`, `_` keeps `A`, a tuple goes by mode.
///
/// ```
/// use cute_core::{explain::explain_logical_divide, layout::Tiler, Layout};
/// let a: Layout = "(4,2,3):(2,1,8)".parse().unwrap();
/// let e = explain_logical_divide(&a, &Tiler::Layout("4:2".parse().unwrap())).unwrap();
/// assert_eq!(e.lines[2], "  shape(coalesce(A)) = (4,2,3)");
/// assert_eq!(e.lines.last().unwrap(), "=> ((2,2),(2,3)):((4,1),(2,8))");
/// ```
pub fn explain_logical_divide(layout: &Layout, tiler: &Tiler) -> Result<Explanation> {
    explain(|t| alg::logical_traced(Logical::Divide, layout, tiler, t))
}

/// The derivation of [`alg::logical_product`]: `make_layout(A, composition(complement(A,
/// size(A)*cosize(B)), B))` with the complement and the composition as nested blocks; an
/// integer tiler is `make_layout(n)`, `_` keeps `A`, a tuple goes by mode.
///
/// ```
/// use cute_core::{explain::explain_logical_product, layout::Tiler, Layout};
/// let a: Layout = "(2,2):(4,1)".parse().unwrap();
/// let e = explain_logical_product(&a, &Tiler::Layout("6:1".parse().unwrap())).unwrap();
/// assert_eq!(e.lines[2], "  size(A)*cosize(B) = 4*6 = 24");
/// assert_eq!(e.lines.last().unwrap(), "=> ((2,2),(2,3)):((4,1),(2,8))");
/// ```
pub fn explain_logical_product(block: &Layout, tiler: &Tiler) -> Result<Explanation> {
    explain(|t| alg::logical_traced(Logical::Product, block, tiler, t))
}

/// The public `explain_*` of the regrouped divides and products, one a line: the name, the
/// logical operation and the regrouping (each with its doc comment).
macro_rules! regrouped {
    ($($(#[$doc:meta])* $name:ident: $op:ident, $how:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(a: &Layout, tiler: &Tiler) -> Result<Explanation> {
            explain(|t| alg::regrouped_traced(Logical::$op, Regroup::$how, a, tiler, t))
        }
    )*};
}

regrouped! {
    /// The derivation of [`alg::zipped_divide`]: the logical divide (nested), then
    /// `tile_unzip`, gathering the tile modes into mode 0 and the rest into mode 1.
    ///
    /// ```
    /// use cute_core::{explain::explain_zipped_divide, layout::Tiler, Layout};
    /// let a: Layout = "(4,2,3):(2,1,8)".parse().unwrap();
    /// let e = explain_zipped_divide(&a, &Tiler::Layout("4:2".parse().unwrap())).unwrap();
    /// assert_eq!(e.lines.last().unwrap(), "=> ((2,2),(2,3)):((4,1),(2,8))");
    /// ```
    explain_zipped_divide: Divide, Zipped;
    /// The derivation of [`alg::tiled_divide`]: the zipped divide, then mode 1 unpacked
    /// (`Z(_, repeat<R1>(_))`).
    ///
    /// ```
    /// use cute_core::{explain::explain_tiled_divide, layout::Tiler, Layout};
    /// let a: Layout = "(4,2,3):(2,1,8)".parse().unwrap();
    /// let e = explain_tiled_divide(&a, &Tiler::Layout("4:2".parse().unwrap())).unwrap();
    /// assert_eq!(e.lines.last().unwrap(), "=> ((2,2),2,3):((4,1),2,8)");
    /// ```
    explain_tiled_divide: Divide, Tiled;
    /// The derivation of [`alg::flat_divide`]: the zipped divide, then both modes unpacked
    /// (`Z(repeat<R0>(_), repeat<R1>(_))`).
    ///
    /// ```
    /// use cute_core::{explain::explain_flat_divide, layout::Tiler, Layout};
    /// let a: Layout = "(4,2,3):(2,1,8)".parse().unwrap();
    /// let e = explain_flat_divide(&a, &Tiler::Layout("4:2".parse().unwrap())).unwrap();
    /// assert_eq!(e.lines.last().unwrap(), "=> (2,2,2,3):(4,1,2,8)");
    /// ```
    explain_flat_divide: Divide, Flat;
    /// The derivation of [`alg::zipped_product`]: the logical product (nested), then
    /// `tile_unzip`.
    ///
    /// ```
    /// use cute_core::{explain::explain_zipped_product, layout::Tiler, Layout};
    /// let a: Layout = "(2,3):(1,2)".parse().unwrap();
    /// let t = Tiler::Tuple(vec![Tiler::Layout("4:4".parse().unwrap())]);
    /// let e = explain_zipped_product(&a, &t).unwrap();
    /// assert_eq!(e.lines.last().unwrap(), "=> ((2),(4,3)):((1),(8,2))");
    /// ```
    explain_zipped_product: Product, Zipped;
    /// The derivation of [`alg::tiled_product`]: the zipped product, then mode 1 unpacked.
    ///
    /// ```
    /// use cute_core::{explain::explain_tiled_product, layout::Tiler, Layout};
    /// let a: Layout = "(2,2):(6,1)".parse().unwrap();
    /// let t = Tiler::Tuple(vec![Tiler::Layout("4:1".parse().unwrap())]);
    /// let e = explain_tiled_product(&a, &t).unwrap();
    /// assert_eq!(e.lines.last().unwrap(), "=> ((2),4,2):((6),1,1)");
    /// ```
    explain_tiled_product: Product, Tiled;
    /// The derivation of [`alg::flat_product`]: the zipped product, then both modes unpacked.
    ///
    /// ```
    /// use cute_core::{explain::explain_flat_product, layout::Tiler, Layout};
    /// let a: Layout = "(8,2):(2,1)".parse().unwrap();
    /// let t = Tiler::Layout("(2,8,1):(32,1,32)".parse().unwrap());
    /// let e = explain_flat_product(&a, &t).unwrap();
    /// assert_eq!(e.lines.last().unwrap(), "=> (8,2,2,8,1):(2,1,512,16,512)");
    /// ```
    explain_flat_product: Product, Flat;
}

/// The derivation of [`alg::blocked_product`]: both padded to the larger rank, their
/// logical product (nested), then `zip(get<0>(L), get<1>(L))`: each mode is a block mode
/// followed by its tiler mode.
///
/// ```
/// use cute_core::{explain::explain_blocked_product, Layout};
/// let a: Layout = "(2,5):(5,1)".parse().unwrap();
/// let b: Layout = "(3,4):(1,3)".parse().unwrap();
/// let e = explain_blocked_product(&a, &b).unwrap();
/// assert_eq!(e.lines.last().unwrap(), "=> ((2,3),(5,4)):((5,10),(1,30))");
/// ```
pub fn explain_blocked_product(block: &Layout, tiler: &Layout) -> Result<Explanation> {
    explain(|t| alg::rank_sensitive_traced(false, block, tiler, t))
}

/// The derivation of [`alg::raked_product`]: as [`explain_blocked_product`], but
/// `zip(get<1>(L), get<0>(L))`: each tiler mode first, interleaving the blocks.
///
/// ```
/// use cute_core::{explain::explain_raked_product, Layout};
/// let a: Layout = "(2,5):(5,1)".parse().unwrap();
/// let b: Layout = "(3,4):(1,3)".parse().unwrap();
/// let e = explain_raked_product(&a, &b).unwrap();
/// assert_eq!(e.lines.last().unwrap(), "=> ((3,2),(4,5)):((10,5),(30,1))");
/// ```
pub fn explain_raked_product(block: &Layout, tiler: &Layout) -> Result<Explanation> {
    explain(|t| alg::rank_sensitive_traced(true, block, tiler, t))
}
