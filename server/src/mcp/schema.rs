//! The six tools as `tools/list` describes them (names, arguments, types, enums and bounds as
//! IGVF's MCP server has them, so agents and skills written for it call these unchanged) and the
//! check of a call's arguments against them, naming the argument at fault.

use serde_json::{json, Value};

use super::edges;

const HINTS: [&str; 7] = [
    "gene",
    "variant",
    "protein",
    "transcript",
    "disease",
    "drug",
    "complex",
];

fn page() -> Value {
    json!({"type": "integer", "minimum": 0, "default": 0,
           "description": "Page to return, from 0; follow _pagination.next_page."})
}

/// A range filter: a number (a minimum) or an operator string.
fn threshold(what: &str) -> Value {
    json!({
        "anyOf": [{"type": "number"}, {"type": "string", "pattern": RANGE_PATTERN}],
        "description": format!("{what}: a number is a minimum (gte:); or gt:, gte:, lt:, lte: \
                                followed by a number, e.g. 'gt:0.7'"),
    })
}

/// The pattern of an operator string (checked by [`is_range_operator`]).
pub const RANGE_PATTERN: &str = r"^(gt|gte|lt|lte):[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$";

/// Whether `s` is an operator string: `gt|gte|lt|lte`, `:`, a decimal number.
pub fn is_range_operator(s: &str) -> bool {
    let Some((op, num)) = s.split_once(':') else {
        return false;
    };
    if !matches!(op, "gt" | "gte" | "lt" | "lte") {
        return false;
    }
    let num = num.strip_prefix(['+', '-']).unwrap_or(num);
    let (mantissa, exp) = match num.find(['e', 'E']) {
        Some(i) => (&num[..i], Some(&num[i + 1..])),
        None => (num, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((i, f)) => (digits(i) && (f.is_empty() || digits(f))) || (i.is_empty() && digits(f)),
        None => digits(mantissa),
    };
    let exp_ok = exp.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    mantissa_ok && exp_ok
}

/// The tool list.
pub fn tools() -> Value {
    let relationships: Vec<&str> = edges::RELATIONSHIPS
        .iter()
        .map(|(r, _)| *r)
        .chain(["all"])
        .collect();
    let categories: Vec<&str> = edges::CATEGORIES.iter().map(|(c, _)| *c).collect();
    let read_only = json!({"readOnlyHint": true, "openWorldHint": false});
    json!([
        {
            "name": "igvf_catalog_get_entity",
            "description": "Fetch catalog records by identifier; the kind of entity is read from \
                the identifier's shape: gene symbols and ENSG/HGNC ids, rsIDs, SPDI, HGVS and CA \
                ids, ENSP and UniProt ids, ENST ids, ontology terms (MONDO_…, HP:…), PharmGKB \
                drugs (PA…), complexes (CPX-…), GWAS studies (GCST…), Reactome pathways. A hint \
                picks the type and lets a name be searched. Paged: see _pagination.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "minLength": 1,
                           "description": "Identifier or, with a hint, a name (BRCA1, rs12345, ENSG00000139618)."},
                    "hint": {"type": "string", "enum": HINTS,
                             "description": "Entity type; with gene, protein, disease, drug or complex an identifier that is not an id of that type is looked up as a name."},
                    "limit": {"type": "integer", "minimum": 1, "default": 25,
                              "description": "Records per page (each type has its own largest page; _pagination says when it applied). Complexes and studies come 25 at a time."},
                    "page": page(),
                },
                "required": ["id"],
            },
            "annotations": read_only,
        },
        {
            "name": "igvf_catalog_search_region",
            "description": "Genes, variants and regulatory elements in a genomic region \
                (chr1:1000-2000, 1:1M-2M, chrX:1,000,000-2,000,000; 0-based, end exclusive), \
                each kind paged on its own. has_more is exact: the catalog says whether a next \
                page exists.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "region": {"type": "string",
                               "description": "chr:start-end on chr1-22, X, Y, M (GRCh38) or chr1-19, X, Y, M (GRCm39); an end past the chromosome is clipped to it."},
                    "include": {"type": "array",
                                "items": {"type": "string", "enum": ["genes", "variants", "regulatory_elements"]},
                                "description": "Kinds to search (default: all three)."},
                    "organism": {"type": "string", "enum": ["Homo sapiens", "Mus musculus"],
                                 "default": "Homo sapiens", "description": "Organism."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 25,
                              "description": "Records per kind per page."},
                    "page": page(),
                },
                "required": ["region"],
            },
            "annotations": read_only,
        },
        {
            "name": "igvf_catalog_find_associations",
            "description": "Edges of the knowledge graph from one entity: regulatory (QTLs, \
                element-gene links), genetic (GWAS, disease-gene), physical (protein \
                interactions, complexes, gene-gene), functional (pathways, GO), pharmacological \
                (variant-drug), ld, coding, transcription (gene-transcript-protein), or all. \
                Each endpoint answers up to limit rows (per resolved id); query_metadata has \
                each endpoint's count, parameters and paging.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "entity_id": {"type": "string", "minLength": 1,
                                  "description": "Starting entity (TP53, rs12345, ENSG00000141510)."},
                    "hint": {"type": "string", "enum": HINTS,
                             "description": "Entity type of entity_id; with gene, protein, disease, drug or complex a non-id is a name, resolved to the entities that have it exactly (resolved_entities)."},
                    "relationship": {"type": "string", "enum": relationships,
                                     "description": "Relationship kind."},
                    "filters": {
                        "type": "object",
                        "description": "Filters passed to the endpoints that take them; query_metadata lists filters_not_applied with the reason (list_sources shows each endpoint's filters).",
                        "properties": {
                            "p_value": {"type": "number", "description": "Largest p-value (sent as neg_log10_pvalue gte:-log10(p))."},
                            "source": {"type": "string", "description": "Data source (list_sources)."},
                            "biological_context": {"type": "string", "description": "Tissue or cell type."},
                            "method": {"type": "string", "description": "Method (eQTL, CRISPR screen, ENCODE-rE2G, …; for protein interactions the interaction type)."},
                            "label": {"type": "string", "description": "Edge label (eQTL, GWAS, …; for protein interactions the detection method)."},
                            "score": threshold("Element-gene score"),
                            "r2": threshold("LD r²"),
                            "d_prime": threshold("LD D'"),
                            "ancestry": {"type": "string", "description": "Ancestry of the LD population."},
                        },
                    },
                    "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 25,
                              "description": "Rows per endpoint (and per resolved id); some endpoints take fewer (limit_capped_to)."},
                    "verbose": {"type": "boolean", "default": false,
                                "description": "Full records of the related entities."},
                    "page": page(),
                },
                "required": ["entity_id", "relationship"],
            },
            "annotations": read_only,
        },
        {
            "name": "igvf_catalog_find_ld",
            "description": "Variants in linkage disequilibrium with a variant (TopLD), with r² \
                and D' per ancestry; for proxies of a GWAS signal.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "variant_id": {"type": "string", "minLength": 1,
                                   "description": "rsID, SPDI, HGVS or CA id."},
                    "r2_threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.8,
                                     "description": "Smallest r²."},
                    "d_prime_threshold": {"type": "number", "minimum": 0, "maximum": 1,
                                          "description": "Smallest D' (optional)."},
                    "ancestry": {"type": "string", "enum": ["AFR", "EAS", "EUR", "SAS"], "default": "EUR",
                                 "description": "Ancestry of the LD population."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 100,
                              "description": "Rows per page."},
                    "verbose": {"type": "boolean", "default": false,
                                "description": "Full records of the partner variants."},
                    "page": page(),
                },
                "required": ["variant_id"],
            },
            "annotations": read_only,
        },
        {
            "name": "igvf_catalog_resolve_id",
            "description": "Every identifier the catalog has for an entity: for a variant its \
                rsID, SPDI, HGVS, CA id and alleles; for a gene its Ensembl id, symbol, HGNC, \
                Entrez and synonyms; for a protein its Ensembl and UniProt ids; and so on.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "minLength": 1,
                           "description": "Identifier (rs80357906, BRCA1, NC_000017.11:43044295:G:A)."},
                    "target_type": {"type": "string", "description": "Preferred identifier kind (informational)."},
                },
                "required": ["id"],
            },
            "annotations": read_only,
        },
        {
            "name": "igvf_catalog_list_sources",
            "description": "The data sources behind the catalog by category, or one edge \
                endpoint's sources, methods, labels, filters and largest page: the values the \
                other tools' filters take.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "category": {"type": "string", "enum": categories,
                                 "description": "Category to list."},
                    "endpoint": {"type": "string",
                                 "description": "Edge endpoint key (variants_genes, proteins_proteins, …)."},
                },
            },
            "annotations": read_only,
        },
    ])
}

/// The input schema of tool `name`.
pub fn input_schema(tools: &Value, name: &str) -> Option<Value> {
    tools
        .as_array()?
        .iter()
        .find(|t| t["name"] == name)
        .map(|t| t["inputSchema"].clone())
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Checks `v` (argument `path`) against `schema`: type, enum, bounds, length, pattern,
/// required members and array items.
pub fn check(schema: &Value, v: &Value, path: &str) -> Result<(), String> {
    if let Some(any) = schema.get("anyOf").and_then(Value::as_array) {
        if any.iter().any(|s| check(s, v, path).is_ok()) {
            return Ok(());
        }
        return Err(format!(
            "argument '{path}': {v} is neither a number nor an operator string such as 'gt:0.7'"
        ));
    }
    if let Some(want) = schema.get("type").and_then(Value::as_str) {
        let got = type_name(v);
        let integral_float = v.as_f64().is_some_and(|f| f.fract() == 0.0);
        let ok = got == want
            || (want == "number" && got == "integer")
            || (want == "integer" && got == "number" && integral_float);
        if !ok {
            return Err(format!("argument '{path}': {v} is not of type '{want}'"));
        }
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        if !values.contains(v) {
            let list: Vec<String> = values.iter().map(|x| x.to_string()).collect();
            return Err(format!(
                "argument '{path}': {v} is not one of [{}]",
                list.join(", ")
            ));
        }
    }
    if let (Some(min), Some(x)) = (schema.get("minimum").and_then(Value::as_f64), v.as_f64()) {
        if x < min {
            return Err(format!(
                "argument '{path}': {v} is less than the minimum of {min}"
            ));
        }
    }
    if let (Some(max), Some(x)) = (schema.get("maximum").and_then(Value::as_f64), v.as_f64()) {
        if x > max {
            return Err(format!(
                "argument '{path}': {v} is more than the maximum of {max}"
            ));
        }
    }
    if let (Some(min), Some(s)) = (schema.get("minLength").and_then(Value::as_u64), v.as_str()) {
        if (s.chars().count() as u64) < min {
            return Err(format!("argument '{path}': {v} is too short"));
        }
    }
    if let (Some(_), Some(s)) = (schema.get("pattern"), v.as_str()) {
        if !is_range_operator(s) {
            return Err(format!(
                "argument '{path}': {v} does not match {RANGE_PATTERN}"
            ));
        }
    }
    if let (Some(items), Some(a)) = (schema.get("items"), v.as_array()) {
        for (i, x) in a.iter().enumerate() {
            check(items, x, &format!("{path}[{i}]"))?;
        }
    }
    if let Some(o) = v.as_object() {
        for r in schema["required"].as_array().into_iter().flatten() {
            let name = r.as_str().unwrap_or("");
            if !o.contains_key(name) {
                return Err(format!("argument '{name}' is required"));
            }
        }
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (k, x) in o {
                if let Some(s) = props.get(k) {
                    let sub = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    check(s, x, &sub)?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_arguments_are_checked_and_named() {
        let tools = tools();
        let s = input_schema(&tools, "igvf_catalog_find_associations").unwrap();
        let ok = json!({"entity_id": "TP53", "relationship": "ld", "limit": 5.0,
                        "filters": {"r2": "gt:0.7", "pmid": "1"}});
        assert_eq!(check(&s, &ok, ""), Ok(()));
        let e = |args: Value| check(&s, &args, "").unwrap_err();
        assert!(e(json!({"relationship": "ld"})).contains("'entity_id' is required"));
        assert!(e(json!({"entity_id": 5, "relationship": "ld"})).contains("'entity_id'"));
        assert!(e(json!({"entity_id": "x", "relationship": "kin"})).contains("'relationship'"));
        assert!(e(json!({"entity_id": "x", "relationship": "ld", "limit": 0})).contains("'limit'"));
        assert!(
            e(json!({"entity_id": "x", "relationship": "ld", "limit": 2.5})).contains("'limit'")
        );
        let bad_r2 = json!({"entity_id": "x", "relationship": "ld", "filters": {"r2": "about 1"}});
        assert!(e(bad_r2).contains("'filters.r2'"));
        assert!(is_range_operator("lte:-1.5e3") && is_range_operator("gt:.5"));
        assert!(!is_range_operator("gt:") && !is_range_operator("ge:1"));
    }
}
