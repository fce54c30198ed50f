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

/// What a grid's cells are labelled with (`--labels`, the page's Labels menu, the
/// `labels` URL parameter). Each view has its own default ([`Labels::Auto`]): offsets in
/// the layout, swizzle and algebra views, `T#`/`V#` in the thread-value views, values in
/// the compare view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Labels {
    /// The view's own label.
    #[default]
    Auto,
    /// The offset (the layout's value at the cell); the view's own where it has none.
    Offset,
    /// The cell's 1-D index (column-major over the domain's shape).
    Index,
    /// The cell's natural (hierarchical) coordinate in the domain's shape.
    Coord,
    /// The cell's flat (row, column) in the drawn grid.
    Flat,
    /// Thread and value (`T#`/`V#`) where the view has them; the view's own elsewhere.
    Tv,
    /// No text.
    None,
}

impl Labels {
    /// Every label kind, in menu order.
    ///
    /// ```
    /// use cute_render::view::Labels;
    /// for l in Labels::ALL {
    ///     assert_eq!(Labels::parse(l.name()), Some(*l));
    /// }
    /// ```
    pub const ALL: &'static [Labels] = &[
        Labels::Auto,
        Labels::Offset,
        Labels::Index,
        Labels::Coord,
        Labels::Flat,
        Labels::Tv,
        Labels::None,
    ];

    /// The name `--labels` takes and the URL carries.
    pub fn name(self) -> &'static str {
        match self {
            Labels::Auto => "auto",
            Labels::Offset => "offset",
            Labels::Index => "index",
            Labels::Coord => "coord",
            Labels::Flat => "flat",
            Labels::Tv => "tv",
            Labels::None => "none",
        }
    }

    /// Parse a name (the inverse of [`Labels::name`]).
    pub fn parse(s: &str) -> Option<Labels> {
        Labels::ALL.iter().copied().find(|l| l.name() == s)
    }

    /// What the cells say, for a subtitle: `own` (the view's label) unless another is
    /// chosen.
    ///
    /// ```
    /// use cute_render::view::Labels;
    /// assert_eq!(Labels::Auto.says("offset"), "offset");
    /// assert_eq!(Labels::Coord.says("offset"), "its natural coordinate");
    /// ```
    pub fn says(self, own: &str) -> String {
        match self {
            Labels::Index => "its index".into(),
            Labels::Coord => "its natural coordinate".into(),
            Labels::Flat => "its (row, column)".into(),
            Labels::None => "blank".into(),
            Labels::Auto | Labels::Offset | Labels::Tv => own.into(),
        }
    }

    /// A cell's label for the kinds every grid has, from its 1-D index `idx` over `shape`
    /// and its (row, column); `None` where the view's own label stands (auto, offset, tv).
    ///
    /// ```
    /// use cute_render::view::Labels;
    /// let shape = "((2,2),4)".parse().unwrap();
    /// assert_eq!(Labels::Coord.generic(5, &shape, (1, 1)).as_deref(), Some("((1,0),1)"));
    /// assert_eq!(Labels::Index.generic(5, &shape, (1, 1)).as_deref(), Some("5"));
    /// assert_eq!(Labels::Flat.generic(5, &shape, (1, 1)).as_deref(), Some("(1,1)"));
    /// assert_eq!(Labels::Offset.generic(5, &shape, (1, 1)), None);
    /// ```
    pub fn generic(
        self,
        idx: usize,
        shape: &cute_core::IntTuple,
        (row, col): (usize, usize),
    ) -> Option<String> {
        match self {
            Labels::Index => Some(idx.to_string()),
            Labels::Coord => Some(
                cute_core::int_tuple::idx2crd(
                    &cute_core::IntTuple::Int(i64::try_from(idx).unwrap_or(i64::MAX)),
                    shape,
                )
                .map_or_else(|_| idx.to_string(), |c| c.to_string()),
            ),
            Labels::Flat => Some(format!("({row},{col})")),
            Labels::None => Some(String::new()),
            Labels::Auto | Labels::Offset | Labels::Tv => None,
        }
    }
}
