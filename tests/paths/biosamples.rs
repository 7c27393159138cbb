//! `/biosamples/variants` and `/biosamples/genomic-elements`.

use serde_json::{json, Value};

use crate::oracle::{data, s};
use crate::util::{assert_bad_request, assert_json_eq, edges, get_json, handles};

#[test]
fn test_biosamples_variants_by_term() {
    let want: Vec<Value> = edges(
        "variants_biosamples",
        "_to",
        &["ontology_terms/EFO_0002067".to_string()],
    )
    .into_iter()
    .map(|e| json!([e["_from"], e["method"]]))
    .collect();
    let q = "/biosamples/variants?biosample_id=EFO_0002067";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["variant"], r["method"]]))
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/biosamples/variants?method=MPRA",
        &[(
            "at least one of biosample_id, biosample_name must be given",
            &[],
        )],
    );
}

#[test]
fn test_biosamples_genomic_elements_by_name() {
    let terms: Vec<&Value> = data()
        .docs("ontology_terms")
        .iter()
        .filter(|d| s(d, "name") == "K562")
        .collect();
    let want: Vec<Value> = edges(
        "genomic_elements_biosamples",
        "_to",
        &handles("ontology_terms", &terms),
    )
    .into_iter()
    .take(50)
    .map(|e| json!([e["_from"], e["_to"]]))
    .collect();
    let q = "/biosamples/genomic-elements?biosample_name=K562&limit=50";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["genomic_element"], r["biosample"]]))
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/biosamples/genomic-elements?method=STARR",
        &[("method must be one of 'MPRA', got 'STARR'", &["method"])],
    );
}
