#!/usr/bin/env python3
"""Golden data for CUTLASS's SM100 block-scaled GEMM mainloop CollectiveBuilder
(`arch::OpClassBlockScaledTensorOp`: nv_float4_t / mx_float4_t / mx_float6_t / mx_float8_t /
cute::tuple<T, SF> operands, the MXF4 and MXF8F6F4 UMMAs on one SM or a CTA pair) and the
epilogue builder under that operator class, from the real headers, compiled host-only with
the prelude of builders.py.

Writes testdata/builder-blockscaled-cases.jsonl: {"op", "expr", "expect"[, "msg"]}, each
expression a member of one `CollectiveBuilder<...>::CollectiveOp` (SmemLayoutA/B and their
atoms, the scale factors' SmemLayoutAtomSFA/SFB and SmemLayoutSFA/SFB, DispatchPolicy::Stages,
the accumulator stages, the tiled MMA, the TMA loads of A, B, SFA and SFB, ElementSF,
SFVecSize, TmaTransactionBytes, sizeof(SharedStorage)); a configuration CUTLASS refuses is an
"error" line with the static_assert message, which the language's error must contain.

The builders are the newest CUTLASS's:
Run: ORACLE_DIR=oracle-work python3 tools/oracle/builders_blockscaled.py --include CUTLASS/include
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import builders  # noqa: E402  (the prelude and the spellings)
import builders_sm1xx  # noqa: E402
import descs  # noqa: E402

from builders import R, C, AUTO, SA, sc, co  # noqa: E402
from builders_sm1xx import shape, TMA_OPS  # noqa: E402

OUT = os.path.join(descs.ROOT, "testdata/builder-blockscaled-cases.jsonl")
E2M1, E2M3, E3M2, E4M3, E5M2 = ("cutlass::float_e2m1_t", "cutlass::float_e2m3_t", "cutlass::float_e3m2_t",
                                "cutlass::float_e4m3_t", "cutlass::float_e5m2_t")
UE8, UE4 = "cutlass::float_ue8m0_t", "cutlass::float_ue4m3_t"
NV = "cutlass::nv_float4_t<%s>" % E2M1
MX4 = "cutlass::mx_float4_t<%s>" % E2M1
MX6A, MX6B = "cutlass::mx_float6_t<%s>" % E2M3, "cutlass::mx_float6_t<%s>" % E3M2
MX8A, MX8B = "cutlass::mx_float8_t<%s>" % E4M3, "cutlass::mx_float8_t<%s>" % E5M2
PAIR4 = "cute::tuple<%s, %s>" % (E2M1, UE8)
PAIR4NV = "cute::tuple<%s, %s, cute::Int<16>>" % (E2M1, UE4)
G = "cutlass::gemm::"
BS1, BS2 = G + "KernelTmaWarpSpecialized1SmBlockScaledSm100", G + "KernelTmaWarpSpecialized2SmBlockScaledSm100"
NV1, NV2 = G + "KernelTmaWarpSpecialized1SmNvf4Sm100", G + "KernelTmaWarpSpecialized2SmNvf4Sm100"
MF1, MF2 = G + "KernelTmaWarpSpecialized1SmMxf4Sm100", G + "KernelTmaWarpSpecialized2SmMxf4Sm100"
M8_1, M8_2 = G + "KernelTmaWarpSpecialized1SmMxf8f6f4Sm100", G + "KernelTmaWarpSpecialized2SmMxf8f6f4Sm100"
BASE, BASE_NV, BASE_M8 = (G + "KernelScheduleBlockScaledGemmSm100", G + "KernelScheduleMxNvf4Sm100",
                          G + "KernelScheduleMxf8f6f4Sm100")
BITS = {NV: 4, MX4: 4, PAIR4: 4, PAIR4NV: 4, MX6A: 6, MX6B: 6, MX8A: 8, MX8B: 8}
SCALED = "cutlass::arch::OpClassBlockScaledTensorOp"


def align(e, sched):
    """TMA's alignment in elements: 128 bits (6-bit types: 128 elements, which 128 bits do
    not divide), 512 / 768 bits for 4- / 6-bit types under an MXF8F6F4 schedule."""
    b = BITS[e]
    if b == 6 or (sched in (M8_1, M8_2, BASE_M8) and b < 8):
        return 128
    return 128 // b


def two_sm(t, cl, s):
    if s in (BS2, NV2, MF2, M8_2):
        return True
    if s in (BS1, NV1, MF1, M8_1):
        return False
    return cl[0] % 2 == 0 and t[0] == 256


def mxf8f6f4(a, b, la, lb, s):
    if s in (M8_1, M8_2, BASE_M8):
        return True
    if s in (NV1, NV2, MF1, MF2, BASE_NV):
        return False
    return not (BITS[a] == 4 and BITS[b] == 4 and la == R and lb == C)


def feasible(a, b, la, lb, t, cl, s):
    """Whether the builder takes it (the rules builder.inl and sm1xx_common.inl assert)."""
    two = two_sm(t, cl, s)
    if t[0] != (256 if two else 128) or (two and cl[0] % 2):
        return False
    if s in (SA, BASE, BASE_NV, BASE_M8) and cl[0] % 2 == 0 and t[0] not in (128, 256):
        return False
    m8 = mxf8f6f4(a, b, la, lb, s)
    vs = 16 if a in (NV, PAIR4NV) or s in (NV1, NV2) else 32
    if t[2] % (4 * vs) or (m8 and vs != 32):
        return False
    if not m8 and (la, lb) != (R, C):
        return False
    if m8:
        n_b = 256 if two else 128
        if BITS[a] < 8 and not (t[2] % 128 == 0 if la == R else t[0] % 128 == 0):
            return False
        if BITS[b] < 8 and not (t[1] % n_b == 0 if lb == R else t[2] % 128 == 0):
            return False
    return True


def configs():
    out = []
    pairs = [(NV, NV), (MX4, MX4), (MX8A, MX8A), (MX8B, MX8A), (MX6A, MX6B), (MX8A, MX4), (MX4, MX8A),
             (MX6A, MX8B), (PAIR4, PAIR4), (PAIR4NV, PAIR4NV), (MX6B, MX4)]
    tiles = [(128, 128, 256), (128, 256, 256), (128, 64, 256), (128, 192, 256), (256, 128, 256), (256, 256, 256),
             (256, 192, 256), (256, 64, 256), (128, 128, 128), (256, 256, 128), (128, 256, 512), (128, 128, 64)]
    clusters = [(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1), (4, 1, 1), (2, 4, 1), (1, 4, 1)]
    stages = [AUTO, co(16384), sc(3), co(49152), AUTO]
    k = 0
    for a, b in pairs:
        m8 = not (BITS[a] == 4 and BITS[b] == 4)
        lays = [(R, C), (C, R), (R, R), (C, C)] if m8 else [(R, C)]
        scheds = ([SA, BS1, BS2, M8_1, M8_2, BASE, BASE_M8] if m8 else
                  [SA, BS1, BS2, NV1, NV2, MF1, MF2, BASE, BASE_NV, M8_1, M8_2])
        for la, lb in lays:
            for t in tiles:
                k += 1
                # The 6- and 8-bit pairs in every layout: a third of the tiles each.
                if m8 and (k % 3) and (la, lb) != (R, C):
                    continue
                for j in range(len(clusters) * len(scheds)):
                    cl = clusters[(k + j) % len(clusters)]
                    s = scheds[(k + j // len(clusters)) % len(scheds)]
                    if a in (NV, PAIR4NV) and s in (MF1, MF2, M8_1, M8_2, BASE_M8):
                        continue
                    if a in (MX4, PAIR4) and s in (NV1, NV2):
                        continue
                    if feasible(a, b, la, lb, t, cl, s):
                        out.append((a, la, align(a, s), b, lb, align(b, s), "float", t, cl, stages[k % len(stages)], s))
                        break
    return out


# Refusals, each its own compile: scale factors that disagree, a tile M for the schedule, an
# N the UMMA cannot take, MXF4 with an M-major A, a tag whose vector size is not the type's,
# the unpacked-TMA rule, NVF4 under an MXF8F6F4 tag, K against the UMMA, stages that do not
# fit, a dense schedule, misaligned operands, an SM90 tag, an M of 64, a K that is not whole
# blocks of scale factors.
FAIL = [
    (NV, R, 32, MX4, C, 32, "float", (128, 128, 256), (1, 1, 1), AUTO, SA),
    (NV, R, 32, NV, C, 32, "float", (256, 128, 256), (1, 1, 1), AUTO, BS1),
    (NV, R, 32, NV, C, 32, "float", (128, 128, 256), (2, 1, 1), AUTO, BS2),
    (NV, R, 32, NV, C, 32, "float", (128, 96, 256), (1, 1, 1), AUTO, SA),
    (NV, C, 32, NV, C, 32, "float", (128, 128, 256), (1, 1, 1), AUTO, NV1),
    (NV, R, 32, NV, C, 32, "float", (128, 128, 256), (1, 1, 1), AUTO, MF1),
    (MX8A, R, 16, MX4, R, 128, "float", (128, 64, 256), (1, 1, 1), AUTO, SA),
    (NV, R, 128, NV, C, 128, "float", (128, 128, 256), (1, 1, 1), AUTO, M8_1),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 256), (1, 1, 1), AUTO, NV1),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 256), (1, 1, 1), co(200000), SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 256), (1, 1, 1), AUTO, G + "KernelTmaWarpSpecialized1SmSm100"),
    (MX8A, R, 8, MX8A, C, 16, "float", (128, 128, 256), (1, 1, 1), AUTO, SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (64, 128, 256), (2, 1, 1), AUTO, SA),
    (MX4, C, 128, MX4, C, 128, "float", (128, 128, 256), (1, 1, 1), AUTO, NV1),
    (PAIR4NV, C, 128, PAIR4NV, C, 128, "float", (128, 128, 256), (1, 1, 1), AUTO, SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 256), (1, 1, 1), AUTO, G + "KernelTmaWarpSpecializedCooperative"),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 264, 256), (1, 1, 1), AUTO, SA),
    # K against the scale-factor blocks (4 factors of VS elements): none, or a partial one.
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 64), (1, 1, 1), AUTO, SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 160), (1, 1, 1), AUTO, SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 96), (1, 1, 1), AUTO, SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 32), (1, 1, 1), AUTO, SA),
    (PAIR4, R, 32, PAIR4, C, 32, "float", (128, 128, 64), (1, 1, 1), AUTO, SA),
]


def builder(c, arch="Sm100"):
    ea, la, aa, eb, lb, ab, acc, t, cl, st, s = c
    return ("cutlass::gemm::collective::CollectiveBuilder<cutlass::arch::%s, %s, "
            "%s, %s, %d, %s, %s, %d, %s, %s, %s, %s, %s>::CollectiveOp"
            % (arch, SCALED, ea, la, aa, eb, lb, ab, acc, shape(*t), shape(*cl), st, s))


def common_members(b):
    """What every block-scaled mainloop has: its smem layouts and the scale factors', the
    stages, the tiled MMA's atom and threads, its byte counts and scale-factor type."""
    case = builders.case
    out = [case("smem_layout", "typename %s::%s{}" % (b, m))
           for m in ["SmemLayoutA", "SmemLayoutB", "SmemLayoutAtomA", "SmemLayoutAtomB", "SmemLayoutAtomSFA",
                     "SmemLayoutAtomSFB", "SmemLayoutSFA", "SmemLayoutSFB"]]
    return out + [case("stages", "%s::DispatchPolicy::Stages" % b),
                  case("tiled_mma", "typename %s::TiledMma::AtomShape_MNK{}" % b),
                  case("tiled_mma", "size(typename %s::TiledMma{})" % b),
                  case("bytes", "%s::TmaTransactionBytes" % b),
                  case("bytes", "int(sizeof(typename %s::SharedStorage))" % b),
                  case("sf", "%s::SFVecSize" % b),
                  case("sf", "int(cute::is_same_v<typename %s::ElementSF, %s>)" % (b, UE4))]


def members(b):
    case = builders.case
    out = common_members(b)
    out += [case("acc_stages", "%s::DispatchPolicy::Schedule::AccumulatorPipelineStageCount" % b),
            case("tiled_mma", "typename %s::TiledMma::AtomLayoutA_TV{}" % b)]
    for m in ["GmemTiledCopyA", "GmemTiledCopyB", "GmemTiledCopySFA", "GmemTiledCopySFB"]:
        for op in TMA_OPS:
            out.append(case("gmem_copy", "int(cute::is_same_v<typename %s::%s, %s>)" % (b, m, op)))
    return out


TILE_AUTO, EPI_AUTO = builders_sm1xx.TILE_AUTO, builders_sm1xx.EPI_AUTO
E1, E2 = builders_sm1xx.E1, builders_sm1xx.E2
BF, H, F = builders.BF, builders.H, builders.F


def epilogue(t, cl, c, d, s, lc=R):
    ac = 128 // {BF: 16, H: 16, F: 32}[c] if c else 0
    return ("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm100, %s, "
            "%s, %s, %s, float, float, %s, %s, %d, %s, %s, %d, %s>::CollectiveOp"
            % (SCALED, shape(*t), shape(*cl), TILE_AUTO, c or "void", lc, ac, d, R,
               128 // {BF: 16, H: 16, F: 32}[d], s))


def epi_cases():
    """The epilogue builder under the block-scaled operator class (its automatic schedule
    takes a CTA pair only for 256 rows, a 256-column CTA tile gets 128-column subtiles), and
    the mainloop beside it with its SharedStorage as the carveout, as CUTLASS's examples
    write them."""
    out = []
    k = 0
    for t in [(256, 256, 256), (128, 256, 256), (128, 128, 256), (256, 128, 256), (128, 192, 256), (256, 192, 256),
              (128, 64, 256)]:
        for cl in [(2, 4, 1), (1, 1, 1), (2, 1, 1), (4, 4, 1)]:
            for c, d in [(BF, BF), (None, BF), (F, F), (H, H)]:
                k += 1
                if k % 3:
                    continue
                for s in [EPI_AUTO, E1, E2]:
                    if s == E2 and (t[0] != 256 or cl[0] % 2):
                        continue
                    if s == E1 and t[0] == 256:
                        continue
                    e = epilogue(t, cl, c, d, s)
                    out.append(builders.case("epilogue", "sizeof(typename %s::SharedStorage)" % e))
                    out.append(builders.case("epilogue", "typename %s::EpilogueTile{}" % e))
                    out.append(builders.case("epilogue", "%s::DispatchPolicy::StagesC" % e))
                    out.append(builders.case("epilogue", "%s::DispatchPolicy::StagesD" % e))
                    for op in builders_sm1xx.t2r_guess(None):
                        out.append(builders.case("tmem_load", "int(cute::is_same_v<typename %s::CopyOpT2R, %s>)" % (e, op)))
                    if s == EPI_AUTO and (t[0] == 256 or cl[0] % 2):
                        carve = ("cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>"
                                 "(sizeof(typename %s::SharedStorage))>" % e)
                        for a in [NV, MX8A]:
                            m = builder((a, R, 128 // BITS[a], a, C, 128 // BITS[a], "float", t, cl, carve, SA))
                            out.append(builders.case("carveout", "%s::DispatchPolicy::Stages" % m))
    return out


def cases():
    out = []
    for c in configs():
        out += members(builder(c))
    for c in FAIL:
        out.append(builders.case("refusal", "%s::DispatchPolicy::Stages" % builder(c)))
    # The dense SM100 mainloop's SharedStorage and TMA transaction bytes, which the
    # language reports for both.
    for c in builders_sm1xx.sm100_configs()[::6]:
        b = builders_sm1xx.builder("Sm100", c)
        out.append(builders.case("dense_bytes", "%s::TmaTransactionBytes" % b))
        out.append(builders.case("dense_bytes", "int(sizeof(typename %s::SharedStorage))" % b))
    return descs.unique(out + epi_cases())


if __name__ == "__main__":
    builders.use_include_from_argv()
    descs.run_cases(cases, OUT, batch=40)
