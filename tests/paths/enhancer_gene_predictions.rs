//! `/enhancer-gene-predictions`: predictions grouped by gene.

use serde_json::{json, Value};

use crate::oracle::{data, obj, s};
use crate::util::{assert_bad_request, assert_json_eq, docs, get, get_json};

/// The predicted elements of gene `g` (edges to it by ENCODE-rE2G or scE2G), as elements.
fn predictions(g: &Value, keep: impl Fn(&Value) -> bool) -> Option<Value> {
    let handle = format!("genes/{}", s(g, "_key"));
    let elements: Vec<Value> = docs("genomic_elements_genes", |e| {
        s(e, "_to") == handle && ["ENCODE-rE2G", "scE2G"].contains(&s(e, "method")) && keep(e)
    })
    .into_iter()
    .map(|e| {
        let el = data().handle(s(e, "_from")).cloned().unwrap_or(Value::Null);
        let cell = if e["cell_annotation"].is_null() {
            e["biological_context"].clone()
        } else {
            e["cell_annotation"].clone()
        };
        json!({
            "id": e["_from"], "cell_type": cell, "score": e["score"], "model": e["source"],
            "dataset": e["source_url"], "element_type": el["type"], "element_chr": el["chr"],
            "element_start": el["start"], "element_end": el["end"], "name": e["inverse_name"],
            "method": e["method"], "class": e["class"], "files_filesets": e["files_filesets"],
        })
    })
    .collect();
    let gene_ref = obj(
        g,
        &[
            ("name", "name"),
            ("_id", "_key"),
            ("start", "start"),
            ("end", "end"),
            ("chr", "chr"),
        ],
    );
    (!elements.is_empty()).then(|| json!({"gene": gene_ref, "elements": elements}))
}

#[test]
fn test_enhancer_gene_predictions_group_by_gene() {
    let tsta1 = data().get("genes", "ENSG90000000001").unwrap();
    let want = predictions(tsta1, |_| true).unwrap();
    assert_eq!(
        want["elements"].as_array().unwrap().len(),
        3,
        "hand count: TSTA1 has one scE2G and two ENCODE-rE2G predictions"
    );
    assert_eq!(
        want["elements"][0]["cell_type"], "T cell",
        "scE2G: cell annotation"
    );
    assert_json_eq(
        &get_json("/enhancer-gene-predictions?gene_name=TSTA1"),
        &json!([want]),
        "TSTA1",
    );
    // Without a gene: every gene with predictions of the method, one group per gene, paged
    // over the groups.
    let all: Vec<Value> = docs("genes", |_| true)
        .into_iter()
        .filter_map(|g| predictions(g, |e| s(e, "method") == "ENCODE-rE2G"))
        .collect();
    assert!(all.len() >= 2, "two genes have ENCODE-rE2G predictions");
    assert_json_eq(
        &get_json("/enhancer-gene-predictions?method=ENCODE-rE2G&limit=500"),
        &Value::Array(all.clone()),
        "method",
    );
    assert_json_eq(
        &get_json("/enhancer-gene-predictions?method=ENCODE-rE2G&limit=1&page=1"),
        &Value::Array(all[1..2].to_vec()),
        "second group",
    );
    assert_json_eq(
        &get_json("/enhancer-gene-predictions?files_fileset=IGVFFI9000SCE"),
        &json!([predictions(tsta1, |e| s(e, "method") == "scE2G").unwrap()]),
        "file set",
    );
    // TSTC has a CRISPR screen edge only; an unknown gene has nothing (IGVF: 404).
    for q in ["gene_name=TSTC", "gene_id=ENSG99999999999"] {
        assert_eq!(
            get_json(&format!("/enhancer-gene-predictions?{q}")),
            json!([]),
            "{q}"
        );
    }
    assert_bad_request(
        "/enhancer-gene-predictions",
        &[(
            "at least one of gene_id, hgnc_id, gene_name, synonym, region, method, files_fileset must be given",
            &[],
        )],
    );
    let r = get("/enhancer-gene-predictions?method=Perturb-seq");
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["issues"][0]["path"], json!(["method"]));
}
