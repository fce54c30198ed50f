//! Kernel-wide traffic: every copy's warp instructions, shared-memory wavefronts and global
//! sectors per CTA, times the problem's CTAs and k-tiles, in the units Nsight Compute
//! counts (`smsp__inst_executed_op_*`, `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*`,
//! `l1tex__data_bank_conflicts_*`, `l1tex__t_sectors_pipe_lsu_mem_global_op_*`,
//! `l1tex__t_requests_*`). `hw/kernel` measures them on an H100.

use super::report::{Section, SectionKind, Verdict, Warning};
use cute_core::atom::Operand;
use cute_core::error::{arith, Error, Result};
use cute_core::int_tuple::{Coord, IntTuple};
use cute_core::layout::{self as alg, Layout, Tiler};
use cute_core::swizzle::{AnyLayout, ComposedLayout, Swizzle};

/// Tiles of one stage a copy's check analyses at most (a 256x256 stage of 16x16 copy tiles
/// is 256).
pub(super) const MAX_TILES: i64 = 4096;

/// One copy's traffic per CTA and k-tile (the mainloop) or per CTA (the epilogue).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// The object (`copyA`, `s2r_atom_B`, `C`).
    pub object: String,
    /// The instruction (`LDGSTS.128`, `ldmatrix.x4`, `STG16`).
    pub instr: String,
    /// Whether it runs once per k-tile (the mainloop) or once per CTA (the epilogue).
    pub per_k_tile: bool,
    /// Warp-level instructions.
    pub instrs: u64,
    /// Shared-memory wavefronts (0 where the instruction does not touch shared memory).
    pub wavefronts: u64,
    /// Wavefronts the bytes need at the least.
    pub ideal_wavefronts: u64,
    /// Bank conflicts: wavefronts beyond one per non-empty pass.
    pub conflicts: u64,
    /// Global 32-byte sectors (0 where it does not touch global memory).
    pub sectors: u64,
    /// Sectors the bytes need at the least.
    pub min_sectors: u64,
    /// Global requests.
    pub requests: u64,
    /// Bytes a TMA moves between global and shared memory (its sectors are in `sectors`).
    pub bytes: u64,
}

/// The problem `M x N x K` the code declares (`int m = 4096;`, `prob_shape`) over the CTA
/// tile: how often the mainloop and the epilogue run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// `[M, N, K]`.
    pub mnk: [i64; 3],
    /// CTAs: `M/bM * N/bN`.
    pub ctas: u64,
    /// k-tiles per CTA: `K/bK`.
    pub k_tiles: u64,
}

impl Problem {
    /// The problem over a CTA tile, or why its totals cannot be counted exactly (a tail
    /// tile's predicated copies are not modelled).
    pub fn new(mnk: [i64; 3], cta: &[i64]) -> Result<Problem> {
        for (i, d) in ["M", "N", "K"].iter().enumerate() {
            let (p, t) = (mnk[i], cta.get(i).copied().unwrap_or(0));
            if p <= 0 || t <= 0 || p % t != 0 {
                return Err(cute_core::err!(
                    "the problem's {d} = {p} is not a positive multiple of the CTA tile's {t}: the tail tiles' predicated copies are not modelled, so no kernel totals"
                ));
            }
        }
        let n = |i: usize| u64::try_from(mnk[i] / cta[i]).unwrap_or(0);
        Ok(Problem {
            mnk,
            ctas: n(0)
                .checked_mul(n(1))
                .ok_or_else(|| Error::new("the CTA count overflows"))?,
            k_tiles: n(2),
        })
    }

    /// How often a copy runs in the whole kernel.
    pub fn runs(&self, t: &Traffic) -> u64 {
        self.ctas
            .saturating_mul(if t.per_k_tile { self.k_tiles } else { 1 })
    }
}

impl Traffic {
    /// `self` times `n`, saturating (a hostile problem size gives a huge number, not a wrap).
    pub fn times(&self, n: u64) -> Traffic {
        Traffic {
            object: self.object.clone(),
            instr: self.instr.clone(),
            per_k_tile: self.per_k_tile,
            instrs: self.instrs.saturating_mul(n),
            wavefronts: self.wavefronts.saturating_mul(n),
            ideal_wavefronts: self.ideal_wavefronts.saturating_mul(n),
            conflicts: self.conflicts.saturating_mul(n),
            sectors: self.sectors.saturating_mul(n),
            min_sectors: self.min_sectors.saturating_mul(n),
            requests: self.requests.saturating_mul(n),
            bytes: self.bytes.saturating_mul(n),
        }
    }

    // Sums of bounded analyses (at most MAX_TILES tiles each); saturating all the same.
    pub(super) fn add_bank(&mut self, rep: &cute_core::bank::BankReport) {
        let conflicts = rep
            .instrs
            .iter()
            .map(|i| u64::from(i.conflicts))
            .sum::<u64>();
        self.instrs = self.instrs.saturating_add(rep.instrs.len() as u64);
        self.wavefronts = self.wavefronts.saturating_add(rep.wavefronts());
        self.ideal_wavefronts = self.ideal_wavefronts.saturating_add(rep.ideal());
        self.conflicts = self.conflicts.saturating_add(conflicts);
    }

    pub(super) fn add_gmem(&mut self, rep: &cute_core::gmem::CoalesceReport) {
        self.sectors = self.sectors.saturating_add(rep.sectors());
        self.min_sectors = self.min_sectors.saturating_add(rep.min_sectors());
        self.requests = self.requests.saturating_add(rep.requests());
    }

    /// One line: `524288 instructions, 4194304 sectors (min ...), ...`.
    pub fn describe(&self) -> String {
        let mut parts = vec![format!("{} instructions", self.instrs)];
        if self.bytes > 0 {
            parts.push(format!("{} bytes, {} sectors", self.bytes, self.sectors));
        } else if self.sectors > 0 {
            parts.push(format!(
                "{} requests, {} sectors (min {})",
                self.requests, self.sectors, self.min_sectors
            ));
        }
        if self.wavefronts > 0 {
            parts.push(format!(
                "{} smem wavefronts (ideal {}), {} bank conflicts",
                self.wavefronts, self.ideal_wavefronts, self.conflicts
            ));
        }
        parts.join(", ")
    }
}

/// The `(tm, tk)` tiles of a `(sm, sk)` stage, k-major order: `(m, k)` indices. A tile
/// that does not divide the stage, or a stage of more than [`MAX_TILES`] tiles, is refused.
pub(super) fn tile_grid(
    what: &str,
    stage: (i64, i64),
    tile: (i64, i64),
) -> Result<Vec<(i64, i64)>> {
    let ((sm, sk), (tm, tk)) = (stage, tile);
    if tm <= 0 || tk <= 0 || sm % tm != 0 || sk % tk != 0 {
        return Err(cute_core::err!(
            "{what}: the copy's tile {tm}x{tk} does not divide the stage {sm}x{sk}"
        ));
    }
    let tiles = arith::mul(sm / tm, sk / tk)?;
    if tiles > MAX_TILES {
        return Err(cute_core::err!(
            "{what}: the stage {sm}x{sk} holds {tiles} tiles of {tm}x{tk}; at most {MAX_TILES} are analysed"
        ));
    }
    Ok((0..sk / tk)
        .flat_map(|k| (0..sm / tm).map(move |m| (m, k)))
        .collect())
}

/// `zipped_divide(l, (tm, tk))`, a GMMA atom's byte-address swizzle (`smem_ptr[16b]`) first
/// recast to elements: its tiles' offsets then move the swizzle as an address would.
pub(super) fn divide(l: &AnyLayout, tile: (i64, i64)) -> Result<AnyLayout> {
    l.in_elements()?.map_inner(|l| {
        alg::zipped_divide(
            l,
            &Tiler::Tuple(vec![Tiler::Int(tile.0), Tiler::Int(tile.1)]),
        )
    })
}

/// Tile `(m, k)` of a [`divide`]d layout. A slice drops the offset of the bits a swizzle
/// does not touch: a shift of whole 16-byte chunks, which no bank count depends on.
pub(super) fn block(divided: &AnyLayout, (m, k): (i64, i64)) -> Result<AnyLayout> {
    let at = Coord::Tuple(vec![
        Coord::Under,
        Coord::Tuple(vec![Coord::Int(m), Coord::Int(k)]),
    ]);
    Ok(match divided {
        AnyLayout::Layout(l) => AnyLayout::Layout(l.slice(&at)?),
        AnyLayout::Composed(c) => c.slice(&at)?,
    })
}

/// [`g2s_stage`]'s result.
pub(super) struct G2sStage {
    /// The stage's traffic.
    pub traffic: Traffic,
    /// The tile with the most wavefronts over its ideal.
    pub worst: cute_core::bank::BankReport,
    /// Copy tiles in the stage.
    pub tiles: usize,
    /// The shared-memory writes' wavefronts as if every quarter-warp read one global line
    /// (`bank_conflicts` of the smem side alone): what a swizzle can change.
    pub smem_side: u64,
}

/// A `global -> shared` copy over a whole stage: every copy tile's global reads
/// (coalescing, from the tile's own address) and shared writes (LDGSTS's bank model, which
/// the global side sets, or STS).
#[allow(clippy::too_many_arguments)]
pub(super) fn g2s_stage(
    what: &str,
    object: &str,
    gmem: &Layout,
    access: &crate::ops::atoms::GmemAccess,
    stage: &AnyLayout,
    sbits: u32,
    tv: &Layout,
    instr: cute_core::bank::Instr,
    tile: (i64, i64),
) -> Result<G2sStage> {
    let shape = stage.inner().shape();
    let dims = (shape.get(0)?.size()?, shape.get(1)?.size()?);
    let grid = tile_grid(what, dims, tile)?;
    let tiles = grid.len();
    let (sdiv, gdiv) = (
        divide(stage, tile).map_err(|e| e.within(what))?,
        divide(&AnyLayout::Layout(gmem.clone()), tile).map_err(|e| e.within(what))?,
    );
    let mut t = Traffic {
        object: object.to_string(),
        instr: instr.to_string(),
        per_k_tile: true,
        ..Traffic::default()
    };
    let mut worst: Option<cute_core::bank::BankReport> = None;
    let mut smem_side = 0;
    for at in grid {
        let AnyLayout::Layout(g) = block(&gdiv, at)? else {
            return Err(cute_core::err!("{what}: a swizzled global layout"));
        };
        // The tile's first element, in bytes past the tensor's.
        let off = gmem
            .call_coord(&IntTuple::ints(&[at.0 * tile.0, at.1 * tile.1]))
            .and_then(|off| arith::mul(off, i64::from(access.bits)))
            .map_err(|e| e.within(what));
        let off_bits = off?;
        let base = u64::try_from(off_bits / 8)
            .ok()
            .and_then(|b| b.checked_add(access.base))
            .ok_or_else(|| cute_core::err!("{what}: a tile before the tensor's start"))?;
        let co = cute_core::gmem::coalescing(
            &AnyLayout::Layout(g.clone()),
            access.bits,
            base,
            &access.tv,
            access.op,
        )
        .map_err(|e| e.within(what))?;
        t.add_gmem(&co);
        let sblock = block(&sdiv, at)?;
        let alone = cute_core::bank::bank_conflicts(&sblock, sbits, tv, instr)
            .map_err(|e| e.within(what))?;
        smem_side += alone.wavefronts();
        let rep = match instr {
            cute_core::bank::Instr::Ldgsts { .. } => {
                // The global side as element offsets from the allocation's start.
                let elem_off = i64::try_from(base.saturating_mul(8) / u64::from(access.bits))
                    .map_err(|_| cute_core::err!("{what}: address out of range"))?;
                let gsided =
                    AnyLayout::Composed(ComposedLayout::new(Swizzle::new(0, 0, 0)?, elem_off, g));
                cute_core::bank::bank_conflicts_g2s(&sblock, &gsided, sbits, tv, instr)
            }
            _ => Ok(alone),
        }
        .map_err(|e| e.within(what))?;
        t.add_bank(&rep);
        if worst
            .as_ref()
            .is_none_or(|w| rep.wavefronts() * w.ideal() > w.wavefronts() * rep.ideal())
        {
            worst = Some(rep);
        }
    }
    Ok(G2sStage {
        traffic: t,
        worst: worst.ok_or_else(|| cute_core::err!("{what}: an empty stage"))?,
        tiles,
        smem_side,
    })
}

/// The totals section: each copy's traffic per CTA (and k-tile) times the problem's CTAs
/// (and k-tiles).
pub(super) fn totals_section(p: &Problem, traffic: &[Traffic]) -> Section {
    let [m, n, k] = p.mnk;
    let mut facts = vec![
        ("problem".into(), format!("{m}x{n}x{k}")),
        ("CTAs".into(), p.ctas.to_string()),
        ("k-tiles per CTA".into(), p.k_tiles.to_string()),
    ];
    for t in traffic {
        facts.push((
            format!("{} {}", t.object, t.instr),
            format!(
                "{} per CTA{} x {}: {}",
                t.describe(),
                if t.per_k_tile { " and k-tile" } else { "" },
                p.runs(t),
                t.times(p.runs(t)).describe()
            ),
        ));
    }
    // What an engineer comparing with a profile needs to know (measured in hw/kernel).
    facts.push((
        "Nsight Compute".into(),
        "shared-memory counts are per instruction, as ncu's smsp__sass_* counters give them; in a pipelined kernel the hardware's l1tex__data_bank_conflicts_* also counts collisions between concurrent instructions (cp.async writes against ldmatrix reads), which no layout decides".into(),
    ));
    let total = |f: fn(&Traffic) -> u64| {
        traffic
            .iter()
            .fold(0u64, |a, t| a.saturating_add(f(&t.times(p.runs(t)))))
    };
    let (smem, sectors) = (total(|t| t.wavefronts), total(|t| t.sectors));
    Section {
        kind: SectionKind::Kernel,
        name: format!("{m}x{n}x{k}"),
        verdict: Verdict::Ok,
        headline: format!(
            "{} CTAs x {} k-tiles: {smem} shared-memory wavefronts, {sectors} global sectors",
            p.ctas, p.k_tiles
        ),
        facts,
        warnings: vec![],
        view: None,
    }
}

/// A TMA atom's traffic: boxes (instructions), bytes and global sectors per CTA and k-tile
/// (a load of A or B) or per CTA (a store of C), the CTA's tile of the operand over the
/// atom's smem tile. Box rows are taken to start 32-byte aligned in global memory, as
/// `cuTensorMapEncodeTiled` asks of the strides (multiples of 16 bytes) and of the base. A
/// multicast box is split among its CTAs: each issues its part (as many instructions as a
/// whole box takes) and receives the whole box, its peers' parts by multicast, so the bytes
/// and sectors into each CTA are a whole box's (what ncu's `l1tex__m_xbar2l1tex_read_*`
/// count, multicast included); L2 reads 1/multicast of them.
pub(super) fn tma_traffic(
    name: &str,
    op: Operand,
    t: &cute_core::tma::TmaAtom,
    cta: &[i64],
) -> Result<Option<Traffic>> {
    if cta.len() < 3 {
        return Ok(None);
    }
    let b = &t.tma_box;
    let tile_elems = b.smem.size()?;
    let cta_elems = match op {
        Operand::A => arith::mul(cta[0], cta[2])?,
        Operand::B => arith::mul(cta[1], cta[2])?,
        Operand::C => arith::mul(cta[0], cta[1])?,
    };
    if tile_elems <= 0 || cta_elems % tile_elems != 0 {
        return Ok(None);
    }
    let boxes = arith::mul(cta_elems / tile_elems, b.per_tile)?;
    let inner = b.modes.first().map_or(1, |m| m.extent());
    let inner_bytes = arith::mul(inner, b.elem_bits)? / 8;
    let rows = b.size() / inner.max(1);
    let box_sectors = arith::mul(rows, (inner_bytes + 31) / 32)?;
    let box_bytes = b.bytes();
    let n = |v: i64| u64::try_from(v).unwrap_or(0);
    Ok(Some(Traffic {
        object: name.to_string(),
        instr: if t.op.contains("STORE") || t.op.contains("REDUCE") {
            "TMA store".into()
        } else {
            "TMA load".into()
        },
        per_k_tile: op != Operand::C,
        instrs: n(boxes),
        bytes: n(arith::mul(boxes, box_bytes)?),
        sectors: n(arith::mul(boxes, box_sectors)?),
        min_sectors: n(arith::mul(boxes, box_bytes)? / 32),
        ..Traffic::default()
    }))
}

/// The kernel section says which copies its totals leave out (a failed check, a refused TMA,
/// a multicast box): a warning, since the totals are then short of the kernel's.
pub(super) fn leave_out(kernel: &mut Section, names: &[String]) {
    if names.is_empty() {
        return;
    }
    kernel.verdict = kernel.verdict.max(Verdict::Warn);
    kernel.warnings.push(Warning {
        reason: format!("the totals leave out {}", names.join(", ")),
        fix: None,
    });
}
