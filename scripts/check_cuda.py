"""GPU checks of tftensor.DeviceTensor against PyTorch (CUDA). Run by
scripts/check_cuda.sh on a machine with an NVIDIA GPU, torch (CUDA) and
numpy >= 2.1 importable, and the tftensor wheel installed.

Prints one line per check and a benchmark table; exits non-zero on the
first failed check."""

import gc
import statistics
import sys
import time

import numpy as np
import torch

import tftensor

assert torch.cuda.is_available(), "torch sees no CUDA device"
print("torch", torch.__version__, "| numpy", np.__version__, "| tftensor", tftensor.__version__)
print("device:", torch.cuda.get_device_name(0), "| cuda devices (tftensor):", tftensor.cuda_device_count())
cuda = torch.device("cuda:0")


def host_bytes(x):
    """The raw bytes of a torch tensor, via the CPU."""
    return x.detach().contiguous().cpu().reshape(-1).view(torch.uint8).numpy().tobytes()


failures = []


def check(name, ok):
    print(("ok   " if ok else "FAIL ") + name, flush=True)
    if not ok:
        failures.append(name)


def attempt(name, f):
    """Runs a check body; an exception is a failure, reported, not fatal."""
    try:
        f()
    except Exception as e:  # report and go on to the other checks
        check(f"{name}: {type(e).__name__}: {e}", False)


# ---- round trips, every dtype both libraries have --------------------------------
DTYPES = [
    torch.bool, torch.int8, torch.int16, torch.int32, torch.int64,
    torch.uint8, torch.uint16, torch.uint32, torch.uint64,
    torch.float16, torch.bfloat16, torch.float32, torch.float64,
    torch.complex64, torch.complex128,
]
for name in ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz"]:
    if hasattr(torch, name):
        DTYPES.append(getattr(torch, name))

def round_trip(dt):
    base = torch.arange(24, device=cuda).reshape(2, 3, 4)
    if dt == torch.bool:
        x = base % 3 == 0
    elif dt.is_complex:
        x = torch.complex(base.float(), -base.float()).to(dt)
    elif dt.is_floating_point:
        x = (base.float() * 0.25 - 2).to(dt)
    else:
        x = (base * 7 % 100).to(dt)
    d = tftensor.from_dlpack(x)
    ok = isinstance(d, tftensor.DeviceTensor) and d.data_ptr == x.data_ptr() and d.shape == (2, 3, 4)
    h = d.readback()
    ok &= h.tensor_data() == host_bytes(x)
    ok &= d.readback_async().wait().tensor_data() == host_bytes(x)
    u = tftensor.upload(h, "cuda:0")
    y = torch.from_dlpack(u)
    ok &= y.device == x.device and y.dtype == x.dtype and host_bytes(y) == host_bytes(x)
    c = tftensor.from_dlpack(x, device="cpu")
    ok &= isinstance(c, tftensor.Tensor) and c.tensor_data() == host_bytes(x)
    check(f"round trip {dt} ({d!r})", ok)


for dt in DTYPES:
    attempt(f"round trip {dt}", lambda: round_trip(dt))


# ---- deleter exactly once: torch's memory comes back once both are gone ----------
torch.cuda.synchronize()
gc.collect()
base_mem = torch.cuda.memory_allocated()
x = torch.ones(64 << 20, dtype=torch.float32, device=cuda)  # 256 MiB
d = tftensor.from_dlpack(x)
del x
gc.collect()
held = torch.cuda.memory_allocated() - base_mem
del d
gc.collect()
check(f"deleter: DeviceTensor holds torch's memory ({held >> 20} MiB) and frees it",
      held >= 256 << 20 and torch.cuda.memory_allocated() == base_mem)

# ---- the producer frees its tensor while a readback is pending --------------------
s = torch.cuda.Stream()
n = 32 << 20
with torch.cuda.stream(s):
    y = torch.zeros(n, dtype=torch.float32, device=cuda)
    for _ in range(200):  # queue work so the readback has to wait for it
        y.add_(1)
    d = tftensor.from_dlpack(y)  # torch makes the legacy stream wait for s
r = d.readback_async()
early = r.is_done()
del y, d
gc.collect()
junk = torch.full((n,), -7.0, device=cuda)  # may reuse the freed block
h = r.wait()
a = np.from_dlpack(h)
check(f"pending readback survives the producer's free (done at once: {early})", bool((a == 200).all()))
del junk, h, a

# ---- 1 GiB readback ---------------------------------------------------------------
x = torch.arange(1 << 28, dtype=torch.float32, device=cuda)
t0 = time.perf_counter()
h = tftensor.from_dlpack(x).readback()
dt_s = time.perf_counter() - t0
a = np.from_dlpack(h)
check(f"1 GiB readback in {dt_s * 1e3:.0f} ms", a.shape == (1 << 28,) and a[123456789] == 123456789.0 and a[-1] == (1 << 28) - 1)
del x, h, a
gc.collect()
torch.cuda.empty_cache()

# ---- benchmark: 256 MiB float32 readback ------------------------------------------
x = torch.randn(64 << 20, dtype=torch.float32, device=cuda)
pinned = torch.empty(x.shape, dtype=x.dtype, pin_memory=True)
nbytes = x.numel() * 4


def tft_readback():
    return tftensor.from_dlpack(x).readback()


def tft_async():
    return tftensor.from_dlpack(x).readback_async().wait()


def np_cpu():
    return np.from_dlpack(x, device="cpu")


def torch_cpu():
    return x.cpu()


def torch_pinned_copy():
    pinned.copy_(x)
    torch.cuda.synchronize()
    return pinned


def tft_device_cpu():
    return tftensor.from_dlpack(x, device="cpu")


methods = {
    "tftensor DeviceTensor.readback()": tft_readback,
    "tftensor readback_async().wait()": tft_async,
    'tftensor.from_dlpack(x, device="cpu")': tft_device_cpu,
    'np.from_dlpack(x, device="cpu")': np_cpu,
    "x.cpu()": torch_cpu,
    "torch pinned.copy_(x) + sync": torch_pinned_copy,
}
times = {k: [] for k in methods}
for k, f in list(methods.items()):  # warm up (pinned pool, caches)
    try:
        f()
        f()
    except Exception as e:
        print(f"  {k}: not measured ({type(e).__name__}: {e})")
        del methods[k]
for _ in range(10):  # interleaved rounds
    for k, f in methods.items():
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        out = f()
        times[k].append(time.perf_counter() - t0)
        del out
print(f"\n256 MiB float32 device-to-host, median of 10 interleaved rounds ({torch.cuda.get_device_name(0)}):")
for k, v in times.items():
    m = statistics.median(v)
    print(f"  {k:<40} {m * 1e3:8.2f} ms  {nbytes / m / 1e9:6.2f} GB/s  (min {min(v) * 1e3:.2f} ms)")
if failures:
    print(f"{len(failures)} FAILED:", *failures, sep="\n  ")
    sys.exit(1)
print("all checks passed")
