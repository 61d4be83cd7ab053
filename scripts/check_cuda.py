"""GPU checks of tftensor.DeviceTensor against PyTorch (CUDA), and CuPy and
JAX where importable. Run by scripts/check_cuda.sh on a machine with an
NVIDIA GPU, torch (CUDA) and numpy >= 2.1 importable, and the tftensor wheel
installed.

Prints one line per check and the benchmark tables (device-to-host at each
size in TFTENSOR_CUDA_BENCH_MIB, default 256; host-to-device at 256 MiB);
exits non-zero if any check failed."""

import gc
import os
import statistics
import sys
import time

import numpy as np
import torch

# JAX would otherwise take 75% of the GPU's memory when first used.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

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
    y = torch.from_dlpack(u)  # zero-copy: the same device address
    ok &= y.data_ptr() == u.data_ptr
    ok &= y.device == x.device and y.dtype == x.dtype and host_bytes(y) == host_bytes(x)
    c = tftensor.from_dlpack(x, device="cpu")
    ok &= isinstance(c, tftensor.Tensor) and c.tensor_data() == host_bytes(x)
    check(f"round trip {dt} ({d!r})", ok)


for dt in DTYPES:
    attempt(f"round trip {dt}", lambda: round_trip(dt))


# ---- from_dlpack(x, device="cpu", copy=...) ---------------------------------------
def host_copy_arguments():
    x = torch.arange(6, dtype=torch.float32, device=cuda)
    t = tftensor.from_dlpack(x, device="cpu", copy=True)
    ok = isinstance(t, tftensor.Tensor) and t.tensor_data() == host_bytes(x)
    try:
        tftensor.from_dlpack(x, device="cpu", copy=False)  # no copy: impossible
        ok = False
    except BufferError:
        pass
    try:
        tftensor.from_dlpack(x, copy=True)  # a copy on the device is not offered
        ok = False
    except BufferError:
        pass
    check('from_dlpack(cuda, device="cpu", copy=True) reads back; copy=False and a device copy=True refuse', ok)


attempt("host copy arguments", host_copy_arguments)

# ---- CuPy and JAX: producers for from_dlpack, consumers of upload() -------------
def with_cupy():
    import cupy as cp

    x = cp.arange(12, dtype=cp.float32).reshape(3, 4) * 0.5
    d = tftensor.from_dlpack(x)
    ok = isinstance(d, tftensor.DeviceTensor) and d.data_ptr == x.data.ptr and d.shape == (3, 4)
    h = d.readback()
    ok &= h.tensor_data() == cp.asnumpy(x).tobytes()
    u = tftensor.upload(h, "cuda:0")
    y = cp.from_dlpack(u)  # zero-copy: the same device address
    ok &= y.data.ptr == u.data_ptr and bool((y == x).all())
    del u  # y holds the upload alone now
    gc.collect()
    ok &= bool((y == x).all())
    check(f"cupy {cp.__version__}: from_dlpack, readback, upload -> cp.from_dlpack zero-copy", ok)

    # CUDA managed memory (48 bytes of it): CuPy says kDLCUDAManaged (13).
    with cp.cuda.using_allocator(cp.cuda.malloc_managed):
        m = cp.arange(12, dtype=cp.float32) - 3
    d = tftensor.from_dlpack(m)
    ok = isinstance(d, tftensor.DeviceTensor) and d.data_ptr == m.data.ptr
    ok &= d.readback().tensor_data() == cp.asnumpy(m).tobytes()
    ok &= tftensor.from_dlpack(m, device="cpu").tensor_data() == cp.asnumpy(m).tobytes()
    check(f"cupy managed memory: device {d.device}, zero-copy, read back", ok)


def with_jax():
    import jax
    import jax.numpy as jnp

    gpu = jax.devices("gpu")[0]
    x = jax.device_put(jnp.arange(12, dtype=jnp.float32).reshape(3, 4) * 0.5, gpu)
    d = tftensor.from_dlpack(x)
    ok = isinstance(d, tftensor.DeviceTensor) and d.data_ptr == x.unsafe_buffer_pointer()
    h = d.readback()
    ok &= h.tensor_data() == np.asarray(x).tobytes()
    u = tftensor.upload(h, "cuda:0")
    y = jnp.from_dlpack(u)
    ok &= y.unsafe_buffer_pointer() == u.data_ptr and bool((y == x).all())
    ok &= list(y.devices())[0] == gpu
    h2 = jnp.from_dlpack(h)  # a host tensor, legacy-or-versioned as JAX asks
    ok &= np.asarray(h2).tobytes() == h.tensor_data()
    check(f"jax {jax.__version__}: from_dlpack, readback, upload -> jnp.from_dlpack zero-copy", ok)


attempt("cupy", with_cupy)
attempt("jax", with_jax)

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

# ---- benchmarks: float32 device-to-host and host-to-device -------------------------
ROUNDS = 10


def interleaved(title, nbytes, methods):
    """Times each method in ROUNDS interleaved, rotated rounds after two
    warm-ups (the pinned pool, caches), synchronizing before and after each
    call, and prints median GB/s."""
    times = {k: [] for k in methods}
    for k, f in list(methods.items()):
        try:
            f()
            f()
        except Exception as e:
            print(f"  {k}: not measured ({type(e).__name__}: {e})")
            del methods[k]
    order = list(methods.items())
    for r in range(ROUNDS):
        # Each round starts at the next method: no method always follows
        # the same one.
        for k, f in order[r % len(order):] + order[:r % len(order)]:
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            out = f()
            torch.cuda.synchronize()
            times[k].append(time.perf_counter() - t0)
            del out
    print(f"\n{title}, median of {ROUNDS} interleaved rounds ({torch.cuda.get_device_name(0)}):")
    for k, v in times.items():
        m = statistics.median(v)
        print(f"  {k:<40} {m * 1e3:8.2f} ms  {nbytes / m / 1e9:6.2f} GB/s  (min {min(v) * 1e3:.2f} ms)")


def bench(mib, upload):
    n = mib << 18  # float32 elements
    x = torch.randn(n, dtype=torch.float32, device=cuda)
    pinned = torch.empty(x.shape, dtype=x.dtype, pin_memory=True)

    def torch_pinned_copy():
        pinned.copy_(x)
        torch.cuda.synchronize()
        return pinned

    held = tftensor.from_dlpack(x)
    interleaved(f"{mib} MiB float32 device-to-host", n * 4, {
        "tftensor d.readback(), d held": lambda: held.readback(),
        "tftensor from_dlpack(x).readback()": lambda: tftensor.from_dlpack(x).readback(),
        "tftensor readback_async().wait()": lambda: tftensor.from_dlpack(x).readback_async().wait(),
        'tftensor.from_dlpack(x, device="cpu")': lambda: tftensor.from_dlpack(x, device="cpu"),
        'np.from_dlpack(x, device="cpu")': lambda: np.from_dlpack(x, device="cpu"),
        "x.cpu()": lambda: x.cpu(),
        "torch pinned.copy_(x) + sync": torch_pinned_copy,
    })
    if not upload:
        return
    a = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    t_host = tftensor.from_dlpack(a)
    t_pinned = tftensor.from_dlpack(x).readback()  # lives in pinned memory
    ta = torch.from_numpy(a)
    ta_pinned = ta.pin_memory()
    interleaved(f"{mib} MiB float32 host-to-device", n * 4, {
        "tftensor.upload(pageable host tensor)": lambda: tftensor.upload(t_host, "cuda:0"),
        "tftensor.upload(readback, pinned)": lambda: tftensor.upload(t_pinned, "cuda:0"),
        "torch.from_numpy(a).to(cuda)": lambda: ta.to(cuda),
        "pinned.to(cuda)": lambda: ta_pinned.to(cuda),
    })


# TFTENSOR_CUDA_BENCH_MIB="1,16,256,1024" for a sweep; 256 MiB is the issue's.
for mib in [int(m) for m in os.environ.get("TFTENSOR_CUDA_BENCH_MIB", "256").split(",")]:
    bench(mib, upload=mib == 256)
    gc.collect()
    torch.cuda.empty_cache()

if failures:
    print(f"{len(failures)} FAILED:", *failures, sep="\n  ")
    sys.exit(1)
print("all checks passed")
