#!/usr/bin/env bash
# The issue-12 device call in one command: measure hw/ext-corpus.jsonl and
# hw/probe-ext-corpus.jsonl (cp.async and 8/16-bit LDS/STS) with hw/run.sh, then the
# kernel-scale check hw/kernel/run.sh. Each step writes into its own scratch folder; only
# the measured files and one log archive per step land in $OUT (the device tool returns at
# most 8 files).
#
#   [STEPS="ext probe-ext kernel"] bash hw/run_ext.sh
#   (repo root as cwd, on the device machine; .cute-include carried for the kernel step)
set -u
cd "$(dirname "$0")/.."
OUTDIR=${OUT:-hw/out}
mkdir -p "$OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
QUERY=/tmp/ext_query
mkdir -p "$QUERY"

step() {  # NAME COMMAND...
  local name=$1; shift
  local dir=/tmp/ext_$name
  rm -rf "$dir"; mkdir -p "$dir"
  [ -s "$QUERY/ncu-query-metrics.txt" ] && cp "$QUERY/ncu-query-metrics.txt" "$dir/"
  OUT=$dir "$@" || echo "STEP $name FAILED (rc $?)"
  [ -s "$dir/ncu-query-metrics.txt" ] && cp "$dir/ncu-query-metrics.txt" "$QUERY/"
  for f in "$dir"/*-measured.jsonl "$dir"/kernel-measured.json; do
    [ -s "$f" ] && cp "$f" "$OUTDIR/"
  done
  (cd "$dir" && tar czf "$OUTDIR/logs-$name.tgz" --exclude='ncu-query-metrics.txt' . 2>/dev/null)
}

export METRICS_FILE=hw/metrics-ext.txt
STEPS=${STEPS:-ext probe-ext kernel}
first=1
for s in $STEPS; do
  q=0; [ $first = 1 ] && q=${QUERY_FIRST:-1}; first=0   # the first step saves `ncu --query-metrics` (QUERY_FIRST=0: no)
  case $s in
    ext) QUERY_METRICS=$q step ext bash hw/run.sh hw/ext-corpus.jsonl ext ;;
    probe-ext) QUERY_METRICS=$q step probe-ext bash hw/run.sh hw/probe-ext-corpus.jsonl probe-ext ;;
    probe-gx) QUERY_METRICS=$q step probe-gx bash hw/run.sh hw/probe-gx-corpus.jsonl probe-gx ;;
    kernel) step kernel bash hw/kernel/run.sh .cute-include ;;
    *) echo "unknown step $s" ;;
  esac
done
gzip -c "$QUERY/ncu-query-metrics.txt" > "$OUTDIR/ncu-query-metrics.txt.gz" 2>/dev/null || true
ls -la "$OUTDIR"
