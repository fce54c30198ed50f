//! Form mode: fields for the common cases, written out as an expression of the spec's
//! language (the form never evaluates anything itself).

use cute_render::View;

/// What the form builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `SHAPE:STRIDE`, optionally under `Sw<B,M,S>`.
    Layout,
    /// `make_layout_tv(THR, VAL)`.
    Tv,
    /// `bank_conflicts(SMEM, BITS, TV, INSTR)`.
    Banks,
    /// `swizzle_search(SMEM, BITS, TV, INSTR)`.
    Search,
}

impl Kind {
    /// Menu order.
    pub const ALL: [Kind; 4] = [Kind::Layout, Kind::Tv, Kind::Banks, Kind::Search];

    /// The parameter spelling.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Layout => "layout",
            Kind::Tv => "tv",
            Kind::Banks => "banks",
            Kind::Search => "search",
        }
    }

    /// What the menu shows.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Layout => "Layout (optionally swizzled)",
            Kind::Tv => "Thread-value layout",
            Kind::Banks => "Bank conflicts of an access",
            Kind::Search => "Swizzle search for an access",
        }
    }

    fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == s)
    }
}

/// Element types the form offers, with their widths in bits.
pub const ELEMENTS: &[(&str, u32)] = &[
    ("int8_t", 8),
    ("half_t", 16),
    ("bfloat16_t", 16),
    ("float", 32),
    ("double", 64),
];

/// Instructions the bank forms offer (the core's names).
pub fn instructions() -> &'static [&'static str] {
    cute_core::bank::Instr::NAMES
}

/// The form's fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    /// What to build.
    pub kind: Kind,
    /// Layout shape, e.g. `(8,64)` or `8,64`.
    pub shape: String,
    /// Layout stride; empty = CuTe's default (column-major).
    pub stride: String,
    /// Swizzle bits B (0 = no swizzle), base M, shift S.
    pub swizzle: (i64, i64, i64),
    /// Element type name (one of [`ELEMENTS`]).
    pub elem: String,
    /// Thread layout of a TV layout / access.
    pub thr: String,
    /// Value layout of a TV layout / access.
    pub val: String,
    /// Instruction name (one of [`instructions`]).
    pub instr: String,
}

impl Default for Form {
    fn default() -> Self {
        Form {
            kind: Kind::Layout,
            shape: "(32,64)".into(),
            stride: "(64,1)".into(),
            swizzle: (3, 3, 3),
            elem: "half_t".into(),
            thr: "(32,1):(1,0)".into(),
            val: "(1,8):(0,1)".into(),
            instr: "LDS128".into(),
        }
    }
}

/// Wrap `a,b` in parentheses so `8,64` and `(8,64)` both mean the tuple.
fn tuple(s: &str) -> String {
    let s = s.trim();
    if s.contains(',') && !s.starts_with('(') {
        format!("({s})")
    } else {
        s.to_string()
    }
}

impl Form {
    /// Element width of [`Form::elem`] in bits.
    pub fn bits(&self) -> u32 {
        ELEMENTS
            .iter()
            .find(|(n, _)| *n == self.elem)
            .map_or(16, |(_, b)| *b)
    }

    /// The layout, swizzled when B > 0.
    fn smem(&self) -> String {
        let shape = tuple(&self.shape);
        let layout = if self.stride.trim().is_empty() {
            format!("make_layout({shape})")
        } else {
            format!("{shape}:{}", tuple(&self.stride))
        };
        let (b, m, s) = self.swizzle;
        if b == 0 {
            layout
        } else {
            format!("Sw<{b},{m},{s}> o 0 o {layout}")
        }
    }

    /// The expression these fields describe.
    ///
    /// ```
    /// use cute_web::form::{Form, Kind};
    /// let mut f = Form::default();
    /// assert_eq!(f.to_expr(), "Sw<3,3,3> o 0 o (32,64):(64,1)");
    /// f.kind = Kind::Banks;
    /// f.swizzle.0 = 0;
    /// assert_eq!(f.to_expr(), "bank_conflicts((32,64):(64,1), 16, make_layout_tv((32,1):(1,0), (1,8):(0,1)), LDS128)");
    /// ```
    pub fn to_expr(&self) -> String {
        let tv = format!("make_layout_tv({}, {})", tuple(&self.thr), tuple(&self.val));
        match self.kind {
            Kind::Layout => self.smem(),
            Kind::Tv => tv,
            Kind::Banks | Kind::Search => format!(
                "{}({}, {}, {tv}, {})",
                if self.kind == Kind::Banks {
                    "bank_conflicts"
                } else {
                    "swizzle_search"
                },
                self.smem(),
                self.bits(),
                self.instr
            ),
        }
    }

    /// The view that suits [`Form::kind`].
    pub fn view(&self) -> View {
        match self.kind {
            Kind::Layout if self.swizzle.0 > 0 => View::Swizzle,
            Kind::Layout => View::Layout,
            Kind::Tv => View::Tv,
            Kind::Banks => View::Banks,
            Kind::Search => View::Search,
        }
    }

    /// Set one field from its URL/input spelling; an error says what was expected.
    pub fn set(&mut self, key: &str, v: &str) -> Result<(), String> {
        // Text fields are expression fragments: keep them short and on one line.
        let text = |v: &str| -> Result<String, String> {
            if v.len() > 2000 || v.contains(['\n', '\r']) {
                Err("expected one short line".into())
            } else {
                Ok(v.to_string())
            }
        };
        let small = |v: &str, lo: i64, hi: i64| -> Result<i64, String> {
            v.parse::<i64>()
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| format!("expected an integer from {lo} to {hi}"))
        };
        match key {
            "kind" => self.kind = Kind::parse(v).ok_or("expected layout, tv, banks or search")?,
            "shape" => self.shape = text(v)?,
            "stride" => self.stride = text(v)?,
            "B" => self.swizzle.0 = small(v, 0, 5)?,
            "M" => self.swizzle.1 = small(v, 0, 7)?,
            "S" => self.swizzle.2 = small(v, -7, 7)?,
            "elem" if ELEMENTS.iter().any(|(n, _)| *n == v) => self.elem = v.into(),
            "elem" => return Err("expected an element type of the menu".into()),
            "thr" => self.thr = text(v)?,
            "val" => self.val = text(v)?,
            "instr" if instructions().contains(&v) => self.instr = v.into(),
            "instr" => return Err("expected an instruction of the menu".into()),
            _ => return Err("unknown form field".into()),
        }
        Ok(())
    }

    /// The fields as `(key, value)` pairs for the URL (those [`Form::set`] reads).
    pub fn params(&self) -> Vec<(&'static str, String)> {
        vec![
            ("kind", self.kind.name().into()),
            ("shape", self.shape.clone()),
            ("stride", self.stride.clone()),
            ("B", self.swizzle.0.to_string()),
            ("M", self.swizzle.1.to_string()),
            ("S", self.swizzle.2.to_string()),
            ("elem", self.elem.clone()),
            ("thr", self.thr.clone()),
            ("val", self.val.clone()),
            ("instr", self.instr.clone()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind writes an expression the core evaluates, with the defaults.
    #[test]
    fn every_kind_evaluates() {
        for kind in Kind::ALL {
            let f = Form {
                kind,
                ..Form::default()
            };
            let e = f.to_expr();
            assert!(cute_lang::eval_line(&e).is_ok(), "{e}");
        }
    }

    #[test]
    fn params_round_trip() {
        let mut f = Form::default();
        f.set("kind", "search").unwrap();
        f.set("S", "-3").unwrap();
        f.set("stride", "").unwrap();
        let mut g = Form::default();
        for (k, v) in f.params() {
            g.set(k, &v).unwrap();
        }
        assert_eq!(f, g);
        assert!(g.set("B", "6").is_err());
        assert!(g.set("shape", "a\nb").is_err());
    }
}
