//! Which index was out of which bound.

use std::fmt;

use super::Error;
use crate::DataType;

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
