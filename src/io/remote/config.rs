//! Object store clients from a URL, the standard environment and
//! [`RemoteOptions`]: `s3://` (and `s3a://`) from `AWS_*` (and an
//! `AWS_PROFILE`'s static keys), `gs://` from `GOOGLE_*`, `az://`,
//! `abfs[s]://` from `AZURE_*`, `http(s)://` as plain ranged GETs. One
//! client per bucket, settings and environment, kept for the process so
//! connections are reused.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::azure::{AzureConfigKey, MicrosoftAzureBuilder};
use object_store::gcp::{GoogleCloudStorageBuilder, GoogleConfigKey};
use object_store::http::HttpBuilder;
use object_store::list::PaginatedListStore;
use object_store::{BackoffConfig, ClientConfigKey, ObjectStore, RetryConfig};

use super::profile;
use crate::error::{Error, Result};
use crate::io::options::RemoteOptions;

/// A store client and how reads through it behave.
pub(crate) struct Client {
    /// The store.
    pub(crate) store: Arc<dyn ObjectStore>,
    /// The same store's raw-prefix listing, where it has one (S3, GCS,
    /// Azure; not plain HTTP).
    pub(crate) lister: Option<Arc<dyn PaginatedListStore>>,
    /// What keys are shown under: `s3://bucket`.
    pub(crate) root: String,
    /// Requests in flight for one read.
    pub(crate) concurrency: usize,
    /// tftensor's budget for one request and its retries.
    pub(crate) budget: Duration,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("root", &self.root)
            .field("concurrency", &self.concurrency)
            .field("budget", &self.budget)
            .finish_non_exhaustive()
    }
}

/// The schemes a URL may have, and the environment prefix each reads.
const SCHEMES: &[(&str, &str)] = &[
    ("s3", "AWS_"),
    ("s3a", "AWS_"),
    ("gs", "GOOGLE_"),
    ("az", "AZURE_"),
    ("azure", "AZURE_"),
    ("abfs", "AZURE_"),
    ("abfss", "AZURE_"),
    ("http", ""),
    ("https", ""),
];

/// Whether `scheme` names a store this build reads.
pub(crate) fn known_scheme(scheme: &str) -> bool {
    SCHEMES.iter().any(|(s, _)| *s == scheme)
}

/// The client for `scheme://authority`, made once per settings and
/// environment.
pub(crate) fn client(
    scheme: &str,
    authority: &str,
    options: &RemoteOptions,
) -> Result<Arc<Client>> {
    static CLIENTS: OnceLock<Mutex<HashMap<String, Arc<Client>>>> = OnceLock::new();
    let prefix = SCHEMES
        .iter()
        .find(|(s, _)| *s == scheme)
        .map_or("", |(_, p)| *p);
    // The environment is part of the key: a changed endpoint or credential
    // makes a new client.
    let mut env: Vec<(String, String)> = if prefix.is_empty() {
        Vec::new()
    } else {
        std::env::vars()
            .filter(|(k, _)| k.starts_with(prefix))
            .collect()
    };
    env.sort();
    let key = format!("{scheme}://{authority} {options:?} {env:?}");
    let clients = CLIENTS.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(c) = clients.lock().map_err(|_| poisoned())?.get(&key) {
        return Ok(Arc::clone(c));
    }
    let client = Arc::new(build(scheme, authority, options)?);
    clients
        .lock()
        .map_err(|_| poisoned())?
        .insert(key, Arc::clone(&client));
    Ok(client)
}

fn poisoned() -> Error {
    Error::io(
        "remote clients",
        std::io::Error::other("a lock was poisoned"),
    )
}

/// A configuration error, naming the URL.
fn config_error(root: &str, e: object_store::Error) -> Error {
    Error::io(
        root,
        std::io::Error::new(std::io::ErrorKind::InvalidInput, e),
    )
}

/// A duration as object_store's keys take it (`"2s"`, `"1500ms"`).
fn duration_text(d: Duration) -> String {
    format!("{}ms", d.as_millis())
}

/// Parses a duration as object_store does (`2s`, `500ms`, `1m`).
fn parse_duration(text: &str) -> Option<Duration> {
    humantime::parse_duration(text.trim()).ok()
}

/// The retry settings: few retries, short backoff, all within the budget.
fn retry(options: &RemoteOptions, budget: Duration) -> RetryConfig {
    RetryConfig {
        backoff: BackoffConfig {
            init_backoff: Duration::from_millis(100),
            max_backoff: RemoteOptions::MAX_BACKOFF,
            base: 2.0,
        },
        max_retries: options.retries.unwrap_or(RemoteOptions::DEFAULT_RETRIES),
        retry_timeout: budget,
    }
}

/// The request timeout in force: the options', else the environment's
/// (as the builder read it), else the default.
fn timeout(options: &RemoteOptions, from_env: Option<String>) -> Duration {
    options
        .timeout
        .or_else(|| from_env.as_deref().and_then(parse_duration))
        .unwrap_or(RemoteOptions::DEFAULT_TIMEOUT)
}

fn build(scheme: &str, authority: &str, options: &RemoteOptions) -> Result<Client> {
    let root = format!("{scheme}://{authority}");
    let concurrency = options
        .concurrency
        .unwrap_or(RemoteOptions::DEFAULT_CONCURRENCY)
        .max(1);
    let timeout_key = ClientConfigKey::Timeout;
    let (store, lister, budget): (Arc<dyn ObjectStore>, Option<Arc<dyn PaginatedListStore>>, _) =
        match scheme {
            "s3" | "s3a" => {
                let mut b = AmazonS3Builder::from_env().with_bucket_name(authority);
                b = profile::apply(b)?;
                let t = timeout(
                    options,
                    b.get_config_value(&AmazonS3ConfigKey::Client(timeout_key)),
                );
                let budget = options.budget_for(t);
                b = b
                    .with_config(AmazonS3ConfigKey::Client(timeout_key), duration_text(t))
                    .with_retry(retry(options, budget));
                // An endpoint given as http:// is meant (a local server):
                // no separate AWS_ALLOW_HTTP needed.
                if b.get_config_value(&AmazonS3ConfigKey::Endpoint)
                    .is_some_and(|e| e.starts_with("http://"))
                {
                    b = b.with_allow_http(true);
                }
                if options.anonymous {
                    b = b.with_skip_signature(true);
                }
                let s = Arc::new(b.build().map_err(|e| config_error(&root, e))?);
                (s.clone(), Some(s), budget)
            }
            "gs" => {
                let mut b = GoogleCloudStorageBuilder::from_env().with_bucket_name(authority);
                let t = timeout(
                    options,
                    b.get_config_value(&GoogleConfigKey::Client(timeout_key)),
                );
                let budget = options.budget_for(t);
                b = b
                    .with_config(GoogleConfigKey::Client(timeout_key), duration_text(t))
                    .with_retry(retry(options, budget));
                if b.get_config_value(&GoogleConfigKey::BaseUrl)
                    .is_some_and(|e| e.starts_with("http://"))
                {
                    b = b.with_config(GoogleConfigKey::Client(ClientConfigKey::AllowHttp), "true");
                }
                if options.anonymous {
                    b = b.with_skip_signature(true);
                }
                let s = Arc::new(b.build().map_err(|e| config_error(&root, e))?);
                (s.clone(), Some(s), budget)
            }
            "az" | "azure" | "abfs" | "abfss" => {
                let mut b = MicrosoftAzureBuilder::from_env();
                b = if scheme.starts_with("abfs") {
                    b.with_url(format!("{root}/"))
                } else {
                    b.with_container_name(authority)
                };
                let t = timeout(
                    options,
                    b.get_config_value(&AzureConfigKey::Client(timeout_key)),
                );
                let budget = options.budget_for(t);
                b = b
                    .with_config(AzureConfigKey::Client(timeout_key), duration_text(t))
                    .with_retry(retry(options, budget));
                if options.anonymous {
                    b = b.with_skip_signature(true);
                }
                let s = Arc::new(b.build().map_err(|e| config_error(&root, e))?);
                (s.clone(), Some(s), budget)
            }
            _ => {
                // Plain HTTP has no environment keys of its own.
                let t = options.timeout.unwrap_or(RemoteOptions::DEFAULT_TIMEOUT);
                let budget = options.budget_for(t);
                let s = HttpBuilder::new()
                    .with_url(&root)
                    .with_config(timeout_key, duration_text(t))
                    .with_config(ClientConfigKey::AllowHttp, (scheme == "http").to_string())
                    .with_retry(retry(options, budget))
                    .build()
                    .map_err(|e| config_error(&root, e))?;
                (Arc::new(s), None, budget)
            }
        };
    Ok(Client {
        store,
        lister,
        root,
        concurrency,
        budget,
    })
}
