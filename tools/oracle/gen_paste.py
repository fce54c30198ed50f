#!/usr/bin/env python3
"""Golden "paste" cases: CuTe C++ expressions exactly as written in kernels.

Every case is ONE single-line C++ expression EXPR (static integers only, e.g.
`tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<128>{}, Int<64>{}, Int<4>{}))`)
that is compiled as `print(EXPR);` (inside a function, `using namespace cute;`) against the
real CuTe headers (the oracle, see tools/oracle/setup.sh) and run. The
same string is later the input of our parser. The expectation is what C++ printed with the
`_` of static integers removed, or "error" when g++ refuses the expression.

Outputs (deterministic, fixed SEED):
  testdata/paste-cases.jsonl          {"op","expr","expect"} per line
  testdata/paste-dynamic-cases.jsonl  dynamic-int spellings whose result
                                                         differs from the static twin (the twin
                                                         is in paste-cases.jsonl, op "static_twin")
See README.md in this directory (section "Paste oracle") for how to rerun.

Batching / error isolation reuse gen.py's Oracle (one `static void fN(){...}` per case, cases
of a failing translation unit are isolated via the compiler's line numbers, a case that fails
alone is "error").
"""
import argparse
import json
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402  (Oracle, first_error)

REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
DATA = os.path.join(REPO, "testdata")
DEFAULT_OUT = os.path.join(DATA, "paste-cases.jsonl")
DEFAULT_DYN_OUT = os.path.join(DATA, "paste-dynamic-cases.jsonl")

SEED = 20250917
R = random.Random(SEED)

# The static integer aliases `_N` that cute/numeric/integral_constant.hpp defines (CUTLASS 4.2).
# Anything else (`_11`, `_20`, `_100`, ...) does not exist and must be spelled Int<N>{}.
ALIASES = ([-32, -24, -16, -12, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1]
           + list(range(0, 11)) + [12, 16, 24] + list(range(32, 257, 8))
           + [384, 512, 768, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288])
ALIAS = set(ALIASES)

PRELUDE = r"""
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm61.hpp>
#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm75.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm89.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/mma_traits_sm90_gmma_sparse.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm90.hpp>
#include <cstdio>
using namespace cute;
"""
CXXFLAGS = ["-DCUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED"]


# ----------------------------------------------------------------------------
# spelling helpers: one Sp per case, so a case is written in one consistent style
# ----------------------------------------------------------------------------
def alias_name(n):
    return "_m%d" % -n if n < 0 else "_%d" % n


class Sp:
    def __init__(self, style=None, ns=None, tsp=None):
        r = R.random()
        self.style = style or ("_" if r < 0.6 else ("Int" if r < 0.88 else "C"))
        self.ns = ns if ns is not None else ("cute::" if R.random() < 0.15 else "")
        # separator inside template argument lists
        self.tsep = tsp if tsp is not None else ("," if R.random() < 0.65 else ", ")

    def i(self, n):
        """static integer value"""
        if self.style == "_" and n in ALIAS:
            return "%s{}" % alias_name(n)
        if self.style == "C":
            return "C<%d>{}" % n
        return "Int<%d>{}" % n

    def t(self, n):
        """static integer type"""
        if self.style != "Int" and n in ALIAS:
            return alias_name(n)
        return "Int<%d>" % n

    def f(self, name):
        return self.ns + name

    # --- int tuples ---
    def tup(self, v, kind="shape"):
        """value spelling via make_KIND(...)"""
        if isinstance(v, tuple):
            return "%s(%s)" % (self.f("make_" + kind), ", ".join(self.tup(x, kind) for x in v))
        if v is US:
            return "_"
        return self.i(v)

    def ttype(self, v, kind="Shape"):
        """type spelling Shape<_8,Shape<_2,_4>>"""
        if isinstance(v, tuple):
            return "%s<%s>" % (kind, self.tsep.join(self.ttype(x, kind) for x in v))
        return self.t(v)

    def shape(self, v, kind="shape"):
        """a shape value: make_shape(...) or Shape<...>{} (random)"""
        if not isinstance(v, tuple):
            return self.i(v)
        if R.random() < 0.35:
            return self.ttype(v, kind.capitalize()) + "{}"
        return self.tup(v, kind)

    def layout(self, shape, stride=None, form=None):
        """a layout value in one of the human spellings"""
        if stride is None:
            stride = colmajor(shape)
        form = form or R.choice(["type", "type", "make", "make"])
        col = stride == colmajor(shape)
        row = isinstance(shape, tuple) and stride == rowmajor(shape) and not col
        if form == "type":
            if not isinstance(shape, tuple):
                if stride == 1 and R.random() < 0.5:
                    return "%s<%s>{}" % (self.f("Layout"), self.t(shape))
                return "%s<%s%s%s>{}" % (self.f("Layout"), self.t(shape), self.tsep, self.t(stride))
            if col and R.random() < 0.6:
                return "%s<%s>{}" % (self.f("Layout"), self.ttype(shape, "Shape"))
            return "%s<%s%s%s>{}" % (self.f("Layout"), self.ttype(shape, "Shape"), self.tsep,
                                     self.ttype(stride, "Stride"))
        if not isinstance(shape, tuple):
            if stride == 1 and R.random() < 0.5:
                return "%s(%s)" % (self.f("make_layout"), self.i(shape))
            return "%s(%s, %s)" % (self.f("make_layout"), self.i(shape), self.i(stride))
        if col and R.random() < 0.6:
            if R.random() < 0.2:
                return "%s(%s, LayoutLeft{})" % (self.f("make_layout"), self.tup(shape))
            return "%s(%s)" % (self.f("make_layout"), self.tup(shape))
        if row and R.random() < 0.6:
            return "%s(%s, %s)" % (self.f("make_layout"), self.tup(shape),
                                   R.choice(["LayoutRight{}", "GenRowMajor{}"]))
        return "%s(%s, %s)" % (self.f("make_layout"), self.tup(shape), self.tup(stride, "stride"))


class _U:
    pass


US = _U()


# ----------------------------------------------------------------------------
# int-tuple helpers
# ----------------------------------------------------------------------------
def flat(t):
    if isinstance(t, tuple):
        return [y for x in t for y in flat(x)]
    return [t]


def prod(t):
    p = 1
    for x in flat(t):
        p *= x
    return p


def fill(tree, it):
    if isinstance(tree, tuple):
        return tuple(fill(x, it) for x in tree)
    return next(it)


def colmajor(shape, start=1):
    it = []
    cur = start
    for s in flat(shape):
        it.append(cur)
        cur *= s
    return fill(shape, iter(it))


def rowmajor(shape):
    if not isinstance(shape, tuple):
        return 1
    # CuTe's GenRowMajor: compact, last mode fastest (nested modes also row-major)
    fl = flat(shape)
    st = [0] * len(fl)
    cur = 1
    for i in range(len(fl) - 1, -1, -1):
        st[i] = cur
        cur *= fl[i]
    return fill(shape, iter(st))


def depth_of(t):
    if isinstance(t, tuple):
        return 1 + max([depth_of(x) for x in t] or [0])
    return 0


def rank_of(t):
    return len(t) if isinstance(t, tuple) else 1


def rand_shape(rank=None, depth=None, maxsize=1024, pool=(2, 2, 4, 4, 8, 8, 16, 3, 6, 12, 32)):
    for _ in range(200):
        rank = rank or R.choice([1, 2, 2, 2, 3, 3])
        d = depth if depth is not None else R.choice([1, 1, 1, 2])
        modes = []
        for k in range(rank):
            if d >= 2 and (k == rank - 1 or R.random() < 0.4):
                modes.append(tuple(R.choice(pool) for _ in range(R.choice([2, 2, 3]))))
            else:
                modes.append(R.choice(pool))
        s = tuple(modes)
        if prod(s) <= maxsize and (depth is None or d < 2 or depth_of(s) >= 2):
            return s
    return (4, 8)


def rand_stride(shape, mode=None):
    mode = mode or R.choice(["col", "col", "row", "perm", "perm", "rand"])
    if mode == "col":
        return colmajor(shape)
    if mode == "row":
        return rowmajor(shape)
    fl = flat(shape)
    if mode == "perm":
        order = list(range(len(fl)))
        R.shuffle(order)
        st = [0] * len(fl)
        cur = 1
        for i in order:
            st[i] = cur
            cur *= fl[i]
        return fill(shape, iter(st))
    return fill(shape, iter([R.choice([0, 1, 2, 4, 8, 16, 32, 64]) for _ in fl]))


# ----------------------------------------------------------------------------
# case list
# ----------------------------------------------------------------------------
CASES = []  # dicts: op, expr, want ('ok' | 'error' | None), cat


def add(op, expr, want=None):
    assert "\n" not in expr
    CASES.append({"op": op, "expr": expr, "want": want})


TYPES = ["uint8_t", "int8_t", "float_e4m3_t", "half_t", "bfloat16_t", "float", "tfloat32_t",
         "cutlass::half_t", "double"]
MORE_TYPES = ["float_e5m2_t", "cutlass::bfloat16_t", "uint16_t", "int32_t", "uint32_t",
              "cutlass::float_e4m3_t", "uint4_t", "int4_t", "complex<float>", "uint128_t"]
BITS = {"uint8_t": 8, "int8_t": 8, "float_e4m3_t": 8, "float_e5m2_t": 8, "cutlass::float_e4m3_t": 8,
        "half_t": 16, "bfloat16_t": 16, "cutlass::half_t": 16, "cutlass::bfloat16_t": 16, "uint16_t": 16,
        "float": 32, "tfloat32_t": 32, "int32_t": 32, "uint32_t": 32, "double": 64, "complex<float>": 64,
        "uint4_t": 4, "int4_t": 4, "uint128_t": 128}
T8, T16, T32 = ["uint8_t", "int8_t", "float_e4m3_t"], ["half_t", "bfloat16_t", "cutlass::half_t"], \
    ["float", "tfloat32_t"]
SWZ = ["INTER", "SW32", "SW64", "SW128"]
GMMA_ATOMS = ["Layout_%s_%s_Atom" % (mj, sw) for mj in ("MN", "K") for sw in SWZ]
UMMA_ATOMS = GMMA_ATOMS + ["Layout_MN_SW128_32B_Atom"]
SW_BITS = {"INTER": (0, 128), "SW32": (1, 256), "SW64": (2, 512), "SW128": (3, 1024)}


def atom_shape(name, bits):
    """(rows, cols) of a GMMA/UMMA atom in elements, for divisibility intents."""
    if name.endswith("SW128_32B_Atom"):
        return (1024 // bits, 4)
    mj, sw = name.split("_")[1], name.split("_")[2]
    w = SW_BITS[sw][1] // bits
    return (w, 8) if mj == "MN" else (8, w)


def atom_expr(ns, name, t, sp=None):
    pre = "cute::" if (sp and sp.ns) else ""
    return "%s%s::%s<%s>{}" % (pre, ns, name, t)


SM80_ATOMS = [  # (swizzle, shape, stride) as the SM80 examples build them
    ((3, 3, 3), (8, 64), (64, 1)), ((2, 3, 3), (8, 32), (32, 1)), ((1, 3, 3), (8, 16), (16, 1)),
    ((3, 2, 3), (8, 32), (32, 1)), ((3, 4, 3), (8, 128), (128, 1)), ((2, 4, 3), (8, 64), (64, 1)),
    ((3, 3, 3), (64, 8), (1, 64)), ((2, 3, 3), (32, 8), (1, 32)), ((3, 2, 3), (32, 8), (1, 32)),
    ((3, 3, 3), (8, (8, 8)), (8, (1, 64))), ((2, 3, 3), (8, (8, 4)), (8, (1, 64))),
    ((3, 3, 3), (16, 64), (64, 1)), ((3, 3, 4), (8, 64), (64, 1)), ((2, 2, 3), (8, 32), (32, 1)),
    ((3, 1, 3), (8, 16), (16, 1)), ((1, 2, 3), (8, 8), (8, 1)),
]


def sm80_atom(sw, shape, stride, sp, form=None):
    form = form or R.choice(["comp", "comp", "comp", "mcl"])
    L = sp.layout(shape, stride)
    s = "Swizzle<%d,%d,%d>{}" % sw
    if form == "comp":
        return "%s(%s, %s)" % (sp.f("composition"), s, L)
    return "%s(%s, %s, %s)" % (sp.f("make_composed_layout"), s, sp.i(0), L)


# ---------------------------------------------------------------- a) smem_atom
def g_smem_atom():
    for name in GMMA_ATOMS:
        for t in TYPES:
            sp = Sp()
            add("smem_atom", atom_expr("GMMA", name, t, sp), "ok")
    for name in GMMA_ATOMS:
        for t in R.sample(MORE_TYPES, 3):
            add("smem_atom", atom_expr("GMMA", name, t, Sp()), "ok")
    for sw in SWZ:
        for mj in ("MN", "K"):
            for t in R.sample(TYPES, 2):
                add("smem_atom", "GMMA::Layout_%s_Atom<%s, GMMA::Major::%s>{}" % (sw, t, mj), "ok")
    for name in UMMA_ATOMS:
        ts = TYPES if name.endswith("32B_Atom") else R.sample(TYPES, 4)
        for t in ts:
            add("smem_atom", atom_expr("UMMA", name, t, Sp()), "ok")
    # SM90 namespace spelling
    for name in R.sample(GMMA_ATOMS, 3):
        add("smem_atom", "SM90::GMMA::%s<%s>{}" % (name, R.choice(TYPES)), "ok")
    # sparse atoms: exist, but print `smem_sparse<S>_ptr[..b](unset)` (filtered as unrepresentable)
    for name in ("Layout_K_SW128_SpAtom", "Layout_MN_SW64_SpAtom"):
        add("smem_atom", "GMMA::%s<half_t, 2>{}" % name, "ok")
    # SM80-style swizzle atoms
    for sw, sh, st in SM80_ATOMS:
        for _ in range(2):
            add("smem_atom", sm80_atom(sw, sh, st, Sp()), "ok")
    # members of a flagged atom
    for t in ("half_t", "float", "uint8_t"):
        add("smem_atom", "GMMA::Layout_K_SW128_Atom<%s>{}.layout_b()" % t, "ok")
        add("smem_atom", "GMMA::Layout_MN_SW64_Atom<%s>{}.layout_a()" % t, "ok")
    # rejections
    add("smem_atom", "GMMA::Layout_K_SW256_Atom<half_t>{}", "error")
    add("smem_atom", "UMMA::Layout_K_SW128_32B_Atom<half_t>{}", "error")
    add("smem_atom", "UMMA::Layout_SW128_Atom<half_t, UMMA::Major::K>{}", "error")
    add("smem_atom", "GMMA::Layout_K_SW128_Atom{}", "error")
    add("smem_atom", "composition(Swizzle<3,3,2>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})", "error")
    add("smem_atom", "composition(Swizzle<2,4,1>{}, make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{})))",
        "error")
    add("smem_atom", "make_composed_layout(Swizzle<3,4,-2>{}, _0{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})", "error")


# ---------------------------------------------------------------- b) tile_to_shape
ORDERS = ["", "Step<_1,_2,_3>{}", "Step<_2,_1,_3>{}"]


def divides_atom(shape, ash):
    return shape[0] % ash[0] == 0 and shape[1] % ash[1] == 0


def g_tile_to_shape(n_rand):
    combos = []
    for ns, atoms in (("GMMA", GMMA_ATOMS), ("UMMA", UMMA_ATOMS)):
        for name in atoms:
            for tl in (T8, T16, T32):
                combos.append((ns, name, tl))
    # one systematic pass (every atom x bit-width), then random extra ones
    picks = [(c, None) for c in combos] + [(R.choice(combos), None) for _ in range(n_rand)]
    for (ns, name, tl), _ in picks:
        t = R.choice(tl)
        sp = Sp()
        r = R.random()
        if r < 0.12:   # deliberately non-dividing
            bm, bk = R.choice([(64, 48), (96, 64), (128, 24), (80, 64), (128, 40), (192, 96), (64, 16)])
        else:
            bm, bk = R.choice([64, 128, 256, 128, 192]), R.choice([32, 64, 128, 64])
        stages = R.randint(2, 7)
        order = R.choice(ORDERS)
        ash = atom_shape(name, BITS[t])
        want = "ok" if divides_atom((bm, bk), ash) else "error"
        if R.random() < 0.15:   # 2-D target
            if R.random() < 0.5:
                tgt = "Shape<%s>{}" % sp.tsep.join(sp.t(x) for x in (bm, bk))
            else:
                tgt = "%s(%s, %s)" % (sp.f("make_shape"), "Int<%d>{}" % bm, "Int<%d>{}" % bk)
            order = ""
        elif R.random() < 0.75:
            tgt = "%s(Int<%d>{}, Int<%d>{}, Int<%d>{})" % (sp.f("make_shape"), bm, bk, stages)
        else:
            tgt = sp.tup((bm, bk, stages))
        args = [atom_expr(ns, name, t, sp), tgt] + ([order] if order else [])
        add("tile_to_shape", "%s(%s)" % (sp.f("tile_to_shape"), ", ".join(args)), want)
    # plain layout atoms (2-D / 3-D, GenRowMajor / Step orders)
    plain = [((8, 8), (8, 1)), ((8, 8), (1, 8)), ((4, 8), (8, 1)), ((8, 4), (1, 8)), ((16, 8), (8, 1)),
             ((8, 16), (16, 1)), ((2, 4), (1, 2)), ((8, 32), (32, 1))]
    for _ in range(34):
        sh, st = R.choice(plain)
        sp = Sp()
        m = sh[0] * R.choice([1, 2, 4, 8])
        k = sh[1] * R.choice([1, 2, 4])
        bad = R.random() < 0.1
        if bad:
            m = sh[0] * 2 + (4 if sh[0] != 4 else 2)
        three = R.random() < 0.5
        tgt_v = (m, k, R.randint(2, 4)) if three else (m, k)
        tgt = sp.shape(tgt_v)
        ordc = R.random()
        if ordc < 0.3:
            order = R.choice(["GenRowMajor{}", "GenColMajor{}"])
        elif ordc < 0.55:
            order = (R.choice(["Step<_1,_2,_3>{}", "Step<_2,_1,_3>{}", "Step<_3,_2,_1>{}"]) if three
                     else R.choice(["Step<_1,_2>{}", "Step<_2,_1>{}"]))
        else:
            order = ""
        args = [sp.layout(sh, st), tgt] + ([order] if order else [])
        add("tile_to_shape", "%s(%s)" % (sp.f("tile_to_shape"), ", ".join(args)),
            "error" if bad else None)
    # SM80-style swizzled atoms tiled over (BM, BK, Stages)
    for _ in range(24):
        sw, sh, st = R.choice(SM80_ATOMS)
        sp = Sp()
        m = prod(sh[0]) * R.choice([2, 4, 8, 16])
        k = prod(sh[1]) * R.choice([1, 2])
        tgt = "%s(Int<%d>{}, Int<%d>{}, Int<%d>{})" % (sp.f("make_shape"), m, k, R.randint(2, 5))
        args = [sm80_atom(sw, sh, st, sp), tgt]
        if R.random() < 0.3:
            args.append(R.choice(ORDERS[1:]))
        add("tile_to_shape", "%s(%s)" % (sp.f("tile_to_shape"), ", ".join(args)), None)


# ---------------------------------------------------------------- c) eval_smem
def rand_atom(ns=None):
    ns = ns or R.choice(["GMMA", "GMMA", "GMMA", "UMMA"])
    name = R.choice(GMMA_ATOMS if ns == "GMMA" else UMMA_ATOMS)
    t = R.choice(TYPES)
    return ns, name, t


def coord_args(sp, vals, static_p=0.5):
    if R.random() < static_p:
        return ", ".join(sp.i(v) for v in vals)
    return ", ".join(str(v) for v in vals)


def g_eval_smem(n):
    api = "as_position_independent_swizzle_layout"
    for _ in range(16):
        ns, name, t = rand_atom()
        sp = Sp()
        add("eval_smem", "%s(%s)" % (sp.f(api), atom_expr(ns, name, t, sp)), "ok")
    for _ in range(n):
        ns, name, t = rand_atom()
        sp = Sp()
        ash = atom_shape(name, BITS[t])
        kind = R.random()
        if kind < 0.35:
            # tiled smem buffer (BM, BK[, stages])
            bm = ash[0] * R.choice([1, 2, 4]) if ash[0] >= 64 else R.choice([64, 128])
            bk = ash[1] * R.choice([1, 2]) if ash[1] >= 32 else R.choice([32, 64])
            bm, bk = max(bm, ash[0]), max(bk, ash[1])
            if bm % ash[0] or bk % ash[1]:
                continue
            st = R.choice([0, 2, 3, 4])
            dims = (bm, bk, st) if st else (bm, bk)
            inner = "%s(%s, %s(%s))" % (sp.f("tile_to_shape"), atom_expr(ns, name, t, sp), sp.f("make_shape"),
                                       ", ".join("Int<%d>{}" % d for d in dims))
        else:
            dims = ash
            inner = atom_expr(ns, name, t, sp)
        size = prod(dims)
        pi = R.random() < 0.7
        base = "%s(%s)" % (sp.f(api), inner) if pi else inner
        r = R.random()
        if r < 0.2 and pi:
            add("eval_smem", base, "ok")
            continue
        if r < 0.5:
            idx = R.randrange(size)
            arg = sp.i(idx) if R.random() < 0.5 else str(idx)
        else:
            c = [R.randrange(d) for d in dims]
            if R.random() < 0.25:
                arg = "%s(%s)" % (sp.f("make_coord"), coord_args(sp, c, 1.0))
            else:
                arg = coord_args(sp, c)
        if not pi and "(" in inner.split("{")[0]:   # tile_to_shape(..)(c): sometimes written (tile_to_shape(..))(c)
            base = "(%s)" % base if R.random() < 0.3 else base
        add("eval_smem", "%s(%s)" % (base, arg), "ok")
    # SM80-style composed atoms evaluated (element units already)
    for _ in range(16):
        sw, sh, st = R.choice(SM80_ATOMS)
        sp = Sp()
        atom = sm80_atom(sw, sh, st, sp)
        if R.random() < 0.5:
            idx = R.randrange(prod(sh))
            add("eval_smem", "%s(%s)" % (atom, R.choice([str(idx), sp.i(idx)])), "ok")
        else:
            c = [R.randrange(prod(d)) for d in sh]
            add("eval_smem", "%s(%s)" % (atom, coord_args(sp, c)), "ok")
    # swizzle functor on offsets
    for _ in range(8):
        b, m, s = R.choice([(3, 3, 3), (3, 4, 3), (2, 4, 3), (1, 4, 3), (2, 3, 3), (3, 2, 3)])
        x = R.randrange(1 << (m + s + b))
        add("eval_smem", "Swizzle<%d,%d,%d>{}(%s)" % (b, m, s, R.choice([str(x), Sp().i(x)])), "ok")
    # swizzle / non-swizzle portions
    for _ in range(8):
        ns, name, t = rand_atom()
        sp = Sp()
        fn = R.choice(["get_nonswizzle_portion", "get_swizzle_portion"])
        inner = atom_expr(ns, name, t, sp)
        if R.random() < 0.5:
            inner = "%s(%s)" % (sp.f(api), inner)
        add("eval_smem", "%s(%s)" % (sp.f(fn), inner), "ok")
    # not accepted: position-independent form only exists for smem_ptr-flagged layouts
    add("eval_smem", "%s(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}))" % api, "error")
    add("eval_smem", "%s(Layout<Shape<_8,_64>,Stride<_64,_1>>{})" % api, "error")
    add("eval_smem", "%s(GMMA::Layout_K_SW128_SpAtom<half_t, 2>{})" % api, "error")


# ---------------------------------------------------------------- d) template_call
def g_template_call(n):
    fns = ["upcast", "downcast", "select", "get", "get2", "take", "size", "shape", "stride", "rank",
           "depth", "cosize", "cosizeI", "group", "layout", "flatten", "coalesce", "coalesce_prof",
           "filter", "recast", "size_all", "product_each", "append", "prepend", "replace", "unflatten"]
    for k in range(n):
        fn = fns[k % len(fns)] if k < 2 * len(fns) else R.choice(fns)
        sh = rand_shape(depth=R.choice([1, 1, 2]) if fn not in ("get2", "layout") else 2)
        if fn in ("select", "take", "group"):
            sh = rand_shape(rank=R.choice([3, 3, 4]), maxsize=2048)
        stv = rand_stride(sh)
        sp = Sp()
        on_shape = fn in ("select", "get", "get2", "take", "size", "rank", "depth", "group", "flatten",
                          "product_each", "append", "prepend", "replace") and R.random() < 0.3
        L = sp.shape(sh) if on_shape else sp.layout(sh, stv)
        rk = rank_of(sh)
        oob = R.random() < 0.12
        want = "error" if oob else None
        f = sp.f
        if fn in ("upcast", "downcast"):
            N = R.choice([2, 2, 4, 8, 3])
            add("template_call", "%s<%d>(%s)" % (f(fn), N, L), None)
            continue
        if fn == "select":
            idx = sorted(R.sample(range(rk), R.randint(1, rk)))
            if R.random() < 0.3:
                R.shuffle(idx)
            if oob:
                idx.append(rk + R.randint(0, 1))
            add("template_call", "%s<%s>(%s)" % (f("select"), ",".join(map(str, idx)), L), want)
        elif fn == "get":
            i = rk + R.randint(0, 1) if oob else R.randrange(rk)
            add("template_call", "%s<%d>(%s)" % (f("get"), i, L), want)
        elif fn == "get2":
            tm = [i for i, m in enumerate(sh) if isinstance(m, tuple)]
            if not tm:
                continue
            i = R.choice(tm)
            j = len(sh[i]) if oob else R.randrange(len(sh[i]))
            add("template_call", "%s<%d,%d>(%s)" % (f(R.choice(["get", "size", "shape", "stride"])
                                                     if not on_shape else "get"), i, j, L), want)
        elif fn == "take":
            a = R.randrange(rk)
            b = R.randint(a + 1, rk)
            if oob:
                a, b = (b, a) if R.random() < 0.5 else (a, rk + 1)
            add("template_call", "%s<%d,%d>(%s)" % (f("take"), a, b, L), want)
        elif fn in ("size", "shape", "stride", "rank", "depth", "layout"):
            if fn in ("shape", "stride", "layout") and on_shape:
                L = sp.layout(sh, stv)
            i = rk + R.randint(0, 1) if oob else R.randrange(rk)
            add("template_call", "%s<%d>(%s)" % (f(fn), i, L), want)
        elif fn == "cosize":
            add("template_call", "%s(%s)" % (f("cosize"), L), "ok")
        elif fn == "cosizeI":
            i = rk if oob else R.randrange(rk)
            add("template_call", "%s<%d>(%s)" % (f("cosize"), i, L), want)
        elif fn == "group":
            a = R.randrange(rk - 1)
            b = R.randint(a + 1, rk)
            if oob:
                b = rk + 1
            add("template_call", "%s<%d,%d>(%s)" % (f("group"), a, b, L), want)
        elif fn in ("flatten", "coalesce", "filter", "size_all", "product_each"):
            name = {"size_all": "size"}.get(fn, fn)
            if fn == "product_each":
                L = sp.shape(sh) if R.random() < 0.5 else "%s(%s)" % (f("shape"), sp.layout(sh, stv))
            add("template_call", "%s(%s)" % (f(name), L), "ok")
        elif fn == "coalesce_prof":
            prof = R.choice(["Step<%s>{}" % ",".join(["_1"] * rk),
                             "%s(%s)" % (f("make_tuple"), ",".join(["_"] * rk))])
            add("template_call", "%s(%s, %s)" % (f("coalesce"), sp.layout(sh, stv), prof), "ok")
        elif fn == "recast":
            a, b = R.choice([("half_t", "float"), ("float", "half_t"), ("uint8_t", "uint32_t"),
                             ("uint16_t", "uint64_t"), ("half_t", "uint128_t"), ("uint32_t", "uint8_t"),
                             ("float", "double"), ("int8_t", "half_t")])
            add("template_call", "%s<%s, %s>(%s)" % (f("recast_layout"), a, b, sp.layout(sh, stv)), None)
        elif fn in ("append", "prepend"):
            x = R.choice([2, 4, 8])
            if on_shape:
                add("template_call", "%s(%s, %s)" % (f(fn), L, sp.i(x)), "ok")
            elif R.random() < 0.5:
                n2 = rk + R.randint(1, 2)
                add("template_call", "%s<%d>(%s, %s)" % (f(fn), n2, L, sp.layout(x, R.choice([0, 1, 64]))), "ok")
            else:
                add("template_call", "%s(%s, %s)" % (f(fn), L, sp.layout(x, R.choice([0, 1, 64]))), "ok")
        elif fn == "replace":
            i = rk if oob else R.randrange(rk)
            x = R.choice([2, 4, 8])
            arg = sp.i(x) if on_shape else sp.layout(x, R.choice([1, 32]))
            add("template_call", "%s<%d>(%s, %s)" % (f("replace"), i, L, arg), want)
        elif fn == "unflatten":
            fl = flat(sh)
            if len(fl) < 2 or depth_of(sh) < 2:
                continue
            Lf = sp.layout(tuple(fl), tuple(flat(stv)))
            add("template_call", "%s(%s, %s)" % (f("unflatten"), Lf, sp.shape(sh)), "ok")
    # a few with composed layouts (swizzle-aware overloads)
    for fn in ("upcast<2>", "downcast<2>", "upcast<4>", "downcast<4>", "take<0,1>", "get<0>", "layout<1>",
               "group<0,2>", "select<1,0>", "flatten", "coalesce", "depth", "rank<0>", "size<1>", "shape<0>"):
        sw, sh, st = R.choice(SM80_ATOMS[:9])
        sp = Sp()
        inner = R.choice([atom_expr(*rand_atom("GMMA"), sp=sp), sm80_atom(sw, sh, st, sp)])
        add("template_call", "%s(%s)" % (sp.f(fn) if "<" not in fn else sp.ns + fn, inner), None)


# ---------------------------------------------------------------- e) layout functions
def g_layout_fns(n):
    kinds = ["make_ordered_layout", "make_layout_like", "max_common_vector", "max_common_layout",
             "make_identity_layout", "append", "prepend", "replace", "group", "zipped_divide_eval",
             "product_each", "ceil_div", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
             "blocked_product", "raked_product", "logical_product", "make_layout", "make_fragment_like",
             "nullspace", "filter_zeros", "domain_offset", "dice", "slice", "crd2idx", "idx2crd",
             "shape_div", "right_inverse", "left_inverse", "complement"]
    for k in range(n):
        kind = kinds[k % len(kinds)]
        sp = Sp()
        f = sp.f
        if kind == "make_ordered_layout":
            sh = rand_shape(rank=R.choice([2, 3, 3, 4]), depth=1)
            order = list(range(len(sh)))
            R.shuffle(order)
            ordv = "Step<%s>{}" % sp.tsep.join("_%d" % o for o in order) if R.random() < 0.6 else \
                "%s(%s)" % (f("make_step"), ", ".join("_%d{}" % o for o in order))
            add(kind, "%s(%s, %s)" % (f(kind), sp.shape(sh), ordv), "ok")
        elif kind == "make_layout_like":
            sh = rand_shape()
            add(kind, "%s(%s)" % (f(kind), sp.layout(sh, rand_stride(sh))), "ok")
        elif kind in ("max_common_vector", "max_common_layout"):
            sh = rand_shape(rank=2, depth=1, pool=(4, 8, 16, 32, 64))
            a = sp.layout(sh, rand_stride(sh, R.choice(["col", "row", "perm"])))
            b = sp.layout(sh, rand_stride(sh, R.choice(["col", "row", "perm"])))
            if R.random() < 0.25:
                sw, sh2, st2 = R.choice(SM80_ATOMS[:9])
                a = sm80_atom(sw, sh2, st2, sp)
                b = sp.layout(sh2, R.choice([st2, colmajor(sh2), rowmajor(sh2)]))
                if R.random() < 0.5:
                    a, b = b, a
            add(kind, "%s(%s, %s)" % (f(kind), a, b), "ok")
        elif kind == "make_identity_layout":
            sh = rand_shape(maxsize=4096)
            add(kind, "%s(%s)" % (f(kind), sp.shape(sh)), "ok")
        elif kind in ("append", "prepend", "replace", "group"):
            sh = rand_shape(rank=R.choice([2, 3]), depth=1)
            L = sp.layout(sh, rand_stride(sh))
            if kind == "group":
                a = R.randrange(len(sh) - 1)
                add(kind, "%s<%d,%d>(%s)" % (f(kind), a, len(sh), L), "ok")
            elif kind == "replace":
                add(kind, "%s<%d>(%s, %s)" % (f(kind), R.randrange(len(sh)), L, sp.layout(R.choice([2, 4]), 16)), "ok")
            else:
                add(kind, "%s(%s, %s)" % (f(kind), L, sp.layout(R.choice([2, 4]), R.choice([0, 128]))), "ok")
        elif kind == "zipped_divide_eval":
            m, n_ = R.choice([32, 64, 128]), R.choice([32, 64, 128])
            tm, tn = R.choice([8, 16, 32]), R.choice([8, 16, 32])
            L = sp.layout((m, n_), rand_stride((m, n_), R.choice(["col", "row"])))
            til = R.choice(["%s(%s, %s)" % (f("make_tile"), sp.i(tm), sp.i(tn)),
                            "Tile<%s>{}" % sp.tsep.join(sp.t(x) for x in (tm, tn)),
                            "Shape<%s>{}" % sp.tsep.join(sp.t(x) for x in (tm, tn))])
            blk = (R.randrange(m // tm), R.randrange(n_ // tn))
            r = R.random()
            if r < 0.4:
                arg = "%s(_, _), %s" % (f("make_coord"), "%s(%s)" % (f("make_coord"), coord_args(sp, blk, 1.0)))
            elif r < 0.6:
                arg = "_, %s(%s)" % (f("make_coord"), coord_args(sp, blk, 1.0))
            else:
                c = (R.randrange(tm), R.randrange(tn))
                arg = "%s(%s), %s(%s)" % (f("make_coord"), coord_args(sp, c, 1.0), f("make_coord"),
                                          coord_args(sp, blk, 1.0))
            add("zipped_divide", "%s(%s, %s)(%s)" % (f("zipped_divide"), L, til, arg), "ok")
        elif kind == "product_each":
            sh = rand_shape(depth=2)
            add(kind, "%s(%s)" % (f(kind), sp.shape(sh)), "ok")
        elif kind in ("ceil_div", "shape_div"):
            a = (R.choice([128, 256, 96, 192, 64]), R.choice([64, 128, 96, 40]))
            b = (R.choice([64, 128, 32]), R.choice([32, 64, 16]))
            if kind == "shape_div":
                a = (b[0] * R.choice([1, 2, 4]), b[1] * R.choice([1, 2]))
                if R.random() < 0.2:
                    a = (a[0] + 8, a[1])
                    add(kind, "%s(%s, %s)" % (f(kind), sp.shape(a), sp.shape(b)), "error")
                    continue
            add(kind, "%s(%s, %s)" % (f(kind), sp.shape(a), sp.shape(b)), "ok")
        elif kind in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide"):
            sh = (R.choice([16, 32, 64, 128]), R.choice([8, 16, 32, 64]))
            if R.random() < 0.3:
                sh = sh + (R.choice([2, 4]),)
            L = sp.layout(sh, rand_stride(sh, R.choice(["col", "row"])))
            tm, tn = R.choice([4, 8, 16]), R.choice([4, 8])
            r = R.random()
            if r < 0.3:
                til = "%s(%s, %s)" % (f("make_tile"), sp.i(tm), sp.i(tn))
            elif r < 0.5:
                til = "Tile<%s>{}" % sp.tsep.join(sp.t(x) for x in (tm, tn))
            elif r < 0.65:
                til = "Shape<%s>{}" % sp.tsep.join(sp.t(x) for x in (tm, tn))
            elif r < 0.75:
                til = "Step<%s>{}" % sp.tsep.join(sp.t(x) for x in (tm, tn))
            elif r < 0.9:
                til = "%s(%s, %s)" % (f("make_tile"), sp.layout(tm, R.choice([1, 2])), sp.i(tn))
            else:
                til = "%s(%s)" % (f("make_shape"), ", ".join(sp.i(x) for x in (tm, tn)))
            add(kind, "%s(%s, %s)" % (f(kind), L, til), None)
        elif kind in ("blocked_product", "raked_product", "logical_product"):
            a = R.choice([(2, 2), (4, 8), (8, 4), (2, 4), (4, 1)])
            b = R.choice([(4, 8), (2, 2), (8, 8), (1, 4), (8, 1)])
            A = sp.layout(a, rand_stride(a, R.choice(["col", "row"])))
            B = sp.layout(b, rand_stride(b, R.choice(["col", "row"])))
            if kind == "logical_product" and R.random() < 0.5:
                B = "%s(%s, %s)" % (f("make_tile"), sp.layout(b[0]), sp.layout(b[1]))
            add(kind, "%s(%s, %s)" % (f(kind), A, B), None)
        elif kind == "make_layout":
            sh = rand_shape()
            tag = R.choice(["GenRowMajor{}", "GenColMajor{}", "LayoutLeft{}", "LayoutRight{}"])
            add(kind, "%s(%s, %s)" % (f(kind), sp.shape(sh), tag), "ok")
        elif kind == "make_fragment_like":
            sh = rand_shape()
            add(kind, "%s(%s)" % (f(kind), sp.layout(sh, rand_stride(sh))), "ok")
        elif kind in ("nullspace", "filter_zeros"):
            sh = rand_shape(depth=1)
            st = rand_stride(sh, "rand")
            add(kind, "%s(%s)" % (f(kind), sp.layout(sh, st)), None)
        elif kind == "domain_offset":
            sh = rand_shape(rank=2, depth=1)
            c = tuple(R.randrange(x) for x in sh)
            add(kind, "%s(%s, %s)" % (f(kind), sp.tup(c, "coord"), sp.layout(sh, rand_stride(sh))), "ok")
        elif kind in ("dice", "slice"):
            sh = rand_shape(rank=R.choice([2, 3]), depth=1)
            c = tuple(US if R.random() < 0.5 else R.randrange(x) for x in sh)
            if all(x is US for x in c):
                c = (0,) + c[1:]
            target = sp.shape(sh) if R.random() < 0.4 else sp.layout(sh, rand_stride(sh))
            add(kind, "%s(%s, %s)" % (f(kind), sp.tup(c, "coord"), target), "ok")
        elif kind == "crd2idx":
            sh = rand_shape(rank=2, depth=1)
            c = tuple(R.randrange(x) for x in sh)
            args = [sp.tup(c, "coord"), sp.shape(sh)]
            if R.random() < 0.6:
                args.append(sp.shape(rand_stride(sh), "stride"))
            add(kind, "%s(%s)" % (f(kind), ", ".join(args)), "ok")
        elif kind == "idx2crd":
            sh = rand_shape(rank=2)
            idx = R.randrange(prod(sh))
            add(kind, "%s(%s, %s)" % (f(kind), sp.i(idx), sp.shape(sh)), "ok")
        elif kind in ("right_inverse", "left_inverse"):
            sh = rand_shape(rank=2, depth=1, pool=(2, 4, 8, 16))
            add(kind, "%s(%s)" % (f(kind), sp.layout(sh, rand_stride(sh, R.choice(["col", "row", "perm"])))), "ok")
        elif kind == "complement":
            sh = rand_shape(rank=R.choice([1, 2]), depth=1, pool=(2, 4, 8))
            st = rand_stride(sh, "perm")
            tot = prod(sh) * R.choice([2, 4, 8])
            add(kind, "%s(%s, %s)" % (f(kind), sp.layout(sh, st), sp.i(tot)), None)


# ---------------------------------------------------------------- f) composed_overload
def g_composed(n):
    for k in range(n):
        sp = Sp()
        f = sp.f
        kind = k % 16
        sw, sh, st = R.choice(SM80_ATOMS)
        C = sm80_atom(sw, sh, st, sp)
        if kind == 0:
            # composition(L, composed): swizzle folded through an outer layout
            N = R.choice([16, 32, 64])
            b = R.choice([1, 2, 3])
            m = R.choice([0, 1, 2])
            s = R.choice([b, b + 1, 3])
            inner = "%s(Swizzle<%d,%d,%d>{}, %s, %s)" % (f("make_composed_layout"), b, m, s, sp.i(0), sp.layout(N, 1))
            outer = sp.layout(N, R.choice([1, 2, 4]))
            add("composed_overload", "%s(%s, %s)" % (f("composition"), outer, inner), None)
        elif kind == 1:
            # outer function is a layout
            a = rand_shape(rank=2, depth=1, pool=(2, 4, 8))
            A = sp.layout(a, rand_stride(a))
            Bs = R.choice([4, 8, 16])
            off = R.choice([0, 0, 1, 2])
            add("composed_overload", "%s(%s, %s, %s)" % (f("make_composed_layout"), A, sp.i(off),
                                                         sp.layout(Bs, R.choice([1, 2]))), None)
        elif kind == 2:
            add("composed_overload", "%s(%s)" % (f(R.choice(["right_inverse", "left_inverse"])), C), None)
        elif kind == 3:
            add("composed_overload", "%s<%d>(%s)" % (sp.ns + R.choice(["upcast", "downcast"]),
                                                       R.choice([2, 4]), C), None)
        elif kind == 4:
            rk = rank_of(sh)
            prof = R.choice(["%s(%s)" % (f("make_tuple"), ",".join(["_"] * rk)),
                             "Step<%s>{}" % ",".join(["_1"] * rk)])
            add("composed_overload", "%s(%s, %s)" % (f("coalesce"), C, prof) if R.random() < 0.6
                else "%s(%s)" % (f("coalesce"), C), None)
        elif kind == 5:
            shp = rand_shape(rank=R.choice([2, 3]), depth=1, pool=(2, 3, 4, 8))
            c = tuple(US if R.random() < 0.5 else R.randrange(x) for x in shp)
            if all(x is US for x in c):
                c = (0,) + c[1:]
            if all(x is not US for x in c):
                c = (US,) + c[1:]
            add("composed_overload", "%s(%s, %s)" % (f(R.choice(["slice", "dice"])), sp.tup(c, "coord"),
                                                     sp.shape(shp)), "ok")
        elif kind == 6:
            # static slice of a composed layout
            rk = rank_of(sh)
            j = R.randrange(rk)
            c = [US] * rk
            c[1 - j if rk == 2 else j] = R.randrange(prod(sh[1 - j if rk == 2 else j]))
            add("composed_overload", "%s(%s)" % (C, ", ".join("_" if x is US else sp.i(x) for x in c)), "ok")
        elif kind == 7:
            rows = prod(sh[0])
            cols = prod(sh[1])
            tm = R.choice([d for d in (2, 4, 8) if rows % d == 0])
            tn = R.choice([d for d in (4, 8, 16) if cols % d == 0] or [1])
            fn = R.choice(["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"])
            til = R.choice(["%s(%s, %s)" % (f("make_tile"), sp.i(tm), sp.i(tn)),
                            "Tile<%s>{}" % sp.tsep.join(sp.t(x) for x in (tm, tn))])
            add("composed_overload", "%s(%s, %s)" % (f(fn), C, til), None)
        elif kind == 8:
            fn = R.choice(["logical_product", "blocked_product", "raked_product", "zipped_product", "tiled_product"])
            B = sp.layout(R.choice([(2, 2), (1, 2), (2, 1), (2, 4)])) if fn != "logical_product" else \
                sp.layout(R.choice([2, 4]))
            add("composed_overload", "%s(%s, %s)" % (f(fn), C, B), None)
        elif kind == 9:
            # composed applied to a coordinate: (composition(...))(r,c)
            c = [R.randrange(prod(x)) for x in sh]
            add("composed_overload", "(%s)(%s)" % (C, coord_args(sp, c)), "ok")
        elif kind == 10:
            rows, cols = prod(sh[0]), prod(sh[1])
            tm = R.choice([d for d in (2, 4, 8) if rows % d == 0])
            tn = R.choice([d for d in (4, 8) if cols % d == 0] or [1])
            B = sp.layout((tm, tn), R.choice([colmajor((tm, tn)), rowmajor((tm, tn))])) if R.random() < 0.5 else \
                "%s(%s, %s)" % (f("make_tile"), sp.i(tm), sp.i(tn))
            add("composed_overload", "%s(%s, %s)" % (f("composition"), C, B), None)
        elif kind == 11:
            fn = R.choice(["size", "cosize", "rank", "depth", "shape", "flatten"])
            add("composed_overload", "%s(%s)" % (f(fn), C), None)
        elif kind == 12:
            # composed with a nonzero offset
            off = R.choice([8, 16, 64, 128, 512])
            L = sp.layout(sh, st)
            e = "%s(Swizzle<%d,%d,%d>{}, %s, %s)" % (f("make_composed_layout"), sw[0], sw[1], sw[2], sp.i(off), L)
            if R.random() < 0.5:
                c = [R.randrange(prod(x)) for x in sh]
                e = "%s(%s)" % (e, coord_args(sp, c))
            add("composed_overload", e, None)
        elif kind == 13:
            # smem_ptr-flagged atoms through the same overloads
            ns, name, t = rand_atom()
            A = atom_expr(ns, name, t, sp)
            fn = R.choice(["coalesce", "flatten", "right_inverse", "upcast<2>", "downcast<2>", "logical_divide",
                           "composition", "blocked_product"])
            if fn == "logical_divide":
                add("composed_overload", "%s(%s, %s(%s, %s))" % (f(fn), A, f("make_tile"), sp.i(4), sp.i(8)), None)
            elif fn == "composition":
                add("composed_overload", "%s(%s, %s(%s, %s))" % (f(fn), A, f("make_tile"), sp.i(8), sp.i(4)), None)
            elif fn == "blocked_product":
                add("composed_overload", "%s(%s, %s)" % (f(fn), A, sp.layout((1, 2))), None)
            else:
                add("composed_overload", "%s(%s)" % (sp.ns + fn, A), None)
        elif kind == 14:
            # max_common_* against the non-swizzled layout
            L = sp.layout(sh, R.choice([st, colmajor(sh)]))
            add("composed_overload", "%s(%s, %s)" % (f(R.choice(["max_common_vector", "max_common_layout"])), C, L),
                None)
        else:
            add("composed_overload", "%s(%s, %s)" % (f("append"), C, sp.layout(2, prod(sh))), None)


# ---------------------------------------------------------------- g) predicate
def g_predicate(n):
    for k in range(n):
        sp = Sp()
        f = sp.f
        kind = k % 7
        a = rand_shape(depth=R.choice([1, 2]))
        if kind in (0, 1, 2):
            r = R.random()
            if r < 0.3:
                b = a
            elif r < 0.55:
                b = prod(a)
            elif r < 0.8:
                b = tuple(prod(x) if isinstance(x, tuple) else x for x in a)
            else:
                b = rand_shape(depth=R.choice([1, 2]))
            x, y = (a, b) if R.random() < 0.5 else (b, a)
            fn = ["compatible", "congruent", "weakly_congruent"][kind]
            add("predicate", "%s(%s, %s)" % (f(fn), sp.shape(x), sp.shape(y)), "ok")
        elif kind == 3:
            sh = (R.choice([64, 128, 256, 96]), R.choice([64, 128, 32]))
            t = (R.choice([16, 32, 64, 24]), R.choice([16, 32, 64]))
            add("predicate", "%s(%s, %s)" % (f("evenly_divides"), sp.shape(sh), sp.shape(t)), "ok")
        elif kind == 4:
            if R.random() < 0.5:
                ty = "Shape<%s>" % sp.tsep.join(R.choice([sp.t(8), "int", sp.t(4)]) for _ in range(2))
            else:
                ty = "Layout<Shape<%s>>" % sp.tsep.join(R.choice([sp.t(8), "int", sp.t(2)]) for _ in range(2))
            add("predicate", R.choice(["is_static<%s>{}", "is_static_v<%s>", "is_static<%s>::value"]) % ty, "ok")
        elif kind == 5:
            b = a if R.random() < 0.5 else rand_shape()
            add("predicate", "%s == %s" % (sp.shape(a), sp.shape(b)), None)
        else:
            ty = R.choice(["Layout<Shape<_4,_8>>", "Shape<_4,_8>", "Int<8>", "int", "Stride<_1,_4>"])
            add("predicate", R.choice(["is_layout<%s>::value", "is_tuple<%s>::value", "is_integral<%s>::value",
                                       "is_integral<%s>{}", "is_tuple<%s>{}"]) % ty, "ok")


# ---------------------------------------------------------------- h) static_arith
def g_static_arith(n):
    ops = ["+", "-", "*", "/", "%"]
    for k in range(n):
        sp = Sp()
        f = sp.f
        kind = k % 9
        a, b = R.choice([8, 16, 32, 64, 128, 256, 3, 5, 96, 192]), R.choice([2, 3, 4, 8, 16, 64])
        if kind == 0:
            op = R.choice(["+", "*", "-"])
            add("static_arith", "Int<%d %s %d>{}" % (a, op, b) if R.random() < 0.5 else "Int<%d%s%d>{}" % (a, op, b), "ok")
        elif kind == 1:
            op = R.choice(ops)
            add("static_arith", "%s %s %s" % (sp.i(a), op, sp.i(b)), "ok")
        elif kind == 2:
            add("static_arith", "%s(%s %s %s, %s)" % (f("make_shape"), sp.i(a), R.choice(["*", "/", "+"]), sp.i(b),
                                                     sp.i(R.choice([32, 64, 128]))), "ok")
        elif kind == 3:
            add("static_arith", "%s(%s, %s)" % (f("ceil_div"), sp.i(a), sp.i(b)), "ok")
        elif kind == 4:
            sh = rand_shape()
            fn = R.choice(["size", "cosize"])
            mode = "<%d>" % R.randrange(rank_of(sh)) if R.random() < 0.3 else ""
            add("static_arith", "%s%s(%s) %s %s" % (f(fn), mode, sp.layout(sh, rand_stride(sh)), R.choice(["/", "*"]),
                                                    sp.i(R.choice([1, 2]))), None)
        elif kind == 5:
            fn = R.choice(["gcd", "lcm", "min", "max", "shape_div", "safe_div"])
            add("static_arith", "%s(%s, %s)" % (f(fn), sp.i(a), sp.i(b)), None)
        elif kind == 6:
            op = R.choice(["<<", ">>", "&", "|", "^", "==", "<", "!=", ">="])
            add("static_arith", "%s %s %s" % (sp.i(a), op, sp.i(R.choice([1, 2, 3, 4]) if op in ("<<", ">>") else b)),
                "ok")
        elif kind == 7:
            add("static_arith", R.choice(["-%s" % sp.i(a), "%s(%s)" % (f("abs"), sp.i(-R.choice([1, 2, 8]))),
                                          "Int<-%d>{}" % a, "C<%d>{}" % a, "cute::Int<%d>{}" % a,
                                          "cute::_%d{}" % R.choice([1, 2, 4, 8, 16, 32, 64, 128])]), "ok")
        else:
            sh = (R.choice([64, 128, 256]), R.choice([64, 128]))
            add("static_arith", "%s(%s, %s)" % (f("ceil_div"), sp.shape(sh), sp.shape((R.choice([32, 48, 96]),
                                                                                      R.choice([16, 24, 64])))), None)
    add("static_arith", "safe_div(_128{}, _3{})", "error")
    add("static_arith", "shape_div(_128{}, _3{})", "error")
    add("static_arith", "Int<128>{} + _11{}", "error")


# ---------------------------------------------------------------- i) traits
SM8X_MMA = ["SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x8_F32BF16BF16F32_TN",
            "SM80_16x8x16_F32BF16BF16F32_TN", "SM80_16x8x8_F32TF32TF32F32_TN", "SM80_16x8x32_S32S8S8S32_TN",
            "SM80_8x8x4_F64F64F64F64_TN", "SM75_16x8x8_F32F16F16F32_TN", "SM70_8x8x4_F32F16F16F32_NT",
            "SM89_16x8x32_F32E4M3E4M3F32_TN", "SM80_16x8x8_F16F16F16F16_TN", "SM61_DP4A"]
COPY_OPS = ["SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N", "SM75_U16x2_LDSM_T",
            "SM75_U16x4_LDSM_T", "SM75_U16x8_LDSM_T", "SM90_U32x1_STSM_N", "SM90_U32x2_STSM_N",
            "SM90_U32x4_STSM_N", "SM90_U16x8_STSM_T", "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>",
            "SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", "UniversalCopy<uint128_t>", "UniversalCopy<uint32_t>",
            "DefaultCopy"]
GMMA_KINDS = [("F16F16F16", 16, True), ("F32F16F16", 16, True), ("F32BF16BF16", 16, True),
              ("F32TF32TF32", 8, False), ("F32E4M3E4M3", 32, False), ("S32S8S8", 32, False),
              ("F16E5M2E4M3", 32, False)]


S8_N = [8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256]


def gmma_op(kind, n, ss=True, ma="K", mb="K"):
    """GMMA op type. The *_TN ops other than S32S8S8 are alias templates whose only parameters
    (ScaleIn) have defaults: they must be written `X<>` as a template argument."""
    name, k, major_tmpl = kind
    if name == "S32S8S8" and n not in S8_N:
        n = min(S8_N, key=lambda x: abs(x - n))
    op = "SM90_64x%dx%d_%s_%s" % (n, k, name, "SS" if ss else "RS")
    if major_tmpl:
        return "%s<GMMA::Major::%s, GMMA::Major::%s>" % (op, ma, mb)
    return op + ("_TN" if name == "S32S8S8" else "_TN<>")


def g_traits():
    # MMA_Traits / MMA_Atom members
    for op in SM8X_MMA:
        for mem in R.sample(["Shape_MNK", "ThrID", "ALayout", "BLayout", "CLayout"], 3):
            add("traits", "%sMMA_Traits<%s>::%s{}" % (R.choice(["", "typename "]), op, mem), "ok")
        mem = R.choice(["Shape_MNK", "ThrID", "LayoutA_TV", "LayoutB_TV", "LayoutC_TV"])
        add("traits", "MMA_Atom<%s>::%s{}" % (op, mem), "ok")
    for op in COPY_OPS:
        mem = R.choice(["SrcLayout", "DstLayout", "RefLayout", "ThrID"])
        add("traits", "Copy_Traits<%s>::%s{}" % (op, mem), "ok")
        t = R.choice(["half_t", "float", "uint16_t", "bfloat16_t"])
        mem = R.choice(["ValLayoutSrc", "ValLayoutDst", "ValLayoutRef", "ThrID"])
        add("traits", "%sCopy_Atom<%s, %s>::%s{}" % (R.choice(["", "typename "]), op, t, mem), None)
    # GMMA traits, both majors, several N
    for _ in range(30):
        kind = R.choice(GMMA_KINDS)
        nn = R.choice([8, 16, 24, 32, 64, 96, 128, 192, 256, 40, 120, 200, 248])
        ss = R.random() < 0.7 or not kind[2]
        ma = R.choice(["K", "MN"]) if ss else "K"
        mb = R.choice(["K", "MN"])
        op = gmma_op(kind, nn, ss, ma, mb)
        if not kind[2] and not ss:
            continue
        mem = R.choice(["Shape_MNK", "ThrID", "ALayout", "BLayout", "CLayout"])
        add("traits", "MMA_Traits<%s>::%s{}" % (op, mem), "ok")
    # tiled MMA members, GMMA
    for _ in range(45):
        kind = R.choice(GMMA_KINDS)
        nn = R.choice([16, 32, 64, 96, 128, 192, 256, 24, 80])
        ss = R.random() < 0.7 or not kind[2]
        if not kind[2]:
            ss = True
        ma = R.choice(["K", "MN"])
        mb = R.choice(["K", "MN"])
        want = "error" if (not ss and ma == "MN") else "ok"
        op = gmma_op(kind, nn, ss, ma, mb)
        sp = Sp()
        args = ["%s{}" % op]
        al = R.choice([None, None, (1, 1, 1), (2, 1, 1), (1, 2, 1)])
        if al:
            args.append("Layout<Shape<%s>>{}" % sp.tsep.join(sp.t(x) for x in al))
            if R.random() < 0.3:
                args.append("Tile<%s>{}" % sp.tsep.join(sp.t(x) for x in (64 * al[0], nn * al[1], kind[1])))
        m = R.choice(["get_layoutA_TV()", "get_layoutB_TV()", "get_layoutC_TV()", "get_layoutC_TV()"])
        t = "%s(%s)" % (sp.f("make_tiled_mma"), ", ".join(args))
        r = R.random()
        if r < 0.75:
            add("traits", "%s.%s" % (t, m), want)
        elif r < 0.9:
            add("traits", "%s<%d>(%s)" % (sp.ns + "tile_size", R.randrange(3), t), want)
        else:
            add("traits", "%s(%s)" % (sp.f(R.choice(["size", "tile_shape"])), t), want)
    # op selectors (as the CUTLASS collective builders do)
    for _ in range(8):
        ab = R.choice([("half_t", "half_t", "float"), ("bfloat16_t", "bfloat16_t", "float"),
                       ("half_t", "half_t", "half_t"), ("float_e4m3_t", "float_e4m3_t", "float")])
        tile = (R.choice([64, 128]), R.choice([64, 128, 256]), R.choice([64, 128]))
        sel = R.choice(["ss", "ss", "rs"])
        maj = "" if R.random() < 0.6 else ", GMMA::Major::K, GMMA::Major::%s" % R.choice(["K", "MN"])
        m = R.choice(["get_layoutA_TV()", "get_layoutB_TV()", "get_layoutC_TV()"])
        add("traits", "make_tiled_mma(GMMA::%s_op_selector<%s, %s, %s, Shape<%s>%s>()).%s" % (
            sel, ab[0], ab[1], ab[2], ",".join("_%d" % x for x in tile), maj, m), None)
    # SM100 UMMA tiled MMA
    for _ in range(10):
        fam = R.choice([("F16BF16", "half_t", "half_t", "float"), ("F16BF16", "bfloat16_t", "bfloat16_t", "float"),
                        ("TF32", "tfloat32_t", "tfloat32_t", "float")])
        M, N = R.choice([64, 128]), R.choice([64, 128, 192, 256])
        op = "SM100_MMA_%s_SS<%s, %s, %s, %d, %d, UMMA::Major::%s, UMMA::Major::%s>" % (
            fam[0], fam[1], fam[2], fam[3], M, N, R.choice(["K", "MN"]), R.choice(["K", "MN"]))
        if R.random() < 0.5:
            add("traits", "MMA_Traits<%s>::%s{}" % (op, R.choice(["ALayout", "BLayout", "CLayout", "Shape_MNK"])),
                None)
        else:
            add("traits", "make_tiled_mma(%s{}).%s" % (op, R.choice(["get_layoutA_TV()", "get_layoutC_TV()"])), None)
    # tiled MMA, SM80-style
    for _ in range(30):
        op = R.choice(SM8X_MMA[:7])
        sp = Sp()
        al = R.choice([(2, 2, 1), (2, 1, 1), (1, 2, 1), (4, 1, 1), (1, 1, 1)])
        args = [R.choice(["%s{}" % op, "MMA_Atom<%s>{}" % op]),
                R.choice(["Layout<Shape<%s>>{}" % sp.tsep.join(sp.t(x) for x in al),
                          "%s(%s)" % (sp.f("make_layout"), sp.tup(al))])]
        if R.random() < 0.35:
            args.append("Tile<%s>{}" % sp.tsep.join(sp.t(x) for x in (16 * al[0] * R.choice([1, 2]),
                                                                      8 * al[1] * R.choice([1, 2, 4]), 16)))
        t = "%s(%s)" % (sp.f("make_tiled_mma"), ", ".join(args))
        r = R.random()
        if r < 0.6:
            add("traits", "%s.%s" % (t, R.choice(["get_layoutA_TV()", "get_layoutB_TV()", "get_layoutC_TV()"])), None)
        elif r < 0.8:
            add("traits", "%s<%d>(%s)" % (sp.ns + "tile_size", R.randrange(3), t), None)
        elif r < 0.9:
            add("traits", "%s.get_thr_layout_vmnk()" % t, None)
        else:
            add("traits", "%s(%s)" % (sp.f(R.choice(["size", "tile_shape"])), t), None)
    # UniversalFMA TiledMMA
    for _ in range(6):
        al = R.choice([(16, 16, 1), (16, 8, 1), (8, 8, 1), (32, 8, 1)])
        m = R.choice(["get_layoutA_TV()", "get_layoutB_TV()", "get_layoutC_TV()"])
        add("traits", "TiledMMA<MMA_Atom<UniversalFMA<float>>, Layout<Shape<%s>>>{}.%s" % (
            ",".join("_%d" % x for x in al), m), None)
    # tiled copies
    thr_layouts = [((16, 8), (8, 1)), ((32, 4), (4, 1)), ((8, 16), (16, 1)), ((32, 8), (8, 1)), ((16, 8), (1, 16)),
                   ((8, 32), (1, 8)), ((64, 2), (2, 1)), ((128,), (1,))]
    for _ in range(34):
        op = R.choice(["UniversalCopy<uint128_t>", "UniversalCopy<uint64_t>", "UniversalCopy<uint32_t>",
                       "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>",
                       "DefaultCopy", "AutoVectorizingCopy"])
        t = R.choice(["half_t", "float", "bfloat16_t", "uint8_t"])
        sp = Sp()
        sh, st = R.choice(thr_layouts[:-1])
        vbits = {"uint128_t": 128, "uint64_t": 64, "uint32_t": 32}
        vb = next((v for k_, v in vbits.items() if k_ in op), BITS[t])
        nv = max(1, vb // BITS[t])
        val = R.choice([(1, nv), (nv, 1)]) if R.random() < 0.8 else (1, nv * 2)
        args = ["Copy_Atom<%s, %s>{}" % (op, t), sp.layout(sh, st), sp.layout(val)]
        tc = "%s(%s)" % (sp.f("make_tiled_copy"), ", ".join(args))
        r = R.random()
        if r < 0.75:
            add("traits", "%s.%s" % (tc, R.choice(["get_layoutS_TV()", "get_layoutD_TV()"])), None)
        elif r < 0.9:
            add("traits", "%s<%d>(%s)" % (sp.ns + "tile_size", R.randrange(2), tc), None)
        else:
            add("traits", "%s(%s)" % (sp.f("size"), tc), None)
    # make_tiled_copy_A/B/C from a tiled MMA
    for _ in range(14):
        mma = "make_tiled_mma(%s{}, Layout<Shape<%s>>{})" % (R.choice(SM8X_MMA[:3]),
                                                              R.choice(["_2,_2,_1", "_2,_1,_1", "_1,_2,_1", "_4,_1,_1"]))
        which = R.choice(["A", "B", "C"])
        op = R.choice({"A": ["SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U16x8_LDSM_T"],
                       "B": ["SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N", "SM75_U16x4_LDSM_T"],
                       "C": ["UniversalCopy<uint32_t>", "SM90_U32x4_STSM_N", "UniversalCopy<uint16_t>"]}[which])
        add("traits", "make_tiled_copy_%s(Copy_Atom<%s, half_t>{}, %s).%s" % (
            which, op, mma, R.choice(["get_layoutS_TV()", "get_layoutD_TV()"])), None)
    # rejections
    add("traits", "make_tiled_mma(SM90_64x64x16_F16F16F16_RS<GMMA::Major::MN, GMMA::Major::K>{}).get_layoutA_TV()",
        "error")
    # the traits / MMA_Atom do not check the RS major rule (only the TiledMMA does)
    add("traits", "MMA_Traits<SM90_64x64x16_F16F16F16_RS<GMMA::Major::MN, GMMA::Major::MN>>::ALayout{}", None)
    add("traits", "MMA_Atom<SM90_64x64x16_F16F16F16_RS<GMMA::Major::MN, GMMA::Major::K>>::LayoutA_TV{}", None)
    add("traits", "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
        "Layout<Shape<_1,_4>>{}).get_layoutS_TV()", "error")
    add("traits", "tile_size<3>(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}))", "error")
    add("traits", "MMA_Traits<SM90_64x264x16_F16F16F16_SS<GMMA::Major::K, GMMA::Major::K>>::CLayout{}", "error")
    # M = 96 is rejected by the op's static_assert only when the op itself is instantiated
    add("traits", "MMA_Traits<SM100_MMA_F16BF16_SS<half_t, half_t, float, 96, 128, UMMA::Major::K, "
        "UMMA::Major::K>>::CLayout{}", None)
    add("traits", "make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 96, 128, UMMA::Major::K, "
        "UMMA::Major::K>{}).get_layoutC_TV()", None)


# ---------------------------------------------------------------- j) errors
def g_errors():
    E = [
        "depth(make_tuple())", "Layout<Shape<_11>>{}", "Layout<Shape<_8,_13>>{}", "make_shape(_20{}, _4{})",
        "Layout<Shape<_100>,Stride<_1>>{}", "get<3>(Layout<Shape<_2,_4,_8>>{})", "get<2>(make_shape(_4{}, _8{}))",
        "size<2>(Layout<Shape<_4,_8>>{})", "shape<1,2>(Layout<Shape<_4,Shape<_2,_4>>>{})",
        "select<0,4>(make_shape(_2{}, _4{}, _8{}))", "take<2,1>(Layout<Shape<_2,_4,_8>>{})",
        "take<0,4>(Layout<Shape<_2,_4,_8>>{})", "layout<2>(Layout<Shape<_4,_8>>{})",
        "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<128>{}, Int<48>{}, Int<4>{}))",
        "tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(Int<96>{}, Int<64>{}, Int<3>{}))",
        "tile_to_shape(GMMA::Layout_K_SW64_Atom<uint8_t>{}, Shape<_64,_32>{})",
        "tile_to_shape(Layout<Shape<_8,_8>,Stride<_8,_1>>{}, Shape<_64,_12>{})",
        "upcast<3>(Layout<Shape<_8,_32>,Stride<_32,_1>>{})", "upcast<2>(Layout<Shape<_3,_8>,Stride<_1,_3>>{})",
        "upcast<4>(make_layout(make_shape(_4{}, _6{}), make_stride(_6{}, _1{})))",
        "upcast<2>(GMMA::Layout_K_SW128_SpAtom<half_t, 2>{})",
        "make_tiled_mma(SM90_64x128x16_F32F16F16_RS<GMMA::Major::MN, GMMA::Major::MN>{}).get_layoutC_TV()",
        "composition(Swizzle<3,3,1>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})",
        "right_inverse(GMMA::Layout_K_SW128_Atom<half_t>{})",
        "local_tile(make_layout(make_shape(_64{}, _64{})), make_shape(_16{}, _16{}), make_coord(_1{}, _2{}))",
        "local_partition(make_layout(make_shape(_64{}, _64{})), Layout<Shape<_4,_8>>{}, _3{})",
        "outer_partition(make_layout(make_shape(_64{}, _64{})), make_shape(_16{}, _16{}), make_coord(_1{}, _2{}))",
        "inner_partition(make_layout(make_shape(_64{}, _64{})), make_shape(_16{}, _16{}), make_coord(_1{}, _2{}))",
        "weakly_compatible(make_shape(_4{}, _8{}), make_shape(_32{}))",
        "product_each(Layout<Shape<_2,Shape<_4,_2>>>{})",
        "shape_div(make_shape(_8{}, _4{}), make_shape(_3{}, _2{}))", "safe_div(_64{}, _24{})",
        "complement(Layout<Shape<_4,_4>,Stride<_1,_2>>{}, _16{})",
        "make_identity_layout(Layout<Shape<_4,_8>>{})",
        "select<1,0>(Swizzle<3,3,3>{})", "Swizzle<3,3,3>{}(make_coord(_1{}, _2{}))",
        "GMMA::Layout_K_SW128_Atom<half_t>{}(_8{}, _0{}, _0{})",
        "size(make_tiled_mma(SM90_64x64x16_F16F16F16_SS<GMMA::Major::K>{}))",
    ]
    # expressions one might expect C++ to refuse but it accepts: recorded under the function's op
    ACCEPTED = [
        ("make_layout(make_shape(_4{}, _8{}), make_stride(_1{}))", "make_layout"),
        ("make_layout(make_shape(_4{}, _8{}), make_stride(_1{}, make_stride(_4{}, _32{})))", "make_layout"),
        ("Layout<Shape<_8,_8>,Stride<_8>>{}", "make_layout"),
        ("logical_divide(Layout<_12>{}, Layout<_8>{})", "logical_divide"),
        ("zipped_divide(Layout<Shape<_12,_8>>{}, make_tile(_8{}, _8{}))", "zipped_divide"),
        ("composition(Layout<Shape<_6,_4>>{}, Layout<_4,_4>{})", "composition"),
        ("make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
         "Layout<Shape<_1,_8>>{}).get_layoutS_TV()", "traits"),
    ]
    E += [
        "MMA_Traits<SM90_64x128x8_F32TF32TF32_SS_TN>::ALayout{}",
        "MMA_Traits<SM90_64x248x32_S32S8S8_SS_TN>::CLayout{}",
        "Copy_Atom<SM75_U32x4_LDSM_N, half_t>::NumValSrc{}",
        "tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<half_t>{}, make_shape(Int<32>{}, Int<64>{}, Int<2>{}))",
        "select<0,2>(GMMA::Layout_K_SW128_SpAtom<half_t, 2>{})",
    ]
    for e in E:
        add("errors", e, "error")
    for e, alt in ACCEPTED:
        add("errors", e, None)
        CASES[-1]["alt"] = alt


# ---------------------------------------------------------------- dynamic vs static pairs
def dyn_pair(tmpl):
    """`#N` marks an integer literal: plain N in the dynamic form, a static spelling in the twin."""
    sp = Sp(style=R.choice(["_", "_", "Int"]), ns="")
    d = re.sub(r"#(-?\d+)", lambda m: m.group(1), tmpl)
    s = re.sub(r"#(-?\d+)", lambda m: sp.i(int(m.group(1))), tmpl)
    return d, s


DYN_TEMPLATES = [
    "make_layout(make_shape(#5, #1))", "make_layout(make_shape(#1, #8))", "make_layout(make_shape(#2, #1, #4))",
    "make_layout(make_shape(#1, #4, #1), GenRowMajor{})",
    "coalesce(make_layout(make_shape(#4, #2)))", "coalesce(make_layout(make_shape(#5, #1)))",
    "coalesce(make_layout(make_shape(#4, #8), make_stride(#8, #1)))",
    "coalesce(make_layout(make_shape(#4, #1), make_stride(#1, #0)))",
    "coalesce(make_layout(make_shape(#2, make_shape(#4, #2))))",
    "filter(make_layout(make_shape(#4, #1, #2), make_stride(#1, #0, #4)))",
    "composition(make_layout(make_shape(#4, #8)), make_layout(#4, #2))",
    "composition(make_layout(make_shape(#4, #8), make_stride(#8, #1)), make_layout(#8, #4))",
    "composition(make_layout(make_shape(#16, #4)), make_tile(#4, #2))",
    "right_inverse(make_layout(make_shape(#4, #8), make_stride(#8, #1)))",
    "right_inverse(make_layout(make_shape(#4, #8)))", "left_inverse(make_layout(make_shape(#4, #8), make_stride(#8, #1)))",
    "right_inverse(make_layout(#16, #1))",
    "composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})(_, #0)",
    "composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})(#3, _)",
    "composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_32>,Stride<_32,_1>>{})(_, #5)",
    "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(#128, #64))",
    "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(#128, #48))",
    "tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, make_shape(#128, #64, #3))",
    "tile_to_shape(Layout<Shape<_8,_8>,Stride<_8,_1>>{}, make_shape(#64, #32))",
    "logical_divide(make_layout(make_shape(#64, #64)), make_tile(#8, #16))",
    "zipped_divide(make_layout(make_shape(#16, #16)), make_shape(#4, #4))",
    "logical_divide(make_layout(#16), make_layout(#4, #2))",
    "blocked_product(make_layout(make_shape(#2, #2)), make_layout(make_shape(#4, #1)))",
    "raked_product(make_layout(make_shape(#2, #2)), make_layout(make_shape(#4, #8)))",
    "logical_product(make_layout(#4), make_layout(#1))",
    "complement(make_layout(#4, #1), #16)", "complement(make_layout(make_shape(#2, #2), make_stride(#1, #4)), #32)",
    "max_common_vector(make_layout(make_shape(#8, #4)), make_layout(make_shape(#8, #4)))",
    "max_common_layout(make_layout(make_shape(#8, #4)), make_layout(make_shape(#8, #4)))",
    "upcast<2>(make_layout(make_shape(#8, #4), make_stride(#4, #1)))",
    "downcast<2>(make_layout(make_shape(#8, #4), make_stride(#4, #1)))",
    "make_fragment_like(make_layout(make_shape(#4, #8)))", "make_identity_layout(make_shape(#4, #1))",
    "make_layout_like(make_layout(make_shape(#4, #8), make_stride(#8, #1)))",
    "make_layout_like(make_layout(make_shape(#4, #1), make_stride(#1, #0)))",
    "make_ordered_layout(make_shape(#4, #8, #2), Step<_1,_0,_2>{})", "make_ordered_layout(make_shape(#4, #1), Step<_1,_0>{})",
    "nullspace(make_layout(make_shape(#4, #8), make_stride(#0, #1)))",
    "filter_zeros(make_layout(make_shape(#4, #8), make_stride(#0, #1)))",
    "flat_divide(make_layout(make_shape(#32, #8)), make_tile(#8, #4))",
    "tiled_divide(make_layout(make_shape(#32, #8)), make_tile(#8, #4))",
    "coalesce(make_layout(make_shape(#4, #8)), Step<_1,_1>{})",
    "coalesce(make_layout(make_shape(#1, #8, #4), make_stride(#0, #1, #8)))",
    "append(make_layout(make_shape(#4, #8)), make_layout(#1, #0))",
    "composition(make_layout(make_shape(#4, #4)), make_layout(#16, #1))",
    "composition(make_layout(#32, #2), make_layout(make_shape(#4, #8)))",
    "right_inverse(make_layout(make_shape(#2, #4), make_stride(#4, #1)))",
    "left_inverse(make_layout(#8, #2))", "composition(make_layout(make_shape(#8, #8)), make_layout(make_shape(#2, #4), make_stride(#8, #2)))",
    "slice(make_coord(_, #0), make_layout(make_shape(#4, #1)))",
    "size(make_layout(make_shape(#4, #8)))",
    "compatible(#32, make_shape(#4, #8))", "congruent(make_shape(#4, #8), make_shape(#2, #2))",
    "shape_div(make_shape(#8, #4), make_shape(#3, #2))", "safe_div(#64, #24)",
    "upcast<3>(make_layout(make_shape(#8, #32), make_stride(#32, #1)))",
    "ceil_div(make_shape(#128, #100), make_shape(#64, #32))",
    "evenly_divides(make_shape(#64, #64), make_shape(#16, #24))",
    "tile_to_shape(make_layout(make_shape(#8, #8), make_stride(#8, #1)), make_shape(#64, #64))",
]


def g_dynamic():
    pairs = []
    for tmpl in DYN_TEMPLATES:
        pairs.append(dyn_pair(tmpl))
    for k, (d, s) in enumerate(pairs):
        add("dynamic", d, None)
        CASES[-1]["pair"] = k
        add("static_twin", s, None)
        CASES[-1]["pair"] = k


# ---------------------------------------------------------------- mixed static/dynamic
RD = random.Random(SEED + 7)


def rd_int(v, dyn_p):
    """A leaf: a plain int (dynamic in C++) with probability dyn_p, else a static spelling."""
    if RD.random() < dyn_p:
        return str(v)
    return "%s{}" % alias_name(v) if v in ALIAS and RD.random() < 0.7 else "Int<%d>{}" % v


def rd_tuple(vals, kind, dyn_p):
    if isinstance(vals, (list, tuple)):
        return "make_%s(%s)" % (kind, ", ".join(rd_tuple(x, kind, dyn_p) for x in vals))
    return rd_int(vals, dyn_p)


def rd_shape(max_modes=3, nest=True):
    n = RD.randint(1, max_modes)
    out = []
    for _ in range(n):
        if nest and RD.random() < 0.2:
            out.append([RD.choice([1, 2, 4]) for _ in range(2)])
        else:
            out.append(RD.choice([1, 2, 2, 3, 4, 4, 8, 16]))
    return out


def rd_flat(t):
    return [x for y in t for x in (y if isinstance(y, list) else [y])]


def rd_like(t, leaves):
    it = iter(leaves)
    return [[next(it) for _ in y] if isinstance(y, list) else next(it) for y in t]


def rd_layout(dyn_p, compact_p=0.5):
    """make_layout(shape[, stride]) with each leaf static or dynamic."""
    sh = rd_shape()
    if RD.random() < compact_p:
        return "make_layout(%s)" % rd_tuple(sh, "shape", dyn_p), sh
    flat = rd_flat(sh)
    # a random permutation of compact strides, sometimes a 0 stride
    order = list(range(len(flat)))
    RD.shuffle(order)
    st, cur = [0] * len(flat), 1
    for i in order:
        st[i] = 0 if RD.random() < 0.1 else cur
        cur *= flat[i]
    return "make_layout(%s, %s)" % (rd_tuple(sh, "shape", dyn_p), rd_tuple(rd_like(sh, st), "stride", dyn_p)), sh


def g_dynamic_random(n):
    fns = [
        lambda p: "coalesce(%s)" % rd_layout(p)[0],
        lambda p: "filter(%s)" % rd_layout(p, 0.2)[0],
        lambda p: "filter_zeros(%s)" % rd_layout(p, 0.2)[0],
        lambda p: "composition(%s, %s)" % (rd_layout(p)[0], rd_layout(p)[0]),
        lambda p: "composition(%s, make_layout(%s, %s))" % (rd_layout(p)[0], rd_int(RD.choice([2, 4, 8]), p), rd_int(RD.choice([1, 2]), p)),
        lambda p: "complement(%s, %s)" % (rd_layout(p, 0.3)[0], rd_int(RD.choice([32, 64, 128]), p)),
        lambda p: "complement(%s)" % rd_layout(p, 0.3)[0],
        lambda p: "right_inverse(%s)" % rd_layout(p, 0.3)[0],
        lambda p: "left_inverse(%s)" % rd_layout(p, 0.3)[0],
        lambda p: "logical_divide(%s, make_layout(%s))" % (rd_layout(p)[0], rd_int(RD.choice([2, 4]), p)),
        lambda p: "zipped_divide(make_layout(%s), make_shape(%s, %s))" % (
            rd_tuple([RD.choice([8, 16]), RD.choice([8, 16])], "shape", p), rd_int(RD.choice([2, 4]), p), rd_int(RD.choice([2, 4]), p)),
        lambda p: "logical_product(%s, %s)" % (rd_layout(p)[0], rd_layout(p)[0]),
        lambda p: "blocked_product(%s, %s)" % (rd_layout(p)[0], rd_layout(p)[0]),
        lambda p: "raked_product(%s, %s)" % (rd_layout(p)[0], rd_layout(p)[0]),
        lambda p: "tile_to_shape(make_layout(%s), make_shape(%s, %s))" % (
            rd_tuple([RD.choice([2, 4, 8]), RD.choice([2, 4, 8])], "shape", p), rd_int(RD.choice([16, 32, 48]), p), rd_int(RD.choice([16, 32, 64]), p)),
        lambda p: "max_common_vector(%s, %s)" % (rd_layout(p)[0], rd_layout(p)[0]),
        lambda p: "max_common_layout(%s, %s)" % (rd_layout(p)[0], rd_layout(p)[0]),
        lambda p: "upcast<%d>(%s)" % (RD.choice([2, 4]), rd_layout(p, 0.3)[0]),
        lambda p: "downcast<%d>(%s)" % (RD.choice([2, 4]), rd_layout(p, 0.3)[0]),
        lambda p: "make_layout_like(%s)" % rd_layout(p, 0.2)[0],
        lambda p: "make_fragment_like(%s)" % rd_layout(p, 0.2)[0],
        lambda p: "nullspace(%s)" % rd_layout(p, 0.1)[0],
        lambda p: "size(%s)" % rd_layout(p)[0],
        lambda p: "cosize(%s)" % rd_layout(p, 0.2)[0],
        lambda p: "shape_div(%s, %s)" % (rd_tuple([RD.choice([4, 8, 16]), RD.choice([4, 8])], "shape", p),
                                         rd_tuple([RD.choice([2, 3, 4]), RD.choice([2, 4])], "shape", p)),
        lambda p: "ceil_div(%s, %s)" % (rd_tuple([RD.choice([100, 128]), RD.choice([60, 64])], "shape", p),
                                        rd_tuple([RD.choice([16, 32]), RD.choice([16, 32])], "shape", p)),
        lambda p: "product_each(%s)" % rd_tuple(rd_shape(), "shape", p),
        lambda p: "make_ordered_layout(%s, Step<_1,_0,_2>{})" % rd_tuple([RD.choice([1, 2, 4]) for _ in range(3)], "shape", p),
    ]
    for k in range(n):
        f = fns[k % len(fns)]
        e = f(RD.choice([0.3, 0.6, 1.0]))
        add("dyn_" + e.split("(")[0].split("<")[0], e, None)


def g_dynamic_slices(n):
    """Slices of swizzled layouts at run-time (plain int) and static coordinates."""
    rs = random.Random(SEED + 11)
    for _ in range(n):
        b_, m_, s_ = rs.choice([(3, 3, 3), (2, 3, 3), (3, 4, 3), (2, 4, 3), (1, 4, 3), (3, 2, 3), (2, 1, 4)])
        rows, cols = rs.choice([(8, 64), (8, 32), (16, 64), (4, 64), (8, 128)])
        if rs.random() < 0.5:
            lay = "Layout<Shape<Int<%d>,Int<%d>>,Stride<Int<%d>,_1>>{}" % (rows, cols, cols)
        else:
            lay = "Layout<Shape<Int<%d>,Int<%d>>,Stride<_1,Int<%d>>>{}" % (rows, cols, rows)
        def c(limit):
            k = rs.randrange(limit)
            return str(k) if rs.random() < 0.7 else "Int<%d>{}" % k
        coord = rs.choice(["_, %s" % c(cols), "%s, _" % c(rows)])
        add("dyn_slice_composed", "composition(Swizzle<%d,%d,%d>{}, %s)(%s)" % (b_, m_, s_, lay, coord), None)
    # A swizzled layout of run-time shape/stride cannot be sliced (C++ needs a static
    # shape*stride); run-time layouts index as static ones do.
    for e in ["composition(Swizzle<3,3,3>{}, make_layout(make_shape(8, 64), make_stride(64, 1)))(_, 3)",
              "composition(Swizzle<2,3,3>{}, make_layout(make_shape(8, 32), make_stride(32, 1)))(5, _)",
              "composition(Swizzle<3,3,3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(64, _1{})))(_, 3)"]:
        add("dyn_slice_composed", e, None)
    for e in ["make_layout(make_shape(4, 8))(3, 5)", "make_layout(make_shape(4, 8), make_stride(8, 1))(13)",
              "make_layout(make_shape(4, make_shape(2, 4)), make_stride(8, make_stride(1, 2)))(3, 5)",
              "make_layout(make_shape(_4{}, 8), make_stride(8, _1{}))(make_coord(2, 7))",
              "crd2idx(make_coord(1, 2), make_shape(4, 8), make_stride(8, 1))",
              "idx2crd(13, make_shape(4, 8))"]:
        add("dyn_index", e, None)


# ----------------------------------------------------------------------------
CATEGORIES = [
    ("smem_atom", g_smem_atom),
    ("tile_to_shape", lambda: g_tile_to_shape(150)),
    ("eval_smem", lambda: g_eval_smem(110)),
    ("template_call", lambda: g_template_call(150)),
    ("layout_fns", lambda: g_layout_fns(320)),
    ("composed_overload", lambda: g_composed(128)),
    ("predicate", lambda: g_predicate(70)),
    ("static_arith", lambda: g_static_arith(68)),
    ("traits", g_traits),
    ("errors", g_errors),
    ("dynamic", g_dynamic),
    ("dynamic_random", lambda: g_dynamic_random(420)),
    ("dynamic_slices", lambda: g_dynamic_slices(60)),
]


# ----------------------------------------------------------------------------
# C++ driver (gen.Oracle with our prelude, extra flags and multi-line capture)
# ----------------------------------------------------------------------------
class PasteOracle(gen.Oracle):
    prelude = PRELUDE

    def __init__(self, oracle_dir, workdir):
        super().__init__(oracle_dir, workdir)
        self.inc = self.inc + CXXFLAGS

    def read_output(self, out, rc):
        """Every printed line of each case (multi-line prints kept); output that ends inside
        a case (no `@@end`) means that case crashed."""
        res, cur, buf = {}, None, []
        for ln in out.split("\n"):
            if ln.startswith("@@"):
                if cur is not None:
                    res[cur] = "\n".join(buf).rstrip("\n")
                cur, buf = (None if ln == "@@end" else int(ln[2:])), []
            elif cur is not None:
                buf.append(ln)
        crashed = None
        if cur is not None:           # output ended inside a case: that case crashed
            res[cur] = "\n".join(buf)
            crashed = cur
        elif rc != 0:
            crashed = max(res) if res else None
        return res, crashed


RX_SW = re.compile(r"Sw<-?\d+,-?\d+,-?\d+>")
RX_SMEM = re.compile(r"smem_ptr\[\d+b\]\(unset\)")


def convert(raw):
    """C++ print -> expected text (None if outside the accepted printed syntax)."""
    if raw is None or "\n" in raw.strip("\n"):
        return None
    s = raw.strip()
    t = re.sub(r"(?<![A-Za-z0-9])_(-?\d+)", r"\1", s)
    u = RX_SMEM.sub("S", RX_SW.sub("W", t))
    part = r"[0-9(),:\-@SW]+"
    if not re.fullmatch(r"%s( o %s)*" % (part, part), u):
        return None
    if "S" in u.replace(" o ", "") and not re.fullmatch(r"W o S o [0-9(),:\-@]+", u):
        return None
    return t


# ----------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--dyn-out", default=DEFAULT_DYN_OUT)
    ap.add_argument("--oracle-dir", default=os.environ.get("ORACLE_DIR", "oracle-work"))
    ap.add_argument("--batch", type=int, default=120, help="cases per translation unit")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--only", default="", help="comma list of categories (" +
                    ",".join(c for c, _ in CATEGORIES) + ")")
    ap.add_argument("--max-dynamic", type=int, default=45, help="dynamic cases kept (first N that differ)")
    ap.add_argument("--errlog", default="", help="write op/expr/first compiler error of error cases here")
    ap.add_argument("--review", default="", help="write cases whose outcome differs from the generator's "
                    "intent (ok/error) and skipped results here")
    ap.add_argument("--probe", default="", help="just print raw C++ output for the expressions in FILE")
    ap.add_argument("--list", action="store_true", help="only print the generated cases (no compiling)")
    ap.add_argument("--keep-tmp", action="store_true")
    args = ap.parse_args()

    workdir = tempfile.mkdtemp(prefix="cute-paste-")
    orc = PasteOracle(args.oracle_dir, workdir)
    t0 = time.time()

    if args.probe:
        exprs = [ln.rstrip("\n") for ln in open(args.probe) if ln.strip() and not ln.startswith("#")]
        batch = [{"id": i, "cpp": e} for i, e in enumerate(exprs)]
        res = {}
        orc.solve(batch, res)
        for i, e in enumerate(exprs):
            r = res.get(i)
            if isinstance(r, tuple):
                r = "!! " + " ".join(str(x) for x in r)
            print("%s  =>  %s" % (e, r))
        shutil.rmtree(workdir, ignore_errors=True)
        return

    cat_ranges = []
    for name, fn in CATEGORIES:
        a = len(CASES)
        fn()
        cat_ranges.append((name, a, len(CASES)))
    only = set(x for x in args.only.split(",") if x)
    seen, selected = {}, []
    twin_id = {}  # pair number -> id of the static twin (possibly a case of another op with the same expr)
    for name, a, b in cat_ranges:
        for c in CASES[a:b]:
            if only and name not in only:
                continue
            if c["expr"] in seen:
                if c["op"] == "static_twin":
                    twin_id[c["pair"]] = seen[c["expr"]]
                continue
            c["cat"] = name
            c["cpp"] = c["expr"]
            c["id"] = len(selected)
            seen[c["expr"]] = c["id"]
            if c["op"] == "static_twin":
                twin_id[c["pair"]] = c["id"]
            selected.append(c)
    print("generated %d cases" % len(selected), file=sys.stderr)
    if args.list:
        for c in selected:
            print("%s\t%s\t%s" % (c["op"], c["want"], c["expr"]))
        return

    results = {}
    batches = [selected[i:i + args.batch] for i in range(0, len(selected), args.batch)]
    lock = threading.Lock()

    def rows_for():
        main_rows, dyn_rows = [], []
        expect = {}
        for c in selected:
            r = results.get(c["id"])
            if r is None:
                continue
            if isinstance(r, tuple):
                expect[c["id"]] = "error" if r[0] == "error" else None
            else:
                expect[c["id"]] = convert(r)
        # dynamic pairs: keep only those whose result differs from the static twin
        keep_dyn, keep_twin = [], set()
        for c in selected:
            if c["op"] != "dynamic":
                continue
            tw = twin_id.get(c["pair"])
            if c["id"] not in expect or tw not in expect:
                continue
            d, s = expect[c["id"]], expect[tw]
            if d is None or s is None or d == s:
                continue
            if len(keep_dyn) < args.max_dynamic:
                keep_dyn.append(c)
                keep_twin.add(tw)
        for c in keep_dyn:
            dyn_rows.append({"op": c["op"], "expr": c["expr"], "expect": expect[c["id"]]})
        # mixed static/dynamic cases: all of them (a C++ statement each in the test)
        for c in selected:
            if c["op"].startswith("dyn_") and expect.get(c["id"]) is not None:
                dyn_rows.append({"op": c["op"], "expr": c["expr"], "expect": expect[c["id"]]})
        order = []
        for c in selected:
            if c["op"] == "dynamic" or c["op"].startswith("dyn_") or (c["op"] == "static_twin" and c["id"] not in keep_twin):
                continue
            e = expect.get(c["id"])
            if e is None:
                continue
            op = c["op"]
            if op == "errors" and e != "error" and c.get("alt"):
                op = c["alt"]
            order.append((op, c["id"], {"op": op, "expr": c["expr"], "expect": e}))
        order.sort(key=lambda x: (x[0], x[1]))
        main_rows = [x[2] for x in order]
        return main_rows, dyn_rows

    def write_out():
        with lock:
            main_rows, dyn_rows = rows_for()
        for path, rows in ((args.out, main_rows), (args.dyn_out, dyn_rows)):
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            tmp = path + ".tmp"
            with open(tmp, "w") as fh:
                for r in rows:
                    fh.write(json.dumps(r) + "\n")
            os.replace(tmp, path)
        return main_rows, dyn_rows

    gen.solve_batches(orc, batches, args.jobs, results, lock, t0, write_out)
    main_rows, dyn_rows = write_out()

    # review / stats
    review, errlines = [], []
    skipped = 0
    for c in selected:
        r = results.get(c["id"])
        if isinstance(r, tuple):
            if r[0] == "error":
                errlines.append("%s\t%s\t%s" % (c["op"], c["expr"], r[1]))
                if c["want"] == "ok":
                    review.append("UNEXPECTED ERROR\t%s\t%s\t%s" % (c["op"], c["expr"], r[1]))
            else:
                review.append("CRASH\t%s\t%s" % (c["op"], c["expr"]))
            continue
        conv = convert(r)
        if conv is None:
            skipped += 1
            review.append("SKIP (unrepresentable)\t%s\t%s\t%r" % (c["op"], c["expr"], r))
        if c["want"] == "error":
            review.append("UNEXPECTED OK\t%s\t%s\t%r" % (c["op"], c["expr"], r))
    if args.errlog:
        with open(args.errlog, "w") as fh:
            fh.write("\n".join(errlines) + "\n")
    if args.review:
        with open(args.review, "w") as fh:
            fh.write("\n".join(review) + "\n")
    per_op, errs = {}, {}
    for r in main_rows:
        per_op[r["op"]] = per_op.get(r["op"], 0) + 1
        if r["expect"] == "error":
            errs[r["op"]] = errs.get(r["op"], 0) + 1
    for op in sorted(per_op):
        print("%-22s %5d  (error: %d)" % (op, per_op[op], errs.get(op, 0)), file=sys.stderr)
    print("total %d rows (+%d dynamic), %d compiles, %.0fs, %d unrepresentable skipped, %d review lines"
          % (len(main_rows), len(dyn_rows), orc.compiles, time.time() - t0, skipped, len(review)), file=sys.stderr)
    if not args.keep_tmp:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
