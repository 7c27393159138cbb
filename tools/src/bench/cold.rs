//! Cold runs: per group, the catalog evicted from the page cache, the server restarted and
//! the first requests measured against the disk's own floor.

use std::time::Instant;

use super::args::Args;
use super::drive::{drive_capped, quantile_us, Stats};
use super::report::fmt_us;
use super::server::Server;
use crate::synth::{self, Rng};

/// Pages resident in `after` but not in `before`, per section (sections sharing a page each
/// count it), largest first.
pub(super) fn pages_read_by_section(
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

/// Random page-aligned 4 KiB reads of `path` (just evicted) from `depth` threads, `reads` in
/// all: the disk's reads/s and read latency, the cold runs' counterpart of the HTTP floor.
pub(super) fn disk_floor(
    path: &std::path::Path,
    depth: usize,
    reads: usize,
) -> Result<Stats, String> {
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

/// The cold runs of `sets` (group, targets), printed as tables.
pub(super) fn run(a: &Args, sets: &[(String, Vec<String>)]) -> Result<(), String> {
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
        crate::sys::evict_page_cache(&a.catalog).map_err(|e| e.to_string())?;
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
    let pct = |r: &[bool]| 100.0 * r.iter().filter(|&&x| x).count() as f64 / r.len().max(1) as f64;
    let resident = || crate::sys::resident_map(&a.catalog).map_err(|e| e.to_string());
    let mut reads = Vec::new();
    for (g, set) in sets {
        crate::sys::evict_page_cache(&a.catalog).map_err(|e| e.to_string())?;
        let r0 = resident()?;
        let server = Server::start(a, false, false)?;
        let r1 = resident()?;
        let io0 = crate::sys::device_reads(&a.catalog).ok();
        let cap = a.cold_requests.div_ceil(conns.max(1));
        let s = drive_capped(&server.addr, set, conns, a.cold_secs, 0.0, cap);
        let io1 = crate::sys::device_reads(&a.catalog).ok();
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
    Ok(())
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
}
