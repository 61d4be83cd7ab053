//! [`BlobStream`]: a [`Blob`] as an owned `Read` + `Seek`, for the stream
//! parsers that keep their input (a [`RecordReader`](super::RecordReader)
//! and its decompressor).

use std::io::{self, Read, Seek, SeekFrom};
use std::sync::Arc;

use crate::io::Blob;

/// A [`Blob`] read as a stream from a position: positioned reads, so
/// streams over one blob never share a position. Errors come back as
/// `io::Error`s wrapping the crate's [`Error`](crate::Error).
///
/// ```
/// use std::io::Read;
/// use std::sync::Arc;
/// use tftensor::io::BytesBlob;
/// use tftensor::tfrecord::BlobStream;
/// let mut s = BlobStream::new(Arc::new(BytesBlob::new("m", &b"abcdef"[..])));
/// let mut two = [0u8; 2];
/// s.read_exact(&mut two)?;
/// assert_eq!(&two, b"ab");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct BlobStream {
    blob: Arc<dyn Blob>,
    pos: u64,
}

impl BlobStream {
    /// A stream of `blob` from its first byte.
    pub fn new(blob: Arc<dyn Blob>) -> BlobStream {
        BlobStream { blob, pos: 0 }
    }

    /// The blob read.
    ///
    /// ```
    /// use std::sync::Arc;
    /// let s = tftensor::tfrecord::BlobStream::new(Arc::new(tftensor::io::BytesBlob::new("m", &b"ab"[..])));
    /// assert_eq!(s.blob().len(), 2);
    /// ```
    pub fn blob(&self) -> &Arc<dyn Blob> {
        &self.blob
    }
}

impl Read for BlobStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.blob.len().saturating_sub(self.pos);
        let n = usize::try_from(left).map_or(buf.len(), |l| l.min(buf.len()));
        let Some(dst) = buf.get_mut(..n) else {
            return Ok(0);
        };
        if n == 0 {
            return Ok(0);
        }
        self.blob.read_at(self.pos, dst).map_err(io::Error::other)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for BlobStream {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let (base, delta) = match to {
            SeekFrom::Start(p) => {
                self.pos = p;
                return Ok(p);
            }
            SeekFrom::End(d) => (self.blob.len(), d),
            SeekFrom::Current(d) => (self.pos, d),
        };
        self.pos = base
            .checked_add_signed(delta)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        Ok(self.pos)
    }
}
