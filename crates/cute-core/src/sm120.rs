//! The SM120 `mma.sync` templates (`mma_sm120.hpp`, `mma_sm120_sparse.hpp`):
//! `SM120_16x8x32_TN<A, B, C>`, the block-scaled `_VS<A, B, C, SF, VS>` ones and their sparse
//! forms. C++ specialises them for some element types only (every other instance is "No MMA
//! matches ... for given data types"); the traits of every instance are the table row's
//! (the generator checks it).
//!
//! ```
//! use cute_core::{elem::Elem, sm120::Sm120Template};
//! let t: Sm120Template = "SM120_16x8x32_TN".parse().unwrap();
//! let atom = t.atom(&[Elem::E2M1, Elem::E4M3, Elem::F32], None).unwrap();
//! assert_eq!(atom.name, "SM120_16x8x32_TN<float_e2m1_t,float_e4m3_t,float>");
//! assert!(t.atom(&[Elem::F16, Elem::F16, Elem::F32], None).is_err());
//! ```

use crate::atom::{AtomKey, MmaAtom};
use crate::elem::Elem;
use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// An SM120 MMA template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sm120Template {
    /// `SM120_16x8x32_TN<A, B, C>`.
    F8F6F4,
    /// `SM120_16x8x32_TN_VS<A, B, C, SF, VS>`.
    F8F6F4Vs,
    /// `SM120_16x8x64_TN_VS<A, B, C, SF, VS>` (FP4).
    Fp4Vs,
    /// `SM120_SPARSE_16x8x64_TN<A, B, C>`.
    SparseF8F6F4,
    /// `SM120_SPARSE_16x8x64_TN_VS<A, B, C, SF, VS>`.
    SparseF8F6F4Vs,
    /// `SM120_SPARSE_16x8x128_TN_VS<A, B, C, SF, VS>` (FP4).
    SparseFp4Vs,
}

const ALL: [Sm120Template; 6] = [
    Sm120Template::F8F6F4,
    Sm120Template::F8F6F4Vs,
    Sm120Template::Fp4Vs,
    Sm120Template::SparseF8F6F4,
    Sm120Template::SparseF8F6F4Vs,
    Sm120Template::SparseFp4Vs,
];

impl fmt::Display for Sm120Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Sm120Template::F8F6F4 => "SM120_16x8x32_TN",
            Sm120Template::F8F6F4Vs => "SM120_16x8x32_TN_VS",
            Sm120Template::Fp4Vs => "SM120_16x8x64_TN_VS",
            Sm120Template::SparseF8F6F4 => "SM120_SPARSE_16x8x64_TN",
            Sm120Template::SparseF8F6F4Vs => "SM120_SPARSE_16x8x64_TN_VS",
            Sm120Template::SparseFp4Vs => "SM120_SPARSE_16x8x128_TN_VS",
        })
    }
}

impl Sm120Template {
    /// Whether `name` is spelled as an SM120 MMA (`SM120_...`); its grammar is the parse's.
    ///
    /// ```
    /// assert!(cute_core::sm120::Sm120Template::is_named("SM120_16x8x32_TN"));
    /// ```
    pub fn is_named(name: &str) -> bool {
        name.starts_with("SM120_")
    }
}

impl FromStr for Sm120Template {
    type Err = Error;

    fn from_str(name: &str) -> Result<Sm120Template> {
        ALL.into_iter().find(|t| t.to_string() == name).ok_or_else(|| {
            crate::err!(
                "unknown type '{name}' (the SM120 MMA templates are SM120_16x8x32_TN, SM120_16x8x32_TN_VS, SM120_16x8x64_TN_VS, SM120_SPARSE_16x8x64_TN, SM120_SPARSE_16x8x64_TN_VS, SM120_SPARSE_16x8x128_TN_VS)"
            )
        })
    }
}

impl Sm120Template {
    /// The atom table's key of the template's row.
    fn key(self) -> AtomKey {
        let (sparse, k) = match self {
            Sm120Template::F8F6F4 | Sm120Template::F8F6F4Vs => (false, 32),
            Sm120Template::Fp4Vs => (false, 64),
            Sm120Template::SparseF8F6F4 | Sm120Template::SparseF8F6F4Vs => (true, 64),
            Sm120Template::SparseFp4Vs => (true, 128),
        };
        AtomKey::Sm120 {
            sparse,
            k,
            vs: self.has_vs(),
        }
    }

    /// Whether it is block-scaled: `<A, B, C, SF, VS>` (else `<A, B, C>`).
    ///
    /// ```
    /// use cute_core::sm120::Sm120Template;
    /// assert!("SM120_16x8x64_TN_VS".parse::<Sm120Template>().unwrap().has_vs());
    /// ```
    pub fn has_vs(self) -> bool {
        !matches!(self, Sm120Template::F8F6F4 | Sm120Template::SparseF8F6F4)
    }

    /// How many template arguments it takes (3, or 5 with `SF` and `VS`).
    ///
    /// ```
    /// use cute_core::sm120::Sm120Template;
    /// assert_eq!("SM120_SPARSE_16x8x64_TN".parse::<Sm120Template>().unwrap().arity(), 3);
    /// ```
    pub fn arity(self) -> usize {
        if self.has_vs() {
            5
        } else {
            3
        }
    }

    /// The element types the arch header specialises the template for, in words.
    fn rule(self) -> &'static str {
        match self {
            Sm120Template::F8F6F4 | Sm120Template::SparseF8F6F4 => "A and B one of float_e2m1_t, float_e3m2_t, float_e2m3_t, float_e4m3_t, float_e5m2_t; C float or half_t",
            Sm120Template::F8F6F4Vs | Sm120Template::SparseF8F6F4Vs => "A and B one of float_e2m1_t, float_e3m2_t, float_e2m3_t, float_e4m3_t, float_e5m2_t; C float; SF float_ue8m0_t",
            Sm120Template::Fp4Vs | Sm120Template::SparseFp4Vs => "A and B float_e2m1_t; C float; SF float_ue8m0_t or float_ue4m3_t",
        }
    }

    /// Whether the arch header specialises the template for these element types
    /// (`[A, B, C]` or `[A, B, C, SF]`).
    ///
    /// ```
    /// use cute_core::{elem::Elem, sm120::Sm120Template};
    /// let t: Sm120Template = "SM120_16x8x64_TN_VS".parse().unwrap();
    /// assert!(t.specialised(&[Elem::E2M1, Elem::E2M1, Elem::F32, Elem::UE4M3]));
    /// assert!(!t.specialised(&[Elem::E4M3, Elem::E2M1, Elem::F32, Elem::UE8M0]));
    /// ```
    pub fn specialised(self, types: &[Elem]) -> bool {
        match (self, types) {
            (Sm120Template::F8F6F4 | Sm120Template::SparseF8F6F4, [a, b, c]) => {
                a.is_f8f6f4() && b.is_f8f6f4() && matches!(c, Elem::F32 | Elem::F16)
            }
            (Sm120Template::F8F6F4Vs | Sm120Template::SparseF8F6F4Vs, [a, b, c, sf]) => {
                a.is_f8f6f4() && b.is_f8f6f4() && *c == Elem::F32 && *sf == Elem::UE8M0
            }
            (Sm120Template::Fp4Vs | Sm120Template::SparseFp4Vs, [a, b, c, sf]) => {
                *a == Elem::E2M1 && *b == Elem::E2M1 && *c == Elem::F32 && sf.is_scale_factor()
            }
            _ => false,
        }
    }

    /// The atom of the instance `Template<types..., [VS]>`: C++'s "No MMA matches" for
    /// types it is not specialised for; the traits are the table row's.
    ///
    /// ```
    /// use cute_core::{elem::Elem, sm120::Sm120Template};
    /// let t: Sm120Template = "SM120_16x8x32_TN_VS".parse().unwrap();
    /// let a = t.atom(&[Elem::E4M3, Elem::E5M2, Elem::F32, Elem::UE8M0], Some(32)).unwrap();
    /// assert_eq!(a.name, "SM120_16x8x32_TN_VS<float_e4m3_t,float_e5m2_t,float,float_ue8m0_t,32>");
    /// ```
    pub fn atom(self, types: &[Elem], vs: Option<i64>) -> Result<MmaAtom> {
        let names: Vec<&str> = types.iter().map(|t| t.cpp_name()).collect();
        if !self.specialised(types) {
            return Err(crate::err!(
                "No MMA matches {self} for given data types <{}> ({})",
                names.join(", "),
                self.rule()
            ));
        }
        let mut args: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        if let Some(vs) = vs.filter(|_| self.has_vs()) {
            args.push(vs.to_string());
        }
        let mut a = MmaAtom::by_key(self.key(), || self.to_string())?;
        a.name = format!("{self}<{}>", args.join(","));
        Ok(a)
    }
}
