//! Writes tensor bundles with `BundleWriter` for `scripts/check_with_tf.sh`,
//! which has TensorFlow read them back.
//!
//! `cargo run --example checkpoint_interop -- OUT_DIR`
//!
//! Writes, under OUT_DIR:
//! - `bundle`: every dtype a bundle holds, non-UTF-8 strings, empty and
//!   scalar tensors, a partitioned tensor (slices) and a variant;
//! - `tf2/ckpt-1`: new values for the Keras model of the `tf2_keras` fixture
//!   (its object graph copied), to restore into `tf.train.Checkpoint`;
//! - `tf1/model`: a `[10, 3]` variable in 3 slices and a float64 one, to
//!   restore with a TF1 `Saver`;
//! - `many`: 6000 keys, an `.index` of several blocks, in the order
//!   `check_with_tf.py` writes them with `SaveV2`, for a byte comparison;
//! - `manifest.json`: what each key holds.
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use tftensor::bytes::Bytes;
use tftensor::checkpoint::{BundleReader, BundleWriter};
use tftensor::{DataType, Result, Tensor, TensorShape};

fn describe(t: &Tensor) -> Value {
    let mut v = Map::new();
    v.insert("dtype".into(), json!(t.dtype().name()));
    v.insert("dtype_enum".into(), json!(t.dtype().as_i32()));
    v.insert("shape".into(), json!(t.shape().dim_sizes()));
    match t.dtype() {
        DataType::String => {
            let s: Vec<String> = t
                .as_slice::<Bytes>()
                .unwrap()
                .iter()
                .map(hex::encode)
                .collect();
            v.insert("strings".into(), json!(s));
        }
        DataType::Variant => {}
        _ => {
            v.insert("hex".into(), json!(hex::encode(t.tensor_data().unwrap())));
        }
    }
    Value::Object(v)
}

/// Bytes 0..n, reinterpreted, with bool and 4-bit values kept in range.
fn pattern(dtype: DataType, shape: &[i64]) -> Result<Tensor> {
    let n: i64 = shape.iter().product();
    let size = dtype.size();
    let bytes: Vec<u8> = (0..n as usize * size)
        .map(|i| match dtype {
            DataType::Bool => (i % 2) as u8,
            DataType::Int4 | DataType::UInt4 => (i % 7) as u8,
            // Finite, non-NaN bit patterns for the small floats.
            _ if dtype.is_floating() && size == 1 => (i * 3 % 0x70) as u8,
            _ => (i * 37 % 251) as u8,
        })
        .collect();
    let mut t = Tensor::from_buffer(dtype, shape, Bytes::from(bytes))?;
    if dtype.is_floating() && size > 1 {
        // Keep floats finite and ordinary: small integers.
        let vals: Vec<f64> = (0..n).map(|i| (i as f64) * 0.5 - 3.0).collect();
        t = match dtype {
            DataType::Float => Tensor::from_vec(shape, vals.iter().map(|&x| x as f32).collect())?,
            DataType::Double => Tensor::from_vec(shape, vals)?,
            DataType::Half => Tensor::from_vec(
                shape,
                vals.iter()
                    .map(|&x| tftensor::half::f16::from_f64(x))
                    .collect(),
            )?,
            DataType::BFloat16 => Tensor::from_vec(
                shape,
                vals.iter()
                    .map(|&x| tftensor::half::bf16::from_f64(x))
                    .collect(),
            )?,
            _ => t,
        };
    }
    Ok(t)
}

fn main() -> Result<()> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .expect("usage: checkpoint_interop OUT_DIR"),
    );
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/checkpoints");
    let mut manifest = Map::new();

    // 1. Every dtype.
    let mut w = BundleWriter::new(out.join("bundle"))?;
    let mut m = Map::new();
    for &dt in DataType::all() {
        if matches!(
            dt,
            DataType::String | DataType::Resource | DataType::Variant
        ) {
            continue;
        }
        let t = pattern(dt, &[2, 3])?;
        let key = format!("dtype/{}", dt.name());
        w.add(&key, &t)?;
        m.insert(key, describe(&t));
    }
    let strings = Tensor::from_vec(
        [2, 2],
        vec![
            Bytes::from_static(b"hello"),
            Bytes::new(),
            Bytes::from_static(b"\xff\x00\xfe"),
            Bytes::from("\u{e9}t\u{e9}"),
        ],
    )?;
    let extra = [
        ("strings/mixed", strings),
        ("strings/scalar", Tensor::from("a scalar string")),
        (
            "strings/long",
            Tensor::from_vec(
                [2],
                vec![Bytes::from(vec![b'x'; 300]), Bytes::from_static(b"y")],
            )?,
        ),
        ("strings/empty", Tensor::new(DataType::String, [0])?),
        ("scalar/float", Tensor::from(2.5f32)),
        ("scalar/int64", Tensor::from(-9i64)),
        ("empty/float", Tensor::new(DataType::Float, [0, 3])?),
        ("empty/int32", Tensor::new(DataType::Int32, [4, 0])?),
    ];
    for (k, t) in &extra {
        w.add(k, t)?;
        m.insert((*k).to_owned(), describe(t));
    }
    let full = TensorShape::new(&[6, 2])?;
    let whole = Tensor::from_vec([6, 2], (0..12).map(|i| i as f32).collect())?;
    w.add_slice("sliced/f", &full, &"0,2:-".parse()?, &whole.slice(0, 2)?)?;
    w.add_slice("sliced/f", &full, &"2,4:-".parse()?, &whole.slice(2, 6)?)?;
    m.insert("sliced/f".into(), describe(&whole));
    let list = BundleReader::open(fixtures.join("all_dtypes/bundle"))?.get("variant/list")?;
    w.add("variant/list", &list)?;
    m.insert("variant/list".into(), describe(&list));
    w.finish()?;
    manifest.insert("bundle".into(), Value::Object(m));

    // 2. New values for the Keras model of the tf2_keras fixture.
    let tf2 = BundleReader::open(fixtures.join("tf2_keras"))?;
    let mut w = BundleWriter::new(out.join("tf2/ckpt-1"))?;
    let mut m = Map::new();
    for key in tf2.keys() {
        let (dtype, shape) = tf2.dtype_and_shape(key)?;
        let t = if dtype == DataType::String {
            tf2.get(key)? // the object graph, as TF wrote it
        } else if dtype == DataType::Int64 {
            Tensor::from(42i64)
        } else {
            let n = shape.num_elements();
            Tensor::from_vec(
                shape.clone(),
                (0..n).map(|i| i as f32 / 4.0 - 1.0).collect(),
            )?
        };
        w.add(key, &t)?;
        if dtype != DataType::String {
            m.insert(key.to_owned(), describe(&t));
        }
    }
    w.finish()?;
    std::fs::write(
        out.join("tf2/checkpoint"),
        "model_checkpoint_path: \"ckpt-1\"\nall_model_checkpoint_paths: \"ckpt-1\"\n",
    )
    .expect("write state file");
    manifest.insert("tf2".into(), Value::Object(m));

    // 3. A TF1 partitioned variable (fixed_size_partitioner(3) of [10, 3]: rows 4, 3, 3).
    let mut w = BundleWriter::new(out.join("tf1/model"))?;
    let part = Tensor::from_vec([10, 3], (0..30).map(|i| i as f32 * 1.5).collect())?;
    let full = TensorShape::new(&[10, 3])?;
    for (start, len) in [(0, 4), (4, 3), (7, 3)] {
        let slice = format!("{start},{len}:-").parse()?;
        w.add_slice("part", &full, &slice, &part.slice(start, start + len)?)?;
    }
    let wv = Tensor::from_vec([2], vec![0.25f64, -8.0])?;
    w.add("w", &wv)?;
    w.finish()?;
    let mut m = Map::new();
    m.insert("part".into(), describe(&part));
    m.insert("w".into(), describe(&wv));
    manifest.insert("tf1".into(), Value::Object(m));

    // 4. Many keys, added in the order check_with_tf.py gives SaveV2.
    let mut w = BundleWriter::new(out.join("many"))?;
    for i in (0..6000).rev() {
        let key = format!("layer_{i:05}/a/rather/long/variable/name/.ATTRIBUTES/VARIABLE_VALUE");
        w.add(&key, &Tensor::from_vec([2], vec![i, -i])?)?;
    }
    w.finish()?;

    std::fs::write(
        out.join("manifest.json"),
        serde_json::to_string_pretty(&Value::Object(manifest)).unwrap(),
    )
    .expect("write manifest");
    println!("wrote bundles to {}", out.display());
    Ok(())
}
