//! `/phenotypes/genomic-elements`, `/phenotypes/coding-variants` and `/phenotypes/variants`.

use serde_json::{json, Value};

use crate::oracle::{data, s};
use crate::util::{assert_bad_request, assert_json_eq, edges, get_json};

#[test]
fn test_phenotypes_genomic_elements_by_fileset_with_the_inverse_name() {
    let want: Vec<Value> = edges(
        "genomic_elements_phenotypes",
        "files_filesets",
        &["files_filesets/IGVFFI9000CRS".to_string()],
    )
    .into_iter()
    .filter(|e| e["significant"] == json!(false))
    .map(|e| json!([e["inverse_name"], e["_from"], e["_to"]]))
    .collect();
    let q = "/phenotypes/genomic-elements?files_fileset=IGVFFI9000CRS&significant=false";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["name"], r["genomic_element"], r["phenotype"]]))
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/phenotypes/genomic-elements?significant=true",
        &[(
            "at least one of phenotype_id, phenotype_name, files_fileset must be given",
            &[],
        )],
    );
}

#[test]
fn test_phenotypes_coding_variants_by_term() {
    let want: Vec<Value> = edges(
        "coding_variants_phenotypes",
        "_to",
        &["ontology_terms/OBA_9000001".to_string()],
    )
    .into_iter()
    // A coding variant the catalog lacks is null.
    .map(|e| {
        let cv = data().handle(s(e, "_from")).map(|d| d["_key"].clone());
        json!([cv, e["method"]])
    })
    .collect();
    let q = "/phenotypes/coding-variants?phenotype_id=OBA_9000001";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["coding_variant"]["_id"], r["method"]]))
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/phenotypes/coding-variants?method=nope",
        &[(
            "method must be one of 'DUAL-IPA', 'ESM-1v', 'MutPred2', 'SGE', 'VAMP-seq', 'Variant painting via fluorescence', got 'nope'",
            &["method"],
        )],
    );
}

#[test]
fn test_phenotypes_variants_needs_a_phenotype_method_or_file_set() {
    // As IGVF: without one of them the request would page through every association.
    let rule = "at least one of phenotype_id, phenotype_name, method, files_fileset must be given";
    for q in [
        "/phenotypes/variants",
        "/phenotypes/variants?source=OpenTargets",
        "/phenotypes/variants?label=GWAS",
        "/phenotypes/variants?neg_log10_pvalue=gt:7&class=observed%20data",
    ] {
        assert_bad_request(q, &[(rule, &[])]);
    }
    for q in [
        "/phenotypes/variants?method=GWAS",
        "/phenotypes/variants?phenotype_id=EFO_0000001",
        "/phenotypes/variants?phenotype_name=nope",
    ] {
        get_json(q);
    }
    let by_method = get_json("/phenotypes/variants?method=GWAS&limit=100");
    let want = data()
        .docs("variants_phenotypes")
        .iter()
        .filter(|e| e["method"] == "GWAS")
        .count();
    assert!(want > 0);
    assert_eq!(
        by_method.as_array().unwrap().len(),
        want,
        "method alone selects"
    );
}
