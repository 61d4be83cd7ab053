//! Records that hold tensors: `tf.io.serialize_tensor` /
//! `tf.io.parse_tensor` payloads.

use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use prost::Message;

use super::frames;
use super::record::{FOOTER_LEN, HEADER_LEN, PLACE_MIN};
use super::{Compression, RecordReader, RecordWriter};
use crate::buffer::read_policy::{ReadBuf, align_pos};
use crate::io::SharedBlobReader;
use crate::io::{Blob, Checksum, LocalFs, RangeRead, Store};
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
/// [`Error::InvalidProto`] with the file and the record (`record N`) as
/// fields.
///
/// ```
/// use tftensor::tfrecord::{read_tensors, Compression};
/// assert!(read_tensors("/no/such.tfrecord", Compression::None).is_err());
/// ```
pub fn read_tensors(path: impl AsRef<Path>, compression: Compression) -> Result<Vec<Tensor>> {
    let key = path.as_ref().to_string_lossy();
    read_tensors_of(LocalFs::new().open(&key)?, compression)
}

/// [`read_tensors`] of the records of `blob`.
pub(crate) fn read_tensors_of(
    blob: Arc<dyn Blob>,
    compression: Compression,
) -> Result<Vec<Tensor>> {
    if compression == Compression::None {
        if let Some(tensors) = read_large_records(&*blob)? {
            return Ok(tensors);
        }
        let len = blob.len();
        let reader = RecordReader::from_blob(blob, compression).for_placing();
        return read_whole(reader, len);
    }
    let reader = RecordReader::from_blob(blob, compression);
    let name = reader.name().to_owned();
    let mut out = Vec::new();
    for (index, record) in reader.enumerate() {
        out.push(parse_record(record?, index as u64, &name)?);
    }
    Ok(out)
}

/// `parse_tensor` of record `index` of the stream `name`, with both as
/// fields of an error.
pub(super) fn parse_record(record: impl Into<Bytes>, index: u64, name: &str) -> Result<Tensor> {
    parse_tensor(record).map_err(|e| {
        let e = match e {
            Error::InvalidProto { message: m, source } => Error::InvalidProto {
                message: format!("the record is not a serialized TensorProto: {m}"),
                source,
            },
            other => other,
        };
        e.with_path(name).with_key(format_args!("record {index}"))
    })
}

/// What the records of a file hold, told from its first record.
pub(crate) enum Kind {
    /// Serialized `TensorProto`s.
    Tensors,
    /// `tf.train.Example`s.
    Examples,
}

/// Tensors or Examples, from the first record: a TensorProto has a valid
/// dtype in field 1; an Example has only field 1 as a message
/// (`features`); a SequenceExample has field 2 (`feature_lists`).
///
/// # Errors
/// [`Error::InvalidFormat`] for `tf.train.SequenceExample`s (whose
/// `feature_lists` an Example reader would drop), and for a record that
/// is neither.
pub(crate) fn kind_of(record: &[u8], name: &str) -> Result<Kind> {
    if Tensor::decode(Bytes::copy_from_slice(record)).is_ok() {
        return Ok(Kind::Tensors);
    }
    if let Ok(seq) = crate::pb::SequenceExample::decode(record) {
        if seq
            .feature_lists
            .is_some_and(|l| !l.feature_list.is_empty())
        {
            return Err(Error::invalid_format(
                "tfrecord",
                "the records are tf.train.SequenceExamples, which are not read yet (their \
                 feature_lists would be lost)",
            )
            .with_path(name));
        }
    }
    if crate::pb::Example::decode(record).is_ok() {
        return Ok(Kind::Examples);
    }
    Err(Error::invalid_format(
        "tfrecord",
        "the first record is neither a serialized TensorProto nor a tf.train.Example",
    )
    .with_path(name)
    .with_key("record 0"))
}

/// [`read_tensors`] of an uncompressed blob of `len` bytes, read whole
/// into one buffer under the read policy (huge pages when large, no
/// zero-fill). Records of [`PLACE_MIN`] bytes or more are placed so their
/// `tensor_content` is 64-byte aligned, and every tensor adopts its slice
/// of the buffer; CRCs are computed chunk by chunk as the data arrives.
/// Same results and errors as reading record by record: a framing error is
/// reported after the records before it are parsed.
fn read_whole(mut reader: RecordReader<SharedBlobReader>, len: u64) -> Result<Vec<Tensor>> {
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
    let bytes = buf.freeze().map_err(|e| Error::io(reader.name(), &e))?;
    let mut out = crate::buffer::try_vec(ranges.len())?;
    for (index, r) in ranges.into_iter().enumerate() {
        out.push(parse_record(bytes.slice(r), index as u64, reader.name())?);
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

/// [`read_tensors`] of a large uncompressed blob of large records, on two
/// cores: a framing pass ([`frames::walk`]) reads only each record's header
/// and first bytes; then every record's data is read into its place in one
/// buffer, and every footer, by one [`Blob::read_ranges`] (a local file:
/// two threads, each piece checksummed on the core that read it), and each
/// record's CRC is checked. `None` hands the blob to the record-by-record
/// path: small records, or anything wrong (a bad length CRC, a truncated
/// record, a data CRC mismatch, an I/O error), so that errors are exactly
/// that path's.
fn read_large_records(blob: &dyn Blob) -> Result<Option<Vec<Tensor>>> {
    if blob.len() < LARGE_FILE {
        return Ok(None);
    }
    // (data offset, data length, payload skew)
    let mut records: Vec<(u64, u64, Option<usize>)> = Vec::new();
    let walked = frames::walk(blob, SKEW_PEEK, |f| {
        // Many small records: the reads of the second pass would cost
        // more than the copies of the record-by-record path.
        if records.len() >= 16 && (records.len() as u64).saturating_mul(LARGE_RECORD) > f.end() {
            return Ok(false);
        }
        let skew = (f.len >= PLACE_MIN as u64)
            .then(|| content_offset(f.prefix))
            .flatten();
        records.push((f.offset + HEADER_LEN as u64, f.len, skew));
        Ok(true)
    });
    if !matches!(walked, Ok(true)) {
        return Ok(None);
    }
    // Each placed record costs at most 63 bytes of padding.
    let data: u64 = records.iter().map(|r| r.1).sum();
    let pad = (records.len() as u64).saturating_mul(crate::ALIGNMENT as u64);
    let room = usize::try_from(data.saturating_add(pad))
        .map_err(|_| Error::AllocationFailed { bytes: usize::MAX })?;
    let mut buf = ReadBuf::new(room)?;
    let base = buf.addr();
    let mut footers = vec![[0u8; FOOTER_LEN]; records.len()];
    let mut ranges = Vec::with_capacity(records.len());
    let mut jobs = Vec::with_capacity(2 * records.len());
    let mut rest = buf.as_mut_slice();
    let mut pos = 0usize;
    for (&(at, data_len, skew), footer) in records.iter().zip(&mut footers) {
        let start = skew.map_or(pos, |k| align_pos(base, pos, k, crate::ALIGNMENT));
        // Within the blob, so the length fits in usize.
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
        jobs.push(RangeRead {
            offset: at + data_len,
            dst: footer,
            sum: None,
        });
        pos = start + size;
    }
    let Ok(sums) = blob.read_ranges(jobs) else {
        return Ok(None);
    };
    let all_match = sums
        .iter()
        .step_by(2)
        .zip(&footers)
        .all(|(crc, footer)| crc.map(crate::crc32c::mask) == Some(u32::from_le_bytes(*footer)));
    if !all_match || sums.len() != 2 * records.len() {
        return Ok(None);
    }
    let name = blob.id();
    let bytes = buf.freeze().map_err(|e| Error::io(name, &e))?;
    let mut out = crate::buffer::try_vec(ranges.len())?;
    for (index, r) in ranges.into_iter().enumerate() {
        out.push(parse_record(bytes.slice(r), index as u64, name)?);
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
