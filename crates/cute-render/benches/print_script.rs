//! `render --print -` throughput on the 4186-line reference corpus (the pycute comparison in
//! `bench/pycute_compare.py` times the whole process on the same lines).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn corpus_script() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/cute-cases.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("testdata/cute-cases.jsonl");
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("json");
            format!("{}\n", v["expr"].as_str().expect("expr"))
        })
        .collect()
}

fn bad_corpus() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/bad-inputs.txt");
    std::fs::read_to_string(path).expect("bad-inputs.txt")
}

fn bench(c: &mut Criterion) {
    let script = corpus_script();
    let lines = script.lines().count() as u64;
    let mut g = c.benchmark_group("print_script");
    g.throughput(Throughput::Elements(lines));
    g.bench_function("cute-cases (4186 lines)", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(1 << 18);
            cute_render::print_script(black_box(&script), &mut out).expect("in memory");
            out
        })
    });
    let bad = bad_corpus();
    g.throughput(Throughput::Elements(bad.lines().count() as u64));
    g.bench_function("bad-inputs corpus", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(1 << 16);
            cute_render::print_script(black_box(&bad), &mut out).expect("in memory");
            out
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
