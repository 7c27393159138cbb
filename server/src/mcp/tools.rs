//! The entity tools: `get_entity`, `search_region`, `resolve_id`, `list_sources`. Each returns
//! a JSON result (or, where nothing matches, a sentence saying so) or an error text that the
//! dispatcher returns as an `isError` result.

use serde_json::{json, Map, Value};

use super::lookup::{entity_endpoint, name_not_found, pagination, Catalog, API_PAGE_SIZE};
use super::{edges, ids, region};

/// What a tool answers.
pub enum Out {
    /// A JSON document.
    Json(Value),
    /// A plain sentence (nothing found).
    Text(String),
}

/// A tool's answer or its error.
pub type ToolResult = Result<Out, String>;

/// String argument `name`.
pub fn arg_str<'a>(args: &'a Value, name: &str) -> Option<&'a str> {
    args.get(name).and_then(Value::as_str)
}

/// Integer argument `name` (checked non-negative by the schema), or `default`.
pub fn arg_u64(args: &Value, name: &str, default: u64) -> u64 {
    args.get(name)
        .and_then(|v| v.as_u64().or_else(|| v.as_f64().map(|f| f as u64)))
        .unwrap_or(default)
}

/// `{"_type": t, ...entity}`.
fn typed(entity: Value, entity_type: &str) -> Value {
    let mut m = Map::new();
    m.insert("_type".into(), entity_type.into());
    if let Value::Object(o) = entity {
        m.extend(o);
    }
    Value::Object(m)
}

/// `igvf_catalog_get_entity`.
pub fn get_entity(cat: &Catalog, args: &Value) -> ToolResult {
    let id = arg_str(args, "id").unwrap_or("");
    let hint = arg_str(args, "hint");
    let limit = arg_u64(args, "limit", 25);
    let page = arg_u64(args, "page", 0);
    let found = cat.identify(id, hint)?;
    let t = found.entity_type;
    let (path, max) = entity_endpoint(t);
    let (entities, effective, more) = match &found.matches {
        Some(matches) => {
            if matches.is_empty() {
                return Ok(Out::Text(name_not_found(t, &found.normalized, &found.near)));
            }
            let effective = limit.min(max.unwrap_or(API_PAGE_SIZE));
            let start = usize::try_from(page.saturating_mul(effective)).unwrap_or(usize::MAX);
            let end = start.saturating_add(effective as usize);
            let rows: Vec<Value> = matches
                .iter()
                .skip(start)
                .take(effective as usize)
                .cloned()
                .collect();
            (rows, effective, matches.len() > end)
        }
        None => {
            let mut q = vec![(
                found.param.to_string(),
                Value::from(found.normalized.clone()),
            )];
            q.push(("page".into(), page.into()));
            let effective = match max {
                Some(m) => {
                    q.push(("limit".into(), limit.min(m).into()));
                    limit.min(m)
                }
                None => API_PAGE_SIZE,
            };
            let got = cat.call(path, &q)?;
            (got.rows, effective, got.more)
        }
    };
    if entities.is_empty() && page == 0 {
        return Ok(Out::Text(format!(
            "No {} found with {}='{}'",
            ids::label(t),
            found.param,
            found.normalized
        )));
    }
    let mut pag = pagination(entities.len(), page, effective, more);
    let fixed = max.is_none() && found.matches.is_none();
    if fixed {
        pag.insert("limit".into(), limit.into());
        pag.insert("page_size".into(), API_PAGE_SIZE.into());
    } else if limit > effective {
        pag.insert("limit_capped_to".into(), effective.into());
    }
    let mut out = json!({
        "_pagination": pag,
        "entity_type": t,
        "entities": entities.into_iter().map(|e| typed(e, t)).collect::<Vec<_>>(),
    });
    if fixed {
        out["note"] = format!(
            "{} lookups come {API_PAGE_SIZE} at a time; limit does not apply.",
            capitalized(t)
        )
        .into();
    }
    Ok(Out::Json(out))
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The kinds `search_region` searches and their endpoints.
const REGION_KINDS: [(&str, &str); 3] = [
    ("genes", "/genes"),
    ("variants", "/variants"),
    ("regulatory_elements", "/genomic-elements"),
];

/// `igvf_catalog_search_region`.
pub fn search_region(cat: &Catalog, args: &Value) -> ToolResult {
    let organism = arg_str(args, "organism").unwrap_or("Homo sapiens");
    let limit = arg_u64(args, "limit", 25);
    let page = arg_u64(args, "page", 0);
    let region = region::parse(arg_str(args, "region").unwrap_or(""), organism)
        .map_err(|e| format!("region: {e}"))?;
    let include: Vec<&str> = match args.get("include").and_then(Value::as_array) {
        Some(a) => a.iter().filter_map(Value::as_str).collect(),
        None => REGION_KINDS.iter().map(|(k, _)| *k).collect(),
    };
    let mut results = Map::new();
    let (mut failed, mut any_more) = (Vec::new(), false);
    for (kind, path) in REGION_KINDS.iter().filter(|(k, _)| include.contains(k)) {
        let q = [
            ("region".to_string(), Value::from(region.to_string())),
            ("organism".into(), organism.into()),
            ("limit".into(), limit.into()),
            ("page".into(), page.into()),
        ];
        let answer = match cat.call(path, &q) {
            Ok(got) => {
                any_more |= got.more;
                json!({"_pagination": pagination(got.rows.len(), page, limit, got.more), "items": got.rows})
            }
            Err(e) => {
                failed.push(*kind);
                json!({"error": e})
            }
        };
        results.insert(kind.to_string(), answer);
    }
    if !failed.is_empty() && failed.len() == results.len() {
        let errors: Vec<String> = failed
            .iter()
            .map(|k| format!("{k}: {}", results[*k]["error"].as_str().unwrap_or("")))
            .collect();
        return Err(format!("Error searching region: {}", errors.join("; ")));
    }
    let mut top = json!({"current_page": page, "limit": limit, "has_more": any_more});
    if any_more {
        top["next_page"] = (page + 1).into();
        top["note"] = format!("More results: call again with page={}.", page + 1).into();
    }
    let size = region.end - region.start;
    let mut out = json!({
        "_pagination": top,
        "region": region.to_string(),
        "region_size_bp": size,
        "organism": organism,
        "results": results,
    });
    if size > 10_000_000 {
        out["warning"] =
            format!("Large region ({size} bp): each kind answers one page at a time.").into();
    }
    let mut notes = Vec::new();
    if let Some(end) = &region.requested_end {
        notes.push(format!(
            "The end '{end}' is past the end of {} ({} bp in {}), so the region was clipped to {region}.",
            region.chr,
            region.end,
            region::assembly(organism).unwrap_or("")
        ));
    }
    if !failed.is_empty() {
        notes.push(format!(
            "The search failed for {} (see its error in results); _pagination.has_more covers \
             the other kinds.",
            failed.join(", ")
        ));
    }
    if !notes.is_empty() {
        out["note"] = notes.join(" ").into();
    }
    Ok(Out::Json(out))
}

fn gnomad_af(v: &Value) -> Option<f64> {
    v.get("annotations")?.get("gnomad_af_total")?.as_f64()
}

fn on_primary_assembly(gene: &Value) -> bool {
    let chr = gene.get("chr").and_then(Value::as_str).unwrap_or("");
    let primary = chr.strip_prefix("chr").is_some_and(|n| {
        matches!(n, "X" | "Y" | "M") || (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    primary && !id_text(gene).ends_with("_PAR_Y")
}

fn id_text(v: &Value) -> String {
    v.get("_id").map(super::lookup::text).unwrap_or_default()
}

/// Whether a value counts as present (Python's truthiness: not null, false, 0 or empty).
pub fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Number(n)) => n.as_f64() != Some(0.0),
        Some(_) => true,
    }
}

/// Of genes sharing a symbol, the one described: on the primary assembly, then with an HGNC
/// id, then the lowest id.
fn preferred_gene(genes: &[Value]) -> &Value {
    genes
        .iter()
        .min_by_key(|g| (!on_primary_assembly(g), !truthy(g.get("hgnc")), id_text(g)))
        .unwrap_or(&genes[0])
}

fn uniprot_accession(p: &Value) -> Option<Value> {
    for x in p
        .get("dbxrefs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = x.get("name").and_then(Value::as_str).unwrap_or("");
        if matches!(name, "UniProtKB" | "UniProtKB/Swiss-Prot" | "Swiss-Prot") {
            return x.get("id").cloned();
        }
    }
    let mut acc: Vec<&str> = p
        .get("uniprot_ids")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|u| u.split('-').next().unwrap_or(u))
        .collect();
    acc.sort_unstable();
    acc.dedup();
    (acc.len() == 1).then(|| acc[0].into())
}

/// `{key: entity[key]}` for each key, null when missing.
fn pick(e: &Value, keys: &[(&str, &str)]) -> Map<String, Value> {
    keys.iter()
        .map(|(out, field)| {
            (
                out.to_string(),
                e.get(*field).cloned().unwrap_or(Value::Null),
            )
        })
        .collect()
}

/// `igvf_catalog_resolve_id`.
pub fn resolve_id(cat: &Catalog, args: &Value) -> ToolResult {
    let input = arg_str(args, "id").unwrap_or("");
    let found = cat.identify(input, None)?;
    let t = found.entity_type;
    let entities = match found.matches {
        Some(m) if m.is_empty() => {
            return Ok(Out::Text(name_not_found(t, &found.normalized, &found.near)))
        }
        Some(m) => m,
        None if matches!(t, "variant" | "protein") => {
            cat.lookup_all(t, found.param, &found.normalized)?
        }
        None => {
            let q = [
                (
                    found.param.to_string(),
                    Value::from(found.normalized.clone()),
                ),
                ("page".into(), 0.into()),
            ];
            cat.call(entity_endpoint(t).0, &q)?.rows
        }
    };
    if entities.is_empty() {
        return Ok(Out::Text(format!(
            "No {} found with {}='{}'",
            ids::label(t),
            found.param,
            found.normalized
        )));
    }
    // The first of the most frequent alleles.
    let most_frequent =
        entities
            .iter()
            .fold(None, |best: Option<&Value>, v| match (best, gnomad_af(v)) {
                (_, None) => best,
                (Some(b), Some(af)) if gnomad_af(b).is_some_and(|x| x >= af) => best,
                (_, Some(_)) => Some(v),
            });
    let mane: Vec<&Value> = entities
        .iter()
        .filter(|p| truthy(p.get("MANE_Select")))
        .collect();
    let entity = match t {
        "variant" => most_frequent.unwrap_or(&entities[0]),
        "protein" => mane.first().copied().unwrap_or(&entities[0]),
        "gene" => preferred_gene(&entities),
        _ => &entities[0],
    };
    let mut out = json!({"input": input, "entity_type": t});
    let many = entities.len() > 1;
    let identifiers = match t {
        "variant" => {
            let alleles: Vec<Value> = entities
                .iter()
                .map(|v| {
                    let mut a = pick(
                        v,
                        &[
                            ("spdi", "spdi"),
                            ("hgvs", "hgvs"),
                            ("ca_id", "ca_id"),
                            ("ref", "ref"),
                            ("alt", "alt"),
                        ],
                    );
                    a.insert(
                        "gnomad_af_total".into(),
                        gnomad_af(v).map_or(Value::Null, Value::from),
                    );
                    Value::Object(a)
                })
                .collect();
            out["alleles"] = alleles.into();
            if many {
                let described = match most_frequent {
                    Some(v) => format!(
                        "the allele with the highest gnomAD frequency ({})",
                        v.get("spdi").map(super::lookup::text).unwrap_or_default()
                    ),
                    None => "the first allele (none has a gnomAD frequency)".into(),
                };
                out["note"] = format!(
                    "{input} matches {} variants (alleles); the identifiers describe {described}.",
                    entities.len()
                )
                .into();
            }
            pick(
                entity,
                &[
                    ("rsid", "rsid"),
                    ("spdi", "spdi"),
                    ("hgvs", "hgvs"),
                    ("ca_id", "ca_id"),
                    ("variant_id", "_id"),
                    ("chromosome", "chr"),
                    ("position", "pos"),
                    ("ref", "ref"),
                    ("alt", "alt"),
                ],
            )
        }
        "gene" => {
            let genes: Vec<Value> = entities
                .iter()
                .map(|g| {
                    Value::Object(pick(
                        g,
                        &[
                            ("gene_id", "_id"),
                            ("name", "name"),
                            ("chromosome", "chr"),
                            ("start", "start"),
                            ("end", "end"),
                        ],
                    ))
                })
                .collect();
            out["genes"] = genes.into();
            if many {
                out["note"] = format!(
                    "{input} matches {} genes (genes); the identifiers describe {}, preferring a \
                     gene on the primary assembly, then one with an HGNC id, then the lowest id.",
                    entities.len(),
                    id_text(entity)
                )
                .into();
            }
            let mut m = pick(
                entity,
                &[
                    ("gene_id", "_id"),
                    ("name", "name"),
                    ("hgnc", "hgnc"),
                    ("entrez", "entrez"),
                    ("synonyms", "synonyms"),
                    ("chromosome", "chr"),
                    ("start", "start"),
                    ("end", "end"),
                ],
            );
            if entity.get("synonyms").is_none() {
                m.insert("synonyms".into(), json!([]));
            }
            m
        }
        "protein" => {
            let proteins: Vec<Value> = entities
                .iter()
                .map(|p| {
                    Value::Object(pick(
                        p,
                        &[
                            ("protein_id", "_id"),
                            ("name", "name"),
                            ("uniprot_ids", "uniprot_ids"),
                            ("uniprot_names", "uniprot_names"),
                            ("MANE_Select", "MANE_Select"),
                        ],
                    ))
                })
                .collect();
            out["proteins"] = proteins.into();
            if many {
                let described = match mane.len() {
                    0 => "the first (none is MANE Select)".to_string(),
                    1 => format!("the MANE Select protein ({})", id_text(entity)),
                    n => format!(
                        "the first of the {n} MANE Select proteins ({})",
                        id_text(entity)
                    ),
                };
                out["note"] = format!(
                    "{input} matches {} proteins (proteins); the identifiers describe {described}; \
                     get_entity gives the full records.",
                    entities.len()
                )
                .into();
            }
            let mut m = pick(
                entity,
                &[
                    ("protein_id", "_id"),
                    ("name", "name"),
                    ("uniprot_ids", "uniprot_ids"),
                    ("uniprot_names", "uniprot_names"),
                    ("uniprot_full_names", "uniprot_full_names"),
                ],
            );
            m.insert(
                "uniprot_accession".into(),
                uniprot_accession(entity).unwrap_or(Value::Null),
            );
            m.insert(
                "MANE_Select".into(),
                entity.get("MANE_Select").cloned().unwrap_or(Value::Null),
            );
            let n = entity
                .get("dbxrefs")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            m.insert("dbxrefs_count".into(), n.into());
            m
        }
        "transcript" => pick(
            entity,
            &[
                ("transcript_id", "_id"),
                ("chromosome", "chr"),
                ("start", "start"),
                ("end", "end"),
                ("transcript_type", "transcript_type"),
            ],
        ),
        "ontology" => {
            let mut m = pick(
                entity,
                &[
                    ("term_id", "term_id"),
                    ("name", "name"),
                    ("synonyms", "synonyms"),
                    ("source", "source"),
                ],
            );
            if entity.get("term_id").is_none() {
                m.insert(
                    "term_id".into(),
                    entity.get("_id").cloned().unwrap_or(Value::Null),
                );
            }
            if entity.get("synonyms").is_none() {
                m.insert("synonyms".into(), json!([]));
            }
            m
        }
        _ => pick(entity, &[("id", "_id"), ("name", "name")]),
    };
    let identifiers: Map<String, Value> = identifiers
        .into_iter()
        .filter(|(_, v)| !v.is_null())
        .collect();
    out["identifiers"] = Value::Object(identifiers);
    Ok(Out::Json(out))
}

fn described(sources: &[&str]) -> Vec<Value> {
    sources
        .iter()
        .map(|s| json!({"name": s, "description": edges::source_description(s)}))
        .collect()
}

/// `igvf_catalog_list_sources`.
pub fn list_sources(args: &Value) -> ToolResult {
    if let Some(key) = arg_str(args, "endpoint").filter(|k| !k.is_empty()) {
        let Some(e) = edges::edge(key) else {
            let keys: Vec<&str> = edges::EDGES.iter().map(|e| e.key).collect();
            return Err(format!(
                "endpoint: unknown endpoint {key}; valid: {}",
                keys.join(", ")
            ));
        };
        let mut out = json!({
            "endpoint": e.key, "path": e.path, "client_method": e.client_method,
            "from_type": e.from, "to_type": e.to, "sources": described(e.sources),
        });
        for (member, param) in [("methods", "method"), ("labels", "label")] {
            if let Some(values) = edges::values(e, param) {
                out[member] = json!(values);
            }
        }
        let filters: Map<String, Value> = e
            .filters
            .iter()
            .map(|(n, k)| (n.to_string(), k.name().into()))
            .collect();
        out["filters"] = Value::Object(filters);
        out["max_limit"] = e.max_limit.into();
        out["supports_verbose"] = edges::accepts(e, "verbose").into();
        return Ok(Out::Json(out));
    }
    if let Some(c) = arg_str(args, "category").filter(|c| !c.is_empty()) {
        let Some((_, sources)) = edges::CATEGORIES.iter().find(|(name, _)| *name == c) else {
            return Err(format!("category: unknown category {c}"));
        };
        return Ok(Out::Json(
            json!({"category": c, "sources": described(sources)}),
        ));
    }
    let mut all: Vec<&str> = edges::CATEGORIES
        .iter()
        .flat_map(|(_, s)| s.iter().copied())
        .collect();
    all.sort_unstable();
    all.dedup();
    let by_category: Map<String, Value> = edges::CATEGORIES
        .iter()
        .map(|(c, s)| (c.to_string(), described(s).into()))
        .collect();
    Ok(Out::Json(json!({
        "categories": edges::CATEGORIES.iter().map(|(c, _)| *c).collect::<Vec<_>>(),
        "total_sources": all.len(),
        "total_endpoints": edges::EDGES.len(),
        "sources_by_category": by_category,
        "usage_hint": "Give category for one category's sources, or endpoint for one edge \
                       endpoint's sources, methods, labels and filters.",
    })))
}
