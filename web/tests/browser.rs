//! wasm-bindgen-test tests in headless Chromium (chromedriver): the page mounted for real,
//! its drawing, editor, errors and inspector checked through the DOM.
//!
//! Run: `CHROMEDRIVER=/usr/bin/chromedriver CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//! cargo test -p cute-web --target wasm32-unknown-unknown --test browser` (scripts/test.sh does).
#![cfg(target_arch = "wasm32")]

use cute_web::app::App;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// Let timers and effects run (the page draws in a zero-delay timeout).
async fn settle() {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 30)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(p).await.unwrap();
}

/// Mount the page with `query` into a fresh container; URL sync off (the runner owns it).
async fn mount(query: &str) -> Element {
    let host = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    let q = query.to_string();
    let el: web_sys::HtmlElement = host.clone().dyn_into().unwrap();
    let handle =
        leptos::mount::mount_to(el, move || view! { <App query=q.clone() sync_url=false/> });
    handle.forget();
    settle().await;
    host
}

/// Settle until `sel` is there (a loaded machine may need more than one timer turn to
/// run the page's effects); at most about 3 s.
async fn wait_for(host: &Element, sel: &str) {
    for _ in 0..100 {
        if host.query_selector(sel).unwrap().is_some() {
            return;
        }
        settle().await;
    }
}

fn all(host: &Element, sel: &str) -> Vec<Element> {
    let list = host.query_selector_all(sel).unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().dyn_into().unwrap())
        .collect()
}

fn one(host: &Element, sel: &str) -> Element {
    host.query_selector(sel)
        .unwrap()
        .unwrap_or_else(|| panic!("no {sel}"))
}

async fn type_into_editor(host: &Element, text: &str) {
    let ta: HtmlTextAreaElement = one(host, "#editor").dyn_into().unwrap();
    ta.set_value(text);
    let ev = web_sys::Event::new("input").unwrap();
    ta.dispatch_event(&ev).unwrap();
    settle().await;
}

#[wasm_bindgen_test]
async fn draws_the_url_expression_with_every_offset() {
    let host = mount("?expr=(4,8):(8,1)").await;
    let cells = all(&host, "#panel-layout .cell");
    assert_eq!(cells.len(), 32);
    for c in cells {
        let i: i64 = c.get_attribute("data-idx").unwrap().parse().unwrap();
        let off: i64 = c.get_attribute("data-offset").unwrap().parse().unwrap();
        assert_eq!(off, 8 * (i % 4) + i / 4);
    }
    assert_eq!(
        one(&host, "#results li code").text_content().unwrap(),
        "(4,8):(8,1)"
    );
}

#[wasm_bindgen_test]
async fn editing_redraws_and_errors_point_at_the_column() {
    let host = mount("").await;
    assert_eq!(
        one(&host, "#canvas svg")
            .get_attribute("data-view")
            .as_deref(),
        Some("swizzle")
    );
    type_into_editor(&host, "A = (2,8):(8,1)\ncomposition(A, 4:2)").await;
    let want = cute_lang::eval_line("composition((2,8):(8,1), 4:2)")
        .unwrap()
        .to_string();
    assert_eq!(one(&host, "#results li code").text_content().unwrap(), want);
    type_into_editor(&host, "(4,8):(8,1").await;
    let err = one(&host, "#editor-error");
    assert_eq!(err.get_attribute("data-line").as_deref(), Some("1"));
    assert_ne!(err.get_attribute("data-col").as_deref(), Some("0"));
    assert!(err.text_content().unwrap().contains("column"));
    // Still alive: a good expression draws again and the error goes.
    type_into_editor(&host, "(2,2):(1,2)").await;
    assert_eq!(all(&host, "#panel-layout .cell").len(), 4);
    assert!(host.query_selector("#editor-error").unwrap().is_none());
}

#[wasm_bindgen_test]
async fn hover_fills_the_inspector_without_redrawing() {
    let host = mount("?expr=Sw%3C3,4,3%3E%20o%200%20o%20(8,64):(64,1)&view=swizzle").await;
    let svg_before = one(&host, "#canvas svg");
    // Above 128 cells the grid is fills under one hit rectangle: point at row 2, col 2.
    let hit = one(&host, "#panel-after .hit");
    let r = hit.get_bounding_client_rect();
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_client_x((r.left() + r.width() * 2.5 / 64.0) as i32);
    init.set_client_y((r.top() + r.height() * 2.5 / 8.0) as i32);
    let ev = web_sys::MouseEvent::new_with_mouse_event_init_dict("mousemove", &init).unwrap();
    hit.dispatch_event(&ev).unwrap();
    settle().await;
    wait_for(&host, "#inspector dd[data-key=\"swizzled offset\"]").await;
    let dd = |k: &str| {
        one(&host, &format!("#inspector dd[data-key=\"{k}\"]"))
            .text_content()
            .unwrap()
    };
    // 130 = row 2, col 2: yyy bit 7 set → zzz bit 4 flips: 146; bank (146*2/4) % 32 = 9.
    assert!(dd("offset before swizzle").starts_with("130 = "));
    assert_eq!(dd("swizzled offset"), "146 = 0b00_1001_0010");
    assert_eq!(dd("bank"), "9");
    assert_eq!(dd("coordinate"), "(2,2)");
    // Same SVG element: hovering never re-renders the drawing.
    assert!(one(&host, "#canvas svg").is_same_node(Some(&svg_before)));
}

#[wasm_bindgen_test]
async fn hostile_url_values_are_ignored_and_shown_as_text() {
    let host =
        mount("?view=%3Cimg%20src=x%20onerror=alert(1)%3E&expr=%3Cscript%3Ealert(1)%3C/script%3E")
            .await;
    assert!(host.query_selector("img, script").unwrap().is_none());
    let notices = one(&host, "#notices").text_content().unwrap();
    assert!(notices.contains("ignored URL parameter view"));
    assert!(one(&host, "#editor-error")
        .text_content()
        .unwrap()
        .contains("column 1"));
}
