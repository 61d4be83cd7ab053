//! A framing-only pass over an uncompressed TFRecord file, and reading it
//! from a record boundary: how `tftensor::io` lists a TFRecord of tensors
//! without reading their data, then reads one record at a time.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use super::{Compression, FOOTER_LEN, HEADER_LEN, Input, RecordReader, read_full};
use crate::{Error, Result};

impl RecordReader<File> {
    /// Opens the uncompressed file at `path` at `offset`, the first byte
    /// of record number `index` (as [`RecordReader::offset`] and
    /// [`RecordReader::index`] reported it), so errors name the record as
    /// a reader from the start would.
    pub(crate) fn open_at(path: &Path, offset: u64, index: u64) -> Result<Self> {
        let mut reader = RecordReader::open(path, Compression::None)?;
        let Input::Plain(input) = &mut reader.input else {
            debug_assert!(false, "opened with Compression::None");
            return Err(Error::InvalidArgument(
                "open_at needs an uncompressed file".into(),
            ));
        };
        input
            .seek(SeekFrom::Start(offset))
            .map_err(|e| Error::io(&reader.name, &e))?;
        reader.remaining = reader.remaining.map(|len| len.saturating_sub(offset));
        reader.offset = offset;
        reader.index = index;
        Ok(reader)
    }

    /// Reads the next record's header (checking its length CRC) and the
    /// first `peek` bytes of its data into `prefix` (cleared first), and
    /// moves past the rest of the record without reading it: the data CRC
    /// is not checked. `Ok(Some(data length))`, or `Ok(None)` at the end.
    /// A record that runs past the end of the file is truncated, as for
    /// [`RecordReader::read_record`].
    pub(crate) fn skim_record(&mut self, peek: usize, prefix: &mut Vec<u8>) -> Result<Option<u64>> {
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

    fn skim_inner(&mut self, peek: usize, prefix: &mut Vec<u8>) -> Result<Option<u64>> {
        let Some((len, record_end)) = self.read_header()? else {
            return Ok(None);
        };
        let rest_of_file = self.remaining.map(|r| r.saturating_sub(HEADER_LEN as u64));
        if let Some(r) = rest_of_file.filter(|&r| r < len.saturating_add(FOOTER_LEN as u64)) {
            return Err(self.truncated(&format!(
                "the header declares {len} bytes of data, the file has {r} bytes after it"
            )));
        }
        // `peek` bounds it, and the file holds `len` bytes more.
        let want = usize::try_from(len).map_or(peek, |l| l.min(peek));
        prefix.resize(want, 0);
        let got = read_full(self.input.get(), prefix).map_err(|e| self.read_error(&e))?;
        prefix.truncate(got);
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
        Ok(Some(len))
    }
}

#[cfg(test)]
mod tests {
    use crate::tfrecord::{Compression, RecordReader, RecordWriter};

    fn file(records: &[&[u8]]) -> tempfile::NamedTempFile {
        let f = tempfile::NamedTempFile::new().unwrap();
        let mut w = RecordWriter::create(f.path(), Compression::None).unwrap();
        for r in records {
            w.write_record(r).unwrap();
        }
        w.finish().unwrap();
        f
    }

    #[test]
    fn skims_then_reads_from_a_boundary() {
        let f = file(&[b"first record", b"", b"third"]);
        let mut r = RecordReader::open(f.path(), Compression::None).unwrap();
        let mut prefix = Vec::new();
        let mut spans = Vec::new();
        loop {
            let (at, index) = (r.offset(), r.index());
            match r.skim_record(3, &mut prefix).unwrap() {
                Some(len) => spans.push((at, index, len, prefix.clone())),
                None => break,
            }
        }
        assert_eq!(spans.len(), 3);
        assert_eq!(spans[0], (0, 0, 12, b"fir".to_vec()));
        assert_eq!(spans[1], (28, 1, 0, Vec::new()));
        assert_eq!(spans[2], (44, 2, 5, b"thi".to_vec()));
        let mut at = RecordReader::open_at(f.path(), 44, 2).unwrap();
        assert_eq!(at.next().unwrap().unwrap(), b"third");
        assert!(at.next().is_none());
    }

    #[test]
    fn a_record_past_the_end_is_truncated_and_a_bad_length_corrupt() {
        let f = file(&[b"0123456789"]);
        let bytes = std::fs::read(f.path()).unwrap();
        std::fs::write(f.path(), &bytes[..bytes.len() - 1]).unwrap();
        let mut r = RecordReader::open(f.path(), Compression::None).unwrap();
        let err = r.skim_record(4, &mut Vec::new()).unwrap_err();
        assert!(matches!(err, crate::Error::DataLoss { .. }), "{err}");
        assert!(
            err.to_string().contains("truncated record at 0 (record 0)"),
            "{err}"
        );
        let mut flipped = bytes.clone();
        flipped[0] ^= 1;
        std::fs::write(f.path(), &flipped).unwrap();
        let mut r = RecordReader::open(f.path(), Compression::None).unwrap();
        let err = r.skim_record(4, &mut Vec::new()).unwrap_err();
        assert!(err.to_string().contains("corrupted record at 0"), "{err}");
        // After an error, the end.
        assert_eq!(r.skim_record(4, &mut Vec::new()).unwrap(), None);
    }
}
