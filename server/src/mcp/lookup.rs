//! The tools' way into the catalog: endpoint requests answered in-process by [`App::handle`]
//! (the path `varcat query` takes, no HTTP), whether a next page exists read from the answer's
//! paging `Link`, and the entity lookups built on them (ids, names, every page of a name).

use serde_json::{Map, Value};

use super::ids;
use super::Host;
use crate::http::message::Request;

/// A page of rows and whether the endpoint has a next one.
pub struct Page {
    /// The rows (an object answer is one row).
    pub rows: Vec<Value>,
    /// Whether a next page exists (the endpoint's own `rel="next"` link).
    pub more: bool,
}

/// Rows one name lookup may gather over all its pages: a name matching more is refused rather
/// than held in memory.
pub const MAX_LOOKUP_ROWS: usize = 20_000;

/// Default page size of the interface.
pub const API_PAGE_SIZE: u64 = 25;

/// Per entity type: the endpoint its ids are looked up at and its largest page (None: the
/// lookup takes no `limit` and answers pages of [`API_PAGE_SIZE`]).
pub fn entity_endpoint(entity_type: &str) -> (&'static str, Option<u64>) {
    match entity_type {
        "gene" => ("/genes", Some(500)),
        "transcript" => ("/transcripts", Some(500)),
        "protein" => ("/proteins", Some(50)),
        "variant" => ("/variants", Some(500)),
        "ontology" => ("/ontology-terms", Some(1000)),
        "drug" => ("/drugs", Some(100)),
        "complex" => ("/complexes", None),
        "study" => ("/studies", None),
        _ => ("/pathways", Some(500)),
    }
}

/// The parameters a name is searched with, per type (each a field the catalog can search).
fn name_lookup_params(entity_type: &str) -> &'static [&'static str] {
    match entity_type {
        "protein" => &["name", "uniprot_name", "uniprot_full_name"],
        "ontology" => &["name", "synonyms"],
        _ => &["name"],
    }
}

/// The record fields a name must equal (ignoring case) for an exact match.
fn name_fields(entity_type: &str) -> &'static [&'static str] {
    match entity_type {
        "protein" => &["name", "uniprot_names", "uniprot_full_names"],
        "ontology" => &["name", "synonyms"],
        _ => &["name"],
    }
}

/// A record's id (`term_id` for ontology terms, else `_id`).
pub fn entity_id<'v>(entity: &'v Value, entity_type: &str) -> Option<&'v Value> {
    let field = if entity_type == "ontology" {
        "term_id"
    } else {
        "_id"
    };
    entity.get(field).filter(|v| !v.is_null())
}

/// `value` as a query-string value, written as Python writes it (the interface's numbers and
/// thresholds are read the same either way).
pub fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) if n.is_f64() => py_float(n.as_f64().unwrap_or(0.0)),
        Value::Bool(b) => b.to_string(),
        other => other.to_string(),
    }
}

/// A float as Python's `repr` writes it (`1.0`, `0.8`, `1e-07`).
pub fn py_float(x: f64) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    let a = x.abs();
    if a != 0.0 && !(1e-4..1e16).contains(&a) {
        let s = format!("{x:e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let (sign, digits) = match e.strip_prefix('-') {
            Some(d) => ('-', d),
            None => ('+', e),
        };
        return format!("{m}e{sign}{digits:0>2}");
    }
    if x.fract() == 0.0 {
        format!("{x:.1}")
    } else {
        format!("{x}")
    }
}

fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The catalog as the tools see it.
pub struct Catalog<'a> {
    /// The application answering the interface.
    pub app: &'a dyn Host,
}

impl Catalog<'_> {
    /// One page of endpoint `path` with `params` (in order; values as given).
    pub fn call(&self, path: &str, params: &[(String, Value)]) -> Result<Page, String> {
        let query: Vec<String> = params
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(&text(v))))
            .collect();
        let url = format!("{}{path}?{}", self.app.base_path(), query.join("&"));
        let resp = self.app.handle(&Request {
            method: "GET",
            url: &url,
            ..Request::default()
        });
        let body: Value = serde_json::from_slice(&resp.body)
            .map_err(|e| format!("{path}: answer is not JSON ({e})"))?;
        if resp.status != 200 {
            let message = body.get("message").and_then(Value::as_str).unwrap_or("");
            return Err(format!("{path} answered {}: {message}", resp.status));
        }
        let more = resp
            .header("Link")
            .is_some_and(|l| l.contains("rel=\"next\""));
        let rows = match body {
            Value::Array(rows) => rows,
            Value::Object(o) => vec![Value::Object(o)],
            _ => Vec::new(),
        };
        Ok(Page { rows, more })
    }

    /// Every page of `path` with `params`, `page_size` rows at a time.
    pub fn call_all(
        &self,
        path: &str,
        page_size: Option<u64>,
        params: &[(String, Value)],
    ) -> Result<Vec<Value>, String> {
        let mut rows = Vec::new();
        for page in 0.. {
            let mut q = params.to_vec();
            if let Some(limit) = page_size {
                q.push(("limit".into(), limit.into()));
            }
            q.push(("page".into(), Value::from(page)));
            let got = self.call(path, &q)?;
            rows.extend(got.rows);
            if rows.len() > MAX_LOOKUP_ROWS {
                return Err(format!(
                    "the lookup matches over {MAX_LOOKUP_ROWS} records; use an id or a more \
                     specific name"
                ));
            }
            if !got.more {
                break;
            }
        }
        Ok(rows)
    }

    /// Every entity of `entity_type` whose `param` is `identifier`.
    pub fn lookup_all(
        &self,
        entity_type: &str,
        param: &str,
        identifier: &str,
    ) -> Result<Vec<Value>, String> {
        let (path, max) = entity_endpoint(entity_type);
        self.call_all(path, max, &[(param.into(), identifier.into())])
    }

    /// The entities a name matches exactly and the others its searches returned.
    pub fn lookup_name(
        &self,
        entity_type: &str,
        name: &str,
    ) -> Result<(Vec<Value>, Vec<Value>), String> {
        if name.trim().is_empty() {
            return Err("the name is empty: give a name to look up".into());
        }
        let mut entities: Vec<Value> = Vec::new();
        let mut seen: Vec<Value> = Vec::new();
        for param in name_lookup_params(entity_type) {
            for e in self.lookup_all(entity_type, param, name)? {
                match entity_id(&e, entity_type).cloned() {
                    Some(id) if seen.contains(&id) => continue,
                    Some(id) => seen.push(id),
                    None => {}
                }
                entities.push(e);
            }
        }
        let (exact, near) = entities
            .into_iter()
            .partition(|e| name_matches(e, entity_type, name));
        Ok((exact, near))
    }

    /// What `identifier` (with `hint`) names: its type, parameter and normal form, and for a
    /// gene symbol (and, without a hint, a symbol that also fits another shape or none) the
    /// genes that have it.
    pub fn identify(&self, identifier: &str, hint: Option<&str>) -> Result<Identified, String> {
        let id = identifier.trim();
        let (entity_type, param) = match ids::detect(identifier, hint) {
            Ok(found) => found,
            Err(e) => {
                if hint.is_some() || !ids::irregular_symbol(id) {
                    return Err(e);
                }
                let (exact, near) = self.lookup_name("gene", &id.to_ascii_uppercase())?;
                let Some(first) = exact.first() else {
                    return Err(e);
                };
                let symbol = first.get("name").map(text).unwrap_or_default();
                return Ok(Identified::symbol(symbol, exact, near));
            }
        };
        let normalized = ids::normalize(identifier, entity_type, param);
        let is_symbol = (entity_type, param) == ("gene", "name");
        let ambiguous = hint.is_none() && !is_symbol && ids::id_shaped_symbol(id);
        if is_symbol || ambiguous {
            let mut symbol = id.to_ascii_uppercase();
            let (exact, near) = self.lookup_name("gene", &symbol)?;
            if let Some(name) = exact
                .first()
                .and_then(|g| g.get("name"))
                .and_then(Value::as_str)
            {
                symbol = name.to_string();
            }
            if is_symbol || !exact.is_empty() {
                return Ok(Identified::symbol(symbol, exact, near));
            }
        }
        Ok(Identified {
            entity_type,
            param,
            normalized,
            matches: None,
            near: Vec::new(),
        })
    }
}

/// An identified identifier.
pub struct Identified {
    /// Entity type.
    pub entity_type: &'static str,
    /// Lookup parameter.
    pub param: &'static str,
    /// Normal form.
    pub normalized: String,
    /// For a gene symbol: the genes with exactly that symbol.
    pub matches: Option<Vec<Value>>,
    /// For a gene symbol: the other genes its search returned.
    pub near: Vec<Value>,
}

impl Identified {
    fn symbol(symbol: String, exact: Vec<Value>, near: Vec<Value>) -> Identified {
        Identified {
            entity_type: "gene",
            param: "name",
            normalized: symbol,
            matches: Some(exact),
            near,
        }
    }
}

/// Whether a record's name (or another name field of its type) equals `name`, ignoring case.
fn name_matches(entity: &Value, entity_type: &str, name: &str) -> bool {
    let target = name.trim().to_lowercase();
    name_fields(entity_type)
        .iter()
        .any(|f| match entity.get(*f) {
            Some(Value::String(s)) => s.to_lowercase() == target,
            Some(Value::Array(a)) => a
                .iter()
                .any(|v| v.as_str().is_some_and(|s| s.to_lowercase() == target)),
            _ => false,
        })
}

/// The text for a name without exact matches, suggesting what the search found instead.
pub fn name_not_found(entity_type: &str, name: &str, near: &[Value]) -> String {
    let what = if entity_type == "gene" {
        "symbol"
    } else {
        "name"
    };
    let mut message = format!("No {} found with {what} '{name}'", ids::label(entity_type));
    let mut suggestions: Vec<String> = Vec::new();
    for e in near {
        let Some(n) = e.get("name").filter(|n| !n.is_null()).map(text) else {
            continue;
        };
        let s = match entity_id(e, entity_type) {
            Some(id) if entity_type != "gene" => format!("{n} ({})", text(id)),
            _ => n,
        };
        if !s.is_empty() && !suggestions.contains(&s) {
            suggestions.push(s);
        }
    }
    if !suggestions.is_empty() {
        let more = if suggestions.len() > 10 { ", …" } else { "" };
        suggestions.truncate(10);
        message.push_str(&format!(
            ". Did you mean: {}{more}?",
            suggestions.join(", ")
        ));
    }
    message
}

/// Paging members of a result: `has_more` from the catalog's own answer (not from a full
/// page), with the next page's number when there is one.
pub fn pagination(returned: usize, page: u64, limit: u64, more: bool) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("current_page".into(), page.into());
    m.insert("limit".into(), limit.into());
    m.insert("results_returned".into(), returned.into());
    m.insert("has_more".into(), more.into());
    if more {
        m.insert("next_page".into(), (page + 1).into());
        m.insert(
            "note".into(),
            format!("More results: call again with page={}.", page + 1).into(),
        );
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_numbers_are_written_as_python_writes_them() {
        assert_eq!(py_float(0.8), "0.8");
        assert_eq!(py_float(1.0), "1.0");
        assert_eq!(py_float(8.0), "8.0");
        assert_eq!(py_float(1e-7), "1e-07");
        assert_eq!(py_float(1e20), "1e+20");
        assert_eq!(text(&serde_json::json!(25)), "25");
    }
}
