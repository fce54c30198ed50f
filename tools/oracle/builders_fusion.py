#!/usr/bin/env python3
"""Golden data for the epilogue CollectiveBuilder's fusion argument: the default
`fusion::LinearCombination` spelled out (with its own element types) and the elementwise
activation fusion `fusion::LinCombEltAct<Act, ...>` (ReLu, GELU, GELU_taylor, SiLu, Sigmoid,
Tanh, HardSwish, Identity), on SM90's, SM100's and SM120's TMA epilogues and SM90's no-smem
one, from the real headers compiled host-only with the prelude of builders.py.

Writes testdata/builder-fusion-cases.jsonl: {"op", "expr", "expect"[, "msg"]}: each
epilogue's sizeof(SharedStorage), EpilogueTile and stages with the fusion, and the
mainloop beside it with that SharedStorage as its carveout; a fusion a builder refuses is an
"error" line with the static_assert message.

The builders are the newest CUTLASS's:
Run: ORACLE_DIR=oracle-work python3 tools/oracle/builders_fusion.py --include CUTLASS/include
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import builders  # noqa: E402  (the prelude and the spellings)
import builders_sm1xx  # noqa: E402
import descs  # noqa: E402

from builders import R, C, H, F, BF, E4, SA, case  # noqa: E402
from builders_sm1xx import shape, TILE_AUTO, EPI_AUTO, E1, E2  # noqa: E402

OUT = os.path.join(descs.ROOT, "testdata/builder-fusion-cases.jsonl")
FU, TH = "cutlass::epilogue::fusion::", "cutlass::epilogue::thread::"
ACTS = ["ReLu", "GELU", "GELU_taylor", "SiLu", "Sigmoid", "Tanh", "HardSwish", "Identity"]
SM90_SCHEDS = ["cutlass::epilogue::TmaWarpSpecialized", "cutlass::epilogue::TmaWarpSpecializedCooperative",
               EPI_AUTO, "cutlass::epilogue::NoSmemWarpSpecialized"]


def fusions(c, d, k):
    """The fusions tried on an epilogue of C `c` (None: void) and D `d`."""
    src = c or d
    return [FU + "LinearCombination<%s, float, %s, float>" % (d, c or "void"),
            FU + "LinearCombination<%s, float>" % d,
            FU + "LinCombEltAct<%s%s, %s, float, %s, float>" % (TH, ACTS[k % len(ACTS)], d, src),
            FU + "LinCombEltAct<%s%s, %s, float>" % (TH, ACTS[(k + 3) % len(ACTS)], d)]


def epilogue(arch, t, cl, c, d, s, fusion):
    ac = 128 // {BF: 16, H: 16, F: 32, E4: 8}[c] if c else 0
    return ("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::%s, cutlass::arch::OpClassTensorOp, "
            "%s, %s, %s, float, float, %s, %s, %d, %s, %s, %d, %s, %s>::CollectiveOp"
            % (arch, shape(*t), shape(*cl), TILE_AUTO, c or "void", R, ac, d, R,
               128 // {BF: 16, H: 16, F: 32, E4: 8}[d], s, fusion))


def mainloop(arch, t, cl, e):
    carve = ("cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>"
             "(sizeof(typename %s::SharedStorage))>" % e)
    a = E4 if arch == "Sm120" else H
    al = 16 if a == E4 else 8
    return ("cutlass::gemm::collective::CollectiveBuilder<cutlass::arch::%s, cutlass::arch::OpClassTensorOp, "
            "%s, %s, %d, %s, %s, %d, float, %s, %s, %s, %s>::CollectiveOp"
            % (arch, a, R, al, a, C, al, shape(*t), shape(*cl), carve, SA))


def configs():
    out = []
    k = 0
    for t in [(128, 128, 64), (128, 256, 64), (256, 128, 64), (64, 128, 64)]:
        for c, d in [(H, H), (None, BF), (F, F), (BF, BF)]:
            k += 1
            s = SM90_SCHEDS[k % len(SM90_SCHEDS)]
            if s.endswith("Cooperative") and t[0] < 128:
                s = SM90_SCHEDS[0]
            out.append(("Sm90", t, (1, 2, 1), c, d, s, k))
            s = [EPI_AUTO, E1, E2][k % 3]
            if s == E2 and t[0] != 256:
                s = EPI_AUTO
            if s == E1 and t[0] == 256:
                s = EPI_AUTO
            out.append(("Sm100", t, (2, 1, 1), c, d, s, k))
            if t[0] <= 128 and t[1] <= 128:
                out.append(("Sm120", (t[0], t[1], 128), (1, 1, 1), c, d, EPI_AUTO, k))
    return out


def cases():
    out = []
    for arch, t, cl, c, d, s, k in configs():
        for fu in fusions(c, d, k):
            e = epilogue(arch, t, cl, c, d, s, fu)
            out.append(case("fusion", "sizeof(typename %s::SharedStorage)" % e))
            if not s.endswith("NoSmemWarpSpecialized"):
                out.append(case("fusion", "typename %s::EpilogueTile{}" % e))
                out.append(case("fusion", "%s::DispatchPolicy::StagesC" % e))
                out.append(case("fusion", "%s::DispatchPolicy::StagesD" % e))
            out.append(case("carveout", "%s::DispatchPolicy::Stages" % mainloop(arch, t, cl, e)))
    return descs.unique(out)


if __name__ == "__main__":
    builders.use_include_from_argv()
    descs.run_cases(cases, OUT, batch=40)
