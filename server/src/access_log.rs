//! The access log: one line per request, `<ip> "<method> <target>" <status> <bytes> <n>us`,
//! gathered in memory and written in batches — by a background thread every [`FLUSH_EVERY`],
//! at once when [`BATCH`] bytes wait, and when the server stops — instead of one `write` per
//! request (a system call that was a third of the HTTP path's own on a keep-alive request).

use std::io::{self, Write};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A line waits at most about this long before it is written.
pub const FLUSH_EVERY: Duration = Duration::from_millis(200);
/// Lines waiting are written at once when they reach this size (memory stays bounded however
/// fast requests come, and a full pipe slows the requests, as a line writer did).
pub const BATCH: usize = 64 << 10;

/// Lines waiting, and the writer they go to with its spare buffer (swapped with the waiting
/// lines under the writer's lock, so batches keep their order and no batch allocates).
pub struct AccessLog<W: Write + Send = io::Stderr> {
    pending: Mutex<Vec<u8>>,
    out: Mutex<(W, Vec<u8>)>,
}

impl<W: Write + Send> AccessLog<W> {
    pub fn new(out: W) -> AccessLog<W> {
        AccessLog {
            pending: Mutex::new(Vec::with_capacity(BATCH)),
            out: Mutex::new((out, Vec::with_capacity(BATCH))),
        }
    }

    /// Adds one request's line; writes the batch when it has reached [`BATCH`]. The line is
    /// formatted on the calling thread and only copied under the lock: with many connections
    /// on few cores, a thread preempted while it held the lock to format stalled the others.
    pub fn line(&self, entry: &Entry<'_>) {
        thread_local! {
            static LINE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        let full = LINE.with_borrow_mut(|line| {
            line.clear();
            entry.write_to(line);
            let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            p.extend_from_slice(line);
            if line.capacity() > KEEP_LINE {
                *line = Vec::new();
            }
            p.len() >= BATCH
        });
        if full {
            self.flush();
        }
    }

    /// Writes every line waiting (in the order they were added).
    pub fn flush(&self) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let (w, spare) = &mut *out;
        std::mem::swap(
            spare,
            &mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()),
        );
        if !spare.is_empty() {
            // A log that cannot be written must not stop the answers.
            let _ = w.write_all(spare);
            let _ = w.flush();
            spare.clear();
        }
    }
}

/// Starts the thread that writes `log`'s lines every [`FLUSH_EVERY`]; it ends once `log` is
/// dropped elsewhere (the server flushes it last when it stops).
pub fn start_flusher<W: Write + Send + 'static>(log: &Arc<AccessLog<W>>) -> io::Result<()> {
    let weak = Arc::downgrade(log);
    std::thread::Builder::new()
        .name("varcat-access-log".into())
        .spawn(move || loop {
            std::thread::sleep(FLUSH_EVERY);
            match weak.upgrade() {
                Some(log) => log.flush(),
                None => return,
            }
        })?;
    Ok(())
}

/// A thread keeps its line buffer up to this size (a line is as long as its URL).
const KEEP_LINE: usize = 16 << 10;

/// What the access log says of one request.
pub struct Entry<'a> {
    /// The client, when known.
    pub addr: Option<SocketAddr>,
    pub method: &'a str,
    /// The request target, as sent.
    pub url: &'a str,
    pub status: u16,
    /// Body bytes sent.
    pub bytes: usize,
    /// When the request came (the line gives the time since).
    pub start: Instant,
}

impl Entry<'_> {
    /// Appends the line `<ip> "<method> <target>" <status> <bytes> <n>us\n` to `out`.
    fn write_to(&self, out: &mut Vec<u8>) {
        let Entry {
            addr,
            method,
            url,
            status,
            bytes,
            start,
        } = *self;
        let mut n = itoa::Buffer::new();
        match addr.map(|a| a.ip()) {
            // The usual case without `fmt`.
            Some(std::net::IpAddr::V4(ip)) => {
                for (i, octet) in ip.octets().into_iter().enumerate() {
                    if i > 0 {
                        out.push(b'.');
                    }
                    out.extend_from_slice(n.format(octet).as_bytes());
                }
            }
            Some(ip) => {
                let _ = write!(out, "{ip}");
            }
            None => out.push(b'-'),
        }
        out.extend_from_slice(b" \"");
        escape_into(method, out);
        out.push(b' ');
        escape_into(url, out);
        out.extend_from_slice(b"\" ");
        out.extend_from_slice(n.format(status).as_bytes());
        out.push(b' ');
        out.extend_from_slice(n.format(bytes).as_bytes());
        out.push(b' ');
        out.extend_from_slice(n.format(start.elapsed().as_micros()).as_bytes());
        out.extend_from_slice(b"us\n");
    }
}

/// A client's text for the access log: control bytes, `"` and `\` as `\xNN`, so a request can
/// neither forge log lines nor send escape sequences to a terminal.
fn escape_into(s: &str, out: &mut Vec<u8>) {
    // Request targets are printable ASCII (tiny_http refuses other bytes in them): copied whole.
    if s.bytes()
        .all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\')
    {
        out.extend_from_slice(s.as_bytes());
        return;
    }
    for c in s.chars() {
        if c.is_control() || c == '"' || c == '\\' {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "\\x{b:02x}");
            }
        } else {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that records each `write` call.
    #[derive(Clone, Default)]
    struct Calls(Arc<Mutex<Vec<Vec<u8>>>>);

    impl Write for Calls {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A GET's entry.
    fn get<'a>(addr: Option<SocketAddr>, url: &'a str, status: u16, bytes: usize) -> Entry<'a> {
        Entry {
            addr,
            method: "GET",
            url,
            status,
            bytes,
            start: Instant::now(),
        }
    }

    fn text(c: &Calls) -> String {
        String::from_utf8(c.0.lock().unwrap().concat()).unwrap()
    }

    #[test]
    fn test_lines_are_batched_into_one_write_per_flush() {
        let calls = Calls::default();
        let log = AccessLog::new(calls.clone());
        let addr: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        for i in 0..100 {
            log.line(&get(Some(addr), &format!("/api/health?i={i}"), 200, 10));
        }
        assert!(calls.0.lock().unwrap().is_empty(), "a write per line");
        log.flush();
        assert_eq!(calls.0.lock().unwrap().len(), 1);
        let t = text(&calls);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 100);
        for (i, l) in lines.iter().enumerate() {
            let head = format!("127.0.0.1 \"GET /api/health?i={i}\" 200 10 ");
            assert!(l.starts_with(&head) && l.ends_with("us"), "{l}");
        }
        log.flush();
        assert_eq!(
            calls.0.lock().unwrap().len(),
            1,
            "an empty batch was written"
        );
    }

    #[test]
    fn test_a_full_batch_is_written_at_once() {
        let calls = Calls::default();
        let log = AccessLog::new(calls.clone());
        let url = format!("/{}", "a".repeat(1000));
        let mut n = 0;
        while calls.0.lock().unwrap().is_empty() {
            log.line(&get(None, &url, 200, 1));
            n += 1;
            assert!(n * 1000 < 2 * BATCH, "no write past the batch size");
        }
        assert!(text(&calls).len() >= BATCH);
        assert!(text(&calls).starts_with("- \"GET /aaa"));
    }

    #[test]
    fn test_the_flusher_writes_lines_without_more_requests_and_ends_with_the_log() {
        let calls = Calls::default();
        let log = Arc::new(AccessLog::new(calls.clone()));
        start_flusher(&log).unwrap();
        log.line(&get(None, "/x", 404, 3));
        let t = Instant::now();
        while text(&calls).is_empty() {
            assert!(t.elapsed() < Duration::from_secs(10), "never written");
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(text(&calls).starts_with("- \"GET /x\" 404 3 "));
        drop(log);
    }

    #[test]
    fn test_what_clients_send_is_escaped() {
        let mut out = Vec::new();
        escape_into("GE\u{1b}[31mT /a\u{7}?x=\"\\ é", &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "GE\\x1b[31mT /a\\x07?x=\\x22\\x5c é"
        );
    }

    #[test]
    fn test_a_line_names_the_client_request_status_size_and_time() {
        for (addr, ip) in [
            (Some("10.0.255.7:80".parse().unwrap()), "10.0.255.7"),
            (Some("[::1]:80".parse().unwrap()), "::1"),
            (None, "-"),
        ] {
            let mut out = Vec::new();
            get(addr, "/api/x?a=\"b\"", 404, 12345).write_to(&mut out);
            let line = String::from_utf8(out).unwrap();
            let head = format!("{ip} \"GET /api/x?a=\\x22b\\x22\" 404 12345 ");
            let micros = line
                .strip_prefix(&head)
                .and_then(|l| l.strip_suffix("us\n"));
            assert!(micros.is_some_and(|m| m.parse::<u64>().is_ok()), "{line}");
        }
    }
}
