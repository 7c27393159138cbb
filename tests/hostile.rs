//! Hostile HTTP clients, end to end on loopback, bounded in count and time: thousands of
//! parameters, huge paging values, every method, raw garbage, idle and half-sent connections,
//! clients that hang up mid-response, descriptor exhaustion. Every answer must be a 4xx with
//! the JSON error body (or tiny_http's own 400 for an unparsable request, or a closed
//! connection), never a 500, and the server must keep answering promptly afterwards.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::harness::{spawn, Conn};
use crate::util::{catalog, request, server};

const Q: &str = "/api/genes-structure?gene_name=PAK5&limit=3";
/// A ~38 KB answer (chunked by tiny_http).
const BIG: &str = "/api/genes-structure?gene_name=PAK5&limit=100";

/// Sends raw bytes and reads until the server closes or 5 s pass (with `whole`), or until the
/// end of the first response head or 1 s of silence; returns the status of the first response (and what was
/// read), or None when the connection closed without one.
fn raw(addr: &str, bytes: &[u8], whole: bool) -> Option<(u16, Vec<u8>)> {
    let mut s = TcpStream::connect(addr).unwrap();
    let wait = if whole { 5000 } else { 1000 };
    s.set_read_timeout(Some(Duration::from_millis(wait)))
        .unwrap();
    let _ = s.write_all(bytes);
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n @ 1..) = s.read(&mut buf) {
        out.extend_from_slice(&buf[..n]);
        if !whole && out.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    let text = String::from_utf8_lossy(&out);
    let status = text.split(' ').nth(1)?.parse().ok()?;
    Some((status, out))
}

fn assert_json_error(status: u16, body: &[u8], ctx: &str) {
    assert!((400..500).contains(&status), "{ctx}: status {status}");
    let v: Value = serde_json::from_slice(body)
        .unwrap_or_else(|e| panic!("{ctx}: not JSON ({e}): {}", String::from_utf8_lossy(body)));
    assert!(
        v["message"].is_string() && v["code"].is_string(),
        "{ctx}: {v}"
    );
}

#[test]
fn test_thousands_of_parameters() {
    let addr = &server().addr;
    // 1000 parameters fit in the URL limit: 400 naming the limit.
    let many: Vec<String> = (0..1000).map(|i| format!("p{i}=1")).collect();
    let r = request(addr, "GET", &format!("{Q}&{}", many.join("&")), &[]);
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "too many parameters: at most 64 are accepted"
    );
    // The same name 1000 times, and empty parameters (which do not count).
    let same = "gene_name=PAK5&".repeat(1000);
    let r = request(addr, "GET", &format!("/api/genes-structure?{same}"), &[]);
    assert_json_error(r.status, &r.body, "repeated name");
    let empties = "&".repeat(5000);
    let r = request(addr, "GET", &format!("{Q}{empties}"), &[]);
    assert_eq!(r.status, 200, "empty parameters are ignored");
    // 10 000 parameters exceed the URL limit: 414.
    let many: Vec<String> = (0..10_000).map(|i| format!("p{i}=1")).collect();
    let r = request(addr, "GET", &format!("{Q}&{}", many.join("&")), &[]);
    assert_eq!(r.status, 414);
    assert_json_error(r.status, &r.body, "10 000 parameters");
}

#[test]
fn test_huge_page_and_limit() {
    let addr = &server().addr;
    for q in [
        "page=99999999999999999999999999",
        "page=18446744073709551616",
        "page=18446744073709551615",
        "page=4294967296",
        "page=-1",
        "page=1e308",
        "page=NaN",
        "page=inf",
        "limit=99999999999999999999999999",
        "limit=18446744073709551615",
        "limit=1e308",
        "limit=-9223372036854775808",
        "limit=0",
        "limit=0x10",
        "page=18446744073709551615&limit=100",
    ] {
        let r = request(
            addr,
            "GET",
            &format!("/api/genes-structure?gene_name=PAK5&{q}"),
            &[],
        );
        match r.status {
            200 => assert_eq!(r.json(), serde_json::json!([]), "{q}"),
            _ => {
                assert_eq!(r.status, 400, "{q}: {}", r.text());
                let v = r.json();
                let path = &v["issues"][0]["path"][0];
                assert!(path == "page" || path == "limit", "{q}: {v}");
            }
        }
    }
}

#[test]
fn test_every_method() {
    let addr = &server().addr;
    for m in [
        "GET",
        "HEAD",
        "POST",
        "PUT",
        "DELETE",
        "PATCH",
        "OPTIONS",
        "TRACE",
        "CONNECT",
        "PROPFIND",
        "MKCOL",
        "LOCK",
        "BREW",
        "get",
        "G\u{e9}T",
        "X-CUSTOM-METHOD-NAME",
    ] {
        let req = format!(
            "{m} {Q} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        let Some((status, out)) = raw(addr, req.as_bytes(), true) else {
            continue; // a closed connection is an acceptable answer
        };
        assert!(status < 500, "{m}: {status}");
        match status {
            200 if m == "GET" || m == "HEAD" => {}
            204 if m == "OPTIONS" => {}
            405 => {
                let body = &out[out.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4..];
                assert_json_error(405, body, m);
            }
            400 => {} // tiny_http's own answer to a request line it cannot parse
            other => panic!("{m}: unexpected {other}"),
        }
    }
    // A body on GET (ignored) and a large declared body that never comes.
    let r = raw(
        addr,
        format!(
            "GET {Q} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
        )
        .as_bytes(),
        true,
    );
    assert_eq!(r.map(|r| r.0), Some(200));
}

#[test]
fn test_garbage_requests() {
    let addr = &server().addr;
    let cases: Vec<Vec<u8>> = vec![
        b"\r\n\r\n".to_vec(),
        b"GET\r\n\r\n".to_vec(),
        b"GET / HTTP/9.9\r\n\r\n".to_vec(),
        b"GET /api/health HTTP/2.0\r\n\r\n".to_vec(),
        b"GET /api/health HTTP/1.1\r\nNo-Colon-Header\r\n\r\n".to_vec(),
        b"GET /api/h\xffealth HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
        b"GET /api/health HTTP/1.1\r\nX: \xff\xfe\r\nConnection: close\r\n\r\n".to_vec(),
        b"\x00\x01\x02\x03\x04\r\n\r\n".to_vec(),
        b"GET /api/genes-structure?gene_name=%E9 HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        b"GET /api/genes-structure?gene_name=%%%% HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        b"GET /api/genes-structure?gene_name=\xc3\x28 HTTP/1.1\r\nConnection: close\r\n\r\n"
            .to_vec(),
        b"GET /api/ontology-terms/%ZZ/children HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        b"GET http://evil.example/api/health HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        b"GET * HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        format!(
            "GET /{} HTTP/1.1\r\nConnection: close\r\n\r\n",
            "a".repeat(1 << 20)
        )
        .into_bytes(),
        format!(
            "GET /api/health HTTP/1.1\r\n{}Connection: close\r\n\r\n",
            "X-A: b\r\n".repeat(3000)
        )
        .into_bytes(),
    ];
    // An HTTP/2 request line gets tiny_http's 505 (flushed by the patch in vendor/tiny_http).
    let r = raw(addr, b"GET /api/health HTTP/2.0\r\n\r\n", false);
    assert_eq!(r.map(|r| r.0), Some(505));
    for c in &cases {
        let ctx = String::from_utf8_lossy(&c[..c.len().min(60)]).into_owned();
        if let Some((status, _)) = raw(addr, c, false) {
            assert!(status < 500 || status == 505, "{ctx:?}: {status}");
        }
    }
    // Still serving.
    assert_eq!(request(addr, "GET", Q, &[]).status, 200);
}

#[test]
fn test_idle_and_half_sent_connections_do_not_block_others() {
    let p = spawn(catalog(), &["--quiet", "--threads", "2"], None);
    // 500 connections that send nothing, or half a request, and stay open.
    let idle: Vec<TcpStream> = (0..500)
        .map(|i| {
            let mut s = TcpStream::connect(&p.addr).unwrap();
            if i % 3 == 1 {
                s.write_all(b"GET /api/health HTTP/1.1\r\nHo").unwrap();
            } else if i % 3 == 2 {
                s.write_all(b"GET /api/genes-str").unwrap();
            }
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut worst = Duration::ZERO;
    let t = Instant::now();
    for _ in 0..30 {
        let one = Instant::now();
        let a = Conn::connect(&p.addr).unwrap().get(Q).unwrap();
        assert_eq!(a.status, 200);
        worst = worst.max(one.elapsed());
    }
    // Served, not starved (before the fixes a request here waited for ever); the latency
    // itself is measured by varcat-soak, not asserted on a shared CI machine.
    assert!(
        worst < Duration::from_secs(15),
        "slowest request took {worst:?} with 500 idle connections open"
    );
    let _ = t;
    eprintln!("500 idle connections: slowest of 30 requests {worst:?}");
    drop(idle);
}

#[test]
fn test_clients_hanging_up_mid_response() {
    // Two workers: if hang-ups stuck a worker, the requests afterwards would never be answered.
    let p = spawn(catalog(), &["--quiet", "--threads", "2"], None);
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let addr = p.addr.clone();
            std::thread::spawn(move || {
                for i in 0..25 {
                    let mut s = TcpStream::connect(&addr).unwrap();
                    write!(s, "GET {BIG} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
                    match (t + i) % 3 {
                        // Read a little, then close with unread data (a reset).
                        0 => {
                            let mut b = [0u8; 100];
                            let _ = s.read(&mut b);
                        }
                        // Close before any of the answer arrives.
                        1 => {}
                        // Half-close, then leave.
                        _ => {
                            let _ = s.shutdown(Shutdown::Write);
                        }
                    }
                    drop(s);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let t = Instant::now();
    let mut c = Conn::connect(&p.addr).unwrap();
    for _ in 0..20 {
        let a = c.get(BIG).unwrap();
        assert_eq!(a.status, 200);
        assert!(a.body.len() > 30_000);
    }
    assert!(t.elapsed() < Duration::from_secs(30), "workers were held");
    assert!(
        !p.log().iter().any(|l| l.contains("panicked")),
        "{:?}",
        p.log()
    );
}

#[test]
fn test_descriptor_exhaustion_recovers() {
    // 64 descriptors: tiny_http spends two per connection, so ~25 connections exhaust them
    // and its accept loop dies (EMFILE); the server must notice and accept again once
    // descriptors are free, and keep serving the connections it already has meanwhile.
    let p = spawn(
        catalog(),
        &["--quiet", "--threads", "2", "--no-verify"],
        Some(64),
    );
    let mut early = Conn::connect(&p.addr).unwrap();
    assert_eq!(early.get(Q).unwrap().status, 200);
    let hogs: Vec<TcpStream> = (0..100)
        .map(|_| TcpStream::connect(&p.addr).unwrap())
        .collect();
    p.wait_log("accept loop stopped", Duration::from_secs(5))
        .expect("descriptors were not exhausted");
    // The connection accepted before keeps being served.
    assert_eq!(early.get(Q).unwrap().status, 200);
    drop(hogs);
    let t = Instant::now();
    let ok = loop {
        let answered = Conn::connect(&p.addr)
            .and_then(|mut c| c.get(Q))
            .is_ok_and(|a| a.status == 200);
        if answered || t.elapsed() > Duration::from_secs(10) {
            break answered;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        ok,
        "no new connection answered after recovery: {:?}",
        p.log()
    );
    p.wait_log("accept loop restarted", Duration::from_secs(10))
        .expect("restart not logged");
    // And it keeps accepting.
    for _ in 0..20 {
        assert_eq!(Conn::connect(&p.addr).unwrap().get(Q).unwrap().status, 200);
    }
    assert_eq!(early.get(Q).unwrap().status, 200);
}

#[test]
fn test_client_that_stops_reading_does_not_stall_the_server() {
    // One connection pipelines ~11 MB of answers and never reads: the worker writing to it
    // blocks until the write timeout, the connection is then cut, and the requests queued
    // behind it fail fast. Without that, both workers would wait on this client forever.
    let p = spawn(
        catalog(),
        &["--quiet", "--threads", "2", "--write-timeout-ms", "300"],
        None,
    );
    let mut hog = TcpStream::connect(&p.addr).unwrap();
    let one = format!("GET {BIG} HTTP/1.1\r\nHost: x\r\n\r\n");
    hog.write_all(one.repeat(300).as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let t = Instant::now();
    let a = Conn::connect(&p.addr).unwrap().get(Q).unwrap();
    assert_eq!(a.status, 200);
    assert!(
        t.elapsed() < Duration::from_secs(30),
        "a fresh request waited {:?}",
        t.elapsed()
    );
    drop(hog);
}

#[test]
fn test_burst_of_new_keep_alive_connections_is_served() {
    // tiny_http's thread pool handed a new connection to an idle thread when it counted one;
    // a burst accepted before the idle threads woke was queued behind connections that may
    // never close (keep-alive), and those clients waited for ever: 53 of these 100 before the
    // patch in vendor/tiny_http.
    let p = spawn(catalog(), &["--quiet", "--threads", "2"], None);
    let mut conns: Vec<TcpStream> = (0..100)
        .map(|_| TcpStream::connect(&p.addr).unwrap())
        .collect();
    for c in &mut conns {
        write!(c, "GET {Q} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut slow = Vec::new();
    for (i, c) in conns.iter_mut().enumerate() {
        let left = deadline.saturating_duration_since(Instant::now());
        c.set_read_timeout(Some(left.max(Duration::from_millis(1))))
            .unwrap();
        let mut head = [0u8; 12];
        if c.read_exact(&mut head).is_err() || !head.starts_with(b"HTTP/1.1 200") {
            slow.push(i);
        }
    }
    assert!(
        slow.is_empty(),
        "{} of 100 new keep-alive connections got no answer within 20 s: {slow:?}",
        slow.len()
    );
}

#[test]
fn test_idle_connections_are_closed_after_the_idle_timeout() {
    let p = spawn(
        catalog(),
        &["--quiet", "--threads", "2", "--idle-timeout-ms", "2000"],
        None,
    );
    let mut idle: Vec<TcpStream> = (0..60)
        .map(|i| {
            let mut s = TcpStream::connect(&p.addr).unwrap();
            if i % 2 == 1 {
                s.write_all(b"GET /api/health HTTP/1.1\r\nHo").unwrap();
            }
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
            s
        })
        .collect();
    // A keep-alive client that keeps asking is not cut.
    let mut busy = Conn::connect(&p.addr).unwrap();
    let t = Instant::now();
    while t.elapsed() < Duration::from_millis(3000) {
        assert_eq!(busy.get(Q).unwrap().status, 200);
        std::thread::sleep(Duration::from_millis(100));
    }
    // Every idle or half-sent connection has been closed by the server.
    for (i, s) in idle.iter_mut().enumerate() {
        let mut b = [0u8; 64];
        match s.read(&mut b) {
            Ok(0) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
            other => panic!("connection {i} still open: {other:?}"),
        }
    }
}

#[test]
fn test_endless_request_head_is_cut_at_its_budget() {
    // Upstream tiny_http buffered a request line or headers without limit (a 64 MiB URL cost
    // 130 MiB of memory); the patched reader closes the connection after 1 MiB of head.
    let p = spawn(catalog(), &["--quiet", "--threads", "2"], None);
    let rss_kib = || {
        let status = std::fs::read_to_string(format!("/proc/{}/status", p.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace()
            .nth(1)
            .unwrap()
            .parse::<u64>()
            .unwrap()
    };
    let before = rss_kib();
    for head in [
        format!("GET /{}", "a".repeat(16 << 20)),
        format!("GET / HTTP/1.1\r\n{}", "X-A: b\r\n".repeat(2 << 20)),
    ] {
        let mut s = TcpStream::connect(&p.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        // The server stops reading and closes: the write fails part-way, or the read ends.
        let wrote_all = s.write_all(head.as_bytes()).is_ok();
        let mut b = [0u8; 64];
        match s.read(&mut b) {
            Ok(0) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
            other => panic!("connection not closed (wrote all: {wrote_all}): {other:?}"),
        }
    }
    let grown = rss_kib().saturating_sub(before);
    assert!(grown < 32 * 1024, "memory grew by {grown} KiB");
    assert_eq!(Conn::connect(&p.addr).unwrap().get(Q).unwrap().status, 200);
}
