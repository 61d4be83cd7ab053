//! A TFRecord of `tf.train.Example`s listed by a pass and read one record
//! at a time: what `tftensor::io` opens a TFRecord of Examples as. Each
//! feature of each record is an entry `RECORD/FEATURE`.
//!
//! Listing must see every record (each has its own features), but not
//! their values: each record is framed and CRC-checked as it streams past,
//! and its features' names, list kinds and lengths are read off the
//! protobuf framing ([`skim`]) without decoding a value (packed floats
//! counted by length, packed int64s by their varints' last bytes). A
//! record whose framing is not the plain one TF writes is decoded whole
//! instead, so the listing is always what [`parse_example`] gives. Reading
//! a feature reads its record by range and decodes it once for all its
//! features (the last record read is kept).

use std::collections::BTreeMap;
use std::sync::Arc;

use prost::Message;

use super::indexed::{Records, Span};
use super::{Compression, RecordReader, parse_example};
use crate::io::Blob;
use crate::pb::feature::Kind;
use crate::{DataType, Error, Result, Tensor};

/// One feature of one record, as listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ListedFeature {
    /// The record's number.
    pub(crate) record: usize,
    /// The feature's name.
    pub(crate) name: String,
    /// Its dtype: string, float or int64.
    pub(crate) dtype: DataType,
    /// The number of values in its list.
    pub(crate) len: u64,
}

/// The records of a TFRecord blob of `tf.train.Example`s.
#[derive(Debug)]
pub(crate) struct ExampleRecords {
    records: Records,
    /// The last record decoded, with its features.
    cache: Option<(usize, BTreeMap<String, Tensor>)>,
}

impl ExampleRecords {
    /// Lists every feature of every record, in record order and, within a
    /// record, by name (as [`parse_example`] sorts them).
    ///
    /// # Errors
    /// As [`RecordReader`] for the framing (every CRC is checked);
    /// [`Error::InvalidProto`] for a record that is not an Example and
    /// [`Error::InvalidFormat`] for a feature with no list, with the record
    /// (`record N`) and its offset as fields.
    pub(crate) fn list(
        blob: Arc<dyn Blob>,
        compression: Compression,
    ) -> Result<(ExampleRecords, Vec<ListedFeature>)> {
        let mut reader = RecordReader::from_blob(blob.clone(), compression);
        let mut spans = Vec::new();
        let mut listed = Vec::new();
        let mut data = Vec::new();
        loop {
            let (offset, index) = (reader.offset(), spans.len());
            if !reader.read_record(&mut data)? {
                break;
            }
            let features = features_of(&data).map_err(|e| {
                e.with_path(blob.id())
                    .with_key(format_args!("record {index}"))
                    .with_offset(offset)
            })?;
            listed.extend(
                features
                    .into_iter()
                    .map(|(name, (dtype, len))| ListedFeature {
                        record: index,
                        name,
                        dtype,
                        len,
                    }),
            );
            spans.push(Span {
                offset,
                len: data.len() as u64,
                skew: None,
            });
        }
        let records = Records::new(blob, compression, spans);
        Ok((
            ExampleRecords {
                records,
                cache: None,
            },
            listed,
        ))
    }

    /// Reads feature `name` of record `record` (the record read by range,
    /// both CRCs checked, and decoded once for all its features).
    ///
    /// # Errors
    /// As [`Records::read`] and [`parse_example`];
    /// [`Error::DataLoss`] when the record has no such feature (the file
    /// changed since it was listed).
    pub(crate) fn read(&mut self, record: usize, name: &str) -> Result<Tensor> {
        let features = match &mut self.cache {
            Some((r, features)) if *r == record => features,
            cache => {
                let data = self.records.read(record)?;
                let features = parse_example(data).map_err(|e| {
                    self.records
                        .at(record, e.with_key(format_args!("record {record}")))
                })?;
                &mut cache.insert((record, features)).1
            }
        };
        features.get(name).cloned().ok_or_else(|| {
            Error::data_loss(format!(
                "record {record} has no feature {name:?} (changed since it was listed?)"
            ))
        })
    }
}

/// Each feature of a serialized Example with its dtype and list length,
/// sorted by name: as [`parse_example`] would give them, from the
/// framing alone where it is the plain one ([`skim`]), else by decoding.
///
/// # Errors
/// As [`parse_example`].
fn features_of(record: &[u8]) -> Result<BTreeMap<String, (DataType, u64)>> {
    let lists = match skim(record) {
        Some(lists) => lists,
        None => {
            let example = crate::pb::Example::decode(record).map_err(|e| {
                Error::proto_decode(format!("Could not parse bytes as tf.train.Example: {e}"), e)
            })?;
            // An Example without `features` has none, as parse_example says.
            let features = match example.features {
                Some(f) => f.feature,
                None => BTreeMap::new(),
            };
            features
                .into_iter()
                .map(|(name, f)| {
                    let list = match f.kind {
                        Some(Kind::BytesList(l)) => Some((1, l.value.len() as u64)),
                        Some(Kind::FloatList(l)) => Some((2, l.value.len() as u64)),
                        Some(Kind::Int64List(l)) => Some((3, l.value.len() as u64)),
                        None => None,
                    };
                    (name, list)
                })
                .collect()
        }
    };
    lists
        .into_iter()
        .map(|(name, list)| match list {
            Some((1, n)) => Ok((name, (DataType::String, n))),
            Some((2, n)) => Ok((name, (DataType::Float, n))),
            Some((3, n)) => Ok((name, (DataType::Int64, n))),
            _ => Err(Error::invalid_format(
                "tf.train.Example",
                format!("feature {name:?} has no value list set, so its dtype is unknown"),
            )),
        })
        .collect()
}

/// A feature's list as the framing shows it: the `Feature.kind` field
/// number (1 bytes, 2 float, 3 int64) and the number of values; `None`
/// for a feature with no list.
type List = Option<(u32, u64)>;

/// The features of a serialized Example from its framing alone, merged as
/// protobuf merges (repeated `features` and map entries: the last value
/// of a name wins; a `Feature` given twice: the same list kind adds up, a
/// different one replaces). `None` for anything a plain walk does not
/// settle (a group, a wire type the field does not take, a bad varint, a
/// name that is not UTF-8): then decoding decides, error included.
fn skim(record: &[u8]) -> Option<BTreeMap<String, List>> {
    let mut out = BTreeMap::new();
    for field in Fields(record) {
        match field? {
            (1, Value::Len(features)) => {
                for entry in Fields(features) {
                    match entry? {
                        (1, Value::Len(entry)) => {
                            let (name, list) = map_entry(entry)?;
                            out.insert(name, list);
                        }
                        (1, _) => return None,
                        _ => {}
                    }
                }
            }
            (1, _) => return None,
            _ => {}
        }
    }
    Some(out)
}

/// One `map<string, Feature>` entry: its key and its list.
fn map_entry(entry: &[u8]) -> Option<(String, List)> {
    let (mut name, mut list): (&[u8], List) = (b"", None);
    for field in Fields(entry) {
        match field? {
            (1, Value::Len(key)) => name = key,
            (2, Value::Len(feature)) => {
                for kind in Fields(feature) {
                    match kind? {
                        (k @ 1..=3, Value::Len(values)) => {
                            let n = count(k, values)?;
                            list = match list {
                                Some((same, m)) if same == k => Some((k, m.checked_add(n)?)),
                                _ => Some((k, n)),
                            };
                        }
                        (1..=3, _) => return None,
                        _ => {}
                    }
                }
            }
            (1 | 2, _) => return None,
            _ => {}
        }
    }
    Some((std::str::from_utf8(name).ok()?.to_owned(), list))
}

/// The number of values in a `BytesList` (kind 1), `FloatList` (2) or
/// `Int64List` (3), packed or not.
fn count(kind: u32, list: &[u8]) -> Option<u64> {
    let mut n = 0u64;
    for field in Fields(list) {
        let more = match (kind, field?) {
            (1, (1, Value::Len(_))) | (2, (1, Value::Fixed32)) | (3, (1, Value::Varint)) => 1,
            (2, (1, Value::Len(packed))) if packed.len() % 4 == 0 => packed.len() as u64 / 4,
            (3, (1, Value::Len(packed))) => varints(packed)?,
            (_, (1, _)) => return None,
            _ => 0,
        };
        n = n.checked_add(more)?;
    }
    Some(n)
}

/// The number of varints packed in `packed`; `None` when one is cut
/// short or longer than a `u64` takes (as protobuf's decoder refuses).
fn varints(packed: &[u8]) -> Option<u64> {
    let (mut n, mut run) = (0u64, 0usize);
    for &b in packed {
        if b >= 0x80 {
            run += 1;
            if run > 9 {
                return None;
            }
        } else {
            // A tenth byte holds the top bit of a u64 only.
            if run == 9 && b > 1 {
                return None;
            }
            n += 1;
            run = 0;
        }
    }
    (run == 0).then_some(n)
}

/// One field's value, as far as the walk needs it.
enum Value<'a> {
    Varint,
    Fixed64,
    Len(&'a [u8]),
    Fixed32,
}

/// The fields of a message: `(field number, value)`, or `None` (and the
/// end) for framing a plain walk does not take.
struct Fields<'a>(&'a [u8]);

impl<'a> Iterator for Fields<'a> {
    type Item = Option<(u32, Value<'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.0.is_empty() {
            return None;
        }
        let item = self.field();
        if item.is_none() {
            self.0 = &[];
        }
        Some(item)
    }
}

impl<'a> Fields<'a> {
    fn field(&mut self) -> Option<(u32, Value<'a>)> {
        let key = u32::try_from(self.varint()?).ok()?;
        let number = Some(key >> 3).filter(|&n| n > 0)?;
        let value = match key & 7 {
            0 => self.varint().map(|_| Value::Varint)?,
            1 => self.take(8).map(|_| Value::Fixed64)?,
            2 => {
                let len = usize::try_from(self.varint()?).ok()?;
                Value::Len(self.take(len)?)
            }
            5 => self.take(4).map(|_| Value::Fixed32)?,
            _ => return None,
        };
        Some((number, value))
    }

    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for (i, &b) in self.0.iter().take(10).enumerate() {
            v |= u64::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                // A tenth byte holds the top bit of a u64 only.
                if i == 9 && b > 1 {
                    return None;
                }
                self.0 = self.0.get(i + 1..)?;
                return Some(v);
            }
        }
        None
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (taken, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(taken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pb::{BytesList, Example, Feature, Features, FloatList, Int64List};

    fn example(features: &[(&str, Option<Kind>)]) -> Vec<u8> {
        let mut f = Features::default();
        for (name, kind) in features {
            f.feature
                .insert((*name).to_owned(), Feature { kind: kind.clone() });
        }
        Example { features: Some(f) }.encode_to_vec()
    }

    #[test]
    fn skim_counts_as_decoding_does() {
        let record = example(&[
            (
                "b",
                Some(Kind::BytesList(BytesList {
                    value: vec!["x".into(); 3],
                })),
            ),
            (
                "f",
                Some(Kind::FloatList(FloatList {
                    value: vec![1.0; 5],
                })),
            ),
            (
                "i",
                Some(Kind::Int64List(Int64List {
                    value: vec![1, -1, 300, 1 << 40],
                })),
            ),
            ("empty", Some(Kind::Int64List(Int64List { value: vec![] }))),
        ]);
        let skimmed = skim(&record).unwrap();
        assert_eq!(skimmed["b"], Some((1, 3)));
        assert_eq!(skimmed["f"], Some((2, 5)));
        assert_eq!(skimmed["i"], Some((3, 4)));
        assert_eq!(skimmed["empty"], Some((3, 0)));
        let listed = features_of(&record).unwrap();
        let parsed = parse_example(record).unwrap();
        assert_eq!(listed.len(), parsed.len());
        for (name, t) in parsed {
            assert_eq!(
                listed[&name],
                (t.dtype(), t.num_elements() as u64),
                "{name}"
            );
        }
    }

    #[test]
    fn merged_and_odd_framings_agree_with_decoding() {
        let a = example(&[("x", Some(Kind::FloatList(FloatList { value: vec![1.0] })))]);
        let b = example(&[
            (
                "x",
                Some(Kind::FloatList(FloatList {
                    value: vec![2.0, 3.0],
                })),
            ),
            ("y", Some(Kind::Int64List(Int64List { value: vec![7] }))),
        ]);
        // Two Examples back to back merge: `x` is the second one's.
        let mut both = a.clone();
        both.extend(&b);
        // An unpacked float list and an unknown field.
        let unpacked = vec![
            0x0a, 0x0d, 0x0a, 0x0b, 0x0a, 0x01, b'u', 0x12, 0x06, 0x12, 0x04, 0x0d, 0, 0, 0x80,
            0x3f, 0x58, 0x01,
        ];
        for record in [both, unpacked, vec![0x0a, 0x02, 0x0b, 0x00], vec![0xff]] {
            let want = parse_example(record.clone()).map(|m| {
                m.into_iter()
                    .map(|(k, t)| (k, (t.dtype(), t.num_elements() as u64)))
                    .collect::<BTreeMap<_, _>>()
            });
            match (features_of(&record), want) {
                (Ok(got), Ok(want)) => assert_eq!(got, want),
                (Err(_), Err(_)) => {}
                (got, want) => panic!("{record:?}: {got:?} vs {want:?}"),
            }
        }
        let none = example(&[("n", None)]);
        assert!(
            features_of(&none)
                .unwrap_err()
                .to_string()
                .contains("\"n\"")
        );
    }
}
