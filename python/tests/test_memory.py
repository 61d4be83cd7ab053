"""The memory of a dropped large read goes back: `tftensor.load` of a 1 GiB
`.npy`, `del`, `gc.collect()`, and the process's resident memory returns to
within 64 MiB of where it started, right after `tftensor.release_memory()`
and by itself within the read pool's idle time (1 s). Needs about 1 GiB of
RAM and of temp disk; Linux only (reads /proc/self/status)."""

import gc
import sys
import time
from pathlib import Path

import pytest

import tftensor

GIB = 1 << 30
MIB = 1 << 20
SLACK = 64 * MIB
IDLE = 1.0  # tftensor.READ_POOL_IDLE

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads /proc/self/status"
)


def rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def write_npy(path: Path, nbytes: int) -> None:
    """float32 zeros, written in 8 MiB pieces (nothing lasting in memory)."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % (nbytes // 4)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    zeros = bytes(8 * MIB)
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
        for _ in range(nbytes // len(zeros)):
            f.write(zeros)


def load_and_drop(path: Path, start: int) -> None:
    tensors = tftensor.load(str(path))
    (tensor,) = tensors.values()
    assert tensor.shape == (GIB // 4,)
    assert rss() >= start + GIB - SLACK, "the tensor is in memory"
    del tensors
    gc.collect()
    assert rss() >= start + GIB - SLACK, "the pool keeps the dropped read"


def test_a_dropped_gib_goes_back_on_release_memory_and_by_itself(tmp_path: Path) -> None:
    path = tmp_path / "1gib.npy"
    write_npy(path, GIB)
    gc.collect()
    tftensor.release_memory()
    start = rss()

    load_and_drop(path, start)
    tftensor.release_memory()
    assert rss() <= start + SLACK, f"{rss() // MIB} MiB after release_memory, from {start // MIB}"

    load_and_drop(path, start)
    dropped = time.monotonic()
    while rss() > start + SLACK and time.monotonic() - dropped < IDLE + 1.0:
        time.sleep(0.02)
    waited = time.monotonic() - dropped
    assert rss() <= start + SLACK, f"{rss() // MIB} MiB {waited:.2f} s after del, from {start // MIB}"
    assert waited >= IDLE / 2, f"given back before the idle time: {waited:.2f} s"
