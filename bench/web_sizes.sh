#!/usr/bin/env bash
# The page's shipped bytes: `trunk build --release` in TREE, then the raw and gzip -9 size of
# every .wasm and .js in TREE/dist (and the totals).
#
#   bash bench/web_sizes.sh TREE [OUT]      # OUT: the table (default: stdout only)
#   NO_BUILD=1 bash bench/web_sizes.sh TREE # measure the existing TREE/dist
#
# Needs trunk 0.21.14, wasm-bindgen 0.2.130 ($HOME/.cargo/bin) and TREE/node_modules
# (binaryen's wasm-opt 132; `npm ci`, or a symlink to another checkout's node_modules).
# File names carry trunk's content hash; the "file" column strips it (name-HASH.ext).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 TREE [OUT]" >&2; exit 2; }
TREE=$(cd "$1" && pwd)
OUTFILE=${2:-}
cd "$TREE"
if [ -z "${NO_BUILD:-}" ]; then
  # shellcheck disable=SC1091
  source scripts/tools.sh
  trunk --version >&2
  wasm-bindgen --version >&2
  node_modules/.bin/wasm-opt --version >&2
  trunk build --release >&2
fi
table=$(
  echo "# dist/ of $TREE ($(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD 2>/dev/null || echo ', with uncommitted changes')), trunk build --release"
  printf '%-28s %10s %10s  %s\n' "# file" raw gzip-9 "name in dist/"
  tr=0; tg=0
  for f in $(cd dist && ls | grep -E '\.(wasm|js)$' | sort); do
    raw=$(stat -c %s "dist/$f")
    gz=$(gzip -9 -c "dist/$f" | wc -c)
    tr=$((tr + raw)); tg=$((tg + gz))
    short=$(echo "$f" | sed -E 's/-[0-9a-f]{8,}(_bg)?\./\1./')
    printf '%-28s %10d %10d  %s\n' "$short" "$raw" "$gz" "$f"
  done
  printf '%-28s %10d %10d\n' "total .wasm+.js" "$tr" "$tg"
)
echo "$table"
[ -z "$OUTFILE" ] || echo "$table" >"$OUTFILE"
