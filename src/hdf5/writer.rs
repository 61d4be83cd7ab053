//! Writing the HDF5 subset h5py writes by default: superblock v0, v1
//! object headers, symbol-table groups (v1 B-tree + local heap + `SNOD`),
//! contiguous little-endian data, and a variable-length string attribute
//! (`dtype = "bfloat16"`, as Keras tags bf16) in one global heap collection.
//!
//! Tensor data streams to a temporary file as it is added (starting after
//! the 96-byte superblock); the metadata follows at `finish`, which syncs
//! the file and renames it over the destination.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::superblock::MAGIC;
use super::{UNDEF, invalid};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

const LEAF_K: usize = 4;
const INTERNAL_K: usize = 16;
const SUPERBLOCK: u64 = 96;

enum Node {
    Group(BTreeMap<String, Node>),
    Dataset {
        dtype: DataType,
        dims: Vec<u64>,
        addr: u64,
        size: u64,
    },
}

/// Writes an HDF5 file dataset by dataset (see the module docs).
pub struct Hdf5Writer {
    file: Option<File>,
    tmp: PathBuf,
    path: PathBuf,
    pos: u64,
    root: BTreeMap<String, Node>,
}

/// The path beside `path` named as it is plus `suffix` (a temporary, or
/// a part of an archive).
///
/// # Errors
/// [`Error::InvalidArgument`] for a path that names no file (`dir/..`):
/// a name beside it would land elsewhere.
pub(crate) fn beside(path: &Path, suffix: &str) -> Result<PathBuf> {
    let Some(name) = path.file_name() else {
        return Err(
            Error::InvalidArgument("the output path names no file".into())
                .with_path(path.display()),
        );
    };
    let mut name = name.to_os_string();
    name.push(suffix);
    Ok(path.with_file_name(name))
}

fn io(path: &Path, e: &std::io::Error) -> Error {
    Error::io(path.display(), e)
}

impl Hdf5Writer {
    /// Starts a file that [`finish`](Self::finish) renames to `path`.
    pub fn create(path: impl AsRef<Path>) -> Result<Hdf5Writer> {
        let path = path.as_ref().to_path_buf();
        let tmp = beside(&path, &format!(".tmp{}", std::process::id()))?;
        let mut file = File::create(&tmp).map_err(|e| io(&tmp, &e))?;
        file.write_all(&[0u8; SUPERBLOCK as usize])
            .map_err(|e| io(&tmp, &e))?;
        Ok(Hdf5Writer {
            file: Some(file),
            tmp,
            path,
            pos: SUPERBLOCK,
            root: BTreeMap::new(),
        })
    }

    /// Adds `t` as the dataset `name` (`/`-separated; groups are created).
    pub fn add(&mut self, name: &str, t: &Tensor) -> Result<()> {
        datatype(t.dtype())?;
        let parts: Vec<&str> = name.trim_start_matches('/').split('/').collect();
        if parts.iter().any(|p| p.is_empty() || p.contains('\0')) {
            return Err(invalid("bad dataset name").with_key(name));
        }
        let (leaf, groups) = parts
            .split_last()
            .ok_or_else(|| invalid("empty dataset name"))?;
        let pos = self.pos;
        let mut g = &mut self.root;
        for p in groups {
            let n = g
                .entry((*p).to_owned())
                .or_insert_with(|| Node::Group(BTreeMap::new()));
            g = match n {
                Node::Group(children) => children,
                Node::Dataset { .. } => {
                    return Err(invalid(format!("{p} is a dataset, not a group")).with_key(name));
                }
            };
        }
        if g.contains_key(*leaf) {
            return Err(invalid("the dataset was already added").with_key(name));
        }
        let bytes = t.tensor_data()?;
        let size = bytes.len() as u64;
        let addr = if size == 0 { UNDEF } else { pos };
        let dims = t.shape().iter().map(|d| d as u64).collect();
        g.insert(
            (*leaf).to_owned(),
            Node::Dataset {
                dtype: t.dtype(),
                dims,
                addr,
                size,
            },
        );
        self.write(bytes)?;
        Ok(())
    }

    /// Adds an empty group (Keras writes `vars` groups for weightless layers).
    pub fn add_group(&mut self, name: &str) -> Result<()> {
        let mut g = &mut self.root;
        for p in name.trim_matches('/').split('/').filter(|p| !p.is_empty()) {
            let n = g
                .entry(p.to_owned())
                .or_insert_with(|| Node::Group(BTreeMap::new()));
            g = match n {
                Node::Group(children) => children,
                Node::Dataset { .. } => {
                    return Err(invalid(format!("{p} is a dataset")).with_key(name));
                }
            };
        }
        Ok(())
    }

    fn write(&mut self, bytes: &[u8]) -> Result<u64> {
        let at = self.pos;
        let file = self
            .file
            .as_mut()
            .ok_or_else(|| invalid("writer already finished"))?;
        file.write_all(bytes).map_err(|e| io(&self.tmp, &e))?;
        self.pos += bytes.len() as u64;
        Ok(at)
    }

    /// Writes the metadata and superblock, syncs, and renames the file
    /// into place.
    pub fn finish(mut self) -> Result<()> {
        let root = std::mem::take(&mut self.root);
        let gheap = if has_bf16(&root) {
            Some(self.write(&global_heap())?)
        } else {
            None
        };
        let (root_oh, root_tree, root_heap) = self.group(&root, gheap)?;
        let eof = self.pos;
        let mut sb = Vec::with_capacity(SUPERBLOCK as usize);
        sb.extend_from_slice(&MAGIC);
        sb.extend_from_slice(&[0, 0, 0, 0, 0, 8, 8, 0]);
        sb.extend_from_slice(&(LEAF_K as u16).to_le_bytes());
        sb.extend_from_slice(&(INTERNAL_K as u16).to_le_bytes());
        sb.extend_from_slice(&0u32.to_le_bytes());
        for a in [0, UNDEF, eof, UNDEF, 0, root_oh] {
            sb.extend_from_slice(&a.to_le_bytes());
        }
        sb.extend_from_slice(&1u32.to_le_bytes());
        sb.extend_from_slice(&0u32.to_le_bytes());
        sb.extend_from_slice(&root_tree.to_le_bytes());
        sb.extend_from_slice(&root_heap.to_le_bytes());
        let mut file = self
            .file
            .take()
            .ok_or_else(|| invalid("writer already finished"))?;
        let tmp = self.tmp.clone();
        let done = (|| {
            file.seek(SeekFrom::Start(0))?;
            file.write_all(&sb)?;
            file.sync_all()?;
            drop(file);
            std::fs::rename(&tmp, &self.path)
        })();
        done.map_err(|e| io(&self.path, &e))
    }

    /// Writes a group's children, then the group; returns its object
    /// header, B-tree and local heap addresses.
    fn group(
        &mut self,
        children: &BTreeMap<String, Node>,
        gheap: Option<u64>,
    ) -> Result<(u64, u64, u64)> {
        let mut entries = Vec::with_capacity(children.len());
        let mut heap_data = vec![0u8; 8]; // offset 0: the empty name
        for (name, node) in children {
            let oh = match node {
                Node::Group(c) => self.group(c, gheap)?.0,
                Node::Dataset {
                    dtype,
                    dims,
                    addr,
                    size,
                } => {
                    let oh = dataset_header(*dtype, dims, *addr, *size, gheap)?;
                    self.write(&oh)?
                }
            };
            let off = heap_data.len() as u64;
            heap_data.extend_from_slice(name.as_bytes());
            heap_data.push(0);
            heap_data.resize(heap_data.len().div_ceil(8) * 8, 0);
            entries.push((off, oh));
        }
        // Local heap: header then its data segment.
        let heap_at = self.pos;
        let mut heap = Vec::new();
        heap.extend_from_slice(b"HEAP\0\0\0\0");
        heap.extend_from_slice(&(heap_data.len() as u64).to_le_bytes());
        heap.extend_from_slice(&1u64.to_le_bytes()); // H5HL_FREE_NULL: no free block
        heap.extend_from_slice(&(heap_at + 32).to_le_bytes());
        heap.extend_from_slice(&heap_data);
        self.write(&heap)?;
        // Leaves: full symbol nodes of 2·K entries (HDF5 reads them whole).
        let mut level: Vec<(u64, u64)> = Vec::new(); // (address, heap offset of its last name)
        for chunk in entries.chunks(2 * LEAF_K) {
            let mut node = Vec::with_capacity(8 + 2 * LEAF_K * 40);
            node.extend_from_slice(b"SNOD\x01\0");
            node.extend_from_slice(&(chunk.len() as u16).to_le_bytes());
            for (off, oh) in chunk {
                node.extend_from_slice(&off.to_le_bytes());
                node.extend_from_slice(&oh.to_le_bytes());
                node.extend_from_slice(&[0; 24]); // cache type 0, reserved, scratch
            }
            node.resize(8 + 2 * LEAF_K * 40, 0);
            let last = chunk.last().map_or(0, |e| e.0);
            level.push((self.write(&node)?, last));
        }
        let mut depth = 0u8;
        let tree = loop {
            let mut up = Vec::new();
            for chunk in level.chunks(2 * INTERNAL_K) {
                let node = btree_node(depth, chunk);
                let last = chunk.last().map_or(0, |e| e.1);
                up.push((self.write(&node)?, last));
            }
            if up.is_empty() {
                // An empty group: a level-0 node with no children.
                break self.write(&btree_node(0, &[]))?;
            }
            if let [(only, _)] = up.as_slice() {
                break *only;
            }
            level = up;
            depth += 1;
        };
        let mut msg = Vec::new();
        msg.extend_from_slice(&tree.to_le_bytes());
        msg.extend_from_slice(&heap_at.to_le_bytes());
        let oh = object_header(&[(0x11, 0, msg)]);
        Ok((self.write(&oh)?, tree, heap_at))
    }
}

impl Drop for Hdf5Writer {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            // Not finished: the temporary file is abandoned.
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

fn has_bf16(g: &BTreeMap<String, Node>) -> bool {
    g.values().any(|n| match n {
        Node::Group(c) => has_bf16(c),
        Node::Dataset { dtype, .. } => *dtype == DataType::BFloat16,
    })
}

/// A group B-tree node (type 0) at `level`, allocated at full size.
fn btree_node(level: u8, children: &[(u64, u64)]) -> Vec<u8> {
    let mut n = Vec::with_capacity(24 + 2 * INTERNAL_K * 16 + 8);
    n.extend_from_slice(b"TREE");
    n.push(0);
    n.push(level);
    n.extend_from_slice(&(children.len() as u16).to_le_bytes());
    n.extend_from_slice(&UNDEF.to_le_bytes());
    n.extend_from_slice(&UNDEF.to_le_bytes());
    n.extend_from_slice(&0u64.to_le_bytes()); // key 0: the empty name
    for (addr, last) in children {
        n.extend_from_slice(&addr.to_le_bytes());
        n.extend_from_slice(&last.to_le_bytes());
    }
    n.resize(24 + 2 * INTERNAL_K * 16 + 8, 0);
    n
}

/// A v1 object header holding `messages` (type, flags, body).
fn object_header(messages: &[(u16, u8, Vec<u8>)]) -> Vec<u8> {
    let size: usize = messages
        .iter()
        .map(|(_, _, b)| 8 + b.len().div_ceil(8) * 8)
        .sum();
    let mut h = Vec::with_capacity(16 + size);
    h.extend_from_slice(&[1, 0]);
    h.extend_from_slice(&(messages.len() as u16).to_le_bytes());
    h.extend_from_slice(&1u32.to_le_bytes());
    h.extend_from_slice(&(size as u32).to_le_bytes());
    h.extend_from_slice(&[0; 4]);
    for (kind, flags, body) in messages {
        h.extend_from_slice(&kind.to_le_bytes());
        h.extend_from_slice(&(body.len().div_ceil(8) as u16 * 8).to_le_bytes());
        h.extend_from_slice(&[*flags, 0, 0, 0]);
        h.extend_from_slice(body);
        h.resize(h.len().div_ceil(8) * 8, 0);
    }
    h
}

fn dataset_header(
    dtype: DataType,
    dims: &[u64],
    addr: u64,
    size: u64,
    gheap: Option<u64>,
) -> Result<Vec<u8>> {
    let mut space = vec![
        1,
        dims.len() as u8,
        u8::from(!dims.is_empty()),
        0,
        0,
        0,
        0,
        0,
    ];
    for _ in 0..2 {
        for d in dims {
            space.extend_from_slice(&d.to_le_bytes());
        }
    }
    if dims.is_empty() {
        space.truncate(8);
    }
    let fill = vec![2, 2, 2, 1, 0, 0, 0, 0];
    let mut layout = vec![3, 1];
    layout.extend_from_slice(&addr.to_le_bytes());
    layout.extend_from_slice(&size.to_le_bytes());
    let mut messages = vec![
        (0x01, 0, space),
        (0x03, 1, datatype(dtype)?),
        (0x05, 1, fill),
        (0x08, 0, layout),
    ];
    if dtype == DataType::BFloat16 {
        let heap = gheap.ok_or_else(|| invalid("bf16 dataset without a global heap"))?;
        messages.push((0x0C, 0, bf16_attribute(heap)));
    }
    Ok(object_header(&messages))
}

const BF16_TAG: &[u8] = b"bfloat16";

/// One global heap collection (the 4096-byte minimum) holding "bfloat16".
fn global_heap() -> Vec<u8> {
    let mut g = Vec::with_capacity(4096);
    g.extend_from_slice(b"GCOL\x01\0\0\0");
    g.extend_from_slice(&4096u64.to_le_bytes());
    g.extend_from_slice(&1u16.to_le_bytes()); // object 1
    g.extend_from_slice(&1u16.to_le_bytes()); // refcount
    g.extend_from_slice(&0u32.to_le_bytes());
    g.extend_from_slice(&(BF16_TAG.len() as u64).to_le_bytes());
    g.extend_from_slice(BF16_TAG);
    g.resize(g.len().div_ceil(8) * 8, 0);
    // Object 0: the free space, the rest of the collection.
    let free = 4096 - g.len() as u64;
    g.extend_from_slice(&[0; 8]);
    g.extend_from_slice(&free.to_le_bytes());
    g.resize(4096, 0);
    g
}

/// A v1 attribute `dtype` = vlen UTF-8 string "bfloat16" (h5py's `str`).
fn bf16_attribute(heap: u64) -> Vec<u8> {
    let mut a = vec![1, 0];
    a.extend_from_slice(&6u16.to_le_bytes()); // "dtype\0"
    let vlen = vlen_string_type();
    a.extend_from_slice(&(vlen.len() as u16).to_le_bytes());
    a.extend_from_slice(&8u16.to_le_bytes()); // scalar dataspace
    a.extend_from_slice(b"dtype\0\0\0");
    a.extend_from_slice(&vlen);
    a.resize(a.len().div_ceil(8) * 8, 0);
    a.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0]);
    a.extend_from_slice(&(BF16_TAG.len() as u32).to_le_bytes());
    a.extend_from_slice(&heap.to_le_bytes());
    a.extend_from_slice(&1u32.to_le_bytes());
    a
}

fn vlen_string_type() -> Vec<u8> {
    let mut t = vec![0x19, 0x01, 0x01, 0x00];
    t.extend_from_slice(&16u32.to_le_bytes());
    // Base: a 1-byte unsigned character.
    t.extend_from_slice(&[0x10, 0, 0, 0, 1, 0, 0, 0, 0, 0, 8, 0]);
    t
}

fn float_type(size: u32, props: [u8; 12]) -> Vec<u8> {
    let b0 = match size {
        2 => 0x0f,
        4 => 0x1f,
        _ => 0x3f,
    };
    let mut t = vec![0x11, 0x20, b0, 0];
    t.extend_from_slice(&size.to_le_bytes());
    t.extend_from_slice(&props);
    t
}

fn int_type(size: u32, signed: bool) -> Vec<u8> {
    let mut t = vec![0x10, if signed { 0x08 } else { 0 }, 0, 0];
    t.extend_from_slice(&size.to_le_bytes());
    t.extend_from_slice(&[0, 0]);
    t.extend_from_slice(&((size * 8) as u16).to_le_bytes());
    t
}

/// The datatype message h5py writes for `dtype` (see the spec's §4 table).
/// Whether the writer can store `dtype` (as h5py would, so it reads back
/// as the same dtype).
pub(crate) fn can_hold(dtype: DataType) -> bool {
    datatype(dtype).is_ok()
}

fn datatype(dtype: DataType) -> Result<Vec<u8>> {
    const F16: [u8; 12] = [0, 0, 16, 0, 10, 5, 0, 10, 15, 0, 0, 0];
    const F32: [u8; 12] = [0, 0, 32, 0, 23, 8, 0, 23, 127, 0, 0, 0];
    const F64: [u8; 12] = [0, 0, 64, 0, 52, 11, 0, 52, 0xff, 3, 0, 0];
    Ok(match dtype {
        DataType::Half => float_type(2, F16),
        DataType::Float => float_type(4, F32),
        DataType::Double => float_type(8, F64),
        DataType::Int8 => int_type(1, true),
        DataType::Int16 => int_type(2, true),
        DataType::Int32 => int_type(4, true),
        DataType::Int64 => int_type(8, true),
        DataType::UInt8 => int_type(1, false),
        DataType::UInt16 => int_type(2, false),
        DataType::UInt32 => int_type(4, false),
        DataType::UInt64 => int_type(8, false),
        DataType::Bool => {
            let mut t = vec![0x18, 2, 0, 0, 1, 0, 0, 0];
            t.extend_from_slice(&int_type(1, true));
            t.extend_from_slice(b"FALSE\0\0\0TRUE\0\0\0\0");
            t.extend_from_slice(&[0, 1]);
            t
        }
        DataType::BFloat16 => vec![0x15, 0, 0, 0, 2, 0, 0, 0],
        DataType::Complex64 | DataType::Complex128 => {
            let (half, props) = if dtype == DataType::Complex64 {
                (4u32, F32)
            } else {
                (8, F64)
            };
            let mut t = vec![0x16, 2, 0, 0];
            t.extend_from_slice(&(half * 2).to_le_bytes());
            for (name, off) in [(b'r', 0u32), (b'i', half)] {
                t.extend_from_slice(&[name, 0, 0, 0, 0, 0, 0, 0]);
                t.extend_from_slice(&off.to_le_bytes());
                t.extend_from_slice(&[0; 28]); // rank, reserved, permutation, reserved, 4 dims
                t.extend_from_slice(&float_type(half, props));
            }
            t
        }
        other => {
            return Err(Error::unsupported(
                other,
                format!("hdf5: Keras weight files hold no {other} tensors"),
            ));
        }
    })
}
