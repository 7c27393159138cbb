//! `/variants/coding-variants`: rows by every variant identifier, errors.

use serde_json::{json, Value};

use crate::oracle::{self, data, s, VariantQuery};
use crate::util::{assert_bad_request, assert_json_eq, check_paging, coding_row, get_json};

fn variants_coding(q: VariantQuery<'_>) -> Vec<Value> {
    let handles: Vec<String> = oracle::variants("variants", q)
        .iter()
        .map(|v| format!("variants/{}", s(v, "_key")))
        .collect();
    let edges = data()
        .docs("variants_coding_variants")
        .iter()
        .filter(|e| handles.iter().any(|h| h == s(e, "_from")));
    oracle::sorted_by_key(edges.collect())
        .into_iter()
        .filter_map(|e| data().handle(s(e, "_to")))
        .map(coding_row)
        .collect()
}

#[test]
fn test_variant_coding_variants() {
    let q = VariantQuery::default;
    for (query, vq) in [
        (
            "spdi=NC_000001.11:15000:A:G",
            VariantQuery {
                spdi: Some("NC_000001.11:15000:A:G"),
                ..q()
            },
        ),
        (
            "variant_id=NC_000001.11:15000:A:G",
            VariantQuery {
                variant_id: Some("NC_000001.11:15000:A:G"),
                ..q()
            },
        ),
        (
            "hgvs=NC_000001.11:g.15001A>G",
            VariantQuery {
                hgvs: Some("NC_000001.11:g.15001A>G"),
                ..q()
            },
        ),
        (
            "ca_id=CA800002",
            VariantQuery {
                ca_id: Some("CA800002"),
                ..q()
            },
        ),
        (
            "rsid=rs900004",
            VariantQuery {
                rsid: Some("rs900004"),
                ..q()
            },
        ),
        (
            "rsid=rs900002&ca_id=CA800002",
            VariantQuery {
                rsid: Some("rs900002"),
                ca_id: Some("CA800002"),
                ..q()
            },
        ),
    ] {
        let want = variants_coding(vq);
        assert!(!want.is_empty(), "{query}");
        assert_json_eq(
            &get_json(&format!(
                "/variants/coding-variants?{}",
                query.replace('>', "%3E")
            )),
            &Value::Array(want),
            query,
        );
    }
    let got = get_json("/variants/coding-variants?spdi=NC_000001.11:15000:A:G");
    assert_eq!(got.as_array().unwrap().len(), 2);
    let all = variants_coding(VariantQuery {
        spdi: Some("NC_000001.11:15000:A:G"),
        ..q()
    });
    check_paging(
        "/variants/coding-variants?spdi=NC_000001.11:15000:A:G",
        &all,
        1,
    );
    // Names are shown with ? and >, and a hyphen in a gene symbol is kept.
    let tstb = get_json("/variants/coding-variants?rsid=rs900004");
    assert_eq!(tstb[0]["name"], "TST-B_ENST90000000003_p.G2D_c.5G>A");
    assert_eq!(
        get_json("/variants/coding-variants?rsid=rs900001&ca_id=CA800002"),
        json!([])
    );
    // Fixture: the dbNSFP sample's variants are not in the catalog, so nothing is found.
    assert_eq!(
        get_json("/variants/coding-variants?spdi=NC_000024.10:2786988:C:A"),
        json!([])
    );
}

#[test]
fn test_variant_coding_variants_errors() {
    assert_bad_request(
        "/variants/coding-variants",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/variants/coding-variants?region=chr1:1-2",
        &[
            ("unknown parameter `region`", &["region"]),
            (
                "at least one of variant_id, spdi, hgvs, rsid, ca_id must be given",
                &[],
            ),
        ],
    );
    assert_bad_request(
        "/variants/coding-variants?spdi=x&limit=501",
        &[
            (
                "spdi must be SPDI, <accession>:<position>:<ref>:<alt>, got \"x\"",
                &["spdi"],
            ),
            (
                "limit must be an integer from 1 to 500, got \"501\"",
                &["limit"],
            ),
        ],
    );
    assert_bad_request(
        "/variants/coding-variants?rsid=rs900001&variant=x",
        &[(
            "unknown parameter `variant`; did you mean `variant_id`?",
            &["variant"],
        )],
    );
}
