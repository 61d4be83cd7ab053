//! Keras weight files: every fixture entry byte-for-byte against what h5py
//! read (tests/data/keras/expected.json, made by scripts/gen_keras.py), the
//! writer round trip, and the refusals.

#![cfg(feature = "keras")]

mod fixtures;
mod writer;

use std::path::PathBuf;

pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/keras")
        .join(name)
}
