//! A framing-only pass over an uncompressed TFRecord [`Blob`]: each
//! record's header (its length CRC checked) and the first bytes of its
//! data, read by range. Small records are read in one window of several
//! (so a file of small records is read in large pieces); a large record
//! costs one read of its header and first bytes, and its data is never
//! read. How `tftensor::io` lists a TFRecord of tensors, and how
//! [`read_tensors`](super::read_tensors) finds where large records lie.

use super::record::{FOOTER_LEN, HEADER_LEN, located};
use crate::io::Blob;
use crate::{Error, Result, crc32c};

/// Bytes read past a small record, for the records after it.
const READAHEAD: u64 = 64 << 10;

/// One record, as the pass sees it.
pub(super) struct Frame<'a> {
    /// Its number in the file.
    pub(super) index: u64,
    /// The offset of its first (header) byte.
    pub(super) offset: u64,
    /// The length of its data.
    pub(super) len: u64,
    /// The first bytes of its data: `min(len, peek)` of them.
    pub(super) prefix: &'a [u8],
    /// Its data and stored (masked) data CRC, when the whole record lay
    /// in the window read: the caller may check it for free.
    pub(super) whole: Option<(&'a [u8], u32)>,
}

impl Frame<'_> {
    /// The offset just past the record.
    pub(super) fn end(&self) -> u64 {
        // Checked against the blob's length when the frame was made.
        self.offset + (HEADER_LEN + FOOTER_LEN) as u64 + self.len
    }

    /// Checks the data CRC when the whole record was read
    /// ([`Frame::whole`]); `Ok(false)` when it was not.
    ///
    /// # Errors
    /// [`Error::DataLoss`] for a mismatch, as
    /// [`RecordReader`](super::RecordReader) reports it.
    pub(super) fn check_whole(&self, name: &str) -> Result<bool> {
        let Some((data, stored)) = self.whole else {
            return Ok(false);
        };
        let computed = crc32c::masked(data);
        if stored != computed {
            return Err(corrupted(
                name,
                self.index,
                self.offset,
                "data",
                stored,
                computed,
            ));
        }
        Ok(true)
    }
}

/// Calls `f` with each record of `blob` in order, reading each header
/// (its length CRC checked) and the first `peek` bytes of its data, until
/// the end or until `f` returns `Ok(false)`. `Ok(true)` when every record
/// was seen.
///
/// # Errors
/// [`Error::DataLoss`] for a length CRC mismatch or a record that runs
/// past the end, naming the record and its offset as fields (as
/// [`RecordReader`](super::RecordReader) does); `f`'s errors; the blob's.
pub(super) fn walk(
    blob: &dyn Blob,
    peek: usize,
    mut f: impl FnMut(&Frame<'_>) -> Result<bool>,
) -> Result<bool> {
    let total = blob.len();
    let name = blob.id();
    // The window holds `win.len()` bytes of the blob from `win_at`.
    let mut win: Vec<u8> = Vec::new();
    let mut win_at = 0u64;
    let (mut off, mut index) = (0u64, 0u64);
    let mut readahead = READAHEAD;
    // A header, the first bytes, and the footer of a record no longer
    // than them (so that its CRC can be checked).
    let need = (HEADER_LEN + peek + FOOTER_LEN) as u64;
    while off < total {
        let left = total - off;
        let win_end = win_at + win.len() as u64;
        if off < win_at || off + need.min(left) > win_end {
            // At most `need.max(READAHEAD)` bytes: small.
            let n = need.max(readahead).min(left) as usize;
            win.clear();
            win.try_reserve_exact(n)
                .map_err(|_| Error::AllocationFailed { bytes: n })?;
            win.resize(n, 0);
            blob.read_at(off, &mut win)?;
            win_at = off;
        }
        #[expect(
            clippy::indexing_slicing,
            reason = "`win` was refilled from `off` unless it held `off` already: \
                      win_at <= off <= win_at + win.len()"
        )]
        let avail = &win[(off - win_at) as usize..];
        let truncated = |what: String| {
            located(
                Error::data_loss(format!("truncated record: {what}")),
                name,
                index,
                off,
            )
        };
        let Some((&head, rest)) = avail.split_first_chunk::<HEADER_LEN>() else {
            return Err(truncated(format!(
                "the header needs {HEADER_LEN} bytes, the file ends after {left}"
            )));
        };
        let [l0, l1, l2, l3, l4, l5, l6, l7, c0, c1, c2, c3] = head;
        let len_bytes = [l0, l1, l2, l3, l4, l5, l6, l7];
        let stored = u32::from_le_bytes([c0, c1, c2, c3]);
        let computed = crc32c::masked(&len_bytes);
        if stored != computed {
            return Err(corrupted(name, index, off, "length", stored, computed));
        }
        let len = u64::from_le_bytes(len_bytes);
        let after = left - HEADER_LEN as u64;
        if len.checked_add(FOOTER_LEN as u64).is_none_or(|n| n > after) {
            return Err(truncated(format!(
                "the header declares {len} bytes of data, the file has {after} bytes after it"
            )));
        }
        // The window holds at least `min(len, peek)` data bytes: it was
        // filled with `need` bytes or to the end of the blob,
        // which the record lies within.
        let data_here = usize::try_from(len).map_or(rest.len(), |l| l.min(rest.len()));
        let (prefix, _) = rest.split_at(data_here.min(peek));
        let whole = usize::try_from(len).ok().and_then(|l| {
            let data = rest.get(..l)?;
            let footer = rest.get(l..)?.first_chunk::<FOOTER_LEN>()?;
            Some((data, u32::from_le_bytes(*footer)))
        });
        let frame = Frame {
            index,
            offset: off,
            len,
            prefix,
            whole,
        };
        if !f(&frame)? {
            return Ok(false);
        }
        let end = frame.end();
        readahead = if end - off < READAHEAD { READAHEAD } else { 0 };
        off = end;
        index += 1;
    }
    Ok(true)
}

/// A CRC mismatch of record `index` at `offset`, as
/// [`RecordReader`](super::RecordReader) reports it.
pub(super) fn corrupted(
    name: &str,
    index: u64,
    offset: u64,
    what: &str,
    stored: u32,
    computed: u32,
) -> Error {
    located(
        Error::data_loss(format!(
            "corrupted record: {what} checksum mismatch (stored {stored:#010x}, computed \
             {computed:#010x})"
        )),
        name,
        index,
        offset,
    )
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::io::BytesBlob;
    use crate::tfrecord::{Compression, RecordWriter};

    fn blob(records: &[&[u8]]) -> Arc<dyn Blob> {
        let mut w = RecordWriter::new(Vec::new(), Compression::None);
        for r in records {
            w.write_record(r).unwrap();
        }
        Arc::new(BytesBlob::new("t", w.finish().unwrap()))
    }

    #[test]
    fn frames_give_offsets_prefixes_and_whole_small_records() {
        let big = vec![9u8; 100_000];
        let b = blob(&[b"first record", b"", &big, b"last"]);
        let mut seen = Vec::new();
        let all = walk(&*b, 3, |f| {
            assert!(f.check_whole("t").is_ok());
            seen.push((
                f.index,
                f.offset,
                f.len,
                f.prefix.to_vec(),
                f.whole.is_some(),
            ));
            Ok(true)
        })
        .unwrap();
        assert!(all);
        assert_eq!(seen[0], (0, 0, 12, b"fir".to_vec(), true));
        assert_eq!(seen[1], (1, 28, 0, Vec::new(), true));
        assert_eq!(seen[2], (2, 44, 100_000, vec![9; 3], false));
        // After a large record, a window of a header, `peek` bytes and a
        // footer: too short for this one whole.
        assert_eq!(seen[3], (3, 44 + 100_016, 4, b"las".to_vec(), false));
    }

    #[test]
    fn damage_is_data_loss_at_the_record() {
        let good = blob(&[b"0123456789", b"abc"]);
        let bytes = good.read_all().unwrap().to_vec();
        let mut cut = bytes.clone();
        cut.pop();
        let err = walk(&BytesBlob::new("t", cut), 4, |_| Ok(true)).unwrap_err();
        assert_eq!(
            (err.key(), err.location().unwrap().offset),
            (Some("record 1"), Some(26))
        );
        assert!(err.to_string().contains("truncated record"), "{err}");
        let mut flipped = bytes.clone();
        flipped[0] ^= 1;
        let err = walk(&BytesBlob::new("t", flipped), 4, |_| Ok(true)).unwrap_err();
        assert!(
            err.to_string().contains("length checksum mismatch"),
            "{err}"
        );
        let mut data = bytes;
        data[13] ^= 1;
        let err = walk(&BytesBlob::new("t", data), 4, |f| f.check_whole("t")).unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::DataLoss);
        assert!(err.to_string().contains("data checksum mismatch"), "{err}");
    }
}
