//! The codec on random tensors of every dtype (strategies in
//! `tests/common/arb.rs`): both AsProto forms round-trip bit for bit,
//! `encode_proto_field` writes prost's bytes, and compression never
//! changes the value.

use proptest::prelude::*;
use prost::Message;
use tftensor::{Tensor, compress_tensor_proto_in_place};

use crate::arb::*;

proptest! {
    #![proptest_config(config())]

    /// `as_proto_field` -> bytes -> `decode` (and -> parse -> `from_proto`)
    /// gives back the same tensor, bit for bit.
    #[test]
    fn as_proto_field_round_trips(t in any_tensor_maybe_sliced()) {
        let p = t.as_proto_field().unwrap();
        prop_assert!(p.tensor_content.is_empty());
        let (a, b) = wire_round_trip(&p);
        prop_assert_eq!(&a, &t);
        prop_assert_eq!(&b, &t);
    }

    /// `encode_proto_field` (straight from the elements) writes exactly the
    /// bytes prost writes for `as_proto_field`, also when the elements sit
    /// at an odd address (a byte tensor sliced and bitcast); both AsProto
    /// forms read such tensors.
    #[test]
    fn encode_proto_field_matches_prost(t in any_tensor_maybe_sliced(), pad in 0usize..8) {
        let want = t.as_proto_field().unwrap().encode_to_vec();
        prop_assert_eq!(&t.encode_proto_field().unwrap(), &want);
        let mut buf = vec![7u8; 3];
        t.encode_proto_field_to(&mut buf).unwrap();
        prop_assert_eq!(&buf[3..], &want[..]);
        if t.dtype().can_use_memcpy() {
            let raw = t.tensor_data().unwrap();
            let mut bytes = vec![0u8; pad];
            bytes.extend_from_slice(raw);
            let n = bytes.len() as i64;
            let u8s = Tensor::from_vec([n], bytes).unwrap().slice(pad as i64, n).unwrap();
            let mut odd = Tensor::default();
            odd.bitcast_from(&u8s, t.dtype(), t.shape().clone()).unwrap();
            prop_assert_eq!(&odd.encode_proto_field().unwrap(), &want);
            prop_assert_eq!(odd.as_proto_field().unwrap().encode_to_vec(), want);
            prop_assert_eq!(
                odd.as_proto_tensor_content().unwrap().encode_to_vec(),
                t.as_proto_tensor_content().unwrap().encode_to_vec()
            );
        }
    }

    /// The same through `as_proto_tensor_content`; POD content decoded from
    /// bytes stays zero-copy, and re-encoding gives the same bytes.
    #[test]
    fn as_proto_tensor_content_round_trips(t in any_tensor_maybe_sliced()) {
        let p = t.as_proto_tensor_content().unwrap();
        let (a, b) = wire_round_trip(&p);
        prop_assert_eq!(&a, &t);
        prop_assert_eq!(&b, &t);
        prop_assert_eq!(a.as_proto_tensor_content().unwrap().encode_to_vec(), p.encode_to_vec());
        // The field and content forms of one tensor decode to the same tensor.
        let (c, _) = wire_round_trip(&t.as_proto_field().unwrap());
        prop_assert_eq!(&c, &a);
    }

    /// `compress_tensor_proto_in_place` never changes what the proto
    /// decodes to, for either starting form and any parameters; when it
    /// reports no change, the proto is untouched.
    #[test]
    fn compress_preserves_the_value(
        t in compressible_tensor(),
        content in any::<bool>(),
        min_num_elements in prop_oneof![Just(0i64), 0i64..300, Just(i64::MAX), Just(-1)],
        ratio in prop_oneof![Just(2.0f32), Just(1.0), Just(0.5), Just(4.0), Just(0.0), Just(-1.0), Just(f32::NAN), Just(f32::INFINITY)],
    ) {
        let original = if content { t.as_proto_tensor_content() } else { t.as_proto_field() }.unwrap();
        let mut p = original.clone();
        let changed = compress_tensor_proto_in_place(&mut p, min_num_elements, ratio);
        // (When it does change, the proto may even grow: TF's size estimate
        // counts sizeof(field element), not varint or key lengths.)
        if !changed {
            prop_assert_eq!(p.encode_to_vec(), original.encode_to_vec());
        }
        let (a, b) = wire_round_trip(&p);
        prop_assert_eq!(&a, &t);
        prop_assert_eq!(&b, &t);
        // Compressing again is harmless.
        let mut q = p.clone();
        compress_tensor_proto_in_place(&mut q, min_num_elements, ratio);
        prop_assert_eq!(&wire_round_trip(&q).0, &t);
    }
}
