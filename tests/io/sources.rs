//! Listing from headers alone, reading by name and index, metadata.

use std::io::Write;

use tftensor::io::{self, OpenOptions, TensorSource};
use tftensor::{DataType, Error, Tensor};

use super::data;

#[test]
fn npz_is_listed_from_headers_without_reading_member_data() {
    // A deflated member corrupted in the middle of its data still lists
    // (its `.npy` header is whole); reading it is the error. Listing used
    // to read every member whole.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("w.npz");
    let mut w = tftensor::npy::NpzWriter::create_compressed(&p).unwrap();
    let mut x = 1u64;
    let noise: Vec<f64> = (0..100_000)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 11) as f64
        })
        .collect();
    w.add("a", &Tensor::from_vec([100_000], noise).unwrap())
        .unwrap();
    w.add("b", &Tensor::from_vec([2, 3], vec![1i16; 6]).unwrap())
        .unwrap();
    w.finish().unwrap();
    let mut bytes = std::fs::read(&p).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&p, &bytes).unwrap();
    let mut src = io::open(&p).unwrap();
    let listed: Vec<_> = src
        .entries()
        .iter()
        .map(|e| (e.name.clone(), e.dtype, e.shape.dim_sizes(), e.byte_len))
        .collect();
    assert_eq!(
        listed,
        [
            (
                "a".to_string(),
                DataType::Double,
                vec![100_000],
                Some(800_000)
            ),
            ("b".to_string(), DataType::Int16, vec![2, 3], Some(12)),
        ]
    );
    assert!(src.read(0).is_err());
    assert_eq!(src.read(1).unwrap().as_slice::<i16>().unwrap(), [1; 6]);
}

#[test]
fn opaque_npz_members_need_the_dtype_option() {
    let err = io::open(data("npy/arrays.npz")).err().unwrap();
    assert!(matches!(err, Error::OpaqueDtype { .. }), "{err:?}");
    // Its location is a field like any format error's (it was dropped).
    assert!(
        err.path().is_some_and(|p| p.contains("arrays.npz")),
        "{err:?}"
    );
    assert_eq!(err.location().and_then(|at| at.key.as_deref()), Some("bf"));
    let opts = OpenOptions::default().with_npy_dtype(DataType::BFloat16);
    let mut src = io::open_with(data("npy/arrays.npz"), &opts).unwrap();
    let i = src.entries().iter().position(|e| e.name == "bf").unwrap();
    assert_eq!(src.entries()[i].dtype, DataType::BFloat16);
    assert_eq!(src.read(i).unwrap().dtype(), DataType::BFloat16);
}

#[test]
fn safetensors_is_listed_from_its_header_and_keeps_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("m.safetensors");
    let t = Tensor::from_vec([2], vec![1.0f32, 2.0]).unwrap();
    let meta = vec![("format".to_string(), "pt".to_string())];
    tftensor::safetensors::save_with_metadata(&p, [("w", &t)], &meta).unwrap();
    let mut src = io::open(&p).unwrap();
    assert_eq!(src.metadata(), meta);
    assert_eq!(src.entries()[0].byte_len, Some(8));
    assert_eq!(src.read_named("w").unwrap(), t);
    // Cut the data short: the header's offsets no longer fit, and the
    // listing says so without reading the data.
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..bytes.len() - 1]).unwrap();
    let err = io::open(&p).err().unwrap();
    assert!(
        matches!(
            err,
            Error::InvalidFormat {
                format: "safetensors",
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(err.path(), Some(p.display().to_string().as_str()));
}

#[test]
fn metadata_survives_copy_to_safetensors() {
    // safetensors' __metadata__ was dropped by convert.
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.safetensors");
    let b = dir.path().join("b.safetensors");
    let meta = vec![("format".to_string(), "pt".to_string())];
    tftensor::safetensors::save_with_metadata(&a, [("w", &Tensor::from(1u8))], &meta).unwrap();
    let mut src = io::open(&a).unwrap();
    let sink = io::create_as(&b, io::Format::SAFETENSORS).unwrap();
    io::copy(src.as_mut(), sink, io::CopyOptions::default()).unwrap();
    assert_eq!(
        tftensor::safetensors::read_header(&b).unwrap().metadata,
        meta
    );
}

#[test]
fn tfrecords_of_examples_are_features_per_record() {
    let mut src = io::open(data("tfrecord/examples.tfrecord")).unwrap();
    let label = src.read_named("0/label").unwrap();
    assert_eq!(label.as_slice::<i64>().unwrap(), [7]);
    let weights = src.read_named("0/weights").unwrap();
    let bits: Vec<u32> = weights
        .as_slice::<f32>()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect();
    assert_eq!(bits, [1056964608, 3214934016, 939239554]);
}

#[test]
fn read_errors_carry_path_and_key_as_fields() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("t.tfrecord");
    // Records too large for the listing to read whole (over 64 KiB).
    let t = Tensor::from_vec([20000], vec![1.5f32; 20000]).unwrap();
    tftensor::tfrecord::write_tensors(&p, tftensor::tfrecord::Compression::None, &[t.clone(), t])
        .unwrap();
    let mut bytes = std::fs::read(&p).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::File::create(&p)
        .unwrap()
        .write_all(&bytes)
        .unwrap();
    // Listing reads the framing only: the damaged data is found when its
    // record is read.
    let mut src = io::open(&p).unwrap();
    let last = src.entries().len() - 1;
    let err = src.read(last).unwrap_err();
    assert!(matches!(err, Error::DataLoss { .. }), "{err:?}");
    assert_eq!(err.path(), Some(p.display().to_string().as_str()));
    let key = err.location().and_then(|l| l.key.clone());
    assert_eq!(key, Some(format!("record {last}")));
    assert_eq!(
        err.location().and_then(|l| l.offset),
        Some(bytes.len() as u64 / 2)
    );
    // Display names the path once.
    let text = err.to_string();
    assert_eq!(text.matches(&p.display().to_string()).count(), 1, "{text}");
}

#[test]
fn io_errors_keep_their_io_error_as_source() {
    let err = io::open("/no/such/file.npy").err().unwrap();
    assert!(matches!(err, Error::NotFound { .. }), "{err:?}");
    let err = tftensor::npy::read_npy("/no/such/file.npy").unwrap_err();
    assert_eq!(err.io_kind(), Some(std::io::ErrorKind::NotFound));
    let source = std::error::Error::source(&err).unwrap();
    let io_source = source.downcast_ref::<tftensor::IoSource>().unwrap();
    assert_eq!(io_source.get().kind(), std::io::ErrorKind::NotFound);
}

#[test]
fn keras_graphdef_and_events_are_sources_too() {
    // Keras: .keras (a zip, told from an npz by its name), sharded
    // manifests and .weights.h5 by HDF5's magic.
    for file in ["seq.keras", "seq.weights.h5", "shard.weights.json", "k2.h5"] {
        let p = data(&format!("keras/{file}"));
        let mut src = io::open(&p).unwrap();
        assert_eq!(src.format(), io::Format::KERAS, "{file}");
        let direct = tftensor::keras::KerasFile::open(&p).unwrap();
        assert_eq!(src.entries().len(), direct.entries().len(), "{file}");
        let name = direct.entries()[0].name.clone();
        assert_eq!(src.read_named(&name).unwrap(), direct.read(&name).unwrap());
    }
    // A frozen GraphDef: its Const nodes, decoded when read.
    let p = data("saved_model/frozen_v2.pb");
    let mut src = io::open(&p).unwrap();
    assert_eq!(src.format(), io::Format::GRAPH_DEF);
    let consts = tftensor::saved_model::GraphConstants::open(&p).unwrap();
    let first = &consts.entries()[0].name;
    assert_eq!(src.read_named(first).unwrap(), consts.read(first).unwrap());
    // A TensorBoard log directory: a series per run and tag, with steps.
    let mut src = io::open(data("events/runs")).unwrap();
    assert_eq!(src.format(), io::Format::EVENTS);
    let steps = src.read_named("train/metric/steps").unwrap();
    let values = src.read_named("train/metric").unwrap();
    assert_eq!(values.shape().dim_sizes()[0], steps.num_elements());
}

#[test]
fn keras_sink_writes_what_keras_source_reads() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.weights.h5");
    let mut src = io::open(data("keras/seq.weights.h5")).unwrap();
    let sink = io::create(&out).unwrap();
    io::copy(src.as_mut(), sink, io::CopyOptions::default()).unwrap();
    let mut back = io::open(&out).unwrap();
    assert_eq!(back.entries(), src.entries());
    for i in 0..src.entries().len() {
        assert_eq!(back.read(i).unwrap(), src.read(i).unwrap());
    }
    // A .keras needs a config: refused, not written as bare HDF5.
    assert!(io::create(dir.path().join("m.keras")).is_err());
}

#[test]
fn read_slice_reads_the_stored_slices_of_a_checkpoint_and_cuts_elsewhere() {
    // The sharded fixture split the [8, 5] variable into 3 stored slices.
    let mut src = io::open(data("checkpoints/sharded/ckpt")).unwrap();
    let big = "big/.ATTRIBUTES/VARIABLE_VALUE";
    let i = src.entries().iter().position(|e| e.name == big).unwrap();
    let part = src.read_slice(i, &[2..6, 1..4]).unwrap();
    let want: Vec<f32> = (2..6)
        .flat_map(|row| (1..4).map(move |c| (row * 5 + c) as f32))
        .collect();
    assert_eq!(part.shape().dim_sizes(), [4, 3]);
    assert_eq!(part.as_slice::<f32>().unwrap(), want.as_slice());
    // A format without slices: the tensor read, then the box cut out.
    let t = Tensor::from_vec([8, 5], (0..40).map(|v| v as f32).collect::<Vec<_>>()).unwrap();
    let mut mem = io::InMemory::new(io::Format::NPZ, "mem", [(big.to_string(), t)]);
    assert_eq!(mem.read_slice(0, &[2..6, 1..4]).unwrap(), part);
    // A box that does not fit: an error naming the path and the tensor.
    let err = src.read_slice(i, &[0..9, 0..5]).unwrap_err();
    assert!(matches!(err.inner(), Error::InvalidArgument(_)), "{err:?}");
    assert_eq!(err.key(), Some(big));
    assert!(
        err.path().is_some_and(|p| p.ends_with("sharded/ckpt")),
        "{err}"
    );
    let one_range = std::slice::from_ref(&(0..1));
    let err = mem.read_slice(0, one_range).unwrap_err();
    assert!(err.to_string().contains("needs 2 ranges, got 1"), "{err}");
}

#[test]
fn tfrecords_of_tensors_read_in_any_order_plain_or_compressed() {
    let want = tftensor::tfrecord::read_tensors(
        data("tfrecord/tensors.tfrecord"),
        tftensor::tfrecord::Compression::None,
    )
    .unwrap();
    assert!(want.len() >= 3);
    for file in [
        "tensors.tfrecord",
        "tensors.gzip.tfrecord",
        "tensors.zlib.tfrecord",
    ] {
        let mut src = io::open(data(&format!("tfrecord/{file}"))).unwrap();
        // Listed from the records' headers: dtypes and shapes.
        let listed: Vec<_> = src
            .entries()
            .iter()
            .map(|e| (e.dtype, e.shape.clone()))
            .collect();
        let expected: Vec<_> = want
            .iter()
            .map(|t| (t.dtype(), t.shape().clone()))
            .collect();
        assert_eq!(listed, expected, "{file}");
        // Backwards (a compressed cursor starts over), then forwards.
        let n = want.len();
        for i in (0..n).rev().chain(0..n) {
            assert_eq!(src.read(i).unwrap(), want[i], "{file} record {i}");
        }
    }
}

#[test]
fn tensorproto_files_are_listed_from_their_first_bytes() {
    // A file cut short in its tensor_content still lists (dtype and shape
    // come first); reading it is the error. Listing used to read and parse
    // every file whole.
    let dir = tempfile::tempdir().unwrap();
    let t = Tensor::from_vec([1000], vec![1.5f32; 1000]).unwrap();
    let bytes = tftensor::tfrecord::serialize_tensor(&t).unwrap();
    std::fs::write(dir.path().join("w.pb"), &bytes[..bytes.len() - 100]).unwrap();
    for path in [dir.path().to_path_buf(), dir.path().join("w.pb")] {
        let mut src = io::open(&path).unwrap();
        assert_eq!(src.entries()[0].name, "w");
        assert_eq!(src.entries()[0].byte_len, Some(4000));
        let err = src.read(0).unwrap_err();
        assert_eq!(err.location().and_then(|l| l.key.as_deref()), Some("w"));
    }
}

#[test]
fn a_file_changed_since_it_was_listed_is_data_loss_not_a_different_tensor() {
    // Listed sources check what they read against the listing, for every
    // format: an .npy rewritten with another shape used to be returned as
    // read, unlike the entry the caller had been given.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("w.npy");
    tftensor::npy::write_npy(&p, &Tensor::from_vec([2, 3], vec![1f32; 6]).unwrap()).unwrap();
    let mut src = io::open(&p).unwrap();
    tftensor::npy::write_npy(&p, &Tensor::from_vec([3, 2], vec![1f32; 6]).unwrap()).unwrap();
    let err = src.read(0).unwrap_err();
    assert!(matches!(err, Error::DataLoss { .. }), "{err:?}");
    assert_eq!(err.location().and_then(|l| l.key.as_deref()), Some("w"));
    assert!(
        err.to_string()
            .contains("read as float [3,2], listed as float [2,3]"),
        "{err}"
    );
}

#[test]
fn damage_in_a_checkpoint_npz_or_safetensors_names_file_and_tensor_once() {
    // The checkpoint's message used to carry the data file's path and the
    // key in its text, and the npz's its member in the path: the source's
    // path and key fields then printed them a second time.
    let dir = tempfile::tempdir().unwrap();
    let t = Tensor::from_vec([64], vec![1.5f32; 64]).unwrap();
    let flip = |path: &std::path::Path| {
        let mut bytes = std::fs::read(path).unwrap();
        let at = bytes
            .windows(4)
            .position(|w| w == 1.5f32.to_le_bytes())
            .unwrap();
        bytes[at] ^= 1;
        std::fs::write(path, bytes).unwrap();
    };
    let prefix = dir.path().join("ckpt");
    let mut w = tftensor::checkpoint::BundleWriter::new(&prefix).unwrap();
    w.add("dense/kernel", &t).unwrap();
    w.finish().unwrap();
    let data_file = dir.path().join("ckpt.data-00000-of-00001");
    flip(&data_file);
    let npz = dir.path().join("w.npz");
    let mut w = tftensor::npy::NpzWriter::create(&npz).unwrap();
    w.add("dense/kernel", &t).unwrap();
    w.finish().unwrap();
    flip(&npz);
    for (input, file) in [(&prefix, &data_file), (&npz, &npz)] {
        let mut src = io::open(input).unwrap();
        let err = src.read(0).unwrap_err();
        assert_eq!(err.kind(), tftensor::ErrorKind::DataLoss, "{err}");
        assert_eq!(err.path(), Some(&*file.display().to_string()), "{err}");
        assert_eq!(err.key(), Some("dense/kernel"), "{err}");
        let text = err.to_string();
        assert_eq!(
            text.matches(&*file.display().to_string()).count(),
            1,
            "{text}"
        );
        assert_eq!(text.matches("dense/kernel").count(), 1, "{text}");
    }
    // A safetensors bool that is not 0 or 1, listed and then read.
    let p = dir.path().join("m.safetensors");
    let flags = Tensor::from_vec([2], vec![true, false]).unwrap();
    tftensor::safetensors::save(&p, [("flags", &flags)]).unwrap();
    let mut bytes = std::fs::read(&p).unwrap();
    let last = bytes.len() - 1;
    bytes[last] = 5;
    std::fs::write(&p, bytes).unwrap();
    let err = io::open(&p).unwrap().read(0).unwrap_err();
    let text = err.to_string();
    assert_eq!(err.key(), Some("flags"), "{text}");
    assert_eq!(text.matches("flags").count(), 1, "{text}");
    assert_eq!(text.matches(&*p.display().to_string()).count(), 1, "{text}");
}

/// A TFRecord of tensors (our writer writes what TF writes): record 1 a
/// float [2, 3] whose payload starts `08 01 12 08 12 02 ...`.
fn records_file(dir: &std::path::Path, tensors: &[Tensor]) -> (std::path::PathBuf, Vec<u8>) {
    let p = dir.join("t.tfrecord");
    tftensor::tfrecord::write_tensors(&p, tftensor::tfrecord::Compression::None, tensors).unwrap();
    let bytes = std::fs::read(&p).unwrap();
    (p, bytes)
}

/// Issue 35, fault 1: a flipped byte in a record's payload is damage (the
/// record's CRC says so), never "not a serialized TensorProto: bad
/// tensor_shape", whether the listing reads the record whole (small
/// records) or only its first bytes (large ones).
#[test]
fn a_flipped_payload_byte_is_data_loss_at_its_record() {
    let dir = tempfile::tempdir().unwrap();
    let small = Tensor::from_vec([2, 3], vec![1.0f32; 6]).unwrap();
    let large = Tensor::from_vec([2, 3000], vec![1.0f32; 6000]).unwrap();
    for t in [small, large] {
        let (p, mut bytes) = records_file(dir.path(), &[Tensor::from(1i32), t.clone(), t]);
        let first = 12 + bytes[0] as usize + 4;
        // The tag of the first dim inside tensor_shape: 0x12 becomes a
        // group start, which no TensorShapeProto parses.
        bytes[first + 12 + 4] ^= 1;
        std::fs::write(&p, &bytes).unwrap();
        let err = io::open(&p).err().unwrap();
        assert_eq!(err.kind(), tftensor::ErrorKind::DataLoss, "{err}");
        assert_eq!(err.key(), Some("record 1"), "{err}");
        assert_eq!(err.location().and_then(|l| l.offset), Some(first as u64));
        assert_eq!(err.path(), Some(p.display().to_string().as_str()));
        assert!(err.to_string().contains("data checksum mismatch"), "{err}");
    }
    // A flip past the header of a record too large to be read whole by
    // the listing (over 64 KiB) lists (its first bytes are fine) and is
    // found when read.
    let large = Tensor::from_vec([2, 30000], vec![1.0f32; 60000]).unwrap();
    let (p, mut bytes) = records_file(dir.path(), &[large.clone(), large]);
    let second = bytes.len() / 2;
    bytes[second + 12 + 9000] ^= 1;
    std::fs::write(&p, &bytes).unwrap();
    let mut src = io::open(&p).unwrap();
    assert!(src.read(0).is_ok());
    let err = src.read(1).unwrap_err();
    assert_eq!(err.kind(), tftensor::ErrorKind::DataLoss, "{err}");
    assert_eq!(err.location().and_then(|l| l.offset), Some(second as u64));
    assert!(err.to_string().contains("data checksum mismatch"), "{err}");
}

/// A record that is intact but is not a tensor is still called that.
#[test]
fn an_intact_record_that_is_no_tensor_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("t.tfrecord");
    let good = tftensor::tfrecord::serialize_tensor(&Tensor::from(1i32)).unwrap();
    let mut w = tftensor::tfrecord::RecordWriter::create(&p, tftensor::tfrecord::Compression::None)
        .unwrap();
    w.write_record(&good).unwrap();
    // A tensor_shape holding a group: no TensorShapeProto.
    w.write_record(&[0x08, 0x01, 0x12, 0x01, 0x13]).unwrap();
    w.finish().unwrap();
    let err = io::open(&p).err().unwrap();
    assert_eq!(err.kind(), tftensor::ErrorKind::InvalidProto, "{err}");
    assert_eq!(err.key(), Some("record 1"));
    assert!(
        err.to_string().contains("not a serialized TensorProto"),
        "{err}"
    );
}
