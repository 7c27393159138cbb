//! `/go-terms/gene-products`.

use serde_json::{json, Value};

use crate::util::{assert_bad_request, assert_json_eq, edges, get_json};

#[test]
fn test_go_terms_gene_products_by_term_in_either_spelling() {
    for q in [
        "/go-terms/gene-products?go_term_id=GO:9000001",
        "/go-terms/gene-products?go_term_id=GO_9000001",
    ] {
        let want: Vec<Value> = edges(
            "gene_products_terms",
            "_to",
            &["ontology_terms/GO_9000001".to_string()],
        )
        .into_iter()
        .map(|e| json!([e["_from"], e["inverse_name"]]))
        .collect();
        let got: Vec<Value> = get_json(q)
            .as_array()
            .unwrap()
            .iter()
            .map(|r| json!([r["gene_product_id"], r["name"]]))
            .collect();
        assert_json_eq(&json!(got), &json!(want), q);
    }
    assert_bad_request(
        "/go-terms/gene-products",
        &[("go_term_id is required", &["go_term_id"])],
    );
}
