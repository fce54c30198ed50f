#!/usr/bin/env python3
"""Golden data for CUTLASS's SM120 block-scaled GEMM mainloop CollectiveBuilder
(`arch::Sm120`, `arch::OpClassBlockScaledTensorOp`: GeForce Blackwell's TMA warp-specialized
`mma.sync` mainloop over nv_float4_t / mx_float4_t / mx_float6_t / mx_float8_t /
cute::tuple<T, SF> operands, cooperative or pingpong) and the SM120 epilogue builder under
that operator class, from the real headers, compiled host-only with the prelude of
builders.py.

Writes testdata/builder-sm120-blockscaled-cases.jsonl: {"op", "expr", "expect"[, "msg"]},
each expression a member of one `CollectiveBuilder<...>::CollectiveOp` (SmemLayoutA/B and
their atoms, the scale factors' SmemLayoutAtomSFA/SFB and SmemLayoutSFA/SFB,
DispatchPolicy::Stages, the tiled MMA, the TMA loads, the ldmatrix copies' value layouts,
ElementSF, SFVecSize, TmaTransactionBytes, sizeof(SharedStorage)); a configuration CUTLASS
refuses is an "error" line with the static_assert message, which the language's error must
contain.

The builders are the newest CUTLASS's:
Run: ORACLE_DIR=oracle-work python3 tools/oracle/builders_sm120_blockscaled.py --include CUTLASS/include
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import builders  # noqa: E402  (the prelude and the spellings)
import builders_blockscaled as bs  # noqa: E402
import builders_sm1xx  # noqa: E402
import descs  # noqa: E402

from builders import R, C, AUTO, SA, sc, co  # noqa: E402
from builders_sm1xx import shape  # noqa: E402
from builders_blockscaled import NV, MX4, MX6A, MX6B, MX8A, MX8B, PAIR4, PAIR4NV, BITS, SCALED  # noqa: E402

OUT = os.path.join(descs.ROOT, "testdata/builder-sm120-blockscaled-cases.jsonl")
G = "cutlass::gemm::"
COOP, PP = G + "KernelTmaWarpSpecializedCooperative", G + "KernelTmaWarpSpecializedPingpong"
BASE, BASE_NV, BASE_M8 = (G + "KernelScheduleBlockScaledGemmSm120", G + "KernelScheduleMxNvf4Sm120",
                          G + "KernelScheduleMxf8f6f4Sm120")
NVF4, PP_NVF4 = G + "KernelTmaWarpSpecializedNvf4Sm120", G + "KernelTmaWarpSpecializedPingpongNvf4Sm120"
MXF4, PP_MXF4 = G + "KernelTmaWarpSpecializedMxf4Sm120", G + "KernelTmaWarpSpecializedPingpongMxf4Sm120"
M8, PP_M8 = G + "KernelTmaWarpSpecializedMxf8f6f4Sm120", G + "KernelTmaWarpSpecializedPingpongMxf8f6f4Sm120"
M8_TAGS = (BASE_M8, M8, PP_M8)
NV_TAGS = (BASE_NV, NVF4, PP_NVF4, MXF4, PP_MXF4)
PINGPONG = (PP, PP_NVF4, PP_MXF4, PP_M8)


def align(e, s):
    """TMA's alignment in elements: 128 bits (6-bit types: 128 elements), 512 / 768 bits
    for 4- / 6-bit types under an MXF8F6F4 tag."""
    b = BITS[e]
    if b == 6 or (s in M8_TAGS and b < 8):
        return 128
    return 128 // b


def mxf8f6f4(a, b, s):
    if s in M8_TAGS:
        return True
    if s in NV_TAGS:
        return False
    return not (BITS[a] == 4 and BITS[b] == 4)


def vs_of(a, s):
    if a in (NV, PAIR4NV):
        return 16
    if a == PAIR4 and s in (NVF4, PP_NVF4):
        return 16
    return 32


def feasible(a, b, t, s):
    """Whether the builder takes it (the rules sm120_blockscaled_mma_builder.inl asserts)."""
    m, n, k = t
    if s in PINGPONG and n < 16:
        return False
    if n not in (8, 16) and n < 32:
        return False
    m8 = mxf8f6f4(a, b, s)
    vs = vs_of(a, s)
    if m8 and vs != 32:
        return False
    if k % (4 * vs) or m % 128 and m > 128:
        return False
    if m8 and s in M8_TAGS and (BITS[a] < 8 or BITS[b] < 8) and k % 128:
        return False
    return True


def stages_of(a, b, t, st, s):
    """The builder's stage count (sm100_compute_stage_count_or_override_blockscaled over
    SM120's 101376 bytes less 96 for the scheduler), to keep the configurations that run."""
    m, n, k = t
    if st.startswith("cutlass::gemm::collective::StageCount<"):
        return int(st.split("<")[1].rstrip(">"))
    carve = int(st.split("<")[1].rstrip(">")) if "Carveout" in st else 0
    m8 = mxf8f6f4(a, b, s)
    ba, bb = (8, 8) if m8 else (BITS[a], BITS[b])
    vs = vs_of(a, s)
    sf = (m // 128) * 128 * k // vs + (max(n, 128) // 128) * 128 * k // vs
    return (101376 - 96 - carve) // (ba * m * k // 8 + bb * n * k // 8 + 128 + sf)


def configs():
    out = []
    pairs = [(NV, NV), (MX4, MX4), (MX8A, MX8A), (MX8B, MX8A), (MX8A, MX6B), (MX6A, MX6B), (MX8A, MX4),
             (MX4, MX8B), (PAIR4, PAIR4), (PAIR4NV, PAIR4NV)]
    tiles = [(128, 128, 128), (128, 128, 256), (256, 128, 128), (128, 256, 128), (128, 64, 128), (64, 128, 128),
             (128, 32, 256), (128, 16, 128), (128, 8, 128), (128, 128, 64), (64, 64, 256), (128, 64, 64)]
    stages = [AUTO, co(16384), sc(2), co(32768), AUTO, sc(3)]
    k = 0
    for a, b in pairs:
        f4 = BITS[a] == 4 and BITS[b] == 4
        scheds = ([SA, COOP, PP, BASE, BASE_NV, NVF4, PP_NVF4, MXF4, PP_MXF4, M8, PP_M8, BASE_M8] if f4 else
                  [SA, COOP, PP, BASE, BASE_M8, M8, PP_M8])
        for t in tiles:
            k += 1
            for j in range(len(scheds)):
                s = scheds[(k + j) % len(scheds)]
                # 16-element vectors take the Nvf4 tags or those that leave the instruction to
                # the types; find_vector_size of the other tags is 32.
                if a in (NV, PAIR4NV) and s in (BASE_NV, MXF4, PP_MXF4) + M8_TAGS:
                    continue
                if a in (MX4, PAIR4) and s in (NVF4, PP_NVF4):
                    continue
                if feasible(a, b, t, s) and stages_of(a, b, t, stages[k % len(stages)], s) >= 2:
                    out.append((a, R, align(a, s), b, C, align(b, s), "float", t, (1, 1, 1),
                                stages[k % len(stages)], s))
                    break
    return out


# Refusals, each its own compile: scale factors that disagree, a cluster, a non-TN layout,
# N below 8 or between 16 and 32, pingpong below N = 16 (no builder), a tag whose vector size
# is not the type's, NVF4 under an MXF8F6F4 tag, the unpacked-TMA rule, stages that do not
# fit, one stage, a dense schedule, misaligned operands, an SM100 tag, a K that is not whole
# blocks of scale factors, a 16-bit type.
FAIL = [
    (NV, R, 32, MX4, C, 32, "float", (128, 128, 128), (1, 1, 1), AUTO, SA),
    (NV, R, 32, NV, C, 32, "float", (128, 128, 128), (2, 1, 1), AUTO, SA),
    (MX8A, C, 16, MX8A, C, 16, "float", (128, 128, 128), (1, 1, 1), AUTO, SA),
    (NV, R, 32, NV, C, 32, "float", (128, 24, 128), (1, 1, 1), AUTO, SA),
    (NV, R, 32, NV, C, 32, "float", (128, 8, 128), (1, 1, 1), AUTO, PP),
    (NV, R, 32, NV, C, 32, "float", (128, 128, 128), (1, 1, 1), AUTO, MXF4),
    (MX4, R, 32, MX4, C, 32, "float", (128, 128, 128), (1, 1, 1), AUTO, NVF4),
    (NV, R, 128, NV, C, 128, "float", (128, 128, 128), (1, 1, 1), AUTO, M8),
    (MX8A, R, 16, MX4, C, 128, "float", (128, 128, 64), (1, 1, 1), AUTO, M8),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 128), (1, 1, 1), co(90000), SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (256, 256, 256), (1, 1, 1), AUTO, SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 128), (1, 1, 1), sc(1), SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 128), (1, 1, 1), AUTO, G + "KernelScheduleF8f6f4Sm120"),
    (MX8A, R, 8, MX8A, C, 16, "float", (128, 128, 128), (1, 1, 1), AUTO, SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 128), (1, 1, 1), AUTO,
     G + "KernelTmaWarpSpecialized1SmBlockScaledSm100"),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 64), (1, 1, 1), AUTO, SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 128, 160), (1, 1, 1), AUTO, SA),
    (NV, R, 32, NV, C, 32, "float", (128, 128, 32), (1, 1, 1), AUTO, SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 4, 128), (1, 1, 1), AUTO, SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (192, 128, 128), (1, 1, 1), AUTO, SA),
    (NV, R, 32, NV, C, 32, "float", (128, 192, 128), (1, 1, 1), AUTO, SA),
    (MX8A, R, 16, MX8A, C, 16, "float", (128, 256, 128), (1, 1, 1), AUTO, SA),
]


def builder(c):
    return bs.builder(c, "Sm120")


def members(b):
    case = builders.case
    out = bs.common_members(b) + [case("tiled_mma", "tile_shape(typename %s::TiledMma{})" % b)]
    for m in ["GmemTiledCopyA", "GmemTiledCopyB", "GmemTiledCopySFA", "GmemTiledCopySFB"]:
        out.append(case("gmem_copy", "int(cute::is_same_v<typename %s::%s, SM90_TMA_LOAD>)" % (b, m)))
    # The ldmatrix op shows in the copy atom's value layouts (x1 / x2 / x4, unpacking or not).
    for m in ["SmemCopyAtomA", "SmemCopyAtomB"]:
        for v in ["ValLayoutSrc", "ValLayoutDst"]:
            out.append(case("smem_copy", "typename %s::%s::%s{}" % (b, m, v)))
    return out


def epi_cases():
    """The SM120 epilogue builder under the block-scaled operator class, and the mainloop
    beside it with its SharedStorage as the carveout, as CUTLASS's examples write them."""
    out = []
    BF, H, F = builders.BF, builders.H, builders.F
    for t in [(128, 128, 128), (128, 128, 256), (256, 128, 128), (128, 64, 128), (128, 256, 128)]:
        for c, d in [(BF, BF), (None, BF), (F, F)]:
            ac = 128 // {BF: 16, H: 16, F: 32}[c] if c else 0
            e = ("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm120, %s, %s, %s, %s, "
                 "float, float, %s, %s, %d, %s, %s, %d, %s>::CollectiveOp"
                 % (SCALED, shape(*t), shape(1, 1, 1), builders_sm1xx.TILE_AUTO, c or "void", R, ac, d, R,
                    128 // {BF: 16, H: 16, F: 32}[d], builders_sm1xx.EPI_AUTO))
            out.append(builders.case("epilogue", "sizeof(typename %s::SharedStorage)" % e))
            out.append(builders.case("epilogue", "typename %s::EpilogueTile{}" % e))
            carve = ("cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>"
                     "(sizeof(typename %s::SharedStorage))>" % e)
            for a, b in [(NV, NV), (MX8A, MX6B)]:
                m = builder((a, R, align(a, SA), b, C, align(b, SA), "float", t, (1, 1, 1), carve, SA))
                out.append(builders.case("carveout", "%s::DispatchPolicy::Stages" % m))
    return out


def cases():
    out = []
    for c in configs():
        out += members(builder(c))
    for c in FAIL:
        out.append(builders.case("refusal", "%s::DispatchPolicy::Stages" % builder(c)))
    return descs.unique(out + epi_cases())


if __name__ == "__main__":
    builders.use_include_from_argv()
    descs.run_cases(cases, OUT, batch=40)
