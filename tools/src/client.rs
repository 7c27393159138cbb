//! The one HTTP/1.1 client of the load tools and the end-to-end tests: keep-alive connections
//! sending a request in one write and reading its whole answer (Content-Length, chunked, or to
//! the close), and one-shot `Connection: close` requests.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A response: status, headers in order, and the body (de-chunked).
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    /// The first header of this name (case-insensitive).
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

    /// The body as JSON; panics (naming the body) when it is not.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The body as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// A keep-alive HTTP/1.1 connection.
pub struct Conn {
    r: BufReader<TcpStream>,
}

impl Conn {
    /// Connects with `TCP_NODELAY` and a 10 s read timeout.
    pub fn connect(addr: &str) -> io::Result<Conn> {
        let s = TcpStream::connect(addr)?;
        s.set_nodelay(true)?;
        s.set_read_timeout(Some(Duration::from_secs(10)))?;
        Ok(Conn {
            r: BufReader::with_capacity(1 << 16, s),
        })
    }

    /// How long a read may wait (a cold server can take longer than the default).
    pub fn set_read_timeout(&self, t: Duration) -> io::Result<()> {
        self.r.get_ref().set_read_timeout(Some(t))
    }

    /// Sends `GET target` and reads its whole answer.
    pub fn get(&mut self, target: &str) -> io::Result<Answer> {
        self.send("GET", target, &[])
    }

    /// Sends one request with these extra headers and reads its whole answer.
    pub fn send(
        &mut self,
        method: &str,
        target: &str,
        headers: &[(&str, &str)],
    ) -> io::Result<Answer> {
        write_request(self.r.get_mut(), method, target, headers)?;
        read_answer(&mut self.r, method == "HEAD")
    }
}

/// Sends one request on a fresh connection with `Connection: close` and reads until the server
/// closes it (read timeout 20 s); see [`parse_response`].
pub fn request(
    addr: &str,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
) -> io::Result<Answer> {
    let mut c = Conn::connect(addr)?;
    c.set_read_timeout(Duration::from_secs(20))?;
    let mut all = vec![("Connection", "close")];
    all.extend_from_slice(headers);
    write_request(c.r.get_mut(), method, target, &all)?;
    let mut raw = Vec::new();
    c.r.read_to_end(&mut raw)?;
    parse_response(&raw, method == "HEAD")
}

/// Writes a request head (no body) in one write: in pieces it would meet Nagle's algorithm
/// against the server's delayed ACK and stall ≈ 40 ms.
fn write_request(
    s: &mut TcpStream,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
) -> io::Result<()> {
    let mut req = format!("{method} {target} HTTP/1.1\r\nHost: varcat\r\n");
    for (n, v) in headers {
        req.push_str(&format!("{n}: {v}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes())
}

/// Parses everything a server sent on a connection it then closed: one answer, and whatever
/// follows it (bytes a HEAD answer must not have, a body beyond its length) appended to the
/// body, where a test sees it.
pub fn parse_response(raw: &[u8], head: bool) -> io::Result<Answer> {
    let mut rest = raw;
    let mut a = read_answer(&mut rest, head)?;
    a.body.extend_from_slice(rest);
    Ok(a)
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

/// Reads one answer: status line, headers, and the body by Content-Length, chunks, or to the
/// close (none for HEAD, 204 and 304).
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
            let start = a.body.len();
            a.body.resize(start + n + 2, 0);
            r.read_exact(&mut a.body[start..])?;
            a.body.truncate(start + n);
            if n == 0 {
                break;
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_bodies_by_length_chunks_and_close() {
        let raw = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n\r\nrest";
        let mut r = &raw[..];
        let a = read_answer(&mut r, false).unwrap();
        assert_eq!((a.status, &a.body[..]), (200, &b"ok"[..]));
        let b = read_answer(&mut r, false).unwrap();
        assert_eq!((b.status, &b.body[..]), (404, &b"abcde"[..]));
        assert_eq!(b.header("transfer-encoding"), Some("chunked"));
        let c = read_answer(&mut r, false).unwrap();
        assert_eq!(c.body, b"rest");
    }

    #[test]
    fn test_what_follows_a_closed_answer_is_body() {
        let a = parse_response(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc", true).unwrap();
        assert_eq!(a.body, b"abc", "a HEAD answer's stray body shows");
        let b = parse_response(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxy", false).unwrap();
        assert_eq!(b.body, b"xy");
    }
}
