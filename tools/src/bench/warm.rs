//! Warm runs: every group against two servers (access log on and off), the floors of each
//! group's answer size, the handler's share measured in this process and system calls per
//! request.

use super::args::Args;
use super::drive::{drive, Stats};
use super::floor::{bare_floor, BareProcess};
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
    Ok(())
}
