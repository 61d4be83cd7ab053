//! [`OpenOptions`] and [`CreateOptions`]: what [`open_with`](super::open_with)
//! and [`create_with`](super::create_with) take beside the path.

use std::time::Duration;

use super::{Compression, Format};
use crate::dtype::DataType;

/// How URLs (`s3://`, `gs://`, `az://`, `http(s)://`) are reached, with the
/// `remote` feature; local paths ignore it. Everything else (endpoints,
/// credentials, regions) comes from the standard environment: `AWS_*`,
/// `GOOGLE_*`, `AZURE_*`, and `~/.aws/credentials` and `~/.aws/config`
/// for `AWS_PROFILE`.
///
/// Defaults: 16 requests in flight per read, a request timeout from the
/// store's own variable (`AWS_TIMEOUT`, `GOOGLE_TIMEOUT`, `AZURE_TIMEOUT`)
/// or 30 s, 3 retries with backoff (100 ms doubling, at most 2 s), and a
/// budget of tftensor's own: a request with its retries ends in an error
/// after `(retries + 1) * timeout + 8 s` at most, whatever the server does.
///
/// ```
/// use std::time::Duration;
/// use tftensor::io::{OpenOptions, RemoteOptions};
/// let remote = RemoteOptions::default().with_anonymous().with_timeout(Duration::from_secs(5));
/// let opts = OpenOptions::default().with_remote(remote.clone());
/// assert!(opts.remote.anonymous);
/// assert_eq!(remote.budget(), Duration::from_secs(28));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RemoteOptions {
    /// Send no credentials, for public buckets (the AWS CLI's
    /// `--no-sign-request`).
    pub anonymous: bool,
    /// The most requests in flight for one read (default 16).
    pub concurrency: Option<usize>,
    /// One request's time limit, from connecting to its last byte
    /// (default: the store's `*_TIMEOUT` variable, else 30 s).
    pub timeout: Option<Duration>,
    /// How often a failed request (5xx, throttling, a reset or timed-out
    /// connection, a body cut short) is retried (default 3).
    pub retries: Option<usize>,
}

impl RemoteOptions {
    /// The default request timeout, where neither the options nor the
    /// store's variable set one.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
    /// The default number of retries.
    pub const DEFAULT_RETRIES: usize = 3;
    /// The default number of requests in flight for one read.
    pub const DEFAULT_CONCURRENCY: usize = 16;
    /// The longest wait between two tries.
    pub const MAX_BACKOFF: Duration = Duration::from_secs(2);

    /// Sends no credentials (public buckets).
    ///
    /// ```
    /// assert!(tftensor::io::RemoteOptions::default().with_anonymous().anonymous);
    /// ```
    pub fn with_anonymous(mut self) -> RemoteOptions {
        self.anonymous = true;
        self
    }

    /// Keeps at most `n` (at least 1) requests in flight for one read.
    ///
    /// ```
    /// assert_eq!(tftensor::io::RemoteOptions::default().with_concurrency(0).concurrency, Some(1));
    /// ```
    pub fn with_concurrency(mut self, n: usize) -> RemoteOptions {
        self.concurrency = Some(n.max(1));
        self
    }

    /// Gives each request `timeout`, from connecting to its last byte.
    ///
    /// ```
    /// use std::time::Duration;
    /// let o = tftensor::io::RemoteOptions::default().with_timeout(Duration::from_secs(2));
    /// assert_eq!(o.timeout, Some(Duration::from_secs(2)));
    /// ```
    pub fn with_timeout(mut self, timeout: Duration) -> RemoteOptions {
        self.timeout = Some(timeout);
        self
    }

    /// Retries a failed request `n` times.
    ///
    /// ```
    /// assert_eq!(tftensor::io::RemoteOptions::default().with_retries(0).retries, Some(0));
    /// ```
    pub fn with_retries(mut self, n: usize) -> RemoteOptions {
        self.retries = Some(n);
        self
    }

    /// tftensor's retry budget for one request with its retries, given
    /// the options' timeout (or the default): `(retries + 1) * timeout`
    /// plus every backoff at its longest, plus 2 s. A request still
    /// unanswered then ends in a timed-out error.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tftensor::io::RemoteOptions;
    /// let o = RemoteOptions::default().with_timeout(Duration::from_secs(2));
    /// assert!(o.budget() <= Duration::from_secs(20));
    /// ```
    pub fn budget(&self) -> Duration {
        self.budget_for(self.timeout.unwrap_or(Self::DEFAULT_TIMEOUT))
    }

    /// The budget for a request timeout of `timeout`.
    pub(crate) fn budget_for(&self, timeout: Duration) -> Duration {
        let retries = self.retries.unwrap_or(Self::DEFAULT_RETRIES);
        let tries = u32::try_from(retries.saturating_add(1)).unwrap_or(u32::MAX);
        let backoff = Self::MAX_BACKOFF.saturating_mul(tries.saturating_sub(1));
        timeout
            .saturating_mul(tries)
            .saturating_add(backoff)
            .saturating_add(Duration::from_secs(2))
    }
}

/// How to open an input ([`open_with`](crate::io::open_with)).
///
/// ```
/// use tftensor::{io::{Format, OpenOptions}, DataType};
/// let opts = OpenOptions::default().with_format(Format::NPZ).with_npy_dtype(DataType::BFloat16);
/// assert_eq!((opts.format, opts.npy_dtype), (Some(Format::NPZ), Some(DataType::BFloat16)));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct OpenOptions {
    /// Read the input as this format instead of detecting it.
    pub format: Option<Format>,
    /// The dtype of NumPy arrays stored as opaque bytes (`V1`/`V2`, how
    /// NumPy saves ml_dtypes' bfloat16, float8 and int4).
    pub npy_dtype: Option<DataType>,
    /// A TFRecord's compression, instead of the one its content says.
    pub compression: Option<Compression>,
    /// How URLs are reached (credentials, timeouts, requests in flight).
    pub remote: RemoteOptions,
    /// Memory-map local inputs (set only by the unsafe
    /// [`with_mmap`](OpenOptions::with_mmap)).
    mmap: bool,
}

impl OpenOptions {
    /// Reads the input as `format`.
    ///
    /// ```
    /// use tftensor::io::{Format, OpenOptions};
    /// let src = tftensor::io::open_with("tests/data/checkpoints/tf2_keras", &OpenOptions::default().with_format(Format::CHECKPOINT))?;
    /// assert!(!src.entries().is_empty());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn with_format(mut self, format: Format) -> OpenOptions {
        self.format = Some(format);
        self
    }

    /// Reads opaque NumPy arrays as `dtype`.
    ///
    /// ```
    /// use tftensor::{io::OpenOptions, DataType};
    /// let opts = OpenOptions::default().with_npy_dtype(DataType::BFloat16);
    /// let src = tftensor::io::open_with("tests/data/npy/arrays.npz", &opts)?;
    /// assert!(src.entries().iter().any(|e| e.dtype == DataType::BFloat16));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn with_npy_dtype(mut self, dtype: DataType) -> OpenOptions {
        self.npy_dtype = Some(dtype);
        self
    }

    /// Reads a TFRecord as compressed with `compression`, whatever its
    /// content says.
    ///
    /// ```
    /// use tftensor::io::{Compression, OpenOptions};
    /// let opts = OpenOptions::default().with_compression(Compression::Gzip);
    /// let src = tftensor::io::open_with("tests/data/tfrecord/tensors.gzip.tfrecord", &opts)?;
    /// assert!(!src.entries().is_empty());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn with_compression(mut self, compression: Compression) -> OpenOptions {
        self.compression = Some(compression);
        self
    }

    /// Reaches URLs as `remote` says.
    ///
    /// ```
    /// use tftensor::io::{OpenOptions, RemoteOptions};
    /// let opts = OpenOptions::default().with_remote(RemoteOptions::default().with_anonymous());
    /// assert!(opts.remote.anonymous);
    /// ```
    pub fn with_remote(mut self, remote: RemoteOptions) -> OpenOptions {
        self.remote = remote;
        self
    }

    /// Memory-maps local inputs where the format allows it: aligned
    /// tensors are then used in place, without a copy.
    ///
    /// # Safety
    /// The files must not be modified or truncated while the source or any
    /// tensor read from it is alive: reads go straight to the mapped pages.
    ///
    /// ```
    /// // SAFETY: nothing writes the test fixtures.
    /// let opts = unsafe { tftensor::io::OpenOptions::default().with_mmap() };
    /// assert!(opts.mmap());
    /// ```
    pub unsafe fn with_mmap(mut self) -> OpenOptions {
        self.mmap = true;
        self
    }

    /// Whether inputs are memory-mapped ([`with_mmap`](Self::with_mmap)).
    ///
    /// ```
    /// assert!(!tftensor::io::OpenOptions::default().mmap());
    /// ```
    pub fn mmap(&self) -> bool {
        self.mmap
    }
}

/// How to write an output ([`create_with`](crate::io::create_with)).
///
/// ```
/// use tftensor::io::{Compression, CreateOptions, Format};
/// let opts = CreateOptions::default().with_format(Format::NPZ).with_compression(Compression::Zlib);
/// assert_eq!(opts.compression, Some(Compression::Zlib));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CreateOptions {
    /// Write this format instead of the one the name says.
    pub format: Option<Format>,
    /// A TFRecord's compression (instead of the one a `.gz`/`.zz` ending
    /// says), or, for an `.npz`, deflated members when not `None`.
    pub compression: Option<Compression>,
    /// Metadata to keep where the format has a place for it
    /// (safetensors' `__metadata__`).
    pub metadata: Vec<(String, String)>,
    /// How URLs are reached (credentials, timeouts, requests in flight).
    pub remote: RemoteOptions,
}

impl CreateOptions {
    /// Writes `format`.
    ///
    /// ```
    /// let o = tftensor::io::CreateOptions::default().with_format(tftensor::io::Format::NPY);
    /// assert_eq!(o.format, Some(tftensor::io::Format::NPY));
    /// ```
    pub fn with_format(mut self, format: Format) -> CreateOptions {
        self.format = Some(format);
        self
    }

    /// Compresses the output.
    ///
    /// ```
    /// use tftensor::io::{Compression, CreateOptions};
    /// let tmp = tempfile::tempdir().unwrap();
    /// let p = tmp.path().join("w.npz");
    /// let mut sink = tftensor::io::create_with(&p, &CreateOptions::default().with_compression(Compression::Zlib))?;
    /// sink.add("z", &tftensor::Tensor::new(tftensor::DataType::Float, [1000])?)?;
    /// sink.finish()?;
    /// assert!(std::fs::metadata(&p)?.len() < 1000); // deflated zeros
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_compression(mut self, compression: Compression) -> CreateOptions {
        self.compression = Some(compression);
        self
    }

    /// Reaches URLs as `remote` says.
    ///
    /// ```
    /// use tftensor::io::{CreateOptions, RemoteOptions};
    /// let o = CreateOptions::default().with_remote(RemoteOptions::default().with_retries(1));
    /// assert_eq!(o.remote.retries, Some(1));
    /// ```
    pub fn with_remote(mut self, remote: RemoteOptions) -> CreateOptions {
        self.remote = remote;
        self
    }

    /// Keeps `metadata` in formats that have a place for it.
    ///
    /// ```
    /// let o = tftensor::io::CreateOptions::default().with_metadata(vec![("format".into(), "pt".into())]);
    /// assert_eq!(o.metadata.len(), 1);
    /// ```
    pub fn with_metadata(mut self, metadata: Vec<(String, String)>) -> CreateOptions {
        self.metadata = metadata;
        self
    }
}
