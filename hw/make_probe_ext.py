#!/usr/bin/env python3
"""Write hw/probe-ext-corpus.jsonl: probe and random patterns for the instructions added in
cp.async (LDGSTS) and 8/16-bit LDS/STS.

    python3 hw/make_probe_ext.py [OUT.jsonl]

Questions the probes ask the hardware:
  * 8/16-bit: do lanes touching different bytes of one 4-byte word share a wavefront (for
    loads AND stores)? same byte from many lanes (broadcast / colliding stores)? bank
    conflicts between words of one bank; stride sweeps; partial warps.
  * cp.async: how is the warp split into phases (every 32/64/128-bit ld/st probe of
    hw/probe-corpus.jsonl is replayed as cp.async.ca of that width, and the 128-bit ones
    as cp.async.cg)? Does the global side matter? (ops ending in _gm read global memory at
    the same offsets as the shared-memory ones instead of lane * size.)
  * random patterns for every new op (seeded).
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
L = range(32)
N = -1
pats = []
names = set()


def add(name, op, addrs, note=None):
    instrs = addrs if isinstance(addrs[0], list) else [addrs]
    for a in instrs:
        assert len(a) == 32, name
    assert name not in names, name
    names.add(name)
    p = {"name": name, "op": op, "instrs": instrs}
    if note:
        p["note"] = note
    pats.append(p)


# --- 1. 8-bit ------------------------------------------------------------------------------
for op in ("ld8", "st8"):
    add(f"x_{op}_contig", op, [i for i in L], "32 bytes = 8 words, 4 lanes per word")
    add(f"x_{op}_bcast", op, [0] * 32, "every lane byte 0")
    add(f"x_{op}_word0_4lanes", op, [i if i < 4 else N for i in L], "lanes 0-3: bytes 0-3 of word 0")
    add(f"x_{op}_word0_2lanes_b01", op, [i if i < 2 else N for i in L])
    add(f"x_{op}_word0_2lanes_b03", op, [0 if i == 0 else (3 if i == 1 else N) for i in L])
    add(f"x_{op}_word0_samebyte_2lanes", op, [0 if i < 2 else N for i in L])
    add(f"x_{op}_word0_word32_2lanes", op, [0 if i == 0 else (128 if i == 1 else N) for i in L],
        "two words of bank 0")
    add(f"x_{op}_word0_word32_b1", op, [0 if i == 0 else (129 if i == 1 else N) for i in L],
        "byte 0 of word 0, byte 1 of word 32 (bank 0)")
    add(f"x_{op}_bank0_8words_4bytes", op, [(i % 4) + 128 * (i // 4) for i in L],
        "8 words of bank 0, 4 lanes (bytes 0-3) each")
    add(f"x_{op}_bank0_8words_samebyte", op, [128 * (i // 4) for i in L],
        "8 words of bank 0, 4 lanes (same byte) each")
    add(f"x_{op}_bank0_32words", op, [128 * i + (i % 4) for i in L], "32 words of bank 0")
    add(f"x_{op}_word_per_lane_bytemix", op, [4 * i + (i % 4) for i in L], "lane i: byte i%4 of word i")
    add(f"x_{op}_2lanes_per_word_16words", op, [4 * (i // 2) + 2 * (i % 2) for i in L])
    add(f"x_{op}_halves_same_bytes", op, [i % 16 for i in L], "lanes i and i+16 same byte")
    add(f"x_{op}_halves_other_bytes", op, [(i % 16) ^ (1 if i >= 16 else 0) for i in L],
        "lanes i and i+16 neighbouring bytes")
    add(f"x_{op}_rev", op, [31 - i for i in L])
    add(f"x_{op}_none_active", op, [N] * 32)
    for st in (2, 3, 4, 5, 6, 8, 12, 16, 32, 33, 64, 96, 128, 132, 256, 257):
        add(f"x_{op}_stride{st}", op, [(st * i) % 8192 for i in L])

# --- 2. 16-bit -----------------------------------------------------------------------------
for op in ("ld16", "st16"):
    add(f"x_{op}_contig", op, [2 * i for i in L], "64 bytes = 16 words, 2 lanes per word")
    add(f"x_{op}_bcast", op, [0] * 32)
    add(f"x_{op}_word0_2lanes", op, [2 * i if i < 2 else N for i in L], "lanes 0,1: halves of word 0")
    add(f"x_{op}_word0_samehalf_2lanes", op, [0 if i < 2 else N for i in L])
    add(f"x_{op}_bank0_16words_2halves", op, [2 * (i % 2) + 128 * (i // 2) for i in L],
        "16 words of bank 0, 2 lanes (both halves) each")
    add(f"x_{op}_bank0_16words_samehalf", op, [128 * (i // 2) for i in L])
    add(f"x_{op}_bank0_32words", op, [128 * i + 2 * (i % 2) for i in L])
    add(f"x_{op}_word_per_lane_halfmix", op, [4 * i + 2 * (i % 2) for i in L])
    add(f"x_{op}_halves_same", op, [2 * (i % 16) for i in L])
    add(f"x_{op}_halves_other_half", op, [2 * ((i % 16) ^ (1 if i >= 16 else 0)) for i in L])
    add(f"x_{op}_8lanes_stride128", op, [128 * i if i < 8 else N for i in L])
    add(f"x_{op}_none_active", op, [N] * 32)
    for st in (4, 6, 8, 10, 16, 32, 64, 66, 128, 130, 256):
        add(f"x_{op}_stride{st}", op, [(st * i) % 8192 for i in L])

# --- 3. cp.async: every 32/64/128-bit ld/st probe as cp.async of that width -----------------
probe = [json.loads(l) for l in open(os.path.join(HERE, "probe-corpus.jsonl")) if l.strip()]
WIDTH = {"ld32": 32, "st32": 32, "ld64": 64, "st64": 64, "ld128": 128, "st128": 128}
for p in probe:
    bits = WIDTH.get(p["op"])
    if bits is None:
        continue
    add(f"cpa_{p['name']}", f"cpasync_ca{bits}", p["instrs"])
    if bits == 128:
        add(f"cpg_{p['name']}", "cpasync_cg128", p["instrs"])
# the ldmatrix row patterns as 16-byte cp.async (same 32 row addresses)
for p in probe:
    if p["op"] == "ldsm_x4" or p["name"] in ("ldsm_x4_t_swz",):
        add(f"cpa_rows_{p['name']}", "cpasync_ca128", p["instrs"])

# --- 4. cp.async with the global side mirroring the shared one (_gm) ------------------------
GM = ["ld32_contig", "ld32_stride128", "ld32_bcast", "st32_stride8", "ld64_contig",
      "ld64_halfdup", "ld64_stride256", "ld64_bcast", "ld64_evenodd_split", "r2_ld64_mod2",
      "ld128_contig", "ld128_bcast", "ld128_qdup", "ld128_hdup", "ld128_div4",
      "ld128_stride128", "ld128_quarter_complement", "r2_ld128_q_2uniq_spread",
      "r2_ld128_q0q1_halfrow", "r3_ld128_merge_conflict", "ld128_qswap"]
by = {p["name"]: p for p in probe}
for n in GM:
    p = by[n]
    bits = WIDTH[p["op"]]
    add(f"cpa_gm_{n}", f"cpasync_ca{bits}_gm", p["instrs"])
    if bits == 128:
        add(f"cpg_gm_{n}", "cpasync_cg128_gm", p["instrs"])

# --- 5. random patterns --------------------------------------------------------------------
SIZE = {"ld8": 1, "st8": 1, "ld16": 2, "st16": 2, "cpasync_ca32": 4, "cpasync_ca64": 8,
        "cpasync_ca128": 16, "cpasync_cg128": 16}
rng = random.Random(12)
for op, size in SIZE.items():
    for k in range(24):
        kind = k % 3
        if kind == 0:  # strided from a random start
            stride = size * rng.choice([1, 2, 3, 4, 5, 8, 16, 32, 33, 64])
            start = size * rng.randrange(64)
            addrs = [(start + stride * i) % 8192 // size * size for i in L]
        elif kind == 1:  # K random slots in a window: broadcasts, shared words, conflicts
            window = rng.choice([16, 64, 128, 256, 512, 1024, 4096])
            window = max(window, size * 4)
            slots = rng.sample(range(window // size),
                               min(window // size, rng.choice([1, 2, 3, 4, 6, 8, 12, 16, 32])))
            addrs = [size * rng.choice(slots) for _ in L]
        else:  # few banks, many words: word w of bank b with a random byte inside
            banks = rng.sample(range(32), rng.choice([1, 2, 4]))
            addrs = []
            for _ in L:
                word = rng.choice(banks) + 32 * rng.randrange(8)
                addrs.append(4 * word // size * size + size * rng.randrange(max(1, 4 // size)))
            addrs = [a - a % size for a in addrs]
        if rng.random() < 0.3:
            p = rng.random()
            addrs = [a if rng.random() > p else N for a in addrs]
        add(f"rnd_{op}_{k}", op, addrs)

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "probe-ext-corpus.jsonl")
with open(out, "w") as f:
    for p in pats:
        f.write(json.dumps(p) + "\n")
print(f"wrote {len(pats)} patterns ({sum(len(p['instrs']) for p in pats)} instructions) to {out}",
      file=sys.stderr)
