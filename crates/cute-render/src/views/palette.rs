//! Colour schemes: CuTe's print_latex colours and a colour-blind-safe set.

use cute_core::bank::BANKS;

/// Colour schemes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Palette {
    /// CuTe's print_latex colours (grey ramp, 8 pastels) and a hue wheel for banks.
    Cute,
    /// Colour-blind-safe: Okabe–Ito for threads and phases, cividis for banks.
    #[cfg_attr(feature = "cli", value(name = "colorblind"))]
    ColorBlind,
}

/// CuTe print_latex's grey ramp for offsets (`black!00, black!40, black!20, …`), as RGB.
pub(super) const GREY_RAMP: [&str; 8] = [
    "#ffffff", "#999999", "#cccccc", "#666666", "#e6e6e6", "#808080", "#b3b3b3", "#4d4d4d",
];
/// CuTe print_latex's 8 thread colours (TikzColor_TV).
const TV_PASTELS: [&str; 8] = [
    "#afafff", "#afffaf", "#ffffaf", "#ffafaf", "#d2d2ff", "#d2ffd2", "#ffffd2", "#ffd2d2",
];
/// Okabe–Ito, lightened where black text must stay readable.
const OKABE_ITO: [&str; 8] = [
    "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#bbbbbb",
];

impl Palette {
    /// Every palette, in menu order.
    pub const ALL: &'static [Palette] = &[Palette::Cute, Palette::ColorBlind];

    /// The palette's name: `cute` or `colorblind` (what `--palette` takes).
    ///
    /// ```
    /// use cute_render::Palette;
    /// assert_eq!(Palette::ColorBlind.name(), "colorblind");
    /// assert_eq!(Palette::parse("cute"), Some(Palette::Cute));
    /// assert_eq!(Palette::parse("CB"), None);
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Palette::Cute => "cute",
            Palette::ColorBlind => "colorblind",
        }
    }

    /// Parse a palette name (the inverse of [`Palette::name`]).
    pub fn parse(s: &str) -> Option<Palette> {
        Palette::ALL.iter().copied().find(|p| p.name() == s)
    }

    /// The colour of a quality from `t = 0` (best) to `t = 1` (worst): green → yellow →
    /// red, or (colour-blind) cividis from yellow (best) to dark blue (worst).
    pub(super) fn quality(self, t: f64) -> String {
        let t = t.clamp(0.0, 1.0);
        match self {
            Palette::Cute => hsl(120.0 * (1.0 - t), 0.6, 0.72),
            Palette::ColorBlind => cividis(1.0 - t),
        }
    }

    pub(super) fn thread(self, t: i64) -> String {
        let k = t.rem_euclid(8) as usize;
        match self {
            Palette::Cute => TV_PASTELS[k],
            Palette::ColorBlind => OKABE_ITO[k],
        }
        .to_string()
    }

    pub(super) fn bank(self, b: u64) -> String {
        match self {
            // A hue wheel with alternating lightness so neighbouring banks differ.
            Palette::Cute => {
                let h = (b * 360 / BANKS) as f64;
                let l = if b.is_multiple_of(2) { 0.78 } else { 0.66 };
                hsl(h, 0.65, l)
            }
            // Cividis is one ramp: in bank order, neighbours would look alike. Even banks
            // take its first half and odd ones its second, so neighbours are half the ramp
            // apart (bank 2k and 2k+1: positions k and 16+k of 32).
            Palette::ColorBlind => {
                let pos = (b % 2) * (BANKS / 2) + (b % BANKS) / 2;
                cividis(pos as f64 / (BANKS - 1) as f64)
            }
        }
    }

    pub(super) fn phase(self, p: usize) -> String {
        match self {
            Palette::Cute => ["#afafff", "#afffaf", "#ffffaf", "#ffd2d2"][p % 4].to_string(),
            Palette::ColorBlind => ["#56b4e9", "#e69f00", "#009e73", "#cc79a7"][p % 4].to_string(),
        }
    }
}

fn hsl(h: f64, s: f64, l: f64) -> String {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match (h / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let to = |v: f64| ((v + m) * 255.0).round() as u8;
    format!("#{:02x}{:02x}{:02x}", to(r), to(g), to(b))
}

/// The cividis colour map (blue → yellow, readable with any colour vision), by 5 stops.
fn cividis(t: f64) -> String {
    const STOPS: [(f64, f64, f64); 5] = [
        (0.0, 34.0, 78.0),
        (72.0, 82.0, 110.0),
        (124.0, 123.0, 120.0),
        (187.0, 170.0, 108.0),
        (253.0, 231.0, 55.0),
    ];
    let x = t.clamp(0.0, 1.0) * 4.0;
    let i = (x as usize).min(3);
    let f = x - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |p: f64, q: f64| (p + (q - p) * f).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgb(hex: &str) -> [f64; 3] {
        let v = |i: usize| f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap());
        [v(1), v(3), v(5)]
    }

    /// Every label reads on its cell (WCAG AA, 4.5:1) in every palette and theme, the
    /// cells a highlight dims included: black or white on a fill, the page's text colour on
    /// a dimmed one.
    #[test]
    fn labels_keep_their_contrast_on_every_fill_dimmed_or_not() {
        use crate::grid::{contrast, dimmed_fill, text_on, Label, Theme};
        for p in Palette::ALL {
            let fills: Vec<String> = (0..8)
                .map(|t| p.thread(t))
                .chain((0..BANKS).map(|b| p.bank(b)))
                .chain((0..4).map(|k| p.phase(k)))
                .chain((0..=10).map(|q| p.quality(f64::from(q) / 10.0)))
                .chain(GREY_RAMP.iter().map(|g| g.to_string()))
                .collect();
            for theme in [Theme::Light, Theme::Dark] {
                for fill in &fills {
                    for dim in [false, true] {
                        let l = Label {
                            x: 0,
                            y: 0,
                            text: "7".into(),
                            second: None,
                            fill: text_on(fill),
                            dim,
                        };
                        let shown = if dim {
                            dimmed_fill(fill, theme.background())
                        } else {
                            fill.clone()
                        };
                        let c = contrast(l.ink(theme), &shown);
                        assert!(
                            c >= 4.5,
                            "{p:?} {theme:?}: {} on {shown} ({fill}, dim {dim}) is {c:.2}:1",
                            l.ink(theme)
                        );
                    }
                }
            }
        }
    }

    /// Neighbouring banks (the ones a conflict is between) never look alike.
    #[test]
    fn neighbouring_banks_differ_in_every_palette() {
        for p in Palette::ALL {
            for b in 0..BANKS {
                let (x, y) = (rgb(&p.bank(b)), rgb(&p.bank((b + 1) % BANKS)));
                let d = x
                    .iter()
                    .zip(&y)
                    .map(|(a, b)| (a - b).powi(2))
                    .sum::<f64>()
                    .sqrt();
                assert!(
                    d > 40.0,
                    "{p:?}: banks {b} and {} are {d:.0} apart",
                    (b + 1) % BANKS
                );
            }
        }
    }
}
