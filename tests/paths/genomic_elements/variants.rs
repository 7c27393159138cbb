//! `/genomic-elements/variants` and `/genomic-elements/biosamples`: rows by region and element,
//! the biosample-context cascade, filters, paging, errors.

use serde_json::{json, Map, Value};

use crate::oracle::{self, data, id_or, obj, overlaps, s, tokens, SHORT_VARIANT, TERM};
use crate::util::{assert_bad_request, assert_json_eq, check_paging, get_json};

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
