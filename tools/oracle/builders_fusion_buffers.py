#!/usr/bin/env python3
"""Golden data for the epilogue CollectiveBuilder's fusions that have buffers of their own:
the bias vectors (`fusion::LinCombPerRowBias`, `LinCombPerColBias`, their `EltAct` forms),
the aux tensors (`LinCombPerRowBiasEltActAux`, `LinCombPerColBiasEltActAux`, the scaled
`ScaledLinComb{PerRow,PerCol}BiasEltActAmaxAux` with 16-, 8- and 1-bit aux), the per-row /
per-column scalars (`PerRowLinCombPerRowBiasEltAct`, `PerColLinCombPerColBiasEltAct`,
`PerColResAddPerColBiasEltAct`), the scaled ones (`ScaledLinComb{PerRow,PerCol}BiasEltAct`),
the backward ones (`LinCombDeEltAct`, `LinCombDeEltActDePerRowBias` with dReLU / dGELU), on
SM90's, SM100's and SM120's TMA epilogues; and, under `arch::OpClassBlockScaledTensorOp` on
SM100 and SM120, the scale-factor generating ones (`LinCombBlockScaleFactor`,
`LinCombEltActBlockScaleFactor`, `LinComb{PerRow,PerCol}Bias[EltAct]BlockScaleFactor`, with
CUTLASS examples 72b's and 79b's configurations among them), from the real headers compiled
host-only with the prelude of builders.py.

Writes testdata/builder-fusion-buffers-cases.jsonl: {"op", "expr", "expect"[, "msg"]}: each
epilogue's sizeof(SharedStorage), EpilogueTile and stages with the fusion, and the (dense)
mainloop beside it with that SharedStorage as its carveout; a few refusals ("refusal": SM90's
automatic and no-smem schedules with a bias fusion, SM120 with a 1-bit aux, a scale-factor
vector the epilogue tile does not divide, LinCombEltActBlockScaleFactor outside the grouped
epilogues, an aux alignment under 16 bytes, an SM120 mainloop left under two stages by a
32-bit aux) are "error" lines with the static_assert message.

The builders are the newest CUTLASS's:
Run: ORACLE_DIR=oracle-work python3 tools/oracle/builders_fusion_buffers.py --include CUTLASS/include
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import builders  # noqa: E402  (the prelude and the spellings)
import builders_sm1xx  # noqa: E402
import descs  # noqa: E402

from builders import R, C, H, F, BF, E4, E5, SA, case  # noqa: E402
from builders_sm1xx import shape, TILE_AUTO, EPI_AUTO, E1, E2  # noqa: E402
from builders_fusion import FU, TH, mainloop  # noqa: E402

OUT = os.path.join(descs.ROOT, "testdata/builder-fusion-buffers-cases.jsonl")
U1, E2M1 = "cutlass::uint1b_t", "cutlass::float_e2m1_t"
UE8, UE4 = "cutlass::float_ue8m0_t", "cutlass::float_ue4m3_t"
SCALED, DENSE = "cutlass::arch::OpClassBlockScaledTensorOp", "cutlass::arch::OpClassTensorOp"
WS, COOP = "cutlass::epilogue::TmaWarpSpecialized", "cutlass::epilogue::TmaWarpSpecializedCooperative"
NOSMEM = "cutlass::epilogue::NoSmemWarpSpecialized"
BITS = {H: 16, BF: 16, F: 32, E4: 8, E5: 8, E2M1: 4, U1: 1}
ACTS = ["ReLu", "GELU", "SiLu", "Sigmoid", "Tanh", "HardSwish", "GELU_taylor", "Identity"]
BIAS = [H, BF, F]
AUX = [H, BF, F, E4, E5]


def al(e):
    return 128 // BITS[e]


def act(k):
    return TH + ACTS[k % len(ACTS)]


def aux_of(arch, k):
    """An aux element and the activation beside it (a 1-bit aux is ReLU's, on SM90/SM100)."""
    auxes = AUX + ([U1] if arch != "Sm120" else [])
    a = auxes[k % len(auxes)]
    return a, (TH + ("ReLU" if k % 2 else "ReLu") if a == U1 else act(k))


def fusions(arch, c, d, k):
    """The 15 fusions with buffers, as (name, spelling) on an epilogue of C `c` (None: void)
    and D `d`; every other one spelled with its defaults."""
    src = c or d
    full = k % 2 == 1
    b = BIAS[k % 3]
    lay = [R, C][(k // 2) % 2]
    a, aact = aux_of(arch, k)
    a2, aact2 = aux_of(arch, k + 3)

    def bias_op(name, with_act):
        pre = "%s, " % act(k) if with_act else ""
        if full:
            return FU + "%s<%s%s, float, %s, %s, float>" % (name, pre, d, b, src)
        return FU + "%s<%s%s, float>" % (name, pre, d)

    def aux_op(name, a, aact):
        if full or a == U1:
            return FU + "%s<%s, %s, %s, float, %s, %s, %s, float>" % (name, lay, aact, d, a, b, src)
        return FU + "%s<%s, %s, %s, float>" % (name, lay, aact, d)

    def scalar_op(name):
        if full:
            return FU + "%s<%s, %s, float, %s, %s, %s>" % (name, act(k + 1), d, b, src, [F, H][k // 2 % 2])
        return FU + "%s<%s, %s, float>" % (name, act(k + 1), d)

    def amax_op(name, a, aact):
        if full or a == U1:
            return FU + "%s<%s, %s, %s, float, %s, float, %s, %s, float>" % (name, lay, aact, d, a, b, src)
        return FU + "%s<%s, %s, %s, float>" % (name, lay, aact, d)

    # dReLU reads a 1-bit aux (the forward ReLU's mask) or a full one; dGELU the forward input.
    da = [U1, H, BF, F][k % 4] if arch != "Sm120" else [H, BF, F][k % 3]
    dact = TH + ("dReLU" if da == U1 or k % 3 == 0 else "dGELU")

    def de_op(name, bias):
        if full or da == U1:
            extra = ", %s" % [F, H][k // 2 % 2] if bias else ""
            return FU + "%s<%s, %s, %s, float, %s%s, %s, float>" % (name, lay, dact, d, da, extra, src)
        return FU + "%s<%s, %s, %s, float>" % (name, lay, dact, d)

    return [("PerRowBias", bias_op("LinCombPerRowBias", False)),
            ("PerColBias", bias_op("LinCombPerColBias", False)),
            ("PerRowBiasEltAct", bias_op("LinCombPerRowBiasEltAct", True)),
            ("PerColBiasEltAct", bias_op("LinCombPerColBiasEltAct", True)),
            ("PerRowBiasEltActAux", aux_op("LinCombPerRowBiasEltActAux", a, aact)),
            ("PerColBiasEltActAux", aux_op("LinCombPerColBiasEltActAux", a2, aact2)),
            ("PerRowLinComb", scalar_op("PerRowLinCombPerRowBiasEltAct")),
            ("PerColLinComb", scalar_op("PerColLinCombPerColBiasEltAct")),
            ("PerColResAdd", scalar_op("PerColResAddPerColBiasEltAct")),
            ("ScaledPerRow", bias_op("ScaledLinCombPerRowBiasEltAct", True)),
            ("ScaledPerCol", bias_op("ScaledLinCombPerColBiasEltAct", True)),
            ("ScaledPerRowAmaxAux", amax_op("ScaledLinCombPerRowBiasEltActAmaxAux", a, aact)),
            ("ScaledPerColAmaxAux", amax_op("ScaledLinCombPerColBiasEltActAmaxAux", a2, aact2)),
            ("DeEltAct", de_op("LinCombDeEltAct", False)),
            ("DeEltActDePerRowBias", de_op("LinCombDeEltActDePerRowBias", True))]


def bs_fusion(kind, vs, d, sf, lsf, c, k):
    """A block-scale-factor fusion; `c` the source (None: the default, D)."""
    src = ", %s" % c if c else ""
    b = BIAS[k % 3]
    if kind == "BlockScaleFactor":
        return FU + "LinCombBlockScaleFactor<%d, %s, float, %s, %s%s>" % (vs, d, sf, lsf, src)
    if kind == "EltActBlockScaleFactor":
        return FU + "LinCombEltActBlockScaleFactor<%s, %d, %s, float, %s, %s%s>" % (act(k), vs, d, sf, lsf, src)
    pre = "%s, " % act(k) if "EltAct" in kind else ""
    if c or k % 2 or BITS[d] < 8:  # a 4-bit bias (D's, the default) CUTLASS cannot broadcast
        return FU + "LinComb%s<%s%d, %s, float, %s, %s, %s%s>" % (kind, pre, vs, d, sf, lsf, b, src)
    return FU + "LinComb%s<%s%d, %s, float, %s>" % (kind, pre, vs, d, sf)


# LinCombEltActBlockScaleFactor has callbacks for the grouped (ptr-array) epilogues only: a refusal.
BS_KINDS = ["BlockScaleFactor", "PerRowBiasBlockScaleFactor",
            "PerColBiasBlockScaleFactor", "PerRowBiasEltActBlockScaleFactor",
            "PerColBiasEltActBlockScaleFactor"]


def epilogue(arch, op, t, cl, c, lc, d, ld, s, fusion, et=TILE_AUTO, ac=None):
    return ("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::%s, %s, "
            "%s, %s, %s, float, float, %s, %s, %d, %s, %s, %d, %s, %s>::CollectiveOp"
            % (arch, op, shape(*t), shape(*cl), et, c or "void", lc, (ac or al(c)) if c else 0,
               d, ld, al(d), s, fusion))


def bs_mainloop(arch, t, cl, e):
    """builders_fusion's dense mainloop beside a block-scaled epilogue; FP8 operands where
    the K=256 tile leaves 16-bit ones no two stages."""
    if t[2] < 256:
        return mainloop(arch, t, cl, e)
    carve = ("cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>"
             "(sizeof(typename %s::SharedStorage))>" % e)
    return ("cutlass::gemm::collective::CollectiveBuilder<cutlass::arch::%s, cutlass::arch::OpClassTensorOp, "
            "%s, %s, 16, %s, %s, 16, float, %s, %s, %s, %s>::CollectiveOp"
            % (arch, E4, R, E4, C, shape(*t), shape(*cl), carve, SA))


PAIRS = [(H, H), (BF, BF), (F, F), (None, BF), (None, E4), (H, E4), (F, H), (BF, F), (None, H), (None, F)]


def configs():
    """(arch, op class, tile, cluster, C, layout C, D, layout D, schedule, name, fusion)."""
    out = []
    k = q = 0
    dense = [("Sm90", (128, 128, 64), (1, 2, 1), COOP), ("Sm90", (256, 128, 64), (2, 1, 1), COOP),
             ("Sm90", (64, 128, 64), (1, 2, 1), WS), ("Sm90", (128, 256, 64), (2, 1, 1), WS),
             ("Sm100", (128, 128, 64), (1, 1, 1), EPI_AUTO), ("Sm100", (256, 128, 64), (2, 1, 1), EPI_AUTO),
             ("Sm100", (256, 128, 64), (2, 1, 1), E2), ("Sm100", (128, 64, 64), (1, 1, 1), E1),
             ("Sm100", (64, 128, 64), (1, 1, 1), E1), ("Sm100", (128, 128, 64), (2, 1, 1), E2),
             ("Sm120", (128, 128, 128), (1, 1, 1), EPI_AUTO), ("Sm120", (64, 128, 128), (1, 1, 1), EPI_AUTO),
             ("Sm120", (128, 64, 128), (1, 1, 1), EPI_AUTO)]
    for i, (arch, t, cl, s) in enumerate(dense):
        for j in range(4 if arch != "Sm100" else 3):
            c, d = PAIRS[(i * 3 + j) % len(PAIRS)]
            for m in range(4):
                # The fusions in turn; each one's spelling varies with its own count.
                name, fu = fusions(arch, c, d, q // 15)[q % 15]
                q += 1
                out.append((arch, DENSE, t, cl, c, R, d, R, s, name, fu))
    # Block-scaled: CUTLASS example 72b's and 79b's epilogues, then the six fusions.
    out.append(("Sm100", SCALED, (128, 128, 256), (1, 1, 1), F, R, E2M1, R, EPI_AUTO, "72b",
                bs_fusion("BlockScaleFactor", 16, E2M1, UE8, R, F, 0)))
    out.append(("Sm120", SCALED, (128, 128, 128), (1, 1, 1), BF, R, E2M1, R, EPI_AUTO, "79b",
                bs_fusion("BlockScaleFactor", 16, E2M1, UE8, R, BF, 0)))
    bs = [("Sm100", (128, 128, 256), (1, 1, 1), EPI_AUTO), ("Sm100", (256, 128, 256), (2, 1, 1), EPI_AUTO),
          ("Sm100", (256, 128, 256), (2, 1, 1), E2), ("Sm100", (128, 256, 256), (1, 1, 1), E1),
          ("Sm100", (128, 64, 256), (1, 1, 1), E1), ("Sm100", (128, 128, 256), (1, 1, 1), E1),
          ("Sm120", (128, 128, 128), (1, 1, 1), EPI_AUTO), ("Sm120", (128, 64, 128), (1, 1, 1), EPI_AUTO),
          ("Sm120", (128, 128, 128), (1, 1, 1), EPI_AUTO)]
    # (C, D, vector size, scale-factor type)
    bs_outs = [(F, E2M1, 16, UE4), (None, E2M1, 32, UE8), (BF, E2M1, 16, UE8), (None, E2M1, 16, UE4),
               (BF, E4, 32, UE8), (None, E5, 32, UE8), (H, E2M1, 32, UE8), (None, BF, 16, UE4)]
    for i, (arch, t, cl, s) in enumerate(bs):
        for j in range(3):
            c, d, vs, sf = bs_outs[(i * 3 + j) % len(bs_outs)]
            if t[1] == 256 and arch == "Sm100":
                c = None  # a C beside 256 columns leaves the FP8 mainloop no stage
            k += 1
            for m in range(2):
                kind = BS_KINDS[(k * 2 + m) % len(BS_KINDS)]
                out.append((arch, SCALED, t, cl, c, R, d, R, s, kind, bs_fusion(kind, vs, d, sf, R, c, k)))
    # Column-major D with column-major scale factors.
    for arch, t, cl, s in [("Sm100", (128, 128, 256), (1, 1, 1), EPI_AUTO), ("Sm100", (256, 128, 256), (2, 1, 1), E2),
                           ("Sm120", (128, 128, 128), (1, 1, 1), EPI_AUTO)]:
        for c, d, vs, sf in [(None, E2M1, 16, UE4), (F, E2M1, 32, UE8)]:
            out.append((arch, SCALED, t, cl, c, C, d, C, s, "BlockScaleFactorCol",
                        bs_fusion("BlockScaleFactor", vs, d, sf, C, c, 0)))
    return out


def refusals():
    """Each alone: (arch, op class, tile, cluster, C, D, schedule, fusion[, C alignment])."""
    t, cl = (128, 128, 64), (1, 2, 1)
    return [
        ("Sm90", DENSE, t, cl, H, H, EPI_AUTO, FU + "LinCombPerColBias<%s, float>" % H),
        ("Sm90", DENSE, t, cl, H, H, NOSMEM, FU + "LinCombPerColBias<%s, float>" % H),
        ("Sm120", DENSE, (128, 128, 128), (1, 1, 1), H, H, EPI_AUTO,
         FU + "ScaledLinCombPerRowBiasEltActAmaxAux<%s, %sReLu, %s, float, %s, float, %s, %s, float>" % (R, TH, H, U1, H, H)),
        ("Sm100", SCALED, (128, 128, 256), (1, 1, 1), F, E4, EPI_AUTO,
         FU + "LinCombBlockScaleFactor<32, %s, float, %s, %s, float>" % (E4, UE8, R)),
        ("Sm100", SCALED, (128, 128, 256), (1, 1, 1), None, E2M1, EPI_AUTO,
         bs_fusion("EltActBlockScaleFactor", 16, E2M1, UE4, R, None, 0)),
        ("Sm120", SCALED, (128, 128, 128), (1, 1, 1), BF, E2M1, EPI_AUTO,
         bs_fusion("EltActBlockScaleFactor", 32, E2M1, UE8, R, BF, 1)),
        ("Sm90", DENSE, t, cl, H, H, COOP,
         FU + "LinCombPerRowBiasEltActAux<%s, %sReLu, %s, float, %s, %s, %s, float, 4>" % (R, TH, H, H, H, H)),
    ]


def cases():
    out, late = [], []
    for arch, op, t, cl, c, lc, d, ld, s, name, fu in configs():
        e = epilogue(arch, op, t, cl, c, lc, d, ld, s, fu)
        out.append(case("fusion", "sizeof(typename %s::SharedStorage)" % e))
        out.append(case("fusion", "typename %s::EpilogueTile{}" % e))
        out.append(case("fusion", "%s::DispatchPolicy::StagesC" % e))
        out.append(case("fusion", "%s::DispatchPolicy::StagesD" % e))
        m = bs_mainloop(arch, t, cl, e) if op == SCALED else mainloop(arch, t, cl, e)
        m = case("carveout", "%s::DispatchPolicy::Stages" % m)
        # SM120's 32-bit C and D with a 32-bit aux leave its mainloop under two stages: a
        # refusal, with the others at the end (one compile apiece).
        if arch == "Sm120" and (c, d) == (F, F) and "Aux" in name and ", float, float, float, float," in fu:
            m.op = "refusal"
            late.append(m)
        else:
            out.append(m)
    for arch, op, t, cl, c, d, s, fu in refusals():
        e = epilogue(arch, op, t, cl, c, R, d, R, s, fu)
        late.append(case("refusal", "sizeof(typename %s::SharedStorage)" % e))
    return descs.unique(out + late)


if __name__ == "__main__":
    builders.use_include_from_argv()
    descs.run_cases(cases, OUT, batch=40)
