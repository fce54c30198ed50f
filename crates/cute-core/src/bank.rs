//! Shared-memory bank model: which 4-byte word of which bank each lane of a warp touches
//! per instruction, how the hardware splits the request into phases, and how many
//! wavefronts it needs — checked against Nsight Compute on an H100 (`hw/`).
//!
//! Rules (each one measured, see `docs/banks.md`):
//! - 32 banks of 4-byte words; a wavefront serves at most one word per bank, any number
//!   of lanes reading that word (broadcast).
//! - A warp instruction is split into phases of lanes: 8/16/32-bit accesses one phase of
//!   32 lanes; 64-bit stores two half-warps, 128-bit stores four quarter-warps; 64/128-bit
//!   loads the same unless the lanes are paired (then one phase / two half-warps);
//!   `ldmatrix`/`stmatrix` `.xN` N phases of the 8 lanes that supply one matrix's rows;
//!   `cp.async` (LDGSTS) as a store of its width.
//! - A phase needs as many wavefronts as the largest number of distinct words one bank
//!   holds among its lanes' bytes (lanes touching different bytes of one word share it).
//!
//! ```
//! use cute_core::bank::{analyze_warp, Instr};
//! // 32 lanes reading a column of a 32x32 float tile: every lane hits bank 0.
//! let addrs: Vec<Option<u64>> = (0..32).map(|i| Some(i * 128)).collect();
//! let r = analyze_warp(Instr::Lds(32), &addrs).unwrap();
//! assert_eq!((r.wavefronts, r.ideal, r.ways), (32, 1, 32));
//! ```

use crate::error::{arith, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::swizzle::{AnyLayout, ComposedLayout, Swizzle};
use std::fmt;

/// Banks per shared-memory row.
pub const BANKS: u64 = 32;
/// Bytes per bank word.
pub const WORD_BYTES: u64 = 4;
/// Largest number of (thread, value) elements one analysis walks.
pub const MAX_ELEMENTS: i64 = 1 << 20;

/// The bank of element offset `offset` for `bits`-bit elements (negative offsets: bank 0).
///
/// ```
/// assert_eq!(cute_core::bank::bank_of_offset(36, 16), 18);
/// ```
pub fn bank_of_offset(offset: i64, bits: u32) -> u64 {
    // u128: any i64 offset times any width fits, so no offset can wrap.
    let word = offset.max(0) as u128 * u128::from(bits) / 8 / u128::from(WORD_BYTES);
    (word % u128::from(BANKS)) as u64
}

/// Largest access (threads x values) a swizzle search analyses.
pub const SEARCH_MAX_ELEMENTS: i64 = 1 << 16;

/// A shared-memory instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instr {
    /// `ld.shared` (LDS) of 8, 16, 32, 64 or 128 bits per lane.
    Lds(u32),
    /// `st.shared` (STS) of 8, 16, 32, 64 or 128 bits per lane.
    Sts(u32),
    /// `ldmatrix.sync.aligned.m8n8.x{count}[.trans].shared.b16`.
    Ldsm {
        /// 1, 2 or 4 matrices.
        count: u8,
        /// `.trans`.
        trans: bool,
    },
    /// `stmatrix.sync.aligned.m8n8.x{count}[.trans].shared.b16`.
    Stsm {
        /// 1, 2 or 4 matrices.
        count: u8,
        /// `.trans`.
        trans: bool,
    },
    /// `cp.async.{ca,cg}.shared.global` (SASS LDGSTS) of 32, 64 or 128 bits per lane: the
    /// shared-memory write it ends in (its global read is not a shared-memory access).
    Ldgsts {
        /// 32, 64 or 128.
        bits: u32,
        /// `.cg` (LDGSTS.BYPASS: the global read skips L1; 128 bits only).
        bypass: bool,
    },
}

impl Instr {
    /// Parse the expression language's instruction names: `LDS8`, `LDS16`, `LDS32`,
    /// `LDS64`, `LDS128`, `STS8`.., `LDSM_X1`, `LDSM_X2_T`, `STSM_X4`, ..., `LDGSTS32`,
    /// `LDGSTS64`, `LDGSTS128` (cp.async.ca), `LDGSTS128_CG` (cp.async.cg)
    /// (case-insensitive).
    ///
    /// ```
    /// use cute_core::bank::Instr;
    /// assert_eq!(Instr::parse("ldsm_x4_t"), Some(Instr::Ldsm { count: 4, trans: true }));
    /// assert_eq!(Instr::parse("LDS128").unwrap().to_string(), "LDS.128");
    /// assert_eq!(Instr::parse("ldgsts128_cg"), Some(Instr::Ldgsts { bits: 128, bypass: true }));
    /// assert_eq!(Instr::parse("LDGSTS64").unwrap().to_string(), "LDGSTS.64");
    /// ```
    pub fn parse(s: &str) -> Option<Instr> {
        let u = s.to_ascii_uppercase();
        if let Some(rest) = u.strip_prefix("LDGSTS") {
            let (b, bypass) = match rest.strip_suffix("_CG") {
                Some(b) => (b, true),
                None => (rest, false),
            };
            let bits = match b {
                "32" if !bypass => 32,
                "64" if !bypass => 64,
                "128" => 128,
                _ => return None,
            };
            return Some(Instr::Ldgsts { bits, bypass });
        }
        let (head, trans) = match u.strip_suffix("_T") {
            Some(h) => (h, true),
            None => (u.as_str(), false),
        };
        let count = |x: &str| match x {
            "X1" => Some(1),
            "X2" => Some(2),
            "X4" => Some(4),
            _ => None,
        };
        if let Some(x) = head.strip_prefix("LDSM_") {
            return Some(Instr::Ldsm {
                count: count(x)?,
                trans,
            });
        }
        if let Some(x) = head.strip_prefix("STSM_") {
            return Some(Instr::Stsm {
                count: count(x)?,
                trans,
            });
        }
        if trans {
            return None;
        }
        if let Some(b) = head.strip_prefix("LDS") {
            return Some(Instr::Lds(lane_width(b)?));
        }
        if let Some(b) = head.strip_prefix("STS") {
            return Some(Instr::Sts(lane_width(b)?));
        }
        None
    }

    /// Every instruction name [`Instr::parse`] accepts, canonical spelling.
    pub const NAMES: &'static [&'static str] = &[
        "LDS8",
        "LDS16",
        "LDS32",
        "LDS64",
        "LDS128",
        "STS8",
        "STS16",
        "STS32",
        "STS64",
        "STS128",
        "LDSM_X1",
        "LDSM_X2",
        "LDSM_X4",
        "LDSM_X1_T",
        "LDSM_X2_T",
        "LDSM_X4_T",
        "STSM_X1",
        "STSM_X2",
        "STSM_X4",
        "STSM_X1_T",
        "STSM_X2_T",
        "STSM_X4_T",
        "LDGSTS32",
        "LDGSTS64",
        "LDGSTS128",
        "LDGSTS128_CG",
    ];

    /// Whether the hardware has this instruction and the model covers it (measured on the
    /// H100: 8/16/32/64/128-bit LDS/STS, 32/64/128-bit cp.async.ca, 128-bit cp.async.cg,
    /// ldmatrix/stmatrix .x1/.x2/.x4).
    ///
    /// ```
    /// use cute_core::bank::Instr;
    /// assert!(Instr::Lds(8).check().is_ok());
    /// assert!(Instr::Ldgsts { bits: 64, bypass: true }.check().is_err());
    /// ```
    pub fn check(self) -> Result<()> {
        let ok = match self {
            Instr::Lds(b) | Instr::Sts(b) => [8, 16, 32, 64, 128].contains(&b),
            Instr::Ldgsts { bits, bypass } => bits == 128 || (!bypass && [32, 64].contains(&bits)),
            Instr::Ldsm { count, .. } | Instr::Stsm { count, .. } => [1, 2, 4].contains(&count),
        };
        if ok {
            Ok(())
        } else {
            Err(crate::err!(
                "{self} is not a modelled shared-memory instruction (measured on the H100: 8/16/32/64/128-bit LDS/STS, 32/64/128-bit cp.async.ca, 128-bit cp.async.cg, ldmatrix/stmatrix .x1/.x2/.x4)"
            ))
        }
    }

    /// Bits each lane moves per instruction (for ldmatrix: the 16-byte row it addresses).
    ///
    /// ```
    /// use cute_core::bank::Instr;
    /// assert_eq!(Instr::Lds(64).lane_bits(), 64);
    /// assert_eq!(Instr::Ldsm { count: 4, trans: false }.lane_bits(), 128);
    /// ```
    pub fn lane_bits(self) -> u32 {
        match self {
            Instr::Lds(b) | Instr::Sts(b) | Instr::Ldgsts { bits: b, .. } => b,
            Instr::Ldsm { .. } | Instr::Stsm { .. } => 128,
        }
    }

    /// Whether the instruction writes shared memory (a `cp.async` does: its shared-memory
    /// side is the destination).
    ///
    /// ```
    /// use cute_core::bank::Instr;
    /// assert!(Instr::Ldgsts { bits: 128, bypass: true }.is_store());
    /// assert!(!Instr::Lds(32).is_store());
    /// ```
    pub fn is_store(self) -> bool {
        matches!(
            self,
            Instr::Sts(_) | Instr::Stsm { .. } | Instr::Ldgsts { .. }
        )
    }

    /// The most phases one warp instruction of this kind can take.
    ///
    /// ```
    /// use cute_core::bank::Instr;
    /// assert_eq!(Instr::Sts(128).max_phases(), 4);
    /// assert_eq!(Instr::Ldsm { count: 2, trans: true }.max_phases(), 2);
    /// assert_eq!(Instr::Lds(16).max_phases(), 1);
    /// ```
    pub fn max_phases(self) -> usize {
        match self {
            Instr::Lds(b) | Instr::Sts(b) | Instr::Ldgsts { bits: b, .. } => {
                (b / 32).max(1) as usize
            }
            Instr::Ldsm { count, .. } | Instr::Stsm { count, .. } => count as usize,
        }
    }

    /// The lanes of each phase the hardware splits one warp instruction with these lane
    /// addresses into (measured on an H100, see `docs/banks.md`):
    /// 8/16/32-bit accesses one phase; stores (and `cp.async`) of 64/128 bits
    /// half-/quarter-warps; loads of
    /// 64/128 bits the whole warp / half-warps when the lanes are *paired* (every active
    /// lane reads the same address as lane `l^1`, or every one as lane `l^2`), else
    /// half-/quarter-warps; ldmatrix/stmatrix one phase per 8x8 matrix (8 lanes).
    ///
    /// ```
    /// use cute_core::bank::Instr;
    /// // 128-bit loads: quarter-warps, unless lanes pair up (lane l and l^1 read the same address).
    /// let distinct: Vec<Option<u64>> = (0..32).map(|l| Some(16 * l)).collect();
    /// assert_eq!(Instr::Lds(128).phases(&distinct), [0..8, 8..16, 16..24, 24..32]);
    /// let paired: Vec<Option<u64>> = (0..32).map(|l| Some(16 * (l / 2))).collect();
    /// assert_eq!(Instr::Lds(128).phases(&paired), [0..16, 16..32]);
    /// ```
    ///
    /// Law (checked by `tests/laws.rs::bank_wavefronts_bound_the_ideal`): at most
    /// [`Instr::max_phases`] phases.
    /// ```
    /// use cute_core::bank::Instr;
    /// assert!(Instr::Sts(64).phases(&[Some(0); 32]).len() <= Instr::Sts(64).max_phases());
    /// ```
    pub fn phases(self, addrs: &[Option<u64>]) -> Vec<std::ops::Range<usize>> {
        let paired = |x: usize| {
            (0..32).all(|l| {
                match (
                    addrs.get(l).copied().flatten(),
                    addrs.get(l ^ x).copied().flatten(),
                ) {
                    (Some(a), Some(b)) => a == b,
                    _ => true,
                }
            })
        };
        let width = match self {
            Instr::Lds(b) | Instr::Sts(b) | Instr::Ldgsts { bits: b, .. } if b <= 32 => 32,
            Instr::Sts(64) | Instr::Ldgsts { bits: 64, .. } => 16,
            Instr::Sts(_) | Instr::Ldgsts { .. } => 8,
            Instr::Lds(64) => {
                if paired(1) || paired(2) {
                    32
                } else {
                    16
                }
            }
            Instr::Lds(_) => {
                if paired(1) || paired(2) {
                    16
                } else {
                    8
                }
            }
            Instr::Ldsm { count, .. } | Instr::Stsm { count, .. } => {
                return (0..count as usize).map(|p| 8 * p..8 * p + 8).collect()
            }
        };
        (0..32 / width)
            .map(|p| p * width..(p + 1) * width)
            .collect()
    }

    /// Lanes whose address the instruction uses (ldmatrix .x1 uses lanes 0-7 only).
    ///
    /// ```
    /// use cute_core::bank::Instr;
    /// assert_eq!(Instr::Ldsm { count: 1, trans: false }.address_lanes(), 8);
    /// assert_eq!(Instr::Lds(32).address_lanes(), 32);
    /// ```
    pub fn address_lanes(self) -> usize {
        match self {
            Instr::Ldsm { count, .. } | Instr::Stsm { count, .. } => 8 * count as usize,
            _ => 32,
        }
    }

    /// Short machine name for file formats: `ld128`, `ldsm_x4_t`, `cpasync_ca128`,
    /// `cpasync_cg128`, ...
    ///
    /// ```
    /// use cute_core::bank::Instr;
    /// assert_eq!(Instr::Lds(128).op_name(), "ld128");
    /// assert_eq!(Instr::Ldsm { count: 4, trans: true }.op_name(), "ldsm_x4_t");
    /// assert_eq!(Instr::Ldgsts { bits: 128, bypass: true }.op_name(), "cpasync_cg128");
    /// ```
    pub fn op_name(self) -> String {
        match self {
            Instr::Lds(b) => format!("ld{b}"),
            Instr::Sts(b) => format!("st{b}"),
            Instr::Ldgsts { bits, bypass } => {
                format!("cpasync_{}{bits}", if bypass { "cg" } else { "ca" })
            }
            Instr::Ldsm { count, trans } => {
                format!("ldsm_x{count}{}", if trans { "_t" } else { "" })
            }
            Instr::Stsm { count, trans } => {
                format!("stsm_x{count}{}", if trans { "_t" } else { "" })
            }
        }
    }

    /// The inverse of [`Instr::op_name`] (`ld8`, `st128`, `ldsm_x4_t`, `cpasync_cg128`, ...).
    ///
    /// ```
    /// use cute_core::bank::Instr;
    /// for n in Instr::NAMES {
    ///     let i = Instr::parse(n).unwrap();
    ///     assert_eq!(Instr::from_op_name(&i.op_name()), Some(i));
    /// }
    /// ```
    pub fn from_op_name(op: &str) -> Option<Instr> {
        if let Some(b) = op.strip_prefix("cpasync_ca") {
            return Instr::parse(&format!("LDGSTS{b}"));
        }
        if let Some(b) = op.strip_prefix("cpasync_cg") {
            return Instr::parse(&format!("LDGSTS{b}_CG"));
        }
        if op.starts_with("ldsm") || op.starts_with("stsm") {
            return Instr::parse(op);
        }
        if let Some(b) = op.strip_prefix("ld") {
            return Instr::parse(&format!("LDS{b}"));
        }
        if let Some(b) = op.strip_prefix("st") {
            return Instr::parse(&format!("STS{b}"));
        }
        None
    }
}

impl fmt::Display for Instr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Instr::Lds(b) => write!(f, "LDS.{b}"),
            Instr::Sts(b) => write!(f, "STS.{b}"),
            Instr::Ldsm { count, trans } => {
                write!(f, "ldmatrix.x{count}{}", if *trans { ".trans" } else { "" })
            }
            Instr::Stsm { count, trans } => {
                write!(f, "stmatrix.x{count}{}", if *trans { ".trans" } else { "" })
            }
            Instr::Ldgsts { bits, bypass } => {
                write!(f, "LDGSTS{}.{bits}", if *bypass { ".BYPASS" } else { "" })
            }
        }
    }
}

/// One phase of one warp instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Phase {
    /// First lane of the phase.
    pub first_lane: u8,
    /// Number of lanes.
    pub lanes: u8,
    /// Wavefronts the phase needs.
    pub wavefronts: u32,
    /// Distinct words the phase touches.
    pub words: u32,
    /// Fewest wavefronts those words could take (`ceil(words / 32)`, at least 1 if any).
    pub ideal: u32,
}

/// The model's answer for one warp instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct WarpInstr {
    /// Warp index in the tile.
    pub warp: u32,
    /// Instruction index within the warp.
    pub index: u32,
    /// Byte address each lane supplies (`None`: inactive lane). Lanes past
    /// [`Instr::address_lanes`] supply one the instruction ignores.
    pub addrs: Vec<Option<u64>>,
    /// The phases.
    pub phases: Vec<Phase>,
    /// Wavefronts of the instruction (sum over phases).
    pub wavefronts: u32,
    /// Ideal wavefronts (sum over phases).
    pub ideal: u32,
    /// Nsight Compute's bank-conflict count: wavefronts minus non-empty phases.
    pub conflicts: u32,
    /// Worst conflict degree: most distinct words in one bank within one phase.
    pub ways: u32,
}

impl WarpInstr {
    /// The (bank, word) of every 4-byte word lane `lane` touches.
    ///
    /// ```
    /// use cute_core::bank::{analyze_warp, Instr};
    /// // 64-bit loads, lane l at byte 8*l: two half-warp phases.
    /// let addrs: Vec<Option<u64>> = (0..32).map(|l| Some(8 * l)).collect();
    /// let r = analyze_warp(Instr::Lds(64), &addrs).unwrap();
    /// // Lane 5 reads bytes 40..48: words 10 and 11, banks 10 and 11.
    /// assert_eq!(r.lane_words(5, Instr::Lds(64)), [(10, 10), (11, 11)]);
    /// ```
    pub fn lane_words(&self, lane: usize, instr: Instr) -> Vec<(u64, u64)> {
        if lane >= instr.address_lanes() {
            return Vec::new();
        }
        match self.addrs.get(lane).copied().flatten() {
            None => Vec::new(),
            Some(a) => {
                let n = u64::from(instr.lane_bits()) / 8;
                (a / WORD_BYTES..a.saturating_add(n).div_ceil(WORD_BYTES))
                    .map(|w| (w % BANKS, w))
                    .collect()
            }
        }
    }

    /// The phase lane `lane` belongs to.
    ///
    /// ```
    /// use cute_core::bank::{analyze_warp, Instr};
    /// // 64-bit loads, lane l at byte 8*l: two half-warp phases.
    /// let addrs: Vec<Option<u64>> = (0..32).map(|l| Some(8 * l)).collect();
    /// let r = analyze_warp(Instr::Lds(64), &addrs).unwrap();
    /// assert_eq!((r.phase_of(3), r.phase_of(20)), (Some(0), Some(1)));
    /// ```
    pub fn phase_of(&self, lane: usize) -> Option<usize> {
        self.phases.iter().position(|p| {
            (p.first_lane as usize..(p.first_lane + p.lanes) as usize).contains(&lane)
        })
    }
}

/// Model one warp instruction from its lanes' byte addresses (`None` = inactive lane).
///
/// Addresses must be aligned to the access size. This is the function the hardware
/// fixtures check. A `cp.async` is modelled with a coalesced global read (each phase's
/// lanes read distinct addresses of one 128-byte line, as a row of 16-byte copies does);
/// [`analyze_warp_g2s`] takes the global addresses.
///
/// ```
/// use cute_core::bank::{analyze_warp, Instr};
/// // 32 lanes reading a column of a 32x32 float tile: every lane hits bank 0, 32 wavefronts.
/// let col: Vec<Option<u64>> = (0..32).map(|i| Some(i * 128)).collect();
/// let r = analyze_warp(Instr::Lds(32), &col).unwrap();
/// assert_eq!((r.wavefronts, r.ideal, r.conflicts, r.ways), (32, 1, 31, 32));
/// // A row: one word per bank, one wavefront.
/// let row: Vec<Option<u64>> = (0..32).map(|i| Some(i * 4)).collect();
/// assert_eq!(analyze_warp(Instr::Lds(32), &row).unwrap().wavefronts, 1);
/// ```
///
/// Laws (checked by `tests/laws.rs::bank_wavefronts_bound_the_ideal` and
/// `tests/laws.rs::lds32_cost_ignores_lane_order`): `ideal ≤ wavefronts`, at least one ideal
/// wavefront per busy phase, `conflicts == wavefronts − phases`; a 32-bit access costs the
/// same whatever the lane order.
/// ```
pub fn analyze_warp(instr: Instr, addrs: &[Option<u64>]) -> Result<WarpInstr> {
    analyze(instr, addrs, None)
}

/// Model one `cp.async` (LDGSTS) warp instruction from its lanes' shared-memory byte
/// addresses and the global byte addresses they read (`None` in `smem` = inactive lane;
/// global addresses relative to a 128-byte-aligned base).
///
/// Measured on an H100 (`docs/banks.md`): the shared-memory write of each phase is done
/// per group of the phase's lanes that read one 128-byte global line, and lanes of a
/// line that read the same global address go to separate groups; a group costs the
/// largest number of lane words one bank receives (lanes writing the same word do not
/// merge). Nsight Compute's conflict counter is the wavefronts minus, per phase, one per
/// four lines the phase reads.
///
/// ```
/// use cute_core::bank::{analyze_warp_g2s, Instr};
/// let smem: Vec<Option<u64>> = (0..32).map(|l| Some(16 * l)).collect();
/// // every lane reads its own 128-byte line: 32 wavefronts for a conflict-free write
/// let gmem: Vec<Option<u64>> = (0..32).map(|l| Some(128 * l)).collect();
/// let r = analyze_warp_g2s(Instr::Ldgsts { bits: 128, bypass: false }, &smem, &gmem).unwrap();
/// assert_eq!((r.wavefronts, r.conflicts), (32, 24));
/// ```
pub fn analyze_warp_g2s(
    instr: Instr,
    smem: &[Option<u64>],
    gmem: &[Option<u64>],
) -> Result<WarpInstr> {
    if !matches!(instr, Instr::Ldgsts { .. }) {
        return Err(crate::err!(
            "{instr} does not read global memory (only cp.async does)"
        ));
    }
    if gmem.len() != 32 {
        return Err(crate::err!(
            "a warp has 32 lanes, got {} global addresses",
            gmem.len()
        ));
    }
    let bytes = u64::from(instr.lane_bits()) / 8;
    for (l, (s, g)) in smem.iter().zip(gmem).enumerate() {
        match (s, g) {
            (Some(_), None) => {
                return Err(crate::err!(
                    "lane {l} writes shared memory but has no global address"
                ))
            }
            (_, Some(g)) if g % bytes != 0 || g.checked_add(bytes).is_none() => {
                return Err(crate::err!(
                    "lane {l}: global byte address {g} is not aligned to the {bytes}-byte copy"
                ))
            }
            _ => {}
        }
    }
    analyze(instr, smem, Some(gmem))
}

/// Bytes of a global-memory line: a cp.async phase writes shared memory per line it reads.
const GLOBAL_LINE: u64 = 128;
/// Global lines one pass of Nsight Compute's LDGSTS conflict counter covers.
const LINES_PER_PASS: u32 = 4;

fn analyze(instr: Instr, addrs: &[Option<u64>], gmem: Option<&[Option<u64>]>) -> Result<WarpInstr> {
    instr.check()?;
    if addrs.len() != 32 {
        return Err(crate::err!("a warp has 32 lanes, got {}", addrs.len()));
    }
    let bytes = u64::from(instr.lane_bits()) / 8;
    let used = instr.address_lanes();
    for (l, a) in addrs.iter().enumerate().take(used) {
        if let Some(a) = a {
            if a.checked_add(bytes).is_none() {
                return Err(crate::err!("lane {l}: byte address {a} is out of range"));
            }
            if a % bytes != 0 {
                return Err(crate::err!(
                    "lane {l}: byte address {a} is not aligned to the {}-byte access",
                    bytes
                ));
            }
        }
    }
    // cp.async writes each lane's words separately: two lanes on one word do not merge.
    let merge = !matches!(instr, Instr::Ldgsts { .. });
    let words_of = |a: u64| a / WORD_BYTES..(a + bytes).div_ceil(WORD_BYTES);
    let mut phases = Vec::new();
    let mut ways = 0;
    let mut passes = 0u32;
    for r in instr.phases(&addrs[..used.min(32)]) {
        let lanes: Vec<usize> = r
            .clone()
            .take(used.saturating_sub(r.start))
            .filter(|&l| addrs[l].is_some())
            .collect();
        if lanes.is_empty() {
            continue; // no active lane: the phase costs nothing
        }
        // Groups of lanes written together: the whole phase, or (cp.async with global
        // addresses) per global line, the k-th lane on one global address in group k.
        let mut groups: Vec<(u64, u64, Vec<usize>)> = Vec::new(); // (line, repeat, lanes)
        let mut lines: Vec<u64> = Vec::new();
        for &l in &lanes {
            let (line, repeat) = match gmem {
                None => (0, 0),
                Some(g) => {
                    let ga = g[l].unwrap_or(0);
                    let repeat = lanes
                        .iter()
                        .take_while(|&&k| k != l)
                        .filter(|&&k| g[k] == Some(ga))
                        .count() as u64;
                    (ga / GLOBAL_LINE, repeat)
                }
            };
            if !lines.contains(&line) {
                lines.push(line);
            }
            match groups
                .iter_mut()
                .find(|(li, re, _)| *li == line && *re == repeat)
            {
                Some(g) => g.2.push(l),
                None => groups.push((line, repeat, vec![l])),
            }
        }
        passes += (lines.len() as u32).div_ceil(LINES_PER_PASS);
        let mut wf = 0u32;
        for (_, _, group) in &groups {
            let mut words: Vec<u64> = group
                .iter()
                .flat_map(|&l| words_of(addrs[l].unwrap_or(0)))
                .collect();
            if merge {
                words.sort_unstable();
                words.dedup();
            }
            let mut per_bank = [0u32; BANKS as usize];
            for w in &words {
                per_bank[(w % BANKS) as usize] += 1;
            }
            let g = per_bank.iter().copied().max().unwrap_or(0);
            ways = ways.max(g);
            wf += g;
        }
        let mut words: Vec<u64> = lanes
            .iter()
            .flat_map(|&l| words_of(addrs[l].unwrap_or(0)))
            .collect();
        words.sort_unstable();
        words.dedup();
        let n = words.len() as u32;
        phases.push(Phase {
            first_lane: r.start as u8,
            lanes: r.len() as u8,
            wavefronts: wf,
            words: n,
            ideal: n.div_ceil(BANKS as u32),
        });
    }
    let wavefronts: u32 = phases.iter().map(|p| p.wavefronts).sum();
    let ideal = phases.iter().map(|p| p.ideal).sum();
    let conflicts = wavefronts.saturating_sub(passes);
    Ok(WarpInstr {
        warp: 0,
        index: 0,
        addrs: addrs.to_vec(),
        phases,
        wavefronts,
        ideal,
        conflicts,
        ways,
    })
}

/// The whole tile's analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct BankReport {
    /// The shared-memory layout.
    pub smem: AnyLayout,
    /// Element width in bits.
    pub elem_bits: u32,
    /// The (thread, value) → domain-index layout.
    pub tv: Layout,
    /// The instruction.
    pub instr: Instr,
    /// Values each lane moves per instruction.
    pub vec: i64,
    /// Threads in the TV layout.
    pub threads: i64,
    /// Values per thread.
    pub values: i64,
    /// Instructions per warp.
    pub per_warp: i64,
    /// Every warp instruction of the tile, warp-major.
    pub instrs: Vec<WarpInstr>,
}

impl BankReport {
    /// Warps in the tile.
    ///
    /// ```
    /// use cute_core::{bank::{bank_conflicts, Instr}, swizzle::AnyLayout, Layout};
    /// // 32x32 floats row-major; 32 threads, one value each per instruction, lanes along a row.
    /// let smem = AnyLayout::Layout("(32,32):(32,1)".parse().unwrap());
    /// let tv: Layout = "(32,32):(32,1)".parse().unwrap();
    /// let r = bank_conflicts(&smem, 32, &tv, Instr::Lds(32)).unwrap();
    /// assert_eq!(r.warps(), 1);
    /// ```
    pub fn warps(&self) -> i64 {
        (self.threads + 31) / 32
    }

    /// Sum of wavefronts over the tile.
    ///
    /// ```
    /// use cute_core::{bank::{bank_conflicts, Instr}, swizzle::AnyLayout, Layout};
    /// // 32x32 floats row-major; 32 threads, one value each per instruction, lanes along a row.
    /// let smem = AnyLayout::Layout("(32,32):(32,1)".parse().unwrap());
    /// let tv: Layout = "(32,32):(32,1)".parse().unwrap();
    /// let r = bank_conflicts(&smem, 32, &tv, Instr::Lds(32)).unwrap();
    /// assert_eq!(r.wavefronts(), 32); // 32 instructions, one wavefront each
    /// ```
    pub fn wavefronts(&self) -> u64 {
        self.instrs.iter().map(|i| u64::from(i.wavefronts)).sum()
    }

    /// Sum of ideal wavefronts over the tile.
    ///
    /// ```
    /// use cute_core::{bank::{bank_conflicts, Instr}, swizzle::AnyLayout, Layout};
    /// // 32x32 floats row-major; 32 threads, one value each per instruction, lanes along a row.
    /// let smem = AnyLayout::Layout("(32,32):(32,1)".parse().unwrap());
    /// let tv: Layout = "(32,32):(32,1)".parse().unwrap();
    /// let r = bank_conflicts(&smem, 32, &tv, Instr::Lds(32)).unwrap();
    /// assert_eq!(r.ideal(), 32);
    /// ```
    pub fn ideal(&self) -> u64 {
        self.instrs.iter().map(|i| u64::from(i.ideal)).sum()
    }

    /// Worst conflict degree over the tile.
    ///
    /// ```
    /// use cute_core::{bank::{bank_conflicts, Instr}, swizzle::AnyLayout, Layout};
    /// // 32x32 floats row-major; 32 threads, one value each per instruction, lanes along a row.
    /// let smem = AnyLayout::Layout("(32,32):(32,1)".parse().unwrap());
    /// let tv: Layout = "(32,32):(32,1)".parse().unwrap();
    /// let r = bank_conflicts(&smem, 32, &tv, Instr::Lds(32)).unwrap();
    /// assert_eq!(r.ways(), 1);
    /// ```
    pub fn ways(&self) -> u32 {
        self.instrs.iter().map(|i| i.ways).max().unwrap_or(0)
    }
}

/// Analyse a tile: `smem` (element offsets), `elem_bits`, a TV layout
/// `(thread, value) → index into smem's domain`, and the instruction each group of
/// `lane_bits / elem_bits` consecutive values of a thread is moved with.
///
/// ```
/// use cute_core::{bank::{bank_conflicts, Instr}, swizzle::AnyLayout, Layout};
/// // 32x64 floats row-major; 32 threads each read one column (thread t = column t).
/// let smem = AnyLayout::Layout("(32,64):(64,1)".parse().unwrap());
/// let tv: Layout = "(32,32):(32,1)".parse().unwrap(); // thread t -> column t, value v -> row v
/// let r = bank_conflicts(&smem, 32, &tv, Instr::Lds(32)).unwrap();
/// assert_eq!((r.wavefronts(), r.ideal(), r.ways()), (32, 32, 1));
/// ```
pub fn bank_conflicts(
    smem: &AnyLayout,
    elem_bits: u32,
    tv: &Layout,
    instr: Instr,
) -> Result<BankReport> {
    tile(smem, None, elem_bits, tv, instr)
}

/// Threads a canonical access of `instr` has at most (1,024 warps).
const CANONICAL_MAX_THREADS: i64 = 32 * 1024;

/// The canonical warp access of an instruction over a whole 2-D shared-memory layout, as a
/// TiledCopy of it does; the TV layout `(thread, value) → index` over the layout's shape,
/// for [`bank_conflicts`]. Rows are the layout's mode other than its contiguous one (the
/// mode whose first stride is 1).
///
/// - LDS/STS (32 to 128 bits) and cp.async: each thread moves `lane_bits / elem_bits`
///   consecutive elements along the contiguous mode, consecutive threads side by side
///   along it, then down the rows.
/// - ldmatrix/stmatrix `.xN` (`.trans` reads and writes the same addresses): one warp
///   instruction moves N 8x8 matrices of 16-byte rows, lane `8q + r` giving row `r` of
///   matrix `q`. x4 lays its matrices 2x2 (down first, as an MMA's A fragment takes them:
///   16 rows by two 16-byte columns) where the rows allow, else 1x4 along the rows; x2 and
///   x1 side by side along the rows. Lanes beyond `8N` repeat the first ones (their
///   addresses are not used). One instruction a warp, warps side by side along the
///   contiguous mode, then down.
///
/// ```
/// use cute_core::{bank::{bank_conflicts, canonical_access, Instr}, swizzle::AnyLayout};
/// let smem = AnyLayout::Layout("(32,64):(64,1)".parse().unwrap()); // halves, row-major
/// let tv = canonical_access(&smem, 16, Instr::Lds(128)).unwrap();
/// assert_eq!(tv.to_string(), "((8,32),8):((256,1),32)"); // 8 threads a row, 8 halves each
/// let r = bank_conflicts(&smem, 16, &tv, Instr::Lds(128)).unwrap();
/// assert_eq!((r.wavefronts(), r.ideal()), (32, 32)); // 8 warps, 4 conflict-free wavefronts each
/// // ldmatrix.x4 of its 128-byte rows: every matrix's 8 rows in the same 4 banks.
/// let x4 = Instr::Ldsm { count: 4, trans: false };
/// let tv = canonical_access(&smem, 16, x4).unwrap();
/// let r = bank_conflicts(&smem, 16, &tv, x4).unwrap();
/// assert_eq!((r.warps(), r.wavefronts(), r.ideal()), (8, 256, 32));
/// ```
pub fn canonical_access(smem: &AnyLayout, elem_bits: u32, instr: Instr) -> Result<Layout> {
    let bits = instr.lane_bits();
    if elem_bits == 0 || !bits.is_multiple_of(elem_bits) {
        return Err(crate::err!(
            "{instr} moves {bits} bits per lane: not a whole number of {elem_bits}-bit elements"
        ));
    }
    let vec = i64::from(bits / elem_bits);
    let l = smem.inner();
    let IntTuple::Tuple(modes) = l.shape() else {
        return Err(crate::err!(
            "a canonical access needs a 2-D layout (rows, columns), got {l}"
        ));
    };
    if modes.len() != 2 {
        return Err(crate::err!(
            "a canonical access needs a 2-D layout (rows, columns), got rank {} ({l}): check one stage, e.g. layout(_,_,0)",
            modes.len()
        ));
    }
    let first_stride = |i: usize| -> Result<i64> {
        Ok(l.mode(i)?.stride().leaves().first().copied().unwrap_or(0))
    };
    let c = match (first_stride(0)?, first_stride(1)?) {
        (_, 1) => 1,
        (1, _) => 0,
        _ => {
            return Err(crate::err!(
                "{l} has no contiguous mode (no mode starts with stride 1): give the access as a TV layout or a TiledCopy"
            ))
        }
    };
    let (m, k) = (modes[1 - c].size()?, modes[c].size()?);
    // Strides of one row and one element along the contiguous mode, in the layout's index
    // (colexicographic over its shape).
    let (sa, sb) = if c == 1 { (1, m) } else { (k, 1) };
    let ints = |v: &[i64]| IntTuple::ints(v);
    let too_many = |threads: i64| -> Result<()> {
        if threads > CANONICAL_MAX_THREADS {
            return Err(crate::err!(
                "the access takes {threads} threads (more than {CANONICAL_MAX_THREADS}): check one tile of the layout"
            ));
        }
        Ok(())
    };
    let count = match instr {
        Instr::Ldsm { count, .. } | Instr::Stsm { count, .. } => i64::from(count),
        _ => {
            if k % vec != 0 {
                return Err(crate::err!(
                    "{instr} moves {vec} elements per lane, which do not divide the contiguous mode's {k}"
                ));
            }
            let across = k / vec;
            too_many(arith::mul(m, across)?)?;
            // Thread layout and value layout over (rows, columns) as make_tiled_copy takes them.
            let (thr, val) = if c == 1 {
                (
                    Layout::new(ints(&[m, across]), ints(&[across, 1]))?,
                    Layout::new(ints(&[1, vec]), ints(&[0, 1]))?,
                )
            } else {
                (
                    Layout::new(ints(&[across, m]), ints(&[1, across]))?,
                    Layout::new(ints(&[vec, 1]), ints(&[1, 0]))?,
                )
            };
            return Ok(crate::layout::make_layout_tv(&thr, &val)?.1);
        }
    };
    // The N matrices as (down, along) the rows: x4 2x2 where 16 rows divide, else 1x4.
    let (pa, pb) = match count {
        4 if m % 16 == 0 => (2, 2),
        n => (1, n),
    };
    let (rows, cols) = (8 * pa, vec * pb);
    if m % rows != 0 || k % cols != 0 {
        return Err(crate::err!(
            "{instr} moves {rows}x{cols}-element tiles ({count} 8x8 matrices of {vec} elements a row), which do not divide the layout's {m}x{k} (rows x contiguous elements)"
        ));
    }
    let (na, nb) = (m / rows, k / cols);
    too_many(arith::mul(32, arith::mul(na, nb)?)?)?;
    let e = arith::mul(vec, sb)?;
    // Lane 8q + r + 8N d (q = q0 + pa q1), then warps along the rows, then down.
    let thread = Layout::new(
        ints(&[8, pa, pb, 4 / count, nb, na]),
        ints(&[
            sa,
            arith::mul(8, sa)?,
            e,
            0,
            arith::mul(pb, e)?,
            arith::mul(rows, sa)?,
        ]),
    )?;
    let value = Layout::new(ints(&[vec]), ints(&[sb]))?;
    Layout::new(
        IntTuple::Tuple(vec![thread.shape().clone(), value.shape().clone()]),
        IntTuple::Tuple(vec![thread.stride().clone(), value.stride().clone()]),
    )
}

/// [`bank_conflicts`] of a global→shared `cp.async` whose global side is known: `gmem`
/// maps the same domain to global element offsets (from a 128-byte-aligned base), and
/// every lane's values must be contiguous and aligned there too. See
/// [`analyze_warp_g2s`] for what the global read changes.
///
/// ```
/// use cute_core::bank::{bank_conflicts, bank_conflicts_g2s, Instr};
/// use cute_core::swizzle::{AnyLayout, ComposedLayout, Swizzle};
/// use cute_core::Layout;
/// // A (16,64) half tile under Sw<3,3,3>, 16-byte copies, lanes down the rows.
/// let rows: Layout = "(16,64):(64,1)".parse().unwrap();
/// let sw = Swizzle::new(3, 3, 3).unwrap();
/// let smem = AnyLayout::Composed(ComposedLayout::new(sw, 0, rows));
/// let tv: Layout = "((16,8),8):((1,128),16)".parse().unwrap();
/// let cp = Instr::Ldgsts { bits: 128, bypass: false };
/// // The shared side alone is conflict-free: 4 wavefronts per instruction, 16 in all.
/// assert_eq!(bank_conflicts(&smem, 16, &tv, cp).unwrap().wavefronts(), 16);
/// // But each quarter-warp reads 8 global rows (8 lines): 8 wavefronts per quarter.
/// let gmem = AnyLayout::Layout("(16,64):(512,1)".parse().unwrap());
/// assert_eq!(bank_conflicts_g2s(&smem, &gmem, 16, &tv, cp).unwrap().wavefronts(), 128);
/// ```
pub fn bank_conflicts_g2s(
    smem: &AnyLayout,
    gmem: &AnyLayout,
    elem_bits: u32,
    tv: &Layout,
    instr: Instr,
) -> Result<BankReport> {
    if !matches!(instr, Instr::Ldgsts { .. }) {
        return Err(crate::err!(
            "{instr} does not read global memory (only cp.async does)"
        ));
    }
    tile(smem, Some(gmem), elem_bits, tv, instr)
}

fn tile(
    smem: &AnyLayout,
    gmem: Option<&AnyLayout>,
    elem_bits: u32,
    tv: &Layout,
    instr: Instr,
) -> Result<BankReport> {
    instr.check()?;
    let (threads, values, vec) = access_dims(
        tv,
        elem_bits,
        &[4, 8, 16, 32, 64],
        instr.lane_bits(),
        &instr.to_string(),
    )?;
    if let Some((_, crate::swizzle::Offset::SmemPtr { bits })) = smem.swizzle() {
        // C++ make_tensor: "Expected a B-bit pointer type".
        if bits != i64::from(elem_bits) {
            return Err(crate::err!(
                "the layout is for {bits}-bit elements (smem_ptr[{bits}b]), not {elem_bits}-bit ones"
            ));
        }
    }
    // Addresses as a tensor over the layout computes them: in elements.
    let elems = smem.in_elements()?;
    if values % vec != 0 {
        return Err(crate::err!(
            "{instr} moves {vec} values of {elem_bits} bits per lane, but each thread has {values} values"
        ));
    }
    let dom = smem.size()?;
    let global = match gmem {
        None => None,
        Some(g) => {
            let gdom = g.size()?;
            if gdom != dom {
                return Err(crate::err!(
                    "the global layout has {gdom} elements, the shared one {dom}"
                ));
            }
            Some(g.in_elements()?)
        }
    };
    let per_warp = values / vec;
    let warps = (threads + 31) / 32;
    let mut instrs = Vec::with_capacity((warps * per_warp) as usize);
    for w in 0..warps {
        for j in 0..per_warp {
            let mut addrs = vec![None; 32];
            let mut gaddrs = vec![None; 32];
            for lane in 0..32 {
                let t = w * 32 + lane as i64;
                if t >= threads {
                    continue;
                }
                addrs[lane] = Some(lane_address(
                    &elems,
                    elem_bits,
                    tv,
                    t,
                    j * vec,
                    vec,
                    dom,
                    instr,
                )?);
                if let Some(g) = &global {
                    gaddrs[lane] = Some(
                        lane_address(g, elem_bits, tv, t, j * vec, vec, dom, instr)
                            .map_err(|e| crate::err!("global side: {}", e.msg))?,
                    );
                }
            }
            let mut wi = match global {
                None => analyze_warp(instr, &addrs)?,
                Some(_) => analyze_warp_g2s(instr, &addrs, &gaddrs)?,
            };
            wi.warp = w as u32;
            wi.index = j as u32;
            instrs.push(wi);
        }
    }
    Ok(BankReport {
        smem: smem.clone(),
        elem_bits,
        tv: tv.clone(),
        instr,
        vec,
        threads,
        values,
        per_warp,
        instrs,
    })
}

/// The lane width an instruction name ends in: `8`, `16`, `32`, `64` or `128` bits.
pub(crate) fn lane_width(suffix: &str) -> Option<u32> {
    match suffix {
        "8" => Some(8),
        "16" => Some(16),
        "32" => Some(32),
        "64" => Some(64),
        "128" => Some(128),
        _ => None,
    }
}

/// The checks every access analysis makes of its (thread, value) layout and widths:
/// `elem_bits` one of `allowed` and within a lane's `lane_bits`, a rank-2 TV layout, at most
/// [`MAX_ELEMENTS`] of them. Returns (threads, values, values per lane).
pub(crate) fn access_dims(
    tv: &Layout,
    elem_bits: u32,
    allowed: &[u32],
    lane_bits: u32,
    what: &str,
) -> Result<(i64, i64, i64)> {
    if !allowed.contains(&elem_bits) {
        let names: Vec<String> = allowed.iter().map(u32::to_string).collect();
        let (last, rest) = names.split_last().expect("widths are given");
        return Err(crate::err!(
            "element width {elem_bits} bits: expected {} or {last}",
            rest.join(", ")
        ));
    }
    if elem_bits > lane_bits {
        return Err(crate::err!(
            "{what} moves {lane_bits} bits per lane: {elem_bits}-bit elements do not fit"
        ));
    }
    if tv.rank() != 2 {
        return Err(crate::err!(
            "the access must be a (thread, value) layout of rank 2, got {tv} of rank {}",
            tv.rank()
        ));
    }
    let threads = tv.mode(0)?.size()?;
    let values = tv.mode(1)?.size()?;
    if arith::mul(threads, values)? > MAX_ELEMENTS {
        return Err(crate::err!(
            "{threads} threads x {values} values is too large to analyse (limit {MAX_ELEMENTS} elements)"
        ));
    }
    Ok((threads, values, i64::from(lane_bits / elem_bits)))
}

/// The byte address thread `t` uses for values `v0..v0+vec`: they must be contiguous and
/// aligned in shared memory, or the instruction cannot move them.
#[allow(clippy::too_many_arguments)]
fn lane_address(
    smem: &AnyLayout,
    elem_bits: u32,
    tv: &Layout,
    t: i64,
    v0: i64,
    vec: i64,
    dom: i64,
    instr: Instr,
) -> Result<u64> {
    let base = lane_offset(
        smem,
        tv,
        t,
        v0,
        vec,
        dom,
        &instr.to_string(),
        "shared-memory",
    )?;
    let bits = arith::mul(base, i64::from(elem_bits))?;
    if bits % i64::from(instr.lane_bits()) != 0 {
        return Err(crate::err!(
            "{instr}: thread {t} value {v0} at offset {base} is not aligned to {} bytes",
            instr.lane_bits() / 8
        ));
    }
    Ok((bits / 8) as u64)
}

/// The element offset of thread `t`'s values `v0..v0+vec` in `layout` (through the TV
/// layout): they must be contiguous there (one vector access moves them) and the offset
/// non-negative. `what` names the instruction, `space` the memory, for the errors.
#[allow(clippy::too_many_arguments)]
pub(crate) fn lane_offset(
    layout: &AnyLayout,
    tv: &Layout,
    t: i64,
    v0: i64,
    vec: i64,
    dom: i64,
    what: &str,
    space: &str,
) -> Result<i64> {
    let at = |v: i64| -> Result<i64> {
        let i = tv.call_coord(&IntTuple::ints(&[t, v]))?;
        if i < 0 || i >= dom {
            return Err(crate::err!(
                "thread {t} value {v} maps to index {i}, outside the {space} layout (size {dom})"
            ));
        }
        layout.call_index(i)
    };
    let base = at(v0)?;
    for k in 1..vec {
        let o = at(v0 + k)?;
        if o != arith::add(base, k)? {
            return Err(crate::err!(
                "{what} needs {vec} contiguous elements per lane, but thread {t} values {v0}..{} sit at offsets {base}, .., {o} (value {})",
                v0 + vec - 1,
                v0 + k
            ));
        }
    }
    if base < 0 {
        return Err(crate::err!(
            "thread {t} value {v0} has a negative offset {base}"
        ));
    }
    Ok(base)
}

/// One ranked alternative of [`swizzle_search`].
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// What was tried: `none`, `Sw<3,4,3>`, `pad +8`.
    pub label: String,
    /// The shared-memory layout it gives.
    pub smem: AnyLayout,
    /// Total wavefronts over the tile.
    pub wavefronts: u64,
    /// Ideal wavefronts.
    pub ideal: u64,
    /// Extra shared memory in elements (padding).
    pub extra_elems: i64,
    /// The width of the elements the search was for.
    pub elem_bits: u32,
}

impl Candidate {
    /// How a kernel writes the candidate: its swizzle on byte addresses and the mode
    /// name where it is one ([`Swizzle::kernel_spelling`]); `None` for no swizzle and
    /// padding.
    ///
    /// ```
    /// use cute_core::{bank::{swizzle_search, Instr}, Layout};
    /// let base: Layout = "(32,64):(64,1)".parse().unwrap();
    /// let tv: Layout = "(32,8):(1,32)".parse().unwrap(); // lane t reads row t, 8 halves
    /// let best = &swizzle_search(&base, 16, &tv, Instr::Lds(128)).unwrap()[0];
    /// assert_eq!(best.label, "Sw<3,3,3>");
    /// assert_eq!(best.kernel_spelling().as_deref(), Some("Swizzle<3,4,3> on bytes = SW128"));
    /// ```
    pub fn kernel_spelling(&self) -> Option<String> {
        match &self.smem {
            AnyLayout::Composed(c) if self.extra_elems == 0 => {
                c.swizzle.kernel_spelling(self.elem_bits)
            }
            _ => None,
        }
    }
}

/// Rank swizzles `Sw<B,M,S>` (and no swizzle, and row padding) of `base` for an access by
/// total wavefronts. Candidates that break the vector width (the access would no longer
/// be contiguous) or that would move offsets outside `base`'s allocation are left out.
///
/// ```
/// use cute_core::{bank::{swizzle_search, Instr}, Layout};
/// let base: Layout = "(32,64):(64,1)".parse().unwrap();
/// let tv: Layout = "(32,32):(32,1)".parse().unwrap();
/// let ranked = swizzle_search(&base, 32, &tv, Instr::Lds(32)).unwrap();
/// assert_eq!(ranked[0].wavefronts, 32);
/// ```
///
/// Law (checked by `tests/laws.rs::swizzle_search_never_loses`): the first candidate takes
/// no more wavefronts than `none`.
pub fn swizzle_search(
    base: &Layout,
    elem_bits: u32,
    tv: &Layout,
    instr: Instr,
) -> Result<Vec<Candidate>> {
    // About 150 candidates are analysed: keep the whole search interactive.
    let n = tv.size()?;
    if n > SEARCH_MAX_ELEMENTS {
        return Err(crate::err!(
            "the access has {n} elements; a swizzle search handles at most {SEARCH_MAX_ELEMENTS} (search one tile)"
        ));
    }
    let none = bank_conflicts(&AnyLayout::Layout(base.clone()), elem_bits, tv, instr)?;
    let mut out = vec![Candidate {
        label: "none".into(),
        smem: AnyLayout::Layout(base.clone()),
        wavefronts: none.wavefronts(),
        ideal: none.ideal(),
        extra_elems: 0,
        elem_bits,
    }];
    let cosize = base.cosize()?;
    let vec = i64::from(instr.lane_bits() / elem_bits);
    let m_min = vec.trailing_zeros() as i64;
    let log_cos = 63 - i64::from((cosize.max(1) as u64).leading_zeros());
    // 2^5 words span the 32 banks: more swizzle bits cannot help.
    for b in 1..=5i64 {
        for m in m_min..=m_min + 4 {
            for s in b..=8i64 {
                if b + m + s > log_cos || cosize % (1i64 << (b + m + s)) != 0 {
                    continue;
                }
                let sw = Swizzle::new(b, m, s)?;
                let smem = AnyLayout::Composed(ComposedLayout::new(sw, 0, base.clone()));
                if let Ok(r) = bank_conflicts(&smem, elem_bits, tv, instr) {
                    out.push(Candidate {
                        label: sw.to_string(),
                        smem,
                        wavefronts: r.wavefronts(),
                        ideal: r.ideal(),
                        extra_elems: 0,
                        elem_bits,
                    });
                }
            }
        }
    }
    out.extend(padding_candidates(base, elem_bits, tv, instr, vec)?);
    // Fewest wavefronts first; among equals no padding before padding, smaller swizzles first.
    out.sort_by_key(|c| (c.wavefronts, c.extra_elems, c.label.len(), c.label.clone()));
    Ok(out)
}

/// Row padding, for a layout that flattens to two modes, one of stride 1: widen the other
/// stride by `vec`, `2 vec`, ... elements (at least a word, keeping vector alignment), up
/// to 128 bytes.
fn padding_candidates(
    base: &Layout,
    elem_bits: u32,
    tv: &Layout,
    instr: Instr,
    vec: i64,
) -> Result<Vec<Candidate>> {
    let flat = base.flatten();
    let (shape, stride) = (flat.shape().leaves(), flat.stride().leaves());
    let row = match stride.as_slice() {
        [1, d] if *d > 0 => 1,
        [d, 1] if *d > 0 => 0,
        _ => return Ok(Vec::new()),
    };
    let mut out = Vec::new();
    let mut pad = vec.max((32 / i64::from(elem_bits)).max(1));
    while pad * i64::from(elem_bits) <= 8 * 128 {
        let mut d = stride.clone();
        d[row] = arith::add(d[row], pad)?;
        let l = Layout::new(IntTuple::ints(&shape), IntTuple::ints(&d))?;
        if let Ok(r) = bank_conflicts(&AnyLayout::Layout(l.clone()), elem_bits, tv, instr) {
            out.push(Candidate {
                label: format!("pad +{pad}"),
                extra_elems: l.cosize()? - base.cosize()?,
                elem_bits,
                smem: AnyLayout::Layout(l),
                wavefronts: r.wavefronts(),
                ideal: r.ideal(),
            });
        }
        pad *= 2;
    }
    Ok(out)
}

impl fmt::Display for BankReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (wf, ideal) = (self.wavefronts(), self.ideal());
        write!(
            f,
            "{}, {}-bit elements, {} per lane: {} threads ({} warp{}) x {} instruction{}; {wf} wavefronts, ideal {ideal}",
            self.instr,
            self.elem_bits,
            self.vec,
            self.threads,
            self.warps(),
            if self.warps() == 1 { "" } else { "s" },
            self.per_warp,
            if self.per_warp == 1 { "" } else { "s" },
        )?;
        if wf == ideal {
            write!(f, ", conflict-free")?;
        } else {
            write!(f, ", {} extra ({}-way worst)", wf - ideal, self.ways())?;
        }
        // Warp 0's instructions, the pattern every warp repeats in most tiles.
        write!(f, "; warp 0:")?;
        for i in self.instrs.iter().filter(|i| i.warp == 0).take(16) {
            write!(f, " {}/{}", i.wavefronts, i.ideal)?;
        }
        if self.per_warp > 16 {
            write!(f, " ...")?;
        }
        Ok(())
    }
}

/// A ranked list printed on one line.
///
/// ```
/// use cute_core::{bank::{format_candidates, swizzle_search, Instr}, Layout};
/// let base: Layout = "(32,32):(32,1)".parse().unwrap();
/// let tv: Layout = "(32,32):(32,1)".parse().unwrap();
/// let ranked = swizzle_search(&base, 32, &tv, Instr::Lds(32)).unwrap();
/// let line = format_candidates(&ranked, 2);
/// assert!(line.starts_with(&format!("{}: 32 wavefronts; ", ranked[0].label)));
/// assert!(line.contains("more"));
/// ```
pub fn format_candidates(cs: &[Candidate], max: usize) -> String {
    let mut s = String::new();
    for (k, c) in cs.iter().take(max).enumerate() {
        if k > 0 {
            s.push_str("; ");
        }
        s.push_str(&format!("{}: {} wavefronts", c.label, c.wavefronts));
        if c.extra_elems > 0 {
            s.push_str(&format!(" (+{} elements)", c.extra_elems));
        }
    }
    if cs.len() > max {
        s.push_str(&format!("; ... {} more", cs.len() - max));
    }
    s
}
