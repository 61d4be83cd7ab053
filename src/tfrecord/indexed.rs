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

use prost::Message;

use super::tensors::{content_offset, parse_record, varint};
use super::{Compression, RecordReader};
use crate::buffer::read_policy::ReadBuf;
use crate::{DataType, Error, Result, Tensor, TensorShape};

/// Bytes of each record read by the listing pass: a `TensorProto` puts its
/// dtype and shape first, and a shape of the most dims TF allows fits.
const PEEK: usize = 4096;

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
            let header = match peek_header(&prefix, whole) {
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

    /// Reads record `index` (both CRCs checked); an error if its tensor
    /// is not the dtype and shape its header listed.
    pub(crate) fn read(&mut self, index: usize) -> Result<Tensor> {
        let (Some(&(offset, len)), Some((dtype, shape))) =
            (self.spans.get(index), self.headers.get(index))
        else {
            return Err(Error::not_found(format!("no record {index}")));
        };
        let t = match self.compression {
            Compression::None => read_at(&self.path, offset, index as u64, len)?,
            _ => {
                let mut reader = match self.cursor.take() {
                    Some(r) if r.index() <= index as u64 => r,
                    _ => RecordReader::open(&self.path, self.compression)?,
                };
                let t = read_next_at(&mut reader, &self.path, index)?;
                self.cursor = Some(reader);
                t
            }
        };
        if t.dtype() != *dtype || t.shape() != shape {
            return Err(Error::invalid_format(
                "tfrecord",
                format!(
                    "the record's TensorProto repeats its dtype or shape: listed as {} {}, \
                     decoded as {} {}",
                    dtype.name(),
                    shape,
                    t.dtype().name(),
                    t.shape()
                ),
            ));
        }
        Ok(t)
    }
}

/// Reads the record at `offset` into a buffer of its own, its
/// `tensor_content` 64-byte aligned so the tensor adopts it.
fn read_at(path: &Path, offset: u64, index: u64, len: u64) -> Result<Tensor> {
    let mut reader = RecordReader::open_at(path, offset, index)?;
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

/// The dtype and shape of a serialized `TensorProto` from its first bytes,
/// read as TF writes them: `dtype` (field 1) and `tensor_shape` (field 2)
/// before any other field. `None` when the bytes end first and are not
/// `whole`; an error for a dtype a tensor cannot have or a bad shape.
fn peek_header(prefix: &[u8], whole: bool) -> Option<Result<(DataType, TensorShape)>> {
    let mut at = 0usize;
    let mut dtype = 0i32;
    let mut shape = crate::pb::TensorShapeProto::default();
    loop {
        let Some((tag, n)) = prefix.get(at..).and_then(varint) else {
            // The end of the record ends the header; a cut prefix does not.
            return (whole && at == prefix.len()).then(|| header(dtype, &shape));
        };
        match (tag >> 3, tag & 7) {
            (1, 0) => {
                let (v, m) = prefix.get(at + n..).and_then(varint)?;
                // Protobuf's int32: the low 32 bits of the varint.
                dtype = v as i32;
                at += n + m;
            }
            (2, 2) => {
                let (len, m) = prefix.get(at + n..).and_then(varint)?;
                let start = at + n + m;
                let end = start.checked_add(usize::try_from(len).ok()?)?;
                let Some(bytes) = prefix.get(start..end) else {
                    return whole.then(|| Err(Error::invalid_proto("truncated tensor_shape")));
                };
                // Repeated message fields merge, as protobuf does.
                if let Err(e) = shape.merge(bytes) {
                    return Some(Err(Error::proto_decode("bad tensor_shape", e)));
                }
                at = end;
            }
            _ => return Some(header(dtype, &shape)),
        }
    }
}

fn header(dtype: i32, shape: &crate::pb::TensorShapeProto) -> Result<(DataType, TensorShape)> {
    let dtype = DataType::from_i32(dtype);
    if !dtype.is_valid_tensor_dtype() {
        return Err(Error::invalid_proto(format!(
            "dtype {} is not a tensor's dtype",
            dtype.as_i32()
        )));
    }
    Ok((dtype, TensorShape::from_proto(shape)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tfrecord::serialize_tensor;

    #[test]
    fn header_from_the_first_bytes() {
        let t = Tensor::from_vec([2, 3], vec![0u16; 6]).unwrap();
        let bytes = serialize_tensor(&t).unwrap();
        let (dtype, shape) = peek_header(&bytes[..13], false).unwrap().unwrap();
        assert_eq!((dtype, shape.dim_sizes()), (DataType::UInt16, vec![2, 3]));
        // Cut inside the shape: not known yet.
        assert!(peek_header(&bytes[..4], false).is_none());
        // A scalar string: fields 1, 2 (empty shape) then 8.
        let s = serialize_tensor(&Tensor::from("ab")).unwrap();
        let (dtype, shape) = peek_header(&s, true).unwrap().unwrap();
        assert_eq!((dtype, shape.dims()), (DataType::String, 0));
        // dtype 0 is not a tensor's.
        assert!(peek_header(b"\x08\x00\x12\x00", true).unwrap().is_err());
    }
}
