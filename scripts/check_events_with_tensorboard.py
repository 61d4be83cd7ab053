#!/usr/bin/env python3
"""The other direction of the event-file fixtures: the crate writes a log
(examples/write_events.rs, which also writes manifest.json listing every
value), and TensorBoard 2.21 reads it with both of its readers:

* the Python EventMultiplexer (plugin_event_multiplexer, what
  `tensorboard --load_fast=false` serves), every tensor kept;
* RustBoard, the `tensorboard-data-server` binary behind
  `tensorboard --load_fast=true`, through TensorBoard's own gRPC data
  provider: scalars, histogram and text tensors, and image blobs.

Each must list exactly the runs and tags written, and give back every
value bit for bit; and `tensorboard --inspect` must list every tag. Exits
non-zero on any mismatch.

    .venv-check-tf/bin/python scripts/check_events_with_tensorboard.py [DIR]

Without DIR it runs `cargo run --example write_events` into a temp dir.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from tensorboard import context
from tensorboard.backend.event_processing import plugin_event_multiplexer as pem
from tensorboard.util import tensor_util

failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print("MISMATCH:", what)


def expected_array(e):
    if e["dtype"] == "float":
        return np.array([np.float32(float(v)) for v in e["values"]], np.float32).reshape(e["shape"])
    if e["dtype"] == "double":
        return np.array([float(v) for v in e["values"]], np.float64).reshape(e["shape"])
    return np.array([bytes.fromhex(v) for v in e["values"]], object).reshape(e["shape"])


def same(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and (a == b).all()


def check_accumulator(logdir, manifest):
    mux = pem.EventMultiplexer(size_guidance={"tensors": 0})
    mux.AddRunsFromDirectory(logdir)
    mux.Reload()
    runs = mux.Runs()
    want_tags = {(e["run"], e["tag"]) for e in manifest}
    got_tags = {(r, t) for r, tags in runs.items() for t in tags["tensors"]}
    check(got_tags == want_tags, f"EventAccumulator tags {sorted(got_tags)} vs {sorted(want_tags)}")
    n = 0
    for e in manifest:
        events = [x for x in mux.Tensors(e["run"], e["tag"]) if x.step == e["step"]]
        check(len(events) == 1, f"EventAccumulator {e['run']}/{e['tag']} step {e['step']}: {len(events)} events")
        if events:
            got = tensor_util.make_ndarray(events[0].tensor_proto)
            want = expected_array(e)
            check(same(got, want), f"EventAccumulator {e['run']}/{e['tag']} step {e['step']}: {got!r} vs {want!r}")
            n += 1
        md = mux.SummaryMetadata(e["run"], e["tag"])
        plugin = {"loss": "scalars", "lr": "scalars", "weights": "histograms", "note": "text", "img": "images"}[e["tag"]]
        check(md.plugin_data.plugin_name == plugin, f"plugin of {e['tag']}: {md.plugin_data.plugin_name}")
    print(f"EventAccumulator: {len(runs)} runs, {len(got_tags)} tags, {n}/{len(manifest)} values equal")


def check_rustboard(logdir, manifest):
    try:
        from tensorboard.data import server_ingester
        from tensorboard.util import grpc_util

        binary = server_ingester.get_server_binary()
    except Exception as e:  # noqa: BLE001 - any reason the server is missing
        print(f"RustBoard: not available ({e}); skipped")
        return
    ingester = server_ingester.SubprocessServerDataIngester(
        server_binary=binary,
        logdir=logdir,
        reload_interval=0,
        channel_creds_type=grpc_util.ChannelCredsType.LOCAL,
        samples_per_plugin={"scalars": 0, "histograms": 0, "images": 0},
    )
    ingester.start()
    provider = ingester.data_provider
    ctx = context.RequestContext()
    by = lambda tags: {(e["run"], e["tag"], e["step"]): e for e in manifest if e["tag"] in tags}  # noqa: E731
    want_scalars = by({"loss", "lr"})
    # The server loads in the background: wait for every scalar.
    deadline = time.time() + 60
    while True:
        scalars = provider.read_scalars(ctx, experiment_id="", plugin_name="scalars", downsample=10**6)
        count = sum(len(d) for tags in scalars.values() for d in tags.values())
        if count >= len(want_scalars) or time.time() > deadline:
            break
        time.sleep(0.5)
    n = 0
    got_scalars = {(r, t, d.step): d.value for r, tags in scalars.items() for t, data in tags.items() for d in data}
    check(set(got_scalars) == set(want_scalars), f"RustBoard scalars {sorted(got_scalars)}")
    for k, e in want_scalars.items():
        if k in got_scalars:
            ok = np.float32(got_scalars[k]) == expected_array(e).item()
            check(ok, f"RustBoard scalar {k}: {got_scalars[k]} vs {e['values']}")
            n += ok
    n_tensors = 0
    for plugin, tag, dtype in (("histograms", "weights", np.float64), ("text", "note", object)):
        got_t = provider.read_tensors(ctx, experiment_id="", plugin_name=plugin, downsample=10**6)
        want_t = by({tag})
        got_t = {(r, t, d.step): d.numpy for r, tags in got_t.items() for t, data in tags.items() for d in data}
        check(set(got_t) == set(want_t), f"RustBoard {plugin} {sorted(got_t)}")
        n_tensors += len(want_t)
        for k, e in want_t.items():
            if k in got_t:
                ok = same(np.asarray(got_t[k], dtype), expected_array(e))
                check(ok, f"RustBoard {plugin} {k}: {got_t[k]!r}")
                n += ok
    blobs = provider.read_blob_sequences(ctx, experiment_id="", plugin_name="images", downsample=10**6)
    want_img = by({"img"})
    got_img = {(r, t, d.step): d.values for r, tags in blobs.items() for t, data in tags.items() for d in data}
    check(set(got_img) == set(want_img), f"RustBoard images {sorted(got_img)}")
    for k, e in want_img.items():
        if k in got_img:
            got = [provider.read_blob(ctx, blob_key=ref.blob_key) for ref in got_img[k]]
            ok = got == list(expected_array(e))
            check(ok, f"RustBoard image {k}")
            n += ok
    runs = sorted(r.run_name for r in provider.list_runs(ctx, experiment_id=""))
    print(f"RustBoard (tensorboard-data-server {binary._version}): runs {runs}, "
          f"{n}/{len(want_scalars) + n_tensors + len(want_img)} scalar/histogram/text/image values equal")


def check_inspect(logdir, manifest):
    """`tensorboard --inspect` (the legacy accumulator, no migration) lists
    every tag of every run under `tensor`, as it does for tf.summary logs."""
    exe = os.path.join(os.path.dirname(sys.executable), "tensorboard")
    out = subprocess.run([exe, "--inspect", "--logdir", logdir], capture_output=True, text=True).stdout
    runs = {}
    for block in out.split("These tags are in ")[1:]:
        head, _, body = block.partition(":\n")
        tags = body.split("tensor\n", 1)[1].split("=" * 10)[0].split()
        runs[os.path.relpath(head.strip(), logdir)] = set(tags)
    want = {}
    for e in manifest:
        want.setdefault(e["run"], set()).add(e["tag"])
    check(runs == want, f"tensorboard --inspect: {runs} vs {want}")
    print(f"tensorboard --inspect: {sum(len(t) for t in runs.values())} tags in runs {sorted(runs)}")


def main():
    if len(sys.argv) > 1:
        logdir = sys.argv[1]
    else:
        logdir = tempfile.mkdtemp(prefix="tftensor-events-check-")
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
        subprocess.run(["cargo", "run", "-q", "--example", "write_events", "--", logdir], cwd=root, check=True)
    manifest = json.load(open(os.path.join(logdir, "manifest.json")))
    import tensorboard

    print(f"tensorboard {tensorboard.__version__}; {len(manifest)} values written to {logdir}")
    check_inspect(logdir, manifest)
    check_accumulator(logdir, manifest)
    check_rustboard(logdir, manifest)
    print("OK" if failures == 0 else f"{failures} MISMATCHES")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
