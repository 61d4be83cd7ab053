//! `.npz`: a zip archive of `.npy` members, as `np.savez` (stored) and
//! `np.savez_compressed` (deflated) write it. Members are read one at a time,
//! when asked for.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufReader, BufWriter, Cursor, Read, Seek, Write};
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use super::{read, write};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::{Blob, BytesBlob, LocalFile, SharedBlobReader, Window};
use crate::shape::TensorShape;
use crate::tensor::Tensor;

/// DEFLATE's best case is about 1032:1; a member that claims more than this
/// over its compressed size is lying, and is refused before its size is
/// allocated.
const MAX_DEFLATE_RATIO: u64 = 1032;

fn zip_err(what: &str, e: ZipError) -> Error {
    match e {
        // A blob's own error (located, perhaps data loss), as the zip
        // reader passed it on.
        ZipError::Io(io) => match io.get_ref().and_then(|e| e.downcast_ref::<Error>()) {
            Some(inner) => inner.clone(),
            None => Error::io(what, &io),
        },
        ZipError::FileNotFound => Error::not_found("npz: member not found").with_path(what),
        other => Error::invalid_format("npz", other.to_string()).with_path(what),
    }
}

/// Reads the arrays of an `.npz` archive lazily, one member at a time.
///
/// Keys are the member names with `.npy` removed, as `np.load` gives them.
/// Stored (`np.savez`) and deflated (`np.savez_compressed`) members are
/// read; each member's sizes are checked against the archive before
/// anything is allocated.
///
/// ```
/// use tftensor::npy::{NpzReader, NpzWriter};
/// use tftensor::Tensor;
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let dir = tmp.path().join("npz-doc");
/// # std::fs::create_dir_all(&dir)?;
/// let path = dir.join("arrays.npz");
/// let mut w = NpzWriter::create(&path)?;
/// w.add("x", &Tensor::from_vec([2], vec![1.5f32, 2.5])?)?;
/// w.add("labels", &Tensor::from_vec([1], vec![7i64])?)?;
/// w.finish()?;
///
/// let mut r = NpzReader::open(&path)?;
/// assert_eq!(r.names().collect::<Vec<_>>(), ["x", "labels"]);
/// assert_eq!(r.get("x")?.as_slice::<f32>()?, &[1.5, 2.5]);
/// assert!(r.get("missing").is_err());
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct NpzReader<R: Read + Seek = BufReader<SharedBlobReader>> {
    archive: ZipArchive<R>,
    /// (key, member index), in archive order.
    keys: Vec<(String, usize)>,
    /// The archive's bytes by range, when the reader reads a blob: stored
    /// members are then read in place, as windows of it (adopted without
    /// a copy when it is mapped or in memory; large ones read on two cores
    /// from a local file, [`read::from_window`]).
    blob: Option<Arc<dyn Blob>>,
    what: String,
}

impl NpzReader {
    /// Opens the archive at `path` (reads only its central directory).
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be opened; [`Error::InvalidFormat`]
    /// if it is not a zip archive.
    ///
    /// ```
    /// let err = tftensor::npy::NpzReader::open("/nonexistent.npz").err().unwrap();
    /// assert!(matches!(err, tftensor::Error::Io { .. }));
    /// ```
    pub fn open<P: AsRef<Path>>(path: P) -> Result<NpzReader> {
        NpzReader::from_blob(Arc::new(LocalFile::open(path)?))
    }

    /// Reads the archive in `blob` (a file, a map, a zip member, an
    /// object): the zip directory through a reader over the blob, stored
    /// members in place as windows of it, deflated ones streamed.
    ///
    /// # Errors
    /// As [`open`](NpzReader::open).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tftensor::io::LocalFile;
    /// use tftensor::npy::NpzReader;
    /// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
    /// # let p = tmp.path().join("blob.npz");
    /// # let mut w = tftensor::npy::NpzWriter::create(&p)?;
    /// # w.add("x", &tftensor::Tensor::from(1.5f32))?;
    /// # w.finish()?;
    /// let mut r = NpzReader::from_blob(Arc::new(LocalFile::open(&p)?))?;
    /// assert_eq!(r.get("x")?.as_slice::<f32>()?, &[1.5]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_blob(blob: Arc<dyn Blob>) -> Result<NpzReader> {
        let what = blob.id().to_owned();
        let reader = BufReader::new(SharedBlobReader::new(Arc::clone(&blob)));
        NpzReader::with_name(reader, what, Some(blob))
    }
}

impl NpzReader<Cursor<Bytes>> {
    /// Reads an archive held in memory. Stored members whose data is
    /// element-aligned in `bytes` are adopted without a copy (their CRC is
    /// then not checked; deflated members are checked as they inflate).
    ///
    /// ```
    /// use tftensor::npy::{NpzReader, NpzWriter};
    /// use tftensor::Tensor;
    /// let mut w = NpzWriter::new(std::io::Cursor::new(Vec::new()), false);
    /// w.add("a", &Tensor::from_vec([3], vec![1u16, 2, 3])?)?;
    /// let bytes = w.finish_into()?.into_inner();
    /// let mut r = NpzReader::from_bytes(bytes.into())?;
    /// assert_eq!(r.get("a")?.as_slice::<u16>()?, &[1, 2, 3]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_bytes(bytes: Bytes) -> Result<Self> {
        let what = "<npz bytes>";
        let blob = Arc::new(BytesBlob::new(what, bytes.clone()));
        NpzReader::with_name(Cursor::new(bytes), what.into(), Some(blob))
    }
}

impl<R: Read + Seek> NpzReader<R> {
    /// Reads an archive from any seekable reader; `name` is used in error
    /// messages.
    ///
    /// ```
    /// use tftensor::npy::NpzReader;
    /// let r = NpzReader::new(std::io::Cursor::new(b"not a zip".to_vec()), "x.npz");
    /// assert!(matches!(r.err().unwrap(), tftensor::Error::InvalidFormat { .. }));
    /// ```
    pub fn new(reader: R, name: &str) -> Result<Self> {
        NpzReader::with_name(reader, name.to_string(), None)
    }

    fn with_name(reader: R, what: String, blob: Option<Arc<dyn Blob>>) -> Result<Self> {
        let archive = ZipArchive::new(reader).map_err(|e| zip_err(&what, e))?;
        // Directory entries hold no array; `.npy` is dropped from keys as
        // `np.load` does.
        let keys = (0..archive.len())
            .filter_map(|i| {
                let name = archive.name_for_index(i)?;
                (!name.ends_with('/'))
                    // As np.load: `.npy` dropped, other names kept whole.
                    .then(|| (name.strip_suffix(".npy").unwrap_or(name).to_string(), i))
            })
            .collect();
        Ok(NpzReader {
            archive,
            keys,
            blob,
            what,
        })
    }

    /// The array names (member names without `.npy`), in archive order.
    ///
    /// ```
    /// use tftensor::npy::{NpzReader, NpzWriter};
    /// let mut w = NpzWriter::new(std::io::Cursor::new(Vec::new()), true);
    /// w.add("b", &tftensor::Tensor::from(1.0f64))?;
    /// let r = NpzReader::from_bytes(w.finish_into()?.into_inner().into())?;
    /// assert_eq!(r.names().collect::<Vec<_>>(), ["b"]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.keys.iter().map(|(k, _)| k.as_str())
    }

    /// The number of arrays.
    ///
    /// ```
    /// let w = tftensor::npy::NpzWriter::new(std::io::Cursor::new(Vec::new()), false);
    /// let r = tftensor::npy::NpzReader::from_bytes(w.finish_into()?.into_inner().into())?;
    /// assert_eq!(r.len(), 0);
    /// assert!(r.is_empty());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the archive holds no arrays.
    ///
    /// ```
    /// let w = tftensor::npy::NpzWriter::new(std::io::Cursor::new(Vec::new()), false);
    /// let r = tftensor::npy::NpzReader::from_bytes(w.finish_into()?.into_inner().into())?;
    /// assert!(r.is_empty());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Reads the array `name` (with or without `.npy`).
    ///
    /// # Errors
    /// [`Error::NotFound`] for a name the archive lacks; the errors of
    /// [`read_npy`](super::read_npy) for a bad member; [`Error::InvalidFormat`]
    /// for a member whose sizes cannot be right or a CRC mismatch.
    ///
    /// ```
    /// use tftensor::npy::{NpzReader, NpzWriter};
    /// let mut w = NpzWriter::new(std::io::Cursor::new(Vec::new()), true);
    /// w.add("s", &tftensor::Tensor::from_vec([2], vec![bytes::Bytes::from("ab"), "c".into()])?)?;
    /// let mut r = NpzReader::from_bytes(w.finish_into()?.into_inner().into())?;
    /// assert_eq!(r.get("s.npy")?.as_slice::<bytes::Bytes>()?[1], "c");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn get(&mut self, name: &str) -> Result<Tensor> {
        self.get_impl(name, None)
    }

    /// Reads the array `name` as `dtype`: needed for ml_dtypes arrays,
    /// which NumPy stores as opaque `V1`/`V2` (see
    /// [`read_npy_as`](super::read_npy_as)).
    ///
    /// ```
    /// use tftensor::npy::{NpzReader, NpzWriter};
    /// use tftensor::{DataType, Tensor};
    /// let mut w = NpzWriter::new(std::io::Cursor::new(Vec::new()), false);
    /// w.add("w", &Tensor::from_vec([1], vec![half::bf16::from_f32(1.5)])?)?;
    /// let mut r = NpzReader::from_bytes(w.finish_into()?.into_inner().into())?;
    /// assert!(r.get("w").is_err()); // '<V2' needs the dtype
    /// assert_eq!(r.get_as("w", DataType::BFloat16)?.as_slice::<half::bf16>()?[0].to_f32(), 1.5);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn get_as(&mut self, name: &str, dtype: DataType) -> Result<Tensor> {
        self.get_impl(name, Some(dtype))
    }

    /// The array `name` (with or without `.npy`) names, and its member's
    /// index.
    fn index_of(&self, name: &str) -> Result<(String, usize)> {
        let key = name.strip_suffix(".npy").unwrap_or(name);
        let (key, index) = self.keys.iter().find(|(k, _)| k == key).ok_or_else(|| {
            Error::not_found("npz: no such array")
                .with_path(&self.what)
                .with_key(name)
        })?;
        Ok((key.clone(), *index))
    }

    /// The dtype and shape of array `name`, from its `.npy` header alone
    /// (the data is not read); an opaque (`V`) array as `as_dtype`.
    ///
    /// ```
    /// use tftensor::npy::{NpzReader, NpzWriter};
    /// use tftensor::{DataType, Tensor};
    /// let mut w = NpzWriter::new(std::io::Cursor::new(Vec::new()), true);
    /// w.add("w", &Tensor::new(DataType::Float, [2, 3])?)?;
    /// let mut r = NpzReader::from_bytes(w.finish_into()?.into_inner().into())?;
    /// let (dtype, shape) = r.dtype_and_shape("w", None)?;
    /// assert_eq!((dtype, shape.dim_sizes()), (DataType::Float, vec![2, 3]));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn dtype_and_shape(
        &mut self,
        name: &str,
        as_dtype: Option<DataType>,
    ) -> Result<(DataType, TensorShape)> {
        let (key, index) = self.index_of(name)?;
        let what = self.what.as_str();
        let mut member = self
            .archive
            .by_index(index)
            .map_err(|e| zip_err(what, e).with_key(&key))?;
        let (size, _) = check_member(&member, what).map_err(|e| e.with_key(&key))?;
        read::dtype_and_shape(&mut member, size, as_dtype, what).map_err(|e| e.with_key(&key))
    }

    fn get_impl(&mut self, name: &str, as_dtype: Option<DataType>) -> Result<Tensor> {
        let (key, index) = self.index_of(name)?;
        let what = self.what.as_str();
        let mut member = self
            .archive
            .by_index(index)
            .map_err(|e| zip_err(what, e).with_key(&key))?;
        let (size, _) = check_member(&member, what).map_err(|e| e.with_key(&key))?;
        // A stored member of a blob: read in place, as a window of it.
        if let (Some(blob), CompressionMethod::Stored, Some(start)) =
            (&self.blob, member.compression(), member.data_start())
        {
            let window =
                Window::new(Arc::clone(blob), start, size, what).map_err(|e| e.with_key(&key))?;
            // Mapped or in memory: adopted without a copy.
            if let Some(bytes) = window.mapped() {
                return read::from_bytes(bytes, as_dtype, what).map_err(|e| e.with_key(&key));
            }
            // A large one: one read on two cores, its CRC-32 taken as it
            // arrives.
            if size >= LARGE_MEMBER {
                let t = read::from_window(&window, member.crc32(), as_dtype, what)
                    .map_err(|e| e.with_key(&key))?;
                if let Some(t) = t {
                    return Ok(t);
                }
            }
        }
        read_member(&mut member, size, as_dtype, what).map_err(|e| e.with_key(&key))
    }
}

/// A member through the zip reader (deflated, or stored and small), read
/// to its end so the zip reader checks the CRC and any bytes beyond the
/// declared data show up.
fn read_member<R: Read>(
    member: &mut zip::read::ZipFile<'_, R>,
    size: u64,
    as_dtype: Option<DataType>,
    what: &str,
) -> Result<Tensor> {
    let t = read::from_reader(member, size, as_dtype, what)?;
    let mut rest = [0u8; 1];
    match member.read(&mut rest) {
        Ok(0) => Ok(t),
        Ok(_) => Err(
            Error::invalid_format("npz", "more bytes than the member's declared size")
                .with_path(what),
        ),
        // The zip reader's CRC check (or a deflate stream's): damage.
        Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
            Err(Error::data_loss(format!("npz: {e}")).with_path(what))
        }
        Err(e) => Err(Error::invalid_format("npz", e.to_string()).with_path(what)),
    }
}

/// Stored members at least this large, of an archive read by range, are
/// read by [`read::from_window`].
const LARGE_MEMBER: u64 = 16 << 20;

/// A member's size and compressed size, refused when they cannot be right
/// or the compression is not one `np.savez` writes.
fn check_member<R: Read>(member: &zip::read::ZipFile<'_, R>, what: &str) -> Result<(u64, u64)> {
    let (size, compressed) = (member.size(), member.compressed_size());
    match member.compression() {
        CompressionMethod::Stored if size == compressed => {}
        CompressionMethod::Deflated
            if size
                <= compressed
                    .saturating_mul(MAX_DEFLATE_RATIO)
                    .saturating_add(1024) => {}
        CompressionMethod::Stored | CompressionMethod::Deflated => {
            return Err(Error::invalid_format(
                "npz",
                format!(
                    "declares {size} bytes from {compressed} compressed bytes, which cannot be"
                ),
            )
            .with_path(what));
        }
        other => {
            return Err(
                Error::invalid_format("npz", format!("unsupported compression {other}"))
                    .with_path(what),
            );
        }
    }
    Ok((size, compressed))
}

/// Writes an `.npz` archive, one array at a time.
///
/// [`NpzWriter::create`] stores members as `np.savez` does;
/// [`NpzWriter::create_compressed`] deflates them as `np.savez_compressed`
/// does. Each array becomes the member `<name>.npy`, written as
/// [`write_npy`](super::write_npy) writes it. Stored members start
/// 64-byte aligned in the archive, so a memory-mapped archive can be read
/// without copies.
///
/// ```
/// use tftensor::npy::{NpzReader, NpzWriter};
/// use tftensor::Tensor;
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let dir = tmp.path().join("npz-doc2");
/// # std::fs::create_dir_all(&dir)?;
/// let path = dir.join("small.npz");
/// let mut w = NpzWriter::create_compressed(&path)?;
/// w.add("zeros", &Tensor::new(tftensor::DataType::Float, [1000])?)?;
/// w.finish()?;
/// assert!(std::fs::metadata(&path)?.len() < 1000);
/// assert_eq!(NpzReader::open(&path)?.get("zeros")?.num_elements(), 1000);
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct NpzWriter<W: Write + Seek = BufWriter<File>> {
    zip: ZipWriter<W>,
    compressed: bool,
    names: HashSet<String>,
    what: String,
}

impl NpzWriter {
    /// Creates (or truncates) `path` for an archive of stored members.
    ///
    /// # Errors
    /// [`Error::Io`] if the file cannot be created.
    ///
    /// ```
    /// assert!(tftensor::npy::NpzWriter::create("/nonexistent-dir/x.npz").is_err());
    /// ```
    pub fn create<P: AsRef<Path>>(path: P) -> Result<NpzWriter> {
        Self::create_with(path.as_ref(), false)
    }

    /// Creates (or truncates) `path` for an archive of deflated members.
    ///
    /// ```
    /// assert!(tftensor::npy::NpzWriter::create_compressed("/nonexistent-dir/x.npz").is_err());
    /// ```
    pub fn create_compressed<P: AsRef<Path>>(path: P) -> Result<NpzWriter> {
        Self::create_with(path.as_ref(), true)
    }

    fn create_with(path: &Path, compressed: bool) -> Result<NpzWriter> {
        let what = path.display().to_string();
        let file = File::create(path).map_err(|e| Error::io(&what, &e))?;
        let mut w = NpzWriter::new(BufWriter::new(file), compressed);
        w.what = what;
        Ok(w)
    }

    /// Writes the central directory and flushes the file.
    ///
    /// ```
    /// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
    /// # let p = tmp.path().join("npz-doc3.npz");
    /// tftensor::npy::NpzWriter::create(&p)?.finish()?;
    /// assert_eq!(tftensor::npy::NpzReader::open(&p)?.len(), 0);
    /// # std::fs::remove_file(&p).ok();
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn finish(self) -> Result<()> {
        let what = self.what.clone();
        let mut w = self.finish_into()?;
        w.flush().map_err(|e| Error::io(&what, &e))
    }
}

impl<W: Write + Seek> NpzWriter<W> {
    /// An archive writer over any seekable writer; `compressed` deflates
    /// the members.
    ///
    /// ```
    /// let w = tftensor::npy::NpzWriter::new(std::io::Cursor::new(Vec::new()), false);
    /// let bytes = w.finish_into()?.into_inner();
    /// assert_eq!(&bytes[..4], b"PK\x05\x06"); // an empty archive
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn new(writer: W, compressed: bool) -> Self {
        NpzWriter {
            zip: ZipWriter::new(writer),
            compressed,
            names: HashSet::new(),
            what: "<npz>".to_string(),
        }
    }

    /// Adds `tensor` as the member `<name>.npy`.
    ///
    /// # Errors
    /// A name used before ([`Error::InvalidArgument`]); a dtype `.npy`
    /// cannot hold (resource, variant: [`Error::UnsupportedDataType`]); a
    /// string ending in a NUL byte; I/O errors.
    ///
    /// ```
    /// let mut w = tftensor::npy::NpzWriter::new(std::io::Cursor::new(Vec::new()), false);
    /// w.add("a", &tftensor::Tensor::from(1i32))?;
    /// assert!(w.add("a", &tftensor::Tensor::from(2i32)).is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        if !self.names.insert(name.to_string()) {
            return Err(
                Error::InvalidArgument("npz: the name was already added".into())
                    .with_path(&self.what)
                    .with_key(name),
            );
        }
        let header = write::header_for(tensor)?;
        let total = write::encoded_len(tensor, header.len())?;
        let options = SimpleFileOptions::default()
            .large_file(total >= u64::from(u32::MAX))
            .compression_method(if self.compressed {
                CompressionMethod::Deflated
            } else {
                CompressionMethod::Stored
            });
        let options = if self.compressed {
            options
        } else {
            options.with_alignment(64)
        };
        let member = format!("{name}.npy");
        let what = self.what.as_str();
        self.zip
            .start_file(member.as_str(), options)
            .map_err(|e| zip_err(what, e))
            .and_then(|()| write::write_to(&mut self.zip, tensor, &header, what))
            .map_err(|e| e.with_key(member))
    }

    /// Writes the central directory and hands back the writer.
    ///
    /// ```
    /// let mut w = tftensor::npy::NpzWriter::new(std::io::Cursor::new(Vec::new()), false);
    /// w.add("x", &tftensor::Tensor::from(1u8))?;
    /// assert!(w.finish_into()?.into_inner().starts_with(b"PK\x03\x04"));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn finish_into(self) -> Result<W> {
        self.zip.finish().map_err(|e| zip_err(&self.what, e))
    }
}
