//! TFLite, MediaPipe `.task` and TF.js against their real producers and
//! readers (scripts/gen_tflite.py, scripts/gen_tfjs.py): every stored
//! tensor's bytes equal the interpreter's `get_tensor`, its details equal
//! `get_tensor_details()` field by field, TF.js values equal
//! `tensorflowjs.read_weights`; and hostile input (every truncation and
//! byte flip of every fixture, offsets past the end, tensorflow#115308's
//! 8-byte file) is an error, never a panic.
#![cfg(feature = "tflite")]

use crate::common;
use crate::sha256;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;
use tftensor::io::{self, Blob, BytesBlob, Checksum, TensorSource};
use tftensor::tflite::TfliteFile;
use tftensor::{DataType, Error, ErrorKind, Tensor};

fn dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(sub)
}

fn json(p: PathBuf) -> Value {
    serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

fn models() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir("tflite"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tflite"))
        .collect();
    out.sort();
    out
}

/// The bytes as the interpreter gives them: one value per byte for the
/// packed types, as ours are.
fn bytes_of(t: &Tensor) -> Vec<u8> {
    t.tensor_data().unwrap().to_vec()
}

/// A real tensor's values as f64.
fn reals(t: &Tensor) -> Vec<f64> {
    struct V;
    impl tftensor::stats::RealVisitor for V {
        type Output = Vec<f64>;
        fn visit<T: tftensor::stats::Real>(self, values: &[T]) -> Vec<f64> {
            values.iter().map(|v| v.to_f64()).collect()
        }
    }
    t.visit_real(V).unwrap().unwrap()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_i64().unwrap())
        .collect()
}

/// The numpy dtype name the interpreter reports for ours.
fn numpy_name(dt: DataType) -> &'static str {
    match dt {
        DataType::Float => "float32",
        DataType::Half => "float16",
        DataType::Double => "float64",
        DataType::Int4 | DataType::Int2 | DataType::Int8 => "int8",
        DataType::UInt4 | DataType::UInt8 => "uint8",
        DataType::Int16 => "int16",
        DataType::Int32 => "int32",
        DataType::Int64 => "int64",
        DataType::Bool => "bool",
        DataType::String => "bytes",
        other => panic!("no numpy name for {other}"),
    }
}

#[test]
fn every_stored_tensor_equals_the_interpreters() {
    let mut checked = 0;
    for name in models() {
        let exp = json(dir("tflite").join(name.replace(".tflite", ".json")));
        let f = TfliteFile::open(dir("tflite").join(&name)).unwrap();
        let recs = exp["tensors"].as_array().unwrap();
        assert_eq!(f.tensors().len(), recs.len(), "{name}: stored tensors");
        for rec in recs {
            let (g, i) = (
                rec["subgraph"].as_u64().unwrap() as usize,
                rec["index"].as_u64().unwrap() as usize,
            );
            let k = f
                .tensors()
                .iter()
                .position(|t| t.subgraph == g && t.index == i)
                .unwrap_or_else(|| panic!("{name}: tensor {g}/{i} not listed"));
            let te = &f.tensors()[k];
            let what = format!("{name}: {}", te.entry.name);
            let base = te
                .entry
                .name
                .rsplit_once('/')
                .filter(|_| g > 0)
                .map_or(te.entry.name.as_str(), |(_, n)| n);
            assert_eq!(base, rec["name"].as_str().unwrap(), "{what}");
            assert_eq!(
                numpy_name(te.entry.dtype),
                rec["dtype"].as_str().unwrap(),
                "{what}"
            );
            assert_eq!(te.entry.shape.dim_sizes(), ints(&rec["shape"]), "{what}");
            let sig = te
                .shape_signature
                .clone()
                .unwrap_or_else(|| te.entry.shape.dim_sizes());
            assert_eq!(sig, ints(&rec["shape_signature"]), "{what}");
            // quantization_parameters, field by field.
            let qp = &rec["quantization_parameters"];
            let scales: Vec<f64> = qp["scales"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            match &te.entry.quantization {
                None => assert!(scales.is_empty(), "{what}: {qp}"),
                Some(q) => match &q.blockwise {
                    // LiteRT reports a blockwise tensor's block scales.
                    Some(b) => {
                        let s = f
                            .tensors()
                            .iter()
                            .position(|t| t.entry.name == b.scales)
                            .unwrap();
                        let got: Vec<f32> = reals(&f.read(s).unwrap())
                            .iter()
                            .map(|&x| x as f32)
                            .collect();
                        let want: Vec<f32> = scales.iter().map(|&x| x as f32).collect();
                        assert_eq!(got, want, "{what}: block scales");
                    }
                    None => {
                        // As float32: serde_json's float parsing may be 1 ulp off in f64.
                        let f32s = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<_>>();
                        assert_eq!(f32s(&q.scale), f32s(&scales), "{what}: scales");
                        let zp = ints(&qp["zero_points"]);
                        assert!(
                            q.zero_point == zp
                                || (zp.is_empty() && q.zero_point.iter().all(|&z| z == 0)),
                            "{what}: {:?} vs {zp:?}",
                            q.zero_point
                        );
                        assert_eq!(
                            q.quantized_dimension as i64,
                            qp["quantized_dimension"].as_i64().unwrap(),
                            "{what}"
                        );
                    }
                },
            }
            // The bytes.
            let t = f.read(k).unwrap();
            assert_eq!(
                (t.dtype(), t.shape()),
                (te.entry.dtype, &te.entry.shape),
                "{what}"
            );
            if let Some(strings) = rec["strings_hex"].as_array() {
                let got: Vec<String> = t
                    .as_slice::<tftensor::bytes::Bytes>()
                    .unwrap()
                    .iter()
                    .map(hex::encode)
                    .collect();
                let want: Vec<String> = strings
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect();
                assert_eq!(got, want, "{what}");
            } else {
                let b = bytes_of(&t);
                assert_eq!(b.len() as u64, rec["nbytes"].as_u64().unwrap(), "{what}");
                assert_eq!(
                    u64::from(Checksum::Crc32.of(&b)),
                    rec["crc32"].as_u64().unwrap(),
                    "{what}"
                );
                assert_eq!(
                    sha256::sha256_hex(&b),
                    rec["sha256"].as_str().unwrap(),
                    "{what}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn the_formats_are_detected_and_read_through_io() {
    // An external buffer's file is opened through the store, beside the model.
    let mut ext = io::open(dir("tflite").join("external.tflite")).unwrap();
    let mut inline = io::open(dir("tflite").join("float32.tflite")).unwrap();
    for (i, e) in ext.entries().to_vec().iter().enumerate() {
        assert_eq!(
            ext.read(i).unwrap(),
            inline.read_named(&e.name).unwrap(),
            "{}",
            e.name
        );
    }
    let at = io::detect(dir("tflite").join("int8.tflite")).unwrap();
    assert_eq!(at.format, io::Format::TFLITE);
    assert_eq!(
        io::detect(dir("tflite").join("bundle.task"))
            .unwrap()
            .format,
        io::Format::TASK
    );
    assert_eq!(
        io::detect(dir("tfjs/plain/model.json")).unwrap().format,
        io::Format::TFJS
    );
    // The offset-mode model reads the same values as the inline one.
    let mut inline = io::open(dir("tflite").join("float32.tflite")).unwrap();
    let mut offset = io::open(dir("tflite").join("offset.tflite")).unwrap();
    for (i, e) in inline.entries().to_vec().iter().enumerate() {
        assert_eq!(
            inline.read(i).unwrap(),
            offset.read_named(&e.name).unwrap(),
            "{}",
            e.name
        );
    }
    // Mapped, the same.
    // SAFETY: nothing writes the fixtures.
    let opts = unsafe { io::OpenOptions::default().with_mmap() };
    let mut mapped = io::open_with(dir("tflite").join("offset.tflite"), &opts).unwrap();
    assert_eq!(mapped.read(0).unwrap(), offset.read(0).unwrap());
}

#[test]
fn a_task_reads_its_members_in_place() {
    let mut task = io::open(dir("tflite").join("bundle.task")).unwrap();
    let names: Vec<String> = task.entries().iter().map(|e| e.name.clone()).collect();
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("detector.tflite/") || n.starts_with("classifier.tflite/")),
        "{names:?}"
    );
    let mut det = io::open(dir("tflite").join("float32.tflite")).unwrap();
    let mut cls = io::open(dir("tflite").join("int8.tflite")).unwrap();
    for (i, n) in names.iter().enumerate() {
        let (member, tensor) = n.split_once('/').unwrap();
        let src: &mut dyn TensorSource = if member == "detector.tflite" {
            det.as_mut()
        } else {
            cls.as_mut()
        };
        assert_eq!(
            task.read(i).unwrap(),
            src.read_named(tensor).unwrap(),
            "{n}"
        );
        assert_eq!(
            task.entries()[i].quantization,
            src.entries()
                .iter()
                .find(|e| e.name == tensor)
                .unwrap()
                .quantization
        );
    }
}

#[test]
fn several_signatures_name_their_subgraphs() {
    let src = io::open(dir("tflite").join("signatures.tflite")).unwrap();
    let text = src.signatures().unwrap().unwrap();
    assert!(text.contains("signature_def['encode']"), "{text}");
    assert!(text.contains("signature_def['serve']"), "{text}");
    assert!(text.contains("'FULLY_CONNECTED'"), "{text}");
    // Subgraph 1's tensors carry its name.
    let f = TfliteFile::open(dir("tflite").join("signatures.tflite")).unwrap();
    for t in f.tensors().iter().filter(|t| t.subgraph > 0) {
        let sub = &f.model().subgraphs[t.subgraph].name;
        assert!(
            t.entry.name.starts_with(&format!("{sub}/")),
            "{}",
            t.entry.name
        );
    }
}

#[test]
fn dequantize_per_axis_and_blockwise() {
    // Per axis (full-integer int8): (q - zp) * scale along axis 0.
    let mut src = io::open(dir("tflite").join("int8.tflite")).unwrap();
    let i = src
        .entries()
        .iter()
        .position(|e| e.dtype == DataType::Int8)
        .unwrap();
    let e = src.entries()[i].clone();
    let q = e.quantization.clone().unwrap();
    let raw = src.read(i).unwrap();
    let real = tftensor::tflite::dequantize(&e, &raw).unwrap();
    let (r, v) = (
        raw.as_slice::<i8>().unwrap(),
        real.as_slice::<f32>().unwrap(),
    );
    let cols = e.shape.dim_size(1).unwrap() as usize;
    for (k, (&q8, &x)) in r.iter().zip(v).enumerate() {
        let c = k / cols;
        let zp = q.zero_point.get(c).copied().unwrap_or(0);
        assert_eq!(x, ((f64::from(q8) - zp as f64) * q.scale[c]) as f32);
    }
    assert_eq!(io::dequantize(src.as_mut(), i).unwrap(), real);
    // Blockwise int4: needs its scale tensor, which io::dequantize reads.
    let mut src = io::open(dir("tflite").join("int4_blockwise.tflite")).unwrap();
    let i = src
        .entries()
        .iter()
        .position(|e| e.dtype == DataType::Int4)
        .unwrap();
    let e = src.entries()[i].clone();
    let b = e.quantization.as_ref().unwrap().blockwise.clone().unwrap();
    assert_eq!(b.block_size, 32);
    let err = tftensor::tflite::dequantize(&e, &src.read(i).unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    let real = io::dequantize(src.as_mut(), i).unwrap();
    let s = reals(&src.read_named(&b.scales).unwrap());
    let r = reals(&src.read(i).unwrap());
    let v = real.as_slice::<f32>().unwrap();
    for k in 0..v.len() {
        assert_eq!(v[k], (r[k] * s[k / 32]) as f32, "{k}");
    }
}

#[test]
fn tfjs_values_equal_read_weights() {
    for sub in ["plain", "quantized", "graph"] {
        let exp = json(dir("tfjs").join(sub).join("expected.json"));
        let mut src = io::open(dir("tfjs").join(sub).join("model.json")).unwrap();
        let mut all: Vec<&Value> = exp["weights"].as_array().unwrap().iter().collect();
        if let Some(c) = exp["graph_consts"].as_array() {
            all.extend(c);
        }
        assert_eq!(src.entries().len(), all.len(), "{sub}");
        for w in all {
            let name = w["name"].as_str().unwrap();
            let i = src
                .entries()
                .iter()
                .position(|e| e.name == name)
                .unwrap_or_else(|| panic!("{sub}: {name}"));
            // read_weights gives real values: dequantized where quantized.
            let t = io::dequantize(src.as_mut(), i).unwrap();
            assert_eq!(t.shape().dim_sizes(), ints(&w["shape"]), "{sub}/{name}");
            if let Some(strings) = w["strings_hex"].as_array() {
                let got: Vec<String> = t
                    .as_slice::<tftensor::bytes::Bytes>()
                    .unwrap()
                    .iter()
                    .map(hex::encode)
                    .collect();
                let want: Vec<String> = strings
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect();
                assert_eq!(got, want, "{sub}/{name}");
            } else {
                let np = match t.dtype() {
                    DataType::Float => "float32",
                    DataType::Int32 => "int32",
                    DataType::Bool => "bool",
                    DataType::Complex64 => "complex64",
                    other => panic!("{other}"),
                };
                assert_eq!(np, w["dtype"].as_str().unwrap(), "{sub}/{name}");
                assert_eq!(
                    hex::encode(t.tensor_data().unwrap()),
                    w["hex"].as_str().unwrap(),
                    "{sub}/{name}"
                );
            }
        }
    }
}

#[test]
fn convert_dequantize_and_sidecars() {
    let tmp = tempfile::tempdir().unwrap();
    // Raw, with sidecars.
    let out = tmp.path().join("raw.safetensors");
    let mut src = io::open(dir("tflite").join("int8.tflite")).unwrap();
    io::copy(
        src.as_mut(),
        io::create(&out).unwrap(),
        io::CopyOptions::default(),
    )
    .unwrap();
    let back = io::open(&out).unwrap();
    let names: Vec<&str> = back.entries().iter().map(|e| e.name.as_str()).collect();
    assert!(
        names.contains(&"MatMul.scale") && names.contains(&"MatMul.zero_point"),
        "{names:?}"
    );
    // Dequantized: float32, no sidecars.
    let out = tmp.path().join("real.npz");
    io::copy(
        src.as_mut(),
        io::create(&out).unwrap(),
        io::CopyOptions::default().dequantize(true),
    )
    .unwrap();
    let back = io::open(&out).unwrap();
    assert!(back.entries().iter().all(|e| !e.name.ends_with(".scale")));
    let m = back.entries().iter().find(|e| e.name == "MatMul").unwrap();
    assert_eq!(m.dtype, DataType::Float);
    // int4 widened to int8 for safetensors, exactly.
    let out = tmp.path().join("w.safetensors");
    let mut src = io::open(dir("tflite").join("int4_blockwise.tflite")).unwrap();
    let mut widened = Vec::new();
    let mut on = |e: &io::CopyEvent<'_>| {
        if let io::CopyEvent::Widened { name, .. } = e {
            widened.push(name.to_string());
        }
    };
    io::copy(
        src.as_mut(),
        io::create(&out).unwrap(),
        io::CopyOptions::default().progress(&mut on),
    )
    .unwrap();
    assert_eq!(widened, ["MatMul"]);
    let mut back = io::open(&out).unwrap();
    let w = back.read_named("MatMul").unwrap();
    let i = src
        .entries()
        .iter()
        .position(|e| e.name == "MatMul")
        .unwrap();
    assert_eq!(w.dtype(), DataType::Int8);
    assert_eq!(reals(&w), reals(&src.read(i).unwrap()));
}

// --- hostile input ---------------------------------------------------------

#[path = "common/unmapped.rs"]
mod unmapped;
use unmapped::Unmapped;

/// Lists and reads every tensor (and the signatures and metadata) of a
/// model in memory: `Ok` or `Err`, never a panic.
fn read_all(bytes: Vec<u8>) -> Result<usize, Error> {
    read_all_checked(bytes, false)
}

/// `read_all`; with `agree`, `TfliteFile::read_all` from an unmapped
/// copy (one read of the payloads' span) must agree with the reads one
/// by one: the same tensors, or an error of the same kind.
fn read_all_checked(bytes: Vec<u8>, agree: bool) -> Result<usize, Error> {
    let unmapped = agree.then(|| Arc::new(Unmapped(BytesBlob::new("m.tflite", bytes.clone()))));
    let blob: Arc<dyn Blob> = Arc::new(BytesBlob::new("m.tflite", bytes));
    let f = tftensor::tflite::TfliteFile::from_blob(blob)?;
    let one_by_one: Result<Vec<Tensor>, Error> =
        (0..f.tensors().len()).map(|i| f.read(i)).collect();
    if let Some(unmapped) = unmapped {
        let all = tftensor::tflite::TfliteFile::from_blob(unmapped)?.read_all();
        match (&one_by_one, &all) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => assert_eq!(a.kind(), b.kind(), "{a} / {b}"),
            (a, b) => panic!("read one by one: {a:?}; read_all: {b:?}"),
        }
    }
    one_by_one?;
    for m in &f.model().metadata {
        f.metadata_bytes(&m.name)?;
    }
    Ok(f.tensors().len())
}

#[test]
fn read_all_reads_the_payload_span_once_and_equals_each_read() {
    for name in models() {
        let path = dir("tflite").join(&name);
        let f = TfliteFile::open(&path).unwrap();
        let one_by_one: Vec<Tensor> = (0..f.tensors().len()).map(|i| f.read(i).unwrap()).collect();
        let all = f.read_all().unwrap();
        assert_eq!(all, one_by_one, "{name}");
        // Through io, with each tensor checked against its listing.
        let mut src = io::open(&path).unwrap();
        assert_eq!(src.read_all().unwrap(), one_by_one, "{name}");
    }
    // A .task: each member's tensors, in the entries' order.
    let mut src = io::open(dir("tflite").join("bundle.task")).unwrap();
    let one_by_one: Vec<Tensor> = (0..src.entries().len())
        .map(|i| src.read(i).unwrap())
        .collect();
    assert_eq!(src.read_all().unwrap(), one_by_one);
    // The payloads of float32.tflite fill most of its span (bytes 444 to
    // 4688): the tensors share one buffer, each at its file offset's
    // alignment (the [32, 32] weight at 592, 16-aligned; the bias at 444).
    let f = TfliteFile::open(dir("tflite").join("float32.tflite")).unwrap();
    let all = f.read_all().unwrap();
    assert_eq!(all.len(), 2);
    let (w, b) = (all[0].data_ptr().unwrap(), all[1].data_ptr().unwrap());
    assert_eq!(
        w as usize - b as usize,
        592 - 444,
        "slices of the one span read"
    );
    assert_eq!(all[0].total_bytes(), 4096);
    assert_eq!(w as usize % 16, 0);
}

/// Where the last buffer ends: a cut before it must be an error.
fn used_len(bytes: &[u8]) -> u64 {
    let blob: Arc<dyn Blob> = Arc::new(BytesBlob::new("m.tflite", bytes.to_vec()));
    let f = tftensor::tflite::TfliteFile::from_blob(blob).unwrap();
    f.model()
        .buffers
        .iter()
        .filter_map(|b| match b {
            tftensor::tflite::Buffer::At { offset, len } => Some(offset + len),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn every_truncation_and_byte_flip_is_an_error_or_a_read() {
    let mut n = 0;
    // external.tflite needs its sibling file, which a blob in memory has not.
    for name in models().into_iter().filter(|n| n != "external.tflite") {
        let full = std::fs::read(dir("tflite").join(&name)).unwrap();
        // Sampled: about 150 positions a file (every one under
        // TFTENSOR_FULL_SWEEPS=1).
        let stride = common::sweep_stride(1, (full.len() / 150).max(1));
        assert!(read_all(full.clone()).is_ok(), "{name}");
        let used = used_len(&full) as usize;
        // read_all's span read is set against the reads one by one at
        // about 1,500 positions a file, cuts and flips each.
        let agree_every = (full.len() / stride / 1500).max(1) * stride;
        let positions: Vec<usize> = (0..full.len()).step_by(stride).collect();
        // Two threads, every other position each: with every position
        // swept, this is most of the binary's time.
        n += std::thread::scope(|s| {
            let workers: Vec<_> = (0..2)
                .map(|w| {
                    let (full, name, positions) = (&full, &name, &positions);
                    s.spawn(move || {
                        positions
                            .iter()
                            .skip(w)
                            .step_by(2)
                            .map(|&at| {
                                let agree = at % agree_every == 0;
                                cut_at(name, full, at, used, agree) + flip_at(name, full, at, agree)
                            })
                            .sum::<usize>()
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap())
                .sum::<usize>()
        });
    }
    assert!(n > 1000, "{n}");
}

/// The model cut to `cut` bytes is an error (data loss), unless the cut is
/// in the padding after the last buffer; 1 when it was an error.
fn cut_at(name: &str, full: &[u8], cut: usize, used: usize, agree: bool) -> usize {
    let r = std::panic::catch_unwind(|| read_all_checked(full[..cut].to_vec(), agree));
    let r = r.unwrap_or_else(|_| panic!("{name} cut at {cut}: panicked"));
    if cut >= used && r.is_ok() {
        return 0; // padding after the last buffer
    }
    let err = r.expect_err(&format!("{name} cut at {cut} read"));
    assert_eq!(
        err.kind(),
        ErrorKind::DataLoss,
        "{name} cut at {cut}: {err}"
    );
    1
}

/// The model with byte `at` flipped three ways reads or is an error,
/// never a panic; 3.
fn flip_at(name: &str, full: &[u8], at: usize, agree: bool) -> usize {
    for flip in [0x01u8, 0x80, 0xff] {
        let mut bad = full.to_vec();
        bad[at] ^= flip;
        let agree = agree && flip == 0xff;
        let r = std::panic::catch_unwind(|| read_all_checked(bad, agree));
        assert!(r.is_ok(), "{name} byte {at} ^ {flip:#x}: panicked");
    }
    3
}

#[test]
fn an_offset_past_the_end_is_data_loss() {
    // offset.tflite's payloads sit after the flatbuffer: cut the file
    // inside them and each read names the offset.
    let full = std::fs::read(dir("tflite").join("offset.tflite")).unwrap();
    let blob: Arc<dyn Blob> = Arc::new(BytesBlob::new("o.tflite", full.clone()));
    let f = tftensor::tflite::TfliteFile::from_blob(blob).unwrap();
    let first = f
        .model()
        .buffers
        .iter()
        .filter_map(|b| match b {
            tftensor::tflite::Buffer::At { offset, .. } => Some(*offset),
            _ => None,
        })
        .filter(|&o| o > 64)
        .max()
        .unwrap();
    let cut: Arc<dyn Blob> = Arc::new(BytesBlob::new(
        "o.tflite",
        full[..first as usize + 1].to_vec(),
    ));
    let f = tftensor::tflite::TfliteFile::from_blob(cut).unwrap();
    let errs: Vec<Error> = (0..f.tensors().len())
        .filter_map(|i| f.read(i).err())
        .collect();
    assert!(!errs.is_empty());
    for e in errs {
        assert_eq!(e.kind(), ErrorKind::DataLoss, "{e}");
        assert!(e.location().and_then(|l| l.offset).is_some(), "{e}");
    }
}

#[test]
fn the_8_byte_file_of_tensorflow_115308_is_an_error() {
    // A root offset and "TFL3", nothing else: TF reads past the end.
    for bytes in [
        b"\x1c\0\0\0TFL3".to_vec(),
        b"\x04\0\0\0TFL3".to_vec(),
        b"\0\0\0\0TFL3".to_vec(),
    ] {
        let err = read_all(bytes).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DataLoss, "{err}");
    }
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("m.tflite");
    std::fs::write(&p, b"\x1c\0\0\0TFL3").unwrap();
    let err = io::open(&p).err().unwrap();
    assert_eq!(err.kind(), ErrorKind::DataLoss, "{err}");
}

#[path = "../benches/common/tflite_model.rs"]
mod tflite_model;

/// A blob that counts the bytes read through it.
#[derive(Debug)]
struct Counting {
    inner: Arc<dyn Blob>,
    read: std::sync::atomic::AtomicU64,
}

impl Blob for Counting {
    fn id(&self) -> &str {
        self.inner.id()
    }
    fn len(&self) -> u64 {
        self.inner.len()
    }
    fn read_at(&self, offset: u64, dst: &mut [u8]) -> tftensor::Result<()> {
        self.read
            .fetch_add(dst.len() as u64, std::sync::atomic::Ordering::Relaxed);
        self.inner.read_at(offset, dst)
    }
}

#[test]
fn a_model_over_2_gib_in_offset_mode_lists_without_reading_its_payload() {
    // 40 tensors of 60 MB after the flatbuffer, as holes of a sparse file.
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("huge.tflite");
    tflite_model::write(&p, 40, 15_000_000, true, None);
    assert!(std::fs::metadata(&p).unwrap().len() > 2 << 30);
    let blob = Arc::new(Counting {
        inner: Arc::new(tftensor::io::LocalFile::open(&p).unwrap()),
        read: 0.into(),
    });
    let f = TfliteFile::from_blob(blob.clone()).unwrap();
    assert_eq!(f.tensors().len(), 40);
    assert_eq!(f.tensors()[39].entry.byte_len, Some(60_000_000));
    let listed = blob.read.load(std::sync::atomic::Ordering::Relaxed);
    assert!(listed <= 16 << 10, "listing read {listed} bytes");
    // The last tensor is where the file says: past 2 GiB.
    match f.model().buffers[40] {
        tftensor::tflite::Buffer::At { offset, len } => {
            assert!(offset > 2 << 30 && len == 60_000_000, "{offset}");
        }
        other => panic!("{other:?}"),
    }
    // Through io::open too.
    let src = io::open(&p).unwrap();
    assert_eq!(src.entries().len(), 40);
}
