//! `SummarizeValue`, `DebugString`, `DeviceSafeDebugString`, `Display` and
//! `Debug`: TF's own tests (tensor_test.cc) plus the corner cases of TF's
//! printing rules.

use bytes::Bytes;
use half::{bf16, f16};
use num_complex::Complex;
use tftensor::{
    DataType, Element, Float8E4M3B11FNUZ, Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Int4,
    PartialTensorShape, QInt8, QInt32, QUInt8, QUInt16, ResourceHandle, Tensor, UInt4, Variant,
};

/// TF's `MkTensor`: `values` cycled over the shape, row-major.
fn mk<T: Element>(shape: &[usize], values: &[T]) -> Tensor {
    let n: usize = shape.iter().product();
    let data: Vec<T> = values.iter().cycle().take(n).cloned().collect();
    Tensor::from_vec(shape, data).unwrap()
}

fn strings(words: &[&str]) -> Vec<Bytes> {
    words
        .iter()
        .map(|w| Bytes::copy_from_slice(w.as_bytes()))
        .collect()
}

/// `SummarizeValue.Uninitialized`: a shape with elements but no buffer
/// (TF's `SubSlice` of a dim-0-of-0 tensor makes one).
#[test]
fn uninitialized() {
    let x = Tensor::new(DataType::Int32, [0, 4, 4])
        .unwrap()
        .sub_slice(0)
        .unwrap();
    assert_eq!(x.shape().dim_sizes(), vec![4, 4]);
    assert!(!x.is_initialized());
    assert_eq!(
        x.summarize_value(16, false),
        "uninitialized Tensor of 16 elements of type 3"
    );
    assert_eq!(
        x.summarize_value(-1, true),
        "uninitialized Tensor of 16 elements of type 3"
    );
    assert_eq!(
        x.debug_string(),
        "Tensor<type: int32 shape: [4,4] values: uninitialized Tensor of 16 elements of type 3>"
    );
    // A zero limit reads nothing, so no message.
    assert_eq!(x.summarize_value(0, false), "...");
    assert_eq!(
        format!("{x:?}"),
        "Tensor { dtype: int32, shape: [4,4], values: uninitialized Tensor of 16 elements of type 3, buffer: none }"
    );
}

/// `SummarizeValue/SimpleNum.MultiLength`, over all 16 dtypes TF lists.
#[test]
fn simple_num_multi_length() {
    fn check<T: Element>(from_int: impl Fn(i32) -> T) {
        let vals: Vec<T> = [1, 2, 3, 4, 0].into_iter().map(from_int).collect();
        let dt = T::DTYPE;
        assert_eq!(
            mk(&[5], &vals).summarize_value(16, false),
            "1 2 3 4 0",
            "{dt}"
        );
        assert_eq!(
            mk(&[2, 2], &vals).summarize_value(16, false),
            "[1 2][3 4]",
            "{dt}"
        );
        let x4 = mk(&[2, 2, 1, 1], &vals);
        assert_eq!(
            x4.summarize_value(16, false),
            "[[[1]][[2]]][[[3]][[4]]]",
            "{dt}"
        );
        assert_eq!(
            x4.summarize_value(3, false),
            "[[[1]][[2]]][[[3]]]...",
            "{dt}"
        );
        assert_eq!(mk::<T>(&[0], &[]).summarize_value(16, false), "", "{dt}");
    }
    check(|v| QUInt8(v as u8));
    check(|v| QUInt16(v as u16));
    check(|v| v as u8);
    check(|v| v as u16);
    check(|v| v as u32);
    check(|v| v as u64);
    check(|v| v as i8);
    check(|v| v as i16);
    check(|v| v);
    check(|v| v as i64);
    check(|v| Float8E4M3FN::from_f32(v as f32));
    check(|v| Float8E5M2::from_f32(v as f32));
    check(|v| f16::from_f32(v as f32));
    check(|v| bf16::from_f32(v as f32));
    check(|v| v as f32);
    check(|v| v as f64);
}

/// `SummarizeValue.INT32Dims`.
#[test]
fn int32_dims() {
    let x = mk(&[3, 4], &(1..=12).collect::<Vec<i32>>());
    assert_eq!(x.summarize_value(3, false), "[1 2 3...]...");
    assert_eq!(
        x.summarize_value(10, false),
        "[1 2 3 4][5 6 7 8][9 10...]..."
    );
}

/// `SummarizeValue.BOOL`.
#[test]
fn bool_v1() {
    let x = mk(&[5], &[false, true, true]);
    assert_eq!(x.summarize_value(16, false), "0 1 1 0 1");
    assert_eq!(x.summarize_value(3, false), "0 1 1...");
}

/// `SummarizeValue.STRING`.
#[test]
fn string_v1() {
    let words = strings(&["one", "two", "three", "four", "five"]);
    assert_eq!(
        mk(&[5], &words).summarize_value(16, false),
        "one two three four five"
    );
    assert_eq!(
        mk(&[5, 1, 5], &words).summarize_value(6, false),
        "[[one two three four five]][[one...]]..."
    );
}

/// `SummarizeValue.INT32_PRINT_V2` and `FLOAT_PRINT_V2` (same expectations).
#[test]
fn int32_and_float_print_v2() {
    fn check<T: Element>(vals: &[T]) {
        let x = mk(&[5], vals);
        assert_eq!(x.summarize_value(16, true), "[1 2 3 4 0]");
        assert_eq!(x.summarize_value(-1, true), "[1 2 3 4 0]");
        assert_eq!(x.summarize_value(2, true), "[1 2 ... 4 0]");
        assert_eq!(x.summarize_value(1, true), "[1 ... 0]");
        assert_eq!(
            mk(&[2, 2], vals).summarize_value(16, true),
            "[[1 2]\n [3 4]]"
        );
        assert_eq!(
            mk(&[2, 2, 1, 1], vals).summarize_value(16, true),
            "[[[[1]]\n\n  [[2]]]\n\n\n [[[3]]\n\n  [[4]]]]"
        );
        assert_eq!(mk::<T>(&[0], &[]).summarize_value(16, true), "[]");
    }
    check(&[1i32, 2, 3, 4, 0]);
    check(&[1.0f32, 2.0, 3.0, 4.0, 0.0]);
}

/// `SummarizeValue.INT32Dims_PRINT_V2`.
#[test]
fn int32_dims_print_v2() {
    let x = mk(&[3, 4], &(1..=12).collect::<Vec<i32>>());
    assert_eq!(x.summarize_value(1, true), "[[1 ... 4]\n ...\n [9 ... 12]]");
    assert_eq!(
        x.summarize_value(10, true),
        "[[1 2 3 4]\n [5 6 7 8]\n [9 10 11 12]]"
    );
    assert_eq!(
        x.summarize_value(-1, true),
        "[[1 2 3 4]\n [5 6 7 8]\n [9 10 11 12]]"
    );
}

/// `SummarizeValue.BOOL_PRINT_V2`.
#[test]
fn bool_print_v2() {
    let x = mk(&[5], &[false, true, true]);
    assert_eq!(x.summarize_value(16, true), "[0 1 1 0 1]");
    assert_eq!(x.summarize_value(-1, true), "[0 1 1 0 1]");
    assert_eq!(x.summarize_value(2, true), "[0 1 ... 0 1]");
}

/// `SummarizeValue.STRING_PRINT_V2`.
#[test]
fn string_print_v2() {
    let words = strings(&["one", "two", "three", "four", "five"]);
    let x = mk(&[5], &words);
    assert_eq!(
        x.summarize_value(16, true),
        r#"["one" "two" "three" "four" "five"]"#
    );
    assert_eq!(
        x.summarize_value(-1, true),
        r#"["one" "two" "three" "four" "five"]"#
    );
    assert_eq!(
        x.summarize_value(2, true),
        r#"["one" "two" ... "four" "five"]"#
    );
    assert_eq!(
        mk(&[2, 2], &words).summarize_value(16, true),
        "[[\"one\" \"two\"]\n [\"three\" \"four\"]]"
    );
}

/// `SummarizeValue.DT_RESOURCE`.
#[test]
fn dt_resource() {
    let t = Tensor::from(ResourceHandle {
        name: "a".into(),
        ..Default::default()
    });
    assert_eq!(
        t.summarize_value(-1, true),
        r#"<ResourceHandle(name="a", device="", container="", type="", dtype and shapes : "[  ]")>"#
    );
}

/// `SummarizeValue.DT_VARIANT`.
#[test]
fn dt_variant() {
    let t = Tensor::from(Variant::from_tensor(Tensor::from(42.0f32)));
    assert_eq!(
        t.summarize_value(-1, true),
        "<Tensor<type: float shape: [] values: 42>>"
    );
}

// ----- beyond TF's tests: TF's printing rules -----

#[test]
fn debug_string_family() {
    let t = mk(&[2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(
        t.debug_string(),
        "Tensor<type: float shape: [2,3] values: [1 2 3]...>"
    );
    assert_eq!(
        t.debug_string_n(6),
        "Tensor<type: float shape: [2,3] values: [1 2 3][4 5 6]>"
    );
    assert_eq!(
        t.debug_string_n(0),
        "Tensor<type: float shape: [2,3] values: ...>"
    );
    assert_eq!(t.debug_string_n(-1), t.debug_string_n(6));
    assert_eq!(
        t.device_safe_debug_string(),
        "Tensor<type: float shape: [2,3]>"
    );
    assert_eq!(
        Tensor::from(42.0f32).debug_string(),
        "Tensor<type: float shape: [] values: 42>"
    );
    assert_eq!(
        Tensor::default().debug_string(),
        "Tensor<type: float shape: [0] values: >"
    );
    assert_eq!(
        Tensor::new(DataType::Bool, [3])
            .unwrap()
            .debug_string_bytes(0),
        b"Tensor<type: bool shape: [3] values: >"
    );
}

/// `Display` is `DebugString(100)`.
#[test]
fn display_prints_100_values() {
    let t = Tensor::from_vec([101], (0..101).collect::<Vec<i32>>()).unwrap();
    let s = t.to_string();
    assert_eq!(s, t.debug_string_n(100));
    assert!(s.starts_with("Tensor<type: int32 shape: [101] values: 0 1 2 "));
    assert!(s.ends_with(" 98 99...>"));
    let u = Tensor::from_vec([100], (0..100).collect::<Vec<i32>>()).unwrap();
    assert!(u.to_string().ends_with(" 98 99>"));
}

#[test]
fn debug_is_short_and_informative() {
    let t = Tensor::from_vec([4, 5], (0..20).collect::<Vec<u8>>()).unwrap();
    assert_eq!(
        format!("{t:?}"),
        "Tensor { dtype: uint8, shape: [4,5], values: [0 1 2 3 4][5 6 7 8 9]..., buffer: unique }"
    );
    let shared = t.clone();
    assert_eq!(
        format!("{shared:?}"),
        "Tensor { dtype: uint8, shape: [4,5], values: [0 1 2 3 4][5 6 7 8 9]..., buffer: shared }"
    );
    assert_eq!(
        format!("{:?}", Tensor::default()),
        "Tensor { dtype: float, shape: [0], values: , buffer: none }"
    );
    // A huge string element is cut.
    let big = Tensor::from(Bytes::from(vec![b'x'; 100_000]));
    let d = format!("{big:?}");
    assert!(d.len() < 400, "{}", d.len());
    assert!(d.contains("xxx[...], buffer: unique }"));
    // A huge tensor shows 10 values.
    let huge = Tensor::new(DataType::Float, [1000, 1000]).unwrap();
    assert_eq!(
        format!("{huge:?}"),
        "Tensor { dtype: float, shape: [1000,1000], values: [0 0 0 0 0 0 0 0 0 0...]..., buffer: unique }"
    );
    // `{:#?}` still works.
    assert!(format!("{:#?}", Tensor::from(1i8)).contains("values: 1,\n"));
}

#[test]
fn scalars_have_no_brackets() {
    let t = Tensor::from(7i64);
    assert_eq!(t.summarize_value(-1, true), "7");
    assert_eq!(t.summarize_value(3, false), "7");
    assert_eq!(t.summarize_value(0, true), "...");
    assert_eq!(t.summarize_value(0, false), "...");
    assert_eq!(
        Tensor::from(Complex::new(1.0f32, 2.0)).summarize_value(-1, true),
        "?"
    );
    assert_eq!(
        Tensor::from(Complex::new(1.0f32, 2.0)).summarize_value(0, true),
        "..."
    );
    assert_eq!(Tensor::from("a\"b").summarize_value(-1, true), r#""a\"b""#);
    assert_eq!(Tensor::from("a\"b").summarize_value(-1, false), r#"a\"b"#);
}

/// TF's quirk: bool (alone) prints nothing when no element is read.
#[test]
fn zero_limits() {
    let ints = mk(&[2, 3], &[1i32]);
    assert_eq!(ints.summarize_value(0, false), "...");
    assert_eq!(ints.summarize_value(0, true), "[\n ...]");
    let bools = mk(&[2, 3], &[true]);
    assert_eq!(bools.summarize_value(0, false), "");
    assert_eq!(bools.summarize_value(0, true), "");
    assert_eq!(Tensor::from(true).summarize_value(0, true), "");
    assert_eq!(
        Tensor::new(DataType::Bool, [0])
            .unwrap()
            .summarize_value(-1, true),
        ""
    );
    assert_eq!(
        Tensor::new(DataType::Int8, [0])
            .unwrap()
            .summarize_value(-1, true),
        "[]"
    );
    // Zero elements: v1 empty; v2 keeps brackets and cut markers.
    let empty = Tensor::new(DataType::Float, [3, 0, 2]).unwrap();
    assert_eq!(empty.summarize_value(-1, false), "");
    assert_eq!(empty.summarize_value(5, true), "[\n\n ...]");
    let strings = mk(&[3], &strings(&["a"]));
    assert_eq!(strings.summarize_value(0, true), "[ ...]");
    assert_eq!(strings.summarize_value(0, false), "...");
}

/// complex, qint32 and the fnuz float8 types take TF's flat `?` path,
/// resource and variant the flat `<...>` path.
#[test]
fn irregular_dtypes_are_flat() {
    let c = mk(&[2, 3], &[Complex::new(1.0f64, -1.0)]);
    assert_eq!(c.summarize_value(-1, true), "[? ? ? ? ? ?]");
    assert_eq!(c.summarize_value(-1, false), "? ? ? ? ? ?");
    assert_eq!(c.summarize_value(4, true), "[? ? ? ?...]");
    assert_eq!(c.summarize_value(4, false), "? ? ? ?...");
    assert_eq!(c.summarize_value(0, true), "[...]");
    assert_eq!(mk(&[2], &[QInt32(5)]).summarize_value(1, false), "?...");
    assert_eq!(
        mk(&[2], &[Float8E4M3FNUZ::from_f32(1.0)]).summarize_value(-1, true),
        "[? ?]"
    );
    assert_eq!(
        Tensor::new(DataType::Float8E5M2FNUZ, [1])
            .unwrap()
            .summarize_value(-1, false),
        "?"
    );
    assert_eq!(
        Tensor::new(DataType::Complex64, [0])
            .unwrap()
            .summarize_value(-1, true),
        "[]"
    );

    let h = ResourceHandle {
        name: "v".into(),
        device: "/cpu:0".into(),
        container: "c".into(),
        maybe_type_name: "N10tensorflow3VarE".into(),
        dtypes_and_shapes: vec![(DataType::Float, PartialTensorShape::new(&[2, -1]).unwrap())],
        ..Default::default()
    };
    let r = mk(&[2, 2], &[h]);
    let one = r#"<ResourceHandle(name="v", device="/cpu:0", container="c", type="tensorflow::Var", dtype and shapes : "[ DType enum: 1, Shape: [2,?] ]")>"#;
    assert_eq!(r.summarize_value(2, true), format!("[{one} {one}...]"));
    assert_eq!(r.summarize_value(1, false), format!("{one}..."));
}

#[test]
fn variant_elements() {
    let v = mk(&[3], &[Variant::from_tensor(mk(&[2, 2], &[1i32, 2, 3, 4]))]);
    let one = "<Tensor<type: int32 shape: [2,2] values: [1 2][3...]...>>";
    assert_eq!(v.summarize_value(2, true), format!("[{one} {one}...]"));
    assert_eq!(
        Tensor::new(DataType::Variant, [2])
            .unwrap()
            .summarize_value(-1, true),
        "[<[empty]> <[empty]>]"
    );
    // A variant TF would decode through its registry prints its stored form.
    let other = Variant {
        type_name: "MyType".into(),
        metadata: Bytes::from_static(b"meta"),
        tensors: vec![Tensor::from(1.5f64), Tensor::from("s")],
    };
    assert_eq!(
        Tensor::from(other).summarize_value(-1, false),
        "<type_name: MyType metadata: meta tensors: Tensor<type: double shape: [] values: 1.5> \
         tensors: Tensor<type: string shape: [] values: s>>"
    );
    // Nested variants print their inner tensors' DebugString.
    let inner = Tensor::from(Variant::from_tensor(Tensor::from(3u16)));
    let outer = Tensor::from(Variant::from_tensor(inner));
    assert_eq!(
        outer.summarize_value(-1, true),
        "<Tensor<type: variant shape: [] values: <Tensor<type: uint16 shape: [] values: 3>>>>"
    );
}

#[test]
fn element_formatting() {
    let f = mk(
        &[6],
        &[0.1f32, 1e10, 1.0 / 3.0, -0.0, f32::NEG_INFINITY, -f32::NAN],
    );
    assert_eq!(
        f.summarize_value(-1, false),
        "0.1 1e+10 0.333333343 -0 -inf -nan"
    );
    let d = mk(&[3], &[0.1f64, 1.0 / 3.0, 1e-5]);
    assert_eq!(
        d.summarize_value(-1, false),
        "0.1 0.33333333333333331 1e-05"
    );
    // Narrow floats print through f32.
    assert_eq!(
        Tensor::from(bf16::from_f32(0.1)).summarize_value(-1, false),
        "0.100097656"
    );
    assert_eq!(
        Tensor::from(f16::from_f32(0.1)).summarize_value(-1, false),
        "0.0999755859"
    );
    assert_eq!(
        Tensor::from(Float8E4M3FN::from_f32(0.3)).summarize_value(-1, false),
        "0.3125"
    );
    assert_eq!(
        Tensor::from(Float8E4M3B11FNUZ::from_f32(-2.0)).summarize_value(-1, false),
        "-2"
    );
    // f32 subnormals print as zero, as in TF 2.21.
    assert_eq!(
        Tensor::from(f32::from_bits(1)).summarize_value(-1, false),
        "0"
    );
    // Integers, including the extremes and the 4-bit types' low nibble.
    let i = mk(&[2], &[i64::MIN, i64::MAX]);
    assert_eq!(
        i.summarize_value(-1, true),
        "[-9223372036854775808 9223372036854775807]"
    );
    assert_eq!(
        Tensor::from(u64::MAX).summarize_value(-1, true),
        "18446744073709551615"
    );
    assert_eq!(
        mk(&[2], &[QInt8(-128), QInt8(127)]).summarize_value(-1, true),
        "[-128 127]"
    );
    let nibbles = mk(&[3], &[Int4::from_bits(0xFDu8 as i8), Int4::MIN, Int4::MAX]);
    assert_eq!(nibbles.summarize_value(-1, true), "[-3 -8 7]");
    assert_eq!(
        mk(&[2], &[UInt4::from_bits(0xFD), UInt4::from_bits(0x95)]).summarize_value(-1, true),
        "[13 5]"
    );
}

#[test]
fn strings_are_c_escaped_bytes() {
    let t = Tensor::from_vec(
        [3],
        vec![
            Bytes::from_static(b"tab\there"),
            Bytes::from_static(b"\x00\x7f'\\"),
            Bytes::from_static(b"caf\xc3\xa9 \xff"),
        ],
    )
    .unwrap();
    let want_v1: &[u8] = b"tab\\there \\000\\177\\'\\\\ caf\xc3\xa9 \xff";
    assert_eq!(t.summarize_value_bytes(-1, false), want_v1);
    let want_v2: &[u8] = b"[\"tab\\there\" \"\\000\\177\\'\\\\\" \"caf\xc3\xa9 \xff\"]";
    assert_eq!(t.summarize_value_bytes(-1, true), want_v2);
    // The String forms replace only the invalid byte.
    assert_eq!(
        t.summarize_value(-1, false),
        "tab\\there \\000\\177\\'\\\\ café \u{fffd}"
    );
    assert!(t.debug_string_n(-1).ends_with("café \u{fffd}>"));
    assert_eq!(
        t.debug_string_bytes(1),
        b"Tensor<type: string shape: [3] values: tab\\there...>".to_vec()
    );
}

#[test]
fn v2_edges_in_every_dimension() {
    let x = Tensor::from_vec([3, 3, 3], (0..27).collect::<Vec<i16>>()).unwrap();
    assert_eq!(
        x.summarize_value(1, true),
        "[[[0 ... 2]\n  ...\n  [6 ... 8]]\n\n ...\n\n [[18 ... 20]\n  ...\n  [24 ... 26]]]"
    );
    // Edges of 2 cover a dim of 3 (no `...`); of 1 and 5 elements they cut.
    let y = Tensor::from_vec([2, 5], (0..10).collect::<Vec<u32>>()).unwrap();
    assert_eq!(
        y.summarize_value(2, true),
        "[[0 1 ... 3 4]\n [5 6 ... 8 9]]"
    );
    assert_eq!(
        y.summarize_value(i64::MAX, true),
        "[[0 1 2 3 4]\n [5 6 7 8 9]]"
    );
    // v1 cuts within and across rows.
    assert_eq!(y.summarize_value(7, false), "[0 1 2 3 4][5 6...]...");
    assert_eq!(y.summarize_value(5, false), "[0 1 2 3 4]...");
    assert_eq!(y.summarize_value(i64::MAX, false), "[0 1 2 3 4][5 6 7 8 9]");
    assert_eq!(y.summarize_value(i64::MIN, false), "[0 1 2 3 4][5 6 7 8 9]");
}

#[test]
fn slices_print_their_own_region() {
    let t = Tensor::from_vec([4, 2], (0..8).collect::<Vec<i32>>()).unwrap();
    assert_eq!(
        t.slice(1, 3).unwrap().summarize_value(-1, false),
        "[2 3][4 5]"
    );
    assert_eq!(t.sub_slice(3).unwrap().summarize_value(-1, true), "[6 7]");
}

/// A long dim 0 with a small limit stops walking early and prints exactly
/// what TF prints.
#[test]
fn large_tensor_small_limit() {
    let t = Tensor::new(DataType::UInt8, [1_000_000, 1]).unwrap();
    assert_eq!(t.summarize_value(3, false), "[0][0][0]...");
    assert_eq!(t.summarize_value(1, true), "[[0]\n ...\n [0]]");
}
