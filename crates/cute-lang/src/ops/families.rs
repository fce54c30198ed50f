//! The family rows: CUTLASS's GMMA op selectors and SM100 builder
//! (`ss_op_selector`, `make_trivial_tiled_mma`), and the CuTeDSL `Mma*Op` constructors
//! (`MmaF16BF16Op`, `MmaUniversalOp`, ...) that name the same atoms. Each converts its
//! arguments to the typed arguments of [`cute_core::umma`], [`cute_core::gmma`] or
//! [`cute_core::atom`] and calls the typed function there, where the rules (name grammar,
//! K, the C++ `static_assert`s, the selectors' choices) live.

use crate::convert::arity;
use crate::convert::{elem_of, major_of};
use crate::value::Value;
use crate::words::{CtaGroup, OperandSource, Word};
use cute_core::atom::{Atom, MmaAtom};
use cute_core::elem::Elem;
use cute_core::error::{Error, Result};
use cute_core::gmma::{self};
use cute_core::smem_atom::AtomMajor;
use cute_core::umma::{self, Sm100Schedule, UmmaArgs, UmmaFamily, UmmaOp, UmmaVariant};

pub(crate) fn atom(a: MmaAtom) -> Value {
    Value::Atom(Box::new(Atom::Mma(a)))
}

/// `UniversalFMA<D[, A, B, C]>`.
pub(crate) fn universal_fma(targs: &[Value]) -> Result<Value> {
    arity("UniversalFMA", targs, 1, 4)?;
    let mut types = Vec::new();
    for t in targs {
        if !matches!(t, Value::Word(_)) {
            return Err(cute_core::err!(
                "UniversalFMA takes element types, got {}",
                t.kind()
            ));
        }
        types.push(elem_of(t)?);
    }
    Ok(atom(MmaAtom::universal_fma(&types)?))
}

/// CuTeDSL `MmaUniversalOp(dtype)`.
pub(crate) fn dsl_universal_op(a: &[Value]) -> Result<Value> {
    universal_fma(a)
}

/// An element type that MMA atom names spell (`half_t` → `F16`).
fn letters(v: &Value) -> Result<Elem> {
    match v {
        Value::Word(Word::Elem(e)) if e.letters().is_some() => Ok(*e),
        v => Err(cute_core::err!("no MMA atom takes {v} here")),
    }
}

/// CuTeDSL `warp.MmaF16BF16Op(ab_dtype, acc_dtype, shape_mnk)` (SM80 `mma.sync`) and
/// `tcgen05.MmaF16BF16Op(ab_dtype, acc_dtype, shape_mnk, cta_group, a_src, a_major, b_major)`.
pub(crate) fn dsl_f16bf16_op(a: &[Value]) -> Result<Value> {
    match a.len() {
        3 => {
            let (ab, acc) = (letters(&a[0])?, letters(&a[1])?);
            let shape = a[2].to_int_tuple()?.leaves();
            Ok(atom(MmaAtom::sm80_f16bf16(ab, acc, &shape)?))
        }
        6 => warpgroup_op(&a[0], &a[0], &a[1], &a[2..]),
        7 => tcgen05_op(UmmaFamily::F16Bf16, &a[0], &a[1], &a[2..]),
        n => Err(cute_core::err!(
            "MmaF16BF16Op takes 3 arguments (warp: ab_dtype, acc_dtype, shape_mnk), 6 (warpgroup: ..., a_src, a_major, b_major) or 7 (tcgen05: ..., cta_group, a_src, a_major, b_major), got {n}"
        )),
    }
}

/// CuTeDSL `tcgen05.MmaTF32Op(shape_mnk, cta_group, a_src, a_major, b_major)`.
pub(crate) fn dsl_tf32_op(a: &[Value]) -> Result<Value> {
    tcgen05_op(
        UmmaFamily::Tf32,
        &Value::Word(Word::Elem(Elem::TF32)),
        &Value::Word(Word::Elem(Elem::F32)),
        a,
    )
}

/// CuTeDSL `tcgen05.MmaI8Op(ab_dtype, shape_mnk, cta_group, a_src, a_major, b_major)` and
/// `warpgroup.MmaI8Op(a_dtype, b_dtype, acc_dtype, shape_mnk, a_src, a_major, b_major)`.
pub(crate) fn dsl_i8_op(a: &[Value]) -> Result<Value> {
    if a.len() == 7 {
        return warpgroup_op(&a[0], &a[1], &a[2], &a[3..]);
    }
    tcgen05_op(
        UmmaFamily::S8,
        &a[0],
        &Value::Word(Word::Elem(Elem::S32)),
        &a[1..],
    )
}

/// A CuTeDSL warpgroup op (`cute/nvgpu/warpgroup/mma.py`) from its types and
/// `(shape_mnk, a_src, a_major, b_major)`: the SM90 GMMA it makes, with the DSL's checks
/// (M is 64, N a multiple of 8 up to 256, K the instruction's; the types of each family).
pub(crate) fn warpgroup_op(ta: &Value, tb: &Value, acc: &Value, rest: &[Value]) -> Result<Value> {
    let [shape, src, maj_a, maj_b] = rest else {
        return Err(Error::new(
            "a warpgroup op takes (types..., shape_mnk, a_src, a_major, b_major)",
        ));
    };
    let types = [letters(ta)?, letters(tb)?, letters(acc)?];
    let dims = shape.to_int_tuple()?.leaves();
    let a_reg = match src {
        Value::Word(Word::Source(OperandSource::Smem)) => false,
        Value::Word(Word::Source(OperandSource::Rmem)) => true,
        v => {
            return Err(cute_core::err!(
                "expected OperandSource.SMEM or RMEM, got {}",
                v.kind()
            ))
        }
    };
    let majors = [major_of(maj_a, "A")?, major_of(maj_b, "B")?];
    let op = gmma::warpgroup_op(types, &dims, a_reg, majors)?;
    Ok(atom(op.atom(majors)?))
}

/// CuTeDSL `sm90_utils.make_trivial_tiled_mma(a_dtype, b_dtype, a_major, b_major, acc_dtype,
/// atom_layout_mnk, tiler_mn[, a_source])` (`cutlass/utils/hopper_helpers.py`): the
/// warpgroup op of the tile's (M, N) tiled over the atom layout.
fn dsl_sm90_trivial_tiled_mma(a: &[Value]) -> Result<Value> {
    let (ta, tb, maj_a, maj_b, acc, atoms, tiler) =
        (&a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6]);
    let src = a
        .get(7)
        .cloned()
        .unwrap_or(Value::Word(Word::Source(OperandSource::Smem)));
    let op = warpgroup_op(
        ta,
        tb,
        acc,
        &[tiler.clone(), src, maj_a.clone(), maj_b.clone()],
    )?;
    let layout = cute_core::layout::Layout::col_major(atoms.to_int_tuple()?)?;
    crate::ops::atoms::make_tiled_mma(&[op, Value::Layout(layout)], &[])
}

/// A tcgen05 op from `(shape_mnk, cta_group, a_src, a_major, b_major)`: the C++ atom
/// (`SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, K, K>`), with the op's checks.
fn tcgen05_op(family: UmmaFamily, ab: &Value, acc: &Value, a: &[Value]) -> Result<Value> {
    let s = a[0].to_int_tuple()?;
    let dims = s.leaves();
    let [m, n, _k] = dims.as_slice() else {
        return Err(cute_core::err!(
            "the instruction shape must be (M, N, K), got {s}"
        ));
    };
    let ab = elem_of(ab)?;
    tcgen05_atom(family, [ab, ab, elem_of(acc)?], [*m, *n], &a[1..])
}

/// CuTeDSL `tcgen05.MmaF8F6F4Op(a_dtype, b_dtype, acc_dtype, shape_mnk, cta_group, a_src,
/// a_major, b_major)`: A and B of independent 8-, 6- or 4-bit float types.
pub(crate) fn dsl_f8f6f4_op(a: &[Value]) -> Result<Value> {
    let s = a[3].to_int_tuple()?;
    let dims = s.leaves();
    let [m, n, _k] = dims.as_slice() else {
        return Err(cute_core::err!(
            "the instruction shape must be (M, N, K), got {s}"
        ));
    };
    let types = [elem_of(&a[0])?, elem_of(&a[1])?, elem_of(&a[2])?];
    tcgen05_atom(UmmaFamily::F8F6F4, types, [*m, *n], &a[4..])
}

/// The tcgen05 op of `family` with `(cta_group, a_src, a_major, b_major)`, with the op's
/// checks.
fn tcgen05_atom(
    family: UmmaFamily,
    types: [Elem; 3],
    [m, n]: [i64; 2],
    a: &[Value],
) -> Result<Value> {
    let two_sm = cta_group(&a[0])?;
    let a_tmem = match &a[1] {
        Value::Word(Word::Source(OperandSource::Smem)) => false,
        Value::Word(Word::Source(OperandSource::Tmem)) => true,
        v => {
            return Err(cute_core::err!(
                "expected OperandSource.SMEM or TMEM, got {}",
                v.kind()
            ))
        }
    };
    let op = UmmaOp {
        family,
        two_sm,
        a_tmem,
        variant: UmmaVariant::Dense,
    };
    let majors = [major_of(&a[2], "A")?, major_of(&a[3], "B")?];
    let args = UmmaArgs::new(op, types, m, n, majors);
    let at = MmaAtom::umma(&args)?;
    at.check_op()?;
    Ok(atom(at))
}

fn cta_group(v: &Value) -> Result<bool> {
    match v {
        Value::Word(Word::CtaGroup(CtaGroup::One)) => Ok(false),
        Value::Word(Word::CtaGroup(CtaGroup::Two)) => Ok(true),
        v => Err(cute_core::err!(
            "expected CtaGroup.ONE or CtaGroup.TWO, got {}",
            v.kind()
        )),
    }
}

/// CuTeDSL `sm100_utils.make_trivial_tiled_mma(a_dtype[, b_dtype], a_major, b_major,
/// acc_dtype, cta_group, mma_tiler_mn[, a_source])` (`cutlass/utils/blackwell_helpers.py`).
pub(crate) fn dsl_trivial_tiled_mma(a: &[Value]) -> Result<Value> {
    // sm90_utils' form: an atom layout (a tuple) where sm100_utils has the CTA group.
    if a.len() >= 7 && matches!(a[5], Value::Tuple(_)) {
        return dsl_sm90_trivial_tiled_mma(a);
    }
    // The legacy form has one A/B type: the second argument is then a major.
    let (ta, tb, rest) = if matches!(a.get(1), Some(Value::Word(Word::Major(_)))) {
        (&a[0], &a[0], &a[1..])
    } else {
        (&a[0], &a[1], a.get(2..).unwrap_or(&[]))
    };
    if !(5..=6).contains(&rest.len()) {
        return Err(cute_core::err!(
            "make_trivial_tiled_mma takes (a_dtype[, b_dtype], a_major, b_major, acc_dtype, cta_group, mma_tiler_mn[, a_source]), got {} arguments",
            a.len()
        ));
    }
    let (a_major, b_major, acc_in, group, tiler) =
        (&rest[0], &rest[1], &rest[2], &rest[3], &rest[4]);
    let src = rest
        .get(5)
        .cloned()
        .unwrap_or(Value::Word(Word::Source(OperandSource::Smem)));
    let mn = tiler.to_int_tuple()?;
    let dims = mn.leaves();
    let [m, n] = dims.as_slice() else {
        return Err(cute_core::err!("mma_tiler_mn must be (M, N), got {mn}"));
    };
    let (family, types) =
        umma::dsl_trivial_mma_types(elem_of(ta)?, elem_of(tb)?, elem_of(acc_in)?)?;
    let op = tcgen05_atom(
        family,
        types,
        [*m, *n],
        &[group.clone(), src, a_major.clone(), b_major.clone()],
    )?;
    crate::ops::atoms::make_tiled_mma(&[op], &[])
}

/// CUTLASS `detail::sm100_make_trivial_tiled_mma<A, B, Acc, TileShape_MNK, ClusterShape_MNK,
/// MajorA, MajorB, ScheduleTag>()` (`sm100_common.inl`): a 2-SM UMMA when the tag asks for
/// one, or for `KernelScheduleAuto` when the cluster's M is even and the tile's M a multiple
/// of 128; else a 1-SM UMMA.
pub(crate) fn sm100_trivial_tiled_mma(a: &[Value]) -> Result<Value> {
    let tile = a[3].to_int_tuple()?;
    let cluster = a[4].to_int_tuple()?;
    let tag = match &a[7] {
        Value::Word(w) => w.name(),
        v => {
            return Err(cute_core::err!(
                "expected a kernel schedule tag, got {}",
                v.kind()
            ))
        }
    };
    let schedule = Sm100Schedule::from_tag(tag).ok_or_else(|| {
        cute_core::err!("sm100_make_trivial_tiled_mma: {tag} is not an SM100 1SM/2SM schedule")
    })?;
    let args = umma::sm100_trivial_mma_op(
        [elem_of(&a[0])?, elem_of(&a[1])?, elem_of(&a[2])?],
        [tile.get(0)?.size()?, tile.get(1)?.size()?],
        match schedule {
            Sm100Schedule::Auto => cluster.get(0)?.size()?,
            _ => 1,
        },
        [major_of(&a[5], "A")?, major_of(&a[6], "B")?],
        schedule,
    )?;
    let at = MmaAtom::umma(&args)?;
    if args.op.traits_form() {
        at.check_op()?;
    }
    crate::ops::atoms::make_tiled_mma(&[atom(at)], &[])
}

/// CUTLASS `SM90::GMMA::ss_op_selector` / `rs_op_selector<A, B, C, TileShape_MNK[, MajorA,
/// MajorB]>()` (`mma_sm90.hpp`): the GMMA of the widest N (256, 192, 128, 96, 64, 32, 16, 8;
/// the extended N shapes are off by default) that divides the tile's N.
pub(crate) fn gmma_op_selector(rs: bool, a: &[Value]) -> Result<Value> {
    let what = if rs {
        "rs_op_selector"
    } else {
        "ss_op_selector"
    };
    let tile = a[3].to_int_tuple()?;
    if tile.rank() != 3 {
        return Err(cute_core::err!(
            "{what}: TileShape_MNK must be rank 3, got {tile}"
        ));
    }
    let tile = [
        tile.get(0)?.size()?,
        tile.get(1)?.size()?,
        tile.get(2)?.size()?,
    ];
    let major = |i: usize, which: &str| a.get(i).map_or(Ok(AtomMajor::K), |v| major_of(v, which));
    let majors = [major(4, "A")?, major(5, "B")?];
    let types = [elem_of(&a[0])?, elem_of(&a[1])?, elem_of(&a[2])?];
    let op = gmma::op_selector(rs, types, tile, majors)?;
    Ok(atom(op.atom(majors)?))
}
