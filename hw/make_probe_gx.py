#!/usr/bin/env python3
"""Write hw/probe-gx-corpus.jsonl: cp.async probes whose global side varies independently
of the shared one (ops cpasync_*_gx, field "gaddrs"), to see what the global read does to
the shared-memory wavefronts and to Nsight Compute's LDGSTS bank-conflict counter.

    python3 hw/make_probe_gx.py [OUT.jsonl]

Shared patterns per access size s: conflict-free (lane * s), 2-way in every phase, 32 lanes
on one bank (lane * 128), all lanes one address; global patterns: coalesced, one 128-byte
line per lane / per 2 / 4 / 8 lanes, lane mod 4 / 8 / 16 lines, one sector per lane, one
address, reversed, lines 2 KiB apart. The gxw_ patterns first load the global lines into
L1 (cpasync_ca128_gxw), so the cp.async hits.
"""
import json
import os
import sys

L = range(32)
HERE = os.path.dirname(os.path.abspath(__file__))


def smem(s):
    two_way = {4: [4 * (l % 16) + 128 * (l // 16) for l in L],
               8: [8 * (l % 8) + 128 * ((l % 16) // 8) + 256 * (l // 16) for l in L],
               16: [16 * (l % 4) + 128 * ((l % 8) // 4) + 256 * (l // 8) for l in L]}[s]
    return {"contig": [s * l for l in L], "2way": two_way,
            "32way": [128 * l for l in L], "bcast": [0] * 32}


def gmem(s):
    return {
        "coal": [s * l for l in L],
        "line1": [128 * l for l in L],
        "line2": [128 * (l // 2) + s * (l % 2) for l in L],
        "line4": [128 * (l // 4) + s * (l % 4) for l in L],
        "line8": [128 * (l // 8) + s * (l % 8) for l in L],
        "mod4": [128 * (l % 4) for l in L],
        "mod8": [128 * (l % 8) for l in L],
        "mod16": [128 * (l % 16) for l in L],
        "sector1": [32 * l for l in L],
        "bcast": [0] * 32,
        "rev": [s * (31 - l) for l in L],
        "far": [2048 * l for l in L],
    }


pats = []
for s, op in ((4, "cpasync_ca32_gx"), (8, "cpasync_ca64_gx"), (16, "cpasync_ca128_gx")):
    for sn, sa in smem(s).items():
        for gn, ga in gmem(s).items():
            pats.append({"name": f"gx_{8 * s}_{sn}_{gn}", "op": op, "instrs": [sa], "gaddrs": [ga]})
for sn in ("contig", "32way"):
    for gn in ("coal", "line1"):
        pats.append({"name": f"gx_cg128_{sn}_{gn}", "op": "cpasync_cg128_gx",
                     "instrs": [smem(16)[sn]], "gaddrs": [gmem(16)[gn]]})
# the same with the global lines already in L1 (cpasync_ca128_gxw: a load first)
for sn in ("contig", "2way", "32way", "bcast"):
    for gn in ("coal", "line1", "line2", "line4", "mod8", "bcast", "sector1"):
        pats.append({"name": f"gxw_128_{sn}_{gn}", "op": "cpasync_ca128_gxw",
                     "instrs": [smem(16)[sn]], "gaddrs": [gmem(16)[gn]]})
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "probe-gx-corpus.jsonl")
with open(out, "w") as f:
    for p in pats:
        f.write(json.dumps(p) + "\n")
print(f"wrote {len(pats)} patterns to {out}", file=sys.stderr)
