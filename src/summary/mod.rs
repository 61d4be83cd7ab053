//! TF's `SummarizeValue`, `DebugString`, `DeviceSafeDebugString` and
//! `operator<<`, byte for byte as TensorFlow 2.21 prints them,
//! plus a Rust-style `Debug`.
//!
//! This file lays the elements out (TF's `SummarizeValue`); the elements
//! print through [`SummaryElement`] (`element.rs`), one impl per element
//! type, reached through the crate's one dtype dispatch; numbers and
//! escapes are formatted in `number.rs`; resource handles and variants in
//! `typed.rs`. Output is built as bytes: string elements pass bytes >= 0x80
//! through unescaped, as TF does, so the text need not be valid UTF-8.

mod element;
mod number;
mod typed;

pub use self::number::format_g;

use std::fmt;
use std::io::Write as _;

use self::element::{Layout, SummaryElement};
use crate::element::dispatch_dtype;
use crate::shape::usize_of_dim;
use crate::tensor::Tensor;

/// The number of values [`Tensor`]'s `Debug` shows.
const DEBUG_VALUES: i64 = 10;

/// The most bytes of element text [`Tensor`]'s `Debug` shows.
const DEBUG_TEXT_LIMIT: usize = 256;

impl Tensor {
    /// TF's `SummarizeValue(max_entries, print_v2)` as exact bytes. A
    /// negative `max_entries` means all elements.
    ///
    /// * v1 (`print_v2 == false`, TF's `Assert` messages): at most
    ///   `max_entries` values in row-major order, nested brackets without
    ///   separators (rank 1 unbracketed), `...` where the limit cuts.
    /// * v2 (`print_v2 == true`, `tf.strings.format`, `tf.print`):
    ///   numpy-like; `max_entries` values are kept at each end of every
    ///   dimension; siblings are separated by newlines and indentation.
    ///
    /// Floats print as TF's `%g` round-trip rule, strings C-escaped (quoted
    /// in v2; bytes >= 0x80 are copied, so the result may be invalid UTF-8).
    /// complex, qint32 and the two fnuz float8 types print `?`, as TF 2.21
    /// does.
    ///
    /// ```
    /// use tftensor::Tensor;
    /// let t = Tensor::from_vec([3, 4], (1..=12).collect::<Vec<i32>>()).unwrap();
    /// assert_eq!(t.summarize_value_bytes(10, false), b"[1 2 3 4][5 6 7 8][9 10...]...");
    /// assert_eq!(t.summarize_value_bytes(1, true), b"[[1 ... 4]\n ...\n [9 ... 12]]");
    /// let s = Tensor::from(bytes::Bytes::from_static(b"\xff\n"));
    /// assert_eq!(s.summarize_value_bytes(-1, true), b"\"\xff\\n\"");
    /// ```
    pub fn summarize_value_bytes(&self, max_entries: i64, print_v2: bool) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_summary_value(&mut out, max_entries, print_v2);
        out
    }

    /// TF's `SummarizeValue(max_entries, print_v2)` as text: the bytes of
    /// [`Tensor::summarize_value_bytes`], with invalid UTF-8 (only possible
    /// in string elements) replaced by U+FFFD. Use the bytes version to
    /// compare with TensorFlow's output exactly.
    ///
    /// ```
    /// use tftensor::Tensor;
    /// let t = Tensor::from_vec([2, 2], vec![1.5f32, -0.0, f32::INFINITY, f32::NAN]).unwrap();
    /// assert_eq!(t.summarize_value(-1, false), "[1.5 -0][inf nan]");
    /// assert_eq!(t.summarize_value(-1, true), "[[1.5 -0]\n [inf nan]]");
    /// assert_eq!(t.summarize_value(3, false), "[1.5 -0][inf...]...");
    /// ```
    pub fn summarize_value(&self, max_entries: i64, print_v2: bool) -> String {
        String::from_utf8_lossy(&self.summarize_value_bytes(max_entries, print_v2)).into_owned()
    }

    /// TF's `DebugString(num_values)` as exact bytes:
    /// `Tensor<type: T shape: S values: V>` with `V` =
    /// `SummarizeValue(num_values, false)`.
    ///
    /// ```
    /// let t = tftensor::Tensor::from(42.0f32);
    /// assert_eq!(t.debug_string_bytes(3), b"Tensor<type: float shape: [] values: 42>");
    /// ```
    pub fn debug_string_bytes(&self, num_values: i64) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_debug_string(&mut out, num_values);
        out
    }

    /// TF's `DebugString(num_values)`:
    /// `Tensor<type: T shape: S values: V>` with `V` =
    /// `SummarizeValue(num_values, false)`. Invalid UTF-8 from string
    /// elements becomes U+FFFD; [`Tensor::debug_string_bytes`] is exact.
    ///
    /// ```
    /// let t = tftensor::Tensor::from_vec([2, 3], vec![1.0f32, 2., 3., 4., 5., 6.]).unwrap();
    /// assert_eq!(t.debug_string_n(4), "Tensor<type: float shape: [2,3] values: [1 2 3][4...]...>");
    /// ```
    pub fn debug_string_n(&self, num_values: i64) -> String {
        String::from_utf8_lossy(&self.debug_string_bytes(num_values)).into_owned()
    }

    /// TF's `DebugString()`: [`Tensor::debug_string_n`] with 3 values.
    ///
    /// ```
    /// let t = tftensor::Tensor::from_vec([2, 3], vec![1.0f32, 2., 3., 4., 5., 6.]).unwrap();
    /// assert_eq!(t.debug_string(), "Tensor<type: float shape: [2,3] values: [1 2 3]...>");
    /// ```
    pub fn debug_string(&self) -> String {
        self.debug_string_n(3)
    }

    /// TF's `DeviceSafeDebugString()`: dtype and shape only, never reading
    /// the elements.
    ///
    /// ```
    /// let t = tftensor::Tensor::new(tftensor::DataType::Half, [2, 0]).unwrap();
    /// assert_eq!(t.device_safe_debug_string(), "Tensor<type: half shape: [2,0]>");
    /// ```
    pub fn device_safe_debug_string(&self) -> String {
        format!(
            "Tensor<type: {} shape: {}>",
            self.dtype().name(),
            self.shape().debug_string()
        )
    }

    fn write_debug_string(&self, out: &mut Vec<u8>, num_values: i64) {
        let _ = write!(
            out,
            "Tensor<type: {} shape: {} values: ",
            self.dtype().name(),
            self.shape().debug_string()
        );
        self.write_summary_value(out, num_values, false);
        out.push(b'>');
    }

    fn write_summary_value(&self, out: &mut Vec<u8>, max_entries: i64, print_v2: bool) {
        let num_elts = self.num_elements();
        let max_entries = if max_entries < 0 {
            num_elts
        } else {
            max_entries
        };
        let limit = max_entries.min(num_elts);
        let summary = Summary {
            tensor: self,
            num_elts,
            limit,
            print_v2,
        };
        dispatch_dtype!(self.dtype(), T => summary.write::<T>(out), _ => summary.write_unknown(out));
    }
}

/// One `SummarizeValue` call, after TF's preamble (`limit` is
/// `min(max_entries, num_elts)` with a negative `max_entries` meaning all,
/// so a count: `0 <= limit <= num_elts`).
struct Summary<'a> {
    tensor: &'a Tensor,
    num_elts: i64,
    limit: i64,
    print_v2: bool,
}

impl Summary<'_> {
    fn write<T: SummaryElement>(&self, out: &mut Vec<u8>) {
        // TF reads data only when `limit > 0`. Misaligned elements (a bit
        // cast of an odd slice) are read through one aligned copy.
        let flat = if self.limit > 0 {
            match self.tensor.unaligned_flat::<T>() {
                Ok(d) => Some(d),
                Err(_) => return self.write_uninitialized(out),
            }
        } else {
            None
        };
        let data: &[T] = flat.as_ref().and_then(|d| d.as_slice()).unwrap_or(&[]);
        match T::LAYOUT {
            Layout::Flat => self.write_flat(out, |i, out| {
                if let Some(e) = data.get(i) {
                    e.write_summary(out, self.print_v2);
                }
            }),
            Layout::NestedEmptyIfUnread if self.limit == 0 => {}
            Layout::Nested | Layout::NestedEmptyIfUnread => self.write_nested(out, data),
        }
    }

    /// A dtype outside the dispatch (invalid, a ref type, an unknown
    /// number): TF's default case, where every element is `?`.
    fn write_unknown(&self, out: &mut Vec<u8>) {
        if self.limit > 0 && self.tensor.root().is_none() {
            return self.write_uninitialized(out);
        }
        self.write_flat(out, |_, out| out.push(b'?'));
    }

    /// TF prints the uninitialized-tensor error's text.
    fn write_uninitialized(&self, out: &mut Vec<u8>) {
        let _ = write!(out, "{}", self.tensor.region().uninitialized());
    }

    /// TF's irregular path: a flat list, bracketed in v2 unless scalar.
    fn write_flat(&self, out: &mut Vec<u8>, mut element: impl FnMut(usize, &mut Vec<u8>)) {
        let brackets = self.print_v2 && self.tensor.dims() > 0;
        if brackets {
            out.push(b'[');
        }
        for i in 0..usize_of_dim(self.limit) {
            if i > 0 {
                out.push(b' ');
            }
            element(i, out);
        }
        if self.limit < self.num_elts {
            out.extend_from_slice(b"...");
        }
        if brackets {
            out.push(b']');
        }
    }

    /// TF's `SummarizeArrayInternal`.
    fn write_nested<T: SummaryElement>(&self, out: &mut Vec<u8>, data: &[T]) {
        let shape = self.tensor.shape().dim_sizes();
        let nested = Nested {
            shape: &shape,
            data,
            print_v2: self.print_v2,
        };
        if shape.is_empty() {
            for (i, e) in data.iter().take(usize_of_dim(self.limit)).enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                e.write_summary(out, self.print_v2);
            }
            if self.num_elts > self.limit {
                out.extend_from_slice(b"...");
            }
        } else if self.print_v2 {
            nested.print_one_dim_v2(out, 0, self.limit, 0);
        } else {
            nested.print_one_dim(out, 0, self.limit, &mut 0);
            if self.num_elts > self.limit {
                out.extend_from_slice(b"...");
            }
        }
    }
}

/// The recursive printers of a rank >= 1 tensor.
struct Nested<'a, T> {
    shape: &'a [i64],
    data: &'a [T],
    print_v2: bool,
}

impl<T: SummaryElement> Nested<'_, T> {
    fn element(&self, out: &mut Vec<u8>, index: i64) {
        if let Some(e) = usize::try_from(index).ok().and_then(|i| self.data.get(i)) {
            e.write_summary(out, self.print_v2);
        }
    }

    /// TF's `PrintOneDim` (v1): walks row-major, stopping after `limit`
    /// elements; a bracket opens only while elements remain.
    fn print_one_dim(&self, out: &mut Vec<u8>, dim: usize, limit: i64, index: &mut i64) {
        if *index >= limit {
            return;
        }
        #[expect(
            clippy::indexing_slicing,
            reason = "dim < rank: the first call is dim 0 of a rank >= 1 shape, \
                      and it recurses only while dim + 1 < rank"
        )]
        let count = self.shape[dim];
        if dim + 1 == self.shape.len() {
            for i in 0..count {
                if *index >= limit {
                    if dim != 0 {
                        out.extend_from_slice(b"...");
                    }
                    return;
                }
                if i > 0 {
                    out.push(b' ');
                }
                self.element(out, *index);
                *index += 1;
            }
            return;
        }
        for _ in 0..count {
            // Once the limit is reached TF's loop prints nothing more.
            if *index >= limit {
                break;
            }
            out.push(b'[');
            self.print_one_dim(out, dim + 1, limit, index);
            out.push(b']');
        }
    }

    /// TF's `PrintDimSpacing`: the separator between siblings at `dim`.
    fn print_dim_spacing(&self, out: &mut Vec<u8>, dim: usize) {
        let rank = self.shape.len();
        if dim + 1 == rank {
            out.push(b' ');
            return;
        }
        out.extend(std::iter::repeat_n(b'\n', rank - dim - 1));
        out.extend(std::iter::repeat_n(b' ', dim + 1));
    }

    /// TF's `PrintOneDimV2`: the first and last `edge` sub-items of every
    /// dimension, `...` between them when some are skipped.
    fn print_one_dim_v2(&self, out: &mut Vec<u8>, dim: usize, edge: i64, index: i64) {
        let Some(&count) = self.shape.get(dim) else {
            return self.element(out, index);
        };
        out.push(b'[');
        let stride = self
            .shape
            .get(dim + 1..)
            .map_or(1, |s| s.iter().product::<i64>());
        let child = |i: i64| index.saturating_add(stride.saturating_mul(i));
        for i in 0..edge.min(count) {
            if i > 0 {
                self.print_dim_spacing(out, dim);
            }
            self.print_one_dim_v2(out, dim + 1, edge, child(i));
        }
        if count > edge.saturating_mul(2) {
            self.print_dim_spacing(out, dim);
            out.extend_from_slice(b"...");
        }
        for i in edge.max(count - edge)..count {
            self.print_dim_spacing(out, dim);
            self.print_one_dim_v2(out, dim + 1, edge, child(i));
        }
        out.push(b']');
    }
}

impl fmt::Display for Tensor {
    /// TF's `operator<<`: [`Tensor::debug_string_n`] with 100 values.
    ///
    /// ```
    /// let t = tftensor::Tensor::from_vec([2], vec![true, false]).unwrap();
    /// assert_eq!(t.to_string(), "Tensor<type: bool shape: [2] values: 1 0>");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.debug_string_bytes(100)))
    }
}

impl fmt::Debug for Tensor {
    /// Dtype, shape, the first few values (TF's v1 summary, at most 10
    /// values and 256 bytes of text) and the buffer state: `none`,
    /// `unique`, or `shared` (a write would copy first).
    ///
    /// ```
    /// let t = tftensor::Tensor::from_vec([2, 3], (0..6).collect::<Vec<i64>>()).unwrap();
    /// assert_eq!(
    ///     format!("{t:?}"),
    ///     "Tensor { dtype: int64, shape: [2,3], values: [0 1 2][3 4 5], buffer: unique }"
    /// );
    /// let u = t.clone();
    /// assert!(format!("{u:?}").ends_with("buffer: shared }"));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let buffer = if self.root().is_none() {
            "none"
        } else if self.is_shared() {
            "shared"
        } else {
            "unique"
        };
        let text = self.summarize_value_bytes(DEBUG_VALUES, false);
        let mut values = String::from_utf8_lossy(&text).into_owned();
        if values.len() > DEBUG_TEXT_LIMIT {
            let mut end = DEBUG_TEXT_LIMIT;
            while !values.is_char_boundary(end) {
                end -= 1;
            }
            values.truncate(end);
            values.push_str("[...]");
        }
        f.debug_struct("Tensor")
            .field("dtype", &format_args!("{}", self.dtype().name()))
            .field("shape", &format_args!("{}", self.shape().debug_string()))
            .field("values", &format_args!("{values}"))
            .field("buffer", &format_args!("{buffer}"))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DataType;
    use crate::shape::TensorShape;

    /// TF's `SummarizeValue.Uninitialized`: shape forced onto a tensor
    /// without a buffer.
    #[test]
    fn uninitialized() {
        let mut t = Tensor::from_dtype(DataType::Int32);
        t.set_shape_unchecked(TensorShape::new(&[4, 4]).unwrap());
        assert_eq!(
            t.summarize_value(-1, false),
            "uninitialized Tensor of 16 elements of type 3"
        );
        assert_eq!(
            t.summarize_value(3, true),
            "uninitialized Tensor of 16 elements of type 3"
        );
        // Nothing is read with a zero limit.
        assert_eq!(t.summarize_value(0, false), "...");
        assert_eq!(t.summarize_value(0, true), "[\n ...]");
        let mut b = Tensor::from_dtype(DataType::Bool);
        b.set_shape_unchecked(TensorShape::new(&[2]).unwrap());
        assert_eq!(b.summarize_value(0, false), "");
        assert_eq!(
            b.summarize_value(1, false),
            "uninitialized Tensor of 2 elements of type 10"
        );
        let mut c = Tensor::from_dtype(DataType::Complex64);
        c.set_shape_unchecked(TensorShape::new(&[2]).unwrap());
        assert_eq!(
            c.summarize_value(5, true),
            "uninitialized Tensor of 2 elements of type 8"
        );
        assert_eq!(c.summarize_value(0, true), "[...]");
    }

    /// Dtypes outside the dispatch take TF's default case.
    #[test]
    fn unknown_dtype() {
        let t = Tensor::from_dtype(DataType::Float.as_ref_type());
        assert_eq!(t.summarize_value(-1, true), "[]");
        assert_eq!(
            t.debug_string(),
            "Tensor<type: float_ref shape: [0] values: >"
        );
        let mut u = Tensor::from_dtype(DataType::from_i32(77));
        u.set_shape_unchecked(TensorShape::new(&[3]).unwrap());
        assert_eq!(
            u.summarize_value(2, false),
            "uninitialized Tensor of 3 elements of type 77"
        );
        assert_eq!(u.summarize_value(0, true), "[...]");
        assert_eq!(
            u.device_safe_debug_string(),
            "Tensor<type: unknown dtype enum (77) shape: [3]>"
        );
    }
}
