//! Element data at an address its type does not allow (a uint8 tensor
//! sliced at an odd offset and bit-cast): printing reads the values, the
//! `unaligned_*` accessors hand out one aligned copy, and writes copy the
//! region into an aligned buffer first.

use tftensor::ndarray::{Ix1, Ix2};
use tftensor::{DataType, Error, Tensor};

use crate::common::at_odd_address;

/// The repro: `[0,0,0,0x80,0x3f]` as uint8, `.slice(1,5)`, bitcast
/// to float `[1]`: the float 1.0 at an odd address.
fn misaligned_float() -> Tensor {
    at_odd_address(&[0, 0, 0x80, 0x3f], DataType::Float, &[1])
}

/// Two uint64 values, 1 and 2, at an odd address.
fn misaligned_u64() -> Tensor {
    let raw: Vec<u8> = [1u64, 2].iter().flat_map(|v| v.to_le_bytes()).collect();
    at_odd_address(&raw, DataType::UInt64, &[2])
}

#[test]
fn misaligned_data_prints_its_values() {
    let f = misaligned_float();
    assert!(matches!(f.flat::<f32>(), Err(Error::Misaligned { .. })));
    assert_eq!(f.summarize_value(-1, false), "1");
    assert_eq!(f.debug_string(), "Tensor<type: float shape: [1] values: 1>");
    assert_eq!(f.to_string(), "Tensor<type: float shape: [1] values: 1>");

    let u = misaligned_u64();
    assert_eq!(u.summarize_value(-1, false), "1 2");
    assert_eq!(u.summarize_value(-1, true), "[1 2]");
    assert_eq!(u.to_string(), "Tensor<type: uint64 shape: [2] values: 1 2>");
}

#[test]
fn unaligned_accessors_are_cow_arrays() {
    let u = misaligned_u64();
    let flat = u.unaligned_flat::<u64>().unwrap();
    assert!(flat.is_owned(), "misaligned data: one aligned copy");
    assert_eq!(flat.to_vec(), vec![1, 2]);
    let shaped = u.unaligned_shaped::<u64, Ix2>(&[2, 1]).unwrap();
    assert!(shaped.is_owned());
    assert_eq!(shaped[[1, 0]], 2);
    // Aligned data: a view over the buffer itself, no copy.
    let t = Tensor::from_vec([2], vec![1u64, 2]).unwrap();
    let v = t.unaligned_flat::<u64>().unwrap();
    assert!(v.is_view());
    assert_eq!(v.as_ptr().cast::<u8>(), t.data_ptr().unwrap());
    // The checks stay: dtype and element count.
    assert!(u.unaligned_flat::<i64>().is_err());
    assert!(u.unaligned_shaped::<u64, Ix1>(&[3]).is_err());
    // A write copies the misaligned region into an aligned buffer first.
    let mut w = misaligned_u64();
    w.flat_mut::<u64>().unwrap()[1] = 7;
    assert_eq!(w.as_slice::<u64>().unwrap(), &[1, 7]);
}
