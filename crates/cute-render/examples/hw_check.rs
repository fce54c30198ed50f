//! Compare the bank model with a measured fixture: `cargo run -p cute-render --example
//! hw_check -- CORPUS.jsonl MEASURED.jsonl` prints every mismatch and a per-op summary.

use cute_core::bank::{analyze_warp, Instr};
use serde_json::Value as Json;
use std::collections::{BTreeMap, HashMap};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (corpus, measured) = match args.as_slice() {
        [c, m] => (c, m),
        _ => {
            eprintln!("usage: hw_check CORPUS.jsonl MEASURED.jsonl");
            std::process::exit(2)
        }
    };
    let read = |p: &str| -> Vec<Json> {
        std::fs::read_to_string(p)
            .unwrap_or_else(|e| panic!("{p}: {e}"))
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect()
    };
    let corpus = read(corpus);
    let by: HashMap<String, &Json> = corpus
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_string(), p))
        .collect();
    let mut per: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for m in read(measured).iter().filter(|m| m.get("header").is_none()) {
        let p = by[m["name"].as_str().unwrap()];
        let op = p["op"].as_str().unwrap();
        let name = match op {
            "ld32" => "LDS32".to_string(),
            "ld64" => "LDS64".into(),
            "ld128" => "LDS128".into(),
            "st32" => "STS32".into(),
            "st64" => "STS64".into(),
            "st128" => "STS128".into(),
            o => o.to_string(),
        };
        let instr = Instr::parse(&name).expect("op");
        let i = m["instr"].as_u64().unwrap() as usize;
        let addrs: Vec<Option<u64>> = p["instrs"][i]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                let a = a.as_i64().unwrap();
                (a >= 0).then_some(a as u64)
            })
            .collect();
        let w = analyze_warp(instr, &addrs).expect("model");
        let model = (w.wavefronts, w.conflicts);
        let hw = (
            m["wavefronts"].as_u64().unwrap() as u32,
            m["bank_conflicts"].as_u64().unwrap() as u32,
        );
        let e = per.entry(op.to_string()).or_default();
        e.1 += 1;
        if model == hw {
            e.0 += 1;
        } else {
            println!("MISMATCH {} #{i} {op}: model (wavefronts, conflicts) {model:?}, hw {hw:?}  addrs {:?}", m["name"], p["instrs"][i]);
        }
    }
    for (op, (ok, n)) in per {
        println!("{op:<10} {ok}/{n}");
    }
}
