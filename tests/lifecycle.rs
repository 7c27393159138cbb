//! Reload without loss and graceful shutdown, under load: client threads loop requests on
//! keep-alive connections while the catalog is replaced (SIGHUP, atomic rename, a bad file)
//! or the server is stopped (SIGTERM, SIGINT). No request may fail.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::harness::{poll, spawn, Conn};
use crate::util::{build_command, catalog, scratch, testdata, Q};

/// A second, different catalog (genes and gene structures only).
fn small_catalog(dir: &Path) -> PathBuf {
    let input = dir.join("small-in");
    std::fs::create_dir_all(&input).unwrap();
    for f in ["genes.jsonl", "genes_structure.jsonl"] {
        std::fs::copy(testdata().join(f), input.join(f)).unwrap();
    }
    let out = dir.join("small.varcat");
    let st = build_command(&input, &out)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(st.success());
    out
}

/// Copies `from` next to `to` and renames it over `to` (an atomic replacement).
fn replace(from: &Path, to: &Path) {
    let tmp = to.with_extension("incoming");
    std::fs::copy(from, &tmp).unwrap();
    std::fs::rename(&tmp, to).unwrap();
}

struct Load {
    stop: Arc<AtomicBool>,
    done: Arc<AtomicUsize>,
    failures: Arc<Mutex<Vec<String>>>,
    checksums: Arc<Mutex<BTreeSet<String>>>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

/// `n` clients, each looping `/api/health` and a data query on one keep-alive connection
/// (reconnecting when the server closes it), recording every failure and catalog seen.
fn load(addr: &str, n: usize) -> Load {
    let l = Load {
        stop: Arc::new(AtomicBool::new(false)),
        done: Arc::new(AtomicUsize::new(0)),
        failures: Arc::new(Mutex::new(Vec::new())),
        checksums: Arc::new(Mutex::new(BTreeSet::new())),
        threads: Vec::new(),
    };
    let mut threads = Vec::new();
    for _ in 0..n {
        let (addr, stop, done) = (addr.to_string(), l.stop.clone(), l.done.clone());
        let (failures, checksums) = (l.failures.clone(), l.checksums.clone());
        threads.push(std::thread::spawn(move || {
            let mut conn = Conn::connect(&addr).unwrap();
            let mut i = 0usize;
            while !stop.load(Ordering::SeqCst) {
                i += 1;
                let target = if i.is_multiple_of(2) {
                    "/api/health"
                } else {
                    Q
                };
                match conn.get(target) {
                    Ok(a) if a.status == 200 => {
                        if target == "/api/health" {
                            let v: serde_json::Value = serde_json::from_slice(&a.body).unwrap();
                            let sum = v["catalog"]["checksum"].as_str().unwrap().to_string();
                            checksums.lock().unwrap().insert(sum);
                        }
                        done.fetch_add(1, Ordering::SeqCst);
                        if a.closes() {
                            conn = Conn::connect(&addr).unwrap();
                        }
                    }
                    Ok(a) => failures
                        .lock()
                        .unwrap()
                        .push(format!("{target}: status {}", a.status)),
                    Err(e) => {
                        failures.lock().unwrap().push(format!("{target}: {e}"));
                        match Conn::connect(&addr) {
                            Ok(c) => conn = c,
                            Err(_) => return,
                        }
                    }
                }
            }
        }));
    }
    Load { threads, ..l }
}

impl Load {
    /// Waits until some client has seen catalog `sum`; false after `limit`.
    fn waits_for(&self, sum: &str, limit: Duration) -> bool {
        poll(limit, || {
            self.checksums.lock().unwrap().contains(sum).then_some(())
        })
        .is_some()
    }

    fn finish(self) -> (usize, Vec<String>, BTreeSet<String>) {
        self.stop.store(true, Ordering::SeqCst);
        for t in self.threads {
            t.join().unwrap();
        }
        let failures = self.failures.lock().unwrap().clone();
        let sums = self.checksums.lock().unwrap().clone();
        (self.done.load(Ordering::SeqCst), failures, sums)
    }
}

fn checksum_of(addr: &str) -> String {
    let a = Conn::connect(addr).unwrap().get("/api/health").unwrap();
    let v: serde_json::Value = serde_json::from_slice(&a.body).unwrap();
    v["catalog"]["checksum"].as_str().unwrap().to_string()
}

#[test]
fn test_reload_under_load_loses_nothing() {
    let dir = scratch("reload");
    let live = dir.join("live.varcat");
    std::fs::copy(catalog(), &live).unwrap();
    let small = small_catalog(&dir);
    // A bad file: the small catalog with one byte flipped in the middle.
    let bad = dir.join("bad.varcat");
    let mut bytes = std::fs::read(&small).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x5a;
    std::fs::write(&bad, bytes).unwrap();

    let p = spawn(&live, &["--quiet", "--threads", "2"], None);
    let first = checksum_of(&p.addr);
    let l = load(&p.addr, 4);
    let wait = Duration::from_secs(5);
    std::thread::sleep(Duration::from_millis(200));

    // A bad replacement is refused with one line; the old catalog keeps serving.
    replace(&bad, &live);
    let refused = p.wait_log("refused", wait).expect("bad file not refused");
    assert!(refused.contains(&first), "{refused}");
    assert_eq!(checksum_of(&p.addr), first);

    // A good replacement is picked up without a signal.
    replace(&small, &live);
    p.wait_log("on file change in", wait)
        .expect("replacement not picked up");
    let second = checksum_of(&p.addr);
    assert_ne!(second, first);
    // The clients must see it before it is replaced again.
    assert!(l.waits_for(&second, wait), "the clients never saw {second}");

    // SIGHUP reloads (back to the first catalog).
    replace(catalog(), &live);
    p.signal("HUP");
    p.wait_log("on SIGHUP in", wait)
        .expect("SIGHUP not handled");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(checksum_of(&p.addr), first);

    let (done, failures, sums) = l.finish();
    assert!(failures.is_empty(), "failed requests: {failures:?}");
    assert!(done > 100, "only {done} requests");
    assert!(
        sums.contains(&first) && sums.contains(&second),
        "the clients saw {sums:?}"
    );
    // The log comes through a pipe and a reader thread: it may trail the answers.
    let reloads = || p.log().iter().filter(|l| l.contains("reload")).count();
    let enough = poll(Duration::from_secs(10), || (reloads() >= 3).then_some(()));
    assert!(enough.is_some(), "{:?}", p.log());
}

#[test]
fn test_sigterm_drains_in_flight_requests() {
    // Slow answers (100 ms each, two workers) so requests are in flight and queued at SIGTERM.
    let mut p = spawn(
        catalog(),
        &["--quiet", "--threads", "2", "--debug-delay-ms", "100"],
        None,
    );
    let closed = Arc::new(AtomicUsize::new(0));
    let failures = Arc::new(Mutex::new(Vec::<String>::new()));
    let answered = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> = (0..6)
        .map(|_| {
            let (addr, closed, failures, answered) = (
                p.addr.clone(),
                closed.clone(),
                failures.clone(),
                answered.clone(),
            );
            std::thread::spawn(move || {
                let mut conn = Conn::connect(&addr).unwrap();
                loop {
                    match conn.get(Q) {
                        Ok(a) if a.status == 200 => {
                            answered.fetch_add(1, Ordering::SeqCst);
                            if a.closes() {
                                closed.fetch_add(1, Ordering::SeqCst);
                                return;
                            }
                        }
                        Ok(a) => {
                            failures
                                .lock()
                                .unwrap()
                                .push(format!("status {}", a.status));
                            return;
                        }
                        Err(e) => {
                            failures.lock().unwrap().push(e.to_string());
                            return;
                        }
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(600));
    let before = answered.load(Ordering::SeqCst);
    p.signal("TERM");
    let st = p
        .wait_exit(Duration::from_secs(10))
        .expect("server did not exit");
    assert!(st.success(), "exit status {st:?}: {:?}", p.log());
    for c in clients {
        c.join().unwrap();
    }
    let failures = failures.lock().unwrap().clone();
    assert!(failures.is_empty(), "failed requests: {failures:?}");
    // Every client got its in-flight request answered, with Connection: close.
    assert_eq!(closed.load(Ordering::SeqCst), 6);
    assert!(answered.load(Ordering::SeqCst) >= before + 6);
    assert!(std::net::TcpStream::connect(&p.addr).is_err());
    assert!(p
        .wait_log("stopped (0 requests", Duration::from_secs(1))
        .is_some());
}

#[test]
fn test_sigint_stops_an_idle_server() {
    let mut p = spawn(catalog(), &["--quiet"], None);
    assert_eq!(Conn::connect(&p.addr).unwrap().get(Q).unwrap().status, 200);
    p.signal("INT");
    let st = p
        .wait_exit(Duration::from_secs(5))
        .expect("server did not exit");
    assert!(st.success(), "exit status {st:?}");
}

#[test]
fn test_second_stop_signal_exits_at_once() {
    // A request that takes 20 s is in flight: the first SIGTERM waits for it, a second one
    // exits at once with status 1.
    let mut p = spawn(catalog(), &["--quiet", "--debug-delay-ms", "20000"], None);
    let addr = p.addr.clone();
    let slow = std::thread::spawn(move || Conn::connect(&addr).unwrap().get(Q));
    std::thread::sleep(Duration::from_millis(300));
    p.signal("TERM");
    assert!(p.wait_log("stopping", Duration::from_secs(10)).is_some());
    p.signal("TERM");
    // Well before the 20 s request (or the 10 s drain limit) could have ended.
    let st = p
        .wait_exit(Duration::from_secs(8))
        .expect("second SIGTERM did not exit");
    assert_eq!(st.code(), Some(1));
    assert!(slow.join().unwrap().is_err(), "the slow request was cut");
}
