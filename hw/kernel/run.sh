#!/usr/bin/env bash
# Build hw/kernel/cute_gemm_sm80.cu, check its result and its SASS, profile its five
# launches (sw333, plain, pad72, sw333_colcopy, plain_colcopy) with Nsight Compute and
# write kernel-measured.json. REPS (default 3) runs of the five, to see which counters
# repeat exactly.
#
#   bash hw/kernel/run.sh [CUTE_INCLUDE_DIR]      (repo root as cwd, on the device machine)
#
# CUTE_INCLUDE_DIR holds cute/ and cutlass/ of CUTLASS 4.2.0 (default .cute-include, an
# ignored folder carried to the device). Results go to $OUT (else hw/out).
set -uo pipefail
cd "$(dirname "$0")/../.."
INC=${1:-.cute-include}
source hw/lib.sh
hw_setup hw/out cute_gemm kernel-run.log kernel

stamp "build"
"$NVCC" -std=c++17 -arch=sm_90 -O3 --expt-relaxed-constexpr -I"$INC" \
  -o "$WORK/gemm" hw/kernel/cute_gemm_sm80.cu || { echo "kernel build failed"; exit 1; }
cuobjdump --dump-sass "$WORK/gemm" > "$WORK/kernel.sass" 2>&1 || true
stamp "plain run"
"$WORK/gemm" 512 512 512 "${REPS:-3}" | tee "$WORK/stdout.txt" || { echo "kernel run failed"; exit 1; }

METRICS=$(tr -d ' \n' < hw/metrics-ext.txt)
if [ -s "$OUTDIR/ncu-query-metrics.txt" ]; then
  METRICS=$(python3 hw/ncu_to_jsonl.py filter "$OUTDIR/ncu-query-metrics.txt" "$METRICS")
fi
stamp "ncu: $METRICS"
"$NCU" --clock-control none --metrics "$METRICS" --kernel-name regex:gemm_kernel \
  -f -o "$WORK/rep" "$WORK/gemm" 512 512 512 "${REPS:-3}" > "$WORK/ncu.log" 2>&1 || { tail -30 "$WORK/ncu.log"; exit 1; }
"$NCU" -i "$WORK/rep.ncu-rep" --csv --page raw --print-units base > "$OUTDIR/kernel-ncu-raw.csv"
GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
CUDA=$("$NVCC" --version | grep -o 'release [0-9.]*, V[0-9.]*' | head -1)
NCUV=$("$NCU" --version | tail -1)
python3 hw/kernel/summarize.py "$OUTDIR/kernel-ncu-raw.csv" "$WORK/stdout.txt" "$WORK/kernel.sass" \
  "$GPU" "$CUDA" "$NCUV" > "$OUTDIR/kernel-measured.json"
cp "$WORK/kernel.sass" "$OUTDIR/kernel.sass"
stamp "done"
rm -rf "$WORK"
