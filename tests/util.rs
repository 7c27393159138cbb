//! Test support: the shared server, requests through the shared HTTP/1.1 client, JSON helpers,
//! and the expected rows, shapes and raw-socket helpers that tests in several files share.

use std::io::Read;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use crate::harness::{spawn, Proc};
use crate::oracle::{self, data, obj, s, sorted_by_key, VariantQuery};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn testdata() -> PathBuf {
    root().join("testdata/catalog")
}

/// A scratch directory unique to this test process, removed when dropped.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn scratch(name: &str) -> Scratch {
    Scratch(scratch_dir(name))
}

/// Creates `varcat-e2e-<pid>-<name>` under cargo's scratch directory for tests (inside
/// `target/`, not `/tmp`). Directories that outlive their process (the shared catalog, which
/// the server maps until the process ends, or a killed run's) are swept by the next run.
fn scratch_dir(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
    static SWEEP: std::sync::Once = std::sync::Once::new();
    SWEEP.call_once(|| {
        for e in std::fs::read_dir(root).into_iter().flatten().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let pid = name
                .strip_prefix("varcat-e2e-")
                .and_then(|r| r.split('-').next());
            if pid.is_some_and(|p| !Path::new("/proc").join(p).exists()) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    });
    let d = root.join(format!("varcat-e2e-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `varcat build <input> -o <out> --quiet`, to be run or spawned.
pub fn build_command(input: &Path, out: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_varcat"));
    c.arg("build").arg(input).arg("-o").arg(out).arg("--quiet");
    c
}

/// The catalog built from testdata (once per test process).
pub fn catalog() -> &'static Path {
    static CAT: OnceLock<PathBuf> = OnceLock::new();
    CAT.get_or_init(|| {
        let out = scratch_dir("catalog").join("test.varcat");
        let st = build_command(&testdata(), &out).status().unwrap();
        assert!(st.success(), "varcat build failed");
        out
    })
}

/// The server shared by most tests (it exits when the test process ends: `--exit-on-stdin-eof`).
pub fn server() -> &'static Proc {
    static S: OnceLock<Proc> = OnceLock::new();
    S.get_or_init(|| spawn(catalog(), &["--quiet"], None))
}

/// An answer (the client is shared with the load tools: `varcat_tools::client`).
pub type Resp = varcat_tools::client::Answer;

/// Sends one request (Connection: close) and reads the whole response.
pub fn request(addr: &str, method: &str, target: &str, headers: &[(&str, &str)]) -> Resp {
    varcat_tools::client::request(addr, method, target, headers)
        .unwrap_or_else(|e| panic!("{method} {target}: {e}"))
}

/// Parses everything read off a connection the server closed (see
/// `varcat_tools::client::parse_response`).
pub fn parse_response(raw: &[u8], head: bool) -> Resp {
    varcat_tools::client::parse_response(raw, head).expect("an HTTP answer")
}

/// GET `/api<path_query>` on the shared server.
pub fn get(path_query: &str) -> Resp {
    request(&server().addr, "GET", &format!("/api{path_query}"), &[])
}

/// GET and expect 200 with a JSON body.
pub fn get_json(path_query: &str) -> Value {
    let r = get(path_query);
    assert_eq!(r.status, 200, "{path_query}: {}", r.text());
    r.json()
}

/// Asserts that `path_query` answers 400 with exactly these issues (message, path).
pub fn assert_bad_request(path_query: &str, issues: &[(&str, &[&str])]) {
    let r = get(path_query);
    assert_eq!(r.status, 400, "{path_query}: {}", r.text());
    let message = if issues.len() == 1 {
        issues[0].0.to_string()
    } else {
        format!(
            "{} problems: {}",
            issues.len(),
            issues.iter().map(|i| i.0).collect::<Vec<_>>().join("; ")
        )
    };
    let want = serde_json::json!({
        "message": message,
        "code": "BAD_REQUEST",
        "issues": issues.iter().map(|(m, p)| serde_json::json!({"message": m, "path": p})).collect::<Vec<_>>(),
    });
    assert_eq!(r.json(), want, "{path_query}");
}

/// Compares two JSON values including the order of object members.
pub fn assert_json_eq(got: &Value, want: &Value, ctx: &str) {
    // An empty expectation proves nothing about the rows (an oracle that finds nothing agrees
    // with a handler that finds nothing): where nothing is the answer, say so.
    let empty = want.as_array().is_some_and(|a| a.is_empty())
        || want.as_object().is_some_and(|o| o.is_empty());
    assert!(
        !empty,
        "{ctx}: empty expectation; use assert_rows(.., expect_empty: true) where nothing is the answer"
    );
    json_eq(got, want, ctx)
}

/// Compares an answer with its expected rows; `expect_empty` says the case has none on purpose
/// (and then checks that the oracle agrees).
pub fn assert_rows(got: &Value, want: &Value, ctx: &str, expect_empty: bool) {
    if expect_empty {
        let empty = want.as_array().is_some_and(|a| a.is_empty())
            || want.as_object().is_some_and(|o| o.is_empty());
        assert!(empty, "{ctx}: expected no rows, the oracle has {want}");
        json_eq(got, want, ctx)
    } else {
        assert_json_eq(got, want, ctx)
    }
}

fn json_eq(got: &Value, want: &Value, ctx: &str) {
    let (g, w) = (
        serde_json::to_string_pretty(got).unwrap(),
        serde_json::to_string_pretty(want).unwrap(),
    );
    if g != w {
        let line = g
            .lines()
            .zip(w.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{ctx}: answers differ at line {line}\n--- got (around) ---\n{}\n--- want (around) ---\n{}",
            g.lines().skip(line.saturating_sub(3)).take(8).collect::<Vec<_>>().join("\n"),
            w.lines().skip(line.saturating_sub(3)).take(8).collect::<Vec<_>>().join("\n"),
        );
    }
}

/// Pages `path_query` (which must not carry page/limit) and checks page laws against `all`:
/// page 0 and 1, the last page, past the end.
pub fn check_paging(path_query: &str, all: &[Value], limit: usize) {
    assert!(
        all.len() > limit,
        "{path_query}: need more than {limit} rows to test paging, have {}",
        all.len()
    );
    let sep = if path_query.contains('?') { '&' } else { '?' };
    let pages = all.len().div_ceil(limit);
    for page in [0, 1, pages - 1, pages, pages + 5] {
        let target = format!("{path_query}{sep}page={page}&limit={limit}");
        let r = get(&target);
        assert_eq!(r.status, 200, "{target}: {}", r.text());
        // The paging links: next while another page follows, prev after the first (the same
        // URL with only `page` changed).
        let link = |p: usize, rel: &str| {
            format!("</api{path_query}{sep}page={p}&limit={limit}>; rel=\"{rel}\"")
        };
        let mut links = Vec::new();
        if page + 1 < pages {
            links.push(link(page + 1, "next"));
        }
        if page > 0 {
            links.push(link(page - 1, "prev"));
        }
        let want_link = (!links.is_empty()).then(|| links.join(", "));
        assert_eq!(r.header("Link"), want_link.as_deref(), "{target}: Link");
        let got = r.json();
        let want: Vec<Value> = all.iter().skip(page * limit).take(limit).cloned().collect();
        // Past the end there is nothing, by the paging law.
        let past_end = page >= pages;
        assert_rows(
            &got,
            &Value::Array(want),
            &format!("{path_query} page {page}"),
            past_end,
        );
    }
}

/// Sends a POST of `body` (JSON, Content-Length framed, Connection: close) to `/api<path>` on
/// the shared server and reads the whole response.
pub fn post(path: &str, body: &[u8]) -> Resp {
    post_to(&server().addr, path, body)
}

/// [`post`] to the server at `addr`.
pub fn post_to(addr: &str, path: &str, body: &[u8]) -> Resp {
    post_with(addr, path, body, &[])
}

/// [`post_to`] with extra request headers.
pub fn post_with(addr: &str, path: &str, body: &[u8], headers: &[(&str, &str)]) -> Resp {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    let mut head = format!(
        "POST /api{path} HTTP/1.1\r\nHost: varcat\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).expect("write");
    // The server may refuse a large body unread and close: a failed write is then expected.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    parse_response(&raw, false)
}

/// `app`'s answer to a GET of `url`, answered in-process (the same `App::handle` the server
/// runs), which must be 200.
pub fn get_ok(app: &varcat_server::http::App, url: &str) -> varcat_server::http::Response {
    let r = app.handle(&varcat_server::http::Request {
        method: "GET",
        url,
        ..Default::default()
    });
    assert_eq!(r.status, 200, "{url}: {}", String::from_utf8_lossy(&r.body));
    r
}

// Expected rows, shapes and small helpers that tests of several path families (or several
// cross-cutting files) share.

/// Sets member `k` of `m` to `v`.
pub fn put(m: &mut Map<String, Value>, k: &str, v: Value) {
    m.insert(k.to_string(), v);
}

/// A transcript's members as the paths answer them (answer name, document member).
pub const TRANSCRIPT: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("transcript_type", "transcript_type"),
    ("chr", "chr"),
    ("start", "start"),
    ("end", "end"),
    ("strand", "strand"),
    ("name", "name"),
    ("gene_name", "gene_name"),
    ("refseq_transcript_ids", "refseq_transcript_ids"),
    ("MANE_Select", "MANE_Select"),
    ("source", "source"),
    ("version", "version"),
    ("source_url", "source_url"),
];

/// Edges of `coll` whose `end` is one of `handles`, in key order.
pub fn edges(coll: &str, end: &str, handles: &[String]) -> Vec<&'static Value> {
    sorted_by_key(
        data()
            .docs(coll)
            .iter()
            .filter(|e| handles.iter().any(|h| h == s(e, end)))
            .collect(),
    )
}

/// The handles (`coll/_key`) of `docs`.
pub fn handles(coll: &str, docs: &[&Value]) -> Vec<String> {
    docs.iter()
        .map(|d| format!("{coll}/{}", s(d, "_key")))
        .collect()
}

/// The documents of `coll` passing `keep`, in key order.
pub fn docs(coll: &str, keep: impl Fn(&Value) -> bool) -> Vec<&'static Value> {
    let mut v: Vec<&Value> = data().docs(coll).iter().filter(|d| keep(d)).collect();
    v.sort_by(|a, b| s(a, "_key").cmp(s(b, "_key")));
    v
}

/// The documents of `coll` passing `keep`, in key order, in `shape`.
pub fn rows(coll: &str, keep: impl Fn(&Value) -> bool, shape: &[(&str, &str)]) -> Vec<Value> {
    sorted_by_key(data().docs(coll).iter().filter(|d| keep(d)).collect())
        .into_iter()
        .map(|d| obj(d, shape))
        .collect()
}

/// Whether the array member `field` of `d` holds `v`.
pub fn has(d: &Value, field: &str, v: &str) -> bool {
    d[field]
        .as_array()
        .is_some_and(|a| a.iter().any(|x| x == v))
}

/// The first page (25 rows) of `want`.
pub fn check(q: &str, want: Vec<Value>) {
    let page: Vec<Value> = want.into_iter().take(25).collect();
    assert_json_eq(&get_json(q), &Value::Array(page), q);
}

/// The human gene TSTA1, found by name.
pub fn tsta1() -> Vec<&'static Value> {
    oracle::genes("Homo sapiens", None, None, None, Some("TSTA1"))
}

/// The score members of a coding variant, in answer order.
pub use varcat_format::schema::CODING_SCORES as SCORES;

/// A coding variant as the coding-variant paths answer it.
pub fn coding_row(cv: &Value) -> Value {
    let mut m = Map::new();
    m.insert("_id".into(), cv["_key"].clone());
    m.insert("name".into(), json!(oracle::display_name(s(cv, "name"))));
    for f in [
        "ref",
        "alt",
        "protein_name",
        "protein_id",
        "gene_name",
        "transcript_id",
        "hgvsp",
        "hgvsc",
        "refcodon",
    ] {
        m.insert(f.into(), cv.get(f).cloned().unwrap_or(Value::Null));
    }
    for f in ["aapos", "codonpos"] {
        m.insert(
            f.into(),
            cv.get(f)
                .and_then(Value::as_f64)
                .map_or(Value::Null, |x| json!(x as i64)),
        );
    }
    for f in SCORES.iter().chain(&["source", "source_url"]) {
        m.insert(f.to_string(), cv.get(*f).cloned().unwrap_or(Value::Null));
    }
    Value::Object(m)
}

/// A variant query naming nothing yet (filled in with `..q()`).
pub fn q<'a>() -> VariantQuery<'a> {
    VariantQuery::default()
}

/// A small valid request, for tests that need any answer.
pub const Q: &str = "/api/genes-structure?gene_name=PAK5&limit=3";

/// Reads what the server sends on `s` until it closes the connection (`true`) or `wait` passes
/// (`false`); returns whether it closed and everything read.
pub fn read_until_closed(s: &mut TcpStream, wait: Duration) -> (bool, Vec<u8>) {
    let end = Instant::now() + wait;
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    while Instant::now() < end {
        s.set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        match s.read(&mut buf) {
            Ok(0) => return (true, out),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return (true, out),
        }
    }
    (false, out)
}

/// The anonymous memory of process `pid`, bytes.
pub fn rss_anon(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("RssAnon:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap()
        * 1024
}
