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
