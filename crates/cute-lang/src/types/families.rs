//! The class templates of the atom families whose traits follow from their template
//! arguments: SM100/SM103 UMMA (`SM100_MMA_*<A, B, C, M, N, MajorA, MajorB>`), SM120 MMAs,
//! SM80 `cp.async` (`SM80_CP_ASYNC_CACHEALWAYS<uint128_t>`), `UniversalFMA<T>`,
//! `MMA_Traits` of the F8F6F4 ops, and the `static_assert`s C++ checks when a value of an op
//! is made. Each converts the template arguments and calls the typed function of
//! [`cute_core::umma`], [`cute_core::sm120`] or [`cute_core::atom`].

use crate::convert::arity;
use crate::convert::{bits_of, elem_of, major_of};
use crate::ops::families::{atom, universal_fma};
use crate::value::Value;
use crate::words::Word;
use cute_core::atom::{Atom, CopyAtom, CpAsyncOp, MmaAtom};
use cute_core::error::Result;
use cute_core::gmma::GmmaOp;
use cute_core::sm120::Sm120Template;
use cute_core::umma::{UmmaArgs, UmmaOp};

/// The value of a class template of one of these families, or `None` if `name` is not one.
pub(crate) fn template(name: &str, targs: &[Value]) -> Option<Result<Value>> {
    match name {
        "integral_constant" => {
            return Some(arity(name, targs, 2, 2).map(|_| targs[1].clone()));
        }
        "MMA_Traits" if targs.len() > 1 => return Some(f8f6f4_traits(targs)),
        _ => {}
    }
    if !cute_core::atom::is_atom_like_name(name) && name != "UniversalFMA" {
        return None;
    }
    let umma = cute_core::umma::UmmaNaming::of(name);
    if umma == Some(cute_core::umma::UmmaNaming::Sm100) {
        return Some(umma_op(name).and_then(|op| umma_template(op, targs)));
    }
    if Sm120Template::is_named(name) {
        return Some(sm120_template(name, targs));
    }
    if umma == Some(cute_core::umma::UmmaNaming::Sm103) {
        return Some(
            name.parse()
                .map_err(|_| cute_core::err!(
                    "unknown type '{name}' (the SM103 UMMA ops are SM103_MXF4_ULTRA_SS_VS and SM103_MXF4_ULTRA_2x1SM_SS_VS)"
                ))
                .and_then(|op| umma_template(op, targs)),
        );
    }
    if cute_core::atom::CpAsyncOp::is_named(name) {
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
        cute_core::err!(
            "unknown type '{name}' (the UMMA ops are SM100_MMA_{{TF32,F16BF16,S8,F8F6F4}}[_2x1SM]_{{SS,TS}}, F16BF16 _SS/_TS_SCALED, {{TF32,F16BF16,S8,F8F6F4,MXF8F6F4}}[_2x1SM]_SS_SPARSE, MXF8F6F4/MXF4[_2x1SM]_SS, MXF4NVF4[_2x1SM]_SS_SPARSE)"
        )
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
        Value::Word(Word::F8f6f4(op)) => op.name(),
        v => {
            return Err(cute_core::err!(
                "MMA_Traits<Op, ...> with arguments after the op is SM100_MMA_F8F6F4_SS's or SM100_MMA_F8F6F4_2x1SM_SS's form, got {}",
                v
            ))
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
            return Err(cute_core::err!(
                "{name}<TS, TD>: TS and TD must have the same size, got {} and {}",
                targs[0],
                td
            ));
        }
    }
    // Naming the op instantiates only its traits; making it (`Op{}`, `Copy_Atom<Op, T>`)
    // runs its static_assert (check_instance, with_value_bits).
    Ok(Value::Atom(Box::new(Atom::Copy(
        CopyAtom::cp_async_traits(op, bits)?,
    ))))
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

/// Whether C++ has no value `name{}` of the template without arguments: the GMMA ops of
/// either major (`SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>`), the UMMA
/// and SM120 templates; the `_TN` GMMAs default every argument (`SM90_64x64x8_F32TF32TF32_SS_TN{}`).
/// The arguments to give, as C++ declares them, where it has none.
pub(crate) fn needs_template_args(name: &str) -> Option<&'static str> {
    if name
        .parse::<GmmaOp>()
        .is_ok_and(|op| op.is_class_template() && !op.tn)
    {
        Some("<GMMA::Major::K, GMMA::Major::K>")
    } else if name.parse::<UmmaOp>().is_ok_and(|op| !op.traits_form()) {
        Some("<a_type, b_type, c_type, M, N, UMMA::Major::K, UMMA::Major::K>")
    } else if name.parse::<Sm120Template>().is_ok() {
        Some("<a_type, b_type, c_type>")
    } else {
        None
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
