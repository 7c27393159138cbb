//! An answer on the wire: the status line and headers formatted into a buffer the caller
//! keeps (no allocation per answer), with the `Date` of the request and the body's framing.

use std::time::Instant;

use crate::http::{self, Response};

/// Appends `n` in decimal.
fn push_decimal(out: &mut Vec<u8>, n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// How an answer's body is framed on the wire.
pub enum Framing {
    /// No body (204, 304).
    None,
    /// `Content-Length`.
    Length(usize),
    /// `Transfer-Encoding: chunked` (a streamed answer on HTTP/1.1).
    Chunked,
    /// Bytes up to the connection's close (a streamed answer on HTTP/1.0).
    UntilClose,
}

/// Appends the status line and headers of `resp`, then `Date` (of `now`), the framing's header
/// and `Connection: close` when `close` (tiny_http drops a `Connection` header given to it). A
/// header value with a line break is dropped (no header can be split into two).
pub fn head(resp: &Response, framing: Framing, close: bool, now: Instant, out: &mut Vec<u8>) {
    out.extend_from_slice(b"HTTP/1.1 ");
    push_decimal(out, resp.status.into());
    out.push(b' ');
    out.extend_from_slice(
        tiny_http::StatusCode(resp.status)
            .default_reason_phrase()
            .as_bytes(),
    );
    out.extend_from_slice(b"\r\n");
    for (n, v) in &resp.headers {
        if !v.contains(['\r', '\n']) {
            out.extend_from_slice(n.as_bytes());
            out.extend_from_slice(b": ");
            out.extend_from_slice(v.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
    }
    out.extend_from_slice(b"Date: ");
    http::write_date(now, out);
    out.extend_from_slice(b"\r\n");
    match framing {
        Framing::Length(n) => {
            out.extend_from_slice(b"Content-Length: ");
            push_decimal(out, n);
            out.extend_from_slice(b"\r\n");
        }
        Framing::Chunked => out.extend_from_slice(b"Transfer-Encoding: chunked\r\n"),
        Framing::None | Framing::UntilClose => {}
    }
    if close {
        out.extend_from_slice(b"Connection: close\r\n");
    }
    out.extend_from_slice(b"\r\n");
}

/// A status whose answer has no body, nor a `Content-Length` (RFC 9110 §15.3.5, §15.4.5).
fn has_no_body(status: u16) -> bool {
    matches!(status, 204 | 304)
}

/// Whether the answer to a request (`head_only` for HEAD) carries `resp`'s body.
pub fn sends_body(resp: &Response, head_only: bool) -> bool {
    !head_only && !has_no_body(resp.status)
}

/// Appends the bytes of `resp` on the wire (sent in one write): the head with `Content-Length`
/// (none on 204/304), then the body unless `head_only`.
pub fn wire(resp: &Response, head_only: bool, close: bool, now: Instant, out: &mut Vec<u8>) {
    let framing = if has_no_body(resp.status) {
        Framing::None
    } else {
        Framing::Length(resp.body.len())
    };
    let with_body = sends_body(resp, head_only);
    out.reserve(256 + if with_body { resp.body.len() } else { 0 });
    head(resp, framing, close, now, out);
    if with_body {
        out.extend_from_slice(&resp.body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_an_answer_is_written_byte_for_byte() {
        let resp = Response {
            status: 200,
            headers: vec![
                ("Content-Type", "application/json".into()),
                ("ETag", String::from("W/\"1\"").into()),
                ("X-Split", "a\r\nInjected: 1".into()),
            ],
            body: b"[1]".to_vec(),
        };
        let mut out = Vec::new();
        let mut date = Vec::new();
        let now = Instant::now();
        http::write_date(now, &mut date);
        wire(&resp, false, false, now, &mut out);
        let date = String::from_utf8(date).unwrap();
        let want = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: W/\"1\"\r\n\
             Date: {date}\r\nContent-Length: 3\r\n\r\n[1]"
        );
        assert_eq!(String::from_utf8(out.clone()).unwrap(), want);
        out.clear();
        wire(&resp, true, true, now, &mut out);
        let want = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: W/\"1\"\r\n\
             Date: {date}\r\nContent-Length: 3\r\nConnection: close\r\n\r\n"
        );
        assert_eq!(String::from_utf8(out.clone()).unwrap(), want, "HEAD");
        out.clear();
        let not_modified = Response {
            status: 304,
            headers: Vec::new(),
            body: Vec::new(),
        };
        wire(&not_modified, false, false, now, &mut out);
        let want = format!("HTTP/1.1 304 Not Modified\r\nDate: {date}\r\n\r\n");
        assert_eq!(String::from_utf8(out).unwrap(), want);
        // The one rule both ways of sending follow (a large body goes apart from its head).
        assert!(!sends_body(&not_modified, false));
        assert!(sends_body(&resp, false) && !sends_body(&resp, true));
    }

    #[test]
    fn test_decimal() {
        for n in [0, 7, 10, 1234567, usize::MAX] {
            let mut out = Vec::new();
            push_decimal(&mut out, n);
            assert_eq!(String::from_utf8(out).unwrap(), n.to_string());
        }
    }
}
