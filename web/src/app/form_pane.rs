//! Form mode: fields for the common cases; every change rewrites the expression.

use crate::form::{self, Kind};
use crate::state::State;
use leptos::prelude::*;

#[component]
pub(super) fn FormPane(state: RwSignal<State>) -> impl IntoView {
    let set = move |key: &'static str, v: String| {
        state.update(|s| {
            if s.form.set(key, &v).is_ok() {
                s.expr = s.form.to_expr();
                s.opts.view = s.form.view();
                s.opts.elem_bits = s.form.bits();
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
