//! Writes: a complete local file uploaded under a key. Up to 8 MiB it is
//! one PUT; larger files are a multipart upload of 16 MiB parts, several
//! in flight, which the store shows under the key only once completed
//! (as a local output appears after its rename). A failed upload is
//! aborted, so no parts are left behind.

use std::io::Read;
use std::sync::Arc;

use futures::StreamExt;
use object_store::path::Path;
use object_store::{ObjectStoreExt, PutPayload};

use super::config::Client;
use super::retry::{Fault, named, within};
use super::runtime;
use crate::error::{Error, Result};

/// Files up to this size are one PUT.
const ONE_PUT: u64 = 8 << 20;
/// The part size of a multipart upload.
const PART: usize = 16 << 20;
/// The most parts in flight.
const PARTS_IN_FLIGHT: usize = 8;

/// Uploads the local file `from` to `path`, named `id` in errors.
pub(crate) fn upload_file(
    client: &Arc<Client>,
    path: &Path,
    id: &str,
    from: &std::path::Path,
) -> Result<()> {
    let mut file = std::fs::File::open(from).map_err(|e| Error::io(id, e))?;
    let len = file.metadata().map_err(|e| Error::io(id, e))?.len();
    if len <= ONE_PUT {
        let mut data = Vec::new();
        file.read_to_end(&mut data).map_err(|e| Error::io(id, e))?;
        let fut = within(client.budget, async {
            client
                .store
                .put(path, PutPayload::from(data))
                .await
                .map(|_| ())
                .map_err(Fault::Request)
        });
        return named(id, runtime::block_on(fut)?);
    }
    let fut = async {
        let mut upload = within(client.budget, async {
            client
                .store
                .put_multipart(path)
                .await
                .map_err(Fault::Request)
        })
        .await?;
        let parts = async {
            let mut in_flight = futures::stream::FuturesUnordered::new();
            loop {
                let mut buf = vec![0u8; PART];
                let n = read_full(&mut file, &mut buf).map_err(Fault::Local)?;
                if n == 0 {
                    break;
                }
                buf.truncate(n);
                in_flight.push(within(client.budget, {
                    let part = upload.put_part(PutPayload::from(buf));
                    async move { part.await.map_err(Fault::Request) }
                }));
                while in_flight.len() >= PARTS_IN_FLIGHT.min(client.concurrency) {
                    if let Some(r) = in_flight.next().await {
                        r?;
                    }
                }
            }
            while let Some(r) = in_flight.next().await {
                r?;
            }
            within(client.budget, async {
                upload.complete().await.map_err(Fault::Request)
            })
            .await
        }
        .await;
        if parts.is_err() {
            // Best effort: the first error is what matters.
            let _ = within(client.budget, async {
                upload.abort().await.map_err(Fault::Request)
            })
            .await;
        }
        parts.map(|_| ())
    };
    named(id, runtime::block_on(fut)?)
}

/// Reads until `buf` is full or the file ends; the count read.
fn read_full(file: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        let Some(rest) = buf.get_mut(n..) else { break };
        match file.read(rest) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}
