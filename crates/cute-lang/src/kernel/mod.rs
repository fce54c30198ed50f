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

use crate::session::Session;
use cute_core::atom::MmaParams;
use cute_core::atom::Operand;
use cute_core::error::{arith, Error, Result};
use cute_core::int_tuple::IntTuple;
use cute_core::layout::{self as alg};
use std::fmt;

mod copies;
mod mma;
mod report;
mod roles;
mod traffic;
use copies::*;
use mma::*;
pub use report::{kib, Section, SectionKind, Verdict, Warning};
use roles::*;
pub use traffic::{Problem, Traffic};

/// The report of a whole configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The architecture the atoms are for (SM80, SM90, SM100, SM120).
    pub arch: cute_core::arch::Arch,
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

/// The report's presets: name, title, configuration block.
pub const PRESETS: &[(&str, &str, &str)] = &[
    (
        "sm80_tutorial",
        "CuTe SM80 tutorial GEMM: cp.async, ldmatrix, mma.sync",
        include_str!("../../kernels/sm80_tutorial.cpp"),
    ),
    (
        "sm90_tma_wgmma",
        "SM90 TMA + WGMMA 128x128x64 F16, 4 stages, 2 consumer warpgroups",
        include_str!("../../kernels/sm90_tma_wgmma.cpp"),
    ),
    (
        "sm90_mn_major",
        "SM90 MN-major A and B, 3 stages, one warpgroup of 64x64x16 WGMMA over 2x2 tiles",
        include_str!("../../kernels/sm90_mn_major.cpp"),
    ),
    (
        "sm90_collective_builder",
        "SM90 CollectiveBuilder line: CUTLASS picks the smem atoms, GMMA, TMA and 7 stages",
        include_str!("../../kernels/sm90_collective_builder.cpp"),
    ),
    (
        "sm100_umma",
        "SM100 UMMA 128x256 F16 -> F32, TMA, TMEM accumulator",
        include_str!("../../kernels/sm100_umma.cpp"),
    ),
    (
        "sm90_dsl",
        "CuTeDSL: the Hopper dense GEMM's set-up (TMA + WGMMA, 4 stages)",
        include_str!("../../kernels/sm90_dsl.py"),
    ),
    (
        "broken_sm80",
        "A broken SM80 configuration: every warning",
        include_str!("../../kernels/broken_sm80.cpp"),
    ),
    (
        "sm100_builder_2sm",
        "SM100 CollectiveBuilder lines, Auto: a 2-SM UMMA on a 2x2 cluster, 256x128x64",
        include_str!("../../kernels/sm100_builder_2sm.cpp"),
    ),
    (
        "sm100_builder_1sm",
        "SM100 CollectiveBuilder lines, 1-SM schedules: 128x256x64 BF16, A multicast",
        include_str!("../../kernels/sm100_builder_1sm.cpp"),
    ),
    (
        "sm120_builder",
        "SM120 CollectiveBuilder lines: FP8 StageCountAuto, over 99 KiB with its epilogue",
        include_str!("../../kernels/sm120_builder.cpp"),
    ),
    (
        "sm80_host_function",
        "A tutorial-style host function pasted whole: gemm_tn(int m, ...) { ... } and its launch",
        include_str!("../../kernels/sm80_host_function.cpp"),
    ),
    (
        "sm100_dsl",
        "CuTeDSL: the Blackwell dense GEMM's set-up (UMMA 128x256, epilogue tile, computed stages)",
        include_str!("../../kernels/sm100_dsl.py"),
    ),
    (
        "sm100_blockscaled",
        "SM100 block-scaled CollectiveBuilder lines: NVFP4 x NVFP4, scale factors in smem and TMA",
        include_str!("../../kernels/sm100_blockscaled.cpp"),
    ),
    (
        "sm120_blockscaled",
        "SM120 block-scaled CollectiveBuilder lines: NVFP4 on GeForce Blackwell, 8 warps of mma.sync",
        include_str!("../../kernels/sm120_blockscaled.cpp"),
    ),
];

/// Check a configuration block (C++ host set-up, a collective's type list): the report,
/// or an error naming what is missing or wrong.
///
/// ```
/// let r = cute_lang::kernel::report("auto sA = make_layout(make_shape(Int<128>{}, Int<32>{}, Int<2>{}), LayoutRight{});\nTiledMMA mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2>>{});").unwrap();
/// assert_eq!(r.arch.name(), "SM80");
/// assert!(r.sections.iter().any(|s| s.kind == cute_lang::kernel::SectionKind::Smem && s.name == "sA"));
/// ```
pub fn report(src: &str) -> Result<Report> {
    let mut session = Session::default();
    let mut refused = Vec::new();
    for line in session.run(src) {
        if let Err(e) = line.result {
            let text = src.lines().nth(line.line.saturating_sub(1)).unwrap_or("");
            match refused_tma(text, &e) {
                Some(s) => refused.push(s),
                None => return Err(cute_core::err!("line {}: {e}", line.line)),
            }
        }
    }
    let mut r = report_of(&session)?;
    // After the copies that load shared memory, where a TMA's section stands.
    let at = r
        .sections
        .iter()
        .position(|s| {
            !matches!(
                s.kind,
                SectionKind::Budget
                    | SectionKind::Smem
                    | SectionKind::Types
                    | SectionKind::G2s
                    | SectionKind::Tma
            )
        })
        .unwrap_or(r.sections.len());
    let names: Vec<String> = refused
        .iter()
        .map(|s| format!("{} (refused)", s.name))
        .collect();
    if let Some(k) = r
        .sections
        .iter_mut()
        .find(|s| s.kind == SectionKind::Kernel)
    {
        traffic::leave_out(k, &names);
    }
    r.sections.splice(at..at, refused);
    Ok(r)
}

/// [`report`] of a block already evaluated into `session` (the page's and the renderer's
/// evaluation, which has checked its lines).
pub fn report_of(session: &Session) -> Result<Report> {
    let mut r = find_roles(session);
    if r.mmas.is_empty() {
        // The left-out lines that would have made an MMA first.
        let mut skipped: Vec<_> = session
            .notes()
            .iter()
            .filter(|n| n.text.starts_with("left out"))
            .collect();
        skipped.sort_by_key(|n| !n.text.to_ascii_lowercase().contains("mma"));
        let left_out: Vec<String> = skipped
            .into_iter()
            .take(3)
            .map(|n| format!("line {}: {}", n.line, n.text))
            .collect();
        let mut msg = "no TiledMMA in the configuration: declare one (TiledMMA mma = make_tiled_mma(...); using TiledMma = ...;)".to_string();
        if !left_out.is_empty() {
            msg += &format!("; the host code {}", left_out.join("; "));
        }
        return Err(Error::new(msg));
    }
    // The kernel allocates what its `sizeof(SharedStorage<...>)` names, not every layout
    // the host code describes (the tutorial's `sC` only checks the tile's shape).
    let mut unallocated = Vec::new();
    let storage = session
        .shared_storage()
        .filter(|(_, names)| r.smem.iter().any(|(b, _, _)| names.contains(b)));
    // (Only when it names one of the buffers: other names say nothing about them.)
    if let Some((line, names)) = storage {
        r.smem.retain(|(name, _, _)| {
            let kept = names.contains(name);
            if !kept {
                unallocated.push(format!(
                    "{name} (line {line}'s sizeof(...) names {} only)",
                    names.join(", ")
                ));
            }
            kept
        });
    }
    let arch = arch_of(&r);
    let smem_limit = arch.smem_per_cta();
    r.umma = r
        .mmas
        .iter()
        .any(|(_, m)| matches!(m.atom.params, Some(MmaParams::Umma(_))));
    smem_buffers(&mut r)?;
    let unloaded = roles::collective_copies(&mut r);
    let mut sections: Vec<Section> = host_section(session).into_iter().collect();
    sections.extend(r.collectives.iter().map(collective_section));
    sections.extend(
        unloaded
            .into_iter()
            .map(|(n, e)| failed(SectionKind::Tma, &n, e)),
    );
    sections.extend(r.epilogues.iter().map(epilogue_collective_section));
    let mut smem = smem_sections(&r, arch, smem_limit)?;
    if let Some(b) = smem.iter_mut().find(|s| s.kind == SectionKind::Budget) {
        if !unallocated.is_empty() {
            b.facts
                .push(("not allocated".into(), unallocated.join("; ")));
        }
    }
    sections.extend(smem);
    // Element types: every copy and the MMA must agree on each operand's width.
    sections.extend(
        [Operand::A, Operand::B]
            .into_iter()
            .filter_map(|op| types_section(&r, op)),
    );
    let mut counted = Counted::default();
    copy_sections(&r, &mut sections, &mut counted)?;
    mma_and_epilogue_sections(&r, &mut sections, &mut counted);
    let problem = totals(&r, &mut sections, &counted);
    Ok(Report {
        arch,
        smem_limit,
        sections,
        problem,
        traffic: counted.traffic,
    })
}

/// The pasted host code: each host function, its parameters without a value, and every
/// line the session left out and why.
fn host_section(session: &Session) -> Option<Section> {
    let notes = session.notes();
    if notes.is_empty() {
        return None;
    }
    let hosts = session.host_functions();
    let left_out = notes
        .iter()
        .filter(|n| n.text.starts_with("left out"))
        .count();
    let unset: usize = hosts.iter().map(|h| h.unset.len()).sum();
    let name = match hosts {
        [] => "host code".to_string(),
        hs => hs
            .iter()
            .map(|h| format!("{}(...)", h.name))
            .collect::<Vec<_>>()
            .join(", "),
    };
    Some(Section {
        kind: SectionKind::Host,
        name,
        verdict: Verdict::Ok,
        headline: format!(
            "{unset} parameter{} without a value, {left_out} line{} left out",
            if unset == 1 { "" } else { "s" },
            if left_out == 1 { "" } else { "s" }
        ),
        facts: notes
            .iter()
            .map(|n| (format!("line {}", n.line), n.text.clone()))
            .collect(),
        warnings: vec![],
        view: None,
    })
}

/// What a `CollectiveBuilder` line resolved to: the dispatch policy, then each step of the
/// resolution (the schedule `KernelScheduleAuto` stands for, the majors, the stage count,
/// the MMA, the TMA loads), and the CUDA version the resolution assumes.
fn collective_section((name, m): &(String, cute_core::collective::Mainloop)) -> Section {
    let mut facts = vec![
        ("DispatchPolicy".to_string(), m.policy_name()),
        (
            "resolved as".to_string(),
            match m.config.arch {
                cute_core::arch::Arch::Sm90 => "nvcc 12.9 compiles CUTLASS's SM90 builder (its KernelScheduleAuto reads __CUDACC_VER_MAJOR__/MINOR__)".to_string(),
                a => format!("nvcc 12.9 compiles the newest CUTLASS's {} builder", a.name()),
            },
        ),
    ];
    let mut warnings = Vec::new();
    for note in &m.notes {
        match note.strip_prefix("warning: ") {
            Some(w) => {
                let (reason, fix) = match w.split_once(" | fix: ") {
                    Some((r, f)) => (r, Some(f.to_string())),
                    None => (w, None),
                };
                warnings.push(Warning {
                    reason: reason.to_string(),
                    fix,
                })
            }
            None => {
                let (k, v) = note.split_once(": ").unwrap_or(("step", note));
                facts.push((k.to_string(), v.to_string()));
            }
        }
    }
    facts.push(("SmemLayoutA".to_string(), m.smem_layout_a.to_string()));
    facts.push(("SmemLayoutB".to_string(), m.smem_layout_b.to_string()));
    if let Some(bs) = &m.block_scale {
        facts.push((
            "ElementSF".to_string(),
            format!("{} a {}-element vector of K", bs.sf, bs.vs),
        ));
        for (i, k) in ["SmemLayoutSFA", "SmemLayoutSFB"].iter().enumerate() {
            facts.push((k.to_string(), bs.layouts[i].to_string()));
        }
    }
    Section {
        kind: SectionKind::Collective,
        name: name.clone(),
        verdict: if warnings.is_empty() {
            Verdict::Ok
        } else {
            Verdict::Warn
        },
        headline: format!(
            "{} stage{} of {}x{}x{}, {} {} ({})",
            m.stages,
            if m.stages == 1 { "" } else { "s" },
            m.config.tile[0],
            m.config.tile[1],
            m.config.tile[2],
            m.op,
            m.mma_threads(),
            m.schedule
        ),
        facts,
        warnings,
        view: Some(format!("{name}::SmemLayoutA")),
    }
}

/// What an epilogue `CollectiveBuilder` line resolved to: its policy, epilogue tile and
/// stages, and the shared memory its `SharedStorage` takes (what a mainloop's carveout
/// leaves it).
fn epilogue_collective_section((name, e): &(String, cute_core::epilogue::Epilogue)) -> Section {
    let mut facts = vec![
        ("DispatchPolicy".to_string(), e.policy_name()),
        (
            "sizeof(SharedStorage)".to_string(),
            format!("{} B", e.shared_storage_bytes),
        ),
    ];
    for note in &e.notes {
        let (k, v) = note.split_once(": ").unwrap_or(("step", note));
        facts.push((k.to_string(), v.to_string()));
    }
    if let Some(t) = &e.tma {
        for (k, l) in ["SmemLayoutC", "SmemLayoutD"].iter().zip(&t.smem_layouts) {
            facts.push((k.to_string(), l.to_string()));
        }
    }
    Section {
        kind: SectionKind::Collective,
        name: name.clone(),
        verdict: Verdict::Ok,
        headline: match &e.tma {
            None => format!(
                "{}: no shared memory (SharedStorage {} B)",
                e.schedule, e.shared_storage_bytes
            ),
            Some(t) => format!(
                "{}: epilogue tile {}x{}, {} C / {} D stages, {} of shared memory",
                e.schedule,
                t.epi_tile[0],
                t.epi_tile[1],
                t.stages_c,
                t.stages_d,
                kib(e.shared_storage_bytes)
            ),
        },
        facts,
        warnings: Vec::new(),
        view: None,
    }
}

/// The shared-memory buffers: a collective's smem atoms tiled to the CTA tile and the
/// stages, then one buffer per operand (a stage's slice, `a_smem_layout = slice_(staged,
/// ...)`, is a view of the staged buffer, not another allocation).
fn smem_buffers(r: &mut Roles) -> Result<()> {
    if r.smem.is_empty() {
        for (name, op, atom) in &r.smem_atoms {
            let (Some(tile), Some(stages)) = (&r.tile, r.stages) else {
                return Err(cute_core::err!(
                    "{name} is an smem atom: give the CTA tile (TileShape / cta_tiler, (M,N,K)) and the stage count (Stages) to tile it"
                ));
            };
            let mn = if *op == Operand::B { tile[1] } else { tile[0] };
            let trg = IntTuple::ints(&[mn, tile[2], stages]);
            let l = atom.map_inner(|l| alg::tile_to_shape(l, &trg, &alg::ModeOrder::ColMajor))?;
            r.smem.push((name.replace("Atom", ""), *op, l));
        }
    }
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
    Ok(())
}

/// A section per shared-memory buffer, and the budget of them all first.
fn smem_sections(r: &Roles, arch: cute_core::arch::Arch, smem_limit: i64) -> Result<Vec<Section>> {
    let mut sections = Vec::new();
    let mut total = 0i64;
    let mut total_names = Vec::new();
    let mut stage_counts = Vec::new();
    for (name, op, l) in &r.smem {
        let bits = operand_bits(r, *op).ok_or_else(|| {
            cute_core::err!("{name}: no copy or MMA says the element type of operand {op}")
        })?;
        // UMMA partitions A and B (`((M,K),1,k,stages)`); C's epilogue buffer stays (M,N,stages).
        let partitioned = r.umma && *op != Operand::C;
        let (stage, stages) = stage_of(l, partitioned)?;
        let bytes = arith::mul(l.inner().cosize()?, bits)? / 8;
        let stage_bytes = bytes / stages.max(1);
        total = arith::add(total, bytes)?;
        total_names.push(name.clone());
        stage_counts.push(stages);
        sections.push(Section {
            kind: SectionKind::Smem,
            name: name.clone(),
            verdict: Verdict::Ok,
            headline: format!("{} per stage x {stages} = {}", kib(stage_bytes), kib(bytes)),
            facts: vec![
                ("layout".into(), l.to_string()),
                ("element".into(), format!("{bits}-bit")),
                ("stage".into(), stage.to_string()),
                ("alignment".into(), alignment(r, *op, l, bits)),
            ],
            warnings: vec![],
            view: Some(stage_expr(name, l, partitioned)),
        });
    }
    // A block-scaled mainloop's scale factors are staged beside A and B.
    for (name, c) in &r.collectives {
        let Some(bs) = &c.block_scale else { continue };
        for (i, m) in ["SmemLayoutSFA", "SmemLayoutSFB"].into_iter().enumerate() {
            let l = &bs.layouts[i];
            let bytes = arith::mul(l.cosize()?, bs.sf.bits())? / 8;
            let name = format!("{name}::{m}");
            total = arith::add(total, bytes)?;
            total_names.push(name.clone());
            stage_counts.push(c.stages);
            sections.push(Section {
                kind: SectionKind::Smem,
                name: name.clone(),
                verdict: Verdict::Ok,
                headline: format!(
                    "{} per stage x {} = {} of {} scale factors",
                    kib(bs.stage_bytes[i]),
                    c.stages,
                    kib(bytes),
                    bs.sf
                ),
                facts: vec![
                    ("layout".into(), l.to_string()),
                    (
                        "element".into(),
                        format!(
                            "{} ({}-bit), one a {}-element vector of K",
                            bs.sf,
                            bs.sf.bits(),
                            bs.vs
                        ),
                    ),
                    ("stage".into(), bs.atoms[i].to_string()),
                ],
                warnings: vec![],
                view: Some(sf_stage_view(&name, l)),
            });
        }
    }
    // The epilogue's C and D buffers share the CTA's shared memory with the mainloop's.
    let mut fixed = 0i64;
    // SM120's block-scaled SharedStorage pads its buffers and adds the stages' barriers;
    // CUTLASS's stage count leaves that out, the budget counts it.
    for (name, c) in &r.collectives {
        let padding = c.storage_padding_bytes()?;
        if padding > 0 {
            fixed = arith::add(fixed, padding)?;
            total_names.push(format!("{name}'s barriers and alignment"));
        }
    }
    for (name, e) in r.epilogues.iter().filter(|(_, e)| e.tma.is_some()) {
        fixed = arith::add(fixed, e.shared_storage_bytes)?;
        total_names.push(format!("{name}::SharedStorage"));
    }
    if !total_names.is_empty() {
        let stages = stage_counts.iter().copied().max().unwrap_or(1);
        let budget = budget_section(
            total_names.join(" + "),
            [arith::add(total, fixed)?, fixed],
            stages,
            arch,
            smem_limit,
        )?;
        sections.insert(0, budget);
    }
    Ok(sections)
}

/// The shared-memory budget: `total` bytes, of which `fixed` are not staged (an epilogue's),
/// in `stages` stages against the arch's limit.
fn budget_section(
    name: String,
    [total, fixed]: [i64; 2],
    stages: i64,
    arch: cute_core::arch::Arch,
    smem_limit: i64,
) -> Result<Section> {
    let over = total > smem_limit;
    let staged = total - fixed;
    let per_stage = if stages > 0 { staged / stages } else { staged };
    let fit = if per_stage > 0 {
        (smem_limit - fixed).max(0) / per_stage
    } else {
        0
    };
    Ok(Section {
        kind: SectionKind::Budget,
        name,
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
    })
}

/// What the copies' sections counted: every copy's traffic, and the copies the totals
/// cannot count, by name and why.
#[derive(Default)]
struct Counted {
    traffic: Vec<Traffic>,
    uncounted: Vec<String>,
}

/// An analysis that cannot run is the section's verdict, not the report's end: the reason
/// names the object.
fn failed(kind: SectionKind, name: &str, e: Error) -> Section {
    Section {
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
    }
}

/// The sections of the global→shared, TMA and shared→register copies.
fn copy_sections(r: &Roles, sections: &mut Vec<Section>, counted: &mut Counted) -> Result<()> {
    for (name, op, copy) in &r.g2s {
        match g2s_section(r, name, *op, copy) {
            Ok((s, t)) => {
                sections.push(s);
                counted.traffic.push(t);
            }
            Err(e) => {
                counted.uncounted.push(format!("{name} (its check failed)"));
                sections.push(failed(SectionKind::G2s, name, e))
            }
        }
    }
    for (name, op, atom) in &r.tma {
        let mut section = tma_section(name, *op, atom);
        // An unpacked operand's box is a byte an element in shared memory, its global
        // elements packed: 4 or 6 bits.
        let packed = roles::unpacked(r, name, *op).and_then(|smem| {
            let (_, c) = r
                .collectives
                .iter()
                .find(|(n, _)| name.starts_with(n.as_str()))?;
            let data = if *op == Operand::A {
                c.config.a.0
            } else {
                c.config.b.0
            };
            Some((smem, data))
        });
        if let Some((smem, data)) = packed {
            section.facts.push((
                "unpacked".into(),
                format!("reads {data} ({}-bit) packed from global memory and writes each element to a byte of shared memory (MXF8F6F4's unpacked operand, CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B / 16U6_ALIGN16B): the global bytes are {}/{smem} of the box's", data.bits(), data.bits()),
            ));
        }
        sections.push(section);
        if let (Some(t), Some(mut cta)) = (&atom.tma, cta_tile(r)) {
            // A CTA pair's CTA loads half of the pair's B.
            if r.pair && *op == Operand::B {
                cta[1] /= 2;
            }
            match traffic::tma_traffic(name, *op, t, &cta)? {
                Some(mut t) => {
                    if let Some((smem, data)) = packed {
                        let scale = |v: u64| {
                            v.saturating_mul(u64::try_from(data.bits()).unwrap_or(0))
                                / u64::try_from(smem).unwrap_or(1).max(1)
                        };
                        t.bytes = scale(t.bytes);
                        t.sectors = scale(t.sectors);
                        t.min_sectors = scale(t.min_sectors);
                    }
                    counted.traffic.push(t)
                }
                None => counted
                    .uncounted
                    .push(format!("{name} (a multicast or partial box)")),
            }
        }
    }
    for (name, c) in &r.collectives {
        let Some(bs) = &c.block_scale else { continue };
        for (i, op) in [Operand::A, Operand::B].into_iter().enumerate() {
            let (s, t) = scale_factor_load(name, c, bs, i, op);
            sections.push(s);
            counted.traffic.push(t);
        }
    }
    for (name, op, atom) in &r.s2r {
        match s2r_section(r, name, *op, atom) {
            Ok((s, t)) => {
                sections.push(s);
                counted.traffic.push(t);
            }
            Err(e) => {
                counted.uncounted.push(format!("{name} (its check failed)"));
                sections.push(failed(copy_kind(*op), name, e))
            }
        }
    }
    Ok(())
}

/// The first stage of a staged scale-factor layout: `Name{}(_,_,0)` (SM120's rank 3) or
/// `Name{}(_,_,_,0)` (SM100's rank 4).
fn sf_stage_view(name: &str, l: &cute_core::layout::Layout) -> String {
    let under = "_,".repeat(l.rank().saturating_sub(1));
    format!("{name}{{}}({under}0)")
}

/// A block-scaled mainloop's TMA load of SFA or SFB: one stage of its smem layout a CTA
/// and k-tile (SFB whole on each CTA of a pair). The scale-factor tensor is blocked
/// (`tile_atom_to_shape_SFA/SFB`): a stage is whole 512-byte blocks of global memory, so
/// its sectors are its bytes over 32.
fn scale_factor_load(
    name: &str,
    c: &cute_core::collective::Mainloop,
    bs: &cute_core::collective::BlockScale,
    i: usize,
    op: Operand,
) -> (Section, Traffic) {
    let m = if i == 0 { "SFA" } else { "SFB" };
    let object = format!("{name}::GmemTiledCopy{m}");
    let bytes = bs.stage_bytes[i];
    let tma = bs.gmem_copy[i].name();
    let n = |v: i64| u64::try_from(v).unwrap_or(0);
    let section = Section {
        kind: SectionKind::Tma,
        name: object.clone(),
        verdict: Verdict::Ok,
        headline: format!(
            "{tma}: {bytes} bytes of {} scale factors of {op} a stage, one per {} elements of K",
            bs.sf, bs.vs
        ),
        facts: vec![
            ("op".into(), tma.to_string()),
            ("operand".into(), format!("{m} (the scale factors of {op})")),
            ("stage".into(), bs.atoms[i].to_string()),
            (
                "global layout".into(),
                format!("Sm1xxBlockScaledConfig<{}>::tile_atom_to_shape_{m}: 128 rows x 4 factors in 512-byte blocks, K blocks first", bs.vs),
            ),
            (
                "counted".into(),
                format!(
                    "{bytes} bytes = {} sectors a CTA and k-tile, one copy{}; CUTLASS builds the box with {}<uint16_t>, which this report does not lay out",
                    (bytes + 31) / 32,
                    if c.two_sm() && i == 1 { " (each CTA of the pair receives all of SFB)" } else { "" },
                    match (c.config.arch, i) {
                        (cute_core::arch::Arch::Sm100, 0) => "make_tma_atom_A_sm100",
                        (cute_core::arch::Arch::Sm100, _) => "make_tma_atom_B_sm100",
                        _ => "make_tma_copy",
                    }
                ),
            ),
        ],
        warnings: vec![],
        view: Some(sf_stage_view(&format!("{name}::SmemLayout{m}"), &bs.layouts[i])),
    };
    let traffic = Traffic {
        object,
        instr: "TMA load".into(),
        per_k_tile: true,
        instrs: 1,
        bytes: n(bytes),
        sectors: n((bytes + 31) / 32),
        min_sectors: n(bytes / 32),
        ..Traffic::default()
    };
    (section, traffic)
}

/// The MMAs' sections, and the accumulators stored straight to global memory (no
/// shared-memory epilogue).
fn mma_and_epilogue_sections(r: &Roles, sections: &mut Vec<Section>, counted: &mut Counted) {
    for (name, mma) in &r.mmas {
        match mma_sections(r, name, mma) {
            Ok(s) => sections.extend(s),
            Err(e) => sections.push(failed(SectionKind::Mma, name, e)),
        }
    }
    if let Some((name, mma)) = r.mmas.first() {
        match direct_epilogue(r, name, mma) {
            Ok(Some((s, t))) => {
                sections.push(s);
                counted.traffic.push(t);
            }
            Ok(None) => {}
            Err(e) => {
                counted.uncounted.push("C (its check failed)".into());
                sections.push(failed(SectionKind::Epilogue, "C", e))
            }
        }
    }
}

/// Kernel-wide totals, where the code gives the problem size.
fn totals(r: &Roles, sections: &mut Vec<Section>, counted: &Counted) -> Option<Problem> {
    let cta = (!counted.traffic.is_empty()).then(|| cta_tile(r)).flatten();
    let ([Some(m), Some(n), Some(k)], Some(cta)) = (r.problem, cta) else {
        return None;
    };
    match Problem::new([m, n, k], &cta) {
        Ok(p) => {
            let mut k = traffic::totals_section(&p, &counted.traffic);
            traffic::leave_out(&mut k, &counted.uncounted);
            sections.push(k);
            Some(p)
        }
        Err(e) => {
            sections.push(Section {
                kind: SectionKind::Kernel,
                name: format!("{m}x{n}x{k}"),
                verdict: Verdict::Warn,
                headline: "no kernel totals".into(),
                facts: vec![],
                warnings: vec![Warning {
                    reason: e.msg,
                    fix: None,
                }],
                view: None,
            });
            None
        }
    }
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
                // A fact in prose with its own code spans (the host code's notes) as is.
                if v.contains('`') {
                    writeln!(f, "- {k}: {v}")?;
                } else {
                    writeln!(f, "- {k}: `{v}`")?;
                }
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
