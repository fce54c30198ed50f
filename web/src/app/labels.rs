//! The canvases of the label layer: big figures are drawn as fills, and the labels of the
//! cells in view are painted on a canvas above them ([`super::drawing::Drawing::paint_labels`],
//! on drawing, zoom, scroll and resize). Here: getting a canvas's context and sizing a layer.

use wasm_bindgen::JsCast;

/// A canvas's 2D context.
pub(super) fn context_2d(
    canvas: &web_sys::HtmlCanvasElement,
) -> Option<web_sys::CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
}

/// Size a layer to the drawing's visible box (`w` x `h` CSS px at `dpr`) and clear it.
pub(super) fn fit(
    layer: &web_sys::HtmlCanvasElement,
    w: f64,
    h: f64,
    dpr: f64,
) -> Option<web_sys::CanvasRenderingContext2d> {
    let (pw, ph) = ((w * dpr).round() as u32, (h * dpr).round() as u32);
    if layer.width() != pw || layer.height() != ph {
        layer.set_width(pw);
        layer.set_height(ph);
        let st = web_sys::HtmlElement::style(layer);
        let _ = st.set_property("width", &format!("{w}px"));
        let _ = st.set_property("height", &format!("{h}px"));
    }
    let ctx = context_2d(layer)?;
    ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
    ctx.clear_rect(0.0, 0.0, f64::from(pw), f64::from(ph));
    Some(ctx)
}
