//! The type table: the language's class templates and type traits, one row each, shaped
//! like the op rows ([`crate::ops::Op`]): a name, its spellings, its template parameters and
//! a body that converts the arguments and calls one typed function.

use crate::convert::bits_of;
use crate::ops;
use crate::value::{Major, Value};
use crate::words::Word;
use cute_core::atom::Atom;
use cute_core::elem::Elem;
use cute_core::epilogue::FusionKind;
use cute_core::error::{Error, Result};
use cute_core::layout::Layout;
use cute_core::swizzle::Offset;

/// One C++ class template or type trait of the language: its name, the other spellings
/// that mean it, how many template arguments it takes, one line of meaning, and a body
/// that builds its value from the arguments. The type table's rows are shaped like the op
/// table's ([`crate::ops::Op`]); families whose names follow a grammar (GMMA/UMMA ops, smem
/// atoms, dispatch policies) are read by their modules before the table is consulted.
pub struct TypeRow {
    /// C++'s name.
    pub name: &'static str,
    /// Other spellings with the same meaning.
    pub spellings: &'static [&'static str],
    /// The template parameters, as the docs show them.
    pub params: &'static str,
    /// Fewest and most template arguments (`None`: any number, as `Shape<...>`).
    pub arity: Option<(usize, usize)>,
    /// What its value is, in one line.
    pub meaning: &'static str,
    pub(crate) body: fn(&[Value]) -> Result<Value>,
}

impl TypeRow {
    /// Whether `name` (namespaces stripped) spells this type.
    pub fn is_named(&self, name: &str) -> bool {
        self.name == name || self.spellings.contains(&name)
    }
}

macro_rules! ty {
    ($name:literal $(| $alt:literal)*, $params:literal, $arity:expr, $meaning:literal, $body:expr) => {
        TypeRow {
            name: $name,
            spellings: &[$($alt),*],
            params: help!($params),
            arity: $arity,
            meaning: help!($meaning),
            body: $body,
        }
    };
}

const ANY: Option<(usize, usize)> = None;
const fn n(lo: usize, hi: usize) -> Option<(usize, usize)> {
    Some((lo, hi))
}

/// The unsigned element type of `bits` bits, if there is one.
fn unsigned_of_bits(bits: i64) -> Option<Value> {
    Elem::uint_of_bits(bits).map(|e| Value::Word(Word::Elem(e)))
}

/// A type trait's boolean.
fn trait_of(f: fn(&Value) -> bool) -> impl Fn(&[Value]) -> Result<Value> {
    move |t| Ok(Value::Bool(f(&t[0])))
}

/// The language's class templates and type traits, one row each.
pub static TYPES: &[TypeRow] = &[
    // --- integers and tuples -----------------------------------------------------------
    ty!("Int" | "C", "<N>", n(1, 1), "the static integer N",
        |t| Ok(Value::Int(t[0].to_int()?))),
    ty!("E", "<i, j...>", n(1, 8), "the unit basis vector of coordinate (i, j, ...), printed 1@i (1@j@i)",
        ops::basis::unit),
    ty!("ScaledBasis", "<T, i, j...>", n(2, 9), "T times the basis vector E<i, j...>, printed T@i",
        ops::basis::scaled_basis),
    ty!("Shape" | "Stride" | "Step" | "Coord", "<T...>", ANY,
        "a tuple of its arguments; a run-time integer type (`int64_t`) is a dynamic 0, as C++ value-initializes it",
        |t| Ok(Value::Tuple(t.iter().map(tuple_entry).collect::<Result<_>>()?))),
    ty!("Tile", "<T...>", ANY, "a tuple of tilers (layouts, integers, `_`)",
        |t| {
            for x in t {
                x.to_tiler()?;
            }
            Ok(Value::Tuple(t.to_vec()))
        }),
    // --- layouts and swizzles ----------------------------------------------------------
    ty!("Layout", "<Shape[, Stride | LayoutLeft | LayoutRight]>", n(1, 2),
        "the layout of the shape (column-major by default)",
        |t| {
            let shape = t[0].to_int_tuple()?;
            match t.get(1) {
                None | Some(Value::Major(Major::Left)) => Ok(Layout::col_major(shape)?.into()),
                Some(Value::Major(Major::Right)) => Ok(Layout::row_major(shape)?.into()),
                Some(d) => Ok(Layout::new(shape, d.to_int_tuple()?)?.into()),
            }
        }),
    ty!("Swizzle" | "Sw", "<B, M[, S]>", n(2, 3), "the swizzle Sw<B,M,S> (S defaults to B)",
        |t| match t {
            [b, m] => ops::algebra::make_swizzle(&[b.clone(), m.clone(), b.clone()]),
            t => ops::algebra::make_swizzle(t),
        }),
    ty!("smem_ptr_flag_bits", "<B>", n(1, 1), "the offset of a GMMA/UMMA smem atom: a shared-memory pointer of B-bit elements",
        |t| Ok(Value::Offset(Offset::SmemPtr { bits: bits_of(&t[0])? }))),
    ty!("ComposedLayout", "<Outer, Offset, Inner>", n(3, 3), "the composed layout Outer o Offset o Inner",
        |t| Ok(Value::Composed(ops::algebra::make_composed(t)?))),
    // --- atoms -------------------------------------------------------------------------
    #[cfg(feature = "full")]
    ty!("MMA_Atom" | "MMA_Traits" | "Copy_Traits", "<Op>", n(1, 1), "the atom of the op, with CuTe's traits",
        |t| ops::atoms::atom_with_type(&t[0], None)),
    #[cfg(feature = "full")]
    ty!("Copy_Atom", "<Op, T>", n(2, 2), "the copy atom of the op with value type T (layouts recast to T)",
        |t| ops::atoms::atom_with_type(&t[0], Some(&t[1]))),
    #[cfg(feature = "full")]
    ty!("UniversalCopy", "<S[, D]>", n(1, 2), "the universal copy of sizeof_bits<S> bits",
        |t| {
            let bits = bits_of(&t[0])?;
            let atom = cute_core::atom::CopyAtom::universal(bits)?;
            Ok(Value::Atom(Box::new(Atom::Copy(atom))))
        }),
    #[cfg(feature = "full")]
    ty!("TiledMMA", "<Atom[, AtomLayout[, Permutations]]>", n(1, 3), "make_tiled_mma of its arguments",
        |t| ops::atoms::make_tiled_mma(t, &[])),
    // --- GMMA's thread-value layouts (mma_traits_sm90_gmma.hpp) ----------------------------
    #[cfg(feature = "full")]
    ty!("ABLayout", "<M, K>", n(2, 2), "GMMA's A or B read through a descriptor: (128,(M,K)):(0,(1,M))",
        |t| Ok(Value::Layout(cute_core::gmma::ab_layout(t[0].to_int()?, t[1].to_int()?)?))),
    #[cfg(feature = "full")]
    ty!("CLayout_64xN", "<N>", n(1, 1), "GMMA's 64 x N accumulator: ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))",
        |t| Ok(Value::Layout(cute_core::gmma::c_layout(t[0].to_int()?)?))),
    // --- CUTLASS's collective builders (gemm/collective/collective_builder.hpp) -----------
    #[cfg(feature = "full")]
    ty!("CollectiveBuilder", "<Arch, OpClass, ElementA, LayoutA, AlignmentA, ElementB, LayoutB, AlignmentB, ElementAccumulator, TileShape_MNK, ClusterShape_MNK, StageCount, KernelSchedule>", n(13, 16),
        "the GEMM mainloop CUTLASS builds (SM90 TMA warp-specialized): ::CollectiveOp's SmemLayoutA/B, TiledMma, GmemTiledCopyA/B, DispatchPolicy",
        ops::collective::builder),
    #[cfg(feature = "full")]
    ty!("GemmUniversal", "<ProblemShape, CollectiveMainloop, CollectiveEpilogue[, TileScheduler]>", n(3, 4),
        "the GEMM kernel of a builder's mainloop and epilogue: its members CollectiveMainloop, CollectiveEpilogue, ProblemShape, TileScheduler",
        ops::collective::gemm_universal),
    #[cfg(feature = "full")]
    ty!("Sm1xxBlockScaledConfig", "<SFVecSize>", n(1, 1),
        "cutlass::detail's scale-factor config: Blk_MN, Blk_SF, SfAtom and the tensors' LayoutSF (K-major)",
        |t| ops::collective::sf_config(t, false)),
    #[cfg(feature = "full")]
    ty!("Sm1xxBlockScaledOutputConfig", "<SFVecSize[, UMMA::Major]>", n(1, 2),
        "cutlass::detail's config of a fusion's output scale factors (SFD): SfAtom and LayoutSF of the major",
        |t| ops::collective::sf_config(t, true)),
    #[cfg(feature = "full")]
    ty!("GemmUniversalAdapter", "<GemmKernel>", n(1, 1),
        "the device-side handle of a GemmUniversal kernel: its members GemmKernel, CollectiveMainloop, CollectiveEpilogue",
        ops::collective::gemm_adapter),
    #[cfg(feature = "full")]
    ty!("LinearCombination", "<ElementOutput, ElementCompute[, ElementSource, ElementScalar]>", n(2, 4),
        "an epilogue fusion: D = alpha * acc + beta * C (the epilogue builder's default)",
        |t| ops::collective::fusion(FusionKind::LinearCombination, t)),
    #[cfg(feature = "full")]
    ty!("LinCombEltAct", "<ActivationFn, ElementOutput, ElementCompute[, ElementSource, ElementScalar]>", n(3, 5),
        "an epilogue fusion: D = act(alpha * acc + beta * C), act one of cutlass::epilogue::thread's activations",
        |t| ops::collective::fusion(FusionKind::LinCombEltAct, t)),
    #[cfg(feature = "full")]
    ty!("LinCombPerRowBias", "<ElementOutput, ElementCompute[, ElementBias, ElementSource, ElementScalar, AlignmentBias]>", n(2, 6),
        "an epilogue fusion: D = alpha * acc + beta * C + bias, a bias per row (read from global memory)",
        |t| ops::collective::fusion(FusionKind::LinCombPerRowBias, t)),
    #[cfg(feature = "full")]
    ty!("LinCombPerColBias", "<ElementOutput, ElementCompute[, ElementBias, ElementSource, ElementScalar, AlignmentBias]>", n(2, 6),
        "an epilogue fusion: D = alpha * acc + beta * C + bias, a bias per column (the CTA's N of them staged in shared memory)",
        |t| ops::collective::fusion(FusionKind::LinCombPerColBias, t)),
    #[cfg(feature = "full")]
    ty!("LinCombPerRowBiasEltAct", "<ActivationFn, ElementOutput, ElementCompute[, ElementBias, ElementSource, ElementScalar, AlignmentBias]>", n(3, 7),
        "an epilogue fusion: D = act(alpha * acc + beta * C + bias), a bias per row",
        |t| ops::collective::fusion(FusionKind::LinCombPerRowBiasEltAct, t)),
    #[cfg(feature = "full")]
    ty!("LinCombPerColBiasEltAct", "<ActivationFn, ElementOutput, ElementCompute[, ElementBias, ElementSource, ElementScalar, AlignmentBias]>", n(3, 7),
        "an epilogue fusion: D = act(alpha * acc + beta * C + bias), a bias per column (staged in shared memory)",
        |t| ops::collective::fusion(FusionKind::LinCombPerColBiasEltAct, t)),
    #[cfg(feature = "full")]
    ty!("ScaledLinCombPerRowBiasEltAct", "<ActivationFn, ElementOutput, ElementCompute[, ElementBias, ElementSource, ElementScalar, AlignmentBias]>", n(3, 7),
        "an epilogue fusion: D = scale_d * act(scale_a * scale_b * alpha * acc + scale_c * beta * C + bias), a bias per row (FP8 scaling)",
        |t| ops::collective::fusion(FusionKind::ScaledLinCombPerRowBiasEltAct, t)),
    #[cfg(feature = "full")]
    ty!("ScaledLinCombPerColBiasEltAct", "<ActivationFn, ElementOutput, ElementCompute[, ElementBias, ElementSource, ElementScalar, AlignmentBias]>", n(3, 7),
        "an epilogue fusion: D = scale_d * act(scale_a * scale_b * alpha * acc + scale_c * beta * C + bias), a bias per column (FP8 scaling)",
        |t| ops::collective::fusion(FusionKind::ScaledLinCombPerColBiasEltAct, t)),
    #[cfg(feature = "full")]
    ty!("LinCombPerRowBiasEltActAux", "<GmemLayoutTagAux, ActivationFn, ElementOutput, ElementCompute[, ElementAux, ElementBias, ElementSource, ElementScalar, AlignmentAux, AlignmentBias]>", n(4, 10),
        "an epilogue fusion: Z = alpha * acc + beta * C + per-row bias, D = act(Z), Z also stored as the aux tensor (staged in shared memory)",
        |t| ops::collective::fusion(FusionKind::LinCombPerRowBiasEltActAux, t)),
    #[cfg(feature = "full")]
    ty!("LinCombPerColBiasEltActAux", "<GmemLayoutTagAux, ActivationFn, ElementOutput, ElementCompute[, ElementAux, ElementBias, ElementSource, ElementScalar, AlignmentAux, AlignmentBias]>", n(4, 10),
        "an epilogue fusion: Z = alpha * acc + beta * C + per-column bias, D = act(Z), Z also stored as the aux tensor (both staged in shared memory)",
        |t| ops::collective::fusion(FusionKind::LinCombPerColBiasEltActAux, t)),
    #[cfg(feature = "full")]
    ty!("PerRowLinCombPerRowBiasEltAct", "<ActivationFn, ElementOutput, ElementCompute[, ElementBias, ElementSource, ElementScalar, AlignmentBias, AlignmentScalar]>", n(3, 8),
        "an epilogue fusion: D = act(alpha * acc + beta * C + bias) with alpha, beta and the bias per row",
        |t| ops::collective::fusion(FusionKind::PerRowLinCombPerRowBiasEltAct, t)),
    #[cfg(feature = "full")]
    ty!("PerColLinCombPerColBiasEltAct", "<ActivationFn, ElementOutput, ElementCompute[, ElementBias, ElementSource, ElementScalar, AlignmentBias, AlignmentScalar]>", n(3, 8),
        "an epilogue fusion: D = act(alpha * acc + beta * C + bias) with alpha, beta and the bias per column (staged in shared memory)",
        |t| ops::collective::fusion(FusionKind::PerColLinCombPerColBiasEltAct, t)),
    #[cfg(feature = "full")]
    ty!("PerColResAddPerColBiasEltAct", "<ActivationFn, ElementOutput, ElementCompute[, ElementBias, ElementSource, ElementScalar, AlignmentBias, AlignmentScalar]>", n(3, 8),
        "an epilogue fusion: D = beta * C + act(alpha * acc + bias), the residual C added after the activation, alpha, beta and the bias per column",
        |t| ops::collective::fusion(FusionKind::PerColResAddPerColBiasEltAct, t)),
    #[cfg(feature = "full")]
    ty!("ScaledLinCombPerRowBiasEltActAmaxAux", "<GmemLayoutTagAux, ActivationFn, ElementOutput, ElementCompute[, ElementAux, ElementAmax, ElementBias, ElementSource, ElementScalar, AlignmentAux, AlignmentBias]>", n(4, 11),
        "an epilogue fusion: the FP8 GEMM's scaled D = act(Z) and aux = Z with a per-row bias, and the amax of each (the aux staged in shared memory)",
        |t| ops::collective::fusion(FusionKind::ScaledLinCombPerRowBiasEltActAmaxAux, t)),
    #[cfg(feature = "full")]
    ty!("ScaledLinCombPerColBiasEltActAmaxAux", "<GmemLayoutTagAux, ActivationFn, ElementOutput, ElementCompute[, ElementAux, ElementAmax, ElementBias, ElementSource, ElementScalar, AlignmentAux, AlignmentBias]>", n(4, 11),
        "an epilogue fusion: the FP8 GEMM's scaled D = act(Z) and aux = Z with a per-column bias, and the amax of each (bias and aux staged in shared memory)",
        |t| ops::collective::fusion(FusionKind::ScaledLinCombPerColBiasEltActAmaxAux, t)),
    #[cfg(feature = "full")]
    ty!("LinCombDeEltAct", "<GmemLayoutTagAux, ActivationFn, ElementOutput, ElementCompute[, ElementAux, ElementSource, ElementScalar, AlignmentAux]>", n(4, 8),
        "an epilogue fusion: D = act'(alpha * acc + beta * C, aux), a backward activation (dReLU, dGELU) of the aux tensor (staged in shared memory)",
        |t| ops::collective::fusion(FusionKind::LinCombDeEltAct, t)),
    #[cfg(feature = "full")]
    ty!("LinCombDeEltActDePerRowBias", "<GmemLayoutTagAux, ActivationFn, ElementOutput, ElementCompute[, ElementAux, ElementBias, ElementSource, ElementScalar, AlignmentAux, AlignmentBias]>", n(4, 10),
        "an epilogue fusion: D = act'(alpha * acc + beta * C, aux) and the bias gradient, D's sum per row",
        |t| ops::collective::fusion(FusionKind::LinCombDeEltActDePerRowBias, t)),
    #[cfg(feature = "full")]
    ty!("LinCombBlockScaleFactor", "<SFVecSize, ElementOutput, ElementCompute, ElementBlockScaleFactor[, GmemLayoutTagScalefactor, ElementSource, ElementScalar]>", n(4, 7),
        "an epilogue fusion: D = alpha * acc + beta * C quantized with block scale factors (SFVecSize elements a factor), which it writes beside D",
        |t| ops::collective::fusion(FusionKind::LinCombBlockScaleFactor, t)),
    #[cfg(feature = "full")]
    ty!("LinCombEltActBlockScaleFactor", "<ActivationFn, SFVecSize, ElementOutput, ElementCompute, ElementBlockScaleFactor[, GmemLayoutTagScalefactor, ElementSource, ElementScalar]>", n(5, 8),
        "an epilogue fusion: D = act(alpha * acc + beta * C) quantized with block scale factors (the grouped epilogues only)",
        |t| ops::collective::fusion(FusionKind::LinCombEltActBlockScaleFactor, t)),
    #[cfg(feature = "full")]
    ty!("LinCombPerRowBiasBlockScaleFactor", "<SFVecSize, ElementOutput, ElementCompute, ElementBlockScaleFactor[, GmemLayoutTagScalefactor, ElementBias, ElementSource, ElementScalar, AlignmentBias]>", n(4, 9),
        "an epilogue fusion: D = alpha * acc + beta * C + per-row bias, quantized with block scale factors",
        |t| ops::collective::fusion(FusionKind::LinCombPerRowBiasBlockScaleFactor, t)),
    #[cfg(feature = "full")]
    ty!("LinCombPerColBiasBlockScaleFactor", "<SFVecSize, ElementOutput, ElementCompute, ElementBlockScaleFactor[, GmemLayoutTagScalefactor, ElementBias, ElementSource, ElementScalar, AlignmentBias]>", n(4, 9),
        "an epilogue fusion: D = alpha * acc + beta * C + per-column bias, quantized with block scale factors",
        |t| ops::collective::fusion(FusionKind::LinCombPerColBiasBlockScaleFactor, t)),
    #[cfg(feature = "full")]
    ty!("LinCombPerRowBiasEltActBlockScaleFactor", "<ActivationFn, SFVecSize, ElementOutput, ElementCompute, ElementBlockScaleFactor[, GmemLayoutTagScalefactor, ElementBias, ElementSource, ElementScalar, AlignmentBias]>", n(5, 10),
        "an epilogue fusion: D = act(alpha * acc + beta * C + per-row bias), quantized with block scale factors",
        |t| ops::collective::fusion(FusionKind::LinCombPerRowBiasEltActBlockScaleFactor, t)),
    #[cfg(feature = "full")]
    ty!("LinCombPerColBiasEltActBlockScaleFactor", "<ActivationFn, SFVecSize, ElementOutput, ElementCompute, ElementBlockScaleFactor[, GmemLayoutTagScalefactor, ElementBias, ElementSource, ElementScalar, AlignmentBias]>", n(5, 10),
        "an epilogue fusion: D = act(alpha * acc + beta * C + per-column bias), quantized with block scale factors",
        |t| ops::collective::fusion(FusionKind::LinCombPerColBiasEltActBlockScaleFactor, t)),
    #[cfg(feature = "full")]
    ty!("LinCombTopKSoftmaxCol" | "LinearCombinationGroupedWgrad", "<...>", ANY,
        "an epilogue fusion with a top-k softmax or a grouped weight gradient: not resolved yet",
        |_| Err(Error::new(
            "this epilogue fusion is not resolved yet: its top-k softmax or grouped weight-gradient nodes stage their own reductions; the 23 other fusions of cutlass::epilogue::fusion (LinearCombination, LinCombEltAct, the bias, aux, amax, per-row/column scale and block-scale-factor ones) are resolved",
        ))),
    #[cfg(feature = "full")]
    ty!("StageCount", "<N>", n(1, 1), "a collective builder's fixed stage count",
        ops::collective::stage_count),
    #[cfg(feature = "full")]
    ty!("StageCountAutoCarveout", "<bytes>", n(1, 1), "as many stages as fit beside bytes of shared memory the kernel keeps (the epilogue's SharedStorage)",
        ops::collective::carveout),
    // --- element types -----------------------------------------------------------------
    ty!("tuple", "<T...>", ANY, "a tuple of types: a block-scaled operand's cute::tuple<T, ScaleFactor[, Int<VS>]>",
        |t| Ok(Value::Tuple(t.to_vec()))),
    ty!("nv_float4_t", "<T>", n(1, 1), "a block-scaled FP4 operand: T = float_e2m1_t with a float_ue4m3_t scale per 16 elements (NVFP4)",
        |t| ops::collective::scaled(&t[0], None)),
    ty!("mx_float4_t", "<T>", n(1, 1), "a block-scaled FP4 operand: T = float_e2m1_t with a float_ue8m0_t scale per 32 elements (MXFP4)",
        |t| ops::collective::scaled(&t[0], Some(4))),
    ty!("mx_float6_t", "<T>", n(1, 1), "a block-scaled FP6 operand: T = float_e2m3_t or float_e3m2_t with a float_ue8m0_t scale per 32 elements (MXFP6)",
        |t| ops::collective::scaled(&t[0], Some(6))),
    ty!("mx_float8_t", "<T>", n(1, 1), "a block-scaled FP8 operand: T = float_e4m3_t or float_e5m2_t with a float_ue8m0_t scale per 32 elements (MXFP8)",
        |t| ops::collective::scaled(&t[0], Some(8))),
    ty!("uint_bit_t", "<N>", n(1, 1), "the unsigned type of N bits",
        |t| {
            let bits = t[0].to_int()?;
            unsigned_of_bits(bits).ok_or_else(|| cute_core::err!("no unsigned type of {bits} bits"))
        }),
    ty!("uint_byte_t", "<N>", n(1, 1), "the unsigned type of N bytes",
        |t| {
            let bytes = t[0].to_int()?;
            unsigned_of_bits(bytes.checked_mul(8).unwrap_or(0))
                .ok_or_else(|| cute_core::err!("no unsigned type of {bytes} bytes"))
        }),
    ty!("complex", "<T>", n(1, 1), "complex<float> or complex<double>",
        |t| match bits_of(&t[0])? {
            32 => Ok(Value::Word(Word::Elem(Elem::C32))),
            64 => Ok(Value::Word(Word::Elem(Elem::C64))),
            b => Err(cute_core::err!("complex of a {b}-bit type is not an element type here")),
        }),
    ty!("sizeof_bits" | "sizeof_bits_v", "<T>", n(1, 1), "the width of T in bits",
        |t| Ok(Value::Int(bits_of(&t[0])?))),
    // --- type traits (everything here is static) ---------------------------------------
    ty!("conditional_t" | "conditional", "<Cond, T, F>", n(3, 3), "T if Cond holds, else F",
        |t| {
            let c = match &t[0] {
                Value::Bool(b) => *b,
                Value::Int(v) | Value::Dyn(v) => *v != 0,
                v => {
                    return Err(cute_core::err!(
                        "the condition must be a boolean, got {}",
                        v.kind()
                    ))
                }
            };
            Ok(t[if c { 1 } else { 2 }].clone())
        }),
    ty!("is_same_v" | "is_same", "<A, B>", n(2, 2), "whether A and B are the same",
        |t| Ok(Value::Bool(t[0] == t[1]))),
    ty!("is_static" | "is_static_v", "<T>", n(1, 1), "whether T is known at compile time",
        |t| trait_of(is_static)(t)),
    ty!("is_layout", "<T>", n(1, 1), "whether T is a layout",
        |t| trait_of(|v| matches!(v, Value::Layout(_)))(t)),
    ty!("is_composed_layout", "<T>", n(1, 1), "whether T is a composed layout",
        |t| trait_of(|v| matches!(v, Value::Composed(_)))(t)),
    ty!("is_tuple", "<T>", n(1, 1), "whether T is a tuple",
        |t| trait_of(|v| matches!(v, Value::Tuple(_)))(t)),
    ty!("is_integral", "<T>", n(1, 1), "whether T is an integer (or a boolean)",
        |t| trait_of(|v| matches!(v, Value::Int(_) | Value::Dyn(_) | Value::Bool(_)))(t)),
];

/// The type spelled `name` (C++ name or another spelling).
pub fn lookup_type(name: &str) -> Option<&'static TypeRow> {
    TYPES.iter().find(|t| t.is_named(name))
}

/// A `Shape<...>` entry: a run-time integer type (`Stride<_1, int64_t>`, as kernels spell
/// StrideA) is a dynamic integer that C++ value-initializes to 0 (`Shape<int,int>{}`
/// prints (0,0)).
fn tuple_entry(v: &Value) -> Result<Value> {
    match v {
        Value::Word(Word::Elem(e)) if e.is_int_8_plus() => Ok(Value::Dyn(0)),
        // `Step<_1, X, _1>`: CuTe's `X` is `Underscore`, a tuple element like any type.
        Value::Under => Ok(Value::Under),
        Value::Tuple(vs) => Ok(Value::Tuple(
            vs.iter().map(tuple_entry).collect::<Result<_>>()?,
        )),
        v => v.to_int_tuple().map(|_| v.clone()),
    }
}

/// Whether a value is a compile-time constant in C++ ([`Value::is_static`]).
pub(crate) fn is_static(v: &Value) -> bool {
    v.is_static()
}
