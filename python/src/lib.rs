//! `cute_explorer._native`: the Python face of CuTe Layout Explorer. Everything here calls
//! the same crates the page and the `render` CLI use: `cute_lang` evaluates, `cute_render`
//! draws. The pure-Python package (`cute_explorer/__init__.py`) builds the op functions from
//! [`op_table`] and converts Python objects to the language's text.

use cute_core::Error;
use cute_lang::{Call, Session, Value};
use cute_render::{Figure, Highlight, Options, Palette, Theme, View};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use std::panic::{catch_unwind, AssertUnwindSafe};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
}

impl PyValue {
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
    "palette",
    "theme",
    "bits",
    "highlight_thread",
    "highlight_warp",
    "warp",
    "bit_offset",
];

/// Drawing options from keyword arguments; an unknown name or value is a `CuteError`.
fn options(py: Python<'_>, kw: Option<&Bound<'_, PyDict>>) -> PyResult<(Options, Theme)> {
    let err = |msg: String| cute_err(py, &Error::new(msg));
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
    /// view, palette, theme, bits, highlight_thread, highlight_warp, warp, bit_offset.
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

    /// Write the picture to `path`, SVG or PNG by its suffix (PNG at `scale`).
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
            _ => {
                return Err(cute_err(
                    py,
                    &Error::new(format!(
                        "cannot tell the format of {}: use a .svg or .png file name",
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
        })
    })
}

/// Call the op `name` of the op table on values (or expression texts): `A`, `B`, ... are
/// the positional operands, as the algebra view captions them.
#[pyfunction]
#[pyo3(signature = (name, args, kwargs=None))]
fn call(
    py: Python<'_>,
    name: &str,
    args: Vec<Bound<'_, PyAny>>,
    kwargs: Option<Vec<(String, Bound<'_, PyAny>)>>,
) -> PyResult<PyValue> {
    let arg_value = |a: &Bound<'_, PyAny>| -> PyResult<Value> {
        if let Ok(v) = a.cast::<PyValue>() {
            return Ok(v.get().value.clone());
        }
        let text: String =
            a.extract().map_err(|_| {
                cute_err(
                    py,
                    &Error::new(format!(
                    "{name}: an argument must be a cute_explorer value or expression text, got {}",
                    a.get_type().name().map(|n| n.to_string()).unwrap_or_default()
                )),
                )
            })?;
        guarded(py, || {
            cute_lang::eval_block(&text)
                .map_err(|e| cute_err(py, &Error::new(format!("{name}: argument `{text}`: {e}"))))
        })
    };
    let values = args.iter().map(arg_value).collect::<PyResult<Vec<_>>>()?;
    let kw = kwargs
        .unwrap_or_default()
        .iter()
        .map(|(k, v)| Ok((k.clone(), arg_value(v)?)))
        .collect::<PyResult<Vec<_>>>()?;
    guarded(py, || {
        if cute_lang::lookup(name).is_none() {
            return Err(cute_err(
                py,
                &Error::new(format!("'{name}' is not in the op table")),
            ));
        }
        let mut session = Session::default();
        session.track_operands();
        let mut operands = Vec::new();
        for (i, v) in values.into_iter().enumerate() {
            let n = operand_name(i);
            session.bind(&n, v);
            operands.push(n);
        }
        for (i, (k, v)) in kw.into_iter().enumerate() {
            let n = format!("K{i}");
            session.bind(&n, v);
            operands.push(format!("{k}={n}"));
        }
        let text = format!("{name}({})", operands.join(", "));
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
        })
    })
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
        let failed = cute_render::print_script(text, &mut out)
            .map_err(|e| cute_err(py, &Error::new(e.to_string())))?;
        Ok((String::from_utf8_lossy(&out).into_owned(), failed == 0))
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
    m.add("CuteError", m.py().get_type::<CuteError>())?;
    m.add_class::<PyValue>()?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(op_table, m)?)?;
    m.add_function(wrap_pyfunction!(print_script, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(cell_keys, m)?)?;
    m.add_function(wrap_pyfunction!(report, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
