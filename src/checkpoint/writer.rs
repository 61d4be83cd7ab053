//! [`BundleWriter`]: TF's `BundleWriter`, writing the same bytes.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use prost::Message;

use crate::crc32c;
use crate::error::{Error, Result};
use crate::pb;
use crate::shape::TensorShape;
use crate::tensor::Tensor;

use super::entry::encode;
use super::index::BUNDLE_VERSION;
use super::naming::{data_path, index_path};
use super::slice::{TensorSlice, encode_tensor_name_slice};
use super::table;

/// Buffer in front of the data file (TF's `FileOutputBuffer` uses 8 MiB;
/// larger writes bypass it).
const WRITE_BUFFER: usize = 1 << 20;

enum Out {
    File {
        data: BufWriter<File>,
        tmp_data: PathBuf,
        prefix: PathBuf,
    },
    Memory(Vec<u8>),
}

/// Writes a TensorFlow tensor bundle (checkpoint V2) that TF reads, and
/// whose `.index` is byte-identical to the one TF writes for the same
/// tensors (the `.data` too, given the same `add` order).
///
/// Data goes to a temporary file next to the prefix; [`finish`](Self::finish)
/// syncs it, renames it, then writes the `.index` the same way. A writer
/// dropped before `finish` removes its temporary file and leaves the prefix
/// untouched.
///
/// ```
/// use tftensor::checkpoint::{BundleReader, BundleWriter, TensorSlice};
/// use tftensor::{Tensor, TensorShape};
///
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let dir = tmp.path().join("writer");
/// let prefix = dir.join("model");
/// let mut w = BundleWriter::new(&prefix)?;
/// w.add("bias", &Tensor::from_vec([2], vec![0.5f32, -0.5])?)?;
/// // A [4] tensor stored as two slices, as TF1's partitioned variables are.
/// let full = TensorShape::new(&[4])?;
/// w.add_slice("part", &full, &"0,2".parse()?, &Tensor::from_vec([2], vec![1i32, 2])?)?;
/// w.add_slice("part", &full, &"2,2".parse()?, &Tensor::from_vec([2], vec![3i32, 4])?)?;
/// w.finish()?;
///
/// let r = BundleReader::open(&prefix)?;
/// assert_eq!(r.keys().collect::<Vec<_>>(), ["bias", "part"]);
/// assert_eq!(r.get("part")?.as_slice::<i32>()?, &[1, 2, 3, 4]);
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub struct BundleWriter {
    out: Option<Out>,
    entries: BTreeMap<Vec<u8>, pb::BundleEntryProto>,
    size: u64,
    /// The first error; every later call returns it (TF's `status_`).
    failed: Option<Error>,
}

impl std::fmt::Debug for BundleWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BundleWriter")
            .field("entries", &self.entries.len())
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

/// A random suffix for temporary names (TF: `".tempstate" + random::New64()`).
fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.finish()
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

impl BundleWriter {
    /// Starts a bundle at `prefix` (`dir/ckpt-1` writes `dir/ckpt-1.index`
    /// and `dir/ckpt-1.data-00000-of-00001`), creating `dir` if needed.
    ///
    /// # Errors
    /// [`Error::Io`] if the directory or the temporary data file cannot be
    /// created.
    ///
    /// ```
    /// let err = tftensor::checkpoint::BundleWriter::new("/proc/no/such/dir/x").unwrap_err();
    /// assert!(matches!(err, tftensor::Error::Io { .. }));
    /// ```
    pub fn new<P: AsRef<Path>>(prefix: P) -> Result<BundleWriter> {
        let prefix = prefix.as_ref().to_path_buf();
        if let Some(dir) = prefix.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir.display(), &e))?;
        }
        let tmp_data = with_suffix(
            &data_path(&prefix, 0, 1),
            &format!(".tempstate{}", random_u64()),
        );
        let file = File::create(&tmp_data).map_err(|e| Error::io(tmp_data.display(), &e))?;
        Ok(BundleWriter {
            out: Some(Out::File {
                data: BufWriter::with_capacity(WRITE_BUFFER, file),
                tmp_data,
                prefix,
            }),
            entries: BTreeMap::new(),
            size: 0,
            failed: None,
        })
    }

    /// A writer that keeps the bundle in memory; take it with
    /// [`finish_to_bytes`](Self::finish_to_bytes).
    ///
    /// ```
    /// let mut w = tftensor::checkpoint::BundleWriter::in_memory();
    /// w.add("x", &tftensor::Tensor::from(1u8))?;
    /// let (index, data) = w.finish_to_bytes()?;
    /// assert_eq!(data, [1]);
    /// assert_eq!(&index[index.len() - 8..], &[0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn in_memory() -> BundleWriter {
        BundleWriter {
            out: Some(Out::Memory(Vec::new())),
            entries: BTreeMap::new(),
            size: 0,
            failed: None,
        }
    }

    fn check(&self) -> Result<()> {
        match &self.failed {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// Appends `tensor` to the data file under `key`. Keys may come in any
    /// order; the `.index` is sorted as TF sorts it.
    ///
    /// # Errors
    /// An empty or duplicate key (TF: `"Adding duplicate key: k"`), a
    /// resource tensor (TF cannot save those either), or an I/O error, after
    /// which the writer refuses further calls.
    ///
    /// ```
    /// let mut w = tftensor::checkpoint::BundleWriter::in_memory();
    /// w.add("k", &tftensor::Tensor::from(1i32))?;
    /// assert!(w.add("k", &tftensor::Tensor::from(2i32)).is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn add(&mut self, key: &str, tensor: &Tensor) -> Result<()> {
        self.check()?;
        if key.is_empty() {
            return Err(Error::InvalidArgument(
                "the empty key is reserved for the bundle header".to_owned(),
            ));
        }
        self.add_bytes_key(key.as_bytes().to_vec(), tensor)
    }

    fn add_bytes_key(&mut self, key: Vec<u8>, tensor: &Tensor) -> Result<()> {
        if self.entries.contains_key(&key) {
            return Err(Error::InvalidArgument(format!(
                "Adding duplicate key: {}",
                String::from_utf8_lossy(&key)
            )));
        }
        let offset = self.size;
        let result = match self.out.as_mut() {
            Some(Out::File { data, tmp_data, .. }) => {
                let name = tmp_data.display().to_string();
                encode(tensor, &mut |b| {
                    data.write_all(b).map_err(|e| Error::io(&name, &e))
                })
            }
            Some(Out::Memory(v)) => encode(tensor, &mut |b| {
                v.try_reserve(b.len())
                    .map_err(|_| Error::AllocationFailed { bytes: b.len() })?;
                v.extend_from_slice(b);
                Ok(())
            }),
            None => Err(Error::InvalidArgument("the writer is finished".to_owned())),
        };
        let (written, crc) = match result {
            Ok(r) => r,
            Err(e) => {
                // Nothing was written for a dtype the bundle cannot hold.
                if !matches!(e, Error::UnsupportedDataType { .. }) {
                    self.failed = Some(e.clone());
                }
                return Err(e);
            }
        };
        self.size += written;
        let entry = pb::BundleEntryProto {
            dtype: tensor.dtype().as_i32(),
            shape: Some(tensor.shape().as_proto()),
            shard_id: 0,
            offset: offset as i64,
            size: written as i64,
            crc32c: crc32c::mask(crc),
            slices: Vec::new(),
        };
        self.entries.insert(key, entry);
        Ok(())
    }

    /// Adds `tensor` as the part `slice` of the partitioned tensor
    /// `full_key` of shape `full_shape` (TF's `AddSlice`). A slice that
    /// covers the whole shape is a plain [`add`](Self::add).
    ///
    /// # Errors
    /// A slice that does not fit `full_shape` or whose shape differs from
    /// `tensor`'s; a dtype or shape that differs from earlier slices of the
    /// same key; a key already added whole; and as [`add`](Self::add).
    ///
    /// ```
    /// use tftensor::{checkpoint::BundleWriter, Tensor, TensorShape};
    /// let mut w = BundleWriter::in_memory();
    /// let full = TensorShape::new(&[2, 2])?;
    /// let row = Tensor::from_vec([1, 2], vec![1.0f32, 2.0])?;
    /// w.add_slice("m", &full, &"0,1:-".parse()?, &row)?;
    /// assert!(w.add_slice("m", &full, &"1,2:-".parse()?, &row).is_err()); // past the end
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn add_slice(
        &mut self,
        full_key: &str,
        full_shape: &TensorShape,
        slice: &TensorSlice,
        tensor: &Tensor,
    ) -> Result<()> {
        self.check()?;
        if full_key.is_empty() {
            return Err(Error::InvalidArgument(
                "the empty key is reserved for the bundle header".to_owned(),
            ));
        }
        let slice_shape = slice.slice_shape(full_shape)?;
        if &slice_shape != tensor.shape() {
            return Err(Error::InvalidArgument(format!(
                "slice {slice} of {} has shape {}, but the tensor has shape {}",
                full_shape.debug_string(),
                slice_shape.debug_string(),
                tensor.shape().debug_string()
            )));
        }
        if slice.is_full()
            || (0..slice.dims()).all(|d| {
                slice.extent(d).is_some_and(|(s, l)| {
                    s == 0 && l.is_none_or(|l| Ok(l) == full_shape.dim_size(d))
                })
            })
        {
            return self.add(full_key, tensor);
        }
        let full_proto = full_shape.as_proto();
        if let Some(e) = self.entries.get(full_key.as_bytes()) {
            if e.slices.is_empty() {
                return Err(Error::InvalidArgument(format!(
                    "Adding duplicate key: {full_key}"
                )));
            }
            if e.dtype != tensor.dtype().as_i32() || e.shape.as_ref() != Some(&full_proto) {
                return Err(Error::InvalidArgument(format!(
                    "slice {slice} of {full_key} is {} {}, but earlier slices say {} {}",
                    tensor.dtype(),
                    full_shape.debug_string(),
                    crate::DataType::from_i32(e.dtype),
                    e.shape.as_ref().map_or_else(String::new, |s| format!(
                        "{:?}",
                        s.dim.iter().map(|d| d.size).collect::<Vec<_>>()
                    ))
                )));
            }
        }
        let key = encode_tensor_name_slice(full_key.as_bytes(), slice);
        self.add_bytes_key(key, tensor)?;
        let e = self
            .entries
            .entry(full_key.as_bytes().to_vec())
            .or_default();
        e.dtype = tensor.dtype().as_i32();
        e.shape = Some(full_proto);
        e.slices.push(slice.as_proto());
        Ok(())
    }

    /// The `.index` bytes: the header, then every entry in key order.
    fn index_bytes(&self) -> Vec<u8> {
        let header = pb::BundleHeaderProto {
            num_shards: 1,
            endianness: if cfg!(target_endian = "big") { 1 } else { 0 },
            version: Some(pb::VersionDef {
                producer: BUNDLE_VERSION,
                min_consumer: 0,
                bad_consumers: Vec::new(),
            }),
        }
        .encode_to_vec();
        let values: Vec<(&[u8], Vec<u8>)> = self
            .entries
            .iter()
            .map(|(k, e)| (k.as_slice(), e.encode_to_vec()))
            .collect();
        table::build(
            std::iter::once((&b""[..], header.as_slice()))
                .chain(values.iter().map(|(k, v)| (*k, v.as_slice()))),
        )
    }

    /// Finishes the bundle: syncs and renames the data file, then writes,
    /// syncs and renames the `.index`.
    ///
    /// # Errors
    /// An earlier error, or an I/O error; a writer from
    /// [`in_memory`](Self::in_memory) (use
    /// [`finish_to_bytes`](Self::finish_to_bytes)).
    ///
    /// ```
    /// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
    /// # let dir = tmp.path().join("finish");
    /// let w = tftensor::checkpoint::BundleWriter::new(dir.join("empty"))?;
    /// w.finish()?; // an empty bundle is valid
    /// assert!(dir.join("empty.index").is_file());
    /// assert!(dir.join("empty.data-00000-of-00001").is_file());
    /// # std::fs::remove_dir_all(&dir).ok();
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn finish(mut self) -> Result<()> {
        self.check()?;
        let index = self.index_bytes();
        let Some(Out::File {
            data,
            tmp_data,
            prefix,
        }) = self.out.take()
        else {
            return Err(Error::InvalidArgument(
                "an in-memory writer finishes with finish_to_bytes".to_owned(),
            ));
        };
        let result = (|| {
            let name = tmp_data.display().to_string();
            let file = data.into_inner().map_err(|e| Error::io(&name, e.error()))?;
            file.sync_all().map_err(|e| Error::io(&name, &e))?;
            drop(file);
            let final_data = data_path(&prefix, 0, 1);
            std::fs::rename(&tmp_data, &final_data)
                .map_err(|e| Error::io(final_data.display(), &e))?;
            let final_index = index_path(&prefix);
            let tmp_index = with_suffix(&final_index, &format!(".tempstate{}", random_u64()));
            let write = || -> std::io::Result<()> {
                let mut f = File::create(&tmp_index)?;
                f.write_all(&index)?;
                f.sync_all()?;
                std::fs::rename(&tmp_index, &final_index)
            };
            write().map_err(|e| {
                let _ = std::fs::remove_file(&tmp_index);
                Error::io(final_index.display(), &e)
            })
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp_data);
        }
        result
    }

    /// Finishes an [`in_memory`](Self::in_memory) writer: `(index, data)`.
    ///
    /// # Errors
    /// An earlier error, or a writer that writes to files.
    ///
    /// ```
    /// let (index, data) = tftensor::checkpoint::BundleWriter::in_memory().finish_to_bytes()?;
    /// assert!(data.is_empty());
    /// assert_eq!(index.len(), 101); // header block 22, metaindex 13, index block 18, footer 48
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn finish_to_bytes(mut self) -> Result<(Vec<u8>, Vec<u8>)> {
        self.check()?;
        let index = self.index_bytes();
        match self.out.take() {
            Some(Out::Memory(data)) => Ok((index, data)),
            other => {
                self.out = other;
                Err(Error::InvalidArgument(
                    "a file writer finishes with finish".to_owned(),
                ))
            }
        }
    }
}

impl Drop for BundleWriter {
    /// An unfinished writer removes its temporary data file.
    fn drop(&mut self) {
        if let Some(Out::File { data, tmp_data, .. }) = self.out.take() {
            // Close without flushing what is buffered, then remove.
            drop(data.into_parts());
            let _ = std::fs::remove_file(tmp_data);
        }
    }
}
