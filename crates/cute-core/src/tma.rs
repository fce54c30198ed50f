//! Hopper TMA (`cp.async.bulk.tensor`): the shared-memory swizzle mode a tensor map needs
//! for a shared-memory layout, as `make_tma_copy` derives it (`get_tma_swizzle_bits`,
//! `get_tma_swizzle_base`, `to_CUtensorMapSwizzle`).
//!
//! ```
//! use cute_core::tma::tma_swizzle;
//! use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
//! let sw128 = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 16).unwrap();
//! assert_eq!(tma_swizzle(&sw128).unwrap(), "CU_TENSOR_MAP_SWIZZLE_128B");
//! let sw32b = smem_atom(AtomMajor::MN, AtomSwizzle::Sw128Base32B, 32).unwrap();
//! assert_eq!(tma_swizzle(&sw32b).unwrap(), "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B");
//! ```

use crate::error::{Error, Result};
use crate::swizzle::{AnyLayout, Swizzle};

/// The `CUtensorMapSwizzle` a TMA copy into a shared-memory layout uses. The layout's
/// swizzle is taken as written (`get_swizzle_portion`): the GMMA/UMMA atoms' byte-address
/// swizzle, `Sw<0,4,3>` for a plain layout. Errors carry CuTe's static_assert messages.
///
/// ```
/// use cute_core::layout::{tile_to_shape, ModeOrder};
/// use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
/// use cute_core::swizzle::AnyLayout;
/// use cute_core::IntTuple;
/// use cute_core::tma::tma_swizzle;
/// // tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, Shape<_8,_32>{})
/// let atom = smem_atom(AtomMajor::K, AtomSwizzle::Sw64, 16).unwrap();
/// let trg: IntTuple = "(8,32)".parse().unwrap();
/// let smem = atom.map_inner(|l| tile_to_shape(l, &trg, &ModeOrder::ColMajor)).unwrap();
/// assert_eq!(tma_swizzle(&smem).unwrap(), "CU_TENSOR_MAP_SWIZZLE_64B");
/// // A plain layout: Layout<Shape<_64,_64>,Stride<_64,_1>>{}
/// let plain = AnyLayout::Layout("(64,64):(64,1)".parse().unwrap());
/// assert_eq!(tma_swizzle(&plain).unwrap(), "CU_TENSOR_MAP_SWIZZLE_NONE");
/// ```
pub fn tma_swizzle(smem: &AnyLayout) -> Result<&'static str> {
    let sw = smem
        .swizzle()
        .map_or(Swizzle { b: 0, m: 4, s: 3 }, |(s, _)| s);
    let Swizzle { b, m, s } = sw;
    let err = |msg: &str| Err(crate::err!("{msg} ({sw})"));
    // get_tma_swizzle_bits
    let bits = match m {
        4 if !(0..=3).contains(&b) => {
            return err("Expected B = 0,1,2, or 3 when M == 4. Unsupported layout swizzle.")
        }
        4 => b,
        5 | 6 if b != 2 => {
            return err("Expected B = 2 when M == 5 or 6. Unsupported layout swizzle.")
        }
        5 | 6 => 3,
        _ => return err("Unsupported layout swizzle."),
    };
    // get_tma_swizzle_base: 16, 32 or 64 bytes
    let base = match m {
        4 if s != 3 => return err("Expected S = 3 when M == 4. Unsupported layout swizzle."),
        5 if s != 2 => return err("Expected S = 2 when M == 5. Unsupported layout swizzle."),
        4 => 16,
        5 => 32,
        _ => 64,
    };
    // to_CUtensorMapSwizzle
    Ok(match (bits, base) {
        (0, 16) => "CU_TENSOR_MAP_SWIZZLE_NONE",
        (1, 16) => "CU_TENSOR_MAP_SWIZZLE_32B",
        (2, 16) => "CU_TENSOR_MAP_SWIZZLE_64B",
        (3, 16) => "CU_TENSOR_MAP_SWIZZLE_128B",
        (3, 32) => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B",
        (3, 64) => "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B",
        _ => {
            return err("Unsupported tma swizzle: no CUtensorMapSwizzle has this swizzle and base")
        }
    })
}

/// One mode of a TMA box: its extent and the gmem mode it walks (`k@i`: `k` steps of gmem
/// mode `i`), as CuTe's `TmaGmemBasis` holds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxMode {
    /// Extents of the tile modes merged into this TMA mode (one, unless coalesced).
    pub shape: Vec<i64>,
    /// The gmem basis `(k, i)` of each of them.
    pub basis: Vec<(i64, usize)>,
    /// Gmem stride of the mode in elements, and whether it is known only at run time.
    pub gstride: (i64, bool),
}

impl BoxMode {
    /// Elements the box spans along this mode.
    ///
    /// ```
    /// use cute_core::tma::BoxMode;
    /// let m = BoxMode { shape: vec![8, 4], basis: vec![(1, 0), (8, 0)], gstride: (1, false) };
    /// assert_eq!(m.extent(), 32);
    /// ```
    pub fn extent(&self) -> i64 {
        self.shape.iter().fold(1i64, |a, &b| a.saturating_mul(b))
    }
}

/// What `make_tma_copy(SM90_TMA_LOAD{}, gmem_tensor, smem_layout)` derives from a global
/// tensor and a shared-memory tile: the box (`TmaGmemBasis`), the swizzle, and how many
/// boxes one tile takes.
#[derive(Clone, Debug, PartialEq)]
pub struct TmaBox {
    /// The TMA modes, innermost first.
    pub modes: Vec<BoxMode>,
    /// The `CUtensorMapSwizzle`.
    pub swizzle: &'static str,
    /// Element width in bits.
    pub elem_bits: i64,
    /// The gmem layout.
    pub gmem: crate::layout::Layout,
    /// The smem layout (elements).
    pub smem: AnyLayout,
    /// Boxes per smem tile (TMA instructions per tile).
    pub per_tile: i64,
}

impl TmaBox {
    /// Elements of one box.
    ///
    /// ```
    /// use cute_core::layout::{tile_to_shape, ModeOrder};
    /// use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
    /// use cute_core::swizzle::AnyLayout;
    /// use cute_core::IntTuple;
    /// use cute_core::tma::make_tma_box;
    /// let atom = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 32).unwrap();
    /// let trg: IntTuple = "(16,64)".parse().unwrap();
    /// let smem = atom.map_inner(|l| tile_to_shape(l, &trg, &ModeOrder::ColMajor)).unwrap();
    /// let b = make_tma_box(&"(512,1024):(1024,1)".parse().unwrap(), &smem, 32).unwrap();
    /// assert_eq!(b.size(), 32 * 16);
    /// ```
    pub fn size(&self) -> i64 {
        self.modes
            .iter()
            .fold(1i64, |a, m| a.saturating_mul(m.extent()))
    }

    /// Bytes of one box (one TMA instruction's transfer).
    ///
    /// ```
    /// use cute_core::layout::{tile_to_shape, ModeOrder};
    /// use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
    /// use cute_core::tma::make_tma_box;
    /// let atom = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 16).unwrap();
    /// let smem = atom.map_inner(|l| tile_to_shape(l, &"(128,64)".parse().unwrap(), &ModeOrder::ColMajor)).unwrap();
    /// let b = make_tma_box(&"(4096,4096):(4096,1)".parse().unwrap(), &smem, 16).unwrap();
    /// assert_eq!(b.bytes(), 64 * 128 * 2);
    /// ```
    pub fn bytes(&self) -> i64 {
        self.size().saturating_mul(self.elem_bits) / 8
    }
}

/// CuTe's print of `TmaGmemBasis`: `(64,128):(1@1,1@0)`.
impl std::fmt::Display for TmaBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mode = |m: &BoxMode, shape: bool| -> String {
            let parts: Vec<String> = if shape {
                m.shape.iter().map(|s| s.to_string()).collect()
            } else {
                m.basis.iter().map(|(k, i)| format!("{k}@{i}")).collect()
            };
            if parts.len() == 1 {
                parts[0].clone()
            } else {
                format!("({})", parts.join(","))
            }
        };
        let join = |shape: bool| -> String {
            let v: Vec<String> = self.modes.iter().map(|m| mode(m, shape)).collect();
            if v.len() == 1 {
                v[0].clone()
            } else {
                format!("({})", v.join(","))
            }
        };
        write!(f, "{}:{}", join(true), join(false))
    }
}

/// The arguments `make_tma_copy_desc` gives `cuTensorMapEncodeTiled` for a box whose every
/// mode walks one gmem mode with unit steps (`k@i` with `k = 1`, the usual case): per TMA
/// mode, innermost first, the gmem extent and byte stride, and the box extent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeArgs {
    /// `globalDim`.
    pub global_dim: Vec<i64>,
    /// `globalStrides` in bytes: every mode's but the first (whose stride is the element).
    pub global_strides: Vec<i64>,
    /// `boxDim`.
    pub box_dim: Vec<i64>,
    /// Element width in bits (`tensorDataType`'s width).
    pub elem_bits: i64,
    /// The `CUtensorMapSwizzle`.
    pub swizzle: &'static str,
}

impl TmaBox {
    /// The `cuTensorMapEncodeTiled` arguments, or `None` where a TMA mode merges several
    /// gmem modes or steps one by more than 1 (CuTe then folds them by a recurrence this
    /// does not reproduce).
    ///
    /// ```
    /// use cute_core::layout::{tile_to_shape, ModeOrder};
    /// use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
    /// use cute_core::tma::make_tma_box;
    /// let atom = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 16).unwrap();
    /// let smem = atom.map_inner(|l| tile_to_shape(l, &"(128,64)".parse().unwrap(), &ModeOrder::ColMajor)).unwrap();
    /// let b = make_tma_box(&"(4096,4096):(4096,1)".parse().unwrap(), &smem, 16).unwrap();
    /// let e = b.encode_args().unwrap();
    /// assert_eq!((e.global_dim, e.global_strides, e.box_dim), (vec![4096, 4096], vec![8192], vec![64, 128]));
    /// assert_eq!(b.encode_args().unwrap().to_string(),
    ///     "rank 2, globalDim {4096, 4096}, globalStrides {8192} bytes, boxDim {64, 128}, elementStrides {1, 1}, 16-bit elements, CU_TENSOR_MAP_SWIZZLE_128B");
    /// ```
    pub fn encode_args(&self) -> Option<EncodeArgs> {
        let flat = self.gmem.flatten();
        let (shapes, strides) = (flat.shape().leaves(), flat.stride().leaves());
        let mut e = EncodeArgs {
            global_dim: vec![],
            global_strides: vec![],
            box_dim: vec![],
            elem_bits: self.elem_bits,
            swizzle: self.swizzle,
        };
        for (n, m) in self.modes.iter().enumerate() {
            let [(1, i)] = m.basis[..] else { return None };
            e.global_dim.push(*shapes.get(i)?);
            if n > 0 {
                e.global_strides
                    .push(strides.get(i)?.checked_mul(self.elem_bits)? / 8);
            }
            e.box_dim.push(m.extent());
        }
        Some(e)
    }
}

impl std::fmt::Display for EncodeArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        write!(
            f,
            "rank {}, globalDim {{{}}}, globalStrides {{{}}} bytes, boxDim {{{}}}, elementStrides {{{}}}, {}-bit elements, {}",
            self.box_dim.len(),
            list(&self.global_dim),
            list(&self.global_strides),
            list(&self.box_dim),
            list(&vec![1; self.box_dim.len()]),
            self.elem_bits,
            self.swizzle
        )
    }
}

/// An integer mode's value and whether it is a run-time one.
pub(crate) fn leaf(t: &crate::int_tuple::IntTuple) -> (i64, bool) {
    use crate::int_tuple::IntTuple;
    match t {
        IntTuple::Int(v) => (*v, false),
        IntTuple::Dyn(v) => (*v, true),
        IntTuple::Tuple(_) => (0, false),
    }
}

/// `make_tma_copy`'s box for a global layout `gmem` (each top-level mode one integer;
/// `Dyn` entries are C++ run-time values) and a shared-memory tile `smem` of `elem_bits`
/// elements, as `construct_tma_gbasis` and `coalesce_256` derive it, with the checks
/// `make_tma_copy_desc` asserts and those the driver's `cuTensorMapEncodeTiled` makes.
///
/// ```
/// use cute_core::layout::{tile_to_shape, ModeOrder};
/// use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
/// use cute_core::swizzle::AnyLayout;
/// use cute_core::IntTuple;
/// use cute_core::tma::make_tma_box;
/// // make_tma_copy(Layout<Shape<_512,_1024>,Stride<_1024,_1>>{},
/// //               tile_to_shape(GMMA::Layout_K_SW128_Atom<float>{}, Shape<_16,_64>{}))
/// let atom = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 32).unwrap();
/// let trg: IntTuple = "(16,64)".parse().unwrap();
/// let smem = atom.map_inner(|l| tile_to_shape(l, &trg, &ModeOrder::ColMajor)).unwrap();
/// let b = make_tma_box(&"(512,1024):(1024,1)".parse().unwrap(), &smem, 32).unwrap();
/// assert_eq!(b.to_string(), "(32,16):(1@1,1@0)");
/// assert_eq!(b.swizzle, "CU_TENSOR_MAP_SWIZZLE_128B");
/// ```
pub fn make_tma_box(
    gmem: &crate::layout::Layout,
    smem: &AnyLayout,
    elem_bits: i64,
) -> Result<TmaBox> {
    make_tma_box_tiled(gmem, smem, elem_bits, None)
}

/// [`make_tma_box`] with the CTA tile given (`make_tma_atom(op, g, slayout, cta_tiler)`):
/// the tile's extents per gmem mode, its elements in the smem layout's coordinate order
/// (an UMMA's partitioned `((128,16),1,4)` is the tile `(128,64)`); `None`: the smem
/// layout's own modes.
pub fn make_tma_box_tiled(
    gmem: &crate::layout::Layout,
    smem: &AnyLayout,
    elem_bits: i64,
    cta_tile: Option<&[i64]>,
) -> Result<TmaBox> {
    use crate::int_tuple::IntTuple;
    use crate::layout::{self, Layout};
    let swizzle = tma_swizzle(smem)?;
    let s0 = smem.inner();
    let g_modes: Vec<(IntTuple, IntTuple)> = (0..gmem.rank())
        .map(|i| Ok((gmem.shape().get(i)?.clone(), gmem.stride().get(i)?.clone())))
        .collect::<Result<_>>()?;
    if g_modes.iter().any(|(s, _)| !s.is_int()) {
        return Err(crate::err!(
            "make_tma_copy: the global layout {gmem} has nested modes; give each mode as one integer"
        ));
    }
    // The CTA tile: product_each(shape(smem)), one extent per gmem mode it covers.
    let tile: Vec<i64> = match cta_tile {
        Some(t) => t.to_vec(),
        None => (0..s0.rank())
            .map(|m| s0.mode(m).and_then(|x| x.size()))
            .collect::<Result<_>>()?,
    };
    if tile.len() > g_modes.len() {
        return Err(crate::err!(
            "make_tma_copy: the smem tile has {} modes, the global tensor {}",
            tile.len(),
            g_modes.len()
        ));
    }
    // A tile longer than the tensor is legal: the box reads past the end as zeros (the
    // residue tiles of a small problem).
    // cta_v_map (tile index -> k@i) as integers that never coalesce across modes: mode i's
    // unit is 2^i times the product of the extents before it, so k@i = k * unit(i).
    let mut units = Vec::with_capacity(tile.len());
    let mut u: i64 = 1;
    for &n in &tile {
        units.push(u);
        u = u
            .checked_mul(n)
            .and_then(|x| x.checked_mul(2))
            .ok_or_else(|| Error::new("make_tma_copy: the tile is too large"))?;
    }
    let cta_v_map = Layout::new(IntTuple::ints(&tile), IntTuple::ints(&units))?;
    let inv = layout::right_inverse(s0)?;
    let full = layout::coalesce(&layout::composition(&cta_v_map, &inv)?, None)?;
    let decode = |d: i64| -> Result<(i64, usize)> {
        for i in (0..tile.len()).rev() {
            if d >= units[i] && d % units[i] == 0 && d / units[i] < tile[i] {
                return Ok((d / units[i], i));
            }
        }
        Err(crate::err!(
            "make_tma_copy: smem index step {d} maps to no gmem mode"
        ))
    };
    let (shapes, strides) = (full.shape().flatten(), full.stride().flatten());
    let mut prefix: Vec<(i64, (i64, usize))> = Vec::new();
    for (s, d) in shapes.leaves().into_iter().zip(strides.leaves()) {
        if s == 1 {
            continue;
        }
        let b = decode(d)?;
        if b.0 != 1 {
            break;
        }
        prefix.push((s, b));
    }
    if prefix.is_empty() {
        return Err(Error::new(
            "Could not find a common tile-gmem vectorization. Does the Tile select out major GMEM modes?",
        ));
    }
    let modes = box_modes(prefix, &g_modes)?;
    if modes.len() > 5 {
        return Err(crate::err!(
            "make_tma_copy: {} TMA modes; the hardware takes at most 5",
            modes.len()
        ));
    }
    check_box_modes(&modes, elem_bits, swizzle)?;
    let size = modes.iter().fold(1i64, |a, m| a.saturating_mul(m.extent()));
    let tile_size = s0.size()?;
    Ok(TmaBox {
        modes,
        swizzle,
        elem_bits,
        gmem: gmem.clone(),
        smem: smem.clone(),
        per_tile: tile_size / size.max(1),
    })
}

/// `tile_gstride` then `coalesce_256`: each walked mode's gmem stride, merging only what
/// is statically contiguous and at most 256 long; then the gmem modes the tile does not
/// walk, as size-1 box modes.
fn box_modes(
    prefix: Vec<(i64, (i64, usize))>,
    g_modes: &[(crate::int_tuple::IntTuple, crate::int_tuple::IntTuple)],
) -> Result<Vec<BoxMode>> {
    let mut modes: Vec<BoxMode> = Vec::new();
    for (s, (k, i)) in prefix {
        let (gs, dynamic) = leaf(&g_modes[i].1);
        let gstride = (
            k.checked_mul(gs)
                .ok_or_else(|| Error::new("gmem stride overflows"))?,
            dynamic,
        );
        if let Some(last) = modes.last_mut() {
            let back = *last.shape.last().expect("a mode has a shape");
            let back_stride = if last.shape.len() == 1 {
                last.gstride
            } else {
                // Merged shapes multiply to at most 256.
                let merged = last.shape[..last.shape.len() - 1]
                    .iter()
                    .fold(1i64, |a, &b| a.saturating_mul(b));
                (last.gstride.0.saturating_mul(merged), last.gstride.1)
            };
            let contiguous =
                !back_stride.1 && !gstride.1 && back.checked_mul(back_stride.0) == Some(gstride.0);
            if contiguous && s.saturating_mul(last.extent()) <= 256 {
                last.shape.push(s);
                last.basis.push((k, i));
                continue;
            }
        }
        modes.push(BoxMode {
            shape: vec![s],
            basis: vec![(k, i)],
            gstride,
        });
    }
    // Gmem modes the tile does not walk, as size-1 box modes.
    for (i, (s, d)) in g_modes.iter().enumerate() {
        let (sv, sdyn) = leaf(s);
        let (dv, ddyn) = leaf(d);
        if (sv == 1 && !sdyn) || (dv == 0 && !ddyn) {
            continue;
        }
        if modes.iter().any(|m| m.basis.iter().any(|b| b.1 == i)) {
            continue;
        }
        modes.push(BoxMode {
            shape: vec![1],
            basis: vec![(1, i)],
            gstride: (dv, ddyn),
        });
    }
    Ok(modes)
}

/// `make_tma_copy_desc`'s asserts on the box modes, and the driver's rule on the inner
/// extent under the swizzle.
fn check_box_modes(modes: &[BoxMode], elem_bits: i64, swizzle: &str) -> Result<()> {
    let bytes = |e: i64| e.saturating_mul(elem_bits) / 8;
    if modes[0].gstride.0 != 1 {
        return Err(crate::err!(
            "Majorness of smem doesn't match majorness of gmem: the smem tile's contiguous mode walks gmem with stride {} (make_tma_copy_desc asserts stride 1)",
            modes[0].gstride.0
        ));
    }
    for (k, m) in modes.iter().enumerate() {
        if m.extent() > 256 {
            return Err(crate::err!(
                "TMA box mode {k} is {} elements long: Size must be max 2^8 = 256 (make_tma_copy_desc asserts it)",
                m.extent()
            ));
        }
        if k > 0 && m.extent() > 1 && bytes(m.gstride.0) % 16 != 0 {
            return Err(crate::err!(
                "TMA box mode {k} steps {} bytes in gmem: global strides must be multiples of 16 bytes",
                bytes(m.gstride.0)
            ));
        }
    }
    driver_box_rule(bytes(modes[0].extent()), swizzle)?;
    Ok(())
}

/// The rules on a box that CuTe leaves to the driver's `cuTensorMapEncodeTiled` (measured on
/// an H100, `hw/tma/`): the inner extent in bytes is a multiple of 16 and, under a 32-,
/// 64- or 128-byte swizzle, at most that span.
///
/// ```
/// use cute_core::tma::driver_box_rule;
/// assert!(driver_box_rule(128, "CU_TENSOR_MAP_SWIZZLE_128B").is_ok());
/// assert!(driver_box_rule(128, "CU_TENSOR_MAP_SWIZZLE_64B").is_err());
/// assert!(driver_box_rule(8, "CU_TENSOR_MAP_SWIZZLE_NONE").is_err());
/// ```
pub fn driver_box_rule(inner_bytes: i64, swizzle: &str) -> Result<()> {
    if inner_bytes % 16 != 0 {
        return Err(crate::err!(
            "the box's inner extent is {inner_bytes} bytes: cuTensorMapEncodeTiled needs a multiple of 16"
        ));
    }
    let span = match swizzle {
        "CU_TENSOR_MAP_SWIZZLE_32B" => 32,
        "CU_TENSOR_MAP_SWIZZLE_64B" => 64,
        "CU_TENSOR_MAP_SWIZZLE_NONE" => i64::MAX,
        _ => 128,
    };
    if inner_bytes > span {
        return Err(crate::err!(
            "the box's inner extent is {inner_bytes} bytes, wider than the {span}-byte span of {swizzle}: cuTensorMapEncodeTiled refuses it"
        ));
    }
    Ok(())
}

/// The TMA copy operations `make_tma_copy` and `make_tma_atom` take.
pub const TMA_OPS: &[&str] = &[
    "SM90_TMA_LOAD",
    "SM90_TMA_LOAD_MULTICAST",
    "SM90_TMA_STORE",
    "SM90_TMA_REDUCE_ADD",
    "SM100_TMA_2SM_LOAD",
    "SM100_TMA_2SM_LOAD_MULTICAST",
];

/// What a TMA copy atom (`make_tma_copy`, `make_tma_atom`) carries beyond its layouts: the
/// box, the multicast width, and the strides of the TMA coordinate tensor
/// (`get_tma_tensor`).
#[derive(Clone, Debug, PartialEq)]
pub struct TmaAtom {
    /// The operation (`SM90_TMA_LOAD`, ...).
    pub op: &'static str,
    /// The box (`TmaGmemBasis`).
    pub tma_box: TmaBox,
    /// CTAs the box is multicast to (`cosize(cta_t_map)`).
    pub multicast: i64,
    /// Per gmem leaf, the TMA coordinate it steps (`Some((k, j))` is `k@j`; `None` is `0`):
    /// `AuxTmaParams::g_stride_`, flattened.
    pub g_stride: Vec<Option<(i64, usize)>>,
    /// The gmem tensor's shape, whose profile `g_stride_` has (`(M,K,(H,B))`).
    pub g_profile: crate::int_tuple::IntTuple,
}

impl TmaAtom {
    /// The `cuTensorMapEncodeTiled` arguments of the box one CTA issues: a multicast box is
    /// cut along its outermost modes by the multicast width (`make_tma_copy_desc`'s
    /// "truncate the tma box by the num_multicast"), each CTA loading its part for all.
    ///
    /// ```
    /// use cute_core::tensor::{Iter, Ptr, Space, Tensor};
    /// use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
    /// use cute_core::layout::{tile_to_shape, ModeOrder};
    /// use cute_core::tma_copy::make_tma_atom;
    /// let g = Tensor::new(Iter::Ptr(Ptr::new(Space::Gmem, 16, 0)), "(4096,4096):(4096,1)".parse().unwrap());
    /// let atom = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 16).unwrap();
    /// let s = atom.map_inner(|l| tile_to_shape(l, &"(128,64)".parse().unwrap(), &ModeOrder::ColMajor)).unwrap();
    /// let a = make_tma_atom("SM90_TMA_LOAD_MULTICAST", &g, &s, None, 2).unwrap();
    /// assert_eq!(a.tma.unwrap().encode_args().unwrap().box_dim, vec![64, 64]);
    /// ```
    pub fn encode_args(&self) -> Option<EncodeArgs> {
        let mut e = self.tma_box.encode_args()?;
        let mut multicast = self.multicast;
        for d in e.box_dim.iter_mut().rev() {
            if multicast <= 1 {
                break;
            }
            let next = (multicast + *d - 1) / *d;
            *d = (*d + multicast - 1) / multicast;
            multicast = next;
        }
        Some(e)
    }

    /// Elements one TMA instruction moves (`Copy_Atom::NumValSrc`).
    pub fn num_vals(&self) -> i64 {
        self.tma_box.size()
    }

    /// `tma.get_tma_tensor(g_shape)`: the TMA coordinate tensor over the gmem shape,
    /// `make_coord_tensor(make_layout(g_shape, g_stride_))`.
    ///
    /// ```
    /// use cute_core::tensor::{Iter, Ptr, Space, Tensor};
    /// use cute_core::smem_atom::{smem_atom, AtomMajor, AtomSwizzle};
    /// use cute_core::layout::{tile_to_shape, ModeOrder};
    /// use cute_core::tma_copy::make_tma_copy;
    /// let g = Tensor::new(Iter::Ptr(Ptr::new(Space::Gmem, 16, 0)), "(512,256):(256,1)".parse().unwrap());
    /// let atom = smem_atom(AtomMajor::K, AtomSwizzle::Sw128, 16).unwrap();
    /// let s = atom.map_inner(|l| tile_to_shape(l, &"(128,64)".parse().unwrap(), &ModeOrder::ColMajor)).unwrap();
    /// let tma = make_tma_copy("SM90_TMA_LOAD", &g, &s, None, 1).unwrap();
    /// let t = tma.atom.tma.as_ref().unwrap().get_tma_tensor(&"(512,256)".parse().unwrap()).unwrap();
    /// assert_eq!(t.to_string(), "ArithTuple(0,0) o (512,256):(1@1,1@0)");
    /// ```
    pub fn get_tma_tensor(
        &self,
        g_shape: &crate::int_tuple::IntTuple,
    ) -> Result<crate::tensor::Tensor> {
        use crate::int_tuple::IntTuple;
        if !g_shape.congruent(&self.g_profile) {
            return Err(crate::err!(
                "get_tma_tensor: the shape {g_shape} is not congruent with the TMA's gmem shape {} (static_assert is_congruent)",
                self.g_profile
            ));
        }
        let shape = match g_shape {
            IntTuple::Tuple(_) => g_shape.clone(),
            _ => IntTuple::Tuple(vec![g_shape.clone()]),
        };
        crate::tensor::Tensor::tma_coord(self.tma_box.modes.len(), &shape, &self.g_stride)
    }
}
