#!/usr/bin/env python3
"""The real readers read what tftensor wrote.

`cargo run --example write_formats -- DIR` writes .npy files of every dtype,
two .npz archives (stored, deflated) and .safetensors files, with a
manifest.json of the values. This script loads them with np.load and the
`safetensors` package and compares dtype, shape and bytes; for the NumPy
types it also checks that np.save of the loaded array gives the same file
bytes. It needs only `numpy` and `safetensors` (ml_dtypes is used when
present). The last line is "N passed, M failed"; the exit code is 1 if
anything failed.

    python scripts/check_formats.py DIR
"""

import io
import json
import os
import sys
import zipfile

import numpy as np
import safetensors
import safetensors.numpy

try:
    import ml_dtypes  # noqa: F401  (registers bfloat16, float8, int4 with NumPy)
    HAVE_ML = True
except ImportError:
    HAVE_ML = False

passed = 0
failed = []


def ok(label, cond, detail=""):
    global passed
    if cond:
        passed += 1
    else:
        failed.append(f"{label}: {detail}")


def expected_elements(e):
    return [bytes.fromhex(s) for s in e["strings"]]


def check_array(label, arr, e, raw_file=None):
    """One loaded array against its manifest entry."""
    ok(label + " shape", list(arr.shape) == e["shape"], f"{arr.shape} != {e['shape']}")
    want = e.get("numpy")
    if want == "bytes":
        ok(label + " kind", arr.dtype.kind == "S", str(arr.dtype))
        got = [x for x in arr.reshape(-1).tolist()]
        ok(label + " strings", got == expected_elements(e), f"{got[:3]}...")
    elif want is None:
        # ml_dtypes layouts: opaque V (or the ml_dtypes type when installed).
        ok(label + " opaque", arr.dtype.kind in "Vf" or HAVE_ML, str(arr.dtype))
        ok(label + " bytes", np.ascontiguousarray(arr).tobytes().hex() == e["hex"], "bytes differ")
    else:
        ok(label + " dtype", arr.dtype.name == want, f"{arr.dtype.name} != {want}")
        ok(label + " bytes", np.ascontiguousarray(arr).tobytes().hex() == e["hex"], "bytes differ")
    if raw_file is not None and want is not None:
        buf = io.BytesIO()
        np.save(buf, arr)
        ok(label + " np.save identical", buf.getvalue() == raw_file, "np.save writes other bytes")


def check_npy(d, manifest):
    for name, e in sorted(manifest["npy"].items()):
        path = os.path.join(d, name)
        raw = open(path, "rb").read()
        try:
            arr = np.load(path, allow_pickle=False)
        except (TypeError, ValueError) as err:
            # '<f1' (ml_dtypes' float8_e5m2, as np.save writes it) needs
            # ml_dtypes to be understood; check header and bytes by hand.
            if HAVE_ML or e.get("numpy") is not None:
                ok(name + " load", False, repr(err))
                continue
            ok(name + " descr f1", b"'descr': '<f1'" in raw[:128], raw[:80])
            ok(name + " bytes", raw[128:].hex() == e["hex"], "bytes differ")
            continue
        check_array(name, arr, e, raw)


def check_npz(d, manifest):
    members = manifest["npz"]["members"]
    for f in manifest["npz"]["files"]:
        path = os.path.join(d, f)
        with zipfile.ZipFile(path) as z:
            ok(f + " CRCs", z.testzip() is None, "bad CRC")
            kinds = {i.compress_type for i in z.infolist()}
            want = zipfile.ZIP_DEFLATED if "deflated" in f else zipfile.ZIP_STORED
            ok(f + " compression", kinds == {want}, str(kinds))
        with np.load(path, allow_pickle=False) as z:
            ok(f + " names", sorted(z.files) == sorted(members), f"{z.files}")
            for name, e in members.items():
                try:
                    arr = z[name]
                except (TypeError, ValueError) as err:
                    ok(f"{f}:{name} load", e.get("numpy") is None and not HAVE_ML, repr(err))
                    continue
                check_array(f"{f}:{name}", arr, e)


def check_safetensors(d, manifest):
    st = manifest["safetensors"]
    tensors = st["tensors"]
    raw = open(os.path.join(d, st["file"]), "rb").read()
    loaded = dict(safetensors.deserialize(raw))
    ok("all.safetensors names", sorted(loaded) == sorted(tensors), f"{sorted(loaded)[:4]}")
    for name, e in tensors.items():
        v = loaded.get(name)
        if v is None:
            continue
        ok(f"st:{name} dtype", v["dtype"] == e["safetensors"], f"{v['dtype']} != {e['safetensors']}")
        ok(f"st:{name} shape", list(v["shape"]) == e["shape"], f"{v['shape']}")
        ok(f"st:{name} bytes", bytes(v["data"]).hex() == e["hex"], "bytes differ")
    arrays = safetensors.numpy.load_file(os.path.join(d, st["numpy_file"]))
    native = {n: e for n, e in tensors.items() if e.get("numpy") not in (None, "bytes")
              and not e["tf_dtype"].startswith("float8") and e["tf_dtype"] != "bfloat16"}
    ok("numpy_only.safetensors names", sorted(arrays) == sorted(native), f"{sorted(arrays)[:4]}")
    for name, arr in arrays.items():
        check_array(f"load_file:{name}", arr, native[name])


def main():
    d = sys.argv[1]
    manifest = json.load(open(os.path.join(d, "manifest.json")))
    print(f"numpy {np.__version__}, safetensors {safetensors.__version__}, "
          f"ml_dtypes {'yes' if HAVE_ML else 'no'}")
    check_npy(d, manifest)
    check_npz(d, manifest)
    check_safetensors(d, manifest)
    for f in failed[:50]:
        print("FAIL", f)
    print(f"check_formats: {passed} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
