//! The tensor rows of the op table: pointers (`make_gmem_ptr<T>(p)`, `nullptr`),
//! `make_tensor`, slicing, `local_tile`, `local_partition`, recasts and register tensors.
//! Conversions only: the tensor algebra is `cute_core::tensor`.

use crate::convert::bits_of;
use crate::ops::args::as_layout;
use crate::value::Value;
use crate::words::Word;
use cute_core::error::{Error, Result};
use cute_core::layout::Layout;
use cute_core::swizzle::AnyLayout;
use cute_core::tensor::{Iter, Ptr, Space, Tensor};

pub(crate) fn tensor(v: &Value) -> Result<&Tensor> {
    match v {
        Value::Tensor(t) => Ok(t),
        Value::Partition(p) => Ok(&p.tensor),
        v => Err(cute_core::err!("expected a tensor, got {}", v.kind())),
    }
}

/// The width of an element type that a pointer, a register tensor or a recast holds:
/// whole bytes, or the 1-, 4- and 6-bit types C++ iterates with a `subbyte_iterator`
/// (`gmem_subptr[4b](0x1001.4)`, `subptr[4b](stack.0)`).
pub(crate) fn elem_bits(ty: &Value) -> Result<u32> {
    iterable_bits(bits_of(ty)?)
}

fn iterable_bits(bits: i64) -> Result<u32> {
    match u32::try_from(bits) {
        Ok(b) if b % 8 == 0 || matches!(b, 1 | 4 | 6) => Ok(b),
        _ => Err(cute_core::err!(
            "{bits}-bit elements: C++ has no iterator over them (whole bytes, or 1-, 4- and 6-bit types)"
        )),
    }
}

/// A C++ raw pointer declaration, `T const* p = init;`: `init` is `nullptr` (or `0`),
/// another raw `T*`, or absent (a kernel's pointer parameter, taken as null here).
pub(crate) fn raw_ptr(ty: &Value, init: Option<&Value>) -> Result<Value> {
    if !matches!(ty, Value::Word(_)) {
        return Err(cute_core::err!(
            "a pointer's pointee must be an element type (half_t, float, ...), got {}",
            ty.kind()
        ));
    }
    let bits = elem_bits(ty).map_err(|e| {
        cute_core::err!(
            "a pointer's pointee must be an element type (half_t, float, ...): {}",
            e.msg
        )
    })?;
    let addr = match init {
        None | Some(Value::Word(Word::Nullptr)) | Some(Value::Int(0) | Value::Dyn(0)) => 0,
        Some(Value::Ptr(p)) if p.space == Space::Generic && p.bits == bits => p.addr,
        Some(Value::Ptr(p)) => {
            return Err(cute_core::err!(
                "C++ does not convert {p} to a raw {bits}-bit pointer: initialize it from nullptr or a raw pointer of its type"
            ))
        }
        Some(v) => {
            return Err(cute_core::err!(
                "C++ does not convert {} to a pointer: initialize it from nullptr (for an address, make_gmem_ptr<T>(address))",
                v.kind()
            ))
        }
    };
    Ok(Value::Ptr(Ptr::new(Space::Generic, bits, addr)))
}

/// `make_gmem_ptr(p)` and its kin of one argument: the raw pointer `p` tagged with the
/// address space (its element type is the pointer's); a pointer already in that space is
/// returned as it is, as C++ does.
fn tag_ptr(space: Space, p: &Value) -> Result<Value> {
    let name = space.name();
    match p {
        Value::Ptr(p) if p.space == Space::Generic => Ok(Value::Ptr(Ptr { space, ..*p })),
        Value::Ptr(p) if p.space == space => Ok(Value::Ptr(*p)),
        Value::Ptr(p) => Err(cute_core::err!(
            "make_{name}({p}): C++ wraps one tagged pointer in another; pass a raw pointer (T const* p = ...;)"
        )),
        Value::Word(Word::Nullptr) => Err(cute_core::err!(
            "make_{name}(nullptr) has no element type: write make_{name}<T>(nullptr)"
        )),
        v => Err(cute_core::err!(
            "make_{name} of one argument takes a raw pointer (T const* p = nullptr;), got {}; an address needs the type: make_{name}<T>(address)",
            v.kind()
        )),
    }
}

/// C++'s `make_swizzle_ptr(p, sw)`: the pointer with the swizzle acting on its byte
/// addresses (`Sw<0,M,S>` leaves it plain); of `make_smem_ptr(p, Swizzle{})` and of a
/// swizzled pointer's print, `Sw<3,4,3>_smem_ptr[16b](0x1000)`.
pub(crate) fn swizzle_ptr(p: Ptr, sw: &Value) -> Result<Value> {
    let Value::Swizzle(sw) = sw else {
        return Err(cute_core::err!(
            "a pointer is swizzled by a swizzle (Sw<B,M,S>), got {}",
            sw.kind()
        ));
    };
    if let Some(old) = p.swizzle {
        return Err(cute_core::err!(
            "the pointer already swizzles its addresses ({old}): C++ would nest two swizzle pointers, which is not modelled"
        ));
    }
    Ok(Value::Ptr(Ptr {
        swizzle: (sw.b != 0).then_some(*sw),
        ..p
    }))
}

/// `make_gmem_ptr<T>(p)` and its kin: `p` is `nullptr` or an integer address;
/// `make_gmem_ptr(p)` of a raw pointer.
pub(crate) fn make_ptr(space: Space, a: &[Value]) -> Result<Value> {
    if let [p] = a {
        return tag_ptr(space, p);
    }
    // C++'s make_smem_ptr(ptr, Swizzle{}): make_swizzle_ptr(make_smem_ptr(ptr), sw).
    if let (Space::Smem, [p, sw @ Value::Swizzle(_)]) = (space, a) {
        return match tag_ptr(space, p)? {
            Value::Ptr(t) => swizzle_ptr(t, sw),
            v => Err(cute_core::err!("expected a pointer, got {}", v.kind())),
        };
    }
    let [ty, addr] = a else {
        return Err(cute_core::err!(
            "{}: give the element type and the address, e.g. make_{}<half_t>(nullptr)",
            space.name(),
            space.name()
        ));
    };
    let bits = elem_bits(ty)?;
    let addr = match addr {
        Value::Word(Word::Nullptr) if space == Space::Rmem => {
            return Err(Error::new(
                "C++ refuses make_rmem_ptr<T>(nullptr) (the call is ambiguous): give an address",
            ))
        }
        Value::Word(Word::Nullptr) => 0,
        Value::Int(v) | Value::Dyn(v) => u64::try_from(*v)
            .map_err(|_| cute_core::err!("a pointer's address must not be negative, got {v}"))?,
        Value::Ptr(p) => {
            // make_smem_ptr(other_ptr): C++ re-tags the address.
            p.addr
        }
        v => {
            return Err(cute_core::err!(
                "expected an address (nullptr or an integer), got {}",
                v.kind()
            ))
        }
    };
    Ok(Value::Ptr(Ptr::new(space, bits, addr)))
}

/// `make_tensor(ptr, layout)`, `make_tensor(ptr, shape[, stride | LayoutLeft/Right])`,
/// `make_tensor(ptr, n0, n1, ...)`; `make_tensor<T>(shape | layout)` owns its elements.
pub(crate) fn make_tensor(a: &[Value]) -> Result<Value> {
    match &a[0] {
        Value::Ptr(p) => {
            let layout = layout_args(&a[1..])?;
            Ok(Value::Tensor(Box::new(Tensor::over(*p, &layout)?)))
        }
        // `make_tensor(t.data(), layout)`: a view of a register array (C++ prints its
        // address as it prints the owning tensor's).
        Value::Iter(it) if matches!(**it, Iter::Owned { .. }) => Ok(Value::Tensor(Box::new(
            Tensor::with_any_layout((**it).clone(), layout_args(&a[1..])?)?,
        ))),
        Value::Iter(it) => Err(cute_core::err!(
            "{it} is a counting iterator: its tensors come from make_identity_tensor (their strides are basis elements, 1@0)"
        )),
        Value::Word(_) => {
            // A swizzle of element offsets stays in the layout, as C++ keeps it.
            owning(elem_bits(&a[0])?, layout_args(&a[1..])?)
        }
        v => Err(cute_core::err!(
            "make_tensor: expected a pointer (make_gmem_ptr<T>(p), make_smem_ptr<T>(p)) or an element type (make_tensor<T>(shape)), got {}",
            v.kind()
        )),
    }
}

/// A layout given as C++ gives it to `make_tensor`/`make_layout`.
fn layout_args(a: &[Value]) -> Result<AnyLayout> {
    match a {
        [] => Err(Error::new("make_tensor: give a layout or a shape")),
        [one] => match one {
            Value::Layout(_) | Value::Composed(_) => one.to_any_layout(),
            v => Ok(AnyLayout::Layout(Layout::col_major(v.to_int_tuple()?)?)),
        },
        [shape, Value::Major(m)] => Ok(AnyLayout::Layout(match m {
            crate::value::Major::Left => Layout::col_major(shape.to_int_tuple()?)?,
            crate::value::Major::Right => Layout::row_major(shape.to_int_tuple()?)?,
        })),
        // make_layout(shape, stride): `make_tensor(p, 8, 4)` is `8:4`, as in C++.
        [shape, stride] => Ok(AnyLayout::Layout(Layout::new(
            shape.to_int_tuple()?,
            stride.to_int_tuple()?,
        )?)),
        _ => Err(Error::new(
            "make_tensor: give a layout, or a shape and a stride (or LayoutLeft/LayoutRight)",
        )),
    }
}

/// `local_tile(tensor, tiler, coord[, proj])`.
pub(crate) fn local_tile(a: &[Value]) -> Result<Value> {
    let t = tensor(&a[0])?;
    let tiler = a[1].to_tiler()?;
    let coord = a[2].to_coord()?;
    let proj = a.get(3).map(projection).transpose()?;
    Ok(Value::Tensor(Box::new(t.local_tile_dynamic(
        &tiler,
        &coord,
        proj.as_deref(),
        &a[2].dynamic_leaves(),
    )?)))
}

/// `outer_partition(tensor, tiler, coord)`: element `coord` of every tile.
pub(crate) fn outer_partition(a: &[Value]) -> Result<Value> {
    let t = tensor(&a[0])?;
    Ok(Value::Tensor(Box::new(
        t.outer_partition(&a[1].to_tiler()?, &a[2].to_coord()?)?,
    )))
}

/// `Step<_1, X, _1>{}`: the modes kept (`X` is `_`).
fn projection(v: &Value) -> Result<Vec<bool>> {
    match v {
        Value::Tuple(vs) => Ok(vs.iter().map(|v| !matches!(v, Value::Under)).collect()),
        v => Err(cute_core::err!(
            "expected a projection such as Step<_1, X, _1>{{}}, got {}",
            v.kind()
        )),
    }
}

/// `local_partition(tensor, thr_layout, thr_idx[, proj])`; the projection is C++'s
/// `dice(proj, thr_layout)`: the thread's coordinate in the kept modes only.
pub(crate) fn local_partition(a: &[Value]) -> Result<Value> {
    let t = tensor(&a[0])?;
    let thr = as_layout(&a[1])?;
    let idx = a[2].to_int()?;
    let part = match a.get(3) {
        None => t.local_partition(&thr, idx)?,
        Some(p) => {
            let keep = projection(p)?;
            if keep.len() != thr.rank() {
                return Err(cute_core::err!(
                    "the projection has {} modes, the thread layout {thr} has {}",
                    keep.len(),
                    thr.rank()
                ));
            }
            let proj = cute_core::int_tuple::Coord::Tuple(
                keep.iter()
                    .map(|k| {
                        if *k {
                            cute_core::int_tuple::Coord::Int(1)
                        } else {
                            cute_core::int_tuple::Coord::Under
                        }
                    })
                    .collect(),
            );
            t.local_partition_projected(&thr, idx, &proj)?
        }
    };
    Ok(Value::Tensor(Box::new(part)))
}

/// A register tensor of `elem` owning `layout`'s elements (`make_tensor<T>(layout)`).
pub(crate) fn owned(elem: cute_core::elem::Elem, layout: Layout) -> Result<Value> {
    owning(iterable_bits(elem.bits())?, layout)
}

/// A register tensor of `bits`-bit elements owning `layout`'s: C++ holds it in an array
/// sized at compile time.
pub(crate) fn owning(bits: u32, layout: impl Into<AnyLayout>) -> Result<Value> {
    let layout = layout.into();
    let inner = layout.inner();
    if !inner.shape().is_static() || !inner.stride().is_static() {
        // C++: static_assert "Dynamic owning tensors not supported".
        return Err(cute_core::err!(
            "an owning tensor needs a static layout (C++: \"Dynamic owning tensors not supported\"), got {layout}"
        ));
    }
    Ok(Value::Tensor(Box::new(Tensor::with_any_layout(
        Iter::Owned { bits, offset: 0 },
        layout,
    )?)))
}

/// The layout functions C++ overloads for tensors by applying them to the tensor's layout
/// and keeping its iterator (`zipped_divide(tensor, tiler)`, `coalesce(tensor)`, ...).
const LIFTED: &[&str] = &[
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "coalesce",
    "filter",
    "flatten",
    "group",
    "filter_zeros",
    "compose",
    "tile",
];

/// `op` applied to a tensor's layout, its iterator kept, where C++ lifts `op` to tensors
/// and `args[0]` is a tensor; `None` otherwise.
pub(crate) fn lifted(
    op: &str,
    args: &[Value],
    body: impl Fn(&[Value]) -> Result<Value>,
) -> Option<Result<Value>> {
    let t = match args.first()? {
        Value::Tensor(t) => &**t,
        Value::Partition(p) => &p.tensor,
        _ => return None,
    };
    if !LIFTED.contains(&op) {
        return None;
    }
    let mut on_layout = args.to_vec();
    // Over a composed layout the operation acts on its inner layout, as C++'s does.
    Some(
        t.map_layout(|l| {
            on_layout[0] = Value::Layout(l.clone());
            match body(&on_layout)? {
                Value::Layout(l) => Ok(l),
                v => Err(cute_core::err!(
                    "{op} of a tensor's layout gave {}, not a layout",
                    v.kind()
                )),
            }
        })
        .map(|t| Value::Tensor(Box::new(t))),
    )
}

/// `t.data()` (CuTeDSL `t.iterator`): the tensor's pointer, register array or counting
/// iterator, where its element 0 is.
pub(crate) fn data(v: &Value) -> Result<Value> {
    Ok(match &tensor(v)?.iter {
        Iter::Ptr(p) => Value::Ptr(*p),
        it => Value::Iter(Box::new(it.clone())),
    })
}

/// `recast<NEW>(tensor)`: the same memory as `NEW` elements (the pointer retyped, its
/// address and swizzle kept; the layout `recast_layout<OLD, NEW>`).
pub(crate) fn recast(ty: &Value, t: &Tensor) -> Result<Value> {
    let new = elem_bits(ty)?;
    let old = t.iter.bits();
    let iter = match &t.iter {
        Iter::Ptr(p) if p.bit != 0 && new >= 8 => {
            return Err(cute_core::err!(
                "recast of {p} to {new}-bit elements: the pointer is inside a byte"
            ))
        }
        Iter::Ptr(p) => Iter::Ptr(Ptr { bits: new, ..*p }),
        Iter::Owned { offset: 0, .. } => Iter::Owned { bits: new, offset: 0 },
        _ => {
            return Err(Error::new(
                "recast of an identity tensor, or of a register tensor not at its start, is not modelled",
            ))
        }
    };
    let layout = t.any_layout().recast(i64::from(old), i64::from(new))?;
    Ok(Value::Tensor(Box::new(Tensor::with_any_layout(
        iter, layout,
    )?)))
}

/// An optional argument: absent or Python's `None`.
pub(crate) fn given(v: Option<&Value>) -> Option<&Value> {
    v.filter(|v| !matches!(v, Value::Under))
}

/// C++'s `recast_ptr<T>(ptr)` (the swizzle kept) and CuTeDSL's `cute.recast_ptr(ptr,
/// swizzle_=None, dtype=None)`: the pointer retyped to `dtype` (else its own type) with
/// the swizzle given (none when none is given, as the DSL does). The swizzle acts on byte
/// addresses, as C++'s `swizzle_ptr` does (`sl.inner` of a GMMA/UMMA smem atom).
pub(crate) fn recast_ptr(a: &[Value]) -> Result<Value> {
    if let [ty @ Value::Word(_), Value::Ptr(p)] = a {
        return Ok(Value::Ptr(Ptr {
            bits: elem_bits(ty)?,
            ..*p
        }));
    }
    let Value::Ptr(p) = &a[0] else {
        return Err(cute_core::err!(
            "recast_ptr takes a pointer (cute.recast_ptr(ptr, swizzle, dtype=T); C++ recast_ptr<T>(ptr)), got {}",
            a[0].kind()
        ));
    };
    let swizzle = match given(a.get(1)) {
        None => None,
        Some(Value::Swizzle(sw)) => Some(*sw),
        Some(v) => {
            return Err(cute_core::err!(
                "recast_ptr's swizzle_ is a swizzle (cute.make_swizzle(B, M, S), or a smem atom's .inner), got {}",
                v.kind()
            ))
        }
    };
    let bits = match given(a.get(2)) {
        None => p.bits,
        Some(t) => elem_bits(t)?,
    };
    Ok(Value::Ptr(Ptr {
        bits,
        // Sw<0,M,S> is the identity: C++'s and the DSL's pointer is a plain one.
        swizzle: swizzle.filter(|s| s.b != 0),
        ..*p
    }))
}

/// CuTeDSL's `cute.make_rmem_tensor(layout_or_shape, dtype)`: C++'s
/// `make_tensor<T>(layout | shape)`, a register tensor owning its elements.
pub(crate) fn make_rmem_tensor(x: &Value, dtype: &Value) -> Result<Value> {
    let layout = match x {
        Value::Layout(l) => l.clone(),
        Value::Composed(c) => {
            return Err(cute_core::err!(
                "a register tensor takes a plain layout, got {c}"
            ))
        }
        v => Layout::col_major(v.to_int_tuple()?)?,
    };
    owning(elem_bits(dtype)?, layout)
}

/// CuTeDSL's `cute.recast_tensor(src, dtype, swizzle_=None)`: C++'s `recast<T>(src)`.
pub(crate) fn dsl_recast_tensor(
    src: &Value,
    dtype: &Value,
    swizzle: Option<&Value>,
) -> Result<Value> {
    if let Some(v) = given(swizzle) {
        return Err(cute_core::err!(
            "recast_tensor's swizzle_ is reserved (CuTeDSL ignores it): leave it out, got {}",
            v.kind()
        ));
    }
    recast(dtype, tensor(src)?)
}
