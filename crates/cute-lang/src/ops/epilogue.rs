//! CuTeDSL's Blackwell epilogue helpers (`cutlass/utils/blackwell_helpers.py`, imported as
//! `sm100_utils`): the epilogue tile of a CTA tile, the TMEM load that reads a warp's part
//! of it, and (in `smem`) its staged shared-memory layout. The choices are
//! `cute_core::epilogue`'s, where C++'s builder makes the same ones.

use crate::convert::elem_of;
use crate::ops::atoms::{dsl_copy_atom, dsl_tmem_op};
use crate::value::Value;
use crate::words::{LayoutEnum, Word};
use cute_core::atom::TmemCopy;
use cute_core::collective::GemmLayout;
use cute_core::elem::Elem;
use cute_core::epilogue::{dsl_tmem_load, sm100_epilogue_tile, sm100_tmem_warps};
use cute_core::error::Result;

/// A `LayoutEnum` as the C/D layout tag it stands for (`ROW_MAJOR`: N-major).
fn gemm_layout(v: &Value, what: &str) -> Result<GemmLayout> {
    match v {
        Value::Word(Word::LayoutEnum(LayoutEnum::RowMajor)) => Ok(GemmLayout::RowMajor),
        Value::Word(Word::LayoutEnum(LayoutEnum::ColMajor)) => Ok(GemmLayout::ColumnMajor),
        v => Err(cute_core::err!(
            "{what} must be a LayoutEnum (utils.LayoutEnum.ROW_MAJOR or COL_MAJOR), got {}",
            v.kind()
        )),
    }
}

fn flag(v: &Value, what: &str) -> Result<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        v => Err(cute_core::err!(
            "{what} must be True or False, got {}",
            v.kind()
        )),
    }
}

/// The (M, N) of a CTA tile shape (`(128, 256)`; a third mode is allowed and ignored).
fn cta_mn(v: &Value) -> Result<[i64; 2]> {
    let t = v.to_int_tuple()?;
    if t.rank() < 2 {
        return Err(cute_core::err!(
            "cta_tile_shape must be (M, N[, K]), got {t}"
        ));
    }
    Ok([t.get(0)?.size()?, t.get(1)?.size()?])
}

/// `tmem_warp_shape_mn`, or the default for the CTA tile and the CTA pair.
fn warps(v: Option<&Value>, cta_m: i64, two: bool) -> Result<[i64; 2]> {
    match v {
        None | Some(Value::Under) => Ok(sm100_tmem_warps(cta_m, two)),
        Some(v) => {
            let t = v.to_int_tuple()?;
            if t.rank() != 2 {
                return Err(cute_core::err!(
                    "tmem_warp_shape_mn must be (warp_m, warp_n), got {t}"
                ));
            }
            Ok([t.get(0)?.size()?, t.get(1)?.size()?])
        }
    }
}

/// An element type that may be left out (`elem_ty_c=None`: no source C).
fn optional_elem(v: Option<&Value>) -> Result<Option<Elem>> {
    match v {
        None | Some(Value::Under) => Ok(None),
        Some(v) => elem_of(v).map(Some),
    }
}

/// `sm100_utils.compute_epilogue_tile_shape(cta_tile_shape, use_2cta_instrs, layout_d,
/// elem_ty_d, *, layout_c=None, elem_ty_c=None, tmem_warp_shape_mn=None)`: the epilogue
/// tile as a tile of layouts, `(M:1, N over the TMEM warps)`.
pub(crate) fn compute_epilogue_tile_shape(a: &[Value]) -> Result<Value> {
    let cta = cta_mn(&a[0])?;
    let two = flag(&a[1], "use_2cta_instrs")?;
    let d = (elem_of(&a[3])?, gemm_layout(&a[2], "layout_d")?);
    let c = match optional_elem(a.get(5))? {
        None => None,
        Some(e) => {
            // C's layout defaults to M-major (COL_MAJOR), as the DSL's does.
            let l = match a.get(4) {
                None | Some(Value::Under) => GemmLayout::ColumnMajor,
                Some(v) => gemm_layout(v, "layout_c")?,
            };
            Some((e, l))
        }
    };
    let w = warps(a.get(6), cta[0], two)?;
    let [m, n] = sm100_epilogue_tile(cta, w, d, c, true, false)?;
    Ok(Value::Tuple(vec![m.into(), n.into()]))
}

/// The (M, N) extents of an epilogue tile: a tile of layouts (each mode's size) or of
/// integers.
fn tile_extents(v: &Value) -> Result<[i64; 2]> {
    let Value::Tuple(modes) = v else {
        return Err(cute_core::err!(
            "epi_tile must be a tile (M, N), got {}",
            v.kind()
        ));
    };
    if modes.len() != 2 {
        return Err(cute_core::err!(
            "epi_tile must have two modes (M, N), got {}",
            modes.len()
        ));
    }
    let size = |m: &Value| -> Result<i64> {
        match m {
            Value::Layout(l) => l.size(),
            v => v.to_int_tuple()?.size(),
        }
    };
    Ok([size(&modes[0])?, size(&modes[1])?])
}

/// `sm100_utils.get_tmem_load_op(cta_tile_shape, layout_d, elem_ty_d, elem_ty_acc, epi_tile,
/// use_2cta_instrs, *, tmem_warp_shape_mn=None)`: the `tcgen05.ld` copy atom that reads one
/// warp's part of the epilogue tile.
pub(crate) fn get_tmem_load_op(a: &[Value]) -> Result<Value> {
    let cta = cta_mn(&a[0])?;
    let m_major = gemm_layout(&a[1], "layout_d")? == GemmLayout::ColumnMajor;
    let (d, acc) = (elem_of(&a[2])?, elem_of(&a[3])?);
    let [em, en] = tile_extents(&a[4])?;
    let two = flag(&a[5], "use_2cta_instrs")?;
    let [wm, wn] = warps(a.get(6), cta[0], two)?;
    if wm <= 0 || wn <= 0 || em % wm != 0 || en % wn != 0 {
        return Err(cute_core::err!(
            "the epilogue tile ({em},{en}) does not split over the ({wm},{wn}) TMEM warps"
        ));
    }
    let (dp, bits, rep, pack) = dsl_tmem_load(acc, d, m_major, em / wm, en / wn)?;
    let shape = match (dp, bits) {
        (16, 32) => "16dp32b".to_string(),
        (dp, bits) => format!("{dp}dp{bits}b"),
    };
    let op = dsl_tmem_op(
        TmemCopy::Load,
        &shape,
        &[Value::Int(rep), Value::Bool(pack)],
    )?;
    dsl_copy_atom(&[op, Value::Word(Word::Elem(acc))])
}
