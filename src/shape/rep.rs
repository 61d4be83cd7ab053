//! How a [`TensorShape`](super::TensorShape) stores its dims in 24 bytes:
//! inline as `u32`s (rank ≤ 5) or `u16`s (rank 6, TF's Rep16), else on the
//! heap. Only this file matches on the representation; the shape's
//! operations ask it for the dims, and for the in-place fast paths.

use super::usize_of_dim;

/// How many dimensions fit inline (as `u32`) without a heap allocation.
const INLINE_CAP: usize = 5;

/// How many dimensions below 2^16 fit inline (TF's Rep16 keeps six).
const INLINE16_CAP: usize = 6;

/// The dims of a valid shape (every dim `>= 0`), in the smallest form that
/// holds them.
#[derive(Clone)]
pub(super) enum Rep {
    /// `rank <= INLINE_CAP` and every dim `<= u32::MAX`. Slots past `rank`
    /// are always zero.
    Inline { rank: u8, dims: [u32; INLINE_CAP] },
    /// Not `Inline`, `rank <= INLINE16_CAP` and every dim `<= u16::MAX`
    /// (TF's Rep16). Slots past `rank` are always zero.
    Inline16 { rank: u8, dims: [u16; INLINE16_CAP] },
    /// Anything else. Never used when `Inline` would do.
    Heap(Box<[i64]>),
}

impl Rep {
    /// The scalar shape's dims: none.
    pub(super) const SCALAR: Rep = Rep::Inline {
        rank: 0,
        dims: [0; INLINE_CAP],
    };

    /// The representation of dims that already passed validation.
    pub(super) fn from_valid(dims: &[i64]) -> Rep {
        if dims.len() <= INLINE_CAP {
            let mut buf = [0u32; INLINE_CAP];
            let fits = buf
                .iter_mut()
                .zip(dims)
                .all(|(slot, &d)| u32::try_from(d).map(|v| *slot = v).is_ok());
            if let (true, Ok(rank)) = (fits, u8::try_from(dims.len())) {
                return Rep::Inline { rank, dims: buf };
            }
        }
        if dims.len() <= INLINE16_CAP {
            let mut buf = [0u16; INLINE16_CAP];
            let fits = buf
                .iter_mut()
                .zip(dims)
                .all(|(slot, &d)| u16::try_from(d).map(|v| *slot = v).is_ok());
            if let (true, Ok(rank)) = (fits, u8::try_from(dims.len())) {
                return Rep::Inline16 { rank, dims: buf };
            }
        }
        Rep::Heap(dims.into())
    }

    /// The rank.
    #[inline]
    pub(super) fn rank(&self) -> usize {
        match self {
            Rep::Inline { rank, .. } | Rep::Inline16 { rank, .. } => usize::from(*rank),
            Rep::Heap(d) => d.len(),
        }
    }

    /// The dims, outermost first.
    pub(super) fn iter(&self) -> DimIter<'_> {
        match self {
            Rep::Inline { rank, dims } => DimIter::Inline(live(dims, *rank).iter()),
            Rep::Inline16 { rank, dims } => DimIter::Inline16(live(dims, *rank).iter()),
            Rep::Heap(d) => DimIter::Heap(d.iter()),
        }
    }

    /// Writes the first `out.len()` dims into `out` as `usize`.
    #[inline]
    pub(super) fn fill_usize(&self, out: &mut [usize]) {
        match self {
            Rep::Inline { dims, .. } => {
                for (o, &d) in out.iter_mut().zip(dims) {
                    // `usize` is at least 32 bits on every target Rust
                    // supports with `std`, so a `u32` dim converts exactly.
                    *o = d as usize;
                }
            }
            Rep::Inline16 { dims, .. } => {
                for (o, &d) in out.iter_mut().zip(dims) {
                    *o = usize::from(d);
                }
            }
            Rep::Heap(dims) => {
                for (o, &d) in out.iter_mut().zip(dims.iter()) {
                    *o = usize_of_dim(d);
                }
            }
        }
    }

    /// The product of the dims. The shape's invariant keeps it in `i64`;
    /// saturating only spares a debug-build overflow check. One match,
    /// then a plain loop: this is on every view's path.
    #[inline]
    pub(super) fn num_elements(&self) -> i64 {
        match self {
            Rep::Inline { rank, dims } => dims
                .iter()
                .take(usize::from(*rank))
                .fold(1i64, |acc, &d| acc.saturating_mul(i64::from(d))),
            Rep::Inline16 { rank, dims } => dims
                .iter()
                .take(usize::from(*rank))
                .fold(1i64, |acc, &d| acc.saturating_mul(i64::from(d))),
            Rep::Heap(dims) => dims.iter().fold(1i64, |acc, &d| acc.saturating_mul(d)),
        }
    }

    /// Appends `size` in place when it fits inline (a free `u32` slot);
    /// `false` leaves the caller to rebuild. The caller validated it.
    pub(super) fn push_inline(&mut self, size: i64) -> bool {
        if let Rep::Inline { rank, dims } = self {
            if let (Some(slot), Ok(v)) = (dims.get_mut(usize::from(*rank)), u32::try_from(size)) {
                *slot = v;
                *rank += 1;
                return true;
            }
        }
        false
    }

    /// Lowers inline dim `d` to `size` in place (`size` at most the dim,
    /// so the non-zero product cannot grow); `false` otherwise.
    pub(super) fn shrink_inline(&mut self, d: usize, size: i64) -> bool {
        if let Rep::Inline { dims, .. } = self {
            if let (Some(slot), Ok(new)) = (dims.get_mut(d), u32::try_from(size)) {
                if new <= *slot {
                    *slot = new;
                    return true;
                }
            }
        }
        false
    }

    /// Removes inline dims `b..e` (`b < e <= rank`) in place, no
    /// allocation (sub-slicing); `false` leaves the caller to rebuild.
    pub(super) fn remove_inline(&mut self, b: usize, e: usize) -> bool {
        if let Rep::Inline { rank, dims } = self {
            let r = usize::from(*rank);
            if b < e && e <= r && r <= dims.len() {
                dims.copy_within(e..r, b);
                let removed = e - b;
                for slot in dims.iter_mut().skip(r - removed) {
                    *slot = 0;
                }
                // `r - removed < r <= INLINE_CAP`: the cast is exact.
                *rank = (r - removed) as u8;
                return true;
            }
        }
        false
    }

    /// Whether the dims are stored inline (no heap allocation).
    #[cfg(test)]
    pub(super) fn is_inline(&self) -> bool {
        matches!(self, Rep::Inline { .. } | Rep::Inline16 { .. })
    }
}

/// The first `rank` slots of an inline store: all of them at most, as the
/// representation keeps `rank <= N`.
fn live<T, const N: usize>(dims: &[T; N], rank: u8) -> &[T] {
    debug_assert!(usize::from(rank) <= N, "inline rank past its slots");
    let (live, _) = dims.split_at(usize::from(rank).min(N));
    live
}

/// Iterator over a [`TensorShape`](super::TensorShape)'s dimensions.
pub(super) enum DimIter<'a> {
    Inline(std::slice::Iter<'a, u32>),
    Inline16(std::slice::Iter<'a, u16>),
    Heap(std::slice::Iter<'a, i64>),
}

impl Iterator for DimIter<'_> {
    type Item = i64;

    fn next(&mut self) -> Option<i64> {
        match self {
            DimIter::Inline(it) => it.next().map(|&d| i64::from(d)),
            DimIter::Inline16(it) => it.next().map(|&d| i64::from(d)),
            DimIter::Heap(it) => it.next().copied(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            DimIter::Inline(it) => it.size_hint(),
            DimIter::Inline16(it) => it.size_hint(),
            DimIter::Heap(it) => it.size_hint(),
        }
    }
}

impl DoubleEndedIterator for DimIter<'_> {
    fn next_back(&mut self) -> Option<i64> {
        match self {
            DimIter::Inline(it) => it.next_back().map(|&d| i64::from(d)),
            DimIter::Inline16(it) => it.next_back().map(|&d| i64::from(d)),
            DimIter::Heap(it) => it.next_back().copied(),
        }
    }
}

impl ExactSizeIterator for DimIter<'_> {}

#[cfg(test)]
mod tests {
    use super::super::TensorShape;

    fn ts(d: &[i64]) -> TensorShape {
        TensorShape::new(d).unwrap()
    }

    #[test]
    fn size_is_24_bytes() {
        assert_eq!(std::mem::size_of::<TensorShape>(), 24);
    }

    #[test]
    fn scalar_and_default() {
        let s = TensorShape::scalar();
        assert_eq!(s.dims(), 0);
        assert_eq!(s.num_elements(), 1);
        assert!(s.is_scalar());
        assert_eq!(s.dim_sizes(), Vec::<i64>::new());
        assert_eq!(s.first_dim(), None);
        assert_eq!(s, TensorShape::default());
        assert_eq!(s, ts(&[]));
        assert!(s.is_inline());
    }

    #[test]
    fn inline_representation() {
        // rank <= 4 never allocates; rank 5 with u32 dims neither.
        assert!(ts(&[2, 3, 4, 5]).is_inline());
        let m = i64::from(u32::MAX);
        assert!(ts(&[m]).is_inline());
        assert!(ts(&[1, 2, 3, 4, 5]).is_inline());
        assert!(ts(&[m, 1, 0, 1, 2]).is_inline());
        // Rank 6 with dims below 2^16 too (TF's Rep16; issue 11, fault 9).
        assert!(ts(&[1, 2, 3, 4, 5, 6]).is_inline());
        assert!(ts(&[65535, 0, 3, 4, 5, 6]).is_inline());
        assert!(!ts(&[65536, 2, 3, 4, 5, 6]).is_inline());
        assert!(!ts(&[1, 2, 3, 4, 5, 6, 7]).is_inline());
        assert_eq!(
            ts(&[65535, 0, 3, 4, 5, 6]).dim_sizes(),
            vec![65535, 0, 3, 4, 5, 6]
        );
        assert!(!ts(&[m + 1]).is_inline());
        assert!(!ts(&[0, m + 1]).is_inline());
    }

    #[test]
    fn representation_is_normalised_after_mutation() {
        let mut s = ts(&[1, 2, 3, 4, 5, 6, 7]);
        assert!(!s.is_inline());
        s.remove_dim(6).unwrap();
        assert!(s.is_inline()); // rank 6, 16-bit dims
        s.remove_dim(5).unwrap();
        assert!(s.is_inline());
        assert_eq!(s.dim_sizes(), vec![1, 2, 3, 4, 5]);
        s.add_dim(1 << 20).unwrap();
        assert!(!s.is_inline());
        s.remove_last_dims(1).unwrap();
        assert!(s.is_inline());
        let big = i64::from(u32::MAX) + 1;
        s.set_dim(0, big).unwrap();
        assert!(!s.is_inline());
        s.set_dim(0, 1).unwrap();
        assert!(s.is_inline());
        assert_eq!(s, ts(&[1, 2, 3, 4, 5]));
        s.add_dim(big).unwrap();
        assert!(!s.is_inline());
        assert_eq!(s.dim_sizes(), vec![1, 2, 3, 4, 5, big]);
        s.set_dim(5, 6).unwrap();
        assert!(s.is_inline());
    }
}
