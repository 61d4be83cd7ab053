//! `.safetensors` against the Python `safetensors` package: its files (every
//! dtype with a TF equivalent, written by scripts/gen_formats.py) load
//! exactly, in file order, without copies when aligned; what we save the
//! crate and the fixtures agree on.
#![cfg(feature = "safetensors")]

use std::path::{Path, PathBuf};

use bytes::Bytes;
use serde_json::Value;
use tftensor::safetensors::{load, load_bytes, load_mmap, save};
use tftensor::{DataType, Error, ErrorKind, Tensor};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/safetensors")
}

fn expected() -> Value {
    serde_json::from_str(&std::fs::read_to_string(data_dir().join("expected.json")).unwrap())
        .unwrap()
}

fn check(name: &str, t: &Tensor, e: &Value) {
    assert_eq!(t.dtype().name(), e["dtype"].as_str().unwrap(), "{name}");
    let shape: Vec<i64> = e["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_i64().unwrap())
        .collect();
    assert_eq!(t.shape().dim_sizes(), shape, "{name}");
    assert_eq!(
        hex::encode(t.tensor_data().unwrap()),
        e["hex"].as_str().unwrap(),
        "{name}"
    );
}

#[test]
fn every_mapped_dtype_loads_exactly_in_file_order() {
    let exp = expected();
    let all = &exp["all_dtypes"];
    let order: Vec<&str> = all["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let path = data_dir().join("all_dtypes.safetensors");
    let bytes = Bytes::from(std::fs::read(&path).unwrap());
    // SAFETY: the fixture is not written while the tests run.
    let mapped = unsafe { load_mmap(&path) }.unwrap();
    for loaded in [
        load(&path).unwrap(),
        load_bytes(bytes.clone()).unwrap(),
        mapped,
    ] {
        assert_eq!(
            loaded.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
            order
        );
        for (name, t) in &loaded {
            check(name, t, &all["tensors"][name]);
        }
    }
    // Every safetensors dtype TF has is in the fixture.
    let dtypes: std::collections::HashSet<&str> = all["tensors"]
        .as_object()
        .unwrap()
        .values()
        .map(|e| e["st_dtype"].as_str().unwrap())
        .collect();
    assert_eq!(dtypes.len(), 18);
}

#[test]
fn numpy_front_end_file_with_metadata() {
    let exp = expected();
    let loaded = load(data_dir().join("numpy.safetensors")).unwrap();
    assert_eq!(loaded.len(), 2);
    for (name, t) in &loaded {
        check(name, t, &exp["numpy"][name]);
    }
}

#[test]
fn unmapped_dtype_is_an_error_naming_tensor_and_dtype() {
    let err = load(data_dir().join("f8_e8m0.safetensors")).unwrap_err();
    assert!(matches!(
        err,
        Error::InvalidFormat {
            format: "safetensors",
            ..
        }
    ));
    let msg = err.to_string();
    assert!(msg.contains("'scales'") && msg.contains("F8_E8M0"), "{msg}");
    assert_eq!(err.key(), Some("scales"));
    assert!(msg.contains("f8_e8m0.safetensors"), "{msg}");
}

#[test]
fn aligned_tensors_are_adopted_misaligned_copied() {
    let path = data_dir().join("all_dtypes.safetensors");
    let raw = std::fs::read(&path).unwrap();
    let bytes = Bytes::from(raw.clone());
    let range = bytes.as_ptr_range();
    for (name, t) in load_bytes(bytes.clone()).unwrap() {
        if t.num_elements() > 0 {
            assert!(range.contains(&t.data_ptr().unwrap()), "{name} was copied");
        }
    }
    // Shift the whole file by one byte: multi-byte tensors are no longer
    // element-aligned and are copied (once); single-byte ones still adopted.
    let mut shifted = vec![0u8];
    shifted.extend_from_slice(&raw);
    let shifted = Bytes::from(shifted).slice(1..);
    let srange = shifted.as_ptr_range();
    let base = bytes.as_ptr() as usize;
    let reference = load_bytes(bytes.clone()).unwrap();
    let mut copied = 0;
    for ((name, t), (_, r)) in load_bytes(shifted.clone()).unwrap().iter().zip(&reference) {
        assert_eq!(t.tensor_data().unwrap(), r.tensor_data().unwrap(), "{name}");
        if t.num_elements() > 0 {
            // Where the tensor's bytes sit in the shifted input.
            let at = shifted.as_ptr() as usize + (r.data_ptr().unwrap() as usize - base);
            let adopted = srange.contains(&t.data_ptr().unwrap());
            assert_eq!(adopted, at % tftensor_align(t.dtype()) == 0, "{name}");
            copied += usize::from(!adopted);
        }
    }
    assert!(copied >= 10, "{copied}");
}

/// The element alignment of a dtype's Rust type.
fn tftensor_align(d: DataType) -> usize {
    match d.size() {
        16 => 8,
        8 if d.is_complex() => 4,
        n => n,
    }
}

/// A hand-made file whose F32 tensor sits at an odd offset (the format
/// allows it; the writers never do it).
#[test]
fn hand_made_misaligned_offset_is_copied_once() {
    let header = br#"{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"b":{"dtype":"F32","shape":[2],"data_offsets":[1,9]}}"#;
    let mut file = (header.len() as u64).to_le_bytes().to_vec();
    file.extend_from_slice(header);
    file.push(7);
    file.extend_from_slice(&1.5f32.to_le_bytes());
    file.extend_from_slice(&(-2.0f32).to_le_bytes());
    let loaded = load_bytes(Bytes::from(file)).unwrap();
    assert_eq!(loaded[0].1.as_slice::<u8>().unwrap(), &[7]);
    assert_eq!(loaded[1].1.as_slice::<f32>().unwrap(), &[1.5, -2.0]);
}

#[test]
fn save_round_trips_and_matches_the_fixture_bytes() {
    let dir = tempfile::Builder::new()
        .prefix("tftensor-st-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    let src = data_dir().join("all_dtypes.safetensors");
    let loaded = load(&src).unwrap();
    let out = dir.join("again.safetensors");
    save(&out, loaded.iter().map(|(n, t)| (n.as_str(), t))).unwrap();
    // Both writers are the same Rust code: byte-identical.
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&src).unwrap());
    assert_eq!(load(&out).unwrap(), loaded);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn save_refuses_what_safetensors_cannot_hold() {
    let dir = tempfile::Builder::new()
        .prefix("tftensor-st-bad-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("x.safetensors");
    for dt in [
        DataType::String,
        DataType::Complex128,
        DataType::Int4,
        DataType::QInt8,
        DataType::Float8E4M3B11FNUZ,
        DataType::Resource,
    ] {
        let t = Tensor::new(dt, [2]).unwrap();
        let err = save(&p, [("bad", &t)]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnsupportedDataType, "{dt}: {err}");
        assert_eq!(err.path(), Some(&*p.display().to_string()), "{err}");
        assert!(err.to_string().contains(&*dt.name()), "{err}");
        assert_eq!(err.key(), Some("bad"), "{err}");
    }
    let t = Tensor::from(1.0f32);
    let err = save(&p, [("a", &t), ("a", &t)]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument, "{err}");
    assert!(!p.exists());
    std::fs::remove_dir_all(dir).ok();
}

/// Files of 4 MiB and more are read into an anonymous (huge-page advised)
/// map: same tensors, adopted from it.
#[test]
fn large_file_load() {
    let dir = tempfile::Builder::new()
        .prefix("tftensor-st-large-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("large.safetensors");
    let a = Tensor::from_vec([1 << 20], (0..1 << 20).map(|i| i as f32).collect()).unwrap();
    let b = Tensor::from_vec([3], vec![1u8, 2, 3]).unwrap();
    save(&p, [("a", &a), ("b", &b)]).unwrap();
    let loaded = load(&p).unwrap();
    assert_eq!(loaded, vec![("a".to_string(), a), ("b".to_string(), b)]);
    assert_eq!(
        loaded[0].1.allocation_description().unwrap().allocator_name,
        "external"
    );
    std::fs::remove_dir_all(dir).ok();
}
