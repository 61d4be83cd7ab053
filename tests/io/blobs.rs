//! Formats read through `io::Blob` from a store that is not the local file
//! system: the same readers serve a file, bytes in memory and a window of
//! a bigger blob (a zip member, an object), and they read what they need
//! by range (a checkpoint's `.index` first, then one range per tensor; a
//! safetensors header, then one tensor's bytes).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;
use tftensor::io::{
    self, Blob, BytesBlob, Format, Item, OpenOptions, RangeRead, Stat, Store, TensorSource, Window,
};
use tftensor::{Result, Tensor};

use super::data;

/// How a [`MemStore`] hands out its files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Bytes in memory: readers take slices (zero copy).
    Bytes,
    /// A window in the middle of a bigger blob that is not mapped: every
    /// read is a ranged read of the bigger blob, counted.
    Window,
}

/// Reads of a blob: requests (a `read_at`, or a `read_ranges` call),
/// ranges and bytes.
#[derive(Debug, Default)]
struct Reads {
    requests: AtomicU64,
    ranges: AtomicU64,
    bytes: AtomicU64,
}

impl Reads {
    fn get(&self) -> (u64, u64, u64) {
        (
            self.requests.load(Ordering::SeqCst),
            self.ranges.load(Ordering::SeqCst),
            self.bytes.load(Ordering::SeqCst),
        )
    }
}

/// A blob that counts its reads and is never mapped (so readers take the
/// ranged path, as from a remote object).
#[derive(Debug)]
struct Counting {
    inner: Arc<dyn Blob>,
    reads: Arc<Reads>,
}

impl Blob for Counting {
    fn id(&self) -> &str {
        self.inner.id()
    }

    fn len(&self) -> u64 {
        self.inner.len()
    }

    fn read_at(&self, offset: u64, dst: &mut [u8]) -> Result<()> {
        self.reads.requests.fetch_add(1, Ordering::SeqCst);
        self.reads.ranges.fetch_add(1, Ordering::SeqCst);
        self.reads
            .bytes
            .fetch_add(dst.len() as u64, Ordering::SeqCst);
        self.inner.read_at(offset, dst)
    }

    fn read_ranges(&self, reads: Vec<RangeRead<'_>>) -> Result<Vec<Option<u32>>> {
        self.reads.requests.fetch_add(1, Ordering::SeqCst);
        self.reads
            .ranges
            .fetch_add(reads.len() as u64, Ordering::SeqCst);
        let bytes: u64 = reads.iter().map(|r| r.dst.len() as u64).sum();
        self.reads.bytes.fetch_add(bytes, Ordering::SeqCst);
        self.inner.read_ranges(reads)
    }
}

/// Files in memory under `/`-separated keys; folders are the keys' prefixes.
#[derive(Debug)]
struct MemStore {
    files: BTreeMap<String, Bytes>,
    kind: Kind,
    /// Every file's reads, by key (for `Kind::Window`).
    reads: std::sync::Mutex<BTreeMap<String, Arc<Reads>>>,
}

impl MemStore {
    /// Every file below the local folder `dir`, under `root/...`.
    fn of_dir(dir: &Path, root: &str, kind: Kind) -> Arc<MemStore> {
        let mut files = BTreeMap::new();
        add_dir(dir, root, &mut files);
        Arc::new(MemStore {
            files,
            kind,
            reads: Default::default(),
        })
    }

    /// The reads of `key` so far.
    fn reads(&self, key: &str) -> (u64, u64, u64) {
        let reads = self.reads.lock().unwrap();
        reads.get(key).map_or((0, 0, 0), |r| r.get())
    }

    /// The reads of every file so far, added up.
    fn all_reads(&self) -> (u64, u64, u64) {
        let reads = self.reads.lock().unwrap();
        reads
            .values()
            .map(|r| r.get())
            .fold((0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
    }
}

fn add_dir(dir: &Path, key: &str, files: &mut BTreeMap<String, Bytes>) {
    for item in std::fs::read_dir(dir).unwrap() {
        let item = item.unwrap();
        let name = item.file_name().to_string_lossy().into_owned();
        let key = format!("{key}/{name}");
        if item.file_type().unwrap().is_dir() {
            add_dir(&item.path(), &key, files);
        } else {
            files.insert(key, Bytes::from(std::fs::read(item.path()).unwrap()));
        }
    }
}

impl Store for MemStore {
    fn id(&self, key: &str) -> String {
        format!("mem://{key}")
    }

    fn stat(&self, key: &str) -> Result<Stat> {
        if let Some(b) = self.files.get(key) {
            return Ok(Stat::File {
                len: b.len() as u64,
            });
        }
        let below = format!("{key}/");
        let dir = self
            .files
            .range(below.clone()..)
            .next()
            .is_some_and(|(k, _)| k.starts_with(&below));
        Ok(if dir { Stat::Dir } else { Stat::Missing })
    }

    fn open(&self, key: &str) -> Result<Arc<dyn Blob>> {
        let Some(bytes) = self.files.get(key) else {
            return Err(tftensor::Error::io(
                self.id(key),
                std::io::Error::from(std::io::ErrorKind::NotFound),
            ));
        };
        match self.kind {
            Kind::Bytes => Ok(Arc::new(BytesBlob::new(self.id(key), bytes.clone()))),
            Kind::Window => {
                // The file 7 bytes into a bigger object, read by range.
                let mut big = vec![0xa5u8; 7];
                big.extend_from_slice(bytes);
                big.extend_from_slice(&[0x5a; 5]);
                let reads = Arc::clone(
                    self.reads
                        .lock()
                        .unwrap()
                        .entry(key.to_owned())
                        .or_default(),
                );
                let object = Arc::new(Counting {
                    inner: Arc::new(BytesBlob::new(self.id(key), big)),
                    reads,
                });
                Ok(Arc::new(Window::new(
                    object,
                    7,
                    bytes.len() as u64,
                    self.id(key),
                )?))
            }
        }
    }

    fn list(&self, key: &str) -> Result<Vec<Item>> {
        let below = format!("{key}/");
        let mut names: BTreeMap<String, Stat> = BTreeMap::new();
        for (k, b) in self.files.range(below.clone()..) {
            let Some(rest) = k.strip_prefix(&below) else {
                break;
            };
            match rest.split_once('/') {
                Some((folder, _)) => names.insert(folder.to_owned(), Stat::Dir),
                None => names.insert(
                    rest.to_owned(),
                    Stat::File {
                        len: b.len() as u64,
                    },
                ),
            };
        }
        Ok(names
            .into_iter()
            .map(|(name, stat)| Item::new(name, stat))
            .collect())
    }

    fn join(&self, dir: &str, name: &str) -> String {
        format!("{dir}/{name}")
    }

    fn split(&self, key: &str) -> (String, String) {
        match key.rsplit_once('/') {
            Some((dir, name)) => (dir.to_owned(), name.to_owned()),
            None => (String::new(), key.to_owned()),
        }
    }
}

/// Every entry and tensor of a source.
fn read_all(src: &mut dyn TensorSource) -> Vec<(String, Tensor)> {
    let names: Vec<String> = src.entries().iter().map(|e| e.name.clone()).collect();
    names
        .into_iter()
        .enumerate()
        .map(|(i, n)| (n, src.read(i).unwrap()))
        .collect()
}

/// Writes a TensorProto file and a TensorProto folder (nested) into `dir`.
fn tensorprotos(dir: &Path) {
    let mut f = io::create(dir.join("one.pb")).unwrap();
    f.add("one", &Tensor::from_vec([3], vec![1i32, 2, 3]).unwrap())
        .unwrap();
    f.finish().unwrap();
    let mut d = io::create(format!("{}/protos/", dir.display())).unwrap();
    d.add("a", &Tensor::from("text")).unwrap();
    d.add(
        "layer/kernel",
        &Tensor::from_vec([2, 2], vec![0.5f64; 4]).unwrap(),
    )
    .unwrap();
    d.finish().unwrap();
}

/// A folder of `.npy` files.
fn npy_folder(dir: &Path) {
    let dir = dir.join("npys");
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["float32.npy", "be_float64.npy", "fortran_f4.npy", "U.npy"] {
        std::fs::copy(data("npy").join(name), dir.join(name)).unwrap();
    }
}

#[test]
fn each_ported_format_reads_the_same_from_bytes_and_from_a_window() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    for (from, to) in [
        ("npy/float32.npy", "float32.npy"),
        ("npy/be_complex64.npy", "be_complex64.npy"),
        ("npy/arrays.npz", "arrays.npz"),
        ("npy/arrays_compressed.npz", "arrays_compressed.npz"),
        (
            "safetensors/all_dtypes.safetensors",
            "all_dtypes.safetensors",
        ),
    ] {
        std::fs::copy(data(from), root.join(to)).unwrap();
    }
    for ckpt in ["tf2_keras", "sharded", "tf1_partitioned", "saved_model"] {
        copy_tree(&data("checkpoints").join(ckpt), &root.join(ckpt));
    }
    tensorprotos(root);
    npy_folder(root);
    let inputs = [
        ("float32.npy", Format::NPY),
        ("be_complex64.npy", Format::NPY),
        ("arrays.npz", Format::NPZ),
        ("arrays_compressed.npz", Format::NPZ),
        ("npys", Format::NPZ),
        ("all_dtypes.safetensors", Format::SAFETENSORS),
        ("tf2_keras", Format::CHECKPOINT),
        ("sharded/ckpt", Format::CHECKPOINT),
        ("tf1_partitioned", Format::CHECKPOINT),
        ("saved_model", Format::CHECKPOINT),
        ("one.pb", Format::TENSORPROTO),
        ("protos", Format::TENSORPROTO_DIR),
    ];
    // `arrays.npz` holds a bfloat16 member (`<V2`).
    let options = OpenOptions::default().with_npy_dtype(tftensor::DataType::BFloat16);
    for kind in [Kind::Bytes, Kind::Window] {
        let store = MemStore::of_dir(root, "m", kind);
        for (input, format) in inputs {
            let want = read_all(&mut *io::open_with(root.join(input), &options).unwrap());
            assert!(!want.is_empty(), "{input}");
            let at = io::detect_in(store.clone(), format!("m/{input}")).unwrap();
            assert_eq!(at.format, format, "{input}");
            let mut src = io::open_located(&at, &options).unwrap();
            assert_eq!(src.path(), Path::new(&at.id()), "{input}");
            assert_eq!(read_all(&mut *src), want, "{input} {kind:?}");
        }
        if kind == Kind::Window {
            assert!(store.all_reads().0 > 0, "the windows were read by range");
        }
    }
}

/// Copies a folder's tree.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for item in std::fs::read_dir(from).unwrap() {
        let item = item.unwrap();
        if item.file_type().unwrap().is_dir() {
            copy_tree(&item.path(), &to.join(item.file_name()));
        } else {
            std::fs::copy(item.path(), to.join(item.file_name())).unwrap();
        }
    }
}

#[test]
fn a_safetensors_tensor_is_read_alone_by_its_range() {
    // The source used to read the whole file on the first read(i).
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("m.safetensors");
    let tensors: Vec<(String, Tensor)> = (0..4)
        .map(|i| {
            let t = Tensor::from_vec([1000 + i], vec![i as f32; 1000 + i]).unwrap();
            (format!("t{i}"), t)
        })
        .collect();
    tftensor::safetensors::save(&path, tensors.iter().map(|(n, t)| (n.as_str(), t))).unwrap();
    let file_len = std::fs::metadata(&path).unwrap().len();
    let store = MemStore::of_dir(tmp.path(), "m", Kind::Window);
    let key = "m/m.safetensors";
    let at = io::detect_in(store.clone(), key.into()).unwrap();
    let reads_after_detect = store.reads(key);
    let mut src = io::open_located(&at, &OpenOptions::default()).unwrap();
    // The listing: one read of the first 64 KiB (the whole small file).
    let (requests, _, bytes) = store.reads(key);
    assert_eq!(requests - reads_after_detect.0, 1);
    assert_eq!(bytes - reads_after_detect.2, file_len.min(64 << 10));
    // Each tensor: one read of exactly its bytes.
    for i in [2usize, 0] {
        let before = store.reads(key);
        let t = src.read(i).unwrap();
        let after = store.reads(key);
        let name = &src.entries()[i].name;
        let want = &tensors.iter().find(|(n, _)| n == name).unwrap().1;
        assert_eq!(&t, want);
        assert_eq!(after.0 - before.0, 1, "one request for {name}");
        assert_eq!(after.2 - before.2, want.total_bytes() as u64, "{name}");
    }
}

#[test]
fn a_checkpoint_reads_its_index_first_then_one_range_per_tensor() {
    let tmp = tempfile::tempdir().unwrap();
    let prefix = tmp.path().join("ckpt");
    let tensors: Vec<(String, Tensor)> = (0..5)
        .map(|i| {
            let n = 3000 + 17 * i;
            (
                format!("layer{i}/w"),
                Tensor::from_vec([n], vec![i as f32 + 0.5; n]).unwrap(),
            )
        })
        .collect();
    let mut w = tftensor::checkpoint::BundleWriter::new(&prefix).unwrap();
    for (k, t) in &tensors {
        w.add(k, t).unwrap();
    }
    w.finish().unwrap();
    let index_len = std::fs::metadata(tmp.path().join("ckpt.index"))
        .unwrap()
        .len();
    let data_len = std::fs::metadata(tmp.path().join("ckpt.data-00000-of-00001"))
        .unwrap()
        .len();
    let store = MemStore::of_dir(tmp.path(), "m", Kind::Window);
    let (index, shard) = ("m/ckpt.index", "m/ckpt.data-00000-of-00001");

    // Open: the `.index`, whole, in one request; nothing of the data.
    let r = tftensor::checkpoint::BundleReader::open_in(store.clone(), "m/ckpt").unwrap();
    assert_eq!(store.reads(index), (1, 1, index_len));
    assert_eq!(store.reads(shard), (0, 0, 0));
    // Each get: one request of exactly the tensor's bytes.
    for (k, t) in &tensors {
        let before = store.reads(shard);
        assert_eq!(&r.get(k).unwrap(), t);
        let after = store.reads(shard);
        assert_eq!(
            (after.0 - before.0, after.1 - before.1, after.2 - before.2),
            (1, 1, t.total_bytes() as u64),
            "{k}"
        );
    }

    // Load: the `.index`, then every tensor of the shard in one call of
    // ranges (in file order: adjacent, for a store to merge), all of the
    // data and nothing twice.
    let store = MemStore::of_dir(tmp.path(), "m", Kind::Window);
    let r = tftensor::checkpoint::BundleReader::load_in(store.clone(), "m/ckpt").unwrap();
    assert_eq!(store.reads(index), (1, 1, index_len));
    assert_eq!(store.reads(shard), (1, tensors.len() as u64, data_len));
    for (k, t) in &tensors {
        assert_eq!(&r.get(k).unwrap(), t);
    }
    assert_eq!(store.reads(shard), (1, tensors.len() as u64, data_len));

    // Through the io adapter: the same index-first plan.
    let store = MemStore::of_dir(tmp.path(), "m", Kind::Window);
    let at = io::detect_in(store.clone(), "m/ckpt".into()).unwrap();
    let detected = store.all_reads();
    let mut src = io::open_located(&at, &OpenOptions::default()).unwrap();
    assert_eq!(store.reads(index).0 - detected.0, 1);
    assert_eq!(store.reads(shard), (0, 0, 0));
    let t = src.read(3).unwrap();
    assert_eq!(t, tensors[3].1);
    assert_eq!(store.reads(shard), (1, 1, t.total_bytes() as u64));
}

#[test]
fn an_npy_is_its_header_then_its_data() {
    let tmp = tempfile::tempdir().unwrap();
    let t = Tensor::from_vec([256, 64], vec![0.25f32; 256 * 64]).unwrap();
    tftensor::npy::write_npy(tmp.path().join("x.npy"), &t).unwrap();
    let store = MemStore::of_dir(tmp.path(), "m", Kind::Window);
    let at = io::detect_in(store.clone(), "m/x.npy".into()).unwrap();
    let detected = store.reads("m/x.npy");
    let mut src = io::open_located(&at, &OpenOptions::default()).unwrap();
    let listed = store.reads("m/x.npy");
    // One small read for the header (a few KiB at most).
    assert_eq!(listed.0 - detected.0, 1);
    assert!(listed.2 - detected.2 <= 4096);
    let mut seen = 0;
    assert_eq!(src.read_with_progress(0, &mut |n| seen += n).unwrap(), t);
    let read = store.reads("m/x.npy");
    // The header again, then the data in one request.
    assert_eq!(read.0 - listed.0, 2);
    assert_eq!(seen, 128 + t.total_bytes() as u64);
}

#[test]
fn an_opaque_npy_or_npz_member_is_read_once() {
    // Read with `npy_dtype`, a `<V2` array used to be read whole once
    // without the dtype (to fail at the end) and then again with it.
    let tmp = tempfile::tempdir().unwrap();
    let t = Tensor::from_vec([65536], vec![half::bf16::from_f32(0.5); 65536]).unwrap();
    tftensor::npy::write_npy(tmp.path().join("b.npy"), &t).unwrap();
    let mut w = tftensor::npy::NpzWriter::create(tmp.path().join("b.npz")).unwrap();
    w.add("b", &t).unwrap();
    w.finish().unwrap();
    let options = OpenOptions::default().with_npy_dtype(tftensor::DataType::BFloat16);
    for key in ["m/b.npy", "m/b.npz"] {
        let store = MemStore::of_dir(tmp.path(), "m", Kind::Window);
        let at = io::detect_in(store.clone(), key.into()).unwrap();
        let mut src = io::open_located(&at, &options).unwrap();
        let before = store.reads(key);
        assert_eq!(src.read(0).unwrap(), t);
        let read = store.reads(key).2 - before.2;
        let len = std::fs::metadata(tmp.path().join(&key[2..])).unwrap().len();
        assert!(read < len + 8192, "{key}: {read} bytes read of {len}");
    }
}
