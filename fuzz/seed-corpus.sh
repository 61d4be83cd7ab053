#!/usr/bin/env bash
# Writes the fuzz seed corpus, one file per unique proto of the TF 2.21
# conformance vectors (tests/data/tf-2.21-vectors.jsonl), into
# fuzz/corpus/decode/ (not committed: fuzz/.gitignore).
#
#   fuzz/seed-corpus.sh && cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run decode
set -euo pipefail
cd "$(dirname "$0")"
out=corpus/decode
mkdir -p "$out"
n=0
# Each line has "proto": "<hex>"; printf turns \xNN escapes into bytes.
while IFS= read -r hex; do
  f="$out/$(printf '%s' "$hex" | sha1sum | cut -c1-40)"
  if [ ! -e "$f" ]; then
    printf '%b' "$(printf '%s' "$hex" | sed 's/../\\x&/g')" >"$f"
    n=$((n + 1))
  fi
done < <(grep -o '"proto": "[0-9a-f]*"' ../tests/data/tf-2.21-vectors.jsonl | sed 's/.*: "\(.*\)"/\1/' | sort -u)
echo "wrote $n new seeds to fuzz/$out ($(ls "$out" | wc -l) files)"

# corpus/checkpoint/: each single-shard bundle of tests/data/checkpoints as
# `u32 LE index length | index | data`.
out=corpus/checkpoint
mkdir -p "$out"
for index in $(find ../tests/data/checkpoints -name '*.index'); do
  prefix=${index%.index}
  data=$prefix.data-00000-of-00001
  [ -e "$data" ] || continue
  f="$out/$(basename "$(dirname "$prefix")")-$(basename "$prefix")"
  python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<I", int(sys.argv[1])))' "$(stat -c %s "$index")" >"$f"
  cat "$index" "$data" >>"$f"
done
echo "checkpoint seeds: $(ls "$out" | wc -l) files in fuzz/$out"

# The tfrecord target: each TF-written fixture under tests/data/tfrecord/
# (but the 300 KiB uncompressed one), behind its compression byte
# (0 none, 1 ZLIB, 2 GZIP).
tout=corpus/tfrecord
mkdir -p "$tout"
for f in ../tests/data/tfrecord/*.tfrecord; do
  case "$f" in
    *raw.tfrecord) continue ;;
    *.zlib.tfrecord) mode='\x01' ;;
    *.gzip.tfrecord) mode='\x02' ;;
    *) mode='\x00' ;;
  esac
  { printf "$mode"; cat "$f"; } >"$tout/$(basename "$f")"
done
echo "wrote $(ls "$tout" | wc -l) tfrecord seeds to fuzz/$tout"

# The format targets start from the committed fixtures.
mkdir -p corpus/npy corpus/safetensors
cp ../tests/data/npy/*.npy ../tests/data/npy/*.npz corpus/npy/
cp ../tests/data/safetensors/*.safetensors corpus/safetensors/
echo "copied $(ls corpus/npy | wc -l) npy/npz and $(ls corpus/safetensors | wc -l) safetensors seeds"

# The saved_model target: every saved_model.pb and frozen GraphDef under
# tests/data/saved_model/.
sout=corpus/saved_model
mkdir -p "$sout"
for f in ../tests/data/saved_model/*/saved_model.pb; do
  cp "$f" "$sout/$(basename "$(dirname "$f")").pb"
done
cp ../tests/data/saved_model/*.pb "$sout/"
echo "wrote $(ls "$sout" | wc -l) saved_model seeds to fuzz/$sout"

# The hdf5 target: every HDF5 fixture under tests/data/keras/ as it is.
hout=corpus/hdf5
mkdir -p "$hout"
cp ../tests/data/keras/*.h5 "$hout"/
echo "hdf5 seeds: $(ls "$hout" | wc -l) files in fuzz/$hout"

# The events target: every TensorBoard event file under tests/data/events/
# (TF 2.21's tf.summary, TF1 summaries, a log directory with runs).
eout=corpus/events
mkdir -p "$eout"
for f in $(find ../tests/data/events -name 'events.out.tfevents.*'); do
  cp "$f" "$eout/$(printf '%s' "$f" | sha1sum | cut -c1-12)"
done
echo "events seeds: $(ls "$eout" | wc -l) files in fuzz/$eout"

# The tflite target: every small .tflite fixture under tests/data/tflite/
# (TF 2.21's converter, ai-edge-quantizer), and the .task's models.
tlout=corpus/tflite
mkdir -p "$tlout"
find ../tests/data/tflite -name '*.tflite' -size -16k -exec cp {} "$tlout"/ \;
echo "tflite seeds: $(ls "$tlout" | wc -l) files in fuzz/$tlout"
