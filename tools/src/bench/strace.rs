//! System calls per request, counted by `strace -c -f`.

use std::process::{Command, Stdio};
use std::time::Duration;

use super::server::open;

/// Requests of a group sent over one warm keep-alive connection while `strace -c -f` counts
/// every system call of the server's process (all threads).
pub(super) const STRACE_REQUESTS: usize = 2000;

/// System calls of process `pid` per request while [`STRACE_REQUESTS`] of `urls` go over one
/// warm keep-alive connection, counted by `strace -c -f -p` (all threads, every kind): the
/// total and the calls of more than 0.05 a request by name. `None` when strace cannot attach.
pub(super) fn syscalls_per_request(pid: u32, addr: &str, urls: &[String]) -> Option<(f64, String)> {
    let mut c = open(addr).ok()?;
    c.get(&urls[0]).ok()?;
    let out = std::env::temp_dir().join(format!("varcat-bench-strace-{}", std::process::id()));
    let mut st = Command::new("strace")
        .args(["-c", "-f", "-qq", "-o"])
        .arg(&out)
        .args(["-p", &pid.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    // strace attaches to every thread before it counts; there is no signal that it has.
    std::thread::sleep(Duration::from_millis(500));
    let mut ok = true;
    for i in 0..STRACE_REQUESTS {
        ok &= c.get(&urls[i % urls.len()]).is_ok();
    }
    let _ = Command::new("kill")
        .args(["-INT", &st.id().to_string()])
        .status();
    let _ = st.wait();
    let text = std::fs::read_to_string(&out).ok();
    let _ = std::fs::remove_file(&out);
    let calls = parse_strace_summary(&text?);
    if !ok || calls.is_empty() {
        return None;
    }
    let n = STRACE_REQUESTS as f64;
    let total = calls.iter().map(|c| c.1).sum::<u64>() as f64 / n;
    let named: Vec<String> = calls
        .iter()
        .filter(|c| c.1 as f64 / n > 0.05)
        .map(|(name, k)| format!("{name} {:.2}", *k as f64 / n))
        .collect();
    Some((total, named.join(", ")))
}

/// The rows of a `strace -c` summary: (system call, calls), most calls first; the total row
/// left out.
pub(super) fn parse_strace_summary(text: &str) -> Vec<(String, u64)> {
    let mut rows: Vec<(String, u64)> = text
        .lines()
        .filter_map(|l| {
            // "% time  seconds  usecs/call  calls  [errors]  syscall"
            let t: Vec<&str> = l.split_whitespace().collect();
            if !(5..=6).contains(&t.len()) || t[0].parse::<f64>().is_err() {
                return None;
            }
            let name = t[t.len() - 1];
            (name != "total").then(|| Some((name.to_string(), t[3].parse().ok()?)))?
        })
        .collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_strace_summary_rows_are_read_with_or_without_errors() {
        let text = "\
% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 60.00    0.000030          15         2           sendto
 30.00    0.000015           7         2         1 recvfrom
 10.00    0.000005           5         1           futex
------ ----------- ----------- --------- --------- ----------------
100.00    0.000050          10         5         1 total
";
        assert_eq!(
            parse_strace_summary(text),
            vec![
                ("recvfrom".to_string(), 2),
                ("sendto".to_string(), 2),
                ("futex".to_string(), 1)
            ]
        );
        assert!(
            parse_strace_summary("strace: attach: ptrace(PTRACE_SEIZE, 1): denied\n").is_empty()
        );
    }
}
