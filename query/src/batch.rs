//! Batch look-ups: `POST` to an endpoint that starts from identifiers, with the GET
//! parameters as a JSON object in the body and one identifier parameter an array of up to
//! [`MAX_IDS`] values. Each value is answered as its own GET would be (`page`/`limit` apply
//! within each), and the answer is an array in input order of `{"query", "results"}`, or
//! `{"query", "error"}` for a value that is malformed or not in the catalog.
//!
//! Here: which endpoints and parameters take batches, reading a batch request, and answering
//! one value's item ([`Batch::item`]). The transport streams the items one at a time.

use std::borrow::Cow;
use std::collections::VecDeque;

use serde_json::Value;

use crate::endpoint::Endpoint;

use crate::error::{ApiError, Issue};
use crate::handler::Ctx;
use crate::params;
use crate::query::{RawQuery, MAX_PARAMS};

/// Most identifiers one request may list (as Ensembl and MyVariant).
pub const MAX_IDS: usize = 1000;

/// Largest body read: 1,000 ids of 1 KB, or a few at the identifier limit.
pub const MAX_BODY: usize = 1 << 20;

/// The identifier parameters: on an endpoint that declares any of them as a query parameter,
/// each may be an array in a POST body. An identifier in the path
/// (`/ontology-terms/{id}/children`) is not batchable, so neither is an endpoint with a path
/// parameter.
pub const IDENTIFIERS: &[&str] = &[
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

/// The variant identifiers among [`IDENTIFIERS`], in the order every endpoint lists them.
const VARIANT_IDS: &[&str] = IDENTIFIERS.split_at(5).0;

/// The parameters of `ep` that a POST may list (empty: GET only): in declaration order, except
/// that the variant identifiers keep their slots but read in one order everywhere (the key,
/// then its other forms).
pub fn params(ep: &Endpoint) -> Vec<&'static str> {
    if ep.path.contains('{') {
        return Vec::new();
    }
    let mut listed: Vec<&'static str> = ep
        .accepts
        .params
        .iter()
        .map(|p| p.name)
        .filter(|n| IDENTIFIERS.contains(n))
        .collect();
    let ordered: Vec<&'static str> = VARIANT_IDS
        .iter()
        .copied()
        .filter(|n| listed.contains(n))
        .collect();
    let mut variants = ordered.into_iter();
    for slot in listed.iter_mut().filter(|n| VARIANT_IDS.contains(n)) {
        *slot = variants.next().expect("as many as there are slots");
    }
    listed
}

/// Whether `ep` answers POST batches.
pub fn is_batchable(ep: &Endpoint) -> bool {
    !ep.path.contains('{')
        && ep
            .accepts
            .params
            .iter()
            .any(|p| IDENTIFIERS.contains(&p.name))
}

/// A batch request, checked: the scalar parameters and the one listed parameter.
pub struct Batch {
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
pub fn read(ep: &Endpoint, query: &str, body: &[u8]) -> Result<Batch, ApiError> {
    let object = match serde_json::from_slice::<Members>(body) {
        Ok(Members(o)) => o,
        _ => {
            return Err(bad(Issue::general(
                "the body must be a JSON object of the endpoint's parameters, e.g. {\"gene_id\": [\"ENSG00000101349\"]}",
            )))
        }
    };
    let mut pairs: Vec<(String, String)> = RawQuery::parse(query)?
        .pairs
        .into_iter()
        .map(|(n, v)| (n.into_owned(), v.into_owned()))
        .collect();
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

impl Batch {
    /// How many values the batch lists.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether it lists none (never, once read).
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Value `i`, as given.
    pub fn id(&self, i: usize) -> &str {
        &self.ids[i]
    }

    /// The pieces of value `i`'s item of `ep`'s answer, after `before`; `Err` is the error of
    /// the whole request.
    pub fn item(
        &self,
        ctx: &Ctx<'_>,
        ep: &Endpoint,
        path_params: &[(&'static str, String)],
        i: usize,
        before: &[u8],
    ) -> Result<VecDeque<Vec<u8>>, ApiError> {
        let id = &self.ids[i];
        let mut out = before.to_vec();
        match one(ctx, ep, path_params, self, id) {
            Ok(results) => {
                out.extend_from_slice(b"{\"query\":");
                serde_json::to_writer(&mut out, id).expect("writing to memory");
                out.extend_from_slice(b",\"results\":");
                Ok(VecDeque::from([out, results, b"}".to_vec()]))
            }
            Err(e) => {
                item_with_error(&mut out, id, &item_error(e, self.name)?);
                Ok(VecDeque::from([out]))
            }
        }
    }
}

/// Appends the item `{"query": id, "error": e}`.
pub fn item_with_error(out: &mut Vec<u8>, id: &str, e: &ApiError) {
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
    let pairs = (batch.pairs.iter())
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .chain(std::iter::once((name, id)))
        .map(|(n, v)| (Cow::Borrowed(n), Cow::Borrowed(v)))
        .collect();
    let p = params::parse(&ep.accepts, &RawQuery { pairs }, path_params)?;
    Ok(ep.answer(ctx, &p)?.body)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::ENDPOINTS;

    /// Which endpoints take batches follows from their parameters; the count guards against a
    /// parameter renamed out of (or into) the identifiers by accident.
    #[test]
    fn test_batchable_endpoints_follow_their_identifier_parameters() {
        let batchable: Vec<&Endpoint> = ENDPOINTS
            .iter()
            .copied()
            .filter(|ep| is_batchable(ep))
            .collect();
        assert_eq!(batchable.len(), 50);
        for ep in ENDPOINTS {
            let listed = params(ep);
            assert_eq!(is_batchable(ep), !listed.is_empty(), "{}", ep.path);
            if ep.path.contains('{') {
                assert!(listed.is_empty(), "{}: a path parameter", ep.path);
                continue;
            }
            for p in ep.accepts.params {
                assert_eq!(
                    listed.contains(&p.name),
                    IDENTIFIERS.contains(&p.name),
                    "{} {}",
                    ep.path,
                    p.name
                );
            }
        }
    }

    #[test]
    fn test_a_list_of_another_parameter_is_refused() {
        let ep = ENDPOINTS.iter().find(|ep| ep.path == "/genes").unwrap();
        let Err(e) = read(ep, "", br#"{"gene_type": ["lncRNA"]}"#) else {
            panic!("read a list of gene_type");
        };
        assert_eq!(e.status, 400);
        assert!(
            e.issues[0].message.contains("only gene_id, hgnc_id can"),
            "{}",
            e.message
        );
        assert!(read(ep, "", br#"{"hgnc_id": ["HGNC:1"]}"#).is_ok());
    }
}
