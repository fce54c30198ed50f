//! Global-memory coalescing: the 32-byte sectors and 128-byte lines each warp instruction of
//! an access touches, against the fewest its bytes could take.
//!
//! The model, measured on an H100 with Nsight Compute (`hw/gmem/`, every probe and tiled
//! copy there equal to it): one warp instruction with at least one active lane is one L1TEX
//! request (`l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st,ldgsts}`); it costs one sector
//! per distinct 32-byte sector its active lanes touch (`l1tex__t_sectors_…`) and one tag
//! lookup and L2 request per distinct 128-byte line (`l1tex__t_set_accesses_…`,
//! `lts__t_requests_srcunit_tex_…`), whatever the lane order, width (1 to 16 bytes),
//! repetition (a broadcast costs one sector) or predication. A warp whose lanes are all off
//! issues nothing. cp.async counts with the loads.
//!
//! `cp.async.cg` (LDGSTS.BYPASS, which skips L1) is the exception: the warp goes through
//! the tag stage a quarter (8 lanes, 128 bytes) at a time, one lookup per line a quarter
//! touches, and each line costs one "sector" per pair of lanes (2k, 2k+1) reading it, even
//! where the pair reads two sectors or the same 16 bytes as another pair. Nothing is shared
//! between quarters: a broadcast costs 16 sectors and 4 lines, not 1 and 1.

use crate::bank;
use crate::error::Result;
use crate::swizzle::AnyLayout;
use crate::Layout;
use std::fmt;

/// Bytes of a sector, the unit global memory moves.
pub const SECTOR_BYTES: u64 = 32;
/// Bytes of a cache line (four sectors), the unit of a tag lookup and an L2 request.
pub const LINE_BYTES: u64 = 128;

/// A global-memory warp instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GmemOp {
    /// `ld.global` (LDG) of 8, 16, 32, 64 or 128 bits per lane.
    Ldg(u32),
    /// `st.global` (STG) of 8, 16, 32, 64 or 128 bits per lane.
    Stg(u32),
    /// `cp.async.{ca,cg}.shared.global` (LDGSTS): its global read, 32, 64 or 128 bits.
    CpAsync {
        /// 32, 64 or 128.
        bits: u32,
        /// `.cg` (the read skips L1; 128 bits only).
        bypass: bool,
    },
}

impl GmemOp {
    /// Every name [`GmemOp::parse`] accepts, canonical spelling.
    pub const NAMES: &'static [&'static str] = &[
        "LDG8",
        "LDG16",
        "LDG32",
        "LDG64",
        "LDG128",
        "STG8",
        "STG16",
        "STG32",
        "STG64",
        "STG128",
        "LDGSTS32",
        "LDGSTS64",
        "LDGSTS128",
        "LDGSTS128_CG",
    ];

    /// Parse `LDG8` .. `LDG128`, `STG8` .. `STG128`, `LDGSTS32/64/128` (cp.async.ca) and
    /// `LDGSTS128_CG` (cp.async.cg), case-insensitive.
    ///
    /// ```
    /// use cute_core::gmem::GmemOp;
    /// assert_eq!(GmemOp::parse("ldg128"), Some(GmemOp::Ldg(128)));
    /// assert_eq!(GmemOp::parse("LDGSTS128_CG"), Some(GmemOp::CpAsync { bits: 128, bypass: true }));
    /// assert_eq!(GmemOp::parse("STG24"), None);
    /// ```
    pub fn parse(s: &str) -> Option<GmemOp> {
        let u = s.to_ascii_uppercase();
        if u.starts_with("LDGSTS") {
            return match bank::Instr::parse(&u)? {
                bank::Instr::Ldgsts { bits, bypass } => Some(GmemOp::CpAsync { bits, bypass }),
                _ => None,
            };
        }
        if let Some(b) = u.strip_prefix("LDG") {
            return Some(GmemOp::Ldg(bank::lane_width(b)?));
        }
        if let Some(b) = u.strip_prefix("STG") {
            return Some(GmemOp::Stg(bank::lane_width(b)?));
        }
        None
    }

    /// Bits each lane moves.
    pub fn bits(self) -> u32 {
        match self {
            GmemOp::Ldg(b) | GmemOp::Stg(b) | GmemOp::CpAsync { bits: b, .. } => b,
        }
    }

    /// Whether it writes global memory.
    pub fn is_store(self) -> bool {
        matches!(self, GmemOp::Stg(_))
    }

    /// An error unless the hardware has it (`LDGSTS64_CG` does not exist).
    pub fn check(self) -> Result<()> {
        let ok = match self {
            GmemOp::Ldg(b) | GmemOp::Stg(b) => [8, 16, 32, 64, 128].contains(&b),
            GmemOp::CpAsync { bits, bypass } => {
                bits == 128 || (!bypass && [32, 64].contains(&bits))
            }
        };
        if ok {
            Ok(())
        } else {
            Err(crate::err!(
                "{self} does not exist (expected one of {})",
                GmemOp::NAMES.join(", ")
            ))
        }
    }

    /// The name `hw/gmem/corpus.py` and the fixtures use (`ld32`, `st128`,
    /// `cpasync_ca64`, `cpasync_cg128`).
    ///
    /// ```
    /// use cute_core::gmem::GmemOp;
    /// for n in GmemOp::NAMES {
    ///     let op = GmemOp::parse(n).unwrap();
    ///     assert_eq!(GmemOp::from_op_name(&op.op_name()), Some(op));
    /// }
    /// ```
    pub fn op_name(self) -> String {
        match self {
            GmemOp::Ldg(b) => format!("ld{b}"),
            GmemOp::Stg(b) => format!("st{b}"),
            GmemOp::CpAsync { bits, bypass } => {
                format!("cpasync_{}{bits}", if bypass { "cg" } else { "ca" })
            }
        }
    }

    /// The inverse of [`GmemOp::op_name`].
    pub fn from_op_name(s: &str) -> Option<GmemOp> {
        let op = if let Some(b) = s.strip_prefix("cpasync_ca") {
            GmemOp::CpAsync {
                bits: b.parse().ok()?,
                bypass: false,
            }
        } else if let Some(b) = s.strip_prefix("cpasync_cg") {
            GmemOp::CpAsync {
                bits: b.parse().ok()?,
                bypass: true,
            }
        } else if let Some(b) = s.strip_prefix("ld") {
            GmemOp::Ldg(b.parse().ok()?)
        } else if let Some(b) = s.strip_prefix("st") {
            GmemOp::Stg(b.parse().ok()?)
        } else {
            return None;
        };
        op.check().ok().map(|_| op)
    }
}

impl fmt::Display for GmemOp {
    /// The SASS spelling: `LDG.E.128`, `STG.E.U8`, `LDGSTS.E.BYPASS.128`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = |b: u32| match b {
            8 => ".U8".to_string(),
            16 => ".U16".to_string(),
            32 => String::new(),
            b => format!(".{b}"),
        };
        match *self {
            GmemOp::Ldg(b) => write!(f, "LDG.E{}", suffix(b)),
            GmemOp::Stg(b) => write!(f, "STG.E{}", suffix(b)),
            GmemOp::CpAsync { bits, bypass } => write!(
                f,
                "LDGSTS.E{}{}",
                if bypass { ".BYPASS" } else { "" },
                suffix(bits)
            ),
        }
    }
}

/// The model's answer for one warp instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct GmemInstr {
    /// Warp index in the tile.
    pub warp: u32,
    /// Instruction index within the warp.
    pub index: u32,
    /// Byte address of each lane (`None`: inactive lane).
    pub addrs: Vec<Option<u64>>,
    /// L1TEX requests: 1, or 0 when no lane is active.
    pub requests: u32,
    /// Distinct 32-byte sectors touched.
    pub sectors: u32,
    /// Distinct 128-byte lines touched.
    pub lines: u32,
    /// Distinct bytes the active lanes ask for.
    pub bytes: u64,
    /// Fewest sectors those bytes fit in: `ceil(bytes / 32)`.
    pub min_sectors: u32,
    /// Fewest lines those bytes fit in: `ceil(bytes / 128)`.
    pub min_lines: u32,
}

impl GmemInstr {
    /// Whether it touches no more sectors than its bytes need.
    pub fn coalesced(&self) -> bool {
        self.sectors == self.min_sectors
    }
}

/// Model one warp instruction from its lanes' byte addresses (`None` = inactive lane),
/// which must be aligned to the access width. This is the function the H100 fixtures check.
///
/// ```
/// use cute_core::gmem::{analyze_gmem_warp, GmemOp};
/// // 32 lanes reading consecutive floats: one 128-byte line, 4 sectors.
/// let row: Vec<Option<u64>> = (0..32).map(|l| Some(4 * l)).collect();
/// let r = analyze_gmem_warp(GmemOp::Ldg(32), &row).unwrap();
/// assert_eq!((r.requests, r.sectors, r.lines, r.min_sectors), (1, 4, 1, 4));
/// // A column of a row-major 32x32 float tile: a sector and a line per lane.
/// let col: Vec<Option<u64>> = (0..32).map(|l| Some(128 * l)).collect();
/// let r = analyze_gmem_warp(GmemOp::Ldg(32), &col).unwrap();
/// assert_eq!((r.sectors, r.lines, r.min_sectors), (32, 32, 4));
/// // cp.async.cg of one 16-byte block by every lane: no merging across quarters or pairs.
/// let same = vec![Some(256u64); 32];
/// let cg = GmemOp::CpAsync { bits: 128, bypass: true };
/// let r = analyze_gmem_warp(cg, &same).unwrap();
/// assert_eq!((r.sectors, r.lines, r.min_sectors), (16, 4, 1));
/// ```
///
/// Laws (`tests/laws.rs::gmem_sectors_bound`): `min_sectors ≤ sectors ≤ active lanes`
/// (one sector per lane at most: an aligned access of at most 16 bytes never straddles
/// one), `lines ≤ sectors ≤ 4 · lines`, and, but for `cp.async.cg`, the cost does not
/// depend on the lane order.
pub fn analyze_gmem_warp(op: GmemOp, addrs: &[Option<u64>]) -> Result<GmemInstr> {
    op.check()?;
    if addrs.len() != 32 {
        return Err(crate::err!("a warp has 32 lanes, got {}", addrs.len()));
    }
    let w = u64::from(op.bits() / 8);
    let mut starts = Vec::with_capacity(32);
    for (l, a) in addrs.iter().enumerate() {
        let Some(a) = *a else { continue };
        if a % w != 0 {
            return Err(crate::err!(
                "lane {l}: byte address {a} is not aligned to the {w}-byte access"
            ));
        }
        if a.checked_add(w).is_none() {
            return Err(crate::err!("lane {l}: byte address {a} is out of range"));
        }
        starts.push(a);
    }
    starts.sort_unstable();
    starts.dedup();
    // Aligned accesses of one width are equal or disjoint, and none crosses a sector.
    let distinct = |unit: u64| {
        let mut u: Vec<u64> = starts.iter().map(|a| a / unit).collect();
        u.dedup(); // sorted: equal units are adjacent
        u.len() as u32
    };
    let bytes = starts.len() as u64 * w;
    let (sectors, lines) = match op {
        GmemOp::CpAsync { bypass: true, .. } => bypass_cost(addrs),
        _ => (distinct(SECTOR_BYTES), distinct(LINE_BYTES)),
    };
    Ok(GmemInstr {
        warp: 0,
        index: 0,
        addrs: addrs.to_vec(),
        requests: u32::from(!starts.is_empty()),
        sectors,
        lines,
        bytes,
        min_sectors: bytes.div_ceil(SECTOR_BYTES) as u32,
        min_lines: bytes.div_ceil(LINE_BYTES) as u32,
    })
}

/// `cp.async.cg`'s (sectors, lines): per quarter-warp, per line, one per lane pair.
fn bypass_cost(addrs: &[Option<u64>]) -> (u32, u32) {
    let (mut sectors, mut lines) = (0, 0);
    for quarter in addrs.chunks(8) {
        // (line, lane pair) of each active lane, deduplicated
        let mut seen: Vec<(u64, usize)> = quarter
            .iter()
            .enumerate()
            .filter_map(|(l, a)| a.map(|a| (a / LINE_BYTES, l / 2)))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        sectors += seen.len() as u32;
        seen.dedup_by_key(|(line, _)| *line);
        lines += seen.len() as u32;
    }
    (sectors, lines)
}

/// A whole tile's coalescing.
#[derive(Clone, Debug, PartialEq)]
pub struct CoalesceReport {
    /// The global-memory layout (element offsets from `base`).
    pub gmem: AnyLayout,
    /// Element width in bits.
    pub elem_bits: u32,
    /// Byte address of element 0 (the tensor's pointer).
    pub base: u64,
    /// The (thread, value) → domain-index layout.
    pub tv: Layout,
    /// The instruction.
    pub op: GmemOp,
    /// Values each lane moves per instruction.
    pub vec: i64,
    /// Threads in the TV layout.
    pub threads: i64,
    /// Values per thread.
    pub values: i64,
    /// Instructions per warp.
    pub per_warp: i64,
    /// Every warp instruction of the tile, warp-major.
    pub instrs: Vec<GmemInstr>,
}

impl CoalesceReport {
    /// Warps in the tile.
    pub fn warps(&self) -> i64 {
        (self.threads + 31) / 32
    }

    /// Sum of a per-instruction count over the tile.
    fn total(&self, f: impl Fn(&GmemInstr) -> u32) -> u64 {
        self.instrs.iter().map(|i| u64::from(f(i))).sum()
    }

    /// Sectors over the tile.
    pub fn sectors(&self) -> u64 {
        self.total(|i| i.sectors)
    }

    /// Fewest sectors over the tile (per instruction, summed).
    pub fn min_sectors(&self) -> u64 {
        self.total(|i| i.min_sectors)
    }

    /// Lines (tag lookups, L2 requests) over the tile.
    pub fn lines(&self) -> u64 {
        self.total(|i| i.lines)
    }

    /// Fewest lines over the tile.
    pub fn min_lines(&self) -> u64 {
        self.total(|i| i.min_lines)
    }

    /// Requests over the tile.
    pub fn requests(&self) -> u64 {
        self.total(|i| i.requests)
    }

    /// Bytes asked for over the tile.
    pub fn bytes(&self) -> u64 {
        self.instrs.iter().map(|i| i.bytes).sum()
    }
}

impl fmt::Display for CoalesceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, ms, l, ml) = (
            self.sectors(),
            self.min_sectors(),
            self.lines(),
            self.min_lines(),
        );
        write!(
            f,
            "{}, {}-bit elements, {} per lane, base {}: {} threads ({} warp{}) x {} instruction{}; {s} sectors, min {ms}; {l} lines, min {ml}",
            self.op,
            self.elem_bits,
            self.vec,
            self.base,
            self.threads,
            self.warps(),
            if self.warps() == 1 { "" } else { "s" },
            self.per_warp,
            if self.per_warp == 1 { "" } else { "s" },
        )?;
        if s == ms {
            write!(f, ", coalesced")?;
        } else {
            // Share of the fetched bytes the lanes use.
            write!(
                f,
                ", {}% of fetched bytes used",
                self.bytes() * 100 / (s * SECTOR_BYTES).max(1)
            )?;
        }
        write!(f, "; warp 0 sectors:")?;
        for i in self.instrs.iter().filter(|i| i.warp == 0).take(16) {
            write!(f, " {}/{}", i.sectors, i.min_sectors)?;
        }
        if self.per_warp > 16 {
            write!(f, " ...")?;
        }
        Ok(())
    }
}

/// Analyse a tile: `gmem` (element offsets from the byte address `base`), `elem_bits`, a TV
/// layout `(thread, value) → index into gmem's domain`, and the instruction each group of
/// `bits / elem_bits` consecutive values of a thread is moved with.
///
/// ```
/// use cute_core::{gmem::{coalescing, GmemOp}, Layout};
/// // A 64x32 column-major half tile, 128 threads reading 8 halves each down a column.
/// let gmem: Layout = "(64,32):(1,64)".parse().unwrap();
/// let gmem = gmem.into();
/// let tv: Layout = "((8,16),8):((8,64),1)".parse().unwrap();
/// let r = coalescing(&gmem, 16, 0, &tv, GmemOp::Ldg(128)).unwrap();
/// assert_eq!((r.warps(), r.sectors(), r.min_sectors()), (4, 64, 64));
/// // The same tile 64 bytes into a line: each warp's 4 columns (128 bytes each) span 5 lines.
/// let r = coalescing(&gmem, 16, 64, &tv, GmemOp::Ldg(128)).unwrap();
/// assert_eq!((r.sectors(), r.lines(), r.min_lines()), (64, 20, 16));
/// ```
pub fn coalescing(
    gmem: &AnyLayout,
    elem_bits: u32,
    base: u64,
    tv: &Layout,
    op: GmemOp,
) -> Result<CoalesceReport> {
    op.check()?;
    let lane_bits = op.bits();
    let (threads, values, vec) = bank::access_dims(
        tv,
        elem_bits,
        &[1, 4, 8, 16, 32, 64],
        lane_bits,
        &op.to_string(),
    )?;
    if values % vec != 0 {
        return Err(crate::err!(
            "{op} moves {vec} values of {elem_bits} bits per lane, but each thread has {values} values"
        ));
    }
    let dom = gmem.size()?;
    let lane_bytes = u64::from(lane_bits / 8);
    let per_warp = values / vec;
    let warps = (threads + 31) / 32;
    let name = op.to_string();
    let mut instrs = Vec::new();
    for w in 0..warps {
        for j in 0..per_warp {
            let mut addrs = vec![None; 32];
            for (lane, slot) in addrs.iter_mut().enumerate() {
                let t = w * 32 + lane as i64;
                if t >= threads {
                    continue;
                }
                let off = bank::lane_offset(gmem, tv, t, j * vec, vec, dom, &name, "global")?;
                // In bits: a sub-byte element (int4b_t) need not start a byte.
                let a = (off as u64)
                    .checked_mul(u64::from(elem_bits))
                    .and_then(|b| b.checked_add(base.checked_mul(8)?))
                    .ok_or_else(|| crate::err!("thread {t}: byte address overflows"))?;
                if a % (lane_bytes * 8) != 0 {
                    return Err(crate::err!(
                        "{op}: thread {t} value {} at bit address {a} (base {base} bytes + {off} elements) is not aligned to {lane_bytes} bytes",
                        j * vec
                    ));
                }
                let a = a / 8;
                if a % lane_bytes != 0 {
                    return Err(crate::err!(
                        "{op}: thread {t} value {} at byte address {a} (base {base} + {off} elements) is not aligned to {lane_bytes} bytes",
                        j * vec
                    ));
                }
                *slot = Some(a);
            }
            let mut gi = analyze_gmem_warp(op, &addrs)?;
            gi.warp = w as u32;
            gi.index = j as u32;
            instrs.push(gi);
        }
    }
    Ok(CoalesceReport {
        gmem: gmem.clone(),
        elem_bits,
        base,
        tv: tv.clone(),
        op,
        vec,
        threads,
        values,
        per_warp,
        instrs,
    })
}
