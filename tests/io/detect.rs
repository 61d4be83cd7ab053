//! Which format a path holds, and the directory faults.

use tftensor::Error;
use tftensor::io::{self, Format};

use super::{copy_dir, data};

#[test]
fn a_checkpoint_directory_without_a_state_file_is_read_by_its_one_prefix() {
    // `tf.train.Checkpoint.write()` leaves one prefix and no `checkpoint`
    // file; it was read as an empty TensorProto directory.
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&data("checkpoints/sharded"), dir.path());
    let at = io::detect(dir.path()).unwrap();
    assert_eq!(at.format, Format::Checkpoint);
    assert_eq!(at.path, dir.path().join("ckpt"));
    let src = io::open(dir.path()).unwrap();
    let direct = io::open(data("checkpoints/sharded/ckpt")).unwrap();
    assert_eq!(src.entries(), direct.entries());
    assert!(!src.entries().is_empty());
}

#[test]
fn two_prefixes_and_no_state_file_is_an_error_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&data("checkpoints/sharded"), dir.path());
    std::fs::copy(
        dir.path().join("ckpt.index"),
        dir.path().join("other.index"),
    )
    .unwrap();
    let err = io::open(dir.path()).err().unwrap();
    assert!(matches!(err, Error::NotFound { .. }), "{err:?}");
    assert!(err.to_string().contains("ckpt, other"), "{err}");
    assert_eq!(err.path(), Some(dir.path().display().to_string().as_str()));
}

#[test]
fn an_empty_directory_says_what_was_looked_for() {
    let dir = tempfile::tempdir().unwrap();
    let err = io::open(dir.path()).err().unwrap();
    assert!(matches!(err, Error::NotFound { .. }), "{err:?}");
    let text = err.to_string();
    for part in [
        "SavedModel",
        "`checkpoint` state file",
        "`.npy` files",
        "`.pb` files",
    ] {
        assert!(text.contains(part), "{text}");
    }
}

#[test]
fn a_directory_of_npy_files_is_one_source() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["float32", "int32", "bool"] {
        std::fs::copy(
            data(&format!("npy/{name}.npy")),
            dir.path().join(format!("{name}.npy")),
        )
        .unwrap();
    }
    let mut src = io::open(dir.path()).unwrap();
    assert_eq!(src.format(), Format::Npz);
    let names: Vec<_> = src.entries().iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["bool", "float32", "int32"]);
    let f = src.read_named("float32").unwrap();
    assert_eq!(f, tftensor::npy::read_npy(data("npy/float32.npy")).unwrap());
}

#[test]
fn a_state_file_from_another_machine_falls_back_beside_it_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&data("checkpoints/tf2_keras"), dir.path());
    std::fs::write(
        dir.path().join("checkpoint"),
        "model_checkpoint_path: \"/home/someone/run/ckpt-1\"\n",
    )
    .unwrap();
    let at = io::detect(dir.path()).unwrap();
    assert_eq!(at.path, dir.path().join("ckpt-1"));
    let note = at.note.expect("a note on the fallback");
    assert!(note.contains("/home/someone/run/ckpt-1"), "{note}");
    assert!(io::open(dir.path()).unwrap().entries().len() > 1);
}

#[test]
fn gzip_and_zlib_are_detected_for_every_front() {
    // Python's read_tensors on a GZIP file without compression= reported
    // a checksum error; detection now lives here.
    for (file, compression) in [
        (
            "tensors.gzip.tfrecord",
            tftensor::tfrecord::Compression::Gzip,
        ),
        (
            "tensors.zlib.tfrecord",
            tftensor::tfrecord::Compression::Zlib,
        ),
        ("tensors.tfrecord", tftensor::tfrecord::Compression::None),
    ] {
        let p = data(&format!("tfrecord/{file}"));
        assert_eq!(io::tfrecord_compression(&p).unwrap(), compression, "{file}");
        let at = io::detect(&p).unwrap();
        assert_eq!((at.format, at.compression), (Format::TfRecord, compression));
        let plain = io::open(data("tfrecord/tensors.tfrecord")).unwrap();
        assert_eq!(io::open(&p).unwrap().entries(), plain.entries(), "{file}");
    }
}

#[test]
fn every_fixture_is_detected_by_content() {
    let dir = tempfile::tempdir().unwrap();
    for (from, format) in [
        ("npy/float32.npy", Format::Npy),
        ("npy/arrays.npz", Format::Npz),
        ("safetensors/numpy.safetensors", Format::Safetensors),
        ("tfrecord/tensors.tfrecord", Format::TfRecord),
        ("tfrecord/tensors.gzip.tfrecord", Format::TfRecord),
    ] {
        let renamed = dir.path().join("renamed.bin");
        std::fs::copy(data(from), &renamed).unwrap();
        assert_eq!(io::detect(&renamed).unwrap().format, format, "{from}");
    }
}

#[test]
fn output_formats_by_name() {
    use tftensor::tfrecord::Compression;
    let f = |p: &str| io::output_format(p.as_ref(), None).map(|l| (l.format, l.compression));
    assert_eq!(
        f("a.safetensors").ok(),
        Some((Format::Safetensors, Compression::None))
    );
    assert_eq!(
        f("a.tfrecord.gz").ok(),
        Some((Format::TfRecord, Compression::Gzip))
    );
    assert_eq!(
        f("a.tfrecords.zz").ok(),
        Some((Format::TfRecord, Compression::Zlib))
    );
    assert_eq!(
        f("out/").ok(),
        Some((Format::TensorProtoDir, Compression::None))
    );
    assert_eq!(
        f("ckpt/model").ok(),
        Some((Format::Checkpoint, Compression::None))
    );
    assert_eq!(
        f("model.ckpt-100").ok(),
        Some((Format::Checkpoint, Compression::None))
    );
    assert_eq!(
        io::output_format("d/ckpt-3.index".as_ref(), None)
            .unwrap()
            .path,
        std::path::Path::new("d/ckpt-3")
    );
    assert!(matches!(f("a.txt"), Err(Error::InvalidArgument(_))));
}
