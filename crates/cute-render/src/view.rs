//! Which picture to draw: the [`View`] names that `--view`, the page's menu and a
//! figure's `data-view` share. Below the figure model and the views, which both name it.

/// Which picture to draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum View {
    /// Inferred from the value: layout → layout, composed → swizzle, (tile, tv) → tv,
    /// MMA → mma, copy → copy, bank analysis → banks, coalescing analysis → coalescing.
    #[default]
    Auto,
    /// Offsets of a layout.
    Layout,
    /// A composed layout before and after its swizzle.
    Swizzle,
    /// A thread-value layout.
    Tv,
    /// A/B/C of an MMA.
    Mma,
    /// S/D of a copy.
    Copy,
    /// Shared-memory banks of an access.
    Banks,
    /// The ranking of a swizzle search.
    Search,
    /// The operands and the result of an algebra operation, side by side.
    Algebra,
    /// A GMMA/UMMA descriptor's fields, and the operand block it describes.
    Descriptor,
    /// Blackwell tensor memory: an UMMA accumulator or a TMEM load/store atom.
    Tmem,
    /// A TMA box over the global tile and its landing in shared memory.
    Tma,
    /// A thread's partition of a tensor (`partition_A/B/C`, `partition_S/D`): the whole
    /// tile coloured by owner, the thread's part highlighted.
    Partition,
    /// Global-memory coalescing of an access: the lines and sectors each warp instruction
    /// touches, the bytes its lanes ask for.
    Coalescing,
    /// A swizzle or a layout linear over GF(2) as its bit matrix (columns = input bits,
    /// rows = output bits).
    Bits,
    /// Two functions side by side (`functionally_equal(A, B)`), the cells where they
    /// differ marked and counted.
    Compare,
    /// A whole kernel's configuration block checked at once (`render --report`): a row per
    /// smem buffer, copy and MMA with its verdict; a row opens the object's own view.
    Kernel,
}

impl View {
    /// Every view, in menu order (`auto` first).
    ///
    /// ```
    /// use cute_render::View;
    /// for v in View::ALL {
    ///     assert_eq!(View::parse(v.name()), Some(*v));
    /// }
    /// assert_eq!(View::ALL.len(), 17);
    /// ```
    pub const ALL: &'static [View] = &[
        View::Auto,
        View::Layout,
        View::Swizzle,
        View::Tv,
        View::Mma,
        View::Copy,
        View::Banks,
        View::Search,
        View::Algebra,
        View::Descriptor,
        View::Tmem,
        View::Tma,
        View::Partition,
        View::Coalescing,
        View::Bits,
        View::Compare,
        View::Kernel,
    ];

    /// The view's name: what [`View::parse`] reads, `--view` takes and a figure's
    /// `data-view` says.
    ///
    /// ```
    /// use cute_render::View;
    /// assert_eq!(View::Algebra.name(), "algebra");
    /// assert_eq!(View::parse("search"), Some(View::Search));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            View::Auto => "auto",
            View::Layout => "layout",
            View::Swizzle => "swizzle",
            View::Tv => "tv",
            View::Mma => "mma",
            View::Copy => "copy",
            View::Banks => "banks",
            View::Search => "search",
            View::Algebra => "algebra",
            View::Descriptor => "descriptor",
            View::Tmem => "tmem",
            View::Tma => "tma",
            View::Partition => "partition",
            View::Coalescing => "coalescing",
            View::Bits => "bits",
            View::Compare => "compare",
            View::Kernel => "kernel",
        }
    }

    /// Parse a view name (the inverse of [`View::name`]).
    pub fn parse(s: &str) -> Option<View> {
        View::ALL.iter().copied().find(|v| v.name() == s)
    }
}
