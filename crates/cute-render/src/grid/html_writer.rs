//! A text figure as an HTML table: the kernel view's report, whose cells are sentences, not
//! numbers. The page shows it as a table that wraps to the stage's width (a laptop at 100%,
//! a phone), each row's cells the SVG's cells with the same classes and `data-*`
//! attributes, so hovering and opening a row work alike; the SVG stays the export.

use super::figure::{text_on, Figure};
use super::svg_writer::{escape, write_data};
use crate::view::View;
use std::fmt::Write;

impl Figure {
    /// The figure as an HTML table, for the views whose cells are text (the kernel view);
    /// `None` for a picture.
    pub fn to_html_table(&self) -> Option<String> {
        if self.view != View::Kernel {
            return None;
        }
        let mut out = String::with_capacity(4096);
        let _ = write!(
            out,
            "<div class=\"text-figure\" data-view=\"{}\">",
            self.view.name()
        );
        out.push_str("<h2>");
        escape(&mut out, &self.title);
        out.push_str("</h2><p class=\"subtitle\">");
        escape(&mut out, &self.subtitle);
        out.push_str("</p>");
        for (p, _) in &self.panels {
            out.push_str("<table class=\"panel\" id=\"panel-");
            escape(&mut out, &p.id);
            out.push_str("\" data-panel=\"");
            escape(&mut out, &p.id);
            out.push_str("\"><caption>");
            escape(&mut out, &p.label);
            out.push_str("</caption><thead><tr><th scope=\"col\">#</th>");
            for h in &p.col_headers {
                out.push_str("<th scope=\"col\">");
                escape(&mut out, h);
                out.push_str("</th>");
            }
            out.push_str("</tr></thead><tbody>");
            for r in 0..p.rows {
                out.push_str("<tr><th scope=\"row\">");
                escape(&mut out, p.row_headers.get(r).map_or("", String::as_str));
                out.push_str("</th>");
                for c in 0..p.cols {
                    let Some(cell) = p.cell(r, c) else { break };
                    out.push_str("<td class=\"cell");
                    if !cell.class.is_empty() {
                        out.push(' ');
                        escape(&mut out, &cell.class);
                    }
                    out.push('"');
                    write_data(&mut out, &cell.data);
                    out.push_str(" style=\"background:");
                    escape(&mut out, &cell.fill);
                    let _ = write!(out, ";color:{}\">", text_on(&cell.fill));
                    escape(&mut out, &cell.text);
                    out.push_str("</td>");
                }
                out.push_str("</tr>");
            }
            out.push_str("</tbody></table>");
        }
        if !self.legend.is_empty() {
            out.push_str("<p class=\"legend\">");
            escape(&mut out, &self.legend_title);
            for (fill, name) in &self.legend {
                out.push_str(" <span class=\"swatch\" style=\"background:");
                escape(&mut out, fill);
                out.push_str("\"></span> ");
                escape(&mut out, name);
            }
            out.push_str("</p>");
        }
        out.push_str("</div>");
        Some(out)
    }
}
