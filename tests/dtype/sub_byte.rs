//! TF 2.21's newest dtypes (int2, uint2, float4_e2m1fn) against ml_dtypes,
//! the library TF uses for them: every byte, and every f32 input through the
//! run table `scripts/float4_reference.py` wrote (tests/data/dtype).

use serde_json::Value;
use tftensor::{DataType, Float4E2M1FN, Int2, Tensor, TensorShape, UInt2, pb};

fn reference() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/dtype/narrow_types.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

fn pairs(v: &Value) -> Vec<(i64, i64)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_i64().unwrap(), p[1].as_i64().unwrap()))
        .collect()
}

#[test]
fn names_numbers_sizes_and_refs() {
    for (dt, num, name, proto) in [
        (DataType::Int2, 31, "int2", "DT_INT2"),
        (DataType::UInt2, 32, "uint2", "DT_UINT2"),
        (
            DataType::Float4E2M1FN,
            33,
            "float4_e2m1fn",
            "DT_FLOAT4_E2M1FN",
        ),
    ] {
        assert_eq!(dt.as_i32(), num);
        assert_eq!(dt.name(), name);
        assert_eq!(dt.proto_name(), proto);
        assert_eq!(dt.size(), 1);
        assert!(dt.can_use_memcpy());
        assert!(dt.is_valid_tensor_dtype());
        assert_eq!(name.parse::<DataType>().unwrap(), dt);
        let r = dt.as_ref_type();
        assert_eq!(r.as_i32(), num + 100);
        assert_eq!(r.name(), format!("{name}_ref"));
        assert_eq!(r.proto_name(), format!("{proto}_REF"));
        assert_eq!(format!("{name}_ref").parse::<DataType>().unwrap(), r);
        assert!(!r.is_valid_tensor_dtype());
    }
    assert!(DataType::Int2.is_integer() && DataType::UInt2.is_integer());
    assert!(DataType::Float4E2M1FN.is_floating());
    assert_eq!(*DataType::all().last().unwrap(), DataType::Float4E2M1FN);
}

#[test]
fn float4_to_f32_matches_ml_dtypes_on_every_byte() {
    let want = u64s(&reference()["float4_to_f32"]);
    assert_eq!(want.len(), 256);
    for (b, &bits) in want.iter().enumerate() {
        let got = Float4E2M1FN::from_bits(b as u8).to_f32().to_bits();
        assert_eq!(u64::from(got), bits, "byte {b:#04x}");
    }
}

/// Every run's first and last input, their neighbours, and a stride of
/// inputs inside each run: all boundary, tie, NaN and inf cases are run
/// edges.
#[test]
fn float4_from_f32_matches_ml_dtypes_runs() {
    let runs = pairs(&reference()["float4_from_f32_runs"]);
    assert_eq!(runs[0].0, 0);
    let mut checked = 0u64;
    for (i, &(start, byte)) in runs.iter().enumerate() {
        let end = runs.get(i + 1).map_or(1i64 << 32, |r| r.0) - 1;
        let (start, end) = (start as u64, end as u64);
        let step = ((end - start) / 4099).max(1);
        let mut probe: Vec<u64> = (start..=end).step_by(step as usize).collect();
        probe.extend([start, start + 1, end - 1, end]);
        for bits in probe.into_iter().filter(|b| (start..=end).contains(b)) {
            let got = Float4E2M1FN::from_f32(f32::from_bits(bits as u32)).to_bits();
            assert_eq!(i64::from(got), byte, "f32 bits {bits:#010x}");
            checked += 1;
        }
    }
    assert!(checked > 60_000);
}

/// The whole table, every f32 (about a minute in release):
/// `cargo test --release --test tensor_type -- --ignored dtype::`.
#[test]
#[ignore]
fn float4_from_f32_matches_ml_dtypes_exhaustively() {
    let runs = pairs(&reference()["float4_from_f32_runs"]);
    let mut run = 0;
    for bits in 0..=u32::MAX {
        while runs.get(run + 1).is_some_and(|r| r.0 <= i64::from(bits)) {
            run += 1;
        }
        let got = Float4E2M1FN::from_f32(f32::from_bits(bits)).to_bits();
        assert_eq!(i64::from(got), runs[run].1, "f32 bits {bits:#010x}");
    }
}

#[test]
fn float4_named_cases() {
    let f = |v: f32| Float4E2M1FN::from_f32(v).to_bits();
    // Ties go to the even code.
    assert_eq!(
        [0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0].map(f),
        [0, 2, 2, 4, 4, 6, 6]
    );
    assert_eq!(
        [f32::INFINITY, f32::NEG_INFINITY, 7.0, 1e30].map(f),
        [7, 15, 7, 7]
    );
    assert_eq!([f32::NAN, -f32::NAN, -0.0, -1e-40].map(f), [8, 0, 8, 8]);
    for code in 0..16u8 {
        let v = Float4E2M1FN::from_bits(code);
        assert_eq!(Float4E2M1FN::from_f32(v.to_f32()).to_bits(), code);
    }
}

#[test]
fn int2_and_uint2_match_ml_dtypes() {
    let r = reference();
    for (b, &v) in u64s(&r["uint2_to_i32"]).iter().enumerate() {
        assert_eq!(u64::from(UInt2::from_bits(b as u8).to_u8()), v, "byte {b}");
    }
    let int2: Vec<i64> = r["int2_to_i32"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect();
    for (b, &v) in int2.iter().enumerate() {
        assert_eq!(
            i64::from(Int2::from_bits(b as u8 as i8).to_i32()),
            v,
            "byte {b}"
        );
    }
    for (v, byte) in pairs(&r["int2_from_i32"]) {
        assert_eq!(i64::from(Int2::wrapping_from_i32(v as i32).to_bits()), byte);
    }
    for (v, byte) in pairs(&r["uint2_from_i32"]) {
        assert_eq!(
            i64::from(UInt2::wrapping_from_i32(v as i32).to_bits()),
            byte
        );
    }
}

/// The fields TF 2.21's `make_tensor_proto` writes (checked in the venv):
/// `int_val` values for int2/uint2; TF decodes `float8_val` bytes for
/// float4_e2m1fn, and this crate writes them there.
#[test]
fn proto_fields_and_printing() {
    let i2 = Tensor::from_vec(
        [4],
        [0i8, 1, -2, -1].map(|v| Int2::new(v).unwrap()).to_vec(),
    )
    .unwrap();
    let p = i2.as_proto_field().unwrap();
    assert_eq!(p.int_val, [0, 1, -2, -1]);
    // TF: 081f1204120208043a160001feffffffffffffffff01ffffffffffffffffff01
    assert_eq!(
        hex::encode(prost::Message::encode_to_vec(&p)),
        "081f1204120208043a160001feffffffffffffffff01ffffffffffffffffff01"
    );
    assert_eq!(i2.summarize_value(-1, true), "[0 1 -2 -1]");
    let back = Tensor::from_proto(&p).unwrap();
    // Values agree; the bytes keep int_val's low byte (0xFE for -2), as TF.
    assert_eq!(
        back.as_slice::<Int2>().unwrap(),
        i2.as_slice::<Int2>().unwrap()
    );
    assert_eq!(back.tensor_data().unwrap(), &[0, 1, 0xfe, 0xff]);

    let u2 =
        Tensor::from_vec([4], [0u8, 1, 2, 3].map(|v| UInt2::new(v).unwrap()).to_vec()).unwrap();
    let p = u2.as_proto_field().unwrap();
    assert_eq!(
        hex::encode(prost::Message::encode_to_vec(&p)),
        "08201204120208043a0400010203"
    );
    assert_eq!(u2.summarize_value(-1, true), "[0 1 2 3]");

    let f4 = Tensor::from_vec(
        [4],
        [0.0f32, 0.5, 1.0, -6.0]
            .map(Float4E2M1FN::from_f32)
            .to_vec(),
    )
    .unwrap();
    assert_eq!(f4.summarize_value(-1, true), "[0 0.5 1 -6]");
    // TF's make_tensor_proto writes content: 082112041202080422040001020f.
    let c = f4.as_proto_tensor_content().unwrap();
    assert_eq!(
        hex::encode(prost::Message::encode_to_vec(&c)),
        "082112041202080422040001020f"
    );
    let p = f4.as_proto_field().unwrap();
    assert_eq!(&p.float8_val[..], &[0, 1, 2, 0x0f]);
    assert_eq!(Tensor::from_proto(&p).unwrap(), f4);
    // A raw byte with high bits reads as TF reads it.
    let raw = pb::TensorProto {
        dtype: 33,
        float8_val: vec![0x11u8, 0xd5].into(),
        tensor_shape: Some(TensorShape::new(&[2]).unwrap().as_proto()),
        ..Default::default()
    };
    assert_eq!(
        Tensor::from_proto(&raw).unwrap().summarize_value(-1, true),
        "[-0.5 -3]"
    );
}
