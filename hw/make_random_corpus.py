#!/usr/bin/env python3
"""Random corpus in hw/corpus.jsonl format (timing / smoke tests / model checks).

    python3 hw/make_random_corpus.py N OUT.jsonl [SEED] [strided|irregular]

strided:   lane i -> (stride * i) mod 8 KiB, random op and stride.
irregular: each lane picks one of K random slots (K in 1..32) inside a random
           window, so broadcasts, duplicates inside quads and bank conflicts
           all occur; for ld/st ops about 1 pattern in 3 also has random
           inactive lanes (-1).
"""
import json
import random
import sys

OPS = {"ld32": 4, "ld64": 8, "ld128": 16, "st32": 4, "st64": 8, "st128": 16}
for k in ("ldsm", "stsm"):
    for x in ("x1", "x2", "x4"):
        for t in ("", "_t"):
            OPS[f"{k}_{x}{t}"] = 16

n, out = int(sys.argv[1]), sys.argv[2]
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
mode = sys.argv[4] if len(sys.argv) > 4 else "strided"
with open(out, "w") as f:
    for k in range(n):
        op = rng.choice(sorted(OPS))
        size = OPS[op]
        if mode == "strided":
            stride = size * rng.choice([1, 2, 3, 4, 8, 16, 32])
            addrs = [(stride * i) % 8192 // size * size for i in range(32)]
        else:
            window = rng.choice([128, 256, 512, 1024, 4096])
            slots = rng.sample(range(window // size), min(window // size, rng.choice([1, 2, 3, 4, 6, 8, 12, 16, 32])))
            addrs = [size * rng.choice(slots) for _ in range(32)]
            if not op.startswith(("ldsm", "stsm")) and rng.random() < 0.33:
                p = rng.random()
                addrs = [a if rng.random() > p else -1 for a in addrs]
        f.write(json.dumps({"name": f"{mode}{k}", "op": op, "instrs": [addrs]}) + "\n")
