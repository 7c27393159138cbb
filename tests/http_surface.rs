//! The HTTP surface: methods, CORS, caching, compression, paths, limits, overload.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::json;

use crate::harness::spawn;
use crate::util::{catalog, get, parse_response, request, server};

const Q: &str = "/api/genes-structure?gene_name=PAK5";

#[test]
fn test_json_headers_and_cors() {
    let r = request(&server().addr, "GET", Q, &[]);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("Content-Type"), Some("application/json"));
    assert_eq!(r.header("Access-Control-Allow-Origin"), Some("*"));
    // Caches revalidate (cheaply: 304) rather than keep an answer across a reload; the
    // catalog's health is never cached.
    assert_eq!(r.header("Cache-Control"), Some("no-cache"));
    // The answer also comes as TSV, chosen by Accept; scripts may read Link.
    assert_eq!(r.header("Vary"), Some("Accept, Accept-Encoding"));
    assert_eq!(r.header("Access-Control-Expose-Headers"), Some("Link"));
    let etag = r.header("ETag").unwrap();
    assert!(etag.starts_with("W/\""));
    let again = request(&server().addr, "GET", Q, &[("If-None-Match", etag)]);
    assert_eq!(again.status, 304);
    assert_eq!(again.header("ETag"), Some(etag));
    let h = get("/health");
    assert_eq!(h.status, 200);
    assert_eq!(h.header("Cache-Control"), Some("no-store"));
    // Errors carry the JSON type and CORS too, and are not cached.
    let e = get("/genes-structure");
    assert_eq!(e.header("Content-Type"), Some("application/json"));
    assert_eq!(e.header("Access-Control-Allow-Origin"), Some("*"));
    assert_eq!(e.header("Cache-Control"), Some("no-store"));
}

#[test]
fn test_head_and_methods() {
    let g = request(&server().addr, "GET", Q, &[]);
    let h = request(&server().addr, "HEAD", Q, &[]);
    assert_eq!(h.status, 200);
    assert!(h.body.is_empty());
    assert_eq!(
        h.header("Content-Length"),
        Some(g.body.len().to_string().as_str())
    );
    // Q's endpoint also takes batches (tests/batch.rs): an empty POST body is a 400.
    let r = request(&server().addr, "POST", Q, &[("Content-Length", "0")]);
    assert_eq!(r.status, 400);
    for m in ["PUT", "DELETE", "PATCH"] {
        let r = request(&server().addr, m, Q, &[("Content-Length", "0")]);
        assert_eq!(r.status, 405, "{m}");
        assert_eq!(r.header("Allow"), Some("GET, HEAD, POST, OPTIONS"));
        assert_eq!(
            r.json(),
            json!({"message": format!("method {m} is not supported; use GET or HEAD (or POST, for a batch)"), "code": "METHOD_NOT_SUPPORTED"})
        );
    }
    for m in ["POST", "PUT"] {
        let r = request(
            &server().addr,
            m,
            "/api/genomic-elements?region=chr1:1-30000",
            &[("Content-Length", "0")],
        );
        assert_eq!(r.status, 405, "{m}");
        assert_eq!(r.header("Allow"), Some("GET, HEAD, OPTIONS"));
    }
    let o = request(
        &server().addr,
        "OPTIONS",
        Q,
        &[
            ("Origin", "http://x"),
            ("Access-Control-Request-Headers", "x-custom"),
        ],
    );
    assert_eq!(o.status, 204);
    assert_eq!(
        o.header("Access-Control-Allow-Methods"),
        Some("GET, HEAD, POST, OPTIONS")
    );
    assert_eq!(o.header("Access-Control-Allow-Headers"), Some("x-custom"));
    assert_eq!(o.header("Access-Control-Allow-Origin"), Some("*"));
}

#[test]
fn test_etag_and_not_modified() {
    let r = request(&server().addr, "GET", Q, &[]);
    let etag = r.header("ETag").unwrap().to_string();
    let again = request(&server().addr, "GET", Q, &[("If-None-Match", &etag)]);
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("ETag"), Some(etag.as_str()));
    let other = request(&server().addr, "GET", Q, &[("If-None-Match", "W/\"0000\"")]);
    assert_eq!(other.status, 200);
}

#[test]
fn test_gzip_when_accepted_and_large() {
    let plain = request(&server().addr, "GET", Q, &[]);
    assert!(plain.body.len() >= 1024 && plain.header("Content-Encoding").is_none());
    let gz = request(
        &server().addr,
        "GET",
        Q,
        &[("Accept-Encoding", "gzip, deflate")],
    );
    assert_eq!(gz.header("Content-Encoding"), Some("gzip"));
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(&gz.body[..])
        .read_to_end(&mut unzipped)
        .unwrap();
    assert_eq!(unzipped, plain.body);
    // Small bodies are sent as they are.
    let small = request(
        &server().addr,
        "GET",
        "/api/transcripts/genes?transcript_id=ENST00000353224",
        &[("Accept-Encoding", "gzip")],
    );
    assert!(small.body.len() < 1024 && small.header("Content-Encoding").is_none());
    let refused = request(&server().addr, "GET", Q, &[("Accept-Encoding", "gzip;q=0")]);
    assert!(refused.header("Content-Encoding").is_none());
}

#[test]
fn test_paths() {
    let base = request(&server().addr, "GET", Q, &[]).body;
    // One trailing slash and ASCII case are tolerated, as trpc-openapi does.
    assert_eq!(
        request(
            &server().addr,
            "GET",
            "/api/genes-structure/?gene_name=PAK5",
            &[]
        )
        .body,
        base
    );
    assert_eq!(
        request(
            &server().addr,
            "GET",
            "/api/GENES-STRUCTURE?gene_name=PAK5",
            &[]
        )
        .body,
        base
    );
    for p in [
        "/api/nope",
        "/api",
        "/api/",
        "/apix/genes-structure",
        "/genes-structure",
        "/api/genes-structure/extra",
    ] {
        let r = request(&server().addr, "GET", p, &[]);
        assert_eq!(r.status, 404, "{p}");
        assert_eq!(r.json()["code"], "NOT_FOUND");
    }
    let h = request(&server().addr, "GET", "/api/health", &[]);
    assert_eq!(h.status, 200);
    let h = h.json();
    assert_eq!(h["status"], "ok");
    assert_eq!(
        h["catalog"]["collections"]["genes"],
        crate::oracle::data().docs("genes").len()
    );
}

#[test]
fn test_encoding_errors_are_400() {
    let r = request(
        &server().addr,
        "GET",
        "/api/genes-structure?gene_name=%ZZ",
        &[],
    );
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "gene_name is invalid percent-encoding: \"%ZZ\""
    );
    let r = request(
        &server().addr,
        "GET",
        "/api/genes-structure?gene_name=%FF%FE",
        &[],
    );
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["issues"][0]["path"], json!(["gene_name"]));
    let many: Vec<String> = (0..65).map(|i| format!("p{i}=1")).collect();
    let r = request(
        &server().addr,
        "GET",
        &format!("/api/genes-structure?{}", many.join("&")),
        &[],
    );
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["message"],
        "too many parameters: at most 64 are accepted"
    );
}

#[test]
fn test_oversize_requests() {
    let over = varcat_server::server::MAX_URL + 1;
    let long = format!("/api/genes-structure?gene_name={}", "A".repeat(over));
    let r = request(&server().addr, "GET", &long, &[]);
    assert_eq!(r.status, 414);
    assert_eq!(r.json()["code"], "PAYLOAD_TOO_LARGE");
    let big = "x".repeat(17 * 1024);
    let r = request(&server().addr, "GET", Q, &[("X-Big", &big)]);
    assert_eq!(r.status, 431);
    assert_eq!(r.json()["code"], "PAYLOAD_TOO_LARGE");
}

#[test]
fn test_malformed_request_line_is_answered_by_tiny_http() {
    // tiny_http answers unparsable requests itself (400, no JSON body): documented in the README.
    let mut s = TcpStream::connect(&server().addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(b"THIS IS NOT HTTP\r\n\r\n").unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let r = parse_response(&raw, false);
    assert_eq!(r.status, 400);
}

#[test]
fn test_keep_alive_serves_many_requests_on_one_connection() {
    let mut s = TcpStream::connect(&server().addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    for _ in 0..20 {
        write!(s, "GET {Q} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8];
        while !head.ends_with(b"\r\n\r\n") {
            s.read_exact(&mut byte).unwrap();
            head.push(byte[0]);
        }
        let text = String::from_utf8(head).unwrap();
        assert!(text.starts_with("HTTP/1.1 200"));
        let len: usize = text
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let mut body = vec![0; len];
        s.read_exact(&mut body).unwrap();
    }
}

#[test]
fn test_overload_gets_503_with_retry_after() {
    // One worker that takes 400 ms per request and a queue of one: of eight simultaneous
    // requests, one is served, one waits, the rest are refused at once.
    let srv = spawn(
        catalog(),
        &[
            "--quiet",
            "--threads",
            "1",
            "--queue",
            "1",
            "--debug-delay-ms",
            "400",
        ],
        None,
    );
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let addr = srv.addr.clone();
            std::thread::spawn(move || {
                request(
                    &addr,
                    "GET",
                    "/api/genes-structure?gene_name=PAK5&limit=1",
                    &[],
                )
            })
        })
        .collect();
    let resps: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let busy: Vec<_> = resps.iter().filter(|r| r.status == 503).collect();
    assert!(resps.iter().any(|r| r.status == 200));
    assert!(!busy.is_empty(), "no request was refused");
    assert!(resps.iter().all(|r| r.status == 200 || r.status == 503));
    for r in busy {
        assert_eq!(r.header("Retry-After"), Some("1"));
        assert_eq!(
            r.json(),
            json!({"message": "the server is busy; retry shortly", "code": "SERVICE_UNAVAILABLE"})
        );
    }
    drop(srv); // kills the server
}

/// The benchmark's `/__floor` hooks (the floor body and the handler clock) are compiled only
/// into a bench build (the `bench-floor` feature): the binary the tests run, a normal build,
/// answers them 404 like any unknown path, even with the environment variable that once
/// switched the floor on.
#[cfg(not(feature = "bench-floor"))]
#[test]
fn test_bench_floor_is_not_in_a_normal_build() {
    let p = crate::harness::spawn_with_env(
        catalog(),
        &["--quiet"],
        None,
        &[("VARCAT_BENCH_FLOOR", "1")],
    );
    for target in [
        "/api/__floor?bytes=100",
        "/api/__floor",
        "/api/__floor/handler",
    ] {
        let r = request(&p.addr, "GET", target, &[]);
        assert_eq!(r.status, 404, "{target}");
        let body: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(body["code"], "NOT_FOUND", "{target}");
    }
}

/// A bench build (`cargo test --features bench-floor --test e2e times_its_handler`) sums the time its
/// requests spend in the application and answers the sum at `/__floor/handler`, leaving its own
/// readings out.
#[cfg(feature = "bench-floor")]
#[test]
fn test_a_bench_build_times_its_handler() {
    let p = spawn(catalog(), &["--quiet"], None);
    let read = || {
        let r = request(&p.addr, "GET", "/api/__floor/handler", &[]);
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(r.header("Cache-Control"), Some("no-store"));
        let v = r.json();
        let n = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("{k} in {v}"));
        (n("requests"), n("handler_ns"))
    };
    let (n0, t0) = read();
    assert_eq!(read(), (n0, t0), "a reading is not counted");
    for target in ["/api/health", "/api/__floor?bytes=10", "/api/no-such-path"] {
        request(&p.addr, "GET", target, &[]);
    }
    let (n1, t1) = read();
    assert_eq!(n1, n0 + 3);
    assert!(t1 > t0);
}
