//! The whole kernel at once: a pasted mainloop configuration (the CuTe tutorials' host
//! set-up, a collective's type list) evaluated as a block, its objects found by what they
//! are and what the code names them, and each checked with the project's models: shared
//! memory against the arch's limit, every global→shared copy (coalescing, the bank
//! conflicts of its writes, or the TMA box), every shared→register copy per k-block, every
//! MMA (its tile against the CTA tile, GMMA/UMMA descriptors per k-block, TMEM columns).
//!
//! Roles come from the binding's value and its name: a name ending in `A`/`B`/`C` (or
//! `_a`/`_b`/`_c`) is that operand's (`sA`, `copyA`, `s2r_atom_A`, `SmemLayoutAtomB`,
//! `tma_atom_a`); shared-memory layouts are named `s*`/`*Smem*`/`*smem*`; copies whose name
//! says `s2r`/`SmemCopy` read shared memory, other TiledCopies read global memory.

use crate::atom_args::{bank_args, coalesce_args};
use crate::session::Session;
use crate::value::Value;
use cute_core::atom::{Atom, CopyAtom, MmaParams, TiledCopy, TiledMma};
use cute_core::bank::BankReport;
use cute_core::error::{arith, Error, Result};
use cute_core::int_tuple::{Coord, IntTuple};
use cute_core::layout::{self as alg, Layout};
use cute_core::swizzle::AnyLayout;
use cute_core::tensor::{Iter, Ptr, Space, Tensor};
use std::fmt;

mod traffic;
pub use traffic::{Problem, Traffic};

/// How a section came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// As good as the hardware allows.
    Ok,
    /// Works, but costs more than it must (conflicts, extra sectors).
    Warn,
    /// Will not work (over the shared-memory limit, a tile the MMA does not divide).
    Fail,
}

impl Verdict {
    /// `ok`, `warn`, `fail`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Warn => "warn",
            Verdict::Fail => "fail",
        }
    }
}

/// One object of the kernel and what the models say about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// `smem`, `g2s`, `tma`, `s2r`, `mma`, `tmem`, `budget`.
    pub kind: &'static str,
    /// The binding (`sA`, `copyA`, `tiled_mma`), or what the section sums up.
    pub name: String,
    /// The verdict.
    pub verdict: Verdict,
    /// The number behind the verdict, in one line.
    pub headline: String,
    /// Name, value pairs: what the section found.
    pub facts: Vec<(String, String)>,
    /// Why the verdict is not ok, each with a fix where one can be computed.
    pub warnings: Vec<Warning>,
    /// An expression that opens the object in its own view (`bank_conflicts(...)`).
    pub view: Option<String>,
}

/// A problem and, where the project can compute one, its fix.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// What is wrong, with the number.
    pub reason: String,
    /// What to do instead.
    pub fix: Option<String>,
}

/// The report of a whole configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The architecture the atoms are for (`SM80`, `SM90`, `SM100`).
    pub arch: &'static str,
    /// Shared memory one CTA may allocate on it, in bytes.
    pub smem_limit: i64,
    /// The sections, in the order the code declares the objects.
    pub sections: Vec<Section>,
    /// The problem the code declares (`int m = ...;`), when the totals can be counted.
    pub problem: Option<Problem>,
    /// Every copy's traffic per CTA (and k-tile), in the order of the sections.
    pub traffic: Vec<Traffic>,
}

impl Report {
    /// The worst verdict of all sections.
    pub fn verdict(&self) -> Verdict {
        let v = self.sections.iter().map(|s| s.verdict);
        if v.clone().any(|v| v == Verdict::Fail) {
            Verdict::Fail
        } else if v.into_iter().any(|v| v == Verdict::Warn) {
            Verdict::Warn
        } else {
            Verdict::Ok
        }
    }
}

/// A name's words: split at `_`, at a lower-to-upper case change and around digits
/// (`s2r_atom_A` is `s 2 r atom A`, `SmemLayoutAtomB` is `Smem Layout Atom B`).
fn words(name: &str) -> Vec<&str> {
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
fn operand_of(name: &str) -> Option<char> {
    let mut ops = words(name).into_iter().filter_map(|w| match w {
        "A" | "a" => Some('A'),
        "B" | "b" => Some('B'),
        "C" | "c" => Some('C'),
        _ => None,
    });
    let first = ops.next()?;
    ops.next().is_none().then_some(first)
}

fn is_smem_name(name: &str) -> bool {
    name.to_ascii_lowercase().contains("smem") || words(name).first() == Some(&"s")
}

fn is_s2r_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("s2r") || lower.contains("smemcopy") || lower.contains("smem_copy")
}

/// The objects of a configuration, by role.
#[derive(Default)]
struct Roles {
    mmas: Vec<(String, TiledMma)>,
    smem: Vec<(String, char, AnyLayout)>,
    smem_atoms: Vec<(String, char, AnyLayout)>,
    g2s: Vec<(String, char, TiledCopy)>,
    tma: Vec<(String, char, CopyAtom)>,
    s2r: Vec<(String, char, CopyAtom)>,
    stages: Option<i64>,
    tile: Option<Vec<i64>>,
    strides: Vec<(char, IntTuple)>,
    /// The problem's `M`, `N`, `K` (`int m = 4096;`, `prob_shape`).
    problem: [Option<i64>; 3],
    /// The MMA is an UMMA: smem buffers are MMA-partitioned.
    umma: bool,
}

impl Roles {
    /// Operand `op`'s shared-memory buffer: its name and layout.
    fn smem_of(&self, op: char) -> Option<(&str, &AnyLayout)> {
        self.smem
            .iter()
            .find(|(_, o, _)| *o == op)
            .map(|(n, _, l)| (n.as_str(), l))
    }
}

fn find_roles(session: &Session) -> Roles {
    let mut r = Roles::default();
    for (name, v) in session.env().bindings() {
        let op = operand_of(name);
        let lower = name.to_ascii_lowercase();
        match v {
            Value::TiledMma(m) => r.mmas.push((name.to_string(), (**m).clone())),
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

/// Shared memory one CTA may allocate (`cudaFuncAttributeMaxDynamicSharedMemorySize`'s
/// ceiling) on the arch an atom names.
fn arch_of(r: &Roles) -> (&'static str, i64) {
    let names = r
        .mmas
        .iter()
        .map(|(_, m)| m.atom.name.as_str())
        .chain(r.tma.iter().map(|(_, _, c)| c.name.as_str()))
        .chain(r.g2s.iter().map(|(_, _, c)| c.atom.name.as_str()));
    // (order, name, bytes): the newest arch an atom names wins (an SM100 kernel loads
    // with SM90_TMA_LOAD).
    let mut best = (80, "SM80", 166_912);
    for n in names {
        let a = if n.starts_with("SM100") || n.starts_with("SM103") {
            (100, "SM100", 232_448)
        } else if n.starts_with("SM120") {
            (120, "SM120", 101_376)
        } else if n.starts_with("SM90") {
            (90, "SM90", 232_448)
        } else {
            continue;
        };
        if a.0 > best.0 {
            best = a;
        }
    }
    (best.1, best.2)
}

/// Every width operand `op`'s objects move, in the order the report trusts them: its
/// global copies, TMA atoms and shared copies (their value types), then the MMAs' type.
fn operand_widths(r: &Roles, op: char) -> Vec<(String, i64)> {
    let mut widths: Vec<(String, i64)> = Vec::new();
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
    for (n, m) in &r.mmas {
        if let Some(t) = mma_operand_type(m, op) {
            widths.push((format!("{n} ({t})"), t.bits()));
        }
    }
    widths
}

/// Element width of an operand: its copies' value type, else the MMA's.
fn operand_bits(r: &Roles, op: char) -> Option<i64> {
    operand_widths(r, op).first().map(|(_, b)| *b)
}

/// Bytes as KiB, one decimal where not whole.
///
/// ```
/// assert_eq!(cute_lang::kernel::kib(166_912), "163 KiB");
/// assert_eq!(cute_lang::kernel::kib(1536 + 100), "1.6 KiB");
/// ```
pub fn kib(bytes: i64) -> String {
    if bytes % 1024 == 0 {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}

/// The modes of one stage: (M|N, K), or an UMMA's partitioned ((MMA), NumMma_MN, NumMma_K).
fn stage_modes(partitioned: bool) -> usize {
    if partitioned {
        3
    } else {
        2
    }
}

/// The one stage of a buffer the copies and MMAs see, and the stage count: a tile's
/// modes 0 and 1 (a rank-3 layout's last mode is the pipeline); for an UMMA, whose
/// buffers are already partitioned `((MMA), NumMma_MN, NumMma_K[, PIPE])`, modes 0 to 2.
fn stage_of(l: &AnyLayout, partitioned: bool) -> Result<(AnyLayout, i64)> {
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
fn stage_expr(name: &str, l: &AnyLayout, partitioned: bool) -> String {
    let modes = stage_modes(partitioned);
    let rank = l.inner().rank();
    if rank <= modes {
        return name.to_string();
    }
    let mut at = vec!["_"; modes];
    at.resize(rank, "0");
    format!("{name}({})", at.join(","))
}

/// The report's presets: name, title, configuration block.
pub const PRESETS: &[(&str, &str, &str)] = &[
    (
        "sm80_tutorial",
        "CuTe SM80 tutorial GEMM: cp.async, ldmatrix, mma.sync",
        include_str!("../kernels/sm80_tutorial.cpp"),
    ),
    (
        "sm90_tma_wgmma",
        "SM90 TMA + WGMMA 128x128x64 F16, 4 stages, 2 consumer warpgroups",
        include_str!("../kernels/sm90_tma_wgmma.cpp"),
    ),
    (
        "sm100_umma",
        "SM100 UMMA 128x256 F16 -> F32, TMA, TMEM accumulator",
        include_str!("../kernels/sm100_umma.cpp"),
    ),
    (
        "sm90_dsl",
        "CuTeDSL: the Hopper dense GEMM's set-up (TMA + WGMMA, 4 stages)",
        include_str!("../kernels/sm90_dsl.py"),
    ),
    (
        "broken_sm80",
        "A broken SM80 configuration: every warning",
        include_str!("../kernels/broken_sm80.cpp"),
    ),
];

/// Check a configuration block (C++ host set-up, a collective's type list): the report,
/// or an error naming what is missing or wrong.
///
/// ```
/// let r = cute_lang::kernel::report("auto sA = make_layout(make_shape(Int<128>{}, Int<32>{}, Int<2>{}), LayoutRight{});\nTiledMMA mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2>>{});").unwrap();
/// assert_eq!(r.arch, "SM80");
/// assert!(r.sections.iter().any(|s| s.kind == "smem" && s.name == "sA"));
/// ```
pub fn report(src: &str) -> Result<Report> {
    let mut session = Session::default();
    let mut refused = Vec::new();
    for line in session.run(src) {
        if let Err(e) = line.result {
            let text = src.lines().nth(line.line.saturating_sub(1)).unwrap_or("");
            match refused_tma(text, &e) {
                Some(s) => refused.push(s),
                None => return Err(Error::new(format!("line {}: {e}", line.line))),
            }
        }
    }
    let mut r = report_of(&session)?;
    // After the copies that load shared memory, where a TMA's section stands.
    let at = r
        .sections
        .iter()
        .position(|s| !matches!(s.kind, "budget" | "smem" | "types" | "g2s" | "tma"))
        .unwrap_or(r.sections.len());
    r.sections.splice(at..at, refused);
    Ok(r)
}

/// A TMA atom the code declares but CuTe (or the driver it calls) refuses: its section, with
/// the rule that fails, instead of the report's end. `None` for any other line.
fn refused_tma(text: &str, e: &Error) -> Option<Section> {
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
        kind: "tma",
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

/// [`report`] of a block already evaluated into `session` (the page's and the renderer's
/// evaluation, which has checked its lines).
pub fn report_of(session: &Session) -> Result<Report> {
    let mut r = find_roles(session);
    if r.mmas.is_empty() {
        return Err(Error::new(
            "no TiledMMA in the configuration: declare one (TiledMMA mma = make_tiled_mma(...); using TiledMma = ...;)",
        ));
    }
    let (arch, smem_limit) = arch_of(&r);
    r.umma = r
        .mmas
        .iter()
        .any(|(_, m)| matches!(m.atom.params, Some(MmaParams::Umma(_))));
    // A collective's smem atoms tiled to the CTA tile and the stages.
    if r.smem.is_empty() {
        for (name, op, atom) in &r.smem_atoms {
            let (Some(tile), Some(stages)) = (&r.tile, r.stages) else {
                return Err(Error::new(format!(
                    "{name} is an smem atom: give the CTA tile (TileShape / cta_tiler, (M,N,K)) and the stage count (Stages) to tile it"
                )));
            };
            let mn = if *op == 'B' { tile[1] } else { tile[0] };
            let trg = IntTuple::ints(&[mn, tile[2], stages]);
            let l = atom.map_inner(|l| alg::tile_to_shape(l, &trg, &alg::ModeOrder::ColMajor))?;
            r.smem.push((name.replace("Atom", ""), *op, l));
        }
    }
    // One buffer per operand: a stage's slice (`a_smem_layout = slice_(staged, ...)`) is a
    // view of the staged buffer, not another allocation.
    let mut sized = Vec::new();
    for (name, op, l) in std::mem::take(&mut r.smem) {
        let size = l.inner().cosize()?;
        sized.push((name, op, l, size));
    }
    for (i, (name, op, l, size)) in sized.iter().enumerate() {
        let bigger = sized
            .iter()
            .enumerate()
            .any(|(j, (_, o, _, s))| j != i && o == op && (*s > *size || (*s == *size && j < i)));
        if !bigger {
            r.smem.push((name.clone(), *op, l.clone()));
        }
    }
    let mut sections = Vec::new();
    let mut total = 0i64;
    let mut total_names = Vec::new();
    let mut stage_counts = Vec::new();
    for (name, op, l) in &r.smem {
        let bits = operand_bits(&r, *op).ok_or_else(|| {
            Error::new(format!(
                "{name}: no copy or MMA says the element type of operand {op}"
            ))
        })?;
        let (stage, stages) = stage_of(l, r.umma)?;
        let bytes = arith::mul(l.inner().cosize()?, bits)? / 8;
        let stage_bytes = bytes / stages.max(1);
        total = arith::add(total, bytes)?;
        total_names.push(name.clone());
        stage_counts.push(stages);
        sections.push(Section {
            kind: "smem",
            name: name.clone(),
            verdict: Verdict::Ok,
            headline: format!("{} per stage x {stages} = {}", kib(stage_bytes), kib(bytes)),
            facts: vec![
                ("layout".into(), l.to_string()),
                ("element".into(), format!("{bits}-bit")),
                ("stage".into(), stage.to_string()),
                ("alignment".into(), alignment(&r, *op, l, bits)),
            ],
            warnings: vec![],
            view: Some(stage_expr(name, l, r.umma)),
        });
    }
    // The shared-memory budget.
    if !total_names.is_empty() {
        let over = total > smem_limit;
        let stages = stage_counts.iter().copied().max().unwrap_or(1);
        let per_stage = if stages > 0 { total / stages } else { total };
        let fit = if per_stage > 0 {
            smem_limit / per_stage
        } else {
            0
        };
        sections.insert(
            0,
            Section {
                kind: "budget",
                name: total_names.join(" + "),
                verdict: if over { Verdict::Fail } else { Verdict::Ok },
                headline: format!(
                    "{} of {} ({arch}): {}%",
                    kib(total),
                    kib(smem_limit),
                    arith::mul(total, 100)? / smem_limit
                ),
                facts: vec![
                    ("total bytes".into(), total.to_string()),
                    ("limit bytes".into(), smem_limit.to_string()),
                ],
                warnings: if over {
                    vec![Warning {
                        reason: format!(
                            "{} of shared memory is over the {arch} limit of {}",
                            kib(total),
                            kib(smem_limit)
                        ),
                        fix: Some(format!("at most {fit} stages fit")),
                    }]
                } else {
                    vec![]
                },
                view: None,
            },
        );
    }
    // Element types: every copy and the MMA must agree on each operand's width.
    for op in ['A', 'B'] {
        if let Some(s) = types_section(&r, op) {
            sections.push(s);
        }
    }
    // An analysis that cannot run is the section's verdict, not the report's end: the
    // reason names the object.
    let failed = |kind: &'static str, name: &str, e: Error| Section {
        kind,
        name: name.to_string(),
        verdict: Verdict::Fail,
        headline: "cannot be checked".to_string(),
        facts: vec![],
        warnings: vec![Warning {
            reason: e.msg,
            fix: None,
        }],
        view: None,
    };
    let mut traffic = Vec::new();
    for (name, op, copy) in &r.g2s {
        match g2s_section(&r, name, *op, copy) {
            Ok((s, t)) => {
                sections.push(s);
                traffic.push(t);
            }
            Err(e) => sections.push(failed("g2s", name, e)),
        }
    }
    for (name, op, atom) in &r.tma {
        sections.push(tma_section(name, *op, atom));
        if let (Some(t), Some(cta)) = (&atom.tma, cta_tile(&r)) {
            if let Some(t) = traffic::tma_traffic(name, *op, t, &cta)? {
                traffic.push(t);
            }
        }
    }
    for (name, op, atom) in &r.s2r {
        match s2r_section(&r, name, *op, atom) {
            Ok((s, t)) => {
                sections.push(s);
                traffic.push(t);
            }
            Err(e) => sections.push(failed(copy_kind(*op), name, e)),
        }
    }
    for (name, mma) in &r.mmas {
        match mma_sections(&r, name, mma) {
            Ok(s) => sections.extend(s),
            Err(e) => sections.push(failed("mma", name, e)),
        }
    }
    // The accumulators stored straight to global memory (no shared-memory epilogue).
    if let Some((name, mma)) = r.mmas.first() {
        match direct_epilogue(&r, name, mma) {
            Ok(Some((s, t))) => {
                sections.push(s);
                traffic.push(t);
            }
            Ok(None) => {}
            Err(e) => sections.push(failed("epilogue", "C", e)),
        }
    }
    // Kernel-wide totals, where the code gives the problem size.
    let mut problem = None;
    let counted = (!traffic.is_empty()).then(|| cta_tile(&r)).flatten();
    if let ([Some(m), Some(n), Some(k)], Some(cta)) = (r.problem, counted) {
        match Problem::new([m, n, k], &cta) {
            Ok(p) => {
                sections.push(traffic::totals_section(&p, &traffic));
                problem = Some(p);
            }
            Err(e) => sections.push(Section {
                kind: "kernel",
                name: format!("{m}x{n}x{k}"),
                verdict: Verdict::Warn,
                headline: "no kernel totals".into(),
                facts: vec![],
                warnings: vec![Warning {
                    reason: e.msg,
                    fix: None,
                }],
                view: None,
            }),
        }
    }
    Ok(Report {
        arch,
        smem_limit,
        sections,
        problem,
        traffic,
    })
}

/// The base alignment a buffer needs, and why: a GMMA/UMMA atom's swizzle acts on address
/// bits (`smem_ptr[16b]`), so the buffer must start where the pattern does (every
/// `2^(B+M+S)` bytes); the widest vector a copy of the operand moves; a TMA's 128-byte
/// destination. (A swizzle of element offsets needs nothing more: moving the base by whole
/// words turns every bank the same way, which changes no count.)
fn alignment(r: &Roles, op: char, l: &AnyLayout, bits: i64) -> String {
    let mut need: Vec<(i64, String)> = Vec::new();
    if let AnyLayout::Composed(c) = l {
        let sw = c.swizzle;
        if sw.b > 0 && matches!(c.offset, cute_core::swizzle::Offset::SmemPtr { .. }) {
            let bytes = 1i64 << (sw.b + sw.m + sw.s.abs()).clamp(0, 40);
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

/// The element type an MMA reads (A, B) or accumulates (C) for operand `op`: its name's
/// (`F32F16F16`), or an UMMA's template arguments.
fn mma_operand_type(m: &TiledMma, op: char) -> Option<cute_core::elem::Elem> {
    if let Some(MmaParams::Umma(u)) = &m.atom.params {
        return Some(match op {
            'A' => u.a,
            'B' => u.b,
            _ => u.c,
        });
    }
    // (D, A, B, C) of a register MMA; (D, A, B) of a GMMA, whose C is D.
    let t = m.atom.named_types()?;
    if !(3..=4).contains(&t.len()) {
        return None;
    }
    Some(match op {
        'A' => t[1],
        'B' => t[2],
        _ => *t.get(3).unwrap_or(&t[0]),
    })
}

/// A section when the copies of operand `op` and the MMA disagree on its element width
/// (a half copy into a TF32 MMA): each object with the width it moves.
fn types_section(r: &Roles, op: char) -> Option<Section> {
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
        kind: "types",
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

fn smem_for<'a>(r: &'a Roles, op: char, what: &str) -> Result<&'a AnyLayout> {
    r.smem_of(op).map(|(_, l)| l).ok_or_else(|| {
        Error::new(format!(
            "{what}: no shared-memory layout of operand {op} (sA, SmemLayoutA)"
        ))
    })
}

/// The CTA's global tile of an operand: (M|N, K) over its strides (`dA`), or K-major with
/// a 4096-element leading dimension when the code gives none.
fn gmem_tile(r: &Roles, op: char, bits: i64, stage: &AnyLayout) -> Result<(Tensor, String)> {
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
fn bank_verdict(
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

fn g2s_section(r: &Roles, name: &str, op: char, copy: &TiledCopy) -> Result<(Section, Traffic)> {
    let what = format!("{name} (global -> shared, operand {op})");
    let smem = smem_for(r, op, &what)?;
    let (stage, _) = stage_of(smem, r.umma)?;
    let bits = copy
        .atom
        .val_bits
        .or_else(|| operand_bits(r, op))
        .ok_or_else(|| Error::new(format!("{what}: no element width")))?;
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
    facts.push((
        "smem writes".into(),
        format!(
            "{instr}: {} wavefronts (ideal {}) in {} warp instructions per stage",
            t.wavefronts, t.ideal_wavefronts, t.instrs
        ),
    ));
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
            &stage,
            tile,
        );
        if bv != Verdict::Ok {
            verdict = bv;
        }
        warnings.extend(bw);
    }
    if matches!(instr, cute_core::bank::Instr::Ldgsts { bypass: true, .. }) {
        facts.push((
            "Nsight Compute".into(),
            "cp.async.cg's shared-memory writes are invisible to the L1TEX counters (0 wavefronts in every measured launch); these are the .ca rules'".into(),
        ));
    }
    let section = Section {
        kind: "g2s",
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

/// The tutorial's epilogue: each thread stores its accumulators straight to global memory
/// over C's strides (`dC`), one element per instruction as `axpby(alpha, tCrC, beta, tCgC)`
/// does. Only where the code stages nothing of C in shared memory.
fn direct_epilogue(
    r: &Roles,
    mma_name: &str,
    mma: &TiledMma,
) -> Result<Option<(Section, Traffic)>> {
    let Some((_, stride)) = r.strides.iter().find(|(o, _)| *o == 'C') else {
        return Ok(None);
    };
    if r.smem_of('C').is_some() || r.s2r.iter().any(|(_, o, _)| *o == 'C') {
        return Ok(None);
    }
    let what = format!("the epilogue ({mma_name}'s accumulators -> global)");
    let cta = cta_tile(r).ok_or_else(|| Error::new(format!("{what}: no CTA tile")))?;
    let elem = mma_operand_type(mma, 'C')
        .ok_or_else(|| Error::new(format!("{what}: the MMA does not say C's type")))?;
    let bits = u32::try_from(elem.bits()).map_err(|_| Error::new("element width out of range"))?;
    let shape = IntTuple::ints(&[cta[0], cta[1]]);
    let gc = Layout::new(shape.clone(), stride.clone()).map_err(|e| e.within(&what))?;
    let tv = mma.tv_over('C', &shape).map_err(|e| e.within(&what))?;
    let op = cute_core::gmem::GmemOp::Stg(bits);
    let co = cute_core::gmem::coalescing(&AnyLayout::Layout(gc.clone()), bits, 0, &tv, op)
        .map_err(|e| e.within(&what))?;
    let mut t = Traffic {
        object: "C".into(),
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
                fix: Some(
                    "stage C through shared memory (stmatrix) and store whole 16-byte vectors or a TMA box, or make C's contiguous mode the one a quad of lanes walks".into(),
                ),
            }],
        )
    } else {
        (Verdict::Ok, vec![])
    };
    let section = Section {
        kind: "epilogue",
        name: "C".into(),
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

fn tma_section(name: &str, op: char, atom: &CopyAtom) -> Section {
    let Some(t) = &atom.tma else {
        unreachable!("a TMA section is made of a TMA atom")
    };
    let b = &t.tma_box;
    let bytes = b.size().saturating_mul(b.elem_bits) / 8;
    Section {
        kind: "tma",
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
            ("multicast".into(), t.multicast.to_string()),
            (
                "cuTensorMapEncodeTiled".into(),
                b.encode_args().map_or_else(
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
fn copy_kind(op: char) -> &'static str {
    if op == 'C' {
        "epilogue"
    } else {
        "s2r"
    }
}

fn s2r_section(r: &Roles, name: &str, op: char, atom: &CopyAtom) -> Result<(Section, Traffic)> {
    // The epilogue writes C's registers into shared memory (`r2s_atom_C`, STSM) and may
    // read them back; the mainloop reads A and B.
    let writes = op == 'C' && !words(name).iter().any(|w| w.eq_ignore_ascii_case("s2r"));
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
        .ok_or_else(|| Error::new(format!("{what}: no TiledMMA to partition for")))?;
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
        args.push(Value::Keyword(
            cute_core::bank::Instr::NAMES
                .iter()
                .find(|n| **n == format!("STS{w}"))
                .copied()
                .ok_or_else(|| Error::new(format!("{what}: no STS of {w} bits")))?,
        ));
    }
    let (_, bits, tv, instr) = bank_args(&args).map_err(|e| e.within(&what))?;
    let block_word = if op == 'C' { "n-block" } else { "k-block" };
    // Every tile of the stage the copy covers: k-blocks along mode 1, rows along mode 0.
    let tile = &copy.tiler;
    let (tm, tk) = (tile.get(0)?.size()?, tile.get(1)?.size()?);
    let shape = stage.inner().shape();
    let (sm, sk) = (shape.get(0)?.size()?, shape.get(1)?.size()?);
    let grid = traffic::tile_grid(&what, (sm, sk), (tm, tk))?;
    let divided = traffic::divide(&stage, (tm, tk))?;
    let mut per_k = vec![(0u64, 0u64); usize::try_from(sk / tk).unwrap_or(0)];
    let mut worst: Option<BankReport> = None;
    let mut t = Traffic {
        object: name.to_string(),
        instr: instr.to_string(),
        per_k_tile: op != 'C',
        ..Traffic::default()
    };
    for at in grid {
        let rep = cute_core::bank::bank_conflicts(&traffic::block(&divided, at)?, bits, &tv, instr)
            .map_err(|e| e.within(&what))?;
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
    let (w, ideal) = per_k.iter().fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let worst = worst.ok_or_else(|| Error::new(format!("{what}: an empty stage")))?;
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
    if op == 'C' {
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
            if op == 'C' { "tile" } else { "stage" },
            per_k.len()
        ),
        facts,
        warnings,
        view: Some(format!(
            "bank_conflicts({}, make_tiled_copy_{op}({name}, {mma_name}){})",
            smem_view(r, op),
            match args.get(2) {
                Some(Value::Keyword(k)) => format!(", {k}"),
                _ => String::new(),
            }
        )),
    };
    Ok((section, t))
}

/// Tiles of one stage a copy's check analyses at most (a 256x256 stage of 16x16 copy tiles
/// is 256).
const MAX_TILES: i64 = 4096;

fn smem_view(r: &Roles, op: char) -> String {
    r.smem_of(op)
        .map_or_else(|| format!("s{op}"), |(n, l)| stage_expr(n, l, r.umma))
}

fn smem_name(r: &Roles, op: char) -> String {
    r.smem_of(op)
        .map_or_else(|| format!("s{op}"), |(n, _)| n.to_string())
}

/// The CTA tile (M, N, K): the code's, else the smem buffers'.
fn cta_tile(r: &Roles) -> Option<Vec<i64>> {
    r.tile.clone().or_else(|| {
        let dims = |op: char| -> Option<(i64, i64)> {
            let (_, l) = r.smem_of(op)?;
            let s = l.inner().shape();
            Some((s.get(0).ok()?.size().ok()?, s.get(1).ok()?.size().ok()?))
        };
        let (a, b) = (dims('A')?, dims('B')?);
        Some(vec![a.0, b.0, a.1])
    })
}

fn mma_sections(r: &Roles, name: &str, mma: &TiledMma) -> Result<Vec<Section>> {
    let umma = matches!(mma.atom.params, Some(MmaParams::Umma(_)));
    let tile = [mma.tile_size(0)?, mma.tile_size(1)?, mma.tile_size(2)?];
    let threads = mma.layout_c_tv()?.mode(0)?.size()?;
    let mut facts = vec![
        ("atom".into(), mma.atom.name.clone()),
        (
            "tile".into(),
            format!("{}x{}x{}", tile[0], tile[1], tile[2]),
        ),
        ("threads".into(), threads.to_string()),
    ];
    let mut warnings = Vec::new();
    let cta = cta_tile(r);
    if let Some(cta) = &cta {
        facts.push((
            "CTA tile".into(),
            format!("{}x{}x{}", cta[0], cta[1], cta[2]),
        ));
        for (i, d) in ["M", "N", "K"].iter().enumerate() {
            if tile[i] <= 0 || cta[i] % tile[i] != 0 {
                warnings.push(Warning {
                    reason: format!(
                        "the CTA tile's {d} = {} is not a multiple of the TiledMMA's {}",
                        cta[i], tile[i]
                    ),
                    fix: None,
                });
            }
        }
        if warnings.is_empty() {
            facts.push(("k-blocks".into(), format!("{} per stage", cta[2] / tile[2])));
        }
    }
    // An UMMA's instruction descriptor (`UMMA::make_instr_desc<A, B, C, M, N, MajorA,
    // MajorB>()`), for the families it describes.
    if let Some(MmaParams::Umma(u)) = &mma.atom.params {
        let args = cute_core::desc::InstrArgs {
            a: u.a,
            b: u.b,
            c: u.c,
            m: u.m,
            n: u.n,
            a_major: u.majors[0],
            b_major: u.majors[1],
            a_neg: false,
            b_neg: false,
            saturate: false,
            sparse: false,
            max_shift: 0,
        };
        if let (Ok(d), None) = (cute_core::desc::make_instr_desc(&args), u.sf) {
            facts.push(("instruction descriptor".into(), one_line(&d)));
        }
    }
    let mut out = vec![Section {
        kind: "mma",
        name: name.to_string(),
        verdict: if warnings.is_empty() {
            Verdict::Ok
        } else {
            Verdict::Fail
        },
        headline: format!(
            "{} {}: {}x{}x{} per tile",
            mma.atom.name,
            if umma {
                "issued for the CTA (tcgen05.mma)".to_string()
            } else {
                format!("over {threads} threads")
            },
            tile[0],
            tile[1],
            tile[2]
        ),
        facts,
        warnings,
        view: Some(name.to_string()),
    }];
    // Descriptors per k-block of the operands a GMMA/UMMA reads from shared memory.
    let descs = umma || mma.atom.name.starts_with("SM90_") && mma.atom.name.contains("_SS");
    if descs {
        for op in ['A', 'B'] {
            if let Some(s) = desc_section(r, name, mma, op)? {
                out.push(s);
            }
        }
    }
    if let Some(s) = tmem_section(name, mma, cta.as_deref())? {
        out.push(s);
    }
    Ok(out)
}

fn desc_section(r: &Roles, name: &str, mma: &TiledMma, op: char) -> Result<Option<Section>> {
    let Some((sname, smem)) = r.smem_of(op) else {
        return Ok(None);
    };
    let (stage, _) = stage_of(smem, r.umma)?;
    let bits = operand_bits(r, op).unwrap_or(16);
    let what = format!("{name}'s {op} descriptors over {sname}");
    let ptr = Ptr::new(
        Space::Smem,
        u32::try_from(bits).map_err(|_| Error::new("element width out of range"))?,
        0,
    );
    let fragment = |t: Tensor| {
        let t = Value::Tensor(Box::new(t));
        if r.umma {
            crate::tensor_args::make_fragment(op, &[Value::TiledMma(Box::new(mma.clone())), t])
        } else {
            let thr = Value::ThrMma(Box::new(crate::tensor_args::ThrMma {
                mma: mma.clone(),
                thr: 0,
            }));
            crate::tensor_args::partition_fragment(op, &[thr, t])
        }
    };
    let mut frag = fragment(Tensor::over(ptr, &stage).map_err(|e| e.within(&what))?);
    let mut in_pointer = false;
    // CuTeDSL's smem layouts (`S<3,4,3> o 0 o ...`) carry the byte-address swizzle that
    // the kernel moves into the pointer (`get_tensor(layout.outer, swizzle=layout.inner)`,
    // C++'s recast_ptr): the descriptor is that tensor's.
    if let (Err(_), AnyLayout::Composed(c)) = (&frag, &stage) {
        if c.offset == cute_core::swizzle::Offset::Int(0) {
            let swizzled = Ptr {
                swizzle: Some(c.swizzle),
                ..ptr
            };
            let retry = fragment(Tensor::new(Iter::Ptr(swizzled), c.layout.clone()));
            if retry.is_ok() {
                frag = retry;
                in_pointer = true;
            }
        }
    }
    let (verdict, facts, warnings, headline) = match frag {
        Ok(Value::DescTensor(d)) => {
            let shape = d.layout.shape().clone();
            let kb = shape.get(2).and_then(|s| s.size()).unwrap_or(1);
            let mut facts = Vec::new();
            for k in 0..kb {
                let mut at = vec![IntTuple::Int(0); shape.rank()];
                if shape.rank() > 2 {
                    at[2] = IntTuple::Int(k);
                }
                let desc = d.at(&IntTuple::Tuple(at))?;
                facts.push((format!("k-block {k}"), one_line(&desc)));
            }
            if in_pointer {
                facts.push((
                    "swizzle".into(),
                    format!("{}, in the pointer (CuTeDSL's get_tensor(layout.outer, swizzle=layout.inner))", stage_swizzle(&stage)),
                ));
            }
            (
                Verdict::Ok,
                facts,
                vec![],
                format!(
                    "{kb} k-blocks, canonical; k-block 0: {}",
                    one_line(&d.desc).split(" (").next().unwrap_or_default()
                ),
            )
        }
        Ok(v) => (
            Verdict::Ok,
            vec![("fragment".into(), v.to_string())],
            vec![],
            format!("operand {op} in registers"),
        ),
        Err(e) => (
            Verdict::Fail,
            vec![],
            vec![Warning {
                reason: e.to_string(),
                fix: Some(format!(
                    "tile {sname} from a canonical GMMA/UMMA smem atom (e.g. tile_to_shape(GMMA::Layout_K_SW128_Atom<T>{{}}, ...))"
                )),
            }],
            "no canonical descriptor".to_string(),
        ),
    };
    Ok(Some(Section {
        kind: "desc",
        name: format!("{name}.{op}"),
        verdict,
        headline,
        facts,
        warnings,
        view: None,
    }))
}

fn stage_swizzle(l: &AnyLayout) -> String {
    match l {
        AnyLayout::Composed(c) => c.swizzle.to_string(),
        AnyLayout::Layout(_) => "none".into(),
    }
}

/// A descriptor on one line: `GmmaDescriptor: 0x... (start_addr 0x0000, leading_off ...)`.
fn one_line(d: &impl fmt::Display) -> String {
    let text = d.to_string();
    let mut lines = text.lines();
    let head = lines.next().unwrap_or_default().trim().to_string();
    let fields: Vec<String> = lines
        .map(|l| {
            l.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace(" :", ":")
        })
        .filter(|l| !l.is_empty())
        .collect();
    if fields.is_empty() {
        head
    } else {
        format!("{head} ({})", fields.join(", "))
    }
}

fn tmem_section(name: &str, mma: &TiledMma, cta: Option<&[i64]>) -> Result<Option<Section>> {
    if !matches!(mma.atom.params, Some(MmaParams::Umma(_))) {
        return Ok(None);
    }
    let Some(cta) = cta else { return Ok(None) };
    let shape = IntTuple::ints(&[cta[0], cta[1]]);
    let what = format!("{name}'s accumulator");
    let part = mma
        .partition_shape('C', &shape)
        .map_err(|e| e.within(&what))?;
    let frag = crate::tmem_args::fragment_c(mma, part).map_err(|e| e.within(&what))?;
    let Value::Tensor(t) = &frag else {
        return Ok(None);
    };
    let Some(tm) = cute_core::tmem::TmemTensor::of(t) else {
        return Ok(None);
    };
    let tm = tm?;
    let last = tm.base + tm.layout.cosize()? - 1;
    let end = cute_core::tmem::decode(last, tm.value_bits)?;
    let columns = end.column + 1;
    let over = columns > 512;
    Ok(Some(Section {
        kind: "tmem",
        name: format!("{name}.C"),
        verdict: if over { Verdict::Fail } else { Verdict::Ok },
        headline: format!("{columns} of 512 TMEM columns"),
        facts: vec![("accumulator".into(), frag.to_string())],
        warnings: if over {
            vec![Warning {
                reason: format!("the accumulator needs {columns} TMEM columns, more than 512"),
                fix: Some("halve the CTA tile's N or use a 2-SM MMA".into()),
            }]
        } else {
            vec![]
        },
        view: None,
    }))
}

impl fmt::Display for Report {
    /// Markdown: a summary table, then a section per object.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "# Kernel report: {} ({} of shared memory per CTA): {}\n",
            self.arch,
            kib(self.smem_limit),
            self.verdict().name()
        )?;
        writeln!(f, "| object | kind | verdict | number |")?;
        writeln!(f, "|---|---|---|---|")?;
        for s in &self.sections {
            writeln!(
                f,
                "| `{}` | {} | {} | {} |",
                s.name,
                s.kind,
                s.verdict.name(),
                s.headline.replace('|', "\\|")
            )?;
        }
        for s in &self.sections {
            writeln!(f, "\n## {} `{}`: {}\n", s.kind, s.name, s.verdict.name())?;
            writeln!(f, "{}\n", s.headline)?;
            for (k, v) in &s.facts {
                writeln!(f, "- {k}: `{v}`")?;
            }
            for w in &s.warnings {
                match &w.fix {
                    Some(fix) => writeln!(f, "- **warning**: {}. Fix: {fix}.", w.reason)?,
                    None => writeln!(f, "- **warning**: {}.", w.reason)?,
                }
            }
            if let Some(v) = &s.view {
                writeln!(f, "- view: `{v}`")?;
            }
        }
        Ok(())
    }
}
