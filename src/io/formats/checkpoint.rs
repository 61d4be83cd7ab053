//! TensorFlow checkpoints (tensor bundles): the row, the source and the
//! sink.

use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::checkpoint::{BundleReader, BundleWriter, TensorSlice, data_file_prefix};
use crate::dtype::DataType;
use crate::error::Result;
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::sink::{WriteEntry, Written};
use crate::io::source::{Entry, Listed, ReadEntry};
use crate::io::store::path_key;
use crate::io::{CreateOptions, Format, Located, OpenOptions, Stat, TensorSink, TensorSource};
use crate::tensor::Tensor;

impl Format {
    /// A TensorFlow checkpoint (tensor bundle): a prefix such as `dir/ckpt-3`,
    /// a checkpoint directory, or a SavedModel directory.
    pub const CHECKPOINT: Format = Format::named("checkpoint");
}

pub(crate) const ROW: Row = Row {
    extensions: &["index"],
    sniff,
    resolve,
    create: Some(create),
    names_output,
    output,
    can_hold: DataType::is_valid_tensor_dtype,
    ..Row::base(Format::CHECKPOINT, open)
};

/// An `.index` or data file, a folder with a checkpoint in it (a state
/// file, a SavedModel's variables, an `.index`), or a prefix whose
/// `.index` exists.
fn sniff(p: &Probe<'_>) -> Option<Certainty> {
    let yes = match p.stat {
        Stat::File { .. } => p.name.ends_with(".index") || data_file_prefix(&p.name).is_some(),
        Stat::Dir => {
            p.has_file("checkpoint")
                || p.has_file("saved_model.pb")
                || p.has_file("saved_model.pbtxt")
                || p.items().is_ok_and(|items| {
                    items
                        .iter()
                        .any(|i| i.name.ends_with(".index") && i.stat != Stat::Dir)
                })
                || matches!(
                    p.stat_of(
                        &p.store
                            .join(&p.store.join(p.key, "variables"), "variables.index")
                    ),
                    Stat::File { .. }
                )
        }
        _ => matches!(p.stat_of(&format!("{}.index", p.key)), Stat::File { .. }),
    };
    yes.then_some(Certainty::Name)
}

/// The prefix the path names (a state file's latest, a SavedModel's
/// `variables/variables`, an `.index` file's stem), with a note on a
/// fallback taken.
fn resolve(at: &mut Located) -> Result<()> {
    if let Some(path) = at.local_path() {
        let (prefix, note) = crate::checkpoint::find_prefix(&path)?;
        at.key = path_key(&prefix);
        at.note = note;
    }
    Ok(())
}

/// A checkpoint's reader, and the SavedModel directory it is the
/// variables of, if any (whose signatures it then shows).
pub(crate) struct Bundle {
    reader: BundleReader,
    #[cfg_attr(not(feature = "saved_model"), allow(dead_code))] // read for signatures
    saved_model: Option<PathBuf>,
}

/// Reads a checkpoint's tensors by key; a slice reads only the stored
/// slices that overlap it.
impl ReadEntry for Bundle {
    fn read_entry(
        &mut self,
        _index: usize,
        entry: &Entry,
        _on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        self.reader.get(&entry.name)
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
        self.reader
            .get_slice(&entry.name, &TensorSlice::new(&extents)?)
    }

    /// A SavedModel's signatures, as `saved_model_cli show --all`.
    fn signatures(&self) -> Option<Result<String>> {
        #[cfg(feature = "saved_model")]
        if let Some(dir) = &self.saved_model {
            return Some(crate::saved_model::SavedModel::open(dir).and_then(|m| m.show_all()));
        }
        None
    }
}

/// The SavedModel directory whose variables `prefix` is
/// (`DIR/variables/variables` beside `DIR/saved_model.pb`).
fn saved_model_of(prefix: &Path) -> Option<PathBuf> {
    let variables = prefix.parent()?;
    let dir = variables.parent()?;
    let is_model = prefix.file_name()? == "variables"
        && variables.file_name()? == "variables"
        && (dir.join("saved_model.pb").is_file() || dir.join("saved_model.pbtxt").is_file());
    is_model.then(|| dir.to_path_buf())
}

/// Opens the bundle at the prefix and lists its full tensors from the
/// index, in TF's key order (partitioned variables assembled; slice
/// entries not listed, as `tf.train.list_variables`).
fn open(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    let prefix = at.local_only()?;
    let reader = if options.mmap() {
        // SAFETY: `OpenOptions::with_mmap` (an unsafe fn) is the caller's
        // promise that the files are not changed while mapped.
        unsafe { BundleReader::open_mmap(&prefix) }
    } else {
        BundleReader::open(&prefix)
    }?;
    let entries = reader
        .keys()
        .map(|key| {
            let (dtype, shape) = reader.dtype_and_shape(key).map_err(|e| e.with_key(key))?;
            Ok(Entry::new(key, dtype, shape))
        })
        .collect::<Result<Vec<_>>>()?;
    let saved_model = saved_model_of(&prefix);
    Ok(Box::new(Listed {
        format: Format::CHECKPOINT,
        path: prefix,
        entries,
        reader: Bundle {
            reader,
            saved_model,
        },
    }))
}

/// A name without an ending, or with a `.ckpt-N` one: a checkpoint prefix.
fn names_output(key: &str) -> bool {
    let name = key.rsplit('/').next().unwrap_or(key);
    match name.rsplit_once('.') {
        None => !name.is_empty(),
        Some((_, ext)) => ext.to_ascii_lowercase().starts_with("ckpt"),
    }
}

/// `PREFIX.index` names the prefix.
fn output(at: &mut Located, _: &CreateOptions) {
    if let Some(stem) = at.key.strip_suffix(".index") {
        at.key = stem.to_owned();
    }
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

/// Starts a bundle at the prefix.
fn create(at: &Located, _: &CreateOptions) -> Result<Box<dyn TensorSink>> {
    let prefix = at.local_only()?;
    Ok(Box::new(Written {
        format: Format::CHECKPOINT,
        writer: BundleWriter::new(&prefix)?,
        path: prefix,
    }))
}
