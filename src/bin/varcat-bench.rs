//! `varcat-bench`: starts `varcat serve` on a catalog made by `varcat synth`, drives it over
//! loopback with many keep-alive connections (raw HTTP/1.1 on std threads, one blocking
//! connection per thread, closed loop) and reports req/s, p50 and p99 per endpoint group, next
//! to the same server's floor: `/api/__floor?bytes=N`, a fixed body of the group's mean size.
//!
//! ```text
//! cargo build --release
//! target/release/varcat synth --variants 1000000 --seed 1 -o /tmp/s1m
//! target/release/varcat build /tmp/s1m -o /tmp/s1m.varcat
//! target/release/varcat-bench /tmp/s1m.varcat --variants 1000000 --seed 1 [--conns 1,64]
//!     [--secs 5] [--threads 2] [--groups point,region,...] [--cold] [--no-warm]
//! ```
//!
//! `--variants`/`--seed` must be those of the generated catalog: the query targets (rsids,
//! regions, genes, ontology terms) come from the generator's plan. Cold runs stop the server,
//! evict the catalog from the page cache (`posix_fadvise(DONTNEED)`), start it again without
//! verification (which would read the whole file) and measure from the first request.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Barrier;
use std::time::{Duration, Instant};

use lexopt::prelude::*;
use varcat_indexer::synth::{self, Plan, Rng};

const GROUPS: [&str; 7] = [
    "point", "region", "assoc", "verbose", "name", "closure", "summary",
];

const USAGE: &str = "\
usage: varcat-bench <catalog> --variants N [--seed S] [--conns 1,64] [--secs 5] [--threads 2]
                    [--groups point,region,assoc,verbose,name,closure,summary] [--cold]
                    [--cold-secs 2] [--no-warm] [--urls 4096] [--bin target/release/varcat]
The catalog must come from `varcat synth --variants N --seed S` (query targets come from the
generator's plan).";

struct Args {
    catalog: PathBuf,
    variants: u64,
    seed: u64,
    conns: Vec<usize>,
    secs: f64,
    cold_secs: f64,
    cold_requests: usize,
    threads: usize,
    groups: Vec<String>,
    warm: bool,
    cold: bool,
    bin: PathBuf,
    urls: usize,
}

fn parse_args() -> Result<Args, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut a = Args {
        catalog: PathBuf::new(),
        variants: 0,
        seed: 1,
        conns: vec![64],
        secs: 5.0,
        cold_secs: 10.0,
        cold_requests: 1000,
        threads: 2,
        groups: GROUPS.iter().map(|s| s.to_string()).collect(),
        warm: true,
        cold: false,
        bin: exe.with_file_name("varcat"),
        urls: 4096,
    };
    let mut p = lexopt::Parser::from_env();
    let s = varcat::cli::value;
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("variants") => a.variants = s(&mut p)?.parse().map_err(|_| "--variants N")?,
            Long("seed") => a.seed = s(&mut p)?.parse().map_err(|_| "--seed N")?,
            Long("conns") => {
                a.conns = s(&mut p)?
                    .split(',')
                    .map(|c| c.trim().parse().map_err(|_| "--conns N[,N…]"))
                    .collect::<Result<_, _>>()?
            }
            Long("secs") => a.secs = s(&mut p)?.parse().map_err(|_| "--secs S")?,
            Long("cold-secs") => a.cold_secs = s(&mut p)?.parse().map_err(|_| "--cold-secs S")?,
            Long("cold-requests") => {
                a.cold_requests = s(&mut p)?.parse().map_err(|_| "--cold-requests N")?
            }
            Long("threads") => a.threads = s(&mut p)?.parse().map_err(|_| "--threads N")?,
            Long("urls") => a.urls = s(&mut p)?.parse().map_err(|_| "--urls N")?,
            Long("groups") => a.groups = s(&mut p)?.split(',').map(str::to_string).collect(),
            Long("bin") => a.bin = PathBuf::from(s(&mut p)?),
            Long("cold") => a.cold = true,
            Long("no-warm") => a.warm = false,
            Long("help") => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            Value(v) if a.catalog.as_os_str().is_empty() => a.catalog = PathBuf::from(v),
            other => return Err(other.unexpected().to_string()),
        }
    }
    if a.catalog.as_os_str().is_empty() || a.variants == 0 {
        return Err(USAGE.into());
    }
    for g in &a.groups {
        if !GROUPS.contains(&g.as_str()) {
            return Err(format!("unknown group {g:?}; groups: {}", GROUPS.join(",")));
        }
    }
    Ok(a)
}

/// The query targets of a group: `n` URLs, deterministic.
fn urls(plan: &Plan, group: &str, n: usize) -> Vec<String> {
    let mut rng = Rng::new(synth::hash(&[
        plan.seed,
        99,
        group.len() as u64,
        group.as_bytes()[0] as u64,
    ]));
    let region = |rng: &mut Rng| {
        let c = plan.chrom_of(rng.below(plan.variants));
        let s = synth::ORIGIN + rng.below((c.span - synth::ORIGIN).saturating_sub(10_000).max(1));
        format!("{}:{s}-{}", c.name, s + 10_000)
    };
    let rsid = |rng: &mut Rng| loop {
        if let Some(r) = synth::rsid(rng.below(plan.variants)) {
            return r;
        }
    };
    (0..n)
        .map(|_| match group {
            "point" => format!("/api/variants/freq?source=bravo_af&rsid={}", rsid(&mut rng)),
            "region" => format!(
                "/api/variants/freq?source=bravo_af&region={}&limit=100",
                region(&mut rng)
            ),
            "assoc" => format!(
                "/api/genes/variants?gene_id={}&method=eQTL&neg_log10_pvalue=gte:2",
                synth::gene_id(rng.below(plan.genes))
            ),
            "verbose" => format!(
                "/api/genes/variants?gene_id={}&method=eQTL&verbose=true&limit=10",
                synth::gene_id(rng.below(plan.genes))
            ),
            "name" => format!(
                "/api/genes/proteins?gene_name={}",
                synth::symbol(rng.below(plan.genes)).to_lowercase()
            ),
            "closure" => {
                let o = rng.below(synth::ONTOLOGIES.len() as u64) as usize;
                let k = plan.terms / 2 + rng.below(plan.terms / 2);
                let end = synth::term_parent(synth::term_parent(k).max(2));
                format!(
                    "/api/ontology-terms/{}/transitive-closure/{}",
                    synth::term(o, k),
                    synth::term(o, end)
                )
            }
            "summary" => format!("/api/variants/region-summary?region={}", region(&mut rng)),
            _ => unreachable!("groups are checked"),
        })
        .collect()
}

/// A keep-alive HTTP/1.1 connection.
struct Conn {
    s: TcpStream,
    buf: Vec<u8>,
}

impl Conn {
    fn open(addr: &str) -> io::Result<Conn> {
        let s = TcpStream::connect(addr)?;
        s.set_nodelay(true)?;
        s.set_read_timeout(Some(Duration::from_secs(30)))?;
        Ok(Conn {
            s,
            buf: Vec::with_capacity(1 << 16),
        })
    }

    /// One GET; returns (status, body bytes).
    fn get(&mut self, path: &str) -> io::Result<(u16, usize)> {
        let req = format!("GET {path} HTTP/1.1\r\nHost: bench\r\nUser-Agent: varcat-bench\r\n\r\n");
        self.s.write_all(req.as_bytes())?;
        self.buf.clear();
        let mut chunk = [0u8; 65536];
        let head_end = loop {
            if let Some(i) = self.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            let n = self.s.read(&mut chunk)?;
            if n == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            self.buf.extend_from_slice(&chunk[..n]);
        };
        let head = String::from_utf8_lossy(&self.buf[..head_end]).to_ascii_lowercase();
        let status: u16 = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let len = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        if let Some(len) = len {
            while self.buf.len() < head_end + len {
                let n = self.s.read(&mut chunk)?;
                if n == 0 {
                    return Err(io::ErrorKind::UnexpectedEof.into());
                }
                self.buf.extend_from_slice(&chunk[..n]);
            }
            return Ok((status, len));
        }
        if head.contains("transfer-encoding: chunked") {
            // Read until the terminating chunk; count the payload.
            let mut pos = head_end;
            let mut body = 0;
            loop {
                let line_end = loop {
                    if let Some(i) = self.buf[pos..].windows(2).position(|w| w == b"\r\n") {
                        break pos + i;
                    }
                    let n = self.s.read(&mut chunk)?;
                    if n == 0 {
                        return Err(io::ErrorKind::UnexpectedEof.into());
                    }
                    self.buf.extend_from_slice(&chunk[..n]);
                };
                let size = usize::from_str_radix(
                    String::from_utf8_lossy(&self.buf[pos..line_end]).trim(),
                    16,
                )
                .map_err(|_| io::Error::other("bad chunk size"))?;
                let need = line_end + 2 + size + 2;
                while self.buf.len() < need {
                    let n = self.s.read(&mut chunk)?;
                    if n == 0 {
                        return Err(io::ErrorKind::UnexpectedEof.into());
                    }
                    self.buf.extend_from_slice(&chunk[..n]);
                }
                body += size;
                pos = need;
                if size == 0 {
                    return Ok((status, body));
                }
            }
        }
        Err(io::Error::other("response without length"))
    }
}

/// The server under test.
struct Server {
    child: Child,
    addr: String,
    started: Duration,
}

impl Server {
    fn start(a: &Args, verify: bool) -> Result<Server, String> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let addr = format!("127.0.0.1:{port}");
        let mut cmd = Command::new(&a.bin);
        cmd.arg("serve")
            .arg(&a.catalog)
            .args(["--addr", &addr, "--quiet", "--exit-on-stdin-eof"])
            .args(["--threads", &a.threads.to_string()])
            .env("VARCAT_BENCH_FLOOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::null());
        if !verify {
            cmd.arg("--no-verify");
        }
        let t = Instant::now();
        let child = cmd
            .spawn()
            .map_err(|e| format!("{}: {e}", a.bin.display()))?;
        let mut server = Server {
            child,
            addr,
            started: Duration::ZERO,
        };
        loop {
            if let Ok(mut c) = Conn::open(&server.addr) {
                if let Ok((200, _)) = c.get("/api/health") {
                    break;
                }
            }
            if let Ok(Some(st)) = server.child.try_wait() {
                return Err(format!("the server exited: {st}"));
            }
            if t.elapsed() > Duration::from_secs(600) {
                return Err("the server did not start within 10 minutes".into());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        server.started = t.elapsed();
        Ok(server)
    }

    fn rss_kib(&self) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("VmRSS:"))
                    .and_then(|v| v.split_whitespace().next()?.parse().ok())
            })
            .unwrap_or(0)
    }

    fn stop(mut self) {
        drop(self.child.stdin.take());
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Clone, Debug, Default)]
struct Stats {
    requests: u64,
    secs: f64,
    p50_us: f64,
    p99_us: f64,
    max_us: f64,
    mean_bytes: f64,
    non_200: u64,
    errors: u64,
}

impl Stats {
    fn rps(&self) -> f64 {
        self.requests as f64 / self.secs.max(1e-9)
    }
}

/// Drives `urls` over `conns` connections for `secs` seconds (after `warmup` seconds whose
/// requests are not counted); each connection walks the list from its own offset.
fn drive(addr: &str, urls: &[String], conns: usize, secs: f64, warmup: f64) -> Stats {
    drive_capped(addr, urls, conns, secs, warmup, usize::MAX)
}

/// [`drive`], each connection stopping after `cap` requests.
fn drive_capped(
    addr: &str,
    urls: &[String],
    conns: usize,
    secs: f64,
    warmup: f64,
    cap: usize,
) -> Stats {
    let barrier = Barrier::new(conns + 1);
    let mut t0 = Instant::now();
    let errors = AtomicU64::new(0);
    let results: Vec<(Vec<u32>, u64, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..conns)
            .map(|i| {
                let (barrier, errors) = (&barrier, &errors);
                scope.spawn(move || {
                    let mut lat = Vec::with_capacity(1 << 16);
                    let (mut bytes, mut non200) = (0u64, 0u64);
                    let mut conn = Conn::open(addr).ok();
                    barrier.wait();
                    let start = Instant::now();
                    let (w, end) = (
                        Duration::from_secs_f64(warmup),
                        Duration::from_secs_f64(warmup + secs),
                    );
                    let mut k = i * urls.len() / conns.max(1);
                    let mut sent = 0;
                    loop {
                        let now = start.elapsed();
                        if now >= end || sent >= cap {
                            break;
                        }
                        sent += 1;
                        let url = &urls[k % urls.len()];
                        k += 1;
                        let c = match conn.as_mut() {
                            Some(c) => c,
                            None => match Conn::open(addr) {
                                Ok(c) => conn.insert(c),
                                Err(_) => {
                                    errors.fetch_add(1, Ordering::Relaxed);
                                    std::thread::sleep(Duration::from_millis(10));
                                    continue;
                                }
                            },
                        };
                        let t = Instant::now();
                        match c.get(url) {
                            Ok((status, n)) => {
                                let d = t.elapsed();
                                if start.elapsed() >= w && start.elapsed() < end {
                                    // In units of 100 ns.
                                    lat.push((d.as_nanos() / 100).min(u32::MAX as u128) as u32);
                                    bytes += n as u64;
                                    non200 += u64::from(status != 200);
                                }
                            }
                            Err(_) => {
                                errors.fetch_add(1, Ordering::Relaxed);
                                conn = None;
                            }
                        }
                    }
                    (lat, bytes, non200)
                })
            })
            .collect();
        barrier.wait();
        t0 = Instant::now();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let elapsed = t0.elapsed().as_secs_f64();
    let mut all: Vec<u32> = Vec::new();
    let (mut bytes, mut non200) = (0, 0);
    for (l, b, n) in results {
        all.extend(l);
        bytes += b;
        non200 += n;
    }
    all.sort_unstable();
    let q = |f: f64| {
        if all.is_empty() {
            0.0
        } else {
            all[((all.len() as f64 * f) as usize).min(all.len() - 1)] as f64 / 10.0
        }
    };
    Stats {
        requests: all.len() as u64,
        secs: if cap == usize::MAX { secs } else { elapsed },
        p50_us: q(0.50),
        p99_us: q(0.99),
        max_us: all.last().map_or(0.0, |&x| x as f64 / 10.0),
        mean_bytes: bytes as f64 / (all.len().max(1)) as f64,
        non_200: non200,
        errors: errors.load(Ordering::Relaxed),
    }
}

fn fmt_us(us: f64) -> String {
    if us >= 10_000.0 {
        format!("{:.1} ms", us / 1000.0)
    } else if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.0} µs")
    }
}

fn run() -> Result<(), String> {
    let a = parse_args()?;
    let plan = Plan::new(a.variants, a.seed);
    let bytes = std::fs::metadata(&a.catalog)
        .map_err(|e| format!("{}: {e}", a.catalog.display()))?
        .len();
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!(
        "catalog {} ({bytes} bytes), {} variants, seed {}; {cpus} CPUs; server threads {}; {} s per run",
        a.catalog.display(),
        a.variants,
        a.seed,
        a.threads,
        a.secs
    );
    let sets: Vec<(String, Vec<String>)> = a
        .groups
        .iter()
        .map(|g| (g.clone(), urls(&plan, g, a.urls)))
        .collect();
    if a.warm {
        let server = Server::start(&a, true)?;
        println!(
            "\nwarm: server started (all checksums verified) in {} ms, RSS {} MiB",
            server.started.as_millis(),
            server.rss_kib() / 1024
        );
        // Touch every target once so "warm" means the pages these queries need are cached.
        for (_, set) in &sets {
            let mut c = Conn::open(&server.addr).map_err(|e| e.to_string())?;
            for u in set {
                let _ = c.get(u);
            }
        }
        println!(
            "\n| group | conns | req/s | p50 | p99 | mean body | floor req/s | floor p50 | floor p99 | req/s vs floor | non-200 | errors |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for &conns in &a.conns {
            for (g, set) in &sets {
                let s = drive(&server.addr, set, conns, a.secs, 0.5);
                let size = (s.mean_bytes.round() as usize).max(2);
                let floor = drive(
                    &server.addr,
                    &[format!("/api/__floor?bytes={size}")],
                    conns,
                    a.secs,
                    0.5,
                );
                println!(
                    "| {g} | {conns} | {:.0} | {} | {} | {:.0} B | {:.0} | {} | {} | {:.2} | {} | {} |",
                    s.rps(),
                    fmt_us(s.p50_us),
                    fmt_us(s.p99_us),
                    s.mean_bytes,
                    floor.rps(),
                    fmt_us(floor.p50_us),
                    fmt_us(floor.p99_us),
                    s.rps() / floor.rps().max(1e-9),
                    s.non_200,
                    s.errors + floor.errors
                );
            }
        }
        println!(
            "\nserver RSS after the warm runs: {} MiB",
            server.rss_kib() / 1024
        );
        server.stop();
    }
    if a.cold {
        let conns = *a.conns.last().unwrap_or(&64);
        println!(
            "\ncold: per group, stop the server, posix_fadvise(DONTNEED) the catalog, start it with --no-verify, then the first {} requests ({conns} connections, distinct targets, at most {} s)",
            a.cold_requests, a.cold_secs
        );
        println!(
            "\n| group | conns | resident before | start-up | resident after start | requests | req/s | p50 | p99 | max | resident after |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        let pct = |r: usize, t: usize| 100.0 * r as f64 / t.max(1) as f64;
        for (g, set) in &sets {
            varcat::sys::evict_page_cache(&a.catalog).map_err(|e| e.to_string())?;
            let (r0, total) = varcat::sys::resident_pages(&a.catalog).map_err(|e| e.to_string())?;
            let server = Server::start(&a, false)?;
            let (r1, _) = varcat::sys::resident_pages(&a.catalog).map_err(|e| e.to_string())?;
            let cap = a.cold_requests.div_ceil(conns.max(1));
            let s = drive_capped(&server.addr, set, conns, a.cold_secs, 0.0, cap);
            let (r2, _) = varcat::sys::resident_pages(&a.catalog).map_err(|e| e.to_string())?;
            println!(
                "| {g} | {conns} | {:.1}% | {} ms | {:.1}% | {} | {:.0} | {} | {} | {} | {:.1}% |",
                pct(r0, total),
                server.started.as_millis(),
                pct(r1, total),
                s.requests,
                s.requests as f64 / s.secs.max(1e-9),
                fmt_us(s.p50_us),
                fmt_us(s.p99_us),
                fmt_us(s.max_us),
                pct(r2, total),
            );
            server.stop();
        }
    }
    println!("\nexample targets:");
    for (g, set) in &sets {
        println!("  {g:<8} {}", set[0]);
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("varcat-bench: {e}");
            ExitCode::from(2)
        }
    }
}
