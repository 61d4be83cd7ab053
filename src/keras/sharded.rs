//! Sharded weights (`ShardedH5IOStore`, Keras ≥ 3.10): a JSON manifest
//! `{"metadata": …, "weight_map": {"/layers/dense/vars": "x_00000.weights.h5" | [..]}}`
//! beside HDF5 shards. The manifest is only an index: the tensors are the
//! union of every shard's datasets, so this reads the shard names from it
//! and nothing else (no JSON parser needed beyond its strings).

use std::sync::Arc;

use super::invalid;
use crate::error::Result;
use crate::hdf5::Hdf5File;
use crate::io::Blob;

/// Manifests larger than this are refused (real ones are kilobytes).
const MAX_MANIFEST: u64 = 64 << 20;

/// The shards the manifest `manifest` names, each opened by `shard` (given
/// its file name, which must be a plain name: shards live beside the
/// manifest).
pub(super) fn open(
    manifest: &dyn Blob,
    shard: impl Fn(&str) -> Result<Arc<dyn Blob>>,
) -> Result<Vec<Hdf5File>> {
    let name = manifest.id();
    let len = manifest.len();
    if len > MAX_MANIFEST {
        return Err(invalid(name, format!("a {len}-byte manifest")));
    }
    let bytes = manifest.read_all()?;
    let text = std::str::from_utf8(&bytes).map_err(|_| invalid(name, "not a JSON manifest"))?;
    let strings = json_strings(text).ok_or_else(|| invalid(name, "not a JSON manifest"))?;
    if !strings.iter().any(|s| s == "weight_map") {
        return Err(invalid(
            name,
            "a JSON file without \"weight_map\" (not a sharded Keras manifest)",
        ));
    }
    let mut shards: Vec<&String> = strings
        .iter()
        .filter(|s| s.ends_with(".weights.h5"))
        .collect();
    shards.sort();
    shards.dedup();
    if shards.is_empty() {
        return Err(invalid(name, "the manifest names no shards"));
    }
    let mut out = Vec::with_capacity(shards.len());
    for s in shards {
        // Shards live beside the manifest: a bare file name only.
        if s.contains('/') || s.contains('\\') || s.starts_with('.') {
            return Err(invalid(name, "a shard name is not a plain file name").with_key(s));
        }
        out.push(Hdf5File::open(shard(s)?)?);
    }
    Ok(out)
}

/// Every string literal of a JSON text (escapes decoded), or `None` when
/// a string is unterminated or badly escaped.
fn json_strings(text: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut s = String::new();
        loop {
            match chars.next()? {
                '"' => break,
                '\\' => match chars.next()? {
                    'n' => s.push('\n'),
                    't' => s.push('\t'),
                    'r' => s.push('\r'),
                    'b' => s.push('\u{8}'),
                    'f' => s.push('\u{c}'),
                    'u' => {
                        let hex: String = chars.by_ref().take(4).collect();
                        s.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                    }
                    other => s.push(other),
                },
                other => s.push(other),
            }
        }
        out.push(s);
    }
    Some(out)
}
