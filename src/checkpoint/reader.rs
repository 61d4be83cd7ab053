//! [`BundleReader`]: TF's `BundleReader` (and the lookups of
//! `CheckpointReader`) over a `.index` table and its `.data` shards.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use prost::Message;

use crate::buffer::read_policy::{LARGE, ReadBuf};
use crate::crc32c;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::pb;
use crate::proto::FromProtoOptions;
use crate::shape::TensorShape;
use crate::tensor::Tensor;

use super::entry::{Decode, check_bools, swap_bytes};
use super::load::{Loaded, Span, load_shard};
use super::naming::{data_path, resolve_prefix};
use super::slice::{TensorSlice, copy_overlap, encode_tensor_name_slice};
use super::table;
use crate::buffer::read_jobs::{Checksum, RangeRead, read_at, read_jobs};

/// `kTensorBundleVersion`: the newest bundle version this reader knows.
pub(crate) const BUNDLE_VERSION: i32 = 1;

/// Where one shard's bytes come from.
enum Shard {
    /// Read with positioned reads, one copy into an aligned buffer.
    File { file: File, len: u64, name: String },
    /// Memory-mapped or in-memory bytes; aligned tensors are adopted.
    Bytes { bytes: Bytes, name: String },
    /// Read once, whole ([`BundleReader::load`]): every entry's bytes at
    /// an aligned offset of one buffer, checksummed while read.
    Loaded {
        loaded: Loaded,
        len: u64,
        name: String,
    },
    /// The data file could not be opened; reported when a tensor needs it.
    Missing(Error),
}

/// How shards are opened.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Read,
    Mmap,
}

/// Reads a TensorFlow tensor bundle: a V2 checkpoint, or a SavedModel's
/// `variables/` folder.
///
/// ```
/// use tftensor::checkpoint::{BundleReader, BundleWriter};
/// use tftensor::{DataType, Tensor};
///
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let dir = tmp.path().join("reader");
/// let prefix = dir.join("ckpt-1");
/// let mut w = BundleWriter::new(&prefix)?;
/// w.add("w", &Tensor::from_vec([2, 2], vec![1.0f32, 2.0, 3.0, 4.0])?)?;
/// w.add("step", &Tensor::from(7i64))?;
/// w.finish()?;
///
/// let r = BundleReader::open(&prefix)?;
/// assert_eq!(r.keys().collect::<Vec<_>>(), ["step", "w"]);
/// let (dtype, shape) = r.dtype_and_shape("w")?;
/// assert_eq!((dtype, shape.dim_sizes()), (DataType::Float, vec![2, 2]));
/// assert_eq!(r.get("w")?.as_slice::<f32>()?, &[1.0, 2.0, 3.0, 4.0]);
/// assert!(!r.contains("nope"));
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub struct BundleReader {
    /// The prefix, for messages.
    prefix: String,
    /// Every entry but the header, in key order.
    entries: Vec<(Vec<u8>, pb::BundleEntryProto)>,
    /// Indices into `entries` of the full-tensor keys (no slice entries).
    full: Vec<usize>,
    num_shards: i32,
    shards: BTreeMap<i32, Shard>,
    swap: bool,
    verify: bool,
    limits: FromProtoOptions,
}

impl std::fmt::Debug for BundleReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BundleReader")
            .field("prefix", &self.prefix)
            .field("entries", &self.entries.len())
            .field("num_shards", &self.num_shards)
            .finish_non_exhaustive()
    }
}

fn bad(message: String) -> Error {
    Error::invalid_format("tensor bundle", message)
}

impl BundleReader {
    /// Opens a bundle. `path` may be a checkpoint prefix (`dir/ckpt-3`,
    /// naming `dir/ckpt-3.index` and its `.data-*` shards), the `.index`
    /// file itself, a checkpoint directory (the latest checkpoint named in
    /// its `checkpoint` state file, as `tf.train.latest_checkpoint` finds
    /// it) or a SavedModel directory (its `variables/variables`).
    ///
    /// Tensors are read when asked for, each copied once from its file into
    /// an aligned buffer (a huge-page map, filled without zeroing, from
    /// 4 MiB on). To read every tensor, [`load`](Self::load) reads each
    /// shard once instead. A missing data file is reported by the first
    /// [`get`](Self::get) that needs it, so the listing still works (as in TF).
    ///
    /// # Errors
    /// [`Error::NotFound`] if there is no bundle at `path`, [`Error::Io`],
    /// and [`Error::InvalidFormat`] / [`Error::DataLoss`] for a corrupt
    /// `.index`.
    ///
    /// ```
    /// let err = tftensor::checkpoint::BundleReader::open("/no/such/ckpt").unwrap_err();
    /// assert!(matches!(err, tftensor::Error::NotFound { .. }));
    /// ```
    pub fn open<P: AsRef<Path>>(path: P) -> Result<BundleReader> {
        Self::open_with(path.as_ref(), Mode::Read)
    }

    /// Opens a bundle as [`open`](Self::open) does, memory-mapping its data
    /// files. A tensor whose bytes are element-aligned in the file is then
    /// adopted without a copy (the tensor keeps the mapping alive); others
    /// are copied once. Checksums are still verified on every
    /// [`get`](Self::get), which reads every byte; turn that off with
    /// [`with_verify_checksums`](Self::with_verify_checksums) for O(1) reads.
    ///
    /// # Safety
    /// The files must not be modified or truncated while the reader or any
    /// tensor from it is alive: the tensors would change underneath, or a
    /// read could fault (the usual `memmap2` contract).
    ///
    /// ```
    /// # use tftensor::checkpoint::{BundleReader, BundleWriter};
    /// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
    /// # let dir = tmp.path().join("mmap");
    /// # let prefix = dir.join("ckpt");
    /// # let mut w = BundleWriter::new(&prefix)?;
    /// # w.add("x", &tftensor::Tensor::from_vec([3], vec![1i32, 2, 3])?)?;
    /// # w.finish()?;
    /// // SAFETY: nothing modifies the files while `r` and its tensors live.
    /// let r = unsafe { BundleReader::open_mmap(&prefix)? };
    /// assert_eq!(r.get("x")?.as_slice::<i32>()?, &[1, 2, 3]);
    /// # drop(r);
    /// # std::fs::remove_dir_all(&dir).ok();
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub unsafe fn open_mmap<P: AsRef<Path>>(path: P) -> Result<BundleReader> {
        Self::open_with(path.as_ref(), Mode::Mmap)
    }

    /// Opens a bundle as [`open`](Self::open) does and reads each data
    /// shard once, whole, into one buffer (huge pages when large; no
    /// zero-fill before the read): every entry's bytes are placed at a
    /// 64-byte-aligned offset, so [`get`](Self::get) hands out tensors that
    /// adopt their slice of that buffer without a copy, and the buffer is
    /// freed when the reader and the last such tensor are dropped. Each
    /// POD entry's checksum is computed chunk by chunk right after the
    /// chunk is read, and checked by `get` as with [`open`](Self::open).
    /// The fastest way to read a whole checkpoint; use `open` to read a
    /// few tensors of a large one.
    ///
    /// A missing data file is still reported by the first `get` that
    /// needs it. An index whose entries overlap or exceed their shard is
    /// read entry by entry, as `open` does.
    ///
    /// # Errors
    /// As [`open`](Self::open); [`Error::Io`] when a data file cannot be
    /// read; [`Error::AllocationFailed`] when it does not fit in memory.
    ///
    /// ```
    /// # use tftensor::checkpoint::{BundleReader, BundleWriter};
    /// # use tftensor::Tensor;
    /// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
    /// # let dir = tmp.path().join("load");
    /// # let prefix = dir.join("ckpt");
    /// let mut w = BundleWriter::new(&prefix)?;
    /// w.add("a", &Tensor::from_vec([3], vec![1.0f32, 2.0, 3.0])?)?;
    /// w.add("b", &Tensor::from_vec([2], vec![4i64, 5])?)?;
    /// w.finish()?;
    /// let r = BundleReader::load(&prefix)?;
    /// let all: Vec<Tensor> = r.keys().map(|k| r.get(k)).collect::<Result<_, _>>()?;
    /// assert_eq!(all[1].as_slice::<i64>()?, &[4, 5]);
    /// # drop(r);
    /// # std::fs::remove_dir_all(&dir).ok();
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn load<P: AsRef<Path>>(path: P) -> Result<BundleReader> {
        let mut r = Self::open_with(path.as_ref(), Mode::Read)?;
        let ids: Vec<i32> = r.shards.keys().copied().collect();
        for id in ids {
            let spans: Vec<(Span, bool)> = r
                .entries
                .iter()
                .map(|(_, e)| e)
                .filter(|e| e.slices.is_empty() && e.shard_id == id)
                .filter_map(|e| {
                    let span = Span {
                        offset: u64::try_from(e.offset).ok()?,
                        size: u64::try_from(e.size).ok()?,
                    };
                    Some((span, DataType::from_i32(e.dtype).can_use_memcpy()))
                })
                .collect();
            let shard = match r.shards.remove(&id) {
                Some(Shard::File { file, len, name }) => {
                    match load_shard(&file, &name, len, &spans)? {
                        Some(loaded) => Shard::Loaded { loaded, len, name },
                        None => Shard::File { file, len, name },
                    }
                }
                // A missing data file stays missing, reported by `get`.
                Some(other) => other,
                None => continue,
            };
            r.shards.insert(id, shard);
        }
        Ok(r)
    }

    /// A reader over a bundle held in memory: the `.index` bytes and one
    /// `Bytes` per data shard (shard `i` at index `i`). Aligned tensors are
    /// adopted from `data` without a copy.
    ///
    /// # Errors
    /// As [`open`](Self::open), for a corrupt index.
    ///
    /// ```
    /// use tftensor::checkpoint::{BundleReader, BundleWriter};
    /// use tftensor::Tensor;
    /// let mut w = BundleWriter::in_memory();
    /// w.add("x", &Tensor::from("hello"))?;
    /// let (index, data) = w.finish_to_bytes()?;
    /// let r = BundleReader::from_bytes(index.into(), vec![data.into()])?;
    /// assert_eq!(r.get("x")?, Tensor::from("hello"));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_bytes(index: Bytes, data: Vec<Bytes>) -> Result<BundleReader> {
        let mut r = Self::parse_index(&index, "<memory>.index".to_owned())?;
        let mut data: Vec<Option<Bytes>> = data.into_iter().map(Some).collect();
        let wanted: Vec<i32> = r.shards.keys().copied().collect();
        for id in wanted {
            let name = format!("<memory>.data-{id:05}-of-{:05}", r.num_shards);
            let shard = match usize::try_from(id)
                .ok()
                .and_then(|i| data.get_mut(i))
                .and_then(Option::take)
            {
                Some(bytes) => Shard::Bytes { bytes, name },
                None => Shard::Missing(Error::not_found("no such data shard").with_path(name)),
            };
            r.shards.insert(id, shard);
        }
        Ok(r)
    }

    fn open_with(path: &Path, mode: Mode) -> Result<BundleReader> {
        let prefix = resolve_prefix(path)?;
        let mut index_path = prefix.clone().into_os_string();
        index_path.push(".index");
        let index_path = PathBuf::from(index_path);
        let index = std::fs::read(&index_path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Error::not_found(format!(
                    "Unsuccessful TensorSliceReader constructor: Failed to find any matching files for {}",
                    prefix.display()
                ))
            } else {
                Error::io(index_path.display(), &e)
            }
        })?;
        let mut r = Self::parse_index(&index, index_path.display().to_string())?;
        r.prefix = prefix.display().to_string();
        let wanted: Vec<i32> = r.shards.keys().copied().collect();
        for id in wanted {
            let path = data_path(&prefix, id, r.num_shards);
            r.shards.insert(id, open_shard(&path, mode));
        }
        Ok(r)
    }

    /// Parses and checks the index; shards are filled in by the caller.
    fn parse_index(index: &[u8], file: String) -> Result<BundleReader> {
        let rows = table::read(index, &file)?;
        let mut rows = rows.into_iter();
        let header = match rows.next() {
            Some((k, v)) if k.is_empty() => {
                pb::BundleHeaderProto::decode(v.as_slice()).map_err(|e| {
                    Error::data_loss(format!("corrupt bundle header: {e}")).with_path(&file)
                })?
            }
            _ => return Err(bad("the bundle header entry is missing".into()).with_path(file)),
        };
        check_version(&header, &file)?;
        if header.num_shards < 1 {
            return Err(bad(format!("num_shards is {}", header.num_shards)).with_path(file));
        }
        let swap = match header.endianness {
            0 => cfg!(target_endian = "big"),
            1 => cfg!(target_endian = "little"),
            other => return Err(bad(format!("unknown endianness {other}")).with_path(file)),
        };
        let mut entries = Vec::new();
        for (key, value) in rows {
            let entry = pb::BundleEntryProto::decode(value.as_slice()).map_err(|e| {
                Error::data_loss(format!(
                    "corrupt entry for key {:?}: {e}",
                    String::from_utf8_lossy(&key)
                ))
                .with_path(&file)
            })?;
            entries.push((key, entry));
        }
        // TF's CheckpointReader: slice entries are named by their full
        // tensor's entry; the rest are the tensors a user sees.
        let mut slice_keys = HashSet::new();
        let mut shards = BTreeMap::new();
        for (key, entry) in &entries {
            for s in &entry.slices {
                let slice = TensorSlice::from_proto(s).map_err(|e| {
                    bad(format!(
                        "{file}: key {:?}: bad slice: {e}",
                        String::from_utf8_lossy(key)
                    ))
                })?;
                slice_keys.insert(encode_tensor_name_slice(key, &slice));
            }
            if entry.slices.is_empty() {
                if entry.shard_id < 0 || entry.shard_id >= header.num_shards {
                    return Err(bad(format!(
                        "{file}: key {:?}: shard id {} is past num_shards {}",
                        String::from_utf8_lossy(key),
                        entry.shard_id,
                        header.num_shards
                    )));
                }
                shards.insert(
                    entry.shard_id,
                    Shard::Missing(Error::not_found(String::new())),
                );
            }
        }
        let full = entries
            .iter()
            .enumerate()
            .filter(|(_, (k, _))| !slice_keys.contains(k) && std::str::from_utf8(k).is_ok())
            .map(|(i, _)| i)
            .collect();
        Ok(BundleReader {
            prefix: file.trim_end_matches(".index").to_owned(),
            entries,
            full,
            num_shards: header.num_shards,
            shards,
            swap,
            verify: true,
            limits: FromProtoOptions::default(),
        })
    }

    /// Turns checksum verification on (the default) or off. With it off, a
    /// memory-mapped aligned tensor is returned without touching its bytes,
    /// and corrupt data is no longer detected.
    ///
    /// ```
    /// # let (index, data) = { let mut w = tftensor::checkpoint::BundleWriter::in_memory();
    /// #   w.add("x", &tftensor::Tensor::from(1.0f32))?; w.finish_to_bytes()? };
    /// let r = tftensor::checkpoint::BundleReader::from_bytes(index.into(), vec![data.into()])?
    ///     .with_verify_checksums(false);
    /// assert_eq!(r.get("x")?, tftensor::Tensor::from(1.0f32));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[must_use]
    pub fn with_verify_checksums(mut self, verify: bool) -> Self {
        self.verify = verify;
        self
    }

    /// Sets the memory budget for string and variant tensors (and tensors
    /// nested in variants): their element handles are charged against
    /// `limits.max_bytes` before anything is allocated, as in
    /// [`Tensor::from_proto_with`]. POD tensors need no budget: their size
    /// is checked against the data file's length.
    ///
    /// ```
    /// # let (index, data) = { let mut w = tftensor::checkpoint::BundleWriter::in_memory();
    /// #   w.add("s", &tftensor::Tensor::from_vec([4], vec![bytes::Bytes::from_static(b"a"); 4])?)?; w.finish_to_bytes()? };
    /// use tftensor::FromProtoOptions;
    /// let r = tftensor::checkpoint::BundleReader::from_bytes(index.into(), vec![data.into()])?
    ///     .with_limits(FromProtoOptions::default().with_max_bytes(64));
    /// assert!(matches!(r.get("s"), Err(tftensor::Error::LimitExceeded { .. })));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[must_use]
    pub fn with_limits(mut self, limits: FromProtoOptions) -> Self {
        self.limits = limits;
        self
    }

    /// The full-tensor keys in TF's (bytewise) order: no header, no slice
    /// entries. Keys that are not UTF-8 are skipped.
    ///
    /// ```
    /// # let (index, data) = { let mut w = tftensor::checkpoint::BundleWriter::in_memory();
    /// #   w.add("b", &tftensor::Tensor::from(1i32))?; w.add("a", &tftensor::Tensor::from(2i32))?; w.finish_to_bytes()? };
    /// let r = tftensor::checkpoint::BundleReader::from_bytes(index.into(), vec![data.into()])?;
    /// assert_eq!(r.keys().collect::<Vec<_>>(), ["a", "b"]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = &str> + '_ {
        self.full.iter().filter_map(|&i| {
            self.entries
                .get(i)
                .and_then(|(k, _)| std::str::from_utf8(k).ok())
        })
    }

    /// Every stored entry but the header, in key order, with its raw key:
    /// full tensors, the metadata entries of partitioned tensors, and the
    /// slice entries (whose keys are binary, see [`slice_key`](super::slice_key)).
    ///
    /// ```
    /// # let mut w = tftensor::checkpoint::BundleWriter::in_memory();
    /// # let full = tftensor::TensorShape::new(&[2])?;
    /// # w.add_slice("p", &full, &"0,1".parse()?, &tftensor::Tensor::from_vec([1], vec![1i8])?)?;
    /// # let (index, data) = w.finish_to_bytes()?;
    /// let r = tftensor::checkpoint::BundleReader::from_bytes(index.into(), vec![data.into()])?;
    /// let keys: Vec<&[u8]> = r.raw_entries().map(|(k, _)| k).collect();
    /// assert_eq!(keys.len(), 2); // the slice entry sorts first: its key starts with 0x00
    /// assert_eq!(keys[1], b"p");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn raw_entries(&self) -> impl Iterator<Item = (&[u8], &pb::BundleEntryProto)> + '_ {
        self.entries.iter().map(|(k, e)| (k.as_slice(), e))
    }

    /// The number of data shards the header declares.
    ///
    /// ```
    /// # let (index, data) = tftensor::checkpoint::BundleWriter::in_memory().finish_to_bytes()?;
    /// let r = tftensor::checkpoint::BundleReader::from_bytes(index.into(), vec![data.into()])?;
    /// assert_eq!(r.num_shards(), 1);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn num_shards(&self) -> i32 {
        self.num_shards
    }

    /// Whether `key` is a full-tensor key of this bundle.
    ///
    /// ```
    /// # let (index, data) = { let mut w = tftensor::checkpoint::BundleWriter::in_memory();
    /// #   w.add("a", &tftensor::Tensor::from(2i32))?; w.finish_to_bytes()? };
    /// let r = tftensor::checkpoint::BundleReader::from_bytes(index.into(), vec![data.into()])?;
    /// assert!(r.contains("a") && !r.contains("b") && !r.contains(""));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn contains(&self, key: &str) -> bool {
        self.position(key.as_bytes())
            .is_some_and(|i| self.full.binary_search(&i).is_ok())
    }

    fn position(&self, key: &[u8]) -> Option<usize> {
        self.entries
            .binary_search_by(|(k, _)| k.as_slice().cmp(key))
            .ok()
    }

    /// The stored `BundleEntryProto` of `key` (dtype, shape, shard, offset,
    /// size, checksum, slices).
    ///
    /// # Errors
    /// [`Error::NotFound`] if `key` is not a full-tensor key.
    ///
    /// ```
    /// # let (index, data) = { let mut w = tftensor::checkpoint::BundleWriter::in_memory();
    /// #   w.add("a", &tftensor::Tensor::from(2i32))?; w.finish_to_bytes()? };
    /// let r = tftensor::checkpoint::BundleReader::from_bytes(index.into(), vec![data.into()])?;
    /// assert_eq!(r.entry("a")?.size, 4);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn entry(&self, key: &str) -> Result<&pb::BundleEntryProto> {
        self.position(key.as_bytes())
            .filter(|i| self.full.binary_search(i).is_ok())
            .and_then(|i| self.entries.get(i))
            .map(|(_, e)| e)
            .ok_or_else(|| Error::not_found(format!("Key {key} not found in checkpoint")))
    }

    /// The dtype and shape of `key`, without reading its data.
    ///
    /// # Errors
    /// [`Error::NotFound`] for an unknown key; [`Error::InvalidFormat`] if
    /// the entry's dtype or shape is invalid.
    ///
    /// ```
    /// # let (index, data) = { let mut w = tftensor::checkpoint::BundleWriter::in_memory();
    /// #   w.add("a", &tftensor::Tensor::new(tftensor::DataType::Half, [2, 0])?)?; w.finish_to_bytes()? };
    /// let r = tftensor::checkpoint::BundleReader::from_bytes(index.into(), vec![data.into()])?;
    /// let (dtype, shape) = r.dtype_and_shape("a")?;
    /// assert_eq!((dtype, shape.dim_sizes()), (tftensor::DataType::Half, vec![2, 0]));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn dtype_and_shape(&self, key: &str) -> Result<(DataType, TensorShape)> {
        let entry = self.entry(key)?;
        entry_meta(key, entry)
    }

    /// Reads the tensor stored under `key`. A partitioned tensor (stored as
    /// slices, possibly across shards) is assembled, as TF's `Lookup` does.
    ///
    /// # Errors
    /// [`Error::NotFound`] for an unknown key or a missing data file;
    /// [`Error::DataLoss`] for a checksum mismatch, or an entry that runs
    /// past its data file; [`Error::InvalidFormat`] for an entry that does
    /// not describe a valid tensor; [`Error::LimitExceeded`] past the
    /// [`with_limits`](Self::with_limits) budget.
    ///
    /// ```
    /// # let (index, data) = { let mut w = tftensor::checkpoint::BundleWriter::in_memory();
    /// #   w.add("a", &tftensor::Tensor::from(2i32))?; w.finish_to_bytes()? };
    /// let r = tftensor::checkpoint::BundleReader::from_bytes(index.into(), vec![data.into()])?;
    /// assert_eq!(r.get("a")?, tftensor::Tensor::from(2i32));
    /// assert!(matches!(r.get("b"), Err(tftensor::Error::NotFound { .. })));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn get(&self, key: &str) -> Result<Tensor> {
        let entry = self.entry(key)?;
        if entry.slices.is_empty() {
            self.read_entry(key, entry)
        } else {
            let (_, shape) = entry_meta(key, entry)?;
            self.assemble(key, entry, &TensorSlice::full(shape.dims()))
        }
    }

    /// Reads part of `key`'s tensor, as TF's `LookupSlice` does: the stored
    /// slices that overlap `slice` are read and their overlap copied.
    ///
    /// # Errors
    /// As [`get`](Self::get); [`Error::InvalidArgument`] if `slice` does not
    /// fit the tensor's shape, or the stored slices do not cover it.
    ///
    /// ```
    /// # let (index, data) = { let mut w = tftensor::checkpoint::BundleWriter::in_memory();
    /// #   w.add("m", &tftensor::Tensor::from_vec([3, 2], vec![1, 2, 3, 4, 5, 6i32])?)?; w.finish_to_bytes()? };
    /// let r = tftensor::checkpoint::BundleReader::from_bytes(index.into(), vec![data.into()])?;
    /// let part = r.get_slice("m", &"1,2:1,1".parse()?)?;
    /// assert_eq!(part.shape().dim_sizes(), vec![2, 1]);
    /// assert_eq!(part.as_slice::<i32>()?, &[4, 6]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn get_slice(&self, key: &str, slice: &TensorSlice) -> Result<Tensor> {
        let entry = self.entry(key)?;
        self.assemble(key, entry, slice)
    }

    /// TF's `GetSliceValue`.
    fn assemble(
        &self,
        key: &str,
        entry: &pb::BundleEntryProto,
        want: &TensorSlice,
    ) -> Result<Tensor> {
        let (dtype, full_shape) = entry_meta(key, entry)?;
        let target_shape = want.slice_shape(&full_shape)?;
        let stored: Vec<TensorSlice> = if entry.slices.is_empty() {
            vec![TensorSlice::full(full_shape.dims())]
        } else {
            entry
                .slices
                .iter()
                .map(TensorSlice::from_proto)
                .collect::<Result<_>>()?
        };
        // The stored slices that overlap the request, with the overlap.
        let mut parts = Vec::new();
        let mut covered: i64 = 0;
        for s in &stored {
            s.slice_shape(&full_shape).map_err(|e| {
                bad(format!(
                    "{}: key {key:?}: stored slice {s}: {e}",
                    self.prefix
                ))
            })?;
            if let Some(inter) = want.intersect(s, &full_shape) {
                covered = covered.saturating_add(inter.iter().map(|&(_, l)| l).product::<i64>());
                parts.push((s, inter));
            }
        }
        // Overlapping stored slices would write some elements twice.
        for (i, (a, ia)) in parts.iter().enumerate() {
            for (b, ib) in parts.iter().skip(i + 1) {
                let overlap = ia
                    .iter()
                    .zip(ib)
                    .all(|(&(s1, l1), &(s2, l2))| s1.max(s2) < (s1 + l1).min(s2 + l2));
                if overlap {
                    return Err(bad(format!(
                        "{}: key {key:?}: overlapping slices: existing slice = {a}, new slice = {b}",
                        self.prefix
                    )));
                }
            }
        }
        if covered != target_shape.num_elements() {
            return Err(Error::InvalidArgument(format!(
                "Does not have sufficient slices for partitioned tensor {key} to restore in slice_spec: {want}"
            )));
        }
        let want_start: Vec<i64> = (0..want.dims())
            .map(|d| want.extent(d).map_or(0, |(s, _)| s))
            .collect();
        // Read every overlapping stored slice before allocating the result,
        // so the result's size is backed by data the file really holds.
        let mut stored_parts = Vec::with_capacity(parts.len());
        for (s, inter) in parts {
            let stored_t = if s.is_full() && entry.slices.is_empty() {
                self.read_entry(key, entry)?
            } else {
                let skey = encode_tensor_name_slice(key.as_bytes(), s);
                let sentry = self
                    .position(&skey)
                    .and_then(|i| self.entries.get(i))
                    .map(|(_, e)| e)
                    .ok_or_else(|| {
                        Error::not_found(format!("Key {key} slice {s} not found in checkpoint"))
                    })?;
                let t = self.read_entry(key, sentry)?;
                let expect = s.slice_shape(&full_shape)?;
                if t.dtype() != dtype || t.shape() != &expect {
                    return Err(bad(format!(
                        "{}: key {key:?}: slice {s} holds {} {} instead of {dtype} {}",
                        self.prefix,
                        t.dtype(),
                        t.shape().debug_string(),
                        expect.debug_string()
                    )));
                }
                t
            };
            // TF's shortcut: the stored slice is exactly the request.
            if s == want || (s.is_full() && want.is_full()) {
                return Ok(stored_t);
            }
            stored_parts.push((s, inter, stored_t));
        }
        let mut out = Tensor::new(dtype, target_shape)?;
        for (s, inter, stored_t) in stored_parts {
            let src_start: Vec<i64> = (0..s.dims())
                .map(|d| s.extent(d).map_or(0, |(st, _)| st))
                .collect();
            copy_into(&stored_t, &src_start, &mut out, &want_start, &inter)?;
        }
        Ok(out)
    }

    /// Reads one stored entry (a full tensor or one slice).
    fn read_entry(&self, key: &str, entry: &pb::BundleEntryProto) -> Result<Tensor> {
        let (dtype, shape) = entry_meta(key, entry)?;
        let shard = self.shards.get(&entry.shard_id).ok_or_else(|| {
            bad(format!(
                "{}: key {key:?}: shard id {} is past num_shards {}",
                self.prefix, entry.shard_id, self.num_shards
            ))
        })?;
        let (name, len) = match shard {
            Shard::File { name, len, .. } => (name.as_str(), *len),
            Shard::Bytes { bytes, name } => (name.as_str(), bytes.len() as u64),
            Shard::Loaded { name, len, .. } => (name.as_str(), *len),
            Shard::Missing(e) => return Err(e.clone()),
        };
        let offset = u64::try_from(entry.offset).ok();
        let size = u64::try_from(entry.size).ok();
        let (offset, size) = match (offset, size) {
            (Some(o), Some(s)) if o.checked_add(s).is_some_and(|end| end <= len) => (o, s),
            _ => {
                return Err(Error::data_loss(format!(
                    "tensor bundle entry {key:?}: offset {} + size {} runs past the end of {name} ({len} bytes)",
                    entry.offset, entry.size
                )));
            }
        };
        let n = shape.num_elements();
        let dec = Decode {
            key,
            dtype,
            shape: &shape,
            crc: crc32c::unmask(entry.crc32c),
            swap: self.swap,
            verify: self.verify,
            opts: &self.limits,
        };
        if dtype.can_use_memcpy() {
            let expected = crate::tensor::byte_len(dtype, n).ok().map(|b| b as u64);
            if expected != Some(size) {
                return Err(Error::data_loss(format!(
                    "Invalid size in bundle entry: key {key}; stored size {size}; expected size {}",
                    expected.map_or_else(|| "overflows".to_owned(), |e| e.to_string())
                )));
            }
        } else if (n as u64) > size {
            return Err(Error::data_loss(format!(
                "Invalid size in bundle entry: key {key}; stored size {size}; expected size is at least {n}"
            )));
        }
        // Both fit in usize: they are within a file or buffer we hold.
        let (start, end) = (offset as usize, (offset + size) as usize);
        match shard {
            Shard::Bytes { bytes, name } => {
                let region = bytes.slice(start..end);
                if dtype.can_use_memcpy() {
                    dec.pod(region, None, name)
                } else {
                    dec.non_pod(&region, name)
                }
            }
            Shard::Loaded { loaded, name, .. } => {
                // `load` placed every in-bounds span of this shard.
                let place = loaded
                    .places
                    .get(&Span { offset, size })
                    .copied()
                    .ok_or_else(|| dec.loss(format!("no loaded bytes in {name}")))?;
                let region = loaded.bytes.slice(place.start..place.start + (end - start));
                if dtype.can_use_memcpy() {
                    dec.pod(region, place.crc, name)
                } else {
                    dec.non_pod(&region, name)
                }
            }
            Shard::File { file, name, .. } => {
                if dtype.can_use_memcpy() {
                    read_pod(file, name, offset, &dec, dtype, &shape)
                } else {
                    let mut buf = crate::buffer::try_vec::<u8>(size as usize)?;
                    buf.resize(size as usize, 0);
                    read_at(file, &mut buf, offset).map_err(|e| Error::io(name, &e))?;
                    dec.non_pod(&Bytes::from(buf), name)
                }
            }
            Shard::Missing(e) => Err(e.clone()),
        }
    }
}

/// Reads a POD tensor straight into a fresh aligned buffer, checksumming
/// each chunk while it is still in cache.
fn read_pod(
    file: &File,
    name: &str,
    offset: u64,
    dec: &Decode<'_>,
    dtype: DataType,
    shape: &TensorShape,
) -> Result<Tensor> {
    let size = crate::tensor::byte_len(dtype, shape.num_elements())?;
    if size >= LARGE {
        // The read policy: a huge-page buffer the read fills, no zeroing.
        let mut buf = ReadBuf::new(size)?;
        fill_pod(file, name, offset, dec, dtype, buf.as_mut_slice())?;
        let bytes = buf.freeze().map_err(|e| Error::io(name, &e))?;
        return Tensor::from_buffer(dtype, shape.clone(), bytes);
    }
    let mut t = Tensor::new(dtype, shape.clone())?;
    fill_pod(file, name, offset, dec, dtype, t.raw_bytes_mut()?)?;
    Ok(t)
}

/// Reads a POD entry into `buf`, checksumming each chunk while it is
/// still in cache, then checks bools and swaps bytes.
fn fill_pod(
    file: &File,
    name: &str,
    offset: u64,
    dec: &Decode<'_>,
    dtype: DataType,
    buf: &mut [u8],
) -> Result<()> {
    let job = RangeRead {
        offset,
        dst: &mut *buf,
        sum: dec.verify.then_some(Checksum::Crc32c),
    };
    let crcs = read_jobs(file, vec![job]).map_err(|e| Error::io(name, &e))?;
    if let Some(&Some(crc)) = crcs.first() {
        dec.check_crc(crc, name)?;
    }
    if dtype == DataType::Bool {
        check_bools(buf).map_err(|m| dec.loss(m))?;
    }
    if dec.swap {
        swap_bytes(buf, dtype);
    }
    Ok(())
}

fn open_shard(path: &Path, mode: Mode) -> Shard {
    let name = path.display().to_string();
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Shard::Missing(Error::not_found("data file not found").with_path(name));
        }
        Err(e) => return Shard::Missing(Error::io(&name, &e)),
    };
    let len = match file.metadata() {
        Ok(m) => m.len(),
        Err(e) => return Shard::Missing(Error::io(&name, &e)),
    };
    match mode {
        Mode::Read => Shard::File { file, len, name },
        Mode::Mmap => map_shard(file, name),
    }
}

fn map_shard(file: File, name: String) -> Shard {
    // SAFETY: `open_mmap`'s caller promises the file is not modified or
    // truncated while the mapping (held by the returned `Bytes`) lives.
    match unsafe { crate::io::BytesBlob::map_file(&file, &name) } {
        Ok(blob) => Shard::Bytes {
            bytes: blob.into_bytes(),
            name,
        },
        Err(e) => Shard::Missing(e),
    }
}

/// The entry's dtype and shape, checked.
fn entry_meta(key: &str, entry: &pb::BundleEntryProto) -> Result<(DataType, TensorShape)> {
    let dtype = DataType::from_i32(entry.dtype);
    if !dtype.is_valid_tensor_dtype() {
        return Err(bad(format!("key {key:?}: invalid dtype {dtype}")));
    }
    let shape = match &entry.shape {
        Some(s) => TensorShape::from_proto(s),
        None => Ok(TensorShape::scalar()),
    }
    .map_err(|e| bad(format!("key {key:?}: {e}")))?;
    Ok((dtype, shape))
}

/// Checks `header.version` as TF's `CheckVersions` does.
fn check_version(header: &pb::BundleHeaderProto, file: &str) -> Result<()> {
    let Some(v) = &header.version else {
        return Ok(());
    };
    if v.min_consumer > BUNDLE_VERSION {
        return Err(bad(format!("Checkpoint min consumer version {} above current version {BUNDLE_VERSION} for TensorFlow",
            v.min_consumer)).with_path(file));
    }
    if v.producer < 0 {
        return Err(bad(format!(
            "Checkpoint producer version {} below min producer 0 supported by TensorFlow",
            v.producer
        ))
        .with_path(file));
    }
    if v.bad_consumers.contains(&BUNDLE_VERSION) {
        return Err(bad(format!(
            "Checkpoint disallows consumer version {BUNDLE_VERSION}"
        ))
        .with_path(file));
    }
    Ok(())
}

/// Copies the overlap `inter` of a stored slice `src` (starting at
/// `src_start`) into `dst` (the requested slice, starting at `dst_start`).
fn copy_into(
    src: &Tensor,
    src_start: &[i64],
    dst: &mut Tensor,
    dst_start: &[i64],
    inter: &[(i64, i64)],
) -> Result<()> {
    let src_dims = src.shape().dim_sizes();
    let dst_dims = dst.shape().dim_sizes();
    let dtype = src.dtype();
    if dtype.can_use_memcpy() {
        // Bytes, with each element as an extra innermost dimension.
        let size = dtype.size() as i64;
        let ext = |v: &[i64], last: i64| v.iter().copied().chain([last]).collect::<Vec<_>>();
        let mut inter = inter.to_vec();
        inter.push((0, size));
        return copy_overlap(
            src.tensor_data()?,
            &ext(src_start, 0),
            &ext(&src_dims, size),
            dst.raw_bytes_mut()?,
            &ext(dst_start, 0),
            &ext(&dst_dims, size),
            &inter,
        );
    }
    match dtype {
        DataType::String => copy_overlap(
            src.as_slice::<Bytes>()?,
            src_start,
            &src_dims,
            dst.as_mut_slice::<Bytes>()?,
            dst_start,
            &dst_dims,
            inter,
        ),
        DataType::Variant => copy_overlap(
            src.as_slice::<crate::element::Variant>()?,
            src_start,
            &src_dims,
            dst.as_mut_slice::<crate::element::Variant>()?,
            dst_start,
            &dst_dims,
            inter,
        ),
        other => Err(Error::unsupported(
            other,
            format!("Dtype {other} not supported."),
        )),
    }
}
