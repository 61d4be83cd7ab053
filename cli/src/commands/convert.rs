//! `tftensor convert`: reads one format, writes another.

use std::path::PathBuf;

use anyhow::Result;
use tftensor::io::{self, CopyEvent, CopyOptions, Format};

use crate::progress::Progress;
use crate::source::{ReadOptions, format_parser, hint, open};

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
    #[arg(long, value_parser = format_parser())]
    pub to: Option<Format>,
    /// Convert only these tensors (repeat the option for several).
    #[arg(long, value_name = "NAME")]
    pub only: Vec<String>,
    /// Leave out tensors whose dtype the output format cannot hold (each
    /// is named on stderr) instead of failing.
    #[arg(long)]
    pub skip_unsupported: bool,
    /// The input's format, instead of detecting it.
    #[arg(long, value_parser = format_parser())]
    pub format: Option<Format>,
    #[command(flatten)]
    pub read: ReadOptions,
}

/// Runs `convert`.
pub fn run(args: &ConvertArgs) -> Result<()> {
    let mut create = io::CreateOptions::default();
    create.format = args.to;
    create.remote = args.read.remote();
    let out = io::locate_output(&args.output, &create)
        .map_err(|e| anyhow::anyhow!("{e}; pass --to to name it"))?;
    let mut input = open(&args.input, args.format, &args.read)?;
    let sink = io::create_located(&out, &create).map_err(hint)?;
    let mut progress: Option<Progress> = None;
    let mut on = |event: &CopyEvent<'_>| match *event {
        CopyEvent::Start { total_bytes } => {
            progress = Some(Progress::new("converting", total_bytes));
        }
        CopyEvent::Skipped { name, dtype } => eprintln!(
            "tftensor: skipping '{name}': {} cannot hold dtype {}",
            out.format,
            dtype.name()
        ),
        CopyEvent::Reading { done_bytes, .. } | CopyEvent::Copied { done_bytes, .. } => {
            if let Some(p) = progress.as_mut() {
                p.set(done_bytes);
            }
        }
        _ => {}
    };
    let options = CopyOptions::default()
        .only(args.only.iter().cloned())
        .skip_unsupported(args.skip_unsupported)
        .progress(&mut on);
    io::copy(input.as_mut(), sink, options).map_err(|e| {
        let hint = match e.kind() {
            tftensor::ErrorKind::UnsupportedDataType => " (--skip-unsupported leaves it out)",
            tftensor::ErrorKind::InvalidArgument if out.format.holds_one_tensor() => {
                " (pick one with --only)"
            }
            _ => "",
        };
        anyhow::anyhow!("{e}{hint}")
    })?;
    Ok(())
}
