//! The page's whole state and its URL query form.
//!
//! Every parameter is readable text (`?expr=Sw<3,4,3> o 0 o (8,64):(64,1)&view=swizzle`),
//! only non-default values are written, and unknown or malformed values are ignored with a
//! notice rather than trusted: URL parameters are user input.

use cute_render::{Highlight, Labels, Options, Palette, Theme, View};

/// The expression drawn on first load: the seeds' 8x32 tile of 16-bit elements under
/// CuTe's `Sw<3,2,3>`, as `render layout.svg` draws it.
pub const DEFAULT_EXPR: &str = "composition(Sw<3,2,3>, (8,32):(32,1))";

/// Element widths (bits) the page offers: the menu and the `bits` parameter's check.
pub const ELEMENT_BITS: [u32; 5] = [8, 16, 32, 64, 128];

/// What a palette's menu entry says (an exhaustive match: a new palette must get a label).
pub fn palette_label(p: Palette) -> &'static str {
    match p {
        Palette::Cute => "CuTe",
        Palette::ColorBlind => "colour-blind safe",
    }
}

/// `a, b or c`, for notices that list the accepted values.
///
/// ```
/// assert_eq!(cute_web::state::one_of(["8", "16", "32"]), "8, 16 or 32");
/// ```
pub fn one_of<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> String {
    let names: Vec<S> = names.into_iter().collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.as_ref().to_string(),
        Some((last, rest)) => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} or {}", rest.join(", "), last.as_ref())
        }
    }
}

/// Light, dark, or whatever the system prefers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThemeChoice {
    /// Follow `prefers-color-scheme`.
    Auto,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl ThemeChoice {
    /// Every choice, in menu order.
    pub const ALL: [ThemeChoice; 3] = [ThemeChoice::Auto, ThemeChoice::Light, ThemeChoice::Dark];

    /// The URL spelling.
    pub fn name(self) -> &'static str {
        match self {
            ThemeChoice::Auto => "auto",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
        }
    }

    /// What the menu says.
    pub fn label(self) -> &'static str {
        match self {
            ThemeChoice::Auto => "system",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
        }
    }

    /// Parse the URL spelling ([`ThemeChoice::name`]).
    pub fn parse(s: &str) -> Option<Self> {
        ThemeChoice::ALL.into_iter().find(|t| t.name() == s)
    }

    /// The renderer's theme, given whether the system prefers dark.
    pub fn resolve(self, system_dark: bool) -> Theme {
        match self {
            ThemeChoice::Light => Theme::Light,
            ThemeChoice::Dark => Theme::Dark,
            ThemeChoice::Auto if system_dark => Theme::Dark,
            ThemeChoice::Auto => Theme::Light,
        }
    }
}

/// Editor or form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Free text: the spec's language, multi-line scripts with bindings.
    Editor,
    /// Fields for the common cases; they write the expression.
    Form,
}

/// How a state change enters the browser's history ([`State::history`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum History {
    /// A new entry (Back returns to the state before).
    Push,
    /// The current entry rewritten.
    Replace,
}

/// Why the state changed, for its history entry ([`State::step`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Cause {
    /// The user's edit, classified by what it changed ([`State::history`]).
    #[default]
    Edit,
    /// A discrete choice (a preset, a row that opens another expression): always its own
    /// entry, whatever it changed, and the end of any burst of typing.
    Commit,
    /// The page following a value (a preset's view given up for the automatic one): it adds
    /// no entry of its own, the change it follows decides.
    Follow,
}

/// Everything the page shows, as the URL carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The expression or script (`expr`).
    pub expr: String,
    /// The renderer's options: `view`, `palette`, `bits` (`elem_bits`), `bit`
    /// (`bit_offset`), `hl=t5`/`hl=w1` (`highlight`), `warp`.
    pub opts: Options,
    /// Light/dark (`theme`).
    pub theme: ThemeChoice,
    /// Editor or form (`mode`).
    pub mode: Mode,
    /// Zoom factor of the drawing (`zoom`), 1 = natural size.
    pub zoom: f64,
    /// The form's fields (`f.*` parameters), kept so a shared form link reopens the form.
    pub form: crate::form::Form,
    /// The pinned cell (`pin=PANEL:ROW:COL`): a shared link opens with it in the inspector.
    pub pin: Option<Pin>,
    /// The other tabs (`tab=NAME` before each tab's `expr` and `view`, `active=NAME`) and
    /// the compare mode (`cmp=NAME`).
    pub tabs: crate::tabs::Tabs,
}

/// A pinned cell: the panel's id, row and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    pub panel: String,
    pub row: usize,
    pub col: usize,
}

impl Pin {
    /// `PANEL:ROW:COL`, the panel an id of the renderer's (letters, digits, `_`, `-`).
    ///
    /// ```
    /// use cute_web::state::Pin;
    /// assert_eq!(Pin::parse("after:1:0"), Some(Pin { panel: "after".into(), row: 1, col: 0 }));
    /// assert_eq!(Pin::parse("after:1"), None);
    /// assert_eq!(Pin::parse("<x>:1:0"), None);
    /// ```
    pub fn parse(v: &str) -> Option<Pin> {
        let mut parts = v.split(':');
        let (panel, row, col) = (parts.next()?, parts.next()?, parts.next()?);
        let id_ok = (1..=32).contains(&panel.len())
            && panel
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let (row, col) = (row.parse().ok()?, col.parse().ok()?);
        (id_ok && parts.next().is_none() && row < 1 << 20 && col < 1 << 20).then(|| Pin {
            panel: panel.to_string(),
            row,
            col,
        })
    }
}

impl std::fmt::Display for Pin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.panel, self.row, self.col)
    }
}

impl Default for State {
    fn default() -> Self {
        State {
            expr: DEFAULT_EXPR.to_string(),
            opts: Options {
                cell_text_cap: CELL_HARD_CAP,
                ..Options::default()
            },
            theme: ThemeChoice::Auto,
            mode: Mode::Editor,
            zoom: 1.0,
            form: crate::form::Form::default(),
            pin: None,
            tabs: crate::tabs::Tabs::default(),
        }
    }
}

// The page paints only the labels in view (grid::Detail::Fills), so it keeps cell text up
// to the renderer's hard cap.
const CELL_HARD_CAP: usize = cute_render::views::CELL_HARD_CAP;

/// Zoom limits: 1% fits a 1024x1024 grid on a screen, above 800% a cell fills the screen.
pub const ZOOM_MIN: f64 = 0.01;
/// See [`ZOOM_MIN`].
pub const ZOOM_MAX: f64 = 8.0;

/// A zoom as the page keeps it: within [`ZOOM_MIN`]..=[`ZOOM_MAX`], to four significant
/// digits, so that the URL (which writes it in full) opens exactly it again.
///
/// ```
/// use cute_web::state::zoom_of;
/// assert_eq!(zoom_of(0.5 * 1.25), 0.625);
/// assert_eq!(zoom_of(0.623456789), 0.6235);
/// assert_eq!(zoom_of(100.0), 8.0);
/// assert_eq!(zoom_of(f64::NAN), 1.0);
/// ```
pub fn zoom_of(z: f64) -> f64 {
    if !z.is_finite() {
        return 1.0;
    }
    let z = z.clamp(ZOOM_MIN, ZOOM_MAX);
    let scale = 10f64.powi(3 - z.log10().floor() as i32);
    ((z * scale).round() / scale).clamp(ZOOM_MIN, ZOOM_MAX)
}
/// Longest `expr` accepted from a URL (the core's own line cap applies per line too).
pub const MAX_EXPR_CHARS: usize = 100_000;

impl State {
    /// Read a query string (with or without the leading `?`). Returns the state and one
    /// notice per parameter that was ignored.
    ///
    /// ```
    /// use cute_web::state::State;
    /// let (s, notes) = State::from_query("?expr=Sw%3C3,4,3%3E%20o%200%20o%20(8,64):(64,1)&view=swizzle");
    /// assert_eq!(s.expr, "Sw<3,4,3> o 0 o (8,64):(64,1)");
    /// assert_eq!(s.opts.view, cute_render::View::Swizzle);
    /// assert!(notes.is_empty());
    /// ```
    pub fn from_query(query: &str) -> (State, Vec<String>) {
        let query = query.strip_prefix('?').unwrap_or(query);
        let mut s = State::default();
        let mut notes = Vec::new();
        let mut bad = |k: &str, v: &str, why: &str| {
            let shown: String = v.chars().take(40).collect();
            notes.push(format!("ignored URL parameter {k}={shown:?}: {why}"));
        };
        let mut tabs = crate::tabs::TabsQuery::default();
        for (k, v) in form_urlencoded::parse(query.as_bytes()) {
            let (k, v) = (k.as_ref(), v.as_ref());
            match tabs.read(&mut s, k, v) {
                Some(Ok(())) => continue,
                Some(Err(why)) => {
                    bad(k, v, why);
                    continue;
                }
                None => {}
            }
            let o = &mut s.opts;
            match k {
                "labels" => match Labels::parse(v) {
                    Some(l) => o.labels = l,
                    None => bad(k, v, &expected(Labels::ALL.iter().map(|l| l.name()))),
                },
                "expr" if v.chars().count() > MAX_EXPR_CHARS => {
                    bad(k, v, "longer than 100000 characters")
                }
                "expr" => s.expr = v.to_string(),
                "view" => match View::parse(v) {
                    Some(view) => o.view = view,
                    None => bad(k, v, "not a view name"),
                },
                "palette" => match Palette::parse(v) {
                    Some(p) => o.palette = p,
                    None => bad(k, v, &expected(Palette::ALL.iter().map(|p| p.name()))),
                },
                "theme" => match ThemeChoice::parse(v) {
                    Some(t) => s.theme = t,
                    None => bad(k, v, &expected(ThemeChoice::ALL.map(ThemeChoice::name))),
                },
                "bits" => match v.parse::<u32>() {
                    Ok(b) if ELEMENT_BITS.contains(&b) => o.elem_bits = b,
                    _ => bad(k, v, &expected(ELEMENT_BITS.map(|b| b.to_string()))),
                },
                "bit" => match v.parse::<i64>() {
                    Ok(b) if b >= 0 => o.bit_offset = Some(b),
                    _ => bad(k, v, "expected an offset >= 0"),
                },
                "hl" => match parse_highlight(v) {
                    Some(h) => o.highlight = Some(h),
                    None => bad(k, v, "expected t<thread> or w<warp>"),
                },
                "warp" => match v.parse::<u32>() {
                    Ok(w) if w < 1 << 16 => o.warp = w,
                    _ => bad(k, v, "expected a warp index"),
                },
                "mode" => match v {
                    "form" => s.mode = Mode::Form,
                    "editor" => s.mode = Mode::Editor,
                    _ => bad(k, v, "expected editor or form"),
                },
                "pin" => match Pin::parse(v) {
                    Some(p) => s.pin = Some(p),
                    None => bad(k, v, "expected PANEL:ROW:COL"),
                },
                "zoom" => match v.parse::<f64>() {
                    Ok(z) if z.is_finite() && (ZOOM_MIN..=ZOOM_MAX).contains(&z) => {
                        s.zoom = zoom_of(z)
                    }
                    _ => bad(k, v, "expected a number from 0.01 to 8"),
                },
                _ if k.starts_with("f.") => {
                    if let Err(why) = s.form.set(&k[2..], v) {
                        bad(k, v, &why);
                    }
                }
                _ => bad(k, v, "unknown parameter"),
            }
        }
        tabs.finish(&mut s, &mut notes);
        (s, notes)
    }

    /// The query string (with `?`, or empty) that restores this state; defaults left out.
    ///
    /// ```
    /// use cute_web::state::State;
    /// let mut s = State::default();
    /// s.expr = "(8,8):(8,1)".into();
    /// s.opts.view = cute_render::View::Layout;
    /// assert_eq!(s.to_query(), "?expr=(8,8):(8,1)&view=layout");
    /// assert_eq!(State::from_query(&s.to_query()).0, s);
    /// ```
    pub fn to_query(&self) -> String {
        let d = State::default();
        let (o, od) = (&self.opts, &d.opts);
        let mut q = Query::default();
        self.add_tabs_query(&mut q);
        if o.labels != od.labels {
            q.add("labels", o.labels.name());
        }
        if o.palette != od.palette {
            q.add("palette", o.palette.name());
        }
        if self.theme != d.theme {
            q.add("theme", self.theme.name());
        }
        if o.elem_bits != od.elem_bits {
            q.add("bits", &o.elem_bits.to_string());
        }
        if let Some(b) = o.bit_offset {
            q.add("bit", &b.to_string());
        }
        match o.highlight {
            Some(Highlight::Thread(t)) => q.add("hl", &format!("t{t}")),
            Some(Highlight::Warp(w)) => q.add("hl", &format!("w{w}")),
            None => {}
        }
        if o.warp != od.warp {
            q.add("warp", &o.warp.to_string());
        }
        if self.mode == Mode::Form {
            q.add("mode", "form");
            for (k, v) in self.form.params() {
                q.add(&format!("f.{k}"), &v);
            }
        }
        if let Some(p) = &self.pin {
            q.add("pin", &p.to_string());
        }
        if self.zoom != d.zoom {
            // In full: the shortest decimal that reads back as this zoom.
            q.add("zoom", &self.zoom.to_string());
        }
        q.finish()
    }

    /// How the change from `self` to `new` enters the browser's history, given its cause:
    /// a commit is a new entry; the view the page follows is not a change of its own, so
    /// Back never returns to an entry whose view the page would change again (a pushed
    /// entry there would wipe Forward at every Back).
    ///
    /// ```
    /// use cute_web::state::{Cause, History, State};
    /// use cute_render::View;
    /// let s = State::default();
    /// let typed = State { expr: "8:1".into(), ..s.clone() };
    /// // A preset that only changes the text is still its own entry, even mid-typing.
    /// assert_eq!(s.step(&typed, true, Cause::Commit), History::Push);
    /// // The view given up after typing goes into the typing's entry.
    /// let mut followed = typed.clone();
    /// followed.opts.view = View::Swizzle;
    /// assert_eq!(typed.step(&followed, false, Cause::Follow), History::Replace);
    /// assert_eq!(s.step(&followed, true, Cause::Follow), History::Replace);
    /// assert_eq!(s.step(&followed, false, Cause::Follow), History::Push);
    /// ```
    pub fn step(&self, new: &State, burst: bool, cause: Cause) -> History {
        match cause {
            Cause::Edit => self.history(new, burst),
            Cause::Commit => History::Push,
            Cause::Follow => {
                let mut unfollowed = new.clone();
                unfollowed.opts.view = self.opts.view;
                self.history(&unfollowed, burst)
            }
        }
    }

    /// How the change from `self` to `new` enters the browser's history. Typing (the
    /// editor's text, a form field with the expression it writes, the highlight and warp
    /// numbers) and zooming replace the current entry; any other change (a preset, a menu,
    /// a tab) is a committed edit, a new entry. `burst`: the previous change was typing,
    /// moments ago; the first change of a burst of typing pushes, so Back returns to the
    /// text before it.
    ///
    /// ```
    /// use cute_web::state::{History, Mode, State};
    /// let s = State::default();
    /// let typed = State { expr: "8:1".into(), ..s.clone() };
    /// assert_eq!(s.history(&typed, false), History::Push);
    /// assert_eq!(s.history(&typed, true), History::Replace);
    /// let tab = State { mode: Mode::Form, ..s.clone() };
    /// assert_eq!(s.history(&tab, true), History::Push);
    /// let zoomed = State { zoom: 2.0, ..s.clone() };
    /// assert_eq!(s.history(&zoomed, false), History::Replace);
    /// assert_eq!(s.history(&s, false), History::Replace);
    /// ```
    pub fn history(&self, new: &State, burst: bool) -> History {
        // Zooming and pinning a cell rewrite the current entry.
        let zoom_only = State {
            zoom: new.zoom,
            pin: new.pin.clone(),
            ..self.clone()
        };
        if zoom_only == *new {
            return History::Replace;
        }
        // The old state with every typed field as in the new one: equal if only they changed.
        let mut typed = State {
            expr: new.expr.clone(),
            zoom: new.zoom,
            pin: new.pin.clone(),
            form: new.form.clone(),
            ..self.clone()
        };
        typed.opts.highlight = new.opts.highlight;
        typed.opts.warp = new.opts.warp;
        if self.form != new.form {
            // A form field rewrites the expression, its view and its element width.
            typed.opts.view = new.opts.view;
            typed.opts.elem_bits = new.opts.elem_bits;
        }
        if typed == *new && burst {
            History::Replace
        } else {
            History::Push
        }
    }

    /// The renderer's options for this state (the embedded [`State::opts`], with the
    /// page's cell text and lazy caps whatever a caller put there).
    pub fn options(&self) -> Options {
        Options {
            cell_text_cap: CELL_HARD_CAP,
            // The page paints what is in view: the layout view above 128 cells is painted
            // from cells computed when asked, up to 1024x1024.
            lazy_cap: cute_render::views::LAZY_CAP,
            lazy_from: crate::page::WHOLE_CELLS + 1,
            ..self.opts.clone()
        }
    }
}

fn expected<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> String {
    format!("expected {}", one_of(names))
}

fn parse_highlight(v: &str) -> Option<Highlight> {
    let (kind, n) = v.split_at_checked(1)?;
    let n: i64 = n.parse().ok().filter(|n| (0..1 << 20).contains(n))?;
    match kind {
        "t" => Some(Highlight::Thread(n)),
        "w" => Some(Highlight::Warp(n)),
        _ => None,
    }
}

/// A query string builder that keeps expressions readable: form_urlencoded escapes
/// everything outside `[A-Za-z0-9*-._]`, then the characters CuTe expressions are made of
/// and that are safe in a query value (`( ) , : < >` are not query delimiters) are
/// unescaped again, and spaces are `%20` rather than `+` so links survive copy-paste.
#[derive(Default)]
pub(crate) struct Query {
    pairs: Vec<String>,
}

impl Query {
    pub(crate) fn add(&mut self, k: &str, v: &str) {
        let enc: String = form_urlencoded::byte_serialize(v.as_bytes()).collect();
        let enc = enc
            .replace('+', "%20")
            .replace("%28", "(")
            .replace("%29", ")")
            .replace("%2C", ",")
            .replace("%3A", ":");
        self.pairs.push(format!("{k}={enc}"));
    }

    fn finish(self) -> String {
        if self.pairs.is_empty() {
            String::new()
        } else {
            format!("?{}", self.pairs.join("&"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_every_field() {
        let mut s = State {
            expr: "A = (8,8):(8,1)\ncomposition(Sw<3,0,3>, A) # c&d=e+f%".into(),
            opts: Options {
                view: View::Swizzle,
                palette: Palette::ColorBlind,
                elem_bits: 32,
                bit_offset: Some(40),
                highlight: Some(Highlight::Warp(3)),
                warp: 2,
                labels: Labels::Coord,
                ..State::default().opts
            },
            theme: ThemeChoice::Dark,
            mode: Mode::Form,
            zoom: 1.5,
            form: Default::default(),
            pin: Some(Pin {
                panel: "after".into(),
                row: 3,
                col: 17,
            }),
            tabs: Default::default(),
        };
        s.form.set("shape", "(16,16)").unwrap();
        let q = s.to_query();
        let (back, notes) = State::from_query(&q);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(back, s, "{q}");
    }

    #[test]
    fn hostile_values_are_ignored_with_a_notice() {
        let (s, notes) = State::from_query(
            "view=%3Cscript%3Ealert(1)%3C/script%3E&palette=%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E\
             &theme=javascript:alert(1)&bits=7&hl=t-1&zoom=NaN&warp=99999999&bogus=1&f.kind=evil",
        );
        assert_eq!(s.opts.view, View::Auto);
        assert_eq!(s.opts.palette, Palette::Cute);
        assert_eq!(s.theme, ThemeChoice::Auto);
        let o = &s.opts;
        assert_eq!(
            (o.elem_bits, o.highlight, s.zoom, o.warp),
            (16, None, 1.0, 0)
        );
        assert_eq!(notes.len(), 9, "{notes:?}");
    }

    /// Shared links depend on these exact spellings and this order.
    #[test]
    fn query_spelling_is_fixed() {
        let q = "?expr=A%20%3D%20(8,8):(8,1)%0Acomposition(Sw%3C3,0,3%3E,%20A)%20%23%20c%26d%3De%2Bf%25\
                 &view=mma&palette=colorblind&theme=light&bits=128&bit=72&hl=t5&warp=3&zoom=1.5";
        let (s, notes) = State::from_query(q);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(s.to_query(), q);
        // A zoom is written in full: 0.625 stays 0.625 (not 0.62); older links' `1.50` read.
        for (given, kept) in [
            ("0.625", "0.625"),
            ("0.4096", "0.4096"),
            ("1.50", "1.5"),
            ("0.001", "0.01"),
        ] {
            let (z, _) = State::from_query(&format!("?zoom={given}"));
            let written = z.to_query();
            if given == "0.001" {
                assert_eq!(written, "", "out of range: ignored");
                continue;
            }
            assert_eq!(written, format!("?zoom={kept}"));
            assert_eq!(State::from_query(&written).0, z);
        }
        assert_eq!(s.options().view, View::Mma);
        assert_eq!(s.options().cell_text_cap, CELL_HARD_CAP);
    }

    #[test]
    fn notices_list_the_accepted_values() {
        let (_, notes) = State::from_query("palette=x&theme=x&bits=7&view=x");
        assert_eq!(
            notes,
            [
                "ignored URL parameter palette=\"x\": expected cute or colorblind",
                "ignored URL parameter theme=\"x\": expected auto, light or dark",
                "ignored URL parameter bits=\"7\": expected 8, 16, 32, 64 or 128",
                "ignored URL parameter view=\"x\": not a view name",
            ]
        );
    }

    #[test]
    fn default_state_has_an_empty_query() {
        assert_eq!(State::default().to_query(), "");
        assert_eq!(State::from_query("").0, State::default());
    }
}
