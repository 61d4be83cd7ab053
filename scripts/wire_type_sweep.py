#!/usr/bin/env python3
"""What TF 2.21's C++ protobuf parser makes of a TensorProto field sent with
each wire type: every TensorProto field number (1-18, plus unknown 19 and
1000) x wire types 0-7, appended to float [1, 2]; plus wrong wire types
inside the nested TensorShapeProto and its Dim. Each input is parsed with
tf.io.parse_tensor (out_type float32) and the outcome recorded.

Writes tests/data/proto/wire_types.json: [{"hex", "field", "wire",
"ok", "data" (tensor bytes, hex), "shape"}], "error" when TF refuses.

Run with a Python that has TensorFlow 2.21:  python scripts/wire_type_sweep.py
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "proto", "wire_types.json")
# dtype: DT_FLOAT, tensor_shape { dim { size: 2 } }, float_val: [1, 2]
BASE = bytes.fromhex("08011204120208022a080000803f00000040")


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(num, wire):
    key = varint(num << 3 | wire)
    if wire == 0:
        return key + b"\x01"
    if wire == 1:
        return key + bytes(8)
    if wire == 2:
        return key + b"\x00"
    if wire == 3:
        return key + varint(num << 3 | 4)
    if wire == 4:
        return key
    if wire == 5:
        return key + bytes(4)
    return key + b"\x01"


def shape_with(extra_dim_field=b"", extra_shape_field=b""):
    dim = b"\x08\x02" + extra_dim_field
    shape = b"\x12" + varint(len(dim)) + dim + extra_shape_field
    return b"\x08\x01\x12" + varint(len(shape)) + shape + b"\x2a\x08" + bytes.fromhex("0000803f00000040")


def parse(wire):
    try:
        t = tf.io.parse_tensor(wire, tf.float32)
        return {"ok": True, "data": t.numpy().tobytes().hex(), "shape": list(t.shape)}
    except Exception as e:  # noqa: BLE001
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        return {"ok": False, "error": msg}


def main():
    cases = []
    for num in list(range(1, 20)) + [1000]:
        for wire in range(8):
            w = BASE + field(num, wire)
            cases.append({"where": "TensorProto", "field": num, "wire": wire, "hex": w.hex(), **parse(w)})
    for num in (1, 2, 3):
        for wire in range(8):
            w = shape_with(extra_dim_field=field(num, wire))
            cases.append({"where": "Dim", "field": num, "wire": wire, "hex": w.hex(), **parse(w)})
            w = shape_with(extra_shape_field=field(num, wire))
            cases.append({"where": "TensorShapeProto", "field": num, "wire": wire, "hex": w.hex(), **parse(w)})
    # The example, and a wrong-typed field first.
    for h in ("08011204120208022a080000803f000000407807", "780708011204120208022a080000803f00000040"):
        cases.append({"where": "example", "field": 15, "wire": 0, "hex": h, **parse(bytes.fromhex(h))})
    with open(OUT, "w") as f:
        json.dump({"tensorflow": tf.__version__, "cases": cases}, f, indent=0)
        f.write("\n")
    ok = sum(c["ok"] for c in cases)
    print(f"TF {tf.__version__}: {len(cases)} inputs, {ok} parsed, {len(cases) - ok} refused -> {OUT}")


if __name__ == "__main__":
    main()
