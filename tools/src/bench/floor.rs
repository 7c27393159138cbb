//! The bare floor: the cost of HTTP alone on this machine and loopback.

use std::io::{self, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, ExitCode, Stdio};

use super::server::process_cpu_us;

/// The bare floor: a minimal HTTP/1.1 server in this process, a thread per connection that
/// reads each request head and answers, on the same thread, a fixed JSON body of the
/// `bytes=N` the target asks for (no routing, no handler, no hand-off). What any server on
/// this machine and loopback can reach; varcat's `/api/__floor` is the same body through its
/// whole HTTP path. Returns its address.
pub(super) fn bare_floor() -> io::Result<String> {
    let l = TcpListener::bind("127.0.0.1:0")?;
    let addr = l.local_addr()?.to_string();
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            std::thread::spawn(move || serve_bare(s));
        }
    });
    Ok(addr)
}

/// The body size a floor target asks for (`bytes=N`, 2 B to 16 MiB; 2 when absent).
pub(super) fn asked_bytes(target: &str) -> usize {
    target
        .split("bytes=")
        .nth(1)
        .and_then(|v| v.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(2)
        .clamp(2, 16 << 20)
}

/// Every floor's fixed answer of `n` bytes (at least 2): a JSON array of spaces.
pub(super) fn floor_body(n: usize) -> Vec<u8> {
    let mut body = vec![b' '; n.max(2)];
    let last = body.len() - 1;
    (body[0], body[last]) = (b'[', b']');
    body
}

pub(super) fn serve_bare(s: TcpStream) {
    let _ = s.set_nodelay(true);
    let Ok(mut w) = s.try_clone() else { return };
    let mut r = io::BufReader::new(s);
    let mut line = String::new();
    let mut body: Vec<u8> = Vec::new();
    loop {
        line.clear();
        match io::BufRead::read_line(&mut r, &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let n = asked_bytes(&line);
        loop {
            line.clear();
            match io::BufRead::read_line(&mut r, &mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) if line.trim_end().is_empty() => break,
                Ok(_) => {}
            }
        }
        if body.len() != n {
            body = floor_body(n);
        }
        let mut out = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {n}\r\n\r\n"
        )
        .into_bytes();
        out.extend_from_slice(&body);
        if w.write_all(&out).is_err() {
            return;
        }
    }
}

/// The bare floor again, in a process of its own (this program run with `--serve-bare`): a
/// server in another process pays what the in-process floor does not (switching address spaces
/// on every wake-up), as varcat does; its CPU per request is measured as varcat's is.
pub(super) struct BareProcess {
    pub(super) child: Child,
    pub(super) addr: String,
}

impl BareProcess {
    pub(super) fn start() -> Result<BareProcess, String> {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut child = Command::new(exe)
            .arg("--serve-bare")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("bare floor process: {e}"))?;
        let mut line = String::new();
        let out = child.stdout.take().ok_or("bare floor process: no stdout")?;
        io::BufRead::read_line(&mut io::BufReader::new(out), &mut line)
            .map_err(|e| format!("bare floor process: {e}"))?;
        Ok(BareProcess {
            child,
            addr: line.trim().to_string(),
        })
    }

    pub(super) fn cpu_us(&self) -> f64 {
        process_cpu_us(self.child.id()).unwrap_or(f64::NAN)
    }
}

impl Drop for BareProcess {
    fn drop(&mut self) {
        // Its stdin closing ends it.
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

/// `--serve-bare`: serves the bare floor, prints its address, and exits when stdin closes.
pub(super) fn serve_bare_process() -> ExitCode {
    match bare_floor() {
        Ok(addr) => {
            println!("{addr}");
            let _ = io::stdout().flush();
            let _ = io::copy(&mut io::stdin(), &mut io::sink());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("varcat-bench: bare floor: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::server::open;

    #[test]
    fn test_the_bare_floor_answers_the_asked_size_on_one_connection() {
        let addr = bare_floor().unwrap();
        let mut c = open(&addr).unwrap();
        for n in [10, 2, 5000] {
            let a = c.get(&format!("/api/__floor?bytes={n}")).unwrap();
            assert_eq!((a.status, a.body.len()), (200, n));
            assert_eq!((a.body[0], a.body[n - 1]), (b'[', b']'));
        }
    }
}
