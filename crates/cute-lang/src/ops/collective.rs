//! CUTLASS's `CollectiveBuilder` lines: the template arguments converted to the core's
//! typed configuration ([`cute_core::collective::MainloopConfig`]), the collective's member
//! types (`CollectiveMainloop::SmemLayoutA`, `::TiledMma`, `::DispatchPolicy::Stages`) as
//! ordinary values.

use crate::value::Value;
use crate::words::{ArchTag, OpClass, Word};
use cute_core::arch::Arch;
use cute_core::collective::{
    build_mainloop, GemmLayout, Mainloop, MainloopConfig, ScaledElem, Schedule, Stages,
};
use cute_core::elem::Elem;
use cute_core::epilogue::{
    build_epilogue, Activation, BlockScale, Epilogue, EpilogueConfig, EpilogueSchedule, Fusion,
    FusionKind, FusionParam,
};
use cute_core::error::{Error, Result};
use cute_core::smem_atom::AtomMajor;
use cute_core::swizzle::AnyLayout;

fn elem(v: &Value, what: &str) -> Result<Elem> {
    match v {
        Value::Word(Word::Elem(e)) => Ok(*e),
        v => Err(cute_core::err!(
            "{what} must be an element type (cutlass::half_t, float, ...), got {}",
            v.kind()
        )),
    }
}

fn gemm_layout(v: &Value, what: &str) -> Result<GemmLayout> {
    match v {
        Value::Word(Word::GemmLayout(l)) => Ok(*l),
        v => Err(cute_core::err!(
            "{what} must be cutlass::layout::RowMajor or ColumnMajor, got {}",
            v.kind()
        )),
    }
}

/// `nv_float4_t<T>` (`bits` `None`) or `mx_float{bits}_t<T>`.
pub(crate) fn scaled(t: &Value, bits: Option<i64>) -> Result<Value> {
    let data = elem(t, "the data type")?;
    let e = match bits {
        None => ScaledElem::nv(data)?,
        Some(b) => ScaledElem::mx(b, data)?,
    };
    Ok(Value::Word(Word::Scaled(e)))
}

/// A block-scaled builder's element argument: `nv_float4_t<T>`, `mx_float*_t<T>`, or
/// `cute::tuple<T, SF[, Int<VS>]>`.
fn scaled_elem(v: &Value, what: &str) -> Result<ScaledElem> {
    let bad = || {
        cute_core::err!(
            "{what} of a block-scaled builder (arch::OpClassBlockScaledTensorOp) is nv_float4_t<T>, mx_float4_t<T>, mx_float6_t<T>, mx_float8_t<T> or cute::tuple<T, ScaleFactor[, Int<VS>]>, got {}",
            match v {
                Value::Word(w) => w.to_string(),
                v => v.kind().to_string(),
            }
        )
    };
    match v {
        Value::Word(Word::Scaled(e)) => Ok(*e),
        Value::Tuple(parts) if (2..=3).contains(&parts.len()) => {
            let data = elem(&parts[0], what)?;
            let sf = elem(&parts[1], &format!("{what}'s scale-factor type"))?;
            let vs = match parts.get(2) {
                Some(v) => {
                    let n = v.to_int()?;
                    if n <= 0 {
                        return Err(cute_core::err!(
                            "{what}'s scale vector size is positive, got {n}"
                        ));
                    }
                    Some(n)
                }
                None => None,
            };
            Ok(ScaledElem::Pair(data, sf, vs))
        }
        _ => Err(bad()),
    }
}

/// An operand's element, layout tag and alignment arguments (the layout parameter named as
/// the builder names it: the mainloop's `GmemLayoutATag`, the epilogue's `GmemLayoutTagC`).
fn operand(t: &[Value], name: &str, layout_param: &str) -> Result<(Elem, GemmLayout, i64)> {
    Ok((
        elem(&t[0], &format!("Element{name}"))?,
        gemm_layout(&t[1], layout_param)?,
        t[2].to_int()?,
    ))
}

/// The size of each top mode of a shape (`Shape<_128,_128,_64>` is 128, 128, 64).
fn mode_sizes(t: &cute_core::int_tuple::IntTuple) -> Result<Vec<i64>> {
    (0..t.rank())
        .map(|i| t.get(i).and_then(|m| m.size()))
        .collect()
}

fn shape3(v: &Value, what: &str) -> Result<[i64; 3]> {
    let t = v.to_int_tuple()?;
    if !v.is_static() {
        return Err(cute_core::err!(
            "{what} must be static (Shape<_128,_128,_64>): C++'s static_assert(is_static<{what}>::value)"
        ));
    }
    match mode_sizes(&t)?[..] {
        [m, n, k] => Ok([m, n, k]),
        _ => Err(cute_core::err!("{what} has 3 modes (M, N, K), got {t}")),
    }
}

/// `cutlass::gemm::collective::CollectiveBuilder<Arch, OpClass, ElementA, LayoutA, AlignmentA,
/// ElementB, LayoutB, AlignmentB, ElementAccumulator, TileShape, ClusterShape, StageCount,
/// KernelSchedule>`: its `CollectiveOp`.
pub(crate) fn builder(t: &[Value]) -> Result<Value> {
    if t.len() != 13 && t.len() < 14 {
        return Err(cute_core::err!(
            "takes 13 template arguments for a GEMM mainloop (arch, op class, A's element, layout and alignment, B's, the accumulator, tile, cluster, stage count, schedule) or 14 for an epilogue (arch, op class, tile, cluster, epilogue tile, accumulator, compute, C's element, layout and alignment, D's, schedule), got {}",
            t.len()
        ));
    }
    let arch = match &t[0] {
        Value::Word(Word::Arch(a)) => *a,
        v => {
            return Err(cute_core::err!(
                "the first argument is an arch tag (cutlass::arch::Sm90), got {}",
                v.kind()
            ))
        }
    };
    let arch = match arch {
        ArchTag::Sm90 => Arch::Sm90,
        ArchTag::Sm100 => Arch::Sm100,
        ArchTag::Sm120 => Arch::Sm120,
        a => {
            return Err(cute_core::err!(
                "the cutlass::{} builders are not resolved (this tool resolves cutlass::arch::Sm90's, Sm100's and Sm120's)",
                a.name()
            ))
        }
    };
    let block_scaled = match &t[1] {
        Value::Word(Word::OpClass(OpClass::TensorOp)) => false,
        Value::Word(Word::OpClass(OpClass::BlockScaledTensorOp)) => true,
        v => {
            return Err(cute_core::err!(
                "the builders resolved here take cutlass::arch::OpClassTensorOp or OpClassBlockScaledTensorOp (the SIMT and sparse ones are not resolved yet), got {v}"
            ))
        }
    };
    if t.len() >= 14 {
        return epilogue_builder(arch, t, block_scaled);
    }
    // A block-scaled operand's data type stands for it where the dense builder reads one.
    let scaled = if block_scaled {
        Some([
            scaled_elem(&t[2], "ElementA")?,
            scaled_elem(&t[5], "ElementB")?,
        ])
    } else {
        None
    };
    let operand = |i: usize, name: &str| -> Result<(Elem, GemmLayout, i64)> {
        let mut args = t[i..i + 3].to_vec();
        if let Some(s) = scaled {
            args[0] = Value::Word(Word::Elem(s[usize::from(i > 2)].data()));
        }
        operand(&args, name, &format!("GmemLayout{name}Tag"))
    };
    let stages = match &t[11] {
        Value::Word(Word::Stages(s)) => *s,
        Value::Int(n) => Stages::Count(*n),
        v => {
            return Err(cute_core::err!(
                "the stage count is StageCountAuto, StageCount<N> or StageCountAutoCarveout<bytes>, got {}",
                v.kind()
            ))
        }
    };
    let schedule = match &t[12] {
        Value::Word(Word::Schedule(tag)) => Schedule::parse(tag.name()).ok_or_else(|| {
            cute_core::err!(
                "the schedule {} is none of the TMA warp-specialized mainloops' this tool resolves (KernelScheduleAuto, SM90's KernelTmaWarpSpecialized[Cooperative|Pingpong][FP8FastAccum], SM100's KernelTmaWarpSpecialized1SmSm100/2SmSm100 and block-scaled tags, SM120's KernelScheduleF8f6f4Sm120 and block-scaled tags; pointer-array, sparse and blockwise-scaled schedules are not resolved yet)",
                tag.name()
            )
        })?,
        v => {
            return Err(cute_core::err!(
                "the last argument is a kernel schedule tag, got {}",
                v.kind()
            ))
        }
    };
    let cfg = MainloopConfig {
        arch,
        a: operand(2, "A")?,
        b: operand(5, "B")?,
        acc: elem(&t[8], "ElementAccumulator")?,
        tile: shape3(&t[9], "TileShape_MNK")?,
        cluster: shape3(&t[10], "ClusterShape_MNK")?,
        stages,
        schedule,
        scaled,
    };
    Ok(Value::Collective(Box::new(build_mainloop(&cfg)?)))
}

/// `cutlass::gemm::kernel::GemmUniversal<ProblemShape, CollectiveMainloop,
/// CollectiveEpilogue[, TileScheduler]>`: the kernel of a builder's two collectives, its
/// members the arguments (what a pasted `using GemmKernel = ...;` block names).
pub(crate) fn gemm_universal(t: &[Value]) -> Result<Value> {
    let named = |i: usize, what: &str, ok: bool| -> Result<(String, Value)> {
        if ok {
            Ok((what.to_string(), t[i].clone()))
        } else {
            Err(cute_core::err!(
                "GemmUniversal's argument {} is the {what} (a CollectiveBuilder<...>::CollectiveOp), got {}",
                i + 1,
                t[i].kind()
            ))
        }
    };
    let mut members = vec![
        ("ProblemShape".to_string(), t[0].clone()),
        named(
            1,
            "CollectiveMainloop",
            matches!(t[1], Value::Collective(_)),
        )?,
        named(2, "CollectiveEpilogue", matches!(t[2], Value::Epilogue(_)))?,
    ];
    if let Some(s) = t.get(3) {
        members.push(("TileScheduler".to_string(), s.clone()));
    }
    // The strides its collectives take (`TagToStrideA_t<LayoutA>`, ...): a value-initialized
    // `Stride<int64_t, _1, int64_t>` of a K-major (row-major C) operand, `<_1, int64_t,
    // int64_t>` of the other major. A `void` C keeps no layout tag here: D's stands for it.
    let stride = |major: cute_core::smem_atom::AtomMajor| {
        let (one, dynamic) = (Value::Int(1), Value::Dyn(0));
        Value::Tuple(match major {
            cute_core::smem_atom::AtomMajor::K => vec![dynamic.clone(), one, dynamic],
            cute_core::smem_atom::AtomMajor::MN => vec![one, dynamic.clone(), dynamic],
        })
    };
    if let (Value::Collective(m), Value::Epilogue(e)) = (&t[1], &t[2]) {
        let (c, d) = (e.config.c.map_or(e.config.d.1, |c| c.1), e.config.d.1);
        for (name, major) in [
            ("StrideA", m.config.a.1.major(false)),
            ("StrideB", m.config.b.1.major(true)),
            ("StrideC", c.major(false)),
            ("StrideD", d.major(false)),
        ] {
            members.push((name.to_string(), stride(major)));
        }
    }
    Ok(Value::Policy(Box::new(crate::value::Policy {
        name: "GemmUniversal<ProblemShape, CollectiveMainloop, CollectiveEpilogue>".to_string(),
        members,
    })))
}

/// `cutlass::gemm::device::GemmUniversalAdapter<GemmKernel>`: the kernel's members, and the
/// kernel as `GemmKernel`.
pub(crate) fn gemm_adapter(t: &[Value]) -> Result<Value> {
    match &t[0] {
        Value::Policy(k) if k.name.starts_with("GemmUniversal<") => {
            let mut members = vec![("GemmKernel".to_string(), t[0].clone())];
            members.extend(k.members.iter().cloned());
            // `EpilogueOutputOp`: the epilogue's fusion operation.
            if let Some((_, Value::Epilogue(e))) =
                k.members.iter().find(|(n, _)| n == "CollectiveEpilogue")
            {
                members.push((
                    "EpilogueOutputOp".to_string(),
                    Value::Word(Word::Fusion(e.fusion_op())),
                ));
            }
            Ok(Value::Policy(Box::new(crate::value::Policy {
                name: "GemmUniversalAdapter<GemmKernel>".to_string(),
                members,
            })))
        }
        v => Err(cute_core::err!(
            "GemmUniversalAdapter takes a GemmUniversal<...> kernel, got {}",
            v.kind()
        )),
    }
}

/// `cutlass::detail::Sm1xxBlockScaledConfig<SFVecSize>` (`output`: false, K-major) and
/// `Sm1xxBlockScaledOutputConfig<SFVecSize[, UMMA::Major]>`: the scale factors' block
/// sizes, the chunk atom and the tensor's default `LayoutSF` as member types.
pub(crate) fn sf_config(t: &[Value], output: bool) -> Result<Value> {
    let vs = t[0].to_int()?;
    let major = match t.get(1) {
        None => AtomMajor::K,
        Some(Value::Word(Word::Major(m))) => *m,
        Some(v) => {
            return Err(cute_core::err!(
                "the second argument is the scale factors' major (UMMA::Major::K or UMMA::Major::MN), got {v}"
            ))
        }
    };
    if !matches!(vs, 16 | 32 | 64) {
        return Err(cute_core::err!(
            "a scale factor covers 16, 32 or 64 elements (SFVecSize), got {vs}"
        ));
    }
    let name = if output {
        let m = if major == AtomMajor::K { "K" } else { "MN" };
        format!("Sm1xxBlockScaledOutputConfig<{vs}, UMMA::Major::{m}>")
    } else {
        format!("Sm1xxBlockScaledConfig<{vs}>")
    };
    let members = vec![
        ("SFVecSize".to_string(), Value::Int(vs)),
        ("Blk_MN".to_string(), Value::Int(128)),
        ("Blk_SF".to_string(), Value::Int(4)),
        (
            "SfAtom".to_string(),
            Value::Layout(cute_core::collective::sf_chunk_atom(vs, major)?),
        ),
        (
            "LayoutSF".to_string(),
            Value::Layout(cute_core::collective::sf_tensor_layout(vs, major)?),
        ),
    ];
    Ok(Value::Policy(Box::new(crate::value::Policy {
        name,
        members,
    })))
}

/// `cutlass::epilogue::fusion::<kind><...>`: its template arguments in `operations.hpp`'s
/// order, each default filled in as C++ fills it (the aux, bias and source default to the
/// output type, the scalar and amax to the compute type, each alignment to 128 bits of its
/// element, the scale factors' layout to `RowMajor`).
pub(crate) fn fusion(kind: FusionKind, t: &[Value]) -> Result<Value> {
    let params = kind.params();
    let what = |p: FusionParam| format!("{}'s {}", kind.name(), param_name(p));
    // The output and compute types come first among the required arguments.
    let required = |p: FusionParam| -> Result<Elem> {
        let v = params.iter().position(|q| *q == p).and_then(|i| t.get(i));
        elem(v.unwrap_or(&Value::Word(Word::Void)), &what(p))
    };
    let (d, compute) = (
        required(FusionParam::Output)?,
        required(FusionParam::Compute)?,
    );
    let mut f = Fusion::of(kind, d, compute);
    let mut aligns = [None; 3];
    for (p, v) in params.iter().zip(t) {
        let count = |v: &Value| -> Result<i64> {
            let n = v.to_int()?;
            if n <= 0 {
                return Err(cute_core::err!("{} = {n}: it is positive", what(*p)));
            }
            Ok(n)
        };
        match p {
            FusionParam::Output | FusionParam::Compute => {}
            FusionParam::Act => match v {
                Value::Word(Word::Activation(a)) => f.act = Some(*a),
                v => {
                    return Err(cute_core::err!(
                        "{} is an activation (cutlass::epilogue::thread::{}), got {v}",
                        what(*p),
                        Activation::ALL.map(|a| a.name()).join(", ")
                    ))
                }
            },
            FusionParam::AuxLayout => {
                let l = gemm_layout(v, &what(*p))?;
                f.aux = f.aux.map(|(e, _)| (e, l));
            }
            FusionParam::Aux => {
                let e = elem(v, &what(*p))?;
                f.aux = f.aux.map(|(_, l)| (e, l));
            }
            FusionParam::Amax => f.amax = elem(v, &what(*p))?,
            FusionParam::Bias => f.bias = elem(v, &what(*p))?,
            FusionParam::Source => {
                f.source = match v {
                    Value::Word(Word::Void) => None,
                    v => Some(elem(v, &what(*p))?),
                }
            }
            FusionParam::Scalar => f.scalar = elem(v, &what(*p))?,
            FusionParam::VecSize => {
                let n = count(v)?;
                f.block_scale = f.block_scale.map(|s| BlockScale { vec: n, ..s });
            }
            FusionParam::ScaleFactor => {
                let e = elem(v, &what(*p))?;
                f.block_scale = f.block_scale.map(|s| BlockScale { elem: e, ..s });
            }
            FusionParam::ScaleFactorLayout => {
                let l = gemm_layout(v, &what(*p))?;
                f.block_scale = f.block_scale.map(|s| BlockScale { layout: l, ..s });
            }
            FusionParam::AlignAux => aligns[0] = Some(count(v)?),
            FusionParam::AlignBias => aligns[1] = Some(count(v)?),
            FusionParam::AlignScalar => aligns[2] = Some(count(v)?),
        }
    }
    // The alignments default to 128 bits of the (final) aux, bias and scalar types.
    let defaults = [f.aux.map_or(f.d, |a| a.0), f.bias, f.scalar].map(|e| 128 / e.bits().max(1));
    f.align = [0, 1, 2].map(|i| aligns[i].unwrap_or(defaults[i]));
    Ok(Value::Word(Word::Fusion(f)))
}

/// `FusionOp::member`: its element types, alignments, activation and `Is*Supported` flags as
/// `operations.hpp`'s `FusionOperation` declares them (`void` or 0 where the fusion has none).
pub(crate) fn fusion_member(f: &Fusion, name: &str) -> Result<Value> {
    let has = |p: FusionParam| f.kind.params().contains(&p);
    let elem_or_void = |p: FusionParam, e: Option<Elem>| {
        Value::Word(match e.filter(|_| has(p)) {
            Some(e) => Word::Elem(e),
            None => Word::Void,
        })
    };
    let layout = |p: FusionParam, l: Option<GemmLayout>| {
        Value::Word(match l.filter(|_| has(p)) {
            Some(l) => Word::GemmLayout(l),
            None => Word::Void,
        })
    };
    let int_if = |p: FusionParam, n: i64| Value::Int(if has(p) { n } else { 0 });
    let sf = f.block_scale;
    Ok(match name {
        "ElementOutput" => Value::Word(Word::Elem(f.d)),
        "ElementCompute" => Value::Word(Word::Elem(f.compute)),
        "ElementSource" => Value::Word(f.source.map_or(Word::Void, Word::Elem)),
        "ElementScalar" => Value::Word(Word::Elem(f.scalar)),
        "ElementBias" => elem_or_void(FusionParam::Bias, Some(f.bias)),
        "ElementAux" => elem_or_void(FusionParam::Aux, f.aux.map(|a| a.0)),
        "ElementAmax" => elem_or_void(FusionParam::Amax, Some(f.amax)),
        "ElementBlockScaleFactor" => elem_or_void(FusionParam::ScaleFactor, sf.map(|s| s.elem)),
        "GmemLayoutTagAux" => layout(FusionParam::AuxLayout, f.aux.map(|a| a.1)),
        "GmemLayoutTagScalefactor" => layout(FusionParam::ScaleFactorLayout, sf.map(|s| s.layout)),
        "ActivationFn" => Value::Word(f.act.map_or(Word::Void, Word::Activation)),
        "SFVecSize" => int_if(FusionParam::VecSize, sf.map_or(0, |s| s.vec)),
        "AlignmentAux" => int_if(FusionParam::AlignAux, f.align[0]),
        "AlignmentBias" => int_if(FusionParam::AlignBias, f.align[1]),
        // `ScaledAcc` sets 1 where the fusion takes no alignment of its own.
        "AlignmentScalar" => Value::Int(if has(FusionParam::AlignScalar) { f.align[2] } else { 1 }),
        m => match f.kind.flag(m) {
            Some(b) => Value::Bool(b),
            None => {
                return Err(cute_core::err!(
                    "{} has no member '{m}' (known: ElementOutput, ElementCompute, ElementSource, ElementScalar, ElementBias, ElementAux, ElementAmax, ElementBlockScaleFactor, GmemLayoutTagAux, GmemLayoutTagScalefactor, ActivationFn, SFVecSize, AlignmentAux, AlignmentBias, AlignmentScalar, and the Is...Supported flags)",
                    f.kind.name()
                ))
            }
        },
    })
}

/// A fusion parameter's name in `operations.hpp`.
fn param_name(p: FusionParam) -> &'static str {
    match p {
        FusionParam::AuxLayout => "GmemLayoutTagAux",
        FusionParam::Act => "ActivationFn",
        FusionParam::VecSize => "SFVecSize",
        FusionParam::Output => "ElementOutput",
        FusionParam::Compute => "ElementCompute",
        FusionParam::Aux => "ElementAux",
        FusionParam::Amax => "ElementAmax",
        FusionParam::Bias => "ElementBias",
        FusionParam::ScaleFactor => "ElementBlockScaleFactor",
        FusionParam::ScaleFactorLayout => "GmemLayoutTagScalefactor",
        FusionParam::Source => "ElementSource",
        FusionParam::Scalar => "ElementScalar",
        FusionParam::AlignAux => "AlignmentAux",
        FusionParam::AlignBias => "AlignmentBias",
        FusionParam::AlignScalar => "AlignmentScalar",
    }
}

/// `StageCount<N>`.
pub(crate) fn stage_count(t: &[Value]) -> Result<Value> {
    let n = t[0].to_int()?;
    if n < 1 {
        return Err(cute_core::err!(
            "StageCount<{n}>: a stage count is positive"
        ));
    }
    Ok(Value::Word(Word::Stages(Stages::Count(n))))
}

/// `StageCountAutoCarveout<bytes>`.
pub(crate) fn carveout(t: &[Value]) -> Result<Value> {
    let b = t[0].to_int()?;
    if b < 0 {
        return Err(cute_core::err!(
            "StageCountAutoCarveout<{b}>: the carveout is a number of bytes, not negative"
        ));
    }
    Ok(Value::Word(Word::Stages(Stages::AutoCarveout(b))))
}

/// `CollectiveMainloop::member`.
pub(crate) fn member(m: &Mainloop, name: &str) -> Result<Value> {
    let layout = |l: &AnyLayout| Value::from(l.clone());
    let atom = |i: usize| -> Result<Value> {
        Ok(Value::from(cute_core::smem_atom::smem_atom(
            m.majors[i],
            m.smem_atoms[i],
            m.smem_bits[i],
        )?))
    };
    let tma = |i: usize| {
        let op = m.gmem_copy[i].name();
        crate::words::TmaOp::parse(op)
            .map(|o| Value::Word(Word::Tma(o)))
            .ok_or_else(|| cute_core::err!("unknown TMA op {op}"))
    };
    let smem_copy = |i: usize| -> Result<Value> {
        let Some(ops) = m.smem_copy else {
            return Err(cute_core::err!(
                "{name} is void in this mainloop: the MMA reads shared memory through descriptors"
            ));
        };
        match cute_core::atom::Atom::lookup(ops[i])? {
            cute_core::atom::Atom::Copy(c) => Ok(Value::Atom(Box::new(
                cute_core::atom::Atom::Copy(c.with_value_bits(m.smem_bits[i])?),
            ))),
            a => Err(cute_core::err!("{} is not a copy atom", a.name())),
        }
    };
    let cfg = &m.config;
    Ok(match name {
        "CollectiveOp" => Value::Collective(Box::new(m.clone())),
        "SmemLayoutA" => layout(&m.smem_layout_a),
        "SmemLayoutB" => layout(&m.smem_layout_b),
        "SmemLayoutAtomA" => atom(0)?,
        "SmemLayoutAtomB" => atom(1)?,
        "TiledMma" => Value::TiledMma(Box::new(m.tiled_mma.clone())),
        "GmemTiledCopyA" => tma(0)?,
        "GmemTiledCopyB" => tma(1)?,
        "TileShape" => Value::Tuple(cfg.tile.iter().map(|&x| Value::Int(x)).collect()),
        "ElementA" => Value::Word(Word::Elem(cfg.a.0)),
        "ElementB" => Value::Word(Word::Elem(cfg.b.0)),
        "SmemCopyAtomA" => smem_copy(0)?,
        "SmemCopyAtomB" => smem_copy(1)?,
        "SharedStorage" if cfg.arch == cute_core::arch::Arch::Sm100 || m.block_scale.is_some() => {
            Value::Storage(m.smem_bytes()?)
        }
        "TmaTransactionBytes"
            if cfg.arch == cute_core::arch::Arch::Sm100 || m.block_scale.is_some() =>
        {
            Value::Int(m.tma_transaction_bytes()?)
        }
        "SmemLayoutAtomSFA" | "SmemLayoutAtomSFB" | "SmemLayoutSFA" | "SmemLayoutSFB"
        | "GmemTiledCopySFA" | "GmemTiledCopySFB" | "ElementSF" | "SFVecSize" | "LayoutSFA"
        | "LayoutSFB" | "Sm1xxBlkScaledConfig" => {
            let Some(bs) = &m.block_scale else {
                return Err(cute_core::err!(
                    "{name} is a block-scaled mainloop's (arch::OpClassBlockScaledTensorOp): this one has no scale factors"
                ));
            };
            let i = usize::from(name.ends_with('B'));
            match name {
                "SmemLayoutAtomSFA" | "SmemLayoutAtomSFB" => Value::Layout(bs.atoms[i].clone()),
                "SmemLayoutSFA" | "SmemLayoutSFB" => Value::Layout(bs.layouts[i].clone()),
                "ElementSF" => Value::Word(Word::Elem(bs.sf)),
                "SFVecSize" => Value::Int(bs.vs),
                // The global tensors' layouts: `Sm1xxBlockScaledConfig<VS>::LayoutSF`.
                "LayoutSFA" | "LayoutSFB" => Value::Layout(
                    cute_core::collective::sf_tensor_layout(bs.vs, AtomMajor::K)?,
                ),
                "Sm1xxBlkScaledConfig" => sf_config(&[Value::Int(bs.vs)], false)?,
                _ => {
                    let op = bs.gmem_copy[i].name();
                    crate::words::TmaOp::parse(op)
                        .map(|o| Value::Word(Word::Tma(o)))
                        .ok_or_else(|| cute_core::err!("unknown TMA op {op}"))?
                }
            }
        }
        _ => {
            return Err(cute_core::err!(
                "the collective has no member '{name}' here (known: CollectiveOp, DispatchPolicy, TileShape, ElementA, ElementB, TiledMma, SmemLayoutAtomA, SmemLayoutAtomB, SmemLayoutA, SmemLayoutB, GmemTiledCopyA, GmemTiledCopyB{})",
                match (&m.block_scale, cfg.arch) {
                    (Some(_), _) => ", SharedStorage, TmaTransactionBytes, ElementSF, SFVecSize, SmemLayoutAtomSFA, SmemLayoutAtomSFB, SmemLayoutSFA, SmemLayoutSFB, GmemTiledCopySFA, GmemTiledCopySFB, LayoutSFA, LayoutSFB, Sm1xxBlkScaledConfig",
                    (None, cute_core::arch::Arch::Sm100) => ", SharedStorage, TmaTransactionBytes",
                    _ => "",
                }
            ))
        }
    })
}

/// `cutlass::epilogue::collective::CollectiveBuilder<Arch, OpClass, TileShape, ClusterShape,
/// EpilogueTile, ElementAccumulator, ElementCompute, ElementC, LayoutC, AlignmentC, ElementD,
/// LayoutD, AlignmentD, Schedule[, Fusion]>`: its `CollectiveOp`, the default fusion.
fn epilogue_builder(arch: Arch, t: &[Value], block_scaled: bool) -> Result<Value> {
    let fusion = match t.get(14) {
        None => None,
        Some(Value::Word(Word::Fusion(f))) => Some(*f),
        Some(v) => {
            return Err(cute_core::err!(
                "the 15th argument is the epilogue's fusion (cutlass::epilogue::fusion::LinearCombination<...>, LinCombEltAct<Act, ...>, LinCombPerColBias<...>, ...), got {v}"
            ))
        }
    };
    let epi_tile = match &t[4] {
        Value::Word(Word::Schedule(tag)) if tag.name() == "EpilogueTileAuto" => None,
        v => {
            let s = v.to_int_tuple()?;
            match mode_sizes(&s)?[..] {
                [m, n] => Some([m, n]),
                _ => {
                    return Err(cute_core::err!(
                        "the epilogue tile is EpilogueTileAuto or a Shape<M, N>, got {s}"
                    ))
                }
            }
        }
    };
    let operand =
        |i: usize, name: &str| operand(&t[i..i + 3], name, &format!("GmemLayoutTag{name}"));
    let c = match &t[7] {
        Value::Word(Word::Void) => None,
        _ => Some(operand(7, "C")?),
    };
    let schedule = match &t[13] {
        Value::Word(Word::EpiSchedule(s)) => *s,
        Value::Word(Word::Schedule(tag)) if tag.name() == "EpilogueScheduleAuto" => EpilogueSchedule::Auto,
        v => {
            return Err(cute_core::err!(
                "the epilogue schedule is EpilogueScheduleAuto or one of cutlass::epilogue's NoSmemWarpSpecialized, TmaWarpSpecialized, TmaWarpSpecializedCooperative (SM90), TmaWarpSpecialized1Sm/2Sm, NoSmemWarpSpecialized1Sm/2Sm (SM100) here, got {v}"
            ))
        }
    };
    let cfg = EpilogueConfig {
        arch,
        cluster: shape3(&t[3], "ClusterShape_MNK")?,
        acc: elem(&t[5], "ElementAccumulator")?,
        compute: elem(&t[6], "ElementCompute")?,
        tile: shape3(&t[2], "TileShape_MNK")?,
        epi_tile,
        c,
        d: operand(10, "D")?,
        schedule,
        block_scaled,
        fusion: None,
    };
    let default = Fusion::default_for(cfg.d.0, cfg.compute, cfg.c.map(|c| c.0));
    let cfg = EpilogueConfig {
        fusion: fusion.filter(|f| *f != default),
        ..cfg
    };
    Ok(Value::Epilogue(Box::new(build_epilogue(&cfg)?)))
}

/// `CollectiveEpilogue::member`.
pub(crate) fn epilogue_member(e: &Epilogue, name: &str) -> Result<Value> {
    let tma = e.tma.as_ref();
    let need = |what: &str| -> Result<&cute_core::epilogue::TmaEpilogue> {
        tma.ok_or_else(|| {
            cute_core::err!(
                "{} (the no-smem epilogue, {}) has no {what}: it stores the accumulators straight to global memory",
                e.schedule,
                e.policy_name()
            )
        })
    };
    let ints = |v: &[i64]| Value::Tuple(v.iter().map(|&x| Value::Int(x)).collect());
    let atom = |n: &str| -> Result<Value> {
        match cute_core::atom::Atom::lookup(n)? {
            cute_core::atom::Atom::Copy(c) => {
                Ok(Value::Atom(Box::new(cute_core::atom::Atom::Copy(c))))
            }
            a => Err(cute_core::err!("{} is not a copy atom", a.name())),
        }
    };
    let op = |n: &str| {
        crate::words::TmaOp::parse(n)
            .map(|o| Value::Word(Word::Tma(o)))
            .ok_or_else(|| cute_core::err!("unknown TMA op {n}"))
    };
    Ok(match name {
        "CollectiveOp" => Value::Epilogue(Box::new(e.clone())),
        "SharedStorage" => Value::Storage(e.shared_storage_bytes),
        "ThreadEpilogueOp" | "FusionOperation" => Value::Word(Word::Fusion(e.fusion_op())),
        "EpilogueTile" => match (tma, e.no_smem_tile) {
            (None, Some(t)) => ints(&t),
            _ => {
                let t = need(name)?;
                match &t.epi_tile_layouts {
                    // SM100's automatic tile is a tile of layouts.
                    Some(ls) => Value::Tuple(ls.iter().cloned().map(Value::from).collect()),
                    None => ints(&t.epi_tile),
                }
            }
        },
        "CopyOpT2R" => match &e.tmem_load {
            Some(n) => atom(n)?,
            None => {
                return Err(Error::new(
                    "CopyOpT2R is SM100's (the TMEM load): an SM90 epilogue reads the accumulators from registers",
                ))
            }
        },
        "CtaTileShape" | "CtaTileMNK" => {
            let [m, n, k] = e.config.tile;
            let two = matches!(
                e.schedule,
                EpilogueSchedule::TmaWs2Sm | EpilogueSchedule::NoSmem2Sm
            );
            ints(&[if two { m / 2 } else { m }, n, k])
        }
        "SmemLayoutAtomC" => Value::from(cute_core::epilogue::atom_layout(need(name)?.atoms[0])?),
        "SmemLayoutAtomD" => Value::from(cute_core::epilogue::atom_layout(need(name)?.atoms[1])?),
        // The no-smem epilogue's copies are `void`.
        "GmemTiledCopyC" | "GmemTiledCopyD" if tma.is_none() => Value::Word(Word::Void),
        "GmemTiledCopyC" => op("SM90_TMA_LOAD")?,
        "GmemTiledCopyD" => op("SM90_TMA_STORE")?,
        "SmemLayoutC" | "SmemLayoutD" | "StagesC" | "StagesD" | "ReuseSmemC" => {
            return Err(cute_core::err!(
                "{name} is a private member of CUTLASS's epilogue collective (C++ refuses it): read DispatchPolicy::StagesC/StagesD; the kernel report draws the smem layouts"
            ))
        }
        _ => {
            return Err(cute_core::err!(
                "the epilogue collective has no member '{name}' here (known: CollectiveOp, SharedStorage, DispatchPolicy, ThreadEpilogueOp, EpilogueTile, SmemLayoutAtomC, SmemLayoutAtomD, GmemTiledCopyC, GmemTiledCopyD)"
            ))
        }
    })
}
