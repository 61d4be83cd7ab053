//! Servers for the remote tests, all on 127.0.0.1 and started by the
//! tests themselves: moto (S3 and GCS's XML API, in Python), s3s-fs (a
//! second S3 server, in Rust), a proxy in
//! front of it that counts requests and bytes and injects faults, and a
//! small HTTP server with `Range` support. A test whose server cannot
//! start prints why and skips, unless `TFTENSOR_REQUIRE_SERVERS=1` (CI),
//! where it fails.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The repository's root.
fn root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    if here.join("tests/remote").is_dir() {
        here.to_path_buf()
    } else {
        here.parent().unwrap_or(here).to_path_buf()
    }
}

/// A free port on 127.0.0.1.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn wait_for(port: u16, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// Skips (returns `None`, printing why) or fails under CI.
pub fn unavailable<T>(why: String) -> Option<T> {
    if std::env::var("TFTENSOR_REQUIRE_SERVERS").is_ok_and(|v| v == "1") {
        panic!("a test server is required (TFTENSOR_REQUIRE_SERVERS=1): {why}");
    }
    eprintln!("skipped: {why}");
    None
}

/// A Python that can import moto's server: `TFTENSOR_MOTO_PYTHON`, the
/// venv `.ci/run` makes (`.venv-remote`), or `python3`.
fn moto_python() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("TFTENSOR_MOTO_PYTHON").map(PathBuf::from),
        Some(root().join(".venv-remote/bin/python")),
        Some(PathBuf::from("python3")),
    ];
    candidates.into_iter().flatten().find(|p| {
        Command::new(p)
            .args(["-c", "import moto.server"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// An S3 server on 127.0.0.1, started by the tests: moto, or s3s-fs (a
/// folder served by the s3s crate), so the reads are not tuned to one
/// server. Either exits when this process does: a watchdog in Python
/// polls its parent.
pub struct S3Server {
    pub port: u16,
    /// `moto` or `s3s-fs`.
    pub name: &'static str,
    /// s3s-fs's folder: its folders are the buckets, their files the
    /// objects.
    root: Option<PathBuf>,
    _child: Option<Child>,
}

const MOTO_MAIN: &str = "import os, sys, threading, time
parent = os.getppid()
def watch():
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)
threading.Thread(target=watch, daemon=True).start()
from moto.server import main
main(['-H', '127.0.0.1', '-p', sys.argv[1]])
";

/// The process's moto server, once started.
static MOTO: OnceLock<Option<S3Server>> = OnceLock::new();

/// The process's moto server, started on first use.
pub fn moto() -> Option<&'static S3Server> {
    MOTO.get_or_init(|| {
        // Children of a test run reach the parent's server.
        if let Some(port) = std::env::var("TFTENSOR_TEST_MOTO_PORT")
            .ok()
            .and_then(|p| p.parse().ok())
        {
            return Some(S3Server {
                port,
                name: "moto",
                root: None,
                _child: None,
            });
        }
        let Some(python) = moto_python() else {
            return unavailable(
                "no Python with moto[server] (make .venv-remote: see .ci/run)".into(),
            );
        };
        let port = free_port();
        let child = Command::new(&python)
            .args(["-c", MOTO_MAIN, &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = child else {
            return unavailable(format!("{} could not start moto", python.display()));
        };
        if !wait_for(port, Duration::from_secs(30)) {
            return unavailable("moto did not listen within 30 s".into());
        }
        Some(S3Server {
            port,
            name: "moto",
            root: None,
            _child: Some(child),
        })
    })
    .as_ref()
}

/// The s3s-fs binary: `TFTENSOR_S3S_FS`, else `.s3s/bin/s3s-fs` (made by
/// `cargo install s3s-fs --version 0.14.1 --locked --features binary
/// --root .s3s`).
fn s3s_fs_binary() -> Option<PathBuf> {
    std::env::var_os("TFTENSOR_S3S_FS")
        .map(PathBuf::from)
        .or_else(|| Some(root().join(".s3s/bin/s3s-fs")))
        .filter(|p| p.is_file())
}

/// Runs s3s-fs (argv[1..], its folder last) until this process's parent
/// exits, then removes the folder.
const WATCHDOG: &str = "import os, shutil, subprocess, sys, time
parent = os.getppid()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while os.getppid() == parent and child.poll() is None:
    time.sleep(0.5)
child.kill()
child.wait()
shutil.rmtree(sys.argv[-1], ignore_errors=True)
";

/// The process's s3s-fs server on a fresh folder, started on first use.
/// Without its binary the tests that need it skip (it is a 15-minute
/// build on two cores), even under `TFTENSOR_REQUIRE_SERVERS=1`, unless
/// `TFTENSOR_REQUIRE_S3S=1`.
pub fn s3s_fs() -> Option<&'static S3Server> {
    static S3S: OnceLock<Option<S3Server>> = OnceLock::new();
    S3S.get_or_init(|| {
        let Some(bin) = s3s_fs_binary() else {
            let why = "no s3s-fs (cargo install s3s-fs --version 0.14.1 --locked --features binary --root .s3s)";
            if std::env::var("TFTENSOR_REQUIRE_S3S").is_ok_and(|v| v == "1") {
                panic!("{why} and TFTENSOR_REQUIRE_S3S=1");
            }
            eprintln!("skipped: {why}");
            return None;
        };
        let dir = std::env::temp_dir().join(format!("tftensor-s3s-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("s3s-fs's folder");
        let port = free_port();
        let (key, secret) = TEST_KEYS;
        let port_text = port.to_string();
        let bin_text = bin.to_string_lossy().into_owned();
        let dir_text = dir.to_string_lossy().into_owned();
        let args = [
            "-c", WATCHDOG, &bin_text, "--host", "127.0.0.1", "--port", &port_text,
            "--access-key", key, "--secret-key", secret, &dir_text,
        ];
        let child = Command::new("python3")
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = child else {
            return unavailable(format!("{} could not start", bin.display()));
        };
        if !wait_for(port, Duration::from_secs(30)) {
            return unavailable("s3s-fs did not listen within 30 s".into());
        }
        Some(S3Server {
            port,
            name: "s3s-fs",
            root: Some(dir),
            _child: Some(child),
        })
    })
    .as_ref()
}

/// The access key and secret the test servers take.
pub const TEST_KEYS: (&str, &str) = ("testing", "testing");

/// One HTTP/1.1 request to 127.0.0.1:`port`; the status and body.
pub fn request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut all = Vec::new();
    s.read_to_end(&mut all).unwrap();
    let resp = Response::parse(&all).expect("an HTTP response");
    (resp.status, resp.body(&all).to_vec())
}

/// Makes `bucket` (public-read when asked: moto only; s3s-fs has no
/// access control, and serves signed requests only).
pub fn make_bucket(server: &S3Server, bucket: &str, public: bool) {
    if let Some(root) = &server.root {
        std::fs::create_dir_all(root.join(bucket)).unwrap();
        return;
    }
    let acl: &[(&str, &str)] = if public {
        &[("x-amz-acl", "public-read")]
    } else {
        &[]
    };
    let (status, body) = request(server.port, "PUT", &format!("/{bucket}"), acl, b"");
    assert!(
        status == 200 || status == 409,
        "{status} {}",
        String::from_utf8_lossy(&body)
    );
}

/// Puts an object (public-read when its bucket is: moto only). s3s-fs's
/// objects are written as its files.
pub fn put_object(server: &S3Server, bucket: &str, key: &str, data: &[u8], public: bool) {
    if let Some(root) = &server.root {
        let file = root.join(bucket).join(key);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, data).unwrap();
        return;
    }
    let acl: &[(&str, &str)] = if public {
        &[("x-amz-acl", "public-read")]
    } else {
        &[]
    };
    let (status, body) = request(server.port, "PUT", &format!("/{bucket}/{key}"), acl, data);
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
}

/// s3s-fs's folder (its files are the objects), for checks of what a
/// write left there; `None` for moto.
pub fn files_of(server: &S3Server) -> Option<&Path> {
    server.root.as_deref()
}

/// A parsed response head.
pub struct Response {
    pub status: u16,
    pub head_len: usize,
    pub content_length: Option<usize>,
    pub chunked: bool,
}

impl Response {
    pub fn parse(all: &[u8]) -> Option<Response> {
        let end = all.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
        let head = std::str::from_utf8(&all[..end]).ok()?;
        let mut lines = head.lines();
        let status = lines.next()?.split_whitespace().nth(1)?.parse().ok()?;
        let mut content_length = None;
        let mut chunked = false;
        for l in lines {
            if let Some((k, v)) = l.split_once(':') {
                let k = k.trim().to_ascii_lowercase();
                if k == "content-length" {
                    content_length = v.trim().parse().ok();
                } else if k == "transfer-encoding" && v.to_ascii_lowercase().contains("chunked") {
                    chunked = true;
                }
            }
        }
        Some(Response {
            status,
            head_len: end,
            content_length,
            chunked,
        })
    }

    pub fn body<'a>(&self, all: &'a [u8]) -> &'a [u8] {
        &all[self.head_len.min(all.len())..]
    }
}

/// What the proxy does to a request.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// Answer this status with an S3 error body.
    Status(u16),
    /// Read the request and never answer (the connection is held 40 s).
    Silent,
    /// Send the head and half the body, then close.
    Cut,
    /// Close the connection without answering.
    Drop,
    /// Wait this long, then pass the request on.
    Delay(Duration),
    /// Flip a byte in the middle of the body.
    Flip,
    /// 403 for requests that carry credentials (an `Authorization` header).
    DenySigned,
}

/// A rule: a fault for requests of a method (any when `None`), for the
/// next `times` of them (all when `None`).
#[derive(Clone, Debug)]
pub struct Rule {
    pub fault: Fault,
    pub method: Option<&'static str>,
    pub times: Option<usize>,
}

/// One request as the proxy saw it.
#[derive(Clone, Debug)]
pub struct Seen {
    pub method: String,
    pub target: String,
    pub range: Option<String>,
    pub status: u16,
    /// Bytes sent back (head and body).
    pub bytes: usize,
}

#[derive(Default)]
struct State {
    rules: Vec<Rule>,
    seen: Vec<Seen>,
}

/// A proxy in front of an upstream server on 127.0.0.1.
pub struct Proxy {
    pub port: u16,
    state: Arc<Mutex<State>>,
}

impl Proxy {
    /// Starts a proxy to 127.0.0.1:`upstream`.
    pub fn start(upstream: u16) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(State::default()));
        let st = Arc::clone(&state);
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let st = Arc::clone(&st);
                std::thread::spawn(move || serve(conn, upstream, &st));
            }
        });
        Proxy { port, state }
    }

    /// The proxy's URL.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Adds a fault rule.
    pub fn rule(&self, fault: Fault, method: Option<&'static str>, times: Option<usize>) {
        self.state.lock().unwrap().rules.push(Rule {
            fault,
            method,
            times,
        });
    }

    /// Drops every rule.
    pub fn clear(&self) {
        self.state.lock().unwrap().rules.clear();
    }

    /// The requests seen so far.
    pub fn peek(&self) -> Vec<Seen> {
        self.state.lock().unwrap().seen.clone()
    }

    /// The requests seen so far, and forgets them.
    pub fn take(&self) -> Vec<Seen> {
        std::mem::take(&mut self.state.lock().unwrap().seen)
    }
}

/// The fault for a request, using up a counted rule.
fn fault_for(state: &Mutex<State>, method: &str, signed: bool) -> Option<Fault> {
    let mut st = state.lock().unwrap();
    for rule in st.rules.iter_mut() {
        if rule.method.is_some_and(|m| m != method) || rule.times == Some(0) {
            continue;
        }
        if rule.fault == Fault::DenySigned && !signed {
            continue;
        }
        if let Some(t) = rule.times.as_mut() {
            *t -= 1;
        }
        return Some(rule.fault.clone());
    }
    None
}

/// Reads one request (head and body) from a client; `None` at its end.
fn read_request(r: &mut BufReader<TcpStream>) -> Option<(String, Vec<u8>)> {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        head.push_str(&line);
        if line == "\r\n" {
            break;
        }
        if head.len() > 1 << 20 {
            return None;
        }
    }
    let len = header(&head, "content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0usize);
    let mut body = vec![0u8; len];
    r.read_exact(&mut body).ok()?;
    Some((head, body))
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().skip(1).find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

fn serve(client: TcpStream, upstream: u16, state: &Mutex<State>) {
    client.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let mut out = match client.try_clone() {
        Ok(c) => c,
        Err(_) => return,
    };
    let mut reader = BufReader::new(client);
    // Bounded: a connection serves at most this many requests.
    for _ in 0..10_000 {
        let Some((head, body)) = read_request(&mut reader) else {
            return;
        };
        let mut first = head.lines().next().unwrap_or("").split_whitespace();
        let method = first.next().unwrap_or("").to_owned();
        let target = first.next().unwrap_or("").to_owned();
        let range = header(&head, "range").map(str::to_owned);
        let signed = header(&head, "authorization").is_some();
        let fault = fault_for(state, &method, signed);
        let record = |status: u16, bytes: usize| {
            state.lock().unwrap().seen.push(Seen {
                method: method.clone(),
                target: target.clone(),
                range: range.clone(),
                status,
                bytes,
            });
        };
        let status_fault = match &fault {
            Some(Fault::Status(code)) => Some(*code),
            Some(Fault::DenySigned) => Some(403),
            _ => None,
        };
        if let Some(code) = status_fault {
            let (name, text) = match code {
                403 => ("AccessDenied", "Access Denied"),
                503 => ("SlowDown", "Please reduce your request rate."),
                _ => (
                    "InternalError",
                    "We encountered an internal error. Please try again.",
                ),
            };
            let xml = format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>{name}</Code><Message>{text}</Message></Error>"
            );
            let resp = format!(
                "HTTP/1.1 {code} {name}\r\nContent-Type: application/xml\r\nContent-Length: {}\r\n\r\n{xml}",
                xml.len()
            );
            record(code, resp.len());
            if out.write_all(resp.as_bytes()).is_err() {
                return;
            }
            continue;
        }
        match fault {
            Some(Fault::Silent) => {
                record(0, 0);
                std::thread::sleep(Duration::from_secs(40));
                return;
            }
            Some(Fault::Drop) => {
                record(0, 0);
                let _ = out.shutdown(Shutdown::Both);
                return;
            }
            Some(Fault::Delay(d)) => std::thread::sleep(d),
            _ => {}
        }
        // Pass it on, one connection per request.
        let Ok(mut up) = TcpStream::connect(("127.0.0.1", upstream)) else {
            return;
        };
        up.set_read_timeout(Some(Duration::from_secs(60))).ok();
        let mut fwd = String::new();
        for (i, l) in head.split("\r\n").enumerate() {
            if i > 0 && l.to_ascii_lowercase().starts_with("connection:") {
                continue;
            }
            if l.is_empty() {
                continue;
            }
            fwd.push_str(l);
            fwd.push_str("\r\n");
            if i == 0 {
                fwd.push_str("Connection: close\r\n");
            }
        }
        fwd.push_str("\r\n");
        if up
            .write_all(fwd.as_bytes())
            .and_then(|_| up.write_all(&body))
            .is_err()
        {
            return;
        }
        let mut all = Vec::new();
        if up.read_to_end(&mut all).is_err() {
            return;
        }
        let Some(resp) = Response::parse(&all) else {
            return;
        };
        let delimited = resp.content_length.is_some() || resp.chunked;
        match fault {
            Some(Fault::Cut) if method == "GET" && resp.body(&all).len() > 1 => {
                let keep = resp.head_len + resp.body(&all).len() / 2;
                record(resp.status, keep);
                let _ = out.write_all(&all[..keep]);
                let _ = out.shutdown(Shutdown::Both);
                return;
            }
            Some(Fault::Flip) if resp.body(&all).len() > 1 => {
                let mid = resp.head_len + resp.body(&all).len() / 2;
                all[mid] ^= 0x40;
            }
            _ => {}
        }
        record(resp.status, all.len());
        if out.write_all(&all).is_err() || !delimited {
            let _ = out.shutdown(Shutdown::Both);
            return;
        }
    }
}

/// A small HTTP server for `http://` tests: GET and HEAD of the files of
/// a folder, with `Range: bytes=a-b` answered 206; keep-alive.
pub struct RangeServer {
    pub port: u16,
    pub requests: Arc<Mutex<usize>>,
}

impl RangeServer {
    pub fn start(dir: PathBuf) -> RangeServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(0usize));
        let count = Arc::clone(&requests);
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let (dir, count) = (dir.clone(), Arc::clone(&count));
                std::thread::spawn(move || serve_files(conn, &dir, &count));
            }
        });
        RangeServer { port, requests }
    }
}

fn serve_files(conn: TcpStream, dir: &Path, count: &Mutex<usize>) {
    conn.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let Ok(mut out) = conn.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(conn);
    for _ in 0..10_000 {
        let Some((head, _)) = read_request(&mut reader) else {
            return;
        };
        *count.lock().unwrap() += 1;
        let mut first = head.lines().next().unwrap_or("").split_whitespace();
        let method = first.next().unwrap_or("").to_owned();
        let target = first
            .next()
            .unwrap_or("/")
            .trim_start_matches('/')
            .to_owned();
        let file = dir.join(&target);
        let Ok(data) = std::fs::read(&file)
            .map_err(|_| ())
            .and_then(|d| if file.is_file() { Ok(d) } else { Err(()) })
        else {
            let _ = out.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
            continue;
        };
        let total = data.len();
        let range = header(&head, "range").and_then(|r| {
            let (a, b) = r.strip_prefix("bytes=")?.split_once('-')?;
            let a: usize = a.parse().ok()?;
            let b: usize = if b.is_empty() {
                total.checked_sub(1)?
            } else {
                b.parse::<usize>().ok()?.min(total.checked_sub(1)?)
            };
            (a <= b).then_some((a, b))
        });
        let (status, body, extra) = match range {
            Some((a, b)) => (
                "206 Partial Content",
                &data[a..=b],
                format!("Content-Range: bytes {a}-{b}/{total}\r\n"),
            ),
            None => ("200 OK", &data[..], String::new()),
        };
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Length: {}\r\nAccept-Ranges: bytes\r\nLast-Modified: Mon, 01 Jan 2024 00:00:00 GMT\r\nETag: \"{total}\"\r\n{extra}\r\n",
            body.len()
        );
        if out.write_all(head.as_bytes()).is_err() {
            return;
        }
        if method != "HEAD" && out.write_all(body).is_err() {
            return;
        }
    }
}

/// Runs the test `name` (its path in the test binary) again in a child
/// process with `env` added, and fails if the child fails. The child sees
/// `TFTENSOR_TEST_CHILD=1`: the test then runs its body (see [`child`]).
/// The environment of the store's configuration is the child's alone.
pub fn run_child(name: &str, env: &[(String, String)]) {
    let exe = std::env::current_exe().expect("the test binary");
    let mut cmd = Command::new(exe);
    cmd.args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env("TFTENSOR_TEST_CHILD", "1");
    // A child reaches the parent's moto, when started (never starting it).
    if let Some(Some(m)) = MOTO.get() {
        cmd.env("TFTENSOR_TEST_MOTO_PORT", m.port.to_string());
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run the child test");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && text.contains("1 passed"),
        "child test {name} failed:\n{text}"
    );
}

/// Whether this process is a child run by [`run_child`].
pub fn child() -> bool {
    std::env::var_os("TFTENSOR_TEST_CHILD").is_some()
}

/// The environment for an S3 client that reaches `endpoint` with fixed
/// test keys, and `extra`.
pub fn s3_env(endpoint: &str, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = [
        ("AWS_ENDPOINT_URL", endpoint),
        ("AWS_ACCESS_KEY_ID", TEST_KEYS.0),
        ("AWS_SECRET_ACCESS_KEY", TEST_KEYS.1),
        ("AWS_REGION", "us-east-1"),
        ("AWS_EC2_METADATA_DISABLED", "true"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    env.extend(extra.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    env
}
