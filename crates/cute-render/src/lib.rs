//! # cute-render
//!
//! The one renderer of CuTe Layout Explorer, used by the `render` CLI and the web page.
//!
//! Map of the crate:
//! - text mode: [`print_script`], what `render --print` prints ([`print_one`]: one
//!   expression);
//! - [`views`]: core values turned into figures — layout, swizzle, TV, MMA, copy, bank,
//!   swizzle-search and algebra views ([`views::figure_with_call`]);
//! - [`grid`]: the figure model ([`Figure`]: panels of cells, held or computed on
//!   demand), its geometry, the single SVG writer ([`grid::Figure::to_svg`]), with
//!   `data-*` attributes on every cell for the page's hover inspector, and the bitmap of
//!   grids computed on demand ([`grid::Figure::pixels`]);
//! - [`view`] and [`limits`], below both: the view names and the cell caps;
//! - [`render_svg`]: expression text in, SVG document out ([`render_figure`]: the figure
//!   before it is written).

// The first picture's build (no `full`) leaves most views unreferenced.
#![cfg_attr(not(feature = "full"), allow(dead_code, unused_imports))]

#[cfg(feature = "cli")]
pub mod alloc;
#[cfg(feature = "cli")]
pub mod cli;
pub mod grid;
#[cfg(feature = "full")]
pub mod latex;
pub mod limits;
pub mod report;
pub mod view;
pub mod views;

pub use grid::{Figure, Theme};
pub use view::{Labels, View};
pub use views::{Highlight, Options, Palette};

use cute_core::{Error, Result};
use cute_lang::Call;
use cute_lang::{Session, Value};
use std::io::{self, Write};

/// The value a script draws: the result of its last evaluated line.
///
/// ```
/// let v = cute_render::eval_for_drawing("A = (4,8):(1,4)\ncoalesce(A)").unwrap();
/// assert_eq!(v.to_string(), "32:1");
/// ```
pub fn eval_for_drawing(script: &str) -> Result<Value> {
    Ok(evaluate(script).drawn?.value)
}

/// The value a script draws and the line that computed it.
struct Drawn {
    value: Value,
    /// The drawn statement as one line (a multi-line statement's whitespace collapsed).
    title: String,
}

/// A script evaluated once: every statement's result (what the page's results pane lists)
/// and what it draws (the last value, or the first error).
pub struct Evaluated {
    /// One entry per statement with a value or an error ([`cute_lang::ScriptLine`]).
    pub lines: Vec<cute_lang::ScriptLine>,
    /// The script (the kernel view's rows open it with a section's view appended).
    script: String,
    drawn: Result<Drawn>,
    session: Session,
    /// The drawn line's top-level call with its operands, evaluated only for the views
    /// that read it (the algebra view; the auto view of a layout).
    call: std::cell::OnceCell<Option<Call>>,
}

/// Evaluate `script` once, for both its printed lines and its drawing.
///
/// ```
/// use cute_render::{evaluate, Options, View};
/// let e = evaluate("A = (4,8):(8,1)\nsize(A)\nA");
/// assert_eq!(e.lines.len(), 2);
/// let (v, f, note) = e.figure(&Options::default()).unwrap();
/// assert_eq!((v.to_string(), f.view, note), ("(4,8):(8,1)".to_string(), View::Layout, None));
/// ```
pub fn evaluate(script: &str) -> Evaluated {
    evaluate_with(script, &[])
}

/// [`evaluate`] with names bound before the script runs (the page's other tabs' values).
///
/// ```
/// let a = cute_lang::eval_line("(4,8):(8,1)").unwrap();
/// let e = cute_render::evaluate_with("coalesce(A)", &[("A".into(), a)]);
/// assert_eq!(e.drawn_value().unwrap().0.to_string(), "(4,8):(8,1)");
/// ```
pub fn evaluate_with(script: &str, bindings: &[(String, Value)]) -> Evaluated {
    let mut session = Session::default();
    for (name, value) in bindings {
        session.bind(name, value.clone());
    }
    session.track_operands();
    let lines = session.run(script);
    // A pasted block: the first error stops the drawing; the last value is drawn, a
    // binding's included (`using SmemLayout = decltype(...);`).
    let drawn = match lines.iter().find_map(|l| l.result.as_ref().err()) {
        Some(e) => Err(e.clone()),
        None => session
            .last_value()
            .cloned()
            .ok_or_else(|| Error::new("nothing to draw: the expression is empty"))
            .map(|value| Drawn {
                value,
                title: session
                    .last_statement()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" "),
            }),
    };
    Evaluated {
        script: script.to_string(),
        lines,
        drawn,
        session,
        call: std::cell::OnceCell::new(),
    }
}

impl Evaluated {
    /// What the block's C++ host code left out, by line ([`cute_lang::Session::notes`]).
    pub fn notes(&self) -> &[cute_lang::Note] {
        self.session.notes()
    }

    /// The drawn value and the line it comes from (the figure's title), or the first error.
    ///
    /// ```
    /// let e = cute_render::evaluate("A = (4,8):(8,1)\ncoalesce(A)");
    /// let (v, title) = e.drawn_value().unwrap();
    /// assert_eq!((v.to_string().as_str(), title.as_str()), ("(4,8):(8,1)", "coalesce(A)"));
    /// ```
    pub fn drawn_value(&self) -> Result<(Value, String)> {
        let d = self.drawn.as_ref().map_err(Clone::clone)?;
        Ok((d.value.clone(), d.title.clone()))
    }

    /// The drawn value and its figure in `opts.view`. A view chosen for an earlier value
    /// may not fit this one: then the figure is in the view the value implies, with a note
    /// saying so (the view's own error when no view fits).
    pub fn figure(&self, opts: &Options) -> Result<(Value, Figure, Option<String>)> {
        let d = self.drawn.as_ref().map_err(Clone::clone)?;
        let draw = |opts: &Options| self.draw_in(d, opts);
        match draw(opts) {
            Ok(f) => Ok((d.value.clone(), f, None)),
            Err(e) if opts.view != View::Auto => {
                let auto = Options {
                    view: View::Auto,
                    ..opts.clone()
                };
                match draw(&auto) {
                    Ok(f) => {
                        let note = format!("{}; drawn in the {} view", e.msg, f.view.name());
                        Ok((d.value.clone(), f, Some(note)))
                    }
                    Err(_) => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// The element width the drawn value or its block fixes, and where it comes from: the
    /// value's own `smem_ptr[Nb]` (a shared-memory atom as C++ builds it), else the
    /// element type the block declared (`using Element = float;`, or `ElementA`, `ElementB`
    /// when only one is declared or both agree). `None`: the width is chosen (the page's
    /// menu, `render --bits`).
    ///
    /// ```
    /// let e = cute_render::evaluate("GMMA::Layout_K_SW128_Atom<float>{}");
    /// assert_eq!(e.element_width(), Some((32, "smem_ptr[32b]".to_string())));
    /// let e = cute_render::evaluate("using Element = float;\nSwizzle<3,2,3>{} o (8,32):(32,1)");
    /// assert_eq!(e.element_width(), Some((32, "using Element = float".to_string())));
    /// assert_eq!(cute_render::evaluate("(8,32):(32,1)").element_width(), None);
    /// ```
    pub fn element_width(&self) -> Option<(u32, String)> {
        let d = self.drawn.as_ref().ok()?;
        if let Some(own) = views::own_element_width(&d.value) {
            return Some(own);
        }
        let declared = |name: &str| {
            let Some(Value::Word(cute_lang::words::Word::Elem(t))) = self.session.env().get(name)
            else {
                return None;
            };
            let bits = u32::try_from(t.bits()).ok()?;
            Some((bits, format!("using {name} = {t}")))
        };
        declared("Element").or_else(|| match (declared("ElementA"), declared("ElementB")) {
            (Some(a), Some(b)) if a.0 == b.0 => Some(a),
            (Some(a), None) => Some(a),
            (None, Some(b)) => Some(b),
            _ => None,
        })
    }

    /// The figure of `d` in exactly `opts.view`, at the width the value fixes if it does.
    /// Whether the automatic view of the block is its kernel report: it ends with a
    /// builder line's collective (which has no picture of its own), a `GemmUniversal` of
    /// them, or a pasted host function (the tutorials' `gemm_tn(...) { ... }`).
    ///
    /// ```
    /// let e = cute_render::evaluate("void f() {\n  TiledMMA m = make_tiled_mma(UniversalFMA<float>{}, Layout<Shape<_16,_16>>{});\n}");
    /// assert!(e.opens_as_report());
    /// assert!(!cute_render::evaluate("(4,8):(8,1)").opens_as_report());
    /// ```
    pub fn opens_as_report(&self) -> bool {
        let Ok(d) = &self.drawn else {
            return false;
        };
        let builder = match &d.value {
            Value::Collective(_) | Value::Epilogue(_) => true,
            Value::Policy(p) => p
                .members
                .iter()
                .any(|(_, v)| matches!(v, Value::Collective(_))),
            _ => false,
        };
        builder || self.session.ends_in_host_function()
    }

    fn draw_in(&self, d: &Drawn, opts: &Options) -> Result<Figure> {
        if opts.view == View::Kernel || (opts.view == View::Auto && self.opens_as_report()) {
            // The whole block is what the kernel view checks, not its last value.
            #[cfg(feature = "full")]
            {
                let r = cute_lang::kernel::report_of(&self.session)?;
                let title = format!("kernel report ({}): {}", r.arch, r.verdict().name());
                return views::kernel_figure(&title, &self.script, &r, opts);
            }
            #[cfg(not(feature = "full"))]
            return Err(Error::new(
                "the kernel view is drawn by the page's full module",
            ));
        }
        let opts = &*opts.at_width(self.element_width());
        let wants_call = match opts.view {
            View::Algebra => true,
            // The search view's rows open the bank check of their candidate: its call.
            View::Search => true,
            View::Auto => matches!(d.value, Value::Layout(_) | Value::Ranked(_)),
            _ => false,
        };
        let call = if wants_call {
            self.call
                .get_or_init(|| self.session.last_call_operands())
                .as_ref()
        } else {
            None
        };
        views::figure_with_call(&d.title, &d.value, call, opts)
    }

    /// The derivation of the drawn line when it is a call `explain` derives
    /// (`logical_divide(A, B)`): what the page shows under the algebra view. `None` for
    /// other lines and for calls whose operands failed.
    ///
    /// ```
    /// let e = cute_render::evaluate("logical_divide((4,2,3):(2,1,8), 4:2)");
    /// assert_eq!(e.explanation().unwrap().last().unwrap(), "=> ((2,2),(2,3)):((4,1),(2,8))");
    /// assert!(cute_render::evaluate("(4,8):(8,1)").explanation().is_none());
    /// ```
    #[cfg(feature = "full")]
    pub fn explanation(&self) -> Option<Vec<String>> {
        if let Ok(Drawn {
            value: Value::Explain(e),
            ..
        }) = &self.drawn
        {
            return Some(e.explanation.lines.clone());
        }
        let call = self
            .call
            .get_or_init(|| self.session.last_call_operands())
            .as_ref()?;
        let name = cute_lang::lookup(&call.name)?.name;
        if !cute_lang::EXPLAINED.contains(&name) {
            return None;
        }
        let args = call.args.iter().cloned().collect::<Result<Vec<_>>>().ok()?;
        let e = cute_lang::explain_call(name, &args).ok()?;
        Some(e.explanation.lines)
    }
}

/// Evaluate `script` and build the figure of its value: the view is `opts.view` or the one
/// the value (and, for the algebra view, the drawn line's call) implies.
///
/// ```
/// use cute_render::{render_figure, Options, View};
/// let f = render_figure("A = (4,8):(8,1)\ncomposition(A, (2,4):(4,1))", &Options::default()).unwrap();
/// assert_eq!(f.view, View::Algebra);
/// assert_eq!(f.panels.len(), 3); // A, B and the result
/// assert_eq!(f.panels[2].0.label, "composition(A, B) = (2,4):(1,8)");
/// ```
pub fn render_figure(script: &str, opts: &Options) -> Result<Figure> {
    Ok(render_value(script, opts)?.1)
}

/// [`render_figure`], also returning the drawn value (the page explains hovered cells
/// from it without evaluating the script again).
///
/// ```
/// use cute_render::{render_value, Options, View};
/// let (v, f) = render_value("(4,8):(8,1)", &Options::default()).unwrap();
/// assert_eq!(v.to_string(), "(4,8):(8,1)");
/// assert_eq!(f.view, View::Layout);
/// ```
pub fn render_value(script: &str, opts: &Options) -> Result<(Value, Figure)> {
    let e = evaluate(script);
    let d = e.drawn.as_ref().map_err(Clone::clone)?;
    let fig = e.draw_in(d, opts)?;
    Ok((d.value.clone(), fig))
}

/// Evaluate `script` and draw its value as an SVG document; the view is `opts.view` or the
/// one the value implies.
///
/// ```
/// use cute_render::{render_svg, Options, Theme};
/// let svg = render_svg("(4,8):(8,1)", &Options::default(), Theme::Light).unwrap();
/// assert!(svg.starts_with("<svg"));
/// assert_eq!(svg.matches("class=\"cell\"").count(), 32);
/// ```
pub fn render_svg(script: &str, opts: &Options, theme: Theme) -> Result<String> {
    Ok(render_figure(script, opts)?.to_svg(theme))
}

/// Evaluate `script` and write its value as CuTe C++'s `print_latex` prints it (TikZ;
/// [`latex::latex`]).
///
/// ```
/// let tex = cute_render::render_latex("A = (2,4):(4,1)\nA").unwrap();
/// assert!(tex.starts_with("% Layout: (2,4):(4,1)\n"));
/// ```
#[cfg(feature = "full")]
pub fn render_latex(script: &str) -> Result<String> {
    latex::latex(&eval_for_drawing(script)?)
}

pub use cute_lang::print_one;

/// Evaluate a script into `out`, one line per statement with a value or an error
/// ([`cute_lang::print_script`]): `render --print TEXT` and `render --print -` alike.
///
/// ```
/// let mut out = Vec::new();
/// let p = cute_render::print_script("A = 8:1\nsize(A)\nfoo(1)\n", &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap().lines().next(), Some("8"));
/// assert_eq!((p.lines, p.failed), (2, 1));
/// // What C++ host code left out (launch code, a host function's parameters) is noted.
/// let p = cute_render::print_script("dim3 grid(8);", &mut Vec::new()).unwrap();
/// assert_eq!(p.notes, ["line 1: left out `dim3 grid(8)`: launch code"]);
/// ```
pub fn print_script(src: &str, out: &mut impl Write) -> io::Result<Printed> {
    let (lines, notes) = cute_lang::session::print_script_notes(src);
    let mut p = Printed {
        notes: notes
            .iter()
            .map(|n| format!("line {}: {}", n.line, n.text))
            .collect(),
        ..Printed::default()
    };
    for (line, ok) in lines {
        p.failed += usize::from(!ok);
        p.lines += 1;
        writeln!(out, "{line}")?;
    }
    Ok(p)
}

/// What [`print_script`] wrote: how many lines, how many of them errors, and what the
/// block's host code left out (`line N: ...`; the CLI writes these to stderr).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Printed {
    /// Lines written (one per statement with a value or an error).
    pub lines: usize,
    /// Lines that are errors.
    pub failed: usize,
    /// What the host code left out, one note a line.
    pub notes: Vec<String>,
}

/// Rasterise an SVG document (from [`render_svg`]) to PNG bytes at `scale` × its size,
/// with the system's fonts (DejaVu Sans Mono on Debian).
///
/// ```
/// use cute_render::{render_svg, svg_to_png, Options, Theme};
/// let svg = render_svg("(2,2):(1,2)", &Options::default(), Theme::Light).unwrap();
/// let png = svg_to_png(&svg, 1.0).unwrap();
/// assert_eq!(&png[1..4], b"PNG");
/// ```
#[cfg(feature = "png")]
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>> {
    use resvg::{tiny_skia, usvg};
    let mut opt = usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    if opt.fontdb.is_empty() {
        return Err(Error::new(
            "no fonts found for PNG text: install a font package (Debian: fonts-dejavu-core)",
        ));
    }
    opt.font_family = "DejaVu Sans Mono".into();
    let tree = usvg::Tree::from_str(svg, &opt)
        .map_err(|e| cute_core::err!("the SVG does not parse: {e}"))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(|| cute_core::err!("cannot scale the picture by {scale}"))?;
    // 16384^2 RGBA is 1 GiB: refuse rather than exhaust memory.
    if u64::from(size.width()) * u64::from(size.height()) > 12_000 * 12_000 {
        return Err(cute_core::err!(
            "the picture is {}x{} pixels, too large for PNG (draw it as SVG)",
            size.width(),
            size.height()
        ));
    }
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| Error::new("cannot allocate the PNG canvas"))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| cute_core::err!("PNG encoding failed: {e}"))
}
