//! The relationship tools: `find_associations` (every endpoint of a relationship kind from one
//! entity, names resolved to ids, filters mapped to each endpoint's parameters) and `find_ld`.

use serde_json::{json, Map, Value};

use super::edges::{self, Edge, FilterKind};
use super::lookup::{entity_id, name_not_found, pagination, py_float, text, Catalog};
use super::schema::is_range_operator;
use super::tools::{arg_str, arg_u64, Out, ToolResult};

/// Other parameter names an identifier's parameter goes by at edge endpoints.
fn aliases(param: &str) -> &'static [&'static str] {
    match param {
        "term_id" => &["phenotype_id", "disease_id"],
        "protein_id" | "dbxrefs" => &["query"],
        _ => &[],
    }
}

/// Identifiers an endpoint may not take directly, resolved through their records: (type,
/// parameter) → (parameter of the resolved values, record field holding them). Names are always
/// resolved (edges are queried by id); other ids only where an endpoint does not take them.
fn resolution(entity_type: &str, param: &str) -> Option<(&'static str, &'static str)> {
    Some(match (entity_type, param) {
        ("variant", "rsid") => ("spdi", "spdi"),
        ("protein", "dbxrefs") => ("uniprot_name", "uniprot_names"),
        ("gene", "name") => ("gene_id", "_id"),
        ("protein", "name") => ("protein_id", "_id"),
        ("ontology", "name") => ("term_id", "term_id"),
        ("drug", "name") => ("drug_id", "_id"),
        ("complex", "name") => ("complex_id", "_id"),
        _ => return None,
    })
}

/// The parameter of `e` that takes an identifier of parameter `param`.
fn edge_param(param: &str, e: &Edge) -> Option<&'static str> {
    std::iter::once(param)
        .chain(aliases(param).iter().copied())
        .find_map(|c| e.from_params.iter().copied().find(|p| *p == c))
}

/// A number, or a string holding one (finite); booleans are not numbers.
fn number(v: &Value) -> Option<Value> {
    match v {
        Value::Number(n) if n.as_f64().is_some_and(f64::is_finite) => Some(v.clone()),
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(Value::from),
        _ => None,
    }
}

const NOT_SUPPORTED: &str = "not supported by this endpoint";

/// The query of endpoint `e` for the identifier: its parameters (without the page) and the
/// filters not applied, with the reason.
fn query(
    id: &str,
    param: &str,
    e: &Edge,
    filters: &Map<String, Value>,
    limit: u64,
    verbose: bool,
) -> (Vec<(String, Value)>, Map<String, Value>) {
    let mut q: Vec<(String, Value)> = vec![
        (param.into(), id.into()),
        ("limit".into(), limit.min(e.max_limit).into()),
    ];
    let mut not_applied = Map::new();
    if verbose && edges::accepts(e, "verbose") {
        q.push(("verbose".into(), "true".into()));
    }
    let supported = |name: &str| e.filters.iter().find(|(n, _)| *n == name).map(|(_, k)| *k);
    for (name, value) in filters {
        let mut refuse = |why: String| {
            not_applied.insert(name.clone(), why.into());
        };
        if name == "p_value" {
            match value.as_f64() {
                _ if supported("neg_log10_pvalue").is_none() => refuse(NOT_SUPPORTED.into()),
                Some(p) if p > 0.0 && !value.is_boolean() => q.push((
                    "neg_log10_pvalue".into(),
                    format!("gte:{}", py_float(-p.log10())).into(),
                )),
                _ => refuse("invalid value; must be a number greater than 0".into()),
            }
            continue;
        }
        if let Some(param) = ["source", "method", "label"]
            .into_iter()
            .find(|p| p == name)
        {
            let allowed = edges::values(e, param);
            let given = value.as_str().unwrap_or("");
            if !edges::accepts(e, param) {
                refuse(NOT_SUPPORTED.into());
            } else if allowed.is_some_and(|a| !a.contains(&given)) {
                refuse(format!(
                    "invalid value; valid: {}",
                    allowed.unwrap_or(&[]).join(", ")
                ));
            } else {
                q.push((name.clone(), value.clone()));
            }
            continue;
        }
        match supported(name) {
            None => refuse(NOT_SUPPORTED.into()),
            Some(FilterKind::Range) => match number(value) {
                Some(n) if ["r2", "d_prime", "z_score", "score"].contains(&name.as_str()) => {
                    q.push((name.clone(), format!("gte:{}", text(&n)).into()))
                }
                Some(n) => q.push((name.clone(), text(&n).into())),
                None if value.as_str().is_some_and(|s| is_range_operator(s.trim())) => {
                    q.push((name.clone(), value.as_str().unwrap_or("").trim().into()))
                }
                None => refuse(
                    "invalid value; must be a number or an operator string gt:, gte:, lt: or \
                     lte: followed by a number (e.g. 'gt:0.7')"
                        .into(),
                ),
            },
            Some(_) => q.push((name.clone(), value.clone())),
        }
    }
    (q, not_applied)
}

/// `igvf_catalog_find_associations`.
pub fn find_associations(cat: &Catalog, args: &Value) -> ToolResult {
    let relationship = arg_str(args, "relationship").unwrap_or("");
    let empty = Map::new();
    let filters = args
        .get("filters")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let limit = arg_u64(args, "limit", 25);
    let page = arg_u64(args, "page", 0);
    let verbose = args
        .get("verbose")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let known =
        relationship == "all" || edges::RELATIONSHIPS.iter().any(|(r, _)| *r == relationship);
    if !known {
        return Err(format!(
            "relationship: unknown relationship type {relationship}"
        ));
    }
    let found = cat.identify(
        arg_str(args, "entity_id").unwrap_or(""),
        arg_str(args, "hint"),
    )?;
    let (t, param, id) = (found.entity_type, found.param, found.normalized.clone());
    let keys = edges::endpoints(t, relationship);
    if keys.is_empty() {
        return Err(if relationship == "all" {
            format!("No relationships are available for {t} entities.")
        } else {
            format!("Relationship type '{relationship}' not applicable to {t} entities.")
        });
    }
    let (mut nodes, mut near) = (found.matches, found.near);
    let mut resolved_entities = None;
    if param == "name" {
        if nodes.is_none() {
            let (exact, others) = cat.lookup_name(t, &id)?;
            (nodes, near) = (Some(exact), others);
        }
        let matched = nodes.as_deref().unwrap_or(&[]);
        if matched.is_empty() {
            return Ok(Out::Text(name_not_found(t, &id, &near)));
        }
        let listed: Vec<Value> = matched
            .iter()
            .map(|n| json!({"id": entity_id(n, t), "name": n.get("name")}))
            .collect();
        resolved_entities = Some(listed);
    }
    let resolve_by = resolution(t, param);
    let mut resolved_ids: Option<Vec<Value>> = None;
    let (mut associations, mut metadata, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    for key in keys {
        let Some(e) = edges::edge(key) else { continue };
        let (ep_param, resolve) = match edge_param(param, e) {
            Some(p) => (p, false),
            None => match resolve_by.and_then(|(rp, _)| edge_param(rp, e)) {
                Some(p) => (p, true),
                None => {
                    metadata.push(json!({
                        "endpoint": key, "path": e.path,
                        "error": format!("Identifier type '{param}' is not supported by this endpoint. \
                                          Supported: {}", e.from_params.join(", ")),
                    }));
                    continue;
                }
            },
        };
        let (q, not_applied) = query(&id, ep_param, e, filters, limit, verbose);
        let lookup_ids: Result<Vec<Value>, String> = if resolve {
            match &resolved_ids {
                Some(r) => Ok(r.clone()),
                None => resolve_ids(
                    cat,
                    &mut nodes,
                    t,
                    param,
                    &id,
                    resolve_by.map_or("", |r| r.1),
                )
                .inspect(|r| resolved_ids = Some(r.clone())),
            }
        } else {
            Ok(vec![id.clone().into()])
        };
        let lookup_ids = match lookup_ids {
            Ok(ids) => ids,
            Err(err) => {
                failed.push(key);
                metadata.push(json!({
                    "endpoint": key, "path": e.path, "error": err,
                    "note": format!("Resolving {param} '{id}' to {} failed, so this endpoint was \
                                     not queried.", resolve_by.map_or("", |r| r.0)),
                }));
                continue;
            }
        };
        let mut used: Map<String, Value> = q.iter().cloned().collect();
        if resolve {
            used.insert(ep_param.into(), lookup_ids.clone().into());
        }
        let effective = limit.min(e.max_limit);
        let (mut rows, mut more, mut error) = (Vec::new(), false, None);
        for lookup in &lookup_ids {
            let mut q = q.clone();
            q[0].1 = lookup.clone();
            q.push(("page".into(), page.into()));
            match cat.call(e.path, &q) {
                Ok(got) => {
                    more |= got.more;
                    rows.extend(got.rows);
                }
                Err(err) => {
                    error = Some(err);
                    break;
                }
            }
        }
        if let Some(err) = error {
            failed.push(key);
            let mut m = json!({"endpoint": key, "path": e.path, "error": err, "params_used": used});
            if !not_applied.is_empty() {
                m["filters_not_applied"] = Value::Object(not_applied);
            }
            metadata.push(m);
            continue;
        }
        for row in &mut rows {
            if let Some(o) = row.as_object_mut() {
                o.insert("_endpoint".into(), key.into());
                o.insert("_endpoint_path".into(), e.path.into());
            }
        }
        let mut pag = pagination(rows.len(), page, effective, more);
        let mut m = json!({"endpoint": key, "path": e.path, "results_count": rows.len()});
        if resolve && lookup_ids.len() > 1 {
            pag.insert(
                "limit_applies_to".into(),
                format!("each of the {} queried IDs", lookup_ids.len()).into(),
            );
        }
        m["_pagination"] = Value::Object(pag);
        m["params_used"] = Value::Object(used);
        if limit > effective {
            m["limit_capped_to"] = effective.into();
        }
        if !not_applied.is_empty() {
            m["filters_not_applied"] = Value::Object(not_applied);
        }
        if resolve {
            m["resolved_from"] = param.into();
            m["queried_ids"] = lookup_ids.len().into();
            if lookup_ids.is_empty() {
                m["note"] =
                    format!("No {t} found with {param}='{id}', so this endpoint was not queried.")
                        .into();
            }
        }
        associations.extend(rows);
        metadata.push(m);
    }
    if !metadata.is_empty() && metadata.iter().all(|m| m.get("error").is_some()) {
        let errors: Vec<String> = metadata
            .iter()
            .map(|m| format!("{}: {}", text(&m["endpoint"]), text(&m["error"])))
            .collect();
        return Err(format!("Error finding associations: {}", errors.join("; ")));
    }
    let any_more = metadata
        .iter()
        .any(|m| m["_pagination"]["has_more"] == true);
    let mut top = pagination(associations.len(), page, limit, any_more);
    let by_endpoint = |member: &str, keep: fn(&Value) -> bool| -> Map<String, Value> {
        metadata
            .iter()
            .filter(|m| m.get(member).is_some_and(keep))
            .map(|m| (text(&m["endpoint"]), m[member].clone()))
            .collect()
    };
    let capped = by_endpoint("limit_capped_to", |_| true);
    if !capped.is_empty() {
        top.insert("limit_capped_to".into(), Value::Object(capped));
    }
    let fanned = by_endpoint("queried_ids", |n| n.as_u64().unwrap_or(0) > 1);
    if !fanned.is_empty() {
        top.insert("queried_ids".into(), Value::Object(fanned));
    }
    let queried: Vec<&Value> = metadata
        .iter()
        .filter(|m| m.get("params_used").is_some())
        .collect();
    let unused: Vec<&str> = filters
        .keys()
        .map(String::as_str)
        .filter(|f| {
            !queried.is_empty()
                && queried.iter().all(|m| {
                    m.get("filters_not_applied")
                        .and_then(|n| n.get(*f))
                        .is_some()
                })
        })
        .collect();
    let mut out = json!({
        "_pagination": top,
        "entity_id": id,
        "entity_type": t,
        "relationship_type": relationship,
        "num_associations": associations.len(),
        "query_metadata": metadata,
        "associations": associations,
    });
    if let Some(r) = resolved_entities {
        out["resolved_entities"] = r.into();
    }
    let mut notes = Vec::new();
    if !failed.is_empty() {
        notes.push(format!(
            "The query failed for {} (see its error in query_metadata); _pagination.has_more \
             covers the endpoints that answered.",
            failed.join(", ")
        ));
    }
    if !unused.is_empty() {
        notes.push(format!(
            "Filters applied to no endpoint: {} (see filters_not_applied in query_metadata, and \
             list_sources for valid values).",
            unused.join(", ")
        ));
    }
    if !notes.is_empty() {
        out["note"] = notes.join(" ").into();
    }
    Ok(Out::Json(out))
}

/// The values of `field` over the records of identifier `id` (looked up once, in order, each
/// value once).
fn resolve_ids(
    cat: &Catalog,
    nodes: &mut Option<Vec<Value>>,
    t: &str,
    param: &str,
    id: &str,
    field: &str,
) -> Result<Vec<Value>, String> {
    if nodes.is_none() {
        *nodes = Some(cat.lookup_all(t, param, id)?);
    }
    let mut out: Vec<Value> = Vec::new();
    for node in nodes.as_deref().unwrap_or(&[]) {
        let values = match node.get(field) {
            Some(Value::Array(a)) => a.clone(),
            Some(v) if super::tools::truthy(Some(v)) => vec![v.clone()],
            _ => Vec::new(),
        };
        for v in values {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    Ok(out)
}

/// `igvf_catalog_find_ld`.
pub fn find_ld(cat: &Catalog, args: &Value) -> ToolResult {
    let variant = arg_str(args, "variant_id").unwrap_or("");
    let r2 = args.get("r2_threshold").cloned().unwrap_or(json!(0.8));
    let d_prime = args
        .get("d_prime_threshold")
        .cloned()
        .unwrap_or(Value::Null);
    let ancestry = arg_str(args, "ancestry").unwrap_or("EUR");
    let limit = arg_u64(args, "limit", 100).min(500);
    let page = arg_u64(args, "page", 0);
    let found = match cat.identify(variant, Some("variant")) {
        Ok(f) => f,
        Err(_) => {
            let (t, _) =
                super::ids::detect(variant, None).map_err(|e| format!("variant_id: {e}"))?;
            return Err(format!(
                "variant_id: expected a variant id (rsID, SPDI, HGVS or ClinGen CA id), got {} id",
                super::ids::label(t)
            ));
        }
    };
    let mut q: Vec<(String, Value)> = vec![
        (found.param.into(), found.normalized.clone().into()),
        ("r2".into(), format!("gte:{}", text(&r2)).into()),
        ("ancestry".into(), ancestry.into()),
        ("limit".into(), limit.into()),
        ("page".into(), page.into()),
    ];
    if !d_prime.is_null() {
        q.push(("d_prime".into(), format!("gte:{}", text(&d_prime)).into()));
    }
    if args
        .get("verbose")
        .and_then(Value::as_bool)
        .unwrap_or(false)
    {
        q.push(("verbose".into(), "true".into()));
    }
    let path = edges::edge("variants_variants").map_or("/variants/variant-ld", |e| e.path);
    let got = cat.call(path, &q)?;
    if got.rows.is_empty() && page == 0 {
        return Ok(Out::Json(json!({
            "query_variant": found.normalized, "param_used": found.param, "ancestry": ancestry,
            "r2_threshold": r2, "d_prime_threshold": d_prime, "num_ld_variants": 0,
            "ld_variants": [],
            "message": format!("No variants in LD with r² ≥ {} in the {ancestry} population", text(&r2)),
        })));
    }
    let r2_of = |v: &Value| v.get("r2").and_then(Value::as_f64).unwrap_or(0.0);
    let count = |keep: &dyn Fn(f64) -> bool| got.rows.iter().filter(|v| keep(r2_of(v))).count();
    Ok(Out::Json(json!({
        "_pagination": pagination(got.rows.len(), page, limit, got.more),
        "query_variant": found.normalized,
        "param_used": found.param,
        "ancestry": ancestry,
        "filters_applied": {"r2_min": r2, "d_prime_min": d_prime},
        "num_ld_variants": got.rows.len(),
        "summary": {
            "strong_ld_count": count(&|r| r >= 0.8),
            "moderate_ld_count": count(&|r| (0.5..0.8).contains(&r)),
            "weak_ld_count": count(&|r| r < 0.5),
        },
        "ld_variants": got.rows,
    })))
}
