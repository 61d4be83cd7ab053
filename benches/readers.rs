//! Every file reader against its peers and the memory's limit, interleaved
//! round by round in one run (issue 24).
//!
//! For each size (256 MiB; 1 GiB too in the full mode) it writes a float32
//! `.npy`, a stored `.npz`, a `.safetensors` (16 tensors), a checkpoint
//! (16 tensors, one shard) and a TFRecord file of 1 MiB serialized tensors,
//! then times, once per round and in the same order every round (the
//! start rotating), every row of one table:
//!
//! * ours: `read_npy`, `NpzReader::get`, `safetensors::load`,
//!   `BundleReader::load` / `open` + `get` of every key, `read_tensors`,
//!   each twice: with the read-buffer pool, and "(no pool)" with the pool
//!   off (`set_read_pool_limit(0)`, as `TFTENSOR_READ_POOL_MAX=0`), the
//!   pooled rows of a round first, then the others;
//! * peers: the `safetensors` crate (`fs::read` + `deserialize`), and over a
//!   pipe to `scripts/bench_peers.py` (one Python process, driven call by
//!   call): `np.load`, `safetensors.numpy.load_file`,
//!   `tf.train.load_checkpoint` + `get_tensor`,
//!   `TFRecordDataset.map(parse_tensor)`;
//! * limits: `read()` of the same file into memory faulted in beforehand,
//!   and a memcpy of the same bytes between two faulted buffers, all under
//!   the readers' page policy (huge-page-advised maps);
//! * the mapping paths (`read_npy_mmap`, `safetensors::load_mmap`,
//!   `BundleReader::open_mmap` + get) with every byte then read (a wrapping
//!   sum of 8-byte words), as their own formats ("npy mmap, touched" ...),
//!   against the safetensors crate over `memmap2` and NumPy's
//!   `np.load(mmap_mode="r")` and `sum` doing the same, and a `read()` limit
//!   followed by the same pass: an untouched mapping is O(1) and never
//!   stands for a read.
//!
//! Every timed call reads the whole file from the page cache (warm: one
//! untimed round first) and frees what it made before the clock stops (as
//! the Python peers do when their arrays go out of scope). Reported per
//! row: median and best wall time, GB/s (file bytes / median), median CPU
//! time (user + system of the whole process, all threads: robust to a busy
//! machine, where wall time mostly measures waiting for a core), median
//! minor page faults of the call (`getrusage`), the median 1-minute load
//! average during its calls, and the ratios to the limit and to the best
//! peer of the same format, in wall and in CPU time.
//!
//! ```text
//! cargo bench -p tftensor-benches --bench readers                          # 256 MiB and 1 GiB, 7 rounds
//! TFTENSOR_BENCH_SHORT=1 cargo bench -p tftensor-benches --bench readers   # 8 MiB, 3 rounds, seconds
//! ```
//!
//! `TFTENSOR_PEER_PYTHON` names the Python with the peers (default
//! `.venv-check-tf/bin/python`, the venv `scripts/check_with_tf.sh` makes,
//! when it exists, else `python3`);
//! `TFTENSOR_BENCH_PEERS=0` leaves the Python peers out;
//! `TFTENSOR_BENCH_ROUNDS` overrides the round count, `TFTENSOR_BENCH_MIB=256,1024`
//! the sizes;
//! `TFTENSOR_BENCH_ONLY=checkpoint` keeps the rows of formats containing that text;
//! `TFTENSOR_BENCH_JSON=path` also writes the table as JSON.
//! Under `cargo test --all-targets` (no `--bench`) it runs one small round
//! without Python.

use std::cell::RefCell;
use std::fs::File;
use std::hint::black_box;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::rc::Rc;
use std::time::Instant;

use tftensor::Tensor;
use tftensor::checkpoint::{BundleReader, BundleWriter};
use tftensor::npy::{NpzReader, NpzWriter};
use tftensor::tfrecord::{Compression, read_tensors, write_tensors};

#[path = "common/tflite_model.rs"]
mod tflite_model;

const MIB: usize = 1 << 20;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Full,
    Short,
    Test,
}

fn mode() -> Mode {
    let bench = std::env::args().any(|a| a == "--bench");
    if !bench {
        Mode::Test
    } else if std::env::var("TFTENSOR_BENCH_SHORT").is_ok_and(|v| !v.is_empty() && v != "0") {
        Mode::Short
    } else {
        Mode::Full
    }
}

/// Minor page faults and CPU seconds (user + system, all threads) of
/// this process so far.
fn usage() -> (i64, f64) {
    // SAFETY: an all-zero rusage is a valid value to overwrite.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `ru` is a valid, writable rusage for the call's duration.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
    assert_eq!(rc, 0, "getrusage");
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    (ru.ru_minflt, secs(ru.ru_utime) + secs(ru.ru_stime))
}

/// The 1-minute load average.
fn load1() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(f64::NAN)
}

#[derive(Clone, Copy)]
struct Sample {
    seconds: f64,
    cpu: f64,
    minflt: i64,
    load: f64,
}

fn measure(f: &mut dyn FnMut()) -> Sample {
    let load = load1();
    let (f0, c0) = usage();
    let t = Instant::now();
    f();
    let seconds = t.elapsed().as_secs_f64();
    let (f1, c1) = usage();
    Sample {
        seconds,
        cpu: c1 - c0,
        minflt: f1 - f0,
        load,
    }
}

/// The Python peers' process (scripts/bench_peers.py serve).
struct Peers {
    child: Child,
    tx: ChildStdin,
    rx: BufReader<ChildStdout>,
    versions: String,
}

impl Peers {
    fn start() -> Option<Peers> {
        if std::env::var("TFTENSOR_BENCH_PEERS").is_ok_and(|v| v == "0") {
            return None;
        }
        let python = std::env::var("TFTENSOR_PEER_PYTHON").unwrap_or_else(|_| {
            let venv = ".venv-check-tf/bin/python";
            if Path::new(venv).exists() {
                venv
            } else {
                "python3"
            }
            .to_owned()
        });
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/bench_peers.py");
        let mut child = Command::new(&python)
            .arg(&script)
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| eprintln!("readers: no Python peers ({python}: {e})"))
            .ok()?;
        let tx = child.stdin.take()?;
        let mut rx = BufReader::new(child.stdout.take()?);
        let mut ready = String::new();
        rx.read_line(&mut ready).ok()?;
        let v: serde_json::Value = serde_json::from_str(&ready).ok()?;
        Some(Peers {
            child,
            tx,
            rx,
            versions: v["versions"].to_string(),
        })
    }

    /// One timed call in the Python process: its own clock and faults.
    fn call(&mut self, op: &str, path: &Path) -> Option<Sample> {
        let load = load1();
        let req = serde_json::json!({"op": op, "path": path.display().to_string()});
        writeln!(self.tx, "{req}").ok()?;
        self.tx.flush().ok()?;
        let mut line = String::new();
        self.rx.read_line(&mut line).ok()?;
        let v: serde_json::Value = serde_json::from_str(&line).ok()?;
        if v["ok"] != true {
            eprintln!("readers: peer {op} failed: {}", v["error"]);
            return None;
        }
        Some(Sample {
            seconds: v["seconds"].as_f64()?,
            cpu: v["cpu"].as_f64()?,
            minflt: v["minflt"].as_i64()?,
            load,
        })
    }
}

impl Drop for Peers {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ours,
    Peer,
    Limit,
}

/// How a row runs: in this process (a call a row without the pool
/// shares), or as a Python peer op.
enum Run {
    Local(Rc<RefCell<dyn FnMut()>>),
    Python(&'static str, PathBuf),
}

/// A row's call, in this process.
fn local(f: impl FnMut() + 'static) -> Run {
    Run::Local(Rc::new(RefCell::new(f)))
}

struct Row {
    format: &'static str,
    name: String,
    kind: Kind,
    /// Whether the read-buffer pool is on for this row (a row of ours is
    /// run both ways: with the pool and with `set_read_pool_limit(0)`).
    pool: bool,
    bytes: usize,
    run: Run,
    samples: Vec<Sample>,
}

fn f32_tensor(n: usize, k: usize) -> Tensor {
    let v: Vec<f32> = (0..n)
        .map(|i| ((i % 1013) as f32) * 0.25 - 100.0 + k as f32)
        .collect();
    Tensor::from_vec([n as i64], v).unwrap()
}

fn file_len(p: &Path) -> usize {
    std::fs::metadata(p).unwrap().len() as usize
}

/// Memory faulted in beforehand under the readers' page policy: an
/// anonymous map advised to use huge pages (a `vec!` would get 4 KiB pages
/// where THP is `madvise`, and so measure the page size, not the copy).
fn faulted(len: usize) -> memmap2::MmapMut {
    let mut map = memmap2::MmapMut::map_anon(len.max(1)).unwrap();
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    map.fill(1);
    map
}

/// `read()` of the whole file into memory faulted in beforehand.
fn limit_read(path: PathBuf) -> Box<dyn FnMut()> {
    limit_read_then(path, |buf| {
        black_box(buf);
    })
}

/// Reads every byte once (a wrapping sum of its 8-byte words), so a
/// mapping's row pays for its pages as a read does: an untouched mapping
/// never stands for a read.
fn touch(bytes: &[u8]) -> u64 {
    let words = bytes.chunks_exact(8);
    let tail: u64 = words.remainder().iter().map(|&b| u64::from(b)).sum();
    words
        .map(|w| u64::from_le_bytes(w.try_into().unwrap()))
        .fold(tail, u64::wrapping_add)
}

/// The limit for a touched mapping: `read()` into faulted memory, then the
/// same [`touch`].
fn limit_read_touched(path: PathBuf) -> Box<dyn FnMut()> {
    limit_read_then(path, |buf| {
        black_box(touch(buf));
    })
}

/// `read()` of the whole file into memory faulted in beforehand, then
/// `then` on the bytes read.
fn limit_read_then(path: PathBuf, then: fn(&[u8])) -> Box<dyn FnMut()> {
    let len = file_len(&path);
    let mut buf = faulted(len);
    Box::new(move || {
        File::open(&path)
            .unwrap()
            .read_exact(&mut buf[..len])
            .unwrap();
        then(&buf[..len]);
    })
}

fn rows_for(dir: &Path, size: usize, with_python: bool) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut add = |format, name: &str, kind, path: &Path, run| {
        rows.push(Row {
            format,
            name: name.to_owned(),
            kind,
            pool: true,
            bytes: file_len(path),
            run,
            samples: Vec::new(),
        })
    };
    let n = size / 4;

    let npy = dir.join("data.npy");
    tftensor::npy::write_npy(&npy, &f32_tensor(n, 0)).unwrap();
    let p = npy.clone();
    add(
        "npy",
        "tftensor read_npy",
        Kind::Ours,
        &npy,
        local(move || {
            black_box(tftensor::npy::read_npy(&p).unwrap());
        }),
    );
    if with_python {
        add(
            "npy",
            "numpy np.load",
            Kind::Peer,
            &npy,
            Run::Python("np_load_npy", npy.clone()),
        );
    }
    add(
        "npy",
        "limit: read() into faulted memory",
        Kind::Limit,
        &npy,
        local(limit_read(npy.clone())),
    );
    let p = npy.clone();
    add(
        "npy mmap, touched",
        "tftensor read_npy_mmap + every byte read",
        Kind::Ours,
        &npy,
        local(move || {
            // SAFETY: nothing writes the bench's own file while it is mapped.
            let t = unsafe { tftensor::npy::read_npy_mmap(&p) }.unwrap();
            black_box(touch(t.tensor_data().unwrap()));
        }),
    );
    if with_python {
        add(
            "npy mmap, touched",
            "numpy np.load(mmap_mode=\"r\") + sum",
            Kind::Peer,
            &npy,
            Run::Python("np_load_npy_mmap_sum", npy.clone()),
        );
    }
    add(
        "npy mmap, touched",
        "limit: read() into faulted memory + every byte read",
        Kind::Limit,
        &npy,
        local(limit_read_touched(npy.clone())),
    );

    let npz = dir.join("data.npz");
    let mut w = NpzWriter::create(&npz).unwrap();
    w.add("x", &f32_tensor(n, 1)).unwrap();
    w.finish().unwrap();
    let p = npz.clone();
    add(
        "npz",
        "tftensor NpzReader::get (stored)",
        Kind::Ours,
        &npz,
        local(move || {
            let mut r = NpzReader::open(&p).unwrap();
            black_box(r.get("x").unwrap());
        }),
    );
    if with_python {
        add(
            "npz",
            "numpy np.load(npz)[k]",
            Kind::Peer,
            &npz,
            Run::Python("np_load_npz", npz.clone()),
        );
    }
    add(
        "npz",
        "limit: read() into faulted memory",
        Kind::Limit,
        &npz,
        local(limit_read(npz.clone())),
    );

    let parts = 16;
    let st = dir.join("data.safetensors");
    let tensors: Vec<(String, Tensor)> = (0..parts)
        .map(|i| (format!("layer_{i:02}.weight"), f32_tensor(n / parts, i)))
        .collect();
    tftensor::safetensors::save(&st, tensors.iter().map(|(k, t)| (k.as_str(), t))).unwrap();
    let p = st.clone();
    add(
        "safetensors",
        "tftensor safetensors::load",
        Kind::Ours,
        &st,
        local(move || {
            black_box(tftensor::safetensors::load(&p).unwrap());
        }),
    );
    let p = st.clone();
    add(
        "safetensors",
        "safetensors crate: fs::read + deserialize",
        Kind::Peer,
        &st,
        local(move || {
            let bytes = std::fs::read(&p).unwrap();
            let st = safetensors::SafeTensors::deserialize(&bytes).unwrap();
            black_box(
                st.tensors()
                    .iter()
                    .map(|(_, v)| v.data().len())
                    .sum::<usize>(),
            );
        }),
    );
    if with_python {
        add(
            "safetensors",
            "safetensors.numpy.load_file",
            Kind::Peer,
            &st,
            Run::Python("st_numpy", st.clone()),
        );
    }
    add(
        "safetensors",
        "limit: read() into faulted memory",
        Kind::Limit,
        &st,
        local(limit_read(st.clone())),
    );
    let p = st.clone();
    add(
        "safetensors mmap, touched",
        "tftensor safetensors::load_mmap + every byte read",
        Kind::Ours,
        &st,
        local(move || {
            // SAFETY: nothing writes the bench's own file while it is mapped.
            let loaded = unsafe { tftensor::safetensors::load_mmap(&p) }.unwrap();
            let sum = loaded.iter().fold(0u64, |acc, (_, t)| {
                acc.wrapping_add(touch(t.tensor_data().unwrap()))
            });
            black_box(sum);
        }),
    );
    let p = st.clone();
    add(
        "safetensors mmap, touched",
        "safetensors crate: mmap + deserialize + every byte read",
        Kind::Peer,
        &st,
        local(move || {
            let file = File::open(&p).unwrap();
            // SAFETY: nothing writes the bench's own file while it is mapped.
            let map = unsafe { memmap2::Mmap::map(&file) }.unwrap();
            let st = safetensors::SafeTensors::deserialize(&map).unwrap();
            let sum = st
                .tensors()
                .iter()
                .fold(0u64, |acc, (_, v)| acc.wrapping_add(touch(v.data())));
            black_box(sum);
        }),
    );
    add(
        "safetensors mmap, touched",
        "limit: read() into faulted memory + every byte read",
        Kind::Limit,
        &st,
        local(limit_read_touched(st.clone())),
    );

    let prefix = dir.join("ckpt");
    let mut w = BundleWriter::new(&prefix).unwrap();
    for (k, t) in &tensors {
        w.add(k, t).unwrap();
    }
    w.finish().unwrap();
    let data = dir.join("ckpt.data-00000-of-00001");
    let p = prefix.clone();
    add(
        "checkpoint",
        "tftensor BundleReader::load + get all",
        Kind::Ours,
        &data,
        local(move || {
            let r = BundleReader::load(&p).unwrap();
            black_box(r.keys().map(|k| r.get(k).unwrap()).collect::<Vec<_>>());
        }),
    );
    let p = prefix.clone();
    add(
        "checkpoint",
        "tftensor BundleReader::open + get all",
        Kind::Ours,
        &data,
        local(move || {
            let r = BundleReader::open(&p).unwrap();
            black_box(r.keys().map(|k| r.get(k).unwrap()).collect::<Vec<_>>());
        }),
    );
    if with_python {
        add(
            "checkpoint",
            "TF load_checkpoint + get_tensor",
            Kind::Peer,
            &data,
            Run::Python("tf_checkpoint", prefix.clone()),
        );
    }
    add(
        "checkpoint",
        "limit: read() into faulted memory",
        Kind::Limit,
        &data,
        local(limit_read(data.clone())),
    );
    let p = prefix.clone();
    add(
        "checkpoint mmap, touched",
        "tftensor BundleReader::open_mmap + get all (CRC checked) + every byte read",
        Kind::Ours,
        &data,
        local(move || {
            // SAFETY: nothing writes the bench's own files while mapped.
            let r = unsafe { BundleReader::open_mmap(&p) }.unwrap();
            let sum = r.keys().fold(0u64, |acc, k| {
                acc.wrapping_add(touch(r.get(k).unwrap().tensor_data().unwrap()))
            });
            black_box(sum);
        }),
    );
    add(
        "checkpoint mmap, touched",
        "limit: read() into faulted memory + every byte read",
        Kind::Limit,
        &data,
        local(limit_read_touched(data.clone())),
    );

    let rec = dir.join("data.tfrecord");
    let records: Vec<Tensor> = (0..size / MIB).map(|i| f32_tensor(MIB / 4, i)).collect();
    write_tensors(&rec, Compression::None, &records).unwrap();
    drop(records);
    let p = rec.clone();
    add(
        "tfrecord",
        "tftensor read_tensors (CRC checked)",
        Kind::Ours,
        &rec,
        local(move || {
            black_box(read_tensors(&p, Compression::None).unwrap());
        }),
    );
    if with_python {
        add(
            "tfrecord",
            "TFRecordDataset.map(parse_tensor)",
            Kind::Peer,
            &rec,
            Run::Python("tf_tfrecord", rec.clone()),
        );
    }
    add(
        "tfrecord",
        "limit: read() into faulted memory",
        Kind::Limit,
        &rec,
        local(limit_read(rec.clone())),
    );

    {
        // 16 float32 tensors inline (16-aligned Buffer.data), read through
        // io::open + read_all; the peers are TF's interpreter
        // (open + get_tensor of each) and flatbuffer_utils.read_model.
        let tfl = dir.join("data.tflite");
        tflite_model::write(
            &tfl,
            16,
            n / 16,
            false,
            Some(&|k, dst: &mut [u8]| {
                dst.copy_from_slice(f32_tensor(dst.len() / 4, k).tensor_data().unwrap())
            }),
        );
        let p = tfl.clone();
        add(
            "tflite",
            "tftensor io::open + read_all",
            Kind::Ours,
            &tfl,
            local(move || {
                let all: Vec<Tensor> = tftensor::io::open(&p).unwrap().read_all().unwrap();
                black_box(all);
            }),
        );
        if with_python {
            add(
                "tflite",
                "tf.lite.Interpreter + get_tensor of every tensor",
                Kind::Peer,
                &tfl,
                Run::Python("tflite_interpreter", tfl.clone()),
            );
            add(
                "tflite",
                "flatbuffer_utils.read_model",
                Kind::Peer,
                &tfl,
                Run::Python("tflite_read_model", tfl.clone()),
            );
        }
        add(
            "tflite",
            "limit: read() into faulted memory",
            Kind::Limit,
            &tfl,
            local(limit_read(tfl.clone())),
        );
    }

    let mut src = faulted(size);
    src.fill(3);
    let mut dst = faulted(size);
    rows.push(Row {
        format: "memory",
        name: "limit: memcpy between faulted buffers".to_owned(),
        kind: Kind::Limit,
        bytes: size,
        run: local(move || {
            dst[..size].copy_from_slice(black_box(&src[..size]));
            black_box(&dst);
        }),
        pool: true,
        samples: Vec::new(),
    });
    without_pool(rows)
}

/// Each reading row of ours (not the mappings) twice: as it is, and right
/// after it the same call with the read-buffer pool off
/// (`set_read_pool_limit(0)`, what `TFTENSOR_READ_POOL_MAX=0` does): what
/// the pool saves, in the same run.
fn without_pool(rows: Vec<Row>) -> Vec<Row> {
    let mut out = Vec::with_capacity(rows.len() * 2);
    for row in rows {
        let twin = match &row.run {
            Run::Local(f) if row.kind == Kind::Ours && !row.format.contains("mmap") => Some(Row {
                format: row.format,
                name: format!("{} (no pool)", row.name),
                kind: row.kind,
                pool: false,
                bytes: row.bytes,
                run: Run::Local(Rc::clone(f)),
                samples: Vec::new(),
            }),
            _ => None,
        };
        out.push(row);
        out.extend(twin);
    }
    out
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

fn label(n: usize) -> String {
    if n >= 1 << 30 {
        format!("{} GiB", n >> 30)
    } else {
        format!("{} MiB", n >> 20)
    }
}

fn main() {
    let mode = mode();
    let (sizes, default_rounds) = match mode {
        Mode::Full => (vec![256 * MIB, 1024 * MIB], 7),
        Mode::Short => (vec![8 * MIB], 3),
        Mode::Test => (vec![6 * MIB], 1),
    };
    let sizes: Vec<usize> = match std::env::var("TFTENSOR_BENCH_MIB") {
        Ok(v) => v
            .split(',')
            .filter_map(|m| m.trim().parse::<usize>().ok())
            .map(|m| m * MIB)
            .collect(),
        Err(_) => sizes,
    };
    let rounds = std::env::var("TFTENSOR_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_rounds);
    // The pool's bound as the environment set it (TFTENSOR_READ_POOL_MAX=0:
    // every row without the pool).
    let pool_limit = tftensor::read_pool_limit();
    let mut peers = if mode == Mode::Test {
        None
    } else {
        Peers::start()
    };
    let dir = tempfile::Builder::new()
        .prefix("tftensor-bench-readers-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    let mut json_rows = Vec::new();
    println!(
        "readers: {rounds} rounds after 1 warm-up round, interleaved; warm page cache; {} CPUs; read pool {} MiB, idle {:?}; peers: {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        pool_limit >> 20,
        tftensor::READ_POOL_IDLE,
        peers
            .as_ref()
            .map_or("none".to_owned(), |p| p.versions.clone())
    );
    for size in sizes {
        let mut rows = rows_for(&dir, size, peers.is_some());
        if let Ok(only) = std::env::var("TFTENSOR_BENCH_ONLY") {
            rows.retain(|r| r.format.contains(only.as_str()));
        }
        // Each round: the rows with the pool (peers and limits among them),
        // then those without; the start rotating within each group. The
        // pool is emptied between the groups (outside the timed calls), so
        // each round's first pooled read maps afresh.
        let groups: Vec<(Vec<usize>, usize)> = [(true, pool_limit), (false, 0)]
            .into_iter()
            .map(|(pool, limit)| {
                let rows: Vec<usize> = (0..rows.len()).filter(|&i| rows[i].pool == pool).collect();
                (rows, limit)
            })
            .collect();
        for round in 0..=rounds {
            for (group, limit) in &groups {
                tftensor::set_read_pool_limit(*limit);
                let n = group.len();
                for j in 0..n {
                    let row = &mut rows[group[(round + j) % n]];
                    let s = match &mut row.run {
                        Run::Local(f) => Some(measure(&mut *f.borrow_mut())),
                        Run::Python(op, path) => peers.as_mut().and_then(|p| p.call(op, path)),
                    };
                    if let (Some(s), true) = (s, round > 0) {
                        row.samples.push(s);
                    }
                }
            }
        }
        tftensor::set_read_pool_limit(pool_limit);
        let med = |r: &Row| median(r.samples.iter().map(|s| s.seconds).collect());
        let med_cpu = |r: &Row| median(r.samples.iter().map(|s| s.cpu).collect());
        println!(
            "\n### {} (load average before the run: {:.2})\n",
            label(size),
            load1()
        );
        println!(
            "| format | row | median wall | min wall | GB/s (median) | median CPU | minor faults | load avg | × limit (wall / CPU) | best peer ÷ ours (wall / CPU) |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for r in &rows {
            let (t, cpu) = (med(r), med_cpu(r));
            let min = r
                .samples
                .iter()
                .map(|s| s.seconds)
                .fold(f64::INFINITY, f64::min);
            let limit = rows
                .iter()
                .find(|l| l.kind == Kind::Limit && l.format == r.format)
                .map(|l| (med(l), med_cpu(l)));
            let peers: Vec<(f64, f64)> = rows
                .iter()
                .filter(|p| p.kind == Kind::Peer && p.format == r.format && !p.samples.is_empty())
                .map(|p| (med(p), med_cpu(p)))
                .collect();
            let best_peer = (!peers.is_empty()).then(|| {
                let w = peers.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
                let c = peers.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
                (w, c)
            });
            let faults = median(r.samples.iter().map(|s| s.minflt as f64).collect());
            let load = median(r.samples.iter().map(|s| s.load).collect());
            let x_limit = limit
                .filter(|_| r.kind != Kind::Limit)
                .map(|l| (t / l.0, cpu / l.1));
            let vs_peer = best_peer
                .filter(|_| r.kind == Kind::Ours)
                .map(|p| (p.0 / t, p.1 / cpu));
            let fmt = |v: Option<(f64, f64)>| {
                v.map_or(String::new(), |(a, b)| format!("{a:.2}x / {b:.2}x"))
            };
            println!(
                "| {} | {} | {:.1} ms | {:.1} ms | {:.2} | {:.1} ms | {:.0} | {:.2} | {} | {} |",
                r.format,
                r.name,
                t * 1e3,
                min * 1e3,
                r.bytes as f64 / t / 1e9,
                cpu * 1e3,
                faults,
                load,
                fmt(x_limit),
                fmt(vs_peer)
            );
            json_rows.push(serde_json::json!({
                "size": size, "format": r.format, "row": r.name, "bytes": r.bytes,
                "median_s": t, "min_s": min, "median_cpu_s": cpu, "minor_faults": faults,
                "load1": load, "x_limit": x_limit, "best_peer_over_ours": vs_peer,
                "samples_s": r.samples.iter().map(|s| s.seconds).collect::<Vec<_>>(),
                "samples_cpu_s": r.samples.iter().map(|s| s.cpu).collect::<Vec<_>>(),
            }));
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            std::fs::remove_file(f.unwrap().path()).ok();
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    if let Ok(path) = std::env::var("TFTENSOR_BENCH_JSON") {
        let doc = serde_json::json!({"rounds": rounds, "rows": json_rows});
        std::fs::write(path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    }
    drop(peers.take());
}
