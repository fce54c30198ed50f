//! Swizzle<B,M,S> and ComposedLayout (`swizzle.hpp`, `layout_composed.hpp`).

use crate::error::{Error, Result};
use crate::int_tuple::{Coord, IntTuple};
use crate::layout::{self, Layout, Tiler};
use std::fmt;

/// CuTe `Swizzle<B,M,S>`: XOR the `B` bits at `M + max(0,S)` (yyy) into the `B` bits at
/// `M - min(0,S)` (zzz). A negative `S` shifts yyy to the left.
///
/// ```
/// use cute_core::Swizzle;
/// let sw = Swizzle::new(3, 4, 3).unwrap();
/// assert_eq!(sw.yyy_mask(), 0b111_0000000);
/// assert_eq!(sw.zzz_mask(), 0b111_0000);
/// assert_eq!(sw.apply(0b001_0000000), 0b001_0010000);
/// assert!(Swizzle::new(3, 0, 2).is_err()); // |S| must be >= B
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    /// BBits: number of bits in the mask.
    pub b: i64,
    /// MBase: number of least-significant bits kept constant.
    pub m: i64,
    /// SShift: distance to shift the yyy mask (positive: right).
    pub s: i64,
}

impl fmt::Display for Swizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.b, self.m, self.s)
    }
}

impl Swizzle {
    /// Checks CuTe's static_asserts (`B >= 0`, `M >= 0`, `|S| >= B`) and that the masks fit
    /// in CuTe's 32-bit `int`.
    pub fn new(b: i64, m: i64, s: i64) -> Result<Swizzle> {
        if b < 0 {
            return Err(Error::new(format!(
                "Swizzle<{b},{m},{s}>: BBits must be positive"
            )));
        }
        if m < 0 {
            return Err(Error::new(format!(
                "Swizzle<{b},{m},{s}>: MBase must be positive"
            )));
        }
        if s.unsigned_abs() < b.unsigned_abs() {
            return Err(Error::new(format!(
                "Swizzle<{b},{m},{s}>: abs(SShift) must be at least BBits"
            )));
        }
        // The masks are C++ `int`: the highest mask bit must stay below bit 31.
        let top = b + m + s.abs();
        if top > 31 {
            return Err(Error::new(format!(
                "Swizzle<{b},{m},{s}>: masks exceed CuTe's 32-bit int (B+M+|S| = {top} > 31)"
            )));
        }
        Ok(Swizzle { b, m, s })
    }

    /// The `B`-bit mask `(1<<B)-1`.
    pub fn bit_mask(&self) -> i64 {
        (1i64 << self.b) - 1
    }

    /// The source bits (yyy): `bit_mask << (M + max(0,S))`.
    pub fn yyy_mask(&self) -> i64 {
        self.bit_mask() << (self.m + self.s.max(0))
    }

    /// The destination bits (zzz): `bit_mask << (M - min(0,S))`.
    pub fn zzz_mask(&self) -> i64 {
        self.bit_mask() << (self.m - self.s.min(0))
    }

    /// `offset ^ shiftr(offset & yyy, S)`.
    pub fn apply(&self, offset: i64) -> i64 {
        let y = offset & self.yyy_mask();
        let moved = if self.s >= 0 {
            y >> self.s
        } else {
            y << (-self.s)
        };
        offset ^ moved
    }
}

/// CuTe `ComposedLayout<Swizzle, Offset, Layout>`: `c ↦ swizzle(offset + layout(c))`.
///
/// Operations on the domain (composition with a tiler, divides, slicing) act on the inner
/// layout, as in CuTe.
///
/// ```
/// use cute_core::{ComposedLayout, Layout, Swizzle};
/// let c = ComposedLayout::new(Swizzle::new(3, 4, 3).unwrap(), 0, "(8,64):(64,1)".parse().unwrap());
/// assert_eq!(c.to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
/// assert_eq!(c.call_index(1).unwrap(), 80);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ComposedLayout {
    /// The outer function (layout A).
    pub swizzle: Swizzle,
    /// The offset added between the layouts.
    pub offset: i64,
    /// The inner layout (layout B), which defines the domain.
    pub layout: Layout,
}

impl fmt::Display for ComposedLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o {} o {}", self.swizzle, self.offset, self.layout)
    }
}

impl ComposedLayout {
    /// `make_composed_layout(swizzle, offset, layout)`.
    pub fn new(swizzle: Swizzle, offset: i64, layout: Layout) -> ComposedLayout {
        ComposedLayout {
            swizzle,
            offset,
            layout,
        }
    }

    fn with_layout(&self, layout: Layout) -> ComposedLayout {
        ComposedLayout::new(self.swizzle, self.offset, layout)
    }

    fn finish(&self, inner: i64) -> Result<i64> {
        Ok(self
            .swizzle
            .apply(crate::error::arith::add(self.offset, inner)?))
    }

    /// The swizzled offset of linear index `i`.
    pub fn call_index(&self, i: i64) -> Result<i64> {
        self.finish(self.layout.call_index(i)?)
    }

    /// The swizzled offset of a coordinate.
    pub fn call_coord(&self, c: &IntTuple) -> Result<i64> {
        self.finish(self.layout.call_coord(c)?)
    }

    /// CuTe slice of a composed layout: the slice's offset moves into the composed offset.
    pub fn slice(&self, c: &Coord) -> Result<ComposedLayout> {
        let sliced = self.layout.slice(c)?;
        let off = self.layout.slice_offset(c)?;
        Ok(ComposedLayout::new(
            self.swizzle,
            crate::error::arith::add(self.offset, off)?,
            sliced,
        ))
    }

    /// `composition(composed, tiler)`: compose the inner layout.
    pub fn compose(&self, tiler: &Tiler) -> Result<ComposedLayout> {
        Ok(self.with_layout(layout::composition_tiler(&self.layout, tiler)?))
    }

    /// Apply a layout-to-layout operation to the inner layout (divides, products, flatten…).
    pub fn map_inner(&self, f: impl FnOnce(&Layout) -> Result<Layout>) -> Result<ComposedLayout> {
        Ok(self.with_layout(f(&self.layout)?))
    }
}
