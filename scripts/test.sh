#!/usr/bin/env bash
# Installs whatever is missing, then runs every check and test. Idempotent; fast when the
# tools are already there. CI (.ci/run) calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "toolchain, web tools (trunk, wasm-bindgen-cli, binaryen, playwright-core), chromium"
source scripts/tools.sh
need_web_tools
need_browser
installed_components=$(rustup component list --installed)
grep -q '^clippy' <<<"$installed_components" || rustup component add clippy
grep -q '^rustfmt' <<<"$installed_components" || rustup component add rustfmt

step "the book (docs/): mdbook build, every internal link and anchor checked"
need_mdbook
mdbook build docs
python3 scripts/check_book_links.py docs/book

step "cargo fetch"
cargo fetch --locked

step "format"
cargo fmt --all --check

step "clippy (native crates, and the web app for wasm32)"
cargo clippy --workspace --exclude cute-web --exclude cute-first --all-targets --locked -- -D warnings
# The first-picture modules are built without the full language: checked and tested on their
# own, with the function table and (the literal module) without.
cargo clippy -p cute-first --all-targets --locked -- -D warnings
cargo clippy -p cute-first --no-default-features --all-targets --locked -- -D warnings
cargo clippy -p cute-web --target wasm32-unknown-unknown --all-targets --locked -- -D warnings

step "fuzz targets compile against the crates (their own workspace; run as fuzz/README.md says)"
cargo check --manifest-path fuzz/Cargo.toml --bins --locked --target-dir target/fuzz-check

step "tests (golden data, property tests, hostile inputs, SVG, web state/form/inspector, doctests)"
cargo test --workspace --exclude cute-first --locked
cargo test -p cute-first --locked
cargo test -p cute-first --no-default-features --locked

step "golden pass counts per op (CuTe C++ reference and oracle data)"
cargo test -q -p cute-lang --test golden --locked -- --nocapture

step "the core is pure: no dependencies (no language crate below it), builds for wasm32"
deps=$(cargo tree -p cute-core -e normal --prefix none --locked | sort -u | wc -l)
[ "$deps" -eq 1 ] || { echo "error: cute-core must have no dependencies"; cargo tree -p cute-core -e normal; exit 1; }
lang=$(cargo tree -p cute-lang -e normal --prefix none --locked | sort -u | { grep -vc '^cute-' || true; })
[ "$lang" -eq 0 ] || { echo "error: cute-lang must depend on cute-core only"; cargo tree -p cute-lang -e normal; exit 1; }
cargo build -p cute-core --target wasm32-unknown-unknown --release --locked

step "render --print smoke test"
out=$(cargo run -q --release --locked --bin render -- --print 'logical_divide((4,2,3):(2,1,8), 4:2)')
[ "$out" = "((2,2),(2,3)):((4,1),(2,8))" ] || { echo "error: render --print gave '$out'"; exit 1; }

step "Python package: built into .venv-py by maturin, pytest (golden data, every view's SVG, inputs, errors) and the executed notebook"
need_python_env
.venv-py/bin/maturin develop -q --release --locked -m python/Cargo.toml
.venv-py/bin/python -m pytest -q python/tests

step "wasm-bindgen-test: the page mounted in headless Chromium (chromedriver)"
cargo test -p cute-web --target wasm32-unknown-unknown --test browser --locked

step "release build of the page (trunk build --release → dist/)"
trunk build --release

step "end-to-end: dist/ served under /some/prefix/, driven in headless Chromium"
# One file at a time: on two cores, files in parallel starve the long-script test's timeouts.
node --test --test-concurrency=1 e2e/

echo
echo "all checks passed"
