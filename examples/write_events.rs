//! Writes a small TensorBoard log with `tftensor::events::SummaryWriter`,
//! and `manifest.json` beside it listing every value written, for
//! `scripts/check_events_with_tensorboard.py` to compare with what
//! TensorBoard reads.
//!
//!     cargo run --example write_events -- DIR
//!
//! DIR gets two runs, `train` and `eval`, each with scalars (`loss`, `lr`),
//! a histogram (`weights`), text (`note`) and a 1x1 PNG image (`img`).
//! The manifest is a list of `{run, tag, step, dtype, shape, values}`:
//! floats as shortest round-trip decimal strings, strings as hex.

use std::fmt::Write as _;
use std::path::PathBuf;

use tftensor::bytes::Bytes;
use tftensor::events::{SummaryWriter, histogram_buckets};
use tftensor::{DataType, Tensor};

/// A 1x1 RGB PNG.
const PNG: [u8; 69] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xdf, 0xc0, 0x00,
    0x00, 0x04, 0x01, 0x01, 0x80, 0xc5, 0x2a, 0x18, 0x5d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(std::env::args().nth(1).ok_or("usage: write_events DIR")?);
    let mut manifest = Vec::new();
    for (run, scale) in [("train", 1.0f32), ("eval", 2.0)] {
        let mut w = SummaryWriter::create(dir.join(run))?;
        let mut note = |tag: &str, step: i64, t: &Tensor| -> tftensor::Result<()> {
            manifest.push(entry(run, tag, step, t)?);
            Ok(())
        };
        for step in 0..5i64 {
            let loss = scale / (step as f32 + 1.0);
            w.add_scalar("loss", step * 10, loss)?;
            note("loss", step * 10, &Tensor::from(loss))?;
            let lr = 0.1 * 0.5f32.powi(step as i32);
            w.add_scalar("lr", step * 10, lr)?;
            note("lr", step * 10, &Tensor::from(lr))?;
        }
        for step in 0..2i64 {
            let data: Vec<f64> = (0..100)
                .map(|i| f64::from(scale) * ((i * 37 % 100) as f64 / 10.0 + step as f64))
                .collect();
            w.add_histogram("weights", step, &data, 30)?;
            note("weights", step, &histogram_buckets(&data, 30)?)?;
        }
        let text = format!("**{run}** run");
        w.add_text("note", 0, &text)?;
        note("note", 0, &Tensor::from(text.as_str()))?;
        w.add_image("img", 0, &PNG, 1, 1)?;
        let blobs = vec![Bytes::from("1"), Bytes::from("1"), Bytes::from_static(&PNG)];
        note("img", 0, &Tensor::from_vec([3], blobs)?)?;
        w.close()?;
    }
    std::fs::write(
        dir.join("manifest.json"),
        format!("[\n{}\n]\n", manifest.join(",\n")),
    )?;
    println!("wrote {} values to {}", manifest.len(), dir.display());
    Ok(())
}

/// One manifest entry as JSON.
fn entry(run: &str, tag: &str, step: i64, t: &Tensor) -> tftensor::Result<String> {
    let values: Vec<String> = match t.dtype() {
        DataType::Float => t
            .as_slice::<f32>()?
            .iter()
            .map(|v| format!("\"{v:?}\""))
            .collect(),
        DataType::Double => t
            .as_slice::<f64>()?
            .iter()
            .map(|v| format!("\"{v:?}\""))
            .collect(),
        _ => t
            .as_slice::<Bytes>()?
            .iter()
            .map(|b| {
                let mut s = String::from("\"");
                for byte in b.iter() {
                    let _ = write!(s, "{byte:02x}");
                }
                s + "\""
            })
            .collect(),
    };
    Ok(format!(
        "{{\"run\": \"{run}\", \"tag\": \"{tag}\", \"step\": {step}, \"dtype\": \"{}\", \"shape\": {:?}, \"values\": [{}]}}",
        t.dtype(),
        t.shape().dim_sizes(),
        values.join(", ")
    ))
}
