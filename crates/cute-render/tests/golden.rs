//! Differential tests against CuTe C++: every golden line, evaluated through the same code
//! path as `render --print -` (one script, one output line per expression).

use std::collections::BTreeMap;
use std::path::PathBuf;

struct Case {
    op: String,
    expr: String,
    expect: String,
}

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(path: &PathBuf) -> Vec<Case> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read golden data {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("valid JSON line");
            let s = |k: &str| {
                v[k].as_str()
                    .unwrap_or_else(|| panic!("missing {k} in {l}"))
                    .to_string()
            };
            Case {
                op: s("op"),
                expr: s("expr"),
                expect: s("expect"),
            }
        })
        .collect()
}

/// Runs all cases as one script through `print_script` and checks every line.
fn check(name: &str, cases: &[Case]) {
    assert!(!cases.is_empty(), "{name}: no cases");
    let script: String = cases.iter().map(|c| format!("{}\n", c.expr)).collect();
    let mut out = Vec::new();
    cute_render::print_script(&script, &mut out).expect("write to memory");
    let out = String::from_utf8(out).expect("utf-8");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.len(),
        cases.len(),
        "{name}: one output line per expression"
    );

    let mut per_op: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for (c, got) in cases.iter().zip(&lines) {
        let ok = if c.expect == "error" {
            got.starts_with("error: ")
        } else {
            *got == c.expect
        };
        let e = per_op.entry(&c.op).or_default();
        e.1 += 1;
        if ok {
            e.0 += 1;
        } else {
            failures.push(format!(
                "  {}\n    expect: {}\n    got:    {}",
                c.expr, c.expect, got
            ));
        }
    }
    println!("{name}: pass counts per op");
    for (op, (pass, total)) in &per_op {
        println!("  {op:<18} {pass:>5} / {total}");
    }
    let passed: usize = per_op.values().map(|p| p.0).sum();
    println!("  {:<18} {passed:>5} / {}", "TOTAL", cases.len());
    assert!(
        failures.is_empty(),
        "{name}: {} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn shared_reference_cases() {
    let path = std::env::var_os("CUTE_CASES")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared/reference/cute-cases.jsonl"));
    let cases = load(&path);
    assert_eq!(cases.len(), 4186, "the public corpus has 4186 lines");
    check("cute-cases.jsonl", &cases);
}

#[test]
fn oracle_generated_cases() {
    let cases = load(&repo_root().join("crates/cute-core/tests/data/oracle-cases.jsonl"));
    check("oracle-cases.jsonl", &cases);
}

/// Atom traits, copy atoms with value types, TiledMMA A/B/C and TiledCopy S/D thread-value
/// layouts, all printed by the real CuTe C++ headers (tools/oracle/atoms.py).
#[test]
fn atom_cases() {
    let cases = load(&repo_root().join("crates/cute-core/tests/data/atom-cases.jsonl"));
    assert!(
        cases.len() >= 1000,
        "atom corpus too small: {}",
        cases.len()
    );
    check("atom-cases.jsonl", &cases);
}

/// Every atom of the table answers every one of its traits (the table parses).
#[test]
fn every_atom_in_the_table_parses() {
    let mut n = 0;
    for name in cute_core::atom::atom_names() {
        let a = cute_core::atom::Atom::lookup(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(a.name(), name);
        n += 1;
    }
    assert!(n >= 150, "only {n} atoms");
}
