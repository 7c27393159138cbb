//! `GET /`: a small static HTML page (no external assets, so it works air-gapped) listing every
//! endpoint of the table with its description, parameters and clickable examples, and the
//! catalog's build metadata.

use std::fmt::Write;

use crate::http::loaded::Loaded;
use crate::pages::html::escape;
use crate::pages::openapi::operation_id;
use varcat_query::api::ENDPOINTS;
use varcat_query::endpoint::Endpoint;
use varcat_query::params::Paging;

const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;\
padding:0 1em;color:#222}h1{margin-bottom:.2em}table{border-collapse:collapse;width:100%}\
td,th{border-bottom:1px solid #ddd;padding:.35em .5em;text-align:left;vertical-align:top}\
th{background:#f4f4f4}code{font-size:90%}a{color:#0645ad}.ex a{display:block;word-break:break-all}\
.meta td:first-child{white-space:nowrap;color:#555;width:10em}summary{cursor:pointer;margin:.5em 0}small{color:#666}";

/// The page, for an API mounted at `base_path`, describing the catalog in `loaded`.
pub fn page(base_path: &str, loaded: &Loaded) -> Vec<u8> {
    let m = &loaded.cat.meta;
    let mut h = String::with_capacity(32 * 1024);
    let _ = write!(
        h,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>varcat {v}</title><style>{STYLE}</style></head><body>\
         <h1>varcat</h1><p>The IGVF Catalog query interface over one memory-mapped catalog \
         file. Every endpoint answers <code>GET</code> with JSON (<code>/llm-query</code> \
         and the batch look-ups below take <code>POST</code>); errors are \
         <code>{{message, code, issues}}</code>. Machine-readable description: \
         <a href=\"/openapi.json\">/openapi.json</a> (OpenAPI 3.1) · status: \
         <a href=\"{b}/health\">{b}/health</a></p>",
        v = escape(env!("CARGO_PKG_VERSION")),
        b = escape(base_path),
    );
    paging_and_tsv(&mut h, base_path);
    crate::pages::view::landing_section(&mut h);
    let documents: u64 = m.collections.iter().map(|c| c.documents).sum();
    let rows = [
        (
            "checksum",
            format!("{:016x}", loaded.cat.catalog.checksum()),
        ),
        ("size", format!("{} bytes", loaded.cat.catalog.file_len())),
        ("format version", m.format_version.to_string()),
        ("built by", format!("varcat {}", m.varcat_version)),
        (
            "contents",
            format!(
                "{documents} documents in {} collections, from {} input files",
                m.collections.len(),
                m.inputs.len()
            ),
        ),
    ];
    h.push_str("<h2>Catalog</h2><table class=\"meta\">");
    for (k, v) in rows {
        let _ = write!(h, "<tr><td>{}</td><td>{}</td></tr>", escape(k), escape(&v));
    }
    h.push_str("</table><details><summary>Collections and input files</summary><table>");
    for c in &m.collections {
        let _ = write!(
            h,
            "<tr><td><code>{}</code></td><td>{}</td><td>{} documents</td></tr>",
            escape(&c.name),
            escape(&c.kind),
            c.documents
        );
    }
    for i in &m.inputs {
        let _ = write!(
            h,
            "<tr><td><code>{}</code></td><td>input, {} bytes</td><td>{} documents</td></tr>",
            escape(&i.name),
            i.bytes,
            i.documents
        );
    }
    h.push_str("</table></details>");
    h.push_str(
        "<h2>Endpoints</h2><table><tr><th>§</th><th>Path and parameters</th>\
         <th>Examples</th></tr>",
    );
    // The interface's sections in their order (4.1, 4.2, … 4.25), then the client's other
    // paths in the table's.
    let mut endpoints: Vec<_> = ENDPOINTS.iter().collect();
    endpoints.sort_by_key(|ep| {
        ep.section.map_or(vec![u32::MAX], |s| {
            s.split('.')
                .map(|n| n.parse::<u32>().unwrap_or(u32::MAX))
                .collect::<Vec<_>>()
        })
    });
    for ep in endpoints {
        let params: Vec<String> = ep
            .accepts
            .params
            .iter()
            .map(|p| {
                format!(
                    "<code title=\"{}\">{}</code>",
                    escape(p.doc),
                    escape(p.name)
                )
            })
            .collect();
        let mut paging = match ep.accepts.paging {
            Paging::Paged { default, max } => format!("page, limit (default {default}, max {max})"),
            Paging::Ignored => "not paged".into(),
        };
        if varcat_query::batch::is_batchable(ep) {
            paging += &format!(
                " · POST batch of {}",
                varcat_query::batch::params(ep).join(", ")
            );
        }
        let _ = write!(
            h,
            "<tr id=\"{id}\"><td>{sec}</td><td><code><b>{b}{path}</b></code><br>{summary}<br>\
             <small>{params} · {paging}</small></td><td class=\"ex\">",
            id = escape(&row_id(ep)),
            sec = escape(ep.section.unwrap_or("")),
            b = escape(base_path),
            path = escape(ep.path),
            summary = escape(ep.summary),
            params = params.join(" "),
            paging = escape(&paging),
        );
        for url in ep.example_urls() {
            let href = format!("{base_path}{url}");
            let _ = write!(
                h,
                "<a class=\"example\" href=\"{}\">{}</a>",
                escape(&href),
                escape(&href)
            );
        }
        h.push_str("</td></tr>");
    }
    llm_query_row(&mut h, base_path);
    h.push_str("</table>");
    batch_section(&mut h, base_path);
    h.push_str("</body></html>\n");
    h.into_bytes()
}

/// How to page by links and ask for TSV, with working examples (class `feature`: the golden
/// answers are the `example` links alone).
fn paging_and_tsv(h: &mut String, base_path: &str) {
    let link = |h: &mut String, url: &str| {
        let href = escape(&format!("{base_path}{url}"));
        let _ = write!(h, "<a class=\"feature\" href=\"{href}\">{href}</a>");
    };
    h.push_str(
        "<h2>Paging and TSV</h2><p>A page of a paged endpoint says where the next one is: a \
         <code>Link</code> header (RFC 8288) with <code>rel=\"next\"</code> when another page \
         follows and <code>rel=\"prev\"</code> after the first, each this URL with only \
         <code>page</code> changed. Follow <code>next</code> until it is absent. Try \
         <code>curl -i</code> on ",
    );
    link(h, "/genes?gene_type=lncRNA&limit=2");
    h.push_str(
        "</p><p>Any answer that is a list of records (or one record) also comes as \
         tab-separated values, for R, pandas and spreadsheets: add <code>format=tsv</code> or \
         send <code>Accept: text/tab-separated-values</code>. The header row comes from the \
         record shape (nested objects as dotted columns), so it is the same on every page. ",
    );
    link(h, "/genes?gene_type=lncRNA&format=tsv");
    h.push_str(" · ");
    link(h, "/variants/genes?rsid=rs900001&verbose=true&format=tsv");
    h.push_str("</p>");
}

/// Batch look-ups ([`crate::batch`]): a command, not a link (a link is a `GET`).
/// The id of `ep`'s row: `s<section>` for a section of the interface (`s4.1`), else
/// `op-<operationId>` (`op-genes`), the OpenAPI document's name for it.
fn row_id(ep: &Endpoint) -> String {
    match ep.section {
        Some(section) => format!("s{section}"),
        None => format!("op-{}", operation_id(ep.path)),
    }
}

fn batch_section(h: &mut String, base_path: &str) {
    use varcat_query::batch::{MAX_BODY, MAX_IDS};
    let cmd = format!(
        "curl -X POST -H 'Content-Type: application/json' -d '{{\"gene_id\": [\"ENSG00000101349\", \"ENSG00000286740\", \"ENSG99999999999\"], \"limit\": 1}}' {base_path}/genes"
    );
    let _ = write!(
        h,
        "<h2 id=\"batch\">Batch look-ups</h2><p>The endpoints marked <i>POST batch</i> above \
         also take a <code>POST</code> whose JSON body holds the GET parameters, one identifier \
         parameter an array of 1 to {MAX_IDS} values (body at most {kib} KiB). Each value is \
         answered as its GET, <code>page</code>/<code>limit</code> within each, and the answer \
         lists in input order <code>{{\"query\", \"results\"}}</code>, or \
         <code>{{\"query\", \"error\"}}</code> for a malformed or absent value:</p>\
         <pre class=\"ex\">{cmd}</pre>",
        kib = MAX_BODY / 1024,
        cmd = escape(&cmd),
    );
}

/// The one `POST` route, after the `GET` endpoints: its body instead of parameters, and a
/// command instead of a link (a link is a `GET`, which the route answers 405).
fn llm_query_row(h: &mut String, base_path: &str) {
    use varcat_query::api::llm_query::{MAX_BODY, MAX_QUERY_CHARS, PATH, SUMMARY};
    let _ = write!(
        h,
        "<tr id=\"post-llm-query\"><td>r39</td><td><code><b>POST {b}{path}</b></code><br>\
         {summary}<br><small>JSON body <code>LlmQueryRequest</code>: <code>query</code> (at most \
         {MAX_QUERY_CHARS} characters), <code>password</code>, <code>verbose</code> \
         (<code>\"true\"</code>/<code>\"false\"</code>) · at most {kib} KiB · answers 501 \
         <code>NOT_IMPLEMENTED</code></small></td><td class=\"ex\"><code>{cmd}</code></td></tr>",
        b = escape(base_path),
        path = escape(PATH),
        summary = escape(SUMMARY),
        kib = MAX_BODY / 1024,
        cmd = escape(&format!(
            "curl -X POST -H 'Content-Type: application/json' -d '{{\"query\":\"…\",\"password\":\"x\"}}' {base_path}{PATH}"
        )),
    );
}
