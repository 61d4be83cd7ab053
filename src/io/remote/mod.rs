//! Remote stores (the `remote` feature): `s3://`, `gs://`, `az://` (and
//! `abfs[s]://`), `http(s)://` URLs wherever a path goes, over the
//! `object_store` crate, behind the library's blocking API (one tokio
//! runtime per process).
//!
//! - Reading: a [`Store`](crate::io::Store) whose blobs read by range, so
//!   every format that reads through [`Blob`](crate::io::Blob) reads
//!   objects in place: small reads through a block cache, streams with a
//!   read-ahead, large reads in parallel parts (`fetch`).
//! - Writing: outputs are staged in a local temporary file and uploaded
//!   when complete (`upload`): a multipart upload, which appears under its
//!   key only once completed, and is aborted when it fails.
//! - Configuration: the standard environment only (`config`, `profile`),
//!   plus [`RemoteOptions`](crate::io::RemoteOptions): anonymous access,
//!   timeouts, retries, requests in flight.
//! - Faults: retries with backoff, and a budget of tftensor's own
//!   (`retry`).

mod blob;
mod config;
mod fetch;
mod profile;
mod retry;
mod runtime;
mod store;
mod upload;

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::io::options::RemoteOptions;
use crate::io::store::Store;

pub(crate) use upload::upload_file;

/// The store and key of a URL whose scheme names a remote store; `None`
/// for any other text (a local path).
///
/// # Errors
/// [`Error::InvalidArgument`] for a URL with no bucket or host;
/// [`Error::Io`] when the store cannot be configured.
pub(crate) fn store_of(
    text: &str,
    options: &RemoteOptions,
) -> Option<Result<(Arc<dyn Store>, String)>> {
    let (scheme, rest) = text.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if !config::known_scheme(&scheme) {
        return None;
    }
    let (authority, key) = rest.split_once('/').unwrap_or((rest, ""));
    if authority.is_empty() {
        return Some(Err(Error::InvalidArgument(format!(
            "{text}: the URL names no bucket or host"
        ))));
    }
    let key = percent_decode(key.trim_start_matches('/'));
    Some(
        config::client(&scheme, authority, options)
            .map(|c| (Arc::new(store::RemoteStore::new(c)) as Arc<dyn Store>, key)),
    )
}

/// `%XX` escapes decoded, as object names are written in URLs; anything
/// that does not decode stays as written.
fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b, hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_split_into_bucket_and_key() {
        assert_eq!(percent_decode("a%20b/c%2"), "a b/c%2");
        assert!(store_of("relative/path", &RemoteOptions::default()).is_none());
        assert!(store_of("ftp://host/x", &RemoteOptions::default()).is_none());
        let err = store_of("s3:///key", &RemoteOptions::default())
            .unwrap()
            .unwrap_err();
        assert!(matches!(err, Error::InvalidArgument(_)), "{err}");
    }
}
