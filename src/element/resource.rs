//! [`ResourceHandle`], the element of `DT_RESOURCE` tensors.

use super::element_impls;
use crate::dtype::DataType;
use crate::shape::PartialTensorShape;

/// A handle to a resource (a variable, a table, ...), with the fields of
/// TF's `ResourceHandleProto`. Tensors of `DT_RESOURCE` hold these.
///
/// ```
/// use tftensor::{ResourceHandle, Tensor, DataType};
/// let h = ResourceHandle { name: "a".into(), ..Default::default() };
/// let t = Tensor::from(h.clone());
/// assert_eq!(t.dtype(), DataType::Resource);
/// assert_eq!(t.scalar::<ResourceHandle>().unwrap()[()], h);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ResourceHandle {
    /// The device the resource lives on.
    pub device: String,
    /// The container the resource lives in.
    pub container: String,
    /// The resource's unique name.
    pub name: String,
    /// A hash of the resource's type.
    pub hash_code: u64,
    /// The (mangled) name of the resource's C++ type, if known.
    pub maybe_type_name: String,
    /// The dtypes and shapes of the values the resource holds, if known.
    pub dtypes_and_shapes: Vec<(DataType, PartialTensorShape)>,
}

crate::for_each_dtype!(element_impls, resource);
