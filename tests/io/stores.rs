//! Formats read from bytes that are not a local file: each fixture served
//! by an in-memory store ([`MemStore`]), as `BytesBlob`s or as `Window`s of
//! a larger buffer (a STORED zip member's shape), through the adapters
//! (`io::detect_in`, `Located::in_store`). And a counting blob showing what
//! a listing reads.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tftensor::io::{
    self, Blob, BytesBlob, Format, Item, Located, OpenOptions, RangeRead, Stat, Store,
    TensorSource, Window,
};
use tftensor::{Error, Result, Tensor};

use super::data;

/// Files in memory, keyed by `/`-separated names; folders are the
/// prefixes. Each file is a `BytesBlob`, or (`windowed`) a `Window` of a
/// buffer with other bytes before and after it.
#[derive(Debug, Default)]
pub struct MemStore {
    files: BTreeMap<String, Arc<dyn Blob>>,
    /// Bytes read through `open`ed blobs, and reads made.
    pub counter: Arc<Counter>,
}

#[derive(Debug, Default)]
pub struct Counter {
    pub bytes: AtomicU64,
    pub reads: AtomicU64,
}

impl MemStore {
    pub fn add(&mut self, key: &str, bytes: Vec<u8>, windowed: bool) {
        let blob: Arc<dyn Blob> = if windowed {
            let mut framed = vec![0xa5u8; 37];
            framed.extend(&bytes);
            framed.extend([0x5au8; 11]);
            let whole = Arc::new(BytesBlob::new(format!("mem://{key}#outer"), framed));
            Arc::new(Window::new(whole, 37, bytes.len() as u64, format!("mem://{key}")).unwrap())
        } else {
            Arc::new(BytesBlob::new(format!("mem://{key}"), bytes))
        };
        self.files.insert(key.to_owned(), blob);
    }

    /// Every file under the local folder `dir`, as `prefix/RELATIVE`.
    pub fn add_tree(&mut self, dir: &Path, prefix: &str, windowed: bool) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            let key = format!("{prefix}/{name}");
            if entry.file_type().unwrap().is_dir() {
                self.add_tree(&entry.path(), &key, windowed);
            } else {
                self.add(&key, std::fs::read(entry.path()).unwrap(), windowed);
            }
        }
    }
}

/// A blob that counts what is read from it.
#[derive(Debug)]
struct Counted {
    inner: Arc<dyn Blob>,
    counter: Arc<Counter>,
}

impl Blob for Counted {
    fn id(&self) -> &str {
        self.inner.id()
    }
    fn len(&self) -> u64 {
        self.inner.len()
    }
    fn read_at(&self, offset: u64, dst: &mut [u8]) -> Result<()> {
        self.counter.reads.fetch_add(1, Ordering::Relaxed);
        self.counter
            .bytes
            .fetch_add(dst.len() as u64, Ordering::Relaxed);
        self.inner.read_at(offset, dst)
    }
    fn read_ranges(&self, reads: Vec<RangeRead<'_>>) -> Result<Vec<Option<u32>>> {
        for r in &reads {
            self.counter.reads.fetch_add(1, Ordering::Relaxed);
            self.counter
                .bytes
                .fetch_add(r.dst.len() as u64, Ordering::Relaxed);
        }
        self.inner.read_ranges(reads)
    }
}

impl Store for MemStore {
    fn id(&self, key: &str) -> String {
        format!("mem://{key}")
    }

    fn stat(&self, key: &str) -> Result<Stat> {
        if let Some(b) = self.files.get(key) {
            return Ok(Stat::File { len: b.len() });
        }
        let dir = format!("{key}/");
        Ok(if self.files.keys().any(|k| k.starts_with(&dir)) {
            Stat::Dir
        } else {
            Stat::Missing
        })
    }

    fn open(&self, key: &str) -> Result<Arc<dyn Blob>> {
        let inner = self.files.get(key).cloned().ok_or_else(|| {
            Error::io(
                self.id(key),
                std::io::Error::from(std::io::ErrorKind::NotFound),
            )
        })?;
        Ok(Arc::new(Counted {
            inner,
            counter: self.counter.clone(),
        }))
    }

    fn list(&self, key: &str) -> Result<Vec<Item>> {
        let dir = format!("{key}/");
        let mut items: BTreeMap<String, Stat> = BTreeMap::new();
        for (k, b) in &self.files {
            let Some(rest) = k.strip_prefix(&dir) else {
                continue;
            };
            match rest.split_once('/') {
                Some((sub, _)) => items.insert(sub.to_owned(), Stat::Dir),
                None => items.insert(rest.to_owned(), Stat::File { len: b.len() }),
            };
        }
        Ok(items
            .into_iter()
            .map(|(name, stat)| Item::new(name, stat))
            .collect())
    }

    fn join(&self, dir: &str, name: &str) -> String {
        format!("{dir}/{name}")
    }

    fn split(&self, key: &str) -> (String, String) {
        match key.rsplit_once('/') {
            Some((d, n)) => (d.to_owned(), n.to_owned()),
            None => (String::new(), key.to_owned()),
        }
    }
}

fn store_of(files: &[(&str, &str)], windowed: bool) -> Arc<MemStore> {
    let mut s = MemStore::default();
    for (key, fixture) in files {
        s.add(key, std::fs::read(data(fixture)).unwrap(), windowed);
    }
    Arc::new(s)
}

/// Every entry of `key` in `store` and of the local fixture, read both
/// ways: the same names, dtypes, shapes and values.
fn same_as_local(store: Arc<MemStore>, key: &str, fixture: &str) -> Box<dyn TensorSource> {
    let at = io::detect_in(store, key.to_owned()).unwrap();
    let mut mem = io::open_located(&at, &OpenOptions::default()).unwrap();
    let mut local = io::open(data(fixture)).unwrap();
    assert_eq!(mem.format(), local.format(), "{fixture}");
    assert_eq!(mem.entries(), local.entries(), "{fixture}");
    assert!(!mem.entries().is_empty(), "{fixture}");
    for i in 0..mem.entries().len() {
        assert_eq!(
            mem.read(i).unwrap(),
            local.read(i).unwrap(),
            "{fixture} {i}"
        );
    }
    assert_eq!(mem.metadata(), local.metadata(), "{fixture}");
    mem
}

#[test]
fn tfrecords_of_tensors_and_examples_read_from_memory() {
    for windowed in [false, true] {
        for f in [
            "tensors.tfrecord",
            "tensors.gzip.tfrecord",
            "tensors.zlib.tfrecord",
            "examples.tfrecord",
            "examples.gzip.tfrecord",
        ] {
            let fixture = format!("tfrecord/{f}");
            let store = store_of(&[(&format!("d/{f}"), &fixture)], windowed);
            let mem = same_as_local(store, &format!("d/{f}"), &fixture);
            assert_eq!(mem.format(), Format::TFRECORD);
        }
    }
}

#[test]
fn keras_files_read_from_memory() {
    for windowed in [false, true] {
        for f in ["seq.keras", "seq.weights.h5", "k2.h5", "userblock.h5"] {
            let fixture = format!("keras/{f}");
            let store = store_of(&[(&format!("m/{f}"), &fixture)], windowed);
            same_as_local(store, &format!("m/{f}"), &fixture);
        }
        // A sharded save: the manifest's shards come through the store.
        let mut files = vec![(
            "m/shard.weights.json".to_owned(),
            "keras/shard.weights.json".to_owned(),
        )];
        for i in 0..4 {
            let name = format!("shard_0000{i}.weights.h5");
            files.push((format!("m/{name}"), format!("keras/{name}")));
        }
        let files: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        same_as_local(
            store_of(&files, windowed),
            "m/shard.weights.json",
            "keras/shard.weights.json",
        );
        // A shard missing from the store is named.
        let err = io::open_located(
            &io::detect_in(
                store_of(&files[..2], windowed),
                "m/shard.weights.json".into(),
            )
            .unwrap(),
            &OpenOptions::default(),
        )
        .err()
        .unwrap();
        assert_eq!(err.kind(), tftensor::ErrorKind::NotFound, "{err}");
        assert_eq!(err.key(), Some("shard_00001.weights.h5"));
    }
}

#[test]
fn graph_defs_and_saved_models_read_from_memory() {
    for windowed in [false, true] {
        let store = store_of(&[("g/frozen_v2.pb", "saved_model/frozen_v2.pb")], windowed);
        same_as_local(store, "g/frozen_v2.pb", "saved_model/frozen_v2.pb");
        let meta = "saved_model/tf1_saver/model.ckpt-5.meta";
        let store = store_of(&[("g/model.ckpt-5.meta", meta)], windowed);
        let src = same_as_local(store, "g/model.ckpt-5.meta", meta);
        assert!(
            src.signatures()
                .unwrap()
                .unwrap()
                .contains("contains the following ops")
        );
        let mut store = MemStore::default();
        store.add_tree(&data("saved_model/module"), "sm", windowed);
        let mem = tftensor::saved_model::SavedModel::open_in(&store, "sm").unwrap();
        let local = tftensor::saved_model::SavedModel::open(data("saved_model/module")).unwrap();
        assert_eq!(mem.show_all().unwrap(), local.show_all().unwrap());
        assert_eq!(mem.singleprint(), local.singleprint());
        let consts =
            |m: &tftensor::saved_model::SavedModel| m.meta_graphs()[0].constants().unwrap();
        assert_eq!(consts(&mem).entries(), consts(&local).entries());
    }
}

#[test]
fn event_logs_read_from_memory() {
    for windowed in [false, true] {
        let mut store = MemStore::default();
        store.add_tree(&data("events/runs"), "logs", windowed);
        same_as_local(Arc::new(store), "logs", "events/runs");
        let mut store = MemStore::default();
        store.add_tree(&data("events/tf2"), "one", windowed);
        let key = store.list("one").unwrap()[0].name.clone();
        let file = format!("one/{key}");
        let values: Vec<_> = tftensor::events::EventReader::open_in(Arc::new(store), &file)
            .unwrap()
            .collect::<Result<_>>()
            .unwrap();
        let local: Vec<_> = tftensor::events::EventReader::open(data("events/tf2").join(&key))
            .unwrap()
            .collect::<Result<_>>()
            .unwrap();
        assert_eq!(values, local);
    }
}

/// Listing a TFRecord of large tensors reads each record's header and
/// first bytes, never its data: a few KiB of a 3 MiB file. Reading one
/// record reads that record.
#[test]
fn listing_tfrecords_reads_only_their_framing() {
    let records: Vec<Tensor> = (0..6)
        .map(|i| Tensor::from_vec([128, 1024], vec![i as f32; 128 * 1024]).unwrap())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("big.tfrecord");
    tftensor::tfrecord::write_tensors(&p, tftensor::tfrecord::Compression::None, &records).unwrap();
    let mut store = MemStore::default();
    store.add("big.tfrecord", std::fs::read(&p).unwrap(), false);
    let store = Arc::new(store);
    let counter = store.counter.clone();
    let at = Located::in_store(Format::TFRECORD, store, "big.tfrecord");
    let mut src = io::open_located(&at, &OpenOptions::default()).unwrap();
    assert_eq!(src.entries().len(), 6);
    let listed = counter.bytes.load(Ordering::Relaxed);
    // A first window of 64 KiB, then a header, 4 KiB and a footer a record.
    assert!(
        listed <= (64 << 10) + 6 * (12 + 4096 + 4),
        "{listed} bytes read to list"
    );
    let record = 12 + 128 * 1024 * 4 + 20;
    src.read(3).unwrap();
    let read = counter.bytes.load(Ordering::Relaxed) - listed;
    assert!(
        read <= record as u64 + 64,
        "{read} bytes read for one record of {record}"
    );
    assert_eq!(src.read(3).unwrap(), records[3]);
}
