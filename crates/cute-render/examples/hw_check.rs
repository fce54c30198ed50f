//! Compare the bank model with a measured fixture: `cargo run -p cute-render --example
//! hw_check -- CORPUS.jsonl MEASURED.jsonl` prints every mismatch and a per-op summary;
//! exit status 1 if any instruction disagrees, 2 on bad input.

use cute_core::bank::{analyze_warp, Instr};
use serde_json::Value as Json;
use std::collections::{BTreeMap, HashMap};

fn fail(msg: String) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(2)
}

fn read(p: &str) -> Vec<Json> {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| fail(format!("{p}: {e}")));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| fail(format!("{p}: {e}"))))
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [corpus, measured] = args.as_slice() else {
        fail("usage: hw_check CORPUS.jsonl MEASURED.jsonl".into())
    };
    let corpus = read(corpus);
    let by: HashMap<&str, &Json> = corpus
        .iter()
        .filter_map(|p| Some((p["name"].as_str()?, p)))
        .collect();
    let mut per: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    let mut bad = 0;
    for m in read(measured).iter().filter(|m| m.get("header").is_none()) {
        let name = m["name"].as_str().unwrap_or_default();
        let Some(p) = by.get(name) else {
            fail(format!("measured pattern {name} is not in the corpus"))
        };
        let op = p["op"].as_str().unwrap_or_default();
        // `_gm`: the cp.async read global memory at the shared offsets (same instruction)
        let Some(instr) = Instr::from_op_name(op.strip_suffix("_gm").unwrap_or(op)) else {
            fail(format!("{name}: unknown op {op}"))
        };
        let i = m["instr"].as_u64().unwrap_or(u64::MAX) as usize;
        let Some(lanes) = p["instrs"].get(i).and_then(|a| a.as_array()) else {
            fail(format!("{name}: no instruction {i} in the corpus"))
        };
        let addrs: Vec<Option<u64>> = lanes
            .iter()
            .map(|a| a.as_i64().and_then(|a| u64::try_from(a).ok()))
            .collect();
        let w = analyze_warp(instr, &addrs).unwrap_or_else(|e| fail(format!("{name}: {e}")));
        let model = (w.wavefronts, w.conflicts);
        let hw = (
            m["wavefronts"].as_u64().map(|v| v as u32),
            m["bank_conflicts"].as_u64().map(|v| v as u32),
        );
        let e = per.entry(op.to_string()).or_default();
        e.1 += 1;
        if (Some(model.0), Some(model.1)) == hw {
            e.0 += 1;
        } else {
            bad += 1;
            println!(
                "MISMATCH {name} #{i} {op}: model (wavefronts, conflicts) {model:?}, hw {hw:?}  addrs {}",
                p["instrs"][i]
            );
        }
    }
    for (op, (ok, n)) in per {
        println!("{op:<14} {ok}/{n}");
    }
    if bad > 0 {
        std::process::exit(1);
    }
}
