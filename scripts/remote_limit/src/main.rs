//! The limit of the remote bench (scripts/bench_remote.py): a plain
//! parallel ranged download of a whole S3 object with object_store's own
//! `get_ranges`, 8 MiB ranges, 16 requests in flight, the store from the
//! environment (`AWS_*`). Prints `seconds bytes`. The parts are kept until
//! the end, as a reader holds what it read (dropping each part as it came
//! would let the allocator hand the same few pages back, never paying for
//! the fresh memory that holding the object takes).

use std::time::Instant;

use futures::StreamExt;
use object_store::aws::AmazonS3Builder;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args().nth(1).ok_or("usage: remote-limit s3://bucket/key")?;
    let (bucket, key) = url
        .strip_prefix("s3://")
        .and_then(|r| r.split_once('/'))
        .ok_or("s3://bucket/key")?;
    let store = AmazonS3Builder::from_env()
        .with_bucket_name(bucket)
        .with_allow_http(true)
        .build()?;
    let path = Path::from(key);
    let rt = tokio::runtime::Runtime::new()?;
    let start = Instant::now();
    let total = rt.block_on(async {
        let len = store.head(&path).await?.size;
        let part = 8u64 << 20;
        let ranges: Vec<_> = (0..len.div_ceil(part))
            .map(|i| i * part..((i + 1) * part).min(len))
            .collect();
        let (store, path) = (&store, &path);
        let mut got = futures::stream::iter(
            ranges
                .into_iter()
                .map(|r| async move { store.get_ranges(path, &[r]).await }),
        )
        .buffer_unordered(16);
        let mut parts = Vec::new();
        while let Some(r) = got.next().await {
            parts.extend(r?);
        }
        Ok::<u64, object_store::Error>(parts.iter().map(|b| b.len() as u64).sum())
    })?;
    println!("{:.4} {total}", start.elapsed().as_secs_f64());
    Ok(())
}
