//! Layout and the CuTe layout algebra (`layout.hpp`), one function per CuTe operation.
//!
//! Every function follows the CuTe C++ definition for static integers, including its
//! special cases, its static_assert preconditions (returned as errors) and its exact
//! output structure, so printed results match CuTe character for character.

use crate::error::{arith, Error, Result};
use crate::int_tuple::{self, compact_col_major, compact_row_major, Coord, IntTuple, Num};
use crate::trace::{
    Coalesce, Complement, Compose, Fit, Inverse, LeftTaken, Merge, NoTrace, Op, Tiling, Took, Trace,
};
use std::fmt;

use IntTuple::{Dyn, Int, Tuple};

/// A CuTe layout: a shape and a congruent stride, a function from coordinates to offsets.
///
/// ```
/// use cute_core::Layout;
/// let l: Layout = "(4,8):(8,1)".parse().unwrap();
/// assert_eq!(l.call_index(13).unwrap(), 11);
/// assert_eq!(l.size().unwrap(), 32);
/// assert_eq!(l.to_string(), "(4,8):(8,1)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    shape: IntTuple,
    stride: IntTuple,
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.shape, f)?;
        f.write_str(":")?;
        fmt::Display::fmt(&self.stride, f)
    }
}

impl std::str::FromStr for Layout {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        crate::literal::layout(s)
    }
}

/// A tiler: what CuTe accepts on the right of composition, divides and products.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tiler {
    /// A layout, applied as a whole.
    Layout(Layout),
    /// An integer `n`, meaning the layout `n:1`.
    Int(i64),
    /// `_`: keep the mode.
    Under,
    /// By-mode tiler: one entry per mode of the left operand.
    Tuple(Vec<Tiler>),
}

impl fmt::Display for Tiler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tiler::Layout(l) => write!(f, "{l}"),
            Tiler::Int(v) => write!(f, "{v}"),
            Tiler::Under => f.write_str("_"),
            Tiler::Tuple(ts) => int_tuple::write_tuple(f, ts),
        }
    }
}

impl Layout {
    /// `make_layout(shape, stride)`; shape and stride must be congruent and shapes ≥ 0.
    ///
    /// ```
    /// use cute_core::{IntTuple, Layout};
    /// assert!(Layout::new(IntTuple::ints(&[2, 3]), IntTuple::ints(&[1])).is_err());
    /// ```
    pub fn new(shape: IntTuple, stride: IntTuple) -> Result<Layout> {
        if !shape.congruent(&stride) {
            return Err(crate::err!(
                "shape {shape} and stride {stride} are not congruent"
            ));
        }
        if let Some(s) = shape.find_leaf(|s| s < 0) {
            return Err(crate::err!("shape {shape} has a negative extent {s}"));
        }
        Ok(Layout { shape, stride })
    }

    /// Internal constructor for results the algebra guarantees congruent.
    pub(crate) fn raw(shape: IntTuple, stride: IntTuple) -> Layout {
        debug_assert!(shape.congruent(&stride), "{shape}:{stride}");
        Layout { shape, stride }
    }

    /// `make_layout(shape)`: column-major (LayoutLeft) compact strides.
    ///
    /// ```
    /// use cute_core::{IntTuple, Layout};
    /// let l = Layout::col_major(IntTuple::ints(&[4, 1, 8])).unwrap();
    /// assert_eq!(l.to_string(), "(4,1,8):(1,0,4)");
    /// ```
    pub fn col_major(shape: IntTuple) -> Result<Layout> {
        let stride = compact_col_major(&shape, 1)?;
        Layout::new(shape, stride)
    }

    /// `make_layout(shape, LayoutRight{})`: row-major compact strides.
    ///
    /// ```
    /// use cute_core::{IntTuple, Layout};
    /// assert_eq!(Layout::row_major(IntTuple::ints(&[4, 8])).unwrap().to_string(), "(4,8):(8,1)");
    /// ```
    pub fn row_major(shape: IntTuple) -> Result<Layout> {
        let stride = compact_row_major(&shape, 1)?;
        Layout::new(shape, stride)
    }

    /// The shape.
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "(4,(8)):(6,(4))".parse().unwrap();
    /// assert_eq!(l.shape().to_string(), "(4,(8))");
    /// ```
    pub fn shape(&self) -> &IntTuple {
        &self.shape
    }

    /// The stride.
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "(4,(8)):(6,(4))".parse().unwrap();
    /// assert_eq!(l.stride().to_string(), "(6,(4))");
    /// ```
    pub fn stride(&self) -> &IntTuple {
        &self.stride
    }

    /// CuTe `rank`.
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "((8,1,2),(12)):((12,576,288),(1))".parse().unwrap();
    /// assert_eq!(l.rank(), 2);
    /// assert_eq!("4:1".parse::<Layout>().unwrap().rank(), 1);
    /// ```
    pub fn rank(&self) -> usize {
        self.shape.rank()
    }

    /// CuTe `depth`.
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "(((1),2),(8,2)):(((2),-16),(0,1))".parse().unwrap();
    /// assert_eq!(l.depth(), 3);
    /// assert_eq!("12:1".parse::<Layout>().unwrap().depth(), 0);
    /// ```
    pub fn depth(&self) -> usize {
        self.shape.depth()
    }

    /// CuTe `size`: the number of coordinates.
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "((32,6),4):((1,128),32)".parse().unwrap();
    /// assert_eq!(l.size().unwrap(), 768);
    /// ```
    pub fn size(&self) -> Result<i64> {
        self.shape.size()
    }

    /// CuTe `cosize`: `1 + Σ (s-1)·|d|`, one past the largest offset magnitude.
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "(2,16):(2,12)".parse().unwrap();
    /// assert_eq!(l.cosize().unwrap(), 183);
    /// ```
    pub fn cosize(&self) -> Result<i64> {
        fn go(s: &IntTuple, d: &IntTuple, acc: &mut i64) -> Result<()> {
            match (s, d) {
                (Tuple(ss), Tuple(ds)) => ss.iter().zip(ds).try_for_each(|(s, d)| go(s, d, acc)),
                (Int(s) | Dyn(s), Int(d) | Dyn(d)) => {
                    *acc = arith::add(*acc, arith::mul(arith::sub(*s, 1)?, arith::abs(*d)?)?)?;
                    Ok(())
                }
                _ => Err(crate::err!("cosize: {s} and {d} are not congruent")),
            }
        }
        // Shape and stride are congruent: walked together, without collecting their leaves.
        let mut acc = 0i64;
        go(&self.shape, &self.stride, &mut acc)?;
        arith::add(acc, 1)
    }

    /// `base + L(i)` for every index `i` in `0..size`, in order: what `call_index` gives one
    /// at a time, in O(1) each (an odometer over the leaves). An error for more than `limit`
    /// offsets, a negative shape, or offsets outside `i64` (checked once, up front: every
    /// offset, and every partial sum the odometer forms, lies within `base ± Σ s·|d|`).
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "((2,2),3):((1,6),2)".parse().unwrap();
    /// let all = l.offsets(100, 64).unwrap();
    /// assert_eq!(all, (0..12).map(|i| 100 + l.call_index(i).unwrap()).collect::<Vec<_>>());
    /// assert!(l.offsets(0, 11).is_err());
    /// ```
    ///
    /// Law (checked by `tests/laws.rs::offsets_are_call_index_in_order`): `offsets(b, _)[i] ==
    /// b + L(i)` for any strides (negative and zero too).
    pub fn offsets(&self, base: i64, limit: usize) -> Result<Vec<i64>> {
        let shape = self.shape.leaves();
        let stride = self.stride.leaves();
        if shape.iter().any(|&s| s < 0) {
            return Err(crate::err!("{self}: a shape entry is negative"));
        }
        let n = self.size()?;
        if usize::try_from(n).map_or(true, |n| n > limit) {
            return Err(crate::err!("{self} has {n} offsets, more than {limit}"));
        }
        let mut reach = arith::abs(base)?;
        for (&s, &d) in shape.iter().zip(&stride) {
            reach = arith::add(reach, arith::mul(s, arith::abs(d)?)?)?;
        }
        // `reach` fits in i64, so the plain arithmetic below cannot overflow.
        let mut out = Vec::with_capacity(n as usize);
        let mut coord = vec![0i64; shape.len()];
        let mut cur = base;
        for _ in 0..n {
            out.push(cur);
            for k in 0..shape.len() {
                coord[k] += 1;
                cur += stride[k];
                if coord[k] < shape[k] {
                    break;
                }
                cur -= shape[k] * stride[k];
                coord[k] = 0;
            }
        }
        Ok(out)
    }

    /// CuTe `cosize` with its kind: `layout(size - _1) + _1` is static when every mode
    /// with a non-`_0` stride has a static stride and the shape is static.
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "(2,(16,16)):(1,(8,1))".parse().unwrap();
    /// let c = l.cosize_num().unwrap();
    /// assert_eq!((c.v, c.is_static()), (137, true));
    /// ```
    pub fn cosize_num(&self) -> Result<Num> {
        let v = self.cosize()?;
        let shape_static = self.shape.is_static();
        let fixed = self
            .stride
            .leaf_nums()
            .iter()
            .all(|d| d.is_const(0) || (d.is_static() && shape_static));
        Ok(Num { v, fixed })
    }

    /// CuTe `get<i>(layout)`: mode `i` as a layout (mode 0 of a rank-1 integer layout is itself).
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "(4,(2,3)):(1,(4,8))".parse().unwrap();
    /// assert_eq!(l.mode(1).unwrap().to_string(), "(2,3):(4,8)");
    /// ```
    pub fn mode(&self, i: usize) -> Result<Layout> {
        Ok(Layout::raw(
            self.shape.get(i)?.clone(),
            self.stride.get(i)?.clone(),
        ))
    }

    /// All top-level modes.
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "(4,(2,3)):(1,(4,8))".parse().unwrap();
    /// let m: Vec<String> = l.modes().iter().map(|m| m.to_string()).collect();
    /// assert_eq!(m, ["4:1", "(2,3):(4,8)"]);
    /// ```
    pub fn modes(&self) -> Vec<Layout> {
        self.shape
            .modes()
            .into_iter()
            .zip(self.stride.modes())
            .map(|(s, d)| Layout::raw(s, d))
            .collect()
    }

    /// CuTe `layout(i)`: the offset of linear index `i` (column-major over the shape).
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "((2,4),(1)):((1,2),(8))".parse().unwrap();
    /// assert_eq!(l.call_index(7).unwrap(), 7);
    /// let l: Layout = "((1),(6)):((6),(1))".parse().unwrap();
    /// assert_eq!(l.call_index(1).unwrap(), 1);
    /// ```
    pub fn call_index(&self, i: i64) -> Result<i64> {
        int_tuple::crd2idx(&Int(i), &self.shape, &self.stride)
    }

    /// CuTe `layout(coord)`: the offset of a (hierarchical) coordinate, `Σ c_i · d_i`.
    ///
    /// ```
    /// use cute_core::{IntTuple, Layout};
    /// let l: Layout = "(2,(4,4)):(0,(16,1))".parse().unwrap();
    /// let c: IntTuple = "(1,(3,3))".parse().unwrap();
    /// assert_eq!(l.call_coord(&c).unwrap(), 51);
    /// ```
    pub fn call_coord(&self, c: &IntTuple) -> Result<i64> {
        int_tuple::crd2idx(c, &self.shape, &self.stride)
    }

    /// CuTe `slice(coord, layout)`: the sub-layout of the modes marked `_`.
    ///
    /// ```
    /// use cute_core::{int_tuple::Coord, Layout};
    /// let l: Layout = "(4,8):(8,1)".parse().unwrap();
    /// let s = l.slice(&Coord::Tuple(vec![Coord::Under, Coord::Int(2)])).unwrap();
    /// assert_eq!(s.to_string(), "(4):(8)");
    /// ```
    pub fn slice(&self, c: &Coord) -> Result<Layout> {
        self.check_coord(c)?;
        Ok(Layout::raw(
            int_tuple::slice(c, &self.shape)?,
            int_tuple::slice(c, &self.stride)?,
        ))
    }

    /// CuTe `dice(coord, layout)`: the sub-layout of the modes with fixed coordinates.
    ///
    /// ```
    /// use cute_core::{int_tuple::Coord, Layout};
    /// let l: Layout = "(2,4,16):(64,16,1)".parse().unwrap();
    /// let c = Coord::Tuple(vec![Coord::Int(1), Coord::Under, Coord::Int(0)]);
    /// assert_eq!(l.dice(&c).unwrap().to_string(), "(2,16):(64,1)");
    /// ```
    pub fn dice(&self, c: &Coord) -> Result<Layout> {
        self.check_coord(c)?;
        Ok(Layout::raw(
            int_tuple::dice(c, &self.shape)?,
            int_tuple::dice(c, &self.stride)?,
        ))
    }

    fn check_coord(&self, c: &Coord) -> Result<()> {
        fn go(c: &Coord, s: &IntTuple) -> bool {
            match (c, s) {
                (Coord::Tuple(cs), Tuple(ss)) => {
                    cs.len() == ss.len() && cs.iter().zip(ss).all(|(a, b)| go(a, b))
                }
                (Coord::Tuple(_), Int(_) | Dyn(_)) => false,
                _ => true,
            }
        }
        if go(c, &self.shape) {
            Ok(())
        } else {
            Err(crate::err!(
                "coordinate does not match the profile of shape {}",
                self.shape
            ))
        }
    }

    /// CuTe `flatten`.
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "((2,2),(3,4)):((1,2),(4,12))".parse().unwrap();
    /// assert_eq!(l.flatten().to_string(), "(2,2,3,4):(1,2,4,12)");
    /// ```
    pub fn flatten(&self) -> Layout {
        Layout::raw(self.shape.flatten(), self.stride.flatten())
    }

    /// CuTe `append<N>(layout)`: pad with `1:0` modes up to rank `n`.
    ///
    /// ```
    /// use cute_core::Layout;
    /// let l: Layout = "(8,64):(64,1)".parse().unwrap();
    /// assert_eq!(l.append_to(3).to_string(), "(8,64,1):(64,1,0)");
    /// ```
    pub fn append_to(&self, n: usize) -> Layout {
        Layout::raw(
            self.shape.clone().append_to(n, &Int(1)),
            self.stride.clone().append_to(n, &Int(0)),
        )
    }

    /// CuTe `with_shape(shape)` = `composition(layout, make_layout(shape))`.
    ///
    /// ```
    /// use cute_core::{IntTuple, Layout};
    /// let l: Layout = "(8,4):(4,1)".parse().unwrap();
    /// let s: IntTuple = "(2,16)".parse().unwrap();
    /// assert_eq!(l.with_shape(s).unwrap().to_string(), "(2,(4,4)):(4,(8,1))");
    /// ```
    pub fn with_shape(&self, shape: IntTuple) -> Result<Layout> {
        composition(self, &Layout::col_major(shape)?)
    }
}

/// CuTe `make_layout(L0, L1, ...)`: concatenate layouts as modes. One layout is wrapped into
/// a 1-tuple, as in C++.
///
/// ```
/// use cute_core::{layout::make_layout, Layout};
/// let a: Layout = "4:1".parse().unwrap();
/// let b: Layout = "(2,3):(4,8)".parse().unwrap();
/// assert_eq!(make_layout(&[a, b]).to_string(), "(4,(2,3)):(1,(4,8))");
/// ```
pub fn make_layout(layouts: &[Layout]) -> Layout {
    Layout::raw(
        Tuple(layouts.iter().map(|l| l.shape.clone()).collect()),
        Tuple(layouts.iter().map(|l| l.stride.clone()).collect()),
    )
}

// ---------------------------------------------------------------------------------------
// Tracing: the algorithms report their steps (`crate::trace`) for `crate::explain`
// ---------------------------------------------------------------------------------------

/// [`Trace::RECORDS`] of `t`'s type (for `traced!`, which cannot name the type).
#[inline(always)]
fn records<T: Trace>(_: &T) -> bool {
    T::RECORDS
}

/// How a logical divide or product is regrouped.
#[derive(Clone, Copy)]
pub(crate) enum Regroup {
    /// `((TILE),(REST))`.
    Zipped,
    /// `((TILE),REST0,REST1,...)`.
    Tiled,
    /// `(TILE0,TILE1,...,REST0,REST1,...)`.
    Flat,
}

/// The two logical operations over a tiler: `logical_divide` and `logical_product`.
#[derive(Clone, Copy)]
pub(crate) enum Logical {
    /// `logical_divide`.
    Divide,
    /// `logical_product`.
    Product,
}

impl Logical {
    /// The name of the divide's or the product's variant.
    fn pick(self, divide: &'static str, product: &'static str) -> &'static str {
        match self {
            Logical::Divide => divide,
            Logical::Product => product,
        }
    }
    fn name(self) -> &'static str {
        self.pick("logical_divide", "logical_product")
    }
    fn regrouped_name(self, how: Regroup) -> &'static str {
        match how {
            Regroup::Zipped => self.pick("zipped_divide", "zipped_product"),
            Regroup::Tiled => self.pick("tiled_divide", "tiled_product"),
            Regroup::Flat => self.pick("flat_divide", "flat_product"),
        }
    }
}

/// `$body` (a `Result<Layout>`) as the operation `$op($a[, $b])`: its steps between a
/// `Begin` and an `End`. A macro, not a function taking a closure, so that an untraced run
/// returns the bare body: no closure call, no copy of the result (measured: they cost a
/// small operation about 1%).
macro_rules! traced {
    ($t:ident, $op:expr, $a:expr, $b:expr, $body:expr) => {{
        if !records(&*$t) {
            return $body;
        }
        $t.step(Op::Begin {
            op: $op,
            a: $a,
            b: $b,
        });
        let r: Result<Layout> = $body;
        if let Ok(result) = &r {
            $t.step(Op::End { result });
        }
        r
    }};
}

/// CuTe `transform_layout(layout, tiler, f)` over the first `rank(tiler)` modes; `keep_rest`
/// appends the remaining modes of `layout` (divides, products) or drops them (composition).
fn by_mode<T: Trace>(
    layout: &Layout,
    tilers: &[Tiler],
    keep_rest: bool,
    what: &str,
    t: &mut T,
    f: impl Fn(&Layout, &Tiler, &mut T) -> Result<Layout>,
) -> Result<Layout> {
    if tilers.len() > layout.rank() {
        return Err(crate::err!(
            "{what}: too many modes in tiler ({} modes for a layout of rank {})",
            tilers.len(),
            layout.rank()
        ));
    }
    t.step(Op::ByMode { profile: false });
    let mut out = Vec::with_capacity(layout.rank());
    let modes = layout.modes();
    for (m, tl) in modes.iter().zip(tilers) {
        out.push(f(m, tl, t)?);
    }
    // The modes past the tiler (an untraced composition drops them without a look).
    for (i, m) in modes.iter().enumerate().skip(tilers.len()) {
        t.step(Op::Past {
            i,
            mode: m,
            kept: keep_rest,
        });
        if keep_rest {
            out.push(m.clone());
        }
    }
    t.step(Op::ByModeEnd);
    Ok(make_layout(&out))
}

// ---------------------------------------------------------------------------------------
// Coalesce and filter
// ---------------------------------------------------------------------------------------

/// CuTe's `bw_coalesce`: walk the flat modes right to left, merging where
/// `s_i * d_i == d_{i+1}`, skipping size-1 modes.
fn bw_coalesce<T: Trace>(
    fs: &[Num],
    fd: &[Num],
    init_shape: Num,
    init_stride: Num,
    t: &mut T,
) -> Result<Layout> {
    // The result is kept front-first; while it has one mode it is an integer, as in CuTe.
    let mut shape = vec![init_shape];
    let mut stride = vec![init_stride];
    for i in (0..fs.len().saturating_sub(1)).rev() {
        let (s, d) = (fs[i], fd[i]);
        let front = stride[0];
        let how = if s.is_const(1) {
            Merge::Dropped
        } else if shape.len() == 1 && shape[0].is_const(1) {
            // Replace a size-1 result with anything.
            (shape[0], stride[0]) = (s, d);
            Merge::Replaced
        } else {
            // C++ can tell the modes contiguous only at compile time: a static front shape.
            let product = if shape[0].is_static() {
                Some(s.mul(d)?)
            } else {
                None
            };
            if product.is_some_and(|p| p.static_eq(front)) {
                shape[0] = s.mul(shape[0])?;
                stride[0] = d;
                Merge::Merged
            } else {
                shape.insert(0, s);
                stride.insert(0, d);
                Merge::Prepended { product }
            }
        };
        t.step(Coalesce::Mode {
            mode: (s, d),
            how,
            front,
            into: (&shape, &stride),
        });
    }
    Ok(match shape.len() {
        1 if shape[0].is_const(1) => {
            t.step(Coalesce::Unit);
            Layout::raw(Int(1), Int(0))
        }
        1 => Layout::raw(shape[0].leaf(), stride[0].leaf()),
        _ => Layout::raw(IntTuple::nums(&shape), IntTuple::nums(&stride)),
    })
}

fn flat_lists(layout: &Layout) -> Result<(Vec<Num>, Vec<Num>)> {
    let fs = layout.shape.leaf_nums();
    if fs.is_empty() {
        return Err(crate::err!("cannot coalesce the empty layout {layout}"));
    }
    Ok((fs, layout.stride.leaf_nums()))
}

/// CuTe `coalesce(layout[, profile])`: merge modes that can be merged (the same function on
/// its domain); with a profile, only within each of its terminals (an integer or `_` there
/// coalesces that whole mode).
///
/// ```
/// use cute_core::{layout::coalesce, IntTuple, Layout};
/// let l: Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
/// assert_eq!(coalesce(&l, None).unwrap().to_string(), "12:1");
/// let l: Layout = "((2,4),(3,2)):((1,2),(8,24))".parse().unwrap();
/// let p: IntTuple = "(1,1)".parse().unwrap();
/// assert_eq!(coalesce(&l, Some(&p)).unwrap().to_string(), "(8,6):(1,8)");
/// ```
///
/// Law (checked by `tests/laws.rs::coalesce_and_filter_preserve_the_function`):
/// `coalesce(L)(i) == L(i)` for every `i < size(L)`, `size` kept, depth ≤ 1.
pub fn coalesce(layout: &Layout, profile: Option<&IntTuple>) -> Result<Layout> {
    coalesce_traced(layout, profile, &mut NoTrace)
}

/// CuTe's `transform_layout(layout, trg_profile, f)` of `coalesce` and `filter` with a
/// profile: `whole` of every mode at a terminal of the profile (an integer or `_`), the
/// modes past the profile's kept as they are.
fn at_profile<T: Trace>(
    layout: &Layout,
    profile: Option<&IntTuple>,
    what: &'static str,
    whole: fn(&Layout, &mut T) -> Result<Layout>,
    t: &mut T,
) -> Result<Layout> {
    let b = profile.map(|p| p as &dyn fmt::Display);
    traced!(
        t,
        what,
        layout,
        b,
        match profile {
            None | Some(Int(_) | Dyn(_)) => whole(layout, t),
            Some(Tuple(ps)) => {
                if ps.len() > layout.rank() {
                    return Err(crate::err!(
                        "{what}: profile {} has more modes than the layout (rank {})",
                        Tuple(ps.clone()),
                        layout.rank()
                    ));
                }
                t.step(Op::ByMode { profile: true });
                let modes = layout.modes();
                let mut out = Vec::with_capacity(modes.len());
                for (i, m) in modes.iter().enumerate() {
                    out.push(match ps.get(i) {
                        Some(p) => at_profile(m, Some(p), what, whole, t)?,
                        None => {
                            t.step(Op::Past {
                                i,
                                mode: m,
                                kept: true,
                            });
                            m.clone()
                        }
                    });
                }
                t.step(Op::ByModeEnd);
                Ok(make_layout(&out))
            }
        }
    )
}

/// [`coalesce`], its steps reported to `t`.
pub(crate) fn coalesce_traced<T: Trace>(
    layout: &Layout,
    profile: Option<&IntTuple>,
    t: &mut T,
) -> Result<Layout> {
    at_profile(layout, profile, "coalesce", coalesce_whole, t)
}

fn coalesce_all(layout: &Layout) -> Result<Layout> {
    coalesce_whole(layout, &mut NoTrace)
}

/// CuTe `coalesce` of the whole layout: `bw_coalesce` from its last flat mode.
fn coalesce_whole<T: Trace>(layout: &Layout, t: &mut T) -> Result<Layout> {
    let (fs, fd) = flat_lists(layout)?;
    let r = fs.len();
    t.step(Coalesce::Start {
        layout,
        last: (fs[r - 1], fd[r - 1]),
    });
    bw_coalesce(&fs, &fd, fs[r - 1], fd[r - 1], t)
}

/// CuTe `detail::coalesce_x`: like coalesce, but keeps the last stride when the last
/// mode has size 1 (used by composition).
fn coalesce_x(layout: &Layout) -> Result<Layout> {
    let (fs, fd) = flat_lists(layout)?;
    let r = fs.len();
    let last = if fs[r - 1].is_const(1) {
        Num::fixed(2)
    } else {
        fs[r - 1]
    };
    bw_coalesce(&fs, &fd, last, fd[r - 1], &mut NoTrace)
}

/// CuTe `filter_zeros`: size-1 for every stride-0 mode.
///
/// ```
/// use cute_core::{layout::filter_zeros, Layout};
/// let l: Layout = "(4,(2,3)):(0,(1,0))".parse().unwrap();
/// assert_eq!(filter_zeros(&l).to_string(), "(1,(2,1)):(0,(1,0))");
/// let l: Layout = "(12,3):(16,8)".parse().unwrap();
/// assert_eq!(filter_zeros(&l).to_string(), "(12,3):(16,8)");
/// ```
pub fn filter_zeros(layout: &Layout) -> Layout {
    fn go(d: &IntTuple, s: &IntTuple) -> IntTuple {
        match (d, s) {
            (Tuple(ds), Tuple(ss)) => Tuple(ds.iter().zip(ss).map(|(a, b)| go(a, b)).collect()),
            (Int(0), s) => s.repeat_like(1),
            (_, s) => s.clone(),
        }
    }
    Layout::raw(go(&layout.stride, &layout.shape), layout.stride.clone())
}

/// CuTe `filter`: drop stride-0 and size-1 modes, then coalesce.
///
/// ```
/// use cute_core::{layout::filter, Layout};
/// let l: Layout = "(2,2,1):(4,8,0)".parse().unwrap();
/// assert_eq!(filter(&l).unwrap().to_string(), "4:4");
/// ```
///
/// Law (checked by `tests/laws.rs::coalesce_and_filter_preserve_the_function`): the image
/// of `filter(L)` is the image of `L`.
pub fn filter(layout: &Layout) -> Result<Layout> {
    coalesce_all(&filter_zeros(layout))
}

/// CuTe `filter(layout, profile)`: [`filter`] within each terminal of the profile (as
/// [`coalesce`] with a profile), the modes past it kept.
///
/// ```
/// use cute_core::{layout::filter_profile, IntTuple, Layout};
/// let l: Layout = "((2,4),(3,1)):((0,2),(8,24))".parse().unwrap();
/// let p: IntTuple = "(1,1)".parse().unwrap();
/// assert_eq!(filter_profile(&l, &p).unwrap().to_string(), "(4,3):(2,8)");
/// ```
pub fn filter_profile(layout: &Layout, profile: &IntTuple) -> Result<Layout> {
    at_profile(
        layout,
        Some(profile),
        "filter",
        |l, _| filter(l),
        &mut NoTrace,
    )
}

// ---------------------------------------------------------------------------------------
// Composition
// ---------------------------------------------------------------------------------------

/// CuTe's `composition_impl` of a coalesced left side with the mode `rs:rd` of the right
/// side: by mode for a tuple (right-distributivity), else [`compose_leaf`].
fn composition_impl<T: Trace>(
    lhs: &Layout,
    rs: &IntTuple,
    rd: &IntTuple,
    t: &mut T,
) -> Result<Layout> {
    let r = if let (Tuple(ss), Tuple(ds)) = (rs, rd) {
        t.step(Compose::Mode {
            shape: rs,
            stride: rd,
            by_mode: true,
        });
        // Right-distributivity over the modes of the right-hand side.
        let parts = ss
            .iter()
            .zip(ds)
            .map(|(s, d)| composition_impl(lhs, s, d, t))
            .collect::<Result<Vec<_>>>()?;
        make_layout(&parts)
    } else {
        t.step(Compose::Mode {
            shape: rs,
            stride: rd,
            by_mode: false,
        });
        compose_leaf(lhs, rs, rd, t)?
    };
    t.step(Compose::Done { result: &r });
    Ok(r)
}

/// The integral-RHS case of CuTe's `composition_impl`: the fold over the modes of `lhs` but
/// the last, dividing out the rest stride and keeping the rest shape.
fn compose_leaf<T: Trace>(lhs: &Layout, rs: &IntTuple, rd: &IntTuple, t: &mut T) -> Result<Layout> {
    let (Some(rs), Some(rd)) = (rs.num(), rd.num()) else {
        return Err(Error::new(
            "composition: shape and stride are not congruent",
        ));
    };
    if rd.is_const(0) {
        let r = Layout::raw(rs.leaf(), rd.leaf());
        t.step(Compose::Zero { result: &r });
        return Ok(r);
    }
    let (ls, ld) = match (&lhs.shape, &lhs.stride) {
        (Tuple(_), Tuple(_)) => (lhs.shape.leaf_nums(), lhs.stride.leaf_nums()),
        (s, d) if s.is_int() && d.is_int() => {
            let d = d.num().expect("leaf");
            let r = Layout::raw(rs.leaf(), rd.mul(d)?.leaf());
            t.step(Compose::OneMode {
                lhs,
                stride: rd,
                lhs_stride: d,
                result: &r,
            });
            return Ok(r);
        }
        _ => unreachable!("congruent"),
    };
    // A flat left side has a last mode (coalesce refuses the empty layout).
    let (Some(&last_s), Some(&last_d)) = (ls.last(), ld.last()) else {
        return Err(Error::new("composition: the empty left layout"));
    };
    let r = ls.len();
    let mut res_shape: Vec<IntTuple> = Vec::new();
    let mut res_stride: Vec<IntTuple> = Vec::new();
    let mut rest_shape = rs;
    let mut rest_stride = rd;
    for i in 0..r - 1 {
        let (cs, cd) = (ls[i], ld[i]);
        // C++ checks the divisibility conditions only where both sides are static.
        let fit = if cs.is_static() && rest_stride.is_static() {
            if arith::rem(rest_stride.v, cs.v)? == 0 {
                Fit::Divides
            } else if rest_stride.v < cs.v {
                Fit::Below
            } else {
                return Err(crate::err!(
                    "composition: stride divisibility condition violated (stride {} vs shape {} of the left layout {lhs})",
                    rest_stride.v, cs.v
                ));
            }
        } else {
            Fit::Unchecked
        };
        let abs_rest = rest_stride.abs()?;
        let next_shape = cs.ceil_div(abs_rest)?;
        let next_stride = abs_rest.ceil_div(cs)?.mul(rest_stride.signum())?;
        let took = if next_shape.is_const(1) {
            Took::Skip
        } else if rest_shape.is_const(1) {
            Took::Empty
        } else {
            let new_shape = next_shape.min(rest_shape);
            if new_shape.is_static()
                && rest_shape.is_static()
                && arith::rem(rest_shape.v, new_shape.v)? != 0
            {
                return Err(crate::err!(
                    "composition: shape divisibility condition violated ({} is not divisible by {}, left layout {lhs})",
                    rest_shape.v, new_shape.v
                ));
            }
            Took::Take {
                shape: new_shape,
                stride: rest_stride.mul(cd)?,
                left: rest_shape.div(new_shape)?,
            }
        };
        t.step(Compose::Fold {
            mode: (cs, cd),
            rest: (rest_shape, rest_stride),
            fit,
            abs_rest,
            next_stride,
            took,
        });
        if let Took::Take {
            shape,
            stride,
            left,
        } = took
        {
            res_shape.push(shape.leaf());
            res_stride.push(stride.leaf());
            rest_shape = left;
        }
        rest_stride = next_stride;
    }
    // The last mode takes what is left: all of it if nothing was taken before.
    if res_shape.is_empty() || !rest_shape.is_const(1) {
        let d = rest_stride.mul(last_d)?;
        t.step(Compose::Last {
            mode: (last_s, last_d),
            rest: Some((rest_shape, rest_stride, d)),
        });
        if res_shape.is_empty() {
            return Ok(Layout::raw(rest_shape.leaf(), d.leaf()));
        }
        res_shape.push(rest_shape.leaf());
        res_stride.push(d.leaf());
        return Ok(Layout::raw(Tuple(res_shape), Tuple(res_stride)));
    }
    t.step(Compose::Last {
        mode: (last_s, last_d),
        rest: None,
    });
    Ok(Layout::raw(
        Tuple(res_shape).unwrap(),
        Tuple(res_stride).unwrap(),
    ))
}

/// CuTe `composition(A, B)`: the layout `R` with `R(c) = A(B(c))`, compatible with `B`.
///
/// ```
/// use cute_core::{layout::composition, Layout};
/// let a: Layout = "(6,2):(8,2)".parse().unwrap();
/// let b: Layout = "(4,3):(3,1)".parse().unwrap();
/// assert_eq!(composition(&a, &b).unwrap().to_string(), "((2,2),3):((24,2),8)");
/// ```
///
/// Law (checked by `tests/laws.rs::composition_is_function_composition`): `R(i) == A(B(i))`
/// for every `i < size(B)`, and `size(R) == size(B)`.
pub fn composition(lhs: &Layout, rhs: &Layout) -> Result<Layout> {
    composition_traced(lhs, rhs, &mut NoTrace)
}

/// [`composition`] of `a` and `b`, its steps reported to `t`.
pub(crate) fn composition_traced(a: &Layout, b: &Layout, t: &mut impl Trace) -> Result<Layout> {
    traced!(t, "composition", a, Some(b), compose_coalesced(a, b, t))
}

/// `composition_impl(coalesce_x(lhs), rhs)`: what every composition runs.
fn compose_coalesced<T: Trace>(lhs: &Layout, rhs: &Layout, t: &mut T) -> Result<Layout> {
    let flat = coalesce_x(lhs)?;
    t.step(Compose::CoalescedX { flat: &flat });
    composition_impl(&flat, &rhs.shape, &rhs.stride, t)
}

/// CuTe's `composition_impl` of a left layout already coalesced (the basis layouts run it on
/// their own coalescing, [`crate::basis::BasisLayout::composition`]).
pub(crate) fn composition_flat(flat: &Layout, rhs: &Layout) -> Result<Layout> {
    composition_impl(flat, &rhs.shape, &rhs.stride, &mut NoTrace)
}

/// The regrouping `zipped_divide` makes of a `logical_divide` result.
pub(crate) fn regroup_zipped(l: &Layout, tiler: &Tiler) -> Result<Layout> {
    tile_unzip(l, tiler)
}

/// The regrouping `tiled_divide` makes of a `logical_divide` result.
pub(crate) fn regroup_tiled(l: &Layout, tiler: &Tiler) -> Result<Layout> {
    unpack(&tile_unzip(l, tiler)?, false, &mut NoTrace)
}

/// The regrouping `flat_divide` makes of a `logical_divide` result.
pub(crate) fn regroup_flat(l: &Layout, tiler: &Tiler) -> Result<Layout> {
    unpack(&tile_unzip(l, tiler)?, true, &mut NoTrace)
}

/// CuTe `composition(A, tiler)`: by-mode for tuple tilers (dropping modes of `A` the tiler
/// does not reach), `n` means `n:1`, `_` keeps the mode.
///
/// ```
/// use cute_core::{layout::{composition_tiler, Tiler}, Layout};
/// let a: Layout = "(12,(4,8)):(59,(13,1))".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Layout("3:4".parse().unwrap()), Tiler::Layout("8:2".parse().unwrap())]);
/// assert_eq!(composition_tiler(&a, &t).unwrap().to_string(), "(3,(2,4)):(236,(26,1))");
/// ```
pub fn composition_tiler(lhs: &Layout, tiler: &Tiler) -> Result<Layout> {
    composition_tiler_traced(lhs, tiler, &mut NoTrace)
}

/// [`composition_tiler`], its steps reported to `t` (a layout tiler's as [`composition`]'s).
pub(crate) fn composition_tiler_traced<T: Trace>(
    lhs: &Layout,
    tiler: &Tiler,
    t: &mut T,
) -> Result<Layout> {
    traced!(
        t,
        "composition",
        lhs,
        Some(tiler),
        match tiler {
            Tiler::Layout(r) => compose_coalesced(lhs, r, t),
            Tiler::Under => {
                t.step(Op::Keeps);
                Ok(lhs.clone())
            }
            Tiler::Int(n) => {
                t.step(Compose::IntAsLayout { n: *n });
                compose_coalesced(lhs, &Layout::raw(Int(*n), Int(1)), t)
            }
            Tiler::Tuple(ts) => by_mode(lhs, ts, false, "composition", t, composition_tiler_traced),
        }
    )
}

// ---------------------------------------------------------------------------------------
// Complement
// ---------------------------------------------------------------------------------------

/// CuTe's `detail::complement` of a filtered layout: its modes by increasing stride, each
/// new mode `d_i / (s_{i-1}*d_{i-1})`, then the rest up to the cotarget, coalesced.
fn complement_impl<T: Trace>(f: &Layout, cotarget: &IntTuple, t: &mut T) -> Result<Layout> {
    let (shape, stride) = (&f.shape, &f.stride);
    if stride.is_const(0) {
        // Irreducible rank-1 stride-0 layout.
        let r = Layout::col_major(int_tuple::coalesce_shape(cotarget)?)?;
        t.step(Complement::Zero {
            cotarget,
            result: &r,
        });
        return Ok(r);
    }
    let mut sh = shape
        .modes()
        .iter()
        .map(|x| x.num().expect("flat"))
        .collect::<Vec<_>>();
    let mut st = stride
        .modes()
        .iter()
        .map(|x| x.num().expect("flat"))
        .collect::<Vec<_>>();
    let r = sh.len();
    if r > 1 && st.iter().any(|d| !d.is_static()) {
        return Err(crate::err!(
            "complement: dynamic strides {stride} (C++ takes the complement of dynamic strides only for rank-1 layouts)"
        ));
    }
    let mut res_shape: Vec<Num> = Vec::with_capacity(r + 1);
    let mut res_stride: Vec<Num> = vec![Num::fixed(1)];
    // C++'s static_assert: only a static zero is caught.
    let non_injective = || Error::new("complement: non-injective layout detected");
    for i in 0..r - 1 {
        let min_stride = st.iter().copied().reduce(Num::min).expect("non-empty");
        let min_idx = st
            .iter()
            .position(|d| d.v == min_stride.v)
            .expect("present");
        let new_shape = min_stride.div(res_stride[i])?;
        let new_stride = min_stride.mul(sh[min_idx])?;
        if new_shape.is_const(0) {
            return Err(non_injective());
        }
        t.step(Complement::Mode {
            mode: (sh[min_idx], min_stride),
            last: false,
            prev: res_stride[i],
            quotient: new_shape,
            next: new_stride,
        });
        sh.remove(min_idx);
        st.remove(min_idx);
        res_shape.push(new_shape);
        res_stride.push(new_stride);
    }
    let new_shape = st[0].div(res_stride[r - 1])?;
    if new_shape.is_const(0) {
        return Err(non_injective());
    }
    res_shape.push(new_shape);
    let new_stride = st[0].mul(sh[0])?;
    t.step(Complement::Mode {
        mode: (sh[0], st[0]),
        last: true,
        prev: res_stride[r - 1],
        quotient: new_shape,
        next: new_stride,
    });
    let rest_shape =
        int_tuple::coalesce_shape(&int_tuple::ceil_div(cotarget, &new_stride.leaf())?)?;
    let rest_stride = int_tuple::compact_col_major_num(&rest_shape, new_stride)?;
    t.step(Complement::Rest {
        cotarget,
        from: new_stride,
        rest: (&rest_shape, &rest_stride),
    });
    // make_shape(result_shape, rest_shape): rest appended as a final mode.
    let shape_all = Tuple(vec![IntTuple::nums(&res_shape), rest_shape]);
    let stride_all = Tuple(vec![IntTuple::nums(&res_stride), rest_stride]);
    coalesced(Layout::raw(shape_all, stride_all), t)
}

/// `coalesce` of the layout a fold built: its last step.
fn coalesced<T: Trace>(built: Layout, t: &mut T) -> Result<Layout> {
    let r = coalesce_all(&built)?;
    t.step(Coalesce::Of {
        of: &built,
        result: &r,
    });
    Ok(r)
}

/// CuTe `complement(layout[, cotarget])`: the layout of the offsets in `[0, cotarget)` that
/// `layout` does not reach, ordered, so that `(layout, complement)` is a bijection; the
/// cotarget defaults to `cosize(filter(layout))`.
///
/// ```
/// use cute_core::{layout::complement, IntTuple, Layout};
/// let l: Layout = "(2,2):(1,6)".parse().unwrap();
/// assert_eq!(complement(&l, Some(&IntTuple::Int(24))).unwrap().to_string(), "(3,2):(2,12)");
/// let l: Layout = "(2,4):(1,6)".parse().unwrap();
/// assert_eq!(complement(&l, None).unwrap().to_string(), "3:2");
/// ```
///
/// Law (checked by `tests/laws.rs::complement_is_disjoint_and_completes`): for an injective
/// `A`, `complement(A, M)(i)` is not in the image of `A` for `i ≥ 1`, and
/// `make_layout(A, complement(A, M))` is a bijection onto `[0, M)`.
pub fn complement(layout: &Layout, cotarget: Option<&IntTuple>) -> Result<Layout> {
    complement_traced(layout, cotarget, &mut NoTrace)
}

/// [`complement`], its steps reported to `t`.
pub(crate) fn complement_traced<T: Trace>(
    layout: &Layout,
    cotarget: Option<&IntTuple>,
    t: &mut T,
) -> Result<Layout> {
    let b = cotarget.map(|c| c as &dyn fmt::Display);
    traced!(t, "complement", layout, b, {
        let f = filter(layout)?;
        t.step(Complement::Filtered { layout: &f });
        let default;
        let target = match cotarget {
            Some(c) => c,
            None => {
                default = f.cosize_num()?.leaf();
                t.step(Complement::Cotarget { cotarget: &default });
                &default
            }
        };
        let c = complement_impl(&f, target, t)?;
        // A negative stride can make C++ print a negative shape; shapes here are >= 0.
        if c.shape.find_leaf(|s| s < 0).is_some() {
            return Err(crate::err!(
                "complement of {layout} would have the negative shape {} (a shape entry is >= 0)",
                c.shape
            ));
        }
        Ok(c)
    })
}

// ---------------------------------------------------------------------------------------
// Inverses
// ---------------------------------------------------------------------------------------

/// CuTe's `SortByKey`: an exchange sort on the key only (not stable), reproduced exactly
/// because the order of equal strides decides the result.
fn exchange_sort_by_key(keys: &[i64]) -> Vec<usize> {
    let mut kv: Vec<(i64, usize)> = keys.iter().copied().zip(0..).collect();
    let n = kv.len();
    for i in 0..n {
        for j in i + 1..n {
            if kv[j].0 < kv[i].0 {
                kv.swap(i, j);
            }
        }
    }
    kv.into_iter().map(|(_, v)| v).collect()
}

/// The coalesced layout's wrapped shape and stride, and the prefix products of the shape.
type Prep = (Vec<Num>, Vec<Num>, Vec<Num>);

fn inverse_prep<T: Trace>(layout: &Layout, t: &mut T) -> Result<Prep> {
    let c = coalesce_all(layout)?;
    t.step(Inverse::CoalescedA { result: &c });
    let shape = c.shape.wrap().leaf_nums();
    let stride = c.stride.wrap().leaf_nums();
    let mut pre = Vec::with_capacity(shape.len() + 1);
    pre.push(Num::fixed(1));
    for s in &shape {
        let last = *pre.last().expect("non-empty");
        pre.push(s.mul(last)?);
    }
    t.step(Inverse::Prefix {
        shape: &shape,
        pre: &pre,
    });
    Ok((shape, stride, pre))
}

/// CuTe `right_inverse`: `R` with `layout(R(i)) == i` for all `i < size(R)`.
///
/// ```
/// use cute_core::{layout::right_inverse, Layout};
/// let l: Layout = "(4,8):(8,1)".parse().unwrap();
/// assert_eq!(right_inverse(&l).unwrap().to_string(), "(8,4):(4,1)");
/// ```
///
/// Law (checked by `tests/laws.rs::inverses_round_trip`): `L(R(i)) == i` for `i < size(R)`,
/// and `size(R) == size(L)` for a bijective `L`.
pub fn right_inverse(layout: &Layout) -> Result<Layout> {
    right_inverse_traced(layout, &mut NoTrace)
}

/// [`right_inverse`], its steps reported to `t`.
pub(crate) fn right_inverse_traced<T: Trace>(layout: &Layout, t: &mut T) -> Result<Layout> {
    traced!(t, "right_inverse", layout, None, {
        let (shape, stride, pre) = inverse_prep(layout, t)?;
        let mut rs = vec![Int(1)];
        let mut rd = vec![Int(0)];
        let mut curr = Num::fixed(1);
        // C++ follows the static strides only (dynamic ones are filtered out before the sort).
        let mut statics = Vec::with_capacity(stride.len());
        for (i, (&s, &d)) in shape.iter().zip(&stride).enumerate() {
            if d.is_static() {
                statics.push(i);
            } else {
                t.step(Inverse::DynamicStride { i, mode: (s, d) });
            }
        }
        let keys: Vec<i64> = statics.iter().map(|&i| stride[i].v).collect();
        let mut order = exchange_sort_by_key(&keys);
        for k in &mut order {
            *k = statics[*k];
        }
        t.step(Inverse::Sorted {
            order: &order,
            stride: &stride,
        });
        for &i in &order {
            let (s, d) = (shape[i], stride[i]);
            if d.static_eq(curr) {
                rs.push(s.leaf());
                rd.push(pre[i].leaf());
                let next = s.mul(d)?;
                t.step(Inverse::RightMode {
                    i,
                    mode: (s, d),
                    curr,
                    taken: Some((&rs, &rd, next)),
                });
                curr = next;
            } else {
                t.step(Inverse::RightMode {
                    i,
                    mode: (s, d),
                    curr,
                    taken: None,
                });
            }
        }
        coalesced(Layout::raw(Tuple(rs), Tuple(rd)), t)
    })
}

/// CuTe `left_inverse` (quasi-inverse): `layout(R(layout(i))) == layout(i)`.
///
/// ```
/// use cute_core::{layout::left_inverse, Layout};
/// let l: Layout = "(8,5,2):(40,4,20)".parse().unwrap();
/// assert_eq!(left_inverse(&l).unwrap().to_string(), "(4,10,8):(0,8,1)");
/// ```
///
/// Law (checked by `tests/laws.rs::inverses_round_trip`): `R(L(i)) == i` for `i < size(L)`
/// when `L` is injective.
pub fn left_inverse(layout: &Layout) -> Result<Layout> {
    left_inverse_traced(layout, &mut NoTrace)
}

/// [`left_inverse`], its steps reported to `t`.
pub(crate) fn left_inverse_traced<T: Trace>(layout: &Layout, t: &mut T) -> Result<Layout> {
    traced!(t, "left_inverse", layout, None, {
        let (shape, stride, pre) = inverse_prep(layout, t)?;
        if stride.iter().any(|d| !d.is_static()) {
            return Err(crate::err!(
                "left_inverse: requires static strides (C++ static_assert), {layout} has dynamic ones"
            ));
        }
        let mut rs: Vec<IntTuple> = Vec::new();
        let mut rd = vec![Int(0)];
        let mut size = Num::fixed(1);
        let keys: Vec<i64> = stride.iter().map(|d| d.v).collect();
        let order = exchange_sort_by_key(&keys);
        t.step(Inverse::Sorted {
            order: &order,
            stride: &stride,
        });
        for &i in &order {
            let d = stride[i];
            if d.is_const(0) {
                t.step(Inverse::LeftMode {
                    i,
                    mode: (shape[i], d),
                    taken: None,
                });
                continue;
            }
            let checked = size.is_static();
            if checked && arith::rem(d.v, size.v)? != 0 {
                return Err(crate::err!(
                    "left_inverse: divisibility condition violated (stride {} is not a multiple of {}) for {layout}",
                    d.v, size.v
                ));
            }
            let s = d.div(size)?;
            let grown = size.mul(s)?;
            rs.push(s.leaf());
            rd.push(pre[i].leaf());
            t.step(Inverse::LeftMode {
                i,
                mode: (shape[i], d),
                taken: Some(LeftTaken {
                    checked,
                    size,
                    quotient: s,
                    shapes: &rs,
                    strides: &rd,
                    grown,
                }),
            });
            size = grown;
        }
        let last = *order.last().expect("non-empty");
        rs.push(shape[last].leaf());
        t.step(Inverse::LeftLast {
            i: last,
            shape: shape[last],
            shapes: &rs,
        });
        coalesced(Layout::raw(Tuple(rs), Tuple(rd)), t)
    })
}

// ---------------------------------------------------------------------------------------
// Divides
// ---------------------------------------------------------------------------------------

/// CuTe `logical_divide(A, tiler)` = `composition(A, make_layout(B, complement(B, shape(coalesce(A)))))`.
///
/// ```
/// use cute_core::{layout::{logical_divide, Tiler}, Layout};
/// let a: Layout = "(4,2,3):(2,1,8)".parse().unwrap();
/// let b = Tiler::Layout("4:2".parse().unwrap());
/// assert_eq!(logical_divide(&a, &b).unwrap().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// ```
///
/// Law (checked by `tests/laws.rs::logical_divide_is_composition_with_the_complement`):
/// `logical_divide(A, B)(i) == composition(A, make_layout(B, complement(B, size(A))))(i)`
/// for every `i < size(A)`; mode 0 has the size of `B` (`divide_and_product_sizes`).
pub fn logical_divide(layout: &Layout, tiler: &Tiler) -> Result<Layout> {
    logical_traced(Logical::Divide, layout, tiler, &mut NoTrace)
}

/// [`logical_divide`] or [`logical_product`], its steps reported to `t`: by a layout, an
/// integer `n` as `make_layout(n)`, `_` keeping `a`, a tuple by mode.
pub(crate) fn logical_traced<T: Trace>(
    op: Logical,
    a: &Layout,
    tiler: &Tiler,
    t: &mut T,
) -> Result<Layout> {
    let by_layout = |tl: &Layout, t: &mut T| match op {
        Logical::Divide => divide_by_layout(a, tl, t),
        Logical::Product => product_by_layout(a, tl, t),
    };
    traced!(
        t,
        op.name(),
        a,
        Some(tiler),
        match tiler {
            Tiler::Layout(tl) => by_layout(tl, t),
            Tiler::Under => {
                t.step(Op::Keeps);
                Ok(a.clone())
            }
            Tiler::Int(n) => {
                let tl = Layout::col_major(Int(*n))?;
                t.step(Op::IntTiler { n: *n, layout: &tl });
                by_layout(&tl, t)
            }
            Tiler::Tuple(ts) => by_mode(a, ts, true, op.name(), t, |m, tl, t| {
                logical_traced(op, m, tl, t)
            }),
        }
    )
}

/// `composition(A, make_layout(B, complement(B, shape(coalesce(A)))))`.
fn divide_by_layout<T: Trace>(layout: &Layout, tl: &Layout, t: &mut T) -> Result<Layout> {
    t.step(Tiling::DivideFormula);
    let target = coalesce_all(layout)?.shape;
    t.step(Tiling::DivideTarget { target: &target });
    let c = complement_traced(tl, Some(&target), t)?;
    let parts = [tl.clone(), c];
    let b = make_layout(&parts);
    t.step(Tiling::Made {
        first: "B",
        second: &parts[1],
        result: &b,
    });
    composition_traced(layout, &b, t)
}

/// CuTe `zip2_by(t, guide)`: gather the first sub-mode of each guided mode into mode 0 and
/// the rest (plus unguided modes) into mode 1.
fn zip2_by(t: &IntTuple, guide: &Tiler) -> Result<IntTuple> {
    match guide {
        Tiler::Tuple(gs) => {
            let ts = match t {
                Tuple(ts) if ts.len() >= gs.len() => ts,
                _ => return Err(Error::new("zip2_by: mismatched ranks")),
            };
            let mut first = Vec::with_capacity(gs.len());
            let mut second = Vec::with_capacity(ts.len());
            for (ti, gi) in ts.iter().zip(gs) {
                match zip2_by(ti, gi)? {
                    Tuple(mut pair) if pair.len() == 2 => {
                        let b = pair.pop().expect("2");
                        let a = pair.pop().expect("2");
                        first.push(a);
                        second.push(b);
                    }
                    _ => {
                        return Err(Error::new(
                            "zip2_by: expected a rank-2 mode (is a `_` tiler mode not divisible?)",
                        ))
                    }
                }
            }
            second.extend(ts[gs.len()..].iter().cloned());
            Ok(Tuple(vec![Tuple(first), Tuple(second)]))
        }
        _ => match t {
            Tuple(ts) if ts.len() == 2 => Ok(t.clone()),
            _ => Err(crate::err!("zip2_by: expected a rank-2 mode, got {t}")),
        },
    }
}

/// CuTe `tile_unzip(layout, tiler)`.
fn tile_unzip(layout: &Layout, tiler: &Tiler) -> Result<Layout> {
    Ok(Layout::raw(
        zip2_by(&layout.shape, tiler)?,
        zip2_by(&layout.stride, tiler)?,
    ))
}

/// Slice `(_, repeat<R1>(_))` or `(repeat<R0>(_), repeat<R1>(_))`: unpack mode 1 (and 0).
fn unpack<T: Trace>(layout: &Layout, unpack0: bool, t: &mut T) -> Result<Layout> {
    let rep = |r: usize| {
        if r == 1 {
            Coord::Under
        } else {
            Coord::Tuple(vec![Coord::Under; r])
        }
    };
    let r0 = layout.shape.get(0)?.rank();
    let r1 = layout.shape.get(1)?.rank();
    let c0 = if unpack0 { rep(r0) } else { Coord::Under };
    let r = layout.slice(&Coord::Tuple(vec![c0, rep(r1)]))?;
    t.step(Tiling::Unpacked {
        both: unpack0,
        ranks: (r0, r1),
        result: &r,
    });
    Ok(r)
}

/// A logical divide or product, regrouped `how`, its steps reported to `t`: the logical one,
/// `tile_unzip`, then mode 1 (and 0) unpacked.
pub(crate) fn regrouped_traced<T: Trace>(
    op: Logical,
    how: Regroup,
    a: &Layout,
    tiler: &Tiler,
    t: &mut T,
) -> Result<Layout> {
    traced!(t, op.regrouped_name(how), a, Some(tiler), {
        t.step(Tiling::RegroupFormula { logical: op.name() });
        let l = logical_traced(op, a, tiler, t)?;
        let z = tile_unzip(&l, tiler)?;
        t.step(Tiling::Unzipped { result: &z });
        match how {
            Regroup::Zipped => Ok(z),
            Regroup::Tiled => unpack(&z, false, t),
            Regroup::Flat => unpack(&z, true, t),
        }
    })
}

/// CuTe `zipped_divide`: `((TILE),(REST))`.
///
/// ```
/// use cute_core::{layout::{zipped_divide, Tiler}, Layout};
/// let a: Layout = "(9,(4,8)):(59,(13,1))".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Layout("3:3".parse().unwrap()), Tiler::Layout("(2,4):(1,8)".parse().unwrap())]);
/// assert_eq!(zipped_divide(&a, &t).unwrap().to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
/// ```
///
/// Law (checked by `tests/laws.rs::divides_and_products_regroup_the_logical_ones`): the same
/// function of the linear index as `logical_divide(A, tiler)`, its modes regrouped.
pub fn zipped_divide(layout: &Layout, tiler: &Tiler) -> Result<Layout> {
    regrouped_traced(
        Logical::Divide,
        Regroup::Zipped,
        layout,
        tiler,
        &mut NoTrace,
    )
}

/// CuTe `tiled_divide`: `((TILE),REST0,REST1,...)`.
///
/// ```
/// use cute_core::{layout::{tiled_divide, Tiler}, Layout};
/// let a: Layout = "(9,(4,8)):(59,(13,1))".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Layout("3:3".parse().unwrap()), Tiler::Layout("(2,4):(1,8)".parse().unwrap())]);
/// assert_eq!(tiled_divide(&a, &t).unwrap().to_string(), "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))");
/// ```
///
/// Law (checked by `tests/laws.rs::divides_and_products_regroup_the_logical_ones`): the same
/// function of the linear index as `logical_divide(A, tiler)`, its modes regrouped.
pub fn tiled_divide(layout: &Layout, tiler: &Tiler) -> Result<Layout> {
    regrouped_traced(Logical::Divide, Regroup::Tiled, layout, tiler, &mut NoTrace)
}

/// CuTe `flat_divide`: `(TILE0,TILE1,...,REST0,REST1,...)`.
///
/// ```
/// use cute_core::{layout::{flat_divide, Tiler}, Layout};
/// let a: Layout = "(9,(4,8)):(59,(13,1))".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Layout("3:3".parse().unwrap()), Tiler::Layout("(2,4):(1,8)".parse().unwrap())]);
/// assert_eq!(flat_divide(&a, &t).unwrap().to_string(), "(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))");
/// let a: Layout = "((8)):((1))".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Int(4)]);
/// assert_eq!(flat_divide(&a, &t).unwrap().to_string(), "((4),(2)):((1),(4))");
/// ```
///
/// Law (checked by `tests/laws.rs::divides_and_products_regroup_the_logical_ones`): the same
/// function of the linear index as `logical_divide(A, tiler)`, its modes regrouped.
pub fn flat_divide(layout: &Layout, tiler: &Tiler) -> Result<Layout> {
    regrouped_traced(Logical::Divide, Regroup::Flat, layout, tiler, &mut NoTrace)
}

// ---------------------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------------------

/// CuTe `logical_product(A, B)` = `make_layout(A, composition(complement(A, size(A)*cosize(B)), B))`.
///
/// ```
/// use cute_core::{layout::{logical_product, Tiler}, Layout};
/// let a: Layout = "(2,2):(4,1)".parse().unwrap();
/// let b = Tiler::Layout("6:1".parse().unwrap());
/// assert_eq!(logical_product(&a, &b).unwrap().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// ```
///
/// Law (checked by `tests/laws.rs::divide_and_product_sizes`): `size == size(A) · size(B)`,
/// and the product of a bijection with a compact tiler is a bijection.
pub fn logical_product(block: &Layout, tiler: &Tiler) -> Result<Layout> {
    logical_traced(Logical::Product, block, tiler, &mut NoTrace)
}

/// `make_layout(A, composition(complement(A, size(A)*cosize(B)), B))`.
fn product_by_layout<T: Trace>(block: &Layout, tl: &Layout, t: &mut T) -> Result<Layout> {
    t.step(Tiling::ProductFormula);
    let (size, cosize) = (block.shape.size_num()?, tl.cosize_num()?);
    let target = size.mul(cosize)?;
    t.step(Tiling::ProductTarget {
        size,
        cosize,
        target,
    });
    let c = complement_traced(block, Some(&target.leaf()), t)?;
    let parts = [block.clone(), composition_traced(&c, tl, t)?];
    let r = make_layout(&parts);
    t.step(Tiling::Made {
        first: "A",
        second: &parts[1],
        result: &r,
    });
    Ok(r)
}

/// CuTe `zipped_product`: `((BLOCK),(PRODUCT))`.
///
/// ```
/// use cute_core::{layout::{zipped_product, Tiler}, Layout};
/// let a: Layout = "(2,3):(1,2)".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Layout("4:4".parse().unwrap())]);
/// assert_eq!(zipped_product(&a, &t).unwrap().to_string(), "((2),(4,3)):((1),(8,2))");
/// ```
///
/// Law (checked by `tests/laws.rs::divides_and_products_regroup_the_logical_ones`): the same
/// function of the linear index as `logical_product(A, tiler)`, its modes regrouped.
pub fn zipped_product(block: &Layout, tiler: &Tiler) -> Result<Layout> {
    regrouped_traced(
        Logical::Product,
        Regroup::Zipped,
        block,
        tiler,
        &mut NoTrace,
    )
}

/// CuTe `tiled_product`: `((BLOCK),P0,P1,...)`.
///
/// ```
/// use cute_core::{layout::{tiled_product, Tiler}, Layout};
/// let a: Layout = "(2,2):(6,1)".parse().unwrap();
/// let t = Tiler::Tuple(vec![Tiler::Layout("4:1".parse().unwrap())]);
/// assert_eq!(tiled_product(&a, &t).unwrap().to_string(), "((2),4,2):((6),1,1)");
/// ```
///
/// Law (checked by `tests/laws.rs::divides_and_products_regroup_the_logical_ones`): the same
/// function of the linear index as `logical_product(A, tiler)`, its modes regrouped.
pub fn tiled_product(block: &Layout, tiler: &Tiler) -> Result<Layout> {
    regrouped_traced(Logical::Product, Regroup::Tiled, block, tiler, &mut NoTrace)
}

/// CuTe `flat_product`: `(B0,B1,...,P0,P1,...)`.
///
/// ```
/// use cute_core::{layout::{flat_product, Tiler}, Layout};
/// let a: Layout = "(8,2):(2,1)".parse().unwrap();
/// let t = Tiler::Layout("(2,8,1):(32,1,32)".parse().unwrap());
/// assert_eq!(flat_product(&a, &t).unwrap().to_string(), "(8,2,2,8,1):(2,1,512,16,512)");
/// ```
///
/// Law (checked by `tests/laws.rs::divides_and_products_regroup_the_logical_ones`): the same
/// function of the linear index as `logical_product(A, tiler)`, its modes regrouped.
pub fn flat_product(block: &Layout, tiler: &Tiler) -> Result<Layout> {
    regrouped_traced(Logical::Product, Regroup::Flat, block, tiler, &mut NoTrace)
}

/// CuTe `zip(A, B)` on layouts (used by blocked/raked products).
pub(crate) fn zip_layouts(a: &Layout, b: &Layout) -> Result<Layout> {
    fn zip(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
        match a {
            Tuple(ta) => {
                // CuTe zips a tuple only with a tuple of the same rank (an integer is a
                // compile error there, even against a 1-tuple).
                let tb = match b {
                    Tuple(tb) if tb.len() == ta.len() => tb.clone(),
                    _ => return Err(crate::err!("mismatched ranks: cannot zip {a} with {b}")),
                };
                Ok(Tuple(
                    ta.iter()
                        .zip(tb)
                        .map(|(x, y)| Tuple(vec![x.clone(), y]))
                        .collect(),
                ))
            }
            Int(_) | Dyn(_) => Ok(Tuple(vec![Tuple(vec![a.clone(), b.clone()])])),
        }
    }
    Ok(Layout::raw(
        zip(&a.shape, &b.shape)?,
        zip(&a.stride, &b.stride)?,
    ))
}

/// CuTe's blocked (`raked: false`) and raked products, their steps reported to `t`: both
/// padded to the larger rank, their logical product `L`, then `zip(get<0>(L), get<1>(L))`
/// (blocked) or `zip(get<1>(L), get<0>(L))` (raked).
pub(crate) fn rank_sensitive_traced<T: Trace>(
    raked: bool,
    block: &Layout,
    tiler: &Layout,
    t: &mut T,
) -> Result<Layout> {
    let op = if raked {
        "raked_product"
    } else {
        "blocked_product"
    };
    traced!(t, op, block, Some(tiler), {
        t.step(Tiling::RankFormula { raked });
        let r = block.rank().max(tiler.rank());
        t.step(Tiling::Rank { r });
        let a = block.append_to(r);
        t.step(Tiling::Appended {
            name: "A",
            r,
            from: block,
            to: &a,
        });
        let b = tiler.append_to(r);
        t.step(Tiling::Appended {
            name: "B",
            r,
            from: tiler,
            to: &b,
        });
        let l = logical_traced(Logical::Product, &a, &Tiler::Layout(b), t)?;
        let (m0, m1) = (l.mode(0)?, l.mode(1)?);
        let (x, y) = if raked { (&m1, &m0) } else { (&m0, &m1) };
        let z = zip_layouts(x, y)?;
        t.step(Tiling::Zipped { x, y, result: &z });
        Ok(z)
    })
}

/// CuTe `blocked_product`: reproduce `block` over `tiler`, block-major.
///
/// ```
/// use cute_core::{layout::blocked_product, Layout};
/// let a: Layout = "(2,5):(5,1)".parse().unwrap();
/// let b: Layout = "(3,4):(1,3)".parse().unwrap();
/// assert_eq!(blocked_product(&a, &b).unwrap().to_string(), "((2,3),(5,4)):((5,10),(1,30))");
/// ```
///
/// Law (checked by `tests/laws.rs::divide_and_product_sizes`): `size == size(A) · size(B)`.
pub fn blocked_product(block: &Layout, tiler: &Layout) -> Result<Layout> {
    rank_sensitive_traced(false, block, tiler, &mut NoTrace)
}

/// CuTe `raked_product`: reproduce `block` over `tiler`, interleaved.
///
/// ```
/// use cute_core::{layout::raked_product, Layout};
/// let a: Layout = "(2,5):(5,1)".parse().unwrap();
/// let b: Layout = "(3,4):(1,3)".parse().unwrap();
/// assert_eq!(raked_product(&a, &b).unwrap().to_string(), "((3,2),(4,5)):((10,5),(30,1))");
/// ```
///
/// Law (checked by `tests/laws.rs::divide_and_product_sizes`): `size == size(A) · size(B)`.
pub fn raked_product(block: &Layout, tiler: &Layout) -> Result<Layout> {
    rank_sensitive_traced(true, block, tiler, &mut NoTrace)
}

// ---------------------------------------------------------------------------------------
// Upcast, downcast, recast
// ---------------------------------------------------------------------------------------

fn check_cast_factor(n: i64, what: &str) -> Result<()> {
    if n <= 0 {
        return Err(crate::err!("{what}: factor must be positive, got {n}"));
    }
    Ok(())
}

/// CuTe `upcast<N>(layout)`: view elements `N` at a time (stride-1 modes shrink, other
/// strides divide).
///
/// ```
/// use cute_core::{layout::upcast, Layout};
/// let l: Layout = "(4,8):(8,1)".parse().unwrap();
/// assert_eq!(upcast(2, &l).unwrap().to_string(), "(4,4):(4,1)");
/// ```
pub fn upcast(n: i64, layout: &Layout) -> Result<Layout> {
    check_cast_factor(n, "upcast")?;
    fn go(n: i64, s: &IntTuple, d: &IntTuple) -> Result<(IntTuple, IntTuple)> {
        match (s, d) {
            (Tuple(ss), Tuple(ds)) => {
                let (a, b): (Vec<_>, Vec<_>) = ss
                    .iter()
                    .zip(ds)
                    .map(|(x, y)| go(n, x, y))
                    .collect::<Result<Vec<_>>>()?
                    .into_iter()
                    .unzip();
                Ok((Tuple(a), Tuple(b)))
            }
            (_, Int(0)) if s.is_int() => Ok((s.clone(), d.clone())),
            // A dynamic stride is assumed divisible: `safe_div(stride, Int<N>{})`.
            (_, Dyn(dv)) if s.is_int() => Ok((s.clone(), Dyn(*dv / n))),
            (Int(_) | Dyn(_), Int(dv)) => {
                let sv = s.num().expect("leaf");
                if !(arith::rem(*dv, n)? == 0 || arith::rem(n, *dv)? == 0) {
                    return Err(crate::err!(
                        "upcast<{n}>: divisibility condition violated by stride {dv}"
                    ));
                }
                let ad = arith::abs(*dv)?;
                let shape = sv.ceil_div(Num::fixed(arith::ceil_div(n, ad)?))?;
                let stride = arith::mul(arith::signum(*dv), arith::ceil_div(ad, n)?)?;
                Ok((shape.leaf(), Int(stride)))
            }
            _ => Err(Error::new("upcast: shape and stride are not congruent")),
        }
    }
    let (s, d) = go(n, &layout.shape, &layout.stride)?;
    Ok(Layout::raw(s, d))
}

/// CuTe `downcast<N>(layout)`: view each element as `N` (stride-±1 modes grow, other
/// strides multiply). Requires a stride-1 mode.
///
/// ```
/// use cute_core::{layout::downcast, Layout};
/// let l: Layout = "(4,8):(8,1)".parse().unwrap();
/// assert_eq!(downcast(2, &l).unwrap().to_string(), "(4,16):(16,1)");
/// ```
pub fn downcast(n: i64, layout: &Layout) -> Result<Layout> {
    check_cast_factor(n, "downcast")?;
    // C++'s `has_int1<Stride>`: a static `_1` stride.
    if !layout.stride.leaf_nums().iter().any(|d| d.is_const(1)) {
        return Err(crate::err!(
            "downcast<{n}>: requires adjacent elements (a stride-1 mode) in {layout}"
        ));
    }
    let mut out_s = Vec::new();
    let mut out_d = Vec::new();
    let n = Num::fixed(n);
    for (s, d) in layout
        .shape
        .leaf_nums()
        .into_iter()
        .zip(layout.stride.leaf_nums())
    {
        if d.is_const(1) || d.is_const(-1) {
            out_s.push(s.mul(n)?.leaf());
            out_d.push(d.leaf());
        } else {
            out_s.push(s.leaf());
            out_d.push(d.mul(n)?.leaf());
        }
    }
    Ok(Layout::raw(
        int_tuple::unflatten(&Tuple(out_s), &layout.shape)?,
        int_tuple::unflatten(&Tuple(out_d), &layout.stride)?,
    ))
}

/// Euclid's greatest common divisor, of the algebra's non-negative extents and strides.
pub fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// CuTe `recast_layout<Old, New>(layout)` for element widths in bits.
///
/// ```
/// use cute_core::{layout::recast_layout, Layout};
/// let l: Layout = "(4,8):(8,1)".parse().unwrap();
/// assert_eq!(recast_layout(16, 32, &l).unwrap().to_string(), "(4,4):(4,1)");
/// ```
pub fn recast_layout(old_bits: i64, new_bits: i64, layout: &Layout) -> Result<Layout> {
    match bit_ratio(old_bits, new_bits)? {
        (1, 1) => Ok(layout.clone()),
        (1, d) => downcast(d, layout),
        (n, 1) => upcast(n, layout),
        (n, d) => downcast(d, &upcast(n, layout)?),
    }
}

/// `new_bits / old_bits` in lowest terms (CuTe's `trait_ratio` of the two widths).
///
/// ```
/// use cute_core::layout::bit_ratio;
/// assert_eq!(bit_ratio(8, 6).unwrap(), (3, 4));
/// ```
pub fn bit_ratio(old_bits: i64, new_bits: i64) -> Result<(i64, i64)> {
    if old_bits <= 0 || new_bits <= 0 {
        return Err(crate::err!(
            "recast_layout: element widths must be positive, got {old_bits} and {new_bits}"
        ));
    }
    let g = gcd(new_bits, old_bits);
    Ok((new_bits / g, old_bits / g))
}

/// `make_layout_tv(thr, val)` exactly as CuTe's `make_tiled_copy` builds it:
/// returns `(tiler_mn, layout_tv)`.
///
/// ```
/// use cute_core::{layout::make_layout_tv, Layout};
/// let thr: Layout = "(4,32):(32,1)".parse().unwrap();
/// let val: Layout = "(4,8):(8,1)".parse().unwrap();
/// let (tiler, tv) = make_layout_tv(&thr, &val).unwrap();
/// assert_eq!(format!("({tiler},{tv})"), "((16,256),((32,4),(8,4)):((128,4),(16,1)))");
/// ```
pub fn make_layout_tv(thr: &Layout, val: &Layout) -> Result<(IntTuple, Layout)> {
    let layout_mn = raked_product(thr, val)?;
    let layout_tv =
        right_inverse(&layout_mn)?.with_shape(IntTuple::ints(&[thr.size()?, val.size()?]))?;
    let tiler = layout_mn.shape.product_each()?;
    Ok((tiler, layout_tv))
}

// ---------------------------------------------------------------------------------------
// Mode algorithms, ordered layouts, tile_to_shape
// ---------------------------------------------------------------------------------------

/// A layout built from the same mode operation on its shape and its stride.
fn on_modes(
    layout: &Layout,
    f: impl Fn(&IntTuple, &IntTuple) -> Result<IntTuple>,
    x: &Layout,
) -> Result<Layout> {
    Layout::new(f(&layout.shape, &x.shape)?, f(&layout.stride, &x.stride)?)
}

/// CuTe `append<N>(layout, x = 1:0)`: `layout` extended to rank `n` with copies of `x`.
///
/// ```
/// use cute_core::{layout::append, Layout};
/// let l: Layout = "(8,64):(64,1)".parse().unwrap();
/// assert_eq!(append(&l, 3, None).unwrap().to_string(), "(8,64,1):(64,1,0)");
/// ```
pub fn append(layout: &Layout, n: usize, x: Option<&Layout>) -> Result<Layout> {
    let unit = Layout::raw(Int(1), Int(0));
    on_modes(
        layout,
        |t, x| int_tuple::append(t, n, x),
        x.unwrap_or(&unit),
    )
}

/// CuTe `prepend<N>(layout, x = 1:0)`.
///
/// ```
/// use cute_core::{layout::prepend, Layout};
/// let l: Layout = "(12,4):(1,12)".parse().unwrap();
/// let x: Layout = "4:0".parse().unwrap();
/// assert_eq!(prepend(&l, 3, Some(&x)).unwrap().to_string(), "(4,12,4):(0,1,12)");
/// ```
pub fn prepend(layout: &Layout, n: usize, x: Option<&Layout>) -> Result<Layout> {
    let unit = Layout::raw(Int(1), Int(0));
    on_modes(
        layout,
        |t, x| int_tuple::prepend(t, n, x),
        x.unwrap_or(&unit),
    )
}

/// CuTe `replace<N>(layout, x)`: mode `n` replaced by `x`.
///
/// ```
/// use cute_core::{layout::replace, Layout};
/// let l: Layout = "(6,3,32):(96,32,1)".parse().unwrap();
/// let x: Layout = "2:16".parse().unwrap();
/// assert_eq!(replace(&l, 2, &x).unwrap().to_string(), "(6,3,2):(96,32,16)");
/// ```
pub fn replace(layout: &Layout, n: usize, x: &Layout) -> Result<Layout> {
    on_modes(layout, |t, x| int_tuple::replace(t, n, x), x)
}

/// CuTe `take<B,E>(layout)`: the modes `[b, e)`.
///
/// ```
/// use cute_core::{layout::take, Layout};
/// let l: Layout = "(2,3,4):(1,2,6)".parse().unwrap();
/// assert_eq!(take(&l, 1, Some(3)).unwrap().to_string(), "(3,4):(2,6)");
/// ```
pub fn take(layout: &Layout, b: i64, e: Option<i64>) -> Result<Layout> {
    on_modes(layout, |t, _| int_tuple::take(t, b, e), layout)
}

/// CuTe `group<B,E>(layout)`: the modes `[b, e)` gathered into one mode.
///
/// ```
/// use cute_core::{layout::group, Layout};
/// let l: Layout = "(2,3,4):(1,2,6)".parse().unwrap();
/// assert_eq!(group(&l, 0, Some(2)).unwrap().to_string(), "((2,3),4):((1,2),6)");
/// ```
pub fn group(layout: &Layout, b: i64, e: Option<i64>) -> Result<Layout> {
    on_modes(layout, |t, _| int_tuple::group(t, b, e), layout)
}

/// CuTe `select<I...>(layout)`: the modes `is`.
///
/// ```
/// use cute_core::{layout::select, Layout};
/// let l: Layout = "(2,3,4):(1,2,6)".parse().unwrap();
/// assert_eq!(select(&l, &[2, 0]).unwrap().to_string(), "(4,2):(6,1)");
/// ```
pub fn select(layout: &Layout, is: &[i64]) -> Result<Layout> {
    on_modes(layout, |t, _| int_tuple::select(t, is), layout)
}

/// The order of the modes of a compact layout: CuTe's `LayoutLeft`, `LayoutRight` or a `Step`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModeOrder {
    /// `LayoutLeft` / `GenColMajor`: column-major.
    ColMajor,
    /// `LayoutRight` / `GenRowMajor`: row-major.
    RowMajor,
    /// A `Step`: smaller values are the faster (smaller-stride) modes.
    Step(IntTuple),
}

/// CuTe `make_ordered_layout(shape, order)`: the compact layout whose modes are ordered by
/// `order`.
///
/// ```
/// use cute_core::{layout::{make_ordered_layout, ModeOrder}, IntTuple};
/// let s: IntTuple = "(4,8,2)".parse().unwrap();
/// let o = ModeOrder::Step("(1,0,2)".parse().unwrap());
/// assert_eq!(make_ordered_layout(&s, &o).unwrap().to_string(), "(4,8,2):(8,1,32)");
/// ```
pub fn make_ordered_layout(shape: &IntTuple, order: &ModeOrder) -> Result<Layout> {
    match order {
        ModeOrder::ColMajor => Layout::col_major(shape.clone()),
        ModeOrder::RowMajor => Layout::row_major(shape.clone()),
        ModeOrder::Step(o) => Layout::new(shape.clone(), int_tuple::compact_order(shape, o)?),
    }
}

/// CuTe `make_layout_like(layout)`: a compact layout of the same shape whose strides follow
/// the order of `layout`'s strides (stride-0 modes stay stride 0).
///
/// ```
/// use cute_core::{layout::make_layout_like, Layout};
/// let l: Layout = "(2,2,2,2):(0,2,4,1)".parse().unwrap();
/// assert_eq!(make_layout_like(&l).unwrap().to_string(), "(2,2,2,2):(0,2,4,1)");
/// ```
pub fn make_layout_like(layout: &Layout) -> Result<Layout> {
    let filtered = filter_zeros(layout);
    Layout::new(
        layout.shape.clone(),
        int_tuple::compact_order(&filtered.shape, &layout.stride)?,
    )
}

/// CuTe `tile_to_shape(block, trg_shape, order)`: copies of `block` arranged (in `order`)
/// to cover `trg_shape`, whose modes `block` must divide.
///
/// ```
/// use cute_core::{layout::{tile_to_shape, ModeOrder}, IntTuple, Layout};
/// let atom: Layout = "(8,64):(64,1)".parse().unwrap();
/// let trg: IntTuple = "(128,64,3)".parse().unwrap();
/// let l = tile_to_shape(&atom, &trg, &ModeOrder::ColMajor).unwrap();
/// assert_eq!(l.to_string(), "((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8192))");
/// ```
pub fn tile_to_shape(block: &Layout, trg_shape: &IntTuple, order: &ModeOrder) -> Result<Layout> {
    let r = trg_shape.rank();
    if block.rank() > r {
        return Err(crate::err!(
            "tile_to_shape: the rank of {block} ({}) is more than the rank of the target shape {trg_shape} ({r})",
            block.rank()
        ));
    }
    let padded = append(block, r, None)?;
    let block_shape = padded.shape.product_each()?;
    let target_shape = trg_shape.product_each()?;
    let (bs, ts) = (block_shape.leaves(), target_shape.leaves());
    // C++ asserts the division only for a static target shape, and cannot assert it (a
    // compile error) when the block's shape is dynamic there.
    let checked = target_shape.is_static();
    if checked && !block_shape.is_static() {
        return Err(crate::err!(
            "tile_to_shape: the static target shape {target_shape} needs a static block shape, got the dynamic {block_shape} (C++ cannot check the division)"
        ));
    }
    if bs
        .iter()
        .zip(&ts)
        .any(|(b, t)| *b == 0 || (checked && t % b != 0))
    {
        return Err(crate::err!(
            "tile_to_shape: block shape {block_shape} does not divide the target shape {target_shape}"
        ));
    }
    let product_shape = int_tuple::ceil_div(&target_shape, &block_shape)?;
    blocked_product(&padded, &make_ordered_layout(&product_shape, order)?)
}

/// CuTe `max_common_layout(a, b)`: the largest layout `r` (a prefix of `right_inverse(b)`)
/// with `a(b⁻¹(r(i))) = i` contiguous — the common vector of `a` and `b` as a layout of `b`.
///
/// ```
/// use cute_core::{layout::max_common_layout, Layout};
/// let a: Layout = "(8,4):(1,8)".parse().unwrap();
/// let b: Layout = "(8,4):(1,16)".parse().unwrap();
/// assert_eq!(max_common_layout(&a, &b).unwrap().to_string(), "8:1");
/// ```
pub fn max_common_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    let inv_b = right_inverse(b)?;
    let first = coalesce_all(&composition(a, &inv_b)?)?.mode(0)?;
    // Only a static stride-1 first mode with a static shape counts, as in C++.
    if first.stride.is_const(1) && first.shape.is_static() {
        composition(&inv_b, &first)
    } else {
        Ok(Layout::raw(Int(1), Int(0)))
    }
}

/// CuTe `max_common_vector(a, b)`: how many contiguous elements `a` and `b` agree on.
///
/// ```
/// use cute_core::{layout::max_common_vector, Layout};
/// let a: Layout = "(8,4):(1,8)".parse().unwrap();
/// assert_eq!(max_common_vector(&a, &a).unwrap(), 32);
/// ```
pub fn max_common_vector(a: &Layout, b: &Layout) -> Result<i64> {
    let common = coalesce_all(&composition(a, &right_inverse(b)?)?)?;
    let first = common.mode(0)?;
    Ok(if first.stride.is_const(1) && first.shape.is_static() {
        first.size()?
    } else {
        1
    })
}

/// CuTe `unflatten(layout, profile)`: a flat layout folded into the profile's nesting.
///
/// ```
/// use cute_core::{layout::unflatten, IntTuple, Layout};
/// let l: Layout = "(2,3,4):(1,2,6)".parse().unwrap();
/// let p: IntTuple = "(1,(1,1))".parse().unwrap();
/// assert_eq!(unflatten(&l, &p).unwrap().to_string(), "(2,(3,4)):(1,(2,6))");
/// ```
///
/// Law (checked by `tests/laws.rs::unflatten_inverts_flatten`): `unflatten(flatten(L), L.shape) == L`.
pub fn unflatten(layout: &Layout, profile: &IntTuple) -> Result<Layout> {
    Layout::new(
        int_tuple::unflatten(&layout.shape, profile)?,
        int_tuple::unflatten(&layout.stride, profile)?,
    )
}

/// CuTe `make_fragment_like(layout)`: a compact layout of the same shape whose mode 0 is
/// column-major (stride-0 modes kept) and whose other modes follow the layout's stride order.
///
/// ```
/// use cute_core::{layout::make_fragment_like, Layout};
/// let l: Layout = "(4,32):(32,1)".parse().unwrap();
/// assert_eq!(make_fragment_like(&l).unwrap().to_string(), "(4,(32)):(1,(4))");
/// ```
pub fn make_fragment_like(layout: &Layout) -> Result<Layout> {
    let r = layout.rank();
    if r <= 1 || !layout.shape.is_static() {
        return Layout::col_major(layout.shape.clone());
    }
    let m0 = layout.mode(0)?;
    let first = Layout::new(
        m0.shape.clone(),
        compact_col_major(&filter_zeros(&m0).shape, 1)?,
    )?;
    let rest = take(layout, 1, Some(r as i64))?;
    let ordered = make_ordered_layout(&rest.shape, &ModeOrder::Step(rest.stride.clone()))?;
    tiled_product(&first, &Tiler::Layout(ordered))
}

/// CuTe `nullspace(layout)`: the layout of the indices whose stride is 0 (`1:0` if none).
///
/// ```
/// use cute_core::{layout::nullspace, Layout};
/// let l: Layout = "(4,8):(0,1)".parse().unwrap();
/// assert_eq!(nullspace(&l).unwrap().to_string(), "4:1");
/// ```
pub fn nullspace(layout: &Layout) -> Result<Layout> {
    let flat_stride = layout.stride.leaf_nums();
    let flat_shape = layout.shape.flatten();
    // Static `_0` strides only (`is_constant_v<0, ...>`).
    let zeros: Vec<usize> = (0..flat_stride.len())
        .filter(|&i| flat_stride[i].is_const(0))
        .collect();
    if zeros.is_empty() {
        return Ok(Layout::raw(Int(1), Int(0)));
    }
    let rstride = compact_col_major(&flat_shape, 1)?;
    let pick = |t: &IntTuple| -> Result<IntTuple> {
        let v = zeros
            .iter()
            .map(|&i| t.get(i).cloned())
            .collect::<Result<Vec<_>>>()?;
        Ok(Tuple(v).unwrap())
    };
    Layout::new(pick(&flat_shape)?, pick(&rstride)?)
}
