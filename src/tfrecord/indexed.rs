//! A TFRecord file of tensors listed by a framing-only pass (each record's
//! header and the first bytes of its `TensorProto`) and read one record at
//! a time: what `tftensor::io` opens a TFRecord of tensors as. An
//! uncompressed file is read at each record's offset; a compressed one
//! through a decompressing cursor that moves forward (and starts over for
//! an earlier record), so reading every record in order decompresses the
//! file once.

use std::fs::File;
use std::path::{Path, PathBuf};

use bytes::Bytes;

use super::tensors::{content_offset, parse_record};
use super::{Compression, RecordReader};
use crate::buffer::read_policy::ReadBuf;
use crate::{DataType, Error, Result, Tensor, TensorShape};

use crate::proto::PEEK;

/// The records of an uncompressed TFRecord file of tensors: where each
/// lies, and its dtype and shape from its header.
#[derive(Debug)]
pub(crate) struct TensorRecords {
    path: PathBuf,
    compression: Compression,
    /// A compressed file's reader, at the record after the last one read.
    cursor: Option<RecordReader<File>>,
    /// Each record's offset and data length.
    spans: Vec<(u64, u64)>,
    headers: Vec<(DataType, TensorShape)>,
}

impl TensorRecords {
    /// Lists the file's records, or `Ok(None)` when its first record does
    /// not start as a serialized `TensorProto` does (field 1, the dtype, as
    /// a varint): then it is not a file of tensors. Length CRCs are
    /// checked; data CRCs when each record is read.
    pub(crate) fn list(path: &Path, compression: Compression) -> Result<Option<TensorRecords>> {
        let mut reader = RecordReader::open(path, compression)?;
        let (mut spans, mut headers) = (Vec::new(), Vec::new());
        let mut prefix = Vec::new();
        loop {
            let (offset, index) = (reader.offset(), reader.index());
            let Some(len) = reader.skim_record(PEEK, &mut prefix)? else {
                break;
            };
            if index == 0 && prefix.first() != Some(&0x08) {
                return Ok(None);
            }
            let whole = prefix.len() as u64 == len;
            let header = match crate::proto::peek_header(&prefix, whole) {
                Some(h) => h,
                // A field order TF does not write: decode the record.
                None => {
                    let t = match compression {
                        Compression::None => read_at(path, offset, index, len)?,
                        _ => read_from_start(path, compression, index)?,
                    };
                    Ok((t.dtype(), t.shape().clone()))
                }
            };
            let header = header.map_err(|e| {
                Error::invalid_format("tfrecord", format!("not a serialized TensorProto: {e}"))
                    .with_path(path.display())
                    .with_key(format!("record {index}"))
            })?;
            spans.push((offset, len));
            headers.push(header);
        }
        Ok(Some(TensorRecords {
            path: path.to_path_buf(),
            compression,
            cursor: None,
            spans,
            headers,
        }))
    }

    /// Each record's dtype and shape, in file order.
    pub(crate) fn headers(&self) -> &[(DataType, TensorShape)] {
        &self.headers
    }

    /// Reads record `index`, both CRCs checked (`tftensor::io` checks it is
    /// the dtype and shape listed).
    pub(crate) fn read(&mut self, index: usize) -> Result<Tensor> {
        let Some(&(offset, len)) = self.spans.get(index) else {
            return Err(Error::not_found(format!("no record {index}")));
        };
        match self.compression {
            Compression::None => read_at(&self.path, offset, index as u64, len),
            _ => {
                let mut reader = match self.cursor.take() {
                    Some(r) if r.index() <= index as u64 => r,
                    _ => RecordReader::open(&self.path, self.compression)?,
                };
                let t = read_next_at(&mut reader, &self.path, index)?;
                self.cursor = Some(reader);
                Ok(t)
            }
        }
    }
}

/// Reads the record at `offset` into a buffer of its own, its
/// `tensor_content` 64-byte aligned so the tensor adopts it.
fn read_at(path: &Path, offset: u64, index: u64, len: u64) -> Result<Tensor> {
    let mut reader = RecordReader::open_at(path, offset, index)?.for_placing();
    let room = usize::try_from(len)
        .ok()
        .and_then(|l| l.checked_add(crate::ALIGNMENT))
        .ok_or(Error::AllocationFailed { bytes: usize::MAX })?;
    let mut buf = ReadBuf::new(room)?;
    let mut pos = 0;
    let range = reader
        .read_record_placed(&mut buf, &mut pos, &content_offset)?
        .ok_or_else(|| {
            Error::data_loss(format!("no record at {offset}")).with_path(path.display())
        })?;
    let bytes = buf.freeze().map_err(|e| Error::io(path.display(), &e))?;
    parse_record(bytes.slice(range), index as usize, path)
}

/// Reads record `index` of a compressed file from its start.
fn read_from_start(path: &Path, compression: Compression, index: u64) -> Result<Tensor> {
    let mut reader = RecordReader::open(path, compression)?;
    // Listing found the record, so `index` fits usize.
    read_next_at(
        &mut reader,
        path,
        usize::try_from(index).unwrap_or(usize::MAX),
    )
}

/// Moves `reader` forward to record `index` (at or after where it is,
/// decompressing the records between without checking their data) and
/// reads that record, both CRCs checked.
fn read_next_at(reader: &mut RecordReader<File>, path: &Path, index: usize) -> Result<Tensor> {
    let missing = || Error::data_loss(format!("no record {index}")).with_path(path.display());
    let mut skipped = Vec::new();
    while reader.index() < index as u64 {
        reader.skim_record(0, &mut skipped)?.ok_or_else(missing)?;
    }
    let mut data = Vec::new();
    if !reader.read_record(&mut data)? {
        return Err(missing());
    }
    parse_record(Bytes::from(data), index, path)
}
