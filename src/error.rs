//! The crate's error type.
//!
//! Where TensorFlow CHECK-fails or returns a `Status`, tftensor returns
//! [`Error`]. Messages reuse TensorFlow's text where it has one (for example
//! `"144 vs. 120"` for a reshape of the wrong size), so logs can be compared.
//! The numbers, dtypes and shapes a message is built from are fields, so
//! callers match on them rather than on text.

use crate::dtype::DataType;
pub use crate::error_location::{IoSource, Location};
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
    #[error("{path}: {source}")]
    Io {
        /// The file, directory or stream the operation was on.
        path: String,
        /// The underlying error.
        source: IoSource,
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
            path: path.to_string(),
            source: err.into(),
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

    /// Sets the file of a located error ([`Error::InvalidFormat`],
    /// [`Error::DataLoss`], [`Error::NotFound`], [`Error::OpaqueDtype`])
    /// unless it already has one;
    /// other errors are returned as they are.
    ///
    /// ```
    /// let err = tftensor::Error::data_loss("bad block").with_path("a.index").with_path("b");
    /// assert_eq!(err.to_string(), "a.index: bad block");
    /// ```
    pub fn with_path(mut self, path: impl fmt::Display) -> Self {
        if let Some(at) = self.location_mut() {
            at.path.get_or_insert_with(|| path.to_string());
        }
        self
    }

    /// Sets the key (tensor, record or member) of a located error unless it
    /// has one.
    ///
    /// ```
    /// let err = tftensor::Error::data_loss("short").with_key("w");
    /// assert_eq!(err.to_string(), "'w': short");
    /// ```
    pub fn with_key(mut self, key: impl fmt::Display) -> Self {
        if let Some(at) = self.location_mut() {
            at.key.get_or_insert_with(|| key.to_string());
        }
        self
    }

    /// Sets the byte offset of a located error unless it has one.
    ///
    /// ```
    /// let err = tftensor::Error::data_loss("bad").with_offset(8);
    /// assert_eq!(err.location().and_then(|at| at.offset), Some(8));
    /// ```
    pub fn with_offset(mut self, offset: u64) -> Self {
        if let Some(at) = self.location_mut() {
            at.offset.get_or_insert(offset);
        }
        self
    }

    /// Where a located error happened; `None` for the other kinds.
    ///
    /// ```
    /// let err = tftensor::Error::not_found("gone").with_path("x");
    /// assert_eq!(err.location().unwrap().path.as_deref(), Some("x"));
    /// ```
    pub fn location(&self) -> Option<&Location> {
        match self {
            Error::InvalidFormat { at, .. }
            | Error::DataLoss { at, .. }
            | Error::NotFound { at, .. }
            | Error::OpaqueDtype { at, .. } => Some(at),
            _ => None,
        }
    }

    fn location_mut(&mut self) -> Option<&mut Location> {
        match self {
            Error::InvalidFormat { at, .. }
            | Error::DataLoss { at, .. }
            | Error::NotFound { at, .. }
            | Error::OpaqueDtype { at, .. } => Some(at),
            _ => None,
        }
    }

    /// The file this error names, as a field: the path of an
    /// [`Error::Io`] or of a located error.
    ///
    /// ```
    /// let err = tftensor::Error::io("a.npy", std::io::Error::other("x"));
    /// assert_eq!(err.path(), Some("a.npy"));
    /// ```
    pub fn path(&self) -> Option<&str> {
        match self {
            Error::Io { path, .. } => Some(path),
            _ => self.location().and_then(|at| at.path.as_deref()),
        }
    }

    /// The `std::io::ErrorKind` of an [`Error::Io`].
    ///
    /// ```
    /// let err = tftensor::Error::io("a", std::io::Error::other("x"));
    /// assert_eq!(err.io_kind(), Some(std::io::ErrorKind::Other));
    /// ```
    pub fn io_kind(&self) -> Option<std::io::ErrorKind> {
        match self {
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

/// Why a shape is invalid ([`Error::InvalidShape`]); `Display` writes
/// TensorFlow's text.
///
/// ```
/// use tftensor::{Error, PartialTensorShape, ShapeError};
/// let err = PartialTensorShape::new(&[-2]).unwrap_err();
/// assert_eq!(err, Error::InvalidShape(ShapeError::BelowUnknown { dim: -2 }));
/// assert_eq!(err.to_string(), "Dimension -2 must be >= -1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShapeError {
    /// A negative dim added one at a time: `"Expected a non-negative size,
    /// got <dim>"`.
    NegativeDim {
        /// The dim.
        dim: i64,
    },
    /// A negative dim in a list of small dims (TF's fast path): `"Expected
    /// shape dimensions to be non-negative, got <dim>"`.
    NegativeDimInList {
        /// The dim.
        dim: i64,
    },
    /// More than [`MAX_DIMENSIONS`](crate::MAX_DIMENSIONS) dims: `"Too many
    /// dimensions in tensor"`.
    TooManyDims,
    /// A dim inserted into a shape of the maximum rank: `"Shape has <rank>
    /// dimensions which is the maximum allowed"`.
    RankAtMaximum {
        /// The shape's rank.
        rank: usize,
    },
    /// An unsigned dim above `i64::MAX`: `"Dimension <dim> does not fit in
    /// int64"`.
    DimTooLarge {
        /// The dim.
        dim: u64,
    },
    /// A partial-shape dim below -1: `"Dimension <dim> must be >= -1"`.
    BelowUnknown {
        /// The dim.
        dim: i64,
    },
    /// A partial shape where a full one is needed: `"Shape <shape> is not
    /// fully defined"`.
    NotFullyDefined {
        /// The partial shape's dims, `-1` where unknown; `None` for an
        /// unknown rank.
        dims: Option<Vec<i64>>,
    },
    /// Any other reason (an `ndarray` shape error, a file format's rule);
    /// the text says what.
    Other(String),
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::NegativeDim { dim } => {
                write!(f, "Expected a non-negative size, got {dim}")
            }
            ShapeError::NegativeDimInList { dim } => {
                write!(f, "Expected shape dimensions to be non-negative, got {dim}")
            }
            ShapeError::TooManyDims => f.write_str("Too many dimensions in tensor"),
            ShapeError::RankAtMaximum { rank } => {
                write!(
                    f,
                    "Shape has {rank} dimensions which is the maximum allowed"
                )
            }
            ShapeError::DimTooLarge { dim } => write!(f, "Dimension {dim} does not fit in int64"),
            ShapeError::BelowUnknown { dim } => write!(f, "Dimension {dim} must be >= -1"),
            ShapeError::NotFullyDefined { dims } => {
                write!(f, "Shape {} is not fully defined", Dims(dims.as_deref()))
            }
            ShapeError::Other(message) => f.write_str(message),
        }
    }
}

impl From<ShapeError> for Error {
    fn from(e: ShapeError) -> Self {
        Error::InvalidShape(e)
    }
}

/// Which index was out of which bound ([`Error::OutOfRange`]); `Display`
/// writes TensorFlow's text.
///
/// ```
/// use tftensor::{DataType, Error, RangeError, Tensor};
/// let t = Tensor::new(DataType::Float, [4])?;
/// let err = t.slice(1, 5).unwrap_err();
/// assert_eq!(err, Error::OutOfRange(RangeError::Slice { start: 1, limit: 5, size: 4 }));
/// assert_eq!(err.to_string(), "Slice(1, 5) out of range for dim 0 of size 4");
/// # Ok::<(), Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RangeError {
    /// A dim index at or past the rank: `"Index must be less than <rank>,
    /// got <index>"`.
    Dim {
        /// The index.
        index: usize,
        /// The shape's rank.
        rank: usize,
    },
    /// An insertion index past the rank: `"The insertion index must be at
    /// most <rank> got <index>"`.
    Insert {
        /// The index.
        index: usize,
        /// The shape's rank.
        rank: usize,
    },
    /// More trailing dims to remove than there are: `"Expected dimension
    /// index to be at most <rank> got <count>"`.
    RemoveLast {
        /// How many dims were to be removed.
        count: usize,
        /// The shape's rank.
        rank: usize,
    },
    /// The start of a dim range, after negative-index adjustment:
    /// `"Start index must be non-negative, got <index>"` or `"Start index must
    /// be less than <rank>, got <index>"`.
    RangeStart {
        /// The adjusted index.
        index: i64,
        /// The shape's rank.
        rank: usize,
    },
    /// The end of a dim range, as [`RangeStart`](Self::RangeStart):
    /// `"End index must be ..."`.
    RangeEnd {
        /// The adjusted index.
        index: i64,
        /// The shape's rank.
        rank: usize,
    },
    /// Rows `start..limit` of dim 0: `"Slice(<start>, <limit>) out of range
    /// for dim 0 of size <size>"`.
    Slice {
        /// The first row.
        start: i64,
        /// One past the last row.
        limit: i64,
        /// The size of dim 0.
        size: i64,
    },
    /// Row `index` of dim 0: `"SubSlice(<index>) out of range for dim 0 of
    /// size <size>"`.
    SubSlice {
        /// The row.
        index: i64,
        /// The size of dim 0.
        size: i64,
    },
    /// A split point on dim 0: `"split_at(<mid>) out of range for dim 0 of
    /// size <size>"`.
    SplitAt {
        /// The split point.
        mid: i64,
        /// The size of dim 0.
        size: i64,
    },
    /// A start index past the end of the data: `"data_start_index <index> is
    /// past the end of <len> elements"`.
    DataStart {
        /// The start index.
        index: usize,
        /// The number of elements.
        len: usize,
    },
    /// An element index (one index per dim, or one flat index) outside the
    /// tensor: `"index [<i>, ...]"`.
    Element {
        /// The index.
        index: Vec<usize>,
    },
    /// A flat element index outside the tensor: `"element <flat>"`.
    Flat {
        /// The flat index.
        flat: usize,
    },
    /// A typed view that reaches past the tensor's bytes: `"view of <target>
    /// reaches outside the <dtype> tensor's region"`.
    View {
        /// The dtype the view reads.
        target: DataType,
        /// The tensor's dtype.
        dtype: DataType,
    },
    /// A region outside the buffer that holds it (an internal invariant the
    /// caller cannot cause); the text names the region.
    Region(&'static str),
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RangeError::Dim { index, rank } => {
                write!(f, "Index must be less than {rank}, got {index}")
            }
            RangeError::Insert { index, rank } => {
                write!(f, "The insertion index must be at most {rank} got {index}")
            }
            RangeError::RemoveLast { count, rank } => {
                write!(
                    f,
                    "Expected dimension index to be at most {rank} got {count}"
                )
            }
            RangeError::RangeStart { index, rank } | RangeError::RangeEnd { index, rank } => {
                let end = if matches!(self, RangeError::RangeStart { .. }) {
                    "Start"
                } else {
                    "End"
                };
                if *index < 0 {
                    write!(f, "{end} index must be non-negative, got {index}")
                } else {
                    write!(f, "{end} index must be less than {rank}, got {index}")
                }
            }
            RangeError::Slice { start, limit, size } => {
                write!(
                    f,
                    "Slice({start}, {limit}) out of range for dim 0 of size {size}"
                )
            }
            RangeError::SubSlice { index, size } => {
                write!(f, "SubSlice({index}) out of range for dim 0 of size {size}")
            }
            RangeError::SplitAt { mid, size } => {
                write!(f, "split_at({mid}) out of range for dim 0 of size {size}")
            }
            RangeError::DataStart { index, len } => {
                write!(
                    f,
                    "data_start_index {index} is past the end of {len} elements"
                )
            }
            RangeError::Element { index } => write!(f, "index {index:?}"),
            RangeError::Flat { flat } => write!(f, "element {flat}"),
            RangeError::View { target, dtype } => {
                write!(
                    f,
                    "view of {target} reaches outside the {dtype} tensor's region"
                )
            }
            RangeError::Region(what) => f.write_str(what),
        }
    }
}

impl From<RangeError> for Error {
    fn from(e: RangeError) -> Self {
        Error::OutOfRange(e)
    }
}

/// What overflowed ([`Error::Overflow`]); `Display` writes TensorFlow's text
/// for shapes.
///
/// ```
/// use tftensor::{Error, OverflowError, TensorShape};
/// let big = 1i64 << 62;
/// let err = TensorShape::new(&[0, big, big]).unwrap_err();
/// assert_eq!(err, Error::Overflow(OverflowError::NonzeroDims));
/// assert_eq!(err.to_string(), "Encountered overflow when multiplying shape dimensions");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum OverflowError {
    /// The running element count times the next dim: `"Encountered overflow
    /// when multiplying <lhs> with <rhs>, result: -1"`.
    Multiply {
        /// The element count so far.
        lhs: i64,
        /// The next dim.
        rhs: i64,
    },
    /// The product of the non-zero dims (hidden by a zero dim):
    /// `"Encountered overflow when multiplying shape dimensions"`.
    NonzeroDims,
    /// A changed dim makes the element count overflow: `"Shape <dims>
    /// results in overflow when computing number of elements"`.
    Shape {
        /// The dims the shape would have.
        dims: Vec<i64>,
    },
    /// A count or byte size that does not fit `usize` (or `i64`): `"<what>
    /// overflows"`.
    Size {
        /// What was computed, e.g. `"tensor byte size"`.
        what: &'static str,
    },
}

impl fmt::Display for OverflowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OverflowError::Multiply { lhs, rhs } => write!(
                f,
                "Encountered overflow when multiplying {lhs} with {rhs}, result: -1"
            ),
            OverflowError::NonzeroDims => {
                f.write_str("Encountered overflow when multiplying shape dimensions")
            }
            OverflowError::Shape { dims } => {
                f.write_str("Shape [")?;
                for (i, d) in dims.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{d}")?;
                }
                f.write_str("] results in overflow when computing number of elements")
            }
            OverflowError::Size { what } => write!(f, "{what} overflows"),
        }
    }
}

impl From<OverflowError> for Error {
    fn from(e: OverflowError) -> Self {
        Error::Overflow(e)
    }
}

/// Which counts an [`Error::SizeMismatch`] compared, and so its text.
///
/// ```
/// use tftensor::{Error, SizeCheck};
/// let err = Error::SizeMismatch { got: 7, expected: 8, check: SizeCheck::Bytes };
/// assert_eq!(err.to_string(), "Input size was 7 and expected 8");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SizeCheck {
    /// Element counts: `"<got> vs. <expected>"`.
    Elements,
    /// Byte counts: `"Input size was <got> and expected <expected>"`.
    Bytes,
    /// A scalar accessor on a tensor of `got` elements (`expected` is 1):
    /// `"Must have a one element tensor"`.
    OneElement,
    /// Elements from a start index: `"<got> elements from index <index> vs.
    /// <expected> in shape <shape>"`.
    FromIndex {
        /// The start index.
        index: usize,
        /// The dims of the shape to fill.
        dims: Vec<i64>,
    },
    /// A reshape in place needs `got` elements, the buffer holds `expected`:
    /// `"reshape to <shape> needs <got> elements but the buffer holds
    /// <expected>"`.
    Capacity {
        /// The dims of the new shape.
        dims: Vec<i64>,
    },
}

/// Formats an [`Error::SizeMismatch`].
struct SizeText<'a> {
    got: u64,
    expected: u64,
    check: &'a SizeCheck,
}

impl fmt::Display for SizeText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (got, expected) = (self.got, self.expected);
        match self.check {
            SizeCheck::Elements => write!(f, "{got} vs. {expected}"),
            SizeCheck::Bytes => write!(f, "Input size was {got} and expected {expected}"),
            SizeCheck::OneElement => f.write_str("Must have a one element tensor"),
            SizeCheck::FromIndex { index, dims } => write!(
                f,
                "{got} elements from index {index} vs. {expected} in shape {}",
                Dims(Some(dims))
            ),
            SizeCheck::Capacity { dims } => write!(
                f,
                "reshape to {} needs {got} elements but the buffer holds {expected}",
                Dims(Some(dims))
            ),
        }
    }
}

/// Dims as TF's shape `DebugString` writes them: `[2,?]`, or `<unknown>`
/// for an unknown rank (`None`). Errors hold dims, not shapes, so that
/// this module needs nothing from `shape`.
struct Dims<'a>(Option<&'a [i64]>);

impl fmt::Display for Dims<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(dims) = self.0 else {
            return f.write_str("<unknown>");
        };
        f.write_str("[")?;
        for (i, &d) in dims.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            if d < 0 {
                f.write_str("?")?;
            } else {
                write!(f, "{d}")?;
            }
        }
        f.write_str("]")
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
