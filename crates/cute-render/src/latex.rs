//! LaTeX (TikZ) export: what CuTe C++'s `print_latex` prints for a layout, a swizzled
//! layout, a thread-value layout, an MMA atom or TiledMMA, and a TiledCopy, line for line
//! (`cute/util/print_latex.hpp`). Its `%` comment lines print the values as `print` does,
//! here without the `_` of static integers, as every value of this project prints.

use cute_core::atom::{Atom, TiledCopy, TiledMma};
use cute_core::int_tuple::IntTuple;
use cute_core::layout::{self as alg, Layout};
use cute_core::swizzle::{AnyLayout, ComposedLayout, Offset};
use cute_core::tensor::Tensor;
use cute_core::{Error, Result};
use cute_lang::Value;
use std::fmt::Write;

/// The most nodes a picture has: a document LaTeX still compiles in seconds.
pub const LATEX_CELL_CAP: i64 = 1 << 16;

/// `print_latex(value)` as CuTe C++ prints it.
///
/// ```
/// let v = cute_lang::eval_line("(2,2):(1,2)").unwrap();
/// let tex = cute_render::latex::latex(&v).unwrap();
/// assert!(tex.starts_with("% Layout: (2,2):(1,2)\n\\documentclass[convert]{standalone}\n"));
/// assert!(tex.contains("\\node[fill=black!40] at (1,0) {1};\n"));
/// ```
pub fn latex(value: &Value) -> Result<String> {
    match value {
        Value::Layout(l) => layout_latex(&LayoutFn::Plain(l)),
        Value::Composed(c) => composed_latex(c),
        // `make_layout_tv(thr, val)`'s `(tile, tv)`: print_latex_tv over the tile.
        Value::Tuple(vs) if vs.len() == 2 && matches!(vs[1], Value::Layout(_)) => {
            let Value::Layout(tv) = &vs[1] else {
                unreachable!("matched above")
            };
            tv_latex(tv, &vs[0].to_int_tuple()?.product_each()?)
        }
        Value::TiledMma(m) => mma_latex(m),
        Value::Atom(a) => match &**a {
            Atom::Mma(m) => mma_latex(&m.tiled()?),
            Atom::Copy(_) => Err(Error::new(
                "C++ has no print_latex of a Copy_Atom: print the TiledCopy made of it (make_tiled_copy(atom, thr_layout, val_layout))",
            )),
        },
        Value::TiledCopy(c) => copy_latex(c),
        v => Err(cute_core::err!(
            "print_latex draws a layout, a swizzled layout, a thread-value layout (make_layout_tv), an MMA atom, a TiledMMA or a TiledCopy, got {}",
            v.kind()
        )),
    }
}

/// Whether [`latex`] draws a value of this kind (without writing it): the page's LaTeX
/// button asks before it is clicked.
///
/// ```
/// let v = cute_lang::eval_line("(4,8):(8,1)").unwrap();
/// assert!(cute_render::latex::draws(&v));
/// assert!(!cute_render::latex::draws(&cute_lang::eval_line("8").unwrap()));
/// ```
pub fn draws(value: &Value) -> bool {
    match value {
        Value::Layout(_) | Value::Composed(_) | Value::TiledMma(_) | Value::TiledCopy(_) => true,
        Value::Tuple(vs) => vs.len() == 2 && matches!(vs[1], Value::Layout(_)),
        Value::Atom(a) => matches!(**a, Atom::Mma(_)),
        _ => false,
    }
}

const HEADER: &str = "\\documentclass[convert]{standalone}\n\
\\usepackage{tikz}\n\n\
\\begin{document}\n\
\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n";

const FOOTER: &str = "\\end{tikzpicture}\n\\end{document}\n";

/// `TikzColor_BWx8`: the grey of an offset.
const BW_X8: [&str; 8] = [
    "black!00", "black!40", "black!20", "black!60", "black!10", "black!50", "black!30", "black!70",
];

/// `TikzColor_TV`: the pastel of a thread.
const TV: [&str; 8] = [
    "{rgb,255:red,175;green,175;blue,255}",
    "{rgb,255:red,175;green,255;blue,175}",
    "{rgb,255:red,255;green,255;blue,175}",
    "{rgb,255:red,255;green,175;blue,175}",
    "{rgb,255:red,210;green,210;blue,255}",
    "{rgb,255:red,210;green,255;blue,210}",
    "{rgb,255:red,255;green,255;blue,210}",
    "{rgb,255:red,255;green,210;blue,210}",
];

/// A layout the rank-2 printer walks: plain, or swizzled (`Sw o 0 o L`).
enum LayoutFn<'a> {
    Plain(&'a Layout),
    Swizzled(&'a ComposedLayout),
}

/// `append<2>(layout, Layout<_1,_0>{})`: rank 2, after C++'s `rank <= 2` assertion.
fn as_rank2(l: &Layout) -> Result<Layout> {
    if l.rank() > 2 {
        return Err(cute_core::err!(
            "print_latex draws a layout of rank 2 at most; {l} has rank {} (C++: static_assert rank(layout) <= 2)",
            l.rank()
        ));
    }
    alg::append(
        l,
        2,
        Some(&Layout::new(IntTuple::Int(1), IntTuple::Int(0))?),
    )
}

/// `(M, N)`: the product of each of the two modes, refused above [`LATEX_CELL_CAP`].
fn grid_size(shape: &IntTuple) -> Result<(i64, i64)> {
    let each = shape.product_each()?.leaves();
    let (m, n) = match each[..] {
        [m, n] => (m, n),
        [m] => (m, 1),
        _ => {
            return Err(cute_core::err!(
                "print_latex draws a grid of two modes, got {shape}"
            ))
        }
    };
    let cells = cute_core::error::arith::mul(m, n)?;
    if !(0..=LATEX_CELL_CAP).contains(&cells) || m < 0 || n < 0 {
        return Err(cute_core::err!(
            "a {m}x{n} picture is too big for print_latex here: at most {LATEX_CELL_CAP} cells"
        ));
    }
    Ok((m, n))
}

/// `TikzColor_BWx8` of `idx`; C++ indexes its table by `idx % 8`, outside it when negative.
fn grey(idx: i64) -> Result<&'static str> {
    if idx < 0 {
        return Err(cute_core::err!(
            "print_latex colours a cell by its offset mod 8 and offset {idx} is negative (C++ reads outside its colour table)"
        ));
    }
    Ok(BW_X8[(idx % 8) as usize])
}

/// The `grid` line of a panel whose corners are (r0, c0) and (r1, c1).
fn grid(out: &mut String, (r0, c0): (i64, i64), (r1, c1): (i64, i64)) {
    let _ = write!(
        out,
        "\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] ({r0},{c0}) grid ({r1},{c1});\n\n"
    );
}

/// A header number at (r, c).
fn label(out: &mut String, r: i64, c: i64, text: i64) {
    let _ = writeln!(
        out,
        "\\node at ({r},{c}) {{\\Large{{\\texttt{{{text}}}}}}};"
    );
}

/// Row numbers down column `c`, `m` rows from row `r0`... and column numbers along row
/// `r`: CuTe's labels of one panel.
fn labels(out: &mut String, (m, n): (i64, i64), row_labels_at: i64, col_labels_at: i64, col0: i64) {
    for i in 0..m {
        label(out, i, row_labels_at, i);
    }
    for j in 0..n {
        label(out, col_labels_at, j + col0, j);
    }
}

/// print_latex of a rank-≤2 layout: each cell its offset, coloured by offset mod 8.
fn layout_latex(f: &LayoutFn) -> Result<String> {
    let inner = match f {
        LayoutFn::Plain(l) => *l,
        LayoutFn::Swizzled(c) => &c.layout,
    };
    let l2 = as_rank2(inner)?;
    let (m, n) = grid_size(l2.shape())?;
    let mut out = String::new();
    let printed = match f {
        LayoutFn::Plain(_) => l2.to_string(),
        LayoutFn::Swizzled(c) => ComposedLayout {
            layout: l2.clone(),
            ..(*c).clone()
        }
        .to_string(),
    };
    let _ = writeln!(out, "% Layout: {printed}");
    out.push_str(HEADER);
    for i in 0..m {
        for j in 0..n {
            let lin = i + m * j;
            let idx = match f {
                LayoutFn::Plain(_) => l2.call_index(lin)?,
                LayoutFn::Swizzled(c) => c.swizzle.apply(cute_core::error::arith::add(
                    c.offset.value(),
                    l2.call_index(lin)?,
                )?),
            };
            let _ = writeln!(out, "\\node[fill={}] at ({i},{j}) {{{idx}}};", grey(idx)?);
        }
    }
    grid(&mut out, (0, 0), (m, n));
    labels(&mut out, (m, n), -1, -1, 0);
    out.push_str(FOOTER);
    Ok(out)
}

/// A swizzled layout: C++ prints a shared-memory atom (`smem_ptr[Nb]` offset) as its
/// position-independent form `Sw o 0 o L` (the swizzle in element units; an identity
/// swizzle drops out), and `Sw o k o L` as it is.
fn composed_latex(c: &ComposedLayout) -> Result<String> {
    match AnyLayout::Composed(c.clone()).in_elements()? {
        AnyLayout::Layout(l) => layout_latex(&LayoutFn::Plain(&l)),
        AnyLayout::Composed(e) if matches!(e.offset, Offset::Int(_)) => {
            layout_latex(&LayoutFn::Swizzled(&e))
        }
        AnyLayout::Composed(e) => Err(cute_core::err!(
            "print_latex draws a swizzled layout with an integer offset or a shared-memory atom's, not {e}"
        )),
    }
}

/// The coordinates of `tv`'s values in `tile`, as C++'s composition of an identity tensor
/// over `tile` with `tv` gives them, and that tensor (what the `%` line prints).
struct TvCoords {
    tensor: Tensor,
    threads: i64,
    values: i64,
    tile: (i64, i64),
}

impl TvCoords {
    fn new(tv: &Layout, tile: &IntTuple) -> Result<TvCoords> {
        if tv.rank() != 2 {
            return Err(cute_core::err!(
                "print_latex of a thread-value layout takes a (thread, value) layout of rank 2, got {tv} (C++: static_assert rank == 2)"
            ));
        }
        let tile_mn = grid_size(tile)?;
        let tensor = Tensor::identity(tile)?.map_layout(|l| alg::composition(l, tv))?;
        let (threads, values) = (tv.mode(0)?.size()?, tv.mode(1)?.size()?);
        if cute_core::error::arith::mul(threads, values)? > LATEX_CELL_CAP {
            return Err(cute_core::err!(
                "{tv} has too many values for print_latex here: at most {LATEX_CELL_CAP}"
            ));
        }
        Ok(TvCoords {
            tensor,
            threads,
            values,
            tile: tile_mn,
        })
    }

    /// `(m, n)` of thread `t`'s value `v`.
    fn at(&self, t: i64, v: i64) -> Result<(i64, i64)> {
        let c = self
            .tensor
            .coordinate_at(&IntTuple::Int(t + self.threads * v))?
            .ok_or_else(|| Error::new("a thread-value tensor without coordinates"))?;
        match c.leaves()[..] {
            [m, n] => Ok((m, n)),
            _ => Err(cute_core::err!("{c} is not an (m, n) coordinate")),
        }
    }

    /// Every first `(t, v)` of each cell, as `\node`s at (row + r0, column + c0); `swap`
    /// writes (n, k) coordinates with k down (the MMA's B).
    fn nodes(&self, out: &mut String, at: impl Fn(i64, i64) -> (i64, i64)) -> Result<()> {
        let (m, n) = self.tile;
        let mut filled = vec![false; usize::try_from(m * n).unwrap_or(0)];
        for t in 0..self.threads {
            for v in 0..self.values {
                let (i, j) = self.at(t, v)?;
                if !(0..m).contains(&i) || !(0..n).contains(&j) {
                    return Err(cute_core::err!(
                        "thread {t}'s value {v} is at ({i},{j}), outside the {m}x{n} tile"
                    ));
                }
                let cell = &mut filled[(i + m * j) as usize];
                if !*cell {
                    *cell = true;
                    let (r, c) = at(i, j);
                    let _ = writeln!(
                        out,
                        "\\node[fill={}] at ({r},{c}) {{\\shortstack{{T{t} \\\\ V{v}}}}};",
                        TV[(t % 8) as usize]
                    );
                }
            }
        }
        Ok(())
    }
}

/// print_latex_tv: each cell the first thread and value that hold it.
fn tv_latex(tv: &Layout, tile: &IntTuple) -> Result<String> {
    let c = TvCoords::new(tv, tile)?;
    let mut out = format!("% Layout TV: {}\n{HEADER}", c.tensor);
    c.nodes(&mut out, |i, j| (i, j))?;
    grid(&mut out, (0, 0), c.tile);
    labels(&mut out, c.tile, -1, -1, 0);
    out.push_str(FOOTER);
    Ok(out)
}

/// print_latex of a TiledMMA: C at the origin, A to its left, B above, as CuTe lays them.
fn mma_latex(mma: &TiledMma) -> Result<String> {
    let (m, n, k) = (mma.tile_size(0)?, mma.tile_size(1)?, mma.tile_size(2)?);
    let shape = |a: i64, b: i64| IntTuple::ints(&[a, b]);
    let c = TvCoords::new(&mma.layout_c_tv()?, &shape(m, n))?;
    let a = TvCoords::new(&mma.layout_a_tv()?, &shape(m, k))?;
    let b = TvCoords::new(&mma.layout_b_tv()?, &shape(n, k))?;
    let mut out = format!(
        "% LayoutC: {}\n% LayoutA: {}\n% LayoutB: {}\n{HEADER}",
        c.tensor, a.tensor, b.tensor
    );
    c.nodes(&mut out, |i, j| (i, j))?;
    grid(&mut out, (0, 0), (m, n));
    a.nodes(&mut out, |i, kk| (i, kk - k - 1))?;
    grid(&mut out, (0, -k - 1), (m, -1));
    for i in 0..m {
        label(&mut out, i, -k - 2, i);
    }
    for kk in 0..k {
        label(&mut out, -1, kk - k - 1, kk);
    }
    b.nodes(&mut out, |j, kk| (kk - k - 1, j))?;
    grid(&mut out, (-k - 1, 0), (-1, n));
    for j in 0..n {
        label(&mut out, -k - 2, j, j);
    }
    for kk in 0..k {
        label(&mut out, kk - k - 1, -1, kk);
    }
    out.push_str(FOOTER);
    Ok(out)
}

/// print_latex of a TiledCopy: S at the origin, D three columns to its right.
fn copy_latex(copy: &TiledCopy) -> Result<String> {
    let tile = copy.tiler.product_each()?;
    let (m, n) = grid_size(&tile)?;
    let side = |src: bool| -> Result<TvCoords> {
        let tv = copy.tidfrg(src, &Layout::col_major(tile.clone())?)?.slice(
            &cute_core::int_tuple::Coord::Tuple(vec![
                cute_core::int_tuple::Coord::Under,
                cute_core::int_tuple::Coord::Under,
                cute_core::int_tuple::Coord::Int(0),
            ]),
        )?;
        TvCoords::new(&tv, &tile)
    };
    let (s, d) = (side(true)?, side(false)?);
    let mut out = format!(
        "% Layout S TV: {}\n% Layout D TV: {}\n\n{HEADER}",
        s.tensor, d.tensor
    );
    // C++ prints an empty line after the comments here (its header's first line).
    out = out.replacen("\n\n\\documentclass", "\n\\documentclass", 1);
    s.nodes(&mut out, |i, j| (i, j))?;
    grid(&mut out, (0, 0), (m, n));
    labels(&mut out, (m, n), -1, -1, 0);
    d.nodes(&mut out, |i, j| (i, j + n + 3))?;
    grid(&mut out, (0, n + 3), (m, n + n + 3));
    for i in 0..m {
        label(&mut out, i, n + n + 3, i);
    }
    for j in 0..n {
        label(&mut out, -1, j + n + 3, j);
    }
    out.push_str(FOOTER);
    Ok(out)
}
