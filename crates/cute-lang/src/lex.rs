//! The lexer of the expression language: tokens with 1-based byte columns, checked
//! integer literals.

use cute_core::error::{Error, Result};

/// Longest line accepted, in bytes.
pub const MAX_LINE_BYTES: usize = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Tok<'a> {
    /// Magnitude up to 2^63; the sign is applied (and range-checked) by the parser.
    Int(u64),
    /// `_8`: CuTe's static-integer alias (the value).
    Static(u64),
    /// `16b` in `smem_ptr[16b]`: C++'s print of a pointer's element width in bits.
    Bits(u64),
    Ident(&'a str),
    Under,
    Punct(char),
    /// `::`
    Scope,
    End,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Token<'a> {
    pub tok: Tok<'a>,
    /// 1-based byte column; [`char_column`] turns it into a character column for errors.
    pub col: usize,
}

/// The 1-based character column of 1-based byte column `byte_col` in `src`.
pub(crate) fn char_column(src: &str, byte_col: usize) -> usize {
    let end = (byte_col - 1).min(src.len());
    // Byte columns always fall on character boundaries (tokens start at one).
    src.get(..end).map_or(byte_col, |p| p.chars().count() + 1)
}

pub(crate) fn describe(t: &Tok) -> String {
    match t {
        Tok::Int(v) => format!("integer {v}"),
        Tok::Static(v) => format!("'_{v}'"),
        Tok::Bits(v) => format!("'{v}b'"),
        Tok::Ident(s) => format!("'{s}'"),
        Tok::Under => "'_'".into(),
        Tok::Punct(c) => format!("'{c}'"),
        Tok::Scope => "'::'".into(),
        Tok::End => "end of input".into(),
    }
}

const OTHER: u8 = 0;
const SPACE: u8 = 1;
const DIGIT: u8 = 2;
const IDENT: u8 = 3;
const PUNCT: u8 = 4;

/// The lexer's class of every byte (non-ASCII bytes are `OTHER`: an error).
static CLASS: [u8; 256] = {
    let mut t = [OTHER; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = match b {
            b' ' | b'\t' | b'\r' | b'\n' => SPACE,
            b'0'..=b'9' => DIGIT,
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => IDENT,
            b'(' | b')' | b',' | b':' | b'<' | b'>' | b'{' | b'}' | b'=' | b'-' | b'+' | b'*'
            | b'/' | b'[' | b']' | b'.' | b';' | b'&' | b'%' | b'^' | b'|' | b'!' | b'?' | b'@' => {
                PUNCT
            }
            _ => OTHER,
        };
        c += 1;
    }
    t
};

fn is_ident_byte(b: u8) -> bool {
    b == b'_' || b.is_ascii_alphanumeric()
}

pub(crate) fn lex(src: &str) -> Result<Vec<Token<'_>>> {
    if src.len() > MAX_LINE_BYTES {
        return Err(cute_core::err!(
            "line too long ({} bytes, limit {MAX_LINE_BYTES})",
            src.len()
        ));
    }
    let bytes = src.as_bytes();
    // A token per byte at most (and the end): one allocation for any usual line.
    let mut out = Vec::with_capacity((bytes.len() + 1).min(4096));
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let col = i + 1;
        // One table lookup classifies the byte.
        let tok = match CLASS[usize::from(c)] {
            SPACE => {
                i += 1;
                continue;
            }
            DIGIT => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                let text = &src[start..i];
                // C++ prints a smem atom's offset `smem_ptr[16b](unset)`, and a tensor's
                // pointer `gmem_ptr[16b](0x...)`: the width after a pointer's `[`.
                let bits = match (text.strip_suffix('b'), &out[..]) {
                    (
                        Some(digits),
                        [.., Token {
                            tok: Tok::Ident(ptr),
                            ..
                        }, Token {
                            tok: Tok::Punct('['),
                            ..
                        }],
                    ) if ptr.ends_with("ptr") && !digits.starts_with("0b") => Some(digits),
                    _ => None,
                };
                let tok = match bits {
                    Some(digits) => Tok::Bits(parse_int(digits, col)?),
                    None => Tok::Int(parse_int(text, col)?),
                };
                out.push(Token { tok, col });
                continue;
            }
            IDENT => {
                let start = i;
                while i < bytes.len() && is_ident_byte(bytes[i]) {
                    i += 1;
                }
                let text = &src[start..i];
                let tok = if text == "_" {
                    Tok::Under
                } else if let Some(digits) = text
                    .strip_prefix('_')
                    .filter(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
                {
                    // CuTe's static integer aliases: `_8`.
                    Tok::Static(parse_int(digits, col)?)
                } else {
                    Tok::Ident(text)
                };
                out.push(Token { tok, col });
                continue;
            }
            PUNCT if c == b'/' && bytes.get(i + 1) == Some(&b'*') => {
                return Err(Error::at(
                    col,
                    "a '/*' comment that is never closed with '*/'",
                ));
            }
            PUNCT if c == b':' && bytes.get(i + 1) == Some(&b':') => {
                i += 1;
                Tok::Scope
            }
            PUNCT => Tok::Punct(c as char),
            _ => {
                let ch = src[i..].chars().next().unwrap_or('?');
                return Err(Error::at(col, unexpected_char(ch)));
            }
        };
        out.push(Token { tok, col });
        i += 1;
    }
    out.push(Token {
        tok: Tok::End,
        col: bytes.len() + 1,
    });
    Ok(out)
}

fn unexpected_char(c: char) -> String {
    let hint = match c {
        '（' | '﹙' | '⁽' => " (did you mean '(' ?)",
        '）' | '﹚' | '⁾' => " (did you mean ')' ?)",
        '∶' | '：' | '꞉' => " (did you mean ':' ?)",
        '−' | '–' | '—' | '‐' => " (did you mean '-' ?)",
        '，' | '‚' => " (did you mean ',' ?)",
        'о' | 'ο' => " (did you mean the composition operator 'o' ?)",
        '０'..='９' => " (a fullwidth digit; use ASCII digits)",
        '\u{a0}' | '\u{2000}'..='\u{200b}' | '\u{3000}' => " (a non-ASCII space)",
        _ => "",
    };
    let shown = if c.is_control() || c.is_whitespace() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("'{c}' (U+{:04X})", c as u32)
    };
    format!("unexpected character {shown}{hint}")
}

fn parse_int(text: &str, col: usize) -> Result<u64> {
    // Most literals are a few decimal digits: no radix prefix, no overflow possible.
    if text.len() <= 18 && text.bytes().all(|c| c.is_ascii_digit()) {
        return Ok(text
            .bytes()
            .fold(0u64, |acc, c| acc * 10 + u64::from(c - b'0')));
    }
    let (digits, radix) = if let Some(h) = text.strip_prefix("0x").or(text.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = text.strip_prefix("0b").or(text.strip_prefix("0B")) {
        (b, 2)
    } else {
        (text, 10)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(Error::at(
            col,
            format!("malformed integer literal '{text}'"),
        ));
    }
    let too_big = || {
        Error::at(
            col,
            format!(
                "integer literal {text} does not fit in 64 bits (max {})",
                i64::MAX
            ),
        )
    };
    let v = u64::from_str_radix(digits, radix).map_err(|_| too_big())?;
    if v > 1u64 << 63 {
        return Err(too_big());
    }
    Ok(v)
}

/// A literal's value with its sign, checked against the i64 range.
pub(crate) fn signed(v: u64, negative: bool, col: usize) -> Result<i64> {
    let v = if negative {
        -i128::from(v)
    } else {
        i128::from(v)
    };
    i64::try_from(v).map_err(|_| {
        Error::at(
            col,
            format!(
                "integer literal {v} does not fit in 64 bits (max {})",
                i64::MAX
            ),
        )
    })
}
