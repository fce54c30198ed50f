//! The tensor rows of the op table: pointers (`make_gmem_ptr<T>(p)`, `nullptr`),
//! `make_tensor`, slicing, `local_tile`, `local_partition`, and a TiledMMA's thread slice
//! (`get_slice`, `partition_A/B/C`). Conversions only: the tensor algebra is
//! `cute_core::tensor`.

use crate::convert::bits_of;
use crate::ops::as_layout;
use crate::value::Value;
use cute_core::atom::{MmaParams, TiledMma};
use cute_core::desc::{DescFamily, DescTensor};
use cute_core::error::{Error, Result};
use cute_core::int_tuple::IntTuple;
use cute_core::layout::Layout;
use cute_core::smem_atom::AtomMajor;
use cute_core::swizzle::AnyLayout;
use cute_core::tensor::{Iter, Ptr, Space, Tensor};

/// A TiledMMA's slice for one thread (`tiled_mma.get_slice(thr_idx)`, C++ `ThrMMA`).
#[derive(Clone, Debug, PartialEq)]
pub struct ThrMma {
    /// The TiledMMA.
    pub mma: TiledMma,
    /// The thread.
    pub thr: i64,
}

impl std::fmt::Display for ThrMma {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // C++ prints a ThrMMA as its TiledMMA.
        write!(f, "{}", self.mma)
    }
}

/// A TiledCopy's slice for one thread (`tiled_copy.get_slice(thr_idx)`, C++ `ThrCopy`).
#[derive(Clone, Debug, PartialEq)]
pub struct ThrCopy {
    /// The TiledCopy.
    pub copy: cute_core::atom::TiledCopy,
    /// The thread.
    pub thr: i64,
}

impl std::fmt::Display for ThrCopy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // C++ prints a ThrCopy as its TiledCopy.
        write!(f, "{}", self.copy)
    }
}

/// A thread's partition of a tensor (`thr_mma.partition_A(sA)`), with who owns what of
/// the whole tensor: the partition view draws it. Prints as the tensor C++ returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Partition {
    /// The thread's part, as C++ returns it.
    pub tensor: Tensor,
    /// The partitioned tensor's shape.
    pub shape: cute_core::IntTuple,
    /// Who partitioned it: what gives every thread's part ([`Partition::tv`]).
    pub by: Partitioner,
    /// The thread.
    pub thr: i64,
    /// `partition_A`, `partition_S`, ...
    pub what: &'static str,
}

/// The TiledMMA (and operand) or TiledCopy (and side) of a [`Partition`].
#[derive(Clone, Debug, PartialEq)]
pub enum Partitioner {
    /// `partition_A/B/C`.
    Mma(Box<TiledMma>, char),
    /// `partition_S` (`true`) / `partition_D`.
    Copy(Box<cute_core::atom::TiledCopy>, bool),
}

impl Partition {
    /// `(thr_idx, value) →` column-major index of `shape`: every thread's part, for the
    /// partition view (computed when drawn, not when the value is printed).
    pub fn tv(&self) -> Result<Layout> {
        match &self.by {
            Partitioner::Mma(m, which) => m.tv_over(*which, &self.shape),
            Partitioner::Copy(c, src) => c.tv_over(*src, &self.shape),
        }
    }
}

impl std::fmt::Display for Partition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.tensor)
    }
}

pub(crate) fn tensor(v: &Value) -> Result<&Tensor> {
    match v {
        Value::Tensor(t) => Ok(t),
        Value::Partition(p) => Ok(&p.tensor),
        v => Err(Error::new(format!("expected a tensor, got {}", v.kind()))),
    }
}

/// The width of an element type that a pointer, a register tensor or a recast holds:
/// whole bytes, or the 1-, 4- and 6-bit types C++ iterates with a `subbyte_iterator`
/// (`gmem_subptr[4b](0x1001.4)`, `subptr[4b](stack.0)`).
fn elem_bits(ty: &Value) -> Result<u32> {
    iterable_bits(bits_of(ty)?)
}

fn iterable_bits(bits: i64) -> Result<u32> {
    match u32::try_from(bits) {
        Ok(b) if b % 8 == 0 || matches!(b, 1 | 4 | 6) => Ok(b),
        _ => Err(Error::new(format!(
            "{bits}-bit elements: C++ has no iterator over them (whole bytes, or 1-, 4- and 6-bit types)"
        ))),
    }
}

/// A C++ raw pointer declaration, `T const* p = init;`: `init` is `nullptr` (or `0`),
/// another raw `T*`, or absent (a kernel's pointer parameter, taken as null here).
pub(crate) fn raw_ptr(ty: &Value, init: Option<&Value>) -> Result<Value> {
    if !matches!(ty, Value::Keyword(_)) {
        return Err(Error::new(format!(
            "a pointer's pointee must be an element type (half_t, float, ...), got {}",
            ty.kind()
        )));
    }
    let bits = elem_bits(ty).map_err(|e| {
        Error::new(format!(
            "a pointer's pointee must be an element type (half_t, float, ...): {}",
            e.msg
        ))
    })?;
    let addr = match init {
        None | Some(Value::Keyword("nullptr")) | Some(Value::Int(0) | Value::Dyn(0)) => 0,
        Some(Value::Ptr(p)) if p.space == Space::Generic && p.bits == bits => p.addr,
        Some(Value::Ptr(p)) => {
            return Err(Error::new(format!(
                "C++ does not convert {p} to a raw {bits}-bit pointer: initialize it from nullptr or a raw pointer of its type"
            )))
        }
        Some(v) => {
            return Err(Error::new(format!(
                "C++ does not convert {} to a pointer: initialize it from nullptr (for an address, make_gmem_ptr<T>(address))",
                v.kind()
            )))
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
        Value::Ptr(p) => Err(Error::new(format!(
            "make_{name}({p}): C++ wraps one tagged pointer in another; pass a raw pointer (T const* p = ...;)"
        ))),
        Value::Keyword("nullptr") => Err(Error::new(format!(
            "make_{name}(nullptr) has no element type: write make_{name}<T>(nullptr)"
        ))),
        v => Err(Error::new(format!(
            "make_{name} of one argument takes a raw pointer (T const* p = nullptr;), got {}; an address needs the type: make_{name}<T>(address)",
            v.kind()
        ))),
    }
}

/// C++'s `make_swizzle_ptr(p, sw)`: the pointer with the swizzle acting on its byte
/// addresses (`Sw<0,M,S>` leaves it plain); of `make_smem_ptr(p, Swizzle{})` and of a
/// swizzled pointer's print, `Sw<3,4,3>_smem_ptr[16b](0x1000)`.
pub(crate) fn swizzle_ptr(p: Ptr, sw: &Value) -> Result<Value> {
    let Value::Swizzle(sw) = sw else {
        return Err(Error::new(format!(
            "a pointer is swizzled by a swizzle (Sw<B,M,S>), got {}",
            sw.kind()
        )));
    };
    if let Some(old) = p.swizzle {
        return Err(Error::new(format!(
            "the pointer already swizzles its addresses ({old}): C++ would nest two swizzle pointers, which is not modelled"
        )));
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
            v => Err(Error::new(format!("expected a pointer, got {}", v.kind()))),
        };
    }
    let [ty, addr] = a else {
        return Err(Error::new(format!(
            "{}: give the element type and the address, e.g. make_{}<half_t>(nullptr)",
            space.name(),
            space.name()
        )));
    };
    let bits = elem_bits(ty)?;
    let addr =
        match addr {
            Value::Keyword("nullptr") if space == Space::Rmem => return Err(Error::new(
                "C++ refuses make_rmem_ptr<T>(nullptr) (the call is ambiguous): give an address",
            )),
            Value::Keyword("nullptr") => 0,
            Value::Int(v) | Value::Dyn(v) => u64::try_from(*v).map_err(|_| {
                Error::new(format!("a pointer's address must not be negative, got {v}"))
            })?,
            Value::Ptr(p) => {
                // make_smem_ptr(other_ptr): C++ re-tags the address.
                p.addr
            }
            v => {
                return Err(Error::new(format!(
                    "expected an address (nullptr or an integer), got {}",
                    v.kind()
                )))
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
        Value::Iter(it) => Err(Error::new(format!(
            "{it} is a counting iterator: its tensors come from make_identity_tensor (their strides are basis elements, 1@0)"
        ))),
        Value::Keyword(_) => {
            // A swizzle of element offsets stays in the layout, as C++ keeps it.
            owning(elem_bits(&a[0])?, layout_args(&a[1..])?)
        }
        v => Err(Error::new(format!(
            "make_tensor: expected a pointer (make_gmem_ptr<T>(p), make_smem_ptr<T>(p)) or an element type (make_tensor<T>(shape)), got {}",
            v.kind()
        ))),
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
        v => Err(Error::new(format!(
            "expected a projection such as Step<_1, X, _1>{{}}, got {}",
            v.kind()
        ))),
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
                return Err(Error::new(format!(
                    "the projection has {} modes, the thread layout {thr} has {}",
                    keep.len(),
                    thr.rank()
                )));
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

/// `tiled_mma.get_slice(thr_idx)`, `tiled_copy.get_slice(thr_idx)`.
pub(crate) fn get_slice(a: &[Value]) -> Result<Value> {
    let thr = a[1].to_int()?;
    let (n, what) = match &a[0] {
        Value::TiledMma(m) => (m.thr_layout_vmnk.size()?, "TiledMMA"),
        Value::TiledCopy(c) => (c.layout_tv.mode(0)?.size()?, "TiledCopy"),
        v => {
            return Err(Error::new(format!(
                "get_slice takes a TiledMMA or a TiledCopy, got {}",
                v.kind()
            )))
        }
    };
    if thr < 0 || thr >= n {
        return Err(Error::new(format!(
            "thread {thr} is outside the {what}'s {n} threads"
        )));
    }
    Ok(match &a[0] {
        Value::TiledCopy(c) => Value::ThrCopy(Box::new(ThrCopy {
            copy: (**c).clone(),
            thr,
        })),
        _ => Value::ThrMma(Box::new(ThrMma {
            mma: crate::atom_args::tiled_mma(&a[0])?.clone(),
            thr,
        })),
    })
}

/// `thr_copy.partition_S/D(tensor)`.
pub(crate) fn partition_copy(src: bool, a: &[Value]) -> Result<Value> {
    let which = if src { 'S' } else { 'D' };
    let Value::ThrCopy(c) = &a[0] else {
        return Err(Error::new(format!(
            "partition_{which} is a member of a thread's slice: tiled_copy.get_slice(thr_idx).partition_{which}(tensor), got {}",
            a[0].kind()
        )));
    };
    let t = tensor(&a[1])?;
    partitioned(
        t,
        c.copy.partition_tensor(src, t, c.thr)?,
        Partitioner::Copy(Box::new(c.copy.clone()), src),
        c.thr,
        if src { "partition_S" } else { "partition_D" },
    )
}

/// A thread's part of `t` as the value partition_X returns, with what partitioned it (the
/// partition view draws every thread's part).
fn partitioned(
    t: &Tensor,
    part: Tensor,
    by: Partitioner,
    thr: i64,
    what: &'static str,
) -> Result<Value> {
    Ok(Value::Partition(Box::new(Partition {
        tensor: part,
        shape: t.layout.shape().clone(),
        by,
        thr,
        what,
    })))
}

/// `thr_mma.partition_A/B/C(tensor)`.
pub(crate) fn partition(which: char, a: &[Value]) -> Result<Value> {
    let Value::ThrMma(m) = &a[0] else {
        return Err(Error::new(format!(
            "partition_{which} is a member of a thread's slice: tiled_mma.get_slice(thr_idx).partition_{which}(tensor), got {}",
            a[0].kind()
        )));
    };
    let t = tensor(&a[1])?;
    partitioned(
        t,
        m.mma.partition_tensor(which, t, m.thr)?,
        Partitioner::Mma(Box::new(m.mma.clone()), which),
        m.thr,
        match which {
            'A' => "partition_A",
            'B' => "partition_B",
            _ => "partition_C",
        },
    )
}

/// A register tensor of `elem` owning `layout`'s elements (`make_tensor<T>(layout)`).
pub(crate) fn owned(elem: cute_core::elem::Elem, layout: Layout) -> Result<Value> {
    owning(iterable_bits(elem.bits())?, layout)
}

/// A register tensor of `bits`-bit elements owning `layout`'s: C++ holds it in an array
/// sized at compile time.
fn owning(bits: u32, layout: impl Into<AnyLayout>) -> Result<Value> {
    let layout = layout.into();
    let inner = layout.inner();
    if !inner.shape().is_static() || !inner.stride().is_static() {
        // C++: static_assert "Dynamic owning tensors not supported".
        return Err(Error::new(format!(
            "an owning tensor needs a static layout (C++: \"Dynamic owning tensors not supported\"), got {layout}"
        )));
    }
    Ok(Value::Tensor(Box::new(Tensor::with_any_layout(
        Iter::Owned { bits, offset: 0 },
        layout,
    )?)))
}

/// `thr_mma.partition_fragment_A/B/C(tensor)`: the thread's register fragment of its part
/// (`make_fragment_like<ValType>(partition_X(tensor))`); `partition_fragment_C(tiled_mma,
/// shape)` is the TiledMMA's own (tmem_args).
pub(crate) fn partition_fragment(which: char, a: &[Value]) -> Result<Value> {
    match (&a[0], which) {
        (Value::ThrMma(m), _) => {
            let t = tensor(&a[1])?;
            fragment(&m.mma, which, &m.mma.partition_tensor(which, t, m.thr)?)
        }
        (_, 'C') => crate::tmem_args::partition_fragment_c(a),
        (v, _) => Err(Error::new(format!(
            "partition_fragment_{which} is a member of a thread's slice: tiled_mma.get_slice(thr_idx).partition_fragment_{which}(tensor), got {}",
            v.kind()
        ))),
    }
}

/// The element type of an MMA's register fragment of A, B or C (`FrgTypeA/B/C`): from
/// the op's name (`F32BF16BF16F32` is D, A, B, C), `UniversalFMA<D, A = D, B = A, C = D>`'s
/// arguments, or a GMMA's types (C = D; A in registers for `_RS` only). A GMMA/UMMA
/// operand in shared memory is a descriptor, not a register array: an error.
pub(crate) fn frg_type(mma: &TiledMma, which: char) -> Result<cute_core::elem::Elem> {
    let atom = &mma.atom;
    if let Some(types) = atom.value_types() {
        return Ok(match which {
            'A' => types[1],
            'B' => types[2],
            _ => types[3],
        });
    }
    if let Some(args) = atom
        .name
        .strip_prefix("UniversalFMA<")
        .and_then(|r| r.strip_suffix('>'))
    {
        let ts: Vec<_> = args
            .split(',')
            .map(cute_core::elem::Elem::from_cpp)
            .collect::<Option<_>>()
            .ok_or_else(|| Error::new(format!("{}: unknown element type", atom.name)))?;
        let d = ts[0];
        let a = ts.get(1).copied().unwrap_or(d);
        let b = ts.get(2).copied().unwrap_or(a);
        let c = ts.get(3).copied().unwrap_or(d);
        return Ok(match which {
            'A' => a,
            'B' => b,
            _ => c,
        });
    }
    // MMA_Traits<SM61_DP4A/DP2A>: int8/int16 dot products accumulating in int32_t.
    if let Some(ab) = match atom.name.as_str() {
        "SM61_DP4A" => Some(cute_core::elem::Elem::S8),
        "SM61_DP2A" => Some(cute_core::elem::Elem::S16),
        _ => None,
    } {
        return Ok(if matches!(which, 'A' | 'B') {
            ab
        } else {
            cute_core::elem::Elem::S32
        });
    }
    if let Some(cute_core::atom::MmaParams::Gmma(g)) = &atom.params {
        match which {
            'C' => return Ok(g.c),
            'A' if g.a_reg => return Ok(g.a),
            _ => {}
        }
    }
    if atom.params.is_none() {
        return Err(Error::new(format!(
            "{} {} in registers whose type its name does not spell: not modelled",
            atom.name,
            if which == 'C' {
                "accumulates"
            } else {
                "reads its operands"
            }
        )));
    }
    Err(Error::new(format!(
        "{}'s {which} fragment is not a register array (a GMMA/UMMA operand in shared memory is a descriptor, an UMMA accumulator lives in TMEM): not modelled yet",
        atom.name
    )))
}

/// An MMA's fragment over a partition of A, B or C: `make_fragment_like` of it for A and B
/// in registers, the descriptor tensor of a GMMA/UMMA operand in shared memory, a compact
/// column-major tensor of its shape for C (an UMMA's in TMEM).
fn fragment(mma: &TiledMma, which: char, part: &Tensor) -> Result<Value> {
    if which == 'C' {
        return crate::tmem_args::fragment_c(mma, part.layout.shape().clone());
    }
    if let Some((family, major)) = smem_operand(mma, which) {
        return desc_fragment(mma, which, family, major, part);
    }
    // C++'s make_fragment_like of a swizzled layout is that of its inner layout.
    owned(
        frg_type(mma, which)?,
        cute_core::layout::make_fragment_like(&part.layout)?,
    )
}

/// The descriptor family and major mode of operand `which` when the MMA reads it from
/// shared memory through a descriptor (`FrgTypeA/B` is `GMMA::smem_desc` or
/// `UMMA::smem_desc`): A of an `_SS` GMMA/UMMA, B of every one.
fn smem_operand(mma: &TiledMma, which: char) -> Option<(DescFamily, AtomMajor)> {
    let i = usize::from(which == 'B');
    let major = |mn: bool| if mn { AtomMajor::MN } else { AtomMajor::K };
    match &mma.atom.params {
        Some(MmaParams::Gmma(g)) if which == 'B' || !g.a_reg => {
            Some((DescFamily::Gmma, major(mma.atom.mn_major[i])))
        }
        Some(MmaParams::Umma(u)) if which == 'B' || !u.op.a_tmem => {
            Some((DescFamily::Umma, u.majors[i]))
        }
        _ => None,
    }
}

/// C++'s `MakeTensor<GMMA::smem_desc<Major>>` (UMMA alike) of a partitioned operand in
/// shared memory: its value type must be the MMA's, its pointer a shared-memory one.
fn desc_fragment(
    mma: &TiledMma,
    which: char,
    family: DescFamily,
    major: AtomMajor,
    part: &Tensor,
) -> Result<Value> {
    let Iter::Ptr(p) = &part.iter else {
        return Err(Error::new(format!(
            "Expected SMEM Tensor to construct a {} Desc Tensor, got a tensor over {}",
            family_name(family),
            part.iter
        )));
    };
    if p.space != Space::Smem {
        return Err(Error::new(format!(
            "Expected SMEM Tensor to construct a {} Desc Tensor, got {p}",
            family_name(family)
        )));
    }
    let sparse_a = which == 'A'
        && match &mma.atom.params {
            Some(MmaParams::Gmma(g)) => g.sparse,
            Some(MmaParams::Umma(u)) => u.op.variant == cute_core::umma::UmmaVariant::Sparse,
            None => false,
        };
    if sparse_a {
        return Err(Error::new(format!(
            "{}'s A is 2:4 sparse: its descriptor fragment (of sparse elements) is not modelled",
            mma.atom.name
        )));
    }
    let want = match &mma.atom.params {
        Some(MmaParams::Gmma(g)) => Some(if which == 'A' { g.a } else { g.b }),
        Some(MmaParams::Umma(u)) => Some(if which == 'A' { u.a } else { u.b }),
        _ => None,
    };
    if let Some(t) = want {
        // C++ also takes 4- and 6-bit types in 8-bit containers.
        let container = p.bits == 8 && matches!(t.bits(), 4 | 6 | 8);
        if t.bits() != i64::from(p.bits) && !container {
            return Err(Error::new(format!(
                "Expecting ValType{which} type: the MMA reads {t} ({} bits), the tensor holds {}-bit elements",
                t.bits(),
                p.bits
            )));
        }
    }
    let layout = part.plain_layout("a descriptor fragment")?.clone();
    let smem = match p.swizzle {
        Some(swizzle) => AnyLayout::Composed(cute_core::ComposedLayout {
            swizzle,
            offset: cute_core::swizzle::Offset::SmemPtr {
                bits: i64::from(p.bits),
            },
            layout,
        }),
        None => AnyLayout::Layout(layout),
    };
    Ok(Value::DescTensor(Box::new(DescTensor::of_smem(
        family,
        major,
        &smem,
        i64::from(p.bits),
        p.addr,
    )?)))
}

fn family_name(f: DescFamily) -> &'static str {
    match f {
        DescFamily::Gmma => "GMMA",
        DescFamily::Umma => "UMMA",
    }
}

/// `thr_mma.make_fragment_A/B/C(partitioned)`: the fragment of a tensor that
/// `partition_A/B/C` returned (C++ checks its rank and its first mode's size, the atom's
/// values a thread).
pub(crate) fn make_fragment(which: char, a: &[Value]) -> Result<Value> {
    let mma = match &a[0] {
        Value::ThrMma(m) => &m.mma,
        Value::TiledMma(m) => &**m,
        v => {
            return Err(Error::new(format!(
                "make_fragment_{which} is a member of a TiledMMA or its thread slice: thr_mma.make_fragment_{which}(partitioned), got {}",
                v.kind()
            )))
        }
    };
    let tv = match which {
        'A' => &mma.atom.a,
        'B' => &mma.atom.b,
        _ => &mma.atom.c,
    };
    let vals = tv.mode(1)?.size()?;
    // C++ reads only the shape of what make_fragment_C is given: CuTeDSL passes
    // partition_shape_C's.
    let shape = match (&a[1], which) {
        (v @ (Value::Tuple(_) | Value::Int(_) | Value::Dyn(_)), 'C') => v.to_int_tuple()?,
        (v, _) => tensor(v)?.layout.shape().clone(),
    };
    let first = shape.get(0).and_then(IntTuple::size).unwrap_or(-1);
    if shape.rank() < 3 || first != vals {
        return Err(Error::new(format!(
            "make_fragment_{which} takes a tensor partition_{which} returned{}: rank 3 or more whose mode 0 holds the atom's {vals} values a thread, got {shape}",
            if which == 'C' { " (or its shape)" } else { "" }
        )));
    }
    match &a[1] {
        Value::Tensor(_) | Value::Partition(_) => fragment(mma, which, tensor(&a[1])?),
        _ => crate::tmem_args::fragment_c(mma, shape),
    }
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
                v => Err(Error::new(format!(
                    "{op} of a tensor's layout gave {}, not a layout",
                    v.kind()
                ))),
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

/// `thr_copy.retile_S/D(tensor)`: the tensor (a thread's fragment) re-tiled to the copy's
/// values, its iterator kept.
pub(crate) fn retile(which: char, a: &[Value]) -> Result<Value> {
    let Value::ThrCopy(c) = &a[0] else {
        return Err(Error::new(format!(
            "retile_{which} is a member of a thread's slice of a TiledCopy: tiled_copy.get_slice(thr_idx).retile_{which}(fragment), got {}",
            a[0].kind()
        )));
    };
    // The retiling composes on the domain (of `Sw o O o L`, on L); its last step slices
    // the tensor, where a swizzle may decay as in any slice.
    let t = tensor(&a[1])?;
    let mut at = None;
    let tiled = t.map_layout(|l| {
        let (tiled, coord) = c.copy.retile_tiled(l)?;
        at = Some(coord);
        Ok(tiled)
    })?;
    let at = at.ok_or_else(|| Error::new("retile: no layout to retile"))?;
    Ok(Value::Tensor(Box::new(tiled.slice(&at)?)))
}

/// `recast<NEW>(tensor)`: the same memory as `NEW` elements (the pointer retyped, its
/// address and swizzle kept; the layout `recast_layout<OLD, NEW>`).
pub(crate) fn recast(ty: &Value, t: &Tensor) -> Result<Value> {
    let new = elem_bits(ty)?;
    let old = t.iter.bits();
    let iter = match &t.iter {
        Iter::Ptr(p) if p.bit != 0 && new >= 8 => {
            return Err(Error::new(format!(
                "recast of {p} to {new}-bit elements: the pointer is inside a byte"
            )))
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

/// `get_swizzle_portion(x)`: a layout's swizzle (`Sw<0,4,3>`, the identity, for a plain
/// layout).
fn swizzle_portion(v: &Value) -> Result<cute_core::Swizzle> {
    match v {
        Value::Swizzle(s) => Ok(*s),
        Value::Composed(c) => Ok(c.swizzle),
        Value::Layout(_) => cute_core::Swizzle::new(0, 4, 3),
        v => Err(Error::new(format!(
            "expected a swizzle or a (composed) layout, got {}",
            v.kind()
        ))),
    }
}

/// `detail::get_tma_swizzle_bits(x)`: the TMA swizzle width of a layout's swizzle, with
/// C++'s static_asserts.
pub(crate) fn tma_swizzle_bits(v: &Value) -> Result<Value> {
    let s = swizzle_portion(v)?;
    Ok(Value::Keyword(match (s.m, s.b) {
        (4, 3) => "TMA::SmemSwizzleBits::B128",
        (4, 2) => "TMA::SmemSwizzleBits::B64",
        (4, 1) => "TMA::SmemSwizzleBits::B32",
        (4, 0) => "TMA::SmemSwizzleBits::DISABLE",
        (4, _) => {
            return Err(Error::new(
                "Expected B = 0,1,2, or 3 when M == 4. Unsupported layout swizzle.",
            ))
        }
        (5 | 6, 2) => "TMA::SmemSwizzleBits::B128",
        (5 | 6, _) => {
            return Err(Error::new(
                "Expected B = 2 when M == 5 or 6. Unsupported layout swizzle.",
            ))
        }
        _ => return Err(Error::new(format!("{s}: Unsupported layout swizzle."))),
    }))
}

/// `detail::get_tma_swizzle_base(x)`: the TMA swizzle atom's base, with C++'s
/// static_asserts (their messages as C++ spells them).
pub(crate) fn tma_swizzle_base(v: &Value) -> Result<Value> {
    let s = swizzle_portion(v)?;
    let fail = |m: &str| Err(Error::new(m.to_string()));
    Ok(Value::Keyword(match s.m {
        4 if !(0..=3).contains(&s.b) => {
            return fail("Expected B = 0,1,2, or 3 when M == 4. Unsupported layout swizzle.")
        }
        4 if s.s != 3 => return fail("Expected S = 3 when M == 4. Unsupported layout swizzle."),
        4 => "TMA::SmemSwizzleBase::SWIZZLE_BASE_16B",
        5 if s.b != 2 => return fail("Expected B = 2 when M == 5. Unsupported layout swizzle."),
        5 if s.s != 2 => return fail("Expected S = 2 when M == 5. Unsupported layout swizzle."),
        5 => "TMA::SmemSwizzleBase::SWIZZLE_BASE_32B",
        // C++'s message names M == 5 here too.
        6 if s.b != 2 => return fail("Expected B = 2 when M == 5. Unsupported layout swizzle."),
        6 => "TMA::SmemSwizzleBase::SWIZZLE_BASE_64B",
        _ => return fail("Expected 128b=16B=(2^4)B to 512b=64B=(2^6)B base swizzle."),
    }))
}

/// `TMA::to_CUtensorMapSwizzle(bits, base)`: the driver's swizzle mode (as nvcc 12.7+
/// compiles it: the 32B/64B-atom 128B modes exist there).
pub(crate) fn to_cu_swizzle(bits: &Value, base: &Value) -> Result<Value> {
    let (Value::Keyword(b), Value::Keyword(a)) = (bits, base) else {
        return Err(Error::new(
            "expected TMA::SmemSwizzleBits::* and TMA::SmemSwizzleBase::* (get_tma_swizzle_bits/base give them)",
        ));
    };
    let b16 = *a == "TMA::SmemSwizzleBase::SWIZZLE_BASE_16B";
    let need16 = |mode: &'static str, what: &str| {
        if b16 {
            Ok(mode)
        } else {
            Err(Error::new(format!(
                "Expected 16B swizzle base for {what} swizzle bits."
            )))
        }
    };
    Ok(Value::Keyword(match *b {
        "TMA::SmemSwizzleBits::DISABLE" => need16("CU_TENSOR_MAP_SWIZZLE_NONE", "0B")?,
        "TMA::SmemSwizzleBits::B32" => need16("CU_TENSOR_MAP_SWIZZLE_32B", "32B")?,
        "TMA::SmemSwizzleBits::B64" => need16("CU_TENSOR_MAP_SWIZZLE_64B", "64B")?,
        "TMA::SmemSwizzleBits::B128" => match *a {
            "TMA::SmemSwizzleBase::SWIZZLE_BASE_16B" => "CU_TENSOR_MAP_SWIZZLE_128B",
            "TMA::SmemSwizzleBase::SWIZZLE_BASE_32B" => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
            "TMA::SmemSwizzleBase::SWIZZLE_BASE_64B" => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B",
            _ => {
                return Err(Error::new(
                    "Unsupported pair of SmemSwizzleBits and SmemSwizzleBase!",
                ))
            }
        },
        _ => {
            return Err(Error::new(format!(
                "expected TMA::SmemSwizzleBits::*, got {b}"
            )))
        }
    }))
}

/// An optional argument: absent or Python's `None`.
fn given(v: Option<&Value>) -> Option<&Value> {
    v.filter(|v| !matches!(v, Value::Under))
}

/// C++'s `recast_ptr<T>(ptr)` (the swizzle kept) and CuTeDSL's `cute.recast_ptr(ptr,
/// swizzle_=None, dtype=None)`: the pointer retyped to `dtype` (else its own type) with
/// the swizzle given (none when none is given, as the DSL does). The swizzle acts on byte
/// addresses, as C++'s `swizzle_ptr` does (`sl.inner` of a GMMA/UMMA smem atom).
pub(crate) fn recast_ptr(a: &[Value]) -> Result<Value> {
    if let [ty @ Value::Keyword(_), Value::Ptr(p)] = a {
        return Ok(Value::Ptr(Ptr {
            bits: elem_bits(ty)?,
            ..*p
        }));
    }
    let Value::Ptr(p) = &a[0] else {
        return Err(Error::new(format!(
            "recast_ptr takes a pointer (cute.recast_ptr(ptr, swizzle, dtype=T); C++ recast_ptr<T>(ptr)), got {}",
            a[0].kind()
        )));
    };
    let swizzle = match given(a.get(1)) {
        None => None,
        Some(Value::Swizzle(sw)) => Some(*sw),
        Some(v) => {
            return Err(Error::new(format!(
                "recast_ptr's swizzle_ is a swizzle (cute.make_swizzle(B, M, S), or a smem atom's .inner), got {}",
                v.kind()
            )))
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
            return Err(Error::new(format!(
                "a register tensor takes a plain layout, got {c}"
            )))
        }
        v => Layout::col_major(v.to_int_tuple()?)?,
    };
    owning(elem_bits(dtype)?, layout)
}

/// C++'s `make_tensor_like<T>(x)` / `make_fragment_like<T>(x)` (`T` absent: the tensor's
/// own element type): a register tensor over `make_layout_like` / `make_fragment_like` of
/// the tensor's (or layout's) layout.
pub(crate) fn like_typed(fragment: bool, ty: Option<&Value>, x: &Value) -> Result<Value> {
    let (layout, bits) = match x {
        Value::Layout(l) => (l.clone(), None),
        Value::Composed(c) if fragment => (c.layout.clone(), None),
        v => {
            let t = tensor(v)?;
            if matches!(t.iter, Iter::Counting { .. }) {
                return Err(Error::new(
                    "a register tensor like an identity tensor holds coordinates (ArithTuples): not modelled",
                ));
            }
            // C++'s make_fragment_like of a swizzled layout is that of its inner layout;
            // it has no make_layout_like of one.
            if !fragment && t.swizzle.is_some() {
                return Err(Error::new(format!(
                    "make_tensor_like of a tensor over {}: C++ has no make_layout_like of a composed layout (make_fragment_like takes its inner layout)",
                    t.any_layout()
                )));
            }
            let layout = &t.layout;
            (layout.clone(), Some(t.iter.bits()))
        }
    };
    let bits = match (ty, bits) {
        (Some(ty), _) => elem_bits(ty)?,
        (None, Some(b)) => b,
        (None, None) => {
            return Err(Error::new(
                "of a layout, give the element type: make_tensor_like<T>(layout)",
            ))
        }
    };
    let layout = if fragment {
        cute_core::layout::make_fragment_like(&layout)?
    } else {
        cute_core::layout::make_layout_like(&layout)?
    };
    owning(bits, layout)
}

/// CuTeDSL's `cute.make_rmem_tensor_like(src, dtype=None)`: a register tensor of `dtype`
/// (else the tensor's type) over `make_layout_like` of `src`'s layout (of a counting
/// tensor's shape); `dtype` must be given for a layout or a counting tensor.
pub(crate) fn dsl_rmem_like(src: &Value, dtype: Option<&Value>) -> Result<Value> {
    let dtype = given(dtype);
    match src {
        Value::Tensor(t) if matches!(t.iter, Iter::Counting { .. }) => {
            let Some(dtype) = dtype else {
                return Err(Error::new(
                    "dtype must be provided when src is a coordinate tensor",
                ));
            };
            let compact = Layout::col_major(t.layout.shape().clone())?;
            owning(
                elem_bits(dtype)?,
                cute_core::layout::make_layout_like(&compact)?,
            )
        }
        Value::Layout(_) if dtype.is_none() => {
            Err(Error::new("dtype must be provided when src is a layout"))
        }
        v => like_typed(false, dtype, v),
    }
}

/// CuTeDSL's `cute.make_fragment_like(src, dtype=None)`: of a layout, C++'s
/// `make_fragment_like(layout)` (a register tensor of it with `dtype`); of a tensor,
/// `make_rmem_tensor_like(src, dtype)` — C++'s `make_tensor_like`, not its
/// `make_fragment_like`.
pub(crate) fn dsl_fragment_like(src: &Value, dtype: Option<&Value>) -> Result<Value> {
    let dtype = given(dtype);
    match (src, dtype) {
        (Value::Layout(l), None) => Ok(cute_core::layout::make_fragment_like(l)?.into()),
        (Value::Layout(l), Some(t)) => {
            owning(elem_bits(t)?, cute_core::layout::make_fragment_like(l)?)
        }
        // Of a swizzled layout, that of its inner layout (C++'s swizzle_layout.hpp).
        (Value::Composed(c), None) => Ok(cute_core::layout::make_fragment_like(&c.layout)?.into()),
        (v, t) => dsl_rmem_like(v, t),
    }
}

/// CuTeDSL's `cute.recast_tensor(src, dtype, swizzle_=None)`: C++'s `recast<T>(src)`.
pub(crate) fn dsl_recast_tensor(
    src: &Value,
    dtype: &Value,
    swizzle: Option<&Value>,
) -> Result<Value> {
    if let Some(v) = given(swizzle) {
        return Err(Error::new(format!(
            "recast_tensor's swizzle_ is reserved (CuTeDSL ignores it): leave it out, got {}",
            v.kind()
        )));
    }
    recast(dtype, tensor(src)?)
}

/// `make_tma_copy(OP{}, gtensor, slayout[, cta_tiler][, cluster_size])` (`tiled`) or
/// `make_tma_atom(OP{}, gtensor, slayout, cta_tiler[, cluster_size])`; `a` holds the
/// arguments after the operation.
pub(crate) fn make_tma(op: &'static str, a: &[Value], tiled: bool) -> Result<Value> {
    let what = if tiled {
        "make_tma_copy"
    } else {
        "make_tma_atom"
    };
    if a.len() < 2 {
        return Err(Error::new(format!(
            "{what}({op}{{}}, gmem_tensor, smem_layout, ...) needs the gmem tensor and the smem layout"
        )));
    }
    let g = tensor(&a[0]).map_err(|e| e.within(what))?;
    let s = a[1].to_any_layout().map_err(|e| e.within(what))?;
    let cluster = |v: &Value| -> Result<i64> {
        v.to_int().map_err(|_| {
            Error::new(format!(
                "{what}: the cluster size is an integer (Int<2>{{}}), got {}",
                v.kind()
            ))
        })
    };
    let (tiler, n) = match (tiled, &a[2..]) {
        (true, []) => (None, 1),
        (true, [c]) => (None, cluster(c)?),
        (_, [t]) => (Some(t.to_int_tuple()?), 1),
        (_, [t, c]) => (Some(t.to_int_tuple()?), cluster(c)?),
        _ => return Err(Error::new(format!("{what}: too many arguments"))),
    };
    if tiled {
        let c = cute_core::tma::make_tma_copy(op, g, &s, tiler.as_ref(), n)?;
        Ok(Value::TiledCopy(Box::new(c)))
    } else {
        let c = cute_core::tma::make_tma_atom(op, g, &s, tiler.as_ref(), n)?;
        Ok(Value::Atom(Box::new(cute_core::atom::Atom::Copy(c))))
    }
}

/// `tma_box(gmem_layout, smem_layout[, T])` (also `make_tma_copy` of a layout): the box
/// `make_tma_copy` derives, its element type from the smem layout's pointer or `T`.
pub(crate) fn tma_box(a: &[Value]) -> Result<Value> {
    let smem = a[1].to_any_layout()?;
    let Some(bits) = smem.element_bits(a.get(2).map(bits_of).transpose()?)? else {
        return Err(Error::new("make_tma_copy: give the element type (make_tma_copy(gmem, smem, half_t)): a plain smem layout does not carry it"));
    };
    Ok(Value::Tma(Box::new(cute_core::tma::make_tma_box(
        a[0].to_layout()?,
        &smem,
        bits,
    )?)))
}

/// The TMA part of a copy made by `make_tma_copy` or `make_tma_atom`.
pub(crate) fn tma_atom(v: &Value) -> Result<&cute_core::tma::TmaAtom> {
    let atom = match v {
        Value::TiledCopy(c) => Some(&c.atom),
        Value::Atom(a) => match &**a {
            cute_core::atom::Atom::Copy(c) => Some(c),
            _ => None,
        },
        _ => None,
    };
    atom.and_then(|c| c.tma.as_deref()).ok_or_else(|| {
        Error::new(format!(
            "expected a TMA copy (make_tma_copy(SM90_TMA_LOAD{{}}, gmem_tensor, smem_layout) or make_tma_atom), got {}",
            v.kind()
        ))
    })
}

/// `tma_partition(tma, [cta_coord, cta_layout,] stensor, gtensor)`: `(gmem, smem)`, or
/// `(smem, gmem)` as CuTeDSL's `cpasync.tma_partition` returns them (`smem_first`).
pub(crate) fn tma_partition(a: &[Value], smem_first: bool) -> Result<Value> {
    let tma = tma_atom(&a[0])?;
    let (coord, layout, s, g) = match a {
        [_, s, g] => (0, Layout::new(IntTuple::Int(1), IntTuple::Int(0))?, s, g),
        [_, c, l, s, g] => (c.to_int()?, l.to_layout()?.clone(), s, g),
        _ => {
            return Err(Error::new(
                "tma_partition takes (tma, stensor, gtensor) or (tma, cta_coord, cta_layout, stensor, gtensor)",
            ))
        }
    };
    let (gs, ss) = cute_core::tma::tma_partition(tma, coord, &layout, tensor(s)?, tensor(g)?)?;
    let (gs, ss) = (Value::Tensor(Box::new(gs)), Value::Tensor(Box::new(ss)));
    Ok(Value::Tuple(if smem_first {
        vec![ss, gs]
    } else {
        vec![gs, ss]
    }))
}
