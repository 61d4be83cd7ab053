//! Bad HDF5 / Keras input: every truncation of every fixture, every byte
//! flipped, a group that links to itself, a huge declared shape, an unknown
//! filter. Each gives `Ok` or a named `Err`, never a panic, never an
//! allocation beyond what the input justifies.
#![cfg(feature = "keras")]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use crate::common::allocated_by;

use tftensor::hdf5::Hdf5File;
use tftensor::io::BytesBlob;
use tftensor::keras::{KerasFile, WeightsWriter};
use tftensor::{DataType, Error, Tensor};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/keras")
}

/// Every HDF5 fixture (the `.keras` member included, as its own bytes).
fn fixtures() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir()).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".h5") {
            out.push((name, std::fs::read(&p).unwrap()));
        } else if name.ends_with(".keras") {
            let mut z = zip::ZipArchive::new(std::fs::File::open(&p).unwrap()).unwrap();
            let mut m = z.by_name("model.weights.h5").unwrap();
            let mut v = Vec::new();
            std::io::Read::read_to_end(&mut m, &mut v).unwrap();
            out.push((name, v));
        }
    }
    out.sort();
    out
}

/// Opens and reads every dataset; the first error, if any.
fn read_all(bytes: Vec<u8>) -> Result<usize, Error> {
    let f = Hdf5File::open(std::sync::Arc::new(BytesBlob::new("mem.h5", bytes)))?;
    for ds in f.datasets() {
        f.read(ds)?;
    }
    Ok(f.datasets().len())
}

fn robust(what: &str, input: Vec<u8>) -> Result<usize, Error> {
    let len = input.len();
    let (r, bytes) = catch_unwind(AssertUnwindSafe(|| allocated_by(|| read_all(input))))
        .unwrap_or_else(|_| panic!("{what}: panicked"));
    // Deflate may expand 1032:1, and the reader allows 1100:1 (Keras
    // allows 1000:1), over a 1 MiB floor for unallocated (zero) data.
    assert!(
        bytes <= 1100 * len + (4 << 20),
        "{what}: allocated {bytes} for {len} bytes"
    );
    r
}

#[test]
fn every_truncation_is_an_error() {
    let mut n = 0;
    // Every 5th cut in a plain `cargo test` (each under
    // TFTENSOR_FULL_SWEEPS=1).
    let sample = crate::common::sweep_stride(1, 5);
    for (name, full) in fixtures() {
        assert!(robust(&name, full.clone()).is_ok(), "{name} reads whole");
        for cut in (0..full.len()).step_by(sample) {
            let r = robust(&format!("{name} cut at {cut}"), full[..cut].to_vec());
            let err = r.expect_err(&format!("{name} cut at {cut} read"));
            assert!(
                matches!(
                    err,
                    Error::DataLoss { .. } | Error::InvalidFormat { format: "hdf5", .. }
                ),
                "{name} cut at {cut}: {err:?}"
            );
            n += 1;
        }
    }
    assert!(n > 100_000 / sample, "{n}");
}

#[test]
fn every_flipped_byte_is_ok_or_an_error() {
    let mut errors = 0;
    // Every byte of the files that hold v1 headers, chunks and filters;
    // every 3rd of latest.h5 (v2 headers, dense links; 49 KB) and of the
    // layout v4 chunk index fixtures; every 13th of the rest. A plain
    // `cargo test` takes every 97th of those positions
    // (`TFTENSOR_FULL_SWEEPS=1` runs them all).
    let sample = crate::common::sweep_stride(1, 97);
    for (name, full) in fixtures() {
        let step = match name.as_str() {
            "seq.weights.h5" | "features.h5" | "idx_fixed.h5" => 1,
            "latest.h5" | "idx_earray.h5" | "idx_btree2.h5" | "idx_paged.h5" => 3,
            _ => 13,
        };
        let positions: Vec<usize> = (0..full.len()).step_by(step * sample).collect();
        // Two threads, every other position each: with every position
        // swept, this is most of the binary's time.
        errors += std::thread::scope(|s| {
            let workers: Vec<_> = (0..2)
                .map(|w| {
                    let (full, name, positions) = (&full, &name, &positions);
                    s.spawn(move || {
                        let mut errors = 0;
                        for &at in positions.iter().skip(w).step_by(2) {
                            let mut bad = full.clone();
                            bad[at] ^= 0xa5;
                            if robust(&format!("{name} flipped at {at}"), bad).is_err() {
                                errors += 1;
                            }
                        }
                        errors
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|w| w.join().unwrap())
                .sum::<usize>()
        });
    }
    // Metadata flips are caught; data flips read as other values.
    assert!(errors > 5_000 / sample, "{errors}");
}

fn written(tag: &str, tensors: &[(&str, Tensor)]) -> Vec<u8> {
    let d = tempfile::Builder::new()
        .prefix("tftensor-robust-keras-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(format!("{tag}.weights.h5"));
    let mut w = WeightsWriter::create(&p).unwrap();
    for (n, t) in tensors {
        w.add(n, t).unwrap();
    }
    w.finish().unwrap();
    let bytes = std::fs::read(&p).unwrap();
    std::fs::remove_file(&p).unwrap();
    bytes
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).position(|w| w == needle).unwrap()
}

#[test]
fn a_group_linking_to_itself_terminates() {
    let mut f = written(
        "cycle",
        &[("a/x", Tensor::from_vec([2], vec![1f32, 2.]).unwrap())],
    );
    // The root's object header address is in the superblock at 64; the
    // SNOD of group `a` lists `x`: point `x` at the root instead.
    let root = f[64..72].to_vec();
    let snods: Vec<usize> = f
        .windows(4)
        .enumerate()
        .filter(|(_, w)| *w == b"SNOD")
        .map(|(i, _)| i)
        .collect();
    // Symbol nodes are written children first: the first is `a`'s.
    let entry = snods[0] + 8;
    f[entry + 8..entry + 16].copy_from_slice(&root);
    let f = Hdf5File::open(std::sync::Arc::new(BytesBlob::new("mem.h5", f))).unwrap();
    assert_eq!(f.datasets().len(), 0);
    assert_eq!(f.groups().len(), 2);
}

#[test]
fn a_huge_declared_shape_is_refused_before_allocating() {
    let mut f = written(
        "huge",
        &[("x", Tensor::new(DataType::Float, [0, 3]).unwrap())],
    );
    // Dataspace v1 of rank 2 with max dims: `01 02 01 00 00000000 0 3 0 3`.
    let mut space = vec![1u8, 2, 1, 0, 0, 0, 0, 0];
    for d in [0u64, 3, 0, 3] {
        space.extend_from_slice(&d.to_le_bytes());
    }
    let at = find(&f, &space) + 8;
    f[at..at + 8].copy_from_slice(&(1u64 << 40).to_le_bytes());
    let err = robust("huge shape", f).unwrap_err();
    assert!(err.to_string().contains("declares"), "{err}");
}

#[test]
fn an_unknown_filter_is_refused_by_name() {
    let mut f = std::fs::read(dir().join("features.h5")).unwrap();
    // The shuffle entry of a v1 pipeline: id 2, an 8-byte name, optional, 1 value.
    let at = find(&f, b"\x02\x00\x08\x00\x01\x00\x01\x00shuffle\0");
    f[at..at + 2].copy_from_slice(&32000u16.to_le_bytes());
    let err = robust("lzf", f).unwrap_err();
    // The dataset is a field.
    assert_eq!(err.key(), Some("chunked"));
    assert_eq!(
        err.to_string(),
        "'chunked': hdf5: HDF5 feature filter 32000 (shuffle) not supported"
    );
}

#[test]
fn truncated_keras_archives_are_errors() {
    let full = std::fs::read(dir().join("seq.keras")).unwrap();
    let d = tempfile::Builder::new()
        .prefix("tftensor-robust-keras-zip-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("cut.keras");
    for cut in (0..full.len()).step_by(97) {
        std::fs::write(&p, &full[..cut]).unwrap();
        let r = catch_unwind(|| {
            let f = KerasFile::open(&p)?;
            (0..f.entries().len()).try_for_each(|i| f.read_index(i).map(|_| ()))
        });
        let r = r.unwrap_or_else(|_| panic!("seq.keras cut at {cut}: panicked"));
        assert!(r.is_err(), "cut at {cut}");
    }
    std::fs::remove_dir_all(&d).unwrap();
}

/// Found by the `hdf5` fuzz target: a link name with a '/' read as a path
/// (`"g/ip_only"` in the root group looks like member `ip_only` of a group
/// `g`), so the path our writer got back named another object. HDF5 does
/// not allow such names: the file is refused, naming the link.
#[test]
fn a_link_name_with_a_slash_is_refused() {
    let mut bytes = std::fs::read(dir().join("features.h5")).unwrap();
    let at = bytes.windows(9).position(|w| w == b"gzip_only").unwrap();
    bytes[at + 1] = b'/';
    let err = read_all(bytes).unwrap_err();
    assert!(matches!(err, Error::InvalidFormat { .. }), "{err:?}");
    assert!(
        err.to_string().contains(r#"link named "g/ip_only""#),
        "{err}"
    );
}
