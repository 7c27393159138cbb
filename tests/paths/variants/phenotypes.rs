//! `/variants/phenotypes`, `/variants/drugs` and `/variants/diseases`: rows, verbose
//! expansion, filters, paging, errors.

use serde_json::{json, Map, Value};

use crate::oracle::{self, data, id_or, s, VariantQuery, DRUG, SHORT_VARIANT, STUDY, TERM};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, check_paging, get_json, q};

fn phenotype_row(e: &Value, verbose: bool) -> Value {
    let variant = id_or(s(e, "_from"), verbose, SHORT_VARIANT);
    let term = data()
        .handle(s(e, "_to"))
        .map_or(Value::Null, |t| t["name"].clone());
    let g = |k: &str| e.get(k).cloned().unwrap_or(Value::Null);
    let mut m = Map::new();
    if s(e, "source") == "OpenTargets" {
        m.insert("phenotype_id".into(), g("_to"));
        m.insert("phenotype_term".into(), g("phenotype_term"));
        m.insert(
            "study".into(),
            e.get("study")
                .and_then(Value::as_str)
                .map_or(Value::Null, |h| id_or(h, verbose, STUDY)),
        );
        for k in [
            "neg_log10_pvalue",
            "p_value",
            "beta",
            "beta_ci_lower",
            "beta_ci_upper",
            "oddsr_ci_lower",
            "oddsr_ci_upper",
            "lead_chrom",
            "lead_pos",
            "lead_ref",
            "lead_alt",
            "direction",
        ] {
            m.insert(k.into(), g(k));
        }
        m.insert("source".into(), json!(s(e, "source")));
        for k in ["source_url", "class", "method", "label", "version"] {
            m.insert(k.into(), g(k));
        }
        m.insert("name".into(), json!(s(e, "name")));
        m.insert("variant".into(), variant);
        m.insert("files_filesets".into(), g("files_filesets"));
        m.insert(
            "rsid".into(),
            data()
                .handle(s(e, "_from"))
                .map_or(Value::Null, |v| v["rsid"].clone()),
        );
    } else {
        m.insert("name".into(), json!(s(e, "name")));
        m.insert("biological_context".into(), g("biological_context"));
        m.insert("source".into(), json!(s(e, "source")));
        m.insert("source_url".into(), json!(s(e, "source_url")));
        let extra: &[&str] = if s(e, "method") == "CRISPR screen" {
            &[
                "effect_size",
                "z_score",
                "significant",
                "num_guides",
                "edit_rate_mean",
                "effect_size_ci95_lower",
                "effect_size_ci95_upper",
                "crispr_modality",
            ]
        } else {
            &["score"]
        };
        for k in extra {
            m.insert(k.to_string(), g(k));
        }
        for k in [
            "method",
            "class",
            "label",
            "files_filesets",
            "biosample_term",
        ] {
            m.insert(k.into(), g(k));
        }
        m.insert("phenotype_term".into(), term);
        m.insert("variant".into(), variant);
        m.insert("phenotype_id".into(), g("_to"));
    }
    Value::Object(m)
}

fn phenotypes(
    vq: Option<VariantQuery>,
    f: &[(&str, &str)],
    min_p: Option<f64>,
    verbose: bool,
) -> Vec<Value> {
    let edges: Vec<&Value> = match vq {
        Some(vq) => oracle::edges_from("variants_phenotypes", &oracle::variants("variants", vq)),
        None => oracle::sorted_by_key(data().docs("variants_phenotypes").iter().collect()),
    };
    edges
        .into_iter()
        .filter(|e| {
            f.iter().all(|(k, v)| match *k {
                "files_fileset" => s(e, "files_filesets") == format!("files_filesets/{v}"),
                "phenotype_id" => s(e, "_to") == format!("ontology_terms/{v}"),
                _ => s(e, k) == *v,
            })
        })
        .filter(|e| {
            min_p.is_none_or(|m| {
                e.get("neg_log10_pvalue")
                    .and_then(Value::as_f64)
                    .is_some_and(|x| x >= m)
            })
        })
        .map(|e| phenotype_row(e, verbose))
        .collect()
}

#[test]
fn test_variants_phenotypes() {
    for verbose in [false, true] {
        for (query, vq, f, min_p) in [
            (
                "rsid=rs900001",
                Some(VariantQuery {
                    rsid: Some("rs900001"),
                    ..q()
                }),
                vec![],
                None,
            ),
            (
                "rsid=rs900002",
                Some(VariantQuery {
                    rsid: Some("rs900002"),
                    ..q()
                }),
                vec![],
                None,
            ),
            (
                "region=chr1:0-30000",
                Some(VariantQuery {
                    region: Some(("chr1", 0, 30000)),
                    ..q()
                }),
                vec![],
                None,
            ),
            ("method=GWAS", None, vec![("method", "GWAS")], None),
            (
                "method=SGE&label=protein%20variant%20effect",
                None,
                vec![("method", "SGE"), ("label", "protein variant effect")],
                None,
            ),
            (
                "class=prediction&files_fileset=IGVFFI9000CV2",
                None,
                vec![("class", "prediction"), ("files_fileset", "IGVFFI9000CV2")],
                None,
            ),
            (
                "method=GWAS&phenotype_id=EFO_0000001",
                None,
                vec![("method", "GWAS"), ("phenotype_id", "EFO_0000001")],
                None,
            ),
            (
                "region=chr1:0-30000&neg_log10_pvalue=gte:8",
                Some(VariantQuery {
                    region: Some(("chr1", 0, 30000)),
                    ..q()
                }),
                vec![],
                Some(8.0),
            ),
        ] {
            let want = phenotypes(vq, &f, min_p, verbose);
            assert!(!want.is_empty(), "{query}");
            assert_json_eq(
                &get_json(&format!(
                    "/variants/phenotypes?{query}&verbose={verbose}&limit=100"
                )),
                &Value::Array(want),
                query,
            );
        }
    }
    // The p-value filter leaves out the rows that have none (screens, predictions).
    let rows =
        get_json("/variants/phenotypes?region=chr1:0-30000&neg_log10_pvalue=gte:0&limit=100");
    assert!(rows
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r.get("study").is_some()));
    // GWAS rows of a variant missing from the catalog keep its id even with verbose.
    let gwas = get_json(
        "/variants/phenotypes?method=GWAS&phenotype_id=EFO_0000001&verbose=true&limit=100",
    );
    assert!(gwas
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["variant"] == "variants/NC_000001.11:99999:A:C"));
    let all = phenotypes(None, &[("method", "GWAS")], None, false);
    check_paging("/variants/phenotypes?method=GWAS", &all, 10);
    let rule = "at least one of variant_id, spdi, hgvs, rsid, ca_id, region, method, files_fileset must be given";
    assert_bad_request(
        "/variants/phenotypes?phenotype_id=EFO_0000001",
        &[(rule, &[])],
    );
    assert_bad_request(
        "/variants/phenotypes?method=GWAS&class=observed",
        &[(
            "class must be one of 'observed data', 'prediction', got 'observed'",
            &["class"],
        )],
    );
    assert_bad_request(
        "/variants/phenotypes?method=GWAS&limit=101",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/variants/phenotypes?method=GWAS&neg_log10_pvalue=gt5",
        &[("neg_log10_pvalue must be gt:<number>, gte:<number>, lt:<number>, lte:<number> or a number, got \"gt5\"", &["neg_log10_pvalue"])],
    );
    assert_bad_request(
        "/variants/phenotypes?method=GWAS&neg_log10_pvalue=above:5",
        &[("neg_log10_pvalue must be gt:<number>, gte:<number>, lt:<number>, lte:<number> or a number, got \"above:5\"", &["neg_log10_pvalue"])],
    );
    assert_bad_request(
        "/variants/phenotypes?method=GWAS&neg_log10_pvalue=gt:inf",
        &[("neg_log10_pvalue must be gt:<number>, gte:<number>, lt:<number>, lte:<number> or a number, got \"gt:inf\"", &["neg_log10_pvalue"])],
    );
    assert_bad_request(
        "/variants/phenotypes?method=gwas",
        &[(
            "method must be one of 'CRISPR screen', 'GWAS', 'SGE', 'cV2F', got 'gwas'",
            &["method"],
        )],
    );
    assert_bad_request(
        "/variants/phenotypes?method=GWAS&label=gwas",
        &[("label must be one of 'GWAS', 'predicted variant effect on phenotype', 'protein variant effect', 'variant effect on phenotype', got 'gwas'", &["label"])],
    );
    assert_bad_request(
        "/variants/phenotypes?region=chr1:100-",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"chr1:100-\"", &["region"])],
    );
    assert_bad_request(
        "/variants/phenotypes?method=GWAS&phenotype=EFO_0000001",
        &[(
            "unknown parameter `phenotype`; did you mean `phenotype_id`?",
            &["phenotype"],
        )],
    );
}

fn drugs(vq: VariantQuery, f: &[(&str, &str)], verbose: bool) -> Vec<Value> {
    oracle::edges_from("variants_drugs", &oracle::variants("variants", vq))
        .into_iter()
        .filter(|e| {
            f.iter().all(|(k, v)| match *k {
                "phenotype_categories" => e[*k].as_array().unwrap().iter().any(|x| x == v),
                _ => s(e, k) == *v,
            })
        })
        .map(|e| {
            let mut m = Map::new();
            m.insert("_from".into(), e["_from"].clone());
            m.insert("drug".into(), id_or(s(e, "_to"), verbose, DRUG));
            for k in [
                "gene_symbol",
                "pmid",
                "study_parameters",
                "phenotype_categories",
                "source",
                "source_url",
                "name",
                "class",
                "method",
                "files_filesets",
            ] {
                m.insert(k.into(), e.get(k).cloned().unwrap_or(Value::Null));
            }
            Value::Object(m)
        })
        .collect()
}

#[test]
fn test_variants_drugs() {
    for verbose in [false, true] {
        for (query, vq, f) in [
            (
                "rsid=rs900001",
                VariantQuery {
                    rsid: Some("rs900001"),
                    ..q()
                },
                vec![],
            ),
            (
                "region=chr1:15000-16000",
                VariantQuery {
                    region: Some(("chr1", 15000, 16000)),
                    ..q()
                },
                vec![],
            ),
            (
                "region=chr1:15000-16000&phenotype_categories=Dosage",
                VariantQuery {
                    region: Some(("chr1", 15000, 16000)),
                    ..q()
                },
                vec![("phenotype_categories", "Dosage")],
            ),
            (
                "rsid=rs900001&pmid=900013&phenotype_categories=Metabolism/PK",
                VariantQuery {
                    rsid: Some("rs900001"),
                    ..q()
                },
                vec![
                    ("pmid", "900013"),
                    ("phenotype_categories", "Metabolism/PK"),
                ],
            ),
            (
                "spdi=NC_000019.10:40843868:A:G",
                VariantQuery {
                    spdi: Some("NC_000019.10:40843868:A:G"),
                    ..q()
                },
                vec![],
            ),
        ] {
            let want = drugs(vq, &f, verbose);
            // A fixture variant with no drug association.
            assert_rows(
                &get_json(&format!("/variants/drugs?{query}&verbose={verbose}")),
                &Value::Array(want),
                query,
                query == "spdi=NC_000019.10:40843868:A:G",
            );
        }
    }
    let rows = get_json("/variants/drugs?rsid=rs900002&verbose=true");
    // A missing drug keeps its id; `_from` is never expanded.
    assert_eq!(rows[0]["drug"], "drugs/PA999999");
    assert_eq!(rows[0]["_from"], "variants/NC_000001.11:15000:A:T");
    assert_bad_request(
        "/variants/drugs?pmid=1",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id, region must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/variants/drugs?region=chr1:0-10001",
        &[(
            "region spans 10001 bases; at most 10000 are allowed, got \"chr1:0-10001\"",
            &["region"],
        )],
    );
    assert_bad_request(
        "/variants/drugs?rsid=rs1&phenotype_categories=dosage",
        &[("phenotype_categories must be one of 'Dosage', 'Efficacy', 'Metabolism/PK', 'Other', 'PD', 'Toxicity', got 'dosage'", &["phenotype_categories"])],
    );
    assert_bad_request(
        "/variants/drugs?rsid=rs1&limit=101",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/variants/drugs?region=chr1:0:100",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"chr1:0:100\"", &["region"])],
    );
    assert_bad_request(
        "/variants/drugs?rsid=rs1&drug=x",
        &[("unknown parameter `drug`", &["drug"])],
    );
}

fn diseases(vq: VariantQuery, chr: Option<&str>, f: &[(&str, &str)], verbose: bool) -> Vec<Value> {
    let vars: Vec<&Value> = oracle::variants("variants", vq)
        .into_iter()
        .filter(|v| chr.is_none_or(|c| s(v, "chr") == c))
        .collect();
    oracle::edges_from("variants_diseases", &vars)
        .into_iter()
        .filter(|e| {
            f.iter().all(|(k, v)| match *k {
                "pmid" => e["pmids"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|x| x == &format!("http://pubmed.ncbi.nlm.nih.gov/{v}")),
                _ => s(e, k) == *v,
            })
        })
        .map(|e| {
            let mut m = Map::new();
            m.insert(
                "sequence_variant".into(),
                id_or(s(e, "_from"), verbose, SHORT_VARIANT),
            );
            m.insert("disease".into(), id_or(s(e, "_to"), verbose, TERM));
            m.insert("gene_id".into(), e["gene_id"].clone());
            m.insert(
                "gene_name".into(),
                data()
                    .handle(s(e, "gene_id"))
                    .map_or(Value::Null, |g| g["name"].clone()),
            );
            for k in [
                "assertion",
                "pmids",
                "class",
                "method",
                "label",
                "files_filesets",
                "source",
                "source_url",
                "name",
            ] {
                m.insert(k.into(), e.get(k).cloned().unwrap_or(Value::Null));
            }
            Value::Object(m)
        })
        .collect()
}

#[test]
fn test_variants_diseases() {
    let region = VariantQuery {
        region: Some(("chr1", 15000, 25000)),
        ..q()
    };
    let region_b = VariantQuery {
        region: Some(("chr1", 20000, 30000)),
        ..q()
    };
    for verbose in [false, true] {
        for (query, vq, chr, f) in [
            (
                "rsid=rs900001",
                VariantQuery {
                    rsid: Some("rs900001"),
                    ..q()
                },
                None,
                vec![],
            ),
            ("region=chr1:15000-25000", region, None, vec![]),
            (
                "region=chr1:20000-30000&assertion=Benign",
                region_b,
                None,
                vec![("assertion", "Benign")],
            ),
            (
                "region=chr1:15000-25000&pmid=900022",
                region,
                None,
                vec![("pmid", "900022")],
            ),
            (
                "rsid=rs900006&chr=chr2",
                VariantQuery {
                    rsid: Some("rs900006"),
                    ..q()
                },
                Some("chr2"),
                vec![],
            ),
            (
                "rsid=rs900006&chr=chr1",
                VariantQuery {
                    rsid: Some("rs900006"),
                    ..q()
                },
                Some("chr1"),
                vec![],
            ),
        ] {
            let want = diseases(vq, chr, &f, verbose);
            // rs900006 is on chr2: the chr1 filter leaves nothing.
            assert_rows(
                &get_json(&format!("/variants/diseases?{query}&verbose={verbose}")),
                &Value::Array(want),
                query,
                query == "rsid=rs900006&chr=chr1",
            );
        }
    }
    let rows = get_json("/variants/diseases?rsid=rs900001");
    assert_eq!(rows[0]["gene_name"], "TSTA1");
    // The verbose variant is the short form, `_id` included (docs/igvf-differences.md).
    let verbose = get_json("/variants/diseases?rsid=rs900001&verbose=true");
    let v = &verbose[0]["sequence_variant"];
    assert_eq!(
        v["_id"],
        s(&rows[0], "sequence_variant").trim_start_matches("variants/")
    );
    assert_eq!(v["spdi"].as_str().map(|x| x.starts_with("NC_")), Some(true));
    assert_eq!(
        get_json("/variants/diseases?rsid=rs900004")[0]["gene_name"],
        Value::Null
    );
    let url =
        get_json("/variants/diseases?rsid=rs900001&pmid=http://pubmed.ncbi.nlm.nih.gov/900021");
    assert_eq!(url.as_array().unwrap().len(), 1);
    assert_bad_request(
        "/variants/diseases?rsid=rs1&assertion=benign",
        &[("assertion must be one of 'Benign', 'Likely Benign', 'Likely Pathogenic', 'Pathogenic', 'Uncertain Significance', got 'benign'", &["assertion"])],
    );
    assert_bad_request(
        "/variants/diseases?chr=chr1",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id, region must be given",
            &[],
        )],
    );
    // 10 000 bases are allowed, 10 001 are not.
    get_json("/variants/diseases?region=chr1:0-10000");
    get_json("/variants/diseases?region=chr1:20000-30000");
    assert_bad_request(
        "/variants/diseases?region=chr1:0-10001",
        &[(
            "region spans 10001 bases; at most 10000 are allowed, got \"chr1:0-10001\"",
            &["region"],
        )],
    );
    assert_bad_request(
        "/variants/diseases?region=chr1:10000-0",
        &[(
            "region must have start < end, got \"chr1:10000-0\"",
            &["region"],
        )],
    );
    assert_bad_request(
        "/variants/diseases?region=chr1",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"chr1\"", &["region"])],
    );
    assert_bad_request(
        "/variants/diseases?rsid=rs1&disease=x",
        &[("unknown parameter `disease`", &["disease"])],
    );
}
