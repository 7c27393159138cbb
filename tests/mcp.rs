//! `varcat mcp`: the MCP server on stdio, driven as an agent client drives it (one JSON-RPC
//! message per line), on the catalog built from testdata.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

use crate::util::catalog;

const WAIT: Duration = Duration::from_secs(60);

/// A running `varcat mcp`: its stdin, and every stdout line parsed (a line that is not JSON
/// fails the test: stdout carries protocol messages only).
struct Mcp {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
}

impl Mcp {
    fn start(args: &[&str]) -> Mcp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_varcat"))
            .arg("mcp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let line = line.unwrap();
                let v: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line}"));
                assert_eq!(v["jsonrpc"], "2.0", "{line}");
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Mcp {
            stdin: child.stdin.take(),
            child,
            lines,
        }
    }

    fn on_catalog() -> Mcp {
        Mcp::start(&[catalog().to_str().unwrap()])
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn recv(&self) -> Value {
        self.lines.recv_timeout(WAIT).expect("an answer")
    }

    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_raw(format!("{msg}\n").as_bytes());
        let answer = self.recv();
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    fn initialize(&mut self, version: &str) -> Value {
        let params = json!({"protocolVersion": version, "capabilities": {},
                            "clientInfo": {"name": "e2e", "version": "1"}});
        let r = self.request(0, "initialize", params);
        self.send_raw(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
        r
    }

    /// A tool call's result: (isError, text).
    fn call(&mut self, id: u64, tool: &str, args: Value) -> (bool, String) {
        let r = self.request(id, "tools/call", json!({"name": tool, "arguments": args}));
        let result = &r["result"];
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or("")
            .to_string();
        (result["isError"] == true, text)
    }

    /// A tool call that must answer data.
    fn data(&mut self, id: u64, tool: &str, args: Value) -> Value {
        let (is_error, text) = self.call(id, tool, args.clone());
        assert!(!is_error, "{tool} {args}: {text}");
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("{tool} {args}: not JSON: {text}"))
    }

    /// A tool call that must be refused with an error naming `what`.
    fn refused(&mut self, id: u64, tool: &str, args: Value, what: &str) {
        let (is_error, text) = self.call(id, tool, args.clone());
        assert!(is_error, "{tool} {args}: not refused: {text}");
        assert!(
            text.contains(what),
            "{tool} {args}: {text} (should name {what})"
        );
    }

    /// Closes stdin and waits for a clean exit.
    fn close(mut self) {
        drop(self.stdin.take());
        for _ in 0..600 {
            if let Some(st) = self.child.try_wait().unwrap() {
                assert!(st.success(), "exit {st:?}");
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        panic!("varcat mcp did not exit when its stdin closed");
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn test_initialize_answers_each_revision_and_the_latest_otherwise() {
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let mut m = Mcp::on_catalog();
        let r = m.initialize(version);
        assert_eq!(r["result"]["protocolVersion"], version, "{r}");
        assert!(r["result"]["capabilities"]["tools"].is_object(), "{r}");
        assert!(r["result"]["capabilities"]["resources"].is_object(), "{r}");
        assert_eq!(m.request(1, "ping", json!({}))["result"], json!({}));
        m.close();
    }
    let mut m = Mcp::on_catalog();
    let r = m.initialize("2099-01-01");
    assert_eq!(r["result"]["protocolVersion"], "2025-11-25", "{r}");
    let r = m.request(1, "initialize", json!({}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(r["error"]["message"]
        .as_str()
        .unwrap()
        .contains("protocolVersion"));
    m.close();
}

#[test]
fn test_tools_list_offers_the_six_tools_with_their_arguments() {
    let mut m = Mcp::on_catalog();
    m.initialize("2025-06-18");
    let r = m.request(1, "tools/list", json!({}));
    let tools = r["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "igvf_catalog_get_entity",
            "igvf_catalog_search_region",
            "igvf_catalog_find_associations",
            "igvf_catalog_find_ld",
            "igvf_catalog_resolve_id",
            "igvf_catalog_list_sources"
        ]
    );
    let assoc = &tools[2]["inputSchema"];
    assert_eq!(assoc["required"], json!(["entity_id", "relationship"]));
    let rels = assoc["properties"]["relationship"]["enum"]
        .as_array()
        .unwrap();
    assert_eq!(rels.len(), 9, "eight kinds and all: {rels:?}");
    assert_eq!(
        tools[3]["inputSchema"]["properties"]["ancestry"]["enum"],
        json!(["AFR", "EAS", "EUR", "SAS"])
    );
    m.close();
}

#[test]
fn test_each_tool_answers_from_the_catalog() {
    let mut m = Mcp::on_catalog();
    m.initialize("2025-11-25");
    let d = m.data(
        1,
        "igvf_catalog_get_entity",
        json!({"id": "ENSG90000000001"}),
    );
    assert_eq!(d["entity_type"], "gene");
    assert_eq!(d["entities"][0]["_id"], "ENSG90000000001");
    assert_eq!(d["entities"][0]["_type"], "gene");
    let d = m.data(2, "igvf_catalog_get_entity", json!({"id": "tsta1"}));
    assert_eq!(
        d["entities"][0]["name"], "TSTA1",
        "a symbol matches in any case: {d}"
    );
    let d = m.data(
        3,
        "igvf_catalog_search_region",
        json!({"region": "1:10K-30K"}),
    );
    assert_eq!(d["region"], "chr1:10000-30000");
    for kind in ["genes", "variants", "regulatory_elements"] {
        assert!(d["results"][kind]["_pagination"].is_object(), "{kind}: {d}");
    }
    assert!(
        !d["results"]["genes"]["items"]
            .as_array()
            .unwrap()
            .is_empty(),
        "{d}"
    );
    let d = m.data(
        4,
        "igvf_catalog_find_associations",
        json!({"entity_id": "rs900001", "relationship": "genetic"}),
    );
    assert!(d["num_associations"].as_u64().unwrap() > 0, "{d}");
    assert!(d["associations"][0]["_endpoint"].is_string(), "{d}");
    let d = m.data(5, "igvf_catalog_find_ld", json!({"variant_id": "rs900001"}));
    assert!(d["num_ld_variants"].as_u64().unwrap() > 0, "{d}");
    assert_eq!(d["param_used"], "rsid");
    let d = m.data(6, "igvf_catalog_resolve_id", json!({"id": "rs900004"}));
    assert_eq!(d["entity_type"], "variant");
    assert!(
        d["alleles"].as_array().unwrap().len() > 1,
        "multi-allelic: {d}"
    );
    let d = m.data(
        7,
        "igvf_catalog_list_sources",
        json!({"endpoint": "variants_variants"}),
    );
    assert_eq!(d["path"], "/variants/variant-ld");
    assert_eq!(d["supports_verbose"], true);
    m.close();
}

/// A full page with nothing after it: the catalog knows no next page exists (a page-size guess
/// would say there is one).
#[test]
fn test_has_more_comes_from_the_real_next_page() {
    let mut m = Mcp::on_catalog();
    m.initialize("2025-06-18");
    let d = m.data(
        1,
        "igvf_catalog_find_associations",
        json!({"entity_id": "TSTA1", "relationship": "all", "limit": 2}),
    );
    let meta = d["query_metadata"].as_array().unwrap();
    let full_and_last = meta
        .iter()
        .find(|q| q["results_count"] == 2 && q["_pagination"]["has_more"] == false);
    assert!(full_and_last.is_some(), "no full last page: {meta:?}");
    assert!(
        meta.iter().any(|q| q["_pagination"]["has_more"] == true),
        "{meta:?}"
    );
    let d = m.data(
        2,
        "igvf_catalog_find_ld",
        json!({"variant_id": "rs900001", "limit": 1}),
    );
    assert_eq!(d["num_ld_variants"], 1);
    let more = d["_pagination"]["has_more"] == true;
    let next = m.data(
        3,
        "igvf_catalog_find_ld",
        json!({"variant_id": "rs900001", "limit": 1, "page": 1}),
    );
    assert_eq!(
        more,
        next["num_ld_variants"].as_u64().unwrap_or(0) > 0,
        "{d} then {next}"
    );
    m.close();
}

#[test]
fn test_bad_input_gets_an_error_naming_what_is_wrong() {
    let mut m = Mcp::on_catalog();
    m.initialize("2025-06-18");
    let r = m.request(1, "tools/frobnicate", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    assert!(r["error"]["message"]
        .as_str()
        .unwrap()
        .contains("tools/frobnicate"));
    let r = m.request(
        2,
        "tools/call",
        json!({"name": "igvf_catalog_nothing", "arguments": {}}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(r["error"]["message"]
        .as_str()
        .unwrap()
        .contains("igvf_catalog_nothing"));
    let r = m.request(3, "tools/call", json!({"arguments": {}}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    m.refused(4, "igvf_catalog_get_entity", json!({}), "'id'");
    m.refused(
        5,
        "igvf_catalog_get_entity",
        json!({"id": "TSTA1", "limit": "5"}),
        "'limit'",
    );
    m.refused(
        6,
        "igvf_catalog_get_entity",
        json!({"id": "TSTA1", "hint": "virus"}),
        "'hint'",
    );
    m.refused(
        7,
        "igvf_catalog_search_region",
        json!({"region": "chr1-1000-2000"}),
        "region",
    );
    m.refused(
        8,
        "igvf_catalog_search_region",
        json!({"region": "chr1:2000-1000"}),
        "region",
    );
    m.refused(
        9,
        "igvf_catalog_search_region",
        json!({"region": "chr1:1-2", "include": ["cats"]}),
        "'include[0]'",
    );
    m.refused(
        10,
        "igvf_catalog_get_entity",
        json!({"id": "!!not an id!!"}),
        "identifier",
    );
    m.refused(
        11,
        "igvf_catalog_find_ld",
        json!({"variant_id": "ENSG90000000001"}),
        "variant_id",
    );
    m.refused(
        12,
        "igvf_catalog_find_associations",
        json!({"entity_id": "TSTA1", "relationship": "ld"}),
        "ld",
    );
    m.refused(
        13,
        "igvf_catalog_find_associations",
        json!({"entity_id": "rs900001", "relationship": "ld", "filters": {"r2": "high"}}),
        "'filters.r2'",
    );
    m.refused(
        14,
        "igvf_catalog_list_sources",
        json!({"endpoint": "nowhere"}),
        "endpoint",
    );
    let r = m.request(15, "resources/read", json!({"uri": "igvf://nothing"}));
    assert_eq!(r["error"]["code"], -32002, "{r}");
    // Not JSON, not an object, not 2.0: errors with a null id; the server goes on.
    m.send_raw(b"{not json\n");
    assert_eq!(m.recv()["error"]["code"], -32700);
    m.send_raw(b"42\n");
    assert_eq!(m.recv()["error"]["code"], -32600);
    m.send_raw(b"{\"jsonrpc\":\"1.0\",\"id\":16,\"method\":\"ping\"}\n");
    assert_eq!(m.recv()["error"]["code"], -32600);
    assert_eq!(m.request(17, "ping", json!({}))["result"], json!({}));
    m.close();
}

#[test]
fn test_batches_are_refused() {
    let mut m = Mcp::on_catalog();
    m.initialize("2025-03-26");
    m.send_raw(b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]\n");
    let r = m.recv();
    assert_eq!(r["error"]["code"], -32600, "{r}");
    assert_eq!(r["id"], Value::Null);
    assert!(
        r["error"]["message"].as_str().unwrap().contains("batch"),
        "{r}"
    );
    assert_eq!(m.request(3, "ping", json!({}))["result"], json!({}));
    m.close();
}

#[test]
fn test_a_message_over_one_mib_is_refused_and_the_server_goes_on() {
    let mut m = Mcp::on_catalog();
    m.initialize("2025-06-18");
    let filler = "x".repeat(1 << 20);
    let big = format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{{\"pad\":\"{filler}\"}}}}\n");
    m.send_raw(big.as_bytes());
    let r = m.recv();
    assert_eq!(r["error"]["code"], -32600, "{r}");
    assert!(
        r["error"]["message"].as_str().unwrap().contains("limit"),
        "{r}"
    );
    // Just under the limit is read.
    let pad = "y".repeat((1 << 20) - 200);
    let ok = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{{\"pad\":\"{pad}\"}}}}\n"
    );
    m.send_raw(ok.as_bytes());
    assert_eq!(m.recv()["id"], 2);
    assert_eq!(m.request(3, "ping", json!({}))["result"], json!({}));
    m.close();
}

#[test]
fn test_resources_are_listed_and_read() {
    let mut m = Mcp::on_catalog();
    m.initialize("2025-06-18");
    let r = m.request(1, "resources/list", json!({}));
    let uris: Vec<&str> = r["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "igvf://schemas/gene",
            "igvf://schemas/variant",
            "igvf://guide/identifiers",
            "igvf://examples/queries"
        ]
    );
    for (i, uri) in uris.iter().enumerate() {
        let r = m.request(2 + i as u64, "resources/read", json!({"uri": uri}));
        assert!(
            !r["result"]["contents"][0]["text"]
                .as_str()
                .unwrap()
                .is_empty(),
            "{r}"
        );
    }
    m.close();
}

#[test]
fn test_stdin_closing_ends_the_process_cleanly_even_with_calls_under_way() {
    let mut m = Mcp::on_catalog();
    m.initialize("2025-06-18");
    for id in 1..=8u64 {
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                         "params": {"name": "igvf_catalog_find_associations",
                                    "arguments": {"entity_id": "TSTA1", "relationship": "all"}}});
        m.send_raw(format!("{msg}\n").as_bytes());
    }
    drop(m.stdin.take());
    let mut ids: Vec<u64> = (0..8).map(|_| m.recv()["id"].as_u64().unwrap()).collect();
    ids.sort_unstable();
    assert_eq!(
        ids,
        (1..=8).collect::<Vec<_>>(),
        "every answer is written before exit"
    );
    m.close();
}

/// Without a catalog the bundled sample is used (built first when missing or stale); whatever
/// the bootstrap reports goes to stderr, so the first stdout line is the answer.
#[test]
fn test_without_a_catalog_the_sample_is_served_and_stdout_stays_protocol_only() {
    let mut m = Mcp::start(&[]);
    let r = m.initialize("2025-06-18");
    assert_eq!(r["result"]["protocolVersion"], "2025-06-18", "{r}");
    let d = m.data(1, "igvf_catalog_get_entity", json!({"id": "CPX-9001"}));
    assert_eq!(d["entity_type"], "complex", "{d}");
    m.close();
}

/// A request to the shared server's MCP route with the given `Host` and `Origin`.
fn http(method: &str, origin: Option<&str>, body: &[u8]) -> crate::util::Resp {
    use std::io::{Read, Write as _};
    let addr = &crate::util::server().addr;
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let origin = origin
        .map(|o| format!("Origin: {o}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "{method} /api/mcp HTTP/1.1\r\nHost: {addr}\r\n{origin}Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    crate::util::parse_response(&raw, false)
}

#[test]
fn test_http_transport_answers_as_stdio_does() {
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "e2e", "version": "1"}}});
    let r = http("POST", None, init.to_string().as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("Content-Type"), Some("application/json"));
    assert_eq!(r.json()["result"]["protocolVersion"], "2025-06-18");
    let note = http(
        "POST",
        None,
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!((note.status, note.body.len()), (202, 0));
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "igvf_catalog_find_associations",
                                 "arguments": {"entity_id": "TSTA1", "relationship": "all"}}});
    let over_http = http("POST", None, call.to_string().as_bytes()).json();
    let mut m = Mcp::on_catalog();
    m.initialize("2025-06-18");
    let over_stdio = m.request(2, "tools/call", call["params"].clone());
    assert_eq!(over_http, over_stdio);
    m.close();
    let batch = http("POST", None, format!("[{call}]").as_bytes());
    assert_eq!(batch.json()["error"]["code"], -32600);
    let get = http("GET", None, b"");
    assert_eq!(get.status, 405);
    assert_eq!(get.header("Allow"), Some("POST, OPTIONS"));
    let big = vec![b' '; (1 << 20) + 1];
    assert_eq!(http("POST", None, &big).status, 413);
}

#[test]
fn test_http_transport_refuses_other_origins() {
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let own = format!("http://{}", crate::util::server().addr);
    assert_eq!(http("POST", Some(&own), ping).status, 200);
    for other in ["http://evil.example", "https://127.0.0.1", "null"] {
        let r = http("POST", Some(other), ping);
        assert_eq!(r.status, 403, "{other}: {}", r.text());
        assert!(r.text().contains("cross-origin"), "{}", r.text());
        assert_eq!(http("OPTIONS", Some(other), b"").status, 403, "{other}");
    }
}
