//! The page: Leptos components and the little DOM glue the renderer's SVG needs (wasm32
//! only; what needs no DOM is in [`crate::page`]).
//!
//! Flow: state (URL) → core (evaluate) → renderer (SVG string) → one `innerHTML` write.
//! Hover and click never re-render the drawing: one delegated listener on the canvas reads
//! the renderer's `data-*` attributes and fills the inspector.
//!
//! Parts: the toolbar (menus, export, copy link), the side pane (editor or form, results,
//! highlight) and the stage (drawing, zoom, label layer, inspector), sharing [`Shared`].

mod dom;
mod drawing;
mod form_pane;
mod inspector;
mod labels;
mod side;
mod stage;
mod toolbar;

use crate::page::{LineError, Printed};
use crate::state::{Cause, History, State};

/// Edits less than this far apart are one burst of typing: one history entry.
const TYPING_BURST_MS: f64 = 1500.0;
use cute_render::{Figure, Theme, View};
use leptos::prelude::*;

/// What the page's parts share. [`App`] makes it; the stage (which writes the results, the
/// figure and the export's verdict) holds it all, the other parts get the pieces they use.
#[derive(Clone, Copy)]
pub(crate) struct Shared {
    /// Everything the URL carries.
    pub state: RwSignal<State>,
    /// The state's theme choice resolved against the system's preference.
    pub theme: Memo<Theme>,
    /// The results pane's lines, from the drawing's evaluation of the script.
    pub printed: RwSignal<Vec<Printed>>,
    /// The script's first error, for the editor.
    pub line_error: RwSignal<Option<LineError>>,
    /// The drawn figure: exports and the inspector read it, the stage writes it.
    pub figure: StoredValue<Option<Figure>>,
    /// Why the drawn figure cannot be exported (too big for a file), if it cannot.
    pub export_blocked: RwSignal<Option<String>>,
    /// The element width the drawn value or its block fixes, and where from (the menu's
    /// width is not used then).
    pub elem_fixed: RwSignal<Option<(u32, String)>>,
    /// The view was chosen (the view menu, a shared URL's `view`): it stays when a value
    /// cannot be drawn in it. Otherwise (a preset's view) the view follows the value.
    pub view_chosen: StoredValue<bool>,
    /// Why the next state change happens, when it is not an ordinary edit: set just before
    /// the change, read (and reset) when it enters the history.
    pub cause: StoredValue<Cause>,
    /// What the drawn figure says in words (its notes: a TMA box and swizzle mode, a
    /// descriptor's canonical form, wavefronts, the best search candidate), for the
    /// results pane.
    pub answers: RwSignal<Vec<String>>,
    /// The drawn value (the LaTeX export writes it).
    pub value: StoredValue<Option<cute_lang::Value>, LocalStorage>,
    /// Whether the drawn value has a LaTeX form (print_latex's kinds).
    pub latex_ok: RwSignal<bool>,
    /// The drawn algebra call's derivation, for the page under the algebra view.
    pub explanation: RwSignal<Option<Vec<String>>>,
}

/// Mount the page into `<body>`, state from the page's URL, kept in the URL as it changes.
pub fn start() {
    console_error_panic_hook::set_once();
    let query = dom::window().location().search().unwrap_or_default();
    leptos::mount::mount_to_body(move || view! { <App query=query sync_url=true/> });
    // The first picture's stand-in goes when the app draws; whatever the app shows first
    // (an empty expression, the form), it goes by the next task.
    set_timeout(dom::drop_first_picture, std::time::Duration::ZERO);
}

/// The whole page. `query` is the initial URL query; with `sync_url` every change is
/// written back with `history.replaceState`.
#[component]
pub fn App(#[prop(into)] query: String, sync_url: bool) -> impl IntoView {
    let (init, init_notes) = State::from_query(&query);
    let state = RwSignal::new(init);
    let notices = RwSignal::new(init_notes);
    let system_dark = dom::system_dark();
    let theme = Memo::new(move |_| state.with(|s| s.theme).resolve(system_dark.get()));
    let shared = Shared {
        state,
        theme,
        printed: RwSignal::new(Vec::new()),
        line_error: RwSignal::new(None),
        figure: StoredValue::new(None),
        export_blocked: RwSignal::new(None),
        elem_fixed: RwSignal::new(None),
        answers: RwSignal::new(Vec::new()),
        value: StoredValue::new_local(None),
        latex_ok: RwSignal::new(false),
        explanation: RwSignal::new(None),
        view_chosen: StoredValue::new(state.with_untracked(|s| s.opts.view != View::Auto)),
        cause: StoredValue::new(Cause::Edit),
    };

    if sync_url {
        // What the URL last showed, and when the last typing was: the history keeps
        // committed edits as entries, typing rewrites the current one (State::history).
        let shown = StoredValue::new(state.get_untracked());
        let typed_at = StoredValue::new(f64::NEG_INFINITY);
        Effect::new(move |_| {
            let new = state.get();
            let old = shown.get_value();
            if old == new {
                return;
            }
            let cause = shared.cause.get_value();
            shared.cause.set_value(Cause::Edit);
            let t = dom::now();
            let burst = t - typed_at.get_value() < TYPING_BURST_MS;
            let step = old.step(&new, burst, cause);
            // Typing starts or continues a burst; a committed edit ends it.
            let typing = old.step(&new, true, cause) == History::Replace;
            typed_at.set_value(if typing { t } else { f64::NEG_INFINITY });
            shown.set_value(new.clone());
            match step {
                History::Push => dom::push_query(&new.to_query()),
                History::Replace => dom::replace_query(&new.to_query()),
            }
        });
        // Back and Forward: the state of that entry (the URL already shows it).
        let _ = window_event_listener(leptos::ev::popstate, move |_| {
            dom::drop_pending_query();
            let (s, _) = State::from_query(&dom::query());
            shown.set_value(s.clone());
            shared.cause.set_value(Cause::Edit);
            state.set(s);
        });
    }
    Effect::new(move |_| dom::set_theme(theme.get()));

    view! {
        <div class="app">
            <toolbar::Toolbar
                state=state
                theme=theme
                figure=shared.figure
                value=shared.value
                latex_ok=shared.latex_ok.read_only()
                export_blocked=shared.export_blocked.read_only()
                elem_fixed=shared.elem_fixed.read_only()
                view_chosen=shared.view_chosen
                cause=shared.cause
            />
            <Show when=move || !notices.with(|n| n.is_empty())>
                <ul class="notices" id="notices">
                    <For each=move || notices.get() key=|n| n.clone() let:n>
                        <li>{n}</li>
                    </For>
                    <li><button on:click=move |_| notices.set(Vec::new())>"dismiss"</button></li>
                </ul>
            </Show>
            <main class="main">
                <side::SidePane
                    state=state
                    printed=shared.printed.read_only()
                    line_error=shared.line_error.read_only()
                    answers=shared.answers.read_only()
                />
                <stage::Stage shared=shared/>
            </main>
            <footer class="foot">
                "CuTe C++ semantics · the same renderer as the "
                <code>"render"</code>
                " CLI · everything is in the URL"
            </footer>
        </div>
    }
}
