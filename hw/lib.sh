# The device scripts' shared set-up (source it, then call hw_setup):
#
#   hw_setup DEFAULT_OUTDIR WORK_PREFIX LOG_NAME [LABEL]
#
# sets OUTDIR ($OUT, the device tool's return folder, else DEFAULT_OUTDIR; created), WORK
# (a fresh /tmp/WORK_PREFIX.XXXXXX), sends all output to the terminal and to
# OUTDIR/LOG_NAME, defines `stamp MSG` ("[LABEL Ns] MSG", seconds since set-up) and finds
# NCU (empty when Nsight Compute is missing: each script checks where it needs it) and NVCC.
hw_setup() {
  OUTDIR=${OUT:-$1}
  mkdir -p "$OUTDIR"
  WORK=$(mktemp -d "/tmp/$2.XXXXXX")
  exec > >(tee -a "$OUTDIR/$3") 2>&1
  STAMP_LABEL=${4:+$4 }
  t0=$(date +%s)
  NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || true)
  NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
}

stamp() { echo "[${STAMP_LABEL}$(( $(date +%s) - t0 ))s] $*"; }
