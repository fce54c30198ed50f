//! The literal reader at the bottom of the crate: int-tuples (`(2,(3,-4))`, `_8`) and
//! layouts (`(8,32):(32,1)`, `8`) as CuTe prints them. It is what `FromStr` of
//! [`IntTuple`] and [`Layout`] and the atom table use; it evaluates nothing (the expression
//! language lives in the `cute-lang` crate, on top of the algebra).
//!
//! ```
//! use cute_core::{IntTuple, Layout};
//! let t: IntTuple = "(2,(3,-4))".parse().unwrap();
//! assert_eq!(t.size().unwrap(), -24);
//! let l: Layout = "(8,32):(32,1)".parse().unwrap();
//! assert_eq!(l.to_string(), "(8,32):(32,1)");
//! assert!("size((2,3):(1,2))".parse::<IntTuple>().is_err()); // a literal, not a language
//! ```

use crate::error::{Error, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// Deepest nesting a literal may have.
const MAX_DEPTH: usize = 64;

struct Reader<'a> {
    src: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while self
            .src
            .get(self.pos)
            .is_some_and(|b| b.is_ascii_whitespace())
        {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.src.get(self.pos).copied()
    }

    fn err(&self, what: &str) -> Error {
        Error::at(self.pos + 1, what.to_string())
    }

    fn int_tuple(&mut self, depth: usize) -> Result<IntTuple> {
        if depth > MAX_DEPTH {
            return Err(self.err("literal nested too deeply"));
        }
        match self.peek() {
            Some(b'(') => {
                self.pos += 1;
                let mut items = Vec::new();
                if self.peek() == Some(b')') {
                    self.pos += 1;
                    return Ok(IntTuple::Tuple(items));
                }
                loop {
                    items.push(self.int_tuple(depth + 1)?);
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b')') => {
                            self.pos += 1;
                            return Ok(IntTuple::Tuple(items));
                        }
                        _ => return Err(self.err("expected ',' or ')' in a tuple")),
                    }
                }
            }
            _ => self.int().map(IntTuple::Int),
        }
    }

    fn int(&mut self) -> Result<i64> {
        self.skip_space();
        let start = self.pos;
        if matches!(self.src.get(self.pos), Some(b'-' | b'_')) {
            self.pos += 1;
        }
        let digits = self.pos;
        while self.src.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
        if self.pos == digits {
            self.pos = start;
            return Err(self.err("expected an integer or a tuple"));
        }
        let text = std::str::from_utf8(&self.src[start..self.pos]).expect("ASCII");
        text.trim_start_matches('_')
            .parse::<i64>()
            .map_err(|_| Error::at(start + 1, format!("integer {text} does not fit in 64 bits")))
    }

    fn end(&mut self) -> Result<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.err("unexpected text after the literal")),
        }
    }
}

/// Read an int-tuple literal: `8`, `_8`, `-3`, `(2,(3,4))`, `()`.
///
/// ```
/// use cute_core::literal::int_tuple;
/// assert_eq!(int_tuple("(2,(3,_4))").unwrap().to_string(), "(2,(3,4))");
/// assert!(int_tuple("(2,").is_err());
/// ```
///
/// Law (checked by `tests/laws.rs::parse_print_round_trip`): what CuTe prints reads back
/// to the same value.
/// ```
/// use cute_core::literal::int_tuple;
/// assert_eq!(int_tuple("()").unwrap().to_string(), "()");
/// ```
pub fn int_tuple(src: &str) -> Result<IntTuple> {
    let mut r = Reader {
        src: src.as_bytes(),
        pos: 0,
    };
    let t = r.int_tuple(0)?;
    r.end()?;
    Ok(t)
}

/// Read a layout literal: `SHAPE:STRIDE`, or a bare shape (column-major compact).
///
/// ```
/// use cute_core::literal::layout;
/// assert_eq!(layout("(4,8):(8,1)").unwrap().to_string(), "(4,8):(8,1)");
/// assert_eq!(layout("(4,(2,3))").unwrap().to_string(), "(4,(2,3)):(1,(4,8))");
/// assert!(layout("(4,8):(1)").is_err()); // not congruent
/// ```
///
/// Law (checked by `tests/laws.rs::parse_print_round_trip`): `layout(&l.to_string()) == l`.
/// ```
/// use cute_core::{literal::layout, Layout};
/// let l: Layout = "((2,2),3):((1,6),2)".parse().unwrap();
/// assert_eq!(layout(&l.to_string()).unwrap(), l);
/// ```
pub fn layout(src: &str) -> Result<Layout> {
    let mut r = Reader {
        src: src.as_bytes(),
        pos: 0,
    };
    let shape = r.int_tuple(0)?;
    if r.peek() != Some(b':') {
        r.end()?;
        return Layout::col_major(shape);
    }
    r.pos += 1;
    let stride = r.int_tuple(0)?;
    r.end()?;
    Layout::new(shape, stride)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_cute_prints() {
        assert_eq!(
            int_tuple(" ( 2 , ( _3 , -4 ) ) ").unwrap().to_string(),
            "(2,(3,-4))"
        );
        assert_eq!(int_tuple("()").unwrap().to_string(), "()");
        assert_eq!(
            layout("(8,32):(32,1)").unwrap().to_string(),
            "(8,32):(32,1)"
        );
        assert_eq!(layout("(4,2)").unwrap().to_string(), "(4,2):(1,4)");
        assert_eq!(
            layout("8:-9223372036854775808").unwrap().to_string(),
            "8:-9223372036854775808"
        );
    }

    #[test]
    fn refuses_everything_else() {
        for bad in [
            "",
            "(",
            "(1,",
            "(1 2)",
            "1:",
            "1:2:3",
            "size(1)",
            "a",
            "(8):(1,2)",
            "99999999999999999999",
            "--1",
            "1)",
            "_",
            "(,)",
        ] {
            assert!(layout(bad).is_err(), "{bad:?}");
        }
        let deep = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        assert!(int_tuple(&deep).unwrap_err().msg.contains("deeply"));
    }
}
