//! A serialized `TensorProto`'s dtype and shape from its first bytes, to
//! list TFRecords of tensors and `.pb` files without reading their data.

use prost::Message;

use super::lenient::varint;
use crate::{DataType, Error, Result, TensorShape};

/// How many leading bytes of a `TensorProto` to read for
/// [`peek_header`]: a shape of the most dims TF allows fits.
pub(crate) const PEEK: usize = 4096;

/// The dtype and shape of a serialized `TensorProto` from its first bytes,
/// read as TF writes them: `dtype` (field 1) and `tensor_shape` (field 2)
/// before any other field. `None` when the bytes end first and are not
/// `whole`; an error for a dtype a tensor cannot have or a bad shape.
pub(crate) fn peek_header(prefix: &[u8], whole: bool) -> Option<Result<(DataType, TensorShape)>> {
    let mut at = 0usize;
    let mut dtype = 0i32;
    let mut shape = crate::pb::TensorShapeProto::default();
    loop {
        if at == prefix.len() {
            // The end of the message ends the header; a cut prefix does not.
            return whole.then(|| header(dtype, &shape));
        }
        let tag = varint(prefix, &mut at)?;
        match (tag >> 3, tag & 7) {
            (1, 0) => {
                // Protobuf's int32: the low 32 bits of the varint.
                dtype = varint(prefix, &mut at)? as i32;
            }
            (2, 2) => {
                let len = varint(prefix, &mut at)?;
                let end = at.checked_add(usize::try_from(len).ok()?)?;
                let Some(bytes) = prefix.get(at..end) else {
                    return whole.then(|| Err(Error::invalid_proto("truncated tensor_shape")));
                };
                // Repeated message fields merge, as protobuf does.
                if let Err(e) = shape.merge(bytes) {
                    return Some(Err(Error::proto_decode("bad tensor_shape", e)));
                }
                at = end;
            }
            _ => return Some(header(dtype, &shape)),
        }
    }
}

fn header(dtype: i32, shape: &crate::pb::TensorShapeProto) -> Result<(DataType, TensorShape)> {
    let dtype = DataType::from_i32(dtype);
    if !dtype.is_valid_tensor_dtype() {
        return Err(Error::invalid_proto(format!(
            "dtype {} is not a tensor's dtype",
            dtype.as_i32()
        )));
    }
    Ok((dtype, TensorShape::from_proto(shape)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tensor;

    #[test]
    fn header_from_the_first_bytes() {
        let t = Tensor::from_vec([2, 3], vec![0u16; 6]).unwrap();
        let bytes = t.as_proto_tensor_content().unwrap().encode_to_vec();
        let (dtype, shape) = peek_header(&bytes[..13], false).unwrap().unwrap();
        assert_eq!((dtype, shape.dim_sizes()), (DataType::UInt16, vec![2, 3]));
        // Cut inside the shape: not known yet.
        assert!(peek_header(&bytes[..4], false).is_none());
        // A scalar string: fields 1, 2 (empty shape) then 8.
        let s = Tensor::from("ab").encode_proto_field().unwrap();
        let (dtype, shape) = peek_header(&s, true).unwrap().unwrap();
        assert_eq!((dtype, shape.dims()), (DataType::String, 0));
        // dtype 0 is not a tensor's.
        assert!(peek_header(b"\x08\x00\x12\x00", true).unwrap().is_err());
    }
}
