//! TF's printing of single elements, as `SummarizeValue` shows them: C's
//! `%g` (glibc), TSL's `FloatToBuffer` / `DoubleToBuffer` round-trip rule
//! (with TF's denormals-are-zero), and `absl::Utf8SafeCEscape` for strings.
//!
//! The reference cases are `tests/data/summary/number_format.json`, written
//! and checked by `scripts/number_format_reference.py` (against Python's `%g`
//! and against TensorFlow 2.21 itself). Elements go through the public path,
//! the `SummarizeValue` of a scalar tensor; `%g` at an arbitrary precision
//! has no public path, so it is called through the `#[doc(hidden)]` export
//! `tftensor::format_g`.

use std::sync::OnceLock;

use bytes::Bytes;
use serde_json::Value;
use tftensor::{Tensor, format_g};

/// The parsed reference cases (read once per test binary).
fn cases() -> &'static Value {
    static CASES: OnceLock<Value> = OnceLock::new();
    CASES.get_or_init(|| {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/summary/number_format.json"
        ))
        .unwrap();
        serde_json::from_str(&text).unwrap()
    })
}

/// The rows of one table, each a JSON array.
fn rows(table: &str) -> &'static [Value] {
    cases()[table].as_array().unwrap()
}

fn bits(v: &Value) -> u64 {
    u64::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap()
}

/// What TF prints for one element: a scalar tensor's `SummarizeValue`.
fn scalar_text(t: Tensor) -> Vec<u8> {
    assert_eq!(t.dims(), 0);
    t.summarize_value_bytes(1, false)
}

fn float_text(v: f32) -> String {
    let no_dims: [i64; 0] = [];
    String::from_utf8(scalar_text(Tensor::from_vec(no_dims, vec![v]).unwrap())).unwrap()
}

fn double_text(v: f64) -> String {
    let no_dims: [i64; 0] = [];
    String::from_utf8(scalar_text(Tensor::from_vec(no_dims, vec![v]).unwrap())).unwrap()
}

/// The escaped bytes (v1, so without print_v2's quotes).
fn string_text(s: &[u8]) -> Vec<u8> {
    let no_dims: [i64; 0] = [];
    scalar_text(Tensor::from_vec(no_dims, vec![Bytes::copy_from_slice(s)]).unwrap())
}

#[test]
fn format_g_matches_c_printf_table() {
    let table = rows("printf_g");
    assert_eq!(table.len(), 388);
    for row in table {
        let (bits, p, want) = (bits(&row[0]), row[1].as_u64().unwrap(), text(&row[2]));
        let v = f64::from_bits(bits);
        let p = usize::try_from(p).unwrap();
        assert_eq!(format_g(v, p), want, "%.{p}g of {v:e} (bits {bits:#018x})");
    }
}

#[test]
fn float_to_tf_matches_tf_2_21() {
    let table = rows("tf_float");
    assert_eq!(table.len(), 107);
    for row in table {
        let bits = u32::try_from(bits(&row[0])).unwrap();
        assert_eq!(
            float_text(f32::from_bits(bits)),
            text(&row[1]),
            "bits {bits:#010x} ({})",
            text(&row[2])
        );
    }
}

#[test]
fn double_to_tf_matches_tf_2_21() {
    let table = rows("tf_double");
    assert_eq!(table.len(), 56);
    for row in table {
        let bits = bits(&row[0]);
        assert_eq!(
            double_text(f64::from_bits(bits)),
            text(&row[1]),
            "bits {bits:#018x}"
        );
    }
}

#[test]
fn escape_matches_tf_2_21() {
    let table = rows("tf_strings");
    assert_eq!(table.len(), 14);
    for row in table {
        let input = hex::decode(text(&row[0])).unwrap();
        let want = hex::decode(text(&row[1])).unwrap();
        assert_eq!(string_text(&input), want, "input {input:x?}");
    }
}

#[test]
fn format_g_examples() {
    assert_eq!(format_g(1e10, 6), "1e+10");
    assert_eq!(format_g(0.0001, 6), "0.0001");
    assert_eq!(format_g(0.00001, 6), "1e-05");
    assert_eq!(format_g(123456.0, 6), "123456");
    assert_eq!(format_g(1234567.0, 6), "1.23457e+06");
    assert_eq!(format_g(999999.5, 6), "1e+06");
    assert_eq!(format_g(1.5e300, 6), "1.5e+300");
    assert_eq!(format_g(-0.0, 6), "-0");
    assert_eq!(format_g(0.0, 0), "0");
    assert_eq!(format_g(2.5, 1), "2");
    assert_eq!(format_g(3.5, 1), "4");
    assert_eq!(format_g(2.5, 0), "2");
}

#[test]
fn format_g_non_finite() {
    for p in [0, 1, 6, 17, 1000] {
        assert_eq!(format_g(f64::NAN, p), "nan");
        assert_eq!(format_g(-f64::NAN, p), "-nan");
        assert_eq!(format_g(f64::from_bits(0x7ff0_0000_0000_0001), p), "nan");
        assert_eq!(format_g(f64::from_bits(0xfff8_0000_0000_0001), p), "-nan");
        assert_eq!(format_g(f64::INFINITY, p), "inf");
        assert_eq!(format_g(f64::NEG_INFINITY, p), "-inf");
    }
}

#[test]
fn format_g_huge_precision_is_exact_and_capped() {
    // '%.800g' % 2**-1074 is all 751 significant digits (757 chars in total).
    let tiny = f64::from_bits(1);
    let s = format_g(tiny, 800);
    assert_eq!(s.len(), 757);
    assert!(s.starts_with("4.940656458412465441765687928682213723650598"));
    assert!(s.ends_with("447265625e-324"));
    assert_eq!(format_g(tiny, 767), s);
    assert_eq!(format_g(tiny, usize::MAX), s);
    // '%.400g' % 1e300 is the exact 301-digit integer.
    let big = format_g(1e300, 400);
    assert_eq!(big.len(), 301);
    assert!(big.starts_with("1000000000000000052504760255204420248704468581108"));
    assert_eq!(format_g(1e300, usize::MAX), big);
    assert_eq!(format_g(-f64::MAX, usize::MAX).len(), 310);
}

#[test]
fn float_to_tf_rule() {
    assert_eq!(float_text(1.0), "1");
    assert_eq!(float_text(123.45), "123.45");
    assert_eq!(float_text(1e10), "1e+10");
    assert_eq!(float_text(1.0 / 3.0), "0.333333343");
    assert_eq!(float_text(0.1), "0.1");
    // bfloat16 0.1 widened to f32.
    assert_eq!(float_text(f32::from_bits(0x3dcd_0000)), "0.100097656");
    assert_eq!(float_text(f32::MAX), "3.40282347e+38");
    assert_eq!(float_text(f32::MIN_POSITIVE), "1.17549435e-38");
    assert_eq!(float_text(-0.0), "-0");
    assert_eq!(float_text(f32::INFINITY), "inf");
    assert_eq!(float_text(f32::NEG_INFINITY), "-inf");
    assert_eq!(float_text(f32::NAN), "nan");
    assert_eq!(float_text(f32::from_bits(0xffc0_0000)), "-nan");
    assert_eq!(float_text(f32::from_bits(0x7f80_0001)), "nan");
    // Denormals-are-zero: subnormals print as a signed zero.
    assert_eq!(float_text(f32::from_bits(1)), "0");
    assert_eq!(float_text(f32::from_bits(0x007f_ffff)), "0");
    assert_eq!(float_text(f32::from_bits(0x8000_0001)), "-0");
}

#[test]
fn double_to_tf_rule() {
    assert_eq!(double_text(0.1), "0.1");
    assert_eq!(double_text(1.0 / 3.0), "0.33333333333333331");
    assert_eq!(double_text(1e-5), "1e-05");
    assert_eq!(double_text(100000.0), "100000");
    assert_eq!(double_text(f64::MAX), "1.7976931348623157e+308");
    assert_eq!(double_text(-f64::MAX), "-1.7976931348623157e+308");
    assert_eq!(double_text(f64::MIN_POSITIVE), "2.2250738585072014e-308");
    assert_eq!(double_text(-0.0), "-0");
    assert_eq!(double_text(f64::INFINITY), "inf");
    assert_eq!(double_text(f64::NEG_INFINITY), "-inf");
    assert_eq!(double_text(f64::NAN), "nan");
    assert_eq!(double_text(-f64::NAN), "-nan");
    // Subnormals keep %.15g (the round-trip test is moot under DAZ).
    assert_eq!(double_text(f64::from_bits(1)), "4.94065645841247e-324");
    assert_eq!(
        double_text(f64::from_bits(0x000f_ffff_ffff_ffff)),
        "2.2250738585072e-308"
    );
}

#[test]
fn escape_rules() {
    assert_eq!(string_text(b""), b"");
    assert_eq!(string_text(b"plain text ~"), b"plain text ~");
    assert_eq!(
        string_text(b"\n\r\t\"'\\"),
        b"\\n\\r\\t\\\"\\'\\\\".to_vec()
    );
    assert_eq!(
        string_text(b"\x00\x01\x07\x08\x0b\x0c\x1b\x1f\x7f"),
        b"\\000\\001\\007\\010\\013\\014\\033\\037\\177".to_vec()
    );
    // Bytes >= 0x80 pass through, valid UTF-8 or not.
    assert_eq!(string_text("é∑".as_bytes()), "é∑".as_bytes());
    assert_eq!(string_text(b"\x80\xff\xc3"), b"\x80\xff\xc3".to_vec());
    // Every byte: escaped forms are 2 or 4 bytes, everything else is copied.
    for b in 0u8..=255 {
        let out = string_text(&[b]);
        let want_len = match b {
            b'\n' | b'\r' | b'\t' | b'"' | b'\'' | b'\\' => 2,
            0x00..=0x1f | 0x7f => 4,
            _ => 1,
        };
        assert_eq!(out.len(), want_len, "byte {b:#04x}");
    }
}
