//! Where a path or URL is: [`store_of`] maps a local path or `file://`
//! to the local file system, and `s3://`, `gs://`, `az://`,
//! `abfs[s]://` and `http(s)://` to a remote store (feature `remote`).

use std::path::Path;
use std::sync::Arc;

use super::blob::Blob;
use super::store::{LocalFs, Store, path_key};
use crate::error::{Error, Result};

/// The store and key a path or URL names: `file://` and plain paths are
/// the local file system; `s3://`, `gs://`, `az://`, `abfs[s]://` and
/// `http(s)://` need the `remote` feature, and are reached as `remote`
/// says.
///
/// # Errors
/// [`Error::InvalidArgument`] for a URL this build cannot read.
pub(crate) fn store_of(
    path: &Path,
    remote: &super::options::RemoteOptions,
) -> Result<(Arc<dyn Store>, String)> {
    let text = path.to_string_lossy();
    if let Some(rest) = text.strip_prefix("file://") {
        return Ok((LocalFs::shared(), rest.to_owned()));
    }
    #[cfg(feature = "remote")]
    if let Some(found) = super::remote::store_of(&text, remote) {
        return found;
    }
    #[cfg(not(feature = "remote"))]
    let _ = remote;
    if let Some((scheme, _)) = text.split_once("://") {
        if !scheme.is_empty()
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'+')
        {
            return Err(Error::InvalidArgument(format!(
                "{text}: {scheme}:// URLs are not read by this build of tftensor"
            )));
        }
    }
    Ok((LocalFs::shared(), path_key(path)))
}

/// The file a path or URL names, opened through its store.
///
/// # Errors
/// As [`store_of`] and [`Store::open`].
#[allow(dead_code, reason = "used by the record streams (feature tfrecord)")]
pub(crate) fn open_blob(
    path: &Path,
    remote: &super::options::RemoteOptions,
) -> Result<Arc<dyn Blob>> {
    let (store, key) = store_of(path, remote)?;
    store.open(&key)
}
