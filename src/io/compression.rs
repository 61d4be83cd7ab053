//! How a stream is compressed: TFRecord's GZIP and ZLIB, and, when
//! writing an `.npz`, deflated members.

use crate::error::{Error, Result};

/// How the whole stream of records is compressed (TF's
/// `TFRecordCompressionType`; `tf.io.TFRecordOptions(compression_type=...)`).
/// When writing an `.npz`, any compression but `None` deflates its members
/// (`np.savez_compressed`).
///
/// ```
/// use tftensor::io::Compression;
/// assert_eq!("GZIP".parse::<Compression>()?, Compression::Gzip);
/// assert_eq!("".parse::<Compression>()?, Compression::None);
/// assert_eq!(Compression::Zlib.as_str(), "ZLIB");
/// assert!("SNAPPY".parse::<Compression>().is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Records as they are (TF's `""` / `"NONE"`).
    #[default]
    None,
    /// A zlib stream (RFC 1950), TF's `"ZLIB"`.
    Zlib,
    /// A gzip stream (RFC 1952), TF's `"GZIP"`. Concatenated gzip members
    /// are read as one stream.
    Gzip,
}

impl Compression {
    /// TF's name for the compression type: `""`, `"ZLIB"` or `"GZIP"`.
    ///
    /// ```
    /// assert_eq!(tftensor::io::Compression::None.as_str(), "");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Compression::None => "",
            Compression::Zlib => "ZLIB",
            Compression::Gzip => "GZIP",
        }
    }

    /// TF's names, as `tf.io.TFRecordOptions` accepts them: `""`, `"NONE"`,
    /// `"ZLIB"`, `"GZIP"` (case-insensitive here). The one parser of
    /// compression names: the CLI and Python use it too.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for any other name.
    ///
    /// ```
    /// use tftensor::io::Compression;
    /// assert_eq!(Compression::parse("gzip")?, Compression::Gzip);
    /// assert!(Compression::parse("snappy").is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn parse(s: &str) -> Result<Self> {
        match s.to_ascii_uppercase().as_str() {
            "" | "NONE" => Ok(Compression::None),
            "ZLIB" => Ok(Compression::Zlib),
            "GZIP" => Ok(Compression::Gzip),
            _ => Err(Error::InvalidArgument(format!(
                "unsupported TFRecord compression type {s:?} (expected \"\", \"ZLIB\" or \"GZIP\")"
            ))),
        }
    }

    /// The compression a file name's ending says (`.gz`; `.zz` or
    /// `.zlib`), and the name without it.
    ///
    /// ```
    /// use tftensor::io::Compression;
    /// assert_eq!(Compression::of_name("a.tfrecord.gz"), ("a.tfrecord", Compression::Gzip));
    /// assert_eq!(Compression::of_name("a.npz"), ("a.npz", Compression::None));
    /// ```
    pub fn of_name(name: &str) -> (&str, Compression) {
        if let Some(stem) = name.strip_suffix(".gz") {
            (stem, Compression::Gzip)
        } else if let Some(stem) = name
            .strip_suffix(".zz")
            .or_else(|| name.strip_suffix(".zlib"))
        {
            (stem, Compression::Zlib)
        } else {
            (name, Compression::None)
        }
    }

    /// The compression of a stream's first bytes: GZIP by its magic
    /// bytes, ZLIB by an RFC 1950 header (deflate, and a header check that
    /// is a multiple of 31), else none.
    ///
    /// ```
    /// use tftensor::io::Compression;
    /// assert_eq!(Compression::of_head(b"\x1f\x8b\x08"), Compression::Gzip);
    /// assert_eq!(Compression::of_head(b"\x78\x9c"), Compression::Zlib);
    /// assert_eq!(Compression::of_head(b"\x05\x00"), Compression::None);
    /// ```
    pub fn of_head(head: &[u8]) -> Compression {
        match head {
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [cmf, flg, ..]
                if cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0 =>
            {
                Compression::Zlib
            }
            _ => Compression::None,
        }
    }
}

impl std::fmt::Display for Compression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Compression::None => "NONE",
            other => other.as_str(),
        })
    }
}

impl std::str::FromStr for Compression {
    type Err = Error;

    /// As [`Compression::parse`].
    fn from_str(s: &str) -> Result<Self> {
        Compression::parse(s)
    }
}
