//! `compress_tensor_proto_in_place`: TF's tensor_test / tensor_util_test
//! cases, plus -0.0, ratio thresholds and the "FromProto of the output
//! equals FromProto of the input" property over every compressible dtype.

use bytes::Bytes;
use half::{bf16, f16};
use num_complex::Complex;
use prost::Message;
use tftensor::pb::TensorProto;
use tftensor::{
    DataType, Element, QInt8, QInt16, QInt32, QUInt8, QUInt16, Tensor,
    compress_tensor_proto_in_place,
};

use crate::common;
use common::shape;

/// Compresses a copy; checks FromProto gives the same tensor and that a
/// `false` leaves the proto untouched.
fn compress(p: &TensorProto, min: i64, ratio: f32) -> (bool, TensorProto) {
    let mut q = p.clone();
    let changed = compress_tensor_proto_in_place(&mut q, min, ratio);
    if changed {
        assert_eq!(
            Tensor::from_proto(&q).unwrap(),
            Tensor::from_proto(p).unwrap(),
            "{p:?} -> {q:?}"
        );
    } else {
        // Bytes, not `==`: a NaN value is not equal to itself.
        assert_eq!(q.encode_to_vec(), p.encode_to_vec());
    }
    (changed, q)
}

/// Number of whole elements in the typed field (complex: pairs).
fn num_values(p: &TensorProto) -> usize {
    p.float_val.len()
        + p.double_val.len()
        + p.int_val.len()
        + p.int64_val.len()
        + p.uint32_val.len()
        + p.uint64_val.len()
        + p.bool_val.len()
        + p.half_val.len()
        + p.scomplex_val.len() / 2
        + p.dcomplex_val.len() / 2
}

#[test]
fn compressed_tensor_proto() {
    // TensorFromProto.CompressedTensorProto: FLOAT [100] of 42.
    let t = Tensor::from_vec([100], vec![42.0f32; 100]).unwrap();
    let mut p = t.as_proto_field().unwrap();
    assert!(compress_tensor_proto_in_place(&mut p, 64, 2.0));
    assert_eq!(p.float_val, [42.0]);
    assert_eq!(Tensor::from_proto(&p).unwrap(), t);
}

fn field_proto<T: Element>(values: Vec<T>) -> TensorProto {
    let n = values.len() as i64;
    Tensor::from_vec([n], values)
        .unwrap()
        .as_proto_field()
        .unwrap()
}

/// `values` as an `as_proto_tensor_content` proto.
fn content_proto<T: Element>(shape: [i64; 1], values: Vec<T>) -> TensorProto {
    Tensor::from_vec(shape, values)
        .unwrap()
        .as_proto_tensor_content()
        .unwrap()
}

/// All-zero field protos of `n` elements for the dtypes TF's tests use.
fn zero_protos(n: usize) -> [TensorProto; 6] {
    [
        field_proto(vec![0.0f32; n]),
        field_proto(vec![0i32; n]),
        field_proto(vec![0u8; n]),
        field_proto(vec![false; n]),
        field_proto(vec![f16::ZERO; n]),
        field_proto(vec![Complex::new(0.0f32, 0.0); n]),
    ]
}

#[test]
fn too_small() {
    // TensorProtoUtil.CompressTensorProtoInPlaceTooSmall: 63 < 64 elements.
    for p in zero_protos(63) {
        assert!(!compress(&p, 64, 2.0).0);
    }
}

#[test]
fn all_equal_zero_clears_the_field() {
    // TensorProtoUtil.CompressTensorProtoInPlaceAllEqual.
    for p in zero_protos(64) {
        let (changed, q) = compress(&p, 64, 2.0);
        assert!(changed);
        assert_eq!(num_values(&q), 0);
        assert!(q.tensor_content.is_empty());
    }
}

/// TF's `VectorWithConstantTail`: `i` (complex: `i·j`) then a tail of zeros.
trait TailValue: Element {
    fn at(i: i64) -> Self;
    const COMPLEX: bool = false;
    const FIELD_BYTES: i64;
}
macro_rules! tail_value {
    ($($t:ty => |$i:ident| $e:expr, $fb:expr;)*) => {$(
        impl TailValue for $t {
            fn at($i: i64) -> Self { $e }
            const FIELD_BYTES: i64 = $fb;
        }
    )*};
}
tail_value! {
    f32 => |i| i as f32, 4;
    f64 => |i| i as f64, 8;
    i32 => |i| i as i32, 4;
    u32 => |i| i as u32, 4;
    i64 => |i| i, 8;
    u64 => |i| i as u64, 8;
    i8 => |i| i as i8, 4;
    u8 => |i| i as u8, 4;
    i16 => |i| i as i16, 4;
    u16 => |i| i as u16, 4;
    f16 => |i| f16::from_f64(i as f64), 4;
    bf16 => |i| bf16::from_f64(i as f64), 4;
}
impl TailValue for Complex<f32> {
    fn at(i: i64) -> Self {
        Complex::new(0.0, i as f32)
    }
    const COMPLEX: bool = true;
    const FIELD_BYTES: i64 = 4;
}
impl TailValue for Complex<f64> {
    fn at(i: i64) -> Self {
        Complex::new(0.0, i as f64)
    }
    const COMPLEX: bool = true;
    const FIELD_BYTES: i64 = 8;
}

/// TF's `ConstantTailTest`.
fn constant_tail_test<T: TailValue>(length: i64, tail: i64, as_field: bool) {
    let values: Vec<T> = (0..length)
        .map(|i| {
            if i >= length - tail {
                T::default()
            } else {
                T::at(i)
            }
        })
        .collect();
    let t = Tensor::from_vec([length], values).unwrap();
    let p = if as_field {
        t.as_proto_field()
    } else {
        t.as_proto_tensor_content()
    }
    .unwrap();
    let per = if T::COMPLEX { 2 } else { 1 };
    let size_of_t = std::mem::size_of::<T>() as i64;
    let original = length
        * if as_field {
            per * T::FIELD_BYTES
        } else {
            size_of_t
        };
    let as_content = length * size_of_t;
    let as_field_size = length.min(length - tail + 1) * per * T::FIELD_BYTES;
    let will = as_content.min(as_field_size) <= (original as f32 / 2.0) as i64;
    let what = format!("{} tail {tail} field {as_field}", T::DTYPE);
    let (changed, q) = compress(&p, 64, 2.0);
    assert_eq!(changed, will, "{what}");
    if will {
        if as_content < as_field_size {
            assert_eq!(num_values(&q), 0, "{what}");
            assert!(!q.tensor_content.is_empty(), "{what}");
        } else {
            assert!(num_values(&q) as i64 <= length - tail + 1, "{what}");
            assert!(q.tensor_content.is_empty(), "{what}");
        }
    }
    assert_eq!(Tensor::from_proto(&q).unwrap(), t, "{what}");
}

#[test]
fn constant_tail() {
    // TensorProtoUtil.CompressTensorProtoConstantTail.
    for as_field in [true, false] {
        for tail in [0, 1, 2, 32, 33, 63, 64] {
            constant_tail_test::<f32>(64, tail, as_field);
            constant_tail_test::<f64>(64, tail, as_field);
            constant_tail_test::<Complex<f32>>(64, tail, as_field);
            constant_tail_test::<Complex<f64>>(64, tail, as_field);
            constant_tail_test::<i32>(64, tail, as_field);
            constant_tail_test::<u32>(64, tail, as_field);
            constant_tail_test::<i64>(64, tail, as_field);
            constant_tail_test::<u64>(64, tail, as_field);
            constant_tail_test::<i8>(64, tail, as_field);
            constant_tail_test::<u8>(64, tail, as_field);
            constant_tail_test::<i16>(64, tail, as_field);
            constant_tail_test::<u16>(64, tail, as_field);
            constant_tail_test::<f16>(64, tail, as_field);
            constant_tail_test::<bf16>(64, tail, as_field);
        }
    }
}

#[test]
fn negative_zero_is_kept() {
    // All -0.0 in a field: not the zero splat; one value is kept.
    let p = field_proto(vec![-0.0f32; 64]);
    let (changed, q) = compress(&p, 64, 2.0);
    assert!(changed);
    assert_eq!(q.float_val.len(), 1);
    assert_eq!(q.float_val[0].to_bits(), 0x8000_0000);
    // A -0.0 splat in tensor_content moves to the field (TF would clear it
    // and so turn it into +0.0).
    let t = Tensor::from_vec([64], vec![-0.0f64; 64]).unwrap();
    let (changed, q) = compress(&t.as_proto_tensor_content().unwrap(), 64, 2.0);
    assert!(changed);
    assert_eq!(q.double_val.len(), 1);
    assert!(q.tensor_content.is_empty());
    // Half runs mixing -0.0 and +0.0 are not one run (TF compares halves as
    // floats and would lose the sign of the first zero's successors).
    let mut v = vec![f16::ONE, f16::NEG_ZERO];
    v.extend([f16::ZERO; 62]);
    let (changed, q) = compress(&field_proto(v), 64, 2.0);
    assert!(changed);
    assert_eq!(q.half_val, [0x3c00, 0x8000, 0x0000]);
    // Complex with a -0.0 part is not zero.
    let (changed, q) = compress(&field_proto(vec![Complex::new(0.0f32, -0.0); 64]), 64, 2.0);
    assert!(changed);
    assert_eq!(q.scomplex_val.len(), 2);
    // Identical NaNs are one run.
    let nan = f32::from_bits(0x7fc0_0123);
    let (changed, q) = compress(&field_proto(vec![nan; 64]), 64, 2.0);
    assert!(changed);
    assert_eq!(
        q.float_val.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        [0x7fc0_0123]
    );
}

#[test]
fn ratio_thresholds() {
    // Float field of 64: 31 distinct values then a run of 33 → 32 kept
    // values = 128 bytes = 256 / 2: compressed at ratio 2.
    let values = |distinct: usize| -> Vec<f32> {
        (0..64)
            .map(|i| if i < distinct { i as f32 + 1.0 } else { -7.0 })
            .collect()
    };
    let p = field_proto(values(31));
    let (changed, q) = compress(&p, 64, 2.0);
    assert!(changed);
    assert_eq!(q.float_val.len(), 32);
    // One more distinct value: 132 > 128.
    assert!(!compress(&field_proto(values(32)), 64, 2.0).0);
    assert!(compress(&field_proto(values(32)), 64, 1.9).0);
    // Ratio 1: any saving at all; ratio 0: always; negative: never.
    assert!(compress(&field_proto(values(62)), 64, 1.0).0);
    // Nothing to cut, but the sizes pass: TF reports `true` for this no-op.
    let (changed, q) = compress(&field_proto(values(64)), 64, 1.0);
    assert!(changed);
    assert_eq!(q.float_val.len(), 64);
    assert!(!compress(&field_proto(values(64)), 64, 1.01).0);
    assert!(compress(&field_proto(values(62)), 64, 0.0).0);
    assert!(!compress(&field_proto(vec![3.0f32; 64]), 64, -1.0).0);
    // min_num_elements is inclusive.
    assert!(compress(&field_proto(vec![3.0f32; 64]), 64, 2.0).0);
    assert!(!compress(&field_proto(vec![3.0f32; 64]), 65, 2.0).0);
    // Content: kept values × field bytes vs content bytes / ratio.
    let mut v = vec![5i64; 64];
    v[30] = 1; // the run starts at 31: 32 kept × 8 = 256 = 512 / 2
    let t = Tensor::from_vec([64], v.clone()).unwrap();
    let (changed, q) = compress(&t.as_proto_tensor_content().unwrap(), 64, 2.0);
    assert!(changed);
    assert_eq!(q.int64_val.len(), 32);
    v[31] = 1;
    let t = Tensor::from_vec([64], v).unwrap();
    assert!(!compress(&t.as_proto_tensor_content().unwrap(), 64, 2.0).0);
}

#[test]
fn content_inputs() {
    // A splat of 42 in content → one field value.
    let t = Tensor::from_vec([100], vec![42.0f32; 100]).unwrap();
    let (changed, q) = compress(&t.as_proto_tensor_content().unwrap(), 64, 2.0);
    assert!(changed);
    assert_eq!(q.float_val, [42.0]);
    assert!(q.tensor_content.is_empty());
    // All zero bytes → nothing at all.
    let t = Tensor::new(DataType::Int32, [80]).unwrap();
    let (changed, q) = compress(&t.as_proto_tensor_content().unwrap(), 64, 2.0);
    assert!(changed);
    assert!(q.tensor_content.is_empty() && q.int_val.is_empty());
    // Narrow types go through int_val, widened.
    let mut v = vec![-3i8; 64];
    v[0] = 100;
    let (changed, q) = compress(&content_proto([64], v), 64, 2.0);
    assert!(changed);
    assert_eq!(q.int_val, [100, -3]);
    let (changed, q) = compress(&content_proto([64], vec![QUInt8(200); 64]), 64, 2.0);
    assert!(changed);
    assert_eq!(q.int_val, [200]);
    // Complex splat → one (re, im) pair.
    let c = vec![Complex::new(1.5f32, -2.0); 64];
    let (changed, q) = compress(&content_proto([64], c), 64, 2.0);
    assert!(changed);
    assert_eq!(q.scomplex_val, [1.5, -2.0]);
    // Bool content.
    let mut b = vec![true; 70];
    b[0] = false;
    let (changed, q) = compress(&content_proto([70], b), 64, 2.0);
    assert!(changed);
    assert_eq!(q.bool_val, [false, true]);
    // The trailing run is found byte-wise: 0x0101 halves differ from 0x0001.
    let mut v = vec![0x0101u16; 64];
    v[10] = 0x0001;
    let (changed, q) = compress(&content_proto([64], v), 64, 2.0);
    assert!(changed);
    assert_eq!(q.int_val.len(), 12);
}

#[test]
fn invalid_or_unsupported_input_is_left_alone() {
    // Bool content with a byte other than 0/1.
    let mut p = TensorProto {
        dtype: DataType::Bool.as_i32(),
        tensor_shape: shape(&[64]),
        ..Default::default()
    };
    let mut bytes = vec![2u8; 64];
    bytes[0] = 1;
    p.tensor_content = Bytes::from(bytes);
    let mut q = p.clone();
    assert!(!compress_tensor_proto_in_place(&mut q, 64, 2.0));
    assert_eq!(q, p);
    // Content of the wrong length (TF's integer division would accept 257).
    let mut p = TensorProto {
        dtype: DataType::Float.as_i32(),
        tensor_shape: shape(&[64]),
        ..Default::default()
    };
    p.tensor_content = Bytes::from(vec![0u8; 257]);
    let mut q = p.clone();
    assert!(!compress_tensor_proto_in_place(&mut q, 64, 2.0));
    assert_eq!(q, p);
    // Invalid shape, empty field, dtypes TF does not compress.
    let mut p = TensorProto {
        dtype: DataType::Float.as_i32(),
        tensor_shape: shape(&[-1]),
        ..Default::default()
    };
    assert!(!compress_tensor_proto_in_place(&mut p, 0, 2.0));
    let mut p = TensorProto {
        dtype: DataType::Float.as_i32(),
        tensor_shape: shape(&[100]),
        ..Default::default()
    };
    assert!(!compress_tensor_proto_in_place(&mut p, 64, 2.0));
    for dt in [
        DataType::String,
        DataType::Float8E4M3FN,
        DataType::Int4,
        DataType::UInt4,
        DataType::Resource,
        DataType::Variant,
        DataType::Invalid,
        DataType::Float.as_ref_type(),
    ] {
        let t = Tensor::new(
            if dt.is_valid_tensor_dtype() {
                dt
            } else {
                DataType::Float
            },
            [100],
        )
        .unwrap();
        let mut p = t.as_proto_field().unwrap();
        p.dtype = dt.as_i32();
        let before = p.clone();
        assert!(!compress_tensor_proto_in_place(&mut p, 64, 2.0), "{dt}");
        assert_eq!(p, before);
    }
}

#[test]
fn short_multi_value_field_to_content_keeps_the_fill_rule() {
    // int8 [64] from 40 values: FromProto repeats the 40th. Content (64
    // bytes) beats the field (160 bytes), so it becomes content; TF would
    // zero-fill the last 24 elements, tftensor keeps the repeated value.
    let mut p = TensorProto {
        dtype: DataType::Int8.as_i32(),
        tensor_shape: shape(&[64]),
        ..Default::default()
    };
    p.int_val = (1..=40).collect();
    let (changed, q) = compress(&p, 64, 2.0);
    assert!(changed);
    assert!(q.int_val.is_empty());
    let want: Vec<u8> = (1..=40).chain(std::iter::repeat_n(40, 24)).collect();
    assert_eq!(&q.tensor_content[..], &want[..]);
    // Extra values beyond the element count are ignored either way.
    let mut p = TensorProto {
        dtype: DataType::UInt8.as_i32(),
        tensor_shape: shape(&[64]),
        ..Default::default()
    };
    p.int_val = (0..100).collect();
    let (changed, q) = compress(&p, 64, 2.0);
    assert!(changed);
    assert_eq!(q.tensor_content.len(), 64);
}

/// Element bytes for pattern tensors: runs of a few distinct values so
/// tails of every length occur.
fn run_tensor(dt: DataType, n: usize, distinct: usize, value_seed: u8) -> Tensor {
    let size = dt.size();
    let elem = |i: usize| -> Vec<u8> {
        let k = i.min(distinct);
        (0..size)
            .map(|b| {
                if dt == DataType::Bool {
                    u8::from(k % 2 == 1)
                } else {
                    (k as u8).wrapping_mul(value_seed).wrapping_add(b as u8)
                }
            })
            .collect()
    };
    let bytes: Vec<u8> = (0..n).flat_map(elem).collect();
    Tensor::from_buffer(dt, [n as i64], Bytes::from(bytes)).unwrap()
}

#[test]
fn from_proto_of_output_equals_input_for_every_compressible_dtype() {
    let compressible = [
        DataType::Float,
        DataType::Double,
        DataType::Complex64,
        DataType::Complex128,
        DataType::UInt8,
        DataType::Int8,
        DataType::UInt16,
        DataType::Int16,
        DataType::UInt32,
        DataType::Int32,
        DataType::UInt64,
        DataType::Int64,
        DataType::Bool,
        DataType::QUInt8,
        DataType::QInt8,
        DataType::QUInt16,
        DataType::QInt16,
        DataType::QInt32,
        DataType::Half,
        DataType::BFloat16,
    ];
    let mut compressed = 0;
    for dt in compressible {
        for n in [64usize, 65, 100] {
            for distinct in [0usize, 1, 5, 31, 32, 33, 63, 99] {
                for seed in [0u8, 1, 0x80, 0xff] {
                    let t = run_tensor(dt, n, distinct, seed);
                    for p in [
                        t.as_proto_field().unwrap(),
                        t.as_proto_tensor_content().unwrap(),
                    ] {
                        for ratio in [0.5f32, 1.0, 2.0, 4.0] {
                            let (changed, q) = compress(&p, 64, ratio);
                            compressed += usize::from(changed);
                            assert_eq!(
                                Tensor::from_proto(&q).unwrap(),
                                t,
                                "{dt} n {n} distinct {distinct} seed {seed}"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(compressed > 1000, "{compressed}");
    // Quantized widening round-trips through int_val.
    let t = Tensor::from_vec([64], vec![QInt8(-5); 64]).unwrap();
    assert_eq!(
        compress(&t.as_proto_tensor_content().unwrap(), 64, 2.0)
            .1
            .int_val,
        [-5]
    );
    let t = Tensor::from_vec([64], vec![QInt16(-300); 64]).unwrap();
    assert_eq!(
        compress(&t.as_proto_tensor_content().unwrap(), 64, 2.0)
            .1
            .int_val,
        [-300]
    );
    let t = Tensor::from_vec([64], vec![QUInt16(65535); 64]).unwrap();
    assert_eq!(
        compress(&t.as_proto_tensor_content().unwrap(), 64, 2.0)
            .1
            .int_val,
        [65535]
    );
    let t = Tensor::from_vec([64], vec![QInt32(i32::MIN); 64]).unwrap();
    assert_eq!(
        compress(&t.as_proto_tensor_content().unwrap(), 64, 2.0)
            .1
            .int_val,
        [i32::MIN]
    );
}
