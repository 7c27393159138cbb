//! Hostile HTTP clients, end to end on loopback, bounded in count and time: idle and
//! half-sent connections, clients that hang up mid-response, descriptor exhaustion, endless heads,
//! absurd lengths, bodies that never come, slow readers, pipelined floods, framing, the access
//! log, bad flags and reloads under caching. Every answer must be a 4xx with the JSON error body
//! (or tiny_http's own 400 for an unparsable request, or a closed connection), never a 500, and
//! the server must keep answering promptly afterwards. Hostile requests (parameters, paging
//! values, methods, garbage) are in `hostile_requests`.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::harness::{spawn, Conn};
use crate::util::{catalog, read_until_closed, rss_anon, Q};

/// A ~38 KB answer (chunked by tiny_http).
const BIG: &str = "/api/genes-structure?gene_name=PAK5&limit=100";

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

/// The statuses of the responses in `bytes`, in order (heads found by their status lines).
fn statuses(bytes: &[u8]) -> Vec<u16> {
    String::from_utf8_lossy(bytes)
        .match_indices("HTTP/1.1 ")
        .filter_map(|(i, _)| {
            let t = &String::from_utf8_lossy(bytes)[i + 9..];
            t.get(..3)?.parse().ok()
        })
        .collect()
}

/// The body of the first response in `bytes` (after its head).
fn first_body(bytes: &[u8]) -> &[u8] {
    let at = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(bytes.len(), |i| i + 4);
    &bytes[at..]
}

/// The server answers `/api/health` on a fresh connection.
fn alive(addr: &str) -> bool {
    Conn::connect(addr)
        .and_then(|mut c| c.get("/api/health"))
        .is_ok_and(|a| a.status == 200)
}

/// 1, 2: a Content-Length above the body limit (one of 10^12 bytes aborted the process when
/// tiny_http drained it; 2^64-1 panicked a worker outside the panic guard) is a 413, one that
/// is no plain decimal a 400, both naming the header; the connection is closed and the server
/// lives on.
#[test]
fn test_absurd_content_length_is_refused() {
    let p = spawn(catalog(), &["--quiet", "--threads", "2"], None);
    for method in ["GET", "HEAD", "POST", "OPTIONS"] {
        for (len, status, code) in [
            ("1000000000000", 413, "PAYLOAD_TOO_LARGE"),
            ("18446744073709551615", 413, "PAYLOAD_TOO_LARGE"),
            ("99999999999999999999", 413, "PAYLOAD_TOO_LARGE"),
            ("1048577", 413, "PAYLOAD_TOO_LARGE"),
            ("-1", 400, "BAD_REQUEST"),
            ("0x10", 400, "BAD_REQUEST"),
            ("1 2", 400, "BAD_REQUEST"),
        ] {
            let mut s = TcpStream::connect(&p.addr).unwrap();
            write!(
                s,
                "{method} /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: {len}\r\n\r\n"
            )
            .unwrap();
            let (closed, got) = read_until_closed(&mut s, Duration::from_secs(10));
            let ctx = format!("{method} Content-Length {len}");
            assert!(closed, "{ctx}: the connection stayed open");
            assert_eq!(
                statuses(&got),
                [status],
                "{ctx}: {}",
                String::from_utf8_lossy(&got)
            );
            let body: Value = serde_json::from_slice(first_body(&got)).unwrap();
            assert_eq!(body["code"], code, "{ctx}");
            assert_eq!(
                body["issues"][0]["path"][0], "Content-Length",
                "{ctx}: {body}"
            );
        }
    }
    assert!(alive(&p.addr));
    assert!(
        p.log().iter().all(|l| !l.contains("panicked")),
        "{:?}",
        p.log()
    );
}

/// 3: a GET announcing a body that never comes is answered, then its connection closed without
/// waiting for the body; the workers stay free (two such connections stalled every request).
#[test]
fn test_get_with_a_body_that_never_comes_is_answered_and_closed() {
    let p = spawn(catalog(), &["--quiet", "--threads", "2"], None);
    let mut stalls: Vec<TcpStream> = (0..4)
        .map(|_| {
            let mut s = TcpStream::connect(&p.addr).unwrap();
            write!(
                s,
                "GET {Q} HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n"
            )
            .unwrap();
            s
        })
        .collect();
    for s in &mut stalls {
        let (closed, got) = read_until_closed(s, Duration::from_secs(10));
        assert!(closed, "the connection waited for the body");
        assert_eq!(statuses(&got), [200]);
    }
    for _ in 0..5 {
        assert_eq!(Conn::connect(&p.addr).unwrap().get(Q).unwrap().status, 200);
    }
}

/// 4: a client that pipelines large answers and reads a trickle is cut once the write deadline
/// of an answer passes (a send returning partial counts no longer restarts it), and holds no
/// handler meanwhile: every other client is answered.
#[test]
fn test_slow_reader_is_cut_and_blocks_nobody() {
    // The default write deadline (10 s), as the attack met it.
    let p = spawn(catalog(), &["--quiet", "--threads", "2"], None);
    let verbose = "/api/genes-structure?gene_name=PAK5&limit=100&verbose=true";
    let mut slow = TcpStream::connect(&p.addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let one = format!("GET {verbose} HTTP/1.1\r\nHost: x\r\n\r\n");
    // Some 20 MB of answers: more than the socket buffers of both ends hold.
    slow.write_all(one.repeat(400).as_bytes()).unwrap();
    // A trickle (512 bytes every 400 ms) for 25 s, while others are answered: the deadline
    // (10 s) starts when the server begins the answer that fills the socket buffers, which on
    // a loaded machine can be seconds in…
    let mut got = 0;
    for probe in 0..63 {
        let mut buf = [0u8; 512];
        if let Ok(n) = slow.read(&mut buf) {
            got += n;
        }
        if probe < 12 {
            let a = Conn::connect(&p.addr).unwrap().get(Q).unwrap();
            assert_eq!(a.status, 200, "probe {probe}");
        }
        std::thread::sleep(Duration::from_millis(400));
    }
    // …then a fast read shows the connection was reset: what the kernel had queued arrives,
    // then the end, long before the 400 answers (the server cut it at the first answer that
    // missed its deadline, dropping what it had queued).
    let (cut, rest) = read_until_closed(&mut slow, Duration::from_secs(30));
    got += rest.len();
    assert!(cut, "the slow reader was never cut ({got} bytes read)");
    let all = Conn::connect(&p.addr)
        .unwrap()
        .get(verbose)
        .unwrap()
        .body
        .len()
        * 400;
    assert!(got < all / 2, "{got} of {all} bytes arrived");
}

/// 5: pipelined requests do not queue in memory: a connection has one request in flight, the
/// rest wait in the socket. Thirty connections each send 2,000 requests and never read (RSS
/// went from 16 MB to 3.3 GB in 10 s); memory stays bounded and others are answered.
#[test]
fn test_pipelined_floods_stay_bounded() {
    let p = spawn(
        catalog(),
        &["--quiet", "--threads", "2", "--write-timeout-ms", "3000"],
        None,
    );
    let one = format!("GET {BIG} HTTP/1.1\r\nHost: x\r\n\r\n").repeat(2000);
    let floods: Vec<_> = (0..30)
        .map(|_| {
            let (addr, one) = (p.addr.clone(), one.clone());
            std::thread::spawn(move || {
                let mut s = TcpStream::connect(&addr).unwrap();
                s.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
                let _ = s.write_all(one.as_bytes());
                std::thread::sleep(Duration::from_secs(2));
                s
            })
        })
        .collect();
    let mut peak = 0;
    for _ in 0..10 {
        std::thread::sleep(Duration::from_millis(300));
        peak = peak.max(rss_anon(p.child.id()));
        assert_eq!(Conn::connect(&p.addr).unwrap().get(Q).unwrap().status, 200);
    }
    let held: Vec<TcpStream> = floods.into_iter().map(|t| t.join().unwrap()).collect();
    peak = peak.max(rss_anon(p.child.id()));
    assert!(peak < 200 << 20, "RssAnon reached {} MB", peak >> 20);
    drop(held);
    assert!(alive(&p.addr));
}

/// 6: framing. A chunked GET body is not read as the next request (answered, then closed);
/// two different lengths and a length beside Transfer-Encoding are 400s (request smuggling
/// behind a proxy); bare-LF line ends are accepted; an absolute-form target is routed by path.
#[test]
fn test_framing() {
    let p = spawn(catalog(), &["--quiet"], None);
    let send = |bytes: &[u8]| {
        let mut s = TcpStream::connect(&p.addr).unwrap();
        s.write_all(bytes).unwrap();
        read_until_closed(&mut s, Duration::from_secs(10))
    };
    let (closed, got) = send(
        b"GET /api/health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1d\r\nGET /api/nothing HTTP/1.1\r\n\r\n\r\n0\r\n\r\n",
    );
    assert!(closed);
    assert_eq!(statuses(&got), [200], "{}", String::from_utf8_lossy(&got));
    for (head, header) in [
        ("Content-Length: 0\r\nContent-Length: 5", "Content-Length"),
        (
            "Content-Length: 3\r\nTransfer-Encoding: chunked",
            "Content-Length",
        ),
        ("Transfer-Encoding: gzip", "Transfer-Encoding"),
    ] {
        let (closed, got) =
            send(format!("GET /api/health HTTP/1.1\r\nHost: x\r\n{head}\r\n\r\n").as_bytes());
        assert!(closed, "{head}");
        assert_eq!(statuses(&got), [400], "{head}");
        let body: Value = serde_json::from_slice(first_body(&got)).unwrap();
        assert_eq!(body["issues"][0]["path"][0], header, "{head}: {body}");
    }
    // A POST's body is not drained after its 405: the connection closes, and the request
    // written after the body is not read as one.
    let (closed, got) = send(
        b"POST /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabcdeGET /api/health HTTP/1.1\r\n\r\n",
    );
    assert!(closed);
    assert_eq!(statuses(&got), [405], "{}", String::from_utf8_lossy(&got));
    // Equal repeated lengths are one length.
    let mut s = TcpStream::connect(&p.addr).unwrap();
    s.write_all(
        b"GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n",
    )
    .unwrap();
    assert_eq!(
        crate::harness::read_answer(&mut std::io::BufReader::new(&mut s), false)
            .unwrap()
            .status,
        200
    );
    // Bare LF, and absolute form, on a keep-alive connection: both answered at once.
    let mut s = TcpStream::connect(&p.addr).unwrap();
    s.write_all(b"GET /api/health HTTP/1.1\nHost: x\n\nGET http://localhost:2023/api/genes-structure?gene_name=PAK5&limit=1 HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut r = std::io::BufReader::new(&mut s);
    let a = crate::harness::read_answer(&mut r, false).unwrap();
    let b = crate::harness::read_answer(&mut r, false).unwrap();
    assert_eq!((a.status, b.status), (200, 200));
}

/// 7: the request method and target go into the access log escaped: a client cannot forge log
/// lines or send terminal escapes.
#[test]
fn test_access_log_escapes_what_clients_send() {
    let p = spawn(catalog(), &[], None);
    let mut s = TcpStream::connect(&p.addr).unwrap();
    s.write_all(b"GE\x1b[31mT /api/health\x07?x=\"\\ HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let _ = read_until_closed(&mut s, Duration::from_secs(2));
    let line = p
        .wait_log("/api/health", Duration::from_secs(10))
        .expect("the request was logged");
    assert!(
        line.contains("GE\\x1b[31mT /api/health\\x07?x=\\x22\\x5c"),
        "{line}"
    );
    assert!(!line.chars().any(|c| c.is_control()), "{line:?}");
}

/// 9: bad flag values are refused at start with one line; a catalog path that is a FIFO is
/// refused at start, and skipped by a reload with one log line while the old catalog serves.
#[test]
fn test_bad_flags_and_a_fifo_catalog() {
    let bin = env!("CARGO_BIN_EXE_varcat");
    for flags in [
        &["--queue", "99999999999"][..],
        &["--queue", "65537"],
        &["--threads", "0"],
        &["--threads", "100000"],
        &["--max-connections", "0"],
        &["--base-path", "api"],
        &["--base-path", "/a?b"],
    ] {
        let out = std::process::Command::new(bin)
            .arg("serve")
            .arg(catalog())
            .args(["--addr", "127.0.0.1:0"])
            .args(flags)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{flags:?} accepted");
        assert_eq!(err.trim().lines().count(), 1, "{flags:?}: {err}");
        assert!(err.contains(flags[0]), "{flags:?}: {err}");
    }
    let dir = crate::util::scratch("fifo");
    let fifo = dir.join("fifo.varcat");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let out = std::process::Command::new(bin)
        .arg("serve")
        .arg(&fifo)
        .args(["--addr", "127.0.0.1:0"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("not a regular file"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");

    // Served from a copy; the copy's path then becomes a FIFO.
    let path = dir.join("live.varcat");
    std::fs::copy(catalog(), &path).unwrap();
    let p = spawn(&path, &["--quiet"], None);
    std::fs::remove_file(&path).unwrap();
    assert!(std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap()
        .success());
    p.signal("HUP");
    p.wait_log("not a regular file", Duration::from_secs(10))
        .expect("the reload said why it skipped the file");
    assert!(alive(&p.addr));
    // The reload thread is not stuck: a real catalog put back is loaded.
    std::fs::remove_file(&path).unwrap();
    std::fs::copy(catalog(), &path).unwrap();
    p.signal("HUP");
    p.wait_log("reloaded catalog", Duration::from_secs(10))
        .expect("reloaded after the FIFO");
    assert!(alive(&p.addr));
}

/// 8: answers may be cached but must be revalidated (`no-cache` with the ETag; health and
/// errors `no-store`): after a reload, a cache's revalidation gets the new catalog's answer,
/// not a 304 for the old one (answers were `public, max-age=86400`: a day of the old release).
#[test]
fn test_caches_revalidate_across_a_reload() {
    let dir = crate::util::scratch("etag");
    let path = dir.join("live.varcat");
    std::fs::copy(catalog(), &path).unwrap();
    let p = spawn(&path, &["--quiet"], None);
    let head = |extra: &str, target: &str| {
        let mut s = TcpStream::connect(&p.addr).unwrap();
        write!(
            s,
            "GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{extra}\r\n"
        )
        .unwrap();
        let (_, got) = read_until_closed(&mut s, Duration::from_secs(10));
        String::from_utf8_lossy(&got).into_owned()
    };
    let header = |resp: &str, name: &str| {
        resp.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")).map(str::to_string))
    };
    let first = head("", Q);
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    assert_eq!(header(&first, "Cache-Control").as_deref(), Some("no-cache"));
    let etag = header(&first, "ETag").expect("an ETag");
    assert!(head(&format!("If-None-Match: {etag}\r\n"), Q).starts_with("HTTP/1.1 304"));
    let health = head("", "/api/health");
    assert_eq!(
        header(&health, "Cache-Control").as_deref(),
        Some("no-store")
    );
    let error = head("", "/api/genes-structure");
    assert_eq!(header(&error, "Cache-Control").as_deref(), Some("no-store"));

    // A new release (another build of the same input: `--strict` is in its metadata, so its
    // checksum differs), swapped in atomically.
    let next = dir.join("next.varcat");
    let st = crate::util::build_command(&crate::util::testdata(), &next)
        .arg("--strict")
        .status()
        .unwrap();
    assert!(st.success());
    std::fs::rename(&next, &path).unwrap();
    p.signal("HUP");
    p.wait_log("reloaded catalog", Duration::from_secs(20))
        .expect("the new catalog was loaded");
    let again = head(&format!("If-None-Match: {etag}\r\n"), Q);
    assert!(again.starts_with("HTTP/1.1 200"), "{again}");
    assert_ne!(header(&again, "ETag"), Some(etag));
}
