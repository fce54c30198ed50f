//! Layouts as linear maps over GF(2) on the bits of the index (Triton's linear layouts,
//! `to_F2_matrix` of facebookresearch/tensor-layouts).
//!
//! A layout `L` of size `2^n` is a function from the `n` bits of its (colexicographic,
//! 1-D) index `i` to the bits of its offset `L(i)`. It is *linear over GF(2)* when
//! `L(a ^ b) == L(a) ^ L(b)` for all `a`, `b`; equivalently when `L(0) == 0` and
//! `L(i)` is the XOR of the `L(2^k)` over the set bits `k` of `i`. A linear `L` is a
//! [`BitMatrix`] whose column `k` is `L(2^k)`, the image of input bit `k`.
//!
//! A swizzle `Sw<B,M,S>` (`x ^ ((x & yyy) >> S)`) is always linear; a layout is linear
//! when its modes put their offsets on disjoint bits (power-of-two shapes and strides
//! that never carry into one another: `(4,8):(8,1)` is, `(2,2):(1,1)` is not, since
//! `L(3) = 2` but `L(1) ^ L(2) = 0`); a swizzled layout `Sw o 0 o L` of a linear `L` is.
//! One checker ([`to_f2_matrix_layout`], [`to_f2_matrix_composed`]) evaluates the
//! function at every index, up to [`MAX_ELEMENTS`], and returns the matrix or the first
//! pair of indices that breaks linearity.
//!
//! A thread-value layout of this project is a plain layout `(t,v) -> index`: its index is
//! colexicographic, `t + T·v`, so its input bits are the thread bits (the low `log2 T`)
//! and then the value bits.
//!
//! ```
//! use cute_core::f2::{to_f2_matrix_layout, F2};
//! use cute_core::Layout;
//! // 4 threads of 2 values each: thread t, value v at offset 2t + v.
//! let tv: Layout = "(4,2):(2,1)".parse().unwrap();
//! let F2::Linear(m) = to_f2_matrix_layout(&tv).unwrap() else { panic!() };
//! assert_eq!(m.columns(), [0b010, 0b100, 0b001]); // thread bits 0,1 -> offset bits 1,2; value bit -> 0
//! ```

use crate::error::Result;
use crate::layout::Layout;
use crate::swizzle::{ComposedLayout, Swizzle};
use std::fmt;

/// The most elements a function is evaluated at: `2^24`. A larger layout is refused.
pub const MAX_ELEMENTS: i64 = 1 << 24;

/// A matrix over GF(2) of `rows` output bits by `cols` input bits, stored by columns:
/// column `k` is the image of input bit `k`, a mask of output bits.
///
/// Printed as Triton reads a linear layout, bit 0 first: one line per output bit, bit 0
/// on the top line; in each line one `0`/`1` per input bit, bit 0 at the left, separated
/// by spaces. Applied to the bits of `x` as a column vector (`y = M·x`), row `r` says which
/// input bits XOR into output bit `r`.
///
/// ```
/// use cute_core::f2::BitMatrix;
/// // Input bit 0 -> output bits 0 and 2; input bit 1 -> output bit 1.
/// let m = BitMatrix::from_columns(3, vec![0b101, 0b010]).unwrap();
/// assert_eq!(m.to_string(), "1 0\n0 1\n1 0");
/// assert_eq!((m.rows(), m.cols(), m.rank()), (3, 2, 2));
/// assert!(m.get(2, 0) && !m.get(2, 1));
/// assert_eq!(m.apply(0b11), 0b111);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BitMatrix {
    rows: usize,
    cols: usize,
    col: Vec<u64>,
}

impl BitMatrix {
    /// The matrix of `rows` output bits whose column `k` is `columns[k]`: at most 64 rows
    /// and 64 columns, and no column with a bit at or above `rows`.
    ///
    /// ```
    /// use cute_core::f2::BitMatrix;
    /// let m = BitMatrix::from_columns(2, vec![0b10, 0b01]).unwrap();
    /// assert_eq!(m.to_string(), "0 1\n1 0");
    /// assert!(BitMatrix::from_columns(2, vec![0b100]).is_err()); // bit 2 of a 2-row matrix
    /// assert!(BitMatrix::from_columns(65, vec![]).is_err());
    /// ```
    pub fn from_columns(rows: usize, columns: Vec<u64>) -> Result<BitMatrix> {
        if rows > 64 || columns.len() > 64 {
            return Err(crate::err!(
                "a bit matrix has at most 64 rows and 64 columns, not {rows} by {}",
                columns.len()
            ));
        }
        let room = if rows == 64 {
            u64::MAX
        } else {
            (1u64 << rows) - 1
        };
        if let Some((k, c)) = columns.iter().enumerate().find(|(_, c)| **c & !room != 0) {
            return Err(crate::err!(
                "column {k} ({c:#b}) has a bit at or above the matrix's {rows} rows"
            ));
        }
        Ok(BitMatrix {
            rows,
            cols: columns.len(),
            col: columns,
        })
    }

    /// The number of output bits.
    ///
    /// ```
    /// use cute_core::f2::BitMatrix;
    /// let m = BitMatrix::from_columns(3, vec![0b001, 0b100]).unwrap();
    /// assert_eq!((m.rows(), m.cols(), m.columns()), (3, 2, &[0b001, 0b100][..]));
    /// ```
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of input bits (see [`BitMatrix::rows`]).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The columns: `columns()[k]` is the image of input bit `k` (see [`BitMatrix::rows`]).
    pub fn columns(&self) -> &[u64] {
        &self.col
    }

    /// Entry `(row, col)`: whether input bit `col` reaches output bit `row` (false outside
    /// the matrix).
    ///
    /// ```
    /// use cute_core::f2::BitMatrix;
    /// let m = BitMatrix::from_columns(2, vec![0b10]).unwrap();
    /// assert!(m.get(1, 0) && !m.get(0, 0) && !m.get(5, 5));
    /// ```
    pub fn get(&self, row: usize, col: usize) -> bool {
        row < self.rows && self.col.get(col).is_some_and(|c| (c >> row) & 1 == 1)
    }

    /// The image of input bit `k` (`M·2^k`, column `k`), `None` beyond the columns.
    ///
    /// ```
    /// use cute_core::f2::BitMatrix;
    /// let m = BitMatrix::from_columns(3, vec![0b100, 0b011]).unwrap();
    /// assert_eq!((m.image_of_bit(1), m.image_of_bit(2)), (Some(0b011), None));
    /// ```
    pub fn image_of_bit(&self, k: usize) -> Option<u64> {
        self.col.get(k).copied()
    }

    /// `M·x`: the XOR of the columns of the set bits of `x` (bits of `x` at or above
    /// `cols` are ignored: `x` is read modulo `2^cols`).
    ///
    /// ```
    /// use cute_core::f2::BitMatrix;
    /// let m = BitMatrix::from_columns(3, vec![0b011, 0b110]).unwrap();
    /// assert_eq!(m.apply(0b11), 0b101); // 011 ^ 110
    /// assert_eq!(m.apply(0b111), 0b101); // bit 2 is beyond the 2 columns
    /// ```
    pub fn apply(&self, x: u64) -> u64 {
        self.col
            .iter()
            .enumerate()
            .filter(|(k, _)| (x >> k) & 1 == 1)
            .fold(0, |acc, (_, c)| acc ^ c)
    }

    /// The rank over GF(2), by Gaussian elimination of the columns: `cols()` for an
    /// injective map, `rows()` for a surjective one.
    ///
    /// ```
    /// use cute_core::f2::BitMatrix;
    /// assert_eq!(BitMatrix::from_columns(2, vec![0b01, 0b10, 0b11]).unwrap().rank(), 2);
    /// assert_eq!(BitMatrix::from_columns(2, vec![0b11, 0b11]).unwrap().rank(), 1);
    /// ```
    pub fn rank(&self) -> usize {
        // pivot[h]: the reduced column whose highest bit is h.
        let mut pivot = [0u64; 64];
        let mut rank = 0;
        for &c in &self.col {
            let mut v = c;
            while v != 0 {
                let h = 63 - v.leading_zeros() as usize;
                if pivot[h] == 0 {
                    pivot[h] = v;
                    rank += 1;
                    break;
                }
                v ^= pivot[h];
            }
        }
        rank
    }
}

impl fmt::Display for BitMatrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.rows {
            if r > 0 {
                f.write_str("\n")?;
            }
            for k in 0..self.cols {
                if k > 0 {
                    f.write_str(" ")?;
                }
                f.write_str(if self.get(r, k) { "1" } else { "0" })?;
            }
        }
        Ok(())
    }
}

/// Two indices that show a function is not linear over GF(2): `a & b == 0` and
/// `L(a ^ b) != L(a) ^ L(b)`. The first such pair found: `a ^ b` is the least index whose
/// value is not the XOR of its bits' images, `a` its lowest set bit (both 0 when
/// `L(0) != 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Witness {
    /// The lowest set bit of `a ^ b` (0 when `a ^ b` is 0).
    pub a: i64,
    /// The other bits of `a ^ b`.
    pub b: i64,
    /// `L(a)`.
    pub value_a: i64,
    /// `L(b)`.
    pub value_b: i64,
    /// `L(a ^ b)`, which is not `value_a ^ value_b`.
    pub value_xor: i64,
}

impl Witness {
    /// `a ^ b`, the first index that breaks linearity.
    ///
    /// ```
    /// use cute_core::f2::{to_f2_matrix_layout, F2};
    /// let F2::NotLinear(w) = to_f2_matrix_layout(&"(2,2):(1,1)".parse().unwrap()).unwrap() else { panic!() };
    /// assert_eq!((w.index(), w.value_xor, w.expected()), (3, 2, 0)); // L(3) = 1 + 1
    /// ```
    pub fn index(&self) -> i64 {
        self.a ^ self.b
    }

    /// `L(a) ^ L(b)`, what a linear function would give at `a ^ b` (see [`Witness::index`]).
    pub fn expected(&self) -> i64 {
        self.value_a ^ self.value_b
    }
}

impl fmt::Display for Witness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not linear over GF(2): L({a} ^ {b}) = L({i}) = {x}, but L({a}) ^ L({b}) = {va} ^ {vb} = {e}",
            a = self.a,
            b = self.b,
            i = self.index(),
            x = self.value_xor,
            va = self.value_a,
            vb = self.value_b,
            e = self.expected()
        )
    }
}

/// What a function of index bits is over GF(2): a matrix, or the witness that it is none.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum F2 {
    /// Linear: `L(i) == m.apply(i)` for every index.
    Linear(BitMatrix),
    /// Not linear, with the first pair of indices that shows it.
    NotLinear(Witness),
}

impl F2 {
    /// The matrix, when linear.
    ///
    /// ```
    /// use cute_core::f2::to_f2_matrix_layout;
    /// let f = to_f2_matrix_layout(&"8:2".parse().unwrap()).unwrap();
    /// assert!(f.is_linear());
    /// assert_eq!(f.matrix().unwrap().columns(), [0b0010, 0b0100, 0b1000]);
    /// ```
    pub fn matrix(&self) -> Option<&BitMatrix> {
        match self {
            F2::Linear(m) => Some(m),
            F2::NotLinear(_) => None,
        }
    }

    /// Whether the function is linear (see [`F2::matrix`]).
    pub fn is_linear(&self) -> bool {
        matches!(self, F2::Linear(_))
    }
}

impl fmt::Display for F2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            F2::Linear(m) => write!(f, "{m}"),
            F2::NotLinear(w) => write!(f, "{w}"),
        }
    }
}

/// `L` as a matrix over GF(2): column `k` = `L(2^k)` when `L(i) == ⊕_{k ∈ bits(i)} L(2^k)`
/// for every `i < size(L)`; otherwise the first [`Witness`].
///
/// The index is `L.call_index(i)`'s colexicographic one, `log2 size(L)` input bits; the
/// rows are the bits of the largest offset (`cosize(L) - 1` for a linear layout), at
/// least one. An error when the size is not a power of two, is more than
/// [`MAX_ELEMENTS`], or an offset is negative (or overflows).
///
/// ```
/// use cute_core::f2::{to_f2_matrix_layout, F2};
/// use cute_core::Layout;
/// // i = m + 4n -> 8m + n: index bits 0,1 go to offset bits 3,4, bits 2,3,4 to 0,1,2.
/// let l: Layout = "(4,8):(8,1)".parse().unwrap();
/// let f = to_f2_matrix_layout(&l).unwrap();
/// assert_eq!(f.to_string(), "0 0 1 0 0\n0 0 0 1 0\n0 0 0 0 1\n1 0 0 0 0\n0 1 0 0 0");
/// assert_eq!(f.matrix().unwrap().rank(), 5); // a permutation of the bits
///
/// // A carry breaks linearity: L(5) = 1 + 5 = 6, but L(1) ^ L(4) = 1 ^ 5 = 4.
/// let F2::NotLinear(w) = to_f2_matrix_layout(&"(4,4):(1,5)".parse().unwrap()).unwrap() else { panic!() };
/// assert_eq!((w.a, w.b, w.value_xor, w.expected()), (1, 4, 6, 4));
/// assert_eq!(w.to_string(), "not linear over GF(2): L(1 ^ 4) = L(5) = 6, but L(1) ^ L(4) = 1 ^ 5 = 4");
///
/// let e = to_f2_matrix_layout(&"(2,3):(1,2)".parse().unwrap()).unwrap_err();
/// assert_eq!(e.msg, "to_f2_matrix((2,3):(1,2)): size 6 is not a power of two: a layout is a map of index bits only when its size is 2^n");
/// assert!(to_f2_matrix_layout(&"4:-1".parse().unwrap()).unwrap_err().msg.contains("negative"));
/// ```
pub fn to_f2_matrix_layout(layout: &Layout) -> Result<F2> {
    f2_of(layout, layout.size()?, |i| layout.call_index(i))
}

/// The matrix of `Sw<B,M,S>` over `bits` bits (`B + M + |S|` when `None`, the span its
/// pattern repeats over; clamped to 1..=64): column `k` = `2^k`, plus `2^(k-S)` for the `k`
/// of the yyy mask, so `M·x == sw.apply(x)` for `x < 2^bits` when `bits >= B + M + |S|`.
/// Always linear, and a bijection (rank `bits`). Fewer bits give the top-left corner: the
/// images of the low input bits, cut to the low output bits.
///
/// ```
/// use cute_core::f2::to_f2_matrix_swizzle;
/// use cute_core::Swizzle;
/// let sw = Swizzle::new(3, 4, 3).unwrap();
/// let m = to_f2_matrix_swizzle(&sw, None);
/// // Bits 7,8,9 (yyy) XOR into 4,5,6 (zzz): rows 4..7 have a second 1, three columns right.
/// assert_eq!(m.to_string(), "\
/// 1 0 0 0 0 0 0 0 0 0
/// 0 1 0 0 0 0 0 0 0 0
/// 0 0 1 0 0 0 0 0 0 0
/// 0 0 0 1 0 0 0 0 0 0
/// 0 0 0 0 1 0 0 1 0 0
/// 0 0 0 0 0 1 0 0 1 0
/// 0 0 0 0 0 0 1 0 0 1
/// 0 0 0 0 0 0 0 1 0 0
/// 0 0 0 0 0 0 0 0 1 0
/// 0 0 0 0 0 0 0 0 0 1");
/// assert_eq!(m.apply(0b001_000_0000), sw.apply(0b001_000_0000) as u64);
/// assert_eq!((m.rank(), to_f2_matrix_swizzle(&sw, Some(12)).cols()), (10, 12));
/// ```
pub fn to_f2_matrix_swizzle(sw: &Swizzle, bits: Option<u32>) -> BitMatrix {
    // i128: the fields are public, so they may be anything; no shift below overflows.
    let (b, m, s) = (i128::from(sw.b), i128::from(sw.m), i128::from(sw.s));
    let span = b.max(0) + m.max(0) + s.abs();
    let n = bits.map_or(span, i128::from).clamp(1, 64) as usize;
    let y_lo = m + s.max(0);
    let col = (0..n)
        .map(|k| {
            let k = k as i128;
            let mut c = 1u64 << k;
            let dest = k - s;
            if (y_lo..y_lo + b).contains(&k) && (0..n as i128).contains(&dest) {
                c ^= 1u64 << dest;
            }
            c
        })
        .collect();
    BitMatrix {
        rows: n,
        cols: n,
        col,
    }
}

/// `i ↦ sw(offset + L(i))` as a matrix over GF(2), checked as [`to_f2_matrix_layout`]
/// checks a layout: the function [`ComposedLayout::call_index`] evaluates (a `smem_ptr`
/// atom's swizzle is on bytes: see it in elements with `AnyLayout::in_elements` first).
/// With offset 0 and a linear `L` it is the product of the two matrices; an offset other
/// than 0 moves `0` (`sw(offset) != 0`): affine, the witness `(0, 0)`.
///
/// ```
/// use cute_core::f2::{to_f2_matrix_composed, to_f2_matrix_layout, to_f2_matrix_swizzle, F2};
/// use cute_core::{ComposedLayout, Swizzle};
/// let sw = Swizzle::new(3, 4, 3).unwrap();
/// let c = ComposedLayout::new(sw, 0, "(8,128):(128,1)".parse().unwrap());
/// let F2::Linear(m) = to_f2_matrix_composed(&c).unwrap() else { panic!() };
/// let F2::Linear(l) = to_f2_matrix_layout(&c.layout).unwrap() else { panic!() };
/// let s = to_f2_matrix_swizzle(&sw, None);
/// assert!((0..10).all(|k| m.image_of_bit(k) == Some(s.apply(l.image_of_bit(k).unwrap()))));
/// assert_eq!(m.rank(), 10);
///
/// let F2::NotLinear(w) = to_f2_matrix_composed(&ComposedLayout::new(sw, 16, c.layout)).unwrap() else { panic!() };
/// assert_eq!((w.a, w.b, w.value_xor), (0, 0, 16));
/// ```
pub fn to_f2_matrix_composed(c: &ComposedLayout) -> Result<F2> {
    f2_of(c, c.layout.size()?, |i| c.call_index(i))
}

/// The one checker: `f` on `0..size` (a power of two up to [`MAX_ELEMENTS`]), in order,
/// against the XOR of its bits' images; the images `f(2^k)` are taken as the scan reaches
/// them, so the first index that fails (or whose offset is negative) ends it.
fn f2_of(what: &dyn fmt::Display, size: i64, f: impl Fn(i64) -> Result<i64>) -> Result<F2> {
    if size <= 0 || size.count_ones() != 1 {
        return Err(crate::err!(
            "to_f2_matrix({what}): size {size} is not a power of two: a layout is a map of index bits only when its size is 2^n"
        ));
    }
    if size > MAX_ELEMENTS {
        return Err(crate::err!(
            "to_f2_matrix({what}): size {size} is more than the {MAX_ELEMENTS} (2^24) elements this view evaluates"
        ));
    }
    let eval = |i: i64| -> Result<u64> {
        let v = f(i)?;
        u64::try_from(v).map_err(|_| {
            crate::err!(
                "to_f2_matrix({what}): the offset at index {i} is {v}, negative: a map of bits needs offsets >= 0"
            )
        })
    };
    let n = size.trailing_zeros() as usize;
    let mut col: Vec<u64> = Vec::with_capacity(n);
    // The XOR of the images of the set bits of i (all below col.len()).
    let predict = |col: &[u64], i: i64| {
        let mut acc = 0u64;
        let mut rest = i;
        while rest != 0 {
            acc ^= col[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        acc
    };
    for i in 0..size {
        let v = eval(i)?;
        if i.count_ones() == 1 {
            col.push(v); // an image, its own prediction
            continue;
        }
        if v != predict(&col, i) {
            let a = i & i.wrapping_neg();
            let b = i ^ a;
            // `a` and `b` passed before `i` (or are 0 with `i`): their values are images.
            return Ok(F2::NotLinear(Witness {
                a,
                b,
                value_a: f(a)?,
                value_b: f(b)?,
                value_xor: f(i)?,
            }));
        }
    }
    let all = col.iter().fold(0u64, |acc, c| acc | c);
    let rows = (64 - all.leading_zeros() as usize).max(1);
    Ok(F2::Linear(BitMatrix { rows, cols: n, col }))
}
