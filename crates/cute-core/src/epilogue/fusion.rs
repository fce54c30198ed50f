//! The epilogue's fusion argument (`cutlass::epilogue::fusion::*`, `operations.hpp`) and what
//! its callbacks keep in shared memory: `sizeof(FusionCallbacks::SharedStorage)`, the
//! `thread` member of the collective's `TensorStorage`.
//!
//! A fusion is a tree of visitor nodes (`Sm90EVT<Node, Children...>`); its storage is the
//! `cute::tuple` of the children's storages and then the node's, where an empty storage
//! takes no space (cute's "empty structure optimization") and the rest nest as
//! `struct { First first_; Rest rest_; }`. The nodes that stage something are the row
//! broadcasts (`Sm90RowBroadcast`: a value per CTA column), the aux tensor's store or load
//! (`Sm90AuxStore`/`Sm90AuxLoad`: one epilogue subtile a stage, swizzled as C and D are),
//! and SM100's and SM120's block-scale-factor stores (their cross-warp reductions).
//!
//! ```
//! use cute_core::epilogue::{FusionKind, Fusion};
//! use cute_core::elem::Elem;
//! let f = Fusion::of(FusionKind::LinCombPerColBias, Elem::F16, Elem::F32);
//! assert_eq!(f.to_string(), "fusion::LinCombPerColBias<half_t, float, half_t, half_t, float, 8>");
//! assert_eq!(f.stages_buffers(), true);
//! ```

use crate::arch::Arch;
use crate::collective::{round_up, GemmLayout};
use crate::elem::Elem;
use crate::error::{arith, Error, Result};
use std::fmt;

/// An elementwise activation of the epilogue (`cutlass::epilogue::thread::ReLu`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// `ReLu` (also spelled `ReLU`).
    ReLu,
    /// `GELU`.
    Gelu,
    /// `GELU_taylor`.
    GeluTaylor,
    /// `SiLu`.
    SiLu,
    /// `Sigmoid`.
    Sigmoid,
    /// `Tanh`.
    Tanh,
    /// `HardSwish`.
    HardSwish,
    /// `Identity`.
    Identity,
    /// `dReLU`: ReLU's derivative, of the forward pass's aux mask (`LinCombDeEltAct`).
    DRelu,
    /// `dGELU`: GELU's derivative, of the forward pass's aux tensor.
    DGelu,
}

impl Activation {
    /// Every activation.
    pub const ALL: [Activation; 10] = [
        Activation::ReLu,
        Activation::Gelu,
        Activation::GeluTaylor,
        Activation::SiLu,
        Activation::Sigmoid,
        Activation::Tanh,
        Activation::HardSwish,
        Activation::Identity,
        Activation::DRelu,
        Activation::DGelu,
    ];

    /// As CUTLASS names the functor.
    pub fn name(self) -> &'static str {
        match self {
            Activation::ReLu => "ReLu",
            Activation::Gelu => "GELU",
            Activation::GeluTaylor => "GELU_taylor",
            Activation::SiLu => "SiLu",
            Activation::Sigmoid => "Sigmoid",
            Activation::Tanh => "Tanh",
            Activation::HardSwish => "HardSwish",
            Activation::Identity => "Identity",
            Activation::DRelu => "dReLU",
            Activation::DGelu => "dGELU",
        }
    }

    /// The activation of that name (`ReLU` is CUTLASS's alias of `ReLu`).
    ///
    /// ```
    /// use cute_core::epilogue::Activation;
    /// assert_eq!(Activation::parse("ReLU"), Some(Activation::ReLu));
    /// assert_eq!(Activation::parse("Softmax"), None);
    /// ```
    pub fn parse(name: &str) -> Option<Activation> {
        match name {
            "ReLU" => Some(Activation::ReLu),
            n => Activation::ALL.into_iter().find(|a| a.name() == n),
        }
    }
}

/// The fusions of `operations.hpp` resolved here, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum FusionKind {
    LinearCombination,
    LinCombEltAct,
    LinCombPerRowBias,
    LinCombPerColBias,
    LinCombPerRowBiasEltAct,
    LinCombPerColBiasEltAct,
    LinCombPerRowBiasEltActAux,
    LinCombPerColBiasEltActAux,
    PerRowLinCombPerRowBiasEltAct,
    PerColLinCombPerColBiasEltAct,
    PerColResAddPerColBiasEltAct,
    ScaledLinCombPerRowBiasEltAct,
    ScaledLinCombPerColBiasEltAct,
    ScaledLinCombPerRowBiasEltActAmaxAux,
    ScaledLinCombPerColBiasEltActAmaxAux,
    LinCombDeEltAct,
    LinCombDeEltActDePerRowBias,
    LinCombBlockScaleFactor,
    LinCombEltActBlockScaleFactor,
    LinCombPerRowBiasBlockScaleFactor,
    LinCombPerColBiasBlockScaleFactor,
    LinCombPerRowBiasEltActBlockScaleFactor,
    LinCombPerColBiasEltActBlockScaleFactor,
}

/// One template parameter of a fusion, in `operations.hpp`'s order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FusionParam {
    /// `GmemLayoutTagAux`.
    AuxLayout,
    /// `ActivationFn` (a template).
    Act,
    /// `SFVecSize`.
    VecSize,
    /// `ElementOutput`.
    Output,
    /// `ElementCompute`.
    Compute,
    /// `ElementAux` (defaults to the output).
    Aux,
    /// `ElementAmax` (defaults to the compute type).
    Amax,
    /// `ElementBias` (defaults to the output, or the compute type for `DePerRowBias`).
    Bias,
    /// `ElementBlockScaleFactor`.
    ScaleFactor,
    /// `GmemLayoutTagScalefactor` (defaults to `RowMajor`).
    ScaleFactorLayout,
    /// `ElementSource` (defaults to the output; `void` for none).
    Source,
    /// `ElementScalar` (defaults to the compute type).
    Scalar,
    /// `AlignmentAux` (defaults to 128 bits of the aux).
    AlignAux,
    /// `AlignmentBias` (defaults to 128 bits of the bias).
    AlignBias,
    /// `AlignmentScalar` (defaults to 128 bits of the scalar).
    AlignScalar,
}

use FusionKind as K;
use FusionParam as P;

impl FusionKind {
    /// Every fusion resolved here.
    pub const ALL: [FusionKind; 23] = [
        K::LinearCombination,
        K::LinCombEltAct,
        K::LinCombPerRowBias,
        K::LinCombPerColBias,
        K::LinCombPerRowBiasEltAct,
        K::LinCombPerColBiasEltAct,
        K::LinCombPerRowBiasEltActAux,
        K::LinCombPerColBiasEltActAux,
        K::PerRowLinCombPerRowBiasEltAct,
        K::PerColLinCombPerColBiasEltAct,
        K::PerColResAddPerColBiasEltAct,
        K::ScaledLinCombPerRowBiasEltAct,
        K::ScaledLinCombPerColBiasEltAct,
        K::ScaledLinCombPerRowBiasEltActAmaxAux,
        K::ScaledLinCombPerColBiasEltActAmaxAux,
        K::LinCombDeEltAct,
        K::LinCombDeEltActDePerRowBias,
        K::LinCombBlockScaleFactor,
        K::LinCombEltActBlockScaleFactor,
        K::LinCombPerRowBiasBlockScaleFactor,
        K::LinCombPerColBiasBlockScaleFactor,
        K::LinCombPerRowBiasEltActBlockScaleFactor,
        K::LinCombPerColBiasEltActBlockScaleFactor,
    ];

    /// The name in `cutlass::epilogue::fusion`.
    pub fn name(self) -> &'static str {
        match self {
            K::LinearCombination => "LinearCombination",
            K::LinCombEltAct => "LinCombEltAct",
            K::LinCombPerRowBias => "LinCombPerRowBias",
            K::LinCombPerColBias => "LinCombPerColBias",
            K::LinCombPerRowBiasEltAct => "LinCombPerRowBiasEltAct",
            K::LinCombPerColBiasEltAct => "LinCombPerColBiasEltAct",
            K::LinCombPerRowBiasEltActAux => "LinCombPerRowBiasEltActAux",
            K::LinCombPerColBiasEltActAux => "LinCombPerColBiasEltActAux",
            K::PerRowLinCombPerRowBiasEltAct => "PerRowLinCombPerRowBiasEltAct",
            K::PerColLinCombPerColBiasEltAct => "PerColLinCombPerColBiasEltAct",
            K::PerColResAddPerColBiasEltAct => "PerColResAddPerColBiasEltAct",
            K::ScaledLinCombPerRowBiasEltAct => "ScaledLinCombPerRowBiasEltAct",
            K::ScaledLinCombPerColBiasEltAct => "ScaledLinCombPerColBiasEltAct",
            K::ScaledLinCombPerRowBiasEltActAmaxAux => "ScaledLinCombPerRowBiasEltActAmaxAux",
            K::ScaledLinCombPerColBiasEltActAmaxAux => "ScaledLinCombPerColBiasEltActAmaxAux",
            K::LinCombDeEltAct => "LinCombDeEltAct",
            K::LinCombDeEltActDePerRowBias => "LinCombDeEltActDePerRowBias",
            K::LinCombBlockScaleFactor => "LinCombBlockScaleFactor",
            K::LinCombEltActBlockScaleFactor => "LinCombEltActBlockScaleFactor",
            K::LinCombPerRowBiasBlockScaleFactor => "LinCombPerRowBiasBlockScaleFactor",
            K::LinCombPerColBiasBlockScaleFactor => "LinCombPerColBiasBlockScaleFactor",
            K::LinCombPerRowBiasEltActBlockScaleFactor => "LinCombPerRowBiasEltActBlockScaleFactor",
            K::LinCombPerColBiasEltActBlockScaleFactor => "LinCombPerColBiasEltActBlockScaleFactor",
        }
    }

    /// The fusion of that name.
    pub fn parse(name: &str) -> Option<FusionKind> {
        K::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Its template parameters, in order (the rounding style, last in every one, is left
    /// out: it changes no buffer).
    pub fn params(self) -> &'static [FusionParam] {
        match self {
            K::LinearCombination => &[P::Output, P::Compute, P::Source, P::Scalar],
            K::LinCombEltAct => &[P::Act, P::Output, P::Compute, P::Source, P::Scalar],
            K::LinCombPerRowBias | K::LinCombPerColBias => &[
                P::Output,
                P::Compute,
                P::Bias,
                P::Source,
                P::Scalar,
                P::AlignBias,
            ],
            K::LinCombPerRowBiasEltAct
            | K::LinCombPerColBiasEltAct
            | K::ScaledLinCombPerRowBiasEltAct
            | K::ScaledLinCombPerColBiasEltAct => &[
                P::Act,
                P::Output,
                P::Compute,
                P::Bias,
                P::Source,
                P::Scalar,
                P::AlignBias,
            ],
            K::LinCombPerRowBiasEltActAux | K::LinCombPerColBiasEltActAux => &[
                P::AuxLayout,
                P::Act,
                P::Output,
                P::Compute,
                P::Aux,
                P::Bias,
                P::Source,
                P::Scalar,
                P::AlignAux,
                P::AlignBias,
            ],
            K::PerRowLinCombPerRowBiasEltAct
            | K::PerColLinCombPerColBiasEltAct
            | K::PerColResAddPerColBiasEltAct => &[
                P::Act,
                P::Output,
                P::Compute,
                P::Bias,
                P::Source,
                P::Scalar,
                P::AlignBias,
                P::AlignScalar,
            ],
            K::ScaledLinCombPerRowBiasEltActAmaxAux | K::ScaledLinCombPerColBiasEltActAmaxAux => &[
                P::AuxLayout,
                P::Act,
                P::Output,
                P::Compute,
                P::Aux,
                P::Amax,
                P::Bias,
                P::Source,
                P::Scalar,
                P::AlignAux,
                P::AlignBias,
            ],
            K::LinCombDeEltAct => &[
                P::AuxLayout,
                P::Act,
                P::Output,
                P::Compute,
                P::Aux,
                P::Source,
                P::Scalar,
                P::AlignAux,
            ],
            K::LinCombDeEltActDePerRowBias => &[
                P::AuxLayout,
                P::Act,
                P::Output,
                P::Compute,
                P::Aux,
                P::Bias,
                P::Source,
                P::Scalar,
                P::AlignAux,
                P::AlignBias,
            ],
            K::LinCombBlockScaleFactor => &[
                P::VecSize,
                P::Output,
                P::Compute,
                P::ScaleFactor,
                P::ScaleFactorLayout,
                P::Source,
                P::Scalar,
            ],
            K::LinCombEltActBlockScaleFactor => &[
                P::Act,
                P::VecSize,
                P::Output,
                P::Compute,
                P::ScaleFactor,
                P::ScaleFactorLayout,
                P::Source,
                P::Scalar,
            ],
            K::LinCombPerRowBiasBlockScaleFactor | K::LinCombPerColBiasBlockScaleFactor => &[
                P::VecSize,
                P::Output,
                P::Compute,
                P::ScaleFactor,
                P::ScaleFactorLayout,
                P::Bias,
                P::Source,
                P::Scalar,
                P::AlignBias,
            ],
            K::LinCombPerRowBiasEltActBlockScaleFactor
            | K::LinCombPerColBiasEltActBlockScaleFactor => &[
                P::Act,
                P::VecSize,
                P::Output,
                P::Compute,
                P::ScaleFactor,
                P::ScaleFactorLayout,
                P::Bias,
                P::Source,
                P::Scalar,
                P::AlignBias,
            ],
        }
    }

    /// How many of its parameters have no default.
    pub fn required(self) -> usize {
        self.params()
            .iter()
            .take_while(|p| {
                matches!(
                    p,
                    P::AuxLayout | P::Act | P::VecSize | P::Output | P::Compute | P::ScaleFactor
                )
            })
            .count()
    }

    /// A per-column bias: a row vector broadcast down the tile (`Sm90RowBroadcast`, staged
    /// in shared memory); a per-row one is a column broadcast read from global memory.
    pub fn per_col_bias(self) -> bool {
        matches!(
            self,
            K::LinCombPerColBias
                | K::LinCombPerColBiasEltAct
                | K::LinCombPerColBiasEltActAux
                | K::PerColLinCombPerColBiasEltAct
                | K::PerColResAddPerColBiasEltAct
                | K::ScaledLinCombPerColBiasEltAct
                | K::ScaledLinCombPerColBiasEltActAmaxAux
                | K::LinCombPerColBiasBlockScaleFactor
                | K::LinCombPerColBiasEltActBlockScaleFactor
        )
    }

    /// `IsPerColScaleSupported`: per-column alpha and beta (SM100's epilogue tile is
    /// narrower for them).
    pub fn per_col_scale(self) -> bool {
        matches!(
            self,
            K::PerColLinCombPerColBiasEltAct | K::PerColResAddPerColBiasEltAct
        )
    }

    /// `IsBlockScaleSupported`: the epilogue writes D's scale factors.
    pub fn block_scale(self) -> bool {
        self.params().contains(&P::VecSize)
    }

    /// The fusion operation's `Is*Supported` flag of that name (`IsPerColBiasSupported`,
    /// `IsAuxOutSupported`, ...), as `operations.hpp` sets it; `None` for no such flag.
    ///
    /// ```
    /// use cute_core::epilogue::FusionKind;
    /// let k = FusionKind::ScaledLinCombPerRowBiasEltActAmaxAux;
    /// assert_eq!(k.flag("IsAbsMaxSupported"), Some(true));
    /// assert_eq!(k.flag("IsPerColBiasSupported"), Some(false));
    /// assert_eq!(k.flag("IsFast"), None);
    /// ```
    pub fn flag(self, flag: &str) -> Option<bool> {
        let has = |p: FusionParam| self.params().contains(&p);
        let de = matches!(self, K::LinCombDeEltAct | K::LinCombDeEltActDePerRowBias);
        Some(match flag {
            "IsSourceSupported" => true,
            "IsResidualSupported" => self == K::PerColResAddPerColBiasEltAct,
            "IsScaleFactorSupported" => self.name().starts_with("Scaled"),
            "IsPerRowScaleSupported" => self == K::PerRowLinCombPerRowBiasEltAct,
            "IsPerColScaleSupported" => self.per_col_scale(),
            "IsPerRowBiasSupported" => has(P::Bias) && !self.per_col_bias() && !de,
            "IsPerColBiasSupported" => self.per_col_bias(),
            "IsDePerRowBiasSupported" => self == K::LinCombDeEltActDePerRowBias,
            "IsEltActSupported" => has(P::Act) && !de,
            "IsDeEltActSupported" => de,
            "IsAuxOutSupported" => has(P::Aux) && !de,
            "IsAuxInSupported" => de,
            "IsAbsMaxSupported" => has(P::Amax),
            "IsBlockScaleSupported" => self.block_scale(),
            _ => return None,
        })
    }
}

/// D's block scale factors: `SFVecSize` elements share one `ElementBlockScaleFactor`, laid
/// out along `GmemLayoutTagScalefactor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockScale {
    /// `SFVecSize`.
    pub vec: i64,
    /// `ElementBlockScaleFactor`.
    pub elem: Elem,
    /// `GmemLayoutTagScalefactor`.
    pub layout: GemmLayout,
}

/// An epilogue fusion with its template arguments (the defaults filled in).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fusion {
    /// Which fusion.
    pub kind: FusionKind,
    /// `ActivationFn`, where the fusion has one.
    pub act: Option<Activation>,
    /// `ElementOutput`.
    pub d: Elem,
    /// `ElementCompute`.
    pub compute: Elem,
    /// `ElementSource` (`None`: `void`).
    pub source: Option<Elem>,
    /// `ElementScalar`.
    pub scalar: Elem,
    /// `ElementBias`, where the fusion has a bias.
    pub bias: Elem,
    /// `ElementAux` and `GmemLayoutTagAux`, where it has an aux tensor.
    pub aux: Option<(Elem, GemmLayout)>,
    /// `ElementAmax`.
    pub amax: Elem,
    /// D's scale factors, for the block-scale-factor fusions.
    pub block_scale: Option<BlockScale>,
    /// `AlignmentAux`, `AlignmentBias`, `AlignmentScalar` in elements.
    pub align: [i64; 3],
}

/// 128 bits of `e`, in elements (the fusions' default alignments).
fn align128(e: Elem) -> i64 {
    128 / e.bits().max(1)
}

impl Fusion {
    /// `kind<Output, Compute>` with every other argument its default (the aux row-major and
    /// the activation `Identity` where the fusion takes them; the scale factors 16 a
    /// `float_ue4m3_t`).
    pub fn of(kind: FusionKind, d: Elem, compute: Elem) -> Fusion {
        let p = kind.params();
        let bias = if kind == K::LinCombDeEltActDePerRowBias {
            compute
        } else {
            d
        };
        Fusion {
            kind,
            act: p.contains(&P::Act).then_some(Activation::Identity),
            d,
            compute,
            source: Some(d),
            scalar: compute,
            bias,
            aux: p.contains(&P::Aux).then_some((d, GemmLayout::RowMajor)),
            amax: compute,
            block_scale: kind.block_scale().then_some(BlockScale {
                vec: 16,
                elem: Elem::UE4M3,
                layout: GemmLayout::RowMajor,
            }),
            align: [align128(d), align128(bias), align128(compute)],
        }
    }

    /// The builder's default, `LinearCombination<ElementD, ElementCompute, ElementC,
    /// ElementCompute>`.
    pub fn default_for(d: Elem, compute: Elem, c: Option<Elem>) -> Fusion {
        Fusion {
            source: c,
            ..Fusion::of(K::LinearCombination, d, compute)
        }
    }

    /// Whether its callbacks keep anything in shared memory on some arch (a row broadcast,
    /// an aux tensor, a scale-factor reduction), so that only a TMA epilogue takes it.
    pub fn stages_buffers(&self) -> bool {
        !matches!(self.kind, K::LinearCombination | K::LinCombEltAct)
    }
}

impl fmt::Display for Fusion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let layout = |l: GemmLayout| match l {
            GemmLayout::RowMajor => "layout::RowMajor",
            GemmLayout::ColumnMajor => "layout::ColumnMajor",
        };
        let args: Vec<String> = self
            .kind
            .params()
            .iter()
            .map(|p| match p {
                P::AuxLayout => layout(self.aux.map_or(GemmLayout::RowMajor, |a| a.1)).to_string(),
                P::Act => format!(
                    "thread::{}",
                    self.act.unwrap_or(Activation::Identity).name()
                ),
                P::VecSize => self.block_scale.map_or(0, |s| s.vec).to_string(),
                P::Output => self.d.cpp_name().to_string(),
                P::Compute => self.compute.cpp_name().to_string(),
                P::Aux => self.aux.map_or(self.d, |a| a.0).cpp_name().to_string(),
                P::Amax => self.amax.cpp_name().to_string(),
                P::Bias => self.bias.cpp_name().to_string(),
                P::ScaleFactor => self
                    .block_scale
                    .map_or(Elem::UE4M3, |s| s.elem)
                    .cpp_name()
                    .to_string(),
                P::ScaleFactorLayout => {
                    layout(self.block_scale.map_or(GemmLayout::RowMajor, |s| s.layout)).to_string()
                }
                P::Source => self.source.map_or("void", |e| e.cpp_name()).to_string(),
                P::Scalar => self.scalar.cpp_name().to_string(),
                P::AlignAux => self.align[0].to_string(),
                P::AlignBias => self.align[1].to_string(),
                P::AlignScalar => self.align[2].to_string(),
            })
            .collect();
        write!(f, "fusion::{}<{}>", self.kind.name(), args.join(", "))
    }
}

/// A storage's bytes and alignment; `None` is an empty one.
type Bytes = Option<(i64, i64)>;

/// A visitor tree's storage: a node's own, or the tuple of its children's and its own.
enum Storage {
    Leaf(Bytes),
    Tuple(Vec<Storage>),
}

const EMPTY: Storage = Storage::Leaf(None);

impl Storage {
    /// `sizeof`/`alignof` as cute's tuple lays it out: empty members drop out, the others
    /// nest as `struct { First first_; Rest rest_; }`.
    fn bytes(&self) -> Result<Bytes> {
        match self {
            Storage::Leaf(b) => Ok(*b),
            Storage::Tuple(v) => {
                let mut members = Vec::new();
                for s in v {
                    if let Some(b) = s.bytes()? {
                        members.push(b);
                    }
                }
                let mut rest: Bytes = None;
                for (size, align) in members.into_iter().rev() {
                    rest = Some(match rest {
                        None => (round_up(size, align)?, align),
                        Some((rs, ra)) => {
                            let a = align.max(ra);
                            (round_up(arith::add(round_up(size, ra)?, rs)?, a)?, a)
                        }
                    });
                }
                Ok(rest)
            }
        }
    }
}

/// `array_aligned<T, n>`: 16-byte aligned, whole 16-byte lines.
fn array_aligned(bits: i64, n: i64) -> Result<Storage> {
    let bytes = arith::mul(bits, n)? / 8;
    Ok(Storage::Leaf(Some((round_up(bytes, 16)?, 16))))
}

/// What a fusion's storage depends on besides the fusion: the arch, the CTA tile's N, the
/// epilogue tile and stages, and each arch's aux buffer (its swizzled smem atom).
pub(super) struct FusionContext<'a> {
    pub arch: Arch,
    pub cta_n: i64,
    pub epi: [i64; 2],
    pub stages: [i64; 2],
    /// An aux buffer of (element, layout) over `stages` subtiles: (bytes, alignment).
    pub aux_buffer: &'a dyn Fn(Elem, GemmLayout, i64) -> Result<(i64, i64)>,
}

fn no_callbacks(f: &Fusion, arch: Arch, why: &str) -> Error {
    crate::err!(
        "{} has no {} callbacks: {why} (CUTLASS: \"Could not find a callbacks specialization.\")",
        f.kind.name(),
        arch.name()
    )
}

/// `sizeof(FusionCallbacks::SharedStorage)` (`None`: empty) for the fusion on the
/// context's epilogue, the callbacks' own static_asserts checked, and a note of what it
/// stages.
pub(super) fn fusion_storage(f: &Fusion, cx: &FusionContext) -> Result<(Bytes, String)> {
    let [em, en] = cx.epi;
    let [stages_c, stages_d] = cx.stages;
    // What each node stages, in the tree's order (the closures below share it).
    let staged: std::cell::RefCell<Vec<String>> = Default::default();
    let row_bcast = |e: Elem, what: &str| -> Result<Storage> {
        staged.borrow_mut().push(format!(
            "{what} of {} {} (Sm90RowBroadcast)",
            cx.cta_n,
            e.cpp_name()
        ));
        array_aligned(e.bits(), cx.cta_n)
    };
    let bias = if f.kind.per_col_bias() {
        row_bcast(f.bias, "the per-column bias")?
    } else {
        EMPTY
    };
    let t = Storage::Tuple;
    // beta * C + (alpha * acc + bias): the bias is the inner node's last child.
    let lincomb_bias = |bias: Storage| t(vec![EMPTY, EMPTY, t(vec![EMPTY, EMPTY, bias]), EMPTY]);
    let act = |x: Storage| t(vec![x, EMPTY]);
    let aux = |stages: i64, store: bool| -> Result<Storage> {
        let (e, l) = f.aux.unwrap_or((f.d, GemmLayout::RowMajor));
        if e.bits() < 8 {
            if cx.arch == Arch::Sm120 {
                return Err(no_callbacks(
                    f,
                    cx.arch,
                    &format!(
                        "SM120's builder stages an aux tensor in shared memory, and a {}-bit {} cannot be",
                        e.bits(),
                        e.cpp_name()
                    ),
                ));
            }
            staged.borrow_mut().push(format!(
                "the {}-bit aux stored from registers (no buffer)",
                e.bits()
            ));
            return Ok(EMPTY);
        }
        if arith::mul(f.align[0], e.bits())? % 128 != 0 {
            return Err(crate::err!(
                "AlignmentAux = {} elements of {} is not a multiple of 16 bytes (CUTLASS: \"sub-16B alignment not supported yet\")",
                f.align[0],
                e.cpp_name()
            ));
        }
        let (bytes, align) = (cx.aux_buffer)(e, l, stages)?;
        staged.borrow_mut().push(format!(
            "the aux {} of {} ({em},{en}) x {stages} {} ({bytes} B, {align}-byte aligned)",
            if store { "store" } else { "load" },
            e.cpp_name(),
            if l == GemmLayout::RowMajor {
                "row-major"
            } else {
                "column-major"
            }
        ));
        Ok(Storage::Leaf(Some((
            round_up(bytes, align.max(16))?,
            align.max(16),
        ))))
    };
    let tree = match f.kind {
        K::LinearCombination | K::LinCombEltAct => EMPTY,
        K::LinCombPerRowBias | K::LinCombPerColBias => lincomb_bias(bias),
        K::LinCombPerRowBiasEltAct
        | K::LinCombPerColBiasEltAct
        | K::PerRowLinCombPerRowBiasEltAct => act(lincomb_bias(bias)),
        K::LinCombPerRowBiasEltActAux | K::LinCombPerColBiasEltActAux => {
            let a = aux(stages_d, true)?;
            act(t(vec![lincomb_bias(bias), a]))
        }
        K::PerColLinCombPerColBiasEltAct => {
            let beta = row_bcast(f.scalar, "beta per column")?;
            let alpha = row_bcast(f.scalar, "alpha per column")?;
            act(t(vec![beta, EMPTY, t(vec![alpha, EMPTY, bias]), EMPTY]))
        }
        K::PerColResAddPerColBiasEltAct => {
            let beta = row_bcast(f.scalar, "beta per column")?;
            let alpha = row_bcast(f.scalar, "alpha per column")?;
            let inner = act(t(vec![alpha, EMPTY, bias]));
            t(vec![beta, EMPTY, inner, EMPTY])
        }
        K::ScaledLinCombPerRowBiasEltAct | K::ScaledLinCombPerColBiasEltAct => {
            t(vec![act(lincomb_bias(bias)), EMPTY, EMPTY])
        }
        K::ScaledLinCombPerRowBiasEltActAmaxAux | K::ScaledLinCombPerColBiasEltActAmaxAux => {
            let input = lincomb_bias(bias);
            let a = aux(stages_d, true)?;
            if f.aux.is_some_and(|(e, _)| e.bits() == 8) {
                // The FP8 aux splits the tree: input, the aux's branch, then D's.
                t(vec![input, t(vec![EMPTY, a]), EMPTY])
            } else {
                t(vec![act(act(t(vec![input, a]))), EMPTY, EMPTY])
            }
        }
        K::LinCombDeEltAct => t(vec![EMPTY, aux(stages_c, false)?, EMPTY]),
        K::LinCombDeEltActDePerRowBias => act(act(t(vec![EMPTY, aux(stages_c, false)?, EMPTY]))),
        K::LinCombBlockScaleFactor
        | K::LinCombEltActBlockScaleFactor
        | K::LinCombPerRowBiasBlockScaleFactor
        | K::LinCombPerColBiasBlockScaleFactor
        | K::LinCombPerRowBiasEltActBlockScaleFactor
        | K::LinCombPerColBiasEltActBlockScaleFactor => {
            let sf = scale_factor_store(f, cx, &mut staged.borrow_mut())?;
            let inner = match f.kind {
                K::LinCombBlockScaleFactor => EMPTY,
                K::LinCombPerRowBiasBlockScaleFactor | K::LinCombPerColBiasBlockScaleFactor => {
                    lincomb_bias(bias)
                }
                _ => act(lincomb_bias(bias)),
            };
            t(vec![inner, sf])
        }
    };
    let bytes = tree.bytes()?;
    let staged = staged.into_inner();
    let note = match (&bytes, staged.is_empty()) {
        (_, true) => format!(
            "FusionOperation: {f}: its nodes stage nothing in shared memory (the collective's tile, stages and shared memory are the default fusion's)"
        ),
        (b, false) => format!(
            "FusionOperation: {f}: sizeof(FusionCallbacks::SharedStorage) = {} B: {}",
            b.map_or(0, |b| b.0),
            staged.join(", ")
        ),
    };
    Ok((bytes, note))
}

/// The block-scale-factor store's storage, its callbacks' existence and static_asserts.
fn scale_factor_store(f: &Fusion, cx: &FusionContext, staged: &mut Vec<String>) -> Result<Storage> {
    let sf = f
        .block_scale
        .ok_or_else(|| crate::err!("{} has no scale factors", f.kind.name()))?;
    let row = sf.layout == GemmLayout::RowMajor;
    let supported = match cx.arch {
        Arch::Sm100 => match f.kind {
            K::LinCombBlockScaleFactor
            | K::LinCombPerRowBiasBlockScaleFactor
            | K::LinCombPerRowBiasEltActBlockScaleFactor => true,
            K::LinCombPerColBiasBlockScaleFactor | K::LinCombPerColBiasEltActBlockScaleFactor => {
                row
            }
            _ => false,
        },
        Arch::Sm120 => f.kind != K::LinCombEltActBlockScaleFactor,
        _ => false,
    };
    if !supported {
        let why = match (cx.arch, f.kind) {
            (Arch::Sm100 | Arch::Sm120, K::LinCombEltActBlockScaleFactor) => {
                "only the pointer-array (grouped) epilogues take it".to_string()
            }
            (Arch::Sm100, _) => {
                "SM100 writes a per-column bias's scale factors row-major only".to_string()
            }
            _ => "block scale factors are SM100's and SM120's".to_string(),
        };
        return Err(no_callbacks(f, cx.arch, &why));
    }
    let [em, en] = cx.epi;
    // A row-major SFD runs along N (one factor per `vec` columns), a column-major one
    // along M.
    let (along, name, ext) = if row {
        (en, "N", "1, 2, 4 or 8")
    } else {
        (
            em,
            "M",
            if cx.arch == Arch::Sm120 {
                "1, 2 or 4"
            } else {
                "1, 2, 4 or 8"
            },
        )
    };
    let allowed: &[i64] = if !row && cx.arch == Arch::Sm120 {
        &[1, 2, 4]
    } else {
        &[1, 2, 4, 8]
    };
    if along % sf.vec != 0 {
        return Err(crate::err!(
            "the epilogue tile's {name} = {along} is not a multiple of SFVecSize {} (CUTLASS: \"EpilogueTileN should be divisible by SFVecSize\")",
            sf.vec
        ));
    }
    if !allowed.contains(&(along / sf.vec)) {
        return Err(crate::err!(
            "the epilogue tile's {name} = {along} holds {} scale factors of {} a row; the store takes {ext} (CUTLASS: \"Possible store in interleaved 4B aligned format\")",
            along / sf.vec,
            sf.vec
        ));
    }
    // The cross-warp reductions' buffers of ElementCompute.
    let n = match (cx.arch, row) {
        (Arch::Sm100, true) => 0,
        (Arch::Sm100, false) => {
            if sf.vec == 64 {
                4
            } else {
                0
            }
        }
        (_, true) => 8 * 8,
        (_, false) => 8 * 4,
    };
    if n == 0 {
        return Ok(EMPTY);
    }
    staged.push(format!(
        "the scale factors' cross-warp {} of {n} {}",
        if row { "row maxima" } else { "column maxima" },
        f.compute.cpp_name()
    ));
    array_aligned(f.compute.bits(), n)
}
