//! CuTe Layout Explorer in the browser: a thin shell over the core and the renderer.
//! Text flows one way: editor → cute-core → printed results → DOM.

use leptos::prelude::*;

/// The script shown on first load: the seeds' swizzled half tile and a TV layout.
const DEFAULT_SCRIPT: &str = "# One expression per line; NAME = expr binds a name.
A = (8,64):(64,1)
S = composition(Sw<3,4,3>, A)
S
S(1,8)
logical_divide(A, (4:1,16:1))
make_layout_tv((4,32):(32,1), (4,8):(8,1))";

/// One line of output: its source line number, the text, and whether it is an error.
fn evaluate(script: &str) -> Vec<(usize, String, bool)> {
    cute_core::run_script(script)
        .into_iter()
        .map(|l| {
            (
                l.line,
                cute_core::format_result(&l.result),
                l.result.is_err(),
            )
        })
        .collect()
}

#[component]
fn App() -> impl IntoView {
    let (script, set_script) = signal(DEFAULT_SCRIPT.to_string());
    let results = Memo::new(move |_| evaluate(&script.get()));
    view! {
        <main class="app">
            <header>
                <h1>"CuTe Layout Explorer"</h1>
                <p class="tagline">"NVIDIA CuTe's layout algebra, exactly as CuTe C++ computes it."</p>
            </header>
            <section class="panes">
                <label class="pane">
                    <span class="pane-title">"Expressions"</span>
                    <textarea
                        id="editor"
                        spellcheck="false"
                        prop:value=move || script.get()
                        on:input=move |ev| set_script.set(event_target_value(&ev))
                    ></textarea>
                </label>
                <div class="pane">
                    <span class="pane-title">"Results (as CuTe prints them)"</span>
                    <ol id="results">
                        <For
                            each=move || results.get()
                            key=|r| r.clone()
                            children=move |(line, text, is_err)| {
                                view! {
                                    <li class:error=is_err data-line=line>
                                        <span class="line-no">{line}</span>
                                        <code>{text}</code>
                                    </li>
                                }
                            }
                        />
                    </ol>
                </div>
            </section>
        </main>
    }
}

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
