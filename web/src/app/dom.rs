//! Browser glue: the window, the system theme, the URL, downloads and PNG export.

use crate::page::png_size;
use cute_render::Theme;
use leptos::prelude::*;
use std::time::Duration;
use wasm_bindgen::{JsCast, JsValue};

pub fn window() -> web_sys::Window {
    web_sys::window().expect("a browser window")
}

/// Milliseconds since the page started, for the stage's timings.
pub fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// Whether the system prefers dark, kept current as the preference changes.
pub fn system_dark() -> RwSignal<bool> {
    let mq = window()
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten();
    let dark = RwSignal::new(mq.as_ref().is_some_and(|m| m.matches()));
    if let Some(mq) = mq {
        let cb = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(
            move |e: web_sys::MediaQueryListEvent| dark.set(e.matches()),
        );
        let _ = mq.add_event_listener_with_callback("change", cb.as_ref().unchecked_ref());
        cb.forget(); // lives as long as the page
    }
    dark
}

/// `<html data-theme>`, which the style sheet's colours follow.
pub fn set_theme(theme: Theme) {
    let dark = theme == Theme::Dark;
    if let Some(root) = window().document().and_then(|d| d.document_element()) {
        let _ = root.set_attribute("data-theme", if dark { "dark" } else { "light" });
    }
}

/// The first picture's stand-in of the page (`web/first`), drawn before the app loaded:
/// gone once the app has drawn.
pub fn drop_first_picture() {
    if let Some(first) = window()
        .document()
        .and_then(|d| d.get_element_by_id("first"))
    {
        first.remove();
    }
}

thread_local! {
    /// A query waiting to replace the URL's ([`replace_query`]), and whether its write is
    /// scheduled.
    static PENDING: std::cell::RefCell<(Option<String>, bool)> = const { std::cell::RefCell::new((None, false)) };
}

/// How long a typing burst's URL rewrites wait: one write per pause, not one a keystroke
/// (a `replaceState` costs ~2 ms and makes Chromium reload the favicon, ~3 ms).
const REPLACE_DELAY: Duration = Duration::from_millis(200);

/// Replace the page URL's query (`q`: with `?`, or empty) without a history entry, soon:
/// rewrites that follow within [`REPLACE_DELAY`] are written once, the last.
pub fn replace_query(q: &str) {
    let (was_none, schedule) = PENDING.with_borrow_mut(|(pending, scheduled)| {
        let was_none = pending.replace(q.to_string()).is_none();
        (was_none, !std::mem::replace(scheduled, true))
    });
    if was_none {
        // For tests and scripts that read the URL: it is about to change.
        set_url_pending(true);
    }
    if schedule {
        set_timeout(
            || {
                PENDING.with_borrow_mut(|p| p.1 = false);
                flush_query();
            },
            REPLACE_DELAY,
        );
    }
}

/// Write a pending [`replace_query`] now (before the URL is read or a new entry made).
pub fn flush_query() {
    if let Some(q) = PENDING.with_borrow_mut(|p| p.0.take()) {
        write_query(&q, false);
        set_url_pending(false);
    }
}

/// Forget a pending [`replace_query`]: the URL now shows another entry (Back, Forward).
pub fn drop_pending_query() {
    if PENDING.with_borrow_mut(|p| p.0.take()).is_some() {
        set_url_pending(false);
    }
}

/// `data-url-pending` on the root element while a [`replace_query`] waits.
fn set_url_pending(on: bool) {
    if let Some(root) = window().document().and_then(|d| d.document_element()) {
        let _ = if on {
            root.set_attribute("data-url-pending", "")
        } else {
            root.remove_attribute("data-url-pending")
        };
    }
}

/// Write the page's query string as a new history entry (Back returns to the one before).
pub fn push_query(q: &str) {
    // The entry being left keeps the last state typed into it.
    flush_query();
    write_query(q, true);
}

fn write_query(q: &str, push: bool) {
    let path = window().location().pathname().unwrap_or_default();
    let url = format!("{path}{q}");
    if let Ok(h) = window().history() {
        let _ = if push {
            h.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            h.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
    }
}

/// The page's query string (`?...`, or empty).
pub fn query() -> String {
    window().location().search().unwrap_or_default()
}

/// Put the page's URL on the clipboard.
pub fn copy_page_url() {
    flush_query();
    let href = window().location().href().unwrap_or_default();
    let _ = window().navigator().clipboard().write_text(&href);
}

/// Offer `bytes` as a download named `name`.
pub fn download(bytes: &JsValue, mime: &str, name: &str) -> Result<(), JsValue> {
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

/// Rasterise `svg`, a drawing of `size` ([`cute_render::Figure::size`]), in the browser
/// (its own fonts) and download it as PNG ([`png_size`]).
/// `done` runs when the file is handed to the browser (or the export failed).
pub fn export_png(
    svg: &str,
    size: (usize, usize),
    name: String,
    done: impl FnOnce() + 'static,
) -> Result<(), JsValue> {
    let (cw, ch) = png_size(size.0 as f64, size.1 as f64);
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
            let saved =
                wasm_bindgen::closure::Closure::once_into_js(move |blob: Option<web_sys::Blob>| {
                    if let Some(b) = blob {
                        let _ = download_blob(&b, &name);
                    }
                    done();
                });
            let _ = canvas.to_blob(saved.unchecked_ref());
        } else {
            done();
        }
    });
    img.set_onload(Some(onload.unchecked_ref()));
    img.set_src(&url);
    Ok(())
}
