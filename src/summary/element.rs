//! [`SummaryElement`]: how one element of each dtype prints in
//! `SummarizeValue`.

use std::io::Write as _;

use bytes::Bytes;

use super::number::{double_to_tf, float_to_tf, utf8_safe_c_escape};
use crate::element::{Element, ResourceHandle, Variant};

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

/// The impls of the row list's `summary` column; the `custom` ones are
/// written out below.
macro_rules! summary_elements {
    (() $( $konst:ident = $num:literal { name: $name:literal, proto_name: $proto:literal,
        size: $size:literal, kind: $kind:ident, rust: $t:ty, store: $store:ident $(($home:ident))?,
        proto: $codec:tt, summary: $summary:ident, doc: $doc:literal } )*) => {
        $( summary_element!($summary, $t); )*
    };
}

macro_rules! summary_element {
    // Integers (and the quantized types TF prints as their integer).
    (decimal, $t:ty) => {
        impl SummaryElement for $t {
            fn write_summary(&self, out: &mut Vec<u8>, _: bool) {
                // Writing into a Vec cannot fail.
                let _ = write!(out, "{self}");
            }
        }
    };
    // Narrow floats: TF converts them to `float` first.
    (float, $t:ty) => {
        impl SummaryElement for $t {
            fn write_summary(&self, out: &mut Vec<u8>, _: bool) {
                out.extend_from_slice(float_to_tf(f32::from(*self)).as_bytes());
            }
        }
    };
    (double, $t:ty) => {
        impl SummaryElement for $t {
            fn write_summary(&self, out: &mut Vec<u8>, _: bool) {
                out.extend_from_slice(double_to_tf(*self).as_bytes());
            }
        }
    };
    // Types TF 2.21 has no case for: `?` in a flat list.
    (unprintable, $t:ty) => {
        impl SummaryElement for $t {
            const LAYOUT: Layout = Layout::Flat;
            fn write_summary(&self, out: &mut Vec<u8>, _: bool) {
                out.push(b'?');
            }
        }
    };
    (custom, $t:ty) => {};
}

crate::for_each_dtype!(summary_elements);

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
