//! C++ protobuf's leniency about wire types, which prost does not share.
//!
//! C++ protobuf parses a known field that arrives with a wire type its
//! declaration does not allow as an unknown field: it skips it (start-group
//! included, with its group) and goes on. prost rejects the whole message.
//! TF parses with C++ protobuf, so `tf.io.parse_tensor` reads
//! `08011204120208022a080000803f000000407807` (`variant_val` sent as a
//! varint) as float `[1, 2]`. [`strip_mistyped`] removes such fields, at
//! every nesting level of the TensorProto family, before prost parses the
//! rest; what C++ rejects (truncation, bad varints, lengths past the end,
//! end-group and wire types 6/7, field 0) is left for prost to reject.

use prost::encoding::{decode_varint, encode_varint};

/// Protobuf wire types.
const VARINT: u8 = 0;
const FIXED64: u8 = 1;
pub(super) const LEN: u8 = 2;
const START_GROUP: u8 = 3;
const END_GROUP: u8 = 4;
const FIXED32: u8 = 5;

/// prost's (and C++'s default) nesting limit; deeper input is left to
/// prost, which rejects it.
const MAX_DEPTH: usize = 100;

/// The wire types a declared field accepts.
#[derive(Clone, Copy)]
pub(crate) enum Accept {
    /// A singular scalar of this wire type.
    Scalar(u8),
    /// A repeated scalar of this wire type: unpacked, or packed (`LEN`).
    Repeated(u8),
    /// `bytes` or `string`.
    Bytes,
    /// A (singular or repeated) message with this schema.
    Message(Schema),
}

/// A message's declared fields: field number to what it accepts; `None`
/// for unknown numbers (which prost skips as C++ does).
pub(crate) type Schema = fn(u64) -> Option<Accept>;

/// `TensorProto` (tensor.proto).
pub(crate) fn tensor_proto(field: u64) -> Option<Accept> {
    use Accept::*;
    Some(match field {
        1 | 3 => Scalar(VARINT),
        2 => Message(tensor_shape_proto),
        4 | 8 | 18 => Bytes,
        5 | 9 => Repeated(FIXED32),
        6 | 12 => Repeated(FIXED64),
        7 | 10 | 11 | 13 | 16 | 17 => Repeated(VARINT),
        14 => Message(resource_handle_proto),
        15 => Message(variant_tensor_data_proto),
        _ => return None,
    })
}

/// `TensorShapeProto`.
fn tensor_shape_proto(field: u64) -> Option<Accept> {
    match field {
        2 => Some(Accept::Message(dim)),
        3 => Some(Accept::Scalar(VARINT)),
        _ => None,
    }
}

/// `TensorShapeProto.Dim`.
fn dim(field: u64) -> Option<Accept> {
    match field {
        1 => Some(Accept::Scalar(VARINT)),
        2 => Some(Accept::Bytes),
        _ => None,
    }
}

/// `ResourceHandleProto`.
pub(crate) fn resource_handle_proto(field: u64) -> Option<Accept> {
    match field {
        1 | 2 | 3 | 5 => Some(Accept::Bytes),
        4 => Some(Accept::Scalar(VARINT)),
        6 => Some(Accept::Message(dtype_and_shape)),
        _ => None,
    }
}

/// `ResourceHandleProto.DtypeAndShape`.
fn dtype_and_shape(field: u64) -> Option<Accept> {
    match field {
        1 => Some(Accept::Scalar(VARINT)),
        2 => Some(Accept::Message(tensor_shape_proto)),
        _ => None,
    }
}

/// `VariantTensorDataProto`.
pub(crate) fn variant_tensor_data_proto(field: u64) -> Option<Accept> {
    match field {
        1 | 2 => Some(Accept::Bytes),
        3 => Some(Accept::Message(tensor_proto)),
        _ => None,
    }
}

impl Accept {
    fn allows(self, wire: u8) -> bool {
        match self {
            Accept::Scalar(w) => wire == w,
            Accept::Repeated(w) => wire == w || wire == LEN,
            Accept::Bytes | Accept::Message(_) => wire == LEN,
        }
    }
}

/// Reads a varint at `*pos`, advancing it; `None` when malformed.
pub(super) fn varint(data: &[u8], pos: &mut usize) -> Option<u64> {
    let mut rest = data.get(*pos..)?;
    let before = rest.len();
    let v = decode_varint(&mut rest).ok()?;
    *pos += before - rest.len();
    Some(v)
}

/// `pos + n` if it stays within `data`.
fn advance(data: &[u8], pos: usize, n: u64) -> Option<usize> {
    let end = pos.checked_add(usize::try_from(n).ok()?)?;
    (end <= data.len()).then_some(end)
}

/// Skips a group's contents after its start key: returns the position after
/// the matching end-group key.
fn skip_group(data: &[u8], mut pos: usize, field: u64, depth: usize) -> Option<usize> {
    if depth >= MAX_DEPTH {
        return None;
    }
    loop {
        let key = varint(data, &mut pos)?;
        let (f, wire) = (key >> 3, (key & 7) as u8);
        if f == 0 {
            return None;
        }
        pos = match wire {
            END_GROUP => return (f == field).then_some(pos),
            START_GROUP => skip_group(data, pos, f, depth + 1)?,
            _ => skip_value(data, pos, wire)?,
        };
    }
}

/// Skips a value of wire type `wire` (not a group) starting at `pos`.
pub(super) fn skip_value(data: &[u8], mut pos: usize, wire: u8) -> Option<usize> {
    match wire {
        VARINT => varint(data, &mut pos).map(|_| pos),
        FIXED64 => advance(data, pos, 8),
        FIXED32 => advance(data, pos, 4),
        LEN => {
            let len = varint(data, &mut pos)?;
            advance(data, pos, len)
        }
        _ => None,
    }
}

/// `data` without the fields C++ protobuf would skip as mistyped, at every
/// level of `schema`: `None` when nothing needs removing (or the input is
/// malformed, which prost then reports), so the common case copies nothing.
pub(crate) fn strip_mistyped(data: &[u8], schema: Schema) -> Option<Vec<u8>> {
    strip(data, schema, 0).ok().flatten()
}

/// `Err(())`: malformed; `Ok(None)`: unchanged; `Ok(Some)`: the cleaned
/// message.
fn strip(data: &[u8], schema: Schema, depth: usize) -> Result<Option<Vec<u8>>, ()> {
    if depth >= MAX_DEPTH {
        return Err(());
    }
    let mut out: Option<Vec<u8>> = None;
    // `data[..copied]` has been dealt with (copied to `out` or dropped).
    let mut copied = 0;
    let mut pos = 0;
    while pos < data.len() {
        let start = pos;
        let key = varint(data, &mut pos).ok_or(())?;
        let (field, wire) = (key >> 3, (key & 7) as u8);
        if field == 0 {
            return Err(());
        }
        let key_end = pos;
        let end = match wire {
            START_GROUP => skip_group(data, pos, field, depth + 1),
            END_GROUP => None,
            _ => skip_value(data, pos, wire),
        }
        .ok_or(())?;
        let accept = schema(field);
        match accept {
            Some(a) if !a.allows(wire) => {
                // Mistyped: drop it, as C++ skips it.
                let o = out.get_or_insert_with(Vec::new);
                o.extend_from_slice(data.get(copied..start).ok_or(())?);
                copied = end;
            }
            Some(Accept::Message(sub)) => {
                let mut p = key_end;
                let len = varint(data, &mut p).ok_or(())?;
                let payload = data.get(p..end).ok_or(())?;
                debug_assert_eq!(payload.len() as u64, len);
                if let Some(inner) = strip(payload, sub, depth + 1)? {
                    let o = out.get_or_insert_with(Vec::new);
                    o.extend_from_slice(data.get(copied..key_end).ok_or(())?);
                    encode_varint(inner.len() as u64, o);
                    o.extend_from_slice(&inner);
                    copied = end;
                }
            }
            _ => {}
        }
        pos = end;
    }
    Ok(out.map(|mut o| {
        o.extend_from_slice(data.get(copied..).unwrap_or(&[]));
        o
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn drops_mistyped_fields_only() {
        let good = hex("08011204120208022a080000803f00000040");
        assert_eq!(strip_mistyped(&good, tensor_proto), None);
        let bad = hex("08011204120208022a080000803f000000407807");
        assert_eq!(strip_mistyped(&bad, tensor_proto), Some(good.clone()));
        // A mistyped Dim.size inside the shape: the length is rewritten.
        let nested = hex("08011206120408020a002a080000803f00000040");
        assert_eq!(strip_mistyped(&nested, tensor_proto), Some(good.clone()));
        // A group under a known number, nested groups inside it.
        let group = hex("7b0b0c7c08011204120208022a080000803f00000040");
        assert_eq!(strip_mistyped(&group, tensor_proto), Some(good));
        // Malformed input is left alone.
        for m in ["7c", "0f01", "08", "2a08", "00", "7b"] {
            assert_eq!(strip_mistyped(&hex(m), tensor_proto), None, "{m}");
        }
    }
}
