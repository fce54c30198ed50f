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

use crate::atom::{Atom, MmaAtom};
use crate::elem::Elem;
use crate::error::{Error, Result};
use crate::smem_atom::AtomMajor;
use std::fmt;
use std::str::FromStr;

/// A GMMA op: M is always 64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    /// The parts of a GMMA op name (dense `SM90_64x...` or sparse `GMMA_64x...`).
    ///
    /// ```
    /// use cute_core::gmma::GmmaOp;
    /// let op: GmmaOp = "GMMA_64x8x64_S32S8U8_SS_TN_SATURATE".parse().unwrap();
    /// assert!(op.sparse && op.saturate && op.tn && !op.a_reg);
    /// assert!("SM90_16x8x4_F64F64F64F64_TN".parse::<GmmaOp>().is_err());
    /// ```
    fn from_str(name: &str) -> Result<GmmaOp> {
        GmmaOp::parse(name).ok_or_else(|| Error::new(format!("'{name}' is not a GMMA op")))
    }
}

impl GmmaOp {
    fn parse(name: &str) -> Option<GmmaOp> {
        let (sparse, rest) = match name.strip_prefix("SM90_64x") {
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
            return Err(Error::new(format!(
                "{self}: register source A operand GMMAs must have K-major A layout"
            )));
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
        return Err(Error::new(format!(
            "{what}: Tile_M must be a multiple of 64, got {tm}"
        )));
    }
    let mn = majors.map(|m| m == AtomMajor::MN);
    if a_reg && mn[0] {
        return Err(Error::new(format!(
            "{what}: register source A operand GMMAs must have K-major A layout"
        )));
    }
    let Some((k, tn_only)) = gmma_k([c, a, b]) else {
        return Err(Error::new(format!(
            "{what}: no GMMA for A = {a}, B = {b}, C = {c}"
        )));
    };
    if tn_only && (mn[0] || mn[1]) {
        return Err(Error::new(format!(
            "{what}: MajorA and MajorB must be GMMA::Major::K for {} x {}",
            a.letters().unwrap_or("?"),
            b.letters().unwrap_or("?")
        )));
    }
    if tk % k != 0 {
        return Err(Error::new(format!(
            "{what}: Tile_K must be a multiple of {k}, got {tk}"
        )));
    }
    let n = [256, 192, 128, 96, 64, 32, 16, 8]
        .into_iter()
        .find(|n| tn % n == 0)
        .ok_or_else(|| Error::new(format!("{what}: Tile_N must be a multiple of 8, got {tn}")))?;
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

impl GmmaOp {
    /// The atom of the op (a table row) with these majors (the traits are the same for
    /// every major; the DSL smem helpers read them).
    ///
    /// ```
    /// use cute_core::{gmma::GmmaOp, smem_atom::AtomMajor};
    /// let op: GmmaOp = "SM90_64x16x16_F32BF16BF16_SS".parse().unwrap();
    /// let atom = op.atom([AtomMajor::MN, AtomMajor::K]).unwrap();
    /// assert_eq!((atom.shape_mnk.to_string(), atom.mn_major), ("(64,16,16)".to_string(), [true, false]));
    /// ```
    pub fn atom(&self, majors: [AtomMajor; 2]) -> Result<MmaAtom> {
        let mut at = match Atom::lookup(&self.to_string())? {
            Atom::Mma(m) => m,
            Atom::Copy(c) => return Err(Error::new(format!("{} is a copy atom", c.name))),
        };
        at.mn_major = majors.map(|m| m == AtomMajor::MN);
        Ok(at)
    }
}
