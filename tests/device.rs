//! `tftensor::device` (feature `cuda`). Everything here runs without a GPU:
//! adoption of (fake) CUDA DLPack tensors, their export, argument checks,
//! the deleter-once rule and the "no CUDA driver" error. The round trips
//! through a real device run only when a driver and a GPU are present, and
//! print why they are skipped otherwise.
#![cfg(feature = "cuda")]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tftensor::device::{self, DeviceTensor};
use tftensor::dlpack::{
    self, DLDataType, DLDevice, DLDeviceType, DLManagedTensorVersioned, DLPackVersion, DLTensor,
    type_code,
};
use tftensor::{DataType, Tensor};

/// A fake producer's context: shape and strides live here until the
/// deleter runs, which counts its calls.
struct Ctx {
    shape: Vec<i64>,
    strides: Option<Vec<i64>>,
    deleted: Arc<AtomicUsize>,
}

unsafe extern "C" fn delete(m: *mut DLManagedTensorVersioned) {
    // SAFETY: `m` and its context were leaked from Boxes by `fake`.
    let m = unsafe { Box::from_raw(m) };
    // SAFETY: as above.
    let ctx = unsafe { Box::from_raw(m.manager_ctx.cast::<Ctx>()) };
    ctx.deleted.fetch_add(1, Ordering::SeqCst);
}

/// A DLPack tensor on `device` at a made-up device address.
fn fake(
    device: DLDevice,
    dtype: DLDataType,
    shape: &[i64],
    strides: Option<&[i64]>,
    major: u32,
) -> (*mut DLManagedTensorVersioned, Arc<AtomicUsize>) {
    let deleted = Arc::new(AtomicUsize::new(0));
    let mut ctx = Box::new(Ctx {
        shape: shape.to_vec(),
        strides: strides.map(<[i64]>::to_vec),
        deleted: Arc::clone(&deleted),
    });
    let dl_tensor = DLTensor {
        data: std::ptr::without_provenance_mut(0x7f00_0000_0000),
        device,
        ndim: shape.len() as i32,
        dtype,
        shape: ctx.shape.as_mut_ptr(),
        strides: ctx
            .strides
            .as_mut()
            .map_or(std::ptr::null_mut(), |s| s.as_mut_ptr()),
        byte_offset: 256,
    };
    let m = Box::new(DLManagedTensorVersioned {
        version: DLPackVersion { major, minor: 3 },
        manager_ctx: Box::into_raw(ctx).cast(),
        deleter: Some(delete),
        flags: 0,
        dl_tensor,
    });
    (Box::into_raw(m), deleted)
}

const CUDA0: DLDevice = DLDevice {
    device_type: DLDeviceType::CUDA,
    device_id: 0,
};
const F32: DLDataType = DLDataType {
    code: type_code::FLOAT,
    bits: 32,
    lanes: 1,
};

fn adopt(m: *mut DLManagedTensorVersioned, stream: usize) -> tftensor::Result<DeviceTensor> {
    // SAFETY: `fake` makes a valid managed tensor, handed over once; the
    // device memory is never read without a driver.
    unsafe { DeviceTensor::from_dlpack(m, stream) }
}

/// Whether a real device is usable; prints why not.
fn gpu() -> bool {
    match device::device_count() {
        Ok(n) if n > 0 => true,
        Ok(_) => {
            eprintln!("skipped: the CUDA driver sees no device");
            false
        }
        Err(e) => {
            eprintln!("skipped: {e}");
            false
        }
    }
}

#[test]
fn no_driver_is_a_clear_error() {
    if gpu() {
        return;
    }
    let err = device::device_count().unwrap_err();
    assert!(err.to_string().starts_with("no CUDA driver: "), "{err}");
    let t = Tensor::from_vec([2], vec![1.0f32, 2.0]).unwrap();
    let err = device::upload(&t, 0).unwrap_err();
    assert!(err.to_string().starts_with("no CUDA driver"), "{err}");
}

#[test]
fn adopts_a_cuda_tensor_without_a_driver_and_deletes_it_once() {
    let (m, deleted) = fake(CUDA0, F32, &[2, 3], Some(&[3, 1]), 1);
    let d = adopt(m, 1).unwrap();
    assert_eq!(d.dtype(), DataType::Float);
    assert_eq!(d.shape().dim_sizes(), vec![2, 3]);
    assert_eq!(d.device(), CUDA0);
    assert_eq!(d.num_bytes(), 24);
    assert_eq!(d.data_ptr(), 0x7f00_0000_0000 + 256);
    assert_eq!(d.to_string(), "Tensor<type: float shape: [2,3]>");
    let d2 = d.clone();
    if !gpu() {
        let err = d.readback_and_clone().unwrap_err();
        assert!(err.to_string().starts_with("no CUDA driver"), "{err}");
        assert!(d.readback_and_clone_async().is_err());
    }
    drop(d);
    assert_eq!(deleted.load(Ordering::SeqCst), 0);
    drop(d2);
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
}

#[test]
fn managed_memory_null_strides_and_scalars() {
    let managed = DLDevice {
        device_type: DLDeviceType::CUDA_MANAGED,
        device_id: 1,
    };
    let bf16 = DLDataType {
        code: type_code::BFLOAT,
        bits: 16,
        lanes: 1,
    };
    let (m, deleted) = fake(managed, bf16, &[4, 1, 5], None, 1);
    let d = adopt(m, 2).unwrap();
    assert_eq!(d.to_string(), "Tensor<type: bfloat16 shape: [4,1,5]>");
    assert_eq!(d.device().device_id, 1);
    drop(d);
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
    let (m, deleted) = fake(CUDA0, F32, &[], None, 1);
    let d = adopt(m, 1).unwrap();
    assert_eq!(d.to_string(), "Tensor<type: float shape: []>");
    assert_eq!(d.num_bytes(), 4);
    drop(d);
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
}

#[test]
fn refusals_run_the_deleter_once() {
    let cpu = DLDevice::CPU;
    type Case = (
        &'static str,
        DLDevice,
        DLDataType,
        Vec<i64>,
        Option<Vec<i64>>,
        u32,
    );
    let cases: Vec<Case> = vec![
        ("not CUDA", cpu, F32, vec![2], None, 1),
        ("transposed", CUDA0, F32, vec![2, 3], Some(vec![1, 2]), 1),
        ("version 2", CUDA0, F32, vec![2], None, 2),
        (
            "two lanes",
            CUDA0,
            DLDataType {
                code: type_code::FLOAT,
                bits: 32,
                lanes: 2,
            },
            vec![2],
            None,
            1,
        ),
        ("negative dim", CUDA0, F32, vec![-1], None, 1),
    ];
    for (name, device, dtype, shape, strides, major) in cases {
        let (m, deleted) = fake(device, dtype, &shape, strides.as_deref(), major);
        assert!(adopt(m, 1).is_err(), "{name}");
        assert_eq!(deleted.load(Ordering::SeqCst), 1, "{name}");
    }
    let err = adopt(std::ptr::null_mut(), 1).unwrap_err();
    assert!(err.to_string().contains("NULL"), "{err}");
    let (m, _) = fake(cpu, F32, &[1], None, 1);
    let err = adopt(m, 1).unwrap_err().to_string();
    assert!(err.contains("dlpack::import"), "{err}");
}

#[test]
fn export_is_a_read_only_cuda_tensor_holding_the_producer() {
    let (m, deleted) = fake(CUDA0, F32, &[3, 2], None, 1);
    let d = adopt(m, 1).unwrap();
    // Same stream as the data is ready on (legacy, 1): no driver needed.
    let e = d.to_dlpack(None).unwrap();
    assert!(e.is_read_only());
    assert_eq!(e.dl_tensor().device, CUDA0);
    assert_eq!(e.dl_tensor().data as usize as u64, d.data_ptr());
    assert_eq!(e.shape(), &[3, 2]);
    assert_eq!(e.strides(), &[2, 1]);
    drop(d);
    assert_eq!(deleted.load(Ordering::SeqCst), 0);
    // A host import refuses device memory, and releases the export.
    let err = dlpack::from_managed(e).unwrap_err();
    assert!(err.to_string().contains("CUDA"), "{err}");
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
    if !gpu() {
        // Another consumer stream needs an event: the driver.
        let (m, _) = fake(CUDA0, F32, &[1], None, 1);
        let d = adopt(m, 1).unwrap();
        assert!(d.to_dlpack(Some(7)).is_err());
    }
}

#[test]
fn gpu_round_trips_every_dtype() {
    if !gpu() {
        return;
    }
    for &dtype in DataType::all() {
        if dlpack::dl_data_type(dtype).is_err() {
            continue;
        }
        // 48 bytes: a whole number of elements for every element size.
        let bytes: Vec<u8> = (0..48u8)
            .map(|i| {
                if dtype == DataType::Bool {
                    i % 2
                } else {
                    i.wrapping_mul(7)
                }
            })
            .collect();
        let n = 48 / dtype.size() as i64;
        let t = Tensor::from_buffer(dtype, [n], bytes.into()).unwrap();
        let d = device::upload(&t, 0).unwrap();
        // Bytes, not values: some of these bit patterns are NaNs.
        let back = d.readback_and_clone().unwrap();
        assert_eq!(back.dtype(), dtype);
        assert_eq!(
            back.tensor_data().unwrap(),
            t.tensor_data().unwrap(),
            "{dtype}"
        );
        let pending = d.readback_and_clone_async().unwrap();
        drop(d); // the readback keeps the memory
        let back = pending.wait().unwrap();
        assert_eq!(
            back.tensor_data().unwrap(),
            t.tensor_data().unwrap(),
            "{dtype}"
        );
        assert_eq!(back.shape(), t.shape(), "{dtype}");
    }
    assert!(device::pinned_cached_bytes() > 0);
}

#[test]
fn gpu_readback_of_one_gib() {
    if !gpu() || std::env::var_os("TFTENSOR_GPU_BIG").is_none() {
        eprintln!("skipped: set TFTENSOR_GPU_BIG=1 on a GPU machine");
        return;
    }
    let n = 1usize << 28; // 1 GiB of f32
    let t = Tensor::from_vec([n as i64], (0..n).map(|i| i as f32).collect()).unwrap();
    let d = device::upload(&t, 0).unwrap();
    let r = d.readback_and_clone_async().unwrap();
    while !r.is_done().unwrap() {
        std::thread::yield_now();
    }
    assert_eq!(r.wait().unwrap(), t);
}
