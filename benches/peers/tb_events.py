#!/usr/bin/env python3
"""TensorBoard as a peer for the events suite: times TensorBoard 2.21's
Python reader (EventMultiplexer / plugin EventAccumulator, with
data_compat and dataclass_compat, every tensor kept) loading a log
directory, the same one `benches/events.rs` reads when run with
TFTENSOR_EVENTS_BENCH_DIR=DIR.

Not run by CI. With the project's TF venv:

    TFTENSOR_EVENTS_BENCH_DIR=target/evbench TFTENSOR_BENCH_SHORT=1 cargo bench -p tftensor-benches --bench events
    .venv-check-tf/bin/python benches/peers/tb_events.py target/evbench [--repeats 3]

Each figure is one full Reload() of a fresh multiplexer; the best of
`--repeats` is reported (the file is in the page cache after the first).
"""

import argparse
import os
import time

from tensorboard.backend.event_processing import plugin_event_multiplexer as pem


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("logdir")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    size = sum(
        os.path.getsize(os.path.join(r, n)) for r, _, ns in os.walk(args.logdir) for n in ns if "tfevents" in n
    )
    best = None
    for _ in range(args.repeats):
        t = time.perf_counter()
        mux = pem.EventMultiplexer(size_guidance={"tensors": 0})
        mux.AddRunsFromDirectory(args.logdir)
        mux.Reload()
        elapsed = time.perf_counter() - t
        best = elapsed if best is None else min(best, elapsed)
        values = sum(len(mux.Tensors(run, tag)) for run, tags in mux.Runs().items() for tag in tags["tensors"])
    print(
        f"EventAccumulator: {size / 2**20:.1f} MiB, {values} values in {best:.2f} s: "
        f"{size / best / 2**20:.1f} MiB/s, {values / best / 1e3:.0f}k values/s "
        f"(load average {os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    main()
