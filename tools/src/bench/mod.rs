//! `varcat-bench` (its binary is a thin entry to [`main`]): starts `varcat serve` on a
//! catalog made by `varcat synth`, drives it over loopback with many keep-alive connections
//! (raw HTTP/1.1 on std threads, one blocking connection per thread, closed loop) and reports
//! req/s, p50 and p99 per endpoint group, next to the same server's floor
//! (`/api/__floor?bytes=N`, a fixed body of the group's mean size; varcat built with the
//! `bench-floor` feature), to the bare floor (the same body from a minimal same-thread server
//! in this process, and the same server in a process of its own, `varcat-bench --serve-bare`)
//! and to peer servers answering the same body (`peers`: h2o when installed, and axum,
//! `varcat-bench --serve-axum`). Warm runs measure two servers, access log on (the default)
//! and off, and report per group the µs added over each floor's p50, the server's and each
//! floor's CPU per request, the handler's share of the server's (timed by the server itself in
//! a bench build, `/api/__floor/handler`; in this process otherwise), (with `strace`, one
//! connection) its system calls per keep-alive request and, at c > 1, each server's req/s as a
//! ratio to the bare floor's.
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

use std::process::ExitCode;

use crate::synth::Plan;

mod args;
mod cold;
mod drive;
mod floor;
pub mod groups;
mod handler;
mod peers;
mod report;
mod server;
mod strace;
mod warm;

fn run() -> Result<(), String> {
    let a = args::parse_args()?;
    let plan = Plan::new(a.variants, a.seed);
    let bytes = std::fs::metadata(&a.catalog)
        .map_err(|e| format!("{}: {e}", a.catalog.display()))?
        .len();
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!(
        "catalog {} ({bytes} bytes), {} variants, seed {}; {cpus} CPUs; server threads {}; peer threads {}; {} s per run",
        a.catalog.display(),
        a.variants,
        a.seed,
        a.threads,
        a.peer_threads,
        a.secs
    );
    let sets: Vec<(String, Vec<String>)> = a
        .groups
        .iter()
        .map(|g| (g.clone(), groups::urls(&plan, g, a.urls)))
        .collect();
    if a.handlers > 0 {
        return handler::passes(&a.catalog, &sets, a.handlers);
    }
    if a.warm {
        warm::run(&a, &sets)?;
    }
    if a.cold {
        cold::run(&a, &sets)?;
    }
    println!("\nexample targets:");
    for (g, set) in &sets {
        println!("  {g:<8} {}", set[0]);
    }
    Ok(())
}

/// The program: `--serve-bare` and `--serve-axum` serve a floor (a process of its own),
/// anything else runs the bench.
pub fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        Some("--serve-bare") => return floor::serve_bare_process(),
        Some("--serve-axum") => return peers::serve_axum_process(),
        _ => {}
    }
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("varcat-bench: {e}");
            ExitCode::from(2)
        }
    }
}
