//! Encoding a one-value summary `Event` by hand, in TF's field order
//! (`Summary.Value`: tag, the value, metadata; prost would put the oneof
//! last), with no allocation beyond the caller's reused buffer.

/// Field keys (field number << 3 | wire type).
const EVENT_WALL_TIME: u8 = 0x09;
const EVENT_STEP: u8 = 0x10;
const EVENT_SUMMARY: u8 = 0x2a;
const SUMMARY_VALUE: u8 = 0x0a;
const VALUE_TAG: u8 = 0x0a;
const VALUE_TENSOR: u8 = 0x42;
const VALUE_METADATA: u8 = 0x4a;

/// Appends `Event { wall_time, step, summary { value { tag, tensor,
/// metadata } } }` to `out`, where `tensor` and `metadata` are already
/// encoded messages (`metadata` empty for none).
pub(super) fn summary_event(
    out: &mut Vec<u8>,
    wall_time: f64,
    step: i64,
    tag: &str,
    tensor: &[u8],
    metadata: &[u8],
) {
    let field = |len: usize| 1 + varint_len(len as u64) + len;
    let value_len = field(tag.len())
        + field(tensor.len())
        + if metadata.is_empty() {
            0
        } else {
            field(metadata.len())
        };
    let summary_len = field(value_len);
    out.reserve(9 + 11 + field(summary_len));
    out.push(EVENT_WALL_TIME);
    out.extend_from_slice(&wall_time.to_le_bytes());
    if step != 0 {
        out.push(EVENT_STEP);
        // int64 is a two's-complement varint.
        put_varint(out, step as u64);
    }
    out.push(EVENT_SUMMARY);
    put_varint(out, summary_len as u64);
    out.push(SUMMARY_VALUE);
    put_varint(out, value_len as u64);
    out.push(VALUE_TAG);
    put_varint(out, tag.len() as u64);
    out.extend_from_slice(tag.as_bytes());
    out.push(VALUE_TENSOR);
    put_varint(out, tensor.len() as u64);
    out.extend_from_slice(tensor);
    if !metadata.is_empty() {
        out.push(VALUE_METADATA);
        put_varint(out, metadata.len() as u64);
        out.extend_from_slice(metadata);
    }
}

/// `TensorProto { dtype: DT_FLOAT, tensor_shape {}, tensor_content }` of a
/// float32 scalar, as TF writes it.
pub(super) fn float_scalar(value: f32) -> [u8; 10] {
    let [a, b, c, d] = value.to_le_bytes();
    [0x08, 0x01, 0x12, 0x00, 0x22, 0x04, a, b, c, d]
}

fn varint_len(mut v: u64) -> usize {
    let mut n = 1;
    while v >= 0x80 {
        v >>= 7;
        n += 1;
    }
    n
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pb;
    use prost::Message;

    #[test]
    fn decodes_as_the_event_it_means() {
        let tensor = float_scalar(0.5);
        let metadata = pb::SummaryMetadata {
            plugin_data: Some(pb::summary_metadata::PluginData {
                plugin_name: "scalars".into(),
                content: bytes::Bytes::new(),
            }),
            ..Default::default()
        };
        for (step, md) in [
            (0, Vec::new()),
            (-3, metadata.encode_to_vec()),
            (1 << 40, Vec::new()),
        ] {
            let mut out = Vec::new();
            summary_event(&mut out, 1.25, step, "loss", &tensor, &md);
            let event = pb::Event::decode(out.as_slice()).unwrap();
            assert_eq!((event.wall_time, event.step), (1.25, step));
            let Some(pb::event::What::Summary(s)) = event.what else {
                panic!()
            };
            let v = &s.value[0];
            assert_eq!(v.tag, "loss");
            assert_eq!(v.metadata.is_some(), !md.is_empty());
            let Some(pb::summary::value::Value::Tensor(t)) = &v.value else {
                panic!()
            };
            assert_eq!(t.tensor_content.as_ref(), 0.5f32.to_le_bytes());
        }
    }

    #[test]
    fn matches_the_bytes_tf_writes() {
        // Record 1 of the observed TF 2.21 file (spec §6): loss 1.0 at step 0.
        let md = hex_bytes("0a090a077363616c617273");
        let mut out = Vec::new();
        let wall_time = f64::from_le_bytes(hex_bytes("676255d6bfc1da41").try_into().unwrap());
        summary_event(&mut out, wall_time, 0, "loss", &float_scalar(1.0), &md);
        assert_eq!(
            out,
            hex_bytes(concat!(
                "09676255d6bfc1da41",
                "2a21",
                "0a1f",
                "0a046c6f7373",
                "420a0801120022040000803f",
                "4a0b0a090a077363616c617273"
            ))
        );
    }

    fn hex_bytes(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }
}
