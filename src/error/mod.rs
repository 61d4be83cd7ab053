//! The crate's error type.
//!
//! Where TensorFlow CHECK-fails or returns a `Status`, tftensor returns
//! [`Error`]. Messages reuse TensorFlow's text where it has one (for example
//! `"144 vs. 120"` for a reshape of the wrong size), so logs can be compared.
//! The numbers, dtypes and shapes a message is built from are fields, so
//! callers match on them rather than on text.

mod location;
mod overflow;
mod range;
mod shape;
mod size;

use crate::dtype::DataType;
pub use location::{IoSource, LocatedError, Location};
pub use overflow::OverflowError;
pub use range::RangeError;
pub use shape::ShapeError;
pub use size::SizeCheck;
use size::SizeText;
use std::fmt;

/// Everything that can go wrong in tftensor.
///
/// Each variant is a distinct kind, so callers can match on what happened
/// rather than on message text; `Display` writes TensorFlow's text.
///
/// ```
/// use tftensor::{DataType, Error, OverflowError, ShapeError, SizeCheck, Tensor};
/// let err = Tensor::new(DataType::Float, &[-1i64][..]).unwrap_err();
/// assert!(matches!(err, Error::InvalidShape(ShapeError::NegativeDimInList { dim: -1 })));
///
/// let err = Tensor::from_vec([2], vec![1u8]).unwrap_err();
/// assert!(matches!(
///     err,
///     Error::SizeMismatch { got: 1, expected: 2, check: SizeCheck::Elements }
/// ));
/// assert_eq!(err.to_string(), "1 vs. 2");
///
/// let err = Tensor::new(DataType::Float, [1i64 << 62, 4]).unwrap_err();
/// assert!(matches!(err, Error::Overflow(OverflowError::Multiply { rhs: 4, .. })));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A shape was invalid: a negative dimension, too many dimensions, a
    /// partial shape where a full one is needed.
    ///
    /// ```
    /// use tftensor::{Error, ShapeError, TensorShape};
    /// let err = TensorShape::new(&[2, -3]).unwrap_err();
    /// assert_eq!(err, Error::InvalidShape(ShapeError::NegativeDimInList { dim: -3 }));
    /// assert_eq!(err.to_string(), "Expected shape dimensions to be non-negative, got -3");
    /// ```
    #[error("{0}")]
    InvalidShape(ShapeError),

    /// An argument was invalid in the way TensorFlow's `InvalidArgument`
    /// status describes, e.g. `BitcastFrom`'s size checks. The message is
    /// TensorFlow's sentence.
    ///
    /// ```
    /// use tftensor::{Error, PartialTensorShape};
    /// let a = PartialTensorShape::new(&[2])?;
    /// let b = PartialTensorShape::new(&[2, 3])?;
    /// let err = a.merge_with(&b).unwrap_err();
    /// assert!(matches!(err, Error::InvalidArgument(_)));
    /// # Ok::<(), Error>(())
    /// ```
    #[error("{0}")]
    InvalidArgument(String),

    /// The tensor's dtype is not the one the caller asked for (TF's
    /// `"float expected, got int32"`).
    ///
    /// ```
    /// use tftensor::{DataType, Error, Tensor};
    /// let t = Tensor::new(DataType::Int32, [2])?;
    /// let err = t.flat::<f32>().unwrap_err();
    /// assert_eq!(
    ///     err,
    ///     Error::DataTypeMismatch { expected: DataType::Float, actual: DataType::Int32 }
    /// );
    /// assert_eq!(err.to_string(), "float expected, got int32");
    /// # Ok::<(), Error>(())
    /// ```
    #[error("{expected} expected, got {actual}")]
    DataTypeMismatch {
        /// The dtype the accessor needs.
        expected: DataType,
        /// The tensor's dtype.
        actual: DataType,
    },

    /// Element or byte counts disagree. `check` says which counts were
    /// compared, and so the text: TensorFlow's `"<got> vs. <expected>"`
    /// for element counts (e.g. `"144 vs. 120"`), `"Input size was <got> and
    /// expected <expected>"` for byte counts.
    ///
    /// ```
    /// use tftensor::{DataType, Error, SizeCheck, Tensor};
    /// let t = Tensor::new(DataType::Float, [2, 3])?;
    /// let err = t.shaped::<f32, tftensor::ndarray::Ix2>(&[4, 5]).unwrap_err();
    /// assert_eq!(err, Error::SizeMismatch { got: 20, expected: 6, check: SizeCheck::Elements });
    /// assert_eq!(err.to_string(), "20 vs. 6");
    /// # Ok::<(), Error>(())
    /// ```
    #[error("{}", SizeText { got: *got, expected: *expected, check })]
    SizeMismatch {
        /// The count the caller's data or request has.
        got: u64,
        /// The count the tensor or shape needs.
        expected: u64,
        /// What was compared.
        check: SizeCheck,
    },

    /// The dtype cannot be used here: `DT_INVALID`, a reference type, an
    /// unknown enum value, a non-POD dtype where raw bytes are needed, a dtype
    /// a file format cannot hold.
    ///
    /// ```
    /// use tftensor::{DataType, Error, Tensor};
    /// let err = Tensor::new(DataType::Invalid, [1]).unwrap_err();
    /// assert!(matches!(
    ///     &err,
    ///     Error::UnsupportedDataType { dtype: Some(DataType::Invalid), .. }
    /// ));
    /// assert_eq!(err.to_string(), "Type not set");
    /// ```
    #[error("{message}")]
    UnsupportedDataType {
        /// The dtype that cannot be used; `None` for a foreign type
        /// (DLPack) that has no TensorFlow dtype.
        dtype: Option<DataType>,
        /// What was attempted and why it fails, naming the dtype.
        message: String,
    },

    /// The data is not aligned as the accessor needs.
    ///
    /// ```
    /// use tftensor::Error;
    /// let err = Error::Misaligned {
    ///     dtype: tftensor::DataType::UInt8,
    ///     target: tftensor::DataType::Float,
    ///     address: 0x1001,
    ///     align: 4,
    /// };
    /// assert_eq!(err.to_string(), "data of uint8 tensor is not aligned for float");
    /// ```
    #[error("data of {dtype} tensor is not aligned for {target}")]
    Misaligned {
        /// The tensor's dtype.
        dtype: DataType,
        /// The dtype the accessor reads the data as.
        target: DataType,
        /// The address of the first element.
        address: usize,
        /// The alignment `target` needs, in bytes.
        align: usize,
    },

    /// An index or range was out of bounds.
    ///
    /// ```
    /// use tftensor::{Error, RangeError, TensorShape};
    /// let s = TensorShape::new(&[2, 3])?;
    /// let err = s.dim_size(2).unwrap_err();
    /// assert_eq!(err, Error::OutOfRange(RangeError::Dim { index: 2, rank: 2 }));
    /// assert_eq!(err.to_string(), "Index must be less than 2, got 2");
    /// # Ok::<(), Error>(())
    /// ```
    #[error("{0}")]
    OutOfRange(RangeError),

    /// An element count or byte size does not fit its integer type
    /// (`i64` element counts, `usize` byte sizes).
    ///
    /// ```
    /// use tftensor::{Error, OverflowError, TensorShape};
    /// let err = TensorShape::new(&[1 << 32, 1 << 31, 2]).unwrap_err();
    /// assert_eq!(err, Error::Overflow(OverflowError::Multiply { lhs: 1 << 32, rhs: 1 << 31 }));
    /// assert_eq!(
    ///     err.to_string(),
    ///     "Encountered overflow when multiplying 4294967296 with 2147483648, result: -1"
    /// );
    /// ```
    #[error("{0}")]
    Overflow(OverflowError),

    /// The allocator could not provide the memory.
    ///
    /// ```
    /// use tftensor::Error;
    /// let err = Error::AllocationFailed { bytes: 1 << 40 };
    /// assert_eq!(err.to_string(), "failed to allocate 1099511627776 bytes");
    /// ```
    #[error("failed to allocate {bytes} bytes")]
    AllocationFailed {
        /// The number of bytes requested.
        bytes: usize,
    },

    /// A configured limit was exceeded (see the crate's `limits` docs).
    ///
    /// ```
    /// use tftensor::Error;
    /// let err = Error::LimitExceeded { what: "proto bytes", limit: 10, requested: 12 };
    /// assert_eq!(err.to_string(), "proto bytes: 12 exceeds the limit of 10");
    /// ```
    #[error("{what}: {requested} exceeds the limit of {limit}")]
    LimitExceeded {
        /// What was limited.
        what: &'static str,
        /// The limit in force.
        limit: u64,
        /// What the input asked for.
        requested: u64,
    },

    /// A serialized `TensorProto` (or another proto) could not be parsed, or
    /// its contents do not form a valid tensor (TF: "Cannot parse tensor from
    /// proto"). When protobuf decoding failed, `source` is prost's error
    /// (also [`std::error::Error::source`]); `message` is the full text.
    ///
    /// ```
    /// use std::error::Error as _;
    /// use tftensor::{Error, Tensor};
    /// let err = Tensor::decode(tftensor::bytes::Bytes::from_static(&[0xff, 0xff])).unwrap_err();
    /// assert!(matches!(&err, Error::InvalidProto { source: Some(_), .. }));
    /// assert!(err.source().is_some());
    /// ```
    #[error("{message}")]
    InvalidProto {
        /// What is wrong (TensorFlow's text where it has one).
        message: String,
        /// The protobuf decoding error, when that is the cause.
        #[source]
        source: Option<prost::DecodeError>,
    },

    /// An I/O operation failed. `path` names the file or stream; the
    /// `std::io::Error` is kept as [`std::error::Error::source`].
    ///
    /// ```
    /// use std::error::Error as _;
    /// let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
    /// let err = tftensor::Error::io("ckpt/model.index", io);
    /// assert_eq!(err.to_string(), "ckpt/model.index: no such file");
    /// assert_eq!(err.io_kind(), Some(std::io::ErrorKind::NotFound));
    /// let cause = err.source().unwrap().downcast_ref::<tftensor::IoSource>().unwrap();
    /// assert_eq!(cause.get().kind(), std::io::ErrorKind::NotFound);
    /// ```
    #[error("{at}{source}")]
    Io {
        /// The underlying error.
        source: IoSource,
        /// Where: the file, directory, stream or URL (always set by
        /// [`Error::io`]), the key and offset where known.
        at: Location,
    },

    /// Stored data is corrupt: a checksum mismatch, a truncated record or
    /// block (TF's `DATA_LOSS`). `at` says where: the file, the key or
    /// record, the byte offset.
    ///
    /// ```
    /// use tftensor::Error;
    /// let err = Error::data_loss("checksum mismatch").with_path("model.index").with_offset(40);
    /// assert_eq!(err.to_string(), "model.index: at byte 40: checksum mismatch");
    /// assert_eq!(err.location().unwrap().offset, Some(40));
    /// ```
    #[error("{at}{message}")]
    DataLoss {
        /// What is wrong.
        message: String,
        /// Where.
        at: Location,
    },

    /// A file or stream is not valid in its format (a bad magic number, a
    /// header that lies about sizes, a feature this crate does not read).
    ///
    /// ```
    /// use tftensor::Error;
    /// let err = Error::invalid_format("npy", "bad magic").with_path("a.npy");
    /// assert_eq!(err.to_string(), "a.npy: npy: bad magic");
    /// ```
    #[error("{at}{format}: {message}")]
    InvalidFormat {
        /// The format: `"npy"`, `"safetensors"`, `"tensor bundle"`, ...
        format: &'static str,
        /// What is wrong.
        message: String,
        /// Where: the file, key and offset where known.
        at: Location,
    },

    /// Stored elements are of a type the file does not name, only its size:
    /// NumPy's opaque `V<n>` arrays, how it stores ml_dtypes' bfloat16,
    /// float8 and int4. The reader must be told the dtype (in Rust,
    /// [`read_npy_as`](crate::npy) and friends; each front end has its own
    /// option, which it names when it reports this error).
    ///
    /// ```
    /// let err = tftensor::Error::OpaqueDtype {
    ///     descr: "<V2".into(),
    ///     size: 2,
    ///     at: tftensor::Location::default(),
    /// };
    /// assert!(err.to_string().starts_with("npy: '<V2' is an opaque 2-byte type"));
    /// ```
    #[error(
        "{at}npy: '{descr}' is an opaque {size}-byte type (ml_dtypes writes bfloat16, float8, \
         int4 and friends this way); say which dtype it holds"
    )]
    OpaqueDtype {
        /// The type as the file writes it (`"<V2"`).
        descr: String,
        /// Its size in bytes.
        size: usize,
        /// Where.
        at: Location,
    },

    /// A named item does not exist: a checkpoint key, an archive member, a
    /// file (TF's `NOT_FOUND`).
    ///
    /// ```
    /// use tftensor::Error;
    /// let err = Error::not_found("Key w not found in checkpoint");
    /// assert_eq!(err.to_string(), "Key w not found in checkpoint");
    /// ```
    #[error("{at}{message}")]
    NotFound {
        /// What is missing.
        message: String,
        /// Where it was looked for.
        at: Location,
    },

    /// No format claims a file or folder: it is none of the formats this
    /// build reads (`tried`, by name). Nothing is guessed.
    ///
    /// ```
    /// let err = tftensor::io::open("Cargo.toml").err().unwrap();
    /// assert!(matches!(&err, tftensor::Error::UnknownFormat { tried, .. } if tried.contains(&"npy")));
    /// assert!(err.to_string().starts_with("Cargo.toml: not a format tftensor reads (tried checkpoint, "));
    /// ```
    #[error("{at}not a format tftensor reads (tried {})", tried.join(", "))]
    UnknownFormat {
        /// The formats asked, by [`name`](crate::io::Format::name).
        tried: Vec<&'static str>,
        /// Where.
        at: Location,
    },

    /// Any other kind of error, with where it happened: what
    /// [`with_path`](Error::with_path), [`with_key`](Error::with_key) and
    /// [`with_offset`](Error::with_offset) make of an error whose kind has
    /// no location of its own. [`location`](Error::location),
    /// [`kind`](Error::kind) and [`inner`](Error::inner) look through it;
    /// `Display` prints the location once, before the error.
    ///
    /// ```
    /// use tftensor::{Error, ErrorKind};
    /// let err = Error::InvalidArgument("bad".into()).with_path("a.npz").with_key("w");
    /// assert_eq!(err.to_string(), "a.npz: 'w': bad");
    /// assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    /// assert!(matches!(err.inner(), Error::InvalidArgument(_)));
    /// ```
    #[error(transparent)]
    At(Box<LocatedError>),
}

/// What kind an [`Error`] is, looking through [`Error::At`]: one per
/// variant, so callers match on the kind wherever it happened.
///
/// ```
/// use tftensor::{Error, ErrorKind};
/// assert_eq!(Error::data_loss("x").kind(), ErrorKind::DataLoss);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// [`Error::InvalidShape`].
    InvalidShape,
    /// [`Error::InvalidArgument`].
    InvalidArgument,
    /// [`Error::DataTypeMismatch`].
    DataTypeMismatch,
    /// [`Error::SizeMismatch`].
    SizeMismatch,
    /// [`Error::UnsupportedDataType`].
    UnsupportedDataType,
    /// [`Error::Misaligned`].
    Misaligned,
    /// [`Error::OutOfRange`].
    OutOfRange,
    /// [`Error::Overflow`].
    Overflow,
    /// [`Error::AllocationFailed`].
    AllocationFailed,
    /// [`Error::LimitExceeded`].
    LimitExceeded,
    /// [`Error::InvalidProto`].
    InvalidProto,
    /// [`Error::Io`].
    Io,
    /// [`Error::DataLoss`].
    DataLoss,
    /// [`Error::InvalidFormat`].
    InvalidFormat,
    /// [`Error::OpaqueDtype`].
    OpaqueDtype,
    /// [`Error::NotFound`].
    NotFound,
    /// [`Error::UnknownFormat`].
    UnknownFormat,
}

impl Error {
    /// Wraps an I/O error with the path (or stream name) it happened on;
    /// `err` is kept as the error's source (a borrowed one is copied with
    /// its kind, OS code and text).
    ///
    /// ```
    /// use tftensor::Error;
    /// let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
    /// let err = Error::io("ckpt/model.index", &io);
    /// assert_eq!(err.to_string(), "ckpt/model.index: no such file");
    /// assert!(matches!(err, Error::Io { .. }));
    /// ```
    pub fn io(path: impl std::fmt::Display, err: impl Into<IoSource>) -> Self {
        Error::Io {
            source: err.into(),
            at: Location {
                path: Some(path.to_string()),
                ..Location::default()
            },
        }
    }

    /// An [`Error::DataLoss`] with no location yet (add it with
    /// [`Error::with_path`] and friends).
    ///
    /// ```
    /// let err = tftensor::Error::data_loss("truncated");
    /// assert_eq!(err.to_string(), "truncated");
    /// ```
    pub fn data_loss(message: impl Into<String>) -> Self {
        Error::DataLoss {
            message: message.into(),
            at: Location::default(),
        }
    }

    /// An [`Error::NotFound`] with no location yet.
    ///
    /// ```
    /// let err = tftensor::Error::not_found("no tensor named 'w'").with_path("a.npz");
    /// assert_eq!(err.to_string(), "a.npz: no tensor named 'w'");
    /// ```
    pub fn not_found(message: impl Into<String>) -> Self {
        Error::NotFound {
            message: message.into(),
            at: Location::default(),
        }
    }

    /// An [`Error::InvalidFormat`] of `format` with no location yet.
    ///
    /// ```
    /// let err = tftensor::Error::invalid_format("npz", "not a zip archive");
    /// assert_eq!(err.to_string(), "npz: not a zip archive");
    /// ```
    pub fn invalid_format(format: &'static str, message: impl Into<String>) -> Self {
        Error::InvalidFormat {
            format,
            message: message.into(),
            at: Location::default(),
        }
    }

    /// Sets the file (or URL) where the error happened, unless it has one
    /// already. Any kind takes a location: one whose variant has no field
    /// for it is wrapped in [`Error::At`].
    ///
    /// ```
    /// let err = tftensor::Error::data_loss("bad block").with_path("a.index").with_path("b");
    /// assert_eq!(err.to_string(), "a.index: bad block");
    /// let err = tftensor::Error::InvalidArgument("bad".into()).with_path("a.npy");
    /// assert_eq!(err.path(), Some("a.npy"));
    /// ```
    pub fn with_path(self, path: impl fmt::Display) -> Self {
        self.locate(|at| {
            at.path.get_or_insert_with(|| path.to_string());
        })
    }

    /// Sets the key (tensor, record or member) unless it has one.
    ///
    /// ```
    /// let err = tftensor::Error::data_loss("short").with_key("w");
    /// assert_eq!(err.to_string(), "'w': short");
    /// ```
    pub fn with_key(self, key: impl fmt::Display) -> Self {
        self.locate(|at| {
            at.key.get_or_insert_with(|| key.to_string());
        })
    }

    /// Sets the byte offset unless it has one.
    ///
    /// ```
    /// let err = tftensor::Error::data_loss("bad").with_offset(8);
    /// assert_eq!(err.location().and_then(|at| at.offset), Some(8));
    /// ```
    pub fn with_offset(self, offset: u64) -> Self {
        self.locate(|at| {
            at.offset.get_or_insert(offset);
        })
    }

    /// Applies `set` to the error's location, wrapping the error in
    /// [`Error::At`] when its kind has no location field.
    fn locate(mut self, set: impl FnOnce(&mut Location)) -> Self {
        if let Some(at) = self.location_mut() {
            set(at);
            return self;
        }
        let mut location = Location::default();
        set(&mut location);
        if location == Location::default() {
            return self;
        }
        Error::At(Box::new(LocatedError {
            location,
            error: self,
        }))
    }

    /// Where the error happened, whatever its kind; `None` when nothing
    /// says.
    ///
    /// ```
    /// let err = tftensor::Error::not_found("gone").with_path("x");
    /// assert_eq!(err.location().unwrap().path.as_deref(), Some("x"));
    /// assert!(tftensor::Error::InvalidArgument("x".into()).location().is_none());
    /// ```
    pub fn location(&self) -> Option<&Location> {
        match self {
            Error::InvalidFormat { at, .. }
            | Error::DataLoss { at, .. }
            | Error::NotFound { at, .. }
            | Error::OpaqueDtype { at, .. }
            | Error::Io { at, .. }
            | Error::UnknownFormat { at, .. } => Some(at),
            Error::At(located) => Some(&located.location),
            _ => None,
        }
    }

    fn location_mut(&mut self) -> Option<&mut Location> {
        match self {
            Error::InvalidFormat { at, .. }
            | Error::DataLoss { at, .. }
            | Error::NotFound { at, .. }
            | Error::OpaqueDtype { at, .. }
            | Error::Io { at, .. }
            | Error::UnknownFormat { at, .. } => Some(at),
            Error::At(located) => Some(&mut located.location),
            _ => None,
        }
    }

    /// The error itself, past an [`Error::At`] wrapper: what to match on.
    ///
    /// ```
    /// use tftensor::Error;
    /// let err = Error::InvalidArgument("x".into()).with_key("w");
    /// assert!(matches!(err.inner(), Error::InvalidArgument(m) if m == "x"));
    /// ```
    pub fn inner(&self) -> &Error {
        match self {
            Error::At(located) => located.error.inner(),
            other => other,
        }
    }

    /// The kind of error, looking through [`Error::At`].
    ///
    /// ```
    /// use tftensor::{Error, ErrorKind};
    /// let err = Error::InvalidArgument("x".into()).with_path("a");
    /// assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        match self.inner() {
            Error::InvalidShape(_) => ErrorKind::InvalidShape,
            Error::InvalidArgument(_) => ErrorKind::InvalidArgument,
            Error::DataTypeMismatch { .. } => ErrorKind::DataTypeMismatch,
            Error::SizeMismatch { .. } => ErrorKind::SizeMismatch,
            Error::UnsupportedDataType { .. } => ErrorKind::UnsupportedDataType,
            Error::Misaligned { .. } => ErrorKind::Misaligned,
            Error::OutOfRange(_) => ErrorKind::OutOfRange,
            Error::Overflow(_) => ErrorKind::Overflow,
            Error::AllocationFailed { .. } => ErrorKind::AllocationFailed,
            Error::LimitExceeded { .. } => ErrorKind::LimitExceeded,
            Error::InvalidProto { .. } => ErrorKind::InvalidProto,
            Error::Io { .. } => ErrorKind::Io,
            Error::DataLoss { .. } => ErrorKind::DataLoss,
            Error::InvalidFormat { .. } => ErrorKind::InvalidFormat,
            Error::OpaqueDtype { .. } => ErrorKind::OpaqueDtype,
            Error::NotFound { .. } => ErrorKind::NotFound,
            Error::UnknownFormat { .. } => ErrorKind::UnknownFormat,
            // `inner` looks through every wrapper.
            Error::At(_) => {
                debug_assert!(false, "Error::inner returned a wrapper");
                ErrorKind::InvalidArgument
            }
        }
    }

    /// The file or URL this error names, as a field.
    ///
    /// ```
    /// let err = tftensor::Error::io("a.npy", std::io::Error::other("x"));
    /// assert_eq!(err.path(), Some("a.npy"));
    /// ```
    pub fn path(&self) -> Option<&str> {
        self.location().and_then(|at| at.path.as_deref())
    }

    /// The key (tensor, record or member) this error names, as a field.
    ///
    /// ```
    /// let err = tftensor::Error::not_found("gone").with_key("w");
    /// assert_eq!(err.key(), Some("w"));
    /// ```
    pub fn key(&self) -> Option<&str> {
        self.location().and_then(|at| at.key.as_deref())
    }

    /// The `std::io::ErrorKind` of an [`Error::Io`], wherever it happened.
    ///
    /// ```
    /// let err = tftensor::Error::io("a", std::io::Error::other("x"));
    /// assert_eq!(err.io_kind(), Some(std::io::ErrorKind::Other));
    /// ```
    pub fn io_kind(&self) -> Option<std::io::ErrorKind> {
        match self.inner() {
            Error::Io { source, .. } => Some(source.kind()),
            _ => None,
        }
    }

    /// An [`Error::InvalidProto`] with no protobuf decoding error as its cause.
    ///
    /// ```
    /// use tftensor::Error;
    /// let err = Error::invalid_proto("malformed variant");
    /// assert!(matches!(&err, Error::InvalidProto { source: None, .. }));
    /// assert_eq!(err.to_string(), "malformed variant");
    /// ```
    pub fn invalid_proto(message: impl Into<String>) -> Self {
        Error::InvalidProto {
            message: message.into(),
            source: None,
        }
    }

    /// An [`Error::InvalidProto`] caused by a protobuf decoding error;
    /// `message` is the full text (it usually ends with `source`'s).
    ///
    /// ```
    /// use std::error::Error as _;
    /// use tftensor::prost::Message;
    /// let e = tftensor::pb::TensorProto::decode(&[0xff, 0xff][..]).unwrap_err();
    /// let err = tftensor::Error::proto_decode(format!("bad proto: {e}"), e);
    /// assert!(err.source().is_some());
    /// ```
    pub fn proto_decode(message: impl Into<String>, source: prost::DecodeError) -> Self {
        Error::InvalidProto {
            message: message.into(),
            source: Some(source),
        }
    }

    /// An [`Error::UnsupportedDataType`] about `dtype`.
    ///
    /// ```
    /// use tftensor::{DataType, Error};
    /// let err = Error::unsupported(DataType::Variant, "Dtype variant not supported.");
    /// assert!(matches!(err, Error::UnsupportedDataType { dtype: Some(DataType::Variant), .. }));
    /// ```
    pub fn unsupported(dtype: DataType, message: impl Into<String>) -> Self {
        Error::UnsupportedDataType {
            dtype: Some(dtype),
            message: message.into(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Tensor, TensorShape};
    use bytes::Bytes;
    use std::error::Error as _;

    #[test]
    fn byte_size_overflow_is_its_own_variant() {
        // 2^61 doubles are 2^64 bytes: the size itself overflows usize.
        let err = Tensor::from_buffer(DataType::Double, [1i64 << 61], Bytes::new()).unwrap_err();
        assert_eq!(
            err,
            Error::Overflow(OverflowError::Size {
                what: "tensor byte size"
            })
        );
        assert_eq!(err.to_string(), "tensor byte size overflows");
        // 2^60 strings of 32 bytes: the element vector's size overflows.
        let err = Tensor::new(DataType::String, [1i64 << 60]).unwrap_err();
        assert!(
            matches!(err, Error::Overflow(OverflowError::Size { .. })),
            "{err:?}"
        );
        for err in [
            Tensor::from_buffer(DataType::Double, [1i64 << 61], Bytes::new()).unwrap_err(),
            Tensor::new(DataType::String, [1i64 << 60]).unwrap_err(),
        ] {
            assert!(!err.to_string().contains("18446744073709551615"), "{err}");
        }
    }

    #[test]
    fn element_count_overflow_keeps_tf_text() {
        let err = Tensor::new(DataType::Float, [1i64 << 62, 4]).unwrap_err();
        assert_eq!(
            err,
            Error::Overflow(OverflowError::Multiply {
                lhs: 1 << 62,
                rhs: 4
            })
        );
        assert_eq!(
            err.to_string(),
            "Encountered overflow when multiplying 4611686018427387904 with 4, result: -1"
        );
    }

    #[test]
    fn size_mismatch_fields() {
        let t = Tensor::new(DataType::Float, [120]).unwrap();
        let err = t.shaped::<f32, ndarray::Ix2>(&[12, 12]).unwrap_err();
        assert_eq!(
            err,
            Error::SizeMismatch {
                got: 144,
                expected: 120,
                check: SizeCheck::Elements
            }
        );
        assert_eq!(err.to_string(), "144 vs. 120");
        let err =
            Tensor::from_buffer(DataType::Float, [2], Bytes::from_static(&[0; 7])).unwrap_err();
        assert_eq!(
            err,
            Error::SizeMismatch {
                got: 7,
                expected: 8,
                check: SizeCheck::Bytes
            }
        );
        assert_eq!(err.to_string(), "Input size was 7 and expected 8");
        let err = t.scalar::<f32>().unwrap_err();
        assert_eq!(
            err,
            Error::SizeMismatch {
                got: 120,
                expected: 1,
                check: SizeCheck::OneElement
            }
        );
        assert_eq!(err.to_string(), "Must have a one element tensor");
    }

    #[test]
    fn invalid_proto_keeps_the_decode_error_as_source() {
        let err = Tensor::decode(Bytes::from_static(&[0xff, 0xff])).unwrap_err();
        let Error::InvalidProto {
            message,
            source: Some(cause),
        } = &err
        else {
            panic!("expected InvalidProto with a source, got {err:?}");
        };
        assert_eq!(
            message,
            &format!("Could not parse bytes as TensorProto: {cause}")
        );
        let source = err.source().expect("a source");
        assert_eq!(
            source.downcast_ref::<prost::DecodeError>(),
            Some(cause),
            "source() is prost's error"
        );
        // A proto that parses but is not a valid tensor has no source.
        let proto = crate::pb::TensorProto::default();
        let err = Tensor::from_proto(&proto).unwrap_err();
        assert_eq!(err, Error::invalid_proto("Type not set"));
        assert!(err.source().is_none());
    }

    #[test]
    fn range_and_shape_payloads() {
        let t = Tensor::new(DataType::Float, [4]).unwrap();
        assert_eq!(
            t.sub_slice(9).unwrap_err(),
            Error::OutOfRange(RangeError::SubSlice { index: 9, size: 4 })
        );
        let s = TensorShape::new(&[2, 3, 4]).unwrap();
        let mut r = s.clone();
        let err = r.remove_dim_range(-9, 1).unwrap_err();
        assert_eq!(
            err,
            Error::OutOfRange(RangeError::RangeStart { index: -5, rank: 3 })
        );
        assert_eq!(err.to_string(), "Start index must be non-negative, got -5");
        let err = r.remove_dim_range(0, 7).unwrap_err();
        assert_eq!(err.to_string(), "End index must be less than 3, got 7");
        let err = TensorShape::from_usizes(&[usize::MAX]).unwrap_err();
        assert_eq!(
            err,
            Error::InvalidShape(ShapeError::DimTooLarge {
                dim: usize::MAX as u64
            })
        );
        let mut big = s.clone();
        let err = big.set_dim(0, i64::MAX).unwrap_err();
        assert_eq!(
            err,
            Error::Overflow(OverflowError::Shape {
                dims: vec![i64::MAX, 3, 4]
            })
        );
        assert_eq!(
            err.to_string(),
            format!(
                "Shape [{},3,4] results in overflow when computing number of elements",
                i64::MAX
            )
        );
    }
}
