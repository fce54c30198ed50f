//! The shared-memory layout rows: CuTeDSL's smem-atom helpers (`make_smem_layout_atom`,
//! `sm90_utils.make_smem_layout_a/b/epi`, `sm100_utils.make_smem_layout_a/b`,
//! `get_smem_layout_atom`) and UMMA's `tile_to_mma_shape`. The atoms themselves are
//! `cute_core::smem_atom`'s.

use crate::convert::bits_of;
use crate::ops::algebra::{coalesce, tile_to_shape};
use crate::ops::args::Kwargs;
use crate::value::Value;
use crate::words::{LayoutEnum, Word};
use cute_core::atom::Operand;
use cute_core::error::{Error, Result};
use cute_core::int_tuple::IntTuple;
use cute_core::smem_atom::{self, smem_atom, widest_swizzle, AtomMajor, AtomSwizzle};
use cute_core::swizzle::Offset;

/// CuTeDSL's smem atom of a major and swizzle (`make_smem_layout_atom(SmemLayoutAtomKind.KIND,
/// dtype)`): C++'s `Layout_KIND_Atom<T>` with offset 0.
pub(crate) fn dsl_smem_atom(major: AtomMajor, sw: AtomSwizzle, bits: i64) -> Result<Value> {
    // CuTeDSL's atom carries offset 0 where C++'s carries the smem_ptr flag.
    Ok(match smem_atom(major, sw, bits)? {
        cute_core::swizzle::AnyLayout::Composed(mut c) => {
            c.offset = Offset::Int(0);
            Value::Composed(c)
        }
        l => l.into(),
    })
}

/// CuTeDSL `LayoutEnum`: whether it is ROW_MAJOR (else COL_MAJOR).
fn is_row_major(layout: &Value) -> Result<bool> {
    match layout {
        Value::Word(Word::LayoutEnum(l)) => Ok(*l == LayoutEnum::RowMajor),
        v => Err(cute_core::err!("expected a LayoutEnum, got {}", v.kind())),
    }
}

/// CuTeDSL `sm90_utils.get_smem_layout_atom(layout, dtype, major_size)`: the widest swizzle
/// kind whose contiguous bits (1024, 512, 256) divide the major mode's bits.
pub(crate) fn dsl_atom_kind(
    layout: &Value,
    dtype: &Value,
    major: i64,
) -> Result<(AtomMajor, AtomSwizzle)> {
    let row = is_row_major(layout)?;
    if major <= 0 || major % 8 != 0 {
        return Err(cute_core::err!(
            "the major mode size {major} must be a positive multiple of 8"
        ));
    }
    let major_bits = major
        .checked_mul(bits_of(dtype)?)
        .ok_or_else(|| Error::new("the major mode is too large"))?;
    let major = if row { AtomMajor::K } else { AtomMajor::MN };
    Ok((major, widest_swizzle(major_bits)))
}

/// CuTeDSL `sm90_utils.make_smem_layout_{a,b,epi}` (`cutlass/utils/hopper_helpers.py`): the
/// widest swizzle atom whose contiguous bits divide the major mode, tiled over the operand's
/// tile with the stages appended. `which`: `a`, `b` or `c` (epilogue).
pub(crate) fn dsl_smem_layout(which: char, a: &[Value]) -> Result<Value> {
    if let (Value::TiledMma(m), 'a' | 'b') = (&a[0], which) {
        return dsl_sm100_smem_layout(which, m, a);
    }
    let (layout, tile, dtype, stages) = match which {
        'c' => (&a[1], &a[2], &a[0], &a[3]),
        _ => (&a[0], &a[1], &a[2], &a[3]),
    };
    if let (Value::Tuple(t), 'c') = (tile, which) {
        if t.iter().any(|m| matches!(m, Value::Layout(_))) {
            return dsl_sm100_smem_layout_epi(dtype, layout, t, stages);
        }
    }
    let row = is_row_major(layout)?;
    let bits = bits_of(dtype)?;
    let Value::Tuple(t) = tile else {
        return Err(cute_core::err!(
            "expected a tile tuple, got {}",
            tile.kind()
        ));
    };
    let mode = |i: usize| -> Result<Value> {
        t.get(i)
            .cloned()
            .ok_or_else(|| cute_core::err!("the tile has no mode {i}"))
    };
    let size = |i: usize| -> Result<i64> { mode(i)?.to_int_tuple()?.size() };
    // The operand's modes and its contiguous (major) mode.
    let (mut trg, major) = match which {
        'a' => (
            vec![mode(0)?, mode(2)?],
            if row { size(2)? } else { size(0)? },
        ),
        'b' => (
            vec![mode(1)?, mode(2)?],
            if row { size(2)? } else { size(1)? },
        ),
        _ => (t.clone(), if row { size(1)? } else { size(0)? }),
    };
    let (major, sw) = dsl_atom_kind(layout, dtype, major)?;
    let atom = dsl_smem_atom(major, sw, bits)?;
    trg.push(stages.clone());
    tile_rows_or_columns(&atom, trg, row)
}

/// An atom tiled over `(rows, columns, stages)`, row-major buffers along their rows first
/// (order `(0, 1, 2)`), column-major ones down their columns (`(1, 0, 2)`).
fn tile_rows_or_columns(atom: &Value, trg: Vec<Value>, row: bool) -> Result<Value> {
    let order: [i64; 3] = if row { [0, 1, 2] } else { [1, 0, 2] };
    let order = Value::Tuple(order.iter().map(|o| Value::Int(*o)).collect());
    tile_to_shape(atom, &Value::Tuple(trg), Some(&order)).map_err(|e| e.within("tile_to_shape"))
}

/// CuTeDSL `sm100_utils.make_smem_layout_epi(dtype, layout, epi_tile, stages)` of a tile of
/// layouts (`compute_epilogue_tile_shape`'s): the atom over the TMA box (each mode's first
/// contiguous run, `coalesce(right_inverse(mode))`), chosen as for A and B (MN-major 32-bit
/// types take `MN_SW128_32B`), tiled over the modes' sizes with the stages appended.
fn dsl_sm100_smem_layout_epi(
    dtype: &Value,
    layout: &Value,
    tile: &[Value],
    stages: &Value,
) -> Result<Value> {
    if tile.len() != 2 {
        return Err(cute_core::err!(
            "epi_tile must have two modes (M, N), got {}",
            tile.len()
        ));
    }
    let row = is_row_major(layout)?;
    // A Boolean epilogue is staged as Int8, as the DSL does.
    let bits = match bits_of(dtype)? {
        1 => 8,
        b => b,
    };
    let (mut boxes, mut sizes) = (Vec::new(), Vec::new());
    for m in tile {
        match m {
            Value::Layout(l) => {
                let inv = cute_core::layout::right_inverse(l)?;
                let run = cute_core::layout::coalesce(&inv, None)?.shape().size()?;
                boxes.push(run);
                sizes.push(l.size()?);
            }
            v => {
                let n = v.to_int_tuple()?.size()?;
                boxes.push(n);
                sizes.push(n);
            }
        }
    }
    let (major, major_size) = if row {
        (AtomMajor::K, boxes[1])
    } else {
        (AtomMajor::MN, boxes[0])
    };
    let sw = smem_atom::umma_smem_atom_choice(major, major_size, bits)?;
    let atom = dsl_smem_atom(major, sw, bits)?;
    let trg: Vec<Value> = sizes
        .iter()
        .map(|s| Value::Int(*s))
        .chain([stages.clone()])
        .collect();
    tile_rows_or_columns(&atom, trg, row)
}

/// CuTeDSL `cute.size_in_bytes(dtype, layout)`: the layout's cosize (a swizzled layout's
/// outer layout's) in elements of `dtype`, in bytes rounded up; 0 for `None`.
pub(crate) fn size_in_bytes(a: &[Value]) -> Result<Value> {
    let bits = bits_of(&a[0])?;
    let elems = match &a[1] {
        Value::Under => 0,
        Value::Composed(c) => c.layout.cosize()?,
        v => v.to_any_layout()?.inner().cosize()?,
    };
    let b = cute_core::error::arith::mul(elems, bits)?;
    Ok(Value::Int(cute_core::error::arith::add(b, 7)? / 8))
}

/// CuTeDSL tcgen05 `tile_to_mma_shape(atom, mma_tile_shape[, order])`: CuTe's, coalesced to
/// the profile of the MMA tile shape.
pub(crate) fn dsl_tile_to_mma_shape(
    atom: &Value,
    shape: &Value,
    order: Option<&Value>,
) -> Result<Value> {
    let mut args = vec![atom.clone(), shape.clone()];
    args.extend(order.cloned());
    let tiled = tile_to_mma_shape(&args, &[])?;
    coalesce(&tiled, Some(shape)).map_err(|e| e.within("coalesce"))
}

/// CuTeDSL `sm100_utils.make_smem_layout_{a,b}(tiled_mma, mma_tiler_mnk, dtype, stages)`
/// (`cutlass/utils/blackwell_helpers.py`): the operand's MMA tile shape from
/// `partition_shape_A/B`, the widest swizzle atom whose contiguous bits divide its major
/// mode (MN-major 32-bit types take `MN_SW128_32B`), tiled with `tile_to_mma_shape` over
/// the shape with the stages appended, major mode first.
pub(crate) fn dsl_sm100_smem_layout(
    which: char,
    mma: &cute_core::atom::TiledMma,
    a: &[Value],
) -> Result<Value> {
    let tiler = a[1].to_int_tuple()?;
    if tiler.rank() != 3 {
        return Err(cute_core::err!(
            "mma_tiler_mnk must be (M, N, K), got {tiler}"
        ));
    }
    let bits = bits_of(&a[2])?;
    let (mode, op) = if which == 'a' {
        (0, Operand::A)
    } else {
        (1, Operand::B)
    };
    let mn_major = mma.atom.mn_major[mode];
    let shape = IntTuple::Tuple(vec![tiler.get(mode)?.clone(), tiler.get(2)?.clone()]);
    let ps = mma.partition_shape(op, &shape)?;
    let frg = ps.get(0)?;
    let extent = |i: usize| -> Result<i64> {
        cute_core::error::arith::mul(frg.get(i)?.size()?, ps.get(i + 1)?.size()?)
    };
    let major = if mn_major { extent(0)? } else { extent(1)? };
    let major_kind = if mn_major {
        AtomMajor::MN
    } else {
        AtomMajor::K
    };
    let sw = smem_atom::umma_smem_atom_choice(major_kind, major, bits)?;
    let atom = dsl_smem_atom(major_kind, sw, bits)?;
    let mut staged = match ps {
        IntTuple::Tuple(v) => v,
        i => vec![i],
    };
    staged.push(IntTuple::Int(a[3].to_int()?));
    let order: [i64; 3] = if mn_major { [2, 1, 3] } else { [1, 2, 3] };
    let order = Value::Tuple(order.iter().map(|o| Value::Int(*o)).collect());
    dsl_tile_to_mma_shape(&atom, &IntTuple::Tuple(staged).into(), Some(&order))
        .map_err(|e| e.within("tile_to_mma_shape"))
}

/// CuTe `UMMA::tile_to_mma_shape(atom, ((MMA_M, MMA_N), M_MMAs, N_MMAs, ...)[, order])`:
/// `tile_to_shape` over `((MMA_M, M_MMAs), (MMA_N, N_MMAs), ...)`, then `tiled_divide` by
/// `(MMA_M, MMA_N)`.
pub(crate) fn tile_to_mma_shape(a: &[Value], _: &Kwargs) -> Result<Value> {
    let order = crate::ops::args::mode_order(a.get(2))?;
    Ok(smem_atom::tile_to_mma_shape(&a[0].to_any_layout()?, &a[1].to_int_tuple()?, &order)?.into())
}
