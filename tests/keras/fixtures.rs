//! Every dataset of every fixture: names, dtype, shape and the sha256 of
//! its bytes equal what h5py's `ds[()]` gave.

use std::collections::BTreeMap;

use tftensor::keras::KerasFile;
use tftensor::{DataType, Error};

use super::data;
use crate::sha256::sha256_hex;

fn dtype_name(dt: DataType) -> &'static str {
    match dt {
        DataType::Half => "float16",
        DataType::Float => "float32",
        DataType::Double => "float64",
        DataType::BFloat16 => "bfloat16",
        DataType::Int8 => "int8",
        DataType::Int16 => "int16",
        DataType::Int32 => "int32",
        DataType::Int64 => "int64",
        DataType::UInt8 => "uint8",
        DataType::UInt16 => "uint16",
        DataType::UInt32 => "uint32",
        DataType::UInt64 => "uint64",
        DataType::Bool => "bool",
        DataType::Complex64 => "complex64",
        DataType::Complex128 => "complex128",
        other => panic!("unexpected dtype {other}"),
    }
}

fn expected() -> BTreeMap<String, serde_json::Value> {
    let text = std::fs::read_to_string(data("expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn check_file(name: &str) -> usize {
    let all = expected();
    let want = all[name]["datasets"].as_object().unwrap();
    let f = KerasFile::open(data(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let got: Vec<&str> = f.entries().iter().map(|e| e.name.as_str()).collect();
    let mut want_names: Vec<&str> = want.keys().map(String::as_str).collect();
    let mut sorted = got.clone();
    sorted.sort();
    want_names.sort();
    assert_eq!(sorted, want_names, "{name}: entry names");
    for (i, e) in f.entries().iter().enumerate() {
        let w = &want[&e.name];
        assert_eq!(dtype_name(e.dtype), w["dtype"], "{name}:{}", e.name);
        let shape: Vec<i64> = w["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_i64().unwrap())
            .collect();
        assert_eq!(e.shape.dim_sizes(), shape, "{name}:{}", e.name);
        let t = f
            .read_index(i)
            .unwrap_or_else(|err| panic!("{name}:{}: {err}", e.name));
        assert_eq!(t.dtype(), e.dtype);
        assert_eq!(t.shape(), &e.shape);
        let bytes = t.tensor_data().unwrap();
        assert_eq!(bytes.len() as u64, e.byte_len);
        assert_eq!(
            sha256_hex(bytes),
            w["sha256"],
            "{name}:{}: bytes differ from h5py",
            e.name
        );
        // By name as well as by index.
        assert_eq!(f.read(&e.name).unwrap().tensor_data().unwrap(), bytes);
    }
    f.entries().len()
}

#[test]
fn keras3_sequential_weights_with_adam_state() {
    assert_eq!(check_file("seq.weights.h5"), 8 + 14);
    let f = KerasFile::open(data("seq.weights.h5")).unwrap();
    let e = f
        .entries()
        .iter()
        .find(|e| e.name == "optimizer/vars/0")
        .unwrap();
    assert_eq!((e.dtype, e.shape.dims()), (DataType::Int64, 0));
    // One fit step: Adam's iteration counter is 1.
    assert_eq!(
        f.read("optimizer/vars/0")
            .unwrap()
            .as_slice::<i64>()
            .unwrap(),
        &[1]
    );
}

#[test]
fn keras3_functional_nested_sequential() {
    check_file("func.weights.h5");
    let f = KerasFile::open(data("func.weights.h5")).unwrap();
    assert!(
        f.entries()
            .iter()
            .any(|e| e.name == "layers/sequential/layers/dense/vars/0")
    );
}

#[test]
fn keras_archive_reads_the_stored_member_in_place() {
    check_file("seq.keras");
    let f = KerasFile::open(data("seq.keras")).unwrap();
    let md = f.metadata();
    assert_eq!(md[0].0, "config.json");
    assert!(md[0].1.contains("\"class_name\": \"Sequential\""));
    assert_eq!(md[1].0, "metadata.json");
    assert!(md[1].1.contains("keras_version"));
}

#[test]
fn every_dtype_keras_writes() {
    assert_eq!(check_file("dtypes.weights.h5"), 16);
    let f = KerasFile::open(data("dtypes.weights.h5")).unwrap();
    let dts: Vec<DataType> = f.entries().iter().map(|e| e.dtype).collect();
    for dt in [
        DataType::BFloat16,
        DataType::Bool,
        DataType::Complex128,
        DataType::UInt64,
    ] {
        assert!(dts.contains(&dt), "{dt}");
    }
    let b = f.read("layers/all/vars/11").unwrap();
    assert_eq!(b.as_slice::<bool>().unwrap(), &[true, false, false, true]);
}

#[test]
fn bf16_and_f16_policies() {
    check_file("bf16.weights.h5");
    check_file("f16.weights.h5");
}

#[test]
fn sharded_weights_union_of_shards() {
    assert_eq!(check_file("shard.weights.json"), 22);
}

#[test]
fn legacy_h5_keras3_and_keras2() {
    check_file("seq_legacy.h5");
    check_file("k2.h5");
    check_file("k2_weights.h5");
    let f = KerasFile::open(data("k2.h5")).unwrap();
    let md = f.metadata();
    let get = |k: &str| md.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    assert!(get("keras_version").is_some());
    assert_eq!(get("backend").as_deref(), Some("tensorflow"));
    assert_eq!(get("model_weights/layer_names").as_deref(), Some("d1\nd2"));
    assert!(
        f.entries()
            .iter()
            .any(|e| e.name == "model_weights/d1/d1/kernel:0")
    );
}

#[test]
fn chunked_deflate_shuffle_fletcher32_compact_big_endian() {
    assert_eq!(check_file("features.h5"), 7);
}

#[test]
fn libver_latest_dense_links_and_v108() {
    assert_eq!(check_file("latest.h5"), 14 + 120);
    check_file("v108.h5");
    check_file("track_order.h5");
}

#[test]
fn a_userblock_moves_the_superblock_and_the_base_address() {
    assert_eq!(check_file("userblock.h5"), 1);
}

#[test]
fn npz_variant_is_refused_by_name() {
    let dir = tempfile::Builder::new()
        .prefix("tftensor-keras-npz-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("m.keras");
    {
        let mut z = zip::ZipWriter::new(std::fs::File::create(&p).unwrap());
        let o = zip::write::SimpleFileOptions::default();
        z.start_file("config.json", o).unwrap();
        z.start_file("model.weights.npz", o).unwrap();
        z.finish().unwrap();
    }
    let err = KerasFile::open(&p).unwrap_err();
    assert!(matches!(
        err,
        Error::InvalidFormat {
            format: "keras",
            ..
        }
    ));
    assert!(err.to_string().contains("npz variant"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_shard_is_not_found() {
    let dir = tempfile::Builder::new()
        .prefix("tftensor-keras-shard-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(data("shard.weights.json"), dir.join("shard.weights.json")).unwrap();
    let err = KerasFile::open(dir.join("shard.weights.json")).unwrap_err();
    assert!(matches!(err, Error::NotFound { .. }), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unknown_name_is_not_found() {
    let f = KerasFile::open(data("seq.weights.h5")).unwrap();
    assert!(matches!(f.read("nope"), Err(Error::NotFound { .. })));
    assert!(matches!(f.read_index(999), Err(Error::NotFound { .. })));
}

#[test]
fn deflated_keras_member_is_inflated_in_memory() {
    use std::io::{Read, Write};
    let dir = tempfile::Builder::new()
        .prefix("tftensor-keras-deflated-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("deflated.keras");
    let mut src = zip::ZipArchive::new(std::fs::File::open(data("seq.keras")).unwrap()).unwrap();
    {
        let mut z = zip::ZipWriter::new(std::fs::File::create(&p).unwrap());
        let o = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for name in ["metadata.json", "config.json", "model.weights.h5"] {
            let mut buf = Vec::new();
            src.by_name(name).unwrap().read_to_end(&mut buf).unwrap();
            z.start_file(name, o).unwrap();
            z.write_all(&buf).unwrap();
        }
        z.finish().unwrap();
    }
    let a = KerasFile::open(data("seq.keras")).unwrap();
    let b = KerasFile::open(&p).unwrap();
    assert_eq!(a.entries(), b.entries());
    for i in 0..a.entries().len() {
        assert_eq!(
            a.read_index(i).unwrap().tensor_data().unwrap(),
            b.read_index(i).unwrap().tensor_data().unwrap()
        );
    }
    assert_eq!(a.metadata(), b.metadata());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Whether `sig` occurs in the fixture's bytes (which structures h5py wrote).
fn holds(name: &str, sig: &[u8]) -> bool {
    std::fs::read(data(name))
        .unwrap()
        .windows(sig.len())
        .any(|w| w == sig)
}

#[test]
fn layout_v4_extensible_array_chunk_index() {
    // Index block, data blocks, and a super block (chunks past 244).
    for sig in [b"EAHD", b"EAIB", b"EADB", b"EASB"] {
        assert!(holds("idx_earray.h5", sig));
    }
    assert_eq!(check_file("idx_earray.h5"), 5);
}

#[test]
fn layout_v4_v2_btree_chunk_index() {
    // Unfiltered (type 10) and filtered (11) records; a tree of depth 1.
    assert!(holds("idx_btree2.h5", b"BTIN"));
    assert_eq!(check_file("idx_btree2.h5"), 3);
}

#[test]
fn layout_v4_fixed_array_implicit_and_paged() {
    assert_eq!(check_file("idx_fixed.h5"), 4);
    assert!(holds("idx_paged.h5", b"FADB"));
    assert_eq!(check_file("idx_paged.h5"), 1);
}
