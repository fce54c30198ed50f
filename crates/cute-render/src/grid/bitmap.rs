//! Pixels: the fills of a panel computed on demand, one pixel a cell, for the page to paint
//! under a [`super::Detail::Fills`] drawing.

use super::figure::{rgba, Figure};

impl Figure {
    /// The fills of a lazy panel ([`Panel::source`]) as RGBA bytes, one pixel per cell,
    /// row-major: what the page paints under a [`super::Detail::Fills`] drawing, which leaves
    /// such panels' cells empty. `None` for held panels (their fills are in the SVG).
    pub fn pixels(&self, index: usize) -> Option<Vec<u8>> {
        let (p, _) = self.panels.get(index)?;
        let src = p.source.as_ref()?;
        let mut out = vec![0u8; p.rows * p.cols * 4];
        let colours: Vec<[u8; 4]> = src.palette.iter().map(|f| rgba(f)).collect();
        let white = rgba("#ffffff");
        // In 64x64 tiles: sources keep cells in column-major order, the bitmap is
        // row-major, and walking the whole of either across the other is cache-hostile.
        const TILE: usize = 64;
        for r0 in (0..p.rows).step_by(TILE) {
            for c0 in (0..p.cols).step_by(TILE) {
                for c in c0..(c0 + TILE).min(p.cols) {
                    for r in r0..(r0 + TILE).min(p.rows) {
                        let v = colours.get((src.fill)(r, c)).unwrap_or(&white);
                        let k = 4 * (r * p.cols + c);
                        out[k..k + 4].copy_from_slice(v);
                    }
                }
            }
        }
        Some(out)
    }
}
