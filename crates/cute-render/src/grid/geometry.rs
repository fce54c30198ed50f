//! Where everything lies: cell sizes, panel slots and boxes, the frame around them, and
//! the cell and header labels as placed in the picture. The SVG writer and the page read
//! the same numbers.

use super::figure::{text_on, Figure, Panel, Theme};
use std::borrow::Cow;

/// Where a panel's grid of cells lies in the SVG ([`Figure::panel_boxes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanelBox {
    /// The panel's index in [`Figure::panels`].
    pub index: usize,
    /// The panel's id.
    pub id: String,
    /// Left edge of the first column.
    pub x: usize,
    /// Top edge of the first row.
    pub y: usize,
    /// Cell width.
    pub cell_w: usize,
    /// Cell height.
    pub cell_h: usize,
    /// Rows of cells.
    pub rows: usize,
    /// Columns of cells.
    pub cols: usize,
}

pub(super) struct Slots {
    pub col_x: Vec<usize>,
    pub row_y: Vec<usize>,
    pub col_w: Vec<usize>,
    pub row_h: Vec<usize>,
}

pub(super) const MARGIN: usize = 16;
const TITLE_H: usize = 46;
const GAP: usize = 28;
const LABEL_H: usize = 20;
const CHAR_W: usize = 7;

pub(super) fn text_width(s: &str, px_per_char: usize) -> usize {
    s.chars().count() * px_per_char
}

/// Sizes shared by every panel of a figure.
pub(super) struct Metrics {
    pub cell_w: usize,
    pub cell_h: usize,
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
    /// Top-left corner of the grid of cells for a panel placed at (`x0`, `y0`).
    pub(super) fn grid_origin(
        &self,
        x0: usize,
        y0: usize,
        m: &Metrics,
        cell_text: bool,
    ) -> (usize, usize) {
        let label_h = if self.label.is_empty() { 0 } else { LABEL_H };
        (
            x0 + self.header_w(m, cell_text),
            y0 + label_h + self.header_h(cell_text),
        )
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
pub(super) fn row_stride(n: usize) -> usize {
    (n / 16).max(1).next_power_of_two()
}

impl Figure {
    pub(super) fn metrics(&self) -> Metrics {
        if self.cell_text {
            let mut widest = 1;
            let mut two_lines = false;
            let mut widest_header = 0;
            for (p, _) in &self.panels {
                if let Some(src) = &p.source {
                    widest = widest.max(src.widest);
                }
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

    /// Slot grid: the x of each slot column and the y of each slot row, and their sizes.
    pub(super) fn slots(&self, m: &Metrics) -> Slots {
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
            let (w, h) = p.size(m, self.cell_text);
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
        Slots {
            col_x,
            row_y,
            col_w,
            row_h,
        }
    }

    /// Where each panel's grid of cells lies in the SVG's coordinates, in panel order: what
    /// the page needs to find the cells in view (and the cell under the pointer).
    ///
    /// ```
    /// use cute_render::{render_figure, Options};
    /// let f = render_figure("(4,8):(8,1)", &Options::default()).unwrap();
    /// let b = &f.panel_boxes()[0];
    /// assert_eq!((b.id.as_str(), b.rows, b.cols), ("layout", 4, 8));
    /// assert!(b.cell_w > 0 && b.cell_h > 0);
    /// ```
    pub fn panel_boxes(&self) -> Vec<PanelBox> {
        let m = self.metrics();
        let slots = self.slots(&m);
        self.panels
            .iter()
            .enumerate()
            .map(|(index, (p, (c, r)))| {
                let (gx, gy) = p.grid_origin(slots.col_x[*c], slots.row_y[*r], &m, self.cell_text);
                PanelBox {
                    index,
                    id: p.id.clone(),
                    x: gx,
                    y: gy,
                    cell_w: m.cell_w,
                    cell_h: m.cell_h,
                    rows: p.rows,
                    cols: p.cols,
                }
            })
            .collect()
    }
}

/// The picture around the panels: its size, and where the legend and the notes go.
pub(super) struct Frame {
    /// The picture's width.
    pub width: usize,
    /// The picture's height.
    pub height: usize,
    /// Top of the legend.
    pub legend_y: usize,
    /// Each legend entry's x and line (the legend wraps when wider than the figure).
    pub legend_at: Vec<(usize, usize)>,
    /// Top of the notes.
    pub notes_y: usize,
}

impl Figure {
    /// The frame around panels placed in `slots`.
    pub(super) fn frame(&self, slots: &Slots) -> Frame {
        let Slots { col_w, row_h, .. } = slots;
        let (ncols, nrows) = (col_w.len(), row_h.len());
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
        let mut legend_at = Vec::new();
        for (_, label) in &self.legend {
            let w = text_width(label, CHAR_W) + 30;
            if lx + w > min_w - MARGIN && lx > MARGIN + legend_title_w {
                legend_lines += 1;
                lx = MARGIN + legend_title_w;
            }
            legend_at.push((lx, legend_lines - 1));
            lx += w;
        }
        let legend_h = if self.legend.is_empty() && self.legend_title.is_empty() {
            0
        } else {
            20 * legend_lines + 4
        };
        let notes_y = legend_y + legend_h;
        Frame {
            width: min_w,
            height: notes_y + 18 * self.notes.len() + MARGIN,
            legend_y,
            legend_at,
            notes_y,
        }
    }

    /// The picture's width and height: the SVG's `width` and `height` (its size at zoom
    /// 1), the same at every level of detail.
    ///
    /// ```
    /// use cute_render::{render_figure, Options, Theme};
    /// let f = render_figure("(4,8):(8,1)", &Options::default()).unwrap();
    /// let (w, h) = f.size();
    /// let svg = f.to_svg(Theme::Light);
    /// assert!(svg.contains(&format!(" height=\"{h}\" viewBox=\"0 0 {w} {h}\" width=\"{w}\"")));
    /// ```
    pub fn size(&self) -> (usize, usize) {
        let m = self.metrics();
        let f = self.frame(&self.slots(&m));
        (f.width, f.height)
    }
}

/// A cell's text as placed in the picture ([`Figure::labels`]): centred at (`x`, `y`), one
/// line or two (7 px above and below the centre), in the colour that reads on the cell's
/// fill, dimmed (opacity 0.22) where the cell is.
#[derive(Clone, Debug, PartialEq)]
pub struct Label<'a> {
    /// Centre x.
    pub x: usize,
    /// Centre y.
    pub y: usize,
    /// The first line.
    pub text: Cow<'a, str>,
    /// The second line, if any.
    pub second: Option<Cow<'a, str>>,
    /// Text colour (CSS).
    pub fill: &'static str,
    /// Its cell is dimmed (one the highlight leaves out): the fill is drawn faint, the text
    /// in the page's own colour at full strength ([`Label::ink`]).
    pub dim: bool,
}

impl Label<'_> {
    /// The text's colour on `theme`'s page: the page's text colour on a dimmed cell (it
    /// reads on every faint fill), else black or white for the fill.
    pub fn ink(&self, theme: Theme) -> &'static str {
        if self.dim {
            theme.foreground()
        } else {
            self.fill
        }
    }
}

/// The offset of each line of a label from its centre: one line at the centre, two 7 px
/// above and below.
pub const LINE_OFFSET: i32 = 7;

/// A cell's text placed with its centre at (`x`, `y`), in the colour that reads on `fill`,
/// dimmed where `class` says so; `None` without text. Held and computed cells alike.
pub(super) fn label<'a>(
    text: Cow<'a, str>,
    fill: &str,
    class: &str,
    x: usize,
    y: usize,
) -> Option<Label<'a>> {
    if text.is_empty() {
        return None;
    }
    let (text, second) = match text.find('\n') {
        None => (text, None),
        Some(k) => match text {
            Cow::Borrowed(t) => (Cow::Borrowed(&t[..k]), Some(Cow::Borrowed(&t[k + 1..]))),
            Cow::Owned(mut t) => {
                let b = t.split_off(k + 1);
                t.truncate(k);
                (Cow::Owned(t), Some(Cow::Owned(b)))
            }
        },
    };
    Some(Label {
        x,
        y,
        text,
        second,
        fill: text_on(fill),
        dim: class.split(' ').any(|c| c == "dim"),
    })
}

impl Figure {
    /// The text of the cells in `rows` x `cols` (clamped) of the panel `b` (one of
    /// [`Figure::panel_boxes`], which the caller keeps: computing them reads every cell),
    /// placed as [`super::Detail::Full`] draws it: what the page paints over a [`super::Detail::Fills`]
    /// drawing for the cells in view. Empty when the figure has no cell text.
    ///
    /// ```
    /// use cute_render::{render_figure, Options};
    /// let f = render_figure("(64,64):(64,1)", &Options::default()).unwrap();
    /// let boxes = f.panel_boxes();
    /// let l = f.labels(&boxes[0], 2..3, 5..7);
    /// let texts: Vec<&str> = l.iter().map(|l| l.text.as_ref()).collect();
    /// assert_eq!(texts, ["133", "134"]);
    /// assert_eq!(l[1].x - l[0].x, boxes[0].cell_w);
    /// ```
    pub fn labels(
        &self,
        b: &PanelBox,
        rows: std::ops::Range<usize>,
        cols: std::ops::Range<usize>,
    ) -> Vec<Label<'_>> {
        let Some((p, _)) = self.panels.get(b.index) else {
            return Vec::new();
        };
        if !self.cell_text {
            return Vec::new();
        }
        let rows = rows.start.min(p.rows)..rows.end.min(p.rows);
        let cols = cols.start.min(p.cols)..cols.end.min(p.cols);
        let mut out = Vec::with_capacity(rows.len() * cols.len());
        for r in rows {
            for c in cols.clone() {
                let (Some(text), Some((fill, class))) = (p.text(r, c), p.paint(r, c)) else {
                    continue;
                };
                let (x, y) = (
                    b.x + c * b.cell_w + b.cell_w / 2,
                    b.y + r * b.cell_h + b.cell_h / 2,
                );
                out.extend(label(text, fill, class, x, y));
            }
        }
        out
    }
}

/// A row or column header as placed in the picture: its text's baseline at `y`, ending at
/// `x` (row headers, `end`) or centred on it (column headers); 10 px, the theme's
/// [`Theme::muted`] colour.
#[derive(Clone, Debug, PartialEq)]
pub struct HeaderLabel<'a> {
    /// Right end (row headers) or centre (column headers).
    pub x: usize,
    /// Baseline.
    pub y: usize,
    /// The text.
    pub text: &'a str,
    /// Right-aligned (a row header) rather than centred.
    pub end: bool,
}

/// The headers of `rows` and `cols` (clamped) of a panel whose grid is at (`gx`, `gy`)
/// with `cw` x `ch` cells, every `step.0`-th row and `step.1`-th column (counted from 0).
pub(super) fn header_labels<'a>(
    p: &'a Panel,
    (gx, gy, cw, ch): (usize, usize, usize, usize),
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
    (rstep, cstep): (usize, usize),
) -> impl Iterator<Item = HeaderLabel<'a>> {
    let first = |start: usize, step: usize| start.div_ceil(step.max(1)) * step.max(1);
    let rows = first(rows.start, rstep)..rows.end.min(p.row_headers.len());
    let cols = first(cols.start, cstep)..cols.end.min(p.col_headers.len());
    let row_h = rows.step_by(rstep.max(1)).map(move |r| HeaderLabel {
        x: gx.saturating_sub(6),
        y: gy + r * ch + ch / 2 + 4,
        text: &p.row_headers[r],
        end: true,
    });
    let col_h = cols.step_by(cstep.max(1)).map(move |c| HeaderLabel {
        x: gx + c * cw + cw / 2,
        y: gy.saturating_sub(7),
        text: &p.col_headers[c],
        end: false,
    });
    row_h.chain(col_h)
}

impl Figure {
    /// The row headers of `rows` and the column headers of `cols` of the panel `b`, every
    /// `step`-th (the page thins them out when zoomed out), placed as the SVG places them:
    /// what the page paints for a lazy grid, whose [`super::Detail::Fills`] drawing leaves them out.
    ///
    /// ```
    /// use cute_render::{render_figure, Options};
    /// let f = render_figure("(4,8):(8,1)", &Options::default()).unwrap();
    /// let b = &f.panel_boxes()[0];
    /// let h: Vec<&str> = f.headers(b, 1..3, 6..20, 1).iter().map(|h| h.text).collect();
    /// assert_eq!(h, ["1", "2", "6", "7"]);
    /// ```
    pub fn headers(
        &self,
        b: &PanelBox,
        rows: std::ops::Range<usize>,
        cols: std::ops::Range<usize>,
        step: usize,
    ) -> Vec<HeaderLabel<'_>> {
        let Some((p, _)) = self.panels.get(b.index) else {
            return Vec::new();
        };
        header_labels(p, (b.x, b.y, b.cell_w, b.cell_h), rows, cols, (step, step)).collect()
    }
}
