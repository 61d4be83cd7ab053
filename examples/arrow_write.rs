//! Writes `tests/data/arrow/kinds.tfrecord` back through Arrow, plus a
//! fixed-shape tensor column, for `scripts/check_arrow_with_tf.py` to read
//! with TensorFlow:
//!
//!     cargo run --example arrow_write --features arrow -- OUT.tfrecord.gz

use std::sync::Arc;

use tftensor::Tensor;
use tftensor::arrow::arrow_array::RecordBatch;
use tftensor::arrow::arrow_schema::Schema;
use tftensor::arrow::{decode_examples, tensor_to_arrow, write_examples_arrow};
use tftensor::tfrecord::{Compression, RecordReader};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args().nth(1).ok_or("usage: arrow_write OUT")?;
    let input = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/arrow/kinds.tfrecord"
    );
    let records: Vec<Vec<u8>> =
        RecordReader::open(input, Compression::None)?.collect::<Result<_, _>>()?;
    let kinds = decode_examples(&records)?;
    let t = Tensor::from_vec(
        [4, 2, 3],
        (0..24).map(|i| i as f32 * 0.5).collect::<Vec<_>>(),
    )?;
    let (field, array) = tensor_to_arrow(&t, "t")?;
    let tensors = RecordBatch::try_new(Arc::new(Schema::new(vec![field])), vec![array])?;
    let n = write_examples_arrow(&out, Compression::Gzip, [&kinds, &tensors])?;
    println!("wrote {n} records to {out}");
    Ok(())
}
