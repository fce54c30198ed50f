//! The language's side of the atoms whose traits follow from their template (or
//! constructor) arguments: SM100/SM103 UMMA (`SM100_MMA_*<A, B, C, M, N, MajorA, MajorB>`),
//! SM120 MMAs, SM80 `cp.async` (`SM80_CP_ASYNC_CACHEALWAYS<uint128_t>`), `UniversalFMA<T>`,
//! CUTLASS's GMMA op selectors and SM100 builder, and the CuTeDSL `Mma*Op` constructors
//! that name the same atoms. Each converts the language's values to the typed arguments of
//! [`cute_core::umma`], [`cute_core::gmma`], [`cute_core::sm120`] or [`cute_core::atom`] and
//! calls the typed function there, where the rules (name grammar, K, the C++
//! `static_assert`s, the selectors' choices) live.

use crate::convert::{bits_of, elem_of, major_of, type_name};
use crate::types::arity;
use crate::value::Value;
use cute_core::atom::{Atom, CopyAtom, CpAsyncOp, MmaAtom};
use cute_core::elem::Elem;
use cute_core::error::{Error, Result};
use cute_core::gmma::{self, GmmaOp};
use cute_core::sm120::Sm120Template;
use cute_core::smem_atom::AtomMajor;
use cute_core::umma::{self, Sm100Schedule, UmmaArgs, UmmaFamily, UmmaOp, UmmaVariant};

fn atom(a: MmaAtom) -> Value {
    Value::Atom(Box::new(Atom::Mma(a)))
}

/// The value of a class template of one of these families, or `None` if `name` is not one.
pub(crate) fn template(name: &str, targs: &[Value]) -> Option<Result<Value>> {
    match name {
        "integral_constant" => {
            return Some(arity(name, targs, 2, 2).map(|_| targs[1].clone()));
        }
        "MMA_Traits" if targs.len() > 1 => return Some(f8f6f4_traits(targs)),
        _ => {}
    }
    if !name.starts_with("SM") && name != "UniversalFMA" {
        return None;
    }
    if name.starts_with("SM100_MMA_") {
        return Some(umma_op(name).and_then(|op| umma_template(op, targs)));
    }
    if name.starts_with("SM120_") {
        return Some(sm120_template(name, targs));
    }
    if name.starts_with("SM103_") {
        return Some(
            name.parse()
                .map_err(|_| Error::new(format!(
                    "unknown type '{name}' (the SM103 UMMA ops are SM103_MXF4_ULTRA_SS_VS and SM103_MXF4_ULTRA_2x1SM_SS_VS)"
                )))
                .and_then(|op| umma_template(op, targs)),
        );
    }
    if name.starts_with("SM80_CP_ASYNC_CACHE") {
        return Some(cp_async(name, targs));
    }
    if name == "UniversalFMA" {
        return Some(universal_fma(targs));
    }
    None
}

/// The UMMA op `name` names, or C++'s "unknown type".
fn umma_op(name: &str) -> Result<UmmaOp> {
    name.parse().map_err(|_| {
        Error::new(format!(
            "unknown type '{name}' (the UMMA ops are SM100_MMA_{{TF32,F16BF16,S8,F8F6F4}}[_2x1SM]_{{SS,TS}}, F16BF16 _SS/_TS_SCALED, {{TF32,F16BF16,S8,F8F6F4,MXF8F6F4}}[_2x1SM]_SS_SPARSE, MXF8F6F4/MXF4[_2x1SM]_SS, MXF4NVF4[_2x1SM]_SS_SPARSE)"
        ))
    })
}

/// `SM100_MMA_{TF32,F16BF16,S8,F8F6F4,MXF8F6F4,MXF4,MXF4NVF4}[_2x1SM]_{SS,TS}[_SCALED|_SPARSE]<...>`
/// and `SM103::SM103_MXF4_ULTRA[_2x1SM]_SS_VS<...>`:
/// `<A, B, C, [SF,] M, N, [VS,] MajorA, MajorB, [ScaleC,] [ANeg, BNeg, [CSat]]>`.
fn umma_template(op: UmmaOp, targs: &[Value]) -> Result<Value> {
    if op.traits_form() {
        // CUTLASS 4.2 spells F8F6F4 as a plain op whose MMA_Traits take the arguments;
        // newer CUTLASS makes it a template `<A, B, C, M, N, MajorA, MajorB[, ANeg, BNeg]>`
        // with the same traits. Both are accepted.
        let name = op.to_string();
        arity(&name, targs, 7, 9)?;
        let args = UmmaArgs::new(
            op,
            [
                elem_of(&targs[0])?,
                elem_of(&targs[1])?,
                elem_of(&targs[2])?,
            ],
            targs[3].to_int()?,
            targs[4].to_int()?,
            [major_of(&targs[5], "A")?, major_of(&targs[6], "B")?],
        );
        let at = MmaAtom::umma(&args)?;
        at.check_op()?;
        return Ok(atom(at));
    }
    let p = op.template_params();
    arity(&op.to_string(), targs, p.min, p.max)?;
    let args = UmmaArgs {
        op,
        a: elem_of(&targs[0])?,
        b: elem_of(&targs[1])?,
        c: elem_of(&targs[2])?,
        sf: op.has_sf().then(|| elem_of(&targs[3])).transpose()?,
        m: targs[p.m].to_int()?,
        n: targs[p.n].to_int()?,
        vs: p.vs.map(|i| targs[i].to_int()).transpose()?,
        majors: [
            major_of(&targs[p.major_a], "A")?,
            major_of(&targs[p.major_b], "B")?,
        ],
        scale_c: p.scale_c.map(|i| targs[i].to_int()).transpose()?,
    };
    Ok(atom(MmaAtom::umma(&args)?))
}

/// `MMA_Traits<SM100_MMA_F8F6F4[_2x1SM]_SS, A, B, C, C<M>, C<N>, integral_constant<UMMA::Major,
/// a>, integral_constant<UMMA::Major, b>, integral_constant<UMMA::ScaleIn, an>,
/// integral_constant<UMMA::ScaleIn, bn>>`: the F8F6F4 ops are not templates; their traits
/// take the types, sizes and majors and hold the M/N checks.
fn f8f6f4_traits(targs: &[Value]) -> Result<Value> {
    let op = match &targs[0] {
        Value::Keyword(k @ ("SM100_MMA_F8F6F4_SS" | "SM100_MMA_F8F6F4_2x1SM_SS")) => *k,
        v => {
            return Err(Error::new(format!(
                "MMA_Traits<Op, ...> with arguments after the op is SM100_MMA_F8F6F4_SS's or SM100_MMA_F8F6F4_2x1SM_SS's form, got {}",
                type_name(v)
            )))
        }
    };
    arity(op, &targs[1..], 9, 9)?;
    let t = &targs[1..];
    let args = UmmaArgs::new(
        op.parse()?,
        [elem_of(&t[0])?, elem_of(&t[1])?, elem_of(&t[2])?],
        t[3].to_int()?,
        t[4].to_int()?,
        [major_of(&t[5], "A")?, major_of(&t[6], "B")?],
    );
    let at = MmaAtom::umma(&args)?;
    at.check_op()?;
    Ok(atom(at))
}

/// `SM120_16x8x32_TN<A, B, C>` and the block-scaled / sparse SM120 templates
/// (`<A, B, C, SF, VS>`).
fn sm120_template(name: &str, targs: &[Value]) -> Result<Value> {
    let t: Sm120Template = name.parse()?;
    arity(name, targs, t.arity(), t.arity())?;
    let n_types = if t.has_vs() { 4 } else { 3 };
    let types = targs[..n_types]
        .iter()
        .map(elem_of)
        .collect::<Result<Vec<_>>>()?;
    let vs = targs.get(4).map(Value::to_int).transpose()?;
    Ok(atom(t.atom(&types, vs)?))
}

/// `SM80_CP_ASYNC_CACHE{ALWAYS,GLOBAL}[_ZFILL]<TS[, TD]>`: the table's atom of that width.
fn cp_async(name: &str, targs: &[Value]) -> Result<Value> {
    let op: CpAsyncOp = name.parse()?;
    arity(name, targs, 1, 2)?;
    let bits = bits_of(&targs[0])?;
    if let Some(td) = targs.get(1) {
        if bits_of(td)? != bits {
            return Err(Error::new(format!(
                "{name}<TS, TD>: TS and TD must have the same size, got {} and {}",
                type_name(&targs[0]),
                type_name(td)
            )));
        }
    }
    // Naming the op instantiates only its traits; making it (`Op{}`, `Copy_Atom<Op, T>`)
    // runs its static_assert (check_instance, with_value_bits).
    Ok(Value::Atom(Box::new(Atom::Copy(
        CopyAtom::cp_async_traits(op, bits)?,
    ))))
}

/// `UniversalFMA<D[, A, B, C]>`.
fn universal_fma(targs: &[Value]) -> Result<Value> {
    arity("UniversalFMA", targs, 1, 4)?;
    let mut types = Vec::new();
    for t in targs {
        if !matches!(t, Value::Keyword(_)) {
            return Err(Error::new(format!(
                "UniversalFMA takes element types, got {}",
                t.kind()
            )));
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
    let t = type_name(v);
    Elem::from_cpp(&t)
        .filter(|e| e.letters().is_some())
        .ok_or_else(|| Error::new(format!("no MMA atom takes {t} here")))
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
        n => Err(Error::new(format!(
            "MmaF16BF16Op takes 3 arguments (warp: ab_dtype, acc_dtype, shape_mnk), 6 (warpgroup: ..., a_src, a_major, b_major) or 7 (tcgen05: ..., cta_group, a_src, a_major, b_major), got {n}"
        ))),
    }
}

/// CuTeDSL `tcgen05.MmaTF32Op(shape_mnk, cta_group, a_src, a_major, b_major)`.
pub(crate) fn dsl_tf32_op(a: &[Value]) -> Result<Value> {
    tcgen05_op(
        UmmaFamily::Tf32,
        &Value::Keyword("tfloat32_t"),
        &Value::Keyword("float"),
        a,
    )
}

/// CuTeDSL `tcgen05.MmaI8Op(ab_dtype, shape_mnk, cta_group, a_src, a_major, b_major)` and
/// `warpgroup.MmaI8Op(a_dtype, b_dtype, acc_dtype, shape_mnk, a_src, a_major, b_major)`.
pub(crate) fn dsl_i8_op(a: &[Value]) -> Result<Value> {
    if a.len() == 7 {
        return warpgroup_op(&a[0], &a[1], &a[2], &a[3..]);
    }
    tcgen05_op(UmmaFamily::S8, &a[0], &Value::Keyword("int32_t"), &a[1..])
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
        Value::Keyword("OperandSource.SMEM") => false,
        Value::Keyword("OperandSource.RMEM") => true,
        v => {
            return Err(Error::new(format!(
                "expected OperandSource.SMEM or RMEM, got {}",
                v.kind()
            )))
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
        .unwrap_or(Value::Keyword("OperandSource.SMEM"));
    let op = warpgroup_op(
        ta,
        tb,
        acc,
        &[tiler.clone(), src, maj_a.clone(), maj_b.clone()],
    )?;
    let layout = cute_core::layout::Layout::col_major(atoms.to_int_tuple()?)?;
    crate::atom_args::make_tiled_mma(&[op, Value::Layout(layout)], &[])
}

/// A tcgen05 op from `(shape_mnk, cta_group, a_src, a_major, b_major)`: the C++ atom
/// (`SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, K, K>`), with the op's checks.
fn tcgen05_op(family: UmmaFamily, ab: &Value, acc: &Value, a: &[Value]) -> Result<Value> {
    let s = a[0].to_int_tuple()?;
    let dims = s.leaves();
    let [m, n, _k] = dims.as_slice() else {
        return Err(Error::new(format!(
            "the instruction shape must be (M, N, K), got {s}"
        )));
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
        return Err(Error::new(format!(
            "the instruction shape must be (M, N, K), got {s}"
        )));
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
        Value::Keyword("OperandSource.SMEM") => false,
        Value::Keyword("OperandSource.TMEM") => true,
        v => {
            return Err(Error::new(format!(
                "expected OperandSource.SMEM or TMEM, got {}",
                v.kind()
            )))
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
        Value::Keyword("CtaGroup.ONE") => Ok(false),
        Value::Keyword("CtaGroup.TWO") => Ok(true),
        v => Err(Error::new(format!(
            "expected CtaGroup.ONE or CtaGroup.TWO, got {}",
            v.kind()
        ))),
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
    let (ta, tb, rest) = if matches!(a.get(1), Some(Value::Keyword("Major::K" | "Major::MN"))) {
        (&a[0], &a[0], &a[1..])
    } else {
        (&a[0], &a[1], a.get(2..).unwrap_or(&[]))
    };
    if !(5..=6).contains(&rest.len()) {
        return Err(Error::new(format!(
            "make_trivial_tiled_mma takes (a_dtype[, b_dtype], a_major, b_major, acc_dtype, cta_group, mma_tiler_mn[, a_source]), got {} arguments",
            a.len()
        )));
    }
    let (a_major, b_major, acc_in, group, tiler) =
        (&rest[0], &rest[1], &rest[2], &rest[3], &rest[4]);
    let src = rest
        .get(5)
        .cloned()
        .unwrap_or(Value::Keyword("OperandSource.SMEM"));
    let mn = tiler.to_int_tuple()?;
    let dims = mn.leaves();
    let [m, n] = dims.as_slice() else {
        return Err(Error::new(format!("mma_tiler_mn must be (M, N), got {mn}")));
    };
    let (family, types) =
        umma::dsl_trivial_mma_types(elem_of(ta)?, elem_of(tb)?, elem_of(acc_in)?)?;
    let op = tcgen05_atom(
        family,
        types,
        [*m, *n],
        &[group.clone(), src, a_major.clone(), b_major.clone()],
    )?;
    crate::atom_args::make_tiled_mma(&[op], &[])
}

/// CUTLASS `detail::sm100_make_trivial_tiled_mma<A, B, Acc, TileShape_MNK, ClusterShape_MNK,
/// MajorA, MajorB, ScheduleTag>()` (`sm100_common.inl`): a 2-SM UMMA when the tag asks for
/// one, or for `KernelScheduleAuto` when the cluster's M is even and the tile's M a multiple
/// of 128; else a 1-SM UMMA.
pub(crate) fn sm100_trivial_tiled_mma(a: &[Value]) -> Result<Value> {
    let tile = a[3].to_int_tuple()?;
    let cluster = a[4].to_int_tuple()?;
    let tag = match &a[7] {
        Value::Keyword(k) => *k,
        v => {
            return Err(Error::new(format!(
                "expected a kernel schedule tag, got {}",
                v.kind()
            )))
        }
    };
    let schedule = Sm100Schedule::from_tag(tag).ok_or_else(|| {
        Error::new(format!(
            "sm100_make_trivial_tiled_mma: {tag} is not an SM100 1SM/2SM schedule"
        ))
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
    crate::atom_args::make_tiled_mma(&[atom(at)], &[])
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
        return Err(Error::new(format!(
            "{what}: TileShape_MNK must be rank 3, got {tile}"
        )));
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

/// The `static_assert`s of an op struct, which C++ checks when a value of it is made
/// (`make_tiled_mma(Op{})`) but not when only its traits are named (`MMA_Traits<Op>`).
pub(crate) fn check_instance(ty: &str, v: &Value) -> Result<()> {
    // `Copy_Traits<Op>{}` makes the traits, not the op.
    if ty == "Copy_Traits" {
        return Ok(());
    }
    match v {
        Value::Atom(a) => match &**a {
            Atom::Mma(m) => m.check_op(),
            Atom::Copy(c) => c.check_op(),
        },
        _ => Ok(()),
    }
}

/// Whether C++ declares `name` as a class template: the GMMA ops but the integer dense ones
/// ([`GmmaOp::is_class_template`]), the SM100 and SM103 UMMA ops (but the F8F6F4 ones whose
/// traits take the arguments), the SM120 MMAs.
pub(crate) fn is_class_template(name: &str) -> bool {
    name.parse::<GmmaOp>()
        .is_ok_and(|op| op.is_class_template())
        || name.parse::<UmmaOp>().is_ok_and(|op| !op.traits_form())
        || name.parse::<Sm120Template>().is_ok()
}
