//! Memory: the [`Allocator`] trait, the default 64-byte-aligned
//! [`CpuAllocator`], the counting [`TrackingAllocator`], and the refcounted
//! buffers tensors share.
//!
//! This is the only module that touches raw memory: the allocators here,
//! and in [`root`] the shared root buffer and the one path from its memory
//! to typed slices and views.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt;
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::error::{Error, OverflowError, Result};

pub(crate) mod read_jobs;
pub(crate) mod read_policy;
pub(crate) mod read_pool;
mod root;
mod shared;

pub(crate) use root::{Exclusive, Readable, RegionError, Root, as_bytes};
pub use root::{Repr, Stored};

/// The alignment every [`CpuAllocator`] allocation has: TF's
/// `Allocator::kAllocatorAlignment` (and `EIGEN_MAX_ALIGN_BYTES` on AVX-512).
///
/// ```
/// assert_eq!(tftensor::ALIGNMENT, 64);
/// ```
pub const ALIGNMENT: usize = 64;

/// A source of raw memory for tensor buffers, like TF's `Allocator`.
///
/// # Safety
///
/// An implementation must return, from [`Allocator::allocate`], either
/// `None` or a pointer to `layout.size()` bytes, aligned to
/// `layout.align()`, that stay valid and unused by anyone else until
/// [`Allocator::deallocate`] is called with the same pointer and layout.
/// tftensor builds slices over that memory, so a broken allocator would be
/// undefined behaviour; hence the trait is `unsafe` to implement.
///
/// ```
/// use std::alloc::Layout;
/// use tftensor::{Allocator, CpuAllocator};
/// let a = CpuAllocator;
/// let layout = Layout::from_size_align(256, 64).unwrap();
/// let p = a.allocate(layout).unwrap();
/// assert_eq!(p.as_ptr() as usize % 64, 0);
/// // SAFETY: `p` came from `a.allocate(layout)` and is freed once.
/// unsafe { a.deallocate(p, layout) };
/// ```
pub unsafe trait Allocator: Send + Sync + fmt::Debug {
    /// The name reported in an [`AllocationDescription`].
    fn name(&self) -> &str;

    /// Allocates memory for `layout` (not necessarily zeroed), or `None`.
    fn allocate(&self, layout: Layout) -> Option<NonNull<u8>>;

    /// Frees memory from [`Allocator::allocate`].
    ///
    /// # Safety
    ///
    /// `ptr` must come from `self.allocate(layout)` with this same `layout`,
    /// and must not be used afterwards.
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout);

    /// Whether the allocator knows the sizes of its allocations (TF's
    /// `TracksAllocationSizes`); then descriptions carry allocated bytes and
    /// an allocation id.
    fn tracks_allocation_sizes(&self) -> bool {
        false
    }
}

/// The default allocator: the global allocator with 64-byte alignment.
///
/// ```
/// use tftensor::{CpuAllocator, Allocator};
/// assert_eq!(CpuAllocator.name(), "cpu");
/// ```
#[derive(Debug, Default, Clone, Copy)]
pub struct CpuAllocator;

// SAFETY: forwards to the global allocator, which upholds the contract.
unsafe impl Allocator for CpuAllocator {
    fn name(&self) -> &str {
        "cpu"
    }

    fn allocate(&self, layout: Layout) -> Option<NonNull<u8>> {
        if layout.size() == 0 {
            return None;
        }
        // SAFETY: the layout has a non-zero size (checked above).
        NonNull::new(unsafe { std::alloc::alloc(layout) })
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller guarantees `ptr` came from `allocate(layout)`,
        // i.e. from the global allocator with this layout.
        unsafe { std::alloc::dealloc(ptr.as_ptr(), layout) }
    }
}

thread_local! {
    // Bytes allocated by this thread through any TrackingAllocator; `const`
    // so reading it never allocates (it is used inside `GlobalAlloc`).
    static THREAD_ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

/// An allocator that counts what it hands out, for tests and accounting.
///
/// It forwards to the system allocator and keeps live, peak and total byte
/// counts. It implements both [`Allocator`] (pass it to
/// [`Tensor::with_allocator`](crate::Tensor::with_allocator)) and
/// [`GlobalAlloc`], so a test binary can install it as its global allocator
/// and see every allocation a call makes:
///
/// ```
/// use std::sync::Arc;
/// use tftensor::{DataType, Tensor, TrackingAllocator};
/// let alloc = Arc::new(TrackingAllocator::new());
/// let t = Tensor::with_allocator(&alloc, DataType::Float, &[10i64, 20][..]).unwrap();
/// assert_eq!(alloc.live_bytes(), 800);
/// assert_eq!(t.allocated_bytes(), 800);
/// drop(t);
/// assert_eq!(alloc.live_bytes(), 0);
/// assert_eq!(alloc.peak_bytes(), 800);
/// ```
///
/// As a global allocator (in a test binary):
///
/// ```no_run
/// use tftensor::TrackingAllocator;
/// #[global_allocator]
/// static GLOBAL: TrackingAllocator = TrackingAllocator::new();
/// let before = TrackingAllocator::thread_allocated_bytes();
/// let v = vec![0u8; 100];
/// assert!(TrackingAllocator::thread_allocated_bytes() - before >= 100);
/// # drop(v);
/// ```
#[derive(Debug, Default)]
pub struct TrackingAllocator {
    live: AtomicUsize,
    peak: AtomicUsize,
    total: AtomicUsize,
    count: AtomicUsize,
}

impl TrackingAllocator {
    /// A tracking allocator with all counts at zero.
    ///
    /// ```
    /// let a = tftensor::TrackingAllocator::new();
    /// assert_eq!(a.live_bytes(), 0);
    /// ```
    pub const fn new() -> Self {
        TrackingAllocator {
            live: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            total: AtomicUsize::new(0),
            count: AtomicUsize::new(0),
        }
    }

    /// Bytes currently allocated through this allocator.
    ///
    /// ```
    /// assert_eq!(tftensor::TrackingAllocator::new().live_bytes(), 0);
    /// ```
    pub fn live_bytes(&self) -> usize {
        self.live.load(Ordering::Relaxed)
    }

    /// The most bytes that were live at once.
    ///
    /// ```
    /// assert_eq!(tftensor::TrackingAllocator::new().peak_bytes(), 0);
    /// ```
    pub fn peak_bytes(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// All bytes ever allocated through this allocator.
    ///
    /// ```
    /// assert_eq!(tftensor::TrackingAllocator::new().total_bytes(), 0);
    /// ```
    pub fn total_bytes(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }

    /// How many allocations were made through this allocator.
    ///
    /// ```
    /// assert_eq!(tftensor::TrackingAllocator::new().allocation_count(), 0);
    /// ```
    pub fn allocation_count(&self) -> usize {
        self.count.load(Ordering::Relaxed)
    }

    /// Resets the peak to the current live count, to measure one step.
    ///
    /// ```
    /// let a = tftensor::TrackingAllocator::new();
    /// a.reset_peak();
    /// assert_eq!(a.peak_bytes(), 0);
    /// ```
    pub fn reset_peak(&self) {
        self.peak.store(self.live_bytes(), Ordering::Relaxed);
    }

    /// Bytes allocated so far by the calling thread through any
    /// `TrackingAllocator` (monotonic). Take the difference around a call to
    /// see what that call allocated without noise from other threads.
    ///
    /// ```
    /// let n = tftensor::TrackingAllocator::thread_allocated_bytes();
    /// assert!(tftensor::TrackingAllocator::thread_allocated_bytes() >= n);
    /// ```
    pub fn thread_allocated_bytes() -> usize {
        THREAD_ALLOCATED.with(|c| c.get())
    }

    fn record_alloc(&self, size: usize) {
        let live = self.live.fetch_add(size, Ordering::Relaxed) + size;
        self.peak.fetch_max(live, Ordering::Relaxed);
        self.total.fetch_add(size, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
        // `try_with`: the slot may be gone while a thread shuts down.
        let _ = THREAD_ALLOCATED.try_with(|c| c.set(c.get().wrapping_add(size)));
    }

    fn record_dealloc(&self, size: usize) {
        self.live.fetch_sub(size, Ordering::Relaxed);
    }
}

// SAFETY: forwards to `System`, which upholds the GlobalAlloc contract; the
// counters do not allocate.
unsafe impl GlobalAlloc for TrackingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            self.record_alloc(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            self.record_alloc(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.record_dealloc(layout.size());
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            self.record_dealloc(layout.size());
            self.record_alloc(new_size);
        }
        p
    }
}

// SAFETY: forwards to `System` (through GlobalAlloc above), which returns
// valid, aligned, exclusive memory or null.
unsafe impl Allocator for TrackingAllocator {
    fn name(&self) -> &str {
        "tracking"
    }

    fn allocate(&self, layout: Layout) -> Option<NonNull<u8>> {
        if layout.size() == 0 {
            return None;
        }
        // SAFETY: non-zero size, checked above.
        NonNull::new(unsafe { GlobalAlloc::alloc(self, layout) })
    }

    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller guarantees ptr/layout came from `allocate`.
        unsafe { GlobalAlloc::dealloc(self, ptr.as_ptr(), layout) }
    }

    fn tracks_allocation_sizes(&self) -> bool {
        true
    }
}

/// What TF's `AllocationDescription` proto records about a buffer, filled by
/// [`Tensor::allocation_description`](crate::Tensor::allocation_description).
///
/// ```
/// use tftensor::{DataType, Tensor};
/// let t = Tensor::new(DataType::Float, &[4i64][..]).unwrap();
/// let d = t.allocation_description().unwrap();
/// assert_eq!(d.requested_bytes, 16);
/// assert_eq!(d.allocator_name, "cpu");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AllocationDescription {
    /// Bytes the buffer asked for.
    pub requested_bytes: i64,
    /// Bytes actually allocated, when the allocator tracks sizes (else 0).
    pub allocated_bytes: i64,
    /// The allocator's name.
    pub allocator_name: String,
    /// A process-unique allocation id, when the allocator tracks sizes (else 0).
    pub allocation_id: i64,
    /// Whether exactly one handle refers to the buffer.
    pub has_single_reference: bool,
    /// The buffer's address.
    pub ptr: u64,
}

/// An empty `Vec` with room for exactly `n` elements, or
/// [`Error::AllocationFailed`] instead of an abort when the memory cannot be
/// had. The one place the crate reserves element storage.
pub(crate) fn try_vec<T>(n: usize) -> Result<Vec<T>> {
    let bytes = n
        .checked_mul(std::mem::size_of::<T>())
        .ok_or(Error::Overflow(OverflowError::Size {
            what: "allocation size",
        }))?;
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| Error::AllocationFailed { bytes })?;
    Ok(v)
}

/// The default allocator as a shareable handle.
pub(crate) fn default_allocator() -> Arc<dyn Allocator> {
    static CPU: std::sync::OnceLock<Arc<dyn Allocator>> = std::sync::OnceLock::new();
    Arc::clone(CPU.get_or_init(|| Arc::new(CpuAllocator)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_is_aligned_zeroed_and_tracked() {
        let tracking = Arc::new(TrackingAllocator::new());
        let a: Arc<dyn Allocator> = tracking.clone();
        for len in [1usize, 3, 64, 65, 1000] {
            let b = Root::zeroed(&a, len).unwrap();
            let bytes = b.bytes().unwrap();
            assert_eq!(bytes.len(), len);
            assert!(bytes.iter().all(|&x| x == 0));
            assert_eq!(bytes.as_ptr() as usize % ALIGNMENT, 0);
            assert_eq!(tracking.live_bytes(), len);
            drop(b);
            assert_eq!(tracking.live_bytes(), 0);
        }
        let src: Vec<u8> = (0..=255).collect();
        let b = Root::copy_of(&a, &src).unwrap();
        assert_eq!(b.bytes().unwrap(), &src[..]);
        assert!(b.allocated_bytes_if_tracked().unwrap().1 > 0);
    }

    /// A layout past `isize::MAX` is an error, not an abort. (An allocator
    /// that returns `None` is covered by `tests/tensor/construct.rs`.)
    #[test]
    fn impossible_layout_is_an_error() {
        let huge = Root::zeroed(&default_allocator(), usize::MAX - 10);
        assert!(matches!(huge, Err(Error::AllocationFailed { .. })));
    }

    /// An element root counts bytes like a byte root: a typed view must
    /// start on an element boundary, and a copy takes whole elements.
    #[test]
    fn element_roots_count_bytes_and_stay_on_element_boundaries() {
        let words: Vec<bytes::Bytes> = ["a", "b", "c"]
            .into_iter()
            .map(bytes::Bytes::from)
            .collect();
        let root = Root::from_vec(&default_allocator(), words).unwrap();
        let size = std::mem::size_of::<bytes::Bytes>();
        assert_eq!(root.len(), 3 * size);
        assert_eq!(
            root.slice::<bytes::Bytes>(size..3 * size, 2).unwrap()[1],
            "c"
        );
        assert!(matches!(
            root.slice::<bytes::Bytes>(8..3 * size, 1),
            Err(RegionError::Misaligned { .. })
        ));
        assert!(matches!(
            root.slice::<bytes::Bytes>(size..3 * size, 3),
            Err(RegionError::Bounds)
        ));
        let copy = root
            .copy_range(size..2 * size, &default_allocator())
            .unwrap();
        assert_eq!(copy.len(), size);
        assert!(root.copy_range(1..size, &default_allocator()).is_err());
    }
}
