//! C++ host code in a pasted block, before parsing: the definitions a kernel's source
//! wraps its CuTe set-up in (a host function such as the tutorials' `gemm_tn(int m, ...)
//! { ... }`, a `__global__` kernel, a `struct`), the dead branches of `#if 0`, and the
//! launch code around a kernel (`dim3`, `cudaFuncSetAttribute`, `<<<...>>>`), which
//! configures a launch without being a CuTe value. Byte positions stay those of the
//! original text: what is taken out is blanked with spaces, newlines kept.

use std::borrow::Cow;
use std::ops::Range;

/// A definition found in a block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Definition {
    /// The function's or type's name.
    pub name: String,
    /// What it is.
    pub kind: DefinitionKind,
    /// Its header's first byte (after blanks) and its closing brace's.
    pub header: usize,
    /// The body's bytes, between the braces.
    pub body: Range<usize>,
    /// A host function's parameters, template parameters first.
    pub params: Vec<Param>,
}

/// What a [`Definition`] defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DefinitionKind {
    /// A host function: its body is evaluated, statement by statement.
    Host,
    /// A `__global__` or `__device__` function: its body runs on the GPU.
    Device,
    /// A `struct` or `class`.
    Type,
    /// A `namespace`: its braces go, its statements stay.
    Namespace,
}

/// One parameter of a host function (or of its template).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Param {
    /// Its name.
    pub name: String,
    /// Its type as written (`int`, `TA const*`; `class` for a template's type parameter).
    pub ty: String,
    /// Its default value as written.
    pub default: Option<String>,
    /// Its byte in the block.
    pub at: usize,
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Words that open a statement like a function's header but are control flow.
const CONTROL: &[&str] = &["if", "for", "while", "switch", "catch", "return", "sizeof"];

/// `code` (comments blanked) without the definitions' headers and braces, and the
/// definitions: a host function's body stays (its statements are evaluated), a device
/// function's or a type's is blanked whole.
pub(crate) fn definitions(code: &str) -> (Cow<'_, str>, Vec<Definition>) {
    if !code.contains('{') {
        return (Cow::Borrowed(code), Vec::new());
    }
    let b = code.as_bytes();
    let mut defs = Vec::new();
    let mut depth = 0i64;
    // Where the current top-level statement began.
    let mut boundary = 0;
    // The closing braces of the namespaces the scan is in (their bodies are scanned).
    let mut namespaces: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if namespaces.last() == Some(&i) {
            namespaces.pop();
            boundary = i + 1;
            i += 1;
            continue;
        }
        match b[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b';' if depth <= 0 => boundary = i + 1,
            // Only after `)` (a function's parameters, `const`) or a name (`struct S`) can
            // a brace open a definition: `Layout<...>{}` and `= {...}` are passed at once.
            b'{' if depth <= 0 && opens_definition(b, i) => {
                // A header is a few lines: a statement without `;` for pages is not one
                // (and is not scanned again for every brace).
                let from = boundary.max(i.saturating_sub(MAX_HEADER));
                let from = (from..=i).find(|&k| code.is_char_boundary(k)).unwrap_or(i);
                if let Some(def) = definition(code, from, i) {
                    let close = def.body.end;
                    if def.kind == DefinitionKind::Namespace {
                        // Its statements and definitions are the block's: scan them.
                        namespaces.push(close);
                        boundary = i + 1;
                        i += 1;
                    } else {
                        boundary = close + 1;
                        i = close + 1;
                    }
                    defs.push(def);
                    continue;
                }
                depth += 1;
            }
            b'{' => depth += 1,
            b'}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    if defs.is_empty() {
        return (Cow::Borrowed(code), defs);
    }
    let mut out = b.to_vec();
    let mut blank = |r: Range<usize>| {
        for k in r {
            if out[k] != b'\n' {
                out[k] = b' ';
            }
        }
    };
    for d in &defs {
        match d.kind {
            DefinitionKind::Host | DefinitionKind::Namespace => {
                blank(d.header..d.body.start);
                blank(d.body.end..d.body.end + 1);
            }
            DefinitionKind::Device | DefinitionKind::Type => {
                let mut end = d.body.end + 1;
                // A type's definition ends with `;`.
                while end < b.len() && b[end].is_ascii_whitespace() {
                    end += 1;
                }
                if b.get(end) == Some(&b';') {
                    end += 1;
                } else {
                    end = d.body.end + 1;
                }
                blank(d.header..end);
            }
        }
    }
    // Only ASCII bytes were replaced (whole lines of a header, braces): still UTF-8.
    (Cow::Owned(String::from_utf8(out).unwrap_or_default()), defs)
}

/// The longest header [`definitions`] reads before a brace, in bytes.
const MAX_HEADER: usize = 4096;

/// Whether the brace at `brace` follows `)` or an identifier (blanks aside).
fn opens_definition(b: &[u8], brace: usize) -> bool {
    b[..brace]
        .iter()
        .rev()
        .find(|c| !c.is_ascii_whitespace())
        .is_some_and(|&c| c == b')' || is_ident(c))
}

/// The definition whose body opens at `brace`, its header starting after `boundary`.
fn definition(code: &str, boundary: usize, brace: usize) -> Option<Definition> {
    let header_text = &code[boundary..brace];
    let header = boundary + (header_text.len() - header_text.trim_start().len());
    let text = code[header..brace].trim_end();
    let (targs, rest) = split_template(text)?;
    if rest.is_empty() || assignment_lhs(rest).is_some() {
        return None;
    }
    let close = matching(code.as_bytes(), brace, [b'{', b'}'], true)?;
    let body = brace + 1..close;
    let rest_at = header + (text.len() - rest.len());
    // `struct Name { ... }` / `class Name : Base { ... }`.
    let first = rest
        .split(|c: char| !is_ident(c as u8))
        .next()
        .unwrap_or("");
    // `namespace name { ... }`: its statements are the block's.
    if first == "namespace" && targs.is_none() {
        return Some(Definition {
            name: rest[first.len()..].trim().to_string(),
            kind: DefinitionKind::Namespace,
            header,
            body,
            params: Vec::new(),
        });
    }
    if first == "struct" || first == "class" {
        let name = rest[first.len()..]
            .trim_start()
            .split(|c: char| !is_ident(c as u8))
            .next()
            .unwrap_or("")
            .to_string();
        return Some(Definition {
            name,
            kind: DefinitionKind::Type,
            header,
            body,
            params: Vec::new(),
        });
    }
    // `[qualifiers] type name(params) [const]`: the last `)` closes the parameters.
    let rb = rest.as_bytes();
    let close_paren = rb.iter().rposition(|&c| c == b')')?;
    if !rest[close_paren + 1..]
        .split_whitespace()
        .all(|w| matches!(w, "const" | "noexcept" | "override"))
    {
        return None;
    }
    let open_paren = matching(rb, close_paren, [b')', b'('], false)?;
    let before = rest[..open_paren].trim_end();
    let name_start = before
        .bytes()
        .rposition(|c| !is_ident(c))
        .map_or(0, |p| p + 1);
    let name = &before[name_start..];
    let return_type = before[..name_start].trim();
    if name.is_empty()
        || name.as_bytes()[0].is_ascii_digit()
        || CONTROL.contains(&name)
        || return_type.is_empty()
        || return_type.ends_with(['=', ',', '(', '.', ':'])
    {
        return None;
    }
    let device = [
        "__global__",
        "__device__",
        "CUTE_DEVICE",
        "CUTE_HOST_DEVICE",
    ]
    .iter()
    .any(|q| has_word(return_type, q));
    let mut params: Vec<Param> = targs
        .map(|(t, at)| params_of(t, header + at, true))
        .unwrap_or_default();
    params.extend(params_of(
        &rest[open_paren + 1..close_paren],
        rest_at + open_paren + 1,
        false,
    ));
    Some(Definition {
        name: name.to_string(),
        kind: if device {
            DefinitionKind::Device
        } else {
            DefinitionKind::Host
        },
        header,
        body,
        params,
    })
}

/// The left side of a statement's assignment: the text before its first `=` outside
/// brackets (`<>` included) that is not part of `==`, `<=`, `>=` or `!=`. A definition's
/// header has none (a lambda's or an initialiser's statement has one).
fn assignment_lhs(stmt: &str) -> Option<&str> {
    // One pass, no allocation: every `{` of a C++ block may ask.
    let b = stmt.as_bytes();
    let mut depth = 0i64;
    let eq = b.iter().enumerate().find_map(|(i, &c)| {
        match c {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' | b']' | b'}' | b'>' => depth -= 1,
            b'=' if depth == 0 => return Some(i),
            _ => {}
        }
        None
    })?;
    let lhs = &stmt[..eq];
    let rhs = &b[eq + 1..];
    if rhs.is_empty() || rhs[0] == b'=' || lhs.ends_with(['!', '<', '>']) {
        return None;
    }
    Some(lhs)
}

/// `template <...>` split off a header: its argument list (with its byte in `text`) and
/// the rest. `None` when the list is not closed.
#[allow(clippy::type_complexity)]
fn split_template(text: &str) -> Option<(Option<(&str, usize)>, &str)> {
    let Some(after) = text.strip_prefix("template") else {
        return Some((None, text));
    };
    let lead = after.len() - after.trim_start().len();
    let after = after.trim_start();
    if !after.starts_with('<') {
        return Some((None, text));
    }
    let mut depth = 0i64;
    for (i, c) in after.bytes().enumerate() {
        match c {
            b'<' | b'(' => depth += 1,
            b'>' | b')' => {
                depth -= 1;
                if depth == 0 {
                    let at = "template".len() + lead + 1;
                    return Some((Some((&after[1..i], at)), after[i + 1..].trim_start()));
                }
            }
            _ => {}
        }
    }
    None
}

/// The parameters of a list (`int m, TA const* A, cudaStream_t stream = 0`; a template's
/// `class TA, int N = 3`), each with its byte (`at` is the list's first byte).
fn params_of(list: &str, at: usize, template: bool) -> Vec<Param> {
    let mut out = Vec::new();
    for (piece, off) in split_top_level(list, b',') {
        let (decl, default) = match split_top_level(piece, b'=').as_slice() {
            [(d, _), (v, _), ..] => (*d, Some(v.trim().to_string())),
            _ => (piece, None),
        };
        let decl = decl.trim();
        if decl.is_empty() || decl == "void" || decl.ends_with("...") {
            continue;
        }
        let name_start = decl
            .bytes()
            .rposition(|c| !is_ident(c))
            .map_or(0, |p| p + 1);
        let (ty, name) = (decl[..name_start].trim(), &decl[name_start..]);
        // An unnamed parameter (`int`) names nothing to bind.
        if ty.is_empty() || name.is_empty() {
            continue;
        }
        let ty = if template && (ty == "typename" || ty == "class") {
            "class"
        } else {
            ty
        };
        let lead = piece.len() - piece.trim_start().len();
        out.push(Param {
            name: name.to_string(),
            ty: ty.to_string(),
            default,
            at: at + off + lead,
        });
    }
    out
}

/// `s` split at `sep` outside brackets (`<>` included), each piece with its byte.
fn split_top_level(s: &str, sep: u8) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut depth = 0i64;
    let mut start = 0;
    for (i, c) in s.bytes().enumerate() {
        match c {
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' | b']' | b'}' | b'>' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push((&s[start..i], start));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((&s[start..], start));
    out
}

/// The bracket that matches the one at `at`: `deeper` nests, `shallower` closes the nest;
/// searched forward (`{` to its `}`) or backward (`)` to its `(`).
fn matching(b: &[u8], at: usize, [deeper, shallower]: [u8; 2], forward: bool) -> Option<usize> {
    let mut depth = 0i64;
    let mut i = at;
    while i < b.len() {
        if b[i] == deeper {
            depth += 1;
        } else if b[i] == shallower {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
        i = if forward { i + 1 } else { i.checked_sub(1)? };
    }
    None
}

/// The identifiers of `text`, in order (`M`, `int`, `m` of `auto M = int(m)`).
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| w.as_bytes().first().is_some_and(|c| !c.is_ascii_digit()))
}

/// Whether `text` has `word` as a whole identifier.
pub(crate) fn has_word(text: &str, word: &str) -> bool {
    let b = text.as_bytes();
    text.match_indices(word).any(|(i, _)| {
        let before = i.checked_sub(1).map(|p| b[p]);
        let after = b.get(i + word.len()).copied();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// Why a statement is host code the session does not evaluate: launch code (a `dim3`
/// launch shape, a `<<<...>>>` launch, a CUDA runtime call such as
/// `cudaFuncSetAttribute(...)`, CUTLASS's cluster launch, an error check around one), the
/// host's control flow, or a check (`assert`, `static_assert`). `None` for the others.
pub(crate) fn host_only(stmt: &str) -> Option<&'static str> {
    let s = stmt.trim_start();
    let first = s.split(|c: char| !is_ident(c as u8)).next().unwrap_or("");
    match first {
        "dim3" => return Some("launch code"),
        // `return EXPR;` is a value (a constexpr function's body pasted): not here.
        "if" | "else" | "for" | "while" | "do" | "switch" | "throw" => {
            return Some("host control flow")
        }
        "assert" | "static_assert" => return Some("a check, not a value"),
        f if f.starts_with("CUTE_STATIC_ASSERT") => return Some("a check, not a value"),
        _ => {}
    }
    if first.starts_with("CUTE_CHECK_") || first.starts_with("CUTLASS_CHECK") {
        return Some("launch code");
    }
    // Every statement of a C++ block comes here: one pass for the bytes a launch needs
    // (`<<<`, `cuda...`, `...aunch...`) before any word is looked for.
    let b = s.as_bytes();
    let maybe = b.windows(3).any(|w| matches!(w, b"<<<" | b"cud" | b"aun"));
    let launch = maybe
        && (s.contains("<<<")
            || has_word(s, "ClusterLaunchParams")
            || s.contains("launch_kernel")
            || cuda_call(s));
    launch.then_some("launch code")
}

/// Whether `s` calls a CUDA runtime function: an identifier `cudaXxx` followed by `(`.
fn cuda_call(s: &str) -> bool {
    let b = s.as_bytes();
    s.match_indices("cuda").any(|(i, _)| {
        let before = i.checked_sub(1).map(|p| b[p]);
        let rest = &b[i + 4..];
        let len = rest.iter().take_while(|&&c| is_ident(c)).count();
        !before.is_some_and(is_ident)
            && rest.first().is_some_and(u8::is_ascii_uppercase)
            && rest[len..]
                .iter()
                .find(|c| !c.is_ascii_whitespace())
                .is_some_and(|&c| c == b'(')
    })
}

/// The name a declaration statement binds (`auto M = int(m)`, `int smem_size = ...`,
/// `TiledCopy copyA = ...`): the identifier before its first top-level `=`.
pub(crate) fn bound_name(stmt: &str) -> Option<&str> {
    let lhs = assignment_lhs(stmt)?.trim_end();
    let start = lhs.bytes().rposition(|c| !is_ident(c)).map_or(0, |p| p + 1);
    let name = &lhs[start..];
    (!name.is_empty() && !name.as_bytes()[0].is_ascii_digit()).then_some(name)
}

/// A C++ declaration of several names, `int m = 4096, n = 2048, k = 1024`, as one
/// declaration a name (`int m = 4096`, `int n = 2048`, ...), each the statement with the
/// others blanked so that columns stay. `None` for anything else (one name, a call's commas,
/// `a = 1, b = 2` without a type).
pub(crate) fn declarators(stmt: &str) -> Option<Vec<String>> {
    // Most statements with commas are calls: nothing to split without an `=`.
    if !stmt.contains('=') {
        return None;
    }
    let pieces = split_top_level(stmt, b',');
    if pieces.len() < 2 {
        return None;
    }
    let (first, _) = pieces[0];
    let name = bound_name(first)?;
    let lead = first.len() - first.trim_start().len();
    // The bound name ends the left side of the top-level `=` (as `bound_name` reads it).
    let lhs = assignment_lhs(first)?.trim_end();
    let name_at = lhs.len().checked_sub(name.len())?;
    if name_at < lead || lhs.get(name_at..) != Some(name) {
        return None;
    }
    let ty = first[lead..name_at].trim();
    // A type before the first name (`int`, `auto`, `cute::int64_t const`), words only.
    if ty.is_empty() || !ty.bytes().all(|c| is_ident(c) || b" :<>*&".contains(&c)) {
        return None;
    }
    let mut out = vec![first.to_string()];
    for &(piece, at) in &pieces[1..] {
        let t = piece.trim_start();
        let n = t.bytes().take_while(|&c| is_ident(c)).count();
        let after = t[n..].trim_start();
        if n == 0
            || t.as_bytes()[0].is_ascii_digit()
            || !after.starts_with('=')
            || after.starts_with("==")
        {
            return None;
        }
        // The type where the first declaration has it, the declarator where it stands.
        let mut d = String::with_capacity(at + piece.len());
        d.push_str(&stmt[..name_at]);
        d.extend(
            stmt[name_at..at]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' }),
        );
        d.push_str(piece);
        out.push(d);
    }
    Some(out)
}

/// The names a statement takes the type of, in order (`decltype(sA)`, `decltype(sB)`).
pub(crate) fn decltype_names(stmt: &str) -> Vec<String> {
    stmt.match_indices("decltype(")
        .filter_map(|(i, w)| {
            let rest = stmt[i + w.len()..].trim_start();
            let len = rest.bytes().take_while(|&c| is_ident(c)).count();
            let after = rest[len..].trim_start();
            (len > 0 && after.starts_with(')')).then(|| rest[..len].to_string())
        })
        .collect()
}

/// `src` with the lines of `#if 0` branches (and the `#else` branch of `#if 1`) blanked;
/// other conditionals keep both branches (the directives themselves are comments).
pub(crate) fn blank_dead_branches(src: &str) -> Cow<'_, str> {
    if !src.contains("#if") {
        return Cow::Borrowed(src);
    }
    // The open conditionals: whether each one's current branch is dead (`None`: unknown,
    // kept), and whether an earlier branch of it was surely taken.
    let mut stack: Vec<(Option<bool>, bool)> = Vec::new();
    let mut out = String::with_capacity(src.len());
    let mut changed = false;
    for line in src.split_inclusive('\n') {
        let directive = line.trim_start().strip_prefix('#').map(str::trim_start);
        let mut keep = !stack.iter().any(|d| d.0 == Some(true));
        if let Some(d) = directive {
            let word = d
                .split(|c: char| !c.is_ascii_alphabetic())
                .next()
                .unwrap_or("");
            match word {
                "if" | "ifdef" | "ifndef" => stack.push(match (word, d[word.len()..].trim()) {
                    ("if", "0") => (Some(true), false),
                    ("if", "1") => (Some(false), true),
                    _ => (None, false),
                }),
                "else" | "elif" => {
                    if let Some((dead, taken)) = stack.last_mut() {
                        *dead = match (*taken, *dead, word) {
                            (true, _, _) => Some(true),
                            (false, Some(true), "else") => Some(false),
                            _ => None,
                        };
                        *taken |= *dead == Some(false);
                    }
                }
                "endif" => {
                    stack.pop();
                }
                _ => {}
            }
            keep = true;
        }
        if keep {
            out.push_str(line);
        } else {
            changed = true;
            out.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        }
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(src)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_function_keeps_its_body_and_names_its_parameters() {
        let src = "template <class TA, int N = 3>\nvoid\ngemm_tn(int m, TA const* A, int ldA,\n        cudaStream_t stream = 0)\n{\n  auto M = int(m);\n}\n";
        let (code, defs) = definitions(src);
        assert_eq!(defs.len(), 1);
        let d = &defs[0];
        assert_eq!((d.name.as_str(), d.kind), ("gemm_tn", DefinitionKind::Host));
        let names: Vec<_> = d
            .params
            .iter()
            .map(|p| (p.name.as_str(), p.ty.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("TA", "class"),
                ("N", "int"),
                ("m", "int"),
                ("A", "TA const*"),
                ("ldA", "int"),
                ("stream", "cudaStream_t")
            ]
        );
        assert_eq!(d.params[1].default.as_deref(), Some("3"));
        assert_eq!(&src[d.params[3].at..d.params[3].at + 2], "TA");
        assert_eq!(code.len(), src.len());
        assert_eq!(code.trim(), "auto M = int(m);");
        assert_eq!(code.matches('\n').count(), src.matches('\n').count());
    }

    #[test]
    fn kernels_and_types_are_blanked_whole_and_layouts_are_not_definitions() {
        let src = "template <class T>\n__global__ static __launch_bounds__(128) void k(T x) { int a = 1; }\nstruct S { int a; };\nauto L = Layout<Shape<_8>>{};\nauto f = [](int x) { return x; };\nif (a) { b; }\n";
        let (code, defs) = definitions(src);
        let kinds: Vec<_> = defs.iter().map(|d| (d.name.as_str(), d.kind)).collect();
        assert_eq!(
            kinds,
            [("k", DefinitionKind::Device), ("S", DefinitionKind::Type)]
        );
        assert!(code.starts_with(&" ".repeat(18)));
        assert!(code.contains("auto L = Layout<Shape<_8>>{};"));
        assert!(code.contains("return x;"));
        assert!(!code.contains("int a"));
        let (code, defs) = definitions("namespace cfg {\nauto L = make_layout(8);\n}\n");
        assert_eq!(defs[0].kind, DefinitionKind::Namespace);
        assert_eq!(code.trim(), "auto L = make_layout(8);");
        // A function inside a namespace is one too.
        let (code, defs) = definitions(
            "namespace a {\nvoid f(int m) { auto L = make_layout(m); }\n}\nauto x = f(1);",
        );
        let kinds: Vec<_> = defs.iter().map(|d| (d.name.as_str(), d.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("a", DefinitionKind::Namespace),
                ("f", DefinitionKind::Host)
            ]
        );
        let words: Vec<&str> = code.split_whitespace().collect();
        assert_eq!(words.join(" "), "auto L = make_layout(m); auto x = f(1);");
    }

    #[test]
    fn launch_code_and_bound_names() {
        for s in [
            "dim3 dimBlock(size(mmaC))",
            "kernel<<<grid, block, smem>>>(a, b)",
            "cudaFuncSetAttribute(\n k, cudaFuncAttributeMaxDynamicSharedMemorySize, s)",
            "cudaError_t e = cudaGetLastError()",
            "CUTE_CHECK_LAST()",
            "cutlass::ClusterLaunchParams params = {dimGrid, dimBlock, dimCluster, smemBytes}",
            "cutlass::Status status = cutlass::launch_kernel_on_cluster(params, k)",
        ] {
            assert_eq!(host_only(s), Some("launch code"), "{s}");
        }
        assert_eq!(
            host_only("if (status != 0) {\n x;\n}"),
            Some("host control flow")
        );
        assert_eq!(
            host_only("assert(false && \"Not implemented\")"),
            Some("a check, not a value")
        );
        for s in [
            "auto dA = make_stride(ldA, Int<1>{})",
            "mycudaF(1)",
            "cudaFoo",
            "iffy(2)",
            "return make_layout(8)",
        ] {
            assert_eq!(host_only(s), None, "{s}");
        }
        assert_eq!(bound_name("auto M = int(m)"), Some("M"));
        assert_eq!(
            bound_name("int smem_size = int(sizeof(S<a, b>))"),
            Some("smem_size")
        );
        assert_eq!(bound_name("a == b"), None);
        assert_eq!(bound_name("make_layout(8)"), None);
        assert!(has_word("f(m, n)", "m") && !has_word("make(mm)", "m"));
        assert_eq!(
            decltype_names("int(sizeof(S<T, decltype(sA), decltype(sB), decltype(f(x))>))"),
            ["sA", "sB"]
        );
    }

    #[test]
    fn several_declarators_are_one_declaration_each() {
        let d = declarators("int m = 4096, n = 2048, k = m;").unwrap();
        assert_eq!(d[0], "int m = 4096");
        // Each name where the statement has it: columns stay.
        assert_eq!(d[1].find("n ="), Some(14));
        assert_eq!(d[2].find("k ="), Some(24));
        let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(words(&d[1]), "int n = 2048");
        assert_eq!(words(&d[2]), "int k = m;");
        for s in [
            "int m = 4096",
            "make_layout(a, b)",
            "auto x = make_shape(1, 2)",
            "a = 1, b = 2",
            "int m = 1, 2",
            "int a = 1, b == 2",
            // A `=` inside brackets before the top-level one (a fuzz find).
            "using A(= b, c = d",
            "f(x = 1) y = 2, z = 3",
        ] {
            assert_eq!(declarators(s), None, "{s}");
        }
    }

    #[test]
    fn dead_branches_go_and_others_stay() {
        let src =
            "a;\n#if 0\nprint(x);\n#if 1\ny;\n#endif\n#else\nb;\n#endif\n#ifdef X\nc;\n#endif\n";
        let out = blank_dead_branches(src);
        assert_eq!(out.len(), src.len());
        let kept: Vec<_> = out
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        assert_eq!(kept, ["a;", "b;", "c;"]);
    }
}
