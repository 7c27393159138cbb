//! Hostile requests, end to end on loopback: thousands of parameters, huge paging values,
//! every method, raw garbage. Every answer must be a 4xx with the JSON error body (or tiny_http's
//! own 400 for an unparsable request, or a closed connection), never a 500, and the server must
//! keep answering afterwards. Hostile connections (idle, half-sent, cut, flooding, slow) are in
//! `hostile`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::Value;

use crate::util::{request, server, Q};

/// Sends raw bytes and reads until the server closes or 5 s pass (with `whole`), or until the
/// end of the first response head or 1 s of silence; returns the status of the first response (and what was
/// read), or None when the connection closed without one.
fn raw(addr: &str, bytes: &[u8], whole: bool) -> Option<(u16, Vec<u8>)> {
    let mut s = TcpStream::connect(addr).unwrap();
    let wait = if whole { 5000 } else { 1000 };
    s.set_read_timeout(Some(Duration::from_millis(wait)))
        .unwrap();
    let _ = s.write_all(bytes);
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n @ 1..) = s.read(&mut buf) {
        out.extend_from_slice(&buf[..n]);
        if !whole && out.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    let text = String::from_utf8_lossy(&out);
    let status = text.split(' ').nth(1)?.parse().ok()?;
    Some((status, out))
}

fn assert_json_error(status: u16, body: &[u8], ctx: &str) {
    assert!((400..500).contains(&status), "{ctx}: status {status}");
    let v: Value = serde_json::from_slice(body)
        .unwrap_or_else(|e| panic!("{ctx}: not JSON ({e}): {}", String::from_utf8_lossy(body)));
    assert!(
        v["message"].is_string() && v["code"].is_string(),
        "{ctx}: {v}"
    );
}

#[test]
fn test_thousands_of_parameters() {
    let addr = &server().addr;
    // 1000 parameters fit in the URL limit: 400 naming the limit.
    let many: Vec<String> = (0..1000).map(|i| format!("p{i}=1")).collect();
    let r = request(addr, "GET", &format!("{Q}&{}", many.join("&")), &[]);
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "too many parameters: at most 64 are accepted"
    );
    // The same name 1000 times, and empty parameters (which do not count).
    let same = "gene_name=PAK5&".repeat(1000);
    let r = request(addr, "GET", &format!("/api/genes-structure?{same}"), &[]);
    assert_json_error(r.status, &r.body, "repeated name");
    let empties = "&".repeat(5000);
    let r = request(addr, "GET", &format!("{Q}{empties}"), &[]);
    assert_eq!(r.status, 200, "empty parameters are ignored");
    // 30 000 parameters exceed the URL limit: 414.
    let many: Vec<String> = (0..30_000).map(|i| format!("p{i}=1")).collect();
    let url = format!("{Q}&{}", many.join("&"));
    assert!(url.len() > varcat_server::server::MAX_URL);
    let r = request(addr, "GET", &url, &[]);
    assert_eq!(r.status, 414);
    assert_json_error(r.status, &r.body, "30 000 parameters");
}

#[test]
fn test_huge_page_and_limit() {
    let addr = &server().addr;
    for q in [
        "page=99999999999999999999999999",
        "page=18446744073709551616",
        "page=18446744073709551615",
        "page=4294967296",
        "page=-1",
        "page=1e308",
        "page=NaN",
        "page=inf",
        "limit=99999999999999999999999999",
        "limit=18446744073709551615",
        "limit=1e308",
        "limit=-9223372036854775808",
        "limit=0",
        "limit=0x10",
        "page=18446744073709551615&limit=100",
    ] {
        let r = request(
            addr,
            "GET",
            &format!("/api/genes-structure?gene_name=PAK5&{q}"),
            &[],
        );
        match r.status {
            200 => assert_eq!(r.json(), serde_json::json!([]), "{q}"),
            _ => {
                assert_eq!(r.status, 400, "{q}: {}", r.text());
                let v = r.json();
                let path = &v["issues"][0]["path"][0];
                assert!(path == "page" || path == "limit", "{q}: {v}");
            }
        }
    }
}

#[test]
fn test_every_method() {
    let addr = &server().addr;
    for m in [
        "GET",
        "HEAD",
        "POST",
        "PUT",
        "DELETE",
        "PATCH",
        "OPTIONS",
        "TRACE",
        "CONNECT",
        "PROPFIND",
        "MKCOL",
        "LOCK",
        "BREW",
        "get",
        "G\u{e9}T",
        "X-CUSTOM-METHOD-NAME",
    ] {
        let req = format!(
            "{m} {Q} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        let Some((status, out)) = raw(addr, req.as_bytes(), true) else {
            continue; // a closed connection is an acceptable answer
        };
        assert!(status < 500, "{m}: {status}");
        match status {
            200 if m == "GET" || m == "HEAD" => {}
            204 if m == "OPTIONS" => {}
            405 => {
                let body = &out[out.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4..];
                assert_json_error(405, body, m);
            }
            400 => {} // tiny_http's own answer to a request line it cannot parse
            other => panic!("{m}: unexpected {other}"),
        }
    }
    // A body on GET (ignored) and a large declared body that never comes.
    let r = raw(
        addr,
        format!(
            "GET {Q} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
        )
        .as_bytes(),
        true,
    );
    assert_eq!(r.map(|r| r.0), Some(200));
}

#[test]
fn test_garbage_requests() {
    let addr = &server().addr;
    let cases: Vec<Vec<u8>> = vec![
        b"\r\n\r\n".to_vec(),
        b"GET\r\n\r\n".to_vec(),
        b"GET / HTTP/9.9\r\n\r\n".to_vec(),
        b"GET /api/health HTTP/2.0\r\n\r\n".to_vec(),
        b"GET /api/health HTTP/1.1\r\nNo-Colon-Header\r\n\r\n".to_vec(),
        b"GET /api/h\xffealth HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
        b"GET /api/health HTTP/1.1\r\nX: \xff\xfe\r\nConnection: close\r\n\r\n".to_vec(),
        b"\x00\x01\x02\x03\x04\r\n\r\n".to_vec(),
        b"GET /api/genes-structure?gene_name=%E9 HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        b"GET /api/genes-structure?gene_name=%%%% HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        b"GET /api/genes-structure?gene_name=\xc3\x28 HTTP/1.1\r\nConnection: close\r\n\r\n"
            .to_vec(),
        b"GET /api/ontology-terms/%ZZ/children HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        b"GET http://evil.example/api/health HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        b"GET * HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(),
        format!(
            "GET /{} HTTP/1.1\r\nConnection: close\r\n\r\n",
            "a".repeat(1 << 20)
        )
        .into_bytes(),
        format!(
            "GET /api/health HTTP/1.1\r\n{}Connection: close\r\n\r\n",
            "X-A: b\r\n".repeat(3000)
        )
        .into_bytes(),
    ];
    // An HTTP/2 request line gets tiny_http's 505 (flushed by the patch in vendor/tiny_http).
    let r = raw(addr, b"GET /api/health HTTP/2.0\r\n\r\n", false);
    assert_eq!(r.map(|r| r.0), Some(505));
    for c in &cases {
        let ctx = String::from_utf8_lossy(&c[..c.len().min(60)]).into_owned();
        if let Some((status, _)) = raw(addr, c, false) {
            assert!(status < 500 || status == 505, "{ctx:?}: {status}");
        }
    }
    // Still serving.
    assert_eq!(request(addr, "GET", Q, &[]).status, 200);
}
