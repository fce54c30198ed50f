//! The label layer: big figures are drawn as fills, and the labels of the cells in view
//! are painted on a canvas above them, on drawing, zoom, scroll and resize.

use super::dom::window;
use super::stage::Drawing;
use crate::page::{visible_cells, LEGIBLE_CELL_PX};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

impl Drawing {
    /// Paint the labels of the cells in view. Cheap (~1 µs a label), so redone whole.
    pub fn paint_labels(self) {
        self.labels_queued.set_value(false);
        let (Some(layer), Some(div)) = (self.layer.get_untracked(), self.canvas.get_untracked())
        else {
            return;
        };
        let Some(ctx) = layer
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let dpr = window().device_pixel_ratio().max(1.0);
        let (cw, ch) = (
            f64::from(div.client_width()),
            f64::from(div.client_height()),
        );
        let (pw, ph) = ((cw * dpr).round() as u32, (ch * dpr).round() as u32);
        if layer.width() != pw || layer.height() != ph {
            layer.set_width(pw);
            layer.set_height(ph);
            let st = web_sys::HtmlElement::style(&layer);
            let _ = st.set_property("width", &format!("{cw}px"));
            let _ = st.set_property("height", &format!("{ch}px"));
        }
        ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
        ctx.clear_rect(0.0, 0.0, f64::from(pw), f64::from(ph));
        let _ = layer.set_attribute("data-labels", "0");
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
        // What is painted, for tests and the curious: label count and cell ranges.
        let _ = layer.set_attribute("data-labels", &count.to_string());
        let _ = layer.set_attribute("data-ranges", &ranges.join(" "));
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
