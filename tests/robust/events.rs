//! TensorBoard event files written by TF 2.21 (tests/data/events),
//! truncated at every byte and with single bytes changed: reading them
//! with `EventReader`, `series` and `list` gives values or errors, never a
//! panic, never more than the input can back, and a cut file gives a
//! prefix of the whole file's values.
#![cfg(feature = "events")]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use tftensor::Error;
use tftensor::events::{EventReader, EventValue, discover, list, series};

use crate::common::allocated_by;

/// Reads everything; returns the values and the errors.
fn read(dir: &Path) -> (Vec<EventValue>, Vec<Error>) {
    let _ = series(dir);
    let _ = list(dir);
    read_values(dir)
}

/// Reads every value; returns the values and the errors.
fn read_values(dir: &Path) -> (Vec<EventValue>, Vec<Error>) {
    let (mut values, mut errors) = (Vec::new(), Vec::new());
    for v in EventReader::open(dir).unwrap() {
        match v {
            Ok(v) => values.push(v),
            Err(e) => errors.push(e),
        }
    }
    (values, errors)
}

fn fixture_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/events");
    discover(&root)
        .unwrap()
        .into_iter()
        .flat_map(|r| r.files)
        .collect()
}

#[test]
fn damaged_event_files_never_panic_or_overallocate() {
    let dir = tempfile::Builder::new()
        .prefix("tftensor-robust-events-")
        .tempdir()
        .unwrap()
        .keep();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("events.out.tfevents.1.robust");
    let mut checked = 0;
    for file in fixture_files() {
        let bytes = std::fs::read(&file).unwrap();
        std::fs::write(&target, &bytes).unwrap();
        let (whole, errors) = read(&dir);
        assert!(errors.is_empty(), "{}: {errors:?}", file.display());
        // Every cut: a prefix of the values (the file version at least
        // once the first record is whole), no error.
        // Every 41st position (every one under TFTENSOR_FULL_SWEEPS=1).
        let step = if std::env::var_os("TFTENSOR_UNDER_VALGRIND").is_some() {
            97
        } else {
            crate::common::sweep_stride(1, 41)
        };
        for cut in (0..bytes.len()).step_by(step) {
            std::fs::write(&target, &bytes[..cut]).unwrap();
            let (values, errors) = catch_unwind(AssertUnwindSafe(|| read_values(&dir)))
                .unwrap_or_else(|_| panic!("{} cut at {cut}: panicked", file.display()));
            assert!(
                errors.is_empty(),
                "{} cut at {cut}: {errors:?}",
                file.display()
            );
            assert_eq!(values[..], whole[..values.len()], "cut at {cut}");
            checked += 1;
        }
        // Every changed byte: values or DataLoss / InvalidFormat errors.
        for at in (0..bytes.len()).step_by(step.max(3)) {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut w = bytes.clone();
                w[at] ^= flip;
                std::fs::write(&target, &w).unwrap();
                let ((_, errors), allocated) =
                    catch_unwind(AssertUnwindSafe(|| allocated_by(|| read(&dir)))).unwrap_or_else(
                        |_| panic!("{} byte {at} ^ {flip:#04x}: panicked", file.display()),
                    );
                for e in &errors {
                    assert!(
                        matches!(e, Error::DataLoss { .. } | Error::InvalidFormat { .. }),
                        "{} byte {at} ^ {flip:#04x}: {e:?}",
                        file.display()
                    );
                }
                assert!(
                    allocated <= 256 * w.len() + (4 << 20),
                    "byte {at}: allocated {allocated}"
                );
                checked += 1;
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        checked > 5_000 / crate::common::sweep_stride(1, 41),
        "{checked}"
    );
}
