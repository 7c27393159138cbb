//! Allocations per warm keep-alive request, counted over the whole server (tiny_http's reading,
//! routing, parameters, handler, JSON, the answer's head and its write) in a process of its
//! own: a global allocator counts every allocation, and the client below allocates nothing
//! while it counts. Each allocation and free is a cost the floor does not pay; these budgets
//! keep them from creeping back (the table scan of the router once cost a vector per endpoint
//! tried, 18 allocations of a point look-up's 42).

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed to the system allocator unchanged; only a counter is added.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The test catalog, built by the real `varcat build` into a scratch directory.
fn catalog() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("varcat-allocations-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("test.varcat");
    let st = Command::new(env!("CARGO_BIN_EXE_varcat"))
        .arg("build")
        .arg(root.join("testdata/catalog"))
        .arg("-o")
        .arg(&out)
        .arg("--quiet")
        .status()
        .unwrap();
    assert!(st.success(), "varcat build failed");
    out
}

/// A keep-alive client that reads answers into one buffer sized up front.
struct Client {
    s: TcpStream,
    buf: Vec<u8>,
    /// Where the last answer's body lies in `buf`.
    body: std::ops::Range<usize>,
}

impl Client {
    /// Sends `request` (whole, with its blank line) and reads the answer; its status.
    fn ask(&mut self, request: &[u8]) -> u16 {
        self.s.write_all(request).unwrap();
        let mut have = 0;
        loop {
            let n = self.s.read(&mut self.buf[have..]).unwrap();
            assert!(n > 0, "the server closed the connection");
            have += n;
            let Some(end) = self.buf[..have].windows(4).position(|w| w == b"\r\n\r\n") else {
                continue;
            };
            let head = &self.buf[..end];
            let length = head
                .split(|&b| b == b'\n')
                .find_map(|line| {
                    let line = line.strip_suffix(b"\r").unwrap_or(line);
                    let (name, value) = line.split_at(line.iter().position(|&b| b == b':')?);
                    name.eq_ignore_ascii_case(b"content-length").then(|| {
                        std::str::from_utf8(&value[1..])
                            .unwrap()
                            .trim()
                            .parse::<usize>()
                            .unwrap()
                    })
                })
                .expect("a Content-Length");
            while have < end + 4 + length {
                let n = self.s.read(&mut self.buf[have..]).unwrap();
                assert!(n > 0, "the server closed the connection");
                have += n;
            }
            assert_eq!(have, end + 4 + length, "bytes past the answer");
            self.body = end + 4..have;
            return std::str::from_utf8(&self.buf[9..12])
                .unwrap()
                .parse()
                .unwrap();
        }
    }

    /// Allocations per request over `n` requests of `request` (after as many to warm up),
    /// whose answer must not be an empty list (an answer that renders nothing costs nothing).
    fn allocations_per_request(&mut self, request: &[u8], n: u64) -> f64 {
        for _ in 0..n {
            assert_eq!(self.ask(request), 200);
        }
        let body = &self.buf[self.body.clone()];
        assert!(
            !body.is_empty() && body != b"[]",
            "an empty answer: {}",
            String::from_utf8_lossy(request)
        );
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        for _ in 0..n {
            self.ask(request);
        }
        (ALLOCATIONS.load(Ordering::SeqCst) - before) as f64 / n as f64
    }
}

#[test]
fn test_warm_keep_alive_requests_stay_within_their_allocation_budgets() {
    let cat = catalog();
    let loaded = varcat_server::http::Loaded::open(&cat, false).unwrap();
    let app = Arc::new(varcat_server::http::App::new(loaded, "/api"));
    let opts = varcat_server::server::Options {
        addr: "127.0.0.1:0".into(),
        threads: 2,
        queue: 16,
        max_connections: 16,
        access_log: false,
        debug_delay_ms: 0,
        verify: false,
        write_timeout_ms: 10_000,
        idle_timeout_ms: 60_000,
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        varcat_server::server::serve(app, &opts, |addr| tx.send(addr).unwrap()).unwrap()
    });
    let addr = rx.recv_timeout(Duration::from_secs(30)).unwrap();
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s.set_nodelay(true).unwrap();
    let mut client = Client {
        s,
        buf: vec![0; 4 << 20],
        body: 0..0,
    };
    // (target, budget): what a warm request may allocate, all threads of the process.
    let budgets = [
        ("/api/health", 0.0),
        ("/api/variants?spdi=NC_000020.11:9564584:T:C", 14.0),
        (
            "/api/variants/freq?source=bravo_af&spdi=NC_000020.11:9564584:T:C",
            15.0,
        ),
        ("/api/genes?gene_id=ENSG00000101349", 11.0),
    ];
    let mut seen = Vec::with_capacity(budgets.len());
    for (target, budget) in budgets {
        let request = format!("GET {target} HTTP/1.1\r\nHost: x\r\n\r\n").into_bytes();
        let per = client.allocations_per_request(&request, 300);
        seen.push((target, per, budget));
    }
    for (target, per, budget) in seen {
        eprintln!("{target}: {per:.2} allocations a request (budget {budget})");
        // A background thread (the catalog watcher) may allocate now and then: half an
        // allocation a request of slack.
        assert!(
            per <= budget + 0.5,
            "{target}: {per:.2} allocations a request, budget {budget}"
        );
    }
    let _ = std::fs::remove_dir_all(cat.parent().unwrap());
}
