//! Warm runs: every group against two servers (access log on and off), the floors of each
//! group's answer size, the handler's share of the server's CPU (its own clock in a bench build,
//! this process otherwise) and system calls per request.

use super::args::Args;
use super::drive::{drive, Stats};
use super::floor::{bare_floor, BareProcess};
use super::handler::{self, Reading};
use super::peers::Peer;
use super::report::{fmt_tenths, fmt_us};
use super::server::{open, Server};
use super::strace::{syscalls_per_request, STRACE_REQUESTS};

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
    let peers = Peer::start_all(a.peer_threads);
    // The handler's share: the servers' own clocks, or else the same catalog answered in this
    // process.
    let clocked = handler::read(&logged.addr)?.is_some() && handler::read(&quiet.addr)?.is_some();
    let in_process: Vec<f64> = if clocked {
        Vec::new()
    } else {
        println!(
            "\nnote: /api/__floor/handler answered 404 (a varcat built without the bench floor): \
             \"handler (in-process)\" is measured in this process, not in the server"
        );
        let app = handler::open_app(&a.catalog)?;
        sets.iter()
            .map(|(_, set)| handler::in_process_us(&app, set, 1.0))
            .collect()
    };
    let handler_how = if clocked {
        "the mean time the server spent per request in its application (App::answer: routing, \
         parameters, handler, JSON), timed by the server itself (a bench build, read at \
         /api/__floor/handler before and after each run; wall time, so at c > 1 it can include \
         time a worker waited for a core)"
    } else {
        "the mean time the same requests take answered in this process by the server's App on \
         one thread (routing, parameters, handler, JSON; the server has no clock of its own \
         without the bench floor, and this figure moves with this process and the machine)"
    };
    let handler_col = if clocked {
        "handler"
    } else {
        "handler (in-process)"
    };
    println!(
        "\n\"log\" is the access log (on: the default, lines to /dev/null; off: --quiet). \
         \"added\" is p50 minus the bare floor's p50 (the same body from a minimal server in this \
         process, measured in the same run). \"cpu/req\" is the server's CPU time (all threads, \
         user + system) per answered request; \"{handler_col}\" {handler_how}; \"http\" is \
         cpu/req minus it (sockets, request parsing, writing, logging, wake-ups). \
         \"syscalls/req\": every system call of the server, all threads, per \
         request, counted by `strace -c -f` over {STRACE_REQUESTS} more requests on one \
         keep-alive connection (\"n/a\" without strace). \"bare proc\": the bare floor in a \
         process of its own (as varcat is), its p50, the µs added over it and its CPU per \
         request; the same for each peer server (h2o: {peer_threads}, the body as a static \
         file; axum: {axum_runtime}, the body from memory).",
        peer_threads = match a.peer_threads {
            1 => "one thread".to_string(),
            n => format!("{n} threads"),
        },
        axum_runtime = match a.peer_threads {
            1 => "a current-thread tokio runtime".to_string(),
            n => format!("a multi-thread tokio runtime of {n} workers"),
        },
    );
    let peer_cols: String = peers
        .iter()
        .map(|p| format!(" {0} p50 | added over {0} | {0} cpu/req |", p.name))
        .collect();
    println!(
        "\n| group | log | conns | req/s | p50 | p99 | mean body | floor req/s | floor p50 | bare req/s | bare p50 | added | req/s vs bare | cpu/req | {handler_col} | http | syscalls/req | bare proc p50 | added over it | bare proc cpu/req |{peer_cols} non-200 | errors |"
    );
    println!(
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|{}---:|---:|",
        "---:|".repeat(3 * peers.len())
    );
    let mut calls_by_name = Vec::new();
    let mut throughput = Vec::new();
    for &conns in &a.conns {
        for (i, (g, set)) in sets.iter().enumerate() {
            let mut runs = Vec::new();
            for (log, server) in [("on", &logged), ("off", &quiet)] {
                let (s, cpu, clock) = measure(server, set, conns, a.secs, clocked)?;
                let handler = if clocked { clock } else { Some(in_process[i]) };
                runs.push((log, server, s, cpu, handler));
            }
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
            if conns > 1 {
                throughput.push(throughput_row(
                    g,
                    conns,
                    &bare_run,
                    [&runs[0].2, &runs[1].2],
                    &proc_run,
                    &peer_runs,
                ));
            }
            for (log, server, s, cpu, handler) in runs {
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
                    handler.map_or("n/a".into(), fmt_tenths),
                    handler.map_or("n/a".into(), |h| fmt_tenths(cpu - h)),
                    fmt_us(proc_run.p50_us),
                    s.p50_us - proc_run.p50_us,
                    fmt_tenths(proc_cpu),
                    s.non_200,
                    s.errors + errors
                );
            }
        }
    }
    if !throughput.is_empty() {
        let peer_cols: String = peers
            .iter()
            .map(|p| format!(" {0} req/s | {0} vs bare |", p.name))
            .collect();
        println!(
            "\nreq/s at c > 1 next to the bare floor's (in this process, the same run): varcat \
             with the access log on and off, the bare floor in a process of its own and each peer, \
             each as req/s and as a ratio to the bare floor's req/s.\n\n\
             | group | conns | bare req/s | varcat log on req/s | on vs bare | varcat log off req/s | off vs bare | bare proc req/s | bare proc vs bare |{peer_cols}\n\
             |---|---:|---:|---:|---:|---:|---:|---:|---:|{}",
            "---:|".repeat(2 * peers.len())
        );
        for row in throughput {
            println!("{row}");
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

/// One varcat run of `set` on `server`: its load figures, the server's CPU µs per answered
/// request and, when the server keeps a handler clock (`clocked`), the µs per request spent in
/// its application. The clock is read outside the CPU window, and the server leaves its
/// readings out of the clock, so neither counts them.
fn measure(
    server: &Server,
    set: &[String],
    conns: usize,
    secs: f64,
    clocked: bool,
) -> Result<(Stats, f64, Option<f64>), String> {
    let read = || -> Result<Option<Reading>, String> {
        Ok(if clocked {
            handler::read(&server.addr)?
        } else {
            None
        })
    };
    let h0 = read()?;
    let cpu0 = server.cpu_us();
    let s = drive(&server.addr, set, conns, secs, 0.5);
    // Warm-up requests are served too: count them in the denominator.
    let cpu = (server.cpu_us() - cpu0) / s.served.max(1) as f64;
    let h1 = read()?;
    let handler = h0.zip(h1).and_then(|(h0, h1)| h1.us_since(&h0));
    Ok((s, cpu, handler))
}

/// A row of the c > 1 throughput table: req/s of varcat (log on, log off), the bare floor in
/// a process of its own and each peer, each beside its ratio to the in-process bare floor's.
fn throughput_row(
    g: &str,
    conns: usize,
    bare: &Stats,
    varcat: [&Stats; 2],
    proc_run: &Stats,
    peer_runs: &[(Stats, f64)],
) -> String {
    let base = bare.rps().max(1e-9);
    let col = |s: &Stats| format!(" {:.0} | {:.2} |", s.rps(), s.rps() / base);
    let others: String = varcat
        .into_iter()
        .chain([proc_run])
        .chain(peer_runs.iter().map(|r| &r.0))
        .map(col)
        .collect();
    format!("| {g} | {conns} | {:.0} |{others}", bare.rps())
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
