#!/usr/bin/env python3
"""Writes tests/data/float8/ml_dtypes.json: the float8 reference tables that
tests/dtype/float8.rs checks tftensor's conversions against.

  to_f32[T]      every byte 0..=255 viewed as T and widened to float32, as
                 float32 bit patterns (NaN sign and payload included).
  from_f32[T]    the inputs in `from_f32_inputs` (float32 bit patterns)
                 narrowed to T, one byte each, in hex.

The inputs were chosen once and are kept: every finite value of each type,
every midpoint between neighbours (and the float32 values just below and above
it), the midpoint above the largest finite value, subnormal boundaries, +-0,
+-inf, NaNs with various signs and payloads, random bit patterns and random
values in range. Only the outputs are recomputed.

Usage (in an environment with ml_dtypes and numpy):
  python scripts/float8_reference.py          # rewrite the outputs
  python scripts/float8_reference.py --check  # exit 1 if the file differs
"""
import json
import pathlib
import sys

import ml_dtypes
import numpy as np

PATH = pathlib.Path(__file__).resolve().parent.parent / "tests/data/float8/ml_dtypes.json"
TYPES = ["float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz"]


def tables(inputs):
    x = np.array(inputs, dtype=np.uint32).view(np.float32)
    out = {"generator": f"ml_dtypes {ml_dtypes.__version__}, numpy {np.__version__}",
           "to_f32": {}, "from_f32_inputs": inputs, "from_f32": {}}
    with np.errstate(all="ignore"):
        for name in TYPES:
            t = getattr(ml_dtypes, name)
            widened = np.arange(256, dtype=np.uint8).view(t).astype(np.float32).view(np.uint32)
            out["to_f32"][name] = [int(v) for v in widened]
            out["from_f32"][name] = x.astype(t).view(np.uint8).tobytes().hex()
    return out


def dump(obj):
    # One table per line keeps diffs readable.
    lines = ["{", f'  "generator": {json.dumps(obj["generator"])},', '  "to_f32": {']
    lines += [f'    {json.dumps(n)}: {json.dumps(obj["to_f32"][n])}{"," if i < len(TYPES) - 1 else ""}'
              for i, n in enumerate(TYPES)]
    lines += ["  },", f'  "from_f32_inputs": {json.dumps(obj["from_f32_inputs"])},', '  "from_f32": {']
    lines += [f'    {json.dumps(n)}: {json.dumps(obj["from_f32"][n])}{"," if i < len(TYPES) - 1 else ""}'
              for i, n in enumerate(TYPES)]
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


def main():
    old = json.loads(PATH.read_text())
    new = dump(tables(old["from_f32_inputs"]))
    if "--check" in sys.argv:
        same = json.loads(new) == {**old, "generator": json.loads(new)["generator"]}
        print("float8 tables match ml_dtypes" if same else "float8 tables DIFFER from ml_dtypes")
        sys.exit(0 if same else 1)
    PATH.write_text(new)
    print(f"wrote {PATH.name}: {len(old['from_f32_inputs'])} inputs x {len(TYPES)} types")


if __name__ == "__main__":
    main()
