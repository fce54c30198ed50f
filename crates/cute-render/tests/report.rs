//! The kernel report: the presets' reports as snapshots, the numbers each section gives
//! against the op it stands for, JSON, the `render --report` exits, and hostile
//! configurations as errors naming the piece.

use cute_lang::kernel::{report, Report, SectionKind, Verdict, PRESETS};
use std::process::Command;

fn preset(name: &str) -> &'static str {
    PRESETS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, _, src)| *src)
        .unwrap_or_else(|| panic!("no preset {name}"))
}

fn section<'a>(r: &'a Report, kind: &str, name: &str) -> &'a cute_lang::kernel::Section {
    r.sections
        .iter()
        .find(|s| s.kind.name() == kind && s.name == name)
        .unwrap_or_else(|| panic!("no {kind} section {name} in\n{r}"))
}

#[test]
fn every_preset_reports_and_matches_its_snapshot() {
    for (name, _, src) in PRESETS {
        let r = report(src).unwrap_or_else(|e| panic!("{name}: {e}"));
        insta::assert_snapshot!(format!("report_{name}"), r.to_string());
    }
}

/// A mainloop written as CUTLASS's `CollectiveBuilder` line: the collective is reported
/// first (what `KernelScheduleAuto` became, the stage count's arithmetic), then its members
/// are checked as if the code had written them; a carveout (the epilogue's SharedStorage)
/// takes stages away as CUTLASS counts them.
#[test]
fn a_collective_builder_line_is_resolved_and_checked() {
    let src = preset("sm90_collective_builder");
    let r = report(src).unwrap();
    let c = section(&r, "collective", "CollectiveMainloop");
    assert_eq!(
        c.headline,
        "7 stages of 128x128x64, SM90_64x128x16_F32F16F16_SS over 2 warpgroups (KernelTmaWarpSpecializedCooperative)"
    );
    let fact = |k: &str| {
        c.facts
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(
        fact("DispatchPolicy"),
        Some("MainloopSm90TmaGmmaWarpSpecialized<7, Shape<_1,_2,_1>, KernelTmaWarpSpecializedCooperative>")
    );
    assert!(
        fact("StageCountAutoCarveout<1>")
            .is_some_and(|v| v.contains("- 128 B carveout) / 32784 B a stage")),
        "{c:?}"
    );
    // EpilogueScheduleAuto is SM90's no-smem epilogue: 1 byte of SharedStorage.
    let e = section(&r, "collective", "CollectiveEpilogue");
    assert_eq!(
        e.headline,
        "NoSmemWarpSpecialized: no shared memory (SharedStorage 1 B)"
    );
    let both = "CollectiveMainloop::SmemLayoutA + CollectiveMainloop::SmemLayoutB";
    assert_eq!(
        section(&r, "budget", both).headline,
        "224 KiB of 227 KiB (SM90): 98%"
    );
    assert!(r.sections.iter().any(|s| s.kind.name() == "desc"));
    // A TMA epilogue's shared storage (33792 B of C and D) takes a mainloop stage.
    let carved = src.replace(
        "cutlass::epilogue::collective::EpilogueScheduleAuto",
        "cutlass::epilogue::TmaWarpSpecializedCooperative",
    );
    let r = report(&carved).unwrap();
    assert!(section(&r, "collective", "CollectiveMainloop")
        .headline
        .starts_with("6 stages"));
    assert_eq!(
        section(&r, "collective", "CollectiveEpilogue").headline,
        "TmaWarpSpecializedCooperative: epilogue tile 128x32, 4 C / 2 D stages, 33 KiB of shared memory"
    );
    // A 64-row tile: KernelScheduleAuto picks Pingpong, one warpgroup.
    let r = report(&src.replace("Shape<_128,_128,_64>", "Shape<_64,_128,_64>")).unwrap();
    assert!(section(&r, "collective", "CollectiveMainloop")
        .headline
        .ends_with("(KernelTmaWarpSpecializedPingpong)"));
}

/// The presets are clean but for the epilogues that store accumulators straight to global
/// memory (the tutorial's to an M-major C: half of each sector used; SM90's no-smem builder
/// epilogue, a 16-bit element a lane: a quarter) and SM120's StageCountAuto, which leaves the
/// epilogue 2 KiB; the broken preset fails or warns in every kind of check.
#[test]
fn verdicts_are_what_the_presets_are_for() {
    for name in [
        "sm90_tma_wgmma",
        "sm100_umma",
        "sm90_dsl",
        "sm100_builder_2sm",
        "sm100_builder_1sm",
    ] {
        let r = report(preset(name)).unwrap();
        assert_eq!(r.verdict(), Verdict::Ok, "{name}:\n{r}");
    }
    // SM90's no-smem builder epilogue stores a 16-bit element a lane: a warning.
    let r = report(preset("sm90_collective_builder")).unwrap();
    let warned: Vec<_> = r
        .sections
        .iter()
        .filter(|s| s.verdict != Verdict::Ok)
        .collect();
    assert_eq!(warned.len(), 1, "{r}");
    assert_eq!(warned[0].kind.name(), "epilogue");
    assert!(warned[0].warnings[0]
        .reason
        .contains("the accumulators' stores touch 4096 sectors for a minimum of 1024"));
    // SM120's StageCountAuto leaves the epilogue 2 KiB: its SharedStorage then takes the
    // CTA over the limit, and the budget says how many stages fit.
    let r = report(preset("sm120_builder")).unwrap();
    let c = section(&r, "collective", "CollectiveMainloop");
    assert!(
        c.warnings[0].reason.contains("leaving 2048 B of 101376"),
        "{:?}",
        c.warnings
    );
    let b = section(
        &r,
        "budget",
        "CollectiveMainloop::SmemLayoutA + CollectiveMainloop::SmemLayoutB + CollectiveEpilogue::SharedStorage",
    );
    assert_eq!(b.verdict, Verdict::Fail);
    assert_eq!(b.warnings[0].fix.as_deref(), Some("at most 2 stages fit"));
    assert_eq!(
        r.sections
            .iter()
            .filter(|s| s.verdict != Verdict::Ok)
            .count(),
        2,
        "{r}"
    );
    let r = report(preset("sm80_tutorial")).unwrap();
    let warned: Vec<&str> = r
        .sections
        .iter()
        .filter(|s| s.verdict != Verdict::Ok)
        .map(|s| s.kind.name())
        .collect();
    assert_eq!(warned, ["epilogue"], "{r}");
    assert_eq!(
        section(&r, "epilogue", "C").headline,
        "STG.E.U16 from registers: 2048 sectors (min 1024) per CTA in 512 requests"
    );
    let r = report(preset("broken_sm80")).unwrap();
    assert_eq!(section(&r, "budget", "sA + sB").verdict, Verdict::Fail);
    assert_eq!(section(&r, "g2s", "copyB").verdict, Verdict::Warn);
    assert_eq!(section(&r, "s2r", "s2r_atom_A").verdict, Verdict::Warn);
    assert_eq!(section(&r, "mma", "mmaC").verdict, Verdict::Fail);
    let text = r.to_string();
    // The fixes the project computes: the stages that fit, the swizzle that clears ldmatrix.
    assert!(text.contains("at most 5 stages fit"), "{text}");
    assert!(
        text.contains("Fix: use Sw<3,3,3> (16 wavefronts, ideal 16)"),
        "{text}"
    );
}

/// Each section's number is what the op it stands for computes.
#[test]
fn sections_agree_with_the_ops() {
    let src = preset("sm80_tutorial");
    let r = report(src).unwrap();
    let eval = |expr: &str| cute_lang::eval_block(&format!("{src}\n{expr}")).unwrap();
    // A stage's global reads: coalescing of each of the 8 (16,64) copy tiles of (bM,bK).
    let g2s = section(&r, "g2s", "copyA");
    let (mut sectors, mut min) = (0, 0);
    for i in 0..8 {
        let coalescing = eval(&format!(
            "coalescing(local_tile(make_tensor(make_gmem_ptr<half_t>(nullptr), make_layout(make_shape(bM, bK), dA)), make_shape(Int<16>{{}}, Int<64>{{}}), make_coord({i}, 0)), copyA)"
        ));
        let cute_lang::Value::Coalesce(c) = coalescing else {
            panic!("not a coalescing report")
        };
        sectors += c.sectors();
        min += c.min_sectors();
    }
    assert!(
        g2s.headline
            .starts_with(&format!("{sectors} sectors (min {min})")),
        "{}",
        g2s.headline
    );
    // ldmatrix over k-block 1 of stage 0: the same wavefronts as bank_conflicts of that block.
    let s2r = section(&r, "s2r", "s2r_atom_A");
    let banks = eval(
        "bank_conflicts(logical_divide(sA(_,_,0), make_shape(Int<32>{}, Int<16>{}))(make_coord(_, 0), make_coord(_, 1)), make_tiled_copy_A(s2r_atom_A, mmaC))",
    );
    let cute_lang::Value::Banks(b) = banks else {
        panic!("not a bank report")
    };
    let k1 = s2r
        .facts
        .iter()
        .find(|(k, _)| k == "k-block 1")
        .map(|(_, v)| v.clone())
        .unwrap();
    let per_m = 128 / 32;
    assert_eq!(
        k1,
        format!(
            "{} wavefronts (ideal {})",
            b.wavefronts() * per_m,
            b.ideal() * per_m
        )
    );
    // The GMMA descriptors per k-block are make_fragment_A's, as C++ builds them.
    let r = report(preset("sm90_tma_wgmma")).unwrap();
    let d = section(&r, "desc", "tiled_mma.A");
    let k2 = &d
        .facts
        .iter()
        .find(|(k, _)| k == "tile 0, k-block 2, stage 0")
        .unwrap()
        .1;
    assert!(k2.starts_with("GmmaDescriptor: 0x4000004000010004"), "{k2}");
    // The UMMA accumulator: 128x256 floats are 256 of the 512 TMEM columns.
    let r = report(preset("sm100_umma")).unwrap();
    assert_eq!(
        section(&r, "tmem", "tiled_mma.C").headline,
        "256 of 512 TMEM columns"
    );
}

/// The report's kernel-totals section (named by its problem size).
fn kernel_section(r: &Report) -> &cute_lang::kernel::Section {
    r.sections
        .iter()
        .find(|s| s.kind == SectionKind::Kernel)
        .unwrap_or_else(|| panic!("no kernel section in\n{r}"))
}

/// The entry of a JSON array whose `key` is `value`.
fn find<'a>(array: &'a serde_json::Value, key: &str, value: &str) -> &'a serde_json::Value {
    array
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e[key] == value)
        .unwrap_or_else(|| panic!("no {key} = {value}"))
}

/// The JSON has the kernel totals: per CTA (and k-tile), and times the problem's CTAs (and
/// k-tiles); a configuration without a problem size has none.
#[test]
fn json_has_the_kernel_traffic() {
    let j = cute_render::report::to_json(&report(preset("sm80_tutorial")).unwrap());
    assert_eq!(j["problem"]["ctas"], 1024);
    let t = &j["traffic"][0];
    assert_eq!(
        (t["object"].as_str(), t["per"].as_str()),
        (Some("copyA"), Some("CTA and k-tile"))
    );
    assert_eq!(t["count"]["sectors"], 512);
    assert_eq!(t["kernel"]["sectors"], 512 * 1024 * 64);
    let c = find(&j["traffic"], "object", "C");
    assert_eq!(
        (
            c["count"]["instructions"].as_u64(),
            c["kernel"]["sectors"].as_u64()
        ),
        (Some(512), Some(2048 * 1024))
    );
    let j = cute_render::report::to_json(&report(preset("broken_sm80")).unwrap());
    assert!(j["problem"].is_null() && j["traffic"][0]["kernel"].is_null());
}

#[test]
fn json_has_every_section() {
    let r = report(preset("broken_sm80")).unwrap();
    let j = cute_render::report::to_json(&r);
    assert_eq!(j["verdict"], "fail");
    assert_eq!(j["sections"].as_array().unwrap().len(), r.sections.len());
    let s2r = find(&j["sections"], "name", "s2r_atom_A");
    assert_eq!(s2r["verdict"], "warn");
    assert!(s2r["warnings"][0]["fix"]
        .as_str()
        .unwrap()
        .starts_with("use Sw<3,3,3>"));
}

fn render(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_render"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run render");
    if let Some(s) = stdin {
        child.stdin.take().unwrap().write_all(s.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_cli_exits_by_verdict() {
    let (code, out, _) = render(&["--report", "-"], Some(preset("sm90_tma_wgmma")));
    assert_eq!(code, 0);
    assert!(out.starts_with("# Kernel report: SM90"), "{out}");
    let (code, _, _) = render(&["--report", "-"], Some(preset("sm80_tutorial")));
    assert_eq!(code, 1, "the tutorial's epilogue warns");
    let (code, out, _) = render(
        &["--report", "-", "--format", "json"],
        Some(preset("broken_sm80")),
    );
    assert_eq!(code, 1);
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["arch"], "SM80");
    let (code, _, err) = render(&["--report", "-"], Some("auto x = Int<3>{};"));
    assert_eq!(code, 2);
    assert!(err.contains("no TiledMMA"), "{err}");
    let (code, _, err) = render(&["--report", "/nonexistent/k.cpp"], None);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /nonexistent/k.cpp"), "{err}");
}

#[test]
fn hostile_configurations_name_the_piece() {
    let mma =
        "TiledMMA mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2>>{});";
    let cases = [
        ("auto sA = make_layout(make_shape(Int<64>{}, Int<32>{}));", "no TiledMMA"),
        (&*format!("{mma}\nauto sA = make_layout(make_shape(Int<64>{{}}, bogus));"), "line 2: unknown name 'bogus'"),
        (&*format!("{mma}\nusing SmemLayoutAtomA = decltype(composition(Swizzle<3,3,3>{{}}, Layout<Shape<_8,_64>,Stride<_64,_1>>{{}}));"), "give the CTA tile"),
    ];
    for (src, want) in cases {
        match report(src) {
            Err(e) => assert!(
                e.to_string().contains(want),
                "{src}\n -> {e}\n wanted {want}"
            ),
            Ok(r) => panic!("{src}\n -> a report, wanted an error containing {want}:\n{r}"),
        }
    }
    // Types that do not agree: a half copy feeding a TF32 MMA.
    let src = "TiledMMA mma = make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2,_2>>{});\nauto sA = make_layout(make_shape(Int<64>{}, Int<32>{}, Int<2>{}), LayoutRight{});\nTiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{});";
    let r = report(src).unwrap();
    let s = section(&r, "types", "operand A");
    assert_eq!(s.verdict, Verdict::Fail);
    assert!(
        s.headline.contains("copyA: 16-bit") && s.headline.contains("mma (tfloat32_t): 32-bit"),
        "{}",
        s.headline
    );
    // A stage of millions of tiles is refused, not analysed tile by tile.
    let src = format!(
        "{mma}\nauto sA = make_layout(make_shape(Int<65536>{{}}, Int<4096>{{}}), LayoutRight{{}});\nCopy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_A;"
    );
    let r = report(&src).unwrap();
    let s = section(&r, "s2r", "s2r_atom_A");
    assert!(
        s.warnings[0].reason.contains("at most 4096 are analysed"),
        "{}",
        s.warnings[0].reason
    );
    assert_eq!(section(&r, "budget", "sA").verdict, Verdict::Fail);
    // Pieces that do not fit each other fail their section, with the reason.
    let src = format!(
        "{mma}\nauto sA = make_layout(make_shape(Int<64>{{}}, Int<32>{{}}), LayoutRight{{}});\nCopy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_B;"
    );
    let r = report(&src).unwrap();
    let s = section(&r, "s2r", "s2r_atom_B");
    assert_eq!(s.verdict, Verdict::Fail);
    assert!(
        s.warnings[0]
            .reason
            .contains("no shared-memory layout of operand B"),
        "{}",
        s.warnings[0].reason
    );
    let src = format!(
        "{mma}\nauto sA = make_layout(make_shape(Int<64>{{}}, Int<32>{{}}, Int<2>{{}}), LayoutRight{{}});\nTiledCopy copyA = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{{}}, Layout<Shape<_16,_8>,Stride<_8,_1>>{{}}, Layout<Shape<_1,_8>>{{}});"
    );
    let r = report(&src).unwrap();
    let s = section(&r, "g2s", "copyA");
    assert_eq!(s.verdict, Verdict::Fail, "{r}");
}

/// Every section's view is an expression the page evaluates after the block: it must
/// evaluate.
#[test]
fn every_view_evaluates_after_its_block() {
    for (name, _, src) in PRESETS {
        let r = report(src).unwrap();
        for s in &r.sections {
            if let Some(v) = &s.view {
                if let Err(e) = cute_lang::eval_block(&format!("{src}\n{v}")) {
                    panic!("{name}: the view of {} `{v}`: {e}", s.name);
                }
            }
        }
    }
}

/// The kernel view: a row per section, coloured by verdict, each opening the section's
/// view; the SVG as a snapshot.
#[test]
fn the_kernel_view_draws_a_row_per_section() {
    use cute_render::{render_figure, Options, Theme, View};
    let src = preset("broken_sm80");
    let opts = Options {
        view: View::Kernel,
        ..Options::default()
    };
    let f = render_figure(src, &opts).unwrap();
    assert_eq!(f.view, View::Kernel);
    let r = report(src).unwrap();
    let (panel, _) = &f.panels[0];
    assert_eq!((panel.rows, panel.cols), (r.sections.len(), 4));
    let svg = f.to_svg(Theme::Light);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let opens: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("data-col") == Some("0"))
        .filter_map(|n| n.attribute("data-open"))
        .collect();
    assert_eq!(
        opens.len(),
        r.sections.iter().filter(|s| s.view.is_some()).count()
    );
    assert!(opens
        .iter()
        .all(|o| o.starts_with("// A deliberately broken SM80")));
    insta::assert_snapshot!("view_kernel", svg);
}

/// The same Hopper mainloop written in CuTeDSL and in C++ gets the same numbers: buffers,
/// TMA boxes and the descriptors of every (tile, k-block, stage). (The C++ preset's epilogue, its lines
/// naming C, has no twin in the DSL preset.)
#[test]
fn cutedsl_and_cpp_spellings_report_alike() {
    let dsl = report(preset("sm90_dsl")).unwrap();
    let mainloop: Vec<&str> = preset("sm90_tma_wgmma")
        .lines()
        .filter(|l| !["TC", "sC", "mC", "_C"].iter().any(|c| l.contains(c)))
        .collect();
    let cpp = report(&mainloop.join("\n")).unwrap();
    let pick = |r: &Report, kind: &str| -> Vec<String> {
        r.sections
            .iter()
            .filter(|s| s.kind.name() == kind)
            .map(|s| {
                let facts: Vec<&str> = s
                    .facts
                    .iter()
                    .filter(|(k, _)| k.starts_with("tile "))
                    .map(|(_, v)| v.as_str())
                    .collect();
                format!("{} {}", s.headline, facts.join(";"))
            })
            .collect()
    };
    for kind in ["budget", "smem", "tma", "mma", "desc"] {
        assert_eq!(pick(&dsl, kind), pick(&cpp, kind), "{kind}");
    }
}

/// The epilogue's shared-memory traffic: C's registers stored into `sC` (STS of the copy's
/// width), per n-block, with the swizzle that clears it.
#[test]
fn the_epilogue_stores_into_smem_are_checked() {
    let src = format!(
        "{}\nauto sC = make_layout(make_shape(bM, bN), LayoutRight{{}});\nCopy_Atom<UniversalCopy<uint32_t>, half_t> r2s_atom_C;",
        preset("sm80_tutorial")
    );
    let r = report(&src).unwrap();
    let s = section(&r, "epilogue", "r2s_atom_C");
    assert_eq!(s.verdict, Verdict::Warn);
    assert!(
        s.headline
            .starts_with("STS.32: 2048 wavefronts per tile (ideal 256) over 4 n-blocks"),
        "{}",
        s.headline
    );
    assert!(
        s.warnings[0]
            .fix
            .as_deref()
            .unwrap_or("")
            .starts_with("use Sw<"),
        "{:?}",
        s.warnings
    );
    // Its blocks run along N.
    assert!(
        s.facts.iter().any(|(k, _)| k == "n-block 3"),
        "{:?}",
        s.facts
    );
    // The bank check it opens is the first 32x32 tile of the 16: 2048 / 16 wavefronts.
    let v = s.view.as_ref().unwrap();
    let cute_lang::Value::Banks(b) = cute_lang::eval_block(&format!("{src}\n{v}")).unwrap() else {
        panic!("not a bank report")
    };
    assert_eq!(
        (b.instr.to_string(), b.wavefronts()),
        ("STS.32".to_string(), 2048 / 16)
    );
}

/// A problem too big to count, or not a multiple of the CTA tile: the kernel section says
/// so, the copies' sections name the overflow, nothing panics.
#[test]
fn kernel_totals_refuse_what_they_cannot_count() {
    let tutorial = preset("sm80_tutorial");
    let huge = tutorial
        .replace("int m = 4096;", "int m = 4611686018427387904;")
        .replace("int n = 4096;", "int n = 4611686018427387904;")
        .replace("int k = 4096;", "int k = 4611686018427387904;");
    let r = report(&huge).unwrap();
    let k = kernel_section(&r);
    assert_eq!(k.verdict, Verdict::Warn);
    assert_eq!(k.warnings[0].reason, "the CTA count overflows");
    assert!(r.problem.is_none());
    let g2s = section(&r, "g2s", "copyA");
    assert!(
        g2s.warnings[0]
            .reason
            .starts_with("copyA (global -> shared, operand A): integer overflow"),
        "{}",
        g2s.warnings[0].reason
    );
    let r = report(&tutorial.replace("int n = 4096;", "int n = 4000;")).unwrap();
    let k = kernel_section(&r);
    assert!(
        k.warnings[0]
            .reason
            .starts_with("the problem's N = 4000 is not a positive multiple of the CTA tile's 128"),
        "{}",
        k.warnings[0].reason
    );
}

/// Totals short of a copy whose check failed say so.
#[test]
fn kernel_totals_name_the_copies_they_leave_out() {
    let src = preset("sm80_tutorial").replace(
        "Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_B;",
        "Copy_Atom<SM75_U32x4_LDSM_N, float> s2r_atom_B;",
    );
    let r = report(&src).unwrap();
    assert_eq!(section(&r, "s2r", "s2r_atom_B").verdict, Verdict::Fail);
    let k = kernel_section(&r);
    assert_eq!(k.verdict, Verdict::Warn);
    assert_eq!(
        k.warnings[0].reason,
        "the totals leave out s2r_atom_B (its check failed)"
    );
    assert!(!r.traffic.iter().any(|t| t.object == "s2r_atom_B"));
}

/// A TMA whose box the driver would refuse (a 64-byte swizzle over 256-byte rows) is a failed
/// section naming the rule and the fix; the rest of the configuration is still checked.
#[test]
fn an_illegal_tma_box_is_a_failed_section() {
    let src = preset("sm90_tma_wgmma").replace(
        "auto sA = tile_to_shape(GMMA::Layout_K_SW128_Atom<TA>{}, make_shape(bM,bK,bP));",
        "auto sA = tile_to_shape(composition(Swizzle<2,4,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), make_shape(bM,bK,bP));",
    );
    assert_ne!(src, preset("sm90_tma_wgmma"));
    let r = report(&src).unwrap();
    let t = section(&r, "tma", "tmaA");
    assert_eq!(t.verdict, Verdict::Fail);
    assert_eq!(t.headline, "illegal box: cuTensorMapEncodeTiled refuses it");
    assert!(
        t.warnings[0].reason.contains("the box's inner extent is 128 bytes, wider than the 64-byte span of CU_TENSOR_MAP_SWIZZLE_64B"),
        "{}",
        t.warnings[0].reason
    );
    assert!(t.warnings[0]
        .fix
        .as_deref()
        .unwrap()
        .contains("GMMA::Layout_K_SW128_Atom"));
    // The totals say they leave it out.
    let k = kernel_section(&r);
    assert_eq!(k.verdict, Verdict::Warn);
    assert_eq!(k.warnings[0].reason, "the totals leave out tmaA (refused)");
    // The legal ones still report their encode arguments.
    let b = section(&r, "tma", "tmaB");
    assert_eq!(b.verdict, Verdict::Ok);
    assert!(b.facts.iter().any(|(k, v)| k == "cuTensorMapEncodeTiled"
        && v.starts_with(
            "rank 2, globalDim {4096, 4096}, globalStrides {8192} bytes, boxDim {64, 128}"
        )));
    // Any other refused line still ends the report, naming its line.
    let err = report(&format!("{}\nauto x = foo(1);", preset("sm90_tma_wgmma"))).unwrap_err();
    assert!(
        err.msg.starts_with("line 33: unknown function 'foo'"),
        "{}",
        err.msg
    );
}

/// The report against CuTe C++: `tools/oracle/kernel_report.py` compiles each C++ preset as
/// it is and prints its buffers' layouts and bytes, its TMA boxes, the TiledMMA's tile and
/// thread 0's descriptor of every (M or N tile, k-block, stage) of the whole buffers
/// (`kernel-report-cases.jsonl`); the report's facts
/// are the same, word for word.
#[test]
fn the_report_prints_what_cute_cpp_computes() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/kernel-report-cases.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("kernel-report-cases.jsonl");
    let mut checked = 0;
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let (name, fact, expect) = (
            case["preset"].as_str().unwrap(),
            case["fact"].as_str().unwrap(),
            case["expect"].as_str().unwrap(),
        );
        let r = report(preset(name)).unwrap();
        let words: Vec<&str> = fact.split(' ').collect();
        let (kind, object, key) = match words[..] {
            ["smem", object, "layout"] => ("smem", object.to_string(), "layout".to_string()),
            ["budget", "total", "bytes"] => ("budget", String::new(), "total bytes".into()),
            ["tma", object, "box"] => ("tma", object.to_string(), "box".into()),
            ["mma", "tile"] => ("mma", String::new(), "tile".into()),
            ["desc", op, "tile", m, "k-block", k, "stage", s] => {
                let mma = &r
                    .sections
                    .iter()
                    .find(|s| s.kind == SectionKind::Mma)
                    .unwrap()
                    .name;
                let key = format!("tile {m}, k-block {k}, stage {s}");
                ("desc", format!("{mma}.{op}"), key)
            }
            _ => panic!("unknown fact {fact}"),
        };
        let s = r
            .sections
            .iter()
            .find(|s| s.kind.name() == kind && (object.is_empty() || s.name == object))
            .unwrap_or_else(|| panic!("{name}: no {kind} section {object}"));
        let got = &s
            .facts
            .iter()
            .find(|(k, _)| *k == key)
            .unwrap_or_else(|| panic!("{name}: {kind} {object} has no fact {key}"))
            .1;
        assert_eq!(got, expect, "{name}: {fact}");
        checked += 1;
    }
    assert_eq!(checked, 116);
    // Every descriptor C++ issues is in the table, and no other: per preset and operand,
    // as many rows as C++ printed.
    let mut want = std::collections::BTreeMap::<(String, String), usize>::new();
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let fact = case["fact"].as_str().unwrap();
        if let Some(rest) = fact.strip_prefix("desc ") {
            let op = rest.split(' ').next().unwrap().to_string();
            *want
                .entry((case["preset"].as_str().unwrap().into(), op))
                .or_default() += 1;
        }
    }
    assert_eq!(want.len(), 6, "{want:?}");
    for ((name, op), n) in want {
        let r = report(preset(&name)).unwrap();
        let s = r
            .sections
            .iter()
            .find(|s| s.kind == SectionKind::Desc && s.name.ends_with(&format!(".{op}")))
            .unwrap();
        let rows = s
            .facts
            .iter()
            .filter(|(k, _)| k.starts_with("tile "))
            .count();
        assert_eq!(rows, n, "{name} {op}");
        assert!(
            s.headline.starts_with(&format!("{n} descriptors")),
            "{}",
            s.headline
        );
    }
}

/// A collective's type list (CUTLASS's SM80 multistage mainloop as a GEMM configuration
/// spells it: `TileShape`, `Stages`, `TiledMma`, `SmemLayoutAtomA/B`, `SmemCopyAtomA/B`,
/// `GmemTiledCopyA/B`): the atoms are tiled to the CTA tile and the stages, every object
/// is found and checked. Its 64-byte rows read by 16-byte cp.async cost two LDGSTS
/// wavefronts per quarter-warp (two global lines each), the model proven on the H100.
#[test]
fn a_collectives_type_list_is_a_configuration() {
    let src = include_str!("data/collective_sm80.cpp");
    let r = report(src).unwrap();
    let kinds: Vec<(&str, &str)> = r
        .sections
        .iter()
        .map(|s| (s.kind.name(), s.name.as_str()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("budget", "SmemLayoutA + SmemLayoutB"),
            ("smem", "SmemLayoutA"),
            ("smem", "SmemLayoutB"),
            ("g2s", "GmemTiledCopyA"),
            ("g2s", "GmemTiledCopyB"),
            ("s2r", "SmemCopyAtomA"),
            ("s2r", "SmemCopyAtomB"),
            ("mma", "TiledMma"),
        ]
    );
    let a = section(&r, "smem", "SmemLayoutA");
    assert_eq!(a.headline, "8 KiB per stage x 3 = 24 KiB");
    // An element swizzle needs only the copies' vectors; a GMMA atom's, its period.
    let align = |r: &Report, name: &str| {
        section(r, "smem", name)
            .facts
            .iter()
            .find(|(k, _)| k == "alignment")
            .unwrap()
            .1
            .clone()
    };
    assert_eq!(
        align(&r, "SmemLayoutA"),
        "16 bytes: SmemCopyAtomA moves 16-byte vectors (ldmatrix.x4)"
    );
    let hopper = report(preset("sm90_tma_wgmma")).unwrap();
    assert!(align(&hopper, "sA").starts_with(
        "1024 bytes: its swizzle Sw<3,4,3> acts on address bits and repeats every 1024 bytes"
    ));
    assert_eq!(
        section(&r, "g2s", "GmemTiledCopyA").headline,
        "256 sectors (min 256); smem writes 128 wavefronts (ideal 64) per stage"
    );
    assert_eq!(section(&r, "s2r", "SmemCopyAtomA").verdict, Verdict::Ok);
    // The cost is the global side's: no swizzle is offered, and ncu cannot see .cg's writes.
    let g = section(&r, "g2s", "GmemTiledCopyA");
    assert_eq!(
        g.warnings[0].fix.as_deref(),
        Some("give each quarter-warp's 8 lanes one 128-byte global line (16-byte copies along a row of at least 128 bytes); no swizzle helps")
    );
    assert!(g.facts.iter().any(|(k, v)| k == "Nsight Compute"
        && v.starts_with("cp.async.cg's shared-memory writes are invisible")));
}

/// The accumulator's TMEM load atom: what one warp instruction reads of its warp's 32
/// lanes (from the atom's DstLayout and ValID) and how many the accumulator takes.
#[test]
fn the_tmem_load_atom_reads_the_accumulator() {
    let r = report(preset("sm100_umma")).unwrap();
    assert_eq!(
        section(&r, "tmem", "tiled_t2r_copy").headline,
        "tcgen05.ld: 32 lanes x 1 column per warp instruction, 1 register per thread; 256 instructions per warp for 256 columns"
    );
    let r = report(&preset("sm100_umma").replace("32dp32b1x", "16dp256b2x")).unwrap();
    assert_eq!(
        section(&r, "tmem", "tiled_t2r_copy").headline,
        "tcgen05.ld: 16 lanes x 16 columns per warp instruction, 8 registers per thread; 32 instructions per warp for 256 columns"
    );
}

/// The kernel view on the page is a text table: every section a row, its cells the SVG's
/// (classes, `data-*`, fills), escaped; other views have none.
#[test]
fn the_kernel_figure_is_a_table_of_its_rows() {
    let kernel = cute_render::Options {
        view: cute_render::View::Kernel,
        ..cute_render::Options::default()
    };
    let src = preset("sm90_collective_builder");
    let fig = cute_render::render_figure(src, &kernel).unwrap();
    let html = fig.to_html_table().expect("a table");
    let r = report(src).unwrap();
    assert!(html.starts_with("<div class=\"text-figure\" data-view=\"kernel\">"));
    assert_eq!(
        html.matches("<tr><th scope=\"row\">").count(),
        r.sections.len()
    );
    for s in &r.sections {
        assert!(
            html.contains(&format!("data-object=\"{}\"", s.name)),
            "{}",
            s.name
        );
    }
    // The number behind each row, as text in its own cell.
    assert!(html.contains(">7 stages of 128x128x64, SM90_64x128x16_F32F16F16_SS over 2 warpgroups (KernelTmaWarpSpecializedCooperative)</td>"));
    // A row's view is the block with the section's view line: newlines and `<` escaped.
    assert!(html.contains("data-open=\"// A Hopper GEMM"));
    assert!(!html.contains("Shape<_"), "escaped: {}", &html[..200]);
    let layout =
        cute_render::render_figure("(4,8):(8,1)", &cute_render::Options::default()).unwrap();
    assert!(layout.to_html_table().is_none());
}

/// A smem row opens the stage the data lands in: a buffer of a GMMA/UMMA atom keeps its
/// `smem_ptr[16b]` (C++'s slice `sA(_,_,0)` drops it, and the swizzle would then read
/// element offsets as bytes), the same value as the report's `stage` fact.
#[test]
fn smem_rows_open_the_stage_with_its_element_width() {
    let mut checked = 0;
    // The CuTeDSL preset's views are Python lines of a Python block.
    for (name, _, src) in PRESETS.iter().filter(|p| !p.0.ends_with("dsl")) {
        let r = report(src).unwrap();
        for s in r.sections.iter().filter(|s| s.kind == SectionKind::Smem) {
            let stage = &s.facts.iter().find(|(k, _)| k == "stage").unwrap().1;
            let view = s.view.as_ref().unwrap();
            let v = cute_lang::eval_block(&format!("{src}\n{view}"))
                .unwrap_or_else(|e| panic!("{name}: {view}: {e}"));
            assert_eq!(&v.to_string(), stage, "{name}: {view}");
            checked += stage.contains("smem_ptr[") as usize;
        }
    }
    assert!(checked >= 8, "{checked} buffers with a width");
}

/// A pasted configuration that ends with a `CollectiveBuilder` line opens in the kernel view
/// (the collective has no picture of its own); one that ends with a drawable value keeps it.
#[test]
fn a_pasted_builder_block_opens_as_its_report() {
    for name in [
        "sm90_collective_builder",
        "sm100_builder_2sm",
        "sm120_builder",
    ] {
        let f = cute_render::render_figure(preset(name), &cute_render::Options::default()).unwrap();
        assert_eq!(f.view, cute_render::View::Kernel, "{name}");
    }
    let f = cute_render::render_figure(preset("sm80_tutorial"), &cute_render::Options::default())
        .unwrap();
    assert_ne!(f.view, cute_render::View::Kernel);
}

/// A host function pasted whole, as the CuTe tutorials write their set-up (`void
/// gemm_tn(int m, ...) { ... }`): its body is checked; its runtime parameters have no
/// value, so the lines that need them are left out with a note; the launch code (`dim3`,
/// `cudaFuncSetAttribute`, `<<<...>>>`) and `#if 0` are left out; the budget counts what
/// `sizeof(SharedStorage<...>)` names. Given values above the function, the totals come.
#[test]
fn a_pasted_host_function_is_checked_and_what_it_leaves_out_is_noted() {
    let src = preset("sm80_host_function");
    let r = report(src).unwrap();
    let host = section(&r, "host", "gemm_tn(...)");
    assert_eq!(
        host.headline,
        "10 parameters without a value, 13 lines left out"
    );
    let lines: Vec<&str> = host.facts.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        lines,
        [
            "line 5", "line 17", "line 18", "line 19", "line 20", "line 22", "line 23", "line 24",
            "line 59", "line 60", "line 61", "line 64", "line 71", "line 74"
        ]
    );
    let fact = |line: &str| &host.facts.iter().find(|(k, _)| k == line).unwrap().1;
    assert!(
        fact("line 5")
            .contains("`m`, `n`, `k`, `alpha`, `ldA`, `ldB`, `beta`, `ldC` (runtime arguments)"),
        "{}",
        fact("line 5")
    );
    assert!(fact("line 5").contains("its pointers `A`, `B`, `C` point at address 0"));
    assert!(fact("line 5").contains("`int m = 4096;`"));
    assert!(
        fact("line 20").contains("needs `M`, left out at line 17"),
        "{}",
        fact("line 20")
    );
    assert!(fact("line 59").contains("`smem_size` only feeds the kernel's launch"));
    assert!(fact("line 59").contains("unknown type 'SharedStorage'"));
    for (line, why) in [
        ("line 60", "launch code"),
        ("line 71", "launch code"),
        ("line 74", "launch code"),
    ] {
        assert!(fact(line).ends_with(why), "{line}: {}", fact(line));
    }
    // The kernel allocates sA and sB only: sC describes the tile, not a buffer.
    let budget = section(&r, "budget", "sA + sB");
    assert!(budget
        .facts
        .iter()
        .any(|(k, v)| k == "not allocated" && v.starts_with("sC (line 59")));
    assert!(r.sections.iter().all(|s| s.name != "sC"));
    // A SharedStorage of names that are no buffer's says nothing about them: all counted.
    let other = src.replace("decltype(sA), decltype(sB)>", "decltype(sX), decltype(sY)>");
    let r2 = report(&other).unwrap();
    section(&r2, "budget", "sA + sB + sC");
    section(&r, "g2s", "copyA");
    section(&r, "s2r", "s2r_atom_B");
    section(&r, "mma", "mmaC");
    // No problem size, no epilogue strides: no totals and no invented epilogue.
    assert!(r.problem.is_none());
    assert!(r
        .sections
        .iter()
        .all(|s| s.kind != SectionKind::Epilogue && s.kind != SectionKind::Kernel));

    // The call's arguments bound above the function: the problem, C's stores and the totals.
    let args = "int m = 4096, n = 2048, k = 1024;\nint ldA = k, ldB = k, ldC = m;\n";
    let r = report(&format!("{args}{src}")).unwrap();
    let host = section(&r, "host", "gemm_tn(...)");
    assert_eq!(
        host.headline,
        "4 parameters without a value, 6 lines left out"
    );
    assert!(host.facts[0]
        .1
        .contains("as bound above: m = 4096, n = 2048, k = 1024"));
    section(&r, "epilogue", "C");
    section(&r, "kernel", "4096x2048x1024");
}

/// A host function templated on its element types evaluates once the types are bound;
/// without them the report says which line needed which parameter. A real error in the
/// body stays an error; a kernel's body and a struct are not evaluated.
#[test]
fn a_templated_host_function_names_what_it_needs_and_real_errors_stay() {
    let body = "template <class TA, class TB, class TC>\nvoid gemm(int m, TA const* A, TB const* B, TC* C) {\n  auto sA = make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{}));\n  auto sB = make_layout(make_shape(Int<128>{}, Int<8>{}, Int<3>{}));\n  TiledMMA mmaC = make_tiled_mma(UniversalFMA<TC,TA,TB>{}, Layout<Shape<_16,_16,_1>>{});\n}\n";
    let e = report(body).unwrap_err().to_string();
    assert!(e.contains("no TiledMMA"), "{e}");
    assert!(e.contains("line 5: left out `TiledMMA mmaC = make_tiled_mma(UniversalFMA<TC,TA,TB>{}, Lay…`: needs `TC`, a template parameter of `gemm` without a type"), "{e}");
    let r = report(&format!(
        "using TA = float;\nusing TB = float;\nusing TC = float;\n{body}"
    ))
    .unwrap();
    assert!(section(&r, "mma", "mmaC")
        .headline
        .starts_with("UniversalFMA<float,float,float> over 256 threads"));
    // A typo inside the body is the code's error, with its line.
    let typo = body.replace(
        "make_shape(Int<128>{}, Int<8>{}, Int<3>{}));\n  auto sB",
        "make_shap(Int<128>{}, Int<8>{}, Int<3>{}));\n  auto sB",
    );
    let e = report(&typo).unwrap_err().to_string();
    assert!(e.starts_with("line 3: unknown function 'make_shap'"), "{e}");
    // A kernel and a struct before the host function: noted, not evaluated.
    let src = format!("template <class T>\nstruct SharedStorage {{ cute::ArrayEngine<T, 64> A; }};\n__global__ void gemm_device(int x) {{ int y = threadIdx.x; }}\nusing TA = float;\nusing TB = float;\nusing TC = float;\n{body}");
    let r = report(&src).unwrap();
    let host = section(&r, "host", "gemm(...)");
    assert!(host
        .facts
        .iter()
        .any(|(k, v)| k == "line 1" && v.starts_with("`SharedStorage` is a type")));
    assert!(host
        .facts
        .iter()
        .any(|(k, v)| k == "line 3" && v.starts_with("`gemm_device` is a GPU function")));
}

/// `render --print -` evaluates a pasted host function and writes what it left out to
/// stderr; `render` draws it as the kernel report.
#[test]
fn the_cli_prints_a_host_function_with_notes_and_draws_its_report() {
    let src = preset("sm80_host_function");
    let (code, out, err) = render(&["--print", "-"], Some(src));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("Copy_Atom SM75_U32x4_LDSM_N"), "{out}");
    assert!(
        err.contains("note: line 60: left out `dim3 dimBlock(size(mmaC))`: launch code"),
        "{err}"
    );
    let f = cute_render::render_figure(src, &cute_render::Options::default()).unwrap();
    assert!(f.title.starts_with("kernel report (SM80)"), "{}", f.title);
    // A line after the function is drawn in its own view (a report row opening its object).
    let f = cute_render::render_figure(
        &format!("{src}\nsA(_,_,0)"),
        &cute_render::Options::default(),
    )
    .unwrap();
    assert!(!f.title.starts_with("kernel report"), "{}", f.title);
}

/// A 2-SM builder GEMM with its problem size: each CTA of the pair loads its half of the
/// pair's A rows and of B's N (what its SmemLayoutA/B hold) with SM100_TMA_2SM_LOAD[_MULTICAST];
/// the totals count CTAs, not pairs; the MMA's tile is the pair's, checked per CTA.
#[test]
fn a_cta_pair_loads_half_of_each_operand_and_the_totals_count_ctas() {
    let src = format!(
        "int M = 8192;\nint N = 8192;\nint K = 4096;\n{}",
        preset("sm100_builder_2sm")
    );
    let r = report(&src).unwrap();
    assert_eq!(r.verdict(), Verdict::Ok, "{r}");
    let a = section(&r, "tma", "CollectiveMainloop::GmemTiledCopyA");
    let b = section(&r, "tma", "CollectiveMainloop::GmemTiledCopyB");
    let fact = |s: &cute_lang::kernel::Section, k: &str| {
        s.facts.iter().find(|(n, _)| n == k).unwrap().1.clone()
    };
    // Cluster 2x2: A multicast over the cluster's N, B not (the pair takes the cluster's M).
    assert_eq!(fact(a, "op"), "SM100_TMA_2SM_LOAD_MULTICAST");
    assert_eq!(fact(b, "op"), "SM100_TMA_2SM_LOAD");
    assert!(
        a.headline
            .starts_with("box (64,128):(1@1,1@0), 16384 bytes"),
        "{}",
        a.headline
    );
    assert!(
        b.headline.starts_with("box (64,64):(1@1,1@0), 8192 bytes"),
        "{}",
        b.headline
    );
    let m = section(&r, "mma", "CollectiveMainloop::TiledMma");
    assert!(
        m.headline.contains("issued by a CTA pair"),
        "{}",
        m.headline
    );
    assert_eq!(fact(m, "per CTA"), "128x128x16 (M split over the pair)");
    // 8192/128 x 8192/128 CTAs (2048 pairs), 64 k-tiles; A: 64 N-tiles read 64 MiB each,
    // B: 32 pairs read it once each, split over the pair.
    let k = section(&r, "kernel", "8192x8192x4096");
    assert_eq!(fact(k, "CTAs"), "4096");
    let p = r.problem.as_ref().unwrap();
    let total: Vec<u64> = r.traffic.iter().map(|t| t.times(p.runs(t)).bytes).collect();
    assert_eq!(total, [4 << 30, 2 << 30]);
}

/// SM120's block-scaled GEMM as CUTLASS's GeForce example writes it: eight warps of the
/// NVFP4 `mma.sync`, A, B and their scale factors staged in 99 KiB beside the epilogue, four
/// TMA loads a k-tile, no cluster.
#[test]
fn a_geforce_block_scaled_gemm_stages_its_scale_factors_beside_the_epilogue() {
    let r = report(preset("sm120_blockscaled")).unwrap();
    assert_eq!(r.verdict(), Verdict::Ok, "{r}");
    let fact = |s: &cute_lang::kernel::Section, k: &str| {
        s.facts.iter().find(|(n, _)| n == k).unwrap().1.clone()
    };
    let c = section(&r, "collective", "CollectiveMainloop");
    assert!(c.headline.starts_with("4 stages of 128x128x128, SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,16> over 8 warps"), "{}", c.headline);
    assert_eq!(
        fact(c, "DispatchPolicy"),
        "MainloopSm120TmaWarpSpecializedBlockScaled<4, 3, Shape<_1,_1,_1>, KernelTmaWarpSpecializedCooperativeBlockScaledSm120<3>>"
    );
    let sfb = section(&r, "smem", "CollectiveMainloop::SmemLayoutSFB");
    assert_eq!(
        sfb.view.as_deref(),
        Some("CollectiveMainloop::SmemLayoutSFB{}(_,_,0)")
    );
    // The mainloop's SharedStorage (4 stages of A and B, 8 KiB each: 4-bit, SFA and SFB,
    // 1 KiB each, their barriers, 1024-byte aligned) and the epilogue's 13312 B.
    let budget = r
        .sections
        .iter()
        .find(|s| s.kind == SectionKind::Budget)
        .unwrap();
    assert_eq!(fact(budget, "total bytes"), (74752 + 13312).to_string());
    // 4096 CTAs x 64 k-tiles: A and B 2 GiB each, SFA and SFB 256 MiB each.
    let p = r.problem.as_ref().unwrap();
    let total: Vec<u64> = r.traffic.iter().map(|t| t.times(p.runs(t)).bytes).collect();
    assert_eq!(total, [2 << 30, 2 << 30, 256 << 20, 256 << 20]);
}

/// A block-scaled builder block (NVFP4 x NVFP4 on a CTA pair): the scale factors are two more
/// staged buffers in the budget and two more TMA loads in the totals, as the builder lays them
/// out; an MXF8F6F4 operand kept unpacked counts its packed global bytes.
#[test]
fn a_block_scaled_gemm_stages_its_scale_factors_and_counts_their_loads() {
    let r = report(preset("sm100_blockscaled")).unwrap();
    assert_eq!(r.verdict(), Verdict::Ok, "{r}");
    let fact = |s: &cute_lang::kernel::Section, k: &str| {
        s.facts.iter().find(|(n, _)| n == k).unwrap().1.clone()
    };
    let c = section(&r, "collective", "CollectiveMainloop");
    assert!(c.headline.starts_with("3 stages of 256x256x256, SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,256,256,16,K,K>"), "{}", c.headline);
    let sfa = section(&r, "smem", "CollectiveMainloop::SmemLayoutSFA");
    assert_eq!(
        fact(sfa, "layout"),
        "((((32,4),1),(16,4)),1,(1,4),3):((((16,4),512),(0,1)),0,(4,512),2048)"
    );
    // 3 stages of A, B (16 KiB each), SFA (2 KiB), SFB (4 KiB), and the epilogue's 100352 B.
    let budget = r
        .sections
        .iter()
        .find(|s| s.kind == SectionKind::Budget)
        .unwrap();
    assert_eq!(
        fact(budget, "total bytes"),
        (3 * (2 * 16384 + 2048 + 4096) + 100352).to_string()
    );
    let sfb = section(&r, "tma", "CollectiveMainloop::GmemTiledCopySFB");
    assert_eq!(fact(sfb, "op"), "SM100_TMA_2SM_LOAD_MULTICAST");
    // 2048 CTAs x 32 k-tiles: A and B 1 GiB each, SFA 128 MiB, SFB 256 MiB.
    let p = r.problem.as_ref().unwrap();
    let total: Vec<(String, u64)> = r
        .traffic
        .iter()
        .map(|t| (t.object.clone(), t.times(p.runs(t)).bytes))
        .collect();
    assert_eq!(
        total,
        [
            ("CollectiveMainloop::GmemTiledCopyA".to_string(), 1 << 30),
            ("CollectiveMainloop::GmemTiledCopyB".to_string(), 1 << 30),
            (
                "CollectiveMainloop::GmemTiledCopySFA".to_string(),
                128 << 20
            ),
            (
                "CollectiveMainloop::GmemTiledCopySFB".to_string(),
                256 << 20
            ),
        ]
    );
    // MXFP8 x MXFP4: MXF8F6F4 keeps B a byte an element in shared memory; its global reads
    // are 4-bit, half of A's.
    let mixed = preset("sm100_blockscaled")
        .replacen(
            "nv_float4_t<cutlass::float_e2m1_t>",
            "mx_float8_t<cutlass::float_e4m3_t>",
            1,
        )
        .replacen(
            "nv_float4_t<cutlass::float_e2m1_t>",
            "mx_float4_t<cutlass::float_e2m1_t>",
            1,
        )
        .replace("AlignmentA = 32", "AlignmentA = 16")
        .replace("AlignmentB = 32", "AlignmentB = 128");
    let r = report(&mixed).unwrap();
    assert_eq!(r.verdict(), Verdict::Ok, "{r}");
    let c = section(&r, "collective", "CollectiveMainloop");
    assert!(c.headline.contains("SM100_MMA_MXF8F6F4_2x1SM_SS<float_e4m3_t,float_e2m1_unpacksmem_t,float,float_ue8m0_t,256,256,K,K>"), "{}", c.headline);
    let p = r.problem.as_ref().unwrap();
    let bytes: Vec<u64> = r.traffic.iter().map(|t| t.times(p.runs(t)).bytes).collect();
    assert_eq!(bytes[..2], [2 << 30, 1 << 30]);
}

/// The value of `expr` after the pasted block, as `render --print` prints it (static `_`
/// dropped).
fn after(block: &str, expr: &str) -> String {
    cute_lang::eval_block(&format!("{block}\n{expr}"))
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
        .to_string()
}

/// Builder blocks whose epilogue fusion has buffers of its own (an auxiliary output, a bias,
/// absolute maxima, output scale factors), written as CUTLASS's FP8 and NVFP4 examples write
/// them: the epilogue's shared memory, the stages the carveout leaves, the fusion's member
/// types and the kernel's strides are the headers' (numbers from the newest CUTLASS).
#[test]
fn builder_blocks_with_fusion_buffers_resolve_as_the_headers_do() {
    let hopper = include_str!("data/fusion_fp8_amax_aux_sm90.cpp");
    // 4 C and 2 D stages of 128x32 FP8 plus 4 stages of the auxiliary tensor.
    for (expr, want) in [
        ("sizeof(CollectiveEpilogue::SharedStorage)", "33792"),
        ("CollectiveMainloop::DispatchPolicy::Stages", "6"),
        ("CollectiveEpilogue::EpilogueTile", "(128,32)"),
        ("StrideA{}", "(0,1,0)"),
        ("StrideC{}", "(1,0,0)"),
        ("IsDFp8", "1"),
        ("IsAuxFp8", "1"),
        ("ElementScalar", "float"),
        ("EpilogueOutputOp::AlignmentAux", "16"),
        ("EpilogueOutputOp::IsAuxOutSupported", "1"),
    ] {
        assert_eq!(after(hopper, expr), want, "{expr}");
    }
    // The same fusion on Blackwell: a 256-row tile in a 2x2 cluster picks the CTA pair.
    let blackwell = hopper
        .replace("cutlass::arch::Sm90;", "cutlass::arch::Sm100;")
        .replace("Shape<_128,_128,_128>", "Shape<_256,_128,_64>")
        .replace("Shape<_1,_2,_1>", "Shape<_2,_2,_1>")
        .replace(
            "cutlass::gemm::KernelTmaWarpSpecializedCooperative",
            "cutlass::gemm::collective::KernelScheduleAuto",
        )
        .replace(
            "cutlass::epilogue::TmaWarpSpecializedCooperative",
            "cutlass::epilogue::collective::EpilogueScheduleAuto",
        )
        .replace("ElementBias = float", "ElementBias = cutlass::half_t");
    for (expr, want) in [
        ("sizeof(CollectiveEpilogue::SharedStorage)", "50176"),
        ("CollectiveMainloop::DispatchPolicy::Stages", "14"),
        ("CollectiveEpilogue::EpilogueTile", "(128:1,64:1)"),
        ("EpilogueOutputOp::AlignmentBias", "8"),
    ] {
        assert_eq!(after(&blackwell, expr), want, "{expr}");
    }
    let r = report(&blackwell).unwrap();
    assert_eq!(r.verdict(), Verdict::Ok, "{r}");
    assert!(
        section(&r, "collective", "CollectiveEpilogue")
            .headline
            .contains("2 C / 2 D stages, 49 KiB of shared memory"),
        "{r}"
    );

    // Block-scaled output: the scale factors' global layouts are the config's LayoutSF.
    let nvfp4 = include_str!("data/fusion_nvfp4_sfd_sm100.cpp");
    let layout_sf = "(((32,4),0),((16,4),0),(1,0)):(((16,4),0),((0,1),512),(0,0))";
    for (expr, want) in [
        ("sizeof(CollectiveEpilogue::SharedStorage)", "67584"),
        ("CollectiveMainloop::DispatchPolicy::Stages", "4"),
        ("CollectiveEpilogue::EpilogueTile", "(128:1,32:1)"),
        ("LayoutSFA{}", layout_sf),
        ("LayoutSFB{}", layout_sf),
        ("LayoutSFD{}", layout_sf),
        ("LayoutA{}", "(0,0,0):(0,1,0)"),
        ("IsBlockScaleSupported", "1"),
        ("FusionOp::SFVecSize", "16"),
        ("FusionOp::ElementBlockScaleFactor", "float_ue8m0_t"),
    ] {
        assert_eq!(after(nvfp4, expr), want, "{expr}");
    }
    // The GeForce form of it: a bf16 C, a 128x128x128 tile and the pingpong schedule.
    let geforce = nvfp4
        .replace("cutlass::arch::Sm100;", "cutlass::arch::Sm120;")
        .replace("Shape<_128,_128,_256>", "Shape<_128,_128,_128>")
        .replace(
            "ElementC     = float;",
            "ElementC     = cutlass::bfloat16_t;",
        )
        .replace(
            "cutlass::gemm::collective::KernelScheduleAuto",
            "cutlass::gemm::KernelTmaWarpSpecializedPingpong",
        );
    for (expr, want) in [
        ("sizeof(CollectiveEpilogue::SharedStorage)", "11264"),
        ("CollectiveMainloop::DispatchPolicy::Stages", "4"),
        ("CollectiveEpilogue::EpilogueTile", "(64,32)"),
        ("LayoutSFA{}", layout_sf),
    ] {
        assert_eq!(after(&geforce, expr), want, "{expr}");
    }
    let r = report(&geforce).unwrap();
    assert_eq!(r.verdict(), Verdict::Ok, "{r}");
}
