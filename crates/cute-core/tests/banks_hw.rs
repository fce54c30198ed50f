//! The bank model against the hardware: every instruction of `hw/corpus.jsonl` was run on an
//! H100 under Nsight Compute (`hw/run.sh`), and `hw/fixtures/measured.jsonl` holds what it
//! measured. The model must give the same wavefronts for 100% of them, and the corpus must
//! be what the model derives from `hw/patterns.txt` today. Likewise for the corpora of
//! cp.async and 8/16-bit LDS/STS (`hw/patterns-ext.txt`, probes), and for a CuTe kernel
//! (`hw/kernel/`): its ncu totals against the model of its tiled copies.

use cute_core::bank::{analyze_warp, analyze_warp_g2s, Instr};
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

/// The instruction of a corpus op (`_gm` / `_gx`: a cp.async whose global side mirrors the
/// shared one / is given in `gaddrs`).
fn instr_of(op: &str) -> Instr {
    let base = op
        .strip_suffix("_gm")
        .or_else(|| op.strip_suffix("_gx"))
        .unwrap_or(op);
    Instr::from_op_name(base).unwrap_or_else(|| panic!("unknown op {op}"))
}

/// The global byte addresses a measured cp.async read (see `hw/bank_bench.cu`).
fn global_addrs(p: &Json, op: &str, i: usize, smem: &[Option<u64>]) -> Vec<Option<u64>> {
    if op.ends_with("_gx") {
        return addrs(&p["gaddrs"][i]);
    }
    if op.ends_with("_gm") {
        return smem.to_vec();
    }
    let size = u64::from(instr_of(op).lane_bits() / 8);
    (0..32u64).map(|l| Some(l * size)).collect()
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
        let instr = instr_of(op);
        let smem = addrs(&p["instrs"][i]);
        let hw = (
            m["wavefronts"].as_u64().expect("wavefronts") as u32,
            m["bank_conflicts"].as_u64().expect("bank_conflicts") as u32,
        );
        let model = match instr {
            // cp.async.cg (LDGSTS.BYPASS): the H100's L1TEX counters do not see its
            // shared-memory writes (0 wavefronts, 0 conflicts in every launch), so there
            // is nothing to compare the model with; check that it stays so.
            Instr::Ldgsts { bypass: true, .. } => {
                let e = by_op.entry(format!("{op} (hw 0)")).or_default();
                e.1 += 1;
                if hw == (0, 0) {
                    e.0 += 1;
                } else {
                    failures.push(format!("{name} [{op} #{i}]: .cg counters read {hw:?}"));
                }
                continue;
            }
            Instr::Ldgsts { .. } => {
                let g = global_addrs(p, op, i, &smem);
                let with_global = analyze_warp_g2s(instr, &smem, &g).expect("model");
                if !op.ends_with("_gm") && !op.ends_with("_gx") {
                    // a coalesced read: the model without global addresses agrees
                    let plain = analyze_warp(instr, &smem).expect("model");
                    assert_eq!(
                        (plain.wavefronts, plain.conflicts),
                        (with_global.wavefronts, with_global.conflicts),
                        "{name}: coalesced global side"
                    );
                }
                with_global
            }
            _ => analyze_warp(instr, &smem).expect("model"),
        };
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

/// cp.async (LDGSTS) and 8/16-bit LDS/STS: the expression corpus, the byte-level and
/// phase probes, random patterns, and cp.async probes that vary the global side.
#[test]
fn model_matches_h100_on_cp_async_and_narrow_accesses() {
    let n = check_fixture("hw/ext-corpus.jsonl", "hw/fixtures/ext-measured.jsonl");
    assert!(
        n >= 150,
        "the new corpus must hold at least 150 measured patterns"
    );
    for c in ["probe-ext", "probe-gx"] {
        check_fixture(
            &format!("hw/{c}-corpus.jsonl"),
            &format!("hw/fixtures/{c}-measured.jsonl"),
        );
    }
}

/// The corpora are exactly what today's core derives from the pattern expressions (so the
/// fixtures stay meaningful when the core changes).
#[test]
fn corpus_is_current() {
    corpus_matches("hw/corpus.jsonl", "hw/patterns.txt");
    corpus_matches("hw/ext-corpus.jsonl", "hw/patterns-ext.txt");
}

fn corpus_matches(corpus_path: &str, patterns_path: &str) {
    let corpus = jsonl(corpus_path);
    let patterns = std::fs::read_to_string(root().join(patterns_path)).expect("patterns");
    let mut n = 0;
    for line in patterns
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (name, expr) = line.split_once('\t').expect("NAME<TAB>EXPR");
        let rec = corpus
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name} missing from {corpus_path}"));
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
        "{patterns_path} and {corpus_path} list the same patterns"
    );
}
