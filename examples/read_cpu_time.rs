//! Times one reader, call by call, in CPU time (user + system, every
//! thread) and wall time: for A/B runs of two builds of tftensor on a busy
//! machine, where wall time mostly measures waiting for a core
//! (`scripts/ab_read_cpu_time.sh` builds this example at two commits and
//! alternates them process by process).
//!
//! ```sh
//! cargo run --release --example read_cpu_time -- write-tfrecord /tmp/t.tfrecord 256
//! cargo run --release --example read_cpu_time -- tfrecord /tmp/t.tfrecord 5
//! ```
//!
//! Writers (`write-npy FILE MIB`: one float32 tensor; `write-npz`,
//! `write-safetensors`, `write-checkpoint PREFIX MIB`: 16 float32 tensors;
//! `write-tfrecord FILE MIB`: 1 MiB float32 tensors;
//! `write-keras FILE MIB`: 4 MiB float32 datasets; `write-events DIR MIB`:
//! float32 scalars of 10 tags) make the inputs. Readers (`tfrecord`:
//! `read_tensors`; `io`: `io::open` and `read_all`; `keras`:
//! `KerasFile` and every tensor; `events-series`, `events-list`,
//! `events-reader`; `limit`: `read()` of the file into memory faulted in
//! beforehand) take the input and a call count, run one call to warm
//! up, then print `CPU_MS WALL_MS` per call.

use std::path::Path;
use std::time::Instant;

use tftensor::events::{EventReader, SummaryWriter};
use tftensor::keras::{KerasFile, WeightsWriter};
use tftensor::tfrecord::{Compression, read_tensors, write_tensors};
use tftensor::{Error, Result, Tensor};

/// CPU seconds this process has used, every thread.
fn cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the call's duration.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return f64::NAN;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// One call of reader `op` on `path`: the number of things it read.
fn read(op: &str, path: &Path) -> Result<usize> {
    Ok(match op {
        "tfrecord" => read_tensors(path, Compression::None)?.len(),
        "io" => {
            let all = tftensor::io::open(path)?.read_all()?;
            all.len()
        }
        "keras" => {
            let f = KerasFile::open(path)?;
            let all = (0..f.entries().len())
                .map(|i| f.read_index(i))
                .collect::<Result<Vec<Tensor>>>()?;
            all.len()
        }
        "events-series" => tftensor::events::series(path)?.len(),
        "events-list" => tftensor::events::list(path)?.len(),
        "events-reader" => {
            let mut n = 0;
            for v in EventReader::open(path)? {
                std::hint::black_box(&v?.value);
                n += 1;
            }
            n
        }
        // The limit: `read()` of the whole file into memory faulted in
        // beforehand (kept between calls, as the readers bench does).
        "limit" => LIMIT_BUF.with_borrow_mut(|buf| {
            let len = std::fs::metadata(path)
                .map_err(|e| Error::io(path.display(), e))?
                .len() as usize;
            if buf.len() < len {
                *buf = vec![1u8; len];
            }
            let dst = &mut buf[..len];
            std::fs::File::open(path)
                .and_then(|mut f| std::io::Read::read_exact(&mut f, dst))
                .map_err(|e| Error::io(path.display(), e))?;
            Ok::<_, Error>(len)
        })?,
        other => return Err(Error::InvalidArgument(format!("no reader {other:?}"))),
    })
}

thread_local! {
    static LIMIT_BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `mib` MiB of float32 in 16 tensors of 1024 columns.
fn sixteen(mib: usize) -> Result<Vec<(String, Tensor)>> {
    let rows = mib * 1024 / 16 / 4;
    (0..16)
        .map(|i| {
            let t = Tensor::from_vec([rows as i64, 1024], vec![i as f32; rows * 1024])?;
            Ok((format!("layer_{i:02}/kernel"), t))
        })
        .collect()
}

/// Writes `mib` MiB of input for the readers at `path`.
fn write(op: &str, path: &Path, mib: usize) -> Result<()> {
    match op {
        "write-tfrecord" => {
            let tensors = (0..mib)
                .map(|i| Tensor::from_vec([256, 1024], vec![i as f32; 256 * 1024]))
                .collect::<Result<Vec<_>>>()?;
            write_tensors(path, Compression::None, &tensors)
        }
        "write-npy" => {
            let n = mib << 18;
            tftensor::npy::write_npy(path, &Tensor::from_vec([n as i64], vec![1.5f32; n])?)
        }
        "write-npz" => {
            let mut w = tftensor::npy::NpzWriter::create(path)?;
            for (name, t) in sixteen(mib)? {
                w.add(&name, &t)?;
            }
            w.finish()
        }
        "write-safetensors" => {
            let all = sixteen(mib)?;
            tftensor::safetensors::save(path, all.iter().map(|(n, t)| (n.as_str(), t)))
        }
        "write-checkpoint" => {
            let mut w = tftensor::checkpoint::BundleWriter::new(path)?;
            for (name, t) in sixteen(mib)? {
                w.add(&name, &t)?;
            }
            w.finish()
        }
        "write-keras" => {
            let mut w = WeightsWriter::create(path)?;
            for i in 0..mib.div_ceil(4) {
                let t = Tensor::from_vec([1024, 1024], vec![i as f32; 1024 * 1024])?;
                w.add(&format!("layers/dense_{i}/vars/0"), &t)?;
            }
            w.finish()
        }
        "write-events" => {
            let mut w = SummaryWriter::create(path)?;
            for step in 0.. {
                for tag in 0..10 {
                    w.add_scalar(&format!("train/metric_{tag}"), step, (step as f32).sin())?;
                }
                if step % 1024 == 0 {
                    w.flush()?;
                    let len = std::fs::metadata(w.path())
                        .map_err(|e| Error::io(w.path().display(), e))?
                        .len();
                    if len >= (mib as u64) << 20 {
                        break;
                    }
                }
            }
            w.close()
        }
        other => Err(Error::InvalidArgument(format!("no writer {other:?}"))),
    }
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [op, path, count] = args.as_slice() else {
        return Err(Error::InvalidArgument(
            "usage: read_cpu_time OP PATH (COUNT | MIB)".into(),
        ));
    };
    let count: usize = count
        .parse()
        .map_err(|_| Error::InvalidArgument(format!("not a count: {count}")))?;
    let path = Path::new(path);
    if op.starts_with("write-") {
        return write(op, path, count);
    }
    std::hint::black_box(read(op, path)?);
    for _ in 0..count {
        let (cpu, wall) = (cpu_seconds(), Instant::now());
        std::hint::black_box(read(op, path)?);
        println!(
            "{:.2} {:.2}",
            (cpu_seconds() - cpu) * 1e3,
            wall.elapsed().as_secs_f64() * 1e3
        );
    }
    Ok(())
}
