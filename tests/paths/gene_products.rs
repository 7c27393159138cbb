//! `/gene-products/go-terms`.

use serde_json::{json, Value};

use crate::util::{assert_bad_request, assert_json_eq, edges, get_json};

#[test]
fn test_gene_products_go_terms_by_product() {
    let go_ids = |q: &str| -> Vec<Value> {
        get_json(q)
            .as_array()
            .unwrap()
            .iter()
            .map(|r| json!([r["gene_product_id"], r["go_id"], r["name"]]))
            .collect()
    };
    for (q, product) in [
        (
            "/gene-products/go-terms?query=ENSP90000000001",
            "proteins/ENSP90000000001",
        ),
        (
            "/gene-products/go-terms?query=ENST90000000001",
            "transcripts/ENST90000000001",
        ),
    ] {
        let want: Vec<Value> = edges("gene_products_terms", "_from", &[product.to_string()])
            .into_iter()
            .map(|e| json!([e["_from"], e["go_id"], e["name"]]))
            .collect();
        assert_json_eq(&json!(go_ids(q)), &json!(want), q);
    }
    assert_bad_request(
        "/gene-products/go-terms?name=involved%20in",
        &[("query is required", &["query"])],
    );
}
