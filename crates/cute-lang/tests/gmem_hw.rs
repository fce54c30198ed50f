//! The coalescing model against the hardware: every instruction of `hw/gmem/probe-corpus.jsonl`
//! (hand-made patterns: strided, transposed, misaligned, broadcasts, predicated tails, widths
//! 1-16 bytes, LDG, STG, cp.async .ca and .cg) and of `hw/gmem/tiled-corpus.jsonl` (what
//! `coalescing(...)` derives from TiledCopies over global tensors, `hw/gmem/patterns.txt`)
//! ran on an H100 under Nsight Compute (`hw/gmem/run.sh`). The model must give the measured
//! sectors, tag lookups (lines) and requests for 100% of them, and the tiled corpus must be
//! what the model derives from the patterns today.

mod common;
use common::{addrs, jsonl, root};
use cute_core::gmem::{analyze_gmem_warp, GmemOp};
use serde_json::Value as Json;
use std::collections::{BTreeMap, HashMap};

/// Check every measured instruction of a fixture; returns (patterns, instructions).
fn check_fixture(corpus_path: &str, measured_path: &str) -> (usize, usize) {
    let corpus = jsonl(corpus_path);
    let measured = jsonl(measured_path);
    let header = &measured[0];
    assert_eq!(
        header["header"], true,
        "first line is the environment header"
    );
    assert_eq!(header["control_ok"], true, "the control launches read 0");
    println!(
        "{measured_path}: {} / driver {} / {}",
        header["gpu"], header["driver"], header["ncu"]
    );
    let by_name: HashMap<&str, &Json> = corpus
        .iter()
        .map(|p| (p["name"].as_str().expect("name"), p))
        .collect();
    let mut by_op: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for m in &measured[1..] {
        let name = m["name"].as_str().expect("name");
        let op_name = m["op"].as_str().expect("op");
        let op = GmemOp::from_op_name(op_name).unwrap_or_else(|| panic!("unknown op {op_name}"));
        let p = by_name
            .get(name)
            .unwrap_or_else(|| panic!("{name} is measured but not in {corpus_path}"));
        assert_eq!(p["op"], m["op"], "{name}: op");
        let i = m["instr"].as_u64().expect("instr") as usize;
        let a = addrs(&p["instrs"][i]);
        let r = analyze_gmem_warp(op, &a).unwrap_or_else(|e| panic!("{name}: {e}"));
        let got = (r.sectors, r.lines, r.requests);
        let want = (
            m["sectors"].as_u64().expect("sectors") as u32,
            m["lines"].as_u64().expect("lines") as u32,
            m["requests"].as_u64().expect("requests") as u32,
        );
        let e = by_op.entry(op_name.to_string()).or_default();
        e.1 += 1;
        if got == want {
            e.0 += 1;
        } else {
            failures.push(format!(
                "{name} #{i} {op_name}: model (sectors, lines, requests) {got:?}, H100 {want:?}"
            ));
        }
    }
    for (op, (ok, n)) in &by_op {
        println!("  {op:14} {ok}/{n}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} instructions differ:\n{}",
        failures.len(),
        measured.len() - 1,
        failures.join("\n")
    );
    let patterns: std::collections::HashSet<&str> = measured[1..]
        .iter()
        .map(|m| m["name"].as_str().expect("name"))
        .collect();
    (patterns.len(), measured.len() - 1)
}

#[test]
fn model_matches_h100_on_probes() {
    let (patterns, instrs) = check_fixture(
        "hw/gmem/probe-corpus.jsonl",
        "hw/gmem/fixtures/probe-measured.jsonl",
    );
    assert!(patterns >= 400, "only {patterns} probe patterns");
    assert_eq!(patterns, instrs, "one instruction per probe");
}

#[test]
fn model_matches_h100_on_tiled_copies() {
    let (patterns, instrs) = check_fixture(
        "hw/gmem/tiled-corpus.jsonl",
        "hw/gmem/fixtures/tiled-measured.jsonl",
    );
    assert!(
        patterns >= 200 && instrs >= 800,
        "{patterns} patterns, {instrs} instructions"
    );
}

/// The tiled corpus is exactly what today's `coalescing(...)` derives from the patterns.
#[test]
fn tiled_corpus_is_current() {
    let corpus = jsonl("hw/gmem/tiled-corpus.jsonl");
    let patterns = std::fs::read_to_string(root().join("hw/gmem/patterns.txt")).expect("patterns");
    let mut n = 0;
    for line in patterns
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (name, expr) = line.split_once('\t').expect("NAME<TAB>EXPR");
        let rec = corpus
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name} missing from the tiled corpus"));
        let r = match cute_lang::eval_line(expr) {
            Ok(cute_lang::Value::Coalesce(r)) => r,
            other => panic!("{name}: {other:?}"),
        };
        let recorded = rec["instrs"].as_array().expect("instrs");
        assert_eq!(
            recorded.len(),
            r.instrs.len().min(4),
            "{name}: instruction count"
        );
        for (i, a) in r.instrs.iter().zip(recorded) {
            assert_eq!(
                i.addrs,
                addrs(a),
                "{name}: addresses changed; rerun hw_corpus"
            );
        }
        assert_eq!(rec["op"], r.op.op_name(), "{name}: op");
        n += 1;
    }
    assert_eq!(
        n,
        corpus.len(),
        "patterns.txt and the corpus list the same patterns"
    );
}
