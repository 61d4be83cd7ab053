//! TF's `SummarizeValue`, `DebugString`, `DeviceSafeDebugString` and
//! `operator<<`, byte for byte as TensorFlow 2.21 prints them,
//! plus a Rust-style `Debug`.
//!
//! Elements are printed through [`SummaryElement`], one small impl per
//! element type, reached through the crate's one dtype dispatch. Output is
//! built as bytes: string elements pass bytes >= 0x80 through unescaped, as
//! TF does, so the text need not be valid UTF-8.

use std::fmt;
use std::io::Write as _;

use bytes::Bytes;
use half::{bf16, f16};
use num_complex::Complex;

use crate::element::{
    dispatch_dtype, Element, Float4E2M1FN, Float8E4M3B11FNUZ, Float8E4M3FN, Float8E4M3FNUZ,
    Float8E5M2, Float8E5M2FNUZ, Int2, Int4, QInt16, QInt32, QInt8, QUInt16, QUInt8, ResourceHandle,
    UInt2, UInt4, Variant,
};
use crate::format::{double_to_tf, float_to_tf, utf8_safe_c_escape};
use crate::tensor::Tensor;

/// How `SummarizeValue` lays out the elements of a dtype.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// TF's typed switch: nested brackets (v1) or numpy-like (v2).
    Nested,
    /// As `Nested`, but empty when no element is read (`limit == 0`): TF's
    /// `SummarizeArray<bool>` returns early on a null data pointer.
    NestedEmptyIfUnread,
    /// TF's "irregular" default case: a flat list, no nesting.
    Flat,
}

/// How one element prints in `SummarizeValue`.
pub(crate) trait SummaryElement: Element {
    /// The layout TF uses for this element type.
    const LAYOUT: Layout = Layout::Nested;
    /// Appends the element as TF prints it.
    fn write_summary(&self, out: &mut Vec<u8>, print_v2: bool);
}

/// Integers (and the quantized types TF prints as their integer): decimal.
macro_rules! decimal_elements {
    ($($t:ty),*) => {$(
        impl SummaryElement for $t {
            fn write_summary(&self, out: &mut Vec<u8>, _: bool) {
                // Writing into a Vec cannot fail.
                let _ = write!(out, "{self}");
            }
        }
    )*};
}
decimal_elements!(
    i8, i16, i32, i64, u8, u16, u32, u64, QInt8, QUInt8, QInt16, QUInt16, Int4, UInt4, Int2, UInt2
);

/// Narrow floats: TF converts them to `float` first.
macro_rules! f32_elements {
    ($($t:ty),*) => {$(
        impl SummaryElement for $t {
            fn write_summary(&self, out: &mut Vec<u8>, _: bool) {
                out.extend_from_slice(float_to_tf(f32::from(*self)).as_bytes());
            }
        }
    )*};
}
f32_elements!(
    f32,
    f16,
    bf16,
    Float8E5M2,
    Float8E4M3FN,
    Float8E4M3B11FNUZ,
    Float4E2M1FN
);

/// Types TF 2.21 has no case for: `?` in a flat list.
macro_rules! unprintable_elements {
    ($($t:ty),*) => {$(
        impl SummaryElement for $t {
            const LAYOUT: Layout = Layout::Flat;
            fn write_summary(&self, out: &mut Vec<u8>, _: bool) {
                out.push(b'?');
            }
        }
    )*};
}
unprintable_elements!(
    Complex<f32>,
    Complex<f64>,
    QInt32,
    Float8E4M3FNUZ,
    Float8E5M2FNUZ
);

impl SummaryElement for f64 {
    fn write_summary(&self, out: &mut Vec<u8>, _: bool) {
        out.extend_from_slice(double_to_tf(*self).as_bytes());
    }
}

impl SummaryElement for bool {
    const LAYOUT: Layout = Layout::NestedEmptyIfUnread;
    fn write_summary(&self, out: &mut Vec<u8>, _: bool) {
        out.push(if *self { b'1' } else { b'0' });
    }
}

impl SummaryElement for Bytes {
    fn write_summary(&self, out: &mut Vec<u8>, print_v2: bool) {
        if print_v2 {
            out.push(b'"');
        }
        out.extend_from_slice(&utf8_safe_c_escape(self));
        if print_v2 {
            out.push(b'"');
        }
    }
}

impl SummaryElement for ResourceHandle {
    const LAYOUT: Layout = Layout::Flat;
    fn write_summary(&self, out: &mut Vec<u8>, _: bool) {
        out.push(b'<');
        out.extend_from_slice(self.summarize_value().as_bytes());
        out.push(b'>');
    }
}

impl SummaryElement for Variant {
    const LAYOUT: Layout = Layout::Flat;
    fn write_summary(&self, out: &mut Vec<u8>, _: bool) {
        out.push(b'<');
        self.write_summary_value(out);
        out.push(b'>');
    }
}

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
/// `min(max_entries, num_elts)` with a negative `max_entries` meaning all).
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
        if self.limit > 0 && self.tensor.buf().is_none() {
            return self.write_uninitialized(out);
        }
        self.write_flat(out, |_, out| out.push(b'?'));
    }

    fn write_uninitialized(&self, out: &mut Vec<u8>) {
        let _ = write!(
            out,
            "uninitialized Tensor of {} elements of type {}",
            self.num_elts,
            self.tensor.dtype().as_i32()
        );
    }

    /// TF's irregular path: a flat list, bracketed in v2 unless scalar.
    fn write_flat(&self, out: &mut Vec<u8>, mut element: impl FnMut(usize, &mut Vec<u8>)) {
        let brackets = self.print_v2 && self.tensor.dims() > 0;
        if brackets {
            out.push(b'[');
        }
        for i in 0..usize::try_from(self.limit).unwrap_or(0) {
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
            for (i, e) in data
                .iter()
                .take(usize::try_from(self.limit).unwrap_or(0))
                .enumerate()
            {
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
        let count = self.shape.get(dim).copied().unwrap_or(0);
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
        let buffer = if self.buf().is_none() {
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

impl ResourceHandle {
    /// TF's `ResourceHandle::SummarizeValue()`, as tensor summaries print
    /// it (between `<` and `>`).
    ///
    /// `type` is `maybe_type_name` demangled as TF's `port::Demangle` does
    /// for the type names TF stores (builtin types and plain or nested
    /// names, `N10tensorflow3VarE` → `tensorflow::Var`); other manglings
    /// (templates, substitutions) are shown as stored.
    ///
    /// ```
    /// use tftensor::ResourceHandle;
    /// let h = ResourceHandle { name: "a".into(), ..Default::default() };
    /// assert_eq!(
    ///     h.summarize_value(),
    ///     r#"ResourceHandle(name="a", device="", container="", type="", dtype and shapes : "[  ]")"#
    /// );
    /// ```
    pub fn summarize_value(&self) -> String {
        format!(
            "ResourceHandle(name=\"{}\", device=\"{}\", container=\"{}\", type=\"{}\", dtype and shapes : \"{}\")",
            self.name,
            self.device,
            self.container,
            demangle(&self.maybe_type_name),
            self.dtypes_and_shapes_string()
        )
    }

    /// TF's `ResourceHandle::DebugString()` (the hash code in upper-case
    /// hex).
    ///
    /// ```
    /// use tftensor::ResourceHandle;
    /// let h = ResourceHandle { name: "v".into(), hash_code: 255, ..Default::default() };
    /// assert_eq!(
    ///     h.debug_string(),
    ///     "device:  container:  name: v hash_code: 0xFF maybe_type_name , dtype and shapes : [  ]"
    /// );
    /// ```
    pub fn debug_string(&self) -> String {
        format!(
            "device: {} container: {} name: {} hash_code: 0x{:X} maybe_type_name {}, dtype and shapes : {}",
            self.device,
            self.container,
            self.name,
            self.hash_code,
            demangle(&self.maybe_type_name),
            self.dtypes_and_shapes_string()
        )
    }

    /// TF's `DtypeAndShapesToString`: `[ DType enum: 3, Shape: [4,8] ]`.
    fn dtypes_and_shapes_string(&self) -> String {
        let entries: Vec<String> = self
            .dtypes_and_shapes
            .iter()
            .map(|(dtype, shape)| {
                format!(
                    "DType enum: {}, Shape: {}",
                    dtype.as_i32(),
                    shape.debug_string()
                )
            })
            .collect();
        format!("[ {} ]", entries.join(","))
    }
}

impl Variant {
    /// TF's `Variant::SummarizeValue()`, as tensor summaries print it
    /// (between `<` and `>`).
    ///
    /// * empty → `[empty]`;
    /// * a wrapped tensor → its `DebugString()` (3 values);
    /// * anything else: TF would print the registered C++ type's own
    ///   `DebugString`, which tftensor cannot know; it prints the stored
    ///   form as TF's `VariantTensorData::DebugString` does:
    ///   `type_name: T metadata: M` and ` tensors: ...` per tensor.
    ///
    /// Invalid UTF-8 (raw metadata, nested string tensors) becomes U+FFFD.
    ///
    /// ```
    /// use tftensor::{Tensor, Variant};
    /// let v = Variant::from_tensor(Tensor::from(42.0f32));
    /// assert_eq!(v.summarize_value(), "Tensor<type: float shape: [] values: 42>");
    /// assert_eq!(Variant::default().summarize_value(), "[empty]");
    /// ```
    pub fn summarize_value(&self) -> String {
        let mut out = Vec::new();
        self.write_summary_value(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    fn write_summary_value(&self, out: &mut Vec<u8>) {
        if self.is_empty() {
            out.extend_from_slice(b"[empty]");
        } else if let Some(t) = self.as_tensor() {
            t.write_debug_string(out, 3);
        } else {
            let _ = write!(out, "type_name: {} metadata: ", self.type_name);
            out.extend_from_slice(&self.metadata);
            for t in &self.tensors {
                out.extend_from_slice(b" tensors: ");
                t.write_debug_string(out, 3);
            }
        }
    }
}

/// `port::Demangle` (`abi::__cxa_demangle`, falling back to the input) for
/// the type manglings `typeid(T).name()` gives TF's resources: a builtin
/// type, a name, or a nested name (`N10tensorflow3VarE`).
fn demangle(mangled: &str) -> std::borrow::Cow<'_, str> {
    demangle_type(mangled.as_bytes())
        .map_or(std::borrow::Cow::Borrowed(mangled), std::borrow::Cow::Owned)
}

fn demangle_type(s: &[u8]) -> Option<String> {
    const BUILTINS: &[(u8, &str)] = &[
        (b'v', "void"),
        (b'w', "wchar_t"),
        (b'b', "bool"),
        (b'c', "char"),
        (b'a', "signed char"),
        (b'h', "unsigned char"),
        (b's', "short"),
        (b't', "unsigned short"),
        (b'i', "int"),
        (b'j', "unsigned int"),
        (b'l', "long"),
        (b'm', "unsigned long"),
        (b'x', "long long"),
        (b'y', "unsigned long long"),
        (b'n', "__int128"),
        (b'o', "unsigned __int128"),
        (b'f', "float"),
        (b'd', "double"),
        (b'e', "long double"),
        (b'g', "__float128"),
    ];
    if let [c] = s {
        return BUILTINS
            .iter()
            .find(|(code, _)| code == c)
            .map(|(_, name)| (*name).to_string());
    }
    let (mut rest, nested) = match s {
        [b'N', inner @ .., b'E'] => (inner, true),
        _ => (s, false),
    };
    let mut parts = Vec::new();
    let std_prefix = rest.starts_with(b"St");
    if std_prefix {
        parts.push("std".to_string());
        rest = rest.get(2..)?;
    }
    while !rest.is_empty() {
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let len: usize = std::str::from_utf8(rest.get(..digits)?)
            .ok()?
            .parse()
            .ok()?;
        let name = rest.get(digits..digits.checked_add(len)?)?;
        if digits == 0 || len == 0 {
            return None;
        }
        parts.push(if name.starts_with(b"_GLOBAL__N") {
            "(anonymous namespace)".to_string()
        } else {
            std::str::from_utf8(name).ok()?.to_string()
        });
        rest = rest.get(digits + len..)?;
    }
    // A plain name is one part (`std::` adds one); a nested name has two or more.
    let ok = if nested {
        parts.len() >= 2
    } else {
        parts.len() == 1 + usize::from(std_prefix)
    };
    ok.then(|| parts.join("::"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::DataType;
    use crate::shape::{PartialTensorShape, TensorShape};

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

    #[test]
    fn resource_dtypes_and_shapes() {
        // TF's ResourceHandleTest.SummarizeValue.
        let h = ResourceHandle {
            device: "cpu:0".into(),
            container: "test_container".into(),
            name: "test_var".into(),
            dtypes_and_shapes: vec![(DataType::Int32, PartialTensorShape::new(&[4, 8]).unwrap())],
            ..Default::default()
        };
        assert_eq!(
            h.summarize_value(),
            "ResourceHandle(name=\"test_var\", device=\"cpu:0\", container=\"test_container\", type=\"\", \
             dtype and shapes : \"[ DType enum: 3, Shape: [4,8] ]\")"
        );
        let two = ResourceHandle {
            dtypes_and_shapes: vec![
                (DataType::Float, PartialTensorShape::unknown()),
                (DataType::Int64, PartialTensorShape::new(&[-1, 2]).unwrap()),
            ],
            ..Default::default()
        };
        assert!(two
            .summarize_value()
            .ends_with("\"[ DType enum: 1, Shape: <unknown>,DType enum: 9, Shape: [?,2] ]\")"));
    }

    #[test]
    fn demangles_type_names() {
        assert_eq!(demangle("N10tensorflow3VarE"), "tensorflow::Var");
        assert_eq!(
            demangle("N10tensorflow12_GLOBAL__N_112StubResourceE"),
            "tensorflow::(anonymous namespace)::StubResource"
        );
        assert_eq!(demangle("NSt3foo3barE"), "std::foo::bar");
        assert_eq!(demangle("St6string"), "std::string");
        assert_eq!(demangle("3Var"), "Var");
        assert_eq!(demangle("i"), "int");
        assert_eq!(demangle("a"), "signed char");
        // Not a mangling this demangler (or __cxa_demangle) accepts: unchanged.
        for raw in [
            "",
            "foo",
            "Var",
            "3Va",
            "N3VarE3x",
            "0x",
            "N3Var",
            "NE",
            "99999999999999999999999a",
        ] {
            assert_eq!(demangle(raw), raw);
        }
    }
}
