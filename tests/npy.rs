//! `.npy` and `.npz` against NumPy: the fixtures of scripts/gen_formats.py
//! (written by np.save, np.savez, np.savez_compressed, ml_dtypes) read back
//! exactly, what we write is byte-identical to np.save's output, and every
//! dtype round-trips.
#![cfg(feature = "npy")]

use std::path::{Path, PathBuf};

use bytes::Bytes;
use serde_json::Value;
use tftensor::npy::{
    NpzReader, NpzWriter, read_npy, read_npy_as, read_npy_bytes, read_npy_bytes_as, read_npy_mmap,
    read_npy_mmap_as, to_npy_bytes, write_npy, write_npy_to,
};
use tftensor::{DataType, Error, Tensor};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/npy")
}

fn tmp_dir(tag: &str) -> PathBuf {
    let d = tempfile::Builder::new()
        .prefix(&format!("tftensor-npy-{tag}-"))
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn expected() -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(data_dir().join("expected.json")).unwrap();
    serde_json::from_str::<Value>(&text)
        .unwrap()
        .as_object()
        .unwrap()
        .clone()
}

/// Checks `t` against one expected.json entry.
fn check(name: &str, t: &Tensor, e: &Value) {
    assert_eq!(t.dtype().name(), e["dtype"].as_str().unwrap(), "{name}");
    let shape: Vec<i64> = e["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_i64().unwrap())
        .collect();
    assert_eq!(t.shape().dim_sizes(), shape, "{name}");
    if let Some(hex) = e.get("hex") {
        assert_eq!(
            hex::encode(t.tensor_data().unwrap()),
            hex.as_str().unwrap(),
            "{name}"
        );
    } else {
        let want: Vec<Vec<u8>> = e["strings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| hex::decode(s.as_str().unwrap()).unwrap())
            .collect();
        let got: Vec<Vec<u8>> = t
            .as_slice::<Bytes>()
            .unwrap()
            .iter()
            .map(|b| b.to_vec())
            .collect();
        assert_eq!(got, want, "{name}");
    }
}

fn dtype_of(e: &Value, key: &str) -> Option<DataType> {
    e.get(key).map(|d| d.as_str().unwrap().parse().unwrap())
}

#[test]
fn every_numpy_fixture_reads_exactly_by_every_path() {
    let exp = expected();
    assert!(exp.len() >= 49, "{} fixtures", exp.len());
    let mut checked = 0;
    for (name, e) in &exp {
        let path = data_dir().join(name);
        let as_dtype = dtype_of(e, "read_as");
        let file_bytes = Bytes::from(std::fs::read(&path).unwrap());
        let from_file = match as_dtype {
            Some(dt) => read_npy_as(&path, dt),
            None => read_npy(&path),
        };
        let from_bytes = match as_dtype {
            Some(dt) => read_npy_bytes_as(file_bytes.clone(), dt),
            None => read_npy_bytes(file_bytes.clone()),
        };
        // SAFETY: the fixtures are not written while the tests run.
        let from_mmap = unsafe {
            match as_dtype {
                Some(dt) => read_npy_mmap_as(&path, dt),
                None => read_npy_mmap(&path),
            }
        };
        if let Some(msg) = e.get("error") {
            let msg = msg.as_str().unwrap();
            for r in [from_file, from_bytes, from_mmap] {
                let err = r.unwrap_err();
                assert!(
                    matches!(err, Error::InvalidFormat { format: "npy", .. }),
                    "{name}: {err:?}"
                );
                assert!(err.to_string().contains(msg), "{name}: {err}");
                assert!(err.to_string().contains(name) || err.to_string().contains("<npy bytes>"));
            }
            continue;
        }
        let t = from_file.unwrap_or_else(|err| panic!("{name}: {err}"));
        check(name, &t, e);
        check(name, &from_bytes.unwrap(), e);
        check(name, &from_mmap.unwrap(), e);
        if e.get("np_save_identical").is_some() {
            assert_eq!(
                to_npy_bytes(&t).unwrap(),
                &file_bytes[..],
                "{name}: our bytes differ from np.save's"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, exp.len() - 3);
}

#[test]
fn ml_dtypes_arrays_need_the_dtype() {
    for (name, e) in expected() {
        let Some(tf) = dtype_of(&e, "read_as") else {
            continue;
        };
        let path = data_dir().join(&name);
        let err = read_npy(&path).unwrap_err();
        let descr = e["descr"].as_str().unwrap();
        // A kind of its own, so each front names its own option.
        assert!(
            matches!(&err, tftensor::Error::OpaqueDtype { descr: d, .. } if d == descr),
            "{err:?}"
        );
        let err = err.to_string();
        assert!(err.contains(&format!("'{descr}' is an opaque")), "{err}");
        assert!(err.ends_with("say which dtype it holds"), "{err}");
        // A dtype of another size is refused, naming both.
        let other = if tf.size() == 1 {
            DataType::Half
        } else {
            DataType::UInt8
        };
        let err = read_npy_as(&path, other).unwrap_err().to_string();
        assert!(err.contains("cannot hold"), "{err}");
    }
}

#[test]
fn as_forms_read_quantized_and_refuse_other_types() {
    let t = read_npy_as(data_dir().join("int8.npy"), DataType::QInt8).unwrap();
    assert_eq!(t.dtype(), DataType::QInt8);
    assert_eq!(
        t.tensor_data().unwrap(),
        read_npy(data_dir().join("int8.npy"))
            .unwrap()
            .tensor_data()
            .unwrap()
    );
    let t = read_npy_as(data_dir().join("be_int32.npy"), DataType::QInt32).unwrap();
    assert_eq!(
        t.tensor_data().unwrap(),
        read_npy(data_dir().join("int32.npy"))
            .unwrap()
            .tensor_data()
            .unwrap()
    );
    assert!(read_npy_as(data_dir().join("float32.npy"), DataType::Float).is_ok());
    let err = read_npy_as(data_dir().join("float32.npy"), DataType::Int32).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: npy: the file holds '<f4', which cannot be read as int32",
            data_dir().join("float32.npy").display()
        )
    );
    // The path is a field, not only text.
    assert_eq!(
        err.path(),
        Some(
            data_dir()
                .join("float32.npy")
                .display()
                .to_string()
                .as_str()
        )
    );
    assert!(read_npy_as(data_dir().join("S.npy"), DataType::String).is_ok());
}

#[test]
fn zero_copy_from_bytes_and_mmap() {
    let t = Tensor::from_vec([64, 3], (0..192).map(|i| i as f32).collect()).unwrap();
    let bytes = Bytes::from(to_npy_bytes(&t).unwrap());
    let back = read_npy_bytes(bytes.clone()).unwrap();
    assert_eq!(back, t);
    // The tensor points into `bytes`, right after the 128-byte header.
    assert_eq!(back.data_ptr(), Some(bytes[128..].as_ptr()));
    // Misaligned by one byte: copied once, still correct.
    let mut shifted = vec![0u8];
    shifted.extend_from_slice(&bytes);
    let shifted = Bytes::from(shifted).slice(1..);
    let copied = read_npy_bytes(shifted.clone()).unwrap();
    assert_eq!(copied, t);
    assert_ne!(copied.data_ptr(), Some(shifted[128..].as_ptr()));

    let dir = tmp_dir("mmap");
    let path = dir.join("m.npy");
    write_npy(&path, &t).unwrap();
    // SAFETY: the file is not written while the tensor lives.
    let mapped = unsafe { read_npy_mmap(&path) }.unwrap();
    assert_eq!(mapped, t);
    assert!(mapped.is_aligned());
    assert_eq!(
        mapped.allocation_description().unwrap().allocator_name,
        "external"
    );
    drop(mapped);
    // Big-endian and Fortran-order data cannot be adopted: converted copies.
    let be = read_npy_bytes(Bytes::from(
        std::fs::read(data_dir().join("be_float32.npy")).unwrap(),
    ))
    .unwrap();
    assert_eq!(be, read_npy(data_dir().join("float32.npy")).unwrap());
    std::fs::remove_dir_all(dir).ok();
}

/// A tensor of `dtype` with distinct, valid elements.
fn sample(dtype: DataType, shape: &[i64]) -> Tensor {
    let n: i64 = shape.iter().product();
    if dtype == DataType::String {
        let v: Vec<Bytes> = (0..n)
            .map(|i| Bytes::from(format!("s{}\0x{}", i, "é".repeat(i as usize % 3))))
            .collect();
        return Tensor::from_vec(shape, v).unwrap();
    }
    let size = dtype.size();
    let bytes: Vec<u8> = (0..n as usize * size)
        .map(|i| match dtype {
            DataType::Bool => (i % 2) as u8,
            DataType::Int4 | DataType::UInt4 => (i % 7) as u8,
            _ => (i * 37 % 251) as u8,
        })
        .collect();
    Tensor::from_buffer(dtype, shape, Bytes::from(bytes)).unwrap()
}

#[test]
fn every_dtype_round_trips() {
    let dir = tmp_dir("roundtrip");
    for &dt in DataType::all() {
        if dt == DataType::Resource || dt == DataType::Variant {
            let t = Tensor::new(dt, [1]).unwrap();
            let err = write_npy(dir.join("x.npy"), &t).unwrap_err();
            assert!(
                matches!(err, Error::UnsupportedDataType { .. }),
                "{dt}: {err}"
            );
            continue;
        }
        for shape in [&[][..], &[0][..], &[3][..], &[2, 3, 2][..]] {
            let t = sample(dt, shape);
            let path = dir.join(format!("{}.npy", dt.name()));
            write_npy(&path, &t).unwrap();
            let plain = read_npy(&path);
            let back = match plain {
                Ok(b) => b,
                // ml_dtypes layouts need the dtype.
                Err(_) => read_npy_as(&path, dt).unwrap(),
            };
            if dt.is_quantized() {
                // Written as their integers; read back as such or `_as`.
                assert_eq!(back.tensor_data().unwrap(), t.tensor_data().unwrap());
                assert_eq!(read_npy_as(&path, dt).unwrap(), t);
            } else {
                assert_eq!(back, t, "{dt} {shape:?}");
            }
            let mut buf = Vec::new();
            write_npy_to(&mut buf, &t).unwrap();
            assert_eq!(buf, std::fs::read(&path).unwrap());
            if dt != DataType::String {
                // The header pads the data to a 64-byte boundary.
                assert_eq!((buf.len() - t.tensor_data().unwrap().len()) % 64, 0, "{dt}");
            }
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn strings_with_trailing_nul_are_refused_on_write() {
    let t = Tensor::from_vec([2], vec![Bytes::from("ok"), Bytes::from_static(b"bad\0")]).unwrap();
    let err = to_npy_bytes(&t).unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(_)));
    assert!(
        err.to_string().contains("element 1 ends with a NUL"),
        "{err}"
    );
}

fn npz_expected() -> Value {
    let text = std::fs::read_to_string(data_dir().join("npz_expected.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn npz_fixtures_stored_and_deflated() {
    let exp = npz_expected();
    let order: Vec<&str> = exp["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for file in ["arrays.npz", "arrays_compressed.npz"] {
        let path = data_dir().join(file);
        let mut readers = [NpzReader::open(&path).unwrap()];
        let mut from_bytes =
            NpzReader::from_bytes(Bytes::from(std::fs::read(&path).unwrap())).unwrap();
        for r in readers.iter_mut() {
            assert_eq!(r.names().collect::<Vec<_>>(), order, "{file}");
            assert_eq!(r.len(), order.len());
        }
        assert_eq!(from_bytes.names().collect::<Vec<_>>(), order);
        for (name, e) in exp["arrays"].as_object().unwrap() {
            let as_dtype = dtype_of(e, "read_as");
            for r in readers.iter_mut() {
                let t = match as_dtype {
                    Some(dt) => {
                        assert!(r.get(name).is_err());
                        r.get_as(name, dt).unwrap()
                    }
                    None => r.get(name).unwrap(),
                };
                check(name, &t, e);
                // The member name works too.
                if as_dtype.is_none() {
                    assert_eq!(r.get(&format!("{name}.npy")).unwrap(), t);
                }
            }
            let t = match as_dtype {
                Some(dt) => from_bytes.get_as(name, dt).unwrap(),
                None => from_bytes.get(name).unwrap(),
            };
            check(name, &t, e);
        }
        let err = readers[0].get("nope").unwrap_err();
        assert!(matches!(err, Error::NotFound { .. }), "{err}");
        assert!(err.to_string().contains("nope") && err.to_string().contains(file));
    }
}

#[test]
fn npz_writer_round_trips_and_stored_members_are_zero_copy() {
    let dir = tmp_dir("npz");
    let tensors: Vec<(String, Tensor)> = DataType::all()
        .iter()
        .filter(|d| **d != DataType::Resource && **d != DataType::Variant)
        .map(|&d| (format!("t_{}", d.name()), sample(d, &[3, 2])))
        .collect();
    for compressed in [false, true] {
        let path = dir.join(format!("w{compressed}.npz"));
        let mut w = if compressed {
            NpzWriter::create_compressed(&path).unwrap()
        } else {
            NpzWriter::create(&path).unwrap()
        };
        for (n, t) in &tensors {
            w.add(n, t).unwrap();
        }
        assert!(w.add("t_float", &tensors[0].1).is_err());
        w.finish().unwrap();
        let mut r = NpzReader::open(&path).unwrap();
        assert_eq!(
            r.names().collect::<Vec<_>>(),
            tensors.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>()
        );
        for (n, t) in &tensors {
            let back = r.get_as(n, t.dtype()).unwrap();
            assert_eq!(&back, t, "{n} compressed={compressed}");
        }
        let bytes = Bytes::from(std::fs::read(&path).unwrap());
        let mut rb = NpzReader::from_bytes(bytes.clone()).unwrap();
        let f = rb.get("t_double").unwrap();
        let inside = bytes.as_ptr_range().contains(&f.data_ptr().unwrap());
        assert_eq!(
            inside, !compressed,
            "stored members are adopted, deflated inflated"
        );
        if !compressed {
            // with_alignment(64) + the 64-byte npy header: 64-byte aligned
            // relative to the archive start.
            assert_eq!(
                (f.data_ptr().unwrap() as usize - bytes.as_ptr() as usize) % 64,
                0
            );
        }
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Data of 4 MiB and more is read into an anonymous (huge-page advised)
/// map instead of a `Vec`: same values, page-aligned, copy-on-write.
#[test]
fn large_files_read_through_an_anonymous_map() {
    let dir = tmp_dir("large");
    let path = dir.join("large.npy");
    let n = (5 << 20) / 4;
    let t = Tensor::from_vec([n as i64 / 4, 4], (0..n).map(|i| i as f32).collect()).unwrap();
    write_npy(&path, &t).unwrap();
    let mut back = read_npy(&path).unwrap();
    assert_eq!(back, t);
    assert!(back.is_aligned());
    back.as_mut_slice::<f32>().unwrap()[0] = -1.0;
    assert_eq!(back.as_slice::<f32>().unwrap()[..2], [-1.0, 1.0]);
    // Big-endian and bool data of that size take the same road.
    let b = Tensor::from_vec([n as i64], (0..n).map(|i| i % 3 == 0).collect()).unwrap();
    write_npy(&path, &b).unwrap();
    assert_eq!(read_npy(&path).unwrap(), b);
    // A truncated large file is refused before anything is mapped.
    let full = std::fs::read(&path).unwrap();
    std::fs::write(&path, &full[..full.len() - 1]).unwrap();
    assert!(matches!(
        read_npy(&path).unwrap_err(),
        Error::DataLoss { .. }
    ));
    std::fs::remove_dir_all(dir).ok();
}

/// A large stored member of an `.npz` opened by path is read at its offset
/// on two cores, its CRC-32 combined from pieces: the same tensor as
/// through the zip reader, and a damaged byte gives the zip reader's error.
#[test]
fn a_large_stored_member_read_at_its_offset_matches_the_zip_reader() {
    use std::io::BufReader;
    let dir = tmp_dir("npz-large-stored");
    let p = dir.join("w.npz");
    let big: Vec<f32> = (0..(5 << 20) + 3).map(|i| i as f32 * 0.5).collect();
    let big = Tensor::from_vec([big.len() as i64], big).unwrap();
    let small = Tensor::from_vec([3], vec![1i64, 2, 3]).unwrap();
    let mut w = NpzWriter::new(std::fs::File::create(&p).unwrap(), false);
    w.add("small", &small).unwrap();
    w.add("big", &big).unwrap();
    w.finish_into().unwrap();
    let what = p.display().to_string();
    let through_zip = |k: &str| {
        let f = BufReader::new(std::fs::File::open(&p).unwrap());
        NpzReader::new(f, &what).unwrap().get(k)
    };
    let mut r = NpzReader::open(&p).unwrap();
    assert_eq!(r.get("big").unwrap(), big);
    assert_eq!(r.get("small").unwrap(), small);
    assert_eq!(through_zip("big").unwrap(), big);
    // One byte of the big array's data flipped.
    let mut bytes = std::fs::read(&p).unwrap();
    let at = bytes.len() - 1_000_000;
    bytes[at] ^= 0x20;
    std::fs::write(&p, &bytes).unwrap();
    let ours = NpzReader::open(&p).unwrap().get("big").unwrap_err();
    let zips = through_zip("big").unwrap_err();
    assert_eq!(ours.to_string(), zips.to_string());
    assert!(
        ours.to_string().to_lowercase().contains("checksum"),
        "{ours}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
