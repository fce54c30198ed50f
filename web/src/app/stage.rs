//! The stage: the drawing (one `innerHTML` write of the renderer's SVG per change), its
//! zoom and pan, the label layer of big figures, the inspector.

use super::dom::now;
use super::inspector::{Inspection, Inspector};
use super::Shared;
use crate::inspect::Context;
use crate::page::{printed_lines, WHOLE_CELLS};
use crate::state::{State, ZOOM_MAX, ZOOM_MIN};
use cute_render::grid::{Detail, PanelBox};
use cute_render::{Options, Theme};
use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use std::time::Duration;
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
    status: RwSignal<String>,
    /// What was last drawn: expression, options, theme.
    drawn: StoredValue<Option<(String, Options, Theme)>>,
}

impl Drawing {
    fn new() -> Drawing {
        Drawing {
            shared: Shared::get(),
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
            status: RwSignal::new(String::new()),
            drawn: StoredValue::new(None),
        }
    }

    /// Evaluate `expr` once, print its lines, draw its figure (or show why not).
    fn draw(self, expr: String, opts: Options, th: Theme) {
        // The effects that call this may fire more than once for one change (at mount
        // they do): draw each (expression, options, theme) once.
        let key = (expr, opts, th);
        if self.drawn.with_value(|k| k.as_ref() == Some(&key)) {
            return;
        }
        self.drawn.set_value(Some(key.clone()));
        let (expr, opts, _) = key;
        let Shared {
            printed,
            line_error,
            figure,
            ..
        } = self.shared;
        let t0 = now();
        let evaluated = cute_render::evaluate(&expr);
        let (lines, first) = printed_lines(&expr, &evaluated.lines);
        printed.set(lines);
        line_error.set(first);
        let t1 = now();
        match evaluated.figure(&opts) {
            Ok((value, fig, note)) => {
                self.view_note.set(note);
                let t2 = now();
                let big = fig.cell_text && fig.cell_count() > WHOLE_CELLS;
                let svg = fig.to_svg_with(th, if big { Detail::Fills } else { Detail::Full });
                let t3 = now();
                self.inspector
                    .context
                    .set_value(Context::of(&value, opts.elem_bits));
                let (w, h) = fig.size();
                self.natural.set_value((w as f64, h as f64));
                if let Some(div) = self.canvas.get_untracked() {
                    div.set_inner_html(&svg);
                    let _ = div.class_list().remove_1("stale");
                }
                let b = if big { fig.panel_boxes() } else { Vec::new() };
                self.boxes.set_value(b);
                let tb = now();
                self.bitmaps
                    .set_value(self.boxes.with_value(|b| bitmaps(&fig, b)));
                let fills_ms = now() - tb;
                let too_big = fig.cell_count() > cute_render::views::CELL_HARD_CAP;
                self.shared.export_blocked.set(too_big.then(|| {
                    format!(
                        "{} cells are too many for a file (export holds up to {})",
                        fig.cell_count(),
                        cute_render::views::CELL_HARD_CAP
                    )
                }));
                figure.set_value(Some(fig));
                self.apply_zoom();
                let tl = now();
                self.paint_labels();
                let labels_ms = now() - tl;
                self.draw_error.set(None);
                self.inspector.clear();
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
                self.status.set(status);
            }
            Err(e) => {
                self.draw_error.set(Some(e.to_string()));
                self.shared.export_blocked.set(None);
                if let Some(div) = self.canvas.get_untracked() {
                    let _ = div.class_list().add_1("stale");
                }
                self.status.set(String::new());
            }
        }
    }

    /// Size the SVG to its natural size times the state's zoom.
    fn apply_zoom(self) {
        let Some(svg) = self
            .canvas
            .get_untracked()
            .and_then(|div| div.first_element_child())
        else {
            return;
        };
        let (w, h) = self.natural.get_value();
        let z = self.shared.state.with_untracked(|s| s.zoom);
        if let Ok(svg) = svg.dyn_into::<web_sys::SvgElement>() {
            let st = svg.style();
            let _ = st.set_property("width", &format!("{:.0}px", w * z));
            let _ = st.set_property("height", &format!("{:.0}px", h * z));
        }
    }
}

#[component]
pub(super) fn Stage() -> impl IntoView {
    let d = Drawing::new();
    let Shared { state, theme, .. } = d.shared;
    // What the drawing depends on; zoom, mode and the form's own fields are not part of it.
    let render_key = Memo::new(move |_| state.with(|s| (s.expr.clone(), s.options())));
    let scheduled = StoredValue::new(false);
    let draw = move || {
        scheduled.set_value(false);
        let (expr, opts) = render_key.get_untracked();
        d.draw(expr, opts, theme.get_untracked());
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
        d.apply_zoom();
        d.queue_labels();
    });
    let _ = window_event_listener(ev::resize, move |_| d.queue_labels());

    view! {
        <section class="stage">
            <ZoomBar d=d/>
            <Show when=move || d.view_note.with(|e| e.is_some())>
                <p class="view-note" id="view-note">{move || d.view_note.get().unwrap_or_default()}</p>
            </Show>
            <Show when=move || d.draw_error.with(|e| e.is_some())>
                <p class="draw-error" id="draw-error" role="alert">
                    {move || d.draw_error.get().unwrap_or_default()}
                </p>
            </Show>
            <div class="canvas-wrap">
                <canvas class="fills-layer" id="fills-layer" node_ref=d.fills aria-hidden="true"></canvas>
                <Canvas d=d/>
                <canvas class="label-layer" id="label-layer" node_ref=d.layer aria-hidden="true"></canvas>
            </div>
            <Inspector insp=d.inspector/>
        </section>
    }
}

/// A bitmap (one pixel a cell) of each lazy panel's fills, for [`Drawing::paint_labels`];
/// `boxes` are the figure's panel boxes (a lazy figure is always drawn as fills, so has them).
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
        let bitmap = super::dom::window()
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
        if let (Ok(data), Some(ctx)) = (data, super::labels::context_2d(&bitmap)) {
            let _ = ctx.put_image_data(&data, 0.0, 0.0);
            out.push((b.index, bitmap));
        }
    }
    out
}

/// The distance between two fingers on the screen (CSS px), if exactly two touch it.
fn finger_distance(e: &web_sys::TouchEvent) -> Option<f64> {
    let t = e.touches();
    if t.length() != 2 {
        return None;
    }
    let (a, b) = (t.get(0)?, t.get(1)?);
    Some(f64::from(a.client_x() - b.client_x()).hypot(f64::from(a.client_y() - b.client_y())))
}

/// Set the zoom, kept within [`ZOOM_MIN`]..=[`ZOOM_MAX`].
fn set_zoom(state: RwSignal<State>, z: f64) {
    state.update(|s| s.zoom = z.clamp(ZOOM_MIN, ZOOM_MAX));
}

/// Zoom buttons, the zoom level and the drawing's timings.
#[component]
fn ZoomBar(d: Drawing) -> impl IntoView {
    let state = d.shared.state;
    let zoom_by = move |f: f64| set_zoom(state, state.with_untracked(|s| s.zoom) * f);
    let fit = move |_| {
        let (w, _) = d.natural.get_value();
        if let Some(div) = d.canvas.get_untracked() {
            let avail = f64::from(div.client_width()) - 8.0;
            if w > 0.0 && avail > 0.0 {
                set_zoom(state, avail / w);
            }
        }
    };
    view! {
        <div class="zoombar">
            <button id="zoom-out" title="zoom out (ctrl + wheel)" on:click=move |_| zoom_by(1.0 / 1.25)>"−"</button>
            <span id="zoom-level">{move || format!("{:.0}%", state.with(|s| s.zoom) * 100.0)}</span>
            <button id="zoom-in" title="zoom in (ctrl + wheel)" on:click=move |_| zoom_by(1.25)>"+"</button>
            <button id="zoom-fit" on:click=fit>"fit"</button>
            <button id="zoom-reset" on:click=move |_| set_zoom(state, 1.0)>"100%"</button>
            <span class="status" id="status">{move || d.status.get()}</span>
        </div>
    }
}

/// The drawing's div: hover and click inspect, drag pans, ctrl + wheel zooms, scrolling
/// repaints the labels in view.
#[component]
fn Canvas(d: Drawing) -> impl IntoView {
    let state = d.shared.state;
    // Where a drag started (pointer x, y, scroll left, top), and whether it has moved far
    // enough to be a pan rather than a click.
    let drag = StoredValue::new(None::<(i32, i32, i32, i32)>);
    let dragged = StoredValue::new(false);
    let on_click = move |e: ev::MouseEvent| {
        if !dragged.get_value() {
            d.click(&e);
        }
    };
    let on_down = move |e: ev::PointerEvent| {
        dragged.set_value(false);
        // Fingers pan natively (touch-action) and pinch below; the mouse drags.
        if e.button() != 0 || e.pointer_type() == "touch" {
            return;
        }
        if let Some(div) = d.canvas.get_untracked() {
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
            if let Some(div) = d.canvas.get_untracked() {
                div.set_scroll_left(l - dx);
                div.set_scroll_top(t - dy);
            }
        }
    };
    // Two fingers pinch-zoom: the zoom follows the distance between them. One finger
    // pans natively (CSS touch-action), which pinching does not compete with.
    let pinch = StoredValue::new(None::<(f64, f64)>);
    let on_touch_start = move |e: ev::TouchEvent| {
        if let Some(d) = finger_distance(&e) {
            pinch.set_value(Some((d.max(1.0), state.with_untracked(|s| s.zoom))));
        }
    };
    let on_touch_move = move |e: ev::TouchEvent| {
        if let (Some((d0, z0)), Some(d)) = (pinch.get_value(), finger_distance(&e)) {
            e.prevent_default();
            set_zoom(state, z0 * d / d0);
        }
    };
    let on_touch_end = move |e: ev::TouchEvent| {
        if e.touches().length() < 2 {
            pinch.set_value(None);
        }
    };
    // The drawing is a focusable region: arrows scroll it (the browser's own), + and -
    // zoom, 0 resets.
    let on_key = move |e: ev::KeyboardEvent| {
        let z = state.with_untracked(|s| s.zoom);
        let to = match e.key().as_str() {
            "+" | "=" => z * 1.25,
            "-" | "_" => z / 1.25,
            "0" => 1.0,
            _ => return,
        };
        e.prevent_default();
        set_zoom(state, to);
    };
    let on_wheel = move |e: ev::WheelEvent| {
        if e.ctrl_key() || e.meta_key() {
            e.prevent_default();
            let z = state.with_untracked(|s| s.zoom);
            set_zoom(state, z * if e.delta_y() < 0.0 { 1.1 } else { 1.0 / 1.1 });
        }
    };
    view! {
        <div
            class="canvas"
            id="canvas"
            node_ref=d.canvas
            tabindex="0"
            role="region"
            aria-label="drawing: arrow keys scroll, + and - zoom, 0 resets"
            on:keydown=on_key
            on:mouseover=move |e| d.hover(&e)
            on:mousemove=move |e| d.hover_hit(&e)
            on:click=on_click
            on:pointerdown=on_down
            on:pointermove=on_move
            on:pointerup=move |_| drag.set_value(None)
            on:wheel=on_wheel
            on:touchstart=on_touch_start
            on:touchmove=on_touch_move
            on:touchend=on_touch_end
            on:touchcancel=on_touch_end
            on:scroll=move |_| d.queue_labels()
        ></div>
    }
}
