#!/usr/bin/env python3
"""Golden data for the member types and constants of `cutlass::epilogue::fusion`'s operations
(`operations.hpp`): each fusion's element types (void where it has none), layout tags,
activation, alignments, `SFVecSize` and every `Is...Supported` flag, with its defaults filled
in as C++ fills them; and `cutlass::detail::Sm1xxBlockScaledConfig` /
`Sm1xxBlockScaledOutputConfig`'s `SfAtom` and `LayoutSF`. The fusions are those of
builders_fusion_buffers.py (every kind, short and full argument lists) and LinearCombination /
LinCombEltAct, from the real headers compiled host-only with the prelude of builders.py.

A type member prints as the language spells it (`half_t`, `void`, `cutlass::layout::RowMajor`,
`ReLu`): the C++ side picks the spelling by `is_same` against every candidate, and prints
`?` for a type none is (which no line of the golden data may show).

Writes testdata/fusion-member-cases.jsonl: {"op", "expr", "expect"}.
Run: ORACLE_DIR=oracle-work python3 tools/oracle/fusion_members.py --include CUTLASS/include
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import builders  # noqa: E402  (the prelude)
import descs  # noqa: E402

from builders import R, C, H, BF, F, E4, E5  # noqa: E402
from builders_fusion import FU, TH  # noqa: E402
from builders_fusion_buffers import fusions, bs_fusion, BS_KINDS, ACTS, U1, E2M1, UE8, UE4  # noqa: E402

OUT = os.path.join(descs.ROOT, "testdata/fusion-member-cases.jsonl")
descs.HEADERS += "#include <cutlass/detail/sm100_blockscaled_layout.hpp>\n"

ELEMS = [("void", "void"), (H, "half_t"), (BF, "bfloat16_t"), (F, "float"), (E4, "float_e4m3_t"),
         (E5, "float_e5m2_t"), (E2M1, "float_e2m1_t"), (UE8, "float_ue8m0_t"), (UE4, "float_ue4m3_t"),
         (U1, "uint1_t"), (R, "cutlass::layout::RowMajor"), (C, "cutlass::layout::ColumnMajor")]
TYPES = ["ElementOutput", "ElementCompute", "ElementSource", "ElementScalar", "ElementBias", "ElementAux",
         "ElementAmax", "ElementBlockScaleFactor", "GmemLayoutTagAux", "GmemLayoutTagScalefactor"]
INTS = ["SFVecSize", "AlignmentAux", "AlignmentBias", "AlignmentScalar"]
FLAGS = ["IsSourceSupported", "IsResidualSupported", "IsScaleFactorSupported", "IsPerRowScaleSupported",
         "IsPerColScaleSupported", "IsPerRowBiasSupported", "IsPerColBiasSupported", "IsDePerRowBiasSupported",
         "IsEltActSupported", "IsDeEltActSupported", "IsAuxOutSupported", "IsAuxInSupported",
         "IsAbsMaxSupported", "IsBlockScaleSupported"]
ALL_ACTS = ACTS + ["dReLU", "dGELU"]


def spelled(t, candidates):
    """C++ that prints the language's spelling of the type `t` among `candidates`."""
    ladder = "".join('cute::is_same_v<%s, %s> ? "%s" : ' % (t, c, s) for c, s in candidates)
    return '  printf("%%s\\n", %s"?");\n' % ladder


def member_cases(f):
    out = []
    for m in TYPES:
        t = "typename %s::%s" % (f, m)
        out.append(descs.Case("fusion_member", t, spelled(t, ELEMS)))
    t = "typename %s::ActivationFn" % f
    acts = [("void", "void")] + [("%s%s<typename %s::ElementCompute>" % (TH, a, f), a) for a in ALL_ACTS]
    out.append(descs.Case("fusion_member", t, spelled(t, acts)))
    for m in INTS:
        e = "%s::%s" % (f, m)
        out.append(descs.Case("fusion_member", e, '  printf("%%d\\n", int(%s));\n' % e))
    for m in FLAGS:
        e = "%s::%s" % (f, m)
        out.append(descs.Case("fusion_flag", e, '  printf("%%d\\n", int(%s));\n' % e))
    return out


def all_fusions():
    fs = [FU + "LinearCombination<%s, float>" % H, FU + "LinearCombination<%s, float, %s, %s>" % (E4, BF, H),
          FU + "LinCombEltAct<%sReLu, %s, float>" % (TH, H),
          FU + "LinCombEltAct<%sGELU_taylor, %s, float, %s, %s>" % (TH, BF, F, H)]
    for k in range(4):
        for c, d in [(H, H), (F, E4), (None, BF)]:
            fs += [f for _, f in fusions("Sm90" if k < 2 else "Sm100", c, d, k)]
    for k in range(2):
        for kind in BS_KINDS + ["EltActBlockScaleFactor"]:
            for vs, d, sf, lsf, c in [(16, E2M1, UE8, R, None), (32, E4, UE4, C, BF)]:
                fs.append(bs_fusion(kind, vs, d, sf, lsf, c, k))
    return fs


def config_cases():
    out = []
    D = "cutlass::detail::"
    for cfg in [D + "Sm1xxBlockScaledConfig<%d>" % v for v in (16, 32, 64)] + \
               [D + "Sm1xxBlockScaledOutputConfig<%d, UMMA::Major::%s>" % (v, m) for v in (16, 32, 64) for m in ("K", "MN")] + \
               [D + "Sm1xxBlockScaledOutputConfig<32>"]:
        for m in ("SfAtom", "LayoutSF"):
            e = "typename %s::%s{}" % (cfg, m)
            out.append(descs.Case("sf_config", e, '  print(%s); printf("\\n");\n' % e))
        e = "%s::SFVecSize" % cfg
        out.append(descs.Case("sf_config", e, '  printf("%%d\\n", int(%s));\n' % e))
    return out


def cases():
    out = []
    for f in all_fusions():
        out += member_cases(f)
    return descs.unique(out + config_cases())


if __name__ == "__main__":
    builders.use_include_from_argv()
    descs.run_cases(cases, OUT, batch=40)
