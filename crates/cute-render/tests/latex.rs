//! LaTeX export against CuTe C++: every case of `testdata/latex-cases.jsonl` is
//! `print_latex(EXPR)` as the real headers print it (`tools/oracle/latex.py`); the export
//! must equal it byte for byte, but for the `_` of static integers in its `%` lines.

use cute_render::latex::latex;

/// C++'s `%` lines print static integers as `_8`; this project prints `8`.
fn without_static_marks(tex: &str) -> String {
    tex.split_inclusive('\n')
        .map(|line| {
            if !line.starts_with('%') {
                return line.to_string();
            }
            let chars: Vec<char> = line.chars().collect();
            chars
                .iter()
                .enumerate()
                .filter(|(i, c)| {
                    !(**c == '_' && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit()))
                })
                .map(|(_, c)| *c)
                .collect()
        })
        .collect()
}

#[test]
fn latex_equals_cpp_print_latex() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/latex-cases.jsonl"
    ))
    .unwrap();
    let (mut checked, mut refused) = (std::collections::BTreeMap::new(), 0);
    let mut failures = Vec::new();
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let (op, expr) = (case["op"].as_str().unwrap(), case["expr"].as_str().unwrap());
        let want = case["expect"].as_str().unwrap();
        let got = cute_lang::eval_line(expr).and_then(|v| latex(&v));
        if want == "error" {
            refused += 1;
            if let Ok(tex) = got {
                failures.push(format!(
                    "{expr}: C++ refuses it, the export printed {} bytes",
                    tex.len()
                ));
            }
            continue;
        }
        match got {
            Ok(tex) if tex == without_static_marks(want) => {
                *checked.entry(op.to_string()).or_insert(0) += 1;
            }
            Ok(tex) => {
                let want = without_static_marks(want);
                let at = tex
                    .lines()
                    .zip(want.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(tex.lines().count().min(want.lines().count()));
                failures.push(format!(
                    "{expr}: line {}:\n  got  {:?}\n  want {:?}",
                    at + 1,
                    tex.lines().nth(at).unwrap_or("<end>"),
                    want.lines().nth(at).unwrap_or("<end>")
                ));
            }
            Err(e) => failures.push(format!("{expr}: error {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let total: usize = checked.values().sum();
    assert!(total >= 50, "only {total} cases checked: {checked:?}");
    for op in ["layout", "tv", "mma", "copy"] {
        assert!(
            checked.get(op).copied().unwrap_or(0) >= 3,
            "{op}: {checked:?}"
        );
    }
    let _ = refused;
}
