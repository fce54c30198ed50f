//! What lists the language's names is generated from its tables: the function and type
//! tables of `docs/reference/functions.md` (one row per op / class template, in table order, with
//! spellings, parameters and meaning) and the names of the fuzz dictionary
//! (`fuzz/cute.dict`). `UPDATE_DOCS=1 cargo test -p cute-lang --test op_table_docs`
//! rewrites the generated sections after a change to a table.

use cute_lang::{Targs, KEYWORDS, NAMESPACES, OPS, TYPES};
use std::path::{Path, PathBuf};

const BEGIN: &str = "<!-- op table: generated from crates/cute-lang/src/ops/mod.rs -->";
const END: &str = "<!-- end of op table -->";

fn table() -> String {
    let mut out = String::from(
        "| function | also spelled | parameters | template arguments | algebra view | meaning |\n|---|---|---|---|---|---|\n",
    );
    for op in OPS {
        let spellings: Vec<String> = op.spellings.iter().map(|s| format!("`{s}`")).collect();
        let targs = match op.targs {
            Targs::No => "",
            Targs::Prepend => "before the arguments",
            Targs::Append => "after the first argument",
        };
        out.push_str(&format!(
            "| `{}` | {} | `{}` | {} | {} | {} |\n",
            op.name,
            spellings.join(" "),
            op.params.replace('|', "\\|"),
            targs,
            if op.algebra { "yes" } else { "" },
            op.meaning.replace('|', "\\|"),
        ));
    }
    out
}

fn type_table() -> String {
    let mut out = String::from(
        "| type | also spelled | template parameters | meaning |\n|---|---|---|---|\n",
    );
    for t in TYPES {
        let spellings: Vec<String> = t.spellings.iter().map(|s| format!("`{s}`")).collect();
        out.push_str(&format!(
            "| `{}` | {} | `{}` | {} |\n",
            t.name,
            spellings.join(" "),
            t.params.replace('|', "\\|"),
            t.meaning.replace('|', "\\|"),
        ));
    }
    let ns: Vec<String> = NAMESPACES.iter().map(|n| format!("`{n}`")).collect();
    out.push_str(&format!(
        "\nNamespace qualifiers read through (a name means the same without them): {}.\n",
        ns.join(" ")
    ));
    out
}

/// Every name of the tables as a libFuzzer dictionary entry: `"f("` per op spelling,
/// `"T<"` per type spelling, `"K"` per keyword.
fn dictionary() -> String {
    let mut out = String::new();
    for op in OPS {
        for n in std::iter::once(&op.name).chain(op.spellings) {
            out.push_str(&format!("\"{n}(\"\n"));
        }
    }
    for t in TYPES {
        for n in std::iter::once(&t.name).chain(t.spellings) {
            out.push_str(&format!("\"{n}<\"\n"));
        }
    }
    for k in KEYWORDS {
        out.push_str(&format!("\"{k}\"\n"));
    }
    out
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// The section of `path` between `begin` and `end` is `body` (or, with `UPDATE_DOCS`, is
/// made so; a missing section is appended under `heading`).
fn generated_section(path: &str, begin: &str, end: &str, heading: &str, body: &str) {
    // Two sections live in one file: their read-modify-writes must not interleave (the
    // tests run in parallel).
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let path = repo(path);
    let doc = std::fs::read_to_string(&path).expect("readable");
    let want = format!("{begin}\n{body}{end}");
    let (start, stop) = match (doc.find(begin), doc.find(end)) {
        (Some(s), Some(e)) => (s, e + end.len()),
        _ => (doc.len(), doc.len()),
    };
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let mut new = doc[..start].to_string();
        if start == doc.len() {
            new.push_str(heading);
        }
        new.push_str(&want);
        new.push_str(&doc[stop..]);
        std::fs::write(&path, new).expect("write");
        return;
    }
    assert!(
        start < doc.len(),
        "{} has no section {begin} (UPDATE_DOCS=1)",
        path.display()
    );
    assert_eq!(
        doc[start..stop],
        want,
        "{}: the generated section differs from the table (UPDATE_DOCS=1)",
        path.display()
    );
}

#[test]
fn docs_function_table_is_the_op_table() {
    generated_section(
        "docs/reference/functions.md",
        BEGIN,
        END,
        "\n## Functions (the op table)\n\n",
        &table(),
    );
}

#[test]
fn docs_type_table_is_the_type_table() {
    generated_section(
        "docs/reference/functions.md",
        "<!-- type table: generated from crates/cute-lang/src/types/table.rs -->",
        "<!-- end of type table -->",
        "\n## Class templates and type traits (the type table)\n\n",
        &type_table(),
    );
}

#[test]
fn fuzz_dictionary_names_every_table_entry() {
    generated_section(
        "fuzz/cute.dict",
        "# names: generated from the op, type and keyword tables (cute-lang tests/op_table_docs.rs)",
        "# end of names",
        "\n",
        &dictionary(),
    );
    // The hand-written part holds syntax and whole examples, not the names again.
    let dict = std::fs::read_to_string(repo("fuzz/cute.dict")).expect("readable");
    let generated: std::collections::HashSet<&str> = dictionary().leak().lines().collect();
    let names_at = dict.find("# names:").unwrap_or(dict.len());
    for line in dict[..names_at].lines() {
        assert!(
            !generated.contains(line),
            "fuzz/cute.dict lists {line} by hand too"
        );
    }
}

/// Every spelling names one type.
#[test]
fn type_spellings_are_unique() {
    let mut seen = std::collections::HashSet::new();
    for t in TYPES {
        for n in std::iter::once(&t.name).chain(t.spellings) {
            assert!(seen.insert(*n), "{n} is spelled by two types");
        }
    }
}

/// Every spelling names one op: no name is claimed twice.
#[test]
fn spellings_are_unique() {
    let mut seen = std::collections::HashSet::new();
    for op in OPS {
        for n in std::iter::once(&op.name).chain(op.spellings) {
            assert!(seen.insert(*n), "{n} is spelled by two ops");
        }
    }
}

/// No row calls another row by its name: the language's sources look up names only where
/// the name comes from the user's text (`lookup(name)`), never a literal (`lookup("size")`),
/// so renaming an op cannot leave a call that compiles and fails later.
#[test]
fn no_op_is_dispatched_by_a_literal_name() {
    let mut dirs = vec![repo("crates/cute-lang/src")];
    let mut files = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 10, "the language's sources: {files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        // Doc comments may show calls, and unit tests may compare against the evaluator;
        // code may not make them.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let code = code.lines().filter(|l| !l.trim_start().starts_with("//"));
        for line in code {
            // session.rs defines the entry points the rest may not re-enter.
            let reentry: &[&str] = if path.ends_with("session.rs") {
                &[]
            } else {
                &["eval_line(", "run_script("]
            };
            for pat in ["lookup(\"", "lookup_type(\""].iter().chain(reentry) {
                assert!(
                    !line.contains(pat),
                    "{}: `{}` dispatches by name or re-enters the evaluator",
                    path.display(),
                    line.trim()
                );
            }
        }
    }
}
