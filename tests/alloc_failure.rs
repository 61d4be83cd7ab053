//! Conversions when memory runs out: a conversion that can fail is a
//! `TryFrom` returning `Error::AllocationFailed`, never an abort or a
//! plausible wrong tensor; one that cannot fail needs no fallible
//! allocation. The global allocator here refuses 64-byte-aligned requests
//! (the tensor buffers) on a thread that asks it to.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tftensor::{Error, Tensor, TypedTensor};

struct RefuseAligned;

thread_local! {
    // `const`, so reading it never allocates (it runs inside `alloc`).
    static REFUSE: Cell<bool> = const { Cell::new(false) };
}

// SAFETY: forwards to `System`, or returns null (a valid refusal).
unsafe impl GlobalAlloc for RefuseAligned {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() >= 64 && REFUSE.with(Cell::get) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc(layout)` above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: RefuseAligned = RefuseAligned;

/// Runs `f` while this thread's 64-byte-aligned allocations are refused.
fn refusing<R>(f: impl FnOnce() -> R) -> R {
    REFUSE.with(|r| r.set(true));
    let out = f();
    REFUSE.with(|r| r.set(false));
    out
}

#[test]
fn the_refusal_is_real() {
    let r = refusing(|| Tensor::new(tftensor::DataType::Float, [4]));
    assert!(matches!(r, Err(Error::AllocationFailed { .. })), "{r:?}");
}

#[test]
fn scalar_from_never_falls_back_to_an_uninitialized_tensor() {
    // A bool scalar used to need an aligned copy; when it failed, `From`
    // returned an uninitialized tensor.
    let t = refusing(|| Tensor::from(true));
    assert!(t.is_initialized());
    assert!(t.scalar::<bool>().unwrap()[()]);
    let f = refusing(|| Tensor::from(2.5f32));
    assert_eq!(f.scalar::<f32>().unwrap()[()], 2.5);
    let s = refusing(|| Tensor::from("x"));
    assert_eq!(s.scalar::<bytes::Bytes>().unwrap()[()], "x");
}

#[test]
fn typed_try_from_vec_reports_a_failed_bool_copy() {
    // `From<Vec<bool>>` aborted the process here.
    let r = refusing(|| TypedTensor::try_from(vec![true, false]));
    assert!(matches!(r, Err(Error::AllocationFailed { .. })), "{r:?}");
    // Other element types adopt the `Vec`: nothing aligned to allocate.
    let t = refusing(|| TypedTensor::try_from(vec![1u8, 2, 3])).unwrap();
    assert_eq!(t.as_slice(), &[1, 2, 3]);
    let b = TypedTensor::try_from(vec![true, false]).unwrap();
    assert_eq!(b.as_slice(), &[true, false]);
}
