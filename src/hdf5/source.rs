//! Where an HDF5 file's bytes come from: a [`Blob`] (a local file, a map,
//! bytes in memory, a STORED zip member, an object in a store), with
//! HDF5's address 0 at a base offset in it (after a userblock).

use std::sync::Arc;

use bytes::Bytes;

use super::data_loss;
use crate::error::Result;
use crate::io::{Blob, Window};

/// The bytes of one HDF5 file: addresses are offsets in `blob`, which
/// starts `base` bytes into the blob the file was opened from (errors give
/// offsets in that one).
#[derive(Clone, Debug)]
pub(crate) struct Source {
    blob: Arc<dyn Blob>,
    base: u64,
}

impl Source {
    /// The whole of `blob`.
    pub(crate) fn new(blob: Arc<dyn Blob>) -> Source {
        Source { blob, base: 0 }
    }

    /// The same bytes, with address 0 moved to `base` (a superblock's base
    /// address, e.g. after a userblock): a [`Window`] of the blob.
    ///
    /// # Errors
    /// [`crate::Error::DataLoss`] when `base` lies past the end.
    pub(crate) fn rebase(&self, base: u64) -> Result<Source> {
        if base == 0 {
            return Ok(self.clone());
        }
        let len = self
            .blob
            .len()
            .checked_sub(base)
            .ok_or_else(|| self.past_end("the base address", base, 0))?;
        let id = self.blob.id().to_owned();
        Ok(Source {
            blob: Arc::new(Window::new(self.blob.clone(), base, len, id)?),
            base: self.base + base,
        })
    }

    /// The number of bytes from address 0 on.
    pub(crate) fn len(&self) -> u64 {
        self.blob.len()
    }

    /// The error for `n` bytes of `what` at address `pos` that the file
    /// does not hold: the offset (in the blob opened) and the file as
    /// fields.
    fn past_end(&self, what: &str, pos: u64, n: u64) -> crate::Error {
        data_loss(format!(
            "{what} ({n} bytes) runs past the end of the file ({} bytes from address 0)",
            self.len()
        ))
        .with_path(self.blob.id())
        .with_offset(self.base.saturating_add(pos))
    }

    /// Checks that `[pos, pos + n)` lies inside the file.
    pub(crate) fn check(&self, pos: u64, n: u64, what: &str) -> Result<()> {
        match pos.checked_add(n) {
            Some(end) if end <= self.len() => Ok(()),
            _ => Err(self.past_end(what, pos, n)),
        }
    }

    /// Fills `buf` from `pos`.
    pub(crate) fn read_into(&self, pos: u64, buf: &mut [u8], what: &str) -> Result<()> {
        self.check(pos, buf.len() as u64, what)?;
        self.blob.read_at(pos, buf)
    }

    /// `n` bytes from `pos`, after checking they exist (so a lying size
    /// never allocates more than the file holds).
    pub(crate) fn read_vec(&self, pos: u64, n: u64, what: &str) -> Result<Vec<u8>> {
        self.check(pos, n, what)?;
        self.blob.read_vec(pos, n)
    }

    /// Up to `n` bytes from `pos` (fewer at the end of the file): for
    /// blocks whose length is only known after parsing them.
    pub(crate) fn read_upto(&self, pos: u64, n: u64, what: &str) -> Result<Vec<u8>> {
        let left = self
            .len()
            .checked_sub(pos)
            .ok_or_else(|| self.past_end(what, pos, 0))?;
        self.read_vec(pos, n.min(left), what)
    }

    /// `n` bytes from `pos` as `Bytes`: a slice of a map, or one read into
    /// a fresh buffer (huge pages when large, read on two cores from a
    /// local file).
    pub(crate) fn read_bytes(&self, pos: u64, n: u64, what: &str) -> Result<Bytes> {
        self.check(pos, n, what)?;
        self.blob.read_bytes(pos..pos + n)
    }
}

/// Reads of at least this many bytes go into a fresh `Bytes` buffer the
/// tensor adopts ([`Source::read_bytes`]); smaller ones into the tensor.
pub(crate) const LARGE: u64 = 4 << 20;
