#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): builds the page's first-picture module (web/first:
# the core, language and renderer without their `full` feature, and no Leptos) into trunk's
# staging directory, content-hashed as trunk names its files, and rewrites index.html so the
# page loads it first and the app after the first paint (web/first/inline.mjs).
set -euo pipefail
stage=${TRUNK_STAGING_DIR:?"run by trunk as its post_build hook (TRUNK_STAGING_DIR unset)"}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
cargo build --locked --quiet --target wasm32-unknown-unknown --profile release-web -p cute-first
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wasm-bindgen --target web --no-typescript --out-dir "$tmp" "$target/wasm32-unknown-unknown/release-web/cute_first.wasm"
# The features Rust's wasm32 target emits; binaryen 132 (npm), as for the app.
node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-reference-types --enable-multivalue --enable-mutable-globals \
  "$tmp/cute_first_bg.wasm" -o "$tmp/opt.wasm"
hash=$(cat "$tmp/opt.wasm" "$tmp/cute_first.js" | sha256sum | cut -c1-16)
name="cute-first-$hash"
cp "$tmp/opt.wasm" "$stage/${name}_bg.wasm"
cp "$tmp/cute_first.js" "$stage/$name.js"
node web/first/inline.mjs "$stage/index.html" "$name"
