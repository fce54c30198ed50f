//! Recursive-descent parser for the expression language (`docs/contract.md`)
//! over the tokens of [`crate::lex`]. Produces an AST with 1-based columns; evaluation is
//! separate so that a syntax error is reported before any work is done.

use crate::block::Dialect;
use crate::lex::{describe, lex, signed, Tok, Token};
use cute_core::error::{Error, Result};
use cute_core::tensor::Space;
use std::borrow::Cow;

/// Deepest nesting of parentheses, template brackets and calls a line may have.
pub const MAX_NESTING: usize = 64;

/// The most binary operators one expression chains (`a + b + ...`): each nests the tree
/// one level, which evaluation recurses through.
const MAX_CHAIN: usize = 256;

/// An AST node with its 1-based column.
#[derive(Clone, Debug)]
pub(crate) struct Node<'a> {
    pub expr: Expr<'a>,
    pub col: usize,
}

/// A name as written, namespaces included (`cute::make_layout`, `cute.make_layout`).
pub(crate) type Name<'a> = Cow<'a, str>;

/// Positional and keyword arguments of a call.
pub(crate) type Args<'a> = (Vec<Node<'a>>, Vec<(&'a str, Node<'a>)>);

/// A call: `name<targs>(args, kw=value)`.
#[derive(Clone, Debug)]
pub(crate) struct CallExpr<'a> {
    pub name: Name<'a>,
    pub targs: Vec<Node<'a>>,
    pub args: Vec<Node<'a>>,
    pub kwargs: Vec<(&'a str, Node<'a>)>,
}

/// A member: `obj.name`, `obj.name(args)`, `T::name`.
#[derive(Clone, Debug)]
pub(crate) struct MemberExpr<'a> {
    pub obj: Node<'a>,
    pub name: &'a str,
    pub call: Option<Args<'a>>,
}

/// A binary operator of C++ (and Python's `//`), in the order of C++'s precedence table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    /// `@`: C++'s print of a scaled basis vector, `k@i` (`k@i@j` nested)
    At,
    /// `*`
    Mul,
    /// `/` (C++'s: truncating)
    Div,
    /// `//` (Python's floor division)
    FloorDiv,
    /// `%`
    Rem,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&`
    BitAnd,
    /// `^`
    BitXor,
    /// `|`
    BitOr,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `!x`, read as `x == 0`
    Not,
}

#[derive(Clone, Debug)]
pub(crate) enum Expr<'a> {
    /// A static integer (`_8`, a template argument, the spec's and Python's integers).
    Int(i64),
    /// A C++ integer literal where C++ makes it an `int` (a function argument, an
    /// initializer): a dynamic integer.
    Dyn(i64),
    Under,
    Name(Name<'a>),
    /// `name{}`: a value of a type named without template arguments (C++ refuses one of
    /// a template whose arguments have no defaults).
    Made(Name<'a>),
    Tuple(Vec<Node<'a>>),
    /// `SHAPE:STRIDE`
    Layout(Box<Node<'a>>, Box<Node<'a>>),
    /// `name(args, kw=value)`, `name<targs>(args)` (boxed: the node stays small, and every
    /// parse level moves it).
    Call(Box<CallExpr<'a>>),
    /// `name<targs>` with optional `{}`: a C++ type's value (`Int<8>{}`, `Sw<B,M,S>`).
    Template {
        name: Name<'a>,
        targs: Vec<Node<'a>>,
        /// `{}` follows: a value of the type is made (the op structs' checks apply), not
        /// only the type named (`MMA_Traits<Op>`).
        made: bool,
    },
    /// `f(args)` where `f` is a value (a layout literal, a template value, a call result).
    Apply {
        f: Box<Node<'a>>,
        args: Vec<Node<'a>>,
    },
    /// `x.name`, `x.name(args)` (a member call), `T::name` (a member type).
    Member(Box<MemberExpr<'a>>),
    /// `a + b`, `a - b`, `a * b`, `a / b` (static-integer arithmetic).
    Binary {
        op: BinOp,
        lhs: Box<Node<'a>>,
        rhs: Box<Node<'a>>,
    },
    /// `a o b [o c]`
    Compose(Vec<Node<'a>>),
    /// `c ? a : b`, `a if c else b`
    Ternary {
        cond: Box<Node<'a>>,
        then: Box<Node<'a>>,
        other: Box<Node<'a>>,
    },
    /// Python `t[i]` or `t[lo:hi]`.
    Index {
        obj: Box<Node<'a>>,
        lo: Option<Box<Node<'a>>>,
        hi: Option<Box<Node<'a>>>,
        slice: bool,
    },
    /// Python `*t` in a call or tuple: t's elements in place.
    Splat(Box<Node<'a>>),
    /// A C++ pointer declaration's value (`T const* p = init;`, `T* p;`): a raw pointer
    /// to the pointee type, null without an initializer.
    PtrDecl {
        pointee: Box<Node<'a>>,
        init: Option<Box<Node<'a>>>,
    },
    /// `T x;`: a C++ declaration without an initializer, the type's value-initialized value.
    DefaultInit(Box<Node<'a>>),
    /// What C++ prints for a gmem or smem pointer, `gmem_ptr[16b](0x1000)`, with the
    /// swizzle before a swizzled one (`Sw<3,4,3>_smem_ptr[16b](...)`).
    PtrPrint {
        space: Space,
        bits: u32,
        addr: u64,
        swizzle: Option<Box<Node<'a>>>,
    },
}

struct Parser<'a> {
    toks: Vec<Token<'a>>,
    pos: usize,
    depth: usize,
    /// Inside how many template argument lists (C++ types) the parser is.
    in_targs: usize,
    /// Inside the arguments of a C++ `make_shape`/`make_stride`/... call of a spec-dialect
    /// line (where integers are C++ `int`s), outside the spec's own tuple literals.
    in_make_args: usize,
    /// In the first branch of `?:`, where `:` separates the branches.
    no_colon: bool,
    /// Whether the last argument list ended with `,` (Python's `(x,)`).
    trailing_comma: bool,
    /// The language the block is written in.
    dialect: Dialect,
}

/// The static-integer aliases CuTe defines (`cute/numeric/integral_constant.hpp`).
pub(crate) const STATIC_ALIASES: &[u64] = &[
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 96, 104, 112,
    120, 128, 136, 144, 152, 160, 168, 176, 184, 192, 200, 208, 216, 224, 232, 240, 248, 256, 384,
    512, 768, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288,
];

/// Namespace qualifiers that do not change what a name means (C++ namespaces and CuTeDSL
/// modules); a name is looked up without them. `GMMA::` and `UMMA::` are not here: they
/// tell the ops which family is meant.
pub const NAMESPACES: &[&str] = &[
    "cute::",
    "cutlass::",
    "gemm::",
    "collective::",
    "detail::",
    "cute.",
    "cutlass.",
    "SM90::",
    "SM100::",
    "nvgpu.",
    "warpgroup.",
    "warp.",
    "tcgen05.",
    "cpasync.",
    "utils.",
    "sm90_utils.",
    "sm100_utils.",
];

/// Drop the namespace qualifiers of [`NAMESPACES`] (they do not change the
/// meaning); `GMMA::` / `UMMA::` are kept for the ops to read.
pub(crate) fn strip_ns(name: &str) -> &str {
    // Every qualifier ends in `::` or `.`.
    if !name.bytes().any(|c| c == b':' || c == b'.') {
        return name;
    }
    let mut n = name;
    loop {
        let next = NAMESPACES.iter().find_map(|p| n.strip_prefix(p));
        match next {
            Some(rest) => n = rest,
            None => return n,
        }
    }
}

impl<'a> Parser<'a> {
    /// A parser of `toks` from position `pos`, outside any nesting.
    fn new(toks: Vec<Token<'a>>, pos: usize, dialect: Dialect) -> Parser<'a> {
        Parser {
            toks,
            pos,
            depth: 0,
            in_targs: 0,
            in_make_args: 0,
            no_colon: false,
            trailing_comma: false,
            dialect,
        }
    }

    fn peek(&self) -> &Tok<'a> {
        &self.toks[self.pos].tok
    }
    fn peek_at(&self, k: usize) -> Option<&Tok<'a>> {
        self.toks.get(self.pos + k).map(|t| &t.tok)
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

    /// expr := additive ('o' additive)*
    /// An expression that must end the input.
    fn expr_to_end(&mut self) -> Result<Node<'a>> {
        let node = self.expr()?;
        if *self.peek() != Tok::End {
            return Err(Error::at(
                self.col(),
                format!(
                    "unexpected {} after the end of the expression",
                    describe(self.peek())
                ),
            ));
        }
        Ok(node)
    }

    fn expr(&mut self) -> Result<Node<'a>> {
        let value = self.compose()?;
        match *self.peek() {
            // Python: `a if c else b`.
            Tok::Ident("if") => {
                self.next();
                self.enter()?;
                let cond = self.compose()?;
                if *self.peek() != Tok::Ident("else") {
                    return Err(Error::at(
                        self.col(),
                        format!(
                            "expected 'else' after 'if', found {}",
                            describe(self.peek())
                        ),
                    ));
                }
                self.next();
                let other = self.expr()?;
                self.leave();
                Ok(ternary(cond, value, other))
            }
            // C++: `c ? a : b` (a layout in a branch needs parentheses).
            Tok::Punct('?') => {
                self.next();
                self.enter()?;
                let saved = std::mem::replace(&mut self.no_colon, true);
                let then = self.compose()?;
                self.no_colon = saved;
                self.expect(':', "between the branches of '?'")?;
                let other = self.expr()?;
                self.leave();
                Ok(ternary(value, then, other))
            }
            _ => Ok(value),
        }
    }

    /// compose := additive ('o' additive)*
    #[inline(always)]
    fn compose(&mut self) -> Result<Node<'a>> {
        let first = self.additive()?;
        if !matches!(self.peek(), Tok::Ident("o")) {
            return Ok(first);
        }
        let col = first.col;
        let mut parts = vec![first];
        while matches!(self.peek(), Tok::Ident("o")) {
            self.next();
            parts.push(self.additive()?);
        }
        Ok(Node {
            expr: Expr::Compose(parts),
            col,
        })
    }

    /// The binary operator at the cursor: the operator, its tokens and its C++ precedence.
    /// `<` and `>` compare (or shift) only outside template arguments.
    fn binary_op(&self) -> Option<(BinOp, usize, u8)> {
        let c = match *self.peek() {
            Tok::Punct(c) => c,
            // C++'s alternative tokens (`a or b`, as CUTLASS's examples write them).
            Tok::Ident("or") => return Some((BinOp::Or, 1, 1)),
            Tok::Ident("and") => return Some((BinOp::And, 1, 2)),
            _ => return None,
        };
        // A second character only counts when it follows without a space.
        let next = match self.toks.get(self.pos + 1) {
            Some(t) if t.col == self.col() + 1 => match t.tok {
                Tok::Punct(n) => Some(n),
                _ => None,
            },
            _ => None,
        };
        let cmp = self.in_targs == 0;
        Some(match (c, next) {
            // Python's floor division (a `//` that is not a comment: see blank_comments).
            ('/', Some('/')) => (BinOp::FloorDiv, 2, 10),
            ('@', _) => (BinOp::At, 1, 11),
            ('*', _) => (BinOp::Mul, 1, 10),
            ('/', _) => (BinOp::Div, 1, 10),
            ('%', _) => (BinOp::Rem, 1, 10),
            ('+', _) => (BinOp::Add, 1, 9),
            ('-', _) => (BinOp::Sub, 1, 9),
            ('<', Some('<')) if cmp => (BinOp::Shl, 2, 8),
            ('>', Some('>')) if cmp => (BinOp::Shr, 2, 8),
            ('<', Some('=')) if cmp => (BinOp::Le, 2, 7),
            ('>', Some('=')) if cmp => (BinOp::Ge, 2, 7),
            ('<', _) if cmp => (BinOp::Lt, 1, 7),
            ('>', _) if cmp => (BinOp::Gt, 1, 7),
            ('=', Some('=')) => (BinOp::Eq, 2, 6),
            ('!', Some('=')) => (BinOp::Ne, 2, 6),
            ('&', Some('&')) => (BinOp::And, 2, 2),
            ('|', Some('|')) => (BinOp::Or, 2, 1),
            ('&', _) => (BinOp::BitAnd, 1, 5),
            ('^', _) => (BinOp::BitXor, 1, 4),
            ('|', _) => (BinOp::BitOr, 1, 3),
            _ => return None,
        })
    }

    /// additive := postfix (OP postfix)*, by C++ precedence (all left-associative).
    #[inline(always)]
    fn additive(&mut self) -> Result<Node<'a>> {
        self.binary(0)
    }

    fn binary(&mut self, min_prec: u8) -> Result<Node<'a>> {
        let mut lhs = self.postfix()?;
        // Each operator nests the left side one level deeper (evaluation recurses into
        // it): a chain is bounded, so `1+1+...` cannot exhaust the stack.
        let mut links = 0;
        while let Some((op, len, prec)) = self.binary_op() {
            if prec < min_prec {
                break;
            }
            for _ in 0..len {
                self.next();
            }
            links += 1;
            if links > MAX_CHAIN {
                return Err(Error::at(
                    self.col(),
                    format!(
                        "more than {MAX_CHAIN} binary operators in a row (split the expression)"
                    ),
                ));
            }
            self.enter()?;
            let rhs = self.binary(prec + 1)?;
            self.leave();
            lhs = binary(op, lhs, rhs);
        }
        Ok(lhs)
    }

    /// postfix := layout ('(' args ')' | '.' name ['(' args ')'] | '::' name [targs] ['{}'])*
    fn postfix(&mut self) -> Result<Node<'a>> {
        let mut node = self.layout()?;
        let mut links = 0;
        loop {
            let col = self.col();
            match *self.peek() {
                Tok::Punct('(') => {
                    self.next();
                    let (args, kwargs) = self.args(')')?;
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
                // Python subscripts: `t[1]`, `t[:2]`, `t[1:]`.
                Tok::Punct('[') => {
                    self.next();
                    let saved = std::mem::replace(&mut self.no_colon, true);
                    let mut lo = if matches!(self.peek(), Tok::Punct(':' | ']')) {
                        None
                    } else {
                        Some(Box::new(self.expr()?))
                    };
                    // Python's `t[a, b]` is `t[(a, b)]`: a tensor's coordinate.
                    let multi = lo.is_some() && *self.peek() == Tok::Punct(',');
                    if let Some(first) = lo.take_if(|_| multi) {
                        let tcol = first.col;
                        let mut items = vec![*first];
                        while self.eat(',') && *self.peek() != Tok::Punct(']') {
                            items.push(self.expr()?);
                        }
                        lo = Some(Box::new(Node {
                            expr: Expr::Tuple(items),
                            col: tcol,
                        }));
                    }
                    let slice = !multi && self.eat(':');
                    let hi = if slice && *self.peek() != Tok::Punct(']') {
                        Some(Box::new(self.expr()?))
                    } else {
                        None
                    };
                    self.no_colon = saved;
                    self.expect(']', "to close '['")?;
                    node = Node {
                        expr: Expr::Index {
                            obj: Box::new(node),
                            lo,
                            hi,
                            slice,
                        },
                        col,
                    };
                }
                Tok::Punct('.') | Tok::Scope => {
                    self.next();
                    let name_tok = self.next();
                    let Tok::Ident(name) = name_tok.tok else {
                        return Err(Error::at(
                            name_tok.col,
                            format!(
                                "expected a member name after '.' or '::', found {}",
                                describe(&name_tok.tok)
                            ),
                        ));
                    };
                    let call = if *self.peek() == Tok::Punct('(') {
                        self.next();
                        Some(self.args(')')?)
                    } else {
                        self.skip_braces()?;
                        None
                    };
                    node = Node {
                        expr: Expr::Member(Box::new(MemberExpr {
                            obj: node,
                            name,
                            call,
                        })),
                        col,
                    };
                }
                _ => break,
            }
            // Each link nests the node one level deeper: bound it like parentheses.
            links += 1;
            self.enter()?;
        }
        self.depth -= links;
        Ok(node)
    }

    /// `k@i@j` after a layout's `:`: C++'s print of a rank-1 layout's basis stride
    /// (`8:1@0`), which binds to the stride, not to the layout.
    fn basis_at(&mut self, mut node: Node<'a>) -> Result<Node<'a>> {
        while *self.peek() == Tok::Punct('@') {
            self.next();
            let rhs = self.primary()?;
            node = binary(BinOp::At, node, rhs);
        }
        Ok(node)
    }

    /// layout := primary (':' primary)?
    #[inline(always)]
    fn layout(&mut self) -> Result<Node<'a>> {
        let shape = self.primary()?;
        if *self.peek() != Tok::Punct(':') || self.no_colon {
            return Ok(shape);
        }
        self.next();
        let saved = std::mem::take(&mut self.in_make_args);
        let stride = self.primary().and_then(|d| self.basis_at(d));
        self.in_make_args = saved;
        let (mut shape, mut stride) = (shape, stride?);
        // The spec's `8:1` is static, also inside make_layout(...).
        for n in [&mut shape, &mut stride] {
            if let Expr::Dyn(v) = n.expr {
                n.expr = Expr::Int(v);
            }
        }
        let col = shape.col;
        Ok(Node {
            expr: Expr::Layout(Box::new(shape), Box::new(stride)),
            col,
        })
    }

    /// A name with its qualifiers: `a`, `cute::a`, `cute.nvgpu.a`, `GMMA::Major::K`.
    fn qualified(&mut self, first: &'a str, col: usize) -> Result<Name<'a>> {
        let is_link = |t: Option<&Tok>| matches!(t, Some(Tok::Scope | Tok::Punct('.')));
        if !(is_link(self.peek_at(0)) && matches!(self.peek_at(1), Some(Tok::Ident(_)))) {
            return Ok(Cow::Borrowed(first));
        }
        // Byte columns of the tokens make the written name a slice of the source.
        let start = col;
        let mut end_tok = self.pos;
        while is_link(self.toks.get(end_tok).map(|t| &t.tok))
            && matches!(
                self.toks.get(end_tok + 1).map(|t| &t.tok),
                Some(Tok::Ident(_))
            )
        {
            end_tok += 2;
        }
        let mut name = String::from(first);
        while self.pos < end_tok {
            let link = self.next();
            let Tok::Ident(seg) = self.next().tok else {
                unreachable!("checked above")
            };
            name.push_str(if link.tok == Tok::Scope { "::" } else { "." });
            name.push_str(seg);
        }
        let _ = start;
        Ok(Cow::Owned(name))
    }

    /// An integer literal: a C++ `int` (dynamic) where C++ makes one, static elsewhere
    /// (template arguments, the spec's tuples and layouts, Python).
    fn literal(&self, v: i64) -> Expr<'a> {
        let dynamic = self.in_targs == 0
            && match self.dialect {
                Dialect::Cpp => true,
                Dialect::Spec => self.in_make_args > 0,
                Dialect::Python => false,
            };
        if dynamic {
            Expr::Dyn(v)
        } else {
            Expr::Int(v)
        }
    }

    fn primary(&mut self) -> Result<Node<'a>> {
        let t = self.next();
        let col = t.col;
        let expr = match t.tok {
            Tok::Int(v) => self.literal(signed(v, false, col)?),
            Tok::Static(v) => self.static_int(v, col)?,
            Tok::Under => {
                self.skip_braces()?;
                Expr::Under
            }
            // C++ logical not (of a predicate or an integer), `!` or its alternative token.
            Tok::Punct('!') | Tok::Ident("not") if *self.peek() != Tok::Punct('=') => {
                self.enter()?;
                let inner = self.postfix()?;
                self.leave();
                let zero = Node {
                    expr: Expr::Int(0),
                    col,
                };
                return Ok(binary(BinOp::Not, inner, zero));
            }
            Tok::Punct(sign @ ('-' | '+')) => return self.signed_value(sign, col),
            Tok::Punct('(') if self.c_cast_end().is_some() => return self.c_cast(col),
            Tok::Punct(open @ ('(' | '[')) => return self.bracketed(open, col),
            // `static_cast<T*>(p)` and its kin: a pointer of T at p's address.
            Tok::Ident("static_cast" | "reinterpret_cast" | "const_cast")
                if *self.peek() == Tok::Punct('<') =>
            {
                return self.cpp_cast(col)
            }
            // `::cutlass::...`: the global namespace qualifier.
            Tok::Scope if matches!(self.peek(), Tok::Ident(_)) => {
                return self.primary();
            }
            Tok::Ident("typename") => {
                // `typename T::member{}`: the keyword adds nothing to the value.
                return self.primary();
            }
            Tok::Ident("o") => {
                return Err(Error::at(
                    col,
                    "the composition operator 'o' needs an operand on its left",
                ))
            }
            // `cute::_32{}`: a namespaced static-integer alias.
            Tok::Ident("cute" | "cutlass")
                if *self.peek() == Tok::Scope
                    && matches!(self.peek_at(1), Some(Tok::Static(_))) =>
            {
                self.next();
                return self.primary();
            }
            // C++'s print of a pointer (`gmem_ptr[16b](0x1000)`) or of a smem atom's offset
            // (`smem_ptr[16b](unset)`), pasted back.
            Tok::Ident(ptr)
                if *self.peek() == Tok::Punct('[')
                    && matches!(self.peek_at(1), Some(Tok::Bits(_))) =>
            {
                self.pointer_print(ptr, col, None)?
            }
            Tok::Ident(first) => self.named(first, col)?,
            other => {
                return Err(Error::at(
                    col,
                    format!("expected a value, found {}", describe(&other)),
                ))
            }
        };
        Ok(Node { expr, col })
    }

    /// After a `(`: the index of its `)` when the tokens between are a pointer type
    /// (`(float*)`, `(half_t const*)`), the cast `(T*)p`.
    fn c_cast_end(&self) -> Option<usize> {
        let close = (self.pos..self.toks.len()).take(16).find(|&i| {
            matches!(
                self.toks[i].tok,
                Tok::Punct(')') | Tok::Punct('(') | Tok::End
            )
        })?;
        (self.toks[close].tok == Tok::Punct(')')
            && pointer_declarator(&self.toks[self.pos..close]).is_some())
        .then_some(close)
    }

    /// `(T*)p`: [`Parser::c_cast_end`] found the type.
    fn c_cast(&mut self, col: usize) -> Result<Node<'a>> {
        let cast = self
            .c_cast_end()
            .and_then(|close| Some((close, pointer_declarator(&self.toks[self.pos..close])?.0)));
        let Some((close, ty)) = cast else {
            return Err(Error::at(col, "expected a pointer type in the cast (T*)p"));
        };
        self.pos = close + 1;
        let pointee = parse_tokens(&ty, col, self.dialect)?;
        self.enter()?;
        let init = self.postfix();
        self.leave();
        Ok(ptr_decl(pointee, Some(init?)))
    }

    /// `static_cast<T*>(p)`, `reinterpret_cast<T*>(p)`, `const_cast<T*>(p)`.
    fn cpp_cast(&mut self, col: usize) -> Result<Node<'a>> {
        let open = self.pos;
        let close = (open + 1..self.toks.len())
            .take(16)
            .find(|&i| matches!(self.toks[i].tok, Tok::Punct('>') | Tok::End))
            .filter(|&i| self.toks[i].tok == Tok::Punct('>'));
        // `static_cast<int>(x)`: an integer type, the integer itself.
        if let Some(c) = close {
            if let [only] = &self.toks[open + 1..c] {
                let Tok::Ident(t) = only.tok else {
                    return Err(Error::at(col, "a cast here is to a pointer type or an integer type: static_cast<T*>(p), static_cast<int>(x)"));
                };
                if matches!(
                    t,
                    "int"
                        | "int32_t"
                        | "int64_t"
                        | "uint32_t"
                        | "uint64_t"
                        | "size_t"
                        | "long"
                        | "unsigned"
                ) && self.toks[open - 1].tok == Tok::Ident("static_cast")
                {
                    self.pos = c + 1;
                    if *self.peek() != Tok::Punct('(') {
                        return Err(Error::at(self.col(), "expected '(' after the cast's type"));
                    }
                    self.next();
                    self.enter()?;
                    let parsed = self.args(')');
                    self.leave();
                    let (args, kwargs) = parsed?;
                    if args.len() != 1 || !kwargs.is_empty() {
                        return Err(Error::at(
                            col,
                            "a cast takes one value: static_cast<int>(x)",
                        ));
                    }
                    return Ok(Node {
                        expr: Expr::Call(Box::new(CallExpr {
                            name: Cow::Borrowed("int"),
                            targs: Vec::new(),
                            args,
                            kwargs: Vec::new(),
                        })),
                        col,
                    });
                }
            }
        }
        let Some((ty, _)) = close.and_then(|c| pointer_declarator(&self.toks[open + 1..c])) else {
            return Err(Error::at(
                col,
                "a cast here is to a pointer type: static_cast<T*>(p)",
            ));
        };
        self.pos = close.unwrap_or(open) + 1;
        if *self.peek() != Tok::Punct('(') {
            return Err(Error::at(self.col(), "expected '(' after the cast's type"));
        }
        let pointee = parse_tokens(&ty, col, self.dialect)?;
        self.next();
        self.enter()?;
        let parsed = self.args(')');
        self.leave();
        let (mut items, kwargs) = parsed?;
        if items.len() != 1 || !kwargs.is_empty() {
            return Err(Error::at(col, "a cast takes one value: static_cast<T*>(p)"));
        }
        let reinterpret = self.toks[open - 1].tok == Tok::Ident("reinterpret_cast");
        if reinterpret && matches!(&items[0].expr, Expr::Name(n) if *n == "nullptr") {
            return Err(Error::at(
                col,
                "C++ does not reinterpret_cast nullptr (std::nullptr_t is not a pointer): static_cast<T*>(nullptr)",
            ));
        }
        Ok(ptr_decl(pointee, items.pop()))
    }

    /// `_8` (and `_8{}`): a static integer; in C++ only CuTe's aliases exist.
    fn static_int(&mut self, v: u64, col: usize) -> Result<Expr<'a>> {
        // `_8{}` and `Shape<_8>` are C++, where only CuTe's aliases exist; the
        // language's bare `_N` (the spec) is any integer.
        let braced = *self.peek() == Tok::Punct('{');
        self.skip_braces()?;
        if (braced || self.in_targs > 0) && !STATIC_ALIASES.contains(&v) {
            return Err(Error::at(
                col,
                format!("CuTe defines no '_{v}' (write Int<{v}>{{}})"),
            ));
        }
        Ok(Expr::Int(signed(v, false, col)?))
    }

    /// `-8`, `+8`, and `-x` of a value (`0 - x`), after the sign.
    fn signed_value(&mut self, sign: char, col: usize) -> Result<Node<'a>> {
        let expr = match self.peek() {
            Tok::Int(v) => {
                let v = *v;
                self.next();
                self.literal(signed(v, sign == '-', col)?)
            }
            _ if sign == '-' => {
                // `-x` of a value: 0 - x.
                self.enter()?;
                let operand = self.postfix()?;
                self.leave();
                return Ok(binary(
                    BinOp::Sub,
                    Node {
                        expr: Expr::Int(0),
                        col,
                    },
                    operand,
                ));
            }
            other => {
                return Err(Error::at(
                    col,
                    format!("'+' must be followed by a value, found {}", describe(other)),
                ))
            }
        };
        Ok(Node { expr, col })
    }

    /// `(a, b)` or `[a, b]` after its opening bracket: a tuple, or C++/Python's grouping
    /// parentheses.
    fn bracketed(&mut self, open: char, col: usize) -> Result<Node<'a>> {
        self.enter()?;
        self.trailing_comma = false;
        // The spec's tuple literal: its integers are static, even in make_shape(...).
        let saved = if self.dialect == Dialect::Spec {
            std::mem::take(&mut self.in_make_args)
        } else {
            self.in_make_args
        };
        let parsed = self.args(if open == '(' { ')' } else { ']' });
        self.in_make_args = saved;
        let (mut items, kwargs) = parsed?;
        self.leave();
        if !kwargs.is_empty() {
            return Err(Error::at(col, "'=' is not allowed inside a tuple"));
        }
        // C++ and Python parentheses group: `(x)` is x there, `(x,)` a 1-tuple.
        let grouping = self.dialect != Dialect::Spec
            && open == '('
            && items.len() == 1
            && !self.trailing_comma
            && !matches!(items[0].expr, Expr::Splat(_));
        if grouping {
            return Ok(items.pop().expect("one item"));
        }
        Ok(Node {
            expr: Expr::Tuple(items),
            col,
        })
    }

    /// A name and what follows it: its template arguments, a call's arguments, braces, or
    /// the rest of C++'s print of a swizzled smem pointer.
    fn named(&mut self, first: &'a str, col: usize) -> Result<Expr<'a>> {
        let name = self.qualified(first, col)?;
        let mut targs = None;
        if *self.peek() == Tok::Punct('<') {
            self.next();
            self.enter()?;
            self.in_targs += 1;
            targs = Some(self.template_args()?);
            self.in_targs -= 1;
            self.leave();
        }
        Ok(if *self.peek() == Tok::Punct('(') {
            self.next();
            self.enter()?;
            // C++-only spellings; the spec's make_layout/make_tile keep its integers.
            let make = matches!(
                strip_ns(&name),
                "make_shape" | "make_stride" | "make_coord" | "make_step"
            );
            self.in_make_args += usize::from(make);
            // A call's arguments are values even inside template arguments
            // (`decltype(make_shape(4, 8))`), and `<`, `>` compare there, as in C++.
            let targs_depth = std::mem::take(&mut self.in_targs);
            let parsed = self.args(')');
            self.in_targs = targs_depth;
            self.in_make_args -= usize::from(make);
            let (args, kwargs) = parsed?;
            self.leave();
            Expr::Call(Box::new(CallExpr {
                name,
                targs: targs.unwrap_or_default(),
                args,
                kwargs,
            }))
        } else {
            let made = *self.peek() == Tok::Punct('{');
            self.skip_braces()?;
            let value = match targs {
                Some(targs) => Expr::Template { name, targs, made },
                None if made => Expr::Made(name),
                None => Expr::Name(name),
            };
            // C++ prints a swizzled smem pointer `Sw<3,4,3>_smem_ptr[16b](0x1000)`.
            match *self.peek() {
                Tok::Ident(ptr)
                    if ptr.starts_with('_')
                        && self.peek_at(1) == Some(&Tok::Punct('['))
                        && matches!(self.peek_at(2), Some(Tok::Bits(_))) =>
                {
                    let ptr_col = self.col();
                    self.next();
                    let swizzle = Node { expr: value, col };
                    self.pointer_print(&ptr[1..], ptr_col, Some(swizzle))?
                }
                _ => value,
            }
        })
    }

    /// What C++ prints for a pointer, after its name (the `[16b]` ahead): a gmem or smem
    /// pointer `gmem_ptr[16b](0x1000)` / `((nil))`; with `swizzle`, a swizzled smem pointer
    /// (C++'s `make_smem_ptr(ptr, Sw<3,4,3>{})`); and a smem atom's offset
    /// `smem_ptr[16b](unset)`, `smem_ptr_flag_bits<16>`. Other pointers' prints (sub-byte, register, tensor memory)
    /// are refused with what to write instead.
    fn pointer_print(
        &mut self,
        ptr: &'a str,
        col: usize,
        swizzle: Option<Node<'a>>,
    ) -> Result<Expr<'a>> {
        self.next();
        let width = self.next();
        let Tok::Bits(bits) = width.tok else {
            unreachable!("peeked")
        };
        self.expect(']', "to close the pointer's '[NNb]'")?;
        let node = |expr| Node {
            expr,
            col: width.col,
        };
        let paren = *self.peek() == Tok::Punct('(');
        let unset = paren && self.peek_at(1) == Some(&Tok::Ident("unset"));
        if ptr == "smem_ptr" && swizzle.is_none() && (!paren || unset) {
            if unset {
                self.next();
                self.next();
                self.expect(')', "to close 'smem_ptr[NNb](unset'")?;
            }
            return Ok(Expr::Template {
                name: Cow::Borrowed("smem_ptr_flag_bits"),
                targs: vec![node(Expr::Int(signed(bits, false, width.col)?))],
                made: true,
            });
        }
        // A pointer holds only its width; C++ prints sub-byte pointers as `subptr`.
        let width_read = matches!(bits, 8 | 16 | 32 | 64 | 128);
        let space = match ptr {
            "gmem_ptr" => Some(Space::Gmem),
            "smem_ptr" => Some(Space::Smem),
            _ => None,
        };
        if let (true, Some(_), false) = (width_read, space, paren) {
            return Err(Error::at(
                self.col(),
                format!(
                    "expected the pointer's address after '{ptr}[{bits}b]': C++ prints \
                     {ptr}[{bits}b](0x1000) or {ptr}[{bits}b]((nil))"
                ),
            ));
        }
        let (true, Some(space), true) = (width_read, space, paren) else {
            let write = match ptr {
                p if p.contains("gmem") => "make_tensor(make_gmem_ptr<T>(ADDRESS), LAYOUT)",
                p if p.contains("smem") => "make_tensor(make_smem_ptr<T>(ADDRESS), LAYOUT)",
                _ => "make_tensor<T>(LAYOUT)",
            };
            return Err(Error::at(
                col,
                format!(
                    "'{ptr}[{bits}b](...)' is how C++ prints a pointer this language does not \
                     read back (gmem_ptr and smem_ptr of 8 to 128 bits are read): write the \
                     tensor as {write}"
                ),
            ));
        };
        self.next();
        let addr = match self.next() {
            // An address is a non-negative C++ integer, as make_gmem_ptr<T>(address) takes.
            Token {
                tok: Tok::Int(a),
                col,
            } => signed(a, false, col)?.unsigned_abs(),
            // glibc's `%p` of a null pointer.
            Token {
                tok: Tok::Punct('('),
                ..
            } => {
                let nil = self.next();
                if nil.tok != Tok::Ident("nil") {
                    return Err(Error::at(
                        nil.col,
                        format!("expected '(nil)', found {}", describe(&nil.tok)),
                    ));
                }
                self.expect(')', "to close '(nil'")?;
                0
            }
            t => {
                return Err(Error::at(
                    t.col,
                    format!(
                        "expected the pointer's address (0x1000 or (nil)), found {}",
                        describe(&t.tok)
                    ),
                ))
            }
        };
        self.expect(')', "to close the pointer's address")?;
        if swizzle.is_some() && space != Space::Smem {
            return Err(Error::at(
                col,
                format!("C++ swizzles only shared-memory pointers, not {ptr}"),
            ));
        }
        Ok(Expr::PtrPrint {
            space,
            bits: u32::try_from(bits).expect("a width of 8 to 128 bits"),
            addr,
            swizzle: swizzle.map(Box::new),
        })
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

    /// Comma-separated expressions up to `close`; `name=expr` entries are keyword arguments.
    fn args(&mut self, close: char) -> Result<Args<'a>> {
        let saved = std::mem::replace(&mut self.no_colon, false);
        let r = self.args_inner(close);
        self.no_colon = saved;
        r
    }

    /// One argument: a lone integer literal (most of a tuple's entries) directly, anything
    /// else through the whole grammar; the node is the same either way.
    fn arg(&mut self, close: char) -> Result<Node<'a>> {
        if let Tok::Int(v) = *self.peek() {
            if matches!(self.peek_at(1), Some(Tok::Punct(c)) if *c == ',' || *c == close) {
                let col = self.col();
                self.next();
                return Ok(Node {
                    expr: self.literal(signed(v, false, col)?),
                    col,
                });
            }
        }
        self.expr()
    }

    fn args_inner(&mut self, close: char) -> Result<Args<'a>> {
        let mut kwargs = Vec::new();
        if self.eat(close) {
            return Ok((Vec::new(), kwargs));
        }
        // Most argument lists and tuples have 2 to 4 entries: one allocation, not a growing
        // vector's two or three.
        let mut args = Vec::with_capacity(4);
        loop {
            let is_kw = matches!(self.peek(), Tok::Ident(_))
                && self.peek_at(1) == Some(&Tok::Punct('='))
                && self.peek_at(2) != Some(&Tok::Punct('='));
            if is_kw {
                let Tok::Ident(name) = self.next().tok else {
                    unreachable!("checked")
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
                // Python's `*t`: the elements of t in place.
                if *self.peek() == Tok::Punct('*') {
                    let col = self.col();
                    self.next();
                    let inner = self.expr()?;
                    args.push(Node {
                        expr: Expr::Splat(Box::new(inner)),
                        col,
                    });
                } else {
                    args.push(self.arg(close)?);
                }
            }
            if self.eat(',') {
                // Python-style trailing comma: `(8,)`.
                if self.eat(close) {
                    self.trailing_comma = true;
                    return Ok((args, kwargs));
                }
                continue;
            }
            self.expect(
                close,
                if close == ')' {
                    "to close '('"
                } else {
                    "to close '['"
                },
            )?;
            return Ok((args, kwargs));
        }
    }
}

fn ternary<'a>(cond: Node<'a>, then: Node<'a>, other: Node<'a>) -> Node<'a> {
    let col = cond.col;
    Node {
        expr: Expr::Ternary {
            cond: Box::new(cond),
            then: Box::new(then),
            other: Box::new(other),
        },
        col,
    }
}

fn binary<'a>(op: BinOp, lhs: Node<'a>, rhs: Node<'a>) -> Node<'a> {
    let col = lhs.col;
    Node {
        expr: Expr::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        col,
    }
}

/// A parsed statement: a binding, an expression, or nothing to evaluate.
pub(crate) enum Line<'a> {
    /// Blank, or a statement with no value (`using namespace cute;`, `import cutlass`).
    Empty,
    /// `NAME = expr`, `using NAME = TYPE`, `auto NAME = expr`, `constexpr int NAME = expr`,
    /// `T const* NAME = expr`, `T NAME` (and `threadIdx.x = expr`).
    Bind(Name<'a>, Node<'a>),
    /// Python `a, b = expr`: the elements of a tuple.
    BindMany(Vec<&'a str>, Node<'a>),
    Expr(Node<'a>),
    /// C++'s `a * b;`: a pointer declaration (`decl`, binding `name`) when `a` names a
    /// type, else the product; only the bindings tell which.
    PtrOrProduct {
        name: &'a str,
        pointee: Node<'a>,
        decl: Node<'a>,
        product: Node<'a>,
    },
}

/// Words that cannot be bound: the composition operator and C++/Python keywords.
fn is_reserved(name: &str) -> bool {
    matches!(
        name,
        "o" | "using"
            | "auto"
            | "const"
            | "constexpr"
            | "static"
            | "int"
            | "bool"
            | "typename"
            | "decltype"
            | "return"
            | "if"
            | "else"
            | "None"
            | "True"
            | "False"
    )
}

/// Words that start a statement with no value to show.
fn is_ignored_statement(toks: &[Token]) -> bool {
    match (toks.first().map(|t| &t.tok), toks.get(1).map(|t| &t.tok)) {
        (Some(Tok::Ident("using")), Some(Tok::Ident("namespace"))) => true,
        (Some(Tok::Ident("import" | "from" | "namespace" | "pass")), _) => true,
        // `using cute::Layout;`: a using-declaration (a qualified name, no `=`).
        (Some(Tok::Ident("using")), _) => {
            !toks.iter().any(|t| t.tok == Tok::Punct('='))
                && toks.iter().any(|t| t.tok == Tok::Scope)
        }
        _ => false,
    }
}

/// Parse one statement (comments already blanked): an expression, a binding in any of the
/// spellings of the spec, C++ (`using X = decltype(E);`, `auto x = E;`, `constexpr int k = 3;`,
/// `TiledMMA mma = E;`) and Python (`x = E`), or a statement with no value.
pub(crate) fn parse_line(src: &str, dialect: Dialect) -> Result<Line<'_>> {
    let Some(toks) = statement_tokens(src)? else {
        return Ok(Line::Empty);
    };
    let toks = augmented(toks);
    let eq = assignment_eq(&toks);
    let many = match eq {
        Some(k) => bound_names(&toks, k)?,
        None => None,
    };
    let mut start = 0;
    let mut bind: Option<Name> = None;
    // `T const* p = ...`: the pointee's tokens.
    let mut pointee = None;
    if let (Some(k), None) = (eq, &many) {
        let (name, ptr) = bound_target(&toks, k, dialect)?;
        bind = Some(name);
        pointee = ptr;
        start = k + 1;
    }
    if eq.is_none() && dialect == Dialect::Cpp {
        if let Some(line) = declaration(&toks, dialect)? {
            return Ok(line);
        }
    }
    let pointee = match pointee {
        Some(ty) => Some(parse_tokens(
            &ty,
            toks[start.min(toks.len() - 1)].col,
            dialect,
        )?),
        None => None,
    };
    let mut p = Parser::new(toks, start, dialect);
    if bind.is_none() && *p.peek() == Tok::Ident("return") {
        p.next();
    }
    if let (Some(k), Some(_)) = (eq, &many) {
        p.pos = k + 1;
    }
    let node = p.expr_to_end()?;
    Ok(match (bind, many) {
        (_, Some(names)) => Line::BindMany(names, node),
        (Some(name), None) => match pointee {
            Some(ty) => Line::Bind(name, ptr_decl(ty, Some(node))),
            None => Line::Bind(name, node),
        },
        (None, None) => Line::Expr(node),
    })
}

/// `x += e` (and `-=`, `*=`, `/=`, `//=`, `%=`, `&=`, `|=`, `^=`) as `x = x + (e)`; other
/// statements as they are.
fn augmented(toks: Vec<Token<'_>>) -> Vec<Token<'_>> {
    let is_op = |t: &Token| {
        matches!(
            t.tok,
            Tok::Punct('+' | '-' | '*' | '/' | '%' | '&' | '|' | '^')
        )
    };
    // The target: a name, or a CuTeDSL kernel class's `self.NAME`.
    let target = match toks.as_slice() {
        [Token {
            tok: Tok::Ident("self"),
            ..
        }, Token {
            tok: Tok::Punct('.'),
            ..
        }, Token {
            tok: Tok::Ident(_), ..
        }, ..] => 3,
        [Token {
            tok: Tok::Ident(_), ..
        }, ..] => 1,
        _ => return toks,
    };
    let after = &toks[target..];
    let ops = match after {
        [op, Token {
            tok: Tok::Punct('='),
            ..
        }, ..]
            if is_op(op) =>
        {
            1
        }
        [Token {
            tok: Tok::Punct('/'),
            ..
        }, Token {
            tok: Tok::Punct('/'),
            ..
        }, Token {
            tok: Tok::Punct('='),
            ..
        }, ..] => 2,
        _ => return toks,
    };
    // `x + = e` with spaces is not C++ or Python: only the adjacent spelling.
    let eq_at = target + ops;
    if toks[eq_at].col != toks[eq_at - 1].col + 1 {
        return toks;
    }
    let (name, eq) = (toks[target - 1], toks[eq_at]);
    let rest = &toks[eq_at + 1..];
    let end = rest.len().saturating_sub(1);
    let paren = |c: char, col: usize| Token {
        tok: Tok::Punct(c),
        col,
    };
    // `NAME = TARGET op (rest)`: the target read back as written (`self.x` is `x`).
    let mut out = vec![name, eq];
    out.extend_from_slice(&toks[..eq_at]);
    // Nothing after `+=`: the parser names the missing operand at the end.
    if end > 0 {
        out.push(paren('(', rest[0].col));
        out.extend_from_slice(&rest[..end]);
        out.push(paren(')', rest[end].col));
    }
    out.extend_from_slice(&rest[end..]);
    out
}

/// The tokens of one statement: a trailing `;` dropped; `None` for a line that states
/// nothing (empty, or a statement the language ignores).
fn statement_tokens(src: &str) -> Result<Option<Vec<Token<'_>>>> {
    let mut toks = lex(src)?;
    // A trailing `;` ends a C++ statement.
    while toks.len() >= 2 && toks[toks.len() - 2].tok == Tok::Punct(';') {
        let end = toks.pop().expect("End");
        toks.pop();
        toks.push(end);
    }
    if toks.len() == 1 || is_ignored_statement(&toks) {
        return Ok(None);
    }
    if toks[0].tok == Tok::Ident("using") && !toks.iter().any(|t| t.tok == Tok::Punct('=')) {
        return Err(Error::at(
            toks.get(2).map_or(toks[0].col, |t| t.col),
            "expected '=' in 'using NAME = TYPE'",
        ));
    }
    if let Some(semi) = toks.iter().find(|t| t.tok == Tok::Punct(';')) {
        return Err(Error::at(
            semi.col,
            "one statement per line: ';' ends a statement (put the next one on its own line)",
        ));
    }
    Ok(Some(toks))
}

/// The position of the assignment's `=`: the first `=` outside brackets that is not part
/// of `==`, `!=`, `<=` or `>=`.
fn assignment_eq(toks: &[Token]) -> Option<usize> {
    let mut depth = 0i64;
    for (k, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Punct('(' | '[' | '{' | '<') => depth += 1,
            Tok::Punct(')' | ']' | '}' | '>') => depth -= 1,
            // `=`, not `==`, `!=`, `<=` or `>=`.
            Tok::Punct('=')
                if depth == 0
                    && toks.get(k + 1).map(|t| t.tok) != Some(Tok::Punct('='))
                    && !matches!(
                        k.checked_sub(1).map(|i| toks[i].tok),
                        Some(Tok::Punct('=' | '!' | '<' | '>'))
                    ) =>
            {
                return Some(k);
            }
            _ => {}
        }
    }
    None
}

/// `a, b = ...` (and C++'s structured binding `auto [a, b] = ...`): the names before the
/// `=` at `k`; `None` when one name (or none) is bound.
fn bound_names<'a>(toks: &[Token<'a>], k: usize) -> Result<Option<Vec<&'a str>>> {
    // `a, b = ...`: names separated by commas; C++'s structured binding
    // `auto [a, b] = ...` (also `auto const& [a, b]`) is the same.
    let mut targets: Vec<Token> = toks[..k].to_vec();
    if let Some(open) = targets.iter().position(|t| t.tok == Tok::Punct('[')) {
        let qualifiers = targets[..open]
            .iter()
            .all(|t| matches!(t.tok, Tok::Ident("auto" | "const") | Tok::Punct('&')));
        if open > 0 && qualifiers && targets.last().map(|t| t.tok) == Some(Tok::Punct(']')) {
            targets = targets[open + 1..targets.len() - 1].to_vec();
        }
    }
    let commas = targets.iter().filter(|t| t.tok == Tok::Punct(',')).count();
    if commas > 0 {
        let names: Option<Vec<&str>> = targets
            .iter()
            .enumerate()
            .map(|(i, t)| match (i % 2, t.tok) {
                (0, Tok::Ident(n)) => Some(Some(n)),
                (1, Tok::Punct(',')) => Some(None),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .map(|v| v.into_iter().flatten().collect());
        match names {
            Some(names) if targets.len() % 2 == 1 => return Ok(Some(names)),
            _ => {
                return Err(Error::at(
                    toks[0].col,
                    "expected names separated by ',' before '='",
                ))
            }
        }
    }
    Ok(None)
}

/// The name bound by the `=` at `k` (a member `threadIdx.x` as its builtin), and the
/// pointee's tokens of a C++ pointer declaration (`T const* p = ...`).
fn bound_target<'a>(
    toks: &[Token<'a>],
    k: usize,
    dialect: Dialect,
) -> Result<(Name<'a>, Option<Vec<Token<'a>>>)> {
    let name_tok = k.checked_sub(1).map(|i| toks[i]);
    match name_tok.map(|t| t.tok) {
        Some(Tok::Ident(name)) if !is_reserved(name) => {
            let before = k.checked_sub(2).map(|i| toks[i].tok);
            // `self.NAME = ...` of a CuTeDSL kernel class binds NAME (read back as
            // `self.NAME` or `NAME`).
            let object = k.checked_sub(3).map(|i| toks[i].tok);
            if dialect == Dialect::Python
                && before == Some(Tok::Punct('.'))
                && object == Some(Tok::Ident("self"))
                && k == 3
            {
                return Ok((Cow::Borrowed(name), None));
            }
            if matches!(before, Some(Tok::Punct('.') | Tok::Scope)) {
                return Ok((
                    Cow::Owned(builtin_index(&toks[..k]).ok_or_else(|| {
                        Error::at(
                            toks[k - 1].col,
                            format!("'{name}' is a member: only plain names can be bound"),
                        )
                    })?),
                    None,
                ));
            }
            let pointee = match dialect {
                Dialect::Cpp => pointer_declarator(&toks[..k - 1]).map(|(ty, _)| ty),
                _ => None,
            };
            Ok((Cow::Borrowed(name), pointee))
        }
        _ => Err(Error::at(
            name_tok.map_or(toks[k].col, |t| t.col),
            "expected a name before '='",
        )),
    }
}

/// `threadIdx.x` / `blockIdx.y` as an assignment's target (`threadIdx.x = 37;` picks the
/// thread a kernel's lines are evaluated for); `None` for any other member.
fn builtin_index(target: &[Token]) -> Option<String> {
    match target {
        [Token {
            tok: Tok::Ident(obj @ ("threadIdx" | "blockIdx")),
            ..
        }, Token {
            tok: Tok::Punct('.'),
            ..
        }, Token {
            tok: Tok::Ident(m @ ("x" | "y" | "z")),
            ..
        }] => Some(format!("{obj}.{m}")),
        _ => None,
    }
}

/// Words of a C++ declarator that do not change the pointee's value.
fn is_qualifier(w: &str) -> bool {
    matches!(
        w,
        "const" | "volatile" | "static" | "constexpr" | "inline" | "__restrict__" | "__restrict"
    )
}

/// A C++ pointer declarator before the declared name (`TA const*`, `cute::half_t *`,
/// `float* const`): the pointee type's tokens (qualifiers dropped) and whether it was
/// written `const`. `None` when the declarator is not a pointer, or is `auto*` (whose
/// pointee is the initializer's).
fn pointer_declarator<'a>(decl: &[Token<'a>]) -> Option<(Vec<Token<'a>>, bool)> {
    let mut end = decl.len();
    while end > 0 && matches!(decl[end - 1].tok, Tok::Ident(w) if is_qualifier(w)) {
        end -= 1;
    }
    if end < 2 || decl[end - 1].tok != Tok::Punct('*') {
        return None;
    }
    let ty = &decl[..end - 1];
    let konst = ty.iter().any(|t| t.tok == Tok::Ident("const"));
    let kept: Vec<Token> = ty
        .iter()
        .filter(|t| !matches!(t.tok, Tok::Ident(w) if is_qualifier(w)))
        .copied()
        .collect();
    match kept.as_slice() {
        [] => None,
        [Token {
            tok: Tok::Ident("auto"),
            ..
        }] => None,
        _ => Some((kept, konst)),
    }
}

/// Parse `toks` (no `End`) as one whole expression; `end_col` is the column the end of
/// input is reported at.
fn parse_tokens<'a>(toks: &[Token<'a>], end_col: usize, dialect: Dialect) -> Result<Node<'a>> {
    let mut all = toks.to_vec();
    all.push(Token {
        tok: Tok::End,
        col: end_col,
    });
    let mut p = Parser::new(all, 0, dialect);
    let node = p.expr_to_end()?;
    Ok(node)
}

fn ptr_decl<'a>(pointee: Node<'a>, init: Option<Node<'a>>) -> Node<'a> {
    let col = pointee.col;
    Node {
        expr: Expr::PtrDecl {
            pointee: Box::new(pointee),
            init: init.map(Box::new),
        },
        col,
    }
}

/// A C++ declaration without an initializer (`toks` ends with `End`): `T const* p` (a
/// null pointer, as a kernel's pointer parameter is here), `T* p` (or the product `T * p`:
/// [`Line::PtrOrProduct`]), `T x` (the type's value, as `T x;` value-initializes a CuTe
/// type). `None` when the statement is no such declaration.
fn declaration<'a>(toks: &[Token<'a>], dialect: Dialect) -> Result<Option<Line<'a>>> {
    let end = toks[toks.len() - 1].col;
    let body = &toks[..toks.len() - 1];
    let [.., before, last] = body else {
        return Ok(None);
    };
    let Tok::Ident(name) = last.tok else {
        return Ok(None);
    };
    if is_reserved(name)
        || matches!(before.tok, Tok::Punct('.') | Tok::Scope)
        || matches!(body[0].tok, Tok::Ident("return" | "print"))
    {
        return Ok(None);
    }
    if let Some((ty, konst)) = pointer_declarator(&body[..body.len() - 1]) {
        let Ok(pointee) = parse_tokens(&ty, last.col, dialect) else {
            return Ok(None);
        };
        if konst || matches!(&pointee.expr, Expr::Name(n) if n == "void") {
            return Ok(Some(Line::Bind(
                Cow::Borrowed(name),
                ptr_decl(pointee, None),
            )));
        }
        let decl = ptr_decl(pointee.clone(), None);
        return Ok(Some(match parse_tokens(body, end, dialect) {
            Ok(product) => Line::PtrOrProduct {
                name,
                pointee,
                decl,
                product,
            },
            Err(_) => Line::Bind(Cow::Borrowed(name), decl),
        }));
    }
    if !matches!(before.tok, Tok::Ident(_) | Tok::Punct('>')) {
        return Ok(None);
    }
    let Ok(mut ty) = parse_tokens(&body[..body.len() - 1], last.col, dialect) else {
        return Ok(None);
    };
    // C++ constructs the object: the op struct's checks apply, as for `T{}`.
    if let Expr::Template { made, .. } = &mut ty.expr {
        *made = true;
    }
    let col = ty.col;
    Ok(Some(Line::Bind(
        Cow::Borrowed(name),
        Node {
            expr: Expr::DefaultInit(Box::new(ty)),
            col,
        },
    )))
}

/// The last `::`/`.` segment of a name, and the one before it.
pub(crate) fn tail(name: &str) -> (&str, Option<&str>) {
    let mut parts = name.rsplit([':', '.']).filter(|p| !p.is_empty());
    let last = parts.next().unwrap_or(name);
    (last, parts.next())
}
