//! Reads one object of an S3 bucket whole, timed, for BENCHMARKS.md's
//! remote rows (`scripts/bench_remote.py` runs it against s3s-fs on
//! 127.0.0.1). The store is configured by the environment (`AWS_*`).
//!
//!     cargo run --release --features remote --example remote_bench -- blob s3://bench/model.safetensors
//!     cargo run --release --features remote --example remote_bench -- tensors s3://bench/model.safetensors
//!
//! - `blob`: tftensor's `Blob::read_bytes` of the whole object (the path
//!   every format's large reads take);
//! - `tensors`: `io::open` and every tensor read (the format's range plan).
//!
//! Prints `seconds bytes` on one line. `convert IN OUT` writes the
//! bench's files (`io::copy`, as `tftensor convert`).

use std::time::Instant;

use tftensor::io::{self, CreateOptions, Format};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [mode, from, to] = args.as_slice() {
        if mode == "convert" {
            let mut src = io::open(from)?;
            io::copy(src.as_mut(), io::create(to)?, io::CopyOptions::default())?;
            return Ok(());
        }
    }
    let [mode, url] = args.as_slice() else {
        return Err("usage: remote_bench blob|tensors s3://bucket/key, or convert IN OUT".into());
    };
    let start = Instant::now();
    let bytes = match mode.as_str() {
        "blob" => {
            let as_npy = CreateOptions::default().with_format(Format::NPY);
            let at = io::locate_output(url, &as_npy)?;
            let blob = at.store.open(&at.key)?;
            blob.read_bytes(0..blob.len())?.len() as u64
        }
        "tensors" => {
            let mut src = io::open(url)?;
            let mut n = 0u64;
            for i in 0..src.entries().len() {
                n += src.read(i)?.tensor_data()?.len() as u64;
            }
            n
        }
        _ => return Err("mode: blob or tensors".into()),
    };
    println!("{:.4} {bytes}", start.elapsed().as_secs_f64());
    Ok(())
}
