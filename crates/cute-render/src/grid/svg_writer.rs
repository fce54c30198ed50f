//! The SVG writer: a [`Figure`] as one SVG document ([`Figure::to_svg`]).

use super::figure::{Cell, Data, Figure, Mark, Panel, Theme, DIM_OPACITY_CSS};
use super::geometry::{
    header_labels, label, row_stride, Frame, Metrics, Slots, LINE_OFFSET, MARGIN,
};
use crate::limits::CELL_HARD_CAP;
use std::borrow::Cow;
use std::fmt::Write as _;
use svg::node::element::{Group, Rectangle, Style, Text, Title};
use svg::node::Blob;
use svg::Document;

/// How much of a figure [`Figure::to_svg_with`] spells out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Everything: each cell a `<g class="cell" data-*>` with its rect and text.
    Full,
    /// The same picture without cell text: fills as one path per colour, grid lines, a
    /// transparent hit rectangle per panel, and hidden one-cell outlines
    /// (`rect.focus`, `rect.pin`) for the page to place on the hovered and pinned cell.
    /// How the page draws big figures: browsers paint a few paths fast, but every SVG text
    /// node costs ~30 µs of style and layout, so the page paints [`Figure::labels`] of the
    /// cells in view on a canvas above the drawing (~1 µs each).
    Fills,
}

/// Monospace first; DejaVu Sans Mono is what PNG export finds on Debian.
pub const FONT: &str =
    "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace";

impl Figure {
    /// Render to an SVG document string: the whole, self-contained picture (every cell's
    /// text where the figure has cell text). What export and the `render` CLI write.
    pub fn to_svg(&self, theme: Theme) -> String {
        self.to_svg_with(theme, Detail::Full)
    }

    /// Render to an SVG document string at a level of detail: [`Detail::Fills`] writes the
    /// same picture, at the same coordinates, without cell text, for [`Figure::labels`]
    /// to fill in where the cells are on screen and legible.
    ///
    /// ```
    /// use cute_render::{grid::Detail, render_figure, Options, Theme};
    /// let f = render_figure("(64,64):(64,1)", &Options::default()).unwrap();
    /// let svg = f.to_svg_with(Theme::Light, Detail::Fills);
    /// assert_eq!(svg.matches("class=\"hit\"").count(), 1);
    /// assert!(!svg.contains(">4095<"));
    /// assert!(f.to_svg(Theme::Light).contains(">4095<"));
    /// ```
    pub fn to_svg_with(&self, theme: Theme, detail: Detail) -> String {
        let m = self.metrics();
        let slots = self.slots(&m);
        let Frame {
            width,
            height,
            legend_y,
            legend_at,
            notes_y,
        } = self.frame(&slots);
        let Slots { col_x, row_y, .. } = slots;

        let mut doc = Document::new()
            .set("xmlns", "http://www.w3.org/2000/svg")
            .set("width", width)
            .set("height", height)
            .set("viewBox", (0, 0, width, height))
            .set("class", "cute-view")
            .set("data-view", self.view.name())
            .add(Title::new(self.title.clone()))
            .add(Style::new(format!(
                "text{{font-family:{FONT};}} .cell rect{{stroke:#00000038;stroke-width:0.5}} \
                 .cell text{{font-size:11px;text-anchor:middle;dominant-baseline:central}} \
                 .cell.dim rect,.run.dim{{opacity:{DIM_OPACITY_CSS}}} .cell.dim text{{fill:{f}}} \
                 .cell.conflict rect,.run.conflict{{stroke:#d00000;stroke-width:2}} \
                 .hdr{{font-size:10px;fill:{m}}} .plabel{{font-size:12px;font-weight:bold;fill:{f}}}{fills}",
                m = theme.muted(),
                f = theme.foreground(),
                fills = if detail == Detail::Fills && self.cell_text {
                    " .focus,.pin{pointer-events:none} \
                     .gridlines{stroke:#00000038;stroke-width:0.5;fill:none}"
                } else {
                    ""
                }
            )))
            .add(self.background(width, height, theme, detail, &m, &col_x, &row_y))
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
            doc = doc.add(self.panel_svg(p, col_x[*c], row_y[*r], &m, theme, detail));
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
        for ((fill, label), (x, line)) in self.legend.iter().zip(legend_at) {
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

    /// The page's colour behind everything. In [`Detail::Fills`] it has a hole over each
    /// lazy panel's grid, where the page paints [`Figure::pixels`] on a canvas under the
    /// drawing; the grid lines, frame and outlines stay above it.
    #[allow(clippy::too_many_arguments)]
    fn background(
        &self,
        width: usize,
        height: usize,
        theme: Theme,
        detail: Detail,
        m: &Metrics,
        col_x: &[usize],
        row_y: &[usize],
    ) -> Box<dyn svg::Node> {
        if detail != Detail::Fills || !self.is_lazy() {
            return Box::new(
                Rectangle::new()
                    .set("width", width)
                    .set("height", height)
                    .set("fill", theme.background()),
            );
        }
        let mut d = format!("M0 0H{width}V{height}H0z");
        for (p, (c, r)) in self.panels.iter().filter(|(p, _)| p.source.is_some()) {
            let (gx, gy) = p.grid_origin(col_x[*c], row_y[*r], m, self.cell_text);
            let (w, h) = (p.cols * m.cell_w, p.rows * m.cell_h);
            let _ = write!(d, "M{gx} {gy}h{w}v{h}h-{w}z");
        }
        Box::new(
            svg::node::element::Path::new()
                .set("class", "bg")
                .set("d", d)
                .set("fill", theme.background())
                .set("fill-rule", "evenodd"),
        )
    }

    fn panel_svg(
        &self,
        p: &Panel,
        x0: usize,
        y0: usize,
        m: &Metrics,
        theme: Theme,
        detail: Detail,
    ) -> Group {
        let (grid_x, grid_y) = p.grid_origin(x0, y0, m, self.cell_text);
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
        // A lazy grid's thousands of headers are the page's to paint, those in view
        // (Figure::headers): as SVG text they cost more than everything else.
        if !(detail == Detail::Fills && p.source.is_some()) {
            let (rstep, cstep) = if self.cell_text {
                (1, 1)
            } else {
                (row_stride(p.rows), row_stride(p.cols))
            };
            let b = (grid_x, grid_y, cw, ch);
            for h in header_labels(p, b, 0..p.rows, 0..p.cols, (rstep, cstep)) {
                headers = headers.add(
                    Text::new(h.text)
                        .set("class", "hdr")
                        .set("x", h.x)
                        .set("y", h.y)
                        .set("text-anchor", if h.end { "end" } else { "middle" }),
                );
            }
        }
        g = g.add(headers);
        let cells =
            Group::new()
                .set("class", "cells")
                .add(Blob::new(match (self.cell_text, detail) {
                    // Too big for a cell element each: fills only.
                    (true, Detail::Full)
                        if p.source.is_some() && p.rows * p.cols > CELL_HARD_CAP =>
                    {
                        let mut out = write_runs(p, grid_x, grid_y, cw, ch, true);
                        write_hit(&mut out, p, grid_x, grid_y, cw, ch);
                        out
                    }
                    (true, Detail::Full) => write_cells(p, grid_x, grid_y, cw, ch),
                    (true, Detail::Fills) => {
                        // A lazy panel's fills are the page's to paint (Figure::pixels).
                        let mut out = match p.source {
                            Some(_) => String::new(),
                            None => write_runs(p, grid_x, grid_y, cw, ch, false),
                        };
                        write_grid_lines(&mut out, p, grid_x, grid_y, cw, ch);
                        write_outlines(&mut out, grid_x, grid_y, cw, ch);
                        write_hit(&mut out, p, grid_x, grid_y, cw, ch);
                        out
                    }
                    (false, _) => {
                        let mut out = write_runs(p, grid_x, grid_y, cw, ch, true);
                        write_hit(&mut out, p, grid_x, grid_y, cw, ch);
                        out
                    }
                }));
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
        let g = g.add(lines).add(
            Rectangle::new()
                .set("x", grid_x)
                .set("y", grid_y)
                .set("width", p.cols * cw)
                .set("height", p.rows * ch)
                .set("fill", "none")
                .set("stroke", theme.foreground())
                .set("stroke-width", "1.5"),
        );
        if p.marks.is_empty() {
            return g;
        }
        g.add(Blob::new(write_marks(p, grid_x, grid_y, cw, ch, theme)))
    }
}

/// A panel's [`Mark`]s: outlines first, then arrows (a line, a filled head and a label on
/// the page's colour, so it reads over any cell).
fn write_marks(p: &Panel, gx: usize, gy: usize, cw: usize, ch: usize, theme: Theme) -> String {
    let mut out = String::from("<g class=\"marks\" pointer-events=\"none\">");
    let at = |(r, c): (f64, f64)| (gx as f64 + c * cw as f64, gy as f64 + r * ch as f64);
    for m in &p.marks {
        if let Mark::Outline {
            row,
            col,
            rows,
            cols,
            colour,
            width,
        } = m
        {
            out.push_str("<rect class=\"outline\" fill=\"none\" stroke=\"");
            escape(&mut out, colour);
            let _ = write!(
                out,
                "\" stroke-width=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                Tenths(f64::from(*width), true),
                gx + col * cw,
                gy + row * ch,
                cols * cw,
                rows * ch
            );
        }
    }
    for m in &p.marks {
        if let Mark::Label { at: centre, text } = m {
            let (x, y) = at(*centre);
            let _ = write!(
                out,
                "<text class=\"mlabel\" x=\"{}\" y=\"{}\" style=\"font-size:10px\" text-anchor=\"middle\" dominant-baseline=\"central\">",
                Tenths(x, false),
                Tenths(y, false)
            );
            escape(&mut out, text);
            out.push_str("</text>");
        }
    }
    for m in &p.marks {
        if let Mark::Arrow {
            from,
            to,
            colour,
            label,
        } = m
        {
            let ((x0, y0), (x1, y1)) = (at(*from), at(*to));
            let (dx, dy) = (x1 - x0, y1 - y0);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (ux, uy) = (dx / len, dy / len);
            // The head: 10 px long, 8 px wide; the line stops at its base.
            let (bx, by) = (x1 - 10.0 * ux, y1 - 10.0 * uy);
            out.push_str("<g class=\"arrow\" stroke=\"");
            escape(&mut out, colour);
            out.push_str("\" fill=\"");
            escape(&mut out, colour);
            let _ = write!(
                out,
                "\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke-width=\"2.5\"/>\
                 <path stroke=\"none\" d=\"M{} {}L{} {}L{} {}z\"/>",
                Tenths(x0, false),
                Tenths(y0, false),
                Tenths(bx, false),
                Tenths(by, false),
                Tenths(x1, false),
                Tenths(y1, false),
                Tenths(bx - 4.0 * uy, false),
                Tenths(by + 4.0 * ux, false),
                Tenths(bx + 4.0 * uy, false),
                Tenths(by - 4.0 * ux, false)
            );
            // Beside the line, not on it: to its right going down, above it going across.
            let (px, py) = (uy, -ux);
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" stroke=\"{}\" stroke-width=\"3\" paint-order=\"stroke\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"{}\" dominant-baseline=\"central\">",
                Tenths((x0 + x1) / 2.0 + 8.0 * px, false),
                Tenths((y0 + y1) / 2.0 + 10.0 * py, false),
                theme.background(),
                if px > 0.3 { "start" } else if px < -0.3 { "end" } else { "middle" }
            );
            escape(&mut out, label);
            out.push_str("</text></g>");
        }
    }
    out.push_str("</g>");
    out
}

/// A length in px to one decimal, as `{:.1}` writes it (ties to even), or without a `.0`
/// (`trim`: as `{}` writes 2.0 and 1.5): by integers, so the first picture's module carries
/// no float formatting.
struct Tenths(f64, bool);

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A float to int cast saturates (and NaN is 0): no overflow for any input.
        let t = (self.0 * 10.0).round_ties_even() as i64;
        let sign = if t < 0 { "-" } else { "" };
        let t = t.unsigned_abs();
        if self.1 && t.is_multiple_of(10) {
            write!(f, "{sign}{}", t / 10)
        } else {
            write!(f, "{sign}{}.{}", t / 10, t % 10)
        }
    }
}

/// `s` with XML's special characters escaped (text and attribute values).
pub(super) fn escape(out: &mut String, s: &str) {
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

/// The cells of a panel as SVG markup. Cells are the bulk of every picture, so they are
/// written directly into one string — with every text and attribute escaped — instead of as
/// one `svg` crate node each, which is ~5x slower. A cell is
/// `<g class="cell" data-*><rect/><text/></g>`.
fn write_cells(p: &Panel, gx: usize, gy: usize, cw: usize, ch: usize) -> String {
    let n = p.rows * p.cols;
    let mut out = String::with_capacity(n * 200);
    for k in 0..n {
        let (r, c) = (k / p.cols.max(1), k % p.cols.max(1));
        // Held, or computed (a lazy grid, exported whole).
        let Some(cell) = p.cell(r, c) else {
            break;
        };
        let (x, y) = (gx + c * cw, gy + r * ch);
        out.push_str("<g class=\"cell");
        if !cell.class.is_empty() {
            out.push(' ');
            escape(&mut out, &cell.class);
        }
        out.push('"');
        write_data(&mut out, &cell.data);
        let _ = write!(
            out,
            "><rect x=\"{x}\" y=\"{y}\" width=\"{cw}\" height=\"{ch}\" fill=\""
        );
        escape(&mut out, &cell.fill);
        out.push_str("\"/>");
        write_label(&mut out, &cell, x + cw / 2, y + ch / 2);
        out.push_str("</g>\n");
    }
    out
}

/// A cell's `data-*` attributes, escaped (the SVG's and the HTML table's cells alike).
pub(super) fn write_data(out: &mut String, data: &super::figure::DataList) {
    for (name, value) in data {
        match value {
            Data::Int(v) => {
                let _ = write!(out, " data-{name}=\"{v}\"");
            }
            Data::Text(t) => {
                let _ = write!(out, " data-{name}=\"");
                escape(out, t);
                out.push('"');
            }
        }
    }
}

/// A cell's text as SVG (inside its cell's group, which carries the classes).
fn write_label(out: &mut String, cell: &Cell, tx: usize, ty: usize) {
    let text = Cow::Borrowed(cell.text.as_str());
    let Some(l) = label(text, &cell.fill, &cell.class, tx, ty) else {
        return;
    };
    let _ = write!(out, "<text x=\"{tx}\" y=\"{ty}\" fill=\"{}\">", l.fill);
    match l.second {
        None => escape(out, &l.text),
        Some(b) => {
            let d = LINE_OFFSET as usize;
            let _ = write!(out, "<tspan x=\"{tx}\" y=\"{}\">", ty - d);
            escape(out, &l.text);
            let _ = write!(out, "</tspan><tspan x=\"{tx}\" y=\"{}\">", ty + d);
            escape(out, &b);
            out.push_str("</tspan>");
        }
    }
    out.push_str("</text>");
}

/// Thin lines between the cells of a panel: one path (what each cell's rect stroke draws
/// in [`Detail::Full`]).
fn write_grid_lines(out: &mut String, p: &Panel, gx: usize, gy: usize, cw: usize, ch: usize) {
    let (w, h) = (p.cols * cw, p.rows * ch);
    out.push_str("<path class=\"gridlines\" d=\"");
    for r in 1..p.rows {
        let _ = write!(out, "M{gx} {}h{w}", gy + r * ch);
    }
    for c in 1..p.cols {
        let _ = write!(out, "M{} {gy}v{h}", gx + c * cw);
    }
    out.push_str("\"/>\n");
}

/// Outlines the page moves to the hovered and the pinned cell.
fn write_outlines(out: &mut String, gx: usize, gy: usize, cw: usize, ch: usize) {
    for class in ["focus", "pin"] {
        let _ = writeln!(
            out,
            "<rect class=\"{class}\" x=\"{gx}\" y=\"{gy}\" width=\"{cw}\" height=\"{ch}\" fill=\"none\" visibility=\"hidden\"/>"
        );
    }
}

/// The transparent rectangle over a panel's grid that takes the pointer where cells are
/// paths: the page finds the cell from the position and [`Figure::cell_data_at`].
fn write_hit(out: &mut String, p: &Panel, gx: usize, gy: usize, cw: usize, ch: usize) {
    let _ = writeln!(
        out,
        "<rect class=\"hit\" x=\"{gx}\" y=\"{gy}\" width=\"{}\" height=\"{}\" fill=\"#000\" fill-opacity=\"0\"/>",
        p.cols.max(1) * cw,
        p.rows * ch
    );
}

/// Cell fills as one `<path class="run">` per (fill, class), each cell a subpath;
/// horizontal neighbours of the same colour are merged, and with `merge_marked` also those
/// with classes (an overview: a conflict outline then frames the run, not each cell).
/// Browsers parse, lay out and paint a few paths in milliseconds where 65,536 cell elements
/// take half a second.
fn write_runs(p: &Panel, gx: usize, gy: usize, cw: usize, ch: usize, merge_marked: bool) -> String {
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
    for i in 0..p.rows * p.cols {
        let (r, c) = (i / cols, i % cols);
        // Held or computed, without building the cell.
        let Some(key) = p.paint(r, c) else {
            break;
        };
        let k = match keys.iter().position(|x| *x == key) {
            Some(k) => k,
            None => {
                keys.push(key);
                paths.push(String::new());
                keys.len() - 1
            }
        };
        run = match run {
            Some((rk, rr, c0, n))
                if rk == k && rr == r && c0 + n == c && (merge_marked || key.1.is_empty()) =>
            {
                Some((rk, rr, c0, n + 1))
            }
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
    out
}
