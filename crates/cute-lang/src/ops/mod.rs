//! The op table: every function of the language is one row — its CuTe name, the other
//! C++ / CuTeDSL spellings that mean it, its parameters, how C++ template arguments join
//! them, one line of meaning, whether the algebra view draws it, and a short body that
//! calls the algebra. Function lists, "did you mean", the algebra view's captions and the
//! function table of `docs/reference/functions.md` all come from (or are tested against) [`OPS`].

use crate::convert::{bits_of, major_of};
use crate::ops::atoms::{
    atom_with_type, bank_args, copy_atom, get_trait, make_tiled_mma, tile_shape, tiled_copy,
    tiled_copy_of, tiled_mma,
};
use crate::value::Value;
use crate::words::{CopyOp, CuSwizzle, LayoutEnum, TmaOp, Word};
use cute_core::atom::Atom;
use cute_core::atom::Operand;
use cute_core::error::{Error, Result};
use cute_core::int_tuple::{self, IntTuple};
use cute_core::layout::{self as alg, Layout};
use cute_core::smem_atom::{self, AtomMajor};
use cute_core::swizzle::{self, AnyLayout, Swizzle};

pub(crate) mod algebra;
pub(crate) mod args;
pub(crate) mod atoms;
pub(crate) mod basis;
pub(crate) mod collective;
#[cfg(feature = "full")]
pub(crate) mod compare;
pub(crate) mod descriptors;
pub(crate) mod epilogue;
#[cfg(feature = "full")]
pub mod explain;
pub(crate) mod families;
pub(crate) mod partitions;
pub(crate) mod smem;
pub(crate) mod tensors;
pub(crate) mod tma;

use algebra::*;
pub use args::Kwargs;
use args::*;
use smem::*;

/// How C++ template arguments (`f<A,B>(x, ...)`) join a call's positional arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targs {
    /// The function takes no template arguments.
    No,
    /// Before the arguments: `upcast<2>(L)` is `upcast(2, L)`.
    Prepend,
    /// After the first argument: `get<1,0>(L)` is `get(L, 1, 0)`; so is CuTeDSL's `mode=[1, 0]`.
    Append,
}

/// One function of the language.
pub struct Op {
    /// CuTe's name.
    pub name: &'static str,
    /// Other spellings with the same meaning (C++ aliases, CuTeDSL attributes and names).
    pub spellings: &'static [&'static str],
    /// The parameters, as the docs show them.
    pub params: &'static str,
    /// How template arguments join the positional ones.
    pub targs: Targs,
    /// Fewest and most positional arguments (after joining template arguments).
    pub arity: (usize, usize),
    /// Accepted keyword arguments.
    pub kwargs: &'static [&'static str],
    /// What it computes, in one line.
    pub meaning: &'static str,
    /// Whether the algebra view draws its operands beside its result.
    pub algebra: bool,
    body: fn(&[Value], &Kwargs) -> Result<Value>,
}

impl Op {
    /// Whether `name` (namespaces stripped) spells this op.
    pub fn is_named(&self, name: &str) -> bool {
        self.name == name || self.spellings.contains(&name)
    }
}

/// FNV-1a for the op index: the names are short and come from the table, so SipHash's
/// resistance to chosen keys buys nothing and costs a third of every lookup.
#[derive(Default)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type OpIndex =
    std::collections::HashMap<&'static str, &'static Op, std::hash::BuildHasherDefault<Fnv>>;

/// The op spelled `name` (CuTe name or another spelling).
pub fn lookup(name: &str) -> Option<&'static Op> {
    // Every call looks its name up: index the table once.
    static INDEX: std::sync::OnceLock<OpIndex> = std::sync::OnceLock::new();
    INDEX
        .get_or_init(|| {
            let mut m = OpIndex::default();
            for o in OPS {
                for n in std::iter::once(&o.name).chain(o.spellings) {
                    m.entry(*n).or_insert(o);
                }
            }
            m
        })
        .get(name)
        .copied()
}

/// Every name the language calls a function (CuTe names, then other spellings).
pub fn function_names() -> impl Iterator<Item = &'static str> {
    OPS.iter()
        .map(|o| o.name)
        .chain(OPS.iter().flat_map(|o| o.spellings.iter().copied()))
}

/// Call `op` (already looked up) with template, positional and keyword arguments.
pub(crate) fn call_op(op: &Op, targs: &[Value], args: &[Value], kw: &Kwargs) -> Result<Value> {
    let ctx = |e: Error| e.within(op.name);
    let mut joined: Vec<Value>;
    let mut kw_rest: Vec<(&str, Value, usize)> = Vec::new();
    let mut modes: Vec<Value> = targs.to_vec();
    // Keyword arguments name positional parameters (`op.kwargs`, in order).
    let mut by_name: Vec<Option<Value>> = Vec::new();
    if !kw.is_empty() {
        by_name = args.iter().cloned().map(Some).collect();
    }
    for (k, v, col) in kw {
        if *k == "mode" && op.targs == Targs::Append {
            match v {
                Value::Tuple(vs) => modes.extend(vs.iter().cloned()),
                v => modes.push(v.clone()),
            }
            continue;
        }
        // `a|b`: a parameter whose name differs between the forms of an op; `a?`: one that
        // may be left out before a later one is named (Python's `None` default).
        let Some(idx) = op
            .kwargs
            .iter()
            .position(|n| n.trim_end_matches('?').split('|').any(|n| n == *k))
        else {
            return Err(Error::at(
                *col,
                format!("{}: unexpected keyword argument '{k}'", op.name),
            ));
        };
        if by_name.len() <= idx {
            by_name.resize(idx + 1, None);
        }
        if by_name[idx].is_some() {
            return Err(Error::at(
                *col,
                format!("{}: argument '{k}' given twice", op.name),
            ));
        }
        by_name[idx] = Some(v.clone());
    }
    let named: Vec<Value>;
    let args = if by_name.len() > args.len() {
        named = by_name
            .into_iter()
            .enumerate()
            .map(|(i, v)| match (v, op.kwargs.get(i)) {
                (Some(v), _) => Ok(v),
                (None, Some(n)) if n.ends_with('?') => Ok(Value::Under),
                (None, n) => Err(cute_core::err!(
                    "{}: argument '{}' is missing",
                    op.name,
                    n.copied().unwrap_or("?")
                )),
            })
            .collect::<Result<_>>()?;
        &named[..]
    } else {
        args
    };
    let args = match (op.targs, modes.is_empty()) {
        (_, true) => args,
        (Targs::No, false) => {
            return Err(cute_core::err!("{} takes no template arguments", op.name))
        }
        (Targs::Prepend, false) => {
            // How many leading arguments came as template arguments, for ops whose
            // template and value arguments differ in meaning (`append<3>(L)`); the name
            // cannot be written as a keyword.
            kw_rest.push((TARGS_GIVEN, Value::Int(modes.len() as i64), 0));
            joined = modes;
            joined.extend(args.iter().cloned());
            &joined[..]
        }
        (Targs::Append, false) => {
            joined = args.iter().take(1).cloned().collect();
            joined.extend(modes);
            joined.extend(args.iter().skip(1).cloned());
            &joined[..]
        }
    };
    let (lo, hi) = op.arity;
    if args.len() < lo || args.len() > hi {
        let want = if lo == hi {
            format!("{lo} argument{}", if lo == 1 { "" } else { "s" })
        } else if hi == usize::MAX {
            format!("at least {lo} argument{}", if lo == 1 { "" } else { "s" })
        } else {
            format!("{lo} to {hi} arguments")
        };
        return Err(cute_core::err!(
            "{}: expected {want} {}, got {}",
            op.name,
            op.params,
            args.len()
        ));
    }
    if let Some(r) = tensors::lifted(op.name, args, |a| (op.body)(a, &kw_rest)) {
        return r.map_err(ctx);
    }
    (op.body)(args, &kw_rest).map_err(ctx)
}

/// The error for a name the table does not know, with the nearest spelling it does (the
/// one rule of "did you mean", [`cute_core::error::nearest_names`]).
pub(crate) fn unknown_function(name: &str) -> Error {
    // Inside err!: a build without the words does not look for the names either.
    cute_core::err!(
        "unknown function '{name}'{}",
        match cute_core::error::nearest_names(name, function_names(), 1).first() {
            Some(n) => format!(" (did you mean '{n}'?)"),
            None => String::new(),
        }
    )
}

const MANY: usize = usize::MAX;

macro_rules! op {
    ($name:literal $(| $alt:literal)*, $params:literal, $targs:ident, ($lo:expr, $hi:expr), [$($kw:literal),*], $algebra:literal, $meaning:literal, $body:expr) => {
        Op {
            name: $name,
            spellings: &[$($alt),*],
            params: help!($params, $algebra),
            targs: Targs::$targs,
            arity: ($lo, $hi),
            kwargs: &[$($kw),*],
            meaning: help!($meaning, $algebra),
            algebra: $algebra,
            body: $body,
        }
    };
}

/// The language's functions, one row each (none in a build without the `ops` feature).
pub static OPS: &[Op] = if cfg!(feature = "ops") { ALL_OPS } else { &[] };

static ALL_OPS: &[Op] = &[
    // --- queries -----------------------------------------------------------------------
    op!("size", "(x[, modes...])", Append, (1, MANY), [], false,
        "the number of elements of a shape, layout or tiled atom (of one mode with indices)",
        |a, _| match &*sub_shape(a)? {
            Value::Layout(l) => num(l.shape().size_num()?),
            Value::Composed(c) => num(c.layout.shape().size_num()?),
            Value::Composition(c) => num(c.domain()?.shape().size_num()?),
            Value::TiledMma(m) => int(m.thr_layout_vmnk.size()?),
            Value::TiledCopy(c) => int(c.layout_tv.mode(0)?.size()?),
            v => num(v.to_int_tuple()?.size_num()?),
        }),
    op!("cosize", "(layout[, modes...])", Append, (1, MANY), [], false,
        "the size of the codomain: the layout's largest offset + 1",
        |a, _| match &a[0] {
            Value::Tensor(_) | Value::Partition(_) => Err(Error::new("C++ has no cosize of a tensor: cosize(t.layout()) or cosize(layout(t))")),
            _ => match &*sub(a)? {
                Value::BasisLayout(l) => int(l.cosize()?),
                v => num(inner_layout(v)?.cosize_num()?),
            },
        }),
    op!("rank", "(x[, modes...])", Append, (1, MANY), [], false,
        "the number of top-level modes",
        |a, _| int(shape_of(&*sub_shape(a)?)?.rank() as i64)),
    op!("depth", "(x[, modes...])", Append, (1, MANY), [], false,
        "the nesting depth (an integer has depth 0)",
        |a, _| match &*sub_shape(a)? {
            Value::Tuple(vs) if vs.is_empty() => Err(Error::new("depth of an empty tuple is not defined (C++ refuses it)")),
            v => int(shape_of(v)?.depth() as i64),
        }),
    op!("shape", "(x[, modes...])", Append, (1, MANY), [], false,
        "the shape of a layout (of one mode with indices)",
        |a, _| Ok(shape_of(&*sub_shape(a)?)?.into())),
    op!("stride", "(layout[, modes...])", Append, (1, MANY), [], false,
        "the stride of a layout (of one mode with indices)",
        |a, _| match &*sub(a)? {
            // C++: `stride(ComposedLayout) = delete`.
            Value::Composed(_) | Value::Composition(_) => Err(Error::new(
                "a composed layout has no strides (C++ deletes stride() of a ComposedLayout): stride(layout.layout_b())",
            )),
            Value::BasisLayout(l) => Ok(basis::strides(l)),
            v => Ok(inner_layout(v)?.stride().clone().into()),
        }),
    op!("get", "(x, i...) | (atom, Trait)", Append, (2, MANY), [], false,
        "mode i (then mode j of that, ...) of a tuple or layout, or a trait of an atom",
        |a, _| match a {
            // Atoms and their traits are the full build's (not the first picture's).
            [v, Value::Word(w)] if cfg!(feature = "full") => get_trait(v, w.name()),
            _ => Ok(sub(a)?.into_owned()),
        }),
    op!("layout", "(layout, i...)", Append, (1, MANY), [], false,
        "mode i of a layout, as a layout",
        |a, _| Ok(sub(a)?.into_owned())),
    op!("select", "(x, i...)", Append, (2, MANY), [], false,
        "the modes i..., in that order",
        |a, _| {
            let is = ints(&a[1..])?;
            match &a[0] {
                v @ (Value::Layout(_) | Value::Composed(_)) => on_layout(v, |l| alg::select(l, &is)),
                // A coordinate with `_` (`select<1,2,3>(mma_coord_vmnk)`): its modes as values.
                Value::Tuple(vs) if v_has_under(vs) => {
                    let modes = is.iter().map(|&i| mode_of(vs, i)).collect::<Result<_>>()?;
                    Ok(Value::Tuple(modes))
                }
                v => Ok(int_tuple::select(&v.to_int_tuple()?, &is)?.into()),
            }
        }),
    op!("take", "(x, begin, end)", Append, (3, 3), [], false,
        "the modes [begin, end)",
        |a, _| {
            let (b, e) = (a[1].to_int()?, a[2].to_int()?);
            match &a[0] {
                v @ (Value::Layout(_) | Value::Composed(_)) => on_layout(v, |l| alg::take(l, b, Some(e))),
                Value::Tuple(vs) if v_has_under(vs) => {
                    let modes = (b..e.max(b)).map(|i| mode_of(vs, i)).collect::<Result<_>>()?;
                    Ok(Value::Tuple(modes))
                }
                v => Ok(int_tuple::take(&v.to_int_tuple()?, b, Some(e))?.into()),
            }
        }),
    op!("group" | "group_modes", "(x, begin, end)", Append, (3, 3), ["input", "begin", "end"], false,
        "the modes [begin, end) gathered into one mode",
        |a, _| {
            let (b, e) = (a[1].to_int()?, a[2].to_int()?);
            let e = if e == -1 { None } else { Some(e) };
            match &a[0] {
                v @ (Value::Layout(_) | Value::Composed(_)) => on_layout(v, |l| alg::group(l, b, e)),
                v => Ok(int_tuple::group(&v.to_int_tuple()?, b, e)?.into()),
            }
        }),
    op!("append", "(x[, y]) | append<rank>(x[, y])", Prepend, (1, 3), [], false,
        "x extended by y (default 1:0), or to the template rank with copies of y",
        |a, kw| extend(a, kw, true)),
    op!("prepend", "(x[, y]) | prepend<rank>(x[, y])", Prepend, (1, 3), [], false,
        "x extended in front by y (default 1:0), or to the template rank with copies of y",
        |a, kw| extend(a, kw, false)),
    op!("replace", "(x, i, y)", Append, (3, 3), [], false,
        "mode i of x replaced by y",
        |a, _| {
            let i = index(&a[1])?;
            match (&a[0], &a[2]) {
                (v @ (Value::Layout(_) | Value::Composed(_)), y) => {
                    let y = as_layout(y)?;
                    on_layout(v, |l| alg::replace(l, i, &y))
                }
                (v, y) => Ok(int_tuple::replace(&v.to_int_tuple()?, i, &y.to_int_tuple()?)?.into()),
            }
        }),
    op!("flatten", "(x)", No, (1, 1), [], false,
        "the same modes without nesting",
        |a, _| match &a[0] {
            v @ (Value::Layout(_) | Value::Composed(_) | Value::Composition(_)) => on_layout(v, |l| Ok(l.flatten())),
            v => Ok(v.to_int_tuple()?.flatten().into()),
        }),
    op!("coalesce", "(layout[, profile])", No, (1, 2), [], true,
        "the same function with the fewest modes (within each mode of a profile; `_` = a whole mode)",
        |a, _| coalesce(&a[0], a.get(1))),
    op!("filter", "(layout[, profile])", No, (1, 2), [], true,
        "the layout without its stride-0 and size-1 modes, coalesced (within each mode of a profile)",
        |a, _| match &a[0] {
            Value::BasisLayout(l) if a.len() == 1 => Ok(Value::BasisLayout(Box::new(l.filter()?))),
            _ => filter(&a[0], a.get(1)),
        }),
    op!("filter_zeros", "(layout)", No, (1, 1), [], false,
        "the layout with the shape of its stride-0 modes set to 1",
        |a, _| on_layout(&a[0], |l| Ok(alg::filter_zeros(l)))),
    // --- construction ------------------------------------------------------------------
    op!("make_layout", "(shape[, stride | LayoutLeft | LayoutRight]) | (layouts...)", No, (1, MANY), ["shape", "stride"], false,
        "a layout from a shape and strides (compact column-major by default), or layouts side by side",
        make_layout),
    op!("make_shape" | "make_stride" | "make_coord" | "make_step" | "make_tuple" | "make_tile" | "Shape" | "Stride" | "Step" | "Coord" | "Tile", "(x...)", No, (0, MANY), [], false,
        "a tuple of its arguments",
        |a, _| Ok(Value::Tuple(a.to_vec()))),
    op!("make_ordered_layout", "(shape, order)", No, (2, 2), ["shape", "order"], false,
        "the compact layout whose modes are ordered by order (a Step: smaller = faster)",
        |a, _| Ok(alg::make_ordered_layout(&a[0].to_int_tuple()?, &mode_order(a.get(1))?)?.into())),
    op!("make_layout_like", "(layout)", No, (1, 1), [], false,
        "a compact layout of the same shape whose strides follow the order of the layout's strides",
        |a, _| Ok(alg::make_layout_like(&as_layout(&a[0])?)?.into())),
    op!("tile_to_shape", "(atom, shape[, order])", No, (2, 3), ["atom", "trg_shape", "order"], false,
        "copies of the atom arranged (in order: LayoutLeft by default, or a Step) to cover the shape",
        |a, _| tile_to_shape(&a[0], &a[1], a.get(2))),
    op!("make_swizzle" | "Swizzle" | "Sw", "(B, M, S)", No, (3, 3), [], false,
        "the swizzle Sw<B,M,S>: XOR bits [M+S, M+S+B) into [M, M+B)",
        |a, _| dsl_make_swizzle(a)),
    op!("make_composed_layout", "(outer, offset, inner)", No, (3, 3), [], false,
        "the composed layout outer o offset o inner, kept even when outer is the identity",
        |a, _| match (&a[0], &a[2]) {
            (Value::Swizzle(_), Value::Layout(_)) => Ok(Value::Composed(make_composed(a)?)),
            (outer, inner) => {
                let func = |v: &Value, side: &str| -> Result<swizzle::Func> {
                    Ok(match v {
                        Value::Layout(l) => swizzle::Func::Layout(l.clone()),
                        Value::Swizzle(s) => swizzle::Func::Swizzle(*s),
                        Value::Composed(c) => swizzle::Func::Composed(c.clone()),
                        Value::Composition(c) => swizzle::Func::Composition(c.clone()),
                        v => return Err(cute_core::err!(
                            "make_composed_layout: the {side} function is a layout, a swizzle or a composed layout, got {}",
                            v.kind()
                        )),
                    })
                };
                if let Value::Composed(c) = inner {
                    if matches!(c.offset, cute_core::swizzle::Offset::SmemPtr { .. }) {
                        return Err(cute_core::err!(
                            "make_composed_layout: {c} addresses shared-memory bytes (smem_ptr_flag): it is only the layout of a pointer, not the inner function of a composition"
                        ));
                    }
                }
                Ok(Value::Composition(Box::new(swizzle::LayoutComposition::new(
                    func(outer, "outer")?,
                    a[1].to_int()?,
                    func(inner, "inner")?,
                )?)))
            }
        }),
    op!("composition", "(A, B) | (Sw, offset, L)", No, (2, 3), [], true,
        "composition(A, B)(i) = A(B(i)): B's offsets index into A (a tiler B: mode by mode)",
        |a, _| {
            if a.len() == 3 {
                let c = make_composed(a)?;
                return Ok(swizzle::composition(c.swizzle, c.offset, c.layout).into());
            }
            composition(&a[0], &a[1])
        }),
    op!("complement", "(layout[, cotarget])", No, (1, 2), [], true,
        "where copies of the layout start so that together they cover [0, cotarget) (default cosize)",
        |a, _| {
            let l = a[0].to_any_layout()?;
            match a.get(1) {
                None => Ok(alg::complement(l.inner(), None)?.into()),
                Some(t) => Ok(alg::complement(l.inner(), Some(&t.to_int_tuple()?))?.into()),
            }
        }),
    op!("right_inverse", "(layout)", No, (1, 1), [], true,
        "R with A(R(i)) = i for every i < size(R)",
        |a, _| inverse(&a[0], alg::right_inverse)),
    op!("left_inverse", "(layout)", No, (1, 1), [], true,
        "L with L(A(i)) = i for every i < size(A)",
        |a, _| inverse(&a[0], alg::left_inverse)),
    op!("logical_divide", "(layout, tiler)", No, (2, 2), [], true,
        "composition(A, (B, complement(B, size(A)))): mode 0 = the tile B selects, mode 1 = across tiles",
        |a, _| match &a[0] {
            Value::BasisLayout(l) => basis::divide(l, cute_core::basis::Divide::Logical, &a[1]),
            _ => divide_or_product(a, alg::logical_divide),
        }),
    op!("zipped_divide", "(layout, tiler)", No, (2, 2), [], true,
        "logical_divide with the tile modes gathered in mode 0, the rest in mode 1",
        |a, _| match &a[0] {
            Value::BasisLayout(l) => basis::divide(l, cute_core::basis::Divide::Zipped, &a[1]),
            _ => divide_or_product(a, alg::zipped_divide),
        }),
    op!("tiled_divide", "(layout, tiler)", No, (2, 2), [], true,
        "zipped_divide with the rest modes unpacked into modes 1..",
        |a, _| match &a[0] {
            Value::BasisLayout(l) => basis::divide(l, cute_core::basis::Divide::Tiled, &a[1]),
            _ => divide_or_product(a, alg::tiled_divide),
        }),
    op!("compose", "(layout, layouts...)", No, (2, MANY), [], false,
        "C++'s L.compose(l0, l1, ...) and t.compose(...): composition with make_tile(l0, l1, ...) (`_` keeps a mode)",
        |a, _| {
            let tiler = Value::Tuple(a[1..].to_vec()).to_tiler()?;
            on_layout(&a[0], |l| alg::composition_tiler(l, &tiler))
        }),
    op!("tile", "(layout, layouts...)", No, (2, MANY), [], false,
        "C++'s L.tile(l0, l1, ...) and t.tile(...): tiled_divide by make_tile(l0, l1, ...)",
        |a, _| {
            let tiler = Value::Tuple(a[1..].to_vec()).to_tiler()?;
            on_layout(&a[0], |l| alg::tiled_divide(l, &tiler))
        }),
    op!("flat_divide", "(layout, tiler)", No, (2, 2), [], true,
        "zipped_divide with every mode unpacked",
        |a, _| match &a[0] {
            Value::BasisLayout(l) => basis::divide(l, cute_core::basis::Divide::Flat, &a[1]),
            _ => divide_or_product(a, alg::flat_divide),
        }),
    op!("logical_product", "(layout, tiler)", No, (2, 2), [], true,
        "(A, composition(complement(A, size(A)*cosize(B)), B)): mode 0 = A, mode 1 = where B places copies of A",
        |a, _| divide_or_product(a, alg::logical_product)),
    op!("zipped_product", "(layout, tiler)", No, (2, 2), [], true,
        "logical_product mode by mode, the tile modes in mode 0, the rest in mode 1",
        |a, _| divide_or_product(a, alg::zipped_product)),
    op!("tiled_product", "(layout, tiler)", No, (2, 2), [], true,
        "zipped_product with the rest modes unpacked into modes 1..",
        |a, _| divide_or_product(a, alg::tiled_product)),
    op!("flat_product", "(layout, tiler)", No, (2, 2), [], true,
        "zipped_product with every mode unpacked",
        |a, _| divide_or_product(a, alg::flat_product)),
    op!("blocked_product", "(layout, layout)", No, (2, 2), [], true,
        "copies of A as blocks arranged by B; mode i = (A_i, B_i), A fastest",
        |a, _| {
            let b = as_layout(&a[1])?;
            on_layout(&a[0], |x| alg::blocked_product(x, &b))
        }),
    op!("raked_product", "(layout, layout)", No, (2, 2), [], true,
        "copies of A interleaved (raked) across B; mode i = (B_i, A_i), B fastest",
        |a, _| {
            let b = as_layout(&a[1])?;
            on_layout(&a[0], |x| alg::raked_product(x, &b))
        }),
    op!("max_common_vector", "(A, B)", No, (2, 2), [], false,
        "how many contiguous elements A and B agree on",
        |a, _| max_common(a, true)),
    op!("max_common_layout", "(A, B)", No, (2, 2), [], false,
        "the layout of B's elements that A and B both hold contiguously",
        |a, _| max_common(a, false)),
    // --- coordinates -------------------------------------------------------------------
    op!("idx2crd", "(idx, shape[, stride])", No, (2, 3), [], false,
        "the coordinate of a linear index",
        |a, _| {
            let idx = a[0].to_int_tuple()?;
            let shape = a[1].to_int_tuple()?;
            match a.get(2) {
                None => Ok(int_tuple::idx2crd(&idx, &shape)?.into()),
                Some(d) => Ok(int_tuple::idx2crd_strided(&idx, &shape, &d.to_int_tuple()?)?.into()),
            }
        }),
    op!("crd2idx", "(crd, shape[, stride])", No, (2, 3), [], false,
        "the index (or offset, with strides) of a coordinate",
        crd2idx),
    op!("crd2crd", "(crd, src_shape, dst_shape)", No, (3, 3), [], false,
        "a coordinate of one shape as a coordinate of another",
        |a, _| Ok(int_tuple::crd2crd(&a[0].to_int_tuple()?, &a[1].to_int_tuple()?, &a[2].to_int_tuple()?)?.into())),
    op!("slice", "(crd, x)", No, (2, 2), [], false,
        "the sub-layout (or sub-tuple) where crd has `_`",
        |a, _| slice(&a[0], &a[1])),
        op!("slice_", "(x, crd)", No, (2, 2), [], false,
        "CuTeDSL's slice: the sub-layout (or sub-tuple) where crd has None",
        |a, _| slice(&a[1], &a[0]).map_err(|e| e.within("slice"))),
    op!("dice", "(crd, x)", No, (2, 2), [], false,
        "the sub-layout (or sub-tuple) where crd is not `_`",
        |a, _| match &a[1] {
            Value::Layout(l) => Ok(l.dice(&a[0].to_coord()?)?.into()),
            v => Ok(int_tuple::dice(&a[0].to_coord()?, &v.to_int_tuple()?)?.into()),
        }),
    // --- int-tuple arithmetic ----------------------------------------------------------
    op!("prefix_product", "(shape)", No, (1, 1), [], false,
        "the exclusive prefix products (compact column-major strides)",
        |a, _| Ok(int_tuple::prefix_product(&a[0].to_int_tuple()?)?.into())),
    op!("shape_div", "(a, b)", No, (2, 2), [], false,
        "a divided by b, mode by mode, CuTe's way",
        |a, _| Ok(int_tuple::shape_div(&a[0].to_int_tuple()?, &a[1].to_int_tuple()?)?.into())),
    op!("ceil_div", "(a, b)", No, (2, 2), [], false,
        "a divided by b, rounded up, mode by mode",
        |a, _| Ok(int_tuple::ceil_div(&a[0].to_int_tuple()?, &a[1].to_int_tuple()?)?.into())),
    op!("product", "(shape)", No, (1, 1), [], false,
        "the product of every integer",
        |a, _| num(a[0].to_int_tuple()?.size_num()?)),
    op!("product_each", "(shape)", No, (1, 1), [], false,
        "the product of each top-level mode",
        |a, _| Ok(a[0].to_int_tuple()?.product_each()?.into())),
    op!("congruent", "(a, b)", No, (2, 2), [], false,
        "whether a and b have the same profile (1 or 0, as C++ prints it)",
        |a, _| Ok(Value::Bool(shape_of(&a[0])?.congruent(&shape_of(&a[1])?)))),
    op!("weakly_congruent", "(a, b)", No, (2, 2), [], false,
        "whether a's profile is a prefix of b's",
        |a, _| Ok(Value::Bool(shape_of(&a[0])?.weakly_congruent(&shape_of(&a[1])?)))),
    // The evaluator reads `explain`'s argument as a call (eval::eval_explain); this row
    // gives it a place in the function table and refuses any other use.
    #[cfg(feature = "full")]
    op!("explain", "(op(args...))", No, (1, 1), [], false,
        "the derivation of an algebra call as CuTe computes it, one step a line, ending in the result (composition, complement, inverses, coalesce, the divides and products)",
        |_, _| Err(Error::new("explain takes one call of an algebra op, written out: explain(logical_divide(A, B))"))),
    #[cfg(feature = "full")]
    op!("functionally_equal", "(a, b)", No, (2, 2), [], false,
        "whether a and b have the same domain and the same value at every coordinate; false names the first coordinate where they differ (the compare view draws both)",
        |a, _| Ok(Value::Compare(Box::new(compare::compare(&a[0], &a[1])?)))),
    op!("compatible", "(a, b)", No, (2, 2), [], false,
        "whether every coordinate of a is one of b",
        |a, _| Ok(Value::Bool(shape_of(&a[0])?.compatible(&shape_of(&a[1])?)?))),
    // --- tensors -----------------------------------------------------------------------
    #[cfg(feature = "full")]
    op!("make_gmem_ptr" | "cute::make_gmem_ptr", "<T>(address | nullptr) | (raw_ptr)", Prepend, (1, 2), [], false,
        "a pointer to T in global memory (a null pointer prints (nil), as C++ does); of a raw pointer (T const* p), tagged with its type",
        |a, _| tensors::make_ptr(cute_core::tensor::Space::Gmem, a)),
    #[cfg(feature = "full")]
    op!("make_smem_ptr", "<T>(address | nullptr) | (raw_ptr[, swizzle])", Prepend, (1, 2), [], false,
        "a pointer to T in shared memory; with a swizzle, C++'s swizzle pointer (the swizzle of its byte addresses: Sw<3,4,3>_smem_ptr[16b])",
        |a, _| tensors::make_ptr(cute_core::tensor::Space::Smem, a)),
    #[cfg(feature = "full")]
    op!("make_rmem_ptr", "<T>(address | nullptr) | (raw_ptr)", Prepend, (1, 2), [], false,
        "a pointer to T in registers",
        |a, _| tensors::make_ptr(cute_core::tensor::Space::Rmem, a)),
    #[cfg(feature = "full")]
    op!("make_ptr", "(T, address, AddressSpace.gmem | smem | rmem[, assumed_align])", No, (3, 4), ["dtype", "value", "mem_space", "assumed_align"], false,
        "CuTeDSL's typed pointer: make_gmem_ptr / make_smem_ptr / make_rmem_ptr by its address space",
        |a, _| {
            let space = match &a[2] {
                Value::Word(Word::Space(s)) => s.space(),
                v => return Err(cute_core::err!("expected cute.AddressSpace.gmem, .smem or .rmem, got {}", v.kind())),
            };
            tensors::make_ptr(space, &a[..2])
        }),
    #[cfg(feature = "full")]
    op!("make_tensor", "(ptr, layout | shape[, stride | LayoutLeft | LayoutRight] | n0, n1, ...) | <T>(shape | layout)", Prepend, (2, MANY), [], false,
        "a tensor over a pointer (a smem atom's swizzle moves into the pointer), or a register tensor owning its elements",
        |a, _| tensors::make_tensor(a)),
    #[cfg(feature = "full")]
    op!("inner_product", "(a, b)", No, (2, 2), [], false,
        "the sum of the elementwise products of two congruent int-tuples (integers: their product)",
        |a, _| Ok(Value::Int(int_tuple::inner_product(&a[0].to_int_tuple()?, &a[1].to_int_tuple()?)?))),
    #[cfg(feature = "full")]
    op!("elem_scale", "(a, b)", No, (2, 2), [], false,
        "a scaled mode by mode by b: each integer of a times the product of b's mode",
        |a, _| Ok(int_tuple::elem_scale(&a[0].to_int_tuple()?, &a[1].to_int_tuple()?)?.into())),
    #[cfg(feature = "full")]
    op!("slice_and_offset", "(coord, layout)", No, (2, 2), [], false,
        "(slice(coord, layout), the offset of the coordinate with `_` at 0): the sub-layout and where it starts",
        |a, _| {
            let l = as_layout(&a[1])?;
            let c = a[0].to_coord()?;
            Ok(Value::Tuple(vec![Value::Layout(l.slice(&c)?), Value::Int(l.call_coord(&c.start())?)]))
        }),
    #[cfg(feature = "full")]
    op!("get_tma_swizzle_bits" | "detail::get_tma_swizzle_bits", "(swizzle | layout)", No, (1, 1), [], false,
        "the TMA swizzle width of a layout's swizzle: TMA::SmemSwizzleBits::B128 for Sw<3,4,3>",
        |a, _| tma::tma_swizzle_bits(&a[0])),
    #[cfg(feature = "full")]
    op!("get_tma_swizzle_base" | "detail::get_tma_swizzle_base", "(swizzle | layout)", No, (1, 1), [], false,
        "the TMA swizzle atom's base: TMA::SmemSwizzleBase::SWIZZLE_BASE_16B for M = 4",
        |a, _| tma::tma_swizzle_base(&a[0])),
    #[cfg(feature = "full")]
    op!("to_CUtensorMapSwizzle" | "TMA::to_CUtensorMapSwizzle", "(bits, base)", No, (2, 2), [], false,
        "the driver's CU_TENSOR_MAP_SWIZZLE_* of a swizzle width and base",
        |a, _| tma::to_cu_swizzle(&a[0], &a[1])),
    #[cfg(feature = "full")]
    op!("make_identity_tensor", "(shape)", No, (1, 1), [], false,
        "every coordinate of the shape to itself: a counting tensor over basis strides, ArithTuple(0,0) o (M,N):(1@0,1@1) (of an integer, ArithTuple_0 o N:1)",
        |a, _| Ok(Value::Tensor(Box::new(cute_core::tensor::Tensor::identity(&a[0].to_int_tuple()?)?)))),
    #[cfg(feature = "full")]
    op!("make_coord_tensor", "(layout)", No, (1, 1), [], false,
        "a counting tensor over the layout: its elements are the layout's values, offsets (ArithTuple_0 o (4,8):(1,4)) or coordinates of basis strides",
        |a, _| basis::coord_tensor(&a[0])),
    #[cfg(feature = "full")]
    op!("local_tile", "(tensor, tiler, coord[, proj])", No, (3, 4), ["tensor", "tiler", "coord", "proj"], false,
        "the tile of the tensor at coord (`_` keeps a mode of tiles); proj (Step<_1, X, _1>{}) drops the X modes",
        |a, _| tensors::local_tile(a)),
    #[cfg(feature = "full")]
    op!("inner_partition", "(tensor, tiler, coord)", No, (3, 3), ["tensor", "tiler", "coord"], false,
        "zipped_divide by the tiler, then the tile at coord (local_tile without a projection)",
        |a, _| tensors::local_tile(a)),
    #[cfg(feature = "full")]
    op!("outer_partition", "(tensor, tiler, coord)", No, (3, 3), ["tensor", "tiler", "coord"], false,
        "zipped_divide by the tiler, then element coord of every tile (local_partition by a coordinate)",
        |a, _| tensors::outer_partition(a)),
    #[cfg(feature = "full")]
    op!("local_partition", "(tensor, thr_layout, thr_idx[, proj])", No, (3, 4), ["tensor", "tiler", "index", "proj"], false,
        "thread thr_idx's elements when thr_layout's threads tile the tensor; proj (Step<_1, X>{}) keeps only its modes of thr_layout",
        |a, _| tensors::local_partition(a)),
    #[cfg(feature = "full")]
    op!("get_slice" | "get_thread_slice", "(tiled_mma | tiled_copy, thr_idx)", No, (2, 2), [], false,
        "one thread's slice of a TiledMMA (ThrMMA: partition_A/B/C) or a TiledCopy (ThrCopy: partition_S/D)",
        |a, _| partitions::get_slice(a)),
    #[cfg(feature = "full")]
    op!("retile_S", "(thr_copy, fragment)", No, (2, 2), [], false,
        "a thread's source fragment re-tiled to the copy's values: ((atom_vals, rest_vals), RestM, RestN, ...)",
        |a, _| partitions::retile('S', a)),
    #[cfg(feature = "full")]
    op!("retile_D" | "retile", "(thr_copy, fragment)", No, (2, 2), [], false,
        "a thread's destination fragment (an MMA's registers) re-tiled to the copy's values: ((atom_vals, rest_vals), RestM, RestN, ...)",
        |a, _| partitions::retile('D', a)),
    #[cfg(feature = "full")]
    op!("partition_S", "(thr_copy, tensor)", No, (2, 2), [], false,
        "the thread's source values of a tensor the copy tiles: (CPY, CPY_M, CPY_N, ...)",
        |a, _| partitions::partition_copy(true, a)),
    #[cfg(feature = "full")]
    op!("partition_D", "(thr_copy, tensor)", No, (2, 2), [], false,
        "the thread's destination values of a tensor the copy tiles: (CPY, CPY_M, CPY_N, ...)",
        |a, _| partitions::partition_copy(false, a)),
    #[cfg(feature = "full")]
    op!("partition_A", "(thr_mma, tensor)", No, (2, 2), [], false,
        "the thread's part of an (M,K,...) tensor: (FrgV, RestM, RestK, ...)",
        |a, _| partitions::partition(Operand::A, a)),
    #[cfg(feature = "full")]
    op!("partition_B", "(thr_mma, tensor)", No, (2, 2), [], false,
        "the thread's part of an (N,K,...) tensor: (FrgV, RestN, RestK, ...)",
        |a, _| partitions::partition(Operand::B, a)),
    #[cfg(feature = "full")]
    op!("partition_C", "(thr_mma, tensor)", No, (2, 2), [], false,
        "the thread's part of an (M,N,...) tensor: (FrgV, RestM, RestN, ...)",
        |a, _| partitions::partition(Operand::C, a)),
    #[cfg(feature = "full")]
    op!("make_fragment_like", "(layout | tensor) | <T>(layout | tensor)", Prepend, (1, 2), [], false,
        "a compact layout like the layout, mode 0 column-major (register fragments); of a tensor (or with T), a register tensor of its element type (or T) over it",
        |a, _| match a {
            [v @ (Value::Tensor(_) | Value::Partition(_))] => partitions::like_typed(true, None, v),
            // Of a swizzled layout, that of its inner layout (C++'s swizzle_layout.hpp).
            [Value::Composed(c)] => Ok(alg::make_fragment_like(&c.layout)?.into()),
            [v] => Ok(alg::make_fragment_like(&as_layout(v)?)?.into()),
            [t, v, ..] => partitions::like_typed(true, Some(t), v),
            [] => Err(Error::new("give a layout or a tensor")),
        }),
    #[cfg(feature = "full")]
    op!("data" | "iterator", "(tensor)", No, (1, 1), [], false,
        "the tensor's pointer (a register array's or a counting iterator): t.data(), CuTeDSL t.iterator",
        |a, _| tensors::data(&a[0])),
    #[cfg(feature = "full")]
    op!("make_tensor_like", "(tensor) | <T>(tensor | layout)", Prepend, (1, 2), [], false,
        "a register tensor of the tensor's element type (or T) over make_layout_like of its layout",
        |a, _| match a {
            [v] => partitions::like_typed(false, None, v),
            [t, v, ..] => partitions::like_typed(false, Some(t), v),
            [] => Err(Error::new("give a tensor")),
        }),
    #[cfg(feature = "full")]
    op!("cute.make_fragment_like", "(src[, dtype])", No, (1, 2), ["src", "dtype?"], false,
        "CuTeDSL's make_fragment_like: of a tensor, C++'s make_tensor_like<dtype> (a compact register tensor); of a layout, C++'s make_fragment_like",
        |a, _| partitions::dsl_fragment_like(&a[0], a.get(1))),
    #[cfg(feature = "full")]
    op!("make_rmem_tensor_like", "(src[, dtype])", No, (1, 2), ["src", "dtype?"], false,
        "CuTeDSL: a register tensor of dtype (else the tensor's) over make_layout_like of src's layout: C++'s make_tensor_like<dtype>(src)",
        |a, _| partitions::dsl_rmem_like(&a[0], a.get(1))),
    #[cfg(feature = "full")]
    op!("make_rmem_tensor", "(layout_or_shape, dtype)", No, (2, 2), ["layout_or_shape", "dtype"], false,
        "CuTeDSL: a register tensor of dtype owning the layout's (or the compact shape's) elements: C++'s make_tensor<dtype>(layout)",
        |a, _| tensors::make_rmem_tensor(&a[0], &a[1])),
    op!("nullspace", "(layout)", No, (1, 1), [], false,
        "the layout of the indices the layout sends to offset 0 (its stride-0 modes)",
        |a, _| Ok(alg::nullspace(plain(&a[0])?)?.into())),
    op!("domain_offset", "(crd, layout | tensor)", No, (2, 2), [], false,
        "(layout, layout(crd)): the layout and the offset of a coordinate in it; of a tensor, the tensor with its iterator moved there",
        |a, _| {
            let crd = a[0].to_int_tuple()?;
            if let Value::BasisLayout(l) = &a[1] {
                return Ok(Value::Tuple(vec![a[1].clone(), basis::call(l, &a[0])?]));
            }
            if let Value::Tensor(_) | Value::Partition(_) = &a[1] {
                let t = tensors::tensor(&a[1])?;
                let (layout, off) = t.any_layout().domain_offset(&crd)?;
                let moved = cute_core::tensor::Tensor::with_any_layout(t.iter.clone(), layout)?;
                return Ok(Value::Tensor(Box::new(moved.offset_by(off)?)));
            }
            let layout = match &a[1] {
                Value::Composed(c) => swizzle::AnyLayout::Composed(c.clone()),
                v => swizzle::AnyLayout::Layout(plain(v)?.clone()),
            };
            let (layout, off) = layout.domain_offset(&crd)?;
            Ok(Value::Tuple(vec![layout.into(), Value::Int(off)]))
        }),
    op!("unflatten", "(x, profile)", No, (2, 2), [], false,
        "a flat layout or tuple folded into the profile's nesting",
        |a, _| {
            let p = profile(&a[1])?;
            match &a[0] {
                v @ (Value::Layout(_) | Value::Composed(_)) => on_layout(v, |l| alg::unflatten(l, &p)),
                v => Ok(int_tuple::unflatten(&v.to_int_tuple()?, &p)?.into()),
            }
        }),
    op!("make_identity_layout", "(shape)", No, (1, 1), [], false,
        "the layout from coordinates to themselves: strides are the basis vectors 1@i",
        |a, _| basis::identity(&a[0])),
    op!("make_arithmetic_tuple" | "ArithTuple", "(x...)", No, (1, MANY), [], false,
        "the coordinate (an ArithmeticTuple) of its integers, which basis vectors add to",
        |a, _| basis::arithmetic_tuple(a)),
    op!("make_basis_like", "(shape)", No, (1, 1), [], false,
        "the unit basis vector of every leaf of the shape: (1@0,(1@0@1,1@1@1))",
        |a, _| basis::make_basis_like(&a[0])),
    op!("evenly_divides", "(shape, tiler)", No, (2, 2), [], false,
        "whether the tiler divides the shape mode by mode (1 or 0)",
        |a, _| Ok(Value::Bool(evenly_divides(&shape_of(&a[0])?, &shape_of(&a[1])?)?))),
    op!("gcd", "(a, b)", No, (2, 2), [], false, "the greatest common divisor",
        |a, _| int(gcd(a[0].to_int()?, a[1].to_int()?))),
    op!("lcm", "(a, b)", No, (2, 2), [], false, "the least common multiple",
        |a, _| {
            let (x, y) = (a[0].to_int()?, a[1].to_int()?);
            let g = gcd(x, y);
            if g == 0 {
                return int(0);
            }
            int(cute_core::error::arith::mul(x / g, y)?.abs())
        }),
    op!("max", "(a, b...)", No, (1, MANY), [], false, "the largest integer",
        |a, _| int(ints(a)?.into_iter().max().expect("arity"))),
    op!("min", "(a, b...)", No, (1, MANY), [], false, "the smallest integer",
        |a, _| int(ints(a)?.into_iter().min().expect("arity"))),
    op!("abs", "(a)", No, (1, 1), [], false, "the absolute value",
        |a, _| int(cute_core::error::arith::abs(a[0].to_int()?)?)),
    op!("safe_div", "(a, b)", No, (2, 2), [], false, "a / b where b must divide a",
        |a, _| {
            let (x, y) = (a[0].to_int()?, a[1].to_int()?);
            // C++ checks only static operands (a static_assert); at run time it divides.
            let fixed = matches!((&a[0], &a[1]), (Value::Int(_), Value::Int(_)));
            if y == 0 || (fixed && x % y != 0) {
                return Err(cute_core::err!("{y} does not divide {x}"));
            }
            let q = cute_core::error::arith::div(x, y)?;
            Ok(if fixed { Value::Int(q) } else { Value::Dyn(q) })
        }),
    op!("get_swizzle_portion", "(layout)", No, (1, 1), [], false,
        "the swizzle of a composed layout (Sw<0,4,3> for a plain layout)",
        |a, _| match a[0].to_any_layout()? {
            AnyLayout::Composed(c) => Ok(Value::Swizzle(c.swizzle)),
            AnyLayout::Layout(_) => Ok(Value::Swizzle(Swizzle::new(0, 4, 3)?)),
        }),
    op!("get_nonswizzle_portion", "(layout)", No, (1, 1), [], false,
        "the inner layout of a composed layout (a plain layout itself)",
        |a, _| Ok(a[0].to_any_layout()?.inner().clone().into())),
    // --- element types -----------------------------------------------------------------
    op!("upcast", "(N, layout)", Prepend, (2, 2), [], false,
        "the layout seen in elements N times wider",
        |a, _| cast(a, true)),
    op!("downcast", "(N, layout)", Prepend, (2, 2), [], false,
        "the layout seen in elements N times narrower",
        |a, _| cast(a, false)),
    op!("recast", "<NEW>(tensor)", Prepend, (2, 2), [], false,
        "the tensor's elements seen as NEW-type elements: the pointer retyped, the layout recast_layout'd",
        |a, _| tensors::recast(&a[0], tensors::tensor(&a[1])?)),
    #[cfg(feature = "full")]
    op!("recast_tensor", "(src, dtype[, swizzle_])", No, (2, 3), ["src", "dtype", "swizzle_?"], false,
        "CuTeDSL: the tensor's elements seen as dtype elements: C++'s recast<dtype>(src)",
        |a, _| tensors::dsl_recast_tensor(&a[0], &a[1], a.get(2))),
    #[cfg(feature = "full")]
    op!("recast_ptr", "(ptr[, swizzle_][, dtype]) | <T>(ptr)", Prepend, (1, 3), ["ptr", "swizzle_?", "dtype?"], false,
        "the pointer retyped (and, in CuTeDSL, given the swizzle of its byte addresses, as a GMMA/UMMA smem atom's .inner: Sw<3,4,3>_smem_ptr[16b])",
        |a, _| tensors::recast_ptr(a)),
    op!("recast_layout", "(OLD, NEW, layout)", Prepend, (3, 3), [], false,
        "the layout of OLD-type elements seen as NEW-type elements (bits or type names)",
        |a, _| recast_layout(&a[0], &a[1], &a[2])),
    op!("as_position_independent_swizzle_layout", "(smem_layout)", No, (1, 1), [], false,
        "a GMMA/UMMA smem layout in element units (its byte-address swizzle recast to elements)",
        |a, _| match &a[0] {
            Value::Composed(c) if matches!(c.offset, swizzle::Offset::SmemPtr { .. }) => {
                Ok(a[0].to_any_layout()?.in_elements()?.into())
            }
            v => Err(cute_core::err!(
                "expected a layout with the smem_ptr flag (a GMMA/UMMA smem atom), got {}",
                v.kind()
            )),
        }),
        op!("log2" | "math.log2", "(x)", No, (1, 1), [], false,
        "log2 of a power of two (Python's int(math.log2(x)))",
        |a, _| {
            let x = a[0].to_int()?;
            if x <= 0 || x.count_ones() != 1 {
                return Err(cute_core::err!("log2 of {x}: not a power of two (only exact values are computed)"));
            }
            int(i64::from(x.trailing_zeros()))
        }),
    op!("int", "(x)", No, (1, 1), [], false, "Python's int() of an integer or boolean",
        |a, _| match &a[0] {
            Value::Bool(b) => int(i64::from(*b)),
            v => int(v.to_int()?),
        }),
    op!("Int32" | "int32_t", "(x)", No, (1, 1), [], false, "CuTeDSL's cutlass.Int32(x) or C++'s int32_t(x): a run-time 32-bit integer (C++ int)",
        |a, _| run_time_int(&a[0], 32, true)),
    op!("Int64" | "int64_t", "(x)", No, (1, 1), [], false, "CuTeDSL's cutlass.Int64(x) or C++'s int64_t(x): a run-time 64-bit integer",
        |a, _| run_time_int(&a[0], 64, true)),
    op!("Int16" | "int16_t", "(x)", No, (1, 1), [], false, "CuTeDSL's cutlass.Int16(x) or C++'s int16_t(x): a run-time 16-bit integer",
        |a, _| run_time_int(&a[0], 16, true)),
    op!("Int8" | "int8_t", "(x)", No, (1, 1), [], false, "CuTeDSL's cutlass.Int8(x) or C++'s int8_t(x): a run-time 8-bit integer",
        |a, _| run_time_int(&a[0], 8, true)),
    op!("Uint32" | "uint32_t", "(x)", No, (1, 1), [], false, "CuTeDSL's cutlass.Uint32(x) or C++'s uint32_t(x): a run-time unsigned 32-bit integer",
        |a, _| run_time_int(&a[0], 32, false)),
    op!("Uint64" | "uint64_t", "(x)", No, (1, 1), [], false, "CuTeDSL's cutlass.Uint64(x) or C++'s uint64_t(x): a run-time unsigned 64-bit integer",
        |a, _| run_time_int(&a[0], 64, false)),
    op!("Uint16" | "uint16_t", "(x)", No, (1, 1), [], false, "CuTeDSL's cutlass.Uint16(x) or C++'s uint16_t(x): a run-time unsigned 16-bit integer",
        |a, _| run_time_int(&a[0], 16, false)),
    op!("Uint8" | "uint8_t", "(x)", No, (1, 1), [], false, "CuTeDSL's cutlass.Uint8(x) or C++'s uint8_t(x): a run-time unsigned 8-bit integer",
        |a, _| run_time_int(&a[0], 8, false)),
    #[cfg(feature = "full")]
    op!("get_smem_layout_atom", "(layout_enum, dtype, major_size)", No, (3, 3), ["layout", "element_type", "major_mode_size"], false,
        "CuTeDSL sm90_utils: the widest SmemLayoutAtomKind whose contiguous bits divide the major mode",
        |a, _| { let (major, sw) = crate::ops::smem::dsl_atom_kind(&a[0], &a[1], a[2].to_int()?)?; Ok(Value::Word(Word::SmemAtomKind(major, sw))) }),
    #[cfg(feature = "full")]
    op!("is_k_major_a" | "is_k_major_b" | "is_n_major_c", "(layout_enum)", No, (1, 1), [], false,
        "CuTeDSL LayoutEnum: whether it is ROW_MAJOR (K-major A/B, N-major C)",
        |a, _| Ok(Value::Bool(matches!(a[0], Value::Word(Word::LayoutEnum(LayoutEnum::RowMajor)))))),
    #[cfg(feature = "full")]
    op!("is_m_major_a" | "is_n_major_b" | "is_m_major_c", "(layout_enum)", No, (1, 1), [], false,
        "CuTeDSL LayoutEnum: whether it is COL_MAJOR (M-major A/C, N-major B)",
        |a, _| Ok(Value::Bool(matches!(a[0], Value::Word(Word::LayoutEnum(LayoutEnum::ColMajor)))))),
    #[cfg(feature = "full")]
    op!("sm90_mma_major_mode" | "mma_major_mode", "(layout_enum)", No, (1, 1), [], false,
        "CuTeDSL LayoutEnum: the operand major mode (ROW_MAJOR = K, COL_MAJOR = MN)",
        |a, _| Ok(Value::Word(Word::Major(if matches!(a[0], Value::Word(Word::LayoutEnum(LayoutEnum::RowMajor))) { AtomMajor::K } else { AtomMajor::MN })))),
    #[cfg(feature = "full")]
    op!("dsl_recast_layout" | "cute.recast_layout", "(new_bits, old_bits, layout)", No, (3, 3), [], false,
        "CuTeDSL's cute.recast_layout: recast_layout with the widths the other way round",
        |a, _| recast_layout(&a[1], &a[0], &a[2]).map_err(|e| e.within("recast_layout"))),
    #[cfg(feature = "full")]
    op!("ss_smem_selector", "<Major, Element, BLK_MN, BLK_K>()", Prepend, (4, 4), [], false,
        "CUTLASS's SM90 collective builder: the widest GMMA smem atom whose width divides the tile",
        |a, _| {
            let (major, bits) = (major_of(&a[0], "the operand")?, bits_of(&a[1])?);
            let sw = smem_atom::ss_smem_selector(major, bits, a[2].to_int()?, a[3].to_int()?)?;
            Ok(smem_atom::smem_atom(major, sw, bits)?.into())
        }),
    #[cfg(feature = "full")]
    op!("is_major", "<I, Stride>()", Prepend, (2, 2), [], false,
        "CUTLASS gemm::detail::is_major: whether the first stride of mode I is the static 1 (1 or 0)",
        |a, _| {
            let i = index(&a[0])?;
            let mut m = match &a[1] {
                Value::Tuple(vs) => vs
                    .get(i)
                    .cloned()
                    .ok_or_else(|| cute_core::err!("the stride has no mode {i}"))?,
                v => v.clone(),
            };
            while let Value::Tuple(vs) = m {
                m = vs.into_iter().next().unwrap_or(Value::Int(0));
            }
            Ok(Value::Bool(m == Value::Int(1)))
        }),
    op!("sizeof", "(T)", No, (1, 1), [], false,
        "the size of an element type in bytes (of a collective's SharedStorage, its bytes)",
        |a, _| match &a[0] {
            Value::Storage(n) => int(*n),
            v => int(bits_of(v)? / 8),
        }),
    #[cfg(feature = "full")]
    op!("make_smem_layout_a", "(layout_enum, tile_mnk, dtype, stages)", No, (4, 4), ["a_layout", "mma_tiler_mnk", "a_dtype", "num_stages"], false,
        "CuTeDSL sm90_utils: the staged smem layout of A for a Hopper GEMM tile",
        |a, _| crate::ops::smem::dsl_smem_layout('a', a)),
    #[cfg(feature = "full")]
    op!("make_smem_layout_b", "(layout_enum, tile_mnk, dtype, stages)", No, (4, 4), ["b_layout", "mma_tiler_mnk", "b_dtype", "num_stages"], false,
        "CuTeDSL sm90_utils: the staged smem layout of B for a Hopper GEMM tile",
        |a, _| crate::ops::smem::dsl_smem_layout('b', a)),
    #[cfg(feature = "full")]
    op!("make_smem_layout_epi", "(dtype, layout_enum, epi_tile, stages)", No, (4, 4), ["epi_dtype", "epi_layout", "epi_tile", "epi_stage"], false,
        "CuTeDSL sm90_utils: the staged smem layout of the epilogue tile; sm100_utils: of a tile of layouts (compute_epilogue_tile_shape's)",
        |a, _| crate::ops::smem::dsl_smem_layout('c', a)),
    #[cfg(feature = "full")]
    op!("compute_epilogue_tile_shape", "(cta_tile_shape, use_2cta_instrs, layout_d, elem_ty_d[, layout_c, elem_ty_c, tmem_warp_shape_mn])", No, (4, 7), ["cta_tile_shape", "use_2cta_instrs", "layout_d", "elem_ty_d", "layout_c?", "elem_ty_c?", "tmem_warp_shape_mn?"], false,
        "CuTeDSL sm100_utils: the SM100 epilogue tile of a CTA tile, a tile of layouts over the TMEM warps",
        |a, _| crate::ops::epilogue::compute_epilogue_tile_shape(a)),
    #[cfg(feature = "full")]
    op!("get_tmem_load_op", "(cta_tile_shape, layout_d, elem_ty_d, elem_ty_acc, epi_tile, use_2cta_instrs[, tmem_warp_shape_mn])", No, (6, 7), ["cta_tile_shape", "layout_d", "elem_ty_d", "elem_ty_acc", "epi_tile", "use_2cta_instrs", "tmem_warp_shape_mn?"], false,
        "CuTeDSL sm100_utils: the tcgen05.ld copy atom that reads one warp's part of the epilogue tile",
        |a, _| crate::ops::epilogue::get_tmem_load_op(a)),
    #[cfg(feature = "full")]
    op!("size_in_bytes", "(dtype, layout)", No, (2, 2), ["dtype", "layout"], false,
        "CuTeDSL: the bytes a layout's codomain holds of an element type (a swizzled layout's outer layout), rounded up",
        |a, _| crate::ops::smem::size_in_bytes(a)),
    #[cfg(feature = "full")]
    op!("get_smem_capacity_in_bytes", "()", No, (0, 0), [], false,
        "CuTeDSL utils: the shared memory a CTA may use on the DSL's default target, sm_100a (227 KiB)",
        |_, _| int(cute_core::arch::Arch::Sm100.smem_per_cta())),
    #[cfg(feature = "full")]
    op!("make_smem_layout_atom", "(kind, element_type)", No, (2, 2), [], false,
        "CuTeDSL: the GMMA/UMMA smem atom of a SmemLayoutAtomKind for an element type",
        |a, _| {
            match &a[0] {
                Value::Word(Word::SmemAtomKind(major, sw)) => crate::ops::smem::dsl_smem_atom(*major, *sw, bits_of(&a[1])?),
                Value::Word(w) => Err(cute_core::err!("unknown SmemLayoutAtomKind '{w}'")),
                v => Err(cute_core::err!("expected a SmemLayoutAtomKind, got {}", v.kind())),
            }
        }),
    // --- C++ spelling helpers ----------------------------------------------------------
    op!("decltype", "(x)", No, (1, 1), [], false,
        "the type of x: here, its value (`NAME{}` of a bound type is that value)",
        |a, _| Ok(a[0].clone())),
    op!("print" | "print_layout" | "print_latex" | "printf", "(x)", No, (1, 1), [], false,
        "x itself (C++'s printers show the value this line shows)",
        |a, _| Ok(a[0].clone())),
    op!("make_layout_tv", "(thr_layout, val_layout)", No, (2, 2), [], false,
        "(tiler_mn, layout_tv) as make_tiled_copy builds them",
        |a, _| {
            let (tiler, tv) = alg::make_layout_tv(&as_layout(&a[0])?, &as_layout(&a[1])?)?;
            Ok(Value::Tuple(vec![tiler.into(), tv.into()]))
        }),
    // --- atoms -------------------------------------------------------------------------
    #[cfg(feature = "full")]
    op!("atom", "(NAME[, element_type])", No, (1, 2), [], false,
        "the CuTe traits of an MMA or copy atom (a copy atom recast to an element type)",
        |a, _| atom_with_type(&a[0], a.get(1))),
    #[cfg(feature = "full")]
    op!("make_tiled_mma", "(atom[, layout[, permutation]])", No, (1, 3), ["op", "atom_layout_mnk", "permutation_mnk"], false,
        "the atom repeated over a layout of atoms, with an optional (M, N, K) permutation",
        make_tiled_mma),
    #[cfg(feature = "full")]
    op!("make_copy_atom", "(op, dtype[, num_bits_per_copy])", No, (2, 3), ["op", "copy_internal_type", "num_bits_per_copy"], false,
        "CuTeDSL: the copy atom of an op with value type dtype (C++ Copy_Atom<Op, T>); cp.async and universal copies move num_bits_per_copy bits",
        |a, _| crate::ops::atoms::dsl_copy_atom(a)),
    #[cfg(feature = "full")]
    op!("LdMatrix8x8x16bOp", "([transpose[, num_matrices]])", No, (0, 2), ["transpose", "num_matrices"], false,
        "CuTeDSL warp: ldmatrix of 1, 2 or 4 8x8 matrices, C++'s SM75_U32x{n}_LDSM_N (transposed: SM75_U16x{2n}_LDSM_T)",
        |a, _| crate::ops::atoms::dsl_matrix_op(true, a)),
    #[cfg(feature = "full")]
    op!("StMatrix8x8x16bOp", "([transpose[, num_matrices]])", No, (0, 2), ["transpose", "num_matrices"], false,
        "CuTeDSL warp: stmatrix of 1, 2 or 4 8x8 matrices, C++'s SM90_U32x{n}_STSM_N (transposed: SM90_U16x{2n}_STSM_T)",
        |a, _| crate::ops::atoms::dsl_matrix_op(false, a)),
    #[cfg(feature = "full")]
    op!("Ld16x64bOp", "([repeat[, pack]])", No, (0, 2), ["repeat", "pack"], false,
        "CuTeDSL tcgen05: tcgen05.ld .16x64b (repeat Repetition.xN, pack Pack.PACK_16b_IN_32b), C++'s SM100_TMEM_LOAD_16dp64bNx[_16b]",
        |a, _| crate::ops::atoms::dsl_tmem_op(cute_core::atom::TmemCopy::Load, "16dp64b", a)),
    #[cfg(feature = "full")]
    op!("Ld16x128bOp", "([repeat[, pack]])", No, (0, 2), ["repeat", "pack"], false,
        "CuTeDSL tcgen05: tcgen05.ld .16x128b (repeat Repetition.xN, pack Pack.PACK_16b_IN_32b), C++'s SM100_TMEM_LOAD_16dp128bNx[_16b]",
        |a, _| crate::ops::atoms::dsl_tmem_op(cute_core::atom::TmemCopy::Load, "16dp128b", a)),
    #[cfg(feature = "full")]
    op!("Ld16x256bOp", "([repeat[, pack]])", No, (0, 2), ["repeat", "pack"], false,
        "CuTeDSL tcgen05: tcgen05.ld .16x256b (repeat Repetition.xN, pack Pack.PACK_16b_IN_32b), C++'s SM100_TMEM_LOAD_16dp256bNx[_16b]",
        |a, _| crate::ops::atoms::dsl_tmem_op(cute_core::atom::TmemCopy::Load, "16dp256b", a)),
    #[cfg(feature = "full")]
    op!("Ld16x32bx2Op", "([repeat[, pack]])", No, (0, 2), ["repeat", "pack"], false,
        "CuTeDSL tcgen05: tcgen05.ld .16x32bx2 (repeat Repetition.xN, pack Pack.PACK_16b_IN_32b), C++'s SM100_TMEM_LOAD_16dp32bNx[_16b]",
        |a, _| crate::ops::atoms::dsl_tmem_op(cute_core::atom::TmemCopy::Load, "16dp32b", a)),
    #[cfg(feature = "full")]
    op!("Ld32x32bOp", "([repeat[, pack]])", No, (0, 2), ["repeat", "pack"], false,
        "CuTeDSL tcgen05: tcgen05.ld .32x32b (repeat Repetition.xN, pack Pack.PACK_16b_IN_32b), C++'s SM100_TMEM_LOAD_32dp32bNx[_16b]",
        |a, _| crate::ops::atoms::dsl_tmem_op(cute_core::atom::TmemCopy::Load, "32dp32b", a)),
    #[cfg(feature = "full")]
    op!("St16x64bOp", "(repeat[, unpack])", No, (1, 2), ["repeat", "unpack"], false,
        "CuTeDSL tcgen05: tcgen05.st .16x64b (repeat Repetition.xN, unpack Unpack.UNPACK_32b_IN_16b), C++'s SM100_TMEM_STORE_16dp64bNx[_16b]",
        |a, _| crate::ops::atoms::dsl_tmem_op(cute_core::atom::TmemCopy::Store, "16dp64b", a)),
    #[cfg(feature = "full")]
    op!("St16x128bOp", "(repeat[, unpack])", No, (1, 2), ["repeat", "unpack"], false,
        "CuTeDSL tcgen05: tcgen05.st .16x128b (repeat Repetition.xN, unpack Unpack.UNPACK_32b_IN_16b), C++'s SM100_TMEM_STORE_16dp128bNx[_16b]",
        |a, _| crate::ops::atoms::dsl_tmem_op(cute_core::atom::TmemCopy::Store, "16dp128b", a)),
    #[cfg(feature = "full")]
    op!("St16x256bOp", "(repeat[, unpack])", No, (1, 2), ["repeat", "unpack"], false,
        "CuTeDSL tcgen05: tcgen05.st .16x256b (repeat Repetition.xN, unpack Unpack.UNPACK_32b_IN_16b), C++'s SM100_TMEM_STORE_16dp256bNx[_16b]",
        |a, _| crate::ops::atoms::dsl_tmem_op(cute_core::atom::TmemCopy::Store, "16dp256b", a)),
    #[cfg(feature = "full")]
    op!("St16x32bx2Op", "(repeat[, unpack])", No, (1, 2), ["repeat", "unpack"], false,
        "CuTeDSL tcgen05: tcgen05.st .16x32bx2 (repeat Repetition.xN, unpack Unpack.UNPACK_32b_IN_16b), C++'s SM100_TMEM_STORE_16dp32bNx[_16b]",
        |a, _| crate::ops::atoms::dsl_tmem_op(cute_core::atom::TmemCopy::Store, "16dp32b", a)),
    #[cfg(feature = "full")]
    op!("St32x32bOp", "(repeat[, unpack])", No, (1, 2), ["repeat", "unpack"], false,
        "CuTeDSL tcgen05: tcgen05.st .32x32b (repeat Repetition.xN, unpack Unpack.UNPACK_32b_IN_16b), C++'s SM100_TMEM_STORE_32dp32bNx[_16b]",
        |a, _| crate::ops::atoms::dsl_tmem_op(cute_core::atom::TmemCopy::Store, "32dp32b", a)),
    #[cfg(feature = "full")]
    op!("CopyG2SOp", "([cache_mode])", No, (0, 1), ["cache_mode"], false,
        "CuTeDSL cpasync: the SM80 cp.async op (LoadCacheMode.ALWAYS or GLOBAL), its width given to make_copy_atom",
        |a, _| crate::ops::atoms::dsl_g2s_op(a.first())),
    #[cfg(feature = "full")]
    op!("CopyUniversalOp", "()", No, (0, 0), [], false,
        "CuTeDSL: the universal copy op (C++ UniversalCopy), its width given to make_copy_atom",
        |_, _| Ok(Value::Word(Word::CopyOp(CopyOp::Universal)))),
    #[cfg(feature = "full")]
    op!("make_tiled_copy" | "make_tiled_copy_tv", "(copy_atom, thr_layout[, val_layout])", No, (2, 3), ["atom", "thr_layout", "val_layout"], false,
        "the copy atom tiled over threads and values",
        |a, _| {
            let atom = copy_atom(&a[0])?;
            let thr = as_layout(&a[1])?;
            let val = match a.get(2) {
                None => Layout::col_major(IntTuple::Int(1))?,
                Some(v) => as_layout(v)?,
            };
            Ok(Value::TiledCopy(Box::new(cute_core::atom::make_tiled_copy(&atom, &thr, &val)?)))
        }),
    #[cfg(feature = "full")]
    op!("make_tiled_copy_impl" | "cute.make_tiled_copy", "(copy_atom, layout_tv, tiler_mn)", No, (3, 3), ["atom", "layout_tv", "tiler_mn"], false,
        "the TiledCopy of a TV layout and a tile given directly (C++'s make_tiled_copy_impl; CuTeDSL's cute.make_tiled_copy)",
        |a, _| {
            let atom = copy_atom(&a[0])?;
            let tv = as_layout(&a[1])?;
            let tiler = a[2].to_int_tuple().map_err(|_| cute_core::err!(
                "make_tiled_copy: the tiler is a shape (tiler_mn), got {}", a[2].kind()
            ))?;
            Ok(Value::TiledCopy(Box::new(cute_core::atom::make_tiled_copy_impl(&atom, tv, tiler)?)))
        }),
    #[cfg(feature = "full")]
    op!("make_tiled_copy_A", "(copy_atom, tiled_mma)", No, (2, 2), [], false,
        "the copy atom tiled to the A operand of a TiledMMA", |a, _| tiled_copy_of(a, Operand::A)),
    #[cfg(feature = "full")]
    op!("make_tiled_copy_B", "(copy_atom, tiled_mma)", No, (2, 2), [], false,
        "the copy atom tiled to the B operand of a TiledMMA", |a, _| tiled_copy_of(a, Operand::B)),
    #[cfg(feature = "full")]
    op!("make_tiled_copy_C", "(copy_atom, tiled_mma)", No, (2, 2), [], false,
        "the copy atom tiled to the C operand of a TiledMMA", |a, _| tiled_copy_of(a, Operand::C)),
    #[cfg(feature = "full")]
    op!("get_layoutA_TV" | "tv_layout_A_tiled", "(tiled_mma)", No, (1, 1), [], false,
        "(thread, value) -> (m, k) of the A operand", |a, _| Ok(tiled_mma(&a[0])?.layout_a_tv()?.into())),
    #[cfg(feature = "full")]
    op!("get_layoutB_TV" | "tv_layout_B_tiled", "(tiled_mma)", No, (1, 1), [], false,
        "(thread, value) -> (n, k) of the B operand", |a, _| Ok(tiled_mma(&a[0])?.layout_b_tv()?.into())),
    #[cfg(feature = "full")]
    op!("get_layoutC_TV" | "tv_layout_C_tiled", "(tiled_mma)", No, (1, 1), [], false,
        "(thread, value) -> (m, n) of the C operand", |a, _| Ok(tiled_mma(&a[0])?.layout_c_tv()?.into())),
    #[cfg(feature = "full")]
    op!("get_layoutS_TV" | "layout_src_tv_tiled", "(tiled_copy)", No, (1, 1), [], false,
        "(thread, value) -> tile coordinate of the source", |a, _| Ok(tiled_copy(&a[0])?.layout_s_tv()?.into())),
    #[cfg(feature = "full")]
    op!("get_layoutD_TV" | "layout_dst_tv_tiled", "(tiled_copy)", No, (1, 1), [], false,
        "(thread, value) -> tile coordinate of the destination", |a, _| Ok(tiled_copy(&a[0])?.layout_d_tv()?.into())),
    #[cfg(feature = "full")]
    op!("tile_shape" | "tiler_mn" | "shape_mnk", "(tiled_mma | tiled_copy)", No, (1, 1), [], false,
        "the tile a TiledMMA (M, N, K) or TiledCopy covers",
        |a, _| tile_shape(&a[0])),
    #[cfg(feature = "full")]
    op!("tile_size", "(tiled, i)", Append, (2, 2), [], false,
        "mode i of the tile a TiledMMA or TiledCopy covers",
        |a, _| get(&tile_shape(&a[0])?, index(&a[1])?)),
    #[cfg(feature = "full")]
    op!("get_thr_layout_vmnk" | "ThrLayoutVMNK" | "thr_layout_vmnk", "(tiled_mma)", No, (1, 1), [], false,
        "(ThrV, ThrM, ThrN, ThrK) -> thread index: the atom's threads tiled over the atom layout",
        |a, _| Ok(tiled_mma(&a[0])?.thr_layout_vmnk.clone().into())),
    #[cfg(feature = "full")]
    op!("AtomThrID" | "thr_id", "(tiled_mma | mma_atom)", No, (1, 1), [], false,
        "the atom's ThrID: its threads (SM80), warpgroup (GMMA) or CTAs (UMMA: 1, or 2 for 2x1SM)",
        |a, _| match &a[0] {
            Value::Atom(at) => match &**at {
                Atom::Mma(m) => Ok(m.thr_id.clone().into()),
                Atom::Copy(c) => Ok(c.thr_id.clone().into()),
            },
            v => Ok(tiled_mma(v)?.atom.thr_id.clone().into()),
        }),
    #[cfg(feature = "full")]
    op!("partition_shape_A", "(tiled_mma, shape_mk)", No, (2, 2), [], false,
        "the shape of one thread's A fragment of an (M, K, ...) tile: (FrgV, RestM, RestK, ...)",
        |a, _| Ok(tiled_mma(&a[0])?.partition_shape(Operand::A, &a[1].to_int_tuple()?)?.into())),
    #[cfg(feature = "full")]
    op!("partition_shape_B", "(tiled_mma, shape_nk)", No, (2, 2), [], false,
        "the shape of one thread's B fragment of an (N, K, ...) tile: (FrgV, RestN, RestK, ...)",
        |a, _| Ok(tiled_mma(&a[0])?.partition_shape(Operand::B, &a[1].to_int_tuple()?)?.into())),
    #[cfg(feature = "full")]
    op!("partition_fragment_C", "(tiled_mma, shape_mn) | (thr_mma, tensor)", No, (2, 2), [], false,
        "the accumulator: an SM100 UMMA's in tensor memory ((MMA, MMA_M, MMA_N) -> lane << 16 | column), a register MMA's as a register tensor of its C type",
        |a, _| partitions::partition_fragment(Operand::C, a)),
    #[cfg(feature = "full")]
    op!("partition_fragment_A", "(thr_mma, tensor)", No, (2, 2), [], false,
        "the thread's register fragment of A: a register tensor of the MMA's A type over make_fragment_like(partition_A(tensor))",
        |a, _| partitions::partition_fragment(Operand::A, a)),
    #[cfg(feature = "full")]
    op!("partition_fragment_B", "(thr_mma, tensor)", No, (2, 2), [], false,
        "the thread's register fragment of B: a register tensor of the MMA's B type over make_fragment_like(partition_B(tensor))",
        |a, _| partitions::partition_fragment(Operand::B, a)),
    #[cfg(feature = "full")]
    op!("make_fragment_A", "(thr_mma | tiled_mma, partitioned)", No, (2, 2), [], false,
        "a register tensor of A's type over make_fragment_like of a partition_A result",
        |a, _| partitions::make_fragment(Operand::A, a)),
    #[cfg(feature = "full")]
    op!("make_fragment_B", "(thr_mma | tiled_mma, partitioned)", No, (2, 2), [], false,
        "a register tensor of B's type over make_fragment_like of a partition_B result",
        |a, _| partitions::make_fragment(Operand::B, a)),
    #[cfg(feature = "full")]
    op!("make_fragment_C", "(thr_mma | tiled_mma, partitioned)", No, (2, 2), [], false,
        "the accumulator over a partition_C result's shape: a column-major register tensor of C's type (an SM100 UMMA's in TMEM)",
        |a, _| partitions::make_fragment(Operand::C, a)),
    #[cfg(feature = "full")]
    op!("partition_shape_C", "(tiled_mma, shape_mn)", No, (2, 2), [], false,
        "the shape of one thread's C fragment of an (M, N, ...) tile: (FrgV, RestM, RestN, ...)",
        |a, _| Ok(tiled_mma(&a[0])?.partition_shape(Operand::C, &a[1].to_int_tuple()?)?.into())),
    #[cfg(feature = "full")]
    op!("UMMA::tile_to_mma_shape", "(atom, mma_tile_shape[, order])", No, (2, 3), [], false,
        "CuTe C++: an MN smem atom tiled to ((MMA_M, MMA_N), M_MMAs, N_MMAs, ...) as the SM100 examples build it",
        tile_to_mma_shape),
    #[cfg(feature = "full")]
    op!("tile_to_mma_shape", "(atom, mma_tile_shape[, order])", No, (2, 3), ["atom", "mma_tile_shape", "order"], false,
        "CuTeDSL tcgen05: UMMA::tile_to_mma_shape coalesced to the profile of the MMA tile shape",
        |a, _| dsl_tile_to_mma_shape(&a[0], &a[1], a.get(2))),
    #[cfg(feature = "full")]
    op!("ss_op_selector" | "GMMA::ss_op_selector", "<A, B, C, TileShape_MNK[, MajorA, MajorB]>()", Prepend, (4, 6), [], false,
        "CUTLASS's SM90 GMMA (A and B in smem) of the widest N dividing the tile",
        |a, _| crate::ops::families::gmma_op_selector(false, a)),
    #[cfg(feature = "full")]
    op!("rs_op_selector" | "GMMA::rs_op_selector", "<A, B, C, TileShape_MNK[, MajorA, MajorB]>()", Prepend, (4, 6), [], false,
        "CUTLASS's SM90 GMMA (A in registers) of the widest N dividing the tile",
        |a, _| crate::ops::families::gmma_op_selector(true, a)),
    #[cfg(feature = "full")]
    op!("sm100_make_trivial_tiled_mma", "<A, B, Acc, TileShape_MNK, ClusterShape_MNK, MajorA, MajorB, ScheduleTag>()", Prepend, (8, 10), [], false,
        "CUTLASS's SM100 builder: a 1-SM or 2-SM UMMA TiledMMA for the tile, cluster and schedule",
        |a, _| crate::ops::families::sm100_trivial_tiled_mma(a)),
    #[cfg(feature = "full")]
    op!("make_trivial_tiled_mma", "(a_dtype[, b_dtype], a_major, b_major, acc_dtype, cta_group, mma_tiler_mn[, a_source]) | (a_dtype, b_dtype, a_major, b_major, acc_dtype, atom_layout_mnk, tiler_mn[, a_source])", No, (6, 8),
        ["a_dtype", "b_dtype", "a_leading_mode", "b_leading_mode", "acc_dtype", "cta_group|atom_layout_mnk", "mma_tiler_mn|tiler_mn", "a_source"], false,
        "CuTeDSL sm100_utils: the UMMA TiledMMA (one or two CTAs) of the types and MMA tile; sm90_utils: the GMMA TiledMMA of an atom layout",
        |a, _| crate::ops::families::dsl_trivial_tiled_mma(a)),
    #[cfg(feature = "full")]
    op!("MmaF8Op", "(a_dtype, b_dtype, acc_dtype, shape_mnk, a_src, a_major, b_major)", No, (7, 7), [], false,
        "CuTeDSL warpgroup: the SM90 GMMA of 8-bit floats",
        |a, _| crate::ops::families::warpgroup_op(&a[0], &a[1], &a[2], &a[3..])),
    #[cfg(feature = "full")]
    op!("MmaUniversalOp", "(dtype)", No, (1, 1), [], false,
        "CuTeDSL: UniversalFMA, one thread's multiply-add",
        |a, _| crate::ops::families::dsl_universal_op(a)),
    #[cfg(feature = "full")]
    op!("MmaF16BF16Op", "(ab_dtype, acc_dtype, shape_mnk[, a_src, a_major, b_major] | [, cta_group, a_src, a_major, b_major])", No, (3, 7), [], false,
        "CuTeDSL: the SM80 mma.sync (warp., 3 arguments), SM90 GMMA (warpgroup., 6) or SM100 tcgen05.mma (tcgen05., 7) of 16-bit types",
        |a, _| crate::ops::families::dsl_f16bf16_op(a)),
    #[cfg(feature = "full")]
    op!("MmaTF32Op", "(shape_mnk, cta_group, a_src, a_major, b_major)", No, (5, 5), [], false,
        "CuTeDSL: the SM100 tcgen05.mma of TF32",
        |a, _| crate::ops::families::dsl_tf32_op(a)),
    #[cfg(feature = "full")]
    op!("MmaF8F6F4Op", "(a_dtype, b_dtype, acc_dtype, shape_mnk, cta_group, a_src, a_major, b_major)", No, (8, 8), [], false,
        "CuTeDSL: the SM100 tcgen05.mma of 8-, 6- and 4-bit floats, A and B of independent types",
        |a, _| crate::ops::families::dsl_f8f6f4_op(a)),
    #[cfg(feature = "full")]
    op!("MmaI8Op", "(ab_dtype, shape_mnk, cta_group, a_src, a_major, b_major) | (a_dtype, b_dtype, acc_dtype, shape_mnk, a_src, a_major, b_major)", No, (6, 7), [], false,
        "CuTeDSL: the SM100 tcgen05.mma (6 arguments) or SM90 GMMA (warpgroup., 7) of 8-bit integers",
        |a, _| crate::ops::families::dsl_i8_op(a)),
    // --- descriptors -------------------------------------------------------------------
    #[cfg(feature = "full")]
    op!("make_gmma_desc" | "GMMA::make_gmma_desc", "<Major>(smem_tensor | smem_layout[, T])", Prepend, (2, 3), [], false,
        "SM90 wgmma's shared-memory descriptor of a canonical GMMA operand block: LBO, SBO, layout type; of a tensor, its start address too",
        |a, _| crate::ops::descriptors::smem_desc(cute_core::desc::DescFamily::Gmma, a)),
    #[cfg(feature = "full")]
    op!("make_umma_desc" | "UMMA::make_umma_desc", "<Major>(smem_tensor | smem_layout[, T])", Prepend, (2, 3), [], false,
        "SM100 tcgen05.mma's shared-memory descriptor of a canonical UMMA operand block; of a tensor, its start address too",
        |a, _| crate::ops::descriptors::smem_desc(cute_core::desc::DescFamily::Umma, a)),
    #[cfg(feature = "full")]
    op!("make_instr_desc" | "UMMA::make_instr_desc", "<A, B, C, M, N, MajorA, MajorB[, NegA, NegB, Saturate, Sparse, MaxShift]>()", Prepend, (7, 12), [], false,
        "SM100 tcgen05.mma's 32-bit instruction descriptor: formats, majors, M and N",
        |a, _| crate::ops::descriptors::instr_desc(a)),
    #[cfg(feature = "full")]
    op!("tma_swizzle" | "get_tma_swizzle", "(smem_layout)", No, (1, 1), [], false,
        "the CUtensorMapSwizzle a TMA copy into this shared-memory layout uses (make_tma_copy's)",
        |a, _| {
            let name = cute_core::tma::tma_swizzle(&a[0].to_any_layout()?)?;
            let sw = CuSwizzle::parse(name).ok_or_else(|| cute_core::err!("unknown CUtensorMapSwizzle {name}"))?;
            Ok(Value::Word(Word::CuSwizzle(sw)))
        }),
    #[cfg(feature = "full")]
    op!("make_tma_copy", "(OP{}, gmem_tensor, smem_layout[, cta_tiler][, cluster_size]) | (gmem_layout, smem_layout[, T])", No, (2, 5), [], false,
        "a TMA TiledCopy (one instruction per box, get_tma_tensor and tma_partition on it); of a gmem layout, just the box (its TmaGmemBasis) with its swizzle and the checks the driver makes",
        |a, _| {
            match &a[0] {
                Value::Word(op) => return crate::ops::tma::make_tma(op.name(), &a[1..], true),
                Value::Atom(at) => return Err(cute_core::err!(
                    "make_tma_copy takes a TMA operation ({}), not the atom {}",
                    cute_core::tma::TMA_OPS.join(", "),
                    at.name()
                )),
                _ => {}
            }
            crate::ops::tma::tma_box(a)
        }),
    #[cfg(feature = "full")]
    op!("make_tma_atom", "(OP{}, gmem_tensor, smem_layout, cta_tiler[, cluster_size])", No, (4, 5), [], false,
        "the TMA copy atom alone (its box and coordinate strides; get_tma_tensor and tma_partition take it)",
        |a, _| match &a[0] {
            Value::Word(op) => crate::ops::tma::make_tma(op.name(), &a[1..], false),
            v => Err(cute_core::err!("make_tma_atom takes a TMA operation first (SM90_TMA_LOAD{{}}), got {}", v.kind())),
        }),
    #[cfg(feature = "full")]
    op!("get_tma_tensor", "(tma, gmem_shape)", No, (2, 2), [], false,
        "the TMA coordinate tensor over the global shape: ArithTuple coordinates in the TMA's mode order (tma.get_tma_tensor(make_shape(M,K)))",
        |a, _| Ok(Value::Tensor(Box::new(crate::ops::tma::tma_atom(&a[0])?.get_tma_tensor(&a[1].to_int_tuple()?)?)))),
    #[cfg(feature = "full")]
    op!("tma_partition", "(tma, [cta_coord, cta_layout,] smem_tensor, gmem_tensor)", No, (3, 5), [], false,
        "(gmem, smem) as ((TMA, TMA_Iter), Rest...): one TMA instruction's values in mode 0.0, offset to the CTA's multicast slice",
        |a, _| crate::ops::tma::tma_partition(a, false)),
    #[cfg(feature = "full")]
    op!("make_tiled_tma_atom" | "cpasync.make_tiled_tma_atom" | "nvgpu.cpasync.make_tiled_tma_atom" | "cute.nvgpu.cpasync.make_tiled_tma_atom",
        "(op, gmem_tensor, smem_layout, cta_tiler[, num_multicast])", No, (4, 5), ["op", "gmem_tensor", "smem_layout", "cta_tiler", "num_multicast"], false,
        "CuTeDSL: (the TMA copy atom, the TMA coordinate tensor over the gmem tensor's shape): C++'s make_tma_atom and get_tma_tensor",
        |a, _| {
            let Value::Word(op) = &a[0] else {
                return Err(cute_core::err!("make_tiled_tma_atom takes a TMA operation first (cpasync.CopyBulkTensorTileG2SOp()), got {}", a[0].kind()));
            };
            let atom = crate::ops::tma::make_tma(op.name(), &a[1..], false)?;
            let shape = crate::ops::tensors::tensor(&a[1])?.layout.shape().clone();
            let t = crate::ops::tma::tma_atom(&atom)?.get_tma_tensor(&shape)?;
            Ok(Value::Tuple(vec![atom, Value::Tensor(Box::new(t))]))
        }),
    #[cfg(feature = "full")]
    op!("cpasync.tma_partition" | "nvgpu.cpasync.tma_partition" | "cute.nvgpu.cpasync.tma_partition",
        "(atom, cta_coord, cta_layout, smem_tensor, gmem_tensor)", No, (5, 5), ["atom", "cta_coord", "cta_layout", "smem_tensor", "gmem_tensor"], false,
        "CuTeDSL: (smem, gmem) as ((TMA, TMA_Iter), Rest...), C++'s tma_partition with the pair swapped",
        |a, _| crate::ops::tma::tma_partition(a, true)),
    #[cfg(feature = "full")]
    op!("CopyBulkTensorTileG2SOp" | "cpasync.CopyBulkTensorTileG2SOp", "()", No, (0, 0), [], false,
        "CuTeDSL's TMA load operation: C++'s SM90_TMA_LOAD",
        |_, _| Ok(Value::Word(Word::Tma(TmaOp::Load)))),
    #[cfg(feature = "full")]
    op!("CopyBulkTensorTileG2SMulticastOp" | "cpasync.CopyBulkTensorTileG2SMulticastOp", "()", No, (0, 0), [], false,
        "CuTeDSL's multicast TMA load operation: C++'s SM90_TMA_LOAD_MULTICAST",
        |_, _| Ok(Value::Word(Word::Tma(TmaOp::LoadMulticast)))),
    #[cfg(feature = "full")]
    op!("CopyBulkTensorTileS2GOp" | "cpasync.CopyBulkTensorTileS2GOp", "()", No, (0, 0), [], false,
        "CuTeDSL's TMA store operation: C++'s SM90_TMA_STORE",
        |_, _| Ok(Value::Word(Word::Tma(TmaOp::Store)))),
    #[cfg(feature = "full")]
    op!("make_tmem_copy", "(atom | OP{}, tmem_tensor)", No, (2, 2), [], false,
        "the warpgroup's TiledCopy of a tcgen05.ld/st atom over a TMEM tensor (make_cotiled_copy: each warp in its 32-lane sub-partition)",
        |a, _| {
            let t = crate::ops::tensors::tensor(&a[1])?;
            Ok(Value::TiledCopy(Box::new(cute_core::tmem::make_tmem_copy(&crate::ops::atoms::copy_atom(&a[0])?, t)?)))
        }),
    #[cfg(feature = "full")]
    op!("make_utccp_copy", "(OP{}, tmem_tensor)", No, (2, 2), [], false,
        "the TiledCopy of a tcgen05.cp (shared memory to TMEM) atom over a TMEM tensor",
        |a, _| {
            let t = crate::ops::tensors::tensor(&a[1])?;
            Ok(Value::TiledCopy(Box::new(cute_core::tmem::make_utccp_copy(&crate::ops::atoms::copy_atom(&a[0])?, t)?)))
        }),
    #[cfg(feature = "full")]
    op!("tma_box", "(gmem_layout, smem_layout[, T])", No, (2, 3), [], false,
        "the TMA box make_tma_copy(SM90_TMA_LOAD{}, gmem, smem) derives (its TmaGmemBasis), with its swizzle and the checks the driver makes",
        |a, _| crate::ops::tma::tma_box(a)),
    // --- shared memory -----------------------------------------------------------------
    #[cfg(feature = "full")]
    op!("bank_conflicts", "(smem[, bits], INSTR) | (smem, bits, tv, INSTR) | (smem, tiled_copy[, INSTR])", No, (2, 4), [], false,
        "the shared-memory bank model of an access: phases, wavefronts, conflicts",
        |a, _| {
            let (smem, bits, tv, instr) = bank_args(a)?;
            Ok(Value::Banks(Box::new(cute_core::bank::bank_conflicts(&smem.to_any_layout()?, bits, &tv, instr)?)))
        }),
    // --- global memory ------------------------------------------------------------------
    #[cfg(feature = "full")]
    op!("coalescing", "(gmem_tensor, tiled_copy[, INSTR]) | (gmem[, bits], INSTR) | (gmem, bits, tiled_copy | tv[, INSTR])", No, (2, 4), [], false,
        "the global-memory coalescing of an access: 32-byte sectors and 128-byte lines per warp instruction against the fewest",
        |a, _| {
            let g = crate::ops::atoms::coalesce_args(a)?;
            Ok(Value::Coalesce(Box::new(cute_core::gmem::coalescing(&g.layout, g.bits, g.base, &g.tv, g.op)?)))
        }),
    #[cfg(feature = "full")]
    op!("swizzle_search", "(smem[, bits], INSTR) | (smem, bits, tv, INSTR) | (smem, tiled_copy[, INSTR])", No, (2, 4), [], false,
        "every swizzle and row padding of the smem layout ranked by wavefronts",
        |a, _| {
            let (smem, bits, tv, instr) = bank_args(a)?;
            let base = smem.to_any_layout()?.inner().clone();
            Ok(Value::Ranked(cute_core::bank::swizzle_search(&base, bits, &tv, instr)?))
        }),
];
