#!/usr/bin/env bash
# Build bank_bench, profile one launch per (pattern, instr) of a corpus with
# Nsight Compute, and write <NAME>-measured.jsonl.
#
#   bash hw/run.sh CORPUS.jsonl NAME [START COUNT]
#
# Run it on the device machine (repo root as cwd).  Results go to $OUT (the
# device tool's return folder) when set, else to hw/out; the measured jsonl is
# also copied to hw/fixtures/ (on the device machine's copy of the tree).
# START/COUNT take a slice of the corpus's instructions (to split a big corpus
# over several calls).  Environment:
#   METRICS=a.sum,b.sum  metrics to collect (default: the list in $METRICS_FILE)
#   METRICS_FILE=...     default hw/metrics.txt (hw/metrics-core.txt: hardware
#                        counters only, faster); if the file is missing, the
#                        metrics are chosen from `ncu --query-metrics`
#   QUERY_METRICS=1      always save `ncu --query-metrics` output to the out dir
#   NCU_EXTRA="..."      extra ncu arguments
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:?usage: hw/run.sh CORPUS.jsonl NAME [START COUNT]}
NAME=${2:?usage: hw/run.sh CORPUS.jsonl NAME [START COUNT]}
START=${3:-0}
COUNT=${4:--1}
source hw/lib.sh
hw_setup hw/out bank_bench "$NAME-run.log"
mkdir -p hw/fixtures

[ -x "$NCU" ] || { echo "ncu not found"; exit 1; }
stamp "ncu=$NCU nvcc=$NVCC"

# --- environment header ---------------------------------------------------
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
CUDA=$("$NVCC" --version | grep -o 'release [0-9.]*, V[0-9.]*' | head -1)
NCUV=$("$NCU" --version | tail -1)
python3 - "$WORK/header.json" "$GPU" "$DRIVER" "$CUDA" "$NCUV" "$CORPUS" "$START" "$COUNT" <<'EOF'
import json, os, sys, datetime, hashlib
out, gpu, drv, cuda, ncu, corpus, start, count = sys.argv[1:]
h = {"header": True, "gpu": gpu, "driver": drv, "cuda": cuda, "ncu": ncu,
     "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
     "corpus": os.path.relpath(os.path.abspath(corpus), os.path.abspath(".")), "corpus_sha256": hashlib.sha256(open(corpus, "rb").read()).hexdigest(),
     "slice": [int(start), int(count)], "clock_control": "none",
     "kernel": "1 block x 32 threads, 96 KiB dynamic smem, one shared instruction per launch"}
json.dump(h, open(out, "w"))
print(json.dumps(h))
EOF

# --- metrics ----------------------------------------------------------------
METRICS_FILE=${METRICS_FILE:-hw/metrics.txt}
if [ "${QUERY_METRICS:-0}" = 1 ] || { [ -z "${METRICS:-}" ] && [ ! -s "$METRICS_FILE" ]; }; then
  stamp "querying metrics"
  "$NCU" --query-metrics > "$OUTDIR/ncu-query-metrics.txt" 2>&1 || true
  "$NCU" --query-metrics --chip gh100 > "$WORK/query-chip.txt" 2>&1 || true
  cat "$WORK/query-chip.txt" >> "$OUTDIR/ncu-query-metrics.txt"
fi
if [ -z "${METRICS:-}" ]; then
  if [ -s "$METRICS_FILE" ]; then
    METRICS=$(tr -d ' \n' < "$METRICS_FILE")
  else
    METRICS=$(python3 hw/ncu_to_jsonl.py metrics "$OUTDIR/ncu-query-metrics.txt")
    echo "$METRICS" > "$OUTDIR/metrics.txt"
  fi
fi
if [ -s "$OUTDIR/ncu-query-metrics.txt" ]; then
  # keep only what this GPU/ncu knows (an unknown name fails the whole ncu run), and add
  # every shared-memory LDGSTS metric it names
  METRICS=$(python3 hw/ncu_to_jsonl.py filter "$OUTDIR/ncu-query-metrics.txt" "$METRICS")
fi
stamp "metrics: $METRICS"

# --- build -------------------------------------------------------------------
stamp "building"
"$NVCC" -arch=sm_90 -O3 -o "$WORK/bank_bench" hw/bank_bench.cu
cuobjdump --dump-sass "$WORK/bank_bench" > "$OUTDIR/bank_bench.sass" 2>&1 || true
# every bb_* kernel except bb_control must contain exactly one shared-memory instruction
python3 - "$OUTDIR/bank_bench.sass" <<'EOF'
import re, sys
cur, counts = None, {}
for line in open(sys.argv[1]):
    m = re.search(r"Function : (\S+)", line)
    if m:
        cur = m.group(1); counts[cur] = []
    elif cur and re.search(r"\b(LDS|STS|LDSM|STSM|ATOMS|LDGSTS)(\.[A-Z0-9_.]+)?\b", line):
        # ptxas pads LDGSTS with `@!PT LDS RZ, [RZ]`: predicated on never-true, never run
        # (ncu counts them as issued shared loads with every lane off, 0 wavefronts)
        if "@!PT" in line:
            continue
        counts[cur].append(re.sub(r"\s+", " ", line.strip()))
# the SASS opcode each kernel family must show (the PTX -> SASS mapping this relies on)
EXPECT = [("bb_ld8", "LDS.U8"), ("bb_ld16", "LDS.U16"), ("bb_st8", "STS.U8"),
          ("bb_st16", "STS.U16"), ("bb_cpasync_cg", "LDGSTS"), ("bb_cpasync_ca", "LDGSTS")]
bad = False
for k, v in sorted(counts.items()):
    want = 0 if k == "bb_control" else 1
    print(f"sass {k}: {len(v)} shared instr {v}")
    if len(v) != want: bad = True
    for prefix, opcode in EXPECT:
        if (k == prefix or k.startswith(prefix + "_") or (prefix.startswith("bb_cpasync") and k.startswith(prefix))) and v:
            if not re.search(r"\b" + re.escape(opcode) + r"\b", v[0]):
                print(f"WARNING: {k}: expected {opcode} in {v[0]}")
            if k.startswith("bb_cpasync_cg") and "BYPASS" not in v[0]:
                print(f"WARNING: {k}: expected LDGSTS.BYPASS (.cg) in {v[0]}")
if bad: sys.exit("SASS check failed: a kernel does not have exactly one shared-memory instruction")
EOF

# --- launches ----------------------------------------------------------------
python3 hw/corpus_to_launches.py "$CORPUS" "$WORK/launches.txt" "$WORK/manifest.jsonl" --start "$START" --count "$COUNT"
stamp "plain run (no profiler)"
"$WORK/bank_bench" "$WORK/launches.txt" "$WORK/launchlog.tsv"

run_ncu() {
  # shellcheck disable=SC2086
  "$NCU" --clock-control none --metrics "$1" --kernel-name regex:'^bb_' \
    ${NCU_EXTRA:-} -f -o "$WORK/rep" \
    "$WORK/bank_bench" "$WORK/launches.txt" "$WORK/launchlog.tsv" > "$WORK/ncu.log" 2>&1
}
stamp "ncu run"
if ! run_ncu "$METRICS"; then
  tail -30 "$WORK/ncu.log"
  # fall back: drop the SASS-instrumented metrics, then to a minimal set
  METRICS=$(echo "$METRICS" | tr ',' '\n' | grep -v '^smsp__sass_' | paste -sd, -)
  stamp "ncu failed; retrying without smsp__sass_* metrics: $METRICS"
  if ! run_ncu "$METRICS"; then
    tail -30 "$WORK/ncu.log"
    METRICS=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
    stamp "ncu failed again; retrying with minimal metrics: $METRICS"
    run_ncu "$METRICS" || { tail -50 "$WORK/ncu.log"; exit 1; }
  fi
fi
grep -v '^==PROF== Profiling' "$WORK/ncu.log" | tail -20 || true
stamp "ncu export"
"$NCU" -i "$WORK/rep.ncu-rep" --csv --page raw --print-units base > "$OUTDIR/$NAME-ncu-raw.csv"

stamp "convert"
python3 hw/ncu_to_jsonl.py convert "$WORK/manifest.jsonl" "$OUTDIR/$NAME-ncu-raw.csv" \
  "$WORK/launchlog.tsv" "$WORK/header.json" "$OUTDIR/$NAME-measured.jsonl"
if [ "$OUTDIR" != hw/fixtures ]; then cp "$OUTDIR/$NAME-measured.jsonl" hw/fixtures/; fi
python3 - "$OUTDIR/$NAME-measured.jsonl" "$CORPUS" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
exp = {}
for l in open(sys.argv[2]):
    if l.strip():
        p = json.loads(l); exp[p.get("name")] = p.get("expect")
h = rows[0]
print("control_ok:", h["control_ok"], " smem_base:", h["smem_base"])
print(f"{'name':40s} {'op':10s} i act  wf  bc req | sass_wf sass_bc | expect")
for r in rows[1:]:
    print(f"{r['name']:40s} {r['op']:10s} {r['instr']} {r['active_lanes']:3d} {r['wavefronts']!s:>3} "
          f"{r['bank_conflicts']!s:>3} {r['requests']!s:>3} | {r['sass_wavefronts']!s:>7} "
          f"{r['sass_bank_conflicts']!s:>7} | {exp.get(r['name'])}")
EOF
stamp "done"
rm -rf "$WORK"
