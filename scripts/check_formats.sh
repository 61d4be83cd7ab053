#!/usr/bin/env bash
# The real NumPy and safetensors read what tftensor writes.
#
# Writes every kind of file with `cargo run --example write_formats` into a
# temporary directory and checks it with scripts/check_formats.py, in the
# venv $VENV (created if missing; default target/venv-formats) holding only
# `numpy` and `safetensors` from PyPI. Prints "N passed, M failed" last and
# exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-target/venv-formats}"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet numpy safetensors
fi
"$VENV/bin/python" -c "import numpy, safetensors" 2>/dev/null \
    || "$VENV/bin/pip" install --quiet numpy safetensors
OUT="$(mktemp -d "${TMPDIR:-/tmp}/tftensor-formats.XXXXXX")"
trap 'rm -rf "$OUT"' EXIT
cargo run --quiet --example write_formats -- "$OUT"
"$VENV/bin/python" scripts/check_formats.py "$OUT"
