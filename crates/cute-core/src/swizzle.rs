//! Swizzle<B,M,S> and ComposedLayout (`swizzle.hpp`, `layout_composed.hpp`).

use crate::error::{arith, Error, Result};
use crate::int_tuple::{Coord, IntTuple, Num};
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
    /// The span its pattern repeats over, `2^(B+M+|S|)` (bytes of a byte-address swizzle:
    /// CUTLASS's `alignment_for_swizzle`, where a swizzled buffer must start).
    ///
    /// ```
    /// use cute_core::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3).unwrap().repeat(), 1024);
    /// assert_eq!(Swizzle::new(0, 4, 3).unwrap().repeat(), 128);
    /// ```
    pub fn repeat(&self) -> i64 {
        1i64 << (self.b + self.m + self.s.abs()).clamp(0, 40)
    }

    /// Checks CuTe's static_asserts (`B >= 0`, `M >= 0`, `|S| >= B`) and that the masks fit
    /// in CuTe's 32-bit `int`.
    ///
    /// ```
    /// use cute_core::Swizzle;
    /// let sw = Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(sw.to_string(), "Sw<3,4,3>");
    /// assert!(Swizzle::new(3, 0, 2).is_err()); // |S| >= B
    /// assert!(Swizzle::new(3, 25, 5).is_err()); // masks beyond 32-bit int
    /// ```
    pub fn new(b: i64, m: i64, s: i64) -> Result<Swizzle> {
        if b < 0 {
            return Err(crate::err!("Swizzle<{b},{m},{s}>: BBits must be positive"));
        }
        if m < 0 {
            return Err(crate::err!("Swizzle<{b},{m},{s}>: MBase must be positive"));
        }
        if s.unsigned_abs() < b.unsigned_abs() {
            return Err(crate::err!(
                "Swizzle<{b},{m},{s}>: abs(SShift) must be more than BBits. (|S| >= B)"
            ));
        }
        // The masks are C++ `int`: the highest mask bit must stay below bit 31.
        // (i128: the parameters may be anything up to i64's limits.)
        let top = i128::from(b) + i128::from(m) + i128::from(s).abs();
        if top > 31 {
            return Err(crate::err!(
                "Swizzle<{b},{m},{s}>: masks exceed CuTe's 32-bit int (B+M+|S| = {top} > 31)"
            ));
        }
        Ok(Swizzle { b, m, s })
    }

    /// The `B`-bit mask `(1<<B)-1`.
    ///
    /// ```
    /// use cute_core::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3).unwrap().bit_mask(), 0b111);
    /// ```
    pub fn bit_mask(&self) -> i64 {
        (1i64 << self.b) - 1
    }

    /// The source bits (yyy): `bit_mask << (M + max(0,S))`.
    ///
    /// ```
    /// use cute_core::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3).unwrap().yyy_mask(), 0b111_000_0000);
    /// assert_eq!(Swizzle::new(3, 0, -5).unwrap().yyy_mask(), 0b111); // S < 0: yyy below zzz
    /// ```
    pub fn yyy_mask(&self) -> i64 {
        self.bit_mask() << (self.m + self.s.max(0))
    }

    /// The destination bits (zzz): `bit_mask << (M - min(0,S))`.
    ///
    /// ```
    /// use cute_core::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3).unwrap().zzz_mask(), 0b111_0000);
    /// assert_eq!(Swizzle::new(3, 0, -5).unwrap().zzz_mask(), 0b111_00000);
    /// ```
    pub fn zzz_mask(&self) -> i64 {
        self.bit_mask() << (self.m - self.s.min(0))
    }

    /// CuTe `upcast<N>(swizzle)`: the same bits seen in units `N` times wider.
    ///
    /// ```
    /// use cute_core::Swizzle;
    /// let bytes = Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(bytes.upcast(2).unwrap().to_string(), "Sw<3,3,3>");
    /// assert_eq!(bytes.upcast(64).unwrap().to_string(), "Sw<1,0,3>"); // bits below M are lost
    /// assert!(bytes.upcast(3).is_err());
    /// ```
    pub fn upcast(self, n: i64) -> Result<Swizzle> {
        let log2 = log2_exact(n, "upcast")?;
        let m = self.m - log2;
        if m >= 0 {
            Swizzle::new(self.b, m, self.s)
        } else {
            Swizzle::new((self.b + m).max(0), 0, self.s)
        }
    }

    /// CuTe `downcast<N>(swizzle)`: the same bits seen in units `N` times narrower.
    ///
    /// ```
    /// use cute_core::Swizzle;
    /// let halfs = Swizzle::new(3, 3, 3).unwrap();
    /// assert_eq!(halfs.downcast(2).unwrap().to_string(), "Sw<3,4,3>");
    /// ```
    pub fn downcast(self, n: i64) -> Result<Swizzle> {
        Swizzle::new(self.b, self.m + log2_exact(n, "downcast")?, self.s)
    }

    /// How a kernel writes this swizzle of `elem_bits`-bit element offsets: as CuTe's
    /// `Swizzle<B,M,S>` on byte addresses (what `smem_ptr_flag` atoms, TMA and the
    /// GMMA/UMMA descriptors use), with the mode it is where it is one (SW32, SW64, SW128
    /// of the `Layout_{K,MN}_SW*_Atom<T>` atoms, UMMA's SW128_32B). `None` when the
    /// elements are narrower than a byte and the swizzle moves sub-byte bits.
    ///
    /// ```
    /// use cute_core::Swizzle;
    /// let sw = Swizzle::new(3, 3, 3).unwrap(); // on half_t offsets
    /// assert_eq!(sw.kernel_spelling(16).as_deref(), Some("Swizzle<3,4,3> on bytes = SW128"));
    /// assert_eq!(Swizzle::new(2, 2, 3).unwrap().kernel_spelling(32).as_deref(), Some("Swizzle<2,4,3> on bytes = SW64"));
    /// assert_eq!(Swizzle::new(3, 1, 3).unwrap().kernel_spelling(16).as_deref(), Some("Swizzle<3,2,3> on bytes"));
    /// ```
    pub fn kernel_spelling(self, elem_bits: u32) -> Option<String> {
        let bytes = self.recast(i64::from(elem_bits), 8).ok()?;
        let mode = match (bytes.b, bytes.m, bytes.s) {
            (1, 4, 3) => " = SW32",
            (2, 4, 3) => " = SW64",
            (3, 4, 3) => " = SW128",
            (2, 5, 2) => " = SW128_32B",
            _ => "",
        };
        Some(format!(
            "Swizzle<{},{},{}> on bytes{mode}",
            bytes.b, bytes.m, bytes.s
        ))
    }

    /// CuTe `recast_layout<uint_bit_t<OLD>, uint_bit_t<NEW>>(swizzle)`.
    ///
    /// ```
    /// use cute_core::Swizzle;
    /// let bytes = Swizzle::new(3, 4, 3).unwrap(); // 128B swizzle on byte addresses
    /// assert_eq!(bytes.recast(8, 16).unwrap(), Swizzle::new(3, 3, 3).unwrap());
    /// assert_eq!(bytes.recast(8, 4).unwrap(), Swizzle::new(3, 5, 3).unwrap());
    /// ```
    pub fn recast(self, old_bits: i64, new_bits: i64) -> Result<Swizzle> {
        let (num, den) = crate::layout::bit_ratio(old_bits, new_bits)?;
        self.upcast(num)?.downcast(den)
    }

    /// `offset ^ shiftr(offset & yyy, S)`.
    ///
    /// ```
    /// use cute_core::Swizzle;
    /// assert_eq!(Swizzle::new(3, 1, -5).unwrap().apply(1115), 1307);
    /// assert_eq!(Swizzle::new(3, 0, 5).unwrap().apply(305), 304);
    /// ```
    ///
    /// Law (checked by `tests/laws.rs::swizzle_is_an_involution`): `sw(sw(x)) == x`.
    /// ```
    /// use cute_core::Swizzle;
    /// let sw = Swizzle::new(3, 4, 3).unwrap();
    /// assert_eq!(sw.apply(sw.apply(1000)), 1000);
    /// ```
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

/// The offset of a composed layout: an integer, or CuTe's `smem_ptr_flag_bits<B>` — the
/// stand-in for a shared-memory pointer of `B`-bit elements that the GMMA/UMMA atoms carry
/// (its value is 0; it prints `smem_ptr[Bb](unset)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Offset {
    /// An integer offset.
    Int(i64),
    /// `smem_ptr_flag_bits<bits>`: the swizzle acts on byte addresses of `bits`-bit elements.
    SmemPtr {
        /// Element width in bits.
        bits: i64,
    },
    /// CuTe's `MixedBits<S, F>`: an offset some of whose bits (`mask`, never 0) a run-time
    /// coordinate set (a slice of a swizzled layout at a run-time coordinate that the
    /// swizzle does not decay).
    Mixed {
        /// The offset.
        value: i64,
        /// The bits known only at run time (`F`).
        mask: i64,
    },
}

impl Offset {
    /// The integer the offset adds (0 for the pointer flag, as in C++).
    ///
    /// ```
    /// use cute_core::swizzle::Offset;
    /// assert_eq!(Offset::Int(32).value(), 32);
    /// assert_eq!(Offset::SmemPtr { bits: 16 }.value(), 0);
    /// ```
    pub fn value(self) -> i64 {
        match self {
            Offset::Int(v) | Offset::Mixed { value: v, .. } => v,
            Offset::SmemPtr { .. } => 0,
        }
    }

    /// The offset `value` whose `mask` bits are run-time ones: C++'s `make_mixed_bits`, a
    /// static integer when no bit is.
    ///
    /// ```
    /// use cute_core::swizzle::Offset;
    /// assert_eq!(Offset::mixed(16, 0), Offset::Int(16));
    /// assert_eq!(Offset::mixed(16, 16).to_string(), "M_0|(16&16)=16");
    /// ```
    pub fn mixed(value: i64, mask: i64) -> Offset {
        if mask == 0 {
            Offset::Int(value)
        } else {
            Offset::Mixed { value, mask }
        }
    }

    /// The bits a run-time coordinate set (0 for a static offset).
    pub fn mask(self) -> i64 {
        match self {
            Offset::Mixed { mask, .. } => mask,
            _ => 0,
        }
    }
}

impl fmt::Display for Offset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Offset::Int(v) => write!(f, "{v}"),
            Offset::SmemPtr { bits } => write!(f, "smem_ptr[{bits}b](unset)"),
            // C++'s print(MixedBits): M_S|(d&F)=value.
            Offset::Mixed { value, mask } => {
                write!(f, "M_{}|({}&{mask})={value}", value & !mask, value & mask)
            }
        }
    }
}

impl From<i64> for Offset {
    fn from(v: i64) -> Offset {
        Offset::Int(v)
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
/// assert_eq!(c.call_index(1).unwrap(), 64);  // row 1: offset 64, bits 7..9 clear
/// assert_eq!(c.call_index(2).unwrap(), 144); // row 2: offset 128 -> 128 ^ (128 >> 3)
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ComposedLayout {
    /// The outer function (layout A).
    pub swizzle: Swizzle,
    /// The offset added between the layouts.
    pub offset: Offset,
    /// The inner layout (layout B), which defines the domain.
    pub layout: Layout,
}

impl fmt::Display for ComposedLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o {} o {}", self.swizzle, self.offset, self.layout)
    }
}

/// One side of a [`LayoutComposition`]: a layout, a swizzle (outer only), or another
/// composed layout (C++'s `ComposedLayout<A,O,B>` nests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Func {
    /// A layout.
    Layout(Layout),
    /// A swizzle (outer functions only).
    Swizzle(Swizzle),
    /// A swizzled layout `Sw o O o L`.
    Composed(ComposedLayout),
    /// A composition of layouts.
    Composition(Box<LayoutComposition>),
}

impl fmt::Display for Func {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Func::Layout(l) => write!(f, "{l}"),
            Func::Swizzle(s) => write!(f, "{s}"),
            Func::Composed(c) => write!(f, "{c}"),
            Func::Composition(c) => write!(f, "{c}"),
        }
    }
}

impl From<Layout> for Func {
    fn from(l: Layout) -> Func {
        Func::Layout(l)
    }
}

impl Func {
    /// The function of one integer.
    fn call_index(&self, i: i64) -> Result<i64> {
        match self {
            Func::Layout(l) => l.call_index(i),
            Func::Swizzle(s) => Ok(s.apply(i)),
            Func::Composed(c) => c.call_index(i),
            Func::Composition(c) => c.call_index(i),
        }
    }

    /// The function of a coordinate (a swizzle takes only an integer).
    fn call_coord(&self, c: &IntTuple) -> Result<i64> {
        match (self, c) {
            (Func::Layout(l), _) => l.call_coord(c),
            (Func::Swizzle(s), IntTuple::Int(i) | IntTuple::Dyn(i)) => Ok(s.apply(*i)),
            (Func::Swizzle(_), _) => Err(Error::new("a swizzle is applied to one integer offset")),
            (Func::Composed(x), _) => x.call_coord(c),
            (Func::Composition(x), _) => x.call_coord(c),
        }
    }

    /// The layout that defines the domain (C++'s `layout_b()` all the way in).
    fn domain(&self) -> Result<&Layout> {
        match self {
            Func::Layout(l) => Ok(l),
            Func::Composed(c) => Ok(&c.layout),
            Func::Composition(c) => c.domain(),
            Func::Swizzle(s) => Err(crate::err!(
                "{s} has no shape: the inner function of a composed layout is a layout"
            )),
        }
    }

    fn map_domain(&self, f: impl FnOnce(&Layout) -> Result<Layout>) -> Result<Func> {
        Ok(match self {
            Func::Layout(l) => Func::Layout(f(l)?),
            Func::Composed(c) => Func::Composed(ComposedLayout {
                layout: f(&c.layout)?,
                ..*c
            }),
            Func::Composition(c) => Func::Composition(Box::new(c.map_domain(f)?)),
            Func::Swizzle(_) => {
                self.domain()?;
                unreachable!("a swizzle has no domain")
            }
        })
    }
}

/// CuTe `ComposedLayout<A, Offset, B>` of a layout (or nested composed layout) `A`:
/// `c ↦ A(offset + B(c))`, what `make_composed_layout` builds when the outer function is
/// not a plain swizzle over a layout.
///
/// ```
/// use cute_core::swizzle::LayoutComposition;
/// let c = LayoutComposition::new("(2,8):(8,1)".parse::<cute_core::Layout>().unwrap().into(), 2, "8:1".parse::<cute_core::Layout>().unwrap().into()).unwrap();
/// assert_eq!(c.to_string(), "(2,8):(8,1) o 2 o 8:1");
/// assert_eq!(c.call_index(1).unwrap(), 9); // outer(3) = 1*8 + 1*1
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutComposition {
    /// The outer function (A).
    pub outer: Func,
    /// The offset added between the two.
    pub offset: i64,
    /// The inner function (B), which defines the domain.
    pub inner: Func,
}

impl fmt::Display for LayoutComposition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o {} o {}", self.outer, self.offset, self.inner)
    }
}

impl LayoutComposition {
    /// `make_composed_layout(outer, offset, inner)`; the inner function must have a shape.
    pub fn new(outer: Func, offset: i64, inner: Func) -> Result<LayoutComposition> {
        inner.domain()?;
        Ok(LayoutComposition {
            outer,
            offset,
            inner,
        })
    }

    /// The layout that defines the domain: `layout_b()`, recursively.
    ///
    /// ```
    /// use cute_core::swizzle::{Func, LayoutComposition};
    /// use cute_core::{ComposedLayout, Layout, Swizzle};
    /// let b = ComposedLayout::new(Swizzle::new(3, 0, 3).unwrap(), 0, "(8,8):(8,1)".parse().unwrap());
    /// let c = LayoutComposition::new(Func::Layout("64:1".parse().unwrap()), 0, Func::Composed(b)).unwrap();
    /// assert_eq!(c.domain().unwrap().to_string(), "(8,8):(8,1)");
    /// assert_eq!(c.to_string(), "64:1 o 0 o Sw<3,0,3> o 0 o (8,8):(8,1)");
    /// ```
    pub fn domain(&self) -> Result<&Layout> {
        self.inner.domain()
    }

    /// The composition with its domain layout replaced by `f(domain)` (C++'s divides,
    /// products and coalesce of a composed layout act on `layout_b()`).
    pub fn map_domain(
        &self,
        f: impl FnOnce(&Layout) -> Result<Layout>,
    ) -> Result<LayoutComposition> {
        Ok(LayoutComposition {
            outer: self.outer.clone(),
            offset: self.offset,
            inner: self.inner.map_domain(f)?,
        })
    }

    /// `outer(offset + inner(i))`.
    ///
    /// ```
    /// use cute_core::swizzle::{Func, LayoutComposition};
    /// let c = LayoutComposition { outer: Func::Layout("(2,8):(8,1)".parse().unwrap()), offset: 2, inner: Func::Layout("8:1".parse().unwrap()) };
    /// assert_eq!(c.call_index(1).unwrap(), 9); // outer(2 + 1) = 1*8 + 1*1
    /// ```
    pub fn call_index(&self, i: i64) -> Result<i64> {
        self.outer
            .call_index(arith::add(self.offset, self.inner.call_index(i)?)?)
    }

    /// `outer(offset + inner(c))`.
    ///
    /// ```
    /// use cute_core::swizzle::{Func, LayoutComposition};
    /// let c = LayoutComposition { outer: Func::Layout("(2,8):(8,1)".parse().unwrap()), offset: 2, inner: Func::Layout("8:1".parse().unwrap()) };
    /// assert_eq!(c.call_coord(&cute_core::IntTuple::Int(3)).unwrap(), 10); // outer(5) = 1*8 + 2*1
    /// ```
    pub fn call_coord(&self, c: &IntTuple) -> Result<i64> {
        self.outer
            .call_index(arith::add(self.offset, self.inner.call_coord(c)?)?)
    }
}

/// A layout or a composed layout: what CuTe accepts wherever it takes "a layout", with one
/// checked evaluation used by the language, the bank model and the renderer.
///
/// ```
/// use cute_core::swizzle::{composition, AnyLayout};
/// use cute_core::Swizzle;
/// let l: cute_core::Layout = "(8,8):(8,1)".parse().unwrap();
/// // The identity swizzle with offset 0 folds away, as CuTe's composition(Sw, 0, L) does.
/// assert_eq!(composition(Swizzle::new(0, 4, 3).unwrap(), 0, l.clone()), AnyLayout::Layout(l));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyLayout {
    /// A plain layout.
    Layout(Layout),
    /// `Sw o offset o L`.
    Composed(ComposedLayout),
}

impl fmt::Display for AnyLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyLayout::Layout(l) => write!(f, "{l}"),
            AnyLayout::Composed(c) => write!(f, "{c}"),
        }
    }
}

impl From<Layout> for AnyLayout {
    fn from(l: Layout) -> AnyLayout {
        AnyLayout::Layout(l)
    }
}

impl From<ComposedLayout> for AnyLayout {
    fn from(c: ComposedLayout) -> AnyLayout {
        AnyLayout::Composed(c)
    }
}

impl AnyLayout {
    /// The layout that defines the domain (the inner layout of a composed one).
    ///
    /// ```
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout};
    /// use cute_core::Swizzle;
    /// let c = AnyLayout::Composed(ComposedLayout::new(Swizzle::new(3, 3, 3).unwrap(), 0, "(8,64):(64,1)".parse().unwrap()));
    /// assert_eq!(c.inner().to_string(), "(8,64):(64,1)");
    /// ```
    pub fn inner(&self) -> &Layout {
        match self {
            AnyLayout::Layout(l) => l,
            AnyLayout::Composed(c) => &c.layout,
        }
    }

    /// The same swizzle and offset over another inner layout (what CuTe's algebra does to a
    /// composed layout: it acts on the inner one).
    ///
    /// ```
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout};
    /// use cute_core::Swizzle;
    /// let c = AnyLayout::Composed(ComposedLayout::new(Swizzle::new(3, 3, 3).unwrap(), 0, "(8,64):(64,1)".parse().unwrap()));
    /// assert_eq!(c.with_inner("(64,8):(1,64)".parse().unwrap()).to_string(), "Sw<3,3,3> o 0 o (64,8):(1,64)");
    /// ```
    pub fn with_inner(&self, layout: Layout) -> AnyLayout {
        match self {
            AnyLayout::Layout(_) => AnyLayout::Layout(layout),
            AnyLayout::Composed(c) => AnyLayout::Composed(ComposedLayout {
                layout,
                ..c.clone()
            }),
        }
    }

    /// The swizzle and offset, for a composed layout.
    ///
    /// ```
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout, Offset};
    /// use cute_core::Swizzle;
    /// let sw = Swizzle::new(3, 3, 3).unwrap();
    /// let c = AnyLayout::Composed(ComposedLayout::new(sw, 8, "(8,64):(64,1)".parse().unwrap()));
    /// assert_eq!(c.swizzle(), Some((sw, Offset::Int(8))));
    /// assert_eq!(AnyLayout::Layout("8:1".parse().unwrap()).swizzle(), None);
    /// ```
    pub fn swizzle(&self) -> Option<(Swizzle, Offset)> {
        match self {
            AnyLayout::Layout(_) => None,
            AnyLayout::Composed(c) => Some((c.swizzle, c.offset)),
        }
    }

    /// Elements in the domain.
    ///
    /// ```
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout};
    /// use cute_core::Swizzle;
    /// let c = AnyLayout::Composed(ComposedLayout::new(Swizzle::new(3, 4, 4).unwrap(), 0, "(2,4):(4,4)".parse().unwrap()));
    /// assert_eq!(c.size().unwrap(), 8);
    /// ```
    pub fn size(&self) -> Result<i64> {
        self.inner().size()
    }

    /// The element width of a shared-memory layout: its `smem_ptr[Nb]` flag's, else
    /// `given`; when both are there they must agree. `None` when neither says.
    ///
    /// ```
    /// use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
    /// let a = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 16).unwrap();
    /// assert_eq!(a.element_bits(None).unwrap(), Some(16));
    /// assert!(a.element_bits(Some(32)).is_err());
    /// ```
    pub fn element_bits(&self, given: Option<i64>) -> Result<Option<i64>> {
        match (self.swizzle(), given) {
            (Some((_, Offset::SmemPtr { bits })), Some(e)) if e != bits => Err(crate::err!(
                "the layout is of {bits}-bit elements (smem_ptr[{bits}b]), not {e}-bit ones"
            )),
            (Some((_, Offset::SmemPtr { bits })), _) => Ok(Some(bits)),
            (_, given) => Ok(given),
        }
    }

    /// The offset of linear index `i` before the swizzle: `offset + L(i)` (checked).
    ///
    /// ```
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout};
    /// use cute_core::Swizzle;
    /// let c = AnyLayout::Composed(ComposedLayout::new(Swizzle::new(3, 4, 3).unwrap(), 0, "(8,64):(64,1)".parse().unwrap()));
    /// assert_eq!(c.unswizzled(2).unwrap(), 128);
    /// assert_eq!(c.call_index(2).unwrap(), 144);
    /// ```
    pub fn unswizzled(&self, i: i64) -> Result<i64> {
        match self {
            AnyLayout::Layout(l) => l.call_index(i),
            AnyLayout::Composed(c) => arith::add(c.offset.value(), c.layout.call_index(i)?),
        }
    }

    /// The offset of linear index `i` (swizzled for a composed layout).
    ///
    /// ```
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout};
    /// use cute_core::Swizzle;
    /// let c = AnyLayout::Composed(ComposedLayout::new(Swizzle::new(3, 3, 3).unwrap(), 0, "(16,2,8):(4,4,64)".parse().unwrap()));
    /// assert_eq!(c.call_index(176).unwrap(), 364);
    /// assert_eq!(AnyLayout::Layout("(4,8):(8,1)".parse().unwrap()).call_index(13).unwrap(), 11);
    /// ```
    pub fn call_index(&self, i: i64) -> Result<i64> {
        match self {
            AnyLayout::Layout(l) => l.call_index(i),
            AnyLayout::Composed(c) => c.call_index(i),
        }
    }

    /// The offset of a coordinate (swizzled for a composed layout).
    ///
    /// ```
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout};
    /// use cute_core::Swizzle;
    /// let c = AnyLayout::Composed(ComposedLayout::new(Swizzle::new(3, 4, 3).unwrap(), 0, "(8,64):(64,1)".parse().unwrap()));
    /// assert_eq!(c.call_coord(&"(2,0)".parse().unwrap()).unwrap(), 144);
    /// ```
    pub fn call_coord(&self, crd: &IntTuple) -> Result<i64> {
        match self {
            AnyLayout::Layout(l) => l.call_coord(crd),
            AnyLayout::Composed(c) => c.call_coord(crd),
        }
    }

    /// A layout operation on the domain: applied to the inner layout of a composed one.
    ///
    /// ```
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout};
    /// use cute_core::Swizzle;
    /// use cute_core::layout::{composition_tiler, Tiler};
    /// let c = AnyLayout::Composed(ComposedLayout::new(Swizzle::new(1, 3, 1).unwrap(), 0, "(8,64):(64,1)".parse().unwrap()));
    /// let r = c.map_inner(|l| composition_tiler(l, &Tiler::Int(4))).unwrap();
    /// assert_eq!(r.to_string(), "Sw<1,3,1> o 0 o 4:64");
    /// ```
    pub fn map_inner(&self, f: impl FnOnce(&Layout) -> Result<Layout>) -> Result<AnyLayout> {
        match self {
            AnyLayout::Layout(l) => Ok(AnyLayout::Layout(f(l)?)),
            AnyLayout::Composed(c) => c.map_inner(f),
        }
    }

    /// CuTe `upcast<N>` (`up`) or `downcast<N>`: a plain layout as
    /// [`crate::layout::upcast`]; a composed layout with the pointer flag keeps its swizzle and
    /// rescales the flag (`pointer_flagged.hpp`); any other composed layout rescales all three
    /// parts (`layout_composed.hpp`).
    ///
    /// ```
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout, Offset};
    /// use cute_core::Swizzle;
    /// let bits = AnyLayout::Composed(ComposedLayout {
    ///     swizzle: Swizzle::new(3, 4, 3).unwrap(),
    ///     offset: Offset::SmemPtr { bits: 1 },
    ///     layout: "(8,1024):(1024,1)".parse().unwrap(),
    /// });
    /// let half = bits.cast(16, true).unwrap();
    /// assert_eq!(half.to_string(), "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)");
    /// ```
    pub fn cast(&self, n: i64, up: bool) -> Result<AnyLayout> {
        let layout_cast = |l: &Layout| {
            if up {
                layout::upcast(n, l)
            } else {
                layout::downcast(n, l)
            }
        };
        match self {
            AnyLayout::Layout(l) => Ok(AnyLayout::Layout(layout_cast(l)?)),
            AnyLayout::Composed(c) => {
                let offset = match c.offset {
                    Offset::SmemPtr { bits } if up => Offset::SmemPtr {
                        bits: arith::mul(bits, n)?,
                    },
                    Offset::SmemPtr { bits } => {
                        if n <= 0 || bits % n != 0 {
                            return Err(crate::err!(
                                "downcast<{n}> of smem_ptr[{bits}b]: {n} does not divide {bits}"
                            ));
                        }
                        Offset::SmemPtr { bits: bits / n }
                    }
                    Offset::Int(o) if up => {
                        if n <= 0 || o % n != 0 {
                            return Err(crate::err!(
                                "upcast<{n}> of offset {o}: {n} does not divide it"
                            ));
                        }
                        Offset::Int(o / n)
                    }
                    Offset::Int(o) => Offset::Int(arith::mul(o, n)?),
                    Offset::Mixed { .. } => {
                        return Err(crate::err!(
                        "{}cast of {c}: an offset with run-time bits (MixedBits) is not modelled",
                        if up { "up" } else { "down" }
                    ))
                    }
                };
                let swizzle = match (c.offset, up) {
                    (Offset::SmemPtr { .. }, _) => c.swizzle,
                    (_, true) => c.swizzle.upcast(n)?,
                    (_, false) => c.swizzle.downcast(n)?,
                };
                // C++ keeps a swizzle cast down to `Sw<0,0,S>` (the identity) in the type.
                Ok(AnyLayout::Composed(ComposedLayout {
                    swizzle,
                    offset,
                    layout: layout_cast(&c.layout)?,
                }))
            }
        }
    }

    /// CuTe `recast_layout<Old, New>(layout)` of a layout or a composed layout: the
    /// `cast`s of `new_bits / old_bits` in lowest terms (upcast first).
    ///
    /// ```
    /// use cute_core::{swizzle::composition, Swizzle};
    /// let l = composition(Swizzle::new(3, 3, 3).unwrap(), 0, "(8,64):(64,1)".parse().unwrap());
    /// assert_eq!(l.recast(16, 128).unwrap().to_string(), "Sw<3,0,3> o 0 o (8,8):(8,1)");
    /// assert_eq!(l.recast(16, 8).unwrap().to_string(), "Sw<3,4,3> o 0 o (8,128):(128,1)");
    /// ```
    pub fn recast(&self, old_bits: i64, new_bits: i64) -> Result<AnyLayout> {
        match crate::layout::bit_ratio(old_bits, new_bits)? {
            (1, 1) => Ok(self.clone()),
            (1, d) => self.cast(d, false),
            (n, 1) => self.cast(n, true),
            (n, d) => self.cast(n, true)?.cast(d, false),
        }
    }

    /// CuTe `domain_offset(coord, layout)`: the layout with its domain moved to `coord`,
    /// and the offset a tensor's iterator moves by. A plain layout keeps its layout and
    /// gives `L(coord)`; a composed one keeps the iterator and takes `L_B(coord)` into its
    /// offset (`Sw o (O + L_B(coord)) o L_B`), as `layout_composed.hpp` does.
    ///
    /// ```
    /// use cute_core::{int_tuple::IntTuple, swizzle::composition, Swizzle};
    /// let l = composition(Swizzle::new(2, 0, 3).unwrap(), 0, "(8,8):(8,1)".parse().unwrap());
    /// let crd: IntTuple = "(2,3)".parse().unwrap();
    /// let (moved, by) = l.domain_offset(&crd).unwrap();
    /// assert_eq!((moved.to_string().as_str(), by), ("Sw<2,0,3> o 19 o (8,8):(8,1)", 0));
    /// ```
    pub fn domain_offset(&self, coord: &IntTuple) -> Result<(AnyLayout, i64)> {
        match self {
            AnyLayout::Layout(l) => Ok((self.clone(), l.call_coord(coord)?)),
            AnyLayout::Composed(c) => {
                let Offset::Int(o) = c.offset else {
                    return Err(crate::err!(
                        "domain_offset of {c}: C++ adds an offset only to an integer one"
                    ));
                };
                let off = arith::add(o, c.layout.call_coord(coord)?)?;
                Ok((composition(c.swizzle, off, c.layout.clone()), 0))
            }
        }
    }

    /// The element width a shared-memory atom's pointer flag carries (`smem_ptr[Nb]`).
    ///
    /// ```
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout, Offset};
    /// use cute_core::Swizzle;
    /// let atom = ComposedLayout {
    ///     swizzle: Swizzle::new(3, 4, 3).unwrap(),
    ///     offset: Offset::SmemPtr { bits: 32 },
    ///     layout: "(8,32):(32,1)".parse().unwrap(),
    /// };
    /// assert_eq!(AnyLayout::Composed(atom).smem_ptr_bits(), Some(32));
    /// assert_eq!(AnyLayout::Layout("8:1".parse().unwrap()).smem_ptr_bits(), None);
    /// ```
    pub fn smem_ptr_bits(&self) -> Option<i64> {
        match self {
            AnyLayout::Composed(ComposedLayout {
                offset: Offset::SmemPtr { bits },
                ..
            }) => Some(*bits),
            _ => None,
        }
    }

    /// The layout in element units, as CuTe addresses a shared-memory tensor built on it
    /// (`as_position_independent_swizzle_layout`): a composed layout whose offset is the
    /// `smem_ptr[Bb]` flag has its byte-address swizzle recast to `B`-bit elements and
    /// offset 0; anything else is returned as it is.
    ///
    /// ```
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout, Offset};
    /// use cute_core::Swizzle;
    /// let atom = ComposedLayout {
    ///     swizzle: Swizzle::new(3, 4, 3).unwrap(),
    ///     offset: Offset::SmemPtr { bits: 16 },
    ///     layout: "(8,64):(64,1)".parse().unwrap(),
    /// };
    /// let e = AnyLayout::Composed(atom).in_elements().unwrap();
    /// assert_eq!(e.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
    /// ```
    pub fn in_elements(&self) -> Result<AnyLayout> {
        match self {
            AnyLayout::Composed(c) => match c.offset {
                Offset::SmemPtr { bits } => {
                    Ok(composition(c.swizzle.recast(8, bits)?, 0, c.layout.clone()))
                }
                Offset::Int(_) | Offset::Mixed { .. } => Ok(self.clone()),
            },
            AnyLayout::Layout(_) => Ok(self.clone()),
        }
    }
}

/// CuTe `composition(Swizzle, Offset, Layout)`: the identity swizzle with offset 0 is dropped
/// (the pointer flag is not an `Int<0>` to C++'s overload, so it is kept).
///
/// ```
/// use cute_core::swizzle::{composition, AnyLayout};
/// use cute_core::{Layout, Swizzle};
/// let l: Layout = "(8,64):(64,1)".parse().unwrap();
/// let c = composition(Swizzle::new(3, 4, 3).unwrap(), 0, l.clone());
/// assert_eq!(c.to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
/// // Sw<0,M,S> with offset 0 is the identity: the plain layout is returned.
/// assert_eq!(composition(Swizzle::new(0, 4, 3).unwrap(), 0, l.clone()), AnyLayout::Layout(l));
/// ```
pub fn composition(swizzle: Swizzle, offset: impl Into<Offset>, layout: Layout) -> AnyLayout {
    let offset = offset.into();
    if swizzle.b == 0 && offset == Offset::Int(0) {
        AnyLayout::Layout(layout)
    } else {
        AnyLayout::Composed(ComposedLayout {
            swizzle,
            offset,
            layout,
        })
    }
}

impl ComposedLayout {
    /// `make_composed_layout(swizzle, offset, layout)`: kept composed even for `Sw<0,..>`.
    ///
    /// ```
    /// use cute_core::{ComposedLayout, Layout, Swizzle};
    /// let l: Layout = "(8,64):(64,1)".parse().unwrap();
    /// let c = ComposedLayout::new(Swizzle::new(0, 4, 3).unwrap(), 0, l);
    /// assert_eq!(c.to_string(), "Sw<0,4,3> o 0 o (8,64):(64,1)");
    /// ```
    pub fn new(swizzle: Swizzle, offset: i64, layout: Layout) -> ComposedLayout {
        ComposedLayout {
            swizzle,
            offset: Offset::Int(offset),
            layout,
        }
    }

    fn finish(&self, inner: i64) -> Result<i64> {
        Ok(self.swizzle.apply(arith::add(self.offset.value(), inner)?))
    }

    /// The swizzled offset of linear index `i`.
    ///
    /// ```
    /// use cute_core::{ComposedLayout, Layout, Swizzle};
    /// let c = ComposedLayout::new(Swizzle::new(3, 3, 3).unwrap(), 0, "(16,2,8):(4,4,64)".parse().unwrap());
    /// assert_eq!(c.call_index(176).unwrap(), 364);
    /// ```
    pub fn call_index(&self, i: i64) -> Result<i64> {
        self.finish(self.layout.call_index(i)?)
    }

    /// The swizzled offset of a coordinate.
    ///
    /// ```
    /// use cute_core::{ComposedLayout, Layout, Swizzle};
    /// let c = ComposedLayout::new(Swizzle::new(2, 4, 3).unwrap(), 0, "((2),8):((1),2)".parse().unwrap());
    /// assert_eq!(c.call_coord(&"((1),5)".parse().unwrap()).unwrap(), 11);
    /// ```
    pub fn call_coord(&self, c: &IntTuple) -> Result<i64> {
        self.finish(self.layout.call_coord(c)?)
    }

    /// `composition(composed, tiler)`: compose the inner layout.
    ///
    /// ```
    /// use cute_core::{ComposedLayout, Layout, Swizzle};
    /// use cute_core::layout::Tiler;
    /// let c = ComposedLayout::new(Swizzle::new(3, 4, 4).unwrap(), 0, "(8,64):(64,1)".parse().unwrap());
    /// let t = Tiler::Layout("4:2".parse().unwrap());
    /// assert_eq!(c.compose(&t).unwrap().to_string(), "Sw<3,4,4> o 0 o 4:128");
    /// ```
    pub fn compose(&self, tiler: &Tiler) -> Result<AnyLayout> {
        self.map_inner(|l| layout::composition_tiler(l, tiler))
    }

    /// CuTe's `composition(A, O, op(B))`: a layout operation (divide, product, flatten, mode
    /// access…) applied to the inner layout.
    ///
    /// ```
    /// use cute_core::{ComposedLayout, Layout, Swizzle};
    /// use cute_core::layout::{logical_divide, Tiler};
    /// let c = ComposedLayout::new(Swizzle::new(1, 4, 3).unwrap(), 0, "(64,8):(1,64)".parse().unwrap());
    /// let t = Tiler::Tuple(vec![Tiler::Layout("4:1".parse().unwrap())]);
    /// let d = c.map_inner(|l| logical_divide(l, &t)).unwrap();
    /// assert_eq!(d.to_string(), "Sw<1,4,3> o 0 o ((4,16),8):((1,4),64)");
    /// ```
    pub fn map_inner(&self, f: impl FnOnce(&Layout) -> Result<Layout>) -> Result<AnyLayout> {
        Ok(composition(self.swizzle, self.offset, f(&self.layout)?))
    }

    /// CuTe `slice(coord, composed)`: where the sliced layout no longer touches both halves
    /// of a swizzled bit pair, the swizzle decays into (possibly negative) strides and the
    /// result is a plain layout; otherwise the fixed coordinates' swizzled bits move into
    /// the offset.
    ///
    /// ```
    /// use cute_core::int_tuple::Coord;
    /// use cute_core::swizzle::{ComposedLayout, Swizzle};
    /// let c = ComposedLayout::new(Swizzle::new(3, 2, 3).unwrap(), 0, "(8,32):(32,1)".parse().unwrap());
    /// let v = c.slice(&Coord::Tuple(vec![Coord::Int(7), Coord::Under])).unwrap();
    /// assert_eq!(v.to_string(), "((4,8)):((1,-4))");
    /// ```
    pub fn slice(&self, c: &Coord) -> Result<AnyLayout> {
        self.slice_dynamic(c, &[])
    }

    /// [`ComposedLayout::slice`] where `dynamic[i]` says whether the `i`-th fixed coordinate
    /// (in order) is a run-time integer: C++ then cannot know the swizzle bits it sets, and
    /// the strides it would pick by them stay dynamic (`conditional_return` of a run-time
    /// condition), so the swizzle's bit modes are not merged.
    ///
    /// ```
    /// use cute_core::{int_tuple::Coord, swizzle::ComposedLayout, Layout, Swizzle};
    /// let c = ComposedLayout::new(Swizzle::new(3, 3, 3).unwrap(), 0, "(8,64):(64,1)".parse::<Layout>().unwrap());
    /// let at = Coord::Tuple(vec![Coord::Under, Coord::Int(0)]);
    /// assert_eq!(c.slice(&at).unwrap().to_string(), "(8):(72)");
    /// assert_eq!(c.slice_dynamic(&at, &[true]).unwrap().to_string(), "((2,2,2)):((72,144,288))");
    /// ```
    pub fn slice_dynamic(&self, c: &Coord, dynamic: &[bool]) -> Result<AnyLayout> {
        Ok(self.slice_and_offset(c, dynamic)?.0)
    }

    /// CuTe `slice_and_offset(coord, composed)`: [`ComposedLayout::slice_dynamic`]'s layout
    /// and the offset a tensor's iterator moves by (the fixed coordinates' bits the swizzle
    /// does not touch; where the swizzle decays, all of the swizzled offset).
    ///
    /// ```
    /// use cute_core::{int_tuple::Coord, swizzle::ComposedLayout, Layout, Swizzle};
    /// let c = ComposedLayout::new(Swizzle::new(2, 3, 3).unwrap(), 0, "((8,8),(32,1)):((32,256),(1,0))".parse::<Layout>().unwrap());
    /// let at = Coord::Tuple(vec![Coord::Int(3), Coord::Under]);
    /// let (l, off) = c.slice_and_offset(&at, &[]).unwrap();
    /// assert_eq!((l.to_string(), off), ("(((8,2,2),1)):(((1,-8,16),0))".to_string(), 104));
    /// ```
    pub fn slice_and_offset(&self, c: &Coord, dynamic: &[bool]) -> Result<(AnyLayout, i64)> {
        if c.all_underscore() {
            return Ok((
                composition(self.swizzle, self.offset, self.layout.slice(c)?),
                0,
            ));
        }
        let Swizzle { b, m, s } = self.swizzle;
        let sa = s.abs();
        // Projections of the swizzle: only the Y/Z bits, and everything but them.
        let sw_shape = IntTuple::ints(&[1 << m, 1 << b, 1 << (sa - b), 1 << b, 1]);
        let sw_stride = crate::int_tuple::compact_col_major(&sw_shape, 1)?.leaves();
        let size = 1i64 << (m + b + sa);
        let anti_zy = Layout::new(
            sw_shape.clone(),
            IntTuple::ints(&[sw_stride[0], 0, sw_stride[2], 0, size]),
        )?;
        let only_zy = Layout::new(
            sw_shape,
            IntTuple::ints(&[0, sw_stride[1], 0, sw_stride[3], 0]),
        )?;

        let sliced = self.layout.slice(c)?;
        let diced = self.layout.dice(c)?;
        let diced_coord = c.diced();
        let diced_anti = layout::composition(&anti_zy, &diced)?;
        let diced_only = layout::composition(&only_zy, &diced)?;
        let offset_only = self.offset.value() ^ to_mixed_bits(&diced_only, &diced_coord)?;
        // C++'s `^` of MixedBits: the run-time bits of either side stay run-time ones.
        // The bits of the offset a run-time coordinate may set (MixedBits' dynamic field).
        let unknown = self.offset.mask()
            | if dynamic.iter().any(|d| *d) {
                dynamic_bits(
                    &diced_coord,
                    diced_only.shape(),
                    diced_only.stride(),
                    &mut dynamic.iter(),
                )?
            } else {
                0
            };
        // The offset that passes the swizzle by (slice() drops it; a tensor moves by it).
        let offset_anti = diced_anti.call_coord(&diced_coord)?;

        let sliced_only = layout::composition(&only_zy, &sliced)?;
        let active = sliced_only.call_index(arith::sub(sliced_only.size()?, 1)?)?;
        if active & !self.swizzle.apply(active) != 0 {
            // The slice still hits both Y and Z bits: not reducible.
            return Ok((
                composition(self.swizzle, Offset::mixed(offset_only, unknown), sliced),
                offset_anti,
            ));
        }
        let z = self.swizzle.zzz_mask() & -self.swizzle.zzz_mask();
        let y = self.swizzle.yyy_mask() & -self.swizzle.yyy_mask();
        let lo = swizzle_strides(z < y, z, y, offset_only, unknown, b);
        let hi = swizzle_strides(z > y, z, y, offset_only, unknown, b);
        let mut shape = vec![1i64 << m];
        shape.extend(std::iter::repeat_n(2, b as usize));
        shape.push(1 << (sa - b));
        shape.extend(std::iter::repeat_n(2, b as usize));
        shape.push(1);
        let mut stride = vec![Num::fixed(1)];
        stride.extend(lo);
        stride.push(Num::fixed(1 << (m + b)));
        stride.extend(hi);
        stride.push(Num::fixed(size));
        let swizzle_layout = Layout::new(IntTuple::ints(&shape), IntTuple::nums(&stride))?;
        Ok((
            AnyLayout::Layout(layout::composition(&swizzle_layout, &sliced)?),
            arith::add(self.swizzle.apply(offset_only), offset_anti)?,
        ))
    }
}

fn log2_exact(n: i64, what: &str) -> Result<i64> {
    if n <= 0 || n.count_ones() != 1 {
        return Err(crate::err!(
            "{what}<{n}> of a swizzle: N must be a power of two"
        ));
    }
    Ok(i64::from(n.trailing_zeros()))
}

/// CuTe `detail::make_swizzle_strides`: the stride of each swizzled bit of one group, given
/// which partner bits the offset already has set; dynamic where the bit tested is one a
/// run-time coordinate may set (`unknown`).
fn swizzle_strides(z_group: bool, z: i64, y: i64, offset: i64, unknown: i64, b: i64) -> Vec<Num> {
    (0..b)
        .map(|i| {
            let (bit, set, clear) = if z_group {
                (y << i, -(z << i), z << i)
            } else {
                (z << i, (y - z) << i, (y + z) << i)
            };
            let v = if offset & bit == 0 { clear } else { set };
            Num {
                v,
                fixed: unknown & bit == 0,
            }
        })
        .collect()
}

/// The dynamic field of CuTe's `to_mixed_bits`: for each run-time coordinate (`dynamic`,
/// in the order of the coordinate's leaves), every bit its part of the layout can set,
/// `(shape - 1) * stride` of each leaf.
fn dynamic_bits(
    coord: &IntTuple,
    shape: &IntTuple,
    stride: &IntTuple,
    dynamic: &mut std::slice::Iter<'_, bool>,
) -> Result<i64> {
    match (coord, shape, stride) {
        (IntTuple::Tuple(cs), IntTuple::Tuple(ss), IntTuple::Tuple(ds))
            if cs.len() == ss.len() && ss.len() == ds.len() =>
        {
            let mut acc = 0;
            for ((c, s), d) in cs.iter().zip(ss).zip(ds) {
                acc |= dynamic_bits(c, s, d, dynamic)?;
            }
            Ok(acc)
        }
        (IntTuple::Tuple(cs), _, _) => {
            // A coordinate finer than the layout's modes: any run-time leaf makes all of
            // them unknown.
            let any = cs.iter().map(|c| c.leaf_count()).sum::<usize>();
            let dyn_any = dynamic.take(any).any(|d| *d);
            if dyn_any {
                field(shape, stride)
            } else {
                Ok(0)
            }
        }
        _ => {
            if dynamic.next().copied().unwrap_or(false) {
                field(shape, stride)
            } else {
                Ok(0)
            }
        }
    }
}

/// Every bit the offsets of `shape:stride` can set.
fn field(shape: &IntTuple, stride: &IntTuple) -> Result<i64> {
    let mut acc = 0;
    for (s, d) in shape.leaves().into_iter().zip(stride.leaves()) {
        acc |= arith::mul(arith::sub(s, 1)?, d)?;
    }
    Ok(acc)
}

/// CuTe `to_mixed_bits(layout, coord)` for static values: the XOR of `c_i * d_i` over the
/// leaves; every leaf must have a power-of-two (or zero) `shape * stride`.
fn to_mixed_bits(l: &Layout, coord: &IntTuple) -> Result<i64> {
    let c = crate::int_tuple::idx2crd(coord, l.shape())?;
    if !c.congruent(l.shape()) {
        return Err(crate::err!(
            "coordinate {c} does not match the profile of {}",
            l.shape()
        ));
    }
    let mut acc = 0i64;
    for ((sn, dn), ci) in l
        .shape()
        .leaf_nums()
        .into_iter()
        .zip(l.stride().leaf_nums())
        .zip(c.leaves())
    {
        let (s, d) = (sn.v, dn.v);
        // C++ asserts a power of two on the static product (`decltype(shape*stride)::value`).
        if !sn.mul(dn)?.is_static() {
            return Err(crate::err!(
                "slicing a swizzled layout needs a static shape*stride, got the run-time {s}*{d} (C++ refuses it)"
            ));
        }
        let sd = arith::mul(s, d)?;
        if sd != 0 && (sd < 0 || sd.count_ones() != 1) {
            return Err(crate::err!(
                "slicing this swizzled layout requires power-of-two shape*stride, got {s}*{d}"
            ));
        }
        acc ^= arith::mul(ci, d)?;
    }
    Ok(acc)
}
