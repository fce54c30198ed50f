#!/usr/bin/env python3
"""Write hw/probe-corpus.jsonl: small patterns that pin down the H100 shared
memory bank model (wavefront grouping for 32/64/128-bit accesses, broadcast,
stores, ldmatrix/stmatrix, inactive lanes).

    python3 hw/make_probe.py [OUT.jsonl]

"expect" is the textbook expectation (wavefronts), only for reading the
results; the harness ignores it.
"""
import json
import os
import sys

L = range(32)
pats = []


def add(name, op, addrs, expect=None, note=None):
    instrs = addrs if isinstance(addrs[0], list) else [addrs]
    for a in instrs:
        assert len(a) == 32, name
    p = {"name": name, "op": op, "instrs": instrs}
    if expect is not None:
        p["expect"] = expect
    if note:
        p["note"] = note
    pats.append(p)


# 1. ld32
add("ld32_contig", "ld32", [4 * i for i in L], 1)
add("ld32_stride128", "ld32", [128 * i for i in L], 32, "32-way: all lanes bank 0, distinct words")
add("ld32_bcast", "ld32", [0] * 32, 1)
add("ld32_pairs_same_word", "ld32", [4 * (i % 16) for i in L], 1, "lanes i, i+16 same word")
add("ld32_stride8", "ld32", [8 * i for i in L], 2, "2-way")
add("ld32_two_words_bank0", "ld32", [128 * (i % 2) for i in L], 2, "2 distinct words, one bank")
add("ld32_lanes0_7", "ld32", [4 * i if i < 8 else -1 for i in L], 1, "inactive lanes 8-31")
add("ld32_lanes0_7_stride128", "ld32", [128 * i if i < 8 else -1 for i in L], 8,
    "inactive lanes 8-31, 8-way among active")
# multi-instruction pattern (checks instr-index mapping)
add("ld32_multi", "ld32", [[4 * i for i in L], [128 * i for i in L], [0] * 32], None,
    "3 instrs: expect 1, 32, 1")

# 2. ld64
add("ld64_contig", "ld64", [8 * i for i in L], 2)
add("ld64_halfdup", "ld64", [8 * (i % 16) for i in L], 1, "lanes i and i+16 same address")
add("ld64_stride16", "ld64", [16 * i for i in L], 4)
add("ld64_stride256", "ld64", [256 * i for i in L], 32)
add("ld64_bcast", "ld64", [0] * 32, 1)
add("ld64_halves_split", "ld64", [8 * i if i < 16 else 8 * i + 128 for i in L], 2,
    "lanes 0-15 -> bytes 0..127, lanes 16-31 -> 256..383")
add("ld64_evenodd_split", "ld64", [8 * (i // 2) if i % 2 == 0 else 256 + 8 * (i // 2) for i in L], 2,
    "even lanes -> 0..127, odd lanes -> 256..383: 2 if optimal grouping, 4 if strict half-warps")
add("ld64_split4096", "ld64", [8 * i if i < 16 else 8 * (i - 16) + 4096 for i in L], 2)
add("ld64_halfdup_crossed", "ld64", [8 * (i % 16) if i < 16 else 8 * (15 - (i % 16)) for i in L], 1,
    "second half reads the first half's addresses reversed")

# 3. ld128
add("ld128_contig", "ld128", [16 * i for i in L], 4)
add("ld128_bcast", "ld128", [0] * 32, 1)
add("ld128_qdup", "ld128", [16 * (i % 8) for i in L], 1, "each quarter warp reads the same 128 B")
add("ld128_hdup", "ld128", [16 * (i % 16) for i in L], 2, "lanes i and i+16 same address")
add("ld128_div4", "ld128", [16 * (i // 4) for i in L], 1, "groups of 4 lanes share 16 B; 128 B total")
add("ld128_stride128", "ld128", [128 * i for i in L], 32, "32 rows of 128 B: worst")
add("ld128_qswap", "ld128", [16 * (i ^ 8) for i in L], 4, "quarter warps 0<->1, 2<->3 swapped")
add("ld128_q01_samebanks", "ld128", [16 * i if i < 8 else (1024 + 16 * (i - 8) if i < 16 else -1) for i in L], 2,
    "lanes 0-7 and 8-15 same banks, different rows; 16-31 inactive")
add("ld128_quarter_complement", "ld128",
    [16 * (i % 4) + 128 * ((i % 8) // 4) + 64 * ((i // 8) % 2) + 256 * (i // 16) for i in L], 4,
    "each quarter warp has a 2-way conflict but quarters 0/1 (and 2/3) are complementary: "
    "4 if merged optimally, 8 if strictly per quarter")
add("ld128_half_dup_in_quarter", "ld128", [16 * (i % 4) + 64 * (i // 8) for i in L], 2,
    "lanes 4-7 repeat lanes 0-3 within each quarter; 512->256 distinct bytes")

# 4. stores
add("st32_contig", "st32", [4 * i for i in L], 1)
add("st32_bcast", "st32", [0] * 32, 1, "all lanes store the same word")
add("st32_stride128", "st32", [128 * i for i in L], 32)
add("st32_stride8", "st32", [8 * i for i in L], 2)
add("st64_contig", "st64", [8 * i for i in L], 2)
add("st64_bcast", "st64", [0] * 32, 1)
add("st64_halfdup", "st64", [8 * (i % 16) for i in L], 1)
add("st64_stride256", "st64", [256 * i for i in L], 32)
add("st128_contig", "st128", [16 * i for i in L], 4)
add("st128_bcast", "st128", [0] * 32, 1)
add("st128_qdup", "st128", [16 * (i % 8) for i in L], 1)
add("st128_stride128", "st128", [128 * i for i in L], 32)

# 5. ldmatrix / stmatrix
rows = {
    "contig": [16 * i for i in L],
    "stride128": [128 * i for i in L],
    "stride64": [64 * i for i in L],
    "stride32": [32 * i for i in L],
    "stride80": [80 * i for i in L],
    "swz": [(128 * i) ^ (16 * (i % 8)) for i in L],
}
exp_per_matrix = {"contig": 1, "stride128": 8, "stride64": 4, "stride32": 2, "stride80": 1, "swz": 1}
for x, nmat in (("x1", 1), ("x2", 2), ("x4", 4)):
    for t in ("", "_t"):
        op = f"ldsm_{x}{t}"
        for rname in ("contig", "stride128", "stride64", "swz"):
            add(f"{op}_{rname}", op, rows[rname], nmat * exp_per_matrix[rname])
add("ldsm_x4_stride32", "ldsm_x4", rows["stride32"], 8)
add("ldsm_x4_stride80", "ldsm_x4", rows["stride80"], 4)
add("ldsm_x4_matdup", "ldsm_x4", [16 * (i % 8) for i in L], None, "all 4 matrices same rows")
add("ldsm_x1_unused_lanes_conflict", "ldsm_x1", [16 * i if i < 8 else 128 * i for i in L], 1,
    "lanes 8-31 would conflict but x1 ignores their addresses")
for x, nmat in (("x1", 1), ("x2", 2), ("x4", 4)):
    for t in ("", "_t"):
        op = f"stsm_{x}{t}"
        names = ("contig", "stride128", "stride64", "swz") if x == "x4" else ("contig", "stride128")
        for rname in names:
            add(f"{op}_{rname}", op, rows[rname], nmat * exp_per_matrix[rname])

# 7. round 2: when do 64-bit half-warps / 128-bit quarter-warps share a wavefront?
N = -1
add("r2_ld64_mod2", "ld64", [8 * (i % 2) for i in L])
add("r2_ld64_mod4", "ld64", [8 * (i % 4) for i in L])
add("r2_ld64_mod8", "ld64", [8 * (i % 8) for i in L])
add("r2_ld64_div16", "ld64", [8 * (i // 16) for i in L], None, "half 0 all addr 0, half 1 all addr 8")
add("r2_ld64_h0mod4_h1mod4p32", "ld64", [8 * (i % 4) + (32 if i >= 16 else 0) for i in L], None,
    "4 unique per half, 8 in all (64 B), disjoint banks")
add("r2_ld64_h0lo_h1hi", "ld64", [8 * (i % 8) + (64 if i >= 16 else 0) for i in L], None,
    "half 0 reads bytes 0..63, half 1 64..127 (8 unique each, 128 B, no conflict)")
add("r2_ld64_h0bcast_h1contig", "ld64", [0 if i < 16 else 8 * i for i in L])
add("r2_ld64_half0_only", "ld64", [8 * i if i < 16 else N for i in L])
add("r2_ld64_half1_only", "ld64", [8 * i if i >= 16 else N for i in L])
add("r2_ld64_lane0_16_diffbank", "ld64", [0 if i == 0 else (8 if i == 16 else N) for i in L])
add("r2_ld64_lane0_16_samebank", "ld64", [0 if i == 0 else (128 if i == 16 else N) for i in L])
add("r2_ld64_lane0_1_samebank", "ld64", [0 if i == 0 else (128 if i == 1 else N) for i in L])
add("r2_ld64_lane0_1_diffbank", "ld64", [0 if i == 0 else (8 if i == 1 else N) for i in L])
add("r2_ld64_stride128_mod8", "ld64", [128 * (i % 8) for i in L], None,
    "8-way in each half, both halves the same 8 addresses")
add("r2_ld64_mod8_x2", "ld64", [16 * (i % 8) for i in L], None, "8 unique 8B at 16B stride, repeated")
add("r2_ld128_mod2", "ld128", [16 * (i % 2) for i in L])
add("r2_ld128_mod4", "ld128", [16 * (i % 4) for i in L], None, "every quarter reads the same 64 B")
add("r2_ld128_div8", "ld128", [16 * (i // 8) for i in L], None, "each quarter one chunk, 4 chunks")
add("r2_ld128_div2", "ld128", [16 * (i // 2) for i in L], None, "4 unique per quarter, 256 B total")
add("r2_ld128_div16", "ld128", [16 * (i // 16) for i in L], None, "half 0 chunk 0, half 1 chunk 16")
add("r2_ld128_q_2uniq_spread", "ld128", [32 * (i // 8) + 128 * (i % 2) for i in L],
    None, "quarter q reads {32q, 32q+128}: 2-way bank conflict inside each quarter")
add("r2_ld128_q_2uniq_nonadj", "ld128", [64 * (i % 2) + 16 * (i // 8) for i in L], None,
    "quarter q reads {16q, 16q+64}: 2 unique, conflict-free, union 8 chunks")
add("r2_ld128_q0_only", "ld128", [16 * i if i < 8 else N for i in L])
add("r2_ld128_q1_only", "ld128", [16 * i if 8 <= i < 16 else N for i in L])
add("r2_ld128_q0q2_only", "ld128", [16 * i if i < 8 else (128 + 16 * (i - 16) if 16 <= i < 24 else N) for i in L],
    None, "quarters 0 and 2 active: q0 reads 0..127, q2 128..255")
add("r2_ld128_q0q1_halfrow", "ld128", [16 * (i % 4) + 64 * (i // 8) if i < 16 else N for i in L], None,
    "q0 reads 0..63 (4 uniq), q1 reads 64..127 (4 uniq); q2,q3 inactive")
add("r2_ld128_q0q1_4lanes", "ld128", [16 * i if i < 4 else (64 + 16 * (i - 8) if 8 <= i < 12 else N) for i in L],
    None, "4 lanes of q0 (0..63) and 4 lanes of q1 (64..127), others inactive")
add("r2_ld128_q0q2_4lanes", "ld128", [16 * i if i < 4 else (64 + 16 * (i - 16) if 16 <= i < 20 else N) for i in L],
    None, "4 lanes of q0 (0..63) and 4 lanes of q2 (64..127), others inactive")
add("r2_ld128_lane0_8_diffbank", "ld128", [0 if i == 0 else (16 if i == 8 else N) for i in L])
add("r2_ld128_lane0_16_diffbank", "ld128", [0 if i == 0 else (16 if i == 16 else N) for i in L])
add("r2_ld128_lane0_1_samebank", "ld128", [0 if i == 0 else (128 if i == 1 else N) for i in L])
add("r2_ld128_lane0_8_samebank", "ld128", [0 if i == 0 else (128 if i == 8 else N) for i in L])
add("r2_ld128_8lanes_spread", "ld128", [16 * (i // 4) if i % 4 == 0 else N for i in L], None,
    "lanes 0,4,8,..,28 active reading chunks 0..7 (128 B)")
add("r2_ld128_mod4_hsplit", "ld128", [16 * (i % 4) + (64 if i >= 16 else 0) for i in L], None,
    "half 0 reads 0..63, half 1 64..127 (4 unique each)")
add("r2_st64_mod2", "st64", [8 * (i % 2) for i in L])
add("r2_st64_half0_only", "st64", [8 * i if i < 16 else N for i in L])
add("r2_st64_lane0_16_diffbank", "st64", [0 if i == 0 else (8 if i == 16 else N) for i in L])
add("r2_st128_div4", "st128", [16 * (i // 4) for i in L])
add("r2_st128_div16", "st128", [16 * (i // 16) for i in L])
add("r2_st128_q0_only", "st128", [16 * i if i < 8 else N for i in L])
add("r2_st128_lane0_8_diffbank", "st128", [0 if i == 0 else (16 if i == 8 else N) for i in L])
add("r2_st32_stride128_mod2", "st32", [128 * (i % 2) for i in L])
add("r2_ld32_none_active", "ld32", [N] * 32, 0, "all lanes inactive: predicated-off instruction")
add("r2_ldsm_x4_m0_2way", "ldsm_x4", [32 * i if i < 8 else 256 + 16 * i for i in L], 5,
    "matrix 0 rows at 32 B stride (2-way), matrices 1-3 contiguous")
add("r2_ldsm_x1_same_row", "ldsm_x1", [0] * 32, None, "all 8 row addresses identical")
add("r2_ldsm_x4_rows_bcast", "ldsm_x4", [16 * (i // 8) for i in L], None,
    "each matrix: its 8 rows the same address")
add("r2_ldsm_x2_m1_same_as_m0_banks", "ldsm_x2", [16 * (i % 8) + (1024 if i >= 8 else 0) for i in L], 2)
add("r2_stsm_x4_rows_bcast", "stsm_x4", [16 * (i // 8) for i in L])

# 8. round 3: discriminate "per-quad" from "per-group total" merge rules
#    (see README: LDS.64 whole warp in one pass iff every quad needs <= 16 B
#    of distinct data; LDS.128 half-warp in one pass iff every quad <= 32 B)
add("r3_ld64_q0_32B_q4_32B", "ld64",
    [8 * i if i < 4 else (32 + 8 * (i - 16) if 16 <= i < 20 else N) for i in L], None,
    "quads 0 and 4 need 32 B each (64 B in all): per-quad rule -> 2, total rule -> 1")
add("r3_ld64_pairs_128B", "ld64", [8 * (i // 2) for i in L], None,
    "every quad 16 B, 128 B distinct over the warp, no conflict -> 1 if whole-warp pass")
add("r3_ld64_merge_conflict", "ld64", [8 * (i % 2) + 128 * (i // 16) for i in L], None,
    "quads 16 B; halves hit the same banks: whole-warp pass -> 2 wf with 1 conflict, "
    "half passes -> 2 wf with 0 conflicts")
add("r3_ld128_q0_48B", "ld128", [16 * i if i < 3 else 0 for i in L], None,
    "quad 0 needs 48 B, all else chunk 0: per-quad -> 3, half-total -> 2")
add("r3_ld128_merge_conflict", "ld128", [16 * (i % 2) + 128 * ((i // 8) % 2) for i in L], None,
    "quads 32 B; quarters of a half hit the same banks: half pass -> 2+2 wf, 2 conflicts; "
    "quarter passes -> 4 wf, 0 conflicts")
add("r3_ld128_pairs_quads_2chunks_far", "ld128", [16 * (i % 2) + 256 * (i // 4) for i in L], None,
    "each quad 2 chunks at 256 B apart per quad: banks 0-7 for every quad")
add("r3_st64_pairs_128B", "st64", [8 * (i // 2) for i in L])
add("r3_st128_div2", "st128", [16 * (i // 2) for i in L])

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "probe-corpus.jsonl")
with open(out, "w") as f:
    for p in pats:
        f.write(json.dumps(p) + "\n")
print(f"wrote {len(pats)} patterns ({sum(len(p['instrs']) for p in pats)} instructions) to {out}",
      file=sys.stderr)
