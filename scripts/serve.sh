#!/usr/bin/env bash
# Installs whatever is missing (wasm32 target, trunk, wasm-bindgen-cli, binaryen's wasm-opt
# from npm), then serves the app with `trunk serve` on http://127.0.0.1:8080.
# Idempotent; fast when everything is installed. Extra arguments go to trunk.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130   # must equal the `wasm-bindgen` pin in web/Cargo.toml
BINARYEN_VERSION=132           # never Debian's binaryen 108: it silently breaks the app

rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
if ! trunk --version 2>/dev/null | grep -q "$TRUNK_VERSION"; then
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi
if ! wasm-bindgen --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION"; then
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi
if ! node_modules/.bin/wasm-opt --version 2>/dev/null | grep -q "version $BINARYEN_VERSION"; then
  npm install --no-audit --no-fund --no-save "binaryen@$BINARYEN_VERSION"
fi
cargo fetch --locked
export PATH="$PWD/node_modules/.bin:$PATH" TRUNK_SKIP_VERSION_CHECK=true
exec trunk serve "$@"
