//! Where an error happened, as fields: the file, the key (a tensor name, a
//! record, an archive member) and the byte offset; an error of any kind
//! with its location ([`LocatedError`]); and the `std::io::Error` an I/O
//! error keeps as its source.

use std::fmt;
use std::sync::Arc;

/// Where in a file an error happened. Each part is a field, so callers
/// never parse an error's text; `Display` writes the known parts once, as a
/// prefix: `"PATH: 'KEY': at byte N: "`.
///
/// ```
/// use tftensor::Location;
/// let at = Location { path: Some("a.npz".into()), key: Some("w".into()), offset: None };
/// assert_eq!(at.to_string(), "a.npz: 'w': ");
/// assert_eq!(Location::default().to_string(), "");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// The file or directory.
    pub path: Option<String>,
    /// The tensor, record or member.
    pub key: Option<String>,
    /// The byte offset in the file.
    pub offset: Option<u64>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(path) = &self.path {
            write!(f, "{path}: ")?;
        }
        if let Some(key) = &self.key {
            write!(f, "'{key}': ")?;
        }
        if let Some(offset) = self.offset {
            write!(f, "at byte {offset}: ")?;
        }
        Ok(())
    }
}

/// The `std::io::Error` behind an [`Error::Io`](crate::Error::Io), shared so
/// that the error stays `Clone`. It compares by kind and text.
///
/// ```
/// let src = tftensor::IoSource::from(std::io::Error::other("disk on fire"));
/// assert_eq!(src.kind(), std::io::ErrorKind::Other);
/// assert_eq!(src.to_string(), "disk on fire");
/// ```
#[derive(Debug, Clone)]
pub struct IoSource(Arc<std::io::Error>);

impl IoSource {
    /// The underlying error.
    ///
    /// ```
    /// let src = tftensor::IoSource::from(std::io::Error::other("x"));
    /// assert_eq!(src.get().to_string(), "x");
    /// ```
    pub fn get(&self) -> &std::io::Error {
        &self.0
    }

    /// Its kind.
    ///
    /// ```
    /// let src = tftensor::IoSource::from(std::io::Error::other("x"));
    /// assert_eq!(src.kind(), std::io::ErrorKind::Other);
    /// ```
    pub fn kind(&self) -> std::io::ErrorKind {
        self.0.kind()
    }
}

impl From<std::io::Error> for IoSource {
    fn from(err: std::io::Error) -> Self {
        IoSource(Arc::new(err))
    }
}

impl From<&std::io::Error> for IoSource {
    /// A copy: the OS error code when there is one, else the kind and text.
    fn from(err: &std::io::Error) -> Self {
        let copy = match err.raw_os_error() {
            Some(code) => std::io::Error::from_raw_os_error(code),
            None => std::io::Error::new(err.kind(), err.to_string()),
        };
        IoSource(Arc::new(copy))
    }
}

impl PartialEq for IoSource {
    fn eq(&self, other: &Self) -> bool {
        self.kind() == other.kind() && self.0.to_string() == other.0.to_string()
    }
}

impl Eq for IoSource {}

impl fmt::Display for IoSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for IoSource {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.get())
    }
}

/// An error with where it happened: [`Error::At`](crate::Error::At), for
/// kinds whose variant has no location of its own. `Display` writes the
/// location once, then the error; `source()` is the error's own.
///
/// ```
/// let err = tftensor::Error::InvalidArgument("bad".into()).with_key("w");
/// let tftensor::Error::At(located) = &err else { unreachable!() };
/// assert_eq!(located.location.key.as_deref(), Some("w"));
/// assert_eq!(located.to_string(), "'w': bad");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedError {
    /// Where.
    pub location: Location,
    /// What.
    pub error: crate::Error,
}

impl fmt::Display for LocatedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.location, self.error)
    }
}

impl std::error::Error for LocatedError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.error)
    }
}
