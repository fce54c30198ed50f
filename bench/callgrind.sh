#!/usr/bin/env bash
# Deterministic instruction counts (callgrind Ir) of the `render` CLI and of the criterion
# benches of crates/cute-render, for before/after comparisons of a refactor.
#
#   bash bench/callgrind.sh TREE OUTDIR          # TREE: a checkout (its target/ is used)
#   QUICK=1 bash bench/callgrind.sh TREE OUTDIR  # benches: first iteration only (no warm runs)
#
# Writes OUTDIR/callgrind.txt (the table), OUTDIR/*.callgrind.out (raw profiles, readable
# with callgrind_annotate), OUTDIR/render-print.stdout (what render printed) and logs.
#
# Method
# 1. `render --print -`: `cargo build --release --locked --bin render` with
#    CARGO_TARGET_DIR=TREE/target, then `valgrind --tool=callgrind TREE/target/release/render
#    --print -` with every "expr" of the reference corpus (cute-cases.jsonl, one per line) on
#    stdin. Ir = callgrind's total over the whole process (start-up included). render exits 1
#    (the corpus holds one line CuTe rejects); the sha256 of its stdout is recorded too.
#    Corpus: $CUTE_CASES, else TREE/testdata/cute-cases.jsonl, else (trees
#    from before the corpus was committed) TREE/../shared/reference/.
# 2. Criterion benches (crates/cute-render/benches/{print_script,render}.rs), built with
#    `cargo bench --no-run --locked -p cute-render` (the bench profile = release). Every
#    benchmark function (from `BENCH --list`) is run in its own process under callgrind with
#    `--collect-atstart=no --toggle-collect='criterion::bencher::Bencher<*>::iter'`: only the
#    instructions inside criterion's timing loop (`Bencher::iter`, #[inline(never)]) count,
#    i.e. the measured closure, not set-up, sanity calls or criterion's analysis.
#    a. `--test --exact ID`: criterion calls the closure exactly once (iters = 1), so
#       Ir = one (cold: first-use initialisation included) iteration. -> column first_iter.
#    b. `--exact ID --sample-size 10 --warm-up-time 1e-9 --measurement-time 1e-9
#       --nresamples 10 --noplot`:
#       under callgrind one iteration always exceeds the 1 ns warm-up and the 1 ns target, so
#       the warm-up runs exactly 1 iteration and criterion's Auto sampling picks Flat with 1
#       iteration per sample: N = 1 + sample_size iterations (sample_size: 10 from the
#       command line, unless the bench's group sets its own: 20 in render.rs). N is read
#       back from criterion's sample.json ("iters", + 1 warm-up), written under
#       CRITERION_HOME=OUTDIR/criterion-*.
#       warm_per_iter = (Ir_b - Ir_a) / (N - 1): the instructions of one warm iteration.
#    Both are deterministic up to std HashMap's random seeds (a few instructions in 10^6).
#    The print_script bench reads the corpus at the path compiled into it (baseline:
#    ../shared/reference/cute-cases.jsonl); if it panics (file missing) the row says ERROR.
set -uo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 TREE OUTDIR" >&2
  exit 2
fi
TREE=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" || exit 2
OUT=$(cd "$2" && pwd)
export CARGO_TARGET_DIR="$TREE/target"
export CARGO_TERM_COLOR=never

CORPUS=""
for c in "${CUTE_CASES:-}" "$TREE/testdata/cute-cases.jsonl" \
         "$TREE/../shared/reference/cute-cases.jsonl"; do
  if [ -n "$c" ] && [ -f "$c" ]; then CORPUS=$(cd "$(dirname "$c")" && pwd)/$(basename "$c"); break; fi
done
[ -n "$CORPUS" ] || { echo "error: cute-cases.jsonl not found (set CUTE_CASES)" >&2; exit 2; }
export CUTE_CASES="$CORPUS"

TABLE="$OUT/callgrind.txt"
ir_of() { # total Ir of a callgrind output file
  awk '/^(summary|totals):/ {print $2; exit}' "$1"
}

echo "== building render ($TREE)" >&2
(cd "$TREE" && cargo build --release --locked --bin render) >"$OUT/build-render.log" 2>&1 ||
  { echo "error: build failed, see $OUT/build-render.log" >&2; exit 1; }
RENDER="$TREE/target/release/render"

python3 - "$CORPUS" >"$OUT/corpus-exprs.txt" <<'EOF'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    if line.strip():
        print(json.loads(line)["expr"])
EOF
NLINES=$(wc -l <"$OUT/corpus-exprs.txt")

{
  echo "# callgrind instruction counts (Ir); tree: $TREE ($(git -C "$TREE" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$TREE" diff --quiet HEAD 2>/dev/null || echo ', with uncommitted changes'))"
  echo "# corpus: $CORPUS ($NLINES lines); $(valgrind --version); $(rustc --version)"
  echo "# bench	Ir	notes"
} >"$TABLE"

echo "== callgrind: render --print - ($NLINES lines)" >&2
valgrind --tool=callgrind --callgrind-out-file="$OUT/render-print.callgrind.out" \
  "$RENDER" --print - <"$OUT/corpus-exprs.txt" >"$OUT/render-print.stdout" 2>"$OUT/render-print.log"
RC=$?
IR=$(ir_of "$OUT/render-print.callgrind.out")
SHA=$(sha256sum <"$OUT/render-print.stdout" | cut -c1-16)
printf 'render --print - (%s corpus lines)\t%s\texit %s, %s stdout lines, stdout sha256 %s\n' \
  "$NLINES" "$IR" "$RC" "$(wc -l <"$OUT/render-print.stdout")" "$SHA" >>"$TABLE"

echo "== building benches" >&2
(cd "$TREE" && cargo bench --no-run --locked -p cute-render --message-format=json) \
  >"$OUT/build-benches.json" 2>"$OUT/build-benches.log" ||
  { echo "error: bench build failed, see $OUT/build-benches.log" >&2; exit 1; }
mapfile -t BENCHES < <(python3 - "$OUT/build-benches.json" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    t = m.get("target") or {}
    if m.get("reason") == "compiler-artifact" and "bench" in t.get("kind", []) and m.get("executable"):
        print(f'{t["name"]}\t{m["executable"]}\t{t["src_path"]}')
EOF
)
[ ${#BENCHES[@]} -gt 0 ] || { echo "error: no bench executables found" >&2; exit 1; }

printf '# benches: first_iter = Ir of 1 cold iteration (--test); warm_per_iter = (Ir of N iterations - first_iter)/(N-1)\n' >>"$TABLE"
printf '# bench\tfirst_iter\twarm_per_iter\tnotes\n' >>"$TABLE"
TOGGLE='criterion::bencher::Bencher<*>::iter'
k=0
for entry in $(printf '%s\n' "${BENCHES[@]}" | sort | tr '\t' '|'); do
  IFS='|' read -r name exe src <<<"$entry"
  crate_dir=$(dirname "$(dirname "$src")")
  mapfile -t IDS < <(cd "$crate_dir" && "$exe" --bench --list 2>/dev/null | sed -n 's/: benchmark$//p')
  for id in "${IDS[@]}"; do
    k=$((k + 1))
    tag="b$k-$(printf '%s' "$id" | tr -c 'A-Za-z0-9_-' '_')"
    echo "== callgrind: $name: $id" >&2
    (cd "$crate_dir" && valgrind --tool=callgrind --collect-atstart=no --toggle-collect="$TOGGLE" \
      --callgrind-out-file="$OUT/$tag.test.callgrind.out" \
      "$exe" --bench --test --exact "$id") >"$OUT/$tag.test.log" 2>&1
    rc_a=$?
    ir_a=$(ir_of "$OUT/$tag.test.callgrind.out" 2>/dev/null)
    if [ $rc_a -ne 0 ] || [ -z "$ir_a" ] || [ "$ir_a" = 0 ]; then
      printf '%s/%s\tERROR\tERROR\t--test exit %s, see %s.test.log\n' "$name" "$id" "$rc_a" "$tag" >>"$TABLE"
      continue
    fi
    if [ -n "${QUICK:-}" ]; then
      printf '%s/%s\t%s\t-\tQUICK\n' "$name" "$id" "$ir_a" >>"$TABLE"
      continue
    fi
    home="$OUT/criterion-$tag"
    rm -rf "$home"
    (cd "$crate_dir" && CRITERION_HOME="$home" valgrind --tool=callgrind --collect-atstart=no \
      --toggle-collect="$TOGGLE" --callgrind-out-file="$OUT/$tag.full.callgrind.out" \
      "$exe" --bench --exact "$id" --sample-size 10 --warm-up-time 1e-9 --measurement-time 1e-9 \
      --nresamples 10 --noplot) >"$OUT/$tag.full.log" 2>&1
    rc_b=$?
    ir_b=$(ir_of "$OUT/$tag.full.callgrind.out" 2>/dev/null)
    n=$(python3 - "$home" <<'EOF'
import glob, json, sys
files = glob.glob(sys.argv[1] + "/**/new/sample.json", recursive=True)
print(1 + int(sum(json.load(open(files[0]))["iters"])) if len(files) == 1 else "")
EOF
)
    if [ $rc_b -ne 0 ] || [ -z "$ir_b" ] || [ -z "$n" ]; then
      printf '%s/%s\t%s\tERROR\tfull run exit %s, see %s.full.log\n' "$name" "$id" "$ir_a" "$rc_b" "$tag" >>"$TABLE"
      continue
    fi
    warm=$(( (ir_b - ir_a) / (n - 1) ))
    printf '%s/%s\t%s\t%s\tN=%s iterations, %s Ir in all\n' "$name" "$id" "$ir_a" "$warm" "$n" "$ir_b" >>"$TABLE"
  done
done
echo "== done: $TABLE" >&2
cat "$TABLE"
