//! `/variants/predictions` and `/variants/predictions-count`.

use serde_json::{json, Value};

use crate::oracle::{self, data, s, VariantQuery};
use crate::util::{assert_bad_request, assert_json_eq, check_paging, get_json, q};

/// `/variants/predictions-count` from the JSONL: the elements containing the variants
/// (`start <= pos < end`), their gene edges, distinct contexts and genes by id.
fn predictions_count(keep: impl Fn(&Value) -> bool, fileset: Option<&str>) -> Value {
    let vs: Vec<&Value> = data().docs("variants").iter().filter(|v| keep(v)).collect();
    assert!(!vs.is_empty());
    let mut handles = std::collections::BTreeSet::new();
    for v in &vs {
        let pos = v["pos"].as_f64().unwrap();
        for el in data().docs("genomic_elements") {
            if s(el, "chr") == s(v, "chr")
                && el["start"].as_f64().unwrap() <= pos
                && pos < el["end"].as_f64().unwrap()
            {
                handles.insert(format!("genomic_elements/{}", s(el, "_key")));
            }
        }
    }
    let mut contexts = std::collections::BTreeSet::new();
    let mut genes = std::collections::BTreeMap::new();
    for e in data().docs("genomic_elements_genes") {
        if !handles.contains(s(e, "_from")) {
            continue;
        }
        if fileset.is_some_and(|f| s(e, "files_filesets") != format!("files_filesets/{f}")) {
            continue;
        }
        if let Some(c) = e["biological_context"].as_str() {
            contexts.insert(c.to_string());
        }
        let name = data()
            .handle(s(e, "_to"))
            .map_or(Value::Null, |g| g["name"].clone());
        genes.insert(s(e, "_to").to_string(), name);
    }
    let genes: Vec<Value> = genes
        .into_iter()
        .map(|(id, name)| json!({"gene_name": name, "id": id}))
        .collect();
    json!([{"cell_types": contexts.len(), "genes": genes, "name": "regulates"}])
}

#[test]
fn test_variant_predictions_count() {
    let rs = |id: &'static str| {
        move |v: &Value| {
            v["rsid"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x == id))
        }
    };
    let want = predictions_count(rs("rs900004"), None);
    assert!(!want[0]["genes"].as_array().unwrap().is_empty());
    assert_json_eq(
        &get_json("/variants/predictions-count?rsid=rs900004"),
        &want,
        "rsid",
    );
    let want = predictions_count(|v| s(v, "_key") == "NC_000001.11:15000:A:G", None);
    assert_json_eq(
        &get_json("/variants/predictions-count?spdi=NC_000001.11:15000:A:G"),
        &want,
        "spdi",
    );
    // A gene edge to a gene the catalog lacks keeps its id, with a null name.
    assert!(want[0]["genes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["gene_name"].is_null()));
    let want = predictions_count(rs("rs900004"), Some("IGVFFI9000SCE"));
    assert_json_eq(
        &get_json("/variants/predictions-count?rsid=rs900004&files_fileset=IGVFFI9000SCE"),
        &want,
        "fileset",
    );
    let r = crate::util::get("/variants/predictions-count?rsid=rs1");
    assert_eq!(r.status, 404);
    assert_bad_request(
        "/variants/predictions-count?organism=Homo%20sapiens",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id must be given",
            &[],
        )],
    );
}

/// Expected 4.9 rows for variants (ordered by edge key, then variant key).
fn predictions(vars: &[&Value], method: Option<&str>, files: Option<&str>) -> Vec<Value> {
    let methods: Vec<&str> = method.map_or(vec!["scE2G", "ENCODE-rE2G"], |m| vec![m]);
    let mut rows: Vec<(&Value, &Value)> = Vec::new();
    for e in oracle::sorted_by_key(data().docs("genomic_elements_genes").iter().collect()) {
        if !methods.contains(&s(e, "method"))
            || files.is_some_and(|f| s(e, "files_filesets") != format!("files_filesets/{f}"))
        {
            continue;
        }
        if data().handle(s(e, "_to")).is_none() {
            continue;
        }
        let Some(el) = data().handle(s(e, "_from")) else {
            continue;
        };
        let mut inside: Vec<&Value> = vars
            .iter()
            .copied()
            .filter(|v| {
                let p = v["pos"].as_f64().unwrap();
                s(v, "chr") == s(el, "chr")
                    && el["start"].as_f64().unwrap() <= p
                    && p < el["end"].as_f64().unwrap()
            })
            .collect();
        inside.sort_by(|a, b| s(a, "_key").cmp(s(b, "_key")));
        rows.extend(inside.into_iter().map(|v| (e, v)));
    }
    rows.into_iter().map(|(e, v)| {
        let el = data().handle(s(e, "_from")).unwrap();
        let g = data().handle(s(e, "_to")).unwrap();
        let p = v["pos"].as_i64().unwrap();
        let d = (p - g["start"].as_i64().unwrap()).abs().min((p - g["end"].as_i64().unwrap()).abs());
        let cell = e.get("cell_annotation").and_then(Value::as_str).unwrap_or_else(|| s(e, "biological_context"));
        json!({"distance_gene_variant": d, "element_chr": el["chr"], "element_start": el["start"], "element_end": el["end"],
            "element_type": el["type"], "id": e["_from"], "cell_type": cell,
            "target_gene": {"gene_name": g["name"], "id": e["_to"], "chr": g["chr"], "start": g["start"], "end": g["end"]},
            "score": e.get("score"), "model": e["source"], "dataset": e["source_url"], "name": e["name"], "files_filesets": e.get("files_filesets")})
    }).collect()
}

#[test]
fn test_variant_predictions() {
    let all: Vec<&Value> = data().docs("variants").iter().collect();
    for (query, vq, method, files) in [
        (
            "rsid=rs900004",
            Some(VariantQuery {
                rsid: Some("rs900004"),
                ..q()
            }),
            None,
            None,
        ),
        (
            "rsid=rs900004&method=scE2G",
            Some(VariantQuery {
                rsid: Some("rs900004"),
                ..q()
            }),
            Some("scE2G"),
            None,
        ),
        (
            "spdi=NC_000001.11:15000:A:G",
            Some(VariantQuery {
                spdi: Some("NC_000001.11:15000:A:G"),
                ..q()
            }),
            None,
            None,
        ),
        (
            "variant_id=NC_000001.11:25010:CT:",
            Some(VariantQuery {
                variant_id: Some("NC_000001.11:25010:CT:"),
                ..q()
            }),
            None,
            None,
        ),
        (
            "files_fileset=IGVFFI9000E2G",
            None,
            None,
            Some("IGVFFI9000E2G"),
        ),
        (
            "files_filesets=IGVFFI9000SCE",
            None,
            None,
            Some("IGVFFI9000SCE"),
        ),
    ] {
        let vars = vq.map_or(all.clone(), |vq| oracle::variants("variants", vq));
        let want = predictions(&vars, method, files);
        assert!(!want.is_empty(), "{query}");
        assert_json_eq(
            &get_json(&format!("/variants/predictions?{query}&limit=300")),
            &Value::Array(want),
            query,
        );
    }
    // An element ending at the variant's position does not contain it; a screen is not a prediction.
    let v1 = get_json("/variants/predictions?spdi=NC_000001.11:15000:A:G");
    assert!(v1
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["element_start"] == 14900));
    assert_eq!(
        get_json("/variants/predictions?rsid=rs900004&method=caQTL"),
        json!([])
    );
    let want = predictions(&all, None, Some("IGVFFI9000E2G"));
    check_paging(
        "/variants/predictions?files_fileset=IGVFFI9000E2G",
        &want,
        2,
    );
    assert_eq!(
        get_json("/variants/predictions?rsid=rs580000001&organism=Mus%20musculus"),
        json!([])
    );
    assert_bad_request(
        "/variants/predictions?files_fileset=A&files_filesets=B",
        &[(
            "files_fileset and files_filesets are the same parameter; give it once",
            &["files_filesets"],
        )],
    );
    assert_bad_request(
        "/variants/predictions?method=scE2G",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id, files_fileset must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/variants/predictions?rsid=rs1&method=rE2G",
        &[(
            "method must be one of 'scE2G', 'ENCODE-rE2G', 'caQTL', got 'rE2G'",
            &["method"],
        )],
    );
    assert_bad_request(
        "/variants/predictions?rsid=rs1&limit=301",
        &[(
            "limit must be an integer from 1 to 300, got \"301\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/variants/predictions?rsid=rs1&gene=x",
        &[("unknown parameter `gene`", &["gene"])],
    );
}
