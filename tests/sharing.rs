//! Buffer sharing and copy-on-write, for every element type: clone, slice
//! and sub_slice at every offset, copy_from, bitcast_from, deep_copy, and
//! writes that never show through another handle. Allocation counts come
//! from the tracking global allocator.

use crate::common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::*;
use tftensor::bytes::Bytes;
use tftensor::{Allocator, DataType, Error, PodElement, Tensor};

const ROWS: i64 = 6;
const COLS: usize = 2;

/// Every slice `[start, limit)` of a `[6, 2]` tensor, and every slice of
/// each of those: exact dims, values, shared buffer, addresses.
fn slices_at_every_offset<T: Sample>() {
    let vals = samples::<T>(0, 12);
    let base = Tensor::from_slice([ROWS, COLS as i64], &vals).unwrap();
    for start in 0..=ROWS {
        for limit in start..=ROWS {
            let (s, alloc) = allocated_by(|| base.slice(start, limit).unwrap());
            // No element is copied (the address checks below prove it); the
            // only allocation is TensorShape::set_dim's temporary dims Vec.
            assert!(alloc <= 32, "slicing allocated {alloc} bytes");
            let (a, b) = (start as usize * COLS, limit as usize * COLS);
            assert_eq!(s.dtype(), T::DTYPE);
            assert_eq!(s.shape().dim_sizes(), vec![limit - start, COLS as i64]);
            assert_eq!(
                s.as_slice::<T>().unwrap(),
                &vals[a..b],
                "{} [{start}, {limit})",
                T::DTYPE
            );
            assert!(s.shares_buffer_with(&base));
            assert!(!s.ref_count_is_one() && !base.ref_count_is_one());
            assert_eq!(s.data_ptr().unwrap(), elem_ptr::<T>(&base, a));
            if (start, limit) == (0, ROWS) {
                assert_eq!(
                    s.data_ptr(),
                    base.data_ptr(),
                    "slice(0, dim0) is the same buffer"
                );
            }
            // Slices of slices alias the same root.
            let n = limit - start;
            for s2 in 0..=n {
                for l2 in s2..=n {
                    let ss = s.slice(s2, l2).unwrap();
                    let (a2, b2) = (a + s2 as usize * COLS, a + l2 as usize * COLS);
                    assert_eq!(ss.as_slice::<T>().unwrap(), &vals[a2..b2]);
                    assert!(ss.shares_buffer_with(&base));
                    assert_eq!(ss.data_ptr().unwrap(), elem_ptr::<T>(&base, a2));
                }
            }
        }
    }
    // The slice outlives its source.
    let s = base.slice(2, 5).unwrap();
    drop(base);
    assert_eq!(s.as_slice::<T>().unwrap(), &vals[4..10]);
    assert!(s.ref_count_is_one(), "the slice is the root's last holder");
}

/// TF's slice errors: a scalar, and anything but `0 <= start <= limit <= dim0`.
fn slice_errors<T: Sample>() {
    let base = sample_tensor::<T>(&[ROWS, COLS as i64]);
    for (start, limit) in [
        (-1, 2),
        (3, 2),
        (0, ROWS + 1),
        (ROWS + 1, ROWS + 1),
        (i64::MIN, i64::MAX),
    ] {
        assert_eq!(
            base.slice(start, limit).unwrap_err().to_string(),
            format!("Slice({start}, {limit}) out of range for dim 0 of size {ROWS}")
        );
    }
    let scalar = Tensor::from_slice(tftensor::TensorShape::scalar(), &[T::sample(0)]).unwrap();
    assert!(matches!(scalar.slice(0, 1), Err(Error::InvalidArgument(_))));
    assert!(matches!(
        scalar.sub_slice(0),
        Err(Error::InvalidArgument(_))
    ));
}

/// sub_slice at every index, and of those, down to scalars.
fn sub_slice_at_every_index<T: Sample>() {
    let vals = samples::<T>(0, 12);
    let base = Tensor::from_slice([ROWS, COLS as i64], &vals).unwrap();
    for i in 0..ROWS {
        let (row, alloc) = allocated_by(|| base.sub_slice(i).unwrap());
        assert!(
            alloc <= 32,
            "sub_slice allocated {alloc} bytes (shape bookkeeping only)"
        );
        let a = i as usize * COLS;
        assert_eq!(row.shape().dim_sizes(), vec![COLS as i64]);
        assert_eq!(row.as_slice::<T>().unwrap(), &vals[a..a + COLS]);
        assert!(row.shares_buffer_with(&base));
        assert_eq!(row.data_ptr().unwrap(), elem_ptr::<T>(&base, a));
        for j in 0..COLS as i64 {
            let e = row.sub_slice(j).unwrap();
            assert_eq!(e.dims(), 0, "a 1-D tensor's sub_slice is a scalar");
            assert!(e.scalar::<T>().unwrap()[()] == vals[a + j as usize]);
            assert_eq!(e.data_ptr().unwrap(), elem_ptr::<T>(&base, a + j as usize));
        }
        assert!(matches!(
            row.sub_slice(COLS as i64),
            Err(Error::OutOfRange(_))
        ));
    }
    assert_eq!(
        base.sub_slice(ROWS).unwrap_err().to_string(),
        format!("SubSlice({ROWS}) out of range for dim 0 of size {ROWS}")
    );
    assert!(matches!(base.sub_slice(-1), Err(Error::OutOfRange(_))));

    // TF's edge cases: a [0, 5] tensor's sub_slice(0) has shape [5] and no
    // buffer; with empty rows, index == dim0 is allowed.
    let z = Tensor::new(T::DTYPE, [0, 5]).unwrap();
    let s = z.sub_slice(0).unwrap();
    assert_eq!(s.shape().dim_sizes(), vec![5]);
    assert!(!s.is_initialized());
    assert!(s.data_ptr().is_none());
    assert!(matches!(z.sub_slice(1), Err(Error::OutOfRange(_))));
    let empty_rows = Tensor::new(T::DTYPE, [3, 0]).unwrap();
    for i in 0..=3 {
        let r = empty_rows.sub_slice(i).unwrap();
        assert_eq!(r.shape().dim_sizes(), vec![0]);
        assert!(r.is_initialized());
    }
    // Zero-size rows inside a real buffer.
    let zr = Tensor::new(T::DTYPE, [10, 0, 3]).unwrap();
    let s = zr.slice(4, 8).unwrap();
    assert_eq!(s.shape().dim_sizes(), vec![4, 0, 3]);
    assert_eq!(s.as_slice::<T>().unwrap().len(), 0);
}

/// Writing through a slice while the source lives: the slice copies only
/// its own region into a fresh aligned buffer; nobody else sees the write;
/// further writes happen in place.
fn copy_on_write_shared<T: Sample>() {
    let vals = samples::<T>(0, 12);
    let base = Tensor::from_slice([ROWS, COLS as i64], &vals).unwrap();
    let witness = base.slice(0, ROWS).unwrap();
    for start in 0..ROWS {
        for limit in start + 1..=ROWS {
            let (a, b) = (start as usize * COLS, limit as usize * COLS);
            let mut s = base.slice(start, limit).unwrap();
            let sibling = base.slice(start, limit).unwrap();
            let new = T::sample(500);
            let (ptr, alloc) = allocated_by(|| {
                let m = s.as_mut_slice::<T>().unwrap();
                m[0] = new;
                m.as_ptr() as *const u8
            });
            assert_ne!(ptr, elem_ptr::<T>(&base, a), "wrote into the shared buffer");
            assert_eq!(s.data_ptr().unwrap(), ptr);
            assert!(alloc > 0);
            if T::DTYPE.can_use_memcpy() {
                assert!(alloc >= b - a, "copies the region, {alloc} bytes");
                assert!(
                    alloc < (b - a) * std::mem::size_of::<T>() + 256,
                    "copies only the region"
                );
            }
            assert!(!s.shares_buffer_with(&base) && !s.shares_buffer_with(&sibling));
            assert!(s.ref_count_is_one());
            assert!(s.is_aligned(), "the private copy is 64-byte aligned");
            assert!(s.as_slice::<T>().unwrap()[0] == T::sample(500));
            assert_eq!(&s.as_slice::<T>().unwrap()[1..], &vals[a + 1..b]);
            assert_eq!(base.as_slice::<T>().unwrap(), &vals[..], "source unchanged");
            assert_eq!(
                sibling.as_slice::<T>().unwrap(),
                &vals[a..b],
                "sibling unchanged"
            );
            assert_eq!(witness.as_slice::<T>().unwrap(), &vals[..]);
            // Unique now: the next write is in place and allocates nothing.
            let second = T::sample(501);
            let (ptr2, alloc) = allocated_by(|| {
                let m = s.as_mut_slice::<T>().unwrap();
                m[b - a - 1] = second;
                m.as_ptr() as *const u8
            });
            assert_eq!((ptr2, alloc), (ptr, 0));
        }
    }

    // Writing through the source while slices live: the source copies
    // all of its region; the slices keep the old values and buffer.
    let mut src = base.deep_copy().unwrap();
    let s = src.slice(1, 3).unwrap();
    let old_ptr = src.data_ptr();
    src.flat_mut::<T>().unwrap()[2] = T::sample(502);
    assert_ne!(src.data_ptr(), old_ptr);
    assert_eq!(s.as_slice::<T>().unwrap(), &vals[2..6]);
    assert_eq!(
        s.data_ptr(),
        old_ptr.map(|p| p.wrapping_add(2 * std::mem::size_of::<T>()))
    );
    assert!(!src.shares_buffer_with(&s));
    // The slice is now the root's only holder: it writes in place.
    let mut s = s;
    let p = s.data_ptr();
    let v = T::sample(503);
    let ((), alloc) = allocated_by(|| s.flat_mut::<T>().unwrap()[0] = v);
    assert_eq!((s.data_ptr(), alloc), (p, 0));

    // Clones: same story.
    let mut c = base.clone();
    assert!(c.shares_buffer_with(&base));
    c.matrix_mut::<T>().unwrap()[[5, 1]] = T::sample(504);
    assert!(!c.shares_buffer_with(&base));
    assert_eq!(base.as_slice::<T>().unwrap(), &vals[..]);
    assert!(c.as_slice::<T>().unwrap()[11] == T::sample(504));
}

/// A uniquely owned tensor (fresh, adopted from a Vec, or a slice whose
/// source is gone) is written in place: same address, no allocation.
fn copy_on_write_unique<T: Sample>() {
    let vals = samples::<T>(0, 12);
    let fresh = Tensor::from_slice([ROWS, COLS as i64], &vals).unwrap();
    let adopted = Tensor::from_vec([ROWS, COLS as i64], vals.clone()).unwrap();
    let orphan_slice = {
        let parent = Tensor::from_slice([ROWS, COLS as i64], &vals).unwrap();
        parent.slice(1, 4).unwrap()
    };
    for (name, mut t, first) in [
        ("fresh", fresh, 0),
        ("adopted", adopted, 0),
        ("orphan slice", orphan_slice, 2),
    ] {
        assert!(t.ref_count_is_one(), "{name}");
        assert!(!t.is_shared());
        let p = t.data_ptr();
        let v = T::sample(600);
        let w = T::sample(601);
        let ((), alloc) = allocated_by(|| {
            t.as_mut_slice::<T>().unwrap()[0] = v;
            t.matrix_mut::<T>().unwrap()[[1, 1]] = w;
        });
        assert_eq!(alloc, 0, "{} {name}: copied", T::DTYPE);
        assert_eq!(t.data_ptr(), p, "{name}");
        let got = t.as_slice::<T>().unwrap();
        assert!(got[0] == T::sample(600) && got[3] == T::sample(601));
        assert_eq!(&got[1..3], &vals[first + 1..first + 3]);
    }
}

/// deep_copy: a fresh, aligned, unshared buffer with equal elements.
fn deep_copy_is_fresh<T: Sample>() {
    let vals = samples::<T>(0, 12);
    let base = Tensor::from_slice([ROWS, COLS as i64], &vals).unwrap();
    for (start, limit) in [(0, ROWS), (1, 4), (5, 6)] {
        let s = base.slice(start, limit).unwrap();
        let d = s.deep_copy().unwrap();
        assert_eq!(d, s);
        assert_eq!(d.shape(), s.shape());
        assert!(!d.shares_buffer_with(&base));
        assert!(d.ref_count_is_one());
        assert!(d.is_aligned());
        assert_ne!(d.data_ptr(), s.data_ptr());
        let mut d = d;
        let p = d.data_ptr();
        let v = T::sample(700);
        let ((), alloc) = allocated_by(|| d.flat_mut::<T>().unwrap()[0] = v);
        assert_eq!((d.data_ptr(), alloc), (p, 0), "a deep copy is unique");
        assert_eq!(base.as_slice::<T>().unwrap(), &vals[..]);
    }
    // An empty region of a real buffer: copies (and copy-on-write) of zero
    // bytes.
    let mut empty = base.slice(3, 3).unwrap();
    let d = empty.deep_copy().unwrap();
    assert_eq!(
        (d.num_elements(), d.shape().dim_sizes()),
        (0, vec![0, COLS as i64])
    );
    assert!(!d.shares_buffer_with(&base));
    assert_eq!(empty.as_mut_slice::<T>().unwrap().len(), 0);
    assert_eq!(empty.flat::<T>().unwrap().len(), 0);
    assert_eq!(base.as_slice::<T>().unwrap(), &vals[..]);
    for shape in [&[0i64][..], &[0, 3], &[3, 0]] {
        let z = Tensor::new(T::DTYPE, shape).unwrap();
        let d = z.deep_copy().unwrap();
        assert_eq!(d, z);
        assert_eq!(d.num_elements(), 0);
        assert!(d.is_initialized() && d.is_aligned());
    }
    let u = Tensor::new(T::DTYPE, [0, 5]).unwrap().sub_slice(0).unwrap();
    let d = u.deep_copy().unwrap();
    assert!(
        !d.is_initialized(),
        "an uninitialized tensor copies as such"
    );
}

/// copy_from shares `other`'s buffer and dtype under a new shape of the
/// same element count; `false` leaves `self` unchanged.
fn copy_from_shares<T: Sample>() {
    let vals = samples::<T>(0, 12);
    let base = Tensor::from_slice([ROWS, COLS as i64], &vals).unwrap();
    let mut c = Tensor::from(1u8);
    let (ok, alloc) = allocated_by(|| c.copy_from(&base, [3, 4]));
    assert!(ok);
    assert_eq!(alloc, 0);
    assert_eq!(c.dtype(), T::DTYPE);
    assert_eq!(c.shape().dim_sizes(), vec![3, 4]);
    assert!(c.shares_buffer_with(&base));
    assert_eq!(c.data_ptr(), base.data_ptr());
    assert_eq!(c.matrix::<T>().unwrap().as_slice().unwrap(), &vals[..]);
    assert!(!c.copy_from(&base, [5]));
    assert!(!c.copy_from(&base, [-12]));
    assert_eq!(c.shape().dim_sizes(), vec![3, 4], "unchanged after false");
    assert!(c.shares_buffer_with(&base));
    // From a slice: shares the slice's region.
    let mut c2 = Tensor::from_dtype(T::DTYPE);
    assert!(c2.copy_from(&base.slice(2, 4).unwrap(), [4]));
    assert_eq!(c2.as_slice::<T>().unwrap(), &vals[4..8]);
    // Writing through the copy never reaches the source.
    c2.vec_mut::<T>().unwrap()[0] = T::sample(800);
    assert_eq!(base.as_slice::<T>().unwrap(), &vals[..]);
}

/// bitcast_from: POD bytes shared as another dtype; TF's three errors for
/// the rest; the deprecated alias behaves the same.
fn bitcast<T: Sample>() {
    let base = sample_tensor::<T>(&[ROWS, COLS as i64]);
    let mut t = Tensor::default();
    if T::DTYPE.can_use_memcpy() {
        let n = 12 * T::DTYPE.size();
        t.bitcast_from(&base, DataType::UInt8, [n as i64]).unwrap();
        assert!(t.shares_buffer_with(&base));
        assert_eq!(t.data_ptr(), base.data_ptr());
        assert_eq!(t.as_slice::<u8>().unwrap(), base.tensor_data().unwrap());
        let mut back = Tensor::default();
        back.bitcast_from(&t, T::DTYPE, [ROWS, COLS as i64])
            .unwrap();
        assert_eq!(back, base);
        assert_eq!(
            t.bitcast_from(&base, DataType::UInt8, [n as i64 + 1])
                .unwrap_err(),
            Error::InvalidArgument(
                "input and output shapes/data type sizes are not compatible".into()
            )
        );
        assert_eq!(
            t.bitcast_from(&base, DataType::String, [12]).unwrap_err(),
            Error::InvalidArgument("specified output type is zero-sized".into())
        );
        assert_eq!(t.dtype(), DataType::UInt8, "unchanged on error");
        // Writes through the bitcast copy first.
        if T::DTYPE != DataType::Bool {
            t.as_mut_slice::<u8>().unwrap()[0] ^= 0x01;
            assert_eq!(
                base.tensor_data().unwrap(),
                sample_tensor::<T>(&[ROWS, COLS as i64])
                    .tensor_data()
                    .unwrap()
            );
        }
    } else {
        assert_eq!(
            t.bitcast_from(&base, DataType::UInt8, [12]).unwrap_err(),
            Error::InvalidArgument("other tensor has zero-sized data type".into())
        );
        let r = t.bitcast_from(&base, T::DTYPE, [12]);
        assert_eq!(
            r.unwrap_err(),
            Error::InvalidArgument("other tensor has zero-sized data type".into())
        );
        assert_eq!(t, Tensor::default());
    }
}

/// A clone written on another thread never changes the original.
fn across_threads<T: Sample>() {
    let vals = samples::<T>(0, 12);
    let base = Tensor::from_slice([ROWS, COLS as i64], &vals).unwrap();
    let mut c = base.slice(1, 5).unwrap();
    let handle = std::thread::spawn(move || {
        c.flat_mut::<T>().unwrap()[0] = T::sample(900);
        c
    });
    let reader = base.clone();
    let c = handle.join().unwrap();
    assert!(c.as_slice::<T>().unwrap()[0] == T::sample(900));
    assert_eq!(reader.as_slice::<T>().unwrap(), &vals[..]);
    assert_eq!(base.as_slice::<T>().unwrap(), &vals[..]);
}

macro_rules! element_tests {
    ($m:ident, $t:ty) => {
        #[allow(non_snake_case)]
        mod $m {
            #[test]
            fn slices_at_every_offset() {
                super::slices_at_every_offset::<$t>();
            }
            #[test]
            fn slice_errors() {
                super::slice_errors::<$t>();
            }
            #[test]
            fn sub_slice_at_every_index() {
                super::sub_slice_at_every_index::<$t>();
            }
            #[test]
            fn copy_on_write_shared() {
                super::copy_on_write_shared::<$t>();
            }
            #[test]
            fn copy_on_write_unique() {
                super::copy_on_write_unique::<$t>();
            }
            #[test]
            fn deep_copy_is_fresh() {
                super::deep_copy_is_fresh::<$t>();
            }
            #[test]
            fn copy_from_shares() {
                super::copy_from_shares::<$t>();
            }
            #[test]
            fn bitcast() {
                super::bitcast::<$t>();
            }
            #[test]
            fn across_threads() {
                super::across_threads::<$t>();
            }
        }
    };
}
for_each_element!(element_tests);

/// Every POD type at every byte offset of an external (adopted) buffer:
/// zero-copy when element-aligned, one aligned copy otherwise; writes
/// always copy first because the bytes are not ours.
fn external_buffers<T: Sample + PodElement>() {
    let vals = samples::<T>(0, 4);
    let raw = Tensor::from_slice([4], &vals)
        .unwrap()
        .tensor_data()
        .unwrap()
        .to_vec();
    // A 64-aligned host buffer, with the content placed at every offset.
    let host = Tensor::new(DataType::UInt8, [raw.len() as i64 + 64]).unwrap();
    for off in 0..64usize {
        let mut bytes = host.tensor_data().unwrap().to_vec();
        bytes[off..off + raw.len()].copy_from_slice(&raw);
        let all = Bytes::from(bytes);
        let region = all.slice(off..off + raw.len());
        let region_ptr = region.as_ptr();
        let mut t = Tensor::from_buffer(T::DTYPE, [4], region).unwrap();
        let aligned_for_t = region_ptr as usize % std::mem::align_of::<T>() == 0;
        assert_eq!(
            t.data_ptr().unwrap() == region_ptr,
            aligned_for_t,
            "{} offset {off}",
            T::DTYPE
        );
        assert_eq!(t.as_slice::<T>().unwrap(), &vals[..]);
        assert_eq!(t.is_aligned(), t.data_ptr().unwrap() as usize % 64 == 0);
        if aligned_for_t {
            assert!(!t.ref_count_is_one(), "adopted bytes are not owned");
        }
        let before = t.data_ptr();
        t.flat_mut::<T>().unwrap()[3] = T::sample(1000);
        if aligned_for_t {
            assert_ne!(t.data_ptr(), before, "adopted bytes are never written");
        }
        assert!(t.ref_count_is_one());
        assert_eq!(
            &all[off..off + raw.len()],
            &raw[..],
            "the external bytes are unchanged"
        );
        assert!(t.as_slice::<T>().unwrap()[3] == T::sample(1000));
        assert_eq!(&t.as_slice::<T>().unwrap()[..3], &vals[..3]);
    }
}

macro_rules! pod_tests {
    ($m:ident, $t:ty) => {
        #[allow(non_snake_case)]
        mod $m {
            #[test]
            fn external_buffers() {
                super::super::external_buffers::<$t>();
            }
        }
    };
}
mod pod {
    for_each_pod!(pod_tests);
}

/// An allocator that serves `budget` allocations, then fails: the
/// copy-on-write allocation fails cleanly.
#[derive(Debug)]
struct Budget(AtomicUsize);

// SAFETY: forwards to `System`, which returns valid aligned memory or null.
unsafe impl Allocator for Budget {
    fn name(&self) -> &str {
        "budget"
    }
    fn allocate(&self, layout: Layout) -> Option<NonNull<u8>> {
        if self.0.fetch_sub(1, Ordering::Relaxed) == 0 {
            self.0.store(0, Ordering::Relaxed);
            return None;
        }
        // SAFETY: the layout has a non-zero size (tftensor never asks for 0).
        NonNull::new(unsafe { System.alloc(layout) })
    }
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc(layout)` above.
        unsafe { System.dealloc(ptr.as_ptr(), layout) }
    }
}

#[test]
fn failed_copy_on_write_leaves_everything_unchanged() {
    let a = Arc::new(Budget(AtomicUsize::new(1)));
    let mut t = Tensor::with_allocator(&a, DataType::Float, [4]).unwrap();
    t.flat_mut::<f32>().unwrap().fill(2.0);
    let reader = t.clone();
    assert_eq!(
        t.flat_mut::<f32>().unwrap_err(),
        Error::AllocationFailed { bytes: 16 }
    );
    assert!(t.shares_buffer_with(&reader));
    assert_eq!(t.as_slice::<f32>().unwrap(), &[2.0; 4]);
    drop(reader);
    // Unique again: no allocation needed.
    t.flat_mut::<f32>().unwrap()[0] = 3.0;
    assert_eq!(t.as_slice::<f32>().unwrap(), &[3.0, 2.0, 2.0, 2.0]);
}

#[test]
fn cow_copies_with_the_source_allocator() {
    let a = Arc::new(tftensor::TrackingAllocator::new());
    let t = Tensor::with_allocator(&a, DataType::Int32, [10]).unwrap();
    assert_eq!(a.live_bytes(), 40);
    let mut s = t.slice(2, 5).unwrap();
    s.flat_mut::<i32>().unwrap()[0] = 1;
    assert_eq!(
        a.live_bytes(),
        52,
        "the 12-byte region was copied with the same allocator"
    );
    assert_eq!(
        s.allocation_description().unwrap().allocator_name,
        "tracking"
    );
    drop(t);
    assert_eq!(a.live_bytes(), 12);
    drop(s);
    assert_eq!(a.live_bytes(), 0);
    // deep_copy uses the default allocator (fresh, aligned).
    let t = Tensor::with_allocator(&a, DataType::Int32, [10]).unwrap();
    let d = t.deep_copy().unwrap();
    assert_eq!(a.live_bytes(), 40);
    assert_eq!(d.allocation_description().unwrap().allocator_name, "cpu");
}

#[test]
fn shares_buffer_with_and_ref_counts() {
    let a = Tensor::new(DataType::Float, [4]).unwrap();
    assert!(a.shares_buffer_with(&a));
    assert!(a.ref_count_is_one());
    let b = a.clone();
    assert!(!a.ref_count_is_one() && !b.ref_count_is_one());
    assert!(a.is_shared());
    let s = a.slice(1, 3).unwrap();
    drop(b);
    assert!(
        !s.ref_count_is_one(),
        "a slice is not 'one' while its source lives"
    );
    drop(a);
    assert!(s.ref_count_is_one());
    let d = Tensor::default();
    assert!(
        !d.shares_buffer_with(&d),
        "no buffer: never shares, not even with itself"
    );
    assert!(!d.ref_count_is_one());
    let desc = s.allocation_description().unwrap();
    assert_eq!(desc.requested_bytes, 16, "a slice reports its root");
    assert!(desc.has_single_reference);
}

#[test]
fn bitcast_from_keeps_the_buffer_and_offsets() {
    // TF's Tensor_Float.Bitcast_From, plus the offset of a slice.
    let d = Tensor::from_vec([2, 2], vec![1.0f64, 2.0, 3.0, 4.0]).unwrap();
    let mut t = Tensor::new(DataType::Float, [2, 4]).unwrap();
    t.bitcast_from(&d, d.dtype(), d.shape().clone()).unwrap();
    assert_eq!(t.dtype(), DataType::Double);
    assert_eq!(t, d);
    let row = d.sub_slice(1).unwrap();
    t.bitcast_from(&row, DataType::UInt32, [4]).unwrap();
    assert_eq!(t.data_ptr(), row.data_ptr());
    let (b3, b4) = (3.0f64.to_bits(), 4.0f64.to_bits());
    let want = [b3 as u32, (b3 >> 32) as u32, b4 as u32, (b4 >> 32) as u32];
    assert_eq!(t.as_slice::<u32>().unwrap(), &want);
    // Zero elements of a sized type bitcast fine.
    let z = Tensor::new(DataType::Int16, [0, 7]).unwrap();
    t.bitcast_from(&z, DataType::Complex128, [0]).unwrap();
    assert_eq!(t.num_elements(), 0);
    assert_eq!(
        t.flat::<tftensor::num_complex::Complex<f64>>()
            .unwrap()
            .len(),
        0
    );
}

#[test]
fn strings_are_bytes_not_utf8() {
    let bad = Bytes::from_static(&[0xff, 0xfe, 0x00]);
    let mut t = Tensor::from_vec([2], vec![bad.clone(), Bytes::from("ok")]).unwrap();
    let s = t.slice(0, 1).unwrap();
    t.vec_mut::<Bytes>().unwrap()[0] = Bytes::from("new");
    assert_eq!(s.vec::<Bytes>().unwrap()[0], bad);
    assert_eq!(t.vec::<Bytes>().unwrap()[0], "new");
    assert_eq!(t.total_bytes(), 2 * 24 + 5);
}

#[test]
fn views_never_see_later_writes_through_other_handles() {
    // A view borrows its tensor; other handles can only write after
    // copying, so the view's data stays as it was.
    let t = Tensor::from_vec([3], vec![1i64, 2, 3]).unwrap();
    let view = t.vec::<i64>().unwrap();
    let mut other = t.clone();
    other.vec_mut::<i64>().unwrap()[0] = 100;
    assert_eq!(view.to_vec(), vec![1, 2, 3]);
    assert_eq!(other.as_slice::<i64>().unwrap(), &[100, 2, 3]);
    let mut bytes = Tensor::default();
    bytes.bitcast_from(&t, DataType::UInt8, [24]).unwrap();
    bytes.flat_mut::<u8>().unwrap()[0] = 9;
    assert_eq!(view[0], 1);
    assert_eq!(t.as_slice::<i64>().unwrap(), &[1, 2, 3]);
}

#[test]
fn bitcast_shapes_and_checks() {
    let base = Tensor::from_vec([4], vec![1u16, 2, 3, 4]).unwrap();
    let mut t = Tensor::default();
    t.bitcast_from(&base, DataType::Int8, [2, 4]).unwrap();
    assert_eq!(t.matrix::<i8>().unwrap()[[1, 0]], 3);
    t.bitcast_from(&base, DataType::Half, [4]).unwrap();
    assert_eq!(t.vec::<tftensor::half::f16>().unwrap()[0].to_bits(), 1);
    assert!(
        t.bitcast_from(&base, DataType::Float.as_ref_type(), [2])
            .is_err()
    );
    assert!(t.bitcast_from(&base, DataType::Invalid, [2]).is_err());
    assert!(
        t.bitcast_from(&base, DataType::Float, [1i64 << 62])
            .is_err()
    );
    assert_eq!(t.dtype(), DataType::Half);
}

/// Copy-on-write on random tensors of every dtype (strategies in
/// `tests/common/arb.rs`).
mod props {
    use proptest::prelude::*;

    use crate::arb::*;

    proptest! {
        #![proptest_config(config())]

        /// Copy-on-write through a slice never changes the tensor it came from.
        #[test]
        fn writes_through_a_slice_copy(t in ranked_tensor(), seed in any::<u8>()) {
            let before = t.deep_copy().unwrap();
            let d0 = t.dim_size(0).unwrap();
            if d0 == 0 || t.num_elements() == 0 {
                return Ok(());
            }
            let mut s = t.slice(d0 / 2, d0).unwrap();
            let filler = t.sub_slice(0).unwrap();
            with_type!(t.dtype(), T => overwrite::<T>(&mut s, &filler, seed));
            prop_assert!(!s.shares_buffer_with(&t));
            prop_assert_eq!(&t, &before);
        }
    }
}
