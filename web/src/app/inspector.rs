//! The inspector: the cell under the pointer explained ([`crate::inspect`]), from its own
//! `data-*` attributes in small figures, from the figure through the panel's hit
//! rectangle in big ones (whose cells are fills). Hover shows, click pins.

use crate::inspect::{self, Context, Row};
use crate::state::State;
use cute_render::grid::PanelBox;
use cute_render::{Figure, Highlight};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What the inspector shows.
#[derive(Clone, Copy)]
pub(super) struct Inspection {
    /// Label and value rows.
    pub rows: RwSignal<Vec<Row>>,
    /// A cell is pinned: hovering leaves the rows alone.
    pub pinned: RwSignal<bool>,
    /// What the drawn value adds to a cell's attributes.
    pub context: StoredValue<Context>,
}

impl Inspection {
    pub fn new() -> Inspection {
        Inspection {
            rows: RwSignal::new(Vec::new()),
            pinned: RwSignal::new(false),
            context: StoredValue::new(Context::default()),
        }
    }

    /// Nothing shown or pinned (a new drawing).
    pub fn clear(self) {
        self.rows.set(Vec::new());
        self.pinned.set(false);
    }

    pub fn show(self, data: &[(String, String)]) {
        self.rows
            .set(self.context.with_value(|c| inspect::rows(data, c)));
    }
}

/// The inspector's box: the rows, and "Highlight this thread" for a pinned TV cell.
#[component]
pub(super) fn Inspector(insp: Inspection, state: RwSignal<State>) -> impl IntoView {
    let Inspection { rows, pinned, .. } = insp;
    let pinned_thread = move || {
        rows.with_untracked(|r| {
            r.iter()
                .find(|(k, _)| k == "thread")
                .and_then(|(_, v)| v.parse().ok())
        })
    };
    view! {
        <aside class="inspector" id="inspector" aria-live="polite">
            <div class="inspector-head">
                {move || if pinned.get() { "Pinned cell (click elsewhere to release)" } else { "Hover a cell · click to pin" }}
            </div>
            <dl>
                <For each=move || rows.get() key=|r| r.clone() let:r>
                    <dt>{r.0.clone()}</dt>
                    <dd data-key=r.0.clone()>{r.1.clone()}</dd>
                </For>
            </dl>
            <Show when=move || pinned.get() && rows.with(|r| r.iter().any(|(k, _)| k == "thread"))>
                <button id="highlight-pinned" on:click=move |_| {
                    if let Some(t) = pinned_thread() {
                        state.update(|s| s.opts.highlight = Some(Highlight::Thread(t)));
                    }
                }>"Highlight this thread"</button>
            </Show>
        </aside>
    }
}

/// The renderer's `data-*` attributes of the cell under `target`, with its panel's id.
pub(super) fn cell_data(
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
pub(super) fn hit_data(
    e: &web_sys::MouseEvent,
    fig: &Option<Figure>,
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
pub(super) fn outline_cell(
    panel: &web_sys::Element,
    class: &str,
    row: usize,
    col: usize,
    boxes: &[PanelBox],
) {
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
