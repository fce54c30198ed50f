//! Lexer and recursive-descent parser for the expression language
//! (`shared/spec/expressions.md`). Produces an AST with 1-based columns; evaluation is
//! separate so that a syntax error is reported before any work is done.

use crate::error::{Error, Result};

/// Deepest nesting of parentheses, template brackets and calls a line may have.
pub const MAX_NESTING: usize = 64;
/// Longest line accepted, in bytes.
pub const MAX_LINE_BYTES: usize = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Tok<'a> {
    /// Magnitude up to 2^63; the sign is applied (and range-checked) by the parser.
    Int(i128),
    Ident(&'a str),
    Under,
    Punct(char),
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

fn describe(t: &Tok) -> String {
    match t {
        Tok::Int(v) => format!("integer {v}"),
        Tok::Ident(s) => format!("'{s}'"),
        Tok::Under => "'_'".into(),
        Tok::Punct(c) => format!("'{c}'"),
        Tok::End => "end of input".into(),
    }
}

fn is_ident_byte(b: u8) -> bool {
    b == b'_' || b.is_ascii_alphanumeric()
}

fn lex(src: &str) -> Result<Vec<Token<'_>>> {
    if src.len() > MAX_LINE_BYTES {
        return Err(Error::new(format!(
            "line too long ({} bytes, limit {MAX_LINE_BYTES})",
            src.len()
        )));
    }
    let bytes = src.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() / 2 + 1);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let col = i + 1;
        if matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Int(parse_int(&src[start..i], col)?),
                col,
            });
            continue;
        }
        if is_ident_byte(c) {
            let start = i;
            loop {
                while i < bytes.len() && is_ident_byte(bytes[i]) {
                    i += 1;
                }
                let starts_name = |k: usize| {
                    bytes
                        .get(k)
                        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
                };
                // Qualified names: `cute::make_layout`, `cute.make_layout`.
                if bytes.get(i) == Some(&b':')
                    && bytes.get(i + 1) == Some(&b':')
                    && starts_name(i + 2)
                {
                    i += 2;
                    continue;
                }
                if bytes.get(i) == Some(&b'.') && starts_name(i + 1) {
                    i += 1;
                    continue;
                }
                break;
            }
            let text = &src[start..i];
            let tok = if text == "_" {
                Tok::Under
            } else if let Some(digits) = text
                .strip_prefix('_')
                .filter(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
            {
                // CuTe's static integer aliases: `_8`.
                Tok::Int(parse_int(digits, col)?)
            } else {
                Tok::Ident(text)
            };
            out.push(Token { tok, col });
            continue;
        }
        match c {
            b'(' | b')' | b',' | b':' | b'<' | b'>' | b'{' | b'}' | b'=' | b'-' | b'+' => {
                out.push(Token {
                    tok: Tok::Punct(c as char),
                    col,
                });
                i += 1;
            }
            _ => {
                let ch = src[i..].chars().next().unwrap_or('?');
                return Err(Error::at(col, unexpected_char(ch)));
            }
        }
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

fn parse_int(text: &str, col: usize) -> Result<i128> {
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
    Ok(i128::from(v))
}

/// A literal's value with its sign, checked against the i64 range.
fn signed(v: i128, negative: bool, col: usize) -> Result<i64> {
    let v = if negative { -v } else { v };
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

/// An AST node with its 1-based column.
#[derive(Clone, Debug)]
pub(crate) struct Node<'a> {
    pub expr: Expr<'a>,
    pub col: usize,
}

#[derive(Clone, Debug)]
pub(crate) enum Expr<'a> {
    Int(i64),
    Under,
    Name(&'a str),
    Tuple(Vec<Node<'a>>),
    /// `SHAPE:STRIDE`
    Layout(Box<Node<'a>>, Box<Node<'a>>),
    /// `name(args, kw=value)`
    Call {
        name: &'a str,
        args: Vec<Node<'a>>,
        kwargs: Vec<(&'a str, Node<'a>)>,
    },
    /// `name<targs>` with optional `{}`: C++ types and `Sw<B,M,S>`.
    Template {
        name: &'a str,
        targs: Vec<Node<'a>>,
    },
    /// `f(args)` where `f` is a value (a layout literal, a template value, a call result).
    Apply {
        f: Box<Node<'a>>,
        args: Vec<Node<'a>>,
    },
    /// `a o b [o c]`
    Compose(Vec<Node<'a>>),
}

/// Positional and keyword arguments of a call.
type Args<'a> = (Vec<Node<'a>>, Vec<(&'a str, Node<'a>)>);

struct Parser<'a> {
    toks: Vec<Token<'a>>,
    pos: usize,
    depth: usize,
}

/// Names that take `<...>` template arguments.
fn is_template_name(name: &str) -> bool {
    matches!(
        strip_ns(name),
        "Int"
            | "C"
            | "Shape"
            | "Stride"
            | "Step"
            | "Tile"
            | "Coord"
            | "Layout"
            | "Swizzle"
            | "Sw"
            | "ComposedLayout"
    )
}

/// Drop a `cute::` or `cute.` prefix.
pub(crate) fn strip_ns(name: &str) -> &str {
    name.strip_prefix("cute::")
        .or_else(|| name.strip_prefix("cute."))
        .unwrap_or(name)
}

impl<'a> Parser<'a> {
    fn peek(&self) -> &Tok<'a> {
        &self.toks[self.pos].tok
    }
    fn col(&self) -> usize {
        self.toks[self.pos].col
    }
    fn next(&mut self) -> Token<'a> {
        let t = self.toks[self.pos];
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    fn eat(&mut self, c: char) -> bool {
        if *self.peek() == Tok::Punct(c) {
            self.next();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: char, ctx: &str) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(Error::at(
                self.col(),
                format!("expected '{c}' {ctx}, found {}", describe(self.peek())),
            ))
        }
    }
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(Error::at(
                self.col(),
                format!("nesting deeper than {MAX_NESTING} levels"),
            ));
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// expr := postfix ('o' postfix)*
    fn expr(&mut self) -> Result<Node<'a>> {
        let first = self.postfix()?;
        if !matches!(self.peek(), Tok::Ident(s) if *s == "o") {
            return Ok(first);
        }
        let col = first.col;
        let mut parts = vec![first];
        while matches!(self.peek(), Tok::Ident(s) if *s == "o") {
            self.next();
            parts.push(self.postfix()?);
        }
        Ok(Node {
            expr: Expr::Compose(parts),
            col,
        })
    }

    /// postfix := layout ('(' args ')')*
    fn postfix(&mut self) -> Result<Node<'a>> {
        let mut node = self.layout()?;
        while *self.peek() == Tok::Punct('(') {
            let col = self.col();
            self.enter()?;
            self.next();
            let (args, kwargs) = self.args()?;
            self.leave();
            if !kwargs.is_empty() {
                return Err(Error::at(
                    col,
                    "keyword arguments are not allowed in an application",
                ));
            }
            node = Node {
                expr: Expr::Apply {
                    f: Box::new(node),
                    args,
                },
                col,
            };
        }
        Ok(node)
    }

    /// layout := primary (':' primary)?
    fn layout(&mut self) -> Result<Node<'a>> {
        let shape = self.primary()?;
        if *self.peek() != Tok::Punct(':') {
            return Ok(shape);
        }
        self.next();
        let stride = self.primary()?;
        let col = shape.col;
        Ok(Node {
            expr: Expr::Layout(Box::new(shape), Box::new(stride)),
            col,
        })
    }

    fn primary(&mut self) -> Result<Node<'a>> {
        let t = self.next();
        let col = t.col;
        let expr = match t.tok {
            Tok::Int(v) => Expr::Int(signed(v, false, col)?),
            Tok::Under => {
                self.skip_braces()?;
                Expr::Under
            }
            Tok::Punct('-') => match self.next().tok {
                Tok::Int(v) => Expr::Int(signed(v, true, col)?),
                other => {
                    return Err(Error::at(
                        col,
                        format!(
                            "'-' must be followed by an integer, found {}",
                            describe(&other)
                        ),
                    ))
                }
            },
            Tok::Punct('+') => match self.next().tok {
                Tok::Int(v) => Expr::Int(signed(v, false, col)?),
                other => {
                    return Err(Error::at(
                        col,
                        format!(
                            "'+' must be followed by an integer, found {}",
                            describe(&other)
                        ),
                    ))
                }
            },
            Tok::Punct('(') => {
                self.enter()?;
                let (items, kwargs) = self.args()?;
                self.leave();
                if !kwargs.is_empty() {
                    return Err(Error::at(col, "'=' is not allowed inside a tuple"));
                }
                Expr::Tuple(items)
            }
            Tok::Ident(name) => {
                if is_template_name(name) && *self.peek() == Tok::Punct('<') {
                    self.next();
                    self.enter()?;
                    let targs = self.template_args()?;
                    self.leave();
                    self.skip_braces()?;
                    Expr::Template { name, targs }
                } else if *self.peek() == Tok::Punct('(') {
                    self.next();
                    self.enter()?;
                    let (args, kwargs) = self.args()?;
                    self.leave();
                    Expr::Call { name, args, kwargs }
                } else if name == "o" {
                    return Err(Error::at(
                        col,
                        "the composition operator 'o' needs an operand on its left",
                    ));
                } else {
                    self.skip_braces()?;
                    Expr::Name(name)
                }
            }
            other => {
                return Err(Error::at(
                    col,
                    format!("expected a value, found {}", describe(&other)),
                ))
            }
        };
        Ok(Node { expr, col })
    }

    /// `{}` after a C++ type or constant (`Int<8>{}`, `LayoutRight{}`).
    fn skip_braces(&mut self) -> Result<()> {
        if *self.peek() == Tok::Punct('{') {
            self.next();
            self.expect('}', "to close '{' (only empty braces `{}` are accepted)")?;
        }
        Ok(())
    }

    fn template_args(&mut self) -> Result<Vec<Node<'a>>> {
        let mut out = Vec::new();
        if self.eat('>') {
            return Ok(out);
        }
        loop {
            out.push(self.expr()?);
            if self.eat(',') {
                continue;
            }
            self.expect('>', "to close the template argument list")?;
            return Ok(out);
        }
    }

    /// Comma-separated expressions up to `)`; `name=expr` entries are keyword arguments.
    fn args(&mut self) -> Result<Args<'a>> {
        let mut args = Vec::new();
        let mut kwargs = Vec::new();
        if self.eat(')') {
            return Ok((args, kwargs));
        }
        loop {
            let is_kw = matches!(self.peek(), Tok::Ident(_))
                && self.toks.get(self.pos + 1).map(|t| &t.tok) == Some(&Tok::Punct('='));
            if is_kw {
                let name = match self.next().tok {
                    Tok::Ident(s) => s,
                    _ => unreachable!("checked"),
                };
                self.next();
                kwargs.push((name, self.expr()?));
            } else {
                if !kwargs.is_empty() {
                    return Err(Error::at(
                        self.col(),
                        "positional argument after a keyword argument",
                    ));
                }
                args.push(self.expr()?);
            }
            if self.eat(',') {
                // Python-style trailing comma: `(8,)`.
                if self.eat(')') {
                    return Ok((args, kwargs));
                }
                continue;
            }
            self.expect(')', "to close '('")?;
            return Ok((args, kwargs));
        }
    }
}

/// A parsed line: a binding or an expression.
pub(crate) enum Line<'a> {
    Empty,
    Bind(&'a str, Node<'a>),
    Expr(Node<'a>),
}

/// Parse one line of a script (comments already removed).
pub(crate) fn parse_line(src: &str) -> Result<Line<'_>> {
    let toks = lex(src)?;
    if toks.len() == 1 {
        return Ok(Line::Empty);
    }
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    let bind = match (&p.toks[0].tok, p.toks.get(1).map(|t| &t.tok)) {
        (Tok::Ident(name), Some(Tok::Punct('='))) => Some((*name, p.toks[0].col)),
        _ => None,
    };
    if let Some((name, col)) = &bind {
        if name.contains(['.', ':']) || *name == "o" {
            return Err(Error::at(
                *col,
                format!("'{name}' cannot be used as a name"),
            ));
        }
        p.pos = 2;
    }
    let node = p.expr()?;
    if *p.peek() != Tok::End {
        return Err(Error::at(
            p.col(),
            format!(
                "unexpected {} after the end of the expression",
                describe(p.peek())
            ),
        ));
    }
    Ok(match bind {
        Some((name, _)) => Line::Bind(name, node),
        None => Line::Expr(node),
    })
}
