//! Fuzzes `Tensor::decode_with` (prost parsing + TF's FromProto) and the
//! re-encoding of whatever decodes.
//!
//! Checks, beyond "no panic, no crash, no hang":
//! * parsing with prost and calling `from_proto_with` agrees with `decode_with`;
//! * what decodes re-encodes both ways (`as_proto_field`,
//!   `as_proto_tensor_content`), and both encodings decode again;
//! * the tensor_content form round-trips bit for bit, and the field form is
//!   a fixed point after one round (Int4/UInt4 bytes with high bits set,
//!   which TF's decoder keeps from int_val, are normalised by the first);
//! * summaries and Debug never panic.
//!
//! `max_bytes` is 16 MiB so a declared huge shape is refused instead of
//! exhausting the fuzzer's memory (libFuzzer's -rss_limit_mb still applies).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tftensor::bytes::Bytes;
use tftensor::prost::Message;
use tftensor::{pb, FromProtoOptions, Tensor};

fn opts() -> FromProtoOptions {
    FromProtoOptions::default().with_max_bytes(16 << 20)
}

fn redecode(p: &pb::TensorProto) -> Tensor {
    let wire = p.encode_to_vec();
    match Tensor::decode_with(Bytes::from(wire), &opts()) {
        Ok(t) => t,
        Err(e) => panic!("re-encoded tensor does not decode: {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let input = Bytes::copy_from_slice(data);
    let decoded = Tensor::decode_with(input.clone(), &opts());

    let via_proto = pb::TensorProto::decode(input).map(|p| Tensor::from_proto_with(&p, &opts()));
    match (&decoded, &via_proto) {
        (Ok(a), Ok(Ok(b))) => assert_eq!(a, b, "decode and parse+from_proto disagree"),
        (Err(_), Err(_) | Ok(Err(_))) => {}
        _ => panic!("decode and parse+from_proto disagree on success"),
    }

    let Ok(t) = decoded else { return };
    // v2 prints `max_entries` items from each end of every dimension (TF's
    // edgeitems), so even 3 prints all of a [6,3,6,3,...] tensor of millions
    // of elements: linear, but seconds per input under ASan. Summaries of
    // large tensors are left to tests/robust/props.rs.
    let _ = t.summarize_value(3, false);
    if t.num_elements() <= 1 << 16 {
        let _ = t.summarize_value(3, true);
    }
    let _ = format!("{t:?}");

    let content = t
        .as_proto_tensor_content()
        .expect("as_proto_tensor_content of a decoded tensor");
    assert_eq!(
        redecode(&content),
        t,
        "content round trip changed the tensor"
    );

    let field = t
        .as_proto_field()
        .expect("as_proto_field of a decoded tensor");
    let once = redecode(&field);
    let field2 = once
        .as_proto_field()
        .expect("as_proto_field after one round");
    assert_eq!(redecode(&field2), once, "field form is not a fixed point");
    // Compared as bytes: the protos' PartialEq says NaN != NaN.
    assert_eq!(
        field2.encode_to_vec(),
        once.as_proto_field().unwrap().encode_to_vec(),
        "as_proto_field is not deterministic"
    );
});
