//! # cute-first: a shared link's first picture, before the page's app has loaded
//!
//! The page's app (Leptos, every view, the kernel report, the atom tables) is most of a
//! megabyte; on a real network a shared link would show nothing until all of it arrived.
//! This module is the same core, language and renderer built without their `full` feature
//! (the algebra, swizzles and TV layouts; the layout, swizzle, TV and algebra views) and
//! without Leptos: the page's boot script loads it first, draws the link's figure into a
//! stand-in of the page, and only then fetches the app, which takes over in place.
//!
//! It draws exactly what the app would (the same [`State`], options, theme and opening
//! zoom), or nothing: a link the light build cannot evaluate, or whose view it does not
//! have, waits for the app.

use cute_render::grid::Detail;
use cute_render::View;
use cute_web::page::{opening_zoom, WHOLE_CELLS};
use cute_web::state::State;
use wasm_bindgen::prelude::*;

// The module draws one picture and is dropped: lol_alloc's free list is a few hundred
// bytes where dlmalloc is 7 KB, and as fast for one picture (bench/README.md).
// SAFETY: the page runs this module on its main thread only (no wasm threads).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

/// What the boot script puts on screen.
#[derive(Debug)]
pub struct First {
    /// The figure's SVG document.
    pub svg: String,
    /// Its size at the opening zoom (CSS px), as the app sizes it.
    pub width: f64,
    /// Its height at the opening zoom.
    pub height: f64,
    /// `light` or `dark`: the page's `data-theme`.
    pub theme: String,
    /// The link's expression, for the stand-in editor.
    pub expr: String,
    /// The zoom it opens at.
    pub zoom: f64,
    /// The fills of the grids the SVG leaves to the page (cells computed on demand: a
    /// 64x64 layout), one pixel a cell, to be painted under the SVG as the app paints them.
    pub fills: Vec<Fills>,
}

/// A grid's fills: its box in the SVG (natural size) and one RGBA pixel a cell, row-major.
#[derive(Debug)]
pub struct Fills {
    /// Left edge, top edge, width and height in the SVG's units.
    pub at: (usize, usize, usize, usize),
    /// Columns and rows of cells: the pixels' width and height.
    pub cells: (usize, usize),
    /// RGBA, `cells.0 * cells.1 * 4` bytes.
    pub rgba: Vec<u8>,
}

/// The first picture of the page's URL query `query` in a stage of `room_w` x `room_h`
/// CSS px (the room the app's stage gives its drawing), or `None` when the app must draw
/// it.
///
/// ```
/// let f = cute_first::first_picture("?expr=(4,8):(8,1)", false, 1000.0, 700.0).unwrap();
/// assert!(f.svg.starts_with("<svg") && f.svg.contains("<title>(4,8):(8,1)</title>"));
/// assert_eq!(f.theme, "light");
/// // A kernel report (or any name of the full language) waits for the app.
/// assert!(cute_first::first_picture("?expr=make_gmma_desc", false, 1000.0, 700.0).is_none());
/// ```
pub fn first_picture(query: &str, system_dark: bool, room_w: f64, room_h: f64) -> Option<First> {
    let (state, _) = State::from_query(query);
    // Another view may not fall back to the one this module would draw instead: the app's
    // may draw it.
    if !matches!(
        state.opts.view,
        View::Auto | View::Layout | View::Swizzle | View::Tv | View::Algebra
    ) {
        return None;
    }
    // A tab compared with another, or naming another's value, waits for the app (the
    // stand-in shows one tab).
    if !state.tabs.list.is_empty() || state.tabs.cmp.is_some() {
        return None;
    }
    let theme = state.theme.resolve(system_dark);
    let evaluated = cute_render::evaluate(&state.expr);
    let (_, fig, _) = evaluated.figure(&state.options()).ok()?;
    if fig.to_html_table().is_some() {
        return None;
    }
    // As the app draws it: a big figure as fills (every SVG text node costs tens of µs of
    // style and layout; 4,096 of them held the first paint back by 400 ms). The app paints
    // the labels in view on its canvas once it has taken over.
    let detail = if fig.cell_text && fig.cell_count() > WHOLE_CELLS {
        Detail::Fills
    } else {
        Detail::Full
    };
    let (w, h) = fig.size();
    let natural = (w as f64, h as f64);
    // As the app opens a new figure: the link's zoom, or one that is legible and fits.
    let zoom = if state.zoom != 1.0 {
        state.zoom
    } else {
        opening_zoom(natural, (room_w, room_h))
    };
    // A lazy grid's cells are not in the SVG: its fills come as pixels, as the app's.
    let fills = if detail == Detail::Fills {
        fig.panel_boxes()
            .iter()
            .filter_map(|b| {
                Some(Fills {
                    // Within the figure's cell cap; saturating all the same.
                    at: (
                        b.x,
                        b.y,
                        b.cols.saturating_mul(b.cell_w),
                        b.rows.saturating_mul(b.cell_h),
                    ),
                    cells: (b.cols, b.rows),
                    rgba: fig.pixels(b.index)?,
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    Some(First {
        svg: fig.to_svg_with(theme, detail),
        zoom,
        fills,
        width: (natural.0 * zoom).round(),
        height: (natural.1 * zoom).round(),
        theme: if theme == cute_render::Theme::Dark {
            "dark"
        } else {
            "light"
        }
        .into(),
        expr: state.expr,
    })
}

thread_local! {
    /// The last picture's fills, until the boot script takes them ([`first_fills`]).
    static FILLS: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The boot script's entry: [`first_picture`] as one string (a class would cost the page a
/// kilobyte of glue): a head, the expression and the SVG joined by NULs. The head is
/// `WIDTH HEIGHT THEME ZOOM`, then `x,y,w,h,cols,rows` for each grid whose fills
/// [`first_fills`] gives, in order. An expression with a NUL in it has no picture here.
///
/// ```
/// let s = cute_first::first("?expr=(64,64):(64,1)", true, 1000.0, 700.0).unwrap();
/// let [head, expr, svg]: [&str; 3] = s.splitn(3, '\0').collect::<Vec<_>>().try_into().unwrap();
/// let head: Vec<&str> = head.split(' ').collect();
/// assert_eq!(head[2], "dark");
/// assert_eq!(expr, "(64,64):(64,1)");
/// assert!(svg.starts_with("<svg"));
/// // One grid of fills, 64x64 cells: 16,384 bytes of RGBA.
/// assert!(head[4].ends_with(",64,64"));
/// assert_eq!(cute_first::first_fills(0).len(), 64 * 64 * 4);
/// ```
#[wasm_bindgen]
pub fn first(query: &str, system_dark: bool, room_w: f64, room_h: f64) -> Option<String> {
    let f = first_picture(query, system_dark, room_w, room_h)?;
    if f.expr.contains('\0') {
        return None;
    }
    // Whole px (rounded above; a saturating cast), the zoom in millionths: no float
    // formatting in the module.
    let mut head = format!(
        "{} {} {} {}",
        f.width as i64,
        f.height as i64,
        f.theme,
        (f.zoom * 1e6).round() as i64
    );
    for g in &f.fills {
        let ((x, y, w, h), (cols, rows)) = (g.at, g.cells);
        head.push_str(&format!(" {x},{y},{w},{h},{cols},{rows}"));
    }
    FILLS.with(|k| *k.borrow_mut() = f.fills.into_iter().map(|g| g.rgba).collect());
    Some(format!("{head}\0{}\0{}", f.expr, f.svg))
}

/// Grid `i`'s fills of the last [`first`] picture, RGBA (empty once taken, or past the end).
#[wasm_bindgen]
pub fn first_fills(i: usize) -> Vec<u8> {
    FILLS.with(|k| {
        k.borrow_mut()
            .get_mut(i)
            .map(std::mem::take)
            .unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_light() {
        // Cargo unifies features across a workspace build: test this crate on its own.
        // Read at run time: a workspace test run reports this, not a compile error.
        let full = std::hint::black_box(cute_lang::FULL);
        assert!(!full, "test cute-first alone: cargo test -p cute-first");
    }

    #[test]
    fn a_big_layout_opens_as_fills_at_a_legible_zoom() {
        let f = first_picture("?expr=(64,64):(64,1)", true, 1127.0, 710.0).unwrap();
        assert!(
            f.svg.matches("<text").count() < 200,
            "labels are the app's to paint"
        );
        let small = first_picture("?expr=(8,16):(16,1)", true, 1127.0, 710.0).unwrap();
        assert!(small.svg.matches("<text").count() >= 128);
        assert_eq!(f.theme, "dark");
        // 82% from its corner, as the app opens it.
        assert!(f.width > 1127.0);
    }

    #[test]
    fn the_literal_module_draws_literals_and_leaves_functions_to_the_other() {
        // What web/first/pick.js sends to the literal module (built without `ops`).
        for q in [
            "?expr=(64,64):(64,1)",
            "?expr=8:1",
            "?expr=((2,4),8):((1,16),2)&view=layout",
            "?expr=Sw<3,4,3>%20o%200%20o%20(8,64):(64,1)",
            "?expr=Swizzle<2,3,3>{}%20o%200%20o%20(8,32):(32,1)&view=swizzle",
        ] {
            assert!(first_picture(q, false, 1000.0, 700.0).is_some(), "{q}");
        }
        let tv = first_picture(
            "?expr=make_layout_tv((4,8):(8,1),(4,1):(1,0))",
            false,
            1000.0,
            700.0,
        );
        assert_eq!(tv.is_some(), cfg!(feature = "ops"));
    }

    #[test]
    fn the_views_of_the_full_module_wait_for_the_app() {
        for q in [
            "?expr=bank_conflicts((8,64):(64,1), 16)",
            "?expr=(8,8):(8,1)&view=banks",
            "?expr=make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{})",
            "?expr=using%20X%20=%20cutlass::gemm::collective::StageCount<3>;",
        ] {
            assert!(first_picture(q, false, 1000.0, 700.0).is_none(), "{q}");
        }
    }

    #[test]
    fn the_link_s_zoom_and_view_are_kept() {
        let f = first_picture(
            "?expr=Sw<3,4,3>%20o%200%20o%20(8,64):(64,1)&view=swizzle&zoom=0.5",
            false,
            1000.0,
            700.0,
        )
        .unwrap();
        let full = first_picture(
            "?expr=Sw<3,4,3>%20o%200%20o%20(8,64):(64,1)&view=swizzle&zoom=0.25",
            false,
            1000.0,
            700.0,
        )
        .unwrap();
        assert!(f.svg.contains("swizzle") || f.svg.contains("Sw<3,4,3>"));
        assert!(
            (f.width - 2.0 * full.width).abs() <= 1.0,
            "{} {}",
            f.width,
            full.width
        );
    }
}
