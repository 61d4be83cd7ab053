#!/usr/bin/env bash
# Makes tests/data/saved_model/tf1_saver/ with TF 2.21 (scripts/gen_meta_graph.py),
# in a venv of its own (.venv-meta, ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv-meta/bin/python ] || { python3 -m venv .venv-meta && .venv-meta/bin/pip install -q tensorflow-cpu==2.21.0; }
.venv-meta/bin/python scripts/gen_meta_graph.py
