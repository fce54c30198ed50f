//! IntTuple: an integer or a tuple of IntTuples (CuTe `int_tuple.hpp`, `stride.hpp`).
//!
//! A leaf is a static integer (C++ `_8`, `Int<8>{}`: its value is part of the type) or a
//! dynamic one (C++ `int`: known only at run time). The value is known either way; the
//! distinction decides CuTe's `if constexpr` branches (`is_constant<1, T>` is true for `_1`
//! only, coalesce merges only modes whose merge condition is static, ...), and
//! arithmetic carries it as CuTe's `integral_constant` operators do ([`Num`]).

use crate::error::{arith, Error, Result};
use std::fmt;

/// An integer or a (possibly empty, possibly nested) tuple of IntTuples.
///
/// ```
/// use cute_core::IntTuple;
/// let t: IntTuple = "(2,(3,4))".parse().unwrap();
/// assert_eq!(t.size().unwrap(), 24);
/// assert_eq!(t.rank(), 2);
/// assert_eq!(t.depth(), 2);
/// assert_eq!(t.to_string(), "(2,(3,4))");
/// ```
#[derive(Clone, Debug)]
pub enum IntTuple {
    /// A static leaf integer (`_8`, `Int<8>{}`, and every integer of the spec's literals).
    Int(i64),
    /// A dynamic leaf integer (C++ `int`: `make_shape(8, 32)`); prints as `Int`.
    Dyn(i64),
    /// A tuple; `(8)` is a 1-tuple and differs from `8`.
    Tuple(Vec<IntTuple>),
}

use IntTuple::{Dyn, Int, Tuple};

/// Equality is C++'s `==` on values: `_8 == 8`. The kinds are compared with
/// [`IntTuple::is_static`] or [`Num::is_const`] where C++ branches on them.
impl PartialEq for IntTuple {
    fn eq(&self, other: &IntTuple) -> bool {
        match (self, other) {
            (Tuple(a), Tuple(b)) => a == b,
            (Tuple(_), _) | (_, Tuple(_)) => false,
            (a, b) => a.as_int() == b.as_int(),
        }
    }
}

impl Eq for IntTuple {}

impl std::hash::Hash for IntTuple {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        match self {
            Tuple(ts) => {
                h.write_u8(1);
                ts.hash(h);
            }
            leaf => {
                h.write_u8(0);
                leaf.as_int().hash(h);
            }
        }
    }
}

/// A leaf integer with C++'s static/dynamic distinction, and CuTe's arithmetic on it: an
/// operation on two static integers is static, one with a dynamic operand is dynamic,
/// except `_0 * x`, `x * _0`, `_0 / x`, `_0 % x`, `x % _1` (static `_0` for any `x`).
///
/// ```
/// use cute_core::int_tuple::Num;
/// let (s, d) = (Num::fixed(4), Num::dynamic(8));
/// assert!(s.mul(s).unwrap().is_static());
/// assert!(!s.mul(d).unwrap().is_static());
/// assert!(Num::fixed(0).mul(d).unwrap().is_const(0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Num {
    /// The value.
    pub v: i64,
    /// Static (`_8`) rather than dynamic (`int`).
    pub fixed: bool,
}

// `mul`/`div`/`rem` are checked (they return `Result`), so they are not the operator
// traits.
#[allow(clippy::should_implement_trait)]
impl Num {
    /// A static integer.
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// assert!(Num::fixed(8).is_static());
    /// ```
    pub fn fixed(v: i64) -> Num {
        Num { v, fixed: true }
    }
    /// A dynamic integer.
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// assert!(!Num::dynamic(8).is_static());
    /// ```
    pub fn dynamic(v: i64) -> Num {
        Num { v, fixed: false }
    }
    /// `is_static<T>`.
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// assert!(Num::fixed(8).is_static() && !Num::dynamic(8).is_static());
    /// ```
    pub fn is_static(self) -> bool {
        self.fixed
    }
    /// `is_constant<n, T>`: static and equal to `n`.
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// assert!(Num::fixed(1).is_const(1));
    /// assert!(!Num::dynamic(1).is_const(1)); // `int(1)` is not `_1`
    /// ```
    pub fn is_const(self, n: i64) -> bool {
        self.fixed && self.v == n
    }
    /// The leaf of this integer.
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// use cute_core::IntTuple;
    /// assert_eq!(Num::fixed(8).leaf(), IntTuple::Int(8));
    /// assert!(!Num::dynamic(8).leaf().is_static());
    /// ```
    pub fn leaf(self) -> IntTuple {
        if self.fixed {
            Int(self.v)
        } else {
            Dyn(self.v)
        }
    }
    fn with(self, o: Num, v: i64) -> Num {
        Num {
            v,
            fixed: self.fixed && o.fixed,
        }
    }
    /// `a * b`.
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// assert_eq!(Num::fixed(4).mul(Num::fixed(8)).unwrap(), Num::fixed(32));
    /// assert_eq!(Num::fixed(4).mul(Num::dynamic(8)).unwrap(), Num::dynamic(32));
    /// ```
    pub fn mul(self, o: Num) -> Result<Num> {
        if self.is_const(0) || o.is_const(0) {
            return Ok(Num::fixed(0));
        }
        Ok(self.with(o, arith::mul(self.v, o.v)?))
    }
    /// `a / b` (C++ truncation).
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// assert_eq!(Num::fixed(-7).div(Num::fixed(2)).unwrap(), Num::fixed(-3));
    /// assert_eq!(Num::fixed(0).div(Num::dynamic(5)).unwrap(), Num::fixed(0));
    /// ```
    pub fn div(self, o: Num) -> Result<Num> {
        if self.is_const(0) && o.v != 0 {
            return Ok(Num::fixed(0));
        }
        Ok(self.with(o, arith::div(self.v, o.v)?))
    }
    /// `a % b`.
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// assert_eq!(Num::fixed(7).rem(Num::fixed(4)).unwrap(), Num::fixed(3));
    /// assert_eq!(Num::dynamic(7).rem(Num::fixed(1)).unwrap(), Num::fixed(0)); // x % _1 is _0
    /// ```
    pub fn rem(self, o: Num) -> Result<Num> {
        if (self.is_const(0) && o.v != 0) || o.is_const(1) || o.is_const(-1) {
            return Ok(Num::fixed(0));
        }
        Ok(self.with(o, arith::rem(self.v, o.v)?))
    }
    /// `cute::ceil_div(a, b)`.
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// assert_eq!(Num::fixed(7).ceil_div(Num::fixed(4)).unwrap(), Num::fixed(2));
    /// ```
    pub fn ceil_div(self, o: Num) -> Result<Num> {
        Ok(self.with(o, arith::ceil_div(self.v, o.v)?))
    }
    /// `cute::min(a, b)`.
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// assert_eq!(Num::fixed(4).min(Num::dynamic(8)), Num::dynamic(4));
    /// ```
    pub fn min(self, o: Num) -> Num {
        self.with(o, self.v.min(o.v))
    }
    /// `cute::abs`.
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// assert_eq!(Num::fixed(-4).abs().unwrap(), Num::fixed(4));
    /// ```
    pub fn abs(self) -> Result<Num> {
        Ok(Num {
            v: arith::abs(self.v)?,
            fixed: self.fixed,
        })
    }
    /// `cute::signum`.
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// assert_eq!(Num::fixed(-4).signum(), Num::fixed(-1));
    /// assert_eq!(Num::dynamic(0).signum(), Num::dynamic(0));
    /// ```
    pub fn signum(self) -> Num {
        Num {
            v: arith::signum(self.v),
            fixed: self.fixed,
        }
    }
    /// `a == b` known at compile time to be true (`is_constant<true, decltype(a == b)>`).
    ///
    /// ```
    /// use cute_core::int_tuple::Num;
    /// assert!(Num::fixed(4).static_eq(Num::fixed(4)));
    /// assert!(!Num::fixed(4).static_eq(Num::dynamic(4))); // equal, but only at run time
    /// ```
    pub fn static_eq(self, o: Num) -> bool {
        self.fixed && o.fixed && self.v == o.v
    }
}

impl From<i64> for IntTuple {
    fn from(v: i64) -> Self {
        Int(v)
    }
}

impl From<Vec<IntTuple>> for IntTuple {
    fn from(v: Vec<IntTuple>) -> Self {
        Tuple(v)
    }
}

/// CuTe's tuple print format: `(a,b,c)`, no spaces.
///
/// ```
/// use std::fmt;
/// struct P(Vec<i64>);
/// impl fmt::Display for P {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         cute_core::int_tuple::write_tuple(f, &self.0)
///     }
/// }
/// assert_eq!(P(vec![4, 8, 2]).to_string(), "(4,8,2)");
/// ```
pub fn write_tuple<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    f.write_str("(")?;
    for (i, t) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        // Directly, not through `write!`: printing is most of `render --print`'s work.
        t.fmt(f)?;
    }
    f.write_str(")")
}

/// An integer in decimal, without the formatting machinery (see [`write_tuple`]).
///
/// ```
/// use std::fmt;
/// struct I(i64);
/// impl fmt::Display for I {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         cute_core::int_tuple::write_int(f, self.0)
///     }
/// }
/// assert_eq!(I(-2048).to_string(), "-2048");
/// assert_eq!(I(i64::MIN).to_string(), i64::MIN.to_string());
/// ```
pub fn write_int(f: &mut fmt::Formatter<'_>, v: i64) -> fmt::Result {
    if (0..10).contains(&v) {
        let d = v as usize;
        return f.write_str(&"0123456789"[d..d + 1]);
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut n = v.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        i -= 1;
        buf[i] = b'-';
    }
    f.write_str(std::str::from_utf8(&buf[i..]).unwrap_or_default())
}

impl fmt::Display for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int(v) | Dyn(v) => write_int(f, *v),
            Tuple(ts) => write_tuple(f, ts),
        }
    }
}

impl std::str::FromStr for IntTuple {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        crate::literal::int_tuple(s)
    }
}

impl IntTuple {
    /// Build a tuple from integers: `IntTuple::ints(&[8, 32])` is `(8,32)`.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!(IntTuple::ints(&[8, 32]).to_string(), "(8,32)");
    /// ```
    pub fn ints(v: &[i64]) -> Self {
        Tuple(v.iter().map(|&x| Int(x)).collect())
    }

    /// `true` for a leaf integer.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert!(IntTuple::Int(8).is_int());
    /// assert!(!"(8)".parse::<IntTuple>().unwrap().is_int()); // a 1-tuple is not an integer
    /// ```
    pub fn is_int(&self) -> bool {
        matches!(self, Int(_) | Dyn(_))
    }

    /// The integer of a leaf (static or dynamic), `None` for tuples.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!(IntTuple::Dyn(8).as_int(), Some(8));
    /// assert_eq!(IntTuple::ints(&[8]).as_int(), None);
    /// ```
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Int(v) | Dyn(v) => Some(*v),
            Tuple(_) => None,
        }
    }

    /// The integer of a leaf with its static/dynamic kind, `None` for tuples.
    ///
    /// ```
    /// use cute_core::{int_tuple::Num, IntTuple};
    /// assert_eq!(IntTuple::Dyn(8).num(), Some(Num::dynamic(8)));
    /// assert_eq!(IntTuple::ints(&[8]).num(), None);
    /// ```
    pub fn num(&self) -> Option<Num> {
        match self {
            Int(v) => Some(Num::fixed(*v)),
            Dyn(v) => Some(Num::dynamic(*v)),
            Tuple(_) => None,
        }
    }

    /// `is_constant<N, T>`: a static leaf equal to `n`.
    pub(crate) fn is_const(&self, n: i64) -> bool {
        matches!(self, Int(v) if *v == n)
    }

    /// CuTe `is_static`: every leaf static.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert!("(2,(3,4))".parse::<IntTuple>().unwrap().is_static());
    /// assert!(!IntTuple::Tuple(vec![IntTuple::Int(2), IntTuple::Dyn(3)]).is_static());
    /// ```
    pub fn is_static(&self) -> bool {
        match self {
            Int(_) => true,
            Dyn(_) => false,
            Tuple(ts) => ts.iter().all(|t| t.is_static()),
        }
    }

    /// CuTe `rank`: number of top-level modes (1 for an integer).
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!("((3,5,2),(4),2)".parse::<IntTuple>().unwrap().rank(), 3);
    /// assert_eq!("((6,8))".parse::<IntTuple>().unwrap().rank(), 1);
    /// assert_eq!(IntTuple::Int(4).rank(), 1);
    /// ```
    pub fn rank(&self) -> usize {
        match self {
            Int(_) | Dyn(_) => 1,
            Tuple(ts) => ts.len(),
        }
    }

    /// CuTe `depth`: 0 for an integer, 1 + max depth of the elements for a tuple.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!("((2,1,(1,2,7)))".parse::<IntTuple>().unwrap().depth(), 3);
    /// assert_eq!("(3,6,(4))".parse::<IntTuple>().unwrap().depth(), 2);
    /// assert_eq!(IntTuple::Int(3).depth(), 0);
    /// ```
    pub fn depth(&self) -> usize {
        match self {
            Int(_) | Dyn(_) => 0,
            Tuple(ts) => 1 + ts.iter().map(|t| t.depth()).max().unwrap_or(0),
        }
    }

    /// CuTe `size` / `product`: the product of all leaves (1 for `()`).
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!("((32,6),4)".parse::<IntTuple>().unwrap().size().unwrap(), 768);
    /// assert_eq!("()".parse::<IntTuple>().unwrap().size().unwrap(), 1);
    /// ```
    pub fn size(&self) -> Result<i64> {
        match self {
            Int(v) | Dyn(v) => Ok(*v),
            Tuple(ts) => ts
                .iter()
                .try_fold(1i64, |acc, t| arith::mul(acc, t.size()?)),
        }
    }

    /// CuTe `size` with its kind: static when every leaf is (or a leaf is `_0`).
    ///
    /// ```
    /// use cute_core::{int_tuple::Num, IntTuple};
    /// let t = IntTuple::Tuple(vec![IntTuple::Int(4), IntTuple::Dyn(8)]);
    /// assert_eq!(t.size_num().unwrap(), Num::dynamic(32));
    /// let t = IntTuple::Tuple(vec![IntTuple::Int(0), IntTuple::Dyn(8)]);
    /// assert_eq!(t.size_num().unwrap(), Num::fixed(0)); // _0 * x is _0
    /// ```
    pub fn size_num(&self) -> Result<Num> {
        match self {
            Tuple(ts) => ts
                .iter()
                .try_fold(Num::fixed(1), |acc, t| acc.mul(t.size_num()?)),
            leaf => Ok(leaf.num().expect("leaf")),
        }
    }

    /// CuTe `sum` of all leaves.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!("(2,(3,4))".parse::<IntTuple>().unwrap().sum().unwrap(), 9);
    /// ```
    pub fn sum(&self) -> Result<i64> {
        match self {
            Int(v) | Dyn(v) => Ok(*v),
            Tuple(ts) => ts.iter().try_fold(0i64, |acc, t| arith::add(acc, t.sum()?)),
        }
    }

    /// The number of leaves.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!("(2,(3,4),())".parse::<IntTuple>().unwrap().leaf_count(), 3);
    /// ```
    pub fn leaf_count(&self) -> usize {
        match self {
            Int(_) | Dyn(_) => 1,
            Tuple(ts) => ts.iter().map(|t| t.leaf_count()).sum(),
        }
    }

    /// The number of parts: every integer and every tuple (empty ones included).
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!("(2,(3,4),())".parse::<IntTuple>().unwrap().node_count(), 6);
    /// ```
    pub fn node_count(&self) -> usize {
        match self {
            Int(_) | Dyn(_) => 1,
            Tuple(ts) => 1 + ts.iter().map(|t| t.node_count()).sum::<usize>(),
        }
    }

    /// The leaves in order.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!("(2,(3,4))".parse::<IntTuple>().unwrap().leaves(), [2, 3, 4]);
    /// ```
    pub fn leaves(&self) -> Vec<i64> {
        let mut out = Vec::new();
        self.collect_leaves(&mut out);
        out
    }

    /// The first leaf (in order) for which `pred` holds: [`IntTuple::leaves`] without
    /// collecting them.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// let t: IntTuple = "(2,(-3,4))".parse().unwrap();
    /// assert_eq!(t.find_leaf(|v| v < 0), Some(-3));
    /// assert_eq!(t.find_leaf(|v| v > 4), None);
    /// ```
    pub fn find_leaf(&self, pred: impl Fn(i64) -> bool + Copy) -> Option<i64> {
        match self {
            Int(v) | Dyn(v) => pred(*v).then_some(*v),
            Tuple(ts) => ts.iter().find_map(|t| t.find_leaf(pred)),
        }
    }

    fn collect_leaves(&self, out: &mut Vec<i64>) {
        match self {
            Int(v) | Dyn(v) => out.push(*v),
            Tuple(ts) => ts.iter().for_each(|t| t.collect_leaves(out)),
        }
    }

    /// The leaves in order, with their kinds.
    ///
    /// ```
    /// use cute_core::{int_tuple::Num, IntTuple};
    /// let t = IntTuple::Tuple(vec![IntTuple::Int(2), IntTuple::Dyn(3)]);
    /// assert_eq!(t.leaf_nums(), [Num::fixed(2), Num::dynamic(3)]);
    /// ```
    pub fn leaf_nums(&self) -> Vec<Num> {
        fn go(t: &IntTuple, out: &mut Vec<Num>) {
            match t {
                Tuple(ts) => ts.iter().for_each(|t| go(t, out)),
                leaf => out.push(leaf.num().expect("leaf")),
            }
        }
        let mut out = Vec::new();
        go(self, &mut out);
        out
    }

    /// A flat tuple of these integers.
    ///
    /// ```
    /// use cute_core::{int_tuple::Num, IntTuple};
    /// let t = IntTuple::nums(&[Num::fixed(2), Num::dynamic(3)]);
    /// assert_eq!(t.to_string(), "(2,3)");
    /// assert!(!t.is_static());
    /// ```
    pub fn nums(v: &[Num]) -> Self {
        Tuple(v.iter().map(|n| n.leaf()).collect())
    }

    /// CuTe `get<i>`: element `i` of a tuple; `get<0>` of an integer is the integer.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// let t: IntTuple = "(7,(4,2))".parse().unwrap();
    /// assert_eq!(t.get(1).unwrap().to_string(), "(4,2)");
    /// assert_eq!(IntTuple::Int(3).get(0).unwrap().to_string(), "3");
    /// assert!(t.get(2).is_err());
    /// ```
    pub fn get(&self, i: usize) -> Result<&IntTuple> {
        match self {
            Int(_) | Dyn(_) if i == 0 => Ok(self),
            Tuple(ts) if i < ts.len() => Ok(&ts[i]),
            _ => Err(crate::err!(
                "index {i} out of range for {self} of rank {}",
                self.rank()
            )),
        }
    }

    /// The elements as a slice: an integer is its own single mode.
    pub(crate) fn modes(&self) -> Vec<IntTuple> {
        match self {
            Int(_) | Dyn(_) => vec![self.clone()],
            Tuple(ts) => ts.clone(),
        }
    }

    /// CuTe `flatten`: a tuple of depth ≤ 1; an integer stays an integer.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// let t: IntTuple = "((2,2),(3,(4,1)))".parse().unwrap();
    /// assert_eq!(t.flatten().to_string(), "(2,2,3,4,1)");
    /// assert_eq!(IntTuple::Int(8).flatten().to_string(), "8");
    /// ```
    ///
    /// Law (checked by `tests/laws.rs::unflatten_inverts_flatten`): `unflatten(flatten(t), t) == t`.
    /// ```
    /// // (the round trip, one case)
    /// use cute_core::{int_tuple::unflatten, IntTuple as T};
    /// let t: T = "((2,2),(3,(4,1)))".parse().unwrap();
    /// assert_eq!(unflatten(&t.flatten(), &t).unwrap(), t);
    /// ```
    pub fn flatten(&self) -> IntTuple {
        match self {
            Int(_) | Dyn(_) => self.clone(),
            Tuple(_) => IntTuple::nums(&self.leaf_nums()),
        }
    }

    /// CuTe `wrap`: an integer becomes a 1-tuple; tuples are unchanged.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!(IntTuple::Int(8).wrap().to_string(), "(8)");
    /// assert_eq!(IntTuple::ints(&[8, 2]).wrap().to_string(), "(8,2)");
    /// ```
    pub fn wrap(self) -> IntTuple {
        match self {
            Int(_) | Dyn(_) => Tuple(vec![self]),
            t => t,
        }
    }

    /// CuTe `unwrap`: strip 1-tuples until a non-1-tuple remains.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!("(((8)))".parse::<IntTuple>().unwrap().unwrap().to_string(), "8");
    /// assert_eq!("((8,2))".parse::<IntTuple>().unwrap().unwrap().to_string(), "(8,2)");
    /// ```
    pub fn unwrap(self) -> IntTuple {
        match self {
            Tuple(mut ts) if ts.len() == 1 => ts.pop().expect("len 1").unwrap(),
            t => t,
        }
    }

    /// CuTe `append`: `append(8, 2) = (8,2)`, `append((8), 2) = (8,2)`.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!(IntTuple::Int(8).append(IntTuple::Int(2)).to_string(), "(8,2)");
    /// assert_eq!(IntTuple::ints(&[8]).append(IntTuple::Int(2)).to_string(), "(8,2)");
    /// ```
    pub fn append(self, x: IntTuple) -> IntTuple {
        match self {
            Tuple(mut ts) => {
                ts.push(x);
                Tuple(ts)
            }
            a => Tuple(vec![a, x]),
        }
    }

    /// CuTe `prepend`.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!(IntTuple::Int(8).prepend(IntTuple::Int(2)).to_string(), "(2,8)");
    /// assert_eq!(IntTuple::ints(&[8, 4]).prepend(IntTuple::Int(2)).to_string(), "(2,8,4)");
    /// ```
    pub fn prepend(self, x: IntTuple) -> IntTuple {
        match self {
            Tuple(mut ts) => {
                ts.insert(0, x);
                Tuple(ts)
            }
            a => Tuple(vec![x, a]),
        }
    }

    /// CuTe `append<N>(a, x)`: extend to rank `n` with copies of `x`.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// assert_eq!(IntTuple::Int(8).append_to(3, &IntTuple::Int(1)).to_string(), "(8,1,1)");
    /// assert_eq!(IntTuple::Int(8).append_to(1, &IntTuple::Int(1)).to_string(), "8");
    /// ```
    pub fn append_to(self, n: usize, x: &IntTuple) -> IntTuple {
        match self {
            Tuple(mut ts) => {
                while ts.len() < n {
                    ts.push(x.clone());
                }
                Tuple(ts)
            }
            a if n <= 1 => a,
            a => {
                let mut ts = vec![a];
                while ts.len() < n {
                    ts.push(x.clone());
                }
                Tuple(ts)
            }
        }
    }

    /// Same profile (hierarchical structure), CuTe `congruent`.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// let a: IntTuple = "(2,(3,4))".parse().unwrap();
    /// let b: IntTuple = "(1,(1,9))".parse().unwrap();
    /// assert!(a.congruent(&b));
    /// ```
    pub fn congruent(&self, other: &IntTuple) -> bool {
        match (self, other) {
            (Tuple(a), Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.congruent(y))
            }
            (Tuple(_), _) | (_, Tuple(_)) => false,
            _ => true,
        }
    }

    /// CuTe `weakly_congruent(a, b)`: `a` is a coarsening of `b`'s profile.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// let a: IntTuple = "(2,4)".parse().unwrap();
    /// let b: IntTuple = "((2,2),(2,2))".parse().unwrap();
    /// assert!(a.weakly_congruent(&b));
    /// assert!(!b.weakly_congruent(&a));
    /// assert!(IntTuple::Int(8).weakly_congruent(&b));
    /// ```
    ///
    /// Law (checked by `tests/laws.rs::congruence_orders`): `congruent(a, b)` implies
    /// `weakly_congruent(a, b)`, and an integer is weakly congruent with anything.
    /// ```
    /// use cute_core::IntTuple;
    /// let a: IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert!(a.congruent(&a) && a.weakly_congruent(&a));
    /// ```
    pub fn weakly_congruent(&self, other: &IntTuple) -> bool {
        match (self, other) {
            (Int(_) | Dyn(_), _) => true,
            (Tuple(_), Int(_) | Dyn(_)) => false,
            (Tuple(a), Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.weakly_congruent(y))
            }
        }
    }

    /// CuTe `compatible(a, b)`: every coordinate of shape `a` is a coordinate of `b`.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// let a: IntTuple = "(4,12)".parse().unwrap();
    /// let b: IntTuple = "((2,2),(3,4))".parse().unwrap();
    /// assert!(a.compatible(&b).unwrap());
    /// ```
    pub fn compatible(&self, other: &IntTuple) -> Result<bool> {
        Ok(match (self, other) {
            (Int(a) | Dyn(a), b) => *a == b.size()?,
            (Tuple(_), Int(_) | Dyn(_)) => false,
            (Tuple(a), Tuple(b)) => {
                if a.len() != b.len() {
                    return Ok(false);
                }
                for (x, y) in a.iter().zip(b) {
                    if !x.compatible(y)? {
                        return Ok(false);
                    }
                }
                true
            }
        })
    }

    /// A tuple of the same profile with every leaf set to `v` (CuTe `repeat_like`).
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// let t: IntTuple = "(2,(3,4))".parse().unwrap();
    /// assert_eq!(t.repeat_like(1).to_string(), "(1,(1,1))");
    /// assert!(t.repeat_like(0).congruent(&t));
    /// ```
    pub fn repeat_like(&self, v: i64) -> IntTuple {
        match self {
            Int(_) | Dyn(_) => Int(v),
            Tuple(ts) => Tuple(ts.iter().map(|t| t.repeat_like(v)).collect()),
        }
    }

    /// Rebuild `self`'s profile from the leaves `flat` (CuTe `unflatten`).
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// let p: IntTuple = "(2,(3,4))".parse().unwrap();
    /// let t = p.unflatten_like(&mut [1, 2, 6].into_iter());
    /// assert_eq!(t.to_string(), "(1,(2,6))");
    /// ```
    pub fn unflatten_like(&self, flat: &mut impl Iterator<Item = i64>) -> IntTuple {
        match self {
            Tuple(ts) => Tuple(ts.iter().map(|t| t.unflatten_like(flat)).collect()),
            _ => Int(flat.next().unwrap_or(0)),
        }
    }

    /// CuTe `product_each`: the size of every top-level mode, as a tuple.
    ///
    /// ```
    /// use cute_core::IntTuple;
    /// let t: IntTuple = "((8,16),(64,1),(1,3))".parse().unwrap();
    /// assert_eq!(t.product_each().unwrap().to_string(), "(128,64,3)");
    /// ```
    pub fn product_each(&self) -> Result<IntTuple> {
        Ok(Tuple(
            self.modes()
                .iter()
                .map(|m| m.size_num().map(Num::leaf))
                .collect::<Result<_>>()?,
        ))
    }
}

/// CuTe `shape_div(a, b)`: division for shapes, folding `b` across the modes of `a`.
///
/// Enforces CuTe's divisibility condition `a % b == 0 || b % a == 0` on leaves.
///
/// ```
/// use cute_core::{int_tuple::shape_div, IntTuple};
/// let a: IntTuple = "(4,5,6)".parse().unwrap();
/// assert_eq!(shape_div(&a, &IntTuple::Int(40)).unwrap().to_string(), "(1,1,3)");
/// ```
pub fn shape_div(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match (a, b) {
        (Tuple(ta), Tuple(tb)) => {
            if ta.len() != tb.len() {
                return Err(crate::err!(
                    "shape_div: mismatched ranks {} and {}",
                    ta.len(),
                    tb.len()
                ));
            }
            Ok(Tuple(
                ta.iter()
                    .zip(tb)
                    .map(|(x, y)| shape_div(x, y))
                    .collect::<Result<_>>()?,
            ))
        }
        (Tuple(ta), _) => fold_division(ta, b, shape_div),
        (_, Tuple(_)) => shape_div(a, &b.size_num()?.leaf()),
        (_, _) => {
            let (x, y) = (a.num().expect("leaf"), b.num().expect("leaf"));
            // C++ checks divisibility only when both are static (a static_assert).
            if y.v == 0
                || (x.is_static()
                    && y.is_static()
                    && x.v % y.v != 0
                    && (x.v == 0 || y.v % x.v != 0))
            {
                return Err(crate::err!(
                    "shape_div: divisibility condition violated ({} and {} do not divide each other)",
                    x.v, y.v
                ));
            }
            Ok(x.ceil_div(y)?.leaf())
        }
    }
}

/// The tuple-by-integer case of CuTe's `shape_div` and `ceil_div`: divide each mode by what
/// is left of `b`, and `b` by the mode (`(4,5,6) / 40 -> (1,5,6) / 10 -> (1,1,6) / 2`).
fn fold_division(
    modes: &[IntTuple],
    b: &IntTuple,
    div: fn(&IntTuple, &IntTuple) -> Result<IntTuple>,
) -> Result<IntTuple> {
    let mut rest = b.clone();
    let mut out = Vec::with_capacity(modes.len());
    for m in modes {
        out.push(div(m, &rest)?);
        rest = div(&rest, m)?;
    }
    Ok(Tuple(out))
}

/// CuTe `ceil_div(a, b)` on IntTuples.
///
/// ```
/// use cute_core::{int_tuple::ceil_div, IntTuple};
/// let a: IntTuple = "(4,8)".parse().unwrap();
/// assert_eq!(ceil_div(&a, &IntTuple::Int(6)).unwrap().to_string(), "(1,4)");
/// ```
pub fn ceil_div(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match (a, b) {
        (Tuple(ta), Tuple(tb)) => {
            if ta.len() < tb.len() {
                return Err(Error::new("ceil_div: mismatched ranks"));
            }
            let one = Int(1);
            Ok(Tuple(
                ta.iter()
                    .enumerate()
                    .map(|(i, x)| ceil_div(x, tb.get(i).unwrap_or(&one)))
                    .collect::<Result<_>>()?,
            ))
        }
        (Tuple(ta), _) => fold_division(ta, b, ceil_div),
        (_, Tuple(_)) => ceil_div(a, &b.size_num()?.leaf()),
        (_, _) => Ok(a
            .num()
            .expect("leaf")
            .ceil_div(b.num().expect("leaf"))?
            .leaf()),
    }
}

/// CuTe `prefix_product` (exclusive), e.g. `(2,(3,4)) -> (1,(2,6))`.
///
/// ```
/// use cute_core::{int_tuple::prefix_product, IntTuple};
/// let a: IntTuple = "(2,(3,4))".parse().unwrap();
/// assert_eq!(prefix_product(&a).unwrap().to_string(), "(1,(2,6))");
/// ```
pub fn prefix_product(a: &IntTuple) -> Result<IntTuple> {
    fn go(a: &IntTuple, init: Num) -> Result<(IntTuple, Num)> {
        match a {
            Int(_) | Dyn(_) => Ok((init.leaf(), init.mul(a.num().expect("leaf"))?)),
            Tuple(ts) => {
                let mut cur = init;
                let mut out = Vec::with_capacity(ts.len());
                for t in ts {
                    let (r, next) = go(t, cur)?;
                    out.push(r);
                    cur = next;
                }
                Ok((Tuple(out), cur))
            }
        }
    }
    Ok(go(a, Num::fixed(1))?.0)
}

/// CuTe `coalesce(shape)` of an int-tuple: the flat leaves with each run of static (or of
/// dynamic) leaves multiplied into one; a single leaf when one run remains.
///
/// ```
/// use cute_core::int_tuple::{coalesce_shape, IntTuple};
/// let t = IntTuple::Tuple(vec![IntTuple::Int(2), IntTuple::Int(4), IntTuple::Dyn(3)]);
/// assert_eq!(coalesce_shape(&t).unwrap().to_string(), "(8,3)");
/// ```
pub fn coalesce_shape(t: &IntTuple) -> Result<IntTuple> {
    let mut out: Vec<Num> = Vec::new();
    for n in t.leaf_nums() {
        match out.last_mut() {
            Some(last) if last.is_static() == n.is_static() => *last = last.mul(n)?,
            _ => out.push(n),
        }
    }
    Ok(match out.as_slice() {
        [] => Int(1),
        [one] => one.leaf(),
        _ => IntTuple::nums(&out),
    })
}

/// One leaf of CuTe's `compact_major`: `_0` for a static `_1` (a dynamic 1 keeps its
/// stride, as in C++), the running product otherwise.
fn compact_leaf(s: &IntTuple, cur: &mut Num) -> Result<IntTuple> {
    if s.is_const(1) {
        return Ok(Int(0));
    }
    let d = *cur;
    *cur = cur.mul(s.num().expect("leaf"))?;
    Ok(d.leaf())
}

/// CuTe `compact_major<LayoutLeft>(shape, current)`: column-major strides; static shape-1
/// modes get stride 0, as CuTe does for `_1`.
///
/// ```
/// use cute_core::{int_tuple::compact_col_major, IntTuple};
/// let s: IntTuple = "(4,(1,8))".parse().unwrap();
/// assert_eq!(compact_col_major(&s, 1).unwrap().to_string(), "(1,(0,4))");
/// ```
pub fn compact_col_major(shape: &IntTuple, current: i64) -> Result<IntTuple> {
    compact_col_major_num(shape, Num::fixed(current))
}

/// [`compact_col_major`] from a start that may be dynamic.
///
/// ```
/// use cute_core::{int_tuple::{compact_col_major_num, Num}, IntTuple};
/// let s: IntTuple = "(4,8)".parse().unwrap();
/// let d = compact_col_major_num(&s, Num::dynamic(2)).unwrap();
/// assert_eq!(d.to_string(), "(2,8)");
/// assert!(!d.is_static());
/// ```
pub fn compact_col_major_num(shape: &IntTuple, current: Num) -> Result<IntTuple> {
    fn go(s: &IntTuple, cur: &mut Num) -> Result<IntTuple> {
        match s {
            Tuple(ts) => Ok(Tuple(ts.iter().map(|t| go(t, cur)).collect::<Result<_>>()?)),
            leaf => compact_leaf(leaf, cur),
        }
    }
    let mut cur = current;
    go(shape, &mut cur)
}

/// CuTe `compact_major<LayoutRight>(shape)`: row-major strides.
///
/// ```
/// use cute_core::{int_tuple::compact_row_major, IntTuple};
/// let s: IntTuple = "(4,(2,8))".parse().unwrap();
/// assert_eq!(compact_row_major(&s, 1).unwrap().to_string(), "(16,(8,1))");
/// ```
pub fn compact_row_major(shape: &IntTuple, current: i64) -> Result<IntTuple> {
    fn go(s: &IntTuple, cur: &mut Num) -> Result<IntTuple> {
        match s {
            Int(_) | Dyn(_) => compact_leaf(s, cur),
            Tuple(ts) => {
                let mut out: Vec<IntTuple> =
                    ts.iter().rev().map(|t| go(t, cur)).collect::<Result<_>>()?;
                out.reverse();
                Ok(Tuple(out))
            }
        }
    }
    let mut cur = Num::fixed(current);
    go(shape, &mut cur)
}

/// CuTe `crd2idx(coord, shape, stride)`: the offset of a (hierarchical or linear) coordinate.
///
/// An integer coordinate against a tuple shape is split column-major, the last mode taking
/// whatever remains (so indices past the size extrapolate, as in CuTe).
///
/// ```
/// use cute_core::{int_tuple::crd2idx, IntTuple};
/// let s: IntTuple = "(4,8)".parse().unwrap();
/// let d: IntTuple = "(8,1)".parse().unwrap();
/// assert_eq!(crd2idx(&IntTuple::Int(13), &s, &d).unwrap(), 11);
/// ```
pub fn crd2idx(coord: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> Result<i64> {
    match (coord, shape, stride) {
        (Tuple(c), Tuple(s), Tuple(d)) => {
            if c.len() != s.len() || s.len() != d.len() {
                return Err(crate::err!(
                    "coordinate {coord} does not match the rank of shape {shape}"
                ));
            }
            let mut acc = 0i64;
            for ((ci, si), di) in c.iter().zip(s).zip(d) {
                acc = arith::add(acc, crd2idx(ci, si, di)?)?;
            }
            Ok(acc)
        }
        (Tuple(_), Int(_) | Dyn(_), _) => Err(crate::err!(
            "coordinate {coord} is deeper than shape {shape}"
        )),
        (Int(c) | Dyn(c), Tuple(s), Tuple(d)) => {
            if s.len() != d.len() {
                return Err(Error::new("crd2idx: shape and stride ranks differ"));
            }
            if s.is_empty() {
                return Ok(0);
            }
            let mut c = *c;
            let mut acc = 0i64;
            let last = s.len() - 1;
            for (i, (si, di)) in s.iter().zip(d).enumerate() {
                if i == last {
                    acc = arith::add(acc, crd2idx(&Int(c), si, di)?)?;
                } else if c == 0 {
                    // CuTe shortcut: a zero coordinate contributes nothing.
                } else {
                    let p = si.size()?;
                    let (q, r) = (arith::div(c, p)?, arith::rem(c, p)?);
                    acc = arith::add(acc, crd2idx(&Int(r), si, di)?)?;
                    c = q;
                }
            }
            Ok(acc)
        }
        (Int(c) | Dyn(c), Int(_) | Dyn(_), Int(d) | Dyn(d)) => arith::mul(*c, *d),
        _ => Err(crate::err!(
            "shape {shape} and stride {stride} are not congruent"
        )),
    }
}

/// CuTe `crd2idx(coord, shape)`: the column-major (colexicographic) index of a coordinate.
///
/// ```
/// use cute_core::{int_tuple::crd2idx_shape, IntTuple};
/// let s: IntTuple = "(2,(2,2))".parse().unwrap();
/// let c: IntTuple = "(1,(1,0))".parse().unwrap();
/// assert_eq!(crd2idx_shape(&c, &s).unwrap(), 3);
/// ```
pub fn crd2idx_shape(coord: &IntTuple, shape: &IntTuple) -> Result<i64> {
    match (coord, shape) {
        (Int(c) | Dyn(c), _) => Ok(*c),
        (Tuple(_), Int(_) | Dyn(_)) => Err(crate::err!(
            "coordinate {coord} is deeper than shape {shape}"
        )),
        (Tuple(c), Tuple(s)) => {
            if c.len() != s.len() {
                return Err(crate::err!(
                    "coordinate {coord} does not match the rank of shape {shape}"
                ));
            }
            let stride = compact_col_major_full(shape)?;
            crd2idx(coord, shape, &stride)
        }
    }
}

/// Column-major strides including shape-1 modes (used where the stride of a size-1 mode is
/// irrelevant but must be finite).
fn compact_col_major_full(shape: &IntTuple) -> Result<IntTuple> {
    compact_col_major_full_from(shape, 1)
}

fn compact_col_major_full_from(shape: &IntTuple, start: i64) -> Result<IntTuple> {
    fn go(s: &IntTuple, cur: &mut i64) -> Result<IntTuple> {
        match s {
            Int(v) | Dyn(v) => {
                let d = *cur;
                *cur = arith::mul(*cur, *v)?;
                Ok(Int(d))
            }
            Tuple(ts) => Ok(Tuple(ts.iter().map(|t| go(t, cur)).collect::<Result<_>>()?)),
        }
    }
    go(shape, &mut start.clone())
}

/// CuTe `idx2crd(idx, shape)`: the coordinate of a linear index (column-major), the last
/// mode of each level taking the remainder.
///
/// ```
/// use cute_core::{int_tuple::idx2crd, IntTuple};
/// let s: IntTuple = "(2,(2,2))".parse().unwrap();
/// assert_eq!(idx2crd(&IntTuple::Int(7), &s).unwrap().to_string(), "(1,(1,1))");
/// ```
///
/// Law (checked by `tests/laws.rs::idx2crd_inverts_crd2idx`): `crd2idx(idx2crd(i, S), S) == i`
/// for every `i < size(S)`.
pub fn idx2crd(idx: &IntTuple, shape: &IntTuple) -> Result<IntTuple> {
    match (idx, shape) {
        (Tuple(i), Tuple(s)) => {
            if i.len() != s.len() {
                return Err(crate::err!(
                    "coordinate {idx} does not match the rank of shape {shape}"
                ));
            }
            Ok(Tuple(
                i.iter()
                    .zip(s)
                    .map(|(a, b)| idx2crd(a, b))
                    .collect::<Result<_>>()?,
            ))
        }
        (Tuple(_), Int(_) | Dyn(_)) => {
            Err(crate::err!("coordinate {idx} is deeper than shape {shape}"))
        }
        (Int(_) | Dyn(_), Int(_) | Dyn(_)) => Ok(idx.clone()),
        (Int(v) | Dyn(v), Tuple(_)) => {
            // Split over the flattened shape; the final leaf keeps the remainder.
            let leaves = shape.leaves();
            let mut rest = *v;
            let n = leaves.len();
            let mut out = Vec::with_capacity(n);
            for (k, s) in leaves.iter().enumerate() {
                if k + 1 == n {
                    out.push(rest);
                } else {
                    out.push(arith::rem(rest, *s)?);
                    rest = arith::div(rest, *s)?;
                }
            }
            Ok(shape.unflatten_like(&mut out.into_iter()))
        }
    }
}

/// CuTe `idx2crd(idx, shape, stride)`: the coordinate `(idx / stride) % shape` at each leaf
/// (a shape-1 leaf gives 0); an integer stride against a tuple shape means compact
/// column-major strides starting at that value.
///
/// ```
/// use cute_core::{int_tuple::idx2crd_strided, IntTuple};
/// let s: IntTuple = "(4,8)".parse().unwrap();
/// let d: IntTuple = "(8,1)".parse().unwrap();
/// assert_eq!(idx2crd_strided(&IntTuple::Int(13), &s, &d).unwrap().to_string(), "(1,5)");
/// ```
pub fn idx2crd_strided(idx: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> Result<IntTuple> {
    let mismatch = || crate::err!("mismatched ranks: index {idx}, shape {shape}, stride {stride}");
    match (idx, shape, stride) {
        (Tuple(i), Tuple(s), Tuple(d)) => map3(i, s, d, idx2crd_strided).ok_or_else(mismatch)?,
        (Tuple(_), _, _) => Err(mismatch()),
        (Int(_) | Dyn(_), Tuple(s), Tuple(d)) => {
            if s.len() != d.len() {
                return Err(mismatch());
            }
            Ok(Tuple(
                s.iter()
                    .zip(d)
                    .map(|(b, c)| idx2crd_strided(idx, b, c))
                    .collect::<Result<_>>()?,
            ))
        }
        (Int(_) | Dyn(_), Tuple(_), Int(d) | Dyn(d)) => {
            let d = compact_col_major_full_from(shape, *d)?;
            idx2crd_strided(idx, shape, &d)
        }
        (Int(_) | Dyn(_), Int(1) | Dyn(1), Int(_) | Dyn(_)) => Ok(Int(0)),
        (Int(i) | Dyn(i), Int(s) | Dyn(s), Int(d) | Dyn(d)) => {
            Ok(Int(arith::rem(arith::div(*i, *d)?, *s)?))
        }
        (Int(_) | Dyn(_), Int(_) | Dyn(_), Tuple(_)) => Err(mismatch()),
    }
}

/// Element-wise `f` over three tuples of equal rank; `None` when the ranks differ.
fn map3(
    a: &[IntTuple],
    b: &[IntTuple],
    c: &[IntTuple],
    f: fn(&IntTuple, &IntTuple, &IntTuple) -> Result<IntTuple>,
) -> Option<Result<IntTuple>> {
    if a.len() != b.len() || b.len() != c.len() {
        return None;
    }
    Some(
        a.iter()
            .zip(b)
            .zip(c)
            .map(|((x, y), z)| f(x, y, z))
            .collect::<Result<_>>()
            .map(Tuple),
    )
}

/// CuTe `crd2crd(coord, src_shape, dst_shape)`.
///
/// ```
/// use cute_core::{int_tuple::crd2crd, IntTuple};
/// let dst: IntTuple = "(4,8)".parse().unwrap();
/// assert_eq!(crd2crd(&IntTuple::Int(21), &IntTuple::Int(32), &dst).unwrap().to_string(), "(1,5)");
/// ```
pub fn crd2crd(coord: &IntTuple, src: &IntTuple, dst: &IntTuple) -> Result<IntTuple> {
    match (coord, src, dst) {
        (Tuple(c), Tuple(s), Tuple(d)) => {
            map3(c, s, d, crd2crd).ok_or_else(|| Error::new("crd2crd: mismatched ranks"))?
        }
        _ => idx2crd(&Int(crd2idx_shape(coord, src)?), dst),
    }
}

/// CuTe `slice(coord, t)`: keep the elements of `t` paired with `_`, flattening the
/// sliced levels (`slice((_,(1,_)), (a,(b,c))) = (a,c)`).
///
/// ```
/// use cute_core::int_tuple::{slice, Coord};
/// use cute_core::IntTuple;
/// let t: IntTuple = "(4,(2,8))".parse().unwrap();
/// let c = Coord::Tuple(vec![Coord::Under, Coord::Tuple(vec![Coord::Int(1), Coord::Under])]);
/// assert_eq!(slice(&c, &t).unwrap().to_string(), "(4,8)");
/// ```
pub fn slice(coord: &Coord, t: &IntTuple) -> Result<IntTuple> {
    select_by(coord, t, true)
}

/// CuTe's slice (`keep_under`) and dice: keep the elements of `t` paired with `_`, or with
/// integers, concatenating the kept pieces; the top level is not wrapped.
fn select_by(coord: &Coord, t: &IntTuple, keep_under: bool) -> Result<IntTuple> {
    fn lift(coord: &Coord, t: &IntTuple, keep_under: bool, out: &mut Vec<IntTuple>) -> Result<()> {
        match coord {
            Coord::Under if keep_under => out.push(t.clone()),
            Coord::Int(_) if !keep_under => out.push(t.clone()),
            Coord::Under | Coord::Int(_) => {}
            Coord::Tuple(cs) => {
                let ts = match t {
                    Tuple(ts) if ts.len() == cs.len() => ts,
                    _ => return Err(crate::err!("coordinate does not match {t}")),
                };
                for (c, x) in cs.iter().zip(ts) {
                    lift(c, x, keep_under, out)?;
                }
            }
        }
        Ok(())
    }
    match coord {
        Coord::Tuple(_) => {
            let mut out = Vec::new();
            lift(coord, t, keep_under, &mut out)?;
            Ok(Tuple(out))
        }
        Coord::Under if keep_under => Ok(t.clone()),
        Coord::Int(_) if !keep_under => Ok(t.clone()),
        _ => Ok(Tuple(vec![])),
    }
}

/// CuTe `dice(coord, t)`: keep the elements of `t` paired with integers (the complement of
/// [`slice`]).
///
/// ```
/// use cute_core::int_tuple::{dice, Coord};
/// use cute_core::IntTuple;
/// let t: IntTuple = "(4,(2,8))".parse().unwrap();
/// let c = Coord::Tuple(vec![Coord::Under, Coord::Tuple(vec![Coord::Int(1), Coord::Under])]);
/// assert_eq!(dice(&c, &t).unwrap().to_string(), "(2)");
/// ```
pub fn dice(coord: &Coord, t: &IntTuple) -> Result<IntTuple> {
    select_by(coord, t, false)
}

/// CuTe `inner_product(a, b)`: `Σ a_i · b_i` over congruent tuples (integers: `a · b`).
///
/// ```
/// use cute_core::int_tuple::inner_product;
/// assert_eq!(inner_product(&"(2,(3,4))".parse().unwrap(), &"(5,(6,7))".parse().unwrap()).unwrap(), 56);
/// assert!(inner_product(&"(2,3)".parse().unwrap(), &"(5,6,7)".parse().unwrap()).is_err());
/// ```
pub fn inner_product(a: &IntTuple, b: &IntTuple) -> Result<i64> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) => {
            if x.len() != y.len() {
                return Err(crate::err!("inner_product: mismatched ranks ({a} and {b})"));
            }
            x.iter()
                .zip(y)
                .try_fold(0i64, |acc, (p, q)| arith::add(acc, inner_product(p, q)?))
        }
        (IntTuple::Tuple(_), _) | (_, IntTuple::Tuple(_)) => Err(crate::err!(
            "inner_product of a tuple and an integer ({a}, {b}): C++ has no product of them"
        )),
        _ => arith::mul(a.size()?, b.size()?),
    }
}

/// CuTe `elem_scale(a, b)`: `a` with each integer multiplied by the product of the
/// matching mode of `b`.
///
/// ```
/// use cute_core::int_tuple::elem_scale;
/// assert_eq!(elem_scale(&"(2,3)".parse().unwrap(), &"(4,(5,2))".parse().unwrap()).unwrap().to_string(), "(8,30)");
/// ```
pub fn elem_scale(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match (a, b) {
        (IntTuple::Tuple(x), IntTuple::Tuple(y)) if x.len() == y.len() => Ok(IntTuple::Tuple(
            x.iter()
                .zip(y)
                .map(|(p, q)| elem_scale(p, q))
                .collect::<Result<_>>()?,
        )),
        (IntTuple::Tuple(_), _) => Err(crate::err!(
            "elem_scale: {b} does not match the modes of {a}"
        )),
        (IntTuple::Dyn(v), _) => Ok(IntTuple::Dyn(arith::mul(*v, b.size()?)?)),
        (_, _) => {
            let v = arith::mul(a.size()?, b.size()?)?;
            Ok(if b.is_static() {
                IntTuple::Int(v)
            } else {
                IntTuple::Dyn(v)
            })
        }
    }
}

/// A coordinate that may hold `_` (CuTe's `Underscore`) for slicing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Coord {
    /// `_`: keep this mode.
    Under,
    /// A fixed coordinate.
    Int(i64),
    /// A hierarchical coordinate.
    Tuple(Vec<Coord>),
}

/// As C++ writes it: `(_,2)`.
///
/// ```
/// use cute_core::int_tuple::Coord;
/// assert_eq!(Coord::Tuple(vec![Coord::Under, Coord::Int(2)]).to_string(), "(_,2)");
/// ```
impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Coord::Under => write!(f, "_"),
            Coord::Int(i) => write!(f, "{i}"),
            Coord::Tuple(cs) => {
                write!(f, "(")?;
                for (k, c) in cs.iter().enumerate() {
                    if k > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{c}")?;
                }
                write!(f, ")")
            }
        }
    }
}

impl Coord {
    /// The coordinate with every `_` at 0: where a slice starts (`slice_and_offset`'s
    /// offset is the layout of it).
    ///
    /// ```
    /// use cute_core::int_tuple::Coord;
    /// assert_eq!(Coord::Tuple(vec![Coord::Under, Coord::Int(2)]).start().to_string(), "(0,2)");
    /// ```
    pub fn start(&self) -> IntTuple {
        match self {
            Coord::Under => IntTuple::Int(0),
            Coord::Int(i) => IntTuple::Int(*i),
            Coord::Tuple(cs) => IntTuple::Tuple(cs.iter().map(Coord::start).collect()),
        }
    }

    /// Whether any `_` appears.
    ///
    /// ```
    /// use cute_core::int_tuple::Coord;
    /// assert!(Coord::Tuple(vec![Coord::Int(1), Coord::Under]).has_underscore());
    /// assert!(!Coord::Tuple(vec![Coord::Int(1), Coord::Int(0)]).has_underscore());
    /// ```
    pub fn has_underscore(&self) -> bool {
        match self {
            Coord::Under => true,
            Coord::Int(_) => false,
            Coord::Tuple(cs) => cs.iter().any(|c| c.has_underscore()),
        }
    }

    /// Whether every leaf is `_`.
    ///
    /// ```
    /// use cute_core::int_tuple::Coord;
    /// assert!(Coord::Tuple(vec![Coord::Under, Coord::Under]).all_underscore());
    /// assert!(!Coord::Tuple(vec![Coord::Int(1), Coord::Under]).all_underscore());
    /// ```
    pub fn all_underscore(&self) -> bool {
        match self {
            Coord::Under => true,
            Coord::Int(_) => false,
            Coord::Tuple(cs) => cs.iter().all(|c| c.all_underscore()),
        }
    }

    /// CuTe `dice(coord, coord)`: the fixed coordinates, as an IntTuple.
    ///
    /// ```
    /// use cute_core::int_tuple::Coord;
    /// let c = Coord::Tuple(vec![Coord::Int(2), Coord::Under, Coord::Tuple(vec![Coord::Int(1), Coord::Under])]);
    /// assert_eq!(c.diced().to_string(), "(2,1)");
    /// ```
    pub fn diced(&self) -> IntTuple {
        fn lift(c: &Coord, out: &mut Vec<IntTuple>) {
            match c {
                Coord::Under => {}
                Coord::Int(v) => out.push(Int(*v)),
                Coord::Tuple(cs) => cs.iter().for_each(|x| lift(x, out)),
            }
        }
        match self {
            Coord::Int(v) => Int(*v),
            _ => {
                let mut out = Vec::new();
                lift(self, &mut out);
                Tuple(out)
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Tuple algorithms (`algorithm/tuple_algorithms.hpp`): an integer is a rank-1 "tuple".
// ---------------------------------------------------------------------------------------

fn items_of(t: &IntTuple) -> Vec<IntTuple> {
    match t {
        Tuple(ts) => ts.clone(),
        Int(_) | Dyn(_) => vec![t.clone()],
    }
}

/// CuTe `append<N>(t, x)`: `t` extended to rank `n` with copies of `x` (`n` ≥ rank).
///
/// ```
/// use cute_core::{int_tuple::append, IntTuple};
/// let t: IntTuple = "(2,3)".parse().unwrap();
/// assert_eq!(append(&t, 4, &IntTuple::Int(1)).unwrap().to_string(), "(2,3,1,1)");
/// ```
pub fn append(t: &IntTuple, n: usize, x: &IntTuple) -> Result<IntTuple> {
    let rank = t.rank();
    if n < rank {
        return Err(crate::err!(
            "append: rank {n} is less than the rank {rank} of {t}"
        ));
    }
    if n == rank {
        return Ok(t.clone());
    }
    let mut items = items_of(t);
    items.extend(std::iter::repeat_n(x.clone(), n - rank));
    Ok(Tuple(items))
}

/// CuTe `prepend<N>(t, x)`: `t` extended to rank `n` with copies of `x` in front.
///
/// ```
/// use cute_core::{int_tuple::prepend, IntTuple};
/// let t: IntTuple = "(2,3)".parse().unwrap();
/// assert_eq!(prepend(&t, 4, &IntTuple::Int(1)).unwrap().to_string(), "(1,1,2,3)");
/// assert!(prepend(&t, 1, &IntTuple::Int(1)).is_err());
/// ```
pub fn prepend(t: &IntTuple, n: usize, x: &IntTuple) -> Result<IntTuple> {
    let rank = t.rank();
    if n < rank {
        return Err(crate::err!(
            "prepend: rank {n} is less than the rank {rank} of {t}"
        ));
    }
    if n == rank {
        return Ok(t.clone());
    }
    let mut items: Vec<IntTuple> = std::iter::repeat_n(x.clone(), n - rank).collect();
    items.extend(items_of(t));
    Ok(Tuple(items))
}

/// CuTe `replace<N>(t, x)`: mode `n` of `t` replaced by `x`.
///
/// ```
/// use cute_core::{int_tuple::replace, IntTuple};
/// let t: IntTuple = "(6,3,32)".parse().unwrap();
/// assert_eq!(replace(&t, 2, &IntTuple::Int(2)).unwrap().to_string(), "(6,3,2)");
/// ```
pub fn replace(t: &IntTuple, n: usize, x: &IntTuple) -> Result<IntTuple> {
    match t {
        Tuple(ts) if n < ts.len() => {
            let mut ts = ts.clone();
            ts[n] = x.clone();
            Ok(Tuple(ts))
        }
        Int(_) | Dyn(_) if n == 0 => Ok(x.clone()),
        _ => Err(crate::err!(
            "replace: mode {n} is out of range for {t} of rank {}",
            t.rank()
        )),
    }
}

/// Check a mode range `[b, e)` of a rank-`rank` value (`e` of `None`: the rank).
fn mode_range(what: &str, b: i64, e: Option<i64>, rank: usize) -> Result<(usize, usize)> {
    let e = e.unwrap_or(rank as i64);
    if b < 0 || e < b || e > rank as i64 {
        return Err(crate::err!(
            "{what}<{b},{e}>: range out of bounds for rank {rank}"
        ));
    }
    Ok((b as usize, e as usize))
}

/// CuTe `take<B,E>(t)`: the modes `[b, e)` (`B < E`).
///
/// ```
/// use cute_core::{int_tuple::take, IntTuple};
/// let t: IntTuple = "(2,3,4)".parse().unwrap();
/// assert_eq!(take(&t, 1, Some(3)).unwrap().to_string(), "(3,4)");
/// ```
pub fn take(t: &IntTuple, b: i64, e: Option<i64>) -> Result<IntTuple> {
    let (b, e) = mode_range("take", b, e, t.rank())?;
    if b == e {
        return Err(crate::err!("take<{b},{e}>: empty range"));
    }
    Ok(Tuple(items_of(t)[b..e].to_vec()))
}

/// CuTe `group<B,E>(t)`: the modes `[b, e)` gathered into one mode.
///
/// ```
/// use cute_core::{int_tuple::group, IntTuple};
/// let t: IntTuple = "(2,3,4,5)".parse().unwrap();
/// assert_eq!(group(&t, 1, Some(3)).unwrap().to_string(), "(2,(3,4),5)");
/// ```
pub fn group(t: &IntTuple, b: i64, e: Option<i64>) -> Result<IntTuple> {
    let (b, e) = mode_range("group", b, e, t.rank())?;
    let items = items_of(t);
    let mut out = items[..b].to_vec();
    if b < e {
        out.push(Tuple(items[b..e].to_vec()));
    }
    out.extend_from_slice(&items[e..]);
    Ok(Tuple(out))
}

/// CuTe `select<I...>(t)`: the modes `is`, in that order.
///
/// ```
/// use cute_core::{int_tuple::select, IntTuple};
/// let t: IntTuple = "(2,3,4)".parse().unwrap();
/// assert_eq!(select(&t, &[2, 0]).unwrap().to_string(), "(4,2)");
/// ```
pub fn select(t: &IntTuple, is: &[i64]) -> Result<IntTuple> {
    let items = items_of(t);
    let out = is
        .iter()
        .map(|&i| {
            usize::try_from(i)
                .ok()
                .and_then(|i| items.get(i).cloned())
                .ok_or_else(|| {
                    crate::err!(
                        "select: mode {i} is out of range for {t} of rank {}",
                        items.len()
                    )
                })
        })
        .collect::<Result<_>>()?;
    Ok(Tuple(out))
}

/// CuTe `compact_order(shape, order)`: compact strides where the modes with smaller `order`
/// come first (the product of the shapes of every smaller order is a mode's first stride).
///
/// ```
/// use cute_core::{int_tuple::compact_order, IntTuple};
/// let s: IntTuple = "(2,3,4,5)".parse().unwrap();
/// let o: IntTuple = "(1,3,2,0)".parse().unwrap();
/// assert_eq!(compact_order(&s, &o).unwrap().to_string(), "(5,40,10,1)");
/// ```
pub fn compact_order(shape: &IntTuple, order: &IntTuple) -> Result<IntTuple> {
    // product_like(shape, order): the size of the shape under each leaf of the order.
    fn product_like(s: &IntTuple, o: &IntTuple) -> Result<IntTuple> {
        match (s, o) {
            (Tuple(ss), Tuple(os)) => {
                if ss.len() != os.len() {
                    return Err(crate::err!(
                        "compact_order: shape {s} and order {o} have different ranks"
                    ));
                }
                Ok(Tuple(
                    ss.iter()
                        .zip(os)
                        .map(|(a, b)| product_like(a, b))
                        .collect::<Result<_>>()?,
                ))
            }
            (s, Int(_) | Dyn(_)) => Ok(s.size_num()?.leaf()),
            (Int(_) | Dyn(_), Tuple(_)) => Err(crate::err!(
                "compact_order: order {o} is deeper than shape {s}"
            )),
        }
    }
    let ref_shape = product_like(shape, order)?.leaf_nums();
    // C++ ranks a dynamic order entry after every static one, by position.
    let flat_order = order.leaf_nums();
    let max_static = flat_order
        .iter()
        .filter(|o| o.is_static())
        .map(|o| o.v)
        .fold(0, i64::max);
    let ref_order: Vec<i64> = flat_order
        .iter()
        .zip(1i64..)
        .map(|(o, i)| {
            if o.is_static() {
                o.v
            } else {
                max_static.saturating_add(i)
            }
        })
        .collect();
    let order = &order.unflatten_like(&mut ref_order.iter().copied());
    fn go(s: &IntTuple, o: &IntTuple, rs: &[Num], ro: &[i64]) -> Result<IntTuple> {
        match (s, o) {
            (Tuple(ss), Tuple(os)) => Ok(Tuple(
                ss.iter()
                    .zip(os)
                    .map(|(a, b)| go(a, b, rs, ro))
                    .collect::<Result<_>>()?,
            )),
            (s, Int(o) | Dyn(o)) => {
                let mut start = Num::fixed(1);
                for (&r, &ord) in rs.iter().zip(ro) {
                    if ord < *o {
                        start = start.mul(r)?;
                    }
                }
                compact_col_major_num(s, start)
            }
            _ => unreachable!("profiles checked by product_like"),
        }
    }
    go(shape, order, &ref_shape, &ref_order)
}

/// CuTe `unflatten(flat, profile)`: the modes of `flat` (one per leaf of `profile`) folded
/// into `profile`'s nesting.
///
/// ```
/// use cute_core::{int_tuple::unflatten, IntTuple};
/// let t: IntTuple = "(2,3,4)".parse().unwrap();
/// let p: IntTuple = "(1,(1,1))".parse().unwrap();
/// assert_eq!(unflatten(&t, &p).unwrap().to_string(), "(2,(3,4))");
/// ```
pub fn unflatten(flat: &IntTuple, profile: &IntTuple) -> Result<IntTuple> {
    let items = items_of(flat);
    if items.len() != profile.leaf_count() {
        return Err(crate::err!(
            "unflatten: {flat} has {} modes, the profile {profile} {} leaves",
            items.len(),
            profile.leaf_count()
        ));
    }
    fn go(p: &IntTuple, it: &mut std::vec::IntoIter<IntTuple>) -> IntTuple {
        match p {
            Int(_) | Dyn(_) => it.next().expect("counted"),
            Tuple(ps) => Tuple(ps.iter().map(|q| go(q, it)).collect()),
        }
    }
    Ok(go(profile, &mut items.into_iter()))
}
