#!/usr/bin/env python3
"""Remote reads against s3s-fs on 127.0.0.1: a 1 GiB safetensors file
and a 1 GiB checkpoint, each read whole from S3 by tftensor and by its
peers, in interleaved rounds, beside the limit (object_store's own
get_ranges: a plain parallel ranged download of the same bytes).

    python3 scripts/bench_remote.py [--rounds 3] [--mib 1024]

Needs `.s3s/bin/s3s-fs` (`cargo install s3s-fs --version 0.14.1 --locked
--features binary --root .s3s`); makes .venv-bench-remote with numpy,
safetensors, boto3, s3fs and obstore; builds the tftensor example
(`remote_bench`, which also writes the checkpoint from the safetensors
file) and the limit (`scripts/remote_limit`), both --release. Rows:

- limit: object_store 0.14 get_ranges, 8 MiB ranges, 16 in flight;
- tftensor blob: tftensor's Blob::read_bytes of the whole object;
- tftensor tensors: io::open + every tensor read (the format's range plan);
- boto3 + reader: download_fileobj into memory, then the format's reader;
- s3fs + reader: s3fs's cat_file, then the reader;
- obstore + reader: obstore.get(...).bytes(), then the reader.

The reader for safetensors is safetensors.numpy.load; for the checkpoint
the peers' rows time the download alone (TensorFlow is not installed
here), which favours them.
"""

import argparse
import io
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv-bench-remote")
KEY, SECRET = "benchkey", "benchsecret"


def in_venv():
    py = os.path.join(VENV, "bin", "python")
    if not os.path.exists(py):
        venv.create(VENV, with_pip=True)
        subprocess.check_call([py, "-m", "pip", "install", "-q", "numpy", "safetensors", "boto3", "s3fs", "obstore==0.12.1"])
    if os.path.realpath(sys.prefix) != os.path.realpath(VENV):
        os.execv(py, [py, *sys.argv])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cargo(*args, cwd=ROOT):
    subprocess.check_call(["cargo", *args], cwd=cwd)


def main():
    in_venv()
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mib", type=int, default=1024)
    a = ap.parse_args()

    cargo("build", "--release", "--features", "remote", "--example", "remote_bench")
    cargo("build", "--release", "--target-dir", os.path.join(ROOT, "target"), cwd=os.path.join(ROOT, "scripts", "remote_limit"))
    ours = os.path.join(ROOT, "target", "release", "examples", "remote_bench")
    limit = os.path.join(ROOT, "target", "release", "remote-limit")
    s3s = os.path.join(ROOT, ".s3s", "bin", "s3s-fs")

    import numpy as np
    import safetensors.numpy

    tmp = tempfile.mkdtemp(prefix="bench-remote-")
    try:
        data = os.path.join(tmp, "s3")
        os.makedirs(os.path.join(data, "bench"))
        port = free_port()
        server = subprocess.Popen(
            [s3s, "--host", "127.0.0.1", "--port", str(port), "--access-key", KEY, "--secret-key", SECRET, data],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            run(a, tmp, port, ours, limit, np, safetensors.numpy)
        finally:
            server.terminate()
            server.wait(10)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run(a, tmp, port, ours, limit, np, st):
    endpoint = f"http://127.0.0.1:{port}"
    env = dict(os.environ, AWS_ENDPOINT_URL=endpoint, AWS_ACCESS_KEY_ID=KEY, AWS_SECRET_ACCESS_KEY=SECRET,
               AWS_REGION="us-east-1", AWS_ALLOW_HTTP="true", AWS_EC2_METADATA_DISABLED="true")
    os.environ.update({k: env[k] for k in ["AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"]})
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    import boto3
    import obstore
    import s3fs
    from obstore.store import S3Store

    client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                          aws_access_key_id=KEY, aws_secret_access_key=SECRET)
    # The files: 16 float32 tensors of MiB/16 each; the checkpoint made from
    # the safetensors file by tftensor (as `tftensor convert`).
    n = a.mib * (1 << 20) // 4 // 16
    tensors = {f"layer{i:02d}/kernel": np.random.default_rng(i).standard_normal(n, dtype=np.float32) for i in range(16)}
    st_path = os.path.join(tmp, "model.safetensors")
    st.save_file(tensors, st_path)
    ck_dir = os.path.join(tmp, "ckpt")
    os.makedirs(ck_dir)
    subprocess.check_call([ours, "convert", st_path, os.path.join(ck_dir, "model")])
    client.upload_file(st_path, "bench", "model.safetensors")
    for name in sorted(os.listdir(ck_dir)):
        client.upload_file(os.path.join(ck_dir, name), "bench", f"ckpt/{name}")
    ck_data = [f"ckpt/{n}" for n in sorted(os.listdir(ck_dir)) if ".data-" in n]

    fs = s3fs.S3FileSystem(key=KEY, secret=SECRET, client_kwargs={"endpoint_url": endpoint, "region_name": "us-east-1"})
    ob = S3Store("bench", endpoint=endpoint, access_key_id=KEY, secret_access_key=SECRET, region="us-east-1",
                 client_options={"allow_http": True})

    def timed_cmd(cmd):
        out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout.split()
        return float(out[0])

    def timed(f):
        t = time.perf_counter()
        f()
        return time.perf_counter() - t

    def boto(key):
        b = io.BytesIO()
        client.download_fileobj("bench", key, b)
        return b.getbuffer()

    cases = {
        "safetensors": {
            "limit": lambda: timed_cmd([limit, "s3://bench/model.safetensors"]),
            "tftensor blob": lambda: timed_cmd([ours, "blob", "s3://bench/model.safetensors"]),
            "tftensor tensors": lambda: timed_cmd([ours, "tensors", "s3://bench/model.safetensors"]),
            "boto3 + reader": lambda: timed(lambda: st.load(bytes(boto("model.safetensors")))),
            "s3fs + reader": lambda: timed(lambda: st.load(fs.cat_file("bench/model.safetensors"))),
            "obstore + reader": lambda: timed(lambda: st.load(bytes(obstore.get(ob, "model.safetensors").bytes()))),
        },
        "checkpoint": {
            "limit": lambda: sum(timed_cmd([limit, f"s3://bench/{k}"]) for k in ck_data),
            "tftensor tensors": lambda: timed_cmd([ours, "tensors", "s3://bench/ckpt/model"]),
            "boto3 (download only)": lambda: timed(lambda: [boto(k) for k in ck_data]),
            "s3fs (download only)": lambda: timed(lambda: [fs.cat_file(f"bench/{k}") for k in ck_data]),
            "obstore (download only)": lambda: timed(lambda: [obstore.get(ob, k).bytes() for k in ck_data]),
        },
    }
    print(f"load {os.getloadavg()[0]:.2f} at start; {a.mib} MiB each; {a.rounds} rounds after a warm-up")
    for case, rows in cases.items():
        times = {r: [] for r in rows}
        broken = {}
        for rnd in range(a.rounds + 1):
            order = list(rows) if rnd % 2 == 0 else list(reversed(rows))
            for r in order:
                if r in broken:
                    continue
                try:
                    t = rows[r]()
                except Exception as e:  # a row this build cannot run yet
                    broken[r] = str(e).strip().splitlines()[-1][:120] if str(e).strip() else type(e).__name__
                    continue
                if rnd > 0:
                    times[r].append(t)
        lim = statistics.median(times["limit"])
        print(f"\n{case}: median of {a.rounds} (GB/s = GiB read / s)")
        for r in rows:
            if r in broken:
                print(f"  {r:26s} n/a: {broken[r]}")
                continue
            m = statistics.median(times[r])
            print(f"  {r:26s} {m:7.3f} s  {a.mib / 1024 / m:6.2f} GiB/s  {m / lim:5.2f}x the limit")
    print(f"\nload {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
