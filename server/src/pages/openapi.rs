//! The OpenAPI 3.1 document, generated from the endpoint table ([`api::ENDPOINTS`]) and the
//! record shapes the handlers render with, so it cannot drift from what is served.
//!
//! Parameter schemas say what [`params::check`] accepts (patterns mirror `parse::*`); response
//! schemas list every member of a shape as required (every member is always present) and
//! nullable unless the shape fills it with `""`/`[]`.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use varcat_query::api::{self, ENDPOINTS};
use varcat_query::batch::{self, MAX_BODY, MAX_IDS};
use varcat_query::endpoint::{Body, Endpoint};
use varcat_query::params::{self, Kind, Paging, Param, Rule};
use varcat_query::parse::ident::MAX_ID_LEN;
use varcat_query::query::RawQuery;
use varcat_query::shape::{Member, Missing, Shape, Ty};

/// No control characters (`char::is_control`: Unicode Cc), at least one non-space character
/// (values are trimmed and an empty one counts as absent).
const PLAIN: &str = "^[^\\u0000-\\u001f\\u007f-\\u009f]*[^\\s\\u0000-\\u001f\\u007f-\\u009f][^\\u0000-\\u001f\\u007f-\\u009f]*$";
/// Identifiers are at most [`MAX_ID_LEN`] bytes, the longest the build indexes. `maxLength`
/// counts characters: exact for ASCII identifiers (every SPDI, and HGVS in practice), an upper
/// bound for others, whose UTF-8 bytes are what is limited.
const PLAIN_MAX_CHARS: usize = MAX_ID_LEN;
const ACCESSION: &str = "[A-Za-z0-9_.]{1,64}";
/// A finite decimal number (exponents of at most two digits keep it finite).
const NUMBER: &str = "[-+]?([0-9]{1,30}(\\.[0-9]{0,20})?|\\.[0-9]{1,20})([eE][-+]?[0-9]{1,2})?";

/// The schema of a parameter value of `kind`, with an example value.
fn kind_schema(kind: Kind) -> Value {
    let plain = || json!({"type": "string", "minLength": 1, "maxLength": PLAIN_MAX_CHARS, "pattern": PLAIN});
    match kind {
        Kind::Id | Kind::Text | Kind::Hgnc => plain(),
        Kind::Enum(values) => json!({"type": "string", "enum": values}),
        Kind::Bool => json!({"type": "boolean"}),
        Kind::Region(_) => json!({
            "type": "string",
            "pattern": "^chr[A-Za-z0-9_.]{1,64}:[0-9]{1,10}-[0-9]{1,10}$",
            "examples": ["chr20:9564500-9564600"],
        }),
        Kind::Threshold => json!({
            "type": "string",
            "pattern": format!("^((gt|gte|lt|lte|eq):)?{NUMBER}$"),
            "examples": ["gte:2", "lt:0.05", "1.5"],
        }),
        Kind::Number => json!({"type": "number"}),
        Kind::Int => json!({"type": "integer", "minimum": 0}),
        Kind::IntRange => json!({
            "type": "string",
            "pattern": "^([0-9]{1,20}|range:[0-9]{1,20}-[0-9]{1,20})$",
            "examples": ["205", "range:1-300"],
        }),
        Kind::Rsid => {
            json!({"type": "string", "pattern": "^rs[0-9]{1,20}$", "examples": ["rs58658771"]})
        }
        Kind::CaId => {
            json!({"type": "string", "pattern": "^CA[0-9]{1,20}$", "examples": ["CA16728061"]})
        }
        Kind::Spdi => json!({
            "type": "string",
            "maxLength": PLAIN_MAX_CHARS,
            "pattern": format!("^{ACCESSION}:[0-9]{{1,10}}:[A-Za-z]*:[A-Za-z]*$"),
            "examples": ["NC_000020.11:9564575:C:T"],
        }),
        Kind::Hgvs => json!({
            "type": "string",
            "maxLength": PLAIN_MAX_CHARS,
            "pattern": format!("^{ACCESSION}:g\\.[^\\s\\u0000-\\u001f\\u007f-\\u009f]+$"),
            "examples": ["NC_000020.11:g.9564576C>T"],
        }),
        Kind::VariantId => json!({
            "type": "string",
            "maxLength": PLAIN_MAX_CHARS,
            "pattern": format!(
                "^({ACCESSION}:[0-9]{{1,10}}:[A-Za-z]*:[A-Za-z]*|[^:\\s\\u0000-\\u001f\\u007f-\\u009f][^:\\u0000-\\u001f\\u007f-\\u009f]*)$"
            ),
        }),
        Kind::TermId => json!({
            "type": "string",
            "maxLength": 128,
            "pattern": "^[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9][A-Za-z0-9_.-]*$",
            "examples": ["UBERON_0003663"],
        }),
    }
}

/// A parameter object.
fn parameter(name: &str, place: &str, required: bool, doc: &str, schema: Value) -> Value {
    json!({
        "name": name,
        "in": place,
        "required": required,
        "description": doc,
        "schema": schema,
    })
}

/// The values each parameter takes in `ep`'s examples (query and path parameters), in order.
fn example_values(ep: &Endpoint) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for url in ep.example_urls() {
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let mut pairs = RawQuery::parse(query).map(|r| r.pairs).unwrap_or_default();
        if let Some(Ok((_, path_params))) = api::route(path) {
            pairs.extend(path_params.into_iter().map(|(n, v)| (n.into(), v.into())));
        }
        for (n, v) in pairs {
            let (n, v) = (n.into_owned(), v.into_owned());
            let vals = out.entry(n).or_default();
            if !vals.contains(&v) {
                vals.push(v);
            }
        }
    }
    out
}

/// `schema` with `values` (from the examples) as its `examples`, typed as the schema says.
fn with_examples(mut schema: Value, values: Option<&Vec<String>>) -> Value {
    let Some(values) = values else {
        return schema;
    };
    let typed: Vec<Value> = values
        .iter()
        .filter_map(|v| match schema["type"].as_str() {
            Some("boolean") => v.parse::<bool>().ok().map(Value::from),
            Some("integer") => v.parse::<u64>().ok().map(Value::from),
            Some("number") => v.parse::<f64>().ok().map(Value::from),
            _ => Some(Value::from(v.as_str())),
        })
        .collect();
    if !typed.is_empty() {
        schema["examples"] = Value::Array(typed);
    }
    schema
}

/// The parameters of `ep`: its own (and their aliases), then the shared ones.
fn parameters(ep: &Endpoint) -> Vec<Value> {
    let examples = example_values(ep);
    let a = &ep.accepts;
    let in_path = |p: &Param| ep.path.contains(&format!("{{{}}}", p.name));
    let required = |p: &Param| {
        in_path(p)
            || a.rules
                .iter()
                .any(|r| matches!(r, Rule::Required(q) if q.name == p.name))
    };
    let mut out = Vec::new();
    for p in a.params {
        let place = if in_path(p) { "path" } else { "query" };
        let mut doc = p.doc.to_string();
        if let Kind::Region(Some(cap)) = p.kind {
            doc.push_str(&format!("; at most {cap} bases"));
        }
        out.push(parameter(
            p.name,
            place,
            required(p),
            &doc,
            with_examples(kind_schema(p.kind), examples.get(p.name)),
        ));
        for alias in p.aliases {
            out.push(parameter(
                alias,
                place,
                false,
                &format!("another name of `{}` (give one of them)", p.name),
                kind_schema(p.kind),
            ));
        }
    }
    match a.paging {
        Paging::Paged { default, max } => {
            out.push(parameter(
                "page",
                "query",
                false,
                "page number, from 0",
                json!({"type": "integer", "minimum": 0, "default": 0}),
            ));
            out.push(parameter(
                "limit",
                "query",
                false,
                "page size",
                json!({"type": "integer", "minimum": 1, "maximum": max, "default": default}),
            ));
        }
        Paging::Ignored => {
            for (name, min) in [("page", 0), ("limit", 1)] {
                out.push(parameter(
                    name,
                    "query",
                    false,
                    "accepted and ignored: this endpoint returns its whole answer",
                    json!({"type": "integer", "minimum": min}),
                ));
            }
        }
    }
    out.push(parameter(
        "verbose",
        "query",
        false,
        if ep.verbose {
            "expand references into records"
        } else {
            "accepted; nothing to expand here"
        },
        json!({"type": "boolean", "default": false}),
    ));
    let organisms: Vec<&str> = a.organisms.iter().map(|o| o.name()).collect();
    out.push(parameter(
        "organism",
        "query",
        false,
        "species",
        json!({"type": "string", "enum": organisms, "default": "Homo sapiens"}),
    ));
    let (formats, doc): (&[&str], _) = if varcat_query::tsv::available(ep.body) {
        (
            &["json", "tsv"],
            "answer as JSON, or as tab-separated values (also chosen by `Accept: \
             text/tab-separated-values`)",
        )
    } else {
        (
            &["json"],
            "answer as JSON (this answer is not a list of records: no TSV)",
        )
    };
    out.push(parameter(
        "format",
        "query",
        false,
        doc,
        json!({"type": "string", "enum": formats, "default": "json"}),
    ));
    out
}

/// Collects shape schemas under `components/schemas`.
#[derive(Default)]
struct Schemas {
    by_name: BTreeMap<&'static str, Value>,
    /// Which shape (by address) owns each name, so two different shapes cannot share one.
    owner: BTreeMap<&'static str, usize>,
}

impl Schemas {
    /// A reference to `shape`'s schema, registering it (and the shapes it refers to).
    fn reference(&mut self, shape: &'static Shape) -> Value {
        let addr = shape as *const Shape as usize;
        match self.owner.get(shape.name) {
            Some(&a) => assert_eq!(a, addr, "two shapes are named {}", shape.name),
            None => {
                self.owner.insert(shape.name, addr);
                let schema = self.object(shape);
                self.by_name.insert(shape.name, schema);
            }
        }
        json!({"$ref": format!("#/components/schemas/{}", shape.name)})
    }

    fn object(&mut self, shape: &'static Shape) -> Value {
        let mut props = Map::new();
        for m in shape.members {
            props.insert(m.name.to_string(), self.member(m));
        }
        let names: Vec<&str> = shape.members.iter().map(|m| m.name).collect();
        json!({
            "type": "object",
            "properties": props,
            "required": names,
            "additionalProperties": false,
        })
    }

    fn member(&mut self, m: &Member) -> Value {
        let nullable = m.missing == Missing::Null;
        let simple = |t: &str| {
            if nullable {
                json!({"type": [t, "null"]})
            } else {
                json!({"type": t})
            }
        };
        let either = |mut alts: Vec<Value>| {
            if nullable {
                alts.push(json!({"type": "null"}));
            }
            if alts.len() == 1 {
                alts.pop().unwrap_or_default()
            } else {
                json!({"anyOf": alts})
            }
        };
        match m.ty {
            Ty::Str => simple("string"),
            Ty::Num => simple("number"),
            Ty::Int => simple("integer"),
            Ty::Bool => simple("boolean"),
            Ty::Any => json!({}),
            Ty::StrArr => either(vec![json!({"type": "array", "items": {"type": "string"}})]),
            Ty::Obj(s) => either(vec![self.reference(s)]),
            Ty::Arr(s) => either(vec![json!({"type": "array", "items": self.reference(s)})]),
            Ty::IdOr(s) => either(vec![json!({"type": "string"}), self.reference(s)]),
            Ty::IdOrList(s) => either(vec![
                json!({"type": "string"}),
                json!({"type": "array", "items": self.reference(s)}),
            ]),
            Ty::IdOrOneOf(shapes) => either(
                std::iter::once(json!({"type": "string"}))
                    .chain(shapes.iter().map(|s| self.reference(s)))
                    .collect(),
            ),
        }
    }

    fn body(&mut self, body: Body) -> Value {
        match body {
            Body::Array(s) => json!({"type": "array", "items": self.reference(s)}),
            Body::Object(s) => self.reference(s),
            Body::ArrayOf(shapes) => {
                let alts: Vec<Value> = shapes.iter().map(|s| self.reference(s)).collect();
                json!({"type": "array", "items": {"anyOf": alts}})
            }
            Body::Numbers => json!({"type": "array", "items": {"type": "number"}}),
            Body::Table => {
                json!({"type": "array", "items": {"type": "array", "items": {"type": ["string", "number", "null"]}}})
            }
            Body::Any => json!({}),
        }
    }
}

/// `operationId`: the path's literal segments (`/genes/variants` → `genes_variants`).
pub fn operation_id(path: &str) -> String {
    path.split('/')
        .filter(|s| !s.is_empty() && !s.starts_with('{'))
        .map(|s| s.replace('-', "_"))
        .collect::<Vec<_>>()
        .join("_")
}

fn error_response(what: &str) -> Value {
    json!({
        "description": what,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    })
}

fn operation(ep: &Endpoint, schemas: &mut Schemas) -> Value {
    let mut description = match ep.section {
        Some(section) => format!("Interface section {section}."),
        None => "IGVF client path.".to_string(),
    };
    for r in ep.accepts.rules {
        if let Rule::AtLeastOne(ps) = r {
            description.push_str(&format!(
                " At least one of {} is required.",
                params::names(ps)
            ));
        }
    }
    let mut ok = json!({
        "description": "the answer",
        "content": {"application/json": {"schema": schemas.body(ep.body)}},
    });
    if varcat_query::tsv::available(ep.body) {
        ok["content"][varcat_query::tsv::MEDIA_TYPE] = json!({
            "schema": {"type": "string", "description": "a header row, then one row per record"},
        });
    }
    if let Paging::Paged { .. } = ep.accepts.paging {
        ok["headers"] = json!({"Link": {
            "description": "RFC 8288 links to the other pages: `rel=\"next\"` when another \
                page follows, `rel=\"prev\"` after the first; each a relative URL, this \
                request's with only `page` changed",
            "schema": {"type": "string"},
        }});
    }
    json!({
        "operationId": operation_id(ep.path),
        "summary": ep.summary,
        "description": description,
        "parameters": parameters(ep),
        "responses": {
            "200": ok,
            "304": {"description": "not modified (If-None-Match matched the catalog's ETag)"},
            "400": error_response("invalid request: every problem, each naming its parameter"),
            "404": error_response("no such path, or the one variant asked for is not in the catalog"),
            "405": error_response("a method other than GET, HEAD or OPTIONS"),
            "414": error_response("URL over 8 KiB"),
            "431": error_response("request headers over 16 KiB"),
            "503": error_response("overloaded; retry after the Retry-After header's seconds"),
        },
        "x-varcat-examples": ep.example_urls(),
    })
}

/// `POST /llm-query`: its request body (the client's `LlmQueryRequest`) and its answers; the
/// 200 (`LlmQuery`) is IGVF's, which varcat never gives.
fn llm_query() -> Value {
    use varcat_query::api::llm_query as llm;
    json!({
        "operationId": "llm_query",
        "summary": llm::SUMMARY,
        "description": "IGVF client path. IGVF forwards the question to \
            an external language-model service; this server has none and answers 501 to a \
            valid request. GET and HEAD get 405 with Allow: POST.",
        "requestBody": {
            "required": true,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/LlmQueryRequest"}}},
        },
        "responses": {
            "200": {
                "description": "IGVF's answer (never given by varcat)",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/LlmQuery"}}},
            },
            "400": error_response("the body is not a valid LlmQueryRequest: every problem, each naming its member"),
            "405": error_response("a method other than POST or OPTIONS"),
            "413": error_response(&format!("body over {} bytes", llm::MAX_BODY)),
            "501": error_response("no language-model service: the request is valid, but cannot be answered here"),
            "503": error_response("overloaded; retry after the Retry-After header's seconds"),
        },
    })
}

/// The whole document; `base_path` is where the endpoints are mounted (`/api`).
pub fn document(base_path: &str) -> Value {
    let mut schemas = Schemas::default();
    let mut paths = Map::new();
    for ep in ENDPOINTS {
        let get = operation(ep, &mut schemas);
        let mut item = json!({});
        if batch::is_batchable(ep) {
            let results = get["responses"]["200"]["content"]["application/json"]["schema"].clone();
            let params = get["parameters"].as_array().cloned().unwrap_or_default();
            item["post"] = batch_operation(ep, &params, results);
        }
        item["get"] = get;
        paths.insert(ep.path.to_string(), item);
    }
    paths.insert(api::llm_query::PATH.into(), json!({"post": llm_query()}));
    paths.insert(
        "/health".into(),
        json!({"get": {
            "operationId": "health",
            "summary": "Service status and the catalog it serves",
            "responses": {"200": {
                "description": "status",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}},
            }},
        }}),
    );
    let mut components: Map<String, Value> = schemas
        .by_name
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    components.insert(
        "Error".into(),
        json!({
            "type": "object",
            "properties": {
                "message": {"type": "string"},
                "code": {"type": "string", "enum": [
                    "BAD_REQUEST", "NOT_FOUND", "METHOD_NOT_SUPPORTED", "PAYLOAD_TOO_LARGE",
                    "SERVICE_UNAVAILABLE", "INTERNAL_SERVER_ERROR", "NOT_IMPLEMENTED"
                ]},
                "issues": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "message": {"type": "string"},
                        "path": {"type": "array", "items": {"type": "string"}},
                    },
                    "required": ["message", "path"],
                }},
            },
            "required": ["message", "code"],
        }),
    );
    components.insert(
        "LlmQueryRequest".into(),
        varcat_query::api::llm_query::request_schema(),
    );
    components.insert(
        "LlmQuery".into(),
        varcat_query::api::llm_query::response_schema(),
    );
    components.insert(
        "Health".into(),
        json!({
            "type": "object",
            "properties": {
                "status": {"type": "string"},
                "catalog": {"type": "object"},
                "varcat_version": {"type": "string"},
            },
            "required": ["status", "catalog", "varcat_version"],
        }),
    );
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "varcat",
            "version": env!("CARGO_PKG_VERSION"),
            "summary": "IGVF Catalog query interface over one memory-mapped catalog file",
            "description": "Read-only genomic variant catalog: the IGVF Catalog's query \
                interface (same paths, parameters, record shapes and error body). Unknown \
                parameters, repeated parameters and page sizes above the maximum are errors.",
            "license": {"name": "MIT", "identifier": "MIT"},
        },
        "servers": [{"url": if base_path.is_empty() { "/" } else { base_path }}],
        "paths": paths,
        "components": {"schemas": components},
    })
}

/// The OpenAPI `post` operation of batchable `ep`, from its GET operation's `parameters` and
/// its answer's `results` schema (what a GET answers).
fn batch_operation(ep: &Endpoint, parameters: &[Value], results: Value) -> Value {
    let listed = batch::params(ep);
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
        "operationId": format!("{}_batch", operation_id(ep.path)),
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

    /// A value `check` must accept for `kind`, taken from the schema's example where it has one.
    fn sample(kind: Kind) -> String {
        match kind {
            Kind::Enum(v) => v[0].to_string(),
            Kind::Bool => "true".into(),
            Kind::Number | Kind::Int => "1".into(),
            Kind::Id | Kind::Text | Kind::Hgnc => "x".into(),
            Kind::VariantId => "NC_000020.11:9564575:C:T".into(),
            _ => kind_schema(kind)["examples"][0]
                .as_str()
                .expect("an example")
                .to_string(),
        }
    }

    #[test]
    fn test_every_route_is_documented_and_every_documented_parameter_accepted() {
        let doc = document("/api");
        let paths = doc["paths"].as_object().unwrap();
        // Every endpoint, /health and /llm-query.
        assert_eq!(paths.len(), ENDPOINTS.len() + 2);
        let llm = &paths[varcat_query::api::llm_query::PATH];
        assert!(llm.get("get").is_none());
        assert_eq!(
            llm["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/LlmQueryRequest"
        );
        assert!(llm["post"]["responses"]["501"].is_object());
        assert_eq!(
            doc["components"]["schemas"]["LlmQueryRequest"]["required"],
            json!(["query", "password"])
        );
        let mut ids = std::collections::HashSet::new();
        for ep in ENDPOINTS {
            let op = &paths[ep.path]["get"];
            assert!(ids.insert(op["operationId"].as_str().unwrap().to_string()));
            for p in op["parameters"].as_array().unwrap() {
                let name = p["name"].as_str().unwrap();
                let kind = ep
                    .accepts
                    .params
                    .iter()
                    .find(|q| q.name == name || q.aliases.contains(&name))
                    .map(|q| q.kind)
                    .unwrap_or(match name {
                        "verbose" => Kind::Bool,
                        "format" => Kind::Enum(&["json"]),
                        "organism" => Kind::Enum(&["Homo sapiens"]),
                        _ => Kind::Int,
                    });
                let q = format!(
                    "{name}={}",
                    sample(kind).replace('+', "%2B").replace(' ', "%20")
                );
                let raw = RawQuery::parse(&q).unwrap();
                let path: Vec<(&'static str, String)> = Vec::new();
                if let Err(e) = params::parse(&ep.accepts, &raw, &path) {
                    for i in &e.issues {
                        assert!(
                            i.path.first().map(String::as_str) != Some(name),
                            "{}: documented {name}={} refused: {}",
                            ep.path,
                            sample(kind),
                            i.message
                        );
                    }
                }
            }
            // Every accepted parameter is documented.
            for p in ep.accepts.params {
                for n in std::iter::once(&p.name).chain(p.aliases) {
                    assert!(
                        op["parameters"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|d| d["name"] == *n),
                        "{}: {n} undocumented",
                        ep.path
                    );
                }
            }
        }
    }

    #[test]
    fn test_every_reference_resolves() {
        let doc = document("/api");
        let text = doc.to_string();
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        for part in text.split("\"#/components/schemas/").skip(1) {
            let name = &part[..part.find('"').unwrap()];
            assert!(schemas.contains_key(name), "dangling $ref {name}");
        }
    }

    #[test]
    fn test_operation_ids() {
        assert_eq!(operation_id("/genes/variants"), "genes_variants");
        assert_eq!(
            operation_id("/ontology-terms/{a}/transitive-closure/{b}"),
            "ontology_terms_transitive_closure"
        );
    }

    #[test]
    fn test_openapi_documents_post_exactly_on_batchable_paths() {
        let doc = document("/api");
        for ep in ENDPOINTS {
            let item = &doc["paths"][ep.path];
            let Some(post) = item.get("post") else {
                assert!(!batch::is_batchable(ep), "{}: no post", ep.path);
                continue;
            };
            assert!(batch::is_batchable(ep), "{}", ep.path);
            assert_eq!(
                post["operationId"],
                format!("{}_batch", item["get"]["operationId"].as_str().unwrap())
            );
            let body = &post["requestBody"]["content"]["application/json"]["schema"];
            for name in batch::params(ep) {
                let list = &body["properties"][name]["anyOf"][1];
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
