//! The steps the algorithms of [`crate::layout`] report as they run, for
//! [`crate::explain`]: one enum of steps an algorithm, gathered in [`Step`].

use crate::int_tuple::{IntTuple, Num};
use crate::layout::Layout;
use std::fmt;

/// What an algorithm reports as it runs: every step of its folds, in order. The
/// public functions run with [`NoTrace`], whose empty `step` inlines away, so a step costs
/// nothing there (its fields are values the algorithm computes anyway); `crate::explain`
/// passes a recorder that writes the steps as lines, so a derivation is the very run that
/// gave the result.
pub(crate) trait Trace {
    /// Whether the steps are recorded at all: a constant, so that an untraced run skips even
    /// the bookkeeping around an operation's steps.
    const RECORDS: bool = true;
    /// One step, borrowing the algorithm's state at that point.
    fn step<'a>(&mut self, step: impl Into<Step<'a>>);
}

/// The untraced run of the public functions.
pub(crate) struct NoTrace;

impl Trace for NoTrace {
    const RECORDS: bool = false;
    #[inline(always)]
    fn step<'a>(&mut self, _: impl Into<Step<'a>>) {}
}

/// How `bw_coalesce` took one mode `s:d` into the front of its result.
#[derive(Clone, Copy)]
pub(crate) enum Merge {
    /// A size-1 mode: skipped.
    Dropped,
    /// The result was size 1: the mode replaces it.
    Replaced,
    /// `s*d` is the front stride, statically: merged into the front mode.
    Merged,
    /// Prepended as a mode of its own; `product` is `s*d` where C++ looks at it (a static
    /// front shape), `None` where it does not.
    Prepended {
        /// `s*d`, computed only when the front shape is static.
        product: Option<Num>,
    },
}

/// Which divisibility condition of `composition_impl` a left mode met.
#[derive(Clone, Copy)]
pub(crate) enum Fit {
    /// `rest_stride % s == 0`.
    Divides,
    /// `rest_stride < s`.
    Below,
    /// A dynamic side: C++ does not check.
    Unchecked,
}

/// What `composition_impl` took from one mode of the left side (but its last).
#[derive(Clone, Copy)]
pub(crate) enum Took {
    /// `ceil_div(s, |rest_stride|) == 1`: the stride steps over the mode.
    Skip,
    /// The rest shape is used up.
    Empty,
    /// `shape` elements at `stride`, the rest shape going on as `left`.
    Take {
        /// `min(ceil_div(s, |rest_stride|), rest_shape)`.
        shape: Num,
        /// `rest_stride * d`.
        stride: Num,
        /// `rest_shape / shape`.
        left: Num,
    },
}

/// One step of an algorithm, with the values it used and made; a mode `(s, d)` is the flat
/// mode `s:d`. A tracer matches the algorithm, then its step.
pub(crate) enum Step<'a> {
    /// A step of the frame of an operation: its heading and result, its by-mode blocks.
    Op(Op<'a>),
    /// A step of `coalesce` (`bw_coalesce`).
    Coalesce(Coalesce<'a>),
    /// A step of `composition` (`composition_impl`).
    Compose(Compose<'a>),
    /// A step of `complement`.
    Complement(Complement<'a>),
    /// A step of `right_inverse` and `left_inverse`.
    Inverse(Inverse<'a>),
    /// A step of the divides and products over a layout.
    Tiling(Tiling<'a>),
}

/// Each algorithm's steps are a [`Step`], so that a run reports them as they are.
macro_rules! steps_are_steps {
    ($($g:ident),*) => {$(
        impl<'a> From<$g<'a>> for Step<'a> {
            fn from(s: $g<'a>) -> Step<'a> {
                Step::$g(s)
            }
        }
    )*};
}
steps_are_steps!(Op, Coalesce, Compose, Complement, Inverse, Tiling);

/// The steps of the frame of an operation: its heading and result, its by-mode blocks.
pub(crate) enum Op<'a> {
    /// An operation starts: `op(a)` or `op(a, b)`; its steps follow until its [`Op::End`].
    Begin {
        /// The CuTe name.
        op: &'static str,
        /// The first operand.
        a: &'a Layout,
        /// The second operand, if any (a layout, tiler, cotarget or profile).
        b: Option<&'a dyn fmt::Display>,
    },
    /// The operation begun last ends with `result`.
    End { result: &'a Layout },
    /// The modes of the operand follow one by one, by a tiler or (`profile`) a profile.
    ByMode { profile: bool },
    /// The by-mode steps are over.
    ByModeEnd,
    /// Mode `i` of the operand, past the tiler or profile, is kept or dropped.
    Past {
        i: usize,
        mode: &'a Layout,
        kept: bool,
    },
    /// A `_` tiler keeps the operand.
    Keeps,
    /// An integer tiler `n` of a divide or product: `make_layout(n)`.
    IntTiler { n: i64, layout: &'a Layout },
}

/// The steps of `coalesce` (`bw_coalesce`).
pub(crate) enum Coalesce<'a> {
    /// `coalesce` of the whole `layout` starts from its `last` flat mode.
    Start {
        layout: &'a Layout,
        last: (Num, Num),
    },
    /// `bw_coalesce` took `mode` as `how` says, meeting the front stride `front`, and has
    /// the shapes and strides `into` so far.
    Mode {
        mode: (Num, Num),
        how: Merge,
        front: Num,
        into: (&'a [Num], &'a [Num]),
    },
    /// Every mode had size 1: the result is `1:0`.
    Unit,
    /// The layout a fold built, `of`, coalesced into `result`.
    Of { of: &'a Layout, result: &'a Layout },
}

/// The steps of `composition` (`composition_impl`).
pub(crate) enum Compose<'a> {
    /// Composition's left side, coalesced (`coalesce_x`).
    CoalescedX { flat: &'a Layout },
    /// An integer tiler `n` of composition: the layout `n:1`.
    IntAsLayout { n: i64 },
    /// `composition_impl` starts on the mode `shape:stride` of the right side, by its modes
    /// (`by_mode`) or as one integral mode; its steps follow until its [`Compose::Done`].
    Mode {
        shape: &'a IntTuple,
        stride: &'a IntTuple,
        by_mode: bool,
    },
    /// The mode of the right side begun last composes to `result`.
    Done { result: &'a Layout },
    /// A stride-0 mode composes to itself, `result`.
    Zero { result: &'a Layout },
    /// The left side is one integral mode `lhs`: the right stride `stride` multiplies by
    /// its stride `lhs_stride`.
    OneMode {
        lhs: &'a Layout,
        stride: Num,
        lhs_stride: Num,
        result: &'a Layout,
    },
    /// The fold met the left `mode` with the rest `rest` (shape, stride): it met `fit`,
    /// `|rest stride|` is `abs_rest`, the rest stride goes on as `next_stride`, and the mode
    /// gave what `took` says.
    Fold {
        mode: (Num, Num),
        rest: (Num, Num),
        fit: Fit,
        abs_rest: Num,
        next_stride: Num,
        took: Took,
    },
    /// The last left `mode` takes the rest: `Some((rest shape, rest stride, the stride it
    /// gets))`, or `None` where nothing is left.
    Last {
        mode: (Num, Num),
        rest: Option<(Num, Num, Num)>,
    },
}

/// The steps of `complement`.
pub(crate) enum Complement<'a> {
    /// `filter(A)`, what complement works on.
    Filtered { layout: &'a Layout },
    /// The default cotarget, `cosize(filter(A))`.
    Cotarget { cotarget: &'a IntTuple },
    /// A stride-0 (filtered) layout: the complement is `make_layout(coalesce(cotarget))`.
    Zero {
        cotarget: &'a IntTuple,
        result: &'a Layout,
    },
    /// The complement fold took `mode` (the smallest stride left, or the `last`): the new
    /// shape `quotient = stride / prev` (C++ truncates), the next stride `next = stride *
    /// shape`.
    Mode {
        mode: (Num, Num),
        last: bool,
        prev: Num,
        quotient: Num,
        next: Num,
    },
    /// The rest mode up to `cotarget`: `coalesce(ceil_div(cotarget, from))` and its compact
    /// strides from `from`.
    Rest {
        cotarget: &'a IntTuple,
        from: Num,
        rest: (&'a IntTuple, &'a IntTuple),
    },
}

/// The steps of `right_inverse` and `left_inverse`.
pub(crate) enum Inverse<'a> {
    /// An inverse starts from `coalesce(A)`.
    CoalescedA { result: &'a Layout },
    /// The prefix products `pre` (`1, s0, s0*s1, ...`) of the coalesced shape `shape`.
    Prefix { shape: &'a [Num], pre: &'a [Num] },
    /// `right_inverse` leaves out mode `i`, of a dynamic stride.
    DynamicStride { i: usize, mode: (Num, Num) },
    /// The mode indices in the order of `SortByKey` on their strides `stride`.
    Sorted {
        order: &'a [usize],
        stride: &'a [Num],
    },
    /// `right_inverse` met mode `i`, expecting the stride `curr`: `taken` (the shapes and
    /// strides after, and the next `curr`) if its stride is statically `curr`.
    RightMode {
        i: usize,
        mode: (Num, Num),
        curr: Num,
        taken: Option<(&'a [IntTuple], &'a [IntTuple], Num)>,
    },
    /// `left_inverse` met mode `i`: `taken` for a nonzero stride, `None` for a stride 0
    /// (skipped).
    LeftMode {
        i: usize,
        mode: (Num, Num),
        taken: Option<LeftTaken<'a>>,
    },
    /// `left_inverse`'s last mode by stride, mode `i`: its `shape` closes the shapes, now
    /// `shapes`.
    LeftLast {
        i: usize,
        shape: Num,
        shapes: &'a [IntTuple],
    },
}

/// The steps of the divides and products over a layout.
pub(crate) enum Tiling<'a> {
    /// `logical_divide` by a layout: the formula.
    DivideFormula,
    /// The divide's cotarget, `shape(coalesce(A))`.
    DivideTarget { target: &'a IntTuple },
    /// `logical_product` by a layout: the formula.
    ProductFormula,
    /// The product's cotarget, `size(A)*cosize(B)`.
    ProductTarget { size: Num, cosize: Num, target: Num },
    /// `make_layout(first, second)`, `first` an operand's name (`A` or `B`).
    Made {
        first: &'static str,
        second: &'a Layout,
        result: &'a Layout,
    },
    /// A regrouped divide or product: the `logical` one, then `tile_unzip`.
    RegroupFormula { logical: &'static str },
    /// `tile_unzip(L, B)`.
    Unzipped { result: &'a Layout },
    /// Mode 1 (and mode 0 if `both`) unpacked, of the `ranks` of modes 0 and 1.
    Unpacked {
        both: bool,
        ranks: (usize, usize),
        result: &'a Layout,
    },
    /// A blocked or (`raked`) raked product: the formula.
    RankFormula { raked: bool },
    /// The rank `r` both operands are padded to, `max(rank(A), rank(B))`.
    Rank { r: usize },
    /// The operand `name` padded to rank `r`: `append<r>(from) = to`.
    Appended {
        name: &'static str,
        r: usize,
        from: &'a Layout,
        to: &'a Layout,
    },
    /// `zip(x, y)`.
    Zipped {
        x: &'a Layout,
        y: &'a Layout,
        result: &'a Layout,
    },
}

/// What `left_inverse` appended for a nonzero stride.
pub(crate) struct LeftTaken<'a> {
    /// The divisibility was checked (a static size).
    pub checked: bool,
    /// The size before.
    pub size: Num,
    /// `stride / size`.
    pub quotient: Num,
    /// The shapes after.
    pub shapes: &'a [IntTuple],
    /// The strides after.
    pub strides: &'a [IntTuple],
    /// The size after.
    pub grown: Num,
}
