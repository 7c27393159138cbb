//! `/llm-query`, the POST route: 501 to a valid body, its body checked, read at most 64 KiB,
//! its methods.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{json, Value};

use crate::util::{parse_response, post, request, server, Resp};

/// Sends `raw` on a fresh connection and reads until the server closes it (or 5 s pass).
fn exchange(raw: &[u8]) -> Vec<u8> {
    let mut s = TcpStream::connect(&server().addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let _ = s.write_all(raw);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    out
}

fn error_code(r: &Resp) -> String {
    r.json()["code"].as_str().unwrap_or("").to_string()
}

#[test]
fn test_llm_query_answers_501_to_a_valid_post() {
    for body in [
        json!({"query": "genes near rs58658771", "password": "x"}),
        json!({"query": "q", "password": "x", "verbose": "true"}),
    ] {
        let r = post("/llm-query", body.to_string().as_bytes());
        assert_eq!(r.status, 501, "{}", r.text());
        assert_eq!(
            r.json(),
            json!({
                "message": "llm-query needs an external language-model service; this server has none",
                "code": "NOT_IMPLEMENTED",
                "issues": [],
            })
        );
        assert_eq!(r.header("Content-Type"), Some("application/json"));
    }
    // Routes compare case-insensitively and ignore one trailing slash.
    assert_eq!(
        post("/LLM-query/", br#"{"query":"q","password":"p"}"#).status,
        501
    );
}

#[test]
fn test_llm_query_checks_its_body() {
    for (body, paths) in [
        (&br#"{"password":"x"}"#[..], vec![vec!["query"]]),
        (
            br#"{"query":"q","password":"x","verbose":true}"#,
            vec![vec!["verbose"]],
        ),
        (br#"{"query":7}"#, vec![vec!["query"], vec!["password"]]),
        (b"[1]", vec![vec![]]),
        (b"not json", vec![vec![]]),
        (b"", vec![vec![]]),
    ] {
        let r = post("/llm-query", body);
        assert_eq!(r.status, 400, "{}", String::from_utf8_lossy(body));
        let got: Vec<Value> = r.json()["issues"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["path"].clone())
            .collect();
        assert_eq!(got, paths.iter().map(|p| json!(p)).collect::<Vec<_>>());
    }
    let long = json!({"query": "x".repeat(5001), "password": "p"}).to_string();
    assert_eq!(post("/llm-query", long.as_bytes()).status, 400);
    let ok = json!({"query": "é".repeat(5000), "password": "p"}).to_string();
    assert_eq!(post("/llm-query", ok.as_bytes()).status, 501);
}

#[test]
fn test_llm_query_reads_at_most_64_kib() {
    // 64 KiB exactly is read (and is then a 400 or 501 on its merits).
    let pad = 64 * 1024 - r#"{"query":"q","password":"p","x":""}"#.len();
    let body = format!(
        r#"{{"query":"q","password":"p","x":"{}"}}"#,
        "y".repeat(pad)
    );
    assert_eq!(body.len(), 64 * 1024);
    assert_eq!(post("/llm-query", body.as_bytes()).status, 501);
    // One byte more: 413 with the error body, the body unread and the connection closed (a
    // request behind it is never answered).
    let head = format!(
        "POST /api/llm-query HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
        64 * 1024 + 1
    );
    let raw = exchange(format!("{head}GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes());
    let r = parse_response(&raw, false);
    assert_eq!(r.status, 413);
    assert_eq!(error_code(&r), "PAYLOAD_TOO_LARGE");
    assert_eq!(
        String::from_utf8_lossy(&raw).matches("HTTP/1.1 ").count(),
        1
    );
    // A huge announced length is refused at once, nothing read.
    let raw =
        exchange(b"POST /api/llm-query HTTP/1.1\r\nHost: x\r\nContent-Length: 900000\r\n\r\n{");
    assert_eq!(parse_response(&raw, false).status, 413);
    // A chunked body is read up to the limit, then refused.
    let mut chunked =
        b"POST /api/llm-query HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for _ in 0..3 {
        chunked.extend_from_slice(format!("{:x}\r\n{}\r\n", 30000, "z".repeat(30000)).as_bytes());
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    assert_eq!(parse_response(&exchange(&chunked), false).status, 413);
    let b = br#"{"query":"q","password":"p"}"#;
    let small = format!(
        "POST /api/llm-query HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{}\r\n0\r\n\r\n",
        b.len(),
        String::from_utf8_lossy(b)
    );
    assert_eq!(
        parse_response(&exchange(small.as_bytes()), false).status,
        501
    );
    // A body that is read whole keeps the connection: the next request is answered.
    let two = format!(
        "POST /api/llm-query HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{}GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        b.len(),
        String::from_utf8_lossy(b)
    );
    let raw = String::from_utf8_lossy(&exchange(two.as_bytes())).into_owned();
    assert!(raw.starts_with("HTTP/1.1 501"), "{raw}");
    assert!(raw.contains("HTTP/1.1 200"), "{raw}");
}

#[test]
fn test_llm_query_methods() {
    let addr = &server().addr;
    for m in ["GET", "HEAD", "PUT", "DELETE"] {
        let r = request(addr, m, "/api/llm-query", &[]);
        assert_eq!(r.status, 405, "{m}");
        assert_eq!(r.header("Allow"), Some("POST"), "{m}");
        if m != "HEAD" {
            assert_eq!(error_code(&r), "METHOD_NOT_SUPPORTED");
        }
    }
    let r = request(
        addr,
        "OPTIONS",
        "/api/llm-query",
        &[
            ("Origin", "https://x.example"),
            ("Access-Control-Request-Method", "POST"),
        ],
    );
    assert_eq!(r.status, 204);
    assert_eq!(
        r.header("Access-Control-Allow-Methods"),
        Some("POST, OPTIONS")
    );
    assert_eq!(r.header("Access-Control-Allow-Origin"), Some("*"));
    // Every other path keeps its answer to a POST: 405 for a route that takes no batches
    // (tests/batch.rs has those), 404 for none, the body left unread.
    let r = post("/genomic-elements", br#"{"query":"q","password":"p"}"#);
    assert_eq!(r.status, 405);
    assert_eq!(r.header("Allow"), Some("GET, HEAD, OPTIONS"));
    assert_eq!(post("/llm-query/x", b"{}").status, 404);
    let r = request(addr, "OPTIONS", "/api/genomic-elements", &[]);
    assert_eq!(
        r.header("Access-Control-Allow-Methods"),
        Some("GET, HEAD, OPTIONS")
    );
}
