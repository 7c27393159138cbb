//! varcat patch: a connection's input and output, shared by its connection loop and the request
//! being answered. Every byte read goes through one buffer per connection: a request head is
//! parsed where it lies, its body (if any) is read from what follows, and bytes of pipelined
//! requests stay there for the next head. Upstream chained a reader and a writer per request
//! through channels (two allocations and a hand-off each) and read heads a byte at a time.
//!
//! A request is answered before its connection reads the next one (the handler runs on the
//! connection's thread; requests handed to another thread are waited for), so the locks here
//! are never contended: each is an atomic operation, never a system call.

use std::io::{self, BufWriter, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::common::Header;
use crate::util::RefinedTcpStream;

/// A connection's read buffer to begin with: a request head of a few hundred bytes and some
/// pipelined ones. It grows (doubling) for a longer head, up to [`crate::MAX_REQUEST_HEAD`].
pub(crate) const READ_BUFFER: usize = 4096;

/// A buffer grown past this is given back once empty, so an idle connection keeps no more.
const KEEP_BUFFER: usize = 64 << 10;

/// What a connection's thread and its current request share.
pub(crate) struct Shared {
    pub(crate) inbound: Mutex<Inbound>,
    /// Answers; 1 KiB of buffer gathers the small writes of `Response::raw_print`, and a larger
    /// write (every `respond_raw`) goes straight to the socket.
    pub(crate) outbound: Mutex<BufWriter<RefinedTcpStream>>,
    /// The TCP socket, for `Request::socket`.
    pub(crate) socket: Option<Arc<TcpStream>>,
    /// When the answer being written started (0: none), for the write deadline.
    pub(crate) deadline: Arc<AtomicU64>,
    /// The path and header vectors of the last request, reused by the next one.
    pub(crate) spare: Mutex<Spare>,
}

/// The allocations a request owns, handed back when it is dropped.
#[derive(Default)]
pub(crate) struct Spare {
    pub(crate) path: String,
    pub(crate) headers: Vec<Header>,
}

/// Locks `m`; a panic elsewhere while it was held leaves data that is still whole here.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    pub(crate) fn new(
        read: RefinedTcpStream,
        write: RefinedTcpStream,
        socket: Option<Arc<TcpStream>>,
    ) -> Shared {
        let deadline = Arc::new(AtomicU64::new(0));
        Shared {
            inbound: Mutex::new(Inbound {
                stream: read,
                buf: vec![0; READ_BUFFER],
                start: 0,
                end: 0,
                scanned: 0,
            }),
            outbound: Mutex::new(BufWriter::with_capacity(
                1024,
                write.with_deadline(deadline.clone()),
            )),
            socket,
            deadline,
            spare: Mutex::new(Spare::default()),
        }
    }
}

/// Bytes read from the connection and not yet consumed: `buf[start..end]`.
pub(crate) struct Inbound {
    stream: RefinedTcpStream,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// Bytes before this were searched for the end of a head already.
    scanned: usize,
}

impl Inbound {
    /// Reads more bytes from the connection (one `recv`), making room first: the unread bytes
    /// move to the front, and the buffer doubles when they fill it (never past `max`).
    /// Returns the bytes read (0 at the end of the stream).
    pub(crate) fn fill(&mut self, max: usize) -> io::Result<usize> {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
            self.scanned = 0;
            if self.buf.len() > KEEP_BUFFER {
                self.buf = vec![0; READ_BUFFER];
            }
        } else if self.end == self.buf.len() {
            if self.start > 0 {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.scanned -= self.start.min(self.scanned);
                self.start = 0;
            } else {
                let len = (self.buf.len() * 2).min(max.max(self.buf.len()));
                self.buf.resize(len, 0);
            }
        }
        if self.end == self.buf.len() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "buffer full"));
        }
        let n = loop {
            match self.stream.read(&mut self.buf[self.end..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                r => break r?,
            }
        };
        self.end += n;
        Ok(n)
    }

    /// Bytes buffered and not consumed.
    pub(crate) fn buffered(&self) -> usize {
        self.end - self.start
    }

    /// Where the head at the front of the buffer ends (after its blank line: a line feed
    /// followed by a line feed, or by a carriage return and a line feed), if it has arrived.
    /// Bytes already searched are not searched again, so a head sent a byte at a time costs
    /// its length, not its length squared.
    pub(crate) fn head_end(&mut self) -> Option<usize> {
        let mut i = self.scanned.max(self.start);
        while let Some(p) = self.buf[i..self.end].iter().position(|&b| b == b'\n') {
            let lf = i + p;
            match &self.buf[lf + 1..self.end] {
                [b'\n', ..] => return Some(lf + 2),
                [b'\r', b'\n', ..] => return Some(lf + 3),
                [] | [b'\r'] => {
                    self.scanned = lf;
                    return None;
                }
                _ => i = lf + 1,
            }
        }
        self.scanned = self.end;
        None
    }

    /// The head at the front, up to `end` (from [`Inbound::head_end`]), to parse in place.
    pub(crate) fn head(&self, end: usize) -> &[u8] {
        &self.buf[self.start..end]
    }

    /// Marks the buffered bytes up to `end` consumed.
    pub(crate) fn consume_to(&mut self, end: usize) {
        self.start = end.min(self.end);
    }

    /// Reads a request body's bytes: those buffered first, then from the connection. The
    /// readers over it (a length or the chunked decoder) never ask past the body's end; bytes
    /// of the next request read ahead stay buffered.
    fn read_body(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.start == self.end {
            if out.len() >= self.buf.len() {
                return self.stream.read(out);
            }
            if self.fill(self.buf.len())? == 0 {
                return Ok(0);
            }
        }
        let n = out.len().min(self.end - self.start);
        out[..n].copy_from_slice(&self.buf[self.start..self.start + n]);
        self.start += n;
        Ok(n)
    }
}

/// A request body's source: the connection's buffer, then its socket.
pub(crate) struct BodySource(pub(crate) Arc<Shared>);

impl Read for BodySource {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        lock(&self.0.inbound).read_body(out)
    }
}

/// Where a request's answer goes: its connection, or (a test request, an upgraded stream)
/// any writer.
pub(crate) enum Writer {
    Conn(Arc<Shared>),
    Other(Box<dyn Write + Send + 'static>),
}

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Writer::Conn(c) => lock(&c.outbound).write(buf),
            Writer::Other(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Writer::Conn(c) => lock(&c.outbound).write_all(buf),
            Writer::Other(w) => w.write_all(buf),
        }
    }

    // varcat patch: what is buffered goes first, then the buffers in one `writev` (a
    // `BufWriter` would copy them, or send them one by one).
    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        match self {
            Writer::Conn(c) => {
                let mut out = lock(&c.outbound);
                out.flush()?;
                out.get_mut().write_vectored(bufs)
            }
            Writer::Other(w) => w.write_vectored(bufs),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Writer::Conn(c) => lock(&c.outbound).flush(),
            Writer::Other(w) => w.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use crate::{Handler, Request, Server};

    /// Counts the allocations of each thread, so a test can see what serving a request costs.
    struct Counting;

    thread_local! {
        static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    }

    #[allow(unsafe_code)]
    // SAFETY: forwards every call to the system allocator unchanged.
    unsafe impl std::alloc::GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
            std::alloc::System.alloc(layout)
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
            std::alloc::System.dealloc(ptr, layout)
        }
    }

    #[global_allocator]
    static COUNTING: Counting = Counting;

    /// A server answering each request with its method, path and body on the connection's
    /// thread; `seen` gets the thread's allocation count as each request arrives.
    fn serve(seen: Arc<Mutex<Vec<u64>>>) -> (Server, String) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        let handler: Handler = Arc::new(move |mut rq: Request| {
            let at = ALLOCATIONS.with(|n| n.get());
            if let Ok(mut seen) = seen.lock() {
                if seen.len() < seen.capacity() {
                    seen.push(at);
                }
            }
            if *rq.method() == crate::Method::Get {
                // Answered without allocating: only tiny_http's own allocations are counted.
                let _ = rq.respond_raw(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
                return;
            }
            let mut body = Vec::new();
            let _ = rq.as_reader().read_to_end(&mut body);
            let text = format!("{} {} {}", rq.method(), rq.url(), String::from_utf8_lossy(&body));
            let answer = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{text}", text.len());
            let _ = rq.respond_raw(answer.as_bytes());
        });
        (Server::from_listener_with_handler(l, handler).unwrap(), addr)
    }

    fn connect(addr: &str) -> TcpStream {
        let s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s
    }

    /// Reads one answer with a Content-Length; its body.
    fn answer(s: &mut TcpStream) -> String {
        let mut head = Vec::new();
        let mut b = [0u8];
        while !head.ends_with(b"\r\n\r\n") {
            s.read_exact(&mut b).unwrap();
            head.push(b[0]);
        }
        let head = String::from_utf8(head).unwrap();
        assert!(head.starts_with("HTTP/1.1 200"), "{}", head);
        let len: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .unwrap()
            .parse()
            .unwrap();
        let mut body = vec![0; len];
        s.read_exact(&mut body).unwrap();
        String::from_utf8(body).unwrap()
    }

    #[test]
    fn test_keep_alive_requests_allocate_nothing_once_warm() {
        let seen = Arc::new(Mutex::new(Vec::with_capacity(64)));
        let (_server, addr) = serve(seen.clone());
        let mut s = connect(&addr);
        for _ in 0..20 {
            s.write_all(b"GET /api/health?x=1 HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n")
                .unwrap();
            assert_eq!(answer(&mut s), "ok");
        }
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 20);
        // The first requests size the connection's vectors; after that reading, parsing and
        // answering a request (and dropping it) allocates nothing. Upstream allocated channels,
        // boxes, each line and each header.
        let later: Vec<u64> = seen.windows(2).skip(2).map(|w| w[1] - w[0]).collect();
        assert!(
            later.iter().all(|&n| n == 0),
            "allocations per request: {:?}",
            later
        );
    }

    #[test]
    fn test_pipelined_requests_and_bodies_are_read_from_one_buffer_in_order() {
        let (_server, addr) = serve(Arc::new(Mutex::new(Vec::new())));
        let mut s = connect(&addr);
        // In one write: a GET, a POST with a body, a chunked POST and a GET; then a head a
        // byte at a time.
        s.write_all(
            b"GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello\
              POST /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n\
              GET /d HTTP/1.1\r\n\r\n",
        )
        .unwrap();
        assert_eq!(answer(&mut s), "ok");
        assert_eq!(answer(&mut s), "POST /b hello");
        assert_eq!(answer(&mut s), "POST /c abc");
        assert_eq!(answer(&mut s), "ok");
        for b in b"POST /e HTTP/1.1\nContent-Length: 2\n\nhi" {
            s.write_all(&[*b]).unwrap();
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(answer(&mut s), "POST /e hi");
    }

    #[test]
    fn test_a_head_past_its_budget_closes_the_connection() {
        let (_server, addr) = serve(Arc::new(Mutex::new(Vec::new())));
        let mut s = connect(&addr);
        let head = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(crate::MAX_REQUEST_HEAD));
        let _ = s.write_all(head.as_bytes());
        let mut b = [0u8; 16];
        match s.read(&mut b) {
            Ok(0) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
            other => panic!("connection not closed: {:?}", other),
        }
        // Just under the budget is read.
        let mut s = connect(&addr);
        let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(crate::MAX_REQUEST_HEAD - 64));
        s.write_all(long.as_bytes()).unwrap();
        assert_eq!(answer(&mut s), "ok");
    }

    /// A head and body sent as two parts arrive as one answer, in order, byte for byte, small
    /// or larger than the socket takes at once, on a connection that goes on being served.
    #[test]
    fn test_an_answer_in_two_parts_arrives_whole_and_in_order() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        let handler: Handler = Arc::new(|rq: Request| {
            let n: usize = rq.url()[1..].parse().unwrap();
            let body: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {n}\r\n\r\n");
            let _ = rq.respond_raw_parts(head.as_bytes(), &body);
        });
        let _server = Server::from_listener_with_handler(l, handler).unwrap();
        let mut s = connect(&addr);
        for n in [5usize, 5000, 3 << 20, 7] {
            s.write_all(format!("GET /{n} HTTP/1.1\r\n\r\n").as_bytes()).unwrap();
            let body = answer(&mut s);
            assert_eq!(body.len(), n);
            assert!(body.bytes().enumerate().all(|(i, b)| b == b'a' + (i % 26) as u8));
        }
    }
}
