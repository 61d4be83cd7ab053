//! A bundle's `.index`, parsed and checked: the header (version, shard
//! count, byte order) and every entry in key order, with the full-tensor
//! keys told apart from the slice entries of partitioned tensors.

use std::collections::{BTreeSet, HashSet};

use prost::Message;

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::pb;
use crate::shape::TensorShape;

use super::slice::{TensorSlice, encode_tensor_name_slice};
use super::table;

/// `kTensorBundleVersion`: the newest bundle version this reader knows.
pub(crate) const BUNDLE_VERSION: i32 = 1;

pub(super) fn bad(message: impl Into<String>) -> Error {
    Error::invalid_format("tensor bundle", message.into())
}

/// What a `.index` says.
pub(super) struct Index {
    /// Every entry but the header, in key order.
    pub entries: Vec<(Vec<u8>, pb::BundleEntryProto)>,
    /// Indices into `entries` of the full-tensor keys (no slice entries).
    pub full: Vec<usize>,
    pub num_shards: i32,
    /// The shards some full-tensor entry is stored in.
    pub shards: BTreeSet<i32>,
    /// The bundle was written in the other byte order.
    pub swap: bool,
}

/// Parses and checks the index bytes of the file `file` (named in errors).
pub(super) fn parse(index: &[u8], file: &str) -> Result<Index> {
    parse_rows(index, file).map_err(|e| e.with_path(file))
}

fn parse_rows(index: &[u8], file: &str) -> Result<Index> {
    let mut rows = table::read(index, file)?.into_iter();
    let header = match rows.next() {
        Some((k, v)) if k.is_empty() => pb::BundleHeaderProto::decode(v.as_slice())
            .map_err(|e| Error::data_loss(format!("corrupt bundle header: {e}")))?,
        _ => return Err(bad("the bundle header entry is missing")),
    };
    check_version(&header)?;
    if header.num_shards < 1 {
        return Err(bad(format!("num_shards is {}", header.num_shards)));
    }
    let swap = match header.endianness {
        0 => cfg!(target_endian = "big"),
        1 => cfg!(target_endian = "little"),
        other => return Err(bad(format!("unknown endianness {other}"))),
    };
    let mut entries = Vec::new();
    for (key, value) in rows {
        let entry = pb::BundleEntryProto::decode(value.as_slice()).map_err(|e| {
            Error::data_loss(format!("corrupt entry: {e}")).with_key(String::from_utf8_lossy(&key))
        })?;
        entries.push((key, entry));
    }
    // TF's CheckpointReader: slice entries are named by their full
    // tensor's entry; the rest are the tensors a user sees.
    let mut slice_keys = HashSet::new();
    let mut shards = BTreeSet::new();
    for (key, entry) in &entries {
        let at = || String::from_utf8_lossy(key).into_owned();
        for s in &entry.slices {
            let slice = TensorSlice::from_proto(s)
                .map_err(|e| bad(format!("bad slice: {e}")).with_key(at()))?;
            slice_keys.insert(encode_tensor_name_slice(key, &slice));
        }
        if entry.slices.is_empty() {
            if entry.shard_id < 0 || entry.shard_id >= header.num_shards {
                return Err(bad(format!(
                    "shard id {} is past num_shards {}",
                    entry.shard_id, header.num_shards
                ))
                .with_key(at()));
            }
            shards.insert(entry.shard_id);
        }
    }
    let full = entries
        .iter()
        .enumerate()
        .filter(|(_, (k, _))| !slice_keys.contains(k) && std::str::from_utf8(k).is_ok())
        .map(|(i, _)| i)
        .collect();
    Ok(Index {
        entries,
        full,
        num_shards: header.num_shards,
        shards,
        swap,
    })
}

/// Checks `header.version` as TF's `CheckVersions` does.
fn check_version(header: &pb::BundleHeaderProto) -> Result<()> {
    let Some(v) = &header.version else {
        return Ok(());
    };
    if v.min_consumer > BUNDLE_VERSION {
        return Err(bad(format!(
            "Checkpoint min consumer version {} above current version {BUNDLE_VERSION} for TensorFlow",
            v.min_consumer
        )));
    }
    if v.producer < 0 {
        return Err(bad(format!(
            "Checkpoint producer version {} below min producer 0 supported by TensorFlow",
            v.producer
        )));
    }
    if v.bad_consumers.contains(&BUNDLE_VERSION) {
        return Err(bad(format!(
            "Checkpoint disallows consumer version {BUNDLE_VERSION}"
        )));
    }
    Ok(())
}

/// The entry's dtype and shape, checked.
pub(super) fn entry_meta(
    key: &str,
    entry: &pb::BundleEntryProto,
) -> Result<(DataType, TensorShape)> {
    let dtype = DataType::from_i32(entry.dtype);
    if !dtype.is_valid_tensor_dtype() {
        return Err(bad(format!("invalid dtype {dtype}")).with_key(key));
    }
    let shape = match &entry.shape {
        Some(s) => TensorShape::from_proto(s),
        None => Ok(TensorShape::scalar()),
    }
    .map_err(|e| bad(e.to_string()).with_key(key))?;
    Ok((dtype, shape))
}
