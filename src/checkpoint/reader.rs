//! [`BundleReader`]: TF's `BundleReader` (and the lookups of
//! `CheckpointReader`) over a `.index` table and its `.data` shards, read
//! through a [`Store`]: the `.index` first, whole, then each tensor as one
//! range of its shard (or, for [`BundleReader::load`], every tensor of a
//! shard in one call of ranges).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::{Blob, BytesBlob, LocalFs, Store};
use crate::pb;
use crate::proto::FromProtoOptions;
use crate::shape::TensorShape;
use crate::tensor::Tensor;

use super::entry::Decode;
use super::index::{self, entry_meta};
use super::load::{Span, load_shard};
use super::naming::{data_key, find_prefix_in, index_key};
use super::shard::{Shard, is_not_found, spans_of};
use super::slice::TensorSlice;
use crate::crc32c;

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
    pub(super) prefix: String,
    /// Every entry but the header, in key order.
    pub(super) entries: Vec<(Vec<u8>, pb::BundleEntryProto)>,
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
        Self::open_in(LocalFs::shared(), &path.as_ref().to_string_lossy())
    }

    /// Opens the bundle `key` names in `store` (a prefix, an `.index`, a
    /// checkpoint or SavedModel folder, resolved as [`open`](Self::open)
    /// resolves a path): the `.index` is read whole, and each tensor is
    /// read by range from its shard when asked for, so the same reader
    /// serves a local folder and an object store.
    ///
    /// # Errors
    /// As [`open`](Self::open).
    ///
    /// ```
    /// use tftensor::checkpoint::BundleReader;
    /// use tftensor::io::LocalFs;
    /// let r = BundleReader::open_in(std::sync::Arc::new(LocalFs::new()), "tests/data/checkpoints/tf2_keras")?;
    /// assert!(r.keys().count() > 0);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn open_in(store: Arc<dyn Store>, key: &str) -> Result<BundleReader> {
        let (prefix, _) = find_prefix_in(&*store, key)?;
        Self::open_prefix(&*store, &prefix, &|k| store.open(k))
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
        let store = LocalFs::new();
        let (prefix, _) = find_prefix_in(&store, &path.as_ref().to_string_lossy())?;
        Self::open_prefix(&store, &prefix, &|k| {
            // SAFETY: forwarded to the caller (this function's contract).
            unsafe { store.open_mapped(k) }.unwrap_or_else(|| store.open(k))
        })
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
        Self::open(path)?.load_shards()
    }

    /// [`load`](Self::load) for the bundle `key` names in `store`: the
    /// `.index` first, then each shard in one [`Blob::read_ranges`] call,
    /// one range per entry in file order (a remote store merges adjacent
    /// ones into few large requests).
    ///
    /// # Errors
    /// As [`load`](Self::load).
    ///
    /// ```
    /// use tftensor::checkpoint::BundleReader;
    /// use tftensor::io::LocalFs;
    /// let r = BundleReader::load_in(std::sync::Arc::new(LocalFs::new()), "tests/data/checkpoints/sharded/ckpt")?;
    /// assert!(r.keys().all(|k| r.get(k).is_ok()));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn load_in(store: Arc<dyn Store>, key: &str) -> Result<BundleReader> {
        Self::open_in(store, key)?.load_shards()
    }

    /// Reads every shard read by range once, whole, into one buffer each.
    /// Mapped and missing shards stay as they are.
    fn load_shards(mut self) -> Result<BundleReader> {
        for (&id, shard) in &mut self.shards {
            let Shard::Blob(blob) = shard else { continue };
            if blob.mapped().is_some() {
                continue;
            }
            let spans = spans_of(self.entries.iter().map(|(_, e)| e), id);
            if let Some(loaded) = load_shard(&**blob, &spans)? {
                let blob = Arc::clone(blob);
                *shard = Shard::Loaded { loaded, blob };
            }
        }
        Ok(self)
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
        let index = index::parse(&index, "<memory>.index")?;
        let mut data: Vec<Option<Bytes>> = data.into_iter().map(Some).collect();
        let n = index.num_shards;
        let shards = index
            .shards
            .iter()
            .map(|&id| {
                let name = data_key("<memory>", id, n);
                let bytes = usize::try_from(id)
                    .ok()
                    .and_then(|i| data.get_mut(i))
                    .and_then(Option::take);
                let shard = match bytes {
                    Some(bytes) => Shard::Blob(Arc::new(BytesBlob::new(name, bytes))),
                    None => Shard::Missing(Error::not_found("no such data shard").with_path(name)),
                };
                (id, shard)
            })
            .collect();
        Ok(Self::new(index, "<memory>".to_owned(), shards))
    }

    /// Opens the bundle at `prefix` of `store`: reads the `.index`, and
    /// opens each shard it names with `open_shard` (a missing one is
    /// reported by the first read that needs it).
    pub(crate) fn open_prefix(
        store: &dyn Store,
        prefix: &str,
        open_shard: &dyn Fn(&str) -> Result<Arc<dyn Blob>>,
    ) -> Result<BundleReader> {
        let index_key = index_key(prefix);
        let blob = store.open(&index_key).map_err(|e| {
            if is_not_found(&e) {
                Error::not_found(
                    "Unsuccessful TensorSliceReader constructor: Failed to find any matching files",
                )
                .with_path(store.id(prefix))
            } else {
                e
            }
        })?;
        let index = index::parse(&blob.read_all()?, blob.id())?;
        let n = index.num_shards;
        let keys: Vec<(i32, String)> = index
            .shards
            .iter()
            .map(|&id| (id, data_key(prefix, id, n)))
            .collect();
        // A remote store learns every shard's length in one listing.
        store.prepare_open(&keys.iter().map(|(_, k)| k.clone()).collect::<Vec<_>>());
        let shards = keys
            .into_iter()
            .map(|(id, key)| (id, Shard::open(store.id(&key), open_shard(&key))))
            .collect();
        Ok(Self::new(index, store.id(prefix), shards))
    }

    fn new(index: index::Index, prefix: String, shards: BTreeMap<i32, Shard>) -> BundleReader {
        BundleReader {
            prefix,
            entries: index.entries,
            full: index.full,
            num_shards: index.num_shards,
            shards,
            swap: index.swap,
            verify: true,
            limits: FromProtoOptions::default(),
        }
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

    pub(super) fn position(&self, key: &[u8]) -> Option<usize> {
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
            .ok_or_else(|| Error::not_found("not found in checkpoint").with_key(key))
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

    /// Reads one stored entry (a full tensor or one slice).
    pub(super) fn read_entry(&self, key: &str, entry: &pb::BundleEntryProto) -> Result<Tensor> {
        let (dtype, shape) = entry_meta(key, entry)?;
        let shard = self.shards.get(&entry.shard_id).ok_or_else(|| {
            index::bad(format!(
                "shard id {} is past num_shards {}",
                entry.shard_id, self.num_shards
            ))
            .with_path(&self.prefix)
            .with_key(key)
        })?;
        let len = shard.len()?;
        let span = match (u64::try_from(entry.offset), u64::try_from(entry.size)) {
            (Ok(offset), Ok(size)) if offset.checked_add(size).is_some_and(|end| end <= len) => {
                Span { offset, size }
            }
            _ => {
                let err = Error::data_loss(format!(
                    "offset {} + size {} runs past the end of the data file ({len} bytes)",
                    entry.offset, entry.size
                ))
                .with_key(key);
                return Err(match shard.id() {
                    Some(id) => err.with_path(id),
                    None => err,
                });
            }
        };
        check_size(dtype, &shape, span.size).map_err(|e| e.with_key(key))?;
        let dec = Decode {
            key,
            dtype,
            shape: &shape,
            crc: crc32c::unmask(entry.crc32c),
            swap: self.swap,
            verify: self.verify,
            opts: &self.limits,
        };
        shard.read(span, &dec)
    }
}

/// Checks an entry's stored size against its dtype and shape: exact for
/// POD dtypes, at least a byte per element for strings and variants.
fn check_size(dtype: DataType, shape: &TensorShape, size: u64) -> Result<()> {
    let n = shape.num_elements();
    if dtype.can_use_memcpy() {
        let expected = crate::tensor::byte_len(dtype, n).ok().map(|b| b as u64);
        if expected != Some(size) {
            return Err(Error::data_loss(format!(
                "Invalid size in bundle entry: stored size {size}; expected size {}",
                expected.map_or_else(|| "overflows".to_owned(), |e| e.to_string())
            )));
        }
    } else if (n as u64) > size {
        return Err(Error::data_loss(format!(
            "Invalid size in bundle entry: stored size {size}; expected size is at least {n}"
        )));
    }
    Ok(())
}
