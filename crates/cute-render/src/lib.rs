//! # cute-render
//!
//! The one renderer of CuTe Layout Explorer, used by the `render` CLI and the web page.
//!
//! Map of the crate:
//! - text mode: [`print_script`] and [`print_one`], what `render --print` prints;
//! - [`views`]: core values turned into figures — layout, swizzle, TV, MMA, copy, bank,
//!   swizzle-search and algebra views ([`views::figure_with_call`]);
//! - [`grid`]: the single SVG writer ([`grid::Figure::to_svg`]), with `data-*` attributes
//!   on every cell for the page's hover inspector;
//! - [`render_svg`]: expression text in, SVG document out ([`render_figure`]: the figure
//!   before it is written).

pub mod grid;
pub mod views;

pub use grid::{Figure, Theme};
pub use views::{Highlight, Options, Palette, View};

use cute_core::expr::Call;
use cute_core::{Error, Result, Session, Value};
use std::io::{self, Write};

/// The value a script draws: the result of its last evaluated line.
///
/// ```
/// let v = cute_render::eval_for_drawing("A = (4,8):(1,4)\ncoalesce(A)").unwrap();
/// assert_eq!(v.to_string(), "32:1");
/// ```
pub fn eval_for_drawing(script: &str) -> Result<Value> {
    Ok(eval_script(script, View::Layout)?.value)
}

/// The value a script draws and, where `view` may need it (the algebra view, or the auto
/// view of a layout), the top-level call of the line that computed it.
struct Drawn {
    value: Value,
    call: Option<Call>,
    /// The drawn statement as one line (a multi-line statement's whitespace collapsed).
    title: String,
}

fn eval_script(script: &str, view: View) -> Result<Drawn> {
    let mut session = Session::default();
    session.track_operands();
    // A pasted block: the first error stops the drawing; the last value is drawn, a
    // binding's included (`using SmemLayout = decltype(...);`).
    if let Some(bad) = session.run(script).into_iter().find(|l| l.result.is_err()) {
        return Err(bad.result.expect_err("an error"));
    }
    let value = session
        .last_value()
        .cloned()
        .ok_or_else(|| Error::new("nothing to draw: the expression is empty"))?;
    let want_call = match view {
        View::Algebra => true,
        View::Auto => matches!(value, Value::Layout(_)),
        _ => false,
    };
    let call = if want_call {
        session.last_call_operands()
    } else {
        None
    };
    let title = session
        .last_statement()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    Ok(Drawn { value, call, title })
}

/// Evaluate `script` and build the figure of its value: the view is `opts.view` or the one
/// the value (and, for the algebra view, the drawn line's call) implies.
///
/// ```
/// use cute_render::{render_figure, Options};
/// let f = render_figure("A = (4,8):(8,1)\ncomposition(A, (2,4):(4,1))", &Options::default()).unwrap();
/// assert_eq!(f.view, "algebra");
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
/// use cute_render::{render_value, Options};
/// let (v, f) = render_value("(4,8):(8,1)", &Options::default()).unwrap();
/// assert_eq!(v.to_string(), "(4,8):(8,1)");
/// assert_eq!(f.view, "layout");
/// ```
pub fn render_value(script: &str, opts: &Options) -> Result<(Value, Figure)> {
    let d = eval_script(script, opts.view)?;
    let fig = views::figure_with_call(&d.title, &d.value, d.call.as_ref(), opts)?;
    Ok((d.value, fig))
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

pub use cute_core::print_one;

/// Evaluate a script into `out`, one line per statement with a value or an error
/// ([`cute_core::print_script`]); returns the number of failed lines.
///
/// ```
/// let mut out = Vec::new();
/// let failed = cute_render::print_script("A = 8:1\nsize(A)\nfoo(1)\n", &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap().lines().next(), Some("8"));
/// assert_eq!(failed, 1);
/// ```
pub fn print_script(src: &str, out: &mut impl Write) -> io::Result<usize> {
    let mut failed = 0;
    for (line, ok) in cute_core::print_script(src) {
        failed += usize::from(!ok);
        writeln!(out, "{line}")?;
    }
    Ok(failed)
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
        .map_err(|e| Error::new(format!("the SVG does not parse: {e}")))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(|| Error::new(format!("cannot scale the picture by {scale}")))?;
    // 16384^2 RGBA is 1 GiB: refuse rather than exhaust memory.
    if u64::from(size.width()) * u64::from(size.height()) > 12_000 * 12_000 {
        return Err(Error::new(format!(
            "the picture is {}x{} pixels, too large for PNG (draw it as SVG)",
            size.width(),
            size.height()
        )));
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
        .map_err(|e| Error::new(format!("PNG encoding failed: {e}")))
}
