//! The copies' sections: global -> shared (cp.async or TMA), shared -> registers, the
//! epilogue's stores, and what a buffer needs of its alignment.

use super::report::*;
use super::roles::*;
use super::traffic;
use super::traffic::Traffic;
use crate::ops::atoms::{bank_args, coalesce_args};
use crate::value::Value;
use crate::words::{InstrWord, Word};
use cute_core::atom::Operand;
use cute_core::atom::{CopyAtom, TiledCopy, TiledMma};
use cute_core::bank::BankReport;
use cute_core::error::{arith, Error, Result};
use cute_core::int_tuple::IntTuple;
use cute_core::layout::{self as alg, Layout};
use cute_core::swizzle::AnyLayout;
use cute_core::tensor::{Iter, Ptr, Space, Tensor};

/// A TMA atom the code declares but CuTe (or the driver it calls) refuses: its section, with
/// the rule that fails, instead of the report's end. `None` for any other line.
pub(super) fn refused_tma(text: &str, e: &Error) -> Option<Section> {
    if !["make_tma_atom", "make_tma_copy", "make_tiled_tma_atom"]
        .iter()
        .any(|f| text.contains(f))
    {
        return None;
    }
    // `Copy_Atom tmaA = ...`, `auto tma_a = ...`, CuTeDSL `tma_atom_a, tma_tensor_a = ...`.
    let lhs = text.split('=').next()?;
    let name = lhs
        .split(',')
        .next()?
        .split_whitespace()
        .last()?
        .trim_start_matches(['*', '&'])
        .to_string();
    let driver = e.msg.contains("cuTensorMapEncodeTiled");
    Some(Section {
        kind: SectionKind::Tma,
        name,
        verdict: Verdict::Fail,
        headline: if driver {
            "illegal box: cuTensorMapEncodeTiled refuses it".into()
        } else {
            "no TMA box: CuTe refuses it".into()
        },
        facts: vec![("code".into(), text.trim().to_string())],
        warnings: vec![Warning {
            reason: e.msg.clone(),
            fix: driver.then(|| {
                "keep the box's inner extent within the swizzle's span: the smem atom whose swizzle spans a whole row of the tile (GMMA::Layout_K_SW128_Atom for 128-byte rows), or a tile at most that wide".to_string()
            }),
        }],
        view: None,
    })
}

/// The base alignment a buffer needs, and why: a GMMA/UMMA atom's swizzle acts on address
/// bits (`smem_ptr[16b]`), so the buffer must start where the pattern does (every
/// `2^(B+M+S)` bytes); the widest vector a copy of the operand moves; a TMA's 128-byte
/// destination. (A swizzle of element offsets needs nothing more: moving the base by whole
/// words turns every bank the same way, which changes no count.)
pub(super) fn alignment(r: &Roles, op: Operand, l: &AnyLayout, bits: i64) -> String {
    let mut need: Vec<(i64, String)> = Vec::new();
    if let AnyLayout::Composed(c) = l {
        let sw = c.swizzle;
        if sw.b > 0 && matches!(c.offset, cute_core::swizzle::Offset::SmemPtr { .. }) {
            let bytes = sw.repeat();
            need.push((
                bytes,
                format!(
                    "its swizzle Sw<{},{},{}> acts on address bits and repeats every {bytes} bytes",
                    sw.b, sw.m, sw.s
                ),
            ));
        }
    }
    let widest = r
        .g2s
        .iter()
        .filter(|(_, o, _)| *o == op)
        .filter_map(|(n, _, c)| Some((n, c.atom.instr().ok()?)))
        .chain(
            r.s2r
                .iter()
                .filter(|(_, o, _)| *o == op)
                .filter_map(|(n, _, c)| Some((n, c.instr().ok()?))),
        )
        .max_by_key(|(_, i)| i.lane_bits());
    if let Some((n, i)) = widest {
        let bytes = i64::from(i.lane_bits() / 8);
        need.push((bytes, format!("{n} moves {bytes}-byte vectors ({i})")));
    }
    if let Some((n, _, _)) = r.tma.iter().find(|(_, o, _)| *o == op) {
        need.push((128, format!("{n} writes a TMA box, 128-byte aligned")));
    }
    match need.iter().max_by_key(|(b, _)| *b) {
        Some((bytes, _)) => {
            let why: Vec<&str> = need.iter().map(|(_, w)| w.as_str()).collect();
            format!("{bytes} bytes: {}", why.join("; "))
        }
        None => format!("{} bytes (its elements)", (bits / 8).max(1)),
    }
}

/// A section when the copies of operand `op` and the MMA disagree on its element width
/// (a half copy into a TF32 MMA): each object with the width it moves.
pub(super) fn types_section(r: &Roles, op: Operand) -> Option<Section> {
    let widths = operand_widths(r, op);
    let first = widths.first()?.1;
    if widths.iter().all(|(_, b)| *b == first) {
        return None;
    }
    let list: Vec<String> = widths
        .iter()
        .map(|(n, b)| format!("{n}: {b}-bit"))
        .collect();
    Some(Section {
        kind: SectionKind::Types,
        name: format!("operand {op}"),
        verdict: Verdict::Fail,
        headline: format!("element widths disagree: {}", list.join(", ")),
        facts: widths
            .iter()
            .map(|(n, b)| (n.clone(), format!("{b}-bit elements")))
            .collect(),
        warnings: vec![Warning {
            reason: format!(
                "operand {op}'s copies and MMA move elements of different widths ({})",
                list.join(", ")
            ),
            fix: Some("give every copy atom of the operand the MMA's element type".into()),
        }],
        view: None,
    })
}

/// The CTA's global tile of an operand: (M|N, K) over its strides (`dA`), or K-major with
/// a 4096-element leading dimension when the code gives none.
pub(super) fn gmem_tile(
    r: &Roles,
    op: Operand,
    bits: i64,
    stage: &AnyLayout,
) -> Result<(Tensor, String)> {
    let shape = stage.inner().shape();
    let dims: Vec<i64> = (0..2)
        .map(|i| shape.get(i)?.size())
        .collect::<Result<_>>()?;
    let (stride, said) = match r.strides.iter().find(|(o, _)| *o == op) {
        Some((_, s)) => (s.clone(), "the code's strides"),
        None => (
            IntTuple::ints(&[4096, 1]),
            "assumed K-major, leading dimension 4096",
        ),
    };
    let layout = Layout::new(IntTuple::ints(&dims), stride)?;
    let bits = u32::try_from(bits).map_err(|_| Error::new("element width out of range"))?;
    let t = Tensor::new(Iter::Ptr(Ptr::new(Space::Gmem, bits, 0)), layout);
    Ok((t, said.to_string()))
}

/// Wavefronts against the ideal, the warnings, and the best swizzle of the tile where it
/// conflicts (a swizzle acts on offsets: the one that clears the tile the access reads
/// clears the whole buffer's).
///
/// The search runs over the whole stage (`stage`, its plain layout), the access mapped into
/// the stage's domain by `tile` (`(tm, tk)` of a `(sm, sk)` stage: `(tm,tk):(1,sm)`), so the
/// swizzles it tries span the buffer, not only the tile.
pub(super) fn bank_verdict(
    rep: &BankReport,
    what: &str,
    stage: &AnyLayout,
    tile: (i64, i64),
) -> (Verdict, Vec<Warning>) {
    let (w, ideal) = (rep.wavefronts(), rep.ideal());
    if w <= ideal {
        return (Verdict::Ok, vec![]);
    }
    let rows = stage.inner().shape().get(0).and_then(|m| m.size());
    let tv = rows.and_then(|rows| {
        let map = Layout::new(
            IntTuple::ints(&[tile.0, tile.1]),
            IntTuple::ints(&[1, rows]),
        )?;
        alg::composition(&map, &rep.tv)
    });
    // The fewest wavefronts; among equals a swizzle, which costs no memory, before a pad.
    let fix = tv
        .and_then(|tv| {
            cute_core::bank::swizzle_search(stage.inner(), rep.elem_bits, &tv, rep.instr)
        })
        .ok()
        .and_then(|cs| {
            let best = cs.iter().map(|c| c.wavefronts).min()?;
            cs.into_iter()
                .filter(|c| c.wavefronts == best && best < w)
                .min_by_key(|c| !c.label.starts_with("Sw<"))
        })
        .map(|c| {
            format!(
                "use {} ({} wavefronts, ideal {})",
                c.label, c.wavefronts, c.ideal
            )
        });
    let ways = match rep.ways() {
        n if n > 1 => format!(" ({n}-way bank conflicts)"),
        _ => " (the lanes' bytes are scattered over more wavefronts than they fill)".to_string(),
    };
    (
        Verdict::Warn,
        vec![Warning {
            reason: format!("{what}: {w} shared-memory wavefronts for an ideal {ideal}{ways}"),
            fix,
        }],
    )
}

pub(super) fn g2s_section(
    r: &Roles,
    name: &str,
    op: Operand,
    copy: &TiledCopy,
) -> Result<(Section, Traffic)> {
    let what = format!("{name} (global -> shared, operand {op})");
    let smem = smem_for(r, op, &what)?;
    let (stage, _) = stage_of(smem, r.umma)?;
    let bits = copy
        .atom
        .val_bits
        .or_else(|| operand_bits(r, op))
        .ok_or_else(|| cute_core::err!("{what}: no element width"))?;
    let (gmem, said) = gmem_tile(r, op, bits, &stage)?;
    let tc = Value::TiledCopy(Box::new(copy.clone()));
    let g = coalesce_args(&[Value::Tensor(Box::new(gmem.clone())), tc.clone()])
        .map_err(|e| e.within(&what))?;
    let args = [Value::from(stage.clone()), tc];
    let (_, sbits, tv, instr) = bank_args(&args).map_err(|e| e.within(&what))?;
    let dims = copy.tiler.leaves();
    let tile = (
        dims.first().copied().unwrap_or(1),
        dims.get(1).copied().unwrap_or(1),
    );
    // Every copy tile of the stage: the whole (M|N, K) tile one k-tile loads.
    let st = traffic::g2s_stage(
        &what,
        name,
        &gmem.layout,
        &g,
        &stage,
        sbits,
        &tv,
        instr,
        tile,
    )?;
    let (verdict, warnings) = g2s_verdict(&st, instr, &stage, tile);
    let (t, tiles) = (st.traffic, st.tiles);
    let mut facts = vec![
        ("copy".into(), copy.atom.name.clone()),
        ("global tile".into(), format!("{} ({said})", gmem.layout)),
        (
            "copy tile".into(),
            format!("{}x{}, {tiles} per stage", tile.0, tile.1),
        ),
        (
            "sectors".into(),
            format!(
                "{} (min {}) in {} requests per stage",
                t.sectors, t.min_sectors, t.requests
            ),
        ),
    ];
    facts.push((
        "smem writes".into(),
        format!(
            "{instr}: {} wavefronts (ideal {}) in {} warp instructions per stage",
            t.wavefronts, t.ideal_wavefronts, t.instrs
        ),
    ));
    if matches!(instr, cute_core::bank::Instr::Ldgsts { bypass: true, .. }) {
        facts.push((
            "Nsight Compute".into(),
            "cp.async.cg's shared-memory writes are invisible to the L1TEX counters (0 wavefronts in every measured launch); these are the .ca rules'".into(),
        ));
    }
    let section = Section {
        kind: SectionKind::G2s,
        name: name.to_string(),
        verdict,
        headline: format!(
            "{} sectors (min {}); smem writes {} wavefronts (ideal {}) per stage",
            t.sectors, t.min_sectors, t.wavefronts, t.ideal_wavefronts
        ),
        facts,
        warnings,
        view: Some(format!(
            "coalescing(make_tensor(make_gmem_ptr<uint{bits}_t>(0), {}), {name})",
            gmem.layout
        )),
    };
    Ok((section, t))
}

/// A global→shared copy's verdict: its extra global sectors, and its shared-memory writes
/// (cp.async's line-grouped writes, or the worst copy tile's bank conflicts).
fn g2s_verdict(
    st: &traffic::G2sStage,
    instr: cute_core::bank::Instr,
    stage: &AnyLayout,
    tile: (i64, i64),
) -> (Verdict, Vec<Warning>) {
    let t = &st.traffic;
    let mut warnings = Vec::new();
    let mut verdict = Verdict::Ok;
    if t.sectors > t.min_sectors {
        verdict = Verdict::Warn;
        warnings.push(Warning {
            reason: format!(
                "global reads touch {} sectors for a minimum of {}",
                t.sectors, t.min_sectors
            ),
            fix: Some(
                "make each warp's threads walk the contiguous mode of the global tile".into(),
            ),
        });
    }
    let ldgsts = matches!(instr, cute_core::bank::Instr::Ldgsts { .. });
    if ldgsts && t.wavefronts > t.ideal_wavefronts && st.smem_side <= t.ideal_wavefronts {
        // The smem side alone is ideal: the extra wavefronts are the global lines each
        // quarter-warp reads (cp.async writes one group per line), which no swizzle changes.
        verdict = Verdict::Warn;
        warnings.push(Warning {
            reason: format!(
                "the writes into shared memory: {} wavefronts for an ideal {} per stage: cp.async writes a quarter-warp's lanes in one group per 128-byte global line they read, and these quarter-warps read several lines",
                t.wavefronts, t.ideal_wavefronts
            ),
            fix: Some("give each quarter-warp's 8 lanes one 128-byte global line (16-byte copies along a row of at least 128 bytes); no swizzle helps".into()),
        });
    } else {
        let (bv, bw) = bank_verdict(
            &st.worst,
            "one copy tile's writes into shared memory",
            stage,
            tile,
        );
        if bv != Verdict::Ok {
            verdict = bv;
        }
        warnings.extend(bw);
    }
    (verdict, warnings)
}

/// The tutorial's epilogue: each thread stores its accumulators straight to global memory
/// over C's strides (`dC`), one element per instruction as `axpby(alpha, tCrC, beta, tCgC)`
/// does. Only where the code stages nothing of C in shared memory. A builder's no-smem
/// epilogue (`DefaultEpilogue`) stores D the same way, converted to D's type.
pub(super) fn direct_epilogue(
    r: &Roles,
    mma_name: &str,
    mma: &TiledMma,
) -> Result<Option<(Section, Traffic)>> {
    let (object, stride, elem) = match (
        &r.direct_out,
        r.strides.iter().find(|(o, _)| *o == Operand::C),
    ) {
        (Some((name, s, e)), _) => (name.clone(), s, *e),
        (None, Some((_, stride))) => {
            let Some(e) = mma_operand_type(mma, Operand::C) else {
                return Err(cute_core::err!(
                    "the epilogue ({mma_name}'s accumulators -> global): the MMA does not say C's type"
                ));
            };
            ("C".to_string(), stride, e)
        }
        (None, None) => return Ok(None),
    };
    if r.smem_of(Operand::C).is_some() || r.s2r.iter().any(|(_, o, _)| *o == Operand::C) {
        return Ok(None);
    }
    let what = format!("the epilogue ({mma_name}'s accumulators -> global)");
    let cta = cta_tile(r).ok_or_else(|| cute_core::err!("{what}: no CTA tile"))?;
    let bits = u32::try_from(elem.bits()).map_err(|_| Error::new("element width out of range"))?;
    let shape = IntTuple::ints(&[cta[0], cta[1]]);
    let gc = Layout::new(shape.clone(), stride.clone()).map_err(|e| e.within(&what))?;
    let tv = mma
        .tv_over(Operand::C, &shape)
        .map_err(|e| e.within(&what))?;
    let op = cute_core::gmem::GmemOp::Stg(bits);
    let co = cute_core::gmem::coalescing(&AnyLayout::Layout(gc.clone()), bits, 0, &tv, op)
        .map_err(|e| e.within(&what))?;
    let mut t = Traffic {
        object: object.clone(),
        instr: op.to_string(),
        per_k_tile: false,
        instrs: co.instrs.len() as u64,
        ..Traffic::default()
    };
    t.add_gmem(&co);
    let (verdict, warnings) = if t.sectors > t.min_sectors {
        (
            Verdict::Warn,
            vec![Warning {
                reason: format!(
                    "the accumulators' stores touch {} sectors for a minimum of {} ({}% of the sectors' bytes written)",
                    t.sectors,
                    t.min_sectors,
                    co.bytes() * 100 / (t.sectors * cute_core::gmem::SECTOR_BYTES).max(1)
                ),
                fix: Some(if r.direct_out.is_some() {
                    "a TMA epilogue (cutlass::epilogue::TmaWarpSpecialized or TmaWarpSpecializedCooperative) stages the tile through shared memory and stores whole boxes".into()
                } else {
                    "stage C through shared memory (stmatrix) and store whole 16-byte vectors or a TMA box, or make C's contiguous mode the one a quad of lanes walks".into()
                }),
            }],
        )
    } else {
        (Verdict::Ok, vec![])
    };
    let section = Section {
        kind: SectionKind::Epilogue,
        name: object,
        verdict,
        headline: format!(
            "{op} from registers: {} sectors (min {}) per CTA in {} requests",
            t.sectors, t.min_sectors, t.requests
        ),
        facts: vec![
            ("C tile".into(), format!("{gc} ({elem})")),
            (
                "stores".into(),
                format!("{op}: one element per instruction, {} per CTA", t.instrs),
            ),
            (
                "sectors".into(),
                format!("{} (min {}) per CTA", t.sectors, t.min_sectors),
            ),
        ],
        warnings,
        view: Some(format!(
            "coalescing(make_tensor(make_gmem_ptr<uint{bits}_t>(0), {gc}), {bits}, {tv}, STG{bits})"
        )),
    };
    Ok(Some((section, t)))
}

pub(super) fn tma_section(name: &str, op: Operand, atom: &CopyAtom) -> Section {
    let Some(t) = &atom.tma else {
        unreachable!("a TMA section is made of a TMA atom")
    };
    let b = &t.tma_box;
    let bytes = b.bytes();
    Section {
        kind: SectionKind::Tma,
        name: name.to_string(),
        verdict: Verdict::Ok,
        headline: format!(
            "box {b}, {} bytes, {} per tile, {}",
            bytes, b.per_tile, b.swizzle
        ),
        facts: vec![
            ("op".into(), t.op.to_string()),
            ("operand".into(), op.to_string()),
            ("box".into(), b.to_string()),
            ("swizzle".into(), b.swizzle.to_string()),
            (
                "multicast".into(),
                if t.multicast > 1 {
                    format!(
                        "{}: each CTA loads 1/{} of the box and receives the rest from its peers (L2 reads {} bytes a box)",
                        t.multicast,
                        t.multicast,
                        bytes / t.multicast
                    )
                } else {
                    t.multicast.to_string()
                },
            ),
            (
                "cuTensorMapEncodeTiled".into(),
                t.encode_args().map_or_else(
                    || "a TMA mode merges gmem modes: see make_tma_copy_desc".to_string(),
                    |e| e.to_string(),
                ),
            ),
        ],
        warnings: vec![],
        view: None,
    }
}

/// A shared-memory copy's section kind: the epilogue's (C) or the mainloop's reads.
pub(super) fn copy_kind(op: Operand) -> SectionKind {
    if op == Operand::C {
        SectionKind::Epilogue
    } else {
        SectionKind::S2r
    }
}

pub(super) fn s2r_section(
    r: &Roles,
    name: &str,
    op: Operand,
    atom: &CopyAtom,
) -> Result<(Section, Traffic)> {
    // The epilogue writes C's registers into shared memory (`r2s_atom_C`, STSM) and may
    // read them back; the mainloop reads A and B.
    let writes = op == Operand::C && !words(name).iter().any(|w| w.eq_ignore_ascii_case("s2r"));
    let what = format!(
        "{name} ({}, operand {op})",
        if writes {
            "registers -> shared"
        } else {
            "shared -> registers"
        }
    );
    let (mma_name, mma) = r
        .mmas
        .first()
        .ok_or_else(|| cute_core::err!("{what}: no TiledMMA to partition for"))?;
    let smem = smem_for(r, op, &what)?;
    let (stage, _) = stage_of(smem, r.umma)?;
    let copy =
        cute_core::atom::make_tiled_copy_operand(atom, mma, op).map_err(|e| e.within(&what))?;
    let mut args = vec![
        Value::from(stage.clone()),
        Value::TiledCopy(Box::new(copy.clone())),
    ];
    // A universal copy of C in the epilogue is a store: STS of its width.
    if let (true, Ok(cute_core::bank::Instr::Lds(w))) = (writes, atom.instr()) {
        let sts = InstrWord::of_smem(cute_core::bank::Instr::Sts(w))
            .ok_or_else(|| cute_core::err!("{what}: no STS of {w} bits"))?;
        args.push(Value::Word(Word::Instr(sts)));
    }
    let (_, bits, tv, instr) = bank_args(&args).map_err(|e| e.within(&what))?;
    let block_word = if op == Operand::C {
        "n-block"
    } else {
        "k-block"
    };
    // Every tile of the stage the copy covers: k-blocks along mode 1, rows along mode 0.
    let tile = &copy.tiler;
    let (tm, tk) = (tile.get(0)?.size()?, tile.get(1)?.size()?);
    let shape = stage.inner().shape();
    let (sm, sk) = (shape.get(0)?.size()?, shape.get(1)?.size()?);
    let mut t = Traffic {
        object: name.to_string(),
        instr: instr.to_string(),
        per_k_tile: op != Operand::C,
        ..Traffic::default()
    };
    let access = StageAccess {
        what: &what,
        bits,
        tv: &tv,
        instr,
    };
    let (per_k, worst) = access.banks_per_k_block(&stage, (sm, sk), (tm, tk), &mut t)?;
    let (w, ideal) = per_k.iter().fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let (verdict, warnings) = bank_verdict(
        &worst,
        &format!("{instr} from {}", smem_name(r, op)),
        &stage,
        (tm, tk),
    );
    let mut facts = vec![
        ("atom".into(), atom.name.clone()),
        (
            "tiled copy".into(),
            format!(
                "make_tiled_copy_{op}({}, {mma_name}): tile {tm}x{tk}",
                atom.name
            ),
        ),
        ("instruction".into(), instr.to_string()),
    ];
    for (k, (kw, ki)) in per_k.iter().enumerate() {
        facts.push((
            format!("{block_word} {k}"),
            format!("{kw} wavefronts (ideal {ki})"),
        ));
    }
    // The epilogue's tile of C runs as often as it fits in the CTA tile.
    if op == Operand::C {
        if let Some(cta) = cta_tile(r) {
            let (ctile, etile) = (arith::mul(cta[0], cta[1])?, arith::mul(sm, sk)?);
            if etile > 0 && ctile % etile == 0 {
                let n = ctile / etile;
                t = t.times(u64::try_from(n).unwrap_or(0));
                facts.push(("per CTA".into(), format!("{n} tiles of {sm}x{sk}")));
            }
        }
    }
    let section = Section {
        kind: copy_kind(op),
        name: name.to_string(),
        verdict,
        headline: format!(
            "{instr}: {w} wavefronts per {} (ideal {ideal}) over {} {block_word}s",
            if op == Operand::C { "tile" } else { "stage" },
            per_k.len()
        ),
        facts,
        warnings,
        view: Some(format!(
            "bank_conflicts({}, make_tiled_copy_{op}({name}, {mma_name}){})",
            smem_view(r, op),
            match args.get(2) {
                Some(Value::Word(w)) => format!(", {w}"),
                _ => String::new(),
            }
        )),
    };
    Ok((section, t))
}

/// One shared-memory copy's warp access, checked over a stage tile by tile.
struct StageAccess<'a> {
    what: &'a str,
    bits: u32,
    tv: &'a Layout,
    instr: cute_core::bank::Instr,
}

impl StageAccess<'_> {
    /// Every copy tile of the `(sm, sk)` stage, k-blocks along mode 1: the wavefronts (and
    /// their ideal) per k-block, and the worst tile's bank report; each tile's counts are
    /// added to `t`.
    fn banks_per_k_block(
        &self,
        stage: &AnyLayout,
        (sm, sk): (i64, i64),
        (tm, tk): (i64, i64),
        t: &mut Traffic,
    ) -> Result<(Vec<(u64, u64)>, BankReport)> {
        let grid = traffic::tile_grid(self.what, (sm, sk), (tm, tk))?;
        let divided = traffic::divide(stage, (tm, tk))?;
        let mut per_k = vec![(0u64, 0u64); usize::try_from(sk / tk).unwrap_or(0)];
        let mut worst: Option<BankReport> = None;
        for at in grid {
            let block = traffic::block(&divided, at)?;
            let rep = cute_core::bank::bank_conflicts(&block, self.bits, self.tv, self.instr)
                .map_err(|e| e.within(self.what))?;
            let k = &mut per_k[usize::try_from(at.1).unwrap_or(0)];
            k.0 += rep.wavefronts();
            k.1 += rep.ideal();
            t.add_bank(&rep);
            if worst
                .as_ref()
                .is_none_or(|w| rep.wavefronts() * w.ideal() > w.wavefronts() * rep.ideal())
            {
                worst = Some(rep);
            }
        }
        let worst = worst.ok_or_else(|| cute_core::err!("{}: an empty stage", self.what))?;
        Ok((per_k, worst))
    }
}
