//! Errors as values: what is wrong and, for parse errors, where.

use std::fmt;

/// An error from the algebra, the hardware model or the expression language above them.
///
/// `col` is the 1-based column of the offending character for parse errors
/// (and for evaluation errors that can be pinned to a call), `None` otherwise.
///
/// ```
/// use cute_core::Layout;
/// let e = "(2,3):(1)".parse::<Layout>().unwrap_err();
/// assert!(e.to_string().contains("congruent"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What is wrong, in words.
    pub msg: String,
    /// 1-based column, where known.
    pub col: Option<usize>,
}

/// Every error's text in a build without the `messages` feature (the page's first-picture
/// module, which draws no error and leaves the words out).
pub const TERSE: &str = "error (its words are the full build's)";

impl Error {
    /// An error without a position.
    #[inline(always)]
    pub fn new(msg: impl Into<String>) -> Self {
        Error::lazy(|| msg.into())
    }

    /// An error at a 1-based column.
    #[inline(always)]
    pub fn at(col: usize, msg: impl Into<String>) -> Self {
        Error {
            col: Some(col),
            ..Error::lazy(|| msg.into())
        }
    }

    /// An error whose words are made only where the build keeps them (the `messages`
    /// feature; [`TERSE`] without it). Inlined, so the words are dead code there; every
    /// constructor and [`err!`] come here.
    #[inline(always)]
    pub fn lazy(msg: impl FnOnce() -> String) -> Self {
        Error {
            msg: if cfg!(feature = "messages") {
                msg()
            } else {
                TERSE.to_string()
            },
            col: None,
        }
    }

    /// The error as reported by the function `name` that produced it: the message starts
    /// with `name: ` (once), as every function of the language reports its errors.
    ///
    /// ```
    /// use cute_core::Error;
    /// assert_eq!(Error::new("bad").within("slice").msg, "slice: bad");
    /// assert_eq!(Error::new("slice: bad").within("slice").msg, "slice: bad");
    /// ```
    pub fn within(mut self, name: &str) -> Self {
        if !self.msg.starts_with(name) {
            self.msg = format!("{name}: {}", self.msg);
        }
        self
    }

    /// Attach a column if the error has none yet.
    pub fn or_at(mut self, col: usize) -> Self {
        if self.col.is_none() {
            self.col = Some(col);
        }
        self
    }
}

/// `crate::err!(...)`, formatted only in a build with the `messages` feature.
///
/// ```
/// let n = 3;
/// assert_eq!(cute_core::err!("{n} is odd").msg, "3 is odd");
/// ```
#[macro_export]
macro_rules! err {
    ($($arg:tt)*) => {
        $crate::error::Error::lazy(|| format!($($arg)*))
    };
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.col {
            Some(c) => write!(f, "{} (column {c})", self.msg),
            None => f.write_str(&self.msg),
        }
    }
}

impl std::error::Error for Error {}

/// Levenshtein distance over the first 64 characters (for "did you mean").
///
/// ```
/// assert_eq!(cute_core::error::edit_distance("coalese", "coalesce"), 1);
/// ```
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().take(64).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().take(64).enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The names among `candidates` that `query` could mean, best first, at most `max`: those
/// a few edits away, those it starts, and those holding each of its `_`-separated words
/// (case aside: `LDSM_X4_N` finds `SM75_U32x4_LDSM_N`).
///
/// ```
/// use cute_core::error::nearest_names;
/// let names = ["SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N", "SM90_U32x4_STSM_N", "make_layout"];
/// assert_eq!(nearest_names("LDSM_X4_N", names, 3), ["SM75_U32x4_LDSM_N"]);
/// assert_eq!(nearest_names("make_layuot", names, 3), ["make_layout"]);
/// assert!(nearest_names("zzz", names, 3).is_empty());
/// assert!(nearest_names("x", ["A", "E"], 3).is_empty());
/// assert!(nearest_names("ptr_A", ["make_ptr", "recast_ptr"], 3).is_empty());
/// ```
pub fn nearest_names<'a>(
    query: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    max: usize,
) -> Vec<&'a str> {
    let q = query.to_ascii_lowercase();
    // Words of two letters or more: a one-letter word (`ptr_A`) is in almost every name.
    let words: Vec<&str> = q.split('_').filter(|w| w.len() >= 2).collect();
    // A name of one or two letters means only itself in another case.
    let short = q.chars().count() <= 2;
    let close = if short {
        0
    } else {
        (q.chars().count() / 3).clamp(1, 3)
    };
    let mut hits: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter_map(|c| {
            let lc = c.to_ascii_lowercase();
            let d = edit_distance(&lc, &q);
            let by_words = words.len() > 1 && words.iter().all(|w| lc.contains(w));
            (d <= close || (!short && lc.starts_with(&q)) || by_words).then_some((d, c))
        })
        .collect();
    hits.sort_unstable();
    hits.dedup_by_key(|h| h.1);
    hits.into_iter().take(max).map(|h| h.1).collect()
}

/// The result of every fallible operation.
pub type Result<T> = std::result::Result<T, Error>;

/// Checked 64-bit arithmetic: CuTe's static integers never wrap, and neither do we.
///
/// ```
/// use cute_core::error::arith;
/// assert_eq!(arith::mul(6, 7).unwrap(), 42);
/// assert!(arith::mul(i64::MAX, 2).unwrap_err().msg.contains("overflow"));
/// ```
pub mod arith {
    use super::{Error, Result};

    fn overflow(op: &str, a: i64, b: i64) -> Error {
        crate::err!("integer overflow: {a} {op} {b} does not fit in 64 bits")
    }

    /// `a * b`.
    pub fn mul(a: i64, b: i64) -> Result<i64> {
        a.checked_mul(b).ok_or_else(|| overflow("*", a, b))
    }
    /// `a + b`.
    pub fn add(a: i64, b: i64) -> Result<i64> {
        a.checked_add(b).ok_or_else(|| overflow("+", a, b))
    }
    /// `a - b`.
    pub fn sub(a: i64, b: i64) -> Result<i64> {
        a.checked_sub(b).ok_or_else(|| overflow("-", a, b))
    }
    /// C++ `/` (truncating); division by zero is an error.
    pub fn div(a: i64, b: i64) -> Result<i64> {
        if b == 0 {
            return Err(crate::err!("division by zero ({a} / 0)"));
        }
        a.checked_div(b).ok_or_else(|| overflow("/", a, b))
    }
    /// C++ `%` (sign follows the dividend); modulo by zero is an error.
    pub fn rem(a: i64, b: i64) -> Result<i64> {
        if b == 0 {
            return Err(crate::err!("modulo by zero ({a} % 0)"));
        }
        a.checked_rem(b).ok_or_else(|| overflow("%", a, b))
    }
    /// CuTe's `ceil_div(a, b) = (a + b - 1) / b`, evaluated exactly as C++ does.
    pub fn ceil_div(a: i64, b: i64) -> Result<i64> {
        div(sub(add(a, b)?, 1)?, b)
    }
    /// `|a|`.
    pub fn abs(a: i64) -> Result<i64> {
        a.checked_abs()
            .ok_or_else(|| crate::err!("integer overflow: abs({a})"))
    }
    /// The sign of `a`: -1, 0 or 1.
    pub fn signum(a: i64) -> i64 {
        a.signum()
    }
}
