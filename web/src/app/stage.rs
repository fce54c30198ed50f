//! The stage's components: the drawing's div and layers, the zoom bar, the inspector box;
//! they call [`Drawing`], which owns what is drawn.

use super::drawing::Drawing;
use super::inspector::Inspector;
use super::Shared;
use leptos::ev;
use leptos::prelude::*;
use std::time::Duration;

#[component]
pub(super) fn Stage(shared: Shared) -> impl IntoView {
    let d = Drawing::new(shared);
    let Shared { state, theme, .. } = d.shared;
    // What the drawing depends on; zoom, mode and the form's own fields are not part of it.
    // The other tabs count too: the open one may name their values or be compared with one.
    let render_key =
        Memo::new(move |_| state.with(|s| (s.expr.clone(), s.tab_context(), s.options())));
    let scheduled = StoredValue::new(false);
    let draw = move || {
        scheduled.set_value(false);
        let (expr, ctx, opts) = render_key.get_untracked();
        d.draw(expr, ctx, opts, theme.get_untracked());
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
    // Zoom alone: an effect reading the whole state would repaint the labels after every
    // edit, on top of the drawing's own paint.
    let zoom = Memo::new(move |_| state.with(|s| s.zoom));
    Effect::new(move |_| {
        // Read, not only tracked: a memo nobody reads is never brought up to date.
        let _ = zoom.get();
        d.apply_zoom();
        d.queue_labels();
    });
    let _ = window_event_listener(ev::resize, move |_| d.queue_labels());

    view! {
        <section class="stage">
            <ZoomBar d=d/>
            <Show when=move || d.view_note().with(|e| e.is_some())>
                <p class="view-note" id="view-note">{move || d.view_note().get().unwrap_or_default()}</p>
            </Show>
            <Show when=move || d.draw_error().with(|e| e.is_some())>
                <p class="draw-error" id="draw-error" role="alert">
                    {move || d.draw_error().get().unwrap_or_default()}
                </p>
            </Show>
            <div class="canvas-wrap">
                <canvas class="fills-layer" id="fills-layer" node_ref=d.fills aria-hidden="true"></canvas>
                <Canvas d=d/>
                <canvas class="label-layer" id="label-layer" node_ref=d.layer aria-hidden="true"></canvas>
            </div>
            <Inspector insp=d.inspector state=state/>
            // Under the algebra view: the steps CuTe takes to the result.
            <Show when=move || d.shared.explanation.with(Option::is_some)>
                <details class="explain" id="explain">
                    <summary>"Explain: how CuTe computes it"</summary>
                    <pre id="explain-steps">{move || d.shared.explanation.get().unwrap_or_default().join("\n")}</pre>
                </details>
            </Show>
        </section>
    }
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

/// Zoom buttons, the zoom level and the drawing's timings.
#[component]
fn ZoomBar(d: Drawing) -> impl IntoView {
    let state = d.shared.state;
    let zoom_by = move |f: f64| d.set_zoom(state.with_untracked(|s| s.zoom) * f);
    let fit = move |_| d.fit();
    view! {
        <div class="zoombar">
            <button id="zoom-out" title="zoom out (ctrl + wheel)" on:click=move |_| zoom_by(1.0 / 1.25)>"−"</button>
            <span id="zoom-level">{move || format!("{:.0}%", state.with(|s| s.zoom) * 100.0)}</span>
            <button id="zoom-in" title="zoom in (ctrl + wheel)" on:click=move |_| zoom_by(1.25)>"+"</button>
            <button id="zoom-fit" on:click=fit>"fit"</button>
            <button id="zoom-reset" title="natural size (100%)" on:click=move |_| d.set_zoom(1.0)>"1:1"</button>
            // What is off-screen: a figure opened at a legible zoom may be bigger than the stage.
            <Show when=move || d.part().with(|p| p.is_some())>
                <span class="part" id="zoom-part">
                    {move || d.part().get().map(|z| format!("part in view: fit ({:.0}%) shows it whole", z * 100.0)).unwrap_or_default()}
                </span>
            </Show>
            // The time a user cares about; the parts (for developers) on hover.
            <span class="status" id="status" title=move || d.status().with(|s| s.1.clone())>
                {move || d.status().with(|(ms, _)| if *ms > 0.0 { format!("drawn in {ms:.0} ms") } else { String::new() })}
            </span>
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
        if let (Some((d0, z0)), Some(dist)) = (pinch.get_value(), finger_distance(&e)) {
            e.prevent_default();
            d.set_zoom(z0 * dist / d0);
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
        d.set_zoom(to);
    };
    let on_wheel = move |e: ev::WheelEvent| {
        if e.ctrl_key() || e.meta_key() {
            e.prevent_default();
            let z = state.with_untracked(|s| s.zoom);
            d.set_zoom(z * if e.delta_y() < 0.0 { 1.1 } else { 1.0 / 1.1 });
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
