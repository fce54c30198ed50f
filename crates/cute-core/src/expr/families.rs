//! Atoms whose traits follow from their template (or constructor) arguments: SM100 UMMA
//! (`SM100_MMA_*<A, B, C, M, N, MajorA, MajorB>`), SM80 `cp.async`
//! (`SM80_CP_ASYNC_CACHEALWAYS<uint128_t>`), `UniversalFMA<T>`, CUTLASS's GMMA op selectors
//! and SM100 builder, and the CuTeDSL `Mma*Op` constructors that name the same atoms.

use super::types::{arity, bits_of, major_of, type_name, widest_swizzle};
use crate::atom::{Atom, MmaAtom};
use crate::error::{Error, Result};
use crate::smem_atom::AtomMajor;
use crate::value::Value;

fn atom(a: MmaAtom) -> Value {
    Value::Atom(Box::new(Atom::Mma(a)))
}

/// Whether the major given for `which` is MN (`GMMA::Major::MN`, `UMMA::Major::MN`).
pub(crate) fn is_mn_major(v: &Value, which: &str) -> Result<bool> {
    Ok(major_of(v, which)? == AtomMajor::MN)
}

/// The value of a class template of one of these families, or `None` if `name` is not one.
pub(crate) fn template(name: &str, targs: &[Value]) -> Option<Result<Value>> {
    if !name.starts_with("SM") && name != "UniversalFMA" {
        return None;
    }
    if name.starts_with("SM100_MMA_") {
        return Some(umma_template(name, targs));
    }
    if let Some(cache) = name.strip_prefix("SM80_CP_ASYNC_CACHE") {
        return Some(cp_async(name, cache, targs));
    }
    if name == "UniversalFMA" {
        return Some(universal_fma(targs));
    }
    None
}

/// `SM100_MMA_{TF32,F16BF16,S8}[_2x1SM]_{SS,TS}<A, B, C, M, N, MajorA, MajorB[, ANeg, BNeg]>`.
fn umma_template(name: &str, targs: &[Value]) -> Result<Value> {
    let rest = &name["SM100_MMA_".len()..];
    let (family, rest) = rest
        .split_once('_')
        .ok_or_else(|| Error::new(format!("unknown type '{name}'")))?;
    let (two_sm, src) = match rest.strip_prefix("2x1SM_") {
        Some(s) => (true, s),
        None => (false, rest),
    };
    let bits = match (family, src) {
        ("TF32", "SS" | "TS") => 32,
        ("F16BF16", "SS" | "TS") => 16,
        ("S8", "SS" | "TS") => 8,
        _ => {
            return Err(Error::new(format!(
                "{name}: only the dense SM100_MMA_{{TF32,F16BF16,S8}}[_2x1SM]_{{SS,TS}} UMMA atoms are modelled (F8F6F4, block-scaled, sparse and scaled ones are not yet)"
            )))
        }
    };
    arity(name, targs, 7, 9)?;
    let (a, b) = (bits_of(&targs[0])?, bits_of(&targs[1])?);
    if a != bits || b != bits {
        return Err(Error::new(format!(
            "{name} supports {bits}-bit A and B types, got {} and {}",
            type_name(&targs[0]),
            type_name(&targs[1])
        )));
    }
    bits_of(&targs[2])?;
    let (m, n) = (targs[3].to_int()?, targs[4].to_int()?);
    let majors = [is_mn_major(&targs[5], "A")?, is_mn_major(&targs[6], "B")?];
    let full = format!(
        "{name}<{},{},{},{m},{n},{},{}>",
        type_name(&targs[0]),
        type_name(&targs[1]),
        type_name(&targs[2]),
        if majors[0] { "MN" } else { "K" },
        if majors[1] { "MN" } else { "K" },
    );
    let mut at = MmaAtom::umma(full, bits, m, n, two_sm)?;
    at.mn_major = majors;
    Ok(atom(at))
}

/// `SM80_CP_ASYNC_CACHE{ALWAYS,GLOBAL}[_ZFILL]<TS[, TD]>`: the table's atom of that width.
fn cp_async(name: &str, cache: &str, targs: &[Value]) -> Result<Value> {
    if !matches!(cache, "ALWAYS" | "GLOBAL" | "ALWAYS_ZFILL" | "GLOBAL_ZFILL") {
        return Err(Error::new(format!("unknown type '{name}'")));
    }
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
    let widths: &[i64] = if cache.starts_with("GLOBAL") {
        &[128]
    } else {
        &[32, 64, 128]
    };
    if !widths.contains(&bits) {
        return Err(Error::new(format!(
            "{name} copies {} bits, not {bits} (cp.async{} moves {} bytes)",
            widths
                .iter()
                .map(|w| w.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            if cache.starts_with("GLOBAL") {
                ".cg"
            } else {
                ".ca"
            },
            widths
                .iter()
                .map(|w| (w / 8).to_string())
                .collect::<Vec<_>>()
                .join("/")
        )));
    }
    Atom::lookup(&format!("{name}_{bits}")).map(|a| Value::Atom(Box::new(a)))
}

/// `UniversalFMA<D[, A, B, C]>`.
fn universal_fma(targs: &[Value]) -> Result<Value> {
    arity("UniversalFMA", targs, 1, 4)?;
    for t in targs {
        if !matches!(t, Value::Keyword(_)) {
            return Err(Error::new(format!(
                "UniversalFMA takes element types, got {}",
                t.kind()
            )));
        }
        bits_of(t)?;
    }
    let names: Vec<String> = targs.iter().map(type_name).collect();
    Ok(atom(MmaAtom::universal_fma(format!(
        "UniversalFMA<{}>",
        names.join(",")
    ))?))
}

/// CuTeDSL `MmaUniversalOp(dtype)`.
pub(crate) fn dsl_universal_op(a: &[Value]) -> Result<Value> {
    universal_fma(a)
}

/// Letters of an element type in an atom name (`half_t` → `F16`).
fn letters(v: &Value) -> Result<&'static str> {
    Ok(match type_name(v).as_str() {
        "half_t" => "F16",
        "bfloat16_t" => "BF16",
        "float" => "F32",
        "tfloat32_t" => "TF32",
        "double" => "F64",
        "float_e4m3_t" => "E4M3",
        "float_e5m2_t" => "E5M2",
        "int8_t" => "S8",
        "uint8_t" => "U8",
        "int32_t" => "S32",
        t => return Err(Error::new(format!("no MMA atom takes {t} here",))),
    })
}

/// CuTeDSL `warp.MmaF16BF16Op(ab_dtype, acc_dtype, shape_mnk)` (SM80 `mma.sync`) and
/// `tcgen05.MmaF16BF16Op(ab_dtype, acc_dtype, shape_mnk, cta_group, a_src, a_major, b_major)`.
pub(crate) fn dsl_f16bf16_op(a: &[Value]) -> Result<Value> {
    match a.len() {
        3 => {
            let (ab, acc) = (letters(&a[0])?, letters(&a[1])?);
            if !matches!(ab, "F16" | "BF16") || !matches!(acc, "F16" | "F32") || (ab, acc) == ("BF16", "F16") {
                return Err(Error::new(format!(
                    "MmaF16BF16Op: A/B must be Float16 or BFloat16 and the accumulator Float16 (Float16 inputs) or Float32, got {ab} and {acc}"
                )));
            }
            let s = a[2].to_int_tuple()?;
            let dims = s.leaves();
            if !matches!(dims.as_slice(), [16, 8, 16] | [16, 8, 8]) {
                return Err(Error::new(format!(
                    "MmaF16BF16Op: the SM80 instruction shape is (16, 8, 8) or (16, 8, 16), got {s}"
                )));
            }
            let name = format!("SM80_16x8x{}_{acc}{ab}{ab}{acc}_TN", dims[2]);
            Atom::lookup(&name).map(|a| Value::Atom(Box::new(a)))
        }
        6 => warpgroup_op(&a[0], &a[0], &a[1], &a[2..]),
        7 => tcgen05_op("F16BF16", &a[0], &a[1], &a[2..]),
        n => Err(Error::new(format!(
            "MmaF16BF16Op takes 3 arguments (warp: ab_dtype, acc_dtype, shape_mnk), 6 (warpgroup: ..., a_src, a_major, b_major) or 7 (tcgen05: ..., cta_group, a_src, a_major, b_major), got {n}"
        ))),
    }
}

/// CuTeDSL `tcgen05.MmaTF32Op(shape_mnk, cta_group, a_src, a_major, b_major)`.
pub(crate) fn dsl_tf32_op(a: &[Value]) -> Result<Value> {
    tcgen05_op(
        "TF32",
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
    tcgen05_op("S8", &a[0], &Value::Keyword("int32_t"), &a[1..])
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
    let (a, b, c) = (letters(ta)?, letters(tb)?, letters(acc)?);
    let fp8 = |t: &str| matches!(t, "E4M3" | "E5M2");
    let int8 = |t: &str| matches!(t, "S8" | "U8");
    let (k, tn) = match (a, b, c) {
        ("F16", "F16", "F16" | "F32") | ("BF16", "BF16", "F32") => (16, false),
        (x, y, "F16" | "F32") if fp8(x) && fp8(y) => (32, true),
        (x, y, "S32") if int8(x) && int8(y) => (32, true),
        _ => {
            return Err(Error::new(format!(
                "no warpgroup MMA for A = {a}, B = {b}, accumulator {c} (F16/BF16 with F16/F32, FP8 with F16/F32, 8-bit integers with Int32)"
            )))
        }
    };
    let s = shape.to_int_tuple()?;
    let dims = s.leaves();
    let (m, n) = match dims.as_slice() {
        [m, n] => (*m, *n),
        [m, n, kk] if *kk == k => (*m, *n),
        [_, _, kk] => {
            return Err(Error::new(format!(
                "the warpgroup instruction's K is {k} for {a}, got {kk}"
            )))
        }
        _ => {
            return Err(Error::new(format!(
                "expected a flat rank 2 or 3 instruction shape (M, N[, K]), got {s}"
            )))
        }
    };
    if m != 64 {
        return Err(Error::new(format!("the warpgroup MMA's M is 64, got {m}")));
    }
    if !(8..=256).contains(&n) || n % 8 != 0 {
        return Err(Error::new(format!(
            "the warpgroup MMA's N is a multiple of 8 from 8 to 256, got {n}"
        )));
    }
    let rs = match src {
        Value::Keyword("OperandSource.SMEM") => false,
        Value::Keyword("OperandSource.RMEM") => true,
        v => {
            return Err(Error::new(format!(
                "expected OperandSource.SMEM or RMEM, got {}",
                v.kind()
            )))
        }
    };
    let majors = [is_mn_major(maj_a, "A")?, is_mn_major(maj_b, "B")?];
    if tn && (majors[0] || majors[1]) {
        return Err(Error::new(format!(
            "{a} x {b} GMMAs read K-major A and B only"
        )));
    }
    if rs && majors[0] {
        return Err(Error::new(
            "a register-sourced A (OperandSource.RMEM) must be K-major",
        ));
    }
    sm90_gmma(n, k, [c, a, b], rs, tn, majors)
}

/// The SM90 GMMA `SM90_64x{N}x{K}_{C}{A}{B}_{SS|RS}[_TN]` (types as letters: `F32`,
/// `F16`, ...) with these majors.
fn sm90_gmma(
    n: i64,
    k: i64,
    [c, a, b]: [&str; 3],
    rs: bool,
    tn: bool,
    majors: [bool; 2],
) -> Result<Value> {
    let name = format!(
        "SM90_64x{n}x{k}_{c}{a}{b}_{}{}",
        if rs { "RS" } else { "SS" },
        if tn { "_TN" } else { "" }
    );
    let mut at = match Atom::lookup(&name)? {
        Atom::Mma(m) => m,
        Atom::Copy(c) => return Err(Error::new(format!("{} is a copy atom", c.name))),
    };
    at.mn_major = majors;
    Ok(atom(at))
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
    let layout = crate::layout::Layout::col_major(atoms.to_int_tuple()?)?;
    super::ops::call("make_tiled_mma", &[], &[op, Value::Layout(layout)], &[])
}

/// A tcgen05 op from `(shape_mnk, cta_group, a_src, a_major, b_major)`: the C++ atom
/// (`SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, K, K>`), with the op's checks.
fn tcgen05_op(family: &str, ab: &Value, acc: &Value, a: &[Value]) -> Result<Value> {
    let s = a[0].to_int_tuple()?;
    let dims = s.leaves();
    let [m, n, _k] = dims.as_slice() else {
        return Err(Error::new(format!(
            "the instruction shape must be (M, N, K), got {s}"
        )));
    };
    let two_sm = cta_group(&a[1])?;
    let src = match &a[2] {
        Value::Keyword("OperandSource.SMEM") => "SS",
        Value::Keyword("OperandSource.TMEM") => "TS",
        v => {
            return Err(Error::new(format!(
                "expected OperandSource.SMEM or TMEM, got {}",
                v.kind()
            )))
        }
    };
    let majors = [is_mn_major(&a[3], "A")?, is_mn_major(&a[4], "B")?];
    let bits = bits_of(ab)?;
    let name = format!(
        "SM100_MMA_{family}{}_{src}<{},{},{},{m},{n},{},{}>",
        if two_sm { "_2x1SM" } else { "" },
        type_name(ab),
        type_name(ab),
        type_name(acc),
        if majors[0] { "MN" } else { "K" },
        if majors[1] { "MN" } else { "K" },
    );
    let mut at = MmaAtom::umma(name, bits, *m, *n, two_sm)?;
    at.mn_major = majors;
    let v = atom(at);
    check_instance(&v)?;
    Ok(v)
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
    if type_name(ta) != type_name(tb) {
        return Err(Error::new(format!(
            "make_trivial_tiled_mma: A and B types differ ({} and {}): the F8F6F4 family is not modelled yet",
            type_name(ta),
            type_name(tb)
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
    let (family, k) = match type_name(ta).as_str() {
        "half_t" | "bfloat16_t" => ("F16BF16", 16),
        "tfloat32_t" | "float" => ("TF32", 8),
        "int8_t" | "uint8_t" => ("S8", 32),
        t => {
            return Err(Error::new(format!(
                "make_trivial_tiled_mma: {t} operands are not modelled (F16/BF16, TF32 and 8-bit integers are)"
            )))
        }
    };
    let ab = if family == "TF32" {
        Value::Keyword("tfloat32_t")
    } else {
        ta.clone()
    };
    let shape = Value::Tuple(vec![Value::Int(*m), Value::Int(*n), Value::Int(k)]);
    // The DSL's accumulator: TF32 and 8-bit integer MMAs accumulate in float / int32_t.
    let acc = match family {
        "TF32" => Value::Keyword("float"),
        "S8" => Value::Keyword("int32_t"),
        _ => acc_in.clone(),
    };
    let op = tcgen05_op(
        family,
        &ab,
        &acc,
        &[shape, group.clone(), src, a_major.clone(), b_major.clone()],
    )?;
    super::ops::call("make_tiled_mma", &[], &[op], &[])
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
    let (m, n) = (tile.get(0)?.size()?, tile.get(1)?.size()?);
    let two_sm = if tag.contains("2Sm") {
        true
    } else if tag.contains("1Sm") {
        false
    } else if tag == "KernelScheduleAuto" {
        cluster.get(0)?.size()? % 2 == 0 && m % 128 == 0
    } else {
        return Err(Error::new(format!(
            "sm100_make_trivial_tiled_mma: {tag} is not an SM100 1SM/2SM schedule"
        )));
    };
    let ok_m = if two_sm {
        m == 128 || m == 256
    } else {
        m == 64 || m == 128
    };
    if !ok_m || n % 8 != 0 || n > 256 {
        return Err(Error::new(format!(
            "sm100_make_trivial_tiled_mma: invalid tile ({m}, {n}) for a {}-SM MMA (M {}, N a multiple of 8 up to 256)",
            if two_sm { 2 } else { 1 },
            if two_sm { "128 or 256" } else { "64 or 128" }
        )));
    }
    let family = match type_name(&a[0]).as_str() {
        "tfloat32_t" => "TF32",
        "half_t" | "bfloat16_t" => "F16BF16",
        "int8_t" | "uint8_t" => "S8",
        t => {
            return Err(Error::new(format!(
                "sm100_make_trivial_tiled_mma: {t} operands are not modelled (TF32, F16/BF16 and 8-bit integers are)"
            )))
        }
    };
    let name = format!(
        "SM100_MMA_{family}{}_SS",
        if two_sm { "_2x1SM" } else { "" }
    );
    let targs = [
        a[0].clone(),
        a[1].clone(),
        a[2].clone(),
        Value::Int(m),
        Value::Int(n),
        a[5].clone(),
        a[6].clone(),
    ];
    let op = umma_template(&name, &targs)?;
    super::ops::call("make_tiled_mma", &[], &[op], &[])
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
    let (tm, tn, tk) = (
        tile.get(0)?.size()?,
        tile.get(1)?.size()?,
        tile.get(2)?.size()?,
    );
    if tm % 64 != 0 {
        return Err(Error::new(format!(
            "{what}: Tile_M must be a multiple of 64, got {tm}"
        )));
    }
    let major_a = a
        .get(4)
        .map(|v| is_mn_major(v, "A"))
        .transpose()?
        .unwrap_or(false);
    let major_b = a
        .get(5)
        .map(|v| is_mn_major(v, "B"))
        .transpose()?
        .unwrap_or(false);
    if rs && major_a {
        return Err(Error::new(format!(
            "{what}: register source A operand GMMAs must have K-major A layout"
        )));
    }
    let (ta, tb, tc) = (letters(&a[0])?, letters(&a[1])?, letters(&a[2])?);
    let fp8 = |t: &str| matches!(t, "E4M3" | "E5M2");
    let int8 = |t: &str| matches!(t, "S8" | "U8");
    let (k, tn_only) = match (tc, ta, tb) {
        ("F16", "F16", "F16") | ("F32", "F16", "F16") | ("F32", "BF16", "BF16") => (16, false),
        ("F32", "TF32", "TF32") => (8, true),
        ("F16" | "F32", x, y) if fp8(x) && fp8(y) => (32, true),
        ("S32", x, y) if int8(x) && int8(y) => (32, true),
        _ => {
            return Err(Error::new(format!(
                "{what}: no GMMA for A = {}, B = {}, C = {}",
                type_name(&a[0]),
                type_name(&a[1]),
                type_name(&a[2])
            )))
        }
    };
    if tn_only && (major_a || major_b) {
        return Err(Error::new(format!(
            "{what}: MajorA and MajorB must be GMMA::Major::K for {ta} x {tb}"
        )));
    }
    if tk % k != 0 {
        return Err(Error::new(format!(
            "{what}: Tile_K must be a multiple of {k}, got {tk}"
        )));
    }
    let n = [256, 192, 128, 96, 64, 32, 16, 8]
        .into_iter()
        .find(|n| tn % n == 0)
        .ok_or_else(|| Error::new(format!("{what}: Tile_N must be a multiple of 8, got {tn}")))?;
    sm90_gmma(n, k, [tc, ta, tb], rs, tn_only, [major_a, major_b])
}

/// The `static_assert`s of an op struct, which C++ checks when a value of it is made
/// (`make_tiled_mma(Op{})`) but not when only its traits are named (`MMA_Traits<Op>`):
/// an RS GMMA with an MN-major A, UMMA M/N out of the instruction's range.
pub(crate) fn check_instance(v: &Value) -> Result<()> {
    let Value::Atom(a) = v else { return Ok(()) };
    let Atom::Mma(m) = &**a else { return Ok(()) };
    let base = m.name.split('<').next().unwrap_or("");
    if base.starts_with("SM90_") && base.contains("_RS") && m.mn_major[0] {
        return Err(Error::new(format!(
            "{base}: register source A operand GMMAs must have K-major A layout"
        )));
    }
    let Some(rest) = base.strip_prefix("SM100_MMA_") else {
        return Ok(());
    };
    let (mm, nn) = (m.shape_mnk.get(0)?.size()?, m.shape_mnk.get(1)?.size()?);
    let two_sm = rest.contains("_2x1SM");
    let ts = rest.ends_with("_TS");
    let s8 = rest.starts_with("S8");
    if ts && m.mn_major[0] {
        return Err(Error::new(format!(
            "{base}: A from TMEM can't be transposed (A must be UMMA::Major::K)"
        )));
    }
    if s8 && m.name.split(',').nth(2) != Some("int32_t") {
        return Err(Error::new(format!(
            "{base}: the result type can only be int32_t"
        )));
    }
    let in_range = |step: i64, lo: i64| nn % step == 0 && lo <= nn && nn <= 256;
    let (m_ok, n_ok, n_rule) = if two_sm {
        let step = if ts || s8 { 32 } else { 16 };
        (
            mm == 128 || mm == 256,
            in_range(step, step),
            format!("a multiple of {step} between {step} and 256"),
        )
    } else if s8 {
        (
            mm == 64 || mm == 128,
            nn == 8 || in_range(16, 16),
            "8 or a multiple of 16 between 16 and 256".to_string(),
        )
    } else if ts {
        (
            mm == 64 || mm == 128,
            if mm == 64 {
                in_range(8, 8)
            } else {
                in_range(16, 16)
            },
            "a multiple of 8 between 8 and 256 for M=64, of 16 between 16 and 256 for M=128"
                .to_string(),
        )
    } else {
        (
            mm == 64 || mm == 128,
            in_range(8, 8),
            "a multiple of 8 between 8 and 256".to_string(),
        )
    };
    if !m_ok {
        return Err(Error::new(format!(
            "{base}: M = {mm}, but M must be {} for a {} MMA",
            if two_sm { "128 or 256" } else { "64 or 128" },
            if two_sm { "2-CTA" } else { "1-CTA" }
        )));
    }
    if !n_ok {
        return Err(Error::new(format!(
            "{base}: N = {nn}, but N must be {n_rule}"
        )));
    }
    Ok(())
}

/// Whether C++ declares `name` as a class template: every SM90 GMMA op but the integer
/// ones (the floating-point `_TN` ones take defaulted scale arguments, `<>`), and the SM100
/// UMMA ops.
pub(crate) fn is_class_template(name: &str) -> bool {
    (name.starts_with("SM90_")
        && (name.contains("_SS") || name.contains("_RS"))
        && !name.contains("_S32"))
        || name.starts_with("SM100_MMA_")
}

/// CuTeDSL `sm100_utils.make_smem_layout_{a,b}(tiled_mma, mma_tiler_mnk, dtype, stages)`
/// (`cutlass/utils/blackwell_helpers.py`): the operand's MMA tile shape from
/// `partition_shape_A/B`, the widest swizzle atom whose contiguous bits divide its major
/// mode (MN-major 32-bit types take `MN_SW128_32B`), tiled with `tile_to_mma_shape` over
/// the shape with the stages appended, major mode first.
pub(crate) fn dsl_sm100_smem_layout(
    which: char,
    mma: &crate::atom::TiledMma,
    a: &[Value],
) -> Result<Value> {
    use crate::int_tuple::IntTuple;
    let tiler = a[1].to_int_tuple()?;
    if tiler.rank() != 3 {
        return Err(Error::new(format!(
            "mma_tiler_mnk must be (M, N, K), got {tiler}"
        )));
    }
    let bits = bits_of(&a[2])?;
    let (mode, op) = if which == 'a' { (0, 'A') } else { (1, 'B') };
    let mn_major = mma.atom.mn_major[mode];
    let shape = IntTuple::Tuple(vec![tiler.get(mode)?.clone(), tiler.get(2)?.clone()]);
    let ps = mma.partition_shape(op, &shape)?;
    let frg = ps.get(0)?;
    let extent = |i: usize| -> Result<i64> {
        crate::error::arith::mul(frg.get(i)?.size()?, ps.get(i + 1)?.size()?)
    };
    let major = if mn_major { extent(0)? } else { extent(1)? };
    let major_bits = crate::error::arith::mul(major, bits)?;
    if major % 8 != 0 || major_bits % 128 != 0 {
        return Err(Error::new(format!(
            "the major mode ({major} elements of {bits} bits) must be a multiple of 8 elements and 128 bits"
        )));
    }
    let kind = match (mn_major, widest_swizzle(major_bits)) {
        (true, "SW128") if bits == 32 => "MN_SW128_32B".to_string(),
        (true, sw) => format!("MN_{sw}"),
        (false, sw) => format!("K_{sw}"),
    };
    let atom = super::types::smem_atom_of_kind(&kind, bits)?;
    let mut staged = match ps {
        IntTuple::Tuple(v) => v,
        i => vec![i],
    };
    staged.push(IntTuple::Int(a[3].to_int()?));
    let order: [i64; 3] = if mn_major { [2, 1, 3] } else { [1, 2, 3] };
    let order = Value::Tuple(order.iter().map(|o| Value::Int(*o)).collect());
    super::ops::call(
        "tile_to_mma_shape",
        &[],
        &[atom, IntTuple::Tuple(staged).into(), order],
        &[],
    )
}

/// A CUTLASS mainloop dispatch policy (`dispatch_policies.tsv`, generated from the headers)
/// with its template arguments bound: members that are a parameter take its value (or its
/// default), members that name no parameter are evaluated; others are left out.
pub(crate) fn policy(name: &str, targs: &[Value]) -> Option<Result<Value>> {
    let row = include_str!("../dispatch_policies.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .find(|l| l.split('\t').next() == Some(name))?;
    let mut cols = row.split('\t').skip(1);
    let params: Vec<&str> = cols
        .next()
        .unwrap_or("")
        .split(';')
        .filter(|p| !p.is_empty())
        .collect();
    let members = cols.next().unwrap_or("");
    Some((|| {
        if targs.len() > params.len() {
            return Err(Error::new(format!(
                "{name} takes at most {} template arguments, got {}",
                params.len(),
                targs.len()
            )));
        }
        let mut bound: Vec<(&str, Value)> = Vec::new();
        for (i, p) in params.iter().enumerate() {
            let (pname, default) = match p.split_once('=') {
                Some((n, d)) => (n, Some(d)),
                None => (*p, None),
            };
            let v = match (targs.get(i), default) {
                (Some(v), _) => v.clone(),
                (None, Some(d)) => super::eval_line(d)?,
                (None, None) => {
                    return Err(Error::new(format!(
                        "{name} needs its template argument {pname}"
                    )))
                }
            };
            bound.push((pname, v));
        }
        let mut out = Vec::new();
        for m in members.split(';').filter(|m| !m.is_empty()) {
            let Some((mname, text)) = m.split_once('=') else {
                continue;
            };
            let v = match bound.iter().find(|(p, _)| *p == text) {
                Some((_, v)) => Some(v.clone()),
                None if !bound.iter().any(|(p, _)| text.contains(p)) => super::eval_line(text).ok(),
                None => None,
            };
            if let Some(v) = v {
                out.push((mname.to_string(), v));
            }
        }
        let args: Vec<String> = targs.iter().map(type_name).collect();
        Ok(Value::Policy(Box::new(crate::value::Policy {
            name: format!("{name}<{}>", args.join(",")),
            members: out,
        })))
    })())
}
