#!/usr/bin/env bash
# `tftensor convert MODEL.keras OUT.safetensors` against `cp` of the same
# .keras file (issue 25: at most 1.5x), interleaved as convert_vs_cp.sh
# does: each round runs convert, convert --mmap and cp (rotating which goes
# first), each after `sync`. Prints each time, the medians, the medians of
# the per-round ratios and the load average. The .keras comes from Keras
# itself, e.g. 4 Dense(8192) layers (1 GiB):
#
#   python -c 'import keras; m = keras.Sequential([keras.Input((8192,))]
#       + [keras.layers.Dense(8192) for _ in range(4)]); m.save("model.keras")'
#   cli/benches/convert_keras_vs_cp.sh model.keras [rounds]
#
# Outputs go next to the input (put it in /dev/shm to leave the disk out)
# and are removed at the end.
set -euo pipefail
in=$(realpath "$1")
rounds=${2:-5}
cd "$(dirname "$0")/../.."
cargo build --release -q -p tftensor-cli
bin=$PWD/target/release/tftensor
dir=$(dirname "$in")
out=$dir/convert-bench.safetensors
dup=$dir/convert-bench.copy
trap 'rm -f "$out" "$dup"' EXIT

convert_cmd=("$bin" convert "$in" "$out")
mmap_cmd=("$bin" convert --mmap "$in" "$out")
cp_cmd=(cp "$in" "$dup")
now() { date +%s.%N; }
time_one() {
  sync
  local t0 t1
  t0=$(now); "$@" >/dev/null; t1=$(now)
  echo "$t1 - $t0" | bc -l
}
"${convert_cmd[@]}" >/dev/null; outsize=$(stat -c %s "$out")
"${mmap_cmd[@]}" >/dev/null; "${cp_cmd[@]}"
conv=(); mapped=(); copy=(); ratio=(); mratio=()
for ((r = 0; r < rounds; r++)); do
  c= m= p=
  for ((k = 0; k < 3; k++)); do
    rm -f "$out" "$dup"
    case $(((r + k) % 3)) in
      0) c=$(time_one "${convert_cmd[@]}") ;;
      1) m=$(time_one "${mmap_cmd[@]}") ;;
      2) p=$(time_one "${cp_cmd[@]}") ;;
    esac
  done
  conv+=("$c"); mapped+=("$m"); copy+=("$p")
  ratio+=("$(echo "$c / $p" | bc -l)"); mratio+=("$(echo "$m / $p" | bc -l)")
  printf 'round %d: convert %.3f s, convert --mmap %.3f s, cp %.3f s; ratios %.2f, %.2f; load %s\n' \
    "$r" "$c" "$m" "$p" "${ratio[-1]}" "${mratio[-1]}" "$(cut -d' ' -f1 /proc/loadavg)"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
echo "input $(stat -c %s "$in") bytes; output $outsize bytes"
printf 'median: convert %.3f s, convert --mmap %.3f s, cp %.3f s\n' \
  "$(median "${conv[@]}")" "$(median "${mapped[@]}")" "$(median "${copy[@]}")"
printf 'median ratio to cp: convert %.2f, convert --mmap %.2f (goal <= 1.5)\n' \
  "$(median "${ratio[@]}")" "$(median "${mratio[@]}")"
echo "load average: $(cat /proc/loadavg)"
