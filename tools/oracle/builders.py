#!/usr/bin/env python3
"""Golden data for CUTLASS's SM90 GEMM mainloop CollectiveBuilder, from the real headers.

The builder headers compile on the host with g++ once the CUDA built-ins their kernels name
are declared (the prelude below) and nvcc's version is set to 12.9, which the builders read
(`KernelScheduleAuto` picks its schedule by __CUDACC_VER_MAJOR__/MINOR__).

Writes testdata/builder-cases.jsonl: {"op", "expr", "expect"[, "msg"]}. Each expression is
a member of one `CollectiveBuilder<arch::Sm90, arch::OpClassTensorOp, ...>::CollectiveOp`
(its SmemLayoutA/B, atoms, DispatchPolicy::Stages, the TiledMma's atom and threads, which
TMA load and schedule it picked), or of one epilogue builder's (sizeof(SharedStorage), the
epilogue tile, StagesC/D, the smem atoms, the TMA store; a mainloop whose carveout is that
SharedStorage), written as C++ and the language alike; a configuration CUTLASS refuses (TMA
alignment, FP8-only schedules, too little shared memory for 2 stages, a tile the GMMA or
the epilogue cannot take) is an "error" line with its static_assert message.

Run: ORACLE_DIR=oracle-work python3 tools/oracle/builders.py [-j 2]
  (--include DIR: another CUTLASS include/ directory, e.g. a newer CUTLASS's)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import descs  # noqa: E402  (the Oracle runner)

PRELUDE = r"""
// Host-only stand-ins for the CUDA built-ins the collectives' device code names; nothing
// here runs.
struct cute_oracle_dim3 { unsigned x = 0, y = 0, z = 0; };
static cute_oracle_dim3 threadIdx, blockIdx, blockDim, gridDim;
inline void __syncthreads() {}
inline void __syncwarp(unsigned = 0xffffffff) {}
// WMMA needs <mma.h>'s device types: read its header before nvcc's version is set.
#include <cutlass/arch/wmma.h>
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 9
#include <cuda_runtime_api.h>
extern "C" cudaError_t cudaMemsetAsync(void*, int, size_t, cudaStream_t) { return cudaSuccess; }
extern "C" cudaError_t cudaGetLastError() { return cudaSuccess; }
"""
descs.HEADERS = ("#include <cstdio>\n#include <cstdlib>\n" + PRELUDE +
                 "#include <cute/tensor.hpp>\n#include <cutlass/gemm/collective/collective_builder.hpp>\n"
                 "#include <cutlass/epilogue/collective/collective_builder.hpp>\n"
                 "using namespace cute;\n")
descs.EXTRA_FLAGS = ["-fpermissive"]
OUT = os.path.join(descs.ROOT, "testdata/builder-cases.jsonl")

H, BF, F, E4, E5, I8 = "cutlass::half_t", "cutlass::bfloat16_t", "float", "cutlass::float_e4m3_t", "cutlass::float_e5m2_t", "int8_t"
R, C = "cutlass::layout::RowMajor", "cutlass::layout::ColumnMajor"
AUTO = "cutlass::gemm::collective::StageCountAuto"
SA = "cutlass::gemm::collective::KernelScheduleAuto"
WS, COOP, PP = ("cutlass::gemm::KernelTmaWarpSpecialized", "cutlass::gemm::KernelTmaWarpSpecializedCooperative",
                "cutlass::gemm::KernelTmaWarpSpecializedPingpong")
F8WS, F8COOP, F8PP = (WS + "FP8FastAccum", COOP + "FP8FastAccum", PP + "FP8FastAccum")


def sc(n):
    return "cutlass::gemm::collective::StageCount<%d>" % n


def co(n):
    return "cutlass::gemm::collective::StageCountAutoCarveout<%d>" % n


def shape(m, n, k):
    return "Shape<_%d,_%d,_%d>" % (m, n, k)


def align(e):
    return {H: 8, BF: 8, F: 4, E4: 16, E5: 16, I8: 16}[e]


def configs():
    """(A, layout A, alignment A, B, layout B, alignment B, accumulator, tile, cluster,
    stages, schedule): the SS mainloop's inputs (16-bit types in every layout, the others
    K-major, which CUTLASS routes there), and refusals."""
    out = []
    tiles = [(64, 128, 64), (128, 128, 64), (128, 256, 64), (256, 128, 64), (128, 64, 64),
             (64, 64, 64), (128, 128, 32), (128, 192, 64), (128, 160, 64), (192, 128, 64),
             (128, 16, 64), (64, 256, 64), (128, 128, 128)]
    clusters = [(1, 1, 1), (1, 2, 1), (2, 1, 1), (2, 2, 1)]
    stages = [AUTO, AUTO, sc(4), co(16384), co(33792)]
    scheds = [SA, SA, WS, COOP, PP]
    k = 0
    for ea, acc in [(H, F), (BF, F), (H, H)]:
        for la, lb in [(R, C), (C, R), (R, R), (C, C)]:
            for t in tiles:
                k += 1
                cl = clusters[k % len(clusters)]
                st = stages[k % len(stages)]
                s = scheds[(k // 2) % len(scheds)]
                if s == COOP and t[0] < 128:
                    s = PP
                out.append((ea, la, 8, ea, lb, 8, acc, t, cl, st, s))
    # tf32 (float), FP8 and int8 read K-major only: A RowMajor, B ColumnMajor.
    for ea, eb, acc, ks in [(F, F, F, [32, 64]), (E4, E4, F, [64, 128]), (E4, E5, F, [128]),
                            (E5, E4, H, [64]), (I8, I8, "int32_t", [64, 128])]:
        for t in [(64, 128), (128, 128), (128, 256), (256, 128)]:
            for kk in ks:
                k += 1
                s = [SA, WS, PP, COOP][k % 4] if t[0] >= 128 else [SA, WS, PP][k % 3]
                out.append((ea, R, align(ea), eb, C, align(eb), acc, t + (kk,), clusters[k % 4],
                            stages[k % len(stages)], s))
    for t in [(128, 128, 128), (128, 256, 128), (64, 128, 128)]:
        for s in [F8WS, F8COOP, F8PP]:
            if s == F8COOP and t[0] < 128:
                continue
            out.append((E4, R, 16, E4, C, 16, F, t, (1, 2, 1), AUTO, s))
    # Refusals: TMA alignment, FP8-only schedules, too few stages, tiles the GMMA or the
    # smem atoms cannot take.
    out += [
        (H, R, 4, H, C, 8, F, (128, 128, 64), (1, 1, 1), AUTO, COOP),
        (H, R, 8, H, C, 2, F, (128, 128, 64), (1, 1, 1), AUTO, WS),
        (H, R, 8, H, C, 8, F, (128, 128, 64), (1, 1, 1), AUTO, F8COOP),
        (H, R, 8, H, C, 8, F, (128, 128, 64), (1, 1, 1), sc(1), COOP),
        (H, R, 8, H, C, 8, F, (256, 256, 128), (1, 1, 1), AUTO, COOP),
        (E4, R, 16, E4, C, 16, F, (256, 256, 256), (1, 1, 1), AUTO, COOP),
        (H, R, 8, H, C, 8, F, (96, 128, 64), (1, 1, 1), AUTO, WS),
        (H, R, 8, H, C, 8, F, (128, 128, 8), (1, 1, 1), AUTO, COOP),
        (H, R, 8, H, C, 8, F, (128, 12, 64), (1, 1, 1), AUTO, COOP),
        (F, R, 4, F, C, 4, F, (128, 128, 4), (1, 1, 1), AUTO, COOP),
    ]
    return out


def builder(c):
    ea, la, aa, eb, lb, ab, acc, t, cl, st, s = c
    return ("cutlass::gemm::collective::CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, "
            "%s, %s, %d, %s, %s, %d, %s, %s, %s, %s, %s>::CollectiveOp"
            % (ea, la, aa, eb, lb, ab, acc, shape(*t), shape(*cl), st, s))


def case(op, expr):
    return descs.Case(op, expr, "  print(%s); printf(\"\\n\");\n" % expr)


def cases():
    out = []
    for c in configs():
        b = builder(c)
        out.append(case("smem_layout", "typename %s::SmemLayoutA{}" % b))
        out.append(case("smem_layout", "typename %s::SmemLayoutB{}" % b))
        out.append(case("smem_atom", "typename %s::SmemLayoutAtomA{}" % b))
        out.append(case("smem_atom", "typename %s::SmemLayoutAtomB{}" % b))
        out.append(case("stages", "%s::DispatchPolicy::Stages" % b))
        out.append(case("tiled_mma", "typename %s::TiledMma::AtomShape_MNK{}" % b))
        out.append(case("tiled_mma", "typename %s::TiledMma::AtomLayoutA_TV{}" % b))
        out.append(case("tiled_mma", "size(typename %s::TiledMma{})" % b))
        for m, ops in [("GmemTiledCopyA", ["SM90_TMA_LOAD", "SM90_TMA_LOAD_MULTICAST"]),
                       ("GmemTiledCopyB", ["SM90_TMA_LOAD_MULTICAST"])]:
            for op in ops:
                out.append(case("gmem_copy", "int(cute::is_same_v<typename %s::%s, %s>)" % (b, m, op)))
        for tag in [WS, COOP, PP]:
            out.append(case("schedule", "int(cute::is_same_v<typename %s::DispatchPolicy::Schedule, %s>)" % (b, tag)))
    return descs.unique(out + epi_cases())


EPI_SCHEDS = ["cutlass::epilogue::collective::EpilogueScheduleAuto", "cutlass::epilogue::NoSmemWarpSpecialized",
              "cutlass::epilogue::TmaWarpSpecialized", "cutlass::epilogue::TmaWarpSpecializedCooperative"]
TILE_AUTO = "cutlass::epilogue::collective::EpilogueTileAuto"


def epi_configs():
    """(tile, epilogue tile, C (or None for void) and its layout, D and its layout, schedule):
    the SM90 epilogue builder with the default fusion, and its refusals."""
    out = []
    k = 0
    for t in [(128, 128, 64), (128, 256, 64), (256, 128, 64), (64, 128, 64), (64, 64, 64), (128, 64, 64),
              (128, 16, 64), (128, 8, 64), (128, 192, 64)]:
        for c, d in [(H, H), (F, F), (F, H), (None, H), (BF, BF), (H, F), (E4, E4), (None, F)]:
            k += 1
            lc, ld = [(R, R), (C, C), (R, R), (R, C)][k % 4]
            for s in EPI_SCHEDS:
                if s.endswith("Cooperative") and t[0] < 128:
                    continue
                if s.endswith("Auto") and k % 3:
                    continue
                out.append((t, TILE_AUTO, c, lc, d, ld, s))
    out += [
        ((128, 128, 64), "Shape<_64,_32>", H, R, H, R, EPI_SCHEDS[2]),
        ((128, 128, 64), "Shape<_128,_64>", H, R, H, R, EPI_SCHEDS[3]),
        ((128, 128, 64), "Shape<_128,_32>", H, R, H, R, EPI_SCHEDS[2]),
        ((128, 128, 64), "Shape<_128,_24>", H, R, H, R, EPI_SCHEDS[3]),
        ((192, 128, 64), TILE_AUTO, H, R, H, R, EPI_SCHEDS[3]),
        ((128, 12, 64), TILE_AUTO, H, R, H, R, EPI_SCHEDS[2]),
    ]
    return out


def align_of(e, bad=False):
    return align(e) // (2 if bad else 1)


def epilogue(c, misalign=False):
    t, et, ec, lc, ed, ld, s = c
    ce = "void" if ec is None else ec
    return ("cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, "
            "%s, Shape<_1,_1,_1>, %s, float, float, %s, %s, %d, %s, %s, %d, %s>::CollectiveOp"
            % (shape(*t), et, ce, lc, align_of(ec or ed, misalign), ed, ld, align_of(ed), s))


def epi_cases():
    out = []
    cfgs = epi_configs()
    nosmem = 0
    for i, c in enumerate(cfgs):
        e = epilogue(c)
        out.append(case("epilogue", "sizeof(typename %s::SharedStorage)" % e))
        out.append(case("epilogue", "int(cute::is_same_v<typename %s::GmemTiledCopyD, SM90_TMA_STORE>)" % e))
        if c[-1].endswith(("Auto", "NoSmemWarpSpecialized")):
            # The no-smem epilogue has no tile, stages or atoms (C++ refuses the member):
            # a few of those refusals, each a compile of its own.
            nosmem += 1
            if nosmem % 30 == 1:
                out.append(case("epilogue", "typename %s::EpilogueTile{}" % e))
                out.append(case("epilogue", "%s::DispatchPolicy::StagesC" % e))
        else:
            out.append(case("epilogue", "typename %s::EpilogueTile{}" % e))
            out.append(case("epilogue", "%s::DispatchPolicy::StagesC" % e))
            out.append(case("epilogue", "%s::DispatchPolicy::StagesD" % e))
            out.append(case("epilogue", "typename %s::SmemLayoutAtomC{}" % e))
            out.append(case("epilogue", "typename %s::SmemLayoutAtomD{}" % e))
        if i % 4 == 0:
            t = c[0]
            m = builder((H, R, 8, H, C, 8, F, t, (1, 2, 1),
                         "cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename %s::SharedStorage))>" % e,
                         SA))
            out.append(case("carveout", "%s::DispatchPolicy::Stages" % m))
        if i % 9 == 0:
            out.append(case("epilogue", "sizeof(typename %s::SharedStorage)" % epilogue(c, misalign=True)))
    return out


def use_include_from_argv():
    """`--include DIR`: compile against another CUTLASS include/ directory (a newer one)."""
    if "--include" not in sys.argv:
        return
    i = sys.argv.index("--include")
    inc = os.path.abspath(sys.argv[i + 1])
    del sys.argv[i:i + 2]
    orig = descs.Oracle.__init__

    def init(self, oracle_dir, tmp):
        orig(self, oracle_dir, tmp)
        self.inc[-1] = "-I" + inc
    descs.Oracle.__init__ = init


if __name__ == "__main__":
    use_include_from_argv()
    descs.run_cases(cases, OUT, batch=40)
