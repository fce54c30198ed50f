//! The one SVG writer: a titled grid of cells with row/column headers, a legend and an
//! optional note. Every view builds a [`Grid`]; only this module emits SVG (with the `svg`
//! crate, which escapes all text and attribute values).

use svg::node::element::{Group, Rectangle, Style, Text, Title};
use svg::Document;

/// One cell: its label, fill, and the `data-*` attributes the page reads on hover.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Text drawn in the cell (empty in overviews).
    pub text: String,
    /// Fill colour (CSS).
    pub fill: String,
    /// `data-NAME="VALUE"` attributes.
    pub data: Vec<(&'static str, String)>,
}

/// A drawable grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// Title line (the expression).
    pub title: String,
    /// Subtitle (what the cells show).
    pub subtitle: String,
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// One label per row.
    pub row_headers: Vec<String>,
    /// One label per column.
    pub col_headers: Vec<String>,
    /// `rows * cols` cells, row-major.
    pub cells: Vec<Cell>,
    /// What the legend shows, drawn before its entries.
    pub legend_title: String,
    /// Legend entries: (fill, label).
    pub legend: Vec<(String, String)>,
    /// A note drawn under the grid (e.g. that per-cell text was left out).
    pub note: Option<String>,
    /// Draw per-cell text.
    pub cell_text: bool,
}

/// Colours of the page around the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    /// Dark text on white.
    Light,
    /// Light text on near-black.
    Dark,
}

impl Theme {
    fn background(self) -> &'static str {
        match self {
            Theme::Light => "#ffffff",
            Theme::Dark => "#16181b",
        }
    }
    fn foreground(self) -> &'static str {
        match self {
            Theme::Light => "#1c1c1c",
            Theme::Dark => "#e6e6e6",
        }
    }
    fn muted(self) -> &'static str {
        match self {
            Theme::Light => "#6b6b6b",
            Theme::Dark => "#9a9a9a",
        }
    }
}

const FONT: &str = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace";
const MARGIN: usize = 16;
const TITLE_H: usize = 44;
const CELL_H: usize = 24;

/// Whether black or white text reads better on `fill` (`#rrggbb`).
pub fn text_on(fill: &str) -> &'static str {
    let hex = fill.trim_start_matches('#');
    let c =
        |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("ff"), 16).unwrap_or(255) as f64;
    let luma = 0.2126 * c(0) + 0.7152 * c(2) + 0.0722 * c(4);
    if luma < 128.0 {
        "#ffffff"
    } else {
        "#000000"
    }
}

fn text_width(s: &str, px_per_char: usize) -> usize {
    s.chars().count() * px_per_char
}

impl Grid {
    /// Render to an SVG document string.
    pub fn to_svg(&self, theme: Theme) -> String {
        let cell_w = if self.cell_text {
            let widest = self
                .cells
                .iter()
                .map(|c| c.text.chars().count())
                .max()
                .unwrap_or(1);
            // Column headers (10px text) must not run into each other either.
            let widest_header = self
                .col_headers
                .iter()
                .map(|h| h.chars().count())
                .max()
                .unwrap_or(0);
            (widest * 8 + 12).max(widest_header * 6 + 8).max(28)
        } else {
            (4096 / self.cols.max(1)).clamp(2, 28)
        };
        let cell_h = if self.cell_text {
            CELL_H
        } else {
            cell_w.min(CELL_H)
        };
        let header_w = self
            .row_headers
            .iter()
            .map(|h| text_width(h, 7) + 12)
            .max()
            .unwrap_or(0)
            .max(24);
        let show_col_headers = self.cell_text;
        let header_h = if show_col_headers { 22 } else { 6 };
        let grid_x = MARGIN + header_w;
        let grid_y = MARGIN + TITLE_H + header_h;
        let grid_w = cell_w * self.cols;
        let grid_h = cell_h * self.rows;
        let legend_y = grid_y + grid_h + 18;
        let legend_h = if self.legend.is_empty() { 0 } else { 22 };
        let note_h = if self.note.is_some() { 20 } else { 0 };
        let legend_title_w = text_width(&self.legend_title, 7) + 10;
        let legend_w: usize = legend_title_w
            + self
                .legend
                .iter()
                .map(|(_, l)| text_width(l, 7) + 34)
                .sum::<usize>();
        let width = (grid_x + grid_w + MARGIN)
            .max(MARGIN * 2 + text_width(&self.title, 8))
            .max(MARGIN * 2 + legend_w);
        let height = legend_y + legend_h + note_h + MARGIN;

        let mut doc = Document::new()
            .set("xmlns", "http://www.w3.org/2000/svg")
            .set("width", width)
            .set("height", height)
            .set("viewBox", (0, 0, width, height))
            .set("class", "cute-view")
            .add(Title::new(self.title.clone()))
            .add(Style::new(format!(
                "text{{font-family:{FONT};}} .cell rect{{stroke:#00000040;stroke-width:0.5}} \
                 .cell text{{font-size:11px;text-anchor:middle;dominant-baseline:central}} \
                 .hdr{{font-size:10px;fill:{m}}}",
                m = theme.muted()
            )))
            .add(
                Rectangle::new()
                    .set("width", width)
                    .set("height", height)
                    .set("fill", theme.background()),
            )
            .add(
                Text::new(self.title.clone())
                    .set("x", MARGIN)
                    .set("y", MARGIN + 16)
                    .set("font-size", 15)
                    .set("font-weight", "bold")
                    .set("fill", theme.foreground())
                    .set("class", "title"),
            )
            .add(
                Text::new(self.subtitle.clone())
                    .set("x", MARGIN)
                    .set("y", MARGIN + 34)
                    .set("font-size", 11)
                    .set("fill", theme.muted())
                    .set("class", "subtitle"),
            );

        let mut headers = Group::new().set("class", "headers");
        for (r, h) in self.row_headers.iter().enumerate() {
            if self.cell_text || r % 16 == 0 {
                headers = headers.add(
                    Text::new(h.clone())
                        .set("class", "hdr")
                        .set("x", grid_x - 6)
                        .set("y", grid_y + r * cell_h + cell_h / 2 + 4)
                        .set("text-anchor", "end"),
                );
            }
        }
        if show_col_headers {
            for (c, h) in self.col_headers.iter().enumerate() {
                headers = headers.add(
                    Text::new(h.clone())
                        .set("class", "hdr")
                        .set("x", grid_x + c * cell_w + cell_w / 2)
                        .set("y", grid_y - 7)
                        .set("text-anchor", "middle"),
                );
            }
        }
        doc = doc.add(headers);

        let mut cells = Group::new().set("class", "cells");
        for (k, cell) in self.cells.iter().enumerate() {
            let (r, c) = (k / self.cols.max(1), k % self.cols.max(1));
            let (x, y) = (grid_x + c * cell_w, grid_y + r * cell_h);
            let mut g = Group::new().set("class", "cell");
            for (name, value) in &cell.data {
                g = g.set(format!("data-{name}"), value.clone());
            }
            g = g.add(
                Rectangle::new()
                    .set("x", x)
                    .set("y", y)
                    .set("width", cell_w)
                    .set("height", cell_h)
                    .set("fill", cell.fill.clone()),
            );
            if self.cell_text {
                g = g.add(
                    Text::new(cell.text.clone())
                        .set("x", x + cell_w / 2)
                        .set("y", y + cell_h / 2)
                        .set("fill", text_on(&cell.fill)),
                );
            }
            cells = cells.add(g);
        }
        doc = doc.add(cells).add(
            Rectangle::new()
                .set("x", grid_x)
                .set("y", grid_y)
                .set("width", grid_w)
                .set("height", grid_h)
                .set("fill", "none")
                .set("stroke", theme.foreground())
                .set("stroke-width", 1.5),
        );

        let mut legend = Group::new().set("class", "legend").add(
            Text::new(self.legend_title.clone())
                .set("x", MARGIN)
                .set("y", legend_y + 11)
                .set("font-size", 11)
                .set("fill", theme.muted()),
        );
        let mut x = MARGIN + legend_title_w;
        for (fill, label) in &self.legend {
            legend = legend
                .add(
                    Rectangle::new()
                        .set("x", x)
                        .set("y", legend_y)
                        .set("width", 14)
                        .set("height", 14)
                        .set("fill", fill.clone())
                        .set("stroke", theme.muted()),
                )
                .add(
                    Text::new(label.clone())
                        .set("x", x + 20)
                        .set("y", legend_y + 11)
                        .set("font-size", 11)
                        .set("fill", theme.foreground()),
                );
            x += text_width(label, 7) + 34;
        }
        doc = doc.add(legend);
        if let Some(note) = &self.note {
            doc = doc.add(
                Text::new(note.clone())
                    .set("x", MARGIN)
                    .set("y", legend_y + legend_h + 14)
                    .set("font-size", 11)
                    .set("fill", theme.muted())
                    .set("class", "note"),
            );
        }
        doc.to_string()
    }
}
