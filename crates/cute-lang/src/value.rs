//! Values of the expression language and their CuTe print format.

use crate::words::Word;
use cute_core::atom::Operand;
use cute_core::atom::{Atom, TiledCopy, TiledMma};
use cute_core::bank::{BankReport, Candidate};
use cute_core::error::Result;
use cute_core::int_tuple::{Coord, IntTuple};
use cute_core::layout::{Layout, Tiler};
use cute_core::swizzle::{ComposedLayout, Swizzle};
use cute_core::tensor::Tensor;
use std::fmt;

/// Largest number of parts (integers and tuples, empty ones included) one value may hold;
/// bounds every algorithm's work and every binding's growth.
pub const MAX_NODES: usize = 4096;
/// Deepest nesting one value may have.
pub const MAX_DEPTH: usize = 64;

/// Layout-order tags accepted by `make_layout(shape, TAG)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Major {
    /// `LayoutLeft{}` / `GenColMajor{}`.
    Left,
    /// `LayoutRight{}` / `GenRowMajor{}`.
    Right,
}

/// A value of the expression language.
///
/// ```
/// use cute_lang::eval_line;
/// let v = eval_line("logical_divide((4,2,3):(2,1,8), 4:2)").unwrap();
/// assert_eq!(v.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A static integer (`_8`, `Int<8>{}`, the spec's and Python's integers).
    Int(i64),
    /// A dynamic integer (a C++ `int`: `make_shape(8, 32)`); prints as `Int`.
    Dyn(i64),
    /// A boolean (from predicates such as `congruent`).
    Bool(bool),
    /// `_`.
    Under,
    /// A tuple of values: an int-tuple, a tiler, or a mix.
    Tuple(Vec<Value>),
    /// A layout.
    Layout(Layout),
    /// A swizzle functor.
    Swizzle(Swizzle),
    /// `Swizzle o offset o Layout`.
    Composed(ComposedLayout),
    /// A layout whose strides are basis vectors (`make_identity_layout(shape)`,
    /// `make_layout(shape, make_stride(E<1>{}, E<0>{}))`): coordinates to coordinates.
    BasisLayout(Box<cute_core::basis::BasisLayout>),
    /// A scaled basis vector (`E<0>{}`, `E<1>{} * 4`, printed `4@1`).
    Basis(cute_core::basis::ScaledBasis),
    /// An `ArithmeticTuple`: a coordinate summed from basis vectors (`(3,5)`).
    ArithTuple(cute_core::basis::ArithTuple),
    /// `make_composed_layout(L_outer, offset, L_inner)`: two layouts composed.
    Composition(Box<cute_core::swizzle::LayoutComposition>),
    /// The offset of a composed layout when it is not an integer: `smem_ptr_flag_bits<B>`.
    Offset(cute_core::swizzle::Offset),
    /// `LayoutLeft{}` / `LayoutRight{}`.
    Major(Major),
    /// A word with a fixed meaning: an element type (`half_t`), a major, a trait
    /// (`ALayout`), an instruction (`LDS128`), an enumerator (`OperandSource.SMEM`).
    Word(Word),
    /// An MMA or copy atom.
    Atom(Box<Atom>),
    /// `make_tiled_mma(...)`.
    TiledMma(Box<TiledMma>),
    /// `make_tiled_copy(...)`.
    TiledCopy(Box<TiledCopy>),
    /// `bank_conflicts(...)`.
    Banks(Box<BankReport>),
    /// `coalescing(...)`: the global-memory sectors and lines of an access.
    Coalesce(Box<cute_core::gmem::CoalesceReport>),
    /// `swizzle_search(...)`: alternatives, best first.
    Ranked(Vec<Candidate>),
    /// A CUTLASS mainloop dispatch policy with its members
    /// (`MainloopSm80CpAsyncUnpredicated<3>::Stages` is 3).
    Policy(Box<Policy>),
    /// A GEMM mainloop a `CollectiveBuilder<...>::CollectiveOp` line resolves to.
    Collective(Box<cute_core::collective::Mainloop>),
    /// An epilogue an epilogue `CollectiveBuilder<...>::CollectiveOp` line resolves to.
    Epilogue(Box<cute_core::epilogue::Epilogue>),
    /// A C++ struct known by its size (`CollectiveEpilogue::SharedStorage`: `sizeof` gives
    /// its bytes).
    Storage(i64),
    /// A GMMA/UMMA shared-memory descriptor or an UMMA instruction descriptor.
    Descriptor(Box<cute_core::desc::Descriptor>),
    /// A TMA box (`make_tma_copy`'s `TmaGmemBasis`).
    Tma(Box<cute_core::tma::TmaBox>),
    /// A typed pointer (`make_smem_ptr<half_t>(nullptr)`).
    Ptr(cute_core::tensor::Ptr),
    /// The iterator of a tensor that is not over a pointer (`t.data()` of a register array
    /// or of an identity tensor); a pointer is [`Value::Ptr`].
    Iter(Box<cute_core::tensor::Iter>),
    /// A tensor: a pointer (or a register array) and a layout.
    Tensor(Box<cute_core::tensor::Tensor>),
    /// A GMMA/UMMA operand's descriptor fragment (`make_fragment_A` of an `_SS` MMA):
    /// `GMMA::DescriptorIterator o layout`.
    DescTensor(Box<cute_core::desc::DescTensor>),
    /// A TiledMMA's slice for one thread (`tiled_mma.get_slice(thr_idx)`).
    ThrMma(Box<ThrMma>),
    /// A TiledCopy's slice for one thread (`tiled_copy.get_slice(thr_idx)`).
    ThrCopy(Box<ThrCopy>),
    /// A thread's partition of a tensor, with every thread's part (the partition view).
    Partition(Box<Partition>),
    /// `functionally_equal(a, b)`: both functions sampled, and where they differ (the
    /// compare view); prints `true`, or `false` and the first difference.
    Compare(Box<cute_core::compare::Comparison>),
    /// `explain(op(...))`: the call's derivation, one step a line; the algebra view draws
    /// its operands and result with the steps.
    Explain(Box<Explained>),
}

/// An algebra call and its derivation (`explain(logical_divide(A, B))`).
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// The op's CuTe name.
    pub name: String,
    /// The operands' values.
    pub args: Vec<Value>,
    /// The steps, ending in the result.
    pub explanation: cute_core::explain::Explanation,
}

/// A CUTLASS dispatch policy: its spelling and the members the language evaluates.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// `Name<args>` as written.
    pub name: String,
    /// Member name and value (`Stages`, `ClusterShape`, `Schedule`).
    pub members: Vec<(String, Value)>,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) | Value::Dyn(v) => cute_core::int_tuple::write_int(f, *v),
            // C++ prints a static bool as 1 or 0.
            Value::Bool(b) => write!(f, "{}", u8::from(*b)),
            Value::Under => f.write_str("_"),
            Value::Tuple(vs) => cute_core::int_tuple::write_tuple(f, vs),
            Value::Layout(l) => fmt::Display::fmt(l, f),
            Value::Swizzle(s) => write!(f, "{s}"),
            Value::Composed(c) => write!(f, "{c}"),
            Value::Offset(o) => write!(f, "{o}"),
            Value::Composition(c) => write!(f, "{c}"),
            Value::BasisLayout(l) => write!(f, "{l}"),
            Value::Basis(b) => write!(f, "{b}"),
            Value::ArithTuple(t) => write!(f, "{t}"),
            Value::Major(Major::Left) => f.write_str("LayoutLeft"),
            Value::Major(Major::Right) => f.write_str("LayoutRight"),
            Value::Word(w) => write!(f, "{w}"),
            #[cfg(feature = "full")]
            Value::Atom(a) => write!(f, "{a}"),
            #[cfg(feature = "full")]
            Value::TiledMma(m) => write!(f, "{m}"),
            #[cfg(feature = "full")]
            Value::TiledCopy(c) => write!(f, "{c}"),
            #[cfg(feature = "full")]
            Value::Banks(b) => write!(f, "{b}"),
            #[cfg(feature = "full")]
            Value::Coalesce(c) => write!(f, "{c}"),
            #[cfg(feature = "full")]
            Value::Ranked(cs) => f.write_str(&cute_core::bank::format_candidates(cs, 8)),
            #[cfg(feature = "full")]
            Value::Policy(p) => f.write_str(&p.name),
            #[cfg(feature = "full")]
            Value::Collective(c) => write!(f, "{c}"),
            #[cfg(feature = "full")]
            Value::Epilogue(e) => write!(f, "{e}"),
            #[cfg(feature = "full")]
            Value::Storage(n) => write!(f, "SharedStorage ({n} bytes)"),
            #[cfg(feature = "full")]
            Value::Descriptor(d) => write!(f, "{d}"),
            #[cfg(feature = "full")]
            Value::Tma(t) => write!(f, "{t}"),
            #[cfg(feature = "full")]
            Value::Ptr(p) => write!(f, "{p}"),
            #[cfg(feature = "full")]
            Value::Iter(i) => write!(f, "{i}"),
            #[cfg(feature = "full")]
            Value::Tensor(t) => write!(f, "{t}"),
            #[cfg(feature = "full")]
            Value::DescTensor(t) => write!(f, "{t}"),
            #[cfg(feature = "full")]
            Value::ThrMma(m) => write!(f, "{m}"),
            #[cfg(feature = "full")]
            Value::ThrCopy(c) => write!(f, "{c}"),
            #[cfg(feature = "full")]
            Value::Partition(p) => write!(f, "{p}"),
            Value::Compare(c) => write!(f, "{c}"),
            Value::Explain(e) => write!(f, "{}", e.explanation),
            // The first picture's build makes none of these (no op that returns one is in it).
            #[cfg(not(feature = "full"))]
            v => write!(f, "<{}>", v.kind()),
        }
    }
}

impl From<IntTuple> for Value {
    fn from(t: IntTuple) -> Value {
        match t {
            IntTuple::Int(v) => Value::Int(v),
            IntTuple::Dyn(v) => Value::Dyn(v),
            IntTuple::Tuple(ts) => Value::Tuple(ts.into_iter().map(Value::from).collect()),
        }
    }
}

impl From<cute_core::swizzle::AnyLayout> for Value {
    fn from(s: cute_core::swizzle::AnyLayout) -> Value {
        match s {
            cute_core::swizzle::AnyLayout::Layout(l) => Value::Layout(l),
            cute_core::swizzle::AnyLayout::Composed(c) => Value::Composed(c),
        }
    }
}

impl From<cute_core::atom::Trait> for Value {
    fn from(t: cute_core::atom::Trait) -> Value {
        match t {
            cute_core::atom::Trait::Shape(s) => s.into(),
            cute_core::atom::Trait::Layout(l) => Value::Layout(l),
        }
    }
}

impl From<Layout> for Value {
    fn from(l: Layout) -> Value {
        Value::Layout(l)
    }
}

impl Value {
    /// A short name of the kind of value, for error messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) | Value::Dyn(_) => "an integer",
            Value::Bool(_) => "a boolean",
            Value::Under => "'_'",
            Value::Tuple(vs) if vs.iter().all(|v| v.is_int_tuple()) => "an int-tuple",
            Value::Tuple(_) => "a tuple",
            Value::Layout(_) => "a layout",
            Value::Swizzle(_) => "a swizzle",
            Value::Composed(_) => "a composed layout",
            Value::Offset(_) => "a pointer flag",
            Value::Composition(_) => "a composition of layouts",
            Value::BasisLayout(_) => "a layout with basis strides",
            Value::Basis(_) => "a basis vector (ScaledBasis)",
            Value::ArithTuple(_) => "an ArithmeticTuple",
            Value::Major(_) => "a layout tag",
            Value::Word(_) => "a keyword",
            Value::Atom(a) => match **a {
                Atom::Mma(_) => "an MMA atom",
                Atom::Copy(_) => "a copy atom",
            },
            Value::TiledMma(_) => "a TiledMMA",
            Value::TiledCopy(_) => "a TiledCopy",
            Value::Banks(_) => "a bank analysis",
            Value::Coalesce(_) => "a coalescing analysis",
            Value::Ranked(_) => "a swizzle ranking",
            Value::Policy(_) => "a dispatch policy",
            Value::Collective(_) => "a collective mainloop (CollectiveBuilder<...>::CollectiveOp)",
            Value::Epilogue(_) => "a collective epilogue (CollectiveBuilder<...>::CollectiveOp)",
            Value::Storage(_) => "a SharedStorage struct",
            Value::Descriptor(_) => "a descriptor",
            Value::Tma(_) => "a TMA box",
            Value::Ptr(_) => "a pointer",
            Value::Iter(_) => "an iterator",
            Value::Tensor(_) => "a tensor",
            Value::DescTensor(_) => "a descriptor tensor",
            Value::ThrMma(_) => "a thread's slice of a TiledMMA",
            Value::ThrCopy(_) => "a thread's slice of a TiledCopy",
            Value::Partition(_) => "a tensor",
            Value::Compare(_) => "a comparison",
            Value::Explain(_) => "an explanation",
        }
    }

    fn is_int_tuple(&self) -> bool {
        match self {
            Value::Int(_) | Value::Dyn(_) => true,
            Value::Tuple(vs) => vs.iter().all(|v| v.is_int_tuple()),
            _ => false,
        }
    }

    /// This value as an IntTuple (integers and tuples of them).
    pub fn to_int_tuple(&self) -> Result<IntTuple> {
        match self {
            Value::Int(v) => Ok(IntTuple::Int(*v)),
            Value::Dyn(v) => Ok(IntTuple::Dyn(*v)),
            Value::Tuple(vs) => Ok(IntTuple::Tuple(
                vs.iter().map(|v| v.to_int_tuple()).collect::<Result<_>>()?,
            )),
            Value::Word(Word::Elem(e)) if e.cpp_name().starts_with("int") || e.cpp_name().starts_with("uint") => Err(cute_core::err!(
                "expected an int-tuple, got the run-time integer type {e} (a dynamic integer has no value here: write the integer, or Int<N>{{}})"
            )),
            v => Err(cute_core::err!(
                "expected an int-tuple, got {}",
                v.kind()
            )),
        }
    }

    /// This value as a tiler (layouts, integers, `_`, tuples of them).
    pub fn to_tiler(&self) -> Result<Tiler> {
        match self {
            Value::Layout(l) => Ok(Tiler::Layout(l.clone())),
            Value::Int(v) => Ok(Tiler::Int(*v)),
            // C++ makes a run-time integer tiler `make_layout(n)`: `n:_1`.
            Value::Dyn(v) => Ok(Tiler::Layout(Layout::col_major(IntTuple::Dyn(*v))?)),
            Value::Under => Ok(Tiler::Under),
            Value::Tuple(vs) => Ok(Tiler::Tuple(
                vs.iter().map(|v| v.to_tiler()).collect::<Result<_>>()?,
            )),
            v => Err(cute_core::err!(
                "expected a layout or tiler, got {}",
                v.kind()
            )),
        }
    }

    /// This value as a coordinate (integers, `_`, tuples of them).
    pub fn to_coord(&self) -> Result<Coord> {
        match self {
            Value::Int(v) | Value::Dyn(v) => Ok(Coord::Int(*v)),
            Value::Under => Ok(Coord::Under),
            Value::Tuple(vs) => Ok(Coord::Tuple(
                vs.iter().map(|v| v.to_coord()).collect::<Result<_>>()?,
            )),
            v => Err(cute_core::err!("expected a coordinate, got {}", v.kind())),
        }
    }

    /// The value with every dynamic integer made static: C++'s `==` compares values only.
    pub fn to_static(&self) -> Value {
        match self {
            Value::Dyn(v) => Value::Int(*v),
            Value::Tuple(vs) => Value::Tuple(vs.iter().map(Value::to_static).collect()),
            v => v.clone(),
        }
    }

    /// For each integer of a coordinate, in order (`_` skipped): whether it is dynamic.
    pub fn dynamic_leaves(&self) -> Vec<bool> {
        fn go(v: &Value, out: &mut Vec<bool>) {
            match v {
                Value::Tuple(vs) => vs.iter().for_each(|v| go(v, out)),
                Value::Dyn(_) => out.push(true),
                Value::Under => {}
                _ => out.push(false),
            }
        }
        let mut out = Vec::new();
        go(self, &mut out);
        out
    }

    /// This value as an integer.
    pub fn to_int(&self) -> Result<i64> {
        match self {
            Value::Int(v) | Value::Dyn(v) => Ok(*v),
            v => Err(cute_core::err!("expected an integer, got {}", v.kind())),
        }
    }

    /// A layout or composed layout as one type.
    pub fn to_any_layout(&self) -> Result<cute_core::swizzle::AnyLayout> {
        match self {
            Value::Layout(l) => Ok(l.clone().into()),
            Value::Composed(c) => Ok(c.clone().into()),
            v => Err(cute_core::err!(
                "expected a layout or composed layout, got {}",
                v.kind()
            )),
        }
    }

    /// Whether the value is a compile-time constant in C++: everything but the dynamic
    /// `int`-like type names standing for run-time integers.
    pub fn is_static(&self) -> bool {
        match self {
            Value::Word(w) => w.elem().is_none(),
            Value::Tuple(vs) => vs.iter().all(Value::is_static),
            Value::Dyn(_) => false,
            Value::Layout(l) => l.shape().is_static() && l.stride().is_static(),
            Value::Composed(c) => c.layout.shape().is_static() && c.layout.stride().is_static(),
            _ => true,
        }
    }

    /// This value as a layout.
    pub fn to_layout(&self) -> Result<&Layout> {
        match self {
            Value::Layout(l) => Ok(l),
            v => Err(cute_core::err!("expected a layout, got {}", v.kind())),
        }
    }

    /// Check the size bounds every value must respect.
    pub(crate) fn check_bounds(&self) -> Result<()> {
        let (nodes, depth) = self.measure();
        if nodes > MAX_NODES {
            return Err(cute_core::err!(
                "value too large: {nodes} parts (integers and tuples; limit {MAX_NODES})"
            ));
        }
        if depth > MAX_DEPTH {
            return Err(cute_core::err!(
                "value nested too deeply: depth {depth} (limit {MAX_DEPTH})"
            ));
        }
        Ok(())
    }

    /// (parts, depth) of the value.
    fn measure(&self) -> (usize, usize) {
        match self {
            Value::Tuple(vs) => {
                let mut nodes = 1;
                let mut depth = 0;
                for v in vs {
                    let (n, d) = v.measure();
                    nodes += n;
                    depth = depth.max(d);
                }
                (nodes, depth + 1)
            }
            Value::Layout(l) => (2 * l.shape().node_count(), l.depth()),
            Value::Composed(c) => (2 * c.layout.shape().node_count() + 4, c.layout.depth()),
            Value::BasisLayout(l) => (2 * l.shape.node_count(), l.shape.depth()),
            _ => (1, 0),
        }
    }
}

/// A TiledMMA's slice for one thread (`tiled_mma.get_slice(thr_idx)`, C++ `ThrMMA`).
#[derive(Clone, Debug, PartialEq)]
pub struct ThrMma {
    /// The TiledMMA.
    pub mma: TiledMma,
    /// The thread.
    pub thr: i64,
}

impl std::fmt::Display for ThrMma {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // C++ prints a ThrMMA as its TiledMMA.
        write!(f, "{}", self.mma)
    }
}

/// A TiledCopy's slice for one thread (`tiled_copy.get_slice(thr_idx)`, C++ `ThrCopy`).
#[derive(Clone, Debug, PartialEq)]
pub struct ThrCopy {
    /// The TiledCopy.
    pub copy: cute_core::atom::TiledCopy,
    /// The thread.
    pub thr: i64,
}

impl std::fmt::Display for ThrCopy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // C++ prints a ThrCopy as its TiledCopy.
        write!(f, "{}", self.copy)
    }
}

/// A thread's partition of a tensor (`thr_mma.partition_A(sA)`), with who owns what of
/// the whole tensor: the partition view draws it. Prints as the tensor C++ returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Partition {
    /// The thread's part, as C++ returns it.
    pub tensor: Tensor,
    /// The partitioned tensor's shape.
    pub shape: cute_core::IntTuple,
    /// Who partitioned it: what gives every thread's part ([`Partition::tv`]).
    pub by: Partitioner,
    /// The thread.
    pub thr: i64,
    /// `partition_A`, `partition_S`, ...
    pub what: &'static str,
}

/// The TiledMMA (and operand) or TiledCopy (and side) of a [`Partition`].
#[derive(Clone, Debug, PartialEq)]
pub enum Partitioner {
    /// `partition_A/B/C`.
    Mma(Box<TiledMma>, Operand),
    /// `partition_S` (`true`) / `partition_D`.
    Copy(Box<cute_core::atom::TiledCopy>, bool),
}

impl Partition {
    /// `(thr_idx, value) →` column-major index of `shape`: every thread's part, for the
    /// partition view (computed when drawn, not when the value is printed).
    pub fn tv(&self) -> Result<Layout> {
        match &self.by {
            Partitioner::Mma(m, which) => m.tv_over(*which, &self.shape),
            Partitioner::Copy(c, src) => c.tv_over(*src, &self.shape),
        }
    }
}

impl std::fmt::Display for Partition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.tensor)
    }
}
