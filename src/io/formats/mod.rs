//! Every format's adapter, one file each, behind its cargo feature: its
//! [`Format`] constant, its [`Row`], its
//! [`TensorSource`](super::TensorSource) and
//! [`TensorSink`](super::TensorSink). And [`ROWS`], the one list of
//! formats: a new format is its adapter file, one `mod` line and one line
//! in [`ROWS`].

#[cfg(feature = "checkpoint")]
pub(crate) mod checkpoint;
#[cfg(feature = "events")]
pub(crate) mod events;
#[cfg(feature = "saved_model")]
pub(crate) mod graph_def;
#[cfg(feature = "keras")]
pub(crate) mod keras;
#[cfg(feature = "npy")]
pub(crate) mod npy;
#[cfg(feature = "safetensors")]
pub(crate) mod safetensors;
pub(crate) mod tensorproto;
#[cfg(feature = "tflite")]
pub(crate) mod tflite;
#[cfg(feature = "tfrecord")]
pub(crate) mod tfrecord;

use std::path::Path;

use super::format::Format;
use super::row::Row;
use crate::dtype::DataType;

/// Every format of this build, in detection order (among equally sure
/// claims, the first listed wins).
const ROWS: &[&Row] = &[
    #[cfg(feature = "checkpoint")]
    &checkpoint::ROW,
    &tensorproto::FILE_ROW,
    &tensorproto::DIR_ROW,
    #[cfg(feature = "tfrecord")]
    &tfrecord::ROW,
    #[cfg(feature = "npy")]
    &npy::NPY_ROW,
    #[cfg(feature = "npy")]
    &npy::NPZ_ROW,
    #[cfg(feature = "safetensors")]
    &safetensors::ROW,
    #[cfg(feature = "keras")]
    &keras::ROW,
    #[cfg(feature = "saved_model")]
    &graph_def::ROW,
    #[cfg(feature = "events")]
    &events::ROW,
    #[cfg(feature = "tflite")]
    &tflite::TFLITE_ROW,
    #[cfg(feature = "tflite")]
    &tflite::TASK_ROW,
    #[cfg(feature = "tflite")]
    &tflite::TFJS_ROW,
];

impl Format {
    /// The format's row.
    #[expect(
        clippy::expect_used,
        reason = "a `Format` is made only by `Format::named` in an adapter, for the \
                  constant its row in `ROWS` holds (behind the same feature)"
    )]
    pub(crate) fn row(self) -> &'static Row {
        ROWS.iter()
            .find(|r| r.format == self)
            .expect("every format constant has its row in ROWS")
    }

    /// Every format this build reads, in the rows' order.
    ///
    /// ```
    /// assert!(tftensor::io::Format::all().any(|f| f.name() == "npy"));
    /// ```
    pub fn all() -> impl Iterator<Item = Format> {
        ROWS.iter().map(|r| r.format)
    }

    /// The format named `name` ([`Format::name`]), ignoring ASCII case;
    /// `None` for a name this build does not read.
    ///
    /// ```
    /// use tftensor::io::Format;
    /// assert_eq!(Format::from_name("TFRecord"), Some(Format::TFRECORD));
    /// assert_eq!(Format::from_name("xls"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Format> {
        Format::all().find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// File name endings (without the dot) that name this format.
    ///
    /// ```
    /// assert!(tftensor::io::Format::TFRECORD.extensions().contains(&"tfrecords"));
    /// ```
    pub fn extensions(self) -> &'static [&'static str] {
        self.row().extensions
    }

    /// The byte strings a file of this format may start with (none for
    /// formats told apart by other means).
    ///
    /// ```
    /// assert_eq!(tftensor::io::Format::NPY.magic(), [b"\x93NUMPY"]);
    /// ```
    pub fn magic(self) -> &'static [&'static [u8]] {
        self.row().magic
    }

    /// Whether a file of this format holds exactly one tensor, with no name.
    ///
    /// ```
    /// assert!(tftensor::io::Format::NPY.holds_one_tensor());
    /// ```
    pub fn holds_one_tensor(self) -> bool {
        self.row().one_tensor
    }

    /// Whether this build can write the format.
    ///
    /// ```
    /// assert!(tftensor::io::Format::TENSORPROTO_DIR.can_write());
    /// assert!(!tftensor::io::Format::EVENTS.can_write());
    /// ```
    pub fn can_write(self) -> bool {
        self.row().create.is_some()
    }

    /// Whether a file of this format can hold a tensor of `dtype` so that
    /// it reads back as the same dtype. Each format's answer comes from its
    /// own dtype table; `false` for formats only read.
    ///
    /// ```
    /// use tftensor::{io::Format, DataType};
    /// assert!(!Format::SAFETENSORS.can_hold(DataType::String));
    /// assert!(Format::TFRECORD.can_hold(DataType::Variant));
    /// ```
    pub fn can_hold(self, dtype: DataType) -> bool {
        let row = self.row();
        row.create.is_some() && (row.can_hold)(dtype)
    }

    /// The format a file name's ending says, ignoring a `.gz`/`.zz`/`.zlib`
    /// compression ending.
    ///
    /// ```
    /// use tftensor::io::Format;
    /// assert_eq!(Format::from_extension("a.tfrecord.gz".as_ref()), Some(Format::TFRECORD));
    /// assert_eq!(Format::from_extension("w.NPZ".as_ref()), Some(Format::NPZ));
    /// assert_eq!(Format::from_extension("notes.txt".as_ref()), None);
    /// ```
    pub fn from_extension(path: &Path) -> Option<Format> {
        by_extension(&path.file_name()?.to_string_lossy())
    }
}

/// The format whose extensions include `name`'s ending (a compression
/// ending aside).
pub(crate) fn by_extension(name: &str) -> Option<Format> {
    let (stem, _) = super::Compression::of_name(name);
    let ext = Path::new(stem)
        .extension()?
        .to_string_lossy()
        .to_ascii_lowercase();
    Format::all().find(|f| f.extensions().contains(&ext.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_name_every_format_once() {
        for f in Format::all() {
            assert_eq!(Format::from_name(f.name()), Some(f));
            assert_eq!(f.row().format, f);
        }
        let mut names: Vec<_> = Format::all().map(Format::name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ROWS.len());
    }
}
