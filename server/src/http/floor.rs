//! Benchmark aids, compiled only into a bench build (the `bench-floor` feature, which no
//! workspace package enables, so the shipped binary never has them; the module is also built
//! for its unit tests):
//!
//! - `GET {base}/__floor?bytes=N` answers a fixed JSON body of N bytes (2 ≤ N ≤ 16 MiB) through
//!   the same server, worker and response path as an endpoint, without routing or a handler: the
//!   HTTP floor BENCHMARKS.md compares every endpoint with.
//! - `GET {base}/__floor/handler` answers `{"requests":N,"handler_ns":T}`: how many requests the
//!   server has answered through [`App::answer`](crate::http::App::answer) and the nanoseconds
//!   they took there ([`HANDLER`]), so the bench can split the CPU per request measured in the
//!   server into the handler's share and the HTTP path's.
//!
//! Neither is in the endpoint table.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use varcat_query::handler::Answer;

/// The path (below the base path) of the handler clock's reading.
const CLOCK_PATH: &str = "/__floor/handler";

/// The body size `{rest}?{query}` (below the base path) asks the floor for, if it is the floor.
pub fn bytes(rest: &str, query: &str) -> Option<usize> {
    if rest != "/__floor" {
        return None;
    }
    let n: usize = query.strip_prefix("bytes=")?.parse().ok()?;
    (2..=16 << 20).contains(&n).then_some(n)
}

/// A fixed body of `n` bytes: `[`, spaces, `]`.
pub fn answer(n: usize) -> Answer {
    let mut body = vec![b' '; n];
    (body[0], body[n - 1]) = (b'[', b']');
    body.into()
}

/// Time spent answering requests, summed over every worker thread of the process.
#[derive(Debug, Default)]
pub struct HandlerClock {
    requests: AtomicU64,
    nanos: AtomicU64,
}

/// A reading of a [`HandlerClock`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    pub requests: u64,
    pub nanos: u64,
}

/// The server's handler clock: `answer` in `server.rs` adds every request it times.
pub static HANDLER: HandlerClock = HandlerClock::new();

impl HandlerClock {
    pub const fn new() -> HandlerClock {
        HandlerClock {
            requests: AtomicU64::new(0),
            nanos: AtomicU64::new(0),
        }
    }

    /// Counts one request that took `nanos`.
    pub fn add(&self, nanos: u64) {
        // Relaxed: the two sums are read together only between runs, when no request is in
        // flight, and each is exact on its own.
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// Counts the request to `url` answered since `start`, unless it reads this clock (a
    /// reading taken around a run must not add itself to the run).
    pub fn time(&self, url: &str, start: Instant) {
        let path = url.split(['?', '#']).next().unwrap_or("");
        if !path.ends_with(CLOCK_PATH) {
            self.add(start.elapsed().as_nanos().min(u64::MAX as u128) as u64);
        }
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            requests: self.requests.load(Ordering::Relaxed),
            nanos: self.nanos.load(Ordering::Relaxed),
        }
    }
}

/// Whether `rest` (below the base path) asks for the handler clock's reading.
pub fn is_clock(rest: &str) -> bool {
    rest == CLOCK_PATH
}

/// The reading of `clock` as the JSON body `{"requests":N,"handler_ns":T}`.
pub fn clock_answer(clock: &HandlerClock) -> Answer {
    let s = clock.snapshot();
    let mut answer = Answer::from(
        format!("{{\"requests\":{},\"handler_ns\":{}}}", s.requests, s.nanos).into_bytes(),
    );
    // A reading of a counter: never from a cache.
    answer.headers.push(("Cache-Control", "no-store".into()));
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_floor_sizes() {
        assert_eq!(bytes("/__floor", "bytes=2"), Some(2));
        assert_eq!(bytes("/__floor", "bytes=1"), None);
        assert_eq!(bytes("/__floor", "bytes=16777217"), None);
        assert_eq!(bytes("/genes", "bytes=10"), None);
        assert_eq!(answer(4).body, b"[  ]");
    }

    #[test]
    fn test_the_handler_clock_sums_requests_and_leaves_its_own_readings_out() {
        let clock = HandlerClock::new();
        assert_eq!(clock.snapshot(), Snapshot::default());
        clock.add(1500);
        clock.add(500);
        assert_eq!(
            clock.snapshot(),
            Snapshot {
                requests: 2,
                nanos: 2000
            }
        );
        let t = Instant::now();
        clock.time("/api/__floor/handler", t);
        clock.time("/api/__floor/handler?x=1", t);
        assert_eq!(clock.snapshot().requests, 2);
        clock.time("/api/variants?rsid=rs1", t);
        let s = clock.snapshot();
        assert_eq!(s.requests, 3);
        assert!(s.nanos >= 2000);
        // Summed across threads without loss.
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| (0..1000).for_each(|_| clock.add(1)));
            }
        });
        assert_eq!(clock.snapshot().requests, 4003);
        assert_eq!(clock.snapshot().nanos, s.nanos + 4000);
        let body: serde_json::Value = serde_json::from_slice(&clock_answer(&clock).body).unwrap();
        assert_eq!(body["requests"], 4003);
        assert_eq!(body["handler_ns"], s.nanos + 4000);
        assert!(is_clock("/__floor/handler"));
        assert!(!is_clock("/__floor"));
        assert_eq!(bytes("/__floor/handler", "bytes=10"), None);
    }
}
