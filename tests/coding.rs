//! 4.14 /variants/coding-variants, 4.15 /coding-variants/variants, 4.4 /genes/coding-variants/scores.

use serde_json::{json, Map, Value};

use crate::oracle::{self, data, obj, s, VariantQuery, SHORT_VARIANT};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, check_paging, get_json};

const SCORES: &[&str] = &[
    "SIFT_score",
    "SIFT4G_score",
    "Polyphen2_HDIV_score",
    "Polyphen2_HVAR_score",
    "VEST4_score",
    "REVEL_score",
    "MutPred_score",
    "BayesDel_addAF_score",
    "BayesDel_noAF_score",
    "VARITY_R_score",
    "VARITY_ER_score",
    "VARITY_R_LOO_score",
    "VARITY_ER_LOO_score",
    "ESM1b_score",
    "AlphaMissense_score",
    "CADD_raw_score",
];

pub fn coding_row(cv: &Value) -> Value {
    let mut m = Map::new();
    m.insert("_id".into(), cv["_key"].clone());
    m.insert("name".into(), json!(oracle::display_name(s(cv, "name"))));
    for f in [
        "ref",
        "alt",
        "protein_name",
        "protein_id",
        "gene_name",
        "transcript_id",
        "hgvsp",
        "hgvsc",
        "refcodon",
    ] {
        m.insert(f.into(), cv.get(f).cloned().unwrap_or(Value::Null));
    }
    for f in ["aapos", "codonpos"] {
        m.insert(
            f.into(),
            cv.get(f)
                .and_then(Value::as_f64)
                .map_or(Value::Null, |x| json!(x as i64)),
        );
    }
    for f in SCORES.iter().chain(&["source", "source_url"]) {
        m.insert(f.to_string(), cv.get(*f).cloned().unwrap_or(Value::Null));
    }
    Value::Object(m)
}

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

fn coding_filter(cv: &Value, f: &[(&str, &str)]) -> bool {
    f.iter().all(|(k, v)| match *k {
        "coding_variant_name" => oracle::display_name(s(cv, "name")) == oracle::display_name(v),
        "uniprot_name" => s(cv, "protein_name") == *v,
        "amino_acid_position" => cv["aapos"].as_f64() == v.parse::<f64>().ok(),
        "alt_amino_acid" => s(cv, "alt") == *v,
        k => s(cv, k) == *v,
    })
}

fn coding_variants_variants(f: &[(&str, &str)]) -> Vec<Value> {
    let cvs: Vec<String> = data()
        .docs("coding_variants")
        .iter()
        .filter(|c| coding_filter(c, f))
        .map(|c| format!("coding_variants/{}", s(c, "_key")))
        .collect();
    let mut vars: Vec<&Value> = data()
        .docs("variants_coding_variants")
        .iter()
        .filter(|e| cvs.iter().any(|c| c == s(e, "_to")))
        .filter_map(|e| data().handle(s(e, "_from")))
        .collect();
    vars.sort_by(|a, b| s(a, "_key").cmp(s(b, "_key")));
    vars.dedup_by(|a, b| s(a, "_key") == s(b, "_key"));
    vars.into_iter().map(|v| obj(v, SHORT_VARIANT)).collect()
}

#[test]
fn test_coding_variants_variants() {
    for (query, f) in [
        ("gene_name=TSTA1", vec![("gene_name", "TSTA1")]),
        (
            "gene_name=TSTA1&amino_acid_position=1",
            vec![("gene_name", "TSTA1"), ("amino_acid_position", "1")],
        ),
        (
            "protein_id=ENSP90000000001&alt_amino_acid=*",
            vec![("protein_id", "ENSP90000000001"), ("alt_amino_acid", "*")],
        ),
        ("hgvsp=p.M1T", vec![("hgvsp", "p.M1T")]),
        (
            "uniprot_name=TSTB_HUMAN",
            vec![("uniprot_name", "TSTB_HUMAN")],
        ),
        (
            "transcript_id=ENST90000000002",
            vec![("transcript_id", "ENST90000000002")],
        ),
        (
            "coding_variant_name=TSTA1_ENST90000000001_p.M1T_c.2T%3EC",
            vec![("coding_variant_name", "TSTA1_ENST90000000001_p.M1T_c.2T>C")],
        ),
        (
            "coding_variant_name=TSTA1_ENST90000000001_p.M1T_c.2T-C",
            vec![("coding_variant_name", "TSTA1_ENST90000000001_p.M1T_c.2T-C")],
        ),
        ("gene_name=SRY", vec![("gene_name", "SRY")]),
    ] {
        let want = coding_variants_variants(&f);
        // SRY has no coding variant linked to a variant.
        assert_rows(
            &get_json(&format!("/coding-variants/variants?{query}&limit=500")),
            &Value::Array(want),
            query,
            query == "gene_name=SRY",
        );
    }
    // TSTA1's M1T is caused by two variants; each appears once, in key order.
    let got = get_json("/coding-variants/variants?hgvsp=p.M1T");
    assert_eq!(got.as_array().unwrap().len(), 2);
    // TST-B's G2D links a variant the catalog lacks: it is left out.
    assert_eq!(
        get_json("/coding-variants/variants?gene_name=TST-B")
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // A name as IGVF displays it (every `-` shown as `>`, the hyphen of TST-B included) finds
    // the same coding variant as the stored and the display forms.
    let stored = get_json(
        "/coding-variants/variants?coding_variant_name=TST-B_ENST90000000003_p.G2D_c.5G-A",
    );
    assert_eq!(stored.as_array().unwrap().len(), 1);
    for name in [
        "TST-B_ENST90000000003_p.G2D_c.5G%3EA",
        "TST%3EB_ENST90000000003_p.G2D_c.5G%3EA",
    ] {
        assert_eq!(
            get_json(&format!(
                "/coding-variants/variants?coding_variant_name={name}"
            )),
            stored,
            "{name}"
        );
    }
    let want = coding_variants_variants(&[("gene_name", "TSTA1")]);
    check_paging("/coding-variants/variants?gene_name=TSTA1", &want, 3);
}

#[test]
fn test_coding_variants_variants_errors() {
    let rule = "at least one of coding_variant_name, hgvsp, protein_id, uniprot_name, gene_name, transcript_id must be given";
    assert_bad_request(
        "/coding-variants/variants?amino_acid_position=1",
        &[(rule, &[])],
    );
    assert_bad_request(
        "/coding-variants/variants?gene_name=TSTA1&amino_acid_position=one",
        &[(
            "amino_acid_position must be a non-negative integer, got \"one\"",
            &["amino_acid_position"],
        )],
    );
    let aas = "'A', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'K', 'L', 'M', 'N', 'P', 'Q', 'R', 'S', 'T', 'V', 'W', 'Y', '*'";
    assert_bad_request(
        "/coding-variants/variants?gene_name=TSTA1&alt_amino_acid=X",
        &[(
            &format!("alt_amino_acid must be one of {aas}, got 'X'"),
            &["alt_amino_acid"],
        )],
    );
    assert_bad_request(
        "/coding-variants/variants?gene_name=TSTA1&aa_position=1",
        &[("unknown parameter `aa_position`", &["aa_position"])],
    );
    assert_bad_request(
        "/coding-variants/variants?gene_name=TSTA1&limit=501",
        &[(
            "limit must be an integer from 1 to 500, got \"501\"",
            &["limit"],
        )],
    );
}

/// Expected 4.4 rows.
fn scores(genes: Vec<&Value>, method: Option<&str>, files: Option<&str>) -> Vec<Value> {
    let names: Vec<&str> = genes.iter().map(|g| s(g, "name")).collect();
    let mut cvs: Vec<&Value> = data()
        .docs("coding_variants")
        .iter()
        .filter(|c| names.contains(&s(c, "gene_name")))
        .collect();
    let key = |c: &Value| {
        (
            s(c, "protein_id").to_string(),
            c["aapos"].as_f64().unwrap() as i64,
            s(c, "hgvsp").to_string(),
            s(c, "_key").to_string(),
        )
    };
    cvs.sort_by_key(|c| key(c));
    let files = files.map(|f| format!("files_filesets/{f}"));
    let mut out = Vec::new();
    for cv in cvs {
        let handle = format!("coding_variants/{}", s(cv, "_key"));
        let mut sc: Vec<&Value> = data()
            .docs("coding_variants_phenotypes")
            .iter()
            .filter(|e| s(e, "_from") == handle)
            .collect();
        sc.sort_by(|a, b| {
            (s(a, "method"), s(a, "source_url")).cmp(&(s(b, "method"), s(b, "source_url")))
        });
        let sc: Vec<Value> = sc
            .into_iter()
            .filter(|e| method.is_none_or(|m| s(e, "method") == m))
            .filter(|e| files.as_deref().is_none_or(|f| s(e, "files_filesets") == f))
            .map(|e| {
                let score = ["pathogenicity_score", "esm_1v_score", "score", "dualipa_abun_score", "localization_score"]
                    .iter()
                    .find_map(|f| e.get(*f).filter(|v| v.is_number()).cloned())
                    .unwrap_or(Value::Null);
                json!({"method": e["method"], "score": score, "source_url": e["source_url"], "files_filesets": e["files_filesets"]})
            })
            .collect();
        if (method.is_some() || files.is_some()) && sc.is_empty() {
            continue;
        }
        let mut linked: Vec<&str> = data()
            .docs("variants_coding_variants")
            .iter()
            .filter(|e| s(e, "_to") == handle)
            .map(|e| s(e, "_from"))
            .collect();
        linked.sort();
        linked.dedup();
        let variants: Vec<Value> = linked
            .into_iter()
            .map(|h| json!({"variant": data().handle(h).map_or(Value::Null, |v| obj(v, SHORT_VARIANT)), "scores": sc}))
            .collect();
        let mut pc = obj(
            cv,
            &[
                ("protein_id", "protein_id"),
                ("protein_name", "protein_name"),
                ("transcript_id", "transcript_id"),
                ("hgvsp", "hgvsp"),
                ("aapos", "aapos"),
                ("ref", "ref"),
                ("alt", "alt"),
            ],
        );
        pc["aapos"] = json!(cv["aapos"].as_f64().unwrap() as i64);
        out.push(json!({"protein_change": pc, "variants": variants}));
    }
    out
}

#[test]
fn test_gene_coding_scores() {
    let h = "Homo sapiens";
    let tsta1 = || oracle::genes(h, None, None, None, Some("TSTA1"));
    let all = scores(tsta1(), None, None);
    assert_eq!(all.len(), 5);
    check_paging("/genes/coding-variants/scores?gene_name=TSTA1", &all, 2);
    // Ordered by (protein_id, aapos, hgvsp): p.M1? < p.M1T < p.M1V, then aapos 10, then the other protein.
    let got = get_json("/genes/coding-variants/scores?gene_id=ENSG90000000001");
    let order: Vec<&str> = got
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["protein_change"]["hgvsp"].as_str().unwrap())
        .collect();
    assert_eq!(order, vec!["p.M1?", "p.M1T", "p.M1V", "p.W10*", "p.R3W"]);
    // Unscored and unlinked coding variants are listed with empty arrays.
    assert_eq!(got[0]["variants"], json!([]));
    // A score of 0 is a score.
    let m1v = &got[2]["variants"][0]["scores"];
    assert!(m1v
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["method"] == "SGE" && s["score"] == json!(0.0)));
    for (query, method, files) in [
        ("gene_name=TSTA1&method=ESM-1v", Some("ESM-1v"), None),
        ("gene_name=TSTA1&method=DUAL-IPA", Some("DUAL-IPA"), None),
        (
            "gene_name=TSTA1&files_fileset=IGVFFI9000TEST",
            None,
            Some("IGVFFI9000TEST"),
        ),
        (
            "gene_name=TSTA1&method=ESM-1v&files_fileset=IGVFFI9000TEST",
            Some("ESM-1v"),
            Some("IGVFFI9000TEST"),
        ),
        ("gene_name=TSTA1&method=SGE", Some("SGE"), None),
    ] {
        let want = scores(tsta1(), method, files);
        assert!(!want.is_empty(), "{query}");
        assert_json_eq(
            &get_json(&format!("/genes/coding-variants/scores?{query}&limit=500")),
            &Value::Array(want),
            query,
        );
    }
    // Other gene parameters, and a linked variant the catalog lacks (null).
    let tstb = oracle::genes(h, None, None, None, Some("TST-B"));
    let got = get_json("/genes/coding-variants/scores?gene_name=TST-B");
    assert_json_eq(&got, &Value::Array(scores(tstb, None, None)), "TST-B");
    assert_eq!(got[0]["variants"][1]["variant"], Value::Null);
    let by_hgnc = get_json("/genes/coding-variants/scores?hgnc_id=900001&limit=500");
    assert_json_eq(&by_hgnc, &Value::Array(all.clone()), "hgnc");
    assert_json_eq(
        &get_json("/genes/coding-variants/scores?alias=TSTALPHA&limit=500"),
        &Value::Array(all),
        "alias",
    );
    // region selects the genes overlapping it (TSTA1, TSTG and TST-B here).
    let in_region: Vec<&Value> = data()
        .docs("genes")
        .iter()
        .filter(|g| oracle::overlaps(g, ("chr1", 15000, 35000)))
        .collect();
    assert_eq!(in_region.len(), 3);
    let want = scores(in_region, None, None);
    assert_eq!(want.len(), 6);
    assert_json_eq(
        &get_json("/genes/coding-variants/scores?region=chr1:15000-35000&limit=500"),
        &Value::Array(want),
        "region",
    );
    // A gene ending at the region start is not in it.
    assert_eq!(
        get_json("/genes/coding-variants/scores?region=chr1:20000-30000"),
        json!([])
    );
    assert_eq!(
        get_json("/genes/coding-variants/scores?gene_id=ENSG00000000000"),
        json!([])
    );
    assert_eq!(
        get_json(
            "/genes/coding-variants/scores?gene_name=TSTA1&method=VAMP-seq&files_fileset=NOPE"
        ),
        json!([])
    );
}

#[test]
fn test_gene_coding_scores_errors() {
    assert_bad_request(
        "/genes/coding-variants/scores?method=SGE",
        &[(
            "at least one of gene_id, hgnc_id, gene_name, synonym, region must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/genes/coding-variants/scores?gene_name=TSTA1&method=esm",
        &[("method must be one of 'DUAL-IPA', 'ESM-1v', 'MutPred2', 'SGE', 'VAMP-seq', 'Variant painting via fluorescence', got 'esm'", &["method"])],
    );
    assert_bad_request(
        "/genes/coding-variants/scores?gene_name=TSTA1&organism=Mus%20musculus",
        &[(
            "organism must be one of 'Homo sapiens', got 'Mus musculus'",
            &["organism"],
        )],
    );
    assert_bad_request(
        "/genes/coding-variants/scores?gene_name=TSTA1&methods=SGE",
        &[(
            "unknown parameter `methods`; did you mean `method`?",
            &["methods"],
        )],
    );
    assert_bad_request(
        "/genes/coding-variants/scores?gene_name=TSTA1&limit=501",
        &[(
            "limit must be an integer from 1 to 500, got \"501\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/genes/coding-variants/scores?region=chr1:15000",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"chr1:15000\"", &["region"])],
    );
    assert_bad_request(
        "/genes/coding-variants/scores?region=chr1:35000-15000",
        &[(
            "region must have start < end, got \"chr1:35000-15000\"",
            &["region"],
        )],
    );
}
