//! Peer servers as extra floors, each in a process of its own and measured like the bare one:
//! h2o (the fixed body as a static file) and a minimal axum server (a tokio runtime, the fixed
//! body from memory), each with `--peer-threads` threads (one by default: h2o's one event loop,
//! axum on a current-thread runtime; more: h2o's threads, axum on a multi-thread runtime). What the field's servers add
//! per keep-alive request on this machine, next to what varcat adds.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use super::server::{open, process_cpu_us};

/// A peer server: its process, address and how it is asked for a body of N bytes.
pub(super) struct Peer {
    pub(super) name: &'static str,
    child: Child,
    pub(super) addr: String,
    /// h2o's document root (one file per answer size), removed when the peer stops.
    root: Option<PathBuf>,
}

impl Peer {
    /// Every peer that starts; for each that does not, a line saying why.
    pub(super) fn start_all(threads: usize) -> Vec<Peer> {
        let mut peers = Vec::new();
        for (name, start) in [
            ("h2o", Peer::h2o as fn(usize) -> Result<Peer, String>),
            ("axum", Peer::axum),
        ] {
            match start(threads) {
                Ok(p) => peers.push(p),
                Err(why) => println!("\n{name} floor skipped: {why}"),
            }
        }
        peers
    }

    /// h2o (`/usr/sbin/h2o` or on `PATH`; Debian's package `h2o`) with `threads` threads,
    /// serving the document root.
    fn h2o(threads: usize) -> Result<Peer, String> {
        let bin = ["/usr/sbin/h2o", "/usr/bin/h2o"]
            .into_iter()
            .map(PathBuf::from)
            .find(|p| p.exists())
            .ok_or("h2o is not installed (Debian: apt-get install h2o)")?;
        let root = std::env::temp_dir().join(format!("varcat-bench-h2o-{}", std::process::id()));
        let files = root.join("files");
        std::fs::create_dir_all(&files).map_err(|e| format!("{}: {e}", files.display()))?;
        let port = free_port()?;
        let conf = root.join("h2o.conf");
        std::fs::write(
            &conf,
            format!(
                "listen:\n  host: 127.0.0.1\n  port: {port}\nnum-threads: {threads}\n\
                 hosts:\n  \"default\":\n    paths:\n      \"/\":\n        file.dir: {}\n",
                files.display()
            ),
        )
        .map_err(|e| format!("{}: {e}", conf.display()))?;
        let child = Command::new(bin)
            .arg("-c")
            .arg(&conf)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("h2o: {e}"))?;
        let peer = Peer {
            name: "h2o",
            child,
            addr: format!("127.0.0.1:{port}"),
            root: Some(root),
        };
        peer.wait_ready()?;
        Ok(peer)
    }

    /// The axum floor: this program run with `--serve-axum THREADS`.
    fn axum(threads: usize) -> Result<Peer, String> {
        if !cfg!(feature = "peer-floors") {
            return Err("varcat-tools was built without its peer-floors feature".into());
        }
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut child = Command::new(exe)
            .arg("--serve-axum")
            .arg(threads.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("axum floor process: {e}"))?;
        let mut line = String::new();
        let out = child.stdout.take().ok_or("axum floor process: no stdout")?;
        io::BufReader::new(out)
            .read_line(&mut line)
            .map_err(|e| format!("axum floor process: {e}"))?;
        let peer = Peer {
            name: "axum",
            child,
            addr: line.trim().to_string(),
            root: None,
        };
        peer.wait_ready()?;
        Ok(peer)
    }

    /// Waits (10 s at most) until the peer accepts connections.
    fn wait_ready(&self) -> Result<(), String> {
        let t = Instant::now();
        while open(&self.addr).is_err() {
            if t.elapsed() > Duration::from_secs(10) {
                return Err(format!("{} did not listen on {}", self.name, self.addr));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(())
    }

    /// The target that answers the floor body of `size` bytes (for h2o, its file is written
    /// first).
    pub(super) fn target(&self, size: usize) -> Result<String, String> {
        let Some(root) = &self.root else {
            return Ok(format!("/api/__floor?bytes={size}"));
        };
        let name = format!("floor-{size}.json");
        let path = root.join("files").join(&name);
        if !path.exists() {
            std::fs::write(&path, super::floor::floor_body(size))
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        Ok(format!("/{name}"))
    }

    /// The peer's CPU time so far (all threads, user + system), in µs.
    pub(super) fn cpu_us(&self) -> f64 {
        process_cpu_us(self.child.id()).unwrap_or(f64::NAN)
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(root) = &self.root {
            let _ = std::fs::remove_dir_all(root);
        }
    }
}

/// A loopback port free a moment ago (for a peer that must be told its port).
fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}

/// `--serve-axum [THREADS]`: serves the floor body (`/api/__floor?bytes=N`) with axum on a
/// tokio runtime of THREADS threads (1, the default: a current-thread runtime), prints its
/// address, and exits when stdin closes.
pub(super) fn serve_axum_process() -> ExitCode {
    let threads = std::env::args()
        .nth(2)
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    match serve_axum(threads) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("varcat-bench: axum floor: {e}");
            ExitCode::from(2)
        }
    }
}

/// Binds the axum floor, prints its address, serves until stdin closes.
fn serve_axum(threads: usize) -> io::Result<()> {
    let l = std::net::TcpListener::bind("127.0.0.1:0")?;
    println!("{}", l.local_addr()?);
    io::stdout().flush()?;
    std::thread::spawn(|| {
        let _ = io::copy(&mut io::stdin(), &mut io::sink());
        std::process::exit(0);
    });
    run_axum(l, threads)
}

/// Serves the axum floor on `l` for ever, on `threads` threads.
#[cfg(feature = "peer-floors")]
fn run_axum(l: std::net::TcpListener, threads: usize) -> io::Result<()> {
    use axum::body::Bytes;
    use axum::extract::RawQuery;
    use axum::http::header::CONTENT_TYPE;
    use axum::serve::ListenerExt;
    use std::cell::RefCell;
    use std::collections::HashMap;

    thread_local! {
        /// Bodies by size, made once: each answer shares its bytes.
        static BODIES: RefCell<HashMap<usize, Bytes>> = RefCell::new(HashMap::new());
    }
    async fn floor(RawQuery(q): RawQuery) -> ([(axum::http::HeaderName, &'static str); 1], Bytes) {
        let n = super::floor::asked_bytes(q.as_deref().unwrap_or(""));
        let body = BODIES.with(|b| {
            b.borrow_mut()
                .entry(n)
                .or_insert_with(|| Bytes::from(super::floor::floor_body(n)))
                .clone()
        });
        ([(CONTENT_TYPE, "application/json")], body)
    }

    let rt = match threads {
        1 => tokio::runtime::Builder::new_current_thread(),
        n => {
            let mut b = tokio::runtime::Builder::new_multi_thread();
            b.worker_threads(n);
            b
        }
    }
    .enable_io()
    .build()?;
    l.set_nonblocking(true)?;
    rt.block_on(async {
        let l = tokio::net::TcpListener::from_std(l)?.tap_io(|s| {
            let _ = s.set_nodelay(true);
        });
        let app = axum::Router::new().route("/api/__floor", axum::routing::get(floor));
        axum::serve(l, app).await
    })
}

#[cfg(not(feature = "peer-floors"))]
fn run_axum(_: std::net::TcpListener, _: usize) -> io::Result<()> {
    Err(io::Error::other(
        "varcat-tools was built without its peer-floors feature",
    ))
}

#[cfg(all(test, feature = "peer-floors"))]
mod tests {
    use super::*;

    #[test]
    fn test_the_axum_floor_answers_the_asked_size_on_one_connection() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        std::thread::spawn(move || run_axum(l, 1));
        let mut c = open(&addr).unwrap();
        for n in [10, 2, 5000] {
            let a = c.get(&format!("/api/__floor?bytes={n}")).unwrap();
            assert_eq!((a.status, a.body.len()), (200, n));
            assert_eq!((a.body[0], a.body[n - 1]), (b'[', b']'));
            assert_eq!(a.header("Content-Type"), Some("application/json"));
        }
    }
}
