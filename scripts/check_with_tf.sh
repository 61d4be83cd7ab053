#!/usr/bin/env bash
# TensorFlow 2.21 reads bundles written by tftensor's BundleWriter: writes
# them with `cargo run --example checkpoint_interop`, then runs
# scripts/check_with_tf.py in a venv with TensorFlow.
#
# The venv: $TF_VENV if set (any venv with TensorFlow 2.21), else
# .venv-check-tf in the repository, created on first use with
# `pip install tensorflow-cpu==2.21.* numpy`.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${TF_VENV:-.venv-check-tf}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet 'tensorflow-cpu==2.21.*' numpy
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run --quiet --example checkpoint_interop -- "$out"
"$venv/bin/python" scripts/check_with_tf.py "$out" 2>&1 | grep -v -e '^WARNING' -e 'oneDNN' -e 'cpu_feature_guard' -e 'rebuild TensorFlow' -e '^W0000' -e '^I0000'
exit "${PIPESTATUS[0]}"
