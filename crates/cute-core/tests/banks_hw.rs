//! The bank model against the hardware: every instruction of `hw/corpus.jsonl` was run on an
//! H100 under Nsight Compute (`hw/run.sh`), and `hw/fixtures/measured.jsonl` holds what it
//! measured. The model must give the same wavefronts for 100% of them, and the corpus must
//! be what the model derives from `hw/patterns.txt` today.

use cute_core::bank::{analyze_warp, Instr};
use serde_json::Value as Json;
use std::collections::HashMap;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn jsonl(path: &str) -> Vec<Json> {
    let text = std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}: {l}")))
        .collect()
}

fn instr_of(op: &str) -> Instr {
    let name = match op {
        "ld32" => "LDS32",
        "ld64" => "LDS64",
        "ld128" => "LDS128",
        "st32" => "STS32",
        "st64" => "STS64",
        "st128" => "STS128",
        other => other,
    };
    Instr::parse(name).unwrap_or_else(|| panic!("unknown op {op}"))
}

fn addrs(v: &Json) -> Vec<Option<u64>> {
    v.as_array()
        .expect("32 addresses")
        .iter()
        .map(|a| {
            let a = a.as_i64().expect("integer address");
            (a >= 0).then_some(a as u64)
        })
        .collect()
}

/// Check every measured instruction of `measured` against the model: wavefronts and
/// Nsight Compute's bank-conflict counter. Returns the number of patterns measured.
fn check_fixture(corpus_path: &str, measured_path: &str) -> usize {
    let corpus = jsonl(corpus_path);
    let measured = jsonl(measured_path);
    let header = &measured[0];
    assert_eq!(
        header["header"], true,
        "first line is the environment header"
    );
    println!(
        "{measured_path}: {} / driver {} / {} / {}",
        header["gpu"], header["driver"], header["cuda"], header["ncu"]
    );
    let by_name: HashMap<&str, &Json> = corpus
        .iter()
        .map(|p| (p["name"].as_str().expect("name"), p))
        .collect();
    let mut by_op: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let mut failures = Vec::new();
    for m in &measured[1..] {
        let name = m["name"].as_str().expect("name");
        let p = by_name
            .get(name)
            .unwrap_or_else(|| panic!("measured pattern {name} is not in {corpus_path}"));
        let op = p["op"].as_str().expect("op");
        let i = m["instr"].as_u64().expect("instr") as usize;
        let model = analyze_warp(instr_of(op), &addrs(&p["instrs"][i])).expect("model");
        let hw = (
            m["wavefronts"].as_u64().expect("wavefronts") as u32,
            m["bank_conflicts"].as_u64().expect("bank_conflicts") as u32,
        );
        let e = by_op.entry(op.to_string()).or_default();
        e.1 += 1;
        if (model.wavefronts, model.conflicts) == hw {
            e.0 += 1;
        } else {
            failures.push(format!(
                "{name} [{op} #{i}]: model (wavefronts, conflicts) = ({}, {}), H100 {hw:?}",
                model.wavefronts, model.conflicts
            ));
        }
    }
    println!("  model vs H100, per instruction kind:");
    for (op, (ok, n)) in &by_op {
        println!("    {op:<10} {ok:>4} / {n}");
    }
    let patterns: std::collections::HashSet<&str> = measured[1..]
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    println!(
        "    {} instructions of {} patterns",
        measured.len() - 1,
        patterns.len()
    );
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        patterns.len(),
        corpus.len(),
        "every pattern of {corpus_path} was measured"
    );
    patterns.len()
}

#[test]
fn model_matches_h100_on_the_corpus() {
    let n = check_fixture("hw/corpus.jsonl", "hw/fixtures/measured.jsonl");
    assert!(
        n >= 100,
        "the corpus must hold at least 100 measured patterns"
    );
}

/// The probes and random patterns the phase rules were worked out from.
#[test]
fn model_matches_h100_on_probes_and_random_patterns() {
    for c in ["probe", "random-strided", "random-irregular"] {
        check_fixture(
            &format!("hw/{c}-corpus.jsonl"),
            &format!("hw/fixtures/{c}-measured.jsonl"),
        );
    }
}

/// The corpus is exactly what today's core derives from the pattern expressions (so the
/// fixtures stay meaningful when the core changes).
#[test]
fn corpus_is_current() {
    let corpus = jsonl("hw/corpus.jsonl");
    let patterns = std::fs::read_to_string(root().join("hw/patterns.txt")).expect("patterns");
    let mut n = 0;
    for line in patterns
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (name, expr) = line.split_once('\t').expect("NAME<TAB>EXPR");
        let rec = corpus
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name} missing from hw/corpus.jsonl"));
        let r = match cute_core::eval_line(expr) {
            Ok(cute_core::Value::Banks(r)) => r,
            other => panic!("{name}: {other:?}"),
        };
        let warp0: Vec<_> = r.instrs.iter().filter(|i| i.warp == 0).collect();
        let recorded = rec["instrs"].as_array().expect("instrs");
        assert_eq!(warp0.len(), recorded.len(), "{name}: instruction count");
        for (w, a) in warp0.iter().zip(recorded) {
            assert_eq!(
                w.addrs,
                addrs(a),
                "{name}: addresses changed; rerun hw_corpus"
            );
        }
        assert_eq!(rec["op"], r.instr.op_name(), "{name}: op");
        n += 1;
    }
    assert_eq!(
        n,
        corpus.len(),
        "patterns.txt and corpus.jsonl list the same patterns"
    );
}
