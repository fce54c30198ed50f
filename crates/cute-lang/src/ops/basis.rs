//! Basis strides in the language: `E<i...>{}` and `ScaledBasis<...>` values, their sums
//! and scalings, layouts with basis strides ([`cute_core::basis`]) and what C++ does with
//! them: calls, slices, modes, composition, the divides and coalesce.

use crate::value::Value;
use cute_core::basis::{
    coordinate, make_basis_like as basis_like, ArithTuple, BasisLayout, BasisStride, BasisValue,
    Divide, ScaledBasis, StrideTree,
};
use cute_core::error::{Error, Result};
use cute_core::int_tuple::{IntTuple, Num};
use cute_core::tensor::Tensor;

/// The number a value scales by, static (`_4`, `Int<4>{}`) or dynamic (`4`).
fn num(v: &Value) -> Option<Num> {
    match v {
        Value::Int(n) => Some(Num::fixed(*n)),
        Value::Dyn(n) => Some(Num::dynamic(*n)),
        _ => None,
    }
}

/// A basis index: which mode of a coordinate, 0 to 63.
fn basis_index(v: &Value) -> Result<usize> {
    let i = v.to_int()?;
    usize::try_from(i)
        .ok()
        .filter(|i| *i < 64)
        .ok_or_else(|| cute_core::err!("basis index {i} is out of range (0 to 63)"))
}

fn basis_path(path: &[Value]) -> Result<Vec<usize>> {
    path.iter().map(basis_index).collect()
}

/// `E<i, j...>{}`: the unit basis vector of coordinate `(i, j, ...)`.
pub(crate) fn unit(path: &[Value]) -> Result<Value> {
    Ok(Value::Basis(ScaledBasis::unit(basis_path(path)?)))
}

/// `ScaledBasis<T, i, j...>{}`: `T` (a static integer) times `E<i, j...>`.
pub(crate) fn scaled_basis(a: &[Value]) -> Result<Value> {
    let Some((k, path)) = a.split_first() else {
        return Err(Error::new(
            "ScaledBasis<T, N...> takes a value type and at least one index",
        ));
    };
    let e = ScaledBasis::unit(basis_path(path)?);
    let k = num(k).ok_or_else(|| {
        cute_core::err!(
            "ScaledBasis<T, N...>: T must be an integer, got {}",
            k.kind()
        )
    })?;
    Ok(Value::Basis(e.scaled(k)?))
}

/// `make_arithmetic_tuple(x...)`.
pub(crate) fn arithmetic_tuple(a: &[Value]) -> Result<Value> {
    let t = Value::Tuple(a.to_vec()).to_int_tuple()?;
    Ok(Value::ArithTuple(ArithTuple(t)))
}

/// `make_basis_like(shape)`: the unit basis vector of every leaf.
pub(crate) fn make_basis_like(shape: &Value) -> Result<Value> {
    Ok(tree_value(&basis_like(&shape.to_int_tuple()?)))
}

fn stride_value(s: &BasisStride) -> Value {
    match s {
        BasisStride::Int(n) if n.fixed => Value::Int(n.v),
        BasisStride::Int(n) => Value::Dyn(n.v),
        BasisStride::Basis(b) => Value::Basis(b.clone()),
    }
}

/// A stride tree as a value (a tuple of basis vectors and integers).
fn tree_value(t: &StrideTree) -> Value {
    match t {
        StrideTree::Leaf(s) => stride_value(s),
        StrideTree::Tuple(ms) => Value::Tuple(ms.iter().map(tree_value).collect()),
    }
}

fn basis_value(v: BasisValue) -> Value {
    match v {
        BasisValue::Int(n) => stride_value(&BasisStride::Int(n)),
        BasisValue::Basis(b) => Value::Basis(b),
        BasisValue::Tuple(t) => Value::ArithTuple(t),
    }
}

/// Whether a stride argument holds a basis vector anywhere.
pub(crate) fn has_basis(v: &Value) -> bool {
    match v {
        Value::Basis(_) => true,
        Value::Tuple(vs) => vs.iter().any(has_basis),
        _ => false,
    }
}

fn stride_tree(v: &Value) -> Result<StrideTree> {
    Ok(match v {
        Value::Basis(b) => StrideTree::Leaf(BasisStride::Basis(b.clone())),
        Value::Tuple(vs) => StrideTree::Tuple(vs.iter().map(stride_tree).collect::<Result<_>>()?),
        v => StrideTree::Leaf(BasisStride::Int(num(v).ok_or_else(|| {
            cute_core::err!(
                "expected a stride (an integer or E<i>{{}}), got {}",
                v.kind()
            )
        })?)),
    })
}

/// `make_layout(shape, stride)` of basis strides.
pub(crate) fn make_layout(shape: &Value, stride: &Value) -> Result<Value> {
    let l = BasisLayout::new(shape.to_int_tuple()?, stride_tree(stride)?)?;
    Ok(Value::BasisLayout(Box::new(l)))
}

/// `make_identity_layout(shape)`.
pub(crate) fn identity(shape: &Value) -> Result<Value> {
    Ok(Value::BasisLayout(Box::new(BasisLayout::identity(
        &shape.to_int_tuple()?,
    )?)))
}

/// `make_coord_tensor(layout)`.
pub(crate) fn coord_tensor(l: &Value) -> Result<Value> {
    let t = match l {
        Value::BasisLayout(b) => Tensor::coord_tensor_of_basis(b)?,
        Value::Layout(l) => Tensor::coord_tensor(l)?,
        v => {
            return Err(cute_core::err!(
                "make_coord_tensor: expected a layout (integer or basis strides), got {}",
                v.kind()
            ))
        }
    };
    Ok(Value::Tensor(Box::new(t)))
}

/// The strides of a basis layout as a value.
pub(crate) fn strides(l: &BasisLayout) -> Value {
    tree_value(&l.stride)
}

/// `L(c)`: a coordinate (with `_`: the layout of the kept modes).
pub(crate) fn call(l: &BasisLayout, c: &Value) -> Result<Value> {
    let coord = c.to_coord()?;
    if coord.has_underscore() {
        return Ok(Value::BasisLayout(Box::new(l.slice(&coord)?)));
    }
    Ok(basis_value(l.call(&c.to_int_tuple()?)?))
}

/// `composition(L, B)` of a basis layout and a layout or tiler.
pub(crate) fn composition(l: &BasisLayout, b: &Value) -> Result<Value> {
    Ok(Value::BasisLayout(Box::new(
        l.composition_tiler(&b.to_tiler()?)?,
    )))
}

/// The four divides of a basis layout by an ordinary tiler.
pub(crate) fn divide(l: &BasisLayout, kind: Divide, tiler: &Value) -> Result<Value> {
    Ok(Value::BasisLayout(Box::new(
        l.divide(kind, &tiler.to_tiler()?)?,
    )))
}

/// `coalesce(L)` of a basis layout.
pub(crate) fn coalesce(l: &BasisLayout, profile: Option<&Value>) -> Result<Value> {
    if profile.is_some() {
        return Err(Error::new(
            "coalesce of a layout with basis strides by a profile is not modelled",
        ));
    }
    Ok(Value::BasisLayout(Box::new(l.coalesce()?)))
}

fn terms(v: &Value) -> Option<Vec<ScaledBasis>> {
    Some(match v {
        Value::Basis(b) => vec![b.clone()],
        Value::ArithTuple(t) => {
            let mut out = Vec::new();
            collect(&t.0, &mut Vec::new(), &mut out);
            out
        }
        _ => return None,
    })
}

/// The basis terms of a coordinate (`(3,5)` is `3@0 + 5@1`).
fn collect(t: &IntTuple, path: &mut Vec<usize>, out: &mut Vec<ScaledBasis>) {
    match t {
        IntTuple::Tuple(ms) => {
            for (i, m) in ms.iter().enumerate() {
                path.push(i);
                collect(m, path, out);
                path.pop();
            }
        }
        IntTuple::Int(v) | IntTuple::Dyn(v) => out.push(ScaledBasis {
            value: Num::dynamic(*v),
            path: path.clone(),
        }),
    }
}

/// `a + b` of basis vectors and coordinates (always a coordinate, as C++'s `operator+`
/// makes it); `None` where neither is one.
pub(crate) fn add(a: &Value, b: &Value) -> Option<Result<Value>> {
    let (ta, tb) = (terms(a), terms(b));
    if ta.is_none() && tb.is_none() {
        return None;
    }
    let (Some(ta), Some(tb)) = (ta, tb) else {
        return Some(Err(cute_core::err!(
            "{} + {}: a basis vector adds to basis vectors and coordinates only",
            a.kind(),
            b.kind()
        )));
    };
    Some(coordinate(ta.iter().chain(&tb)).map(Value::ArithTuple))
}

/// `k@i`, C++'s print of `E<i>{} * k`; `(k@i)@j` is `E<j, i>{} * k`, printed `k@i@j`.
pub(crate) fn at(a: &Value, b: &Value) -> Result<Value> {
    let i = basis_index(b).map_err(|e| cute_core::err!("k@i: {}", e.msg))?;
    match a {
        Value::Basis(e) if e.path.len() >= 8 => Err(cute_core::err!(
            "{e}@{i}: a basis vector nests at most 8 modes deep here"
        )),
        Value::Basis(e) => {
            let mut path = vec![i];
            path.extend(&e.path);
            Ok(Value::Basis(ScaledBasis {
                value: e.value,
                path,
            }))
        }
        v => {
            let k = num(v)
                .ok_or_else(|| cute_core::err!("k@i: k must be an integer, got {}", v.kind()))?;
            Ok(Value::Basis(ScaledBasis::unit(vec![i]).scaled(k)?))
        }
    }
}

/// `a * b` of a basis vector (or coordinate) and an integer; `None` where neither is one.
pub(crate) fn mul(a: &Value, b: &Value) -> Option<Result<Value>> {
    let (v, k) = match (a, b) {
        (Value::Basis(_) | Value::ArithTuple(_), k) => (a, k),
        (k, Value::Basis(_) | Value::ArithTuple(_)) => (b, k),
        _ => return None,
    };
    let Some(k) = num(k) else {
        return Some(Err(cute_core::err!(
            "a basis vector scales by an integer, not by {}",
            k.kind()
        )));
    };
    Some(match v {
        Value::Basis(e) => e.scaled(k).map(Value::Basis),
        Value::ArithTuple(t) => scale_tuple(&t.0, k).map(|t| Value::ArithTuple(ArithTuple(t))),
        _ => unreachable!("matched above"),
    })
}

fn scale_tuple(t: &IntTuple, k: Num) -> Result<IntTuple> {
    Ok(match t {
        IntTuple::Tuple(ms) => IntTuple::Tuple(
            ms.iter()
                .map(|m| scale_tuple(m, k))
                .collect::<Result<_>>()?,
        ),
        IntTuple::Int(v) | IntTuple::Dyn(v) => {
            IntTuple::Int(cute_core::error::arith::mul(*v, k.v)?)
        }
    })
}
