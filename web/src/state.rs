//! The page's whole state and its URL query form.
//!
//! Every parameter is readable text (`?expr=Sw<3,4,3> o 0 o (8,64):(64,1)&view=swizzle`),
//! only non-default values are written, and unknown or malformed values are ignored with a
//! notice rather than trusted: URL parameters are user input.

use cute_render::{Highlight, Options, Palette, Theme, View};

/// The expression drawn on first load: the seeds' 8x32 tile of 16-bit elements under
/// CuTe's `Sw<3,2,3>`, as `render layout.svg` draws it.
pub const DEFAULT_EXPR: &str = "composition(Sw<3,2,3>, (8,32):(32,1))";

/// The renderer's view names, in menu order.
pub fn view_names() -> impl Iterator<Item = &'static str> {
    View::ALL.iter().map(|v| v.name())
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
    /// The URL spelling.
    pub fn name(self) -> &'static str {
        match self {
            ThemeChoice::Auto => "auto",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
        }
    }

    /// Parse the URL spelling ([`ThemeChoice::name`]).
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "auto" => ThemeChoice::Auto,
            "light" => ThemeChoice::Light,
            "dark" => ThemeChoice::Dark,
            _ => return None,
        })
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

/// Everything the page shows, as the URL carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The expression or script (`expr`).
    pub expr: String,
    /// The view name (`view`), one of [`view_names`].
    pub view: String,
    /// Colour scheme (`palette`).
    pub palette: Palette,
    /// Light/dark (`theme`).
    pub theme: ThemeChoice,
    /// Element width in bits for bank colouring (`bits`).
    pub bits: u32,
    /// Offset whose swizzle bits are spelled out (`bit`).
    pub bit_offset: Option<i64>,
    /// Highlighted thread (`hl=t5`) or warp (`hl=w1`).
    pub highlight: Option<Highlight>,
    /// The warp the bank view draws (`warp`).
    pub warp: u32,
    /// Editor or form (`mode`).
    pub mode: Mode,
    /// Zoom factor of the drawing (`zoom`), 1 = natural size.
    pub zoom: f64,
    /// The form's fields (`f.*` parameters), kept so a shared form link reopens the form.
    pub form: crate::form::Form,
}

impl Default for State {
    fn default() -> Self {
        State {
            expr: DEFAULT_EXPR.to_string(),
            view: "auto".to_string(),
            palette: Palette::Cute,
            theme: ThemeChoice::Auto,
            bits: 16,
            bit_offset: None,
            highlight: None,
            warp: 0,
            mode: Mode::Editor,
            zoom: 1.0,
            form: crate::form::Form::default(),
        }
    }
}

/// Zoom limits: below 5% nothing is legible, above 800% a cell fills the screen.
pub const ZOOM_MIN: f64 = 0.05;
/// See [`ZOOM_MIN`].
pub const ZOOM_MAX: f64 = 8.0;
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
    /// assert_eq!(s.view, "swizzle");
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
        for (k, v) in form_urlencoded::parse(query.as_bytes()) {
            let (k, v) = (k.as_ref(), v.as_ref());
            match k {
                "expr" if v.chars().count() > MAX_EXPR_CHARS => {
                    bad(k, v, "longer than 100000 characters")
                }
                "expr" => s.expr = v.to_string(),
                "view" if View::parse(v).is_some() => s.view = v.to_string(),
                "palette" => match Palette::parse(v) {
                    Some(p) => s.palette = p,
                    None => bad(k, v, "expected cute or colorblind"),
                },
                "theme" => match ThemeChoice::parse(v) {
                    Some(t) => s.theme = t,
                    None => bad(k, v, "expected auto, light or dark"),
                },
                "bits" => match v.parse::<u32>() {
                    Ok(b @ (8 | 16 | 32 | 64 | 128)) => s.bits = b,
                    _ => bad(k, v, "expected 8, 16, 32, 64 or 128"),
                },
                "bit" => match v.parse::<i64>() {
                    Ok(b) if b >= 0 => s.bit_offset = Some(b),
                    _ => bad(k, v, "expected an offset >= 0"),
                },
                "hl" => match parse_highlight(v) {
                    Some(h) => s.highlight = Some(h),
                    None => bad(k, v, "expected t<thread> or w<warp>"),
                },
                "warp" => match v.parse::<u32>() {
                    Ok(w) if w < 1 << 16 => s.warp = w,
                    _ => bad(k, v, "expected a warp index"),
                },
                "mode" => match v {
                    "form" => s.mode = Mode::Form,
                    "editor" => s.mode = Mode::Editor,
                    _ => bad(k, v, "expected editor or form"),
                },
                "zoom" => match v.parse::<f64>() {
                    Ok(z) if z.is_finite() && (ZOOM_MIN..=ZOOM_MAX).contains(&z) => s.zoom = z,
                    _ => bad(k, v, "expected a number from 0.05 to 8"),
                },
                _ if k.starts_with("f.") => {
                    if let Err(why) = s.form.set(&k[2..], v) {
                        bad(k, v, &why);
                    }
                }
                "view" => bad(k, v, "not a view name"),
                _ => bad(k, v, "unknown parameter"),
            }
        }
        (s, notes)
    }

    /// The query string (with `?`, or empty) that restores this state; defaults left out.
    ///
    /// ```
    /// use cute_web::state::State;
    /// let mut s = State::default();
    /// s.expr = "(8,8):(8,1)".into();
    /// s.view = "layout".into();
    /// assert_eq!(s.to_query(), "?expr=(8,8):(8,1)&view=layout");
    /// assert_eq!(State::from_query(&s.to_query()).0, s);
    /// ```
    pub fn to_query(&self) -> String {
        let d = State::default();
        let mut q = Query::default();
        if self.expr != d.expr {
            q.add("expr", &self.expr);
        }
        if self.view != d.view {
            q.add("view", &self.view);
        }
        if self.palette != d.palette {
            q.add("palette", self.palette.name());
        }
        if self.theme != d.theme {
            q.add("theme", self.theme.name());
        }
        if self.bits != d.bits {
            q.add("bits", &self.bits.to_string());
        }
        if let Some(b) = self.bit_offset {
            q.add("bit", &b.to_string());
        }
        match self.highlight {
            Some(Highlight::Thread(t)) => q.add("hl", &format!("t{t}")),
            Some(Highlight::Warp(w)) => q.add("hl", &format!("w{w}")),
            None => {}
        }
        if self.warp != d.warp {
            q.add("warp", &self.warp.to_string());
        }
        if self.mode == Mode::Form {
            q.add("mode", "form");
            for (k, v) in self.form.params() {
                q.add(&format!("f.{k}"), &v);
            }
        }
        if self.zoom != d.zoom {
            q.add("zoom", &format!("{:.2}", self.zoom));
        }
        q.finish()
    }

    /// The renderer's options for this state.
    pub fn options(&self) -> Options {
        Options {
            view: View::parse(&self.view).unwrap_or(View::Auto),
            palette: self.palette,
            elem_bits: self.bits,
            bit_offset: self.bit_offset,
            highlight: self.highlight,
            warp: self.warp,
            // The page paints only the labels in view (grid::Detail::Fills).
            cell_text_cap: cute_render::views::CELL_HARD_CAP,
        }
    }
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
struct Query {
    pairs: Vec<String>,
}

impl Query {
    fn add(&mut self, k: &str, v: &str) {
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
            view: "swizzle".into(),
            palette: Palette::ColorBlind,
            theme: ThemeChoice::Dark,
            bits: 32,
            bit_offset: Some(40),
            highlight: Some(Highlight::Warp(3)),
            warp: 2,
            mode: Mode::Form,
            zoom: 1.5,
            form: Default::default(),
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
        assert_eq!(s.view, "auto");
        assert_eq!(s.palette, Palette::Cute);
        assert_eq!(s.theme, ThemeChoice::Auto);
        assert_eq!((s.bits, s.highlight, s.zoom, s.warp), (16, None, 1.0, 0));
        assert_eq!(notes.len(), 9, "{notes:?}");
    }

    #[test]
    fn default_state_has_an_empty_query() {
        assert_eq!(State::default().to_query(), "");
        assert_eq!(State::from_query("").0, State::default());
    }
}
