//! DLPack export and import: round trips for every mapped dtype, the
//! producer's deleter running exactly once (on success and on every error
//! path), strides, offsets, alignment, read-only and devices.

use std::ffi::c_void;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tftensor::bytes::Bytes;
use tftensor::dlpack::{
    self, DLDataType, DLDevice, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned,
    DLPackVersion, DLTensor, FLAG_IS_COPIED, FLAG_IS_SUBBYTE_TYPE_PADDED, FLAG_READ_ONLY,
    type_code,
};
use tftensor::{DataType, Error, Tensor};

/// Every dtype DLPack has a code for, with its (code, bits).
const MAPPED: &[(DataType, u8, u8)] = &[
    (DataType::Bool, 6, 8),
    (DataType::Int8, 0, 8),
    (DataType::Int16, 0, 16),
    (DataType::Int32, 0, 32),
    (DataType::Int64, 0, 64),
    (DataType::UInt8, 1, 8),
    (DataType::UInt16, 1, 16),
    (DataType::UInt32, 1, 32),
    (DataType::UInt64, 1, 64),
    (DataType::Half, 2, 16),
    (DataType::Float, 2, 32),
    (DataType::Double, 2, 64),
    (DataType::BFloat16, 4, 16),
    (DataType::Complex64, 5, 64),
    (DataType::Complex128, 5, 128),
    (DataType::Float8E4M3B11FNUZ, 9, 8),
    (DataType::Float8E4M3FN, 10, 8),
    (DataType::Float8E4M3FNUZ, 11, 8),
    (DataType::Float8E5M2, 12, 8),
    (DataType::Float8E5M2FNUZ, 13, 8),
    (DataType::Float4E2M1FN, 17, 4),
];

/// A tensor of `dtype` with distinct, valid bytes (0/1 for bool).
fn sample(dtype: DataType, shape: &[i64]) -> Tensor {
    let n: i64 = shape.iter().product();
    let len = n as usize * dtype.size();
    let bytes: Vec<u8> = (0..len)
        .map(|i| {
            if dtype == DataType::Bool {
                (i % 3 == 0) as u8
            } else {
                (i * 37 + 11) as u8
            }
        })
        .collect();
    // from_buffer copies the Vec's bytes into an aligned buffer if needed;
    // deep_copy makes sure the result owns an aligned, writable buffer.
    Tensor::from_buffer(dtype, shape, Bytes::from(bytes))
        .unwrap()
        .deep_copy()
        .unwrap()
}

#[test]
fn every_mapped_dtype_round_trips_zero_copy() {
    assert_eq!(
        DataType::all()
            .iter()
            .filter(|dt| dlpack::dl_data_type(**dt).is_ok())
            .count(),
        MAPPED.len()
    );
    for &(dtype, code, bits) in MAPPED {
        let t = sample(dtype, &[2, 3, 4]);
        let want = DLDataType {
            code,
            bits,
            lanes: 1,
        };
        assert_eq!(dlpack::dl_data_type(dtype).unwrap(), want, "{dtype}");

        // Shared: read-only, zero-copy both ways.
        let m = dlpack::export(t.clone()).unwrap();
        assert!(m.is_read_only(), "{dtype}");
        assert_eq!(m.dl_tensor().dtype, want);
        assert_eq!(m.dl_tensor().device, DLDevice::CPU);
        assert_eq!(m.shape(), &[2, 3, 4]);
        assert_eq!(m.strides(), &[12, 4, 1]);
        assert_eq!(m.dl_tensor().byte_offset, 0);
        assert_eq!(m.version(), DLPackVersion { major: 1, minor: 3 });
        let back = dlpack::from_managed(m).unwrap();
        assert_eq!(back, t, "{dtype}");
        assert_eq!(back.data_ptr(), t.data_ptr(), "{dtype}");

        // Unique, by value: writable, still zero-copy.
        let owned = t.deep_copy().unwrap();
        let p = owned.data_ptr();
        let m = dlpack::export(owned).unwrap();
        // float4 is one value per byte: DLPack's sub-byte padded form.
        let pad = if bits < 8 {
            FLAG_IS_SUBBYTE_TYPE_PADDED
        } else {
            0
        };
        assert_eq!(m.flags(), pad, "{dtype}");
        let back = dlpack::from_managed(m).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.data_ptr(), p);

        // Legacy, which cannot say "padded".
        let owned = t.deep_copy().unwrap();
        let p = owned.data_ptr();
        if pad == 0 {
            let back = dlpack::from_managed_legacy(dlpack::export_legacy(owned).unwrap()).unwrap();
            assert_eq!(back, t);
            assert_eq!(back.data_ptr(), p);
        } else {
            let err = dlpack::export_legacy(owned).unwrap_err();
            assert!(err.to_string().contains("IS_SUBBYTE_TYPE_PADDED"), "{err}");
        }

        // Copy.
        let m = dlpack::export_copy(&t).unwrap();
        assert_eq!(m.flags(), FLAG_IS_COPIED | pad);
        assert_ne!(
            m.dl_tensor().data.cast_const().cast(),
            t.data_ptr().unwrap()
        );
        assert_eq!(dlpack::from_managed(m).unwrap(), t);
    }
}

#[test]
fn scalars_and_empty_tensors_export() {
    let m = dlpack::export(Tensor::from(2.5f64)).unwrap();
    assert_eq!(m.dl_tensor().ndim, 0);
    assert!(m.dl_tensor().shape.is_null());
    assert!(m.dl_tensor().strides.is_null());
    assert_eq!(dlpack::from_managed(m).unwrap(), Tensor::from(2.5f64));

    let empty = Tensor::new(DataType::Float, [0, 3]).unwrap();
    let m = dlpack::export(empty.clone()).unwrap();
    assert!(!m.dl_tensor().data.is_null());
    assert_eq!(m.shape(), &[0, 3]);
    assert_eq!(m.strides(), &[3, 1]);
    assert_eq!(dlpack::from_managed(m).unwrap(), empty);
}

#[test]
fn unsupported_dtypes_are_named() {
    for (t, name) in [
        (Tensor::from("s"), "string"),
        (Tensor::new(DataType::QInt8, [1]).unwrap(), "qint8"),
        (Tensor::new(DataType::Int4, [1]).unwrap(), "int4"),
        (Tensor::new(DataType::UInt4, [1]).unwrap(), "uint4"),
        (Tensor::new(DataType::Resource, [1]).unwrap(), "resource"),
        (Tensor::new(DataType::Variant, [1]).unwrap(), "variant"),
    ] {
        let err = dlpack::export(t).unwrap_err();
        assert!(matches!(err, Error::UnsupportedDataType { .. }), "{err}");
        assert_eq!(err.to_string(), format!("DLPack has no type for {name}"));
    }
}

#[test]
fn shared_and_adopted_buffers_export_read_only() {
    let t = sample(DataType::Int32, &[4]);
    // A slice shares the buffer.
    assert!(
        dlpack::export(t.slice(1, 3).unwrap())
            .unwrap()
            .is_read_only()
    );
    // Adopted bytes are never written in place, even by a unique handle.
    let adopted = Tensor::from_buffer(DataType::UInt8, [2], Bytes::from_static(&[1, 2])).unwrap();
    assert!(dlpack::export(adopted.clone()).unwrap().is_read_only());
    assert!(dlpack::export_legacy(adopted).is_err());
    // The legacy form refuses a shared buffer, naming why.
    let err = dlpack::export_legacy(t.clone()).unwrap_err();
    assert!(err.to_string().contains("read-only"), "{err}");
    // An uninitialized tensor and a bool tensor with a bad byte are refused.
    let u = Tensor::from_vec([1], vec![7u8]).unwrap();
    let mut b = Tensor::default();
    b.bitcast_from(&u, DataType::Bool, [1]).unwrap();
    assert!(dlpack::export(b).is_err());
}

#[test]
fn a_writable_export_hands_the_memory_over() {
    let t = Tensor::from_vec([3], vec![1.0f32, 2.0, 3.0]).unwrap();
    let m = dlpack::export(t).unwrap();
    assert!(!m.is_read_only());
    let raw = m.into_raw();
    // SAFETY: the export is writable and has three f32 elements.
    unsafe {
        let data = (*raw).dl_tensor.data.cast::<f32>();
        *data.add(1) = 20.0;
    }
    // SAFETY: `raw` is an unconsumed export.
    let back = unsafe { dlpack::import(raw) }.unwrap();
    assert_eq!(back.as_slice::<f32>().unwrap(), &[1.0, 20.0, 3.0]);
}

// ----- a foreign producer -----

/// A producer's managed tensor: owns its memory, shape and strides, and
/// counts deleter calls.
#[repr(C)]
struct Producer<M> {
    managed: M,
    memory: Vec<u64>,
    shape: Vec<i64>,
    strides: Option<Vec<i64>>,
    deleted: Arc<AtomicUsize>,
}

unsafe extern "C" fn delete_versioned(p: *mut DLManagedTensorVersioned) {
    // SAFETY: `p` came from `Box::into_raw` of a Producer in `produce`.
    let b = unsafe { Box::from_raw(p.cast::<Producer<DLManagedTensorVersioned>>()) };
    b.deleted.fetch_add(1, Ordering::SeqCst);
}

unsafe extern "C" fn delete_legacy(p: *mut DLManagedTensor) {
    // SAFETY: as above.
    let b = unsafe { Box::from_raw(p.cast::<Producer<DLManagedTensor>>()) };
    b.deleted.fetch_add(1, Ordering::SeqCst);
}

/// What a test producer exports.
struct Spec {
    bytes: Vec<u8>,
    data_offset: usize,
    byte_offset: u64,
    dtype: DLDataType,
    shape: Vec<i64>,
    strides: Option<Vec<i64>>,
    device: DLDevice,
    version: DLPackVersion,
    flags: u64,
    null_data: bool,
    null_shape: bool,
    ndim: Option<i32>,
}

impl Spec {
    fn new(dtype: DLDataType, shape: &[i64], bytes: Vec<u8>) -> Spec {
        Spec {
            bytes,
            data_offset: 0,
            byte_offset: 0,
            dtype,
            shape: shape.to_vec(),
            strides: None,
            device: DLDevice::CPU,
            version: DLPackVersion { major: 1, minor: 0 },
            flags: 0,
            null_data: false,
            null_shape: false,
            ndim: None,
        }
    }

    fn strides(mut self, s: &[i64]) -> Spec {
        self.strides = Some(s.to_vec());
        self
    }

    fn dl_tensor(
        &self,
        memory: &mut [u64],
        shape: &mut [i64],
        strides: Option<&mut Vec<i64>>,
    ) -> DLTensor {
        let base = memory.as_mut_ptr().cast::<u8>();
        DLTensor {
            data: if self.null_data {
                std::ptr::null_mut()
            } else {
                base.wrapping_add(self.data_offset).cast::<c_void>()
            },
            device: self.device,
            ndim: self.ndim.unwrap_or(shape.len() as i32),
            dtype: self.dtype,
            shape: if self.null_shape {
                std::ptr::null_mut()
            } else {
                shape.as_mut_ptr()
            },
            strides: strides.map_or(std::ptr::null_mut(), |s| s.as_mut_ptr()),
            byte_offset: self.byte_offset,
        }
    }

    fn memory(&self) -> Vec<u64> {
        // The bytes start at `data`; `byte_offset` points into them.
        let mut memory = vec![0u64; (self.bytes.len() + self.data_offset) / 8 + 2];
        let start = self.data_offset;
        // SAFETY: the Vec<u64> has room for `start + bytes.len()` bytes.
        let raw = unsafe {
            std::slice::from_raw_parts_mut(memory.as_mut_ptr().cast::<u8>(), memory.len() * 8)
        };
        raw[start..start + self.bytes.len()].copy_from_slice(&self.bytes);
        memory
    }

    /// A versioned managed tensor and its deleter counter.
    fn versioned(self) -> (*mut DLManagedTensorVersioned, Arc<AtomicUsize>) {
        let deleted = Arc::new(AtomicUsize::new(0));
        let mut memory = self.memory();
        let mut shape = self.shape.clone();
        let mut strides = self.strides.clone();
        let dl_tensor = self.dl_tensor(&mut memory, &mut shape, strides.as_mut());
        let b = Box::new(Producer {
            managed: DLManagedTensorVersioned {
                version: self.version,
                manager_ctx: std::ptr::null_mut(),
                deleter: Some(delete_versioned),
                flags: self.flags,
                dl_tensor,
            },
            memory,
            shape,
            strides,
            deleted: deleted.clone(),
        });
        (Box::into_raw(b).cast(), deleted)
    }

    fn legacy(self) -> (*mut DLManagedTensor, Arc<AtomicUsize>) {
        let deleted = Arc::new(AtomicUsize::new(0));
        let mut memory = self.memory();
        let mut shape = self.shape.clone();
        let mut strides = self.strides.clone();
        let dl_tensor = self.dl_tensor(&mut memory, &mut shape, strides.as_mut());
        let b = Box::new(Producer {
            managed: DLManagedTensor {
                dl_tensor,
                manager_ctx: std::ptr::null_mut(),
                deleter: Some(delete_legacy),
            },
            memory,
            shape,
            strides,
            deleted: deleted.clone(),
        });
        (Box::into_raw(b).cast(), deleted)
    }
}

const F32: DLDataType = DLDataType {
    code: type_code::FLOAT,
    bits: 32,
    lanes: 1,
};
const I16: DLDataType = DLDataType {
    code: type_code::INT,
    bits: 16,
    lanes: 1,
};

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn import(spec: Spec) -> (tftensor::Result<Tensor>, Arc<AtomicUsize>) {
    let (p, deleted) = spec.versioned();
    // SAFETY: `p` is a fresh, valid producer tensor handed over once.
    (unsafe { dlpack::import(p) }, deleted)
}

#[test]
fn compact_import_is_zero_copy_and_deletes_once_on_last_drop() {
    let (p, deleted) = Spec::new(F32, &[2, 2], f32_bytes(&[1.0, 2.0, 3.0, 4.0])).versioned();
    // SAFETY: as in `import`.
    let data = unsafe { (*p).dl_tensor.data };
    // SAFETY: as in `import`.
    let t = unsafe { dlpack::import(p) }.unwrap();
    assert_eq!(t.data_ptr(), Some(data.cast_const().cast()));
    assert_eq!(t.shape().dim_sizes(), vec![2, 2]);
    assert_eq!(t.as_slice::<f32>().unwrap(), &[1.0, 2.0, 3.0, 4.0]);
    let row = t.sub_slice(1).unwrap();
    drop(t);
    assert_eq!(deleted.load(Ordering::SeqCst), 0);
    assert_eq!(row.as_slice::<f32>().unwrap(), &[3.0, 4.0]);
    drop(row);
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
}

#[test]
fn legacy_import_deletes_once() {
    let (p, deleted) = Spec::new(I16, &[3], vec![1, 0, 2, 0, 3, 0]).legacy();
    // SAFETY: a fresh producer tensor, handed over once.
    let t = unsafe { dlpack::import_legacy(p) }.unwrap();
    assert_eq!(t.as_slice::<i16>().unwrap(), &[1, 2, 3]);
    drop(t);
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
}

#[test]
fn byte_offset_and_explicit_compact_strides() {
    let v = [0.0, 0.0, 0.0, 0.0, 5.0, 6.0, 7.0];
    let mut spec = Spec::new(F32, &[3], f32_bytes(&v)).strides(&[1]);
    spec.byte_offset = 16;
    let (t, deleted) = import(spec);
    let t = t.unwrap();
    assert_eq!(t.as_slice::<f32>().unwrap(), &[5.0, 6.0, 7.0]);
    assert_eq!(deleted.load(Ordering::SeqCst), 0);
    drop(t);
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
    // Size-1 dimensions may carry any stride and still be compact.
    let spec = Spec::new(F32, &[1, 3, 1], f32_bytes(&[1.0, 2.0, 3.0])).strides(&[99, 1, -7]);
    let (t, deleted) = import(spec);
    assert_eq!(t.unwrap().as_slice::<f32>().unwrap(), &[1.0, 2.0, 3.0]);
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
}

#[test]
fn misaligned_data_is_copied_and_released_at_once() {
    let mut spec = Spec::new(F32, &[2], f32_bytes(&[1.5, -2.5]));
    spec.data_offset = 1;
    let (t, deleted) = import(spec);
    let t = t.unwrap();
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
    assert_eq!(t.as_slice::<f32>().unwrap(), &[1.5, -2.5]);
    assert_eq!(t.data_ptr().unwrap() as usize % 4, 0);
}

#[test]
fn strided_imports_are_copied_compact() {
    // A 2x3 row-major buffer seen transposed (3x2, strides [1, 3]).
    let v = [0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0];
    let (t, deleted) = import(Spec::new(F32, &[3, 2], f32_bytes(&v)).strides(&[1, 3]));
    assert_eq!(
        t.unwrap().as_slice::<f32>().unwrap(),
        &[0.0, 3.0, 1.0, 4.0, 2.0, 5.0]
    );
    assert_eq!(deleted.load(Ordering::SeqCst), 1);

    // Every other column: shape [2, 2], strides [3, 2].
    let (t, _) = import(Spec::new(F32, &[2, 2], f32_bytes(&v)).strides(&[3, 2]));
    assert_eq!(t.unwrap().as_slice::<f32>().unwrap(), &[0.0, 2.0, 3.0, 5.0]);

    // Reversed rows (negative stride): data points at the last row.
    let mut spec = Spec::new(F32, &[2, 3], f32_bytes(&v)).strides(&[-3, 1]);
    spec.byte_offset = 12;
    let (t, deleted) = import(spec);
    assert_eq!(
        t.unwrap().as_slice::<f32>().unwrap(),
        &[3.0, 4.0, 5.0, 0.0, 1.0, 2.0]
    );
    assert_eq!(deleted.load(Ordering::SeqCst), 1);

    // Fully reversed 1-d.
    let mut spec = Spec::new(F32, &[6], f32_bytes(&v)).strides(&[-1]);
    spec.byte_offset = 20;
    let (t, _) = import(spec);
    assert_eq!(
        t.unwrap().as_slice::<f32>().unwrap(),
        &[5.0, 4.0, 3.0, 2.0, 1.0, 0.0]
    );

    // Broadcast (stride 0).
    let (t, _) = import(Spec::new(F32, &[2, 3], f32_bytes(&v[..3])).strides(&[0, 1]));
    assert_eq!(
        t.unwrap().as_slice::<f32>().unwrap(),
        &[0.0, 1.0, 2.0, 0.0, 1.0, 2.0]
    );
}

#[test]
fn zero_size_and_scalar_imports() {
    let (t, deleted) = import(Spec::new(F32, &[0, 3], vec![]).strides(&[0, 0]));
    let t = t.unwrap();
    assert_eq!(t.shape().dim_sizes(), vec![0, 3]);
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
    let mut spec = Spec::new(F32, &[0], vec![]);
    spec.null_data = true;
    let (t, deleted) = import(spec);
    assert_eq!(t.unwrap().num_elements(), 0);
    assert_eq!(deleted.load(Ordering::SeqCst), 1);

    let mut spec = Spec::new(F32, &[], f32_bytes(&[9.0]));
    spec.null_shape = true;
    let (t, deleted) = import(spec);
    assert_eq!(t.unwrap(), Tensor::from(9.0f32));
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
}

#[test]
fn read_only_imports_are_never_written_through() {
    let mut spec = Spec::new(F32, &[2], f32_bytes(&[1.0, 2.0]));
    spec.flags = FLAG_READ_ONLY;
    let (p, deleted) = spec.versioned();
    // SAFETY: as in `import`.
    let data = unsafe { (*p).dl_tensor.data.cast::<f32>() };
    // SAFETY: as in `import`.
    let mut t = unsafe { dlpack::import(p) }.unwrap();
    assert!(t.is_shared());
    t.as_mut_slice::<f32>().unwrap()[0] = 10.0;
    assert_ne!(t.data_ptr(), Some(data.cast_const().cast()));
    // The copy released the producer's memory, which was not written.
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
    assert_eq!(t.as_slice::<f32>().unwrap(), &[10.0, 2.0]);

    // Writable imports are copy-on-write too.
    let mut t = dlpack::from_managed(dlpack::export(Tensor::from(1i32)).unwrap()).unwrap();
    let before = t.data_ptr();
    t.as_mut_slice::<i32>().unwrap()[0] = 2;
    assert_ne!(t.data_ptr(), before);
}

#[test]
fn every_error_path_calls_the_deleter_once() {
    let ok = || Spec::new(F32, &[2], f32_bytes(&[1.0, 2.0]));
    let cases: Vec<(&str, Spec)> = vec![
        ("version 2.0", {
            let mut s = ok();
            s.version = DLPackVersion { major: 2, minor: 0 };
            s
        }),
        ("CUDA", {
            let mut s = ok();
            s.device = DLDevice {
                device_type: DLDeviceType::CUDA,
                device_id: 1,
            };
            s
        }),
        ("unknown device type (42)", {
            let mut s = ok();
            s.device = DLDevice {
                device_type: DLDeviceType(42),
                device_id: 0,
            };
            s
        }),
        ("4 bits", {
            let mut s = ok();
            s.dtype = DLDataType {
                code: type_code::INT,
                bits: 4,
                lanes: 1,
            };
            s
        }),
        ("2 lanes", {
            let mut s = ok();
            s.dtype = DLDataType {
                code: type_code::FLOAT,
                bits: 32,
                lanes: 2,
            };
            s
        }),
        ("ndim -1", {
            let mut s = ok();
            s.ndim = Some(-1);
            s
        }),
        ("ndim 300", {
            let mut s = ok();
            s.ndim = Some(300);
            s
        }),
        ("shape is NULL", {
            let mut s = ok();
            s.null_shape = true;
            s
        }),
        ("data is NULL", {
            let mut s = ok();
            s.null_data = true;
            s
        }),
        ("negative", Spec::new(F32, &[-2], f32_bytes(&[1.0, 2.0]))),
        ("bool bytes", {
            Spec::new(
                DLDataType {
                    code: type_code::BOOL,
                    bits: 8,
                    lanes: 1,
                },
                &[2],
                vec![1, 2],
            )
        }),
        ("bool bytes", {
            Spec::new(
                DLDataType {
                    code: type_code::BOOL,
                    bits: 8,
                    lanes: 1,
                },
                &[2],
                vec![2, 0, 1, 0],
            )
            .strides(&[2])
        }),
        (
            "overflow",
            Spec::new(F32, &[2, 2], f32_bytes(&[1.0; 4])).strides(&[i64::MAX, 1]),
        ),
    ];
    for (what, spec) in cases {
        let (result, deleted) = import(spec);
        let err = result.expect_err(what);
        assert!(
            err.to_string().contains(what) || what == "negative" || what == "overflow",
            "{what}: {err}"
        );
        assert_eq!(deleted.load(Ordering::SeqCst), 1, "{what}");
    }
    // NULL pointers own nothing.
    // SAFETY: NULL is allowed.
    assert!(unsafe { dlpack::import(std::ptr::null_mut()) }.is_err());
    // SAFETY: as above.
    assert!(unsafe { dlpack::import_legacy(std::ptr::null_mut()) }.is_err());
}

#[test]
fn host_readable_devices_import() {
    for device_type in [
        DLDeviceType::CUDA_HOST,
        DLDeviceType::ROCM_HOST,
        DLDeviceType::CUDA_MANAGED,
    ] {
        let mut spec = Spec::new(F32, &[1], f32_bytes(&[3.0]));
        spec.device = DLDevice {
            device_type,
            device_id: 0,
        };
        let (t, deleted) = import(spec);
        assert_eq!(t.unwrap(), Tensor::from_vec([1], vec![3.0f32]).unwrap());
        assert_eq!(deleted.load(Ordering::SeqCst), 1);
    }
}

#[test]
fn a_null_deleter_is_allowed() {
    let (p, _) = Spec::new(F32, &[1], f32_bytes(&[1.0])).versioned();
    // SAFETY: `p` is ours; with no deleter the test frees it afterwards.
    unsafe { (*p).deleter = None };
    // SAFETY: `p` is a live tensor of ours, imported once.
    let t = unsafe { dlpack::import(p) }.unwrap();
    assert_eq!(t.as_slice::<f32>().unwrap(), &[1.0]);
    drop(t);
    // SAFETY: the import did not free it (no deleter); free it now.
    drop(unsafe { Box::from_raw(p.cast::<Producer<DLManagedTensorVersioned>>()) });
}

#[test]
fn float4_imports_only_when_padded() {
    let f4 = DLDataType {
        code: 17,
        bits: 4,
        lanes: 1,
    };
    // 0.5, 1, -6: one value per byte, as TF stores them.
    let bytes = vec![0x01, 0x02, 0x0f, 0x00];
    let mut spec = Spec::new(f4, &[4], bytes.clone());
    spec.flags = FLAG_IS_SUBBYTE_TYPE_PADDED;
    let (t, deleted) = import(spec);
    let t = t.unwrap();
    assert_eq!(t.dtype(), DataType::Float4E2M1FN);
    assert_eq!(t.tensor_data().unwrap(), &bytes[..]);
    drop(t);
    assert_eq!(deleted.load(Ordering::SeqCst), 1);

    // Packed two per byte (no flag): refused, deleter still called once.
    let (t, deleted) = import(Spec::new(f4, &[4], bytes.clone()));
    let err = t.unwrap_err();
    assert!(err.to_string().contains("IS_SUBBYTE_TYPE_PADDED"), "{err}");
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
    // The legacy struct has no flags, so it cannot carry float4 either.
    let (p, deleted) = Spec::new(f4, &[4], bytes).legacy();
    // SAFETY: a fresh producer handed over once.
    assert!(unsafe { dlpack::import_legacy(p) }.is_err());
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
}
