#!/usr/bin/env python3
"""Golden data for spellings of kernel code, from the real CuTe headers (host-only g++).

Writes testdata/spelling-cases.jsonl: {"op", "expr", "expect"[, "msg"]}:
- which MMA op values C++ makes without template arguments: a GMMA op of either major
  (`SM90_64x64x16_F32F16F16_SS`) is an alias template whose majors have no defaults, so
  `SM90_64x64x16_F32F16F16_SS{}` does not compile; the `_TN` ones default every argument
  (`SM90_64x64x8_F32TF32TF32_SS_TN{}`, `<>`); `MMA_Atom<Op>` needs `Op<...>`; an RS op
  refuses an MN-major A; the UMMA and SM120 templates need theirs;
- the member types of tiled copies (`make_tiled_copy`, `make_tiled_copy_impl`,
  `make_tiled_copy_A/B/C`): `AtomThrID`, `AtomLayoutSrc/Dst/Ref`, `AtomNumThr/Val`,
  `Tiler_MN`, `TiledLayout_TV`, `TiledNumThr/Val`, and Copy_Atom's `ValLayout*`,
  `BitLayout*`, `NumValSrc/Dst`.

Run: ORACLE_DIR=oracle-work python3 tools/oracle/spellings.py [-j 2]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import descs  # noqa: E402  (the Oracle runner)

descs.HEADERS = ("#include <cstdio>\n#include <cstdlib>\n#include <cute/tensor.hpp>\n"
                 "#include <cute/atom/mma_atom.hpp>\n#include <cute/atom/copy_atom.hpp>\n"
                 "using namespace cute;\n")
OUT = os.path.join(descs.ROOT, "testdata/spelling-cases.jsonl")


def case(op, expr):
    return descs.Case(op, expr, "  print(%s); printf(\"\\n\");\n" % expr)


K, MN = "GMMA::Major::K", "GMMA::Major::MN"

# (name, takes majors): F16/BF16 inputs take <MajorA, MajorB>; TF32, FP8 and 8-bit
# integer GMMAs are K-major only (`_TN`) and default every argument.
GMMA = [(n, True) for n in [
    "SM90_64x64x16_F32F16F16_SS", "SM90_64x8x16_F16F16F16_SS", "SM90_64x128x16_F32BF16BF16_SS",
    "SM90_64x256x16_F32F16F16_SS", "SM90_64x64x16_F32F16F16_RS", "SM90_64x32x16_F16F16F16_RS",
    "SM90_64x96x16_F32BF16BF16_RS", "SM90::GMMA::MMA_64x64x16_F32F16F16_SS",
]] + [(n, False) for n in [
    "SM90_64x64x8_F32TF32TF32_SS_TN", "SM90_64x128x8_F32TF32TF32_RS_TN",
    "SM90_64x64x32_F32E4M3E4M3_SS_TN", "SM90_64x8x32_F16E4M3E5M2_SS_TN",
    "SM90_64x64x32_S32S8S8_SS_TN", "SM90_64x128x32_S32U8S8_RS_TN",
]]


def gmma_cases():
    out = []
    for name, majors in GMMA:
        forms = ["%s{}" % name, "%s<>{}" % name]
        if majors:
            forms += ["%s<%s, %s>{}" % (name, a, b) for a, b in [(K, K), (K, MN), (MN, K), (MN, MN)]]
            forms.append("%s<%s>{}" % (name, K))
        for f in forms:
            out.append(case("mma_op_value", "size(make_tiled_mma(%s))" % f))
        out.append(case("mma_op_value", "size(make_tiled_mma(MMA_Atom<%s>{}))" % name))
        t = ("%s<%s, %s>" % (name, K, K)) if majors else ("%s<>" % name)
        out.append(case("mma_op_value", "size(make_tiled_mma(MMA_Atom<%s>{}))" % t))
        out.append(case("mma_op_value", "typename MMA_Atom<%s>::Shape_MNK{}" % t))
    for e in ["SM120_16x8x32_TN{}", "SM120_16x8x32_TN<float_e4m3_t, float_e4m3_t, float>{}",
              "SM100_MMA_F16BF16_SS{}", "SM80_16x8x16_F32F16F16F32_TN{}", "SM80_16x8x16_F32F16F16F32_TN<>{}"]:
        out.append(case("mma_op_value", "size(make_tiled_mma(%s))" % e))
    return out


COPIES = [
    "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, Layout<Shape<_1,_8>>{})",
    "make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>, float>{}, Layout<Shape<_32,_4>>{}, Layout<Shape<_4,_1>>{})",
    "make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, Layout<Shape<_8,_16>,Stride<_16,_1>>{}, Layout<Shape<_1,_2>>{})",
    "make_tiled_copy(Copy_Atom<UniversalCopy<half_t>, half_t>{}, Layout<Shape<_32,_4>>{})",
    "make_tiled_copy_impl(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<Shape<_4,_8>,Shape<_2,_2,_2>>,Stride<Stride<_32,_1>,Stride<_16,_8,_128>>>{}, Shape<_8,_32>{})",
    "make_tiled_copy_impl(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, Layout<Shape<_32,_4>,Stride<_4,_1>>{}, Shape<_16,_8>{})",
    "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2>>{}))",
    "make_tiled_copy_B(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2>>{}))",
    "make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2>>{}))",
    "make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2>>{}))",
    "make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_2,_1>>{}))",
]
TILED_MEMBERS = ["AtomThrID", "AtomLayoutSrc", "AtomLayoutDst", "AtomLayoutRef", "AtomNumThr",
                 "AtomNumVal", "Tiler_MN", "TiledLayout_TV", "TiledNumThr", "TiledNumVal",
                 "ValLayoutSrc", "ValLayoutDst", "ValLayoutRef", "NumValSrc", "NumValDst",
                 "BitLayoutSrc", "BitLayoutDst", "BitLayoutRef", "ThrID"]
ATOMS = ["Copy_Atom<SM75_U32x4_LDSM_N, half_t>", "Copy_Atom<SM75_U16x4_LDSM_T, half_t>",
         "Copy_Atom<SM90_U32x2_STSM_N, half_t>", "Copy_Atom<UniversalCopy<uint128_t>, float>",
         "Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint64_t>, half_t>"]
ATOM_MEMBERS = ["ThrID", "ValLayoutSrc", "ValLayoutDst", "ValLayoutRef", "BitLayoutSrc",
                "BitLayoutDst", "BitLayoutRef", "NumValSrc", "NumValDst"]


def copy_cases():
    out = []
    for c in COPIES:
        for m in TILED_MEMBERS:
            out.append(case("tiled_copy_member", "typename decltype(%s)::%s{}" % (c, m)))
    for a in ATOMS:
        for m in ATOM_MEMBERS:
            out.append(case("copy_atom_member", "typename %s::%s{}" % (a, m)))
    return out


def cases():
    return descs.unique(gmma_cases() + copy_cases())


if __name__ == "__main__":
    descs.run_cases(cases, OUT, batch=60)
