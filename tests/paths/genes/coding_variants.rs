//! `/genes/coding-variants/scores`: scores of a gene's coding variants by method and file set,
//! errors.

use serde_json::{json, Value};

use crate::oracle::{self, data, obj, s, SHORT_VARIANT};
use crate::util::{assert_bad_request, assert_json_eq, check_paging, get_json};

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
