//! The one tokio runtime of the process, behind the library's blocking
//! API: a caller's thread runs a read's futures itself (so they may borrow
//! its buffers), while the runtime's workers drive the sockets and timers.

use std::future::Future;
use std::sync::OnceLock;

use tokio::runtime::{Builder, Handle, Runtime};

use crate::error::{Error, Result};

/// The process's runtime, started on first use.
fn runtime() -> Result<&'static Runtime> {
    static RT: OnceLock<std::result::Result<Runtime, String>> = OnceLock::new();
    let rt = RT.get_or_init(|| {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4));
        Builder::new_multi_thread()
            .worker_threads(workers)
            .thread_name("tftensor-remote")
            .enable_all()
            .build()
            .map_err(|e| e.to_string())
    });
    rt.as_ref().map_err(|e| {
        Error::io(
            "tftensor's remote runtime",
            std::io::Error::other(e.clone()),
        )
    })
}

/// The runtime's handle, for spawning tasks that outlive a call.
pub(crate) fn handle() -> Result<Handle> {
    Ok(runtime()?.handle().clone())
}

/// Runs `fut` to completion on this thread, inside the runtime's context.
/// From a thread that is itself running async code (a caller's own tokio
/// runtime), it runs on a scoped helper thread instead, as blocking there
/// is not allowed.
pub(crate) fn block_on<F>(fut: F) -> Result<F::Output>
where
    F: Future + Send,
    F::Output: Send,
{
    let rt = runtime()?;
    if Handle::try_current().is_err() {
        return Ok(rt.block_on(fut));
    }
    std::thread::scope(|s| match s.spawn(|| rt.block_on(fut)).join() {
        Ok(out) => Ok(out),
        Err(panic) => std::panic::resume_unwind(panic),
    })
}
