//! TensorFlow checkpoints: read and write tensor bundles, the format of V2
//! checkpoints (`tf.train.Checkpoint`, Keras `save_weights`, TF1 `Saver`)
//! and of every SavedModel's `variables/` folder.
//!
//! A bundle is a `PREFIX.index` file (a sorted table mapping each key to a
//! `BundleEntryProto`: dtype, shape, shard, offset, size, checksum) and one
//! or more `PREFIX.data-NNNNN-of-MMMMM` files holding the tensors' bytes.
//! [`BundleReader`] reads them without TensorFlow; [`BundleWriter`] writes
//! bundles TF reads, with an `.index` byte-identical to TF's own.
//!
//! ```
//! use tftensor::checkpoint::{self, BundleReader, BundleWriter};
//! use tftensor::{DataType, Tensor};
//!
//! let tmp = tempfile::tempdir().unwrap(); // removed when dropped
//! let dir = tmp.path().join("ckpt");
//! let mut w = BundleWriter::new(dir.join("ckpt-1"))?;
//! w.add("dense/kernel/.ATTRIBUTES/VARIABLE_VALUE", &Tensor::from_vec([2, 1], vec![0.5f32, -1.0])?)?;
//! w.add("names", &Tensor::from_vec([2], vec![bytes::Bytes::from_static(b"a"), bytes::Bytes::from_static(b"\xff")])?)?;
//! w.finish()?;
//!
//! // What `tf.train.list_variables` prints.
//! for (name, dtype, shape) in checkpoint::list_variables(dir.join("ckpt-1"))? {
//!     println!("{name} {dtype} {}", shape.debug_string());
//! }
//! let r = BundleReader::open(dir.join("ckpt-1"))?;
//! assert_eq!(r.get("names")?.as_slice::<bytes::Bytes>()?[1].as_ref(), b"\xff");
//! # std::fs::remove_dir_all(&dir).ok();
//! # Ok::<(), tftensor::Error>(())
//! ```

mod assemble;
mod entry;
mod index;
mod load;
mod naming;
pub use naming::find_prefix;
pub(crate) use naming::{data_file_prefix, find_prefix_in};
mod reader;
mod shard;
mod slice;
mod table;
mod writer;

use std::path::Path;

pub use reader::BundleReader;
pub use slice::TensorSlice;
pub use writer::BundleWriter;

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::pb;
use crate::shape::TensorShape;

/// The key under which TF2 object-based checkpoints store their
/// `TrackableObjectGraph` (a scalar string).
pub const OBJECT_GRAPH_KEY: &str = "_CHECKPOINTABLE_OBJECT_GRAPH";

/// Every variable of the bundle at `path` with its dtype and shape, sorted
/// by name, as `tf.train.list_variables` lists them (which gives the name
/// and shape; the dtype is `get_variable_to_dtype_map`'s). `path` is
/// anything [`BundleReader::open`] accepts.
///
/// # Errors
/// As [`BundleReader::open`], or an entry with an invalid dtype or shape.
///
/// ```
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let dir = tmp.path().join("list");
/// # let mut w = tftensor::checkpoint::BundleWriter::new(dir.join("c"))?;
/// # w.add("v", &tftensor::Tensor::new(tftensor::DataType::Int8, [3])?)?;
/// # w.finish()?;
/// let vars = tftensor::checkpoint::list_variables(dir.join("c"))?;
/// assert_eq!(vars[0].0, "v");
/// assert_eq!(vars[0].1, tftensor::DataType::Int8);
/// assert_eq!(vars[0].2.dim_sizes(), vec![3]);
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn list_variables<P: AsRef<Path>>(path: P) -> Result<Vec<(String, DataType, TensorShape)>> {
    let reader = BundleReader::open(path)?;
    reader
        .keys()
        .map(|k| {
            let (dtype, shape) = reader.dtype_and_shape(k)?;
            Ok((k.to_owned(), dtype, shape))
        })
        .collect()
}

/// The binary key under which the slice `slice` of the partitioned tensor
/// `full_key` is stored (TF's `checkpoint::EncodeTensorNameSlice`, an
/// `OrderedCode` string).
///
/// ```
/// let key = tftensor::checkpoint::slice_key("v", &"0,2".parse()?);
/// assert_eq!(key, [0x00, b'v', 0x00, 0x01, 0x01, 0x01, 0x80, 0x82]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn slice_key(full_key: &str, slice: &TensorSlice) -> Vec<u8> {
    slice::encode_tensor_name_slice(full_key.as_bytes(), slice)
}

/// Encodes a `.index` table from a header and entries, as TF's table
/// builder does: for tools that rewrite or merge bundles (TF's
/// `MergeBundles`). Keys must be non-empty and strictly increasing.
///
/// # Errors
/// [`Error::InvalidArgument`] for an empty, repeated or out-of-order key.
///
/// ```
/// use tftensor::checkpoint::{encode_index, BundleReader};
/// use tftensor::pb::{BundleEntryProto, BundleHeaderProto, VersionDef};
/// let header = BundleHeaderProto {
///     num_shards: 1,
///     version: Some(VersionDef { producer: 1, ..Default::default() }),
///     ..Default::default()
/// };
/// let entry = BundleEntryProto { dtype: 3, shape: Some(Default::default()), size: 4, ..Default::default() };
/// let index = encode_index(&header, [(&b"k"[..], &entry)])?;
/// let r = BundleReader::from_bytes(index.into(), vec![])?;
/// assert!(r.contains("k"));
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn encode_index<'a>(
    header: &pb::BundleHeaderProto,
    entries: impl IntoIterator<Item = (&'a [u8], &'a pb::BundleEntryProto)>,
) -> Result<Vec<u8>> {
    use prost::Message;
    let mut rows: Vec<(&[u8], Vec<u8>)> = vec![(&b""[..], header.encode_to_vec())];
    for (key, entry) in entries {
        if rows.last().is_some_and(|(last, _)| key <= *last) {
            return Err(Error::InvalidArgument(format!(
                "index keys must be non-empty and strictly increasing; got {:?}",
                String::from_utf8_lossy(key)
            )));
        }
        rows.push((key, entry.encode_to_vec()));
    }
    Ok(table::build(rows.iter().map(|(k, v)| (*k, v.as_slice()))))
}
