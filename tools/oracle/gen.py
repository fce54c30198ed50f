#!/usr/bin/env python3
"""Golden-data generator for CuTe Layout Explorer.

Generates random-but-valid (and some deliberately invalid) cases per category with
a fixed RNG seed, writes C++ probes that use ONLY static CuTe integers (Int<N>{}),
compiles them in batches against the real CuTe headers (the "oracle", see
/work/shared/tools/cute-oracle-setup.sh), runs them, and records each printed
result with the `_` of static integers removed.  Cases that fail to compile are
isolated (error-line attribution + single-case confirmation) and recorded as
"error".

Output: crates/cute-lang/tests/data/oracle-cases.jsonl  (one {"op","expr","expect"} per line)
See README.md in this directory for how to rerun.
"""
import argparse
import concurrent.futures as cf
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
DEFAULT_OUT = os.path.join(REPO, "crates", "cute-core", "tests", "data", "oracle-cases.jsonl")
PUBLIC_CORPUS = "/work/shared/reference/cute-cases.jsonl"

SEED = 20240611
R = random.Random(SEED)

# ----------------------------------------------------------------------------
# Value model: python int / tuple (int-tuples), and the classes below.
# Each value renders to our expression language (ex) and to C++ (cpp).
# ----------------------------------------------------------------------------


class U:
    """The slicing underscore `_`."""


US = U()


class Lay:
    def __init__(self, shape, stride):
        self.shape, self.stride = shape, stride


class Tile:
    """By-mode tiler: tuple of layouts and/or int-tuples."""

    def __init__(self, items, make_tile=False):
        self.items, self.make_tile = list(items), make_tile


class Sw:
    def __init__(self, b, m, s):
        self.b, self.m, self.s = b, m, s


class Comp:
    """Composed layout Sw o 0 o L; `form` selects how the expression is written."""

    def __init__(self, sw, lay, form="o"):
        self.sw, self.lay, self.form = sw, lay, form


class Raw:
    """Verbatim (expr, cpp) pair."""

    def __init__(self, e, c):
        self.e, self.c = e, c


def ex(v):
    if isinstance(v, bool):
        raise TypeError
    if isinstance(v, int):
        return str(v)
    if isinstance(v, U):
        return "_"
    if isinstance(v, tuple):
        return "(" + ",".join(ex(x) for x in v) + ")"
    if isinstance(v, Lay):
        return ex(v.shape) + ":" + ex(v.stride)
    if isinstance(v, Tile):
        inner = ",".join(ex(x) for x in v.items)
        return ("make_tile(%s)" if v.make_tile else "(%s)") % inner
    if isinstance(v, Sw):
        return "Sw<%d,%d,%d>" % (v.b, v.m, v.s)
    if isinstance(v, Comp):
        if v.form == "o":
            return "%s o 0 o %s" % (ex(v.sw), ex(v.lay))
        if v.form == "comp":
            return "composition(%s, %s)" % (ex(v.sw), ex(v.lay))
        return "make_composed_layout(%s, 0, %s)" % (ex(v.sw), ex(v.lay))
    if isinstance(v, Raw):
        return v.e
    raise TypeError(type(v))


def cpp(v, kind="tuple"):
    if isinstance(v, int):
        return "Int<%d>{}" % v
    if isinstance(v, U):
        return "_"
    if isinstance(v, tuple):
        return "make_%s(%s)" % (kind, ",".join(cpp(x, kind) for x in v))
    if isinstance(v, Lay):
        return "make_layout(%s,%s)" % (cpp(v.shape, "shape"), cpp(v.stride, "stride"))
    if isinstance(v, Tile):
        return "make_tile(%s)" % ",".join(cpp(x, "shape") for x in v.items)
    if isinstance(v, Sw):
        return "Swizzle<%d,%d,%d>{}" % (v.b, v.m, v.s)
    if isinstance(v, Comp):
        if v.form == "comp":
            return "composition(%s,%s)" % (cpp(v.sw), cpp(v.lay))
        return "make_composed_layout(%s,Int<0>{},%s)" % (cpp(v.sw), cpp(v.lay))
    if isinstance(v, Raw):
        return v.c
    raise TypeError(type(v))


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


def depth_of(t):
    if isinstance(t, tuple):
        return 1 + max([depth_of(x) for x in t] or [0])
    return 0


def rank_of(t):
    return len(t) if isinstance(t, tuple) else 1


def mode(t, i):
    return t[i] if isinstance(t, tuple) else t


def fill(tree, it):
    if isinstance(tree, tuple):
        return tuple(fill(x, it) for x in tree)
    return next(it)


def nleaves(tree):
    return len(flat(tree))


def cosize(lay):
    s, d = flat(lay.shape), flat(lay.stride)
    return 1 + sum((a - 1) * abs(b) for a, b in zip(s, d))


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


# ----------------------------------------------------------------------------
# random generators
# ----------------------------------------------------------------------------
P2 = [1, 2, 2, 2, 4, 4, 4, 8, 8, 16]
GEN = [1, 2, 2, 3, 4, 4, 5, 6, 8, 8, 3, 12, 16, 7]


def rtree(depth, maxw=3, maxleaves=6):
    """Random nesting structure of exactly `depth` ('x' leaves)."""
    for _ in range(100):
        t = _rtree(depth, maxw)
        if nleaves(t) <= maxleaves:
            return t
    return _rtree(depth, 1)


def _rtree(depth, maxw):
    if depth == 0:
        return "x"
    n = R.randint(1, maxw)
    k = R.randrange(n)
    return tuple(_rtree(depth - 1 if i == k else R.randint(0, depth - 1), maxw) for i in range(n))


def rshapes(n, pow2=True, maxsize=512, allow1=True):
    pool = P2 if pow2 else GEN
    if not allow1:
        pool = [x for x in pool if x != 1]
    for _ in range(200):
        v = [R.choice(pool) for _ in range(n)]
        if prod(tuple(v)) <= maxsize:
            return v
    return [1 if allow1 else 2] * n


def rstrides(shapes, mode="compact", neg=0.0, zero=0.0):
    n = len(shapes)
    if mode == "compact":
        order = list(range(n))
        if R.random() < 0.7:
            R.shuffle(order)
        d = [0] * n
        cur = R.choice([1, 1, 1, 1, 2, 3]) if R.random() < 0.3 else 1
        for i in order:
            d[i] = cur
            cur *= shapes[i]
            if R.random() < 0.15:
                cur *= R.choice([2, 3, 4])
    else:
        d = [R.choice([0, 1, 1, 2, 3, 4, 4, 6, 8, 8, 12, 16, 32, 64]) for _ in range(n)]
    d = [0 if R.random() < zero else x for x in d]
    d = [-x if R.random() < neg else x for x in d]
    return d


def rlayout(depth=None, pow2=None, neg=0.0, zero=0.0, mode=None, maxsize=512, maxw=3,
            maxleaves=6, allow1=True):
    if depth is None:
        depth = R.choice([0, 1, 1, 2, 2, 3])
    if pow2 is None:
        pow2 = R.random() < 0.6
    if mode is None:
        mode = "compact" if R.random() < 0.75 else "random"
    tree = rtree(depth, maxw, maxleaves) if depth > 0 else "x"
    n = nleaves(tree)
    s = rshapes(n, pow2, maxsize, allow1)
    d = rstrides(s, mode, neg, zero)
    return Lay(fill(tree, iter(s)), fill(tree, iter(d)))


def rsmall_layout(maxsize=16, depth=None, pow2=True, neg=0.0):
    """A small tiler layout."""
    return rlayout(depth=R.choice([0, 0, 1, 1, 2]) if depth is None else depth, pow2=pow2,
                   neg=neg, maxsize=maxsize, maxw=2, maxleaves=3)


def tile_for(modesize, pow2=True):
    """A tiler element for one mode of size `modesize`: an int or a layout."""
    ds = [d for d in divisors(modesize)] if modesize > 0 else [1]
    if not pow2 and R.random() < 0.5:
        t = R.choice([2, 3, 4, 6, 8])
    else:
        t = R.choice(ds)
    r = R.random()
    if r < 0.35:
        return t
    if r < 0.8:
        rest = max(1, modesize // t) if modesize % t == 0 else 2
        st = R.choice(divisors(rest)) if R.random() < 0.8 else R.choice([1, 2, 3])
        return Lay(t, st)
    # two-mode layout
    t1 = R.choice(divisors(t))
    t2 = t // t1
    return Lay((t1, t2), (R.choice([1, 2]), t1 * R.choice([1, 2, 4])))


def rtile(A, pow2=True, maxk=None):
    r = rank_of(A.shape)
    k = R.randint(1, r if maxk is None else min(r, maxk))
    items = [tile_for(prod(mode(A.shape, i)), pow2) for i in range(k)]
    return Tile(items, make_tile=R.random() < 0.1)


def rtiler_layout(A, pow2=True, neg=0.0):
    """A whole-layout tiler B for composition(A, B) / divide(A, B)."""
    n = prod(A.shape)
    for _ in range(50):
        B = rlayout(depth=R.choice([0, 0, 1, 1, 2]), pow2=pow2, neg=neg, maxsize=max(1, n),
                    maxw=2, maxleaves=3)
        if cosize(B) <= max(n, 1) or R.random() < 0.1:
            return B
    return Lay(1, 0)


def rcoord(shape, allow_under=False, under_p=0.35, partial_p=0.25):
    """Random coordinate into `shape` (hierarchical; may use an int at a tuple level)."""
    if isinstance(shape, tuple):
        if allow_under and R.random() < under_p:
            return US
        if R.random() < partial_p:
            return R.randrange(max(1, prod(shape)))
        return tuple(rcoord(s, allow_under, under_p, partial_p) for s in shape)
    if allow_under and R.random() < under_p:
        return US
    return R.randrange(max(1, shape))


def has_under(c):
    if isinstance(c, U):
        return True
    if isinstance(c, tuple):
        return any(has_under(x) for x in c)
    return False


def rswizzle(valid=True):
    if not valid:
        b = R.randint(1, 3)
        return Sw(b, R.randint(0, 4), R.choice([s for s in range(-b + 1, b)]))
    for _ in range(100):
        b, m, s = R.randint(0, 3), R.randint(0, 4), R.randint(-4, 4)
        if abs(s) >= b:
            return Sw(b, m, s)
    return Sw(3, 4, 3)


COMMON_SW = [Sw(3, 4, 3), Sw(2, 4, 3), Sw(3, 3, 3), Sw(2, 3, 3), Sw(1, 4, 3), Sw(3, 4, 4), Sw(2, 2, 3),
             Sw(1, 3, 3), Sw(3, 2, 3)]


def smem_layout():
    r = R.random()
    if r < 0.25:
        return Lay((8, 64), (64, 1))
    if r < 0.4:
        return Lay((8, 32), (32, 1))
    if r < 0.55:
        return Lay(((8, 8), (8, 8)), ((8, 64), (1, 512)))
    if r < 0.65:
        return Lay((16, 64), (64, 1))
    if r < 0.75:
        return Lay((64, 8), (1, 64))
    return rlayout(depth=R.choice([1, 1, 2, 3]), pow2=True, maxsize=2048, neg=0.05)


# ----------------------------------------------------------------------------
# case construction
# ----------------------------------------------------------------------------
CASES = []  # list of dicts: op, expr, cpp, cat


def add(op, expr, cppexpr):
    CASES.append({"op": op, "expr": expr, "cpp": cppexpr})


def call(fn, *args):
    return "%s(%s)" % (fn, ", ".join(ex(a) for a in args))


def ccall(fn, *args, kinds=None):
    kinds = kinds or ["tuple"] * len(args)
    return "%s(%s)" % (fn, ",".join(cpp(a, k) for a, k in zip(args, kinds)))


def depth3_layout(**kw):
    kw.setdefault("depth", 3)
    return rlayout(**kw)


def g_composition(n):
    for i in range(n):
        kind = i % 5
        pow2 = R.random() < 0.75
        A = rlayout(depth=R.choice([1, 2, 3, 3]) if kind != 0 else R.choice([0, 1, 2, 3]), pow2=pow2,
                    neg=0.35 if kind in (0, 1) else 0.0, maxsize=1024, zero=0.05)
        if kind in (0, 1, 2):
            B = rtiler_layout(A, pow2=pow2 or R.random() < 0.5, neg=0.15 if kind == 0 else 0.0)
        elif kind == 3:
            B = rtile(A, pow2=pow2)
        else:
            # shape tiler or deliberately awkward layout (errors)
            if R.random() < 0.5:
                B = Tile([tile_for(prod(mode(A.shape, j)), pow2) if R.random() < 0.7 else R.choice([2, 3, 4])
                          for j in range(R.randint(1, rank_of(A.shape)))])
                B = Tile([x.shape if isinstance(x, Lay) else x for x in B.items])
            else:
                A = rlayout(depth=R.choice([1, 2, 3]), pow2=False, maxsize=512)
                B = rlayout(depth=R.choice([0, 1]), pow2=True, maxsize=64, maxw=2)
        add("composition", call("composition", A, B), ccall("composition", A, B))


def g_coalesce(n):
    for i in range(n):
        A = rlayout(depth=R.choice([1, 2, 3, 3]), neg=0.3 if i % 3 == 0 else 0.0, zero=0.1,
                    maxsize=1024)
        if i % 3 == 2:
            if isinstance(A.shape, tuple) and R.random() < 0.4:
                prof = tuple(tuple(1 for _ in m) if isinstance(m, tuple) and R.random() < 0.5 else 1
                             for m in A.shape)
            else:
                prof = tuple(1 for _ in range(rank_of(A.shape))) if isinstance(A.shape, tuple) else 1
            if prof == 1:
                prof = (1,)
            add("coalesce", call("coalesce", A, prof), ccall("coalesce", A, prof, kinds=["", "shape"]))
        else:
            add("coalesce", call("coalesce", A), ccall("coalesce", A))


def g_complement(n):
    for i in range(n):
        k = i % 6
        noninj = k == 5
        A = rlayout(depth=R.choice([0, 1, 2, 3, 3]), pow2=R.random() < 0.6,
                    neg=0.3 if k in (0, 1) else 0.0, mode="random" if noninj else "compact",
                    zero=0.3 if noninj else 0.0, maxsize=256)
        cs = cosize(A)
        r = R.random()
        if k == 2 or (r < 0.35 and k != 3):
            add("complement", call("complement", A), ccall("complement", A))
        elif k == 3 or r < 0.65:
            # tuple cotarget
            tot = cs * R.choice([1, 2, 4, 8])
            if R.random() < 0.5:
                a = R.choice([d for d in divisors(tot)])
                ct = (a, tot // a)
            else:
                ct = tuple(R.choice([2, 4, 8]) for _ in range(R.randint(1, 3)))
                if R.random() < 0.5:
                    ct = (ct[0], ct[1:]) if len(ct) > 1 else ct
            add("complement", call("complement", A, ct), ccall("complement", A, ct, kinds=["", "shape"]))
        else:
            ct = cs * R.choice([1, 2, 3, 4, 8]) if R.random() < 0.8 else R.randint(1, 2 * cs + 1)
            add("complement", call("complement", A, ct), ccall("complement", A, ct))


def g_eval(n):
    for i in range(n):
        A = rlayout(depth=R.choice([0, 1, 2, 3, 3]), neg=0.4, zero=0.05, maxsize=2048)
        sz = prod(A.shape)
        if i % 2 == 0:
            idx = R.randrange(sz)
            add("eval_idx", "%s(%d)" % (ex(A), idx), "%s(Int<%d>{})" % (cpp(A), idx))
        else:
            c = rcoord(A.shape)
            if isinstance(c, tuple) and len(c) >= 2 and R.random() < 0.5:
                e = "%s(%s)" % (ex(A), ",".join(ex(x) for x in c))
                cc = "%s(%s)" % (cpp(A), ",".join(cpp(x, "coord") for x in c))
            else:
                e = "%s(%s)" % (ex(A), ex(c))
                cc = "%s(%s)" % (cpp(A), cpp(c, "coord"))
            add("eval_coord", e, cc)


def g_slice(n):
    for i in range(n):
        if i < 4:
            A = [Lay(((2, 4), (3, 5)), ((1, 2), (8, 24))), Lay((4, 8), (8, 1)),
                 Lay(((2, 2), (4, 2)), ((-1, 8), (2, 16))), Lay((2, (3, 4), 5), (60, (1, 3), 12))][i]
        else:
            A = rlayout(depth=R.choice([1, 2, 2, 3, 3]), neg=0.25, zero=0.05, maxsize=2048)
            if not isinstance(A.shape, tuple):
                A = Lay((A.shape, 2), (A.stride, 100))
        for _ in range(50):
            c = rcoord(A.shape, allow_under=True, partial_p=0.15)
            if has_under(c) and (not isinstance(c, tuple) or len(c) == rank_of(A.shape)):
                break
        if not isinstance(c, tuple):
            c = tuple(US if j == 0 else 0 for j in range(rank_of(A.shape)))
        if R.random() < 0.8 and len(c) >= 2:
            e = "%s(%s)" % (ex(A), ",".join(ex(x) for x in c))
            cc = "%s(%s)" % (cpp(A), ",".join(cpp(x, "coord") for x in c))
        else:
            e = "%s(%s)" % (ex(A), ex(c))
            cc = "%s(%s)" % (cpp(A), cpp(c, "coord"))
        add("slice", e, cc)


def g_cast(n):
    bits = [4, 8, 16, 32, 64]
    for i in range(n):
        k = i % 3
        A = rlayout(depth=R.choice([0, 1, 1, 2, 3]), pow2=R.random() < 0.8,
                    neg=0.3 if R.random() < 0.4 else 0.0, zero=0.1, maxsize=1024,
                    mode="compact" if R.random() < 0.7 else "random")
        if R.random() < 0.4:
            # scale strides so upcast is meaningful
            f = R.choice([2, 4, 8])
            A = Lay(A.shape, fill(A.stride, iter([x * f if abs(x) != 1 or R.random() < 0.3 else x
                                                  for x in flat(A.stride)])))
        N = R.choice([2, 2, 4, 4, 8, 16])
        if k == 0:
            add("upcast", "upcast(%d, %s)" % (N, ex(A)), "upcast<%d>(%s)" % (N, cpp(A)))
        elif k == 1:
            add("downcast", "downcast(%d, %s)" % (N, ex(A)), "downcast<%d>(%s)" % (N, cpp(A)))
        else:
            ob, nb = R.choice(bits), R.choice(bits)
            add("recast_layout", "recast_layout(%d, %d, %s)" % (ob, nb, ex(A)),
                "recast_layout<uint_bit_t<%d>,uint_bit_t<%d>>(%s)" % (ob, nb, cpp(A)))


def g_divide(n, fn):
    for i in range(n):
        pow2 = R.random() < 0.75
        A = rlayout(depth=R.choice([2, 3, 3]) if i % 4 else R.choice([0, 1]), pow2=pow2,
                    neg=0.2 if i % 5 == 0 else 0.0, maxsize=1024)
        r = R.random()
        if r < 0.45:
            B = rtile(A, pow2=pow2)
        elif r < 0.85:
            B = rtiler_layout(A, pow2=pow2)
        else:
            B = Tile([R.choice(divisors(prod(mode(A.shape, j)))) if R.random() < 0.7 else R.choice([2, 3, 4])
                      for j in range(R.randint(1, rank_of(A.shape)))])
        add(fn, call(fn, A, B), ccall(fn, A, B))


def g_product(n, fn):
    for i in range(n):
        A = rlayout(depth=R.choice([1, 2, 3, 3]) if i % 4 else R.choice([0, 1]), pow2=R.random() < 0.7,
                    maxsize=64, neg=0.15 if i % 6 == 0 else 0.0)
        if fn in ("zipped_product", "tiled_product", "flat_product") and R.random() < 0.4:
            k = R.randint(1, rank_of(A.shape))
            B = Tile([rsmall_layout(8) if R.random() < 0.8 else R.choice([2, 3, 4]) for _ in range(k)])
        else:
            B = rlayout(depth=R.choice([0, 1, 1, 2, 3]), pow2=R.random() < 0.7, maxsize=32,
                        maxleaves=4)
        add(fn, call(fn, A, B), ccall(fn, A, B))


def g_inverse(n, fn):
    for i in range(n):
        A = rlayout(depth=R.choice([1, 2, 3, 3]) if i % 5 else 0, pow2=R.random() < 0.6,
                    neg=0.25 if i % 4 == 0 else 0.0, zero=0.1 if i % 3 == 0 else 0.0,
                    mode="compact" if i % 7 else "random", maxsize=1024)
        add(fn, call(fn, A), ccall(fn, A))


def cargs_ex(c):
    """Application arguments: multi-argument form for rank >= 2, else the one coordinate."""
    return ",".join(ex(x) for x in c) if len(c) >= 2 else ex(c)


def cargs_cpp(c):
    return ",".join(cpp(x, "coord") for x in c) if len(c) >= 2 else cpp(c, "coord")


def g_composed(n):
    for i in range(n):
        k = i % 10
        sw = R.choice(COMMON_SW) if R.random() < 0.5 else rswizzle(valid=(R.random() > 0.08))
        L = smem_layout()
        form = R.choice(["o", "o", "comp", "mcl"])
        C = Comp(sw, L, form)
        if k == 0:
            add("composed_print", ex(C), cpp(C))
        elif k in (1, 2):
            # evaluation `Sw<..> o 0 o L(i)` (value is Sw(0 + L(i)) under either reading)
            if k == 1:
                idx = R.randrange(prod(L.shape))
                add("composed_eval", "%s o 0 o %s(%d)" % (ex(sw), ex(L), idx),
                    "make_composed_layout(%s,Int<0>{},%s)(Int<%d>{})" % (cpp(sw), cpp(L), idx))
            else:
                c = rcoord(L.shape, partial_p=0.1)
                if not isinstance(c, tuple):
                    c = (c,)
                add("composed_eval", "%s o 0 o %s(%s)" % (ex(sw), ex(L), cargs_ex(c)),
                    "make_composed_layout(%s,Int<0>{},%s)(%s)" % (cpp(sw), cpp(L), cargs_cpp(c)))
        elif k in (3, 4):
            if k == 3:
                B = rtiler_layout(L, pow2=True)
            else:
                B = rtile(L, pow2=True)
            add("composed_composition", call("composition", C, B), ccall("composition", C, B))
        elif k in (5, 6):
            fn = R.choice(["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"])
            B = rtile(L, pow2=True) if R.random() < 0.7 else rtiler_layout(L, pow2=True)
            add("composed_" + fn, call(fn, C, B), ccall(fn, C, B))
        elif k == 7:
            fn = R.choice(["size", "cosize"])
            add("composed_" + fn, call(fn, C), ccall(fn, C))
        else:
            # slicing a composed layout: written as composition(Sw, L)(coord) (unambiguous)
            if not isinstance(L.shape, tuple):
                continue
            for _ in range(50):
                c = rcoord(L.shape, allow_under=True, partial_p=0.15)
                if has_under(c) and isinstance(c, tuple):
                    break
            if not (isinstance(c, tuple) and has_under(c)):
                continue
            C2 = Comp(sw, L, "comp")
            add("composed_slice", "%s(%s)" % (ex(C2), cargs_ex(c)), "%s(%s)" % (cpp(C2), cargs_cpp(c)))


THRS = [Lay((4, 32), (32, 1)), Lay((32, 8), (8, 1)), Lay((16, 8), (1, 16)), Lay((8, 4), (4, 1)),
        Lay((32, 4), (4, 1)), Lay((8, 16), (16, 1)), Lay((16, 16), (1, 16)), Lay((4, 8), (1, 4)),
        Lay((32, 1), (1, 0)), Lay((2, 16), (16, 1)), Lay((64, 2), (2, 1)), Lay((8, 8), (8, 1)),
        Lay(32, 1), Lay((16, 2), (2, 1))]
VALS = [Raw("make_layout((1,8))", "make_layout(make_shape(Int<1>{},Int<8>{}))"),
        Lay((4, 8), (8, 1)),
        Raw("make_layout((2,2))", "make_layout(make_shape(Int<2>{},Int<2>{}))"),
        Lay((1, 8), (0, 1)), Lay((1, 4), (0, 1)), Lay((4, 1), (1, 0)), Lay((8, 1), (1, 0)),
        Lay((2, 2), (2, 1)), Lay((1, 1), (0, 0)), Lay((4, 4), (1, 4)), Lay((2, 8), (8, 1)), Lay((1, 2), (0, 1)),
        Raw("make_layout((4,1))", "make_layout(make_shape(Int<4>{},Int<1>{}))"), Lay(4, 1), Lay((2, 4), (4, 1))]


def g_tv(n):
    pairs = [(t, v) for t in THRS for v in VALS]
    R.shuffle(pairs)
    for t, v in pairs[:n]:
        add("make_layout_tv", call("make_layout_tv", t, v),
            "make_layout_tv_(%s,%s)" % (cpp(t), cpp(v)))


def rshape(depth=None, maxsize=256, pow2=False):
    if depth is None:
        depth = R.choice([1, 2, 2, 3])
    t = rtree(depth, 3, 6)
    return fill(t, iter(rshapes(nleaves(t), pow2, maxsize)))


def g_coords(n):
    for i in range(n):
        k = i % 3
        S = rshape()
        if not isinstance(S, tuple):
            S = (S,)
        if k == 0:
            idx = R.randrange(prod(S)) if R.random() < 0.9 else prod(S) + R.randrange(5)
            add("idx2crd", call("idx2crd", idx, S), "idx2crd(Int<%d>{},%s)" % (idx, cpp(S, "shape")))
        elif k == 1:
            c = rcoord(S)
            if R.random() < 0.5:
                add("crd2idx", call("crd2idx", c, S), "crd2idx(%s,%s)" % (cpp(c, "coord"), cpp(S, "shape")))
            else:
                D = fill(S, iter(rstrides(flat(S), "compact" if R.random() < 0.5 else "random", neg=0.3)))
                add("crd2idx", call("crd2idx", c, S, D),
                    "crd2idx(%s,%s,%s)" % (cpp(c, "coord"), cpp(S, "shape"), cpp(D, "stride")))
        else:
            # destination shape: regroup the same total size (per mode for tuple coords)
            if R.random() < 0.6:
                c = rcoord(S, partial_p=0.1)
                D = tuple(rshape_of_size(prod(m)) for m in S)
            else:
                c = R.randrange(prod(S))
                D = rshape_of_size(prod(S))
            add("crd2crd", call("crd2crd", c, S, D),
                "crd2crd(%s,%s,%s)" % (cpp(c, "coord"), cpp(S, "shape"), cpp(D, "shape")))


def factorize(n):
    f, p = [], 2
    while n > 1:
        while n % p == 0:
            f.append(p)
            n //= p
        p += 1
    return f


def rshape_of_size(n):
    f = factorize(n)
    R.shuffle(f)
    groups = []
    while f:
        k = R.randint(1, min(2, len(f)))
        g, f = f[:k], f[k:]
        p = 1
        for x in g:
            p *= x
        groups.append(p)
    if not groups:
        return 1
    if len(groups) >= 3 and R.random() < 0.5:
        groups = [groups[0], tuple(groups[1:])]
    return tuple(groups) if len(groups) > 1 or R.random() < 0.3 else groups[0]


def g_queries(n):
    for i in range(n):
        k = i % 9
        A = rlayout(depth=R.choice([0, 1, 2, 3, 3]), neg=0.3, zero=0.05, maxsize=1024)
        if k == 0:
            r = rank_of(A.shape)
            j = R.randrange(r)
            add("get", call("get", A, j), "get<%d>(%s)" % (j, cpp(A)))
        elif k == 1:
            S = rshape()
            if not isinstance(S, tuple):
                S = (S,)
            j = R.randrange(len(S))
            add("get", call("get", S, j), "get<%d>(%s)" % (j, cpp(S, "shape")))
        elif k == 2:
            add("shape", call("shape", A), "shape(%s)" % cpp(A))
        elif k == 3:
            add("stride", call("stride", A), "stride(%s)" % cpp(A))
        elif k == 4:
            if R.random() < 0.7:
                add("rank", call("rank", A), "rank(%s)" % cpp(A))
            else:
                S = rshape()
                add("rank", call("rank", S), "rank(%s)" % cpp(S, "shape"))
        elif k == 5:
            if R.random() < 0.7:
                add("depth", call("depth", A), "depth(%s)" % cpp(A))
            else:
                S = rshape()
                add("depth", call("depth", S), "depth(%s)" % cpp(S, "shape"))
        elif k == 6:
            if R.random() < 0.75:
                add("size", call("size", A), "size(%s)" % cpp(A))
            else:
                S = rshape()
                add("size", call("size", S), "size(%s)" % cpp(S, "shape"))
        elif k == 7:
            add("cosize", call("cosize", A), "cosize(%s)" % cpp(A))
        else:
            fn = R.choice(["filter", "flatten"])
            add(fn, call(fn, A), "%s(%s)" % (fn, cpp(A)))


def g_make_layout(n):
    for i in range(n):
        k = i % 8
        S = rshape(depth=R.choice([0, 1, 1, 1, 2, 3]), maxsize=512, pow2=R.random() < 0.5)
        if k == 0:
            add("make_layout", "make_layout(%s)" % ex(S), "make_layout(%s)" % cpp(S, "shape"))
        elif k in (1, 2):
            tag = ["LayoutRight", "GenRowMajor", "LayoutLeft", "GenColMajor"][R.randrange(4) if k == 2 else R.randrange(2)]
            add("make_layout", "make_layout(%s, %s{})" % (ex(S), tag),
                "make_layout(%s,%s{})" % (cpp(S, "shape"), tag))
        elif k == 3:
            D = fill(S, iter(rstrides(flat(S), "compact", neg=0.2)))
            add("make_layout", "make_layout(%s, %s)" % (ex(S), ex(D)),
                "make_layout(%s,%s)" % (cpp(S, "shape"), cpp(D, "stride")))
        elif k in (4, 5):
            Sf = tuple(rshapes(R.randint(1, 3), R.random() < 0.5, 512))
            D = tuple(rstrides(list(Sf), "compact", neg=0.1))
            if k == 4:
                e = "make_layout(make_shape(%s), make_stride(%s))" % (",".join(map(str, Sf)), ",".join(map(str, D)))
            else:
                e = "Layout<Shape<%s>,Stride<%s>>" % (",".join("_%d" % x for x in Sf), ",".join("_%d" % x for x in D))
            add("make_layout", e, "make_layout(%s,%s)" % (cpp(Sf, "shape"), cpp(D, "stride")))
        elif k == 6:
            Sf = tuple(rshapes(R.randint(1, 3), R.random() < 0.5, 512))
            D = tuple(rstrides(list(Sf), "compact"))
            if len(Sf) == 1:
                e = "cute.make_layout((%d,), stride=(%d,))" % (Sf[0], D[0])
                # CuTeDSL 1-tuples are written (n,) -- skip to avoid ambiguity
                continue
            e = "cute.make_layout((%s), stride=(%s))" % (", ".join(map(str, Sf)), ", ".join(map(str, D)))
            add("make_layout", e, "make_layout(%s,%s)" % (cpp(Sf, "shape"), cpp(D, "stride")))
        else:
            if not isinstance(S, tuple):
                S = (S, 2)
            D = fill(S, iter(rstrides(flat(S), "compact")))
            inner = lambda t, k2: (("make_%s(%s)" % (k2, ",".join(inner(x, k2) for x in t)))
                                   if isinstance(t, tuple) else str(t))
            e = "make_layout(%s, %s)" % (inner(S, "shape"), inner(D, "stride"))
            add("make_layout", e, "make_layout(%s,%s)" % (cpp(S, "shape"), cpp(D, "stride")))


def g_error_targeted(n):
    """Cases expected to mostly hit CuTe static_asserts."""
    for i in range(n):
        k = i % 5
        if k == 0:
            # composition with divisibility violated
            A = Lay(tuple(R.choice([3, 5, 6, 7]) for _ in range(R.randint(1, 3))), None)
            A.stride = tuple(rstrides(list(A.shape), "compact"))
            B = Lay(R.choice([2, 4, 8]), R.choice([2, 4]))
            add("composition", call("composition", A, B), ccall("composition", A, B))
        elif k == 1:
            A = rlayout(depth=R.choice([1, 2, 3]), pow2=False, maxsize=256)
            B = Lay(R.choice([2, 4, 8]), R.choice([2, 4, 8]))
            fn = R.choice(["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"])
            add(fn, call(fn, A, B), ccall(fn, A, B))
        elif k == 2:
            # non-injective complement
            sh = tuple(rshapes(R.randint(1, 3), True, 64, allow1=False))
            st = list(rstrides(list(sh), "compact"))
            j = R.randrange(len(st))
            st[j] = R.choice([0, st[j - 1] if j else 0, 1])
            A = Lay(sh, tuple(st))
            if R.random() < 0.5:
                add("complement", call("complement", A), ccall("complement", A))
            else:
                ct = cosize(A) * 4
                add("complement", call("complement", A, ct), ccall("complement", A, ct))
        elif k == 3:
            A = Lay((R.choice([3, 5, 6]), R.choice([2, 4])), (R.choice([2, 3, 6]), R.choice([5, 7, 12])))
            N = R.choice([2, 4])
            fn = R.choice(["upcast", "downcast"])
            add(fn, "%s(%d, %s)" % (fn, N, ex(A)), "%s<%d>(%s)" % (fn, N, cpp(A)))
        else:
            sw = rswizzle(valid=False)
            L = smem_layout()
            C = Comp(sw, L, R.choice(["o", "comp", "mcl"]))
            add("composed_print", ex(C), cpp(C))


CATEGORIES = [
    ("composition", lambda s: g_composition(int(220 * s))),
    ("coalesce", lambda s: g_coalesce(int(130 * s))),
    ("complement", lambda s: g_complement(int(160 * s))),
    ("eval", lambda s: g_eval(int(140 * s))),
    ("slice", lambda s: g_slice(int(130 * s))),
    ("cast", lambda s: g_cast(int(210 * s))),
    ("divide", lambda s: [g_divide(int(70 * s), f) for f in
                          ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide")]),
    ("product", lambda s: [g_product(int(50 * s), f) for f in
                           ("logical_product", "zipped_product", "tiled_product", "flat_product",
                            "blocked_product", "raked_product")]),
    ("inverse", lambda s: [g_inverse(int(70 * s), f) for f in ("right_inverse", "left_inverse")]),
    ("composed", lambda s: g_composed(int(260 * s))),
    ("make_layout_tv", lambda s: g_tv(int(80 * s))),
    ("coords", lambda s: g_coords(int(150 * s))),
    ("queries", lambda s: g_queries(int(200 * s))),
    ("make_layout", lambda s: g_make_layout(int(60 * s))),
    ("errors", lambda s: g_error_targeted(int(80 * s))),
]

# ----------------------------------------------------------------------------
# C++ probe driver
# ----------------------------------------------------------------------------
PRELUDE = r"""
#include <cute/tensor.hpp>
#include <cstdio>
using namespace cute;
// make_layout_tv as defined in the expression spec (what make_tiled_copy builds)
template <class Thr, class Val>
auto make_layout_tv_(Thr const& thr, Val const& val) {
  auto layout_mn = raked_product(thr, val);
  auto layout_tv = right_inverse(layout_mn).with_shape(make_shape(size(thr), size(val)));
  auto tiler = product_each(shape(layout_mn));
  return cute::make_tuple(tiler, layout_tv);
}
"""


class Oracle:
    def __init__(self, oracle_dir, workdir, verbose=False):
        d = oracle_dir
        self.inc = ["-I%s/nvcc/nvidia/cuda_nvcc/include" % d,
                    "-I%s/cudart/nvidia/cuda_runtime/include" % d,
                    "-I%s/cccl/nvidia/cuda_cccl/include" % d,
                    "-I%s/cutlass/cutlass_library/source/include" % d]
        for p in self.inc:
            if not os.path.isdir(p[2:]):
                sys.exit("oracle include dir missing: %s (run cute-oracle-setup.sh)" % p[2:])
        self.workdir = workdir
        self.counter = 0
        self.lock = threading.Lock()
        self.compiles = 0
        self.errlog = []  # (id, first error line)
        self.verbose = verbose

    def _name(self):
        with self.lock:
            self.counter += 1
            return os.path.join(self.workdir, "probe%05d" % self.counter)

    # The translation unit's prelude (includes, helpers); subclasses may extend it.
    prelude = PRELUDE

    def compile_run(self, batch):
        """Returns (compiled_ok, {id: raw_output}, stderr, crashed_id_or_None)."""
        base = self._name()
        lines = self.prelude.strip("\n").split("\n")
        linemap = {}
        for c in batch:
            lines.append('static void f%d(){ std::printf("@@%d\\n"); std::fflush(stdout); print(%s); '
                         'std::printf("\\n"); std::fflush(stdout); }' % (c["id"], c["id"], c["cpp"]))
            linemap[len(lines)] = c["id"]
        lines.append("int main(){")
        for c in batch:
            lines.append("  f%d();" % c["id"])
        lines.append('  std::printf("@@end\\n");\n  return 0;\n}')
        src = base + ".cpp"
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        cmd = ["g++", "-std=c++17", "-w", "-O0"] + self.inc + [src, "-o", base]
        with self.lock:
            self.compiles += 1
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            bad = set()
            for m in re.finditer(re.escape(os.path.basename(src)) + r":(\d+):", p.stderr):
                ln = int(m.group(1))
                if ln in linemap:
                    bad.add(linemap[ln])
            return False, bad, p.stderr, None
        try:
            r = subprocess.run([base], capture_output=True, text=True, timeout=60)
            out, rc = r.stdout, r.returncode
        except subprocess.TimeoutExpired as e:
            out, rc = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), -1
        res, crashed = self.read_output(out, rc)
        for f2 in (base, src):
            try:
                os.remove(f2)
            except OSError:
                pass
        return True, res, "", crashed

    def read_output(self, out, rc):
        """The first printed line of each case (`@@id` markers); on a non-zero exit the last
        case started is the one that crashed."""
        res, cur = {}, None
        for ln in out.split("\n"):
            if ln == "@@end":
                cur = None
            elif ln.startswith("@@"):
                cur = int(ln[2:])
                res[cur] = None
            elif cur is not None and res[cur] is None:
                res[cur] = ln
        return res, (cur if rc != 0 else None)

    def solve(self, batch, results):
        """Fill results[id] = raw string | ('error', msg) | ('crash',)."""
        todo = list(batch)
        while todo:
            ok, res, err, crashed = self.compile_run(todo)
            if ok:
                rest = []
                for c in todo:
                    if c["id"] in res and res[c["id"]] is not None and c["id"] != crashed:
                        results[c["id"]] = res[c["id"]]
                    elif c["id"] == crashed:
                        results[c["id"]] = ("crash",)
                    else:
                        rest.append(c)
                if crashed is None and rest:
                    for c in rest:
                        results[c["id"]] = ("crash",)
                    rest = []
                todo = rest
                continue
            bad = res
            if not bad:
                # could not attribute: bisect
                if len(todo) == 1:
                    results[todo[0]["id"]] = ("error", first_error(err))
                    return
                h = len(todo) // 2
                self.solve(todo[:h], results)
                self.solve(todo[h:], results)
                return
            suspects = [c for c in todo if c["id"] in bad]
            todo = [c for c in todo if c["id"] not in bad]
            for c in suspects:
                if len(batch) == 1 and len(suspects) == 1 and not todo:
                    results[c["id"]] = ("error", first_error(err))
                else:
                    self.solve([c], results)


def first_error(err):
    for ln in err.split("\n"):
        if "error:" in ln:
            return ln.split("error:", 1)[1].strip()[:200]
    return err.strip().split("\n")[-1][:200] if err.strip() else "?"


def convert(raw):
    """C++ print -> our printed form; returns (text, had_dynamic) or None if unrepresentable."""
    s = raw.strip()
    body = re.sub(r"Sw<-?\d+,-?\d+,-?\d+>", "", s)
    dyn = any(not t.startswith("_") for t in re.findall(r"_?-?\d+", body))
    t = re.sub(r"_(-?\d+)", r"\1", s)
    if re.fullmatch(r"[0-9(),:\-]+", t) or re.fullmatch(r"Sw<\d+,\d+,-?\d+> o -?\d+ o [0-9(),:\-]+", t):
        return t, dyn
    return None


def parse_printed(t):
    """Parse a converted print (ints, tuples, S:D layouts) -> nested ('L', shape, stride) / tuple / int."""
    pos = [0]

    def item():
        a = atom()
        if pos[0] < len(t) and t[pos[0]] == ":":
            pos[0] += 1
            return ("L", a, atom())
        return a

    def atom():
        if t[pos[0]] == "(":
            pos[0] += 1
            xs = []
            if t[pos[0]] == ")":
                pos[0] += 1
                return tuple(xs)
            while True:
                xs.append(item())
                c = t[pos[0]]
                pos[0] += 1
                if c == ")":
                    return tuple(xs)
                assert c == ","
        m = re.match(r"-?\d+", t[pos[0]:])
        pos[0] += len(m.group(0))
        return int(m.group(0))

    v = item()
    assert pos[0] == len(t)
    return v


def negative_shape(text):
    """True if some layout in the printed result has a negative shape entry."""
    body = text.rsplit(" o ", 1)[-1]
    try:
        v = parse_printed(body)
    except Exception:
        return False

    def has_neg_shape(x):
        if isinstance(x, tuple) and len(x) == 3 and x[0] == "L":
            return any(e < 0 for e in flat(x[1])) or has_neg_shape(x[1]) or has_neg_shape(x[2])
        if isinstance(x, tuple):
            return any(has_neg_shape(y) for y in x)
        return False

    return has_neg_shape(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--oracle-dir", default=os.environ.get("ORACLE_DIR", "/work/oracle"))
    ap.add_argument("--scale", type=float, default=1.0, help="multiply case counts")
    ap.add_argument("--batch", type=int, default=150, help="cases per translation unit")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--only", default="", help="comma list of categories")
    ap.add_argument("--keep-tmp", action="store_true")
    ap.add_argument("--keep-negative-shapes", action="store_true",
                    help="keep results whose printed layout has a negative shape entry (dropped by default)")
    ap.add_argument("--errlog", default="", help="write id/op/expr/first compiler error of error cases here")
    args = ap.parse_args()

    t0 = time.time()
    # generate everything deterministically (all categories always generated so the RNG
    # stream does not depend on --only)
    cat_ranges = []
    for name, fn in CATEGORIES:
        a = len(CASES)
        fn(args.scale)
        cat_ranges.append((name, a, len(CASES)))
    public = set()
    if os.path.exists(PUBLIC_CORPUS):
        for ln in open(PUBLIC_CORPUS):
            public.add(json.loads(ln)["expr"])
    seen = set()
    selected = []
    only = set(x for x in args.only.split(",") if x)
    for name, a, b in cat_ranges:
        if only and name not in only:
            continue
        for c in CASES[a:b]:
            if c["expr"] in seen or c["expr"] in public:
                continue
            seen.add(c["expr"])
            c["cat"] = name
            selected.append(c)
    for i, c in enumerate(selected):
        c["id"] = i
    print("generated %d cases" % len(selected), file=sys.stderr)

    workdir = tempfile.mkdtemp(prefix="cute-oracle-")
    orc = Oracle(args.oracle_dir, workdir)
    results = {}
    batches = [selected[i:i + args.batch] for i in range(0, len(selected), args.batch)]
    out_lock = threading.Lock()
    stats = {"dyn": 0, "skip": 0, "crash": 0, "negshape": 0}

    def write_out():
        with out_lock:
            rows = []
            for c in selected:
                r = results.get(c["id"])
                if r is None:
                    continue
                if isinstance(r, tuple):
                    if r[0] == "error":
                        rows.append({"op": c["op"], "expr": c["expr"], "expect": "error"})
                    continue
                conv = convert(r)
                if conv is None or (negative_shape(conv[0]) and not args.keep_negative_shapes):
                    continue
                rows.append({"op": c["op"], "expr": c["expr"], "expect": conv[0]})
            os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
            tmp = args.out + ".tmp"
            with open(tmp, "w") as f:
                for r in rows:
                    f.write(json.dumps(r) + "\n")
            os.replace(tmp, args.out)
            return rows

    done = [0]

    def work(b):
        local = {}
        orc.solve(b, local)
        with out_lock:
            results.update(local)
            done[0] += 1
            print("batch %d/%d done (%.0fs, %d compiles)" % (done[0], len(batches), time.time() - t0,
                                                            orc.compiles), file=sys.stderr)
        write_out()

    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(work, batches))
    rows = write_out()

    # stats
    per_op, errs = {}, {}
    byid = {c["id"]: c for c in selected}
    errlines = []
    for c in selected:
        r = results.get(c["id"])
        if isinstance(r, tuple):
            if r[0] == "crash":
                stats["crash"] += 1
                print("skip (probe crashed at run time): %s" % c["expr"], file=sys.stderr)
            else:
                errlines.append("%d\t%s\t%s\t%s" % (c["id"], c["op"], c["expr"], r[1]))
            continue
        conv = convert(r) if r is not None else None
        if conv is None:
            stats["skip"] += 1
            print("skip (unrepresentable): %s -> %r" % (c["expr"], r), file=sys.stderr)
        elif negative_shape(conv[0]) and not args.keep_negative_shapes:
            stats["negshape"] += 1
            print("skip (negative shape in result): %s -> %s" % (c["expr"], conv[0]), file=sys.stderr)
        elif conv[1]:
            stats["dyn"] += 1
    for r in rows:
        per_op[r["op"]] = per_op.get(r["op"], 0) + 1
        if r["expect"] == "error":
            errs[r["op"]] = errs.get(r["op"], 0) + 1
    if args.errlog:
        with open(args.errlog, "w") as f:
            f.write("\n".join(errlines) + "\n")
    for op in sorted(per_op):
        print("%-26s %5d  (error: %d)" % (op, per_op[op], errs.get(op, 0)), file=sys.stderr)
    print("total %d rows, %d compiles, %.0fs; skipped %d unrepresentable, %d negative-shape, %d crashed; "
          "%d with dynamic ints" % (len(rows), orc.compiles, time.time() - t0, stats["skip"], stats["negshape"],
                                    stats["crash"], stats["dyn"]),
          file=sys.stderr)
    if not args.keep_tmp:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
