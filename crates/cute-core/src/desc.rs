//! The matrix descriptors of Hopper and Blackwell tensor-core instructions, as CuTe builds
//! them: the 64-bit shared-memory descriptor of `wgmma` (`make_gmma_desc<Major>`, SM90) and
//! of `tcgen05.mma` (`make_umma_desc<Major>`, SM100), and the 32-bit UMMA instruction
//! descriptor (`UMMA::make_instr_desc<A, B, C, M, N, MajorA, MajorB, ...>`).
//!
//! A shared-memory descriptor describes one MMA operand block in *canonical* form: core
//! matrices of 8 rows x 16 bytes, repeated with a leading-byte offset (LBO) and a
//! stride-byte offset (SBO), under one of the swizzles of the GMMA/UMMA smem atoms. CuTe
//! derives the fields from the layout recast to 16-byte units and refuses (at compile time)
//! layouts that are not canonical; so does this module, with the same messages.
//!
//! ```
//! use cute_core::desc::make_smem_desc;
//! use cute_core::desc::DescFamily;
//! use cute_core::smem_atom::AtomMajor;
//! use cute_core::swizzle::{AnyLayout, ComposedLayout, Offset, Swizzle};
//! // The 64x16 A block of SM90_64xNx16 in a K-major SW128 tile of half_t.
//! let block = AnyLayout::Composed(ComposedLayout {
//!     swizzle: Swizzle::new(3, 4, 3).unwrap(),
//!     offset: Offset::SmemPtr { bits: 16 },
//!     layout: "((8,8),16):((64,512),1)".parse().unwrap(),
//! });
//! let d = make_smem_desc(DescFamily::Gmma, AtomMajor::K, &block, None).unwrap();
//! assert_eq!(d.word, 0x4000_0040_0001_0000);
//! assert_eq!(d.to_string().lines().next(), Some("GmmaDescriptor: 0x4000004000010000"));
//! ```

use crate::elem::Elem;
use crate::error::{Error, Result};
use crate::int_tuple::IntTuple;
use crate::layout::{self, Layout, Tiler};
use crate::smem_atom::AtomMajor;
use crate::swizzle::{AnyLayout, Offset, Swizzle};
use std::fmt;

/// Which descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DescKind {
    /// SM90 `GmmaDescriptor` (wgmma).
    Gmma,
    /// SM100 `UMMA::SmemDescriptor` (tcgen05.mma).
    UmmaSmem,
    /// SM100 `UMMA::InstrDescriptor` (the 32-bit instruction descriptor).
    UmmaInstr,
}

/// Which family's shared-memory descriptor to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DescFamily {
    /// `make_gmma_desc` (SM90).
    Gmma,
    /// `make_umma_desc` (SM100).
    Umma,
}

impl DescFamily {
    fn tag(self) -> &'static str {
        match self {
            DescFamily::Gmma => "GMMA",
            DescFamily::Umma => "UMMA",
        }
    }
}

/// One named bit field of a descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The field's name in the CuTe union (`leading_byte_offset_` is `leading_off`, ...).
    pub name: &'static str,
    /// Lowest bit.
    pub lo: u32,
    /// Width in bits.
    pub width: u32,
    /// Value in the field.
    pub value: u64,
    /// What the value means (`1024 B`, `B128`, `N = 256`, ...).
    pub meaning: String,
}

/// How a shared-memory operand matched its canonical form (for the descriptor view).
#[derive(Clone, Debug, PartialEq)]
pub struct SmemOperand {
    /// The layout as given (element units; a pointer-flagged swizzle is kept).
    pub layout: AnyLayout,
    /// Element width in bits.
    pub elem_bits: i64,
    /// The major mode asked for.
    pub major: AtomMajor,
    /// The swizzle on byte addresses (`Sw<0,4,3>` when none).
    pub swizzle: Swizzle,
    /// The layout in 16-byte units (`recast<uint128_t>`).
    pub u128: Layout,
    /// `logical_divide(u128, canonical tile)`: `((8,m),(2,..))` K-major,
    /// `((W,n),(8,k))` MN-major.
    pub canonical: Layout,
    /// The canonical form in element units with its parameters.
    pub form: String,
    /// LBO and SBO in 16-byte units, as read from the layout (before the 14-bit field).
    pub lbo: i64,
    /// See [`SmemOperand::lbo`].
    pub sbo: i64,
    /// Whether the hardware reads the LBO field for this form (not for swizzled K-major).
    pub lbo_used: bool,
    /// A core matrix's extent in elements along (mode 0, mode 1) of the layout.
    pub core: (i64, i64),
    /// Values CuTe silently changes (a 14-bit field that overflows).
    pub warnings: Vec<String>,
}

/// A descriptor: its word, its fields, and for a shared-memory descriptor the operand.
#[derive(Clone, Debug, PartialEq)]
pub struct Descriptor {
    /// Which descriptor.
    pub kind: DescKind,
    /// The bits (an instruction descriptor uses the low 32).
    pub word: u64,
    /// Every field, lowest bit first.
    pub fields: Vec<Field>,
    /// The operand of a shared-memory descriptor.
    pub smem: Option<SmemOperand>,
}

impl Descriptor {
    /// Width of the descriptor in bits (64, or 32 for the instruction descriptor).
    pub fn bits(&self) -> u32 {
        match self.kind {
            DescKind::UmmaInstr => 32,
            _ => 64,
        }
    }

    /// The field holding bit `bit`, if any.
    pub fn field_at(&self, bit: u32) -> Option<&Field> {
        self.fields
            .iter()
            .find(|f| bit >= f.lo && bit < f.lo + f.width)
    }

    /// The C++ type's name.
    pub fn type_name(&self) -> &'static str {
        match self.kind {
            DescKind::Gmma => "GmmaDescriptor",
            DescKind::UmmaSmem => "UMMA::SmemDescriptor",
            DescKind::UmmaInstr => "UMMA::InstrDescriptor",
        }
    }

    fn field(&self, name: &str) -> u64 {
        self.fields
            .iter()
            .find(|f| f.name == name)
            .map_or(0, |f| f.value)
    }
}

fn pack(fields: &[Field]) -> u64 {
    fields.iter().fold(0, |w, f| w | (f.value << f.lo))
}

fn field(name: &'static str, lo: u32, width: u32, value: u64, meaning: String) -> Field {
    debug_assert!(value < (1 << width));
    Field {
        name,
        lo,
        width,
        value,
        meaning,
    }
}

/// CuTe's `print(GmmaDescriptor)`; the UMMA descriptors, which CuTe has no printer for,
/// in the same style.
impl fmt::Display for Descriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            DescKind::Gmma | DescKind::UmmaSmem => {
                writeln!(f, "{}: 0x{:016x}", self.type_name(), self.word)?;
                writeln!(f, "  start_addr :  0x{:04x}", self.field("start_addr"))?;
                let (l, s) = (self.field("leading_off"), self.field("stride_off"));
                writeln!(f, "  leading_off:  0x{l:04x} ({l})")?;
                writeln!(f, "  stride_off :  0x{s:04x} ({s})")?;
                if self.kind == DescKind::UmmaSmem {
                    writeln!(f, "  version    :  0x{:01x}", self.field("version"))?;
                }
                write!(f, "  base_offset:  0x{:01x}", self.field("base_offset"))?;
                if self.kind == DescKind::UmmaSmem {
                    write!(f, "\n  lbo_mode   :  0x{:01x}", self.field("lbo_mode"))?;
                }
                let t = self
                    .fields
                    .iter()
                    .find(|x| x.name == "layout_type")
                    .expect("a shared-memory descriptor has a layout type");
                write!(f, "\n  layout_type:  0x{:01x} ({})", t.value, t.meaning)
            }
            DescKind::UmmaInstr => {
                write!(f, "{}: 0x{:08x}", self.type_name(), self.word)?;
                for x in &self.fields {
                    write!(f, "\n  {:<11}:  {}", x.name, x.value)?;
                    if !x.meaning.is_empty() {
                        write!(f, " ({})", x.meaning)?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// Byte count of a value in 16-byte units, for field meanings.
fn bytes16(v: i64) -> String {
    match v.checked_mul(16) {
        Some(b) => format!("{b} B"),
        None => format!("{v} x 16 B"),
    }
}

/// The value a `constexpr uint32_t` stride leaves in a 14-bit field, and whether it changed.
fn field14(v: i64) -> (u64, bool) {
    let f = v.rem_euclid(1 << 14) as u64;
    (f, !(0..(1 << 14)).contains(&v))
}

fn leaf(t: &IntTuple, path: &[usize]) -> Result<i64> {
    let mut x = t;
    for &i in path {
        x = x.get(i)?;
    }
    match x {
        IntTuple::Int(v) | IntTuple::Dyn(v) => Ok(*v),
        IntTuple::Tuple(_) => Err(crate::err!("{x} is not an integer")),
    }
}

/// `make_gmma_desc<major>(tensor)` / `make_umma_desc<major>(tensor)` of a shared-memory
/// tensor: [`make_smem_desc`] of its layout, its start address that of the tensor's data
/// pointer, `addr` (bytes; C++'s `raw_pointer_cast` of a swizzled pointer applies the
/// swizzle, `swizzle` here), in 16-byte units, truncated to the field as C++ truncates it.
///
/// ```
/// use cute_core::desc::{make_smem_desc_at, DescFamily};
/// use cute_core::smem_atom::AtomMajor;
/// let l = cute_core::swizzle::AnyLayout::Layout("((8,8),(8,2)):((8,64),(1,512))".parse().unwrap());
/// let d = make_smem_desc_at(DescFamily::Gmma, AtomMajor::K, &l, 16, 0x6040, None).unwrap();
/// assert!(d.to_string().contains("start_addr :  0x0604"));
/// // C++ drops the low 4 bits of the address.
/// let e = make_smem_desc_at(DescFamily::Gmma, AtomMajor::K, &l, 16, 0x6048, None).unwrap();
/// assert_eq!(e, d);
/// ```
pub fn make_smem_desc_at(
    family: DescFamily,
    major: AtomMajor,
    smem: &AnyLayout,
    elem_bits: i64,
    addr: u64,
    swizzle: Option<crate::Swizzle>,
) -> Result<Descriptor> {
    let at = match swizzle {
        Some(sw) => {
            let a =
                i64::try_from(addr).map_err(|_| crate::err!("address {addr:#x} out of range"))?;
            u64::try_from(sw.apply(a)).map_err(|_| crate::err!("address {addr:#x} out of range"))?
        }
        None => addr,
    };
    // C++: `uint32_t start_address = cast_smem_ptr_to_uint(...)`, then `start_address >> 4`
    // into the 14-bit field: the low 4 bits and the bits above 18 are dropped, as there.
    let start = i64::from(((at & 0xffff_ffff) >> 4) as u32 & 0x3fff);
    make_smem_desc(family, major, smem, Some(elem_bits))?.advanced(start)
}

/// `make_gmma_desc<major>` / `make_umma_desc<major>` of a shared-memory tensor whose layout
/// is `smem`: a GMMA/UMMA smem atom's `Sw<B,M,S> o smem_ptr[Nb] o L` (the swizzle on byte
/// addresses, as C++'s swizzled smem pointer), or a plain layout of `elem_bits`-bit
/// elements (no swizzle). The checks and their messages are CuTe's static_asserts.
pub fn make_smem_desc(
    family: DescFamily,
    major: AtomMajor,
    smem: &AnyLayout,
    elem_bits: Option<i64>,
) -> Result<Descriptor> {
    let tag = family.tag();
    let fname = match family {
        DescFamily::Gmma => "make_gmma_desc",
        DescFamily::Umma => "make_umma_desc",
    };
    let (swizzle, bits, u) = desc_operand(family, fname, smem, elem_bits)?;

    // Layout type and the swizzle width W in 16-byte units.
    let (ltype, lname, w, katom) = layout_type(family, swizzle)?;
    let swizzled = ltype != 0;
    let kind_name = match major {
        AtomMajor::MN => format!("{tag}_MN"),
        AtomMajor::K => format!("{tag}_K"),
    };
    let not_canonical = |why: &str| {
        crate::err!("Not a canonical {kind_name} Layout: {why} (the layout in 16-byte units: {u})")
    };
    let size = |i: usize| u.mode(i).and_then(|x| x.size());
    let (tile, t_elems) = (
        match major {
            AtomMajor::MN => [w, katom],
            AtomMajor::K => [8, 2],
        },
        128 / bits,
    );
    match major {
        AtomMajor::MN => {
            if family == DescFamily::Gmma {
                let k = size(1)?;
                if ![256 / bits, 128 / bits, 512 / bits].contains(&k) {
                    return Err(not_canonical(
                        "Expected K-size 256/sizeof_bits<T> for dense or (128|512)/sizeof_bits<T> for sparse.",
                    ));
                }
            }
        }
        AtomMajor::K => {
            if ltype == 1 && family == DescFamily::Umma {
                return Err(Error::new("SWIZZLE_128B_BASE32B is invalid for Major-K"));
            }
            if size(0)? % 8 != 0 {
                return Err(not_canonical("Expected MN-size multiple of 8."));
            }
            if family == DescFamily::Gmma && ![2, 4].contains(&size(1)?) {
                return Err(not_canonical(
                    "Expected K-size 2 for dense or 4 for sparse (in units of uint128_t).",
                ));
            }
        }
    }
    let tiler = Tiler::Tuple(
        tile.iter()
            .map(|&n| Ok(Tiler::Layout(Layout::col_major(IntTuple::Int(n))?)))
            .collect::<Result<_>>()?,
    );
    let c = layout::logical_divide(&u, &tiler)
        .map_err(|e| crate::err!("{fname}: logical_divide({u}, {tiler}): {e}"))?;
    let profile = IntTuple::Tuple(vec![IntTuple::ints(&[1, 1]), IntTuple::ints(&[1, 1])]);
    if !c.shape().congruent(&profile) {
        return Err(not_canonical("Expected profile failure."));
    }
    let st = |p: &[usize]| leaf(c.stride(), p);
    let (s00, s10, s01, s11) = (st(&[0, 0])?, st(&[1, 0])?, st(&[0, 1])?, st(&[1, 1])?);
    let (lbo, sbo, lbo_used) = offsets(major, swizzled, w, (s00, s10, s01, s11))
        .ok_or_else(|| not_canonical("Expected stride failure."))?;

    let (fields, kind, warnings) = smem_fields(family, (lbo, sbo, lbo_used), (ltype, lname));
    let form = canonical_form(
        major,
        swizzle,
        bits,
        &c,
        (w, katom),
        swizzled,
        (lbo, sbo),
        t_elems,
    );
    let core = match major {
        AtomMajor::K => (8, t_elems),
        AtomMajor::MN => (t_elems, 8),
    };
    Ok(Descriptor {
        kind,
        word: pack(&fields),
        fields,
        smem: Some(SmemOperand {
            layout: smem.clone(),
            elem_bits: bits,
            major,
            swizzle,
            u128: u,
            canonical: c,
            form,
            lbo,
            sbo,
            lbo_used,
            core,
            warnings,
        }),
    })
}

/// What the descriptor is built from: the swizzle on byte addresses (none for a plain
/// layout), the element width, and the layout in 16-byte units; or CuTe's refusal.
fn desc_operand(
    family: DescFamily,
    fname: &str,
    smem: &AnyLayout,
    elem_bits: Option<i64>,
) -> Result<(Swizzle, i64, Layout)> {
    let tag = family.tag();
    let (swizzle, l) = match smem {
        AnyLayout::Composed(c) => match c.offset {
            Offset::SmemPtr { .. } => (c.swizzle, &c.layout),
            Offset::Int(_) | Offset::Mixed { .. } => {
                return Err(crate::err!(
                    "{fname}: {} swizzles element offsets; the descriptor reads the swizzle of a shared-memory pointer, on byte addresses: build the layout from a {tag} smem atom ({tag}::Layout_K_SW128_Atom<T>, ...) whose swizzle is Sw<B,4,3> o smem_ptr[..]",
                    c.swizzle
                ))
            }
        },
        AnyLayout::Layout(l) => (Swizzle::new(0, 4, 3)?, l),
    };
    let Some(bits) = smem
        .element_bits(elem_bits)
        .map_err(|e| crate::err!("{fname}: {e}"))?
    else {
        return Err(crate::err!(
            "{fname}: a plain layout needs its element type ({fname}<{tag}::Major::K>(layout, half_t)): C++ builds the descriptor from a tensor of T in shared memory"
        ));
    };
    if l.rank() != 2 {
        return Err(crate::err!(
            "{tag} Descriptors can only be constructed on rank-2 tensors. (the layout {l} has rank {})",
            l.rank()
        ));
    }
    if !(1..=128).contains(&bits) || 128 % bits != 0 {
        return Err(crate::err!(
            "{fname}: {bits}-bit elements do not divide the 128-bit unit the descriptor counts in"
        ));
    }
    let u = layout::upcast(128 / bits, l)?;
    if !u.shape().is_static() || !u.stride().is_static() {
        return Err(crate::err!(
            "{fname}: the layout must be static (C++ reads its shape and strides at compile time); {u} (in 16-byte units) has dynamic parts"
        ));
    }
    Ok((swizzle, bits, u))
}

/// The descriptor's layout type of a swizzle, for `family`: (field value, name, the swizzle
/// width W in 16-byte units, K rows per swizzle atom), or CuTe's static_assert message.
fn layout_type(family: DescFamily, swizzle: Swizzle) -> Result<(u64, &'static str, i64, i64)> {
    let Swizzle { b, m, s } = swizzle;
    let unsupported = |why: &str| Err(crate::err!("{why} ({swizzle})"));
    // (field value, name, W, K rows per swizzle atom)
    Ok(match family {
        DescFamily::Gmma => {
            if m != 4 || !(0..=3).contains(&b) || s != 3 {
                return unsupported("Unsupported layout swizzle");
            }
            match b {
                0 => (0, "INTERLEAVE", 1, 8),
                1 => (3, "B32", 2, 8),
                2 => (2, "B64", 4, 8),
                _ => (1, "B128", 8, 8),
            }
        }
        DescFamily::Umma => {
            match m {
                4 if s != 3 => {
                    return unsupported("Expected S = 3 when M == 4. Unsupported layout swizzle.")
                }
                4 => match b {
                    0 => (0, "SWIZZLE_NONE", 1, 8),
                    1 => (6, "SWIZZLE_32B", 2, 8),
                    2 => (4, "SWIZZLE_64B", 4, 8),
                    3 => (2, "SWIZZLE_128B", 8, 8),
                    _ => {
                        return unsupported(
                            "Expected B = 0,1,2, or 3 when M == 4. Unsupported layout swizzle.",
                        )
                    }
                },
                5 if b != 2 => {
                    return unsupported("Expected B = 2 when M == 5. Unsupported layout swizzle.")
                }
                5 if s != 2 => {
                    return unsupported("Expected S = 2 when M == 5. Unsupported layout swizzle.")
                }
                5 => (1, "SWIZZLE_128B_BASE32B", 8, 4),
                _ => return unsupported(
                    "Only 16B and 32B Atoms are supported for UMMA. Unsupported layout swizzle.",
                ),
            }
        }
    })
}

/// The fields of a shared-memory descriptor with these offsets (in 16-byte units) and layout
/// type, its kind, and a warning for an offset the 14-bit field cuts.
fn smem_fields(
    family: DescFamily,
    (lbo, sbo, lbo_used): (i64, i64, bool),
    (ltype, lname): (u64, &'static str),
) -> (Vec<Field>, DescKind, Vec<String>) {
    let mut warnings = Vec::new();
    let (lbo_f, lbo_cut) = field14(lbo);
    let (sbo_f, sbo_cut) = field14(sbo);
    for (name, v, cut) in [("LBO", lbo, lbo_cut), ("SBO", sbo, sbo_cut)] {
        if cut {
            warnings.push(format!(
                "{name} = {v} x 16 B does not fit the 14-bit field: CuTe writes {} (mod 2^14)",
                v.rem_euclid(1 << 14)
            ));
        }
    }
    let ab = |f: u64| format!("{} B", f * 16);
    let mut fields = vec![
        field(
            "start_addr",
            0,
            14,
            0,
            "smem address >> 4 (0 on the host)".into(),
        ),
        field(
            "leading_off",
            16,
            14,
            lbo_f,
            if lbo_used {
                ab(lbo_f)
            } else {
                format!("{}, not read (swizzled K-major)", ab(lbo_f))
            },
        ),
        field("stride_off", 32, 14, sbo_f, ab(sbo_f)),
    ];
    let kind = match family {
        DescFamily::Gmma => {
            fields.push(field("base_offset", 49, 3, 0, "0".into()));
            fields.push(field("layout_type", 62, 2, ltype, lname.into()));
            DescKind::Gmma
        }
        DescFamily::Umma => {
            fields.push(field("version", 46, 2, 1, "SM100".into()));
            fields.push(field("base_offset", 49, 3, 0, "0".into()));
            fields.push(field("lbo_mode", 52, 1, 0, "relative".into()));
            fields.push(field("layout_type", 61, 3, ltype, lname.into()));
            DescKind::UmmaSmem
        }
    };
    (fields, kind, warnings)
}

/// The canonical layout the descriptor describes, in CuTe's notation with its parameters.
#[allow(clippy::too_many_arguments)]
fn canonical_form(
    major: AtomMajor,
    swizzle: Swizzle,
    bits: i64,
    c: &Layout,
    (w, katom): (i64, i64),
    swizzled: bool,
    (lbo, sbo): (i64, i64),
    t_elems: i64,
) -> String {
    let Swizzle { b, m, s } = swizzle;
    let rep = |p: &[usize]| leaf(c.shape(), p).unwrap_or(1);
    let sw = format!("Sw<{b},{m},{s}> o smem_ptr[{bits}b]");
    match (major, swizzled) {
        (AtomMajor::K, false) => format!(
            "{sw} o ((8,m),(T,2)):((T,SBO),(1,LBO)) with T = {t_elems}, m = {}, SBO = {}, LBO = {}",
            rep(&[0, 1]),
            bytes16(sbo),
            bytes16(lbo)
        ),
        (AtomMajor::K, true) => format!(
            "{sw} o ((8,m),(T,2)):(({w}T,SBO),(1,T)) with T = {t_elems}, m = {}, SBO = {}",
            rep(&[0, 1]),
            bytes16(sbo)
        ),
        (AtomMajor::MN, false) => format!(
            "{sw} o ((T,1,m),(8,k)):((1,T,SBO),(T,LBO)) with T = {t_elems}, m = {}, k = {}, SBO = {}, LBO = {}",
            rep(&[0, 1]),
            rep(&[1, 1]),
            bytes16(sbo),
            bytes16(lbo)
        ),
        (AtomMajor::MN, true) => format!(
            "{sw} o ((T,{w},m),({katom},k)):((1,T,LBO),({w}T,SBO)) with T = {t_elems}, m = {}, k = {}, LBO = {}, SBO = {}",
            rep(&[0, 1]),
            rep(&[1, 1]),
            bytes16(lbo),
            bytes16(sbo)
        ),
    }
}

/// Arguments of `UMMA::make_instr_desc<A, B, C, M, N, MajorA, MajorB, NegA, NegB, Saturate,
/// Sparse, MaxShift>()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstrArgs {
    /// A's element type (`half_t`, `bfloat16_t`, `tfloat32_t`, `int8_t`, `uint8_t`,
    /// `float_e4m3_t`, `float_e5m2_t`, `float_e2m3_t`, `float_e3m2_t`, `float_e2m1_t`).
    pub a: Elem,
    /// B's element type.
    pub b: Elem,
    /// The accumulator type (`half_t`, `float`, `int32_t`).
    pub c: Elem,
    /// M of the instruction (64, 128 or 256).
    pub m: i64,
    /// N of the instruction (8..=256, a multiple of 8).
    pub n: i64,
    /// A's major mode.
    pub a_major: AtomMajor,
    /// B's major mode.
    pub b_major: AtomMajor,
    /// `UMMA::ScaleIn::Neg` for A.
    pub a_neg: bool,
    /// `UMMA::ScaleIn::Neg` for B.
    pub b_neg: bool,
    /// `UMMA::Saturate::True`.
    pub saturate: bool,
    /// A sparse MMA.
    pub sparse: bool,
    /// `UMMA::MaxShift` (0 = NoShift, 1/2/3 = 8/16/32).
    pub max_shift: u8,
}

/// `UMMA::to_UMMAFormat<T>`: the format code and its name.
fn umma_format(t: Elem) -> Result<(u64, &'static str)> {
    Ok(match t {
        Elem::F16 => (0, "F16"),
        Elem::BF16 => (1, "BF16"),
        Elem::TF32 => (2, "TF32"),
        Elem::U8 => (0, "UINT8"),
        Elem::S8 => (1, "INT8"),
        Elem::E4M3 => (0, "E4M3"),
        Elem::E5M2 => (1, "E5M2"),
        Elem::E2M3 => (3, "E2M3"),
        Elem::E3M2 => (4, "E3M2"),
        Elem::E2M1 => (1, "E2M1 (MXF4)"),
        _ => {
            return Err(crate::err!(
                "Unknown type for UMMAFormat: {t} (UMMA reads half_t, bfloat16_t, tfloat32_t, int8_t, uint8_t, float_e4m3_t, float_e5m2_t, float_e2m3_t, float_e3m2_t, float_e2m1_t)"
            ))
        }
    })
}

/// `UMMA::make_instr_desc`: every field as CuTe sets it. M and N must be ones the
/// instruction has (M 64/128/256, N 8..256 in steps of 8): C++ shifts them into 5- and
/// 6-bit fields unchecked, so anything else would be a silently wrong descriptor.
///
/// ```
/// use cute_core::{desc::{make_instr_desc, InstrArgs}, elem::Elem, smem_atom::AtomMajor};
/// let d = make_instr_desc(&InstrArgs {
///     a: Elem::F16, b: Elem::F16, c: Elem::F32, m: 128, n: 256,
///     a_major: AtomMajor::K, b_major: AtomMajor::K,
///     a_neg: false, b_neg: false, saturate: false, sparse: false, max_shift: 0,
/// }).unwrap();
/// assert_eq!(d.word, 0x0840_0010);
/// ```
pub fn make_instr_desc(a: &InstrArgs) -> Result<Descriptor> {
    let (af, an) = umma_format(a.a)?;
    let (bf, bn) = umma_format(a.b)?;
    let (cf, cn) = match a.c {
        Elem::F16 => (0, "F16"),
        Elem::F32 => (1, "F32"),
        Elem::S32 => (2, "S32"),
        t => {
            return Err(crate::err!(
                "Unknown type for CFormat: {t} (UMMA accumulates in half_t, float or int32_t)"
            ))
        }
    };
    if ![64, 128, 256].contains(&a.m) {
        return Err(crate::err!(
            "make_instr_desc: M = {} is not an UMMA M (64, 128, or 256 for 2x1SM); C++ would write M >> 4 = {} into the 5-bit m_dim field unchecked",
            a.m,
            a.m >> 4
        ));
    }
    if !(8..=256).contains(&a.n) || a.n % 8 != 0 {
        return Err(crate::err!(
            "make_instr_desc: N = {} is not an UMMA N (8..256 in steps of 8); C++ would write N >> 3 = {} into the 6-bit n_dim field unchecked",
            a.n,
            a.n >> 3
        ));
    }
    if a.max_shift > 3 {
        return Err(crate::err!(
            "make_instr_desc: max shift {} (expected UMMA::MaxShift::NoShift, MaxShift8, MaxShift16 or MaxShift32)",
            a.max_shift
        ));
    }
    let major = |m: AtomMajor| match m {
        AtomMajor::K => (0, "K"),
        AtomMajor::MN => (1, "MN"),
    };
    let (am, amn) = major(a.a_major);
    let (bm, bmn) = major(a.b_major);
    let flag = |b: bool, yes: &str, no: &str| (u64::from(b), if b { yes } else { no }.to_string());
    let (sp, spn) = flag(a.sparse, "sparse", "dense");
    let (sat, satn) = flag(a.saturate, "saturate", "no saturate");
    let (ang, angn) = flag(a.a_neg, "negate", "");
    let (bng, bngn) = flag(a.b_neg, "negate", "");
    let fields = vec![
        field("sparse_id2", 0, 2, 0, String::new()),
        field("sparse_flag", 2, 1, sp, spn),
        field("saturate", 3, 1, sat, satn),
        field("c_format", 4, 2, cf, cn.into()),
        field("a_format", 7, 3, af, an.into()),
        field("b_format", 10, 3, bf, bn.into()),
        field("a_negate", 13, 1, ang, angn),
        field("b_negate", 14, 1, bng, bngn),
        field("a_major", 15, 1, am, amn.into()),
        field("b_major", 16, 1, bm, bmn.into()),
        field("n_dim", 17, 6, (a.n >> 3) as u64, format!("N = {}", a.n)),
        field("m_dim", 24, 5, (a.m >> 4) as u64, format!("M = {}", a.m)),
        field(
            "max_shift",
            30,
            2,
            u64::from(a.max_shift),
            ["no shift", "8", "16", "32"][usize::from(a.max_shift)].into(),
        ),
    ];
    Ok(Descriptor {
        kind: DescKind::UmmaInstr,
        word: pack(&fields),
        fields,
        smem: None,
    })
}

/// The descriptor of a shared-memory operand `n` 16-byte units on: C++'s
/// `DescriptorIterator + n` adds `n` to the descriptor's low word, the start address.
impl Descriptor {
    /// `*(DescriptorIterator{desc} + n)`. The start address must stay inside its 14-bit
    /// field (C++ would carry into the reserved bits and the leading offset).
    ///
    /// ```
    /// use cute_core::desc::{make_smem_desc, DescFamily};
    /// use cute_core::smem_atom::AtomMajor;
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout, Offset, Swizzle};
    /// // The 64x16 A block of SM90_64xNx16 in a K-major SW128 tile of half_t.
    /// let block = AnyLayout::Composed(ComposedLayout {
    ///     swizzle: Swizzle::new(3, 4, 3).unwrap(),
    ///     offset: Offset::SmemPtr { bits: 16 },
    ///     layout: "((8,8),16):((64,512),1)".parse().unwrap(),
    /// });
    /// let d = make_smem_desc(DescFamily::Gmma, AtomMajor::K, &block, None).unwrap();
    /// assert_eq!(d.advanced(0x802).unwrap().word, 0x4000_0040_0001_0802);
    /// assert!(d.advanced(1 << 14).is_err());
    /// ```
    pub fn advanced(&self, n: i64) -> Result<Descriptor> {
        if self.kind == DescKind::UmmaInstr {
            return Err(Error::new(
                "an instruction descriptor has no start address to advance",
            ));
        }
        let start = i64::try_from(self.field("start_addr"))
            .ok()
            .and_then(|s| s.checked_add(n))
            .filter(|s| (0..1 << 14).contains(s))
            .ok_or_else(|| {
                crate::err!(
                    "the descriptor's start address {:#x} + {n} (16-byte units) leaves its 14-bit field (C++ would carry into the next field)",
                    self.field("start_addr")
                )
            })?;
        let mut d = self.clone();
        for f in d.fields.iter_mut().filter(|f| f.name == "start_addr") {
            f.value = start as u64;
        }
        d.word = pack(&d.fields);
        Ok(d)
    }
}

/// CuTe's descriptor fragment of an SM90 GMMA or SM100 UMMA operand in shared memory
/// (`make_fragment_A/B` of an `_SS` MMA): a `GMMA::DescriptorIterator` /
/// `UMMA::DescriptorIterator` over the operand's layout in 16-byte units with its first
/// mode (one MMA's block) collapsed to `1:0`. Element `c` is the block's descriptor with
/// the start address advanced by `layout(c)`.
#[derive(Clone, Debug, PartialEq)]
pub struct DescTensor {
    /// The descriptor of the first element.
    pub desc: Descriptor,
    /// Coordinates to start-address offsets (16-byte units).
    pub layout: Layout,
}

impl fmt::Display for DescTensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let family = match self.desc.kind {
            DescKind::Gmma => "GMMA",
            _ => "UMMA",
        };
        write!(f, "{family}::DescriptorIterator o {}", self.layout)
    }
}

impl DescTensor {
    /// `make_fragment_A/B` of a partitioned shared-memory operand: C++'s
    /// `make_tensor(DescriptorIterator{make_gmma_desc<Major>(tensor<0>(t))},
    /// replace<0>(recast<uint128_t>(t).layout(), Layout<_1,_0>{}))` (UMMA alike). `smem` is
    /// the operand tensor's layout as [`make_smem_desc`] takes a block (the swizzle of its
    /// pointer with the `smem_ptr[Nb]` flag; a plain layout without one), `bits` its element
    /// width and `addr` its byte address (the descriptor's start address is `addr >> 4`,
    /// where a host build of C++ writes 0).
    ///
    /// ```
    /// use cute_core::desc::{DescFamily, DescTensor};
    /// use cute_core::smem_atom::AtomMajor;
    /// use cute_core::swizzle::{AnyLayout, ComposedLayout, Offset};
    /// use cute_core::Swizzle;
    /// let part = AnyLayout::Composed(ComposedLayout {
    ///     swizzle: Swizzle::new(3, 4, 3).unwrap(),
    ///     offset: Offset::SmemPtr { bits: 16 },
    ///     layout: "((64,16),1,4,(1,3)):((64,1),0,16,(0,8192))".parse().unwrap(),
    /// });
    /// let t = DescTensor::of_smem(DescFamily::Gmma, AtomMajor::K, &part, 16, 0).unwrap();
    /// assert_eq!(t.to_string(), "GMMA::DescriptorIterator o (1,1,4,(1,3)):(0,0,2,(0,1024))");
    /// let d = t.at(&"(0,0,1,(0,2))".parse().unwrap()).unwrap();
    /// assert_eq!(d.word, 0x4000_0040_0001_0802);
    /// ```
    pub fn of_smem(
        family: DescFamily,
        major: AtomMajor,
        smem: &AnyLayout,
        bits: i64,
        addr: u64,
    ) -> Result<DescTensor> {
        smem.element_bits(Some(bits))?;
        if !addr.is_multiple_of(16) {
            return Err(crate::err!(
                "the operand's address {addr:#x} is not 16-byte aligned: a descriptor's start address is in 16-byte units"
            ));
        }
        let block = smem.map_inner(|l| l.mode(0))?;
        let desc = make_smem_desc(family, major, &block, Some(bits))?;
        let start =
            i64::try_from(addr >> 4).map_err(|_| crate::err!("address {addr:#x} out of range"))?;
        let desc = desc.advanced(start)?;
        let u128 = layout::recast_layout(bits, 128, smem.inner())?;
        let layout = layout::replace(&u128, 0, &Layout::new(IntTuple::Int(1), IntTuple::Int(0))?)?;
        Ok(DescTensor { desc, layout })
    }

    /// `tensor(c)` of a coordinate with `_`: the sub-tensor, its descriptor advanced to the
    /// fixed coordinates.
    pub fn slice(&self, c: &crate::int_tuple::Coord) -> Result<DescTensor> {
        crate::tensor::in_bounds(c, self.layout.shape())?;
        let offset = self.layout.call_coord(&c.start())?;
        Ok(DescTensor {
            desc: self.desc.advanced(offset)?,
            layout: self.layout.slice(c)?,
        })
    }

    /// `tensor(c)` of a whole coordinate: that element's descriptor.
    pub fn at(&self, c: &IntTuple) -> Result<Descriptor> {
        let offset = match c {
            IntTuple::Int(i) | IntTuple::Dyn(i) => {
                let n = self.layout.size()?;
                if !(0..n).contains(i) {
                    return Err(crate::err!(
                        "index {i} is outside the descriptor tensor's {n} elements"
                    ));
                }
                self.layout.call_index(*i)?
            }
            c => {
                crate::tensor::in_bounds(&coord_of(c), self.layout.shape())?;
                self.layout.call_coord(c)?
            }
        };
        self.desc.advanced(offset)
    }
}

/// An integer coordinate as a slicing coordinate (no `_`).
fn coord_of(c: &IntTuple) -> crate::int_tuple::Coord {
    match c {
        IntTuple::Int(i) | IntTuple::Dyn(i) => crate::int_tuple::Coord::Int(*i),
        IntTuple::Tuple(cs) => crate::int_tuple::Coord::Tuple(cs.iter().map(coord_of).collect()),
    }
}

/// The leading and stride byte offsets (in 16-byte units) of a canonical layout whose
/// divided strides are `((s00, s10), (s01, s11))`, and whether the leading one is read;
/// `None` when the strides are not canonical.
fn offsets(
    major: AtomMajor,
    swizzled: bool,
    w: i64,
    (s00, s10, s01, s11): (i64, i64, i64, i64),
) -> Option<(i64, i64, bool)> {
    match major {
        AtomMajor::MN if (swizzled && s00 != 1) || s10 != w => None,
        AtomMajor::MN if swizzled => Some((s01, s11, true)),
        AtomMajor::MN => Some((s11, s01, true)),
        AtomMajor::K if s00 != w || (swizzled && s10 != 1) => None,
        AtomMajor::K => Some((s10, s01, !swizzled)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swizzle::ComposedLayout;

    fn flagged(b: i64, m: i64, s: i64, bits: i64, l: &str) -> AnyLayout {
        AnyLayout::Composed(ComposedLayout {
            swizzle: Swizzle::new(b, m, s).unwrap(),
            offset: Offset::SmemPtr { bits },
            layout: l.parse().unwrap(),
        })
    }

    #[test]
    fn worked_examples_from_the_headers() {
        let k = flagged(3, 4, 3, 16, "((8,8),16):((64,512),1)");
        let g = make_smem_desc(DescFamily::Gmma, AtomMajor::K, &k, None).unwrap();
        assert_eq!(g.word, 0x4000_0040_0001_0000);
        assert_eq!(
            g.to_string(),
            "GmmaDescriptor: 0x4000004000010000\n  start_addr :  0x0000\n  leading_off:  0x0001 (1)\n  stride_off :  0x0040 (64)\n  base_offset:  0x0\n  layout_type:  0x1 (B128)"
        );
        let u = make_smem_desc(
            DescFamily::Umma,
            AtomMajor::K,
            &flagged(3, 4, 3, 16, "(128,16):(64,1)"),
            None,
        );
        assert_eq!(u.unwrap().word, 0x4000_4040_0001_0000);
    }

    #[test]
    fn non_canonical_layouts_are_refused_with_cutes_message() {
        let e = |l: AnyLayout, major| {
            make_smem_desc(DescFamily::Gmma, major, &l, None)
                .unwrap_err()
                .to_string()
        };
        // The whole 128x64 tile: K is 8 units of 16 B, not 2.
        assert!(e(
            flagged(3, 4, 3, 16, "((8,16),(64,1)):((64,512),(1,0))"),
            AtomMajor::K
        )
        .contains("Expected K-size 2 for dense"));
        // Element-unit swizzle.
        let el = AnyLayout::Composed(ComposedLayout::new(
            Swizzle::new(3, 3, 3).unwrap(),
            0,
            "(64,16):(64,1)".parse().unwrap(),
        ));
        assert!(e(el, AtomMajor::K).contains("byte addresses"));
        assert!(e(flagged(3, 4, 3, 16, "(64,16,2):(64,1,4096)"), AtomMajor::K).contains("rank-2"));
        assert!(e(flagged(2, 5, 2, 16, "(64,16):(64,1)"), AtomMajor::K)
            .contains("Unsupported layout swizzle"));
    }

    #[test]
    fn instr_desc_fields() {
        let base = InstrArgs {
            a: Elem::BF16,
            b: Elem::BF16,
            c: Elem::F32,
            m: 128,
            n: 256,
            a_major: AtomMajor::K,
            b_major: AtomMajor::K,
            a_neg: false,
            b_neg: false,
            saturate: false,
            sparse: false,
            max_shift: 0,
        };
        assert_eq!(make_instr_desc(&base).unwrap().word, 0x0840_0490);
        let bad = InstrArgs {
            m: 512,
            ..base.clone()
        };
        assert!(make_instr_desc(&bad)
            .unwrap_err()
            .to_string()
            .contains("M = 512"));
        let bad = InstrArgs {
            c: Elem::F64,
            ..base
        };
        assert!(make_instr_desc(&bad)
            .unwrap_err()
            .to_string()
            .contains("Unknown type for CFormat"));
    }
}
