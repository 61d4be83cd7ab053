//! Fuzzes `tftensor::saved_model`: the input is tried both as a
//! `saved_model.pb` (`SavedModel::from_bytes`, then every `show` text and
//! every constant) and as a frozen `GraphDef` (`GraphConstants::from_bytes`).
//! Seeds: the files under tests/data/saved_model/.
//!
//! Checks, beyond "no panic, no crash, no hang, no allocation the input
//! did not pay for" (constants read with max_bytes 16 MiB):
//! * every constant that reads has the dtype, shape and byte length its
//!   entry listed from the header;
//! * `show_all` of a model that decodes starts with its first tag-set line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tftensor::bytes::Bytes;
use tftensor::saved_model::{GraphConstants, SavedModel};
use tftensor::FromProtoOptions;

fn check_constants(c: &GraphConstants) {
    let opts = FromProtoOptions::default().with_max_bytes(16 << 20);
    for e in c.entries() {
        let Ok(t) = c.read_with(&e.name, &opts) else {
            continue;
        };
        assert_eq!(t.dtype(), e.dtype);
        assert_eq!(t.shape(), &e.shape);
        if let (Some(n), Ok(raw)) = (e.byte_len, t.tensor_data()) {
            assert_eq!(n, raw.len() as u64);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let bytes = Bytes::copy_from_slice(data);
    if let Ok(sm) = SavedModel::from_bytes(bytes.clone()) {
        if let Ok(text) = sm.show_all() {
            // from_bytes refuses a model without meta graphs.
            assert!(text.starts_with("\nMetaGraphDef with tag-set: '"));
        }
        let _ = sm.show_tag_sets();
        for mg in sm.meta_graphs() {
            let tag_set = mg.tags().join(",");
            let _ = sm.show_signature_keys(&tag_set);
            for key in mg.signatures().keys() {
                let _ = sm.show_signature(&tag_set, key);
            }
            if let Ok(c) = mg.constants() {
                check_constants(&c);
            }
        }
    }
    if let Ok(c) = GraphConstants::from_bytes(bytes) {
        check_constants(&c);
    }
});
