//! Writes one file of every kind and dtype tftensor can produce for NumPy
//! and safetensors into a directory, with a `manifest.json` of the values,
//! for scripts/check_formats.py to read back with `np.load` and
//! `safetensors.numpy.load_file`:
//!
//! ```sh
//! cargo run --example write_formats -- /tmp/out && python scripts/check_formats.py /tmp/out
//! ```

use std::path::PathBuf;

use tftensor::bytes::Bytes;
use tftensor::npy::{NpzWriter, write_npy};
use tftensor::{DataType, Result, Tensor};

/// A tensor of `dtype` with distinct, valid elements (float values chosen
/// to include NaN, infinities and -0 where the bytes make them).
fn sample(dtype: DataType, shape: &[i64]) -> Result<Tensor> {
    let n: i64 = shape.iter().product();
    if dtype == DataType::String {
        let v: Vec<Bytes> = (0..n)
            .map(|i| Bytes::from(format!("s{i}\0é{}", "x".repeat(i as usize % 4))))
            .collect();
        return Tensor::from_vec(shape, v);
    }
    let bytes: Vec<u8> = (0..n as usize * dtype.size())
        .map(|i| match dtype {
            DataType::Bool => (i % 2) as u8,
            DataType::Int4 | DataType::UInt4 => (i % 7) as u8,
            _ => (i * 37 % 256) as u8,
        })
        .collect();
    Tensor::from_buffer(dtype, shape, Bytes::from(bytes))
}

/// The NumPy dtype name np.load should give, or `None` for an opaque
/// (ml_dtypes) layout.
fn numpy_name(d: DataType) -> Option<&'static str> {
    Some(match d {
        DataType::Bool => "bool",
        DataType::Int8 | DataType::QInt8 => "int8",
        DataType::UInt8 | DataType::QUInt8 => "uint8",
        DataType::Int16 | DataType::QInt16 => "int16",
        DataType::UInt16 | DataType::QUInt16 => "uint16",
        DataType::Int32 | DataType::QInt32 => "int32",
        DataType::UInt32 => "uint32",
        DataType::Int64 => "int64",
        DataType::UInt64 => "uint64",
        DataType::Half => "float16",
        DataType::Float => "float32",
        DataType::Double => "float64",
        DataType::Complex64 => "complex64",
        DataType::Complex128 => "complex128",
        DataType::String => "bytes",
        _ => return None,
    })
}

/// The safetensors dtype code of a TF dtype, if it has one.
fn st_name(d: DataType) -> Option<&'static str> {
    Some(match d {
        DataType::Bool => "BOOL",
        DataType::UInt8 => "U8",
        DataType::Int8 => "I8",
        DataType::UInt16 => "U16",
        DataType::Int16 => "I16",
        DataType::UInt32 => "U32",
        DataType::Int32 => "I32",
        DataType::UInt64 => "U64",
        DataType::Int64 => "I64",
        DataType::Half => "F16",
        DataType::BFloat16 => "BF16",
        DataType::Float => "F32",
        DataType::Double => "F64",
        DataType::Complex64 => "C64",
        DataType::Float8E4M3FN => "F8_E4M3",
        DataType::Float8E5M2 => "F8_E5M2",
        DataType::Float8E4M3FNUZ => "F8_E4M3FNUZ",
        DataType::Float8E5M2FNUZ => "F8_E5M2FNUZ",
        _ => return None,
    })
}

fn describe(t: &Tensor) -> Result<serde_json::Value> {
    let mut v = serde_json::json!({
        "tf_dtype": t.dtype().name(),
        "shape": t.shape().dim_sizes(),
        "numpy": numpy_name(t.dtype()),
        "safetensors": st_name(t.dtype()),
    });
    if t.dtype() == DataType::String {
        v["strings"] = t
            .as_slice::<Bytes>()?
            .iter()
            .map(hex::encode)
            .collect::<Vec<_>>()
            .into();
    } else {
        v["hex"] = hex::encode(t.tensor_data()?).into();
    }
    Ok(v)
}

fn main() -> Result<()> {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "formats-out".into()),
    );
    std::fs::create_dir_all(&dir).map_err(|e| tftensor::Error::io(dir.display(), &e))?;
    let shapes: [&[i64]; 4] = [&[], &[0, 2], &[5], &[2, 3, 2]];
    let mut npy = serde_json::Map::new();
    let mut npz_members = serde_json::Map::new();
    let mut st = serde_json::Map::new();
    let mut st_tensors = Vec::new();
    let mut stored = NpzWriter::create(dir.join("stored.npz"))?;
    let mut deflated = NpzWriter::create_compressed(dir.join("deflated.npz"))?;
    for &dt in DataType::all() {
        if dt == DataType::Resource || dt == DataType::Variant {
            continue;
        }
        for (i, shape) in shapes.iter().enumerate() {
            let t = sample(dt, shape)?;
            let name = format!("{}_{i}", dt.name());
            write_npy(dir.join(format!("{name}.npy")), &t)?;
            npy.insert(format!("{name}.npy"), describe(&t)?);
            if i == 3 {
                stored.add(&name, &t)?;
                deflated.add(&name, &t)?;
                npz_members.insert(name.clone(), describe(&t)?);
            }
            if st_name(dt).is_some() {
                st.insert(name.clone(), describe(&t)?);
                st_tensors.push((name, t));
            }
        }
    }
    stored.finish()?;
    deflated.finish()?;
    tftensor::safetensors::save(
        dir.join("all.safetensors"),
        st_tensors.iter().map(|(n, t)| (n.as_str(), t)),
    )?;
    // The subset `safetensors.numpy.load_file` can read (no bfloat16/float8).
    tftensor::safetensors::save(
        dir.join("numpy_only.safetensors"),
        st_tensors
            .iter()
            .filter(|(_, t)| numpy_name(t.dtype()).is_some())
            .map(|(n, t)| (n.as_str(), t)),
    )?;
    let manifest = serde_json::json!({
        "npy": npy,
        "npz": {"files": ["stored.npz", "deflated.npz"], "members": npz_members},
        "safetensors": {"file": "all.safetensors", "numpy_file": "numpy_only.safetensors", "tensors": st},
    });
    let path = dir.join("manifest.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(&manifest).unwrap_or_default(),
    )
    .map_err(|e| tftensor::Error::io(path.display(), &e))?;
    println!(
        "wrote {} .npy files, 2 .npz archives of {} arrays, {} safetensors tensors to {}",
        npy.len(),
        npz_members.len(),
        st.len(),
        dir.display()
    );
    Ok(())
}
