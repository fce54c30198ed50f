#!/usr/bin/env bash
# Build one of the kernel report's presets as a whole GEMM, check its result, and profile its
# GEMM launch with Nsight Compute: the counters the report's kernel totals predict.
#
#   bash hw/kernel/run_report.sh tutorial|hopper|builder [CUTE_INCLUDE_DIR] [M N K]  (repo root, device)
#
#   tutorial  hw/kernel/tutorial_sm80.cu  (preset sm80_tutorial: cp.async, ldmatrix, STG)
#   hopper    hw/kernel/hopper_sm90.cu    (preset sm90_tma_wgmma: TMA, WGMMA, stmatrix, TMA store)
#   builder   hw/kernel/builder_sm90.cu   (CUTLASS's CollectiveBuilder GEMM of the
#             sm90_collective_builder example: what the builders chose, under ncu)
# CUTE_INCLUDE_DIR holds cute/ and cutlass/ of CUTLASS 4.2 (default .cute-include, an ignored
# folder carried to the device). Writes NAME-measured.json, NAME-ncu-raw.csv, NAME.sass and
# NAME-run.log to $OUT (else hw/out); NAME-tma-metrics.txt lists the TMA counters ncu knows.
set -uo pipefail
cd "$(dirname "$0")/../.."
NAME=${1:?tutorial, hopper or builder}
INC=${2:-.cute-include}
shift 2 2>/dev/null || shift $#
SIZE=${*:-4096 4096 4096}
FLAGS= TMA_MAX=40 EXTRA=  # extra nvcc flags, how many TMA counters, extra metrics
case "$NAME" in
  tutorial) SRC=hw/kernel/tutorial_sm80.cu; ARCH=sm_90; KERNEL=regex:tutorial_gemm; LIBS= ;;
  hopper) SRC=hw/kernel/hopper_sm90.cu; ARCH=sm_90a; KERNEL=regex:hopper_gemm; LIBS=-lcuda ;;
  # CUTLASS launches every kernel as cutlass::device_kernel<GemmKernel>; the reference GEMM is
  # harness::reference_gemm. -DNDEBUG as CUTLASS's own release builds: a device assert is a
  # call, and ptxas serializes the wgmma pipeline across it (warning C7510).
  builder) SRC=hw/kernel/builder_sm90.cu; ARCH=sm_90a; KERNEL=regex:device_kernel; LIBS=-lcuda
    FLAGS=-DNDEBUG; TMA_MAX=200
    EXTRA="sm__ctas_launched.sum,smsp__warps_launched.sum,smsp__sass_inst_executed_op_global_ld.sum"
    EXTRA+=",smsp__sass_inst_executed_op_global_st.sum,l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum"
    EXTRA+=",l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum,smsp__sass_data_bytes_mem_global_op_st.sum" ;;
  *) echo "unknown kernel $NAME"; exit 1 ;;
esac
source hw/lib.sh
hw_setup hw/out report_kernel "$NAME-run.log" "$NAME"

stamp "build $SRC"
"$NVCC" -std=c++17 -arch=$ARCH -O3 $FLAGS --expt-relaxed-constexpr -I"$INC" \
  -o "$WORK/gemm" "$SRC" $LIBS || { echo "build failed"; exit 1; }
cuobjdump --dump-sass "$WORK/gemm" > "$WORK/kernel.sass" 2>&1 || true
stamp "plain run ($SIZE)"
"$WORK/gemm" $SIZE | tee "$WORK/stdout.txt" || { echo "run failed"; exit 1; }

W="l1tex__data_pipe_lsu_wavefronts_mem_shared"
C="l1tex__data_bank_conflicts_pipe_lsu_mem_shared"
S="smsp__sass_l1tex_data"
METRICS="$W.sum,${W}_op_ld.sum,${W}_op_st.sum,${W}_op_misc.sum,$C.sum,${C}_op_ld.sum,${C}_op_st.sum,${C}_op_ldgsts.sum"
for op in ldgsts ldsm stsm ld st; do
  METRICS+=",${S}_pipe_lsu_wavefronts_mem_shared_op_$op.sum"
done
for op in ldgsts ldsm stsm; do
  METRICS+=",${S}_bank_conflicts_pipe_lsu_mem_shared_op_$op.sum"
done
METRICS+=",smsp__inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_ldgsts.sum,smsp__inst_executed_op_ldsm.sum"
METRICS+=",smsp__inst_executed_op_shared_stsm.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum"
METRICS+=",smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum"
METRICS+=",l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum"
METRICS+=",l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum"
METRICS+=",l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
METRICS+=",l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
[ -n "$EXTRA" ] && METRICS+=",$EXTRA"
"$NCU" --query-metrics > "$WORK/query.txt" 2>&1 || true
grep -E -i "tma|bulk|utma|cp_async" "$WORK/query.txt" > "$OUTDIR/$NAME-tma-metrics.txt" || true
# The TMA counters this ncu names (base names with .sum), for the record.
TMA=$(awk '{print $1}' "$OUTDIR/$NAME-tma-metrics.txt" | grep -E '^[a-z0-9]+__[a-z0-9_]+$' | head -$TMA_MAX | sed 's/$/.sum/' | paste -sd, -)
[ -n "$TMA" ] && METRICS+=",$TMA"
KNOWN=$(python3 hw/ncu_to_jsonl.py filter "$WORK/query.txt" "$METRICS" 2>/dev/null)
METRICS=$KNOWN
stamp "ncu ($(tr , '\n' <<<"$METRICS" | wc -l) metrics)"
"$NCU" --clock-control none --metrics "$METRICS" --kernel-name "$KERNEL" \
  -f -o "$WORK/rep" "$WORK/gemm" $SIZE > "$WORK/ncu.log" 2>&1 || { tail -30 "$WORK/ncu.log"; exit 1; }
grep "==PROF==" "$WORK/ncu.log" | tail -3
"$NCU" -i "$WORK/rep.ncu-rep" --csv --page raw --print-units base > "$OUTDIR/$NAME-ncu-raw.csv"
GPU=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)
CUDA=$("$NVCC" --version | grep -o 'release [0-9.]*, V[0-9.]*' | head -1)
NCUV=$("$NCU" --version | tail -1)
grep -E "^(${NAME}(_[a-z]+)?|tma_args) " "$WORK/ncu.log" > "$WORK/ncu-stdout.txt"
python3 hw/kernel/summarize.py "$OUTDIR/$NAME-ncu-raw.csv" "$WORK/ncu-stdout.txt" "$WORK/kernel.sass" \
  "$GPU" "$CUDA" "$NCUV" "$SRC, M N K = $SIZE" > "$OUTDIR/$NAME-measured.json"
cp "$WORK/kernel.sass" "$OUTDIR/$NAME.sass"
python3 - "$OUTDIR/$NAME-measured.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for k, v in m.get("config", {}).items():
    print(k, v[:160])
for k, v in m["sass_shared_instructions"].items():
    print(k[:60], v)
for l in m["launches"]:
    print(l["variant"], l["result"], l["rel_err"])
    for k, v in sorted(l["metrics"].items()):
        if v:
            print(f"  {k} = {v}")
PY
stamp "done"
rm -rf "$WORK"
