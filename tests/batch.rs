//! Batch look-ups: POST with one identifier parameter listing values, answered per
//! value as its GET; the limits, CORS, 405, `Expect: 100-continue` and 413 over real HTTP.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{json, Value};

use crate::util::{get, parse_response, post, request, server};

/// POST `body` (a JSON value) to `/api<path>`; expects 200 and returns the answer's array.
fn batch(path: &str, body: &Value) -> Vec<Value> {
    let r = post(path, body.to_string().as_bytes());
    assert_eq!(r.status, 200, "{path} {body}: {}", r.text());
    assert_eq!(r.header("Cache-Control"), Some("no-store"));
    assert_eq!(r.header("ETag"), None);
    r.json().as_array().expect("an array").clone()
}

/// The GET answer of `/api<path_query>` as JSON (any status).
fn get_value(path_query: &str) -> (u16, Value) {
    let r = get(path_query);
    (r.status, r.json())
}

/// Asserts that a batch is refused whole: 400 with one issue at `path` whose message contains
/// `needle`.
fn refused(path: &str, body: &[u8], issue_path: &[&str], needle: &str) {
    let r = post(path, body);
    let ctx = format!("{path} {}", String::from_utf8_lossy(body));
    assert_eq!(r.status, 400, "{ctx}: {}", r.text());
    let e = r.json();
    assert_eq!(e["code"], "BAD_REQUEST", "{ctx}");
    let issue = &e["issues"][0];
    assert_eq!(issue["path"], json!(issue_path), "{ctx}: {e}");
    let msg = issue["message"].as_str().unwrap();
    assert!(msg.contains(needle), "{ctx}: {msg}");
}

/// Each value is answered as its own GET, in input order; a malformed value and one a
/// single-object endpoint does not find are item errors, not a failed batch.
#[test]
fn test_items_are_their_gets_in_input_order() {
    let ids = [
        "ENSG00000286740",
        "bad\u{1}id",
        "ENSG00000101349",
        "ENSG99999999999",
        " ENSG00000232738 ",
    ];
    let got = batch(
        "/genes?verbose=false",
        &json!({ "gene_id": ids, "limit": 5 }),
    );
    assert_eq!(got.len(), ids.len());
    for (item, id) in got.iter().zip(ids) {
        assert_eq!(item["query"], id, "the query is the value as given");
        let (status, want) = get_value(&format!(
            "/genes?verbose=false&limit=5&gene_id={}",
            id.trim().replace('\u{1}', "%01")
        ));
        if status == 200 {
            assert_eq!(item["results"], want, "{id}");
            assert!(item.get("error").is_none());
        } else {
            assert_eq!(status, 400);
            assert_eq!(item["error"], want, "{id}: the GET's error body");
            assert_eq!(item["error"]["issues"][0]["path"], json!(["gene_id"]));
        }
    }
    assert_eq!(got[0]["results"][0]["_id"], "ENSG00000286740");
    assert_eq!(got[2]["results"][0]["_id"], "ENSG00000101349");
    assert_eq!(
        got[3]["results"],
        json!([]),
        "absent from a list endpoint: empty"
    );
    assert_eq!(got[1]["error"]["code"], "BAD_REQUEST");

    // A variant a single-object endpoint does not find is a NOT_FOUND item.
    let got = batch(
        "/variants/summary",
        &json!({ "spdi": ["NC_000001.11:15000:A:G", "NC_000001.11:1:A:G", "nonsense"] }),
    );
    let (_, want) = get_value("/variants/summary?spdi=NC_000001.11:15000:A:G");
    assert_eq!(got[0]["results"], want);
    assert_eq!(got[1]["error"]["code"], "NOT_FOUND");
    assert_eq!(got[1]["error"]["message"], "variant not found");
    assert_eq!(got[1]["error"]["issues"][0]["path"], json!(["spdi"]));
    assert_eq!(got[2]["error"]["code"], "BAD_REQUEST");
    assert_eq!(got[2]["error"]["issues"][0]["path"], json!(["spdi"]));
}

/// `page` and `limit` apply within each value; numbers and booleans are the GET's text.
#[test]
fn test_paging_applies_per_item() {
    let rsids = ["rs900001", "rs2045642915"];
    for page in 0..3 {
        let got = batch(
            "/variants/genes",
            &json!({ "rsid": rsids, "limit": 1, "page": page, "verbose": true }),
        );
        for (item, rsid) in got.iter().zip(rsids) {
            let q = format!("/variants/genes?rsid={rsid}&limit=1&page={page}&verbose=true");
            let (status, want) = get_value(&q);
            if status == 200 {
                assert_eq!(item["results"], want, "{q}");
            } else {
                assert_eq!(item["error"], want, "{q}");
            }
        }
    }
    let first = batch(
        "/variants/genes",
        &json!({ "rsid": ["rs900001"], "limit": 1 }),
    );
    assert_eq!(first[0]["results"].as_array().unwrap().len(), 1);
}

/// 1,000 values are answered; 1,001, none, or a list that is not of strings are refused whole.
#[test]
fn test_at_most_1000_values() {
    let ids: Vec<String> = (0..1000).map(|i| format!("ENSG{i:011}")).collect();
    let mut with_real = ids.clone();
    with_real[999] = "ENSG00000101349".into();
    let got = batch("/genes", &json!({ "gene_id": with_real }));
    assert_eq!(got.len(), 1000);
    assert_eq!(got[0]["query"], "ENSG00000000000");
    assert_eq!(got[999]["results"][0]["_id"], "ENSG00000101349");
    let mut over = ids;
    over.push("ENSG00000101349".into());
    let body = json!({ "gene_id": over }).to_string();
    refused(
        "/genes",
        body.as_bytes(),
        &["gene_id"],
        "gene_id may list 1 to 1000 values, got 1001",
    );
    refused("/genes", br#"{"gene_id": []}"#, &["gene_id"], "got 0");
    refused(
        "/genes",
        br#"{"gene_id": ["a", 7]}"#,
        &["gene_id"],
        "value 1 is 7",
    );
}

/// What fails the whole batch: a body that is not a JSON object, no list or two, a list of a
/// parameter that cannot list, a nested value, a name in both the query and the body, and any
/// problem with the other parameters.
#[test]
fn test_batch_errors() {
    for body in [&b"not json"[..], b"", b"[\"ENSG00000101349\"]", b"\"x\""] {
        refused("/genes", body, &[], "the body must be a JSON object");
    }
    refused("/genes", br#"{"limit": 2}"#, &[], "one of gene_id, hgnc_id");
    refused(
        "/genes",
        br#"{"gene_id": ["a"], "hgnc_id": ["HGNC:1"]}"#,
        &[],
        "gene_id and hgnc_id",
    );
    refused(
        "/genes",
        br#"{"gene_id": ["a"], "name": ["TSTA1"]}"#,
        &["name"],
        "name cannot list values",
    );
    refused(
        "/genes",
        br#"{"gene_id": ["a"], "limit": null}"#,
        &["limit"],
        "a string, a number or a boolean",
    );
    refused(
        "/genes",
        br#"{"gene_id": ["a"], "region": {"chr": "chr1"}}"#,
        &["region"],
        "a string, a number or a boolean",
    );
    refused(
        "/genes?limit=2",
        br#"{"gene_id": ["a"], "limit": 3}"#,
        &["limit"],
        "more than once",
    );
    refused(
        "/genes",
        br#"{"gene_id": ["ENSG00000101349"], "limit": 1000}"#,
        &["limit"],
        "limit must be an integer from 1 to",
    );
    refused(
        "/genes",
        br#"{"gene_id": ["ENSG00000101349"], "colour": "red"}"#,
        &["colour"],
        "unknown parameter",
    );
}

/// A batch answers JSON: `format=tsv`, in the query string or the body, is refused naming
/// `format` rather than answered as JSON; `format=json` is what a batch answers anyway, and
/// an `Accept` for TSV gets JSON (as a GET does for an `Accept` it cannot serve).
#[test]
fn test_batch_format() {
    let ids = json!(["ENSG00000101349"]);
    refused(
        "/genes?format=tsv",
        json!({ "gene_id": ids }).to_string().as_bytes(),
        &["format"],
        "format=tsv is not available for a batch",
    );
    refused(
        "/genes",
        json!({ "gene_id": ids, "format": "tsv" })
            .to_string()
            .as_bytes(),
        &["format"],
        "format=tsv is not available for a batch",
    );
    let plain = batch("/genes", &json!({ "gene_id": ids }));
    assert_eq!(plain[0]["query"], "ENSG00000101349");
    assert_eq!(plain[0]["results"][0]["_id"], "ENSG00000101349");
    assert_eq!(
        batch("/genes?format=json", &json!({ "gene_id": ids })),
        plain
    );
    assert_eq!(
        batch("/genes", &json!({ "gene_id": ids, "format": "json" })),
        plain
    );
    let body = json!({ "gene_id": ids }).to_string();
    let mut s = TcpStream::connect(&server().addr).unwrap();
    let head = format!(
        "POST /api/genes HTTP/1.1\r\nHost: varcat\r\nAccept: text/tab-separated-values\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let r = parse_response(&raw, false);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json().as_array().unwrap(), &plain);
}

/// Batchable paths allow POST in CORS and in 405's `Allow`; others stay GET-only, and GET and
/// HEAD on a batchable path are unchanged.
#[test]
fn test_methods_cors_and_get_unchanged() {
    let addr = &server().addr;
    let pre = |path: &str| {
        request(
            addr,
            "OPTIONS",
            path,
            &[
                ("Origin", "https://example.org"),
                ("Access-Control-Request-Method", "POST"),
                ("Access-Control-Request-Headers", "content-type"),
            ],
        )
    };
    let r = pre("/api/genes");
    assert_eq!(r.status, 204);
    assert_eq!(
        r.header("Access-Control-Allow-Methods"),
        Some("GET, HEAD, POST, OPTIONS")
    );
    assert_eq!(
        r.header("Access-Control-Allow-Headers"),
        Some("content-type")
    );
    assert_eq!(
        pre("/api/genomic-elements").header("Access-Control-Allow-Methods"),
        Some("GET, HEAD, OPTIONS")
    );
    let r = request(
        addr,
        "PUT",
        "/api/variants?spdi=NC_000001.11:15000:A:G",
        &[],
    );
    assert_eq!(r.status, 405);
    assert_eq!(r.header("Allow"), Some("GET, HEAD, POST, OPTIONS"));
    let r = post("/genomic-elements", br#"{"region": ["chr1:1-2"]}"#);
    assert_eq!(r.status, 405);
    assert_eq!(r.header("Allow"), Some("GET, HEAD, OPTIONS"));
    let g = get("/genes?gene_id=ENSG00000101349");
    assert_eq!(g.status, 200);
    assert!(g.header("ETag").is_some());
    let h = request(addr, "HEAD", "/api/genes?gene_id=ENSG00000101349", &[]);
    assert_eq!(h.status, 200);
    // gzip as a GET's answer.
    let ids: Vec<&str> = vec!["ENSG00000101349"; 20];
    let body = json!({ "gene_id": ids }).to_string();
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST /api/genes HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let r = parse_response(&raw, false);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("Content-Encoding"), Some("gzip"));
}

/// `Expect: 100-continue`: the bare interim line, only once the server reads the body, never to
/// an HTTP/1.0 client, and never before a 413.
#[test]
fn test_expect_100_continue() {
    let addr = &server().addr;
    let body = br#"{"gene_id": ["ENSG00000101349"]}"#;
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST /api/genes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    let want = b"HTTP/1.1 100 Continue\r\n\r\n";
    let mut got = [0u8; 25];
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.read_exact(&mut got).unwrap();
    assert_eq!(&got, want, "{}", String::from_utf8_lossy(&got));
    s.write_all(body).unwrap();
    let (_, raw) = crate::util::read_until_closed(&mut s, Duration::from_secs(10));
    let r = parse_response(&raw, false);
    assert_eq!(r.status, 200);
    assert_eq!(r.json()[0]["results"][0]["_id"], "ENSG00000101349");

    // HTTP/1.0: the expectation is ignored (RFC 9110 §10.1.1).
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST /api/genes HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(body).unwrap();
    let (closed, raw) = crate::util::read_until_closed(&mut s, Duration::from_secs(10));
    assert!(closed);
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 200 "), "{text}");
    assert!(!text.contains("100 Continue"), "{text}");

    // Over the body limit: 413 at once, no 100, the connection closed.
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST /api/genes HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
        (1 << 20) + 1
    )
    .unwrap();
    let (closed, raw) = crate::util::read_until_closed(&mut s, Duration::from_secs(10));
    assert!(closed);
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 413 "), "{text}");
    assert!(!text.contains("100 Continue"), "{text}");
    let r = parse_response(&raw, false);
    assert_eq!(r.json()["code"], "PAYLOAD_TOO_LARGE");
}

/// A chunked body past 1 MiB is read up to the limit, then refused with 413.
#[test]
fn test_chunked_body_past_the_limit_is_413() {
    let mut s = TcpStream::connect(&server().addr).unwrap();
    s.write_all(b"POST /api/genes HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        .unwrap();
    let chunk = format!("{:x}\r\n{}\r\n", 100_000, " ".repeat(100_000));
    let mut sent = 0;
    // The server stops reading past the limit; a failed write is then expected.
    while sent < 12 && s.write_all(chunk.as_bytes()).is_ok() {
        sent += 1;
    }
    let _ = s.write_all(b"0\r\n\r\n");
    let (closed, raw) = crate::util::read_until_closed(&mut s, Duration::from_secs(10));
    assert!(closed);
    let r = parse_response(&raw, false);
    assert_eq!(r.status, 413, "{}", r.text());
    assert_eq!(r.json()["code"], "PAYLOAD_TOO_LARGE");
    // Just under the limit is read and answered on its merits.
    let body = format!(
        r#"{{"gene_id": ["ENSG00000101349"], "name": "{}"}}"#,
        " ".repeat((1 << 20) - 60)
    );
    assert!(body.len() <= 1 << 20);
    let r = post("/genes", body.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
}

/// `varcat query --post` answers a batch as the server does (text, `@file`), and holds the body
/// to the server's limit.
#[test]
fn test_query_post() {
    let cat = crate::util::catalog().to_str().unwrap().to_string();
    let body = r#"{"gene_id": ["ENSG00000101349", "bad\u0001"], "limit": 1}"#;
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_varcat"))
            .args(args)
            .output()
            .unwrap()
    };
    let want = post("/genes", body.as_bytes()).text();
    let out = run(&["query", &cat, "--post", body, "/genes"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim_end(), want);
    let dir = crate::util::scratch("batch-query");
    let file = dir.join("body.json");
    std::fs::write(&file, body).unwrap();
    let at = format!("@{}", file.display());
    let out = run(&["query", &cat, "--post", &at, "/genes"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim_end(), want);
    let big = format!(r#"{{"gene_id": ["{}"]}}"#, "x".repeat(1 << 20));
    std::fs::write(&file, big).unwrap();
    let out = run(&["query", &cat, "--post", &at, "/genes"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("PAYLOAD_TOO_LARGE"));
}

/// The landing page's batch command works as shown.
#[test]
fn test_landing_page_batch_example_answers() {
    let html = request(&server().addr, "GET", "/", &[]).text();
    let section = html
        .split("<h2 id=\"batch\">")
        .nth(1)
        .expect("a batch section");
    let cmd = section.split("<pre class=\"ex\">").nth(1).unwrap();
    let cmd = cmd[..cmd.find("</pre>").unwrap()]
        .replace("&quot;", "\"")
        .replace("&#39;", "'");
    assert!(cmd.starts_with("curl -X POST"), "{cmd}");
    let body = cmd.split("-d '").nth(1).unwrap();
    let body = &body[..body.find('\'').unwrap()];
    let path = cmd
        .rsplit(' ')
        .next()
        .unwrap()
        .strip_prefix("/api")
        .unwrap();
    let got = batch(path, &serde_json::from_str(body).unwrap());
    assert_eq!(got.len(), 3);
    assert_eq!(got[0]["results"][0]["_id"], "ENSG00000101349");
    assert_eq!(got[2]["results"], json!([]));
}

/// A batch answer is produced one item at a time (the server streams it, holding one item):
/// there is no cap on the whole answer, and the pieces put together are the array.
#[test]
fn test_batch_answer_comes_one_item_at_a_time() {
    let app = varcat::fuzzing::sample_app();
    let Some(Ok((ep, path))) = varcat_query::api::route("/genes") else {
        panic!("no /genes")
    };
    let body = json!({ "gene_id": vec!["ENSG00000101349"; 20] }).to_string();
    let mut items =
        varcat_server::batch::start(app.current(), ep, &path, "", body.as_bytes()).unwrap();
    let mut pieces = Vec::new();
    while let Some(p) = items.next_piece() {
        pieces.push(p.unwrap());
    }
    // Each item in three pieces (what precedes its results, the results, "}"), then "]".
    assert_eq!(pieces.len(), 20 * 3 + 1);
    let one = pieces[4].len();
    assert!(pieces.chunks(3).take(20).all(|p| p[1].len() == one));
    let whole: Vec<u8> = pieces.concat();
    let v: Value = serde_json::from_slice(&whole).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 20);
}
