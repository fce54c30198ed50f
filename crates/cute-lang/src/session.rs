//! Sessions: lines, scripts and pasted blocks evaluated in order, with `NAME = expr`
//! bindings carried forward; and the lines `render --print` writes for them.

use crate::eval::Env;
use crate::parse::{self, Line};
use crate::value::Value;
use crate::{block, eval, host, lex};
use cute_core::error::Result;
use std::collections::HashMap;

/// Evaluate one expression (no bindings).
///
/// ```
/// use cute_lang::eval_line;
/// assert_eq!(eval_line("(4,8):(8,1)(13)").unwrap().to_string(), "11");
/// assert_eq!(eval_line("Sw<3,4,3> o 0 o (8,64):(64,1)").unwrap().to_string(), "Sw<3,4,3> o 0 o (8,64):(64,1)");
/// assert!(eval_line("Sw<3,0,2>").is_err());
/// ```
pub fn eval_line(src: &str) -> Result<Value> {
    Session::default()
        .eval(src)
        .unwrap_or_else(|| Err(cute_core::Error::new("empty expression")))
}

/// A script session: lines evaluated in order, `NAME = expr` bindings carried forward.
///
/// ```
/// use cute_lang::Session;
/// let mut s = Session::default();
/// assert!(s.eval("A = (4,8):(8,1)").is_none());          // a binding prints nothing
/// assert_eq!(s.eval("size(A)").unwrap().unwrap().to_string(), "32");
/// assert!(s.eval("# a comment").is_none());
/// ```
#[derive(Default, Debug, Clone)]
pub struct Session {
    env: Env,
    /// The value of the last statement that had one (a binding's value included).
    last: Option<Value>,
    /// The source of that statement, as written (comments included).
    last_text: String,
    /// Counts the statements that set `last` (a statement compares it before and after).
    last_gen: u64,
    /// With [`Session::track_operands`]: how the last statement with a value changed the
    /// bindings (each name and what it was bound to before), to see them as that statement
    /// did. Undoing one statement costs what it bound; a copy of every binding before every
    /// statement made a 2,000-line script quadratic.
    before_last: Option<Vec<(String, Option<Value>)>>,
    /// The bindings the statement being evaluated made, with what each name was before.
    undo: Vec<(String, Option<Value>)>,
    track: bool,
    /// Keep no copy of the last value (`print_script` prints each result and draws none).
    forget_last: bool,
    /// The name the last binding bound.
    last_bound: Option<String>,
    /// Whether the last statement with a value was a binding (its value is then in `env`
    /// under `last_bound`), not an output line.
    last_binds: bool,
    /// What a block's host code left out (its parameters, its launch code), by line.
    notes: Vec<Note>,
    /// The host functions whose bodies the blocks so far evaluated.
    hosts: Vec<HostFunction>,
    /// The shared-memory layouts a left-out `sizeof(SharedStorage<..., decltype(sA), ...>)`
    /// names, and its line.
    shared_storage: Option<(usize, Vec<String>)>,
    /// Whether the last value came from a host function's body (the block ends with it).
    last_in_host: bool,
}

/// Something a block's C++ host code made the session leave out, and why: a parameter
/// without a value, a line that needs one, the launch code, a kernel's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The 1-based line it is about.
    pub line: usize,
    /// What was left out and why.
    pub text: String,
}

/// A host function whose body a block evaluated (`void gemm_tn(int m, ...) { ... }`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostFunction {
    /// Its name.
    pub name: String,
    /// The line its header starts on.
    pub line: usize,
    /// Its parameters (template parameters first), as written.
    pub params: Vec<String>,
    /// The parameters that have no value in the session (runtime arguments).
    pub unset: Vec<String>,
}

/// Why a name has no value in a block with host code.
#[derive(Debug, Clone)]
enum Unset {
    /// A host function's parameter (its function's name; whether of its template).
    Param(String, bool),
    /// Bound by a line that was left out (that line).
    Skipped(usize),
}

/// A line's top-level function call: the function's name and each positional argument's
/// value, evaluated against a session's bindings ([`Session::call_operands`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The function's name as written, without a `cute::` / `cute.` prefix.
    pub name: String,
    /// Each positional argument's value, or its error, in order.
    pub args: Vec<Result<Value>>,
}

impl Session {
    /// Evaluate one line. `None` for blank lines, comments and successful bindings;
    /// otherwise the value or the error of that line.
    pub fn eval(&mut self, line: &str) -> Option<Result<Value>> {
        let dialect = block::dialect(line);
        let code = block::blank_comments(line, dialect);
        self.eval_statement(&code, dialect)
    }

    /// Evaluate one statement whose comments are blanked.
    fn eval_statement(&mut self, code: &str, dialect: block::Dialect) -> Option<Result<Value>> {
        // `int m = 4096, n = 4096;`: one declaration a name, in order.
        if dialect == block::Dialect::Cpp && code.contains(',') {
            if let Some(each) = host::declarators(code) {
                for d in each {
                    if let Some(r) = self.eval_statement(&d, dialect) {
                        return Some(r);
                    }
                }
                return None;
            }
        }
        // Positions are byte columns inside; users count characters.
        let to_chars = |mut e: cute_core::Error| {
            e.col = e.col.map(|c| lex::char_column(code, c));
            e
        };
        let result = match parse::parse_line(code, dialect) {
            Err(e) => Err(e),
            Ok(Line::Empty) => return None,
            Ok(Line::Expr(node)) => eval::eval(&node, &self.env),
            Ok(Line::BindMany(names, node)) => match eval::eval(&node, &self.env) {
                Ok(Value::Tuple(vs)) if vs.len() == names.len() => {
                    for (n, v) in names.iter().zip(vs) {
                        self.remember(&v, true);
                        self.bind_tracked(n, v);
                        self.last_bound = Some(n.to_string());
                    }
                    return None;
                }
                Ok(v) => Err(cute_core::Error::at(
                    node.col,
                    format!("cannot unpack {} into {} names", v.kind(), names.len()),
                )),
                Err(e) => Err(e),
            },
            Ok(Line::Bind(name, node)) => match eval::eval(&node, &self.env) {
                Ok(v) => {
                    self.remember(&v, true);
                    self.bind_tracked(&name, v);
                    self.last_bound = Some(name.to_string());
                    return None;
                }
                Err(e) => Err(e),
            },
            Ok(Line::PtrOrProduct {
                name,
                pointee,
                decl,
                product,
            }) => {
                // C++ reads `a * b;` as a declaration exactly when `a` names a type.
                if matches!(eval::eval(&pointee, &self.env), Ok(Value::Word(_))) {
                    match eval::eval(&decl, &self.env) {
                        Ok(v) => {
                            self.remember(&v, true);
                            self.bind_tracked(name, v);
                            self.last_bound = Some(name.to_string());
                            return None;
                        }
                        Err(e) => Err(e),
                    }
                } else {
                    eval::eval(&product, &self.env)
                }
            }
        };
        if let Ok(v) = &result {
            self.remember(v, false);
        }
        Some(result.map_err(to_chars))
    }

    /// A statement's binding, remembered for [`Session::track_operands`] so that it can be
    /// undone.
    fn bind_tracked(&mut self, name: &str, v: Value) {
        let old = self.env.replace(name, v);
        if self.track {
            self.undo.push((name.to_string(), old));
        }
    }

    /// `v` is now the last value (`binding`: it is also bound to `last_bound`).
    fn remember(&mut self, v: &Value, binding: bool) {
        self.last_binds = binding;
        if !self.forget_last {
            self.last = Some(v.clone());
        }
        self.last_gen += 1;
    }

    /// The source of the statement that gave [`Session::last_value`] (possibly several
    /// lines, comments included); kept with [`Session::track_operands`].
    pub fn last_statement(&self) -> &str {
        &self.last_text
    }

    /// Keep the bindings as they were before the last statement with a value, so that
    /// [`Session::last_call_operands`] can evaluate its call's operands as the call saw them
    /// (the page and the renderer draw them; a plain run needs no copies).
    pub fn track_operands(&mut self) {
        self.track = true;
    }

    /// [`Session::call_operands`] of the last statement with a value, against the bindings
    /// it saw (needs [`Session::track_operands`] before the run).
    pub fn last_call_operands(&self) -> Option<Call> {
        let undo = self.before_last.as_ref()?;
        let mut env = self.env.clone();
        for (name, old) in undo.iter().rev() {
            env.restore(name, old.clone());
        }
        let seen = Session {
            env,
            ..Session::default()
        };
        seen.call_operands(&self.last_text)
    }

    /// Bind `name` to a value computed elsewhere (the Python package's operands), as
    /// `name = ...` would.
    ///
    /// ```
    /// use cute_lang::{eval_line, Session};
    /// let mut s = Session::default();
    /// s.bind("A", eval_line("(4,8):(8,1)").unwrap());
    /// assert_eq!(s.eval("size(A)").unwrap().unwrap().to_string(), "32");
    /// ```
    pub fn bind(&mut self, name: &str, value: Value) {
        self.env.bind(name, value);
    }

    /// The value of the last statement evaluated that had one, a binding's included
    /// (`using SmemLayout = decltype(...);` as the last line of a pasted block).
    pub fn last_value(&self) -> Option<&Value> {
        self.last.as_ref()
    }

    /// The operands of `line`'s top-level call: when the line (an expression, or the right
    /// side of a `NAME = expr` binding) is a call `f(a, b, ...)` of a function (not of a bound
    /// name, which is an application), its name and each argument evaluated against the
    /// current bindings. `None` for anything else (blank lines, comments, literals, `A o B`,
    /// `L(i)`, templates, syntax errors). The session is not changed; whether `f` exists or
    /// accepts these arguments is not checked (evaluate the line for that). Keyword arguments
    /// (`make_layout(s, stride=d)`) are not included.
    ///
    /// ```
    /// use cute_lang::Session;
    /// let mut s = Session::default();
    /// s.eval("A = (4,8):(8,1)");
    /// let c = s.call_operands("R = cute::composition(A, (2,4):(4,1))  # tile").unwrap();
    /// assert_eq!(c.name, "composition");
    /// let args: Vec<String> = c.args.iter().map(|a| a.as_ref().unwrap().to_string()).collect();
    /// assert_eq!(args, ["(4,8):(8,1)", "(2,4):(4,1)"]);
    /// // An argument that fails is reported in its place.
    /// let c = s.call_operands("logical_divide(A, size(B))").unwrap();
    /// assert!(c.args[0].is_ok() && c.args[1].is_err());
    /// // Not a call: a literal, an application of a layout, a composition chain.
    /// assert!(s.call_operands("(4,8):(8,1)").is_none());
    /// assert!(s.call_operands("A(3)").is_none());
    /// assert!(s.call_operands("A o (2,4):(4,1)").is_none());
    /// ```
    pub fn call_operands(&self, line: &str) -> Option<Call> {
        let dialect = block::dialect(line);
        let code = block::blank_comments(line, dialect);
        let code: &str = &code;
        let node = match parse::parse_line(code, dialect).ok()? {
            Line::Empty => return None,
            Line::Expr(node) | Line::Bind(_, node) | Line::BindMany(_, node) => node,
            Line::PtrOrProduct { .. } => return None,
        };
        let parse::Expr::Call(call) = &node.expr else {
            return None;
        };
        let (name, args) = (&call.name, &call.args);
        // `f(x)` with `f` bound is an application of that value, as in `eval`.
        if self.env.get(name).is_some()
            || name
                .split('.')
                .next()
                .is_some_and(|f| self.env.get(f).is_some())
        {
            return None;
        }
        let args = args
            .iter()
            .map(|a| {
                eval::eval(a, &self.env).map_err(|mut e| {
                    e.col = e.col.map(|c| lex::char_column(code, c));
                    e
                })
            })
            .collect();
        Some(Call {
            name: parse::strip_ns(name).to_string(),
            args,
        })
    }

    /// Evaluate a block: statements end at `;` or at the end of a line whose brackets are
    /// closed; `//`, `/* */` and `#` comments; one entry per statement with a value, at the
    /// line it starts on (an error at the line and column it names).
    ///
    /// ```
    /// use cute_lang::Session;
    /// let mut s = Session::default();
    /// let out = s.run("constexpr int kStages = 3;  // C++\nusing Atom = decltype(\n  Layout<Shape<_8,_64>, Stride<_64,_1>>{});\ntile_to_shape(Atom{}, make_shape(Int<16>{}, Int<64>{}, Int<kStages>{}));");
    /// assert_eq!(out.len(), 1);
    /// assert_eq!(out[0].line, 4);
    /// assert_eq!(out[0].result.as_ref().unwrap().to_string(), "((8,2),(64,1),(1,3)):((64,512),(1,0),(0,1024))");
    /// ```
    pub fn run(&mut self, src: &str) -> Vec<ScriptLine> {
        let dialect = block::dialect(src);
        let cpp = dialect == block::Dialect::Cpp;
        let live = if cpp {
            host::blank_dead_branches(src)
        } else {
            std::borrow::Cow::Borrowed(src)
        };
        let blanked = block::blank_comments(&live, dialect);
        let (code, defs) = if cpp {
            host::definitions(&blanked)
        } else {
            (std::borrow::Cow::Borrowed(&*blanked), Vec::new())
        };
        let code: &str = &code;
        let spans = block::split_statements(code);
        // C++ host code: launch lines, host functions' parameters (none in most blocks).
        let mut host = cpp.then(|| HostCode::new(code, &spans, defs, &mut self.notes));
        let mut out = Vec::new();
        // Newlines before the current statement (counted as the statements go by).
        let mut lines_before = 0;
        let mut counted_to = 0;
        // The line of the last declaration: a block of declarations alone prints the value
        // its last one declares (a pasted `using SmemLayoutA = ...;` shows what it is).
        let mut declared = None;
        for (index, &span) in spans.iter().enumerate() {
            lines_before += code[counted_to..span.start].matches('\n').count();
            counted_to = span.start;
            let text = &code[span.start..span.end];
            let first_line = || {
                let first = text.len() - text.trim_start().len();
                lines_before + code[span.start..span.start + first].matches('\n').count() + 1
            };
            if let Some(h) = host.as_mut() {
                self.enter_host_functions(h, span.start, code);
                if let Some(why) = h.launch[index] {
                    self.leave_out(h, text, first_line(), why);
                    continue;
                }
            }
            // `//` was decided for the whole block; C++ grouping statement by statement (a
            // script may mix C++ lines with the spec's `(8):(1)`).
            let stmt_dialect = match dialect {
                block::Dialect::Cpp => block::dialect(text),
                _ => dialect,
            };
            let gen = self.last_gen;
            self.undo.clear();
            let result = self.eval_statement(text, stmt_dialect);
            if self.last_gen != gen {
                self.last_in_host = host.as_ref().is_some_and(|h| h.in_host_body(span.start));
            }
            if self.track && self.last_gen != gen {
                self.last_text = src[span.start..span.end]
                    .trim()
                    .trim_end_matches(';')
                    .trim()
                    .to_string();
                self.before_last = Some(std::mem::take(&mut self.undo));
            }
            if let (Some(h), Some(Err(e))) = (host.as_mut(), &result) {
                if let Some(why) = h.why_skip(index, text, e) {
                    self.leave_out(h, text, first_line(), &why);
                    continue;
                }
            }
            let Some(result) = result else {
                if self.last_gen != gen && self.last_bound.is_some() {
                    declared = Some(first_line());
                }
                continue;
            };
            // The line the statement starts on (its first non-blank byte), or the one its
            // error names, with the error's column counted within that line.
            let line_of =
                |abs: usize| lines_before + code[span.start..abs].matches('\n').count() + 1;
            let (line, result) = match result {
                Err(mut e) if e.col.is_some() => {
                    let c = e.col.unwrap_or(1);
                    // "End of input" points just past the statement's last character, not
                    // into the next line.
                    let byte = text
                        .char_indices()
                        .nth(c - 1)
                        .map_or(text.len(), |(b, _)| b)
                        .min(text.trim_end().len());
                    let abs = span.start + byte;
                    let line_start = code[..abs].rfind('\n').map_or(0, |k| k + 1);
                    e.col = Some(code[line_start..abs].chars().count() + 1);
                    (line_of(abs), Err(e))
                }
                r => (first_line(), r),
            };
            out.push(ScriptLine { line, result });
        }
        if let (true, Some(line), Some(name)) = (out.is_empty(), declared, &self.last_bound) {
            if let Some(v) = self.env.get(name) {
                out.push(ScriptLine {
                    line,
                    result: Ok(v.clone()),
                });
            }
        }
        self.notes.sort_by_key(|n| n.line);
        out
    }

    /// Bind the parameters of the host functions whose bodies begin before byte `at`
    /// (once each): a default value, or the value a line above the function bound; the
    /// others have none (runtime arguments) and the lines that need them are left out.
    fn enter_host_functions(&mut self, h: &mut HostCode, at: usize, code: &str) {
        while let Some(d) = h.defs.get(h.entered) {
            if d.body.start > at {
                return;
            }
            h.entered += 1;
            if d.kind != host::DefinitionKind::Host {
                continue;
            }
            let (mut unset, mut kept) = (Vec::new(), Vec::new());
            // Runtime arguments and template parameters without a value.
            let (mut args, mut targs, mut pointers) = (Vec::new(), Vec::new(), Vec::new());
            for p in &d.params {
                let template = p.ty == "class";
                if let Some(v) = self.env.get(&p.name) {
                    kept.push(format!("{} = {v}", p.name));
                    continue;
                }
                if let Some(default) = &p.default {
                    let stmt = if template {
                        format!("using {} = {default};", p.name)
                    } else {
                        format!("{} {} = {default};", p.ty, p.name)
                    };
                    if self.eval_statement(&stmt, block::Dialect::Cpp).is_none() {
                        continue;
                    }
                }
                // A pointer parameter (`TA const* A`) is a pointer of its type at address 0.
                if !template
                    && p.ty.ends_with('*')
                    && self
                        .eval_statement(&format!("{} {};", p.ty, p.name), block::Dialect::Cpp)
                        .is_none()
                {
                    pointers.push(format!("`{}`", p.name));
                    continue;
                }
                h.unset
                    .insert(p.name.clone(), Unset::Param(d.name.clone(), template));
                unset.push(p.name.clone());
                if template {
                    targs.push(p);
                } else {
                    args.push(p);
                }
            }
            let line = line_at(code, d.header);
            let mut text = format!("`{}` is a host function: its body is evaluated", d.name);
            let list = |ps: &[&host::Param]| {
                ps.iter()
                    .map(|p| format!("`{}`", p.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let mut missing = Vec::new();
            if !args.is_empty() {
                missing.push(format!(
                    "its parameters {} (runtime arguments)",
                    list(&args)
                ));
            }
            if !targs.is_empty() {
                missing.push(format!("its template parameters {}", list(&targs)));
            }
            if !missing.is_empty() {
                // A fix in the code's own names: its first integer parameter, its first type.
                let int = args
                    .iter()
                    .find(|p| p.ty.contains("int") || p.ty.contains("size_t"))
                    .map(|p| format!("`{} {} = 4096;`", p.ty, p.name));
                let ty = targs
                    .first()
                    .map(|p| format!("`using {} = float;`", p.name));
                let example: Vec<String> = int.into_iter().chain(ty).collect();
                text += &format!(
                    "; no value here for {}: the lines that need them are left out{}",
                    missing.join(" and "),
                    if example.is_empty() {
                        String::new()
                    } else {
                        format!(
                            "; bind them above the function ({}) to evaluate those lines too",
                            example.join(", ")
                        )
                    }
                );
            }
            if !pointers.is_empty() {
                text += &format!(
                    "; its pointers {} point at address 0 of their element types",
                    pointers.join(", ")
                );
            }
            if !kept.is_empty() {
                text += &format!("; as bound above: {}", kept.join(", "));
            }
            self.notes.push(Note { line, text });
            self.hosts.push(HostFunction {
                name: d.name.clone(),
                line,
                params: d.params.iter().map(|p| p.name.clone()).collect(),
                unset,
            });
        }
    }

    /// What the blocks' host code left out, by line: parameters without a value, the lines
    /// that need them, launch code, kernels' bodies.
    ///
    /// ```
    /// use cute_lang::Session;
    /// let mut s = Session::default();
    /// let out = s.run("void f(int m) {\n  auto M = int(m);\n  auto t = make_shape(M, Int<8>{});\n  auto L = make_layout(Int<8>{});\n  dim3 block(128);\n}");
    /// // A block of declarations shows its last one.
    /// assert_eq!(out[0].result.as_ref().unwrap().to_string(), "8:1");
    /// let lines: Vec<usize> = s.notes().iter().map(|n| n.line).collect();
    /// assert_eq!(lines, [1, 2, 3, 5]);
    /// assert!(s.notes()[2].text.contains("needs `M`"));
    /// ```
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// The host functions whose bodies the blocks evaluated.
    pub fn host_functions(&self) -> &[HostFunction] {
        &self.hosts
    }

    /// Whether the last value came from a host function's body: the block is the
    /// function (a kernel's configuration), not a line written after it.
    pub fn ends_in_host_function(&self) -> bool {
        self.last_in_host
    }

    /// The shared-memory layouts the kernel allocates, as a left-out host line says
    /// (`int smem_size = int(sizeof(SharedStorage<T, T, decltype(sA), decltype(sB)>));`
    /// names `sA` and `sB`), with that line.
    pub fn shared_storage(&self) -> Option<(usize, &[String])> {
        self.shared_storage
            .as_ref()
            .map(|(l, n)| (*l, n.as_slice()))
    }

    /// Leave out a statement (at `line`): a note saying why; the name it binds has no
    /// value; a `sizeof` of shared storage names the buffers the kernel allocates.
    fn leave_out(&mut self, h: &mut HostCode, text: &str, line: usize, why: &str) {
        let first = text
            .trim()
            .lines()
            .next()
            .unwrap_or("")
            .trim_end_matches(';');
        let shown = match first.char_indices().nth(60) {
            Some((b, _)) => format!("{}…", &first[..b]),
            None => first.to_string(),
        };
        self.notes.push(Note {
            line,
            text: format!("left out `{shown}`: {why}"),
        });
        if let Some(name) = host::bound_name(text) {
            h.unset.insert(name.to_string(), Unset::Skipped(line));
        }
        if text.contains("sizeof") && text.contains("Storage") {
            let names = host::decltype_names(text);
            if !names.is_empty() {
                self.shared_storage = Some((line, names));
            }
        }
    }

    /// The bindings made so far.
    pub fn env(&self) -> &Env {
        &self.env
    }
}

/// The line byte `at` of `code` is on (1-based).
fn line_at(code: &str, at: usize) -> usize {
    code[..at.min(code.len())].matches('\n').count() + 1
}

/// A C++ block's host code while [`Session::run`] evaluates it: which statements are
/// launch code, the definitions, and the names that have no value.
struct HostCode<'a> {
    code: &'a str,
    spans: &'a [block::Span],
    /// Per statement: why it is host code the session does not evaluate (launch code).
    launch: Vec<Option<&'static str>>,
    /// Whether any statement is.
    has_launch: bool,
    defs: Vec<host::Definition>,
    /// How many of `defs` the run has entered.
    entered: usize,
    unset: HashMap<String, Unset>,
}

impl<'a> HostCode<'a> {
    fn new(
        code: &'a str,
        spans: &'a [block::Span],
        defs: Vec<host::Definition>,
        notes: &mut Vec<Note>,
    ) -> Self {
        for d in &defs {
            let what = match d.kind {
                host::DefinitionKind::Host | host::DefinitionKind::Namespace => continue,
                host::DefinitionKind::Device => "a GPU function (`__global__`/`__device__`): its body runs on the device and is not evaluated; the host code that configures it is",
                host::DefinitionKind::Type => "a type the pasted code defines: not evaluated (its members and `sizeof` are not known here)",
            };
            notes.push(Note {
                line: line_at(code, d.header),
                text: format!("`{}` is {what}", d.name),
            });
        }
        let launch: Vec<_> = spans
            .iter()
            .map(|s| host::host_only(&code[s.start..s.end]))
            .collect();
        HostCode {
            code,
            spans,
            has_launch: launch.iter().any(Option::is_some),
            launch,
            defs,
            entered: 0,
            unset: HashMap::new(),
        }
    }

    /// Whether byte `at` lies in a host function's body.
    fn in_host_body(&self, at: usize) -> bool {
        self.defs
            .iter()
            .any(|d| d.kind == host::DefinitionKind::Host && d.body.contains(&at))
    }

    /// Why statement `index` (`text`, which failed with `e`) is left out rather than an
    /// error: it needs a name without a value, or it binds a name only launch code uses.
    fn why_skip(&self, index: usize, text: &str, e: &cute_core::Error) -> Option<String> {
        // The first name the statement uses that has no value (one lookup a word).
        let needs = host::words(text).find_map(|w| self.unset.get_key_value(w));
        if let Some((name, why)) = needs {
            let why = match why {
                Unset::Param(f, false) => format!("a parameter of `{f}` without a value"),
                Unset::Param(f, true) => format!("a template parameter of `{f}` without a type"),
                Unset::Skipped(line) => format!("left out at line {line}"),
            };
            return Some(format!("needs `{name}`, {why}"));
        }
        // Only a name the pasted code does not define (`SharedStorage`, the kernel's
        // `gemm_device`): any other error is the code's and stays one.
        if !e.msg.starts_with("unknown ") {
            return None;
        }
        if !self.has_launch {
            return None;
        }
        let name = host::bound_name(text)?;
        let later: Vec<usize> = (index + 1..self.spans.len())
            .filter(|&j| {
                let s = self.spans[j];
                host::has_word(&self.code[s.start..s.end], name)
            })
            .collect();
        (!later.is_empty() && later.iter().all(|&j| self.launch[j].is_some())).then(|| {
            format!(
                "`{name}` only feeds the kernel's launch, and it cannot be evaluated here ({e})"
            )
        })
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
/// use cute_lang::run_script;
/// let out = run_script("L = (4,8):(8,1)\nL(13)\ncoalesce(L)\nfoo(1)");
/// assert_eq!(out.len(), 3);
/// assert_eq!(out[0].result.as_ref().unwrap().to_string(), "11");
/// assert!(out[2].result.is_err());
/// ```
pub fn run_script(src: &str) -> Vec<ScriptLine> {
    Session::default().run(src)
}

/// Evaluate a pasted block and return the value it ends with (a binding's value when the
/// block ends with `using X = ...;`), or the first error.
///
/// ```
/// let v = cute_lang::eval_block("using Atom = decltype(composition(Swizzle<3,3,3>{},\n    Layout<Shape<_8,_64>,Stride<_64,_1>>{}));").unwrap();
/// assert_eq!(v.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
/// ```
pub fn eval_block(src: &str) -> Result<Value> {
    // No copy of each value (`forget_last`; the Python package calls this per expression):
    // the block's value is its last output line's, or its last binding's.
    let mut s = Session {
        forget_last: true,
        ..Session::default()
    };
    let mut output = None;
    for line in s.run(src) {
        output = Some(line.result.map_err(|mut e| {
            e.msg = format!("line {}: {}", line.line, e.msg);
            e
        })?);
    }
    let bound = match (s.last_binds, &s.last_bound) {
        (true, Some(name)) => s.env.get(name).cloned(),
        _ => None,
    };
    bound
        .or(output)
        .ok_or_else(|| cute_core::Error::new("the block has no value (no expression or binding)"))
}

/// Evaluate one expression: the line `render --print` prints for it, and whether it failed.
///
/// ```
/// assert_eq!(cute_lang::print_one("coalesce((2,4):(1,2))"), ("8:1".to_string(), true));
/// ```
pub fn print_one(expr: &str) -> (String, bool) {
    match Session::default().eval(expr) {
        Some(r) => (format_result(&r), r.is_ok()),
        None => ("error: empty expression".to_string(), false),
    }
}

/// Evaluate a script: the lines `render --print -` prints (one per statement with a value
/// or an error), each with whether it failed.
///
/// ```
/// let out = cute_lang::print_script("A = 8:1\nsize(A)\nfoo(1)");
/// assert_eq!(out[0], ("8".to_string(), true));
/// assert!(!out[1].1);
/// ```
pub fn print_script(src: &str) -> Vec<(String, bool)> {
    print_script_notes(src).0
}

/// [`print_script`] and what the block's host code left out ([`Session::notes`]).
///
/// ```
/// let (lines, notes) = cute_lang::session::print_script_notes("dim3 block(128);\nsize(8:1)");
/// assert_eq!(lines, [("8".to_string(), true)]);
/// assert_eq!(notes[0].line, 1);
/// ```
pub fn print_script_notes(src: &str) -> (Vec<(String, bool)>, Vec<Note>) {
    let mut s = Session {
        forget_last: true,
        ..Session::default()
    };
    let lines = s
        .run(src)
        .iter()
        .map(|l| (format_result(&l.result), l.result.is_ok()))
        .collect();
    (lines, s.notes)
}

/// The exact text `render --print` writes for one result: the value, or `error: …`.
///
/// ```
/// use cute_lang::{eval_line, format_result};
/// assert_eq!(format_result(&eval_line("coalesce((2,4):(1,2))")), "8:1");
/// assert!(format_result(&eval_line("size((2,3):(1))")).starts_with("error: "));
/// ```
pub fn format_result(r: &Result<Value>) -> String {
    match r {
        Ok(v) => v.to_string(),
        Err(e) => format!("error: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use crate::*;

    fn names(s: &Session, line: &str) -> Option<(String, Vec<String>)> {
        s.call_operands(line).map(|c| {
            let args = c
                .args
                .iter()
                .map(|a| match a {
                    Ok(v) => v.to_string(),
                    Err(e) => format!("error: {e}"),
                })
                .collect();
            (c.name, args)
        })
    }

    #[test]
    fn a_block_is_worth_its_last_value() {
        let v = |src: &str| eval_block(src).map(|v| v.to_string());
        // An output line, a binding after it, an output after a binding.
        assert_eq!(v("A = 8:1\nsize(A)").unwrap(), "8");
        assert_eq!(v("size(8:1)\nB = (4,2):(2,1)").unwrap(), "(4,2):(2,1)");
        assert_eq!(v("B = 4:2\nsize(B)\nC = B\ncosize(C)").unwrap(), "7");
        // Several names bound at once: the last one's; C++ declarations alone.
        assert_eq!(v("a, b = (2, 3)").unwrap(), "3");
        assert_eq!(
            v("using T = Shape<_2,_4>;\nusing U = Layout<T>;").unwrap(),
            "(2,4):(1,2)"
        );
        // No value, or an error on any line.
        assert!(v("// nothing").is_err());
        assert!(v("A = 8:1\nfoo(A)\nsize(A)")
            .unwrap_err()
            .msg
            .starts_with("line 2: "));
    }

    #[test]
    fn call_operands_of_calls_and_bindings() {
        let mut s = Session::default();
        assert!(s.eval("A = (4,2,3):(2,1,8)").is_none());
        let (name, args) = names(&s, "logical_divide(A, 4:2)").unwrap();
        assert_eq!(name, "logical_divide");
        assert_eq!(args, ["(4,2,3):(2,1,8)", "4:2"]);
        // The right side of a binding, C++ spellings, a tiler of layouts, no arguments.
        let (name, args) = names(&s, "R = cute.zipped_divide(A, (2:1, Int<3>{}))").unwrap();
        assert_eq!((name.as_str(), args.len()), ("zipped_divide", 2));
        assert_eq!(args[1], "(2:1,3)");
        assert_eq!(names(&s, "foo()").unwrap(), ("foo".to_string(), vec![]));
        // The session is not changed by asking.
        assert!(s.env().get("R").is_none());
        // An argument's error names its column in characters.
        let (_, args) = names(&s, "complement(A, size(B))").unwrap();
        assert!(args[1].contains("unknown name 'B'") && args[1].contains("column 20"));
    }

    #[test]
    fn call_operands_is_none_for_everything_else() {
        let mut s = Session::default();
        s.eval("L = (4,8):(8,1)");
        for line in [
            "",
            "   ",
            "# composition(L, L)",
            "(4,8):(8,1)",
            "L",
            "L(13)",
            "L(_, 2)",
            "L o 4:1",
            "Sw<3,4,3> o 0 o (8,64):(64,1)",
            "Sw<3,4,3>",
            "composition(L, L)(3)",
            "L = ",
            "composition(L, L",
            "composition(L, L))",
            "composition(L; L)",
            "composition(L, L) extra",
            "x = y = composition(L, L)",
        ] {
            assert!(s.call_operands(line).is_none(), "{line:?}");
        }
        // A bound name applied is an application, as `eval` treats it.
        s.eval("coalesce = (4,8):(8,1)");
        assert!(s.call_operands("coalesce(3)").is_none());
    }

    #[test]
    fn call_operands_survives_hostile_lines() {
        let s = Session::default();
        let deep = format!("size({}1{})", "(".repeat(200), ")".repeat(200));
        assert!(s.call_operands(&deep).is_none(), "too deep to parse");
        let nested = format!("size({}1{})", "size(".repeat(40), ")".repeat(40));
        let (_, args) = names(&s, &nested).unwrap();
        assert_eq!(args, ["1"]);
        let huge = format!("composition({})", "9".repeat(40));
        assert!(s.call_operands(&huge).is_none(), "literal out of range");
        let wide = format!("make_shape({})", vec!["2"; 5000].join(","));
        let (_, args) = names(&s, &wide).unwrap();
        assert_eq!(args.len(), 5000);
        let big = format!("coalesce(make_shape({}))", vec!["2"; 5000].join(","));
        let (_, args) = names(&s, &big).unwrap();
        assert!(args[0].starts_with("error: value too large"), "{}", args[0]);
        let long = format!("size({})", "1".repeat(MAX_LINE_BYTES));
        assert!(s.call_operands(&long).is_none());
        for odd in ["composition(（4,8）)", "size(\u{0})", "f(<script>)", "é(1)"] {
            assert!(s.call_operands(odd).is_none(), "{odd:?}");
        }
        let (name, _) = names(&s, "size(1) # </text><script>").unwrap();
        assert_eq!(name, "size");
    }
}
