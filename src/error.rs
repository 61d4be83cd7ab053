//! The crate's error type.
//!
//! Where TensorFlow CHECK-fails or returns a `Status`, tftensor returns
//! [`Error`]. Messages reuse TensorFlow's text where it has one (for example
//! `"144 vs. 120"` for a reshape of the wrong size), so logs can be compared.

use crate::dtype::DataType;

/// Everything that can go wrong in tftensor.
///
/// Each variant is a distinct kind, so callers can match on what happened
/// rather than on message text.
///
/// ```
/// use tftensor::{Error, Tensor, DataType};
/// let err = Tensor::new(DataType::Float, &[-1i64][..]).unwrap_err();
/// assert!(matches!(err, Error::InvalidShape(_)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A shape was invalid: a negative dimension, too many dimensions, or an
    /// element count that overflows `i64`.
    #[error("{0}")]
    InvalidShape(String),

    /// An argument was invalid in the way TensorFlow's `InvalidArgument`
    /// status describes, e.g. `BitcastFrom`'s size checks.
    #[error("{0}")]
    InvalidArgument(String),

    /// The tensor's dtype is not the one the caller asked for (TF's
    /// `"float expected, got int32"`).
    #[error("{expected} expected, got {actual}")]
    DataTypeMismatch {
        /// The dtype the accessor needs.
        expected: DataType,
        /// The tensor's dtype.
        actual: DataType,
    },

    /// Element or byte counts disagree, in TensorFlow's `"<new> vs. <old>"`
    /// form (e.g. `"144 vs. 120"`).
    #[error("{0}")]
    SizeMismatch(String),

    /// The dtype cannot be used here: `DT_INVALID`, a reference type, an
    /// unknown enum value, or a non-POD dtype where raw bytes are needed.
    #[error("{0}")]
    UnsupportedDataType(String),

    /// The data is not aligned as the accessor needs.
    #[error("{0}")]
    Misaligned(String),

    /// An index or range was out of bounds.
    #[error("{0}")]
    OutOfRange(String),

    /// The allocator could not provide the memory.
    #[error("failed to allocate {bytes} bytes")]
    AllocationFailed {
        /// The number of bytes requested.
        bytes: usize,
    },

    /// A configured limit was exceeded (see the crate's `limits` docs).
    #[error("{what}: {requested} exceeds the limit of {limit}")]
    LimitExceeded {
        /// What was limited.
        what: &'static str,
        /// The limit in force.
        limit: u64,
        /// What the input asked for.
        requested: u64,
    },

    /// A serialized `TensorProto` could not be parsed, or its contents do not
    /// form a valid tensor (TF: "Cannot parse tensor from proto").
    #[error("{0}")]
    InvalidProto(String),

    /// An I/O operation failed. `path` names the file or stream, so the
    /// message says where.
    #[error("{path}: {message}")]
    Io {
        /// The file, directory or stream the operation was on.
        path: String,
        /// The `std::io::ErrorKind` of the underlying error.
        kind: std::io::ErrorKind,
        /// The underlying error's message.
        message: String,
    },

    /// Stored data is corrupt: a checksum mismatch, a truncated record or
    /// block (TF's `DATA_LOSS`). The message names the file and what is wrong.
    #[error("{0}")]
    DataLoss(String),

    /// A file or stream is not valid in its format (a bad magic number, a
    /// header that lies about sizes, a feature this crate does not read).
    #[error("{format}: {message}")]
    InvalidFormat {
        /// The format: `"npy"`, `"safetensors"`, `"tensor bundle"`, ...
        format: &'static str,
        /// What is wrong, naming the file, key or record where known.
        message: String,
    },

    /// A named item does not exist: a checkpoint key, an archive member, a
    /// file (TF's `NOT_FOUND`).
    #[error("{0}")]
    NotFound(String),
}

impl Error {
    /// Wraps an I/O error with the path (or stream name) it happened on.
    ///
    /// ```
    /// use tftensor::Error;
    /// let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
    /// let err = Error::io("ckpt/model.index", &io);
    /// assert_eq!(err.to_string(), "ckpt/model.index: no such file");
    /// assert!(matches!(err, Error::Io { kind: std::io::ErrorKind::NotFound, .. }));
    /// ```
    pub fn io(path: impl std::fmt::Display, err: &std::io::Error) -> Self {
        Error::Io {
            path: path.to_string(),
            kind: err.kind(),
            message: err.to_string(),
        }
    }
}

impl From<crate::dtype::ParseDataTypeError> for Error {
    /// `InvalidArgument` with the parse error's message, TF's
    /// `"Unknown data type: <name>"`.
    ///
    /// ```
    /// fn parse(s: &str) -> tftensor::Result<tftensor::DataType> {
    ///     Ok(s.parse()?)
    /// }
    /// let err = parse("nope").unwrap_err();
    /// assert_eq!(err, tftensor::Error::InvalidArgument("Unknown data type: nope".into()));
    /// ```
    fn from(e: crate::dtype::ParseDataTypeError) -> Self {
        Error::InvalidArgument(e.to_string())
    }
}

/// `Result` with [`Error`] as the error type.
///
/// ```
/// fn total(t: &tftensor::Tensor) -> tftensor::Result<f32> {
///     Ok(t.flat::<f32>()?.sum())
/// }
/// let t = tftensor::Tensor::from_vec(&[3i64][..], vec![1.0f32, 2.0, 3.0]).unwrap();
/// assert_eq!(total(&t).unwrap(), 6.0);
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;
