//! Arguments of the descriptor functions (`make_gmma_desc`, `make_umma_desc`,
//! `make_instr_desc`) from the language's values to [`cute_core::desc`].

use crate::convert::{bits_of, elem_of, major_of};
use crate::ops::tensors::tensor;
use crate::value::Value;
use crate::words::{MaxShift, ScaleIn, Word};

const NEG: Word = Word::ScaleIn(ScaleIn::Neg);
const ONE: Word = Word::ScaleIn(ScaleIn::One);
use cute_core::desc::{self, DescFamily, InstrArgs};
use cute_core::error::{Error, Result};
use cute_core::smem_atom::AtomMajor;
use cute_core::tensor::{Iter, Space, Tensor};

/// `make_gmma_desc<Major>(tensor | layout[, T])` / `make_umma_desc<Major>(tensor | layout[, T])`.
pub(crate) fn smem_desc(family: DescFamily, a: &[Value]) -> Result<Value> {
    let major = major_of(
        &a[0],
        "the descriptor's major mode (make_gmma_desc<GMMA::Major::K>(...))",
    )?;
    let bits = a.get(2).map(bits_of).transpose()?;
    let d = match &a[1] {
        Value::Tensor(_) | Value::Partition(_) => tensor_desc(family, major, tensor(&a[1])?)?,
        Value::Layout(_) | Value::Composed(_) => {
            desc::make_smem_desc(family, major, &a[1].to_any_layout()?, bits)?
        }
        v => {
            return Err(cute_core::err!(
                "expected a shared-memory tensor, a layout or a composed layout, got {}",
                v.kind()
            ))
        }
    };
    Ok(Value::Descriptor(Box::new(d)))
}

/// `make_gmma_desc<Major>(tensor)` / `make_umma_desc<Major>(tensor)`: C++'s static_asserts
/// (shared memory, rank 2), the tensor's layout with its pointer's swizzle
/// ([`Tensor::smem_atom_layout`]), and the start address of its data pointer.
fn tensor_desc(family: DescFamily, major: AtomMajor, t: &Tensor) -> Result<desc::Descriptor> {
    let tag = match family {
        DescFamily::Gmma => "GMMA",
        DescFamily::Umma => "UMMA",
    };
    let p = match &t.iter {
        Iter::Ptr(p) if p.space == Space::Smem => p,
        _ => {
            return Err(cute_core::err!(
                "{tag} Descriptors can only be constructed on smem. (got a tensor over {})",
                t.iter
            ))
        }
    };
    if t.layout.rank() != 2 {
        return Err(cute_core::err!(
            "{tag} Descriptors can only be constructed on rank-2 tensors. (got {})",
            t.layout
        ));
    }
    desc::make_smem_desc_at(
        family,
        major,
        &t.smem_atom_layout(),
        i64::from(p.bits),
        p.addr,
        p.swizzle,
    )
}

/// A yes/no argument: a boolean, or the word that means yes (`ScaleIn::Neg`) or no.
fn flag(v: &Value, yes: Option<Word>, no: Option<Word>, what: &str) -> Result<bool> {
    let name = |w: Option<Word>, b: bool| w.map_or(b.to_string(), |w| w.to_string());
    match v {
        Value::Word(w) if Some(*w) == yes => Ok(true),
        Value::Word(w) if Some(*w) == no => Ok(false),
        Value::Bool(b) => Ok(*b),
        v => Err(cute_core::err!(
            "expected {} or {} for {what}, got {}",
            name(yes, true),
            name(no, false),
            v.kind()
        )),
    }
}

/// `UMMA::make_instr_desc<A, B, C, M, N, MajorA, MajorB[, NegA, NegB, Saturate, Sparse,
/// MaxShift]>()`.
pub(crate) fn instr_desc(a: &[Value]) -> Result<Value> {
    let ty = |v: &Value, which: &str| match v {
        Value::Word(_) => elem_of(v),
        v => Err(cute_core::err!(
            "expected an element type for {which}, got {}",
            v.kind()
        )),
    };
    let max_shift = match a.get(11) {
        None => 0,
        Some(Value::Word(Word::MaxShift(s))) => match s {
            MaxShift::NoShift => 0,
            MaxShift::MaxShift8 => 1,
            MaxShift::MaxShift16 => 2,
            MaxShift::MaxShift32 => 3,
        },
        Some(_) => u8::MAX,
    };
    if max_shift == u8::MAX {
        return Err(Error::new(
            "expected UMMA::MaxShift::NoShift, MaxShift8, MaxShift16 or MaxShift32 for the max shift",
        ));
    }
    let opt = |i: usize, yes: Option<Word>, no: Option<Word>, what: &str| {
        a.get(i).map_or(Ok(false), |v| flag(v, yes, no, what))
    };
    let args = InstrArgs {
        a: ty(&a[0], "A")?,
        b: ty(&a[1], "B")?,
        c: ty(&a[2], "C")?,
        m: a[3].to_int()?,
        n: a[4].to_int()?,
        a_major: major_of(&a[5], "A")?,
        b_major: major_of(&a[6], "B")?,
        a_neg: opt(7, Some(NEG), Some(ONE), "A's scale")?,
        b_neg: opt(8, Some(NEG), Some(ONE), "B's scale")?,
        // `UMMA::Saturate::True` reads as `true`.
        saturate: opt(9, None, None, "saturation")?,
        sparse: opt(10, None, None, "sparsity")?,
        max_shift,
    };
    Ok(Value::Descriptor(Box::new(desc::make_instr_desc(&args)?)))
}
