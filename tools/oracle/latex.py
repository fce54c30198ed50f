#!/usr/bin/env python3
"""Golden data for CuTe's `print_latex` (cute/util/print_latex.hpp), from the real CuTe
headers (host-only g++).

Writes testdata/latex-cases.jsonl: {"op", "expr", "expect"}, where `expect` is the exact,
full stdout of the print call (the TikZ document, trailing newline included; the `%`
comment lines keep C++'s `_4` for static integers: nothing is rewritten), or
{"op", "expr", "expect": "error", "msg"} where g++ refuses the case (`msg`: the first
static_assert message, or the first `error:` line when the assert has none). Every `expr`
is C++ and an expression of the language alike. Ops and the C++ body of each:

- "layout": `print_latex(EXPR);` of plain layouts (rank 1 and 2, static and dynamic
  integers, hierarchical modes, column/row-major, zero strides, 1x1 to 16x16; seeded
  random) plus rank-3 layouts, which C++ refuses (`rank(layout_a) <= Int<2>{}`, an assert
  without a message: `msg` is "static assertion failed");
- "composed": `print_latex(EXPR);` of swizzled layouts: the GMMA atoms and their
  `tile_to_shape`s, `make_composed_layout(Swizzle<..>{}, smem_ptr_flag_bits<B>{}, L)`
  (ComposedLayout<Swizzle, smem_ptr_flag_bits, L>: C++ prints the position-independent
  form), and `composition(Swizzle<..>{}, L)` (offset `_0`: no overload of its own, the
  plain-layout one prints it, `Sw<..> o _0 o L`);
- "tv": `auto r = EXPR; auto tile = product_each(shape(get<0>(r)));
  print_latex_tv(composition(make_identity_tensor(tile), get<1>(r)), tile);` for
  EXPR = `make_layout_tv(thr, val)`. CuTe C++ has no `make_layout_tv`: the prelude defines
  it as the language's spec does (as gen.py's `make_layout_tv_`): `raked_product`, then
  `right_inverse(..).with_shape(size(thr), size(val))`, returning `(tiler, layout_tv)`;
- "mma": `print_latex(EXPR);` of MMA_Atom and TiledMMA values (SM70/75/80, UniversalFMA,
  atom layouts, permutation tiles);
- "copy": `print_latex(EXPR);` of TiledCopy values (make_tiled_copy with UniversalCopy /
  DefaultCopy / cp.async atoms, make_tiled_copy_A/B/C with LDSM atoms over SM80 MMAs).

The runner is descs.py's Oracle (batching, error isolation); this script only keeps its
output verbatim (descs.Oracle rewrites `_4` to `4` and drops a trailing newline).

Run: ORACLE_DIR=oracle-work python3 tools/oracle/latex.py [-j 2] [--include DIR]
     [--check-cli target/release/render]
(`--include DIR` compiles against other CuTe headers, e.g. oracle-work/cutlass-new/include;
`--check-cli` also runs `render --print EXPR` on every expression and reports refusals.)
"""

import argparse
import concurrent.futures as cf
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import descs  # noqa: E402  (the Oracle runner)

descs.HEADERS = r"""#include <cstdio>
#include <cstdlib>
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm75.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/util/print_latex.hpp>
using namespace cute;
// make_layout_tv as the expression spec defines it (CuTe C++ has none): (tiler, layout_tv)
template <class Thr, class Val>
auto make_layout_tv(Thr const& thr, Val const& val) {
  auto layout_mn = raked_product(thr, val);
  auto layout_tv = right_inverse(layout_mn).with_shape(make_shape(size(thr), size(val)));
  auto tiler = product_each(shape(layout_mn));
  return cute::make_tuple(tiler, layout_tv);
}
"""
OUT = os.path.join(descs.ROOT, "testdata/latex-cases.jsonl")
R = random.Random(20261203)

# descs.Oracle.batch rewrites each case's output line by line; these stand-ins keep `_`
# and newlines out of its reach (private-use code points, not line breaks for splitlines).
US, NL = "\ue000", "\ue001"


class LatexOracle(descs.Oracle):
    def __init__(self, oracle_dir, tmp, include=None):
        super().__init__(oracle_dir, tmp)
        if include:
            self.inc = self.inc[:-1] + ["-I%s" % include]

    def compile_run(self, cs):
        out, err = super().compile_run(cs)
        if out is None:
            return out, err
        parts = re.split(r"^@@(\d+)\n", out, flags=re.M)
        enc = [parts[0]]
        for k in range(1, len(parts), 2):
            enc.append("@@%s\n%s\n" % (parts[k], parts[k + 1].replace("_", US).replace("\n", NL)))
        return "".join(enc), None

    def batch(self, cs):
        super().batch(cs)
        for c in cs:
            if c.expect is not None and c.expect != "error":
                c.expect = c.expect.replace(NL, "\n").replace(US, "_")


def first_error(stderr):
    m = re.search(r"static assertion failed: (.*)", stderr)
    if m:
        return m.group(1).strip()
    m = re.search(r"error: (.*)", stderr)
    return m.group(1).strip() if m else None


# ---------------------------------------------------------------------------- cases

def print_case(op, expr):
    return descs.Case(op, expr, "  print_latex(%s);\n" % expr)


def tv_case(expr):
    body = ("  auto r = %s;\n  auto tile = product_each(shape(get<0>(r)));\n"
            "  print_latex_tv(composition(make_identity_tensor(tile), get<1>(r)), tile);\n" % expr)
    return descs.Case("tv", expr, body)


def leaves(t):
    return [t] if isinstance(t, int) else [x for m in t for x in leaves(m)]


def size(t):
    n = 1
    for x in leaves(t):
        n *= x
    return n


def fill(t, it):
    return next(it) if isinstance(t, int) else tuple(fill(m, it) for m in t)


def compact(t, order):
    """Compact strides of shape t: column-major (order 'col') or row-major ('row')."""
    ls = leaves(t)
    idx = range(len(ls)) if order == "col" else range(len(ls) - 1, -1, -1)
    st, acc = [0] * len(ls), 1
    for i in idx:
        st[i] = acc
        acc *= ls[i]
    return fill(t, iter(st))


def rmode(cap):
    """A mode of size <= cap: an integer or (rarely) a pair/triple of integers."""
    if R.random() < 0.35:
        k = R.choice([2, 2, 3])
        m, c = [], cap
        for _ in range(k):
            opts = [d for d in [1, 2, 2, 3, 4, 4] if d <= c]
            d = R.choice(opts)
            m.append(d)
            c //= d
        return tuple(m)
    return R.choice([d for d in [1, 2, 3, 4, 5, 6, 7, 8, 12, 16] if d <= cap])


# The static integers CuTe names (cute/numeric/integral_constant.hpp); others are Int<N>.
NAMED = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 24, 32, 48, 64, 96, 128, 256, 512}


def sint(n):
    return ("_%d" % n) if n in NAMED else ("Int<%d>" % n)


def cpp_tuple(t, fn, static):
    if isinstance(t, int):
        return (sint(t) + "{}") if static(t) else str(t)
    return "%s(%s)" % (fn, ", ".join(cpp_tuple(m, fn, static) for m in t))


def type_tuple(t, name):
    if isinstance(t, int):
        return sint(t)
    return "%s<%s>" % (name, ",".join(type_tuple(m, name) for m in t))


def layout_expr(shape, stride, style, ints):
    """shape/stride: tuples of modes (rank 1 or 2)."""
    static = {"static": lambda v: True, "dynamic": lambda v: False,
              "mixed": lambda v: R.random() < 0.5}[ints]
    one = len(shape) == 1
    if style == "type":
        if one:
            return "Layout<%s,%s>{}" % (type_tuple(shape[0], "Shape"), type_tuple(stride[0], "Stride"))
        return "Layout<%s,%s>{}" % (type_tuple(shape, "Shape"), type_tuple(stride, "Stride"))
    sh = cpp_tuple(shape[0], "make_shape", static) if one and isinstance(shape[0], int) else cpp_tuple(shape, "make_shape", static)
    if style == "col":
        return "make_layout(%s)" % sh
    if style == "row":
        return "make_layout(%s, LayoutRight{})" % sh
    sd = cpp_tuple(stride[0], "make_stride", static) if one and isinstance(shape[0], int) else cpp_tuple(stride, "make_stride", static)
    return "make_layout(%s, %s)" % (sh, sd)


def layout_cases():
    out = []
    fixed = [
        "make_layout(make_shape(_2{}, _2{}), make_stride(_1{}, _2{}))",
        "Layout<_1,_0>{}",
        "make_layout(make_shape(1, 1))",
        "make_layout(make_shape(make_shape(_2{},_2{}), make_shape(_2{},_4{})), make_stride(make_stride(_1{},_4{}), make_stride(_2{},_8{})))",
        "Layout<Shape<_16,_16>,Stride<_16,_1>>{}",
        "make_layout(make_shape(16, 16))",
        "make_layout(make_shape(_4{}, _8{}), make_stride(_8{}, _1{}))",
        "make_layout(make_shape(4, 8))",
        "make_layout(make_shape(_8{}, _8{}), make_stride(_0{}, _1{}))",
        "make_layout(make_shape(4, 4), make_stride(0, 0))",
        "make_layout(_8{})",
        "make_layout(8, 2)",
        "Layout<_8,_2>{}",
        "make_layout(make_shape(_4{}, _8{}), LayoutRight{})",
    ]
    out += [print_case("layout", e) for e in fixed]
    while len(out) < 60:
        rank = R.choice([1, 2, 2, 2, 2])
        shape = tuple(rmode(16) for _ in range(rank))
        if rank == 1 and isinstance(shape[0], tuple) and R.random() < 0.5:
            shape = (shape[0],)  # a rank-1 layout with a hierarchical mode
        kind = R.choice(["col", "row", "rand", "rand"])
        if kind == "rand":
            stride = fill(shape, iter([R.choice([0, 1, 1, 2, 3, 4, 8, 16, 32]) for _ in leaves(shape)]))
            style = R.choice(["make", "make", "type"])
        else:
            stride = compact(shape, kind)
            style = R.choice([kind, "make", "type"])
        ints = "static" if style == "type" else R.choice(["static", "dynamic", "mixed"])
        out.append(print_case("layout", layout_expr(shape, stride, style, ints)))
    # Rank 3: C++ refuses (CUTE_STATIC_ASSERT_V(rank(layout_a) <= Int<2>{})).
    for e in ["make_layout(make_shape(_2{}, _2{}, _2{}))", "Layout<Shape<_2,_4,_2>>{}",
              "make_layout(make_shape(2, 3, 4), LayoutRight{})"]:
        out.append(print_case("layout", e))
    return out


def composed_cases():
    out = []
    width = {"INTER": 128, "SW32": 256, "SW64": 512, "SW128": 1024}  # bits of the K-major row
    for ty, bits in [("half_t", 16), ("float", 32), ("uint8_t", 8)]:
        for major in ["K", "MN"]:
            for sw in ["INTER", "SW32", "SW64", "SW128"]:
                if ty != "half_t" and sw in ("SW32", "SW64") and major == "MN":
                    continue
                out.append(print_case("composed", "GMMA::Layout_%s_%s_Atom<%s>{}" % (major, sw, ty)))
    for atom, shp in [("GMMA::Layout_K_SW32_Atom<half_t>{}", "Shape<_16,_32>{}"),
                      ("GMMA::Layout_K_SW64_Atom<half_t>{}", "Shape<_16,_32>{}"),
                      ("GMMA::Layout_MN_SW32_Atom<half_t>{}", "Shape<_32,_16>{}"),
                      ("GMMA::Layout_K_INTER_Atom<float>{}", "Shape<_16,_8>{}")]:
        out.append(print_case("composed", "tile_to_shape(%s, %s)" % (atom, shp)))
    for (b, m, s), bits, lay in [((3, 3, 3), 16, "Layout<Shape<_8,_64>,Stride<_64,_1>>{}"),
                                 ((2, 3, 3), 16, "Layout<Shape<_8,_32>,Stride<_32,_1>>{}"),
                                 ((1, 2, 3), 32, "Layout<Shape<_8,_8>,Stride<_8,_1>>{}"),
                                 ((2, 4, 3), 8, "Layout<Shape<_16,_16>,Stride<_1,_16>>{}")]:
        out.append(print_case("composed", "make_composed_layout(Swizzle<%d,%d,%d>{}, smem_ptr_flag_bits<%d>{}, %s)"
                              % (b, m, s, bits, lay)))
    # Integer offset (_0): the generic (plain layout) overload takes ComposedLayout<Swizzle, _0, L>.
    for sw, lay in [("Swizzle<3,3,3>{}", "Layout<Shape<_8,_64>,Stride<_64,_1>>{}"),
                    ("Swizzle<1,2,3>{}", "Layout<Shape<_8,_8>,Stride<_8,_1>>{}"),
                    ("Swizzle<2,3,3>{}", "make_layout(make_shape(8, 32), make_stride(32, 1))")]:
        out.append(print_case("composed", "composition(%s, %s)" % (sw, lay)))
    return out


def tv_cases():
    pairs = [
        ("make_layout(make_shape(_4{},_8{}))", "make_layout(make_shape(_2{},_2{}))"),
        ("Layout<Shape<_4,_8>,Stride<_8,_1>>{}", "Layout<Shape<_1,_4>>{}"),
        ("Layout<Shape<_8,_4>,Stride<_4,_1>>{}", "Layout<Shape<_2,_2>>{}"),
        ("Layout<Shape<_2,_2>>{}", "Layout<Shape<_2,_2>>{}"),
        ("Layout<Shape<_16,_2>,Stride<_2,_1>>{}", "Layout<Shape<_1,_4>>{}"),
        ("Layout<Shape<_32,_1>>{}", "Layout<Shape<_4,_1>>{}"),
        ("Layout<Shape<_4,_4>>{}", "Layout<Shape<_4,_1>>{}"),
        ("Layout<Shape<_2,_16>,Stride<_16,_1>>{}", "Layout<Shape<_4,_2>,Stride<_2,_1>>{}"),
        ("make_layout(make_shape(_8{},_2{}), LayoutRight{})", "make_layout(make_shape(_2{},_4{}))"),
        ("Layout<Shape<_8,_8>,Stride<_8,_1>>{}", "Layout<Shape<_1,_2>>{}"),
        ("Layout<Shape<_16,_1>>{}", "Layout<Shape<_1,_8>>{}"),
    ]
    return [tv_case("make_layout_tv(%s, %s)" % p) for p in pairs]


def mma_cases():
    es = [
        "MMA_Atom<SM80_16x8x8_F16F16F16F16_TN>{}",
        "MMA_Atom<SM80_16x8x16_F16F16F16F16_TN>{}",
        "MMA_Atom<SM80_16x8x8_F32F16F16F32_TN>{}",
        "MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>{}",
        "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{})",
        "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{})",
        "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})",
        "make_tiled_mma(SM80_16x8x8_F32F16F16F32_TN{}, Layout<Shape<_1,_2,_1>>{})",
        "make_tiled_mma(SM80_16x8x8_F32F16F16F32_TN{}, Layout<Shape<_1,_2,_1>>{}, Tile<_16,_32,_8>{})",
        "make_tiled_mma(SM80_16x8x8_F32F16F16F32_TN{}, Layout<Shape<_1,_2,_1>>{}, Tile<_16,Layout<Shape<_8,_2>,Stride<_2,_1>>,_8>{})",
        "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>,_16>{})",
        "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_1,_1>>{})",
        "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>,Stride<_2,_1,_0>>{})",
        "MMA_Atom<SM70_8x8x4_F16F16F16F16_TN>{}",
        "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{})",
        "MMA_Atom<SM75_16x8x8_F32F16F16F32_TN>{}",
        "make_tiled_mma(SM75_16x8x8_F32F16F16F32_TN{}, Layout<Shape<_2,_1,_1>>{})",
        "make_tiled_mma(UniversalFMA<float,float,float>{}, Layout<Shape<_16,_16,_1>>{})",
        "make_tiled_mma(UniversalFMA<float,float,float,float>{}, Layout<Shape<_4,_8,_1>>{})",
    ]
    return [print_case("mma", e) for e in es]


def copy_cases():
    es = [
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_2>>{})",
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_8,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{})",
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, float>{}, Layout<Shape<_8,_4>>{}, Layout<Shape<_2,_1>>{})",
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>{}, Layout<Shape<_4,_8>>{}, Layout<Shape<_1,_1>>{})",
        "make_tiled_copy(Copy_Atom<DefaultCopy, float>{}, Layout<Shape<_4,_8>>{}, Layout<Shape<_2,_1>>{})",
        "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_8,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{})",
        "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, uint8_t>{}, Layout<Shape<_4,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_4>>{})",
        "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}))",
        "make_tiled_copy_A(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}))",
        "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}))",
        "make_tiled_copy_B(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}))",
        "make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{}))",
        "make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}))",
        "make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}))",
        "make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}))",
    ]
    return [print_case("copy", e) for e in es]


def cases():
    return descs.unique(layout_cases() + composed_cases() + tv_cases() + mma_cases() + copy_cases())


def check_cli(render, cs):
    """The expressions `render --print` refuses: [(expr, error text)]."""
    bad = []
    for c in cs:
        p = subprocess.run([render, "--print", c.expr], capture_output=True, text=True, timeout=120)
        if p.returncode != 0 or p.stdout.startswith("error"):
            bad.append((c.expr, (p.stdout + p.stderr).strip()))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle-dir", default=os.environ.get("ORACLE_DIR", "oracle-work"))
    ap.add_argument("--include", help="CuTe include dir to use instead of the wheel's")
    ap.add_argument("--out", default=OUT)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--batch", type=int, default=30)
    ap.add_argument("--check-cli", metavar="RENDER", help="also check every expr with `RENDER --print`")
    a = ap.parse_args()
    cs = cases()
    if a.check_cli:
        for e, msg in check_cli(a.check_cli, cs):
            print("CLI refuses %s: %s" % (e, msg), file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        o = LatexOracle(os.path.abspath(a.oracle_dir), tmp, a.include)
        chunks = [cs[i:i + a.batch] for i in range(0, len(cs), a.batch)]
        with cf.ThreadPoolExecutor(a.j) as ex:
            list(ex.map(o.batch, chunks))
        for c in cs:
            if c.expect == "error" and not c.msg and not c.runtime:
                # The assert had no message: the first error line instead.
                _, err = o.compile_run([c])
                c.msg = first_error(err[0]) if err else None
    with open(a.out, "w") as f:
        for c in cs:
            f.write(json.dumps(descs.golden_row(c)) + "\n")
    counts = {}
    for c in cs:
        k = counts.setdefault(c.op, [0, 0])
        k[c.expect == "error"] += 1
    print("%d cases -> %s; per op (ok, error): %s" % (len(cs), a.out, counts), file=sys.stderr)


if __name__ == "__main__":
    main()
