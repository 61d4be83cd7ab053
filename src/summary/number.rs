//! Number and string formatting used by `SummarizeValue`: `%g` and C escapes.
//!
//! Everything here reproduces byte for byte what TensorFlow 2.21 prints:
//!
//! * [`format_g`] is C's `printf("%.<p>g")` (glibc behaviour, correctly rounded).
//! * [`float_to_tf`] / [`double_to_tf`] are TSL's `FloatToBuffer` / `DoubleToBuffer`
//!   (the "legacy precision" round-trip rule: `%.6g`, else `%.9g`; `%.15g`, else
//!   `%.17g`), including the effect of the denormals-are-zero mode that TensorFlow's
//!   executor threads run with. This was checked against every float printed in the
//!   TF 2.21 conformance vectors; see the tests.
//! * [`utf8_safe_c_escape`] is `absl::Utf8SafeCEscape`. It returns bytes, not a
//!   `String`, because TensorFlow passes bytes >= 0x80 through untouched even when
//!   they are not valid UTF-8 (the conformance vectors contain such output).

use crate::shape::i64_of_usize;

/// Precision above which `%g` output no longer changes.
///
/// Every finite double has at most 767 significant decimal digits and a decimal
/// exponent below 309, so for any precision >= 767 the digits are exact (only zero
/// padding follows, which `%g` strips) and the `%f` style is chosen whenever the
/// `%e` style is not forced by a small exponent. Capping keeps huge precisions from
/// allocating huge strings without changing any result.
const MAX_USEFUL_PRECISION: usize = 800;

/// C's `printf("%.<precision>g", v)` for an `f64`, exactly as glibc prints it.
///
/// Rules: precision 0 counts as 1; `v` is rounded (half-to-even on its exact binary
/// value) to `p` significant digits; with `X` the decimal exponent of the rounded
/// value, the `%e` style is used if `X < -4 || X >= p`, otherwise the `%f` style;
/// trailing zeros and a trailing `.` are removed; the exponent has a sign and at
/// least two digits. Non-finite values print as `nan`, `-nan`, `inf`, `-inf`, and
/// the sign of zero is kept (`-0`).
///
/// ```text
/// assert_eq!(format_g(1e10, 6), "1e+10");
/// assert_eq!(format_g(0.0001, 6), "0.0001");
/// assert_eq!(format_g(0.00001, 6), "1e-05");
/// assert_eq!(format_g(-0.0, 6), "-0");
/// assert_eq!(format_g(2.5, 1), "2");
/// ```
pub fn format_g(v: f64, precision: usize) -> String {
    let mut out = String::new();
    if v.is_sign_negative() {
        out.push('-');
    }
    if v.is_nan() {
        out.push_str("nan");
        return out;
    }
    let a = v.abs();
    if a.is_infinite() {
        out.push_str("inf");
        return out;
    }
    let p = precision.clamp(1, MAX_USEFUL_PRECISION);

    // Rust's `{:e}` with an explicit precision is exact and rounds half to even,
    // so it yields C's digits; only the layout differs ("1.2345e-5").
    let sci = format!("{:.*e}", p - 1, a);
    // `{:e}` of a finite float is always `<mantissa>e<exponent>`; were it
    // not, its own text beats a wrong exponent.
    let Some((mantissa, exp)) = sci
        .split_once('e')
        .and_then(|(m, e)| Some((m, e.parse::<i64>().ok()?)))
    else {
        debug_assert!(false, "`{{:e}}` gave {sci}");
        out.push_str(&sci);
        return out;
    };
    let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    // `p` is at most `MAX_USEFUL_PRECISION` after the clamp above.
    let p_i = i64_of_usize(p);

    if exp < -4 || exp >= p_i {
        // %e style: d[.ddd]e±XX
        let (first, rest) = digits
            .split_at_checked(1)
            .unwrap_or((digits.as_slice(), &[]));
        push_digits(&mut out, first);
        let rest = trim_trailing_zeros(rest);
        if !rest.is_empty() {
            out.push('.');
            push_digits(&mut out, rest);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exp.unsigned_abs()));
    } else if exp >= 0 {
        // %f style, |v| >= 1 (or zero): integer part has exp + 1 digits (<= p).
        let int_len = usize::try_from(exp).map_or(digits.len(), |e| e + 1);
        let (int_part, frac) = digits
            .split_at_checked(int_len)
            .unwrap_or((digits.as_slice(), &[]));
        push_digits(&mut out, int_part);
        let frac = trim_trailing_zeros(frac);
        if !frac.is_empty() {
            out.push('.');
            push_digits(&mut out, frac);
        }
    } else {
        // %f style, 1e-4 <= |v| < 1: "0." then -exp-1 zeros, then the digits.
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        push_digits(&mut out, trim_trailing_zeros(&digits));
    }
    out
}

fn push_digits(out: &mut String, digits: &[u8]) {
    out.extend(digits.iter().map(|&d| char::from(d)));
}

fn trim_trailing_zeros(digits: &[u8]) -> &[u8] {
    let keep = digits.iter().rposition(|&d| d != b'0').map_or(0, |i| i + 1);
    digits.get(..keep).unwrap_or(digits)
}

/// How TensorFlow prints one `float` element (also used for half, bfloat16 and
/// the printable float8 types after their exact conversion to `f32`).
///
/// This is TSL's `FloatToBuffer`: `%.6g`, or `%.9g` if the `%.6g` text does not
/// parse back to the same `f32`. NaN prints as `nan` or `-nan` (sign kept, payload
/// ignored); infinities as `inf` / `-inf`.
///
/// Subnormal `f32` values print as a zero of the same sign (`0` / `-0`): TensorFlow
/// runs kernels with denormals-are-zero set, and the `float` → `double` promotion for
/// `snprintf` then flushes them. TF 2.21 prints the subnormals `0x000116c2` (float)
/// and `0x0001` (bfloat16) as `0`.
///
/// ```text
/// assert_eq!(float_to_tf(1.0), "1");
/// assert_eq!(float_to_tf(1.0 / 3.0), "0.333333343");
/// assert_eq!(float_to_tf(1e10), "1e+10");
/// assert_eq!(float_to_tf(f32::from_bits(1)), "0");
/// ```
pub(crate) fn float_to_tf(v: f32) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    // Denormals-are-zero: keep the sign, drop the magnitude.
    let v = if v.is_subnormal() {
        0.0f32.copysign(v)
    } else {
        v
    };
    let short = format_g(f64::from(v), 6);
    // Rust's f32 parsing is correctly rounded, like the strtof TSL uses. `==` (not a
    // bit comparison) matches C's `!=` test: -0 == 0.
    if short.parse::<f32>().is_ok_and(|back| back == v) {
        short
    } else {
        format_g(f64::from(v), 9)
    }
}

/// `DBL_MAX / 1.000000000000001`: above this TSL skips the round-trip test.
const DOUBLE_PRECISION_CHECK_MAX: f64 = f64::MAX / 1.000000000000001;

/// How TensorFlow prints one `double` element.
///
/// This is TSL's `DoubleToBuffer`: `%.15g`, or `%.17g` if the `%.15g` text does
/// not parse back to the same `f64` (or `|v| > DBL_MAX / 1.000000000000001`, where
/// TSL skips the test). NaN prints as `nan` or `-nan`; infinities as `inf` / `-inf`.
///
/// Subnormal doubles always print with `%.15g`: `snprintf` reads the exact bits, but
/// the round-trip comparison runs under denormals-are-zero, where any two subnormals
/// compare equal (see [`float_to_tf`]). The vectors contain no subnormal double, so
/// this case follows from the `f32` evidence rather than direct observation.
///
/// ```text
/// assert_eq!(double_to_tf(0.1), "0.1");
/// assert_eq!(double_to_tf(1.0 / 3.0), "0.33333333333333331");
/// assert_eq!(double_to_tf(1e-5), "1e-05");
/// ```
pub(crate) fn double_to_tf(v: f64) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    if v.abs() <= DOUBLE_PRECISION_CHECK_MAX {
        let short = format_g(v, 15);
        if v.is_subnormal() || short.parse::<f64>().is_ok_and(|back| back == v) {
            return short;
        }
    }
    format_g(v, 17)
}

/// `absl::Utf8SafeCEscape`: how TensorFlow prints one string element.
///
/// `\n`, `\r`, `\t`, `"`, `'` and `\` become two-character escapes; every other byte
/// below 0x20, and 0x7F, becomes a three-digit octal escape (`\001`); all other bytes,
/// including every byte >= 0x80, are copied unchanged.
///
/// The result is bytes, not a `String`: invalid UTF-8 in the input stays invalid in
/// the output, exactly as TensorFlow 2.21 prints it (its conformance vectors contain
/// `SummarizeValue` output that is not valid UTF-8). Callers that need text can use
/// `String::from_utf8_lossy`, at the cost of byte exactness.
///
/// ```text
/// assert_eq!(utf8_safe_c_escape(b"a\n\"\x01\xff"), b"a\\n\\\"\\001\xff".to_vec());
/// ```
pub(crate) fn utf8_safe_c_escape(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for &b in s {
        match b {
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'"' => out.extend_from_slice(b"\\\""),
            b'\'' => out.extend_from_slice(b"\\'"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x00..=0x1f | 0x7f => {
                out.push(b'\\');
                out.push(b'0' + (b >> 6));
                out.push(b'0' + ((b >> 3) & 7));
                out.push(b'0' + (b & 7));
            }
            _ => out.push(b),
        }
    }
    out
}
