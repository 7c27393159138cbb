//! The server under faults: its catalog file changed in place, batch answers to clients that do
//! not read, answers read slowly, and who may read answers from a browser.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::{poll, spawn};
use crate::util::{build_command, catalog, request, rss_anon, scratch, testdata, Q};

/// The status and JSON body of `GET target`.
fn get(addr: &str, target: &str) -> (u16, Value) {
    let a = request(addr, "GET", target, &[]);
    let v = serde_json::from_slice(&a.body).unwrap_or(Value::Null);
    (a.status, v)
}

/// Waits (at most 30 s) until `/api/health` answers `status`.
fn health_becomes(addr: &str, status: u16) -> Option<Value> {
    poll(Duration::from_secs(30), || {
        let (s, v) = get(addr, "/api/health");
        (s == status).then_some(v)
    })
}

/// A catalog file changed in place under the server (`truncate`, then `cp` of another catalog
/// over it) is never read again: `/api/health` and data answer 503 with the JSON error saying
/// why, one log line names the cause, and the file at the path is loaded, its checksums
/// verified under `--no-verify`, once it is valid and stable. The truncated mapping once
/// killed the server with SIGBUS at the next data request, `/api/health` still answering 200.
#[test]
fn test_a_catalog_changed_in_place_answers_503_until_a_valid_file_is_loaded() {
    let dir = scratch("in-place");
    let path = dir.join("served.varcat");
    std::fs::copy(catalog(), &path).unwrap();
    let next = dir.join("next.varcat");
    let st = build_command(&testdata(), &next)
        .arg("--strict")
        .status()
        .unwrap();
    assert!(st.success());
    let mut p = spawn(&path, &["--quiet", "--no-verify"], None);
    assert_eq!(get(&p.addr, Q).0, 200);

    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(1000)
        .unwrap();
    let health = health_becomes(&p.addr, 503).expect("/api/health answers 503 once truncated");
    assert_eq!(health["code"], "SERVICE_UNAVAILABLE");
    let (status, body) = get(&p.addr, Q);
    assert_eq!(status, 503, "{body}");
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains("changed in place") && message.contains("truncated"),
        "{message}"
    );
    let batch = json!({"gene_id": ["ENSG00000101349"]}).to_string();
    let a = crate::util::post_to(&p.addr, "/genes", batch.as_bytes());
    assert_eq!(a.status, 503);
    assert_eq!(p.child.try_wait().unwrap(), None, "the server is alive");
    // The log comes through a pipe and a reader thread: it may trail the answers.
    p.wait_log("changed in place", Duration::from_secs(10))
        .expect("the cause is logged");
    let causes = p
        .log()
        .iter()
        .filter(|l| l.contains("changed in place"))
        .count();
    assert_eq!(causes, 1, "{:?}", p.log());

    // `cp` of another catalog over it (written in place, the same inode): loaded and verified.
    std::fs::copy(&next, &path).unwrap();
    let health = health_becomes(&p.addr, 200).expect("the valid file is loaded");
    let want = varcat_server::http::Loaded::open(&next, true).unwrap();
    assert_eq!(
        health["catalog"]["checksum"],
        format!("{:016x}", want.cat.catalog.checksum())
    );
    let reloaded = p
        .wait_log("reloaded catalog", Duration::from_secs(5))
        .unwrap();
    assert!(reloaded.contains("all checksums verified"), "{reloaded}");
    assert_eq!(get(&p.addr, Q).0, 200);

    // The same again while serving: `cp` over the file in place, never a 500.
    std::fs::copy(catalog(), &path).unwrap();
    let (status, _) = get(&p.addr, Q);
    assert!(status == 200 || status == 503, "{status}");
    health_becomes(&p.addr, 200).expect("the original is loaded again");
    assert_eq!(p.child.try_wait().unwrap(), None, "the server is alive");
}

/// A SIGBUS (a page of the mapping gone before the server noticed) ends the process with one
/// line naming the catalog, rather than a bare "Bus error".
#[test]
fn test_sigbus_ends_the_process_with_a_line_naming_the_catalog() {
    let mut p = spawn(catalog(), &["--quiet"], None);
    p.signal("BUS");
    let st = p
        .wait_exit(Duration::from_secs(20))
        .expect("the server exits");
    assert_eq!(st.code(), Some(135), "{st:?}");
    let name = catalog().display().to_string();
    let line = p
        .wait_log("SIGBUS", Duration::from_secs(5))
        .unwrap_or_else(|| panic!("no SIGBUS line: {:?}", p.log()));
    assert!(line.contains(&name), "{line}");
}

/// A batch of 1,000 copies of a gene whose verbose structure is ~38 KB: a 38 MB answer.
fn big_batch(n: usize) -> String {
    json!({"gene_id": vec!["ENSG00000101349"; n], "limit": 100, "verbose": true}).to_string()
}

fn send_post(addr: &str, path: &str, body: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    let head = format!(
        "POST /api{path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body.as_bytes()).unwrap();
    s
}

/// Batch answers are streamed: clients that ask for 38 MB each and never read hold one item
/// each, not their answers (each was built whole and held while written: 80 such clients took
/// a server to 9.6 GB), and they are cut once their answers stall.
#[test]
fn test_batch_answers_to_clients_that_do_not_read_stay_bounded() {
    let p = spawn(
        catalog(),
        &["--quiet", "--threads", "2", "--write-timeout-ms", "2000"],
        None,
    );
    let idle = rss_anon(p.child.id());
    let body = big_batch(1000);
    let mut held: Vec<TcpStream> = (0..10)
        .map(|_| send_post(&p.addr, "/genes-structure", &body))
        .collect();
    let mut peak = 0;
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(250));
        peak = peak.max(rss_anon(p.child.id()));
    }
    assert_eq!(get(&p.addr, Q).0, 200, "others are answered meanwhile");
    peak = peak.max(rss_anon(p.child.id()));
    let grew = peak.saturating_sub(idle);
    assert!(grew < 150 << 20, "RssAnon grew by {} MB", grew >> 20);
    // Stalled, each is cut: its connection ends long before 38 MB arrive.
    for s in &mut held {
        let (cut, got) = crate::util::read_until_closed(s, Duration::from_secs(30));
        assert!(cut, "a stalled batch answer was never cut");
        assert!(got.len() < 30 << 20, "{} bytes arrived", got.len());
    }
}

/// Past the write deadline an answer must progress at the minimum rate (64 KiB/s), no longer
/// finish within it: a client reading a 19 MB batch answer at ~3 MB/s for several seconds gets
/// all of it under a 1 s deadline (it was cut after 1 s).
#[test]
fn test_a_slow_client_above_the_minimum_rate_is_served() {
    let p = spawn(catalog(), &["--quiet", "--write-timeout-ms", "1000"], None);
    let mut s = send_post(&p.addr, "/genes-structure", &big_batch(500));
    let mut raw = Vec::new();
    let mut buf = vec![0u8; 48 << 10];
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
        }
        if raw.ends_with(b"\r\n0\r\n\r\n") {
            break;
        }
        std::thread::sleep(Duration::from_millis(15));
    }
    let a = crate::util::parse_response(&raw, false);
    assert_eq!(a.status, 200);
    let items: Value = serde_json::from_slice(&a.body)
        .unwrap_or_else(|e| panic!("an incomplete answer ({} bytes): {e}", a.body.len()));
    assert_eq!(items.as_array().unwrap().len(), 500);
}

/// `--cors-origin` governs every answer (GET, error, POST batch) and the preflight: a listed
/// origin is named back, any other gets no `Access-Control-Allow-Origin` (a browser then lets
/// no page of it read) and a preflight granting nothing; `none` names no origin; `*` stays the
/// default. Every answer carried `*` and the preflight granted any header.
#[test]
fn test_cors_origin_policy() {
    let lab = "https://lab.example.org";
    let p = spawn(catalog(), &["--quiet", "--cors-origin", lab], None);
    let body = json!({"gene_id": ["ENSG00000101349"]}).to_string();
    for origin in [lab, "https://evil.example.com"] {
        let allowed = origin == lab;
        let get = request(&p.addr, "GET", Q, &[("Origin", origin)]);
        let error = request(&p.addr, "GET", "/api/genes?nope=1", &[("Origin", origin)]);
        let post =
            crate::util::post_with(&p.addr, "/genes", body.as_bytes(), &[("Origin", origin)]);
        for (what, a) in [("GET", &get), ("error", &error), ("POST", &post)] {
            let acao = a.header("Access-Control-Allow-Origin");
            assert_eq!(acao, allowed.then_some(origin), "{what} from {origin}");
            assert!(
                a.headers.iter().any(|(n, v)| n == "Vary" && v == "Origin"),
                "{what}"
            );
        }
        assert_eq!(post.status, 200);
        let pre = request(
            &p.addr,
            "OPTIONS",
            "/api/genes",
            &[
                ("Origin", origin),
                ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type, x-anything"),
            ],
        );
        assert_eq!(pre.status, 204);
        assert_eq!(
            pre.header("Access-Control-Allow-Origin"),
            allowed.then_some(origin)
        );
        let granted = pre.header("Access-Control-Allow-Headers").unwrap_or("");
        assert_eq!(granted.contains("Content-Type"), allowed, "{granted}");
        assert!(!granted.contains("x-anything"), "{granted}");
    }
    let none = spawn(catalog(), &["--quiet", "--cors-origin", "none"], None);
    let a = request(&none.addr, "GET", Q, &[("Origin", lab)]);
    assert_eq!(a.header("Access-Control-Allow-Origin"), None);
    let star = request(&crate::util::server().addr, "GET", Q, &[("Origin", lab)]);
    assert_eq!(star.header("Access-Control-Allow-Origin"), Some("*"));
}

/// Every SPDI and HGVS the build indexes can be looked up by its own value: a variant whose
/// SPDI is 723 bytes was stored but `spdi=` was a 400 (a 512-byte cap), and `/openapi.json`
/// said 128 characters. One limit now, the build's, stated in the OpenAPI document too.
#[test]
fn test_long_spdi_and_hgvs_are_found_by_their_own_value() {
    let dir = scratch("long-spdi");
    let input = dir.join("input");
    std::fs::create_dir_all(&input).unwrap();
    let first = std::fs::read_to_string(testdata().join("variants.jsonl")).unwrap();
    let mut v: Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    let deleted = "A".repeat(700);
    let spdi = format!("NC_000020.11:9564577:{deleted}:T");
    let hgvs = format!("NC_000020.11:g.9564578_9565277delins{}", "T".repeat(600));
    v["_key"] = json!("longvariant1");
    v["spdi"] = json!(spdi);
    v["name"] = json!(spdi);
    v["hgvs"] = json!(hgvs);
    v["ref"] = json!(deleted);
    std::fs::write(input.join("variants.jsonl"), format!("{v}\n")).unwrap();
    let cat = dir.join("long.varcat");
    assert!(build_command(&input, &cat).status().unwrap().success());
    let p = spawn(&cat, &["--quiet"], None);
    let hgvs_q = hgvs.replace('>', "%3E");
    for q in [format!("spdi={spdi}"), format!("hgvs={hgvs_q}")] {
        let (status, body) = get(&p.addr, &format!("/api/variants?{q}"));
        assert_eq!(status, 200, "{body}");
        assert_eq!(body[0]["_id"], "longvariant1", "{q}");
    }
    let (_, doc) = get(&p.addr, "/openapi.json");
    let limit = varcat_query::parse::ident::MAX_ID_LEN;
    let params = doc["paths"]["/variants"]["get"]["parameters"]
        .as_array()
        .unwrap();
    for name in ["spdi", "hgvs", "variant_id"] {
        let p = params.iter().find(|p| p["name"] == name).unwrap();
        let max = p["schema"]["maxLength"].as_u64().unwrap() as usize;
        assert!(max >= spdi.len() && max == limit, "{name}: maxLength {max}");
    }
}

/// A batch body that gives a member twice is a 400 naming it (the last one silently won).
#[test]
fn test_a_batch_body_with_a_duplicate_member_is_400() {
    let body = br#"{"gene_id": ["ENSG00000101349"], "limit": 1, "limit": 2}"#;
    let a = crate::util::post("/genes", body);
    assert_eq!(a.status, 400);
    let v = a.json();
    assert_eq!(v["issues"][0]["path"], json!(["limit"]), "{v}");
    assert!(
        v["message"].as_str().unwrap().contains("more than once"),
        "{v}"
    );
}

/// Raw UTF-8 (bytes that are not ASCII) in a request target is a 400 with the JSON error body
/// naming the problem; the connection was closed without a word.
#[test]
fn test_raw_utf8_in_the_request_target_is_400() {
    let mut s = TcpStream::connect(&crate::util::server().addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all("GET /api/genes?name=PAKé HTTP/1.1\r\nHost: x\r\n\r\n".as_bytes())
        .unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    assert!(!raw.is_empty(), "the connection closed without an answer");
    let a = crate::util::parse_response(&raw, false);
    assert_eq!(a.status, 400);
    let v = a.json();
    assert_eq!(v["code"], "BAD_REQUEST");
    assert!(v["message"].as_str().unwrap().contains("not ASCII"), "{v}");
}
