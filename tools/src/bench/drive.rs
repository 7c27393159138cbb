//! The load: closed-loop keep-alive connections, one thread each, and their latencies.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Barrier;
use std::time::{Duration, Instant};

use super::server::open;

#[derive(Clone, Debug, Default)]
pub(super) struct Stats {
    pub(super) requests: u64,
    pub(super) secs: f64,
    pub(super) p50_us: f64,
    pub(super) p99_us: f64,
    pub(super) max_us: f64,
    pub(super) mean_bytes: f64,
    pub(super) non_200: u64,
    pub(super) errors: u64,
    /// Every answer received, warm-up included (what the server did the work for).
    pub(super) served: u64,
}

impl Stats {
    pub(super) fn rps(&self) -> f64 {
        self.requests as f64 / self.secs.max(1e-9)
    }
}

/// Drives `urls` over `conns` connections for `secs` seconds (after `warmup` seconds whose
/// requests are not counted); each connection walks the list from its own offset.
pub(super) fn drive(addr: &str, urls: &[String], conns: usize, secs: f64, warmup: f64) -> Stats {
    drive_capped(addr, urls, conns, secs, warmup, usize::MAX)
}

/// [`drive`], each connection stopping after `cap` requests.
pub(super) fn drive_capped(
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

/// The `f` quantile of latencies sorted ascending, in units of 100 ns, as µs (0 when empty).
pub(super) fn quantile_us(sorted: &[u32], f: f64) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n => sorted[((n as f64 * f) as usize).min(n - 1)] as f64 / 10.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_quantiles_of_sorted_latencies() {
        assert_eq!(quantile_us(&[], 0.5), 0.0);
        let l: Vec<u32> = (1..=100).collect();
        assert_eq!(quantile_us(&l, 0.5), 5.1);
        assert_eq!(quantile_us(&l, 0.99), 10.0);
        assert_eq!(quantile_us(&l, 1.0), 10.0);
    }
}
