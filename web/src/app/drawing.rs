//! The drawing: what is drawn and how it is shown, in one place. [`Drawing`] holds the
//! drawing's elements (the SVG's div, the fills and label canvases), its geometry and the
//! inspector's state; its methods draw a figure (one `innerHTML` write of the renderer's
//! SVG), size it to the zoom, paint big figures' fills and labels ([`super::labels`]'s
//! canvas helpers) and answer hover and click ([`super::inspector`]'s cell readers). The
//! stage's components call it; nothing it calls calls back.

use super::dom::{now, window};
use super::inspector::{cell_data, hit_data, outline_cell, Inspection};
use super::labels::{context_2d, fit};
use super::Shared;
use crate::inspect::Context;
use crate::page::{opening_zoom, printed_lines, visible_cells, LEGIBLE_CELL_PX, WHOLE_CELLS};
use crate::state::{Cause, Mode, Pin};

/// The text size of a table figure at 100% (the page's body text).
const TABLE_FONT_PX: f64 = 14.0;
use cute_render::grid::{Detail, PanelBox};
use cute_render::{Options, Theme, View};
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What the stage's parts share: the drawing's elements and geometry, the inspector, the
/// messages.
#[derive(Clone, Copy)]
pub(super) struct Drawing {
    pub shared: Shared,
    /// The scrolling div the SVG is written into.
    pub canvas: NodeRef<html::Div>,
    /// The canvas over it that big figures' labels are painted on.
    pub layer: NodeRef<html::Canvas>,
    /// The canvas under it that lazy grids' fills are painted on (through the hole the
    /// renderer leaves in the SVG's background).
    pub fills: NodeRef<html::Canvas>,
    /// Each lazy panel's fills, one pixel a cell: (panel index, bitmap).
    pub bitmaps: StoredValue<Vec<(usize, web_sys::HtmlCanvasElement)>, LocalStorage>,
    /// The SVG's width and height at zoom 1.
    pub natural: StoredValue<(f64, f64)>,
    /// Where each panel's cells lie, for the labels and outlines of figures drawn as fills
    /// (empty for figures drawn whole).
    pub boxes: StoredValue<Vec<PanelBox>>,
    /// A label repaint is waiting for the next frame.
    pub labels_queued: StoredValue<bool>,
    pub inspector: Inspection,
    view_note: RwSignal<Option<String>>,
    draw_error: RwSignal<Option<String>>,
    /// The last drawing's time (ms) and its parts.
    status: RwSignal<(f64, String)>,
    /// The zoom that shows the whole figure, when the stage shows only part of it.
    part: RwSignal<Option<f64>>,
    /// What was last drawn: expression, options, theme.
    drawn: StoredValue<Option<(String, Options, Theme)>>,
}

impl Drawing {
    pub fn new(shared: Shared) -> Drawing {
        Drawing {
            shared,
            canvas: NodeRef::new(),
            layer: NodeRef::new(),
            fills: NodeRef::new(),
            bitmaps: StoredValue::new_local(Vec::new()),
            natural: StoredValue::new((0.0, 0.0)),
            boxes: StoredValue::new(Vec::new()),
            labels_queued: StoredValue::new(false),
            inspector: Inspection::new(),
            view_note: RwSignal::new(None),
            draw_error: RwSignal::new(None),
            status: RwSignal::new((0.0, String::new())),
            part: RwSignal::new(None),
            drawn: StoredValue::new(None),
        }
    }

    /// Why the figure is drawn in another view than asked, if it is.
    pub fn view_note(self) -> ReadSignal<Option<String>> {
        self.view_note.read_only()
    }

    /// Why the expression could not be drawn (the figure on screen is stale), if so.
    pub fn draw_error(self) -> ReadSignal<Option<String>> {
        self.draw_error.read_only()
    }

    /// The last drawing's timings.
    pub fn status(self) -> ReadSignal<(f64, String)> {
        self.status.read_only()
    }

    /// The zoom that would show the whole figure, while only part of it is in view.
    pub fn part(self) -> ReadSignal<Option<f64>> {
        self.part.read_only()
    }

    /// A view the drawing could not keep: a preset's suggestion follows the value (the
    /// figure is already the automatic view's, so the redraw this state change asks for
    /// finds it drawn); a view chosen in the menu stays, and the note says why not.
    fn follow_or_note(self, expr: &str, opts: &Options, th: Theme, note: Option<String>) {
        if note.is_some() && !self.shared.view_chosen.get_value() {
            let auto = Options {
                view: View::Auto,
                ..opts.clone()
            };
            self.drawn.set_value(Some((expr.to_string(), auto, th)));
            self.shared.cause.set_value(Cause::Follow);
            self.shared.state.update(|s| s.opts.view = View::Auto);
            self.view_note.set(None);
        } else {
            self.view_note.set(note);
        }
    }

    /// Evaluate `expr` once, print its lines, draw its figure (or show why not).
    pub fn draw(self, expr: String, ctx: String, opts: Options, th: Theme) {
        // The effects that call this may fire more than once for one change (at mount
        // they do): draw each (expression, tabs, options, theme) once.
        let key = (format!("{expr}\u{0}{ctx}"), opts, th);
        if self.drawn.with_value(|k| k.as_ref() == Some(&key)) {
            return;
        }
        // A pin belongs to the expression it was made on (a shared link's first drawing
        // included); a new expression releases it.
        let new_expr = self
            .drawn
            .with_value(|k| k.as_ref().is_some_and(|k| k.0 != key.0));
        self.drawn.set_value(Some(key.clone()));
        let (_, opts, th) = key;
        let t0 = now();
        let (evaluated, against) = self.evaluate(&expr);
        let t1 = now();
        let drawn = match against {
            Err(e) => Err(e),
            Ok(Some(against)) => compare_figure(&evaluated, &against, &opts),
            Ok(None) => evaluated.figure(&opts),
        };
        self.shared.explanation.set(match &drawn {
            Ok((_, f, _)) if f.view == View::Algebra => evaluated.explanation(),
            _ => None,
        });
        match drawn {
            Ok((value, fig, note)) => {
                self.shared.latex_ok.set(cute_render::latex::draws(&value));
                self.shared.value.set_value(Some(value.clone()));
                self.follow_or_note(&expr, &opts, th, note);
                let width = evaluated.element_width();
                let bits = width.as_ref().map_or(opts.elem_bits, |w| w.0);
                self.inspector.context.set_value(Context::of(&value, bits));
                self.shared.elem_fixed.set(width);
                self.show(fig, th, new_expr, (t0, t1));
            }
            Err(e) => self.show_error(&e),
        }
        super::dom::drop_first_picture();
    }

    /// Evaluate `expr` with the other tabs' values it names and print its lines; with the
    /// tab it is compared with, if the compare mode is on (an error where a tab's value is).
    fn evaluate(self, expr: &str) -> (cute_render::Evaluated, cute_core::Result<Option<Against>>) {
        let (bindings, compared, open, names) = self.shared.state.with_untracked(|s| {
            (
                s.tab_bindings(),
                s.compared(),
                s.tabs.active_name(),
                s.tabs.names(),
            )
        });
        let evaluated = cute_render::evaluate_with(expr, bindings.as_deref().unwrap_or(&[]));
        let (lines, first) = printed_lines(expr, &evaluated.lines, evaluated.notes());
        self.shared.printed.set(lines);
        self.shared.line_error.set(first);
        let against = match (bindings, compared) {
            (Err(e), _) | (_, Some(Err(e))) => Err(cute_core::Error::new(e)),
            (Ok(_), Some(Ok((name, other)))) => {
                let at = |t: &str| names.iter().position(|n| n == t);
                Ok(Some(Against {
                    other_first: at(&name) < at(&open),
                    open,
                    name,
                    other,
                }))
            }
            (Ok(_), None) => Ok(None),
        };
        (evaluated, against)
    }

    /// Put a drawn figure on the page: the SVG (or the table of a figure of sentences),
    /// its canvas fills above the cap, the zoom, the labels, the pin and the status line
    /// (the times since `t0` and `t1`: the start, and the end of the evaluation).
    fn show(self, fig: cute_render::Figure, th: Theme, new_expr: bool, (t0, t1): (f64, f64)) {
        let t2 = now();
        let big = fig.cell_text && fig.cell_count() > WHOLE_CELLS;
        let svg = fig.to_svg_with(th, if big { Detail::Fills } else { Detail::Full });
        let t3 = now();
        let (w, h) = fig.size();
        let size = (w as f64, h as f64);
        // A figure of another size is a new picture: it opens fitted, scrolled to its
        // corner (the first one too, unless the URL gave a zoom).
        let first = self.natural.get_value() == (0.0, 0.0);
        let reshaped = self.natural.get_value() != size
            && !(first && self.shared.state.with_untracked(|s| s.zoom != 1.0));
        self.natural.set_value(size);
        if let Some(div) = self.canvas.get_untracked() {
            // A figure of sentences (the kernel report) reads as a table that wraps; the
            // SVG stays the export.
            match fig.to_html_table() {
                Some(html) => div.set_inner_html(&html),
                None => div.set_inner_html(&svg),
            }
            let _ = div.class_list().remove_1("stale");
        }
        let b = if big { fig.panel_boxes() } else { Vec::new() };
        self.boxes.set_value(b);
        let tb = now();
        self.bitmaps
            .set_value(self.boxes.with_value(|b| bitmaps(&fig, b)));
        let fills_ms = now() - tb;
        self.shared.export_blocked.set(export_refusal(&fig));
        self.shared.answers.set(fig.notes.clone());
        self.shared.figure.set_value(Some(fig));
        if reshaped {
            if let Some(div) = self.canvas.get_untracked() {
                div.set_scroll_left(0);
                div.set_scroll_top(0);
            }
            self.open_fitted();
        }
        self.apply_zoom();
        let tl = now();
        self.paint_labels();
        let labels_ms = now() - tl;
        self.draw_error.set(None);
        self.inspector.clear();
        if let Some(pin) = self.shared.state.with_untracked(|s| s.pin.clone()) {
            if new_expr {
                self.set_pin(None);
            } else {
                self.restore_pin(&pin);
            }
        }
        let t4 = now();
        let mut status = format!(
            "evaluate {:.1} ms · figure {:.1} ms · SVG {:.1} ms · DOM {:.1} ms",
            t1 - t0,
            t2 - t1,
            t3 - t2,
            t4 - t3 - fills_ms - labels_ms
        );
        if !self.boxes.with_value(Vec::is_empty) {
            status += &format!(" · canvas {:.1} ms", fills_ms + labels_ms);
        }
        self.status.set((t4 - t0, status));
    }
}

/// The tab the open one is compared with: its name and value, and whether it comes
/// first (it is then A).
struct Against {
    open: String,
    name: String,
    other: cute_lang::Value,
    other_first: bool,
}

/// The compare mode's drawing: `functionally_equal` of the open tab's value and the
/// other tab's, in the compare view.
fn compare_figure(
    evaluated: &cute_render::Evaluated,
    against: &Against,
    opts: &Options,
) -> cute_core::Result<(cute_lang::Value, cute_render::Figure, Option<String>)> {
    let (value, title) = evaluated.drawn_value()?;
    let Against {
        open,
        name,
        other,
        other_first,
    } = against;
    // A is the tab that comes first, so that with tabs A and B the panels and the verdict's
    // A and B are the tabs of those names, whichever is open.
    let this = (format!("tab {open} (open)"), &value, title);
    let that = (format!("tab {name}"), other, format!("tab {name}"));
    let (a, b) = if *other_first {
        (that, this)
    } else {
        (this, that)
    };
    let c = cute_lang::functionally_equal(a.1, b.1)?;
    let opts = Options {
        view: View::Compare,
        ..opts.clone()
    };
    let mut fig =
        cute_render::views::figure(&format!("functionally_equal({}, {})", a.2, b.2), &c, &opts)?;
    for (p, _) in &mut fig.panels {
        let side = if p.id == "A" { &a.0 } else { &b.0 };
        p.label = p.label.replacen(&p.id.clone(), side, 1);
    }
    Ok((c, fig, None))
}

impl Drawing {
    /// A value that cannot be drawn: the error, and the figure on screen kept but dimmed.
    fn show_error(self, e: &cute_core::Error) {
        // The figure on screen stays (dimmed) but must not pass for this text's.
        let last = self
            .shared
            .figure
            .with_value(|f| f.as_ref().map(|f| f.title.clone()));
        self.draw_error.set(Some(match last {
            Some(t) => {
                format!("{e}\nNot drawn: the picture below is the last good value, {t}")
            }
            None => e.to_string(),
        }));
        self.shared.export_blocked.set(None);
        self.shared.elem_fixed.set(None);
        self.shared.answers.set(Vec::new());
        if let Some(div) = self.canvas.get_untracked() {
            let _ = div.class_list().add_1("stale");
        }
        self.status.set((0.0, String::new()));
    }

    /// A new figure opens whole if it can at a legible zoom ([`crate::page::LEGIBLE_ZOOM`] or more, 100%
    /// at most); a tall one (a descriptor over its operand block) at its width, scrolling
    /// down; a bigger one at the legible zoom from its corner, and the zoom bar says that
    /// only part of it is in view (fit shows it whole).
    fn open_fitted(self) {
        if self.text_figure().is_some() {
            // A table wraps to the stage at its natural size.
            self.set_zoom(1.0);
            return;
        }
        if let Some(room) = self.stage_size() {
            self.set_zoom(opening_zoom(self.natural.get_value(), room));
        }
    }

    /// Zoom so the whole drawing fits the stage, both ways (the fit button): small ones
    /// grow, big ones shrink.
    pub fn fit(self) {
        if self.text_figure().is_some() {
            self.set_zoom(1.0);
        } else if let Some(z) = self.whole_zoom() {
            self.set_zoom(z);
        }
    }

    /// Set the state's zoom (kept in range and as the URL writes it), if it changes.
    pub fn set_zoom(self, z: f64) {
        let z = crate::state::zoom_of(z);
        if self.shared.state.with_untracked(|s| s.zoom) != z {
            self.shared.state.update(|s| s.zoom = z);
        }
    }

    /// The room the stage gives the drawing (CSS px), if it is laid out: its width, and the
    /// height it grows to before it scrolls (its `max-height`; it is only as tall as its
    /// drawing below that).
    fn stage_size(self) -> Option<(f64, f64)> {
        let div = self.canvas.get_untracked()?;
        let max_h = window()
            .get_computed_style(&div)
            .ok()
            .flatten()
            .and_then(|st| st.get_property_value("max-height").ok())
            .and_then(|v| v.strip_suffix("px").and_then(|n| n.parse::<f64>().ok()))
            .map_or(f64::from(div.client_height()), |h| h - 2.0);
        let (w, h) = (f64::from(div.client_width()) - 8.0, max_h - 8.0);
        (w > 0.0 && h > 0.0).then_some((w, h))
    }

    /// The zoom at which the whole drawing fits the stage, both ways (any size: fit's).
    fn whole_zoom(self) -> Option<f64> {
        let (w, h) = self.natural.get_value();
        let (aw, ah) = self.stage_size()?;
        (w > 0.0 && h > 0.0).then(|| (aw / w).min(ah / h))
    }

    /// Size the SVG to its natural size times the state's zoom.
    pub fn apply_zoom(self) {
        let Some(svg) = self
            .canvas
            .get_untracked()
            .and_then(|div| div.first_element_child())
        else {
            return;
        };
        let (w, h) = self.natural.get_value();
        let z = self.shared.state.with_untracked(|s| s.zoom);
        match svg.dyn_into::<web_sys::SvgElement>() {
            Ok(svg) => {
                let st = svg.style();
                let _ = st.set_property("width", &format!("{:.0}px", w * z));
                let _ = st.set_property("height", &format!("{:.0}px", h * z));
                // Whether the stage shows it all (a 1px margin for rounding).
                let part = self.stage_size().and_then(|(aw, ah)| {
                    (w * z > aw + 1.0 || h * z > ah + 1.0)
                        .then(|| crate::state::zoom_of((aw / w).min(ah / h)))
                });
                if self.part.get_untracked() != part {
                    self.part.set(part);
                }
            }
            // A table's zoom is its text size; it wraps to the stage whatever the zoom.
            Err(el) => {
                if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                    let _ = el
                        .style()
                        .set_property("font-size", &format!("{:.1}px", TABLE_FONT_PX * z));
                }
            }
        }
    }

    /// The drawn figure's element when it is a table of text (the kernel report).
    fn text_figure(self) -> Option<web_sys::Element> {
        let el = self.canvas.get_untracked()?.first_element_child()?;
        el.class_list().contains("text-figure").then_some(el)
    }
}

impl Drawing {
    /// Paint the lazy grids' fills and the labels of the cells in view. Cheap (a bitmap
    /// blit, ~1 µs a label), so redone whole.
    pub fn paint_labels(self) {
        let t0 = now();
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
        let theme = self.shared.theme.get_untracked();
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
                        ctx.set_fill_style_str(l.ink(theme));
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
        let _ = layer.set_attribute("data-ms", &format!("{:.2}", now() - t0));
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

impl Drawing {
    /// The pointer entered a cell of a figure drawn whole.
    pub fn hover(self, e: &web_sys::MouseEvent) {
        if self.inspector.pinned.get_untracked() {
            return;
        }
        if let Some((_, data)) = cell_data(e.target()) {
            self.inspector.show(&data);
        }
    }

    /// The pointer moved over a big figure's hit rectangle.
    pub fn hover_hit(self, e: &web_sys::MouseEvent) {
        if self.inspector.pinned.get_untracked() {
            return;
        }
        if let Some((data, (panel, row, col))) = self.shared.figure.with_value(|f| hit_data(e, f)) {
            self.boxes
                .with_value(|b| outline_cell(&panel, "focus", row, col, b));
            self.inspector.show(&data);
        }
    }

    /// A cell that opens another expression (a search row: its candidate's bank check)
    /// makes it the page's, a committed edit. Whether the cell did.
    fn open(self, data: &[(String, String)]) -> bool {
        let Some((_, call)) = data.iter().find(|(k, _)| k == "open") else {
            return false;
        };
        self.shared.view_chosen.set_value(false);
        self.shared.cause.set_value(Cause::Commit);
        self.shared.state.update(|s| {
            s.expr = call.clone();
            s.opts.view = View::Auto;
            s.mode = Mode::Editor;
        });
        true
    }

    /// The pinned cell goes into the URL (a shared link opens with it pinned).
    fn set_pin(self, pin: Option<Pin>) {
        if self.shared.state.with_untracked(|s| s.pin != pin) {
            self.shared.state.update(|s| s.pin = pin);
        }
    }

    /// Pin the cell of a new drawing that the URL names, if the figure has it.
    fn restore_pin(self, pin: &Pin) {
        let Pin { panel, row, col } = pin;
        let Some(data) = self
            .shared
            .figure
            .with_value(|f| f.as_ref()?.cell_data_at(panel, *row, *col))
        else {
            self.set_pin(None);
            return;
        };
        if let Some(el) = self.canvas.get_untracked().and_then(|div| {
            div.query_selector(&format!("#panel-{panel}"))
                .ok()
                .flatten()
        }) {
            if self.boxes.with_value(Vec::is_empty) {
                let cell = format!(".cell[data-row=\"{row}\"][data-col=\"{col}\"]");
                if let Ok(Some(c)) = el.query_selector(&cell) {
                    let _ = c.class_list().add_1("pinned");
                }
            } else {
                self.boxes
                    .with_value(|b| outline_cell(&el, "pin", *row, *col, b));
            }
        }
        let mut rows = vec![("panel".to_string(), panel.clone())];
        rows.extend(data);
        self.inspector.show(&rows);
        self.inspector.pinned.set(true);
    }

    /// A click (not the end of a pan): pin the cell under it, or release the pin.
    pub fn click(self, e: &web_sys::MouseEvent) {
        if let Some((data, (panel, row, col))) = self.shared.figure.with_value(|f| hit_data(e, f)) {
            if self.open(&data) {
                return;
            }
            self.boxes
                .with_value(|b| outline_cell(&panel, "pin", row, col, b));
            self.inspector.show(&data);
            self.inspector.pinned.set(true);
            self.set_pin(pin_of(&data, Some((row, col))));
            return;
        }
        if let Some(div) = self.canvas.get_untracked() {
            if let Ok(list) = div.query_selector_all(".cell.pinned, rect.pin") {
                for i in 0..list.length() {
                    if let Some(el) = list
                        .item(i)
                        .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
                    {
                        let _ = el.class_list().remove_1("pinned");
                        if el.class_list().contains("pin") {
                            let _ = el.set_attribute("visibility", "hidden");
                        }
                    }
                }
            }
        }
        match cell_data(e.target()) {
            Some((_, data)) if self.open(&data) => {}
            Some((cell, data)) => {
                let _ = cell.class_list().add_1("pinned");
                self.inspector.show(&data);
                self.inspector.pinned.set(true);
                self.set_pin(pin_of(&data, None));
            }
            None => {
                self.inspector.pinned.set(false);
                self.set_pin(None);
            }
        }
    }
}

/// The pin of a cell's data (its panel, and its row and column: given, or its own).
fn pin_of(data: &[(String, String)], at: Option<(usize, usize)>) -> Option<Pin> {
    let get = |k: &str| {
        data.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    let (row, col) = match at {
        Some(rc) => rc,
        None => (get("row")?.parse().ok()?, get("col")?.parse().ok()?),
    };
    Some(Pin {
        panel: get("panel")?.to_string(),
        row,
        col,
    })
}

/// A bitmap (one pixel a cell) of each lazy panel's fills, for [`Drawing::paint_labels`];
/// `boxes` are the figure's panel boxes (a lazy figure is always drawn as fills, so has them).
/// Why the export buttons refuse `fig`, if they do: a file holds up to the renderer's cap.
fn export_refusal(fig: &cute_render::Figure) -> Option<String> {
    let cap = cute_render::views::CELL_HARD_CAP;
    (fig.cell_count() > cap).then(|| {
        format!(
            "{} cells are too many for a file (export holds up to {cap})",
            fig.cell_count()
        )
    })
}

fn bitmaps(
    fig: &cute_render::Figure,
    boxes: &[PanelBox],
) -> Vec<(usize, web_sys::HtmlCanvasElement)> {
    let mut out = Vec::new();
    for b in boxes {
        let Some(px) = fig.pixels(b.index) else {
            continue;
        };
        let (w, h) = (b.cols as u32, b.rows as u32);
        let bitmap = window()
            .document()
            .and_then(|doc| doc.create_element("canvas").ok())
            .and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        let Some(bitmap) = bitmap else {
            continue;
        };
        bitmap.set_width(w);
        bitmap.set_height(h);
        let data =
            web_sys::ImageData::new_with_u8_clamped_array_and_sh(wasm_bindgen::Clamped(&px), w, h);
        if let (Ok(data), Some(ctx)) = (data, context_2d(&bitmap)) {
            let _ = ctx.put_image_data(&data, 0.0, 0.0);
            out.push((b.index, bitmap));
        }
    }
    out
}
