//! Derivations: how CuTe C++ (`layout.hpp`) arrives at an algebra result, one step a line.
//!
//! Each `explain_*` function takes the operands of the [`crate::layout`] function of the same
//! name and returns an [`Explanation`]: the steps in CuTe notation (values printed as the
//! crate prints them, CuTe `print` with the `_` of static integers dropped), ending with
//! `=> result`. The result is the real function's: it is computed first, so an operation
//! that fails returns exactly its error. The steps retrace the function's own code (the same
//! folds, the same `if constexpr` branches, checked arithmetic); every intermediate value a
//! step shows is checked against the crate's own helper for it, and a derivation that
//! disagreed with the function would be an error, never a wrong text (`tests/explain.rs`
//! runs them over many random layouts).
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

use crate::error::{arith, Error, Result};
use crate::int_tuple::{self, IntTuple, Num};
use crate::layout::{self as alg, make_layout, Layout, Tiler};
use std::fmt;

use IntTuple::{Dyn, Int, Tuple};

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

/// The lines being written: the heading, then the steps indented under it (a nested
/// derivation one level deeper), then `=> result`.
struct Out(Vec<String>);

impl Out {
    fn new(head: String) -> Out {
        Out(vec![head])
    }
    /// A step at `depth` under the heading.
    fn line(&mut self, depth: usize, text: String) {
        self.0.push(format!("{}{text}", "  ".repeat(depth + 1)));
    }
    /// A nested derivation at `depth` under the heading.
    fn nest(&mut self, depth: usize, e: &Explanation) {
        let pad = "  ".repeat(depth + 1);
        for l in &e.lines {
            self.0.push(format!("{pad}{l}"));
        }
    }
    fn finish(mut self, result: Layout) -> Explanation {
        self.0.push(format!("=> {result}"));
        Explanation {
            lines: self.0,
            result,
        }
    }
}

/// The derivation's value against the crate's own: equal, static-ness included.
fn agree(what: &str, traced: &Layout, real: &Layout) -> Result<()> {
    if format!("{traced:?}") == format!("{real:?}") {
        Ok(())
    } else {
        Err(crate::err!(
            "explain: the derivation of {what} gives {traced}, the function gives {real}"
        ))
    }
}

fn internal(what: &str) -> Error {
    crate::err!("explain: {what}")
}

fn leaf(t: &IntTuple) -> Result<Num> {
    t.num()
        .ok_or_else(|| internal("a flat mode is not an integer"))
}

/// A flat list of integers as CuTe prints a tuple.
fn tuple_of(v: &[Num]) -> IntTuple {
    IntTuple::nums(v)
}

/// `a:b` of two flat lists, printed as a layout (a one-element list as an integer).
fn flat_layout(s: &[Num], d: &[Num]) -> Layout {
    if s.len() == 1 && d.len() == 1 {
        Layout::raw(s[0].leaf(), d[0].leaf())
    } else {
        Layout::raw(tuple_of(s), tuple_of(d))
    }
}

// ---------------------------------------------------------------------------------------
// Coalesce
// ---------------------------------------------------------------------------------------

/// CuTe's `bw_coalesce`, as `layout.rs` runs it, with a line a mode.
fn bw_coalesce(
    fs: &[Num],
    fd: &[Num],
    init_shape: Num,
    init_stride: Num,
    out: &mut Out,
    depth: usize,
) -> Result<Layout> {
    let mut shape = vec![init_shape];
    let mut stride = vec![init_stride];
    for i in (0..fs.len().saturating_sub(1)).rev() {
        let (s, d) = (fs[i], fd[i]);
        let mode = format!("{}:{}", s.v, d.v);
        if s.is_const(1) {
            out.line(depth, format!("{mode}: size 1, dropped"));
            continue;
        }
        if shape.len() == 1 && shape[0].is_const(1) {
            (shape[0], stride[0]) = (s, d);
            out.line(depth, format!("{mode}: replaces the size-1 mode -> {mode}"));
            continue;
        }
        let why = if shape[0].is_static() {
            let p = s.mul(d)?;
            if p.static_eq(stride[0]) {
                let front = stride[0];
                shape[0] = s.mul(shape[0])?;
                stride[0] = d;
                let cur = flat_layout(&shape, &stride);
                out.line(
                    depth,
                    format!("{mode}: {}*{} == {}, merge -> {cur}", s.v, d.v, front.v),
                );
                continue;
            }
            if p.v == stride[0].v {
                format!("{}*{} == {} only at run time", s.v, d.v, stride[0].v)
            } else {
                format!("{}*{} != {}", s.v, d.v, stride[0].v)
            }
        } else {
            "the front shape is dynamic".to_string()
        };
        shape.insert(0, s);
        stride.insert(0, d);
        let cur = flat_layout(&shape, &stride);
        out.line(depth, format!("{mode}: {why}, prepend -> {cur}"));
    }
    Ok(match shape.len() {
        1 if shape[0].is_const(1) => {
            out.line(depth, "size 1: 1:0".to_string());
            Layout::raw(Int(1), Int(0))
        }
        _ => flat_layout(&shape, &stride),
    })
}

fn flat_lists(layout: &Layout) -> Result<(Vec<Num>, Vec<Num>)> {
    let fs = layout.shape().leaf_nums();
    let fd = layout.stride().leaf_nums();
    if fs.is_empty() || fs.len() != fd.len() {
        return Err(internal("an empty layout has no coalesce"));
    }
    Ok((fs, fd))
}

/// CuTe's `coalesce` of the whole layout (no profile), with its lines.
fn coalesce_whole(layout: &Layout, out: &mut Out, depth: usize) -> Result<Layout> {
    let (fs, fd) = flat_lists(layout)?;
    out.line(depth, format!("flatten(A) = {}", layout.flatten()));
    let r = fs.len();
    out.line(
        depth,
        format!("start from the last mode {}:{}", fs[r - 1].v, fd[r - 1].v),
    );
    bw_coalesce(&fs, &fd, fs[r - 1], fd[r - 1], out, depth)
}

/// CuTe's `detail::coalesce_x` (what composition coalesces its left side with): as
/// `coalesce`, but a last mode of size 1 starts as `2:d`, keeping its stride.
fn coalesce_x(layout: &Layout) -> Result<Layout> {
    let (fs, fd) = flat_lists(layout)?;
    let r = fs.len();
    let last = if fs[r - 1].is_const(1) {
        Num::fixed(2)
    } else {
        fs[r - 1]
    };
    let mut quiet = Out(Vec::new());
    bw_coalesce(&fs, &fd, last, fd[r - 1], &mut quiet, 0)
}

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
    let real = alg::coalesce(layout, profile)?;
    let head = match profile {
        None => format!("coalesce({layout})"),
        Some(p) => format!("coalesce({layout}, {p})"),
    };
    let mut out = Out::new(head);
    let traced = match profile {
        None | Some(Int(_) | Dyn(_)) => coalesce_whole(layout, &mut out, 0)?,
        Some(Tuple(ps)) => {
            out.line(0, "by mode of the profile:".to_string());
            let mut parts = Vec::with_capacity(layout.rank());
            for (i, m) in layout.modes().iter().enumerate() {
                match ps.get(i) {
                    Some(p) => {
                        let e = explain_coalesce(m, Some(p))?;
                        out.nest(1, &e);
                        parts.push(e.result);
                    }
                    None => {
                        out.line(1, format!("get<{i}>(A) = {m}, kept"));
                        parts.push(m.clone());
                    }
                }
            }
            make_layout(&parts)
        }
    };
    agree("coalesce", &traced, &real)?;
    Ok(out.finish(real))
}

// ---------------------------------------------------------------------------------------
// Composition
// ---------------------------------------------------------------------------------------

fn path_name(path: &[usize]) -> String {
    if path.is_empty() {
        return "B".to_string();
    }
    let p: Vec<String> = path.iter().map(|i| i.to_string()).collect();
    format!("get<{}>(B)", p.join(","))
}

/// CuTe's `composition_impl` of the coalesced left side `lhs` with the mode `rs:rd` of the
/// right side: by mode for a tuple (right-distributivity), a block of lines per mode.
fn compose_modes(
    lhs: &Layout,
    rs: &IntTuple,
    rd: &IntTuple,
    path: &mut Vec<usize>,
    depth: usize,
    out: &mut Out,
) -> Result<Layout> {
    let name = path_name(path);
    if let (Tuple(ss), Tuple(ds)) = (rs, rd) {
        out.line(depth, format!("{name} = {rs}:{rd}, by mode:"));
        let mut parts = Vec::with_capacity(ss.len());
        for (i, (s, d)) in ss.iter().zip(ds).enumerate() {
            path.push(i);
            let part = compose_modes(lhs, s, d, path, depth + 1, out);
            path.pop();
            parts.push(part?);
        }
        let r = make_layout(&parts);
        if !path.is_empty() {
            out.line(depth + 1, format!("= {r}"));
        }
        return Ok(r);
    }
    out.line(depth, format!("{name} = {rs}:{rd}:"));
    let r = compose_leaf(lhs, rs, rd, depth + 1, out)?;
    let mode = Layout::new(rs.clone(), rd.clone())?;
    agree(
        &format!("composition with {name}"),
        &r,
        &alg::composition_flat(lhs, &mode)?,
    )?;
    if !path.is_empty() {
        out.line(depth + 1, format!("= {r}"));
    }
    Ok(r)
}

/// The integral-RHS case of CuTe's `composition_impl`, as `layout.rs` runs it: the fold over
/// the modes of `lhs` but the last, dividing out the rest stride and keeping the rest shape.
fn compose_leaf(
    lhs: &Layout,
    rs: &IntTuple,
    rd: &IntTuple,
    depth: usize,
    out: &mut Out,
) -> Result<Layout> {
    let (Some(rs), Some(rd)) = (rs.num(), rd.num()) else {
        return Err(Error::new(
            "composition: shape and stride are not congruent",
        ));
    };
    if rd.is_const(0) {
        let r = Layout::raw(rs.leaf(), rd.leaf());
        out.line(depth, format!("stride 0: -> {r}"));
        return Ok(r);
    }
    let (ls, ld) = match (lhs.shape(), lhs.stride()) {
        (Tuple(_), Tuple(_)) => (lhs.shape().leaf_nums(), lhs.stride().leaf_nums()),
        (s, d) if s.is_int() && d.is_int() => {
            let d = leaf(d)?;
            let r = Layout::raw(rs.leaf(), rd.mul(d)?.leaf());
            out.line(
                depth,
                format!("A' is the one mode {lhs}: stride {}*{} -> {r}", rd.v, d.v),
            );
            return Ok(r);
        }
        _ => return Err(internal("composition: lhs not congruent")),
    };
    let r = ls.len();
    if r == 0 || ld.len() != r {
        return Err(internal("composition: empty lhs"));
    }
    let mut res_shape: Vec<Num> = Vec::new();
    let mut res_stride: Vec<Num> = Vec::new();
    let mut rest_shape = rs;
    let mut rest_stride = rd;
    for i in 0..r - 1 {
        let (cs, cd) = (ls[i], ld[i]);
        let check = if cs.is_static() && rest_stride.is_static() {
            if arith::rem(rest_stride.v, cs.v)? == 0 {
                format!("{} % {} == 0", rest_stride.v, cs.v)
            } else if rest_stride.v < cs.v {
                format!("{} < {}", rest_stride.v, cs.v)
            } else {
                return Err(crate::err!(
                    "composition: stride divisibility condition violated (stride {} vs shape {} of the left layout {lhs})",
                    rest_stride.v, cs.v
                ));
            }
        } else {
            "unchecked (dynamic)".to_string()
        };
        let head = format!(
            "{}:{}, rest {}:{}: {check}",
            cs.v, cd.v, rest_shape.v, rest_stride.v
        );
        let abs_rest = rest_stride.abs()?;
        let next_shape = cs.ceil_div(abs_rest)?;
        let next_stride = abs_rest.ceil_div(cs)?.mul(rest_stride.signum())?;
        if next_shape.is_const(1) {
            out.line(
                depth,
                format!(
                    "{head}; ceil_div({},{}) = 1, skip; rest {}:{}",
                    cs.v, abs_rest.v, rest_shape.v, next_stride.v
                ),
            );
            rest_stride = next_stride;
            continue;
        }
        if rest_shape.is_const(1) {
            out.line(
                depth,
                format!("{head}; nothing left; rest 1:{}", next_stride.v),
            );
            rest_stride = next_stride;
            continue;
        }
        let new_shape = next_shape.min(rest_shape);
        if new_shape.is_static()
            && rest_shape.is_static()
            && arith::rem(rest_shape.v, new_shape.v)? != 0
        {
            return Err(crate::err!(
                "composition: shape divisibility condition violated ({} is not divisible by {}, left layout {lhs})",
                rest_shape.v, new_shape.v
            ));
        }
        let kept_stride = rest_stride.mul(cd)?;
        let left = rest_shape.div(new_shape)?;
        out.line(
            depth,
            format!(
                "{head}; take min(ceil_div({},{}),{}) = {} -> {}:{}; rest {}:{}",
                cs.v,
                abs_rest.v,
                rest_shape.v,
                new_shape.v,
                new_shape.v,
                kept_stride.v,
                left.v,
                next_stride.v
            ),
        );
        res_shape.push(new_shape);
        res_stride.push(kept_stride);
        rest_shape = left;
        rest_stride = next_stride;
    }
    let (last_s, last_d) = (ls[r - 1], ld[r - 1]);
    let last = format!("{}:{} (last)", last_s.v, last_d.v);
    if res_shape.is_empty() || !rest_shape.is_const(1) {
        let d = rest_stride.mul(last_d)?;
        out.line(
            depth,
            format!(
                "{last}, rest {}:{} -> {}:{}",
                rest_shape.v, rest_stride.v, rest_shape.v, d.v
            ),
        );
        if res_shape.is_empty() {
            return Ok(Layout::raw(rest_shape.leaf(), d.leaf()));
        }
        res_shape.push(rest_shape);
        res_stride.push(d);
        return Ok(Layout::raw(tuple_of(&res_shape), tuple_of(&res_stride)));
    }
    out.line(depth, format!("{last}: nothing left"));
    Ok(Layout::raw(
        tuple_of(&res_shape).unwrap(),
        tuple_of(&res_stride).unwrap(),
    ))
}

/// The composition of `lhs` with `rs:rd` after the heading: `A'`, then the modes.
fn compose_body(lhs: &Layout, rs: &IntTuple, rd: &IntTuple, out: &mut Out) -> Result<Layout> {
    let flat = coalesce_x(lhs)?;
    out.line(0, format!("A' = coalesce_x(A) = {flat}"));
    compose_modes(&flat, rs, rd, &mut Vec::new(), 0, out)
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
    let real = alg::composition(lhs, rhs)?;
    let mut out = Out::new(format!("composition({lhs}, {rhs})"));
    let traced = compose_body(lhs, rhs.shape(), rhs.stride(), &mut out)?;
    agree("composition", &traced, &real)?;
    Ok(out.finish(real))
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
    if let Tiler::Layout(r) = tiler {
        return explain_composition(lhs, r);
    }
    let real = alg::composition_tiler(lhs, tiler)?;
    let mut out = Out::new(format!("composition({lhs}, {tiler})"));
    let traced = match tiler {
        Tiler::Layout(_) => return Err(internal("composition: a layout tiler")),
        Tiler::Under => {
            out.line(0, "_ keeps A".to_string());
            lhs.clone()
        }
        Tiler::Int(n) => {
            out.line(0, format!("B = {n} means the layout {n}:1"));
            compose_body(lhs, &Int(*n), &Int(1), &mut out)?
        }
        Tiler::Tuple(ts) => {
            out.line(0, "by mode:".to_string());
            let mut parts = Vec::with_capacity(ts.len());
            for (i, m) in lhs.modes().iter().enumerate() {
                match ts.get(i) {
                    Some(t) => {
                        let e = explain_composition_tiler(m, t)?;
                        out.nest(1, &e);
                        parts.push(e.result);
                    }
                    None => out.line(1, format!("get<{i}>(A) = {m}, dropped")),
                }
            }
            make_layout(&parts)
        }
    };
    agree("composition", &traced, &real)?;
    Ok(out.finish(real))
}

// ---------------------------------------------------------------------------------------
// Complement
// ---------------------------------------------------------------------------------------

/// CuTe's `detail::complement` of a filtered layout, as `layout.rs` runs it.
fn complement_steps(
    shape: &IntTuple,
    stride: &IntTuple,
    cotarget: &IntTuple,
    out: &mut Out,
) -> Result<Layout> {
    if stride.is_const(0) {
        let r = Layout::col_major(int_tuple::coalesce_shape(cotarget)?)?;
        out.line(
            0,
            format!("stride 0: make_layout(coalesce({cotarget})) = {r}"),
        );
        return Ok(r);
    }
    let mut sh = shape.modes().iter().map(leaf).collect::<Result<Vec<_>>>()?;
    let mut st = stride
        .modes()
        .iter()
        .map(leaf)
        .collect::<Result<Vec<_>>>()?;
    let r = sh.len();
    if r == 0 || st.len() != r {
        return Err(internal("complement: empty layout"));
    }
    if r > 1 && st.iter().any(|d| !d.is_static()) {
        return Err(crate::err!(
            "complement: dynamic strides {stride} (C++ takes the complement of dynamic strides only for rank-1 layouts)"
        ));
    }
    let non_injective = || Error::new("complement: non-injective layout detected");
    let mut res_shape: Vec<Num> = Vec::with_capacity(r + 1);
    let mut res_stride: Vec<Num> = vec![Num::fixed(1)];
    // `m / prev`, noting a division that is not exact (C++ truncates).
    let quotient = |m: Num, prev: Num, q: Num| -> Result<String> {
        let exact = prev.v != 0 && arith::rem(m.v, prev.v)? == 0;
        let note = if exact { "" } else { " (truncated)" };
        Ok(format!("{}/{} = {}{note}", m.v, prev.v, q.v))
    };
    for i in 0..r - 1 {
        let min_stride = st
            .iter()
            .copied()
            .reduce(Num::min)
            .ok_or_else(|| internal("complement: no stride"))?;
        let min_idx = st
            .iter()
            .position(|d| d.v == min_stride.v)
            .ok_or_else(|| internal("complement: no smallest stride"))?;
        let new_shape = min_stride.div(res_stride[i])?;
        let new_stride = min_stride.mul(sh[min_idx])?;
        if new_shape.is_const(0) {
            return Err(non_injective());
        }
        let q = quotient(min_stride, res_stride[i], new_shape)?;
        out.line(
            0,
            format!(
                "mode {}:{} (smallest stride): {q}, next stride {}*{} = {}",
                sh[min_idx].v, st[min_idx].v, min_stride.v, sh[min_idx].v, new_stride.v
            ),
        );
        sh.remove(min_idx);
        st.remove(min_idx);
        res_shape.push(new_shape);
        res_stride.push(new_stride);
    }
    let (last_s, last_d) = (sh[0], st[0]);
    let new_shape = last_d.div(res_stride[r - 1])?;
    if new_shape.is_const(0) {
        return Err(non_injective());
    }
    let q = quotient(last_d, res_stride[r - 1], new_shape)?;
    res_shape.push(new_shape);
    let new_stride = last_d.mul(last_s)?;
    out.line(
        0,
        format!(
            "mode {}:{} (last): {q}, next stride {}*{} = {}",
            last_s.v, last_d.v, last_d.v, last_s.v, new_stride.v
        ),
    );
    let rest_shape =
        int_tuple::coalesce_shape(&int_tuple::ceil_div(cotarget, &new_stride.leaf())?)?;
    let rest_stride = int_tuple::compact_col_major_num(&rest_shape, new_stride)?;
    out.line(
        0,
        format!(
            "rest: coalesce(ceil_div({cotarget},{})) = {rest_shape} -> {rest_shape}:{rest_stride}",
            new_stride.v
        ),
    );
    let all = Layout::raw(
        Tuple(vec![tuple_of(&res_shape), rest_shape]),
        Tuple(vec![tuple_of(&res_stride), rest_stride]),
    );
    let c = alg::coalesce(&all, None)?;
    out.line(0, format!("coalesce({all}) = {c}"));
    Ok(c)
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
    let real = alg::complement(layout, cotarget)?;
    let head = match cotarget {
        Some(t) => format!("complement({layout}, {t})"),
        None => format!("complement({layout})"),
    };
    let mut out = Out::new(head);
    let f = alg::filter(layout)?;
    out.line(0, format!("filter(A) = {f}"));
    let target = match cotarget {
        Some(t) => t.clone(),
        None => {
            let c = f.cosize_num()?.leaf();
            out.line(0, format!("cotarget = cosize(filter(A)) = {c}"));
            c
        }
    };
    let traced = complement_steps(f.shape(), f.stride(), &target, &mut out)?;
    agree("complement", &traced, &real)?;
    Ok(out.finish(real))
}

// ---------------------------------------------------------------------------------------
// Inverses
// ---------------------------------------------------------------------------------------

/// CuTe's `SortByKey` (an exchange sort on the key, not stable), as `layout.rs` runs it.
fn exchange_sort_by_key(keys: &[i64]) -> Vec<usize> {
    let mut kv: Vec<(i64, usize)> = keys.iter().copied().zip(0..).collect();
    let n = kv.len();
    for i in 0..n {
        for j in i + 1..n {
            if kv[j].0 < kv[i].0 {
                kv.swap(i, j);
            }
        }
    }
    kv.into_iter().map(|(_, v)| v).collect()
}

/// The coalesced layout's wrapped shape and stride, and the prefix products of the shape.
type Prep = (Vec<Num>, Vec<Num>, Vec<Num>);

fn inverse_prep(layout: &Layout, out: &mut Out) -> Result<Prep> {
    let c = alg::coalesce(layout, None)?;
    out.line(0, format!("coalesce(A) = {c}"));
    let shape = c.shape().clone().wrap().leaf_nums();
    let stride = c.stride().clone().wrap().leaf_nums();
    if shape.is_empty() || stride.len() != shape.len() {
        return Err(internal("inverse: empty layout"));
    }
    let mut pre = Vec::with_capacity(shape.len() + 1);
    pre.push(Num::fixed(1));
    for s in &shape {
        let last = pre[pre.len() - 1];
        pre.push(s.mul(last)?);
    }
    out.line(
        0,
        format!(
            "prefix products of {}: {}",
            tuple_of(&shape),
            tuple_of(&pre)
        ),
    );
    Ok((shape, stride, pre))
}

fn sorted_line(order: &[usize], stride: &[Num]) -> String {
    let by: Vec<String> = order
        .iter()
        .map(|&i| format!("{} (mode {i})", stride[i].v))
        .collect();
    format!("strides sorted: {}", by.join(", "))
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
    let real = alg::right_inverse(layout)?;
    let mut out = Out::new(format!("right_inverse({layout})"));
    let (shape, stride, pre) = inverse_prep(layout, &mut out)?;
    let mut rs = vec![Num::fixed(1)];
    let mut rd = vec![Num::fixed(0)];
    let mut curr = Num::fixed(1);
    let statics: Vec<usize> = (0..stride.len())
        .filter(|&i| stride[i].is_static())
        .collect();
    for i in (0..stride.len()).filter(|i| !statics.contains(i)) {
        out.line(
            0,
            format!(
                "mode {i}, {}:{}: dynamic stride, left out",
                shape[i].v, stride[i].v
            ),
        );
    }
    let keys: Vec<i64> = statics.iter().map(|&i| stride[i].v).collect();
    let order: Vec<usize> = exchange_sort_by_key(&keys)
        .into_iter()
        .map(|k| statics[k])
        .collect();
    out.line(0, sorted_line(&order, &stride));
    for i in order {
        let mode = format!("mode {i}, {}:{}", shape[i].v, stride[i].v);
        if stride[i].static_eq(curr) {
            rs.push(shape[i]);
            rd.push(pre[i]);
            let was = curr;
            curr = shape[i].mul(stride[i])?;
            out.line(
                0,
                format!(
                    "{mode}: stride {} == curr {} -> {}; curr {}",
                    stride[i].v,
                    was.v,
                    flat_layout(&rs, &rd),
                    curr.v
                ),
            );
        } else {
            let why = if stride[i].v == curr.v {
                "== curr only at run time"
            } else {
                "!= curr"
            };
            out.line(
                0,
                format!("{mode}: stride {} {why} {}, skipped", stride[i].v, curr.v),
            );
        }
    }
    let built = Layout::raw(tuple_of(&rs), tuple_of(&rd));
    let traced = alg::coalesce(&built, None)?;
    out.line(0, format!("coalesce({built}) = {traced}"));
    agree("right_inverse", &traced, &real)?;
    Ok(out.finish(real))
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
    let real = alg::left_inverse(layout)?;
    let mut out = Out::new(format!("left_inverse({layout})"));
    let (shape, stride, pre) = inverse_prep(layout, &mut out)?;
    if stride.iter().any(|d| !d.is_static()) {
        return Err(internal("left_inverse: dynamic strides"));
    }
    let mut rs: Vec<Num> = Vec::new();
    let mut rd = vec![Num::fixed(0)];
    let mut size = Num::fixed(1);
    let keys: Vec<i64> = stride.iter().map(|d| d.v).collect();
    let order = exchange_sort_by_key(&keys);
    out.line(0, sorted_line(&order, &stride));
    for &i in &order {
        let d = stride[i];
        let mode = format!("mode {i}, {}:{}", shape[i].v, d.v);
        if d.is_const(0) {
            out.line(0, format!("{mode}: stride 0, skipped"));
            continue;
        }
        let check = if size.is_static() {
            if arith::rem(d.v, size.v)? != 0 {
                return Err(crate::err!(
                    "left_inverse: divisibility condition violated (stride {} is not a multiple of {}) for {layout}",
                    d.v, size.v
                ));
            }
            format!("{} % {} == 0", d.v, size.v)
        } else {
            "unchecked (dynamic)".to_string()
        };
        let s = d.div(size)?;
        let q = format!("{}/{} = {}", d.v, size.v, s.v);
        size = size.mul(s)?;
        rs.push(s);
        rd.push(pre[i]);
        out.line(
            0,
            format!(
                "{mode}: {check}; {q}; shape {}, stride {}; size {}",
                tuple_of(&rs),
                tuple_of(&rd),
                size.v
            ),
        );
    }
    let last = *order
        .last()
        .ok_or_else(|| internal("left_inverse: no mode"))?;
    rs.push(shape[last]);
    out.line(
        0,
        format!(
            "last by stride, mode {last}: its shape {} closes the shape {}",
            shape[last].v,
            tuple_of(&rs)
        ),
    );
    let built = Layout::raw(tuple_of(&rs), tuple_of(&rd));
    let traced = alg::coalesce(&built, None)?;
    out.line(0, format!("coalesce({built}) = {traced}"));
    agree("left_inverse", &traced, &real)?;
    Ok(out.finish(real))
}

// ---------------------------------------------------------------------------------------
// Divides
// ---------------------------------------------------------------------------------------

/// A tiler that is an integer `n` becomes `make_layout(n)`, as CuTe does.
fn int_tiler(n: i64, out: &mut Out) -> Result<Layout> {
    let t = Layout::col_major(Int(n))?;
    out.line(0, format!("B = {n}: make_layout({n}) = {t}"));
    Ok(t)
}

/// The by-mode (`transform_layout`) case of the divides and products: a nested block per
/// mode the tiler reaches, the other modes kept.
fn by_mode(
    layout: &Layout,
    ts: &[Tiler],
    out: &mut Out,
    f: fn(&Layout, &Tiler) -> Result<Explanation>,
) -> Result<Layout> {
    out.line(0, "by mode:".to_string());
    let mut parts = Vec::with_capacity(layout.rank());
    for (i, m) in layout.modes().iter().enumerate() {
        match ts.get(i) {
            Some(t) => {
                let e = f(m, t)?;
                out.nest(1, &e);
                parts.push(e.result);
            }
            None => {
                out.line(1, format!("get<{i}>(A) = {m}, kept"));
                parts.push(m.clone());
            }
        }
    }
    Ok(make_layout(&parts))
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
    let real = alg::logical_divide(layout, tiler)?;
    let mut out = Out::new(format!("logical_divide({layout}, {tiler})"));
    let traced = match tiler {
        Tiler::Layout(t) => divide_by_layout(layout, t, &mut out)?,
        Tiler::Int(n) => {
            let t = int_tiler(*n, &mut out)?;
            divide_by_layout(layout, &t, &mut out)?
        }
        Tiler::Under => {
            out.line(0, "_ keeps A".to_string());
            layout.clone()
        }
        Tiler::Tuple(ts) => by_mode(layout, ts, &mut out, explain_logical_divide)?,
    };
    agree("logical_divide", &traced, &real)?;
    Ok(out.finish(real))
}

fn divide_by_layout(layout: &Layout, t: &Layout, out: &mut Out) -> Result<Layout> {
    out.line(
        0,
        "= composition(A, make_layout(B, complement(B, shape(coalesce(A)))))".to_string(),
    );
    let target = alg::coalesce(layout, None)?.shape().clone();
    out.line(0, format!("shape(coalesce(A)) = {target}"));
    let c = explain_complement(t, Some(&target))?;
    out.nest(0, &c);
    let b = make_layout(&[t.clone(), c.result.clone()]);
    out.line(0, format!("make_layout(B, {}) = {b}", c.result));
    let comp = explain_composition(layout, &b)?;
    out.nest(0, &comp);
    Ok(comp.result)
}

/// How `zipped`/`tiled`/`flat` regroup a logical divide or product.
#[derive(Clone, Copy)]
enum Regroup {
    Zipped,
    Tiled,
    Flat,
}

/// `repeat<R>(_)` as CuTe writes it for a mode of rank `r`.
fn repeat(r: usize) -> String {
    if r == 1 {
        "_".to_string()
    } else {
        format!("repeat<{r}>(_)")
    }
}

/// The regrouping lines after a logical divide or product `l` of the tiler `tiler`.
fn regroup(l: &Layout, tiler: &Tiler, how: Regroup, out: &mut Out) -> Result<Layout> {
    let z = alg::regroup_zipped(l, tiler)?;
    out.line(0, format!("tile_unzip(L, B) = {z}"));
    let (r0, r1) = (z.shape().get(0)?.rank(), z.shape().get(1)?.rank());
    Ok(match how {
        Regroup::Zipped => z,
        Regroup::Tiled => {
            let r = alg::regroup_tiled(l, tiler)?;
            out.line(0, format!("Z(_,{}) = {r}", repeat(r1)));
            r
        }
        Regroup::Flat => {
            let r = alg::regroup_flat(l, tiler)?;
            out.line(0, format!("Z({},{}) = {r}", repeat(r0), repeat(r1)));
            r
        }
    })
}

fn divide_regrouped(
    name: &str,
    how: Regroup,
    layout: &Layout,
    tiler: &Tiler,
    real: Layout,
) -> Result<Explanation> {
    let mut out = Out::new(format!("{name}({layout}, {tiler})"));
    out.line(
        0,
        "L = logical_divide(A, B); Z = tile_unzip(L, B): the tiles in mode 0, the rests in mode 1"
            .to_string(),
    );
    let l = explain_logical_divide(layout, tiler)?;
    out.nest(0, &l);
    let traced = regroup(&l.result, tiler, how, &mut out)?;
    agree(name, &traced, &real)?;
    Ok(out.finish(real))
}

/// The derivation of [`alg::zipped_divide`]: the logical divide (nested), then
/// `tile_unzip`, gathering the tile modes into mode 0 and the rest into mode 1.
///
/// ```
/// use cute_core::{explain::explain_zipped_divide, layout::Tiler, Layout};
/// let a: Layout = "(4,2,3):(2,1,8)".parse().unwrap();
/// let e = explain_zipped_divide(&a, &Tiler::Layout("4:2".parse().unwrap())).unwrap();
/// assert_eq!(e.lines.last().unwrap(), "=> ((2,2),(2,3)):((4,1),(2,8))");
/// ```
pub fn explain_zipped_divide(layout: &Layout, tiler: &Tiler) -> Result<Explanation> {
    let real = alg::zipped_divide(layout, tiler)?;
    divide_regrouped("zipped_divide", Regroup::Zipped, layout, tiler, real)
}

/// The derivation of [`alg::tiled_divide`]: the zipped divide, then mode 1 unpacked
/// (`Z(_, repeat<R1>(_))`).
///
/// ```
/// use cute_core::{explain::explain_tiled_divide, layout::Tiler, Layout};
/// let a: Layout = "(4,2,3):(2,1,8)".parse().unwrap();
/// let e = explain_tiled_divide(&a, &Tiler::Layout("4:2".parse().unwrap())).unwrap();
/// assert_eq!(e.lines.last().unwrap(), "=> ((2,2),2,3):((4,1),2,8)");
/// ```
pub fn explain_tiled_divide(layout: &Layout, tiler: &Tiler) -> Result<Explanation> {
    let real = alg::tiled_divide(layout, tiler)?;
    divide_regrouped("tiled_divide", Regroup::Tiled, layout, tiler, real)
}

/// The derivation of [`alg::flat_divide`]: the zipped divide, then both modes unpacked
/// (`Z(repeat<R0>(_), repeat<R1>(_))`).
///
/// ```
/// use cute_core::{explain::explain_flat_divide, layout::Tiler, Layout};
/// let a: Layout = "(4,2,3):(2,1,8)".parse().unwrap();
/// let e = explain_flat_divide(&a, &Tiler::Layout("4:2".parse().unwrap())).unwrap();
/// assert_eq!(e.lines.last().unwrap(), "=> (2,2,2,3):(4,1,2,8)");
/// ```
pub fn explain_flat_divide(layout: &Layout, tiler: &Tiler) -> Result<Explanation> {
    let real = alg::flat_divide(layout, tiler)?;
    divide_regrouped("flat_divide", Regroup::Flat, layout, tiler, real)
}

// ---------------------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------------------

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
    let real = alg::logical_product(block, tiler)?;
    let mut out = Out::new(format!("logical_product({block}, {tiler})"));
    let traced = match tiler {
        Tiler::Layout(t) => product_by_layout(block, t, &mut out)?,
        Tiler::Int(n) => {
            let t = int_tiler(*n, &mut out)?;
            product_by_layout(block, &t, &mut out)?
        }
        Tiler::Under => {
            out.line(0, "_ keeps A".to_string());
            block.clone()
        }
        Tiler::Tuple(ts) => by_mode(block, ts, &mut out, explain_logical_product)?,
    };
    agree("logical_product", &traced, &real)?;
    Ok(out.finish(real))
}

fn product_by_layout(block: &Layout, t: &Layout, out: &mut Out) -> Result<Layout> {
    out.line(
        0,
        "= make_layout(A, composition(complement(A, size(A)*cosize(B)), B))".to_string(),
    );
    let (size, cosize) = (block.shape().size_num()?, t.cosize_num()?);
    let target = size.mul(cosize)?;
    out.line(
        0,
        format!("size(A)*cosize(B) = {}*{} = {}", size.v, cosize.v, target.v),
    );
    let c = explain_complement(block, Some(&target.leaf()))?;
    out.nest(0, &c);
    let comp = explain_composition(&c.result, t)?;
    out.nest(0, &comp);
    let r = make_layout(&[block.clone(), comp.result.clone()]);
    out.line(0, format!("make_layout(A, {}) = {r}", comp.result));
    Ok(r)
}

fn product_regrouped(
    name: &str,
    how: Regroup,
    block: &Layout,
    tiler: &Tiler,
    real: Layout,
) -> Result<Explanation> {
    let mut out = Out::new(format!("{name}({block}, {tiler})"));
    out.line(
        0,
        "L = logical_product(A, B); Z = tile_unzip(L, B): the tiles in mode 0, the rests in mode 1"
            .to_string(),
    );
    let l = explain_logical_product(block, tiler)?;
    out.nest(0, &l);
    let traced = regroup(&l.result, tiler, how, &mut out)?;
    agree(name, &traced, &real)?;
    Ok(out.finish(real))
}

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
pub fn explain_zipped_product(block: &Layout, tiler: &Tiler) -> Result<Explanation> {
    let real = alg::zipped_product(block, tiler)?;
    product_regrouped("zipped_product", Regroup::Zipped, block, tiler, real)
}

/// The derivation of [`alg::tiled_product`]: the zipped product, then mode 1 unpacked.
///
/// ```
/// use cute_core::{explain::explain_tiled_product, layout::Tiler, Layout};
/// let a: Layout = "(2,2):(6,1)".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Layout("4:1".parse().unwrap())]);
/// let e = explain_tiled_product(&a, &t).unwrap();
/// assert_eq!(e.lines.last().unwrap(), "=> ((2),4,2):((6),1,1)");
/// ```
pub fn explain_tiled_product(block: &Layout, tiler: &Tiler) -> Result<Explanation> {
    let real = alg::tiled_product(block, tiler)?;
    product_regrouped("tiled_product", Regroup::Tiled, block, tiler, real)
}

/// The derivation of [`alg::flat_product`]: the zipped product, then both modes unpacked.
///
/// ```
/// use cute_core::{explain::explain_flat_product, layout::Tiler, Layout};
/// let a: Layout = "(8,2):(2,1)".parse().unwrap();
/// let t = Tiler::Layout("(2,8,1):(32,1,32)".parse().unwrap());
/// let e = explain_flat_product(&a, &t).unwrap();
/// assert_eq!(e.lines.last().unwrap(), "=> (8,2,2,8,1):(2,1,512,16,512)");
/// ```
pub fn explain_flat_product(block: &Layout, tiler: &Tiler) -> Result<Explanation> {
    let real = alg::flat_product(block, tiler)?;
    product_regrouped("flat_product", Regroup::Flat, block, tiler, real)
}

fn rank_sensitive(name: &str, raked: bool, block: &Layout, tiler: &Layout) -> Result<Explanation> {
    let mut out = Out::new(format!("{name}({block}, {tiler})"));
    let r = block.rank().max(tiler.rank());
    let (first, second) = if raked { (1, 0) } else { (0, 1) };
    out.line(
        0,
        format!(
            "= zip(get<{first}>(L), get<{second}>(L)), L = logical_product(append<R>(A), append<R>(B))"
        ),
    );
    out.line(0, format!("R = max(rank(A), rank(B)) = {r}"));
    let (a, b) = (block.append_to(r), tiler.append_to(r));
    if a.rank() != block.rank() {
        out.line(0, format!("append<{r}>(A) = {a}"));
    }
    if b.rank() != tiler.rank() {
        out.line(0, format!("append<{r}>(B) = {b}"));
    }
    let l = explain_logical_product(&a, &Tiler::Layout(b))?;
    out.nest(0, &l);
    let (m0, m1) = (l.result.mode(0)?, l.result.mode(1)?);
    let z = if raked {
        alg::zip_layouts(&m1, &m0)?
    } else {
        alg::zip_layouts(&m0, &m1)?
    };
    let (x, y) = if raked { (&m1, &m0) } else { (&m0, &m1) };
    out.line(0, format!("zip({x}, {y}) = {z}"));
    Ok(out.finish(z))
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
    let real = alg::blocked_product(block, tiler)?;
    let e = rank_sensitive("blocked_product", false, block, tiler)?;
    agree("blocked_product", &e.result, &real)?;
    Ok(e)
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
    let real = alg::raked_product(block, tiler)?;
    let e = rank_sensitive("raked_product", true, block, tiler)?;
    agree("raked_product", &e.result, &real)?;
    Ok(e)
}
