//! Warm runs: every group against two servers (access log on and off), the floors of each
//! group's answer size, the handler's share measured in this process and system calls per
//! request.

use super::args::Args;
use super::drive::{drive, Stats};
use super::floor::{bare_floor, BareProcess};
use super::peers::Peer;
use super::report::{fmt_tenths, fmt_us};
use super::server::{open, Server};
use super::strace::{syscalls_per_request, STRACE_REQUESTS};
use std::time::Instant;

/// The handler's share of a request: `urls` answered in this process by the server's own
/// `App` on one thread (routing, parameters, handler, JSON; no sockets, no HTTP parsing or
/// writing), mean µs per request over at least `secs` seconds, after one untimed pass over
/// `urls`: this process maps the catalog afresh, and the first touch of each page is a page
/// fault the warm server no longer takes (without the pass, region's "handler" exceeded the
/// server's whole CPU per request).
pub(super) fn handler_us(app: &varcat_server::http::App, urls: &[String], secs: f64) -> f64 {
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

/// The warm runs of `sets` (group, targets), printed as one table.
pub(super) fn run(a: &Args, sets: &[(String, Vec<String>)]) -> Result<(), String> {
    // Two servers on the same catalog: access log on (the default) and off.
    let logged = Server::start(a, true, true)?;
    let quiet = Server::start(a, true, false)?;
    println!(
        "\nwarm: servers started (all checksums verified) in {} and {} ms, RSS {} MiB",
        logged.started.as_millis(),
        quiet.started.as_millis(),
        quiet.rss_kib() / 1024
    );
    // Touch every target once so "warm" means the pages these queries need are cached.
    for server in [&logged, &quiet] {
        for (_, set) in sets {
            let mut c = open(&server.addr).map_err(|e| e.to_string())?;
            for u in set {
                let _ = c.get(u);
            }
        }
    }
    let has_floor = own_floor(&quiet.addr)?;
    let bare = bare_floor().map_err(|e| format!("bare floor server: {e}"))?;
    let bare_proc = BareProcess::start()?;
    let peers = Peer::start_all();
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
         request; the same for each peer server (h2o: one thread, the body as a static file; \
         axum: a current-thread tokio runtime, the body from memory)."
    );
    let peer_cols: String = peers
        .iter()
        .map(|p| format!(" {0} p50 | added over {0} | {0} cpu/req |", p.name))
        .collect();
    println!(
        "\n| group | log | conns | req/s | p50 | p99 | mean body | floor req/s | floor p50 | bare req/s | bare p50 | added | req/s vs bare | cpu/req | handler | http | syscalls/req | bare proc p50 | added over it | bare proc cpu/req |{peer_cols} non-200 | errors |"
    );
    println!(
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|{}---:|---:|",
        "---:|".repeat(3 * peers.len())
    );
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
            let floor = has_floor.then(|| drive(&quiet.addr, &floor_url, conns, a.secs, 0.5));
            let bare_run = drive(&bare, &floor_url, conns, a.secs, 0.5);
            let cpu0 = bare_proc.cpu_us();
            let proc_run = drive(&bare_proc.addr, &floor_url, conns, a.secs, 0.5);
            let proc_cpu = (bare_proc.cpu_us() - cpu0) / proc_run.served.max(1) as f64;
            let mut peer_runs = Vec::new();
            for p in &peers {
                let target = [p.target(size)?];
                let cpu0 = p.cpu_us();
                let run = drive(&p.addr, &target, conns, a.secs, 0.5);
                let cpu = (p.cpu_us() - cpu0) / run.served.max(1) as f64;
                peer_runs.push((run, cpu));
            }
            let errors = floor.as_ref().map_or(0, |f| f.errors)
                + bare_run.errors
                + proc_run.errors
                + peer_runs.iter().map(|r| r.0.errors).sum::<u64>();
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
                let floor_cols = floor.as_ref().map_or("n/a | n/a".into(), |f| {
                    format!("{:.0} | {}", f.rps(), fmt_us(f.p50_us))
                });
                let peer_cols: String = peer_runs
                    .iter()
                    .map(|(r, cpu)| {
                        format!(
                            " {} | {:+.1} µs | {} |",
                            fmt_us(r.p50_us),
                            s.p50_us - r.p50_us,
                            fmt_tenths(*cpu)
                        )
                    })
                    .collect();
                println!(
                    "| {g} | {log} | {conns} | {:.0} | {} | {} | {:.0} B | {floor_cols} | {:.0} | {} | {:+.1} µs | {:.2} | {} | {} | {} | {calls_col} | {} | {:+.1} µs | {} |{peer_cols} {} | {} |",
                    s.rps(),
                    fmt_us(s.p50_us),
                    fmt_us(s.p99_us),
                    s.mean_bytes,
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
                    s.errors + errors
                );
            }
        }
    }
    if !calls_by_name.is_empty() {
        println!("\nsystem calls per request by name (strace -c -f, one keep-alive connection):");
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
    drop(peers);
    Ok(())
}

/// Whether the server answers its own floor (`/api/__floor`, a bench build only); when it does
/// not, a hint on how to build one, and the floor's columns are n/a.
fn own_floor(addr: &str) -> Result<bool, String> {
    let mut c = open(addr).map_err(|e| e.to_string())?;
    let status = c
        .get("/api/__floor?bytes=2")
        .map_err(|e| e.to_string())?
        .status;
    if status == 200 {
        return Ok(true);
    }
    let hint = format!(
        "/api/__floor answered {status}: this varcat was built without the bench floor; build one \
         with `cargo build --release --features bench-floor --target-dir target/bench` and pass \
         `--bin target/bench/release/varcat` (the floor columns are n/a meanwhile)"
    );
    eprintln!("varcat-bench: {hint}");
    println!("\nnote: {hint}");
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    #[test]
    fn test_a_server_without_its_floor_is_told_apart() {
        // A server answering 404 to everything, as varcat built without the bench floor.
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        std::thread::spawn(move || {
            for mut s in l.incoming().flatten() {
                let mut b = [0u8; 1024];
                let _ = s.read(&mut b);
                let _ = s.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
            }
        });
        assert_eq!(own_floor(&addr), Ok(false));
        let bare = bare_floor().unwrap();
        assert_eq!(own_floor(&bare), Ok(true));
    }
}
