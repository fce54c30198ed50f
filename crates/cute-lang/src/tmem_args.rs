//! Tensor-memory functions of the language: the UMMA accumulator in TMEM
//! (`partition_fragment_C` of an SM100 TiledMMA), through [`cute_core::tmem`].

use crate::atom_args::tiled_mma;
use crate::value::Value;
use cute_core::atom::{Atom, MmaParams};
use cute_core::error::{Error, Result};
use cute_core::tmem::{tmem_frg, TmemAlloc};
use cute_core::umma::UmmaFamily;

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
    let shape = mma.partition_shape('C', &a[1].to_int_tuple()?)?;
    fragment_c(mma, shape)
}

/// The accumulator fragment of `shape` (a partition of C): in TMEM for an SM100 UMMA
/// (`UMMA::tmem_frg_1sm/2sm<C>::make(shape)`), else a register tensor of C's type
/// (`make_tensor<ValTypeC>(shape)`).
pub(crate) fn fragment_c(
    mma: &cute_core::atom::TiledMma,
    shape: cute_core::IntTuple,
) -> Result<Value> {
    let umma = match &mma.atom.params {
        Some(MmaParams::Umma(u)) if u.op.family != UmmaFamily::Sm103MxF4Ultra => u,
        _ => {
            // A register MMA's accumulator: make_tensor<ValTypeC>(shape).
            let c = crate::tensor_args::frg_type(mma, 'C')?;
            return crate::tensor_args::owned(c, cute_core::Layout::col_major(shape)?);
        }
    };
    let bits = umma.c.bits();
    let n_sm = if umma.op.two_sm { 2 } else { 1 };
    let layout = tmem_frg(bits, 32, n_sm, TmemAlloc::Interleaved, &shape)?;
    let bits = u32::try_from(bits).map_err(|_| Error::new("TMEM value width out of range"))?;
    let ptr = cute_core::tensor::Ptr::new(cute_core::tensor::Space::Tmem, bits, 0);
    Ok(Value::Tensor(Box::new(cute_core::tensor::Tensor::new(
        cute_core::tensor::Iter::Ptr(ptr),
        layout,
    ))))
}
