//! SM90 warpgroup MMAs (GMMA, `wgmma.mma_async`) by their typed parts: the op-name grammar
//! `SM90_64x{N}x{K}_{C}{A}{B}_{SS|RS}[_TN[_SATURATE]]` (and the sparse
//! `SM90::GMMA::SPARSE::GMMA_64x{N}x{K}_...`), and CUTLASS's `ss_op_selector` /
//! `rs_op_selector` (`mma_sm90.hpp`).
//!
//! ```
//! use cute_core::{elem::Elem, gmma::GmmaOp};
//! let op: GmmaOp = "SM90_64x128x32_F32E4M3E5M2_RS_TN".parse().unwrap();
//! assert_eq!((op.n, op.k, op.a, op.b, op.a_reg), (128, 32, Elem::E4M3, Elem::E5M2, true));
//! assert_eq!(op.to_string(), "SM90_64x128x32_F32E4M3E5M2_RS_TN");
//! ```

use crate::elem::Elem;
use crate::error::{Error, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::smem_atom::AtomMajor;
use std::fmt;
use std::str::FromStr;

/// A GMMA op: M is always 64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GmmaOp {
    /// N (8 to 256, a multiple of 8).
    pub n: i64,
    /// K (256 bits of A; twice that for the sparse ops).
    pub k: i64,
    /// The accumulator type.
    pub c: Elem,
    /// A's type.
    pub a: Elem,
    /// B's type.
    pub b: Elem,
    /// `_RS`: A from registers (else `_SS`, A from shared memory).
    pub a_reg: bool,
    /// `_TN`: K-major A and B only (the op takes no majors).
    pub tn: bool,
    /// `_SATURATE` (integer ops).
    pub saturate: bool,
    /// `SM90::GMMA::SPARSE::GMMA_...`: 2:4 structured-sparse A.
    pub sparse: bool,
}

impl fmt::Display for GmmaOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}_64x{}x{}_{}{}{}_{}{}{}",
            if self.sparse { "GMMA" } else { "SM90" },
            self.n,
            self.k,
            self.c.letters().unwrap_or("?"),
            self.a.letters().unwrap_or("?"),
            self.b.letters().unwrap_or("?"),
            if self.a_reg { "RS" } else { "SS" },
            if self.tn { "_TN" } else { "" },
            if self.saturate { "_SATURATE" } else { "" },
        )
    }
}

impl FromStr for GmmaOp {
    type Err = Error;

    /// The parts of a GMMA op name (dense `SM90_64x...`, or `MMA_64x...` as the arch's
    /// struct in `SM90::GMMA` is named; sparse `GMMA_64x...`).
    ///
    /// ```
    /// use cute_core::gmma::GmmaOp;
    /// let dense: GmmaOp = "MMA_64x64x16_F32F16F16_SS".parse().unwrap();
    /// assert_eq!(dense.to_string(), "SM90_64x64x16_F32F16F16_SS");
    /// let op: GmmaOp = "GMMA_64x8x64_S32S8U8_SS_TN_SATURATE".parse().unwrap();
    /// assert!(op.sparse && op.saturate && op.tn && !op.a_reg);
    /// assert!("SM90_16x8x4_F64F64F64F64_TN".parse::<GmmaOp>().is_err());
    /// ```
    fn from_str(name: &str) -> Result<GmmaOp> {
        GmmaOp::parse(name).ok_or_else(|| crate::err!("'{name}' is not a GMMA op"))
    }
}

impl GmmaOp {
    fn parse(name: &str) -> Option<GmmaOp> {
        let (sparse, rest) = match name
            .strip_prefix("SM90_64x")
            .or_else(|| name.strip_prefix("MMA_64x"))
        {
            Some(r) => (false, r),
            None => (true, name.strip_prefix("GMMA_64x")?),
        };
        let (n, rest) = rest.split_once('x')?;
        let (k, rest) = rest.split_once('_')?;
        let (n, k) = (n.parse().ok()?, k.parse().ok()?);
        let mut types = rest;
        let mut elem = || -> Option<Elem> {
            let e = Elem::ALL
                .iter()
                .copied()
                .find(|e| e.letters().is_some_and(|l| types.starts_with(l)))?;
            types = &types[e.letters()?.len()..];
            Some(e)
        };
        let (c, a, b) = (elem()?, elem()?, elem()?);
        let (a_reg, tn, saturate) = match types {
            "_SS" => (false, false, false),
            "_RS" => (true, false, false),
            "_SS_TN" => (false, true, false),
            "_RS_TN" => (true, true, false),
            "_SS_TN_SATURATE" => (false, true, true),
            "_RS_TN_SATURATE" => (true, true, true),
            _ => return None,
        };
        Some(GmmaOp {
            n,
            k,
            c,
            a,
            b,
            a_reg,
            tn,
            saturate,
            sparse,
        })
    }

    /// The dense op of a sparse one (K halved), or the op itself.
    ///
    /// ```
    /// use cute_core::gmma::GmmaOp;
    /// let op: GmmaOp = "GMMA_64x16x32_F16F16F16_RS".parse().unwrap();
    /// assert_eq!(op.dense().to_string(), "SM90_64x16x16_F16F16F16_RS");
    /// ```
    pub fn dense(&self) -> GmmaOp {
        if !self.sparse {
            return *self;
        }
        GmmaOp {
            k: self.k / 2,
            sparse: false,
            ..*self
        }
    }

    /// The sparse op of a dense one (K doubled), or the op itself.
    ///
    /// ```
    /// use cute_core::gmma::GmmaOp;
    /// let op: GmmaOp = "SM90_64x16x8_F32TF32TF32_SS_TN".parse().unwrap();
    /// assert_eq!(op.sparse().to_string(), "GMMA_64x16x16_F32TF32TF32_SS_TN");
    /// ```
    pub fn sparse(&self) -> GmmaOp {
        if self.sparse {
            return *self;
        }
        GmmaOp {
            k: self.k * 2,
            sparse: true,
            ..*self
        }
    }

    /// Whether C++ declares the op as a class template: every sparse op, and every dense op
    /// but the integer ones (the floating-point `_TN` ones take defaulted scale arguments,
    /// `<>`).
    ///
    /// ```
    /// use cute_core::gmma::GmmaOp;
    /// let op = |s: &str| s.parse::<GmmaOp>().unwrap();
    /// assert!(op("SM90_64x8x16_F16F16F16_SS").is_class_template());
    /// assert!(op("SM90_64x8x32_F16E4M3E4M3_SS_TN").is_class_template());
    /// assert!(!op("SM90_64x8x32_S32S8S8_SS_TN").is_class_template());
    /// assert!(op("GMMA_64x8x64_S32S8S8_SS_TN").is_class_template());
    /// ```
    pub fn is_class_template(&self) -> bool {
        self.sparse || self.c != Elem::S32
    }

    /// The static_assert of an RS op struct, checked when a value of it is made: A read
    /// from registers must be K-major.
    ///
    /// ```
    /// use cute_core::{gmma::GmmaOp, smem_atom::AtomMajor};
    /// let op: GmmaOp = "SM90_64x8x16_F16F16F16_RS".parse().unwrap();
    /// assert!(op.check_op([AtomMajor::MN, AtomMajor::K]).is_err());
    /// ```
    pub fn check_op(&self, majors: [AtomMajor; 2]) -> Result<()> {
        if self.a_reg && majors[0] == AtomMajor::MN {
            return Err(crate::err!(
                "{self}: register source A operand GMMAs must have K-major A layout"
            ));
        }
        Ok(())
    }
}

/// The GMMA instruction of the types `(C, A, B)`: its K and whether it reads K-major A and
/// B only (`_TN`): F16/BF16 inputs K = 16 (any majors), TF32 K = 8, FP8 (F16 or F32
/// accumulators) and 8-bit integers (S32) K = 32; `None` where no GMMA takes them.
///
/// ```
/// use cute_core::{elem::Elem, gmma::gmma_k};
/// assert_eq!(gmma_k([Elem::F32, Elem::BF16, Elem::BF16]), Some((16, false)));
/// assert_eq!(gmma_k([Elem::F16, Elem::BF16, Elem::BF16]), None);
/// ```
pub fn gmma_k([c, a, b]: [Elem; 3]) -> Option<(i64, bool)> {
    let fp8 = |t: Elem| matches!(t, Elem::E4M3 | Elem::E5M2);
    let int8 = |t: Elem| matches!(t, Elem::S8 | Elem::U8);
    Some(match (c, a, b) {
        (Elem::F16, Elem::F16, Elem::F16)
        | (Elem::F32, Elem::F16, Elem::F16)
        | (Elem::F32, Elem::BF16, Elem::BF16) => (16, false),
        (Elem::F32, Elem::TF32, Elem::TF32) => (8, true),
        (Elem::F16 | Elem::F32, x, y) if fp8(x) && fp8(y) => (32, true),
        (Elem::S32, x, y) if int8(x) && int8(y) => (32, true),
        _ => return None,
    })
}

/// CUTLASS `SM90::GMMA::ss_op_selector` / `rs_op_selector<A, B, C, TileShape_MNK, MajorA,
/// MajorB>()` (`mma_sm90.hpp`): the GMMA of the widest N (256, 192, 128, 96, 64, 32, 16, 8;
/// the extended N shapes are off by default) that divides the tile's N.
///
/// ```
/// use cute_core::{elem::Elem, gmma::op_selector, smem_atom::AtomMajor};
/// let op = op_selector(false, [Elem::F16, Elem::F16, Elem::F32], [128, 160, 64], [AtomMajor::K; 2]).unwrap();
/// assert_eq!(op.to_string(), "SM90_64x32x16_F32F16F16_SS");
/// ```
pub fn op_selector(
    a_reg: bool,
    [a, b, c]: [Elem; 3],
    [tm, tn, tk]: [i64; 3],
    majors: [AtomMajor; 2],
) -> Result<GmmaOp> {
    let what = if a_reg {
        "rs_op_selector"
    } else {
        "ss_op_selector"
    };
    if tm % 64 != 0 {
        return Err(crate::err!(
            "{what}: the tile's M is {tm} (CUTLASS: \"Tile_M must be a multiple of 64.\")"
        ));
    }
    let mn = majors.map(|m| m == AtomMajor::MN);
    if a_reg && mn[0] {
        return Err(crate::err!(
            "{what}: register source A operand GMMAs must have K-major A layout"
        ));
    }
    let Some((k, tn_only)) = gmma_k([c, a, b]) else {
        return Err(crate::err!("{what}: no GMMA for A = {a}, B = {b}, C = {c}"));
    };
    if tn_only && (mn[0] || mn[1]) {
        return Err(crate::err!(
            "{what}: MajorA and MajorB must be GMMA::Major::K for {} x {}",
            a.letters().unwrap_or("?"),
            b.letters().unwrap_or("?")
        ));
    }
    if tk % k != 0 {
        return Err(crate::err!(
            "{what}: the tile's K is {tk} (CUTLASS: \"Tile_K must be a multiple of {k}.\")"
        ));
    }
    let n = [256, 192, 128, 96, 64, 32, 16, 8]
        .into_iter()
        .find(|n| tn % n == 0)
        .ok_or_else(|| {
            crate::err!(
                "{what}: the tile's N is {tn} (CUTLASS: \"Tile_N must be a multiple of 8.\")"
            )
        })?;
    Ok(GmmaOp {
        n,
        k,
        c,
        a,
        b,
        a_reg,
        tn: tn_only,
        saturate: false,
        sparse: false,
    })
}

// ---------------------------------------------------------------------------------------
// Sparse GMMA traits from the dense ones (mma_traits_sm90_gmma_sparse.hpp)
// ---------------------------------------------------------------------------------------

fn tuple(v: Vec<IntTuple>) -> IntTuple {
    IntTuple::Tuple(v)
}

/// `GMMA::ABLayout<M, K>`: A or B read from shared memory through a descriptor, every thread
/// of the warpgroup seeing the whole `M x K` block: `(128,(M,K)):(0,(1,M))`.
///
/// ```
/// assert_eq!(cute_core::gmma::ab_layout(64, 32).unwrap().to_string(), "(128,(64,32)):(0,(1,64))");
/// ```
pub fn ab_layout(m: i64, k: i64) -> Result<Layout> {
    Layout::new(
        tuple(vec![IntTuple::Int(128), IntTuple::ints(&[m, k])]),
        tuple(vec![IntTuple::Int(0), IntTuple::ints(&[1, m])]),
    )
}

/// `GMMA::ALayout_64xK` for K = 16, 32, 64 (register-sourced A of 16-bit, 8-bit and sparse
/// 8-bit types): `((4,8,4),(V,2,2)):((64V,1,16),(64,8,256V))` with V = K/8.
///
/// ```
/// assert_eq!(cute_core::gmma::a_layout_rs(32).unwrap().to_string(), "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))");
/// ```
pub fn a_layout_rs(k: i64) -> Result<Layout> {
    if !matches!(k, 16 | 32 | 64) {
        return Err(crate::err!(
            "GMMA::ALayout_64x{k} does not exist (ALayout_64x16, 64x32 and 64x64 do)"
        ));
    }
    let v = k / 8;
    Layout::new(
        tuple(vec![IntTuple::ints(&[4, 8, 4]), IntTuple::ints(&[v, 2, 2])]),
        tuple(vec![
            IntTuple::ints(&[64 * v, 1, 16]),
            IntTuple::ints(&[64, 8, 256 * v]),
        ]),
    )
}

/// `GMMA::ALayout_64x8`: the register-sourced A of a 32-bit (TF32) GMMA,
/// `((4,8,4),(2,2)):((64,1,16),(8,256))`.
pub fn a_layout_64x8() -> Result<Layout> {
    Layout::new(
        tuple(vec![IntTuple::ints(&[4, 8, 4]), IntTuple::ints(&[2, 2])]),
        tuple(vec![
            IntTuple::ints(&[64, 1, 16]),
            IntTuple::ints(&[8, 256]),
        ]),
    )
}

/// `GMMA::CLayout_64xN<N>`: the accumulator of a 64 x N GMMA,
/// `((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))`, N a positive multiple of 8.
///
/// ```
/// assert_eq!(cute_core::gmma::c_layout(64).unwrap().to_string(), "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))");
/// assert!(cute_core::gmma::c_layout(12).is_err());
/// ```
pub fn c_layout(n: i64) -> Result<Layout> {
    if n <= 0 || n % 8 != 0 {
        return Err(crate::err!(
            "GMMA::CLayout_64xN<{n}>: N must be a positive multiple of 8 (Int<N/8>)"
        ));
    }
    Layout::new(
        tuple(vec![
            IntTuple::ints(&[4, 8, 4]),
            IntTuple::ints(&[2, 2, n / 8]),
        ]),
        tuple(vec![
            IntTuple::ints(&[128, 1, 16]),
            IntTuple::ints(&[64, 8, 512]),
        ]),
    )
}

/// GMMA's thread-value layouts that CuTe names without template arguments:
/// `CLayout_64x{8,16,32,64,96,128,192,256}` and `ALayout_64x{8,16,32,64}`; `None` for any
/// other name.
///
/// ```
/// let l = cute_core::gmma::named_layout("CLayout_64x64").unwrap().unwrap();
/// assert_eq!(l.to_string(), "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))");
/// assert!(cute_core::gmma::named_layout("CLayout_64x24").is_none());
/// ```
pub fn named_layout(name: &str) -> Option<Result<Layout>> {
    let n = |prefix: &str| name.strip_prefix(prefix)?.parse::<i64>().ok();
    match (n("CLayout_64x"), n("ALayout_64x")) {
        (Some(n @ (8 | 16 | 32 | 64 | 96 | 128 | 192 | 256)), _) => Some(c_layout(n)),
        (_, Some(8)) => Some(a_layout_64x8()),
        (_, Some(k @ (16 | 32 | 64))) => Some(a_layout_rs(k)),
        _ => None,
    }
}

/// `GMMA::ELayout_64xK`: the metadata layout of a sparse GMMA of (logical) K = 16, 32, 64.
///
/// ```
/// assert_eq!(cute_core::gmma::e_layout(64).unwrap().to_string(), "((2,2,8,4),(32)):((8,2048,1,16),(64))");
/// ```
pub fn e_layout(k: i64) -> Result<Layout> {
    let (thr, val, thr_stride, val_stride) = match k {
        16 => (
            [2, 2, 8, 4],
            IntTuple::ints(&[8, 2]),
            [512, 0, 1, 16],
            IntTuple::ints(&[64, 8]),
        ),
        32 => (
            [2, 2, 8, 4],
            IntTuple::ints(&[16, 2]),
            [1024, 0, 1, 16],
            IntTuple::ints(&[64, 8]),
        ),
        64 => (
            [2, 2, 8, 4],
            IntTuple::ints(&[32]),
            [8, 2048, 1, 16],
            IntTuple::ints(&[64]),
        ),
        _ => {
            return Err(crate::err!(
                "GMMA::ELayout_64x{k} does not exist (ELayout_64x16, 64x32 and 64x64 do)"
            ))
        }
    };
    Layout::new(
        tuple(vec![IntTuple::ints(&thr), val]),
        tuple(vec![IntTuple::ints(&thr_stride), val_stride]),
    )
}

/// The metadata layout (`ELayout`) of a sparse GMMA atom.
///
/// ```
/// use cute_core::gmma::{sparse_e_layout, GmmaOp};
/// let op: GmmaOp = "GMMA_64x8x16_F32TF32TF32_RS_TN".parse().unwrap();
/// assert_eq!(sparse_e_layout(&op).unwrap().to_string(), "((2,2,8,4),(8,2)):((512,0,1,16),(64,8))");
/// ```
pub fn sparse_e_layout(op: &GmmaOp) -> Result<Layout> {
    if !op.sparse {
        return Err(crate::err!("{op} is dense: it has no metadata"));
    }
    e_layout(op.k)
}

/// CuTeDSL's warpgroup ops (`cute/nvgpu/warpgroup/mma.py`: `MmaF16BF16Op`, `MmaF8Op`,
/// `MmaI8Op`): the GMMA of `[A, B, accumulator]` and the instruction shape `(M, N[, K])`,
/// with the DSL's checks (no TF32; M is 64, N a multiple of 8 up to 256, K the
/// instruction's; the `_TN` families K-major only; a register-sourced A K-major).
///
/// ```
/// use cute_core::{elem::Elem, gmma::warpgroup_op, smem_atom::AtomMajor};
/// let op = warpgroup_op([Elem::E4M3, Elem::E4M3, Elem::F32], &[64, 128, 32], false, [AtomMajor::K; 2]).unwrap();
/// assert_eq!(op.to_string(), "SM90_64x128x32_F32E4M3E4M3_SS_TN");
/// ```
pub fn warpgroup_op(
    [a, b, acc]: [Elem; 3],
    shape: &[i64],
    a_reg: bool,
    majors: [AtomMajor; 2],
) -> Result<GmmaOp> {
    let l = |t: Elem| t.letters().unwrap_or("?");
    let Some((k, tn)) = gmma_k([acc, a, b]).filter(|_| a != Elem::TF32) else {
        return Err(crate::err!(
            "no warpgroup MMA for A = {}, B = {}, accumulator {} (F16/BF16 with F16/F32, FP8 with F16/F32, 8-bit integers with Int32)",
            l(a), l(b), l(acc)
        ));
    };
    let (m, n) = match shape {
        [m, n] => (*m, *n),
        [m, n, kk] if *kk == k => (*m, *n),
        [_, _, kk] => {
            return Err(crate::err!(
                "the warpgroup instruction's K is {k} for {}, got {kk}",
                l(a)
            ))
        }
        _ => {
            return Err(crate::err!(
                "expected a flat rank 2 or 3 instruction shape (M, N[, K]), got ({})",
                shape
                    .iter()
                    .map(i64::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ))
        }
    };
    if m != 64 {
        return Err(crate::err!("the warpgroup MMA's M is 64, got {m}"));
    }
    if !(8..=256).contains(&n) || n % 8 != 0 {
        return Err(crate::err!(
            "the warpgroup MMA's N is a multiple of 8 from 8 to 256, got {n}"
        ));
    }
    if tn && majors.contains(&AtomMajor::MN) {
        return Err(crate::err!(
            "{} x {} GMMAs read K-major A and B only",
            l(a),
            l(b)
        ));
    }
    if a_reg && majors[0] == AtomMajor::MN {
        return Err(Error::new(
            "a register-sourced A (OperandSource.RMEM) must be K-major",
        ));
    }
    Ok(GmmaOp {
        n,
        k,
        c: acc,
        a,
        b,
        a_reg,
        tn,
        saturate: false,
        sparse: false,
    })
}
