//! The writer: every dtype round-trips through our reader byte-for-byte,
//! groups of hundreds of datasets (multi-level B-trees), `.keras` archives,
//! and the refusals. (scripts/check_keras_reads_ours.py checks the same
//! files with h5py and Keras.)

use tftensor::keras::{KerasFile, WeightsWriter};
use tftensor::{DataType, Error, Tensor};

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = tempfile::Builder::new()
        .prefix(&format!("tftensor-keras-w-{name}-"))
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn sample(dtype: DataType, dims: &[i64]) -> Tensor {
    let n: i64 = dims.iter().product();
    let bytes: Vec<u8> = (0..n as usize * dtype.size())
        .map(|i| {
            if dtype == DataType::Bool {
                (i % 2) as u8
            } else {
                (i * 37 % 251) as u8
            }
        })
        .collect();
    Tensor::from_buffer(dtype, dims, tftensor::bytes::Bytes::from(bytes)).unwrap()
}

const DTYPES: [DataType; 15] = [
    DataType::Half,
    DataType::Float,
    DataType::Double,
    DataType::BFloat16,
    DataType::Int8,
    DataType::Int16,
    DataType::Int32,
    DataType::Int64,
    DataType::UInt8,
    DataType::UInt16,
    DataType::UInt32,
    DataType::UInt64,
    DataType::Bool,
    DataType::Complex64,
    DataType::Complex128,
];

#[test]
fn every_dtype_round_trips() {
    let dir = tmp("dtypes");
    let path = dir.join("all.weights.h5");
    let mut w = WeightsWriter::create(&path).unwrap();
    let mut want = Vec::new();
    for (i, dt) in DTYPES.iter().enumerate() {
        let dims: &[i64] = match i % 3 {
            0 => &[],
            1 => &[5],
            _ => &[2, 3],
        };
        let t = sample(*dt, dims);
        let name = format!("layers/l{i}/vars/0");
        w.add(&name, &t).unwrap();
        want.push((name, t));
    }
    let empty = Tensor::new(DataType::Float, [0, 3]).unwrap();
    w.add("layers/z/vars/0", &empty).unwrap();
    w.add_group("vars").unwrap();
    w.finish().unwrap();
    // Atomic: only the destination is left.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("all.weights.h5")]);
    let f = KerasFile::open(&path).unwrap();
    assert_eq!(f.entries().len(), DTYPES.len() + 1);
    for (name, t) in &want {
        let got = f.read(name).unwrap();
        assert_eq!((got.dtype(), got.shape()), (t.dtype(), t.shape()), "{name}");
        assert_eq!(
            got.tensor_data().unwrap(),
            t.tensor_data().unwrap(),
            "{name}"
        );
    }
    let z = f.read("layers/z/vars/0").unwrap();
    assert_eq!(z.shape().dim_sizes(), vec![0, 3]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_group_of_2000_datasets_needs_a_two_level_btree() {
    let dir = tmp("many");
    let path = dir.join("many.weights.h5");
    let mut w = WeightsWriter::create(&path).unwrap();
    for i in 0..2000i32 {
        w.add(
            &format!("optimizer/vars/{i}"),
            &Tensor::from_vec([1], vec![i]).unwrap(),
        )
        .unwrap();
    }
    w.finish().unwrap();
    let f = KerasFile::open(&path).unwrap();
    assert_eq!(f.entries().len(), 2000);
    // Bytewise order, as h5py's visititems.
    assert_eq!(f.entries()[0].name, "optimizer/vars/0");
    assert_eq!(f.entries()[1].name, "optimizer/vars/1");
    assert_eq!(f.entries()[2].name, "optimizer/vars/10");
    for i in [0, 999, 1999] {
        let t = f.read(&format!("optimizer/vars/{i}")).unwrap();
        assert_eq!(t.as_slice::<i32>().unwrap(), &[i]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn keras_archive_round_trips_with_its_config() {
    let dir = tmp("archive");
    let path = dir.join("m.keras");
    let mut w = WeightsWriter::create_keras(&path, "{\"class_name\": \"Sequential\"}").unwrap();
    let k = sample(DataType::Float, &[4, 3]);
    w.add("layers/dense/vars/0", &k).unwrap();
    w.finish().unwrap();
    let f = KerasFile::open(&path).unwrap();
    assert_eq!(
        f.metadata()[0],
        (
            "config.json".into(),
            "{\"class_name\": \"Sequential\"}".into()
        )
    );
    assert_eq!(
        f.read("layers/dense/vars/0")
            .unwrap()
            .tensor_data()
            .unwrap(),
        k.tensor_data().unwrap()
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn refusals() {
    let dir = tmp("refuse");
    let path = dir.join("r.weights.h5");
    let mut w = WeightsWriter::create(&path).unwrap();
    let t = sample(DataType::Float, &[2]);
    w.add("a/b", &t).unwrap();
    assert!(matches!(w.add("a/b", &t), Err(Error::InvalidFormat { .. })));
    assert!(matches!(
        w.add("a/b/c", &t),
        Err(Error::InvalidFormat { .. })
    ));
    assert!(matches!(
        w.add("a//c", &t),
        Err(Error::InvalidFormat { .. })
    ));
    let s = Tensor::from_vec([1], vec![tftensor::bytes::Bytes::from_static(b"x")]).unwrap();
    assert!(w.add("s", &s).is_err());
    drop(w);
    // Dropped unfinished: nothing left behind.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A path that names no file (`dir/..`) is refused when the writer starts:
/// its temporary name was made from an empty file name and landed in the
/// folder above (`dir/../.tmpPID`), created before anything failed.
#[test]
fn an_output_path_without_a_file_name_is_refused_up_front() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("sub")).unwrap();
    let odd = tmp.path().join("sub/..");
    for err in [
        tftensor::keras::WeightsWriter::create(&odd).err().unwrap(),
        tftensor::keras::WeightsWriter::create_keras(&odd, "{}")
            .err()
            .unwrap(),
        tftensor::hdf5::Hdf5Writer::create(&odd).err().unwrap(),
    ] {
        assert_eq!(err.kind(), tftensor::ErrorKind::InvalidArgument, "{err}");
        assert_eq!(err.path(), Some(odd.display().to_string().as_str()));
    }
    let mut left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    left.sort();
    assert_eq!(left, ["sub"]);
}
