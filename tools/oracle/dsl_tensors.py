#!/usr/bin/env python3
"""CuTeDSL golden lines for tensors and partitions.

Writes `testdata/dsl-tensor-cases.jsonl`, one JSON object a line:

  {"op", "code", "dsl", "expect"[, "cpp_expect", "dsl_differs"]}

* `code`: a CuTeDSL (Python) block as DSL users write it; its last statement is an
  expression (the value printed).
* `dsl`: what the real CuTeDSL printed for that value: its trace-time `print` (a tensor is
  `tensor<ptr<f16, smem> o (8):(4)>`) and, for a tensor or a pointer, `@ ` and the
  run-time `cute.printf` of its iterator (`raw_ptr(0x...1002: f16, smem, align<2>)`,
  `(0,28)` for a counting tensor): the trace-time print of a pointer has no address.
* `expect`: the value as CuTe C++ `cute::print` prints it (static `_` dropped), which is
  what `cute_lang::eval_block(code)` must print. It is the C++ oracle's print of the same
  configuration spelled in C++ (every line has one; the spelling is not stored). Where the
  normalised DSL print differs from C++, C++ wins and `dsl_differs` holds the normalised
  DSL print. Where C++ refuses a configuration the DSL accepts (a `static_assert`), the
  line's `expect` is `error`, `cpp_error` is C++'s message and `dsl_differs` the DSL's
  value: the language must refuse it too.

Host tracing: `@cute.jit` functions are traced, compiled (`cute.compile`) and *run on the
host CPU*; no GPU or driver is needed as long as no kernel is launched. Layouts and
shapes are static at trace time (Python `print` inside the traced function shows them);
pointer addresses are run-time values, so the iterator is printed with `cute.printf` at
run time (the host `cute.printf` of a whole tensor is refused for smem/rmem tensors, and
would read memory for gmem ones). The default target is sm_100a; the SM90 warpgroup MMA
lines run with `CUTE_DSL_ARCH=sm_90a` (the DSL refuses GMMA ops on sm_100a).

Normalisation of a DSL print to C++'s:
* `tensor<ITER o LAYOUT>` -> `ITER' o LAYOUT`, where ITER' is C++'s iterator print:
  `ptr<T, gmem|smem|rmem, ...>` with the run-time address A -> `gmem_ptr[Nb](A)`,
  `smem_ptr[Nb](A)`, `ptr[Nb](A)` (N the element width; A `(nil)` for 0, else `0x%x`; an
  rmem address of the stack (>= 0x7f0000000000: an owning register tensor) -> `(stack)`,
  as the language prints C++'s stack address); a pointer with a swizzle,
  `ptr<f16, smem, S<3,4,3>>` (the DSL's `recast_ptr(p, swz)`, what
  `SmemAllocator.get_tensor(outer, swizzle=inner)` makes) -> `Sw<3,4,3>_smem_ptr[16b](A)`,
  C++'s swizzle pointer; a counting iterator `(0,28)` -> `ArithTuple(0,28)`.
* `S<B,M,S>` -> `Sw<B,M,S>`; a Python tuple's `, ` -> `,`.
* The DSL prints both signed and unsigned 8-bit types as `i8`; only the width is used.

DSL spellings and their C++ equivalents (what `expect` is computed from):
* `cute.make_ptr(T, a, AddressSpace.X)` = `make_X_ptr<T>((void*)a)`; Python integers are
  static: shapes, strides and coordinates are `Int<N>{}` in C++.
* `t[None, 3]` = `t(_, Int<3>{})`; `cute.local_tile(t, tiler, coord, proj=(1, None, 1))` =
  `local_tile(t, tiler, coord, Step<_1, X, _1>{})`.
* `cute.local_partition(t, thr_layout, tidx)` = `local_partition(t, thr_layout, tidx)`; the
  DSL takes only a run-time `cutlass.Int32` index there, so those blocks bind
  `tidx = cutlass.Int32(37)`.
* `cute.make_fragment_like(t[, T])` and `cute.make_rmem_tensor_like(t[, T])` of a tensor
  are C++'s `make_tensor_like<T>(t)` (the DSL documents them as
  `make_rmem_tensor(make_layout_like(t))`; C++'s `make_fragment_like` of a tensor is a
  different layout for rank >= 2), `cute.make_rmem_tensor(shape | layout, T)` is
  `make_tensor<T>(shape | layout)`.
* `thr_mma.make_fragment_A/B/C(part)` = C++'s `thr_mma.make_fragment_A/B/C(part)`;
  `thr_copy.retile(frag)` = `retile_D(frag)`; `cute.make_tiled_copy_tv(atom, thr, val)` =
  `make_tiled_copy(atom, thr, val)`; `cute.recast_tensor(t, T)` = `recast<T>(t)`.
* Atoms: `warp.MmaF16BF16Op(ab, acc, (16,8,K))` = `SM80_16x8xK_{acc}{ab}{ab}{acc}_TN`,
  `warp.LdMatrix8x8x16bOp(transpose, n)` = `SM75_U32x{n}_LDSM_N` / `SM75_U16x{2n}_LDSM_T`,
  `cpasync.CopyG2SOp()` with `num_bits_per_copy=128` = `SM80_CP_ASYNC_CACHEALWAYS<uint128_t>`,
  `CopyUniversalOp()` = `UniversalCopy<uint_bit_t<bits>>`,
  `warpgroup.MmaF16BF16Op(ab, acc, (64,N,16), SMEM|RMEM, a_major, b_major)` =
  `SM90_64xNx16_{acc}{ab}{ab}_SS|RS<GMMA::Major..>`,
  `sm100_utils.make_trivial_tiled_mma(..., CtaGroup.ONE|TWO, (M, N))` =
  `SM100_MMA_F16BF16[_2x1SM]_SS<A, B, Acc, M, N, UMMA::Major::K, UMMA::Major::K>`; the
  smem atoms `warpgroup.make_smem_layout_atom(K_SW128, T)` = `GMMA::Layout_K_SW128_Atom<T>`.
* A GMMA/UMMA descriptor fragment (`make_fragment_A/B` of an SS MMA) cannot be printed by
  the DSL (neither at trace time nor with `cute.printf`); those lines print its `.layout`
  (C++ `.layout()`). An SM100 accumulator (`make_fragment_C` of the UMMA) is a TMEM tensor.

Run (a Python with `nvidia-cutlass-dsl` installed for the DSL, the C++ oracle of
tools/oracle/README.md for `expect`):

    python3 -m venv .venv-dsl && .venv-dsl/bin/pip install nvidia-cutlass-dsl==4.8.1
    ORACLE_DIR=oracle-work python3 tools/oracle/dsl_tensors.py --dsl-python .venv-dsl/bin/python

Options: `--out PATH`, `-j N` (g++ processes), `--keep-tmp`. Python 3, stdlib only (the
DSL runs in a subprocess under `--dsl-python`; the C++ oracle runner is descs.py's).
Deterministic (fixed seed). About 20 minutes on 2 cores: the DSL takes one, the C++ oracle the
rest (the configurations C++ refuses are compiled one by one).
"""
import argparse
import ast
import collections
import concurrent.futures as cf
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import descs  # noqa: E402

descs.HEADERS = descs.HEADERS.replace(
    "#include <cute/atom/mma_atom.hpp>",
    "#include <cute/atom/mma_atom.hpp>\n#include <cute/atom/mma_traits_sm80.hpp>\n"
    "#include <cute/atom/copy_traits_sm75.hpp>\n#include <cute/atom/copy_traits_sm80.hpp>")

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "testdata", "dsl-tensor-cases.jsonl")
SEED = 2222

# DSL dtype -> (C++ type, bits)
DT = {
    "Float16": ("half_t", 16), "BFloat16": ("bfloat16_t", 16), "Float32": ("float", 32),
    "TFloat32": ("tfloat32_t", 32), "Int8": ("int8_t", 8), "Uint8": ("uint8_t", 8),
    "Float64": ("double", 64), "Int32": ("int32_t", 32), "Int4": ("int4b_t", 4),
    "Float4E2M1FN": ("float_e2m1_t", 4), "Float8E4M3FN": ("float_e4m3_t", 8),
    "Float8E5M2": ("float_e5m2_t", 8), "Float6E3M2FN": ("float_e3m2_t", 6), "Float6E2M3FN": ("float_e2m3_t", 6),
}
# DSL element names in prints -> bits
DSL_BITS = {"f16": 16, "bf16": 16, "f32": 32, "tf32": 32, "i8": 8, "f64": 64, "i32": 32, "i16": 16,
            "i64": 64, "f8E4M3FN": 8, "f8E5M2": 8, "i1": 1,
            "i4": 4, "f4E2M1FN": 4, "f6E3M2FN": 6, "f6E2M3FN": 6}
SPACE_CPP = {"gmem": "gmem", "smem": "smem", "rmem": "rmem"}


class Case:
    def __init__(self, op, dsl, cpp, arch="sm_100a"):
        """dsl: Python lines (the last an expression); cpp: C++ statements (the last an
        expression, printed)."""
        self.op, self.arch = op, arch
        self.code = "\n".join(dsl)
        self.cpp_lines = cpp
        self.dsl_out = None
        self.cpp = None


# ---------------------------------------------------------------------------------------
# Spelling helpers: the same value in CuTeDSL and in C++.

def py(x):
    """A Python literal: ints, None, nested tuples."""
    if x is None:
        return "None"
    if isinstance(x, tuple):
        if len(x) == 1:
            return "(%s,)" % py(x[0])
        return "(%s)" % ", ".join(py(e) for e in x)
    return str(x)


def ci(n):
    return "Int<%d>{}" % n


def cshape(x, fn="make_shape"):
    if isinstance(x, tuple):
        return "%s(%s)" % (fn, ", ".join(cshape(e, fn) for e in x))
    return ci(x)


def ccoord(x):
    if x is None:
        return "_"
    if isinstance(x, tuple):
        return "make_coord(%s)" % ", ".join(ccoord(e) for e in x)
    return ci(x)


def cstep(p):
    return "Step<%s>{}" % ", ".join("X" if e is None else "_%d" % e for e in p)


def lay(shape, stride=None):
    """(dsl, cpp) of a layout."""
    if stride is None:
        return "cute.make_layout(%s)" % py(shape), "make_layout(%s)" % cshape(shape)
    return ("cute.make_layout(%s, stride=%s)" % (py(shape), py(stride)),
            "make_layout(%s, %s)" % (cshape(shape), cshape(stride, "make_stride")))


def ptr(dt, addr, space):
    cty = DT[dt][0]
    return ("cute.make_ptr(cutlass.%s, %d, cute.AddressSpace.%s)" % (dt, addr, space),
            "make_%s_ptr<%s>((void*)%d)" % (SPACE_CPP[space], cty, addr))


def row_major(dims):
    s, acc = [], 1
    for d in reversed(dims):
        s.insert(0, acc)
        acc *= d
    return tuple(s)


def col_major(dims):
    s, acc = [], 1
    for d in dims:
        s.append(acc)
        acc *= d
    return tuple(s)


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


class T:
    """A tensor binding: name, its DSL and C++ definitions, dims, dtype."""

    def __init__(self, name, dsl, cpp, dims, dt, space):
        self.name, self.dsl, self.cpp, self.dims, self.dt, self.space = name, dsl, cpp, dims, dt, space

    def defs(self):
        return ["%s = %s" % (self.name, self.dsl)], ["auto %s = %s;" % (self.name, self.cpp)]


def rand_tensor(rng, name, rank=2, space=None, dt=None, dims=None, kinds=None, addr=None):
    space = space or rng.choice(["gmem", "gmem", "smem", "rmem"])
    dt = dt or rng.choice(["Float16", "Float32", "BFloat16", "Int8", "Float64", "Uint8"])
    if addr is None:
        addr = rng.choice([0, 0, 4096, 1024, 256]) if space != "rmem" else rng.choice([4096, 1024])
    dims = dims or tuple(rng.choice([4, 8, 16, 32, 64, 128]) for _ in range(rank))
    kind = rng.choice(kinds or ["col", "row", "pad", "shape", "ordered"])
    p_dsl, p_cpp = ptr(dt, addr, space)
    if kind == "col":
        l_dsl, l_cpp = lay(dims)
    elif kind == "row":
        l_dsl, l_cpp = lay(dims, row_major(dims))
    elif kind == "pad":
        strides, acc = [0] * len(dims), 1
        for i in reversed(range(len(dims))):
            strides[i] = acc
            acc *= dims[i] + (rng.choice([0, 8]) if i > 0 else 0)
        l_dsl, l_cpp = lay(dims, tuple(strides))
    elif kind == "shape":
        l_dsl, l_cpp = py(dims), cshape(dims)
    else:  # ordered: the DSL's make_ordered_layout, order a permutation
        order = list(range(len(dims)))
        rng.shuffle(order)
        order = tuple(order)
        l_dsl = "cute.make_ordered_layout(%s, order=%s)" % (py(dims), py(order))
        l_cpp = "make_ordered_layout(%s, make_tuple(%s))" % (cshape(dims), ", ".join(ci(o) for o in order))
    return T(name, "cute.make_tensor(%s, %s)" % (p_dsl, l_dsl), "make_tensor(%s, %s)" % (p_cpp, l_cpp),
             dims, dt, space)


def with_tensor(op, t, dsl_expr, cpp_expr, arch="sm_100a"):
    d, c = t.defs()
    return Case(op, d + [dsl_expr], c + [cpp_expr], arch)


# ---------------------------------------------------------------------------------------
# MMA and copy atoms.

def sm80_mma(ab, acc, k):
    a, c = {"Float16": "F16", "BFloat16": "BF16"}[ab], {"Float16": "F16", "Float32": "F32"}[acc]
    return ("warp.MmaF16BF16Op(cutlass.%s, cutlass.%s, (16, 8, %d))" % (ab, acc, k),
            "SM80_16x8x%d_%s%s%s%s_TN{}" % (k, c, a, a, c))


def tiled_mma(op, atom_layout, perm=None, tuple_form=False):
    d_op, c_op = op
    d_l = py(atom_layout) if tuple_form else "cute.make_layout(%s)" % py(atom_layout)
    c_l = "Layout<Shape<%s>>{}" % ",".join("_%d" % x for x in atom_layout)
    if perm is None:
        return "cute.make_tiled_mma(%s, %s)" % (d_op, d_l), "make_tiled_mma(%s, %s)" % (c_op, c_l)
    return ("cute.make_tiled_mma(%s, %s, permutation_mnk=%s)" % (d_op, d_l, py(perm)),
            "make_tiled_mma(%s, %s, Tile<%s>{})" % (c_op, c_l, ",".join("_%d" % x for x in perm)))


def sm90_mma(ab, acc, n, src="SMEM", am="K", bm="K"):
    a, c = {"Float16": "F16", "BFloat16": "BF16"}[ab], {"Float16": "F16", "Float32": "F32"}[acc]
    return ("warpgroup.MmaF16BF16Op(cutlass.%s, cutlass.%s, (64, %d, 16), warpgroup.OperandSource.%s, "
            "cute.nvgpu.OperandMajorMode.%s, cute.nvgpu.OperandMajorMode.%s)" % (ab, acc, n, src, am, bm),
            "SM90_64x%dx16_%s%s%s_%s<GMMA::Major::%s, GMMA::Major::%s>{}" % (
                n, c, a, a, "SS" if src == "SMEM" else "RS", am, bm))


def sm100_mma(ab, m, n, two=False):
    cty = DT[ab][0]
    return ("sm100_utils.make_trivial_tiled_mma(cutlass.%s, tcgen05.OperandMajorMode.K, "
            "tcgen05.OperandMajorMode.K, cutlass.Float32, tcgen05.CtaGroup.%s, (%d, %d))"
            % (ab, "TWO" if two else "ONE", m, n),
            "make_tiled_mma(SM100_MMA_F16BF16%s_SS<%s, %s, float, %d, %d, UMMA::Major::K, UMMA::Major::K>{})"
            % ("_2x1SM" if two else "", cty, cty, m, n))


def g2s_atom(dt, bits, cache="ALWAYS"):
    d_op = "cpasync.CopyG2SOp()" if cache == "ALWAYS" else \
        "cpasync.CopyG2SOp(cache_mode=cpasync.LoadCacheMode.GLOBAL)"
    return ("cute.make_copy_atom(%s, cutlass.%s, num_bits_per_copy=%d)" % (d_op, dt, bits),
            "Copy_Atom<SM80_CP_ASYNC_CACHE%s<uint%d_t>, %s>{}" % (cache, bits, DT[dt][0]))


def universal_atom(dt, bits):
    return ("cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.%s, num_bits_per_copy=%d)" % (dt, bits),
            "Copy_Atom<UniversalCopy<uint%d_t>, %s>{}" % (bits, DT[dt][0]))


def ldsm_atom(dt, transpose, n):
    cpp = ("SM75_U16x%d_LDSM_T" % (2 * n)) if transpose else ("SM75_U32x%d_LDSM_N" % n)
    return ("cute.make_copy_atom(warp.LdMatrix8x8x16bOp(%s, %d), cutlass.%s)" % (transpose, n, dt),
            "Copy_Atom<%s, %s>{}" % (cpp, DT[dt][0]))


def threads(n):
    return sorted({0, 1, 37 % n, 127 % n, n - 1})


# ---------------------------------------------------------------------------------------

def cases():
    rng = random.Random(SEED)
    out = []

    # Pointers.
    for space in ["gmem", "smem", "rmem"]:
        for dt in ["Float16", "Float32", "BFloat16", "Int8", "Float64", "TFloat32"]:
            for addr in ([0, 4096] if space != "rmem" else [4096]):
                d, c = ptr(dt, addr, space)
                out.append(Case("make_ptr", [d], [c]))
    for space in ["gmem", "smem"]:
        d, c = ptr("Float16", 1024, space)
        out.append(Case("make_ptr", [d[:-1] + ", assumed_align=16)"], [c]))

    # make_tensor in its spellings.
    for i in range(45):
        t = rand_tensor(rng, "t", rng.choice([1, 2, 2, 3]))
        out.append(Case("make_tensor", [t.dsl], [t.cpp]))
    for dsl_l, cpp_l in [(("cute.make_layout(((8, 4), 2), stride=((1, 16), 8))"),
                          "make_layout(make_shape(make_shape(_8{}, _4{}), _2{}), make_stride(make_stride(_1{}, _16{}), _8{}))"),
                         ("cute.make_layout((4, (2, 8)), stride=(16, (8, 1)))",
                          "make_layout(make_shape(_4{}, make_shape(_2{}, _8{})), make_stride(_16{}, make_stride(_8{}, _1{})))"),
                         ("cute.make_layout(8, stride=2)", "make_layout(_8{}, _2{})"),
                         ("cute.make_layout((8, 4), stride=(0, 1))", "make_layout(make_shape(_8{}, _4{}), make_stride(_0{}, _1{}))")]:
        for space in ["gmem", "smem"]:
            p = ptr("Float32", 4096, space)
            out.append(Case("make_tensor", ["cute.make_tensor(%s, %s)" % (p[0], dsl_l)],
                            ["make_tensor(%s, %s)" % (p[1], cpp_l)]))

    # Slicing.
    for i in range(40):
        t = rand_tensor(rng, "mA", 2)
        j, k = rng.randrange(t.dims[0]), rng.randrange(t.dims[1])
        form = rng.choice(["col", "row", "colt", "all"])
        if form == "col":
            d, c = "mA[None, %d]" % k, "mA(_, %s)" % ci(k)
        elif form == "row":
            d, c = "mA[%d, None]" % j, "mA(%s, _)" % ci(j)
        elif form == "colt":
            d, c = "mA[(None, %d)]" % k, "mA(make_coord(_, %s))" % ci(k)
        else:
            d, c = "mA[None, None]", "mA(_, _)"
        out.append(with_tensor("slice", t, d, c))
    for i in range(15):
        t = rand_tensor(rng, "mA", 3)
        a, b, l = (rng.randrange(x) for x in t.dims)
        d, c = rng.choice([("mA[None, None, %d]" % l, "mA(_, _, %s)" % ci(l)),
                           ("mA[%d, None, %d]" % (a, l), "mA(%s, _, %s)" % (ci(a), ci(l))),
                           ("mA[None, %d, None]" % b, "mA(_, %s, _)" % ci(b))])
        out.append(with_tensor("slice", t, d, c))
    # A hierarchical coordinate: the tile of a zipped_divide, as kernels pick their block.
    for i in range(10):
        t = rand_tensor(rng, "mA", 2, kinds=["row", "col"])
        tile = tuple(rng.choice(divisors(x)[-3:]) for x in t.dims)
        bx, by = rng.randrange(t.dims[0] // tile[0]), rng.randrange(t.dims[1] // tile[1])
        out.append(with_tensor("slice", t, "cute.zipped_divide(mA, %s)[(None, None), (%d, %d)]" % (py(tile), bx, by),
                               "zipped_divide(mA, %s)(make_coord(_, _), make_coord(%s, %s))" % (cshape(tile), ci(bx), ci(by))))

    # Identity (counting) tensors.
    for i in range(12):
        dims = tuple(rng.choice([8, 16, 32, 64, 128]) for _ in range(2))
        idn = ("cute.make_identity_tensor(%s)" % py(dims), "make_identity_tensor(%s)" % cshape(dims))
        out.append(Case("identity", [idn[0]], [idn[1]]))
        k = rng.randrange(dims[1])
        out.append(Case("identity", ["cI = %s" % idn[0], "cI[None, %d]" % k],
                        ["auto cI = %s;" % idn[1], "cI(_, %s)" % ci(k)]))
        tile = tuple(rng.choice(divisors(d)[-3:]) for d in dims)
        crd = tuple(rng.randrange(d // t) for d, t in zip(dims, tile))
        out.append(Case("identity", ["cI = %s" % idn[0], "cute.local_tile(cI, %s, %s)" % (py(tile), py(crd))],
                        ["auto cI = %s;" % idn[1], "local_tile(cI, %s, %s)" % (cshape(tile), ccoord(crd))]))
    for dims in [(4, 8, 2), (4, (2, 3)), (128, 64, 3)]:
        out.append(Case("identity", ["cute.make_identity_tensor(%s)" % py(dims)],
                        ["make_identity_tensor(%s)" % cshape(dims)]))
    for thr in [0, 9, 37, 127]:
        out.append(Case("identity", ["tidx = cutlass.Int32(%d)" % thr,
                                     "cute.local_partition(cute.make_identity_tensor((64, 64)), cute.make_layout((16, 8)), tidx)"],
                        ["int tidx = %d;" % thr,
                         "local_partition(make_identity_tensor(make_shape(_64{}, _64{})), make_layout(make_shape(_16{}, _8{})), tidx)"]))

    # local_tile.
    for i in range(35):
        rank = rng.choice([2, 2, 3])
        t = rand_tensor(rng, "mA", rank)
        tile = tuple(rng.choice(divisors(d)[-4:]) for d in t.dims)
        crd = tuple(None if rng.random() < 0.2 else rng.randrange(d // s) for d, s in zip(t.dims, tile))
        if rng.random() < 0.3:
            d = "cute.local_tile(mA, tiler=%s, coord=%s)" % (py(tile), py(crd))
        else:
            d = "cute.local_tile(mA, %s, %s)" % (py(tile), py(crd))
        out.append(with_tensor("local_tile", t, d, "local_tile(mA, %s, %s)" % (cshape(tile), ccoord(crd))))
    # The GEMM's projections: the (M,N,K) CTA tiler on (M,K,L), (N,K,L) and (M,N,L) tensors.
    for i in range(24):
        M, N, K, L = rng.choice([256, 512]), rng.choice([256, 512]), rng.choice([64, 128, 256]), rng.choice([1, 2])
        bm, bn, bk = rng.choice([64, 128]), rng.choice([64, 128]), rng.choice([32, 64])
        which = rng.choice("ABC")
        dt = rng.choice(["Float16", "BFloat16"]) if which != "C" else "Float32"
        dims, proj, cpp_proj = {"A": ((M, K, L), (1, None, 1), "Step<_1, X, _1>{}"),
                                "B": ((N, K, L), (None, 1, 1), "Step<X, _1, _1>{}"),
                                "C": ((M, N, L), (1, 1, None), "Step<_1, _1, X>{}")}[which]
        t = rand_tensor(rng, "m" + which, 3, space="gmem", dt=dt, dims=dims, kinds=["row", "col"])
        coord = (rng.randrange(M // bm), rng.randrange(N // bn), None)
        slice_l = rng.randrange(L)
        d = ["m%s_l = m%s[None, None, %d]" % (which, which, slice_l),
             "cute.local_tile(m%s_l, %s, %s, proj=%s)" % (which, py((bm, bn, bk)), py(coord), py(proj))]
        c = ["auto m%s_l = m%s(_, _, %s);" % (which, which, ci(slice_l)),
             "local_tile(m%s_l, %s, %s, %s)" % (which, cshape((bm, bn, bk)), ccoord(coord), cpp_proj)]
        dd, cc = t.defs()
        out.append(Case("local_tile_proj", dd + d, cc + c))

    # local_partition.
    for i in range(36):
        t = rand_tensor(rng, "gA", 2)
        thr = (rng.choice([x for x in divisors(t.dims[0]) if x <= 32]), rng.choice([x for x in divisors(t.dims[1]) if x <= 16]))
        if rng.random() < 0.5:
            tl = lay(thr)
        else:
            tl = lay(thr, (thr[1], 1))
        idx = rng.randrange(thr[0] * thr[1])
        dd, cc = t.defs()
        out.append(Case("local_partition", dd + ["tA = %s" % tl[0], "tidx = cutlass.Int32(%d)" % idx,
                                                  "cute.local_partition(gA, tA, tidx)"],
                        cc + ["auto tA = %s;" % tl[1], "int tidx = %d;" % idx, "local_partition(gA, tA, tidx)"]))
    # With a projection (the thread layout of (M,N,K) on an (M,K) tile).
    for i in range(4):
        t = rand_tensor(rng, "gA", 2, dims=(64, 32), kinds=["row", "col"])
        idx = rng.randrange(256)
        dd, cc = t.defs()
        out.append(Case("local_partition", dd + ["tC = cute.make_layout((16, 16, 1))", "tidx = cutlass.Int32(%d)" % idx,
                                                  "cute.local_partition(gA, tC, tidx, proj=(1, None, 1))"],
                        cc + ["auto tC = make_layout(make_shape(_16{}, _16{}, _1{}));", "int tidx = %d;" % idx,
                              "local_partition(gA, tC, tidx, Step<_1, X, _1>{})"]))

    # The layout algebra of tensors.
    for i in range(14):
        rank = rng.choice([2, 2, 3])
        t = rand_tensor(rng, "t", rank)
        tile = tuple(rng.choice(divisors(d)[-4:]) for d in t.dims[:2])
        for f in ["zipped_divide", "logical_divide", "flat_divide", "tiled_divide"]:
            out.append(with_tensor("tensor_algebra", t, "cute.%s(t, %s)" % (f, py(tile)), "%s(t, %s)" % (f, cshape(tile))))
        out.append(with_tensor("tensor_algebra", t, "cute.coalesce(t)", "coalesce(t)"))
        out.append(with_tensor("tensor_algebra", t, "cute.flatten(cute.zipped_divide(t, %s))" % py(tile),
                               "flatten(zipped_divide(t, %s))" % cshape(tile)))
        if rank == 3:
            out.append(with_tensor("tensor_algebra", t, "cute.group_modes(t, 0, 2)", "group_modes<0, 2>(t)"))
            out.append(with_tensor("tensor_algebra", t, "cute.group_modes(t, 1, 3)", "group_modes<1, 3>(t)"))
    # Layout tilers (a stride in the tiler).
    for i in range(6):
        t = rand_tensor(rng, "t", 2, dims=(64, 32))
        out.append(with_tensor("tensor_algebra", t, "cute.zipped_divide(t, (cute.make_layout(8, stride=2), 8))",
                               "zipped_divide(t, make_tile(make_layout(_8{}, _2{}), _8{}))"))
    out.append(Case("tensor_algebra", ["cute.zipped_divide(cute.make_identity_tensor((128, 64)), (32, 16))"],
                    ["zipped_divide(make_identity_tensor(make_shape(_128{}, _64{})), make_shape(_32{}, _16{}))"]))
    out.append(Case("tensor_algebra", ["cute.coalesce(cute.make_identity_tensor((64, 32)))"],
                    ["coalesce(make_identity_tensor(make_shape(_64{}, _32{})))"]))
    for i in range(6):
        t = rand_tensor(rng, "t", 2, space=rng.choice(["gmem", "smem"]))
        c = (rng.randrange(t.dims[0]), rng.randrange(t.dims[1]))
        out.append(with_tensor("domain_offset", t, "cute.domain_offset(%s, t)" % py(c), "domain_offset(%s, t)" % ccoord(c)))

    # recast_tensor.
    for new in ["Int32", "Uint8", "Float16", "Float32"]:
        for i in range(4):
            t = rand_tensor(rng, "t", 2, space=rng.choice(["gmem", "smem"]), dt=rng.choice(["Float16", "Int8", "Float32"]),
                            kinds=["row", "col"], dims=(rng.choice([8, 16, 32]), rng.choice([16, 32, 64])))
            out.append(with_tensor("recast", t, "cute.recast_tensor(t, cutlass.%s)" % new, "recast<%s>(t)" % DT[new][0]))

    # Register tensors.
    for i in range(10):
        t = rand_tensor(rng, "t", rng.choice([2, 3]), space=rng.choice(["gmem", "smem"]))
        out.append(with_tensor("fragment", t, "cute.make_fragment_like(t)", "make_tensor_like(t)"))
        out.append(with_tensor("fragment", t, "cute.make_rmem_tensor_like(t, cutlass.Float32)", "make_tensor_like<float>(t)"))
        out.append(with_tensor("fragment", t, "cute.make_fragment_like(t, cutlass.Float32)", "make_tensor_like<float>(t)"))
    for dt in ["Float32", "Float16", "Int8"]:
        for shape, stride in [((4, 8), None), ((8,), None), ((4, 2, 2), None), ((4, 8), (8, 1)), (((2, 2), 4), ((1, 8), 2))]:
            l = lay(shape, stride)
            if stride is None and rng.random() < 0.5:
                out.append(Case("fragment", ["cute.make_rmem_tensor(%s, cutlass.%s)" % (py(shape), dt)],
                                ["make_tensor<%s>(%s)" % (DT[dt][0], cshape(shape))]))
            else:
                out.append(Case("fragment", ["cute.make_rmem_tensor(%s, cutlass.%s)" % (l[0], dt)],
                                ["make_tensor<%s>(%s)" % (DT[dt][0], l[1])]))

    # Swizzled shared memory: the DSL's smem atoms, as a kernel's SmemAllocator makes them
    # (the swizzle moved into the pointer) and as a plain make_tensor over the composed layout.
    for kind, cpp_atom, tile in [("K_SW128", "GMMA::Layout_K_SW128_Atom", (128, 64)), ("K_SW64", "GMMA::Layout_K_SW64_Atom", (64, 64)),
                                 ("MN_SW128", "GMMA::Layout_MN_SW128_Atom", (128, 64)), ("K_SW32", "GMMA::Layout_K_SW32_Atom", (64, 32))]:
        for dt in ["Float16", "Float32"]:
            cty = DT[dt][0]
            d0 = ["sl = cute.tile_to_shape(warpgroup.make_smem_layout_atom(warpgroup.SmemLayoutAtomKind.%s, cutlass.%s), %s, (0, 1))"
                  % (kind, dt, py(tile)),
                  "sA = cute.make_tensor(cute.recast_ptr(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.smem), sl.inner, dtype=cutlass.%s), sl.outer)" % (dt, dt)]
            c0 = ["auto sA = make_tensor(make_smem_ptr<%s>((void*)0), tile_to_shape(%s<%s>{}, %s, Step<_1, _2>{}));"
                  % (cty, cpp_atom, cty, cshape(tile))]
            out.append(Case("smem_swizzle", d0 + ["sA"], c0 + ["sA"]))
            out.append(Case("smem_swizzle", d0 + ["sA[None, 3]"], c0 + ["sA(_, _3{})"]))
            out.append(Case("smem_swizzle", d0 + ["sA[5, None]"], c0 + ["sA(_5{}, _)"]))
            bm = tile[0] // 64 - 1
            out.append(Case("smem_swizzle", d0 + ["cute.local_tile(sA, (64, 16), (%d, 1))" % bm],
                            c0 + ["local_tile(sA, make_shape(_64{}, _16{}), make_coord(_%d{}, _1{}))" % bm]))
    # An element-unit swizzle (the SM80 examples' make_composed_layout(make_swizzle(..), 0, ..)).
    for bms, inner, tile in [((3, 3, 3), ((8, 64), (64, 1)), (128, 64)), ((2, 3, 3), ((8, 32), (32, 1)), (64, 32)),
                             ((3, 4, 3), ((8, 64), (64, 1)), (128, 64))]:
        d0 = ["sl = cute.tile_to_shape(cute.make_composed_layout(cute.make_swizzle(%d, %d, %d), 0, cute.make_layout(%s, stride=%s)), %s, (0, 1))"
              % (bms[0], bms[1], bms[2], py(inner[0]), py(inner[1]), py(tile)),
              "sA = cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem), sl)"]
        c0 = ["auto sl = tile_to_shape(composition(Swizzle<%d,%d,%d>{}, %s), %s, Step<_1, _2>{});"
              % (bms + (lay(inner[0], inner[1])[1], cshape(tile))),
              "auto sA = make_tensor(make_smem_ptr<half_t>((void*)0), sl);"]
        out.append(Case("smem_swizzle", d0 + ["sA"], c0 + ["sA"]))
        out.append(Case("smem_swizzle", d0 + ["sA[None, 9]"], c0 + ["sA(_, _9{})"]))
        out.append(Case("smem_swizzle", d0 + ["sA[3, None]"], c0 + ["sA(_3{}, _)"]))

    # SM80 warp MMA: a thread's partition_A/B/C and its fragments.
    mmas = [("Float16", "Float32", 16), ("Float16", "Float16", 16), ("BFloat16", "Float32", 16), ("Float16", "Float32", 8)]
    for ab, acc, k in mmas:
        for atom_layout, perm in [((2, 2, 1), None), ((1, 1, 1), None), ((2, 2, 1), (32, 32, 16))]:
            if perm is not None and (ab, acc, k) != ("Float16", "Float32", 16):
                continue
            tm = tiled_mma(sm80_mma(ab, acc, k), atom_layout, perm, tuple_form=rng.random() < 0.3)
            nthr = 32 * atom_layout[0] * atom_layout[1]
            tiles = {"A": (16 * atom_layout[0], k), "B": (8 * atom_layout[1] * (2 if perm else 1), k),
                     "C": (16 * atom_layout[0], 8 * atom_layout[1] * (2 if perm else 1))}
            for which in "ABC":
                for thr in threads(nthr):
                    x, y = tiles[which]
                    X, Y = x * rng.choice([1, 2, 4]), y * rng.choice([1, 2])
                    dt = acc if which == "C" else ab
                    space = "gmem" if which == "C" else "smem"
                    kind = rng.choice(["row", "col"])
                    t = rand_tensor(rng, "t" + which, 2, space=space, dt=dt, dims=(X, Y), kinds=[kind], addr=0)
                    dd, cc = t.defs()
                    out.append(Case("partition_" + which,
                                    ["tiled_mma = " + tm[0]] + dd + ["thr_mma = tiled_mma.get_slice(%d)" % thr,
                                                                    "thr_mma.partition_%s(t%s)" % (which, which)],
                                    ["auto tiled_mma = " + tm[1] + ";"] + cc + ["auto thr_mma = tiled_mma.get_slice(%d);" % thr,
                                                                               "thr_mma.partition_%s(t%s)" % (which, which)]))
                    if thr in (0, 37 % nthr, nthr - 1) and perm is None and atom_layout == (2, 2, 1):
                        out.append(Case("fragment_" + which,
                                        ["tiled_mma = " + tm[0]] + dd + ["thr_mma = tiled_mma.get_slice(%d)" % thr,
                                                                        "tCt = thr_mma.partition_%s(t%s)" % (which, which),
                                                                        "thr_mma.make_fragment_%s(tCt)" % which],
                                        ["auto tiled_mma = " + tm[1] + ";"] + cc + ["auto thr_mma = tiled_mma.get_slice(%d);" % thr,
                                                                                   "auto tCt = thr_mma.partition_%s(t%s);" % (which, which),
                                                                                   "thr_mma.make_fragment_%s(tCt)" % which]))
    # The SM80 mainloop's rank-3 smem (a stage mode) with an element-unit swizzle, as the
    # DSL's Ampere tensorop GEMM builds it.
    for thr in [0, 1, 37, 127]:
        d0 = ["tiled_mma = cute.make_tiled_mma(warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16)), cute.make_layout((2, 2, 1)), permutation_mnk=(32, 32, 16))",
              "sA_layout = cute.tile_to_shape(cute.make_composed_layout(cute.make_swizzle(3, 3, 3), 0, cute.make_layout((8, 64), stride=(64, 1))), (128, 64, 3), (0, 1, 2))",
              "sA = cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem), sA_layout)",
              "thr_mma = tiled_mma.get_slice(%d)" % thr]
        c0 = ["auto tiled_mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{});",
              "auto sA_layout = tile_to_shape(composition(Swizzle<3,3,3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}))), make_shape(_128{}, _64{}, _3{}), Step<_1, _2, _3>{});",
              "auto sA = make_tensor(make_smem_ptr<half_t>((void*)0), sA_layout);",
              "auto thr_mma = tiled_mma.get_slice(%d);" % thr]
        out.append(Case("partition_rank3", d0 + ["thr_mma.partition_A(sA)"], c0 + ["thr_mma.partition_A(sA)"]))
        out.append(Case("partition_rank3", d0 + ["tCsA = thr_mma.partition_A(sA)", "tiled_mma.make_fragment_A(tCsA[None, None, None, 0])"],
                        c0 + ["auto tCsA = thr_mma.partition_A(sA);", "tiled_mma.make_fragment_A(tCsA(_, _, _, _0{}))"]))
        # The plain (row-major) stage tensor too.
        d1 = d0[:1] + ["sB = cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem), cute.make_layout((64, 64, 3), stride=(64, 1, 4096)))",
                       d0[3]]
        c1 = c0[:1] + ["auto sB = make_tensor(make_smem_ptr<half_t>((void*)0), make_layout(make_shape(_64{}, _64{}, _3{}), make_stride(_64{}, _1{}, _4096{})));",
                       c0[3]]
        out.append(Case("partition_rank3", d1 + ["thr_mma.partition_B(sB)"], c1 + ["thr_mma.partition_B(sB)"]))

    # SM80 copies: cp.async and universal G2S tiled copies, partition_S/D.
    for atom, thr_l, val_l in [(g2s_atom("Float16", 128), (32, 4), (1, 8)), (g2s_atom("Float16", 128, "GLOBAL"), (16, 8), (1, 8)),
                               (g2s_atom("Float32", 128), (32, 8), (1, 4)), (universal_atom("Float32", 64), (8, 16), (1, 2)),
                               (universal_atom("Float16", 32), (32, 8), (2, 1))]:
        nthr = thr_l[0] * thr_l[1]
        tc = ("cute.make_tiled_copy_tv(%s, cute.make_layout(%s, stride=(%d, 1)), cute.make_layout(%s))" % (atom[0], py(thr_l), thr_l[1], py(val_l)),
              "make_tiled_copy(%s, Layout<Shape<_%d,_%d>,Stride<_%d,_1>>{}, Layout<Shape<_%d,_%d>>{})" % (atom[1], thr_l[0], thr_l[1], thr_l[1], val_l[0], val_l[1]))
        dt = "Float32" if "float" in atom[1] else "Float16"
        tm, tn = thr_l[0] * val_l[0], thr_l[1] * val_l[1]
        for thr in threads(nthr):
            for side, space in [("S", "gmem"), ("D", "smem")]:
                X, Y = tm * rng.choice([1, 2, 4]), tn * rng.choice([1, 2])
                t = rand_tensor(rng, "t", 2, space=space, dt=dt, dims=(X, Y), kinds=["row", "row", "col"])
                dd, cc = t.defs()
                out.append(Case("partition_" + side,
                                ["tiled_copy = " + tc[0]] + dd + ["thr_copy = tiled_copy.get_slice(%d)" % thr, "thr_copy.partition_%s(t)" % side],
                                ["auto tiled_copy = " + tc[1] + ";"] + cc + ["auto thr_copy = tiled_copy.get_slice(%d);" % thr,
                                                                            "thr_copy.partition_%s(t)" % side]))
    # ldmatrix copies of an MMA's A and B (make_tiled_copy_A/B), and retile of its fragment.
    for ab, acc, k, al in [("Float16", "Float32", 16, (2, 2, 1)), ("BFloat16", "Float32", 16, (2, 2, 1)), ("Float16", "Float16", 8, (2, 1, 1))]:
        tm = tiled_mma(sm80_mma(ab, acc, k), al)
        for which in "AB":
            for transpose, n in [(False, 4), (False, 2), (True, 4)]:
                if transpose and which == "A":
                    continue
                atom = ldsm_atom(ab, transpose, n)
                cty = DT[ab][0]
                shape = (64, 32)
                stride = (1, 64) if transpose else (32, 1)
                sd = ["tiled_mma = " + tm[0],
                      "sX = cute.make_tensor(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.smem), cute.make_layout(%s, stride=%s))" % (ab, py(shape), py(stride)),
                      "tiled_copy = cute.make_tiled_copy_%s(%s, tiled_mma)" % (which, atom[0])]
                sc = ["auto tiled_mma = " + tm[1] + ";",
                      "auto sX = make_tensor(make_smem_ptr<%s>((void*)0), make_layout(%s, %s));" % (cty, cshape(shape), cshape(stride, "make_stride")),
                      "auto tiled_copy = make_tiled_copy_%s(%s, tiled_mma);" % (which, atom[1])]
                for thr in threads(32 * al[0] * al[1]):
                    out.append(Case("ldmatrix_S", sd + ["thr_copy = tiled_copy.get_slice(%d)" % thr, "thr_copy.partition_S(sX)"],
                                    sc + ["auto thr_copy = tiled_copy.get_slice(%d);" % thr, "thr_copy.partition_S(sX)"]))
                    if thr in (0, 37):
                        out.append(Case("retile", sd + ["thr_mma = tiled_mma.get_slice(%d)" % thr,
                                                        "tCrX = thr_mma.make_fragment_%s(thr_mma.partition_%s(sX))" % (which, which),
                                                        "thr_copy = tiled_copy.get_slice(%d)" % thr, "thr_copy.retile(tCrX)"],
                                        sc + ["auto thr_mma = tiled_mma.get_slice(%d);" % thr,
                                              "auto tCrX = thr_mma.make_fragment_%s(thr_mma.partition_%s(sX));" % (which, which),
                                              "auto thr_copy = tiled_copy.get_slice(%d);" % thr, "thr_copy.retile_D(tCrX)"]))

    # SM90 warpgroup MMA (run with CUTE_DSL_ARCH=sm_90a).
    for ab, acc, n, al, bmaj in [("Float16", "Float32", 128, (2, 1, 1), "K"), ("BFloat16", "Float32", 64, (1, 1, 1), "K"),
                                 ("Float16", "Float16", 256, (1, 1, 1), "MN")]:
        tm = tiled_mma(sm90_mma(ab, acc, n, "SMEM", "K", bmaj), al, tuple_form=True)
        cty = DT[ab][0]
        M, N, K = 64 * al[0], n, 64
        sA = ["a_sl = cute.tile_to_shape(warpgroup.make_smem_layout_atom(warpgroup.SmemLayoutAtomKind.K_SW128, cutlass.%s), (%d, %d), (0, 1))" % (ab, M, K),
              "sA = cute.make_tensor(cute.recast_ptr(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.smem), a_sl.inner, dtype=cutlass.%s), a_sl.outer)" % (ab, ab)]
        cA = ["auto sA = make_tensor(make_smem_ptr<%s>((void*)0), tile_to_shape(GMMA::Layout_K_SW128_Atom<%s>{}, %s, Step<_1, _2>{}));" % (cty, cty, cshape((M, K)))]
        if bmaj == "K":
            sB = ["b_sl = cute.tile_to_shape(warpgroup.make_smem_layout_atom(warpgroup.SmemLayoutAtomKind.K_SW128, cutlass.%s), (%d, %d), (0, 1))" % (ab, N, K),
                  "sB = cute.make_tensor(cute.recast_ptr(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.smem), b_sl.inner, dtype=cutlass.%s), b_sl.outer)" % (ab, ab)]
            cB = ["auto sB = make_tensor(make_smem_ptr<%s>((void*)0), tile_to_shape(GMMA::Layout_K_SW128_Atom<%s>{}, %s, Step<_1, _2>{}));" % (cty, cty, cshape((N, K)))]
        else:
            sB = ["b_sl = cute.tile_to_shape(warpgroup.make_smem_layout_atom(warpgroup.SmemLayoutAtomKind.MN_SW128, cutlass.%s), (%d, %d), (1, 0))" % (ab, N, K),
                  "sB = cute.make_tensor(cute.recast_ptr(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.smem), b_sl.inner, dtype=cutlass.%s), b_sl.outer)" % (ab, ab)]
            cB = ["auto sB = make_tensor(make_smem_ptr<%s>((void*)0), tile_to_shape(GMMA::Layout_MN_SW128_Atom<%s>{}, %s, Step<_2, _1>{}));" % (cty, cty, cshape((N, K)))]
        accty = DT[acc][0]
        gC = ["gC = cute.make_tensor(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.gmem), cute.make_layout((%d, %d), stride=(%d, 1)))" % (acc, M, N, 4 * N)]
        cC = ["auto gC = make_tensor(make_gmem_ptr<%s>((void*)0), make_layout(%s, make_stride(%s, _1{})));" % (accty, cshape((M, N)), ci(4 * N))]
        for thr in threads(128 * al[0]):
            head_d, head_c = ["tiled_mma = " + tm[0]], ["auto tiled_mma = " + tm[1] + ";"]
            td, tc_ = ["thr_mma = tiled_mma.get_slice(%d)" % thr], ["auto thr_mma = tiled_mma.get_slice(%d);" % thr]
            out.append(Case("sm90_partition", head_d + sA + td + ["thr_mma.partition_A(sA)"], head_c + cA + tc_ + ["thr_mma.partition_A(sA)"], "sm_90a"))
            out.append(Case("sm90_partition", head_d + sB + td + ["thr_mma.partition_B(sB)"], head_c + cB + tc_ + ["thr_mma.partition_B(sB)"], "sm_90a"))
            out.append(Case("sm90_partition", head_d + gC + td + ["thr_mma.partition_C(gC)"], head_c + cC + tc_ + ["thr_mma.partition_C(gC)"], "sm_90a"))
            out.append(Case("sm90_fragment", head_d + gC + td + ["thr_mma.make_fragment_C(thr_mma.partition_C(gC))"],
                            head_c + cC + tc_ + ["thr_mma.make_fragment_C(thr_mma.partition_C(gC))"], "sm_90a"))
            if thr in (0, 37):
                out.append(Case("sm90_fragment", head_d + sA + td + ["tiled_mma.make_fragment_A(thr_mma.partition_A(sA)).layout"],
                                head_c + cA + tc_ + ["tiled_mma.make_fragment_A(thr_mma.partition_A(sA)).layout()"], "sm_90a"))
                out.append(Case("sm90_fragment", head_d + gC + td + ["cute.make_rmem_tensor(thr_mma.partition_C(gC).shape, cutlass.Float32)"],
                                head_c + cC + tc_ + ["make_tensor<float>(thr_mma.partition_C(gC).shape())"], "sm_90a"))

    # SM100 UMMA (tcgen05): the CTA's partition of gmem tiles, the TMEM accumulator.
    for ab, m, n, two in [("Float16", 128, 128, False), ("BFloat16", 128, 256, False), ("Float16", 256, 128, True),
                          ("Float16", 64, 128, False)]:
        tm = sm100_mma(ab, m, n, two)
        cty = DT[ab][0]
        K = 64
        for v in ([0, 1] if two else [0]):
            head_d = ["tiled_mma = " + tm[0], "thr_mma = tiled_mma.get_slice(%d)" % v]
            head_c = ["auto tiled_mma = " + tm[1] + ";", "auto thr_mma = tiled_mma.get_slice(%d);" % v]
            for which, dims, proj, cproj in [("A", (1024, 512), (1, None, 1), "Step<_1, X, _1>{}"), ("B", (512, 512), (None, 1, 1), "Step<X, _1, _1>{}")]:
                g = ["m%s = cute.make_tensor(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.gmem), cute.make_layout(%s, stride=(%d, 1)))" % (which, ab, py(dims), dims[1]),
                     "g%s = cute.local_tile(m%s, (%d, %d, %d), (1, 1, None), proj=%s)" % (which, which, m, n, K, py(proj))]
                c = ["auto m%s = make_tensor(make_gmem_ptr<%s>((void*)0), make_layout(%s, make_stride(%s, _1{})));" % (which, cty, cshape(dims), ci(dims[1])),
                     "auto g%s = local_tile(m%s, %s, make_coord(_1{}, _1{}, _), %s);" % (which, which, cshape((m, n, K)), cproj)]
                out.append(Case("sm100_partition", head_d + g + ["thr_mma.partition_%s(g%s)" % (which, which)],
                                head_c + c + ["thr_mma.partition_%s(g%s)" % (which, which)]))
            g = ["mC = cute.make_tensor(cute.make_ptr(cutlass.Float32, 0, cute.AddressSpace.gmem), cute.make_layout((1024, 512), stride=(512, 1)))",
                 "gC = cute.local_tile(mC, (%d, %d, %d), (1, 1, None), proj=(1, 1, None))" % (m, n, K)]
            c = ["auto mC = make_tensor(make_gmem_ptr<float>((void*)0), make_layout(make_shape(_1024{}, _512{}), make_stride(_512{}, _1{})));",
                 "auto gC = local_tile(mC, %s, make_coord(_1{}, _1{}, _), Step<_1, _1, X>{});" % cshape((m, n, K))]
            out.append(Case("sm100_partition", head_d + g + ["thr_mma.partition_C(gC)"], head_c + c + ["thr_mma.partition_C(gC)"]))
        out.append(Case("sm100_fragment", ["tiled_mma = " + tm[0], "acc_shape = tiled_mma.partition_shape_C((%d, %d))" % (m, n), "acc_shape"],
                        ["auto tiled_mma = " + tm[1] + ";", "partition_shape_C(tiled_mma, %s)" % cshape((m, n))]))
        out.append(Case("sm100_fragment", ["tiled_mma = " + tm[0], "acc_shape = tiled_mma.partition_shape_C((%d, %d))" % (m, n),
                                           "tiled_mma.make_fragment_C(acc_shape)"],
                        ["auto tiled_mma = " + tm[1] + ";", "partition_fragment_C(tiled_mma, %s)" % cshape((m, n))]))
        out.append(Case("sm100_fragment", ["tiled_mma = " + tm[0], "tiled_mma.partition_shape_A((%d, %d))" % (m, K)],
                        ["auto tiled_mma = " + tm[1] + ";", "partition_shape_A(tiled_mma, %s)" % cshape((m, K))]))
        a_sl = ["a_sl = sm100_utils.make_smem_layout_a(tiled_mma, (%d, %d, %d), cutlass.%s, 3)" % (m, n, K, ab),
                "sA = cute.make_tensor(cute.recast_ptr(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.smem), a_sl.inner, dtype=cutlass.%s), a_sl.outer)" % (ab, ab)]
        # sm100_utils.make_smem_layout_a: tile_to_mma_shape, coalesced to the profile of the
        # staged MMA shape (the stage mode one integer).
        a_c = ["auto sA = make_tensor(make_smem_ptr<%s>((void*)0), coalesce(UMMA::tile_to_mma_shape(UMMA::Layout_K_SW128_Atom<%s>{}, "
               "append(partition_shape_A(tiled_mma, %s), _3{})), make_tuple(make_tuple(_1{}, _1{}), _1{}, _1{}, _1{})));"
               % (cty, cty, cshape((m, K)))]
        out.append(Case("sm100_fragment", ["tiled_mma = " + tm[0]] + a_sl + ["sA"], ["auto tiled_mma = " + tm[1] + ";"] + a_c + ["sA"]))
        out.append(Case("sm100_fragment", ["tiled_mma = " + tm[0]] + a_sl + ["tiled_mma.make_fragment_A(sA).layout"],
                        ["auto tiled_mma = " + tm[1] + ";"] + a_c + ["tiled_mma.make_fragment_A(sA).layout()"]))

    out += tma_cases()
    out += tmem_copy_cases()
    out += tiled_copy_impl_cases()
    out += swizzled_elem_cases()
    out += sm100_f8f6f4_cases()
    out += subbyte_rmem_cases()
    seen, uniq = set(), []
    for c in out:
        if c.code not in seen:
            seen.add(c.code)
            uniq.append(c)
    return uniq


def sm100_f8f6f4_cases():
    """sm100_utils.make_trivial_tiled_mma of 8-, 6- and 4-bit float types, A and B of
    different types (the F8F6F4 family): the CTA's partitions of gmem tiles (4-bit
    tensors are sub-byte ones), the accumulator shape and its TMEM fragment."""
    out = []
    for a, b, acc, m, n, two, bmaj in [("Float8E4M3FN", "Float4E2M1FN", "Float32", 128, 256, False, "K"),
                                       ("Float8E5M2", "Float8E4M3FN", "Float16", 128, 128, False, "MN"),
                                       ("Float6E3M2FN", "Float8E4M3FN", "Float32", 256, 128, True, "K"),
                                       ("Float4E2M1FN", "Float6E2M3FN", "Float32", 64, 64, False, "K")]:
        d_tm = ("sm100_utils.make_trivial_tiled_mma(cutlass.%s, cutlass.%s, tcgen05.OperandMajorMode.K, "
                "tcgen05.OperandMajorMode.%s, cutlass.%s, tcgen05.CtaGroup.%s, (%d, %d))"
                % (a, b, bmaj, acc, "TWO" if two else "ONE", m, n))
        c_tm = ("make_tiled_mma(MMA_Atom<MMA_Traits<SM100_MMA_F8F6F4%s_SS, %s, %s, %s, C<%d>, C<%d>, "
                "integral_constant<UMMA::Major, UMMA::Major::K>, integral_constant<UMMA::Major, UMMA::Major::%s>, "
                "integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>, integral_constant<UMMA::ScaleIn, UMMA::ScaleIn::One>>>{})"
                % ("_2x1SM" if two else "", DT[a][0], DT[b][0], DT[acc][0], m, n, bmaj))
        K = 128
        for v in ([0, 1] if two else [0]):
            head_d = ["tiled_mma = " + d_tm, "thr_mma = tiled_mma.get_slice(%d)" % v]
            head_c = ["auto tiled_mma = " + c_tm + ";", "auto thr_mma = tiled_mma.get_slice(%d);" % v]
            for which, ty, proj, cproj in [("A", a, (1, None, 1), "Step<_1, X, _1>{}"), ("B", b, (None, 1, 1), "Step<X, _1, _1>{}")]:
                dims = (512, 1024)
                g = ["m%s = cute.make_tensor(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.gmem), cute.make_layout(%s, stride=(%d, 1)))" % (which, ty, py(dims), dims[1]),
                     "g%s = cute.local_tile(m%s, (%d, %d, %d), (1, 1, None), proj=%s)" % (which, which, m, n, K, py(proj))]
                c = ["auto m%s = make_tensor(make_gmem_ptr<%s>((void*)0), make_layout(%s, make_stride(%s, _1{})));" % (which, DT[ty][0], cshape(dims), ci(dims[1])),
                     "auto g%s = local_tile(m%s, %s, make_coord(_1{}, _1{}, _), %s);" % (which, which, cshape((m, n, K)), cproj)]
                out.append(Case("sm100_f8f6f4", head_d + g + ["thr_mma.partition_%s(g%s)" % (which, which)],
                                head_c + c + ["thr_mma.partition_%s(g%s)" % (which, which)]))
        out.append(Case("sm100_f8f6f4", ["tiled_mma = " + d_tm, "tiled_mma.partition_shape_C((%d, %d))" % (m, n)],
                        ["auto tiled_mma = " + c_tm + ";", "partition_shape_C(tiled_mma, %s)" % cshape((m, n))]))
        out.append(Case("sm100_f8f6f4", ["tiled_mma = " + d_tm, "tiled_mma.make_fragment_C(tiled_mma.partition_shape_C((%d, %d)))" % (m, n)],
                        ["auto tiled_mma = " + c_tm + ";", "partition_fragment_C(tiled_mma, %s)" % cshape((m, n))]))
        out.append(Case("sm100_f8f6f4", ["tiled_mma = " + d_tm, "tiled_mma.partition_shape_A((%d, %d))" % (m, K)],
                        ["auto tiled_mma = " + c_tm + ";", "partition_shape_A(tiled_mma, %s)" % cshape((m, K))]))
        out.append(Case("sm100_f8f6f4", ["tiled_mma = " + d_tm, "tiled_mma.partition_shape_B((%d, %d))" % (n, K)],
                        ["auto tiled_mma = " + c_tm + ";", "partition_shape_B(tiled_mma, %s)" % cshape((n, K))]))
    return out


def swizzled_elem_cases():
    """Tensors over a swizzle in element units (a composed layout over a plain pointer):
    recast_tensor and domain_offset act on the composed layout as C++'s do; C++ has no
    make_layout_like of one (cute.make_fragment_like is make_tensor_like)."""
    out = []
    for (b, m, s_), ty, dims in [((2, 3, 3), "Float16", (8, 32)), ((3, 3, 3), "Float16", (8, 64)),
                                 ((3, 2, 3), "Float32", (8, 32)), ((1, 4, 3), "Int8", (4, 128))]:
        full = (dims[0] * 8, dims[1])
        d = ["sl = cute.tile_to_shape(cute.make_composed_layout(cute.make_swizzle(%d, %d, %d), 0, cute.make_layout(%s, stride=(%d, 1))), %s, (0, 1))"
             % (b, m, s_, py(dims), dims[1], py(full)),
             "sA = cute.make_tensor(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.smem), sl)" % ty]
        c = ["auto sl = tile_to_shape(composition(Swizzle<%d,%d,%d>{}, make_layout(%s, make_stride(%s, _1{}))), %s, make_step(_0{}, _1{}));"
             % (b, m, s_, cshape(dims), ci(dims[1]), cshape(full)),
             "auto sA = make_tensor(make_smem_ptr<%s>((void*)0), sl);" % DT[ty][0]]
        for new in ["Float32", "Int8", "Float16", "Int32"]:
            out.append(Case("swizzled_elem", d + ["cute.recast_tensor(sA, cutlass.%s)" % new],
                            c + ["recast<%s>(sA)" % DT[new][0]]))
        for crd in [(1, 2), (3, 0), (0, 5)]:
            out.append(Case("swizzled_elem", d + ["cute.domain_offset(%s, sA)" % py(crd)],
                            c + ["domain_offset(%s, sA)" % ccoord(crd)]))
        out.append(Case("swizzled_elem", d + ["cute.make_fragment_like(sA)"], c + ["make_tensor_like(sA)"]))
        out.append(Case("swizzled_elem", d + ["cute.make_fragment_like(sA.layout)"], c + ["make_fragment_like(sA.layout())"]))
    return out


def subbyte_rmem_cases():
    """Register tensors of 4-bit elements and recasts of pointers to them."""
    out = []
    for ty in ["Int4", "Float4E2M1FN"]:
        for shape in [(4, 8), (16,), (2, 2, 8)]:
            out.append(Case("subbyte_rmem", ["cute.make_rmem_tensor(%s, cutlass.%s)" % (py(shape), ty)],
                            ["make_tensor<%s>(%s)" % (DT[ty][0], cshape(shape))]))
        for space in ["gmem", "smem"]:
            for addr in [0, 4096]:
                out.append(Case("subbyte_rmem", ["p = cute.make_ptr(cutlass.Uint8, %d, cute.AddressSpace.%s)" % (addr, space),
                                                 "cute.recast_ptr(p, dtype=cutlass.%s)" % ty],
                                ["auto p = make_%s_ptr<uint8_t>((void*)%d);" % (space, addr),
                                 "recast_ptr<%s>(p)" % DT[ty][0]]))
                out.append(Case("subbyte_rmem", ["t = cute.make_tensor(cute.make_ptr(cutlass.Uint8, %d, cute.AddressSpace.%s), cute.make_layout((16, 8), stride=(8, 1)))" % (addr, space),
                                                 "cute.recast_tensor(t, cutlass.%s)" % ty],
                                ["auto t = make_tensor(make_%s_ptr<uint8_t>((void*)%d), make_layout(make_shape(_16{}, _8{}), make_stride(_8{}, _1{})));" % (space, addr),
                                 "recast<%s>(t)" % DT[ty][0]]))
    return out


def tiled_copy_impl_cases():
    """cute.make_tiled_copy(atom, layout_tv, tiler_mn): a TiledCopy of a TV layout and a tile
    given directly (C++'s make_tiled_copy_impl), and its thread slices of a smem tile."""
    out = []
    cfgs = [("Float16", 128, ((4, 8), 8), ((128, 1), 16), (8, 64)),
            ("Float16", 64, ((8, 16), 4), ((4, 32), 1), (32, 16)),
            ("Float32", 128, ((32, 4), 4), ((1, 128), 32), (32, 16)),
            ("Float16", 32, ((16, 8), 2), ((1, 32), 16), (32, 16)),
            ("Int8", 128, ((8, 8), 16), ((1, 128), 8), (8, 128))]
    for dt, bits, ts, tst, tile in cfgs:
        atom = universal_atom(dt, bits)
        tv = lay(ts, tst)
        cty = DT[dt][0]
        d = ["copy = cute.make_tiled_copy(%s, %s, %s)" % (atom[0], tv[0], py(tile))]
        c = ["auto copy = make_tiled_copy_impl(%s, %s, %s);" % (atom[1], tv[1], cshape(tile))]
        sd = ["sX = cute.make_tensor(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.smem), cute.make_layout(%s, stride=(%d, 1)))"
              % (dt, py((2 * tile[0], tile[1])), tile[1])]
        sc = ["auto sX = make_tensor(make_smem_ptr<%s>((void*)0), make_layout(%s, make_stride(%s, _1{})));"
              % (cty, cshape((2 * tile[0], tile[1])), ci(tile[1]))]
        for thr in [0, 1, 13, 31]:
            out.append(Case("tiled_copy_impl", d + sd + ["copy.get_slice(%d).partition_S(sX)" % thr],
                            c + sc + ["copy.get_slice(%d).partition_S(sX)" % thr]))
    return out


def tmem_copy_cases():
    """SM100 TMEM loads: tcgen05.make_tmem_copy of a tcgen05.Ld*Op atom over the UMMA
    accumulator, its thread slices of the accumulator and of a gmem tile (C++:
    make_tmem_copy(SM100_TMEM_LOAD_*, tAcc))."""
    out = []
    ops = [("Ld32x32bOp", "32dp32b", 8, False), ("Ld32x32bOp", "32dp32b", 32, False), ("Ld16x256bOp", "16dp256b", 1, False),
           ("Ld16x128bOp", "16dp128b", 4, False), ("Ld16x64bOp", "16dp64b", 8, False), ("Ld16x32bx2Op", "16dp32b", 16, False),
           ("Ld32x32bOp", "32dp32b", 16, True)]
    for (ab, m, n, two), (op, cpp, rep, pack) in zip(
            [("Float16", 128, 256, False), ("BFloat16", 128, 128, False), ("Float16", 64, 128, False),
             ("Float16", 128, 64, False), ("Float16", 256, 128, True), ("BFloat16", 128, 256, False),
             ("Float16", 128, 128, False)], ops):
        tm = sm100_mma(ab, m, n, two)
        mt = m // 2 if two else m
        d = ["tiled_mma = " + tm[0],
             "acc = tiled_mma.make_fragment_C(tiled_mma.partition_shape_C((%d, %d)))" % (m, n),
             "tAcc = acc[((None, None), 0, 0)]",
             "atom = cute.make_copy_atom(tcgen05.%s(tcgen05.Repetition.x%d%s), cutlass.Float32)"
             % (op, rep, ", tcgen05.Pack.PACK_16b_IN_32b" if pack else ""),
             "t2r = tcgen05.make_tmem_copy(atom, tAcc)"]
        c = ["auto tiled_mma = " + tm[1] + ";",
             "auto acc = partition_fragment_C(tiled_mma, %s);" % cshape((m, n)),
             "auto tAcc = acc(make_coord(_,_),_0{},_0{});",
             "auto t2r = make_tmem_copy(Copy_Atom<SM100_TMEM_LOAD_%s%dx%s, float>{}, tAcc);" % (cpp, rep, "_16b" if pack else "")]
        gd = ["gC = cute.make_tensor(cute.make_ptr(cutlass.Float32, 0, cute.AddressSpace.gmem), cute.make_layout((%d, %d), stride=(%d, 1)))" % (mt, n, n)]
        gc = ["auto gC = make_tensor(make_gmem_ptr<float>((void*)0), make_layout(%s, make_stride(%s, _1{})));" % (cshape((mt, n)), ci(n))]
        for thr in [0, 37, 127]:
            out.append(Case("sm100_tmem_copy", d + ["t2r.get_slice(%d).partition_S(tAcc)" % thr],
                            c + ["t2r.get_slice(%d).partition_S(tAcc)" % thr]))
            out.append(Case("sm100_tmem_copy", d + gd + ["t2r.get_slice(%d).partition_D(gC)" % thr],
                            c + gc + ["t2r.get_slice(%d).partition_D(gC)" % thr]))
    return out


def tma_cases():
    """SM90 TMA: cpasync.make_tiled_tma_atom's coordinate tensor, its CTA tile and
    cpasync.tma_partition for each CTA of the multicast (C++: make_tma_atom,
    get_tma_tensor, tma_partition with the pair swapped)."""
    out = []
    cfgs = [("Float16", "K_SW128", 128, 64, 3, 1), ("Float16", "MN_SW128", 128, 64, 4, 1),
            ("BFloat16", "K_SW64", 64, 32, 2, 2), ("Float32", "K_SW128", 128, 32, 3, 1),
            ("Float16", "K_SW32", 64, 16, 2, 1), ("Int8", "K_SW128", 128, 128, 2, 2),
            ("Float32", "MN_SW64", 64, 32, 2, 1), ("Float16", "MN_SW32", 64, 64, 1, 2),
            ("TFloat32", "K_SW128", 64, 32, 3, 1), ("Float32", "K_SW64", 128, 16, 2, 4)]
    for dt, kind, M, K, stages, cluster in cfgs:
        cty = DT[dt][0]
        gm, gk = 4 * M, 4 * K
        kmaj = kind.startswith("K")
        stride = (gk, 1) if kmaj else (1, gm)
        op_d = "cpasync.CopyBulkTensorTileG2SOp()" if cluster == 1 else "cpasync.CopyBulkTensorTileG2SMulticastOp()"
        op_c = "SM90_TMA_LOAD" if cluster == 1 else "SM90_TMA_LOAD_MULTICAST"
        d = ["a = cute.make_tensor(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.gmem, assumed_align=16), cute.make_layout(%s, stride=%s))" % (dt, py((gm, gk)), py(stride)),
             "sl = cute.tile_to_shape(warpgroup.make_smem_layout_atom(warpgroup.SmemLayoutAtomKind.%s, cutlass.%s), %s, (0, 1, 2))" % (kind, dt, py((M, K, stages))),
             "smem_layout = cute.slice_(sl, (None, None, 0))",
             "tma_atom, tma_tensor = cpasync.make_tiled_tma_atom(%s, a, smem_layout, %s, num_multicast=%d)" % (op_d, py((M, K)), cluster)]
        c = ["auto a = make_tensor(make_gmem_ptr<%s>((void*)0), make_layout(%s, %s));" % (cty, cshape((gm, gk)), cshape(stride, "make_stride")),
             "auto sl = tile_to_shape(GMMA::Layout_%s_Atom<%s>{}, %s);" % (kind, cty, cshape((M, K, stages))),
             "auto tma_atom = make_tma_atom(%s{}, a, sl(_,_,0), %s, %s);" % (op_c, cshape((M, K)), ci(cluster)),
             "auto tma_tensor = tma_atom.get_tma_tensor(shape(a));"]
        out.append(Case("sm90_tma", d + ["tma_tensor"], c + ["tma_tensor"], "sm_90a"))
        for mi, ni in [(1, 2), (3, 0)]:
            dg = d + ["gA = cute.local_tile(tma_tensor, %s, (%d, %d, None), proj=(1, None, 1))" % (py((M, 128, K)), mi, ni),
                      "sA = cute.make_tensor(cute.recast_ptr(cute.make_ptr(cutlass.%s, 0, cute.AddressSpace.smem), sl.inner, dtype=cutlass.%s), sl.outer)" % (dt, dt)]
            cg = c + ["auto gA = local_tile(tma_tensor, %s, make_coord(%s, %s, _), Step<_1, X, _1>{});" % (cshape((M, 128, K)), ci(mi), ci(ni)),
                      "auto sA = make_tensor(make_smem_ptr<%s>((void*)0), sl);" % cty]
            out.append(Case("sm90_tma", dg + ["gA"], cg + ["gA"], "sm_90a"))
            for cta in range(cluster):
                dp = dg + ["tAsA, tAgA = cpasync.tma_partition(tma_atom, %d, cute.make_layout(%d), cute.group_modes(sA, 0, 2), cute.group_modes(gA, 0, 2))" % (cta, cluster)]
                call = "tma_partition(tma_atom, %s, make_layout(%s), group_modes<0,2>(sA), group_modes<0,2>(gA))" % (ci(cta), ci(cluster))
                out.append(Case("sm90_tma_partition", dp + ["tAsA"], cg + ["get<1>(%s)" % call], "sm_90a"))
                out.append(Case("sm90_tma_partition", dp + ["tAgA"], cg + ["get<0>(%s)" % call], "sm_90a"))
    return out


# ---------------------------------------------------------------------------------------
# The DSL run.

DSL_HEAD = r'''import json, sys
import cutlass
import cutlass.cute as cute
import cutlass.utils as utils
import cutlass.utils.hopper_helpers as sm90_utils
import cutlass.utils.blackwell_helpers as sm100_utils
from cutlass.cute.nvgpu import cpasync, tcgen05, warp, warpgroup


def _show(i, v):
    print("@@%d trace %s" % (i, json.dumps(str(v))), flush=True)
    if isinstance(v, cute.Tensor):
        cute.printf("@@%d iter {}" % i, v.iterator)
    elif isinstance(v, cute.Pointer):
        cute.printf("@@%d iter {}" % i, v)

'''


def dsl_function(i, code):
    tree = ast.parse(code)
    last = tree.body[-1]
    assert isinstance(last, ast.Expr), code
    lines = code.split("\n")
    head = lines[:last.lineno - 1]
    expr = "\n".join(lines[last.lineno - 1:last.end_lineno])
    body = head + ["_v = (%s)" % expr, "_show(%d, _v)" % i]
    return ("@cute.jit\ndef _f%d():\n%s\n\n\ntry:\n    cute.compile(_f%d)()\nexcept Exception as e:\n"
            "    print('@@%d error ' + json.dumps(type(e).__name__ + ': ' + str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__), flush=True)\n\n"
            % (i, textwrap.indent("\n".join(body), "    "), i, i))


def run_dsl(cs, python, tmp):
    by_arch = collections.defaultdict(list)
    for i, c in enumerate(cs):
        by_arch[c.arch].append((i, c))
    res = collections.defaultdict(dict)
    for arch, items in by_arch.items():
        # Chunks: one process each, so that a crash loses one chunk only.
        for k in range(0, len(items), 60):
            chunk = items[k:k + 60]
            path = os.path.join(tmp, "dsl_%s_%d.py" % (arch, k))
            with open(path, "w") as f:
                f.write(DSL_HEAD + "".join(dsl_function(i, c.code) for i, c in chunk))
            env = dict(os.environ, CUTE_DSL_ARCH=arch)
            p = subprocess.run([python, path], capture_output=True, text=True, timeout=1800, env=env)
            for line in p.stdout.splitlines():
                m = re.match(r"@@(\d+) (trace|iter|error) (.*)$", line)
                if m:
                    val = m.group(3)
                    if m.group(2) in ("trace", "error"):
                        val = json.loads(val)
                    res[int(m.group(1))][m.group(2)] = val
            missing = [i for i, _ in chunk if i not in res]
            if missing:
                print("DSL chunk %s: no output for %d cases (rc %d): %s" % (path, len(missing), p.returncode, p.stderr[-500:]),
                      file=sys.stderr)
            print("DSL %s: %d/%d" % (arch, min(k + 60, len(items)), len(items)), file=sys.stderr)
    for i, c in enumerate(cs):
        c.dsl_out = res.get(i, {"error": "no output"})


def cpp_ptr(elem, space, swz, addr):
    bits = DSL_BITS[elem]
    if addr == 0:
        a = "((nil))"
    elif addr >= 0x7f0000000000:
        a = "(stack)"
    else:
        a = "(0x%x)" % addr
    if space == "tmem":
        # C++ prints a TMEM address as lane.column (16 bits each).
        return "tmem_[%db](0x%04x.%04x)" % (bits, addr >> 16, addr & 0xffff)
    if bits < 8:
        # C++'s subbyte_iterator: the address and the bit.
        name = {"gmem": "gmem_subptr", "smem": "smem_subptr", "rmem": "subptr"}[space]
        a = a[:-1] + ".0)"
    else:
        name = {"gmem": "gmem_ptr", "smem": "smem_ptr", "rmem": "ptr"}[space]
    return "%s%s[%db]%s" % ("Sw<%s>_" % swz if swz else "", name, bits, a)


def split_o(s):
    """Splits `ITER o REST` at the first ` o ` outside brackets."""
    depth = 0
    for k, ch in enumerate(s):
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        elif depth == 0 and s.startswith(" o ", k):
            return s[:k], s[k + 3:]
    return s, None


def normalise(out):
    """The DSL's print of a value in C++'s print form (None if it cannot be mapped)."""
    if "trace" not in out:
        return None
    t = out["trace"].strip()
    it = out.get("iter")
    fix = lambda s: re.sub(r"\bS<", "Sw<", s).replace(", ", ",")
    m = re.match(r"^tensor<(.*)>$", t, re.S)
    if m:
        iterator, layout = split_o(m.group(1))
        if layout is None:
            return None
        pm = re.match(r"^ptr<(\w+), (\w+)(?:, align<\d+>)?(?:, (S<\d+,\d+,\d+>))?>$", iterator)
        if pm:
            im = re.match(r"^raw_ptr\(0x([0-9a-f]+):", it or "")
            if not im:
                return None
            swz = pm.group(3)[2:-1] if pm.group(3) else None
            return "%s o %s" % (cpp_ptr(pm.group(1), pm.group(2), swz, int(im.group(1), 16)), fix(layout))
        if iterator.startswith("("):
            return "ArithTuple%s o %s" % (fix(it or iterator), fix(layout))
        return None
    pm = re.match(r"^ptr<(\w+), (\w+)(?:, align<\d+>)?(?:, (S<\d+,\d+,\d+>))?>$", t)
    if pm:
        im = re.match(r"^raw_ptr\(0x([0-9a-f]+):", it or "")
        if not im:
            return None
        return cpp_ptr(pm.group(1), pm.group(2), pm.group(3)[2:-1] if pm.group(3) else None, int(im.group(1), 16))
    if "\n" in t or "OpResult" in t:
        return None
    return fix(t)


def dsl_text(out):
    if "trace" not in out:
        return "error: " + out.get("error", "no output")
    return out["trace"] + (" @ " + out["iter"] if "iter" in out else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dsl-python", required=True, help="a python with nvidia-cutlass-dsl installed")
    ap.add_argument("--oracle-dir", default=os.environ.get("ORACLE_DIR", "oracle-work"))
    ap.add_argument("--out", default=OUT)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--batch", type=int, default=40)
    ap.add_argument("--keep-tmp", action="store_true")
    ap.add_argument("--only", help="regenerate only these ops (comma-separated); the other lines of --out are kept")
    a = ap.parse_args()
    cs = cases()
    kept = []
    if a.only:
        only = a.only.split(",")
        cs = [c for c in cs if c.op in only]
        with open(a.out) as f:
            kept = [r for r in map(json.loads, f) if r["op"] not in only]
    print("%d cases" % len(cs), file=sys.stderr)
    tmp = tempfile.mkdtemp(prefix="dsl-tensors-")
    run_dsl(cs, a.dsl_python, tmp)
    # The C++ oracle.
    cpp_cases = []
    for c in cs:
        if c.cpp_lines is None:
            continue
        body = "".join("  %s\n" % l for l in c.cpp_lines[:-1])
        body += '  print(%s); printf("\\n");\n' % c.cpp_lines[-1]
        c.cpp = descs.Case(c.op, c.code, body)
        cpp_cases.append(c.cpp)
    o = descs.Oracle(a.oracle_dir, tmp)
    batches = [cpp_cases[i:i + a.batch] for i in range(0, len(cpp_cases), a.batch)]
    with cf.ThreadPoolExecutor(a.j) as ex:
        list(ex.map(o.batch, batches))
    rows, dropped = [], collections.Counter()
    differs = collections.Counter()
    for c in cs:
        dsl = normalise(c.dsl_out)
        cpp = None
        if c.cpp is not None:
            if c.cpp.expect == "error":
                # C++ refuses what the DSL accepts: C++ wins, the line expects an error.
                msg = c.cpp.msg or c.cpp.runtime or "error"
                row = {"op": c.op, "code": c.code, "dsl": dsl_text(c.dsl_out), "expect": "error", "cpp_error": msg,
                       "dsl_differs": dsl if dsl is not None else "unmapped"}
                rows.append(row)
                differs[c.op] += 1
                continue
            cpp = re.sub(r"\(0x7ff[0-9a-f]+(\.\d)?\)", r"(stack\1)", c.cpp.expect)
        if cpp is None and dsl is None:
            dropped["neither prints: " + c.op] += 1
            print("no value [%s]: %s\n  %s" % (c.op, c.code.replace("\n", " | "), dsl_text(c.dsl_out)), file=sys.stderr)
            continue
        row = {"op": c.op, "code": c.code, "dsl": dsl_text(c.dsl_out), "expect": cpp if cpp is not None else dsl}
        if cpp is None:
            row["expect_from"] = "dsl"
        elif dsl != cpp:
            row["dsl_differs"] = dsl if dsl is not None else "unmapped"
            differs[c.op] += 1
        rows.append(row)
    rows = kept + rows
    with open(a.out, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    per_op = collections.Counter(r["op"] for r in rows)
    print("wrote %d lines to %s" % (len(rows), a.out), file=sys.stderr)
    for op in per_op:
        print("  %-18s %4d  (dsl differs: %d)" % (op, per_op[op], differs[op]), file=sys.stderr)
    for k, n in dropped.items():
        print("  dropped: %s: %d" % (k, n), file=sys.stderr)
    if not a.keep_tmp:
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print("kept", tmp, file=sys.stderr)


if __name__ == "__main__":
    main()
