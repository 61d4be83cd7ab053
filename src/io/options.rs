//! [`OpenOptions`] and [`CreateOptions`]: what [`open_with`](super::open_with)
//! and [`create_with`](super::create_with) take beside the path.

use super::{Compression, Format};
use crate::dtype::DataType;

/// How to open an input ([`open_with`](crate::io::open_with)).
///
/// ```
/// use tftensor::{io::{Format, OpenOptions}, DataType};
/// let opts = OpenOptions::default().with_format(Format::NPZ).with_npy_dtype(DataType::BFloat16);
/// assert_eq!((opts.format, opts.npy_dtype), (Some(Format::NPZ), Some(DataType::BFloat16)));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct OpenOptions {
    /// Read the input as this format instead of detecting it.
    pub format: Option<Format>,
    /// The dtype of NumPy arrays stored as opaque bytes (`V1`/`V2`, how
    /// NumPy saves ml_dtypes' bfloat16, float8 and int4).
    pub npy_dtype: Option<DataType>,
    /// A TFRecord's compression, instead of the one its content says.
    pub compression: Option<Compression>,
    /// Memory-map local inputs (set only by the unsafe
    /// [`with_mmap`](OpenOptions::with_mmap)).
    mmap: bool,
}

impl OpenOptions {
    /// Reads the input as `format`.
    ///
    /// ```
    /// use tftensor::io::{Format, OpenOptions};
    /// let src = tftensor::io::open_with("tests/data/checkpoints/tf2_keras", &OpenOptions::default().with_format(Format::CHECKPOINT))?;
    /// assert!(!src.entries().is_empty());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn with_format(mut self, format: Format) -> OpenOptions {
        self.format = Some(format);
        self
    }

    /// Reads opaque NumPy arrays as `dtype`.
    ///
    /// ```
    /// use tftensor::{io::OpenOptions, DataType};
    /// let opts = OpenOptions::default().with_npy_dtype(DataType::BFloat16);
    /// let src = tftensor::io::open_with("tests/data/npy/arrays.npz", &opts)?;
    /// assert!(src.entries().iter().any(|e| e.dtype == DataType::BFloat16));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn with_npy_dtype(mut self, dtype: DataType) -> OpenOptions {
        self.npy_dtype = Some(dtype);
        self
    }

    /// Reads a TFRecord as compressed with `compression`, whatever its
    /// content says.
    ///
    /// ```
    /// use tftensor::io::{Compression, OpenOptions};
    /// let opts = OpenOptions::default().with_compression(Compression::Gzip);
    /// let src = tftensor::io::open_with("tests/data/tfrecord/tensors.gzip.tfrecord", &opts)?;
    /// assert!(!src.entries().is_empty());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn with_compression(mut self, compression: Compression) -> OpenOptions {
        self.compression = Some(compression);
        self
    }

    /// Memory-maps local inputs where the format allows it: aligned
    /// tensors are then used in place, without a copy.
    ///
    /// # Safety
    /// The files must not be modified or truncated while the source or any
    /// tensor read from it is alive: reads go straight to the mapped pages.
    ///
    /// ```
    /// // SAFETY: nothing writes the test fixtures.
    /// let opts = unsafe { tftensor::io::OpenOptions::default().with_mmap() };
    /// assert!(opts.mmap());
    /// ```
    pub unsafe fn with_mmap(mut self) -> OpenOptions {
        self.mmap = true;
        self
    }

    /// Whether inputs are memory-mapped ([`with_mmap`](Self::with_mmap)).
    ///
    /// ```
    /// assert!(!tftensor::io::OpenOptions::default().mmap());
    /// ```
    pub fn mmap(&self) -> bool {
        self.mmap
    }
}

/// How to write an output ([`create_with`](crate::io::create_with)).
///
/// ```
/// use tftensor::io::{Compression, CreateOptions, Format};
/// let opts = CreateOptions::default().with_format(Format::NPZ).with_compression(Compression::Zlib);
/// assert_eq!(opts.compression, Some(Compression::Zlib));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CreateOptions {
    /// Write this format instead of the one the name says.
    pub format: Option<Format>,
    /// A TFRecord's compression (instead of the one a `.gz`/`.zz` ending
    /// says), or, for an `.npz`, deflated members when not `None`.
    pub compression: Option<Compression>,
    /// Metadata to keep where the format has a place for it
    /// (safetensors' `__metadata__`).
    pub metadata: Vec<(String, String)>,
}

impl CreateOptions {
    /// Writes `format`.
    ///
    /// ```
    /// let o = tftensor::io::CreateOptions::default().with_format(tftensor::io::Format::NPY);
    /// assert_eq!(o.format, Some(tftensor::io::Format::NPY));
    /// ```
    pub fn with_format(mut self, format: Format) -> CreateOptions {
        self.format = Some(format);
        self
    }

    /// Compresses the output.
    ///
    /// ```
    /// use tftensor::io::{Compression, CreateOptions};
    /// let tmp = tempfile::tempdir().unwrap();
    /// let p = tmp.path().join("w.npz");
    /// let mut sink = tftensor::io::create_with(&p, &CreateOptions::default().with_compression(Compression::Zlib))?;
    /// sink.add("z", &tftensor::Tensor::new(tftensor::DataType::Float, [1000])?)?;
    /// sink.finish()?;
    /// assert!(std::fs::metadata(&p)?.len() < 1000); // deflated zeros
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_compression(mut self, compression: Compression) -> CreateOptions {
        self.compression = Some(compression);
        self
    }

    /// Keeps `metadata` in formats that have a place for it.
    ///
    /// ```
    /// let o = tftensor::io::CreateOptions::default().with_metadata(vec![("format".into(), "pt".into())]);
    /// assert_eq!(o.metadata.len(), 1);
    /// ```
    pub fn with_metadata(mut self, metadata: Vec<(String, String)>) -> CreateOptions {
        self.metadata = metadata;
        self
    }
}
