//! `cute_explorer._native`: the Python face of CuTe Layout Explorer. Everything here calls
//! the same crates the page and the `render` CLI use: `cute_lang` evaluates, `cute_render`
//! draws. The pure-Python package (`cute_explorer/__init__.py`) builds the op functions from
//! [`op_table`] and converts Python objects to the language's text.

use cute_core::Error;
use cute_lang::{Call, Session, Value};
use cute_render::{Figure, Highlight, Labels, Options, Palette, Theme, View};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use std::panic::{catch_unwind, AssertUnwindSafe};

// Rust's allocations only (Python objects keep pymalloc): glibc malloc/free were a third of
// evaluate's instructions (callgrind), as in the render CLI.
#[global_allocator]
static GLOBAL: cute_render::alloc::MiMalloc = cute_render::alloc::MiMalloc;

create_exception!(
    cute_explorer,
    CuteError,
    PyException,
    "What CuTe (C++) refuses, or what the input gets wrong: `message` says what, `column` \
     (1-based, or None) where in the line."
);

/// A language error as a `CuteError` carrying `message` and `column`.
fn cute_err(py: Python<'_>, e: &Error) -> PyErr {
    let err = CuteError::new_err(e.to_string());
    let value = err.value(py);
    let _ = value.setattr("message", e.msg.clone());
    let _ = value.setattr("column", e.col);
    err
}

/// A drawing option's error (`labels="nope"`, `view=...`, an unknown option): an
/// `OptionError`, a `CuteError` that is also a `ValueError`.
fn option_err(py: Python<'_>, msg: String) -> PyErr {
    let class = py
        .import("cute_explorer._native")
        .and_then(|m| m.getattr("OptionError"));
    let made = class.and_then(|c| c.call1((msg.clone(),)));
    match made {
        Ok(value) => {
            let _ = value.setattr("message", msg);
            let _ = value.setattr("column", py.None());
            PyErr::from_value(value)
        }
        Err(_) => cute_err(py, &Error::new(msg)),
    }
}

/// A `CuteError`'s message without its column, for the Python error a protocol raises
/// instead (TypeError from `len`, AttributeError from `.stride`).
fn message(py: Python<'_>, e: &PyErr) -> String {
    e.value(py)
        .getattr("message")
        .and_then(|m| m.extract::<String>())
        .unwrap_or_else(|_| e.to_string())
}

/// Run `f`; a Rust panic becomes a `CuteError` instead of crossing into Python.
fn guarded<T>(py: Python<'_>, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            Err(cute_err(
                py,
                &Error::new(format!("internal error (a bug; please report it): {what}")),
            ))
        }
    }
}

/// A value of the language: a layout, a swizzle, an atom, a tensor, a bank report, ...
/// `str(v)` is what `render --print` prints; in a notebook it draws itself.
#[pyclass(module = "cute_explorer", name = "Value", frozen)]
pub struct PyValue {
    value: Value,
    /// The script it came from (`evaluate`): drawn exactly as `render --expr` draws it.
    script: Option<String>,
    /// The figure's title when there is no script (a call from Python).
    title: String,
    /// The call and its operands (the algebra view draws them).
    call: Option<Call>,
    /// The operands a call bound (`A`, `B`, ..., `K0`, ...), for pickling it as a script.
    operands: Vec<(String, Operand)>,
    /// One line of text that evaluates to it where there is one: a one-line script, or a
    /// call written with its operands' own lines (`get_layoutC_TV(make_tiled_mma(...))`).
    source: Option<String>,
}

/// An operand of a call from Python: its value, and the one line of text it came from where
/// there is one (pickling writes that text rather than the value's print, which for an
/// atom with an element type does not read back).
#[derive(Clone)]
struct Operand {
    value: Value,
    text: Option<String>,
}

impl PyValue {
    /// This value as an operand of a call.
    fn operand(&self) -> Operand {
        Operand {
            value: self.value.clone(),
            text: self.source.clone(),
        }
    }

    /// `shape(v)` / `stride(v)` of the language as Python data; the language's refusal as
    /// an AttributeError (so `hasattr(v, "stride")` is false where CuTe has no stride).
    fn member(slf: &Bound<'_, Self>, name: &str) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let v = eval_operands(py, vec![slf.get().operand()], vec![], |ops| {
            format!("{name}({})", ops[0])
        })
        .map_err(|e| pyo3::exceptions::PyAttributeError::new_err(message(py, &e)))?;
        result_object(py, v)
    }

    /// The derivation of an `explain(...)` value; AttributeError for any other value.
    fn explained(&self) -> PyResult<&cute_lang::Explained> {
        match &self.value {
            Value::Explain(e) => Ok(e),
            v => Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "{} is not an explanation (cx.explain(op, *args) makes one)",
                v.kind()
            ))),
        }
    }

    fn figure(&self, opts: &Options) -> Result<Figure, Error> {
        match &self.script {
            Some(s) => cute_render::render_figure(s, opts),
            None => cute_render::views::figure_with_call(
                &self.title,
                &self.value,
                self.call.as_ref(),
                opts,
            ),
        }
    }
}

/// The drawing options `svg`, `png` and `save` take as keyword arguments (the `render`
/// flags' names).
const OPTION_NAMES: &[&str] = &[
    "view",
    "labels",
    "palette",
    "theme",
    "bits",
    "highlight_thread",
    "highlight_warp",
    "warp",
    "bit_offset",
];

/// Drawing options from keyword arguments; an unknown name or value is an `OptionError`
/// (a `CuteError` and a `ValueError`) naming the choices.
fn options(py: Python<'_>, kw: Option<&Bound<'_, PyDict>>) -> PyResult<(Options, Theme)> {
    let err = |msg: String| option_err(py, msg);
    let mut opts = Options::default();
    let mut theme = Theme::Light;
    let (mut thread, mut warp_hl) = (None, None);
    let Some(kw) = kw else {
        return Ok((opts, theme));
    };
    for (k, v) in kw.iter() {
        let key: String = k.extract()?;
        if v.is_none() {
            continue;
        }
        let text = || -> PyResult<String> {
            v.extract::<String>()
                .map_err(|_| err(format!("{key}= takes a string")))
        };
        let int = || -> PyResult<i64> {
            v.extract::<i64>()
                .map_err(|_| err(format!("{key}= takes an integer")))
        };
        match key.as_str() {
            "view" => {
                let name = text()?;
                opts.view = View::parse(&name).ok_or_else(|| {
                    let all: Vec<&str> = View::ALL.iter().map(|v| v.name()).collect();
                    err(format!("unknown view '{name}' (one of {})", all.join(", ")))
                })?;
            }
            "labels" => {
                let name = text()?;
                opts.labels = Labels::parse(&name).ok_or_else(|| {
                    let all: Vec<&str> = Labels::ALL.iter().map(|l| l.name()).collect();
                    err(format!(
                        "unknown labels '{name}' (one of {})",
                        all.join(", ")
                    ))
                })?;
            }
            "palette" => {
                let name = text()?;
                opts.palette = Palette::parse(&name).ok_or_else(|| {
                    let all: Vec<&str> = Palette::ALL.iter().map(|p| p.name()).collect();
                    err(format!(
                        "unknown palette '{name}' (one of {})",
                        all.join(", ")
                    ))
                })?;
            }
            "theme" => {
                theme = match text()?.as_str() {
                    "light" => Theme::Light,
                    "dark" => Theme::Dark,
                    t => return Err(err(format!("unknown theme '{t}' (light or dark)"))),
                }
            }
            "bits" => {
                let b = int()?;
                if ![4, 8, 16, 32, 64].contains(&b) {
                    return Err(err(format!(
                        "bits={b}: the element width is 4, 8, 16, 32 or 64"
                    )));
                }
                opts.elem_bits = b as u32;
            }
            "highlight_thread" => thread = Some(int()?),
            "highlight_warp" => warp_hl = Some(int()?),
            "warp" => {
                opts.warp = u32::try_from(int()?)
                    .map_err(|_| err("warp= takes a warp index (0 or more)".into()))?
            }
            "bit_offset" => opts.bit_offset = Some(int()?),
            _ => {
                return Err(err(format!(
                    "unknown drawing option '{key}' (one of {})",
                    OPTION_NAMES.join(", ")
                )))
            }
        }
    }
    opts.highlight = match (thread, warp_hl) {
        (Some(t), _) => Some(Highlight::Thread(t)),
        (_, Some(w)) => Some(Highlight::Warp(w)),
        _ => None,
    };
    Ok((opts, theme))
}

#[pymethods]
impl PyValue {
    fn __str__(&self) -> String {
        self.value.to_string()
    }

    fn __repr__(&self) -> String {
        let s = self.value.to_string();
        let one_line = s.lines().next().unwrap_or("");
        format!(
            "<cute_explorer.Value {}: {}{}>",
            self.value.kind(),
            one_line,
            if s.lines().count() > 1 { " ..." } else { "" }
        )
    }

    /// What kind of value it is (`a layout`, `a TiledMMA`, `a bank analysis`, ...).
    #[getter]
    fn kind(&self) -> &'static str {
        self.value.kind()
    }

    /// The script it was evaluated from, or None for a value a Python call made.
    #[getter]
    fn script(&self) -> Option<String> {
        self.script.clone()
    }

    /// The figure's title: the script's drawn line, or the call.
    #[getter]
    fn title(&self) -> String {
        match &self.script {
            Some(s) => cute_render::evaluate(s)
                .drawn_value()
                .map(|(_, t)| t)
                .unwrap_or_default(),
            None => self.title.clone(),
        }
    }

    /// The SVG the renderer draws (`render --expr ... out.svg`, byte for byte). Options:
    /// view, labels, palette, theme, bits, highlight_thread, highlight_warp, warp,
    /// bit_offset.
    #[pyo3(signature = (**opts))]
    fn svg(&self, py: Python<'_>, opts: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
        let (opts, theme) = options(py, opts)?;
        guarded(py, || {
            let fig = self.figure(&opts).map_err(|e| cute_err(py, &e))?;
            Ok(fig.to_svg(theme))
        })
    }

    /// PNG bytes of [`PyValue::svg`] at `scale` pixels per SVG unit.
    #[pyo3(signature = (scale=1.0, **opts))]
    fn png<'py>(
        &self,
        py: Python<'py>,
        scale: f32,
        opts: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        if !(scale > 0.0 && scale <= 8.0) {
            return Err(cute_err(
                py,
                &Error::new(format!("scale={scale} must be in (0, 8]")),
            ));
        }
        let svg = self.svg(py, opts)?;
        let png = guarded(py, || {
            cute_render::svg_to_png(&svg, scale).map_err(|e| cute_err(py, &e))
        })?;
        Ok(PyBytes::new(py, &png))
    }

    /// What CuTe C++'s `print_latex` prints for it (TikZ; `render --expr ... out.tex`,
    /// byte for byte): a layout, a swizzled layout, a thread-value layout, an MMA atom, a
    /// TiledMMA or a TiledCopy. Any other value raises `CuteError` saying so.
    fn latex(&self, py: Python<'_>) -> PyResult<String> {
        guarded(py, || {
            match &self.script {
                Some(s) => cute_render::render_latex(s),
                None => cute_render::latex::latex(&self.value),
            }
            .map_err(|e| cute_err(py, &e))
        })
    }

    /// The notebook's picture.
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        self.svg(py, None)
    }

    /// The picture with a hover inspector under it (each cell's `data-*` attributes by the
    /// page's labels: coordinate, index, offset, bank, thread, value, ...).
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let svg = self._repr_svg_(py)?;
        Ok(inspector_html(&svg))
    }

    /// Write the picture to `path`, SVG or PNG by its suffix (PNG at `scale`), or with a
    /// `.tex` suffix its LaTeX ([`PyValue::latex`], which takes no drawing options).
    #[pyo3(signature = (path, scale=1.0, **opts))]
    fn save(
        &self,
        py: Python<'_>,
        path: std::path::PathBuf,
        scale: f32,
        opts: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase());
        let bytes = match ext.as_deref() {
            Some("svg") => self.svg(py, opts)?.into_bytes(),
            Some("png") => self.png(py, scale, opts)?.as_bytes().to_vec(),
            Some("tex") => {
                // Checked as everywhere else; print_latex has one form, so none applies.
                options(py, opts)?;
                let given: Vec<String> = opts
                    .map(|kw| {
                        kw.iter()
                            .filter(|(_, v)| !v.is_none())
                            .filter_map(|(k, _)| k.extract::<String>().ok())
                            .collect()
                    })
                    .unwrap_or_default();
                if !given.is_empty() {
                    return Err(option_err(
                        py,
                        format!(
                            "{}: LaTeX (CuTe's print_latex) takes no drawing options, got {}",
                            path.display(),
                            given.join(", ")
                        ),
                    ));
                }
                self.latex(py)?.into_bytes()
            }
            _ => {
                return Err(cute_err(
                    py,
                    &Error::new(format!(
                        "cannot tell the format of {}: use a .svg, .png or .tex file name",
                        path.display()
                    )),
                ))
            }
        };
        std::fs::write(&path, bytes).map_err(|e| {
            cute_err(
                py,
                &Error::new(format!("cannot write {}: {e}", path.display())),
            )
        })
    }

    /// The same value as Python data where CuTe has it: an int, a tuple of ints, or a dict
    /// (a bank or coalescing report's totals); None otherwise.
    fn data(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        to_python(py, &self.value)
    }

    // Python's protocols, each one expression of the language (so C++'s meaning): what
    // pycute's and CuTeDSL's layouts answer, a Python user types.

    /// `v(c)`, `v(i, j)`: CuTe's `layout(coord)` (a layout's or composed layout's offset,
    /// a swizzle's image).
    #[pyo3(signature = (*args))]
    fn __call__(slf: &Bound<'_, Self>, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let mut values = vec![slf.get().operand()];
        for a in args.iter() {
            values.push(arg_value(py, "the call", &a)?);
        }
        let v = eval_operands(py, values, vec![], |ops| {
            format!("{}({})", ops[0], ops[1..].join(", "))
        })?;
        result_object(py, v)
    }

    /// `v[i]`: mode `i` (CuTe `get<i>`, pycute's `layout[i]`), `v[i, j]` = `get<i, j>`;
    /// negative indices count from the end. An index past the rank raises IndexError, so
    /// `m, n = v.shape`-style unpacking and iteration work.
    fn __getitem__(slf: &Bound<'_, Self>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let keys: Vec<i64> = match key.extract::<i64>() {
            Ok(i) => vec![i],
            Err(_) => key.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(
                    "a value's index is an int or a tuple of ints (get<i, j>)",
                )
            })?,
        };
        let mut values = vec![slf.get().operand()];
        if let Some(&first) = keys.first() {
            let rank = Self::__len__(slf)? as i64;
            let i = if first < 0 { first + rank } else { first };
            if !(0..rank).contains(&i) {
                return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                    "index {first} out of range for a rank-{rank} {}",
                    slf.get()
                        .value
                        .kind()
                        .trim_start_matches("a ")
                        .trim_start_matches("an ")
                )));
            }
            values.push(Operand::int(i));
        }
        values.extend(keys.iter().skip(1).map(|&k| Operand::int(k)));
        let v = eval_operands(py, values, vec![], |ops| format!("get({})", ops.join(", ")))?;
        result_object(py, v)
    }

    /// `len(v)`: CuTe's `rank`; TypeError for a value without one (an atom, a report).
    fn __len__(slf: &Bound<'_, Self>) -> PyResult<usize> {
        let v = eval_operands(slf.py(), vec![slf.get().operand()], vec![], |ops| {
            format!("rank({})", ops[0])
        })
        .map_err(|e| pyo3::exceptions::PyTypeError::new_err(message(slf.py(), &e)))?;
        match v.value {
            Value::Int(r) | Value::Dyn(r) => Ok(usize::try_from(r).unwrap_or(0)),
            other => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "rank gave {other}"
            ))),
        }
    }

    /// `v.shape`: CuTe's `shape(v)` as ints and tuples (AttributeError where CuTe has none).
    #[getter]
    fn shape(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        Self::member(slf, "shape")
    }

    /// An explanation's lines (`explain(...)`): the call, each step, and `=> result` last.
    /// AttributeError for any other value.
    #[getter]
    fn lines(&self) -> PyResult<Vec<String>> {
        Ok(self.explained()?.explanation.lines.clone())
    }

    /// An explanation's result: the layout the explained call returns. AttributeError for
    /// any other value.
    #[getter]
    fn result(&self) -> PyResult<PyValue> {
        let layout = Value::Layout(self.explained()?.explanation.result.clone());
        let text = layout.to_string();
        Ok(PyValue {
            value: layout,
            script: None,
            title: text.clone(),
            call: None,
            operands: Vec::new(),
            source: Some(text),
        })
    }

    /// `v.stride`: CuTe's `stride(v)` as ints and tuples (AttributeError where CuTe has
    /// none, as for a composed layout).
    #[getter]
    fn stride(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        Self::member(slf, "stride")
    }

    /// `==` is C++'s `==` on the values (`_8 == 8`); a value equals the int, tuple or
    /// pycute / tensor-layouts object that spells it. Text is not evaluated: a value never
    /// equals a str.
    fn __richcmp__(
        slf: &Bound<'_, Self>,
        other: &Bound<'_, PyAny>,
        op: pyo3::basic::CompareOp,
    ) -> PyResult<Py<PyAny>> {
        use pyo3::basic::CompareOp::{Eq, Ne};
        let py = slf.py();
        let not_implemented = || Ok(py.NotImplemented());
        if !matches!(op, Eq | Ne) || other.is_instance_of::<pyo3::types::PyString>() {
            return not_implemented();
        }
        // An int, tuple or boolean value against Python data: as the data it is (so that
        // `==` agrees with the hash, and a boolean equals True).
        let data = to_python(py, &slf.get().value)?;
        let as_data = !other.is_instance_of::<PyValue>()
            && !data.is_none(py)
            && !data.bind(py).is_instance_of::<PyDict>();
        let equal = if as_data {
            data.bind(py).eq(other).unwrap_or(false)
        } else {
            let Ok(b) = arg_value(py, "==", other) else {
                return not_implemented();
            };
            let v = eval_operands(py, vec![slf.get().operand(), b], vec![], |ops| {
                format!("{} == {}", ops[0], ops[1])
            })?;
            matches!(v.value, Value::Bool(true))
        };
        Ok((equal == matches!(op, Eq))
            .into_pyobject(py)?
            .to_owned()
            .into_any()
            .unbind())
    }

    /// Equal values hash alike: an int or tuple as the Python int or tuple it equals.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        let data = to_python(py, &self.value)?;
        // A report's numbers are a dict (unhashable): such values hash by their text.
        if data.is_none(py) || data.bind(py).is_instance_of::<PyDict>() {
            let text = self.value.to_static().to_string();
            return text.into_pyobject(py)?.hash();
        }
        data.bind(py).hash()
    }

    /// False for a zero, a false boolean, an empty tuple or a comparison that found a
    /// difference (`functionally_equal`); true for everything else.
    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        let data = to_python(py, &self.value)?;
        if data.is_none(py) {
            return Ok(true);
        }
        data.bind(py).is_truthy()
    }

    /// An integer value is a Python index (`range(v)`, `int(v)`).
    fn __index__(&self) -> PyResult<i64> {
        match self.value {
            Value::Int(i) | Value::Dyn(i) => Ok(i),
            ref v => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "{} is not an integer",
                v.kind()
            ))),
        }
    }

    fn __int__(&self) -> PyResult<i64> {
        self.__index__()
    }

    /// A value is immutable: a copy is the value itself.
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }

    /// Pickled as the text it evaluates from: its script, or for a call's value the call
    /// with each operand bound to the line it came from or else its print. That text is
    /// evaluated here first and must give the same value back; where it cannot (an operand
    /// CuTe prints as a description, such as a TiledMMA, with no line of its own), pickling
    /// raises instead of changing the value.
    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(Py<PyAny>, (String,))> {
        let py = slf.py();
        let this = slf.get();
        let script = match &this.script {
            Some(s) => s.clone(),
            None => {
                // Each operand as the line it came from, else (or if that does not read
                // back) as its print; the first script that gives this value back is kept.
                let script = |use_text: bool| {
                    let mut lines: Vec<String> = this
                        .operands
                        .iter()
                        .map(|(n, o)| match (&o.text, use_text) {
                            (Some(t), true) => format!("{n} = {t}"),
                            _ => format!("{n} = {}", o.value),
                        })
                        .collect();
                    lines.push(this.title.clone());
                    lines.join("\n")
                };
                let gives_back = |s: &String| {
                    guarded(py, || Ok(cute_lang::eval_block(s)))
                        .is_ok_and(|r| r.is_ok_and(|v| v.to_static() == this.value.to_static()))
                };
                [script(true), script(false)]
                    .into_iter()
                    .find(gives_back)
                    .ok_or_else(|| {
                        pyo3::exceptions::PyTypeError::new_err(format!(
                            "cannot pickle {} made by {}: its operands do not print as text \
                             that evaluates back to them; pickle the expression text instead",
                            this.value.kind(),
                            this.title
                        ))
                    })?
            }
        };
        let evaluate = py.import("cute_explorer._native")?.getattr("evaluate")?;
        Ok((evaluate.unbind(), (script,)))
    }
}

/// Outputs so far: each HTML output's inspector finds its own figure by this number.
static HTML_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The SVG with a line under it that names the hovered cell's attributes by the page's
/// inspector labels ([`cute_render::grid::CELL_KEYS`]).
fn inspector_html(svg: &str) -> String {
    let id = HTML_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let labels: Vec<String> = cute_render::grid::CELL_KEYS
        .iter()
        .map(|k| format!("\"{}\":\"{}\"", k.key, k.label))
        .collect();
    format!(
        r#"<div id="cute-explorer-{id}" class="cute-explorer"><div style="overflow:auto;max-height:80vh">{svg}</div><pre class="cx-inspect" style="margin:4px 0;min-height:1.3em;font-size:12px">hover a cell</pre><script>(function(){{
const root=document.getElementById("cute-explorer-{id}");if(!root)return;
const out=root.querySelector(".cx-inspect");const labels={{{labels}}};
root.addEventListener("mouseover",function(e){{const c=e.target.closest&&e.target.closest("g.cell");if(!c)return;
out.textContent=c.getAttributeNames().filter(function(n){{return n.indexOf("data-")===0;}}).map(function(n){{const k=n.slice(5);return (labels[k]||k)+": "+c.getAttribute(n);}}).join("   ");}});
}})();</script></div>"#,
        labels = labels.join(",")
    )
}

/// An int, a (nested) tuple of ints, or a report's totals as a dict; None otherwise.
fn to_python(py: Python<'_>, v: &Value) -> PyResult<Py<PyAny>> {
    Ok(match v {
        Value::Int(i) | Value::Dyn(i) => i.into_pyobject(py)?.into_any().unbind(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        // A comparison's data is its verdict (`functionally_equal(a, b) == True`).
        Value::Compare(c) => c.equal().into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Tuple(vs) => {
            let items = vs
                .iter()
                .map(|x| to_python(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            if items.iter().any(|x| x.is_none(py)) {
                return Ok(py.None());
            }
            PyTuple::new(py, items)?.into_any().unbind()
        }
        Value::Banks(b) => {
            let d = PyDict::new(py);
            d.set_item("instruction", b.instr.to_string())?;
            d.set_item("element_bits", b.elem_bits)?;
            d.set_item("threads", b.threads)?;
            d.set_item("warps", b.warps())?;
            d.set_item("instructions_per_warp", b.per_warp)?;
            d.set_item("wavefronts", b.wavefronts())?;
            d.set_item("ideal", b.ideal())?;
            d.set_item("ways", b.ways())?;
            let per: Vec<(u32, u32, u32, u32)> = b
                .instrs
                .iter()
                .map(|i| (i.warp, i.index, i.wavefronts, i.ideal))
                .collect();
            d.set_item("per_instruction", PyList::new(py, per)?)?;
            d.into_any().unbind()
        }
        Value::Coalesce(c) => {
            let d = PyDict::new(py);
            d.set_item("instruction", c.op.to_string())?;
            d.set_item("element_bits", c.elem_bits)?;
            d.set_item("base", c.base)?;
            d.set_item("threads", c.threads)?;
            d.set_item("warps", c.warps())?;
            d.set_item("instructions_per_warp", c.per_warp)?;
            d.set_item("sectors", c.sectors())?;
            d.set_item("min_sectors", c.min_sectors())?;
            d.set_item("lines", c.lines())?;
            d.set_item("min_lines", c.min_lines())?;
            d.set_item("requests", c.requests())?;
            let per: Vec<(u32, u32, u32, u32, u32)> = c
                .instrs
                .iter()
                .map(|i| (i.warp, i.index, i.sectors, i.min_sectors, i.lines))
                .collect();
            d.set_item("per_instruction", PyList::new(py, per)?)?;
            d.into_any().unbind()
        }
        _ => py.None(),
    })
}

/// Evaluate anything the language accepts (one line or a pasted C++/CuTeDSL block); the
/// value of its last statement. Errors raise `CuteError` with the message and the column.
#[pyfunction]
fn evaluate(py: Python<'_>, text: &str) -> PyResult<PyValue> {
    guarded(py, || {
        // The fast path (no operand tracking): the drawing evaluates the script again.
        let value = cute_lang::eval_block(text).map_err(|err| cute_err(py, &err))?;
        Ok(PyValue {
            value,
            script: Some(text.to_string()),
            title: String::new(),
            call: None,
            operands: Vec::new(),
            source: Some(text.to_string()).filter(|t| !t.contains('\n')),
        })
    })
}

/// Call the op `name` of the op table on values (or expression texts): `A`, `B`, ... are
/// the positional operands, as the algebra view captions them. An int, a tuple of ints or
/// a boolean comes back as Python data, anything else as a value.
#[pyfunction]
#[pyo3(signature = (name, args, kwargs=None))]
fn call(
    py: Python<'_>,
    name: &str,
    args: Vec<Bound<'_, PyAny>>,
    kwargs: Option<Vec<(String, Bound<'_, PyAny>)>>,
) -> PyResult<Py<PyAny>> {
    let values = args
        .iter()
        .map(|a| arg_value(py, name, a))
        .collect::<PyResult<Vec<_>>>()?;
    let kw = kwargs
        .unwrap_or_default()
        .iter()
        .map(|(k, v)| Ok((k.clone(), arg_value(py, name, v)?)))
        .collect::<PyResult<Vec<_>>>()?;
    if cute_lang::lookup(name).is_none() {
        return Err(cute_err(
            py,
            &Error::new(format!("'{name}' is not in the op table")),
        ));
    }
    let v = eval_operands(py, values, kw, |ops| format!("{name}({})", ops.join(", ")))?;
    result_object(py, v)
}

/// `explain`: the derivation of the op `op` (a name of the op table) called on `args`, or
/// of the call a value was made by (`op` a value from a call or a one-line script).
#[pyfunction]
#[pyo3(signature = (op, args=Vec::new()))]
fn explain(
    py: Python<'_>,
    op: &Bound<'_, PyAny>,
    args: Vec<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let err = |msg: String| cute_err(py, &Error::new(msg));
    let v = if let Ok(v) = op.cast::<PyValue>() {
        let this = v.get();
        if !args.is_empty() {
            return Err(err(format!(
                "explain: {} is a value, not an op: pass the op and its operands \
                 (explain(\"logical_divide\", A, B)), or the value a call made alone",
                this.value.kind()
            )));
        }
        match (&this.script, &this.call) {
            (Some(s), _) if !s.contains('\n') => {
                let text = format!("explain({s})");
                let value = guarded(py, || {
                    cute_lang::eval_block(&text).map_err(|e| cute_err(py, &e))
                })?;
                PyValue {
                    value,
                    script: Some(text.clone()),
                    title: String::new(),
                    call: None,
                    operands: Vec::new(),
                    source: Some(text),
                }
            }
            // A call from Python of an op with positional operands (`logical_divide(A, B)`).
            (None, Some(call))
                if this.title
                    == format!(
                        "{}({})",
                        call.name,
                        this.operands
                            .iter()
                            .map(|(n, _)| n.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                    && this.operands.iter().all(|(n, _)| !n.starts_with('K')) =>
            {
                let values = this.operands.iter().map(|(_, o)| o.clone()).collect();
                let name = call.name.clone();
                eval_operands(py, values, vec![], |ops| {
                    format!("explain({name}({}))", ops.join(", "))
                })?
            }
            _ => {
                return Err(err(format!(
                    "explain: cannot tell which call made this {} ({}): pass the op and its \
                     operands, explain(\"logical_divide\", A, B)",
                    this.value.kind(),
                    this.title
                )))
            }
        }
    } else {
        let name: String = op.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(
                "explain takes an op (its name or its function), a value a call made, or \
                 the call's text",
            )
        })?;
        let Some(row) = cute_lang::lookup(&name) else {
            return Err(err(format!(
                "'{name}' is not in the op table (explain derives {})",
                cute_lang::EXPLAINED.join(", ")
            )));
        };
        let values = args
            .iter()
            .map(|a| arg_value(py, row.name, a))
            .collect::<PyResult<Vec<_>>>()?;
        eval_operands(py, values, vec![], |ops| {
            format!("explain({}({}))", row.name, ops.join(", "))
        })?
    };
    Ok(Py::new(py, v)?.into_any())
}

/// An argument as a value: a value as itself, anything else by the package's `to_text`
/// (expression text, ints, tuples, pycute / tensor-layouts objects, CuTeDSL prints).
fn arg_value(py: Python<'_>, name: &str, a: &Bound<'_, PyAny>) -> PyResult<Operand> {
    if let Ok(v) = a.cast::<PyValue>() {
        return Ok(v.get().operand());
    }
    let text: String = py
        .import("cute_explorer")?
        .getattr("to_text")?
        .call1((a,))?
        .extract()?;
    let value = guarded(py, || {
        cute_lang::eval_block(&text)
            .map_err(|e| cute_err(py, &Error::new(format!("{name}: argument `{text}`: {e}"))))
    })?;
    Ok(Operand {
        value,
        text: Some(text).filter(|t| !t.contains('\n')),
    })
}

impl Operand {
    fn int(i: i64) -> Operand {
        Operand {
            value: Value::Int(i),
            text: None,
        }
    }
}

/// Evaluate the text `make(operands)` with `values` bound to `A`, `B`, ... and the keyword
/// values to `K0`, `K1`, ... (written `key=K0`): every call from Python reaches the language
/// this one way, and the value keeps its call for the algebra view.
fn eval_operands(
    py: Python<'_>,
    values: Vec<Operand>,
    kw: Vec<(String, Operand)>,
    make: impl Fn(&[String]) -> String,
) -> PyResult<PyValue> {
    guarded(py, || {
        let mut session = Session::default();
        session.track_operands();
        let mut operands = Vec::new();
        // The operands' own lines, while every operand has one.
        let mut texts = Some(Vec::new());
        let mut bound = Vec::new();
        for (i, v) in values.into_iter().enumerate() {
            let n = operand_name(i);
            session.bind(&n, v.value.clone());
            operands.push(n.clone());
            texts = texts.zip(v.text.clone()).map(|(mut ts, t)| {
                ts.push(t);
                ts
            });
            bound.push((n, v));
        }
        for (i, (k, v)) in kw.into_iter().enumerate() {
            let n = format!("K{i}");
            session.bind(&n, v.value.clone());
            operands.push(format!("{k}={n}"));
            texts = texts.zip(v.text.clone()).map(|(mut ts, t)| {
                ts.push(format!("{k}={t}"));
                ts
            });
            bound.push((n, v));
        }
        let text = make(&operands);
        let value = match session.eval(&text) {
            Some(Ok(v)) => v,
            Some(Err(e)) => return Err(cute_err(py, &e)),
            None => return Err(cute_err(py, &Error::new(format!("{text}: no value")))),
        };
        let call = session.call_operands(&text);
        Ok(PyValue {
            value,
            script: None,
            title: text,
            call,
            operands: bound,
            source: texts.map(|ts| make(&ts)),
        })
    })
}

/// What a Python call returns: an int, a tuple of ints or a boolean as Python data (what
/// CuTe returns as numbers), anything else as the value.
fn result_object(py: Python<'_>, v: PyValue) -> PyResult<Py<PyAny>> {
    if matches!(
        v.value,
        Value::Int(_) | Value::Dyn(_) | Value::Bool(_) | Value::Tuple(_)
    ) {
        let data = to_python(py, &v.value)?;
        if !data.is_none(py) {
            return Ok(data);
        }
    }
    Ok(Py::new(py, v)?.into_any())
}

/// `A`, `B`, ..., `Z`, `A1`, ...: the operand names of a call.
fn operand_name(i: usize) -> String {
    let letter = (b'A' + (i % 26) as u8) as char;
    if i < 26 {
        letter.to_string()
    } else {
        format!("{letter}{}", i / 26)
    }
}

/// The op table: one dict per function of the language (its CuTe name, other spellings,
/// parameters, keyword arguments, arity and what it computes).
#[pyfunction]
fn op_table(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let rows = cute_lang::OPS
        .iter()
        .map(|o| {
            let d = PyDict::new(py);
            d.set_item("name", o.name)?;
            d.set_item("spellings", o.spellings.to_vec())?;
            d.set_item("params", o.params)?;
            d.set_item("kwargs", o.kwargs.to_vec())?;
            d.set_item("arity", o.arity)?;
            d.set_item("meaning", o.meaning)?;
            d.set_item("algebra", o.algebra)?;
            Ok(d)
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, rows)
}

/// What `render --print -` prints for a script: one line per statement with a value or an
/// error, and whether every statement succeeded.
#[pyfunction]
fn print_script(py: Python<'_>, text: &str) -> PyResult<(String, bool)> {
    guarded(py, || {
        let mut out = Vec::new();
        let printed = cute_render::print_script(text, &mut out)
            .map_err(|e| cute_err(py, &Error::new(e.to_string())))?;
        Ok((
            String::from_utf8_lossy(&out).into_owned(),
            printed.failed == 0,
        ))
    })
}

/// The `render` command line (`python -m cute_explorer ARGS`): its exit status.
#[pyfunction]
fn run_cli(py: Python<'_>, argv: Vec<String>) -> PyResult<u8> {
    guarded(py, || {
        Ok(cute_render::cli::run(
            std::iter::once("render".to_string()).chain(argv),
        ))
    })
}

/// The kernel report of a configuration block (`render --report`): its Markdown and its
/// JSON text.
#[pyfunction]
fn report(py: Python<'_>, text: &str) -> PyResult<(String, String)> {
    guarded(py, || {
        let r = cute_lang::kernel::report(text).map_err(|e| cute_err(py, &e))?;
        Ok((r.to_string(), cute_render::report::to_json(&r).to_string()))
    })
}

/// The cell keys the figures' `data-*` attributes use, with the inspector's labels.
#[pyfunction]
fn cell_keys() -> Vec<(&'static str, &'static str)> {
    cute_render::grid::CELL_KEYS
        .iter()
        .map(|k| (k.key, k.label))
        .collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CuteError", py.get_type::<CuteError>())?;
    // A drawing option's error is a CuteError and a ValueError (`labels="nope"`).
    let bases = PyTuple::new(
        py,
        [
            py.get_type::<CuteError>().into_any(),
            py.get_type::<pyo3::exceptions::PyValueError>().into_any(),
        ],
    )?;
    let body = PyDict::new(py);
    body.set_item("__module__", "cute_explorer")?;
    body.set_item(
        "__doc__",
        "A drawing option that is not one (view=, labels=, palette=, ...): a CuteError and a \
         ValueError; the message names the choices.",
    )?;
    let option_error =
        py.import("builtins")?
            .getattr("type")?
            .call1(("OptionError", bases, body))?;
    m.add("OptionError", option_error)?;
    m.add_class::<PyValue>()?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(op_table, m)?)?;
    m.add_function(wrap_pyfunction!(print_script, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(cell_keys, m)?)?;
    m.add_function(wrap_pyfunction!(report, m)?)?;
    // The ops `explain` derives, by CuTe name.
    m.add("EXPLAINED", PyTuple::new(py, cute_lang::EXPLAINED)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
