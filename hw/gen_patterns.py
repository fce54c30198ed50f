#!/usr/bin/env python3
"""Write hw/patterns.txt: the bank-model corpus, one `NAME<TAB>EXPR` per line.

Each EXPR is a `bank_conflicts(...)` expression of the repo's expression language; the
Rust example `hw_corpus` turns it into per-lane byte addresses (hw/corpus.jsonl), the
harness in this folder measures those accesses on an H100, and the test
`crates/cute-lang/tests/banks_hw.rs` checks the model against every measurement.

Rerun: python3 hw/gen_patterns.py  (deterministic; no dependencies)
"""
import os

from patterns_lib import Patterns, sw, tag

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "patterns.txt")
P = Patterns()
add = P.add


# --- The seeds: 32x64 f32, thread t reads row t ------------------------------------------
add("seed-col-read", "bank_conflicts((32,64):(64,1), 32, (32,1):(1,32), LDS32)")
add("seed-col-read-4", "bank_conflicts((32,64):(64,1), 32, (32,4):(1,32), LDS32)")
add("seed-col-read-sw506", "bank_conflicts(Sw<5,0,6> o 0 o (32,64):(64,1), 32, (32,1):(1,32), LDS32)")
add("seed-col-read-pad1", "bank_conflicts((32,64):(65,1), 32, (32,4):(1,32), LDS32)")
add("seed-col-write", "bank_conflicts((32,64):(64,1), 32, (32,1):(1,32), STS32)")
add("seed-col-write-sw506", "bank_conflicts(Sw<5,0,6> o 0 o (32,64):(64,1), 32, (32,1):(1,32), STS32)")
for w in (64, 48, 40):
    for s in (None, "Sw<3,2,4>", "Sw<2,2,3>"):
        lay = sw(s, f"(32,{w}):({w},1)")
        add(f"seed-vec4-32x{w}-{tag(s)}", f"bank_conflicts({lay}, 32, (32,4):(1,32), LDS128)")
        add(f"seed-vec4-8thr-32x{w}-{tag(s)}", f"bank_conflicts({lay}, 32, (8,4):(1,32), LDS128)")
    add(f"seed-vec4-st-32x{w}", f"bank_conflicts((32,{w}):({w},1), 32, (32,4):(1,32), STS128)")
    add(f"seed-vec4-st-32x{w}-sw324", f"bank_conflicts(Sw<3,2,4> o 0 o (32,{w}):({w},1), 32, (32,4):(1,32), STS128)")
# Padded rows (f32): +4 keeps 16-byte alignment.
for pad in (1, 2, 4, 8):
    add(f"pad-col-read-64p{pad}", f"bank_conflicts((32,64):({64 + pad},1), 32, (32,2):(1,32), LDS32)")
for pad in (4, 8):
    add(f"pad-vec4-64p{pad}", f"bank_conflicts((32,64):({64 + pad},1), 32, (32,4):(1,32), LDS128)")
    add(f"pad-vec2-64p{pad}", f"bank_conflicts((32,64):({64 + pad},1), 32, (32,2):(1,32), LDS64)")

# --- Plain 32-bit: rows of a 1-D buffer, thread strides ------------------------------------
for st in (1, 2, 3, 4, 8, 16, 32, 33, 64):
    add(f"lds32-stride{st}", f"bank_conflicts(8192:1, 32, (32,1):({st},0), LDS32)")
for st in (2, 32):
    add(f"sts32-stride{st}", f"bank_conflicts(8192:1, 32, (32,1):({st},0), STS32)")

# --- Broadcast ------------------------------------------------------------------------------
add("bcast32-all", "bank_conflicts(1024:1, 32, (32,1):(0,0), LDS32)")
add("bcast32-groups4", "bank_conflicts(1024:1, 32, ((4,8),1):((0,1),0), LDS32)")
add("bcast32-pairs-conflict", "bank_conflicts(1024:1, 32, ((2,16),1):((0,32),0), LDS32)")
add("bcast32-half-same-word", "bank_conflicts(1024:1, 32, ((16,2),1):((1,0),0), LDS32)")
add("bcast64-all", "bank_conflicts(1024:1, 32, (32,2):(0,1), LDS64)")
add("bcast64-halves-same", "bank_conflicts(1024:1, 32, ((16,2),2):((2,0),1), LDS64)")
add("bcast64-pairs", "bank_conflicts(1024:1, 32, ((2,16),2):((0,2),1), LDS64)")
add("bcast128-all", "bank_conflicts(1024:1, 32, (32,4):(0,1), LDS128)")
add("bcast128-quarters-same", "bank_conflicts(1024:1, 32, ((8,4),4):((4,0),1), LDS128)")
add("bcast128-halves-same", "bank_conflicts(1024:1, 32, ((16,2),4):((4,0),1), LDS128)")
add("bcast128-pairs", "bank_conflicts(1024:1, 32, ((2,16),4):((0,4),1), LDS128)")
add("bcast128-quads", "bank_conflicts(1024:1, 32, ((4,8),4):((0,4),1), LDS128)")
add("bcast128-all-st", "bank_conflicts(1024:1, 32, (32,4):(0,1), STS128)")
add("bcast32-all-st", "bank_conflicts(1024:1, 32, (32,1):(0,0), STS32)")

# --- 64-bit accesses (f32 pairs and f64) -------------------------------------------------
for st in (2, 4, 6, 8, 16, 32, 64):
    add(f"lds64-stride{st}", f"bank_conflicts(8192:1, 32, (32,2):({st},1), LDS64)")
add("lds64-f64-contig", "bank_conflicts(2048:1, 64, (32,1):(1,0), LDS64)")
add("lds64-f64-col", "bank_conflicts((32,32):(32,1), 64, (32,1):(1,0), LDS64)")
add("lds64-f64-col-sw", "bank_conflicts(Sw<4,0,5> o 0 o (32,32):(32,1), 64, (32,1):(1,0), LDS64)")
add("lds64-halves-swapped", "bank_conflicts(8192:1, 32, ((16,2),2):((2,32),1), LDS64)")
add("lds64-halves-far", "bank_conflicts(8192:1, 32, ((16,2),2):((2,1024),1), LDS64)")
add("lds64-halves-bankclash", "bank_conflicts(8192:1, 32, ((16,2),2):((2,64),1), LDS64)")
add("lds64-evenodd", "bank_conflicts(8192:1, 32, ((2,16),2):((64,2),1), LDS64)")
add("sts64-contig", "bank_conflicts(8192:1, 32, (32,2):(2,1), STS64)")
add("sts64-stride32", "bank_conflicts(8192:1, 32, (32,2):(32,1), STS64)")

# --- 128-bit accesses ---------------------------------------------------------------------
for st in (4, 8, 12, 16, 32, 64, 128):
    add(f"lds128-stride{st}", f"bank_conflicts(8192:1, 32, (32,4):({st},1), LDS128)")
add("lds128-quarters-swapped", "bank_conflicts(8192:1, 32, ((8,2,2),4):((4,64,32),1), LDS128)")
add("lds128-pairs-of-quarters-clash", "bank_conflicts(8192:1, 32, ((8,4),4):((4,64),1), LDS128)")
add("lds128-quarter-internal-2way", "bank_conflicts(8192:1, 32, ((4,2,4),4):((4,32,64),1), LDS128)")
add("lds128-half-same-other-far", "bank_conflicts(8192:1, 32, ((8,2,2),4):((4,0,1024),1), LDS128)")
add("sts128-contig", "bank_conflicts(8192:1, 32, (32,4):(4,1), STS128)")
add("sts128-stride32", "bank_conflicts(8192:1, 32, (32,4):(32,1), STS128)")
add("sts128-stride16", "bank_conflicts(8192:1, 32, (32,4):(16,1), STS128)")

# --- Inactive lanes -----------------------------------------------------------------------
add("lds32-8lanes", "bank_conflicts(1024:1, 32, (8,1):(1,0), LDS32)")
add("lds32-8lanes-clash", "bank_conflicts(1024:1, 32, (8,1):(32,0), LDS32)")
add("lds128-8lanes", "bank_conflicts(1024:1, 32, (8,4):(4,1), LDS128)")
add("lds128-20lanes", "bank_conflicts(1024:1, 32, (20,4):(4,1), LDS128)")

# --- 16-bit elements: 32B/64B/128B swizzles (SM80/SM90 K-major atoms in element units) ----
ATOMS16 = [  # (name, rows, halves per row, swizzle in element units)
    ("sw128", 8, 64, "Sw<3,3,3>"),
    ("sw64", 8, 32, "Sw<2,3,3>"),
    ("sw32", 16, 16, "Sw<1,3,3>"),
]
for nm, r, c, s in ATOMS16:
    # With column-major domain indices, a tile of r rows indexes the same way whatever its
    # width, so a (r, k) thread-value tiler addresses the first k columns of the atom.
    thr = f"({r},{32 // r}):(1,{r})"  # one warp: thread t -> row t%r, column block t/r
    for use in (None, s):
        lay = sw(use, f"({r},{c}):({c},1)")
        t = "sw" if use else "plain"
        chunks = c // 8
        add(f"h16-{nm}-{t}-lds128-rows",
            f"bank_conflicts({lay}, 16, make_layout_tv(({r},{chunks}):(1,{r}), (1,8)), LDS128)")
        add(f"h16-{nm}-{t}-sts128-rows",
            f"bank_conflicts({lay}, 16, make_layout_tv(({r},{chunks}):(1,{r}), (1,8)), STS128)")
        add(f"h16-{nm}-{t}-lds32-cols",
            f"bank_conflicts({lay}, 16, make_layout_tv({thr}, (1,2)), LDS32)")
# MN-major (column-major) half tile read row-wise by ldmatrix.trans.
for use in (None, "Sw<3,3,3>"):
    lay = sw(use, "(64,8):(1,64)")
    add(f"h16-mn64x8-{tag(use)}-lds128",
        f"bank_conflicts({lay}, 16, make_layout_tv((8,8):(1,8), (8,1)), LDS128)")


# --- ldmatrix / stmatrix: the copies that feed an SM80 MMA (make_tiled_copy_A/B/C) --------
# Operand tiles cut from K-major shared-memory tiles (row pitch 64 halves = 128 B, 32 = 64 B,
# 16 = 32 B) and MN-major ones, with and without the matching swizzle, and padded.
MMA16 = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (1,1,1), (16,16,16))"  # 16x16x16 per warp
MMA1 = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN)"  # 16x8x16
MMA8 = "make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN)"  # 16x8x8
MMA_4W = "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN, (2,2,1), (32,32,16))"  # 4 warps
ROWS = [("r128", 64, "Sw<3,3,3>"), ("r64", 32, "Sw<2,3,3>"), ("r32", 16, "Sw<1,3,3>")]
COPIES = [  # (tag, operand, atom, mma, operand tile (rows, cols))
    ("A-ldsm-x4", "A", "SM75_U32x4_LDSM_N", MMA16, (16, 16)),
    ("B-ldsm-x4", "B", "SM75_U32x4_LDSM_N", MMA16, (16, 16)),
    ("B-ldsm-x2", "B", "SM75_U32x2_LDSM_N", MMA1, (8, 16)),
    ("A-ldsm-x1", "A", "SM75_U32x1_LDSM_N", MMA8, (16, 8)),
    ("B-ldsm-x1", "B", "SM75_U32x1_LDSM_N", MMA8, (8, 8)),
    ("C-stsm-x4", "C", "SM90_U32x4_STSM_N", MMA16, (16, 16)),
    ("C-stsm-x2", "C", "SM90_U32x2_STSM_N", MMA1, (16, 8)),
    ("C-stsm-x1", "C", "SM90_U32x1_STSM_N", MMA8, (16, 8)),
    ("A4w-ldsm-x4", "A", "SM75_U32x4_LDSM_N", MMA_4W, (32, 16)),
]
for rn, pitch, swz in ROWS:
    for tg, op, atom, mma, (m, k) in COPIES:
        for use in (None, swz):
            lay = sw(use, f"({m},{k}):({pitch},1)")
            add(f"h16-{rn}-{tg}-{tag(use)}",
                f"bank_conflicts({lay}, make_tiled_copy_{op}(atom({atom}, half_t), {mma}))")
TRANS = [  # MN-major tiles (column pitch) read by ldmatrix.trans / written by stmatrix.trans
    ("B-ldsm-x4t", "B", "SM75_U16x8_LDSM_T", MMA16, (16, 16)),
    ("A-ldsm-x4t", "A", "SM75_U16x8_LDSM_T", MMA16, (16, 16)),
    ("B-ldsm-x2t", "B", "SM75_U16x4_LDSM_T", MMA1, (8, 16)),
    ("B-ldsm-x1t", "B", "SM75_U16x2_LDSM_T", MMA8, (8, 8)),
    ("C-stsm-x4t", "C", "SM90_U16x8_STSM_T", MMA16, (16, 16)),
]
for rn, pitch, swz in ROWS[:2]:
    for tg, op, atom, mma, (m, k) in TRANS:
        for use in (None, swz):
            lay = sw(use, f"({m},{k}):(1,{pitch})")
            add(f"h16-mn{rn}-{tg}-{tag(use)}",
                f"bank_conflicts({lay}, make_tiled_copy_{op}(atom({atom}, half_t), {mma}))")
for tg, op, atom, mma, (m, k) in COPIES[:2] + COPIES[5:6]:
    add(f"h16-pad72-{tg}", f"bank_conflicts(({m},{k}):(72,1), make_tiled_copy_{op}(atom({atom}, half_t), {mma}))")

# --- 8-bit and 64-bit element tiles --------------------------------------------------------
for use in (None, "Sw<3,4,3>"):
    lay = sw(use, "(8,128):(128,1)")
    add(f"i8-sw128-{tag(use)}-lds128", f"bank_conflicts({lay}, 8, make_layout_tv((8,4):(1,8), (1,16)), LDS128)")
    add(f"i8-sw128-{tag(use)}-lds32-cols", f"bank_conflicts({lay}, 8, make_layout_tv((8,4):(1,8), (1,4)), LDS32)")
for use in (None, "Sw<2,1,3>", "Sw<3,1,3>"):
    lay = sw(use, "(16,16):(16,1)")
    add(f"f64-16x16-{tag(use)}-lds64-col", f"bank_conflicts({lay}, 64, (16,2):(1,16), LDS64)")
    add(f"f64-16x16-{tag(use)}-lds128-rows", f"bank_conflicts({lay}, 64, make_layout_tv((16,2):(1,16), (1,2)), LDS128)")

P.write(OUT, "# Bank-model corpus, generated by hw/gen_patterns.py; NAME<TAB>EXPR per line.")
