//! Basis strides: CuTe's `ScaledBasis` (`E<0>{}`, `E<1,0>{} * 4`, printed `1@0`, `4@0@1`),
//! the `ArithmeticTuple` coordinates they sum to (printed `(3,5)`), and layouts whose strides
//! are basis vectors (`make_identity_layout`, `make_layout(shape, make_stride(E<1>{},
//! E<0>{}))`): what TMA coordinate tensors and predication are made of.
//!
//! A basis layout maps a coordinate to a coordinate, not to an offset. C++ composes it with
//! ordinary layouts (composition, the divides) and coalesces it, but does not compile what
//! needs its strides ordered (complement, the products, the inverses): those are errors here.
//!
//! ```
//! use cute_core::basis::{BasisLayout, ScaledBasis};
//! let l = BasisLayout::identity(&"(32,64)".parse().unwrap()).unwrap();
//! assert_eq!(l.to_string(), "(32,64):(1@0,1@1)");
//! assert_eq!(l.call(&"(3,5)".parse().unwrap()).unwrap().to_string(), "(3,5)");
//! let c = l.composition(&"8:1".parse().unwrap()).unwrap();
//! assert_eq!(c.to_string(), "8:1@0");
//! assert_eq!(ScaledBasis::unit(vec![1, 0]).to_string(), "1@0@1");
//! ```

use crate::error::{Error, Result};
use crate::int_tuple::{self, Coord, IntTuple, Num};
use crate::layout::{self, Layout, Tiler};
use std::fmt;

/// `E<path...>{} * value`: the basis vector of coordinate `path` (top mode first; `E<1,0>`
/// is sub-mode 0 of mode 1), scaled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScaledBasis {
    /// The scale (static, as `E<0>{}`'s `_1`, or dynamic after `* int`).
    pub value: Num,
    /// Which coordinate, top mode first.
    pub path: Vec<usize>,
}

impl ScaledBasis {
    /// `E<path...>{}`.
    pub fn unit(path: Vec<usize>) -> ScaledBasis {
        ScaledBasis {
            value: Num::fixed(1),
            path,
        }
    }

    /// `self * k`.
    pub fn scaled(&self, k: Num) -> Result<ScaledBasis> {
        Ok(ScaledBasis {
            value: self.value.mul(k)?,
            path: self.path.clone(),
        })
    }
}

impl fmt::Display for ScaledBasis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // C++ nests `ScaledBasis<ScaledBasis<T, j>, i>` and prints the inner one first.
        write!(f, "{}", self.value.v)?;
        for p in self.path.iter().rev() {
            write!(f, "@{p}")?;
        }
        Ok(())
    }
}

/// One stride of a basis layout: a scaled basis vector, or an integer (C++ allows `0`
/// beside basis strides: `make_stride(E<0>{}, _0{})`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BasisStride {
    /// An integer stride.
    Int(Num),
    /// A scaled basis vector.
    Basis(ScaledBasis),
}

impl BasisStride {
    fn scaled(&self, k: Num) -> Result<BasisStride> {
        Ok(match self {
            BasisStride::Int(n) => BasisStride::Int(n.mul(k)?),
            BasisStride::Basis(b) => BasisStride::Basis(b.scaled(k)?),
        })
    }

    /// The number it scales and whether C++ knows it at compile time.
    fn value(&self) -> Num {
        match self {
            BasisStride::Int(n) => *n,
            BasisStride::Basis(b) => b.value,
        }
    }

    /// `self == s * other` as C++ decides it when coalescing: the same basis and
    /// statically equal scales.
    fn merges_with(&self, s: Num, prev: &BasisStride) -> Result<bool> {
        let p = prev.scaled(s)?;
        let same = match (self, &p) {
            (BasisStride::Int(_), BasisStride::Int(_)) => true,
            (BasisStride::Basis(a), BasisStride::Basis(b)) => a.path == b.path,
            _ => false,
        };
        Ok(same && p.value().static_eq(self.value()))
    }
}

impl fmt::Display for BasisStride {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BasisStride::Int(n) => write!(f, "{}", n.v),
            BasisStride::Basis(b) => write!(f, "{b}"),
        }
    }
}

/// CuTe's `ArithmeticTuple`: a coordinate, the sum of scaled basis vectors (`E<0>{} * 3 +
/// E<1>{} * 5` is `(3,5)`), as many modes as its highest basis reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArithTuple(pub IntTuple);

impl fmt::Display for ArithTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            t @ IntTuple::Tuple(_) => write!(f, "{t}"),
            t => write!(f, "({t})"),
        }
    }
}

/// What a sum of basis terms is: one term stays a [`ScaledBasis`] (or an integer), two or
/// more are an [`ArithTuple`], as C++'s `operator+` makes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BasisValue {
    /// An integer (every term an integer).
    Int(Num),
    /// One scaled basis vector.
    Basis(ScaledBasis),
    /// A coordinate.
    Tuple(ArithTuple),
}

impl fmt::Display for BasisValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BasisValue::Int(n) => write!(f, "{}", n.v),
            BasisValue::Basis(b) => write!(f, "{b}"),
            BasisValue::Tuple(t) => write!(f, "{t}"),
        }
    }
}

/// Add `v` at `path` of the coordinate `t`, growing it with zeros to reach there.
fn add_at(t: &mut IntTuple, path: &[usize], v: i64) -> Result<()> {
    let Some((&i, rest)) = path.split_first() else {
        return match t {
            IntTuple::Int(x) | IntTuple::Dyn(x) => {
                *x = crate::error::arith::add(*x, v)?;
                Ok(())
            }
            IntTuple::Tuple(_) => Err(Error::new(
                "a basis vector and a basis of one of its sub-modes do not add (C++ does not compile it)",
            )),
        };
    };
    if let IntTuple::Int(0) = t {
        *t = IntTuple::Tuple(Vec::new());
    }
    let IntTuple::Tuple(ms) = t else {
        return Err(Error::new(
            "a basis vector and a basis of one of its sub-modes do not add (C++ does not compile it)",
        ));
    };
    if i >= 64 {
        return Err(crate::err!("basis mode {i} is out of range"));
    }
    while ms.len() <= i {
        ms.push(IntTuple::Int(0));
    }
    add_at(&mut ms[i], rest, v)
}

/// The sum of `terms` as C++ adds them: integers to integers, basis vectors into a
/// coordinate; one basis term alone stays a scaled basis.
///
/// ```
/// use cute_core::basis::{sum, BasisStride, ScaledBasis};
/// let e = |i| BasisStride::Basis(ScaledBasis::unit(vec![i]));
/// assert_eq!(sum(&[e(0), e(1)]).unwrap().to_string(), "(1,1)");
/// assert_eq!(sum(&[e(1)]).unwrap().to_string(), "1@1");
/// ```
pub fn sum(terms: &[BasisStride]) -> Result<BasisValue> {
    let bases: Vec<&ScaledBasis> = terms
        .iter()
        .filter_map(|t| match t {
            BasisStride::Basis(b) => Some(b),
            BasisStride::Int(_) => None,
        })
        .collect();
    let ints: Vec<Num> = terms
        .iter()
        .filter_map(|t| match t {
            BasisStride::Int(n) => Some(*n),
            BasisStride::Basis(_) => None,
        })
        .collect();
    // Only the static `_0` adds to a basis vector: C++ has no `int + ScaledBasis`, even
    // of a run-time 0 (`crd2idx(make_coord(0, 1), shape, make_stride(_1{}, E<0>{}))`).
    if ints.iter().any(|n| !n.is_const(0)) && !bases.is_empty() {
        return Err(Error::new(
            "an integer and a basis vector do not add (C++'s ArithmeticTuple has no integer offset; only the static _0 adds to one)",
        ));
    }
    match bases[..] {
        [] => {
            let mut total = Num::fixed(0);
            for n in ints {
                total = Num {
                    v: crate::error::arith::add(total.v, n.v)?,
                    fixed: total.fixed && n.fixed,
                };
            }
            Ok(BasisValue::Int(total))
        }
        [b] => Ok(BasisValue::Basis(b.clone())),
        _ => Ok(BasisValue::Tuple(coordinate(bases)?)),
    }
}

/// The coordinate basis vectors add up to, as C++'s `operator+` of them makes it (a
/// coordinate even of one term: `E<0>{}*2 + E<0>{}*3` is `(5)`).
///
/// ```
/// use cute_core::basis::{coordinate, ScaledBasis};
/// assert_eq!(coordinate([&ScaledBasis::unit(vec![1])]).unwrap().to_string(), "(0,1)");
/// ```
pub fn coordinate<'a>(terms: impl IntoIterator<Item = &'a ScaledBasis>) -> Result<ArithTuple> {
    let mut t = IntTuple::Tuple(Vec::new());
    for b in terms {
        add_at(&mut t, &b.path, b.value.v)?;
    }
    Ok(ArithTuple(t))
}

/// Which divide: `logical_divide`, `zipped_divide`, `tiled_divide` or `flat_divide`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Divide {
    /// `((TILE0,REST0),(TILE1,REST1),...)`.
    Logical,
    /// `((TILE),(REST))`.
    Zipped,
    /// `((TILE),REST0,REST1,...)`.
    Tiled,
    /// `(TILE0,TILE1,...,REST0,REST1,...)`.
    Flat,
}

/// A layout whose strides are basis vectors: coordinates to coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BasisLayout {
    /// The shape.
    pub shape: IntTuple,
    /// The strides, congruent to the shape.
    pub stride: StrideTree,
}

/// The strides of a basis layout, a tree congruent to its shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrideTree {
    /// One stride.
    Leaf(BasisStride),
    /// A mode of modes.
    Tuple(Vec<StrideTree>),
}

impl fmt::Display for StrideTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrideTree::Leaf(s) => write!(f, "{s}"),
            StrideTree::Tuple(ms) => int_tuple::write_tuple(f, ms),
        }
    }
}

impl StrideTree {
    /// The strides in order.
    pub fn leaves(&self) -> Vec<BasisStride> {
        fn go(t: &StrideTree, out: &mut Vec<BasisStride>) {
            match t {
                StrideTree::Leaf(s) => out.push(s.clone()),
                StrideTree::Tuple(ms) => ms.iter().for_each(|m| go(m, out)),
            }
        }
        let mut out = Vec::new();
        go(self, &mut out);
        out
    }

    /// The tree with its leaves numbered in order (the integer tree the layout algebra
    /// rearranges), and the leaves.
    fn indexed(&self) -> (IntTuple, Vec<BasisStride>) {
        fn go(t: &StrideTree, out: &mut Vec<BasisStride>) -> IntTuple {
            match t {
                StrideTree::Leaf(s) => {
                    out.push(s.clone());
                    IntTuple::Int((out.len() - 1) as i64)
                }
                StrideTree::Tuple(ms) => IntTuple::Tuple(ms.iter().map(|m| go(m, out)).collect()),
            }
        }
        let mut leaves = Vec::new();
        let t = go(self, &mut leaves);
        (t, leaves)
    }

    /// The tree of [`StrideTree::indexed`]'s numbers read back.
    fn from_indexed(t: &IntTuple, leaves: &[BasisStride]) -> Result<StrideTree> {
        Ok(match t {
            IntTuple::Tuple(ms) => StrideTree::Tuple(
                ms.iter()
                    .map(|m| StrideTree::from_indexed(m, leaves))
                    .collect::<Result<_>>()?,
            ),
            IntTuple::Int(i) | IntTuple::Dyn(i) => StrideTree::Leaf(
                usize::try_from(*i)
                    .ok()
                    .and_then(|i| leaves.get(i))
                    .cloned()
                    .ok_or_else(|| Error::new("basis layout: a stride lost its place"))?,
            ),
        })
    }

    /// The strides of a tuple of basis strides congruent to `shape`.
    fn like(shape: &IntTuple, mut leaf: impl FnMut(usize) -> BasisStride) -> StrideTree {
        fn go(
            s: &IntTuple,
            k: &mut usize,
            leaf: &mut impl FnMut(usize) -> BasisStride,
        ) -> StrideTree {
            match s {
                IntTuple::Tuple(ms) => {
                    StrideTree::Tuple(ms.iter().map(|m| go(m, k, leaf)).collect())
                }
                _ => {
                    *k += 1;
                    StrideTree::Leaf(leaf(*k - 1))
                }
            }
        }
        go(shape, &mut 0, &mut leaf)
    }
}

impl fmt::Display for BasisLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)
    }
}

/// CuTe `make_basis_like(shape)`: the unit basis vector of every leaf's coordinate
/// (`(2,(3,4))` → `(1@0,(1@0@1,1@1@1))`).
pub fn make_basis_like(shape: &IntTuple) -> StrideTree {
    let paths = leaf_paths(shape);
    StrideTree::like(shape, |k| {
        BasisStride::Basis(ScaledBasis::unit(paths[k].clone()))
    })
}

fn leaf_paths(shape: &IntTuple) -> Vec<Vec<usize>> {
    fn go(s: &IntTuple, path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        match s {
            IntTuple::Tuple(ms) => {
                for (i, m) in ms.iter().enumerate() {
                    path.push(i);
                    go(m, path, out);
                    path.pop();
                }
            }
            _ => out.push(path.clone()),
        }
    }
    let mut out = Vec::new();
    go(shape, &mut Vec::new(), &mut out);
    out
}

impl BasisLayout {
    /// `make_layout(shape, stride)`: the strides congruent to the shape.
    pub fn new(shape: IntTuple, stride: StrideTree) -> Result<BasisLayout> {
        fn congruent(s: &IntTuple, d: &StrideTree) -> bool {
            match (s, d) {
                (IntTuple::Tuple(ss), StrideTree::Tuple(ds)) => {
                    ss.len() == ds.len() && ss.iter().zip(ds).all(|(s, d)| congruent(s, d))
                }
                (IntTuple::Tuple(_), _) | (_, StrideTree::Tuple(_)) => false,
                _ => true,
            }
        }
        if !congruent(&shape, &stride) {
            return Err(crate::err!(
                "make_layout: shape {shape} and stride {stride} are not congruent"
            ));
        }
        Ok(BasisLayout { shape, stride })
    }

    /// CuTe `make_identity_layout(shape)`: every coordinate to itself.
    pub fn identity(shape: &IntTuple) -> Result<BasisLayout> {
        BasisLayout::new(shape.clone(), make_basis_like(shape))
    }

    /// The layout's structure with its strides numbered (see [`StrideTree::indexed`]).
    fn indexed(&self) -> (Layout, Vec<BasisStride>) {
        let (t, leaves) = self.stride.indexed();
        (Layout::raw(self.shape.clone(), t), leaves)
    }

    fn from_indexed(l: &Layout, leaves: &[BasisStride]) -> Result<BasisLayout> {
        Ok(BasisLayout {
            shape: l.shape().clone(),
            stride: StrideTree::from_indexed(l.stride(), leaves)?,
        })
    }

    /// A rearrangement of the modes (a slice, a mode, the divides' regrouping), done by the
    /// layout algebra on the numbered strides.
    fn rearranged(&self, f: impl FnOnce(&Layout) -> Result<Layout>) -> Result<BasisLayout> {
        let (l, leaves) = self.indexed();
        BasisLayout::from_indexed(&f(&l)?, &leaves)
    }

    /// `rank`.
    pub fn rank(&self) -> usize {
        self.shape.rank()
    }

    /// `size`.
    pub fn size(&self) -> Result<i64> {
        self.shape.size()
    }

    /// `layout<i>(L)` / `get<i>(L)`.
    pub fn mode(&self, i: usize) -> Result<BasisLayout> {
        self.rearranged(|l| l.mode(i))
    }

    /// `L(c)` of a coordinate with `_`: the layout of the kept modes (C++ drops the offset
    /// of a layout's slice).
    pub fn slice(&self, c: &Coord) -> Result<BasisLayout> {
        self.rearranged(|l| l.slice(c))
    }

    /// `L(c)`: the coordinate it maps `c` to (a 1-D index or a coordinate of the shape,
    /// column-major within a mode, as C++'s `crd2idx`).
    pub fn call(&self, c: &IntTuple) -> Result<BasisValue> {
        let coords = int_tuple::idx2crd(c, &self.shape)?.leaves();
        let terms = coords
            .iter()
            .zip(&self.stride.leaves())
            .map(|(&x, s)| s.scaled(Num::dynamic(x)))
            .collect::<Result<Vec<_>>>()?;
        sum(&terms)
    }

    /// CuTe `cosize(L)`: the size of its coshape, the coordinate of its last element
    /// plus one in every leaf (`(32,64):(1@0,1@1)` → 2048, `(4,8):(2@0,1@1)` → 56).
    ///
    /// ```
    /// use cute_core::basis::BasisLayout;
    /// let l = BasisLayout::identity(&"(32,64)".parse().unwrap()).unwrap();
    /// assert_eq!(l.cosize().unwrap(), 2048);
    /// ```
    pub fn cosize(&self) -> Result<i64> {
        if self.shape.leaves().iter().any(|&s| s <= 0) {
            return Ok(0);
        }
        let last = self
            .shape
            .unflatten_like(&mut self.shape.leaves().into_iter().map(|s| s - 1));
        let co = match self.call(&last).map_err(|e| e.within("cosize"))? {
            BasisValue::Int(n) => IntTuple::Int(n.v),
            BasisValue::Basis(b) if b.path.is_empty() => IntTuple::Int(b.value.v),
            BasisValue::Basis(b) => coordinate([&b])?.0,
            BasisValue::Tuple(t) => t.0,
        };
        co.leaves().iter().try_fold(1i64, |acc, &x| {
            crate::error::arith::mul(acc, crate::error::arith::add(x, 1)?)
        })
    }

    /// CuTe `append<n>(L, y)` (`back`) or `prepend<n>(L, y)`: `L` extended to rank `n`
    /// with copies of `y` (`1:0` when absent) as modes.
    ///
    /// ```
    /// use cute_core::basis::BasisLayout;
    /// let l = BasisLayout::identity(&"(4,8)".parse().unwrap()).unwrap();
    /// let y = BasisLayout::identity(&"(2)".parse().unwrap()).unwrap();
    /// assert_eq!(l.extend(3, Some(&y), true).unwrap().to_string(), "(4,8,(2)):(1@0,1@1,(1@0))");
    /// ```
    pub fn extend(&self, n: usize, y: Option<&BasisLayout>, back: bool) -> Result<BasisLayout> {
        let unit = BasisLayout {
            shape: IntTuple::Int(1),
            stride: StrideTree::Leaf(BasisStride::Int(Num::fixed(0))),
        };
        let (l, mut leaves) = self.indexed();
        let (yl, yleaves) = y.unwrap_or(&unit).indexed();
        // y's strides numbered after L's.
        let k = i64::try_from(leaves.len()).map_err(|_| Error::new("append: too many modes"))?;
        let ystride = yl
            .stride()
            .unflatten_like(&mut yl.stride().leaves().into_iter().map(|i| i + k));
        leaves.extend(yleaves);
        let y = Layout::raw(yl.shape().clone(), ystride);
        let out = if back {
            layout::append(&l, n, Some(&y))?
        } else {
            layout::prepend(&l, n, Some(&y))?
        };
        BasisLayout::from_indexed(&out, &leaves)
    }

    /// An ordinary layout as one of basis strides (its strides integers), to be appended
    /// to or from one.
    pub fn of_layout(l: &Layout) -> BasisLayout {
        let strides = l.stride().leaf_nums();
        BasisLayout {
            shape: l.shape().clone(),
            stride: StrideTree::like(l.shape(), |i| BasisStride::Int(strides[i])),
        }
    }

    /// CuTe `coalesce(L)`: modes merged where C++ can tell at compile time that one
    /// continues the other (the same basis, statically equal scales).
    pub fn coalesce(&self) -> Result<BasisLayout> {
        self.coalesced(false)
    }

    /// CuTe `filter(L)`: `coalesce(filter_zeros(L))`, a static 0 stride's mode of size 1.
    pub fn filter(&self) -> Result<BasisLayout> {
        fn go(s: &IntTuple, d: &StrideTree) -> IntTuple {
            match (s, d) {
                (IntTuple::Tuple(ss), StrideTree::Tuple(ds)) => {
                    IntTuple::Tuple(ss.iter().zip(ds).map(|(s, d)| go(s, d)).collect())
                }
                (_, StrideTree::Leaf(BasisStride::Int(n))) if n.is_const(0) => IntTuple::Int(1),
                (s, _) => s.clone(),
            }
        }
        BasisLayout {
            shape: go(&self.shape, &self.stride),
            stride: self.stride.clone(),
        }
        .coalesce()
    }

    /// `detail::coalesce_x` (composition's: a last size-1 mode keeps its stride) or
    /// `coalesce`: CuTe's `bw_coalesce` over the leaves.
    fn coalesced(&self, keep_last: bool) -> Result<BasisLayout> {
        let fs = self.shape.leaf_nums();
        let fd = self.stride.leaves();
        let r = fs.len();
        if r == 0 {
            return Err(crate::err!("cannot coalesce the empty layout {self}"));
        }
        let last = if keep_last && fs[r - 1].is_const(1) {
            Num::fixed(2)
        } else {
            fs[r - 1]
        };
        let mut shape = vec![last];
        let mut stride = vec![fd[r - 1].clone()];
        for i in (0..r - 1).rev() {
            let (s, d) = (fs[i], &fd[i]);
            if s.is_const(1) {
                continue;
            }
            if shape.len() == 1 && shape[0].is_const(1) {
                (shape[0], stride[0]) = (s, d.clone());
            } else if shape[0].is_static() && stride[0].merges_with(s, d)? {
                shape[0] = s.mul(shape[0])?;
                stride[0] = d.clone();
            } else {
                shape.insert(0, s);
                stride.insert(0, d.clone());
            }
        }
        Ok(match shape.len() {
            1 if shape[0].is_const(1) => BasisLayout {
                shape: IntTuple::Int(1),
                stride: StrideTree::Leaf(BasisStride::Int(Num::fixed(0))),
            },
            1 => BasisLayout {
                shape: shape[0].leaf(),
                stride: StrideTree::Leaf(stride.remove(0)),
            },
            _ => BasisLayout {
                shape: IntTuple::nums(&shape),
                stride: StrideTree::Tuple(stride.into_iter().map(StrideTree::Leaf).collect()),
            },
        })
    }

    /// CuTe `composition(L, B)` of an ordinary layout `B`: `R(c) = L(B(c))`.
    ///
    /// C++'s algorithm only ever multiplies L's strides by integers, and where it puts each
    /// of them does not depend on their values: it is run once per stride of the coalesced
    /// L with that stride 1 and the others 0, and each result stride is the one run's
    /// integer times that basis stride.
    pub fn composition(&self, rhs: &Layout) -> Result<BasisLayout> {
        let flat = self.coalesced(true)?;
        let leaves = flat.stride.leaves();
        let n = leaves.len();
        let marker = |j: usize| -> Result<Layout> {
            let ones = |k: usize| IntTuple::Int(i64::from(k == j));
            let stride = match &flat.shape {
                IntTuple::Tuple(ms) => IntTuple::Tuple((0..ms.len()).map(ones).collect()),
                _ => ones(0),
            };
            Ok(Layout::raw(flat.shape.clone(), stride))
        };
        let runs = (0..n)
            .map(|j| layout::composition_flat(&marker(j)?, rhs))
            .collect::<Result<Vec<_>>>()?;
        let shape = runs[0].shape().clone();
        if runs.iter().any(|r| *r.shape() != shape) {
            return Err(Error::new("composition: the basis layout's modes disagree"));
        }
        let per_run: Vec<Vec<Num>> = runs.iter().map(|r| r.stride().leaf_nums()).collect();
        let out = (0..shape.leaf_count())
            .map(|i| {
                // The one run that put a non-zero integer at leaf i, times its stride;
                // C++'s stride-0 shortcut (a stride-0 B mode) where none did.
                match per_run
                    .iter()
                    .enumerate()
                    .find_map(|(j, run)| run.get(i).filter(|k| k.v != 0).map(|k| (j, *k)))
                {
                    Some((j, k)) => leaves[j].scaled(k),
                    None => Ok(BasisStride::Int(
                        per_run[0].get(i).copied().unwrap_or(Num::fixed(0)),
                    )),
                }
            })
            .collect::<Result<Vec<_>>>()?;
        let stride = StrideTree::like(&shape, |i| out[i].clone());
        Ok(BasisLayout { shape, stride })
    }

    /// CuTe `composition(L, tiler)`: by mode for a tuple (the modes it does not reach
    /// dropped), `n` as `n:1`, `_` keeps the mode.
    pub fn composition_tiler(&self, tiler: &Tiler) -> Result<BasisLayout> {
        match tiler {
            Tiler::Layout(r) => self.composition(r),
            Tiler::Under => Ok(self.clone()),
            Tiler::Int(n) => self.composition(&Layout::col_major(IntTuple::Int(*n))?),
            Tiler::Tuple(ts) => {
                self.by_mode(ts, false, "composition", BasisLayout::composition_tiler)
            }
        }
    }

    fn by_mode(
        &self,
        tilers: &[Tiler],
        keep_rest: bool,
        what: &str,
        f: fn(&BasisLayout, &Tiler) -> Result<BasisLayout>,
    ) -> Result<BasisLayout> {
        if tilers.len() > self.rank() {
            return Err(crate::err!(
                "{what}: too many modes in tiler ({} modes for a layout of rank {})",
                tilers.len(),
                self.rank()
            ));
        }
        let mut shape = Vec::new();
        let mut stride = Vec::new();
        for i in 0..self.rank() {
            let m = self.mode(i)?;
            let m = match tilers.get(i) {
                Some(t) => f(&m, t)?,
                None if keep_rest => m,
                None => break,
            };
            shape.push(m.shape);
            stride.push(m.stride);
        }
        Ok(BasisLayout {
            shape: IntTuple::Tuple(shape),
            stride: StrideTree::Tuple(stride),
        })
    }

    /// CuTe `logical_divide(L, tiler)`: `composition(L, (tiler, complement(tiler,
    /// shape(coalesce(L)))))` by mode; the complement is the integer tiler's.
    pub fn logical_divide(&self, tiler: &Tiler) -> Result<BasisLayout> {
        match tiler {
            Tiler::Layout(t) => {
                let target = self.coalesce()?.shape;
                let c = layout::complement(t, Some(&target))?;
                self.composition(&layout::make_layout(&[t.clone(), c]))
            }
            Tiler::Under => Ok(self.clone()),
            Tiler::Int(n) => {
                self.logical_divide(&Tiler::Layout(Layout::col_major(IntTuple::Int(*n))?))
            }
            Tiler::Tuple(ts) => {
                self.by_mode(ts, true, "logical_divide", BasisLayout::logical_divide)
            }
        }
    }

    /// CuTe `logical_divide`, `zipped_divide`, `tiled_divide`, `flat_divide`:
    /// [`BasisLayout::logical_divide`] with its modes regrouped as the layout algebra
    /// regroups them.
    pub fn divide(&self, kind: Divide, tiler: &Tiler) -> Result<BasisLayout> {
        let logical = self.logical_divide(tiler)?;
        match kind {
            Divide::Logical => Ok(logical),
            Divide::Zipped => logical.rearranged(|l| layout::regroup_zipped(l, tiler)),
            Divide::Tiled => logical.rearranged(|l| layout::regroup_tiled(l, tiler)),
            Divide::Flat => logical.rearranged(|l| layout::regroup_flat(l, tiler)),
        }
    }
}
