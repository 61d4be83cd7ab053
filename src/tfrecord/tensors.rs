//! Records that hold tensors: `tf.io.serialize_tensor` /
//! `tf.io.parse_tensor` payloads.

use std::path::Path;

use bytes::Bytes;
use prost::Message;

use super::record::PLACE_MIN;
use super::{Compression, RecordReader, RecordWriter};
use crate::buffer::read_policy::ReadBuf;
use crate::{DataType, Error, Result, Tensor};

/// The bytes `tf.io.serialize_tensor` writes for `tensor`: TF's
/// `SerializeTensorOp` encodes strings with `AsProtoField` and every other
/// dtype with `AsProtoTensorContent`.
///
/// # Errors
/// As [`Tensor::as_proto_field`] / [`Tensor::as_proto_tensor_content`].
///
/// ```
/// use tftensor::tfrecord::serialize_tensor;
/// use tftensor::Tensor;
/// // tf.io.serialize_tensor(tf.constant(1.0)).numpy()
/// assert_eq!(serialize_tensor(&Tensor::from(1.0f32))?, b"\x08\x01\x12\x00\x22\x04\x00\x00\x80\x3f");
/// // tf.io.serialize_tensor(tf.constant(b"ab")).numpy()
/// assert_eq!(serialize_tensor(&Tensor::from("ab"))?, b"\x08\x07\x12\x00\x42\x02ab");
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn serialize_tensor(tensor: &Tensor) -> Result<Vec<u8>> {
    let proto = if tensor.dtype() == DataType::String {
        tensor.as_proto_field()?
    } else {
        tensor.as_proto_tensor_content()?
    };
    Ok(proto.encode_to_vec())
}

/// Parses a record as `tf.io.parse_tensor` does (with
/// [`Tensor::decode`]'s limits); the tensor adopts the record's bytes
/// without a copy where it can.
///
/// # Errors
/// [`Error::InvalidProto`] when the record is not a valid serialized
/// `TensorProto`, as [`Tensor::decode`].
///
/// ```
/// use tftensor::tfrecord::{parse_tensor, serialize_tensor};
/// use tftensor::Tensor;
/// let t = Tensor::from_vec([2, 2], vec![1i64, 2, 3, 4])?;
/// assert_eq!(parse_tensor(serialize_tensor(&t)?)?, t);
/// assert!(parse_tensor(Vec::new()).is_err()); // DT_INVALID
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn parse_tensor(record: impl Into<Bytes>) -> Result<Tensor> {
    Tensor::decode(record.into())
}

/// Reads every record of the TFRecord file at `path` as a serialized
/// tensor (`tf.data.TFRecordDataset(path, compression).map(parse_tensor)`).
///
/// An uncompressed file is read whole into one buffer (huge pages when
/// large, no zero-fill), each record's CRC computed chunk by chunk as it
/// arrives; records of 4 KiB or more are placed so their `tensor_content`
/// is 64-byte aligned, and the tensors adopt their slices of that buffer
/// without a copy (the buffer lives until the last of them is dropped).
/// Compressed files are read record by record.
///
/// # Errors
/// As [`RecordReader`] for the framing; a record that does not parse is an
/// [`Error::InvalidProto`] naming the file and the record's index.
///
/// ```
/// use tftensor::tfrecord::{read_tensors, Compression};
/// assert!(read_tensors("/no/such.tfrecord", Compression::None).is_err());
/// ```
pub fn read_tensors(path: impl AsRef<Path>, compression: Compression) -> Result<Vec<Tensor>> {
    let path = path.as_ref();
    let reader = RecordReader::open(path, compression)?;
    if let Some(len) = reader.remaining() {
        if let Some(tensors) = read_large_records(path, len)? {
            return Ok(tensors);
        }
        return read_whole(reader.for_placing(), len, path);
    }
    let mut out = Vec::new();
    for (index, record) in reader.enumerate() {
        out.push(parse_record(record?, index, path)?);
    }
    Ok(out)
}

/// `parse_tensor`, with an error naming the file and the record.
pub(super) fn parse_record(record: impl Into<Bytes>, index: usize, path: &Path) -> Result<Tensor> {
    parse_tensor(record).map_err(|e| match e {
        Error::InvalidProto { message: m, source } => Error::InvalidProto {
            message: format!(
                "{}: record {index} is not a serialized TensorProto: {m}",
                path.display()
            ),
            source,
        },
        other => other,
    })
}

/// [`read_tensors`] of an uncompressed file of `len` bytes, read whole
/// into one buffer under the read policy (huge pages when large, no
/// zero-fill). Records of [`PLACE_MIN`] bytes or more are placed so their
/// `tensor_content` is 64-byte aligned, and every tensor adopts its slice
/// of the buffer; CRCs are computed chunk by chunk as the data arrives.
/// Same results and errors as reading record by record: a framing error is
/// reported after the records before it are parsed.
fn read_whole(
    mut reader: RecordReader<std::fs::File>,
    len: u64,
    path: &Path,
) -> Result<Vec<Tensor>> {
    // Each placed record costs at most 63 bytes of padding.
    let placed = len / (PLACE_MIN as u64 + 16) + 1;
    let room = len.saturating_add(placed.saturating_mul(crate::ALIGNMENT as u64));
    let room = usize::try_from(room).map_err(|_| Error::AllocationFailed { bytes: usize::MAX })?;
    let mut buf = ReadBuf::new(room)?;
    let mut pos = 0usize;
    let mut ranges = Vec::new();
    let framing = loop {
        match reader.read_record_placed(&mut buf, &mut pos, &content_offset) {
            Ok(Some(r)) => ranges.push(r),
            Ok(None) => break None,
            Err(e) => break Some(e),
        }
    };
    let bytes = buf.freeze().map_err(|e| Error::io(path.display(), &e))?;
    let mut out = crate::buffer::try_vec(ranges.len())?;
    for (index, r) in ranges.into_iter().enumerate() {
        out.push(parse_record(bytes.slice(r), index, path)?);
    }
    match framing {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// Files at least this large, of records this large on average, are read
/// by [`read_large_records`].
const LARGE_FILE: u64 = 32 << 20;
const LARGE_RECORD: u64 = 64 << 10;
/// Bytes of each record's data looked at to place its `tensor_content`.
const SKEW_PEEK: usize = 256;

/// [`read_tensors`] of a large uncompressed file of large records, on two
/// cores: a first pass reads only each record's header, first bytes and
/// footer (two small reads a record); then every record's data is read
/// into its place in one buffer by [`read_jobs`] (two threads, each piece
/// checksummed on the core that read it), and each record's CRC is
/// checked. `None` hands the file to the record-by-record path: small
/// records, or anything wrong (a bad length CRC, a truncated record, a
/// data CRC mismatch, an I/O error), so that errors are exactly that
/// path's.
fn read_large_records(path: &Path, len: u64) -> Result<Option<Vec<Tensor>>> {
    use crate::buffer::read_jobs::{Checksum, RangeRead, read_at, read_jobs};
    use crate::buffer::read_policy::align_pos;
    if len < LARGE_FILE {
        return Ok(None);
    }
    let Ok(file) = std::fs::File::open(path) else {
        return Ok(None);
    };
    // (data offset, data length, stored masked CRC, payload skew)
    let mut records: Vec<(u64, u64, u32, Option<usize>)> = Vec::new();
    let mut head = [0u8; 12 + SKEW_PEEK];
    let mut off = 0u64;
    while off < len {
        // What is left of the file, at most a header and peek (a length
        // past usize is longer than that).
        let want = usize::try_from(len - off).map_or(head.len(), |l| l.min(head.len()));
        // In bounds: want <= head.len().
        let peek = head.get_mut(..want).unwrap_or_default();
        if want < 12 || read_at(&file, peek, off).is_err() {
            return Ok(None);
        }
        // In bounds: want >= 12.
        let (len_bytes, rest) = peek.split_at(8);
        let stored_len_crc = rest
            .get(..4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map(u32::from_le_bytes);
        let Ok(len_array) = <[u8; 8]>::try_from(len_bytes) else {
            return Ok(None);
        };
        if stored_len_crc != Some(crate::crc32c::masked(len_bytes)) {
            return Ok(None);
        }
        let data_len = u64::from_le_bytes(len_array);
        let Some(end) = off
            .checked_add(data_len)
            .and_then(|e| e.checked_add(16))
            .filter(|&e| e <= len)
        else {
            return Ok(None);
        };
        // Many small records: the first pass would cost a read each.
        if records.len() >= 16 && (records.len() as u64).saturating_mul(LARGE_RECORD) > end {
            return Ok(None);
        }
        // The bytes after the header that are this record's data: all of
        // the peek when the data is longer (`rest` holds at least the 4
        // bytes of the length CRC, so `get(4..)` is never empty by default).
        let data_peek = rest.get(4..).unwrap_or_default();
        let data_peek = usize::try_from(data_len)
            .ok()
            .and_then(|l| data_peek.get(..l))
            .unwrap_or(data_peek);
        let skew = (data_len >= PLACE_MIN as u64)
            .then(|| content_offset(data_peek))
            .flatten();
        let mut footer = [0u8; 4];
        if read_at(&file, &mut footer, end - 4).is_err() {
            return Ok(None);
        }
        records.push((off + 12, data_len, u32::from_le_bytes(footer), skew));
        off = end;
    }
    // Each placed record costs at most 63 bytes of padding.
    let data: u64 = records.iter().map(|r| r.1).sum();
    let pad = (records.len() as u64).saturating_mul(crate::ALIGNMENT as u64);
    let room = usize::try_from(data.saturating_add(pad))
        .map_err(|_| Error::AllocationFailed { bytes: usize::MAX })?;
    let mut buf = ReadBuf::new(room)?;
    let base = buf.addr();
    let mut ranges = Vec::with_capacity(records.len());
    let mut jobs = Vec::with_capacity(records.len());
    let mut rest = buf.as_mut_slice();
    let mut pos = 0usize;
    for &(at, data_len, _, skew) in &records {
        let start = skew.map_or(pos, |k| align_pos(base, pos, k, crate::ALIGNMENT));
        // Within the file, so the length fits in usize.
        let size = data_len as usize;
        let (dst, after) = std::mem::take(&mut rest)
            .get_mut(start - pos..)
            .and_then(|r| r.split_at_mut_checked(size))
            .ok_or(Error::AllocationFailed { bytes: room })?;
        rest = after;
        ranges.push(start..start + size);
        jobs.push(RangeRead {
            offset: at,
            dst,
            sum: Some(Checksum::Crc32c),
        });
        pos = start + size;
    }
    let Ok(crcs) = read_jobs(&file, jobs) else {
        return Ok(None);
    };
    let all_match = records
        .iter()
        .zip(&crcs)
        .all(|(r, crc)| crc.map(crate::crc32c::mask) == Some(r.2));
    if !all_match {
        return Ok(None);
    }
    let bytes = buf.freeze().map_err(|e| Error::io(path.display(), &e))?;
    let mut out = crate::buffer::try_vec(ranges.len())?;
    for (index, r) in ranges.into_iter().enumerate() {
        out.push(parse_record(bytes.slice(r), index, path)?);
    }
    Ok(Some(out))
}

/// Where `tensor_content` (field 4) starts in a serialized `TensorProto`
/// whose first bytes are `data`, if they show it: the skew that aligns it.
pub(super) fn content_offset(data: &[u8]) -> Option<usize> {
    let mut at = 0usize;
    loop {
        let (tag, n) = varint(data.get(at..)?)?;
        at += n;
        match tag & 7 {
            0 => at += varint(data.get(at..)?)?.1,
            1 => at += 8,
            5 => at += 4,
            2 => {
                let (len, n) = varint(data.get(at..)?)?;
                at += n;
                if tag >> 3 == 4 {
                    return Some(at);
                }
                at = at.checked_add(usize::try_from(len).ok()?)?;
            }
            _ => return None,
        }
    }
}

/// A protobuf varint at the start of `b`: `(value, bytes used)`.
fn varint(b: &[u8]) -> Option<(u64, usize)> {
    let mut v = 0u64;
    for (i, &byte) in b.iter().take(10).enumerate() {
        v |= u64::from(byte & 0x7f) << (7 * i);
        if byte < 0x80 {
            return Some((v, i + 1));
        }
    }
    None
}

/// Writes each tensor as one record of [`serialize_tensor`] bytes to a new
/// TFRecord file at `path` (what `tf.io.TFRecordWriter` writes for
/// `tf.io.serialize_tensor(t).numpy()`; byte-identical when uncompressed).
///
/// # Errors
/// [`Error::Io`] when the file cannot be written; as [`serialize_tensor`].
///
/// ```
/// use tftensor::tfrecord::{write_tensors, Compression};
/// use tftensor::Tensor;
/// assert!(write_tensors("/no/such/dir/t.tfrecord", Compression::None, &[Tensor::from(1i32)]).is_err());
/// ```
pub fn write_tensors(
    path: impl AsRef<Path>,
    compression: Compression,
    tensors: &[Tensor],
) -> Result<()> {
    let mut writer = RecordWriter::create(path, compression)?;
    for tensor in tensors {
        writer.write_record(&serialize_tensor(tensor)?)?;
    }
    writer.finish()?;
    Ok(())
}
