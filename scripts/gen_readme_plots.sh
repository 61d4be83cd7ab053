#!/usr/bin/env bash
# The README's pictures, from real producers: a small Keras model trained
# with Keras' TensorBoard callback (a real `tf.summary` log: train and
# validation runs, loss and weight histograms) and its `.weights.h5`, then
# drawn by `tftensor plot` into docs/.
#
#   bash scripts/gen_readme_plots.sh      # writes docs/loss.png, docs/kernel_bands.png, docs/kernel.png
#
# The venv: $TF_VENV if set (any venv with TensorFlow 2.21), else
# .venv-check-tf in the repository, created on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${TF_VENV:-.venv-check-tf}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet 'tensorflow-cpu==2.21.*' numpy tensorboard
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
TF_CPP_MIN_LOG_LEVEL=3 "$venv/bin/python" - "$work" <<'PY'
import sys
import numpy as np
import keras

out = sys.argv[1]
keras.utils.set_random_seed(7)
x = np.random.default_rng(7).normal(size=(512, 8)).astype("float32")
y = (x @ np.linspace(-1, 1, 8) + 0.1 * np.sin(3 * x[:, 0])).astype("float32")
model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(32, activation="relu", name="hidden"),
                          keras.layers.Dense(1, name="out")])
model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
model.fit(x, y, epochs=40, batch_size=64, validation_split=0.25, verbose=0,
          callbacks=[keras.callbacks.TensorBoard(f"{out}/logs", histogram_freq=1)])
model.save_weights(f"{out}/model.weights.h5")
PY
cargo build --quiet -p tftensor-cli
bin=target/debug/tftensor
"$bin" plot "$work/logs" --tag epoch_loss -o docs/loss.png
"$bin" plot "$work/logs" --tag sequential/hidden/kernel/histogram -o docs/kernel_bands.png
"$bin" plot "$work/model.weights.h5" layers/dense/vars/0 -o docs/kernel.png --bins 40
ls -l docs/*.png
