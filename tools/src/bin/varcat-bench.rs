//! `varcat-bench`: starts `varcat serve` on a catalog made by `varcat synth`, drives it over
//! loopback with many keep-alive connections (raw HTTP/1.1 on std threads, one blocking
//! connection per thread, closed loop) and reports req/s, p50 and p99 per endpoint group, next
//! to the same server's floor (`/api/__floor?bytes=N`, a fixed body of the group's mean size) and
//! to the bare floor (the same body from a minimal same-thread server in this process, and the
//! same server in a process of its own, `varcat-bench --serve-bare`). Warm
//! runs measure two servers, access log on (the default) and off, and report per group the
//! µs added over the bare floor's p50, the server's CPU per request and (with `strace`, one
//! connection) its system calls per keep-alive request.
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
//! verification (which would read the whole file) and measure from the first request. Their
//! floor is the disk's: random 4 KiB reads of the evicted catalog with 1, as many as the
//! server can have workers blocked in page faults (`--threads`, at most `conns`) and `conns`
//! reads in flight; each cold group reports the block device's reads per request and
//! the req/s (and, by Little's law, the mean latency) those reads allow.

use std::io::{self, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Barrier;
use std::time::{Duration, Instant};

use lexopt::prelude::*;
use varcat_tools::client::Conn;
use varcat_tools::synth::{self, Plan, Rng};

const GROUPS: [&str; 11] = [
    "health",
    "point",
    "region",
    "assoc",
    "verbose",
    "name",
    "closure",
    "summary",
    "phenotype",
    "scores",
    "lookup",
];

const USAGE: &str = "\
usage: varcat-bench <catalog> --variants N [--seed S] [--conns 1,64] [--secs 5] [--threads 2]
                    [--groups health,point,region,assoc,verbose,name,closure,summary,
                              phenotype,scores,lookup] [--cold]
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
    let s = varcat_tools::args::value;
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
    // The large genes, inside their chromosome's variants (any gene if a tiny plan has none).
    let mut dense: Vec<u64> = Vec::new();
    if group == "scores" {
        let genes = plan
            .chroms
            .iter()
            .flat_map(|c| (0..c.genes).map(move |g| (c, plan.gene(c, g))));
        dense = genes
            .filter(|(c, g)| synth::dense_coding(g) && g.end <= c.span)
            .map(|(_, g)| g.gg)
            .collect();
        if dense.is_empty() {
            dense = (0..plan.genes.max(1)).collect();
        }
    }
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
            // A broad trait: one of the two common GWAS terms (EFO, HP), a full page of 100.
            "phenotype" => format!(
                "/api/phenotypes/variants?phenotype_id={}&limit=100",
                synth::term(if rng.chance(0.5) { 0 } else { 7 }, synth::COMMON_TRAIT)
            ),
            // Every ESM-1v score of a large gene: one whose every SNV is a coding variant.
            "scores" => format!(
                "/api/genes/coding-variants/all-scores?gene_id={}&dataset=ESM-1v",
                synth::gene_id(*rng.pick(&dense))
            ),
            // A node look-up by name, as the MCP server resolves a gene symbol.
            "lookup" => format!("/api/genes?name={}", synth::symbol(rng.below(plan.genes))),
            // The catalog's metadata: the HTTP path with the least handler work.
            "health" => "/api/health".to_string(),
            _ => unreachable!("groups are checked"),
        })
        .collect()
}

/// The bare floor: a minimal HTTP/1.1 server in this process, a thread per connection that
/// reads each request head and answers, on the same thread, a fixed JSON body of the
/// `bytes=N` the target asks for (no routing, no handler, no hand-off). What any server on
/// this machine and loopback can reach; varcat's `/api/__floor` is the same body through its
/// whole HTTP path. Returns its address.
fn bare_floor() -> io::Result<String> {
    let l = TcpListener::bind("127.0.0.1:0")?;
    let addr = l.local_addr()?.to_string();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            std::thread::spawn(move || serve_bare(s));
        }
    });
    Ok(addr)
}

fn serve_bare(s: TcpStream) {
    let _ = s.set_nodelay(true);
    let Ok(mut w) = s.try_clone() else { return };
    let mut r = io::BufReader::new(s);
    let mut line = String::new();
    let mut body: Vec<u8> = Vec::new();
    loop {
        line.clear();
        match io::BufRead::read_line(&mut r, &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let n: usize = line
            .split("bytes=")
            .nth(1)
            .and_then(|v| v.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(2)
            .clamp(2, 16 << 20);
        loop {
            line.clear();
            match io::BufRead::read_line(&mut r, &mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) if line.trim_end().is_empty() => break,
                Ok(_) => {}
            }
        }
        if body.len() != n {
            body = vec![b' '; n];
            (body[0], body[n - 1]) = (b'[', b']');
        }
        let mut out = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {n}\r\n\r\n"
        )
        .into_bytes();
        out.extend_from_slice(&body);
        if w.write_all(&out).is_err() {
            return;
        }
    }
}

/// The bare floor again, in a process of its own (this program run with `--serve-bare`): a
/// server in another process pays what the in-process floor does not (switching address spaces
/// on every wake-up), as varcat does; its CPU per request is measured as varcat's is.
struct BareProcess {
    child: Child,
    addr: String,
}

impl BareProcess {
    fn start() -> Result<BareProcess, String> {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut child = Command::new(exe)
            .arg("--serve-bare")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("bare floor process: {e}"))?;
        let mut line = String::new();
        let out = child.stdout.take().ok_or("bare floor process: no stdout")?;
        io::BufRead::read_line(&mut io::BufReader::new(out), &mut line)
            .map_err(|e| format!("bare floor process: {e}"))?;
        Ok(BareProcess {
            child,
            addr: line.trim().to_string(),
        })
    }

    fn cpu_us(&self) -> f64 {
        process_cpu_us(self.child.id()).unwrap_or(f64::NAN)
    }
}

impl Drop for BareProcess {
    fn drop(&mut self) {
        // Its stdin closing ends it.
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

/// `--serve-bare`: serves the bare floor, prints its address, and exits when stdin closes.
fn serve_bare_process() -> ExitCode {
    match bare_floor() {
        Ok(addr) => {
            println!("{addr}");
            let _ = io::stdout().flush();
            let _ = io::copy(&mut io::stdin(), &mut io::sink());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("varcat-bench: bare floor: {e}");
            ExitCode::from(2)
        }
    }
}

/// A keep-alive connection; cold requests can wait on the disk for long.
fn open(addr: &str) -> io::Result<Conn> {
    let c = Conn::connect(addr)?;
    c.set_read_timeout(Duration::from_secs(30))?;
    Ok(c)
}

/// The server under test.
struct Server {
    child: Child,
    addr: String,
    started: Duration,
}

impl Server {
    /// Starts `varcat serve` on the catalog; with `log`, its access log (the default) goes to
    /// `/dev/null` (each line still costs what writing it costs), else `--quiet`.
    fn start(a: &Args, verify: bool, log: bool) -> Result<Server, String> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let addr = format!("127.0.0.1:{port}");
        let mut cmd = Command::new(&a.bin);
        cmd.arg("serve")
            .arg(&a.catalog)
            .args(["--addr", &addr, "--exit-on-stdin-eof"])
            .args(["--threads", &a.threads.to_string()])
            .env("VARCAT_BENCH_FLOOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if !log {
            cmd.arg("--quiet");
        }
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
            if let Ok(mut c) = open(&server.addr) {
                if c.get("/api/health").is_ok_and(|h| h.status == 200) {
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

    /// CPU time the server process has used so far (all threads, user + system), in µs.
    fn cpu_us(&self) -> f64 {
        process_cpu_us(self.child.id()).unwrap_or(f64::NAN)
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
    /// Every answer received, warm-up included (what the server did the work for).
    served: u64,
}

impl Stats {
    fn rps(&self) -> f64 {
        self.requests as f64 / self.secs.max(1e-9)
    }
}

/// CPU time of process `pid` (user + system, all threads) from `/proc/<pid>/stat`, in µs.
fn process_cpu_us(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start at field 3; utime and
    // stime are fields 14 and 15, in clock ticks.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut f = rest.split_whitespace().skip(11);
    let ticks: u64 = f.next()?.parse::<u64>().ok()? + f.next()?.parse::<u64>().ok()?;
    Some(ticks as f64 * 1e6 / varcat_tools::sys::clock_ticks_per_second() as f64)
}

/// The handler's share of a request: `urls` answered in this process by the server's own
/// `App` on one thread (routing, parameters, handler, JSON; no sockets, no HTTP parsing or
/// writing), mean µs per request over at least `secs` seconds, after one untimed pass over
/// `urls`: this process maps the catalog afresh, and the first touch of each page is a page
/// fault the warm server no longer takes (without the pass, region's "handler" exceeded the
/// server's whole CPU per request).
fn handler_us(app: &varcat_server::http::App, urls: &[String], secs: f64) -> f64 {
    for url in urls {
        let req = varcat_server::http::Request {
            method: "GET",
            url,
            ..Default::default()
        };
        std::hint::black_box(app.handle(&req));
    }
    let t = Instant::now();
    let mut n = 0u64;
    while n < urls.len() as u64 || t.elapsed().as_secs_f64() < secs {
        let url = &urls[n as usize % urls.len()];
        let req = varcat_server::http::Request {
            method: "GET",
            url,
            ..Default::default()
        };
        std::hint::black_box(app.handle(&req));
        n += 1;
    }
    t.elapsed().as_secs_f64() * 1e6 / n as f64
}

/// Requests of a group sent over one warm keep-alive connection while `strace -c -f` counts
/// every system call of the server's process (all threads).
const STRACE_REQUESTS: usize = 2000;

/// System calls of process `pid` per request while [`STRACE_REQUESTS`] of `urls` go over one
/// warm keep-alive connection, counted by `strace -c -f -p` (all threads, every kind): the
/// total and the calls of more than 0.05 a request by name. `None` when strace cannot attach.
fn syscalls_per_request(pid: u32, addr: &str, urls: &[String]) -> Option<(f64, String)> {
    let mut c = open(addr).ok()?;
    c.get(&urls[0]).ok()?;
    let out = std::env::temp_dir().join(format!("varcat-bench-strace-{}", std::process::id()));
    let mut st = Command::new("strace")
        .args(["-c", "-f", "-qq", "-o"])
        .arg(&out)
        .args(["-p", &pid.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    // strace attaches to every thread before it counts; there is no signal that it has.
    std::thread::sleep(Duration::from_millis(500));
    let mut ok = true;
    for i in 0..STRACE_REQUESTS {
        ok &= c.get(&urls[i % urls.len()]).is_ok();
    }
    let _ = Command::new("kill")
        .args(["-INT", &st.id().to_string()])
        .status();
    let _ = st.wait();
    let text = std::fs::read_to_string(&out).ok();
    let _ = std::fs::remove_file(&out);
    let calls = parse_strace_summary(&text?);
    if !ok || calls.is_empty() {
        return None;
    }
    let n = STRACE_REQUESTS as f64;
    let total = calls.iter().map(|c| c.1).sum::<u64>() as f64 / n;
    let named: Vec<String> = calls
        .iter()
        .filter(|c| c.1 as f64 / n > 0.05)
        .map(|(name, k)| format!("{name} {:.2}", *k as f64 / n))
        .collect();
    Some((total, named.join(", ")))
}

/// The rows of a `strace -c` summary: (system call, calls), most calls first; the total row
/// left out.
fn parse_strace_summary(text: &str) -> Vec<(String, u64)> {
    let mut rows: Vec<(String, u64)> = text
        .lines()
        .filter_map(|l| {
            // "% time  seconds  usecs/call  calls  [errors]  syscall"
            let t: Vec<&str> = l.split_whitespace().collect();
            if !(5..=6).contains(&t.len()) || t[0].parse::<f64>().is_err() {
                return None;
            }
            let name = t[t.len() - 1];
            (name != "total").then(|| Some((name.to_string(), t[3].parse().ok()?)))?
        })
        .collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    rows
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
    let results: Vec<(Vec<u32>, u64, u64, u64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..conns)
            .map(|i| {
                let (barrier, errors) = (&barrier, &errors);
                scope.spawn(move || {
                    let mut lat = Vec::with_capacity(1 << 16);
                    let (mut bytes, mut non200, mut served) = (0u64, 0u64, 0u64);
                    let mut conn = open(addr).ok();
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
                            None => match open(addr) {
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
                            Ok(answer) => {
                                let d = t.elapsed();
                                served += 1;
                                let (status, n) = (answer.status, answer.body.len());
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
                    (lat, bytes, non200, served)
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
    let (mut bytes, mut non200, mut served) = (0, 0, 0);
    for (l, b, n, a) in results {
        all.extend(l);
        bytes += b;
        non200 += n;
        served += a;
    }
    all.sort_unstable();
    let q = |f: f64| quantile_us(&all, f);
    Stats {
        requests: all.len() as u64,
        secs: if cap == usize::MAX { secs } else { elapsed },
        p50_us: q(0.50),
        p99_us: q(0.99),
        max_us: all.last().map_or(0.0, |&x| x as f64 / 10.0),
        mean_bytes: bytes as f64 / (all.len().max(1)) as f64,
        non_200: non200,
        errors: errors.load(Ordering::Relaxed),
        served,
    }
}

/// Pages resident in `after` but not in `before`, per section (sections sharing a page each
/// count it), largest first.
fn pages_read_by_section(
    sections: &[(String, usize, usize)],
    before: &[bool],
    after: &[bool],
) -> Vec<(String, usize)> {
    let mut by: Vec<(String, usize)> = sections
        .iter()
        .map(|(name, start, end)| {
            let end = (*end).min(after.len()).min(before.len());
            let n = (*start..end).filter(|&p| after[p] && !before[p]).count();
            (name.clone(), n)
        })
        .filter(|b| b.1 > 0)
        .collect();
    by.sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
    by
}

/// The `f` quantile of latencies sorted ascending, in units of 100 ns, as µs (0 when empty).
fn quantile_us(sorted: &[u32], f: f64) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n => sorted[((n as f64 * f) as usize).min(n - 1)] as f64 / 10.0,
    }
}

/// Random page-aligned 4 KiB reads of `path` (just evicted) from `depth` threads, `reads` in
/// all: the disk's reads/s and read latency, the cold runs' counterpart of the HTTP floor.
fn disk_floor(path: &std::path::Path, depth: usize, reads: usize) -> Result<Stats, String> {
    use std::os::unix::fs::FileExt;
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let pages = f.metadata().map_err(|e| e.to_string())?.len() / 4096;
    if pages == 0 {
        return Err(format!("{}: too small for a disk floor", path.display()));
    }
    let t0 = Instant::now();
    let mut lat: Vec<u32> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..depth)
            .map(|i| {
                let f = &f;
                scope.spawn(move || {
                    let mut rng = Rng::new(synth::hash(&[7, i as u64]));
                    let mut buf = [0u8; 4096];
                    let mut lat = Vec::with_capacity(reads / depth);
                    for _ in 0..reads / depth {
                        let t = Instant::now();
                        // A read error is a short sample, not a reason to stop measuring.
                        let _ = f.read_at(&mut buf, rng.below(pages) * 4096);
                        lat.push((t.elapsed().as_nanos() / 100).min(u32::MAX as u128) as u32);
                    }
                    lat
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let secs = t0.elapsed().as_secs_f64();
    lat.sort_unstable();
    let q = |x: f64| quantile_us(&lat, x);
    Ok(Stats {
        requests: lat.len() as u64,
        secs,
        p50_us: q(0.5),
        p99_us: q(0.99),
        max_us: lat.last().map_or(0.0, |&x| x as f64 / 10.0),
        ..Stats::default()
    })
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

/// µs to a tenth (CPU shares a few µs apart).
fn fmt_tenths(us: f64) -> String {
    if us.abs() >= 1000.0 {
        fmt_us(us)
    } else {
        format!("{us:.1} µs")
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
        // Two servers on the same catalog: access log on (the default) and off.
        let logged = Server::start(&a, true, true)?;
        let quiet = Server::start(&a, true, false)?;
        println!(
            "\nwarm: servers started (all checksums verified) in {} and {} ms, RSS {} MiB",
            logged.started.as_millis(),
            quiet.started.as_millis(),
            quiet.rss_kib() / 1024
        );
        // Touch every target once so "warm" means the pages these queries need are cached.
        for server in [&logged, &quiet] {
            for (_, set) in &sets {
                let mut c = open(&server.addr).map_err(|e| e.to_string())?;
                for u in set {
                    let _ = c.get(u);
                }
            }
        }
        let bare = bare_floor().map_err(|e| format!("bare floor server: {e}"))?;
        let bare_proc = BareProcess::start()?;
        // The same catalog answered in this process, for the handler's share of the CPU.
        let app = varcat_server::http::Loaded::open(&a.catalog, false)
            .map(|l| varcat_server::http::App::new(l, "/api"))
            .map_err(|e| format!("{}: {e}", a.catalog.display()))?;
        let handler: Vec<f64> = sets
            .iter()
            .map(|(_, set)| handler_us(&app, set, 1.0))
            .collect();
        drop(app);
        println!(
            "\n\"log\" is the access log (on: the default, lines to /dev/null; off: --quiet). \
             \"added\" is p50 minus the bare floor's p50 (the same body from a minimal server in this \
             process, measured in the same run). \"cpu/req\" is the server's CPU time (all threads, \
             user + system) per answered request; \"handler\" the mean time the same requests take \
             answered in this process by the server's App on one thread (routing, parameters, \
             handler, JSON); \"http\" the rest (sockets, request parsing, writing, wake-ups). \
             \"syscalls/req\": every system call of the server, all threads, per \
             request, counted by `strace -c -f` over {STRACE_REQUESTS} more requests on one \
             keep-alive connection (\"n/a\" without strace). \"bare proc\": the bare floor in a \
             process of its own (as varcat is), its p50, the µs added over it and its CPU per \
             request."
        );
        println!(
            "\n| group | log | conns | req/s | p50 | p99 | mean body | floor req/s | floor p50 | bare req/s | bare p50 | added | req/s vs bare | cpu/req | handler | http | syscalls/req | bare proc p50 | added over it | bare proc cpu/req | non-200 | errors |"
        );
        println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        let mut calls_by_name = Vec::new();
        for &conns in &a.conns {
            for ((g, set), &handler) in sets.iter().zip(&handler) {
                let runs: Vec<(&str, &Server, Stats, f64)> = [("on", &logged), ("off", &quiet)]
                    .into_iter()
                    .map(|(log, server)| {
                        let cpu0 = server.cpu_us();
                        let s = drive(&server.addr, set, conns, a.secs, 0.5);
                        // Warm-up requests are served too: count them in the denominator.
                        let cpu = (server.cpu_us() - cpu0) / s.served.max(1) as f64;
                        (log, server, s, cpu)
                    })
                    .collect();
                let size = (runs[1].2.mean_bytes.round() as usize).max(2);
                let floor_url = [format!("/api/__floor?bytes={size}")];
                let floor = drive(&quiet.addr, &floor_url, conns, a.secs, 0.5);
                let bare_run = drive(&bare, &floor_url, conns, a.secs, 0.5);
                let cpu0 = bare_proc.cpu_us();
                let proc_run = drive(&bare_proc.addr, &floor_url, conns, a.secs, 0.5);
                let proc_cpu = (bare_proc.cpu_us() - cpu0) / proc_run.served.max(1) as f64;
                for (log, server, s, cpu) in runs {
                    let calls = if conns == 1 {
                        syscalls_per_request(server.child.id(), &server.addr, set)
                    } else {
                        None
                    };
                    let calls_col = calls
                        .as_ref()
                        .map_or("n/a".into(), |c| format!("{:.2}", c.0));
                    if let Some((_, named)) = calls {
                        calls_by_name.push(format!("  {g:<8} log {log:<3}: {named}"));
                    }
                    println!(
                        "| {g} | {log} | {conns} | {:.0} | {} | {} | {:.0} B | {:.0} | {} | {:.0} | {} | {:+.1} µs | {:.2} | {} | {} | {} | {calls_col} | {} | {:+.1} µs | {} | {} | {} |",
                        s.rps(),
                        fmt_us(s.p50_us),
                        fmt_us(s.p99_us),
                        s.mean_bytes,
                        floor.rps(),
                        fmt_us(floor.p50_us),
                        bare_run.rps(),
                        fmt_us(bare_run.p50_us),
                        s.p50_us - bare_run.p50_us,
                        s.rps() / bare_run.rps().max(1e-9),
                        fmt_tenths(cpu),
                        fmt_tenths(handler),
                        fmt_tenths(cpu - handler),
                        fmt_us(proc_run.p50_us),
                        s.p50_us - proc_run.p50_us,
                        fmt_tenths(proc_cpu),
                        s.non_200,
                        s.errors + floor.errors + bare_run.errors + proc_run.errors
                    );
                }
            }
        }
        if !calls_by_name.is_empty() {
            println!(
                "\nsystem calls per request by name (strace -c -f, one keep-alive connection):"
            );
            for l in calls_by_name {
                println!("{l}");
            }
        }
        println!(
            "\nserver RSS after the warm runs: {} MiB",
            quiet.rss_kib() / 1024
        );
        logged.stop();
        quiet.stop();
        drop(bare_proc);
    }
    if a.cold {
        let conns = *a.conns.last().unwrap_or(&64);
        println!(
            "\ncold: per group, stop the server, posix_fadvise(DONTNEED) the catalog, start it with --no-verify, then the first {} requests ({conns} connections, distinct targets, at most {} s)",
            a.cold_requests, a.cold_secs
        );
        // Section extents, read before the first eviction; the mapping is dropped at once so
        // that it cannot keep pages resident.
        let sections: Vec<(String, usize, usize)> = varcat_format::Catalog::open(&a.catalog)
            .map_err(|e| e.to_string())?
            .sections()
            .iter()
            .map(|e| {
                let (start, end) = (e.offset as usize, (e.offset + e.len) as usize);
                (e.name.clone(), start / 4096, end.div_ceil(4096))
            })
            .collect();
        // The cold floor: what the disk gives, measured on the same file, the same way as the
        // HTTP floor is measured on the same server.
        // At most this many workers can be blocked in page faults at once.
        let blocked = a.threads.min(conns).max(1);
        let depths = {
            let mut d = vec![1, blocked, conns];
            d.sort_unstable();
            d.dedup();
            d
        };
        println!(
            "\ndisk floor: random 4 KiB reads of the evicted catalog, one thread per read in flight"
        );
        println!("\n| reads in flight | reads/s | p50 | p99 |\n|---:|---:|---:|---:|");
        let mut disk = Vec::new();
        for &depth in &depths {
            varcat_tools::sys::evict_page_cache(&a.catalog).map_err(|e| e.to_string())?;
            let d = disk_floor(&a.catalog, depth, 10_000.max(depth * 200))?;
            println!(
                "| {depth} | {:.0} | {} | {} |",
                d.rps(),
                fmt_us(d.p50_us),
                fmt_us(d.p99_us)
            );
            disk.push((depth, d.rps()));
        }
        let at = |depth: usize| disk.iter().find(|d| d.0 == depth).map_or(0.0, |d| d.1);
        let (t, at_t, at_c) = (blocked, at(blocked), at(conns));
        println!(
            "\n\"disk reads/req\" counts the block device's completed reads while the requests ran (the \
             machine should be otherwise quiet). \"disk-bound req/s\" is the most the disk allows at that \
             many reads per request with {t} reads in flight (one per server worker blocked in a page \
             fault: {at_t:.0} reads/s) and with {conns} ({at_c:.0} reads/s); \"latency bound\" is the mean \
             latency the first implies for {conns} closed-loop connections (Little's law)."
        );
        println!(
            "\n| group | conns | resident before | start-up | resident after start | requests | req/s | p50 | p99 | max | resident after | disk reads/req | KiB read/req | disk-bound req/s ({t} / {conns} in flight) | latency bound |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        let pct =
            |r: &[bool]| 100.0 * r.iter().filter(|&&x| x).count() as f64 / r.len().max(1) as f64;
        let resident = || varcat_tools::sys::resident_map(&a.catalog).map_err(|e| e.to_string());
        let mut reads = Vec::new();
        for (g, set) in &sets {
            varcat_tools::sys::evict_page_cache(&a.catalog).map_err(|e| e.to_string())?;
            let r0 = resident()?;
            let server = Server::start(&a, false, false)?;
            let r1 = resident()?;
            let io0 = varcat_tools::sys::device_reads(&a.catalog).ok();
            let cap = a.cold_requests.div_ceil(conns.max(1));
            let s = drive_capped(&server.addr, set, conns, a.cold_secs, 0.0, cap);
            let io1 = varcat_tools::sys::device_reads(&a.catalog).ok();
            let r2 = resident()?;
            reads.push((g, pages_read_by_section(&sections, &r1, &r2)));
            let disk = match (io0, io1) {
                (Some((n0, s0)), Some((n1, s1))) if s.requests > 0 => {
                    let per = (n1 - n0) as f64 / s.requests as f64;
                    let kib = (s1 - s0) as f64 * 0.5 / s.requests as f64;
                    if per < 0.01 {
                        format!("{per:.2} | {kib:.1} | — | — ")
                    } else {
                        let (bt, bc) = (at_t / per, at_c / per);
                        let lat = fmt_us(conns as f64 / bt.max(1e-9) * 1e6);
                        format!("{per:.2} | {kib:.1} | {bt:.0} / {bc:.0} | {lat} ")
                    }
                }
                _ => "n/a | n/a | n/a | n/a ".into(),
            };
            println!(
                "| {g} | {conns} | {:.1}% | {} ms | {:.1}% | {} | {:.0} | {} | {} | {} | {:.1}% | {disk}|",
                pct(&r0),
                server.started.as_millis(),
                pct(&r1),
                s.requests,
                s.requests as f64 / s.secs.max(1e-9),
                fmt_us(s.p50_us),
                fmt_us(s.p99_us),
                fmt_us(s.max_us),
                pct(&r2),
            );
            server.stop();
        }
        println!("\npages the requests brought into the page cache (after start-up), by section:");
        for (g, by) in reads {
            let total: usize = by.iter().map(|b| b.1).sum();
            let top: Vec<String> = by
                .iter()
                .take(5)
                .map(|(name, n)| format!("{name} {:.0} %", 100.0 * *n as f64 / total.max(1) as f64))
                .collect();
            println!("  {g:<8} {total} pages: {}", top.join(", "));
        }
    }
    println!("\nexample targets:");
    for (g, set) in &sets {
        println!("  {g:<8} {}", set[0]);
    }
    Ok(())
}

fn main() -> ExitCode {
    if std::env::args().nth(1).as_deref() == Some("--serve-bare") {
        return serve_bare_process();
    }
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("varcat-bench: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_pages_read_are_counted_per_section_largest_first() {
        let sections = vec![
            ("a.records".to_string(), 0, 4),
            ("a.by.id".to_string(), 4, 6),
            ("b.records".to_string(), 6, 9),
        ];
        let before = [true, false, false, false, false, false, false, false, false];
        let after = [true, true, true, false, true, false, false, false, true];
        let by = pages_read_by_section(&sections, &before, &after);
        // a.records: pages 1 and 2 (page 0 was already resident); the others one each; a
        // section whose extent runs past the maps is cut, not a panic.
        assert_eq!(
            by,
            vec![
                ("a.records".to_string(), 2),
                ("a.by.id".to_string(), 1),
                ("b.records".to_string(), 1)
            ]
        );
        let cut = pages_read_by_section(&[("x".to_string(), 7, 100)], &before, &after);
        assert_eq!(cut, vec![("x".to_string(), 1)]);
    }

    #[test]
    fn test_strace_summary_rows_are_read_with_or_without_errors() {
        let text = "\
% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 60.00    0.000030          15         2           sendto
 30.00    0.000015           7         2         1 recvfrom
 10.00    0.000005           5         1           futex
------ ----------- ----------- --------- --------- ----------------
100.00    0.000050          10         5         1 total
";
        assert_eq!(
            parse_strace_summary(text),
            vec![
                ("recvfrom".to_string(), 2),
                ("sendto".to_string(), 2),
                ("futex".to_string(), 1)
            ]
        );
        assert!(
            parse_strace_summary("strace: attach: ptrace(PTRACE_SEIZE, 1): denied\n").is_empty()
        );
    }

    #[test]
    fn test_the_bare_floor_answers_the_asked_size_on_one_connection() {
        let addr = bare_floor().unwrap();
        let mut c = open(&addr).unwrap();
        for n in [10, 2, 5000] {
            let a = c.get(&format!("/api/__floor?bytes={n}")).unwrap();
            assert_eq!((a.status, a.body.len()), (200, n));
            assert_eq!((a.body[0], a.body[n - 1]), (b'[', b']'));
        }
    }

    #[test]
    fn test_quantiles_of_sorted_latencies() {
        assert_eq!(quantile_us(&[], 0.5), 0.0);
        let l: Vec<u32> = (1..=100).collect();
        assert_eq!(quantile_us(&l, 0.5), 5.1);
        assert_eq!(quantile_us(&l, 0.99), 10.0);
        assert_eq!(quantile_us(&l, 1.0), 10.0);
    }
}
