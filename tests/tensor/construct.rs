//! Constructing tensors through the public API: every dtype, zero fill,
//! allocators and allocation failure, adopted buffers, scalars, sizes and
//! reference counts.

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::Arc;

use crate::common;

use bytes::Bytes;
use tftensor::{
    ALIGNMENT, Allocator, CpuAllocator, DataType, Element, Error, Float8E4M3FN, Int4,
    MAX_DIMENSIONS, QInt16, QUInt8, ResourceHandle, Tensor, TrackingAllocator, UInt4, Variant,
};

#[test]
fn from_dtype_is_rank1_empty_for_every_dtype() {
    for &dt in DataType::all() {
        let t = Tensor::from_dtype(dt);
        assert_eq!(t.dtype(), dt);
        assert_eq!(t.shape().dim_sizes(), vec![0]);
        assert!(t.is_initialized());
        assert_eq!(t.total_bytes(), 0);
    }
}

#[test]
fn new_zero_fills_every_dtype_and_reports_sizes() {
    for &dt in DataType::all() {
        let t = Tensor::new(dt, [3, 2]).unwrap();
        assert_eq!(t.num_elements(), 6);
        assert!(t.is_aligned(), "{dt}");
        assert!(t.ref_count_is_one(), "{dt}");
        if dt.can_use_memcpy() {
            let data = t.tensor_data().unwrap();
            assert_eq!(data.len(), 6 * dt.size());
            assert!(data.iter().all(|&b| b == 0));
            assert_eq!(t.total_bytes(), 6 * dt.size());
            assert_eq!(t.data_ptr().unwrap() as usize % ALIGNMENT, 0);
        } else {
            assert!(matches!(
                t.tensor_data(),
                Err(Error::UnsupportedDataType { .. })
            ));
        }
    }
    let s = Tensor::new(DataType::String, [2]).unwrap();
    assert_eq!(
        s.as_slice::<Bytes>().unwrap(),
        &[Bytes::new(), Bytes::new()]
    );
    let r = Tensor::new(DataType::Resource, [1]).unwrap();
    assert_eq!(
        r.as_slice::<ResourceHandle>().unwrap(),
        &[ResourceHandle::default()]
    );
    let v = Tensor::new(DataType::Variant, [1]).unwrap();
    assert!(v.as_slice::<Variant>().unwrap()[0].is_empty());
}

#[test]
fn zero_element_tensors_allocate_nothing() {
    let a = Arc::new(TrackingAllocator::new());
    let t = Tensor::with_allocator(&a, DataType::Double, [0, 1000]).unwrap();
    assert_eq!(a.allocation_count(), 0);
    assert!(t.data_ptr().is_none());
    assert!(t.is_initialized());
    assert_eq!(t.as_slice::<f64>().unwrap().len(), 0);
}

#[test]
fn with_allocator_tracks_and_describes() {
    let a = Arc::new(TrackingAllocator::new());
    let t = Tensor::with_allocator(&a, DataType::Float, [10, 20]).unwrap();
    assert_eq!(a.live_bytes(), 800);
    assert_eq!(t.allocated_bytes(), 800);
    let d = t.allocation_description().unwrap();
    assert_eq!(d.requested_bytes, 800);
    assert_eq!(d.allocated_bytes, 800);
    assert_eq!(d.allocator_name, "tracking");
    assert!(d.allocation_id > 0);
    assert!(d.has_single_reference);
    assert_eq!(d.ptr, t.data_ptr().unwrap() as u64);
    let s = t.slice(2, 4).unwrap();
    let d = s.allocation_description().unwrap();
    assert_eq!(d.requested_bytes, 800, "slices describe their root");
    assert!(!d.has_single_reference);
    drop((t, s));
    assert_eq!(a.live_bytes(), 0);
    assert_eq!(a.peak_bytes(), 800);
    // The default allocator does not track: allocated == total bytes.
    let c = Tensor::new(DataType::Float, [10, 20]).unwrap();
    assert_eq!(c.allocated_bytes(), 800);
    let d = c.allocation_description().unwrap();
    assert_eq!(
        (
            d.allocated_bytes,
            d.allocation_id,
            d.allocator_name.as_str()
        ),
        (0, 0, "cpu")
    );
}

#[derive(Debug)]
struct Failing;
// SAFETY: never hands out memory.
unsafe impl Allocator for Failing {
    fn name(&self) -> &str {
        "failing"
    }
    fn allocate(&self, _: Layout) -> Option<NonNull<u8>> {
        None
    }
    unsafe fn deallocate(&self, _: NonNull<u8>, _: Layout) {}
}

#[test]
fn failure_to_allocate_is_an_error() {
    let a = Arc::new(Failing);
    assert_eq!(
        Tensor::with_allocator(&a, DataType::Float, [1]).unwrap_err(),
        Error::AllocationFailed { bytes: 4 }
    );
    assert!(Tensor::with_allocator(&a, DataType::Float, [0]).is_ok());
    assert!(matches!(
        Tensor::new(DataType::Complex128, [1i64 << 40, 1 << 20]),
        Err(Error::Overflow(_))
    ));
}

#[test]
fn cpu_allocator_aligns_to_64() {
    let layout = Layout::from_size_align(100, ALIGNMENT).unwrap();
    for _ in 0..8 {
        let p = CpuAllocator.allocate(layout).unwrap();
        assert_eq!(p.as_ptr() as usize % 64, 0);
        // SAFETY: `p` came from `allocate(layout)`.
        unsafe { CpuAllocator.deallocate(p, layout) };
    }
    assert!(
        CpuAllocator
            .allocate(Layout::from_size_align(0, 64).unwrap())
            .is_none()
    );
}

#[test]
fn bad_input_is_an_error_never_a_panic() {
    assert!(matches!(
        Tensor::new(DataType::Float, [2, -3]),
        Err(Error::InvalidShape(_))
    ));
    let too_many = vec![1i64; MAX_DIMENSIONS + 1];
    assert!(matches!(
        Tensor::new(DataType::Float, &too_many),
        Err(Error::InvalidShape(_))
    ));
    assert!(Tensor::new(DataType::Float, vec![1i64; MAX_DIMENSIONS]).is_ok());
    assert!(matches!(
        Tensor::new(DataType::Float, [i64::MAX, 2]),
        Err(Error::Overflow(_))
    ));
    assert!(matches!(
        Tensor::new(DataType::from_i32(40), [1]),
        Err(Error::UnsupportedDataType { .. })
    ));
    assert!(matches!(
        Tensor::new(DataType::Int8.as_ref_type(), [1]),
        Err(Error::UnsupportedDataType { message: m, .. }) if m == "Unexpected type: DT_INT8_REF"
    ));
    assert!(matches!(
        Tensor::from_buffer(DataType::Float, [2], Bytes::from_static(&[0; 7])),
        Err(e @ Error::SizeMismatch { .. }) if e.to_string() == "Input size was 7 and expected 8"
    ));
    assert!(matches!(
        Tensor::from_buffer(DataType::String, [1], Bytes::from_static(&[0])),
        Err(Error::UnsupportedDataType { .. })
    ));
    assert!(
        matches!(Tensor::from_vec([2], vec![1u8]), Err(e @ Error::SizeMismatch { .. }) if e.to_string() == "1 vs. 2")
    );
    assert!(matches!(
        Tensor::from_slice([3], &[1u8]),
        Err(Error::SizeMismatch { .. })
    ));
}

#[test]
fn from_buffer_adopts_aligned_bytes_and_copies_misaligned() {
    // Words backing the bytes make offset 0 4-aligned and offset 1 not.
    let words: Vec<u32> = vec![0x0403_0201, 0x0807_0605, 0x0c0b_0a09];
    let raw = Bytes::from(bytemuck_bytes(&words));
    let aligned = raw.slice(0..8);
    let t = Tensor::from_buffer(DataType::UInt32, [2], aligned.clone()).unwrap();
    assert_eq!(
        t.data_ptr(),
        Some(aligned.as_ptr()),
        "adopted without a copy"
    );
    assert_eq!(t.as_slice::<u32>().unwrap(), &[0x0403_0201, 0x0807_0605]);
    assert!(!t.ref_count_is_one(), "external bytes are not owned");
    let odd = raw.slice(1..9);
    let t = Tensor::from_buffer(DataType::UInt32, [2], odd.clone()).unwrap();
    assert_ne!(t.data_ptr(), Some(odd.as_ptr()), "copied once");
    assert!(t.is_aligned());
    assert_eq!(t.as_slice::<u32>().unwrap(), &[0x0504_0302, 0x0908_0706]);
}

fn bytemuck_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn external_bytes_are_copied_on_write() {
    let raw = Bytes::from(vec![1u8, 2, 3]);
    let mut t = Tensor::from_buffer(DataType::UInt8, [3], raw.clone()).unwrap();
    t.as_mut_slice::<u8>().unwrap()[0] = 9;
    assert_eq!(&raw[..], &[1, 2, 3]);
    assert_eq!(t.as_slice::<u8>().unwrap(), &[9, 2, 3]);
    assert!(t.ref_count_is_one());
}

#[test]
fn scalar_constructors_for_every_element_kind() {
    fn check<T: Element + PartialEq>(v: T) {
        let t = Tensor::from(v.clone());
        assert_eq!(t.dtype(), T::DTYPE);
        assert_eq!(t.dims(), 0);
        assert_eq!(t.as_slice::<T>().unwrap(), &[v]);
    }
    check(1.5f32);
    check(2.5f64);
    check(-3i8);
    check(-4i16);
    check(-5i32);
    check(-6i64);
    check(7u8);
    check(8u16);
    check(9u32);
    check(10u64);
    check(true);
    check(num_complex::Complex::new(1.0f32, -1.0));
    check(num_complex::Complex::new(1.0f64, -1.0));
    check(half::f16::from_f32(0.5));
    check(half::bf16::from_f32(0.5));
    check(QUInt8(200));
    check(QInt16(-300));
    check(Int4::new(-8).unwrap());
    check(UInt4::new(15).unwrap());
    check(Bytes::from_static(b"\xff\x00bytes"));
    check(ResourceHandle {
        name: "a".into(),
        ..Default::default()
    });
    check(Variant::from_tensor(Tensor::from(42.0f32)));
    let f8 = Float8E4M3FN::from_f32(1.5);
    let t = Tensor::from(f8);
    assert_eq!(t.tensor_data().unwrap(), &[f8.to_bits()]);
    assert_eq!(Tensor::from("foo").as_slice::<Bytes>().unwrap()[0], "foo");
    assert_eq!(Tensor::from(String::from("bar")).dtype(), DataType::String);
}

#[test]
fn total_bytes_follows_tf() {
    // Tensor_String.Simple: 6 words, 24 bytes per tstring plus contents.
    let t = common::string_simple();
    assert_eq!(t.total_bytes(), 6 * 24 + 5 + 5 + 7 + 8 + 3 + 4);
    let f = Tensor::new(DataType::Float, [10, 4, 36]).unwrap();
    assert_eq!(f.slice(4, 8).unwrap().total_bytes(), 2304);
    assert_eq!(f.slice(4, 8).unwrap().allocated_bytes(), 2304);
}

#[test]
fn shares_buffer_and_ref_counts() {
    let a = Tensor::new(DataType::Float, [4]).unwrap();
    let b = Tensor::new(DataType::Float, [4]).unwrap();
    assert!(a.shares_buffer_with(&a));
    assert!(!a.shares_buffer_with(&b));
    let c = a.clone();
    assert!(a.shares_buffer_with(&c));
    assert!(!a.ref_count_is_one());
    drop(c);
    assert!(a.ref_count_is_one());
    let e = Tensor::new(DataType::Float, [0]).unwrap();
    assert!(!e.shares_buffer_with(&e));
    assert!(!e.ref_count_is_one());
}
