//! `tftensor::arrow` against tfx-bsl 1.21's decoder output and
//! `tf.io.parse_example` (TF 2.21), recorded by
//! `scripts/gen_arrow_examples.py` under tests/data/arrow/, plus the
//! zero-copy tensor ↔ `arrow.fixed_shape_tensor` mapping.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};
use tftensor::arrow::arrow_array::{
    Array, ArrayRef, FixedSizeListArray, Float32Array, RecordBatch, cast::AsArray,
    types::Float32Type, types::Int64Type,
};
use tftensor::arrow::arrow_schema::{DataType as ArrowType, Field};
use tftensor::arrow::{
    ExamplesDecoder, FeatureSpec, StreamOptions, arrow_to_tensor, batch_to_examples,
    decode_examples, decode_sequence_examples, examples_schema, fixed_shape_tensor_metadata,
    parse_examples, read_examples_arrow, tensor_to_arrow, write_examples_arrow,
};
use tftensor::tfrecord::{Compression, RecordReader};
use tftensor::{DataType, Error, Tensor};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/arrow")
        .join(name)
}

fn records(name: &str, compression: Compression) -> Vec<Vec<u8>> {
    RecordReader::open(data(name), compression)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn expected(name: &str) -> Value {
    serde_json::from_slice(&std::fs::read(data(&format!("{name}.json"))).unwrap()).unwrap()
}

/// pyarrow's `str(type)`: the library's notation, checked here against
/// the types tfx-bsl's batches had.
fn type_name(t: &ArrowType) -> String {
    tftensor::arrow::type_text(t)
}

/// Row `i` of `a` as the fixture's JSON (`to_pylist`, bytes as "b:<hex>").
fn value(a: &dyn Array, i: usize) -> Value {
    if a.is_null(i) || a.data_type() == &ArrowType::Null {
        return Value::Null;
    }
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
        ArrowType::Struct(fields) => {
            let s = a.as_struct();
            Value::Object(
                fields
                    .iter()
                    .zip(s.columns())
                    .map(|(f, c)| (f.name().clone(), value(c.as_ref(), i)))
                    .collect(),
            )
        }
        other => panic!("unexpected type {other}"),
    }
}

fn as_fixture(batch: &RecordBatch) -> Value {
    let columns: Vec<Value> = batch
        .schema()
        .fields()
        .iter()
        .zip(batch.columns())
        .map(|(f, c)| {
            assert!(f.is_nullable(), "{}", f.name());
            let values: Vec<Value> = (0..c.len()).map(|i| value(c.as_ref(), i)).collect();
            json!({"name": f.name(), "type": type_name(f.data_type()), "values": values})
        })
        .collect();
    json!({"num_rows": batch.num_rows(), "columns": columns})
}

/// Float values as f32 (serde_json's default parser can be 1 ulp off in
/// f64; every float here is an f32).
fn f32s(v: Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => json!(f64::from(n.as_f64().unwrap() as f32)),
        Value::Array(a) => Value::Array(a.into_iter().map(f32s).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, f32s(v))).collect()),
        v => v,
    }
}

fn check_case(name: &str) {
    let recs = records(&format!("{name}.tfrecord"), Compression::None);
    let got = if name == "sequence" {
        decode_sequence_examples(&recs)
    } else {
        decode_examples(&recs)
    };
    let want = expected(name);
    match (got, want.get("error").and_then(Value::as_str)) {
        (Ok(batch), None) => assert_eq!(f32s(as_fixture(&batch)), f32s(want), "{name}"),
        (Err(e), Some(msg)) => {
            // tfx-bsl's text after its status code, with the record named.
            let text = msg.split_once(": ").unwrap().1;
            assert!(e.to_string().ends_with(text), "{name}: {e} vs {msg}");
            if msg.starts_with("DATA_LOSS") {
                assert!(matches!(e, Error::DataLoss { .. }), "{e:?}");
            } else {
                assert!(matches!(e, Error::InvalidArgument(_)), "{e:?}");
            }
        }
        (got, want) => panic!("{name}: got {got:?}, want {want:?}"),
    }
}

#[test]
fn schema_less_decode_matches_tfx_bsl() {
    for name in [
        "corner",
        "kinds",
        "wire",
        "empty",
        "empty_records",
        "conflict",
        "malformed",
        "sequence",
    ] {
        check_case(name);
    }
}

#[test]
fn errors_name_the_record() {
    let recs = records("malformed.tfrecord", Compression::None);
    let e = decode_examples(&recs).unwrap_err();
    assert_eq!(e.to_string(), "record 1: Unable to parse example.");
    let recs = records("conflict.tfrecord", Compression::None);
    let e = decode_examples(&recs).unwrap_err();
    assert_eq!(
        e.to_string(),
        "record 1: Feature had wrong type, expected int64_list, found float_list for feature \"a\""
    );
}

#[test]
fn decoded_buffers_match_pyarrow_layout() {
    let batch = decode_examples(records("corner.tfrecord", Compression::None)).unwrap();
    let a = batch.column(0).as_list::<i64>();
    assert_eq!(a.value_offsets(), &[0, 2, 2, 2]);
    assert_eq!(
        a.nulls().map(|n| n.iter().collect::<Vec<_>>()),
        Some(vec![true, true, false])
    );
    assert_eq!(a.values().as_primitive::<Int64Type>().values(), &[1, 2]);
    // `d` is a null column without buffers.
    assert_eq!(batch.column(3).data_type(), &ArrowType::Null);
    // No nulls: no validity buffer.
    let kinds = decode_examples(&records("kinds.tfrecord", Compression::None)[..2]).unwrap();
    let f = kinds.column_by_name("f").unwrap();
    assert!(f.nulls().is_none());
}

#[test]
fn compressed_files_decode_alike() {
    let plain = decode_examples(records("kinds.tfrecord", Compression::None)).unwrap();
    for (c, file) in [
        (Compression::Gzip, "kinds.gzip.tfrecord"),
        (Compression::Zlib, "kinds.zlib.tfrecord"),
    ] {
        assert_eq!(decode_examples(records(file, c)).unwrap(), plain);
    }
}

#[test]
fn example_bytes_decode_as_sequence_examples_without_the_struct() {
    let recs = records("kinds.tfrecord", Compression::None);
    let a = decode_examples(&recs).unwrap();
    let b = decode_sequence_examples(&recs).unwrap();
    assert_eq!(a, b);
}

#[test]
fn file_schemas_are_the_one_batch_schema_whatever_the_compression() {
    let whole = decode_examples(records("kinds.tfrecord", Compression::None)).unwrap();
    for name in [
        "kinds.tfrecord",
        "kinds.gzip.tfrecord",
        "kinds.zlib.tfrecord",
    ] {
        let s = examples_schema([data(name)], false).unwrap();
        assert_eq!(
            (&s.schema, s.records),
            (whole.schema().as_ref(), 4),
            "{name}"
        );
    }
    // A glob over the three: twelve records, the same columns.
    let s = examples_schema([data("kinds*.tfrecord")], false).unwrap();
    assert_eq!(s.records, 12);
    assert_eq!(
        s.to_string(),
        "B: large_list<item: int64>\n\
         f: large_list<item: float>\n\
         i: large_list<item: int64>\n\
         s: large_list<item: large_binary>\n\
         \u{e9}: large_list<item: float>\n"
    );
    let seq = examples_schema([data("sequence.tfrecord")], true).unwrap();
    assert_eq!(
        seq.schema,
        *decode_sequence_examples(records("sequence.tfrecord", Compression::None))
            .unwrap()
            .schema()
    );
}

#[test]
fn file_schemas_refuse_a_kind_that_changes_between_batches() {
    use std::collections::BTreeMap;
    // 4096 records (one schema batch) with an int64 "a", then a float "a".
    let one = |t: Tensor| BTreeMap::from([("a".to_string(), t)]);
    let mut examples = vec![one(Tensor::from_vec([1], vec![1i64]).unwrap()); 4096];
    examples.push(one(Tensor::from_vec([1], vec![1.0f32]).unwrap()));
    let path = tmp("schema_conflict.tfrecord");
    tftensor::tfrecord::write_examples(&path, Compression::Gzip, &examples).unwrap();
    let e = examples_schema([&path], false).unwrap_err();
    assert!(matches!(e, Error::InvalidFormat { .. }), "{e:?}");
    assert_eq!(e.path(), Some(path.display().to_string().as_str()));
    assert_eq!(
        e.to_string(),
        format!(
            "{}: tfrecord: Feature had wrong type, expected int64_list, found float_list for \
             feature \"a\"",
            path.display()
        )
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn decoder_is_incremental() {
    let recs = records("corner.tfrecord", Compression::None);
    let mut d = ExamplesDecoder::new();
    for r in &recs {
        d.push(r).unwrap();
    }
    assert_eq!(d.rows(), 3);
    assert_eq!(d.finish().unwrap(), decode_examples(&recs).unwrap());
}

// --- arrow.fixed_shape_tensor -------------------------------------------------

#[test]
fn tensor_exports_without_copying() {
    let t = Tensor::from_vec([2, 2, 3], (0..12).map(|i| i as f32).collect()).unwrap();
    let (field, array) = tensor_to_arrow(&t, "t").unwrap();
    assert_eq!(
        field.metadata()["ARROW:extension:name"],
        "arrow.fixed_shape_tensor"
    );
    assert_eq!(
        field.metadata()["ARROW:extension:metadata"],
        r#"{"shape":[2,3]}"#
    );
    let list = array.as_any().downcast_ref::<FixedSizeListArray>().unwrap();
    assert_eq!((list.len(), list.value_length()), (2, 6));
    let ArrowType::FixedSizeList(item, 6) = field.data_type() else {
        panic!("{}", field.data_type())
    };
    assert_eq!((item.name().as_str(), item.is_nullable()), ("item", false));
    let values = list.values().as_primitive::<Float32Type>();
    assert_eq!(values.values().as_ptr().cast::<u8>(), t.data_ptr().unwrap());
    assert_eq!(values.value(7), 7.0);
    assert_eq!(list.null_count(), 0);
    // The Arrow array keeps the buffer alive after the tensor is gone.
    let ptr = t.data_ptr().unwrap();
    drop(t);
    assert_eq!(values.values().as_ptr().cast::<u8>(), ptr);
    assert_eq!(values.value(11), 11.0);
}

#[test]
fn tensor_round_trips_by_pointer_for_every_dtype() {
    for dtype in [
        DataType::Float,
        DataType::Double,
        DataType::Half,
        DataType::Int8,
        DataType::Int16,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::UInt16,
        DataType::UInt32,
        DataType::UInt64,
    ] {
        for shape in [&[3i64][..], &[2, 5], &[0, 4], &[4, 0], &[2, 1, 3, 2]] {
            let n = shape.iter().product::<i64>() as usize * dtype.size();
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37 % 251) as u8).collect();
            let t = Tensor::from_buffer(dtype, shape, bytes.into()).unwrap();
            let (field, array) = tensor_to_arrow(&t, "x").unwrap();
            assert_eq!(array.len(), shape[0] as usize);
            let back = arrow_to_tensor(&field, array.as_ref()).unwrap();
            assert_eq!(back.dtype(), dtype);
            assert_eq!(back.shape(), t.shape(), "{dtype} {shape:?}");
            assert_eq!(back.tensor_data().unwrap(), t.tensor_data().unwrap());
            if n > 0 {
                assert_eq!(back.data_ptr(), t.data_ptr(), "{dtype} {shape:?}");
            }
        }
    }
}

#[test]
fn arrow_import_adopts_the_arrow_buffer() {
    let values = Float32Array::from((0..24).map(|i| i as f32).collect::<Vec<_>>());
    let ptr = values.values().as_ptr();
    let item = Arc::new(Field::new("item", ArrowType::Float32, true)); // pyarrow: nullable
    let list = FixedSizeListArray::new(item, 6, Arc::new(values), None);
    let field = Field::new("t", list.data_type().clone(), true).with_metadata(
        [
            (
                "ARROW:extension:name".to_owned(),
                "arrow.fixed_shape_tensor".to_owned(),
            ),
            // pyarrow's form, identity permutation included.
            (
                "ARROW:extension:metadata".to_owned(),
                r#"{"shape":[2,3],"permutation":[0,1]}"#.to_owned(),
            ),
        ]
        .into(),
    );
    let t = arrow_to_tensor(&field, &list).unwrap();
    assert_eq!(t.shape().dim_sizes(), [4, 2, 3]);
    assert_eq!(t.data_ptr(), Some(ptr.cast()));
    // A slice (pyarrow's slice(1, 2)) still shares, from the right element.
    let sliced = list.slice(1, 2);
    let t = arrow_to_tensor(&field, &sliced).unwrap();
    assert_eq!(t.shape().dim_sizes(), [2, 2, 3]);
    assert_eq!(t.as_slice::<f32>().unwrap()[0], 6.0);
    assert_eq!(t.data_ptr(), Some(ptr.wrapping_add(6).cast()));
    drop(list);
    drop(sliced);
    assert_eq!(t.as_slice::<f32>().unwrap()[11], 17.0);
    // arrow-rs's dialect reads too.
    let rs = field.clone().with_metadata(
        [
            (
                "ARROW:extension:name".to_owned(),
                "arrow.fixed_shape_tensor".to_owned(),
            ),
            (
                "ARROW:extension:metadata".to_owned(),
                r#"{"shape":[2,3],"dim_names":null,"permutations":null}"#.to_owned(),
            ),
        ]
        .into(),
    );
    assert_eq!(
        fixed_shape_tensor_metadata(&rs).unwrap().unwrap().shape,
        [2, 3]
    );
}

#[test]
fn tensor_mapping_refuses_what_it_cannot_share() {
    let bad_dtypes: [Tensor; 3] = [
        Tensor::new(DataType::BFloat16, [2, 2]).unwrap(),
        Tensor::new(DataType::Bool, [2, 2]).unwrap(),
        Tensor::from_vec([2], vec![tftensor::bytes::Bytes::from("a"), "b".into()]).unwrap(),
    ];
    for t in bad_dtypes {
        let e = tensor_to_arrow(&t, "x").unwrap_err();
        assert!(
            matches!(
                e,
                Error::InvalidFormat {
                    format: "arrow",
                    ..
                }
            ),
            "{e:?}"
        );
    }
    assert!(tensor_to_arrow(&Tensor::from(1.0f32), "s").is_err());
    // Nulls, a wrong shape, a type outside the table.
    let with_null: ArrayRef = Arc::new(Float32Array::from(vec![Some(1.0), None]));
    let f = Field::new("x", ArrowType::Float32, true);
    assert!(arrow_to_tensor(&f, with_null.as_ref()).is_err());
    let t = Tensor::from_vec([2, 6], vec![0.0f32; 12]).unwrap();
    let (field, array) = tensor_to_arrow(&t, "x").unwrap();
    let mut md = field.metadata().clone();
    md.insert("ARROW:extension:metadata".into(), r#"{"shape":[5]}"#.into());
    let e = arrow_to_tensor(&field.clone().with_metadata(md), array.as_ref()).unwrap_err();
    assert!(e.to_string().contains("does not hold 6 values"), "{e}");
    let strings: ArrayRef = Arc::new(tftensor::arrow::arrow_array::StringArray::from(vec!["a"]));
    let f = Field::new("x", ArrowType::Utf8, true);
    assert!(arrow_to_tensor(&f, strings.as_ref()).is_err());
}

// --- feature spec (tf.io.parse_example) ------------------------------------

fn spec() -> Vec<(&'static str, FeatureSpec)> {
    let fixed = |dtype, shape: &[usize], default| FeatureSpec::FixedLen {
        dtype,
        shape: shape.to_vec(),
        default,
    };
    vec![
        ("fi", fixed(DataType::Int64, &[2], None)),
        (
            "ff",
            fixed(DataType::Float, &[], Some(Tensor::from(-1.0f32))),
        ),
        (
            "fs",
            fixed(DataType::String, &[], Some(Tensor::from("none"))),
        ),
        ("m", fixed(DataType::Float, &[2, 2], None)),
        (
            "vi",
            FeatureSpec::VarLen {
                dtype: DataType::Int64,
            },
        ),
        (
            "vs",
            FeatureSpec::VarLen {
                dtype: DataType::String,
            },
        ),
        (
            "r",
            FeatureSpec::Ragged {
                dtype: DataType::Float,
            },
        ),
    ]
}

/// Flat values of a dense (primitive or fixed-size list) column.
fn flat(a: &dyn Array) -> Vec<Value> {
    match a.as_fixed_size_list_opt() {
        Some(l) => flat(l.values().as_ref()),
        None => (0..a.len()).map(|i| value(a, i)).collect(),
    }
}

#[test]
fn feature_spec_matches_tf_parse_example() {
    let recs = records("spec.tfrecord", Compression::None);
    let batch = parse_examples(&recs, &spec()).unwrap();
    let want = &expected("spec")["parsed"];
    let schema = batch.schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(names, ["fi", "ff", "fs", "m", "vi", "vs", "r"]);
    for name in ["fi", "ff", "fs", "m"] {
        let col = batch.column_by_name(name).unwrap();
        assert_eq!(
            f32s(Value::Array(flat(col.as_ref()))),
            f32s(want[name]["values"].clone()),
            "{name}"
        );
    }
    let field = batch.schema().field_with_name("m").unwrap().clone();
    assert_eq!(
        fixed_shape_tensor_metadata(&field).unwrap().unwrap().shape,
        [2, 2]
    );
    let m = arrow_to_tensor(&field, batch.column_by_name("m").unwrap().as_ref()).unwrap();
    assert_eq!(m.shape().dim_sizes(), [3, 2, 2]);
    // Ragged: row_splits are the offsets.
    let r = batch.column_by_name("r").unwrap().as_list::<i64>();
    assert_eq!(json!(r.value_offsets()), want["r"]["row_splits"]);
    assert_eq!(
        f32s(Value::Array(flat(r.values().as_ref()))),
        f32s(want["r"]["values"].clone())
    );
    // VarLen: TF's SparseTensor, rebuilt from the lists.
    for name in ["vi", "vs"] {
        let l = batch.column_by_name(name).unwrap().as_list::<i64>();
        assert_eq!(l.null_count(), 0);
        let mut indices = Vec::new();
        let mut width = 0;
        for i in 0..l.len() {
            let n = l.value_length(i) as usize;
            width = width.max(n);
            indices.extend((0..n).map(|j| json!([i, j])));
        }
        assert_eq!(Value::Array(indices), want[name]["indices"], "{name}");
        assert_eq!(json!([l.len(), width]), want[name]["dense_shape"], "{name}");
        assert_eq!(
            Value::Array(flat(l.values().as_ref())),
            want[name]["values"],
            "{name}"
        );
    }
}

#[test]
fn feature_spec_errors_are_tfs() {
    let recs = records("spec.tfrecord", Compression::None);
    let empty_ff = {
        use tftensor::pb::{Example, Feature, Features, FloatList, feature::Kind};
        use tftensor::prost::Message;
        let mut f = Features::default();
        f.feature.insert(
            "ff".into(),
            Feature {
                kind: Some(Kind::FloatList(FloatList { value: vec![] })),
            },
        );
        vec![Example { features: Some(f) }.encode_to_vec()]
    };
    let fixed = |dtype, shape: &[usize], default| FeatureSpec::FixedLen {
        dtype,
        shape: shape.to_vec(),
        default,
    };
    for case in expected("spec")["errors"].as_array().unwrap() {
        let (label, want) = (
            case["case"].as_str().unwrap(),
            case["error"].as_str().unwrap(),
        );
        let (batch, spec) = match label {
            "wrong_length" => (&recs, ("fi", fixed(DataType::Int64, &[3], None))),
            "missing" => (&recs, ("ff", fixed(DataType::Float, &[], None))),
            "wrong_type" => (&recs, ("fi", fixed(DataType::Float, &[2], None))),
            "empty_with_default" => (
                &empty_ff,
                (
                    "ff",
                    fixed(DataType::Float, &[], Some(Tensor::from(-1.0f32))),
                ),
            ),
            "empty_scalar" => (&empty_ff, ("ff", fixed(DataType::Float, &[], None))),
            other => panic!("unknown case {other}"),
        };
        let e = parse_examples(batch, &[spec]).unwrap_err();
        assert!(matches!(e, Error::InvalidArgument(_)), "{e:?}");
        assert_eq!(e.to_string(), want, "{label}");
    }
}

// --- write direction and streaming -------------------------------------------

fn tmp(name: &str) -> PathBuf {
    let dir = tempfile::Builder::new()
        .prefix("tftensor-arrow-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn batches_write_back_to_the_same_examples() {
    use tftensor::prost::Message;
    for name in ["kinds", "corner", "wire"] {
        let recs = records(&format!("{name}.tfrecord"), Compression::None);
        let batch = decode_examples(&recs).unwrap();
        let examples = batch_to_examples(&batch).unwrap();
        let again: Vec<Vec<u8>> = examples.iter().map(|e| e.encode_to_vec()).collect();
        assert_eq!(decode_examples(&again).unwrap(), batch, "{name}");
        // Each example equals the original parsed (for the well-formed set).
        if name == "kinds" {
            for (e, r) in examples.iter().zip(&recs) {
                // (An empty Features and none are the same data.)
                let want = tftensor::pb::Example::decode(r.as_slice()).unwrap();
                assert_eq!(
                    e.features.clone().unwrap_or_default(),
                    want.features.unwrap_or_default()
                );
            }
        }
    }
    // Through a gzip file.
    let batch = decode_examples(records("kinds.tfrecord", Compression::None)).unwrap();
    let path = tmp("w.tfrecord.gz");
    assert_eq!(
        write_examples_arrow(&path, Compression::Gzip, [&batch, &batch]).unwrap(),
        8
    );
    let back = decode_examples(records_at(&path, Compression::Gzip)).unwrap();
    assert_eq!(back.num_rows(), 8);
    assert_eq!(back.slice(4, 4), batch);
    // Fixed-shape tensors flatten row-major; a struct column is refused.
    let t = Tensor::from_vec([2, 2, 2], (0..8).collect::<Vec<i32>>()).unwrap();
    let (field, array) = tensor_to_arrow(&t, "t").unwrap();
    let b = RecordBatch::try_new(
        Arc::new(tftensor::arrow::arrow_schema::Schema::new(vec![field])),
        vec![array],
    )
    .unwrap();
    let ex = batch_to_examples(&b).unwrap();
    let f = &ex[1].features.as_ref().unwrap().feature["t"];
    assert_eq!(
        f.kind,
        Some(tftensor::pb::feature::Kind::Int64List(
            tftensor::pb::Int64List {
                value: vec![4, 5, 6, 7]
            }
        ))
    );
    let seq = decode_sequence_examples(records("sequence.tfrecord", Compression::None)).unwrap();
    assert!(batch_to_examples(&seq).is_err());
}

fn records_at(path: &Path, c: Compression) -> Vec<Vec<u8>> {
    RecordReader::open(path, c)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn streams_bounded_batches_across_files() {
    let dir = data("");
    // kinds.gzip and kinds.zlib match; read only the gzip one with GZIP.
    let gz = dir.join("kinds.gz*.tfrecord");
    let rows: Vec<usize> = read_examples_arrow(
        [&gz, &gz, &gz],
        StreamOptions::new(5).compression(Compression::Gzip),
    )
    .unwrap()
    .map(|b| b.unwrap().num_rows())
    .collect();
    assert_eq!(rows, [5, 5, 2]);
    // A spec applies per batch; a glob with no match is NotFound.
    let spec = vec![(
        "r".to_owned(),
        FeatureSpec::Ragged {
            dtype: DataType::Float,
        },
    )];
    let mut it =
        read_examples_arrow([data("spec.tfrecord")], StreamOptions::new(2).spec(spec)).unwrap();
    assert_eq!(
        it.next_batch()
            .unwrap()
            .unwrap()
            .column(0)
            .as_list::<i64>()
            .value_offsets(),
        &[0, 1, 1]
    );
    assert_eq!(it.next_batch().unwrap().unwrap().num_rows(), 1);
    assert!(it.next().is_none());
    assert!(matches!(
        read_examples_arrow([dir.join("*.nothing")], StreamOptions::new(1)),
        Err(Error::NotFound { .. })
    ));
    // A bad record is an error naming the file and the record (the first
    // pass over the files, which fixes the stream's schema, finds it).
    let e = read_examples_arrow([data("malformed.tfrecord")], StreamOptions::new(8)).unwrap_err();
    assert!(matches!(e, Error::DataLoss { .. }), "{e:?}");
    assert!(
        e.to_string()
            .ends_with("malformed.tfrecord: record 1: Unable to parse example."),
        "{e}"
    );
    assert!(e.path().unwrap().ends_with("malformed.tfrecord"), "{e:?}");
}

#[test]
fn sliced_tensors_export_their_own_region() {
    let t = Tensor::from_vec([4, 3], (0..12).collect::<Vec<i64>>()).unwrap();
    let s = t.slice(1, 3).unwrap();
    let (field, array) = tensor_to_arrow(&s, "s").unwrap();
    let list = array.as_fixed_size_list();
    assert_eq!(list.len(), 2);
    let values = list.values().as_primitive::<Int64Type>();
    assert_eq!(values.values(), &[3, 4, 5, 6, 7, 8]);
    assert_eq!(values.values().as_ptr().cast::<u8>(), s.data_ptr().unwrap());
    let back = arrow_to_tensor(&field, array.as_ref()).unwrap();
    assert_eq!(back, s);
    assert_eq!(back.data_ptr(), s.data_ptr());
}
