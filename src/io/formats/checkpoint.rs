//! TensorFlow checkpoints (tensor bundles): the row, the source and the
//! sink.

use std::ops::Range;
use std::path::PathBuf;

use crate::checkpoint::{
    BundleReader, BundleWriter, TensorSlice, data_file_prefix, find_prefix_in,
};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::sink::{WriteEntry, Written};
use crate::io::source::{Entry, Listed, ReadEntry};
use crate::io::{
    CreateOptions, Format, Located, OpenOptions, Stat, Store, TensorSink, TensorSource,
};
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
    let (prefix, note) = find_prefix_in(&*at.store, &at.key)?;
    at.key = prefix;
    at.note = note;
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
        // `ranges` were checked against the entry's shape, whose dims fit
        // i64: the error is for a caller that did not check.
        let as_i64 = |v: u64| {
            i64::try_from(v)
                .map_err(|_| Error::InvalidArgument(format!("slice bound {v} does not fit int64")))
        };
        let extents = ranges
            .iter()
            .map(|r| Ok((as_i64(r.start)?, Some(as_i64(r.end - r.start)?))))
            .collect::<Result<Vec<(i64, Option<i64>)>>>()?;
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

/// The local SavedModel directory whose variables `prefix` is
/// (`DIR/variables/variables` beside `DIR/saved_model.pb`), for its
/// signatures; `None` for any other prefix (or one that cannot be asked).
fn saved_model_of(store: &dyn Store, prefix: &str) -> Option<PathBuf> {
    let (variables, name) = store.split(prefix);
    let (dir, folder) = store.split(&variables);
    let has = |file: &str| matches!(store.stat(&store.join(&dir, file)), Ok(Stat::File { .. }));
    let is_model = name == "variables"
        && folder == "variables"
        && (has("saved_model.pb") || has("saved_model.pbtxt"));
    if is_model {
        store.local_path(&dir)
    } else {
        None
    }
}

/// Opens the bundle at the prefix and lists its full tensors from the
/// index, in TF's key order (partitioned variables assembled; slice
/// entries not listed, as `tf.train.list_variables`).
/// The `.index` is read through the store, and each tensor as a range of
/// its shard (mapped when `options` say so).
fn open(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    let reader = BundleReader::open_prefix(&*at.store, &at.key, &|k| at.open_key(k, options))?;
    let entries = reader
        .keys()
        .map(|key| {
            let (dtype, shape) = reader.dtype_and_shape(key).map_err(|e| e.with_key(key))?;
            Ok(Entry::new(key, dtype, shape))
        })
        .collect::<Result<Vec<_>>>()?;
    let saved_model = saved_model_of(&*at.store, &at.key);
    Ok(Box::new(Listed {
        format: Format::CHECKPOINT,
        path: at.path(),
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
