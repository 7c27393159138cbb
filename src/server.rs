//! The server: tiny_http on our own listener (TCP_NODELAY), a bounded dispatch queue (overload
//! is answered 503 with Retry-After instead of queueing without bound), a fixed worker pool and
//! one access-log line per request.

use std::io::{self, Cursor, Write};
use std::net::{SocketAddr, TcpListener};
use std::sync::mpsc::{sync_channel, Receiver, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::error::ApiError;
use crate::http::{self, App, Request, Response};
use crate::sys;

/// Longest request URL answered (longer: 414).
pub const MAX_URL: usize = 8 * 1024;
/// Largest total header size answered (larger: 431). tiny_http has already read them; the
/// nginx front in the README enforces the limit before they are read.
pub const MAX_HEADERS: usize = 16 * 1024;

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

/// Answers one request on a worker.
fn answer(app: &App, rq: tiny_http::Request, log: Option<&Mutex<io::LineWriter<io::Stderr>>>) {
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
    let (status, bytes) = (resp.status, resp.body.len());
    if let Some(log) = log {
        log_line(log, &rq, status, bytes, start);
    }
    // A client that hung up is not a server error.
    let _ = rq.respond(to_tiny(resp));
}

fn worker(
    app: Arc<App>,
    rx: Arc<Mutex<Receiver<tiny_http::Request>>>,
    log: Option<Arc<Mutex<io::LineWriter<io::Stderr>>>>,
    delay_ms: u64,
) {
    loop {
        let next = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
        match next {
            Ok(rq) => {
                if delay_ms > 0 {
                    std::thread::sleep(std::time::Duration::from_millis(delay_ms));
                }
                answer(&app, rq, log.as_deref())
            }
            Err(_) => return,
        }
    }
}

/// Binds `opts.addr` with TCP_NODELAY.
pub fn bind(addr: &str) -> io::Result<TcpListener> {
    let l = TcpListener::bind(addr)?;
    sys::set_nodelay(&l)?;
    Ok(l)
}

/// Serves `app` until the process ends; `ready` is called with the bound address.
pub fn serve(app: Arc<App>, opts: &Options, ready: impl FnOnce(SocketAddr)) -> io::Result<()> {
    let listener = bind(&opts.addr)?;
    let _ = sys::raise_nofile_limit();
    let local = listener.local_addr()?;
    let log = opts
        .access_log
        .then(|| Arc::new(Mutex::new(io::LineWriter::new(io::stderr()))));
    let (tx, rx) = sync_channel::<tiny_http::Request>(opts.queue.max(1));
    let rx = Arc::new(Mutex::new(rx));
    for i in 0..opts.threads.max(1) {
        let (app, rx, log, delay) = (app.clone(), rx.clone(), log.clone(), opts.debug_delay_ms);
        std::thread::Builder::new()
            .name(format!("varcat-worker-{i}"))
            .spawn(move || worker(app, rx, log, delay))?;
    }
    let mut server =
        tiny_http::Server::from_listener(listener.try_clone()?, None).map_err(io::Error::other)?;
    ready(local);
    loop {
        match server.recv() {
            Ok(rq) => match tx.try_send(rq) {
                Ok(()) => {}
                Err(TrySendError::Full(rq)) => {
                    let start = Instant::now();
                    let resp = http::error(&ApiError::overloaded());
                    if let Some(log) = &log {
                        log_line(log, &rq, 503, resp.body.len(), start);
                    }
                    let _ = rq.respond(to_tiny(resp));
                }
                Err(TrySendError::Disconnected(_)) => return Ok(()),
            },
            Err(e) => {
                // tiny_http's accept loop ends on any accept error (EMFILE…) and leaves the
                // process accepting nothing; start a new one on the same listening socket.
                eprintln!("varcat: accept loop stopped ({e}); restarting it");
                std::thread::sleep(std::time::Duration::from_millis(100));
                server = tiny_http::Server::from_listener(listener.try_clone()?, None)
                    .map_err(io::Error::other)?;
            }
        }
    }
}
