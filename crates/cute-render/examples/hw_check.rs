//! Compare the bank model with a measured fixture: `cargo run -p cute-render --example
//! hw_check -- CORPUS.jsonl MEASURED.jsonl` prints every mismatch and a per-op summary;
//! exit status 1 if any instruction disagrees, 2 on bad input. (cp.async.cg, whose
//! shared-memory writes the H100's counters do not see, shows up as mismatches here; the
//! test `banks_hw` checks that its counters read 0.)

use cute_core::bank::{analyze_warp, analyze_warp_g2s, Instr};
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
        // cp.async ops: `_gm` read global memory at the shared offsets, `_gx` at `gaddrs`,
        // `_gxw` likewise after loading those lines into L1; otherwise at lane * size.
        let base = ["_gm", "_gx", "_gxw"]
            .iter()
            .find_map(|s| op.strip_suffix(s))
            .unwrap_or(op);
        let Some(instr) = Instr::from_op_name(base) else {
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
        let lanes_of = |v: &Json| -> Vec<Option<u64>> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .map(|x| x.as_i64().and_then(|x| u64::try_from(x).ok()))
                        .collect()
                })
                .unwrap_or_default()
        };
        let w = match instr {
            Instr::Ldgsts { .. } => {
                let g = if op.ends_with("_gm") {
                    addrs.clone()
                } else if op.ends_with("_gx") || op.ends_with("_gxw") {
                    lanes_of(&p["gaddrs"][i])
                } else {
                    let size = u64::from(instr.lane_bits() / 8);
                    (0..32u64).map(|l| Some(l * size)).collect()
                };
                analyze_warp_g2s(instr, &addrs, &g)
            }
            _ => analyze_warp(instr, &addrs),
        }
        .unwrap_or_else(|e| fail(format!("{name}: {e}")));
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
