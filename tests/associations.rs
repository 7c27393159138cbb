//! 4.1 /genes/variants, 4.19 /variants/genes/summary, 4.17 /genes-proteins/variants,
//! 4.12 /variants/variant-ld/summary.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::oracle::{self, data, id_or, obj, s, tokens, VariantQuery, GENE, STUDY};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, check_paging, get, get_json};

type NumTest = fn(f64) -> bool;
type Tier<'a> = Box<dyn Fn(&Value) -> bool + 'a>;
type Counts = BTreeMap<Option<String>, u64>;

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

fn tsta1() -> Vec<&'static Value> {
    oracle::genes("Homo sapiens", None, None, None, Some("TSTA1"))
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

fn qtl_summary(vars: &[&Value], files: Option<&str>) -> Vec<Value> {
    oracle::edges_from("variants_genes", vars)
        .into_iter()
        .filter(|e| files.is_none_or(|f| s(e, "files_filesets") == format!("files_filesets/{f}")))
        .map(|e| {
            let chr = e.get("chr").and_then(Value::as_str).map(str::to_string)
                .unwrap_or_else(|| s(data().handle(s(e, "_from")).unwrap(), "chr").to_string());
            let gene = data().handle(s(e, "_to")).map_or(Value::Null, |g| json!({
                "gene_name": g["name"], "gene_id": g["_key"], "gene_start": g["start"], "gene_end": g["end"]}));
            json!({"qtl_type": e["label"], "neg_log10_pvalue": e.get("neg_log10_pvalue"), "chr": chr,
                "biological_context": e.get("biological_context"), "effect_size": e.get("effect_size"), "gene": gene,
                "name": e["name"], "files_filesets": e.get("files_filesets")})
        })
        .collect()
}

#[test]
fn test_variant_genes_summary() {
    let q = VariantQuery::default;
    for (query, vq, files) in [
        (
            "rsid=rs900001",
            VariantQuery {
                rsid: Some("rs900001"),
                ..q()
            },
            None,
        ),
        (
            "variant_id=NC_000001.11:25000:C:T",
            VariantQuery {
                variant_id: Some("NC_000001.11:25000:C:T"),
                ..q()
            },
            None,
        ),
        (
            "rsid=rs900004&files_fileset=IGVFFI9000EBI",
            VariantQuery {
                rsid: Some("rs900004"),
                ..q()
            },
            Some("IGVFFI9000EBI"),
        ),
        (
            "spdi=NC_000010.11:79347444::CCTCCTCAGG",
            VariantQuery {
                spdi: Some("NC_000010.11:79347444::CCTCCTCAGG"),
                ..q()
            },
            None,
        ),
    ] {
        let vars = oracle::variants("variants", vq);
        let want = qtl_summary(&vars, files);
        assert!(!want.is_empty(), "{query}");
        assert_json_eq(
            &get_json(&format!("/variants/genes/summary?{query}")),
            &Value::Array(want),
            query,
        );
    }
    // The EBI row has no chr of its own: it comes from the variant.
    let rows = get_json("/variants/genes/summary?rsid=rs900004");
    assert!(rows.as_array().unwrap().iter().all(|r| r["chr"] == "chr1"));
    // limit and page are honoured (IGVF fixes the page size at 25).
    assert_eq!(
        get_json("/variants/genes/summary?rsid=rs900001&limit=1&page=2")
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let r = get("/variants/genes/summary?rsid=rs1");
    assert_eq!(
        (r.status, r.json()),
        (
            404,
            json!({"message": "variant not found", "code": "NOT_FOUND"})
        )
    );
    assert_eq!(
        get("/variants/genes/summary?rsid=rs900001&organism=Mus%20musculus").status,
        404
    );
    assert_eq!(
        get_json("/variants/genes/summary?rsid=rs580000001&organism=Mus%20musculus"),
        json!([])
    );
    assert_bad_request(
        "/variants/genes/summary",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/variants/genes/summary?region=chr1:1-2",
        &[
            ("unknown parameter `region`", &["region"]),
            (
                "at least one of variant_id, spdi, hgvs, rsid, ca_id must be given",
                &[],
            ),
        ],
    );
}

/// Expected 4.17 rows for `query`.
fn genes_proteins_variants(q: &str) -> Vec<Value> {
    let hgnc = if q.chars().all(|c| c.is_ascii_digit()) {
        format!("HGNC:{q}")
    } else {
        q.to_string()
    };
    let has = |d: &Value, f: &str| d[f].as_array().is_some_and(|a| a.iter().any(|x| x == q));
    let genes: Vec<String> = data()
        .docs("genes")
        .iter()
        .filter(|g| {
            [s(g, "_key"), s(g, "name"), s(g, "gene_id"), s(g, "symbol")].contains(&q)
                || s(g, "hgnc") == hgnc
                || has(g, "synonyms")
        })
        .map(|g| format!("genes/{}", s(g, "_key")))
        .collect();
    let proteins: Vec<String> = data()
        .docs("proteins")
        .iter()
        .filter(|p| {
            [s(p, "_key"), s(p, "protein_id"), s(p, "name")].contains(&q)
                || has(p, "uniprot_ids")
                || has(p, "uniprot_names")
                || has(p, "uniprot_full_names")
        })
        .map(|p| format!("proteins/{}", s(p, "_key")))
        .collect();
    let mut groups: BTreeMap<String, BTreeMap<(bool, String), Vec<&Value>>> = BTreeMap::new();
    for (coll, targets, is_protein) in [
        ("variants_genes", &genes, false),
        ("variants_proteins", &proteins, true),
    ] {
        for e in data().docs(coll) {
            if targets.iter().any(|t| t == s(e, "_to")) {
                groups
                    .entry(s(e, "_from").to_string())
                    .or_default()
                    .entry((is_protein, s(e, "_to").to_string()))
                    .or_default()
                    .push(e);
            }
        }
    }
    let nulls_last = |a: &Value, b: &Value, k: &str| match (a[k].as_str(), b[k].as_str()) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        _ => std::cmp::Ordering::Equal,
    };
    groups.into_iter().filter_map(|(vh, related)| {
        let v = data().handle(&vh)?;
        let sv = obj(v, &[("_id", "_key"), ("chr", "chr"), ("pos", "pos"), ("rsid", "rsid"), ("ref", "ref"), ("alt", "alt"), ("spdi", "spdi"), ("hgvs", "hgvs"), ("ca_id", "ca_id")]);
        let rel: Vec<Value> = related.into_iter().map(|((is_protein, target), edges)| {
            let mut sources: Vec<Value> = edges.iter().map(|e| if is_protein {
                json!({"motif": e.get("motif"), "source": s(e, "source"), "name": s(e, "inverse_name"), "files_filesets": e.get("files_filesets"),
                       "label": e.get("label"), "biological_context": e.get("biological_context"), "neg_log10_pvalue": e.get("neg_log10_pvalue")})
            } else {
                json!({"label": s(e, "label"), "source": s(e, "source"), "neg_log10_pvalue": e.get("neg_log10_pvalue"),
                       "biological_context": s(e, "biological_context"), "name": s(e, "inverse_name"), "files_filesets": e.get("files_filesets")})
            }).collect();
            sources.sort_by(|a, b| nulls_last(a, b, "source").then(nulls_last(a, b, "name")).then(nulls_last(a, b, "biological_context")));
            let target_obj = match data().handle(&target) {
                None => json!(target),
                Some(t) if is_protein => json!({"_id": target, "name": t["name"], "uniprot_names": t["uniprot_names"], "files_filesets": t.get("files_filesets")}),
                Some(t) => json!({"_id": target, "chr": t["chr"], "gene_id": t["gene_id"], "name": t["name"], "organism": t["organism"], "hgnc": t.get("hgnc"), "files_filesets": t.get("files_filesets")}),
            };
            if is_protein { json!({"gene": null, "protein": target_obj, "sources": sources}) } else { json!({"gene": target_obj, "protein": null, "sources": sources}) }
        }).collect();
        Some(json!({"sequence_variant": sv, "related": rel}))
    }).collect()
}

#[test]
fn test_genes_proteins_variants() {
    for q in [
        "TSTA1",
        "ENSP90000000001",
        "Q90001",
        "HGNC:900001",
        "900001",
        "TSTALPHA",
        "ENSG90000000002",
        "ENSG00000108179",
    ] {
        let want = genes_proteins_variants(q);
        let got = get_json(&format!("/genes-proteins/variants?query={q}&limit=100"));
        // A real gene with no variant in the catalog: nothing.
        assert_rows(&got, &Value::Array(want), q, q == "ENSG00000108179");
    }
    let tsta1 = get_json("/genes-proteins/variants?query=TSTA1");
    assert!(
        tsta1[0]["related"].as_array().unwrap().len() == 2,
        "a gene entry then a protein entry"
    );
    let want = genes_proteins_variants("TSTA1");
    check_paging("/genes-proteins/variants?query=TSTA1", &want, 1);
    assert_eq!(
        get_json("/genes-proteins/variants?query=NOTHING"),
        json!([])
    );
    assert_bad_request(
        "/genes-proteins/variants",
        &[("query is required", &["query"])],
    );
    assert_bad_request(
        "/genes-proteins/variants?query=x&limit=101",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/genes-proteins/variants?query=TSTA1&gene=x",
        &[("unknown parameter `gene`", &["gene"])],
    );
}

/// The predictions of a variant handle, recomputed from the edges.
fn ld_predictions(handle: &str) -> Value {
    let mut qtls: BTreeMap<String, (Counts, Counts)> = BTreeMap::new();
    for e in data()
        .docs("variants_genes")
        .iter()
        .filter(|e| s(e, "_from") == handle)
    {
        let q = qtls.entry(s(e, "label").to_string()).or_default();
        *q.0.entry(
            e.get("biological_context")
                .and_then(Value::as_str)
                .map(String::from),
        )
        .or_default() += 1;
        let gene = data().handle(s(e, "_to")).map_or_else(
            || s(e, "_to").split_once('/').unwrap().1.to_string(),
            |g| s(g, "name").to_string(),
        );
        *q.1.entry(Some(gene)).or_default() += 1;
    }
    let mut tf: BTreeMap<String, (u64, Counts)> = BTreeMap::new();
    for e in data().docs("variants_proteins").iter().filter(|e| {
        s(e, "_from") == handle
            && s(e, "label") == "allele-specific binding"
            && s(e, "motif_conc") != "No Hit"
    }) {
        let t = tf.entry(s(e, "motif").to_string()).or_default();
        t.0 += 1;
        *t.1.entry(
            e.get("biological_context")
                .and_then(Value::as_str)
                .map(String::from),
        )
        .or_default() += 1;
    }
    let list = |m: &Counts, k: &str| {
        let mut v: Vec<(&Option<String>, &u64)> = m.iter().collect();
        v.sort_by_key(|(n, _)| (n.is_none(), (*n).clone()));
        v.into_iter()
            .map(|(n, c)| json!({k: n, "count": c}))
            .collect::<Vec<_>>()
    };
    json!({
        "qtls": qtls.iter().map(|(t, (c, g))| json!({"type": t, "cell_types": list(c, "name"), "genes": list(g, "name")})).collect::<Vec<_>>(),
        "tf_binding": tf.iter().map(|(m, (n, c))| json!({"motif": m, "count": n, "cell_types": list(c, "cell_type")})).collect::<Vec<_>>(),
    })
}

fn ld_summary(v: &Value) -> Vec<Value> {
    let h = format!("variants/{}", s(v, "_key"));
    let edges = oracle::sorted_by_key(
        data()
            .docs("variants_variants")
            .iter()
            .filter(|e| s(e, "_from") == h || s(e, "_to") == h)
            .collect(),
    );
    edges.into_iter().map(|e| {
        let partner = if s(e, "_from") == h { s(e, "_to") } else { s(e, "_from") };
        json!({"ancestry": e["ancestry"], "d_prime": e["d_prime"], "r2": e["r2"],
            "sequence variant": id_or(partner, true, oracle::SHORT_VARIANT), "predictions": ld_predictions(partner)})
    }).collect()
}

#[test]
fn test_ld_summary() {
    for (query, key) in [
        ("rsid=rs900001", "NC_000001.11:15000:A:G"),
        ("spdi=NC_000001.11:15000:A:T", "NC_000001.11:15000:A:T"),
        ("ca_id=CA800005", "NC_000002.12:100:G:A"),
    ] {
        let want = ld_summary(data().get("variants", key).unwrap());
        assert!(!want.is_empty());
        assert_json_eq(
            &get_json(&format!("/variants/variant-ld/summary?{query}")),
            &Value::Array(want),
            query,
        );
    }
    // A partner the catalog lacks is its id string; its predictions are empty.
    let rows = get_json("/variants/variant-ld/summary?rsid=rs900001");
    // The partner NC_000001.11:15000:A:T has GVATdb binding, which names no motif: counted
    // under "" with no cell type (docs/igvf-differences.md).
    let partner = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["sequence variant"]["spdi"] == "NC_000001.11:15000:A:T")
        .expect("the partner");
    assert_eq!(
        partner["predictions"]["tf_binding"][0],
        json!({"motif": "", "count": 1, "cell_types": [{"cell_type": null, "count": 1}]})
    );
    assert_eq!(
        rows[2]["sequence variant"],
        "variants/NC_000001.11:99999:A:C"
    );
    assert_eq!(
        rows[2]["predictions"],
        json!({"qtls": [], "tf_binding": []})
    );
    assert_eq!(
        get_json("/variants/variant-ld/summary?rsid=rs900001&limit=1&page=1"),
        json!([rows[1].clone()])
    );
    assert_eq!(get("/variants/variant-ld/summary?rsid=rs42").status, 404);
    assert_eq!(
        get_json("/variants/variant-ld/summary?rsid=rs580000001&organism=Mus%20musculus"),
        json!([])
    );
    assert_bad_request(
        "/variants/variant-ld/summary?limit=101&rsid=rs900001",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/variants/variant-ld/summary",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/variants/variant-ld/summary?rsid=rs900001&region=chr1:1-2",
        &[("unknown parameter `region`", &["region"])],
    );
}
