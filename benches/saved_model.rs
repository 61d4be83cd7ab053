//! Suite 7: listing the signatures of a ~100 MiB SavedModel (goal: at most
//! 50 ms), beside `std::fs::read` of the same file in the same run.
//!
//! The model is `tests/data/saved_model/module` (TF 2.21, three
//! signatures) with 100 `Const` nodes of 1 MiB each (`common::byte_data`
//! as DT_FLOAT `tensor_content`, nodes `big_0`..`big_99`) added to its
//! graph, written with prost into a temporary directory (removed at the
//! end; it stays in the page cache). `cargo test` uses 2 nodes.
//!
//! * `saved_model/open_list_signatures`: `SavedModel::open` and a walk over
//!   every signature's inputs and outputs (the graph is not read).
//! * `saved_model/open_show_all`: `open` + `show_all` (reads and decodes
//!   the graph for the ops line; tensors are slices, not copies).
//! * `saved_model/open_list_signatures_vs_fs_read`: interleaved A/B
//!   against `std::fs::read` of the file.
//!
//! The TF peer (`benches/peers/tf_saved_model_cli.py`) builds the same
//! model and times `saved_model_cli show --all` on it beside this crate's
//! `examples/saved_model_show.rs`.

mod common;

use std::hint::black_box;
use std::path::{Path, PathBuf};

use common::MIB;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use prost::Message;
use tftensor::pb;
use tftensor::saved_model::SavedModel;

/// The module fixture with `n` Const nodes of 1 MiB added.
pub fn big_saved_model(n: usize) -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/saved_model/module");
    let bytes = std::fs::read(root.join("saved_model.pb")).unwrap();
    let mut sm = pb::SavedModel::decode(bytes.as_slice()).unwrap();
    let graph = sm.meta_graphs[0].graph_def.as_mut().unwrap();
    let content = bytes::Bytes::from(common::byte_data(MIB));
    for i in 0..n {
        let tensor = pb::TensorProto {
            dtype: pb::DataType::DtFloat as i32,
            tensor_shape: Some(pb::TensorShapeProto {
                dim: vec![pb::tensor_shape_proto::Dim {
                    size: (MIB / 4) as i64,
                    name: String::new(),
                }],
                unknown_rank: false,
            }),
            tensor_content: content.clone(),
            ..Default::default()
        };
        let attr = |v| pb::AttrValue { value: Some(v) };
        graph.node.push(pb::NodeDef {
            name: format!("big_{i}"),
            op: "Const".into(),
            attr: [
                (
                    "dtype".to_owned(),
                    attr(pb::attr_value::Value::Type(pb::DataType::DtFloat as i32)),
                ),
                (
                    "value".to_owned(),
                    attr(pb::attr_value::Value::Tensor(tensor)),
                ),
            ]
            .into(),
            ..Default::default()
        });
    }
    sm.encode_to_vec()
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn list_signatures(dir: &Path) -> usize {
    let sm = SavedModel::open(dir).unwrap();
    let mut n = 0;
    for mg in sm.meta_graphs() {
        for (key, sig) in mg.signatures() {
            n += key.len() + sig.method_name().len();
            for (k, info) in sig.inputs().iter().chain(sig.outputs()) {
                n += k.len() + info.name().len() + info.dims().map_or(0, <[i64]>::len);
            }
        }
    }
    n
}

fn bench(c: &mut Criterion) {
    let n = common::size(100, 2);
    let dir = TempDir(
        tempfile::Builder::new()
            .prefix("tftensor-bench-sm-")
            .tempdir()
            .unwrap()
            .keep(),
    );
    std::fs::create_dir_all(&dir.0).unwrap();
    let file = dir.0.join("saved_model.pb");
    let bytes = big_saved_model(n);
    let label = common::bytes_label(bytes.len() / MIB * MIB);
    println!("saved_model.pb: {} bytes", bytes.len());
    std::fs::write(&file, &bytes).unwrap();
    drop(bytes);
    // Same answer as TF's text, over the big model too.
    let text = SavedModel::open(&dir.0).unwrap().show_all().unwrap();
    assert!(text.contains("signature_def['serving_default']"));

    if let Some(ratio) = common::paired(
        &format!("saved_model/open_list_signatures_vs_fs_read/{label}"),
        || list_signatures(&dir.0),
        || std::fs::read(&file).unwrap(),
    ) {
        println!(
            "  open + list signatures: {:.1}x the speed of std::fs::read",
            1.0 / ratio
        );
    }

    let mut g = c.benchmark_group("saved_model");
    g.sample_size(20);
    g.bench_function(BenchmarkId::new("open_list_signatures", &label), |b| {
        b.iter(|| list_signatures(black_box(&dir.0)))
    });
    g.bench_function(BenchmarkId::new("open_show_all", &label), |b| {
        b.iter(|| {
            SavedModel::open(black_box(&dir.0))
                .unwrap()
                .show_all()
                .unwrap()
                .len()
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = bench
}
criterion_main!(benches);
