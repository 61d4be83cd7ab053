//! The fast path of the reader: a record that is exactly one float32
//! scalar summary (what `tf.summary.scalar` and TF1's `simple_value`
//! write, the bulk of most logs) is read here straight from its bytes,
//! without building the prost messages. Anything else (another field, a
//! repeated message, another dtype) returns `None` and takes the general
//! path, which gives the same value.

/// The parts of a one-scalar summary event.
pub(super) struct Scalar<'a> {
    pub wall_time: f64,
    pub step: i64,
    pub tag: &'a str,
    pub value: f32,
}

/// Parses `Event { wall_time, step, summary { value { tag, (simple_value |
/// tensor { dtype: DT_FLOAT, tensor_shape {}, tensor_content | float_val }),
/// metadata? } } }`.
pub(super) fn scalar_event(buf: &[u8]) -> Option<Scalar<'_>> {
    let mut r = Fields(buf);
    let (mut wall_time, mut step, mut summary) = (0.0, 0i64, None);
    while let Some((key, field)) = r.next()? {
        match (key, field) {
            (0x09, Field::Fixed64(v)) => wall_time = f64::from_bits(v),
            (0x10, Field::Varint(v)) => step = v as i64,
            // A second summary would merge with the first.
            (0x2a, Field::Bytes(b)) if summary.is_none() => summary = Some(b),
            _ => return None,
        }
    }
    let mut r = Fields(summary?);
    let value = match r.next()? {
        Some((0x0a, Field::Bytes(b))) => b,
        _ => return None,
    };
    if r.next()?.is_some() {
        return None;
    }
    let (mut tag, mut scalar) = (None, None);
    let mut r = Fields(value);
    while let Some((key, field)) = r.next()? {
        match (key, field) {
            (0x0a, Field::Bytes(b)) => tag = Some(std::str::from_utf8(b).ok()?),
            (0x15, Field::Fixed32(v)) => scalar = Some(f32::from_bits(v)),
            (0x42, Field::Bytes(b)) => scalar = Some(float_scalar(b)?),
            // Metadata: only the first of a tag counts, and the caller
            // takes this path only for a tag already seen.
            (0x4a, Field::Bytes(_)) => {}
            _ => return None,
        }
    }
    // An empty tag means "use node_name": the general path does that.
    let tag = tag.filter(|t| !t.is_empty())?;
    Some(Scalar {
        wall_time,
        step,
        tag,
        value: scalar?,
    })
}

/// The value of a float32 rank-0 `TensorProto`.
fn float_scalar(buf: &[u8]) -> Option<f32> {
    let (mut dtype, mut content, mut float_val) = (0, None, None);
    let mut r = Fields(buf);
    while let Some((key, field)) = r.next()? {
        match (key, field) {
            (0x08, Field::Varint(v)) => dtype = v,
            (0x12, Field::Bytes([])) => {}
            (0x22, Field::Bytes(b)) if content.is_none() => content = Some(le_f32(b)?),
            (0x2a, Field::Bytes(b)) if float_val.is_none() => float_val = Some(le_f32(b)?),
            (0x2d, Field::Fixed32(v)) if float_val.is_none() => {
                float_val = Some(f32::from_bits(v));
            }
            _ => return None,
        }
    }
    if dtype != 1 {
        return None;
    }
    // TF reads tensor_content when it is set, the typed field otherwise.
    content.or(float_val)
}

fn le_f32(b: &[u8]) -> Option<f32> {
    Some(f32::from_le_bytes(b.try_into().ok()?))
}

enum Field<'a> {
    Varint(u64),
    Fixed64(u64),
    Bytes(&'a [u8]),
    Fixed32(u32),
}

/// A protobuf field reader over a slice.
struct Fields<'a>(&'a [u8]);

impl<'a> Fields<'a> {
    /// The next `(key, field)`; `Some(None)` at the end, `None` on bytes
    /// that are not a well-formed field (left to the general path).
    fn next(&mut self) -> Option<Option<(u64, Field<'a>)>> {
        if self.0.is_empty() {
            return Some(None);
        }
        let key = self.varint()?;
        let field = match key & 7 {
            0 => Field::Varint(self.varint()?),
            1 => Field::Fixed64(u64::from_le_bytes(self.take(8)?.try_into().ok()?)),
            2 => {
                let len = usize::try_from(self.varint()?).ok()?;
                Field::Bytes(self.take(len)?)
            }
            5 => Field::Fixed32(u32::from_le_bytes(self.take(4)?.try_into().ok()?)),
            _ => return None,
        };
        Some(Some((key, field)))
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for (i, &b) in self.0.iter().enumerate().take(10) {
            // prost rejects a tenth byte above 1: so does this.
            if i == 9 && b > 1 {
                return None;
            }
            v |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                self.0 = self.0.get(i + 1..)?;
                return Some(v);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pb::{self, event::What, summary::value::Value as V};
    use prost::Message;

    /// Every record of the fixtures that the fast path takes decodes to the
    /// same step, time, tag and value with prost; and it takes the scalars.
    #[test]
    fn agrees_with_prost_on_the_fixtures() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/events");
        let mut taken = 0;
        for run in crate::events::discover(&root).unwrap() {
            for file in &run.files {
                let records =
                    crate::tfrecord::RecordReader::open(file, crate::tfrecord::Compression::None)
                        .unwrap();
                for rec in records {
                    let rec = rec.unwrap();
                    let Some(s) = scalar_event(&rec) else {
                        continue;
                    };
                    taken += 1;
                    let e = pb::Event::decode(rec.as_slice()).unwrap();
                    assert_eq!((s.wall_time, s.step), (e.wall_time, e.step));
                    let Some(What::Summary(sum)) = e.what else {
                        panic!()
                    };
                    assert_eq!(s.tag, sum.value[0].tag);
                    let v = match &sum.value[0].value {
                        Some(V::SimpleValue(v)) => *v,
                        Some(V::Tensor(t)) => crate::Tensor::from_proto(t)
                            .unwrap()
                            .scalar::<f32>()
                            .unwrap()[()],
                        other => panic!("{other:?}"),
                    };
                    assert_eq!(s.value.to_bits(), v.to_bits());
                }
            }
        }
        // tf2: 8 scalars; tf1: 3 simple values; runs: 6.
        assert_eq!(taken, 17);
    }

    #[test]
    fn leaves_anything_else_to_prost() {
        let tensor = |t: pb::TensorProto| {
            pb::Event {
                step: 2,
                what: Some(What::Summary(pb::Summary {
                    value: vec![pb::summary::Value {
                        tag: "x".into(),
                        value: Some(V::Tensor(t)),
                        ..Default::default()
                    }],
                })),
                ..Default::default()
            }
            .encode_to_vec()
        };
        let f = |dtype: pb::DataType, content: &[u8]| pb::TensorProto {
            dtype: dtype as i32,
            tensor_shape: Some(pb::TensorShapeProto::default()),
            tensor_content: bytes::Bytes::copy_from_slice(content),
            ..Default::default()
        };
        assert_eq!(
            scalar_event(&tensor(f(pb::DataType::DtFloat, &[0, 0, 0x80, 0x3f])))
                .unwrap()
                .value,
            1.0
        );
        assert!(scalar_event(&tensor(f(pb::DataType::DtDouble, &[0; 8]))).is_none());
        assert!(scalar_event(&tensor(f(pb::DataType::DtFloat, &[0; 8]))).is_none());
        let mut shaped = f(pb::DataType::DtFloat, &[0; 4]);
        shaped.tensor_shape = Some(pb::TensorShapeProto {
            dim: vec![pb::tensor_shape_proto::Dim {
                size: 1,
                name: String::new(),
            }],
            unknown_rank: false,
        });
        assert!(scalar_event(&tensor(shaped)).is_none());
        let mut float_val = f(pb::DataType::DtFloat, &[]);
        float_val.float_val = vec![2.5];
        assert_eq!(scalar_event(&tensor(float_val)).unwrap().value, 2.5);
        // Truncated bytes: left to prost (which reports them).
        let whole = tensor(f(pb::DataType::DtFloat, &[0; 4]));
        for cut in 0..whole.len() {
            assert!(scalar_event(&whole[..cut]).is_none(), "{cut}");
        }
    }
}
