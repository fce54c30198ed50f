//! The shape of the house, read from the sources: no circle of files inside the language
//! crate or among the core's modules, and the language's layers in one direction
//! (syntax and values at the bottom, then `ops/`, `types/`, `eval`, `session`, `kernel`).
//!
//! A file's imports are the `crate::…` and `super::…` paths it names outside its tests
//! (`use` lines, brace groups included, and paths written in place), each taken to the
//! deepest module file it reaches. A module file that only declares and re-exports its
//! children (`ops/mod.rs` calling its rows is fine) is a node like any other, so a child
//! that imports from its parent's file closes a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every `.rs` file under `root`, as its module path (`ops::atoms`; `lib` for the root).
fn modules(root: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, PathBuf>) {
        for e in std::fs::read_dir(dir).expect("readable source dir") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                walk(&p, root, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(root).expect("under root").with_extension("");
                let mut parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if parts.last().is_some_and(|l| l == "mod") {
                    parts.pop();
                }
                if parts == ["main"] {
                    continue;
                }
                out.insert(parts.join("::"), p);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// The source without comments, string literals and its `#[cfg(test)]` tail.
fn code(src: &str) -> String {
    let src = match src.find("#[cfg(test)]") {
        Some(i) => &src[..i],
        None => src,
    };
    let mut out = String::with_capacity(src.len());
    for line in src.lines() {
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        // Paths never sit inside string literals we care about; drop them crudely.
        let mut in_str = false;
        let mut prev = ' ';
        for c in line.chars() {
            if c == '"' && prev != '\\' {
                in_str = !in_str;
            } else if !in_str {
                out.push(c);
            }
            prev = c;
        }
        out.push('\n');
    }
    out
}

/// The paths a file names from `start` (`crate` or `super`), brace groups expanded:
/// `crate::{a::B, c}` gives `a::B` and `c`.
fn paths_after(code: &str, start: &str) -> Vec<Vec<String>> {
    fn ident_at(s: &[u8], mut i: usize) -> (String, usize) {
        let b = i;
        while i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
            i += 1;
        }
        (String::from_utf8_lossy(&s[b..i]).into_owned(), i)
    }
    fn skip_ws(s: &[u8], mut i: usize) -> usize {
        while i < s.len() && s[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    }
    /// Reads a path tree at `i` (after `prefix::`), pushing every leaf path.
    fn tree(s: &[u8], i: usize, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
        let i = skip_ws(s, i);
        if i < s.len() && s[i] == b'{' {
            let mut i = i + 1;
            loop {
                i = skip_ws(s, i);
                if i >= s.len() || s[i] == b'}' {
                    return i + 1;
                }
                if s[i] == b',' {
                    i += 1;
                    continue;
                }
                let depth = prefix.len();
                i = tree(s, i, prefix, out);
                prefix.truncate(depth);
            }
        }
        let (id, mut j) = ident_at(s, i);
        if id.is_empty() {
            out.push(prefix.clone());
            return j.max(i + 1);
        }
        prefix.push(id);
        if s.get(j..j + 2) == Some(b"::") {
            j += 2;
            return tree(s, j, prefix, out);
        }
        out.push(prefix.clone());
        j
    }
    let s = code.as_bytes();
    let mut out = Vec::new();
    let pat = format!("{start}::");
    let mut from = 0;
    while let Some(k) = code[from..].find(&pat) {
        let at = from + k;
        let boundary = at == 0 || {
            let c = s[at - 1];
            !(c.is_ascii_alphanumeric() || c == b'_' || c == b':')
        };
        from = at + pat.len();
        if boundary {
            let mut prefix = Vec::new();
            from = tree(s, from, &mut prefix, &mut out).max(from);
        }
    }
    out
}

/// Which module files each module file imports.
fn graph(root: &Path) -> Graph {
    let mods = modules(root);
    let mut g = Graph::new();
    for (m, path) in &mods {
        let src = std::fs::read_to_string(path).expect("readable source");
        let code = code(&src);
        let parent: Vec<&str> = if m == "lib" {
            vec![]
        } else {
            let mut p: Vec<&str> = m.split("::").collect();
            p.pop();
            p
        };
        let mut deps = BTreeSet::new();
        let mut add = |base: Vec<String>| {
            // The deepest module the path reaches; a path to an item of the root is `lib`.
            let mut target = "lib".to_string();
            for n in 1..=base.len() {
                let cand = base[..n].join("::");
                if mods.contains_key(&cand) {
                    target = cand;
                }
            }
            if &target != m {
                deps.insert(target);
            }
        };
        for p in paths_after(&code, "crate") {
            add(p);
        }
        for p in paths_after(&code, "super") {
            let mut full: Vec<String> = parent.iter().map(|s| s.to_string()).collect();
            full.extend(p);
            add(full);
        }
        // A parent names its children by relative paths (`use copies::*`, `rows::f()`).
        let here: Vec<String> = if m == "lib" {
            vec![]
        } else {
            m.split("::").map(str::to_string).collect()
        };
        for child in mods.keys() {
            let Some(name) = child
                .strip_prefix(&format!("{}::", here.join("::")))
                .or_else(|| here.is_empty().then_some(child.as_str()))
            else {
                continue;
            };
            if name.contains("::") {
                continue;
            }
            for p in paths_after(&code, name)
                .into_iter()
                .chain(paths_after(&code, &format!("self::{name}")))
            {
                let mut full = here.clone();
                full.push(name.to_string());
                full.extend(p);
                add(full);
            }
        }
        g.insert(m.clone(), deps);
    }
    g
}

/// The circles of the graph (strongly connected components of more than one file).
fn circles(g: &Graph) -> Vec<Vec<String>> {
    // Tarjan's algorithm, iteration order fixed by the BTreeMap.
    struct T<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    impl<'a> T<'a> {
        fn visit(&mut self, v: &'a str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on.insert(v);
            for w in self.g.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let l = self.low[v].min(self.low[w]);
                    self.low.insert(v, l);
                } else if self.on.contains(w) {
                    let l = self.low[v].min(self.index[w]);
                    self.low.insert(v, l);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    comp.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

fn src(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(krate)
        .join("src")
}

fn describe(g: &Graph, circle: &[String]) -> String {
    circle
        .iter()
        .map(|m| {
            let deps: Vec<&str> = g[m]
                .iter()
                .filter(|d| circle.contains(d))
                .map(String::as_str)
                .collect();
            format!("  {m} -> {}", deps.join(", "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Fails, naming every file of every circle and its imports inside the circle, when the
/// crate's files (those `keep` accepts a circle of) import each other in a circle.
fn assert_no_circle(krate: &str, keep: impl Fn(&[String]) -> bool) {
    let g = graph(&src(krate));
    let cs: Vec<Vec<String>> = circles(&g).into_iter().filter(|c| keep(c)).collect();
    assert!(
        cs.is_empty(),
        "import circles in {krate}:\n{}",
        cs.iter()
            .map(|c| describe(&g, c))
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

#[test]
fn no_circle_of_files_in_the_language() {
    assert_no_circle("cute-lang", |_| true);
}

#[test]
fn the_language_calls_down_only() {
    // Each layer, bottom first; a file may import its own layer or one below.
    const LAYERS: &[&[&str]] = &[
        &["lex", "block", "host", "parse"],
        &["value", "words", "convert"],
        &["ops"],
        &["types"],
        &["eval"],
        &["session"],
        &["kernel"],
        &["lib"],
    ];
    let layer = |m: &str| {
        let top = m.split("::").next().unwrap_or(m);
        LAYERS
            .iter()
            .position(|l| l.contains(&top))
            .unwrap_or_else(|| panic!("module {m} is in no layer: add it to LAYERS"))
    };
    let g = graph(&src("cute-lang"));
    let mut up = Vec::new();
    for (m, deps) in &g {
        for d in deps {
            if m != "lib" && layer(d) > layer(m) {
                up.push(format!("{m} -> {d}"));
            }
        }
    }
    assert!(
        up.is_empty(),
        "imports that run up a layer:\n{}",
        up.join("\n")
    );
}

#[test]
fn no_circle_of_files_in_the_core() {
    // The algebra's own modules (int_tuple, layout and the steps it reports in trace,
    // literal, swizzle, error) are one vocabulary; the hardware modules above them must
    // not form a circle.
    const ALGEBRA: &[&str] = &[
        "error",
        "int_tuple",
        "layout",
        "trace",
        "literal",
        "swizzle",
        "lib",
    ];
    assert_no_circle("cute-core", |c| {
        c.iter().any(|m| !ALGEBRA.contains(&m.as_str()))
    });
}

#[test]
fn the_reader_sees_braces_and_super() {
    let code = "use crate::{a::B, c::{d, e::F}};\nfn f() { super::g::h(); crate::x::y }";
    assert_eq!(
        paths_after(code, "crate"),
        vec![
            vec!["a", "B"],
            vec!["c", "d"],
            vec!["c", "e", "F"],
            vec!["x", "y"],
        ]
    );
    assert_eq!(paths_after(code, "super"), vec![vec!["g", "h"]]);
}

#[test]
fn no_circle_of_files_in_the_renderer() {
    // The views' dispatcher (`views/mod.rs`) calls the views; they share `views/common.rs`
    // and never import the dispatcher back.
    assert_no_circle("cute-render", |_| true);
}
