//! SM100 `tcgen05.mma` (UMMA) atoms from their typed template arguments: the op-name grammar
//! `SM100_MMA_{FAMILY}[_2x1SM]_{SS|TS}[_SCALED|_SPARSE]` (and SM103's
//! `SM103_MXF4_ULTRA[_2x1SM]_SS_VS`), the K of each family, the `static_assert`s of
//! `MMA_Traits` (element types) and of the op structs (M, N, vector size), and the traits
//! as `mma_traits_sm100.hpp` writes them: one CTA (`ThrID` 1) or a CTA pair (`2x1SM`:
//! `ThrID` 2, each CTA holding half of M and of N).
//!
//! ```
//! use cute_core::{elem::Elem, smem_atom::AtomMajor, umma::{UmmaArgs, UmmaOp}};
//! let op: UmmaOp = "SM100_MMA_F16BF16_2x1SM_SS".parse().unwrap();
//! let args = UmmaArgs::new(op, [Elem::F16, Elem::F16, Elem::F32], 256, 128, [AtomMajor::K; 2]);
//! let atom = cute_core::atom::MmaAtom::umma(&args).unwrap();
//! assert_eq!(atom.name, "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,128,K,K>");
//! assert_eq!(atom.a.to_string(), "(2,(128,16)):(128,(1,256))");
//! ```

use crate::elem::Elem;
use crate::error::{Error, Result};
use crate::smem_atom::AtomMajor;
use std::fmt;
use std::str::FromStr;

/// The element family of a UMMA op (the `FAMILY` of its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UmmaFamily {
    /// `TF32`.
    Tf32,
    /// `F16BF16`.
    F16Bf16,
    /// `S8` (8-bit integers).
    S8,
    /// `F8F6F4`.
    F8F6F4,
    /// `MXF8F6F4` (block-scaled).
    MxF8F6F4,
    /// `MXF4` (block-scaled 4-bit).
    MxF4,
    /// `MXF4NVF4` (block-scaled 4-bit, sparse only).
    MxF4NvF4,
    /// SM103's `MXF4_ULTRA` (`SM103::SM103_MXF4_ULTRA[_2x1SM]_SS_VS`, K = 96).
    Sm103MxF4Ultra,
}

impl UmmaFamily {
    const ALL: [UmmaFamily; 8] = [
        UmmaFamily::Tf32,
        UmmaFamily::F16Bf16,
        UmmaFamily::S8,
        UmmaFamily::F8F6F4,
        UmmaFamily::MxF8F6F4,
        UmmaFamily::MxF4,
        UmmaFamily::MxF4NvF4,
        UmmaFamily::Sm103MxF4Ultra,
    ];

    /// The family as the op name spells it (`F16BF16`).
    ///
    /// ```
    /// use cute_core::umma::UmmaFamily;
    /// assert_eq!(UmmaFamily::MxF4NvF4.tag(), "MXF4NVF4");
    /// ```
    pub fn tag(self) -> &'static str {
        match self {
            UmmaFamily::Tf32 => "TF32",
            UmmaFamily::F16Bf16 => "F16BF16",
            UmmaFamily::S8 => "S8",
            UmmaFamily::F8F6F4 => "F8F6F4",
            UmmaFamily::MxF8F6F4 => "MXF8F6F4",
            UmmaFamily::MxF4 => "MXF4",
            UmmaFamily::MxF4NvF4 => "MXF4NVF4",
            UmmaFamily::Sm103MxF4Ultra => "MXF4_ULTRA",
        }
    }
}

/// A dense, scaled-accumulator (`_SCALED`) or 2:4 structured-sparse (`_SPARSE`) op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UmmaVariant {
    /// No suffix.
    Dense,
    /// `_SCALED`: a scaled accumulator (`ScaleC` template argument).
    Scaled,
    /// `_SPARSE`: 2:4 structured-sparse A (the logical K doubles).
    Sparse,
}

/// A UMMA op name taken apart: `SM100_MMA_{FAMILY}[_2x1SM]_{SS|TS}[_SCALED|_SPARSE]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UmmaOp {
    /// The element family.
    pub family: UmmaFamily,
    /// `_2x1SM`: a CTA pair issues it.
    pub two_sm: bool,
    /// `_TS`: A from tensor memory (else `_SS`, A from shared memory).
    pub a_tmem: bool,
    /// Dense, `_SCALED` or `_SPARSE`.
    pub variant: UmmaVariant,
}

impl fmt::Display for UmmaOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cta = if self.two_sm { "_2x1SM" } else { "" };
        if self.family == UmmaFamily::Sm103MxF4Ultra {
            return write!(f, "SM103_MXF4_ULTRA{cta}_SS_VS");
        }
        let src = if self.a_tmem { "TS" } else { "SS" };
        let variant = match self.variant {
            UmmaVariant::Dense => "",
            UmmaVariant::Scaled => "_SCALED",
            UmmaVariant::Sparse => "_SPARSE",
        };
        write!(f, "SM100_MMA_{}{cta}_{src}{variant}", self.family.tag())
    }
}

/// The Blackwell datacenter MMA families a name belongs to by its spelling: the SM100
/// UMMA ops (`SM100_MMA_...`) and SM103's (`SM103_...`); the grammar is [`UmmaOp`]'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UmmaNaming {
    /// `SM100_MMA_...`.
    Sm100,
    /// `SM103_...`.
    Sm103,
}

impl UmmaNaming {
    /// The family `name` is spelled in, if any.
    ///
    /// ```
    /// use cute_core::umma::UmmaNaming;
    /// assert_eq!(UmmaNaming::of("SM100_MMA_F16BF16_SS"), Some(UmmaNaming::Sm100));
    /// assert_eq!(UmmaNaming::of("SM90_64x8x16_F16F16F16_SS"), None);
    /// ```
    pub fn of(name: &str) -> Option<UmmaNaming> {
        if name.starts_with("SM100_MMA_") {
            Some(UmmaNaming::Sm100)
        } else if name.starts_with("SM103_") {
            Some(UmmaNaming::Sm103)
        } else {
            None
        }
    }
}

impl FromStr for UmmaOp {
    type Err = Error;

    /// The parts of a UMMA op name the headers define.
    ///
    /// ```
    /// use cute_core::umma::{UmmaFamily, UmmaOp, UmmaVariant};
    /// let op: UmmaOp = "SM100_MMA_S8_2x1SM_SS_SPARSE".parse().unwrap();
    /// assert_eq!((op.family, op.two_sm, op.a_tmem, op.variant), (UmmaFamily::S8, true, false, UmmaVariant::Sparse));
    /// assert!("SM100_MMA_MXF4_TS".parse::<UmmaOp>().is_err());
    /// ```
    fn from_str(name: &str) -> Result<UmmaOp> {
        UmmaOp::parse(name).ok_or_else(|| crate::err!("'{name}' is not a UMMA op"))
    }
}

impl UmmaOp {
    fn parse(name: &str) -> Option<UmmaOp> {
        match name {
            "SM103_MXF4_ULTRA_SS_VS" | "SM103_MXF4_ULTRA_2x1SM_SS_VS" => {
                return Some(UmmaOp {
                    family: UmmaFamily::Sm103MxF4Ultra,
                    two_sm: name.contains("_2x1SM"),
                    a_tmem: false,
                    variant: UmmaVariant::Dense,
                })
            }
            _ => {}
        }
        let rest = name.strip_prefix("SM100_MMA_")?;
        let (tag, rest) = rest.split_once('_')?;
        let family = *UmmaFamily::ALL[..7].iter().find(|f| f.tag() == tag)?;
        let (two_sm, rest) = match rest.strip_prefix("2x1SM_") {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let (src, variant) = rest.split_once('_').unwrap_or((rest, ""));
        let a_tmem = match src {
            "SS" => false,
            "TS" => true,
            _ => return None,
        };
        let variant = match variant {
            "" => UmmaVariant::Dense,
            "SCALED" => UmmaVariant::Scaled,
            "SPARSE" => UmmaVariant::Sparse,
            _ => return None,
        };
        use UmmaFamily as F;
        use UmmaVariant as V;
        let ok = matches!(
            (family, a_tmem, variant),
            (F::Tf32 | F::S8 | F::F8F6F4, _, V::Dense)
                | (F::Tf32 | F::S8 | F::F8F6F4 | F::F16Bf16, false, V::Sparse)
                | (F::F16Bf16, _, V::Dense | V::Scaled)
                | (F::MxF8F6F4, false, V::Dense | V::Sparse)
                | (F::MxF4, false, V::Dense)
                | (F::MxF4NvF4, false, V::Sparse)
        );
        ok.then_some(UmmaOp {
            family,
            two_sm,
            a_tmem,
            variant,
        })
    }

    /// `SM100_MMA_F8F6F4_SS` / `_2x1SM_SS`: plain ops whose `MMA_Traits` take the template
    /// arguments (`MMA_Traits<SM100_MMA_F8F6F4_SS, A, B, C, C<M>, C<N>, ...>`).
    ///
    /// ```
    /// use cute_core::umma::UmmaOp;
    /// assert!("SM100_MMA_F8F6F4_2x1SM_SS".parse::<UmmaOp>().unwrap().traits_form());
    /// assert!(!"SM100_MMA_F8F6F4_TS".parse::<UmmaOp>().unwrap().traits_form());
    /// ```
    pub fn traits_form(&self) -> bool {
        self.family == UmmaFamily::F8F6F4 && !self.a_tmem && self.variant == UmmaVariant::Dense
    }

    /// Whether the template has a scale-factor type (the block-scaled families).
    ///
    /// ```
    /// use cute_core::umma::UmmaOp;
    /// assert!("SM100_MMA_MXF8F6F4_SS".parse::<UmmaOp>().unwrap().has_sf());
    /// ```
    pub fn has_sf(&self) -> bool {
        matches!(
            self.family,
            UmmaFamily::MxF8F6F4
                | UmmaFamily::MxF4
                | UmmaFamily::MxF4NvF4
                | UmmaFamily::Sm103MxF4Ultra
        )
    }

    /// Whether the template has a vector size `VS` (the 4-bit block-scaled families).
    ///
    /// ```
    /// use cute_core::umma::UmmaOp;
    /// assert!(!"SM100_MMA_MXF8F6F4_SS".parse::<UmmaOp>().unwrap().has_vs());
    /// ```
    pub fn has_vs(&self) -> bool {
        matches!(
            self.family,
            UmmaFamily::MxF4 | UmmaFamily::MxF4NvF4 | UmmaFamily::Sm103MxF4Ultra
        )
    }

    /// The template's parameter list `<A, B, C, [SF,] M, N, [VS,] MajorA, MajorB, [ScaleC,]
    /// [ANeg, BNeg, [CSat]]>`: where each argument sits, and how many it takes at least and at
    /// most (the trailing ones defaulted).
    ///
    /// ```
    /// use cute_core::umma::UmmaOp;
    /// let p = "SM100_MMA_MXF4_SS".parse::<UmmaOp>().unwrap().template_params();
    /// assert_eq!((p.m, p.vs, p.major_a, p.min, p.max), (4, Some(6), 7, 9, 11));
    /// ```
    pub fn template_params(&self) -> UmmaTemplateParams {
        let m = if self.has_sf() { 4 } else { 3 };
        let vs = self.has_vs().then_some(m + 2);
        let maj = if self.has_vs() { m + 3 } else { m + 2 };
        let scaled = self.variant == UmmaVariant::Scaled;
        let min = maj + 2 + usize::from(scaled);
        let optional = if self.a_tmem {
            3 // a_neg, b_neg, c_sat
        } else if self.family == UmmaFamily::S8 {
            1 // c_sat
        } else {
            2 // a_neg, b_neg
        };
        UmmaTemplateParams {
            m,
            n: m + 1,
            vs,
            major_a: maj,
            major_b: maj + 1,
            scale_c: scaled.then_some(maj + 2),
            min,
            max: min + optional,
        }
    }

    /// The instruction's logical K in elements of A, as `MMA_Traits` defines it: 256 bits of
    /// A (512 sparse); 32 elements for the F8F6F4 families (64 sparse), 64 for `MXF4`, 128
    /// for `MXF4NVF4`, 96 for SM103's `MXF4_ULTRA`.
    ///
    /// ```
    /// use cute_core::umma::UmmaOp;
    /// let op: UmmaOp = "SM100_MMA_TF32_SS_SPARSE".parse().unwrap();
    /// assert_eq!(op.k(32).unwrap(), 16);
    /// ```
    pub fn k(&self, a_bits: i64) -> Result<i64> {
        let sparse = self.variant == UmmaVariant::Sparse;
        let per = if sparse { 512 } else { 256 };
        Ok(match self.family {
            UmmaFamily::F8F6F4 | UmmaFamily::MxF8F6F4 => {
                if sparse {
                    64
                } else {
                    32
                }
            }
            UmmaFamily::MxF4 => 64,
            UmmaFamily::MxF4NvF4 => 128,
            UmmaFamily::Sm103MxF4Ultra => 96,
            _ => {
                if a_bits <= 0 || per % a_bits != 0 {
                    return Err(crate::err!(
                        "a {a_bits}-bit A type does not divide the {per}-bit K of this UMMA"
                    ));
                }
                per / a_bits
            }
        })
    }
}

/// Where the arguments of a UMMA op template sit ([`UmmaOp::template_params`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UmmaTemplateParams {
    /// M.
    pub m: usize,
    /// N.
    pub n: usize,
    /// The vector size `VS`, if the op has one.
    pub vs: Option<usize>,
    /// `MajorA`.
    pub major_a: usize,
    /// `MajorB`.
    pub major_b: usize,
    /// `ScaleC` (the `_SCALED` ops).
    pub scale_c: Option<usize>,
    /// Fewest arguments.
    pub min: usize,
    /// Most arguments (the trailing ones defaulted).
    pub max: usize,
}

/// A UMMA op with its template arguments: `Op<A, B, C, [SF,] M, N, [VS,] MajorA, MajorB,
/// [ScaleC]>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UmmaArgs {
    /// The op.
    pub op: UmmaOp,
    /// A's element type.
    pub a: Elem,
    /// B's element type.
    pub b: Elem,
    /// The accumulator type.
    pub c: Elem,
    /// The scale-factor type of the block-scaled families.
    pub sf: Option<Elem>,
    /// M.
    pub m: i64,
    /// N.
    pub n: i64,
    /// The vector size of the 4-bit block-scaled families.
    pub vs: Option<i64>,
    /// `MajorA`, `MajorB`.
    pub majors: [AtomMajor; 2],
    /// `ScaleC` of the `_SCALED` ops.
    pub scale_c: Option<i64>,
}

fn major_name(m: AtomMajor) -> &'static str {
    match m {
        AtomMajor::K => "K",
        AtomMajor::MN => "MN",
    }
}

/// `Op<A,B,C,[SF,]M,N,[VS,]MajorA,MajorB[,ScaleC]>` as the atom's name prints it.
impl fmt::Display for UmmaArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}<{},{},{}", self.op, self.a, self.b, self.c)?;
        if let Some(sf) = self.sf {
            write!(f, ",{sf}")?;
        }
        write!(f, ",{},{}", self.m, self.n)?;
        if let Some(vs) = self.vs {
            write!(f, ",{vs}")?;
        }
        write!(
            f,
            ",{},{}",
            major_name(self.majors[0]),
            major_name(self.majors[1])
        )?;
        if let Some(s) = self.scale_c {
            write!(f, ",{s}")?;
        }
        f.write_str(">")
    }
}

impl UmmaArgs {
    /// The arguments of an op without scale factor, vector size or `ScaleC`.
    ///
    /// ```
    /// use cute_core::{elem::Elem, smem_atom::AtomMajor, umma::UmmaArgs};
    /// let a = UmmaArgs::new("SM100_MMA_S8_SS".parse().unwrap(), [Elem::S8, Elem::U8, Elem::S32], 128, 64, [AtomMajor::K; 2]);
    /// assert_eq!(a.to_string(), "SM100_MMA_S8_SS<int8_t,uint8_t,int32_t,128,64,K,K>");
    /// ```
    pub fn new(op: UmmaOp, [a, b, c]: [Elem; 3], m: i64, n: i64, majors: [AtomMajor; 2]) -> Self {
        UmmaArgs {
            op,
            a,
            b,
            c,
            sf: None,
            m,
            n,
            vs: None,
            majors,
            scale_c: None,
        }
    }

    /// The `static_assert`s of `MMA_Traits` on the element types (they hold whether or not a
    /// value of the op is made): the A/B widths of each family, the scale-factor type, the
    /// vector size of the 1-SM `MXF4` and of `MXF4NVF4`, SM103's K-major operands.
    ///
    /// ```
    /// use cute_core::{elem::Elem, smem_atom::AtomMajor, umma::{UmmaArgs, UmmaOp}};
    /// let args = UmmaArgs::new("SM100_MMA_TF32_SS".parse().unwrap(), [Elem::F16, Elem::F16, Elem::F32], 128, 128, [AtomMajor::K; 2]);
    /// assert_eq!(args.check_types().unwrap_err().msg,
    ///     "SM100_MMA_TF32_SS supports 32bit types, got half_t (16 bits) and half_t (16 bits)");
    /// ```
    pub fn check_types(&self) -> Result<()> {
        let base = self.op;
        let u = &self.op;
        if u.family == UmmaFamily::Sm103MxF4Ultra {
            if self.majors != [AtomMajor::K; 2] {
                return Err(crate::err!(
                    "{base}: this MMA does not support transpose (A and B must be UMMA::Major::K)"
                ));
            }
            return Ok(());
        }
        let (a, b) = (self.a.bits(), self.b.bits());
        let (ok, what) = match u.family {
            UmmaFamily::Tf32 => (a == 32 && b == 32, "32bit types"),
            UmmaFamily::F16Bf16 => (a == 16 && b == 16, "16bit types"),
            UmmaFamily::S8 => (a == 8 && b == 8, "8bit types"),
            UmmaFamily::MxF4 | UmmaFamily::MxF4NvF4 => (a == 4 && b == 4, "4bit types"),
            _ => (a <= 8 && b <= 8, "types with leq 8bit types"),
        };
        if !ok {
            return Err(crate::err!(
                "{base} supports {what}, got {} ({a} bits) and {} ({b} bits)",
                self.a,
                self.b
            ));
        }
        if u.has_sf() && !self.sf.is_some_and(Elem::is_scale_factor) {
            return Err(crate::err!(
                "{base}: the scale-factor type is float_ue8m0_t or float_ue4m3_t, got {}",
                self.sf.map_or("none", Elem::cpp_name)
            ));
        }
        if let Some(vs) = self.vs {
            // MMA_Traits of the 1-SM MXF4 and of both MXF4NVF4 (sparse) atoms: the wider
            // vector size needs e2m1 A/B and ue8m0 scale factors.
            let (wide, narrow) = if u.family == UmmaFamily::MxF4 {
                (32, 16)
            } else {
                (64, 32)
            };
            let wide_ok =
                self.a == Elem::E2M1 && self.b == Elem::E2M1 && self.sf == Some(Elem::UE8M0);
            if (u.family == UmmaFamily::MxF4NvF4 || !u.two_sm)
                && !(vs == narrow || (vs == wide && wide_ok))
            {
                return Err(crate::err!(
                    "{base}: the vector size VS = {vs} must be {narrow}, or {wide} with float_e2m1_t A and B and float_ue8m0_t scale factors"
                ));
            }
        }
        Ok(())
    }

    /// The `static_assert`s of the op struct, which C++ checks when a value of it is made
    /// (`make_tiled_mma(Op{})`) but not when only its traits are named: A from TMEM
    /// K-major, the accumulator of the 8-bit integer ops, M, N and the vector size.
    ///
    /// ```
    /// use cute_core::{elem::Elem, smem_atom::AtomMajor, umma::{UmmaArgs, UmmaOp}};
    /// let args = UmmaArgs::new("SM100_MMA_F16BF16_SS".parse().unwrap(), [Elem::F16, Elem::F16, Elem::F32], 96, 128, [AtomMajor::K; 2]);
    /// assert_eq!(args.check_op().unwrap_err().msg,
    ///     "SM100_MMA_F16BF16_SS: M = 96, but M must be 64 or 128 for a 1-CTA MMA");
    /// ```
    pub fn check_op(&self) -> Result<()> {
        let base = self.op;
        let u = &self.op;
        let (mm, nn) = (self.m, self.n);
        if u.family == UmmaFamily::Sm103MxF4Ultra {
            return self.sm103_check_op();
        }
        let mn_b = self.majors[1] == AtomMajor::MN;
        if u.a_tmem && self.majors[0] == AtomMajor::MN {
            return Err(crate::err!(
                "{base}: A from TMEM can't be transposed (A must be UMMA::Major::K)"
            ));
        }
        if u.family == UmmaFamily::S8 && !u.a_tmem && !u.two_sm && self.c != Elem::S32 {
            return Err(crate::err!("{base}: the result type can only be int32_t"));
        }
        let traits_form = u.traits_form();
        let sparse = u.variant == UmmaVariant::Sparse;
        let ms: &[i64] = match (u.family, u.two_sm) {
            (UmmaFamily::MxF8F6F4 | UmmaFamily::MxF4 | UmmaFamily::MxF4NvF4, false) => &[128],
            (UmmaFamily::MxF8F6F4, true) => &[256],
            (UmmaFamily::MxF4NvF4, true) => &[],
            (_, false) => &[64, 128],
            (_, true) => &[128, 256],
        };
        if !ms.is_empty() && !ms.contains(&mm) {
            let list: Vec<String> = ms.iter().map(|m| m.to_string()).collect();
            return Err(crate::err!(
                "{base}: M = {mm}, but M must be {} for a {} MMA",
                list.join(" or "),
                if u.two_sm { "2-CTA" } else { "1-CTA" }
            ));
        }
        // (step, first N) of the N range, up to 256; `eight_or` also admits N = 8.
        let f8_sparse = u.family == UmmaFamily::F8F6F4 && sparse;
        let (step, rule, eight_or) = if u.two_sm {
            let step =
                if u.a_tmem || u.family == UmmaFamily::S8 || f8_sparse || (traits_form && mn_b) {
                    32
                } else {
                    16
                };
            let why = match (traits_form, mn_b) {
                (false, _) => "",
                (true, true) => " when B is MN major",
                (true, false) => " when B is K major",
            };
            (step, why, false)
        } else if u.family == UmmaFamily::S8 {
            (16, "", true)
        } else if u.a_tmem || f8_sparse {
            if mm == 64 {
                (8, " for M=64", false)
            } else {
                (16, " for M=128", false)
            }
        } else if traits_form && mn_b {
            (16, " when B is MN major", false)
        } else if traits_form {
            (8, " when B is K major", false)
        } else {
            (8, "", false)
        };
        let n_ok = (eight_or && nn == 8) || (nn % step == 0 && step <= nn && nn <= 256);
        if !n_ok {
            return Err(crate::err!(
                "{base}: N = {nn}, but N must be {}a multiple of {step} between {step} and 256{rule}",
                if eight_or { "8 or " } else { "" }
            ));
        }
        if u.has_vs() {
            let vs = self.vs.unwrap_or(0);
            let allowed: &[i64] = match (u.family, u.two_sm) {
                (UmmaFamily::MxF4, _) => &[16, 32],
                (UmmaFamily::MxF4NvF4, true) => &[32, 64],
                _ => &[],
            };
            if !allowed.is_empty() && !allowed.contains(&vs) {
                return Err(crate::err!(
                    "{base}: the vector size VS = {vs} can only be {} or {}",
                    allowed[0],
                    allowed[1]
                ));
            }
        }
        Ok(())
    }

    /// The static_asserts of the SM103 op structs: M, N and the vector size.
    fn sm103_check_op(&self) -> Result<()> {
        let (base, two_sm, mm, nn) = (self.op, self.op.two_sm, self.m, self.n);
        let m_ok = if two_sm {
            mm == 128 || mm == 256
        } else {
            mm == 128
        };
        if !m_ok {
            return Err(crate::err!(
                "{base}: M = {mm}, but M must be {} for a {} MMA",
                if two_sm { "128 or 256" } else { "128" },
                if two_sm { "2-CTA" } else { "1-CTA" }
            ));
        }
        if !(nn % 16 == 0 && (16..=256).contains(&nn)) {
            return Err(crate::err!(
                "{base}: N = {nn}, but N must be a multiple of 16 between 16 and 256"
            ));
        }
        let vs = self.vs.unwrap_or(0);
        let wide_ok = self.a == Elem::E2M1 && self.sf == Some(Elem::UE8M0);
        if !(vs == 16 || (vs == 32 && wide_ok)) {
            return Err(crate::err!(
                "{base}: the vector size VS = {vs} can only be 16, or 32 with a float_e2m1_t A and float_ue8m0_t scale factors"
            ));
        }
        Ok(())
    }
}

/// The kernel schedule's say in CUTLASS's SM100 builders: a 1-SM or 2-SM MMA, or
/// `KernelScheduleAuto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sm100Schedule {
    /// A `...1Sm...` schedule.
    OneSm,
    /// A `...2Sm...` schedule.
    TwoSm,
    /// `KernelScheduleAuto`.
    Auto,
}

impl Sm100Schedule {
    /// The schedule a CUTLASS kernel schedule tag names (`KernelTmaWarpSpecialized2SmSm100`
    /// is 2-SM), `None` for a tag that is no SM100 1SM/2SM schedule.
    ///
    /// ```
    /// use cute_core::umma::Sm100Schedule;
    /// assert_eq!(Sm100Schedule::from_tag("KernelTmaWarpSpecialized1SmSm100"), Some(Sm100Schedule::OneSm));
    /// assert_eq!(Sm100Schedule::from_tag("KernelTmaWarpSpecialized"), None);
    /// ```
    pub fn from_tag(tag: &str) -> Option<Sm100Schedule> {
        if tag.contains("2Sm") {
            Some(Sm100Schedule::TwoSm)
        } else if tag.contains("1Sm") {
            Some(Sm100Schedule::OneSm)
        } else if tag == "KernelScheduleAuto" {
            Some(Sm100Schedule::Auto)
        } else {
            None
        }
    }
}

/// CUTLASS `detail::sm100_make_trivial_tiled_mma<A, B, Acc, TileShape_MNK, ClusterShape_MNK,
/// MajorA, MajorB, ScheduleTag>()`'s choice of op (`sm100_common.inl`): a 2-SM UMMA when the
/// schedule asks for one, or for `KernelScheduleAuto` when the cluster's M is even and the
/// tile's M a multiple of 128; else a 1-SM UMMA; the family from A's type (the F8F6F4 op is
/// named through its traits: [`UmmaOp::traits_form`]).
///
/// ```
/// use cute_core::{elem::Elem, smem_atom::AtomMajor, umma::{sm100_trivial_mma_op, Sm100Schedule}};
/// let args = sm100_trivial_mma_op([Elem::F16, Elem::F16, Elem::F32], [256, 128], 2, [AtomMajor::K; 2], Sm100Schedule::Auto).unwrap();
/// assert_eq!(args.to_string(), "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,128,K,K>");
/// ```
pub fn sm100_trivial_mma_op(
    [a, b, c]: [Elem; 3],
    [m, n]: [i64; 2],
    cluster_m: i64,
    majors: [AtomMajor; 2],
    schedule: Sm100Schedule,
) -> Result<UmmaArgs> {
    let two_sm = match schedule {
        Sm100Schedule::TwoSm => true,
        Sm100Schedule::OneSm => false,
        Sm100Schedule::Auto => cluster_m % 2 == 0 && m % 128 == 0,
    };
    let ok_m = if two_sm {
        m == 128 || m == 256
    } else {
        m == 64 || m == 128
    };
    if !ok_m || n % 8 != 0 || n > 256 {
        return Err(crate::err!(
            "sm100_make_trivial_tiled_mma: invalid tile ({m}, {n}) for a {}-SM MMA (M {}, N a multiple of 8 up to 256)",
            if two_sm { 2 } else { 1 },
            if two_sm { "128 or 256" } else { "64 or 128" }
        ));
    }
    let family = match a {
        Elem::TF32 => UmmaFamily::Tf32,
        Elem::F16 | Elem::BF16 => UmmaFamily::F16Bf16,
        Elem::S8 | Elem::U8 => UmmaFamily::S8,
        Elem::E4M3 | Elem::E5M2 => UmmaFamily::F8F6F4,
        t => {
            return Err(crate::err!(
                "sm100_make_trivial_tiled_mma: {t} operands are not modelled (TF32, F16/BF16, 8-bit integers and FP8 are)"
            ))
        }
    };
    let op = UmmaOp {
        family,
        two_sm,
        a_tmem: false,
        variant: UmmaVariant::Dense,
    };
    Ok(UmmaArgs::new(op, [a, b, c], m, n, majors))
}

/// CuTeDSL `sm100_utils.make_trivial_tiled_mma`'s choice of tcgen05 op for the A and B
/// types (`cutlass/utils/blackwell_helpers.py`): the family and the A, B and accumulator
/// types the op reads (`float` operands are read as `tfloat32_t`; TF32 and 8-bit integer
/// MMAs accumulate in `float` / `int32_t` whatever is asked). A and B must agree except in
/// the F8F6F4 family, whose types are independent.
///
/// ```
/// use cute_core::{elem::Elem, umma::{dsl_trivial_mma_types, UmmaFamily}};
/// assert_eq!(dsl_trivial_mma_types(Elem::F32, Elem::F32, Elem::F16).unwrap(), (UmmaFamily::Tf32, [Elem::TF32, Elem::TF32, Elem::F32]));
/// assert_eq!(dsl_trivial_mma_types(Elem::E4M3, Elem::E2M1, Elem::F32).unwrap(), (UmmaFamily::F8F6F4, [Elem::E4M3, Elem::E2M1, Elem::F32]));
/// assert!(dsl_trivial_mma_types(Elem::F16, Elem::BF16, Elem::F32).is_err());
/// ```
pub fn dsl_trivial_mma_types(a: Elem, b: Elem, acc: Elem) -> Result<(UmmaFamily, [Elem; 3])> {
    Ok(match (a, b) {
        (Elem::F16 | Elem::BF16, _) if a == b => (UmmaFamily::F16Bf16, [a, a, acc]),
        (Elem::TF32 | Elem::F32, _) if a == b => {
            (UmmaFamily::Tf32, [Elem::TF32, Elem::TF32, Elem::F32])
        }
        (Elem::S8 | Elem::U8, _) if a == b => (UmmaFamily::S8, [a, a, Elem::S32]),
        _ if a.is_f8f6f4() && b.is_f8f6f4() => (UmmaFamily::F8F6F4, [a, b, acc]),
        _ => {
            return Err(crate::err!(
                "make_trivial_tiled_mma: unsupported a_dtype/b_dtype, got {a} and {b} (F16/BF16, TF32 and 8-bit integers of one type, or any 8-, 6- and 4-bit floats)"
            ))
        }
    })
}
