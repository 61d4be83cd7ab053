//! `tftensor index`: a TFRecord file's DALI `.idx` (one `offset length`
//! line per record), for random access by record number.

use std::path::PathBuf;

use anyhow::Result;
use tftensor::tfrecord::{RecordFile, format_index, write_index};

use crate::source::{ReadOptions, hint};

/// Write a TFRecord file's index as DALI's `.idx` (one `offset length`
/// line per record, the length counting the 16 framing bytes), checking
/// both CRCs of every record. GZIP files have no random access.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  tftensor index train-00000.tfrecord        # writes train-00000.tfrecord.idx\n  tftensor index s3://bucket/train-00000.tfrecord -o -"
)]
pub struct IndexArgs {
    /// The TFRecord file (a path or a URL).
    pub input: PathBuf,
    /// Where to write the index: a path or URL, `-` for stdout (default:
    /// INPUT.idx).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub read: ReadOptions,
}

/// Runs `index`.
pub fn run(args: &IndexArgs) -> Result<()> {
    let remote = args.read.remote();
    let file = RecordFile::open_with(&args.input, None, &remote).map_err(hint)?;
    let out = args.output.clone().unwrap_or_else(|| {
        let mut p = args.input.clone().into_os_string();
        p.push(".idx");
        PathBuf::from(p)
    });
    if out.as_os_str() == "-" {
        use std::io::Write;
        super::stdout().write_all(format_index(file.index()).as_bytes())?;
        return Ok(());
    }
    write_index(&out, file.index(), &remote).map_err(hint)?;
    eprintln!("tftensor: {} records -> {}", file.len(), out.display());
    Ok(())
}
