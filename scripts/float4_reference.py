#!/usr/bin/env python3
"""Reference data for float4_e2m1fn, int2 and uint2 from ml_dtypes (the
library TF 2.21 uses for these types).

Writes tests/data/dtype/narrow_types.json:
  - "float4_to_f32": the f32 bits of each of the 256 bytes read as
    float4_e2m1fn (TF keeps the raw byte; the value is read from it).
  - "float4_from_f32_runs": the conversion f32 -> float4_e2m1fn over ALL
    2^32 f32 bit patterns, as runs [first_bits, byte]: every f32 whose bits
    lie in [first_bits, next run's first_bits) converts to `byte`.
  - "int2_to_i32" / "uint2_to_i32": the value of each of the 256 bytes.
  - "int2_from_i32" / "uint2_from_i32": [input, byte] pairs.

Run with a Python that has ml_dtypes:  python scripts/float4_reference.py
"""
import json
import os

import ml_dtypes
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "dtype", "narrow_types.json")


def main():
    f4 = ml_dtypes.float4_e2m1fn
    all_bytes = np.arange(256, dtype=np.uint8)
    to_f32 = all_bytes.view(f4).astype(np.float32).view(np.uint32)

    runs = []
    prev = None
    chunk = 1 << 24
    for start in range(0, 1 << 32, chunk):
        bits = np.arange(start, start + chunk, dtype=np.uint64).astype(np.uint32)
        out = bits.view(np.float32).astype(f4).view(np.uint8)
        change = np.flatnonzero(out[1:] != out[:-1]) + 1
        if prev is None or out[0] != prev:
            runs.append([start, int(out[0])])
        for i in change:
            runs.append([start + int(i), int(out[i])])
        prev = out[-1]

    ints = [-2**31, -9, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 7, 8, 255, 256, 2**31 - 1]
    i32 = np.array(ints, dtype=np.int32)
    doc = {
        "ml_dtypes": ml_dtypes.__version__,
        "numpy": np.__version__,
        "float4_to_f32": [int(x) for x in to_f32],
        "float4_from_f32_runs": runs,
        "int2_to_i32": [int(x) for x in all_bytes.view(ml_dtypes.int2).astype(np.int32)],
        "uint2_to_i32": [int(x) for x in all_bytes.view(ml_dtypes.uint2).astype(np.int32)],
        "int2_from_i32": [[v, int(b)] for v, b in zip(ints, i32.astype(ml_dtypes.int2).view(np.uint8))],
        "uint2_from_i32": [[v, int(b)] for v, b in zip(ints, i32.astype(ml_dtypes.uint2).view(np.uint8))],
    }
    with open(OUT, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"ml_dtypes {ml_dtypes.__version__}: {len(runs)} runs over 2^32 f32 inputs -> {OUT}")


if __name__ == "__main__":
    main()
