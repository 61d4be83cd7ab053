//! [`Variant`], the element of `DT_VARIANT` tensors.

use bytes::Bytes;

use super::element_impls;
use crate::tensor::Tensor;

/// A type-erased value, kept in the shape of TF's `VariantTensorData`: a
/// type name, opaque metadata and nested tensors.
///
/// TF decodes variants through a registry of C++ types; tftensor keeps the
/// encoded form, which round-trips exactly. The empty variant (all fields
/// empty) is the default element of a `DT_VARIANT` tensor. A variant that
/// holds one tensor has the type name `"tensorflow::Tensor"`, as TF
/// encodes it.
///
/// ```
/// use tftensor::{Tensor, Variant};
/// let v = Variant::from_tensor(Tensor::from(42.0f32));
/// assert_eq!(v.type_name, "tensorflow::Tensor");
/// assert_eq!(v.as_tensor().unwrap().scalar::<f32>().unwrap()[()], 42.0);
/// assert!(Variant::default().is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Variant {
    /// The name of the value's type (TF: `TypeName()`).
    pub type_name: String,
    /// Opaque metadata bytes.
    pub metadata: Bytes,
    /// Nested tensors.
    pub tensors: Vec<Tensor>,
}

crate::for_each_dtype!(element_impls, variant);

/// The type name TF gives a variant that wraps a single tensor.
pub(crate) const TENSOR_TYPE_NAME: &str = "tensorflow::Tensor";

impl Variant {
    /// A variant holding one tensor, as TF's `Variant(Tensor)`.
    ///
    /// ```
    /// let v = tftensor::Variant::from_tensor(tftensor::Tensor::from(1i32));
    /// assert_eq!(v.tensors.len(), 1);
    /// ```
    pub fn from_tensor(t: Tensor) -> Variant {
        Variant {
            type_name: TENSOR_TYPE_NAME.to_string(),
            metadata: Bytes::new(),
            tensors: vec![t],
        }
    }

    /// The held tensor, if this variant wraps exactly one tensor.
    ///
    /// ```
    /// assert!(tftensor::Variant::default().as_tensor().is_none());
    /// ```
    pub fn as_tensor(&self) -> Option<&Tensor> {
        match self.tensors.as_slice() {
            [t] if self.type_name == TENSOR_TYPE_NAME => Some(t),
            _ => None,
        }
    }

    /// Whether this is the empty variant (no type, metadata or tensors).
    ///
    /// ```
    /// assert!(tftensor::Variant::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.type_name.is_empty() && self.metadata.is_empty() && self.tensors.is_empty()
    }
}
