//! A TFRecord blob listed by a pass and read one record at a time: what
//! `tftensor::io` opens a TFRecord as. [`Records`] knows where each record
//! lies and reads one by range (uncompressed: header, data and footer in
//! one [`Blob::read_ranges`], the data placed so its `tensor_content` is
//! aligned) or through a decompressing cursor that moves forward (and
//! starts over for an earlier record), so reading every record in order
//! decompresses the file once. [`TensorRecords`] lists records of tensors
//! from their headers.

use std::sync::Arc;

use bytes::Bytes;

use super::frames::{self, corrupted};
use super::record::{FOOTER_LEN, HEADER_LEN, located};
use super::tensors::{Kind, content_offset, kind_of, parse_record};
use super::{Compression, RecordReader};
use crate::buffer::read_policy::{ReadBuf, align_pos};
use crate::io::SharedBlobReader;
use crate::io::{Blob, Checksum, RangeRead};
use crate::proto::PEEK;
use crate::{DataType, Error, Result, Tensor, TensorShape, crc32c};

/// Where one record lies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span {
    /// The offset of its header in the (decompressed) stream.
    pub(crate) offset: u64,
    /// The length of its data.
    pub(crate) len: u64,
    /// Where its `tensor_content` starts in its data, when known: the
    /// data is read so that it lands 64-byte aligned.
    pub(crate) skew: Option<usize>,
}

/// The records of a TFRecord blob, found by a listing pass, read one at a
/// time with both CRCs checked.
#[derive(Debug)]
pub(crate) struct Records {
    blob: Arc<dyn Blob>,
    compression: Compression,
    spans: Vec<Span>,
    /// A compressed blob's reader, at the record after the last one read.
    cursor: Option<RecordReader<SharedBlobReader>>,
}

impl Records {
    pub(crate) fn new(blob: Arc<dyn Blob>, compression: Compression, spans: Vec<Span>) -> Records {
        Records {
            blob,
            compression,
            spans,
            cursor: None,
        }
    }

    /// The blob's name, as errors give it.
    pub(crate) fn name(&self) -> &str {
        self.blob.id()
    }

    /// Where record `index` lies.
    pub(crate) fn span(&self, index: usize) -> Option<Span> {
        self.spans.get(index).copied()
    }

    /// `err` located at record `index`: its offset too, where it is known.
    pub(crate) fn at(&self, index: usize, err: Error) -> Error {
        match self.span(index) {
            Some(span) => err.with_offset(span.offset),
            None => err,
        }
    }

    /// The data of record `index`, both CRCs checked.
    ///
    /// # Errors
    /// [`Error::NotFound`] past the last record; [`Error::DataLoss`] for a
    /// CRC mismatch, or a file changed since it was listed; the blob's.
    pub(crate) fn read(&mut self, index: usize) -> Result<Bytes> {
        let Some(span) = self.span(index) else {
            return Err(Error::not_found(format!("no record {index}")).with_path(self.name()));
        };
        match self.compression {
            Compression::None => read_plain(&*self.blob, span, index as u64),
            _ => {
                let mut reader = match self.cursor.take() {
                    Some(r) if r.index() <= index as u64 => r,
                    _ => RecordReader::from_blob(self.blob.clone(), self.compression),
                };
                let data = read_next_at(&mut reader, index as u64)?;
                self.cursor = Some(reader);
                Ok(data)
            }
        }
    }
}

/// Reads record `index` of an uncompressed blob, which the listing found
/// at `span`: header, data and footer, checking that the header is the one
/// listed and the data's CRC. The data lands where its `tensor_content`
/// is 64-byte aligned (a slice of the map, where the blob is mapped).
fn read_plain(blob: &dyn Blob, span: Span, index: u64) -> Result<Bytes> {
    let name = blob.id();
    let too_big = || Error::AllocationFailed { bytes: usize::MAX };
    let n = usize::try_from(span.len).map_err(|_| too_big())?;
    let data_at = span.offset + HEADER_LEN as u64;
    let (mut header, mut footer) = ([0u8; HEADER_LEN], [0u8; FOOTER_LEN]);
    let (data, computed) = match blob.mapped() {
        Some(_) => {
            let (data, sum) =
                blob.read_bytes_summed(data_at..data_at + span.len, Some(Checksum::Crc32c))?;
            blob.read_at(span.offset, &mut header)?;
            blob.read_at(data_at + span.len, &mut footer)?;
            (data, sum)
        }
        None => {
            let room = n.checked_add(crate::ALIGNMENT).ok_or_else(too_big)?;
            let mut buf = ReadBuf::new(room)?;
            let start = span
                .skew
                .map_or(0, |k| align_pos(buf.addr(), 0, k, crate::ALIGNMENT));
            let dst = buf
                .as_mut_slice()
                .get_mut(start..start + n)
                .ok_or_else(too_big)?;
            let sums = blob.read_ranges(vec![
                RangeRead {
                    offset: span.offset,
                    dst: &mut header,
                    sum: None,
                },
                RangeRead {
                    offset: data_at,
                    dst,
                    sum: Some(Checksum::Crc32c),
                },
                RangeRead {
                    offset: data_at + span.len,
                    dst: &mut footer,
                    sum: None,
                },
            ])?;
            let bytes = buf.freeze().map_err(|e| Error::io(name, e))?;
            (
                bytes.slice(start..start + n),
                sums.get(1).copied().flatten(),
            )
        }
    };
    let [l0, l1, l2, l3, l4, l5, l6, l7, c0, c1, c2, c3] = header;
    let len_bytes = [l0, l1, l2, l3, l4, l5, l6, l7];
    if u64::from_le_bytes(len_bytes) != span.len
        || crc32c::masked(&len_bytes) != u32::from_le_bytes([c0, c1, c2, c3])
    {
        return Err(located(
            Error::data_loss("the record's header is not the one listed (changed since?)"),
            name,
            index,
            span.offset,
        ));
    }
    let computed = computed
        .map(crc32c::mask)
        .unwrap_or_else(|| crc32c::masked(&data));
    let stored = u32::from_le_bytes(footer);
    if stored != computed {
        return Err(corrupted(
            name,
            index,
            span.offset,
            "data",
            stored,
            computed,
        ));
    }
    Ok(data)
}

/// Reads record `index`, found at `span`, on its own (listing reads a
/// record whole only where its first bytes do not say what it holds).
fn read_one(
    blob: &Arc<dyn Blob>,
    compression: Compression,
    span: Span,
    index: u64,
) -> Result<Bytes> {
    match compression {
        Compression::None => read_plain(&**blob, span, index),
        _ => read_next_at(
            &mut RecordReader::from_blob(blob.clone(), compression),
            index,
        ),
    }
}

/// Moves `reader` forward to record `index` (at or after where it is,
/// decompressing the records between without checking their data) and
/// reads that record, both CRCs checked.
fn read_next_at(reader: &mut RecordReader<SharedBlobReader>, index: u64) -> Result<Bytes> {
    let missing = |r: &RecordReader<SharedBlobReader>| {
        Error::data_loss(format!("no record {index} (changed since it was listed?)"))
            .with_path(r.name())
    };
    let mut skipped = Vec::new();
    while reader.index() < index {
        if reader.skim_record(0, &mut skipped)?.is_none() {
            return Err(missing(reader));
        }
    }
    let mut data = Vec::new();
    if !reader.read_record(&mut data)? {
        return Err(missing(reader));
    }
    Ok(Bytes::from(data))
}

/// The records of a TFRecord blob of tensors, with each one's dtype and
/// shape from its header.
#[derive(Debug)]
pub(crate) struct TensorRecords {
    records: Records,
    headers: Vec<(DataType, TensorShape)>,
}

impl TensorRecords {
    /// Lists the blob's records of tensors by a framing-only pass: each
    /// record's header and the first bytes of its data (after its length
    /// CRC is checked), its dtype and shape parsed from those. A record
    /// read whole by the pass (a small one) has its data CRC checked too;
    /// one whose first bytes do not parse is read whole and its CRC
    /// checked before it is called anything but damaged.
    ///
    /// `Ok(None)` when the records are `tf.train.Example`s (the first
    /// record is not a TensorProto: see [`kind_of`]).
    ///
    /// # Errors
    /// [`Error::DataLoss`] for damage, naming the record and its offset;
    /// [`Error::InvalidFormat`] for a record that is not a TensorProto and
    /// not damaged.
    pub(crate) fn list(blob: Arc<dyn Blob>, compression: Compression) -> Result<Option<Self>> {
        let mut spans = Vec::new();
        let mut headers = Vec::new();
        let mut add = |index: u64, span: Span, prefix: &[u8], checked: bool| -> Result<bool> {
            if index == 0 && prefix.first() != Some(&0x08) {
                // Not a TensorProto as TF writes one: the whole first
                // record says what the records are.
                let first = read_one(&blob, compression, span, 0)?;
                if !matches!(kind_of(&first, blob.id())?, Kind::Tensors) {
                    return Ok(false);
                }
            }
            let whole = prefix.len() as u64 == span.len;
            let header = match crate::proto::peek_header(prefix, whole) {
                Some(Ok(header)) => header,
                // Damage first (the CRC of a record read whole); then the
                // whole record decides: a field order TF does not write,
                // or no tensor at all.
                _ => {
                    let data = if checked {
                        Bytes::copy_from_slice(prefix)
                    } else {
                        read_one(&blob, compression, span, index)?
                    };
                    let t = parse_record(data, index, blob.id())
                        .map_err(|e| e.with_offset(span.offset))?;
                    (t.dtype(), t.shape().clone())
                }
            };
            spans.push(span);
            headers.push(header);
            Ok(true)
        };
        let all = match compression {
            Compression::None => frames::walk(&*blob, PEEK, |f| {
                let checked = f.check_whole(blob.id())?;
                let skew = content_offset(f.prefix);
                let span = Span {
                    offset: f.offset,
                    len: f.len,
                    skew,
                };
                add(f.index, span, f.prefix, checked)
            })?,
            _ => {
                let mut reader = RecordReader::from_blob(blob.clone(), compression);
                let mut prefix = Vec::new();
                loop {
                    let (offset, index) = (reader.offset(), reader.index());
                    let Some((len, checked)) = reader.skim_record(PEEK, &mut prefix)? else {
                        break true;
                    };
                    let span = Span {
                        offset,
                        len,
                        skew: None,
                    };
                    if !add(index, span, &prefix, checked)? {
                        break false;
                    }
                }
            }
        };
        Ok(all.then(|| TensorRecords {
            records: Records::new(blob, compression, spans),
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
        let data = self.records.read(index)?;
        parse_record(data, index as u64, self.records.name()).map_err(|e| self.records.at(index, e))
    }
}
