//! Tensor-memory functions of the language: the UMMA accumulator in TMEM
//! (`partition_fragment_C` of an SM100 TiledMMA), through [`cute_core::tmem`].

use crate::atom_args::tiled_mma;
use crate::types::type_bits;
use crate::value::Value;
use cute_core::atom::Atom;
use cute_core::error::{Error, Result};
use cute_core::tmem::{tmem_frg, TmemAlloc, TmemTensor};

/// The accumulator type of an SM100 UMMA atom: its third template argument.
fn c_type(name: &str) -> Option<&str> {
    let args = name.split_once('<')?.1.trim_end_matches('>');
    args.split(',').nth(2).map(str::trim)
}

/// `partition_fragment_C(tiled_mma, shape_mn)` of an SM100 UMMA TiledMMA: its accumulator
/// in TMEM (`UMMA::tmem_frg_1sm/2sm<C>::make(partition_shape_C(...))`).
pub(crate) fn partition_fragment_c(a: &[Value]) -> Result<Value> {
    let tiled;
    let mma = match &a[0] {
        Value::Atom(at) => match &**at {
            Atom::Mma(m) => {
                tiled = m.tiled()?;
                &tiled
            }
            Atom::Copy(c) => {
                return Err(Error::new(format!(
                    "{} is a copy atom: partition_fragment_C takes a TiledMMA",
                    c.name
                )))
            }
        },
        v => tiled_mma(v)?,
    };
    let name = &mma.atom.name;
    if !name.starts_with("SM100_MMA_") {
        return Err(Error::new(format!(
            "partition_fragment_C: {name} accumulates in registers; the TMEM accumulator is an SM100 UMMA's (SM100_MMA_*<A, B, C, M, N, ...>); a register fragment is make_fragment_like(partition_shape_C(...))"
        )));
    }
    let c = c_type(name).ok_or_else(|| {
        Error::new(format!(
            "{name}: no accumulator type among its template arguments"
        ))
    })?;
    let bits =
        type_bits(c).ok_or_else(|| Error::new(format!("{name}: unknown accumulator type {c}")))?;
    let shape = mma.partition_shape('C', &a[1].to_int_tuple()?)?;
    let n_sm = if name.contains("2x1SM") { 2 } else { 1 };
    let layout = tmem_frg(bits, 32, n_sm, TmemAlloc::Interleaved, &shape)?;
    Ok(Value::Tmem(Box::new(TmemTensor {
        layout,
        value_bits: bits,
    })))
}
