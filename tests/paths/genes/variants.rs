//! `/genes/variants`: answer shapes and verbose rows, gene resolution, filters, the
//! biosample-context tiers, errors naming the parameter.

use serde_json::{json, Map, Value};

use crate::oracle::{self, data, id_or, s, tokens, GENE, STUDY};
use crate::util::{assert_bad_request, assert_json_eq, check_paging, get_json, tsta1};

type NumTest = fn(f64) -> bool;

type Tier<'a> = Box<dyn Fn(&Value) -> bool + 'a>;

/// The 4.1 members of every row, in IGVF's output order, whatever the source (docs/DESIGN.md#record-shapes-and-verbose-expansion).
const GV_MEMBERS: [&str; 29] = [
    "gene",
    "sequence_variant",
    "intron_chr",
    "intron_start",
    "intron_end",
    "effect_size",
    "neg_log10_pvalue",
    "neg_log10_pvalue_adj",
    "log2FC",
    "posterior_inclusion_probability",
    "coefficient_stddev",
    "power",
    "significant",
    "standard_error",
    "z_score",
    "credible_set_min_r2",
    "method",
    "crispr_modality",
    "source",
    "source_url",
    "label",
    "p_value",
    "chr",
    "biological_context",
    "biosample_term",
    "study",
    "name",
    "class",
    "files_filesets",
];

fn gv_row(e: &Value, verbose: bool) -> Value {
    let mut m = Map::new();
    for member in GV_MEMBERS {
        let v = match member {
            "gene" => id_or(s(e, "_to"), verbose, GENE),
            "sequence_variant" => match data().handle(s(e, "_from")) {
                Some(v) if verbose => oracle::variant_full(v),
                _ => e["_from"].clone(),
            },
            "study" => match e.get("study").and_then(Value::as_str) {
                Some(h) => id_or(h, verbose, STUDY),
                None => Value::Null,
            },
            "name" => e["inverse_name"].clone(),
            "intron_start" | "intron_end" => e
                .get(member)
                .and_then(|x| {
                    x.as_str()
                        .map(|t| json!(t.parse::<i64>().unwrap()))
                        .or(Some(x.clone()))
                })
                .unwrap_or(Value::Null),
            "source" | "source_url" | "label" | "biological_context" | "biosample_term" => {
                json!(s(e, member))
            }
            _ => e.get(member).cloned().unwrap_or(Value::Null),
        };
        m.insert(member.into(), v);
    }
    Value::Object(m)
}

#[derive(Default, Clone)]
struct GvQuery<'a> {
    genes: Option<Vec<&'static Value>>,
    eq: Vec<(&'a str, &'a str)>,
    thresholds: Vec<(&'a str, NumTest)>,
    context: Option<&'a str>,
}

/// Expected 4.1 rows, with the biological_context cascade on the whole result.
fn genes_variants(q: &GvQuery, verbose: bool) -> Vec<Value> {
    let handles: Option<Vec<String>> = q.genes.as_ref().map(|g| {
        g.iter()
            .map(|x| format!("genes/{}", s(x, "_key")))
            .collect()
    });
    let base: Vec<&Value> = oracle::sorted_by_key(
        data()
            .docs("variants_genes")
            .iter()
            .filter(|e| {
                handles
                    .as_ref()
                    .is_none_or(|h| h.iter().any(|x| x == s(e, "_to")))
            })
            .filter(|e| {
                q.eq.iter().all(|(k, v)| match *k {
                    "name" => s(e, "inverse_name") == *v,
                    "significant" => {
                        e.get("significant")
                            .and_then(Value::as_bool)
                            .map(|b| b.to_string())
                            .as_deref()
                            == Some(*v)
                    }
                    "biosample_term" => s(e, k) == format!("ontology_terms/{v}"),
                    "files_fileset" => s(e, "files_filesets") == format!("files_filesets/{v}"),
                    _ => s(e, k) == *v,
                })
            })
            .filter(|e| {
                q.thresholds
                    .iter()
                    .all(|(k, t)| e.get(*k).and_then(Value::as_f64).is_some_and(t))
            })
            .collect(),
    );
    let rows = match q.context {
        None => base,
        Some(c) => context_cascade(base, c),
    };
    rows.into_iter().map(|e| gv_row(e, verbose)).collect()
}

/// exact → prefix (case-folded) → all tokens → one edit on the first token.
fn context_cascade<'a>(docs: Vec<&'a Value>, q: &str) -> Vec<&'a Value> {
    let ctx = |d: &Value| s(d, "biological_context").to_string();
    let tiers: [Tier; 4] = [
        Box::new(|d| ctx(d) == q),
        Box::new(|d| ctx(d).to_lowercase().starts_with(&q.to_lowercase())),
        Box::new(|d| {
            let t = tokens(&ctx(d));
            let qt = tokens(q);
            !qt.is_empty() && qt.iter().all(|x| t.contains(x))
        }),
        Box::new(|d| {
            let qt = tokens(q);
            !qt.is_empty()
                && tokens(&ctx(d))
                    .iter()
                    .any(|t| oracle::edit_distance(t, &qt[0]) <= 1)
        }),
    ];
    for tier in tiers {
        let hits: Vec<&Value> = docs.iter().copied().filter(|d| tier(d)).collect();
        if !hits.is_empty() {
            return hits;
        }
    }
    Vec::new()
}

#[test]
fn test_genes_variants_shapes_and_verbose() {
    for verbose in [false, true] {
        for (query, q) in [
            (
                "gene_name=TSTA1",
                GvQuery {
                    genes: Some(tsta1()),
                    ..Default::default()
                },
            ),
            (
                "gene_id=ENSG90000000002",
                GvQuery {
                    genes: Some(oracle::genes(
                        "Homo sapiens",
                        Some("ENSG90000000002"),
                        None,
                        None,
                        None,
                    )),
                    ..Default::default()
                },
            ),
            (
                "method=Variant-EFFECTS",
                GvQuery {
                    eq: vec![("method", "Variant-EFFECTS")],
                    ..Default::default()
                },
            ),
            (
                "method=eQTL&source=EBI",
                GvQuery {
                    eq: vec![("method", "eQTL"), ("source", "EBI")],
                    ..Default::default()
                },
            ),
        ] {
            let want = genes_variants(&q, verbose);
            assert!(!want.is_empty(), "{query}");
            let got = get_json(&format!(
                "/genes/variants?{query}&verbose={verbose}&limit=500"
            ));
            assert_json_eq(
                &got,
                &Value::Array(want),
                &format!("{query} verbose={verbose}"),
            );
        }
    }
    // Every row of every source has the 29 members in order; EBI splice QTLs keep their introns.
    let rows_b = get_json("/genes/variants?gene_name=TST-B&verbose=true&limit=500");
    let mut sources = std::collections::BTreeSet::new();
    for method in ["eQTL", "spliceQTL", "Variant-EFFECTS"] {
        for verbose in [false, true] {
            let rows = get_json(&format!(
                "/genes/variants?method={method}&verbose={verbose}&limit=500"
            ));
            for r in rows
                .as_array()
                .unwrap()
                .iter()
                .chain(rows_b.as_array().unwrap())
            {
                let members: Vec<&str> =
                    r.as_object().unwrap().keys().map(|k| k.as_str()).collect();
                assert_eq!(members, GV_MEMBERS, "{r}");
                sources.insert(format!("{}/{}", s(r, "source"), s(r, "label")));
            }
        }
    }
    assert!(sources.len() >= 5, "{sources:?}");
    let splice = get_json("/genes/variants?method=spliceQTL&source=EBI&limit=500");
    let splice = splice.as_array().unwrap();
    assert!(!splice.is_empty());
    for r in splice {
        assert!(
            r["intron_chr"].is_string() && r["intron_start"].is_number(),
            "{r}"
        );
    }
    let ebi = rows_b
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["source"] == "EBI")
        .unwrap();
    assert_eq!(ebi["study"]["name"], "TestStudy_2026");
    let v3 = data().get("variants", "NC_000001.11:25000:C:T").unwrap();
    assert_eq!(
        ebi["sequence_variant"]["annotations"]["gnomad_af_total"],
        v3["annotations"]["af_total"]
    );
    // Dangling variants and genes keep their id string with verbose.
    let fixture = get_json("/genes/variants?method=spliceQTL&source=AFGR&verbose=true&limit=3");
    assert!(fixture[0]["gene"].is_string() && fixture[0]["sequence_variant"].is_string());
}

#[test]
fn test_genes_variants_gene_resolution() {
    let h = "Homo sapiens";
    let by_name = |q: &str| oracle::genes(h, None, None, None, Some(q));
    let cases: Vec<(&str, Vec<&'static Value>, &[&str])> = vec![
        (
            "hgnc_id=HGNC:900001",
            oracle::genes(h, None, Some("HGNC:900001"), None, None),
            &["TSTA1"],
        ),
        (
            "hgnc_id=900001",
            oracle::genes(h, None, Some("900001"), None, None),
            &["TSTA1"],
        ),
        (
            "synonym=TSTALPHA",
            oracle::genes(h, None, None, Some("TSTALPHA"), None),
            &["TSTA1"],
        ),
        (
            "alias=TSTALPHA",
            oracle::genes(h, None, None, Some("TSTALPHA"), None),
            &["TSTA1"],
        ),
        // All tokens, case-folded, in any order.
        ("gene_name=tsta1", by_name("tsta1"), &["TSTA1"]),
        ("gene_name=b%20tst", by_name("b tst"), &["TST-B"]),
        // One typo on the first token.
        ("gene_name=TSTA2", by_name("TSTA2"), &["TSTA1"]),
        (
            "gene_name=TSTB",
            by_name("TSTB"),
            &["TST-B", "TSTC", "TSTD", "TSTE", "TSTF", "TSTG"],
        ),
    ];
    for (query, genes, names) in cases {
        let got_names: Vec<&str> = genes.iter().map(|g| s(g, "name")).collect();
        assert_eq!(got_names, names, "oracle {query}");
        let want = genes_variants(
            &GvQuery {
                genes: Some(genes),
                ..Default::default()
            },
            false,
        );
        assert!(!want.is_empty(), "{query}");
        assert_json_eq(
            &get_json(&format!("/genes/variants?{query}&limit=500")),
            &Value::Array(want),
            query,
        );
    }
    // An exact hit wins over the typo tier: TSTC has no rows, so nothing is found.
    assert_eq!(get_json("/genes/variants?gene_name=TSTC"), json!([]));
    assert_eq!(get_json("/genes/variants?gene_name=QQQQQQ"), json!([]));
    assert_eq!(get_json("/genes/variants?synonym=NOPE"), json!([]));
}

#[test]
fn test_genes_variants_filters() {
    let gt = |x: f64| x > 4.0;
    let lte_half = |x: f64| x <= 0.5;
    let neg = |x: f64| x < 0.0;
    let pip = |x: f64| x >= 0.8;
    for (query, q) in [
        (
            "method=eQTL&neg_log10_pvalue=gt:4",
            GvQuery {
                eq: vec![("method", "eQTL")],
                thresholds: vec![("neg_log10_pvalue", gt)],
                ..Default::default()
            },
        ),
        (
            "gene_name=TSTA1&effect_size=lte:0.5",
            GvQuery {
                genes: Some(tsta1()),
                thresholds: vec![("effect_size", lte_half)],
                ..Default::default()
            },
        ),
        (
            "method=Variant-EFFECTS&log2FC=lt:0",
            GvQuery {
                eq: vec![("method", "Variant-EFFECTS")],
                thresholds: vec![("log2FC", neg)],
                ..Default::default()
            },
        ),
        (
            "method=eQTL&posterior_inclusion_probability=gte:0.8",
            GvQuery {
                eq: vec![("method", "eQTL")],
                thresholds: vec![("posterior_inclusion_probability", pip)],
                ..Default::default()
            },
        ),
        (
            "gene_name=TSTA1&label=spliceQTL",
            GvQuery {
                genes: Some(tsta1()),
                eq: vec![("label", "spliceQTL")],
                ..Default::default()
            },
        ),
        (
            "method=eQTL&name=expression%20modulated%20by&source=AFGR",
            GvQuery {
                eq: vec![
                    ("method", "eQTL"),
                    ("name", "expression modulated by"),
                    ("source", "AFGR"),
                ],
                ..Default::default()
            },
        ),
        (
            "method=Variant-EFFECTS&significant=true",
            GvQuery {
                eq: vec![("method", "Variant-EFFECTS"), ("significant", "true")],
                ..Default::default()
            },
        ),
        (
            "method=Variant-EFFECTS&significant=false",
            GvQuery {
                eq: vec![("method", "Variant-EFFECTS"), ("significant", "false")],
                ..Default::default()
            },
        ),
        (
            "gene_name=TSTA1&biosample_term=EFO_0002784",
            GvQuery {
                genes: Some(tsta1()),
                eq: vec![("biosample_term", "EFO_0002784")],
                ..Default::default()
            },
        ),
        (
            "files_fileset=IGVFFI9000EBI",
            GvQuery {
                eq: vec![("files_fileset", "IGVFFI9000EBI")],
                ..Default::default()
            },
        ),
        (
            "region=chr1:10000-10001&method=spliceQTL",
            GvQuery {
                genes: Some(oracle::sorted_by_key(
                    data()
                        .docs("genes")
                        .iter()
                        .filter(|g| oracle::overlaps(g, ("chr1", 10000, 10001)))
                        .collect(),
                )),
                eq: vec![("method", "spliceQTL")],
                ..Default::default()
            },
        ),
    ] {
        let want = genes_variants(&q, false);
        assert_json_eq(
            &get_json(&format!("/genes/variants?{query}&limit=500")),
            &Value::Array(want),
            query,
        );
    }
    // No hidden caps: an effect size over 8.66 is found (IGVF adds effect_size <= 8.66426).
    let big = get_json("/genes/variants?gene_name=TSTA1&effect_size=lt:-9");
    assert_eq!(big.as_array().unwrap().len(), 1);
    assert_eq!(
        get_json("/genes/variants?gene_id=ENSG00000000000"),
        json!([])
    );
    let all = genes_variants(
        &GvQuery {
            eq: vec![("method", "spliceQTL")],
            ..Default::default()
        },
        false,
    );
    check_paging("/genes/variants?method=spliceQTL", &all, 25);
}

#[test]
fn test_genes_variants_context_tiers() {
    for (method, q, tier_value) in [
        ("eQTL", "K562", "K562"),                               // exact
        ("eQTL", "lympho", "lymphoblastoid cell line"),         // prefix
        ("eQTL", "LYMPHOBLASTOID", "lymphoblastoid cell line"), // prefix is case-folded
        ("eQTL", "cell%20line", "lymphoblastoid cell line"),    // all tokens
        ("eQTL", "B%20naive", "naive B cell"),                  // all tokens, any order
        ("spliceQTL", "hepg3", "HepG2 (hepatoblastoma)"),       // one typo
    ] {
        let text = q.replace("%20", " ");
        let query = GvQuery {
            context: Some(&text),
            eq: vec![("method", method)],
            ..Default::default()
        };
        let want = genes_variants(&query, false);
        assert!(!want.is_empty(), "{q}");
        assert!(
            want.iter().all(|r| r["biological_context"] == tier_value),
            "{q}"
        );
        let got = get_json(&format!(
            "/genes/variants?method={method}&biological_context={q}&limit=500"
        ));
        assert_json_eq(&got, &Value::Array(want.clone()), q);
        // A page past the winning tier's last hit is empty, never the next tier.
        let past = get_json(&format!(
            "/genes/variants?method={method}&biological_context={q}&limit={}&page=1",
            want.len()
        ));
        assert_eq!(past, json!([]), "{q}");
    }
    let sqtl = GvQuery {
        context: Some("hepg3"),
        eq: vec![("method", "spliceQTL")],
        ..Default::default()
    };
    assert_json_eq(
        &get_json("/genes/variants?method=spliceQTL&biological_context=hepg3"),
        &Value::Array(genes_variants(&sqtl, false)),
        "spliceQTL typo",
    );
    assert_eq!(
        get_json("/genes/variants?method=eQTL&biological_context=zzzzzz"),
        json!([])
    );
}

#[test]
fn test_genes_variants_errors() {
    let rule = "at least one of gene_id, hgnc_id, gene_name, synonym, region, method, files_fileset must be given";
    assert_bad_request("/genes/variants?label=eQTL", &[(rule, &[])]);
    assert_bad_request(
        "/genes/variants?method=eQTL&neg_log10_pvalue=gt5",
        &[("neg_log10_pvalue must be gt:<number>, gte:<number>, lt:<number>, lte:<number> or a number, got \"gt5\"", &["neg_log10_pvalue"])],
    );
    assert_bad_request(
        "/genes/variants?method=eQTL&effect_size=gte:abc",
        &[("effect_size must be gt:<number>, gte:<number>, lt:<number>, lte:<number> or a number, got \"gte:abc\"", &["effect_size"])],
    );
    // An invalid value still counts as given: the rule is not reported on top of it.
    assert_bad_request(
        "/genes/variants?method=eqtl",
        &[("method must be one of 'CRISPR screen', 'Variant-EFFECTS', 'eQTL', 'spliceQTL', got 'eqtl'", &["method"])],
    );
    assert_bad_request(
        "/genes/variants?method=eQTL&significant=yes",
        &[(
            "significant must be 'true' or 'false', got 'yes'",
            &["significant"],
        )],
    );
    assert_bad_request(
        "/genes/variants?method=eQTL&log10pvalue=gt:2",
        &[(
            "unknown parameter `log10pvalue`; did you mean `neg_log10_pvalue`?",
            &["log10pvalue"],
        )],
    );
    assert_bad_request(
        "/genes/variants?method=eQTL&limit=501",
        &[(
            "limit must be an integer from 1 to 500, got \"501\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/genes/variants?region=chr1:1-2-3",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"chr1:1-2-3\"", &["region"])],
    );
    assert_bad_request(
        "/genes/variants?region=chr1:20-10",
        &[(
            "region must have start < end, got \"chr1:20-10\"",
            &["region"],
        )],
    );
}
