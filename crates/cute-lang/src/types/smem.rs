//! The shared-memory layout atoms spelled as types: `GMMA::Layout_K_SW128_Atom<T>`,
//! `UMMA::Layout_MN_SW64_Atom<T>`, `Layout_SW128_Atom<T, Major>` and the 1-bit
//! `Layout_*_Atom_Bits` they upcast. The atoms are `cute_core::smem_atom`'s.

use crate::convert::{arity, bits_of, major_of};
use crate::parse::tail;
use crate::value::Value;
use cute_core::error::Result;
use cute_core::smem_atom::{atom_kind, smem_atom, AtomSwizzle};

/// `Layout_{MN,K}_{INTER,SW32,SW64,SW128}_Atom`, `Layout_MN_SW128_32B_Atom`, or the
/// `Layout_{INTER,SW32,SW64,SW128}_Atom<T, Major>` forms.
pub(crate) fn atom_template(full: &str, targs: &[Value]) -> Option<Result<Value>> {
    let (name, _) = tail(full);
    let umma = full.starts_with("UMMA::");
    let body = name.strip_prefix("Layout_")?.strip_suffix("_Atom")?;
    let major_of = |v: &Value| major_of(v, "the atom");
    let parsed = match atom_kind(body) {
        Some((major, sw)) => {
            if targs.len() != 1 {
                return Some(Err(cute_core::err!(
                    "{name}<T> takes one element type, got {} template arguments",
                    targs.len()
                )));
            }
            Ok((major, sw))
        }
        None => {
            let sw = AtomSwizzle::parse(body)?;
            if umma {
                return Some(Err(cute_core::err!(
                    "UMMA has no {name}<T, Major> (GMMA::{name} has; UMMA::Layout_{{MN,K}}_*_Atom<T> are the UMMA spellings)"
                )));
            }
            if targs.len() != 2 {
                return Some(Err(cute_core::err!(
                    "{name}<T, Major> takes an element type and a major, got {} template arguments",
                    targs.len()
                )));
            }
            major_of(&targs[1]).map(|m| (m, sw))
        }
    };
    Some(parsed.and_then(|(major, sw)| Ok(smem_atom(major, sw, bits_of(&targs[0])?)?.into())))
}

/// `Layout_K_SW128_Atom_Bits`: the atom of 1-bit elements the `<T>` atoms upcast (UMMA
/// declares only its own, `Layout_MN_SW128_32B_Atom_Bits`; GMMA the others).
pub(crate) fn atom_bits_template(name: &str, targs: &[Value]) -> Option<Result<Value>> {
    let (last, _) = tail(name);
    let kind = last.strip_prefix("Layout_")?.strip_suffix("_Atom_Bits")?;
    let (major, sw) = atom_kind(kind)?;
    Some((|| {
        arity(last, targs, 0, 0)?;
        let umma_only = sw == AtomSwizzle::Sw128Base32B;
        if name.starts_with("UMMA::") != umma_only {
            return Err(cute_core::err!(
                "{} declares no {last} (UMMA::Layout_MN_SW128_32B_Atom_Bits is UMMA's; the others are GMMA's)",
                if umma_only { "GMMA" } else { "UMMA" }
            ));
        }
        Ok(smem_atom(major, sw, 1)?.into())
    })())
}
