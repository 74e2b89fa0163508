#!/usr/bin/env bash
# The one command that runs every test on a fresh machine (README: "Run every test").
# Installs what it needs (Python packages, Xvfb for the Tkinter tests), builds the release
# binaries, then runs the Rust tests, the end-to-end tests in tests/ and the harness tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# The harness package (scripts/pyproject.toml) with what the tests need; not Ray (the extra
# `ray`): the Ray tests skip without it and say so.
echo "== installing the Python harness: pip install -e 'scripts[test,batch]'"
python3 -m pip install --quiet --disable-pip-version-check -e 'scripts[test,batch]'

if ! command -v Xvfb >/dev/null 2>&1; then
  echo "== installing xvfb (for the Tkinter front-end tests)"
  if [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb >/dev/null) \
      || echo "warning: could not install xvfb; GUI tests will be skipped"
  else
    echo "warning: not root, cannot install xvfb; GUI tests will be skipped"
  fi
fi

echo "== cargo build --release"
cargo build --release --workspace --locked

echo "== cargo test (rules, engines)"
cargo test --release --workspace --locked

echo "== pytest (end-to-end tests in tests/, harness tests in scripts/; pytest.ini)"
python3 -m pytest -q tests scripts
