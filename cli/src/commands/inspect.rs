//! `tftensor inspect`: every tensor's name, dtype, shape and size.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;
use serde_json::Value;
use tftensor::bytes::Bytes;
use tftensor::{DataType, Tensor};

use tftensor::io::Format;

use crate::error::at;
use crate::numeric::Shown;
use crate::progress::Progress;
use crate::source::{ReadOptions, format_parser, open};
use tftensor::stats::{Num, Stats};

/// List every tensor: name, dtype (TF's name), shape and bytes.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    tftensor inspect training/ckpt-3\n  \
    tftensor inspect saved_model_dir --stats\n  \
    tftensor inspect weights.safetensors --json | jq '.tensors[].name'\n  \
    tftensor inspect 'shards/*.tfrecord.gz' --arrow-schema")]
pub struct InspectArgs {
    /// The files, directories or checkpoint prefixes to read (several,
    /// or a quoted glob such as 'shards/*.npy').
    #[arg(required = true, num_args = 1..)]
    pub paths: Vec<PathBuf>,
    /// Also read the values: min, max and mean of the finite values, and
    /// the NaN and Inf counts, for numeric tensors; string tensors' sizes.
    #[arg(long)]
    pub stats: bool,
    /// Print JSON (one object) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// For a model (a SavedModel directory): print its signatures and
    /// ops as TF's `saved_model_cli show --all` does (up to "Concrete
    /// Functions").
    #[arg(long)]
    pub signatures: bool,
    /// For TFRecord files of `tf.train.Example`s: the number of records
    /// and the Arrow schema of their features (one `name: type` line
    /// each, in pyarrow's notation), as tfx-bsl's schema-less decoder and
    /// `tftensor.read_examples_arrow` give them.
    #[arg(long, conflicts_with_all = ["stats", "json", "signatures"])]
    pub arrow_schema: bool,
    /// The input's format, instead of detecting it.
    #[arg(long, value_parser = format_parser())]
    pub format: Option<Format>,
    #[command(flatten)]
    pub read: ReadOptions,
}

/// One row of the listing (and one object of `--json`'s `tensors`).
#[derive(Serialize)]
struct Row {
    name: String,
    dtype: String,
    shape: Vec<i64>,
    /// Bytes of the elements (strings: the sum of their lengths, with
    /// --stats); `null` when unknown.
    bytes: Option<u64>,
    /// How stored values map to real ones (TFLite's field names).
    #[serde(skip_serializing_if = "Option::is_none")]
    quantization: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    min: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mean: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nan: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    inf: Option<u64>,
    #[serde(skip)]
    shape_text: String,
    #[serde(skip)]
    stats_text: Option<[String; 5]>,
}

#[derive(Serialize)]
struct Listing<'a> {
    path: String,
    format: &'a str,
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    metadata: std::collections::BTreeMap<String, String>,
    tensors: &'a [Row],
    count: usize,
    total_bytes: u64,
}

/// Runs `inspect` on each path in turn.
pub fn run(args: &InspectArgs) -> Result<()> {
    let paths = expand(&args.paths, &args.read)?;
    for (k, path) in paths.iter().enumerate() {
        if k > 0 && !args.json {
            writeln!(super::stdout())?;
        }
        inspect_one(args, path)?;
    }
    Ok(())
}

/// The paths, with quoted globs (`*`, `?` in the file name) expanded in
/// name order, in a folder or under a bucket's prefix alike
/// ([`io::expand_with`]); a glob that matches nothing is an error.
fn expand(paths: &[PathBuf], read: &ReadOptions) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        out.extend(tftensor::io::expand_with(p, &read.remote()).map_err(crate::source::hint)?);
    }
    Ok(out)
}

fn inspect_one(args: &InspectArgs, path: &std::path::Path) -> Result<()> {
    if args.signatures {
        let input = open(path, args.format, &args.read)?;
        let text = input.signatures().unwrap_or_else(|| {
            Err(tftensor::Error::InvalidArgument(format!(
                "{} holds tensors, not a model with signatures",
                input.format()
            ))
            .with_path(input.path().display()))
        });
        let text = text.map_err(crate::source::hint)?;
        let mut out = super::stdout();
        out.write_all(text.as_bytes())?;
        out.flush()?;
        return Ok(());
    }
    if args.arrow_schema {
        let schema = tftensor::arrow::examples_schema([path], false)
            .map_err(|e| crate::source::hint(e.with_path(path.display())))?;
        let mut out = super::stdout();
        writeln!(out, "{}: {} Examples", path.display(), schema.records)?;
        write!(out, "{schema}")?;
        out.flush()?;
        return Ok(());
    }
    let mut input = open(path, args.format, &args.read)?;
    let entries = input.entries().to_vec();
    let total: u64 = entries.iter().filter_map(|e| e.byte_len).sum();
    let mut progress = Progress::new("reading", if args.stats { total } else { 0 });
    let mut rows = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        // Bool's min, max and mean say little.
        let wants_stats = args.stats && e.dtype.is_real() && e.dtype != DataType::Bool;
        // Without --stats only the index is read: a string tensor's size
        // needs its values.
        let needs_read = wants_stats || (args.stats && e.dtype == DataType::String);
        progress.advance(0);
        let tensor = if needs_read {
            Some(input.read(i).map_err(|err| at(path, &e.name, err))?)
        } else {
            None
        };
        let bytes = match &tensor {
            Some(t) if e.dtype == DataType::String => {
                Some(string_bytes(t).map_err(|err| at(path, &e.name, err))?)
            }
            _ => e.byte_len,
        };
        let st = match &tensor {
            Some(t) if wants_stats => t.stats().map_err(|err| at(path, &e.name, err))?,
            _ => None,
        };
        if args.stats {
            progress.advance(e.byte_len.unwrap_or(0));
        }
        let mut r = row(&e.name, e.dtype, &e.shape, bytes, st);
        r.quantization = e.quantization.as_ref().map(quantization_json);
        rows.push(r);
    }
    drop(progress);
    let metadata: std::collections::BTreeMap<String, String> =
        input.metadata().into_iter().collect();
    let mut out = super::stdout();
    if args.json {
        let listing = Listing {
            path: path.display().to_string(),
            format: input.format().name(),
            metadata,
            tensors: &rows,
            count: rows.len(),
            total_bytes: rows.iter().filter_map(|r| r.bytes).sum(),
        };
        serde_json::to_writer_pretty(&mut out, &listing)?;
        writeln!(out)?;
    } else {
        writeln!(out, "{}: {}", path.display(), input.format())?;
        for (k, v) in &metadata {
            // Long values (a Keras config) are cut here; --json has them whole.
            match v.char_indices().nth(96) {
                Some((cut, _)) => {
                    writeln!(out, "metadata {k}: {}... ({} bytes)", &v[..cut], v.len())?
                }
                None => writeln!(out, "metadata {k}: {v}")?,
            }
        }
        print_table(&mut out, &rows, args.stats)?;
    }
    out.flush()?;
    Ok(())
}

/// `{"scale": [..], "zero_point": [..], "quantized_dimension": k}`, plus
/// `block_size` and the `scales` (and `zero_points`) tensors of blockwise
/// quantization, TF.js's `min`, and the real values' dtype where not float.
fn quantization_json(q: &tftensor::io::Quantization) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("scale".into(), serde_json::json!(q.scale));
    m.insert("zero_point".into(), serde_json::json!(q.zero_point));
    m.insert(
        "quantized_dimension".into(),
        serde_json::json!(q.quantized_dimension),
    );
    if let Some(b) = &q.blockwise {
        m.insert("block_size".into(), serde_json::json!(b.block_size));
        m.insert("scales".into(), serde_json::json!(b.scales));
        if let Some(z) = &b.zero_points {
            m.insert("zero_points".into(), serde_json::json!(z));
        }
    }
    if let Some(min) = q.min {
        m.insert("min".into(), serde_json::json!(min));
    }
    if let Some(dt) = q.real_dtype.filter(|&d| d != DataType::Float) {
        m.insert("real_dtype".into(), serde_json::json!(dt.name()));
    }
    Value::Object(m)
}

fn string_bytes(t: &Tensor) -> tftensor::Result<u64> {
    Ok(t.as_slice::<Bytes>()?.iter().map(|s| s.len() as u64).sum())
}

fn num_json(v: Num) -> Value {
    match v {
        Num::Int(i) => i64::try_from(i)
            .map(Value::from)
            .or_else(|_| u64::try_from(i).map(Value::from))
            .unwrap_or(Value::Null),
        Num::Float(x) => serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number),
    }
}

fn row(
    name: &str,
    dtype: DataType,
    shape: &tftensor::TensorShape,
    bytes: Option<u64>,
    st: Option<Stats>,
) -> Row {
    let shown = |v: Option<Num>| v.map_or("-".to_string(), |v| Shown(v, dtype).to_string());
    // The mean of a float tensor is printed at its precision, that of an
    // integer tensor as a double.
    let mean_dtype = if dtype.is_floating() {
        dtype
    } else {
        DataType::Double
    };
    let stats_text = st.as_ref().map(|s| {
        [
            shown(s.min),
            shown(s.max),
            s.mean.map_or("-".to_string(), |m| {
                Shown(Num::Float(m), mean_dtype).to_string()
            }),
            s.nan.to_string(),
            s.inf.to_string(),
        ]
    });
    Row {
        quantization: None,
        name: name.to_string(),
        dtype: dtype.name().into_owned(),
        shape: shape.dim_sizes(),
        bytes,
        min: st.as_ref().map(|s| s.min.map_or(Value::Null, num_json)),
        max: st.as_ref().map(|s| s.max.map_or(Value::Null, num_json)),
        mean: st
            .as_ref()
            .map(|s| s.mean.map_or(Value::Null, |m| num_json(Num::Float(m)))),
        nan: st.as_ref().map(|s| s.nan),
        inf: st.as_ref().map(|s| s.inf),
        shape_text: shape.debug_string(),
        stats_text,
    }
}

fn print_table(out: &mut impl Write, rows: &[Row], with_stats: bool) -> std::io::Result<()> {
    let bytes_text: Vec<String> = rows
        .iter()
        .map(|r| r.bytes.map_or("-".to_string(), |b| b.to_string()))
        .collect();
    let mut header = vec!["NAME", "DTYPE", "SHAPE", "BYTES"];
    if with_stats {
        header.extend(["MIN", "MAX", "MEAN", "NAN", "INF"]);
    }
    let cells: Vec<Vec<&str>> = rows
        .iter()
        .zip(&bytes_text)
        .map(|(r, b)| {
            let mut c = vec![
                r.name.as_str(),
                r.dtype.as_str(),
                r.shape_text.as_str(),
                b.as_str(),
            ];
            if with_stats {
                match &r.stats_text {
                    Some(s) => c.extend(s.iter().map(String::as_str)),
                    None => c.extend(["-"; 5]),
                }
            }
            c
        })
        .collect();
    let mut width: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for c in &cells {
        for (w, s) in width.iter_mut().zip(c) {
            *w = (*w).max(s.chars().count());
        }
    }
    // Text columns left-aligned, numbers right-aligned.
    let line = |out: &mut dyn Write, c: &[&str]| -> std::io::Result<()> {
        let mut text = String::new();
        for (k, (s, w)) in c.iter().zip(&width).enumerate() {
            if k > 0 {
                text.push_str("  ");
            }
            let pad = w.saturating_sub(s.chars().count());
            if k >= 3 {
                text.push_str(&" ".repeat(pad));
                text.push_str(s);
            } else {
                text.push_str(s);
                if k + 1 < c.len() {
                    text.push_str(&" ".repeat(pad));
                }
            }
        }
        writeln!(out, "{}", text.trim_end())
    };
    line(out, &header)?;
    for c in &cells {
        line(out, c)?;
    }
    let total: u64 = rows.iter().filter_map(|r| r.bytes).sum();
    let unknown = rows.iter().filter(|r| r.bytes.is_none()).count();
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let mut summary = format!("{}, {total} bytes", plural(rows.len(), "tensor"));
    if total >= 1024 {
        summary.push_str(&format!(" ({})", human(total)));
    }
    if unknown > 0 {
        summary.push_str(&format!(" (and {unknown} of unknown size)"));
    }
    writeln!(out, "{summary}")
}

/// `1536` as `1.5 KiB`.
fn human(bytes: u64) -> String {
    let units = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64 / 1024.0;
    let mut unit = units[0];
    for u in units.iter().skip(1) {
        if value < 1024.0 {
            break;
        }
        value /= 1024.0;
        unit = u;
    }
    format!("{value:.1} {unit}")
}
