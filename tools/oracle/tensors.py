#!/usr/bin/env python3
"""Golden tensor cases from the CuTe C++ headers: pointers, make_tensor, slicing,
local_tile (with projections), local_partition, a TiledMMA thread's partition_A/B/C and
the layout queries of tensors, each printed by `cute::print`.

Writes `testdata/tensor-cases.jsonl` (`{"op", "expr", "expect"}`; the
`_` of static integers dropped). `expr` is the language's one-line spelling; the C++ is
the same text with integer addresses written `(void*)N`. C++ prints an owning tensor's
stack address: the language prints `stack` there, and so does the expectation.

    ORACLE_DIR=oracle-work python3 tools/oracle/tensors.py [-j 2]

Python 3, stdlib only (the Oracle runner is descs.py's).
"""
import argparse
import concurrent.futures as cf
import json
import os
import random
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import descs  # noqa: E402

# The SM80 MMA traits besides descs.py's headers.
descs.HEADERS = descs.HEADERS.replace("#include <cute/atom/mma_atom.hpp>",
                                      "#include <cute/atom/mma_atom.hpp>\n#include <cute/atom/mma_traits_sm80.hpp>\n"
                                      "#include <cute/atom/copy_traits_sm80.hpp>\n#include <cute/atom/copy_traits_sm100.hpp>")

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "testdata", "tensor-cases.jsonl")
SEED = 2211

TYPES = ["half_t", "float", "int8_t", "double", "bfloat16_t", "uint8_t"]
SPACES = ["gmem", "smem", "rmem"]


def case(op, expr):
    # C++ takes an address as a pointer: make_gmem_ptr<T>((void*)4096).
    cpp = re.sub(r"(make_[gsr]mem_ptr<[^>]+>)\((\d+|0x[0-9a-fA-F]+)\)", r"\1((void*)\2)", expr)
    return descs.Case(op, expr, '  print(%s); printf("\\n");\n' % cpp)


def st(n):
    return "Int<%d>{}" % n


def shape_expr(dims, static):
    return "make_shape(%s)" % ", ".join(st(d) if s else str(d) for d, s in zip(dims, static))


def stride_expr(strides, static):
    return "make_stride(%s)" % ", ".join(st(d) if s else str(d) for d, s in zip(strides, static))


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def ptr(rng, space=None, ty=None):
    space = space or rng.choice(SPACES)
    ty = ty or rng.choice(TYPES)
    addr = rng.choice(["nullptr", "nullptr", "4096", "0x400", "256"])
    if space == "rmem" and addr == "nullptr":
        # C++: make_rmem_ptr<T>(nullptr) is ambiguous (one refused case is below).
        addr = "0x400"
    return "make_%s_ptr<%s>(%s)" % (space, ty, addr)


def rand_tensor(rng, rank=2, space=None, ty=None):
    """A tensor over a random 2-D/3-D layout (row- or column-major, padded, static or not)."""
    dims = [rng.choice([4, 8, 16, 32, 64, 128]) for _ in range(rank)]
    static = [rng.random() < 0.6 for _ in range(rank)]
    kind = rng.choice(["col", "row", "pad", "layout", "ints"])
    p = ptr(rng, space, ty)
    if kind == "col":
        return "make_tensor(%s, %s)" % (p, shape_expr(dims, static)), dims
    if kind == "row":
        return "make_tensor(%s, %s, LayoutRight{})" % (p, shape_expr(dims, static)), dims
    if kind == "ints" and rank == 2:
        # make_layout(shape, stride): a rank-1 tensor of dims[0] elements dims[1] apart.
        return "make_tensor(%s, %s)" % (p, shape_expr(dims, static)), dims
    # Row-major with padding, or a static Layout<> literal.
    strides = [1] * rank
    acc = 1
    for i in reversed(range(rank)):
        strides[i] = acc
        acc *= dims[i] + (rng.choice([0, 0, 8]) if i > 0 else 0)
    if kind == "layout":
        lay = descs.static_layout(dims, strides)
        return "make_tensor(%s, %s)" % (p, lay), dims
    return "make_tensor(%s, %s, %s)" % (p, shape_expr(dims, static), stride_expr(strides, [True] + static[1:])), dims


def cases():
    rng = random.Random(SEED)
    out = []
    # Pointers.
    for space in SPACES:
        for ty in TYPES:
            for addr in (["4096", "0x10"] if space == "rmem" else ["nullptr", "4096", "0x10"]):
                out.append(case("make_ptr", "make_%s_ptr<%s>(%s)" % (space, ty, addr)))
    out.append(case("make_ptr", "make_rmem_ptr<float>(nullptr)"))
    # make_tensor in its spellings.
    for _ in range(60):
        t, _dims = rand_tensor(rng, rng.choice([2, 2, 3]))
        out.append(case("make_tensor", t))
    for ty in ["float", "half_t", "int8_t"]:
        for s in ["Shape<_4,_8>{}", "Shape<_8>{}", "make_shape(_4{}, _2{}, _2{})", "Layout<Shape<_4,_8>,Stride<_8,_1>>{}"]:
            out.append(case("make_tensor_owning", "make_tensor<%s>(%s)" % (ty, s)))
    out.append(case("make_tensor_owning", "make_tensor<float>(make_shape(4, 8))"))
    # Slicing.
    for _ in range(80):
        t, dims = rand_tensor(rng, 2)
        k = rng.randrange(dims[1])
        j = rng.randrange(dims[0])
        form = rng.choice(["(_, %d)" % k, "(%d, _)" % j, "(make_coord(_, %d))" % k, "(_, _)"])
        out.append(case("slice", "%s%s" % (t, form)))
    for _ in range(30):
        t, dims = rand_tensor(rng, 3)
        form = rng.choice(["(_, _, %d)" % rng.randrange(dims[2]), "(%d, _, %d)" % (rng.randrange(dims[0]), rng.randrange(dims[2])),
                           "(_, %d, _)" % rng.randrange(dims[1])])
        out.append(case("slice", "%s%s" % (t, form)))
    # local_tile.
    for _ in range(120):
        rank = rng.choice([2, 2, 3])
        t, dims = rand_tensor(rng, rank)
        tile = [rng.choice(divisors(d)[-4:]) for d in dims]
        ntiles = [d // s for d, s in zip(dims, tile)]
        coord = []
        for n in ntiles:
            coord.append("_" if rng.random() < 0.25 else str(rng.randrange(n)))
        tiler = "make_shape(%s)" % ", ".join(st(x) for x in tile)
        if rank == 3 and rng.random() < 0.5:
            # The tutorial's projections: the tiler and coordinate of (M,N,K) on an (M,K) tensor.
            t2, d2 = rand_tensor(rng, 2)
            full = [rng.choice(divisors(d2[0])[-3:]), rng.choice([16, 32, 64, 128]), rng.choice(divisors(d2[1])[-3:])]
            cm = rng.randrange(d2[0] // full[0])
            ck = rng.choice(["_", str(rng.randrange(d2[1] // full[2]))])
            out.append(case("local_tile_proj", "local_tile(%s, make_shape(%s), make_coord(%d, %d, %s), Step<_1, X, _1>{})"
                            % (t2, ", ".join(st(x) for x in full), cm, rng.randrange(4), ck)))
            continue
        out.append(case("local_tile", "local_tile(%s, %s, make_coord(%s))" % (t, tiler, ", ".join(coord))))
    # local_partition.
    for _ in range(100):
        t, dims = rand_tensor(rng, 2)
        thr = [rng.choice([x for x in divisors(dims[0]) if x <= 32]), rng.choice([x for x in divisors(dims[1]) if x <= 16])]
        lay = rng.choice(["Layout<Shape<_%d,_%d>>{}" % tuple(thr), "Layout<Shape<_%d,_%d>, Stride<_%d,_1>>{}" % (thr[0], thr[1], thr[1])])
        idx = rng.randrange(thr[0] * thr[1])
        out.append(case("local_partition", "local_partition(%s, %s, %d)" % (t, lay, idx)))
    # Shared-memory atoms: the swizzle moves into the pointer.
    for fam in ["GMMA::Layout_K_SW128_Atom", "GMMA::Layout_K_SW64_Atom", "GMMA::Layout_MN_SW128_Atom", "GMMA::Layout_K_INTER_Atom"]:
        for ty in ["half_t", "float", "int8_t"]:
            sm = "tile_to_shape(%s<%s>{}, make_shape(Int<128>{}, Int<64>{}))" % (fam, ty)
            t = "make_tensor(make_smem_ptr<%s>(nullptr), %s)" % (ty, sm)
            out.append(case("smem_atom_tensor", t))
            out.append(case("smem_atom_tensor", "%s(_, 0)" % t))
            out.append(case("smem_atom_tensor", "local_tile(%s, make_shape(Int<128>{}, Int<16>{}), make_coord(0, %d))" % (t, rng.randrange(4))))
            out.append(case("smem_atom_tensor", "local_tile(%s, make_shape(Int<64>{}, Int<32>{}), make_coord(1, _))" % t))
    # Queries.
    for _ in range(20):
        t, _dims = rand_tensor(rng, rng.choice([2, 3]))
        for q in ["size", "rank", "depth", "shape", "stride", "layout"]:
            out.append(case("query", "%s(%s)" % (q, t)))
    # C++ has no cosize of a tensor.
    out.append(case("query", "cosize(make_tensor(make_gmem_ptr<half_t>(nullptr), 8, 4))"))
    # A TiledMMA thread's partition of A, B and C.
    mmas = [("SM80_16x8x16_F16F16F16F16_TN", "half_t", (16, 8, 16)),
            ("SM80_16x8x8_F16F16F16F16_TN", "half_t", (16, 8, 8)),
            ("SM80_16x8x16_F32BF16BF16F32_TN", "bfloat16_t", (16, 8, 16)),
            ("SM80_16x8x32_S32S8S8S32_TN", "int8_t", (16, 8, 32)),
            ("SM80_8x8x4_F64F64F64F64_TN", "double", (8, 8, 4))]
    for name, ty, (am, an, ak) in mmas:
        for lay in [(1, 1, 1), (2, 2, 1), (2, 1, 1), (1, 2, 1), (4, 1, 1)]:
            nthr = 32 * lay[0] * lay[1] * lay[2]
            mma = "make_tiled_mma(%s{}, Layout<Shape<_%d,_%d,_%d>>{})" % (name, *lay)
            tm, tn, tk = am * lay[0], an * lay[1], ak * lay[2]
            for which, (x, y) in [("A", (tm, tk)), ("B", (tn, tk)), ("C", (tm, tn))]:
                for thr in sorted({0, 1, 37 % nthr, 127 % nthr, nthr - 1}):
                    X, Y = x * rng.choice([1, 2, 4]), y * rng.choice([1, 2])
                    ety = "float" if which == "C" and ty != "double" else ty
                    major = rng.choice(["", ", LayoutRight{}"])
                    t = "make_tensor(make_%s_ptr<%s>(nullptr), make_shape(Int<%d>{}, Int<%d>{})%s)" % (
                        "gmem" if which == "C" else "smem", ety, X, Y, major)
                    out.append(case("partition_" + which, "%s.get_slice(%d).partition_%s(%s)" % (mma, thr, which, t)))
    # A TiledCopy thread's partition_S/D: a G2S copy over row-major tiles, and the
    # ldmatrix copy of an MMA's A and B operands.
    g2s = [("Copy_Atom<UniversalCopy<uint128_t>, half_t>{}", "half_t", (16, 8), (1, 8)),
           ("Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}", "half_t", (32, 4), (1, 8)),
           ("Copy_Atom<UniversalCopy<uint64_t>, float>{}", "float", (8, 16), (1, 2)),
           ("Copy_Atom<UniversalCopy<uint32_t>, half_t>{}", "half_t", (32, 8), (2, 1)),
           ("Copy_Atom<UniversalCopy<uint128_t>, int8_t>{}", "int8_t", (16, 8), (1, 16))]
    for atom, ty, thr, val in g2s:
        copy = "make_tiled_copy(%s, Layout<Shape<_%d,_%d>,Stride<_%d,_1>>{}, Layout<Shape<_%d,_%d>>{})" % (
            atom, thr[0], thr[1], thr[1], val[0], val[1])
        tm, tn = thr[0] * val[0], thr[1] * val[1]
        for t in sorted({0, 1, 9, 37 % (thr[0] * thr[1]), thr[0] * thr[1] - 1}):
            for side, space in [("S", "gmem"), ("D", "smem")]:
                X, Y = tm * rng.choice([1, 2, 4]), tn * rng.choice([1, 2])
                major = rng.choice([", LayoutRight{}", ", LayoutRight{}", ""])
                tens = "make_tensor(make_%s_ptr<%s>(nullptr), make_shape(%s, %s)%s)" % (
                    space, ty, rng.choice(["Int<%d>{}" % X, str(X)]), "Int<%d>{}" % Y, major)
                out.append(case("partition_" + side, "%s.get_slice(%d).partition_%s(%s)" % (copy, t, side, tens)))
    for which in "AB":
        for mma_name, lay in [("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1)), ("SM80_16x8x16_F16F16F16F16_TN", (1, 1, 1)),
                              ("SM80_16x8x8_F16F16F16F16_TN", (2, 1, 1))]:
            mma = "make_tiled_mma(%s{}, Layout<Shape<_%d,_%d,_%d>>{})" % (mma_name, *lay)
            for ldsm in ["SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x1_LDSM_N"]:
                copy = "make_tiled_copy_%s(Copy_Atom<%s, half_t>{}, %s)" % (which, ldsm, mma)
                for t in [0, 1, 37, 127]:
                    if t >= 32 * lay[0] * lay[1]:
                        continue
                    tens = "make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<64>{}, Int<32>{}), LayoutRight{})"
                    out.append(case("partition_S", "%s.get_slice(%d).partition_S(%s)" % (copy, t, tens)))
    # Register fragments: a thread's partition_fragment_A/B/C, the TiledMMA's
    # partition_fragment_C(shape), make_fragment_like and make_tensor_like of tensors.
    for name, ty, (am, an, ak) in mmas:
        for lay in [(1, 1, 1), (2, 2, 1), (4, 1, 1)]:
            nthr = 32 * lay[0] * lay[1] * lay[2]
            mma = "make_tiled_mma(%s{}, Layout<Shape<_%d,_%d,_%d>>{})" % (name, *lay)
            tm, tn, tk = am * lay[0], an * lay[1], ak * lay[2]
            for which, (x, y) in [("A", (tm, tk)), ("B", (tn, tk)), ("C", (tm, tn))]:
                for thr in sorted({0, 37 % nthr, nthr - 1}):
                    X, Y = x * rng.choice([1, 2, 4]), y * rng.choice([1, 2])
                    t = "make_tensor(make_smem_ptr<%s>(nullptr), make_shape(Int<%d>{}, Int<%d>{})%s)" % (
                        ty, X, Y, rng.choice(["", ", LayoutRight{}"]))
                    out.append(case("fragment", "%s.get_slice(%d).partition_fragment_%s(%s)" % (mma, thr, which, t)))
            out.append(case("fragment", "partition_fragment_C(%s, make_shape(Int<%d>{}, Int<%d>{}))" % (mma, tm * 2, tn * 2)))
    for _ in range(30):
        t, dims = rand_tensor(rng, rng.choice([2, 3]))
        if "rmem" in t:
            continue
        out.append(case("fragment", "make_fragment_like(%s)" % t))
        out.append(case("fragment", "make_tensor_like(%s)" % t))
    # Identity (counting) tensors: printed with basis strides, tiled, sliced, partitioned.
    for _ in range(25):
        dims = [rng.choice([8, 16, 32, 64, 128]) for _ in range(2)]
        static = [rng.random() < 0.5, rng.random() < 0.5]
        ident = "make_identity_tensor(%s)" % shape_expr(dims, static)
        out.append(case("identity", ident))
        k = rng.randrange(dims[1])
        out.append(case("identity", "%s(_, %d)" % (ident, k)))
        tile = [rng.choice(divisors(d)[-3:]) for d in dims]
        coord = ", ".join("_" if rng.random() < 0.2 else str(rng.randrange(d // t)) for d, t in zip(dims, tile))
        out.append(case("identity", "local_tile(%s, make_shape(%s), make_coord(%s))" % (ident, ", ".join(st(x) for x in tile), coord)))
    out.append(case("identity", "make_identity_tensor(make_shape(Int<4>{}, make_shape(2, 3)))"))
    out.append(case("identity", "make_identity_tensor(make_shape(4, 8, 2))"))
    for thr in [0, 9, 37, 127]:
        copy = "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})"
        out.append(case("identity", "%s.get_slice(%d).partition_S(make_identity_tensor(make_shape(Int<128>{}, Int<64>{})))" % (copy, thr)))
        mma = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{})"
        for which in "ABC":
            out.append(case("identity", "%s.get_slice(%d).partition_%s(make_identity_tensor(make_shape(Int<64>{}, Int<32>{})))" % (mma, thr, which)))
        out.append(case("identity", "local_partition(make_identity_tensor(make_shape(64, 64)), Layout<Shape<_16,_8>>{}, %d)" % thr))
    # Rank-3 tensors (a k-tile or stage mode): the mainloop's partition_A/B of sA(_,_,k_pipe)
    # and partition_S of gA(_,_,k).
    for thr in [0, 37, 127]:
        mma = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{})"
        for which, shp in [("A", (64, 32, 3)), ("B", (32, 32, 4)), ("C", (64, 32, 2))]:
            t = "make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<%d>{}, Int<%d>{}, Int<%d>{}))" % shp
            out.append(case("partition_rank3", "%s.get_slice(%d).partition_%s(%s)" % (mma, thr, which, t)))
        copy = "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_32,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{})"
        g = "local_tile(make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(4096, 4096), LayoutRight{}), make_shape(Int<128>{}, Int<128>{}, Int<32>{}), make_coord(1, 0, _), Step<_1, X, _1>{})"
        out.append(case("partition_rank3", "%s.get_slice(%d).partition_S(%s)" % (copy, thr, g)))
        sm = "make_tensor(make_smem_ptr<half_t>(nullptr), tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<128>{}, Int<32>{}, Int<3>{})))"
        out.append(case("partition_rank3", "%s.get_slice(%d).partition_D(%s)" % (copy, thr, sm)))
    # The layout functions C++ lifts to tensors (the iterator kept), and two it does not.
    for _ in range(30):
        rank = rng.choice([2, 2, 3])
        t, dims = rand_tensor(rng, rank)
        tile = [rng.choice(divisors(d)[-4:]) for d in dims[:2]]
        tiler = "make_shape(%s)" % ", ".join(st(x) for x in tile)
        for f in ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"]:
            out.append(case("tensor_algebra", "%s(%s, %s)" % (f, t, tiler)))
        out.append(case("tensor_algebra", "coalesce(%s)" % t))
        out.append(case("tensor_algebra", "flatten(zipped_divide(%s, %s))" % (t, tiler)))
        if rank == 3:
            out.append(case("tensor_algebra", "group_modes<0,2>(%s)" % t))
    for ident in ["make_identity_tensor(make_shape(128, 64))", "make_identity_tensor(make_shape(Int<64>{}, Int<32>{}))"]:
        out.append(case("tensor_algebra", "zipped_divide(%s, make_shape(Int<32>{}, Int<16>{}))" % ident))
        out.append(case("tensor_algebra", "coalesce(%s)" % ident))
    out.append(case("tensor_algebra", "filter_zeros(make_tensor(make_gmem_ptr<float>(nullptr), make_shape(8, 4), make_stride(Int<0>{}, Int<1>{})))"))
    out.append(case("tensor_algebra", "filter(make_tensor(make_gmem_ptr<float>(nullptr), make_shape(8, 4), make_stride(Int<0>{}, Int<1>{})))"))
    out.append(case("tensor_algebra", "logical_product(make_tensor(make_gmem_ptr<float>(nullptr), make_shape(8, 4)), make_shape(Int<2>{}, Int<2>{}))"))
    # retile_D of an MMA's register fragment by the ldmatrix copy feeding it (the SM80
    # mainloop's smem_thr_copy.retile_D(tCrA)), and retile_S of the same.
    for mma_name, lay in [("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1)), ("SM80_16x8x16_F16F16F16F16_TN", (1, 1, 1)),
                          ("SM80_16x8x8_F16F16F16F16_TN", (2, 1, 1)), ("SM80_16x8x16_F32BF16BF16F32_TN", (2, 2, 1))]:
        ty = "bfloat16_t" if "BF16" in mma_name else "half_t"
        mma = "make_tiled_mma(%s{}, Layout<Shape<_%d,_%d,_%d>>{})" % (mma_name, *lay)
        for which, shape in [("A", (64, 32)), ("B", (64, 32))]:
            for ldsm in ["SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x1_LDSM_N"]:
                copy = "make_tiled_copy_%s(Copy_Atom<%s, %s>{}, %s)" % (which, ldsm, ty, mma)
                for t in [0, 37]:
                    if t >= 32 * lay[0] * lay[1]:
                        continue
                    s_t = "make_tensor(make_smem_ptr<%s>(nullptr), make_shape(Int<%d>{}, Int<%d>{}), LayoutRight{})" % (ty, *shape)
                    frag = "%s.get_slice(%d).partition_fragment_%s(%s)" % (mma, t, which, s_t)
                    for side in "DS":
                        out.append(case("retile", "%s.get_slice(%d).retile_%s(%s)" % (copy, t, side, frag)))
    # recast<T> of tensors (gmem, a smem atom's swizzled tensor, a register fragment).
    for new in ["uint32_t", "uint128_t", "half_t", "uint8_t", "uint64_t"]:
        for _ in range(6):
            t, _dims = rand_tensor(rng, 2, space=rng.choice(["gmem", "smem"]))
            out.append(case("recast", "recast<%s>(%s)" % (new, t)))
        for ty in ["half_t", "float"]:
            sm = "make_tensor(make_smem_ptr<%s>(nullptr), tile_to_shape(GMMA::Layout_K_SW128_Atom<%s>{}, make_shape(Int<64>{}, Int<64>{})))" % (ty, ty)
            out.append(case("recast", "recast<%s>(%s)" % (new, sm)))
        out.append(case("recast", "recast<%s>(make_tensor<half_t>(Shape<_8,_4>{}))" % new))
    # The rest of the tensors' C++ surface: static negative integers, the 1-bit smem atoms,
    # slice_and_offset, elem_scale, inner_product.
    for n in [1, 2, 3, 4, 8, 16, 32]:
        out.append(case("surface", "_m%d{}" % n))
        out.append(case("surface", "make_layout(make_shape(_4{}, _8{}), make_stride(_m%d{}, _4{}))" % n))
    for fam in ["GMMA::Layout_K_INTER_Atom_Bits", "GMMA::Layout_K_SW32_Atom_Bits", "GMMA::Layout_K_SW64_Atom_Bits",
                "GMMA::Layout_K_SW128_Atom_Bits", "GMMA::Layout_MN_INTER_Atom_Bits", "GMMA::Layout_MN_SW128_Atom_Bits",
                "UMMA::Layout_MN_SW128_32B_Atom_Bits", "UMMA::Layout_K_SW128_Atom_Bits"]:
        out.append(case("surface", "%s{}" % fam))
    for _ in range(20):
        dims = [rng.choice([2, 4, 8]) for _ in range(3)]
        strides = [rng.choice([1, 2, 8, 16, 32]) for _ in range(3)]
        lay = descs.static_layout(dims, strides)
        k = rng.randrange(dims[1])
        out.append(case("surface", "slice_and_offset(make_coord(_, %d, _), %s)" % (k, lay)))
        out.append(case("surface", "slice_and_offset(make_coord(%d, _, %d), %s)" % (rng.randrange(dims[0]), rng.randrange(dims[2]), lay)))
    for a, b in [("make_shape(2, 3)", "make_shape(4, 5)"), ("make_shape(_2{}, _3{})", "make_shape(_4{}, make_shape(_5{}, _2{}))"),
                 ("make_shape(2, make_shape(3, 4))", "make_shape(5, make_shape(6, 7))"), ("_3{}", "_4{}"),
                 ("make_shape(2, 3)", "make_shape(4, 5, 6)")]:
        out.append(case("surface", "inner_product(%s, %s)" % (a, b)))
        out.append(case("surface", "elem_scale(%s, %s)" % (a, b)))
    # The member types of TiledCopys.
    copies = ["make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})",
              "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{}, Layout<Shape<_32,_4>,Stride<_4,_1>>{}, Layout<Shape<_1,_8>>{})",
              "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>{}, Layout<Shape<_8,_32>>{}, Layout<Shape<_4,_1>>{})",
              "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}))",
              "make_tiled_copy_B(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}))",
              "make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}))"]
    for cp in copies:
        for m in ["Tiler_MN", "TiledLayout_TV", "TiledNumThr", "TiledNumVal"]:
            out.append(case("members", "typename decltype(%s)::%s{}" % (cp, m)))
    # detail::get_tma_swizzle_bits/base, printed as their enumerators' names (C++ has no
    # print for them; the body prints the name of the value). TMA::to_CUtensorMapSwizzle is
    # not in a host-only build: tests/tensors.rs checks it against the header's switch.
    names = {"bits": '{"TMA::SmemSwizzleBits::DISABLE","TMA::SmemSwizzleBits::B32","TMA::SmemSwizzleBits::B64","TMA::SmemSwizzleBits::B128"}',
             "base": '{"TMA::SmemSwizzleBase::SWIZZLE_BASE_16B","TMA::SmemSwizzleBase::SWIZZLE_BASE_32B","TMA::SmemSwizzleBase::SWIZZLE_BASE_32B_FLIP_8B","TMA::SmemSwizzleBase::SWIZZLE_BASE_64B"}'}
    args = ["Swizzle<%d,%d,%d>{}" % bms for bms in [(3, 4, 3), (2, 4, 3), (1, 4, 3), (0, 4, 3), (4, 4, 3), (3, 4, 2),
                                                     (2, 5, 2), (2, 5, 3), (3, 5, 2), (2, 6, 3), (2, 6, 2), (3, 3, 3)]]
    args += ["%s<%s>{}" % (f, t) for f in ["GMMA::Layout_K_SW128_Atom", "GMMA::Layout_MN_SW64_Atom", "GMMA::Layout_K_SW32_Atom",
                                          "GMMA::Layout_K_INTER_Atom", "UMMA::Layout_MN_SW128_32B_Atom"] for t in ["half_t", "float"]]
    args += ["Layout<Shape<_8,_64>,Stride<_64,_1>>{}", "composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})"]
    for what in ["bits", "base"]:
        for x in args:
            expr = "detail::get_tma_swizzle_%s(%s)" % (what, x)
            cpp = '  { auto v = %s; const char* n[] = %s; printf("%%s\\n", n[int(v)]); }\n' % (expr, names[what])
            out.append(descs.Case("tma_swizzle_enum", expr, cpp))
    # ComposedLayout<Layout, int, Layout>: the queries read B (cosize too), the divides,
    # products and coalesce act on B, stride is deleted.
    for _ in range(12):
        bd = [rng.choice([2, 4, 8]) for _ in range(2)]
        bs = rng.choice([[1, bd[0]], [bd[1], 1], [2, 2 * bd[0]]])
        b = descs.static_layout(bd, bs)
        a = descs.static_layout([rng.choice([64, 128, 256])], [rng.choice([1, 2, 3])])
        o = rng.choice(["_0{}", "_3{}", "Int<8>{}"])
        cl = "make_composed_layout(%s, %s, %s)" % (a, o, b)
        out.append(case("composed_layout", cl))
        for q in ["size", "rank", "depth", "shape", "cosize", "stride"]:
            out.append(case("composed_layout", "%s(%s)" % (q, cl)))
        out.append(case("composed_layout", "get<1>(%s)" % cl))
        out.append(case("composed_layout", "flatten(%s)" % cl))
        out.append(case("composed_layout", "coalesce(%s)" % cl))
        t = "Layout<_%d,_1>{}" % bd[0]
        for f in ["logical_divide", "zipped_divide", "logical_product"]:
            out.append(case("composed_layout", "%s(%s, %s)" % (f, cl, t)))
        out.append(case("composed_layout", "%s(%d)" % (cl, rng.randrange(bd[0] * bd[1]))))
    # domain_offset of tensors: the iterator moved to a coordinate, the layout kept.
    for _ in range(10):
        t, dims = rand_tensor(rng, 2, space=rng.choice(["gmem", "smem"]))
        crd = "make_coord(%d, %d)" % (rng.randrange(dims[0]), rng.randrange(dims[1]))
        out.append(case("domain_offset", "domain_offset(%s, %s)" % (crd, t)))
    out.append(case("domain_offset", "domain_offset(make_coord(3, 5), make_identity_tensor(make_shape(16, 16)))"))
    out += tma_cases(rng)
    out += composed_nested_cases(rng)
    out += lazy_traits_cases()
    out += subbyte_cases(rng)
    out += subbyte_owned_cases(rng)
    out += swizzled_elem_cases()
    out += tma_rank_cases()
    out += tma_umma_cases()
    out += partition_fn_cases(rng)
    out += tmem_copy_cases(rng)
    seen, uniq = set(), []
    for c in out:
        if c.expr not in seen:
            seen.add(c.expr)
            uniq.append(c)
    return uniq


def subbyte_cases(rng):
    """Tensors of 1-, 4- and 6-bit elements: C++'s subbyte_iterator prints the address and
    the bit (`gmem_subptr[4b](0x1001.4)`); slices, local_tile, local_partition and recast
    move it in bits."""
    out = []
    for _ in range(40):
        ty = rng.choice(["int4b_t", "uint4b_t", "float_e2m1_t", "float_e3m2_t", "float_e2m3_t", "uint1b_t", "int4_t"])
        space = rng.choice(["gmem", "smem", "rmem"])
        addr = rng.choice(["nullptr", "0x1000", "4096", "0x2040"]) if space != "rmem" else rng.choice(["0x1000", "0x2040"])
        dims = [rng.choice([8, 16, 32]), rng.choice([8, 16, 64])]
        lay = rng.choice(["", ", LayoutRight{}"])
        t = "make_tensor(make_%s_ptr<%s>(%s), make_shape(Int<%d>{}, Int<%d>{})%s)" % (space, ty, addr, dims[0], dims[1], lay)
        out.append(case("subbyte", t))
        out.append(case("subbyte", "%s(%d, _)" % (t, rng.randrange(dims[0]))))
        out.append(case("subbyte", "%s(_, %d)" % (t, rng.randrange(dims[1]))))
        out.append(case("subbyte", "local_tile(%s, make_shape(Int<4>{}, Int<4>{}), make_coord(%d, %d))" % (
            t, rng.randrange(dims[0] // 4), rng.randrange(dims[1] // 4))))
        out.append(case("subbyte", "local_partition(%s, Layout<Shape<_4,_2>>{}, %d)" % (t, rng.randrange(8))))
        if rng.random() < 0.5:
            out.append(case("subbyte", "recast<%s>(%s)" % (rng.choice(["uint8_t", "uint32_t", "uint16_t"]), t)))
    return out


def subbyte_owned_cases(rng):
    """Register tensors owning 1-, 4- and 6-bit elements (C++'s array_subbyte, printed
    `subptr[4b](stack.0)`), recasts to and from them, `t.data()`, and the register
    fragments of the SM80 4-bit and 1-bit MMAs."""
    out = []
    subs = ["int4b_t", "uint4b_t", "float_e2m1_t", "float_e3m2_t", "float_e2m3_t", "uint1b_t", "int4_t"]
    shapes = ["Shape<_8,_4>{}", "Shape<_16>{}", "Shape<_3>{}", "Layout<Shape<_4,_2>,Stride<_2,_1>>{}",
              "Shape<Shape<_2,_2>,_8>{}", "make_shape(Int<32>{}, Int<2>{})"]
    for ty in subs:
        for shp in shapes:
            out.append(case("subbyte_owned", "make_tensor<%s>(%s)" % (ty, shp)))
        t = "make_tensor<%s>(%s)" % (ty, rng.choice(shapes[:2]))
        out.append(case("subbyte_owned", "make_fragment_like(%s)" % t))
        out.append(case("subbyte_owned", "make_tensor_like(%s)" % t))
        out.append(case("subbyte_owned", "%s.data()" % t))
        for new in ["uint8_t", "uint16_t", "uint32_t", "int4b_t", "uint1b_t"]:
            out.append(case("subbyte_owned", "recast<%s>(make_tensor<%s>(Shape<_32,_2>{}))" % (new, ty)))
        for old in ["uint8_t", "uint32_t", "half_t"]:
            out.append(case("subbyte_owned", "recast<%s>(make_tensor<%s>(Shape<_8,_4>{}))" % (ty, old)))
        for old in ["uint8_t", "uint16_t", "int4b_t"]:
            out.append(case("subbyte_owned", "recast<%s>(make_tensor(make_gmem_ptr<%s>(0x1000), make_shape(Int<32>{}, Int<8>{})))" % (ty, old)))
        out.append(case("subbyte_owned", "make_fragment_like<%s>(make_layout(make_shape(Int<4>{}, Int<8>{})))" % ty))
        out.append(case("subbyte_owned", "make_tensor_like<%s>(make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<8>{}, Int<16>{}), LayoutRight{}))" % ty))
    # make_tensor(t.data(), layout): a view of the register array.
    for ty in ["half_t", "float", "int4b_t", "uint1b_t"]:
        out.append(case("subbyte_owned", "make_tensor(make_tensor<%s>(Shape<_8,_4>{}).data(), make_layout(make_shape(Int<4>{}, Int<8>{}), LayoutRight{}))" % ty))
    for mma in ["SM80_16x8x64_S32S4S4S32_TN", "SM80_16x8x32_S32U4U4S32_TN", "SM80_16x8x64_S32S4U4S32_TN_SATURATE",
                "SM80_16x8x256_S32U1U1S32_TN_XORPOPC", "SM80_8x8x128_S32U1U1S32_TN_ANDPOPC"]:
        tm = "make_tiled_mma(%s{}, Layout<Shape<_2,_2,_1>>{})" % mma
        for thr in [0, 1, 37, 127]:
            for w in "AB":
                sh = "make_shape(Int<64>{}, Int<256>{})"
                out.append(case("subbyte_owned", "%s.get_slice(%d).partition_fragment_%s(make_tensor(make_smem_ptr<uint8_t>(nullptr), %s))" % (tm, thr, w, sh)))
        out.append(case("subbyte_owned", "partition_fragment_C(%s, make_shape(Int<64>{}, Int<64>{}))" % tm))
    return out


def partition_fn_cases(rng):
    """inner_partition / outer_partition (what local_tile and local_partition are made of)
    with tuple and integer coordinates, and max_common_vector / max_common_layout of two
    tensors (their layouts' when the value types agree, else _0 and _1:_0)."""
    out = []
    tensors = ["make_tensor(make_gmem_ptr<half_t>(0x1000), make_shape(Int<64>{}, Int<32>{}), LayoutRight{})",
               "make_tensor(make_smem_ptr<float>(nullptr), make_shape(Int<32>{}, Int<16>{}))",
               "make_tensor(make_gmem_ptr<int8_t>(nullptr), make_shape(64, 128), make_stride(128, Int<1>{}))",
               "make_identity_tensor(make_shape(Int<32>{}, Int<32>{}))"]
    # Coordinates inside every tensor's tiles (C++ does not check; the language refuses).
    for t in tensors:
        for tiler in ["make_shape(Int<8>{}, Int<8>{})", "make_shape(Int<4>{}, Int<8>{})", "make_tile(Int<16>{})"]:
            for c in ["make_coord(1, 1)", "3", "make_coord(0, _)", "make_coord(1)"]:
                out.append(case("partition_fns", "inner_partition(%s, %s, %s)" % (t, tiler, c)))
                out.append(case("partition_fns", "outer_partition(%s, %s, %s)" % (t, tiler, c)))
    pairs = [("make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(Int<8>{}, Int<64>{}), LayoutRight{})",
              "make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<8>{}, Int<64>{}), LayoutRight{})"),
             ("make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(Int<8>{}, Int<64>{}), LayoutRight{})",
              "make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<8>{}, Int<64>{}))"),
             ("make_tensor(make_gmem_ptr<float>(nullptr), make_shape(Int<8>{}, Int<64>{}), LayoutRight{})",
              "make_tensor(make_smem_ptr<half_t>(nullptr), make_shape(Int<8>{}, Int<64>{}), LayoutRight{})"),
             ("make_tensor<float>(Shape<_8,_4>{})", "make_tensor(make_gmem_ptr<float>(nullptr), make_shape(Int<8>{}, Int<4>{}))"),
             ("make_identity_tensor(make_shape(Int<8>{}, Int<4>{}))", "make_tensor(make_gmem_ptr<float>(nullptr), make_shape(Int<8>{}, Int<4>{}))"),
             ("make_tensor(make_smem_ptr<half_t>(nullptr), composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}))",
              "make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(Int<8>{}, Int<64>{}), LayoutRight{})")]
    # The members compose and tile of a tensor and of a layout.
    for t in tensors[:3] + ["make_layout(make_shape(Int<64>{}, Int<32>{}), LayoutRight{})"]:
        out.append(case("partition_fns", "%s.compose(make_layout(make_shape(Int<8>{}, Int<8>{})), _)" % t))
        out.append(case("partition_fns", "%s.compose(Layout<_8,_2>{}, Layout<_4,_4>{})" % t))
        out.append(case("partition_fns", "%s.tile(Int<8>{}, Int<8>{})" % t))
        out.append(case("partition_fns", "%s.tile(Layout<_4,_2>{}, _)" % t))
    for a, b in pairs:
        out.append(case("partition_fns", "max_common_vector(%s, %s)" % (a, b)))
        out.append(case("partition_fns", "max_common_layout(%s, %s)" % (a, b)))
    return out


def tma_umma_cases():
    """make_tma_copy/make_tma_atom over an UMMA's MMA-partitioned smem layout
    (`UMMA::tile_to_mma_shape(atom, partition_shape_A(mma, (bM, bK)))`, `((128,16),1,4)`)
    with the CTA tile `(bM, bK)` given: the Blackwell tutorials' form."""
    out = []
    for ty, m, n, kb, atom, two in [("half_t", 128, 256, 4, "K_SW128", False), ("half_t", 128, 128, 2, "K_SW64", False),
                                    ("float", 128, 64, 4, "K_SW128", False), ("half_t", 256, 128, 4, "K_SW128", True),
                                    ("bfloat16_t", 64, 64, 4, "MN_SW128", False)]:
        # (The 2-SM MMA's tile: C++ refuses a CTA tile of the whole 256 rows here.)
        major = "MN" if atom.startswith("MN") else "K"
        mma_op = "SM100_MMA_%s%s_SS<%s, %s, float, %d, %d, UMMA::Major::%s, UMMA::Major::%s>" % (
            "TF32" if ty == "float" else "F16BF16", "_2x1SM" if two else "", "tfloat32_t" if ty == "float" else ty,
            "tfloat32_t" if ty == "float" else ty, m, n, major, major)
        mma = "make_tiled_mma(%s{})" % mma_op
        k = (8 if ty == "float" else 16) * kb
        for which, mn, sel in [("A", m, "0,2"), ("B", n, "1,2")]:
            sl = "UMMA::tile_to_mma_shape(UMMA::Layout_%s_Atom<%s>{}, partition_shape_%s(%s, make_shape(Int<%d>{}, Int<%d>{})))" % (
                atom, "tfloat32_t" if ty == "float" else ty, which, mma, mn, k)
            stride = "make_stride(Int<1>{}, 4096)" if major == "MN" else "make_stride(4096, Int<1>{})"
            g = "make_tensor(make_gmem_ptr<%s>(nullptr), make_shape(4096, 4096), %s)" % ("tfloat32_t" if ty == "float" else ty, stride)
            tiler = "make_shape(Int<%d>{}, Int<%d>{})" % (mn, k)
            tma = "make_tma_copy(SM90_TMA_LOAD{}, %s, %s, %s, Int<1>{})" % (g, sl, tiler)
            out.append(case("tma_umma", sl))
            out.append(case("tma_umma", "%s.get_tma_tensor(make_shape(4096, 4096))" % tma))
            for mem in ["Tiler_MN", "TiledLayout_TV"]:
                out.append(case("tma_umma", "typename decltype(%s)::%s{}" % (tma, mem)))
    return out


def tma_rank_cases():
    """TMA copies of attention-style tensors, (seqlen, headdim, (heads, batch)) in BSHD
    order (head dim contiguous) and its flat and 5-mode forms: coordinate tensors of 3 to 5
    TMA modes and coordinates from 2^19 up (a 1M-token sequence), their CTA tiles and
    tma_partition; identity tensors of up to 6 leaves."""
    out = []
    # (shape, stride, smem atom, tile M, tile K)
    cfgs = [((8192, 64, (16, 2)), (1024, 1, (64, 8388608)), "K_SW128", 128, 64),
            ((1048576, 128, (8, 1)), (1024, 1, (128, 1073741824)), "K_SW128", 64, 128),
            ((4096, 128, ((4, 2), 3)), (1024, 1, ((128, 512), 4194304)), "K_SW128", 128, 64),
            ((2048, 64, 16, 4), (1024, 1, 64, 2097152), "K_SW128", 128, 64),
            ((1000, 64, (12, 3)), (768, 1, (64, 768000)), "K_SW64", 64, 32),
            ((600000, 256, 3), (256, 1, 153600000), "K_SW128", 128, 64)]

    def cpp(x, fn):
        if isinstance(x, tuple):
            return "make_%s(%s)" % (fn, ", ".join(cpp(y, fn) for y in x))
        return str(x)

    for shape, stride, atom, bm, bk in cfgs:
        g = "make_tensor(make_gmem_ptr<half_t>(nullptr), %s, %s)" % (cpp(shape, "shape"), cpp(stride, "stride"))
        sl = "tile_to_shape(GMMA::Layout_%s_Atom<half_t>{}, make_shape(Int<%d>{}, Int<%d>{}))" % (atom, bm, bk)
        tma = "make_tma_copy(SM90_TMA_LOAD{}, %s, %s, make_shape(Int<%d>{}, Int<%d>{}), Int<1>{})" % (g, sl, bm, bk)
        mt = "%s.get_tma_tensor(%s)" % (tma, cpp(shape, "shape"))
        out.append(case("tma_rank", mt))
        for mem in ["Tiler_MN", "TiledLayout_TV"]:
            out.append(case("tma_rank", "typename decltype(%s)::%s{}" % (tma, mem)))
        rest = len(shape) - 2
        sa = "make_tensor(make_smem_ptr<half_t>(nullptr), %s)" % sl
        for blk in [0, shape[0] // bm - 1]:
            out.append(case("tma_rank", "local_tile(%s, make_shape(Int<%d>{}, Int<%d>{}), make_coord(%d, _%s))" % (
                mt, bm, bk, blk, ", _" * rest)))
            gsl = "local_tile(%s(_, _%s), make_shape(Int<%d>{}, Int<%d>{}), make_coord(%d, _))" % (
                mt, ", 0" * rest, bm, bk, blk)
            out.append(case("tma_rank", gsl))
            for side in (0, 1):
                out.append(case("tma_rank", "get<%d>(tma_partition(%s, Int<0>{}, Layout<_1>{}, group_modes<0,2>(%s), group_modes<0,2>(%s)))" % (
                    side, tma, sa, gsl)))
    for shp, at in [("make_shape(4, 8, 2, 3)", "(1, _, 1, _)"), ("make_shape(1048576, 64)", "(_, 5)"),
                    ("make_shape(2, make_shape(3, 4), make_shape(5, 6))", "(1, _, make_coord(2, _))"),
                    ("make_shape(128, 64, 8, 4, 2)", "(_, 3, _, 1, _)"), ("make_shape(1, 2, 3, 4, 5, 6)", "(0, _, 2, _, 4, _)")]:
        t = "make_identity_tensor(%s)" % shp
        out.append(case("tma_rank", t))
        out.append(case("tma_rank", t + at))
        out.append(case("tma_rank", "domain_offset(make_coord(%s), %s)" % (", ".join(["-3"] + ["1"] * (shp.count(",") - shp.count("make_shape(") + 1)), t)))
    return out


def swizzled_elem_cases():
    """Tensors over a swizzle in element units (`composition(Swizzle, layout)` over a plain
    pointer or a register array): recast and recast_layout cast the swizzle with the
    layout, domain_offset moves the composed offset, retile and make_fragment_like act on
    the inner layout; C++ has no make_layout_like of one (make_tensor_like refused)."""
    out = []
    for sw, ty, lay in [("Swizzle<3,3,3>", "half_t", "Layout<Shape<_8,_64>,Stride<_64,_1>>"),
                        ("Swizzle<2,3,3>", "half_t", "Layout<Shape<_16,_32>,Stride<_32,_1>>"),
                        ("Swizzle<3,2,3>", "float", "Layout<Shape<_8,_32>,Stride<_32,_1>>"),
                        ("Swizzle<1,4,3>", "uint8_t", "Layout<Shape<_4,_128>,Stride<_128,_1>>"),
                        ("Swizzle<2,0,3>", "half_t", "Layout<Shape<_8,_8>>")]:
        comp = "composition(%s{}, %s{})" % (sw, lay)
        for space in ["smem", "gmem"]:
            t = "make_tensor(make_%s_ptr<%s>(nullptr), %s)" % (space, ty, comp)
            for new in ["uint8_t", "half_t", "float", "uint128_t", "uint64_t"]:
                out.append(case("swizzled_elem", "recast<%s>(%s)" % (new, t)))
            for crd in ["make_coord(1, 2)", "make_coord(3, 0)", "make_coord(0, 5)"]:
                out.append(case("swizzled_elem", "domain_offset(%s, %s)" % (crd, t)))
            out.append(case("swizzled_elem", "make_fragment_like(%s)" % t))
            out.append(case("swizzled_elem", "make_tensor_like(%s)" % t))
            out.append(case("swizzled_elem", "coalesce(%s)" % t))
        out.append(case("swizzled_elem", "make_tensor<%s>(%s)" % (ty, comp)))
        for new in ["uint8_t", "uint32_t", "uint128_t"]:
            out.append(case("swizzled_elem", "recast_layout<%s, %s>(%s)" % (ty, new, comp)))
        out.append(case("swizzled_elem", "domain_offset(make_coord(2, 3), %s)" % comp))
    for thr in [0, 3, 31]:
        for sw in ["Swizzle<1,0,3>", "Swizzle<2,1,3>"]:
            out.append(case("swizzled_elem", "make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_8>>{}).get_slice(%d).retile_D(make_tensor(make_rmem_ptr<half_t>(0x1000), composition(%s{}, Layout<Shape<_8,_1,_2>>{})))" % (thr, sw)))
            out.append(case("swizzled_elem", "make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_8>>{}).get_slice(%d).retile_S(make_tensor<half_t>(composition(%s{}, Layout<Shape<_8,_2,_2>>{})))" % (thr, sw)))
    return out


def lazy_traits_cases():
    """Copy_Traits of a cp.async op at every width: C++ prints the traits even where the op's
    own static_assert refuses the width (naming the op does not instantiate it); making the
    op or a Copy_Atom of it is an error."""
    out = []
    for op in ["SM80_CP_ASYNC_CACHEGLOBAL", "SM80_CP_ASYNC_CACHEALWAYS", "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL",
               "SM80_CP_ASYNC_CACHEALWAYS_ZFILL"]:
        for t in ["uint8_t", "uint16_t", "uint32_t", "uint64_t", "uint128_t"]:
            for tr in ["ThrID", "SrcLayout", "DstLayout", "RefLayout"]:
                out.append(case("lazy_traits", "typename Copy_Traits<%s<%s>>::%s{}" % (op, t, tr)))
            out.append(case("lazy_traits", "typename Copy_Atom<%s<%s>, half_t>::ValLayoutSrc{}" % (op, t)))
    # The SM61 dot products' fragments: int32_t accumulators, int8/int16 operands.
    for op in ["SM61_DP4A", "SM61_DP2A"]:
        for lay in ["Layout<Shape<_16,_16,_1>>{}", "Layout<Shape<_8,_4,_1>,Stride<_4,_1,_0>>{}"]:
            mma = "make_tiled_mma(%s{}, %s)" % (op, lay)
            for shp in ["make_shape(Int<16>{}, Int<16>{})", "make_shape(Int<32>{}, Int<64>{})"]:
                out.append(case("sm61_fragment", "partition_fragment_C(%s, %s)" % (mma, shp)))
            for w, t in [("A", "int8_t" if op == "SM61_DP4A" else "int16_t"), ("B", "int8_t" if op == "SM61_DP4A" else "int16_t")]:
                thr = 37 if "_16,_16" in lay else 5
                out.append(case("sm61_fragment", "%s.get_slice(%d).partition_fragment_%s(make_tensor(make_smem_ptr<%s>(nullptr), make_shape(Int<32>{}, Int<16>{})))" % (mma, thr, w, t)))
    return out


def composed_nested_cases(rng):
    """ComposedLayout<A,O,B> where A or B is itself composed (a swizzle over a layout, a
    composition of layouts): its print, the queries that read B all the way in, the
    divides and products that act on it, and its value at an index."""
    out = []
    def sw():
        return "Swizzle<%d,%d,%d>{}" % rng.choice([(3, 0, 3), (2, 1, 3), (1, 2, 2), (3, 3, 3), (2, 0, 4)])
    def lay8():
        return rng.choice(["Layout<Shape<_8,_8>,Stride<_8,_1>>{}", "Layout<Shape<_8,_8>,Stride<_1,_8>>{}",
                           "Layout<Shape<_4,_16>,Stride<_16,_1>>{}", "Layout<Shape<Shape<_2,_4>,_8>,Stride<Stride<_1,_16>,_2>>{}"])
    def outer_layout():
        return rng.choice(["Layout<_128,_1>{}", "Layout<Shape<_8,_16>,Stride<_16,_1>>{}", "Layout<_256,_2>{}"])
    for _ in range(14):
        kind = rng.choice(["inner_sw", "inner_comp", "outer_sw", "outer_comp", "both", "sw_over_comp"])
        off = rng.choice(["_0{}", "Int<3>{}", "Int<8>{}"])
        if kind == "inner_sw":
            cl = "make_composed_layout(%s, %s, make_composed_layout(%s, _0{}, %s))" % (outer_layout(), off, sw(), lay8())
        elif kind == "inner_comp":
            cl = "make_composed_layout(%s, %s, make_composed_layout(Layout<_64,_1>{}, Int<2>{}, %s))" % (outer_layout(), off, lay8())
        elif kind == "outer_sw":
            cl = "make_composed_layout(make_composed_layout(%s, _0{}, Layout<_256,_1>{}), %s, %s)" % (sw(), off, lay8())
        elif kind == "outer_comp":
            cl = "make_composed_layout(make_composed_layout(Layout<_512,_2>{}, Int<1>{}, Layout<_256,_1>{}), %s, %s)" % (off, lay8())
        elif kind == "both":
            cl = "make_composed_layout(make_composed_layout(%s, _0{}, Layout<_256,_1>{}), %s, make_composed_layout(Layout<_128,_1>{}, _0{}, %s))" % (sw(), off, lay8())
        else:
            cl = "make_composed_layout(%s, %s, make_composed_layout(Layout<_128,_1>{}, Int<4>{}, %s))" % (sw(), off, lay8())
        out.append(case("composed_nested", cl))
        for q in ["size", "rank", "depth", "shape", "cosize"]:
            out.append(case("composed_nested", "%s(%s)" % (q, cl)))
        for q in ["get<1>(%s)", "flatten(%s)", "coalesce(%s)", "logical_divide(%s, Layout<_4,_1>{})",
                  "zipped_divide(%s, make_tile(Layout<_2,_1>{}, Layout<_4,_1>{}))", "logical_product(%s, Layout<_2,_1>{})"]:
            out.append(case("composed_nested", q % cl))
        for i in rng.sample(range(64), 3):
            out.append(case("composed_nested", "%s(%d)" % (cl, i)))
    return out


def tma_cases(rng):
    """make_tma_copy/make_tma_atom over a gmem tensor and a GMMA smem tile: the TMA
    coordinate tensor, its CTA tile, tma_partition for every CTA of the multicast, the
    copy's slices and its member types, and the configurations C++ refuses."""
    out = []
    atoms = ["K_INTER", "K_SW32", "K_SW64", "K_SW128", "MN_INTER", "MN_SW32", "MN_SW64", "MN_SW128"]
    for _ in range(36):
        ty = rng.choice(["half_t", "float", "bfloat16_t", "int8_t", "double", "tfloat32_t"])
        atom = rng.choice(atoms)
        kmajor = atom.startswith("K")
        bm, bk = rng.choice([64, 128, 256]), rng.choice([32, 64, 128])
        m, k = bm * rng.choice([1, 2, 4]), bk * rng.choice([1, 2, 4])
        batched = rng.random() < 0.3
        stat = rng.random() < 0.3
        num = (lambda n: "Int<%d>{}" % n) if stat else str
        flipped = rng.random() < 0.1
        if flipped:
            kmajor = not kmajor  # smem and gmem majorness disagree: make_tma_copy_desc asserts
        stride = ("make_stride(%s, Int<1>{}%s)" % (num(k), ", %s" % num(m * k) if batched else "") if kmajor
                  else "make_stride(Int<1>{}, %s%s)" % (num(m), ", %s" % num(m * k) if batched else ""))
        shape = "make_shape(%s, %s%s)" % (num(m), num(k), ", 3" if batched else "")
        addr = rng.choice(["nullptr", "nullptr", "0x1000", "0x20000"])
        g = "make_tensor(make_gmem_ptr<%s>(%s), %s, %s)" % (ty, addr, shape, stride)
        stages = rng.choice([1, 2, 3])
        sl = "tile_to_shape(GMMA::Layout_%s_Atom<%s>{}, make_shape(Int<%d>{}, Int<%d>{}, Int<%d>{}))" % (atom, ty, bm, bk, stages)
        cluster = rng.choice([1, 1, 2, 4])
        op = "SM90_TMA_LOAD" if cluster == 1 and rng.random() < 0.8 else "SM90_TMA_LOAD_MULTICAST"
        if rng.random() < 0.08:
            op = "SM90_TMA_STORE"
        tiler = "make_shape(Int<%d>{}, Int<%d>{})" % (bm, bk)
        form = rng.choice(["full", "full", "short", "cluster"])
        if form == "full":
            tma = "make_tma_copy(%s{}, %s, %s(_,_,0), %s, Int<%d>{})" % (op, g, sl, tiler, cluster)
        elif form == "cluster":
            tma = "make_tma_copy(%s{}, %s, %s(_,_,0), Int<%d>{})" % (op, g, sl, cluster)
        else:
            tma = "make_tma_copy(%s{}, %s, %s(_,_,0))" % (op, g, sl)
            cluster = 1
        gshape = "make_shape(%d, %d%s)" % (m, k, ", 3" if batched else "")
        mt = "%s.get_tma_tensor(%s)" % (tma, gshape)
        out.append(case("tma", mt))
        # decltype does not run make_tma_copy_desc's asserts: only for a legal TMA.
        for mem in ([] if flipped else ["Tiler_MN", "TiledLayout_TV"]):
            out.append(case("tma", "typename decltype(%s)::%s{}" % (tma, mem)))
        bn = rng.choice([64, 128])
        crd = "make_coord(%d, %d, _%s)" % (rng.randrange(m // bm), rng.randrange(4), ", %d" % rng.randrange(3) if batched else "")
        ga = "local_tile(%s, make_shape(Int<%d>{}, Int<%d>{}, Int<%d>{}), %s, Step<_1, X, _1>{})" % (
            mt, bm, bn, bk, crd)
        if batched:
            ga = "local_tile(%s, make_shape(Int<%d>{}, Int<%d>{}, Int<%d>{}), %s, Step<_1, X, _1, _1>{})" % (
                mt, bm, bn, bk, crd)
            ga = "local_tile(%s, make_shape(Int<%d>{}, Int<%d>{}), make_coord(%d, _, %d))" % (
                mt, bm, bk, rng.randrange(m // bm), rng.randrange(3))
        out.append(case("tma", ga))
        sa = "make_tensor(make_smem_ptr<%s>(nullptr), %s)" % (ty, sl)
        ctas = list(range(cluster)) if cluster <= 2 else [0, rng.randrange(1, cluster), cluster - 1]
        for c in ctas:
            for side in (0, 1):
                if cluster == 1 and rng.random() < 0.5:
                    call = "tma_partition(%s, group_modes<0,2>(%s), group_modes<0,2>(%s))" % (tma, sa, ga)
                else:
                    call = "tma_partition(%s, %s, make_layout(Int<%d>{}), group_modes<0,2>(%s), group_modes<0,2>(%s))" % (
                        tma, c if c else "Int<0>{}", cluster, sa, ga)
                out.append(case("tma_partition", "get<%d>(%s)" % (side, call)))
        th = rng.randrange(cluster)
        out.append(case("tma_partition", "%s.get_slice(%d).partition_S(%s)" % (tma, th, ga)))
        out.append(case("tma_partition", "%s.get_slice(%d).partition_D(%s)" % (tma, th, sa)))
        out.append(case("tma", "make_tma_atom(%s{}, %s, %s(_,_,0), %s, Int<%d>{}).get_tma_tensor(%s)" % (
            op, g, sl, tiler, cluster, gshape)))
    # Refused: a register tensor, a smem tile longer than the gmem, a non-TMA op, a tile of
    # the wrong size, a partition of mismatched modes.
    sl = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, make_shape(Int<64>{}, Int<64>{}))"
    g = "make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(256, 256), make_stride(256, Int<1>{}))"
    # A tile longer than the tensor (a residue) and a 400-byte row pitch are legal.
    out.append(case("tma", "make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(Int<32>{}, Int<64>{}), make_stride(Int<64>{}, Int<1>{})), %s).get_tma_tensor(make_shape(Int<32>{}, Int<64>{}))" % sl))
    for bad in ["make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(256, 256), make_stride(100, Int<1>{})), %s).get_tma_tensor(make_shape(256, 256))" % sl,
                "make_tma_copy(SM90_TMA_LOAD{}, %s, %s, make_shape(Int<64>{}, Int<32>{}), Int<1>{})" % (g, sl),
                "make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(256, 256), make_stride(Int<1>{}, 256)), %s)" % sl,
                "make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr<half_t>((void*)0x1002), make_shape(256, 256), make_stride(256, Int<1>{})), %s)" % sl,
                "make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr<half_t>(nullptr), make_shape(256, 256), make_stride(200, Int<1>{})), %s).get_tma_tensor(make_shape(256, 256))" % sl,
                "get<0>(tma_partition(make_tma_copy(SM90_TMA_LOAD{}, %s, %s), make_tensor(make_smem_ptr<half_t>(nullptr), %s), make_identity_tensor(make_shape(Int<64>{}, Int<32>{}))))" % (g, sl, sl)]:
        out.append(case("tma", bad.replace("((void*)0x1002)", "(0x1002)")))
    return out


def tmem_copy_cases(rng):
    """make_tmem_copy and make_utccp_copy over UMMA accumulators in TMEM: the copy's
    Tiler_MN and TiledLayout_TV, a thread's partition of the accumulator and of a gmem
    tile; the atoms whose memory the accumulator does not hold are refused."""
    out = []
    tsv = os.path.join(HERE, "..", "..", "crates", "cute-core", "src", "atoms.tsv")
    names = sorted(set(re.findall(r"\b(SM100_(?:TMEM_LOAD|TMEM_STORE|UTCCP)_[A-Za-z0-9_]+)", open(tsv).read())))
    tmem_ops = [n for n in names if "TMEM" in n]
    utccp = [n for n in names if "UTCCP" in n]
    accs = []
    for c, bits in [("float", 32), ("half_t", 16)]:
        for m, n in [(128, 256), (128, 64), (64, 128), (64, 32)]:
            accs.append(("SM100_MMA_F16BF16_SS<half_t, half_t, %s, %d, %d, UMMA::Major::K, UMMA::Major::K>" % (c, m, n), m, n, c))
    accs.append(("SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 256, 128, UMMA::Major::K, UMMA::Major::K>", 256, 128, "float"))
    for _ in range(44):
        mma, m, n, c = rng.choice(accs)
        op = rng.choice(tmem_ops)
        acc = "partition_fragment_C(make_tiled_mma(%s{}), make_shape(Int<%d>{}, Int<%d>{}))(make_coord(_,_),_0{},_0{})" % (mma, m, n)
        form = rng.choice(["op", "atom"])
        atom = "%s{}" % op if form == "op" else "Copy_Atom<%s, %s>{}" % (op, c)
        cp = "make_tmem_copy(%s, %s)" % (atom, acc)
        for mem in ["Tiler_MN", "TiledLayout_TV"]:
            out.append(case("tmem_copy", "typename decltype(%s)::%s{}" % (cp, mem)))
        for t in rng.sample([0, 1, 37, 127], 2):
            out.append(case("tmem_copy", "%s.get_slice(%d).partition_S(%s)" % (cp, t, acc)))
            g = "make_tensor(make_gmem_ptr<%s>(nullptr), make_shape(Int<%d>{}, Int<%d>{}), LayoutRight{})" % (c, m, n)
            out.append(case("tmem_copy", "%s.get_slice(%d).partition_D(%s)" % (cp, t, g)))
    for op in utccp:
        mma, m, n, c = rng.choice(accs[:4] + accs[-1:])
        acc = "partition_fragment_C(make_tiled_mma(%s{}), make_shape(Int<%d>{}, Int<%d>{}))(make_coord(_,_),_0{},_0{})" % (mma, m, n)
        cp = "make_utccp_copy(%s{}, %s)" % (op, acc)
        for mem in ["Tiler_MN", "TiledLayout_TV"]:
            out.append(case("utccp_copy", "typename decltype(%s)::%s{}" % (cp, mem)))
    # Refused: not a TMEM tensor, a wider atom than the tensor's values.
    out.append(case("tmem_copy", "make_tmem_copy(SM100_TMEM_LOAD_32dp32b8x{}, make_tensor(make_smem_ptr<float>(nullptr), make_shape(Int<128>{}, Int<256>{})))"))
    out.append(case("tmem_copy", "typename decltype(make_tmem_copy(Copy_Atom<SM100_TMEM_LOAD_32dp32b8x, double>{}, %s))::Tiler_MN{}" % (
        "partition_fragment_C(make_tiled_mma(%s{}), make_shape(Int<128>{}, Int<256>{}))(make_coord(_,_),_0{},_0{})" % accs[0][0])))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oracle-dir", default=os.environ.get("ORACLE_DIR", "oracle-work"))
    ap.add_argument("--out", default=OUT)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--batch", type=int, default=80)
    ap.add_argument("--only", help="regenerate only these ops (comma-separated); the other lines of --out are kept")
    a = ap.parse_args()
    cs = cases()
    kept = []
    if a.only:
        only = a.only.split(",")
        cs = [c for c in cs if c.op in only]
        with open(a.out) as f:
            kept = [json.loads(line) for line in f if json.loads(line)["op"] not in only]
    print("%d cases" % len(cs), file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        o = descs.Oracle(a.oracle_dir, tmp)
        batches = [cs[i:i + a.batch] for i in range(0, len(cs), a.batch)]
        with cf.ThreadPoolExecutor(a.j) as ex:
            list(ex.map(o.batch, batches))
    with open(a.out, "w") as f:
        for row in kept:
            f.write(json.dumps(row) + "\n")
        for c in cs:
            expect = re.sub(r"\(0x7ff[0-9a-f]+(\.\d)?\)", r"(stack\1)", c.expect)
            f.write(json.dumps({"op": c.op, "expr": c.expr, "expect": expect}) + "\n")
    errors = sum(c.expect == "error" for c in cs)
    print("wrote %d cases (%d refused by C++) to %s" % (len(cs), errors, a.out), file=sys.stderr)


if __name__ == "__main__":
    main()
