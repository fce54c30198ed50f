//! The label layer: big figures are drawn as fills, and the labels of the cells in view
//! are painted on a canvas above them, on drawing, zoom, scroll and resize.

use super::dom::window;
use super::stage::Drawing;
use crate::page::{visible_cells, LEGIBLE_CELL_PX};
use leptos::prelude::*;
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
fn fit(
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

impl Drawing {
    /// Paint the lazy grids' fills and the labels of the cells in view. Cheap (a bitmap
    /// blit, ~1 µs a label), so redone whole.
    pub fn paint_labels(self) {
        let t0 = super::dom::now();
        self.labels_queued.set_value(false);
        let (Some(layer), Some(fills), Some(div)) = (
            self.layer.get_untracked(),
            self.fills.get_untracked(),
            self.canvas.get_untracked(),
        ) else {
            return;
        };
        let dpr = window().device_pixel_ratio().max(1.0);
        let (cw, ch) = (
            f64::from(div.client_width()),
            f64::from(div.client_height()),
        );
        let Some(ctx) = fit(&layer, cw, ch, dpr) else {
            return;
        };
        let _ = layer.set_attribute("data-labels", "0");
        let lazy = self.bitmaps.with_value(|b| !b.is_empty());
        let fctx = if lazy {
            fit(&fills, cw, ch, dpr)
        } else {
            // Nothing to paint: keep the layer at one pixel rather than a screenful.
            fit(&fills, 1.0, 1.0, 1.0)
        };
        if self.boxes.with_value(Vec::is_empty) {
            return;
        }
        let Some(svg) = div.first_element_child() else {
            return;
        };
        let (cr, sr) = (
            div.get_bounding_client_rect(),
            svg.get_bounding_client_rect(),
        );
        let (w, _) = self.natural.get_value();
        let z = if w > 0.0 { sr.width() / w } else { 0.0 };
        if z <= 0.0 {
            return;
        }
        // The drawing's origin in the layer (CSS px), and the part of it in view (SVG units).
        let ox = sr.left() - cr.left() - f64::from(div.client_left());
        let oy = sr.top() - cr.top() - f64::from(div.client_top());
        let view = (-ox / z, -oy / z, (cw - ox) / z, (ch - oy) / z);
        if let (true, Some(fctx)) = (lazy, fctx) {
            let _ = fctx.set_transform(dpr * z, 0.0, 0.0, dpr * z, dpr * ox, dpr * oy);
            let painted = self.paint_fills(&fctx, view, z * dpr);
            // Which cells' fills are painted, for tests and the curious.
            let _ = fills.set_attribute("data-ranges", &painted.join(" "));
        }
        let _ = ctx.set_transform(dpr * z, 0.0, 0.0, dpr * z, dpr * ox, dpr * oy);
        ctx.set_font(&format!("11px {}", cute_render::grid::FONT));
        ctx.set_text_align("center");
        ctx.set_text_baseline("middle");
        let d = f64::from(cute_render::grid::LINE_OFFSET);
        let mut count = 0usize;
        let mut ranges = Vec::new();
        self.shared.figure.with_value(|f| {
            let Some(f) = f else {
                return;
            };
            self.boxes.with_value(|bs| {
                for b in bs.iter().filter(|b| b.cell_h as f64 * z >= LEGIBLE_CELL_PX) {
                    let (rows, cols) = visible_cells(b, view);
                    ranges.push(format!(
                        "{}:{}-{},{}-{}",
                        b.id, rows.start, rows.end, cols.start, cols.end
                    ));
                    for l in f.labels(b, rows, cols) {
                        ctx.set_fill_style_str(l.fill);
                        ctx.set_global_alpha(if l.dim { 0.22 } else { 1.0 });
                        let (x, y) = (l.x as f64, l.y as f64);
                        match l.second {
                            None => {
                                let _ = ctx.fill_text(&l.text, x, y);
                            }
                            Some(second) => {
                                let _ = ctx.fill_text(&l.text, x, y - d);
                                let _ = ctx.fill_text(&second, x, y + d);
                            }
                        }
                        count += 1;
                    }
                }
            });
        });
        ctx.set_global_alpha(1.0);
        if lazy {
            self.paint_headers(&ctx, view, z);
        }
        // What is painted, for tests and the curious: label count and cell ranges.
        let _ = layer.set_attribute("data-labels", &count.to_string());
        let _ = layer.set_attribute("data-ranges", &ranges.join(" "));
        // The repaint's cost (the benchmark's pan and zoom frames read it).
        let _ = layer.set_attribute("data-ms", &format!("{:.2}", super::dom::now() - t0));
    }

    /// Each lazy panel's bitmap over the cells in view, one cell a `cell_w` x `cell_h`
    /// block; sharp where a cell covers a device pixel or more, averaged where it does not.
    fn paint_fills(
        self,
        ctx: &web_sys::CanvasRenderingContext2d,
        view: (f64, f64, f64, f64),
        px_per_unit: f64,
    ) -> Vec<String> {
        let mut painted = Vec::new();
        self.bitmaps.with_value(|bitmaps| {
            self.boxes.with_value(|boxes| {
                for (index, bitmap) in bitmaps {
                    let Some(b) = boxes.iter().find(|b| b.index == *index) else {
                        continue;
                    };
                    let (rows, cols) = visible_cells(b, view);
                    if rows.is_empty() || cols.is_empty() {
                        continue;
                    }
                    painted.push(format!(
                        "{}:{}-{},{}-{}",
                        b.id, rows.start, rows.end, cols.start, cols.end
                    ));
                    ctx.set_image_smoothing_enabled(b.cell_w.min(b.cell_h) as f64 * px_per_unit < 1.0);
                    let (cw, ch) = (b.cell_w as f64, b.cell_h as f64);
                    let _ = ctx
                        .draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
                            bitmap,
                            cols.start as f64,
                            rows.start as f64,
                            cols.len() as f64,
                            rows.len() as f64,
                            b.x as f64 + cols.start as f64 * cw,
                            b.y as f64 + rows.start as f64 * ch,
                            cols.len() as f64 * cw,
                            rows.len() as f64 * ch,
                        );
                }
            });
        });
        painted
    }

    /// A lazy grid's row and column headers in view (its drawing leaves them out): every
    /// one where a cell is legible, every 2^k-th where it is not.
    fn paint_headers(
        self,
        ctx: &web_sys::CanvasRenderingContext2d,
        view: (f64, f64, f64, f64),
        z: f64,
    ) {
        ctx.set_font(&format!("10px {}", cute_render::grid::FONT));
        ctx.set_fill_style_str(self.shared.theme.get_untracked().muted());
        ctx.set_text_baseline("alphabetic");
        let f = self.shared.figure;
        f.with_value(|f| {
            let Some(f) = f else {
                return;
            };
            self.bitmaps.with_value(|bitmaps| {
                self.boxes.with_value(|boxes| {
                    for b in boxes
                        .iter()
                        .filter(|b| bitmaps.iter().any(|(i, _)| *i == b.index))
                    {
                        let (rows, cols) = visible_cells(b, view);
                        let on_screen = (b.cell_h.min(b.cell_w) as f64 * z).max(1e-9);
                        let step =
                            ((LEGIBLE_CELL_PX / on_screen).ceil() as usize).next_power_of_two();
                        for h in f.headers(b, rows, cols, step) {
                            ctx.set_text_align(if h.end { "end" } else { "center" });
                            let _ = ctx.fill_text(h.text, h.x as f64, h.y as f64);
                        }
                    }
                });
            });
        });
    }

    /// At most one label repaint per frame, however many scroll events arrive.
    pub fn queue_labels(self) {
        if self.labels_queued.get_value() || self.boxes.with_value(Vec::is_empty) {
            return;
        }
        self.labels_queued.set_value(true);
        request_animation_frame(move || self.paint_labels());
    }
}
