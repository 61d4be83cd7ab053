//! Fuzzes the HDF5 reader (superblock, object headers, groups, heaps,
//! B-trees, layouts, filters, attributes) through `Hdf5File`.
//!
//! Checks, beyond "no panic, no crash, no hang":
//! * every dataset listed from headers reads as a tensor of exactly the
//!   listed dtype, shape and byte length, or fails with an error;
//! * a file that reads is rewritten by our writer and reads back to the
//!   same tensors, bit for bit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tftensor::bytes::Bytes;
use std::sync::Arc;
use tftensor::hdf5::{Hdf5File, Hdf5Writer};
use tftensor::io::{BytesBlob, LocalFile};

fuzz_target!(|data: &[u8]| {
    let Ok(f) = Hdf5File::open(Arc::new(BytesBlob::new("fuzz.h5", Bytes::copy_from_slice(data)))) else {
        return;
    };
    let mut good = Vec::new();
    for ds in f.datasets() {
        if let Ok(t) = f.read(ds) {
            assert_eq!(t.dtype(), ds.dtype);
            assert_eq!(t.shape(), &ds.shape);
            assert_eq!(t.tensor_data().unwrap().len() as u64, ds.byte_len());
            good.push((ds.path.clone(), t));
        }
    }
    if good.is_empty() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("tftensor-fuzz-hdf5-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("re.h5");
    let mut w = Hdf5Writer::create(&path).unwrap();
    let mut written = Vec::new();
    for (name, t) in &good {
        // Names that cannot be a path of ours (e.g. under a dataset) are skipped.
        if w.add(name, t).is_ok() {
            written.push((name, t));
        }
    }
    w.finish().unwrap();
    let back = Hdf5File::open(Arc::new(LocalFile::open(&path).unwrap())).unwrap();
    for (name, t) in written {
        let ds = back.datasets().iter().find(|d| &d.path == name).unwrap();
        let r = back.read(ds).unwrap();
        assert_eq!(r.tensor_data().unwrap(), t.tensor_data().unwrap());
    }
});
