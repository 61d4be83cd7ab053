//! `tftensor convert`: reads one format, writes another.

use std::path::PathBuf;

use anyhow::Result;
use tftensor::io::{self, CopyEvent, CopyOptions, Format};

use crate::progress::Progress;
use crate::source::{ReadOptions, format_parser, hint, open};

/// Convert between the formats tftensor writes.
///
/// The output format comes from --to or from OUT's name (the list below).
/// The output appears under its name only once complete.
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
    /// Write quantized tensors (TFLite, TF.js) as their real float32
    /// values; without it they go out as stored, with their scales and
    /// zero points as tensors `NAME.scale` and `NAME.zero_point`.
    #[arg(long)]
    pub dequantize: bool,
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
    let mut done = io::CopyProgress::default();
    let mut widened = Vec::new();
    let mut on = |event: &CopyEvent<'_>| {
        let (bytes, total) = done.update(event);
        match *event {
            CopyEvent::Start { .. } => progress = Some(Progress::new("converting", total)),
            CopyEvent::Skipped { name, dtype } => eprintln!(
                "tftensor: skipping '{name}': {} cannot hold dtype {}",
                out.format,
                dtype.name()
            ),
            // Said once a dtype: its tensors are all widened the same way.
            CopyEvent::Widened { dtype, to, .. } => {
                if !widened.contains(&dtype) {
                    widened.push(dtype);
                    eprintln!(
                        "tftensor: {} cannot hold {}: such tensors are written as {} (exact, one value per element)",
                        out.format,
                        dtype.name(),
                        to.name()
                    );
                }
            }
            _ => {
                if let Some(p) = progress.as_mut() {
                    p.set(bytes);
                }
            }
        }
    };
    let options = CopyOptions::default()
        .only(args.only.iter().cloned())
        .skip_unsupported(args.skip_unsupported)
        .dequantize(args.dequantize)
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
