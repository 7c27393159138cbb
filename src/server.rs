//! The server: tiny_http on our own listener (TCP_NODELAY), a bounded dispatch queue (overload
//! is answered 503 with Retry-After instead of queueing without bound), a fixed worker pool and
//! one access-log line per request.
//!
//! Life cycle: a supervisor (the thread that called [`serve`]) restarts tiny_http's accept loop
//! whenever it dies (EMFILE ends or panics it); requests of every accept loop, old or new, keep
//! being dispatched. A reload thread swaps in a new catalog on SIGHUP or when the file at the
//! catalog's path is replaced (requests in flight finish on the mapping they started with; a
//! bad file is refused and the old one keeps serving). SIGTERM/SIGINT stop accepting, answer
//! every request that arrives on open connections with `Connection: close`, and return once
//! nothing is in flight and no request came for [`DRAIN_QUIET`].

use std::io::{self, Cursor, Write};
use std::net::{SocketAddr, TcpListener};
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::ApiError;
use crate::http::{self, App, Loaded, Request, Response};
use crate::sys;

/// Longest request URL answered (longer: 414).
pub const MAX_URL: usize = 8 * 1024;
/// Largest total header size answered (larger: 431). tiny_http has already read them; the
/// nginx front in the README enforces the limit before they are read.
pub const MAX_HEADERS: usize = 16 * 1024;
/// How often the catalog file is checked for replacement.
pub const WATCH_INTERVAL: Duration = Duration::from_secs(1);
/// On SIGTERM, the server exits once no request is in flight and none arrived for this long…
/// (long enough that a keep-alive client scheduled late on a busy machine still gets its
/// `Connection: close` answer).
pub const DRAIN_QUIET: Duration = Duration::from_secs(1);
/// …or after this long at most.
pub const DRAIN_MAX: Duration = Duration::from_secs(10);

/// Server options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Address to bind (`127.0.0.1:2023`; port 0 picks a free port).
    pub addr: String,
    /// Worker threads.
    pub threads: usize,
    /// Requests that may wait for a worker before new ones get 503.
    pub queue: usize,
    /// Write an access-log line per request to stderr.
    pub access_log: bool,
    /// Test aid: each worker sleeps this long before answering (to fill the queue on purpose).
    pub debug_delay_ms: u64,
    /// Verify every checksum of a catalog before a reload swaps it in.
    pub verify: bool,
    /// A write to a client that makes no progress for this long fails and the connection is
    /// cut (0: no limit).
    pub write_timeout_ms: u64,
    /// A connection that sends nothing for this long (idle keep-alive, half-sent request) is
    /// closed (0: never; needs the patched tiny_http in `vendor/`).
    pub idle_timeout_ms: u64,
}

fn to_tiny(resp: Response) -> tiny_http::Response<Cursor<Vec<u8>>> {
    let len = resp.body.len();
    let headers = resp
        .headers
        .iter()
        .filter_map(|(n, v)| tiny_http::Header::from_bytes(n.as_bytes(), v.as_bytes()).ok())
        .collect();
    tiny_http::Response::new(
        tiny_http::StatusCode(resp.status),
        headers,
        Cursor::new(resp.body),
        Some(len),
        None,
    )
}

fn log_line(
    log: &Mutex<io::LineWriter<io::Stderr>>,
    rq: &tiny_http::Request,
    status: u16,
    bytes: usize,
    start: Instant,
) {
    let addr = rq
        .remote_addr()
        .map_or_else(|| "-".to_string(), |a| a.ip().to_string());
    let mut l = log.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(
        l,
        "{addr} \"{} {}\" {status} {bytes} {}us",
        rq.method().as_str(),
        rq.url().escape_debug(),
        start.elapsed().as_micros()
    );
}

/// Computes the response to one request on a worker (and logs it).
fn answer(
    app: &App,
    rq: &tiny_http::Request,
    log: Option<&Mutex<io::LineWriter<io::Stderr>>>,
) -> Response {
    let start = Instant::now();
    let header = |name: &'static str| {
        rq.headers()
            .iter()
            .find(|h| h.field.equiv(name))
            .map(|h| h.value.as_str().to_string())
    };
    let header_bytes: usize = rq
        .headers()
        .iter()
        .map(|h| h.field.as_str().len() + h.value.len() + 4)
        .sum();
    let resp = if rq.url().len() > MAX_URL {
        http::error(&ApiError::too_large(
            414,
            format!("request URL longer than {MAX_URL} bytes"),
        ))
    } else if header_bytes > MAX_HEADERS {
        http::error(&ApiError::too_large(
            431,
            format!("request headers larger than {MAX_HEADERS} bytes"),
        ))
    } else {
        let (ae, inm, acrh) = (
            header("Accept-Encoding"),
            header("If-None-Match"),
            header("Access-Control-Request-Headers"),
        );
        let method = rq.method().as_str().to_string();
        app.handle(&Request {
            method: &method,
            url: rq.url(),
            accept_encoding: ae.as_deref(),
            if_none_match: inm.as_deref(),
            cors_request_headers: acrh.as_deref(),
        })
    };
    if let Some(log) = log {
        log_line(log, rq, resp.status, resp.body.len(), start);
    }
    resp
}

type Log = Option<Arc<Mutex<io::LineWriter<io::Stderr>>>>;

/// What the dispatchers, workers and supervisor share.
struct Shared {
    tx: SyncSender<tiny_http::Request>,
    log: Log,
    /// Requests received and not yet answered.
    inflight: AtomicUsize,
    /// When the last request was received (µs since `start`).
    last_request_us: AtomicU64,
    start: Instant,
    /// Stopping: answers carry `Connection: close`.
    draining: AtomicBool,
}

impl Shared {
    fn since_last_request(&self) -> Duration {
        let last = Duration::from_micros(self.last_request_us.load(Ordering::SeqCst));
        self.start.elapsed().saturating_sub(last)
    }
}

/// Sends `resp`; while draining, writes it by hand with `Connection: close` (tiny_http drops
/// a `Connection` header given to it) so keep-alive clients stop sending on this connection.
///
/// When the write fails (the client hung up, or stopped reading for the write timeout), the
/// connection is shut down, so responses pipelined behind this one fail at once rather than
/// each holding a worker for the timeout.
fn respond(shared: &Shared, rq: tiny_http::Request, resp: Response) {
    let peer = rq.remote_addr().copied();
    if let Err(e) = write_response(shared, rq, resp) {
        // Only a client that stopped reading needs cutting (finding its socket scans the open
        // descriptors); after a hang-up (EPIPE, reset) the next writes fail at once anyway.
        let stalled = matches!(
            e.kind(),
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
        );
        if let (true, Some(peer)) = (stalled, peer) {
            sys::shutdown_peer(peer);
        }
    }
}

fn write_response(shared: &Shared, rq: tiny_http::Request, resp: Response) -> io::Result<()> {
    if !shared.draining.load(Ordering::SeqCst) {
        return rq.respond(to_tiny(resp));
    }
    let head = *rq.method() == tiny_http::Method::Head;
    let mut w = rq.into_writer();
    let mut out = format!(
        "HTTP/1.1 {} {}\r\n",
        resp.status,
        tiny_http::StatusCode(resp.status).default_reason_phrase()
    );
    for (n, v) in &resp.headers {
        out.push_str(&format!("{n}: {v}\r\n"));
    }
    let no_body = matches!(resp.status, 204 | 304);
    if !no_body {
        out.push_str(&format!("Content-Length: {}\r\n", resp.body.len()));
    }
    out.push_str("Connection: close\r\n\r\n");
    let mut bytes = out.into_bytes();
    if !head && !no_body {
        bytes.extend_from_slice(&resp.body);
    }
    w.write_all(&bytes).and_then(|()| w.flush())
}

/// Hands a received request to the workers, or answers 503 when the queue is full.
fn dispatch(shared: &Shared, rq: tiny_http::Request) {
    shared.inflight.fetch_add(1, Ordering::SeqCst);
    let now = shared.start.elapsed().as_micros() as u64;
    shared.last_request_us.fetch_max(now, Ordering::SeqCst);
    match shared.tx.try_send(rq) {
        Ok(()) => {}
        Err(TrySendError::Full(rq) | TrySendError::Disconnected(rq)) => {
            let start = Instant::now();
            let resp = http::error(&ApiError::overloaded());
            if let Some(log) = &shared.log {
                log_line(log, &rq, 503, resp.body.len(), start);
            }
            respond(shared, rq, resp);
            shared.inflight.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

fn worker(
    app: Arc<App>,
    rx: Arc<Mutex<Receiver<tiny_http::Request>>>,
    shared: Arc<Shared>,
    delay_ms: u64,
) {
    loop {
        let next = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
        match next {
            Ok(rq) => {
                if delay_ms > 0 {
                    std::thread::sleep(Duration::from_millis(delay_ms));
                }
                let resp = answer(&app, &rq, shared.log.as_deref());
                respond(&shared, rq, resp);
                shared.inflight.fetch_sub(1, Ordering::SeqCst);
            }
            Err(_) => return,
        }
    }
}

/// Binds `opts.addr` with TCP_NODELAY and a deep accept queue.
pub fn bind(addr: &str) -> io::Result<TcpListener> {
    let l = TcpListener::bind(addr)?;
    sys::set_nodelay(&l)?;
    sys::set_backlog(&l, 4096)?;
    Ok(l)
}

/// Starts a tiny_http accept loop on a duplicate of `listener` and a thread dispatching its
/// requests for as long as it has connections. Returns the duplicate's descriptor, which
/// tiny_http closes when its accept loop ends.
fn start_accepting(listener: &TcpListener, shared: &Arc<Shared>) -> io::Result<RawFd> {
    let dup = listener.try_clone()?;
    let fd = dup.as_raw_fd();
    let server = tiny_http::Server::from_listener(dup, None).map_err(io::Error::other)?;
    let shared = shared.clone();
    std::thread::Builder::new()
        .name("varcat-dispatch".into())
        .spawn(move || loop {
            match server.recv() {
                Ok(rq) => dispatch(&shared, rq),
                // The accept loop ended (its error comes here once); connections it accepted
                // may still send requests, so keep dispatching. The supervisor restarts it.
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        })?;
    Ok(fd)
}

/// Identity of the file at a path: a replacement (rename over it) or a rewrite changes it.
fn file_stamp(path: &Path) -> Option<(u64, u64, u64, i64, i64)> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some((m.dev(), m.ino(), m.size(), m.mtime(), m.mtime_nsec()))
}

/// Opens the catalog at `path` and swaps it in; a bad file is refused with one log line and
/// the current catalog keeps serving.
pub fn reload(app: &App, path: &Path, verify: bool, why: &str) -> bool {
    let start = Instant::now();
    let opened = std::panic::catch_unwind(|| Loaded::open(path, verify).map_err(|e| e.to_string()))
        .unwrap_or_else(|_| Err("the file could not be read (panic while opening)".into()));
    match opened {
        Ok(loaded) => {
            let (bytes, sum) = (loaded.cat.catalog.file_len(), loaded.cat.catalog.checksum());
            app.replace(loaded);
            eprintln!(
                "varcat: reloaded catalog {} ({bytes} bytes, checksum {sum:016x}) on {why} in {} ms",
                path.display(),
                start.elapsed().as_millis()
            );
            true
        }
        Err(e) => {
            eprintln!(
                "varcat: reload on {why} refused, still serving checksum {:016x}: {}: {e}",
                app.current().cat.catalog.checksum(),
                path.display()
            );
            false
        }
    }
}

/// Reloads on SIGHUP and when the file at `path` changes (checked every [`WATCH_INTERVAL`]).
fn watch_catalog(app: Arc<App>, path: PathBuf, verify: bool) {
    let mut seen = file_stamp(&path);
    let mut last_check = Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(50));
        if sys::stop_requested() {
            return;
        }
        if sys::take_reload_request() {
            seen = file_stamp(&path);
            last_check = Instant::now();
            reload(&app, &path, verify, "SIGHUP");
        } else if last_check.elapsed() >= WATCH_INTERVAL {
            last_check = Instant::now();
            let now = file_stamp(&path);
            if now.is_some() && now != seen {
                seen = now;
                reload(&app, &path, verify, "file change");
            }
        }
    }
}

/// Serves `app` until SIGTERM or SIGINT (then drains and returns `Ok`); `ready` is called with
/// the bound address.
pub fn serve(app: Arc<App>, opts: &Options, ready: impl FnOnce(SocketAddr)) -> io::Result<()> {
    let listener = bind(&opts.addr)?;
    if opts.write_timeout_ms > 0 {
        sys::set_send_timeout(&listener, Duration::from_millis(opts.write_timeout_ms))?;
    }
    tiny_http::set_connection_read_timeout(
        (opts.idle_timeout_ms > 0).then(|| Duration::from_millis(opts.idle_timeout_ms)),
    );
    let _ = sys::raise_nofile_limit();
    sys::install_signal_handlers()?;
    let local = listener.local_addr()?;
    let log = opts
        .access_log
        .then(|| Arc::new(Mutex::new(io::LineWriter::new(io::stderr()))));
    let (tx, rx) = sync_channel::<tiny_http::Request>(opts.queue.max(1));
    let shared = Arc::new(Shared {
        tx,
        log,
        inflight: AtomicUsize::new(0),
        last_request_us: AtomicU64::new(0),
        start: Instant::now(),
        draining: AtomicBool::new(false),
    });
    let rx = Arc::new(Mutex::new(rx));
    for i in 0..opts.threads.max(1) {
        let (app, rx, shared, delay) =
            (app.clone(), rx.clone(), shared.clone(), opts.debug_delay_ms);
        std::thread::Builder::new()
            .name(format!("varcat-worker-{i}"))
            .spawn(move || worker(app, rx, shared, delay))?;
    }
    if let Some(path) = app.current().path.clone() {
        let (app, verify) = (app.clone(), opts.verify);
        std::thread::Builder::new()
            .name("varcat-reload".into())
            .spawn(move || watch_catalog(app, path, verify))?;
    }
    let mut accept_fd = start_accepting(&listener, &shared)?;
    ready(local);
    let mut dead = false;
    while !sys::stop_requested() {
        std::thread::sleep(Duration::from_millis(50));
        if sys::same_socket(accept_fd, &listener) {
            continue;
        }
        // tiny_http's accept loop ends on any accept error (EMFILE ends or panics it) and
        // leaves the process accepting nothing; start a new one on the same socket (retried
        // until descriptors are free again).
        if !dead {
            eprintln!("varcat: accept loop stopped; restarting it");
            dead = true;
        }
        if let Ok(fd) = start_accepting(&listener, &shared) {
            accept_fd = fd;
            dead = false;
            eprintln!("varcat: accept loop restarted");
        }
    }
    // Refuse new connections first: a client told `Connection: close` must find the door shut
    // rather than land in the accept queue just before it is reset.
    let _ = sys::stop_listening(&listener);
    shared.draining.store(true, Ordering::SeqCst);
    eprintln!("varcat: stopping: accepting no more connections, answering requests in flight");
    let t0 = Instant::now();
    while t0.elapsed() < DRAIN_MAX
        && (shared.inflight.load(Ordering::SeqCst) > 0 || shared.since_last_request() < DRAIN_QUIET)
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!(
        "varcat: stopped ({} requests still in flight)",
        shared.inflight.load(Ordering::SeqCst)
    );
    Ok(())
}
