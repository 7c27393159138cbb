//! The server under test: `varcat serve` started, measured and stopped.

use std::io;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::args::Args;
use crate::client::Conn;

/// A keep-alive connection; cold requests can wait on the disk for long.
pub(super) fn open(addr: &str) -> io::Result<Conn> {
    let c = Conn::connect(addr)?;
    c.set_read_timeout(Duration::from_secs(30))?;
    Ok(c)
}

/// The server under test.
pub(super) struct Server {
    pub(super) child: Child,
    pub(super) addr: String,
    pub(super) started: Duration,
}

impl Server {
    /// Starts `varcat serve` on the catalog; with `log`, its access log (the default) goes to
    /// `/dev/null` (each line still costs what writing it costs), else `--quiet`.
    pub(super) fn start(a: &Args, verify: bool, log: bool) -> Result<Server, String> {
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
    pub(super) fn cpu_us(&self) -> f64 {
        process_cpu_us(self.child.id()).unwrap_or(f64::NAN)
    }

    pub(super) fn rss_kib(&self) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("VmRSS:"))
                    .and_then(|v| v.split_whitespace().next()?.parse().ok())
            })
            .unwrap_or(0)
    }

    pub(super) fn stop(mut self) {
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

/// CPU time of process `pid` (user + system, all threads) from `/proc/<pid>/stat`, in µs.
pub(super) fn process_cpu_us(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start at field 3; utime and
    // stime are fields 14 and 15, in clock ticks.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut f = rest.split_whitespace().skip(11);
    let ticks: u64 = f.next()?.parse::<u64>().ok()? + f.next()?.parse::<u64>().ok()?;
    Some(ticks as f64 * 1e6 / crate::sys::clock_ticks_per_second() as f64)
}
