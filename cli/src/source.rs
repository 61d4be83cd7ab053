//! The one place the CLI meets `tftensor::io`: `--format`/`--to` values,
//! the read options every reading subcommand takes, and opening inputs.

use std::path::Path;

use anyhow::Result;
use tftensor::DataType;
use tftensor::io::{self, Format, OpenOptions, TensorSource};

/// `--format`/`--to` values: the library's format names.
pub fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    let names: Vec<&'static str> = Format::all().map(Format::name).collect();
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(names).try_map(|name: String| {
        Format::from_name(&name).ok_or_else(|| format!("unknown format {name}"))
    })
}

/// The formats this build reads, one line each from the library's rows:
/// name, file name endings, and whether `convert` writes it.
pub fn formats_help() -> String {
    let rows: Vec<(Format, String)> = Format::all().map(|f| (f, endings(f))).collect();
    let width = rows.iter().map(|(_, e)| e.len()).max().unwrap_or(0);
    let mut out = String::from("Formats (detected from the path and the first bytes):\n");
    for (f, endings) in rows {
        let writes = if f.can_write() { "read, write" } else { "read" };
        out.push_str(&format!("  {:<16} {endings:<width$}  {writes}\n", f.name()));
    }
    out
}

/// The formats `convert` writes, and what names them, from the rows.
pub fn output_formats_help() -> String {
    let mut out = String::from(
        "Output formats (--to, or OUT's ending; a .gz/.zz ending compresses a TFRecord):\n",
    );
    for f in Format::all().filter(|f| f.can_write()) {
        let line = format!("  {:<16} {}", f.name(), endings(f));
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(
        "A trailing / names a directory of TensorProto files; a name without an ending a \
         checkpoint prefix.",
    );
    out
}

/// A format's file name endings, `.npz .npy` style.
fn endings(f: Format) -> String {
    let endings: Vec<String> = f.extensions().iter().map(|e| format!(".{e}")).collect();
    endings.join(" ")
}

/// How to read inputs: options every reading subcommand takes.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ReadOptions {
    /// The dtype of NumPy arrays stored as opaque bytes (`V1`/`V2`, how
    /// NumPy saves ml_dtypes' bfloat16, float8 and int4), e.g. bfloat16.
    #[arg(long, value_name = "DTYPE")]
    pub npy_dtype: Option<DataType>,
    /// Memory-map checkpoint and safetensors inputs instead of reading
    /// them: aligned tensors are then used in place, without a copy. The
    /// files must not be changed by anything while tftensor runs.
    #[arg(long)]
    pub mmap: bool,
    /// Read s3://, gs:// and az:// URLs without credentials (public
    /// buckets), as the AWS CLI's option. Endpoints, credentials and
    /// timeouts otherwise come from the environment (AWS_*, GOOGLE_*,
    /// AZURE_*).
    #[arg(long)]
    pub no_sign_request: bool,
}

impl ReadOptions {
    /// How URLs are reached.
    pub fn remote(&self) -> io::RemoteOptions {
        let remote = io::RemoteOptions::default();
        if self.no_sign_request {
            remote.with_anonymous()
        } else {
            remote
        }
    }
}

/// Opens `path` as `format`, or as the format detected from it; a note on
/// how the path was resolved goes to stderr.
pub fn open(
    path: &Path,
    format: Option<Format>,
    options: &ReadOptions,
) -> Result<Box<dyn TensorSource>> {
    let mut opts = OpenOptions::default();
    opts.format = format;
    opts.npy_dtype = options.npy_dtype;
    opts.remote = options.remote();
    if options.mmap {
        // SAFETY: `--mmap` is the user's promise that the files are not
        // modified or truncated while this process runs.
        opts = unsafe { opts.with_mmap() };
    }
    let at = io::locate(path, &opts).map_err(hint)?;
    if let Some(note) = &at.note {
        eprintln!("tftensor: note: {note}");
    }
    io::open_located(&at, &opts).map_err(hint)
}

/// The error, with this front's option where the error needs one.
pub fn hint(err: tftensor::Error) -> anyhow::Error {
    if err.kind() == tftensor::ErrorKind::OpaqueDtype {
        return anyhow::anyhow!("{err}: pass --npy-dtype, e.g. --npy-dtype bfloat16");
    }
    anyhow::Error::new(err)
}
