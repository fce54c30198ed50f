#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): builds the page's two first-picture modules (web/first:
# the core, language and renderer without their `full` feature, and no Leptos) into trunk's
# staging directory, content-hashed as trunk names its files, and rewrites index.html so the
# page loads one of them first and the app after the first paint (web/first/inline.mjs):
#   cute-first    the algebra, swizzles and TV layouts (the language's function table);
#   cute-literal  without the function table: a shared layout or swizzle literal.
set -euo pipefail
stage=${TRUNK_STAGING_DIR:?"run by trunk as its post_build hook (TRUNK_STAGING_DIR unset)"}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${CARGO_TARGET_DIR:-$root/target}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# build NAME CARGO_FEATURE_ARGS...: prints the content-hashed name it staged.
build() {
  local name=$1
  shift
  cargo build --locked --quiet --target wasm32-unknown-unknown --profile release-web -p cute-first "$@"
  rm -rf "$tmp/$name" && mkdir "$tmp/$name"
  wasm-bindgen --target web --no-typescript --out-dir "$tmp/$name" \
    "$target/wasm32-unknown-unknown/release-web/cute_first.wasm"
  # The features Rust's wasm32 target emits; binaryen 132 (npm), as for the app.
  node_modules/.bin/wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-reference-types --enable-multivalue --enable-mutable-globals \
    "$tmp/$name/cute_first_bg.wasm" -o "$tmp/$name/opt.wasm"
  local hash
  hash=$(cat "$tmp/$name/opt.wasm" "$tmp/$name/cute_first.js" | sha256sum | cut -c1-16)
  cp "$tmp/$name/opt.wasm" "$stage/$name-${hash}_bg.wasm"
  cp "$tmp/$name/cute_first.js" "$stage/$name-$hash.js"
  echo "$name-$hash"
}

first=$(build cute-first)
literal=$(build cute-literal --no-default-features)
node web/first/inline.mjs "$stage/index.html" "$first" "$literal"
