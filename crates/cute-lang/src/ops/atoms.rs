//! The atom rows of the op table: reading atom, TiledMMA and TiledCopy arguments,
//! `make_tiled_mma`, `atom(NAME, T)`, traits, and the arguments of the bank model.

use crate::convert::bits_of;
use crate::ops::args::{as_layout, Kwargs};
use crate::value::Value;
use crate::words::{CacheMode, CopyOp, Word};
use cute_core::atom::Operand;
use cute_core::atom::{Atom, CopyAtom, TiledCopy, TiledMma, TmemCopy};
use cute_core::bank::Instr;
use cute_core::error::{Error, Result};
use cute_core::gmem::GmemOp;
use cute_core::int_tuple::IntTuple;
use cute_core::layout::Layout;
use cute_core::swizzle::AnyLayout;
use std::borrow::Cow;

pub(crate) fn tiled_mma(v: &Value) -> Result<&TiledMma> {
    match v {
        Value::TiledMma(m) => Ok(m),
        v => Err(cute_core::err!("expected a TiledMMA, got {}", v.kind())),
    }
}

pub(crate) fn tiled_copy(v: &Value) -> Result<&TiledCopy> {
    match v {
        Value::TiledCopy(c) => Ok(c),
        v => Err(cute_core::err!("expected a TiledCopy, got {}", v.kind())),
    }
}

pub(crate) fn tile_shape(v: &Value) -> Result<Value> {
    match v {
        Value::TiledMma(m) => Ok(m.tile_shape()?.into()),
        Value::TiledCopy(c) => Ok(c.tiler.clone().into()),
        v => Err(cute_core::err!(
            "expected a TiledMMA or TiledCopy, got {}",
            v.kind()
        )),
    }
}

pub(crate) fn tiled_copy_of(a: &[Value], which: Operand) -> Result<Value> {
    let atom = copy_atom(&a[0])?;
    let m = tiled_mma(&a[1])?;
    Ok(Value::TiledCopy(Box::new(
        cute_core::atom::make_tiled_copy_operand(&atom, m, which)?,
    )))
}

pub(crate) fn mma_atom(v: &Value) -> Result<cute_core::atom::MmaAtom> {
    match v {
        Value::Atom(a) => match &**a {
            Atom::Mma(m) => Ok(m.clone()),
            Atom::Copy(c) => Err(cute_core::err!(
                "{} is a copy atom, not an MMA atom",
                c.name
            )),
        },
        Value::TiledMma(m) => Ok(m.atom.clone()),
        v => Err(cute_core::err!("expected an MMA atom, got {}", v.kind())),
    }
}

pub(crate) fn make_tiled_mma(a: &[Value], _: &Kwargs) -> Result<Value> {
    let atom = mma_atom(&a[0])?;
    let Some(layout) = a.get(1) else {
        return Ok(Value::TiledMma(Box::new(atom.tiled()?)));
    };
    let layout = as_layout(layout)?;
    let perm = match a.get(2) {
        None => Vec::new(),
        Some(Value::Tuple(vs)) => vs.iter().map(|v| v.to_tiler()).collect::<Result<_>>()?,
        Some(v) => {
            return Err(cute_core::err!(
                "the permutation is a tuple of up to 3 tilers (M, N, K), got {}",
                v.kind()
            ))
        }
    };
    Ok(Value::TiledMma(Box::new(cute_core::atom::make_tiled_mma(
        &atom, &layout, &perm,
    )?)))
}

/// `atom(NAME[, T])`: a copy atom recast to `T`-bit values.
pub(crate) fn atom_with_type(v: &Value, t: Option<&Value>) -> Result<Value> {
    let a = match v {
        Value::Atom(a) => (**a).clone(),
        v => return Err(cute_core::err!("expected an atom name, got {}", v.kind())),
    };
    match (a, t) {
        (a, None) => Ok(Value::Atom(Box::new(a))),
        (Atom::Copy(c), Some(t)) => Ok(Value::Atom(Box::new(Atom::Copy(
            c.with_value_bits(bits_of(t)?)?,
        )))),
        (Atom::Mma(m), Some(_)) => Err(cute_core::err!(
            "{} is an MMA atom: its value types are part of its name",
            m.name
        )),
    }
}

/// A trait of an atom (or of the atom of a tiled MMA / copy).
pub(crate) fn get_trait(v: &Value, k: &str) -> Result<Value> {
    let atom = match v {
        Value::Atom(a) => (**a).clone(),
        Value::TiledMma(m) => Atom::Mma(m.atom.clone()),
        Value::TiledCopy(c) => Atom::Copy(c.atom.clone()),
        v => return Err(cute_core::err!("{} has no trait {k}", v.kind())),
    };
    atom.trait_value(k).map(Value::from)
}

pub(crate) fn copy_atom(v: &Value) -> Result<cute_core::atom::CopyAtom> {
    match v {
        Value::Atom(a) => match &**a {
            Atom::Copy(c) => Ok(c.clone()),
            Atom::Mma(m) => Err(cute_core::err!(
                "{} is an MMA atom, not a copy atom",
                m.name
            )),
        },
        v => Err(cute_core::err!("expected a copy atom, got {}", v.kind())),
    }
}
/// The part of `smem` a tiled copy's tile covers: the tile the copy's TV layout indexes
/// (`Tiler_MN`), as `partition_S/D` sees the first one, `composition(smem, tiler)`; the
/// layout itself when it is the tile. An error names both shapes when it does not cover it.
fn copy_tile_of<'a>(smem: &'a Value, copy: &TiledCopy, memory: &str) -> Result<Cow<'a, Value>> {
    let layout = smem.to_any_layout()?;
    let shape = layout.inner().shape();
    let tile = &copy.tiler;
    let dims =
        |t: &IntTuple| -> Result<Vec<i64>> { (0..t.rank()).map(|i| t.get(i)?.size()).collect() };
    let (have, want) = (dims(shape)?, dims(tile)?);
    if have == want {
        return Ok(Cow::Borrowed(smem));
    }
    let x = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join("x");
    let covers =
        have.len() >= want.len() && want.iter().zip(&have).all(|(w, h)| *w > 0 && h % w == 0);
    if !covers {
        return Err(cute_core::err!(
            "the copy's tile is {} (its Tiler_MN {tile}) but the {memory} layout is {} ({shape}): it must cover the tile mode by mode; pass the layout the copy reads (e.g. tile_to_shape(atom, the CTA tile))",
            x(&want),
            x(&have)
        ));
    }
    crate::ops::algebra::composition(smem, &Value::from(tile.clone()))
        .map(Cow::Owned)
        .map_err(|e| e.within("composition(smem, Tiler_MN)"))
}

pub(crate) fn bank_args(args: &[Value]) -> Result<(Cow<'_, Value>, u32, Layout, Instr)> {
    let instr_of = |v: &Value| -> Result<Instr> {
        match v {
            Value::Word(w) => w.instr().and_then(|i| i.smem).ok_or_else(|| {
                cute_core::err!(
                    "'{w}' is not an instruction (expected one of {})",
                    Instr::NAMES.join(", ")
                )
            }),
            v => Err(cute_core::err!(
                "expected an instruction ({}), got {}",
                Instr::NAMES.join(", "),
                v.kind()
            )),
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
            None => c.atom.instr()?,
        };
        let tv = if instr.is_store() {
            c.layout_d_tv()?
        } else {
            c.layout_s_tv()?
        };
        let bits = u32::try_from(bits).map_err(|_| Error::new("element width out of range"))?;
        return Ok((copy_tile_of(&args[0], c, "shared-memory")?, bits, tv, instr));
    }
    // (smem, INSTR) or (smem, bits, INSTR): the instruction's canonical warp access over the
    // whole layout; the width from the layout's smem_ptr[Nb] when not given.
    if matches!(args.len(), 2 | 3) && matches!(args[args.len() - 1], Value::Word(_)) {
        let instr = instr_of(&args[args.len() - 1])?;
        let smem = args[0].to_any_layout()?;
        let bits = match (args.len(), smem.smem_ptr_bits()) {
            (3, _) => bits_of(&args[1])?,
            (_, Some(b)) => b,
            _ => {
                return Err(cute_core::err!(
                    "the layout does not say its element width: give it, e.g. bank_conflicts(smem, 16, {})",
                    match &args[1] {
                        Value::Word(w) => w.name(),
                        _ => "LDS128",
                    }
                ))
            }
        };
        let bits = u32::try_from(bits)
            .map_err(|_| cute_core::err!("element width {bits} is out of range"))?;
        let tv = cute_core::bank::canonical_access(&smem, bits, instr)?;
        return Ok((Cow::Borrowed(&args[0]), bits, tv, instr));
    }
    if args.len() != 4 {
        return Err(Error::new(
            "expected (smem_layout, INSTR), (smem_layout, element_bits, INSTR), (smem_layout, element_bits, tv_layout, INSTR) or (smem_layout, tiled_copy[, INSTR])",
        ));
    }
    let bits = bits_of(&args[1])?;
    let bits =
        u32::try_from(bits).map_err(|_| cute_core::err!("element width {bits} is out of range"))?;
    let tv = match &args[2] {
        Value::Layout(l) => l.clone(),
        // make_layout_tv's (tiler, layout_tv).
        Value::Tuple(vs) if vs.len() == 2 && matches!(vs[1], Value::Layout(_)) => {
            vs[1].to_layout()?.clone()
        }
        v => {
            return Err(cute_core::err!(
                "expected a (thread, value) layout, got {}",
                v.kind()
            ))
        }
    };
    Ok((Cow::Borrowed(&args[0]), bits, tv, instr_of(&args[3])?))
}

/// What `coalescing(...)` analyses: the global layout (element offsets), its element width
/// and byte address, the (thread, value) access and the instruction.
pub(crate) struct GmemAccess {
    pub layout: cute_core::swizzle::AnyLayout,
    pub bits: u32,
    pub base: u64,
    pub tv: Layout,
    pub op: cute_core::gmem::GmemOp,
}

/// `coalescing`'s arguments: `(gmem_tensor, tiled_copy[, INSTR])`, `(gmem[, bits], INSTR)`
/// (the instruction's canonical warp access over the whole 2-D layout, as for banks) and
/// `(gmem, bits, tiled_copy | tv[, INSTR])`. A tensor gives the width and the address
/// (its pointer); a plain layout starts at address 0.
pub(crate) fn coalesce_args(args: &[Value]) -> Result<GmemAccess> {
    let usage = "expected (gmem_tensor, tiled_copy[, INSTR]), (gmem[, bits], INSTR) or (gmem, bits, tiled_copy | tv_layout[, INSTR])";
    let op_of = |v: &Value| -> Option<Result<GmemOp>> {
        match v {
            Value::Word(Word::Instr(i)) => Some(i.gmem.ok_or_else(|| {
                cute_core::err!(
                    "{} is a shared-memory instruction; global memory is read with one of {}",
                    i.name(),
                    GmemOp::NAMES.join(", ")
                )
            })),
            _ => None,
        }
    };
    let (layout, mut bits, base) = gmem_operand(&args[0], usage)?;
    let mut rest = &args[1..];
    // An element width, unless it is the instruction.
    if let Some(v) = rest.first() {
        if op_of(v).is_none() && matches!(v, Value::Int(_) | Value::Dyn(_) | Value::Word(_)) {
            let b = bits_of(v)?;
            if let Some(have) = bits.filter(|h| *h != b) {
                return Err(cute_core::err!(
                    "the tensor holds {have}-bit elements, not {b}-bit ones"
                ));
            }
            bits = Some(b);
            rest = &rest[1..];
        }
    }
    let explicit = match rest.last().and_then(op_of) {
        Some(op) => {
            rest = &rest[..rest.len() - 1];
            Some(op?)
        }
        None => None,
    };
    match rest {
        [Value::TiledCopy(c)] => copy_access(c, layout, bits, base, explicit),
        [tv] => {
            let op = explicit.ok_or_else(|| cute_core::err!("{usage}: name the instruction"))?;
            let b = bits.ok_or_else(|| Error::new("give the element width (bits or a type)"))?;
            let tv = match tv {
                Value::Layout(l) => l.clone(),
                Value::Tuple(vs) if vs.len() == 2 && matches!(vs[1], Value::Layout(_)) => {
                    vs[1].to_layout()?.clone()
                }
                v => {
                    return Err(cute_core::err!(
                        "expected a tiled copy or a (thread, value) layout, got {}",
                        v.kind()
                    ))
                }
            };
            Ok(GmemAccess {
                layout,
                bits: element_bits(b)?,
                base,
                tv,
                op,
            })
        }
        [] => {
            let op = explicit.ok_or_else(|| cute_core::err!("{usage}: name the instruction"))?;
            let b = element_bits(bits.ok_or_else(|| {
                cute_core::err!(
                    "the layout does not say its element width: give it, e.g. coalescing(gmem, 16, {})",
                    GmemOp::NAMES[4]
                )
            })?)?;
            let tv = cute_core::bank::canonical_access(&layout, b, Instr::Lds(op.bits()))?;
            Ok(GmemAccess {
                layout,
                bits: b,
                base,
                tv,
                op,
            })
        }
        _ => Err(Error::new(usage)),
    }
}

/// The global memory `coalescing` reads: a tensor's layout, element width and address, or
/// a plain layout at address 0.
fn gmem_operand(v: &Value, usage: &str) -> Result<(AnyLayout, Option<i64>, u64)> {
    use cute_core::tensor::{Iter, Space};
    Ok(match v {
        Value::Tensor(t) => match &t.iter {
            Iter::Ptr(p) if p.bit != 0 => {
                return Err(cute_core::err!(
                    "the tensor starts inside a byte ({p}): no global-memory instruction reads from there"
                ))
            }
            Iter::Ptr(p) if matches!(p.space, Space::Gmem | Space::Generic) => {
                (t.any_layout(), Some(i64::from(p.bits)), p.addr)
            }
            Iter::Ptr(p) => {
                return Err(cute_core::err!(
                    "the tensor is in {} memory ({}): coalescing is about global memory (make_gmem_ptr); for shared memory use bank_conflicts",
                    match p.space {
                        Space::Smem => "shared",
                        _ => "register",
                    },
                    p.space.name()
                ))
            }
            _ => {
                return Err(Error::new(
                    "the tensor has no memory behind it (a counting or register tensor): give a global-memory tensor (make_tensor(make_gmem_ptr<T>(p), layout))",
                ))
            }
        },
        Value::Layout(l) => (l.clone().into(), None, 0),
        Value::Composed(_) => {
            return Err(Error::new(
                "a swizzled (composed) layout is a shared-memory layout: coalescing takes a global-memory tensor or plain layout",
            ))
        }
        v => return Err(cute_core::err!("{usage}; got {} first", v.kind())),
    })
}

/// The access of a TiledCopy over the global layout: its source (a load's) or destination
/// (a store's) thread-value layout over one copy tile, with the copy's or the given
/// instruction and width.
fn copy_access(
    c: &TiledCopy,
    layout: AnyLayout,
    bits: Option<i64>,
    base: u64,
    explicit: Option<GmemOp>,
) -> Result<GmemAccess> {
    let op = match explicit {
        Some(op) => op,
        None => c.atom.gmem_op()?,
    };
    let b = match (bits, c.atom.val_bits) {
        (Some(b), Some(v)) if b != v => {
            return Err(cute_core::err!(
                "the copy moves {v}-bit values but the global tensor holds {b}-bit elements"
            ))
        }
        (Some(b), _) | (None, Some(b)) => b,
        (None, None) => {
            return Err(Error::new(
                "give the element width: the layout and the copy do not say it",
            ))
        }
    };
    // The copy reads global memory on its source side, a store writes its destination.
    let tv = if op.is_store() {
        c.layout_d_tv()?
    } else {
        c.layout_s_tv()?
    };
    let whole = Value::from(layout);
    let tile = copy_tile_of(&whole, c, "global")?;
    Ok(GmemAccess {
        layout: tile.to_any_layout()?,
        bits: element_bits(b)?,
        base,
        tv,
        op,
    })
}

fn element_bits(b: i64) -> Result<u32> {
    u32::try_from(b).map_err(|_| cute_core::err!("element width {b} is out of range"))
}

/// CuTeDSL's `warp.LdMatrix8x8x16bOp(transpose, num_matrices)` (`load`) and
/// `warp.StMatrix8x8x16bOp(...)`: C++'s `SM75_U32x{n}_LDSM_N` / `SM75_U16x{2n}_LDSM_T`
/// (`SM90_U32x{n}_STSM_N` / `SM90_U16x{2n}_STSM_T`), an op `make_copy_atom` types.
/// CuTeDSL `tcgen05.Ld32x32bOp(repeat, pack)` and the other TMEM loads and stores: the
/// C++ atom `SM100_TMEM_{LOAD,STORE}_{shape}{repeat}x[_16b]`.
pub(crate) fn dsl_tmem_op(dir: TmemCopy, shape: &str, a: &[Value]) -> Result<Value> {
    let load = dir == TmemCopy::Load;
    let repeat = match a.first() {
        None | Some(Value::Under) => 1,
        Some(Value::Int(n)) => *n,
        Some(v) => {
            return Err(cute_core::err!(
                "expects the 'repeat' Op parameter to be a tcgen05.Repetition instance, got {}",
                v.kind()
            ))
        }
    };
    let packed = match a.get(1) {
        None | Some(Value::Under) => false,
        Some(Value::Bool(b)) => *b,
        Some(v) => {
            return Err(cute_core::err!(
                "expects the '{}' Op parameter to be a tcgen05.{} instance, got {}",
                if load { "pack" } else { "unpack" },
                if load { "Pack" } else { "Unpack" },
                v.kind()
            ))
        }
    };
    match CopyAtom::tmem(dir, shape, repeat, packed) {
        Some(atom) => Ok(Value::Atom(Box::new(Atom::Copy(atom?)))),
        None => Err(cute_core::err!(
            "tcgen05.{} {shape} has no x{repeat} form (no SM100_TMEM_{}_{shape}{repeat}x{})",
            if load { "ld" } else { "st" },
            if load { "LOAD" } else { "STORE" },
            if packed { "_16b" } else { "" }
        )),
    }
}

pub(crate) fn dsl_matrix_op(load: bool, a: &[Value]) -> Result<Value> {
    let transpose = match a.first() {
        None | Some(Value::Under) => false,
        Some(Value::Bool(b)) => *b,
        Some(v) => {
            return Err(cute_core::err!(
                "expects the 'transpose' Op parameter to be a bool instance, got {}",
                v.kind()
            ))
        }
    };
    let n = match a.get(1) {
        None | Some(Value::Under) => 1,
        Some(v) => v.to_int()?,
    };
    if !matches!(n, 1 | 2 | 4) {
        return Err(cute_core::err!(
            "expects the 'num_matrices' Op parameter to be one of [1,2,4], got {n}"
        ));
    }
    Ok(Value::Atom(Box::new(Atom::Copy(CopyAtom::matrix(
        load, n, transpose,
    )?))))
}

/// CuTeDSL's `cpasync.CopyG2SOp(cache_mode=LoadCacheMode.ALWAYS)`: the SM80 `cp.async` op
/// (`SM80_CP_ASYNC_CACHEALWAYS`, `...CACHEGLOBAL` for `LoadCacheMode.GLOBAL`), whose width
/// `make_copy_atom`'s `num_bits_per_copy` gives.
pub(crate) fn dsl_g2s_op(mode: Option<&Value>) -> Result<Value> {
    Ok(Value::Word(Word::CopyOp(match mode {
        None | Some(Value::Under | Value::Word(Word::CacheMode(CacheMode::Always))) => {
            CopyOp::CpAsyncAlways
        }
        Some(Value::Word(Word::CacheMode(CacheMode::Global))) => CopyOp::CpAsyncGlobal,
        Some(v) => {
            return Err(cute_core::err!(
                "cp.async caches as LoadCacheMode.ALWAYS (cp.async.ca) or LoadCacheMode.GLOBAL (cp.async.cg), got {v}"
            ))
        }
    })))
}

/// CuTeDSL's `cute.make_copy_atom(op, dtype, num_bits_per_copy=N)`: C++'s
/// `Copy_Atom<Op, T>` of the op (`SM80_CP_ASYNC_CACHEALWAYS<uint_bit_t<N>>`,
/// `UniversalCopy<uint_bit_t<N>>`, an LDSM/STSM op), its layouts in `dtype` elements. A
/// universal copy without a width moves one element.
pub(crate) fn dsl_copy_atom(a: &[Value]) -> Result<Value> {
    let ty = &a[1];
    let width = match a.get(2) {
        None | Some(Value::Under) => None,
        Some(v) => Some(v.to_int()?),
    };
    if let Some(w) = width.filter(|w| *w < 0) {
        return Err(cute_core::err!(
            "'num_bits_per_copy' must be a non-negative int, got {w}"
        ));
    }
    let atom = match &a[0] {
        Value::Atom(at) => match &**at {
            Atom::Copy(c) if width.is_none() => c.clone(),
            Atom::Copy(c) => {
                return Err(cute_core::err!(
                    "{} has a fixed width: it takes no num_bits_per_copy",
                    c.name
                ))
            }
            Atom::Mma(m) => {
                return Err(cute_core::err!(
                    "{} is an MMA op: make_copy_atom takes a copy op (make_mma_atom / make_tiled_mma take MMA ops)",
                    m.name
                ))
            }
        },
        Value::Word(Word::CopyOp(op @ (CopyOp::CpAsyncAlways | CopyOp::CpAsyncGlobal))) => {
            let Some(bits) = width.filter(|w| *w > 0) else {
                return Err(Error::new(
                    "expects a 'num_bits_per_copy' kw argument of type int that is positive when creating a copy Atom for CopyG2SOp",
                ));
            };
            let op = cute_core::atom::CpAsyncOp {
                global: *op == CopyOp::CpAsyncGlobal,
                zfill: false,
            };
            cute_core::atom::CopyAtom::cp_async(op, bits)?
        }
        Value::Word(Word::CopyOp(CopyOp::Universal)) => {
            let bits = match width {
                Some(w) if w > 0 => w,
                _ => bits_of(ty)?,
            };
            CopyAtom::universal(bits)?
        }
        v => {
            return Err(cute_core::err!(
                "make_copy_atom takes a copy op (warp.LdMatrix8x8x16bOp(...), cpasync.CopyG2SOp(), cute.nvgpu.CopyUniversalOp()), got {}",
                v.kind()
            ))
        }
    };
    Ok(Value::Atom(Box::new(Atom::Copy(
        atom.with_value_bits(bits_of(ty)?)?,
    ))))
}
