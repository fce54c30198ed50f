//! The cell keys: every `data-*` attribute a view writes on a cell ([`super::Cell::data`]),
//! with the name the page's inspector shows it under and what it counts. One table, read by
//! the page; a test checks that every key every view writes is in it.

/// What a cell key's value counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A number or a name (an index, a thread, a field).
    Plain,
    /// Elements of the layout's value type (offsets).
    Elements,
    /// Bytes.
    Bytes,
    /// 4-byte shared-memory words (bank width).
    Words,
}

/// One `data-*` attribute of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellKey {
    /// The attribute's name without `data-`.
    pub key: &'static str,
    /// What the page's inspector calls it.
    pub label: &'static str,
    /// What its value counts.
    pub unit: Unit,
}

const fn k(key: &'static str, label: &'static str, unit: Unit) -> CellKey {
    CellKey { key, label, unit }
}

/// Every cell key, in no particular order. `panel` is the panel's id, which the page adds
/// to the cell's own keys.
///
/// ```
/// use cute_render::grid::{cell_key, Unit};
/// assert_eq!(cell_key("pre").map(|k| k.label), Some("offset before swizzle"));
/// assert_eq!(cell_key("byte").map(|k| k.unit), Some(Unit::Bytes));
/// assert!(cell_key("nonsense").is_none());
/// ```
pub const CELL_KEYS: &[CellKey] = &[
    k("panel", "panel", Unit::Plain),
    k("idx", "index", Unit::Plain),
    k("row", "row", Unit::Plain),
    k("col", "col", Unit::Plain),
    k("coord", "coordinate", Unit::Plain),
    k("offset", "offset", Unit::Elements),
    k("pre", "offset before swizzle", Unit::Elements),
    k("bank", "bank", Unit::Plain),
    k("word", "word", Unit::Words),
    k("byte", "byte", Unit::Bytes),
    k("thread", "thread", Unit::Plain),
    k("value", "value", Unit::Plain),
    k("also", "also", Unit::Plain),
    k("phase", "phase", Unit::Plain),
    k("ways", "conflict ways", Unit::Plain),
    k("threads", "lanes", Unit::Plain),
    k("bit", "bit", Unit::Plain),
    k("bits", "bits", Unit::Plain),
    k("field", "field", Unit::Plain),
    k("meaning", "meaning", Unit::Plain),
    k("core", "core", Unit::Plain),
    k("rank", "rank", Unit::Plain),
    k("candidate", "candidate", Unit::Plain),
    k("kernel", "in a kernel", Unit::Plain),
    k("open", "opens", Unit::Plain),
    k("facts", "facts", Unit::Plain),
    k("wavefronts", "wavefronts", Unit::Plain),
    k("ideal", "ideal wavefronts", Unit::Plain),
    k("conflicts", "extra wavefronts", Unit::Plain),
    k("ratio", "× ideal", Unit::Plain),
    k("extra-elems", "padding elements", Unit::Elements),
    k("smem", "shared memory", Unit::Plain),
    k("smem-offset", "smem offset", Unit::Elements),
    k("box", "box", Unit::Plain),
    k("boxrow", "box row", Unit::Plain),
    k("chunk", "chunk", Unit::Plain),
    k("lane", "lane", Unit::Plain),
    k("column", "column", Unit::Plain),
    k("warp", "warp", Unit::Plain),
    k("m", "m", Unit::Plain),
    k("n", "n", Unit::Plain),
    k("mma", "mma", Unit::Plain),
    k("values", "values", Unit::Plain),
    k("register", "register", Unit::Plain),
    k("sector", "32-byte sector", Unit::Plain),
    k("line", "128-byte line", Unit::Plain),
    k("instr", "instruction", Unit::Plain),
    k("object", "object", Unit::Plain),
    k("kind", "kind", Unit::Plain),
    k("verdict", "verdict", Unit::Plain),
    k("headline", "the number", Unit::Plain),
    k("warning", "warning", Unit::Plain),
    k("warning-more", "another warning", Unit::Plain),
];

/// The table's entry for `key` (without `data-`).
pub fn cell_key(key: &str) -> Option<&'static CellKey> {
    CELL_KEYS.iter().find(|k| k.key == key)
}

/// The 4-byte shared-memory word that holds element `offset` of `elem_bits`-bit elements,
/// and its bytes: what the inspector shows as the `word` of a cell that has an offset but
/// no `word` key of its own.
///
/// ```
/// use cute_render::grid::Word;
/// assert_eq!(Word::of_offset(65, 16).to_string(), "32 (bytes 128..131)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word {
    /// The word's index.
    pub index: i64,
}

impl Word {
    /// The word holding element `offset` of `elem_bits`-bit elements.
    pub fn of_offset(offset: i64, elem_bits: u32) -> Word {
        let byte = offset * i64::from(elem_bits) / 8;
        Word {
            index: byte.div_euclid(4),
        }
    }
}

impl std::fmt::Display for Word {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let w = self.index;
        write!(f, "{w} (bytes {}..{})", w * 4, w * 4 + 3)
    }
}
