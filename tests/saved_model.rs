//! SavedModels and frozen GraphDefs written by real TF 2.21 / Keras 3
//! (`scripts/gen_saved_model.py`): `saved_model_cli show` text byte for byte
//! (the ops line, a Python set, compared as a set), signatures, fingerprint,
//! and every Const equal to `tf.make_ndarray`.
#![cfg(feature = "saved_model")]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use serde_json::Value;
use tftensor::saved_model::{GraphConstants, SavedModel, TensorEncoding};
use tftensor::{DataType, Error};

const MODELS: [&str; 3] = ["keras_export", "module", "tf1_builder"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/saved_model")
}

fn expected_dir(model: &str) -> PathBuf {
    root().join(format!("{model}.expected"))
}

fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn expected(model: &str) -> Value {
    serde_json::from_str(&read_text(&expected_dir(model).join("expected.json"))).unwrap()
}

const OPS: &str = " contains the following ops: ";

/// Splits text into lines, with each ops line's set taken out as a sorted set.
fn normalize(text: &str) -> Vec<(String, Option<BTreeSet<String>>)> {
    text.split('\n')
        .map(|line| match line.find(OPS) {
            Some(i) if line.starts_with("The MetaGraph with tag set ") => {
                let (head, set) = line.split_at(i + OPS.len());
                let items = if set == "set()" {
                    BTreeSet::new()
                } else {
                    let inner = set.strip_prefix('{').unwrap().strip_suffix('}').unwrap();
                    inner.split(", ").map(str::to_owned).collect()
                };
                (head.to_owned(), Some(items))
            }
            _ => (line.to_owned(), None),
        })
        .collect()
}

#[test]
fn show_all_matches_saved_model_cli() {
    for model in MODELS {
        let sm = SavedModel::open(root().join(model)).unwrap();
        let tf = read_text(&expected_dir(model).join("show_all.txt"));
        // Everything before TF's runtime-only "Concrete Functions" section.
        let tf = match tf.find("\nConcrete Functions:") {
            Some(i) => &tf[..i],
            None => &tf[..],
        };
        let ours = sm.show_all().unwrap();
        assert_eq!(normalize(&ours), normalize(tf), "{model}");
        // Our ops set is printed sorted; the rest is the same bytes.
        for line in ours.lines().filter(|l| l.contains(OPS)) {
            let set = &line[line.find(OPS).unwrap() + OPS.len()..];
            let items: Vec<&str> = set.trim_matches(['{', '}']).split(", ").collect();
            let mut sorted = items.clone();
            sorted.sort();
            assert_eq!(items, sorted);
        }
    }
}

#[test]
fn show_all_keeps_trailing_spaces() {
    let sm = SavedModel::open(root().join("module")).unwrap();
    let text = sm.show_all().unwrap();
    assert!(text.starts_with("\nMetaGraphDef with tag-set: 'serve' contains"));
    assert!(text.contains("\n  Method name is: \n"));
    let tf1 = SavedModel::open(root().join("tf1_builder"))
        .unwrap()
        .show_all()
        .unwrap();
    // The sparse and ragged inputs have no name: "name: " then the newline.
    assert_eq!(tf1.matches("        name: \n").count(), 2);
}

#[test]
fn show_dir_tag_set_and_signature_match_saved_model_cli() {
    for model in MODELS {
        let sm = SavedModel::open(root().join(model)).unwrap();
        let dir = expected_dir(model);
        assert_eq!(
            sm.show_tag_sets(),
            read_text(&dir.join("show_dir.txt")),
            "{model}"
        );
        for (i, mg) in sm.meta_graphs().iter().enumerate() {
            let tag_set = mg.tags().join(",");
            assert_eq!(
                sm.show_signature_keys(&tag_set).unwrap(),
                read_text(&dir.join(format!("tag_set_{i}.txt"))),
                "{model} {tag_set}"
            );
            for key in mg.signatures().keys() {
                assert_eq!(
                    sm.show_signature(&tag_set, key).unwrap(),
                    read_text(&dir.join(format!("sig_{i}_{key}.txt"))),
                    "{model} {tag_set} {key}"
                );
            }
        }
    }
}

#[test]
fn signatures_fingerprint_and_functions() {
    for model in MODELS {
        let sm = SavedModel::open(root().join(model)).unwrap();
        let exp = expected(model);
        let graphs = exp["meta_graphs"].as_array().unwrap();
        assert_eq!(sm.meta_graphs().len(), graphs.len());
        assert_eq!(sm.schema_version(), 1);
        for (mg, e) in sm.meta_graphs().iter().zip(graphs) {
            let tags: Vec<&str> = e["tags"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            assert_eq!(mg.tags(), tags.as_slice());
            let keys: Vec<&String> = mg.signatures().keys().collect();
            let want: Vec<&str> = e["signature_keys"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            assert_eq!(keys, want);
            for (k, sig) in mg.signatures() {
                assert_eq!(sig.method_name(), e["method_names"][k].as_str().unwrap());
            }
            let fns: Vec<&str> = e["concrete_functions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            assert_eq!(mg.concrete_function_names(), fns);
            assert_eq!(
                mg.object_graph().is_some(),
                e["has_object_graph"].as_bool().unwrap()
            );
            assert_eq!(
                mg.tensorflow_version(),
                e["tensorflow_version"].as_str().unwrap()
            );
        }
        match (sm.fingerprint(), exp.get("fingerprint")) {
            (None, None) => assert_eq!(model, "tf1_builder"),
            (Some(f), Some(e)) => {
                let num = |k: &str| e[k].as_str().unwrap().parse::<u64>().unwrap();
                assert_eq!(f.saved_model_checksum, num("saved_model_checksum"));
                assert_eq!(f.graph_def_program_hash, num("graph_def_program_hash"));
                assert_eq!(f.signature_def_hash, num("signature_def_hash"));
                assert_eq!(f.saved_object_graph_hash, num("saved_object_graph_hash"));
                assert_eq!(f.checkpoint_hash, num("checkpoint_hash"));
                assert_eq!(f.uuid, e["uuid"].as_str().unwrap());
                assert_eq!(
                    sm.singleprint().unwrap(),
                    format!(
                        "{}/{}/{}/{}",
                        num("graph_def_program_hash"),
                        num("signature_def_hash"),
                        num("saved_object_graph_hash"),
                        num("checkpoint_hash")
                    )
                );
            }
            other => panic!("{model}: fingerprint {other:?}"),
        }
    }
}

#[test]
fn tensor_infos_dense_sparse_ragged_unknown() {
    let tf1 = SavedModel::open(root().join("tf1_builder")).unwrap();
    let predict = tf1
        .meta_graph("serve")
        .unwrap()
        .signature("predict")
        .unwrap();
    let x = &predict.inputs()["x"];
    assert_eq!(x.name(), "x:0");
    assert_eq!(x.dtype(), DataType::Float);
    assert_eq!(x.dims(), Some(&[-1, 4][..]));
    let sp = &predict.inputs()["sp"];
    assert!(
        matches!(sp.encoding(), TensorEncoding::CooSparse { values_tensor_name, .. } if values_tensor_name.starts_with("sp/values"))
    );
    assert_eq!(
        (sp.dtype(), sp.dims()),
        (DataType::Int64, Some(&[-1, 10][..]))
    );
    let rg = &predict.inputs()["rg"];
    assert_eq!(rg.dtype(), DataType::from_i32(0));
    assert!(!rg.has_shape());
    match rg.encoding() {
        TensorEncoding::Composite {
            type_spec_class_name,
            type_spec_class,
            components,
            ..
        } => {
            assert_eq!(type_spec_class_name, "RaggedTensorSpec");
            assert_eq!(*type_spec_class, 3);
            assert_eq!(components.len(), 2);
            assert_eq!(components[0].dtype(), DataType::Float);
            assert_eq!(components[1].dtype(), DataType::Int64);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(predict.outputs()["s"].dims(), None);
    assert_eq!(predict.outputs()["r"].dims(), Some(&[][..]));
    // Order-free tag-set matching, as saved_model_cli does.
    assert_eq!(
        tf1.meta_graph("gpu,serve").unwrap().tags(),
        ["serve", "gpu"]
    );
    let regress = tf1
        .meta_graph("serve")
        .unwrap()
        .signature("regress")
        .unwrap();
    assert_eq!(regress.inputs()["q"].dims(), None);
    assert_eq!(regress.inputs()["q"].dtype(), DataType::String);

    let m = SavedModel::open(root().join("module")).unwrap();
    let serve = m.meta_graph("serve").unwrap();
    let img = &serve.signature("unknown_dims").unwrap().inputs()["img"];
    assert_eq!(img.dims(), Some(&[-1, -1, 2][..]));
    assert_eq!(
        serve.signature("classify").unwrap().inputs()["anything"].dims(),
        None
    );
}

#[test]
fn errors_are_clear() {
    let missing = root().join("no_such_model");
    let err = SavedModel::open(&missing).unwrap_err();
    assert!(
        matches!(&err, Error::NotFound { message, .. } if message.starts_with("SavedModel file does not exist")),
        "{err}"
    );
    assert_eq!(err.path(), Some(missing.display().to_string().as_str()));

    // Text and chunked SavedModels are refused by name.
    for other in ["saved_model.pbtxt", "saved_model.cpb"] {
        let dir = tempfile::Builder::new()
            .prefix(&format!("tftensor-sm-{other}-"))
            .tempdir()
            .unwrap()
            .keep();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(other), b"meta_graphs {}").unwrap();
        let err = SavedModel::open(&dir).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            matches!(&err, Error::InvalidFormat { message, .. } if message.contains(other)),
            "{err}"
        );
    }

    let m = SavedModel::open(root().join("module")).unwrap();
    let err = m.meta_graph("serve,gpu").unwrap_err();
    assert!(matches!(&err, Error::NotFound { .. }));
    assert_eq!(
        err.to_string(),
        "MetaGraphDef associated with tag-set serve,gpu could not be found in the SavedModel. \
         Please use one of the following tag-sets: ['serve']"
    );
    let err = m.show_signature("serve", "nope").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("Could not find signature \"nope\". Please choose from: ")
    );

    // Not a SavedModel: a bad wire type.
    let err = SavedModel::from_bytes(Bytes::from_static(&[0x0f, 0x01])).unwrap_err();
    assert!(matches!(err, Error::InvalidFormat { .. }), "{err}");
    // Empty bytes decode to a SavedModel with no meta graph.
    let err = SavedModel::from_bytes(Bytes::new()).unwrap_err();
    assert!(err.to_string().contains("no MetaGraphDef"), "{err}");
    // Unknown fields are skipped, as C++ protobuf does.
    let mut bytes = std::fs::read(root().join("module/saved_model.pb")).unwrap();
    bytes.extend_from_slice(&[0xa0, 0x06, 0x07]); // field 100, varint 7
    let sm = SavedModel::from_bytes(bytes.into()).unwrap();
    assert_eq!(sm.show_all().unwrap(), m.show_all().unwrap());

    // A frozen GraphDef is not a SavedModel directory.
    let err = GraphConstants::from_bytes(Bytes::from_static(&[0x0a, 0x05, 0x01])).unwrap_err();
    assert!(matches!(err, Error::InvalidFormat { .. }), "{err}");
    let g = GraphConstants::open(root().join("frozen_tf1.pb")).unwrap();
    assert!(matches!(g.read("nope"), Err(Error::NotFound { .. })));
}

/// Checks every Const against the `tf.make_ndarray` record.
fn check_constants(consts: &GraphConstants, records: &Value, what: &str) {
    let records = records.as_array().unwrap();
    let names: Vec<&str> = consts.entries().iter().map(|e| e.name.as_str()).collect();
    let want: Vec<&str> = records
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, want, "{what}");
    for (e, r) in consts.entries().iter().zip(records) {
        let shape: Vec<i64> = r["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_i64().unwrap())
            .collect();
        assert_eq!(
            e.dtype.as_i32() as i64,
            r["dtype_enum"].as_i64().unwrap(),
            "{what} {}",
            e.name
        );
        assert_eq!(e.shape.dim_sizes(), shape, "{what} {}", e.name);
        let t = consts.read(&e.name).unwrap();
        assert_eq!(t.dtype(), e.dtype);
        assert_eq!(t.shape(), &e.shape);
        if let Some(values) = r.get("values_hex") {
            let got: Vec<String> = t
                .as_slice::<Bytes>()
                .unwrap()
                .iter()
                .map(hex::encode)
                .collect();
            let want: Vec<&str> = values
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            assert_eq!(got, want, "{what} {}", e.name);
            assert_eq!(e.byte_len, None);
        } else {
            assert_eq!(
                hex::encode(t.tensor_data().unwrap()),
                r["hex"].as_str().unwrap(),
                "{what} {}",
                e.name
            );
            assert_eq!(
                e.byte_len,
                Some(r["nbytes"].as_u64().unwrap()),
                "{what} {}",
                e.name
            );
        }
    }
}

#[test]
fn frozen_graph_constants_equal_make_ndarray() {
    for name in ["frozen_tf1", "frozen_v2"] {
        let consts = GraphConstants::open(root().join(format!("{name}.pb"))).unwrap();
        let exp: Value =
            serde_json::from_str(&read_text(&root().join(format!("{name}.json")))).unwrap();
        check_constants(&consts, &exp["constants"], name);
    }
    let tf1 = GraphConstants::open(root().join("frozen_tf1.pb")).unwrap();
    let w = tf1.read("W").unwrap();
    assert_eq!(w.shape().dim_sizes(), [4, 2]);
    assert_eq!(w.as_slice::<f32>().unwrap()[7], 1.0);
    // One int64_val repeated over the shape, as TF's FromProto does.
    assert_eq!(
        tf1.read("fill").unwrap().as_slice::<i64>().unwrap(),
        &[3; 6]
    );
}

#[test]
fn saved_model_constants_equal_make_ndarray() {
    for model in MODELS {
        let sm = SavedModel::open(root().join(model)).unwrap();
        let exp = expected(model);
        for (mg, e) in sm
            .meta_graphs()
            .iter()
            .zip(exp["meta_graphs"].as_array().unwrap())
        {
            check_constants(&mg.constants().unwrap(), &e["constants"], model);
        }
        // Function-library constants are named function/node.
        let consts = sm.meta_graphs()[0].constants().unwrap();
        let in_functions = consts
            .entries()
            .iter()
            .filter(|e| e.name.starts_with("__inference_"))
            .count();
        assert_eq!(in_functions > 0, model != "tf1_builder", "{model}");
        // A directory opens its first meta graph.
        let first = GraphConstants::open(root().join(model)).unwrap();
        assert_eq!(
            first.entries(),
            sm.meta_graphs()[0].constants().unwrap().entries()
        );
    }
}

/// Map entries with key 0 in a graph's functions (`arg_attr`,
/// `resource_arg_unique_id`).
fn zero_keys(g: &tftensor::pb::GraphDef) -> usize {
    g.library
        .iter()
        .flat_map(|lib| &lib.function)
        .map(|f| {
            usize::from(f.arg_attr.contains_key(&0))
                + usize::from(f.resource_arg_unique_id.contains_key(&0))
        })
        .sum()
}

/// The vendored protos know every field TF wrote: a full decode and
/// re-encode of each file gives its bytes back, except that C++ writes a
/// map entry's key even when it is 0 (2 bytes) and prost leaves it out.
#[test]
fn vendored_protos_round_trip_tf_files() {
    use prost::Message;
    use tftensor::pb;
    for model in MODELS {
        let bytes = std::fs::read(root().join(model).join("saved_model.pb")).unwrap();
        let sm = pb::SavedModel::decode(bytes.as_slice()).unwrap();
        let zero_keys: usize = sm
            .meta_graphs
            .iter()
            .filter_map(|mg| mg.graph_def.as_ref())
            .map(zero_keys)
            .sum();
        let ours = sm.encode_to_vec();
        assert_eq!(ours.len() + 2 * zero_keys, bytes.len(), "{model}");
        if zero_keys == 0 {
            assert_eq!(ours, bytes, "{model}");
        }
    }
    for name in ["frozen_tf1.pb", "frozen_v2.pb"] {
        let bytes = std::fs::read(root().join(name)).unwrap();
        let g = pb::GraphDef::decode(bytes.as_slice()).unwrap();
        assert_eq!(
            g.encode_to_vec().len() + 2 * zero_keys(&g),
            bytes.len(),
            "{name}"
        );
    }
    for model in ["module", "keras_export"] {
        let bytes = std::fs::read(root().join(model).join("fingerprint.pb")).unwrap();
        let f = pb::FingerprintDef::decode(bytes.as_slice()).unwrap();
        assert_eq!(f.encode_to_vec(), bytes, "{model}");
    }
}

/// Issue 35, fault 3: a TF1 `model.ckpt-5.meta` (a `MetaGraphDef`, as
/// `tf.compat.v1.train.Saver` writes it beside a checkpoint) is read as
/// one: its graph's Consts as entries, equal to `tf.make_ndarray`; its
/// signatures and ops as `saved_model_cli` prints them; its collection
/// names as metadata. It was read as a TensorProto (`dtype 0 is not a
/// tensor's dtype`), then as a GraphDef.
#[test]
fn a_tf1_meta_graph_is_read_through_its_meta_graph() {
    use tftensor::io::{self, Format};
    let path = root().join("tf1_saver/model.ckpt-5.meta");
    let exp: Value =
        serde_json::from_str(&read_text(&root().join("tf1_saver/model.ckpt-5.meta.json"))).unwrap();
    let mut src = io::open(&path).unwrap();
    assert_eq!(src.format(), Format::GRAPH_DEF);
    let want: Vec<&str> = exp["constants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    let names: Vec<&str> = src.entries().iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, want);
    let scale = src.read_named("scale").unwrap();
    assert_eq!(scale.as_slice::<f32>().unwrap(), [2.0, 0.25, -1.0]);
    let mg = tftensor::saved_model::MetaGraph::open(&path).unwrap();
    check_constants(
        &mg.constants().unwrap(),
        &exp["constants"],
        "model.ckpt-5.meta",
    );
    let collections: Vec<&str> = exp["collections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(mg.collection_names(), collections);
    let metadata = src.metadata();
    assert_eq!(metadata[0], ("collections".into(), collections.join("\n")));
    assert_eq!(metadata[1], ("tensorflow_version".into(), "2.21.0".into()));
    let ops: Vec<String> = exp["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| format!("'{}'", o.as_str().unwrap()))
        .collect();
    let text = src.signatures().unwrap().unwrap();
    assert_eq!(
        text,
        format!(
            "\nMetaGraphDef with tag-set: '' contains the following SignatureDefs:\n\
             The MetaGraph with tag set [] contains the following ops: {{{}}}\n",
            ops.join(", ")
        )
    );
}
