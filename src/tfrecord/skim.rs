//! Skimming a TFRecord stream: each record's header and first bytes, the
//! rest passed over unread (or, when compressed, decompressed and
//! dropped). How `tftensor::io` lists a compressed TFRecord, and moves a
//! compressed reader forward to the record it reads.

use std::io::{self, Read};

use super::{FOOTER_LEN, Input, RecordReader, read_full};
use crate::io::SharedBlobReader;

use crate::{Result, crc32c};

impl RecordReader<SharedBlobReader> {
    /// Reads the next record's header (checking its length CRC) and the
    /// first `peek` bytes of its data into `prefix` (cleared first), and
    /// moves past the rest of the record without reading it.
    /// `Ok(Some((data length, whole)))`, or `Ok(None)` at the end. When the
    /// whole data fit in `peek` bytes, its CRC is checked too, and `whole`
    /// is true; otherwise the data CRC is not checked. A record that runs
    /// past the end of the file is truncated, as for
    /// [`RecordReader::read_record`].
    pub(crate) fn skim_record(
        &mut self,
        peek: usize,
        prefix: &mut Vec<u8>,
    ) -> Result<Option<(u64, bool)>> {
        prefix.clear();
        if self.done {
            return Ok(None);
        }
        let result = self.skim_inner(peek, prefix);
        match result {
            Ok(Some(_)) => self.index += 1,
            Ok(None) | Err(_) => self.done = true,
        }
        result
    }

    fn skim_inner(&mut self, peek: usize, prefix: &mut Vec<u8>) -> Result<Option<(u64, bool)>> {
        let Some((len, record_end)) = self.read_header()? else {
            return Ok(None);
        };
        if let Some(r) = self
            .remaining
            .map(|r| r.saturating_sub(super::HEADER_LEN as u64))
            .filter(|&r| r < len.saturating_add(FOOTER_LEN as u64))
        {
            return Err(self.truncated(&format!(
                "the header declares {len} bytes of data, the file has {r} bytes after it"
            )));
        }
        // `peek` bounds it, and the file holds `len` bytes more.
        let want = usize::try_from(len).map_or(peek, |l| l.min(peek));
        prefix.resize(want, 0);
        let got = read_full(self.input.get(), prefix).map_err(|e| self.read_error(&e))?;
        prefix.truncate(got);
        if got as u64 == len {
            // The whole data is here: its CRC costs nothing more.
            self.read_footer(crc32c::masked(prefix), record_end)?;
            return Ok(Some((len, true)));
        }
        let skip = len - got as u64 + FOOTER_LEN as u64;
        let skipped = match &mut self.input {
            Input::Plain(r) => i64::try_from(skip)
                .map_err(|_| io::Error::other("record too long to seek past"))
                .and_then(|s| r.seek_relative(s))
                .map(|()| skip),
            other => io::copy(&mut other.get().take(skip), &mut io::sink()),
        }
        .map_err(|e| self.read_error(&e))?;
        if skipped < skip {
            return Err(self.truncated(&format!(
                "the header declares {len} bytes of data, the stream ends before its checksum"
            )));
        }
        if let Some(rem) = self.remaining.as_mut() {
            *rem = rem.saturating_sub(record_end - self.offset);
        }
        self.offset = record_end;
        Ok(Some((len, false)))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::io::{BytesBlob, SharedBlobReader};
    use crate::tfrecord::{Compression, RecordReader, RecordWriter};

    fn reader(
        records: &[&[u8]],
        compression: Compression,
        cut: usize,
        flip: Option<usize>,
    ) -> RecordReader<SharedBlobReader> {
        let mut w = RecordWriter::new(Vec::new(), compression);
        for r in records {
            w.write_record(r).unwrap();
        }
        let mut bytes = w.finish().unwrap();
        bytes.truncate(bytes.len() - cut);
        if let Some(i) = flip {
            bytes[i] ^= 1;
        }
        RecordReader::from_blob(Arc::new(BytesBlob::new("t", bytes)), compression)
    }

    #[test]
    fn skims_records_plain_and_compressed() {
        for c in [Compression::None, Compression::Gzip] {
            let mut r = reader(&[b"first record", b"", b"third"], c, 0, None);
            let mut prefix = Vec::new();
            let mut spans = Vec::new();
            while let Some((len, whole)) = r.skim_record(6, &mut prefix).unwrap() {
                spans.push((len, whole, prefix.clone()));
            }
            assert_eq!(spans[0], (12, false, b"first ".to_vec()));
            assert_eq!(spans[1], (0, true, Vec::new()));
            assert_eq!(spans[2], (5, true, b"third".to_vec()));
            assert_eq!(r.index(), 3);
        }
    }

    #[test]
    fn a_record_past_the_end_is_truncated_and_a_bad_crc_corrupt() {
        let mut r = reader(&[b"0123456789"], Compression::None, 1, None);
        let err = r.skim_record(4, &mut Vec::new()).unwrap_err();
        assert!(matches!(err, crate::Error::DataLoss { .. }), "{err}");
        assert_eq!(
            (err.key(), err.location().unwrap().offset),
            (Some("record 0"), Some(0))
        );
        assert!(err.to_string().contains("truncated record"), "{err}");
        let mut r = reader(&[b"0123456789"], Compression::None, 0, Some(0));
        let err = r.skim_record(4, &mut Vec::new()).unwrap_err();
        assert!(
            err.to_string().contains("corrupted record: length"),
            "{err}"
        );
        // After an error, the end.
        assert_eq!(r.skim_record(4, &mut Vec::new()).unwrap(), None);
        // A record read whole has its data checked.
        let mut r = reader(&[b"0123456789"], Compression::None, 0, Some(14));
        let err = r.skim_record(100, &mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("corrupted record: data"), "{err}");
    }
}
