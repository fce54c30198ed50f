#!/usr/bin/env python3
"""Golden data for basis strides, from the real CuTe headers (host-only g++).

Writes testdata/basis-cases.jsonl: {"op", "expr", "expect"[, "msg"]}. Every expression is
C++ and the language alike: `E<i>{}` and `ScaledBasis` values and their sums, layouts with
basis strides (`make_identity_layout`, `make_layout(shape, make_stride(E<1>{}, E<0>{}))`)
called, sliced, composed with ordinary layouts, divided, coalesced and filtered; identity
tensors, their CTA tiles (`local_tile`) and their elements (coordinates); counting
iterators of integers (`make_identity_tensor(Int<32>{})`, `make_coord_tensor(layout)`);
cosize, append/prepend, crd2idx and domain_offset of basis strides; and what C++ refuses
of them (complement, the products, the inverses, an int added to a basis vector) as
"error".

Run: ORACLE_DIR=oracle-work python3 tools/oracle/basis.py [-j 2]
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
import descs  # noqa: E402  (the Oracle runner)

descs.HEADERS = "#include <cstdio>\n#include <cstdlib>\n#include <cute/tensor.hpp>\nusing namespace cute;\n"
OUT = os.path.join(descs.ROOT, "testdata/basis-cases.jsonl")
R = random.Random(20261201)


def st(n):
    return "_%d{}" % n


def shape_expr(s):
    if isinstance(s, int):
        return st(s)
    return "make_shape(%s)" % ", ".join(shape_expr(x) for x in s)


def leaves(s):
    return [s] if isinstance(s, int) else [y for x in s for y in leaves(x)]


def rshape():
    k = R.choice([1, 2, 2, 2, 3])
    dims = [R.choice([2, 4, 8, 16, 32, 3, 6, 12]) for _ in range(k)]
    if k >= 2 and R.random() < 0.25:
        i = R.randrange(k)
        dims[i] = (R.choice([2, 4]), R.choice([2, 3, 4]))
    return tuple(dims)


def basis_layout():
    s = rshape()
    if R.random() < 0.4:
        return "make_identity_layout(%s)" % shape_expr(s), s
    n = len(s)
    perm = list(range(n))
    R.shuffle(perm)
    strides = []
    for i, m in enumerate(s):
        e = "E<%d>{}" % perm[i]
        k = R.choice([1, 1, 1, 2, 4])
        sub = e if k == 1 else "%s * %s" % (e, st(k))
        if isinstance(m, tuple):
            sub = "make_stride(%s, %s)" % (sub, "E<%d>{} * %s" % (perm[i], st(m[0] * k)))
        strides.append(sub)
    return "make_layout(%s, make_stride(%s))" % (shape_expr(s), ", ".join(strides)), s


def rlayout(size_hint):
    """An ordinary static layout whose size divides or fits the basis layout's."""
    k = R.choice([1, 2])
    dims = [R.choice([2, 4, 8]) for _ in range(k)]
    stride = []
    acc = 1
    for d in dims:
        stride.append(acc * R.choice([1, 1, 2]))
        acc *= d
    if k == 1:
        return "Layout<_%d,_%d>{}" % (dims[0], stride[0])
    return "Layout<Shape<%s>,Stride<%s>>{}" % (",".join("_%d" % d for d in dims),
                                             ",".join("_%d" % d for d in stride))


def case(op, expr):
    return descs.Case(op, expr, "  print(%s); printf(\"\\n\");\n" % expr)


def cases():
    out = []
    for _ in range(60):
        L, s = basis_layout()
        size = 1
        for x in leaves(s):
            size *= x
        out.append(case("make_layout", L))
        out.append(case("composition", "composition(%s, %s)" % (L, rlayout(size))))
        tiler = [R.choice([1, 2, 4]) for _ in range(len(s))]
        for fn in ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"]:
            if R.random() < 0.5:
                out.append(case(fn, "%s(%s, make_shape(%s))" % (fn, L, ", ".join(st(t) for t in tiler))))
        if R.random() < 0.4:
            out.append(case("logical_divide", "logical_divide(%s, %s)" % (L, rlayout(size))))
        out.append(case("coalesce", "coalesce(%s)" % L))
        if R.random() < 0.3:
            out.append(case("filter", "filter(%s)" % L))
        crd = ", ".join(str(R.randrange(x)) for x in [m if isinstance(m, int) else m[0] * m[1] for m in s])
        out.append(case("call", "%s(%s)" % (L, crd)))
        out.append(case("call", "%s(%d)" % (L, R.randrange(size))))
        if len(s) > 1:
            i = R.randrange(len(s))
            c = ["_" if j == i else str(R.randrange(m if isinstance(m, int) else m[0])) for j, m in enumerate(s)]
            out.append(case("slice", "%s(%s)" % (L, ", ".join(c))))
            out.append(case("get", "get<%d>(%s)" % (i, L)))
        out.append(case("stride", "stride(%s)" % L))
        out.append(case("size", "size(%s)" % L))
        if R.random() < 0.15:
            fn = R.choice(["complement", "right_inverse", "left_inverse"])
            out.append(case(fn, "%s(%s)" % (fn, L)))
        if R.random() < 0.15:
            fn = R.choice(["logical_product", "blocked_product", "raked_product"])
            out.append(case(fn, "%s(%s, Layout<_2,_1>{})" % (fn, L)))
    for _ in range(40):
        a, b = R.randrange(3), R.randrange(3)
        ka, kb = R.choice([1, 2, 3, 7]), R.choice([1, 4, 5])
        out.append(case("basis", "E<%d>{} * %s + %s * E<%d>{}" % (a, st(ka), st(kb), b)))
        out.append(case("basis", "E<%d>{} * %d" % (a, ka)))
        out.append(case("basis", "ScaledBasis<Int<%d>, %d>{}" % (ka, a)))
        out.append(case("basis", "make_arithmetic_tuple(%d, %d) + E<%d>{} * %s" % (ka, kb, min(a, 1), st(kb))))
    for s in [(2, (3, 4)), (4, 8), ((2, 2), 8), (8,), (2, 3, 4)]:
        out.append(case("make_basis_like", "make_basis_like(%s)" % shape_expr(s)))
        out.append(case("make_identity_layout", "make_identity_layout(%s)" % shape_expr(s)))
    # Counting tensors: an identity tensor's elements, CTA tiles of it (as predication and
    # TMA tensors are made), their elements and slices.
    for _ in range(40):
        s = rshape()
        dims = [m if isinstance(m, int) else m[0] * m[1] for m in s]
        sh = shape_expr(tuple(d for d in dims))
        t = "make_identity_tensor(%s)" % sh
        out.append(case("identity_tensor", t))
        out.append(case("identity_tensor", "%s(%s)" % (t, ", ".join(str(R.randrange(d)) for d in dims))))
        tile = [R.choice([1, 2, 4]) if d % 4 == 0 else 1 for d in dims]
        crd = [R.randrange(d // k) for d, k in zip(dims, tile)]
        lt = "local_tile(%s, make_shape(%s), make_coord(%s))" % (t, ", ".join(st(k) for k in tile), ", ".join(map(str, crd)))
        out.append(case("local_tile", lt))
        out.append(case("local_tile", "%s(%s)" % (lt, ", ".join(str(R.randrange(k)) for k in tile))))
        if len(dims) > 1:
            out.append(case("local_tile", "%s(_, %s)" % (lt, ", ".join("0" for _ in tile[1:]))))
    out += integer_counting() + basis_queries()
    return descs.unique(out)


def int_layout():
    """An ordinary layout, static or dynamic, with a negative or zero stride at times."""
    dims = [R.choice([2, 3, 4, 8]) for _ in range(R.choice([1, 2, 2, 3]))]
    strides, acc = [], 1
    for d in dims:
        strides.append(R.choice([acc, acc, 0, -acc, 2 * acc]))
        acc *= d
    if R.random() < 0.5:
        return "make_layout(make_shape(%s), make_stride(%s))" % (
            ", ".join(map(str, dims)), ", ".join(map(str, strides))), dims
    return "make_layout(make_shape(%s), make_stride(%s))" % (
        ", ".join(st(d) for d in dims), ", ".join("Int<%d>{}" % x for x in strides)), dims


def integer_counting():
    """Counting iterators of integers: make_identity_tensor of an integer (strides E<>),
    make_coord_tensor of a layout (its offsets), their tiles, slices and elements, and
    C++'s refusal of an element at a run-time start over E<>."""
    out = []
    for n in [8, 16, 32, 48, 64]:
        for t in ["make_identity_tensor(%s)" % st(n), "make_identity_tensor(%d)" % n]:
            out.append(case("int_counting", t))
            out.append(case("int_counting", "%s(%d)" % (t, R.randrange(n))))
            out.append(case("int_counting", "%s(_)" % t))
            k = R.choice([2, 4, 8])
            if n % k == 0:
                zd = "zipped_divide(%s, %s)" % (t, st(k))
                out.append(case("int_counting", zd))
                out.append(case("int_counting", "%s(%d, %d)" % (zd, R.randrange(k), R.randrange(n // k))))
                out.append(case("int_counting", "%s(_, %d)" % (zd, R.randrange(n // k))))
                lt = "local_tile(%s, make_shape(%s), make_coord(%d))" % (t, st(k), R.randrange(n // k))
                out.append(case("int_counting", lt))
                out.append(case("int_counting", "%s(%d)" % (lt, R.randrange(k))))
            d = "domain_offset(%d, %s)" % (R.randrange(n), t)
            out.append(case("int_counting", d))
            out.append(case("int_counting", "%s(%d)" % (d, R.randrange(4))))
    for _ in range(30):
        L, dims = int_layout()
        t = "make_coord_tensor(%s)" % L
        out.append(case("make_coord_tensor", t))
        out.append(case("make_coord_tensor", "%s(%s)" % (t, ", ".join(str(R.randrange(d)) for d in dims))))
        size = 1
        for d in dims:
            size *= d
        out.append(case("make_coord_tensor", "%s(%d)" % (t, R.randrange(size))))
        if len(dims) > 1:
            c = ["_"] + [str(R.randrange(d)) for d in dims[1:]]
            out.append(case("make_coord_tensor", "%s(%s)" % (t, ", ".join(c))))
            out.append(case("make_coord_tensor", "%s(%s)(%d)" % (t, ", ".join(c), R.randrange(dims[0]))))
        out.append(case("make_coord_tensor", "domain_offset(make_coord(%s), %s)" % (
            ", ".join(str(R.randrange(d)) for d in dims), t)))
    for _ in range(25):
        L, s = basis_layout()
        out.append(case("make_coord_tensor", "make_coord_tensor(%s)" % L))
        dims = [m if isinstance(m, int) else m[0] * m[1] for m in s]
        out.append(case("make_coord_tensor", "make_coord_tensor(%s)(%s)" % (L, ", ".join(str(R.randrange(d)) for d in dims))))
    for e in ["make_layout(make_shape(_4{}, _8{}), make_stride(E<1>{}, E<3>{}))",
              "make_layout(make_shape(_4{}, _8{}), make_stride(E<1,0>{}, E<0>{}))",
              "make_layout(make_shape(_4{}, _8{}), make_stride(E<1>{}, _0{}))",
              "make_layout(_4{}, E<1>{})", "make_identity_layout(_32{})",
              "make_layout(make_shape(_4{}, _8{}), make_stride(E<0>{}, _1{}))"]:
        out.append(case("make_coord_tensor", "make_coord_tensor(%s)" % e))
        out.append(case("make_coord_tensor", "make_coord_tensor(%s)(3)" % e))
    return out


def basis_queries():
    """cosize, append/prepend, crd2idx and domain_offset of basis strides."""
    out = []
    for _ in range(40):
        L, s = basis_layout()
        dims = [m if isinstance(m, int) else m[0] * m[1] for m in s]
        out.append(case("cosize", "cosize(%s)" % L))
        y = R.choice(["Layout<_2,_1>{}", "make_layout(_2{}, E<%d>{})" % R.randrange(3),
                      "make_identity_layout(make_shape(_2{}))", None])
        fn = R.choice(["append", "prepend"])
        args = L if y is None else "%s, %s" % (L, y)
        out.append(case(fn, "%s(%s)" % (fn, args)))
        if R.random() < 0.3:
            out.append(case(fn, "%s<%d>(%s)" % (fn, len(s) + 2, args)))
        crd = ", ".join(str(R.randrange(d)) for d in dims)
        out.append(case("domain_offset", "domain_offset(make_coord(%s), %s)" % (crd, L)))
    for _ in range(30):
        dims = [R.choice([2, 4, 8]) for _ in range(R.choice([1, 2, 3]))]
        perm = list(range(len(dims)))
        R.shuffle(perm)
        strides = ["E<%d>{}%s" % (p, R.choice(["", "", " * _2{}", " * 3"])) for p in perm]
        if R.random() < 0.15:
            strides[0] = R.choice(["_0{}", "_1{}"])
        sh = "make_shape(%s)" % ", ".join(map(str, dims))
        sd = "make_stride(%s)" % ", ".join(strides)
        crd = "make_coord(%s)" % ", ".join(str(R.randrange(d)) for d in dims)
        size = 1
        for d in dims:
            size *= d
        out.append(case("crd2idx", "crd2idx(%s, %s, %s)" % (crd, sh, sd)))
        out.append(case("crd2idx", "crd2idx(%d, %s, %s)" % (R.randrange(size), sh, sd)))
    return out


if __name__ == "__main__":
    descs.run_cases(cases, OUT, batch=80)
