//! Blocks of pasted code before parsing: which language they are written in (the spec's,
//! C++ or CuTeDSL Python), comments blanked in place, and the split into statements.

/// The language a block is written in: the spec's (where `(8)` is a 1-tuple), C++ or
/// Python (where parentheses group and `(8,)` is a 1-tuple, and `//` divides in Python).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Spec,
    Cpp,
    Python,
}

/// Whether `src` writes a layout the spec's way, `SHAPE:STRIDE` (`8:1`, `(4,8):(8,1)`),
/// which Python never does outside `[...]` subscripts.
fn has_layout_literal(src: &str) -> bool {
    let b = src.as_bytes();
    let mut square = 0i32;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'[' => square += 1,
            b']' => square -= 1,
            b':' if square <= 0 => {
                let before = b[..i].iter().rev().find(|c| !c.is_ascii_whitespace());
                let after = b[i + 1..].iter().find(|c| !c.is_ascii_whitespace());
                let left = before.is_some_and(|c| *c == b')' || c.is_ascii_digit());
                let right = after.is_some_and(|c| *c == b'(' || *c == b'-' || c.is_ascii_digit());
                if left && right {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The dialect of a block: C++ when it has C++'s punctuation (`;`, `::`), Python when it
/// uses CuTeDSL's modules or Python's words, the spec's language otherwise.
pub(crate) fn dialect(src: &str) -> Dialect {
    // `{}` alone is not enough: the spec's language writes `LayoutRight{}` beside `(8)`.
    let (cpp, python) = hints(src);
    if cpp {
        Dialect::Cpp
    } else if python && !has_layout_literal(src) {
        Dialect::Python
    } else {
        Dialect::Spec
    }
}

/// A byte-indexed table: whether each byte is one of `bytes` (one lookup per byte scanned).
const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
}

/// The bytes that can start a hint [`hints`] looks for.
static HINT_START: [bool; 256] = byte_set(b";:./N ");

/// One pass over `src` (every line is scanned, so this is on the hot path): whether it has
/// C++'s punctuation (`;`, `::`), and whether it reads as CuTeDSL (`cute.`, `cutlass.`,
/// `utils.`, `None`, ` if ` or `//` after an operand).
fn hints(src: &str) -> (bool, bool) {
    let b = src.as_bytes();
    let mut python = false;
    for (i, &c) in b.iter().enumerate() {
        if !HINT_START[usize::from(c)] {
            continue;
        }
        let rest = &b[i + 1..];
        match c {
            b';' => return (true, python),
            b':' if rest.first() == Some(&b':') => return (true, python),
            b'.' => {
                let before = &b[..i];
                python |= [&b"cute"[..], b"cutlass", b"utils"]
                    .iter()
                    .any(|k| before.ends_with(k));
            }
            b'N' => python |= rest.starts_with(b"one"),
            b' ' => python |= rest.starts_with(b"if "),
            // `//` after an operand divides in Python; at the start of a line (spaces
            // aside) it can only be C++'s comment.
            b'/' if rest.first() == Some(&b'/') => {
                let line = &b[..i];
                let start = line.iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
                python |= !line[start..].iter().all(u8::is_ascii_whitespace);
            }
            _ => {}
        }
    }
    (false, python)
}

/// One statement of a block: its byte range in the source (comments blanked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: usize,
    pub end: usize,
}

/// The source with every comment (`// …`, `/* … */`, `# …`) replaced by spaces, so that
/// byte positions stay those of the original text.
pub(crate) fn blank_comments(src: &str, dialect: Dialect) -> std::borrow::Cow<'_, str> {
    // Most scripts have no comment: nothing to copy.
    // (`contains` of one char is a word-at-a-time memchr.)
    if !src.contains('#') && !src.contains('/') {
        return std::borrow::Cow::Borrowed(src);
    }
    // Python (CuTeDSL) divides with `//`; C++ comments with it.
    let python = dialect == Dialect::Python;
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        let (from, to) = match b[i] {
            b'#' => (i, memchr_nl(b, i)),
            b'/' if b.get(i + 1) == Some(&b'/') && !python => (i, memchr_nl(b, i)),
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i += 2;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => match src[i + 2..].find("*/") {
                Some(k) => (i, i + 2 + k + 2),
                // Left in place: the parser then names the stray `/` with its column.
                None => {
                    i += 1;
                    continue;
                }
            },
            _ => {
                i += 1;
                continue;
            }
        };
        for (k, byte) in out.iter_mut().enumerate().take(to).skip(from) {
            // Keep newlines (line numbers); every other byte becomes a space.
            if b[k] != b'\n' {
                *byte = b' ';
            }
        }
        i = to;
    }
    // Only ASCII spaces replaced whole UTF-8 sequences (every byte of them): still UTF-8.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_default())
}

fn memchr_nl(b: &[u8], from: usize) -> usize {
    b[from..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |k| from + k)
}

/// The bytes [`split_statements`] acts on: brackets, `;` and newlines.
static SPECIAL: [bool; 256] = byte_set(b"()[]{};\n");

/// Split a block (comments blanked) into statements: a statement ends at `;` or at the end
/// of a line where every bracket is closed, the line does not end with `=`, `,`, an
/// operator or a `\`, and the next line does not open with `>`.
pub(crate) fn split_statements(src: &str) -> Vec<Span> {
    let b = src.as_bytes();
    let mut spans = Vec::new();
    let mut depth = 0i64;
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        // Most bytes are neither brackets nor ends: one table lookup passes them.
        if !SPECIAL[usize::from(c)] {
            continue;
        }
        let ends = match c {
            b'(' | b'[' | b'{' => {
                depth += 1;
                continue;
            }
            b')' | b']' | b'}' => {
                depth -= 1;
                continue;
            }
            b';' => depth <= 0,
            // The statement's last non-space byte before the newline decides whether it
            // goes on (looked up only here, not tracked byte by byte).
            b'\n' => depth <= 0 && !goes_on(&b[start..i], &b[i + 1..]),
            _ => continue,
        };
        if ends {
            spans.push(Span { start, end: i + 1 });
            start = i + 1;
            depth = 0;
        }
    }
    if start < b.len() {
        spans.push(Span {
            start,
            end: b.len(),
        });
    }
    spans
}

/// Whether a statement whose line is `line` goes on after the newline, `rest` being the
/// text after it: a line ending in an operator, a comma or C++'s alternative `or`/`and`;
/// the next line opening with the `>` that closes a template argument list the statement
/// began (`...KernelScheduleAuto\n  >::CollectiveOp;`); a kernel launch's `<<<...>>>` with
/// its arguments to come (a type's `Layout<...<...>>>` ends a statement).
fn goes_on(line: &[u8], rest: &[u8]) -> bool {
    let last = line.iter().rev().find(|c| !c.is_ascii_whitespace());
    if matches!(
        last,
        Some(
            b'=' | b','
                | b'\\'
                | b'+'
                | b'*'
                | b'/'
                | b'-'
                | b'<'
                | b'|'
                | b'&'
                | b'%'
                | b'^'
                | b'?'
        )
    ) || ends_in_word(line, b"or")
        || ends_in_word(line, b"and")
    {
        return true;
    }
    if rest.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'>') {
        return true;
    }
    line.trim_ascii_end().ends_with(b">>>") && line.windows(3).any(|w| w == b"<<<")
}

/// Whether the text's last word (after trailing spaces) is `word`.
fn ends_in_word(text: &[u8], word: &[u8]) -> bool {
    let t = text.trim_ascii_end();
    t.ends_with(word)
        && t[..t.len() - word.len()]
            .last()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
}

#[cfg(test)]
mod tests {
    use super::{dialect, Dialect};

    #[test]
    fn each_hint_decides_the_dialect() {
        let cases = [
            ("(4,8):(8,1)", Dialect::Spec),
            ("composition((4,8):(8,1), 2:1)", Dialect::Spec),
            ("using L = Layout<Shape<_8>>;", Dialect::Cpp),
            ("cute::make_layout(8)", Dialect::Cpp),
            ("cute.make_layout((4, 8))", Dialect::Python),
            ("cutlass.Float16", Dialect::Python),
            ("utils.LayoutEnum", Dialect::Python),
            ("make_layout(8, stride=None)", Dialect::Python),
            ("8 if True else 4", Dialect::Python),
            ("size(A) // 2", Dialect::Python),
            // A spec layout literal outweighs Python's words.
            ("(8,None) o 8:1", Dialect::Spec),
            // A `:` alone, a `.` after another word, `Non`, `if` without spaces: none.
            ("a.b(8:1)", Dialect::Spec),
            ("execute_if(8)", Dialect::Spec),
            ("Non(8)", Dialect::Spec),
            ("8/2", Dialect::Spec),
        ];
        for (src, want) in cases {
            assert_eq!(dialect(src), want, "{src}");
        }
    }
}
