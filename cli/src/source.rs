//! Reading: every format is a [`Source`], a list of named tensors with
//! dtype and shape, read one at a time.

use std::path::Path;

use anyhow::Result;
use tftensor::{DataType, Tensor, TensorShape};

use crate::adapters;
use crate::error::at;
use crate::format::{locate_input, Format, Located};

/// One tensor of a source, known without reading its data.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The tensor's name (checkpoint key, archive member, file name ...).
    pub name: String,
    /// Its dtype.
    pub dtype: DataType,
    /// Its shape.
    pub shape: TensorShape,
}

impl Entry {
    /// The size of the elements in bytes when it follows from dtype and
    /// shape alone (every dtype but string, resource and variant).
    pub fn pod_bytes(&self) -> Option<u64> {
        let n = u64::try_from(self.shape.num_elements()).ok()?;
        if self.dtype.can_use_memcpy() {
            n.checked_mul(self.dtype.size() as u64)
        } else {
            None
        }
    }
}

/// A file (or directory, or checkpoint) of named tensors.
pub trait Source {
    /// Every tensor, in the file's order.
    fn entries(&self) -> &[Entry];
    /// Reads tensor `index` of [`Source::entries`]. Errors name the file
    /// and the tensor.
    fn read(&mut self, index: usize) -> Result<Tensor>;
}

/// A source read whole into memory: named tensors, handed out by clone
/// (which shares their buffers).
pub struct InMemory {
    entries: Vec<Entry>,
    tensors: Vec<Tensor>,
}

impl InMemory {
    /// The tensors in order, with their names.
    pub fn new(named: impl IntoIterator<Item = (String, Tensor)>) -> InMemory {
        let (entries, tensors) = named
            .into_iter()
            .map(|(name, t)| {
                let entry = Entry {
                    name,
                    dtype: t.dtype(),
                    shape: t.shape().clone(),
                };
                (entry, t)
            })
            .unzip();
        InMemory { entries, tensors }
    }
}

impl Source for InMemory {
    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, index: usize) -> Result<Tensor> {
        match self.tensors.get(index) {
            Some(t) => Ok(t.clone()),
            None => anyhow::bail!("no tensor number {index}"),
        }
    }
}

/// An opened input.
pub struct Opened {
    /// Where it is and what format it has.
    pub located: Located,
    /// Its tensors.
    pub source: Box<dyn Source>,
}

/// How to read inputs: options every reading subcommand takes.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ReadOptions {
    /// The dtype of NumPy arrays stored as opaque bytes (`V1`/`V2`, how
    /// NumPy saves ml_dtypes' bfloat16, float8 and int4), e.g. bfloat16.
    #[arg(long, value_name = "DTYPE")]
    pub npy_dtype: Option<DataType>,
    /// Memory-map checkpoint and safetensors inputs instead of reading
    /// them: aligned tensors are then used in place, without a copy. The
    /// files must not be changed by anything while tftensor runs.
    #[arg(long)]
    pub mmap: bool,
}

/// Opens `path` as `format`, or as the format detected from it.
pub fn open(path: &Path, format: Option<Format>, options: &ReadOptions) -> Result<Opened> {
    let located = locate_input(path, format)?;
    let source = adapters::open(&located, options)?;
    Ok(Opened { located, source })
}

/// The indices of `names` in `entries`, in the order given; every name
/// must exist. No names selects everything.
pub fn select(path: &Path, entries: &[Entry], names: &[String]) -> Result<Vec<usize>> {
    if names.is_empty() {
        return Ok((0..entries.len()).collect());
    }
    names
        .iter()
        .map(|name| {
            entries
                .iter()
                .position(|e| e.name == *name)
                .ok_or_else(|| at(path, format!("no tensor named '{name}'")))
        })
        .collect()
}
