//! The packed-field scanner, a fast path found by the `proto` benchmarks.
//!
//! prost decodes a packed `float_val` one element at a time, pushing into a
//! `Vec` that grows by doubling: about 0.3 GB/s on 64 MiB here.
//! [`scan_tensor_proto`] parses a serialized `TensorProto` with the packed
//! `float_val` payloads taken out as byte slices of the input; once the
//! caller knows the element count, [`Scanned::finish`] makes them the
//! tensor's `tensor_content` when they hold exactly its elements (so
//! decoding adopts them without a copy when aligned, like content), and
//! converts them in bulk otherwise. Packed `int_val` is decoded into a
//! vector of exactly its count.
//!
//! The result decodes to exactly what prost's own parse decodes to, and
//! (by falling back to prost on anything unusual) gives the same errors.

use std::ops::Range;

use bytes::Bytes;
use prost::Message;
use prost::encoding::decode_varint;

use crate::dtype::DataType;
use crate::pb;

use super::lenient::{self, LEN, skip_value, varint};

/// `TensorProto.float_val`'s field number.
const FLOAT_VAL: u64 = 5;
/// `TensorProto.int_val`'s field number.
const INT_VAL: u64 = 7;

/// Little-endian f32 values packed in `payload` (a packed `float_val`), or
/// `None` when its length is not a multiple of 4 (prost's "buffer
/// underflow") or the memory cannot be had.
pub(crate) fn decode_packed_f32(payload: &[u8]) -> Option<Vec<f32>> {
    if payload.len() % 4 != 0 {
        return None;
    }
    let mut out: Vec<f32> = Vec::new();
    // Bounded by the input, which is already in memory.
    out.try_reserve_exact(payload.len() / 4).ok()?;
    out.extend(
        payload
            .chunks_exact(4)
            .map(|c| <[u8; 4]>::try_from(c).map_or(0.0, f32::from_le_bytes)),
    );
    Some(out)
}

/// Int32 values packed as varints in `payload` (a packed `int_val`), into
/// a vector of exactly their count (prost grows its vector by doubling);
/// `None` for a malformed varint (prost then reports it) or when the memory
/// cannot be had.
pub(crate) fn decode_packed_i32(payload: &[u8]) -> Option<Vec<i32>> {
    // Every varint ends with exactly one byte below 0x80.
    let count = payload.iter().filter(|&&b| b < 0x80).count();
    let mut out: Vec<i32> = Vec::new();
    out.try_reserve_exact(count).ok()?;
    let mut rest = payload;
    while !rest.is_empty() {
        // int32 keeps the low 32 bits, as prost and C++ do.
        out.push(decode_varint(&mut rest).ok()? as i32);
    }
    Some(out)
}

/// A packed `float_val` or `int_val` field: its number, where its key
/// starts, and its payload.
struct PackedField {
    field: u64,
    start: usize,
    payload: Range<usize>,
}

/// The packed `float_val` and `int_val` fields among the top-level fields
/// of a serialized `TensorProto`, in order (no allocation when there are
/// none). `None` for anything this scanner leaves to prost: malformed
/// input, groups, field 0, an unpacked `float_val` or `int_val`.
fn find_packed(data: &[u8]) -> Option<Vec<PackedField>> {
    let mut found = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let start = pos;
        let key = varint(data, &mut pos)?;
        let (field, wire) = (key >> 3, (key & 7) as u8);
        if field == 0 {
            return None;
        }
        let payload_start = if wire == LEN {
            let mut p = pos;
            varint(data, &mut p)?;
            p
        } else {
            pos
        };
        // Groups and wire types 6 and 7 are not skipped: left to prost.
        pos = skip_value(data, pos, wire)?;
        if field == FLOAT_VAL || field == INT_VAL {
            if wire != LEN {
                // Mixed packed and unpacked values: keep prost's order.
                return None;
            }
            found.push(PackedField {
                field,
                start,
                payload: payload_start..pos,
            });
        }
    }
    Some(found)
}

/// A serialized `TensorProto` parsed but for its packed `float_val`
/// payloads, which wait for the element count (see [`Scanned::finish`]).
pub(crate) struct Scanned {
    proto: pb::TensorProto,
    /// The input (without mistyped fields), for the payloads and for
    /// prost's fallback.
    bytes: Bytes,
    /// The packed `float_val` payloads, in order.
    floats: Vec<Range<usize>>,
}

impl Scanned {
    /// Every field but the pending `float_val` (dtype, shape and content
    /// are final).
    pub(crate) fn proto(&self) -> &pb::TensorProto {
        &self.proto
    }

    /// The whole proto, given the tensor's element count (`None` when the
    /// shape is invalid): a packed `float_val` holding exactly the elements
    /// of a `DT_FLOAT` tensor without content becomes `tensor_content` (a
    /// slice of the input), otherwise the values are `float_val`.
    ///
    /// # Errors
    /// prost's, when the memory for the values cannot be had.
    pub(crate) fn finish(
        self,
        num_elements: Option<i64>,
    ) -> Result<pb::TensorProto, prost::DecodeError> {
        let Scanned {
            mut proto,
            bytes,
            floats: payloads,
        } = self;
        if payloads.is_empty() {
            return Ok(proto);
        }
        let total: usize = payloads.iter().map(Range::len).sum();
        let exact = proto.dtype == DataType::Float.as_i32()
            && proto.tensor_content.is_empty()
            && payloads.len() == 1
            && num_elements
                .and_then(|n| usize::try_from(n).ok())
                .and_then(|n| n.checked_mul(4))
                == Some(total);
        if exact {
            if let Some(r) = payloads.into_iter().next() {
                // Little-endian f32 bytes are tensor_content's layout.
                proto.tensor_content = bytes.slice(r);
            }
            return Ok(proto);
        }
        let mut floats = Vec::new();
        for r in payloads {
            match bytes.get(r).and_then(decode_packed_f32) {
                Some(v) if floats.is_empty() => floats = v,
                Some(v) => floats.extend_from_slice(&v),
                None => return pb::TensorProto::decode(bytes),
            }
        }
        proto.float_val = floats;
        Ok(proto)
    }
}

/// Parses `bytes` as a `TensorProto` (zero-copy for `bytes` fields, as
/// prost does with `Bytes`), with a fast path for packed `float_val` and
/// `int_val`; [`Scanned::finish`] completes it.
///
/// Known fields with a wire type their declaration does not allow are
/// skipped first, as C++ protobuf skips them (see `proto::lenient`).
///
/// # Errors
/// Exactly prost's: anything unusual is handed to
/// `pb::TensorProto::decode` whole.
pub(crate) fn scan_tensor_proto(bytes: Bytes) -> Result<Scanned, prost::DecodeError> {
    // C++ protobuf skips known fields with the wrong wire type; so do we.
    let bytes = match lenient::strip_mistyped(&bytes, lenient::tensor_proto) {
        Some(clean) => Bytes::from(clean),
        None => bytes,
    };
    let plain = |bytes: Bytes| {
        pb::TensorProto::decode(bytes.clone()).map(|proto| Scanned {
            proto,
            bytes,
            floats: Vec::new(),
        })
    };
    let fields = match find_packed(&bytes) {
        Some(f) if !f.is_empty() => f,
        _ => return plain(bytes),
    };
    if fields
        .iter()
        .any(|f| f.field == FLOAT_VAL && f.payload.len() % 4 != 0)
    {
        // prost's error for a truncated packed value.
        return plain(bytes);
    }
    // Protobuf merges concatenated messages field by field, so decoding
    // the pieces between the packed fields in order equals decoding the
    // whole.
    let mut proto = pb::TensorProto::default();
    let mut seg_start = 0;
    let ends = fields.iter().map(|f| (f.start, f.payload.end));
    for (seg_end, next) in ends.chain(std::iter::once((bytes.len(), bytes.len()))) {
        if seg_start < seg_end && proto.merge(bytes.slice(seg_start..seg_end)).is_err() {
            return plain(bytes);
        }
        seg_start = next;
    }
    let (ints, floats): (Vec<_>, Vec<_>) = fields.into_iter().partition(|f| f.field == INT_VAL);
    for f in ints {
        match bytes.get(f.payload).and_then(decode_packed_i32) {
            Some(v) if proto.int_val.is_empty() => proto.int_val = v,
            Some(v) => proto.int_val.extend_from_slice(&v),
            None => return plain(bytes),
        }
    }
    Ok(Scanned {
        proto,
        bytes,
        floats: floats.into_iter().map(|f| f.payload).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tensor::Tensor;

    /// The scan and its completion, with the element count as the decoder
    /// computes it.
    fn decode_tensor_proto(bytes: Bytes) -> Result<pb::TensorProto, prost::DecodeError> {
        let scanned = scan_tensor_proto(bytes)?;
        let n = super::super::shape::shape_from_proto(scanned.proto().tensor_shape.as_ref())
            .ok()
            .map(|s| s.num_elements());
        scanned.finish(n)
    }

    fn float_proto(dims: &[i64], values: &[f32]) -> pb::TensorProto {
        pb::TensorProto {
            dtype: DataType::Float.as_i32(),
            tensor_shape: Some(pb::TensorShapeProto {
                dim: dims
                    .iter()
                    .map(|&size| pb::tensor_shape_proto::Dim {
                        size,
                        name: String::new(),
                    })
                    .collect(),
                unknown_rank: false,
            }),
            float_val: values.to_vec(),
            ..Default::default()
        }
    }

    /// What `from_proto` makes of prost's own parse.
    fn reference(wire: &[u8]) -> Result<Tensor, String> {
        pb::TensorProto::decode(wire)
            .map_err(|e| e.to_string())
            .and_then(|p| Tensor::from_proto(&p).map_err(|e| e.to_string()))
    }

    fn fast(wire: &[u8]) -> Result<Tensor, String> {
        decode_tensor_proto(Bytes::copy_from_slice(wire))
            .map_err(|e| e.to_string())
            .and_then(|p| Tensor::from_proto(&p).map_err(|e| e.to_string()))
    }

    #[test]
    fn packed_f32_bits_survive() {
        let vals = [
            1.5f32,
            -0.0,
            f32::from_bits(0x7fc0_0001),
            f32::INFINITY,
            f32::MIN_POSITIVE / 2.0,
        ];
        let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
        let out = decode_packed_f32(&bytes).unwrap();
        assert_eq!(
            out.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            vals.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        assert_eq!(decode_packed_f32(&bytes[..7]), None);
        assert_eq!(decode_packed_f32(&[]), Some(vec![]));
    }

    #[test]
    fn exact_float_val_becomes_content_without_copy() {
        let vals: Vec<f32> = (0..64).map(|i| i as f32 * 0.5).collect();
        let wire = Bytes::from(float_proto(&[8, 8], &vals).encode_to_vec());
        let proto = decode_tensor_proto(wire.clone()).unwrap();
        assert!(proto.float_val.is_empty());
        assert_eq!(proto.tensor_content.len(), 256);
        // A slice of the input, not a copy.
        let start = proto.tensor_content.as_ptr() as usize - wire.as_ptr() as usize;
        assert_eq!(start, wire.len() - 256);
        let t = Tensor::from_proto(&proto).unwrap();
        assert_eq!(t.as_slice::<f32>().unwrap(), &vals[..]);
    }

    #[test]
    fn agrees_with_prost_on_fill_rules_and_other_dtypes() {
        let cases = [
            float_proto(&[5], &[1.0, 2.0]),      // short: fill with last
            float_proto(&[2], &[1.0, 2.0, 3.0]), // long: extras ignored
            float_proto(&[3], &[]),              // none: zeros
            float_proto(&[], &[7.0]),            // scalar
            float_proto(&[0, 4], &[1.0]),        // no elements
            float_proto(&[-1], &[1.0]),          // bad shape
            pb::TensorProto {
                dtype: DataType::Double.as_i32(),
                ..float_proto(&[2], &[1.0, 2.0])
            },
            pb::TensorProto {
                tensor_content: Bytes::from_static(&[0, 0, 128, 63]),
                ..float_proto(&[1], &[5.0])
            },
            pb::TensorProto {
                dtype: DataType::Float.as_i32(),
                ..Default::default()
            },
        ];
        for p in cases {
            let wire = p.encode_to_vec();
            let (a, b) = (fast(&wire), reference(&wire));
            assert_eq!(a, b, "{p:?}");
        }
    }

    #[test]
    fn split_and_repeated_fields_merge_like_prost() {
        // float_val in two packed chunks, shape given twice (merged), and
        // dtype after the values.
        let mut wire = Vec::new();
        let chunk = |vals: &[f32]| {
            let mut w = vec![0x2a, (vals.len() * 4) as u8];
            w.extend(vals.iter().flat_map(|v| v.to_le_bytes()));
            w
        };
        wire.extend([0x12, 0x04, 0x12, 0x02, 0x08, 0x01]); // tensor_shape { dim { size: 1 } }
        wire.extend(chunk(&[1.0, 2.0]));
        wire.extend([0x12, 0x04, 0x12, 0x02, 0x08, 0x03]); // tensor_shape { dim { size: 3 } }
        wire.extend(chunk(&[3.0]));
        wire.extend([0x08, 0x01]); // dtype: DT_FLOAT
        let t = fast(&wire).unwrap();
        assert_eq!(t, reference(&wire).unwrap());
        assert_eq!(t.shape().dim_sizes(), vec![1, 3]);
        assert_eq!(t.as_slice::<f32>().unwrap(), &[1.0, 2.0, 3.0]);
        // Unpacked float_val (wire type 5) next to a packed chunk.
        let mut mixed = wire.clone();
        mixed.extend([0x2d, 0, 0, 0x80, 0x3f]);
        assert_eq!(fast(&mixed), reference(&mixed));
    }

    /// Packed `int_val` (what AsProtoField writes for int32 and the narrow
    /// integer types) decodes as prost decodes it.
    #[test]
    fn packed_int_val_agrees_with_prost() {
        let int_proto = |dtype: DataType, dims: &[i64], vals: &[i32]| pb::TensorProto {
            dtype: dtype.as_i32(),
            int_val: vals.to_vec(),
            ..float_proto(dims, &[])
        };
        let vals = [0, 1, -1, 127, 128, i32::MIN, i32::MAX, -300];
        let cases = [
            int_proto(DataType::Int32, &[8], &vals),
            int_proto(DataType::Int32, &[10], &vals), // short: fill with last
            int_proto(DataType::Int32, &[2], &vals),  // long
            int_proto(DataType::Int8, &[8], &vals),   // narrowed
            int_proto(DataType::Int32, &[3], &[]),
            pb::TensorProto {
                float_val: vec![1.0],
                ..int_proto(DataType::Int32, &[8], &vals)
            },
        ];
        for p in cases {
            let wire = p.encode_to_vec();
            assert_eq!(fast(&wire), reference(&wire), "{p:?}");
            // Split into two packed chunks.
            let mut a = int_proto(DataType::Int32, &[8], &vals[..3]).encode_to_vec();
            a.extend(
                pb::TensorProto {
                    int_val: vals[3..].to_vec(),
                    ..Default::default()
                }
                .encode_to_vec(),
            );
            assert_eq!(fast(&a).unwrap().as_slice::<i32>().unwrap(), &vals);
        }
        // A varint cut short inside the payload, and an overlong one.
        for payload in [vec![0x80u8], vec![0xff; 11]] {
            let mut w = vec![0x08, 0x03, 0x3a, payload.len() as u8];
            w.extend(&payload);
            assert_eq!(fast(&w), reference(&w));
            assert!(fast(&w).is_err());
        }
        assert_eq!(
            decode_packed_i32(&[0xfe, 0xff, 0xff, 0xff, 0x0f]),
            Some(vec![-2])
        );
    }

    #[test]
    fn malformed_input_gives_prosts_errors() {
        let good = float_proto(&[2], &[1.0, 2.0]).encode_to_vec();
        let mut bad_len = good.clone();
        // Packed payload of 7 bytes: a truncated value.
        let at = bad_len.iter().position(|&b| b == 0x2a).unwrap();
        bad_len[at + 1] = 7;
        bad_len.truncate(at + 2 + 7);
        let inputs: Vec<Vec<u8>> = vec![
            bad_len,
            vec![0x2a, 0x08, 0, 0], // payload past the end
            vec![0x2a],             // key only
            vec![0x00, 0x01],       // field 0
            vec![0xff; 11],         // overlong varint
            good[..good.len() - 1].to_vec(),
        ];
        for w in inputs {
            let (a, b) = (fast(&w), reference(&w));
            assert_eq!(a, b, "{w:?}");
            assert!(a.is_err(), "{w:?}");
        }
        // A group under float_val's number is skipped, as C++ skips it
        // (prost alone rejects it), leaving an empty proto.
        assert_eq!(fast(&[0x2b, 0x2c]).unwrap_err(), "Type not set");
        assert!(reference(&[0x2b, 0x2c]).is_err());
        for cut in 0..good.len() {
            assert_eq!(fast(&good[..cut]), reference(&good[..cut]), "cut {cut}");
        }
    }
}
