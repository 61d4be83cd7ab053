//! TensorBoard event files (`tftensor::events`) against logs written by TF
//! 2.21 and read by TensorBoard 2.21's EventMultiplexer
//! (`scripts/gen_events.py`, under tests/data/events/), plus the writer,
//! series, and damaged files.
#![cfg(feature = "events")]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use prost::Message;
use serde_json::Value;
use tftensor::bytes::Bytes;
use tftensor::events::{
    EventReader, EventValue, Kind, SeriesValues, SummaryWriter, histogram_buckets, list, series,
};
use tftensor::tfrecord::{Compression, RecordReader};
use tftensor::{DataType, Error, Tensor, pb};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/events")
        .join(name)
}

fn json(name: &str) -> Value {
    serde_json::from_slice(&std::fs::read(data(name)).unwrap()).unwrap()
}

/// A fresh scratch directory.
fn scratch(name: &str) -> PathBuf {
    let dir = tempfile::Builder::new()
        .prefix(&format!("tftensor-events-{name}-"))
        .tempdir()
        .unwrap()
        .keep();
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read_all(path: &Path) -> Vec<EventValue> {
    EventReader::open(path)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The one event file under `dir`.
fn only_file(dir: &Path) -> PathBuf {
    let runs = tftensor::events::discover(dir).unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].files.len(), 1);
    runs[0].files[0].clone()
}

fn dtype_of(name: &str) -> DataType {
    match name {
        "float32" => DataType::Float,
        "float64" => DataType::Double,
        "int32" => DataType::Int32,
        "string" => DataType::String,
        other => panic!("dtype {other} not in the fixtures"),
    }
}

/// A float the fixture stores as Python's repr() (exact).
fn float(v: &Value) -> f64 {
    v.as_str().unwrap().parse().unwrap()
}

/// Checks one value against EventMultiplexer's record of it.
fn check_value(v: &EventValue, want: &Value, what: &str) {
    assert_eq!(v.step, want["step"].as_i64().unwrap(), "{what}");
    assert_eq!(v.wall_time, float(&want["wall_time"]), "{what}");
    let dtype = dtype_of(want["dtype"].as_str().unwrap());
    assert_eq!(v.value.dtype(), dtype, "{what}");
    let shape: Vec<i64> = want["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_i64().unwrap())
        .collect();
    assert_eq!(v.value.shape().dim_sizes(), shape, "{what}");
    let values = want["values"].as_array().unwrap();
    match dtype {
        DataType::Float => {
            let got: Vec<f64> = v
                .value
                .as_slice::<f32>()
                .unwrap()
                .iter()
                .map(|&x| f64::from(x))
                .collect();
            let exp: Vec<f64> = values.iter().map(float).collect();
            assert_eq!(got, exp, "{what}");
        }
        DataType::Double => {
            let exp: Vec<f64> = values.iter().map(float).collect();
            assert_eq!(v.value.as_slice::<f64>().unwrap(), exp.as_slice(), "{what}");
        }
        DataType::Int32 => {
            let exp: Vec<i32> = values.iter().map(|x| x.as_i64().unwrap() as i32).collect();
            assert_eq!(v.value.as_slice::<i32>().unwrap(), exp.as_slice(), "{what}");
        }
        DataType::String => {
            let got: Vec<String> = v
                .value
                .as_slice::<Bytes>()
                .unwrap()
                .iter()
                .map(hex::encode)
                .collect();
            let exp: Vec<&str> = values.iter().map(|x| x.as_str().unwrap()).collect();
            assert_eq!(got, exp, "{what}");
        }
        _ => unreachable!(),
    }
}

/// Every summary value of `logdir` equals what EventMultiplexer read, run by
/// run and tag by tag, with the same plugin and data class.
fn check_logdir(name: &str) -> Vec<EventValue> {
    let expected = json(&format!("{name}.json"));
    let values = read_all(&data(name));
    let mut got: BTreeMap<(String, String), Vec<&EventValue>> = BTreeMap::new();
    for v in values.iter().filter(|v| v.kind.is_summary()) {
        got.entry((v.run.to_string(), v.tag.to_string()))
            .or_default()
            .push(v);
    }
    let mut want_count = 0;
    for (run, tags) in expected.as_object().unwrap() {
        for (tag, want) in tags.as_object().unwrap() {
            want_count += 1;
            let what = format!("{name}: run {run} tag {tag}");
            let got = got
                .get(&(run.clone(), tag.clone()))
                .unwrap_or_else(|| panic!("{what}: missing"));
            let events = want["events"].as_array().unwrap();
            assert_eq!(got.len(), events.len(), "{what}");
            for (v, w) in got.iter().zip(events) {
                assert_eq!(
                    &*v.plugin_name,
                    want["plugin_name"].as_str().unwrap(),
                    "{what}"
                );
                assert_eq!(
                    v.data_class as i64,
                    want["data_class"].as_i64().unwrap(),
                    "{what}"
                );
                check_value(v, w, &what);
            }
        }
    }
    assert_eq!(
        got.len(),
        want_count,
        "{name}: tags we read that TensorBoard did not"
    );
    values
}

#[test]
fn tf2_summaries_read_as_tensorboard_reads_them() {
    let values = check_logdir("tf2");
    // The first record is the file version.
    assert_eq!(values[0].kind, Kind::FileVersion);
    assert_eq!(values[0].value, Tensor::from("brain.Event:2"));
    let kind = |tag: &str| values.iter().find(|v| &*v.tag == tag).unwrap().kind;
    assert_eq!(kind("loss"), Kind::Scalar);
    assert_eq!(kind("weights"), Kind::Histogram);
    assert_eq!(kind("note"), Kind::Text);
    assert_eq!(kind("img"), Kind::Image);
    assert_eq!(kind("raw_tensor"), Kind::Tensor);
    assert_eq!(kind("sound"), Kind::Audio);
    let loss: Vec<f32> = values
        .iter()
        .filter(|v| &*v.tag == "loss")
        .map(|v| v.value.scalar::<f32>().unwrap()[()])
        .collect();
    assert_eq!(loss, [1.0, 0.5, 1.0 / 3.0, 0.25]);
}

#[test]
fn tf1_summaries_migrate_as_data_compat_does() {
    let values = check_logdir("tf1");
    let kind = |tag: &str| values.iter().find(|v| &*v.tag == tag).unwrap().kind;
    assert_eq!(kind("acc"), Kind::Scalar);
    assert_eq!(kind("h"), Kind::Histogram);
    assert_eq!(kind("pic/image/0"), Kind::Image);
    assert_eq!(kind("__run_graph__"), Kind::Graph);
    assert_eq!(kind("snd/audio/0"), Kind::Audio);
    assert_eq!(kind("step6"), Kind::RunMetadata);
    // The session log is kept, raw.
    let log = values.iter().find(|v| v.kind == Kind::SessionLog).unwrap();
    let log = pb::SessionLog::decode(log.value.scalar::<Bytes>().unwrap()[()].clone()).unwrap();
    assert_eq!(
        (log.status, log.checkpoint_path.as_str()),
        (pb::session_log::SessionStatus::Checkpoint as i32, "ckpt-6")
    );
    // A TF1 histogram: float32 rows, empty end buckets dropped.
    let h = values.iter().find(|v| &*v.tag == "h").unwrap();
    assert_eq!(h.value.dtype(), DataType::Float);
    assert_eq!(h.value.dim_size(1).unwrap(), 3);
    // The graph is a GraphDef, kept whole.
    let g = values.iter().find(|v| v.kind == Kind::Graph).unwrap();
    assert_eq!(g.value.shape().dim_sizes(), [1]);
}

#[test]
fn runs_are_named_by_directory() {
    check_logdir("runs");
    let runs: Vec<String> = tftensor::events::discover(data("runs"))
        .unwrap()
        .into_iter()
        .map(|r| r.run)
        .collect();
    assert_eq!(runs, ["eval/sub", "train"]);
    // One file opened directly is run ".".
    let file = only_file(&data("tf2"));
    assert!(read_all(&file).iter().all(|v| &*v.run == "."));
}

#[test]
fn series_stack_each_tag() {
    let all = series(data("runs")).unwrap();
    let names: Vec<(&str, &str)> = all
        .iter()
        .map(|s| (s.run.as_str(), s.tag.as_str()))
        .collect();
    assert_eq!(names, [("eval/sub", "metric"), ("train", "metric")]);
    let train = &all[1];
    assert_eq!(train.steps, [0, 10, 20]);
    assert_eq!(train.kind, Kind::Scalar);
    let SeriesValues::Stacked(t) = &train.values else {
        panic!("not stacked")
    };
    assert_eq!(t.shape().dim_sizes(), [3]);
    assert_eq!(t.as_slice::<f32>().unwrap(), &[0.0, 1.0, 2.0]);

    // tf2: histograms of one bucket count stack to [n, k, 3]; text of
    // different shapes does not stack.
    let all = series(data("tf2")).unwrap();
    let find = |tag: &str| all.iter().find(|s| s.tag == tag).unwrap();
    let SeriesValues::Stacked(w) = &find("weights").values else {
        panic!()
    };
    assert_eq!(w.shape().dim_sizes(), [2, 30, 3]);
    assert_eq!(find("weights").steps, [0, 7]);
    let SeriesValues::Stacked(img) = &find("img").values else {
        panic!()
    };
    assert_eq!(img.dtype(), DataType::String);

    let infos = list(data("tf2")).unwrap();
    assert_eq!(infos.len(), all.len());
    for (info, s) in infos.iter().zip(&all) {
        assert_eq!((&info.run, &info.tag, info.kind), (&s.run, &s.tag, s.kind));
        assert_eq!(info.count, s.steps.len());
        assert_eq!(
            (info.first_step, info.last_step),
            (s.steps[0], *s.steps.last().unwrap())
        );
    }
}

/// Copies the tf2 fixture file to a scratch dir, changed by `f`.
fn damaged(name: &str, f: impl FnOnce(&mut Vec<u8>)) -> (PathBuf, PathBuf) {
    let src = only_file(&data("tf2"));
    let dir = scratch(name);
    let path = dir.join(src.file_name().unwrap());
    let mut bytes = std::fs::read(&src).unwrap();
    f(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();
    (dir, path)
}

/// Byte offsets of each record of a file.
fn record_offsets(bytes: &[u8]) -> Vec<usize> {
    let mut offsets = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        offsets.push(at);
        let len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
        at += 12 + len + 4;
    }
    offsets
}

#[test]
fn a_truncated_last_record_ends_cleanly() {
    let whole = read_all(&only_file(&data("tf2")));
    let bytes = std::fs::read(only_file(&data("tf2"))).unwrap();
    let offsets = record_offsets(&bytes);
    let last = *offsets.last().unwrap();
    // Cut inside the header, the data and the footer of the last record.
    for cut in [last + 1, last + 11, last + 12, last + 20, bytes.len() - 1] {
        let (dir, path) = damaged(&format!("trunc{cut}"), |b| b.truncate(cut));
        let mut reader = EventReader::open(&dir).unwrap();
        let got: Vec<EventValue> = reader.by_ref().collect::<Result<_, _>>().unwrap();
        assert_eq!(got, whole[..whole.len() - 1], "cut at {cut}");
        assert_eq!(reader.truncated(), [(path, last as u64)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_bad_crc_is_data_loss_naming_file_and_offset() {
    let bytes = std::fs::read(only_file(&data("tf2"))).unwrap();
    let offsets = record_offsets(&bytes);
    let third = offsets[3];
    // A flipped byte in the data of record 3, and in its length.
    for (at, what) in [
        (third + 14, "data checksum mismatch"),
        (third + 2, "length checksum mismatch"),
    ] {
        let (dir, path) = damaged(&format!("crc{at}"), |b| b[at] ^= 0x40);
        let results: Vec<_> = EventReader::open(&dir).unwrap().collect();
        let ok = results.iter().filter(|r| r.is_ok()).count();
        let Some(Err(err)) = results.last() else {
            panic!("no error")
        };
        assert!(matches!(err, Error::DataLoss { .. }), "{err:?}");
        let msg = err.to_string();
        assert!(msg.contains(&path.display().to_string()), "{msg}");
        assert!(msg.contains("corrupted record"), "{msg}");
        assert_eq!(err.location().and_then(|at| at.offset), Some(third as u64));
        assert_eq!(err.key(), Some("record 3"));
        assert!(msg.contains(what), "{msg}");
        // Records 0..3 came out: the file version and three values.
        assert_eq!(ok, 3, "{msg}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_garbage_file_is_an_error() {
    let dir = scratch("garbage");
    let junk: Vec<u8> = (0..500u32).map(|i| (i * 37 % 251) as u8).collect();
    std::fs::write(dir.join("events.out.tfevents.0.junk"), &junk).unwrap();
    let results: Vec<_> = EventReader::open(&dir).unwrap().collect();
    assert!(
        matches!(results.as_slice(), [Err(Error::DataLoss { .. })]),
        "{results:?}"
    );
    // A record whose data is not an Event: data loss at its offset.
    let mut w = tftensor::tfrecord::RecordWriter::create(
        dir.join("events.out.tfevents.0.junk"),
        Compression::None,
    )
    .unwrap();
    w.write_record(&[0xff, 0xff, 0xff]).unwrap();
    w.finish().unwrap();
    let err = EventReader::open(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap_err();
    assert!(matches!(err, Error::DataLoss { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains("does not decode as an Event"), "{msg}");
    assert!(msg.contains("events.out.tfevents.0.junk"), "{msg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn written_files_read_back_and_carry_metadata_once() {
    let dir = scratch("write");
    let mut w = SummaryWriter::create(dir.join("run1")).unwrap();
    let png = [0x89u8, b'P', b'N', b'G', 1, 2, 3];
    for step in 0..3 {
        w.add_scalar("loss", step, step as f32 * 0.5).unwrap();
    }
    w.add_histogram("w", 4, &[1.0, 2.0, 2.0, 5.0], 4).unwrap();
    w.add_text("t", 5, "hi").unwrap();
    w.add_image("i", 6, &png, 7, 9).unwrap();
    let raw = Tensor::from_vec([2], vec![1i64, -2]).unwrap();
    w.add_tensor("raw", 7, &raw, None).unwrap();
    let path = w.path().to_path_buf();
    drop(w); // flushes

    let values = read_all(&dir);
    assert_eq!(values.len(), 1 + 3 + 4);
    assert!(values.iter().all(|v| &*v.run == "run1"));
    let v = &values[1..];
    assert_eq!(
        (&*v[2].tag, v[2].step, v[2].kind),
        ("loss", 2, Kind::Scalar)
    );
    assert_eq!(v[2].value, Tensor::from(1.0f32));
    assert_eq!(v[3].kind, Kind::Histogram);
    assert_eq!(
        v[3].value,
        histogram_buckets(&[1.0, 2.0, 2.0, 5.0], 4).unwrap()
    );
    assert_eq!(v[3].value.as_slice::<f64>().unwrap()[..3], [1.0, 2.0, 1.0]);
    assert_eq!((v[4].kind, &v[4].value), (Kind::Text, &Tensor::from("hi")));
    assert_eq!(v[5].kind, Kind::Image);
    let blobs = vec![
        Bytes::from("7"),
        Bytes::from("9"),
        Bytes::copy_from_slice(&png),
    ];
    assert_eq!(v[5].value, Tensor::from_vec([3], blobs).unwrap());
    assert_eq!(
        (v[6].kind, &v[6].value, &*v[6].plugin_name),
        (Kind::Tensor, &raw, "")
    );

    // Metadata on the first value of each tag only; the file version first.
    let records: Vec<Vec<u8>> = RecordReader::open(&path, Compression::None)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let events: Vec<pb::Event> = records
        .iter()
        .map(|r| pb::Event::decode(r.as_slice()).unwrap())
        .collect();
    assert_eq!(
        events[0].what,
        Some(pb::event::What::FileVersion("brain.Event:2".into()))
    );
    assert_eq!(events[0].wall_time.fract(), 0.0);
    let has_metadata: Vec<bool> = events[1..]
        .iter()
        .map(|e| match &e.what {
            Some(pb::event::What::Summary(s)) => s.value[0].metadata.is_some(),
            _ => panic!("not a summary"),
        })
        .collect();
    assert_eq!(has_metadata, [true, false, false, true, true, true, false]);
    // A scalar record is TF's: DT_FLOAT, shape {}, 4-byte tensor_content.
    let Some(pb::event::What::Summary(s)) = &events[2].what else {
        panic!()
    };
    let Some(pb::summary::value::Value::Tensor(t)) = &s.value[0].value else {
        panic!()
    };
    assert_eq!(
        t.encode_to_vec(),
        [0x08, 0x01, 0x12, 0x00, 0x22, 0x04, 0, 0, 0, 0x3f]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn histogram_buckets_follow_tensorboard() {
    // summary_v2._buckets([0, .5, 1, 1, 2], 3), as in the observed TF file.
    let t = histogram_buckets(&[0.0, 0.5, 1.0, 1.0, 2.0], 3).unwrap();
    let third = 2.0 / 3.0;
    assert_eq!(
        t.as_slice::<f64>().unwrap(),
        &[
            0.0,
            third,
            2.0,
            third,
            2.0 * third,
            2.0,
            2.0 * third,
            2.0,
            1.0
        ]
    );
    // One distinct value: k buckets [v, v], the count in the last.
    let t = histogram_buckets(&[3.0, 3.0], 2).unwrap();
    assert_eq!(
        t.as_slice::<f64>().unwrap(),
        &[3.0, 3.0, 0.0, 3.0, 3.0, 2.0]
    );
    // No data: k zero rows; no buckets: [0, 3].
    assert_eq!(
        histogram_buckets(&[], 2)
            .unwrap()
            .as_slice::<f64>()
            .unwrap(),
        &[0.0; 6]
    );
    assert_eq!(
        histogram_buckets(&[1.0], 0).unwrap().shape().dim_sizes(),
        [0, 3]
    );
}

/// The series of a path as grouping `EventReader`'s values gives them:
/// `(kind, plugin, steps, wall times, values)` per `(run, tag)`.
type Grouped = BTreeMap<(String, String), (Kind, String, Vec<i64>, Vec<f64>, Vec<Tensor>)>;

fn grouped(path: &Path) -> Result<Grouped, Error> {
    let mut out = Grouped::new();
    for v in EventReader::open(path)? {
        let v = v?;
        if !v.kind.is_summary() {
            continue;
        }
        let g = out
            .entry((v.run.to_string(), v.tag.to_string()))
            .or_insert_with(|| (v.kind, v.plugin_name.to_string(), vec![], vec![], vec![]));
        g.2.push(v.step);
        g.3.push(v.wall_time);
        g.4.push(v.value);
    }
    Ok(out)
}

/// `series` and `list` of `path` (the columnar path) give exactly what
/// grouping `EventReader`'s values gives, or the same error. The number of
/// values.
fn columnar_matches_reader(path: &Path) -> usize {
    let (got, want) = match (series(path), grouped(path)) {
        (Ok(got), Ok(want)) => (got, want),
        (Err(got), Err(want)) => {
            assert_eq!(got.to_string(), want.to_string());
            assert_eq!(got, want);
            assert_eq!(list(path).unwrap_err(), want);
            return 0;
        }
        (got, want) => panic!("{}: {got:?} but {want:?}", path.display()),
    };
    assert_eq!(got.len(), want.len(), "{}", path.display());
    let bits = |w: &[f64]| w.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let mut n = 0;
    for (s, ((run, tag), (kind, plugin, steps, walls, values))) in got.iter().zip(&want) {
        let what = format!("{}: {run} {tag}", path.display());
        assert_eq!(
            (&s.run, &s.tag, &s.kind, &s.plugin_name),
            (run, tag, kind, plugin),
            "{what}"
        );
        assert_eq!(&s.steps, steps, "{what}");
        assert_eq!(bits(&s.wall_times), bits(walls), "{what}");
        let first = &values[0];
        let same = values
            .iter()
            .all(|v| v.dtype() == first.dtype() && v.shape() == first.shape());
        match &s.values {
            SeriesValues::Stacked(t) => {
                assert!(same, "{what}");
                assert_eq!(t.dtype(), first.dtype(), "{what}");
                let mut dims = vec![values.len() as i64];
                dims.extend(first.shape().dim_sizes());
                assert_eq!(t.shape().dim_sizes(), dims, "{what}");
                for (i, v) in values.iter().enumerate() {
                    assert_eq!(&t.sub_slice(i as i64).unwrap(), v, "{what} [{i}]");
                }
            }
            SeriesValues::Ragged(ts) => {
                assert!(!same, "{what}");
                assert_eq!(ts, values, "{what}");
            }
        }
        n += values.len();
    }
    let infos = list(path).unwrap();
    assert_eq!(infos.len(), got.len(), "{}", path.display());
    for (info, s) in infos.iter().zip(&got) {
        assert_eq!(
            (&info.run, &info.tag, info.kind, info.count),
            (&s.run, &s.tag, s.kind, s.steps.len())
        );
        assert_eq!(
            (info.first_step, info.last_step),
            (s.steps[0], *s.steps.last().unwrap())
        );
    }
    n
}

#[test]
fn columnar_series_equal_the_readers_on_the_fixtures() {
    let mut n = 0;
    for name in ["tf2", "tf1", "runs", "runs/train", "runs/eval/sub"] {
        n += columnar_matches_reader(&data(name));
    }
    let files = [only_file(&data("tf2")), only_file(&data("tf1"))];
    for file in &files {
        n += columnar_matches_reader(file);
    }
    // tf2: 18 values (twice, as a directory and as its file), tf1: 10
    // (twice), runs: 6 (and 3 + 3 by run), as in the fixtures' JSON.
    assert_eq!(n, 2 * 18 + 2 * 10 + 6 + 3 + 3);

    // Truncated in the last record's header, data and footer; then damaged.
    for (k, file) in files.iter().enumerate() {
        let bytes = std::fs::read(file).unwrap();
        let offsets = record_offsets(&bytes);
        let last = *offsets.last().unwrap();
        let whole = columnar_matches_reader(file);
        for cut in [last + 1, last + 11, last + 12, last + 20, bytes.len() - 1] {
            let dir = scratch(&format!("col-trunc{k}-{cut}"));
            std::fs::write(dir.join(file.file_name().unwrap()), &bytes[..cut]).unwrap();
            let n = columnar_matches_reader(&dir);
            // The last record holds one value.
            assert_eq!(n, whole - 1, "cut at {cut}");
            std::fs::remove_dir_all(&dir).unwrap();
        }
        for at in [offsets[3] + 14, offsets[3] + 2, offsets[2] + 13] {
            let dir = scratch(&format!("col-crc{k}-{at}"));
            let mut bad = bytes.clone();
            bad[at] ^= 0x40;
            std::fs::write(dir.join(file.file_name().unwrap()), &bad).unwrap();
            assert_eq!(columnar_matches_reader(&dir), 0);
            let err = series(&dir).unwrap_err();
            assert!(err.to_string().contains("corrupted record"), "{err}");
            let offset = err.location().and_then(|l| l.offset).unwrap() as usize;
            assert!(offset == offsets[3] || offset == offsets[2], "{err}");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
    // A last header with a good CRC declaring nearly 2^64 bytes: truncated.
    let dir = scratch("col-huge");
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let whole = columnar_matches_reader(&files[0]);
    let len = (u64::MAX - 13).to_le_bytes();
    bytes.extend(len);
    bytes.extend(tftensor::crc32c::masked(&len).to_le_bytes());
    bytes.extend([7; 40]);
    std::fs::write(dir.join(files[0].file_name().unwrap()), &bytes).unwrap();
    assert_eq!(columnar_matches_reader(&dir), whole);
    std::fs::remove_dir_all(&dir).unwrap();
    // Not an event file at all.
    let dir = scratch("col-garbage");
    let junk: Vec<u8> = (0..500u32).map(|i| (i * 37 % 251) as u8).collect();
    std::fs::write(dir.join("events.out.tfevents.0.junk"), &junk).unwrap();
    assert_eq!(columnar_matches_reader(&dir), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn columnar_series_across_read_chunks_and_dtypes() {
    let dir = scratch("col-big");
    let mut w = SummaryWriter::create(dir.join("run")).unwrap();
    let double = Tensor::from(0.25f64);
    // A scalar tag written first without metadata is a plain tensor tag.
    w.add_tensor("late", 0, &Tensor::from(7.0f32), None)
        .unwrap();
    // 80,000 scalars, round robin over 3 tags and in a run of one: more
    // than one 256 KiB read, so records straddle the reads.
    for step in 0..20_000i64 {
        for tag in ["a", "b/c", "d"] {
            w.add_scalar(tag, step, step as f32 * 0.5).unwrap();
        }
        if step == 10_000 {
            // Longer than the read buffer: it grows.
            w.add_text("big", step, &"x".repeat(5 << 20)).unwrap();
            // A float64 scalar amid float32 ones: that series goes ragged.
            w.add_tensor("a", step, &double, None).unwrap();
            w.add_scalar("late", step, -1.0).unwrap();
        }
    }
    for step in 0..20_000i64 {
        w.add_scalar("solo", step, f32::NAN).unwrap();
    }
    w.close().unwrap();
    assert_eq!(columnar_matches_reader(&dir), 80_000 + 4);

    let all = series(&dir).unwrap();
    let tags: Vec<(&str, &str, Kind)> = all
        .iter()
        .map(|s| (s.run.as_str(), s.tag.as_str(), s.kind))
        .collect();
    assert_eq!(
        tags,
        [
            ("run", "a", Kind::Scalar),
            ("run", "b/c", Kind::Scalar),
            ("run", "big", Kind::Text),
            ("run", "d", Kind::Scalar),
            ("run", "late", Kind::Tensor),
            ("run", "solo", Kind::Scalar),
        ]
    );
    let SeriesValues::Ragged(a) = &all[0].values else {
        panic!("a stacked")
    };
    assert_eq!(a.len(), 20_001);
    assert_eq!(
        (&a[10_001], &a[10_002]),
        (&double, &Tensor::from(5000.5f32))
    );
    assert_eq!(all[0].steps[10_000..10_003], [10_000, 10_000, 10_001]);
    let SeriesValues::Stacked(bc) = &all[1].values else {
        panic!("b/c ragged")
    };
    let want: Vec<f32> = (0..20_000).map(|s| s as f32 * 0.5).collect();
    assert_eq!(bc.as_slice::<f32>().unwrap(), want.as_slice());
    assert_eq!(all[1].steps, (0..20_000).collect::<Vec<i64>>());
    let SeriesValues::Stacked(late) = &all[4].values else {
        panic!("late ragged")
    };
    assert_eq!(late.as_slice::<f32>().unwrap(), &[7.0, -1.0]);
    let SeriesValues::Stacked(solo) = &all[5].values else {
        panic!("solo ragged")
    };
    assert!(solo.as_slice::<f32>().unwrap().iter().all(|x| x.is_nan()));
    std::fs::remove_dir_all(&dir).unwrap();
}
