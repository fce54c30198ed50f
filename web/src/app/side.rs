//! The side pane: editor or form, the results as CuTe prints them, the highlight fields.

use super::form_pane::FormPane;
use crate::page::{highlight_fields, highlight_of, known_names, LineError, Printed};
use crate::state::{Mode, State};
use leptos::prelude::*;

/// The pane hands each part what it reads and writes (the URL state, the results, the
/// first error), read-only where it only reads.
#[component]
pub(super) fn SidePane(
    state: RwSignal<State>,
    printed: ReadSignal<Vec<Printed>>,
    line_error: ReadSignal<Option<LineError>>,
    answers: ReadSignal<Vec<String>>,
) -> impl IntoView {
    let is = move |m: Mode| state.with(|s| s.mode == m);
    let undo = EditorUndo::new(state);
    view! {
        <section class="side">
            <Sheets state=state/>
            <div class="tabs" role="tablist">
                <button
                    id="mode-editor"
                    role="tab"
                    class:active=move || is(Mode::Editor)
                    on:click=move |_| state.update(|s| s.mode = Mode::Editor)
                >
                    "Expression"
                </button>
                <button
                    id="mode-form"
                    role="tab"
                    class:active=move || is(Mode::Form)
                    // The form takes over the expression only when one of its fields is
                    // edited: switching tabs never replaces what was typed or pasted.
                    on:click=move |_| state.update(|s| s.mode = Mode::Form)
                >
                    "Form"
                </button>
            </div>
            <Show
                when=move || is(Mode::Form)
                fallback=move || view! { <Editor state=state line_error=line_error undo=undo/> }
            >
                <FormPane state=state/>
                <Show when=move || state.with(|s| s.expr != s.form.to_expr())>
                    <p class="form-note" id="form-note">
                        "The drawing shows the expression you wrote. Editing a field replaces it with the form's (Back brings it back)."
                    </p>
                </Show>
                <pre class="form-expr" id="form-expr">{move || state.with(|s| s.expr.clone())}</pre>
            </Show>
            <Results printed=printed answers=answers/>

            <HighlightPane state=state/>
            <KnownNames/>
        </section>
    }
}

/// The page's tabs: one button a tab (its name: what other tabs' expressions call its
/// value), a new tab (a copy of the open one), a variant (a copy compared with the open
/// one), and closing the open one.
#[component]
fn Sheets(state: RwSignal<State>) -> impl IntoView {
    let names = move || state.with(|s| s.tabs.names());
    let active = move || state.with(|s| s.tabs.active);
    view! {
        <nav class="sheets" id="sheets" aria-label="tabs">
            {move || {
                names()
                    .into_iter()
                    .enumerate()
                    .map(|(i, name)| {
                        view! {
                            <button
                                id=format!("sheet-{name}")
                                class="sheet"
                                class:active=move || active() == i
                                title=format!("tab {name}: other tabs' expressions call its value {name}")
                                on:click=move |_| state.update(|s| s.switch_tab(i))
                            >{name.clone()}</button>
                        }
                    })
                    .collect_view()
            }}
            <button
                id="sheet-add"
                class="sheet"
                aria-label="new tab"
                title="a new tab holding a copy of this expression (to change and compare)"
                on:click=move |_| state.update(|s| s.add_tab())
            >"+"</button>
            <Show when=move || state.with(|s| s.tabs.list.len() > 1)>
                <button
                    id="sheet-close"
                    class="sheet"
                    aria-label="close this tab"
                    title="close this tab"
                    on:click=move |_| state.update(|s| s.close_tab(s.tabs.active))
                >"×"</button>
            </Show>
            <button
                id="sheet-variant"
                class="sheet variant"
                title="a copy of this tab in a new tab, drawn against this one: change the copy and the cells where the two differ are marked"
                on:click=move |_| state.update(|s| s.compare_variant())
            >"Compare a variant"</button>
        </nav>
    }
}

/// The expression editor with its first error pointed at by line and column.
#[component]
fn Editor(
    state: RwSignal<State>,
    line_error: ReadSignal<Option<LineError>>,
    undo: EditorUndo,
) -> impl IntoView {
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
                undo.typed();
                state.update(|s| s.expr = v)
            }
            on:keydown=move |e| undo.key(&e)
        ></textarea>
        <Show when=move || line_error.with(|e| e.is_some())>
            {move || {
                line_error
                    .get()
                    .map(|e| {
                        view! {
                            <div class="line-error" id="editor-error" role="alert" data-line=e.line data-col=e.col.unwrap_or(0)>
                                <div class="where">"error at " {e.place()} ": " {e.msg.clone()}</div>
                                <pre>{e.src.clone()} {e.caret().map(|c| format!("\n{c}"))}</pre>
                            </div>
                        }
                    })
            }}
        </Show>
    }
}

/// Every printed line of the script, errors marked.
#[component]
fn Results(printed: ReadSignal<Vec<Printed>>, answers: ReadSignal<Vec<String>>) -> impl IntoView {
    view! {
        <details class="results" open>
            <summary>"Results (as CuTe prints them)"</summary>
            <ol id="results" tabindex="0" aria-label="results">
                <For each=move || printed.get() key=|p| (p.line, p.text.clone()) let:p>
                    <li class:error=p.error.is_some() class:note=p.note data-line=p.line>
                        <span class="line-no">{p.line}</span>
                        <code>{p.text.clone()}</code>
                    </li>
                </For>
            </ol>
            // The drawing's answers in words, up front (the figure shows them under its grid).
            <Show when=move || answers.with(|a| !a.is_empty())>
                <ul id="answers" class="answers" aria-label="what the drawing says">
                    <For each=move || answers.get() key=|a| a.clone() let:a>
                        <li>{a}</li>
                    </For>
                </ul>
            </Show>
        </details>
    }
}

/// Highlight a thread or warp (TV, MMA and copy views) and pick the bank view's warp.
#[component]
fn HighlightPane(state: RwSignal<State>) -> impl IntoView {
    let value = move || highlight_fields(state.with(|s| s.opts.highlight));
    let set =
        move |kind: String, n: String| state.update(|s| s.opts.highlight = highlight_of(&kind, &n));
    view! {
        <fieldset class="highlight">
            <legend>"Highlight"</legend>
            <select id="hl-kind" aria-label="highlight a thread or a warp" prop:value=move || value().0 on:change=move |e| {
                let k = event_target_value(&e);
                let n = if value().1.is_empty() { "0".to_string() } else { value().1 };
                set(k, n)
            }>
                <option value="none">"nothing"</option>
                <option value="thread">"thread"</option>
                <option value="warp">"warp"</option>
            </select>
            <input type="number" id="hl-index" min="0" aria-label="index of the highlighted thread or warp" prop:value=move || value().1 on:input=move |e| set(value().0.to_string(), event_target_value(&e))/>
            <label title="the warp whose instructions the bank view draws">
                "warp (banks, coalescing) "
                <input type="number" id="bank-warp" min="0" prop:value=move || state.with(|s| s.opts.warp.to_string()) on:input=move |e| {
                    if let Ok(w) = event_target_value(&e).parse::<u32>() {
                        if w < 1 << 16 { state.update(|s| s.opts.warp = w) }
                    }
                }/>
            </label>
        </fieldset>
    }
}

/// Undo for the texts the editor did not type: what a preset, a form field, a search row or
/// a link replaced. The browser's own undo goes first (the editor's typing); when it has
/// nothing left, Ctrl+Z (⌘Z) brings back the text before the last such replacement.
#[derive(Clone, Copy)]
struct EditorUndo {
    state: RwSignal<State>,
    /// Texts replaced, oldest first.
    replaced: StoredValue<Vec<String>>,
    /// The next change of the expression is the editor's (typing) or an undo's: not kept.
    own: StoredValue<bool>,
}

impl EditorUndo {
    /// Texts kept at most.
    const DEPTH: usize = 50;

    fn new(state: RwSignal<State>) -> EditorUndo {
        let u = EditorUndo {
            state,
            replaced: StoredValue::new(Vec::new()),
            own: StoredValue::new(false),
        };
        let expr = Memo::new(move |_| state.with(|s| s.expr.clone()));
        let last = StoredValue::new(state.with_untracked(|s| s.expr.clone()));
        Effect::new(move |_| {
            let now = expr.get();
            let before = std::mem::replace(&mut *last.write_value(), now.clone());
            if before == now {
                return;
            }
            if !std::mem::replace(&mut *u.own.write_value(), false) {
                u.replaced.update_value(|r| {
                    r.push(before);
                    let extra = r.len().saturating_sub(Self::DEPTH);
                    r.drain(..extra);
                });
            }
        });
        u
    }

    /// The editor changed the text.
    fn typed(self) {
        self.own.set_value(true);
    }

    /// Ctrl+Z / ⌘Z in the editor: after the browser's undo, if it changed nothing, the text
    /// before the last replacement.
    fn key(self, e: &leptos::ev::KeyboardEvent) {
        let undo =
            (e.ctrl_key() || e.meta_key()) && !e.shift_key() && e.key().eq_ignore_ascii_case("z");
        let Some(area) = undo.then(|| event_target::<web_sys::HtmlTextAreaElement>(e)) else {
            return;
        };
        let before = area.value();
        set_timeout(
            move || {
                if area.value() != before {
                    return;
                }
                if let Some(text) = self.replaced.try_update_value(Vec::pop).flatten() {
                    self.own.set_value(true);
                    self.state.update(|s| s.expr = text);
                }
            },
            std::time::Duration::ZERO,
        );
    }
}

/// The functions, types and atoms the page knows, searched by the words typed.
#[component]
fn KnownNames() -> impl IntoView {
    /// Enough to scan, few enough to list at once.
    const SHOWN: usize = 60;
    let query = RwSignal::new(String::new());
    let found = Memo::new(move |_| query.with(|q| known_names(q, SHOWN)));
    // The search and its list exist only while open: a closed pane holds nothing to Tab to.
    let open = RwSignal::new(false);
    view! {
        <details class="known" id="known" prop:open=move || open.get()>
            <summary on:click=move |e| {
                e.prevent_default();
                open.update(|o| *o = !*o);
            }>"Names the page knows (functions, types, atoms)"</summary>
            <Show when=move || open.get()>
            <input
                id="known-search"
                type="search"
                placeholder="search: ldsm x4, divide, gmma ..."
                aria-label="search the names the page knows"
                prop:value=move || query.get()
                on:input=move |e| query.set(event_target_value(&e))
            />
            <p class="known-count" id="known-count">
                {move || found.with(|(hits, total)| if hits.len() < *total {
                    format!("{} of {total} shown", hits.len())
                } else {
                    format!("{total} found")
                })}
            </p>
            <ul id="known-list">
                {move || found.get().0.into_iter().map(|k| view! {
                    <li data-kind=k.kind>
                        <code>{k.spelling}</code>
                        <span class="kind">{k.kind}</span>
                        {(!k.meaning.is_empty()).then(|| view! { <span class="meaning">{k.meaning}</span> })}
                    </li>
                }).collect_view()}
            </ul>
            </Show>
        </details>
    }
}
