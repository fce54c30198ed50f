//! Atoms whose traits follow from their template (or constructor) arguments: SM100 UMMA
//! (`SM100_MMA_*<A, B, C, M, N, MajorA, MajorB>`), SM80 `cp.async`
//! (`SM80_CP_ASYNC_CACHEALWAYS<uint128_t>`), `UniversalFMA<T>`, CUTLASS's GMMA op selectors
//! and SM100 builder, and the CuTeDSL `Mma*Op` constructors that name the same atoms.

use crate::types::{arity, bits_of, major_of, type_name, widest_swizzle};
use crate::value::Value;
use cute_core::atom::{Atom, MmaAtom};
use cute_core::error::{Error, Result};
use cute_core::smem_atom::AtomMajor;

fn atom(a: MmaAtom) -> Value {
    Value::Atom(Box::new(Atom::Mma(a)))
}

/// Whether the major given for `which` is MN (`GMMA::Major::MN`, `UMMA::Major::MN`).
pub(crate) fn is_mn_major(v: &Value, which: &str) -> Result<bool> {
    Ok(major_of(v, which)? == AtomMajor::MN)
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
        return Some(umma_template(name, targs));
    }
    if name.starts_with("SM120_") {
        return Some(sm120_template(name, targs));
    }
    if name.starts_with("SM103_") {
        return Some(sm103_template(name, targs));
    }
    if let Some(cache) = name.strip_prefix("SM80_CP_ASYNC_CACHE") {
        return Some(cp_async(name, cache, targs));
    }
    if name == "UniversalFMA" {
        return Some(universal_fma(targs));
    }
    None
}

/// An SM100 UMMA op name taken apart: `SM100_MMA_{FAMILY}[_2x1SM]_{SS|TS}[_SCALED|_SPARSE]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Umma<'a> {
    /// `TF32`, `F16BF16`, `S8`, `F8F6F4`, `MXF8F6F4`, `MXF4` or `MXF4NVF4`.
    pub family: &'a str,
    /// `_2x1SM`: a CTA pair issues it.
    pub two_sm: bool,
    /// `_TS`: A from tensor memory.
    pub ts: bool,
    /// `_SCALED`: a scaled accumulator (`ScaleC` template argument).
    pub scaled: bool,
    /// `_SPARSE`: 2:4 structured-sparse A (the logical K doubles).
    pub sparse: bool,
}

impl<'a> Umma<'a> {
    /// The parts of a UMMA op name, or `None` if it is not one the headers define.
    pub(crate) fn parse(name: &'a str) -> Option<Umma<'a>> {
        let rest = name.strip_prefix("SM100_MMA_")?;
        let (family, rest) = rest.split_once('_')?;
        let (two_sm, rest) = match rest.strip_prefix("2x1SM_") {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let (src, variant) = rest.split_once('_').unwrap_or((rest, ""));
        let ts = match src {
            "SS" => false,
            "TS" => true,
            _ => return None,
        };
        let u = Umma {
            family,
            two_sm,
            ts,
            scaled: variant == "SCALED",
            sparse: variant == "SPARSE",
        };
        let ok = matches!(
            (family, ts, variant),
            ("TF32" | "S8" | "F8F6F4", _, "")
                | ("TF32" | "S8" | "F8F6F4", false, "SPARSE")
                | ("F16BF16", _, "" | "SCALED")
                | ("F16BF16", false, "SPARSE")
                | ("MXF8F6F4", false, "" | "SPARSE")
                | ("MXF4", false, "")
                | ("MXF4NVF4", false, "SPARSE")
        );
        ok.then_some(u)
    }

    /// Whether the template has a scale-factor type (block-scaled `MX*` families).
    fn has_sf(&self) -> bool {
        self.family.starts_with("MX")
    }

    /// Whether the template has a vector size `VS` (the 4-bit block-scaled families).
    fn has_vs(&self) -> bool {
        matches!(self.family, "MXF4" | "MXF4NVF4")
    }

    /// Positions of (M, N, VS, MajorA, MajorB) in the template arguments, and how many
    /// arguments the template takes at least and at most (the trailing ones defaulted).
    fn positions(&self) -> ([usize; 5], usize, usize) {
        let m = if self.has_sf() { 4 } else { 3 };
        let vs = if self.has_vs() { m + 2 } else { usize::MAX };
        let maj = if self.has_vs() { m + 3 } else { m + 2 };
        let min = maj + 2 + usize::from(self.scaled);
        let optional = if self.ts {
            3 // a_neg, b_neg, c_sat
        } else if self.family == "S8" {
            1 // c_sat
        } else {
            2 // a_neg, b_neg
        };
        ([m, m + 1, vs, maj, maj + 1], min, min + optional)
    }

    /// The instruction's logical K in elements of A, as `MMA_Traits` defines it.
    fn k(&self, a_bits: i64) -> Result<i64> {
        let per = if self.sparse { 512 } else { 256 };
        Ok(match self.family {
            "F8F6F4" | "MXF8F6F4" => {
                if self.sparse {
                    64
                } else {
                    32
                }
            }
            "MXF4" => 64,
            "MXF4NVF4" => 128,
            _ => {
                if a_bits <= 0 || per % a_bits != 0 {
                    return Err(Error::new(format!(
                        "a {a_bits}-bit A type does not divide the {per}-bit K of this UMMA"
                    )));
                }
                per / a_bits
            }
        })
    }
}

/// `MMA_Traits` of a UMMA atom with K given: one CTA (`ThrID` 1) or a CTA pair (`2x1SM`:
/// `ThrID` 2, each CTA holding half of M and of N), as `mma_traits_sm100.hpp` writes them.
pub(crate) fn umma_atom(name: String, k: i64, m: i64, n: i64, two_sm: bool) -> Result<MmaAtom> {
    let cta = if two_sm { 2 } else { 1 };
    if m <= 0 || n <= 0 || m % cta != 0 || n % cta != 0 || k <= 0 {
        return Err(Error::new(format!(
            "{name}: M = {m} and N = {n} must be positive{}",
            if two_sm {
                " and even (each CTA of the pair holds half)"
            } else {
                ""
            }
        )));
    }
    let (hm, hn) = (m / cta, n / cta);
    let (thr, thr_n) = if two_sm { (hm, hn) } else { (0, 0) };
    let lay = |s: String| cute_core::literal::layout(&s);
    Ok(MmaAtom {
        shape_mnk: cute_core::int_tuple::IntTuple::ints(&[m, n, k]),
        thr_id: cute_core::layout::Layout::col_major(cute_core::int_tuple::IntTuple::Int(cta))?,
        a: lay(format!("({cta},({hm},{k})):({thr},(1,{m}))"))?,
        b: lay(format!("({cta},({hn},{k})):({thr_n},(1,{n}))"))?,
        c: lay(format!("({cta},({hm},{n})):({thr},(1,{m}))"))?,
        name,
        mn_major: [false, false],
    })
}

/// Widths the A/B types of a UMMA family must have (`MMA_Traits`' static_asserts), as
/// `(accepts(a_bits, b_bits), what the C++ message says)`.
fn umma_type_rule(family: &str) -> (fn(i64, i64) -> bool, &'static str) {
    match family {
        "TF32" => (|a, b| a == 32 && b == 32, "32bit types"),
        "F16BF16" => (|a, b| a == 16 && b == 16, "16bit types"),
        "S8" => (|a, b| a == 8 && b == 8, "8bit types"),
        "MXF4" | "MXF4NVF4" => (|a, b| a == 4 && b == 4, "4bit types"),
        _ => (|a, b| a <= 8 && b <= 8, "types with leq 8bit types"),
    }
}

/// The `MMA_Traits`-level checks of a UMMA atom's types (they hold whether or not a value
/// of the op is made).
fn umma_check_types(base: &str, u: &Umma, targs: &[Value], vs: Option<i64>) -> Result<()> {
    let (a, b) = (bits_of(&targs[0])?, bits_of(&targs[1])?);
    bits_of(&targs[2])?;
    let (ok, what) = umma_type_rule(u.family);
    if !ok(a, b) {
        return Err(Error::new(format!(
            "{base} supports {what}, got {} ({a} bits) and {} ({b} bits)",
            type_name(&targs[0]),
            type_name(&targs[1])
        )));
    }
    if u.has_sf() {
        let sf = type_name(&targs[3]);
        if !matches!(sf.as_str(), "float_ue8m0_t" | "float_ue4m3_t") {
            return Err(Error::new(format!(
                "{base}: the scale-factor type is float_ue8m0_t or float_ue4m3_t, got {sf}"
            )));
        }
    }
    if let Some(vs) = vs {
        // MMA_Traits of the 1-SM MXF4 and of both MXF4NVF4 (sparse) atoms: the wider vector
        // size needs e2m1 A/B and ue8m0 scale factors.
        let (wide, narrow) = if u.family == "MXF4" {
            (32, 16)
        } else {
            (64, 32)
        };
        let e2m1 = |v: &Value| type_name(v) == "float_e2m1_t";
        let wide_ok = e2m1(&targs[0]) && e2m1(&targs[1]) && type_name(&targs[3]) == "float_ue8m0_t";
        if (u.family == "MXF4NVF4" || !u.two_sm) && !(vs == narrow || (vs == wide && wide_ok)) {
            return Err(Error::new(format!(
                "{base}: the vector size VS = {vs} must be {narrow}, or {wide} with float_e2m1_t A and B and float_ue8m0_t scale factors"
            )));
        }
    }
    Ok(())
}

fn major_letter(mn: bool) -> &'static str {
    if mn {
        "MN"
    } else {
        "K"
    }
}

/// `SM100_MMA_{TF32,F16BF16,S8,F8F6F4,MXF8F6F4,MXF4,MXF4NVF4}[_2x1SM]_{SS,TS}[_SCALED|_SPARSE]<...>`:
/// `<A, B, C, [SF,] M, N, [VS,] MajorA, MajorB, [ScaleC,] [ANeg, BNeg, [CSat]]>`.
fn umma_template(name: &str, targs: &[Value]) -> Result<Value> {
    if matches!(name, "SM100_MMA_F8F6F4_SS" | "SM100_MMA_F8F6F4_2x1SM_SS") {
        return Err(Error::new(format!(
            "{name} is not a template: its MMA_Traits take the arguments, MMA_Traits<{name}, A, B, C, C<M>, C<N>, integral_constant<UMMA::Major, UMMA::Major::K>, integral_constant<UMMA::Major, UMMA::Major::K>, integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>, integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>>"
        )));
    }
    let Some(u) = Umma::parse(name) else {
        return Err(Error::new(format!(
            "unknown type '{name}' (the UMMA ops are SM100_MMA_{{TF32,F16BF16,S8,F8F6F4}}[_2x1SM]_{{SS,TS}}, F16BF16 _SS/_TS_SCALED, {{TF32,F16BF16,S8,F8F6F4,MXF8F6F4}}[_2x1SM]_SS_SPARSE, MXF8F6F4/MXF4[_2x1SM]_SS, MXF4NVF4[_2x1SM]_SS_SPARSE)"
        )));
    };
    let ([pm, pn, pvs, pa, pb], lo, hi) = u.positions();
    arity(name, targs, lo, hi)?;
    let (m, n) = (targs[pm].to_int()?, targs[pn].to_int()?);
    let vs = if u.has_vs() {
        Some(targs[pvs].to_int()?)
    } else {
        None
    };
    let majors = [is_mn_major(&targs[pa], "A")?, is_mn_major(&targs[pb], "B")?];
    umma_check_types(name, &u, targs, vs)?;
    let mut args: Vec<String> = targs[..pm].iter().map(type_name).collect();
    args.push(m.to_string());
    args.push(n.to_string());
    if let Some(vs) = vs {
        args.push(vs.to_string());
    }
    args.push(major_letter(majors[0]).to_string());
    args.push(major_letter(majors[1]).to_string());
    if u.scaled {
        args.push(targs[pb + 1].to_int()?.to_string());
    }
    let k = u.k(bits_of(&targs[0])?)?;
    let mut at = umma_atom(format!("{name}<{}>", args.join(",")), k, m, n, u.two_sm)?;
    at.mn_major = majors;
    Ok(atom(at))
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
    let u = Umma::parse(op).expect("an F8F6F4 op");
    umma_check_types(op, &u, t, None)?;
    let (m, n) = (t[3].to_int()?, t[4].to_int()?);
    let majors = [is_mn_major(&t[5], "A")?, is_mn_major(&t[6], "B")?];
    let name = format!(
        "{op}<{},{},{},{m},{n},{},{}>",
        type_name(&t[0]),
        type_name(&t[1]),
        type_name(&t[2]),
        major_letter(majors[0]),
        major_letter(majors[1])
    );
    let mut at = umma_atom(name, 32, m, n, u.two_sm)?;
    at.mn_major = majors;
    let v = atom(at);
    check_instance(&v)?;
    Ok(v)
}

/// `SM103::SM103_MXF4_ULTRA[_2x1SM]_SS_VS<A, B, C, SF, M, N, VS, MajorA, MajorB[, ANeg,
/// BNeg]>`: the SM103 4-bit block-scaled UMMA (K = 96); its traits refuse MN-major operands.
fn sm103_template(name: &str, targs: &[Value]) -> Result<Value> {
    let two_sm = match name {
        "SM103_MXF4_ULTRA_SS_VS" => false,
        "SM103_MXF4_ULTRA_2x1SM_SS_VS" => true,
        _ => {
            return Err(Error::new(format!(
                "unknown type '{name}' (the SM103 UMMA ops are SM103_MXF4_ULTRA_SS_VS and SM103_MXF4_ULTRA_2x1SM_SS_VS)"
            )))
        }
    };
    arity(name, targs, 9, 11)?;
    for t in &targs[..4] {
        bits_of(t)?;
    }
    let (m, n, vs) = (targs[4].to_int()?, targs[5].to_int()?, targs[6].to_int()?);
    let majors = [is_mn_major(&targs[7], "A")?, is_mn_major(&targs[8], "B")?];
    if majors[0] || majors[1] {
        return Err(Error::new(format!(
            "{name}: this MMA does not support transpose (A and B must be UMMA::Major::K)"
        )));
    }
    let mut args: Vec<String> = targs[..4].iter().map(type_name).collect();
    args.extend([m, n, vs].iter().map(|x| x.to_string()));
    args.extend(["K".to_string(), "K".to_string()]);
    let at = umma_atom(format!("{name}<{}>", args.join(",")), 96, m, n, two_sm)?;
    Ok(atom(at))
}

/// The static_asserts of the SM103 op structs: M, N and the vector size.
fn sm103_check_op(base: &str, mm: i64, nn: i64, args: &[&str]) -> Result<()> {
    let two_sm = base.contains("_2x1SM");
    let m_ok = if two_sm {
        mm == 128 || mm == 256
    } else {
        mm == 128
    };
    if !m_ok {
        return Err(Error::new(format!(
            "{base}: M = {mm}, but M must be {} for a {} MMA",
            if two_sm { "128 or 256" } else { "128" },
            if two_sm { "2-CTA" } else { "1-CTA" }
        )));
    }
    if !(nn % 16 == 0 && (16..=256).contains(&nn)) {
        return Err(Error::new(format!(
            "{base}: N = {nn}, but N must be a multiple of 16 between 16 and 256"
        )));
    }
    let vs: i64 = args.get(6).and_then(|v| v.parse().ok()).unwrap_or(0);
    let wide_ok = args.first() == Some(&"float_e2m1_t") && args.get(3) == Some(&"float_ue8m0_t");
    if !(vs == 16 || (vs == 32 && wide_ok)) {
        return Err(Error::new(format!(
            "{base}: the vector size VS = {vs} can only be 16, or 32 with a float_e2m1_t A and float_ue8m0_t scale factors"
        )));
    }
    Ok(())
}

/// The F8F6F4 element types of the SM120 and SM100 block-scaled MMAs.
const F8F6F4_TYPES: &[&str] = &[
    "float_e2m1_t",
    "float_e3m2_t",
    "float_e2m3_t",
    "float_e4m3_t",
    "float_e5m2_t",
];

/// `SM120_16x8x32_TN<A, B, C>` and the block-scaled / sparse SM120 templates: the instances
/// `mma_sm120[_sparse].hpp` specialises (every other instance is C++'s "No MMA matches ...
/// for given data types"); their traits are the table row's (checked by the generator).
fn sm120_template(name: &str, targs: &[Value]) -> Result<Value> {
    let vs = name.ends_with("_VS");
    let (n, rule): (usize, &str) = match name {
        "SM120_16x8x32_TN" | "SM120_SPARSE_16x8x64_TN" => (
            3,
            "A and B one of float_e2m1_t, float_e3m2_t, float_e2m3_t, float_e4m3_t, float_e5m2_t; C float or half_t",
        ),
        "SM120_16x8x32_TN_VS" | "SM120_SPARSE_16x8x64_TN_VS" => (
            5,
            "A and B one of float_e2m1_t, float_e3m2_t, float_e2m3_t, float_e4m3_t, float_e5m2_t; C float; SF float_ue8m0_t",
        ),
        "SM120_16x8x64_TN_VS" | "SM120_SPARSE_16x8x128_TN_VS" => (
            5,
            "A and B float_e2m1_t; C float; SF float_ue8m0_t or float_ue4m3_t",
        ),
        _ => {
            return Err(Error::new(format!(
                "unknown type '{name}' (the SM120 MMA templates are SM120_16x8x32_TN, SM120_16x8x32_TN_VS, SM120_16x8x64_TN_VS, SM120_SPARSE_16x8x64_TN, SM120_SPARSE_16x8x64_TN_VS, SM120_SPARSE_16x8x128_TN_VS)"
            )))
        }
    };
    arity(name, targs, n, n)?;
    let t: Vec<String> = targs
        .iter()
        .take(n - usize::from(vs))
        .map(type_name)
        .collect();
    let f8 = |x: &str| F8F6F4_TYPES.contains(&x);
    let ok = match (
        n,
        matches!(name, "SM120_16x8x64_TN_VS" | "SM120_SPARSE_16x8x128_TN_VS"),
    ) {
        (3, _) => f8(&t[0]) && f8(&t[1]) && matches!(t[2].as_str(), "float" | "half_t"),
        (_, false) => f8(&t[0]) && f8(&t[1]) && t[2] == "float" && t[3] == "float_ue8m0_t",
        (_, true) => {
            t[0] == "float_e2m1_t"
                && t[1] == "float_e2m1_t"
                && t[2] == "float"
                && matches!(t[3].as_str(), "float_ue8m0_t" | "float_ue4m3_t")
        }
    };
    if !ok {
        return Err(Error::new(format!(
            "No MMA matches {name} for given data types <{}> ({rule})",
            t.join(", ")
        )));
    }
    let mut args = t;
    if vs {
        args.push(targs[4].to_int()?.to_string());
    }
    let mut a = match Atom::lookup(name)? {
        Atom::Mma(m) => m,
        Atom::Copy(c) => return Err(Error::new(format!("{} is a copy atom", c.name))),
    };
    a.name = format!("{name}<{}>", args.join(","));
    Ok(atom(a))
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
    let layout = cute_core::layout::Layout::col_major(atoms.to_int_tuple()?)?;
    crate::atom_args::make_tiled_mma(&[op, Value::Layout(layout)], &[])
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
        "float_e4m3_t" | "float_e5m2_t" => "F8F6F4",
        t => {
            return Err(Error::new(format!(
                "sm100_make_trivial_tiled_mma: {t} operands are not modelled (TF32, F16/BF16, 8-bit integers and FP8 are)"
            )))
        }
    };
    if family == "F8F6F4" {
        // The builder names the F8F6F4 op through its traits (sm100_common.inl).
        let one = Value::Keyword("ScaleIn::One");
        let op = if two_sm {
            "SM100_MMA_F8F6F4_2x1SM_SS"
        } else {
            "SM100_MMA_F8F6F4_SS"
        };
        let targs = [
            Value::Keyword(op),
            a[0].clone(),
            a[1].clone(),
            a[2].clone(),
            Value::Int(m),
            Value::Int(n),
            a[5].clone(),
            a[6].clone(),
            one.clone(),
            one,
        ];
        let v = f8f6f4_traits(&targs)?;
        return crate::atom_args::make_tiled_mma(&[v], &[]);
    }
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
    crate::atom_args::make_tiled_mma(&[op], &[])
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
    if (base.starts_with("SM90_") || is_sparse_gmma(base)) && base.contains("_RS") && m.mn_major[0]
    {
        return Err(Error::new(format!(
            "{base}: register source A operand GMMAs must have K-major A layout"
        )));
    }
    let (mm, nn) = (m.shape_mnk.get(0)?.size()?, m.shape_mnk.get(1)?.size()?);
    let args: Vec<&str> = m
        .name
        .split_once('<')
        .map(|(_, a)| a.trim_end_matches('>').split(',').collect())
        .unwrap_or_default();
    if base.starts_with("SM103_MXF4_ULTRA") {
        return sm103_check_op(base, mm, nn, &args);
    }
    let Some(u) = Umma::parse(base) else {
        return Ok(());
    };
    umma_check_op(base, &u, mm, nn, m.mn_major, &args)
}

/// The static_asserts of a UMMA op struct (and of the F8F6F4 traits): A from TMEM K-major,
/// the accumulator type of the 8-bit integer ops, M, N and the vector size.
fn umma_check_op(
    base: &str,
    u: &Umma,
    mm: i64,
    nn: i64,
    majors: [bool; 2],
    args: &[&str],
) -> Result<()> {
    if u.ts && majors[0] {
        return Err(Error::new(format!(
            "{base}: A from TMEM can't be transposed (A must be UMMA::Major::K)"
        )));
    }
    if u.family == "S8" && !u.ts && !u.two_sm && args.get(2).is_some_and(|c| *c != "int32_t") {
        return Err(Error::new(format!(
            "{base}: the result type can only be int32_t"
        )));
    }
    let traits_form = u.family == "F8F6F4" && !u.ts && !u.sparse;
    let ms: &[i64] = match (u.family, u.two_sm) {
        ("MXF8F6F4", false) | ("MXF4" | "MXF4NVF4", false) => &[128],
        ("MXF8F6F4", true) => &[256],
        ("MXF4NVF4", true) => &[],
        (_, false) => &[64, 128],
        (_, true) => &[128, 256],
    };
    if !ms.is_empty() && !ms.contains(&mm) {
        let list: Vec<String> = ms.iter().map(|m| m.to_string()).collect();
        return Err(Error::new(format!(
            "{base}: M = {mm}, but M must be {} for a {} MMA",
            list.join(" or "),
            if u.two_sm { "2-CTA" } else { "1-CTA" }
        )));
    }
    // (step, first N) of the N range, up to 256; `eight_or` also admits N = 8.
    let (step, rule, eight_or) = if u.two_sm {
        let step = if u.ts
            || u.family == "S8"
            || (u.family == "F8F6F4" && u.sparse)
            || (traits_form && majors[1])
        {
            32
        } else {
            16
        };
        let why = if traits_form {
            if majors[1] {
                " when B is MN major"
            } else {
                " when B is K major"
            }
        } else {
            ""
        };
        (step, why.to_string(), false)
    } else if u.family == "S8" {
        (16, String::new(), true)
    } else if u.ts || (u.family == "F8F6F4" && u.sparse) {
        if mm == 64 {
            (8, " for M=64".to_string(), false)
        } else {
            (16, " for M=128".to_string(), false)
        }
    } else if traits_form && majors[1] {
        (16, " when B is MN major".to_string(), false)
    } else if traits_form {
        (8, " when B is K major".to_string(), false)
    } else {
        (8, String::new(), false)
    };
    let n_ok = (eight_or && nn == 8) || (nn % step == 0 && step <= nn && nn <= 256);
    if !n_ok {
        return Err(Error::new(format!(
            "{base}: N = {nn}, but N must be {}a multiple of {step} between {step} and 256{rule}",
            if eight_or { "8 or " } else { "" }
        )));
    }
    if u.has_vs() {
        let vs: i64 = args.get(6).and_then(|v| v.parse().ok()).unwrap_or(0);
        let allowed: &[i64] = match (u.family, u.two_sm) {
            ("MXF4", _) => &[16, 32],
            ("MXF4NVF4", true) => &[32, 64],
            _ => &[],
        };
        if !allowed.is_empty() && !allowed.contains(&vs) {
            return Err(Error::new(format!(
                "{base}: the vector size VS = {vs} can only be {} or {}",
                allowed[0], allowed[1]
            )));
        }
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
        || (name.starts_with("SM100_MMA_") && Umma::parse(name).is_some() && !is_f8f6f4_ss(name))
        || (name.starts_with("SM120_") && cute_core::atom::is_atom_name(name))
        || matches!(
            name,
            "SM103_MXF4_ULTRA_SS_VS" | "SM103_MXF4_ULTRA_2x1SM_SS_VS"
        )
        || is_sparse_gmma(name)
}

/// `SM100_MMA_F8F6F4_SS` / `_2x1SM_SS`: plain ops whose traits take the arguments.
pub(crate) fn is_f8f6f4_ss(name: &str) -> bool {
    matches!(name, "SM100_MMA_F8F6F4_SS" | "SM100_MMA_F8F6F4_2x1SM_SS")
}

/// A sparse GMMA (`SM90::GMMA::SPARSE::GMMA_64xNxK_..._SS/RS`), every one a class template.
pub(crate) fn is_sparse_gmma(name: &str) -> bool {
    name.starts_with("GMMA_64x") && (name.contains("_SS") || name.contains("_RS"))
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
    use cute_core::int_tuple::IntTuple;
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
        cute_core::error::arith::mul(frg.get(i)?.size()?, ps.get(i + 1)?.size()?)
    };
    let major = if mn_major { extent(0)? } else { extent(1)? };
    let major_bits = cute_core::error::arith::mul(major, bits)?;
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
    let atom = crate::types::smem_atom_of_kind(&kind, bits)?;
    let mut staged = match ps {
        IntTuple::Tuple(v) => v,
        i => vec![i],
    };
    staged.push(IntTuple::Int(a[3].to_int()?));
    let order: [i64; 3] = if mn_major { [2, 1, 3] } else { [1, 2, 3] };
    let order = Value::Tuple(order.iter().map(|o| Value::Int(*o)).collect());
    crate::ops::dsl_tile_to_mma_shape(&atom, &IntTuple::Tuple(staged).into(), Some(&order))
        .map_err(|e| e.within("tile_to_mma_shape"))
}

/// A CUTLASS mainloop dispatch policy (`dispatch_policies.tsv`, generated from the headers)
/// with its template arguments bound: members that are a parameter take its value (or its
/// default), members that name no parameter are evaluated; others are left out.
pub(crate) fn policy(name: &str, targs: &[Value]) -> Option<Result<Value>> {
    let row = include_str!("dispatch_policies.tsv")
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
                (None, Some(d)) => crate::eval_line(d)?,
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
                None if !bound.iter().any(|(p, _)| text.contains(p)) => crate::eval_line(text).ok(),
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
