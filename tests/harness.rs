//! Support for the robustness tests: a server process whose log is kept and which can be
//! signalled, and the keep-alive HTTP/1.1 client (shared with the load tools) re-exported.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A `varcat serve` process of one test.
pub struct Proc {
    pub addr: String,
    pub child: Child,
    log: Arc<Mutex<Vec<String>>>,
}

/// Starts `varcat serve <catalog> <extra…>`; with `nofile`, under that open-file limit (soft
/// and hard, so the server cannot raise it).
pub fn spawn(catalog: &Path, extra: &[&str], nofile: Option<u32>) -> Proc {
    spawn_with_env(catalog, extra, nofile, &[])
}

/// [`spawn`], with `env` added to the server's environment.
pub fn spawn_with_env(
    catalog: &Path,
    extra: &[&str],
    nofile: Option<u32>,
    env: &[(&str, &str)],
) -> Proc {
    let bin = env!("CARGO_BIN_EXE_varcat");
    let mut cmd = match nofile {
        Some(n) => {
            let mut c = Command::new("sh");
            c.args(["-c", &format!("ulimit -n {n} && exec \"$0\" \"$@\""), bin]);
            c
        }
        None => Command::new(bin),
    };
    let mut child = cmd
        .envs(env.iter().copied())
        .arg("serve")
        .arg(catalog)
        .args(["--addr", "127.0.0.1:0", "--exit-on-stdin-eof"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut log = Vec::new();
    let addr = loop {
        let line = lines
            .next()
            .unwrap_or_else(|| panic!("server exited before listening: {log:?}"))
            .unwrap();
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.split('/').next().unwrap().to_string();
        }
        log.push(line);
    };
    let log = Arc::new(Mutex::new(log));
    let keep = log.clone();
    std::thread::spawn(move || {
        for l in lines.map_while(Result::ok) {
            keep.lock().unwrap().push(l);
        }
    });
    Proc { addr, child, log }
}

impl Proc {
    /// Sends a signal (`HUP`, `TERM`, `INT`).
    pub fn signal(&self, sig: &str) {
        let st = Command::new("kill")
            .args(["-s", sig, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(st.success(), "kill -s {sig} failed");
    }

    /// The log lines so far.
    pub fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// Waits until a log line contains `pat` (at most `timeout`); returns it.
    pub fn wait_log(&self, pat: &str, timeout: Duration) -> Option<String> {
        poll(timeout, || self.log().into_iter().find(|l| l.contains(pat)))
    }

    /// Waits for the process to exit (at most `timeout`).
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        poll(timeout, || self.child.try_wait().unwrap())
    }
}

/// Calls `f` every few milliseconds until it gives a value or `timeout` has passed.
pub fn poll<T>(timeout: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let end = Instant::now() + timeout;
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if Instant::now() > end {
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// The HTTP/1.1 client is shared with the load tools.
pub use varcat_tools::client::{read_answer, Conn};
