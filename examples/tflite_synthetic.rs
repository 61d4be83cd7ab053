//! Writes a synthetic TFLite model (float32 constants, no operators) for
//! benchmarks: `cargo run --release --example tflite_synthetic -- PATH
//! TENSORS ELEMS [offset] [sparse]`. `offset` puts the payloads after the
//! flatbuffer (offset mode); `sparse` (with `offset`) leaves them as holes,
//! so a model over 2 GiB costs no disk. TF's interpreter opens what it
//! writes (scripts/bench_tflite.py checks a small one).

#[path = "../benches/common/tflite_model.rs"]
mod tflite_model;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: tflite_synthetic PATH TENSORS ELEMS [offset] [sparse]");
        std::process::exit(2);
    }
    let path = std::path::Path::new(&args[0]);
    let tensors: usize = args[1].parse().expect("TENSORS");
    let elems: usize = args[2].parse().expect("ELEMS");
    let offset = args.iter().any(|a| a == "offset");
    let sparse = args.iter().any(|a| a == "sparse");
    let fill = |k: usize, dst: &mut [u8]| {
        for (i, w) in dst.chunks_exact_mut(4).enumerate() {
            w.copy_from_slice(&(((i % 1013) as f32) * 0.25 - 100.0 + k as f32).to_le_bytes());
        }
    };
    tflite_model::write(
        path,
        tensors,
        elems,
        offset,
        (!sparse).then_some(&fill as &dyn Fn(usize, &mut [u8])),
    );
    println!(
        "{}: {} bytes",
        path.display(),
        std::fs::metadata(path).unwrap().len()
    );
}
