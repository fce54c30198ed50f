//! Conversions of the language's values to the typed arguments of the algebra: element
//! types and widths, majors. A leaf: the op rows, the templates and the families read
//! their arguments through it.

use crate::value::Value;
use crate::words::Word;
use cute_core::elem::Elem;
use cute_core::error::Result;
use cute_core::smem_atom::AtomMajor;

/// An element width: an integer number of bits or a type name.
pub(crate) fn bits_of(v: &Value) -> Result<i64> {
    match v {
        Value::Int(b) | Value::Dyn(b) if *b > 0 => Ok(*b),
        Value::Word(Word::Elem(e)) => Ok(e.bits()),
        Value::Word(w @ Word::Scaled(_)) => Err(cute_core::err!(
            "'{w}' pairs a data type with its scale factors: take sizeof_bits of its ::DataType"
        )),
        Value::Word(w) => Err(cute_core::err!("'{w}' is not an element type")),
        v => Err(cute_core::err!(
            "expected an element width (bits, e.g. 16, or a type such as half_t), got {}",
            match v {
                Value::Int(b) => b.to_string(),
                v => v.kind().to_string(),
            }
        )),
    }
}

/// An element type named by its C++ (or CuTeDSL) name.
pub(crate) fn elem_of(v: &Value) -> Result<Elem> {
    match v {
        Value::Word(Word::Elem(e)) => Ok(*e),
        Value::Word(w) => Err(cute_core::err!("'{w}' is not an element type")),
        v => Err(cute_core::err!(
            "expected an element type (such as half_t), got {}",
            match v {
                Value::Int(b) => b.to_string(),
                v => v.kind().to_string(),
            }
        )),
    }
}

/// `GMMA::Major::K` / `UMMA::Major::MN` (or CuTeDSL's `OperandMajorMode`) given for `which`.
pub(crate) fn major_of(v: &Value, which: &str) -> Result<AtomMajor> {
    match v {
        Value::Word(Word::Major(m)) => Ok(*m),
        v => Err(cute_core::err!(
            "expected Major::K or Major::MN for {which}, got {}",
            v.kind()
        )),
    }
}

/// Whether the major given for `which` is MN (`GMMA::Major::MN`, `UMMA::Major::MN`).
pub(crate) fn is_mn_major(v: &Value, which: &str) -> Result<bool> {
    Ok(major_of(v, which)? == AtomMajor::MN)
}

pub(crate) fn arity(name: &str, targs: &[Value], lo: usize, hi: usize) -> Result<()> {
    if targs.len() < lo || targs.len() > hi {
        return Err(cute_core::err!(
            "{name}<...>: expected {} template argument{}, got {}",
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo} to {hi}")
            },
            if hi == 1 { "" } else { "s" },
            targs.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use cute_core::elem::Elem;

    /// The language names every element type the core knows (as a keyword).
    #[test]
    fn every_element_type_is_a_keyword() {
        for e in Elem::ALL {
            assert!(crate::types::names::KEYWORDS.contains(&e.cpp_name()), "{e}");
        }
    }
}
