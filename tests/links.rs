//! Paging links: a page of a paged endpoint carries `Link` with `rel="next"` when
//! another page follows and `rel="prev"` after the first; following `next` visits every row
//! once; answers that are not pages carry none. (`util::check_paging` checks the exact header
//! on every endpoint it pages.)

use serde_json::Value;
use varcat_query::api::ENDPOINTS;
use varcat_query::params::Paging;
use varcat_server::http::{App, Loaded};

use crate::util::{catalog, request, server};

/// The `rel="next"` target of a `Link` value.
fn next_of(link: Option<&str>) -> Option<String> {
    link?.split(", ").find_map(|l| {
        l.strip_suffix("; rel=\"next\"")
            .and_then(|u| u.strip_prefix('<'))
            .and_then(|u| u.strip_suffix('>'))
            .map(str::to_string)
    })
}

/// `url` without its `page` and `limit` pairs, then with `limit`.
fn with_limit(url: &str, limit: usize) -> String {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let mut pairs: Vec<&str> = query
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("page=") && !p.starts_with("limit="))
        .collect();
    let limit = format!("limit={limit}");
    pairs.push(&limit);
    format!("{path}?{}", pairs.join("&"))
}

fn rows(body: &[u8]) -> Vec<Value> {
    match serde_json::from_slice(body).unwrap() {
        Value::Array(a) => a,
        other => vec![other],
    }
}

/// Every example of every paged endpoint, walked by following `next` from a small page: no
/// page is empty, and the rows are those of one page of the largest size (when that holds
/// all). Answered in-process (the same `App::handle` the server runs) to keep it fast.
#[test]
fn test_following_next_visits_every_row_once() {
    // These page the list inside each record (its related genes and proteins), so their pages
    // are not slices of one list; for them only the walk itself is checked.
    const PER_RECORD: &[&str] = &["/genes-proteins/genes-proteins", "/variants/genes-proteins"];
    let app = App::new(Loaded::open(catalog(), false).unwrap(), "/api");
    let get = |url: &str| crate::util::get_ok(&app, url);
    let mut walked = 0;
    for ep in ENDPOINTS {
        let Paging::Paged { max, .. } = ep.accepts.paging else {
            continue;
        };
        for example in ep.example_urls() {
            let base = format!("/api{example}");
            let whole = get(&with_limit(&base, max as usize));
            let all = rows(&whole.body);
            let complete = next_of(whole.header("Link")).is_none();
            let per_record = PER_RECORD.contains(&ep.path);
            let limit = if per_record {
                1
            } else {
                all.len().div_ceil(3).max(1)
            };
            let (mut url, mut seen, mut pages) = (with_limit(&base, limit), Vec::new(), 0);
            loop {
                let r = get(&url);
                let page = rows(&r.body);
                assert!(
                    pages == 0 || !page.is_empty(),
                    "{url}: `next` led to an empty page"
                );
                seen.extend(page);
                pages += 1;
                assert!(pages < 2_000, "{base}: the walk does not end");
                match next_of(r.header("Link")) {
                    Some(next) => url = next,
                    None => break,
                }
            }
            if complete && !per_record {
                assert_eq!(
                    seen, all,
                    "{base}: rows seen following next (limit {limit})"
                );
            }
            walked += 1;
        }
    }
    assert!(walked > 100, "only {walked} examples walked");
}

#[test]
fn test_link_over_http_on_get_head_and_304() {
    let addr = &server().addr;
    let first = request(addr, "GET", "/api/genes?gene_type=lncRNA&limit=1", &[]);
    assert_eq!(
        first.header("Link"),
        Some("</api/genes?gene_type=lncRNA&limit=1&page=1>; rel=\"next\"")
    );
    // Cross-origin scripts may read it.
    assert_eq!(first.header("Access-Control-Expose-Headers"), Some("Link"));
    let target = "/api/genes?gene_type=lncRNA&limit=1&page=2";
    let want = "</api/genes?gene_type=lncRNA&limit=1&page=3>; rel=\"next\", \
                </api/genes?gene_type=lncRNA&limit=1&page=1>; rel=\"prev\"";
    let got = request(addr, "GET", target, &[]);
    assert_eq!(got.header("Link"), Some(want));
    let head = request(addr, "HEAD", target, &[]);
    assert_eq!(head.header("Link"), Some(want));
    let etag = got.header("ETag").unwrap().to_string();
    let cached = request(addr, "GET", target, &[("If-None-Match", &etag)]);
    assert_eq!(cached.status, 304);
    assert_eq!(cached.header("Link"), Some(want));
    // An absolute-form target links by its path.
    let abs = request(
        addr,
        "GET",
        &format!("http://{addr}/api/genes?gene_type=lncRNA&limit=1"),
        &[],
    );
    assert_eq!(
        abs.header("Link"),
        Some("</api/genes?gene_type=lncRNA&limit=1&page=1>; rel=\"next\"")
    );
}

#[test]
fn test_answers_that_are_not_pages_have_no_link() {
    let addr = &server().addr;
    // 4.18, 4.22 and 4.25 answer everything at once (page and limit are ignored).
    for target in [
        "/api/variants/nearest-genes?region=chr20:9564500-9564600&page=1&limit=1",
        "/api/ontology-terms/VCT_0000301/transitive-closure/VCT_0000002?page=1&limit=1",
        "/api/variants/region-summary?region=chr1:15000-25000&page=1&limit=1",
        "/api/health",
        "/openapi.json",
        "/",
    ] {
        let r = request(addr, "GET", target, &[]);
        assert_eq!(r.status, 200, "{target}");
        assert_eq!(r.header("Link"), None, "{target}");
    }
    // An error is not a page either, but scripts may still read its headers.
    let bad = request(addr, "GET", "/api/genes?gene_type=lncRNA&page=x", &[]);
    assert_eq!(bad.status, 400);
    assert_eq!(bad.header("Link"), None);
    assert_eq!(bad.header("Access-Control-Expose-Headers"), Some("Link"));
    // The last page has a way back only.
    let last = request(addr, "GET", "/api/genes?name=TSTA1&page=1", &[]);
    assert_eq!(
        last.header("Link"),
        Some("</api/genes?name=TSTA1&page=0>; rel=\"prev\"")
    );
    let only = request(addr, "GET", "/api/genes?name=TSTA1", &[]);
    assert_eq!(only.header("Link"), None);
}
