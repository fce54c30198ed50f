//! Malformed and hostile input: every line must give `error: …` with a message, never a
//! panic, a hang or an unbounded allocation. Heavy but valid lines must answer exactly.

use std::panic;
use std::path::PathBuf;

fn data(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../cute-core/tests/data")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

#[test]
fn every_bad_line_is_a_clear_error() {
    let text = data("bad-inputs.txt");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() >= 200,
        "the corpus has {} lines, want ≥ 200",
        lines.len()
    );
    let mut bad = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let got = panic::catch_unwind(|| cute_core::print_one(line));
        match got {
            Err(_) => bad.push(format!("line {}: PANIC on {line:.80}", i + 1)),
            Ok((text, ok)) => {
                let msg = text.strip_prefix("error: ").unwrap_or("");
                if ok || msg.len() < 8 {
                    bad.push(format!("line {}: {line:.80} -> {text:.120}", i + 1));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} lines did not give a clear error:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn parse_errors_name_the_column() {
    for (src, col) in [
        ("composition((6,2):(8,2), (4,3):(3,1)", 37),
        ("(2,3):(1,2))", 12),
        ("8::1", 4),
        ("size(8:1 8:1)", 10),
        ("(4,8)：(8,1)", 6),
    ] {
        let (text, ok) = cute_core::print_one(src);
        assert!(!ok, "{src}");
        assert!(
            text.ends_with(&format!("(column {col})")),
            "{src} -> {text}"
        );
    }
}

#[test]
fn heavy_valid_lines_answer_exactly() {
    let text = data("heavy-valid.txt");
    let mut n = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (expr, expect) = line
            .split_once('\t')
            .unwrap_or_else(|| panic!("no tab in {line}"));
        let (got, _) = cute_core::print_one(expr);
        assert_eq!(got, expect, "{expr}");
        n += 1;
    }
    assert!(n >= 20, "only {n} heavy lines");
}

#[test]
fn every_listed_function_is_implemented() {
    for f in cute_core::expr::function_names() {
        let (text, ok) = cute_core::print_one(&format!("{f}()"));
        assert!(text.starts_with("error: ") || ok, "{f}() -> {text}");
        let (text, _) = cute_core::print_one(&format!(
            "{f}(8:1, 8:1, 8:1, 8:1, 8:1, 8:1, 8:1, 8:1, 8:1, 8:1)"
        ));
        assert!(!text.contains("unknown function"), "{f} -> {text}");
    }
}

/// Inputs the fuzzer flagged (crashes, timeouts), replayed as scripts: each must finish
/// with one `error: …` or value line per evaluated line and no panic.
#[test]
fn fuzz_findings_replay() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../cute-core/tests/data/fuzz");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("fuzz findings directory") {
        let path = entry.expect("entry").path();
        if path.file_name().is_some_and(|n| n == "README") {
            continue;
        }
        let bytes = std::fs::read(&path).expect("readable");
        let src = String::from_utf8_lossy(&bytes);
        let run = panic::catch_unwind(move || cute_core::print_script(&src));
        let out = run.unwrap_or_else(|_| panic!("panic on {}", path.display()));
        assert!(!out.is_empty(), "{} produced no output", path.display());
        n += 1;
    }
    assert!(n >= 1, "no fuzz findings to replay");
}

/// The C++ / CuTeDSL lines of the corpus (after its marker comment) are parse or evaluation
/// errors that name a column: unclosed templates and `decltype(`, wrong template arity,
/// unknown types and atoms, rejected majors, 10,000-deep nesting.
#[test]
fn pasted_code_errors_name_a_column() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../cute-core/tests/data/bad-inputs.txt"),
    )
    .expect("corpus");
    let marker = "# C++ and CuTeDSL spellings";
    let start = text.find(marker).expect("marker line");
    let lines: Vec<&str> = text[start..]
        .lines()
        .skip(1)
        .filter(|l| !l.is_empty())
        .collect();
    assert!(
        lines.len() >= 50,
        "only {} C++/DSL hostile lines",
        lines.len()
    );
    for line in lines {
        let (out, ok) = cute_core::print_one(line);
        assert!(!ok, "{line:.80} -> {out:.80}");
        assert!(out.contains("(column "), "{line:.80} -> {out:.120}");
    }
}

/// `Layout::offsets` refuses what it cannot give: more than its limit, or offsets beyond
/// i64 (checked before the first one is formed), never a wrapped value or a huge allocation.
#[test]
fn offsets_refuse_overflow_and_size() {
    let big: cute_core::Layout = format!("(2,2):(1,{})", i64::MAX / 2 + 1).parse().unwrap();
    assert!(big
        .offsets(0, 16)
        .unwrap_err()
        .to_string()
        .contains("overflow"));
    let many: cute_core::Layout = "(1048576,1048576):(1,1048576)".parse().unwrap();
    assert!(many
        .offsets(0, 1 << 20)
        .unwrap_err()
        .to_string()
        .contains("more than"));
}
