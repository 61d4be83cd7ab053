//! TensorFlow checkpoints (tensor bundles) as a source and a sink.

use std::ops::Range;
use std::path::Path;

use crate::checkpoint::{BundleReader, BundleWriter, TensorSlice};
use crate::error::Result;
use crate::io::format::Format;
use crate::io::sink::{WriteEntry, Written};
use crate::io::source::{Entry, Listed, ReadEntry};
use crate::tensor::Tensor;

/// Reads a checkpoint's tensors by key; a slice reads only the stored
/// slices that overlap it.
impl ReadEntry for BundleReader {
    fn read_entry(
        &mut self,
        _index: usize,
        entry: &Entry,
        _on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        self.get(&entry.name)
    }

    fn read_entry_slice(
        &mut self,
        _index: usize,
        entry: &Entry,
        ranges: &[Range<u64>],
    ) -> Result<Tensor> {
        // `ranges` fit the entry's shape, whose dims fit i64.
        let as_i64 = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        let extents: Vec<(i64, Option<i64>)> = ranges
            .iter()
            .map(|r| (as_i64(r.start), Some(as_i64(r.end - r.start))))
            .collect();
        self.get_slice(&entry.name, &TensorSlice::new(&extents)?)
    }
}

/// Opens the bundle at `prefix` and lists its full tensors from the index,
/// in TF's key order (partitioned variables assembled; slice entries not
/// listed, as `tf.train.list_variables`).
pub(crate) fn open(prefix: &Path, mmap: bool) -> Result<Listed<BundleReader>> {
    let shown = prefix.display();
    let reader = if mmap {
        // SAFETY: `OpenOptions::with_mmap` (an unsafe fn) is the caller's
        // promise that the files are not changed while mapped.
        unsafe { BundleReader::open_mmap(prefix) }
    } else {
        BundleReader::open(prefix)
    }
    .map_err(|e| e.with_path(&shown))?;
    let entries = reader
        .keys()
        .map(|key| {
            let (dtype, shape) = reader
                .dtype_and_shape(key)
                .map_err(|e| e.with_path(&shown).with_key(key))?;
            Ok(Entry::new(key, dtype, shape))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Listed {
        format: Format::Checkpoint,
        path: prefix.to_path_buf(),
        entries,
        reader,
    })
}

/// `BundleWriter` writes the data under a temporary name and the `.index`
/// last, so the checkpoint exists under its prefix only once complete.
impl WriteEntry for BundleWriter {
    fn write_entry(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        self.add(name, tensor)
    }

    fn finish_all(self) -> Result<()> {
        self.finish()
    }
}

/// Starts a bundle at `prefix`.
pub(crate) fn create(prefix: &Path) -> Result<Written<BundleWriter>> {
    Ok(Written {
        format: Format::Checkpoint,
        path: prefix.to_path_buf(),
        writer: BundleWriter::new(prefix)?,
    })
}
