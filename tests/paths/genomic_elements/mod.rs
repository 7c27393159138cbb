//! `/genomic-elements` (node look-ups, with `/motifs`), `/genomic-elements/phenotypes` and
//! `/genomic-elements/genomic-elements` (element pairs). The variants and biosamples of an element
//! are in `variants.rs`.

mod variants;

use serde_json::{json, Value};

use crate::oracle::{data, obj, overlaps, s, GENE};
use crate::util::{
    assert_bad_request, assert_json_eq, check, check_paging, docs, edges, get, get_json, handles,
    rows,
};

/// The `phenotype` handles of an answer's rows.
fn phenotype_handles(q: &str) -> Vec<Value> {
    get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["phenotype"].clone())
        .collect()
}

#[test]
fn test_genomic_elements_phenotypes_by_region_and_term() {
    let region = ("chr1", 24000, 26000);
    let els: Vec<&Value> = data()
        .docs("genomic_elements")
        .iter()
        .filter(|d| overlaps(d, region))
        .collect();
    let want: Vec<Value> = edges(
        "genomic_elements_phenotypes",
        "_from",
        &handles("genomic_elements", &els),
    )
    .into_iter()
    .map(|e| e["_to"].clone())
    .collect();
    let q = "/genomic-elements/phenotypes?region=chr1:24000-26000";
    assert_json_eq(&json!(phenotype_handles(q)), &json!(want), q);
    let want: Vec<Value> = edges(
        "genomic_elements_phenotypes",
        "_to",
        &["ontology_terms/EFO_9000002".to_string()],
    )
    .into_iter()
    .filter(|e| e["significant"] == json!(true))
    .map(|e| e["_to"].clone())
    .collect();
    let q = "/genomic-elements/phenotypes?phenotype_id=EFO_9000002&significant=true";
    assert_json_eq(&json!(phenotype_handles(q)), &json!(want), q);
    assert_bad_request(
        "/genomic-elements/phenotypes?significant=true",
        &[(
            "at least one of region, files_fileset, phenotype_id, phenotype_name must be given",
            &[],
        )],
    );
}

const PAIR_ELEMENT: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("name", "name"),
    ("chr", "chr"),
    ("start", "start"),
    ("end", "end"),
    ("type", "type"),
    ("source_annotation", "source_annotation"),
];

/// An end of an element pair: the handle, or verbose the element with its promoter gene.
fn pair_end(handle: &str, verbose: bool) -> Value {
    match data().handle(handle) {
        Some(el) if verbose => {
            let mut o = obj(el, PAIR_ELEMENT);
            let promoter = match data().handle(s(el, "promoter_of")) {
                Some(g) => obj(g, GENE),
                None => el["promoter_of"].clone(),
            };
            o.as_object_mut()
                .unwrap()
                .insert("promoter_of".into(), promoter);
            o
        }
        _ => json!(handle),
    }
}

fn element_pairs(keep: impl Fn(&Value) -> bool, verbose: bool) -> Vec<Value> {
    docs("genomic_elements_genomic_elements", keep)
        .into_iter()
        .map(|e| {
            let mut row = json!({
                "perturbed_genomic_element": pair_end(s(e, "_from"), verbose),
                "accessible_genomic_element": pair_end(s(e, "_to"), verbose),
            });
            let rest = obj(
                e,
                &[
                    ("name", "name"),
                    ("inverse_name", "inverse_name"),
                    ("label", "label"),
                    ("class", "class"),
                    ("method", "method"),
                    ("source", "source"),
                    ("source_url", "source_url"),
                    ("files_filesets", "files_filesets"),
                    ("biological_context", "biological_context"),
                    ("biosample_term", "biosample_term"),
                    ("treatments_term_ids", "treatments_term_ids"),
                    ("crispr_modality", "crispr_modality"),
                    ("log2FC", "log2FC"),
                    ("p_value", "p_value"),
                    ("p_value_adj", "p_value_adj"),
                    ("neg_log10_pvalue", "neg_log10_pvalue"),
                    ("neg_log10_pvalue_adj", "neg_log10_pvalue_adj"),
                    ("significant", "significant"),
                ],
            );
            row.as_object_mut()
                .unwrap()
                .extend(rest.as_object().unwrap().clone());
            row
        })
        .collect()
}

#[test]
fn test_element_pairs_match_the_oracle() {
    let from_promoter =
        |e: &Value| s(e, "_from") == "genomic_elements/TSTPROMOTER_chr1_14950_15050";
    let want = element_pairs(from_promoter, false);
    assert_eq!(want.len(), 3, "hand count: TSTA1's promoter to three peaks");
    assert_json_eq(
        &get_json("/genomic-elements/genomic-elements?promoter_gene_name=TSTA1"),
        &Value::Array(want),
        "promoter gene",
    );
    // Verbose: both ends expanded, the promoter's gene too; the missing peak stays a handle.
    let verbose = element_pairs(from_promoter, true);
    assert!(verbose[2]["accessible_genomic_element"].is_string());
    assert_eq!(
        verbose[0]["perturbed_genomic_element"]["promoter_of"]["name"],
        "TSTA1"
    );
    assert_json_eq(
        &get_json(
            "/genomic-elements/genomic-elements?promoter_gene_id=ENSG90000000001&verbose=true",
        ),
        &Value::Array(verbose),
        "verbose",
    );
    assert_json_eq(
        &get_json("/genomic-elements/genomic-elements?accessible_region=chr1:50000-50400&method=Multiome%20Perturb-seq"),
        &Value::Array(element_pairs(
            |e| s(e, "_to") == "genomic_elements/TSTPEAK_chr1_50000_50400",
            false,
        )),
        "accessible region",
    );
    assert_json_eq(
        &get_json("/genomic-elements/genomic-elements?files_fileset=IGVFFI9000MPS&significant=true&log2FC=lt:0&limit=1&page=1"),
        &Value::Array(element_pairs(
            |e| e["significant"] == true && e["log2FC"].as_f64().unwrap() < 0.0,
            false,
        )[1..]
            .to_vec()),
        "thresholds, second page",
    );
    // The perturbed side only matches promoters: a region holding only the peak finds nothing.
    assert_eq!(
        get_json("/genomic-elements/genomic-elements?perturbed_region=chr1:50000-50400"),
        json!([])
    );
    assert_bad_request(
        "/genomic-elements/genomic-elements?significant=true",
        &[(
            "at least one of perturbed_region, accessible_region, promoter_gene_id, promoter_gene_name, files_fileset, method must be given",
            &[],
        )],
    );
    let r = get("/genomic-elements/genomic-elements?method=Perturb-seq");
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["issues"][0]["path"], json!(["method"]));
}

const ELEMENT: &[(&str, &str)] = &[
    ("chr", "chr"),
    ("start", "start"),
    ("end", "end"),
    ("strand", "strand"),
    ("name", "name"),
    ("method", "method"),
    ("source_annotation", "source_annotation"),
    ("type", "type"),
    ("source", "source"),
    ("source_url", "source_url"),
];

const MOTIF: &[(&str, &str)] = &[
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

#[test]
fn test_genomic_elements_and_motifs_match_the_oracle() {
    let region = |e: &Value| overlaps(e, ("chr20", 9500000, 9600000));
    let all = rows("genomic_elements", region, ELEMENT);
    check_paging("/genomic-elements?region=chr20:9500000-9600000", &all, 4);
    let pls = rows(
        "genomic_elements",
        |e| s(e, "source_annotation") == "PLS: Promoter-like signal",
        ELEMENT,
    );
    check_paging(
        "/genomic-elements?source_annotation=PLS:%20Promoter-like%20signal",
        &pls,
        10,
    );
    check(
        "/genomic-elements?region=chr20:9500000-9600000&type=candidate%20cis%20regulatory%20element",
        rows(
            "genomic_elements",
            |e| region(e) && s(e, "type") == "candidate cis regulatory element",
            ELEMENT,
        ),
    );
    check(
        "/genomic-elements?method=MPRA&files_fileset=ENCFF802FUV",
        rows(
            "genomic_elements",
            |e| s(e, "method") == "MPRA" && s(e, "files_filesets") == "files_filesets/ENCFF802FUV",
            ELEMENT,
        ),
    );
    let r = crate::util::get("/genomic-elements");
    assert_eq!(r.status, 400, "a selector is required: {}", r.text());
    check(
        "/motifs?tf_name=tsta1",
        rows("motifs", |m| s(m, "tf_name") == "TSTA1", MOTIF),
    );
    check(
        "/motifs?method=SEMpl",
        rows("motifs", |m| s(m, "method") == "SEMpl", MOTIF),
    );
}
