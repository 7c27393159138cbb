//! Batch look-ups: `POST` to an endpoint that starts from identifiers, with the GET
//! parameters as a JSON object in the body and one identifier parameter an array of up to
//! [`MAX_IDS`] values. Each value is answered as its own GET would be (`page`/`limit` apply
//! within each), and the answer is an array in input order of `{"query", "results"}`, or
//! `{"query", "error"}` for a value that is malformed or not in the catalog.
//!
//! The answer is streamed ([`Items`]): each item is computed when the previous one has been
//! handed to the socket, so a batch holds one item in memory however long its answer, and a
//! client that does not read holds its own connection and one item.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use serde_json::{json, Value};

use crate::api::{Ctx, Endpoint};
use crate::error::{ApiError, Issue};
use crate::http::Loaded;
use crate::params;
use crate::query::{RawQuery, MAX_PARAMS};

/// Most identifiers one request may list (as Ensembl and MyVariant).
pub const MAX_IDS: usize = 1000;

/// Largest body read: 1,000 ids of 1 KB, or a few at the identifier limit.
pub const MAX_BODY: usize = 1 << 20;

/// The parameters that may be an array in a POST body, per endpoint path: the endpoints that
/// start from variants, genes, proteins, transcripts or ontology terms given as query
/// parameters. Listed, not inferred, so that making an endpoint batchable is a decision; an
/// identifier in the path (`/ontology-terms/{id}/children`) is not batchable.
static BATCHABLE: &[(&str, &[&str])] = &[
    ("/variants", VARIANT),
    ("/variants/freq", VARIANT),
    ("/variants/summary", VARIANT),
    ("/variants/phenotypes", VARIANT),
    ("/variants/phenotypes/score-summary", &["variant_id"]),
    ("/variants/diseases", VARIANT),
    ("/variants/drugs", VARIANT),
    ("/variants/predictions", VARIANT),
    ("/variants/predictions-count", VARIANT),
    ("/variants/genes", VARIANT),
    ("/variants/genes/summary", VARIANT),
    ("/variants/genes-proteins", &["variant_id"]),
    ("/variants/proteins", VARIANT),
    ("/variants/genomic-elements", VARIANT),
    ("/variants/genomic-elements/genes", VARIANT),
    ("/variants/genomic-elements/cell-gene-predictions", VARIANT),
    ("/variants/biosamples", VARIANT),
    ("/variants/variant-ld", VARIANT),
    ("/variants/variant-ld/summary", VARIANT),
    ("/variants/coding-variants", VARIANT),
    ("/genes", &["gene_id", "hgnc_id"]),
    ("/genes/variants", GENE),
    ("/genes/transcripts", GENE),
    ("/genes/proteins", GENE),
    ("/genes/genomic-elements", GENE),
    ("/genes/genes", GENE),
    ("/genes/diseases", GENE),
    ("/genes/pathways", GENE),
    ("/genes/coding-variants/scores", GENE),
    ("/genes/coding-variants/all-scores", &["gene_id"]),
    ("/genes/transcripts/genes", &["gene_id", "transcript_id"]),
    ("/enhancer-gene-predictions", GENE),
    (
        "/qtls",
        &["gene_id", "variant_id", "spdi", "hgvs", "rsid", "ca_id"],
    ),
    ("/coding-variants", &["protein_id", "transcript_id"]),
    (
        "/coding-variants/variants",
        &["protein_id", "transcript_id"],
    ),
    ("/coding-variants/phenotypes", &["transcript_id"]),
    ("/coding-variants/phenotypes-count", &["gene_id"]),
    ("/coding-variants/phenotypes/score-summary", &["variant_id"]),
    (
        "/genes-structure",
        &["gene_id", "transcript_id", "protein_id"],
    ),
    ("/proteins", &["protein_id"]),
    ("/proteins/variants", &["protein_id"]),
    ("/proteins/genes", &["protein_id"]),
    ("/proteins/transcripts", &["protein_id"]),
    ("/proteins/motifs", &["protein_id"]),
    ("/proteins/complexes", &["protein_id"]),
    ("/proteins/proteins", &["protein_id"]),
    ("/transcripts", &["transcript_id"]),
    ("/transcripts/genes", &["transcript_id"]),
    ("/transcripts/proteins", &["transcript_id"]),
    ("/ontology-terms", &["term_id"]),
];

const VARIANT: &[&str] = &["variant_id", "spdi", "hgvs", "rsid", "ca_id"];
const GENE: &[&str] = &["gene_id", "hgnc_id"];

/// The parameters of `ep` that a POST may list (empty: GET only).
pub fn params(ep: &Endpoint) -> &'static [&'static str] {
    BATCHABLE
        .iter()
        .find(|(p, _)| *p == ep.path)
        .map_or(&[], |(_, b)| b)
}

/// Whether `ep` answers POST batches.
pub fn is_batchable(ep: &Endpoint) -> bool {
    !params(ep).is_empty()
}

/// A batch request, checked: the scalar parameters and the one listed parameter.
struct Batch {
    /// Query string and body scalars, as a GET's pairs.
    pairs: Vec<(String, String)>,
    /// The listed parameter.
    name: &'static str,
    /// Its values, in input order.
    ids: Vec<String>,
}

/// A JSON object's members in order, a name given twice kept twice (a map keeps one).
struct Members(Vec<(String, Value)>);

impl<'de> serde::Deserialize<'de> for Members {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Members, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Members;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Members, A::Error> {
                let mut out = Vec::new();
                while let Some(kv) = m.next_entry::<String, Value>()? {
                    out.push(kv);
                }
                Ok(Members(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

fn bad(issue: Issue) -> ApiError {
    ApiError::invalid(vec![issue])
}

/// Reads `body` (with the `query` string) into a [`Batch`]; anything wrong is a 400 for the
/// whole request.
fn read(ep: &Endpoint, query: &str, body: &[u8]) -> Result<Batch, ApiError> {
    let object = match serde_json::from_slice::<Members>(body) {
        Ok(Members(o)) => o,
        _ => {
            return Err(bad(Issue::general(
                "the body must be a JSON object of the endpoint's parameters, e.g. {\"gene_id\": [\"ENSG00000101349\"]}",
            )))
        }
    };
    let mut pairs = RawQuery::parse(query)?.pairs;
    if pairs.len() + object.len() > MAX_PARAMS {
        return Err(bad(Issue::general(format!(
            "too many parameters: at most {MAX_PARAMS} are accepted"
        ))));
    }
    let batchable = params(ep);
    let mut lists: Vec<(&'static str, Vec<Value>)> = Vec::new();
    let mut issues = Vec::new();
    // A member given twice would silently be the last one (what a JSON parser keeps).
    for (i, (key, _)) in object.iter().enumerate() {
        let first = object.iter().position(|(k, _)| k == key) == Some(i);
        if first && object[i + 1..].iter().any(|(k, _)| k == key) {
            issues.push(Issue::param(
                key,
                format!("{key} is given more than once in the body"),
            ));
        }
    }
    if !issues.is_empty() {
        return Err(ApiError::invalid(issues));
    }
    for (key, v) in object {
        if pairs.iter().any(|(n, _)| *n == key) {
            issues.push(Issue::param(
                &key,
                format!("{key} is given more than once (in the query string and the body)"),
            ));
            continue;
        }
        let text = match v {
            Value::String(s) => s.trim().to_string(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Array(items) => match batchable.iter().find(|b| **b == key) {
                Some(name) => {
                    lists.push((name, items));
                    continue;
                }
                None => {
                    issues.push(Issue::param(
                        &key,
                        format!(
                            "{key} cannot list values; on this endpoint only {} can",
                            batchable.join(", ")
                        ),
                    ));
                    continue;
                }
            },
            Value::Null | Value::Object(_) => {
                issues.push(Issue::param(
                    &key,
                    format!("{key} must be a string, a number or a boolean"),
                ));
                continue;
            }
        };
        // As in a query string, an empty value is absent.
        if !text.is_empty() {
            pairs.push((key, text));
        }
    }
    // A batch answers one JSON array of {query, results}: a TSV asked for would be silently
    // JSON, so it is refused (a GET answers TSV, one value at a time).
    if pairs.iter().any(|(k, v)| k == "format" && v == "tsv") {
        issues.push(Issue::param(
            "format",
            "format=tsv is not available for a batch (POST), whose answer is a JSON array of \
             {query, results}: leave format out, or ask GET for TSV one value at a time",
        ));
    }
    if !issues.is_empty() {
        return Err(ApiError::invalid(issues));
    }
    let (name, items) = match lists.len() {
        1 => lists.pop().expect("one list"),
        0 => {
            return Err(bad(Issue::general(format!(
                "a batch lists the values of one parameter as an array: one of {}",
                batchable.join(", ")
            ))))
        }
        _ => {
            let names: Vec<&str> = lists.iter().map(|(n, _)| *n).collect();
            return Err(bad(Issue::general(format!(
                "only one parameter may list values, got {}",
                names.join(" and ")
            ))));
        }
    };
    if items.is_empty() || items.len() > MAX_IDS {
        return Err(bad(Issue::param(
            name,
            format!("{name} may list 1 to {MAX_IDS} values, got {}", items.len()),
        )));
    }
    let mut ids = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        match item {
            Value::String(s) => ids.push(s),
            other => {
                return Err(bad(Issue::param(
                    name,
                    format!("{name} must list strings; value {i} is {other}"),
                )))
            }
        }
    }
    Ok(Batch { pairs, name, ids })
}

/// A batch being answered: the items of the JSON array, computed one at a time.
pub struct Items {
    loaded: Arc<Loaded>,
    ep: &'static Endpoint,
    path_params: Vec<(&'static str, String)>,
    batch: Batch,
    /// The next value to answer.
    next: usize,
    /// Pieces computed and not yet taken (the first item's, computed before the answer starts
    /// since it decides the whole request's error; an item's results apart from the bytes
    /// around them, so they are never copied).
    pending: VecDeque<Vec<u8>>,
}

/// Why an answer stopped before its end (the connection is then cut, so the client sees an
/// incomplete answer, never a complete-looking wrong one).
#[derive(Debug)]
pub struct Stopped(pub Arc<str>);

/// Starts a batch: the request is read and its first value answered, so an error of the whole
/// request is known before any byte of the answer is sent.
pub fn start(
    loaded: Arc<Loaded>,
    ep: &'static Endpoint,
    path_params: &[(&'static str, String)],
    query: &str,
    body: &[u8],
) -> Result<Items, ApiError> {
    let batch = read(ep, query, body)?;
    let mut items = Items {
        loaded,
        ep,
        path_params: path_params.to_vec(),
        batch,
        next: 0,
        pending: VecDeque::new(),
    };
    let pieces = items.item(0, b"[")?;
    items.next = 1;
    items.pending = pieces;
    Ok(items)
}

impl Items {
    /// The next piece of the answer (`None` after the closing `]`). A catalog taken down
    /// meanwhile (its file changed in place) stops the answer.
    pub fn next_piece(&mut self) -> Option<Result<Vec<u8>, Stopped>> {
        if let Some(piece) = self.pending.pop_front() {
            return Some(Ok(piece));
        }
        let n = self.batch.ids.len();
        if self.next > n {
            return None;
        }
        if self.next == n {
            self.next += 1;
            return Some(Ok(b"]".to_vec()));
        }
        if let Some(why) = self.loaded.gone() {
            return Some(Err(Stopped(why)));
        }
        let i = self.next;
        self.next += 1;
        let mut out = b",".to_vec();
        let done = catch_unwind(AssertUnwindSafe(|| self.item(i, b",")));
        match done {
            Ok(Ok(pieces)) => {
                self.pending = pieces;
                self.pending.pop_front().map(Ok)
            }
            // The whole request's error, past the first value (which was answered): the error
            // stands for this value alone.
            Ok(Err(e)) => {
                item_with_error(&mut out, &self.batch.ids[i], &e);
                Some(Ok(out))
            }
            Err(_) => {
                if let Some(why) = self.loaded.check_mapped_file() {
                    return Some(Err(Stopped(why)));
                }
                eprintln!(
                    "varcat: internal error answering value {i} of a batch to {}",
                    self.ep.path
                );
                let e = ApiError::internal("internal error; the request has been logged");
                item_with_error(&mut out, &self.batch.ids[i], &e);
                Some(Ok(out))
            }
        }
    }

    /// The whole answer in memory (`varcat query --post`, tests).
    pub fn collect(mut self) -> Result<Vec<u8>, Stopped> {
        let mut out = Vec::new();
        while let Some(piece) = self.next_piece() {
            out.extend_from_slice(&piece?);
        }
        Ok(out)
    }

    /// The pieces of value `i`'s item, after `before`; `Err` is the error of the whole
    /// request.
    fn item(&self, i: usize, before: &[u8]) -> Result<VecDeque<Vec<u8>>, ApiError> {
        let id = &self.batch.ids[i];
        let ctx = Ctx {
            cat: &self.loaded.cat,
        };
        let mut out = before.to_vec();
        match one(&ctx, self.ep, &self.path_params, &self.batch, id) {
            Ok(results) => {
                out.extend_from_slice(b"{\"query\":");
                serde_json::to_writer(&mut out, id).expect("writing to memory");
                out.extend_from_slice(b",\"results\":");
                Ok(VecDeque::from([out, results, b"}".to_vec()]))
            }
            Err(e) => {
                item_with_error(&mut out, id, &item_error(e, self.batch.name)?);
                Ok(VecDeque::from([out]))
            }
        }
    }
}

/// Appends the item `{"query": id, "error": e}`.
fn item_with_error(out: &mut Vec<u8>, id: &str, e: &ApiError) {
    out.extend_from_slice(b"{\"query\":");
    serde_json::to_writer(&mut *out, id).expect("writing to memory");
    out.extend_from_slice(b",\"error\":");
    out.extend_from_slice(&e.body());
    out.push(b'}');
}

/// The GET answer's body for one value.
fn one(
    ctx: &Ctx<'_>,
    ep: &Endpoint,
    path_params: &[(&'static str, String)],
    batch: &Batch,
    id: &str,
) -> Result<Vec<u8>, ApiError> {
    let name = batch.name;
    let id = id.trim();
    if id.is_empty() {
        return Err(ApiError::param(name, format!("{name} is empty")));
    }
    let mut pairs = batch.pairs.clone();
    pairs.push((name.to_string(), id.to_string()));
    let p = params::parse(&ep.accepts, &RawQuery { pairs }, path_params)?;
    Ok((ep.run)(ctx, &p)?.body)
}

/// `e` as the error of one value (`Ok`): a problem with the listed parameter alone, or "not
/// in the catalog" (404, which a single-object endpoint answers); otherwise the whole
/// request's error (`Err`), the same for every value.
fn item_error(e: ApiError, name: &str) -> Result<ApiError, ApiError> {
    let about_item = |i: &Issue| i.path.len() == 1 && i.path[0] == name;
    if e.status == 404 {
        let issues = vec![Issue::param(name, e.message.clone())];
        return Ok(ApiError { issues, ..e });
    }
    if e.status == 400 && !e.issues.is_empty() && e.issues.iter().all(about_item) {
        return Ok(e);
    }
    Err(e)
}

/// The OpenAPI `post` operation of batchable `ep`, from its GET operation's `parameters` and
/// its answer's `results` schema (what a GET answers).
pub fn openapi_operation(ep: &Endpoint, parameters: &[Value], results: Value) -> Value {
    let listed = params(ep);
    let mut properties = serde_json::Map::new();
    for p in parameters.iter().filter(|p| p["in"] == "query") {
        let name = p["name"].as_str().unwrap_or_default();
        let one = p["schema"].clone();
        let schema = if listed.contains(&name) {
            json!({"anyOf": [
                one.clone(),
                {"type": "array", "items": one, "minItems": 1, "maxItems": MAX_IDS},
            ]})
        } else {
            one
        };
        properties.insert(name.to_string(), schema);
    }
    let error = |what: &str| {
        json!({
            "description": what,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        })
    };
    json!({
        "operationId": format!("{}_batch", crate::openapi::operation_id(ep.path)),
        "summary": format!("Batch: {}", ep.summary),
        "description": format!(
            "The GET parameters as a JSON object (query parameters may be given too, but not \
             in both). Exactly one of {} is an array of 1 to {MAX_IDS} strings; each value \
             is answered as its GET, page and limit applying within each. The answer lists, \
             in input order, {{\"query\", \"results\"}} (the GET's answer) or, for a value \
             that is malformed or not in the catalog, {{\"query\", \"error\"}}, streamed one \
             item at a time (chunked). Not cached (no ETag).",
            listed.join(", ")
        ),
        "requestBody": {
            "required": true,
            "content": {"application/json": {"schema": {"type": "object", "properties": properties}}},
        },
        "responses": {
            "200": {
                "description": "one item per value, in input order",
                "content": {"application/json": {"schema": {"type": "array", "items": {"oneOf": [
                    {
                        "type": "object",
                        "properties": {"query": {"type": "string"}, "results": results},
                        "required": ["query", "results"],
                    },
                    {
                        "type": "object",
                        "properties": {
                            "query": {"type": "string"},
                            "error": {"$ref": "#/components/schemas/Error"},
                        },
                        "required": ["query", "error"],
                    },
                ]}}}},
            },
            "400": error("the body is not a JSON object, gives a member twice, lists no values or two parameters' values, lists more than 1000, asks for format=tsv (a batch answers JSON), or another parameter is invalid"),
            "413": error(&format!("body over {MAX_BODY} bytes")),
            "503": error("overloaded; retry after the Retry-After header's seconds"),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ENDPOINTS;

    #[test]
    fn test_batchable_paths_are_a_decision() {
        let mut paths: Vec<&str> = ENDPOINTS
            .iter()
            .filter(|ep| is_batchable(ep))
            .map(|ep| ep.path)
            .collect();
        paths.sort_unstable();
        assert_eq!(
            paths,
            [
                "/coding-variants",
                "/coding-variants/phenotypes",
                "/coding-variants/phenotypes-count",
                "/coding-variants/phenotypes/score-summary",
                "/coding-variants/variants",
                "/enhancer-gene-predictions",
                "/genes",
                "/genes-structure",
                "/genes/coding-variants/all-scores",
                "/genes/coding-variants/scores",
                "/genes/diseases",
                "/genes/genes",
                "/genes/genomic-elements",
                "/genes/pathways",
                "/genes/proteins",
                "/genes/transcripts",
                "/genes/transcripts/genes",
                "/genes/variants",
                "/ontology-terms",
                "/proteins",
                "/proteins/complexes",
                "/proteins/genes",
                "/proteins/motifs",
                "/proteins/proteins",
                "/proteins/transcripts",
                "/proteins/variants",
                "/qtls",
                "/transcripts",
                "/transcripts/genes",
                "/transcripts/proteins",
                "/variants",
                "/variants/biosamples",
                "/variants/coding-variants",
                "/variants/diseases",
                "/variants/drugs",
                "/variants/freq",
                "/variants/genes",
                "/variants/genes-proteins",
                "/variants/genes/summary",
                "/variants/genomic-elements",
                "/variants/genomic-elements/cell-gene-predictions",
                "/variants/genomic-elements/genes",
                "/variants/phenotypes",
                "/variants/phenotypes/score-summary",
                "/variants/predictions",
                "/variants/predictions-count",
                "/variants/proteins",
                "/variants/summary",
                "/variants/variant-ld",
                "/variants/variant-ld/summary",
            ]
        );
    }

    #[test]
    fn test_batch_parameters_are_declared_identifiers_of_query_paths() {
        for (path, names) in BATCHABLE {
            let ep = ENDPOINTS
                .iter()
                .find(|ep| ep.path == *path)
                .unwrap_or_else(|| panic!("{path}: no such endpoint"));
            assert!(!path.contains('{'), "{path}: a path parameter");
            for name in *names {
                assert!(
                    ep.accepts.params.iter().any(|p| p.name == *name),
                    "{path}: {name} is not declared"
                );
            }
        }
    }

    /// Every endpoint with an identifier query parameter takes batches of each of them: a new
    /// endpoint (or parameter) must be added to [`BATCHABLE`], or this test changed on purpose.
    #[test]
    fn test_every_identifier_query_parameter_is_batchable() {
        const IDENTIFIERS: &[&str] = &[
            "variant_id",
            "spdi",
            "hgvs",
            "rsid",
            "ca_id",
            "gene_id",
            "hgnc_id",
            "protein_id",
            "transcript_id",
            "term_id",
        ];
        for ep in ENDPOINTS.iter().filter(|ep| !ep.path.contains('{')) {
            let mut declared: Vec<&str> = ep
                .accepts
                .params
                .iter()
                .map(|p| p.name)
                .filter(|n| IDENTIFIERS.contains(n))
                .collect();
            let mut listed = params(ep).to_vec();
            declared.sort_unstable();
            listed.sort_unstable();
            assert_eq!(listed, declared, "{}", ep.path);
        }
    }

    #[test]
    fn test_openapi_documents_post_exactly_on_batchable_paths() {
        let doc = crate::openapi::document("/api");
        for ep in ENDPOINTS {
            let item = &doc["paths"][ep.path];
            let Some(post) = item.get("post") else {
                assert!(!is_batchable(ep), "{}: no post", ep.path);
                continue;
            };
            assert!(is_batchable(ep), "{}", ep.path);
            assert_eq!(
                post["operationId"],
                format!("{}_batch", item["get"]["operationId"].as_str().unwrap())
            );
            let body = &post["requestBody"]["content"]["application/json"]["schema"];
            for name in params(ep) {
                let list = &body["properties"][*name]["anyOf"][1];
                assert_eq!(list["maxItems"], MAX_IDS, "{} {name}", ep.path);
            }
            assert!(body["properties"]["limit"].is_object(), "{}", ep.path);
            let item_schema = &post["responses"]["200"]["content"]["application/json"]["schema"];
            assert_eq!(
                item_schema["items"]["oneOf"][0]["properties"]["results"],
                item["get"]["responses"]["200"]["content"]["application/json"]["schema"],
                "{}",
                ep.path
            );
        }
    }
}
