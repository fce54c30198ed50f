//! Turn `hw/patterns.txt` (NAME<TAB>bank_conflicts(...)) into `hw/corpus.jsonl`: the exact
//! per-lane byte addresses of every warp instruction, which the CUDA harness in `hw/`
//! replays on the GPU. Warp 0 only (every warp of a pattern runs the same kind of code;
//! the hardware harness runs one warp). `coalescing(...)` lines (`hw/gmem/patterns.txt`)
//! give the first [`GMEM_INSTRS`] instructions of the tile, whichever warp: where a global
//! tile starts inside a line, warps differ.
//!
//! Run: `cargo run -p cute-render --example hw_corpus -- hw/patterns.txt > hw/corpus.jsonl`

use cute_core::bank::BankReport;
use cute_core::swizzle::AnyLayout;
use cute_core::IntTuple;
use cute_lang::Value;
use serde_json::{json, Value as Json};

fn tuple_json(t: &IntTuple) -> Json {
    match t {
        IntTuple::Int(v) | IntTuple::Dyn(v) => json!(v),
        IntTuple::Tuple(ts) => Json::Array(ts.iter().map(tuple_json).collect()),
    }
}

fn record(name: &str, expr: &str, r: &BankReport) -> Json {
    let (layout, swizzle, offset) = match &r.smem {
        AnyLayout::Layout(l) => (l, Json::Null, 0),
        AnyLayout::Composed(c) => (
            &c.layout,
            json!([c.swizzle.b, c.swizzle.m, c.swizzle.s]),
            c.offset.value(),
        ),
    };
    let instrs: Vec<&cute_core::bank::WarpInstr> =
        r.instrs.iter().filter(|i| i.warp == 0).collect();
    json!({
        "name": name,
        "expr": expr,
        "op": r.instr.op_name(),
        "bits": r.elem_bits,
        "smem": r.smem.to_string(),
        "smem_shape": tuple_json(layout.shape()),
        "smem_stride": tuple_json(layout.stride()),
        "swizzle": swizzle,
        "offset": offset,
        "tv": r.tv.to_string(),
        "tv_shape": tuple_json(r.tv.shape()),
        "tv_stride": tuple_json(r.tv.stride()),
        "vec": r.vec,
        "threads": r.threads,
        "instrs": instrs.iter().map(|i| {
            i.addrs.iter().map(|a| a.map_or(-1, |a| a as i64)).collect::<Vec<_>>()
        }).collect::<Vec<_>>(),
        "model_wavefronts": instrs.iter().map(|i| i.wavefronts).collect::<Vec<_>>(),
    })
}

/// Instructions of a coalescing pattern the hardware replays.
const GMEM_INSTRS: usize = 4;

fn gmem_record(name: &str, expr: &str, r: &cute_core::gmem::CoalesceReport) -> Json {
    let instrs = &r.instrs[..r.instrs.len().min(GMEM_INSTRS)];
    json!({
        "name": name,
        "expr": expr,
        "op": r.op.op_name(),
        "bits": r.elem_bits,
        "gmem": r.gmem.to_string(),
        "base": r.base,
        "tv": r.tv.to_string(),
        "vec": r.vec,
        "threads": r.threads,
        "instrs": instrs.iter().map(|i| {
            i.addrs.iter().map(|a| a.map_or(-1, |a| a as i64)).collect::<Vec<_>>()
        }).collect::<Vec<_>>(),
        "model_sectors": instrs.iter().map(|i| i.sectors).collect::<Vec<_>>(),
    })
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "hw/patterns.txt".into());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("error: cannot read {path}: {e}");
        std::process::exit(2)
    });
    let mut bad = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let Some((name, expr)) = line.split_once('\t') else {
            eprintln!("error: not NAME<TAB>EXPR: {line}");
            bad += 1;
            continue;
        };
        match cute_lang::eval_line(expr) {
            Ok(Value::Banks(r)) => println!("{}", record(name, expr, &r)),
            Ok(Value::Coalesce(r)) => println!("{}", gmem_record(name, expr, &r)),
            Ok(v) => {
                eprintln!("error: {name}: not a bank or coalescing analysis: {v}");
                bad += 1;
            }
            Err(e) => {
                eprintln!("error: {name}: {e}");
                bad += 1;
            }
        }
    }
    if bad > 0 {
        std::process::exit(1);
    }
}
