//! Views: core values turned into [`Figure`]s.
//!
//! | view | value | picture |
//! |---|---|---|
//! | `layout` | layout, composed layout | rank-2 grid of offsets (rank 1: one row; modes 1.. grouped into columns), hierarchical headers and mode boundaries, CuTe's 8-grey ramp |
//! | `swizzle` | composed layout | before/after grids (`a→b`), coloured by bank, and the swizzle's bit fields for one offset |
//! | `tv` | `make_layout_tv(..)`, `(tile, tv)` | M×N grid, each cell `T#` over `V#`, coloured by thread |
//! | `mma` | MMA atom, TiledMMA | A (M×K) left, B (K×N) on top, C (M×N) at the origin, as CuTe's print_latex |
//! | `copy` | copy atom with a value type, TiledCopy | S and D side by side |
//! | `banks` | `bank_conflicts(..)` | 32 banks × 4-byte word rows per instruction: which lane touches which word in which phase, conflicts outlined, wavefront summary |
//! | `coalescing` | `coalescing(..)` | per warp instruction, the 128-byte global lines it touches as rows of 4-byte cells: bytes a lane asks for (coloured by thread, `T#`), the rest of each fetched 32-byte sector (grey), sector boundaries; sectors and lines against the fewest |
//! | `search` | `swizzle_search(..)` | ranked table, one row per candidate (best first, at most [`SEARCH_ROWS`]): candidate, wavefronts, ideal, conflicts, × ideal, padding; coloured best (green / yellow) to worst (red / blue) |
//! | `descriptor` | `make_gmma_desc`, `make_umma_desc`, `make_instr_desc` | the descriptor's bits as a ruler of named fields (two rows of 32 bits, or one); for a shared-memory descriptor, the operand block below it: offsets, core matrices outlined, LBO/SBO as arrows from the first core matrix |
//! | `tmem` | `partition_fragment_C` of an SM100 UMMA, a TMEM load/store atom | lanes x 32-bit columns of tensor memory: the C element (m, n) in each, coloured by sub-partition; or thread T# / register R# of a warpgroup's `tcgen05.ld/st`, coloured by thread |
//! | `tma` | `make_tma_copy(gmem, smem[, T])` | the CTA tile, each element labelled and coloured by the TMA box that loads it (box 0 framed), beside shared memory as 128-byte rows showing where each box lands (swizzled); notes: box dims, boxes per tile, swizzle mode, which gmem mode each box mode walks |
//! | `bits` | a swizzle; a layout, composed or TV layout linear over GF(2) | its bit matrix: columns = input bits (by mode: r/c, t/v), rows = output bits, 1s filled, rank; where not linear, a note with the bits that break it beside the offsets |
//! | `compare` | `functionally_equal(A, B)` | A and B side by side, each cell its value (offset, coordinate or address), the cells where they differ filled and counted, the first outlined |
//! | `algebra` | a call of an op whose row in the op table (`cute_lang::OPS`) has `algebra` set | each layout operand (`A = …`, `B = …`; a tiler one panel per layout mode) and the result (`composition(A, B) = …`) side by side, as offset grids; other operands as notes |

use crate::grid::Figure;
use cute_core::atom::Atom;
use cute_core::{Error, Result};
use cute_lang::Call;
use cute_lang::Value;

mod algebra;
mod banks;
#[cfg(feature = "full")]
mod bits;
mod coalescing;
mod common;
#[cfg(feature = "full")]
mod compare;
mod desc;
mod kernel;
mod layout;
mod palette;
mod search;
mod tma;
mod tmem;
mod tv;

use algebra::algebra_figure;
use banks::bank_figure;
pub use banks::BANK_PANELS;
#[cfg(feature = "full")]
use bits::bits_figure;
use coalescing::coalescing_figure;
pub use coalescing::COALESCING_PANELS;
pub use common::{Highlight, Options};
#[cfg(feature = "full")]
use compare::compare_figure;
use desc::desc_figure;
pub(crate) use kernel::kernel_figure;
use layout::{layout_figure, swizzle_figure};
pub use palette::Palette;
use search::search_figure;
pub use search::SEARCH_ROWS;
use tma::tma_figure;
use tmem::{tmem_atom_figure, tmem_tensor_figure};
use tv::{copy_figure, mma_figure, tv_figure};

pub use crate::limits::{CELL_HARD_CAP, CELL_TEXT_CAP, LAZY_CAP};
pub use crate::view::View;

/// Whether the algebra view draws a call of `name` (the op table's `algebra` column).
fn is_algebra_op(name: &str) -> bool {
    cute_lang::lookup(name).is_some_and(|o| o.algebra)
}

/// The operations the algebra view draws, for messages.
fn algebra_ops() -> String {
    let names: Vec<&str> = cute_lang::OPS
        .iter()
        .filter(|o| o.algebra)
        .map(|o| o.name)
        .collect();
    names.join(", ")
}

/// The view a value gets when none is asked for (see [`infer_view_of_call`] for the
/// algebra view, which also needs the drawn line's call).
///
/// ```
/// use cute_render::{views::infer_view, View};
/// let v = cute_lang::eval_line("swizzle_search((32,64):(64,1), 32, (32,4):(1,32), LDS128)").unwrap();
/// assert_eq!(infer_view(&v), View::Search);
/// ```
pub fn infer_view(value: &Value) -> View {
    if tmem_tensor(value).is_some() {
        return View::Tmem;
    }
    if let Some(drawn) = tensor_drawn(value) {
        return infer_view(&drawn);
    }
    match value {
        Value::Ranked(_) => View::Search,
        Value::Composed(_) => View::Swizzle,
        Value::Tuple(vs) if vs.len() == 2 && matches!(vs[1], Value::Layout(_)) => View::Tv,
        Value::Atom(a) if matches!(**a, Atom::Mma(_)) => View::Mma,
        Value::Atom(a) if matches!(&**a, Atom::Copy(c) if c.tmem_copy().is_some()) => View::Tmem,
        v if tma_of(v).is_some() => View::Tma,
        Value::TiledMma(_) => View::Mma,
        Value::Atom(_) | Value::TiledCopy(_) => View::Copy,
        Value::Banks(_) => View::Banks,
        Value::Coalesce(_) => View::Coalescing,
        Value::Descriptor(_) => View::Descriptor,
        Value::Tma(_) => View::Tma,
        Value::Partition(_) => View::Partition,
        Value::Compare(_) => View::Compare,
        Value::Explain(_) => View::Algebra,
        Value::Swizzle(_) => View::Bits,
        _ => View::Layout,
    }
}

/// A tensor in tensor memory (an UMMA accumulator, a slice of one).
fn tmem_tensor(value: &Value) -> Option<Result<cute_core::tmem::TmemTensor>> {
    match value {
        Value::Tensor(t) => cute_core::tmem::TmemTensor::of(t),
        _ => None,
    }
}

/// The TMA part of a copy `make_tma_copy` / `make_tma_atom` made.
fn tma_of(value: &Value) -> Option<&cute_core::tma::TmaAtom> {
    match value {
        Value::TiledCopy(c) => c.atom.tma.as_deref(),
        Value::Atom(a) => match &**a {
            Atom::Copy(c) => c.tma.as_deref(),
            Atom::Mma(_) => None,
        },
        _ => None,
    }
}

/// What a tensor is drawn as: its layout, with a shared-memory pointer's swizzle in front
/// (`Sw<3,4,3> o smem_ptr[16b] o L`, as the smem atom it was made from) while the pointer
/// is at address 0 (a swizzle acts on addresses; elsewhere the drawing would need them).
fn tensor_drawn(value: &Value) -> Option<Value> {
    let t = match value {
        Value::Tensor(t) => t,
        // A fragment of GMMA/UMMA descriptors: the layout of their 16-byte steps.
        Value::DescTensor(d) => return Some(Value::Layout(d.layout.clone())),
        _ => return None,
    };
    // A swizzle in element units (`make_tensor(p, composition(Sw<2,3,3>{}, L))`) is part of
    // the layout the tensor indexes with: draw it.
    if let cute_core::swizzle::AnyLayout::Composed(c) = t.any_layout() {
        if !matches!(t.iter, cute_core::tensor::Iter::Counting { .. }) {
            return Some(Value::Composed(c));
        }
    }
    Some(match &t.iter {
        cute_core::tensor::Iter::Ptr(p) => match p.swizzle {
            Some(sw) if p.addr == 0 => Value::Composed(cute_core::ComposedLayout {
                swizzle: sw,
                offset: cute_core::swizzle::Offset::SmemPtr {
                    bits: i64::from(p.bits),
                },
                layout: t.layout.clone(),
            }),
            _ => Value::Layout(t.layout.clone()),
        },
        cute_core::tensor::Iter::Owned { .. } => Value::Layout(t.layout.clone()),
        // Coordinates, not offsets: its partitions draw it (the partition view).
        cute_core::tensor::Iter::Counting { .. } => return None,
    })
}

/// The view a value gets when none is asked for, knowing the drawn line's call: a layout
/// computed by a call of an algebra op (`algebra` set in its row of
/// `cute_lang::OPS`) gets the algebra view; otherwise [`infer_view`].
///
/// ```
/// use cute_lang::Session;
/// use cute_render::{views::infer_view_of_call, View};
/// let s = Session::default();
/// let line = "logical_divide((4,2,3):(2,1,8), 4:2)";
/// let v = cute_lang::eval_line(line).unwrap();
/// assert_eq!(infer_view_of_call(&v, s.call_operands(line).as_ref()), View::Algebra);
/// assert_eq!(infer_view_of_call(&v, None), View::Layout);
/// ```
pub fn infer_view_of_call(value: &Value, call: Option<&Call>) -> View {
    match (value, call) {
        (Value::Layout(_), Some(c)) if is_algebra_op(&c.name) => View::Algebra,
        _ => infer_view(value),
    }
}

/// The element width a value fixes by itself, and where it comes from: a composed layout's
/// `smem_ptr[Nb]` offset (a shared-memory atom as C++ builds it). [`figure_with_call`]
/// draws such a value at that width, whatever width is chosen.
///
/// ```
/// use cute_render::views::own_element_width;
/// let v = cute_lang::eval_line("GMMA::Layout_K_SW128_Atom<float>{}").unwrap();
/// assert_eq!(own_element_width(&v), Some((32, "smem_ptr[32b]".to_string())));
/// assert_eq!(own_element_width(&cute_lang::eval_line("Sw<3,4,3> o 0 o (8,64):(64,1)").unwrap()), None);
/// ```
pub fn own_element_width(value: &Value) -> Option<(u32, String)> {
    match value {
        Value::Composed(c) => match c.offset {
            cute_core::swizzle::Offset::SmemPtr { bits } => {
                Some((u32::try_from(bits).ok()?, format!("smem_ptr[{bits}b]")))
            }
            _ => None,
        },
        _ => None,
    }
}

/// Draw `value` as a figure titled `title` (no call known: the algebra view is an error;
/// see [`figure_with_call`]).
///
/// ```
/// use cute_render::views::{figure, Options};
/// let v = cute_lang::eval_line("(4,8):(8,1)").unwrap();
/// let f = figure("(4,8):(8,1)", &v, &Options::default()).unwrap();
/// let p = &f.panels[0].0;
/// assert_eq!((p.rows, p.cols), (4, 8));
/// assert_eq!(p.cells[1].text, "1");   // row 0, column 1
/// assert_eq!(p.cells[8].text, "8");   // row 1, column 0
/// ```
pub fn figure(title: &str, value: &Value, opts: &Options) -> Result<Figure> {
    figure_with_call(title, value, None, opts)
}

/// Draw `value`, the result of the line whose top-level call is `call` (from
/// [`cute_lang::Session::call_operands`]), as a figure titled `title`. The call is what
/// the algebra view draws beside the result.
///
/// ```
/// use cute_lang::Session;
/// use cute_render::views::{figure_with_call, Options};
/// use cute_render::View;
/// let line = "composition((4,8):(8,1), (2,4):(4,1))";
/// let v = cute_lang::eval_line(line).unwrap();
/// let call = Session::default().call_operands(line);
/// let f = figure_with_call(line, &v, call.as_ref(), &Options::default()).unwrap();
/// assert_eq!(f.view, View::Algebra);
/// let ids: Vec<&str> = f.panels.iter().map(|(p, _)| p.id.as_str()).collect();
/// assert_eq!(ids, ["A", "B", "result"]);
/// ```
pub fn figure_with_call(
    title: &str,
    value: &Value,
    call: Option<&Call>,
    opts: &Options,
) -> Result<Figure> {
    // A value that fixes its element width is drawn at it, however it was made (a Python
    // op call has no block to ask).
    let opts = &*opts.at_width(own_element_width(value));
    let view = match opts.view {
        View::Auto => infer_view_of_call(value, call),
        v => v,
    };
    // The title is the user's text: XML cannot carry control characters, even escaped.
    let title: String = title
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect();
    let title = title.as_str();
    if let Value::Tensor(t) = value {
        if matches!(t.iter, cute_core::tensor::Iter::Counting { .. }) {
            return Err(Error::new(
                "an identity tensor holds coordinates, not offsets: draw a thread's partition of it (tiled_copy.get_slice(t).partition_S(cA))",
            ));
        }
    }
    // A TMEM tensor is drawn at its lanes and columns; in another view, as its layout.
    let drawn = match view {
        View::Tmem if tmem_tensor(value).is_some() => None,
        _ => tensor_drawn(value),
    };
    let value = drawn.as_ref().unwrap_or(value);
    figure_in_view(view, title, value, call, opts)
}

/// `value` drawn in `view` (resolved: `Auto` draws as the layout view), its tensor already
/// replaced by what is drawn of it; each view checks that the value is one it draws.
fn figure_in_view(
    view: View,
    title: &str,
    value: &Value,
    call: Option<&Call>,
    opts: &Options,
) -> Result<Figure> {
    match view {
        View::Layout | View::Auto => layout_figure(title, value, opts),
        View::Swizzle => match value {
            Value::Composed(c) => swizzle_figure(title, c, opts),
            v => Err(cute_core::err!(
                "the swizzle view draws a composed layout (Sw<B,M,S> o 0 o L), got {}",
                v.kind()
            )),
        },
        View::Tv => tv_figure(title, value, opts),
        #[cfg(feature = "full")]
        View::Mma => mma_view(title, value, opts),
        #[cfg(feature = "full")]
        View::Copy => copy_view(title, value, opts),
        #[cfg(feature = "full")]
        View::Banks => match value {
            Value::Banks(b) => bank_figure(title, b, opts),
            v => Err(cute_core::err!(
                "the bank view draws bank_conflicts(...), got {}",
                v.kind()
            )),
        },
        #[cfg(feature = "full")]
        View::Search => match value {
            Value::Ranked(cs) => search_figure(title, cs, call, opts),
            v => Err(cute_core::err!(
                "the search view draws swizzle_search(...), got {}",
                v.kind()
            )),
        },
        #[cfg(feature = "full")]
        View::Descriptor => match value {
            Value::Descriptor(d) => desc_figure(title, d, opts),
            v => Err(cute_core::err!(
                "the descriptor view draws make_gmma_desc(...), make_umma_desc(...) or make_instr_desc(...), got {}",
                v.kind()
            )),
        },
        #[cfg(feature = "full")]
        View::Tmem => tmem_view(title, value, opts),
        #[cfg(feature = "full")]
        View::Kernel => Err(Error::new(
            "the kernel view checks a whole configuration block (render --report): it draws a pasted mainloop set-up, not one value",
        )),
        #[cfg(feature = "full")]
        View::Coalescing => match value {
            Value::Coalesce(c) => coalescing_figure(title, c, opts),
            v => Err(cute_core::err!(
                "the coalescing view draws coalescing(...), got {}",
                v.kind()
            )),
        },
        #[cfg(feature = "full")]
        View::Partition => match value {
            Value::Partition(p) => tv::partition_figure(title, p, opts),
            v => Err(cute_core::err!(
                "the partition view draws a thread's partition (tiled_mma.get_slice(t).partition_A(tensor), tiled_copy.get_slice(t).partition_S(tensor)), got {}",
                v.kind()
            )),
        },
        #[cfg(feature = "full")]
        View::Tma => match value {
            Value::Tma(t) => tma_figure(title, t, opts),
            v if tma_of(v).is_some() => {
                tma_figure(title, &tma_of(v).expect("checked").tma_box, opts)
            }
            v => Err(cute_core::err!(
                "the tma view draws make_tma_copy(SM90_TMA_LOAD{{}}, gmem_tensor, smem) or make_tma_copy(gmem, smem[, T]), got {}",
                v.kind()
            )),
        },
        #[cfg(feature = "full")]
        View::Bits => bits_figure(title, value, opts),
        #[cfg(feature = "full")]
        View::Compare => match value {
            Value::Compare(c) => compare_figure(title, c, opts),
            v => Err(cute_core::err!(
                "the compare view draws functionally_equal(A, B), got {}",
                v.kind()
            )),
        },
        #[cfg(feature = "full")]
        View::Algebra if matches!(value, Value::Explain(_)) => {
            let Value::Explain(e) = value else {
                unreachable!("matched above")
            };
            explained_figure(title, e, opts)
        }
        View::Algebra => match call {
            Some(c) if is_algebra_op(&c.name) => {
                algebra_figure(title, c, value, opts)
            }
            Some(c) => Err(cute_core::err!(
                "the algebra view draws a call of {}; the line calls {}",
                algebra_ops(),
                c.name
            )),
            None => Err(cute_core::err!(
                "the algebra view draws the operands and result of a call of {}; the drawn line is not such a call",
                algebra_ops()
            )),
        },
        // The first picture's module: the other views are the page's to draw once it has
        // loaded.
        #[cfg(not(feature = "full"))]
        v => Err(cute_core::err!(
            "the {} view is drawn by the page's full module",
            v.name()
        )),
    }
}

/// `explain(op(...))`: the algebra view of the call, its derivation under it.
#[cfg(feature = "full")]
fn explained_figure(title: &str, e: &cute_lang::Explained, opts: &Options) -> Result<Figure> {
    let call = Call {
        name: e.name.clone(),
        args: e.args.iter().cloned().map(Ok).collect(),
    };
    let result = Value::Layout(e.explanation.result.clone());
    let mut fig = algebra_figure(title, &call, &result, opts)?;
    fig.notes.push("derivation, as CuTe computes it:".into());
    // SVG text collapses spaces: the steps' indentation is kept as no-break spaces.
    fig.notes.extend(e.explanation.lines.iter().map(|l| {
        let body = l.trim_start_matches(' ');
        "\u{a0}".repeat(l.len() - body.len()) + body
    }));
    Ok(fig)
}

/// The mma view of an MMA atom or TiledMMA.
fn mma_view(title: &str, value: &Value, opts: &Options) -> Result<Figure> {
    let m = match value {
        Value::TiledMma(m) => (**m).clone(),
        Value::Atom(a) => match &**a {
            Atom::Mma(a) => a.tiled()?,
            Atom::Copy(c) => {
                return Err(cute_core::err!(
                    "{} is a copy atom: use the copy view",
                    c.name
                ))
            }
        },
        v => {
            return Err(cute_core::err!(
                "the mma view draws an MMA atom or TiledMMA, got {}",
                v.kind()
            ))
        }
    };
    mma_figure(title, &m, opts)
}

/// The copy view of a copy atom or TiledCopy.
fn copy_view(title: &str, value: &Value, opts: &Options) -> Result<Figure> {
    let c = match value {
        Value::TiledCopy(c) => (**c).clone(),
        Value::Atom(a) => match &**a {
            // An atom without a value type moves 16-bit values.
            Atom::Copy(c) => match c.val_bits {
                Some(_) => c.tiled()?,
                None => c.with_value_bits(16)?.tiled()?,
            },
            Atom::Mma(m) => {
                return Err(cute_core::err!(
                    "{} is an MMA atom: use the mma view",
                    m.name
                ))
            }
        },
        v => {
            return Err(cute_core::err!(
                "the copy view draws a copy atom or TiledCopy, got {}",
                v.kind()
            ))
        }
    };
    copy_figure(title, &c, opts)
}

/// The tmem view of a TMEM accumulator or a TMEM load/store atom.
fn tmem_view(title: &str, value: &Value, opts: &Options) -> Result<Figure> {
    match value {
        v if tmem_tensor(v).is_some() => {
            let t = tmem_tensor(v).expect("checked")?;
            tmem_tensor_figure(title, &t, opts)
        }
        Value::Atom(a) => match &**a {
            Atom::Copy(c) if c.tmem_copy().is_some() => {
                let val_id = c
                    .val_id()?
                    .ok_or_else(|| cute_core::err!("{}: no ValID in the atom table", c.name))?;
                tmem_atom_figure(title, c, &val_id, opts)
            }
            a => Err(cute_core::err!(
                "the tmem view draws a TMEM load/store atom (SM100_TMEM_LOAD_*, SM100_TMEM_STORE_*), not {}",
                a.name()
            )),
        },
        v => Err(cute_core::err!(
            "the tmem view draws partition_fragment_C(...) of an SM100 UMMA or a TMEM load/store atom, got {}",
            v.kind()
        )),
    }
}
