//! # cute-web: CuTe Layout Explorer in the browser
//!
//! A thin Leptos shell over the core and the one renderer: state (URL) → `cute-core`
//! (evaluate) → `cute-render` (SVG) → DOM.
//!
//! - [`state`]: the page's state and its readable URL query form;
//! - [`tabs`]: several named expressions, a tab naming another's value, the compare mode;
//! - [`form`]: form mode, fields written out as an expression;
//! - [`presets`]: the preset menu;
//! - [`inspect`]: the hover inspector's rows from a cell's `data-*` attributes;
//! - [`page`]: what the components show, computed without the DOM (results, label ranges,
//!   export names);
//! - [`app`]: the Leptos components and the DOM glue (wasm32 only).

pub mod form;
pub mod inspect;
pub mod page;
pub mod presets;
pub mod state;
pub mod tabs;

#[cfg(all(target_arch = "wasm32", feature = "app"))]
pub mod app;
