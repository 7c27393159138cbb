//! `varcat-soak`: holds many keep-alive connections against a running server for a fixed time,
//! cycling through a mix of endpoints (every endpoint example of the bundled sample catalog,
//! `/api/health`, and requests that must be refused with 400 or 404), and reports requests,
//! failures and the resident memory of the server processes. Exit status 1 on any failure.
//!
//! ```text
//! varcat-soak --addr 127.0.0.1:2023 [--conns 200] [--secs 30] [--pid PID[,PID…]]
//!             [--attack NAME[,NAME…]] [--attackers 20] [--other-catalog]
//! ```
//!
//! `--other-catalog`: the server serves another catalog than the bundled sample (the 100k
//! synthetic one of `batch-pin`), where an example may find nothing: its 404 counts as
//! expected.
//!
//! `--attack` adds `--attackers` hostile clients per attack beside the ordinary ones (see
//! [`ATTACKS`]); the report then gives the ordinary requests' p50/p99 latency, which is what an
//! attack must not move, and the server's anonymous memory.
//!
//! A failure is a request whose answer did not arrive complete (reset, EOF, timeout) or came
//! with another status than expected (200 for the examples, 400/404 for the bad requests). A
//! 503 (overload) is counted apart. A connection the server closes (`Connection: close`, e.g.
//! while it drains on SIGTERM) is reopened; if that fails, it is retried for up to 5 s. Memory:
//! `RssAnon` is what the server holds beyond the mapped catalog (`RssFile`), sampled each 0.5 s.
//! Used by `scripts/nginx-rolling.sh`.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lexopt::prelude::*;
use varcat_tools::client::Conn;

/// (target, expected statuses).
fn mix() -> Vec<(String, &'static [u16])> {
    let mut m: Vec<(String, &'static [u16])> = Vec::new();
    for ep in varcat_query::api::ENDPOINTS {
        for u in ep.example_urls() {
            m.push((format!("/api{u}"), &[200]));
        }
    }
    m.push(("/api/health".into(), &[200]));
    for bad in [
        "/api/genes-structure?gene_name=%ZZ",
        "/api/genes-structure?gene_name=PAK5&limit=100000",
        "/api/variants/freq?region=chr1:1-99999999",
        "/api/genes-structure?gene_nam=PAK5",
    ] {
        m.push((bad.into(), &[400]));
    }
    m.push(("/api/no-such-endpoint".into(), &[404]));
    m
}

fn open_retrying(addr: &str) -> io::Result<Conn> {
    let end = Instant::now() + Duration::from_secs(5);
    loop {
        match Conn::connect(addr) {
            Ok(c) => return Ok(c),
            Err(e) if Instant::now() > end => return Err(e),
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

fn rss_kib(pid: u32) -> Option<(u64, u64, u64)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        s.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
    };
    Some((field("VmRSS:")?, field("RssAnon:")?, field("RssFile:")?))
}

struct Args {
    addr: String,
    conns: usize,
    secs: f64,
    pids: Vec<u32>,
    attacks: Vec<&'static str>,
    attackers: usize,
    /// The served catalog is not the sample: an example's 404 counts as expected.
    other_catalog: bool,
}

/// The attacks of the hardening issue, by name, each one client's loop until `stop`.
const ATTACKS: &[&str] = &[
    "huge-length",
    "max-length",
    "body-never-comes",
    "chunked-get",
    "slow-reader",
    "pipeline-flood",
    "slowloris",
    "log-forgery",
    "batch-pin",
];

/// `batch-pin`: a POST batch of 92 copies of one gene id (1.8 KB) to verbose
/// `/genes/variants` at `limit=500`; on the 100k synthetic catalog (seed 1) its answer is
/// ~66 MB, which the server once built whole and held while a client that never reads kept it.
fn batch_pin_request() -> String {
    let ids = vec!["\"ENSG00000500000\""; 92].join(",");
    let body = format!("{{\"gene_id\":[{ids}],\"limit\":500,\"verbose\":true}}");
    format!(
        "POST /api/genes/variants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

const VERBOSE: &str = "/api/genes-structure?gene_name=PAK5&limit=100&verbose=true";

/// Reads and drops what `s` receives for up to `wait` (or until it closes); returns whether
/// it closed.
fn drain(s: &mut TcpStream, wait: Duration, chunk: usize, pause: Duration) -> bool {
    let end = Instant::now() + wait;
    let mut buf = vec![0u8; chunk];
    let _ = s.set_read_timeout(Some(Duration::from_millis(100)));
    while Instant::now() < end {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => std::thread::sleep(pause),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return true,
        }
    }
    false
}

/// One hostile client: repeats attack `name` against `addr` until `stop`.
fn attack(name: &str, addr: &str, stop: &AtomicBool) {
    let head = |extra: &str| format!("GET /api/health HTTP/1.1\r\nHost: x\r\n{extra}\r\n");
    while !stop.load(Ordering::Relaxed) {
        let Ok(mut s) = TcpStream::connect(addr) else {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        let _ = s.set_write_timeout(Some(Duration::from_secs(5)));
        let wait = Duration::from_secs(3);
        match name {
            "huge-length" => {
                let _ = s.write_all(head("Content-Length: 1000000000000\r\n").as_bytes());
                drain(&mut s, wait, 4096, Duration::ZERO);
            }
            "max-length" => {
                let _ = s.write_all(head("Content-Length: 18446744073709551615\r\n").as_bytes());
                drain(&mut s, wait, 4096, Duration::ZERO);
            }
            "body-never-comes" => {
                let _ = s.write_all(head("Content-Length: 5000\r\n").as_bytes());
                drain(&mut s, wait, 4096, Duration::ZERO);
            }
            "chunked-get" => {
                let body = "1d\r\nGET /api/nothing HTTP/1.1\r\n\r\n\r\n0\r\n\r\n";
                let _ = s.write_all((head("Transfer-Encoding: chunked\r\n") + body).as_bytes());
                drain(&mut s, wait, 4096, Duration::ZERO);
            }
            "slow-reader" => {
                let one = format!("GET {VERBOSE} HTTP/1.1\r\nHost: x\r\n\r\n");
                let _ = s.write_all(one.repeat(60).as_bytes());
                drain(&mut s, Duration::from_secs(15), 512, Duration::from_secs(1));
            }
            "pipeline-flood" => {
                let one =
                    "GET /api/genes-structure?gene_name=PAK5&limit=100 HTTP/1.1\r\nHost: x\r\n\r\n";
                let _ = s.write_all(one.repeat(2000).as_bytes());
                std::thread::sleep(Duration::from_secs(2));
            }
            "slowloris" => {
                for b in head("X-Slow: 1\r\n").bytes() {
                    if stop.load(Ordering::Relaxed) || s.write_all(&[b]).is_err() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(500));
                }
            }
            "batch-pin" => {
                // Never reads: holds the connection until the server cuts it (or 30 s).
                let _ = s.write_all(batch_pin_request().as_bytes());
                let end = Instant::now() + Duration::from_secs(30);
                let mut probe = [0u8; 1];
                let _ = s.set_nonblocking(true);
                while Instant::now() < end && !stop.load(Ordering::Relaxed) {
                    // A reset (or close) shows in a peek, which takes nothing from the socket.
                    match s.peek(&mut probe) {
                        Ok(0) => break,
                        Err(e) if e.kind() != io::ErrorKind::WouldBlock => break,
                        _ => std::thread::sleep(Duration::from_millis(200)),
                    }
                }
            }
            "log-forgery" => {
                let _ = s.write_all(b"GE\x1b[31mT /api/health\x07 HTTP/1.1\r\nHost: x\r\n\r\n");
                drain(&mut s, wait, 4096, Duration::ZERO);
            }
            _ => return,
        }
    }
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        addr: "127.0.0.1:2023".into(),
        conns: 200,
        secs: 30.0,
        pids: Vec::new(),
        attacks: Vec::new(),
        attackers: 20,
        other_catalog: false,
    };
    let mut p = lexopt::Parser::from_env();
    let val = varcat_tools::args::value;
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("addr") => a.addr = val(&mut p)?,
            Long("conns") => a.conns = val(&mut p)?.parse().map_err(|_| "--conns N")?,
            Long("secs") => a.secs = val(&mut p)?.parse().map_err(|_| "--secs S")?,
            Long("pid") => {
                a.pids = val(&mut p)?
                    .split(',')
                    .map(|s| s.trim().parse().map_err(|_| "--pid PID[,PID…]"))
                    .collect::<Result<_, _>>()?
            }
            Long("attack") => {
                for name in val(&mut p)?.split(',') {
                    let name = name.trim();
                    let known = ATTACKS.iter().find(|a| **a == name || name == "all");
                    match known {
                        Some(_) if name == "all" => a.attacks = ATTACKS.to_vec(),
                        Some(k) => a.attacks.push(k),
                        None => return Err(format!("--attack {name}: one of all, {}", ATTACKS.join(", "))),
                    }
                }
            }
            Long("other-catalog") => a.other_catalog = true,
            Long("attackers") => {
                a.attackers = val(&mut p)?.parse().map_err(|_| "--attackers N")?
            }
            Long("help") | Short('h') => return Err(
                "usage: varcat-soak --addr HOST:PORT [--conns 200] [--secs 30] [--pid PID[,PID…]] [--attack NAME[,NAME…]|all] [--attackers 20] [--other-catalog]"
                    .into(),
            ),
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(a)
}

fn main() -> ExitCode {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("varcat-soak: {e}");
            return ExitCode::from(2);
        }
    };
    let mix = Arc::new(mix());
    let stop = Arc::new(AtomicBool::new(false));
    let (ok, busy, reconnects) = (
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
    );
    let failures = Arc::new(Mutex::new(Vec::<String>::new()));
    let latencies = Arc::new(Mutex::new(Vec::<u32>::new()));
    let idle_anon: u64 = a.pids.iter().filter_map(|&p| rss_kib(p)).map(|m| m.1).sum();
    let start = Instant::now();
    let attackers: Vec<_> = a
        .attacks
        .iter()
        .flat_map(|name| std::iter::repeat_n(*name, a.attackers))
        .map(|name| {
            let (addr, stop) = (a.addr.clone(), stop.clone());
            std::thread::spawn(move || attack(name, &addr, &stop))
        })
        .collect();
    let threads: Vec<_> = (0..a.conns)
        .map(|i| {
            let (addr, mix, stop) = (a.addr.clone(), mix.clone(), stop.clone());
            let other_catalog = a.other_catalog;
            let (ok, busy, reconnects, failures, latencies) = (
                ok.clone(),
                busy.clone(),
                reconnects.clone(),
                failures.clone(),
                latencies.clone(),
            );
            std::thread::spawn(move || {
                let fail = |m: String| {
                    let at = start.elapsed().as_secs_f64();
                    failures.lock().unwrap().push(format!("at {at:.1} s: {m}"))
                };
                let mut conn = match open_retrying(&addr) {
                    Ok(c) => c,
                    Err(e) => return fail(format!("connect: {e}")),
                };
                let mut k = i * 7;
                let mut on_conn = 0u64;
                let mut mine = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    on_conn += 1;
                    let (target, want) = &mix[k % mix.len()];
                    k += 1;
                    let t = Instant::now();
                    let got = conn
                        .send("GET", target, &[("Accept-Encoding", "gzip")])
                        .map(|a| (a.status, a.closes()));
                    mine.push(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
                    let reopen = match got {
                        Ok((503, closes)) => {
                            busy.fetch_add(1, Ordering::Relaxed);
                            closes
                        }
                        Ok((status, closes))
                            if want.contains(&status) || (other_catalog && status == 404) =>
                        {
                            ok.fetch_add(1, Ordering::Relaxed);
                            closes
                        }
                        Ok((status, _)) => {
                            fail(format!(
                                "{target}: status {status} (request {on_conn} on its connection)"
                            ));
                            true
                        }
                        Err(e) => {
                            fail(format!(
                                "{target}: {e} (request {on_conn} on its connection)"
                            ));
                            true
                        }
                    };
                    if reopen {
                        reconnects.fetch_add(1, Ordering::Relaxed);
                        on_conn = 0;
                        conn = match open_retrying(&addr) {
                            Ok(c) => c,
                            Err(e) => return fail(format!("reconnect: {e}")),
                        };
                    }
                }
                latencies.lock().unwrap().extend(mine);
            })
        })
        .collect();
    let (mut max_rss, mut max_anon, mut max_file) = (0u64, 0u64, 0u64);
    let end = start + Duration::from_secs_f64(a.secs);
    while Instant::now() < end {
        std::thread::sleep(Duration::from_millis(500));
        let (mut rss, mut anon, mut file) = (0, 0, 0);
        for &pid in &a.pids {
            if let Some((r, an, f)) = rss_kib(pid) {
                (rss, anon, file) = (rss + r, anon + an, file + f);
            }
        }
        (max_rss, max_anon, max_file) = (max_rss.max(rss), max_anon.max(anon), max_file.max(file));
    }
    stop.store(true, Ordering::SeqCst);
    for t in threads.into_iter().chain(attackers) {
        let _ = t.join();
    }
    let secs = start.elapsed().as_secs_f64();
    let failures = failures.lock().unwrap();
    let n = ok.load(Ordering::SeqCst);
    println!(
        "{} connections, {secs:.1} s, {} endpoints in the mix: {n} answered as expected ({:.0}/s), {} busy (503), {} failed, {} reconnections",
        a.conns,
        mix.len(),
        n as f64 / secs,
        busy.load(Ordering::SeqCst),
        failures.len(),
        reconnects.load(Ordering::SeqCst)
    );
    let mut lat = latencies.lock().unwrap().clone();
    lat.sort_unstable();
    let q = |f: f64| lat.get(((lat.len() as f64 * f) as usize).min(lat.len().saturating_sub(1)));
    if let (Some(p50), Some(p99)) = (q(0.5), q(0.99)) {
        println!(
            "ordinary requests: p50 {:.2} ms, p99 {:.2} ms{}",
            *p50 as f64 / 1000.0,
            *p99 as f64 / 1000.0,
            if a.attacks.is_empty() {
                String::new()
            } else {
                format!(", beside {} × {}", a.attackers, a.attacks.join(", "))
            }
        );
    }
    if !a.pids.is_empty() {
        println!(
            "server memory (sum over {} processes, peak of 0.5 s samples): RSS {} MiB, anonymous {} MiB ({} MiB at the start), file-backed (catalog, binary) {} MiB",
            a.pids.len(),
            max_rss / 1024,
            max_anon / 1024,
            idle_anon / 1024,
            max_file / 1024
        );
    }
    for f in failures.iter().take(20) {
        println!("  failed: {f}");
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
