//! `/diseases/genes`: rows computed here from `testdata/catalog/`, filters, paging, errors.

use serde_json::{json, Map, Value};

use crate::oracle::{self, data, id_or, obj, s, tokens, GENE, TERM};
use crate::util::{assert_bad_request, assert_json_eq, check_paging, get_json};

fn diseases_genes(
    disease_id: Option<&str>,
    name: Option<&str>,
    source: Option<&str>,
    verbose: bool,
) -> Vec<Value> {
    let base: Vec<&Value> = oracle::sorted_by_key(
        data()
            .docs("diseases_genes")
            .iter()
            .filter(|e| disease_id.is_none_or(|d| s(e, "_from") == format!("ontology_terms/{d}")))
            .filter(|e| source.is_none_or(|x| s(e, "source") == x))
            .collect(),
    );
    let rows: Vec<&Value> = match name {
        None => base,
        Some(q) => {
            let exact: Vec<&Value> = base
                .iter()
                .copied()
                .filter(|e| s(e, "term_name") == q)
                .collect();
            if !exact.is_empty() {
                exact
            } else {
                let qt = tokens(q);
                base.into_iter()
                    .filter(|e| {
                        !qt.is_empty() && qt.iter().all(|t| tokens(s(e, "term_name")).contains(t))
                    })
                    .collect()
            }
        }
    };
    rows.into_iter()
        .map(|e| {
            let gencc = s(e, "source") == "GenCC";
            let head: &[&str] = if gencc {
                &[
                    "pmids",
                    "term_name",
                    "gene_symbol",
                    "sgc_id",
                    "hgnc",
                    "classification",
                    "moi_id",
                    "moi_name",
                    "submitter",
                ]
            } else {
                &[
                    "association_type",
                    "pmids",
                    "term_name",
                    "gene_symbol",
                    "association_status",
                ]
            };
            let tail_extra: &[&str] = if gencc {
                &["association_type", "association_status"]
            } else {
                &[
                    "sgc_id",
                    "hgnc",
                    "classification",
                    "moi_id",
                    "moi_name",
                    "submitter",
                ]
            };
            let mut m = Map::new();
            for k in head.iter().chain(&[
                "class",
                "method",
                "label",
                "files_filesets",
                "source",
                "source_url",
            ]) {
                m.insert(k.to_string(), e.get(*k).cloned().unwrap_or(Value::Null));
            }
            m.insert("gene".into(), id_or(s(e, "_to"), verbose, GENE));
            m.insert("disease".into(), id_or(s(e, "_from"), verbose, TERM));
            m.insert("name".into(), json!(s(e, "name")));
            for k in tail_extra {
                m.insert(k.to_string(), e.get(*k).cloned().unwrap_or(Value::Null));
            }
            // ClinGen variants of the same disease and gene, and their inheritance mode.
            let clingen: Vec<&Value> = oracle::sorted_by_key(
                data()
                    .docs("variants_diseases")
                    .iter()
                    .filter(|vd| s(vd, "_to") == s(e, "_from") && s(vd, "gene_id") == s(e, "_to"))
                    .collect(),
            );
            let inheritance = clingen.iter().find_map(|vd| {
                data()
                    .docs("variants_diseases_genes")
                    .iter()
                    .find(|x| s(x, "_from") == format!("variants_diseases/{}", s(vd, "_key")))
                    .and_then(|x| x.get("inheritance_mode").cloned())
            });
            m.insert(
                "inheritance_mode".into(),
                inheritance.unwrap_or(Value::Null),
            );
            let variants: Vec<Value> = clingen
                .iter()
                .filter_map(|vd| data().handle(s(vd, "_from")))
                .map(|v| {
                    obj(
                        v,
                        &[
                            ("chr", "chr"),
                            ("pos", "pos"),
                            ("ref", "ref"),
                            ("alt", "alt"),
                            ("rsid", "rsid"),
                            ("spdi", "spdi"),
                            ("hgvs", "hgvs"),
                        ],
                    )
                })
                .collect();
            // No ClinGen variant: null, not [] (docs/igvf-differences.md).
            m.insert(
                "variants".into(),
                if variants.is_empty() {
                    Value::Null
                } else {
                    Value::Array(variants)
                },
            );
            Value::Object(m)
        })
        .collect()
}

#[test]
fn test_diseases_genes() {
    for verbose in [false, true] {
        for (query, id, name, source) in [
            (
                "disease_id=MONDO_9000001",
                Some("MONDO_9000001"),
                None,
                None,
            ),
            (
                "disease_id=MONDO_0008426",
                Some("MONDO_0008426"),
                None,
                None,
            ),
            (
                "disease_name=test%20disease%20one",
                None,
                Some("test disease one"),
                None,
            ),
            (
                "disease_name=Test%20Disease",
                None,
                Some("Test Disease"),
                None,
            ),
            (
                "disease_name=syndrome%20RARE",
                None,
                Some("syndrome RARE"),
                None,
            ),
            (
                "disease_name=test%20disease&source=Orphanet",
                None,
                Some("test disease"),
                Some("Orphanet"),
            ),
            (
                "disease_id=MONDO_9000001&disease_name=one%20disease",
                Some("MONDO_9000001"),
                Some("one disease"),
                None,
            ),
        ] {
            let want = diseases_genes(id, name, source, verbose);
            assert!(!want.is_empty(), "{query}");
            assert_json_eq(
                &get_json(&format!("/diseases/genes?{query}&verbose={verbose}")),
                &Value::Array(want),
                query,
            );
        }
    }
    // Paging runs over the winning tier (here: all tokens, two diseases).
    let all = diseases_genes(None, Some("test disease"), None, false);
    assert_eq!(all.len(), 3);
    check_paging("/diseases/genes?disease_name=test%20disease", &all, 2);
    // The GenCC row of TSTA1 carries its ClinGen variant and inheritance mode.
    let rows = get_json("/diseases/genes?disease_id=MONDO_9000001&source=GenCC");
    assert_eq!(
        rows[0]["inheritance_mode"],
        "Autosomal dominant inheritance"
    );
    assert_eq!(rows[0]["variants"][0]["spdi"], "NC_000001.11:15000:A:G");
    // A row without ClinGen variants has "variants": null.
    let none = get_json("/diseases/genes?disease_id=MONDO_9000001&source=Orphanet");
    let none = none.as_array().unwrap();
    assert!(!none.is_empty());
    for r in none {
        assert_eq!(r.get("variants"), Some(&Value::Null), "{r}");
    }
    assert_eq!(
        get_json("/diseases/genes?disease_name=nothing%20like%20it"),
        json!([])
    );
    assert_eq!(
        get_json("/diseases/genes?disease_name=tset%20disease"),
        json!([]),
        "no typo tier for diseases"
    );
    assert_bad_request(
        "/diseases/genes?source=GenCC",
        &[(
            "at least one of disease_id, disease_name must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/diseases/genes?disease_id=X&source=gencc",
        &[(
            "source must be one of 'GenCC', 'Orphanet', got 'gencc'",
            &["source"],
        )],
    );
    assert_bad_request(
        "/diseases/genes?disease_id=MONDO_9000001&disease=x",
        &[(
            "unknown parameter `disease`; did you mean `disease_id`?",
            &["disease"],
        )],
    );
    assert_bad_request(
        "/diseases/genes?disease_id=MONDO_9000001&limit=101",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
    );
}
