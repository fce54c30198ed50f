//! The function table of `docs/expressions.md` is the op table: one row per op, in table
//! order, with its spellings, parameters and meaning. `UPDATE_DOCS=1 cargo test -p cute-core
//! --test op_table_docs` rewrites the section after a change to the table.

use cute_lang::{Targs, OPS};

const BEGIN: &str = "<!-- op table: generated from crates/cute-lang/src/ops.rs -->";
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

#[test]
fn docs_function_table_is_the_op_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/expressions.md");
    let doc = std::fs::read_to_string(&path).expect("docs/expressions.md");
    let want = format!("{BEGIN}\n{}{END}", table());
    let (start, end) = match (doc.find(BEGIN), doc.find(END)) {
        (Some(s), Some(e)) => (s, e + END.len()),
        _ => (doc.len(), doc.len()),
    };
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let mut new = doc[..start].to_string();
        if start == doc.len() {
            new.push_str("\n## Functions (the op table)\n\n");
        }
        new.push_str(&want);
        new.push_str(&doc[end..]);
        std::fs::write(&path, new).expect("write docs");
        return;
    }
    assert!(
        start < doc.len(),
        "docs/expressions.md has no op table section (UPDATE_DOCS=1)"
    );
    assert_eq!(
        doc[start..end],
        want,
        "the docs' function table differs from the op table (UPDATE_DOCS=1)"
    );
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
