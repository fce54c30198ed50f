#!/usr/bin/env python3
"""Summarise the ncu raw CSV of hw/kernel/cute_gemm_sm80.cu's launches (sw333, plain,
pad72, sw333_colcopy, plain_colcopy, in the order the program prints them) into one JSON object: environment, program output, shared-memory
instructions per kernel in the SASS, and every .sum metric per launch.

    summarize.py RAW.csv STDOUT.txt KERNEL.sass GPU CUDA NCU [PROGRAM] > kernel-measured.json

(tutorial_sm80.cu prints one `tutorial ...` line for its one profiled launch; builder_sm90.cu
one `builder ...` line and `builder_config KEY VALUE` lines, kept as "config".)
"""
import csv
import datetime
import json
import re
import sys

raw, stdout, sass, gpu, cuda, ncu = sys.argv[1:7]
program = sys.argv[7] if len(sys.argv) > 7 else "hw/kernel/cute_gemm_sm80.cu, M=N=K=512, 128 threads per CTA"
with open(raw, newline="") as f:
    rows = list(csv.reader(l for l in f if not l.startswith("==")))
header, body = rows[0], [r for r in rows[1:] if len(r) == len(rows[0])]
body = [dict(zip(header, r)) for r in body if r[header.index("ID")].strip().isdigit()]
body.sort(key=lambda d: int(d["ID"]))


def num(s):
    s = (s or "").replace(",", "").strip()
    try:
        v = float(s)
    except ValueError:
        return None
    return int(v) if v == int(v) else v


variants = []
for line in open(stdout):
    m = re.match(r"(\w+) grid=(\d+)x(\d+) ctas=(\d+) k_tiles=(\d+) rel_err=(\S+) (PASS|FAIL)", line)
    if m:
        variants.append({"variant": m[1], "grid": [int(m[2]), int(m[3])], "ctas": int(m[4]),
                         "k_tiles": int(m[5]), "rel_err": float(m[6]), "result": m[7]})
# hopper_sm90.cu: the report's TMA encode arguments against CuTe's descriptors
tma_args = []
for line in open(stdout):
    m = re.match(r"tma_args (\w+) legal=(\d) encode=(\d+) same_descriptor=(\d)", line)
    if m:
        tma_args.append({"name": m[1], "legal": m[2] == "1", "encode_result": int(m[3]),
                         "same_descriptor": m[4] == "1"})
# builder_sm90.cu: `NAME_config KEY VALUE` lines, what CUTLASS's builders chose
config = {}
for line in open(stdout):
    m = re.match(r"\w+_config (\S+) (.*)$", line.rstrip("\n"))
    if m:
        config[m[1]] = m[2]
if len(variants) != len(body):
    sys.exit(f"{len(variants)} variants printed but ncu profiled {len(body)} launches")
for v, r in zip(variants, body):
    v["kernel"] = r.get("Kernel Name", "")
    v["metrics"] = {k: num(x) for k, x in r.items() if re.match(r"^(l1tex|smsp|sm)__", k)
                    and k.endswith(".sum") and num(x) is not None}

# shared-memory instructions in each kernel's SASS
fn, counts = None, {}
for line in open(sass):
    m = re.search(r"Function : (\S+)", line)
    if m:
        fn = m.group(1)
        counts[fn] = {}
    elif fn:
        m = re.search(r"\b(LDGSTS|LDSM|STSM|LDS|STS|ATOMS|LDG|STG)(\.[A-Z0-9_.]+)?\b", line)
        if m:
            # `@!PT LDS RZ, [RZ]` is ptxas padding that never runs
            k = m.group(0) + (" (@!PT, never runs)" if "@!PT" in line else "")
            counts[fn][k] = counts[fn].get(k, 0) + 1
print(json.dumps({
    "gpu": gpu, "cuda": cuda, "ncu": ncu,
    "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    "program": program,
    "sass_shared_instructions": counts,
    "launches": variants,
    "tma_args": tma_args,
    **({"config": config} if config else {}),
}, indent=1))
