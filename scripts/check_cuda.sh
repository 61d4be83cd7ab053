#!/usr/bin/env bash
# GPU checks of tftensor.DeviceTensor with PyTorch (CUDA), for a machine
# with an NVIDIA GPU. Builds nothing: give it a tftensor wheel built
# elsewhere (`cd python && maturin build --release`, in target/wheels/) and
# a Python that imports torch (CUDA build) and numpy >= 2.1.
#
#   scripts/check_cuda.sh path/to/tftensor-*.whl        # PYTHON=python3
#
# The wheel is unpacked into a temporary folder put first on PYTHONPATH
# (no network, no venv changes). Runs scripts/check_cuda.py: round trips for
# every dtype, from_dlpack's device/copy arguments, CuPy and JAX producers
# and consumers (CuPy managed memory too), the deleter-once check, a
# producer freed during a pending readback, a 1 GiB readback, and float32
# readback benchmarks against np.from_dlpack(x, device="cpu"), x.cpu() and
# torch's pinned copy_ (TFTENSOR_CUDA_BENCH_MIB=1,16,256,1024 for a sweep).
# The Rust side's GPU tests are `cargo test --features cuda --test device`
# (with TFTENSOR_GPU_BIG=1 for its 1 GiB case).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
wheel="${1:-${WHEEL:-}}"
python="${PYTHON:-python3}"
if [ -z "$wheel" ] || [ ! -f "$wheel" ]; then
    echo "usage: $0 path/to/tftensor-*.whl" >&2
    exit 2
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
site="$(mktemp -d)"
trap 'rm -rf "$site"' EXIT
# A wheel is a zip; unpacking it is all an install of this one needs.
"$python" -m zipfile -e "$wheel" "$site"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}" "$python" "$here/check_cuda.py"
