//! The server: tiny_http on our own listener (TCP_NODELAY), answering each request on its
//! connection's own thread (a connection has at most one request in flight: pipelined requests
//! wait in the socket, not in memory), at most `--threads` requests computed at once and
//! `--queue` waiting for that, overload answered 503 with Retry-After at once, every answer
//! written within a total deadline, and one access-log line per request (written in batches,
//! [`access_log`]).
//!
//! Life cycle: a supervisor (the thread that called [`serve`]) restarts tiny_http's accept loop
//! whenever it dies (EMFILE ends or panics it); requests of every accept loop, old or new, keep
//! being dispatched. A reload thread swaps in a new catalog on SIGHUP or when the file at the
//! catalog's path is replaced, and stops reading a mapped file changed in place ([`watch`]).
//! SIGTERM/SIGINT stop accepting, answer every request that arrives on open connections with
//! `Connection: close`, and return once nothing is in flight and no request came for
//! [`DRAIN_QUIET`].

use std::io::{self, Write};
use std::net::{SocketAddr, TcpListener};
use std::os::fd::{AsRawFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::access_log::{self, AccessLog};
use crate::batch;
use crate::http::{self, App, Request, Response};
use crate::slots::Slots;
use crate::sys;
use crate::watch;
use crate::wire::{head, sends_body, wire, Framing};
use varcat_query::error::ApiError;

/// Longest request URL answered (longer: 414): an identifier at the longest the build indexes,
/// percent-encoded throughout, with room for the rest.
pub const MAX_URL: usize = 3 * varcat_query::parse::ident::MAX_ID_LEN + 8 * 1024;
/// Largest total header size answered (larger: 431). tiny_http has already read them; the
/// nginx front in the README enforces the limit before they are read.
pub const MAX_HEADERS: usize = 16 * 1024;
/// On SIGTERM, the server exits once no request is in flight and none arrived for this long…
/// (long enough that a keep-alive client scheduled late on a busy machine still gets its
/// `Connection: close` answer).
pub const DRAIN_QUIET: Duration = Duration::from_secs(1);
/// …or after this long at most.
pub const DRAIN_MAX: Duration = Duration::from_secs(10);
/// Past the write deadline, an answer must reach the client at least this fast (bytes a second):
/// a slow link is served whatever the answer's size, a stalled client is still cut.
pub const MIN_WRITE_RATE: u64 = 64 << 10;
/// A send blocks at most this long, so the write deadline is checked at least this often.
const SEND_SLICE: Duration = Duration::from_secs(1);
/// Largest `--threads`.
pub const MAX_THREADS: usize = 1024;
/// Largest `--queue`.
pub const MAX_QUEUE: usize = 65_536;
/// Largest `--max-connections`.
pub const MAX_CONNECTIONS: usize = 65_536;

/// Server options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Address to bind (`127.0.0.1:2023`; port 0 picks a free port).
    pub addr: String,
    /// Requests computed at once (each on its connection's thread).
    pub threads: usize,
    /// Requests that may wait for one of those before new ones get 503.
    pub queue: usize,
    /// Connections served at once; one more is answered 503 and closed.
    pub max_connections: usize,
    /// Write an access-log line per request to stderr.
    pub access_log: bool,
    /// Test aid: each worker sleeps this long before answering (to fill the queue on purpose).
    pub debug_delay_ms: u64,
    /// Verify every checksum of a catalog before a reload swaps it in.
    pub verify: bool,
    /// An answer not written whole within this long must then reach the client at
    /// [`MIN_WRITE_RATE`] at least, and any stall this long cuts it (a client that stops
    /// reading, or reads a few bytes now and then); the connection is then cut (0: no limit).
    pub write_timeout_ms: u64,
    /// A connection that sends nothing for this long (idle keep-alive, half-sent request) is
    /// closed (0: never; needs the patched tiny_http in `vendor/`).
    pub idle_timeout_ms: u64,
}

impl Options {
    /// The options' values, checked: a value out of range is refused with one line naming the
    /// flag (a huge `--queue` was once an allocation that aborted the process).
    pub fn check(&self) -> Result<(), String> {
        let range = |flag: &str, v: usize, lo: usize, hi: usize| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(format!("{flag} must be from {lo} to {hi}, got {v}"))
            }
        };
        range("--threads", self.threads, 1, MAX_THREADS)?;
        range("--queue", self.queue, 0, MAX_QUEUE)?;
        range(
            "--max-connections",
            self.max_connections,
            1,
            MAX_CONNECTIONS,
        )
    }
}

/// A `--base-path`, checked: `/` followed by path segments (no `?`, `#`, `%`, white space or
/// control characters), or empty for the root. Without the leading `/` every endpoint was 404.
pub fn check_base_path(base: &str) -> Result<(), String> {
    let ok = (base.is_empty() || base.starts_with('/'))
        && !base
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '?' | '#' | '%'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "--base-path must start with / and hold no ?, #, % or spaces (e.g. /api), got {base:?}"
        ))
    }
}

fn log_line(log: &AccessLog, rq: &tiny_http::Request, status: u16, bytes: usize, start: Instant) {
    let addr = rq.remote_addr().copied();
    log.line(&access_log::Entry {
        addr,
        method: rq.method().as_str(),
        url: rq.url(),
        status,
        bytes,
        start,
    });
}

/// The request headers an answer reads (the first of each name), borrowed from the request,
/// and the size of all its headers; found in one pass.
#[derive(Default)]
struct Heads<'r> {
    origin: Option<&'r str>,
    accept_encoding: Option<&'r str>,
    accept: Option<&'r str>,
    if_none_match: Option<&'r str>,
    cors_request_headers: Option<&'r str>,
    host: Option<&'r str>,
    bytes: usize,
}

impl<'r> Heads<'r> {
    fn of(rq: &'r tiny_http::Request) -> Heads<'r> {
        let mut h = Heads::default();
        for header in rq.headers() {
            let (name, value) = (header.field.as_str().as_str(), header.value.as_str());
            h.bytes += name.len() + value.len() + 4;
            let slot = [
                ("Origin", &mut h.origin),
                ("Accept-Encoding", &mut h.accept_encoding),
                ("Accept", &mut h.accept),
                ("If-None-Match", &mut h.if_none_match),
                (
                    "Access-Control-Request-Headers",
                    &mut h.cors_request_headers,
                ),
                ("Host", &mut h.host),
            ]
            .into_iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name));
            if let Some((_, slot)) = slot {
                slot.get_or_insert(value);
            }
        }
        h
    }
}

/// Computes the response to one request on a worker (and logs it, unless its body is streamed
/// by `items`: that is logged once written); `start` is when the request came.
fn answer(
    app: &App,
    rq: &tiny_http::Request,
    body: http::ReqBody<'_>,
    log: Option<&AccessLog>,
    start: Instant,
) -> (Response, Option<batch::Items>) {
    let heads = Heads::of(rq);
    let (resp, items) = if rq.url().len() > MAX_URL {
        let e = ApiError::too_large(414, format!("request URL longer than {MAX_URL} bytes"));
        let mut r = http::error(&e);
        app.apply_cors(heads.origin, &mut r);
        (r, None)
    } else if heads.bytes > MAX_HEADERS {
        let e = ApiError::too_large(
            431,
            format!("request headers larger than {MAX_HEADERS} bytes"),
        );
        let mut r = http::error(&e);
        app.apply_cors(heads.origin, &mut r);
        (r, None)
    } else {
        // A bench build times the application's share of the request (the bench reads the sum
        // at `{base}/__floor/handler`, http/floor.rs).
        #[cfg(feature = "bench-floor")]
        let handler_start = Instant::now();
        let answered = app.answer(&Request {
            method: rq.method().as_str(),
            url: rq.url(),
            accept_encoding: heads.accept_encoding,
            accept: heads.accept,
            if_none_match: heads.if_none_match,
            cors_request_headers: heads.cors_request_headers,
            origin: heads.origin,
            body,
            host: heads.host,
        });
        #[cfg(feature = "bench-floor")]
        http::floor::HANDLER.time(rq.url(), handler_start);
        answered
    };
    if let (Some(log), None) = (log, &items) {
        log_line(log, rq, resp.status, resp.body.len(), start);
    }
    (resp, items)
}

/// Reads a request body of at most `max` bytes (the route's, [`App::body_limit`]) into `buf`. A
/// longer `Content-Length` is refused unread (before any `100 Continue`); a chunked body is read
/// until it passes the limit. What is left unread closes the connection (tiny_http's body
/// reader, `vendor/tiny_http/PATCHED.md`).
fn read_body<'b>(
    rq: &mut tiny_http::Request,
    max: usize,
    buf: &'b mut Vec<u8>,
) -> http::ReqBody<'b> {
    use std::io::Read;
    if rq.body_length().is_some_and(|n| n > max) {
        return http::ReqBody::TooLarge;
    }
    match rq.as_reader().take(max as u64 + 1).read_to_end(buf) {
        Ok(_) if buf.len() > max => http::ReqBody::TooLarge,
        Ok(_) => http::ReqBody::Read(buf),
        Err(_) => http::ReqBody::Failed,
    }
}

type Log = Option<Arc<AccessLog>>;

/// What the connection threads and the supervisor share.
struct Shared {
    app: Arc<App>,
    slots: Slots,
    log: Log,
    delay_ms: u64,
    /// Requests received and not yet answered.
    inflight: AtomicUsize,
    /// When the last request was received (µs since `start`, to the millisecond).
    last_request_us: AtomicU64,
    start: Instant,
    /// Stopping: answers carry `Connection: close`.
    draining: AtomicBool,
}

impl Shared {
    /// Writes the access-log lines waiting, so that a message to stderr follows them.
    fn flush_log(&self) {
        if let Some(log) = &self.log {
            log.flush();
        }
    }

    fn since_last_request(&self) -> Duration {
        let last = Duration::from_micros(self.last_request_us.load(Ordering::SeqCst));
        self.start.elapsed().saturating_sub(last)
    }
}

/// Sends `resp` (with the body `items` stream, if any); while draining, with `Connection:
/// close` (tiny_http drops a `Connection` header given to it) so keep-alive clients stop
/// sending on this connection. Returns the body bytes sent.
///
/// When the write fails (the client hung up, or did not take the answer within the write
/// deadline and rate), the connection is reset: its thread ends instead of reading what
/// follows, and what was queued for the client is dropped.
fn respond(
    shared: &Shared,
    rq: tiny_http::Request,
    resp: Response,
    items: Option<batch::Items>,
    dated: Instant,
) -> usize {
    let socket = rq.socket();
    let written = match items {
        Some(items) => write_stream(shared, rq, &resp, items),
        None => write_response(shared, rq, resp, dated),
    };
    written.unwrap_or_else(|_| {
        if let Some(s) = socket {
            sys::abort_connection(&s);
        }
        0
    })
}

/// A connection thread keeps its answer buffer for the next request up to this size (an
/// answer of a few KiB then costs no allocation; a longer one gets a buffer of its own).
const WIRE_KEEP: usize = 16 << 10;

/// A body at least this long is sent from its own buffer beside the head (`writev`) rather
/// than copied behind it (a 29 KB region page was copied whole, into a buffer grown for it).
const WIRE_APART: usize = 4 << 10;

fn write_response(
    shared: &Shared,
    rq: tiny_http::Request,
    resp: Response,
    dated: Instant,
) -> io::Result<usize> {
    thread_local! {
        static WIRE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let head_only = *rq.method() == tiny_http::Method::Head;
    let close = shared.draining.load(Ordering::SeqCst);
    WIRE.with_borrow_mut(|out| {
        out.clear();
        let sent = if resp.body.len() >= WIRE_APART && sends_body(&resp, head_only) {
            // The head here, the body from its own buffer: one `writev`, no copy.
            wire(&resp, true, close, dated, out);
            rq.respond_raw_parts(out, &resp.body)
        } else {
            wire(&resp, head_only, close, dated, out);
            rq.respond_raw(out)
        };
        if out.capacity() > WIRE_KEEP {
            *out = Vec::new();
        }
        sent
    })?;
    let len = resp.body.len();
    http::message::give_back(resp);
    Ok(len)
}

/// Pieces of a streamed body are sent in chunks of about this size (a piece at least this
/// long is a chunk of its own, never copied).
const STREAM_CHUNK: usize = 64 << 10;

/// A streamed body on the wire: HTTP/1.1 chunked coding, or (HTTP/1.0) bytes up to the
/// connection's close; small pieces are gathered into one chunk.
struct Framed<'w> {
    out: &'w mut dyn Write,
    chunked: bool,
    gathered: Vec<u8>,
    /// Body bytes sent (before the chunked framing).
    sent: usize,
}

impl Framed<'_> {
    fn chunk(&mut self, data: &[u8]) -> io::Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        if self.chunked {
            write!(self.out, "{:x}\r\n", data.len())?;
        }
        self.out.write_all(data)?;
        if self.chunked {
            self.out.write_all(b"\r\n")?;
        }
        self.sent += data.len();
        Ok(())
    }

    fn send_gathered(&mut self) -> io::Result<()> {
        let gathered = std::mem::take(&mut self.gathered);
        self.chunk(&gathered)?;
        self.gathered = gathered;
        self.gathered.clear();
        Ok(())
    }

    /// Sends what is gathered and the end of the body.
    fn finish(&mut self) -> io::Result<()> {
        self.send_gathered()?;
        if self.chunked {
            self.out.write_all(b"0\r\n\r\n")?;
        }
        Ok(())
    }
}

impl Write for Framed<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.len() >= STREAM_CHUNK {
            self.send_gathered()?;
            self.chunk(buf)?;
        } else {
            self.gathered.extend_from_slice(buf);
            if self.gathered.len() >= STREAM_CHUNK {
                self.send_gathered()?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Where a streamed body's pieces go: to the wire, or through gzip to it.
enum Sink<'w> {
    Plain(Framed<'w>),
    Gzip(Box<flate2::write::GzEncoder<Framed<'w>>>),
}

impl<'w> Sink<'w> {
    fn write_all(&mut self, piece: &[u8]) -> io::Result<()> {
        match self {
            Sink::Plain(f) => f.write_all(piece),
            Sink::Gzip(g) => g.write_all(piece),
        }
    }

    /// Ends the gzip stream, if any; the wire, to finish.
    fn finish(self) -> io::Result<Framed<'w>> {
        match self {
            Sink::Plain(f) => Ok(f),
            Sink::Gzip(g) => g.finish(),
        }
    }
}

/// Streams a batch answer: each item is computed under a handler slot (waited for, never
/// refused: the request was admitted) and written without one, so the answer holds one item
/// in memory, and a client that does not read holds its connection and that item, no slot.
fn write_stream(
    shared: &Shared,
    rq: tiny_http::Request,
    resp: &Response,
    mut items: batch::Items,
) -> io::Result<usize> {
    let chunked = *rq.http_version() >= tiny_http::HTTPVersion(1, 1);
    if !chunked {
        rq.close_after_response();
    }
    let close = shared.draining.load(Ordering::SeqCst) || !chunked;
    let mut start = Vec::with_capacity(512);
    let framing = if chunked {
        Framing::Chunked
    } else {
        Framing::UntilClose
    };
    head(resp, framing, close, Instant::now(), &mut start);
    let gzip = resp.header("Content-Encoding") == Some("gzip");
    let mut sent = 0;
    rq.respond_with(|w| {
        w.write_all(&start)?;
        let framed = Framed {
            out: w,
            chunked,
            gathered: Vec::new(),
            sent: 0,
        };
        let mut sink = if gzip {
            Sink::Gzip(Box::new(flate2::write::GzEncoder::new(
                framed,
                flate2::Compression::fast(),
            )))
        } else {
            Sink::Plain(framed)
        };
        loop {
            let piece = {
                let _slot = shared.slots.wait();
                items.next_piece()
            };
            match piece {
                None => break,
                Some(Ok(p)) => sink.write_all(&p)?,
                Some(Err(batch::Stopped(why))) => return Err(io::Error::other(why.to_string())),
            }
        }
        let mut framed = sink.finish()?;
        framed.finish()?;
        sent = framed.sent;
        Ok(())
    })?;
    Ok(sent)
}

/// Answers one request on its connection's thread: waits for a handler slot (503 at once when
/// too many wait), computes the answer, gives the slot back, then writes the answer (a slow
/// reader holds its own connection, never a slot).
fn on_request(shared: &Shared, mut rq: tiny_http::Request) {
    shared.inflight.fetch_add(1, Ordering::SeqCst);
    // The one clock read of the request (besides the access log's duration): when it came,
    // for the drain, the log and the `Date` header.
    let start = Instant::now();
    let since = start.saturating_duration_since(shared.start).as_micros() as u64;
    // Recorded once a millisecond at most: the drain waits for a quiet second, which a
    // millisecond does not change, while a write by every request moved this cache line
    // between the cores on every request.
    if since >= shared.last_request_us.load(Ordering::Relaxed) + 1000 {
        shared.last_request_us.fetch_max(since, Ordering::SeqCst);
    }
    // A body is read before a handler slot is taken: a client sending it slowly holds its own
    // connection only.
    let mut buf = Vec::new();
    let body = if shared.app.reads_body(rq.method().as_str(), rq.url()) {
        let max = shared.app.body_limit(rq.url());
        read_body(&mut rq, max, &mut buf)
    } else {
        http::ReqBody::Unread
    };
    // The `Date` of the answer: when the request came, unless its body took a while to come.
    let mut dated = start;
    if !matches!(body, http::ReqBody::Unread) {
        dated = Instant::now();
    }
    let (resp, items) = match shared.slots.take() {
        Some(_slot) => {
            if shared.delay_ms > 0 {
                std::thread::sleep(Duration::from_millis(shared.delay_ms));
            }
            answer(&shared.app, &rq, body, shared.log.as_deref(), start)
        }
        None => {
            let mut resp = http::error(&ApiError::overloaded());
            let origin = rq
                .headers()
                .iter()
                .find(|h| h.field.equiv("Origin"))
                .map(|h| h.value.as_str());
            shared.app.apply_cors(origin, &mut resp);
            if let Some(log) = &shared.log {
                log_line(log, &rq, 503, resp.body.len(), start);
            }
            (resp, None)
        }
    };
    match (&shared.log, items.is_some()) {
        (Some(log), true) => {
            // A streamed answer is logged once written, with the bytes sent.
            let (method, url, addr) = (
                rq.method().clone(),
                rq.url().to_string(),
                rq.remote_addr().copied(),
            );
            let status = resp.status;
            let sent = respond(shared, rq, resp, items, dated);
            log.line(&access_log::Entry {
                addr,
                method: method.as_str(),
                url: &url,
                status,
                bytes: sent,
                start,
            });
        }
        _ => {
            respond(shared, rq, resp, items, dated);
        }
    }
    shared.inflight.fetch_sub(1, Ordering::SeqCst);
}

/// Binds `opts.addr` with TCP_NODELAY and a deep accept queue.
pub fn bind(addr: &str) -> io::Result<TcpListener> {
    let l = TcpListener::bind(addr)?;
    sys::set_nodelay(&l)?;
    sys::set_backlog(&l, 4096)?;
    Ok(l)
}

/// Starts a tiny_http accept loop on a duplicate of `listener`, answering on connection
/// threads. Returns the duplicate's descriptor, which tiny_http closes when its accept loop
/// ends, and the server, which must live as long as its connections (dropping it stops them).
fn start_accepting(
    listener: &TcpListener,
    shared: &Arc<Shared>,
) -> io::Result<(RawFd, tiny_http::Server)> {
    let dup = listener.try_clone()?;
    let fd = dup.as_raw_fd();
    let shared = shared.clone();
    let handler: tiny_http::Handler = Arc::new(move |rq| on_request(&shared, rq));
    let server =
        tiny_http::Server::from_listener_with_handler(dup, handler).map_err(io::Error::other)?;
    Ok((fd, server))
}

/// Serves `app` until SIGTERM or SIGINT (then drains and returns `Ok`); `ready` is called with
/// the bound address.
pub fn serve(app: Arc<App>, opts: &Options, ready: impl FnOnce(SocketAddr)) -> io::Result<()> {
    let listener = bind(&opts.addr)?;
    let write_deadline =
        (opts.write_timeout_ms > 0).then(|| Duration::from_millis(opts.write_timeout_ms));
    if let Some(d) = write_deadline {
        // Accepted sockets inherit it: a send blocks at most this long, then the deadline of
        // the whole answer is checked again.
        sys::set_send_timeout(&listener, d.min(SEND_SLICE))?;
    }
    tiny_http::set_response_write_deadline(write_deadline);
    tiny_http::set_response_min_rate(MIN_WRITE_RATE);
    tiny_http::set_max_connections(Some(opts.max_connections.max(1)));
    tiny_http::set_connection_read_timeout(
        (opts.idle_timeout_ms > 0).then(|| Duration::from_millis(opts.idle_timeout_ms)),
    );
    let _ = sys::raise_nofile_limit();
    sys::install_signal_handlers()?;
    sys::install_sigbus_handler()?;
    if let Some(path) = &app.current().path {
        sys::set_sigbus_line(path);
    }
    let local = listener.local_addr()?;
    let log = opts
        .access_log
        .then(|| Arc::new(AccessLog::new(io::stderr())));
    if let Some(log) = &log {
        access_log::start_flusher(log)?;
    }
    let shared = Arc::new(Shared {
        app: app.clone(),
        slots: Slots::new(opts.threads, opts.queue),
        log,
        delay_ms: opts.debug_delay_ms,
        inflight: AtomicUsize::new(0),
        last_request_us: AtomicU64::new(0),
        start: Instant::now(),
        draining: AtomicBool::new(false),
    });
    if let Some(path) = app.current().path.clone() {
        let (app, verify) = (app.clone(), opts.verify);
        std::thread::Builder::new()
            .name("varcat-reload".into())
            .spawn(move || watch::watch_catalog(app, path, verify))?;
    }
    let (mut accept_fd, server) = start_accepting(&listener, &shared)?;
    // Every accept loop's server is kept: dropping one would stop its connections.
    let mut servers = vec![server];
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
            shared.flush_log();
            eprintln!("varcat: accept loop stopped; restarting it");
            dead = true;
        }
        if let Ok((fd, server)) = start_accepting(&listener, &shared) {
            accept_fd = fd;
            servers.push(server);
            dead = false;
            shared.flush_log();
            eprintln!("varcat: accept loop restarted");
        }
    }
    // Refuse new connections first: a client told `Connection: close` must find the door shut
    // rather than land in the accept queue just before it is reset.
    let _ = sys::stop_listening(&listener);
    shared.draining.store(true, Ordering::SeqCst);
    shared.flush_log();
    eprintln!("varcat: stopping: accepting no more connections, answering requests in flight");
    let t0 = Instant::now();
    while t0.elapsed() < DRAIN_MAX
        && (shared.inflight.load(Ordering::SeqCst) > 0 || shared.since_last_request() < DRAIN_QUIET)
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    shared.flush_log();
    eprintln!(
        "varcat: stopped ({} requests still in flight)",
        shared.inflight.load(Ordering::SeqCst)
    );
    drop(servers);
    shared.flush_log();
    Ok(())
}
