//! [`Row`]: one format's facts and behaviour. Detection, opening and
//! creating loop over the rows (`src/io/formats/mod.rs`); nothing else
//! names a format.

use super::format::Format;
use super::located::Located;
use super::options::{CreateOptions, OpenOptions};
use super::probe::Probe;
use super::sink::TensorSink;
use super::source::TensorSource;
use crate::dtype::DataType;
use crate::error::Result;

/// How sure a row is that a probed file or folder is its format. The
/// surest claim wins; among equals, the row listed first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[allow(
    dead_code,
    reason = "each format's row claims what it can; a build without some formats leaves some claims unmade"
)]
pub(crate) enum Certainty {
    /// Only the name's ending says so (the format's reader then says what
    /// is wrong with the content).
    Extension,
    /// The content parses as the format's header (a TensorProto's dtype and
    /// shape, a safetensors length and `{`).
    Content,
    /// The format's magic bytes, or a checksum over its first bytes.
    Magic,
    /// A name or folder layout only this format has (`.index`,
    /// `.tfevents.`, a `checkpoint` state file).
    Name,
}

/// How a row opens a located input.
pub(crate) type Opener = fn(&Located, &OpenOptions) -> Result<Box<dyn TensorSource>>;

/// How a row starts a located output.
pub(crate) type Creator = fn(&Located, &CreateOptions) -> Result<Box<dyn TensorSink>>;

/// One format's facts and behaviour.
pub(crate) struct Row {
    /// Which format.
    pub(crate) format: Format,
    /// File name endings (no dot, lower case) that name the format.
    pub(crate) extensions: &'static [&'static str],
    /// Byte strings a file of the format starts with.
    pub(crate) magic: &'static [&'static [u8]],
    /// Whether a file holds exactly one tensor, with no name.
    pub(crate) one_tensor: bool,
    /// How sure the format is of a probed path (beyond its extensions and
    /// magic bytes, which the loop checks itself); `None` when it is not
    /// the format's.
    pub(crate) sniff: fn(&Probe<'_>) -> Option<Certainty>,
    /// Fills in what reading needs from the path's content or layout (a
    /// checkpoint's prefix, a TFRecord's compression), once the format is
    /// known.
    pub(crate) resolve: fn(&mut Located) -> Result<()>,
    /// Opens a located input.
    pub(crate) open: Opener,
    /// Starts a located output; `None` for a format only read.
    pub(crate) create: Option<Creator>,
    /// Whether an output key with no known extension names this format
    /// (a checkpoint prefix `ckpt/model`, a folder `out/`).
    pub(crate) names_output: fn(&str) -> bool,
    /// Fills in an output's location from its name (a checkpoint prefix
    /// without `.index`, a `.gz` compression), before `create`.
    pub(crate) output: fn(&mut Located, &CreateOptions),
    /// Whether a written file holds `dtype` so that it reads back the same.
    pub(crate) can_hold: fn(DataType) -> bool,
}

impl Row {
    /// The defaults a row starts from: no claims beyond extension and
    /// magic, nothing to resolve, read only.
    pub(crate) const fn base(format: Format, open: Opener) -> Row {
        Row {
            format,
            extensions: &[],
            magic: &[],
            one_tensor: false,
            sniff: no_claim,
            resolve: nothing_to_resolve,
            open,
            create: None,
            names_output: names_nothing,
            output: no_output_rule,
            can_hold: holds_nothing,
        }
    }
}

fn no_claim(_: &Probe<'_>) -> Option<Certainty> {
    None
}

fn nothing_to_resolve(_: &mut Located) -> Result<()> {
    Ok(())
}

fn names_nothing(_: &str) -> bool {
    false
}

fn no_output_rule(_: &mut Located, _: &CreateOptions) {}

fn holds_nothing(_: DataType) -> bool {
    false
}
