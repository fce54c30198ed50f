#!/usr/bin/env python3
"""Golden data for CUTLASS's Blackwell GEMM mainloop CollectiveBuilders (SM100's dense TMA
UMMA mainloop, 1-SM and 2-SM; SM120's F8F6F4 mainloop), from the real headers, compiled
host-only with the prelude of builders.py.

Writes testdata/builder-sm1xx-cases.jsonl: {"op", "expr", "expect"[, "msg"]}, each expression
a member of one `CollectiveBuilder<arch::Sm100|Sm120, arch::OpClassTensorOp, ...>::CollectiveOp`
(SmemLayoutA/B and their atoms, DispatchPolicy::Stages, the accumulator stages, the tiled
MMA's atom shape, A layout and threads, which TMA load it picked); a configuration CUTLASS
refuses is an "error" line with the static_assert message, which the language's error must
contain.

The builders here are the newest CUTLASS's (the SM100 and SM120 builders changed after 4.2):
Run: ORACLE_DIR=oracle-work python3 tools/oracle/builders_sm1xx.py --include CUTLASS/include
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import builders  # noqa: E402  (the prelude and the spellings)
import descs  # noqa: E402

from builders import H, BF, F, E4, E5, I8, R, C, AUTO, SA, COOP, PP, sc, co  # noqa: E402

OUT = os.path.join(descs.ROOT, "testdata/builder-sm1xx-cases.jsonl")
S1, S2 = "cutlass::gemm::KernelTmaWarpSpecialized1SmSm100", "cutlass::gemm::KernelTmaWarpSpecialized2SmSm100"
F8F6F4 = "cutlass::gemm::KernelScheduleF8f6f4Sm120"
E2M1 = "cutlass::float_e2m1_t"
# With size(TiledMma) (1 SM or 2), these two tell the four loads apart.
TMA_OPS = ["SM90_TMA_LOAD", "SM100_TMA_2SM_LOAD"]


def shape(*ns):
    """Shape<...> of static integers; CuTe names _N only for some N (Int<272> otherwise)."""
    named = set(range(11)) | {12, 16, 24} | set(range(32, 257, 8)) | {384, 512}
    return "Shape<%s>" % ",".join("_%d" % n if n in named else "Int<%d>" % n for n in ns)


def align(e):
    return {H: 8, BF: 8, F: 4, E4: 16, E5: 16, I8: 16, E2M1: 128}[e]


def feasible(t, cl, s):
    """Whether the SM100 builder takes the tile and cluster with this schedule (its MMA's
    rows: 64/128 on one SM, 128/256 on a CTA pair on an even cluster M)."""
    two = s == S2 or (s == SA and cl[0] % 2 == 0 and t[0] % 128 == 0)
    if two:
        return cl[0] % 2 == 0 and t[0] in (128, 256)
    return t[0] in (64, 128)


def sm100_configs():
    out = []
    tiles = [(128, 128, 64), (128, 256, 64), (64, 128, 64), (256, 128, 64), (128, 64, 64), (64, 64, 64),
             (128, 192, 64), (256, 256, 64), (128, 128, 128), (128, 16, 64), (256, 128, 128), (64, 256, 64),
             (128, 128, 32), (256, 64, 64)]
    clusters = [(1, 1, 1), (2, 1, 1), (1, 2, 1), (2, 2, 1), (4, 1, 1)]
    stages = [AUTO, co(32768), sc(4), AUTO, co(16384)]
    scheds = [SA, S1, S2, SA]
    k = 0
    for ea, acc in [(H, F), (BF, F), (H, H)]:
        for la, lb in [(R, C), (C, R), (R, R), (C, C)]:
            for t in tiles:
                k += 1
                for j in range(len(clusters) * len(scheds)):
                    cl = clusters[(k + j) % len(clusters)]
                    s = scheds[(k + j // len(clusters)) % len(scheds)]
                    if feasible(t, cl, s):
                        break
                if (k % 4) and (ea, acc) != (H, F):
                    continue
                out.append((ea, la, 8, ea, lb, 8, acc, t, cl, stages[k % len(stages)], s))
    for ea, eb, acc, ks, lays in [(F, F, F, [32], [(R, C), (C, R), (C, C)]), (E4, E4, F, [128, 64], [(R, C), (C, R)]),
                                  (E4, E5, F, [128], [(R, C)]), (E5, E4, H, [128], [(R, C)]),
                                  (I8, I8, "int32_t", [128, 64], [(R, C)])]:
        for la, lb in lays:
            for t in [(128, 128), (128, 256), (256, 128), (64, 128)]:
                for kk in ks:
                    k += 1
                    cl = [(1, 1, 1), (2, 1, 1), (2, 2, 1), (1, 2, 1)][k % 4]
                    s = [SA, S1, S2][k % 3]
                    if not feasible(t + (kk,), cl, s):
                        cl, s = ((2, 1, 1), SA) if t[0] == 256 else ((1, 1, 1), S1)
                    out.append((ea, la, align(ea), eb, lb, align(eb), acc, t + (kk,), cl, stages[k % len(stages)], s))
    return out


# Refusals, each its own compile: the MMA's rows for the schedule, an odd cluster for a CTA
# pair, N, K against the atom, types, accumulators, alignment, stages.
SM100_FAIL = [
    (H, R, 8, H, C, 8, F, (256, 128, 64), (2, 1, 1), AUTO, S1),
    (H, R, 8, H, C, 8, F, (128, 128, 64), (1, 1, 1), AUTO, S2),
    (H, R, 8, H, C, 8, F, (256, 128, 64), (1, 1, 1), AUTO, SA),
    (H, R, 8, H, C, 8, F, (128, 272, 64), (1, 1, 1), AUTO, S1),
    (H, R, 8, BF, C, 8, F, (128, 128, 64), (1, 1, 1), AUTO, S1),
    (H, R, 8, H, C, 8, F, (128, 128, 64), (1, 1, 1), sc(1), S1),
    (H, R, 8, H, C, 8, F, (256, 256, 256), (2, 1, 1), AUTO, S2),
    (H, R, 8, H, C, 8, F, (128, 128, 64), (1, 1, 1), co(232256), S1),
    (F, R, 4, F, R, 4, F, (128, 16, 32), (1, 1, 1), AUTO, S1),
    (I8, R, 16, I8, C, 16, "int32_t", (128, 128, 16), (1, 1, 1), AUTO, S1),
    (H, R, 8, H, C, 8, F, (128, 128, 8), (1, 1, 1), AUTO, S1),
    (H, R, 8, H, C, 8, F, (128, 128, 64), (1, 2, 1), AUTO, S2),
    (H, R, 8, H, C, 8, F, (64, 128, 64), (2, 1, 1), AUTO, S2),
    (H, R, 8, H, C, 8, F, (256, 8, 64), (2, 1, 1), AUTO, S2),
    (I8, R, 16, I8, C, 16, F, (128, 128, 128), (1, 1, 1), AUTO, S1),
    (H, R, 4, H, C, 8, F, (128, 128, 64), (1, 1, 1), AUTO, S1),
    (H, R, 8, H, C, 8, F, (128, 128, 64), (1, 1, 1), AUTO, COOP),
]


def sm120_configs():
    out = []
    k = 0
    for ea, eb, acc in [(E4, E4, F), (E4, E5, F), (E5, E4, F), (E5, E5, F)]:
        for t in [(128, 128, 128), (64, 128, 128), (128, 256, 64), (256, 128, 64), (128, 128, 64), (128, 64, 128),
                  (128, 16, 128), (64, 64, 128), (128, 128, 32), (256, 256, 64)]:
            k += 1
            if k % 2 and ea != eb:
                continue
            s = [SA, COOP, PP, F8F6F4][k % 4]
            st = [AUTO, co(16384), sc(2), AUTO, sc(3)][k % 5]
            out.append((ea, R, 16, eb, C, 16, acc, t, (1, 1, 1), st, s))
    out += [(E2M1, R, 128, E2M1, C, 128, F, (128, 128, 128), (1, 1, 1), AUTO, SA),
            (E2M1, R, 128, E4, C, 16, F, (128, 128, 128), (1, 1, 1), AUTO, PP)]
    return out


SM120_FAIL = [
    (H, R, 8, H, C, 8, F, (128, 128, 64), (1, 1, 1), AUTO, SA),
    (E4, R, 16, E4, C, 16, F, (128, 128, 128), (2, 1, 1), AUTO, SA),
    (E4, C, 16, E4, R, 16, F, (128, 128, 128), (1, 1, 1), AUTO, SA),
    (E4, R, 16, E4, C, 16, F, (128, 128, 256), (1, 1, 1), AUTO, SA),
    (E2M1, R, 128, E2M1, C, 128, F, (128, 128, 64), (1, 1, 1), AUTO, SA),
    (E4, R, 16, E4, C, 16, F, (128, 128, 128), (1, 1, 1), AUTO, S1),
]


EPI_AUTO, TILE_AUTO = "cutlass::epilogue::collective::EpilogueScheduleAuto", "cutlass::epilogue::collective::EpilogueTileAuto"
E1, E2 = "cutlass::epilogue::TmaWarpSpecialized1Sm", "cutlass::epilogue::TmaWarpSpecialized2Sm"
N1, N2 = "cutlass::epilogue::NoSmemWarpSpecialized1Sm", "cutlass::epilogue::NoSmemWarpSpecialized2Sm"


def epi_configs():
    """SM100's epilogue builder with the default fusion: (MMA tile, cluster, epilogue tile, C
    (None: void) and its layout, D and its layout, schedule)."""
    out = []
    k = 0
    for t in [(128, 128, 64), (256, 128, 64), (128, 256, 64), (64, 128, 64), (256, 256, 64), (128, 64, 64),
              (128, 192, 64), (64, 64, 64), (128, 32, 64), (256, 192, 64)]:
        for c, d in [(H, H), (F, F), (None, H), (None, F), (H, F), (BF, BF), (E4, E4), (None, E4), (F, H)]:
            k += 1
            lc, ld = [(R, R), (C, C), (R, R), (C, R), (R, C)][k % 5]
            for s in [EPI_AUTO, E1, E2, N1, N2]:
                if (k + len(s)) % 3:
                    continue
                cl = (2, 1, 1) if s in (E2, N2) or (s == EPI_AUTO and k % 2) else (1, 1, 1)
                if (s in (E1, N1) and t[0] == 256) or (s in (E2, N2) and t[0] == 64):
                    continue
                out.append((t, cl, TILE_AUTO, c, lc, d, ld, s))
    out += [((128, 128, 64), (1, 1, 1), "Shape<_128,_32>", H, R, H, R, E1),
            ((128, 128, 64), (1, 1, 1), "Shape<_64,_64>", F, R, F, R, E1),
            ((256, 128, 64), (2, 1, 1), "Shape<_128,_64>", H, R, H, R, E2),
            ((128, 128, 64), (1, 1, 1), "Shape<_128,_64>", H, R, H, R, N1)]
    return out


# Refusals: a 2-SM schedule on an odd cluster, Auto with a tile, misaligned C, a CTA tile too
# narrow for a TMA row, an N the 2-SM 16-bit epilogue cannot split, an SM90 tag.
EPI_FAIL = [
    ((256, 128, 64), (1, 1, 1), TILE_AUTO, H, R, H, R, E2),
    ((128, 128, 64), (1, 1, 1), "Shape<_128,_32>", H, R, H, R, EPI_AUTO),
    ((128, 128, 64), (1, 1, 1), TILE_AUTO, H, R, H, R, E1, 4),
    ((128, 8, 64), (1, 1, 1), TILE_AUTO, E4, R, E4, R, E1),
    ((256, 160, 64), (2, 1, 1), TILE_AUTO, H, R, H, R, E2),
    ((128, 128, 64), (1, 1, 1), "Shape<_128,_12>", H, R, H, R, E1),
    ((128, 128, 64), (1, 1, 1), TILE_AUTO, H, R, H, R, "cutlass::epilogue::TmaWarpSpecialized"),
]


def epilogue(c, arch="Sm100"):
    t, cl, et, ec, lc, ed, ld, s = c[:8]
    ac = c[8] if len(c) > 8 else align(ec or ed)
    return ("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::%s, cutlass::arch::OpClassTensorOp, "
            "%s, %s, %s, float, float, %s, %s, %d, %s, %s, %d, %s>::CollectiveOp"
            % (arch, shape(*t), shape(*cl), et, ec or "void", lc, ac, ed, ld, align(ed), s))


SM90_WS, SM90_CO = "cutlass::epilogue::TmaWarpSpecialized", "cutlass::epilogue::TmaWarpSpecializedCooperative"


def sm120_epi_configs():
    """SM120's epilogue builder (SM90's TMA collective with SM120's tile and stages): tiles
    of SM120's F8F6F4 mainloop, C and D of 32-, 16- and 8-bit types or void, both layouts."""
    out = []
    k = 0
    for t in [(128, 128, 128), (128, 256, 64), (64, 128, 128), (128, 64, 128), (128, 16, 128), (256, 128, 64),
              (128, 8, 128), (64, 64, 128)]:
        for c, d in [(H, H), (F, F), (None, H), (None, F), (BF, BF), (H, F), (E4, E4), (None, E4), (F, BF)]:
            k += 1
            lc, ld = [(R, R), (C, C), (R, R), (C, R)][k % 4]
            s = [EPI_AUTO, SM90_CO, SM90_WS][k % 3]
            out.append((t, (1, 1, 1), TILE_AUTO, c, lc, d, ld, s))
    out += [((128, 128, 128), (1, 1, 1), "Shape<_64,_64>", H, R, H, R, SM90_CO),
            ((128, 128, 128), (1, 1, 1), "Shape<_128,_32>", F, R, F, R, SM90_WS)]
    return out


SM120_EPI_FAIL = [
    ((128, 128, 128), (1, 1, 1), "Shape<_96,_32>", H, R, H, R, SM90_CO),
    ((128, 128, 128), (1, 1, 1), TILE_AUTO, H, R, H, R, "cutlass::epilogue::NoSmemWarpSpecialized"),
    ((128, 128, 128), (1, 1, 1), TILE_AUTO, H, R, H, R, E1),
]


def t2r_guess(c):
    """Two TMEM loads to test CopyOpT2R against: the one the language picks is read from
    the other cases' answers by the test, so both are asked of C++ (is_same is 1 for one)."""
    return ["SM100_TMEM_LOAD_32dp32b16x", "SM100_TMEM_LOAD_32dp32b32x", "SM100_TMEM_LOAD_32dp32b64x",
            "SM100_TMEM_LOAD_16dp256b4x", "SM100_TMEM_LOAD_16dp256b8x"]


def epi_cases():
    out = []
    for i, c in enumerate(epi_configs()):
        e = epilogue(c)
        out.append(builders.case("epilogue", "sizeof(typename %s::SharedStorage)" % e))
        out.append(builders.case("epilogue", "typename %s::EpilogueTile{}" % e))
        for op in t2r_guess(c):
            out.append(builders.case("tmem_load", "int(cute::is_same_v<typename %s::CopyOpT2R, %s>)" % (e, op)))
        if c[-1] in (N1, N2):
            continue
        out.append(builders.case("epilogue", "%s::DispatchPolicy::StagesC" % e))
        out.append(builders.case("epilogue", "%s::DispatchPolicy::StagesD" % e))
        out.append(builders.case("epilogue", "typename %s::SmemLayoutAtomC{}" % e))
        out.append(builders.case("epilogue", "typename %s::SmemLayoutAtomD{}" % e))
        if i % 3 == 0:
            # A mainloop whose carveout is this epilogue's shared storage, as the examples write it.
            t, cl = c[0], c[1]
            s = S2 if c[-1] == E2 else S1
            m = builder("Sm100", (H, R, 8, H, C, 8, F, t, cl,
                                  "cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename %s::SharedStorage))>" % e,
                                  s if c[-1] != EPI_AUTO else SA))
            out.append(builders.case("carveout", "%s::DispatchPolicy::Stages" % m))
    for c in EPI_FAIL:
        out.append(builders.case("refusal", "sizeof(typename %s::SharedStorage)" % epilogue(c)))
    for i, c in enumerate(sm120_epi_configs()):
        e = epilogue(c, "Sm120")
        out.append(builders.case("sm120_epilogue", "sizeof(typename %s::SharedStorage)" % e))
        out.append(builders.case("sm120_epilogue", "typename %s::EpilogueTile{}" % e))
        out.append(builders.case("sm120_epilogue", "%s::DispatchPolicy::StagesC" % e))
        out.append(builders.case("sm120_epilogue", "%s::DispatchPolicy::StagesD" % e))
        out.append(builders.case("sm120_epilogue", "typename %s::SmemLayoutAtomD{}" % e))
        if i % 4 == 0:
            # SM120's mainloop beside this epilogue, the carveout as CUTLASS's examples write it.
            m = builder("Sm120", (E4, R, 16, E4, C, 16, F, c[0], (1, 1, 1),
                                  "cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename %s::SharedStorage))>" % e,
                                  SA))
            out.append(builders.case("sm120_carveout", "%s::DispatchPolicy::Stages" % m))
    for c in SM120_EPI_FAIL:
        out.append(builders.case("refusal", "sizeof(typename %s::SharedStorage)" % epilogue(c, "Sm120")))
    return out


def builder(arch, c):
    ea, la, aa, eb, lb, ab, acc, t, cl, st, s = c
    return ("cutlass::gemm::collective::CollectiveBuilder<cutlass::arch::%s, cutlass::arch::OpClassTensorOp, "
            "%s, %s, %d, %s, %s, %d, %s, %s, %s, %s, %s>::CollectiveOp"
            % (arch, ea, la, aa, eb, lb, ab, acc, shape(*t), shape(*cl), st, s))


def members(b, arch):
    out = [builders.case("smem_layout", "typename %s::SmemLayoutA{}" % b),
           builders.case("smem_layout", "typename %s::SmemLayoutB{}" % b),
           builders.case("smem_atom", "typename %s::SmemLayoutAtomA{}" % b),
           builders.case("smem_atom", "typename %s::SmemLayoutAtomB{}" % b),
           builders.case("stages", "%s::DispatchPolicy::Stages" % b),
           builders.case("tiled_mma", "typename %s::TiledMma::AtomShape_MNK{}" % b),
           builders.case("tiled_mma", "typename %s::TiledMma::AtomLayoutA_TV{}" % b),
           builders.case("tiled_mma", "size(typename %s::TiledMma{})" % b)]
    if arch == "Sm100":
        out.append(builders.case("acc_stages", "%s::DispatchPolicy::Schedule::AccumulatorPipelineStageCount" % b))
        for m in ["GmemTiledCopyA", "GmemTiledCopyB"]:
            for op in TMA_OPS:
                out.append(builders.case("gmem_copy", "int(cute::is_same_v<typename %s::%s, %s>)" % (b, m, op)))
    else:
        out.append(builders.case("tiled_mma", "tile_shape(typename %s::TiledMma{})" % b))
    return out


def cases():
    out = []
    for arch, ok, bad in [("Sm100", sm100_configs(), SM100_FAIL), ("Sm120", sm120_configs(), SM120_FAIL)]:
        for c in ok:
            out += members(builder(arch, c), arch)
        for c in bad:
            out.append(builders.case("refusal", "%s::DispatchPolicy::Stages" % builder(arch, c)))
    return descs.unique(out + epi_cases())


if __name__ == "__main__":
    builders.use_include_from_argv()
    descs.run_cases(cases, OUT, batch=40)
