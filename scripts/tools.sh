#!/usr/bin/env bash
# Sourced by serve.sh and test.sh: installs whatever the web page's build and tests need
# and is missing, from package registries only. Idempotent; a no-op when all is there.
#   need_web_tools      wasm32 target, trunk, wasm-bindgen-cli, npm tools (binaryen, playwright-core, axe-core)
#   need_browser        Debian's chromium + chromium-driver (browser tests)
#   need_python_env     .venv-py with maturin, pytest, nbclient (python/requirements-test.txt)
#   need_mdbook         mdbook, which builds the book under docs/
# Versions must agree: the wasm-bindgen pin in web/Cargo.toml (and Cargo.lock), the CLI
# (wasm-bindgen and wasm-bindgen-test-runner) and Trunk.toml's [tools] wasm_bindgen.

TRUNK_VERSION=0.21.14        # 0.22 needs a newer rustc
WASM_BINDGEN_VERSION=0.2.130
MDBOOK_VERSION=0.4.52
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

need_web_tools() {
  rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
  if ! trunk --version 2>/dev/null | grep -q "$TRUNK_VERSION"; then
    echo "installing trunk $TRUNK_VERSION (about 18 minutes on 2 cores)"
    cargo install --locked trunk --version "$TRUNK_VERSION"
  fi
  if ! wasm-bindgen --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION" ||
     ! command -v wasm-bindgen-test-runner >/dev/null; then
    echo "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 9 minutes on 2 cores)"
    # Without --locked: its own lock file pins crates that no longer build on this rustc.
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi
  # binaryen 132 from npm: Debian's binaryen 108 silently breaks the page (it never mounts).
  if ! node_modules/.bin/wasm-opt --version 2>/dev/null | grep -q "version 132" ||
     [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/axe-core ]; then
    command -v npm >/dev/null || { apt-get update -qq && apt-get install -y -qq nodejs npm; }
    npm ci --no-audit --no-fund
  fi
}

need_browser() {
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
  fi
  export CHROMEDRIVER=/usr/bin/chromedriver
  export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
}

need_python_env() {
  # Rebuilt when the pinned requirements change (their hash is kept in the venv).
  local want have
  want=$(sha256sum python/requirements-test.txt | cut -d' ' -f1)
  have=$(cat .venv-py/.requirements 2>/dev/null || true)
  if [ "$want" != "$have" ] || [ ! -x .venv-py/bin/python ]; then
    python3 -m venv --clear .venv-py 2>/dev/null || {
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
      python3 -m venv --clear .venv-py
    }
    .venv-py/bin/pip install -q --disable-pip-version-check -r python/requirements-test.txt
    echo "$want" > .venv-py/.requirements
  fi
  export VIRTUAL_ENV=$PWD/.venv-py
}

need_mdbook() {
  if ! mdbook --version 2>/dev/null | grep -q "v$MDBOOK_VERSION"; then
    echo "installing mdbook $MDBOOK_VERSION (about 4 minutes on 2 cores)"
    cargo install --locked mdbook --version "$MDBOOK_VERSION" --no-default-features --features search
  fi
}
