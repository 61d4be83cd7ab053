//! Never panics on random tensors of every dtype (strategies in
//! `tests/common/arb.rs`): slicing at any `i64`, summaries with any
//! `max_entries`; and random or mutated TensorProto bytes.

use bytes::Bytes;
use proptest::prelude::*;
use prost::Message;
use tftensor::{DataType, Error, FromProtoOptions, ResourceHandle, Tensor, Variant};

use crate::arb::*;

proptest! {
    #![proptest_config(config())]

    /// Out-of-range slices are `OutOfRange` errors, never panics.
    #[test]
    fn slice_out_of_range_is_an_error(t in any_tensor(), a in any::<i64>(), b in any::<i64>()) {
        match t.slice(a, b) {
            Ok(s) => {
                let d0 = t.dim_size(0).unwrap();
                prop_assert!(0 <= a && a <= b && b <= d0);
                prop_assert_eq!(s.num_elements(), (b - a) * t.num_elements() / d0.max(1));
            }
            Err(Error::OutOfRange(_)) => prop_assert!(t.dims() >= 1),
            Err(Error::InvalidArgument(_)) => prop_assert_eq!(t.dims(), 0),
            Err(e) => prop_assert!(false, "unexpected error {:?}", e),
        }
    }

    /// Out-of-range sub-slices are errors, never panics.
    #[test]
    fn sub_slice_out_of_range_is_an_error(t in any_tensor(), i in any::<i64>()) {
        match t.sub_slice(i) {
            Ok(_) => prop_assert!(i >= 0 && i <= t.dim_size(0).unwrap()),
            Err(Error::OutOfRange(_)) => prop_assert!(t.dims() >= 1),
            Err(Error::InvalidArgument(_)) => prop_assert_eq!(t.dims(), 0),
            Err(e) => prop_assert!(false, "unexpected error {:?}", e),
        }
    }

    /// `summarize_value` never panics, for any `max_entries` (negative,
    /// zero, huge) and both print styles, and is deterministic.
    #[test]
    fn summarize_value_never_panics(
        t in any_tensor_maybe_sliced(),
        max_entries in prop_oneof![any::<i64>(), -2i64..300],
        print_v2 in any::<bool>(),
    ) {
        let a = t.summarize_value_bytes(max_entries, print_v2);
        let b = t.summarize_value_bytes(max_entries, print_v2);
        prop_assert_eq!(&a, &b);
        let _ = t.summarize_value(max_entries, print_v2);
        let _ = format!("{t:?}");
    }
}

mod fuzz {
    use super::*;

    /// Valid messages of several dtypes, to mutate.
    fn seeds() -> Vec<Vec<u8>> {
        let v = Tensor::from(Variant::from_tensor(
            Tensor::from_vec([2], vec![1i16, -2]).unwrap(),
        ));
        let h = Tensor::from(ResourceHandle {
            name: "r".into(),
            ..Default::default()
        });
        let s = Tensor::from_vec([2], vec![Bytes::from_static(b"ab"), Bytes::new()]).unwrap();
        let f = Tensor::from_vec([2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
        let mut out = Vec::new();
        for t in [v, h, s, f] {
            out.push(t.as_proto_field().unwrap().encode_to_vec());
            out.push(t.as_proto_tensor_content().unwrap().encode_to_vec());
        }
        out
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
            let opts = FromProtoOptions::default().with_max_bytes(1 << 20);
            let _ = Tensor::decode_with(Bytes::from(bytes), &opts);
        }

        #[test]
        fn mutated_messages_never_panic(
            seed in 0usize..8,
            edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4),
            cut in any::<usize>(),
        ) {
            let mut w = seeds().swap_remove(seed);
            for (at, b) in edits {
                let i = at % w.len();
                w[i] = b;
            }
            w.truncate(w.len() - cut % (w.len() / 4 + 1));
            let opts = FromProtoOptions::default().with_max_bytes(1 << 20);
            if let Ok(t) = Tensor::decode_with(Bytes::from(w), &opts) {
                // Whatever decodes re-encodes and decodes to itself.
                let again = Tensor::from_proto(&t.as_proto_tensor_content().unwrap()).unwrap();
                prop_assert_eq!(&again, &t);
                let again = Tensor::from_proto(&t.as_proto_field().unwrap()).unwrap();
                let narrow = [DataType::Int4, DataType::UInt4, DataType::Int2, DataType::UInt2];
                if !narrow.contains(&t.dtype()) {
                    prop_assert_eq!(&again, &t);
                }
            }
        }
    }
}
