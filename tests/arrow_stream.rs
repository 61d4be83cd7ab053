//! The Arrow stream's contract: one schema for the whole stream, fixed
//! when it is opened (from the files, a spec or a given schema), every
//! batch in it; and `tf.io.parse_sequence_example`'s output and errors
//! (TF 2.21, recorded by `scripts/gen_sequence_spec.py`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};
use tftensor::arrow::arrow_array::{
    Array, RecordBatch, RecordBatchReader, cast::AsArray, types::Float32Type, types::Int64Type,
};
use tftensor::arrow::arrow_schema::{DataType as ArrowType, Field, Schema};
use tftensor::arrow::{
    ExampleBatches, FeatureSpec, SEQUENCE_COLUMN, SequenceSpec, StreamOptions, examples_schema,
    parse_sequence_examples, read_examples_arrow,
};
use tftensor::tfrecord::{Compression, RecordReader};
use tftensor::{DataType, Error, ErrorKind, Tensor};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/arrow")
        .join(name)
}

fn all(mut s: ExampleBatches) -> Vec<RecordBatch> {
    let mut out = Vec::new();
    while let Some(b) = s.next_batch().unwrap() {
        out.push(b);
    }
    out
}

fn write(path: &Path, examples: &[BTreeMap<String, Tensor>]) {
    tftensor::tfrecord::write_examples(path, Compression::None, examples).unwrap();
}

fn ints(v: &[i64]) -> Tensor {
    Tensor::from_vec([v.len()], v.to_vec()).unwrap()
}

#[test]
fn every_batch_has_the_streams_one_schema_the_files_schema() {
    for (name, sequence) in [
        ("kinds.tfrecord", false),
        ("corner.tfrecord", false),
        ("wire.tfrecord", false),
        ("sequence.tfrecord", true),
    ] {
        let want = examples_schema([data(name)], sequence).unwrap().schema;
        let s =
            read_examples_arrow([data(name)], StreamOptions::new(1).sequence(sequence)).unwrap();
        assert_eq!(*s.schema(), want, "{name}");
        let reader: Box<dyn RecordBatchReader> = Box::new(s);
        let schema = reader.schema();
        let mut rows = 0;
        for b in reader {
            let b = b.unwrap();
            assert_eq!(b.schema(), schema, "{name}");
            rows += b.num_rows();
        }
        assert!(rows > 0, "{name}");
    }
}

/// A feature only some files (or batches) have is an all-null column of
/// its type in the others, inside the `##SEQUENCE##` struct too.
#[test]
fn features_missing_from_some_files_are_nulls() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.tfrecord"), dir.path().join("b.tfrecord"));
    write(&a, &[BTreeMap::from([("x".to_string(), ints(&[1, 2]))])]);
    write(
        &b,
        &[BTreeMap::from([(
            "y".to_string(),
            Tensor::from_vec([1], vec![0.5f32]).unwrap(),
        )])],
    );
    let batches = all(read_examples_arrow([&a, &b], StreamOptions::new(1)).unwrap());
    assert_eq!(batches.len(), 2);
    let names: Vec<&str> = batches[0]
        .schema_ref()
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect();
    assert_eq!(names, ["x", "y"]);
    assert_eq!(batches[0].schema(), batches[1].schema());
    assert_eq!(batches[0].column(1).null_count(), 1); // no y in a
    assert_eq!(batches[1].column(0).null_count(), 1); // no x in b
    assert_eq!(
        batches[1]
            .column(1)
            .as_list::<i64>()
            .value(0)
            .as_primitive::<Float32Type>()
            .values(),
        &[0.5]
    );

    // Sequence steps whose kind one batch never sets take the other's.
    let batches = all(read_examples_arrow(
        [data("sequence.tfrecord")],
        StreamOptions::new(1).sequence(true),
    )
    .unwrap());
    let seq = batches
        .iter()
        .map(|b| {
            b.column_by_name(SEQUENCE_COLUMN)
                .unwrap()
                .data_type()
                .clone()
        })
        .collect::<Vec<_>>();
    assert!(seq.windows(2).all(|w| w[0] == w[1]), "{seq:?}");
}

#[test]
fn a_kind_that_changes_is_an_error_naming_the_file() {
    // Found by the first pass.
    let e = read_examples_arrow([data("conflict.tfrecord")], StreamOptions::new(1)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidFormat, "{e}");
    assert!(e.path().unwrap().ends_with("conflict.tfrecord"), "{e:?}");
    assert!(
        e.to_string().ends_with(
            "Feature had wrong type, expected int64_list, found float_list for feature \"a\""
        ),
        "{e}"
    );

    // Against a given schema: the batch that differs.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.tfrecord");
    write(&path, &[BTreeMap::from([("a".to_string(), ints(&[1]))])]);
    let item = Arc::new(Field::new("item", ArrowType::Float32, true));
    let schema = Arc::new(Schema::new(vec![Field::new(
        "a",
        ArrowType::LargeList(item),
        true,
    )]));
    let mut s = read_examples_arrow([&path], StreamOptions::new(1).schema(schema)).unwrap();
    let e = s.next_batch().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidFormat, "{e}");
    assert_eq!(e.path(), Some(path.display().to_string().as_str()));
    assert!(
        e.to_string().ends_with(
            "Feature had wrong type, expected float_list, found int64_list for feature \"a\""
        ),
        "{e}"
    );
    assert!(
        s.next_batch().unwrap().is_none(),
        "the stream ends after an error"
    );
}

/// A given schema is the stream's: features outside it are skipped, one
/// the files lack is all null, and the files are not read beforehand.
#[test]
fn a_given_schema_is_kept_whatever_the_files_hold() {
    let list = |t: ArrowType| ArrowType::LargeList(Arc::new(Field::new("item", t, true)));
    let schema = Arc::new(Schema::new(vec![
        Field::new("z", list(ArrowType::LargeBinary), true),
        Field::new("i", list(ArrowType::Int64), true),
    ]));
    let s = read_examples_arrow(
        [data("kinds.tfrecord")],
        StreamOptions::new(3).schema(schema.clone()),
    )
    .unwrap();
    assert_eq!(s.schema(), schema);
    let batches = all(s);
    assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 4);
    for b in &batches {
        assert_eq!(b.schema(), schema);
        assert_eq!(b.column(0).null_count(), b.num_rows());
    }
    // The error of a malformed record comes from the stream then, not
    // from a first pass.
    let mut s = read_examples_arrow(
        [data("malformed.tfrecord")],
        StreamOptions::new(8).schema(schema),
    )
    .unwrap();
    let e = s.next_batch().unwrap_err();
    assert!(matches!(e, Error::DataLoss { .. }), "{e:?}");
    // Without a schema, the first pass reads the bad record.
    let e = read_examples_arrow([data("malformed.tfrecord")], StreamOptions::new(8)).unwrap_err();
    assert!(matches!(e, Error::DataLoss { .. }), "{e:?}");
}

#[test]
fn a_spec_fixes_the_schema_before_any_record() {
    let spec = vec![
        (
            "fi".to_owned(),
            FeatureSpec::FixedLen {
                dtype: DataType::Int64,
                shape: vec![2],
                default: None,
            },
        ),
        (
            "r".to_owned(),
            FeatureSpec::Ragged {
                dtype: DataType::Float,
            },
        ),
    ];
    let s = read_examples_arrow([data("spec.tfrecord")], StreamOptions::new(2).spec(spec)).unwrap();
    let schema = s.schema();
    assert_eq!(schema.fields().len(), 2);
    let batches = all(s);
    assert_eq!(batches.len(), 2);
    assert!(batches.iter().all(|b| b.schema() == schema));
}

fn expected() -> Value {
    serde_json::from_slice(&std::fs::read(data("sequence_spec.json")).unwrap()).unwrap()
}

fn records(name: &str) -> Vec<Vec<u8>> {
    RecordReader::open(data(name), Compression::None)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The spec of `scripts/gen_sequence_spec.py`.
fn sequence_spec() -> SequenceSpec {
    let (i64s, f32s, strs) = (DataType::Int64, DataType::Float, DataType::String);
    SequenceSpec {
        context: vec![
            (
                "id".into(),
                FeatureSpec::FixedLen {
                    dtype: i64s,
                    shape: vec![],
                    default: None,
                },
            ),
            (
                "label".into(),
                FeatureSpec::FixedLen {
                    dtype: f32s,
                    shape: vec![],
                    default: Some(Tensor::from(-1.0f32)),
                },
            ),
            ("tags".into(), FeatureSpec::VarLen { dtype: strs }),
        ],
        sequence: vec![
            (
                "tok".into(),
                FeatureSpec::FixedLenSequence {
                    dtype: i64s,
                    shape: vec![],
                    allow_missing: false,
                },
            ),
            (
                "emb".into(),
                FeatureSpec::FixedLenSequence {
                    dtype: f32s,
                    shape: vec![2],
                    allow_missing: true,
                },
            ),
            ("words".into(), FeatureSpec::VarLen { dtype: strs }),
            ("r".into(), FeatureSpec::Ragged { dtype: f32s }),
        ],
    }
}

/// Row `i` of `a` as the fixture's JSON (bytes as "b:<hex>").
fn value(a: &dyn Array, i: usize) -> Value {
    match a.data_type() {
        ArrowType::Int64 => json!(a.as_primitive::<Int64Type>().value(i)),
        ArrowType::Float32 => json!(f64::from(a.as_primitive::<Float32Type>().value(i))),
        ArrowType::LargeBinary => {
            json!(format!("b:{}", hex::encode(a.as_binary::<i64>().value(i))))
        }
        ArrowType::LargeList(_) => {
            let inner = a.as_list::<i64>().value(i);
            Value::Array((0..inner.len()).map(|j| value(inner.as_ref(), j)).collect())
        }
        ArrowType::FixedSizeList(..) => {
            let inner = a.as_fixed_size_list().value(i);
            Value::Array((0..inner.len()).map(|j| value(inner.as_ref(), j)).collect())
        }
        other => panic!("unexpected {other}"),
    }
}

#[test]
fn sequence_specs_give_what_parse_sequence_example_gives() {
    let want = expected();
    assert_eq!(want["tensorflow"], "2.21.0");
    let spec = sequence_spec();
    let batch = parse_sequence_examples(records("sequence_spec.tfrecord"), &spec).unwrap();
    let parsed = want["parsed"].as_array().unwrap();
    assert_eq!(batch.num_rows(), parsed.len());
    let lists = batch.column_by_name(SEQUENCE_COLUMN).unwrap().as_struct();
    for (row, record) in parsed.iter().enumerate() {
        for (name, _) in &spec.context {
            let got = value(batch.column_by_name(name).unwrap().as_ref(), row);
            assert_eq!(got, record["context"][name], "record {row}, {name}");
        }
        for (name, _) in &spec.sequence {
            let got = value(lists.column_by_name(name).unwrap().as_ref(), row);
            assert_eq!(got, record["sequence"][name], "record {row}, {name}");
        }
    }
    // `emb`'s steps are [2]-tensors.
    let emb = lists.column_by_name("emb").unwrap();
    let ArrowType::LargeList(item) = emb.data_type() else {
        panic!("{emb:?}")
    };
    assert_eq!(
        item.metadata()["ARROW:extension:metadata"],
        "{\"shape\":[2]}"
    );

    // The stream gives the same, in one schema from the spec.
    let s = read_examples_arrow(
        [data("sequence_spec.tfrecord")],
        StreamOptions::new(3).sequence_spec(spec.clone()),
    )
    .unwrap();
    let schema = s.schema();
    assert_eq!(schema, batch.schema());
    let streamed = all(s);
    assert_eq!(streamed.len(), 2);
    assert_eq!(
        tftensor::arrow::arrow_array::RecordBatch::try_new(
            schema.clone(),
            streamed[0].columns().to_vec()
        )
        .unwrap(),
        batch.slice(0, 3)
    );
}

#[test]
fn sequence_spec_errors_are_tfs() {
    let spec = sequence_spec();
    let only = |names: &[&str]| SequenceSpec {
        context: vec![],
        sequence: spec
            .sequence
            .iter()
            .filter(|(n, _)| names.contains(&n.as_str()))
            .cloned()
            .collect(),
    };
    for case in expected()["errors"].as_array().unwrap() {
        let name = case["case"].as_str().unwrap();
        let feature = match name {
            "missing" | "wrong_type" | "wrong_length_scalar" => "tok",
            _ => "emb",
        };
        let recs = records(&format!("sequence_spec_{name}.tfrecord"));
        let e = parse_sequence_examples(&recs, &only(&[feature])).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument, "{name}");
        assert_eq!(e.to_string(), case["error"].as_str().unwrap(), "{name}");
    }
}
