//! `/coding-variants` (node look-ups, errors) and its edges and counts:
//! `/coding-variants/phenotypes`, `/coding-variants/variants`,
//! `/coding-variants/phenotypes-count` (with `/genes/coding-variants/all-scores`) and
//! `/coding-variants/phenotypes/score-summary`.

use serde_json::{json, Value};

use crate::oracle::{self, data, obj, s, SHORT_VARIANT};
use crate::util::{
    assert_bad_request, assert_json_eq, assert_rows, check_paging, coding_row, edges, get_json,
    handles,
};

/// Coding variants passing `keep`, in the collection's record order (protein, position,
/// change, key).
fn coding(keep: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut v: Vec<&Value> = data()
        .docs("coding_variants")
        .iter()
        .filter(|c| keep(c))
        .collect();
    v.sort_by(|a, b| {
        (
            s(a, "protein_id"),
            a["aapos"].as_f64().unwrap_or(-1.0),
            s(a, "hgvsp"),
            s(a, "_key"),
        )
            .partial_cmp(&(
                s(b, "protein_id"),
                b["aapos"].as_f64().unwrap_or(-1.0),
                s(b, "hgvsp"),
                s(b, "_key"),
            ))
            .unwrap()
    });
    v.into_iter().map(coding_row).collect()
}

fn aapos(c: &Value) -> f64 {
    c["aapos"].as_f64().unwrap_or(-1.0)
}

#[test]
fn test_coding_variants_match_the_oracle() {
    let sry = |c: &Value| s(c, "gene_name") == "SRY";
    let want = coding(|c| sry(c) && (135.0..=137.0).contains(&aapos(c)));
    assert_eq!(want.len(), 21, "hand count: SRY positions 135 to 137");
    assert_json_eq(
        &get_json("/coding-variants?gene_name=SRY&amino_acid_position=range:135-137"),
        &Value::Array(want.clone()),
        "range",
    );
    // A single position is a one-position range.
    let at = |p: f64| coding(move |c| sry(c) && aapos(c) == p);
    assert_json_eq(
        &get_json("/coding-variants?gene_name=SRY&amino_acid_position=136"),
        &Value::Array(at(136.0)),
        "position",
    );
    // IGVF's display form of an id (`>` for the stored `-`) and the stored form.
    for q in [
        "/coding-variants?id=SRY_ENST00000383070_p.X205Y_c.615G%3ET",
        "/coding-variants?id=SRY_ENST00000383070_p.X205Y_c.615G-T",
        "/coding-variants?name=SRY_ENST00000383070_p.X205Y_c.615G%3ET",
    ] {
        let got = get_json(q);
        assert_eq!(got.as_array().unwrap().len(), 1, "{q}");
        assert_eq!(got[0]["_id"], "SRY_ENST00000383070_p.X205Y_c.615G-T", "{q}");
        assert_eq!(got[0]["aapos"], 205, "{q}");
    }
    let want = coding(|c| {
        s(c, "protein_id") == "ENSP00000372547" && s(c, "alt") == "Y" && aapos(c) == 205.0
    });
    assert_json_eq(
        &get_json(
            "/coding-variants?protein_id=ENSP00000372547&alt_amino_acid=Y&amino_acid_position=205",
        ),
        &Value::Array(want),
        "protein_id",
    );
    for (q, f, v) in [
        ("hgvsp=p.A135S", "hgvsp", "p.A135S"),
        ("uniprot_name=SRY_HUMAN", "protein_name", "SRY_HUMAN"),
        (
            "transcript_id=ENST00000383070",
            "transcript_id",
            "ENST00000383070",
        ),
        ("gene_name=TSTA1", "gene_name", "TSTA1"),
    ] {
        let want: Vec<Value> = coding(|c| s(c, f) == v).into_iter().take(25).collect();
        assert_json_eq(
            &get_json(&format!("/coding-variants?{q}")),
            &Value::Array(want),
            q,
        );
    }
    assert_rows(
        &get_json("/coding-variants?gene_name=SRY&amino_acid_position=range:1000-2000"),
        &Value::Array(coding(|c| sry(c) && aapos(c) >= 1000.0)),
        "beyond",
        true,
    );
    check_paging("/coding-variants?gene_name=SRY", &coding(sry), 25);
}

#[test]
fn test_coding_variants_errors() {
    let rule = "at least one of id, name, hgvsp, protein_id, uniprot_name, gene_name, transcript_id must be given";
    assert_bad_request("/coding-variants?amino_acid_position=5", &[(rule, &[])]);
    assert_bad_request("/coding-variants?alt_amino_acid=A", &[(rule, &[])]);
    for bad in ["range:5-3", "range:1", "x", "-1", "range:a-b", "1.5"] {
        assert_bad_request(
            &format!("/coding-variants?gene_name=SRY&amino_acid_position={bad}"),
            &[(
                &format!("amino_acid_position must be a non-negative integer or range:<a>-<b> with a <= b, got \"{bad}\""),
                &["amino_acid_position"],
            )],
        );
    }
    assert_bad_request(
        "/coding-variants?gene_name=SRY&limit=26",
        &[(
            "limit must be an integer from 1 to 25, got \"26\"",
            &["limit"],
        )],
    );
}

#[test]
fn test_coding_variant_phenotype_counts_and_scores() {
    // Hand-computed from coding_variants_phenotypes.consistent.jsonl: TSTA1's coding variants
    // carry CVP001-CVP006 and CVP008.
    assert_eq!(
        get_json("/coding-variants/phenotypes-count?gene_id=ENSG90000000001"),
        json!([
            {"method": "DUAL-IPA", "count": 1},
            {"method": "ESM-1v", "count": 3},
            {"method": "MutPred2", "count": 1},
            {"method": "SGE", "count": 1},
            {"method": "VAMP-seq", "count": 1},
        ])
    );
    assert_eq!(
        get_json("/coding-variants/phenotypes-count?gene_id=ENSG90000000001.7&files_fileset=IGVFFI9000TEST"),
        json!([{"method": "ESM-1v", "count": 1}, {"method": "VAMP-seq", "count": 1}])
    );
    assert_rows(
        &get_json("/coding-variants/phenotypes-count?gene_id=ENSG00000000000"),
        &json!([]),
        "unknown gene",
        true,
    );
    assert_bad_request(
        "/coding-variants/phenotypes-count",
        &[("gene_id is required", &["gene_id"])],
    );
    // All scores of a dataset, highest first; SGE's score 0.0 is a score (not a null).
    let all = |q: &str| {
        get_json(&format!(
            "/genes/coding-variants/all-scores?gene_id=ENSG90000000001&{q}"
        ))
    };
    assert_eq!(all("dataset=ESM-1v"), json!([-1.1, -3.2, -7.5]));
    assert_eq!(all("dataset=SGE"), json!([0.0]));
    assert_eq!(all("dataset=MutPred2"), json!([0.71]));
    assert_eq!(all("dataset=DUAL-IPA"), json!([0.3]));
    assert_eq!(all("dataset=VAMP-seq"), json!([0.9]));
    assert_eq!(all("dataset=ESM-1v&page=1&limit=2"), json!([-7.5]));
    assert_eq!(
        get_json("/genes/coding-variants/all-scores?gene_id=ENSG90000000002&dataset=Variant%20painting%20via%20fluorescence"),
        json!([0.5])
    );
    assert_bad_request(
        "/genes/coding-variants/all-scores?gene_id=ENSG90000000001",
        &[("dataset is required", &["dataset"])],
    );
    assert_bad_request(
        "/genes/coding-variants/all-scores?gene_id=ENSG90000000001&dataset=SGE&limit=501",
        &[(
            "limit must be an integer from 1 to 500, got \"501\"",
            &["limit"],
        )],
    );
}

#[test]
fn test_coding_variant_score_summary() {
    let row = |variant: &str, hgvsp: &str, method: &str, score: f64| {
        json!({
            "variant_id": variant,
            "hgvsp": hgvsp,
            "gene_name": "TSTA1",
            "transcript_id": "ENST90000000001",
            "dataType": method,
            "score": score,
            "portalLink": format!("https://example.org/varcat-testdata/{method}"),
        })
    };
    let v = "variants/NC_000001.11:15000:A:G";
    // Hand-computed: the variant links p.M1T (CVP004, CVP005) and p.M1V (CVP001-CVP003);
    // p.W10* (CVP008) is linked to no variant of this one.
    let want = json!([
        row(v, "p.M1T", "VAMP-seq", 0.9),
        row(v, "p.M1T", "ESM-1v", -1.1),
        row(v, "p.M1V", "ESM-1v", -3.2),
        row(v, "p.M1V", "MutPred2", 0.71),
        row(v, "p.M1V", "SGE", 0.0),
    ]);
    for path in [
        "/coding-variants/phenotypes/score-summary",
        "/variants/phenotypes/score-summary",
    ] {
        assert_eq!(
            get_json(&format!("{path}?variant_id=NC_000001.11:15000:A:G")),
            want,
            "{path}"
        );
        assert_bad_request(
            path,
            &[(
                "at least one of variant_id, coding_variant_id must be given",
                &[],
            )],
        );
    }
    assert_eq!(
        get_json("/coding-variants/phenotypes/score-summary?coding_variant_id=TSTA1_ENST90000000001_p.M1T_c.2T%3EC&files_fileset=IGVFFI9000TEST"),
        json!([row(v, "p.M1T", "VAMP-seq", 0.9)])
    );
    // Without variant_id, the first linked variant by handle (p.M1T has :A:G and :A:T).
    assert_eq!(
        get_json("/coding-variants/phenotypes/score-summary?coding_variant_id=TSTA1_ENST90000000001_p.M1T_c.2T-C")[1],
        row(v, "p.M1T", "ESM-1v", -1.1)
    );
    // Both: ANDed.
    assert_rows(
        &get_json("/coding-variants/phenotypes/score-summary?variant_id=NC_000001.11:15000:A:T&coding_variant_id=TSTA1_ENST90000000001_p.M1V_c.1A-G"),
        &json!([]),
        "and",
        true,
    );
    assert_rows(
        &get_json("/coding-variants/phenotypes/score-summary?variant_id=NC_000001.11:1:A:G"),
        &json!([]),
        "unknown",
        true,
    );
}

#[test]
fn test_coding_variants_phenotypes_by_protein_change() {
    let cvs: Vec<&Value> = data()
        .docs("coding_variants")
        .iter()
        .filter(|d| s(d, "gene_name") == "TSTA1" && d["aapos"].as_f64() == Some(1.0))
        .collect();
    let want: Vec<Value> = edges(
        "coding_variants_phenotypes",
        "_from",
        &handles("coding_variants", &cvs),
    )
    .into_iter()
    .filter(|e| s(e, "method") == "ESM-1v")
    .map(|e| json!([e["_from"], e["_to"], e["method"]]))
    .collect();
    let q = "/coding-variants/phenotypes?gene_name=TSTA1&amino_acid_position=1&method=ESM-1v";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            json!([
                format!("coding_variants/{}", s(&r["coding_variant"], "_id")),
                format!("ontology_terms/{}", s(&r["phenotype"], "phenotype_id")),
                r["method"]
            ])
        })
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/coding-variants/phenotypes?gene_name=TSTA1&amino_acid_position=x",
        &[(
            "amino_acid_position must be a non-negative integer, got \"x\"",
            &["amino_acid_position"],
        )],
    );
    // As IGVF, a position narrows but does not select.
    assert_bad_request(
        "/coding-variants/phenotypes?amino_acid_position=1",
        &[(
            "at least one of coding_variant_name, hgvsp, uniprot_name, gene_name, transcript_id, method, files_fileset must be given",
            &[],
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
