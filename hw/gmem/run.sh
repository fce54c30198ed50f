#!/usr/bin/env bash
# Build gmem_bench, profile one launch per (pattern, instruction) of each corpus with
# Nsight Compute, and write hw/gmem/fixtures/<NAME>-measured.jsonl (and to $OUT).
#
#   bash hw/gmem/run.sh CORPUS.jsonl NAME [CORPUS2.jsonl NAME2 ...]
#
# Run on the device machine (kind nvidia-h100-x1), repo root as cwd.
set -euo pipefail
ARGS=()
for a in "$@"; do if [ -e "$a" ]; then ARGS+=("$(realpath "$a")"); else ARGS+=("$a"); fi; done
set -- "${ARGS[@]}"
cd "$(dirname "$0")"
source ../lib.sh
hw_setup out gmem_bench gmem-run.log
mkdir -p fixtures
[ -x "$NCU" ] || { echo "ncu not found"; exit 1; }

"$NCU" --query-metrics > "$WORK/query.txt" 2>&1 || true
METRICS=$(python3 corpus.py metrics "$WORK/query.txt")
[ -n "$METRICS" ] || { cat "$WORK/query.txt" | head -40; echo "no metrics"; exit 1; }
stamp "metrics: $METRICS"

"$NVCC" -arch=sm_90 -O3 -o "$WORK/gmem_bench" gmem_bench.cu
cuobjdump --dump-sass "$WORK/gmem_bench" > "$WORK/sass.txt"
# every gb_ld*/gb_st*/gb_cpasync* kernel has exactly one LDG/STG/LDGSTS and no other memory
# instruction (ptxas pads LDGSTS with `@!PT LDS RZ, [RZ]`: predicated on never-true, never run)
python3 - "$WORK/sass.txt" <<'PY'
import re, sys
cur, mem = None, {}
for line in open(sys.argv[1]):
    m = re.search(r"Function : (\S+)", line)
    if m:
        cur = m.group(1); mem[cur] = []
    elif cur and "@!PT" not in line and re.search(r"\b(LDGSTS|LDG|STG|LD|ST|LDL|STL|LDS|STS|ATOM|RED)(\.[A-Z0-9_.]+)?\s", line):
        mem[cur].append(re.sub(r"\s+", " ", line.strip()))
bad = False
for k, v in sorted(mem.items()):
    ldg = [x for x in v if "LDG" in x]
    rest = [x for x in v if "LDG" not in x]
    if k == "gb_control":
        ok = not v
    elif "_cpasync" in k:
        ok = len(v) == 1 and "LDGSTS" in v[0] and (("BYPASS" in v[0]) == ("_cg" in k))
    elif "_ld" in k:  # one load; the never-taken sink store may follow
        ok = len(ldg) == 1 and all("STG" in x for x in rest) and len(rest) <= 1
    else:
        ok = not ldg and len(rest) == 1 and "STG" in rest[0]
    print(f"sass {k}: {v}{'' if ok else '   <-- WRONG'}")
    bad |= not ok
sys.exit("SASS check failed" if bad else 0)
PY

GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
NCUV=$("$NCU" --version | tail -1)
while [ $# -ge 2 ]; do
  CORPUS=$1 NAME=$2; shift 2
  python3 - "$WORK/header.json" "$GPU" "$DRIVER" "$NCUV" "$CORPUS" <<'PY'
import json, os, sys, datetime, hashlib
out, gpu, drv, ncu, corpus = sys.argv[1:]
json.dump({"header": True, "gpu": gpu, "driver": drv, "ncu": ncu,
           "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "corpus": os.path.relpath(os.path.abspath(corpus), os.path.abspath("../..")), "corpus_sha256": hashlib.sha256(open(corpus, "rb").read()).hexdigest(),
           "kernel": "1 block x 32 threads, one global load or store per launch"}, open(out, "w"))
PY
  python3 corpus.py launches "$CORPUS" "$WORK/launches.txt" "$WORK/manifest.jsonl"
  "$WORK/gmem_bench" "$WORK/launches.txt" "$WORK/launchlog.tsv"
  stamp "ncu $NAME"
  "$NCU" --metrics "$METRICS" --kernel-name regex:'^gb_' -f -o "$WORK/rep" \
    "$WORK/gmem_bench" "$WORK/launches.txt" "$WORK/launchlog.tsv" > "$WORK/ncu.log" 2>&1 \
    || { tail -30 "$WORK/ncu.log"; exit 1; }
  "$NCU" -i "$WORK/rep.ncu-rep" --csv --page raw --print-units base > "$WORK/raw.csv"
  python3 corpus.py convert "$WORK/manifest.jsonl" "$WORK/raw.csv" "$WORK/launchlog.tsv" \
    "$WORK/header.json" "fixtures/$NAME-measured.jsonl"
  cp "fixtures/$NAME-measured.jsonl" "$OUTDIR/"
  stamp "done $NAME"
done
rm -rf "$WORK"
