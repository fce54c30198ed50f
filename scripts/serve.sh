#!/usr/bin/env bash
# Installs whatever is missing (wasm32 target, trunk, wasm-bindgen-cli, binaryen's wasm-opt
# from npm), then serves the app with `trunk serve` on http://127.0.0.1:8080.
# Idempotent; fast when everything is installed. Extra arguments go to trunk.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/tools.sh
need_web_tools
cargo fetch --locked
exec trunk serve "$@"
