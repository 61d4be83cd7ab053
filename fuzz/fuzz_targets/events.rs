//! Fuzzes TensorBoard event files: `EventReader`, `series` and `list` over
//! a log directory holding the input as its one event file (written to a
//! temporary directory, since the reader reads files).
//!
//! Checks, beyond "no panic, no crash, no hang, no allocation the input
//! did not pay for":
//! * errors are `DataLoss` (damaged framing or an `Event` that does not
//!   decode) or `InvalidFormat` (a value that does not migrate);
//! * the input cut at any point reads as a prefix of the whole input's
//!   values, with no error (a truncated last record ends the file);
//! * `list` and `series` name the same time series with the same counts;
//! * `series` (the columnar path) gives the series of grouping the
//!   reader's values (runs, tags, steps, wall times), or the reader's error.
#![no_main]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tftensor::events::{list, series, EventReader, EventValue};
use tftensor::Error;

fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("tftensor-fuzz-events-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    })
}

fn read(bytes: &[u8]) -> (Vec<EventValue>, Option<Error>) {
    std::fs::write(dir().join("events.out.tfevents.0.fuzz"), bytes).unwrap();
    let mut values = Vec::new();
    for v in EventReader::open(dir()).unwrap() {
        match v {
            Ok(v) => values.push(v),
            Err(e) => return (values, Some(e)),
        }
    }
    (values, None)
}

fuzz_target!(|data: &[u8]| {
    let (whole, error) = read(data);
    if let Some(e) = &error {
        assert!(
            matches!(e, Error::DataLoss { .. } | Error::InvalidFormat { .. }),
            "unexpected error kind: {e:?}"
        );
    }
    if error.is_none() {
        let listed = list(dir()).unwrap();
        let all = series(dir()).unwrap();
        assert_eq!(listed.len(), all.len());
        for (l, s) in listed.iter().zip(&all) {
            assert_eq!(
                (&l.run, &l.tag, l.kind, l.count),
                (&s.run, &s.tag, s.kind, s.steps.len())
            );
        }
    }
    match series(dir()) {
        Err(e) => assert_eq!(Some(&e), error.as_ref()),
        Ok(all) => {
            assert!(error.is_none(), "series read past the reader's {error:?}");
            let mut grouped: BTreeMap<(&str, &str), Vec<(i64, u64)>> = BTreeMap::new();
            for v in whole.iter().filter(|v| v.kind.is_summary()) {
                grouped
                    .entry((&v.run, &v.tag))
                    .or_default()
                    .push((v.step, v.wall_time.to_bits()));
            }
            assert_eq!(grouped.len(), all.len());
            for (s, (key, want)) in all.iter().zip(&grouped) {
                assert_eq!((s.run.as_str(), s.tag.as_str()), *key);
                let got: Vec<(i64, u64)> = s
                    .steps
                    .iter()
                    .zip(&s.wall_times)
                    .map(|(&st, w)| (st, w.to_bits()))
                    .collect();
                assert_eq!(&got, want);
            }
        }
    }
    // A cut in the middle: a prefix of the values.
    let cut = data.len() / 2;
    let (prefix, cut_error) = read(&data[..cut]);
    if cut_error.is_none() && error.is_none() {
        // Compared without the values, which may hold NaN.
        let key = |v: &EventValue| {
            (
                v.run.clone(),
                v.tag.clone(),
                v.step,
                v.wall_time.to_bits(),
                v.kind,
                v.value.shape().clone(),
            )
        };
        assert!(prefix.len() <= whole.len());
        assert!(prefix.iter().zip(&whole).all(|(a, b)| key(a) == key(b)));
    }
});
