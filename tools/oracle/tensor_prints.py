#!/usr/bin/env python3
"""Golden data for tensor prints, from the real CuTe headers (host-only g++).

Writes testdata/tensor-print-cases.jsonl: {"op", "expr", "expect"}. Every expression is
C++ and the language alike:
- composition of a tensor with a shape, a layout or a tile (its layout composed, its
  pointer kept);
- slices of shared-memory tensors over swizzled GMMA atoms (the modes C++ keeps, the
  pointer's offset), of one stage and of a staged buffer;
- raw pointers: `static_cast<T*>(nullptr)`, `reinterpret_cast`, C casts `(T*)nullptr`,
  and tensors over them;
- GMMA's thread-value layouts by their names (`GMMA::ABLayout<M, K>`, `CLayout_64xN<N>`,
  `CLayout_64x64`, `ALayout_64x16`).

Run: ORACLE_DIR=oracle-work python3 tools/oracle/tensor_prints.py [-j 2]
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
import descs  # noqa: E402  (the Oracle runner)

descs.HEADERS = ("#include <cstdio>\n#include <cstdlib>\n#include <cute/tensor.hpp>\n"
                 "#include <cute/atom/mma_traits_sm90_gmma.hpp>\nusing namespace cute;\n")
OUT = os.path.join(descs.ROOT, "testdata/tensor-print-cases.jsonl")
R = random.Random(20261202)


def case(op, expr):
    return descs.Case(op, expr, "  print(%s); printf(\"\\n\");\n" % expr)


def shape(dims, static):
    return "make_shape(%s)" % ", ".join(("_%d{}" % d) if static else str(d) for d in dims)


def cases():
    out = []
    for _ in range(80):
        static = R.random() < 0.5
        dims = [R.choice([8, 16, 32, 64]) for _ in range(2)]
        ty = R.choice(["float", "half_t", "uint8_t"])
        order = R.choice(["", ", LayoutRight{}"])
        t = "make_tensor(make_gmem_ptr((%s*)nullptr), make_layout(%s%s))" % (ty, shape(dims, static), order)
        a, b = R.choice([2, 4, 8]), R.choice([2, 4, 8])
        tiler = R.choice([
            "Shape<_%d,_%d>{}" % (a, b),
            "make_layout(make_shape(_%d{}, _%d{}))" % (a, b),
            "Layout<Shape<_%d,_%d>,Stride<_%d,_1>>{}" % (a, b, b),
            "make_tile(Layout<_%d,_2>{}, Layout<_%d,_1>{})" % (a, b),
            "make_tile(_%d{}, _%d{})" % (a, b),
        ])
        out.append(case("composition", "composition(%s, %s)" % (t, tiler)))
    atoms = [("K", "SW128"), ("K", "SW64"), ("K", "SW32"), ("K", "INTER"),
             ("MN", "SW128"), ("MN", "SW64"), ("MN", "SW32"), ("MN", "INTER")]
    for major, sw in atoms:
        for ty, bits in [("half_t", 16), ("float", 32), ("uint8_t", 8)]:
            width = {"INTER": 128, "SW32": 256, "SW64": 512, "SW128": 1024}[sw] // bits
            m, k = (64, max(64, width)) if major == "K" else (max(64, width), 64)
            atom = "GMMA::Layout_%s_%s_Atom<%s>{}" % (major, sw, ty)
            t = "make_tensor(make_smem_ptr((%s*)nullptr), tile_to_shape(%s, make_shape(Int<%d>{}, Int<%d>{})))" % (ty, atom, m, k)
            for _ in range(3):
                out.append(case("slice", "%s(%d, _)" % (t, R.randrange(m))))
                out.append(case("slice", "%s(_, %d)" % (t, R.randrange(k))))
            t3 = "make_tensor(make_smem_ptr((%s*)nullptr), tile_to_shape(%s, make_shape(Int<%d>{}, Int<%d>{}, Int<3>{})))" % (ty, atom, m, k)
            out.append(case("slice", "%s(_, _, %d)" % (t3, R.randrange(3))))
            out.append(case("slice", "%s(%d, _, %d)" % (t3, R.randrange(m), R.randrange(3))))
            out.append(case("composition", "composition(%s, Shape<_8,_8>{})" % t))
    for ty in ["float", "half_t", "int8_t", "double"]:
        for cast in ["static_cast<%s*>(nullptr)", "reinterpret_cast<%s*>(nullptr)", "(%s*)nullptr",
                     "(%s const*)nullptr"]:
            p = cast % ty
            out.append(case("pointer", p))
            out.append(case("pointer", "make_tensor(%s, make_layout(make_shape(4, 8)))" % p))
            out.append(case("pointer", "make_tensor(make_gmem_ptr(%s), make_shape(_4{}, _8{}))" % p))
    # GMMA's thread-value layouts by their CuTe names.
    for m, k in [(64, 16), (64, 32), (128, 8), (256, 16), (64, 64)]:
        out.append(case("gmma_layout", "GMMA::ABLayout<%d, %d>{}" % (m, k)))
    for n in [8, 16, 24, 32, 64, 96, 128, 192, 256]:
        out.append(case("gmma_layout", "GMMA::CLayout_64xN<%d>{}" % n))
    for n in [8, 16, 32, 64, 96, 128, 192, 256]:
        out.append(case("gmma_layout", "GMMA::CLayout_64x%d{}" % n))
    for k in [8, 16, 32, 64]:
        out.append(case("gmma_layout", "GMMA::ALayout_64x%d{}" % k))
    return descs.unique(out)


if __name__ == "__main__":
    descs.run_cases(cases, OUT, batch=60)
