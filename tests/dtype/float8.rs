//! The five float8 element types against ml_dtypes (which TF uses for them):
//! every byte widened to `f32`, 2,216 edge-case `f32` inputs narrowed, the
//! special values, constants, comparison, negation, formatting and layout.
//!
//! The reference tables are `tests/data/float8/ml_dtypes.json`, written by
//! `scripts/float8_reference.py` with ml_dtypes 0.6.0 / numpy 2.4.6.

use std::sync::OnceLock;

use serde_json::Value;
use tftensor::{Float8E4M3B11FNUZ, Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ};

/// The parsed reference tables (read once per test binary).
fn tables() -> &'static Value {
    static TABLES: OnceLock<Value> = OnceLock::new();
    TABLES.get_or_init(|| {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/float8/ml_dtypes.json"
        ))
        .unwrap();
        serde_json::from_str(&text).unwrap()
    })
}

fn u32_list(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| u32::try_from(x.as_u64().unwrap()).unwrap())
        .collect()
}

/// `to_f32[name]`: the `f32` bits of each byte 0..=255.
fn to_f32_table(name: &str) -> Vec<u32> {
    let t = u32_list(&tables()["to_f32"][name]);
    assert_eq!(t.len(), 256, "{name}");
    t
}

/// `from_f32_inputs`: the `f32` bit patterns narrowed in `from_f32`.
fn from_f32_inputs() -> Vec<u32> {
    let t = u32_list(&tables()["from_f32_inputs"]);
    assert_eq!(t.len(), 2216);
    t
}

/// `from_f32[name]`: one byte per input, in hex.
fn from_f32_table(name: &str) -> Vec<u8> {
    hex::decode(tables()["from_f32"][name].as_str().unwrap()).unwrap()
}

/// Runs the shared checks for one type against its reference tables.
macro_rules! check_against_ml_dtypes {
    ($test:ident, $ty:ident, $name:literal) => {
        #[test]
        fn $test() {
            // to_f32: all 256 bytes, exact bits (NaN sign and payload too).
            let to_f32 = to_f32_table($name);
            for b in 0..=255u8 {
                let got = $ty::from_bits(b).to_f32().to_bits();
                assert_eq!(got, to_f32[b as usize], "to_f32({b:#04x})");
                assert_eq!(f32::from($ty::from_bits(b)).to_bits(), got);
                let wide = $ty::from_bits(b).to_f64();
                assert_eq!(wide.to_bits(), f64::from(f32::from_bits(got)).to_bits());
            }
            // from_f32 on the edge-case inputs.
            let inputs = from_f32_inputs();
            let expected = from_f32_table($name);
            assert_eq!(expected.len(), inputs.len());
            for (&x, &want) in inputs.iter().zip(&expected) {
                let got = $ty::from_f32(f32::from_bits(x)).to_bits();
                assert_eq!(got, want, "from_f32({x:#010x})");
            }
            // Every non-NaN byte survives the round trip through f32; a NaN
            // comes back as the type's NaN, negated (as ml_dtypes negates)
            // when the byte's sign bit is set.
            for b in 0..=255u8 {
                let v = $ty::from_bits(b);
                let back = $ty::from_f32(v.to_f32());
                if v.is_nan() {
                    assert!(back.is_nan());
                    let nan = if b >= 0x80 { -$ty::NAN } else { $ty::NAN };
                    assert_eq!(back.to_bits(), nan.to_bits());
                } else {
                    assert_eq!(back.to_bits(), b);
                }
            }
        }
    };
}

check_against_ml_dtypes!(e5m2_matches_ml_dtypes, Float8E5M2, "float8_e5m2");
check_against_ml_dtypes!(e4m3fn_matches_ml_dtypes, Float8E4M3FN, "float8_e4m3fn");
check_against_ml_dtypes!(
    e4m3fnuz_matches_ml_dtypes,
    Float8E4M3FNUZ,
    "float8_e4m3fnuz"
);
check_against_ml_dtypes!(
    e4m3b11fnuz_matches_ml_dtypes,
    Float8E4M3B11FNUZ,
    "float8_e4m3b11fnuz"
);
check_against_ml_dtypes!(
    e5m2fnuz_matches_ml_dtypes,
    Float8E5M2FNUZ,
    "float8_e5m2fnuz"
);

#[test]
fn special_values() {
    // Bytes that are NaN, per ml_dtypes.
    let nans = |f: fn(u8) -> bool| (0..=255u8).filter(|&b| f(b)).collect::<Vec<_>>();
    assert_eq!(
        nans(|b| Float8E5M2::from_bits(b).is_nan()),
        [0x7d, 0x7e, 0x7f, 0xfd, 0xfe, 0xff]
    );
    assert_eq!(nans(|b| Float8E4M3FN::from_bits(b).is_nan()), [0x7f, 0xff]);
    assert_eq!(nans(|b| Float8E4M3FNUZ::from_bits(b).is_nan()), [0x80]);
    assert_eq!(nans(|b| Float8E4M3B11FNUZ::from_bits(b).is_nan()), [0x80]);
    assert_eq!(nans(|b| Float8E5M2FNUZ::from_bits(b).is_nan()), [0x80]);
    assert_eq!(
        nans(|b| Float8E5M2::from_bits(b).is_infinite()),
        [0x7c, 0xfc]
    );
    for b in 0..=255u8 {
        assert!(!Float8E4M3FN::from_bits(b).is_infinite());
        assert!(!Float8E4M3FNUZ::from_bits(b).is_infinite());
        assert!(!Float8E4M3B11FNUZ::from_bits(b).is_infinite());
        assert!(!Float8E5M2FNUZ::from_bits(b).is_infinite());
    }
    assert_eq!(
        Float8E4M3FNUZ::from_bits(0x80).to_f32().to_bits(),
        0xffc0_0000
    );
    assert_eq!(
        Float8E4M3FN::from_bits(0xff).to_f32().to_bits(),
        0xffc0_0000
    );
    assert_eq!(Float8E5M2::from_bits(0x7d).to_f32().to_bits(), 0x7fc0_0000);

    // from_f32 of the special f32 values (ml_dtypes: np.float32([nan, -nan,
    // inf, -inf, -0.0, 1e9, -1e9, -1e-30]).astype(T).view(np.uint8)).
    let inputs = [
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -0.0,
        1e9,
        -1e9,
        -1e-30,
    ];
    let conv = |f: fn(f32) -> u8| inputs.iter().map(|&x| f(x)).collect::<Vec<_>>();
    assert_eq!(
        conv(|x| Float8E5M2::from_f32(x).to_bits()),
        [0x7e, 0xfe, 0x7c, 0xfc, 0x80, 0x7c, 0xfc, 0x80]
    );
    assert_eq!(
        conv(|x| Float8E4M3FN::from_f32(x).to_bits()),
        [0x7f, 0xff, 0x7f, 0xff, 0x80, 0x7f, 0xff, 0x80]
    );
    for f in [
        (|x| Float8E4M3FNUZ::from_f32(x).to_bits()) as fn(f32) -> u8,
        |x| Float8E4M3B11FNUZ::from_f32(x).to_bits(),
        |x| Float8E5M2FNUZ::from_f32(x).to_bits(),
    ] {
        assert_eq!(conv(f), [0x80, 0x80, 0x80, 0x80, 0x00, 0x80, 0x80, 0x00]);
    }
}

#[test]
fn constants_match_ml_dtypes_finfo() {
    // (max, smallest_normal, smallest_subnormal, eps) from ml_dtypes.finfo.
    assert_eq!(Float8E5M2::MAX.to_f32(), 57344.0);
    assert_eq!(Float8E5M2::MIN.to_f32(), -57344.0);
    assert_eq!(Float8E5M2::MIN_POSITIVE.to_f32(), 2f32.powi(-14));
    assert_eq!(Float8E5M2::MIN_POSITIVE_SUBNORMAL.to_f32(), 2f32.powi(-16));
    assert_eq!(Float8E5M2::EPSILON.to_f32(), 0.25);
    assert_eq!(Float8E4M3FN::MAX.to_f32(), 448.0);
    assert_eq!(Float8E4M3FN::MIN.to_f32(), -448.0);
    assert_eq!(Float8E4M3FN::MIN_POSITIVE.to_f32(), 2f32.powi(-6));
    assert_eq!(Float8E4M3FN::MIN_POSITIVE_SUBNORMAL.to_f32(), 2f32.powi(-9));
    assert_eq!(Float8E4M3FN::EPSILON.to_f32(), 0.125);
    assert_eq!(Float8E4M3FNUZ::MAX.to_f32(), 240.0);
    assert_eq!(Float8E4M3FNUZ::MIN.to_f32(), -240.0);
    assert_eq!(Float8E4M3FNUZ::MIN_POSITIVE.to_f32(), 2f32.powi(-7));
    assert_eq!(
        Float8E4M3FNUZ::MIN_POSITIVE_SUBNORMAL.to_f32(),
        2f32.powi(-10)
    );
    assert_eq!(Float8E4M3FNUZ::EPSILON.to_f32(), 0.125);
    assert_eq!(Float8E4M3B11FNUZ::MAX.to_f32(), 30.0);
    assert_eq!(Float8E4M3B11FNUZ::MIN.to_f32(), -30.0);
    assert_eq!(Float8E4M3B11FNUZ::MIN_POSITIVE.to_f32(), 2f32.powi(-10));
    assert_eq!(
        Float8E4M3B11FNUZ::MIN_POSITIVE_SUBNORMAL.to_f32(),
        2f32.powi(-13)
    );
    assert_eq!(Float8E4M3B11FNUZ::EPSILON.to_f32(), 0.125);
    assert_eq!(Float8E5M2FNUZ::MAX.to_f32(), 57344.0);
    assert_eq!(Float8E5M2FNUZ::MIN.to_f32(), -57344.0);
    assert_eq!(Float8E5M2FNUZ::MIN_POSITIVE.to_f32(), 2f32.powi(-15));
    assert_eq!(
        Float8E5M2FNUZ::MIN_POSITIVE_SUBNORMAL.to_f32(),
        2f32.powi(-17)
    );
    assert_eq!(Float8E5M2FNUZ::EPSILON.to_f32(), 0.25);
    assert_eq!(
        [
            Float8E5M2::ONE.to_f32(),
            Float8E4M3FN::ONE.to_f32(),
            Float8E4M3FNUZ::ONE.to_f32(),
            Float8E4M3B11FNUZ::ONE.to_f32(),
            Float8E5M2FNUZ::ONE.to_f32()
        ],
        [1.0; 5]
    );
    assert_eq!(Float8E5M2::INFINITY.to_f32(), f32::INFINITY);
    assert_eq!(Float8E5M2::NEG_INFINITY.to_f32(), f32::NEG_INFINITY);
    assert_eq!(Float8E5M2::NEG_ZERO.to_f32().to_bits(), 0x8000_0000);
    assert_eq!(Float8E4M3FN::NEG_ZERO.to_f32().to_bits(), 0x8000_0000);
    assert_eq!(
        [
            Float8E5M2::NAN.to_bits(),
            Float8E4M3FN::NAN.to_bits(),
            Float8E4M3FNUZ::NAN.to_bits(),
            Float8E4M3B11FNUZ::NAN.to_bits(),
            Float8E5M2FNUZ::NAN.to_bits()
        ],
        [0x7e, 0x7f, 0x80, 0x80, 0x80]
    );
}

#[test]
fn equality_and_ordering_are_ieee_like() {
    assert_ne!(Float8E5M2::NAN, Float8E5M2::NAN);
    assert_ne!(Float8E4M3FNUZ::NAN, Float8E4M3FNUZ::NAN);
    assert_eq!(Float8E5M2::from_bits(0x80), Float8E5M2::from_bits(0x00));
    assert_eq!(Float8E4M3FN::from_bits(0x80), Float8E4M3FN::from_bits(0x00));
    assert_eq!(Float8E4M3FN::NAN.partial_cmp(&Float8E4M3FN::ONE), None);
    assert!(Float8E5M2::NEG_INFINITY < Float8E5M2::MIN);
    assert!(Float8E5M2::MAX < Float8E5M2::INFINITY);
    assert!(Float8E4M3B11FNUZ::MIN < Float8E4M3B11FNUZ::ZERO);
    // Each non-NaN, non-zero byte equals only itself.
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            let (x, y) = (Float8E5M2FNUZ::from_bits(a), Float8E5M2FNUZ::from_bits(b));
            assert_eq!(x == y, a == b && a != 0x80, "{a:#04x} vs {b:#04x}");
            let (x, y) = (Float8E5M2::from_bits(a), Float8E5M2::from_bits(b));
            let zero = a & 0x7f == 0 && b & 0x7f == 0;
            assert_eq!(
                x == y,
                (a == b && !x.is_nan()) || zero,
                "{a:#04x} vs {b:#04x}"
            );
        }
    }
}

#[test]
fn negation_follows_ml_dtypes() {
    assert_eq!((-Float8E5M2::ZERO).to_bits(), 0x80);
    assert_eq!((-Float8E5M2::NAN).to_bits(), 0xfe);
    assert_eq!((-Float8E4M3FN::ONE).to_bits(), 0xb8);
    assert_eq!((-Float8E4M3FNUZ::ZERO).to_bits(), 0x00);
    assert_eq!((-Float8E4M3FNUZ::NAN).to_bits(), 0x80);
    assert_eq!((-Float8E4M3B11FNUZ::ONE).to_bits(), 0xd8);
    assert_eq!((-Float8E5M2FNUZ::MAX).to_bits(), 0xff);
    for b in 0..=255u8 {
        let v = Float8E4M3FNUZ::from_bits(b);
        let n = -v;
        if !v.is_nan() {
            assert_eq!(n.to_f32(), -v.to_f32());
        }
    }
}

#[test]
fn formatting_shows_the_f32_value() {
    assert_eq!(format!("{:?}", Float8E5M2::from_bits(0x35)), "0.3125");
    assert_eq!(format!("{:?}", Float8E4M3FN::ONE), "1.0");
    assert_eq!(format!("{}", Float8E4M3FN::ONE), "1");
    assert_eq!(format!("{}", Float8E4M3FNUZ::NAN), "NaN");
    assert_eq!(format!("{}", Float8E5M2::NEG_INFINITY), "-inf");
    assert_eq!(format!("{:?}", Float8E4M3B11FNUZ::MAX), "30.0");
}

#[test]
fn pod_layout() {
    assert_eq!(core::mem::size_of::<Float8E5M2>(), 1);
    assert_eq!(core::mem::size_of::<Float8E4M3FN>(), 1);
    assert_eq!(core::mem::size_of::<Float8E4M3FNUZ>(), 1);
    assert_eq!(core::mem::size_of::<Float8E4M3B11FNUZ>(), 1);
    assert_eq!(core::mem::size_of::<Float8E5M2FNUZ>(), 1);
    let raw = [0x3cu8, 0x80, 0x7c];
    let v: &[Float8E5M2] = bytemuck::cast_slice(&raw);
    let vals: Vec<f32> = v.iter().map(|x| x.to_f32()).collect();
    assert_eq!(vals, [1.0, -0.0, f32::INFINITY]);
    assert_eq!(bytemuck::cast_slice::<Float8E5M2, u8>(v), raw);
    assert_eq!(Float8E4M3FNUZ::default().to_bits(), 0);
}

#[test]
fn conversions_are_const() {
    const X: Float8E4M3FN = Float8E4M3FN::from_f32(2.5);
    const Y: f32 = X.to_f32();
    assert_eq!(X.to_bits(), 0x42);
    assert_eq!(Y, 2.5);
}
