//! Conversions into shapes: the `TryFrom` family over lists of `i64` dims
//! (slices, arrays, `Vec`s, by value or reference, all [`TensorShape::new`]),
//! `usize` dims, and between full and partial shapes.

use super::{PartialTensorShape, TensorShape};
use crate::error::{Error, Result};

/// `TryFrom<$t> for TensorShape`, each the same as [`TensorShape::new`] on
/// the dims as a slice; `$example` documents it.
macro_rules! try_from_i64_dims {
    ($($(const $n:ident:)? $t:ty, |$d:ident| $slice:expr, $example:literal;)*) => {$(
        impl$(<const $n: usize>)? TryFrom<$t> for TensorShape {
            type Error = Error;

            /// Same as [`TensorShape::new`].
            ///
            #[doc = $example]
            fn try_from($d: $t) -> Result<Self> {
                Self::new($slice)
            }
        }
    )*};
}

try_from_i64_dims! {
    &[i64], |dims| dims, r#"```
use tftensor::TensorShape;
let s = TensorShape::try_from(&[2i64, 3][..])?;
assert_eq!(s.num_elements(), 6);
# Ok::<(), tftensor::Error>(())
```"#;
    const N: [i64; N], |dims| &dims, r#"```
use tftensor::TensorShape;
let s = TensorShape::try_from([2, 3])?;
assert_eq!(s.to_string(), "[2,3]");
# Ok::<(), tftensor::Error>(())
```"#;
    const N: &[i64; N], |dims| dims, r#"```
use tftensor::TensorShape;
let s = TensorShape::try_from(&[2, 3])?;
assert_eq!(s.to_string(), "[2,3]");
# Ok::<(), tftensor::Error>(())
```"#;
    Vec<i64>, |dims| &dims, r#"```
use tftensor::TensorShape;
let s = TensorShape::try_from(vec![4i64, 5])?;
assert_eq!(s.num_elements(), 20);
# Ok::<(), tftensor::Error>(())
```"#;
    &Vec<i64>, |dims| dims, r#"```
use tftensor::TensorShape;
let dims = vec![4i64, 5];
assert_eq!(TensorShape::try_from(&dims)?.num_elements(), 20);
# Ok::<(), tftensor::Error>(())
```"#;
}

impl TryFrom<&[usize]> for TensorShape {
    type Error = Error;

    /// Same as [`TensorShape::from_usizes`].
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let s = TensorShape::try_from(&[2usize, 3][..])?;
    /// assert_eq!(s.to_string(), "[2,3]");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(dims: &[usize]) -> Result<Self> {
        Self::from_usizes(dims)
    }
}

impl TryFrom<&PartialTensorShape> for TensorShape {
    type Error = Error;

    /// Same as [`PartialTensorShape::to_tensor_shape`].
    ///
    /// ```
    /// use tftensor::{PartialTensorShape, TensorShape};
    /// let p = PartialTensorShape::new(&[2, 3])?;
    /// assert_eq!(TensorShape::try_from(&p)?.num_elements(), 6);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(p: &PartialTensorShape) -> Result<Self> {
        p.to_tensor_shape()
    }
}

impl From<TensorShape> for PartialTensorShape {
    /// Every `TensorShape` is a fully defined partial shape.
    ///
    /// ```
    /// use tftensor::{PartialTensorShape, TensorShape};
    /// let p = PartialTensorShape::from(TensorShape::new(&[2, 3])?);
    /// assert!(p.is_fully_defined());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn from(s: TensorShape) -> Self {
        PartialTensorShape::from(&s)
    }
}

impl From<&TensorShape> for PartialTensorShape {
    /// Every `TensorShape` is a fully defined partial shape.
    ///
    /// ```
    /// use tftensor::{PartialTensorShape, TensorShape};
    /// let s = TensorShape::new(&[2, 3])?;
    /// assert_eq!(PartialTensorShape::from(&s).to_string(), "[2,3]");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn from(s: &TensorShape) -> Self {
        PartialTensorShape::known(s.dim_sizes())
    }
}
