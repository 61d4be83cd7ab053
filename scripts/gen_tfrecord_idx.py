#!/usr/bin/env python3
"""The TFRecord index fixtures, made by PyPI's `tfrecord` package (its
`tfrecord2idx` writes DALI's `.idx` format: one `offset length` line per
record, the length counting the 16 framing bytes), and a check of
tftensor's index and random access against it.

    python3 scripts/gen_tfrecord_idx.py            # fixtures + check
    python3 scripts/gen_tfrecord_idx.py --check    # the check only

Makes its own venv (.venv-tfrecord-idx/) with `tfrecord` and `numpy`. The
fixtures (tests/data/tfrecord/idx/): records.tfrecord, written by
`tfrecord.TFRecordWriter` with records of lengths 0, 1, 7, 300 and 70,000
bytes and a few Examples; records.idx, by `tfrecord2idx`. The check also
builds the CLI (`cargo run -p tftensor-cli -- index`) on a larger file of
2,000 records and compares the two `.idx` files byte for byte, and reads
records at random through the Python module when it is importable.
"""

import os
import random
import subprocess
import sys
import tempfile
import venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv-tfrecord-idx")
OUT = os.path.join(ROOT, "tests", "data", "tfrecord", "idx")


def in_venv():
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        venv.create(VENV, with_pip=True)
        subprocess.check_call([py, "-m", "pip", "install", "-q", "tfrecord==1.14.6", "numpy", "protobuf"])
    if os.path.realpath(sys.prefix) != os.path.realpath(VENV):
        os.execv(py, [py, *sys.argv])


def write(path, records):
    import tfrecord

    w = tfrecord.TFRecordWriter(path)
    for r in records:
        if isinstance(r, dict):
            w.write(r)
        else:
            w.file.write(frame(r))
    w.close()


def frame(data):
    """A raw record framed as the writer frames its Examples (its own
    length and masked CRCs)."""
    import struct

    from tfrecord.writer import TFRecordWriter

    length = struct.pack("<Q", len(data))
    return length + TFRecordWriter.masked_crc(length) + data + TFRecordWriter.masked_crc(data)


def tfrecord2idx(src, dst):
    subprocess.check_call([sys.executable, "-m", "tfrecord.tools.tfrecord2idx", src, dst])


def cli_index(src, dst):
    subprocess.check_call(
        ["cargo", "run", "-q", "-p", "tftensor-cli", "--", "index", src, "-o", dst], cwd=ROOT
    )


def main():
    in_venv()
    rng = random.Random(38)
    if "--check" not in sys.argv:
        os.makedirs(OUT, exist_ok=True)
        records = [b"", b"x", b"seven!!", bytes(rng.randrange(256) for _ in range(300)), bytes(70_000)]
        examples = [
            {"label": (i, "int"), "name": (b"ex%d" % i, "byte"), "x": ([0.5 * i, 1.5], "float")} for i in range(3)
        ]
        path = os.path.join(OUT, "records.tfrecord")
        write(path, records + examples)
        tfrecord2idx(path, os.path.join(OUT, "records.idx"))
        print("wrote", path, "and its .idx")
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "big.tfrecord")
        write(big, [bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 10, 1000, 20000]))) for _ in range(2000)])
        theirs, ours = os.path.join(tmp, "theirs.idx"), os.path.join(tmp, "ours.idx")
        tfrecord2idx(big, theirs)
        cli_index(big, ours)
        a, b = open(theirs, "rb").read(), open(ours, "rb").read()
        assert a == b, "the .idx files differ"
        lines = a.count(b"\n")
        print(f"tfrecord2idx and tftensor index agree on {lines} records")
        try:
            import tftensor
        except ImportError:
            print("tftensor's Python module is not in this venv: random access not checked here")
            return
        import tfrecord

        f = tftensor.RecordFile(big, index=ours)
        want = list(tfrecord.reader.tfrecord_iterator(big))
        for i in rng.sample(range(len(f)), 200):
            assert f[i] == bytes(want[i]), i
        print("random access agrees with tfrecord's reader")


if __name__ == "__main__":
    main()
