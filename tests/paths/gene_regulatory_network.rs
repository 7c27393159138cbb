//! `/gene-regulatory-network`: rows computed here from `testdata/catalog/`.

use serde_json::{json, Value};

use crate::oracle::{data, s};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, docs, get, get_json};

/// The handle of the gene named `name`.
fn gene(name: &str) -> String {
    let g = docs("genes", |g| s(g, "name") == name);
    format!("genes/{}", s(g[0], "_key"))
}

/// The `/gene-regulatory-network` rows of the edges from promoters of `regulator` and to
/// `response` (either may be absent), CRISPR screen and Perturb-seq only.
fn grn(regulator: Option<&str>, response: Option<&str>) -> Vec<Value> {
    let (reg, resp) = (regulator.map(gene), response.map(gene));
    let mut rows = Vec::new();
    for e in docs("genomic_elements_genes", |e| {
        ["CRISPR screen", "Perturb-seq"].contains(&s(e, "method"))
    }) {
        let Some(el) = data().handle(s(e, "_from")) else {
            continue;
        };
        let promoter = s(el, "promoter_of");
        let (Some(rg), Some(to)) = (data().handle(promoter), data().handle(s(e, "_to"))) else {
            continue;
        };
        if reg.as_deref().is_some_and(|r| r != promoter)
            || resp.as_deref().is_some_and(|r| r != s(e, "_to"))
        {
            continue;
        }
        let eff = docs("genomic_elements_genes", |x| {
            s(x, "_from") == s(e, "_from")
                && s(x, "_to") == promoter
                && x["files_filesets"] == e["files_filesets"]
        });
        let eff = |m: &str| eff.first().map_or(Value::Null, |x| x[m].clone());
        rows.push(json!({
            "response_gene": to["name"],
            "genomic_element": {"chr": el["chr"], "start": el["start"], "end": el["end"],
                                "regulator_gene": rg["name"]},
            "crispr_modality": e["crispr_modality"],
            "class": e["class"],
            "method": e["method"],
            "source": e["source"],
            "biological_context": e["biological_context"],
            "files_filesets": e["files_filesets"],
            "log2FC": e["log2FC"],
            "neg_log10_pvalue": e["neg_log10_pvalue"],
            "neg_log10_pvalue_adj": e["neg_log10_pvalue_adj"],
            "significant": e["significant"],
            "perturbation_efficiency_log2FC": eff("log2FC"),
            "perturbation_efficiency_neg_log10_pvalue": eff("neg_log10_pvalue"),
            "perturbation_efficiency_neg_log10_pvalue_adj": eff("neg_log10_pvalue_adj"),
            "perturbation_efficiency_significant": eff("significant"),
        }));
    }
    rows
}

#[test]
fn test_gene_regulatory_network_matches_the_oracle() {
    let by_regulator = grn(Some("TSTA1"), None);
    assert_eq!(
        by_regulator.len(),
        2,
        "hand count: TSTA1's promoter → TST-B, and → TSTA1 itself (the efficiency edge)"
    );
    assert_eq!(by_regulator[0]["response_gene"], "TST-B");
    assert_eq!(by_regulator[0]["perturbation_efficiency_log2FC"], -2.1);
    assert_json_eq(
        &get_json("/gene-regulatory-network?regulator_gene_name=TSTA1"),
        &Value::Array(by_regulator.clone()),
        "regulator",
    );
    assert_json_eq(
        &get_json("/gene-regulatory-network?regulator_hgnc_id=HGNC:900001&limit=1&page=1"),
        &Value::Array(by_regulator[1..].to_vec()),
        "regulator by HGNC id, second page",
    );
    let both = grn(Some("TSTA1"), Some("TST-B"));
    assert_eq!(both.len(), 1);
    assert_json_eq(
        &get_json(
            "/gene-regulatory-network?regulator_gene_name=TSTA1&response_gene_name=TST-B&method=Perturb-seq&significant=true",
        ),
        &Value::Array(both.clone()),
        "pair",
    );
    assert_json_eq(
        &get_json("/gene-regulatory-network?response_gene_id=ENSG90000000002.1"),
        &Value::Array(grn(None, Some("TST-B"))),
        "response",
    );
    // TSTC's only element edge is a CRISPR screen from an element that is no promoter: no
    // regulator, no row (IGVF answers 500 here).
    assert_rows(
        &get_json("/gene-regulatory-network?response_gene_name=TSTC"),
        &Value::Array(grn(None, Some("TSTC"))),
        "no regulator",
        true,
    );
    for q in [
        "/gene-regulatory-network?regulator_gene_name=TSTA1&method=CRISPR%20screen",
        "/gene-regulatory-network?regulator_gene_name=TSTA1&crispr_modality=knockout",
        "/gene-regulatory-network?regulator_gene_name=TSTA1&neg_log10_pvalue_adj=gt:10",
        "/gene-regulatory-network?regulator_gene_name=TSTA1&files_fileset=IGVFFI9000E2G",
    ] {
        assert_eq!(get_json(q), json!([]), "{q}");
    }
    assert_bad_request(
        "/gene-regulatory-network?method=Perturb-seq",
        &[(
            "at least one of regulator_gene_id, regulator_hgnc_id, regulator_gene_name, regulator_synonym, response_gene_id, response_hgnc_id, response_gene_name, response_synonym must be given",
            &[],
        )],
    );
    for (q, param) in [
        ("regulator_gene_name=TSTA1&significant=false", "significant"),
        ("regulator_gene_name=TSTA1&method=scE2G", "method"),
        ("regulator_gene_name=TSTA1&limit=501", "limit"),
        (
            "regulator_gene_name=TSTA1&organism=Mus%20musculus",
            "organism",
        ),
    ] {
        let r = get(&format!("/gene-regulatory-network?{q}"));
        assert_eq!(r.status, 400, "{q}: {}", r.text());
        assert_eq!(r.json()["issues"][0]["path"], json!([param]), "{q}");
    }
}
