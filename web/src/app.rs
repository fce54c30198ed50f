//! The page: Leptos components and the little DOM glue the renderer's SVG needs.
//!
//! Flow: state (URL) → core (evaluate) → renderer (SVG string) → one `innerHTML` write.
//! Hover and click never re-render the drawing: one delegated listener on the canvas reads
//! the renderer's `data-*` attributes and fills the inspector.

use crate::form::{self, Kind};
use crate::inspect::{self, Context, Row};
use crate::presets::PRESETS;
use crate::state::{self, Mode, State, ThemeChoice, ZOOM_MAX, ZOOM_MIN};
use cute_render::grid::{Detail, PanelBox};
use cute_render::{Highlight, Palette, Theme};
use leptos::ev;
use leptos::prelude::*;
use std::ops::Range;
use std::time::Duration;
use wasm_bindgen::{JsCast, JsValue};

/// One printed line of the script: source line, text, whether it failed.
#[derive(Clone, Debug, PartialEq)]
pub struct Printed {
    line: usize,
    text: String,
    error: Option<(Option<usize>, String)>,
}

/// The first error of a script, for the editor: line, column, message, source line.
#[derive(Clone, Debug, PartialEq)]
pub struct LineError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, when the error has one.
    pub col: Option<usize>,
    /// What is wrong.
    pub msg: String,
    /// The source line.
    pub src: String,
}

/// The results pane's lines and the editor's first error, from the one evaluation of the
/// script ([`cute_render::evaluate`]).
fn printed_lines(
    script: &str,
    lines: &[cute_core::ScriptLine],
) -> (Vec<Printed>, Option<LineError>) {
    let src: Vec<&str> = script.lines().collect();
    let mut first = None;
    let printed = lines
        .iter()
        .map(|l| {
            let error = l.result.as_ref().err().map(|e| (e.col, e.msg.clone()));
            if let (None, Some((col, msg))) = (&first, &error) {
                first = Some(LineError {
                    line: l.line,
                    col: *col,
                    msg: msg.clone(),
                    src: src.get(l.line - 1).unwrap_or(&"").to_string(),
                });
            }
            Printed {
                line: l.line,
                text: cute_core::format_result(&l.result),
                error,
            }
        })
        .collect();
    (printed, first)
}

/// Figures with more cells than this are drawn as fills, their labels painted only where
/// they are on screen and legible ([`Detail::Fills`]); smaller ones whole, one element per
/// cell (cheap at this size, and each cell carries its own `data-*`).
const WHOLE_CELLS: usize = 128;

/// Labels are painted once a cell is at least this tall on screen (px): 11px text at a
/// zoom of 1/2 or more.
const LEGIBLE_CELL_PX: f64 = 12.0;

/// The cells of `b` within the visible rectangle `view` (SVG units: x0, y0, x1, y1).
fn visible_cells(b: &PanelBox, view: (f64, f64, f64, f64)) -> (Range<usize>, Range<usize>) {
    let span = |lo: f64, hi: f64, origin: usize, cell: usize, n: usize| {
        let cell = cell.max(1) as f64;
        let a = ((lo - origin as f64) / cell).floor().clamp(0.0, n as f64) as usize;
        let z = ((hi - origin as f64) / cell).ceil().clamp(0.0, n as f64) as usize;
        a..z.max(a)
    };
    (
        span(view.1, view.3, b.y, b.cell_h, b.rows),
        span(view.0, view.2, b.x, b.cell_w, b.cols),
    )
}

fn window() -> web_sys::Window {
    web_sys::window().expect("a browser window")
}

fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

fn prefers_dark() -> bool {
    window()
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// `width="…"`/`height="…"` of the root `<svg …>` tag.
fn natural_size(svg: &str) -> (f64, f64) {
    let head = &svg[..svg.find('>').unwrap_or(0)];
    let attr = |name: &str| {
        head.split(name)
            .nth(1)
            .and_then(|r| r.split('"').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0)
    };
    (attr(" width=\""), attr(" height=\""))
}

/// The renderer's `data-*` attributes of the cell under `target`, with its panel's id.
fn cell_data(
    target: Option<web_sys::EventTarget>,
) -> Option<(web_sys::Element, Vec<(String, String)>)> {
    let el: web_sys::Element = target?.dyn_into().ok()?;
    let cell = el.closest(".cell").ok()??;
    let mut data = Vec::new();
    if let Some(panel) = cell.closest(".panel").ok().flatten() {
        if let Some(p) = panel.get_attribute("data-panel") {
            data.push(("panel".to_string(), p));
        }
    }
    for name in cell.get_attribute_names().iter() {
        let Some(name) = name.as_string() else {
            continue;
        };
        if let Some(key) = name.strip_prefix("data-") {
            data.push((
                key.to_string(),
                cell.get_attribute(&name).unwrap_or_default(),
            ));
        }
    }
    Some((cell, data))
}

/// The cell under the pointer in a big figure, where cells are paths without attributes:
/// the panel's transparent hit rectangle gives row and column, the figure the attributes.
/// Also the panel's element, row and column, for the outline that marks the cell.
#[allow(clippy::type_complexity)]
fn hit_data(
    e: &web_sys::MouseEvent,
    fig: &Option<cute_render::Figure>,
) -> Option<(Vec<(String, String)>, (web_sys::Element, usize, usize))> {
    let el: web_sys::Element = e.target()?.dyn_into().ok()?;
    if !el.class_list().contains("hit") {
        return None;
    }
    let panel = el.closest(".panel").ok()??;
    let id = panel.get_attribute("data-panel")?;
    let rows: f64 = panel.get_attribute("data-rows")?.parse().ok()?;
    let cols: f64 = panel.get_attribute("data-cols")?.parse().ok()?;
    let r = el.get_bounding_client_rect();
    let fx = (f64::from(e.client_x()) - r.left()) / r.width();
    let fy = (f64::from(e.client_y()) - r.top()) / r.height();
    let (col, row) = ((fx * cols).floor(), (fy * rows).floor());
    if !(0.0..cols).contains(&col) || !(0.0..rows).contains(&row) {
        return None;
    }
    let (row, col) = (row as usize, col as usize);
    let mut data = vec![("panel".to_string(), id.clone())];
    data.extend(fig.as_ref()?.cell_data_at(&id, row, col)?);
    Some((data, (panel, row, col)))
}

/// Show the panel's `rect.{class}` outline (drawn hidden by the renderer) over one cell.
fn outline_cell(panel: &web_sys::Element, class: &str, row: usize, col: usize, boxes: &[PanelBox]) {
    // One outline of each kind in the whole figure.
    if let Some(Ok(all)) = panel
        .closest("svg")
        .ok()
        .flatten()
        .map(|svg| svg.query_selector_all(&format!("rect.{class}")))
    {
        for i in 0..all.length() {
            if let Some(el) = all
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                let _ = el.set_attribute("visibility", "hidden");
            }
        }
    }
    let id = panel.get_attribute("data-panel").unwrap_or_default();
    let (Some(b), Ok(Some(rect))) = (
        boxes.iter().find(|b| b.id == id),
        panel.query_selector(&format!("rect.{class}")),
    ) else {
        return;
    };
    let _ = rect.set_attribute("x", &(b.x + col * b.cell_w).to_string());
    let _ = rect.set_attribute("y", &(b.y + row * b.cell_h).to_string());
    let _ = rect.set_attribute("visibility", "visible");
}

/// Offer `bytes` as a download named `name`.
fn download(bytes: &JsValue, mime: &str, name: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(bytes);
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_blob_sequence_and_options(&parts, &opts)?;
    download_blob(&blob, name)
}

fn download_blob(blob: &web_sys::Blob, name: &str) -> Result<(), JsValue> {
    let url = web_sys::Url::create_object_url_with_blob(blob)?;
    let doc = window().document().ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a")?.dyn_into()?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // The click has started the download; the URL may go once the event loop turns.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        Duration::from_secs(1),
    );
    Ok(())
}

/// Rasterise `svg` in the browser (its own fonts) and download it as PNG, at 2x where the
/// canvas allows (browsers cap canvases near 16k px a side / 268 M px).
fn export_png(svg: &str, name: String) -> Result<(), JsValue> {
    let (w, h) = natural_size(svg);
    let scale = (2.0f64)
        .min((120_000_000.0 / (w * h).max(1.0)).sqrt())
        .min(16_000.0 / w.max(h).max(1.0));
    let (cw, ch) = ((w * scale).round().max(1.0), (h * scale).round().max(1.0));
    let doc = window().document().ok_or("no document")?;
    let canvas: web_sys::HtmlCanvasElement = doc.create_element("canvas")?.dyn_into()?;
    canvas.set_width(cw as u32);
    canvas.set_height(ch as u32);
    let parts = js_sys::Array::of1(&JsValue::from_str(svg));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type("image/svg+xml");
    let blob = web_sys::Blob::new_with_blob_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let img = web_sys::HtmlImageElement::new()?;
    let img2 = img.clone();
    let url2 = url.clone();
    let onload = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url2);
        let ctx = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok());
        if let Some(ctx) = ctx {
            let _ = ctx.draw_image_with_html_image_element_and_dw_and_dh(&img2, 0.0, 0.0, cw, ch);
            let done =
                wasm_bindgen::closure::Closure::once_into_js(move |blob: Option<web_sys::Blob>| {
                    if let Some(b) = blob {
                        let _ = download_blob(&b, &name);
                    }
                });
            let _ = canvas.to_blob(done.unchecked_ref());
        }
    });
    img.set_onload(Some(onload.unchecked_ref()));
    img.set_src(&url);
    Ok(())
}

/// A file name for exports from the drawn expression: `cute-<view>.svg`.
fn export_name(view: &str, ext: &str) -> String {
    format!("cute-{view}.{ext}")
}

/// Mount the page into `<body>`, state from the page's URL, kept in the URL as it changes.
pub fn start() {
    console_error_panic_hook::set_once();
    let query = window().location().search().unwrap_or_default();
    leptos::mount::mount_to_body(move || view! { <App query=query sync_url=true/> });
}

/// The whole page. `query` is the initial URL query; with `sync_url` every change is
/// written back with `history.replaceState`.
#[component]
pub fn App(#[prop(into)] query: String, sync_url: bool) -> impl IntoView {
    let (init, init_notes) = State::from_query(&query);
    let state = RwSignal::new(init);
    let notices = RwSignal::new(init_notes);
    let system_dark = RwSignal::new(prefers_dark());
    if let Ok(Some(mq)) = window().match_media("(prefers-color-scheme: dark)") {
        let cb = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(
            move |e: web_sys::MediaQueryListEvent| system_dark.set(e.matches()),
        );
        let _ = mq.add_event_listener_with_callback("change", cb.as_ref().unchecked_ref());
        cb.forget(); // lives as long as the page
    }

    let printed = RwSignal::new(Vec::<Printed>::new());
    let line_error = RwSignal::new(None::<LineError>);
    let draw_error = RwSignal::new(None::<String>);
    let status = RwSignal::new(String::new());
    let view_note = RwSignal::new(None::<String>);
    let natural = RwSignal::new((0.0f64, 0.0f64));
    let inspector = RwSignal::new(Vec::<Row>::new());
    let pinned = RwSignal::new(false);
    let copied = RwSignal::new(false);
    // Where each panel's cells lie, for the labels and outlines of figures drawn as fills
    // (empty for figures drawn whole).
    let boxes = StoredValue::new(Vec::<PanelBox>::new());
    let label_layer = NodeRef::<leptos::html::Canvas>::new();
    let drawn_key = StoredValue::new(None::<(String, cute_render::Options, Theme)>);
    let labels_queued = StoredValue::new(false);
    let context = StoredValue::new(Context::default());
    let figure = StoredValue::new(None::<cute_render::Figure>);
    let scheduled = StoredValue::new(false);
    let canvas = NodeRef::<leptos::html::Div>::new();

    let theme = Memo::new(move |_| state.with(|s| s.theme).resolve(system_dark.get()));
    // What the drawing depends on; zoom, mode and the form's own fields are not part of it.
    let render_key = Memo::new(move |_| state.with(|s| (s.expr.clone(), s.options())));

    let apply_zoom = move || {
        let Some(div) = canvas.get_untracked() else {
            return;
        };
        let Some(svg) = div.first_element_child() else {
            return;
        };
        let (w, h) = natural.get_untracked();
        let z = state.with_untracked(|s| s.zoom);
        if let Ok(svg) = svg.dyn_into::<web_sys::SvgElement>() {
            let st = svg.style();
            let _ = st.set_property("width", &format!("{:.0}px", w * z));
            let _ = st.set_property("height", &format!("{:.0}px", h * z));
        }
    };

    // Paint the labels of the cells in view (big figures only) on the canvas above the
    // drawing: on drawing, zoom and scroll. Cheap (~1 µs a label), so it is redone whole.
    let update_labels = move || {
        labels_queued.set_value(false);
        let (Some(layer), Some(div)) = (label_layer.get_untracked(), canvas.get_untracked()) else {
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
        if boxes.with_value(Vec::is_empty) {
            return;
        }
        let Some(svg) = div.first_element_child() else {
            return;
        };
        let (cr, sr) = (
            div.get_bounding_client_rect(),
            svg.get_bounding_client_rect(),
        );
        let (w, _) = natural.get_untracked();
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
        figure.with_value(|f| {
            let Some(f) = f else {
                return;
            };
            boxes.with_value(|bs| {
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
                                let _ = ctx.fill_text(l.text, x, y);
                            }
                            Some(second) => {
                                let _ = ctx.fill_text(l.text, x, y - d);
                                let _ = ctx.fill_text(second, x, y + d);
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
    };
    // At most one label update per frame, however many scroll events arrive.
    let queue_labels = move || {
        if labels_queued.get_value() || boxes.with_value(Vec::is_empty) {
            return;
        }
        labels_queued.set_value(true);
        request_animation_frame(update_labels);
    };

    let _ = window_event_listener(ev::resize, move |_| queue_labels());

    let draw = move || {
        scheduled.set_value(false);
        let (expr, opts) = render_key.get_untracked();
        let th = theme.get_untracked();
        // The effects below may fire more than once for one change (at mount they do):
        // draw each (expression, options, theme) once.
        let key = (expr.clone(), opts.clone(), th);
        if drawn_key.with_value(|k| k.as_ref() == Some(&key)) {
            return;
        }
        drawn_key.set_value(Some(key));
        let t0 = now();
        let evaluated = cute_render::evaluate(&expr);
        let (lines, first) = printed_lines(&expr, &evaluated.lines);
        printed.set(lines);
        line_error.set(first);
        let t1 = now();
        match evaluated.figure(&opts) {
            Ok((value, fig, note)) => {
                view_note.set(note);
                let t2 = now();
                let big = fig.cell_text && fig.cell_count() > WHOLE_CELLS;
                let svg = fig.to_svg_with(th, if big { Detail::Fills } else { Detail::Full });
                let t3 = now();
                context.set_value(Context::of(&value, opts.elem_bits));
                natural.set(natural_size(&svg));
                if let Some(div) = canvas.get_untracked() {
                    div.set_inner_html(&svg);
                    let _ = div.class_list().remove_1("stale");
                }
                let b = if big { fig.panel_boxes() } else { Vec::new() };
                boxes.set_value(b);
                figure.set_value(Some(fig));
                apply_zoom();
                update_labels();
                draw_error.set(None);
                inspector.set(Vec::new());
                pinned.set(false);
                let t4 = now();
                status.set(format!(
                    "evaluate {:.1} ms · figure {:.1} ms · SVG {:.1} ms · DOM {:.1} ms",
                    t1 - t0,
                    t2 - t1,
                    t3 - t2,
                    t4 - t3
                ));
            }
            Err(e) => {
                draw_error.set(Some(e.to_string()));
                if let Some(div) = canvas.get_untracked() {
                    let _ = div.class_list().add_1("stale");
                }
                status.set(String::new());
            }
        }
    };

    // Coalesce: edits that arrive while a big drawing is being made are drawn once, after.
    Effect::new(move |_| {
        render_key.track();
        theme.track();
        if !scheduled.get_value() {
            scheduled.set_value(true);
            set_timeout(draw, Duration::ZERO);
        }
    });
    Effect::new(move |_| {
        state.with(|s| s.zoom);
        apply_zoom();
        queue_labels();
    });
    Effect::new(move |_| {
        let q = state.with(|s| s.to_query());
        if sync_url {
            let loc = window().location();
            let path = loc.pathname().unwrap_or_default();
            if let Ok(h) = window().history() {
                let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&format!("{path}{q}")));
            }
        }
        copied.set(false);
    });
    Effect::new(move |_| {
        let dark = theme.get() == Theme::Dark;
        if let Some(root) = window().document().and_then(|d| d.document_element()) {
            let _ = root.set_attribute("data-theme", if dark { "dark" } else { "light" });
        }
    });

    // --- canvas interaction: hover, pin, pan, zoom -------------------------------------
    let drag = StoredValue::new(None::<(i32, i32, i32, i32)>);
    let dragged = StoredValue::new(false);
    let on_over = move |e: ev::MouseEvent| {
        if pinned.get_untracked() {
            return;
        }
        if let Some((_, data)) = cell_data(e.target()) {
            inspector.set(context.with_value(|c| inspect::rows(&data, c)));
        }
    };
    let on_hit_move = move |e: ev::MouseEvent| {
        if pinned.get_untracked() {
            return;
        }
        if let Some((data, (panel, row, col))) = figure.with_value(|f| hit_data(&e, f)) {
            boxes.with_value(|b| outline_cell(&panel, "focus", row, col, b));
            inspector.set(context.with_value(|c| inspect::rows(&data, c)));
        }
    };
    let on_click = move |e: ev::MouseEvent| {
        if dragged.get_value() {
            return;
        }
        if let Some((data, (panel, row, col))) = figure.with_value(|f| hit_data(&e, f)) {
            boxes.with_value(|b| outline_cell(&panel, "pin", row, col, b));
            inspector.set(context.with_value(|c| inspect::rows(&data, c)));
            pinned.set(true);
            return;
        }
        if let Some(div) = canvas.get_untracked() {
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
            Some((cell, data)) => {
                let _ = cell.class_list().add_1("pinned");
                inspector.set(context.with_value(|c| inspect::rows(&data, c)));
                pinned.set(true);
            }
            None => pinned.set(false),
        }
    };
    let on_down = move |e: ev::PointerEvent| {
        dragged.set_value(false);
        if e.button() != 0 {
            return;
        }
        if let Some(div) = canvas.get_untracked() {
            drag.set_value(Some((
                e.client_x(),
                e.client_y(),
                div.scroll_left(),
                div.scroll_top(),
            )));
        }
    };
    let on_move = move |e: ev::PointerEvent| {
        let Some((x, y, l, t)) = drag.get_value() else {
            return;
        };
        if e.buttons() & 1 == 0 {
            drag.set_value(None);
            return;
        }
        let (dx, dy) = (e.client_x() - x, e.client_y() - y);
        if dx.abs() + dy.abs() > 4 {
            dragged.set_value(true);
        }
        if dragged.get_value() {
            if let Some(div) = canvas.get_untracked() {
                div.set_scroll_left(l - dx);
                div.set_scroll_top(t - dy);
            }
        }
    };
    let on_up = move |_: ev::PointerEvent| drag.set_value(None);
    let set_zoom = move |z: f64| state.update(|s| s.zoom = z.clamp(ZOOM_MIN, ZOOM_MAX));
    let on_wheel = move |e: ev::WheelEvent| {
        if e.ctrl_key() || e.meta_key() {
            e.prevent_default();
            let z = state.with_untracked(|s| s.zoom);
            set_zoom(z * if e.delta_y() < 0.0 { 1.1 } else { 1.0 / 1.1 });
        }
    };
    let fit = move |_| {
        let (w, _) = natural.get_untracked();
        if let Some(div) = canvas.get_untracked() {
            let avail = f64::from(div.client_width()) - 8.0;
            if w > 0.0 && avail > 0.0 {
                set_zoom(avail / w);
            }
        }
    };

    // --- toolbar actions -----------------------------------------------------------------
    // Exports are the whole picture, every cell's text included, whatever the page paints.
    let whole_svg =
        move || figure.with_value(|f| f.as_ref().map(|f| f.to_svg(theme.get_untracked())));
    let export_svg = move |_| {
        let name = export_name(&state.with_untracked(|s| s.view.clone()), "svg");
        if let Some(svg) = whole_svg() {
            let _ = download(&JsValue::from_str(&svg), "image/svg+xml", &name);
        }
    };
    let export_png_click = move |_| {
        let name = export_name(&state.with_untracked(|s| s.view.clone()), "png");
        if let Some(svg) = whole_svg() {
            let _ = export_png(&svg, name);
        }
    };
    let copy_link = move |_| {
        let href = window().location().href().unwrap_or_default();
        let _ = window().navigator().clipboard().write_text(&href);
        copied.set(true);
    };
    let on_preset = move |e: ev::Event| {
        let v = event_target_value(&e);
        if let Some(p) = v.parse::<usize>().ok().and_then(|i| PRESETS.get(i)) {
            state.update(|s| {
                s.expr = p.expr.to_string();
                s.view = p.view.to_string();
                s.mode = Mode::Editor;
                s.highlight = None;
                s.bit_offset = None;
            });
        }
        if let Some(sel) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
        {
            sel.set_value("");
        }
    };

    let groups = {
        let mut g: Vec<&'static str> = Vec::new();
        for p in PRESETS {
            if !g.contains(&p.group) {
                g.push(p.group);
            }
        }
        g
    };

    view! {
        <div class="app">
            <header class="bar">
                <h1>"CuTe Layout Explorer"</h1>
                <div class="controls">
                    <label>
                        <span>"Preset"</span>
                        <select id="preset" on:change=on_preset>
                            <option value="" selected>"Choose…"</option>
                            {groups
                                .into_iter()
                                .map(|g| {
                                    view! {
                                        <optgroup label=g>
                                            {PRESETS
                                                .iter()
                                                .enumerate()
                                                .filter(|(_, p)| p.group == g)
                                                .map(|(i, p)| view! { <option value=i.to_string()>{p.label}</option> })
                                                .collect_view()}
                                        </optgroup>
                                    }
                                })
                                .collect_view()}
                        </select>
                    </label>
                    <label>
                        <span>"View"</span>
                        <select
                            id="view"
                            prop:value=move || state.with(|s| s.view.clone())
                            on:change=move |e| state.update(|s| s.view = event_target_value(&e))
                        >
                            {state::view_names()
                                .map(|n| view! { <option value=n>{n}</option> })
                                .collect_view()}
                        </select>
                    </label>
                    <label>
                        <span>"Colours"</span>
                        <select
                            id="palette"
                            prop:value=move || state.with(|s| s.palette.name())
                            on:change=move |e| {
                                if let Some(p) = Palette::parse(&event_target_value(&e)) {
                                    state.update(|s| s.palette = p)
                                }
                            }
                        >
                            <option value="cute">"CuTe"</option>
                            <option value="colorblind">"colour-blind safe"</option>
                        </select>
                    </label>
                    <label>
                        <span>"Theme"</span>
                        <select
                            id="theme"
                            prop:value=move || state.with(|s| s.theme.name())
                            on:change=move |e| {
                                if let Some(t) = ThemeChoice::parse(&event_target_value(&e)) {
                                    state.update(|s| s.theme = t)
                                }
                            }
                        >
                            <option value="auto">"system"</option>
                            <option value="light">"light"</option>
                            <option value="dark">"dark"</option>
                        </select>
                    </label>
                    <label title="element width used to colour offsets by bank">
                        <span>"Element"</span>
                        <select
                            id="bits"
                            prop:value=move || state.with(|s| s.bits.to_string())
                            on:change=move |e| {
                                if let Ok(b) = event_target_value(&e).parse() {
                                    state.update(|s| s.bits = b)
                                }
                            }
                        >
                            <option value="8">"8-bit"</option>
                            <option value="16">"16-bit"</option>
                            <option value="32">"32-bit"</option>
                            <option value="64">"64-bit"</option>
                            <option value="128">"128-bit"</option>
                        </select>
                    </label>
                    <button id="copy-link" on:click=copy_link>
                        {move || if copied.get() { "Link copied" } else { "Copy link" }}
                    </button>
                    <button id="export-svg" on:click=export_svg>"SVG"</button>
                    <button id="export-png" on:click=export_png_click>"PNG"</button>
                </div>
            </header>
            <Show when=move || !notices.with(|n| n.is_empty())>
                <ul class="notices" id="notices">
                    <For each=move || notices.get() key=|n| n.clone() let:n>
                        <li>{n}</li>
                    </For>
                    <li><button on:click=move |_| notices.set(Vec::new())>"dismiss"</button></li>
                </ul>
            </Show>
            <main class="main">
                <section class="side">
                    <div class="tabs" role="tablist">
                        <button
                            id="mode-editor"
                            role="tab"
                            class:active=move || state.with(|s| s.mode == Mode::Editor)
                            on:click=move |_| state.update(|s| s.mode = Mode::Editor)
                        >
                            "Expression"
                        </button>
                        <button
                            id="mode-form"
                            role="tab"
                            class:active=move || state.with(|s| s.mode == Mode::Form)
                            on:click=move |_| {
                                state.update(|s| {
                                    s.mode = Mode::Form;
                                    s.expr = s.form.to_expr();
                                    s.view = s.form.view().to_string();
                                })
                            }
                        >
                            "Form"
                        </button>
                    </div>
                    <Show
                        when=move || state.with(|s| s.mode == Mode::Form)
                        fallback=move || view! { <Editor state=state line_error=line_error/> }
                    >
                        <FormPane state=state/>
                        <pre class="form-expr" id="form-expr">{move || state.with(|s| s.expr.clone())}</pre>
                    </Show>
                    <details class="results" open>
                        <summary>"Results (as CuTe prints them)"</summary>
                        <ol id="results">
                            <For each=move || printed.get() key=|p| (p.line, p.text.clone()) let:p>
                                <li class:error=p.error.is_some() data-line=p.line>
                                    <span class="line-no">{p.line}</span>
                                    <code>{p.text.clone()}</code>
                                </li>
                            </For>
                        </ol>
                    </details>
                    <HighlightPane state=state/>
                </section>
                <section class="stage">
                    <div class="zoombar">
                        <button id="zoom-out" title="zoom out (ctrl + wheel)" on:click=move |_| set_zoom(state.with_untracked(|s| s.zoom) / 1.25)>"−"</button>
                        <span id="zoom-level">{move || format!("{:.0}%", state.with(|s| s.zoom) * 100.0)}</span>
                        <button id="zoom-in" title="zoom in (ctrl + wheel)" on:click=move |_| set_zoom(state.with_untracked(|s| s.zoom) * 1.25)>"+"</button>
                        <button id="zoom-fit" on:click=fit>"fit"</button>
                        <button id="zoom-reset" on:click=move |_| set_zoom(1.0)>"100%"</button>
                        <span class="status" id="status">{move || status.get()}</span>
                    </div>
                    <Show when=move || view_note.with(|e| e.is_some())>
                        <p class="view-note" id="view-note">{move || view_note.get().unwrap_or_default()}</p>
                    </Show>
                    <Show when=move || draw_error.with(|e| e.is_some())>
                        <p class="draw-error" id="draw-error" role="alert">
                            {move || draw_error.get().unwrap_or_default()}
                        </p>
                    </Show>
                    <div class="canvas-wrap">
                    <div
                        class="canvas"
                        id="canvas"
                        node_ref=canvas
                        on:mouseover=on_over
                        on:mousemove=on_hit_move
                        on:click=on_click
                        on:pointerdown=on_down
                        on:pointermove=on_move
                        on:pointerup=on_up
                        on:wheel=on_wheel
                        on:scroll=move |_| queue_labels()
                    ></div>
                    <canvas class="label-layer" id="label-layer" node_ref=label_layer aria-hidden="true"></canvas>
                    </div>
                    <aside class="inspector" id="inspector" aria-live="polite">
                        <div class="inspector-head">
                            {move || if pinned.get() { "Pinned cell (click elsewhere to release)" } else { "Hover a cell · click to pin" }}
                        </div>
                        <dl>
                            <For each=move || inspector.get() key=|r| r.clone() let:r>
                                <dt>{r.0.clone()}</dt>
                                <dd data-key=r.0.clone()>{r.1.clone()}</dd>
                            </For>
                        </dl>
                        <Show when=move || pinned.get() && inspector.with(|r| r.iter().any(|(k, _)| k == "thread"))>
                            <button id="highlight-pinned" on:click=move |_| {
                                let t = inspector.with_untracked(|r| r.iter().find(|(k, _)| k == "thread").and_then(|(_, v)| v.parse().ok()));
                                if let Some(t) = t {
                                    state.update(|s| s.highlight = Some(Highlight::Thread(t)));
                                }
                            }>"Highlight this thread"</button>
                        </Show>
                    </aside>
                </section>
            </main>
            <footer class="foot">
                "CuTe C++ semantics · the same renderer as the "
                <code>"render"</code>
                " CLI · everything is in the URL"
            </footer>
        </div>
    }
}

/// The expression editor with its first error pointed at by line and column.
#[component]
fn Editor(state: RwSignal<State>, line_error: RwSignal<Option<LineError>>) -> impl IntoView {
    view! {
        <label class="editor-label" for="editor">
            "CuTe expression or script (" <code>"NAME = expr"</code> " binds; the last line is drawn)"
        </label>
        <textarea
            id="editor"
            spellcheck="false"
            autocomplete="off"
            rows="6"
            prop:value=move || state.with(|s| s.expr.clone())
            on:input=move |e| {
                let v = event_target_value(&e);
                state.update(|s| s.expr = v)
            }
        ></textarea>
        <Show when=move || line_error.with(|e| e.is_some())>
            {move || {
                line_error
                    .get()
                    .map(|e| {
                        let caret = e.col.map(|c| format!("{}^", " ".repeat(c.saturating_sub(1))));
                        let place = match e.col {
                            Some(c) => format!("line {}, column {c}", e.line),
                            None => format!("line {}", e.line),
                        };
                        view! {
                            <div class="line-error" id="editor-error" role="alert" data-line=e.line data-col=e.col.unwrap_or(0)>
                                <div class="where">"error at " {place} ": " {e.msg.clone()}</div>
                                <pre>{e.src.clone()} {caret.map(|c| format!("\n{c}"))}</pre>
                            </div>
                        }
                    })
            }}
        </Show>
    }
}

/// Form mode: fields for the common cases; every change rewrites the expression.
#[component]
fn FormPane(state: RwSignal<State>) -> impl IntoView {
    let set = move |key: &'static str, v: String| {
        state.update(|s| {
            if s.form.set(key, &v).is_ok() {
                s.expr = s.form.to_expr();
                s.view = s.form.view().to_string();
                s.bits = s.form.bits();
            }
        })
    };
    let field = move |key: &'static str| {
        state.with(move |s| {
            s.form
                .params()
                .into_iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v)
                .unwrap_or_default()
        })
    };
    let kind = move || state.with(|s| s.form.kind);
    let text = move |key: &'static str, label: &'static str, hint: &'static str| {
        view! {
            <label class="field">
                <span>{label}</span>
                <input
                    type="text"
                    id=format!("f-{key}")
                    spellcheck="false"
                    placeholder=hint
                    prop:value=move || field(key)
                    on:input=move |e| set(key, event_target_value(&e))
                />
            </label>
        }
    };
    let slider = move |key: &'static str, label: &'static str, lo: i64, hi: i64| {
        view! {
            <label class="field slider">
                <span>{label} " = " {move || field(key)}</span>
                <input
                    type="range"
                    id=format!("f-{key}")
                    min=lo
                    max=hi
                    prop:value=move || field(key)
                    on:input=move |e| set(key, event_target_value(&e))
                />
            </label>
        }
    };
    view! {
        <div class="form" id="form">
            <label class="field">
                <span>"Build"</span>
                <select id="f-kind" prop:value=move || kind().name() on:change=move |e| set("kind", event_target_value(&e))>
                    {Kind::ALL.into_iter().map(|k| view! { <option value=k.name()>{k.label()}</option> }).collect_view()}
                </select>
            </label>
            <Show when=move || kind() != Kind::Tv>
                {text("shape", "Shape", "(8,64)")}
                {text("stride", "Stride (empty: column-major)", "(64,1)")}
                <fieldset class="swizzle">
                    <legend>{move || {
                        let (b, m, s) = state.with(|s| s.form.swizzle);
                        if b == 0 { "Swizzle: none (B = 0)".to_string() } else { format!("Swizzle Sw<{b},{m},{s}>") }
                    }}</legend>
                    {slider("B", "B (bits)", 0, 5)}
                    {slider("M", "M (base)", 0, 7)}
                    {slider("S", "S (shift)", -7, 7)}
                </fieldset>
                <label class="field">
                    <span>"Element type"</span>
                    <select id="f-elem" prop:value=move || field("elem") on:change=move |e| set("elem", event_target_value(&e))>
                        {form::ELEMENTS.iter().map(|(n, b)| view! { <option value=*n>{format!("{n} ({b}-bit)")}</option> }).collect_view()}
                    </select>
                </label>
            </Show>
            <Show when=move || kind() != Kind::Layout>
                {text("thr", "Thread layout (m,n) → thread", "(32,1):(1,0)")}
                {text("val", "Value layout (m,n) → value", "(1,8):(0,1)")}
            </Show>
            <Show when=move || matches!(kind(), Kind::Banks | Kind::Search)>
                <label class="field">
                    <span>"Instruction"</span>
                    <select id="f-instr" prop:value=move || field("instr") on:change=move |e| set("instr", event_target_value(&e))>
                        {form::instructions().iter().map(|n| view! { <option value=*n>{*n}</option> }).collect_view()}
                    </select>
                </label>
            </Show>
        </div>
    }
}

/// Highlight a thread or warp (TV, MMA and copy views) and pick the bank view's warp.
#[component]
fn HighlightPane(state: RwSignal<State>) -> impl IntoView {
    let value = move || match state.with(|s| s.highlight) {
        Some(Highlight::Thread(t)) => ("thread", t.to_string()),
        Some(Highlight::Warp(w)) => ("warp", w.to_string()),
        None => ("none", String::new()),
    };
    let set = move |kind: String, n: String| {
        let n = n
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|n| (0..1 << 20).contains(n));
        state.update(|s| {
            s.highlight = match (kind.as_str(), n) {
                ("thread", Some(n)) => Some(Highlight::Thread(n)),
                ("warp", Some(n)) => Some(Highlight::Warp(n)),
                _ => None,
            }
        })
    };
    view! {
        <fieldset class="highlight">
            <legend>"Highlight"</legend>
            <select id="hl-kind" prop:value=move || value().0 on:change=move |e| {
                let k = event_target_value(&e);
                let n = if value().1.is_empty() { "0".to_string() } else { value().1 };
                set(k, n)
            }>
                <option value="none">"nothing"</option>
                <option value="thread">"thread"</option>
                <option value="warp">"warp"</option>
            </select>
            <input type="number" id="hl-index" min="0" prop:value=move || value().1 on:input=move |e| set(value().0.to_string(), event_target_value(&e))/>
            <label title="the warp whose instructions the bank view draws">
                "bank view warp "
                <input type="number" id="bank-warp" min="0" prop:value=move || state.with(|s| s.warp.to_string()) on:input=move |e| {
                    if let Ok(w) = event_target_value(&e).parse::<u32>() {
                        if w < 1 << 16 { state.update(|s| s.warp = w) }
                    }
                }/>
            </label>
        </fieldset>
    }
}
