//! The printed forms of the typed elements: TF's `ResourceHandle` and
//! `Variant` `SummarizeValue` and `DebugString`, and the demangler of the
//! C++ type names resources carry.

use std::io::Write as _;

use crate::element::{ResourceHandle, Variant};

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

    pub(super) fn write_summary_value(&self, out: &mut Vec<u8>) {
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
    use crate::shape::PartialTensorShape;

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
        assert!(
            two.summarize_value()
                .ends_with("\"[ DType enum: 1, Shape: <unknown>,DType enum: 9, Shape: [?,2] ]\")")
        );
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
