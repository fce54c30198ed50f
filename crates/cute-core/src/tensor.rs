//! CuTe tensors: an iterator (a pointer into an address space, a counting iterator, or a
//! register array) and a layout, printed as `cute::print` prints them, with the slicing,
//! tiling and partitioning of `cute/tensor_impl.hpp`.
//!
//! Non-owning tensors over pointers are values: the pointer's address (a null pointer
//! prints `(nil)` as glibc's `%p` does) moves as C++'s pointer arithmetic moves it. A
//! shared-memory pointer made with a GMMA/UMMA smem atom (`Sw<B,M,S> o smem_ptr[Nb] o L`)
//! carries the swizzle, as `make_tensor` does (`Sw<3,4,3>_smem_ptr[16b](..) o L`).
//! Owning register tensors (`make_tensor<T>(shape)`) print `ptr[Nb](stack)` where C++
//! prints the stack address of the array.
//!
//! ```
//! use cute_core::tensor::{Ptr, Space, Tensor};
//! let g = Tensor::new(Ptr::new(Space::Gmem, 32, 0x1000).into(), "(256,128):(128,1)".parse().unwrap());
//! assert_eq!(g.to_string(), "gmem_ptr[32b](0x1000) o (256,128):(128,1)");
//! use cute_core::{int_tuple::Coord, layout::Tiler};
//! let tiler = Tiler::Tuple(vec![Tiler::Int(64), Tiler::Int(32)]);
//! let tile = g.local_tile(&tiler, &Coord::Tuple(vec![Coord::Int(1), Coord::Int(2)]), None).unwrap();
//! assert_eq!(tile.to_string(), "gmem_ptr[32b](0x9100) o (64,32):(128,1)");
//! ```

use crate::error::arith;
use crate::int_tuple::{Coord, IntTuple};
use crate::layout::{self as alg, Layout, Tiler};
use crate::swizzle::{AnyLayout, Offset, Swizzle};
use crate::{Error, Result};
use std::fmt;

/// The address space a pointer points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// `make_gmem_ptr`: global memory.
    Gmem,
    /// `make_smem_ptr`: shared memory.
    Smem,
    /// `make_rmem_ptr`: registers.
    Rmem,
    /// A raw `T*`.
    Generic,
    /// Blackwell tensor memory (`tmem_ptr<T>`): `addr` is the 32-bit TMEM address,
    /// lane << 16 | column.
    Tmem,
}

impl Space {
    /// The prefix C++ prints: `gmem_ptr`, `smem_ptr`, and `ptr` for a register pointer
    /// (`make_rmem_ptr`) as for a raw one.
    pub fn name(self) -> &'static str {
        match self {
            Space::Gmem => "gmem_ptr",
            Space::Smem => "smem_ptr",
            Space::Rmem | Space::Generic => "ptr",
            Space::Tmem => "tmem_",
        }
    }
}

/// A typed pointer: `make_gmem_ptr<T>(p)`, `make_smem_ptr<T>(p)`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ptr {
    /// Where it points.
    pub space: Space,
    /// `sizeof_bits<T>`.
    pub bits: u32,
    /// The byte address (0: `nullptr`).
    pub addr: u64,
    /// A shared-memory pointer's swizzle (of byte addresses), from a `smem_ptr_flag` layout.
    pub swizzle: Option<Swizzle>,
    /// The bit within the byte of a sub-byte pointer (C++'s `subbyte_iterator`, for
    /// elements of fewer than 8 bits); 0 otherwise.
    pub bit: u8,
}

impl Ptr {
    /// A pointer of `bits`-bit elements at byte address `addr`.
    pub fn new(space: Space, bits: u32, addr: u64) -> Ptr {
        Ptr {
            space,
            bits,
            addr,
            swizzle: None,
            bit: 0,
        }
    }

    /// Whether C++ iterates it with a `subbyte_iterator` (elements of fewer than 8 bits).
    pub fn sub_byte(&self) -> bool {
        self.bits < 8
    }

    /// `p + n`: `n` elements on, in bytes as C++ computes them (a sub-byte pointer in bits).
    ///
    /// ```
    /// use cute_core::tensor::{Ptr, Space};
    /// assert_eq!(Ptr::new(Space::Smem, 16, 0).offset(16).unwrap().addr, 0x20);
    /// let p = Ptr::new(Space::Gmem, 4, 0x1000).offset(3).unwrap(); // 12 bits on
    /// assert_eq!(p.to_string(), "gmem_subptr[4b](0x1001.4)");
    /// ```
    pub fn offset(self, n: i64) -> Result<Ptr> {
        if self.space == Space::Tmem {
            // tmem_ptr<T> + i: the offset rotated right by log2(values per 32-bit column),
            // in 32-bit address arithmetic (the sub-word index lands in the high bits).
            let shift = offset_shift(i64::from(self.bits))?;
            let add = (n as u32).rotate_right(shift as u32);
            return Ok(Ptr {
                addr: u64::from((self.addr as u32).wrapping_add(add)),
                ..self
            });
        }
        let bits = arith::mul(n, i64::from(self.bits))?;
        if bits % 8 != 0 && !self.sub_byte() {
            return Err(crate::err!(
                "a {}-bit pointer moved by {n} elements lands inside a byte",
                self.bits
            ));
        }
        let out_of_range = || {
            crate::err!(
                "pointer arithmetic out of range: {:#x} + {n} elements",
                self.addr
            )
        };
        // In bits from address 0: a sub-byte pointer's address and bit, as
        // subbyte_iterator keeps them.
        let total = i64::try_from(self.addr)
            .ok()
            .and_then(|a| a.checked_mul(8))
            .and_then(|a| a.checked_add(i64::from(self.bit)))
            .and_then(|a| a.checked_add(bits))
            .filter(|a| *a >= 0)
            .ok_or_else(out_of_range)?;
        Ok(Ptr {
            addr: u64::try_from(total / 8).map_err(|_| out_of_range())?,
            bit: (total % 8) as u8,
            ..self
        })
    }
}

impl fmt::Display for Ptr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(sw) = self.swizzle {
            write!(f, "{sw}_")?;
        }
        if self.space == Space::Tmem {
            write!(f, "{}[{}b](", self.space.name(), self.bits)?;
            return write!(f, "0x{:04x}.{:04x})", self.addr >> 16, self.addr & 0xffff);
        }
        if self.sub_byte() {
            // subbyte_iterator: `gmem_subptr[4b](0x1001.4)`, the address and the bit.
            let space = match self.space {
                Space::Gmem => "gmem_",
                Space::Smem => "smem_",
                _ => "",
            };
            write!(f, "{space}subptr[{}b](", self.bits)?;
        } else {
            write!(f, "{}[{}b](", self.space.name(), self.bits)?;
        }
        if self.addr == 0 {
            // glibc's `%p` of a null pointer.
            write!(f, "(nil)")?;
        } else {
            write!(f, "{:#x}", self.addr)?;
        }
        if self.sub_byte() {
            write!(f, ".{}", self.bit)?;
        }
        write!(f, ")")
    }
}

/// What a tensor's layout indexes.
#[derive(Clone, Debug, PartialEq)]
pub enum Iter {
    /// A pointer.
    Ptr(Ptr),
    /// A counting iterator (`make_identity_tensor`): the coordinate of the first element,
    /// one integer per leaf of the identity's `shape` (printed nested as the shape is).
    Counting {
        /// The identity's shape (an integer for a counting iterator of integers).
        shape: IntTuple,
        /// The coordinate, a leaf each.
        start: Vec<i64>,
        /// The bits of each leaf's digit in the packed basis strides ([`radix_bits`]).
        radix: Vec<u32>,
        /// Of a counting iterator of integers (C++ `ArithmeticTupleIterator<int>`), what
        /// C++'s types say about it; `None` for one of coordinates.
        scalar: Option<IntCount>,
    },
    /// An owning register array of `bits`-bit elements (`make_tensor<T>(shape)`), `offset`
    /// elements into it.
    Owned {
        /// `sizeof_bits<T>`.
        bits: u32,
        /// Elements from the array's start.
        offset: i64,
    },
}

/// What C++'s types say about a counting iterator of integers
/// (`make_identity_tensor(Int<32>{})`, `make_coord_tensor(layout)`): whether its start is
/// still the static `_0` it began at (printed `ArithTuple_0`, else `ArithTuple16`), and
/// whether its strides are the basis vector `E<>` (`make_identity_tensor`) rather than
/// integers (`make_coord_tensor`). C++ cannot add a run-time start and `E<>`: such an
/// element does not compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntCount {
    /// The start is the static `_0`.
    pub fixed: bool,
    /// The strides are `E<>`, not integers.
    pub basis: bool,
}

/// A thread of `thr`'s threads: C++ wraps any index through the layout's strides, the
/// language names the mistake.
fn check_thread(thr: &Layout, idx: i64) -> Result<()> {
    let n = thr.size()?;
    if idx < 0 || idx >= n {
        return Err(crate::err!(
            "thread {idx} is outside the thread layout {thr} ({n} threads)"
        ));
    }
    Ok(())
}

/// Counting tensors hold their basis strides packed in one integer, a digit per leaf of
/// the identity's shape: the stride `k@i` is `k * 2^(w_0 + .. + w_{i-1})`, `w_j` the bits
/// of digit `j`. Digits are balanced (`[-2^(w-1), 2^(w-1))`), so offsets may go negative
/// (`domain_offset` by (0, -6), a residue k-tile). Each digit holds at least four times
/// the coordinate's reach, so `k * extent` never reaches the next digit and no two strides
/// merge that C++ keeps apart; the bits left of 62 are shared out as room for offsets.
const PACKED_BITS: u32 = 62;

/// The digit widths for coordinates reaching `reach[j]` (the largest coordinate of leaf
/// `j`): an error names the reaches when they do not fit one 64-bit integer.
///
/// ```
/// use cute_core::tensor::radix_bits;
/// assert_eq!(radix_bits(&[127, 63]).unwrap(), vec![31, 30]);
/// assert!(radix_bits(&[1 << 20; 4]).is_err());
/// ```
pub fn radix_bits(reach: &[i64]) -> Result<Vec<u32>> {
    let need: Vec<u32> = reach
        .iter()
        .map(|&r| 66 - r.max(1).leading_zeros())
        .collect();
    let total: u32 = need.iter().sum();
    let n = u32::try_from(need.len()).unwrap_or(u32::MAX).max(1);
    if total > PACKED_BITS {
        return Err(crate::err!(
            "counting tensors whose coordinates reach {reach:?} are not modelled: their basis strides do not fit a 64-bit integer (about {PACKED_BITS} bits for all modes together)"
        ));
    }
    let spare = (PACKED_BITS - total) / n;
    Ok(need.iter().map(|w| w + spare).collect())
}

/// The packed stride of leaf `j`: `2^(w_0 + .. + w_{j-1})`.
fn weight(radix: &[u32], j: usize) -> i64 {
    1i64 << radix[..j].iter().sum::<u32>()
}

impl From<Ptr> for Iter {
    fn from(p: Ptr) -> Iter {
        Iter::Ptr(p)
    }
}

impl Iter {
    /// `it + n`: `n` elements on.
    pub fn offset(&self, n: i64) -> Result<Iter> {
        Ok(match self {
            Iter::Ptr(p) => Iter::Ptr(p.offset(n)?),
            Iter::Owned { bits, offset } => Iter::Owned {
                bits: *bits,
                offset: arith::add(*offset, n)?,
            },
            Iter::Counting {
                shape,
                start,
                radix,
                scalar,
            } => Iter::Counting {
                shape: shape.clone(),
                start: start
                    .iter()
                    .zip(unpack(n, radix))
                    .map(|(a, b)| arith::add(*a, b))
                    .collect::<Result<_>>()?,
                radix: radix.clone(),
                // A run-time offset: the start is an `int` now, whatever its value.
                scalar: scalar.map(|s| IntCount { fixed: false, ..s }),
            },
        })
    }

    /// The element width.
    pub fn bits(&self) -> u32 {
        match self {
            Iter::Ptr(p) => p.bits,
            Iter::Owned { bits, .. } => *bits,
            Iter::Counting { .. } => 0,
        }
    }
}

/// A packed stride or offset as one coefficient per leaf.
fn unpack(v: i64, radix: &[u32]) -> Vec<i64> {
    // Balanced digits: a negative coordinate (`domain_offset` by (0, -6, 0), a residue
    // k-tile) reads back as C++ holds it.
    let mut rest = v;
    radix
        .iter()
        .map(|&w| {
            let base = 1i64 << w;
            let r = rest.rem_euclid(base);
            let carry = r >= base / 2;
            rest = rest.div_euclid(base) + i64::from(carry);
            if carry {
                r - base
            } else {
                r
            }
        })
        .collect()
}

/// `shape` with its leaves replaced, in order, by `f(leaf index)`, written as C++ writes a
/// tuple.
fn write_leaves(
    f: &mut fmt::Formatter<'_>,
    shape: &IntTuple,
    next: &mut usize,
    leaf: &mut dyn FnMut(&mut fmt::Formatter<'_>, usize) -> fmt::Result,
) -> fmt::Result {
    match shape {
        IntTuple::Tuple(ms) => {
            write!(f, "(")?;
            for (k, m) in ms.iter().enumerate() {
                if k > 0 {
                    write!(f, ",")?;
                }
                write_leaves(f, m, next, leaf)?;
            }
            write!(f, ")")
        }
        _ => {
            let i = *next;
            *next += 1;
            leaf(f, i)
        }
    }
}

/// The path of leaf `i` of `shape` (`(4,(2,3))`: leaf 2 is `[1, 1]`).
fn leaf_path(shape: &IntTuple, i: usize) -> Vec<usize> {
    fn go(s: &IntTuple, i: &mut usize, path: &mut Vec<usize>) -> bool {
        match s {
            IntTuple::Tuple(ms) => {
                for (k, m) in ms.iter().enumerate() {
                    path.push(k);
                    if go(m, i, path) {
                        return true;
                    }
                    path.pop();
                }
                false
            }
            _ => {
                if *i == 0 {
                    return true;
                }
                *i -= 1;
                false
            }
        }
    }
    let (mut i, mut path) = (i, Vec::new());
    go(shape, &mut i, &mut path);
    path
}

impl fmt::Display for Iter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Iter::Ptr(p) => write!(f, "{p}"),
            // C++ prints the array's stack address, not a property of the program: here
            // `stack`, and the bytes (and a sub-byte iterator's bit) from the array's start.
            Iter::Owned { bits, offset } => {
                let at = i128::from(*offset) * i128::from(*bits);
                let (bytes, bit) = (at.div_euclid(8), at.rem_euclid(8));
                let sub = if *bits < 8 { "sub" } else { "" };
                write!(f, "{sub}ptr[{bits}b](stack")?;
                if bytes != 0 {
                    write!(f, "+{bytes}")?;
                }
                if *bits < 8 {
                    write!(f, ".{bit}")?;
                }
                write!(f, ")")
            }
            Iter::Counting {
                scalar: Some(s),
                start,
                ..
            } => match (s.fixed, start.first()) {
                (true, _) => write!(f, "ArithTuple_0"),
                (false, x) => write!(f, "ArithTuple{}", x.copied().unwrap_or(0)),
            },
            Iter::Counting { shape, start, .. } => {
                write!(f, "ArithTuple")?;
                let tuple = matches!(shape, IntTuple::Tuple(_));
                if !tuple {
                    write!(f, "(")?;
                }
                write_leaves(f, shape, &mut 0, &mut |f, i| {
                    write!(f, "{}", start.get(i).copied().unwrap_or(0))
                })?;
                if !tuple {
                    write!(f, ")")?;
                }
                Ok(())
            }
        }
    }
}

/// A tensor: an iterator and a layout (`Tensor<Engine, Layout>`).
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    /// What the layout's offsets index.
    pub iter: Iter,
    /// Coordinates to offsets (in elements); of a composed layout, its inner layout.
    pub layout: Layout,
    /// The swizzle and offset of a composed layout in element units: the tensor's layout
    /// is `swizzle o offset o layout` (C++ `make_tensor(ptr, composition(Swizzle{}, L))`).
    /// `None` for a plain layout (a GMMA/UMMA atom's swizzle is in the pointer instead).
    pub swizzle: Option<(Swizzle, Offset)>,
}

impl fmt::Display for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Iter::Counting { shape, radix, .. } = &self.iter else {
            return match self.swizzle {
                Some((sw, off)) => write!(f, "{} o {sw} o {off} o {}", self.iter, self.layout),
                None => write!(f, "{} o {}", self.iter, self.layout),
            };
        };
        // Basis strides: `k@i` (`k@i@j` for a nested leaf), `0` where none.
        write!(f, "{} o {}:", self.iter, self.layout.shape())?;
        let strides = self.layout.stride().clone();
        write_leaves(f, &strides, &mut 0, &mut |f, i| {
            let s = strides.leaves().get(i).copied().unwrap_or(0);
            let cs = unpack(s, radix);
            match cs
                .iter()
                .enumerate()
                .filter(|(_, c)| **c != 0)
                .collect::<Vec<_>>()[..]
            {
                [] => write!(f, "0"),
                [(leaf, c)] => {
                    write!(f, "{c}")?;
                    for p in leaf_path(shape, leaf).iter().rev() {
                        write!(f, "@{p}")?;
                    }
                    Ok(())
                }
                _ => write!(
                    f,
                    "({})",
                    cs.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
                ),
            }
        })
    }
}

impl Tensor {
    /// CuTe `make_identity_tensor(shape)`: every coordinate to itself, a counting iterator
    /// over basis strides (`ArithTuple(0,0) o (128,64):(1@0,1@1)`); of an integer, a
    /// counting iterator of integers (`ArithTuple_0 o 32:1`).
    ///
    /// ```
    /// use cute_core::tensor::Tensor;
    /// let t = Tensor::identity(&"(4,(2,3))".parse().unwrap()).unwrap();
    /// assert_eq!(t.to_string(), "ArithTuple(0,(0,0)) o (4,(2,3)):(1@0,(1@0@1,1@1@1))");
    /// assert_eq!(Tensor::identity(&"32".parse().unwrap()).unwrap().to_string(), "ArithTuple_0 o 32:1");
    /// ```
    pub fn identity(shape: &IntTuple) -> Result<Tensor> {
        let leaves = shape.leaves();
        if let Some(e) = leaves.iter().find(|&&e| e < 0) {
            return Err(crate::err!(
                "make_identity_tensor: extent {e} of {shape} is negative"
            ));
        }
        let (coord, scalar) = match shape {
            IntTuple::Tuple(_) => (shape.clone(), None),
            _ => (
                IntTuple::Int(0),
                Some(IntCount {
                    fixed: true,
                    basis: true,
                }),
            ),
        };
        let strides: Vec<Option<(i64, usize)>> = (0..leaves.len()).map(|j| Some((1, j))).collect();
        Tensor::packed_counting(
            coord,
            vec![0; leaves.len()],
            shape,
            &strides,
            scalar,
            &format!("make_identity_tensor({shape})"),
        )
    }

    /// CuTe `make_coord_tensor(layout)` of a layout with integer strides: a counting
    /// iterator of integers from the static `_0` (`ArithTuple_0 o (4,8):(1,4)`), whose
    /// elements are the layout's offsets.
    ///
    /// ```
    /// use cute_core::tensor::Tensor;
    /// let t = Tensor::coord_tensor(&"(4,8):(8,1)".parse().unwrap()).unwrap();
    /// assert_eq!(t.to_string(), "ArithTuple_0 o (4,8):(8,1)");
    /// assert_eq!(t.coordinate_at(&"(1,2)".parse().unwrap()).unwrap().unwrap().to_string(), "10");
    /// ```
    pub fn coord_tensor(layout: &Layout) -> Result<Tensor> {
        let strides: Vec<Option<(i64, usize)>> = layout
            .stride()
            .leaves()
            .into_iter()
            .map(|d| (d != 0).then_some((d, 0)))
            .collect();
        Tensor::packed_counting(
            IntTuple::Int(0),
            vec![0],
            layout.shape(),
            &strides,
            Some(IntCount {
                fixed: true,
                basis: false,
            }),
            "make_coord_tensor",
        )
    }

    /// CuTe `make_coord_tensor(layout)` of a layout with basis strides: a counting
    /// iterator from zero coordinates as deep as the strides reach (C++'s `coprofile`):
    /// `ArithTuple(0,0,0,0) o (4,8):(1@1,1@3)`. Strides of no coordinate (`E<>`, printed
    /// `1`) count integers.
    ///
    /// ```
    /// use cute_core::{basis::BasisLayout, tensor::Tensor};
    /// let l = BasisLayout::identity(&"(8,4)".parse().unwrap()).unwrap();
    /// assert_eq!(Tensor::coord_tensor_of_basis(&l).unwrap().to_string(), "ArithTuple(0,0) o (8,4):(1@0,1@1)");
    /// ```
    pub fn coord_tensor_of_basis(layout: &crate::basis::BasisLayout) -> Result<Tensor> {
        use crate::basis::BasisStride;
        let strides = layout.stride.leaves();
        let bases: Vec<_> = strides
            .iter()
            .filter_map(|s| match s {
                BasisStride::Basis(b) => Some(b),
                BasisStride::Int(_) => None,
            })
            .collect();
        if !bases.is_empty() && bases.iter().all(|b| b.path.is_empty()) {
            let placed: Vec<Option<(i64, usize)>> = strides
                .iter()
                .map(|s| match s {
                    BasisStride::Basis(b) => Some((b.value.v, 0)),
                    BasisStride::Int(n) => (n.v != 0).then_some((n.v, 0)),
                })
                .collect();
            return Tensor::packed_counting(
                IntTuple::Int(0),
                vec![0],
                &layout.shape,
                &placed,
                Some(IntCount {
                    fixed: true,
                    basis: true,
                }),
                "make_coord_tensor",
            );
        }
        let zeros: Vec<crate::basis::ScaledBasis> = bases
            .iter()
            .map(|b| crate::basis::ScaledBasis {
                value: crate::int_tuple::Num::fixed(0),
                path: b.path.clone(),
            })
            .collect();
        let start = crate::basis::coordinate(&zeros).map_err(|e| e.within("make_coord_tensor"))?;
        Tensor::counting(&start.0, layout)
    }

    /// C++'s print of a counting tensor read back, `ArithTuple(0,0) o (8,4):(1@0,1@1)`: a
    /// counting iterator at `start` (a coordinate, its structure the coordinates') over a
    /// layout with basis strides, each naming a leaf of the coordinate.
    ///
    /// ```
    /// use cute_core::{basis::BasisLayout, tensor::Tensor};
    /// let l = BasisLayout::identity(&"(8,4)".parse().unwrap()).unwrap();
    /// let t = Tensor::counting(&"(1,2)".parse().unwrap(), &l).unwrap();
    /// assert_eq!(t.to_string(), "ArithTuple(1,2) o (8,4):(1@0,1@1)");
    /// ```
    pub fn counting(start: &IntTuple, layout: &crate::basis::BasisLayout) -> Result<Tensor> {
        use crate::basis::BasisStride;
        let coord = match start {
            IntTuple::Tuple(_) => start.clone(),
            _ => {
                return Err(crate::err!(
                    "a counting tensor's start is a coordinate tuple, got {start}"
                ))
            }
        };
        let starts = coord.leaves();
        let leaf_of = |path: &[usize]| (0..starts.len()).find(|&i| leaf_path(&coord, i) == path);
        let strides = layout.stride.leaves();
        let mut placed = Vec::with_capacity(strides.len());
        for s in &strides {
            placed.push(match s {
                BasisStride::Int(n) if n.v == 0 => None,
                BasisStride::Basis(b) => Some((
                    b.value.v,
                    leaf_of(&b.path).ok_or_else(|| {
                        crate::err!(
                            "the stride {b} names no coordinate of the counting iterator {}",
                            Iter::Counting {
                                shape: coord.clone(),
                                start: starts.clone(),
                                radix: vec![1; starts.len()],
                                scalar: None,
                            }
                        )
                    })?,
                )),
                BasisStride::Int(n) => {
                    return Err(crate::err!(
                        "a counting tensor's strides are basis vectors (or 0), not the integer {}",
                        n.v
                    ))
                }
            });
        }
        Tensor::packed_counting(
            coord,
            starts,
            &layout.shape,
            &placed,
            None,
            "the counting tensor",
        )
    }

    /// A counting tensor from `start` (the coordinate's leaves, structured as `coord`) over
    /// `shape`, mode `i` stepping coordinate leaf `j` by `k` where `strides[i] == Some((k,
    /// j))`: the strides packed into integers with a radix wide enough for every leaf's
    /// reach; `scalar` for a counting iterator of integers. `what` names it in errors.
    fn packed_counting(
        coord: IntTuple,
        start: Vec<i64>,
        shape: &IntTuple,
        strides: &[Option<(i64, usize)>],
        scalar: Option<IntCount>,
        what: &str,
    ) -> Result<Tensor> {
        let mut reach: Vec<i64> = start
            .iter()
            .map(|s| arith::abs(*s))
            .collect::<Result<_>>()?;
        for (&e, st) in shape.leaves().iter().zip(strides) {
            if let Some((k, j)) = *st {
                let r = reach
                    .get_mut(j)
                    .ok_or_else(|| crate::err!("{what}: coordinate {j} does not exist"))?;
                *r = arith::add(*r, arith::mul(arith::abs(k)?, e.saturating_sub(1).max(0))?)?;
            }
        }
        let radix = radix_bits(&reach).map_err(|e| e.within(what))?;
        let packed = strides
            .iter()
            .map(|st| match *st {
                None => Ok(0),
                Some((k, j)) => arith::mul(k, weight(&radix, j)),
            })
            .collect::<Result<Vec<_>>>()?;
        let stride = shape.unflatten_like(&mut packed.into_iter());
        Ok(Tensor::new(
            Iter::Counting {
                shape: coord,
                start,
                radix,
                scalar,
            },
            Layout::new(shape.clone(), stride)?,
        ))
    }

    /// A TMA coordinate tensor (`get_tma_tensor`): a counting iterator over `tma_rank`
    /// coordinates, mode `i` of `shape` stepping coordinate `j` by `k` where
    /// `strides[i] == Some((k, j))` (`ArithTuple(0,0) o (512,256):(1@1,1@0)`).
    pub fn tma_coord(
        tma_rank: usize,
        shape: &IntTuple,
        strides: &[Option<(i64, usize)>],
    ) -> Result<Tensor> {
        if !(1..=5).contains(&tma_rank) {
            return Err(crate::err!(
                "a TMA has 1 to 5 modes (cuTensorMapEncodeTiled), this one has {tma_rank}"
            ));
        }
        if let Some((_, j)) = strides.iter().flatten().find(|(_, j)| *j >= tma_rank) {
            return Err(crate::err!("TMA mode {j} of a {tma_rank}-mode TMA"));
        }
        Tensor::packed_counting(
            IntTuple::Tuple(vec![IntTuple::Int(1); tma_rank]),
            vec![0; tma_rank],
            shape,
            strides,
            None,
            "the TMA coordinate tensor",
        )
    }

    /// `t(c)` of a counting tensor and a whole coordinate: the coordinate it holds there
    /// (its start plus the basis strides' sum), `None` for a tensor over memory.
    ///
    /// ```
    /// use cute_core::tensor::Tensor;
    /// let t = Tensor::identity(&"(32,64)".parse().unwrap()).unwrap();
    /// assert_eq!(t.coordinate_at(&"(3,4)".parse().unwrap()).unwrap().unwrap().to_string(), "(3,4)");
    /// ```
    pub fn coordinate_at(&self, c: &IntTuple) -> Result<Option<IntTuple>> {
        let Iter::Counting {
            shape,
            start,
            radix,
            scalar,
        } = &self.iter
        else {
            return Ok(None);
        };
        if let Some(IntCount {
            fixed: false,
            basis: true,
        }) = scalar
        {
            return Err(crate::err!(
                "C++ does not compile an element of {self}: its start is a run-time int and its stride the basis vector E<> (there is no operator+ of int and ScaledBasis<int>); index the tensor before moving it (make_identity_tensor(n)(i + offset))"
            ));
        }
        let offset = match c {
            IntTuple::Int(i) | IntTuple::Dyn(i) => self.layout.call_index(*i)?,
            t => self.layout.call_coord(t)?,
        };
        let values = start
            .iter()
            .zip(unpack(offset, radix))
            .map(|(s, d)| arith::add(*s, d))
            .collect::<Result<Vec<_>>>()?;
        Ok(Some(shape.unflatten_like(&mut values.into_iter())))
    }

    /// `make_tensor(iter, layout)`.
    pub fn new(iter: Iter, layout: Layout) -> Tensor {
        Tensor {
            iter,
            layout,
            swizzle: None,
        }
    }

    /// `make_tensor(iter, layout)` of a layout or a composed layout in element units
    /// (`Sw<B,M,S> o offset o L`; not a `smem_ptr_flag` one: [`Tensor::over`] moves that
    /// swizzle into the pointer).
    pub fn with_any_layout(iter: Iter, layout: AnyLayout) -> Result<Tensor> {
        match layout {
            AnyLayout::Layout(l) => Ok(Tensor::new(iter, l)),
            AnyLayout::Composed(c) => match c.offset {
                Offset::Int(_) | Offset::Mixed { .. } => Ok(Tensor {
                    iter,
                    layout: c.layout,
                    swizzle: Some((c.swizzle, c.offset)),
                }),
                Offset::SmemPtr { .. } => Err(crate::err!(
                    "{c} addresses bytes of a shared-memory pointer (smem_ptr_flag): make_tensor(make_smem_ptr<T>(p), layout) moves its swizzle into the pointer"
                )),
            },
        }
    }

    /// The tensor's layout: plain, or `Sw o offset o L` of a swizzle in element units.
    pub fn any_layout(&self) -> AnyLayout {
        match self.swizzle {
            None => AnyLayout::Layout(self.layout.clone()),
            Some((swizzle, offset)) => AnyLayout::Composed(crate::swizzle::ComposedLayout {
                swizzle,
                offset,
                layout: self.layout.clone(),
            }),
        }
    }

    /// The layout as a shared-memory descriptor reads it: over a swizzled smem pointer, the
    /// smem atom's form `Sw o smem_ptr[Nb] o L` (the swizzle on byte addresses); otherwise
    /// [`Tensor::any_layout`].
    pub fn smem_atom_layout(&self) -> AnyLayout {
        match &self.iter {
            Iter::Ptr(Ptr {
                swizzle: Some(swizzle),
                bits,
                ..
            }) => AnyLayout::Composed(crate::swizzle::ComposedLayout {
                swizzle: *swizzle,
                offset: Offset::SmemPtr {
                    bits: i64::from(*bits),
                },
                layout: self.layout.clone(),
            }),
            _ => self.any_layout(),
        }
    }

    /// The layout of a tensor whose layout is a plain one; `what` names the operation that
    /// does not take a composed layout in element units.
    pub fn plain_layout(&self, what: &str) -> Result<&Layout> {
        match self.swizzle {
            None => Ok(&self.layout),
            Some(_) => Err(crate::err!(
                "{what} of a tensor over a swizzled layout ({}) is not modelled: slice or partition it first, or use the smem atoms' layouts (smem_ptr_flag), whose swizzle C++ moves into the pointer",
                self.any_layout()
            )),
        }
    }

    /// The same iterator over `op` of the layout: a layout operation on the domain (a
    /// divide, `coalesce`, `flatten`, ...), which acts on the inner layout of a composed one
    /// as C++'s `composition(A, O, op(B))` does.
    pub fn map_layout(&self, op: impl FnOnce(&Layout) -> Result<Layout>) -> Result<Tensor> {
        let layout = self.any_layout().map_inner(op)?;
        Tensor::with_any_layout(self.iter.clone(), layout)
    }

    /// `make_tensor(ptr, layout)` where the layout may be a composed one: a
    /// `Sw o smem_ptr[Nb] o L` layout (a GMMA/UMMA smem atom) over a shared-memory pointer of
    /// N-bit elements moves its swizzle into the pointer, as C++ does.
    ///
    /// ```
    /// use cute_core::tensor::{Ptr, Space, Tensor};
    /// use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
    /// let atom = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 16).unwrap(); // GMMA::Layout_K_SW128_Atom<half_t>
    /// let t = Tensor::over(Ptr::new(Space::Smem, 16, 0), &atom).unwrap();
    /// assert_eq!(t.to_string(), "Sw<3,4,3>_smem_ptr[16b]((nil)) o (8,64):(64,1)");
    /// ```
    pub fn over(ptr: Ptr, layout: &AnyLayout) -> Result<Tensor> {
        match layout {
            AnyLayout::Layout(l) => Ok(Tensor::new(ptr.into(), l.clone())),
            AnyLayout::Composed(c) => match c.offset {
                Offset::SmemPtr { bits } => {
                    if let Some(sw) = ptr.swizzle {
                        return Err(crate::err!(
                            "the pointer already swizzles its addresses ({sw}): make the tensor over the plain layout, or over a plain pointer"
                        ));
                    }
                    if ptr.space != Space::Smem {
                        return Err(crate::err!(
                            "Expected smem. {c} is a shared-memory layout (smem_ptr_flag): it needs a make_smem_ptr, not a {}",
                            ptr.space.name()
                        ));
                    }
                    if i64::from(ptr.bits) != bits {
                        return Err(crate::err!(
                            "the layout is for {bits}-bit elements (smem_ptr[{bits}b]), the pointer's are {}-bit",
                            ptr.bits
                        ));
                    }
                    Ok(Tensor::new(
                        Ptr {
                            // Sw<0,M,S> is the identity: C++'s pointer is a plain one.
                            swizzle: (c.swizzle.b != 0).then_some(c.swizzle),
                            ..ptr
                        }
                        .into(),
                        c.layout.clone(),
                    ))
                }
                // A swizzle of element offsets stays in the layout, as C++ keeps it.
                Offset::Int(_) | Offset::Mixed { .. } => {
                    Tensor::with_any_layout(ptr.into(), layout.clone())
                }
            },
        }
    }

    /// `tensor(coord)` with `_` in some modes: the sub-tensor of those modes, its iterator
    /// moved to the fixed coordinates (`slice_and_offset`). A coordinate with no `_` is an
    /// element, not a tensor: refused with its offset named.
    ///
    /// ```
    /// use cute_core::{int_tuple::Coord, tensor::{Ptr, Space, Tensor}};
    /// let t = Tensor::new(Ptr::new(Space::Gmem, 16, 0).into(), "(8,4):(4,1)".parse().unwrap());
    /// let col = t.slice(&Coord::Tuple(vec![Coord::Under, Coord::Int(3)])).unwrap();
    /// assert_eq!(col.to_string(), "gmem_ptr[16b](0x6) o (8):(4)");
    /// ```
    pub fn slice(&self, c: &Coord) -> Result<Tensor> {
        self.slice_dynamic(c, &[])
    }

    /// [`Tensor::slice`] where `dynamic[i]` says whether the `i`-th fixed coordinate is a
    /// run-time integer, which matters over a swizzled layout only
    /// ([`crate::swizzle::ComposedLayout::slice_dynamic`]). Over `Sw o off o L` the slice is
    /// C++'s `slice_and_offset`: the swizzle decays into strides where it can, and the
    /// iterator moves by the offset the swizzle leaves alone.
    ///
    /// ```
    /// use cute_core::{int_tuple::Coord, swizzle::{AnyLayout, ComposedLayout}, tensor::{Ptr, Space, Tensor}, Swizzle};
    /// let l = ComposedLayout::new(Swizzle::new(2, 3, 3).unwrap(), 0, "((8,8),(32,1)):((32,256),(1,0))".parse().unwrap());
    /// let t = Tensor::over(Ptr::new(Space::Smem, 16, 0), &AnyLayout::Composed(l)).unwrap();
    /// assert_eq!(t.to_string(), "smem_ptr[16b]((nil)) o Sw<2,3,3> o 0 o ((8,8),(32,1)):((32,256),(1,0))");
    /// let row = t.slice(&Coord::Tuple(vec![Coord::Int(3), Coord::Under])).unwrap();
    /// assert_eq!(row.to_string(), "smem_ptr[16b](0xd0) o (((8,2,2),1)):(((1,-8,16),0))");
    /// ```
    pub fn slice_dynamic(&self, c: &Coord, dynamic: &[bool]) -> Result<Tensor> {
        in_bounds(c, self.layout.shape())?;
        if !c.has_underscore() && matches!(self.iter, Iter::Counting { .. }) {
            return Err(crate::err!(
                "{c} fixes every mode of a counting tensor: its element is a coordinate, not a tensor"
            ));
        }
        if !c.has_underscore() {
            let offset = self.any_layout().call_coord(&c.start())?;
            return Err(crate::err!(
                "{c} fixes every mode: it names one element (offset {offset}), not a tensor; use layout(t)({c}) for its offset"
            ));
        }
        let (sub, offset) = match &self.any_layout() {
            AnyLayout::Layout(l) => (AnyLayout::Layout(l.slice(c)?), l.call_coord(&c.start())?),
            AnyLayout::Composed(cl) => cl.slice_and_offset(c, dynamic)?,
        };
        // `t(_)` moves nothing: C++'s offset is the static `_0` there.
        let iter = if c.all_underscore() {
            self.iter.clone()
        } else {
            self.iter.offset(offset)?
        };
        Tensor::with_any_layout(iter, sub)
    }

    /// CuTe `local_tile(tensor, tiler, coord[, proj])`: `zipped_divide` by the tiler, then
    /// the tile at `coord` (`_` keeps that mode of tiles; modes the coordinate does not
    /// give are kept). `proj` (`Step<_1, X, _1>`) keeps the tiler's and coordinate's modes
    /// marked `true`.
    pub fn local_tile(
        &self,
        tiler: &Tiler,
        coord: &Coord,
        proj: Option<&[bool]>,
    ) -> Result<Tensor> {
        self.local_tile_dynamic(tiler, coord, proj, &[])
    }

    /// [`Tensor::local_tile`] where `dynamic[i]` says whether the `i`-th integer of `coord`
    /// (as given, before the projection) is a run-time one (see [`Tensor::slice_dynamic`]).
    pub fn local_tile_dynamic(
        &self,
        tiler: &Tiler,
        coord: &Coord,
        proj: Option<&[bool]>,
        dynamic: &[bool],
    ) -> Result<Tensor> {
        let (tiler, coord, dynamic) = match proj {
            None => (tiler.clone(), coord.clone(), dynamic.to_vec()),
            Some(keep) => (
                project_tiler(tiler, keep)?,
                project_coord(coord, keep)?,
                project_dynamic(coord, keep, dynamic),
            ),
        };
        let tiled = alg::zipped_divide(&self.layout, &tiler)?;
        // inner_partition: every mode of the tile, the coordinate (with `_` appended for
        // the tensor's modes the tiler does not tile) among the tiles.
        let rest_rank = tiled.mode(1)?.rank();
        let coord = match coord {
            Coord::Tuple(mut cs) => {
                if cs.len() > rest_rank {
                    return Err(Error::new(format!(
                        "local_tile: the coordinate {} has {} modes, the tensor's tiles {} ({})",
                        Coord::Tuple(cs.clone()),
                        cs.len(),
                        rest_rank,
                        tiled.mode(1)?.shape()
                    )));
                }
                cs.resize(rest_rank, Coord::Under);
                Coord::Tuple(cs)
            }
            c => c,
        };
        let inner = unders(tiled.mode(0)?.shape());
        self.with_layout(tiled)?
            .slice_dynamic(&Coord::Tuple(vec![inner, coord]), &dynamic)
    }

    /// CuTe `outer_partition(tensor, tiler, coord)`: `zipped_divide` by the tiler, then
    /// element `coord` of every tile (`_` appended for the tile's modes a tuple coordinate
    /// does not give): the tensor of the tiles' `coord`-th elements.
    ///
    /// ```
    /// use cute_core::{int_tuple::Coord, layout::Tiler, tensor::{Ptr, Space, Tensor}};
    /// let t = Tensor::new(Ptr::new(Space::Gmem, 16, 0).into(), "(8,8):(8,1)".parse().unwrap());
    /// let tiler = Tiler::Tuple(vec![Tiler::Int(2), Tiler::Int(4)]);
    /// let p = t.outer_partition(&tiler, &Coord::Tuple(vec![Coord::Int(1), Coord::Int(3)])).unwrap();
    /// assert_eq!(p.to_string(), "gmem_ptr[16b](0x16) o (4,2):(16,4)"); // element (1,3): 11
    /// ```
    pub fn outer_partition(&self, tiler: &Tiler, coord: &Coord) -> Result<Tensor> {
        let tiled = alg::zipped_divide(&self.layout, tiler)?;
        let tile_rank = tiled.mode(0)?.rank();
        let coord = match coord {
            Coord::Tuple(cs) => {
                if cs.len() > tile_rank {
                    return Err(Error::new(format!(
                        "outer_partition: the coordinate {coord} has {} modes, the tile {} ({})",
                        cs.len(),
                        tile_rank,
                        tiled.mode(0)?.shape()
                    )));
                }
                let mut cs = cs.clone();
                cs.resize(tile_rank, Coord::Under);
                Coord::Tuple(cs)
            }
            c => c.clone(),
        };
        let rest = unders(tiled.mode(1)?.shape());
        self.with_layout(tiled)?
            .slice(&Coord::Tuple(vec![coord, rest]))
    }

    /// CuTe `local_partition(tensor, thr_layout, thr_idx)`: the elements of thread
    /// `thr_idx` when `thr_layout`'s threads tile the tensor (`outer_partition` of
    /// `thr_layout`'s shape at the thread's coordinate).
    pub fn local_partition(&self, thr: &Layout, idx: i64) -> Result<Tensor> {
        check_thread(thr, idx)?;
        self.partition_at(thr, idx)
    }

    /// CuTe `local_partition(tensor, thr_layout, thr_idx, proj)`: the same over
    /// `dice(proj, thr_layout)`, the thread layout's modes that `proj` keeps (`Step<_1, X>`
    /// keeps mode 0). `thr_idx` ranges over the whole thread layout.
    ///
    /// ```
    /// use cute_core::{int_tuple::Coord, tensor::{Ptr, Space, Tensor}};
    /// let s = Tensor::new(Ptr::new(Space::Smem, 32, 0).into(), "(128,8):(1,128)".parse().unwrap());
    /// let proj = Coord::Tuple(vec![Coord::Int(1), Coord::Under]);
    /// let t = s.local_partition_projected(&"(16,16):(1,16)".parse().unwrap(), 37, &proj).unwrap();
    /// assert_eq!(t.to_string(), "smem_ptr[32b](0x14) o (8,8):(16,128)");
    /// ```
    pub fn local_partition_projected(
        &self,
        thr: &Layout,
        idx: i64,
        proj: &Coord,
    ) -> Result<Tensor> {
        check_thread(thr, idx)?;
        self.partition_at(&thr.dice(proj)?, idx)
    }

    /// `outer_partition` of `thr`'s shape at thread `idx`'s coordinate.
    fn partition_at(&self, thr: &Layout, idx: i64) -> Result<Tensor> {
        // get_flat_coord: the thread's coordinate through the layout's strides, one
        // integer a mode.
        let hier =
            crate::int_tuple::idx2crd_strided(&IntTuple::Int(idx), thr.shape(), thr.stride())?;
        let flat = match (&hier, thr.shape()) {
            (IntTuple::Tuple(cs), IntTuple::Tuple(ss)) => Coord::Tuple(
                cs.iter()
                    .zip(ss)
                    .map(|(c, s)| crate::int_tuple::crd2idx_shape(c, s).map(Coord::Int))
                    .collect::<Result<_>>()?,
            ),
            (c, s) => Coord::Int(crate::int_tuple::crd2idx_shape(c, s)?),
        };
        let tiler = tiler_of(&thr.shape().product_each()?)?;
        let tiled = alg::zipped_divide(&self.layout, &tiler)?;
        // outer_partition: the thread's coordinate in the tile (with `_` appended for the
        // tile's modes the thread layout does not cover), every tile.
        let tile_rank = tiled.mode(0)?.rank();
        let coord = match flat {
            Coord::Tuple(mut cs) => {
                cs.resize(tile_rank.max(cs.len()), Coord::Under);
                Coord::Tuple(cs)
            }
            c => c,
        };
        let rest = unders(tiled.mode(1)?.shape());
        // The thread index is a run-time integer (C++'s `threadIdx.x`, CuTeDSL's Int32).
        let dynamic = vec![true; coord.start().leaf_count()];
        self.with_layout(tiled)?
            .slice_dynamic(&Coord::Tuple(vec![coord, rest]), &dynamic)
    }

    /// The tensor with its iterator moved by `n` elements (C++ `tensor.data() + n`).
    pub fn offset_by(&self, n: i64) -> Result<Tensor> {
        Ok(Tensor {
            iter: self.iter.offset(n)?,
            ..self.clone()
        })
    }

    /// The same iterator and swizzle over another (inner) layout of the same domain.
    pub fn with_layout(&self, layout: Layout) -> Result<Tensor> {
        Ok(Tensor {
            iter: self.iter.clone(),
            layout,
            swizzle: self.swizzle,
        })
    }
}

/// `repeat<rank(shape)>(_)`: `_` for every mode of `shape` (one `_` for an integer).
/// C++'s `repeat<rank(shape)>(_)`: a `_` per top-level mode; `repeat<1>(_)` is `_` itself,
/// which keeps a one-mode tuple nested where `(_)` would flatten it.
fn unders(shape: &IntTuple) -> Coord {
    match shape {
        IntTuple::Tuple(ms) if ms.len() != 1 => Coord::Tuple(vec![Coord::Under; ms.len()]),
        _ => Coord::Under,
    }
}

/// Every fixed coordinate of `c` inside its mode of `shape` (C++ does not check; an index
/// past a mode is memory the tensor does not cover).
pub(crate) fn in_bounds(c: &Coord, shape: &IntTuple) -> Result<()> {
    match (c, shape) {
        (Coord::Under, _) => Ok(()),
        (Coord::Int(i), s) => {
            let n = s.size()?;
            if (0..n).contains(i) {
                Ok(())
            } else {
                Err(crate::err!(
                    "coordinate {i} is outside a mode of size {n} ({s})"
                ))
            }
        }
        (Coord::Tuple(cs), IntTuple::Tuple(ss)) => {
            cs.iter().zip(ss).try_for_each(|(c, s)| in_bounds(c, s))
        }
        (Coord::Tuple(_), s) => Err(crate::err!(
            "the coordinate {c} has more modes than the shape {s}"
        )),
    }
}

/// A shape as a tiler of its modes (`make_shape(_64{}, _32{})` tiles by 64 then 32).
fn tiler_of(shape: &IntTuple) -> Result<Tiler> {
    Ok(match shape {
        IntTuple::Tuple(ms) => Tiler::Tuple(ms.iter().map(tiler_of).collect::<Result<_>>()?),
        s => Tiler::Int(s.size()?),
    })
}

fn project_tiler(t: &Tiler, keep: &[bool]) -> Result<Tiler> {
    let Tiler::Tuple(ms) = t else {
        return Err(Error::new(
            "a projection (Step<..>) needs a tuple tiler, e.g. make_shape(_128{}, _128{}, _32{})",
        ));
    };
    Ok(Tiler::Tuple(project(ms, keep, "the tiler")?))
}

fn project_coord(c: &Coord, keep: &[bool]) -> Result<Coord> {
    let Coord::Tuple(cs) = c else {
        return Err(crate::err!(
            "a projection (Step<..>) needs a tuple coordinate, got {c}"
        ));
    };
    Ok(Coord::Tuple(project(
        cs,
        keep,
        &format!("the coordinate {c}"),
    )?))
}

/// The run-time flags (one per integer of `c`, in order) of the modes `keep` marks.
fn project_dynamic(c: &Coord, keep: &[bool], dynamic: &[bool]) -> Vec<bool> {
    fn ints(c: &Coord) -> usize {
        match c {
            Coord::Under => 0,
            Coord::Int(_) => 1,
            Coord::Tuple(cs) => cs.iter().map(ints).sum(),
        }
    }
    let Coord::Tuple(cs) = c else {
        return dynamic.to_vec();
    };
    let mut rest = dynamic.iter().copied();
    let mut out = Vec::new();
    for (m, k) in cs.iter().zip(keep) {
        let flags: Vec<bool> = rest.by_ref().take(ints(m)).collect();
        if *k {
            out.extend(flags);
        }
    }
    out
}

/// The modes of `items` that `keep` marks (a `Step<_1, X, _1>` projection).
fn project<T: Clone>(items: &[T], keep: &[bool], what: &str) -> Result<Vec<T>> {
    if items.len() != keep.len() {
        return Err(crate::err!(
            "the projection has {} modes, {what} has {}",
            keep.len(),
            items.len()
        ));
    }
    Ok(items
        .iter()
        .zip(keep)
        .filter(|(_, k)| **k)
        .map(|(m, _)| m.clone())
        .collect())
}

/// `tmem_ptr<T>::OffsetShift`: log2 of values per 32-bit column of tensor memory.
///
/// ```
/// assert_eq!(cute_core::tensor::offset_shift(16).unwrap(), 1);
/// assert!(cute_core::tensor::offset_shift(64).is_err());
/// ```
pub fn offset_shift(value_bits: i64) -> Result<u32> {
    match value_bits {
        32 => Ok(0),
        16 => Ok(1),
        8 => Ok(2),
        4 => Ok(3),
        b => Err(crate::err!(
            "TMEM holds 4-, 8-, 16- or 32-bit values, not {b}-bit ones"
        )),
    }
}
