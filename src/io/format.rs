//! [`Format`]: which format a file is. Each format's adapter in
//! `src/io/formats/` names its own (`Format::NPY`, ...) and holds its row:
//! the facts (extensions, magic bytes) and the behaviour (detection, open,
//! create, the dtypes it holds), reached through the methods on `Format`.

use std::fmt;

/// A tensor file format, named as the CLI and Python name it. The formats
/// of this build are [`Format::all`]; each is an associated constant
/// (`Format::NPY`) defined beside its reader, behind its cargo feature.
///
/// ```
/// use tftensor::io::Format;
/// assert_eq!(Format::from_name("safetensors"), Some(Format::SAFETENSORS));
/// assert_eq!(Format::NPZ.extensions(), ["npz"]);
/// assert!(Format::CHECKPOINT.can_hold(tftensor::DataType::String));
/// match Format::NPY {
///     Format::NPY => {}
///     _ => unreachable!(),
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Format(&'static str);

impl Format {
    /// The format named `name`: for a format's adapter to name itself.
    pub(crate) const fn named(name: &'static str) -> Format {
        Format(name)
    }

    /// The name used in messages, on the command line and in Python.
    ///
    /// ```
    /// assert_eq!(tftensor::io::Format::TENSORPROTO_DIR.name(), "tensorproto-dir");
    /// ```
    pub fn name(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}
