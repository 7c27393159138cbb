//! 4.5, 4.11 genomic elements; 4.6 diseases; 4.16 pathways; 4.21 motifs; 4.20, 4.22 ontology.

use std::collections::{HashMap, VecDeque};

use serde_json::{json, Map, Value};

use crate::oracle::{
    self, data, id_or, obj, overlaps, s, tokens, GENE, PROTEIN, SHORT_VARIANT, TERM,
};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, check_paging, get, get_json};

/// A path as (edge key, edge, vertex reached) steps.
type Steps<'a> = Vec<(String, &'a Value, String)>;

const ELEMENT: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("name", "name"),
    ("chr", "chr"),
    ("start", "start"),
    ("end", "end"),
    ("type", "type"),
    ("source_annotation", "source_annotation"),
    ("source", "source"),
    ("source_url", "source_url"),
];
const ELEMENT_FULL: &[(&str, &str)] = &[
    ("chr", "chr"),
    ("start", "start"),
    ("end", "end"),
    ("strand", "strand"),
    ("name", "name"),
    ("source_annotation", "source_annotation"),
    ("type", "type"),
    ("source", "source"),
    ("source_url", "source_url"),
];

fn elements_in(region: (&str, u64, u64)) -> Vec<String> {
    data()
        .docs("genomic_elements")
        .iter()
        .filter(|e| overlaps(e, region))
        .map(|e| format!("genomic_elements/{}", s(e, "_key")))
        .collect()
}

fn element_type(handle: &str) -> Option<String> {
    data().handle(handle).map(|e| s(e, "type").to_string())
}

fn context_cascade<'a>(docs: Vec<&'a Value>, q: &str) -> Vec<&'a Value> {
    let c = |d: &Value| s(d, "biological_context").to_string();
    let qt = tokens(q);
    let tiers: [&dyn Fn(&Value) -> bool; 4] = [
        &|d| c(d) == q,
        &|d| c(d).to_lowercase().starts_with(&q.to_lowercase()),
        &|d| !qt.is_empty() && qt.iter().all(|x| tokens(&c(d)).contains(x)),
        &|d| {
            !qt.is_empty()
                && tokens(&c(d))
                    .iter()
                    .any(|t| oracle::edit_distance(t, &qt[0]) <= 1)
        },
    ];
    for t in tiers {
        let hits: Vec<&Value> = docs.iter().copied().filter(|d| t(d)).collect();
        if !hits.is_empty() {
            return hits;
        }
    }
    Vec::new()
}

fn elements_variants(
    region: Option<(&str, u64, u64)>,
    f: &[(&str, &str)],
    context: Option<&str>,
) -> Vec<Value> {
    let els = region.map(elements_in);
    let base: Vec<&Value> = oracle::sorted_by_key(
        data()
            .docs("variants_genomic_elements")
            .iter()
            .filter(|e| {
                els.as_ref()
                    .is_none_or(|h| h.iter().any(|x| x == s(e, "_to")))
            })
            .filter(|e| {
                f.iter().all(|(k, v)| match *k {
                    "region_type" => element_type(s(e, "_to")).as_deref() == Some(*v),
                    "biosample_term" => s(e, k) == format!("ontology_terms/{v}"),
                    "files_fileset" => s(e, "files_filesets") == format!("files_filesets/{v}"),
                    _ => s(e, k) == *v,
                })
            })
            .collect(),
    );
    let rows = match context {
        Some(q) => context_cascade(base, q),
        None => base,
    };
    rows.into_iter()
        .map(|e| {
            let mut m = Map::new();
            m.insert(
                "variant".into(),
                data()
                    .handle(s(e, "_from"))
                    .map_or(Value::Null, |v| obj(v, SHORT_VARIANT)),
            );
            for k in ["name", "label", "method"] {
                m.insert(k.into(), json!(s(e, k)));
            }
            for k in [
                "class",
                "log2FC",
                "neg_log10_pvalue",
                "beta",
                "files_filesets",
                "biological_context",
                "biosample_term",
                "source",
                "source_url",
            ] {
                m.insert(k.into(), e.get(k).cloned().unwrap_or(Value::Null));
            }
            m.insert(
                "genomic_element".into(),
                data()
                    .handle(s(e, "_to"))
                    .map_or(Value::Null, |x| obj(x, ELEMENT)),
            );
            Value::Object(m)
        })
        .collect()
}

#[test]
fn test_genomic_elements_variants() {
    for (query, region, f, context) in [
        (
            "region=chr1:24000-26000",
            Some(("chr1", 24000, 26000)),
            vec![],
            None,
        ),
        (
            "region=chr1:14000-26000&biological_context=K562",
            Some(("chr1", 14000, 26000)),
            vec![],
            Some("K562"),
        ),
        (
            "region=chr1:14000-26000&biological_context=hep",
            Some(("chr1", 14000, 26000)),
            vec![],
            Some("hep"),
        ),
        (
            "method=caQTL&biological_context=lymphoblastoid%20line",
            None,
            vec![("method", "caQTL")],
            Some("lymphoblastoid line"),
        ),
        (
            "method=caQTL&biological_context=k563",
            None,
            vec![("method", "caQTL")],
            Some("k563"),
        ),
        (
            "region_type=accessible%20dna%20elements",
            None,
            vec![("region_type", "accessible dna elements")],
            None,
        ),
        (
            "region=chr20:9000000-10000000&region_type=accessible%20dna%20elements",
            Some(("chr20", 9000000, 10000000)),
            vec![("region_type", "accessible dna elements")],
            None,
        ),
        (
            "files_fileset=IGVFFI9000ENC&biosample_term=EFO_0002067",
            None,
            vec![
                ("files_fileset", "IGVFFI9000ENC"),
                ("biosample_term", "EFO_0002067"),
            ],
            None,
        ),
    ] {
        let mut want = elements_variants(region, &f, context);
        assert!(!want.is_empty(), "{query}");
        want.truncate(300);
        assert_json_eq(
            &get_json(&format!("/genomic-elements/variants?{query}&limit=300")),
            &Value::Array(want),
            query,
        );
    }
    // A missing variant is null, a missing element is null.
    let rows = get_json("/genomic-elements/variants?files_fileset=IGVFFI9000ENC&limit=300");
    assert!(rows
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["variant"].is_null()));
    assert!(rows
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["genomic_element"].is_null()));
    let all = elements_variants(None, &[("method", "caQTL")], None);
    check_paging("/genomic-elements/variants?method=caQTL", &all, 100);
    // A page past the winning tier's last hit is empty, never the next tier's hits.
    for (q, text) in [
        ("K562", "K562"),
        ("hep", "hep"),
        ("lymphoblastoid%20line", "lymphoblastoid line"),
        ("k563", "k563"),
    ] {
        let tier = elements_variants(None, &[("method", "caQTL")], Some(text));
        assert!(!tier.is_empty() && tier.len() < all.len(), "{q}");
        let base = format!("/genomic-elements/variants?method=caQTL&biological_context={q}");
        let n = tier.len();
        assert_json_eq(
            &get_json(&format!("{base}&limit={n}")),
            &Value::Array(tier),
            q,
        );
        assert_eq!(
            get_json(&format!("{base}&limit={n}&page=1")),
            json!([]),
            "{q}"
        );
    }
    assert_eq!(
        get_json("/genomic-elements/variants?method=caQTL&biological_context=zzzzzz"),
        json!([])
    );
    assert_bad_request(
        "/genomic-elements/variants?biosample_term=EFO_1",
        &[(
            "at least one of region, region_type, method, files_fileset must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/genomic-elements/variants?region_type=tested%20elements",
        &[(
            "region_type must be one of 'accessible dna elements', got 'tested elements'",
            &["region_type"],
        )],
    );
    assert_bad_request(
        "/genomic-elements/variants?method=caQTL&limit=301",
        &[(
            "limit must be an integer from 1 to 300, got \"301\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/genomic-elements/variants?method=caQTL&context=liver",
        &[(
            "unknown parameter `context`; did you mean `biological_context`?",
            &["context"],
        )],
    );
    assert_bad_request(
        "/genomic-elements/variants?region=chr1:24000-",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"chr1:24000-\"", &["region"])],
    );
    assert_bad_request(
        "/genomic-elements/variants?region=chr1:26000-24000",
        &[(
            "region must have start < end, got \"chr1:26000-24000\"",
            &["region"],
        )],
    );
    assert_bad_request(
        "/genomic-elements/variants?method=eQTL",
        &[("method must be one of 'caQTL', got 'eQTL'", &["method"])],
    );
}

fn elements_biosamples(
    region: Option<(&str, u64, u64)>,
    f: &[(&str, &str)],
    verbose: bool,
) -> Vec<Value> {
    let els = region.map(elements_in);
    oracle::sorted_by_key(
        data()
            .docs("genomic_elements_biosamples")
            .iter()
            .filter(|e| {
                els.as_ref()
                    .is_none_or(|h| h.iter().any(|x| x == s(e, "_from")))
            })
            .filter(|e| {
                f.iter().all(|(k, v)| match *k {
                    "region_type" => element_type(s(e, "_from")).as_deref() == Some(*v),
                    "files_fileset" => s(e, "files_filesets") == format!("files_filesets/{v}"),
                    _ => s(e, k) == *v,
                })
            })
            .collect(),
    )
    .into_iter()
    .map(|e| {
        let mut m = Map::new();
        for k in [
            "log2FC",
            "strand",
            "neg_log10_pvalue",
            "neg_log10_pvalue_adj",
            "DNA_count",
            "RNA_count",
            "significant",
            "source",
            "source_url",
        ] {
            m.insert(k.into(), e.get(k).cloned().unwrap_or(Value::Null));
        }
        m.insert(
            "genomic_element".into(),
            id_or(s(e, "_from"), verbose, ELEMENT_FULL),
        );
        m.insert("biosample".into(), id_or(s(e, "_to"), verbose, TERM));
        m.insert("name".into(), json!(s(e, "name")));
        for k in ["class", "method", "files_filesets"] {
            m.insert(k.into(), e.get(k).cloned().unwrap_or(Value::Null));
        }
        Value::Object(m)
    })
    .collect()
}

#[test]
fn test_genomic_elements_biosamples() {
    for verbose in [false, true] {
        for (query, region, f) in [
            (
                "region=chr1:10000-30000",
                Some(("chr1", 10000, 30000)),
                vec![],
            ),
            (
                "region_type=tested%20elements",
                None,
                vec![("region_type", "tested elements")],
            ),
            ("source=IGVF", None, vec![("source", "IGVF")]),
            (
                "method=MPRA&files_fileset=IGVFFI9000MP1",
                None,
                vec![("method", "MPRA"), ("files_fileset", "IGVFFI9000MP1")],
            ),
            (
                "region=chr1:0-2000000&region_type=tested%20elements&source=ENCODE",
                Some(("chr1", 0, 2000000)),
                vec![("region_type", "tested elements"), ("source", "ENCODE")],
            ),
        ] {
            let mut want = elements_biosamples(region, &f, verbose);
            assert!(!want.is_empty(), "{query}");
            want.truncate(50);
            assert_json_eq(
                &get_json(&format!(
                    "/genomic-elements/biosamples?{query}&verbose={verbose}&limit=50"
                )),
                &Value::Array(want),
                query,
            );
        }
    }
    let all = elements_biosamples(None, &[("method", "MPRA")], false);
    check_paging("/genomic-elements/biosamples?method=MPRA", &all, 50);
    assert_bad_request(
        "/genomic-elements/biosamples?verbose=true",
        &[(
            "at least one of region, region_type, files_fileset, method, source must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/genomic-elements/biosamples?method=MPRA&limit=51",
        &[(
            "limit must be an integer from 1 to 50, got \"51\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/genomic-elements/biosamples?method=MPRA&biosample=x",
        &[("unknown parameter `biosample`", &["biosample"])],
    );
    assert_bad_request(
        "/genomic-elements/biosamples?region_type=enhancer",
        &[("region_type must be one of 'accessible dna elements', 'candidate cis regulatory element', 'tested elements', got 'enhancer'", &["region_type"])],
    );
    assert_bad_request(
        "/genomic-elements/biosamples?source=encode",
        &[(
            "source must be one of 'ENCODE', 'IGVF', got 'encode'",
            &["source"],
        )],
    );
    assert_bad_request(
        "/genomic-elements/biosamples?method=mpra",
        &[("method must be one of 'MPRA', got 'mpra'", &["method"])],
    );
    assert_bad_request(
        "/genomic-elements/biosamples?region=chr1;10000-30000",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"chr1;10000-30000\"", &["region"])],
    );
}

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

fn pathways(f: &[(&str, &str)]) -> Vec<Value> {
    let base: Vec<&Value> = oracle::sorted_by_key(
        data()
            .docs("pathways")
            .iter()
            .filter(|p| {
                f.iter().all(|(k, v)| match *k {
                    "id" => s(p, "_key") == *v,
                    "is_in_disease" | "is_top_level_pathway" => {
                        p[*k].as_bool().map(|b| b.to_string()).as_deref() == Some(*v)
                    }
                    "disease_ontology_terms" => p[*k]
                        .as_array()
                        .is_some_and(|a| a.iter().any(|x| x == &format!("ontology_terms/{v}"))),
                    "go_biological_process" => s(p, k) == format!("ontology_terms/{v}"),
                    _ => true,
                })
            })
            .collect(),
    );
    let mut rows = base.clone();
    for (k, q) in f {
        if *k == "name" {
            let hits = oracle::name_cascade(base.clone(), "name", q);
            rows.retain(|r| hits.iter().any(|h| h["_key"] == r["_key"]));
        }
        if *k == "name_aliases" {
            // The alias cascade: any alias matching (exact, all tokens, one typo on the first token).
            let alias_hit = |p: &Value, tier: usize| {
                p["name_aliases"].as_array().unwrap().iter().any(|a| {
                    let a = a.as_str().unwrap();
                    let qt = tokens(q);
                    match tier {
                        0 => a == *q,
                        1 => !qt.is_empty() && qt.iter().all(|t| tokens(a).contains(t)),
                        _ => {
                            !qt.is_empty()
                                && tokens(a)
                                    .iter()
                                    .any(|t| oracle::edit_distance(t, &qt[0]) <= 1)
                        }
                    }
                })
            };
            let hits = (0..3)
                .map(|t| {
                    base.iter()
                        .copied()
                        .filter(|p| alias_hit(p, t))
                        .collect::<Vec<_>>()
                })
                .find(|h| !h.is_empty())
                .unwrap_or_default();
            rows.retain(|r| hits.iter().any(|h| h["_key"] == r["_key"]));
        }
    }
    rows.into_iter()
        .map(|p| {
            let mut o = obj(
                p,
                &[
                    ("_id", "_key"),
                    ("name", "name"),
                    ("organism", "organism"),
                    ("source", "source"),
                    ("source_url", "source_url"),
                    ("id_version", "id_version"),
                    ("is_in_disease", "is_in_disease"),
                    ("is_top_level_pathway", "is_top_level_pathway"),
                    ("name_aliases", "name_aliases"),
                    ("disease_ontology_terms", "disease_ontology_terms"),
                    ("go_biological_process", "go_biological_process"),
                    ("class", "class"),
                    ("method", "method"),
                    ("label", "label"),
                    ("files_filesets", "files_filesets"),
                    ("biological_process", "go_biological_process"),
                ],
            );
            if o["name_aliases"].is_null() {
                o["name_aliases"] = json!([]);
            }
            o
        })
        .collect()
}

#[test]
fn test_pathways() {
    for (query, f) in [
        ("", vec![]),
        ("name=Disease", vec![("name", "Disease")]),
        ("name=disease", vec![("name", "disease")]),
        ("name=glycosilation", vec![("name", "glycosilation")]),
        ("name_aliases=TRD", vec![("name_aliases", "TRD")]),
        (
            "name_aliases=receptor%20test",
            vec![("name_aliases", "receptor test")],
        ),
        (
            "name=test&name_aliases=receptor",
            vec![("name", "test"), ("name_aliases", "receptor")],
        ),
        ("id=R-HSA-446203", vec![("id", "R-HSA-446203")]),
        ("is_in_disease=true", vec![("is_in_disease", "true")]),
        (
            "is_top_level_pathway=false&name=immune",
            vec![("is_top_level_pathway", "false"), ("name", "immune")],
        ),
        (
            "disease_ontology_terms=MONDO_9000002",
            vec![("disease_ontology_terms", "MONDO_9000002")],
        ),
        (
            "go_biological_process=GO_9000001",
            vec![("go_biological_process", "GO_9000001")],
        ),
        (
            "biological_process=GO_9000001",
            vec![("go_biological_process", "GO_9000001")],
        ),
    ] {
        let want = pathways(&f);
        assert!(!want.is_empty(), "{query}");
        assert_json_eq(
            &get_json(&format!("/pathways?{query}&limit=500")),
            &Value::Array(want),
            query,
        );
    }
    let all = pathways(&[]);
    check_paging("/pathways", &all, 10);
    assert_eq!(get_json("/pathways?name=zzzzzz"), json!([]));
    // name_aliases: one typo on the first token, and no hit at all.
    for (query, alias, ids) in [
        (
            "name_aliases=hemostasys",
            "hemostasys",
            vec!["R-HSA-109582"],
        ),
        ("name_aliases=TRX", "TRX", vec!["R-HSA-9000002"]),
    ] {
        let want = pathways(&[("name_aliases", alias)]);
        let got_ids: Vec<&str> = want.iter().map(|p| p["_id"].as_str().unwrap()).collect();
        assert_eq!(got_ids, ids, "oracle {query}");
        assert_json_eq(
            &get_json(&format!("/pathways?{query}")),
            &Value::Array(want),
            query,
        );
    }
    assert_eq!(get_json("/pathways?name_aliases=zzzzzz"), json!([]));
    assert_eq!(
        get_json("/pathways?name_aliases=qqq%20receptor"),
        json!([]),
        "every token must match in the token tier, and qqq is no typo of any"
    );
    assert_bad_request(
        "/pathways?is_in_disease=True",
        &[(
            "is_in_disease must be 'true' or 'false', got 'True'",
            &["is_in_disease"],
        )],
    );
    assert_bad_request(
        "/pathways?limit=501",
        &[(
            "limit must be an integer from 1 to 500, got \"501\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/pathways?names=x",
        &[(
            "unknown parameter `names`; did you mean `name`?",
            &["names"],
        )],
    );
}

const MOTIF: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("name", "name"),
    ("tf_name", "tf_name"),
    ("length", "length"),
    ("pwm", "pwm"),
    ("source", "source"),
    ("source_url", "source_url"),
    ("class", "class"),
    ("method", "method"),
    ("files_filesets", "files_filesets"),
];
const COMPLEX: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("name", "name"),
    ("alias", "alias"),
    ("molecules", "molecules"),
    ("evidence_code", "evidence_code"),
    ("experimental_evidence", "experimental_evidence"),
    ("description", "description"),
    ("complex_assembly", "complex_assembly"),
    ("complex_source", "complex_source"),
    ("reactome_xref", "reactome_xref"),
    ("class", "class"),
    ("method", "method"),
    ("label", "label"),
    ("files_filesets", "files_filesets"),
    ("source", "source"),
    ("source_url", "source_url"),
];

fn motifs_proteins(
    tf: Option<&str>,
    source: Option<&str>,
    method: Option<&str>,
    files: Option<&str>,
    verbose: bool,
) -> Vec<Value> {
    let motifs: Vec<String> = data()
        .docs("motifs")
        .iter()
        .filter(|m| {
            tf.is_none_or(|t| s(m, "tf_name") == t) && source.is_none_or(|x| s(m, "source") == x)
        })
        .map(|m| format!("motifs/{}", s(m, "_key")))
        .collect();
    let any_motif_filter = tf.is_some() || source.is_some();
    oracle::sorted_by_key(data().docs("motifs_proteins").iter()
        .filter(|e| !any_motif_filter || motifs.iter().any(|m| m == s(e, "_from")))
        .filter(|e| method.is_none_or(|x| s(e, "method") == x))
        .filter(|e| files.is_none_or(|f| s(e, "files_filesets") == format!("files_filesets/{f}")))
        .collect())
        .into_iter()
        .map(|e| {
            let to = s(e, "_to");
            let (protein, complex) = if to.starts_with("proteins/") {
                (id_or(to, verbose, PROTEIN), Value::Null)
            } else {
                (Value::Null, id_or(to, verbose, COMPLEX))
            };
            json!({"source": e.get("source"), "protein": protein, "complex": complex, "motif": id_or(s(e, "_from"), verbose, MOTIF),
                "name": s(e, "name"), "class": e.get("class"), "method": e.get("method"), "files_filesets": e.get("files_filesets")})
        })
        .collect()
}

#[test]
fn test_motifs_proteins() {
    for verbose in [false, true] {
        for (query, tf, source, method, files) in [
            ("", None, None, None, None),
            ("tf_name=TSTA1", Some("TSTA1"), None, None, None),
            ("tf_name=TSTA1_HUMAN", Some("TSTA1_HUMAN"), None, None, None),
            ("source=HOCOMOCOv11", None, Some("HOCOMOCOv11"), None, None),
            ("method=SEMpl", None, None, Some("SEMpl"), None),
            (
                "files_fileset=IGVFFI9678CVIS&source=HOCOMOCOv11",
                None,
                Some("HOCOMOCOv11"),
                None,
                Some("IGVFFI9678CVIS"),
            ),
        ] {
            let want = motifs_proteins(tf, source, method, files, verbose);
            assert!(!want.is_empty(), "{query}");
            assert_json_eq(
                &get_json(&format!(
                    "/motifs/proteins?{query}&verbose={verbose}&limit=1000"
                )),
                &Value::Array(want),
                query,
            );
        }
    }
    // One list, paged once (IGVF pages proteins and complexes separately: up to 2 × limit).
    let all = motifs_proteins(None, None, None, None, false);
    check_paging("/motifs/proteins", &all, 4);
    let rows = get_json("/motifs/proteins?tf_name=TSTA1&verbose=true");
    assert!(
        rows[1]["complex"].is_string(),
        "a missing complex keeps its id"
    );
    assert_bad_request(
        "/motifs/proteins?source=HOCOMOCO",
        &[(
            "source must be one of 'IGVF', 'HOCOMOCOv11', got 'HOCOMOCO'",
            &["source"],
        )],
    );
    assert_bad_request(
        "/motifs/proteins?limit=1001",
        &[(
            "limit must be an integer from 1 to 1000, got \"1001\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/motifs/proteins?tf_name=TSTA1&motif=x",
        &[("unknown parameter `motif`", &["motif"])],
    );
    assert_bad_request(
        "/motifs/proteins?method=sempl",
        &[(
            "method must be one of 'HOCOMOCO', 'SEMpl', got 'sempl'",
            &["method"],
        )],
    );
}

fn term_full(t: &Value) -> Value {
    let mut o = obj(t, TERM);
    if o["synonyms"].is_null() {
        o["synonyms"] = json!([]);
    }
    if o["description"].is_null() {
        o["description"] = json!("");
    }
    let m: Map<String, Value> = [
        "uri",
        "term_id",
        "name",
        "synonyms",
        "description",
        "source",
        "subontology",
        "source_url",
        "class",
        "method",
        "files_filesets",
    ]
    .iter()
    .map(|k| (k.to_string(), o[*k].clone()))
    .collect();
    Value::Object(m)
}

fn children(id: &str) -> Vec<Value> {
    oracle::sorted_by_key(data().docs("ontology_terms_ontology_terms").iter()
        .filter(|e| s(e, "_to") == format!("ontology_terms/{id}") && s(e, "name") == "subclass")
        .filter(|e| data().handle(s(e, "_from")).is_some()).collect())
        .into_iter()
        .map(|e| json!({"term": term_full(data().handle(s(e, "_from")).unwrap()), "relationship_type": e["name"]}))
        .collect()
}

#[test]
fn test_ontology_children() {
    for id in [
        "VCT_0000002",
        "VCT_0000005",
        "VCT_0000003",
        "VCT_0000300",
        "CVCL_B0T9",
    ] {
        let want = children(id);
        // VCT_0000300 and the cell line CVCL_B0T9 are leaves.
        assert_rows(
            &get_json(&format!("/ontology-terms/{id}/children?limit=500")),
            &Value::Array(want),
            id,
            matches!(id, "VCT_0000300" | "CVCL_B0T9"),
        );
    }
    // VCT_0000005 has its tree child and the diamond's bottom; VCT_0000300's parent is missing.
    assert!(get_json("/ontology-terms/VCT_0000005/children")
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["term"]["term_id"] == "VCT_0000301"));
    let want = children("VCT_0000001");
    assert_eq!(want.len(), 3);
    check_paging(
        "/ontology-terms/VCT_0000003/children",
        &children("VCT_0000003"),
        2,
    );
    assert_eq!(get_json("/ontology-terms/NOPE_1/children"), json!([]));
    // Identifiers are percent-decoded once.
    assert_eq!(
        get_json("/ontology-terms/VCT%5F0000002/children?limit=500"),
        Value::Array(children("VCT_0000002"))
    );
    assert_bad_request(
        "/ontology-terms/UBERON:0001/children",
        &[("ontology_term_id must look like PREFIX_ID (e.g. UBERON_0003663 or CVCL_B0T9), got \"UBERON:0001\"", &["ontology_term_id"])],
    );
    assert_bad_request(
        "/ontology-terms/VCT_0000002/children?limit=501",
        &[(
            "limit must be an integer from 1 to 500, got \"501\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/ontology-terms/VCT_0000002/children?relationship=x",
        &[("unknown parameter `relationship`", &["relationship"])],
    );
}

/// All shortest paths by breadth-first search over the JSONL relations, undirected, through
/// existing terms only; paths ordered by their edge-key sequences.
fn closure(a: &str, b: &str) -> Value {
    let exists = |k: &str| data().get("ontology_terms", k).is_some();
    if !exists(a) || !exists(b) {
        return json!({"vertices": {}, "paths": []});
    }
    let key = |h: &str| h.split_once('/').unwrap().1.to_string();
    let mut adj: HashMap<String, Vec<(String, String, &Value)>> = HashMap::new();
    for e in data().docs("ontology_terms_ontology_terms") {
        let (f, t) = (key(s(e, "_from")), key(s(e, "_to")));
        if !exists(&f) || !exists(&t) {
            continue;
        }
        adj.entry(f.clone())
            .or_default()
            .push((s(e, "_key").to_string(), t.clone(), e));
        if f != t {
            adj.entry(t)
                .or_default()
                .push((s(e, "_key").to_string(), f, e));
        }
    }
    let vertex = |k: &str| {
        let mut v = term_full(data().get("ontology_terms", k).unwrap());
        v.as_object_mut().unwrap().shift_remove("source_url");
        v
    };
    if a == b {
        let mut m = Map::new();
        m.insert(a.to_string(), vertex(a));
        return json!({"vertices": m, "paths": [[]]});
    }
    // Layered search keeping every path that reaches a vertex first at its distance.
    let mut dist: HashMap<String, usize> = HashMap::from([(a.to_string(), 0)]);
    let mut paths_to: HashMap<String, Vec<Steps>> = HashMap::from([(a.to_string(), vec![vec![]])]);
    let mut queue = VecDeque::from([a.to_string()]);
    while let Some(v) = queue.pop_front() {
        for (ek, w, e) in adj.get(&v).cloned().unwrap_or_default() {
            let d = dist[&v] + 1;
            if dist.get(&w).is_none_or(|&x| x == d) {
                if !dist.contains_key(&w) {
                    queue.push_back(w.clone());
                }
                dist.insert(w.clone(), d);
                let ext: Vec<_> = paths_to[&v]
                    .iter()
                    .map(|p| {
                        let mut p = p.clone();
                        p.push((ek.clone(), e, w.clone()));
                        p
                    })
                    .collect();
                paths_to.entry(w.clone()).or_default().extend(ext);
            }
        }
    }
    let mut paths = paths_to.remove(b).unwrap_or_default();
    paths.sort_by(|x, y| x.iter().map(|s| &s.0).cmp(y.iter().map(|s| &s.0)));
    let mut vertices = Map::new();
    for p in &paths {
        for k in std::iter::once(a.to_string()).chain(p.iter().map(|s| s.2.clone())) {
            if !vertices.contains_key(&k) {
                vertices.insert(k.clone(), vertex(&k));
            }
        }
    }
    let paths: Vec<Value> = paths.iter().map(|p| Value::Array(p.iter().map(|(_, e, _)| json!({"from": key(s(e, "_from")), "to": key(s(e, "_to")), "name": e["name"]})).collect())).collect();
    json!({"vertices": vertices, "paths": paths})
}

#[test]
fn test_transitive_closure() {
    for (a, b) in [
        ("VCT_0000301", "VCT_0000002"), // the diamond: two shortest paths
        ("VCT_0000002", "VCT_0000301"), // either direction
        ("VCT_0000310", "VCT_0000001"), // through the cycle and a "derives from"
        ("VCT_0000312", "VCT_0000300"), // around the cycle
        ("VCT_0000250", "VCT_0000003"), // through "part of" shortcuts
        ("CVCL_T001", "VCT_0000010"),
        ("VCT_0000005", "VCT_0000005"), // one empty path
        ("VCT_0000005", "CVCL_B0T9"),   // not connected
        ("VCT_0000005", "NOPE_1"),      // missing term
    ] {
        let got = get(&format!("/ontology-terms/{a}/transitive-closure/{b}"));
        assert_eq!(got.status, 200);
        assert!(got.header("X-Varcat-Capped").is_none());
        assert_json_eq(&got.json(), &closure(a, b), &format!("{a} -> {b}"));
    }
    let diamond = get_json("/ontology-terms/VCT_0000301/transitive-closure/VCT_0000002");
    assert_eq!(diamond["paths"].as_array().unwrap().len(), 2);
    assert_eq!(
        get_json("/ontology-terms/VCT_0000005/transitive-closure/VCT_0000005")["paths"],
        json!([[]])
    );
    // page and limit are accepted and ignored.
    assert_eq!(
        get_json("/ontology-terms/VCT_0000301/transitive-closure/VCT_0000002?page=3&limit=1"),
        diamond
    );
    assert_bad_request(
        "/ontology-terms/VCT_0000301/transitive-closure/VCT%200001",
        &[("ontology_term_id_end must look like PREFIX_ID (e.g. UBERON_0003663 or CVCL_B0T9), got \"VCT 0001\"", &["ontology_term_id_end"])],
    );
    assert_bad_request(
        "/ontology-terms/VCT_0000301/transitive-closure/VCT_0000002?depth=3",
        &[("unknown parameter `depth`", &["depth"])],
    );
    assert_bad_request(
        "/ontology-terms/VCT:0000301/transitive-closure/VCT_0000002",
        &[("ontology_term_id_start must look like PREFIX_ID (e.g. UBERON_0003663 or CVCL_B0T9), got \"VCT:0000301\"", &["ontology_term_id_start"])],
    );
    assert_bad_request(
        "/ontology-terms/%20/transitive-closure/VCT_0000002",
        &[("ontology_term_id_start must look like PREFIX_ID (e.g. UBERON_0003663 or CVCL_B0T9), got \" \"", &["ontology_term_id_start"])],
    );
}
