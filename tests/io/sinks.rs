//! Sinks write atomically; copy selects, skips and reports bytes.

use tftensor::io::{self, CopyEvent, CopyOptions, Format};
use tftensor::{DataType, Error, Tensor};

use super::data;

/// Every format this build writes, from the rows themselves, with an
/// output name its first extension gives (or, for a format named by
/// layout, a plain name written with `create_as`).
fn formats_that_write_files() -> Vec<(Format, String)> {
    let formats: Vec<(Format, String)> = Format::all()
        .filter(|f| f.can_write())
        .map(|f| match f.extensions().first() {
            Some(ext) => (f, format!("o.{ext}")),
            None => (f, format!("o_{}", f.name())),
        })
        .collect();
    assert!(formats.len() >= 6, "{formats:?}");
    formats
}

/// A small tensor of a dtype `format` holds.
fn small_tensor_for(format: Format) -> Tensor {
    let t = Tensor::from_vec([2, 2], vec![1i32, -2, 3, -4]).unwrap();
    if format.can_hold(t.dtype()) {
        return t;
    }
    let t = Tensor::from_vec([2, 2], vec![1.0f32, -2.0, 3.0, -4.0]).unwrap();
    assert!(format.can_hold(t.dtype()), "{format}");
    t
}

#[test]
fn a_sink_dropped_unfinished_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (format, name) in formats_that_write_files() {
        let p = dir.path().join(&name);
        let mut sink = io::create_as(&p, format).unwrap();
        sink.add("x", &small_tensor_for(format)).unwrap();
        drop(sink);
        assert!(!p.exists(), "{format}");
    }
    // Nor any temporary beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn every_sink_writes_what_its_source_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    for (format, name) in formats_that_write_files() {
        let t = small_tensor_for(format);
        let p = dir.path().join(&name);
        let mut sink = io::create_as(&p, format).unwrap();
        sink.add("x", &t).unwrap();
        sink.finish().unwrap();
        let mut src = io::open(&p).unwrap();
        assert_eq!(src.format(), format, "{name}");
        assert_eq!(src.entries().len(), 1, "{name}");
        assert_eq!(src.read(0).unwrap(), t, "{name}");
    }
}

#[test]
fn copy_reports_progress_in_bytes_and_skips_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.safetensors");
    let mut src = io::open(data("checkpoints/tf2_keras")).unwrap();
    let total: u64 = src
        .entries()
        .iter()
        .filter(|e| e.dtype != DataType::String)
        .filter_map(|e| e.byte_len)
        .sum();
    let mut events = Vec::new();
    let mut on = |e: &CopyEvent<'_>| events.push(format!("{e:?}"));
    let sink = io::create_as(&out, Format::SAFETENSORS).unwrap();
    let opts = CopyOptions::default()
        .skip_unsupported(true)
        .progress(&mut on);
    let report = io::copy(src.as_mut(), sink, opts).unwrap();
    assert_eq!(report.skipped, ["_CHECKPOINTABLE_OBJECT_GRAPH"]);
    assert_eq!(report.bytes, total);
    assert!(events[0].contains("Skipped"), "{events:?}");
    assert_eq!(events[1], format!("Start {{ total_bytes: {total} }}"));
    assert!(
        events
            .last()
            .unwrap()
            .contains(&format!("done_bytes: {total}"))
    );
}

/// Issue 23, fault 9: a one-tensor convert of a large `.npy` reported
/// nothing until the whole tensor was read, so it looked hung. The read now
/// reports as it goes, in steps of up to 64 MiB.
#[test]
fn copy_reports_progress_inside_one_large_tensor() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (
        dir.path().join("big.npy"),
        dir.path().join("big.safetensors"),
    );
    let len: u64 = 130 << 20;
    let big = Tensor::new(DataType::UInt8, [len as usize]).unwrap();
    tftensor::npy::write_npy(&input, &big).unwrap();
    let mut src = io::open(&input).unwrap();
    let mut reading = Vec::new();
    let mut copied = Vec::new();
    let mut on = |e: &CopyEvent<'_>| match *e {
        CopyEvent::Reading { done_bytes, .. } => reading.push(done_bytes),
        CopyEvent::Copied { done_bytes, .. } => copied.push(done_bytes),
        _ => {}
    };
    let sink = io::create_as(&out, Format::SAFETENSORS).unwrap();
    io::copy(src.as_mut(), sink, CopyOptions::default().progress(&mut on)).unwrap();
    // The header's small reads, then the data in 64 MiB steps.
    assert!(reading.windows(2).all(|w| w[0] <= w[1]), "{reading:?}");
    let midway = reading
        .iter()
        .filter(|&&d| d >= 64 << 20 && d < len)
        .count();
    assert!(midway >= 1, "{reading:?}");
    assert_eq!(*reading.last().unwrap(), len);
    assert_eq!(copied, [len]);
}

#[test]
fn copy_refuses_what_the_output_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.safetensors");
    let mut src = io::open(data("checkpoints/tf2_keras")).unwrap();
    let sink = io::create_as(&out, Format::SAFETENSORS).unwrap();
    let err = io::copy(src.as_mut(), sink, CopyOptions::default()).unwrap_err();
    assert!(
        matches!(
            err.inner(),
            Error::UnsupportedDataType {
                dtype: Some(DataType::String),
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(err.key(), Some("_CHECKPOINTABLE_OBJECT_GRAPH"));
    assert!(!out.exists());
}

#[test]
fn can_hold_follows_each_formats_own_table() {
    for &dt in DataType::all() {
        // safetensors: exactly what `save` accepts.
        let dir = tempfile::tempdir().unwrap();
        let t = Tensor::new(dt, [0]);
        if let Ok(t) = t {
            let saved =
                tftensor::safetensors::save(dir.path().join("x.safetensors"), [("x", &t)]).is_ok();
            assert_eq!(saved, Format::SAFETENSORS.can_hold(dt), "{dt}");
            // npy: what reads back as the same dtype.
            let back = tftensor::npy::to_npy_bytes(&t)
                .ok()
                .and_then(|b| tftensor::npy::read_npy_bytes(b.into()).ok())
                .is_some_and(|r| r.dtype() == dt);
            assert_eq!(back, Format::NPY.can_hold(dt), "{dt}");
        }
    }
}

fn mixed_tensors() -> Vec<(String, Tensor)> {
    vec![
        (
            "w".into(),
            Tensor::from_vec([2, 3], vec![1.5f32; 6]).unwrap(),
        ),
        (
            "b".into(),
            Tensor::from_vec([3], vec![half::bf16::from_f32(2.0); 3]).unwrap(),
        ),
        ("step".into(), Tensor::from(7i64)),
        (
            "mask".into(),
            Tensor::from_vec([4], vec![true, false, true, true]).unwrap(),
        ),
        (
            "bytes".into(),
            Tensor::from_vec([5], vec![1u8, 2, 3, 4, 5]).unwrap(),
        ),
        (
            "d".into(),
            Tensor::from_vec([1, 1], vec![-0.25f64]).unwrap(),
        ),
        (
            "empty".into(),
            Tensor::new(DataType::Float, [0, 4]).unwrap(),
        ),
    ]
}

/// A planned safetensors sink writes each tensor in its place as it comes,
/// in any order, and the file is byte-for-byte what `save_with_metadata`
/// (the `safetensors` crate's writer) makes of the same tensors.
#[test]
fn a_planned_safetensors_sink_writes_the_crates_bytes_in_any_order() {
    let dir = tempfile::tempdir().unwrap();
    let tensors = mixed_tensors();
    let metadata = vec![("format".to_string(), "pt".to_string())];
    let reference = dir.path().join("ref.safetensors");
    tftensor::safetensors::save_with_metadata(
        &reference,
        tensors.iter().map(|(n, t)| (n.as_str(), t)),
        &metadata,
    )
    .unwrap();
    let planned = dir.path().join("planned.safetensors");
    let mut sink = io::create_as(&planned, Format::SAFETENSORS).unwrap();
    sink.set_metadata(&metadata);
    let entries: Vec<io::Entry> = tensors
        .iter()
        .map(|(n, t)| io::Entry::new(n.clone(), t.dtype(), t.shape().clone()))
        .collect();
    sink.plan(&entries).unwrap();
    for (n, t) in tensors.iter().rev() {
        sink.add(n, t).unwrap();
    }
    sink.finish().unwrap();
    assert_eq!(
        std::fs::read(&planned).unwrap(),
        std::fs::read(&reference).unwrap()
    );
}

#[test]
fn a_planned_sink_refuses_what_was_not_planned_and_what_never_came() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("o.safetensors");
    let plan = [io::Entry::new(
        "x",
        DataType::Float,
        [2].try_into().unwrap(),
    )];
    let two = Tensor::from_vec([2], vec![1.0f32, 2.0]).unwrap();

    let mut sink = io::create_as(&p, Format::SAFETENSORS).unwrap();
    sink.plan(&plan).unwrap();
    let err = sink.add("y", &two).unwrap_err();
    assert!(matches!(err.inner(), Error::InvalidArgument(_)), "{err}");
    assert_eq!(
        (err.path(), err.key()),
        (Some(&*p.display().to_string()), Some("y"))
    );
    let err = sink
        .add("x", &Tensor::from_vec([2], vec![1i32, 2]).unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("planned as float [2]"), "{err}");
    // Never added: refused, and nothing under the final name.
    let err = sink.finish().unwrap_err();
    assert!(err.to_string().contains("never added"), "{err}");
    assert!(!p.exists());

    // A name given twice, or a dtype safetensors cannot hold, fails the plan.
    let mut sink = io::create_as(&p, Format::SAFETENSORS).unwrap();
    let err = sink.plan(&[plan[0].clone(), plan[0].clone()]).unwrap_err();
    assert!(err.to_string().contains("given twice"), "{err}");
    let mut sink = io::create_as(&p, Format::SAFETENSORS).unwrap();
    let s = io::Entry::new("s", DataType::String, tftensor::TensorShape::scalar());
    let err = sink.plan(&[s]).unwrap_err();
    assert_eq!(err.kind(), tftensor::ErrorKind::UnsupportedDataType);
}

/// Issue 35, fault 4: a one-tensor convert of a big `.npy` into
/// `.tfrecord.gz` showed no progress while the record was compressed (7 s
/// of silence). The sink now reports as it compresses and writes, several
/// times before `add` returns, and copy passes that on as `Writing`.
#[test]
fn a_big_tensor_into_tfrecord_gz_reports_while_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let big = Tensor::from_vec([4 << 20], vec![7u8; 4 << 20]).unwrap();
    let out = dir.path().join("big.tfrecord.gz");
    let mut sink = io::create(&out).unwrap();
    let mut steps = Vec::new();
    sink.add_with_progress("0", &big, &mut |n| steps.push(n))
        .unwrap();
    assert!(steps.len() >= 3, "{steps:?}");
    assert!(steps.iter().sum::<u64>() >= 4 << 20, "{steps:?}");
    sink.finish().unwrap();
    assert_eq!(io::open(&out).unwrap().read(0).unwrap(), big);

    // Through copy: Writing events between the read and Copied.
    let input = dir.path().join("big.npy");
    tftensor::npy::write_npy(&input, &big).unwrap();
    let mut src = io::open(&input).unwrap();
    let mut events = Vec::new();
    let mut on = |e: &CopyEvent<'_>| match *e {
        CopyEvent::Writing { done_bytes, .. } => events.push(("writing", done_bytes)),
        CopyEvent::Copied { done_bytes, .. } => events.push(("copied", done_bytes)),
        _ => {}
    };
    let again = dir.path().join("again.tfrecord.gz");
    let sink = io::create(&again).unwrap();
    io::copy(src.as_mut(), sink, CopyOptions::default().progress(&mut on)).unwrap();
    let len = 4u64 << 20;
    let writing: Vec<u64> = events
        .iter()
        .filter(|(what, _)| *what == "writing")
        .map(|(_, d)| *d)
        .collect();
    assert!(
        writing.iter().filter(|&&d| d < len).count() >= 2,
        "{events:?}"
    );
    assert!(writing.windows(2).all(|w| w[0] <= w[1]), "{events:?}");
    assert_eq!(events.last(), Some(&("copied", len)));
    assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&out).unwrap());
}

/// The sink's own compressing layer writes what the record writer writes
/// for the same records, for every compression.
#[test]
fn the_tfrecord_sink_writes_the_record_writers_bytes() {
    use tftensor::tfrecord::{RecordWriter, serialize_tensor};
    let dir = tempfile::tempdir().unwrap();
    let tensors: Vec<Tensor> = vec![
        Tensor::from_vec([3], vec![1.0f32, 2.0, 3.0]).unwrap(),
        Tensor::from_vec(
            [(5 << 20) / 2],
            (0..(5u32 << 20) / 2).map(|i| (i * 7 % 251) as u8).collect(),
        )
        .unwrap(),
        Tensor::from(7i64),
    ];
    for (name, compression) in [
        ("o.tfrecord", io::Compression::None),
        ("o.tfrecord.gz", io::Compression::Gzip),
        ("o.tfrecord.zz", io::Compression::Zlib),
    ] {
        let p = dir.path().join(name);
        let mut sink = io::create(&p).unwrap();
        for (i, t) in tensors.iter().enumerate() {
            sink.add(&i.to_string(), t).unwrap();
        }
        sink.finish().unwrap();
        let mut w = RecordWriter::new(Vec::new(), compression);
        for t in &tensors {
            w.write_record(&serialize_tensor(t).unwrap()).unwrap();
        }
        assert!(std::fs::read(&p).unwrap() == w.finish().unwrap(), "{name}");
    }
}
