//! `/genes-proteins/variants` and `/genes-proteins/genes-proteins`.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::oracle::{data, obj, s};
use crate::util::{assert_bad_request, assert_rows, check_paging, get_json};

/// The partners of node `h` in the undirected interaction edges `coll` that exist, by handle.
fn interaction_partners(coll: &str, h: &str) -> Vec<String> {
    let mut out = std::collections::BTreeSet::new();
    for e in data().docs(coll) {
        for (end, other) in [("_from", "_to"), ("_to", "_from")] {
            if s(e, end) == h && data().handle(s(e, other)).is_some() {
                out.insert(s(e, other).to_string());
            }
        }
    }
    out.into_iter().collect()
}

#[test]
fn test_genes_proteins_genes_proteins() {
    let ids = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| r["_id"].as_str().unwrap().to_string())
            .collect()
    };
    // TSTA1 names one gene and (by name) its proteins; the gene's proteins come through its
    // transcripts.
    let gene = "genes/ENSG90000000001";
    let proteins: Vec<String> = crate::oracle::gene_protein_pairs()
        .into_iter()
        .filter(|(g, _, _)| g == gene)
        .map(|(_, p, _)| p)
        .collect();
    assert!(proteins.len() >= 2, "{proteins:?}");
    let got = get_json("/genes-proteins/genes-proteins?query=TSTA1");
    let rows = got.as_array().unwrap();
    let mut want_rows: Vec<(String, Vec<String>)> = proteins
        .iter()
        .map(|p| (p.clone(), interaction_partners("proteins_proteins", p)))
        .filter(|(_, r)| !r.is_empty())
        .collect();
    want_rows.push((gene.to_string(), interaction_partners("genes_genes", gene)));
    let seen: Vec<(String, Vec<String>)> = rows
        .iter()
        .map(|r| {
            let node = if r["gene"].is_null() {
                &r["protein"]
            } else {
                &r["gene"]
            };
            (
                node["_id"].as_str().unwrap().to_string(),
                ids(&r["related"]),
            )
        })
        .collect();
    assert_eq!(seen, want_rows);
    // The compact shapes: a protein with its UniProt names, a gene with its chromosome and id;
    // the dangling partner (PP002's ENSP99999999996) is left out.
    let doc = data().handle(gene).unwrap();
    let g = rows.last().unwrap();
    assert_eq!(g["protein"], Value::Null);
    assert_eq!(g["gene"]["chr"], doc["chr"]);
    assert_eq!(g["gene"]["gene_id"], doc["gene_id"]);
    // Members in the client's GeneCompact order (4.17's differs).
    let members: Vec<&str> = g["gene"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        members,
        [
            "_id",
            "chr",
            "gene_id",
            "hgnc",
            "name",
            "organism",
            "files_filesets"
        ]
    );
    assert_eq!(g["related"][0].as_object().unwrap().len(), members.len());
    assert_eq!(rows[0]["gene"], Value::Null);
    assert!(rows[0]["protein"]["uniprot_names"].is_array());
    assert!(!got.to_string().contains("ENSP99999999996"));
    // A protein query gives the protein's partners and its gene's.
    let by_protein = get_json("/genes-proteins/genes-proteins?query=ENSP90000000002");
    let nodes: Vec<Value> = by_protein
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            if r["gene"].is_null() {
                r["protein"]["_id"].clone()
            } else {
                r["gene"]["_id"].clone()
            }
        })
        .collect();
    assert_eq!(nodes, vec![json!("proteins/ENSP90000000002"), json!(gene)]);
    // Paging applies to each record's partners; records left without partners are dropped.
    let partners = interaction_partners("genes_genes", gene);
    assert!(partners.len() >= 2, "{partners:?}");
    let page = get_json("/genes-proteins/genes-proteins?query=TSTA1&page=1&limit=1");
    let page_rows: Vec<&Value> = page.as_array().unwrap().iter().collect();
    assert_eq!(page_rows.len(), 1, "{page}");
    assert_eq!(ids(&page_rows[0]["related"]), vec![partners[1].clone()]);
    assert_rows(
        &get_json("/genes-proteins/genes-proteins?query=no-such-gene"),
        &json!([]),
        "unknown",
        true,
    );
    assert_bad_request(
        "/genes-proteins/genes-proteins",
        &[("query is required", &["query"])],
    );
    assert_bad_request(
        "/genes-proteins/genes-proteins?query=TSTA1&limit=101",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
    );
}

/// Expected 4.17 rows for `query`.
fn genes_proteins_variants(q: &str) -> Vec<Value> {
    let hgnc = if q.chars().all(|c| c.is_ascii_digit()) {
        format!("HGNC:{q}")
    } else {
        q.to_string()
    };
    let has = |d: &Value, f: &str| d[f].as_array().is_some_and(|a| a.iter().any(|x| x == q));
    let genes: Vec<String> = data()
        .docs("genes")
        .iter()
        .filter(|g| {
            [s(g, "_key"), s(g, "name"), s(g, "gene_id"), s(g, "symbol")].contains(&q)
                || s(g, "hgnc") == hgnc
                || has(g, "synonyms")
        })
        .map(|g| format!("genes/{}", s(g, "_key")))
        .collect();
    let proteins: Vec<String> = data()
        .docs("proteins")
        .iter()
        .filter(|p| {
            [s(p, "_key"), s(p, "protein_id"), s(p, "name")].contains(&q)
                || has(p, "uniprot_ids")
                || has(p, "uniprot_names")
                || has(p, "uniprot_full_names")
        })
        .map(|p| format!("proteins/{}", s(p, "_key")))
        .collect();
    let mut groups: BTreeMap<String, BTreeMap<(bool, String), Vec<&Value>>> = BTreeMap::new();
    for (coll, targets, is_protein) in [
        ("variants_genes", &genes, false),
        ("variants_proteins", &proteins, true),
    ] {
        for e in data().docs(coll) {
            if targets.iter().any(|t| t == s(e, "_to")) {
                groups
                    .entry(s(e, "_from").to_string())
                    .or_default()
                    .entry((is_protein, s(e, "_to").to_string()))
                    .or_default()
                    .push(e);
            }
        }
    }
    let nulls_last = |a: &Value, b: &Value, k: &str| match (a[k].as_str(), b[k].as_str()) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        _ => std::cmp::Ordering::Equal,
    };
    groups.into_iter().filter_map(|(vh, related)| {
        let v = data().handle(&vh)?;
        let sv = obj(v, &[("_id", "_key"), ("chr", "chr"), ("pos", "pos"), ("rsid", "rsid"), ("ref", "ref"), ("alt", "alt"), ("spdi", "spdi"), ("hgvs", "hgvs"), ("ca_id", "ca_id")]);
        let rel: Vec<Value> = related.into_iter().map(|((is_protein, target), edges)| {
            let mut sources: Vec<Value> = edges.iter().map(|e| if is_protein {
                json!({"motif": e.get("motif"), "source": s(e, "source"), "name": s(e, "inverse_name"), "files_filesets": e.get("files_filesets"),
                       "label": e.get("label"), "biological_context": e.get("biological_context"), "neg_log10_pvalue": e.get("neg_log10_pvalue")})
            } else {
                json!({"label": s(e, "label"), "source": s(e, "source"), "neg_log10_pvalue": e.get("neg_log10_pvalue"),
                       "biological_context": s(e, "biological_context"), "name": s(e, "inverse_name"), "files_filesets": e.get("files_filesets")})
            }).collect();
            sources.sort_by(|a, b| nulls_last(a, b, "source").then(nulls_last(a, b, "name")).then(nulls_last(a, b, "biological_context")));
            let target_obj = match data().handle(&target) {
                None => json!(target),
                Some(t) if is_protein => json!({"_id": target, "name": t["name"], "uniprot_names": t["uniprot_names"], "files_filesets": t.get("files_filesets")}),
                Some(t) => json!({"_id": target, "chr": t["chr"], "gene_id": t["gene_id"], "name": t["name"], "organism": t["organism"], "hgnc": t.get("hgnc"), "files_filesets": t.get("files_filesets")}),
            };
            if is_protein { json!({"gene": null, "protein": target_obj, "sources": sources}) } else { json!({"gene": target_obj, "protein": null, "sources": sources}) }
        }).collect();
        Some(json!({"sequence_variant": sv, "related": rel}))
    }).collect()
}

#[test]
fn test_genes_proteins_variants() {
    for q in [
        "TSTA1",
        "ENSP90000000001",
        "Q90001",
        "HGNC:900001",
        "900001",
        "TSTALPHA",
        "ENSG90000000002",
        "ENSG00000108179",
    ] {
        let want = genes_proteins_variants(q);
        let got = get_json(&format!("/genes-proteins/variants?query={q}&limit=100"));
        // A real gene with no variant in the catalog: nothing.
        assert_rows(&got, &Value::Array(want), q, q == "ENSG00000108179");
    }
    let tsta1 = get_json("/genes-proteins/variants?query=TSTA1");
    assert!(
        tsta1[0]["related"].as_array().unwrap().len() == 2,
        "a gene entry then a protein entry"
    );
    let want = genes_proteins_variants("TSTA1");
    check_paging("/genes-proteins/variants?query=TSTA1", &want, 1);
    assert_eq!(
        get_json("/genes-proteins/variants?query=NOTHING"),
        json!([])
    );
    assert_bad_request(
        "/genes-proteins/variants",
        &[("query is required", &["query"])],
    );
    assert_bad_request(
        "/genes-proteins/variants?query=x&limit=101",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/genes-proteins/variants?query=TSTA1&gene=x",
        &[("unknown parameter `gene`", &["gene"])],
    );
}
