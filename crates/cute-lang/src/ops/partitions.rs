//! The partition rows: a TiledMMA's or TiledCopy's thread slice (`get_slice`,
//! `partition_A/B/C`, `partition_S/D`), the fragments it makes (register, GMMA/UMMA
//! descriptor and tensor-memory accumulators: `partition_fragment_*`, `make_fragment_*`),
//! `retile` and the CuTeDSL `*_like` forms. The algebra is `cute_core::atom` and
//! `cute_core::tensor`'s.

use crate::ops::atoms::tiled_mma;
use crate::ops::tensors::{elem_bits, given, owned, owning, tensor};
use crate::value::{Partition, Partitioner, ThrCopy, ThrMma, Value};
use cute_core::atom::Atom;
use cute_core::atom::Operand;
use cute_core::atom::{MmaParams, TiledMma};
use cute_core::desc::{DescFamily, DescTensor};
use cute_core::error::{Error, Result};
use cute_core::int_tuple::IntTuple;
use cute_core::layout::Layout;
use cute_core::smem_atom::AtomMajor;
use cute_core::tensor::{Iter, Space, Tensor};
use cute_core::tmem::{tmem_frg, TmemAlloc};
use cute_core::umma::UmmaFamily;

/// `tiled_mma.get_slice(thr_idx)`, `tiled_copy.get_slice(thr_idx)`.
pub(crate) fn get_slice(a: &[Value]) -> Result<Value> {
    let thr = a[1].to_int()?;
    let (n, what) = match &a[0] {
        Value::TiledMma(m) => (m.thr_layout_vmnk.size()?, "TiledMMA"),
        Value::TiledCopy(c) => (c.layout_tv.mode(0)?.size()?, "TiledCopy"),
        v => {
            return Err(cute_core::err!(
                "get_slice takes a TiledMMA or a TiledCopy, got {}",
                v.kind()
            ))
        }
    };
    if thr < 0 || thr >= n {
        return Err(cute_core::err!(
            "thread {thr} is outside the {what}'s {n} threads"
        ));
    }
    Ok(match &a[0] {
        Value::TiledCopy(c) => Value::ThrCopy(Box::new(ThrCopy {
            copy: (**c).clone(),
            thr,
        })),
        _ => Value::ThrMma(Box::new(ThrMma {
            mma: crate::ops::atoms::tiled_mma(&a[0])?.clone(),
            thr,
        })),
    })
}

/// `thr_copy.partition_S/D(tensor)`.
pub(crate) fn partition_copy(src: bool, a: &[Value]) -> Result<Value> {
    let which = if src { 'S' } else { 'D' };
    let Value::ThrCopy(c) = &a[0] else {
        return Err(cute_core::err!(
            "partition_{which} is a member of a thread's slice: tiled_copy.get_slice(thr_idx).partition_{which}(tensor), got {}",
            a[0].kind()
        ));
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
pub(crate) fn partition(which: Operand, a: &[Value]) -> Result<Value> {
    let Value::ThrMma(m) = &a[0] else {
        return Err(cute_core::err!(
            "partition_{which} is a member of a thread's slice: tiled_mma.get_slice(thr_idx).partition_{which}(tensor), got {}",
            a[0].kind()
        ));
    };
    let t = tensor(&a[1])?;
    partitioned(
        t,
        m.mma.partition_tensor(which, t, m.thr)?,
        Partitioner::Mma(Box::new(m.mma.clone()), which),
        m.thr,
        match which {
            Operand::A => "partition_A",
            Operand::B => "partition_B",
            Operand::C => "partition_C",
        },
    )
}

/// `thr_mma.partition_fragment_A/B/C(tensor)`: the thread's register fragment of its part
/// (`make_fragment_like<ValType>(partition_X(tensor))`); `partition_fragment_C(tiled_mma,
/// shape)` is the TiledMMA's own (tmem_args).
pub(crate) fn partition_fragment(which: Operand, a: &[Value]) -> Result<Value> {
    match (&a[0], which) {
        (Value::ThrMma(m), _) => {
            let t = tensor(&a[1])?;
            fragment(&m.mma, which, &m.mma.partition_tensor(which, t, m.thr)?)
        }
        (_, Operand::C) => crate::ops::partitions::partition_fragment_c(a),
        (v, _) => Err(cute_core::err!(
            "partition_fragment_{which} is a member of a thread's slice: tiled_mma.get_slice(thr_idx).partition_fragment_{which}(tensor), got {}",
            v.kind()
        )),
    }
}

/// The element type of an MMA's register fragment of A, B or C (`FrgTypeA/B/C`): from
/// the op's name (`F32BF16BF16F32` is D, A, B, C), `UniversalFMA<D, A = D, B = A, C = D>`'s
/// arguments, or a GMMA's types (C = D; A in registers for `_RS` only). A GMMA/UMMA
/// operand in shared memory is a descriptor, not a register array: an error.
pub(crate) fn frg_type(mma: &TiledMma, which: Operand) -> Result<cute_core::elem::Elem> {
    let atom = &mma.atom;
    if let Some([_, a, b, c]) = atom.register_types()? {
        return Ok(match which {
            Operand::A => a,
            Operand::B => b,
            Operand::C => c,
        });
    }
    if let Some(cute_core::atom::MmaParams::Gmma(g)) = &atom.params {
        match which {
            Operand::C => return Ok(g.c),
            Operand::A if g.a_reg => return Ok(g.a),
            _ => {}
        }
    }
    if atom.params.is_none() {
        return Err(cute_core::err!(
            "{} {} in registers whose type its name does not spell: not modelled",
            atom.name,
            if which == Operand::C {
                "accumulates"
            } else {
                "reads its operands"
            }
        ));
    }
    Err(cute_core::err!(
        "{}'s {which} fragment is not a register array (a GMMA/UMMA operand in shared memory is a descriptor, an UMMA accumulator lives in TMEM): not modelled yet",
        atom.name
    ))
}

/// An MMA's fragment over a partition of A, B or C: `make_fragment_like` of it for A and B
/// in registers, the descriptor tensor of a GMMA/UMMA operand in shared memory, a compact
/// column-major tensor of its shape for C (an UMMA's in TMEM).
fn fragment(mma: &TiledMma, which: Operand, part: &Tensor) -> Result<Value> {
    if which == Operand::C {
        return crate::ops::partitions::fragment_c(mma, part.layout.shape().clone());
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
fn smem_operand(mma: &TiledMma, which: Operand) -> Option<(DescFamily, AtomMajor)> {
    let i = usize::from(which == Operand::B);
    let major = |mn: bool| if mn { AtomMajor::MN } else { AtomMajor::K };
    match &mma.atom.params {
        Some(MmaParams::Gmma(g)) if which == Operand::B || !g.a_reg => {
            Some((DescFamily::Gmma, major(mma.atom.mn_major[i])))
        }
        Some(MmaParams::Umma(u)) if which == Operand::B || !u.op.a_tmem => {
            Some((DescFamily::Umma, u.majors[i]))
        }
        _ => None,
    }
}

/// C++'s `MakeTensor<GMMA::smem_desc<Major>>` (UMMA alike) of a partitioned operand in
/// shared memory: its value type must be the MMA's, its pointer a shared-memory one.
fn desc_fragment(
    mma: &TiledMma,
    which: Operand,
    family: DescFamily,
    major: AtomMajor,
    part: &Tensor,
) -> Result<Value> {
    let Iter::Ptr(p) = &part.iter else {
        return Err(cute_core::err!(
            "Expected SMEM Tensor to construct a {} Desc Tensor, got a tensor over {}",
            family_name(family),
            part.iter
        ));
    };
    if p.space != Space::Smem {
        return Err(cute_core::err!(
            "Expected SMEM Tensor to construct a {} Desc Tensor, got {p}",
            family_name(family)
        ));
    }
    let sparse_a = which == Operand::A
        && match &mma.atom.params {
            Some(MmaParams::Gmma(g)) => g.sparse,
            Some(MmaParams::Umma(u)) => u.op.variant == cute_core::umma::UmmaVariant::Sparse,
            None => false,
        };
    if sparse_a {
        return Err(cute_core::err!(
            "{}'s A is 2:4 sparse: its descriptor fragment (of sparse elements) is not modelled",
            mma.atom.name
        ));
    }
    let want = match &mma.atom.params {
        Some(MmaParams::Gmma(g)) => Some(if which == Operand::A { g.a } else { g.b }),
        Some(MmaParams::Umma(u)) => Some(if which == Operand::A { u.a } else { u.b }),
        _ => None,
    };
    if let Some(t) = want {
        // C++ also takes 4- and 6-bit types in 8-bit containers.
        let container = p.bits == 8 && matches!(t.bits(), 4 | 6 | 8);
        if t.bits() != i64::from(p.bits) && !container {
            return Err(cute_core::err!(
                "Expecting ValType{which} type: the MMA reads {t} ({} bits), the tensor holds {}-bit elements",
                t.bits(),
                p.bits
            ));
        }
    }
    part.plain_layout("a descriptor fragment")?;
    let smem = part.smem_atom_layout();
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
pub(crate) fn make_fragment(which: Operand, a: &[Value]) -> Result<Value> {
    let mma = match &a[0] {
        Value::ThrMma(m) => &m.mma,
        Value::TiledMma(m) => &**m,
        v => {
            return Err(cute_core::err!(
                "make_fragment_{which} is a member of a TiledMMA or its thread slice: thr_mma.make_fragment_{which}(partitioned), got {}",
                v.kind()
            ))
        }
    };
    let tv = match which {
        Operand::A => &mma.atom.a,
        Operand::B => &mma.atom.b,
        Operand::C => &mma.atom.c,
    };
    let vals = tv.mode(1)?.size()?;
    // C++ reads only the shape of what make_fragment_C is given: CuTeDSL passes
    // partition_shape_C's.
    let shape = match (&a[1], which) {
        (v @ (Value::Tuple(_) | Value::Int(_) | Value::Dyn(_)), Operand::C) => v.to_int_tuple()?,
        (v, _) => tensor(v)?.layout.shape().clone(),
    };
    let first = shape.get(0).and_then(IntTuple::size).unwrap_or(-1);
    if shape.rank() < 3 || first != vals {
        return Err(cute_core::err!(
            "make_fragment_{which} takes a tensor partition_{which} returned{}: rank 3 or more whose mode 0 holds the atom's {vals} values a thread, got {shape}",
            if which == Operand::C { " (or its shape)" } else { "" }
        ));
    }
    match &a[1] {
        Value::Tensor(_) | Value::Partition(_) => fragment(mma, which, tensor(&a[1])?),
        _ => crate::ops::partitions::fragment_c(mma, shape),
    }
}

/// `thr_copy.retile_S/D(tensor)`: the tensor (a thread's fragment) re-tiled to the copy's
/// values, its iterator kept.
pub(crate) fn retile(which: char, a: &[Value]) -> Result<Value> {
    let Value::ThrCopy(c) = &a[0] else {
        return Err(cute_core::err!(
            "retile_{which} is a member of a thread's slice of a TiledCopy: tiled_copy.get_slice(thr_idx).retile_{which}(fragment), got {}",
            a[0].kind()
        ));
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
                return Err(cute_core::err!(
                    "make_tensor_like of a tensor over {}: C++ has no make_layout_like of a composed layout (make_fragment_like takes its inner layout)",
                    t.any_layout()
                ));
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

/// `partition_fragment_C(tiled_mma, shape_mn)` of an SM100 UMMA TiledMMA: its accumulator
/// in TMEM (`UMMA::tmem_frg_1sm/2sm<C>::make(partition_shape_C(...))`).
pub(crate) fn partition_fragment_c(a: &[Value]) -> Result<Value> {
    let tiled;
    let mma = match &a[0] {
        Value::Atom(at) => match &**at {
            Atom::Mma(m) => {
                tiled = m.tiled()?;
                &tiled
            }
            Atom::Copy(c) => {
                return Err(cute_core::err!(
                    "{} is a copy atom: partition_fragment_C takes a TiledMMA",
                    c.name
                ))
            }
        },
        v => tiled_mma(v)?,
    };
    let shape = mma.partition_shape(Operand::C, &a[1].to_int_tuple()?)?;
    fragment_c(mma, shape)
}

/// The accumulator fragment of `shape` (a partition of C): in TMEM for an SM100 UMMA
/// (`UMMA::tmem_frg_1sm/2sm<C>::make(shape)`), else a register tensor of C's type
/// (`make_tensor<ValTypeC>(shape)`).
pub(crate) fn fragment_c(
    mma: &cute_core::atom::TiledMma,
    shape: cute_core::IntTuple,
) -> Result<Value> {
    let umma = match &mma.atom.params {
        Some(MmaParams::Umma(u)) if u.op.family != UmmaFamily::Sm103MxF4Ultra => u,
        _ => {
            // A register MMA's accumulator: make_tensor<ValTypeC>(shape).
            let c = frg_type(mma, Operand::C)?;
            return owned(c, cute_core::Layout::col_major(shape)?);
        }
    };
    let bits = umma.c.bits();
    let n_sm = if umma.op.two_sm { 2 } else { 1 };
    // The 1-SM TS traits allocate C NonInterleaved (an M=64 tile's repeats in columns, not
    // in the other 16 lanes of each subpartition); every other UMMA Interleaved.
    let alloc = if umma.op.a_tmem && !umma.op.two_sm {
        TmemAlloc::NonInterleaved
    } else {
        TmemAlloc::Interleaved
    };
    let layout = tmem_frg(bits, 32, n_sm, alloc, &shape)?;
    let bits = u32::try_from(bits).map_err(|_| Error::new("TMEM value width out of range"))?;
    let ptr = cute_core::tensor::Ptr::new(cute_core::tensor::Space::Tmem, bits, 0);
    Ok(Value::Tensor(Box::new(cute_core::tensor::Tensor::new(
        cute_core::tensor::Iter::Ptr(ptr),
        layout,
    ))))
}
