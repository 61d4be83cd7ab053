//! The fast path of the reader: a record that is exactly one float32
//! scalar summary (what `tf.summary.scalar` and TF1's `simple_value`
//! write, the bulk of most logs) is read here straight from its bytes,
//! without building the prost messages. Anything else (another field, a
//! repeated message, another dtype) returns `None` and takes the general
//! path, which gives the same value.
//!
//! Two parsers: [`tf_layout`] matches the exact bytes TF's and this
//! crate's writers produce, in straight-line code; [`any_layout`] reads
//! fields in any order. The tag is left as bytes: callers compare it with
//! the tags they know (valid UTF-8) before checking a new one.

/// The parts of a one-scalar summary event.
#[derive(Debug)]
pub(super) struct Scalar<'a> {
    pub wall_time: f64,
    pub step: i64,
    /// Not empty; not checked to be UTF-8.
    pub tag: &'a [u8],
    pub value: f32,
}

/// Parses `Event { wall_time, step, summary { value { tag, (simple_value |
/// tensor { dtype: DT_FLOAT, tensor_shape {}, tensor_content | float_val }),
/// metadata? } } }`.
#[inline]
pub(super) fn scalar_event(buf: &[u8]) -> Option<Scalar<'_>> {
    tf_layout(buf).or_else(|| any_layout(buf))
}

/// The tensor of a scalar as TF writes it: `dtype: DT_FLOAT` (`08 01`),
/// `tensor_shape {}` (`12 00`), 4 bytes of `tensor_content` (`22 04`).
const TF_SCALAR_TENSOR: [u8; 6] = [0x08, 0x01, 0x12, 0x00, 0x22, 0x04];

/// The layout TF (and [`super::SummaryWriter`]) writes, field by field in
/// number order: `09 wall_time`, `10 step` (absent for 0), `2a` summary
/// { `0a` value { `0a` tag, `42 0a` TF_SCALAR_TENSOR value, or `15`
/// simple_value, then `4a` metadata or nothing } }, each length exactly
/// the bytes that follow. Whatever this accepts, [`any_layout`] accepts
/// with the same result (a test checks it).
#[inline]
fn tf_layout(buf: &[u8]) -> Option<Scalar<'_>> {
    let (&0x09, rest) = buf.split_first()? else {
        return None;
    };
    let (wall, mut rest) = rest.split_first_chunk::<8>()?;
    let mut step = 0;
    if let Some((&0x10, after)) = rest.split_first() {
        let (v, after) = varint(after)?;
        step = v as i64;
        rest = after;
    }
    let rest = exact(rest, 0x2a)?;
    let value = exact(rest, 0x0a)?;
    let (&0x0a, rest) = value.split_first()? else {
        return None;
    };
    let (len, rest) = varint(rest)?;
    let len = usize::try_from(len)
        .ok()
        .filter(|&l| l > 0 && l <= rest.len())?;
    let (tag, rest) = rest.split_at(len);
    let (scalar, rest) = match rest.split_first()? {
        (&0x42, after) => {
            // Length 10, then the tensor.
            let (&10, after) = after.split_first()? else {
                return None;
            };
            let (head, after) = after.split_first_chunk::<6>()?;
            if *head != TF_SCALAR_TENSOR {
                return None;
            }
            after.split_first_chunk::<4>()?
        }
        (&0x15, after) => after.split_first_chunk::<4>()?,
        _ => return None,
    };
    if !rest.is_empty() {
        // Metadata, to the end.
        if !metadata_ok(exact(rest, 0x4a)?) {
            return None;
        }
    }
    Some(Scalar {
        wall_time: f64::from_le_bytes(*wall),
        step,
        tag,
        value: f32::from_le_bytes(*scalar),
    })
}

/// The metadata TF writes on every scalar: `plugin_data { plugin_name:
/// "scalars" }`.
const TF_SCALAR_METADATA: &[u8] = b"\x0a\x09\x0a\x07scalars";

/// Whether a value's metadata decodes (else prost fails on the whole
/// event, which the general path reports): TF's bytes, or anything prost
/// reads as a `SummaryMetadata`.
#[inline]
fn metadata_ok(b: &[u8]) -> bool {
    b == TF_SCALAR_METADATA || <crate::pb::SummaryMetadata as prost::Message>::decode(b).is_ok()
}

/// The contents of `buf` when it is field `key` (length-delimited) and
/// nothing else.
#[inline]
fn exact(buf: &[u8], key: u8) -> Option<&[u8]> {
    let (&k, rest) = buf.split_first()?;
    let (len, rest) = varint(rest)?;
    (k == key && usize::try_from(len).ok()? == rest.len()).then_some(rest)
}

/// A varint and the bytes after it, as prost reads it (a tenth byte above
/// 1 is an error).
#[inline]
fn varint(buf: &[u8]) -> Option<(u64, &[u8])> {
    let mut v = 0u64;
    for (i, &b) in buf.iter().enumerate().take(10) {
        if i == 9 && b > 1 {
            return None;
        }
        v |= u64::from(b & 0x7f) << (7 * i);
        if b < 0x80 {
            return Some((v, buf.get(i + 1..)?));
        }
    }
    None
}

/// [`scalar_event`] for fields in any order.
fn any_layout(buf: &[u8]) -> Option<Scalar<'_>> {
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
            (0x0a, Field::Bytes(b)) => tag = Some(b),
            (0x15, Field::Fixed32(v)) => scalar = Some(f32::from_bits(v)),
            (0x42, Field::Bytes(b)) => scalar = Some(float_scalar(b)?),
            // Metadata: only the first of a tag counts, and the caller
            // takes this path only for a tag already seen.
            (0x4a, Field::Bytes(b)) if metadata_ok(b) => {}
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
                    assert_eq!(s.tag, sum.value[0].tag.as_bytes());
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

    /// A summary event of one value.
    fn event(wall_time: f64, step: i64, value: pb::summary::Value) -> Vec<u8> {
        pb::Event {
            wall_time,
            step,
            what: Some(What::Summary(pb::Summary { value: vec![value] })),
            ..Default::default()
        }
        .encode_to_vec()
    }

    /// A scalar's fields, floats as bits (so a NaN equals itself).
    fn key<'a>(s: &Scalar<'a>) -> (u64, i64, &'a [u8], u32) {
        (s.wall_time.to_bits(), s.step, s.tag, s.value.to_bits())
    }

    /// What prost makes of a record: `(wall_time, step, tag, value)`.
    fn decoded(rec: &[u8]) -> Option<(f64, i64, Vec<u8>, f32)> {
        let e = pb::Event::decode(rec).ok()?;
        let Some(What::Summary(sum)) = e.what else {
            return None;
        };
        let v = sum.value.first()?;
        let x = match &v.value {
            Some(V::SimpleValue(x)) => *x,
            Some(V::Tensor(t)) => crate::Tensor::from_proto(t).ok()?.as_slice::<f32>().ok()?[0],
            _ => return None,
        };
        Some((e.wall_time, e.step, v.tag.as_bytes().to_vec(), x))
    }

    /// The straight-line parser takes TF's scalar records, and whatever it
    /// takes (also after any one byte is changed or the record cut) the
    /// general parser and prost read the same (prost when the tag is
    /// UTF-8, which the callers check).
    #[test]
    fn tf_layout_agrees_with_any_layout_and_prost() {
        let tensor = |x: f32| pb::TensorProto {
            dtype: pb::DataType::DtFloat as i32,
            tensor_shape: Some(pb::TensorShapeProto::default()),
            tensor_content: bytes::Bytes::copy_from_slice(&x.to_le_bytes()),
            ..Default::default()
        };
        let metadata = pb::SummaryMetadata {
            plugin_data: Some(pb::summary_metadata::PluginData {
                plugin_name: "scalars".into(),
                content: bytes::Bytes::new(),
            }),
            ..Default::default()
        };
        let mut records = Vec::new();
        for (step, tag) in [
            (0, "a"),
            (5, "loss"),
            (300, "train/x"),
            (-1, &"t".repeat(200)),
        ] {
            let named = pb::SummaryMetadata {
                display_name: "x".into(),
                ..metadata.clone()
            };
            for meta in [None, Some(metadata.clone()), Some(named)] {
                for value in [V::Tensor(tensor(1.5)), V::SimpleValue(-2.0)] {
                    records.push(event(
                        1.7e9 + 0.25,
                        step,
                        pb::summary::Value {
                            tag: tag.to_string(),
                            metadata: meta.clone(),
                            value: Some(value),
                            ..Default::default()
                        },
                    ));
                }
            }
        }
        for rec in &records {
            let s = tf_layout(rec).expect("TF's layout");
            assert_eq!(Some(key(&s)), any_layout(rec).as_ref().map(key));
        }
        let mut checked = 0;
        for rec in &records {
            let mut variants: Vec<Vec<u8>> = (0..rec.len()).map(|n| rec[..n].to_vec()).collect();
            for at in 0..rec.len() {
                for b in [
                    0x00,
                    0x01,
                    0x0a,
                    0x7f,
                    0x80,
                    0xff,
                    rec[at] ^ 1,
                    rec[at] ^ 0x80,
                ] {
                    let mut m = rec.clone();
                    m[at] = b;
                    variants.push(m);
                }
            }
            for m in &variants {
                if let Some(s) = tf_layout(m) {
                    checked += 1;
                    assert_eq!(Some(key(&s)), any_layout(m).as_ref().map(key), "{m:02x?}");
                    if std::str::from_utf8(s.tag).is_err() {
                        // Callers check the tag (prost rejects it).
                        assert_eq!(decoded(m), None);
                        continue;
                    }
                    let (wall, step, tag, x) = decoded(m).expect("prost reads it");
                    assert_eq!(
                        (wall.to_bits(), step, tag.as_slice(), x.to_bits()),
                        (s.wall_time.to_bits(), s.step, s.tag, s.value.to_bits()),
                        "{m:02x?}"
                    );
                }
            }
        }
        assert!(checked > records.len() * 20, "{checked}");
    }
}
