//! The toolbar: preset, view, palette, theme and element-width menus, copy link, export.

use super::dom;
use crate::page::export_name;
use crate::presets::{self, PRESETS};
use crate::state::{palette_label, Cause, Mode, State, ThemeChoice, ELEMENT_BITS};
use cute_render::{Figure, Labels, Palette, Theme, View};
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// The toolbar reads and writes the URL state; its exports read the drawn figure and why
/// it cannot be exported.
#[component]
pub(super) fn Toolbar(
    state: RwSignal<State>,
    theme: Memo<Theme>,
    figure: StoredValue<Option<Figure>>,
    value: StoredValue<Option<cute_lang::Value>, LocalStorage>,
    latex_ok: ReadSignal<bool>,
    export_blocked: ReadSignal<Option<String>>,
    elem_fixed: ReadSignal<Option<(u32, String)>>,
    view_chosen: StoredValue<bool>,
    cause: StoredValue<Cause>,
) -> impl IntoView {
    view! {
        <header class="bar">
            <h1>"CuTe Layout Explorer"</h1>
            <div class="controls">
                <PresetMenu state=state view_chosen=view_chosen cause=cause/>
                {menu(
                    "view",
                    "View",
                    None,
                    View::ALL.iter().map(|v| (v.name().to_string(), v.name().to_string())),
                    move || state.with(|s| s.opts.view.name().to_string()),
                    move |v| {
                        if let Some(v) = View::parse(&v) {
                            view_chosen.set_value(v != View::Auto);
                            state.update(|s| s.opts.view = v)
                        }
                    },
                )}
                {menu(
                    "labels",
                    "Labels",
                    Some("what each cell says"),
                    Labels::ALL.iter().map(|l| (l.name().to_string(), l.name().to_string())),
                    move || state.with(|s| s.opts.labels.name().to_string()),
                    move |v| {
                        if let Some(l) = Labels::parse(&v) {
                            state.update(|s| s.opts.labels = l)
                        }
                    },
                )}
                <CompareMenu state=state/>
                {menu(
                    "palette",
                    "Colours",
                    None,
                    Palette::ALL.iter().map(|&p| (p.name().to_string(), palette_label(p).to_string())),
                    move || state.with(|s| s.opts.palette.name().to_string()),
                    move |v| {
                        if let Some(p) = Palette::parse(&v) {
                            state.update(|s| s.opts.palette = p)
                        }
                    },
                )}
                {menu(
                    "theme",
                    "Theme",
                    None,
                    ThemeChoice::ALL.map(|t| (t.name().to_string(), t.label().to_string())),
                    move || state.with(|s| s.theme.name().to_string()),
                    move |v| {
                        if let Some(t) = ThemeChoice::parse(&v) {
                            state.update(|s| s.theme = t)
                        }
                    },
                )}
                <ElementMenu state=state elem_fixed=elem_fixed/>
                <Exports state=state theme=theme figure=figure export_blocked=export_blocked/>
                <LatexExport value=value latex_ok=latex_ok figure=figure/>
            </div>
        </header>
    }
}

/// Compare the open tab with another: the drawing is then `functionally_equal` of the two
/// tabs' values (the compare view). Offered once the page has two tabs.
#[component]
fn CompareMenu(state: RwSignal<State>) -> impl IntoView {
    let others = move || {
        state.with(|s| {
            let open = s.tabs.active_name();
            s.tabs
                .names()
                .into_iter()
                .filter(|n| *n != open)
                .collect::<Vec<_>>()
        })
    };
    view! {
        <Show when=move || !others().is_empty()>
            <label title="draw this tab against another: the cells where their values differ are marked">
                <span>"Compare with"</span>
                <select
                    id="cmp"
                    prop:value=move || state.with(|s| s.tabs.cmp.clone().unwrap_or_default())
                    on:change=move |e| {
                        let v = event_target_value(&e);
                        state.update(|s| s.tabs.cmp = (!v.is_empty()).then_some(v))
                    }
                >
                    <option value="">"—"</option>
                    {move || others().into_iter().map(|n| view! { <option value=n.clone()>{format!("tab {n}")}</option> }).collect_view()}
                </select>
            </label>
        </Show>
    }
}

/// The element-width menu, or the width the drawn value fixes (a shared-memory atom's
/// `smem_ptr[Nb]`, a declared Element): the menu is for values that have none.
#[component]
fn ElementMenu(
    state: RwSignal<State>,
    elem_fixed: ReadSignal<Option<(u32, String)>>,
) -> impl IntoView {
    view! {
        <Show
            when=move || elem_fixed.with(Option::is_some)
            fallback=move || menu(
                "bits",
                "Element",
                Some("element width used to colour offsets by bank"),
                ELEMENT_BITS.map(|b| (b.to_string(), format!("{b}-bit"))),
                move || state.with(|s| s.opts.elem_bits.to_string()),
                move |v| {
                    if let Ok(b) = v.parse() {
                        state.update(|s| s.opts.elem_bits = b)
                    }
                },
            )
        >
            <label title=move || elem_fixed.with(|f| f.as_ref().map(|(_, from)| format!("the drawn value fixes the width: {from}")))>
                <span>"Element"</span>
                <output id="bits-fixed">
                    {move || elem_fixed.with(|f| f.as_ref().map(|(b, from)| format!("{b}-bit ({from})")))}
                </output>
            </label>
        </Show>
    }
}

/// Copy link and the SVG/PNG exports.
#[component]
fn Exports(
    state: RwSignal<State>,
    theme: Memo<Theme>,
    figure: StoredValue<Option<Figure>>,
    export_blocked: ReadSignal<Option<String>>,
) -> impl IntoView {
    let copied = RwSignal::new(false);
    // A copied link is out of date once the state (so the URL) changes.
    Effect::new(move |_| {
        state.track();
        copied.set(false);
    });
    let copy_link = move |_| {
        dom::copy_page_url();
        copied.set(true);
    };
    // Exports are the whole picture, every cell's text included, whatever the page paints;
    // with its size, as the renderer laid it out.
    let whole_svg = move || {
        figure.with_value(|f| {
            f.as_ref()
                .map(|f| (f.to_svg(theme.get_untracked()), f.size()))
        })
    };
    // Named by the view drawn (which a value that cannot be drawn as chosen changes).
    let name = move |ext| {
        let view = figure.with_value(|f| f.as_ref().map(|f| f.view));
        export_name(view.unwrap_or(View::Auto), ext)
    };
    let export_svg = move |_| {
        if let Some((svg, _)) = whole_svg() {
            let _ = dom::download(&JsValue::from_str(&svg), "image/svg+xml", &name("svg"));
        }
    };
    // A big picture takes seconds to rasterise: the button says so meanwhile (the work
    // starts after it is repainted).
    let exporting = RwSignal::new(false);
    let export_png = move |_| {
        exporting.set(true);
        set_timeout(
            move || match whole_svg() {
                Some((svg, size)) => {
                    if dom::export_png(&svg, size, name("png"), move || exporting.set(false))
                        .is_err()
                    {
                        exporting.set(false);
                    }
                }
                None => exporting.set(false),
            },
            std::time::Duration::from_millis(30),
        );
    };

    view! {
        <button id="copy-link" on:click=copy_link>
            {move || if copied.get() { "Link copied" } else { "Copy link" }}
        </button>
        <button
            id="export-svg"
            on:click=export_svg
            disabled=move || export_blocked.with(Option::is_some)
            title=move || export_blocked.get().unwrap_or_else(|| "download the whole picture as SVG".into())
        >"SVG"</button>
        <button
            id="export-png"
            on:click=export_png
            disabled=move || export_blocked.with(Option::is_some) || exporting.get()
            title=move || export_blocked.get().unwrap_or_else(|| "download the whole picture as PNG".into())
        >{move || if exporting.get() { "PNG…" } else { "PNG" }}</button>
    }
}

/// The LaTeX export: CuTe's print_latex of the drawn value (a layout, a swizzled or TV
/// layout, an MMA, a TiledCopy), as a `.tex` file.
#[component]
fn LatexExport(
    value: StoredValue<Option<cute_lang::Value>, LocalStorage>,
    latex_ok: ReadSignal<bool>,
    figure: StoredValue<Option<Figure>>,
) -> impl IntoView {
    let export = move |_| {
        let tex = value.with_value(|v| v.as_ref().map(cute_render::latex::latex));
        let view = figure.with_value(|f| f.as_ref().map(|f| f.view));
        match tex {
            Some(Ok(tex)) => {
                let _ = dom::download(
                    &JsValue::from_str(&tex),
                    "application/x-tex",
                    &export_name(view.unwrap_or(View::Auto), "tex"),
                );
            }
            Some(Err(e)) => {
                let _ = dom::window().alert_with_message(&format!("LaTeX: {e}"));
            }
            None => {}
        }
    };
    view! {
        <button
            id="export-tex"
            on:click=export
            disabled=move || !latex_ok.get()
            title=move || if latex_ok.get() {
                "download CuTe's print_latex of the value (TikZ)"
            } else {
                "LaTeX: print_latex draws a layout, a swizzled or TV layout, an MMA or a TiledCopy"
            }
        >"LaTeX"</button>
    }
}

/// A labelled `<select id=id>` of `options` (value, text) showing `value`; `pick` gets
/// the chosen value.
fn menu(
    id: &'static str,
    label: &'static str,
    title: Option<&'static str>,
    options: impl IntoIterator<Item = (String, String)>,
    value: impl Fn() -> String + Send + Sync + 'static,
    pick: impl Fn(String) + 'static,
) -> impl IntoView {
    let options: Vec<_> = options.into_iter().collect();
    view! {
        <label title=title>
            <span>{label}</span>
            <select id=id prop:value=value on:change=move |e| pick(event_target_value(&e))>
                {options
                    .into_iter()
                    .map(|(v, text)| view! { <option value=v>{text}</option> })
                    .collect_view()}
            </select>
        </label>
    }
}

/// The presets, by group; choosing one replaces the expression and view, then the menu
/// goes back to "Choose…".
#[component]
fn PresetMenu(
    state: RwSignal<State>,
    view_chosen: StoredValue<bool>,
    cause: StoredValue<Cause>,
) -> impl IntoView {
    let on_preset = move |e: ev::Event| {
        let v = event_target_value(&e);
        if let Some(p) = v.parse::<usize>().ok().and_then(|i| PRESETS.get(i)) {
            // A preset suggests its view; the next value typed may need another.
            view_chosen.set_value(false);
            cause.set_value(Cause::Commit);
            state.update(|s| {
                s.expr = p.expr.to_string();
                s.opts.view = p.view;
                s.mode = Mode::Editor;
                s.opts.highlight = None;
                s.opts.bit_offset = None;
            });
        }
        if let Some(sel) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
        {
            sel.set_value("");
        }
    };
    view! {
        <label>
            <span>"Preset"</span>
            <select id="preset" on:change=on_preset>
                <option value="" selected>"Choose…"</option>
                {presets::groups()
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
    }
}
