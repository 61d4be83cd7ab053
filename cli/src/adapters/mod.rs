//! One adapter per file format: each opens a [`Source`] and creates a
//! [`Sink`] on top of the `tftensor` crate's reader and writer for it.

pub mod checkpoint;
pub mod npy;
pub mod safetensors;
pub mod tensorproto;
pub mod tfrecord;

use anyhow::Result;

use crate::format::{Format, Located};
use crate::sink::Sink;
use crate::source::{ReadOptions, Source};

/// Opens the input `at`.
pub fn open(at: &Located, options: &ReadOptions) -> Result<Box<dyn Source>> {
    let path = at.path.as_path();
    Ok(match at.format {
        Format::Checkpoint => Box::new(checkpoint::Checkpoint::open(path, options.mmap)?),
        Format::Tensorproto => Box::new(tensorproto::ProtoFile::open(path)?),
        Format::TensorprotoDir => Box::new(tensorproto::ProtoDir::open(path)?),
        Format::Tfrecord => Box::new(tfrecord::open(path, at.compression)?),
        Format::Npy => Box::new(npy::Npy::open(path, options.npy_dtype)?),
        Format::Npz => Box::new(npy::Npz::open(path, options.npy_dtype)?),
        Format::Safetensors => Box::new(safetensors::open(path, options.mmap)?),
    })
}

/// Starts the output `at`.
pub fn create(at: &Located) -> Result<Box<dyn Sink>> {
    let path = at.path.as_path();
    Ok(match at.format {
        Format::Checkpoint => Box::new(checkpoint::CheckpointSink::create(path)?),
        Format::Tensorproto => Box::new(tensorproto::ProtoFileSink::create(path)?),
        Format::TensorprotoDir => Box::new(tensorproto::ProtoDirSink::create(path)?),
        Format::Tfrecord => Box::new(tfrecord::RecordsSink::create(path, at.compression)?),
        Format::Npy => Box::new(npy::NpySink::create(path)?),
        Format::Npz => Box::new(npy::NpzSink::create(path)?),
        Format::Safetensors => Box::new(safetensors::SafetensorsSink::create(path)?),
    })
}
