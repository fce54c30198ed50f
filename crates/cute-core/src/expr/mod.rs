//! The expression language of `shared/spec/expressions.md`: parse a line or a script,
//! evaluate it against the algebra, print results in CuTe's format.

mod eval;
mod parse;

pub(crate) use eval::edit_distance;
pub use eval::{Env, FUNCTIONS, KEYWORDS};
pub use parse::{MAX_LINE_BYTES, MAX_NESTING};

use crate::error::Result;
use crate::value::Value;
use parse::Line;

/// Evaluate one expression (no bindings).
///
/// ```
/// use cute_core::eval_line;
/// assert_eq!(eval_line("(4,8):(8,1)(13)").unwrap().to_string(), "11");
/// assert_eq!(eval_line("Sw<3,4,3> o 0 o (8,64):(64,1)").unwrap().to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
/// assert!(eval_line("Sw<3,0,2>").is_err());
/// ```
pub fn eval_line(src: &str) -> Result<Value> {
    Session::default()
        .eval(src)
        .unwrap_or_else(|| Err(crate::Error::new("empty expression")))
}

/// A script session: lines evaluated in order, `NAME = expr` bindings carried forward.
///
/// ```
/// use cute_core::Session;
/// let mut s = Session::default();
/// assert!(s.eval("A = (4,8):(8,1)").is_none());          // a binding prints nothing
/// assert_eq!(s.eval("size(A)").unwrap().unwrap().to_string(), "32");
/// assert!(s.eval("# a comment").is_none());
/// ```
#[derive(Default, Debug, Clone)]
pub struct Session {
    env: Env,
}

impl Session {
    /// Evaluate one line. `None` for blank lines, comments and successful bindings;
    /// otherwise the value or the error of that line.
    pub fn eval(&mut self, line: &str) -> Option<Result<Value>> {
        let code = match line.find('#') {
            Some(i) => &line[..i],
            None => line,
        };
        // Positions are byte columns inside; users count characters.
        let to_chars = |mut e: crate::Error| {
            e.col = e.col.map(|c| parse::char_column(code, c));
            e
        };
        let result = match parse::parse_line(code) {
            Err(e) => Err(e),
            Ok(Line::Empty) => return None,
            Ok(Line::Expr(node)) => eval::eval(&node, &self.env),
            Ok(Line::Bind(name, node)) => match eval::eval(&node, &self.env) {
                Ok(v) => {
                    self.env.bind(name, v);
                    return None;
                }
                Err(e) => Err(e),
            },
        };
        Some(result.map_err(to_chars))
    }

    /// The bindings made so far.
    pub fn env(&self) -> &Env {
        &self.env
    }
}

/// One output line of a script: its 1-based source line and its result.
#[derive(Debug, Clone)]
pub struct ScriptLine {
    /// 1-based line number in the script.
    pub line: usize,
    /// The printed value, or the error.
    pub result: Result<Value>,
}

/// Evaluate a whole script; one entry per line that produces output.
///
/// ```
/// use cute_core::run_script;
/// let out = run_script("L = (4,8):(8,1)\nL(13)\ncoalesce(L)\nfoo(1)");
/// assert_eq!(out.len(), 3);
/// assert_eq!(out[0].result.as_ref().unwrap().to_string(), "11");
/// assert!(out[2].result.is_err());
/// ```
pub fn run_script(src: &str) -> Vec<ScriptLine> {
    let mut s = Session::default();
    src.lines()
        .enumerate()
        .filter_map(|(i, l)| {
            s.eval(l).map(|result| ScriptLine {
                line: i + 1,
                result,
            })
        })
        .collect()
}

/// The exact text `render --print` writes for one result: the value, or `error: …`.
///
/// ```
/// use cute_core::{eval_line, format_result};
/// assert_eq!(format_result(&eval_line("coalesce((2,4):(1,2))")), "8:1");
/// assert!(format_result(&eval_line("size((2,3):(1))")).starts_with("error: "));
/// ```
pub fn format_result(r: &Result<Value>) -> String {
    match r {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}
