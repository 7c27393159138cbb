//! `varcat-soak`: holds many keep-alive connections against a running server for a fixed time,
//! cycling through a mix of endpoints (every endpoint example of the bundled sample catalog,
//! `/api/health`, and requests that must be refused with 400 or 404), and reports requests,
//! failures and the resident memory of the server processes. Exit status 1 on any failure.
//!
//! ```text
//! varcat-soak --addr 127.0.0.1:2023 [--conns 200] [--secs 30] [--pid PID[,PID…]]
//! ```
//!
//! A failure is a request whose answer did not arrive complete (reset, EOF, timeout) or came
//! with another status than expected (200 for the examples, 400/404 for the bad requests). A
//! 503 (overload) is counted apart. A connection the server closes (`Connection: close`, e.g.
//! while it drains on SIGTERM) is reopened; if that fails, it is retried for up to 5 s. Memory:
//! `RssAnon` is what the server holds beyond the mapped catalog (`RssFile`), sampled each 0.5 s.
//! Used by `scripts/nginx-rolling.sh`.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lexopt::prelude::*;

/// (target, expected statuses).
fn mix() -> Vec<(String, &'static [u16])> {
    let mut m: Vec<(String, &'static [u16])> = Vec::new();
    for ep in varcat::api::ENDPOINTS {
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

struct Conn {
    r: BufReader<TcpStream>,
}

impl Conn {
    fn open(addr: &str) -> io::Result<Conn> {
        let s = TcpStream::connect(addr)?;
        s.set_read_timeout(Some(Duration::from_secs(10)))?;
        s.set_nodelay(true)?;
        Ok(Conn {
            r: BufReader::new(s),
        })
    }

    /// Sends one GET; returns (status, closes).
    fn get(&mut self, target: &str) -> io::Result<(u16, bool)> {
        write!(
            self.r.get_mut(),
            "GET {target} HTTP/1.1\r\nHost: varcat\r\nAccept-Encoding: gzip\r\n\r\n"
        )?;
        let mut line = String::new();
        let eof = || io::Error::new(io::ErrorKind::UnexpectedEof, "connection closed");
        if self.r.read_line(&mut line)? == 0 {
            return Err(eof());
        }
        let status: u16 = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| io::Error::other(format!("bad status line {line:?}")))?;
        let (mut len, mut chunked, mut closes) = (None, false, false);
        loop {
            line.clear();
            if self.r.read_line(&mut line)? == 0 {
                return Err(eof());
            }
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let Some((n, v)) = l.split_once(':') else {
                continue;
            };
            let (n, v) = (n.trim().to_ascii_lowercase(), v.trim());
            match n.as_str() {
                "content-length" => len = v.parse::<usize>().ok(),
                "transfer-encoding" => chunked = v.contains("chunked"),
                "connection" => closes = v.eq_ignore_ascii_case("close"),
                _ => {}
            }
        }
        if chunked {
            loop {
                line.clear();
                if self.r.read_line(&mut line)? == 0 {
                    return Err(eof());
                }
                let n = usize::from_str_radix(line.trim(), 16).map_err(io::Error::other)?;
                let mut skip = vec![0; n + 2];
                self.r.read_exact(&mut skip)?;
                if n == 0 {
                    break;
                }
            }
        } else if let Some(n) = len {
            let mut skip = vec![0; n];
            self.r.read_exact(&mut skip)?;
        } else if status != 204 && status != 304 {
            return Err(io::Error::other("response without length"));
        }
        Ok((status, closes))
    }
}

fn open_retrying(addr: &str) -> io::Result<Conn> {
    let end = Instant::now() + Duration::from_secs(5);
    loop {
        match Conn::open(addr) {
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
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        addr: "127.0.0.1:2023".into(),
        conns: 200,
        secs: 30.0,
        pids: Vec::new(),
    };
    let mut p = lexopt::Parser::from_env();
    let val = varcat::cli::value;
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
            Long("help") | Short('h') => return Err(
                "usage: varcat-soak --addr HOST:PORT [--conns 200] [--secs 30] [--pid PID[,PID…]]"
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
    let start = Instant::now();
    let threads: Vec<_> = (0..a.conns)
        .map(|i| {
            let (addr, mix, stop) = (a.addr.clone(), mix.clone(), stop.clone());
            let (ok, busy, reconnects, failures) = (
                ok.clone(),
                busy.clone(),
                reconnects.clone(),
                failures.clone(),
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
                while !stop.load(Ordering::Relaxed) {
                    on_conn += 1;
                    let (target, want) = &mix[k % mix.len()];
                    k += 1;
                    let reopen = match conn.get(target) {
                        Ok((503, closes)) => {
                            busy.fetch_add(1, Ordering::Relaxed);
                            closes
                        }
                        Ok((status, closes)) if want.contains(&status) => {
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
    for t in threads {
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
    if !a.pids.is_empty() {
        println!(
            "server memory (sum over {} processes, peak of 0.5 s samples): RSS {} MiB, anonymous {} MiB, file-backed (catalog, binary) {} MiB",
            a.pids.len(),
            max_rss / 1024,
            max_anon / 1024,
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
