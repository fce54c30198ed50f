//! Readers of the op table's arguments: indices, shapes, profiles, mode orders, the layout
//! of a layout or composed layout.

use crate::value::{Major, Value};
use cute_core::error::{Error, Result};
use cute_core::int_tuple::{self, IntTuple};
use cute_core::layout::{Layout, ModeOrder};

/// The keyword under which a Prepend op learns how many template arguments it was given.
pub(crate) const TARGS_GIVEN: &str = "<targs>";

/// Keyword arguments of a call: name, value, column.
pub type Kwargs<'a> = [(&'a str, Value, usize)];

pub(crate) fn int(v: i64) -> Result<Value> {
    Ok(Value::Int(v))
}

/// An integer of the kind C++ computes (`size` of a dynamic shape is dynamic).
pub(crate) fn num(n: int_tuple::Num) -> Result<Value> {
    Ok(n.leaf().into())
}

/// A layout operation on the domain of a layout or composed layout.
pub(crate) fn on_layout(v: &Value, f: impl FnOnce(&Layout) -> Result<Layout>) -> Result<Value> {
    match v {
        // No copy of the operand: the operation reads it.
        Value::Layout(l) => Ok(Value::Layout(f(l)?)),
        // C++'s ComposedLayout<A,O,B> of a layout A: the operation acts on B.
        Value::Composition(c) => Ok(Value::Composition(Box::new(c.map_domain(f)?))),
        v => Ok(v.to_any_layout()?.map_inner(f)?.into()),
    }
}

/// A non-negative index argument.
pub(crate) fn index(v: &Value) -> Result<usize> {
    let i = v.to_int()?;
    usize::try_from(i).map_err(|_| cute_core::err!("index {i} is negative"))
}

pub(crate) fn ints(vs: &[Value]) -> Result<Vec<i64>> {
    vs.iter().map(Value::to_int).collect()
}

/// `x` followed by mode indices: the mode they select (`size<0>(L)` is `size(get<0>(L))`).
pub(crate) fn sub(args: &[Value]) -> Result<std::borrow::Cow<'_, Value>> {
    // Without mode indices, the value itself (no copy); a tensor's queries are its
    // layout's.
    let tensor = match &args[0] {
        Value::Tensor(t) => Some(&**t),
        Value::Partition(p) => Some(&p.tensor),
        _ => None,
    };
    let mut cur = match tensor {
        Some(t) if matches!(t.iter, cute_core::tensor::Iter::Counting { .. }) => {
            return Err(Error::new(
                "an identity tensor's strides are basis vectors (1@0, ...), not integers: print the tensor itself",
            ))
        }
        Some(t) => std::borrow::Cow::Owned(t.any_layout().into()),
        None => match &args[0] {
            Value::DescTensor(t) => std::borrow::Cow::Owned(Value::Layout(t.layout.clone())),
            v => std::borrow::Cow::Borrowed(v),
        },
    };
    for a in &args[1..] {
        cur = std::borrow::Cow::Owned(get(&cur, index(a)?)?);
    }
    Ok(cur)
}

/// [`sub`] for what reads only shapes (size, rank, depth, shape): an identity tensor's
/// shape is its layout's, whatever its strides.
pub(crate) fn sub_shape(args: &[Value]) -> Result<std::borrow::Cow<'_, Value>> {
    let shape = match &args[0] {
        Value::Tensor(t) => t.layout.shape(),
        Value::Partition(p) => p.tensor.layout.shape(),
        Value::DescTensor(t) => t.layout.shape(),
        Value::BasisLayout(l) => &l.shape,
        _ => return sub(args),
    };
    let mut all = args.to_vec();
    all[0] = Value::Layout(Layout::col_major(shape.clone())?);
    Ok(std::borrow::Cow::Owned(sub(&all)?.into_owned()))
}

/// The layout of a layout or composed layout (its inner layout), borrowed.
pub(crate) fn inner_layout(v: &Value) -> Result<&Layout> {
    match v {
        Value::Layout(l) => Ok(l),
        Value::Composed(c) => Ok(&c.layout),
        Value::Composition(c) => c.domain(),
        v => Err(cute_core::err!(
            "expected a layout or composed layout, got {}",
            v.kind()
        )),
    }
}

pub(crate) fn shape_of(v: &Value) -> Result<IntTuple> {
    match v {
        Value::Layout(l) => Ok(l.shape().clone()),
        Value::Composed(c) => Ok(c.layout.shape().clone()),
        Value::Composition(c) => Ok(c.domain()?.shape().clone()),
        Value::BasisLayout(l) => Ok(l.shape.clone()),
        v => v.to_int_tuple(),
    }
}

/// A profile or coordinate argument with `_` read as 1 (a whole mode), as C++'s non-tuples.
pub(crate) fn profile(v: &Value) -> Result<IntTuple> {
    match v {
        Value::Under => Ok(IntTuple::Int(1)),
        Value::Tuple(vs) => Ok(IntTuple::Tuple(
            vs.iter().map(profile).collect::<Result<_>>()?,
        )),
        v => v.to_int_tuple(),
    }
}

/// A layout argument; an int-tuple is taken as `make_layout(shape)`.
pub(crate) fn as_layout(v: &Value) -> Result<Layout> {
    match v {
        Value::Layout(l) => Ok(l.clone()),
        v => Layout::col_major(v.to_int_tuple()?),
    }
}

pub(crate) fn mode_order(v: Option<&Value>) -> Result<ModeOrder> {
    Ok(match v {
        None | Some(Value::Major(Major::Left)) => ModeOrder::ColMajor,
        Some(Value::Major(Major::Right)) => ModeOrder::RowMajor,
        Some(v) => ModeOrder::Step(v.to_int_tuple().map_err(|_| {
            cute_core::err!(
                "expected a mode order (a Step, LayoutLeft or LayoutRight), got {}",
                v.kind()
            )
        })?),
    })
}

pub(crate) fn get(v: &Value, i: usize) -> Result<Value> {
    match v {
        Value::Layout(l) => Ok(l.mode(i)?.into()),
        Value::Composed(c) => Ok(c.map_inner(|l| l.mode(i))?.into()),
        Value::Composition(_) => on_layout(v, |l| l.mode(i)),
        Value::BasisLayout(l) => Ok(Value::BasisLayout(Box::new(l.mode(i)?))),
        Value::Tuple(vs) => vs.get(i).cloned().ok_or_else(|| {
            cute_core::err!("index {i} out of range for a tuple of rank {}", vs.len())
        }),
        Value::Int(_) | Value::Dyn(_) if i == 0 => Ok(v.clone()),
        v => Err(cute_core::err!("cannot index {} with {i}", v.kind())),
    }
}

/// A plain layout argument (no swizzle).
pub(crate) fn plain(v: &Value) -> Result<&Layout> {
    v.to_layout()
}

/// Whether a tuple holds a `_` at any depth: a coordinate, not an int-tuple.
pub(crate) fn v_has_under(vs: &[Value]) -> bool {
    vs.iter().any(|v| match v {
        Value::Under => true,
        Value::Tuple(ws) => v_has_under(ws),
        _ => false,
    })
}

/// Mode `i` of a tuple, checked.
pub(crate) fn mode_of(vs: &[Value], i: i64) -> Result<Value> {
    usize::try_from(i)
        .ok()
        .and_then(|i| vs.get(i))
        .cloned()
        .ok_or_else(|| cute_core::err!("mode {i} is out of range for a tuple of rank {}", vs.len()))
}

/// CuTeDSL's `cutlass.Int32(x)` and its kin: `x` (an integer or a boolean) as a run-time
/// integer of `bits` bits. A value the type cannot hold is refused (the DSL truncates it
/// with a warning).
pub(crate) fn run_time_int(v: &Value, bits: u32, signed: bool) -> Result<Value> {
    let x = match v {
        Value::Bool(b) => i64::from(*b),
        v => v.to_int()?,
    };
    let (lo, hi) = match (signed, bits) {
        (true, 64) => (i64::MIN, i64::MAX),
        (true, b) => (-(1i64 << (b - 1)), (1i64 << (b - 1)) - 1),
        // An unsigned 64-bit value above i64::MAX is not representable here.
        (false, 64) => (0, i64::MAX),
        (false, b) => (0, (1i64 << b) - 1),
    };
    if !(lo..=hi).contains(&x) {
        let name = if signed { "Int" } else { "Uint" };
        return Err(cute_core::err!(
            "{x} does not fit {name}{bits} (range [{lo}, {hi}]): use a wider type, or mask the value"
        ));
    }
    Ok(Value::Dyn(x))
}
