//! Support for the robustness tests: a server process whose log is kept and which can be
//! signalled, and a keep-alive HTTP/1.1 client that reads exactly one response at a time.

use std::io::{self, BufRead, BufReader, Write};
use std::net::TcpStream;
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

/// A response read off a keep-alive connection.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the server announced it closes the connection.
    pub fn closes(&self) -> bool {
        self.header("Connection")
            .is_some_and(|v| v.eq_ignore_ascii_case("close"))
    }
}

/// A keep-alive HTTP/1.1 connection.
pub struct Conn {
    r: BufReader<TcpStream>,
}

impl Conn {
    pub fn connect(addr: &str) -> io::Result<Conn> {
        let s = TcpStream::connect(addr)?;
        s.set_read_timeout(Some(Duration::from_secs(10)))?;
        Ok(Conn {
            r: BufReader::new(s),
        })
    }

    /// Sends `GET target` and reads its whole response.
    pub fn get(&mut self, target: &str) -> io::Result<Answer> {
        // One write: `write!` on the socket would send the request in pieces, and Nagle's
        // algorithm against the server's delayed ACK then stalls each request ≈ 40 ms.
        let head = format!("GET {target} HTTP/1.1\r\nHost: x\r\n\r\n");
        self.r.get_mut().write_all(head.as_bytes())?;
        read_answer(&mut self.r, false)
    }
}

fn line(r: &mut impl BufRead) -> io::Result<String> {
    let mut l = String::new();
    if r.read_line(&mut l)? == 0 {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "connection closed",
        ));
    }
    Ok(l.trim_end_matches(['\r', '\n']).to_string())
}

/// Reads one response (Content-Length or chunked body; none for HEAD, 204 and 304).
pub fn read_answer(r: &mut impl BufRead, head: bool) -> io::Result<Answer> {
    let status_line = line(r)?;
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| io::Error::other(format!("bad status line {status_line:?}")))?;
    let mut headers = Vec::new();
    loop {
        let l = line(r)?;
        if l.is_empty() {
            break;
        }
        if let Some((n, v)) = l.split_once(':') {
            headers.push((n.trim().to_string(), v.trim().to_string()));
        }
    }
    let mut a = Answer {
        status,
        headers,
        body: Vec::new(),
    };
    if head || status == 204 || status == 304 {
        return Ok(a);
    }
    if a.header("Transfer-Encoding")
        .is_some_and(|v| v.contains("chunked"))
    {
        loop {
            let n = usize::from_str_radix(line(r)?.trim(), 16).map_err(io::Error::other)?;
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk)?;
            if n == 0 {
                break;
            }
            a.body.extend_from_slice(&chunk[..n]);
        }
    } else if let Some(len) = a.header("Content-Length") {
        let len: usize = len.parse().map_err(io::Error::other)?;
        a.body = vec![0; len];
        r.read_exact(&mut a.body)?;
    } else {
        r.read_to_end(&mut a.body)?;
    }
    Ok(a)
}
