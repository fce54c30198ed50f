//! The one SVG writer. Every view builds a [`Figure`]: a title, panels of cells placed in
//! slots of a grid (side by side, A left of C, B above C, ...), a legend and notes. Only this
//! module emits SVG (with the `svg` crate, which escapes all text and attribute values).
//!
//! Stable hooks for the page: the root has `class="cute-view"` and `data-view`; each panel
//! is `<g class="panel" id="panel-ID" data-panel="ID">`; each cell is
//! `<g class="cell ..." data-...>` holding a `rect` and (unless in overview) a `text`.

use std::fmt::Write as _;
use svg::node::element::{Group, Rectangle, Style, Text, Title};
use svg::node::Blob;
use svg::Document;

/// One cell: its label (one or two lines), fill, extra classes, and the `data-*`
/// attributes the page reads on hover.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Cell {
    /// Text drawn in the cell; a `\n` splits two lines.
    pub text: String,
    /// Fill colour (CSS).
    pub fill: String,
    /// Extra classes (`conflict`, `dim`, `empty`, ...), space-separated.
    pub class: String,
    /// `data-NAME="VALUE"` attributes.
    pub data: Vec<(&'static str, Data)>,
}

/// A `data-*` value: mostly integers, which are written without an allocation each.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// An integer.
    Int(i64),
    /// Text.
    Text(String),
}

impl From<i64> for Data {
    fn from(v: i64) -> Data {
        Data::Int(v)
    }
}
impl From<usize> for Data {
    fn from(v: usize) -> Data {
        Data::Int(v as i64)
    }
}
impl From<u64> for Data {
    fn from(v: u64) -> Data {
        Data::Int(v as i64)
    }
}
impl From<String> for Data {
    fn from(v: String) -> Data {
        Data::Text(v)
    }
}

impl Data {
    /// The value as it appears in the attribute.
    pub fn text(&self) -> String {
        match self {
            Data::Int(v) => v.to_string(),
            Data::Text(s) => s.clone(),
        }
    }
}

/// A grid of cells with row and column headers and a caption.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Panel {
    /// Stable id (`layout`, `before`, `after`, `bits`, `A`, `B`, `C`, `S`, `D`, `i0`, ...,
    /// `ranking`; the algebra view's operands `A`, `B`, tiler modes `B0`, `B1`, ..., and
    /// `result`).
    pub id: String,
    /// Caption drawn above the panel (may be empty).
    pub label: String,
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
    /// Thicker lines after these columns / rows (hierarchical mode boundaries).
    pub col_breaks: Vec<usize>,
    /// Thicker lines after these rows.
    pub row_breaks: Vec<usize>,
}

/// A whole picture.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Figure {
    /// The view's name (`layout`, `swizzle`, `tv`, `mma`, `copy`, `banks`, `search`,
    /// `algebra`: [`crate::View::name`]).
    pub view: &'static str,
    /// Title line (the expression).
    pub title: String,
    /// Subtitle (what the cells show).
    pub subtitle: String,
    /// Panels and their (column, row) slot.
    pub panels: Vec<(Panel, (usize, usize))>,
    /// What the legend shows, drawn before its entries.
    pub legend_title: String,
    /// Legend entries: (fill, label).
    pub legend: Vec<(String, String)>,
    /// Lines drawn under the legend (summaries, overview notices).
    pub notes: Vec<String>,
    /// Draw per-cell text (false: an overview of coloured cells only).
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
            Theme::Light => "#5f5f5f",
            Theme::Dark => "#a0a0a0",
        }
    }
}

/// Monospace first; DejaVu Sans Mono is what PNG export finds on Debian.
const FONT: &str = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace";
const MARGIN: usize = 16;
const TITLE_H: usize = 46;
const GAP: usize = 28;
const LABEL_H: usize = 20;
const CHAR_W: usize = 7;

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

/// Sizes shared by every panel of a figure.
struct Metrics {
    cell_w: usize,
    cell_h: usize,
}

impl Panel {
    fn header_w(&self, m: &Metrics, cell_text: bool) -> usize {
        let every = if cell_text { 1 } else { row_stride(self.rows) };
        self.row_headers
            .iter()
            .step_by(every.max(1))
            .map(|h| text_width(h, CHAR_W) + 12)
            .max()
            .unwrap_or(0)
            .max(if m.cell_w > 0 { 24 } else { 0 })
    }
    fn header_h(&self, cell_text: bool) -> usize {
        if self.col_headers.is_empty() {
            4
        } else if cell_text {
            22
        } else {
            16
        }
    }
    fn size(&self, m: &Metrics, cell_text: bool) -> (usize, usize) {
        let label_h = if self.label.is_empty() { 0 } else { LABEL_H };
        // The caption starts above the grid, right of the row headers.
        let header_w = self.header_w(m, cell_text);
        let w = header_w + (self.cols * m.cell_w).max(text_width(&self.label, 8));
        let h = label_h + self.header_h(cell_text) + self.rows * m.cell_h;
        (w, h)
    }
}

/// Headers in overviews: one label every so many rows/columns.
fn row_stride(n: usize) -> usize {
    (n / 16).max(1).next_power_of_two()
}

impl Figure {
    fn metrics(&self) -> Metrics {
        if self.cell_text {
            let mut widest = 1;
            let mut two_lines = false;
            let mut widest_header = 0;
            for (p, _) in &self.panels {
                for c in &p.cells {
                    for (k, line) in c.text.split('\n').enumerate() {
                        widest = widest.max(line.chars().count());
                        two_lines |= k > 0;
                    }
                }
                for h in &p.col_headers {
                    widest_header = widest_header.max(h.chars().count());
                }
            }
            Metrics {
                cell_w: (widest * 7 + 12).max(widest_header * 6 + 8).max(26),
                cell_h: if two_lines { 34 } else { 24 },
            }
        } else {
            let cols = self.panels.iter().map(|(p, _)| p.cols).max().unwrap_or(1);
            let w = (2048 / cols.max(1)).clamp(2, 24);
            Metrics {
                cell_w: w,
                cell_h: w,
            }
        }
    }

    /// The `data-*` attributes (names without `data-`) of the cell at `row`, `col` of the
    /// panel `panel_id`, as the SVG writes them; how the page inspects overview cells,
    /// which are drawn as paths without per-cell attributes.
    ///
    /// ```
    /// use cute_render::{render_figure, Options};
    /// let f = render_figure("(256,256):(256,1)", &Options::default()).unwrap();
    /// let d = f.cell_data_at("layout", 3, 5).unwrap();
    /// assert!(d.contains(&("offset".to_string(), (3 * 256 + 5).to_string())));
    /// assert!(f.cell_data_at("layout", 256, 0).is_none());
    /// ```
    pub fn cell_data_at(
        &self,
        panel_id: &str,
        row: usize,
        col: usize,
    ) -> Option<Vec<(String, String)>> {
        let (p, _) = self.panels.iter().find(|(p, _)| p.id == panel_id)?;
        if row >= p.rows || col >= p.cols {
            return None;
        }
        let cell = p.cells.get(row * p.cols + col)?;
        Some(
            cell.data
                .iter()
                .map(|(k, v)| (k.to_string(), v.text()))
                .collect(),
        )
    }

    /// Render to an SVG document string.
    pub fn to_svg(&self, theme: Theme) -> String {
        let m = self.metrics();
        // Slot grid: column widths and row heights.
        let ncols = self
            .panels
            .iter()
            .map(|(_, (c, _))| c + 1)
            .max()
            .unwrap_or(0);
        let nrows = self
            .panels
            .iter()
            .map(|(_, (_, r))| r + 1)
            .max()
            .unwrap_or(0);
        let mut col_w = vec![0; ncols];
        let mut row_h = vec![0; nrows];
        for (p, (c, r)) in &self.panels {
            let (w, h) = p.size(&m, self.cell_text);
            col_w[*c] = col_w[*c].max(w);
            row_h[*r] = row_h[*r].max(h);
        }
        let col_x: Vec<usize> = col_w
            .iter()
            .scan(MARGIN, |x, w| {
                let here = *x;
                *x += w + GAP;
                Some(here)
            })
            .collect();
        let row_y: Vec<usize> = row_h
            .iter()
            .scan(MARGIN + TITLE_H, |y, h| {
                let here = *y;
                *y += h + GAP;
                Some(here)
            })
            .collect();
        let body_w = col_w.iter().sum::<usize>() + GAP * ncols.saturating_sub(1);
        let body_h = row_h.iter().sum::<usize>() + GAP * nrows.saturating_sub(1);
        let legend_y = MARGIN + TITLE_H + body_h + 14;
        let legend_title_w = text_width(&self.legend_title, CHAR_W) + 10;
        // The legend wraps onto several lines when it is wider than the figure.
        let min_w = (MARGIN * 2 + body_w)
            .max(MARGIN * 2 + text_width(&self.title, 9))
            .max(MARGIN * 2 + text_width(&self.subtitle, CHAR_W))
            .max(
                self.notes
                    .iter()
                    .map(|n| MARGIN * 2 + text_width(n, CHAR_W))
                    .max()
                    .unwrap_or(0),
            )
            .max(360);
        let mut legend_lines = 1;
        let mut lx = MARGIN + legend_title_w;
        let mut placed = Vec::new();
        for (_, label) in &self.legend {
            let w = text_width(label, CHAR_W) + 30;
            if lx + w > min_w - MARGIN && lx > MARGIN + legend_title_w {
                legend_lines += 1;
                lx = MARGIN + legend_title_w;
            }
            placed.push((lx, legend_lines - 1));
            lx += w;
        }
        let legend_h = if self.legend.is_empty() && self.legend_title.is_empty() {
            0
        } else {
            20 * legend_lines + 4
        };
        let notes_y = legend_y + legend_h;
        let width = min_w;
        let height = notes_y + 18 * self.notes.len() + MARGIN;

        let mut doc = Document::new()
            .set("xmlns", "http://www.w3.org/2000/svg")
            .set("width", width)
            .set("height", height)
            .set("viewBox", (0, 0, width, height))
            .set("class", "cute-view")
            .set("data-view", self.view)
            .add(Title::new(self.title.clone()))
            .add(Style::new(format!(
                "text{{font-family:{FONT};}} .cell rect{{stroke:#00000038;stroke-width:0.5}} \
                 .cell text{{font-size:11px;text-anchor:middle;dominant-baseline:central}} \
                 .cell.dim,.run.dim{{opacity:0.22}} .cell.conflict rect,.run.conflict{{stroke:#d00000;stroke-width:2}} \
                 .hdr{{font-size:10px;fill:{m}}} .plabel{{font-size:12px;font-weight:bold;fill:{f}}}",
                m = theme.muted(),
                f = theme.foreground()
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
                    .set("y", MARGIN + 35)
                    .set("font-size", 11)
                    .set("fill", theme.muted())
                    .set("class", "subtitle"),
            );
        for (p, (c, r)) in &self.panels {
            doc = doc.add(self.panel_svg(p, col_x[*c], row_y[*r], &m, theme));
        }

        let mut legend = Group::new().set("class", "legend");
        if !self.legend_title.is_empty() {
            legend = legend.add(
                Text::new(self.legend_title.clone())
                    .set("x", MARGIN)
                    .set("y", legend_y + 11)
                    .set("font-size", 11)
                    .set("fill", theme.muted()),
            );
        }
        for ((fill, label), (x, line)) in self.legend.iter().zip(placed) {
            let y = legend_y + 20 * line;
            legend = legend
                .add(
                    Rectangle::new()
                        .set("x", x)
                        .set("y", y)
                        .set("width", 14)
                        .set("height", 14)
                        .set("fill", fill.clone())
                        .set("stroke", theme.muted()),
                )
                .add(
                    Text::new(label.clone())
                        .set("x", x + 19)
                        .set("y", y + 11)
                        .set("font-size", 11)
                        .set("fill", theme.foreground()),
                );
        }
        doc = doc.add(legend);
        let mut notes = Group::new().set("class", "notes");
        for (k, n) in self.notes.iter().enumerate() {
            notes = notes.add(
                Text::new(n.clone())
                    .set("x", MARGIN)
                    .set("y", notes_y + 18 * k + 12)
                    .set("font-size", 11)
                    .set("fill", theme.foreground())
                    .set("class", "note"),
            );
        }
        doc.add(notes).to_string()
    }

    fn panel_svg(&self, p: &Panel, x0: usize, y0: usize, m: &Metrics, theme: Theme) -> Group {
        let header_w = p.header_w(m, self.cell_text);
        let label_h = if p.label.is_empty() { 0 } else { LABEL_H };
        let grid_x = x0 + header_w;
        let grid_y = y0 + label_h + p.header_h(self.cell_text);
        let (cw, ch) = (m.cell_w, m.cell_h);
        let mut g = Group::new()
            .set("class", "panel")
            .set("id", format!("panel-{}", p.id))
            .set("data-panel", p.id.clone())
            .set("data-rows", p.rows)
            .set("data-cols", p.cols);
        if !p.label.is_empty() {
            g = g.add(
                Text::new(p.label.clone())
                    .set("class", "plabel")
                    .set("x", grid_x)
                    .set("y", y0 + 13),
            );
        }
        let mut headers = Group::new().set("class", "headers");
        let rstep = if self.cell_text {
            1
        } else {
            row_stride(p.rows)
        };
        for (r, h) in p.row_headers.iter().enumerate().step_by(rstep) {
            headers = headers.add(
                Text::new(h.clone())
                    .set("class", "hdr")
                    .set("x", grid_x - 6)
                    .set("y", grid_y + r * ch + ch / 2 + 4)
                    .set("text-anchor", "end"),
            );
        }
        let cstep = if self.cell_text {
            1
        } else {
            row_stride(p.cols)
        };
        for (c, h) in p.col_headers.iter().enumerate().step_by(cstep) {
            headers = headers.add(
                Text::new(h.clone())
                    .set("class", "hdr")
                    .set("x", grid_x + c * cw + cw / 2)
                    .set("y", grid_y - 7)
                    .set("text-anchor", "middle"),
            );
        }
        g = g.add(headers);
        let cells = Group::new()
            .set("class", "cells")
            .add(Blob::new(write_cells(
                p,
                grid_x,
                grid_y,
                cw,
                ch,
                self.cell_text,
            )));
        g = g.add(cells);
        // Mode boundaries, then the frame.
        let mut lines = Group::new().set("class", "breaks");
        for &c in &p.col_breaks {
            lines = lines.add(
                Rectangle::new()
                    .set("x", grid_x + c * cw)
                    .set("y", grid_y)
                    .set("width", 1)
                    .set("height", p.rows * ch)
                    .set("fill", theme.foreground()),
            );
        }
        for &r in &p.row_breaks {
            lines = lines.add(
                Rectangle::new()
                    .set("x", grid_x)
                    .set("y", grid_y + r * ch)
                    .set("width", p.cols * cw)
                    .set("height", 1)
                    .set("fill", theme.foreground()),
            );
        }
        g.add(lines).add(
            Rectangle::new()
                .set("x", grid_x)
                .set("y", grid_y)
                .set("width", p.cols * cw)
                .set("height", p.rows * ch)
                .set("fill", "none")
                .set("stroke", theme.foreground())
                .set("stroke-width", 1.5),
        )
    }
}

/// `s` with XML's special characters escaped (text and attribute values).
fn escape(out: &mut String, s: &str) {
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
}

/// The cells of a panel as SVG markup. Cells are the bulk of every picture (65,536 of them
/// in a 256x256 overview), so they are written directly into one string — with every text
/// and attribute escaped — instead of as one `svg` crate node each, which is ~5x slower.
/// With text, a cell is `<g class="cell" data-*><rect/><text/></g>`; in an overview it is
/// a single `<rect class="cell" data-*/>`.
fn write_cells(p: &Panel, gx: usize, gy: usize, cw: usize, ch: usize, text: bool) -> String {
    if !text {
        return write_runs(p, gx, gy, cw, ch);
    }
    let mut out = String::with_capacity(p.cells.len() * 200);
    for (k, cell) in p.cells.iter().enumerate() {
        let (r, c) = (k / p.cols.max(1), k % p.cols.max(1));
        let (x, y) = (gx + c * cw, gy + r * ch);
        out.push_str("<g class=\"cell");
        if !cell.class.is_empty() {
            out.push(' ');
            escape(&mut out, &cell.class);
        }
        out.push('"');
        for (name, value) in &cell.data {
            match value {
                Data::Int(v) => {
                    let _ = write!(out, " data-{name}=\"{v}\"");
                }
                Data::Text(t) => {
                    let _ = write!(out, " data-{name}=\"");
                    escape(&mut out, t);
                    out.push('"');
                }
            }
        }
        let _ = write!(
            out,
            "><rect x=\"{x}\" y=\"{y}\" width=\"{cw}\" height=\"{ch}\" fill=\""
        );
        escape(&mut out, &cell.fill);
        out.push_str("\"/>");
        if !cell.text.is_empty() {
            let (tx, ty) = (x + cw / 2, y + ch / 2);
            let fg = text_on(&cell.fill);
            match cell.text.split_once('\n') {
                None => {
                    let _ = write!(out, "<text x=\"{tx}\" y=\"{ty}\" fill=\"{fg}\">");
                    escape(&mut out, &cell.text);
                    out.push_str("</text>");
                }
                Some((a, b)) => {
                    let _ = write!(
                        out,
                        "<text x=\"{tx}\" y=\"{ty}\" fill=\"{fg}\"><tspan x=\"{tx}\" y=\"{}\">",
                        ty - 7
                    );
                    escape(&mut out, a);
                    let _ = write!(out, "</tspan><tspan x=\"{tx}\" y=\"{}\">", ty + 7);
                    escape(&mut out, b);
                    out.push_str("</tspan></text>");
                }
            }
        }
        out.push_str("</g>\n");
    }
    out
}

/// An overview's cells: one `<path class="run">` per (fill, class), each cell a subpath
/// (horizontal neighbours of the same colour merged), then one transparent
/// `<rect class="hit">` over the grid. Browsers parse, lay out and paint a few paths
/// in milliseconds where 65,536 cell elements take half a second; the page finds the cell
/// under the pointer from the hit rectangle and [`Figure::cell_data_at`].
fn write_runs(p: &Panel, gx: usize, gy: usize, cw: usize, ch: usize) -> String {
    let cols = p.cols.max(1);
    let mut keys: Vec<(&str, &str)> = Vec::new();
    let mut paths: Vec<String> = Vec::new();
    let mut run: Option<(usize, usize, usize, usize)> = None; // (key, row, first col, len)
    let flush = |run: Option<(usize, usize, usize, usize)>, paths: &mut Vec<String>| {
        if let Some((k, r, c0, n)) = run {
            let _ = write!(
                paths[k],
                "M{} {}h{}v{ch}h-{}z",
                gx + c0 * cw,
                gy + r * ch,
                n * cw,
                n * cw
            );
        }
    };
    for (i, cell) in p.cells.iter().enumerate() {
        let (r, c) = (i / cols, i % cols);
        let key = (cell.fill.as_str(), cell.class.as_str());
        let k = match keys.iter().position(|x| *x == key) {
            Some(k) => k,
            None => {
                keys.push(key);
                paths.push(String::new());
                keys.len() - 1
            }
        };
        run = match run {
            Some((rk, rr, c0, n)) if rk == k && rr == r && c0 + n == c => Some((rk, rr, c0, n + 1)),
            prev => {
                flush(prev, &mut paths);
                Some((k, r, c, 1))
            }
        };
    }
    flush(run, &mut paths);
    let mut out = String::with_capacity(paths.iter().map(|d| d.len() + 60).sum::<usize>() + 200);
    for ((fill, class), d) in keys.iter().zip(&paths) {
        out.push_str("<path class=\"run");
        if !class.is_empty() {
            out.push(' ');
            escape(&mut out, class);
        }
        out.push_str("\" fill=\"");
        escape(&mut out, fill);
        let _ = writeln!(out, "\" d=\"{d}\"/>");
    }
    let _ = writeln!(
        out,
        "<rect class=\"hit\" x=\"{gx}\" y=\"{gy}\" width=\"{}\" height=\"{}\" fill=\"#000\" fill-opacity=\"0\"/>",
        cols * cw,
        p.rows * ch
    );
    out
}
