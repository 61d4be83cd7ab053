//! A guided run through tftensor: `cargo run --example tour`.

use std::sync::Arc;

use tftensor::ndarray::{Ix2, Ix3, s};
use tftensor::prost::Message;
use tftensor::{
    DataType, Result, Tensor, TensorShape, TrackingAllocator, TypedTensor, half, num_complex, pb,
};

fn section(title: &str) {
    println!("\n== {title}");
}

fn main() -> Result<()> {
    section("1. Data types: one table, TF's numbers and names");
    for dt in [
        DataType::Float,
        DataType::BFloat16,
        DataType::Float8E4M3FN,
        DataType::Int4,
        DataType::String,
    ] {
        println!(
            "  {:<14} #{:<3} size {} memcpy {}",
            dt.name(),
            dt.as_i32(),
            dt.size(),
            dt.can_use_memcpy()
        );
    }
    println!("  ref type: {}", DataType::Float.as_ref_type());
    println!("  parsed 'float16': {}", "float16".parse::<DataType>()?);

    section("2. Shapes: checked, TF's text");
    let shape = TensorShape::new(&[2, 3, 4])?;
    println!("  {shape} has {} elements", shape.num_elements());
    println!("  [-1]        -> {}", TensorShape::new(&[-1]).unwrap_err());
    println!(
        "  [2^62,2^62] -> {}",
        TensorShape::new(&[1 << 62, 1 << 62]).unwrap_err()
    );

    section("3. Tensors: 64-byte aligned, refcounted, copy-on-write");
    let alloc = Arc::new(TrackingAllocator::new());
    let t = Tensor::with_allocator(&alloc, DataType::Float, [2, 3])?;
    println!(
        "  {:?}: aligned {}, {} bytes live in the tracking allocator",
        t.shape(),
        t.is_aligned(),
        alloc.live_bytes()
    );
    let mut a = Tensor::from_vec([2, 3], vec![1.0f32, 2., 3., 4., 5., 6.])?;
    let b = a.clone();
    println!("  clone shares the buffer: {}", a.shares_buffer_with(&b));
    a.as_mut_slice::<f32>()?[0] = 100.0;
    println!(
        "  after a write to a: shares {}, a[0] = {}, b[0] = {}",
        a.shares_buffer_with(&b),
        a.as_slice::<f32>()?[0],
        b.as_slice::<f32>()?[0]
    );
    println!(
        "  bad input is an error: {}",
        Tensor::new(DataType::Float.as_ref_type(), [1]).unwrap_err()
    );

    section("4. Views: ndarray over the same memory, TF's accessors");
    let m = b.matrix::<f32>()?;
    println!("  matrix::<f32>() = {:?}, sum {}", m.shape(), m.sum());
    let x = Tensor::from_vec([2, 3, 4], (0..24).map(|v| v as f32).collect::<Vec<_>>())?;
    println!(
        "  [2,3,4] flat_inner_dims -> {:?}, flat_outer_dims -> {:?}",
        x.flat_inner_dims::<f32, Ix2>()?.shape(),
        x.flat_outer_dims::<f32, Ix2>()?.shape()
    );
    println!(
        "  shaped [2,4,3] -> {:?}",
        x.shaped::<f32, Ix3>(&[2, 4, 3])?.shape()
    );
    println!(
        "  shaped [5,5] on 24 elements -> {}",
        x.shaped::<f32, Ix2>(&[5, 5]).unwrap_err()
    );
    println!(
        "  view pointer == buffer pointer: {}",
        x.flat::<f32>()?.as_ptr().cast() == x.data_ptr().unwrap_or(std::ptr::null())
    );

    section("5. Slicing and bitcasting share the buffer");
    let row = x.sub_slice(1)?;
    println!(
        "  sub_slice(1): shape {}, first {}",
        row.shape(),
        row.flat::<f32>()?[0]
    );
    let rows = x.slice(0, 1)?;
    println!(
        "  slice(0,1): shape {}, shares {}",
        rows.shape(),
        rows.shares_buffer_with(&x)
    );
    let mut bits = Tensor::default();
    bits.bitcast_from(&x, DataType::UInt32, [24])?;
    println!(
        "  bitcast to uint32: 1.0f32 = {:#x}",
        bits.flat::<u32>()?[1]
    );
    section("6. TypedTensor<T>: the typed facade (an image-like [2, 3, 4] tensor)");
    // Height 2, width 3, 4 channels; each value written once, no clearing pass.
    let mut img = TypedTensor::from_fn([2, 3, 4], |i| i as f32)?;
    println!("  {img:?}");
    img[[1, 2, 3]] = 100.0; // read and write at any rank
    println!(
        "  img[[1,2,3]] = {}, get(&[2,0,0]) = {:?} (img[[2,0,0]] would panic)",
        img[[1, 2, 3]],
        img.get(&[2, 0, 0])
    );
    let mut edited = img.clone(); // O(1), shares the buffer
    edited[[0, 0, 0]] = -1.0; // copy-on-write: img is untouched
    println!(
        "  after a write to the clone: clone {} / img {}",
        edited[[0, 0, 0]],
        img[[0, 0, 0]]
    );
    let green: Vec<f32> = img
        .tensor::<Ix3>()?
        .slice(s![.., .., 1])
        .iter()
        .copied()
        .collect();
    println!("  channel 1 through an ndarray view: {green:?}");
    img.reshape([6, 4])?; // pixels x channels, same buffer
    println!(
        "  reshape [6,4]: len {}, capacity {}",
        img.len(),
        img.capacity()
    );
    println!("  reshape [7,4]: {}", img.reshape([7, 4]).unwrap_err());
    println!(
        "  upload of 3 values: {}",
        img.upload(&[1.0, 2.0, 3.0]).unwrap_err()
    );
    let ptr = img.as_slice().as_ptr();
    let untyped: Tensor = img.into(); // free: moves the Tensor out
    println!(
        "  back as int32: {}",
        TypedTensor::<i32>::try_from(untyped.clone()).unwrap_err()
    );
    let img = TypedTensor::<f32>::try_from(untyped)?; // free: dtype checked
    let pixels = img.into_array(); // from_fn's Vec, handed over
    println!(
        "  into_array: shape {:?}, same memory (no copy): {}",
        pixels.shape(),
        pixels.as_ptr() == ptr
    );
    section("7. Printing exactly as TensorFlow prints (Display = DebugString(100))");
    let f = Tensor::from_vec(
        [2, 3],
        vec![1.5f32, -0.0, f32::NAN, 1e10, 1.0 / 3.0, f32::INFINITY],
    )?;
    println!("  {f}");
    let h = Tensor::from_vec(
        [3],
        vec![half::bf16::from_f32(0.1), half::bf16::ONE, half::bf16::ZERO],
    )?;
    println!("  {h}");
    let strings = Tensor::from_vec(
        [2, 2],
        ["one", "two", "tab\t", "quote\""]
            .map(tftensor::bytes::Bytes::from)
            .to_vec(),
    )?;
    println!("  {strings}");
    println!(
        "  v2 (tf.print style):\n{}",
        strings.summarize_value(-1, true)
    );
    let big = Tensor::from_vec([3, 4], (1..=12).collect::<Vec<i32>>())?;
    println!("  v1, 3 entries: {}", big.summarize_value(3, false));
    println!("  v2, 1 edge item:\n{}", big.summarize_value(1, true));
    println!(
        "  complex prints '?' as TF 2.21: {}",
        Tensor::from(num_complex::Complex::new(1.0f32, 2.0))
    );
    println!("  debug_string(): {}", big.debug_string());
    println!(
        "  device_safe_debug_string(): {}",
        big.device_safe_debug_string()
    );
    section("8. TensorProto: byte-for-byte what TensorFlow writes and reads");
    let t = Tensor::from_vec([2, 2], vec![1.0f32, 2.0, 3.0, 4.0])?;
    let wire = t.as_proto_tensor_content()?.encode_to_vec();
    println!(
        "  as_proto_tensor_content, encoded ({} bytes): {}",
        wire.len(),
        hex(&wire)
    );
    let field = t.as_proto_field()?;
    println!("  as_proto_field: float_val = {:?}", field.float_val);
    let back = Tensor::decode(tftensor::bytes::Bytes::from(wire))?;
    println!("  decode -> {back}, equal: {}", back == t);
    // FromProto's fill rule: fewer values than elements repeat the last one.
    let sparse = pb::TensorProto {
        dtype: DataType::Int32.as_i32(),
        tensor_shape: Some(pb::TensorShapeProto {
            dim: vec![pb::tensor_shape_proto::Dim {
                size: 5,
                ..Default::default()
            }],
            ..Default::default()
        }),
        int_val: vec![7, 8],
        ..Default::default()
    };
    println!(
        "  int_val [7, 8] into shape [5] -> {}",
        Tensor::from_proto(&sparse)?
    );
    let mut compressed = Tensor::from_vec([100], vec![42.0f32; 100])?.as_proto_field()?;
    let changed = tftensor::compress_tensor_proto_in_place(&mut compressed, 64, 2.0);
    println!(
        "  compress 100 x 42.0: {changed}, float_val now {:?}, decodes to {}",
        compressed.float_val,
        Tensor::from_proto(&compressed)?.debug_string()
    );
    let hostile = pb::TensorProto {
        dtype: DataType::Float.as_i32(),
        tensor_shape: Some(pb::TensorShapeProto {
            dim: vec![pb::tensor_shape_proto::Dim {
                size: 1 << 40,
                ..Default::default()
            }],
            ..Default::default()
        }),
        ..Default::default()
    };
    println!(
        "  a 4 TiB declared shape: {}",
        Tensor::from_proto(&hostile).unwrap_err()
    );
    println!(
        "  garbage bytes: {}",
        Tensor::decode(tftensor::bytes::Bytes::from_static(&[0xff; 4])).unwrap_err()
    );

    #[cfg(all(feature = "npy", feature = "safetensors"))]
    files()?;
    #[cfg(feature = "checkpoint")]
    checkpoints()?;
    #[cfg(feature = "tfrecord")]
    tfrecord()?;
    #[cfg(feature = "dlpack")]
    dlpack_section()?;
    Ok(())
}

/// The files next to TF's: `.npy`/`.npz` and `.safetensors`.
#[cfg(all(feature = "npy", feature = "safetensors"))]
fn files() -> Result<()> {
    use tftensor::{npy, safetensors};
    section("9. Files: .npy/.npz as np.save writes them, .safetensors");
    let dir = tempfile::Builder::new()
        .prefix("tftensor-tour-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).map_err(|e| tftensor::Error::io(dir.display(), &e))?;
    let w = Tensor::from_vec([2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])?;
    let npy_bytes = npy::to_npy_bytes(&w)?;
    println!(
        "  .npy header: {:?}",
        String::from_utf8_lossy(&npy_bytes[10..80])
    );
    let shared = tftensor::bytes::Bytes::from(npy_bytes);
    let back = npy::read_npy_bytes(shared.clone())?;
    println!(
        "  read back without a copy: {}",
        back.data_ptr() == Some(shared[128..].as_ptr())
    );
    let b = Tensor::from_vec(
        [2],
        vec![half::bf16::from_f32(0.5), half::bf16::from_f32(-1.0)],
    )?;
    npy::write_npy(dir.join("b.npy"), &b)?;
    println!(
        "  bfloat16 is '<V2' on disk: {}",
        npy::read_npy(dir.join("b.npy")).unwrap_err()
    );
    println!(
        "  read_npy_as(.., bfloat16): {}",
        npy::read_npy_as(dir.join("b.npy"), DataType::BFloat16)?
    );
    let mut z = npy::NpzWriter::create_compressed(dir.join("a.npz"))?;
    z.add("w", &w)?;
    z.add("b", &b)?;
    z.finish()?;
    let r = npy::NpzReader::open(dir.join("a.npz"))?;
    println!("  .npz members: {:?}", r.names().collect::<Vec<_>>());
    safetensors::save(dir.join("m.safetensors"), [("w", &w), ("b", &b)])?;
    for (name, t) in safetensors::load(dir.join("m.safetensors"))? {
        println!("  safetensors {name}: {} {}", t.dtype(), t.shape());
    }
    std::fs::remove_dir_all(&dir).ok();
    Ok(())
}

/// DLPack: how NumPy, PyTorch and friends borrow a tensor (and lend theirs).
#[cfg(feature = "dlpack")]
fn dlpack_section() -> Result<()> {
    use tftensor::dlpack;

    section("12. DLPack: zero-copy exchange with NumPy, PyTorch, JAX");
    let t = Tensor::from_vec([2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])?;
    let shared = dlpack::export(t.clone())?; // `t` still reads the buffer
    let dl = shared.dl_tensor();
    println!(
        "  export: dtype {:?} shape {:?} strides {:?} read-only {} same memory {}",
        dl.dtype,
        shared.shape(),
        shared.strides(),
        shared.is_read_only(),
        dl.data.cast_const().cast() == t.data_ptr().unwrap_or(std::ptr::null())
    );
    println!("  live exports: {}", dlpack::live_exports());
    // A consumer gets `shared.into_raw()`; here this crate consumes it.
    let back = dlpack::from_managed(shared)?;
    println!(
        "  import: {back}, same memory {}, live exports: {}",
        back.data_ptr() == t.data_ptr(),
        dlpack::live_exports()
    );
    drop((t, back));
    println!("  both dropped, live exports: {}", dlpack::live_exports());
    let u = Tensor::from_vec([2], vec![7i64, 8])?;
    let p = u.data_ptr();
    let owned = dlpack::export(u)?; // the only handle, given by value
    println!(
        "  export of a unique tensor: read-only {}, same memory {}",
        owned.is_read_only(),
        owned.dl_tensor().data.cast_const().cast() == p.unwrap_or(std::ptr::null())
    );
    let a = Tensor::from_vec([2], vec![1u8, 2])?;
    let refused = dlpack::export_legacy(a.clone()).unwrap_err();
    println!("  legacy export of a shared buffer: {refused}");
    drop(owned);
    println!(
        "  a string tensor: {}",
        dlpack::export(Tensor::from("text")).unwrap_err()
    );
    Ok(())
}

/// Section 10: a checkpoint written by TensorFlow 2.21 (a Keras model saved
/// with `tf.train.Checkpoint`), read without TensorFlow, and written back.
#[cfg(feature = "checkpoint")]
fn checkpoints() -> Result<()> {
    use tftensor::checkpoint::{self, BundleReader, BundleWriter};
    section("10. TensorFlow checkpoints: read and write tensor bundles");
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/checkpoints/tf2_keras");
    // A directory: the latest checkpoint named in its `checkpoint` file.
    for (name, dtype, shape) in checkpoint::list_variables(&dir)? {
        println!("  {name:<70} {dtype:<7} {}", shape.debug_string());
    }
    let r = BundleReader::open(&dir)?;
    let kernel = r.get("model/_functional/_operations/1/_kernel/.ATTRIBUTES/VARIABLE_VALUE")?;
    println!("  first Dense kernel:\n{}", kernel.matrix::<f32>()?);
    // Write it back: TF reads the result, and its .index has TF's own bytes.
    let mut w = BundleWriter::in_memory();
    for key in r.keys() {
        w.add(key, &r.get(key)?)?;
    }
    let (index, data) = w.finish_to_bytes()?;
    println!(
        "  rewritten: .index {} bytes, .data {} bytes",
        index.len(),
        data.len()
    );
    Ok(())
}

#[cfg(feature = "tfrecord")]
fn tfrecord() -> Result<()> {
    use tftensor::tfrecord::{
        Compression, RecordReader, RecordWriter, parse_example, parse_tensor, serialize_tensor,
        tensors_to_example,
    };

    section("11. TFRecord: TF's record files, CRC-checked, GZIP/ZLIB");
    let t = Tensor::from_vec([2], vec![1.5f32, -2.0])?;
    let label = Tensor::from(3i64);
    let example = tensors_to_example([("x", &t), ("label", &label)])?;
    let mut w = RecordWriter::new(Vec::new(), Compression::Gzip);
    w.write_record(&serialize_tensor(&t)?)?;
    w.write_record(&example.encode_to_vec())?;
    let file = w.finish()?;
    println!("  2 records, gzip: {} bytes", file.len());
    let mut records = RecordReader::new(file.as_slice(), Compression::Gzip);
    let tensor = parse_tensor(records.next().transpose()?.unwrap_or_default())?;
    println!("  record 0 as a tensor: {tensor}");
    let features = parse_example(records.next().transpose()?.unwrap_or_default())?;
    for (name, value) in &features {
        println!("  record 1 feature {name:?}: {value}");
    }
    let mut plain = RecordWriter::new(Vec::new(), Compression::None);
    plain.write_record(b"payload")?;
    let mut bytes = plain.finish()?;
    bytes[14] ^= 1;
    let err = RecordReader::new(bytes.as_slice(), Compression::None).next();
    println!(
        "  one flipped bit: {}",
        err.and_then(|r| r.err())
            .map_or(String::new(), |e| e.to_string())
    );
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
