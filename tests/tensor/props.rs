//! Slicing, sub-slicing and bit-casting on random tensors of every dtype
//! (strategies in `tests/common/arb.rs`), checked against ndarray.

use proptest::prelude::*;
use proptest::sample::select;
use tftensor::{DataType, Error, Tensor};

use crate::arb::*;

proptest! {
    #![proptest_config(config())]

    /// `slice(a, b)` has ndarray's `slice_axis(0, a..b)` elements and shape,
    /// shares the buffer, and slicing a slice composes.
    #[test]
    fn slice_agrees_with_ndarray(
        (t, a, b, c, d) in ranked_tensor().prop_flat_map(|t| {
            let d0 = t.dim_size(0).unwrap();
            (Just(t), 0..=d0).prop_flat_map(move |(t, a)| (Just(t), Just(a), a..=d0))
                .prop_flat_map(|(t, a, b)| (Just(t), Just(a), Just(b), 0..=(b - a)))
                .prop_flat_map(|(t, a, b, c)| (Just(t), Just(a), Just(b), Just(c), c..=(b - a)))
        })
    ) {
        let s = t.slice(a, b).unwrap();
        let expected = ndarray_slice(&t, a as usize, b as usize);
        prop_assert_eq!(s.shape(), expected.shape());
        prop_assert_eq!(&s, &expected);
        if s.num_elements() > 0 {
            prop_assert!(s.shares_buffer_with(&t));
        }
        // A slice of a slice is the slice at the summed offsets.
        let ss = s.slice(c, d).unwrap();
        prop_assert_eq!(&ss, &t.slice(a + c, a + d).unwrap());
        prop_assert_eq!(&ss, &ndarray_slice(&t, (a + c) as usize, (a + d) as usize));
    }

    /// `sub_slice(i)` has ndarray's `index_axis(0, i)` elements and shape,
    /// and equals the sub-slice of any slice that contains row `i`.
    #[test]
    fn sub_slice_agrees_with_ndarray(
        (t, i, a) in ranked_tensor().prop_flat_map(|t| {
            let d0 = t.dim_size(0).unwrap();
            (Just(t), 0..d0.max(1)).prop_flat_map(|(t, i)| (Just(t), Just(i), 0..=i))
        })
    ) {
        let d0 = t.dim_size(0).unwrap();
        let row = t.sub_slice(i).unwrap();
        let mut inner = t.shape().clone();
        inner.remove_dim(0).unwrap();
        prop_assert_eq!(row.shape(), &inner);
        if d0 == 0 {
            // TF: no buffer; with inner elements the result is uninitialized.
            prop_assert!(row.data_ptr().is_none());
            prop_assert_eq!(row.is_initialized(), row.num_elements() == 0);
        } else {
            prop_assert_eq!(&row, &ndarray_index(&t, i as usize));
            prop_assert_eq!(&row, &t.slice(a, d0).unwrap().sub_slice(i - a).unwrap());
            if row.num_elements() > 0 {
                prop_assert!(row.shares_buffer_with(&t));
            }
        }
    }

    /// Bit-casting a POD tensor to any POD dtype whose size divides its
    /// bytes and back is the identity, keeps the bytes, and shares the
    /// buffer; views of the intermediate never panic.
    #[test]
    fn bitcast_there_and_back_is_identity(
        t in any_tensor_maybe_sliced(),
        to in select(DataType::all().to_vec()),
        split in any::<prop::sample::Index>(),
    ) {
        let mut there = Tensor::default();
        let r = there.bitcast_from(&t, to, [1i64]);
        if !t.dtype().can_use_memcpy() || !to.can_use_memcpy() {
            prop_assert!(matches!(r, Err(Error::InvalidArgument(_))));
            prop_assert_eq!(&there, &Tensor::default());
            return Ok(());
        }
        let bytes = t.tensor_data().unwrap().len();
        if bytes % to.size() != 0 {
            return Ok(());
        }
        let n = (bytes / to.size()) as i64;
        // A 1-D or a 2-D shape, split at one of n's divisors.
        let divisors: Vec<i64> = (1..=n.max(1)).filter(|k| n % k == 0).collect();
        let k = divisors[split.index(divisors.len())];
        let shape: Vec<i64> = if n > 0 && k > 1 { vec![k, n / k] } else { vec![n] };
        there.bitcast_from(&t, to, &shape[..]).unwrap();
        prop_assert_eq!(there.dtype(), to);
        prop_assert_eq!(there.tensor_data().unwrap(), t.tensor_data().unwrap());
        if n > 0 {
            prop_assert!(there.shares_buffer_with(&t));
        }
        match try_view(&there) {
            Ok(len) => prop_assert_eq!(len as i64, n),
            Err(Error::Misaligned { .. } | Error::InvalidArgument(_)) => {}
            Err(e) => prop_assert!(false, "unexpected error {:?}", e),
        }
        let mut back = Tensor::default();
        back.bitcast_from(&there, t.dtype(), t.shape()).unwrap();
        prop_assert_eq!(&back, &t);
        // A size mismatch is an error and leaves the target unchanged.
        let mut untouched = there.clone();
        let err = untouched.bitcast_from(&t, to, [n + 1]);
        prop_assert!(matches!(err, Err(Error::InvalidArgument(_))));
        prop_assert_eq!(&untouched, &there);
    }
}
