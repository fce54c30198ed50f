//! The typed helpers the op table's rows call: each takes the values of one CuTe function's
//! arguments and calls the algebra (composition, coalesce, divides, tile_to_shape, ...).
//! Rows that share work share a helper here, never another row by name.

use crate::convert::bits_of;
use crate::ops::args::*;
use crate::value::{Major, Value};
use cute_core::basis::BasisLayout;
use cute_core::error::{Error, Result};
use cute_core::int_tuple::{self, IntTuple};
use cute_core::layout::{self as alg, Layout, Tiler};
use cute_core::swizzle::{self, AnyLayout, ComposedLayout, Swizzle};

/// `composition(a, b)`, for every pair of kinds C++ composes.
pub(crate) fn composition(a: &Value, b: &Value) -> Result<Value> {
    match (a, b) {
        (Value::BasisLayout(l), b) => crate::ops::basis::composition(l, b),
        // C++'s composition of a tensor: its layout composed, its iterator kept (of a
        // composed layout, the inner layout, as C++ composes it).
        (Value::Tensor(_) | Value::Partition(_), b) => {
            let tiler = b.to_tiler()?;
            let t = crate::ops::tensors::tensor(a)?;
            Ok(Value::Tensor(Box::new(
                t.map_layout(|l| alg::composition_tiler(l, &tiler))?,
            )))
        }
        (Value::Swizzle(sw), Value::Layout(l)) => {
            Ok(swizzle::composition(*sw, 0, l.clone()).into())
        }
        (Value::Composed(c), b) => Ok(c.compose(&b.to_tiler()?)?.into()),
        (
            Value::Layout(l),
            b @ (Value::Layout(_) | Value::Int(_) | Value::Dyn(_) | Value::Tuple(_) | Value::Under),
        ) => Ok(Value::Layout(alg::composition_tiler(l, &b.to_tiler()?)?)),
        // C++ folds the swizzle through: L o (Sw o 0 o B) = Sw' o 0 o (L o B), Sw' acting on
        // L's image of the swizzle's bits.
        (Value::Layout(l), Value::Composed(c)) => compose_layout_swizzled(l, c),
        // C++ `composition(Layout, Swizzle)`: the swizzle moved onto the layout's image of
        // its bits, `make_swizzle<L(yyy), L(zzz)>() o L` (`swizzle_layout.hpp`).
        (Value::Layout(l), Value::Swizzle(sw)) => {
            let y = l.call_index(sw.yyy_mask())?;
            let z = l.call_index(sw.zzz_mask())?;
            Ok(swizzle::composition(swizzle_of_masks(y, z)?, 0, l.clone()).into())
        }
        (a, b) => Err(cute_core::err!(
            "cannot compose {} with {}",
            a.kind(),
            b.kind()
        )),
    }
}

/// CuTe `composition(Layout, ComposedLayout<Swizzle,...>)` where `L` maps the swizzle's
/// bits to bits (`make_swizzle<L(yyy), L(zzz)>`, `layout_composed.hpp`).
pub(crate) fn compose_layout_swizzled(l: &Layout, c: &ComposedLayout) -> Result<Value> {
    if c.offset.value() != 0 {
        return Err(cute_core::err!(
            "composing a layout with {c} requires offset 0 (CuTe: \"Require offset == 0.\")"
        ));
    }
    let y = l.call_index(c.swizzle.yyy_mask())?;
    let z = l.call_index(c.swizzle.zzz_mask())?;
    let sw = swizzle_of_masks(y, z)?;
    let inner = alg::composition(l, &c.layout)?;
    Ok(swizzle::composition(sw, 0, inner).into())
}

/// CuTe `make_swizzle<Y, Z>()`: the swizzle with contiguous masks `y` (source) and `z`.
pub(crate) fn swizzle_of_masks(y: i64, z: i64) -> Result<Swizzle> {
    let bits = |m: i64| i64::from(m.count_ones());
    if y == 0 && z == 0 {
        return Swizzle::new(0, 0, 0);
    }
    let not_a_swizzle = || {
        cute_core::err!(
            "the layout does not map the swizzle's bits to a swizzle (masks {y:#b} and {z:#b})"
        )
    };
    if y <= 0 || z <= 0 || bits(y) != bits(z) {
        return Err(not_a_swizzle());
    }
    let (ty, tz) = (i64::from(y.trailing_zeros()), i64::from(z.trailing_zeros()));
    let sw = Swizzle::new(bits(y), ty.min(tz), ty - tz).map_err(|_| not_a_swizzle())?;
    if sw.yyy_mask() | sw.zzz_mask() != y | z {
        return Err(not_a_swizzle());
    }
    Ok(sw)
}

/// CuTe `coalesce(layout[, profile])` of a layout or composed layout.
pub(crate) fn coalesce(x: &Value, profile_arg: Option<&Value>) -> Result<Value> {
    if let Value::BasisLayout(l) = x {
        return crate::ops::basis::coalesce(l, profile_arg);
    }
    match profile_arg {
        None => on_layout(x, |l| alg::coalesce(l, None)),
        Some(p) => {
            let p = profile(p)?;
            on_layout(x, |l| alg::coalesce(l, Some(&p)))
        }
    }
}

/// CuTe `filter(layout[, profile])`.
pub(crate) fn filter(x: &Value, profile_arg: Option<&Value>) -> Result<Value> {
    match profile_arg {
        None => on_layout(x, alg::filter),
        Some(p) => {
            let p = profile(p)?;
            on_layout(x, |l| alg::filter_profile(l, &p))
        }
    }
}

/// CuTe `tile_to_shape(atom, shape[, order])`.
pub(crate) fn tile_to_shape(atom: &Value, shape: &Value, order: Option<&Value>) -> Result<Value> {
    let trg = shape.to_int_tuple()?;
    let order = mode_order(order)?;
    on_layout(atom, |l| alg::tile_to_shape(l, &trg, &order))
}

/// CuTe `slice(crd, x)`: every mode fixed gives the empty layout `():()`, as C++ slices.
pub(crate) fn slice(crd: &Value, x: &Value) -> Result<Value> {
    let c = crd.to_coord()?;
    match x {
        Value::Layout(l) => Ok(l.slice(&c)?.into()),
        Value::Composed(cl) => Ok(cl.slice_dynamic(&c, &crd.dynamic_leaves())?.into()),
        v => Ok(int_tuple::slice(&c, &v.to_int_tuple()?)?.into()),
    }
}

/// CuTe `recast_layout<OLD, NEW>(layout)` (widths as bits or type names).
pub(crate) fn recast_layout(old: &Value, new: &Value, layout: &Value) -> Result<Value> {
    let (old, new) = (bits_of(old)?, bits_of(new)?);
    match layout {
        // C++'s recast_layout of a swizzle names an undeclared `layout` where both widths
        // change (a ratio like 3/4): it compiles only for an up- or a downcast.
        Value::Swizzle(s) => match alg::bit_ratio(old, new)? {
            (n, d) if n != 1 && d != 1 => Err(cute_core::err!(
                "recast_layout of a swizzle from {old}-bit to {new}-bit elements: C++ compiles only a ratio of 1/n or n/1"
            )),
            _ => Ok(Value::Swizzle(s.recast(old, new)?)),
        },
        Value::Composed(_) => Ok(layout.to_any_layout()?.recast(old, new)?.into()),
        _ => Ok(alg::recast_layout(old, new, plain(layout)?)?.into()),
    }
}

pub(crate) fn divide_or_product(
    a: &[Value],
    f: fn(&Layout, &Tiler) -> Result<Layout>,
) -> Result<Value> {
    let tiler = a[1].to_tiler()?;
    on_layout(&a[0], |l| f(l, &tiler))
}

/// An inverse of a layout, or of a swizzled layout: `inv(Sw o 0 o L) = Sw' o 0 o inv(L)`,
/// `Sw'` the swizzle on `inv(L)`'s image of the swizzle's bits (C++ moves the swizzle
/// through the inverted layout the same way).
pub(crate) fn inverse(v: &Value, f: fn(&Layout) -> Result<Layout>) -> Result<Value> {
    match v {
        Value::Under => Ok(Value::Under),
        Value::Composed(c) => {
            if c.offset != swizzle::Offset::Int(0) {
                return Err(cute_core::err!(
                    "the inverse of {c} needs offset 0 (a pointer flag or a shift has no inverse here)"
                ));
            }
            let inv = f(&c.layout)?;
            let y = inv.call_index(c.swizzle.yyy_mask())?;
            let z = inv.call_index(c.swizzle.zzz_mask())?;
            let sw = swizzle_of_masks(y, z)?;
            Ok(swizzle::composition(sw, 0, inv).into())
        }
        v => Ok(f(plain(v)?)?.into()),
    }
}

/// `append(x[, y])` / `append<N>(x[, y])` and `prepend(...)`.
pub(crate) fn extend(a: &[Value], kw: &Kwargs, back: bool) -> Result<Value> {
    let ranked = kw.iter().any(|(k, _, _)| *k == TARGS_GIVEN);
    let (n, a) = if ranked {
        (Some(index(&a[0])?), &a[1..])
    } else {
        (None, a)
    };
    if a.is_empty() || a.len() > 2 {
        return Err(Error::new("expected (x[, y]) or <rank>(x[, y])"));
    }
    let y = a.get(1);
    let basis = |v: &Value| match v {
        Value::BasisLayout(l) => Some((**l).clone()),
        Value::Layout(l) => Some(BasisLayout::of_layout(l)),
        _ => None,
    };
    // A layout of basis strides and a layout (either way round): a layout of basis strides.
    if matches!(&a[0], Value::BasisLayout(_)) || matches!(y, Some(Value::BasisLayout(_))) {
        let x = basis(&a[0])
            .ok_or_else(|| cute_core::err!("expected a layout, got {}", a[0].kind()))?;
        let y = y
            .map(|y| basis(y).ok_or_else(|| cute_core::err!("expected a layout, got {}", y.kind())))
            .transpose()?;
        let n = n.unwrap_or(x.rank() + 1);
        return Ok(Value::BasisLayout(Box::new(x.extend(
            n,
            y.as_ref(),
            back,
        )?)));
    }
    match &a[0] {
        // C++ appends to a composed layout as to any non-tuple: a tuple of it and copies of y.
        c @ Value::Composed(_) => {
            let n = n.unwrap_or(2);
            let fill = match y {
                Some(y) => y.clone(),
                None => Value::Layout(Layout::new(IntTuple::Int(1), IntTuple::Int(0))?),
            };
            let mut items = vec![fill; n.saturating_sub(1)];
            if back {
                items.insert(0, c.clone());
            } else {
                items.push(c.clone());
            }
            Ok(Value::Tuple(items))
        }
        v @ Value::Layout(_) => {
            let y = y.map(as_layout).transpose()?;
            on_layout(v, |l| {
                let n = n.unwrap_or(l.rank() + 1);
                if back {
                    alg::append(l, n, y.as_ref())
                } else {
                    alg::prepend(l, n, y.as_ref())
                }
            })
        }
        v => {
            let t = v.to_int_tuple()?;
            let y = match y {
                Some(y) => y.to_int_tuple()?,
                None => IntTuple::Int(1),
            };
            let n = n.unwrap_or(t.rank() + 1);
            Ok(if back {
                int_tuple::append(&t, n, &y)?
            } else {
                int_tuple::prepend(&t, n, &y)?
            }
            .into())
        }
    }
}

pub(crate) fn cast(a: &[Value], up: bool) -> Result<Value> {
    let n = a[0]
        .to_int()
        .map_err(|e| cute_core::err!("the factor N: {}", e.msg))?;
    Ok(a[1].to_any_layout()?.cast(n, up)?.into())
}

pub(crate) fn crd2idx(a: &[Value], _: &Kwargs) -> Result<Value> {
    let c = a[0].to_int_tuple()?;
    if let Value::Layout(l) = &a[1] {
        if a.len() != 2 {
            return Err(Error::new("with a layout: crd2idx(crd, layout)"));
        }
        return int(l.call_coord(&c)?);
    }
    let s = a[1].to_int_tuple()?;
    // Basis strides: the coordinate they sum to (crd2idx((1,2), (4,8), (E<0>{}, E<1>{}))).
    if let Some(d @ (Value::Basis(_) | Value::Tuple(_))) = a.get(2) {
        if d.to_int_tuple().is_err() {
            let l = crate::ops::basis::make_layout(&a[1], d)?;
            if let Value::BasisLayout(l) = &l {
                return crate::ops::basis::call(l, &a[0]);
            }
        }
    }
    match a.get(2) {
        None => int(int_tuple::crd2idx_shape(&c, &s)?),
        Some(d) => {
            let d = d.to_int_tuple()?;
            if !s.congruent(&d) && !d.is_int() {
                return Err(cute_core::err!(
                    "shape {s} and stride {d} are not congruent"
                ));
            }
            int(int_tuple::crd2idx(&c, &s, &d)?)
        }
    }
}

/// `make_swizzle(B, M, S)`.
pub(crate) fn make_swizzle(a: &[Value]) -> Result<Value> {
    Ok(Value::Swizzle(Swizzle::new(
        a[0].to_int()?,
        a[1].to_int()?,
        a[2].to_int()?,
    )?))
}

/// CuTeDSL `make_swizzle(b, m, s)`: the identity (`b == 0`) is always `Sw<0,4,3>`.
pub(crate) fn dsl_make_swizzle(a: &[Value]) -> Result<Value> {
    if a[0].to_int()? == 0 {
        return Ok(Value::Swizzle(Swizzle::new(0, 4, 3)?));
    }
    make_swizzle(a)
}

/// `make_composed_layout(Sw, OFFSET, L)` from three argument values.
pub(crate) fn make_composed(a: &[Value]) -> Result<ComposedLayout> {
    let sw = match &a[0] {
        Value::Swizzle(s) => *s,
        v => {
            return Err(cute_core::err!(
                "the outer function of a composed layout must be a swizzle here, got {}",
                v.kind()
            ))
        }
    };
    let offset = match &a[1] {
        Value::Offset(o) => *o,
        v => swizzle::Offset::Int(v.to_int()?),
    };
    Ok(ComposedLayout {
        swizzle: sw,
        offset,
        layout: a[2].to_layout()?.clone(),
    })
}

pub(crate) fn make_layout(a: &[Value], _: &Kwargs) -> Result<Value> {
    if a.iter().all(|v| matches!(v, Value::Layout(_))) {
        let ls: Vec<Layout> = a
            .iter()
            .map(|v| v.to_layout().cloned())
            .collect::<Result<_>>()?;
        return Ok(alg::make_layout(&ls).into());
    }
    if a.len() > 2 {
        return Err(cute_core::err!(
            "expected (shape[, stride]) or layouts, got {} arguments",
            a.len()
        ));
    }
    let shape = a[0].to_int_tuple()?;
    match a.get(1) {
        None | Some(Value::Major(Major::Left)) => Ok(Layout::col_major(shape)?.into()),
        Some(Value::Major(Major::Right)) => Ok(Layout::row_major(shape)?.into()),
        Some(d) if crate::ops::basis::has_basis(d) => crate::ops::basis::make_layout(&a[0], d),
        Some(d) => Ok(Layout::new(shape, d.to_int_tuple()?)?.into()),
    }
}

pub(crate) fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(i64::MAX)
}

/// CuTe `evenly_divides(shape, tiler)`: mode by mode for a tuple tiler (a tiler of more modes
/// than the shape does not divide it); otherwise `size(b) * size(ceil_div(a, b)) == size(a)`.
pub(crate) fn evenly_divides(a: &IntTuple, b: &IntTuple) -> Result<bool> {
    match b {
        IntTuple::Tuple(bs) => {
            if bs.len() > a.rank() {
                return Ok(false);
            }
            for (i, bi) in bs.iter().enumerate() {
                if !evenly_divides(a.get(i)?, bi)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        IntTuple::Int(_) | IntTuple::Dyn(_) => {
            let q = int_tuple::ceil_div(a, b)?.size()?;
            Ok(cute_core::error::arith::mul(b.size()?, q)? == a.size()?)
        }
    }
}

/// CuTe's `max_common_vector` (`vector`) / `max_common_layout` over layouts and swizzled
/// composed layouts (`swizzle_layout.hpp`): a swizzle keeps only its `2^M` base contiguous.
pub(crate) fn max_common(a: &[Value], vector: bool) -> Result<Value> {
    // Of two tensors, their layouts' when both hold real elements of one type (C++ asks
    // for the same value type; here, the same width), else C++'s `_0` / `_1:_0`.
    if let (Some(s), Some(d)) = (
        crate::ops::tensors::tensor(&a[0]).ok(),
        crate::ops::tensors::tensor(&a[1]).ok(),
    ) {
        use cute_core::tensor::Iter;
        let counting = |t: &cute_core::tensor::Tensor| matches!(t.iter, Iter::Counting { .. });
        if counting(s) || counting(d) || s.iter.bits() != d.iter.bits() {
            return if vector {
                int(0)
            } else {
                Ok(Layout::new(IntTuple::Int(1), IntTuple::Int(0))?.into())
            };
        }
        return max_common(&[s.any_layout().into(), d.any_layout().into()], vector);
    }
    let (x, y) = (a[0].to_any_layout()?, a[1].to_any_layout()?);
    let base = |l: &AnyLayout| l.swizzle().map(|(sw, _)| 1i64 << sw.m);
    let (bx, by) = (base(&x), base(&y));
    let same_swizzle = x.swizzle().map(|s| s.0) == y.swizzle().map(|s| s.0);
    let cap = match (bx, by) {
        (Some(_), Some(_)) if same_swizzle => None,
        (Some(p), Some(q)) => Some(p.min(q)),
        (p, q) => p.or(q),
    };
    if vector {
        let v = alg::max_common_vector(x.inner(), y.inner())?;
        return int(cap.map_or(v, |c| v.min(c)));
    }
    let common = alg::max_common_layout(x.inner(), y.inner())?;
    Ok(match cap {
        Some(c) if c < common.size()? => alg::composition_tiler(&common, &Tiler::Int(c))?,
        _ => common,
    }
    .into())
}
