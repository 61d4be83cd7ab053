//! `tftensor show`: tensors printed as TensorFlow prints them.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;

use tftensor::io::{Format, select, select_series};

use crate::error::at;
use crate::source::{ReadOptions, format_parser, hint, open};

/// Print tensors exactly as TensorFlow prints them (`SummarizeValue`).
///
/// Each tensor is a line `NAME: DTYPE SHAPE` and then its values: as
/// `tf.print` and `tf.strings.format` print them by default, or as TF's
/// `Assert` messages and `DebugString` do with --v1.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    tftensor show training/ckpt-3 dense/kernel/.ATTRIBUTES/VARIABLE_VALUE\n  \
    tftensor show weights.safetensors --max-entries -1\n  \
    tftensor show logs/ --tag loss\n  \
    tftensor show tensor.pb --v1 --max-entries 10")]
pub struct ShowArgs {
    /// The file, directory or checkpoint prefix to read.
    pub path: PathBuf,
    /// The tensors to print (all if none).
    pub names: Vec<String>,
    /// In a TensorBoard log directory: print the series of this tag (its
    /// values and steps, in every run that has it). Repeatable.
    #[arg(long, value_name = "TAG")]
    pub tag: Vec<String>,
    /// Values kept at each end of every dimension (v2), or in all (--v1);
    /// negative prints every value.
    #[arg(long, default_value_t = 3, allow_negative_numbers = true)]
    pub max_entries: i64,
    /// Print as TF's v1 printing (`Assert`, `DebugString`): at most
    /// --max-entries values in all, nested brackets without separators.
    #[arg(long)]
    pub v1: bool,
    /// The input's format, instead of detecting it.
    #[arg(long, value_parser = format_parser())]
    pub format: Option<Format>,
    #[command(flatten)]
    pub read: ReadOptions,
}

/// Runs `show`.
pub fn run(args: &ShowArgs) -> Result<()> {
    let mut input = open(&args.path, args.format, &args.read)?;
    let entries = input.entries().to_vec();
    let mut picked = Vec::new();
    if args.tag.is_empty() || !args.names.is_empty() {
        picked = select(input.as_ref(), &args.names).map_err(hint)?;
    }
    let named = picked.len();
    for tag in &args.tag {
        let series = select_series(input.as_ref(), tag).map_err(hint)?;
        picked.extend(series);
    }
    let mut out = super::stdout();
    for (k, &i) in picked.iter().enumerate() {
        let Some(entry) = entries.get(i) else {
            continue;
        };
        let tensor = input.read(i).map_err(|e| at(&args.path, &entry.name, e))?;
        if k > 0 {
            writeln!(out)?;
        }
        writeln!(
            out,
            "{}: {} {}",
            entry.name,
            entry.dtype.name(),
            entry.shape.debug_string()
        )?;
        out.write_all(&tensor.summarize_value_bytes(args.max_entries, !args.v1))?;
        writeln!(out)?;
        // A scalar series' values (not its steps) get a sparkline.
        let series_values = k >= named && !entry.name.ends_with("/steps") && tensor.dims() == 1;
        // Strings (text series) have none.
        let values = series_values.then(|| super::plot::real_values(&tensor).ok());
        if let Some((line, lo, hi)) = values
            .flatten()
            .and_then(|v| crate::chart::sparkline(&v, 60))
        {
            writeln!(out, "{line}  {lo} .. {hi}")?;
        }
    }
    out.flush()?;
    Ok(())
}
