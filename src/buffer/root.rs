//! The root buffer tensors share, and the crate's one door from its memory
//! to slices and `ndarray` views.
//!
//! Every `unsafe` block that reads or writes tensor elements is in this
//! file. The invariants they rely on are established here, once:
//!
//! * a [`Root`] keeps `ptr` valid for `len` bytes until it is dropped, and
//!   never moves the memory; every offset and range into it counts bytes,
//!   for a byte root and an element root alike;
//! * an element root holds a `Vec<T>` whose `TypeId` its owner reports; a byte
//!   root holds initialized bytes, which are only ever seen as types for
//!   which every bit pattern is valid ([`Repr::Pod`]), or as `bool` after
//!   checking every byte is 0 or 1;
//! * a write needs an [`Exclusive`], which only exists while one `&mut`
//!   handle holds the only reference to a writable root, and which covers
//!   a range no other `Exclusive` covers; reads through an `Exclusive`
//!   stay inside its range.

use std::alloc::Layout;
use std::any::{Any, TypeId};
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::ops::Range;
use std::panic::{RefUnwindSafe, UnwindSafe};
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering, fence};

use bytes::Bytes;
use ndarray::{ArrayView, ArrayViewMut, Dimension};

use super::{ALIGNMENT, Allocator};
use crate::error::{Error, RangeError, Result};

/// How elements of a type are stored, which decides how a root may be seen
/// as them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Repr {
    /// Plain bytes, any bit pattern valid (`bytemuck::Pod`).
    Pod,
    /// One byte that must be 0 or 1.
    Bool,
    /// A Rust value with drop glue (strings, handles, variants), kept in a
    /// `Vec` of its own.
    Typed,
}

/// A type the buffer can hold.
///
/// # Safety
/// `REPR == Repr::Pod` only for types that are `bytemuck::Pod` (no padding,
/// every bit pattern valid), `Repr::Bool` only for `bool`.
pub unsafe trait Stored: Clone + Send + Sync + UnwindSafe + RefUnwindSafe + 'static {
    /// How elements of this type are stored.
    const REPR: Repr;
}

/// Why a region cannot be seen as the requested type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RegionError {
    /// The root holds another representation (bytes vs. typed elements,
    /// or another element type).
    Kind,
    /// The region does not fit the root.
    Bounds,
    /// The address is not a multiple of the type's alignment.
    Misaligned {
        /// The address.
        address: usize,
        /// The alignment needed.
        align: usize,
    },
    /// A bool byte other than 0 or 1.
    InvalidBool,
    /// The root is shared or read-only (a write needs copy-on-write first).
    NotUnique,
}

static NEXT_ALLOCATION_ID: AtomicI64 = AtomicI64::new(1);

/// A type-erased `Vec<T>` that a root owns.
trait ErasedVec: Send + Sync + UnwindSafe + RefUnwindSafe {
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
    fn is_vec_of(&self, id: TypeId) -> bool;
    /// A copy of the elements in the byte range `range` as a new root
    /// (element roots' copy-on-write); `None` unless the range lies inside
    /// the `Vec` on element boundaries.
    fn clone_range(&self, range: Range<usize>) -> Option<Root>;
}

impl<T: Clone + Send + Sync + UnwindSafe + RefUnwindSafe + 'static> ErasedVec for Vec<T> {
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
    fn is_vec_of(&self, id: TypeId) -> bool {
        TypeId::of::<T>() == id
    }
    fn clone_range(&self, range: Range<usize>) -> Option<Root> {
        // Element types are never zero-sized (strings, handles, variants).
        let size = std::mem::size_of::<T>().max(1);
        if range.start % size != 0 || range.end % size != 0 {
            return None;
        }
        let v = self.get(range.start / size..range.end / size)?.to_vec();
        Some(Root::from_elements(v))
    }
}

/// Memory from an [`Allocator`], freed on drop.
struct Allocation {
    /// The layout's size; its alignment is [`ALIGNMENT`].
    size: usize,
    allocator: Arc<dyn Allocator>,
    id: i64,
}

impl Drop for Root {
    fn drop(&mut self) {
        if let Owner::Allocated(a) = &self.owner {
            if let Ok(layout) = Layout::from_size_align(a.size, ALIGNMENT) {
                // SAFETY: `ptr` came from `allocator.allocate(layout)` with
                // this very layout (`allocate_with`), and is freed exactly
                // once, here.
                unsafe { a.allocator.deallocate(self.ptr, layout) }
            }
        }
    }
}

/// Who owns (and frees) the memory of a root.
enum Owner {
    /// From an [`Allocator`]; freed through it.
    Allocated(Allocation),
    /// Adopted read-only bytes (a decoded message, an mmap).
    External(Bytes),
    /// An adopted `Vec`: POD elements seen as bytes, or typed elements.
    Vec(Box<dyn ErasedVec>),
}

/// A refcounted tensor buffer: a pointer, a length, an owner, and what the
/// memory holds.
pub(crate) struct Root {
    ptr: NonNull<u8>,
    /// Bytes, for a byte root and an element root alike.
    len: usize,
    /// Whether it holds typed elements (a `Vec<T>` of the `Repr::Typed`
    /// type whose `TypeId` the owner reports), not bytes.
    typed: bool,
    writable: bool,
    owner: Owner,
}

// SAFETY: the owner is Send + Sync (bytes, `Arc<dyn Allocator>` with
// `Allocator: Send + Sync`, or a `Vec` of Send + Sync elements); `ptr` is
// only written through an `Exclusive`, which needs unique ownership.
unsafe impl Send for Root {}
// SAFETY: as above; `&Root` only reads.
unsafe impl Sync for Root {}
// A panic cannot leave a root half-updated: it is never mutated in place,
// only its elements are written, as a `Vec`'s would be.
impl UnwindSafe for Root {}
impl RefUnwindSafe for Root {}

impl Root {
    /// Allocates `len > 0` bytes and lets `init` fill them.
    ///
    /// # Safety
    /// `init` must initialize every byte of the slice it is given.
    unsafe fn allocate_with(
        allocator: &Arc<dyn Allocator>,
        len: usize,
        init: impl FnOnce(&mut [MaybeUninit<u8>]),
    ) -> Result<Root> {
        let layout = Layout::from_size_align(len.max(1), ALIGNMENT)
            .map_err(|_| Error::AllocationFailed { bytes: len })?;
        let ptr = allocator
            .allocate(layout)
            .ok_or(Error::AllocationFailed { bytes: len })?;
        // SAFETY: the Allocator contract gives `layout.size() >= len`
        // bytes at `ptr`, exclusively ours; MaybeUninit needs no init.
        let uninit = unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr().cast(), len) };
        init(uninit);
        let id = if allocator.tracks_allocation_sizes() {
            NEXT_ALLOCATION_ID.fetch_add(1, Ordering::Relaxed)
        } else {
            0
        };
        Ok(Root {
            ptr,
            len,
            typed: false,
            writable: true,
            owner: Owner::Allocated(Allocation {
                size: layout.size(),
                allocator: Arc::clone(allocator),
                id,
            }),
        })
    }

    /// `len` zero bytes from `allocator`.
    pub(crate) fn zeroed(allocator: &Arc<dyn Allocator>, len: usize) -> Result<Root> {
        // `write_bytes` is one memset, at every opt-level (a `fill` loop
        // takes seconds per GiB in a debug build).
        let zero = |b: &mut [MaybeUninit<u8>]| {
            // SAFETY: `b` is `b.len()` writable bytes.
            unsafe { std::ptr::write_bytes(b.as_mut_ptr(), 0, b.len()) }
        };
        // SAFETY: `zero` writes every byte.
        unsafe { Self::allocate_with(allocator, len, zero) }
    }

    /// A copy of `src` from `allocator` (one memcpy, no zeroing first).
    pub(crate) fn copy_of(allocator: &Arc<dyn Allocator>, src: &[u8]) -> Result<Root> {
        let copy = |b: &mut [MaybeUninit<u8>]| {
            debug_assert_eq!(b.len(), src.len());
            // SAFETY: `b` has `src.len()` bytes, freshly allocated, so it
            // cannot overlap `src`.
            unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), b.as_mut_ptr().cast(), src.len()) }
        };
        // SAFETY: `copy` writes all `src.len()` bytes.
        unsafe { Self::allocate_with(allocator, src.len(), copy) }
    }

    /// Adopts read-only bytes without a copy.
    pub(crate) fn external(bytes: Bytes) -> Root {
        Root {
            // `Bytes` never hands out a null pointer, but be exact.
            ptr: NonNull::new(bytes.as_ptr().cast_mut()).unwrap_or(NonNull::dangling()),
            len: bytes.len(),
            typed: false,
            writable: false,
            owner: Owner::External(bytes),
        }
    }

    /// Adopts `values` without a copy: POD elements become a byte root,
    /// typed ones an element root. `bool` is copied into bytes (an adopted
    /// `Vec<bool>` could be handed back holding a byte other than 0 or 1).
    pub(crate) fn from_vec<T: Stored>(
        allocator: &Arc<dyn Allocator>,
        values: Vec<T>,
    ) -> Result<Root> {
        match T::REPR {
            Repr::Typed => Ok(Root::from_elements(values)),
            Repr::Bool => Root::copy_of(allocator, as_bytes(&values)),
            Repr::Pod => Ok(Root::adopt_pod(values)),
        }
    }

    /// A POD `Vec` adopted as a byte root, without a copy.
    fn adopt_pod<T: Stored>(mut values: Vec<T>) -> Root {
        let len = std::mem::size_of_val(values.as_slice());
        let ptr = NonNull::new(values.as_mut_ptr().cast::<u8>()).unwrap_or(NonNull::dangling());
        Root {
            ptr,
            len,
            typed: false,
            writable: true,
            owner: Owner::Vec(Box::new(values)),
        }
    }

    /// A root of the one element `value`, with no fallible allocation: a
    /// one-element `Vec` is adopted (for `bool`, a `Vec<u8>` of its byte,
    /// so no `Vec<bool>` ever sees a written byte).
    pub(crate) fn scalar<T: Stored>(value: T) -> Root {
        match T::REPR {
            Repr::Typed => Root::from_elements(vec![value]),
            Repr::Bool => Root::adopt_pod(as_bytes(std::slice::from_ref(&value)).to_vec()),
            Repr::Pod => Root::adopt_pod(vec![value]),
        }
    }

    /// A copy of `values` in a fresh aligned buffer (POD and bool), or an
    /// element root holding clones.
    pub(crate) fn from_slice<T: Stored>(
        allocator: &Arc<dyn Allocator>,
        values: &[T],
    ) -> Result<Root> {
        match T::REPR {
            Repr::Typed => Ok(Root::from_elements(values.to_vec())),
            Repr::Pod | Repr::Bool => Root::copy_of(allocator, as_bytes(values)),
        }
    }

    fn from_elements<T: Clone + Send + Sync + UnwindSafe + RefUnwindSafe + 'static>(
        mut values: Vec<T>,
    ) -> Root {
        let ptr = NonNull::new(values.as_mut_ptr().cast::<u8>()).unwrap_or(NonNull::dangling());
        Root {
            ptr,
            len: std::mem::size_of_val(values.as_slice()),
            typed: true,
            writable: true,
            owner: Owner::Vec(Box::new(values)),
        }
    }

    /// The root's length in bytes.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether it can be written in place (given a unique handle); adopted
    /// external bytes cannot.
    #[inline]
    pub(crate) fn is_writable(&self) -> bool {
        self.writable
    }

    /// Whether a `T` at byte `offset` is aligned.
    #[inline]
    pub(crate) fn is_aligned_for<T: Stored>(&self, offset: usize) -> bool {
        (self.ptr.as_ptr() as usize).wrapping_add(offset) % std::mem::align_of::<T>() == 0
    }

    /// Whether this holds bytes (not typed elements).
    pub(crate) fn is_bytes(&self) -> bool {
        !self.typed
    }

    /// All bytes of a byte root.
    pub(crate) fn bytes(&self) -> Option<&[u8]> {
        if self.typed {
            return None;
        }
        // Nothing writes these bytes while a `&Root` exists: a write needs an
        // `Exclusive`, which mutably borrows the root's only `Arc` for its life.
        // SAFETY: a byte root's `ptr` is valid and initialized for `len`
        // bytes while `self` lives, and unwritten (above).
        Some(unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) })
    }

    /// The adopted bytes, for sharing them without a copy.
    pub(crate) fn external_bytes(&self) -> Option<&Bytes> {
        match &self.owner {
            Owner::External(b) => Some(b),
            _ => None,
        }
    }

    /// The first element's address.
    pub(crate) fn data_ptr(&self) -> *const u8 {
        self.ptr.as_ptr()
    }

    /// The allocator's name for descriptions.
    pub(crate) fn allocator_name(&self) -> &str {
        match &self.owner {
            Owner::Allocated(a) => a.allocator.name(),
            Owner::External(_) => "external",
            Owner::Vec(_) if !self.typed => "vec",
            Owner::Vec(_) => "cpu",
        }
    }

    /// The allocator to use for a copy of this buffer.
    pub(crate) fn allocator(&self) -> Arc<dyn Allocator> {
        match &self.owner {
            Owner::Allocated(a) => Arc::clone(&a.allocator),
            _ => super::default_allocator(),
        }
    }

    /// `(allocated bytes, allocation id)` when the allocator tracks sizes.
    pub(crate) fn allocated_bytes_if_tracked(&self) -> Option<(usize, i64)> {
        match &self.owner {
            Owner::Allocated(a) if a.allocator.tracks_allocation_sizes() => Some((a.size, a.id)),
            _ => None,
        }
    }

    /// A private copy of the byte range `range`, for copy-on-write.
    pub(crate) fn copy_range(
        &self,
        range: Range<usize>,
        allocator: &Arc<dyn Allocator>,
    ) -> Result<Root> {
        let bad = || Error::OutOfRange(RangeError::Region("tensor region outside its buffer"));
        if self.typed {
            return match &self.owner {
                Owner::Vec(v) => v.clone_range(range).ok_or_else(bad),
                _ => Err(bad()),
            };
        }
        let src = self.bytes().and_then(|b| b.get(range)).ok_or_else(bad)?;
        Root::copy_of(allocator, src)
    }

    /// Takes back an adopted `Vec<T>` (unique root, whole buffer).
    pub(crate) fn into_vec<T: 'static>(self) -> std::result::Result<Vec<T>, Root> {
        if !self.holds_vec_of::<T>() {
            return Err(self);
        }
        let mut this = self;
        // The placeholder owns nothing, so dropping `this` frees nothing.
        match std::mem::replace(&mut this.owner, Owner::External(Bytes::new())) {
            Owner::Vec(v) => match v.into_any().downcast::<Vec<T>>() {
                Ok(v) => Ok(*v),
                // Checked above.
                Err(_) => Err(Root::external(Bytes::new())),
            },
            owner => {
                this.owner = owner;
                Err(this)
            }
        }
    }

    /// Whether the root holds `Vec<T>` (for [`Root::into_vec`]).
    pub(crate) fn holds_vec_of<T: 'static>(&self) -> bool {
        matches!(&self.owner, Owner::Vec(v) if v.is_vec_of(TypeId::of::<T>()))
    }

    /// The address of `n` `T`s from byte `range.start`, inside `range`,
    /// all checks done: representation, bounds, alignment (for elements,
    /// an element boundary), bool bytes. Does not dereference anything but
    /// bool bytes.
    #[inline]
    fn region<T: Stored>(
        &self,
        range: Range<usize>,
        n: usize,
    ) -> std::result::Result<NonNull<T>, RegionError> {
        let offset = range.start;
        let fits = match T::REPR {
            Repr::Typed => self.holds_vec_of::<T>(),
            Repr::Pod | Repr::Bool => !self.typed,
        };
        if !fits {
            return Err(RegionError::Kind);
        }
        let bytes = n
            .checked_mul(std::mem::size_of::<T>())
            .ok_or(RegionError::Bounds)?;
        if range.end > self.len || offset > range.end || bytes > range.end - offset {
            return Err(RegionError::Bounds);
        }
        // In bounds (checked above), so the offset cannot wrap.
        let p = self.ptr.as_ptr().wrapping_add(offset);
        // An element root's elements start every `size_of::<T>()` bytes
        // from its base; between them lies no `T`. Bytes hold a POD `T`
        // at any aligned address.
        let between_elements =
            T::REPR == Repr::Typed && offset % std::mem::size_of::<T>().max(1) != 0;
        if (p as usize) % std::mem::align_of::<T>() != 0 || between_elements {
            return Err(RegionError::Misaligned {
                address: p as usize,
                align: std::mem::align_of::<T>(),
            });
        }
        if T::REPR == Repr::Bool {
            // SAFETY: `bytes` initialized bytes at `p` are in bounds.
            let bytes = unsafe { std::slice::from_raw_parts(p, bytes) };
            if bytes.iter().any(|&b| b > 1) {
                return Err(RegionError::InvalidBool);
            }
        }
        Ok(NonNull::new(p.cast::<T>()).unwrap_or(NonNull::dangling()))
    }

    /// `n` `T`s from the start of `range` (which they may not pass), as a
    /// slice.
    #[inline]
    pub(crate) fn slice<T: Stored>(
        &self,
        range: Range<usize>,
        n: usize,
    ) -> std::result::Result<&[T], RegionError> {
        if n == 0 {
            return Ok(&[]);
        }
        let p = self.region::<T>(range, n)?;
        // SAFETY: `region` checked that `n` valid, aligned `T`s live at `p`
        // inside the root; no `Exclusive` can exist while `&self` is
        // reachable from a shared handle (see `Exclusive::new`).
        Ok(unsafe { std::slice::from_raw_parts(p.as_ptr(), n) })
    }

    /// `n` `T`s from the start of `range` copied into a `Vec` (aligned
    /// whatever the source address). Typed elements are cloned.
    pub(crate) fn copy_to_vec<T: Stored>(
        &self,
        range: Range<usize>,
        n: usize,
    ) -> std::result::Result<Result<Vec<T>>, RegionError> {
        if T::REPR == Repr::Typed {
            return self.slice::<T>(range, n).map(|s| Ok(s.to_vec()));
        }
        if self.typed {
            return Err(RegionError::Kind);
        }
        let bytes = n
            .checked_mul(std::mem::size_of::<T>())
            .ok_or(RegionError::Bounds)?;
        let src = self
            .bytes()
            .and_then(|b| b.get(range.start..range.end.min(b.len())))
            .and_then(|b| b.get(..bytes))
            .ok_or(RegionError::Bounds)?;
        if T::REPR == Repr::Bool && src.iter().any(|&b| b > 1) {
            return Err(RegionError::InvalidBool);
        }
        let mut v = match super::try_vec::<T>(n) {
            Ok(v) => v,
            Err(e) => return Ok(Err(e)),
        };
        // SAFETY: `v` has room for `n` `T`s (`bytes` bytes), which cannot
        // overlap `src`.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), v.as_mut_ptr().cast::<u8>(), bytes) };
        // SAFETY: POD and (checked) bool bytes are valid `T`s, so after the
        // copy the first `n` elements are initialized.
        unsafe { v.set_len(n) };
        Ok(Ok(v))
    }

    /// A view of `dim` over the `T`s from the start of `range` (which the
    /// view may not pass).
    #[inline]
    pub(crate) fn view<T: Stored, D: Dimension>(
        &self,
        range: Range<usize>,
        dim: D,
    ) -> std::result::Result<ArrayView<'_, T, D>, RegionError> {
        let n = dim.size_checked().ok_or(RegionError::Bounds)?;
        let p = self.view_ptr::<T>(range, n)?;
        // SAFETY: `view_ptr` checked that `n` = the product of `dim` valid,
        // aligned `T`s are at `p` (or `n == 0` and `p` is dangling but
        // aligned); row-major strides stay inside them; nothing writes
        // them while the view borrows `self`.
        Ok(unsafe { ArrayView::from_shape_ptr(dim, p.as_ptr()) })
    }

    /// [`Root::view`] without the reason for a failure: the failure
    /// gives `dim` back. Its result is a view or a `D`, small enough to
    /// stay in registers, which a `Result` with an error payload is not
    /// (its copy cost the typed accessors a store-forwarding stall).
    #[inline(always)]
    pub(crate) fn try_view<T: Stored, D: Dimension>(
        &self,
        range: Range<usize>,
        dim: D,
    ) -> std::result::Result<ArrayView<'_, T, D>, D> {
        let Some(n) = dim.size_checked() else {
            return Err(dim);
        };
        let Ok(p) = self.view_ptr::<T>(range, n) else {
            return Err(dim);
        };
        // SAFETY: as in `view`: `view_ptr` checked the `n` elements at `p`.
        Ok(unsafe { ArrayView::from_shape_ptr(dim, p.as_ptr()) })
    }

    /// [`Root::region`] for a view: `n == 0` needs no memory, and gets a
    /// dangling (aligned) pointer.
    #[inline(always)]
    fn view_ptr<T: Stored>(
        &self,
        range: Range<usize>,
        n: usize,
    ) -> std::result::Result<NonNull<T>, RegionError> {
        if n == 0 {
            Ok(NonNull::dangling())
        } else {
            self.region::<T>(range, n)
        }
    }
}

/// Sees any stored type's elements as bytes (POD and bool; empty for
/// typed elements).
pub(crate) fn as_bytes<T: Stored>(values: &[T]) -> &[u8] {
    if T::REPR == Repr::Typed {
        return &[];
    }
    // SAFETY: POD and bool types have no padding (the `Stored` contract),
    // so every byte of the slice is initialized.
    unsafe {
        std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values))
    }
}

/// The right to write `range` of a root: exists only while one `&mut`
/// handle holds the only reference to a writable root, and no other
/// `Exclusive` of the same root covers any of `range`.
pub(crate) struct Exclusive<'a> {
    root: &'a Root,
    range: Range<usize>,
    _unique: PhantomData<&'a mut Root>,
}

impl<'a> Exclusive<'a> {
    /// Write access to `range` of `root`, if `root` is the only reference
    /// (no other `Arc`, and the crate never makes `Weak`s of roots) and
    /// writable.
    #[inline]
    pub(crate) fn new(
        root: &'a mut Arc<Root>,
        range: Range<usize>,
    ) -> std::result::Result<Self, RegionError> {
        // Relaxed count, then an acquire fence: synchronizes with the
        // release decrement of every handle dropped before, so their reads
        // happen before our writes. Holding `&mut` to the only `Arc`, no
        // one can clone it meanwhile.
        if Arc::strong_count(root) != 1 || !root.writable {
            return Err(RegionError::NotUnique);
        }
        fence(Ordering::Acquire);
        if range.start > range.end || range.end > root.len {
            return Err(RegionError::Bounds);
        }
        Ok(Exclusive {
            root,
            range,
            _unique: PhantomData,
        })
    }

    /// A shorter-lived exclusive over the same range.
    pub(crate) fn reborrow(&mut self) -> Exclusive<'_> {
        Exclusive {
            root: self.root,
            range: self.range.clone(),
            _unique: PhantomData,
        }
    }

    /// `n` `T`s from the start of `range` (inside the covered range),
    /// read-only.
    #[inline]
    pub(crate) fn slice<T: Stored>(
        &self,
        range: Range<usize>,
        n: usize,
    ) -> std::result::Result<&[T], RegionError> {
        if n == 0 {
            return Ok(&[]);
        }
        let p = self.region_mut::<T>(range, n)?;
        // SAFETY: `region_mut` checked the `n` elements are valid, aligned
        // and inside this exclusive range; `&self` keeps every writer of
        // that range (which needs `&mut self` or `self`) away.
        Ok(unsafe { std::slice::from_raw_parts(p.as_ptr(), n) })
    }

    /// A read-only view of `dim` over the `T`s from the start of `range`
    /// (inside the covered range).
    #[inline]
    pub(crate) fn view<T: Stored, D: Dimension>(
        &self,
        range: Range<usize>,
        dim: D,
    ) -> std::result::Result<ArrayView<'_, T, D>, RegionError> {
        let n = dim.size_checked().ok_or(RegionError::Bounds)?;
        let p = if n == 0 {
            NonNull::dangling()
        } else {
            self.region_mut::<T>(range, n)?
        };
        // SAFETY: as in `slice`; row-major strides over `dim` stay inside
        // the `n` checked elements.
        Ok(unsafe { ArrayView::from_shape_ptr(dim, p.as_ptr()) })
    }

    /// Splits at byte `mid` (inside the range) into two disjoint
    /// halves.
    pub(crate) fn split_at(self, mid: usize) -> std::result::Result<(Self, Self), Self> {
        if mid < self.range.start || mid > self.range.end {
            return Err(self);
        }
        let lo = Exclusive {
            root: self.root,
            range: self.range.start..mid,
            _unique: PhantomData,
        };
        let hi = Exclusive {
            root: self.root,
            range: mid..self.range.end,
            _unique: PhantomData,
        };
        Ok((lo, hi))
    }

    /// Narrows to `range` (which must lie inside the current one).
    pub(crate) fn narrow(self, range: Range<usize>) -> std::result::Result<Self, Self> {
        if range.start < self.range.start || range.end > self.range.end || range.start > range.end {
            return Err(self);
        }
        Ok(Exclusive {
            root: self.root,
            range,
            _unique: PhantomData,
        })
    }

    /// `n` `T`s from the start of `range`, checked against the covered
    /// range: reads and writes through an `Exclusive` never leave it.
    #[inline]
    fn region_mut<T: Stored>(
        &self,
        range: Range<usize>,
        n: usize,
    ) -> std::result::Result<NonNull<T>, RegionError> {
        if range.start < self.range.start || range.end > self.range.end {
            return Err(RegionError::Bounds);
        }
        self.root.region::<T>(range, n)
    }

    /// `n` `T`s from the start of `range`, writable.
    #[inline]
    pub(crate) fn slice_mut<T: Stored>(
        self,
        range: Range<usize>,
        n: usize,
    ) -> std::result::Result<&'a mut [T], RegionError> {
        if n == 0 {
            return Ok(&mut []);
        }
        let p = self.region_mut::<T>(range, n)?;
        // SAFETY: `region_mut` checked the elements are valid, aligned and
        // inside this exclusive range; `self` (consumed) was the only right
        // to write them, and no reader exists (the root is unique and its
        // only handle is mutably borrowed for 'a).
        Ok(unsafe { std::slice::from_raw_parts_mut(p.as_ptr(), n) })
    }

    /// A writable view of `dim` over the `T`s from the start of `range`.
    #[inline]
    pub(crate) fn view_mut<T: Stored, D: Dimension>(
        self,
        range: Range<usize>,
        dim: D,
    ) -> std::result::Result<ArrayViewMut<'a, T, D>, RegionError> {
        let n = dim.size_checked().ok_or(RegionError::Bounds)?;
        let p = if n == 0 {
            NonNull::dangling()
        } else {
            self.region_mut::<T>(range, n)?
        };
        // SAFETY: as in `slice_mut`; row-major strides over `dim` stay
        // inside the `n` checked elements.
        Ok(unsafe { ArrayViewMut::from_shape_ptr(dim, p.as_ptr()) })
    }
}

/// Memory a region's elements can be read through: a shared root, or the
/// range an [`Exclusive`] covers. Both check representation, bounds and
/// alignment, so a caller's wrong range can only fail.
pub(crate) trait Readable<'a>: Copy {
    /// A view of `dim` over the `T`s from the start of `range`.
    fn view<T: Stored, D: Dimension>(
        self,
        range: Range<usize>,
        dim: D,
    ) -> std::result::Result<ArrayView<'a, T, D>, RegionError>;

    /// `n` `T`s from the start of `range`.
    fn slice<T: Stored>(
        self,
        range: Range<usize>,
        n: usize,
    ) -> std::result::Result<&'a [T], RegionError>;
}

impl<'a> Readable<'a> for &'a Root {
    #[inline]
    fn view<T: Stored, D: Dimension>(
        self,
        range: Range<usize>,
        dim: D,
    ) -> std::result::Result<ArrayView<'a, T, D>, RegionError> {
        Root::view(self, range, dim)
    }

    #[inline]
    fn slice<T: Stored>(
        self,
        range: Range<usize>,
        n: usize,
    ) -> std::result::Result<&'a [T], RegionError> {
        Root::slice(self, range, n)
    }
}

impl<'a> Readable<'a> for &'a Exclusive<'_> {
    #[inline]
    fn view<T: Stored, D: Dimension>(
        self,
        range: Range<usize>,
        dim: D,
    ) -> std::result::Result<ArrayView<'a, T, D>, RegionError> {
        Exclusive::view(self, range, dim)
    }

    #[inline]
    fn slice<T: Stored>(
        self,
        range: Range<usize>,
        n: usize,
    ) -> std::result::Result<&'a [T], RegionError> {
        Exclusive::slice(self, range, n)
    }
}
