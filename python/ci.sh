#!/usr/bin/env bash
# Builds the tftensor Python module and runs its pytest suite, in a venv of
# its own: $VENV, or target/python-venv under the workspace. Needs only
# python3 (3.11+), cargo, and PyPI for maturin, numpy and pytest.
# PyTorch tests run when torch is importable in that venv and are skipped
# otherwise. moto (S3 on 127.0.0.1) serves the s3:// tests.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="${VENV:-$root/target/python-venv}"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "maturin>=1.7,<2" "numpy>=2.1,<2.5" "pytest>=7" "safetensors" "pyarrow" "moto[server]>=5.1,<6"

cd "$here"
# maturin installs the module into the active venv.
VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" \
    "$venv/bin/maturin" develop --release --quiet
"$venv/bin/python" -m pytest -q -rs tests
