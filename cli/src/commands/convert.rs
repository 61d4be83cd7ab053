//! `tftensor convert`: reads one format, writes another.

use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::adapters;
use crate::format::{locate_output, Format};
use crate::progress::Progress;
use crate::source::{open, select, ReadOptions};

/// Convert between checkpoint, npz, safetensors, TFRecord, npy and
/// TensorProto files.
///
/// The output format comes from --to or from OUT's name: `.safetensors`,
/// `.npz`, `.npy`, `.pb` (one TensorProto), `.tfrecord[.gz|.zz]`, a
/// trailing `/` (a directory of TensorProto files), and anything else
/// without an ending (or `.ckpt...`, `.index`) a checkpoint prefix. The
/// output appears under its name only once complete.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    tftensor convert training/ckpt-3 model.safetensors\n  \
    tftensor convert model.safetensors restored/ckpt-0 --to checkpoint\n  \
    tftensor convert saved_model_dir weights.npz --only dense/kernel/.ATTRIBUTES/VARIABLE_VALUE\n  \
    tftensor convert ckpt-3 tensors/ --skip-unsupported")]
pub struct ConvertArgs {
    /// The file, directory or checkpoint prefix to read.
    pub input: PathBuf,
    /// Where to write.
    pub output: PathBuf,
    /// The output format, instead of the one OUT's name says.
    #[arg(long, value_enum)]
    pub to: Option<Format>,
    /// Convert only these tensors (repeat the option for several).
    #[arg(long, value_name = "NAME")]
    pub only: Vec<String>,
    /// Leave out tensors whose dtype the output format cannot hold (each
    /// is named on stderr) instead of failing.
    #[arg(long)]
    pub skip_unsupported: bool,
    /// The input's format, instead of detecting it.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    #[command(flatten)]
    pub read: ReadOptions,
}

/// Runs `convert`.
pub fn run(args: &ConvertArgs) -> Result<()> {
    let out = locate_output(&args.output, args.to)?;
    let mut input = open(&args.input, args.format, &args.read)?;
    let entries = input.source.entries().to_vec();
    let mut picked = Vec::new();
    for i in select(&args.input, &entries, &args.only)? {
        let Some(e) = entries.get(i) else {
            continue;
        };
        if out.format.can_hold(e.dtype) {
            picked.push(i);
        } else if args.skip_unsupported {
            eprintln!(
                "tftensor: skipping '{}': {} cannot hold dtype {}",
                e.name,
                out.format.name(),
                e.dtype.name()
            );
        } else {
            bail!(
                "{}: tensor '{}' has dtype {}, which {} cannot hold \
                 (--skip-unsupported leaves it out)",
                args.input.display(),
                e.name,
                e.dtype.name(),
                out.format.name()
            );
        }
    }
    if out.format.holds_one_tensor() && picked.len() != 1 {
        bail!(
            "{}: a {} file holds one tensor, and {} are selected (pick one with --only)",
            args.output.display(),
            out.format.name(),
            picked.len()
        );
    }
    let total = picked
        .iter()
        .filter_map(|&i| entries.get(i)?.pod_bytes())
        .sum();
    let mut sink = adapters::create(&out)?;
    let mut progress = Progress::new("converting", total);
    for i in picked {
        let Some(e) = entries.get(i) else {
            continue;
        };
        progress.advance(0);
        let tensor = input.source.read(i)?;
        sink.add(&e.name, &tensor)?;
        progress.advance(e.pod_bytes().unwrap_or(0));
    }
    sink.finish()?;
    Ok(())
}
