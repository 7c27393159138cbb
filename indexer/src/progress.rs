//! A one-line progress display for long builds: documents, rate, share of input read, ETA.

use std::io::Write;
use std::time::{Duration, Instant};

/// Throttled progress output on stderr.
pub struct Progress {
    enabled: bool,
    start: Instant,
    last: Instant,
    total_bytes: u64,
    shown: bool,
    /// The last phase shown: a new phase is shown at once, repeats are throttled.
    phase: String,
}

impl Progress {
    /// A display; `total_bytes` is the whole input size (for the ETA).
    pub fn new(enabled: bool, total_bytes: u64) -> Progress {
        let now = Instant::now();
        Progress {
            enabled,
            start: now,
            last: now,
            total_bytes,
            shown: false,
            phase: String::new(),
        }
    }

    /// Reports `docs` documents of `what` read, `bytes_done` of the input consumed so far.
    pub fn tick(&mut self, what: &str, docs: u64, bytes_done: u64) {
        if !self.enabled || self.last.elapsed() < Duration::from_millis(500) {
            return;
        }
        self.last = Instant::now();
        let secs = self.start.elapsed().as_secs_f64().max(1e-3);
        let frac = if self.total_bytes > 0 {
            bytes_done as f64 / self.total_bytes as f64
        } else {
            0.0
        };
        let eta = if frac > 0.001 {
            format!("{:.0}s", secs / frac - secs)
        } else {
            "?".into()
        };
        let rate = bytes_done as f64 / secs / 1e6;
        eprint!(
            "\r\x1b[K{what}: {docs} documents · input {:.1}% ({rate:.1} MB/s) · elapsed {secs:.0}s · ETA {eta}",
            frac * 100.0
        );
        let _ = std::io::stderr().flush();
        self.shown = true;
    }

    /// Reports a phase that has no document count (index writing, joins).
    pub fn phase(&mut self, what: &str) {
        if !self.enabled || (self.phase == what && self.last.elapsed() < Duration::from_millis(500))
        {
            return;
        }
        what.clone_into(&mut self.phase);
        self.last = Instant::now();
        eprint!(
            "\r\x1b[K{what} · elapsed {:.0}s",
            self.start.elapsed().as_secs_f64()
        );
        let _ = std::io::stderr().flush();
        self.shown = true;
    }

    /// Clears the line.
    pub fn done(&mut self) {
        if self.shown {
            eprint!("\r\x1b[K");
            let _ = std::io::stderr().flush();
        }
    }
}
