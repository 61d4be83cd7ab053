#!/usr/bin/env bash
# Converting a float32 checkpoint to safetensors with `tftensor convert`
# (reading the checkpoint, and with --mmap mapping it) against `cp` of the
# checkpoint's data file (the same bytes), interleaved: each round runs the
# three (rotating which goes first), each after `sync` so no earlier write
# is still being flushed. Prints each time, the medians and the medians of
# the per-round ratios.
#
#   cli/benches/convert_vs_cp.sh            # 1 GiB (64 tensors of 16 MiB), 5 rounds
#   TFTENSOR_BENCH_SHORT=1 cli/benches/convert_vs_cp.sh   # 128 MiB, 3 rounds
#   ROUNDS=11 GIB=2 cli/benches/convert_vs_cp.sh
#
# Needs only bash, python3 (standard library) and cargo. If hyperfine is
# installed, it also runs both commands through it (not interleaved).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ -n "${TFTENSOR_BENCH_SHORT:-}" ]; then
  tensors=${TENSORS:-8}; rounds=${ROUNDS:-3}
else
  tensors=${TENSORS:-$((64 * ${GIB:-1}))}; rounds=${ROUNDS:-5}
fi
work=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/tftensor-convert-bench.XXXXXX")}
trap 'rm -rf "$work"' EXIT

cargo build --release -q -p tftensor-cli
bin=$PWD/target/release/tftensor

# $tensors float32 tensors of 16 MiB (4 Mi elements) as TensorProto files,
# then one checkpoint bundle of them.
python3 - "$work/src" "$tensors" <<'PY'
import os, struct, sys
out, n = sys.argv[1], int(sys.argv[2])
os.makedirs(out)
count = 4 * 1024 * 1024
def varint(v):
    b = bytearray()
    while True:
        byte = v & 0x7F; v >>= 7
        b.append(byte | (0x80 if v else 0))
        if not v: return bytes(b)
dim = b"\x08" + varint(count)                          # Dim.size
shape = b"\x12" + varint(len(dim)) + dim               # TensorShapeProto.dim
for i in range(n):
    data = struct.pack("<f", float(i)) * count        # tensor_content
    proto = b"\x08\x01" + b"\x12" + varint(len(shape)) + shape + b"\x22" + varint(len(data)) + data
    with open(os.path.join(out, f"layer{i:03d}.pb"), "wb") as f:
        f.write(proto)
PY
"$bin" convert "$work/src" "$work/ckpt/model" --to checkpoint
rm -rf "$work/src"
data_file=$work/ckpt/model.data-00000-of-00001
echo "checkpoint: $tensors float32 tensors, $(stat -c %s "$data_file") bytes of data"

convert_cmd=("$bin" convert "$work/ckpt/model" "$work/out.safetensors")
mmap_cmd=("$bin" convert --mmap "$work/ckpt/model" "$work/out.safetensors")
cp_cmd=(cp "$data_file" "$work/out.copy")

now() { date +%s.%N; }
time_one() { # prints seconds taken by "$@"
  sync
  local t0 t1
  t0=$(now); "$@"; t1=$(now)
  echo "$t1 - $t0" | bc -l
}

# One warm-up of each (page cache, binary).
"${convert_cmd[@]}"; "${mmap_cmd[@]}"; "${cp_cmd[@]}"
conv=(); mapped=(); copy=(); ratio=(); mratio=()
for ((r = 0; r < rounds; r++)); do
  c= m= p=
  for ((k = 0; k < 3; k++)); do
    rm -f "$work/out.safetensors" "$work/out.copy"
    case $(((r + k) % 3)) in
      0) c=$(time_one "${convert_cmd[@]}") ;;
      1) m=$(time_one "${mmap_cmd[@]}") ;;
      2) p=$(time_one "${cp_cmd[@]}") ;;
    esac
  done
  conv+=("$c"); mapped+=("$m"); copy+=("$p")
  ratio+=("$(echo "$c / $p" | bc -l)"); mratio+=("$(echo "$m / $p" | bc -l)")
  printf 'round %d: convert %.3f s, convert --mmap %.3f s, cp %.3f s; ratios %.2f, %.2f\n' \
    "$r" "$c" "$m" "$p" "${ratio[-1]}" "${mratio[-1]}"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
printf 'median: convert %.3f s, convert --mmap %.3f s, cp %.3f s\n' \
  "$(median "${conv[@]}")" "$(median "${mapped[@]}")" "$(median "${copy[@]}")"
printf 'median ratio to cp: convert %.2f, convert --mmap %.2f (goal <= 1.5)\n' \
  "$(median "${ratio[@]}")" "$(median "${mratio[@]}")"
# The last round may end with cp (its rm took the output): convert again.
"${convert_cmd[@]}"
cmp <(tail -c 1024 "$work/out.safetensors") <(tail -c 1024 "$data_file") >/dev/null \
  && echo "check: the last tensor's bytes match" || { echo "check FAILED: output differs"; exit 1; }

if command -v hyperfine >/dev/null; then
  hyperfine --warmup 1 --runs "$rounds" --prepare 'sync' \
    "${convert_cmd[*]}" "${mmap_cmd[*]}" "${cp_cmd[*]}"
fi
