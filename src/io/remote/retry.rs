//! Faults: object_store retries 5xx answers, throttling, reset and timed
//! out connections, and bodies broken mid-stream (resumed by a ranged GET),
//! with the few retries and short backoff that `config` sets. Around each
//! request and its retries, tftensor keeps a budget of its own
//! ([`RemoteOptions::budget`](crate::io::RemoteOptions::budget)), so a
//! silent server or a body always cut short ends in an error in bounded
//! time. Failures become the crate's errors, each naming the URL: a
//! missing object or bucket is `NotFound`, a refusal `PermissionDenied`,
//! no answer `TimedOut`, a body cut short [`Error::DataLoss`].

use std::fmt;
use std::future::Future;
use std::io::ErrorKind;
use std::time::Duration;

use crate::error::{Error, Result};

/// What went wrong with a request, before it is named.
#[derive(Debug)]
pub(crate) enum Fault {
    /// The store answered with an error (or none, after its retries).
    Request(object_store::Error),
    /// The body ended before the range did (after the store's retries).
    Cut {
        /// Where the missing bytes start.
        offset: u64,
        /// Why, where the transport said.
        cause: Option<object_store::Error>,
    },
    /// The answer was not the range asked for.
    Range {
        /// The range asked for.
        asked: std::ops::Range<u64>,
        /// The range the store said it sent.
        got: std::ops::Range<u64>,
    },
    /// tftensor's budget ran out.
    Budget(Duration),
    /// A local file (a staged output) could not be read.
    Local(std::io::Error),
}

/// An error's text with its cause kept as the source, for `io::Error`.
#[derive(Debug)]
struct Said {
    text: String,
    cause: Option<object_store::Error>,
}

impl fmt::Display for Said {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::error::Error for Said {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

fn io(
    url: &str,
    kind: ErrorKind,
    text: impl Into<String>,
    cause: Option<object_store::Error>,
) -> Error {
    Error::io(
        url,
        std::io::Error::new(
            kind,
            Said {
                text: text.into(),
                cause,
            },
        ),
    )
}

const DENIED: &str = "access denied (403): check the credentials, or read a public bucket anonymously (--no-sign-request)";

/// The HTTP status of a failed request: object_store keeps it in an error
/// type it does not export, whose text says `status code: NNN`.
pub(crate) fn status(e: &object_store::Error) -> Option<u16> {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = cur {
        let text = err.to_string();
        if let Some((_, rest)) = text.split_once("status code: ") {
            return rest.get(..3).and_then(|s| s.parse().ok());
        }
        cur = err.source();
    }
    None
}

/// Whether the transport timed out.
fn timed_out(e: &object_store::Error) -> bool {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = cur {
        if let Some(h) = err.downcast_ref::<object_store::client::HttpError>() {
            if h.kind() == object_store::client::HttpErrorKind::Timeout {
                return true;
            }
        }
        cur = err.source();
    }
    false
}

/// Whether a failed ranged GET may be the store refusing a range of an
/// empty object (worth asking the length), rather than a refusal, a
/// server's own error (5xx, already retried) or silence.
pub(crate) fn may_be_range(e: &object_store::Error) -> bool {
    use object_store::Error as E;
    !matches!(
        e,
        E::NotFound { .. }
            | E::PermissionDenied { .. }
            | E::Unauthenticated { .. }
            | E::Precondition { .. }
            | E::NotModified { .. }
    ) && !timed_out(e)
        && status(e).is_none_or(|s| s < 500)
}

/// The crate's error for `fault` at `url`.
pub(crate) fn error(url: &str, fault: Fault) -> Error {
    match fault {
        Fault::Budget(d) => io(
            url,
            ErrorKind::TimedOut,
            format!(
                "no complete answer within {:.1} s (tftensor's retry budget: set the timeout or retries to change it)",
                d.as_secs_f64()
            ),
            None,
        ),
        Fault::Cut { offset, cause } => {
            let why = cause
                .as_ref()
                .map_or(String::new(), |c| format!(" ({})", first_line(c)));
            Error::data_loss(format!(
                "the response ended before the range did, after retries{why}"
            ))
            .with_path(url)
            .with_offset(offset)
        }
        Fault::Range { asked, got } => Error::data_loss(format!(
            "asked for bytes {}..{}, the store sent {}..{} (the object changed or is shorter than listed)",
            asked.start, asked.end, got.start, got.end
        ))
        .with_path(url)
        .with_offset(asked.start),
        Fault::Request(e) => request_error(url, e),
        Fault::Local(e) => Error::io(url, e),
    }
}

fn request_error(url: &str, e: object_store::Error) -> Error {
    use object_store::Error as E;
    match &e {
        E::NotFound { .. } => io(
            url,
            ErrorKind::NotFound,
            "no such object or bucket",
            Some(e),
        ),
        E::PermissionDenied { .. } => io(url, ErrorKind::PermissionDenied, DENIED, Some(e)),
        E::Unauthenticated { .. } => io(
            url,
            ErrorKind::PermissionDenied,
            "not authenticated (401): check the credentials",
            Some(e),
        ),
        E::Precondition { .. } | E::NotModified { .. } => io(
            url,
            ErrorKind::Other,
            "the object changed while being read",
            Some(e),
        ),
        _ if timed_out(&e) => io(
            url,
            ErrorKind::TimedOut,
            "the server did not answer in time (after retries)",
            Some(e),
        ),
        _ => match status(&e) {
            Some(404) => io(
                url,
                ErrorKind::NotFound,
                "no such object or bucket",
                Some(e),
            ),
            Some(403) => io(url, ErrorKind::PermissionDenied, DENIED, Some(e)),
            Some(s) => {
                let text = format!("the request failed with HTTP status {s}, after retries");
                io(url, ErrorKind::Other, text, Some(e))
            }
            None => {
                let text = format!("the request failed, after retries: {}", first_line(&e));
                io(url, ErrorKind::Other, text, Some(e))
            }
        },
    }
}

/// The innermost cause's text, on one line: object_store's own texts name
/// the path (which the error's location field already holds).
fn first_line(e: &object_store::Error) -> String {
    let mut cur: &(dyn std::error::Error + 'static) = e;
    while let Some(next) = cur.source() {
        cur = next;
    }
    cur.to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// `fut`, failing with [`Fault::Budget`] once `budget` has passed.
pub(crate) async fn within<T>(
    budget: Duration,
    fut: impl Future<Output = std::result::Result<T, Fault>>,
) -> std::result::Result<T, Fault> {
    match tokio::time::timeout(budget, fut).await {
        Ok(r) => r,
        Err(_) => Err(Fault::Budget(budget)),
    }
}

/// A result's fault named for `url`.
pub(crate) fn named<T>(url: &str, r: std::result::Result<T, Fault>) -> Result<T> {
    r.map_err(|f| error(url, f))
}
