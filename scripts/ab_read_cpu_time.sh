#!/usr/bin/env bash
# Readers A/B in CPU time across two commits, for a machine too busy for wall times: builds
# examples/read_cpu_time.rs (release) at BASE (a `git archive` in a temporary folder, this
# worktree's example copied in, the same target dir) and at the working tree, writes the inputs
# once, then alternates the two builds process by process, ROUNDS times per reader, CALLS calls
# each after a warm-up call, and prints each reader's medians (CPU = user + system of every
# thread) and new/base.
#
#   scripts/ab_read_cpu_time.sh BASE [ROUNDS=6] [CALLS=5] [MIB=256]
set -euo pipefail
base=${1:?usage: ab_read_cpu_time.sh BASE [ROUNDS] [CALLS] [MIB]}
rounds=${2:-6}; calls=${3:-5}; mib=${4:-256}
top=$(git rev-parse --show-toplevel); cd "$top"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
target=${CARGO_TARGET_DIR:-$top/target}
mkdir "$work/src-base"
git archive "$base" | tar -x -C "$work/src-base"
cp examples/read_cpu_time.rs "$work/src-base/examples/"
# A base before `TensorSource::read_all` reads every entry one by one (the
# same work for every format but TFLite).
if ! grep -q "fn read_all" "$work/src-base/src/io/source.rs" 2>/dev/null; then
  sed -i 's/let all = tftensor::io::open(path)?.read_all()?;/let mut src = tftensor::io::open(path)?;\n            let all = (0..src.entries().len()).map(|i| src.read(i)).collect::<Result<Vec<Tensor>>>()?;/' \
    "$work/src-base/examples/read_cpu_time.rs"
fi
(cd "$work/src-base" && CARGO_TARGET_DIR=$target cargo build -q --release --example read_cpu_time)
cp "$target/release/examples/read_cpu_time" "$work/base"
cargo build -q --release --example read_cpu_time
cp "$target/release/examples/read_cpu_time" "$work/new"
"$work/new" write-npy "$work/a.npy" "$mib"
"$work/new" write-npz "$work/a.npz" "$mib"
"$work/new" write-safetensors "$work/a.safetensors" "$mib"
"$work/new" write-checkpoint "$work/ckpt" "$mib"
"$work/new" write-tfrecord "$work/t.tfrecord" "$mib"
"$work/new" write-keras "$work/k.weights.h5" "$mib"
"$work/new" write-events "$work/events" "$mib"
echo "load before: $(uptime)"
for spec in "io a.npy" "limit a.npy" "io a.npz" "io a.safetensors" "io ckpt" \
            "limit ckpt.data-00000-of-00001" "tfrecord t.tfrecord" "io t.tfrecord" \
            "limit t.tfrecord" "keras k.weights.h5" "limit k.weights.h5" "events-series events" \
            "events-list events" "events-reader events"; do
  set -- $spec
  for _ in $(seq "$rounds"); do
    for v in base new; do
      "$work/$v" "$1" "$work/$2" "$calls" | sed "s/^/$1:$2 $v /"
    done
  done
done > "$work/times"
echo "load after: $(uptime)"
python3 - "$work/times" <<'PY'
import sys, statistics as st, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    op, v, c, w = line.split()
    d[op][v].append((float(c), float(w)))
print("| reader | calls | base CPU | new CPU | new/base CPU | base wall | new wall | new/base wall |")
print("|---|---|---|---|---|---|---|---|")
for op, v in d.items():
    (bc, bw), (nc, nw) = [[st.median(x[i] for x in v[k]) for i in (0, 1)] for k in ("base", "new")]
    print(f"| {op} | {len(v['base'])}+{len(v['new'])} | {bc:.1f} ms | {nc:.1f} ms | {nc/bc:.3f} | {bw:.1f} ms | {nw:.1f} ms | {nw/bw:.3f} |")
PY
