//! `/openapi.json` and the landing page, end to end: every example answer (plain, verbose and
//! paged) validates against the documented response schema, every error against the error
//! schema, and every link on the landing page answers 200.
//!
//! The validator below is a small JSON Schema subset (the keywords the document uses); it
//! shares no code with the generator, so a member the server renders with another type than
//! the document states fails here.

use serde_json::Value;

use crate::util::{get, post, request, server};

/// Why `v` does not match `schema` (None when it does).
fn violation(doc: &Value, schema: &Value, v: &Value, at: &str) -> Option<String> {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/components/schemas/").expect("local ref");
        return violation(doc, &doc["components"]["schemas"][name], v, at);
    }
    if let Some(alts) = schema.get("anyOf").and_then(Value::as_array) {
        let errs: Vec<String> = alts
            .iter()
            .filter_map(|a| violation(doc, a, v, at))
            .collect();
        return (errs.len() == alts.len()).then(|| format!("{at}: no alternative fits: {errs:?}"));
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.contains(v) {
            return Some(format!("{at}: {v} not in {allowed:?}"));
        }
    }
    if let Some(t) = schema.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => panic!("bad type {t}"),
        };
        let fits = |ty: &str| match ty {
            "string" => v.is_string(),
            "number" => v.is_number(),
            "integer" => v.as_f64().is_some_and(|x| x.fract() == 0.0),
            "boolean" => v.is_boolean(),
            "array" => v.is_array(),
            "object" => v.is_object(),
            "null" => v.is_null(),
            _ => panic!("unknown type {ty}"),
        };
        if !types.iter().any(|ty| fits(ty)) {
            return Some(format!("{at}: {v} is not {types:?}"));
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, x) in arr.iter().enumerate() {
            if let Some(e) = violation(doc, items, x, &format!("{at}[{i}]")) {
                return Some(e);
            }
        }
    }
    if let Some(obj) = v.as_object() {
        let props = schema.get("properties").and_then(Value::as_object);
        for name in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = name.as_str().unwrap();
            if !obj.contains_key(name) {
                return Some(format!("{at}: member {name} missing"));
            }
        }
        for (k, x) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(s) => {
                    if let Some(e) = violation(doc, s, x, &format!("{at}.{k}")) {
                        return Some(e);
                    }
                }
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    return Some(format!("{at}: undocumented member {k}"))
                }
                None => {}
            }
        }
    }
    None
}

fn document() -> Value {
    let r = request(&server().addr, "GET", "/openapi.json", &[]);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("Content-Type"), Some("application/json"));
    r.json()
}

#[test]
fn test_document_is_served_at_both_paths() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["servers"][0]["url"], "/api");
    assert_eq!(doc["info"]["license"]["identifier"], "MIT");
    let below = get("/openapi.json");
    assert_eq!(below.status, 200);
    assert_eq!(below.json(), doc);
    // The document changes with the binary too: its tag is not the catalog's alone.
    let tag = below.header("ETag").unwrap().to_string();
    let catalog_tag = get("/health").header("ETag").unwrap().to_string();
    assert_ne!(tag, catalog_tag);
    assert!(tag.contains(env!("CARGO_PKG_VERSION")), "{tag}");
    let again = request(
        &server().addr,
        "GET",
        "/openapi.json",
        &[("If-None-Match", &tag)],
    );
    assert_eq!(again.status, 304);
    // Every endpoint, /health and /llm-query.
    assert_eq!(
        doc["paths"].as_object().unwrap().len(),
        varcat_query::api::ENDPOINTS.len() + 2
    );
}

#[test]
fn test_example_answers_match_their_schemas() {
    let doc = document();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        match item.get("post") {
            Some(op) if path == "/llm-query" => {
                // The POST route: a valid body gets the 501 its document declares.
                let r = post(path, br#"{"query":"genes near rs1","password":"x"}"#);
                assert_eq!(r.status, 501, "POST {path}: {}", r.text());
                let schema = &op["responses"]["501"]["content"]["application/json"]["schema"];
                assert_eq!(violation(&doc, schema, &r.json(), "$"), None, "POST {path}");
                checked += 1;
                continue;
            }
            Some(op) => checked += check_batch_examples(&doc, path, op, &item["get"]),
            None => {}
        }
        let op = &item["get"];
        let ok = &op["responses"]["200"]["content"]["application/json"]["schema"];
        let examples: Vec<String> = match op.get("x-varcat-examples") {
            Some(e) => e
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u.as_str().unwrap().to_string())
                .collect(),
            None => vec![path.clone()],
        };
        for url in examples {
            let sep = if url.contains('?') { '&' } else { '?' };
            for variant in [
                url.clone(),
                format!("{url}{sep}verbose=true"),
                format!("{url}{sep}page=1&limit=1"),
            ] {
                let r = get(&variant);
                let schema = match r.status {
                    200 => ok.clone(),
                    // Only an example that already pins verbose or paging may fail: a repeat.
                    400 if r.text().contains("is given more than once") => {
                        serde_json::json!({"$ref": "#/components/schemas/Error"})
                    }
                    s => panic!("{variant}: status {s}: {}", r.text()),
                };
                if let Some(e) = violation(&doc, &schema, &r.json(), "$") {
                    panic!("{variant}: {e}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} answers checked");
}

/// A batch POST's answer matches its schema: each GET example that names a listed parameter,
/// as a batch of that value and a malformed one (so both item forms are checked).
fn check_batch_examples(doc: &Value, path: &str, op: &Value, get_op: &Value) -> usize {
    let props = &op["requestBody"]["content"]["application/json"]["schema"]["properties"];
    let listed: Vec<&str> = props
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, s)| s.get("anyOf").is_some())
        .map(|(n, _)| n.as_str())
        .collect();
    let schema = &op["responses"]["200"]["content"]["application/json"]["schema"];
    let mut checked = 0;
    for url in get_op["x-varcat-examples"].as_array().unwrap() {
        let url = url.as_str().unwrap();
        let Some((_, query)) = url.split_once('?') else {
            continue;
        };
        let mut body = serde_json::Map::new();
        let mut list = None;
        for (k, v) in varcat_query::query::RawQuery::parse(query).unwrap().pairs {
            let (k, v) = (k.into_owned(), v.into_owned());
            if list.is_none() && listed.contains(&k.as_str()) {
                list = Some(k.clone());
                body.insert(k, serde_json::json!([v, "bad\u{1}"]));
            } else {
                body.insert(k, Value::from(v));
            }
        }
        if list.is_none() {
            continue;
        }
        let r = post(path, Value::Object(body).to_string().as_bytes());
        assert_eq!(r.status, 200, "POST {path} ({url}): {}", r.text());
        let got = r.json();
        assert_eq!(got.as_array().map(Vec::len), Some(2), "POST {path} ({url})");
        assert_eq!(
            got[1]["error"]["code"], "BAD_REQUEST",
            "POST {path} ({url}): {got}"
        );
        if let Some(e) = violation(doc, schema, &got, "$") {
            panic!("POST {path} ({url}): {e}");
        }
        checked += 1;
    }
    checked
}

#[test]
fn test_error_answers_match_the_error_schema() {
    let doc = document();
    let err = serde_json::json!({"$ref": "#/components/schemas/Error"});
    for (url, status) in [
        ("/genes/proteins", 400),
        ("/genes/proteins?gene_name=x&limit=9999&colour=red", 400),
        ("/no/such/path", 404),
        ("/variants/genes/summary?rsid=rs1", 404),
    ] {
        let r = get(url);
        assert_eq!(r.status, status, "{url}");
        assert_eq!(violation(&doc, &err, &r.json(), "$"), None, "{url}");
    }
}

#[test]
fn test_validator_rejects_what_it_should() {
    let doc = document();
    let gene = serde_json::json!({"$ref": "#/components/schemas/Gene"});
    let mut g = get("/variants/nearest-genes?region=chr1:25000-25010").json()[0].clone();
    assert_eq!(violation(&doc, &gene, &g, "$"), None);
    g["start"] = Value::from("12");
    assert!(violation(&doc, &gene, &g, "$").is_some());
    g.as_object_mut().unwrap().remove("start");
    assert!(violation(&doc, &gene, &g, "$").is_some());
}

#[test]
fn test_landing_page_lists_every_endpoint_and_its_links_answer() {
    let r = request(&server().addr, "GET", "/", &[]);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("Content-Type"), Some("text/html; charset=utf-8"));
    let html = r.text();
    assert!(html.contains("format version") && html.contains("checksum"));
    for ep in varcat_query::api::ENDPOINTS {
        assert!(html.contains(&format!("<b>/api{}</b>", ep.path.replace('&', "&amp;"))));
    }
    // The POST route is listed too, with its body and a command rather than a link.
    let post = html
        .split("<tr id=\"post-llm-query\">")
        .nth(1)
        .expect("a POST /llm-query row");
    let post = &post[..post.find("</tr>").unwrap()];
    assert!(post.contains("<b>POST /api/llm-query</b>"), "{post}");
    assert!(
        post.contains("LlmQueryRequest") && post.contains("curl -X POST"),
        "{post}"
    );
    assert!(!post.contains("href="), "{post}");
    let links: Vec<String> = html
        .split("href=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].replace("&amp;", "&"))
        .collect();
    let examples: usize = varcat_query::api::ENDPOINTS
        .iter()
        .map(|e| e.examples.len())
        .sum();
    assert!(links.len() >= examples + 2, "{} links", links.len());
    for link in links {
        let r = request(&server().addr, "GET", &link, &[]);
        assert_eq!(r.status, 200, "{link}: {}", r.text());
    }
}

/// Every handler, on its examples (plain, verbose and paged), reads only the parameters its
/// endpoint declares: `Params::get` asserts it in debug builds, and a panic is a 500.
#[test]
#[cfg(debug_assertions)]
fn test_handlers_read_only_declared_parameters() {
    let app = varcat::fuzzing::sample_app();
    for ep in varcat_query::api::ENDPOINTS {
        for url in ep.example_urls() {
            let sep = if url.contains('?') { '&' } else { '?' };
            let verbose = format!("/api{url}{sep}verbose=true");
            let paged = format!("/api{url}{sep}page=1&limit=1");
            let urls = [
                Some(format!("/api{url}")),
                (!url.contains("verbose=")).then_some(verbose),
                (!url.contains("page=") && !url.contains("limit=")).then_some(paged),
            ];
            for url in urls.into_iter().flatten() {
                let req = varcat_server::http::Request {
                    method: "GET",
                    url: &url,
                    ..Default::default()
                };
                let r = app.handle(&req);
                assert_eq!(r.status, 200, "{url}: {}", String::from_utf8_lossy(&r.body));
            }
        }
    }
}

/// A value of `kind` that parses (what it finds does not matter).
fn sample_value(kind: varcat_query::params::Kind) -> String {
    use varcat_query::params::Kind;
    match kind {
        Kind::Id | Kind::Text | Kind::VariantId => "x".into(),
        Kind::Enum(values) => values[0].replace(' ', "%20"),
        Kind::Bool => "true".into(),
        Kind::Region(_) => "chr1:1-100".into(),
        Kind::Threshold => "gte:0".into(),
        Kind::Number => "0".into(),
        Kind::Int => "1".into(),
        Kind::IntRange => "range:1-300".into(),
        Kind::Rsid => "rs1".into(),
        Kind::CaId => "CA1".into(),
        Kind::Spdi => "NC_000001.11:1:A:C".into(),
        Kind::Hgvs => "NC_000001.11:g.2A>C".into(),
        Kind::Hgnc => "HGNC:1".into(),
        Kind::TermId => "EFO_0000001".into(),
    }
}

/// Every (collection, member, index) a handler or a shape names is one the schema stores: the
/// server names them by the schema's handles, and its primitives check each use against the
/// schema in debug builds (a panic is a 500). Driven here through every handler's examples,
/// each with every declared parameter added, plain and verbose, for each organism the
/// endpoint serves, so each filter's branch runs.
#[test]
#[cfg(debug_assertions)]
fn test_handlers_name_only_what_the_schema_stores() {
    let app = varcat::fuzzing::sample_app();
    let mut asked = 0;
    for ep in varcat_query::api::ENDPOINTS {
        for url in ep.example_urls() {
            let sep = if url.contains('?') { '&' } else { '?' };
            let mut urls = vec![format!("/api{url}")];
            for p in ep.accepts.params {
                let in_path = ep.path.contains(&format!("{{{}}}", p.name));
                if !in_path && !url.contains(&format!("{}=", p.name)) {
                    let v = sample_value(p.kind);
                    urls.push(format!("/api{url}{sep}{}={v}", p.name));
                }
            }
            if !url.contains("organism=") {
                for o in ep.accepts.organisms {
                    let o = o.name().replace(' ', "%20");
                    urls.push(format!("/api{url}{sep}organism={o}"));
                }
            }
            for url in urls {
                let sep = if url.contains('?') { '&' } else { '?' };
                for url in [url.clone(), format!("{url}{sep}verbose=true")] {
                    let req = varcat_server::http::Request {
                        method: "GET",
                        url: &url,
                        ..Default::default()
                    };
                    let r = app.handle(&req);
                    assert_ne!(r.status, 500, "{url}: {}", String::from_utf8_lossy(&r.body));
                    asked += 1;
                }
            }
        }
    }
    assert!(asked > 300, "{asked} requests");
}
