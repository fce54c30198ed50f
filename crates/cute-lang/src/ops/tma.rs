//! The TMA rows: `make_tma_copy`/`make_tma_atom` and their boxes, `tma_partition`, and
//! the swizzle words of a TMA descriptor (`get_tma_swizzle_bits`, `to_CUtensorMapSwizzle`).
//! The TMA model is `cute_core::tma`'s.

use crate::convert::bits_of;
use crate::ops::tensors::tensor;
use crate::value::Value;
use crate::words::{CuSwizzle, TmaSwizzleBase, TmaSwizzleBits, Word};
use cute_core::error::{Error, Result};
use cute_core::int_tuple::IntTuple;
use cute_core::layout::Layout;

/// `get_swizzle_portion(x)`: a layout's swizzle (`Sw<0,4,3>`, the identity, for a plain
/// layout).
fn swizzle_portion(v: &Value) -> Result<cute_core::Swizzle> {
    match v {
        Value::Swizzle(s) => Ok(*s),
        Value::Composed(c) => Ok(c.swizzle),
        Value::Layout(_) => cute_core::Swizzle::new(0, 4, 3),
        v => Err(cute_core::err!(
            "expected a swizzle or a (composed) layout, got {}",
            v.kind()
        )),
    }
}

/// `detail::get_tma_swizzle_bits(x)`: the TMA swizzle width of a layout's swizzle, with
/// C++'s static_asserts.
pub(crate) fn tma_swizzle_bits(v: &Value) -> Result<Value> {
    let s = swizzle_portion(v)?;
    Ok(Value::Word(Word::TmaSwizzleBits(match (s.m, s.b) {
        (4, 3) => TmaSwizzleBits::B128,
        (4, 2) => TmaSwizzleBits::B64,
        (4, 1) => TmaSwizzleBits::B32,
        (4, 0) => TmaSwizzleBits::Disable,
        (4, _) => {
            return Err(Error::new(
                "Expected B = 0,1,2, or 3 when M == 4. Unsupported layout swizzle.",
            ))
        }
        (5 | 6, 2) => TmaSwizzleBits::B128,
        (5 | 6, _) => {
            return Err(Error::new(
                "Expected B = 2 when M == 5 or 6. Unsupported layout swizzle.",
            ))
        }
        _ => return Err(cute_core::err!("{s}: Unsupported layout swizzle.")),
    })))
}

/// `detail::get_tma_swizzle_base(x)`: the TMA swizzle atom's base, with C++'s
/// static_asserts (their messages as C++ spells them).
pub(crate) fn tma_swizzle_base(v: &Value) -> Result<Value> {
    let s = swizzle_portion(v)?;
    let fail = |m: &str| Err(Error::new(m.to_string()));
    Ok(Value::Word(Word::TmaSwizzleBase(match s.m {
        4 if !(0..=3).contains(&s.b) => {
            return fail("Expected B = 0,1,2, or 3 when M == 4. Unsupported layout swizzle.")
        }
        4 if s.s != 3 => return fail("Expected S = 3 when M == 4. Unsupported layout swizzle."),
        4 => TmaSwizzleBase::Base16B,
        5 if s.b != 2 => return fail("Expected B = 2 when M == 5. Unsupported layout swizzle."),
        5 if s.s != 2 => return fail("Expected S = 2 when M == 5. Unsupported layout swizzle."),
        5 => TmaSwizzleBase::Base32B,
        // C++'s message names M == 5 here too.
        6 if s.b != 2 => return fail("Expected B = 2 when M == 5. Unsupported layout swizzle."),
        6 => TmaSwizzleBase::Base64B,
        _ => return fail("Expected 128b=16B=(2^4)B to 512b=64B=(2^6)B base swizzle."),
    })))
}

/// `TMA::to_CUtensorMapSwizzle(bits, base)`: the driver's swizzle mode (as nvcc 12.7+
/// compiles it: the 32B/64B-atom 128B modes exist there).
pub(crate) fn to_cu_swizzle(bits: &Value, base: &Value) -> Result<Value> {
    let (Value::Word(bw), Value::Word(aw)) = (bits, base) else {
        return Err(Error::new(
            "expected TMA::SmemSwizzleBits::* and TMA::SmemSwizzleBase::* (get_tma_swizzle_bits/base give them)",
        ));
    };
    let Word::TmaSwizzleBits(b) = bw else {
        return Err(cute_core::err!(
            "expected TMA::SmemSwizzleBits::*, got {bw}"
        ));
    };
    let a = match aw {
        Word::TmaSwizzleBase(a) => Some(*a),
        _ => None,
    };
    let need16 = |mode: CuSwizzle, what: &str| {
        if a == Some(TmaSwizzleBase::Base16B) {
            Ok(mode)
        } else {
            Err(cute_core::err!(
                "Expected 16B swizzle base for {what} swizzle bits."
            ))
        }
    };
    Ok(Value::Word(Word::CuSwizzle(match b {
        TmaSwizzleBits::Disable => need16(CuSwizzle::None, "0B")?,
        TmaSwizzleBits::B32 => need16(CuSwizzle::S32B, "32B")?,
        TmaSwizzleBits::B64 => need16(CuSwizzle::S64B, "64B")?,
        TmaSwizzleBits::B128 => match a {
            Some(TmaSwizzleBase::Base16B) => CuSwizzle::S128B,
            Some(TmaSwizzleBase::Base32B) => CuSwizzle::S128BAtom32B,
            Some(TmaSwizzleBase::Base64B) => CuSwizzle::S128BAtom64B,
            None => {
                return Err(Error::new(
                    "Unsupported pair of SmemSwizzleBits and SmemSwizzleBase!",
                ))
            }
        },
    })))
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
        return Err(cute_core::err!(
            "{what}({op}{{}}, gmem_tensor, smem_layout, ...) needs the gmem tensor and the smem layout"
        ));
    }
    let g = tensor(&a[0]).map_err(|e| e.within(what))?;
    let s = a[1].to_any_layout().map_err(|e| e.within(what))?;
    let cluster = |v: &Value| -> Result<i64> {
        v.to_int().map_err(|_| {
            cute_core::err!(
                "{what}: the cluster size is an integer (Int<2>{{}}), got {}",
                v.kind()
            )
        })
    };
    let (tiler, n) = match (tiled, &a[2..]) {
        (true, []) => (None, 1),
        (true, [c]) => (None, cluster(c)?),
        (_, [t]) => (Some(t.to_int_tuple()?), 1),
        (_, [t, c]) => (Some(t.to_int_tuple()?), cluster(c)?),
        _ => return Err(cute_core::err!("{what}: too many arguments")),
    };
    if tiled {
        let c = cute_core::tma_copy::make_tma_copy(op, g, &s, tiler.as_ref(), n)?;
        Ok(Value::TiledCopy(Box::new(c)))
    } else {
        let c = cute_core::tma_copy::make_tma_atom(op, g, &s, tiler.as_ref(), n)?;
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
        cute_core::err!(
            "expected a TMA copy (make_tma_copy(SM90_TMA_LOAD{{}}, gmem_tensor, smem_layout) or make_tma_atom), got {}",
            v.kind()
        )
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
    let (gs, ss) = cute_core::tma_copy::tma_partition(tma, coord, &layout, tensor(s)?, tensor(g)?)?;
    let (gs, ss) = (Value::Tensor(Box::new(gs)), Value::Tensor(Box::new(ss)));
    Ok(Value::Tuple(if smem_first {
        vec![ss, gs]
    } else {
        vec![gs, ss]
    }))
}
