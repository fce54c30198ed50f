#!/usr/bin/env python3
"""Write hw/patterns-ext.txt: the bank-model corpus for the instructions added with Hopper/Blackwell (cp.async, 8/16-bit LDS/STS),
cp.async (SASS LDGSTS, .ca of 4/8/16 bytes and .cg of 16) and 8/16-bit LDS/STS, one
`NAME<TAB>EXPR` per line (same format as hw/patterns.txt).

Each EXPR is a `bank_conflicts(...)` expression; `hw_corpus` turns the lines into per-lane
byte addresses (hw/ext-corpus.jsonl), `hw/run.sh` measures them on an H100 and
`crates/cute-lang/tests/banks_hw.rs` checks the model against every measurement.

Rerun: python3 hw/gen_patterns_ext.py  (deterministic; no dependencies)
"""
import os

from patterns_lib import Patterns, sw, tag

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "patterns-ext.txt")
P = Patterns()
add = P.add


CA = {32: "SM80_CP_ASYNC_CACHEALWAYS_32", 64: "SM80_CP_ASYNC_CACHEALWAYS_64",
      128: "SM80_CP_ASYNC_CACHEALWAYS_128"}
CG = "SM80_CP_ASYNC_CACHEGLOBAL_128"

# --- cp.async 128 of half_t K-major tiles, as SM80 GEMMs stage them ----------------------
# (tile cols, swizzle in element units, thread layouts (M threads, K threads) of 128 threads)
K_MAJOR = [
    (64, "Sw<3,3,3>", "(16,8):(8,1)", "(16,8):(1,16)"),
    (32, "Sw<2,3,3>", "(32,4):(4,1)", "(32,4):(1,32)"),
    (16, "Sw<1,3,3>", "(64,2):(2,1)", "(64,2):(1,64)"),
]
for cols, swz, thr_row, thr_col in K_MAJOR:
    rows = {"(16,8):(8,1)": 16, "(32,4):(4,1)": 32, "(64,2):(2,1)": 64}[thr_row]
    for atom_name, at in (("ca", CA[128]), ("cg", CG)):
        for use in (None, swz, "Sw<3,3,3>" if swz != "Sw<3,3,3>" else "Sw<2,3,3>"):
            lay = sw(use, f"({rows},{cols}):({cols},1)")
            for tn, thr in (("rowthr", thr_row), ("colthr", thr_col)):
                add(f"cp128{atom_name}-h16-{cols}c-{tag(use)}-{tn}",
                    f"bank_conflicts({lay}, make_tiled_copy(atom({at}, 16), {thr}, (1,8)))")
        # padded rows: +8 halves (16 B) keeps the 16-byte alignment
        for pad in (8, 16):
            lay = f"({rows},{cols}):({cols + pad},1)"
            add(f"cp128{atom_name}-h16-{cols}c-pad{pad}-rowthr",
                f"bank_conflicts({lay}, make_tiled_copy(atom({at}, 16), {thr_row}, (1,8)))")
            add(f"cp128{atom_name}-h16-{cols}c-pad{pad}-colthr",
                f"bank_conflicts({lay}, make_tiled_copy(atom({at}, 16), {thr_col}, (1,8)))")

# The CuTe SM80 GEMM's smem atom tiled (tile_to_shape) to the copy's tile, 128 threads.
# (The TV layout indexes the copy tile column-major, so the smem layout has its shape.)
for at_n, at in (("ca", CA[128]), ("cg", CG)):
    add(f"cp128{at_n}-sm80-sA-16x64",
        f"bank_conflicts(tile_to_shape(Sw<3,3,3> o 0 o (8,64):(64,1), (16,64)), "
        f"make_tiled_copy(atom({at}, half_t), (16,8):(8,1), (1,8)))")
    add(f"cp128{at_n}-sm80-sA-32x32",
        f"bank_conflicts(tile_to_shape(Sw<2,3,3> o 0 o (8,32):(32,1), (32,32)), "
        f"make_tiled_copy(atom({at}, half_t), (32,4):(4,1), (1,8)))")

# MN-major half tiles: (M, K):(1, M), threads along M.
for m, swz in ((64, "Sw<3,3,3>"), (32, "Sw<2,3,3>")):
    thr = f"({m // 8},{128 // (m // 8)}):(1,{m // 8})"
    for use in (None, swz):
        lay = sw(use, f"({m},{128 // (m // 8)}):(1,{m})")
        add(f"cp128ca-h16-mn{m}-{tag(use)}",
            f"bank_conflicts({lay}, make_tiled_copy(atom({CA[128]}, 16), {thr}, (8,1)))")
    lay = f"({m},{128 // (m // 8)}):(1,{m + 8})"
    add(f"cp128ca-h16-mn{m}-pad8",
        f"bank_conflicts({lay}, make_tiled_copy(atom({CA[128]}, 16), {thr}, (8,1)))")

# tf32 / f32 tiles with 128-bit copies (4 floats), and 8-bit tiles (16 bytes).
for cols, swz, thr in ((32, "Sw<3,2,3>", "(16,8):(8,1)"), (16, "Sw<2,2,3>", "(32,4):(4,1)")):
    rows = 16 if cols == 32 else 32
    for use in (None, swz):
        lay = sw(use, f"({rows},{cols}):({cols},1)")
        add(f"cp128ca-f32-{cols}c-{tag(use)}",
            f"bank_conflicts({lay}, make_tiled_copy(atom({CA[128]}, 32), {thr}, (1,4)))")
    add(f"cp128ca-f32-{cols}c-pad4",
        f"bank_conflicts(({rows},{cols}):({cols + 4},1), make_tiled_copy(atom({CA[128]}, 32), {thr}, (1,4)))")
for use in (None, "Sw<3,4,3>"):
    lay = sw(use, "(16,128):(128,1)")
    add(f"cp128ca-i8-128c-{tag(use)}",
        f"bank_conflicts({lay}, make_tiled_copy(atom({CA[128]}, 8), (16,8):(8,1), (1,16)))")
    add(f"cp128cg-i8-128c-{tag(use)}-colthr",
        f"bank_conflicts({lay}, make_tiled_copy(atom({CG}, 8), (16,8):(1,16), (1,16)))")

# --- cp.async 64 and 32 ----------------------------------------------------------------
for cols, swz in ((64, "Sw<3,2,3>"), (32, "Sw<2,2,3>")):
    thr_row = f"({128 // (cols // 4)},{cols // 4}):({cols // 4},1)"
    thr_col = f"({128 // (cols // 4)},{cols // 4}):(1,{128 // (cols // 4)})"
    rows = 128 // (cols // 4)
    for use in (None, swz, "Sw<3,3,3>"):
        lay = sw(use, f"({rows},{cols}):({cols},1)")
        add(f"cp64-h16-{cols}c-{tag(use)}-rowthr",
            f"bank_conflicts({lay}, make_tiled_copy(atom({CA[64]}, 16), {thr_row}, (1,4)))")
        add(f"cp64-h16-{cols}c-{tag(use)}-colthr",
            f"bank_conflicts({lay}, make_tiled_copy(atom({CA[64]}, 16), {thr_col}, (1,4)))")
    add(f"cp64-h16-{cols}c-pad4-colthr",
        f"bank_conflicts(({rows},{cols}):({cols + 4},1), make_tiled_copy(atom({CA[64]}, 16), {thr_col}, (1,4)))")
for cols, swz in ((32, "Sw<3,1,3>"), (16, "Sw<2,1,3>")):
    rows = 128 // (cols // 2)
    thr_row = f"({rows},{cols // 2}):({cols // 2},1)"
    thr_col = f"({rows},{cols // 2}):(1,{rows})"
    for use in (None, swz):
        lay = sw(use, f"({rows},{cols}):({cols},1)")
        add(f"cp64-f32-{cols}c-{tag(use)}-rowthr",
            f"bank_conflicts({lay}, make_tiled_copy(atom({CA[64]}, 32), {thr_row}, (1,2)))")
        add(f"cp64-f32-{cols}c-{tag(use)}-colthr",
            f"bank_conflicts({lay}, make_tiled_copy(atom({CA[64]}, 32), {thr_col}, (1,2)))")
for cols, swz in ((32, "Sw<3,0,5>"), (64, "Sw<5,0,5>")):
    rows = 128 // cols
    for use in (None, swz):
        lay = sw(use, f"({32},{cols}):({cols},1)")
        add(f"cp32-f32-{cols}c-{tag(use)}-rowthr",
            f"bank_conflicts({lay}, make_tiled_copy(atom({CA[32]}, 32), ({rows},{cols}):({cols},1)))")
        add(f"cp32-f32-{cols}c-{tag(use)}-colthr",
            f"bank_conflicts({lay}, make_tiled_copy(atom({CA[32]}, 32), (32,{128 // 32}):(1,32)))")
    add(f"cp32-f32-{cols}c-pad1-colthr",
        f"bank_conflicts((32,{cols}):({cols + 1},1), make_tiled_copy(atom({CA[32]}, 32), (32,{128 // 32}):(1,32)))")
for use in (None, "Sw<3,1,4>"):
    lay = sw(use, "(32,32):(32,1)")
    add(f"cp32-h16-32c-{tag(use)}-colthr",
        f"bank_conflicts({lay}, make_tiled_copy(atom({CA[32]}, 16), (32,4):(1,32), (1,2)))")
    add(f"cp32-h16-32c-{tag(use)}-rowthr",
        f"bank_conflicts({lay}, make_tiled_copy(atom({CA[32]}, 16), (32,4):(4,1), (1,2)))")

# --- explicit LDGSTS accesses on a 1-D buffer: strides, broadcasts, partial warps ---------
for st in (1, 2, 3, 4, 8, 16, 32, 33):
    add(f"ldgsts32-stride{st}", f"bank_conflicts(8192:1, 32, (32,1):({st},0), LDGSTS32)")
for st in (2, 4, 6, 8, 16, 32, 64):
    add(f"ldgsts64-stride{st}", f"bank_conflicts(8192:1, 32, (32,2):({st},1), LDGSTS64)")
for st in (4, 8, 12, 16, 32, 64, 128):
    add(f"ldgsts128-stride{st}", f"bank_conflicts(8192:1, 32, (32,4):({st},1), LDGSTS128)")
    add(f"ldgsts128cg-stride{st}", f"bank_conflicts(8192:1, 32, (32,4):({st},1), LDGSTS128_CG)")
for bits, v in ((32, 1), (64, 2), (128, 4)):
    add(f"ldgsts{bits}-bcast", f"bank_conflicts(1024:1, 32, (32,{v}):(0,1), LDGSTS{bits})")
    add(f"ldgsts{bits}-pairs", f"bank_conflicts(1024:1, 32, ((2,16),{v}):((0,{v}),1), LDGSTS{bits})")
    add(f"ldgsts{bits}-halves-same", f"bank_conflicts(1024:1, 32, ((16,2),{v}):(({v},0),1), LDGSTS{bits})")
    add(f"ldgsts{bits}-8lanes", f"bank_conflicts(1024:1, 32, (8,{v}):({v},1), LDGSTS{bits})")
    add(f"ldgsts{bits}-20lanes-stride32", f"bank_conflicts(8192:1, 32, (20,{v}):(32,1), LDGSTS{bits})")
add("ldgsts128-quarters-swapped", "bank_conflicts(8192:1, 32, ((8,2,2),4):((4,64,32),1), LDGSTS128)")
add("ldgsts128-quarter-internal-2way", "bank_conflicts(8192:1, 32, ((4,2,4),4):((4,32,64),1), LDGSTS128)")
add("ldgsts128cg-quarter-internal-2way", "bank_conflicts(8192:1, 32, ((4,2,4),4):((4,32,64),1), LDGSTS128_CG)")
add("ldgsts64-halves-bankclash", "bank_conflicts(8192:1, 32, ((16,2),2):((2,64),1), LDGSTS64)")
add("ldgsts64-evenodd", "bank_conflicts(8192:1, 32, ((2,16),2):((64,2),1), LDGSTS64)")

# --- 8- and 16-bit LDS / STS ---------------------------------------------------------------
for ins in ("LDS8", "STS8"):
    for st in (1, 2, 3, 4, 5, 8, 64, 128, 129):
        add(f"{ins.lower()}-stride{st}", f"bank_conflicts(8192:1, 8, (32,1):({st},0), {ins})")
for ins in ("LDS16", "STS16"):
    for st in (1, 2, 3, 4, 32, 64, 65):
        add(f"{ins.lower()}-stride{st}", f"bank_conflicts(8192:1, 16, (32,1):({st},0), {ins})")
for ins, b in (("LDS8", 8), ("STS8", 8), ("LDS16", 16), ("STS16", 16)):
    lo = ins.lower()
    add(f"{lo}-bcast", f"bank_conflicts(1024:1, {b}, (32,1):(0,0), {ins})")
    add(f"{lo}-groups4-same", f"bank_conflicts(1024:1, {b}, ((4,8),1):((0,1),0), {ins})")
    add(f"{lo}-8lanes", f"bank_conflicts(1024:1, {b}, (8,1):(1,0), {ins})")
    add(f"{lo}-multi4", f"bank_conflicts(8192:1, {b}, (32,4):(4,1), {ins})")
# byte tiles: (32,64) of 8-bit, thread t reads row t (a column walk per instruction)
for use in (None, "Sw<3,4,3>", "Sw<2,4,3>"):
    lay = sw(use, "(32,64):(64,1)")
    for ins in ("LDS8", "STS8"):
        add(f"{ins.lower()}-i8-32x64-{tag(use)}-rowthr",
            f"bank_conflicts({lay}, 8, (32,4):(1,32), {ins})")
        add(f"{ins.lower()}-i8-32x64-{tag(use)}-colthr",
            f"bank_conflicts({lay}, 8, (32,2):(32,1), {ins})")
for pad in (1, 4):
    add(f"lds8-i8-32x64-pad{pad}-rowthr", f"bank_conflicts((32,64):({64 + pad},1), 8, (32,4):(1,32), LDS8)")
    add(f"sts8-i8-32x64-pad{pad}-rowthr", f"bank_conflicts((32,64):({64 + pad},1), 8, (32,4):(1,32), STS8)")
# half tiles: (32,64) K-major, thread t reads/writes row t (transposing access)
for use in (None, "Sw<3,3,3>", "Sw<2,3,3>", "Sw<3,1,4>"):
    lay = sw(use, "(32,64):(64,1)")
    for ins in ("LDS16", "STS16"):
        add(f"{ins.lower()}-h16-32x64-{tag(use)}-rowthr",
            f"bank_conflicts({lay}, 16, (32,2):(1,32), {ins})")
        add(f"{ins.lower()}-h16-32x64-{tag(use)}-colthr",
            f"bank_conflicts({lay}, 16, (32,2):(32,1), {ins})")
for pad in (1, 2, 8):
    add(f"lds16-h16-32x64-pad{pad}-rowthr", f"bank_conflicts((32,64):({64 + pad},1), 16, (32,2):(1,32), LDS16)")
    add(f"sts16-h16-32x64-pad{pad}-rowthr", f"bank_conflicts((32,64):({64 + pad},1), 16, (32,2):(1,32), STS16)")
# UniversalCopy_8 / _16 tiled copies (the atom maps to LDS8 / LDS16; stores named)
for use in (None, "Sw<3,3,3>"):
    lay = sw(use, "(32,64):(64,1)")
    add(f"uc16-h16-32x64-{tag(use)}-row",
        f"bank_conflicts({lay}, make_tiled_copy(atom(UniversalCopy_16, half_t), (4,32):(32,1)))")
    add(f"uc16-h16-32x64-{tag(use)}-col",
        f"bank_conflicts({lay}, make_tiled_copy(atom(UniversalCopy_16, half_t), (32,4):(1,32)))")
    add(f"uc16-h16-32x64-{tag(use)}-col-st",
        f"bank_conflicts({lay}, make_tiled_copy(atom(UniversalCopy_16, half_t), (32,4):(1,32)), STS16)")
for use in (None, "Sw<3,4,3>"):
    lay = sw(use, "(32,128):(128,1)")
    add(f"uc8-i8-32x128-{tag(use)}-row",
        f"bank_conflicts({lay}, make_tiled_copy(atom(UniversalCopy_8, 8), (1,128):(128,1)))")
    add(f"uc8-i8-32x128-{tag(use)}-col",
        f"bank_conflicts({lay}, make_tiled_copy(atom(UniversalCopy_8, 8), (32,4):(1,32)))")
    add(f"uc8-i8-32x128-{tag(use)}-col-st",
        f"bank_conflicts({lay}, make_tiled_copy(atom(UniversalCopy_8, 8), (32,4):(1,32)), STS8)")
# 4-bit elements, two per byte
add("lds8-i4-contig", "bank_conflicts(4096:1, 4, (32,2):(2,1), LDS8)")
add("lds8-i4-stride256", "bank_conflicts(16384:1, 4, (32,2):(256,1), LDS8)")
add("sts8-i4-stride8", "bank_conflicts(4096:1, 4, (32,2):(8,1), STS8)")
add("lds16-i8-stride64", "bank_conflicts(8192:1, 8, (32,2):(64,1), LDS16)")
add("sts16-i8-contig", "bank_conflicts(8192:1, 8, (32,2):(2,1), STS16)")

P.write(OUT, "# Bank-model corpus for cp.async and 8/16-bit LDS/STS, generated by "
            "hw/gen_patterns_ext.py; NAME<TAB>EXPR per line.")
