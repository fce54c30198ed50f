//! Evaluation of parsed expressions: names, CuTe functions, applications.

use super::parse::{strip_ns, Expr, Node};
use crate::atom::Atom;
use crate::bank::{Instr, Smem};
use crate::error::{Error, Result};
use crate::int_tuple::{self, IntTuple};
use crate::layout::{self as alg, Layout, Tiler};
use crate::swizzle::{composition3, ComposedLayout, Swizzle};
use crate::value::{Major, Value};
use std::collections::HashMap;

/// Evaluation environment: the bindings made by earlier lines of a script.
#[derive(Default, Debug, Clone)]
pub struct Env {
    vars: HashMap<String, Value>,
}

impl Env {
    /// Bind `name` to `value`.
    pub fn bind(&mut self, name: &str, value: Value) {
        self.vars.insert(name.to_string(), value);
    }

    /// Look up a binding.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.vars.get(name)
    }
}

pub(crate) fn eval(node: &Node<'_>, env: &Env) -> Result<Value> {
    let v = eval_inner(node, env).map_err(|e| e.or_at(node.col))?;
    v.check_bounds().map_err(|e| e.or_at(node.col))?;
    Ok(v)
}

fn eval_inner(node: &Node, env: &Env) -> Result<Value> {
    match &node.expr {
        Expr::Int(v) => Ok(Value::Int(*v)),
        Expr::Under => Ok(Value::Under),
        Expr::Tuple(items) => Ok(Value::Tuple(
            items.iter().map(|n| eval(n, env)).collect::<Result<_>>()?,
        )),
        Expr::Name(name) => eval_name(name, env),
        Expr::Layout(s, d) => {
            // Fast path: literal int-tuples need no intermediate Values.
            if let (Some(shape), Some(stride)) = (int_tuple_literal(s), int_tuple_literal(d)) {
                return Ok(Value::Layout(Layout::new(shape, stride)?));
            }
            let shape = eval(s, env)?
                .to_int_tuple()
                .map_err(|e| Error::at(s.col, format!("layout shape: {}", e.msg)))?;
            let stride = eval(d, env)?
                .to_int_tuple()
                .map_err(|e| Error::at(d.col, format!("layout stride: {}", e.msg)))?;
            Ok(Value::Layout(Layout::new(shape, stride)?))
        }
        Expr::Call { name, args, kwargs } => {
            if let Some(f) = env.get(name) {
                if !kwargs.is_empty() {
                    return Err(Error::new(
                        "keyword arguments are not allowed in an application",
                    ));
                }
                let args = eval_all(args, env)?;
                return apply(f, &args);
            }
            let args_v = eval_all(args, env)?;
            let mut kw = Vec::with_capacity(kwargs.len());
            for (k, n) in kwargs {
                kw.push((*k, eval(n, env)?, n.col));
            }
            call(strip_ns(name), &args_v, &kw)
        }
        Expr::Template { name, targs } => {
            let targs = eval_all(targs, env)?;
            template(strip_ns(name), &targs)
        }
        Expr::Apply { f, args } => {
            let fv = eval(f, env)?;
            let args = eval_all(args, env)?;
            apply(&fv, &args)
        }
        Expr::Compose(parts) => {
            let vals = eval_all(parts, env)?;
            compose_chain(&vals)
        }
    }
}

/// A literal int-tuple (`8`, `(2,(3,-4))`), converted without evaluation.
fn int_tuple_literal(node: &Node<'_>) -> Option<IntTuple> {
    match &node.expr {
        Expr::Int(v) => Some(IntTuple::Int(*v)),
        Expr::Tuple(items) => items
            .iter()
            .map(int_tuple_literal)
            .collect::<Option<Vec<_>>>()
            .map(IntTuple::Tuple),
        _ => None,
    }
}

fn eval_all(nodes: &[Node], env: &Env) -> Result<Vec<Value>> {
    nodes.iter().map(|n| eval(n, env)).collect()
}

fn eval_name(name: &str, env: &Env) -> Result<Value> {
    if let Some(v) = env.get(name) {
        return Ok(v.clone());
    }
    match strip_ns(name) {
        "LayoutLeft" | "GenColMajor" => Ok(Value::Major(Major::Left)),
        "LayoutRight" | "GenRowMajor" => Ok(Value::Major(Major::Right)),
        "Underscore" => Ok(Value::Under),
        "true" | "True" | "true_type" => Ok(Value::Bool(true)),
        "false" | "False" | "false_type" => Ok(Value::Bool(false)),
        n if crate::atom::is_atom_name(n) => Ok(Value::Atom(Box::new(Atom::lookup(n)?))),
        n if KEYWORDS.contains(&n) || Instr::NAMES.contains(&n) => Ok(Value::Keyword(
            KEYWORDS
                .iter()
                .chain(Instr::NAMES)
                .find(|k| **k == n)
                .expect("listed"),
        )),
        n if FUNCTIONS.contains(&n) => Err(Error::new(format!(
            "'{n}' is a function: call it with arguments, e.g. {n}(...)"
        ))),
        n if n.starts_with("SM") || n.starts_with("UniversalCopy") => Err(Atom::lookup(n)
            .err()
            .unwrap_or_else(|| Error::new(format!("unknown name '{n}'")))),
        n => Err(Error::new(format!("unknown name '{n}'"))),
    }
}

/// `a o b` is `composition(a, b)`; `Sw o OFFSET o L` is a composed layout.
fn compose_chain(vals: &[Value]) -> Result<Value> {
    match vals {
        [Value::Swizzle(sw), Value::Int(off), Value::Layout(l)] => {
            return Ok(Value::Composed(ComposedLayout::new(*sw, *off, l.clone())));
        }
        // `Sw o 0 o L(i)`: application binds tighter, so this is the swizzle of an offset.
        [Value::Swizzle(sw), Value::Int(off), Value::Int(x)] => {
            return Ok(Value::Int(sw.apply(crate::error::arith::add(*off, *x)?)));
        }
        _ => {}
    }
    // Right-associative: a o b o c = a o (b o c) (the same function either way).
    let mut acc = vals.last().expect("non-empty").clone();
    for v in vals[..vals.len() - 1].iter().rev() {
        acc = composition(v, &acc)?;
    }
    Ok(acc)
}

/// Apply a value to arguments: evaluation, slicing, swizzling.
pub(crate) fn apply(f: &Value, args: &[Value]) -> Result<Value> {
    if args.is_empty() {
        return Err(Error::new(format!(
            "cannot apply {} to no arguments",
            f.kind()
        )));
    }
    let coord_val = if args.len() == 1 {
        args[0].clone()
    } else {
        Value::Tuple(args.to_vec())
    };
    match f {
        Value::Layout(l) => {
            let c = coord_val.to_coord()?;
            if c.has_underscore() {
                Ok(Value::Layout(l.slice(&c)?))
            } else {
                let c = coord_val.to_int_tuple()?;
                Ok(Value::Int(match c {
                    IntTuple::Int(i) => l.call_index(i)?,
                    t => l.call_coord(&t)?,
                }))
            }
        }
        Value::Composed(cl) => {
            let c = coord_val.to_coord()?;
            if c.has_underscore() {
                Ok(cl.slice(&c)?.into())
            } else {
                let c = coord_val.to_int_tuple()?;
                Ok(Value::Int(match c {
                    IntTuple::Int(i) => cl.call_index(i)?,
                    t => cl.call_coord(&t)?,
                }))
            }
        }
        Value::Swizzle(sw) => match args {
            [Value::Int(x)] => Ok(Value::Int(sw.apply(*x))),
            _ => Err(Error::new("a swizzle is applied to one integer offset")),
        },
        other => Err(Error::new(format!(
            "cannot apply {} (only layouts, composed layouts and swizzles can be applied)",
            other.kind()
        ))),
    }
}

/// Every function name the language knows (for error messages and completion).
pub const FUNCTIONS: &[&str] = &[
    "size",
    "cosize",
    "rank",
    "depth",
    "shape",
    "stride",
    "get",
    "flatten",
    "coalesce",
    "filter",
    "filter_zeros",
    "make_layout",
    "make_shape",
    "make_stride",
    "make_tile",
    "make_coord",
    "make_step",
    "composition",
    "complement",
    "right_inverse",
    "left_inverse",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
    "idx2crd",
    "crd2idx",
    "crd2crd",
    "upcast",
    "downcast",
    "recast_layout",
    "make_layout_tv",
    "make_swizzle",
    "make_composed_layout",
    "prefix_product",
    "shape_div",
    "ceil_div",
    "product",
    "product_each",
    "congruent",
    "weakly_congruent",
    "compatible",
    "slice",
    "atom",
    "make_tiled_mma",
    "make_tiled_copy",
    "make_tiled_copy_A",
    "make_tiled_copy_B",
    "make_tiled_copy_C",
    "get_layoutA_TV",
    "get_layoutB_TV",
    "get_layoutC_TV",
    "get_layoutS_TV",
    "get_layoutD_TV",
    "tile_shape",
    "bank_conflicts",
    "swizzle_search",
];

/// Names with a fixed meaning: atom traits and element types (instruction names are
/// [`Instr::NAMES`]).
pub const KEYWORDS: &[&str] = &[
    "Shape_MNK",
    "ThrID",
    "ALayout",
    "BLayout",
    "CLayout",
    "LayoutA_TV",
    "LayoutB_TV",
    "LayoutC_TV",
    "SrcLayout",
    "DstLayout",
    "RefLayout",
    "ValLayoutSrc",
    "ValLayoutDst",
    "ValLayoutRef",
    "uint1_t",
    "int4_t",
    "uint4_t",
    "int8_t",
    "uint8_t",
    "float_e4m3_t",
    "float_e5m2_t",
    "int16_t",
    "uint16_t",
    "half_t",
    "bfloat16_t",
    "int32_t",
    "uint32_t",
    "float",
    "tfloat32_t",
    "int64_t",
    "uint64_t",
    "double",
    "uint128_t",
];

/// Width in bits of an element type keyword.
fn type_bits(k: &str) -> Option<i64> {
    Some(match k {
        "uint1_t" => 1,
        "int4_t" | "uint4_t" => 4,
        "int8_t" | "uint8_t" | "float_e4m3_t" | "float_e5m2_t" => 8,
        "int16_t" | "uint16_t" | "half_t" | "bfloat16_t" => 16,
        "int32_t" | "uint32_t" | "float" | "tfloat32_t" => 32,
        "int64_t" | "uint64_t" | "double" => 64,
        "uint128_t" => 128,
        _ => return None,
    })
}

/// An element width: an integer number of bits or a type name.
fn bits_of(v: &Value) -> Result<i64> {
    match v {
        Value::Int(b) if *b > 0 => Ok(*b),
        Value::Keyword(k) => {
            type_bits(k).ok_or_else(|| Error::new(format!("'{k}' is not an element type")))
        }
        v => Err(Error::new(format!(
            "expected an element width (bits, e.g. 16, or a type such as half_t), got {}",
            match v {
                Value::Int(b) => b.to_string(),
                v => v.kind().to_string(),
            }
        ))),
    }
}

fn arity(name: &str, args: &[Value], lo: usize, hi: usize) -> Result<()> {
    if args.len() < lo || args.len() > hi {
        let want = if lo == hi {
            format!("{lo} argument{}", if lo == 1 { "" } else { "s" })
        } else {
            format!("{lo} to {hi} arguments")
        };
        return Err(Error::new(format!(
            "{name}: expected {want}, got {}",
            args.len()
        )));
    }
    Ok(())
}

fn no_kwargs(name: &str, kw: &[(&str, Value, usize)]) -> Result<()> {
    match kw.first() {
        Some((k, _, col)) => Err(Error::at(
            *col,
            format!("{name}: unexpected keyword argument '{k}'"),
        )),
        None => Ok(()),
    }
}

fn ctx(name: &str) -> impl Fn(Error) -> Error + '_ {
    move |e: Error| {
        if e.msg.starts_with(name) {
            e
        } else {
            Error {
                msg: format!("{name}: {}", e.msg),
                col: e.col,
            }
        }
    }
}

fn call(name: &str, args: &[Value], kw: &[(&str, Value, usize)]) -> Result<Value> {
    if !FUNCTIONS.contains(&name) && !matches!(name, "Swizzle" | "Sw") {
        return Err(unknown_function(name));
    }
    if name != "make_layout" {
        no_kwargs(name, kw)?;
    }
    call_inner(name, args, kw).map_err(ctx(name))
}

/// A layout-or-composed first operand with a layout operation applied to the inner layout.
fn on_layout(v: &Value, f: impl FnOnce(&Layout) -> Result<Layout>) -> Result<Value> {
    match v {
        Value::Layout(l) => Ok(Value::Layout(f(l)?)),
        Value::Composed(c) => Ok(c.map_inner(f)?.into()),
        other => Err(Error::new(format!(
            "expected a layout or composed layout, got {}",
            other.kind()
        ))),
    }
}

fn divide_or_product(args: &[Value], f: fn(&Layout, &Tiler) -> Result<Layout>) -> Result<Value> {
    let tiler = args[1].to_tiler()?;
    on_layout(&args[0], |l| f(l, &tiler))
}

fn composition(a: &Value, b: &Value) -> Result<Value> {
    match (a, b) {
        (Value::Swizzle(sw), Value::Layout(l)) => Ok(composition3(*sw, 0, l.clone()).into()),
        (Value::Composed(c), b) => Ok(c.compose(&b.to_tiler()?)?.into()),
        (Value::Layout(l), b @ (Value::Layout(_) | Value::Int(_) | Value::Tuple(_) | Value::Under)) => {
            Ok(Value::Layout(alg::composition_tiler(l, &b.to_tiler()?)?))
        }
        (Value::Layout(_), Value::Composed(_) | Value::Swizzle(_)) => Err(Error::new(
            "composing a layout with a swizzle on the right is not supported (CuTe keeps such functions as ComposedLayout on the left)",
        )),
        (a, b) => Err(Error::new(format!(
            "cannot compose {} with {}",
            a.kind(),
            b.kind()
        ))),
    }
}

fn cast_factor(v: &Value, what: &str) -> Result<i64> {
    v.to_int()
        .map_err(|e| Error::new(format!("{what}: {}", e.msg)))
}

fn call_inner(name: &str, args: &[Value], kw: &[(&str, Value, usize)]) -> Result<Value> {
    let int = |v: i64| Ok(Value::Int(v));
    match name {
        "size" => {
            arity(name, args, 1, 1)?;
            match &args[0] {
                Value::Layout(l) => int(l.size()?),
                Value::Composed(c) => int(c.layout.size()?),
                v => int(v.to_int_tuple()?.size()?),
            }
        }
        "cosize" => {
            arity(name, args, 1, 1)?;
            match &args[0] {
                Value::Layout(l) => int(l.cosize()?),
                Value::Composed(c) => int(c.layout.cosize()?),
                v => Err(Error::new(format!("expected a layout, got {}", v.kind()))),
            }
        }
        "rank" | "depth" => {
            arity(name, args, 1, 1)?;
            let t = match &args[0] {
                Value::Layout(l) => l.shape().clone(),
                Value::Composed(c) => c.layout.shape().clone(),
                v => v.to_int_tuple()?,
            };
            int(if name == "rank" { t.rank() } else { t.depth() } as i64)
        }
        "shape" => {
            arity(name, args, 1, 1)?;
            match &args[0] {
                Value::Layout(l) => Ok(l.shape().clone().into()),
                Value::Composed(c) => Ok(c.layout.shape().clone().into()),
                v => Ok(v.to_int_tuple()?.into()),
            }
        }
        "stride" => {
            arity(name, args, 1, 1)?;
            Ok(args[0].to_layout()?.stride().clone().into())
        }
        "get" => {
            arity(name, args, 2, 9)?;
            if let [v, Value::Keyword(k)] = args {
                return get_trait(v, k);
            }
            let mut cur = args[0].clone();
            for a in &args[1..] {
                let i = a.to_int()?;
                let idx =
                    usize::try_from(i).map_err(|_| Error::new(format!("index {i} is negative")))?;
                cur = get(&cur, idx)?;
            }
            Ok(cur)
        }
        "flatten" => {
            arity(name, args, 1, 1)?;
            match &args[0] {
                v @ (Value::Layout(_) | Value::Composed(_)) => on_layout(v, |l| Ok(l.flatten())),
                v => Ok(v.to_int_tuple()?.flatten().into()),
            }
        }
        "coalesce" => {
            arity(name, args, 1, 2)?;
            match args.get(1) {
                None => on_layout(&args[0], alg::coalesce),
                Some(p) => {
                    let p = p.to_int_tuple()?;
                    on_layout(&args[0], |l| alg::coalesce_by(l, &p))
                }
            }
        }
        "filter" => {
            arity(name, args, 1, 1)?;
            on_layout(&args[0], alg::filter)
        }
        "filter_zeros" => {
            arity(name, args, 1, 1)?;
            on_layout(&args[0], |l| Ok(alg::filter_zeros(l)))
        }
        "make_layout" => make_layout(args, kw),
        "make_shape" | "make_stride" | "make_coord" | "make_step" => {
            for a in args {
                a.to_int_tuple()?;
            }
            Ok(Value::Tuple(args.to_vec()))
        }
        "make_tile" => {
            for a in args {
                a.to_tiler()?;
            }
            Ok(Value::Tuple(args.to_vec()))
        }
        "composition" => {
            arity(name, args, 2, 3)?;
            if args.len() == 3 {
                // composition(A, O, B) drops an identity swizzle with offset 0.
                let c = make_composed(args)?;
                return Ok(composition3(c.swizzle, c.offset, c.layout).into());
            }
            composition(&args[0], &args[1])
        }
        "make_composed_layout" => {
            arity(name, args, 3, 3)?;
            Ok(Value::Composed(make_composed(args)?))
        }
        "complement" => {
            arity(name, args, 1, 2)?;
            let l = match &args[0] {
                Value::Layout(l) => l,
                Value::Composed(c) => &c.layout,
                v => return Err(Error::new(format!("expected a layout, got {}", v.kind()))),
            };
            match args.get(1) {
                None => Ok(alg::complement1(l)?.into()),
                Some(t) => Ok(alg::complement(l, &t.to_int_tuple()?)?.into()),
            }
        }
        "right_inverse" | "left_inverse" => {
            arity(name, args, 1, 1)?;
            match &args[0] {
                Value::Under => Ok(Value::Under),
                v => {
                    let l = v.to_layout()?;
                    Ok(if name == "right_inverse" {
                        alg::right_inverse(l)?
                    } else {
                        alg::left_inverse(l)?
                    }
                    .into())
                }
            }
        }
        "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" | "logical_product"
        | "zipped_product" | "tiled_product" | "flat_product" => {
            arity(name, args, 2, 2)?;
            let f: fn(&Layout, &Tiler) -> Result<Layout> = match name {
                "logical_divide" => alg::logical_divide,
                "zipped_divide" => alg::zipped_divide,
                "tiled_divide" => alg::tiled_divide,
                "flat_divide" => alg::flat_divide,
                "logical_product" => alg::logical_product,
                "zipped_product" => alg::zipped_product,
                "tiled_product" => alg::tiled_product,
                _ => alg::flat_product,
            };
            divide_or_product(args, f)
        }
        "blocked_product" | "raked_product" => {
            arity(name, args, 2, 2)?;
            let b = args[1].to_layout()?.clone();
            let f = if name == "blocked_product" {
                alg::blocked_product
            } else {
                alg::raked_product
            };
            on_layout(&args[0], |a| f(a, &b))
        }
        "idx2crd" => {
            arity(name, args, 2, 3)?;
            let idx = args[0].to_int_tuple()?;
            let shape = args[1].to_int_tuple()?;
            match args.get(2) {
                None => Ok(int_tuple::idx2crd(&idx, &shape)?.into()),
                Some(d) => Ok(int_tuple::idx2crd_strided(&idx, &shape, &d.to_int_tuple()?)?.into()),
            }
        }
        "crd2idx" => {
            arity(name, args, 2, 3)?;
            let c = args[0].to_int_tuple()?;
            if let Value::Layout(l) = &args[1] {
                arity(name, args, 2, 2)?;
                return int(l.call_coord(&c)?);
            }
            let s = args[1].to_int_tuple()?;
            match args.get(2) {
                None => int(int_tuple::crd2idx_shape(&c, &s)?),
                Some(d) => {
                    let d = d.to_int_tuple()?;
                    if !s.congruent(&d) && !d.is_int() {
                        return Err(Error::new(format!(
                            "shape {s} and stride {d} are not congruent"
                        )));
                    }
                    int(int_tuple::crd2idx(&c, &s, &d)?)
                }
            }
        }
        "crd2crd" => {
            arity(name, args, 3, 3)?;
            let c = args[0].to_int_tuple()?;
            let s = args[1].to_int_tuple()?;
            let d = args[2].to_int_tuple()?;
            Ok(int_tuple::crd2crd(&c, &s, &d)?.into())
        }
        "upcast" | "downcast" => {
            arity(name, args, 2, 2)?;
            let n = cast_factor(&args[0], "the factor N")?;
            let l = args[1].to_layout()?;
            Ok(if name == "upcast" {
                alg::upcast(n, l)?
            } else {
                alg::downcast(n, l)?
            }
            .into())
        }
        "recast_layout" => {
            arity(name, args, 3, 3)?;
            let old = cast_factor(&args[0], "OLD_BITS")?;
            let new = cast_factor(&args[1], "NEW_BITS")?;
            Ok(alg::recast_layout(old, new, args[2].to_layout()?)?.into())
        }
        "make_layout_tv" => {
            arity(name, args, 2, 2)?;
            let thr = as_layout(&args[0])?;
            let val = as_layout(&args[1])?;
            let (tiler, tv) = alg::make_layout_tv(&thr, &val)?;
            Ok(Value::Tuple(vec![tiler.into(), tv.into()]))
        }
        "make_swizzle" | "Swizzle" | "Sw" => {
            arity(name, args, 3, 3)?;
            swizzle(args)
        }
        "prefix_product" => {
            arity(name, args, 1, 1)?;
            Ok(int_tuple::prefix_product(&args[0].to_int_tuple()?)?.into())
        }
        "shape_div" | "ceil_div" => {
            arity(name, args, 2, 2)?;
            let a = args[0].to_int_tuple()?;
            let b = args[1].to_int_tuple()?;
            Ok(if name == "shape_div" {
                int_tuple::shape_div(&a, &b)?
            } else {
                int_tuple::ceil_div(&a, &b)?
            }
            .into())
        }
        "product" => {
            arity(name, args, 1, 1)?;
            int(args[0].to_int_tuple()?.size()?)
        }
        "product_each" => {
            arity(name, args, 1, 1)?;
            Ok(args[0].to_int_tuple()?.product_each()?.into())
        }
        "congruent" | "weakly_congruent" | "compatible" => {
            arity(name, args, 2, 2)?;
            let a = shape_of(&args[0])?;
            let b = shape_of(&args[1])?;
            Ok(Value::Bool(match name {
                "congruent" => a.congruent(&b),
                "weakly_congruent" => a.weakly_congruent(&b),
                _ => a.compatible(&b)?,
            }))
        }
        "slice" => {
            arity(name, args, 2, 2)?;
            apply(&args[1], std::slice::from_ref(&args[0]))
        }
        "atom" => {
            arity(name, args, 1, 2)?;
            let a = match &args[0] {
                Value::Atom(a) => (**a).clone(),
                v => {
                    return Err(Error::new(format!(
                        "expected an atom name, got {}",
                        v.kind()
                    )))
                }
            };
            match (a, args.get(1)) {
                (a, None) => Ok(Value::Atom(Box::new(a))),
                (Atom::Copy(c), Some(t)) => Ok(Value::Atom(Box::new(Atom::Copy(
                    c.with_value_bits(bits_of(t)?)?,
                )))),
                (Atom::Mma(m), Some(_)) => Err(Error::new(format!(
                    "{} is an MMA atom: its value types are part of its name",
                    m.name
                ))),
            }
        }
        "make_tiled_mma" => {
            arity(name, args, 1, 3)?;
            let atom = match &args[0] {
                Value::Atom(a) => match &**a {
                    Atom::Mma(m) => m.clone(),
                    Atom::Copy(c) => {
                        return Err(Error::new(format!(
                            "{} is a copy atom, not an MMA atom",
                            c.name
                        )))
                    }
                },
                v => {
                    return Err(Error::new(format!(
                        "expected an MMA atom, got {}",
                        v.kind()
                    )))
                }
            };
            let Some(layout) = args.get(1) else {
                return Ok(Value::TiledMma(Box::new(atom.tiled()?)));
            };
            let layout = as_layout(layout)?;
            let perm = match args.get(2) {
                None => Vec::new(),
                Some(Value::Tuple(vs)) => vs.iter().map(|v| v.to_tiler()).collect::<Result<_>>()?,
                Some(v) => {
                    return Err(Error::new(format!(
                        "the permutation is a tuple of up to 3 tilers (M, N, K), got {}",
                        v.kind()
                    )))
                }
            };
            Ok(Value::TiledMma(Box::new(crate::atom::make_tiled_mma(
                &atom, &layout, &perm,
            )?)))
        }
        "make_tiled_copy" => {
            arity(name, args, 2, 3)?;
            let atom = copy_atom(&args[0])?;
            let thr = as_layout(&args[1])?;
            let val = match args.get(2) {
                None => Layout::col_major(IntTuple::Int(1))?,
                Some(v) => as_layout(v)?,
            };
            Ok(Value::TiledCopy(Box::new(crate::atom::make_tiled_copy(
                &atom, &thr, &val,
            )?)))
        }
        "make_tiled_copy_A" | "make_tiled_copy_B" | "make_tiled_copy_C" => {
            arity(name, args, 2, 2)?;
            let atom = copy_atom(&args[0])?;
            let m = match &args[1] {
                Value::TiledMma(m) => m,
                v => return Err(Error::new(format!("expected a TiledMMA, got {}", v.kind()))),
            };
            let which = name.chars().last().expect("non-empty");
            Ok(Value::TiledCopy(Box::new(
                crate::atom::make_tiled_copy_operand(&atom, m, which)?,
            )))
        }
        "get_layoutA_TV" | "get_layoutB_TV" | "get_layoutC_TV" => {
            arity(name, args, 1, 1)?;
            let m = match &args[0] {
                Value::TiledMma(m) => m,
                v => return Err(Error::new(format!("expected a TiledMMA, got {}", v.kind()))),
            };
            Ok(match name {
                "get_layoutA_TV" => m.layout_a_tv()?,
                "get_layoutB_TV" => m.layout_b_tv()?,
                _ => m.layout_c_tv()?,
            }
            .into())
        }
        "get_layoutS_TV" | "get_layoutD_TV" => {
            arity(name, args, 1, 1)?;
            let c = match &args[0] {
                Value::TiledCopy(c) => c,
                v => {
                    return Err(Error::new(format!(
                        "expected a TiledCopy, got {}",
                        v.kind()
                    )))
                }
            };
            Ok(if name == "get_layoutS_TV" {
                c.layout_s_tv()?
            } else {
                c.layout_d_tv()?
            }
            .into())
        }
        "tile_shape" => {
            arity(name, args, 1, 1)?;
            match &args[0] {
                Value::TiledMma(m) => Ok(m.tile_shape()?.into()),
                Value::TiledCopy(c) => Ok(c.tiler.clone().into()),
                v => Err(Error::new(format!(
                    "expected a TiledMMA or TiledCopy, got {}",
                    v.kind()
                ))),
            }
        }
        "bank_conflicts" => {
            let (smem, bits, tv, instr) = bank_args(args)?;
            let smem = match smem {
                Value::Layout(l) => Smem::Plain(l.clone()),
                Value::Composed(c) => Smem::Composed(c.clone()),
                v => {
                    return Err(Error::new(format!(
                        "expected a shared-memory layout, got {}",
                        v.kind()
                    )))
                }
            };
            Ok(Value::Banks(Box::new(crate::bank::bank_conflicts(
                &smem, bits, &tv, instr,
            )?)))
        }
        "swizzle_search" => {
            let (smem, bits, tv, instr) = bank_args(args)?;
            let base = match smem {
                Value::Layout(l) => l.clone(),
                Value::Composed(c) => c.layout.clone(),
                v => {
                    return Err(Error::new(format!(
                        "expected a shared-memory layout, got {}",
                        v.kind()
                    )))
                }
            };
            Ok(Value::Ranked(crate::bank::swizzle_search(
                &base, bits, &tv, instr,
            )?))
        }
        _ => unreachable!("{name} is listed in FUNCTIONS but has no implementation"),
    }
}

fn get_trait(v: &Value, k: &str) -> Result<Value> {
    match v {
        Value::Atom(a) => a.trait_value(k),
        Value::TiledMma(m) => Atom::Mma(m.atom.clone()).trait_value(k),
        Value::TiledCopy(c) => Atom::Copy(c.atom.clone()).trait_value(k),
        v => Err(Error::new(format!("{} has no trait {k}", v.kind()))),
    }
}

fn copy_atom(v: &Value) -> Result<crate::atom::CopyAtom> {
    match v {
        Value::Atom(a) => match &**a {
            Atom::Copy(c) => Ok(c.clone()),
            Atom::Mma(m) => Err(Error::new(format!(
                "{} is an MMA atom, not a copy atom",
                m.name
            ))),
        },
        v => Err(Error::new(format!(
            "expected a copy atom, got {}",
            v.kind()
        ))),
    }
}

/// `(smem, bits, tv, instr)` or `(smem, tiled_copy[, instr])`.
fn bank_args(args: &[Value]) -> Result<(&Value, u32, Layout, Instr)> {
    arity("bank_conflicts", args, 2, 4)?;
    let instr_of = |v: &Value| -> Result<Instr> {
        match v {
            Value::Keyword(k) => Instr::parse(k).ok_or_else(|| {
                Error::new(format!(
                    "'{k}' is not an instruction (expected one of {})",
                    Instr::NAMES.join(", ")
                ))
            }),
            v => Err(Error::new(format!(
                "expected an instruction ({}), got {}",
                Instr::NAMES.join(", "),
                v.kind()
            ))),
        }
    };
    if let Value::TiledCopy(c) = &args[1] {
        if args.len() > 3 {
            return Err(Error::new(
                "with a TiledCopy: (smem, tiled_copy[, instruction])",
            ));
        }
        let bits = c.atom.val_bits.unwrap_or(0);
        let instr = match args.get(2) {
            Some(v) => instr_of(v)?,
            None => c.atom.instr(),
        };
        let tv = if instr.is_store() {
            c.layout_d_tv()?
        } else {
            c.layout_s_tv()?
        };
        let bits = u32::try_from(bits).map_err(|_| Error::new("element width out of range"))?;
        return Ok((&args[0], bits, tv, instr));
    }
    if args.len() != 4 {
        return Err(Error::new(
            "expected (smem_layout, element_bits, tv_layout, instruction) or (smem_layout, tiled_copy[, instruction])",
        ));
    }
    let bits = bits_of(&args[1])?;
    let bits = u32::try_from(bits)
        .map_err(|_| Error::new(format!("element width {bits} is out of range")))?;
    let tv = match &args[2] {
        Value::Layout(l) => l.clone(),
        // make_layout_tv's (tiler, layout_tv).
        Value::Tuple(vs) if vs.len() == 2 && matches!(vs[1], Value::Layout(_)) => {
            vs[1].to_layout()?.clone()
        }
        v => {
            return Err(Error::new(format!(
                "expected a (thread, value) layout, got {}",
                v.kind()
            )))
        }
    };
    Ok((&args[0], bits, tv, instr_of(&args[3])?))
}

fn unknown_function(name: &str) -> Error {
    let near = FUNCTIONS
        .iter()
        .filter(|f| edit_distance(f, name) <= 2)
        .min_by_key(|f| edit_distance(f, name));
    match near {
        Some(n) => Error::new(format!("unknown function '{name}' (did you mean '{n}'?)")),
        None => Error::new(format!("unknown function '{name}'")),
    }
}

pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().take(64).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().take(64).enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

fn shape_of(v: &Value) -> Result<IntTuple> {
    match v {
        Value::Layout(l) => Ok(l.shape().clone()),
        Value::Composed(c) => Ok(c.layout.shape().clone()),
        v => v.to_int_tuple(),
    }
}

/// A layout argument; an int-tuple is taken as `make_layout(shape)`.
fn as_layout(v: &Value) -> Result<Layout> {
    match v {
        Value::Layout(l) => Ok(l.clone()),
        v => Layout::col_major(v.to_int_tuple()?),
    }
}

fn get(v: &Value, i: usize) -> Result<Value> {
    match v {
        Value::Layout(l) => Ok(l.mode(i)?.into()),
        Value::Composed(c) => Ok(c.map_inner(|l| l.mode(i))?.into()),
        Value::Tuple(vs) => vs.get(i).cloned().ok_or_else(|| {
            Error::new(format!(
                "index {i} out of range for a tuple of rank {}",
                vs.len()
            ))
        }),
        Value::Int(_) if i == 0 => Ok(v.clone()),
        v => Err(Error::new(format!("cannot index {} with {i}", v.kind()))),
    }
}

fn swizzle(args: &[Value]) -> Result<Value> {
    let b = args[0].to_int()?;
    let m = args[1].to_int()?;
    let s = args[2].to_int()?;
    Ok(Value::Swizzle(Swizzle::new(b, m, s)?))
}

/// `make_composed_layout(Sw, OFFSET, L)` from three argument values.
fn make_composed(args: &[Value]) -> Result<ComposedLayout> {
    let sw = match &args[0] {
        Value::Swizzle(s) => *s,
        v => {
            return Err(Error::new(format!(
                "the outer function of a composed layout must be a swizzle, got {}",
                v.kind()
            )))
        }
    };
    let off = args[1].to_int()?;
    let l = args[2].to_layout()?.clone();
    Ok(ComposedLayout::new(sw, off, l))
}

fn make_layout(args: &[Value], kw: &[(&str, Value, usize)]) -> Result<Value> {
    let mut stride_kw = None;
    for (k, v, col) in kw {
        match *k {
            "stride" if stride_kw.is_none() => stride_kw = Some(v),
            _ => {
                return Err(Error::at(
                    *col,
                    format!("make_layout: unexpected keyword argument '{k}'"),
                ))
            }
        }
    }
    if let Some(stride) = stride_kw {
        arity("make_layout", args, 1, 1)?;
        let shape = args[0].to_int_tuple()?;
        return Ok(Layout::new(shape, stride.to_int_tuple()?)?.into());
    }
    if args.is_empty() {
        return Err(Error::new(
            "make_layout: expected at least 1 argument, got 0",
        ));
    }
    if args.iter().all(|a| matches!(a, Value::Layout(_))) {
        let ls: Vec<Layout> = args
            .iter()
            .map(|a| a.to_layout().cloned())
            .collect::<Result<_>>()?;
        return Ok(alg::make_layout(&ls).into());
    }
    arity("make_layout", args, 1, 2)?;
    let shape = args[0].to_int_tuple()?;
    match args.get(1) {
        None | Some(Value::Major(Major::Left)) => Ok(Layout::col_major(shape)?.into()),
        Some(Value::Major(Major::Right)) => Ok(Layout::row_major(shape)?.into()),
        Some(d) => Ok(Layout::new(shape, d.to_int_tuple()?)?.into()),
    }
}

/// C++ type syntax: `Int<8>`, `Shape<_8,_32>`, `Layout<Shape<..>,Stride<..>>`, `Sw<B,M,S>`.
fn template(name: &str, targs: &[Value]) -> Result<Value> {
    match name {
        "Int" | "C" => {
            arity(name, targs, 1, 1).map_err(ctx(name))?;
            Ok(Value::Int(targs[0].to_int()?))
        }
        "Shape" | "Stride" | "Step" | "Coord" => {
            for t in targs {
                t.to_int_tuple().map_err(ctx(name))?;
            }
            Ok(Value::Tuple(targs.to_vec()))
        }
        "Tile" => {
            for t in targs {
                t.to_tiler().map_err(ctx(name))?;
            }
            Ok(Value::Tuple(targs.to_vec()))
        }
        "Layout" => {
            arity(name, targs, 1, 2).map_err(ctx(name))?;
            let shape = targs[0].to_int_tuple().map_err(ctx(name))?;
            match targs.get(1) {
                None | Some(Value::Major(Major::Left)) => Ok(Layout::col_major(shape)?.into()),
                Some(Value::Major(Major::Right)) => Ok(Layout::row_major(shape)?.into()),
                Some(d) => Ok(Layout::new(shape, d.to_int_tuple().map_err(ctx(name))?)?.into()),
            }
        }
        "Swizzle" | "Sw" => {
            arity(name, targs, 2, 3).map_err(ctx(name))?;
            if let [b, m] = targs {
                // `Swizzle<B,M>`: SShift defaults to BBits.
                return swizzle(&[b.clone(), m.clone(), b.clone()]);
            }
            swizzle(targs)
        }
        "MMA_Atom" => {
            arity(name, targs, 1, 1).map_err(ctx(name))?;
            call_inner("atom", targs, &[]).map_err(ctx(name))
        }
        "Copy_Atom" => {
            arity(name, targs, 2, 2).map_err(ctx(name))?;
            call_inner("atom", targs, &[]).map_err(ctx(name))
        }
        "ComposedLayout" => {
            arity(name, targs, 3, 3).map_err(ctx(name))?;
            Ok(Value::Composed(make_composed(targs)?))
        }
        _ => Err(Error::new(format!("unknown type '{name}'"))),
    }
}
