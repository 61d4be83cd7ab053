//! The file formats [`crate::io`] reads and writes: one row each, with
//! its name, extensions, magic bytes and capabilities, and detection from
//! a path and the file's first bytes.

use std::path::Path;

use crate::dtype::DataType;
#[cfg(feature = "tfrecord")]
use crate::tfrecord::Compression;

/// A tensor file format. Each row owns its facts: [`Format::name`],
/// [`Format::extensions`], [`Format::magic`], and what it can read, write
/// and hold. Detection is [`crate::io::detect`].
///
/// ```
/// use tftensor::io::Format;
/// assert_eq!(Format::from_name("safetensors"), Some(Format::Safetensors));
/// assert_eq!(Format::Npz.extensions(), ["npz"]);
/// assert!(Format::Checkpoint.can_hold(tftensor::DataType::String));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// A TensorFlow checkpoint (tensor bundle): a prefix such as
    /// `dir/ckpt-3`, a checkpoint directory, or a SavedModel directory.
    Checkpoint,
    /// One binary TensorProto (what `tf.io.serialize_tensor` writes).
    TensorProto,
    /// A directory of binary TensorProto files: tensor `a/b` is `a/b.pb`.
    TensorProtoDir,
    /// A TFRecord file (plain, GZIP or ZLIB) of serialized TensorProtos or
    /// `tf.train.Example`s.
    TfRecord,
    /// A NumPy `.npy` file (one tensor).
    Npy,
    /// A NumPy `.npz` archive, or a directory of `.npy` files.
    Npz,
    /// A `.safetensors` file.
    Safetensors,
    /// Keras weights: `.weights.h5`, a `.keras` zip, a sharded
    /// `.weights.json`, or a legacy Keras 2 `.h5` (feature `keras`).
    Keras,
    /// The `Const` nodes of a frozen `GraphDef` `.pb` (feature
    /// `saved_model`); read only.
    GraphDef,
    /// A TensorBoard log directory or event file (feature `events`): one
    /// series per run and tag; read only.
    Events,
}

/// The facts of one format.
struct Row {
    format: Format,
    name: &'static str,
    extensions: &'static [&'static str],
    magic: &'static [&'static [u8]],
    one_tensor: bool,
    feature_on: bool,
}

/// Every format, once: a new format is one row here (and one arm in
/// [`Format::row`], which the compiler checks is there).
const ROWS: [&Row; 10] = [
    &CHECKPOINT,
    &TENSORPROTO,
    &TENSORPROTO_DIR,
    &TFRECORD,
    &NPY,
    &NPZ,
    &SAFETENSORS,
    &KERAS,
    &GRAPH_DEF,
    &EVENTS,
];

const CHECKPOINT: Row = Row {
    format: Format::Checkpoint,
    name: "checkpoint",
    extensions: &["index", "ckpt"],
    magic: &[],
    one_tensor: false,
    feature_on: cfg!(feature = "checkpoint"),
};
const TENSORPROTO: Row = Row {
    format: Format::TensorProto,
    name: "tensorproto",
    extensions: &["pb"],
    magic: &[],
    one_tensor: true,
    feature_on: true,
};
const TENSORPROTO_DIR: Row = Row {
    format: Format::TensorProtoDir,
    name: "tensorproto-dir",
    extensions: &[],
    magic: &[],
    one_tensor: false,
    feature_on: true,
};
const TFRECORD: Row = Row {
    format: Format::TfRecord,
    name: "tfrecord",
    extensions: &["tfrecord", "tfrecords", "tfr"],
    magic: &[],
    one_tensor: false,
    feature_on: cfg!(feature = "tfrecord"),
};
const NPY: Row = Row {
    format: Format::Npy,
    name: "npy",
    extensions: &["npy"],
    magic: &[b"\x93NUMPY"],
    one_tensor: true,
    feature_on: cfg!(feature = "npy"),
};
const NPZ: Row = Row {
    format: Format::Npz,
    name: "npz",
    extensions: &["npz"],
    magic: &[b"PK\x03\x04", b"PK\x05\x06"],
    one_tensor: false,
    feature_on: cfg!(feature = "npy"),
};
const SAFETENSORS: Row = Row {
    format: Format::Safetensors,
    name: "safetensors",
    extensions: &["safetensors"],
    magic: &[],
    one_tensor: false,
    feature_on: cfg!(feature = "safetensors"),
};
const KERAS: Row = Row {
    format: Format::Keras,
    name: "keras",
    extensions: &["h5", "keras", "hdf5"],
    magic: &[b"\x89HDF\r\n\x1a\n"],
    one_tensor: false,
    feature_on: cfg!(feature = "keras"),
};
const GRAPH_DEF: Row = Row {
    format: Format::GraphDef,
    name: "graphdef",
    extensions: &[],
    magic: &[],
    one_tensor: false,
    feature_on: cfg!(feature = "saved_model"),
};
const EVENTS: Row = Row {
    format: Format::Events,
    name: "events",
    extensions: &[],
    magic: &[],
    one_tensor: false,
    feature_on: cfg!(feature = "events"),
};

impl Format {
    /// Every format, in a fixed order.
    ///
    /// ```
    /// assert!(tftensor::io::Format::all().any(|f| f.name() == "npy"));
    /// ```
    pub fn all() -> impl Iterator<Item = Format> {
        ROWS.iter().map(|r| r.format)
    }

    fn row(self) -> &'static Row {
        match self {
            Format::Checkpoint => &CHECKPOINT,
            Format::TensorProto => &TENSORPROTO,
            Format::TensorProtoDir => &TENSORPROTO_DIR,
            Format::TfRecord => &TFRECORD,
            Format::Npy => &NPY,
            Format::Npz => &NPZ,
            Format::Safetensors => &SAFETENSORS,
            Format::Keras => &KERAS,
            Format::GraphDef => &GRAPH_DEF,
            Format::Events => &EVENTS,
        }
    }

    /// The name used in messages, on the command line and in Python.
    ///
    /// ```
    /// assert_eq!(tftensor::io::Format::TensorProtoDir.name(), "tensorproto-dir");
    /// ```
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The format named `name` ([`Format::name`]), ignoring ASCII case.
    ///
    /// ```
    /// assert_eq!(tftensor::io::Format::from_name("TFRecord"), Some(tftensor::io::Format::TfRecord));
    /// assert_eq!(tftensor::io::Format::from_name("xls"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Format> {
        ROWS.iter()
            .find(|r| r.name.eq_ignore_ascii_case(name))
            .map(|r| r.format)
    }

    /// File name endings (without the dot) that name this format.
    ///
    /// ```
    /// assert!(tftensor::io::Format::TfRecord.extensions().contains(&"tfrecords"));
    /// ```
    pub fn extensions(self) -> &'static [&'static str] {
        self.row().extensions
    }

    /// The byte strings a file of this format may start with (none for
    /// formats told apart by other means).
    ///
    /// ```
    /// assert_eq!(tftensor::io::Format::Npy.magic(), [b"\x93NUMPY"]);
    /// ```
    pub fn magic(self) -> &'static [&'static [u8]] {
        self.row().magic
    }

    /// Whether a file of this format holds exactly one tensor, with no name.
    ///
    /// ```
    /// assert!(tftensor::io::Format::Npy.holds_one_tensor());
    /// ```
    pub fn holds_one_tensor(self) -> bool {
        self.row().one_tensor
    }

    /// Whether this build can read the format (its cargo feature is on).
    ///
    /// ```
    /// assert!(tftensor::io::Format::TensorProto.can_read());
    /// ```
    pub fn can_read(self) -> bool {
        self.row().feature_on
    }

    /// Whether this build can write the format.
    ///
    /// ```
    /// assert!(tftensor::io::Format::TensorProtoDir.can_write());
    /// ```
    pub fn can_write(self) -> bool {
        self.row().feature_on && !matches!(self, Format::GraphDef | Format::Events)
    }

    /// Whether a file of this format can hold a tensor of `dtype` so that
    /// it reads back as the same dtype. Each format's answer comes from its
    /// own dtype table.
    ///
    /// ```
    /// use tftensor::{io::Format, DataType};
    /// assert!(!Format::Safetensors.can_hold(DataType::String));
    /// assert!(Format::TfRecord.can_hold(DataType::Variant));
    /// ```
    pub fn can_hold(self, dtype: DataType) -> bool {
        if !self.can_write() {
            return false;
        }
        match self {
            // TensorProtos (and so TFRecords of them) and bundles hold every
            // dtype a tensor can have.
            Format::Checkpoint
            | Format::TensorProto
            | Format::TensorProtoDir
            | Format::TfRecord => dtype.is_valid_tensor_dtype(),
            #[cfg(feature = "npy")]
            Format::Npy | Format::Npz => crate::npy::can_hold(dtype),
            #[cfg(feature = "safetensors")]
            Format::Safetensors => crate::safetensors::can_hold(dtype),
            #[cfg(feature = "keras")]
            Format::Keras => crate::keras::can_hold(dtype),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The format a file name's ending says, ignoring a `.gz`/`.zz`/`.zlib`
    /// compression ending (TFRecord only).
    ///
    /// ```
    /// use tftensor::io::Format;
    /// assert_eq!(Format::from_extension("a.tfrecord.gz".as_ref()), Some(Format::TfRecord));
    /// assert_eq!(Format::from_extension("w.NPZ".as_ref()), Some(Format::Npz));
    /// assert_eq!(Format::from_extension("notes.txt".as_ref()), None);
    /// ```
    pub fn from_extension(path: &Path) -> Option<Format> {
        let name = path.file_name()?.to_string_lossy();
        let (stem, _) = strip_compression_ext(&name);
        let ext = Path::new(stem)
            .extension()?
            .to_string_lossy()
            .to_ascii_lowercase();
        ROWS.iter()
            .find(|r| r.extensions.contains(&ext.as_str()))
            .map(|r| r.format)
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Splits a `.gz`, `.zz` or `.zlib` ending off a name.
pub(crate) fn strip_compression_ext(name: &str) -> (&str, CompressionExt) {
    if let Some(stem) = name.strip_suffix(".gz") {
        (stem, CompressionExt::Gzip)
    } else if let Some(stem) = name
        .strip_suffix(".zz")
        .or_else(|| name.strip_suffix(".zlib"))
    {
        (stem, CompressionExt::Zlib)
    } else {
        (name, CompressionExt::None)
    }
}

#[cfg(feature = "tfrecord")]
pub(crate) type CompressionExt = Compression;

/// Without TFRecord support, compression endings are only stripped.
#[cfg(not(feature = "tfrecord"))]
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum CompressionExt {
    None,
    Zlib,
    Gzip,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_cover_every_format() {
        for f in Format::all() {
            assert_eq!(Format::from_name(f.name()), Some(f));
        }
        assert_eq!(Format::all().count(), ROWS.len());
    }
}
