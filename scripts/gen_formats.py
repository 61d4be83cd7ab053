#!/usr/bin/env python3
"""Writes the .npy/.npz and .safetensors fixtures of tests/npy.rs and
tests/safetensors.rs with the real producers: NumPy (np.save, np.savez,
np.savez_compressed, numpy.lib.format.write_array for versions 2.0 and 3.0),
ml_dtypes, and the Python `safetensors` package.

Each directory gets an `expected.json` with, per file, the TF dtype, the
shape and the expected values (the little-endian C-order bytes as hex for
numeric tensors, the elements as hex for strings), so `cargo test` needs no
Python. Run from the repository root with the TF venv:

    python scripts/gen_formats.py
"""

import io
import json
import os
import sys

import ml_dtypes
import numpy as np
import safetensors
import safetensors.numpy

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data")
NPY = os.path.join(ROOT, "npy")
ST = os.path.join(ROOT, "safetensors")

# NumPy dtype -> TF dtype name, for the types NumPy itself has.
NUMPY_TYPES = {
    "bool": "bool",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "float16": "half",
    "float32": "float",
    "float64": "double",
    "complex64": "complex64",
    "complex128": "complex128",
}

# ml_dtypes type -> TF dtype name (np.save writes these as V1/V2, or f1).
ML_TYPES = {
    "bfloat16": "bfloat16",
    "float8_e4m3fn": "float8_e4m3fn",
    "float8_e5m2": "float8_e5m2",
    "float8_e4m3fnuz": "float8_e4m3fnuz",
    "float8_e4m3b11fnuz": "float8_e4m3b11fnuz",
    "float8_e5m2fnuz": "float8_e5m2fnuz",
    "int4": "int4",
    "uint4": "uint4",
}


def values(np_dtype, shape):
    """Deterministic, interesting values of a dtype."""
    n = int(np.prod(shape))
    dt = np.dtype(np_dtype)
    if dt.kind == "b":
        return (np.arange(n) % 3 == 1).reshape(shape)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        base = [info.min, info.max, 0, 1, 2, info.max // 3]
        return np.array([base[i % len(base)] for i in range(n)], dtype=dt).reshape(shape)
    if dt.kind == "f":
        base = [0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 65504.0, 1e-3]
        return np.array([base[i % len(base)] for i in range(n)], dtype=dt).reshape(shape)
    if dt.kind == "c":
        base = [1.5 - 2j, -0.0 + 0j, complex(np.inf, np.nan), 3.25 + 1e-3j]
        return np.array([base[i % len(base)] for i in range(n)], dtype=dt).reshape(shape)
    raise ValueError(np_dtype)


def ml_values(name, shape):
    n = int(np.prod(shape))
    dt = getattr(ml_dtypes, name)
    if name in ("int4", "uint4"):
        lo, hi = (-8, 7) if name == "int4" else (0, 15)
        return np.array([lo + (i * 5) % (hi - lo + 1) for i in range(n)], dtype=dt).reshape(shape)
    base = [0.0, 1.0, -1.5, 0.25, -3.0, 2.0]
    return np.array([base[i % len(base)] for i in range(n)], dtype=np.float32).astype(dt).reshape(shape)


def le_hex(arr):
    """Little-endian C-order bytes, as TF holds the tensor."""
    a = np.ascontiguousarray(arr)
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return a.tobytes().hex()


def save(name, arr, expected, tf_dtype, **extra):
    path = os.path.join(NPY, name)
    np.save(path, arr)
    entry = {"dtype": tf_dtype, "shape": list(arr.shape)}
    if arr.dtype.kind in "SU":
        entry["strings"] = [
            (s if isinstance(s, bytes) else s.encode("utf-8")).hex()
            for s in arr.reshape(-1).tolist()
        ]
    else:
        entry["hex"] = le_hex(arr)
    entry.update(extra)
    expected[name] = entry
    return entry


def write_version(name, arr, version, expected, tf_dtype):
    buf = io.BytesIO()
    np.lib.format.write_array(buf, arr, version=version)
    with open(os.path.join(NPY, name), "wb") as f:
        f.write(buf.getvalue())
    expected[name] = {"dtype": tf_dtype, "shape": list(arr.shape), "hex": le_hex(arr)}


def gen_npy():
    os.makedirs(NPY, exist_ok=True)
    expected = {}
    # Every NumPy dtype, little-endian (np.save's output: our writer must
    # reproduce these bytes exactly), and big-endian.
    for np_name, tf in NUMPY_TYPES.items():
        arr = values(np_name, (2, 3))
        save(f"{np_name}.npy", arr, expected, tf, np_save_identical=True)
        if np.dtype(np_name).itemsize > 1:
            be = arr.astype(np.dtype(np_name).newbyteorder(">"))
            save(f"be_{np_name}.npy", be, expected, tf)
    # Shapes: scalar, empty, rank 4.
    save("scalar_f8.npy", np.array(2.5), expected, "double", np_save_identical=True)
    save("empty_i4.npy", np.zeros((0, 3), dtype=np.int32), expected, "int32", np_save_identical=True)
    save("rank4_u2.npy", np.arange(120, dtype=np.uint16).reshape(2, 3, 4, 5), expected, "uint16",
         np_save_identical=True)
    big = np.arange(12345678, 12345678 + 7, dtype=np.int64)
    save("long_dim_i8.npy", big.reshape(7, 1), expected, "int64", np_save_identical=True)
    # Fortran order: np.save keeps it for F-contiguous arrays.
    f3 = np.asfortranarray(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    save("fortran_f4.npy", f3, expected, "float")
    fbe = np.asfortranarray(values("complex128", (3, 2)).astype(">c16"))
    save("fortran_be_c16.npy", fbe, expected, "complex128")
    fs = np.asfortranarray(np.array([[b"a", b"bb", b"ccc"], [b"", b"dd\x00d", b"e"]]))
    save("fortran_S.npy", fs, expected, "string")
    # Header versions 2.0 and 3.0 (np.save picks 1.0 whenever it fits).
    write_version("v2_f4.npy", values("float32", (4,)), (2, 0), expected, "float")
    write_version("v3_i2.npy", values("int16", (2, 2)), (3, 0), expected, "int16")
    write_version("v2_be_f8.npy", values("float64", (3,)).astype(">f8"), (2, 0), expected, "double")
    # Strings: NumPy drops trailing NULs of S and U elements on reading.
    s = np.array([b"ab", b"c\x00d", b"", b"\xff\xfe"])
    save("S.npy", s, expected, "string", np_save_identical=True)
    # Width 4 on disk, elements of at most 3 bytes once NULs are dropped.
    save("S_trailing_nul.npy", np.array([b"xyz\x00", b"a"]), expected, "string")
    u = np.array(["héllo", "😀x", "", "tab\tend"])
    save("U.npy", u, expected, "string")
    save("be_U.npy", u.astype(">U7"), expected, "string")
    # ml_dtypes: V1/V2 (f1 for float8_e5m2), read with an explicit dtype.
    for ml_name, tf in ML_TYPES.items():
        arr = ml_values(ml_name, (2, 3))
        # np.save writes float8_e5m2 as '<f1', which np.load cannot read;
        # tftensor reads it but writes '<V1'.
        identical = {"np_save_identical": True} if ml_name != "float8_e5m2" else {}
        entry = save(f"ml_{ml_name}.npy", arr, expected, tf, **identical)
        entry["read_as"] = tf
        entry["descr"] = np.lib.format.dtype_to_descr(arr.dtype)
    # Refused: an object array (a pickle), a datetime.
    np.save(os.path.join(NPY, "object.npy"), np.array([1, "a", None], dtype=object), allow_pickle=True)
    expected["object.npy"] = {"error": "never unpickled"}
    np.save(os.path.join(NPY, "datetime.npy"), np.array(["2020-01-01"], dtype="datetime64[D]"))
    expected["datetime.npy"] = {"error": "not a plain NumPy type"}
    np.save(os.path.join(NPY, "float128.npy"), np.zeros((1,), dtype=np.longdouble))
    expected["float128.npy"] = {"error": "no TensorFlow equivalent"}
    with open(os.path.join(NPY, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)

    # npz: stored and deflated members.
    members = {
        "weights": values("float32", (3, 4)),
        "ids": values("int64", (5,)),
        "names": np.array([b"alpha", b"b"]),
        "flag": np.array(True),
        "bf": ml_values("bfloat16", (2, 2)),
    }
    np.savez(os.path.join(NPY, "arrays.npz"), **members)
    np.savez_compressed(os.path.join(NPY, "arrays_compressed.npz"), **members)
    npz_expected = {}
    for k, a in members.items():
        e = {"dtype": NUMPY_TYPES.get(a.dtype.name, "string" if a.dtype.kind == "S" else "bfloat16"),
             "shape": list(a.shape)}
        if a.dtype.kind == "S":
            e["strings"] = [x.hex() for x in a.reshape(-1).tolist()]
        else:
            e["hex"] = le_hex(a)
        if k == "bf":
            e["read_as"] = "bfloat16"
        npz_expected[k] = e
    with open(os.path.join(NPY, "npz_expected.json"), "w") as f:
        json.dump({"order": list(members), "arrays": npz_expected}, f, indent=1)


# safetensors dtype -> (TF dtype, a NumPy/ml_dtypes dtype with its layout).
ST_TYPES = {
    "BOOL": ("bool", np.bool_),
    "U8": ("uint8", np.uint8),
    "I8": ("int8", np.int8),
    "U16": ("uint16", np.uint16),
    "I16": ("int16", np.int16),
    "U32": ("uint32", np.uint32),
    "I32": ("int32", np.int32),
    "U64": ("uint64", np.uint64),
    "I64": ("int64", np.int64),
    "F16": ("half", np.float16),
    "BF16": ("bfloat16", ml_dtypes.bfloat16),
    "F32": ("float", np.float32),
    "F64": ("double", np.float64),
    "C64": ("complex64", np.complex64),
    "F8_E4M3": ("float8_e4m3fn", ml_dtypes.float8_e4m3fn),
    "F8_E5M2": ("float8_e5m2", ml_dtypes.float8_e5m2),
    "F8_E4M3FNUZ": ("float8_e4m3fnuz", ml_dtypes.float8_e4m3fnuz),
    "F8_E5M2FNUZ": ("float8_e5m2fnuz", ml_dtypes.float8_e5m2fnuz),
}

# The TensorSpec dtype names of the Python package.
SPEC_NAMES = {
    "BOOL": "bool", "U8": "uint8", "I8": "int8", "U16": "uint16", "I16": "int16",
    "U32": "uint32", "I32": "int32", "U64": "uint64", "I64": "int64", "F16": "float16",
    "BF16": "bfloat16", "F32": "float32", "F64": "float64", "C64": "complex64",
    "F8_E4M3": "float8_e4m3fn", "F8_E5M2": "float8_e5m2", "F8_E4M3FNUZ": "float8_e4m3fnuz",
    "F8_E5M2FNUZ": "float8_e5m2fnuz", "F8_E8M0": "float8_e8m0fnu",
}


def st_serialize(arrays, path):
    """safetensors.serialize over raw buffers (the only Python API that
    takes every dtype, ml_dtypes ones included)."""
    specs = {
        name: safetensors.TensorSpec(dtype=SPEC_NAMES[st], shape=list(a.shape),
                                     data_ptr=a.ctypes.data, data_len=a.nbytes)
        for name, (st, a) in arrays.items()
    }
    data = safetensors.serialize(specs)
    with open(path, "wb") as f:
        f.write(data)


def gen_safetensors():
    os.makedirs(ST, exist_ok=True)
    arrays = {}
    expected = {}
    for i, (st, (tf, dt)) in enumerate(ST_TYPES.items()):
        shape = (2, 3) if i % 2 == 0 else (5,)
        if np.dtype(dt).kind in "biuc" or dt in (np.float16, np.float32, np.float64):
            a = np.ascontiguousarray(values(np.dtype(dt).name, shape))
        else:
            a = np.ascontiguousarray(np.array([0.0, 1.0, -1.5, 0.25, -3.0, 2.0][: int(np.prod(shape))],
                                              dtype=np.float32).astype(dt).reshape(shape))
        name = f"t_{st.lower()}"
        arrays[name] = (st, a)
        expected[name] = {"st_dtype": st, "dtype": tf, "shape": list(shape), "hex": a.tobytes().hex()}
    arrays["scalar_f32"] = ("F32", np.array(4.5, dtype=np.float32))
    expected["scalar_f32"] = {"st_dtype": "F32", "dtype": "float", "shape": [], "hex": np.float32(4.5).tobytes().hex()}
    arrays["empty_i64"] = ("I64", np.zeros((0, 4), dtype=np.int64))
    expected["empty_i64"] = {"st_dtype": "I64", "dtype": "int64", "shape": [0, 4], "hex": ""}
    st_serialize(arrays, os.path.join(ST, "all_dtypes.safetensors"))
    # File order = data offset order, as the reader returns them.
    with open(os.path.join(ST, "all_dtypes.safetensors"), "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(n))
    order = sorted((k for k in header if k != "__metadata__"), key=lambda k: header[k]["data_offsets"])
    # The numpy front end (save_file) with metadata.
    np_arrays = {"w": values("float32", (4, 2)), "b": values("int32", (2,))}
    safetensors.numpy.save_file(np_arrays, os.path.join(ST, "numpy.safetensors"), metadata={"format": "np"})
    np_expected = {k: {"dtype": NUMPY_TYPES[a.dtype.name], "shape": list(a.shape), "hex": a.tobytes().hex()}
                   for k, a in np_arrays.items()}
    # A dtype TF does not have.
    e8m0 = np.array([1, 2, 127], dtype=np.uint8)
    st_serialize({"scales": ("F8_E8M0", e8m0)}, os.path.join(ST, "f8_e8m0.safetensors"))
    with open(os.path.join(ST, "expected.json"), "w") as f:
        json.dump({"all_dtypes": {"order": order, "tensors": expected},
                   "numpy": np_expected,
                   "unmapped": {"file": "f8_e8m0.safetensors", "tensor": "scales", "dtype": "F8_E8M0"}},
                  f, indent=1, sort_keys=True)


if __name__ == "__main__":
    print("numpy", np.__version__, "ml_dtypes", ml_dtypes.__version__, "safetensors", safetensors.__version__,
          file=sys.stderr)
    gen_npy()
    gen_safetensors()
