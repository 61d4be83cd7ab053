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
    assert_eq!(at.format, Format::CHECKPOINT);
    assert_eq!(at.path(), dir.path().join("ckpt"));
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
fn an_empty_directory_names_the_formats_tried() {
    let dir = tempfile::tempdir().unwrap();
    let err = io::open(dir.path()).err().unwrap();
    assert!(matches!(err, Error::UnknownFormat { .. }), "{err:?}");
    assert_eq!(err.path(), Some(dir.path().display().to_string().as_str()));
    let text = err.to_string();
    for format in Format::all() {
        assert!(text.contains(format.name()), "{text}");
    }
}

#[test]
fn an_unknown_file_is_an_error_naming_the_formats_tried_not_a_guess() {
    // `inspect model.tflite` said "tensorproto: not a valid TensorProto:
    // dtype 0 is not a tensor's dtype": anything unclaimed was tried as a
    // TensorProto.
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("image.png", &b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"[..]),
        ("notes.txt", b"hello"),
        // A zip whose first member is no array is no `.npz` (any zip was).
        (
            "notes.zip",
            b"PK\x03\x04\x14\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x05\0\0\0a.txt",
        ),
        ("empty.bin", b""),
        ("x.dat", b"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"),
    ] {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        let err = io::open(&p).err().unwrap();
        assert!(
            matches!(err, Error::UnknownFormat { .. }),
            "{name}: {err:?}"
        );
        assert!(
            err.to_string().contains("tried checkpoint, tensorproto"),
            "{err}"
        );
        assert_eq!(err.path(), Some(p.display().to_string().as_str()));
    }
    // Nothing there is not found, and not an unknown format.
    let err = io::open(dir.path().join("gone.npy")).err().unwrap();
    assert!(matches!(err, Error::NotFound { .. }), "{err:?}");
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
    assert_eq!(src.format(), Format::NPZ);
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
    assert_eq!(at.path(), dir.path().join("ckpt-1"));
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
        let as_tfrecord = io::OpenOptions::default().with_format(Format::TFRECORD);
        assert_eq!(
            io::locate(&p, &as_tfrecord).unwrap().compression,
            compression,
            "{file}"
        );
        let at = io::detect(&p).unwrap();
        assert_eq!((at.format, at.compression), (Format::TFRECORD, compression));
        let plain = io::open(data("tfrecord/tensors.tfrecord")).unwrap();
        assert_eq!(io::open(&p).unwrap().entries(), plain.entries(), "{file}");
    }
}

#[test]
fn every_fixture_is_detected_by_content() {
    let dir = tempfile::tempdir().unwrap();
    for (from, format) in [
        ("npy/float32.npy", Format::NPY),
        ("npy/arrays.npz", Format::NPZ),
        ("safetensors/numpy.safetensors", Format::SAFETENSORS),
        ("tfrecord/tensors.tfrecord", Format::TFRECORD),
        ("tfrecord/tensors.gzip.tfrecord", Format::TFRECORD),
    ] {
        let renamed = dir.path().join("renamed.bin");
        std::fs::copy(data(from), &renamed).unwrap();
        assert_eq!(io::detect(&renamed).unwrap().format, format, "{from}");
    }
}

#[test]
fn output_formats_by_name() {
    use tftensor::tfrecord::Compression;
    let o = io::CreateOptions::default();
    let f = |p: &str| io::locate_output(p, &o).map(|l| (l.format, l.compression));
    assert_eq!(
        f("a.safetensors").ok(),
        Some((Format::SAFETENSORS, Compression::None))
    );
    assert_eq!(
        f("a.tfrecord.gz").ok(),
        Some((Format::TFRECORD, Compression::Gzip))
    );
    assert_eq!(
        f("a.tfrecords.zz").ok(),
        Some((Format::TFRECORD, Compression::Zlib))
    );
    assert_eq!(
        f("out/").ok(),
        Some((Format::TENSORPROTO_DIR, Compression::None))
    );
    assert_eq!(
        f("ckpt/model").ok(),
        Some((Format::CHECKPOINT, Compression::None))
    );
    assert_eq!(
        f("model.ckpt-100").ok(),
        Some((Format::CHECKPOINT, Compression::None))
    );
    assert_eq!(
        io::locate_output("d/ckpt-3.index", &o).unwrap().key,
        "d/ckpt-3"
    );
    let err = f("a.txt").unwrap_err();
    assert_eq!(err.kind(), tftensor::ErrorKind::InvalidArgument);
    assert_eq!(err.path(), Some("a.txt"));
    assert!(matches!(
        err.inner(),
        tftensor::Error::InvalidArgument(m)
            if m == "cannot tell the output format from the ending `.txt`"
    ));
    // A dot name has no ending (and no format claims it): said so, not
    // "the ending `.`".
    let err = f("d/.hidden").unwrap_err();
    assert!(matches!(
        err.inner(),
        tftensor::Error::InvalidArgument(m)
            if m == "cannot tell the output format from a name without an ending"
    ));
}

/// Every fixture: detection by content agrees with what its name says
/// (image-rs's `test_guess_format_agrees_with_extension`), and a file no
/// row claims is refused, never guessed.
#[test]
fn detection_by_content_agrees_with_the_extension_for_every_fixture() {
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for item in std::fs::read_dir(dir).unwrap() {
            let p = item.unwrap().path();
            if p.is_dir() {
                files(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut all = Vec::new();
    files(&data(""), &mut all);
    let tmp = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for path in all {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(by_name) = Format::from_extension(&path) else {
            continue;
        };
        // Keras and checkpoint files are told by their names (a `.keras`
        // is a zip, an `.index` a table); a TensorProto `.pb` may be a
        // GraphDef by content. Their content checks are below.
        if matches!(
            by_name,
            Format::KERAS | Format::CHECKPOINT | Format::GRAPH_DEF
        ) || name.ends_with(".pb")
        {
            continue;
        }
        let renamed = tmp.path().join("renamed.bin");
        std::fs::copy(&path, &renamed).unwrap();
        match io::detect(&renamed) {
            Ok(at) => {
                assert_eq!(at.format, by_name, "{}", path.display());
                checked += 1;
            }
            // Damaged fixtures (for error tests) may be claimed by nothing.
            Err(e) => assert!(
                matches!(e, Error::UnknownFormat { .. }),
                "{}: {e}",
                path.display()
            ),
        }
    }
    assert!(checked >= 30, "{checked}");
    // HDF5 by its magic bytes, whatever the name.
    let renamed = tmp.path().join("renamed.bin");
    std::fs::copy(data("keras/f16.weights.h5"), &renamed).unwrap();
    assert_eq!(io::detect(&renamed).unwrap().format, Format::KERAS);
}
