//! Opening an HDF5 file: walking its groups from the root (each object
//! once), listing datasets with their dtype and shape from headers alone,
//! and reading one dataset into a [`Tensor`].

use std::collections::HashSet;
use std::sync::Arc;

use super::attribute::{self, AttrValue};
use super::datatype::{self, Datatype};
use super::filters::{self, Filter};
use super::layout::{self, Layout};
use super::object_header::{self, Message, kind};
use super::{Cursor, Source, UNDEF, dataspace, group, invalid, superblock, unsupported};
use crate::dtype::DataType;
use crate::error::Result;
use crate::io::Blob;
use crate::shape::TensorShape;
use crate::tensor::Tensor;

/// What errors call a dataset's elements.
const DATA: &str = "the dataset's data";

/// Groups nested deeper than this are refused.
const MAX_DEPTH: usize = 64;

/// One dataset: its path, element type, shape, attributes and storage.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// The path from the root without a leading `/` (h5py's `visititems` name).
    pub path: String,
    /// The tensor dtype its elements read as.
    pub dtype: DataType,
    /// Its dimensions.
    pub shape: TensorShape,
    /// Its attributes (strings interpreted; other types as [`AttrValue::Other`]).
    pub attrs: Vec<(String, AttrValue)>,
    big_endian: bool,
    layout: Layout,
    /// The maximum dimensions (`UNDEF` for unlimited): chunk indexes number
    /// chunks over the grid of these.
    max_dims: Vec<u64>,
    filters: Vec<Filter>,
    /// A non-zero fill value: unallocated storage cannot read as zeros.
    fill_nonzero: bool,
}

impl Dataset {
    fn with_path(mut self, path: String) -> Dataset {
        self.path = path;
        self
    }

    /// The bytes its elements take in memory.
    pub fn byte_len(&self) -> u64 {
        (self.shape.num_elements() as u64).saturating_mul(self.dtype.size() as u64)
    }
}

/// An open HDF5 file: every dataset and group attribute, found at open.
#[derive(Debug)]
pub struct Hdf5File {
    src: Source,
    datasets: Vec<Dataset>,
    groups: Vec<(String, Vec<(String, AttrValue)>)>,
}

impl Hdf5File {
    /// Opens the HDF5 file held by `blob` (a local file, bytes in memory,
    /// a STORED zip member, an object in a store) and walks all of its
    /// groups.
    ///
    /// # Errors
    /// Not HDF5; truncated or corrupt metadata; a feature outside the
    /// subset ("HDF5 feature X not supported").
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tftensor::hdf5::{Hdf5File, Hdf5Writer};
    /// use tftensor::io::LocalFile;
    /// use tftensor::Tensor;
    /// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
    /// let path = tmp.path().join("h5.h5");
    /// let mut w = Hdf5Writer::create(&path)?;
    /// w.add("g/x", &Tensor::from_vec([3], vec![1i32, 2, 3])?)?;
    /// w.finish()?;
    /// let f = Hdf5File::open(Arc::new(LocalFile::open(&path)?))?;
    /// let ds = &f.datasets()[0];
    /// assert_eq!(ds.path, "g/x");
    /// assert_eq!(f.read(ds)?.as_slice::<i32>()?, &[1, 2, 3]);
    /// # std::fs::remove_file(&path).ok();
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn open(blob: Arc<dyn Blob>) -> Result<Hdf5File> {
        let src = Source::new(blob);
        let sb = superblock::read(&src)?;
        let src = src.rebase(sb.base)?;
        let mut file = Hdf5File {
            src,
            datasets: Vec::new(),
            groups: Vec::new(),
        };
        let mut seen = HashSet::new();
        file.visit(sb.root, String::new(), 0, &mut seen)?;
        Ok(file)
    }

    /// Every dataset, in h5py `visititems` order (names sorted bytewise per group).
    pub fn datasets(&self) -> &[Dataset] {
        &self.datasets
    }

    /// Every group with its attributes (the root as `""`).
    pub fn groups(&self) -> &[(String, Vec<(String, AttrValue)>)] {
        &self.groups
    }

    /// The attributes of the group at `path` (`""` for the root).
    pub fn group_attrs(&self, path: &str) -> Option<&[(String, AttrValue)]> {
        self.groups
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, a)| a.as_slice())
    }

    fn visit(
        &mut self,
        addr: u64,
        path: String,
        depth: usize,
        seen: &mut HashSet<u64>,
    ) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(
                unsupported(format!("groups nested deeper than {MAX_DEPTH}")).with_key(path),
            );
        }
        // Each object once, as H5Ovisit does: a second hard link (or a
        // link back to an ancestor) is not followed again.
        if !seen.insert(addr) {
            return Ok(());
        }
        let messages = object_header::read(&self.src, addr)?;
        if let Some(mut links) = group::links(&self.src, &messages, &path)? {
            let attrs = self.attrs(&messages)?;
            self.groups.push((path.clone(), attrs));
            links.sort_by(|a, b| a.name.cmp(&b.name));
            for l in links {
                let child = if path.is_empty() {
                    l.name
                } else {
                    format!("{path}/{}", l.name)
                };
                self.visit(l.addr, child, depth + 1, seen)?;
            }
            return Ok(());
        }
        if messages.iter().any(|m| m.kind == kind::LAYOUT) {
            let ds = self
                .dataset(&messages)
                .map_err(|e| e.with_key(&path))?
                .with_path(path);
            self.datasets.push(ds);
        }
        // Anything else (a committed datatype) holds no tensor.
        Ok(())
    }

    fn attrs(&self, messages: &[Message]) -> Result<Vec<(String, AttrValue)>> {
        let mut out = Vec::new();
        for m in messages {
            match m.kind {
                kind::ATTRIBUTE => out.push(attribute::parse(&self.src, &m.body)?),
                kind::ATTRIBUTE_INFO => {
                    let mut c = Cursor::new(&m.body, "an attribute info message");
                    c.skip(1)?;
                    let flags = c.u8()?;
                    if flags & 1 != 0 {
                        c.skip(2)?;
                    }
                    if c.u64()? != UNDEF {
                        return Err(unsupported("dense attribute storage"));
                    }
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// The dataset whose header holds `messages` (its path set by the
    /// caller, which adds it to errors).
    fn dataset(&self, messages: &[Message]) -> Result<Dataset> {
        let (mut space, mut dtype, mut layout, mut filters) = (None, None, None, Vec::new());
        let mut fill_nonzero = false;
        for m in messages {
            let shared = || Err(unsupported("shared header message"));
            match m.kind {
                kind::DATASPACE if m.is_shared() => return shared(),
                kind::DATATYPE if m.is_shared() => return shared(),
                kind::DATASPACE => {
                    space = Some(dataspace::parse_max(&mut Cursor::new(
                        &m.body,
                        "a dataspace",
                    ))?)
                }
                kind::DATATYPE => {
                    dtype = Some(datatype::parse(&mut Cursor::new(&m.body, "a datatype"))?)
                }
                kind::LAYOUT => layout = Some(layout::parse(&m.body)?),
                kind::FILTERS => filters = filters::parse(&m.body)?,
                kind::EXTERNAL => return Err(unsupported("external storage")),
                kind::FILL => fill_nonzero |= nonzero_fill(&m.body)?,
                kind::FILL_OLD => {
                    // The old message: a u32 size, then the value.
                    let mut c = Cursor::new(&m.body, "a fill value message");
                    let size = c.u32()? as usize;
                    fill_nonzero |= c.bytes(size)?.iter().any(|&b| b != 0);
                }
                k if m.flags & 0x08 != 0 && k > 0x18 => {
                    return Err(unsupported(format!("header message type {k}")));
                }
                _ => {}
            }
        }
        let (dims, max_dims) = space
            .ok_or_else(|| invalid("the dataset has no dataspace"))?
            .ok_or_else(|| unsupported("null dataspace"))?;
        let dtype = dtype.ok_or_else(|| invalid("the dataset has no datatype"))?;
        let layout = layout.ok_or_else(|| invalid("the dataset has no layout"))?;
        let attrs = self.attrs(messages)?;
        let is_bf16 = attrs
            .iter()
            .any(|(k, v)| k == "dtype" && *v == AttrValue::Str("bfloat16".into()));
        let (dt, big_endian) = match dtype {
            Datatype::Numeric { dtype, big_endian } => (dtype, big_endian),
            Datatype::Opaque { size: 2 } if is_bf16 => (DataType::BFloat16, false),
            Datatype::Opaque { size } => {
                return Err(unsupported(format!(
                    "opaque {size}-byte datatype without a dtype attribute"
                )));
            }
            Datatype::FixedString { .. } | Datatype::VlenString => {
                return Err(unsupported("string datasets"));
            }
        };
        let mut sdims = Vec::with_capacity(dims.len());
        for d in &dims {
            sdims.push(i64::try_from(*d).map_err(|_| invalid(format!("dimension {d} too large")))?);
        }
        let shape = TensorShape::new(&sdims)?;
        crate::tensor::byte_len(dt, shape.num_elements())?;
        Ok(Dataset {
            path: String::new(),
            dtype: dt,
            shape,
            attrs,
            big_endian,
            layout,
            max_dims,
            filters,
            fill_nonzero,
        })
    }

    /// Reads one dataset's elements, byte-equal to h5py's `ds[()]`.
    ///
    /// # Errors
    /// Corrupt or unsupported data, with the dataset's path as the key.
    pub fn read(&self, ds: &Dataset) -> Result<Tensor> {
        self.read_data(ds).map_err(|e| e.with_key(&ds.path))
    }

    fn read_data(&self, ds: &Dataset) -> Result<Tensor> {
        let len = ds.byte_len();
        let mut t = match &ds.layout {
            Layout::Contiguous { addr, size } => {
                if *addr == UNDEF || len == 0 {
                    check_fill(ds, len)?;
                    check_expansion(len, 0)?;
                    return Tensor::new(ds.dtype, ds.shape.clone());
                }
                if *size < len {
                    return Err(invalid(format!("{size} bytes stored for {len}")));
                }
                if !ds.filters.is_empty() {
                    return Err(unsupported("filters on contiguous data"));
                }
                self.src.check(*addr, len, DATA)?;
                if len >= super::source::LARGE {
                    let bytes = self.src.read_bytes(*addr, len, DATA)?;
                    Tensor::from_buffer(ds.dtype, ds.shape.clone(), bytes)?
                } else {
                    let mut t = Tensor::new(ds.dtype, ds.shape.clone())?;
                    self.src.read_into(*addr, t.raw_bytes_mut()?, DATA)?;
                    t
                }
            }
            Layout::Compact(data) => {
                let bytes = data
                    .get(..len as usize)
                    .ok_or_else(|| invalid("compact data too short"))?;
                let mut t = Tensor::new(ds.dtype, ds.shape.clone())?;
                t.raw_bytes_mut()?.copy_from_slice(bytes);
                t
            }
            Layout::Chunked { dims, index } => self.read_chunked(ds, dims, index)?,
        };
        if ds.big_endian || ds.dtype == DataType::Bool {
            let buf = t.raw_bytes_mut()?;
            if ds.big_endian {
                swap(buf, ds.dtype);
            }
            if ds.dtype == DataType::Bool && buf.iter().any(|&b| b > 1) {
                return Err(invalid("a bool byte other than 0 or 1"));
            }
        }
        Ok(t)
    }

    fn read_chunked(&self, ds: &Dataset, dims: &[u64], index: &layout::Index) -> Result<Tensor> {
        let shape: Vec<u64> = ds.shape.iter().map(|d| d as u64).collect();
        let elem = ds.dtype.size() as u64;
        let (cdims, last) = dims.split_at(dims.len().saturating_sub(1));
        if cdims.len() != shape.len() || last != [elem] || cdims.contains(&0) {
            return Err(invalid(format!("chunk dimensions {dims:?} do not fit")));
        }
        let chunk_bytes = cdims
            .iter()
            .try_fold(elem, |a, &d| a.checked_mul(d))
            .ok_or_else(|| invalid("chunk too large"))?;
        if ds.byte_len() == 0 {
            return Tensor::new(ds.dtype, ds.shape.clone());
        }
        let grid = layout::Grid::new(&shape, &ds.max_dims, cdims, elem)?;
        let chunks = layout::chunks(&self.src, index, &grid, !ds.filters.is_empty())?;
        let stored_of = |ch: &layout::Chunk| {
            if ds.filters.is_empty() {
                chunk_bytes
            } else {
                ch.size
            }
        };
        let total = chunks
            .iter()
            .fold(0u64, |a, ch| a.saturating_add(stored_of(ch)));
        check_expansion(ds.byte_len(), total)?;
        let mut t = Tensor::new(ds.dtype, ds.shape.clone())?;
        let out = t.raw_bytes_mut()?;
        for ch in chunks {
            let stored = stored_of(&ch);
            check_expansion(chunk_bytes, stored)?;
            let raw = self.src.read_vec(ch.addr, stored, "a chunk")?;
            let data = filters::decode(
                &ds.filters,
                ch.mask,
                raw,
                chunk_bytes as usize,
                elem as usize,
            )?;
            if data.len() as u64 != chunk_bytes {
                return Err(invalid(format!(
                    "a chunk holds {} bytes, expected {chunk_bytes}",
                    data.len()
                )));
            }
            place(out, &data, &shape, cdims, &ch.offsets, elem as usize)
                .ok_or_else(|| invalid("a chunk lies outside the dataset"))?;
        }
        Ok(t)
    }
}

/// Copies one chunk's rows into the dataset buffer (clipping at the edges).
fn place(
    out: &mut [u8],
    chunk: &[u8],
    shape: &[u64],
    cdims: &[u64],
    offsets: &[u64],
    elem: usize,
) -> Option<()> {
    let rank = shape.len();
    if offsets.len() != rank {
        return None;
    }
    if rank == 0 {
        out.copy_from_slice(chunk.get(..out.len())?);
        return Some(());
    }
    for (o, (s, d)) in offsets.iter().zip(shape.iter().zip(cdims)) {
        if o % d != 0 || *o >= *s {
            return None;
        }
    }
    let last = rank - 1;
    let row = (shape.get(last)? - offsets.get(last)?).min(*cdims.get(last)?) as usize * elem;
    // Iterate over every row index of the chunk (all dims but the last).
    let outer: Vec<u64> = (0..last)
        .map(|k| Some((shape.get(k)? - offsets.get(k)?).min(*cdims.get(k)?)))
        .collect::<Option<_>>()?;
    let mut idx = vec![0u64; last];
    loop {
        let (mut src_off, mut dst_off) = (0u64, 0u64);
        for k in 0..last {
            let i = *idx.get(k)?;
            src_off = src_off * cdims.get(k)? + i;
            dst_off = dst_off * shape.get(k)? + offsets.get(k)? + i;
        }
        let src_off = (src_off * cdims.get(last)?) as usize * elem;
        let dst_off = (dst_off * shape.get(last)? + offsets.get(last)?) as usize * elem;
        out.get_mut(dst_off..dst_off + row)?
            .copy_from_slice(chunk.get(src_off..src_off + row)?);
        // Next index, last dimension fastest.
        let mut k = last;
        loop {
            if k == 0 {
                return Some(());
            }
            k -= 1;
            let slot = idx.get_mut(k)?;
            *slot += 1;
            if *slot < *outer.get(k)? {
                break;
            }
            *slot = 0;
        }
    }
}

fn swap(buf: &mut [u8], dtype: DataType) {
    let w = if dtype.is_complex() {
        dtype.size() / 2
    } else {
        dtype.size()
    };
    if w > 1 {
        for e in buf.chunks_exact_mut(w) {
            e.reverse();
        }
    }
}

/// Unallocated storage reads as zeros unless the fill value is non-zero.
fn check_fill(ds: &Dataset, len: u64) -> Result<()> {
    if ds.fill_nonzero && len > 0 {
        Err(unsupported("non-zero fill value for unallocated data"))
    } else {
        Ok(())
    }
}

/// Whether a fill value message defines a value other than zeros; h5py's
/// defaults (no value, or size 0) read as zeros.
fn nonzero_fill(body: &[u8]) -> Result<bool> {
    let mut c = Cursor::new(body, "a fill value message");
    let version = c.u8()?;
    let defined = match version {
        1 => {
            c.skip(3)?;
            true
        }
        2 => {
            c.skip(2)?;
            c.u8()? != 0
        }
        3 => c.u8()? & 0x20 != 0,
        v => {
            return Err(unsupported(format!("fill value message version {v}")));
        }
    };
    if !defined {
        return Ok(false);
    }
    let size = c.u32()? as usize;
    Ok(c.bytes(size)?.iter().any(|&b| b != 0))
}

/// Declared bytes a dataset may have for `stored` bytes in the file:
/// Keras' rule (`_H5_DATASET_MAX_EXPANSION` = 1000; deflate's ratio is at
/// most ~1032, hence 1100), with a 1 MiB floor (Keras: 4 GiB) so that a
/// tiny hostile file cannot make us allocate gigabytes of zeros. Keras never
/// writes unallocated datasets; h5py's `create_dataset(shape)` without data
/// over 1 MiB is refused by this.
fn check_expansion(declared: u64, stored: u64) -> Result<()> {
    if declared <= (1 << 20) || declared <= stored.saturating_mul(1100) {
        Ok(())
    } else {
        Err(invalid(format!(
            "the dataset declares {declared} bytes but stores only {stored}"
        )))
    }
}
