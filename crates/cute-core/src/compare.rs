//! Functional equality: whether two functions of a 1-D index (layouts, composed layouts,
//! thread-value layouts, tensors) have the same domain and the same value at every
//! coordinate, and where they differ.
//!
//! A function is sampled once into a [`Sampled`] (its shape and every image, in index
//! order); [`functionally_equal`] compares two of them. Two layouts of different shapes
//! but equal sizes are compared index by index, as CuTe's 1-D coordinates of each
//! (`(4,8):(1,4)` and `32:1` are functionally equal).

use crate::error::Result;
use crate::int_tuple::{idx2crd, IntTuple};
use crate::tensor::Iter;
use std::fmt;

/// Most elements a function is sampled at (a 1024x1024 grid).
pub const SAMPLE_CAP: i64 = 1 << 20;

/// What a function gives at a coordinate.
#[derive(Clone, Debug, PartialEq)]
pub enum Image {
    /// An offset (a layout, a composed layout).
    Offset(i64),
    /// A coordinate (a layout with basis strides, an identity tensor, a thread-value
    /// layout's `(m, n)` in its tile).
    Coord(IntTuple),
    /// An element's address (a tensor over memory: its iterator moved by the offset).
    Addr(Iter),
}

impl Image {
    /// A coordinate, its static and dynamic integers alike (a value, not a type, is
    /// compared).
    pub fn coord(c: IntTuple) -> Image {
        fn values(c: IntTuple) -> IntTuple {
            match c {
                IntTuple::Dyn(v) => IntTuple::Int(v),
                IntTuple::Tuple(ms) => IntTuple::Tuple(ms.into_iter().map(values).collect()),
                i => i,
            }
        }
        Image::Coord(values(c))
    }
}

impl fmt::Display for Image {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Image::Offset(o) => write!(f, "{o}"),
            Image::Coord(c) => write!(f, "{c}"),
            Image::Addr(i) => write!(f, "{i}"),
        }
    }
}

/// A function sampled at every index of its domain.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    /// The domain's shape (coordinates are written in it).
    pub shape: IntTuple,
    /// The image of each index `0..size(shape)`.
    pub images: Vec<Image>,
}

impl Sampled {
    /// Sample `at` over the indices of `shape`, refusing domains over [`SAMPLE_CAP`].
    ///
    /// ```
    /// use cute_core::compare::{Image, Sampled};
    /// let s = Sampled::new("(2,2)".parse().unwrap(), |i| Ok(Image::Offset(3 * i))).unwrap();
    /// assert_eq!(s.images[3], Image::Offset(9));
    /// ```
    pub fn new(shape: IntTuple, at: impl Fn(i64) -> Result<Image>) -> Result<Sampled> {
        let size = Sampled::domain_size(&shape)?;
        let images = (0..size).map(at).collect::<Result<Vec<_>>>()?;
        Ok(Sampled { shape, images })
    }

    /// The size of a domain of `shape`, refused over [`SAMPLE_CAP`].
    pub fn domain_size(shape: &IntTuple) -> Result<i64> {
        let size = shape.size()?;
        if !(0..=SAMPLE_CAP).contains(&size) {
            return Err(crate::err!(
                "cannot compare a function of {size} elements (shape {shape}): at most {SAMPLE_CAP}"
            ));
        }
        Ok(size)
    }

    /// The number of elements.
    pub fn size(&self) -> usize {
        self.images.len()
    }

    /// Index `i`'s natural coordinate in the shape.
    pub fn coord(&self, i: usize) -> String {
        let i = i64::try_from(i).unwrap_or(i64::MAX);
        match idx2crd(&IntTuple::Int(i), &self.shape) {
            Ok(c) => c.to_string(),
            Err(_) => i.to_string(),
        }
    }
}

/// The result of [`functionally_equal`]: both functions, and the indices where they
/// differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The first function.
    pub a: Sampled,
    /// The second function.
    pub b: Sampled,
    /// Indices (of the common domain) where the images differ, in order.
    pub differ: Vec<usize>,
}

impl Comparison {
    /// Whether the domains are the same size.
    pub fn same_domain(&self) -> bool {
        self.a.size() == self.b.size()
    }

    /// Whether the functions are equal: the same domain, the same image everywhere.
    pub fn equal(&self) -> bool {
        self.same_domain() && self.differ.is_empty()
    }
}

/// Prints `true`, or `false` with the reason: the sizes, or the first index where the two
/// differ (its coordinate in each shape), both images there, and how many differ.
impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.same_domain() {
            return write!(
                f,
                "false: the domains differ (A has {} elements, B has {})",
                self.a.size(),
                self.b.size()
            );
        }
        let Some(&i) = self.differ.first() else {
            return f.write_str("true");
        };
        let (ca, cb) = (self.a.coord(i), self.b.coord(i));
        write!(f, "false: at index {i}")?;
        if ca == cb {
            if ca != i.to_string() {
                write!(f, " = {ca}")?;
            }
        } else {
            write!(f, " (A {ca}, B {cb})")?;
        }
        write!(
            f,
            ", A = {} and B = {}; {} of {} differ",
            self.a.images[i],
            self.b.images[i],
            self.differ.len(),
            self.a.size()
        )
    }
}

/// Whether `a` and `b` are the same function: the same domain size and the same image at
/// every index (`∀ i < size: A(i) == B(i)`). The [`Comparison`] keeps both and every index
/// where they differ.
///
/// ```
/// use cute_core::compare::{functionally_equal, Image, Sampled};
/// use cute_core::Layout;
/// let of = |s: &str| {
///     let l: Layout = s.parse().unwrap();
///     Sampled::new(l.shape().clone(), |i| Ok(Image::Offset(l.call_index(i)?))).unwrap()
/// };
/// assert_eq!(functionally_equal(of("(4,8):(1,4)"), of("32:1")).to_string(), "true");
/// assert_eq!(
///     functionally_equal(of("(4,2):(1,4)"), of("(4,2):(2,1)")).to_string(),
///     "false: at index 1 = (1,0), A = 1 and B = 2; 6 of 8 differ"
/// );
/// assert_eq!(
///     functionally_equal(of("8:1"), of("4:1")).to_string(),
///     "false: the domains differ (A has 8 elements, B has 4)"
/// );
/// ```
pub fn functionally_equal(a: Sampled, b: Sampled) -> Comparison {
    let differ = if a.size() == b.size() {
        (0..a.size())
            .filter(|&i| a.images[i] != b.images[i])
            .collect()
    } else {
        Vec::new()
    };
    Comparison { a, b, differ }
}
