//! Device-to-host readback into pinned memory, synchronous or pending.

use std::sync::Mutex;

use bytes::Bytes;

use super::driver::{Context, Driver, Event, Stream};
use super::pinned::PinnedBlock;
use super::tensor::DeviceTensor;
use crate::dtype::DataType;
use crate::error::Result;
use crate::shape::TensorShape;
use crate::tensor::Tensor;

/// The copy stream of each device: created once, never destroyed.
fn copy_stream(driver: Driver, ctx: &Context, ordinal: i32) -> Result<Stream> {
    static STREAMS: Mutex<Vec<(i32, Stream)>> = Mutex::new(Vec::new());
    // The list is valid between statements: a poisoned lock is usable.
    let mut streams = STREAMS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(&(_, s)) = streams.iter().find(|(o, _)| *o == ordinal) {
        return Ok(s);
    }
    let s = driver.stream(ctx)?;
    streams.push((ordinal, s));
    Ok(s)
}

/// A readback in flight ([`DeviceTensor::readback_and_clone_async`]):
/// poll [`Readback::is_done`], then [`Readback::wait`] for the host
/// [`Tensor`]. It keeps the device tensor alive until the copy finished,
/// so the producer's memory is not freed under it; dropping it unfinished
/// waits for the copy first.
pub struct Readback {
    dtype: DataType,
    shape: TensorShape,
    pending: Option<Pending>,
}

struct Pending {
    done: Event,
    block: PinnedBlock,
    /// Held so the device memory outlives the copy.
    _source: DeviceTensor,
}

impl DeviceTensor {
    /// Copies the elements to a new host [`Tensor`], waiting for them. The
    /// copy goes through pinned memory from a small caching pool, and the
    /// host tensor lives in that memory (returned to the pool when its
    /// buffer is dropped). Ordered after the stream the data is ready on.
    ///
    /// # Errors
    /// The "no CUDA driver" error; the driver's errors; for bool, a byte
    /// other than 0 or 1.
    pub fn readback_and_clone(&self) -> Result<Tensor> {
        self.readback_and_clone_async()?.wait()
    }

    /// Starts copying the elements to the host and returns at once: the
    /// copy runs on this crate's copy stream for the device, made to wait
    /// (with an event) for the stream the data is ready on, per DLPack's
    /// stream rules.
    ///
    /// # Errors
    /// As [`DeviceTensor::readback_and_clone`], for starting the copy.
    pub fn readback_and_clone_async(&self) -> Result<Readback> {
        let inner = &self.inner;
        let mut readback = Readback {
            dtype: inner.dtype,
            shape: inner.shape.clone(),
            pending: None,
        };
        if inner.len == 0 {
            return Ok(readback);
        }
        let driver = Driver::get()?;
        let ordinal = inner.device.device_id;
        let ctx = driver.enter(ordinal)?;
        let stream = copy_stream(driver, &ctx, ordinal)?;
        if let Some(ready) = inner.ready {
            let ready_event = driver.record(&ctx, &ready)?;
            // The wait is enqueued; the event may be destroyed after.
            driver.wait_event(&stream, &ready_event)?;
        }
        let mut block = PinnedBlock::take(driver, &ctx, inner.len)?;
        // SAFETY: `block` holds `inner.len` pinned bytes and `inner.data`
        // as many device bytes; both stay alive until the copy is known to
        // be done (`Pending` holds them, and its drop waits).
        unsafe {
            driver.copy_dtoh_async(&ctx, block.as_mut_ptr(), inner.data, inner.len, &stream)
        }?;
        match driver.record(&ctx, &stream) {
            Ok(done) => {
                readback.pending = Some(Pending {
                    done,
                    block,
                    _source: self.clone(),
                });
                Ok(readback)
            }
            Err(e) => {
                // The copy is enqueued: it must finish before the block
                // can go back to the pool; if even that fails, leak it.
                if driver.sync_stream(&stream).is_err() {
                    std::mem::forget(block);
                }
                Err(e)
            }
        }
    }
}

impl Readback {
    /// Whether the copy has finished (a tensor with no elements is done at
    /// once).
    ///
    /// # Errors
    /// The driver's error for a failed copy.
    pub fn is_done(&self) -> Result<bool> {
        match &self.pending {
            None => Ok(true),
            Some(p) => p.done.is_done(),
        }
    }

    /// Waits for the copy and returns the host tensor.
    ///
    /// # Errors
    /// The driver's error for a failed copy; for bool, a byte other than 0
    /// or 1.
    pub fn wait(mut self) -> Result<Tensor> {
        let Some(pending) = self.pending.take() else {
            return Tensor::new(self.dtype, self.shape.clone());
        };
        if let Err(e) = pending.done.wait() {
            // The copy may still write the block: never reuse it.
            std::mem::forget(pending);
            return Err(e);
        }
        let Pending { block, .. } = pending;
        Tensor::from_buffer(self.dtype, self.shape.clone(), Bytes::from_owner(block))
    }
}

impl Drop for Readback {
    fn drop(&mut self) {
        if let Some(pending) = self.pending.take() {
            if pending.done.wait().is_err() {
                // As in `wait`: a copy in an unknown state keeps its memory.
                std::mem::forget(pending);
            }
        }
    }
}

impl std::fmt::Debug for Readback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Readback")
            .field("dtype", &self.dtype)
            .field("shape", &self.shape)
            .field("pending", &self.pending.is_some())
            .finish()
    }
}
