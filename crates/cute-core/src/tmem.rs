//! Blackwell tensor memory (TMEM): 128 lanes (data paths) x 512 columns of 32 bits per SM.
//! Where an UMMA accumulator lives there (`UMMA::tmem_frg`, what `partition_fragment_C`
//! makes for an SM100 TiledMMA), and which lane and column each thread's registers hold
//! after a `tcgen05.ld` (the TMEM copy atoms' `DstLayout` through their `ValID`).
//!
//! CuTe addresses TMEM in units of the value type: lane `l`, 32-bit column `c` of a
//! `B`-bit type is `(l << (16 + s)) | (c << s)` with `s = log2(32 / B)` (its
//! `tmem_ptr<T>::OffsetShift`); a 32-bit type has lane stride 65536 and column stride 1.
//!
//! ```
//! use cute_core::tmem::{tmem_frg, TmemAlloc};
//! // SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, ...>: the 128x256 float
//! // accumulator, lane = row, column = n.
//! let l = tmem_frg(32, 32, 1, TmemAlloc::Interleaved, &"((128,256),1,1)".parse().unwrap()).unwrap();
//! assert_eq!(l.to_string(), "((128,256),1,1):((65536,1),0,0)");
//! ```

use crate::error::{Error, Result};
use crate::int_tuple::{self, IntTuple};
use crate::layout::{self, Layout, Tiler};

/// Lanes (data paths) of an SM's tensor memory.
pub const LANES: i64 = 128;
/// 32-bit columns of an SM's tensor memory.
pub const COLUMNS: i64 = 512;
/// A TMEM lane step in bit addressing (CuTe's `TMEM::DP_b`), what the copy atoms' `ValID`
/// uses.
pub const DP_BITS: i64 = 1 << 21;

/// `UMMA::TmemAllocMode` (the accumulator's ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TmemAlloc {
    /// Default: two M=64 atoms share a sub-partition's halves.
    Interleaved,
    /// M=64 atoms never share a sub-partition.
    NonInterleaved,
    /// 2-SM M=64: the allocation doubled across sub-partitions.
    Duplicated,
}

/// `tmem_ptr<T>::OffsetShift` (a tensor-memory pointer's rule, kept with the pointers).
pub use crate::tensor::offset_shift;

/// `UMMA::tmem_frg<ValueType, StorageType, N_SM, TmemAlloc>::make(tmem_shape)`: the
/// layout from `((M_MMA, N_MMA), MMA_M, MMA_N, ...)` to TMEM addresses in value units.
///
/// ```
/// use cute_core::tmem::{tmem_frg, TmemAlloc};
/// // partition_fragment_C(make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 64, 32, ...>{}),
/// //                      Shape<_64,_32>{}): an M=64 accumulator takes lanes 0-15 of each sub-partition.
/// let l = tmem_frg(32, 32, 1, TmemAlloc::Interleaved, &"((64,32),1,1)".parse().unwrap()).unwrap();
/// assert_eq!(l.to_string(), "(((16,4),32),1,1):(((65536,2097152),1),0,0)");
/// ```
pub fn tmem_frg(
    value_bits: i64,
    storage_bits: i64,
    n_sm: i64,
    alloc: TmemAlloc,
    tmem_shape: &IntTuple,
) -> Result<Layout> {
    if value_bits > storage_bits {
        return Err(Error::new(
            "TMEM MMA allocations require StorageType big enough for ValueType.",
        ));
    }
    let shift = offset_shift(value_bits)?;
    if storage_bits % value_bits != 0 || storage_bits > 32 {
        return Err(crate::err!(
            "a {storage_bits}-bit storage type does not hold whole {value_bits}-bit values in a 32-bit column"
        ));
    }
    let size = tmem_shape.size()?;
    if size
        .checked_mul(storage_bits)
        .is_none_or(|b| b > LANES * COLUMNS * 32)
    {
        return Err(crate::err!(
            "Requesting more TMEM than is available. ({size} values of {storage_bits} bits; TMEM holds 128 lanes x 512 columns x 32 bits)"
        ));
    }
    let modes = match tmem_shape {
        IntTuple::Tuple(ms) if ms.first().is_some_and(|m| m.rank() == 2 && !m.is_int()) => ms,
        _ => {
            return Err(crate::err!(
                "Expected post-partitioned shape ((M_MMA,N_MMA),...), got {tmem_shape}"
            ))
        }
    };
    let leaf = |t: &IntTuple| t.size();
    let (m, n) = (leaf(modes[0].get(0)?)?, leaf(modes[0].get(1)?)?);
    let rest = IntTuple::Tuple(modes[1..].to_vec());
    let lay =
        |shape: &[i64], stride: &[i64]| Layout::new(IntTuple::ints(shape), IntTuple::ints(stride));
    let nested = |s: IntTuple, d: IntTuple| Layout::new(s, d);
    let col_tiles = |stride: i64| -> Result<Tiler> {
        Ok(Tiler::Layout(Layout::new(
            rest.clone(),
            int_tuple::compact_col_major(&rest, stride)?,
        )?))
    };
    let atom = match (n_sm, m, alloc) {
        (1, _, TmemAlloc::Duplicated) => {
            return Err(Error::new(
                "UMMA_1SM only accepts Interleaved or NonInterleaved",
            ))
        }
        (1, 64, _) => nested(
            IntTuple::Tuple(vec![IntTuple::ints(&[16, 4]), IntTuple::Int(n)]),
            IntTuple::Tuple(vec![IntTuple::ints(&[1, 32]), IntTuple::Int(128)]),
        )?,
        (1, 128, _) => lay(&[128, n], &[1, 128])?,
        (1, _, _) => {
            return Err(crate::err!(
                "UMMA_1SM M-mode size should be 64 or 128. (M = {m})"
            ))
        }
        (2, _, TmemAlloc::NonInterleaved) => {
            return Err(Error::new(
                "UMMA_2SM only accepts Interleaved or Duplicated",
            ))
        }
        (2, 32, TmemAlloc::Interleaved) => nested(
            IntTuple::Tuple(vec![IntTuple::Int(32), IntTuple::ints(&[n / 4, 4])]),
            IntTuple::Tuple(vec![IntTuple::Int(1), IntTuple::ints(&[128, 32])]),
        )?,
        (2, 32, _) => {
            return Err(Error::new(
                "Only TmemAllocMode::Interleaved is supported for UMMA_2SM M_MMA=32",
            ))
        }
        (2, 64, TmemAlloc::Interleaved) => nested(
            IntTuple::Tuple(vec![IntTuple::Int(64), IntTuple::ints(&[n / 2, 2])]),
            IntTuple::Tuple(vec![IntTuple::Int(1), IntTuple::ints(&[128, 64])]),
        )?,
        (2, 64, _) | (2, 128, _) => lay(&[128, n], &[1, 128])?,
        (2, _, _) => {
            return Err(crate::err!(
                "UMMA_2SM M-mode size should be 32 or 64 or 128. (M = {m})"
            ))
        }
        _ => return Err(Error::new("UMMA expects N_SM == 1 or N_SM == 2")),
    };
    let tiles = if n_sm == 1 && m == 64 {
        col_tiles(if alloc == TmemAlloc::Interleaved {
            1
        } else {
            2
        })?
    } else {
        col_tiles(1)?
    };
    let logical = layout::tiled_product(&atom, &tiles)?;
    let dp = (1i64 << 16) << shift;
    let restride = lay(&[128, 16384], &[dp, storage_bits / value_bits])?;
    layout::composition(&restride, &logical)
}

/// A TMEM address of a `value_bits`-bit value: lane, 32-bit column, and the value's slot
/// within the column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TmemAddr {
    /// Lane (data path), 0..128.
    pub lane: i64,
    /// 32-bit column.
    pub column: i64,
    /// Value within the column (0 for 32-bit values).
    pub slot: i64,
}

/// Decode a TMEM address in value units (see the module docs).
///
/// ```
/// use cute_core::tmem::{decode, TmemAddr};
/// // A 16-bit value: lane stride 131072, two values per 32-bit column.
/// assert_eq!(decode(131072 * 3 + 2 * 9 + 1, 16).unwrap(), TmemAddr { lane: 3, column: 9, slot: 1 });
/// ```
pub fn decode(addr: i64, value_bits: i64) -> Result<TmemAddr> {
    let s = offset_shift(value_bits)?;
    if addr < 0 {
        return Err(crate::err!("negative TMEM address {addr}"));
    }
    Ok(TmemAddr {
        lane: addr >> (16 + s),
        column: (addr >> s) & 0xffff,
        slot: addr & ((1 << s) - 1),
    })
}

/// A tensor in TMEM as the TMEM view reads it: value-unit addresses from `base`.
#[derive(Clone, Debug, PartialEq)]
pub struct TmemTensor {
    /// Coordinate → TMEM address in value units, from `base`.
    pub layout: Layout,
    /// Bits of a value.
    pub value_bits: i64,
    /// The first element's address in value units.
    pub base: i64,
}

/// As CuTe prints the tensor: `tmem_[32b](0x0000.0000) o layout`.
impl std::fmt::Display for TmemTensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = offset_shift(self.value_bits).unwrap_or(0);
        let addr = (self.base as u32).rotate_right(s);
        write!(
            f,
            "tmem_[{}b](0x{:04x}.{:04x}) o {}",
            self.value_bits,
            addr >> 16,
            addr & 0xffff,
            self.layout
        )
    }
}

impl TmemTensor {
    /// The TMEM tensor a `tmem_ptr` tensor is (`None` for another tensor).
    ///
    /// ```
    /// use cute_core::tensor::{Iter, Ptr, Space, Tensor};
    /// use cute_core::tmem::TmemTensor;
    /// let t = Tensor::new(Iter::Ptr(Ptr::new(Space::Tmem, 16, 0)), "(128,64):(131072,1)".parse().unwrap());
    /// let t = t.offset_by(3).unwrap(); // tmem_[16b](0x8000.0001)
    /// assert_eq!(TmemTensor::of(&t).unwrap().unwrap().base, 3);
    /// ```
    pub fn of(t: &crate::tensor::Tensor) -> Option<Result<TmemTensor>> {
        let crate::tensor::Iter::Ptr(p) = &t.iter else {
            return None;
        };
        if p.space != crate::tensor::Space::Tmem {
            return None;
        }
        let bits = i64::from(p.bits);
        Some(offset_shift(bits).map(|s| TmemTensor {
            layout: t.layout.clone(),
            value_bits: bits,
            base: i64::from((p.addr as u32).rotate_left(s)),
        }))
    }
}

/// One 32-bit register of one thread after a `tcgen05.ld` (before a `tcgen05.st`): the
/// TMEM lane and column it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TmemReg {
    /// Thread of the warpgroup (0..128).
    pub thread: i64,
    /// Register index within the thread's fragment.
    pub reg: i64,
    /// TMEM lane.
    pub lane: i64,
    /// 32-bit TMEM column.
    pub column: i64,
}

/// What a TMEM load/store atom moves for each of the four warps of a warpgroup: warp `w`
/// reaches lanes `32w..32w+31` (its sub-partition), and the atom's `DstLayout` (thread,
/// bit) → logical bit, through its `ValID` (logical bit → TMEM bit address, lane step
/// [`DP_BITS`]), gives each 32-bit register's lane and column.
///
/// ```
/// use cute_core::tmem::tmem_copy_regs;
/// use cute_core::Layout;
/// // SM100_TMEM_LOAD_16dp256b1x: DstLayout and ValID.
/// let dst: Layout = "((4,8),(64,2)):((64,256),(1,2048))".parse().unwrap();
/// let val: Layout = "(256,16):(1,2097152)".parse().unwrap();
/// let regs = tmem_copy_regs(&dst, &val).unwrap();
/// // Thread 5 = (1, 1): lanes 1 and 9, columns 2 and 3.
/// let t5: Vec<(i64, i64)> = regs.iter().filter(|r| r.thread == 5).map(|r| (r.lane, r.column)).collect();
/// assert_eq!(t5, [(1, 2), (1, 3), (9, 2), (9, 3)]);
/// ```
pub fn tmem_copy_regs(dst: &Layout, val_id: &Layout) -> Result<Vec<TmemReg>> {
    let threads = dst.mode(0)?.size()?;
    let bits = dst.mode(1)?.size()?;
    if threads != 32 || bits <= 0 || bits % 32 != 0 {
        return Err(crate::err!(
            "a TMEM copy atom moves whole 32-bit registers of 32 threads; DstLayout {dst} does not"
        ));
    }
    let regs = bits / 32;
    let mut out = Vec::with_capacity((4 * threads * regs) as usize);
    for w in 0..4 {
        for t in 0..threads {
            for r in 0..regs {
                let logical = dst.call_coord(&IntTuple::ints(&[t, 32 * r]))?;
                let a = val_id.call_index(logical)?;
                let (lane, bit) = (a.div_euclid(DP_BITS), a.rem_euclid(DP_BITS));
                if !(0..32).contains(&lane) || bit % 32 != 0 {
                    return Err(crate::err!(
                        "register {r} of thread {t} maps to TMEM bit address {a}, not a 32-bit column of the warp's 32 lanes"
                    ));
                }
                out.push(TmemReg {
                    thread: 32 * w + t,
                    reg: r,
                    lane: 32 * w + lane,
                    column: bit / 32,
                });
            }
        }
    }
    Ok(out)
}

/// The TMEM tensor's element width (`tmem_ptr<T>`), or an error naming the function.
fn tmem_bits(what: &str, t: &crate::tensor::Tensor) -> Result<i64> {
    match &t.iter {
        crate::tensor::Iter::Ptr(p) if p.space == crate::tensor::Space::Tmem => {
            Ok(i64::from(p.bits))
        }
        _ => Err(crate::err!(
            "{what} takes a TMEM tensor (partition_fragment_C of an SM100 TiledMMA), got {t} (static_assert: Expected TMEM tensor.)"
        )),
    }
}

/// The copy atom for `T`: `Copy_Atom<Op, T>`, or the given `Copy_Atom<Op, CopyT>` when
/// `CopyT` is as wide as `T` (C++'s static_assert).
fn atom_for(what: &str, atom: &crate::atom::CopyAtom, bits: i64) -> Result<crate::atom::CopyAtom> {
    match atom.val_bits {
        None => atom.with_value_bits(bits),
        Some(b) if b == bits => Ok(atom.clone()),
        Some(b) => Err(crate::err!(
            "{what}: the atom copies {b}-bit values, the TMEM tensor holds {bits}-bit ones (Expected a CopyAtom with the same type-width as the Tensor.)"
        )),
    }
}

/// `coalesce(upcast<sizeof_bits<T>>(Traits::ValID))`: the atom's values as TMEM addresses
/// in `T` units.
fn atom_vals(atom: &crate::atom::CopyAtom, bits: i64) -> Result<Layout> {
    let row = atom.name.split('<').next().unwrap_or(&atom.name);
    let v = crate::atom::table_trait(row, "ValID").ok_or_else(|| {
        crate::err!(
            "{} is not a TMEM copy (no ValID): make_tmem_copy takes SM100_TMEM_LOAD_*/STORE_*, make_utccp_copy SM100_UTCCP_*",
            atom.name
        )
    })?;
    let val_id = crate::literal::layout(v).map_err(|e| crate::err!("ValID: {}", e.msg))?;
    layout::coalesce(&layout::upcast(bits, &val_id)?, None)
}

/// CuTe `make_tmem_copy(atom, tmem)`: the warpgroup's TiledCopy of a `tcgen05.ld/st` atom
/// over a TMEM tensor, each warp in its own 32-lane sub-partition (`make_cotiled_copy`).
///
/// ```
/// use cute_core::atom::Atom;
/// use cute_core::tensor::{Iter, Ptr, Space, Tensor};
/// use cute_core::tmem::make_tmem_copy;
/// let Atom::Copy(ld) = Atom::lookup("SM100_TMEM_LOAD_32dp32b8x").unwrap() else { unreachable!() };
/// let acc = Tensor::new(Iter::Ptr(Ptr::new(Space::Tmem, 32, 0)), "(128,256):(65536,1)".parse().unwrap());
/// let c = make_tmem_copy(&ld, &acc).unwrap();
/// assert_eq!(c.tiler_mn(), "((4,32):(32,1),8:1)");
/// assert_eq!(c.layout_tv.to_string(), "((32,4),(8,32)):((0,1),(128,4))");
/// ```
pub fn make_tmem_copy(
    atom: &crate::atom::CopyAtom,
    tmem: &crate::tensor::Tensor,
) -> Result<crate::atom::TiledCopy> {
    cotiled_over_tmem("make_tmem_copy", atom, tmem, |_, bits| {
        // Four warps, each at the same place of its own 32-lane sub-partition.
        let dp = 65536i64 << offset_shift(bits)?;
        Layout::new(IntTuple::ints(&[32, 4]), IntTuple::ints(&[0, 32 * dp]))
    })
}

/// CuTe `make_utccp_copy(op, tmem)`: the TiledCopy of a `tcgen05.cp` (shared memory to
/// TMEM) atom over a TMEM tensor.
pub fn make_utccp_copy(
    atom: &crate::atom::CopyAtom,
    tmem: &crate::tensor::Tensor,
) -> Result<crate::atom::TiledCopy> {
    cotiled_over_tmem("make_utccp_copy", atom, tmem, |atom, _| {
        Layout::new(IntTuple::Int(atom.thr_id.size()?), IntTuple::Int(0))
    })
}

/// `make_cotiled_copy(Copy_Atom<Op, T>, make_layout(atom_t, atom_v), tmem.layout())` for a
/// TMEM tensor of `T`: `atom_t(atom, bits)` places the threads, the atom's `ValID` the values.
fn cotiled_over_tmem(
    what: &str,
    atom: &crate::atom::CopyAtom,
    tmem: &crate::tensor::Tensor,
    atom_t: impl FnOnce(&crate::atom::CopyAtom, i64) -> Result<Layout>,
) -> Result<crate::atom::TiledCopy> {
    let bits = tmem_bits(what, tmem)?;
    let atom = atom_for(what, atom, bits)?;
    let t = atom_t(&atom, bits)?;
    let v = atom_vals(&atom, bits)?;
    crate::atom::make_cotiled_copy(&atom, &layout::make_layout(&[t, v]), &tmem.layout)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frg(vb: i64, n_sm: i64, alloc: TmemAlloc, shape: &str) -> String {
        tmem_frg(vb, 32, n_sm, alloc, &shape.parse().unwrap())
            .map(|l| l.to_string())
            .unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn accumulators_as_cute_lays_them_out() {
        // Printed by CuTe 4.2.0 (partition_fragment_C of SM100 tiled MMAs).
        assert_eq!(
            frg(32, 1, TmemAlloc::Interleaved, "((64,64),2,1)"),
            "(((16,4),64),2,1):(((65536,2097152),1),1048576,0)"
        );
        assert_eq!(
            frg(32, 1, TmemAlloc::Interleaved, "((64,128),2,2)"),
            "(((16,4),128),2,2):(((65536,2097152),1),1048576,128)"
        );
        assert_eq!(
            tmem_frg(
                16,
                32,
                1,
                TmemAlloc::Interleaved,
                &"((128,64),1,1)".parse().unwrap()
            )
            .unwrap()
            .to_string(),
            "((128,64),1,1):((131072,2),0,0)"
        );
        assert!(frg(32, 1, TmemAlloc::Interleaved, "((32,64),1,1)").contains("64 or 128"));
        assert!(frg(32, 1, TmemAlloc::Interleaved, "((128,512),2,1)").contains("more TMEM"));
        assert!(frg(32, 1, TmemAlloc::Interleaved, "(128,64)").contains("post-partitioned"));
    }

    #[test]
    fn addresses_decode_to_lane_and_column() {
        assert_eq!(
            decode(65536 * 5 + 7, 32).unwrap(),
            TmemAddr {
                lane: 5,
                column: 7,
                slot: 0
            }
        );
        assert_eq!(
            decode(131072 * 3 + 2 * 9 + 1, 16).unwrap(),
            TmemAddr {
                lane: 3,
                column: 9,
                slot: 1
            }
        );
    }

    #[test]
    fn tcgen05_ld_16x256b_gives_two_lanes_and_two_columns_a_thread() {
        let dst: Layout = "((4,8),(64,2)):((64,256),(1,2048))".parse().unwrap();
        let val: Layout = "(256,16):(1,2097152)".parse().unwrap();
        let regs = tmem_copy_regs(&dst, &val).unwrap();
        let t5: Vec<(i64, i64)> = regs
            .iter()
            .filter(|r| r.thread == 5)
            .map(|r| (r.lane, r.column))
            .collect();
        // Thread 5 = (1, 1): lanes 1 and 9, columns 2 and 3.
        assert_eq!(t5, [(1, 2), (1, 3), (9, 2), (9, 3)]);
        assert!(regs.iter().any(|r| r.thread == 127 && r.lane >= 96));
    }
}
