//! Writes a Keras 3 `.weights.h5` (or, with `--config`, a `.keras`) from
//! `.npy` files, for scripts/check_keras_reads_ours.py to load with h5py
//! and Keras:
//!
//! ```sh
//! cargo run --example keras_write -- out.weights.h5 layers/dense/vars/0=k.npy ...
//! cargo run --example keras_write -- --config config.json out.keras layers/dense/vars/0=k.npy ...
//! ```
//!
//! A name ending `:bf16` reads its `.npy` (ml_dtypes' `|V2`) as bfloat16;
//! a bare name ending `/` adds an empty group.

use tftensor::keras::WeightsWriter;
use tftensor::npy::{read_npy, read_npy_as};
use tftensor::{DataType, Error, Result};

fn main() -> Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let config = if args.first().map(String::as_str) == Some("--config") {
        let path = args
            .get(1)
            .cloned()
            .ok_or_else(|| Error::InvalidArgument("--config needs a file".into()))?;
        args.drain(..2);
        Some(std::fs::read_to_string(&path).map_err(|e| Error::io(&path, &e))?)
    } else {
        None
    };
    let (out, specs) = args.split_first().ok_or_else(|| {
        Error::InvalidArgument("usage: keras_write [--config c.json] OUT NAME=FILE.npy ...".into())
    })?;
    let mut w = match &config {
        Some(c) => WeightsWriter::create_keras(out, c)?,
        None => WeightsWriter::create(out)?,
    };
    for spec in specs {
        if let Some(group) = spec.strip_suffix('/') {
            w.add_group(group)?;
            continue;
        }
        let (name, file) = spec
            .split_once('=')
            .ok_or_else(|| Error::InvalidArgument(format!("{spec}: expected NAME=FILE.npy")))?;
        let t = match name.strip_suffix(":bf16") {
            Some(n) => (n, read_npy_as(file, DataType::BFloat16)?),
            None => (name, read_npy(file)?),
        };
        w.add(t.0, &t.1)?;
    }
    w.finish()?;
    println!(
        "wrote {out} ({} tensors)",
        specs.iter().filter(|s| !s.ends_with('/')).count()
    );
    Ok(())
}
