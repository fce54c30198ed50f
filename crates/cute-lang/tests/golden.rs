//! Differential tests against CuTe C++: every golden line, evaluated through the same code
//! path as `render --print -` (one script, one output line per expression).

use std::collections::BTreeMap;
use std::path::PathBuf;

struct Case {
    op: String,
    expr: String,
    expect: String,
    /// The static_assert C++ fired, for an "error" line.
    msg: Option<String>,
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
                msg: v["msg"].as_str().map(str::to_string),
            }
        })
        .collect()
}

/// All cases as one script through `print_script` (the `render --print -` path): one
/// printed line per case.
fn printed(name: &str, cases: &[Case]) -> Vec<String> {
    let script: String = cases.iter().map(|c| format!("{}\n", c.expr)).collect();
    let lines: Vec<String> = cute_lang::print_script(&script)
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert_eq!(
        lines.len(),
        cases.len(),
        "{name}: one output line per expression"
    );
    lines
}

/// Runs all cases as one script through `print_script` and checks every line.
fn check(name: &str, cases: &[Case]) {
    assert!(!cases.is_empty(), "{name}: no cases");
    let lines = printed(name, cases);

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

/// Tensors: pointers, make_tensor, slicing, local_tile, local_partition, partition_A/B/C,
/// from tools/oracle/tensors.py.
#[test]
fn tensor_cases() {
    let cases = load(&repo_root().join("testdata/tensor-cases.jsonl"));
    check("tensor-cases.jsonl", &cases);
}

#[test]
fn reference_cases() {
    // The reference corpus, regenerated from the C++ headers by tools/oracle/corpus.py.
    let path = std::env::var_os("CUTE_CASES")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("testdata/cute-cases.jsonl"));
    let cases = load(&path);
    assert_eq!(cases.len(), 4186, "the reference corpus has 4186 lines");
    check("cute-cases.jsonl", &cases);
}

#[test]
fn oracle_generated_cases() {
    let cases = load(&repo_root().join("testdata/oracle-cases.jsonl"));
    check("oracle-cases.jsonl", &cases);
}

/// Basis strides (`E<i>{}`, `ScaledBasis`, their sums; layouts of them called, sliced,
/// composed, divided, coalesced, appended, their cosize, crd2idx and domain_offset;
/// counting tensors of coordinates and of integers, `make_coord_tensor`; C++'s
/// refusals), printed by the real CuTe C++ headers (`tools/oracle/basis.py`).
#[test]
fn basis_strides() {
    let cases = load(&repo_root().join("testdata/basis-cases.jsonl"));
    assert!(cases.len() >= 1400, "{} cases", cases.len());
    check("basis-cases.jsonl", &cases);
}

/// CUTLASS's SM90 mainloop `CollectiveBuilder<...>::CollectiveOp`: its smem layouts and
/// atoms, stage count, tiled MMA, TMA loads and schedule; the epilogue builder's
/// `sizeof(SharedStorage)`, tile, stages, atoms and TMA store, and a mainloop's carveout of
/// it; CUTLASS's refusals; as the real headers resolve them with nvcc 12.9's version macros
/// (`tools/oracle/builders.py`).
#[test]
fn collective_builders() {
    let cases = load(&repo_root().join("testdata/builder-cases.jsonl"));
    assert!(cases.len() >= 4000, "{} cases", cases.len());
    check("builder-cases.jsonl", &cases);
    check_messages("builder-cases.jsonl", &cases);
}

/// Every error line's static_assert message (the oracle's `msg`) is in the language's error.
fn check_messages(name: &str, cases: &[Case]) {
    let lines = printed(name, cases);
    let unnamed: Vec<_> = cases
        .iter()
        .zip(&lines)
        .filter_map(|(c, got)| {
            let msg = c.msg.as_deref().filter(|_| c.expect == "error")?;
            (!got.contains(msg)).then(|| format!("  {}\n    {msg}\n    {got}", c.expr))
        })
        .collect();
    assert!(
        unnamed.is_empty(),
        "{name}: errors without CUTLASS's words:\n{}",
        unnamed.join("\n")
    );
}

/// CUTLASS's Blackwell builders: SM100's dense TMA UMMA mainloop (1-SM and 2-SM, the
/// accumulator stages, the TMA loads of a CTA pair) and its epilogue (the TMEM load, the
/// epilogue tile, stages, atoms and `sizeof(SharedStorage)`, a mainloop's carveout of it),
/// SM120's F8F6F4 mainloop and its epilogue, and their refusals, each error naming CUTLASS's static_assert
/// (`tools/oracle/builders_sm1xx.py`, the newest CUTLASS's headers).
#[test]
fn blackwell_collective_builders() {
    let cases = load(&repo_root().join("testdata/builder-sm1xx-cases.jsonl"));
    assert!(cases.len() >= 3000, "{} cases", cases.len());
    check("builder-sm1xx-cases.jsonl", &cases);
    check_messages("builder-sm1xx-cases.jsonl", &cases);
}

/// CUTLASS's SM100 block-scaled mainloop builder (`OpClassBlockScaledTensorOp`: NVFP4,
/// MXFP4/6/8 and `cute::tuple<T, SF>` operands) and the epilogue builder under that
/// operator class (`tools/oracle/builders_blockscaled.py`, the newest CUTLASS's headers).
#[test]
fn blackwell_block_scaled_builders() {
    let cases = load(&repo_root().join("testdata/builder-blockscaled-cases.jsonl"));
    assert!(cases.len() >= 5000, "{} cases", cases.len());
    check("builder-blockscaled-cases.jsonl", &cases);
    check_messages("builder-blockscaled-cases.jsonl", &cases);
}

/// CUTLASS's SM120 block-scaled mainloop builder (GeForce Blackwell's `mma.sync` over
/// NVFP4, MXFP4/6/8 and `cute::tuple<T, SF>` operands, cooperative and pingpong) and the
/// SM120 epilogue builder under that operator class
/// (`tools/oracle/builders_sm120_blockscaled.py`, the newest CUTLASS's headers).
#[test]
fn geforce_blackwell_block_scaled_builders() {
    let cases = load(&repo_root().join("testdata/builder-sm120-blockscaled-cases.jsonl"));
    assert!(cases.len() >= 2000, "{} cases", cases.len());
    check("builder-sm120-blockscaled-cases.jsonl", &cases);
    check_messages("builder-sm120-blockscaled-cases.jsonl", &cases);
}

/// The epilogue builder's fusion argument: the default `LinearCombination` spelled out and
/// `LinCombEltAct<Act, ...>` on SM90's, SM100's and SM120's TMA epilogues (the same shared
/// memory as the default) and SM90's no-smem ones (refused), with the mainloops beside them
/// (`tools/oracle/builders_fusion.py`, the newest CUTLASS's headers).
#[test]
fn epilogue_fusions() {
    let cases = load(&repo_root().join("testdata/builder-fusion-cases.jsonl"));
    assert!(cases.len() >= 700, "{} cases", cases.len());
    check("builder-fusion-cases.jsonl", &cases);
    check_messages("builder-fusion-cases.jsonl", &cases);
}

/// The epilogue builder's fusions with buffers of their own (bias vectors, aux tensors,
/// per-column scalars, FP8 amax/aux, backward activations, block scale factors) on SM90's,
/// SM100's and SM120's TMA epilogues: `sizeof(SharedStorage)`, the epilogue tile, the
/// stages, and the mainloop that carves that storage out; CUTLASS's refusals in its words
/// (`tools/oracle/builders_fusion_buffers.py`, the newest CUTLASS's headers).
#[test]
fn epilogue_fusion_buffers() {
    let cases = load(&repo_root().join("testdata/builder-fusion-buffers-cases.jsonl"));
    assert!(cases.len() >= 1200, "{} cases", cases.len());
    check("builder-fusion-buffers-cases.jsonl", &cases);
    check_messages("builder-fusion-buffers-cases.jsonl", &cases);
}

/// The member types and constants of the epilogue fusions (every kind, defaults filled in)
/// and of the block-scaled configs' `SfAtom` / `LayoutSF`
/// (`tools/oracle/fusion_members.py`, the newest CUTLASS's headers).
#[test]
fn epilogue_fusion_members() {
    let cases = load(&repo_root().join("testdata/fusion-member-cases.jsonl"));
    assert!(cases.len() >= 5800, "{} cases", cases.len());
    check("fusion-member-cases.jsonl", &cases);
}

/// Which MMA op values C++ makes without template arguments (`SM90_64x64x16_F32F16F16_SS{}`
/// does not compile, `SM90_64x64x8_F32TF32TF32_SS_TN{}` does), and the member types of
/// tiled copies and copy atoms (`tools/oracle/spellings.py`).
#[test]
fn spellings() {
    let cases = load(&repo_root().join("testdata/spelling-cases.jsonl"));
    assert!(cases.len() >= 360, "{} cases", cases.len());
    check("spelling-cases.jsonl", &cases);
}

/// Tensor prints: a tensor composed with a shape, layout or tile, slices of tensors over
/// swizzled GMMA atoms, raw pointers (`static_cast<float*>(nullptr)`, `(T*)nullptr`), as
/// the real CuTe C++ headers print them (`tools/oracle/tensor_prints.py`).
#[test]
fn tensor_prints() {
    let cases = load(&repo_root().join("testdata/tensor-print-cases.jsonl"));
    assert!(cases.len() >= 200, "{} cases", cases.len());
    check("tensor-print-cases.jsonl", &cases);
}

/// `filter(layout, profile)`, printed by the real CuTe C++ headers
/// (`tools/oracle/gen.py --only filter --out testdata/filter-cases.jsonl`).
#[test]
fn filter_with_a_profile() {
    let cases = load(&repo_root().join("testdata/filter-cases.jsonl"));
    assert!(cases.len() >= 80, "{} cases", cases.len());
    check("filter-cases.jsonl", &cases);
}

/// Atom traits, copy atoms with value types, TiledMMA A/B/C and TiledCopy S/D thread-value
/// layouts, all printed by the real CuTe C++ headers (tools/oracle/atoms.py).
#[test]
fn atom_cases() {
    let cases = load(&repo_root().join("testdata/atom-cases.jsonl"));
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

/// FNV-1a, 64 bits (tools/oracle/atoms.py's `fnv1a64`).
fn fnv1a64(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The sparse GMMA rows, which the core derives from the dense rows as
/// `mma_traits_sm90_gmma_sparse.hpp` builds them (the table does not store them), print as
/// C++ printed them: every derived row, in order, against the digest of the C++ row.
#[test]
fn derived_sparse_gmma_rows_are_cpps() {
    use cute_core::atom::{Atom, Trait};
    let text = std::fs::read_to_string(repo_root().join("testdata/sparse-gmma-digests.txt"))
        .expect("sparse-gmma-digests.txt");
    let digests: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let names: Vec<&str> = cute_core::atom::atom_names()
        .filter(|n| n.starts_with("GMMA_64x"))
        .collect();
    assert_eq!(names.len(), digests.len(), "sparse GMMA rows");
    let layout = |a: &Atom, t: &str| match a.trait_value(t) {
        Ok(Trait::Layout(l)) => l.to_string(),
        r => panic!("{}: {t}: {r:?}", a.name()),
    };
    for (name, digest) in names.iter().zip(&digests) {
        let a = Atom::lookup(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let Atom::Mma(m) = &a else {
            panic!("{name} is a copy atom")
        };
        let row = format!(
            "mma\t{name}\tShape_MNK={}\tThrID={}\tALayout={}\tBLayout={}\tCLayout={}\tELayout={}",
            m.shape_mnk,
            m.thr_id,
            m.a,
            m.b,
            m.c,
            layout(&a, "ELayout")
        );
        assert_eq!(&format!("{:016x}", fnv1a64(&row)), digest, "{row}");
    }
    println!(
        "sparse GMMA rows derived = C++: {} / {}",
        names.len(),
        digests.len()
    );
}

/// Lines C++ compiles and prints but that are not layouts: the stride is not congruent to
/// the shape. C++ checks congruence only when such a value is used (indexing, size of the
/// codomain, any algebra), so printing is all it can do; here the construction itself is the
/// error, naming both tuples, since nothing can be drawn or computed from it.
const NOT_CONGRUENT: &[&str] = &[
    "make_layout(make_shape(_4{}, _8{}), make_stride(_1{}))",
    "make_layout(make_shape(_4{}, _8{}), make_stride(_1{}, make_stride(_4{}, _32{})))",
    "Layout<Shape<_8,_8>,Stride<_8>>{}",
];

/// C++ as pasted from kernels (tools/oracle/gen_paste.py): GMMA/UMMA atoms, tile_to_shape,
/// template-argument calls, traits, composed overloads, static arithmetic. Every line equals
/// C++ except the documented deviations above, which must be errors that say why.
#[test]
fn pasted_cpp_cases() {
    let cases = load(&repo_root().join("testdata/paste-cases.jsonl"));
    let (deviating, cases): (Vec<Case>, Vec<Case>) = cases
        .into_iter()
        .partition(|c| NOT_CONGRUENT.contains(&c.expr.as_str()));
    assert_eq!(
        deviating.len(),
        NOT_CONGRUENT.len(),
        "a deviation left the corpus"
    );
    for (c, got) in deviating.iter().zip(printed("deviations", &deviating)) {
        assert!(
            got.starts_with("error: ") && got.contains("not congruent"),
            "{}: expected a congruence error, got {got}",
            c.expr
        );
    }
    assert!(
        cases.len() >= 1700,
        "paste corpus too small: {}",
        cases.len()
    );
    check("paste-cases.jsonl", &cases);
}

/// C++ integers of both kinds (tools/oracle/gen_paste.py, categories dynamic and
/// dynamic_random): each expression is pasted as one C++ statement (`EXPR;`), where a plain
/// integer is a run-time `int` and `_8{}` a static one, as in C++.
#[test]
fn dynamic_cpp_cases() {
    let cases: Vec<Case> = load(&repo_root().join("testdata/paste-dynamic-cases.jsonl"))
        .into_iter()
        .map(|c| Case {
            expr: format!("{};", c.expr),
            ..c
        })
        .collect();
    assert!(
        cases.len() >= 500,
        "dynamic corpus too small: {}",
        cases.len()
    );
    check("paste-dynamic-cases.jsonl", &cases);
}

/// Real multi-line snippets harvested from CUTLASS (tools/oracle/snippets.py): the block's
/// last value equals what C++ prints.
#[test]
fn cutlass_snippets() {
    let text = std::fs::read_to_string(repo_root().join("testdata/snippets.jsonl"))
        .expect("snippets.jsonl");
    let mut passed = Vec::new();
    let mut total = 0;
    for l in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(l).expect("valid JSON line");
        let (name, code, expect) = (
            v["name"].as_str().expect("name"),
            v["code"].as_str().expect("code"),
            v["expect"].as_str().expect("expect"),
        );
        total += 1;
        match cute_lang::eval_block(code) {
            Ok(got) if got.to_string() == expect => passed.push(name.to_string()),
            Ok(got) => println!("  {name}: got {got:.80}, expect {expect:.80}"),
            Err(e) => println!("  {name}: error: {e:.120}"),
        }
    }
    println!(
        "snippets.jsonl: {}/{total} pass: {}",
        passed.len(),
        passed.join(", ")
    );
    assert!(total >= 40, "only {total} snippets");
    assert!(
        passed.len() >= SNIPPET_FLOOR,
        "{} snippets pass, fewer than {SNIPPET_FLOOR}",
        passed.len()
    );
}

const SNIPPET_FLOOR: usize = 119;

/// The atoms of the third table extension (sparse GMMA, SM100 SIMD, SM120, SM50 shuffles,
/// MOVM, the SM100 copies incl. TMEM load/store and UTCCP) and the templated SM100 UMMA /
/// SM120 families: traits, copy atoms with value types, TiledMMA and TiledCopy layouts, and
/// the instances C++ refuses, all printed by CuTe C++ (tools/oracle/atoms_ext.py).
#[test]
fn atom_ext_cases() {
    let cases = load(&repo_root().join("testdata/atom-ext-cases.jsonl"));
    assert!(
        cases.len() >= 1500,
        "extended atom corpus too small: {}",
        cases.len()
    );
    check("atom-ext-cases.jsonl", &cases);
}
