#!/usr/bin/env bash
# Checks tftensor's DLPack exchange with the other array libraries: NumPy,
# JAX (CPU), PyTorch and TensorFlow, through python/tests/test_dlpack_*.py.
#
# Uses the venv $VENV (default target/pyvenv). With TF_SITE set to a
# TensorFlow venv's site-packages (default .venv-check-tf's, when present),
# that is linked in through a .pth file rather than installed again. JAX
# (`jax[cpu]`) is installed when missing; PyTorch only with INSTALL_TORCH=1
# (PyPI's wheel pulls ~3 GB of CUDA libraries). A library that is missing
# has its tests skipped, and the summary says which.
# SKIP_BUILD=1 reuses the tftensor module already in the venv.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${VENV:-$root/target/pyvenv}"
tf_site="${TF_SITE:-$root/.venv-check-tf/lib/python3.11/site-packages}"
python="${PYTHON:-python3}"
pip=(--quiet --disable-pip-version-check)

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
if [ -d "$tf_site" ] && [ ! -e "$site/venv_tf.pth" ]; then
    echo "$tf_site" >"$site/venv_tf.pth"
fi
"$venv/bin/python" -m pip install "${pip[@]}" "maturin>=1.7,<2" "numpy>=2.1,<2.5" "pytest>=7"
"$venv/bin/python" -c 'import jax' 2>/dev/null || "$venv/bin/python" -m pip install "${pip[@]}" "jax[cpu]"
if [ "${INSTALL_TORCH:-0}" = 1 ]; then
    "$venv/bin/python" -c 'import torch' 2>/dev/null || "$venv/bin/python" -m pip install "${pip[@]}" torch
fi

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    (cd "$root/python" && VIRTUAL_ENV="$venv" PATH="$venv/bin:$PATH" \
        "$venv/bin/maturin" develop --release --quiet)
fi

export TF_CPP_MIN_LOG_LEVEL=3
echo "== versions"
"$venv/bin/python" - <<'EOF'
import importlib, platform
print("python", platform.python_version())
for name in ["tftensor", "numpy", "jax", "jaxlib", "torch", "tensorflow"]:
    try:
        print(f"{name:<10}", importlib.import_module(name).__version__)
    except Exception as e:
        print(f"{name:<10} missing ({type(e).__name__})")
EOF

echo "== pytest"
cd "$root/python"
# TF logs its missing-GPU probe on stderr; keep the report readable.
"$venv/bin/python" -m pytest -q -rs \
    tests/test_dlpack_consumers.py tests/test_dlpack_numpy.py \
    tests/test_dlpack_torch.py tests/test_dlpack_tensorflow.py tests/test_device.py \
    tests/test_zz_leaks.py
