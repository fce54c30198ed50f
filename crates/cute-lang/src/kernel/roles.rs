//! Roles: which binding of a configuration is which object (by its value and its name),
//! the arch, element widths, stages and the CTA tile.

use crate::session::Session;
use crate::value::Value;
use cute_core::arch::Arch;
use cute_core::atom::Operand;
use cute_core::atom::TmemCopy;
use cute_core::atom::{Atom, CopyAtom, MmaParams, TiledCopy, TiledMma};
use cute_core::error::{Error, Result};
use cute_core::int_tuple::{Coord, IntTuple};
use cute_core::swizzle::AnyLayout;

/// A name's words: split at `_`, at a lower-to-upper case change and around digits
/// (`s2r_atom_A` is `s 2 r atom A`, `SmemLayoutAtomB` is `Smem Layout Atom B`).
pub(super) fn words(name: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = name.as_bytes();
    let mut start = 0;
    for i in 0..=b.len() {
        let cut = i == b.len()
            || b[i] == b'_'
            || (i > start
                && ((b[i].is_ascii_uppercase() && b[i - 1].is_ascii_lowercase())
                    || (b[i].is_ascii_digit() != b[i - 1].is_ascii_digit())));
        if cut {
            if i > start {
                out.push(&name[start..i]);
            }
            start = if i < b.len() && b[i] == b'_' {
                i + 1
            } else {
                i
            };
        }
    }
    out
}

/// The operand a name belongs to: its one single-letter word `A`/`B`/`C` (`sA`,
/// `copyA`, `s2r_atom_A`, `SmemLayoutAtomB`, `tma_atom_a`, `sA_layout`).
pub(super) fn operand_of(name: &str) -> Option<Operand> {
    let mut ops = words(name).into_iter().filter_map(|w| match w {
        "A" | "a" => Some(Operand::A),
        "B" | "b" => Some(Operand::B),
        "C" | "c" => Some(Operand::C),
        _ => None,
    });
    let first = ops.next()?;
    ops.next().is_none().then_some(first)
}

pub(super) fn is_smem_name(name: &str) -> bool {
    name.to_ascii_lowercase().contains("smem") || words(name).first() == Some(&"s")
}

pub(super) fn is_s2r_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("s2r") || lower.contains("smemcopy") || lower.contains("smem_copy")
}

/// The objects of a configuration, by role.
#[derive(Default)]
pub(super) struct Roles {
    pub(super) mmas: Vec<(String, TiledMma)>,
    pub(super) smem: Vec<(String, Operand, AnyLayout)>,
    pub(super) smem_atoms: Vec<(String, Operand, AnyLayout)>,
    pub(super) g2s: Vec<(String, Operand, TiledCopy)>,
    pub(super) tma: Vec<(String, Operand, CopyAtom)>,
    pub(super) s2r: Vec<(String, Operand, CopyAtom)>,
    pub(super) stages: Option<i64>,
    pub(super) tile: Option<Vec<i64>>,
    pub(super) strides: Vec<(Operand, IntTuple)>,
    /// The problem's `M`, `N`, `K` (`int m = 4096;`, `prob_shape`).
    pub(super) problem: [Option<i64>; 3],
    /// The MMA is an UMMA: smem buffers are MMA-partitioned.
    pub(super) umma: bool,
    /// TMEM load atoms (`tcgen05.ld`: `make_tmem_copy(SM100_TMEM_LOAD_*, acc)`), by name.
    pub(super) tmem_loads: Vec<(String, CopyAtom)>,
    /// The mainloops `CollectiveBuilder` lines resolved to, by name.
    pub(super) collectives: Vec<(String, cute_core::collective::Mainloop)>,
    /// The epilogues epilogue `CollectiveBuilder` lines resolved to, by name.
    pub(super) epilogues: Vec<(String, cute_core::epilogue::Epilogue)>,
    /// A no-smem epilogue's direct stores: the output's strides in a CTA tile and its type.
    pub(super) direct_out: Option<(String, IntTuple, cute_core::elem::Elem)>,
    /// The output's element type as the code declares it (`c_dtype = cutlass.Float16`,
    /// `using ElementD = ...`, the tutorials' `TC`): what an epilogue buffer holds.
    pub(super) c_elem: Option<(String, cute_core::elem::Elem)>,
    /// A builder's 2-SM MMA: each CTA of the pair loads half of B's N (its SmemLayoutB).
    pub(super) pair: bool,
}

impl Roles {
    /// Operand `op`'s shared-memory buffer: its name and layout.
    pub(super) fn smem_of(&self, op: Operand) -> Option<(&str, &AnyLayout)> {
        self.smem
            .iter()
            .find(|(_, o, _)| *o == op)
            .map(|(n, _, l)| (n.as_str(), l))
    }
}

pub(super) fn find_roles(session: &Session) -> Roles {
    let mut r = Roles::default();
    for (name, v) in session.env().bindings() {
        let op = operand_of(name);
        let lower = name.to_ascii_lowercase();
        let tmem_load = |c: &CopyAtom| c.tmem_copy() == Some(TmemCopy::Load);
        match v {
            Value::TiledMma(m) => r.mmas.push((name.to_string(), (**m).clone())),
            // A builder's mainloop: its members, as if the code had written them.
            Value::Collective(c) => {
                r.mmas
                    .push((format!("{name}::TiledMma"), c.tiled_mma.clone()));
                for (op, l, m) in [
                    (Operand::A, &c.smem_layout_a, "SmemLayoutA"),
                    (Operand::B, &c.smem_layout_b, "SmemLayoutB"),
                ] {
                    r.smem.push((format!("{name}::{m}"), op, l.clone()));
                }
                // The CTA's tile: a CTA pair's MMA tile holds two CTAs' rows.
                let [tm, tn, tk] = c.config.tile;
                let two = c.two_sm();
                r.tile = Some(vec![if two { tm / 2 } else { tm }, tn, tk]);
                r.pair |= two;
                r.stages = Some(c.stages);
                r.collectives.push((name.to_string(), (**c).clone()));
            }
            Value::Epilogue(e) => r.epilogues.push((name.to_string(), (**e).clone())),
            Value::TiledCopy(c) if tmem_load(&c.atom) => {
                r.tmem_loads.push((name.to_string(), c.atom.clone()))
            }
            Value::Atom(a) if matches!(&**a, Atom::Copy(c) if tmem_load(c)) => {
                if let Atom::Copy(c) = &**a {
                    r.tmem_loads.push((name.to_string(), c.clone()));
                }
            }
            Value::TiledCopy(c) => match (&c.atom.tma, op) {
                (Some(_), Some(op)) => r.tma.push((name.to_string(), op, c.atom.clone())),
                (None, Some(op)) if is_s2r_name(name) => {
                    r.s2r.push((name.to_string(), op, c.atom.clone()))
                }
                (None, Some(op)) => r.g2s.push((name.to_string(), op, (**c).clone())),
                _ => {}
            },
            Value::Atom(a) => {
                if let (Atom::Copy(c), Some(op)) = (&**a, op) {
                    if c.tma.is_some() {
                        r.tma.push((name.to_string(), op, c.clone()));
                    } else if is_s2r_name(name) || c.instr().is_ok() {
                        r.s2r.push((name.to_string(), op, c.clone()));
                    }
                }
            }
            Value::Layout(_) | Value::Composed(_) if is_smem_name(name) => {
                if let (Some(op), Ok(l)) = (op, v.to_any_layout()) {
                    if lower.contains("atom") {
                        r.smem_atoms.push((name.to_string(), op, l));
                    } else if l.inner().rank() >= 2 {
                        r.smem.push((name.to_string(), op, l));
                    }
                }
            }
            Value::Word(crate::words::Word::Elem(e))
                if matches!(
                    lower.as_str(),
                    "c_dtype" | "d_dtype" | "elementc" | "elementd" | "tc" | "elementoutput"
                ) =>
            {
                // D's type wins over C's: the epilogue's buffer holds what it stores.
                let is_d = matches!(lower.as_str(), "d_dtype" | "elementd" | "elementoutput");
                if r.c_elem.is_none() || is_d {
                    r.c_elem = Some((name.to_string(), *e));
                }
            }
            Value::Int(n) | Value::Dyn(n)
                if lower.contains("stage") || lower == "bp" || lower == "pipe" =>
            {
                r.stages = Some(*n);
            }
            Value::Int(n) | Value::Dyn(n) if matches!(lower.as_str(), "m" | "n" | "k") => {
                let i = match lower.as_str() {
                    "m" => 0,
                    "n" => 1,
                    _ => 2,
                };
                r.problem[i] = Some(*n);
            }
            Value::Tuple(_) | Value::Layout(_) => {
                let Ok(t) = v.to_int_tuple() else { continue };
                if (lower.contains("prob") || lower.contains("problem")) && t.rank() >= 3 {
                    for (i, p) in r.problem.iter_mut().enumerate() {
                        *p = t.get(i).ok().and_then(|m| m.size().ok());
                    }
                } else if lower.contains("tile") && !lower.contains("atom") && t.rank() == 3 {
                    let dims: Vec<i64> =
                        (0..3).filter_map(|i| t.get(i).ok()?.size().ok()).collect();
                    if dims.len() == 3 {
                        r.tile = Some(dims);
                    }
                } else if let (Some(op), true, 2) = (op, name.starts_with('d'), t.rank()) {
                    r.strides.push((op, t));
                }
            }
            _ => {}
        }
    }
    r
}

/// The architecture the configuration is for: the newest one its atoms name (an SM100
/// kernel loads with SM90_TMA_LOAD), SM80 when none names a newer one.
pub(super) fn arch_of(r: &Roles) -> Arch {
    r.mmas
        .iter()
        .map(|(_, m)| m.atom.arch())
        .chain(r.tma.iter().map(|(_, _, c)| c.arch()))
        .chain(r.g2s.iter().map(|(_, _, c)| c.atom.arch()))
        .flatten()
        .fold(Arch::Sm80, Arch::max)
}

/// Every width operand `op`'s objects move, in the order the report trusts them: its
/// global copies, TMA atoms and shared copies (their value types), then the MMAs' type.
pub(super) fn operand_widths(r: &Roles, op: Operand) -> Vec<(String, i64)> {
    let mut widths: Vec<(String, i64)> = Vec::new();
    if let (Operand::C, Some((n, e))) = (op, &r.c_elem) {
        widths.push((format!("{n} ({e})"), e.bits()));
    }
    for (n, o, c) in &r.g2s {
        if let (true, Some(b)) = (*o == op, c.atom.val_bits) {
            widths.push((n.clone(), b));
        }
    }
    for (n, o, c) in r.tma.iter().chain(&r.s2r) {
        if let (true, Some(b)) = (*o == op, c.val_bits) {
            widths.push((n.clone(), b));
        }
    }
    // A builder's mainloop says the widths it keeps in shared memory.
    for (n, c) in &r.collectives {
        let i = match op {
            Operand::A => 0,
            Operand::B => 1,
            Operand::C => continue,
        };
        widths.push((format!("{n}::SmemLayout{op}"), c.smem_bits[i]));
    }
    for (n, m) in &r.mmas {
        if let Some(t) = mma_operand_type(m, op) {
            // MXF8F6F4 reads a 4- or 6-bit operand unpacked, a byte an element.
            match unpacked(r, n, op) {
                Some(bits) => widths.push((format!("{n} ({t} unpacked to a byte)"), bits)),
                None => widths.push((format!("{n} ({t})"), t.bits())),
            }
        }
    }
    widths
}

/// The shared-memory width of operand `op` where `object` (`Name::TiledMma`,
/// `Name::GmemTiledCopyB`) belongs to a block-scaled mainloop that keeps it unpacked (a
/// 4- or 6-bit type MXF8F6F4 reads as a byte an element).
pub(super) fn unpacked(r: &Roles, object: &str, op: Operand) -> Option<i64> {
    let i = match op {
        Operand::A => 0,
        Operand::B => 1,
        Operand::C => return None,
    };
    let (_, c) = r.collectives.iter().find(|(n, _)| {
        object
            .strip_prefix(n.as_str())
            .is_some_and(|t| t.starts_with("::"))
    })?;
    let data = [c.config.a.0, c.config.b.0][i];
    (c.block_scale.is_some() && c.smem_bits[i] > data.bits()).then_some(c.smem_bits[i])
}

/// Element width of an operand: its copies' value type, else the MMA's.
pub(super) fn operand_bits(r: &Roles, op: Operand) -> Option<i64> {
    operand_widths(r, op).first().map(|(_, b)| *b)
}

/// The modes of one stage: (M|N, K), or an UMMA's partitioned ((MMA), NumMma_MN, NumMma_K).
pub(super) fn stage_modes(partitioned: bool) -> usize {
    if partitioned {
        3
    } else {
        2
    }
}

/// The one stage of a buffer the copies and MMAs see, and the stage count: a tile's
/// modes 0 and 1 (a rank-3 layout's last mode is the pipeline); for an UMMA, whose
/// buffers are already partitioned `((MMA), NumMma_MN, NumMma_K[, PIPE])`, modes 0 to 2.
pub(super) fn stage_of(l: &AnyLayout, partitioned: bool) -> Result<(AnyLayout, i64)> {
    let inner = l.inner();
    let modes = stage_modes(partitioned);
    if inner.rank() <= modes {
        return Ok((l.clone(), 1));
    }
    let stages = inner.mode(modes)?.size()?;
    let mut at = vec![Coord::Under; modes];
    at.resize(inner.rank(), Coord::Int(0));
    let at = Coord::Tuple(at);
    let stage = match l {
        AnyLayout::Layout(p) => AnyLayout::Layout(p.slice(&at)?),
        // A GMMA/UMMA atom's byte-address swizzle (`smem_ptr[16b]`): stage 0 starts at
        // offset 0, so the flag stays (C++'s `sA(_,_,0)` turns it into `0`, which the
        // pointer's swizzle then stands for).
        AnyLayout::Composed(c)
            if matches!(c.offset, cute_core::swizzle::Offset::SmemPtr { .. }) =>
        {
            AnyLayout::Composed(cute_core::swizzle::ComposedLayout {
                layout: c.layout.slice(&at)?,
                ..c.clone()
            })
        }
        AnyLayout::Composed(c) => c.slice(&at)?,
    };
    Ok((stage, stages))
}

/// The expression of a buffer's stage 0 in the block's own names (`sA(_,_,0)`), which a
/// view evaluates after the block.
pub(super) fn stage_expr(name: &str, l: &AnyLayout, partitioned: bool) -> String {
    let modes = stage_modes(partitioned);
    let rank = l.inner().rank();
    if rank <= modes {
        return name.to_string();
    }
    // A collective's member is a type: its value is `T::Member{}`.
    let value = if name.contains("::") {
        format!("{name}{{}}")
    } else {
        name.to_string()
    };
    // C++'s slice `sA(_,_,0)` drops a swizzled buffer's `smem_ptr[16b]` (its swizzle then
    // reads element offsets as bytes); composing with the stage's shape keeps it, the same
    // stage as the data lands.
    if let (AnyLayout::Composed(c), Ok((stage, _))) = (l, stage_of(l, partitioned)) {
        if matches!(c.offset, cute_core::swizzle::Offset::SmemPtr { .. }) {
            return format!(
                "composition({value}, make_layout({}{{}}))",
                cpp_shape(stage.inner().shape())
            );
        }
    }
    let mut at = vec!["_"; modes];
    at.resize(rank, "0");
    format!("{value}({})", at.join(","))
}

/// A static shape as C++ spells it: `Shape<Shape<_8,_16>,_64>`.
fn cpp_shape(t: &IntTuple) -> String {
    match t {
        IntTuple::Tuple(v) => {
            let parts: Vec<String> = v.iter().map(cpp_shape).collect();
            format!("Shape<{}>", parts.join(","))
        }
        t => {
            let n = t.as_int().unwrap_or(0);
            match u64::try_from(n) {
                Ok(u) if crate::parse::STATIC_ALIASES.contains(&u) => format!("_{n}"),
                _ => format!("Int<{n}>"),
            }
        }
    }
}

/// The element type an MMA reads (A, B) or accumulates (C) for operand `op`: its name's
/// (`F32F16F16`), or an UMMA's template arguments.
pub(super) fn mma_operand_type(m: &TiledMma, op: Operand) -> Option<cute_core::elem::Elem> {
    if let Some(MmaParams::Umma(u)) = &m.atom.params {
        return Some(match op {
            Operand::A => u.a,
            Operand::B => u.b,
            Operand::C => u.c,
        });
    }
    // (D, A, B, C) of a register MMA (`UniversalFMA<D, A, B>` included).
    if let Ok(Some(t)) = m.atom.register_types() {
        return Some(match op {
            Operand::A => t[1],
            Operand::B => t[2],
            Operand::C => t[3],
        });
    }
    // (D, A, B) of a GMMA, whose C is D.
    let t = m.atom.named_types()?;
    if !(3..=4).contains(&t.len()) {
        return None;
    }
    Some(match op {
        Operand::A => t[1],
        Operand::B => t[2],
        Operand::C => *t.get(3).unwrap_or(&t[0]),
    })
}

pub(super) fn smem_for<'a>(r: &'a Roles, op: Operand, what: &str) -> Result<&'a AnyLayout> {
    r.smem_of(op).map(|(_, l)| l).ok_or_else(|| {
        cute_core::err!("{what}: no shared-memory layout of operand {op} (sA, SmemLayoutA)")
    })
}

pub(super) fn smem_view(r: &Roles, op: Operand) -> String {
    r.smem_of(op)
        .map_or_else(|| format!("s{op}"), |(n, l)| stage_expr(n, l, r.umma))
}

pub(super) fn smem_name(r: &Roles, op: Operand) -> String {
    r.smem_of(op)
        .map_or_else(|| format!("s{op}"), |(n, _)| n.to_string())
}

/// The CTA tile (M, N, K): the code's, else the smem buffers'.
pub(super) fn cta_tile(r: &Roles) -> Option<Vec<i64>> {
    r.tile.clone().or_else(|| {
        let dims = |op: Operand| -> Option<(i64, i64)> {
            let (_, l) = r.smem_of(op)?;
            let s = l.inner().shape();
            Some((s.get(0).ok()?.size().ok()?, s.get(1).ok()?.size().ok()?))
        };
        let (a, b) = (dims(Operand::A)?, dims(Operand::B)?);
        Some(vec![a.0, b.0, a.1])
    })
}

/// The global tensors of a builder's GEMM and what reads or writes them, given the problem
/// size: the mainloop's TMA loads of A and B (`make_tma_atom` over the layout tags'
/// strides, one stage of the smem layout, the tile and the multicast), and a no-smem
/// epilogue's stores of D. Returns the loads that cannot be made, with why.
pub(super) fn collective_copies(r: &mut Roles) -> Vec<(String, Error)> {
    use cute_core::collective::TmaLoad;
    use cute_core::smem_atom::AtomMajor;
    use cute_core::tensor::{Iter, Ptr, Space, Tensor};
    let [Some(m), Some(n), Some(k)] = r.problem else {
        return Vec::new();
    };
    let mut failed = Vec::new();
    for (name, c) in r.collectives.clone() {
        let cfg = &c.config;
        let [tm, tn, tk] = cfg.tile;
        // A CTA pair's MMA tile is split between its CTAs: each loads half of A's rows and
        // half of B's (what its SmemLayoutA/B hold), B multicast over the cluster's pairs.
        let pair = if c.two_sm() { 2 } else { 1 };
        let peers = |t: TmaLoad, along: i64| match t {
            TmaLoad::Load | TmaLoad::TwoSmLoad => 1,
            TmaLoad::Multicast | TmaLoad::TwoSmMulticast => along,
        };
        let loads = [
            (
                Operand::A,
                cfg.a,
                &c.smem_layout_a,
                m,
                tm / pair,
                peers(c.gmem_copy[0], cfg.cluster[1]),
            ),
            (
                Operand::B,
                cfg.b,
                &c.smem_layout_b,
                n,
                tn / pair,
                peers(c.gmem_copy[1], cfg.cluster[0] / pair),
            ),
        ];
        for (i, (op, (_, l, _), smem, mn, rows, mc)) in loads.into_iter().enumerate() {
            let what = format!("{name}::GmemTiledCopy{op}");
            let atom = (|| -> Result<CopyAtom> {
                let stride = match l.major(op == Operand::B) {
                    AtomMajor::K => [k, 1],
                    AtomMajor::MN => [1, mn],
                };
                let g = cute_core::layout::Layout::new(
                    IntTuple::ints(&[mn, k]),
                    IntTuple::ints(&stride),
                )?;
                let bits =
                    u32::try_from(c.smem_bits[i]).map_err(|_| Error::new("element width"))?;
                let t = Tensor::new(Iter::Ptr(Ptr::new(Space::Gmem, bits, 0)), g);
                let (stage, _) = stage_of(smem, r.umma)?;
                cute_core::tma_copy::make_tma_atom(
                    c.gmem_copy[i].name(),
                    &t,
                    &stage,
                    Some(&IntTuple::ints(&[rows, tk])),
                    mc,
                )
            })();
            match atom {
                Ok(a) => r.tma.push((what, op, a)),
                Err(e) => failed.push((what, e)),
            }
        }
    }
    for (name, e) in &r.epilogues {
        if e.tma.is_some() || e.config.arch != Arch::Sm90 {
            continue;
        }
        let (elem, layout, _) = e.config.d;
        let stride = match layout {
            cute_core::collective::GemmLayout::RowMajor => [n, 1],
            cute_core::collective::GemmLayout::ColumnMajor => [1, m],
        };
        r.direct_out = Some((format!("{name} (D)"), IntTuple::ints(&stride), elem));
    }
    failed
}
