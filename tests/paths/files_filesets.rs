//! `/files-filesets`: look-ups by every filter against the oracle.

use serde_json::Value;

use crate::oracle::{data, obj, s};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, check_paging, get_json, has};

const FILES_FILESET: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("file_set_id", "file_set_id"),
    ("lab", "lab"),
    ("preferred_assay_titles", "preferred_assay_titles"),
    ("assay_term_ids", "assay_term_ids"),
    ("method", "method"),
    ("class", "class"),
    ("software", "software"),
    ("collections", "collections"),
    ("samples", "samples"),
    ("sample_ids", "sample_ids"),
    ("simple_sample_summaries", "simple_sample_summaries"),
    ("donors", "donors"),
    ("source", "source"),
    ("source_url", "source_url"),
    ("download_link", "download_link"),
    ("cell_annotation", "cell_annotation"),
    ("cell_annotation_term", "cell_annotation_term"),
    ("genome_browser_link", "genome_browser_link"),
    ("crispr_modality", "crispr_modality"),
];

/// File sets passing `keep`, in key order.
fn filesets(keep: impl Fn(&Value) -> bool) -> Vec<Value> {
    crate::oracle::sorted_by_key(
        data()
            .docs("files_filesets")
            .iter()
            .filter(|d| keep(d))
            .collect(),
    )
    .into_iter()
    .map(|d| obj(d, FILES_FILESET))
    .collect()
}

fn linked(d: &Value) -> bool {
    d["genome_browser_link"]
        .as_str()
        .is_some_and(|l| !l.is_empty())
}

#[test]
fn test_files_filesets_match_the_oracle() {
    type Keep = Box<dyn Fn(&Value) -> bool>;
    let cases: Vec<(&str, Keep)> = vec![
        (
            "file_fileset_id=ENCFF004PFU",
            Box::new(|d| s(d, "_key") == "ENCFF004PFU"),
        ),
        (
            "fileset_id=ENCSR359DFW",
            Box::new(|d| s(d, "file_set_id") == "ENCSR359DFW"),
        ),
        (
            "lab=jesse-engreitz&donor_id=ENCDO221AAA&has_genome_browser_link=true",
            Box::new(|d| {
                s(d, "lab") == "jesse-engreitz"
                    && has(d, "donors", "donors/ENCDO221AAA")
                    && linked(d)
            }),
        ),
        (
            "sample_term=EFO_0005904&sample_summary=H7",
            Box::new(|d| {
                has(d, "samples", "ontology_terms/EFO_0005904")
                    && has(d, "simple_sample_summaries", "H7")
            }),
        ),
        (
            "cell_annotation_term=CL_0000223",
            Box::new(|d| s(d, "cell_annotation_term") == "ontology_terms/CL_0000223"),
        ),
        (
            "preferred_assay_title=STARR-seq&source=IGVF&class=observed%20data",
            Box::new(|d| {
                has(d, "preferred_assay_titles", "STARR-seq")
                    && s(d, "source") == "IGVF"
                    && s(d, "class") == "observed data"
            }),
        ),
        (
            "method=MPRA&software=MPRAflow%20tsv-to-bed",
            Box::new(|d| s(d, "method") == "MPRA" && has(d, "software", "MPRAflow tsv-to-bed")),
        ),
        (
            "crispr_modality=interference",
            Box::new(|d| s(d, "crispr_modality") == "interference"),
        ),
        ("has_genome_browser_link=false", Box::new(|d| !linked(d))),
        ("", Box::new(|_| true)),
    ];
    for (q, keep) in cases {
        let want: Vec<Value> = filesets(keep);
        let page: Vec<Value> = want.iter().take(25).cloned().collect();
        let url = format!("/files-filesets?{q}");
        assert_json_eq(&get_json(&url), &Value::Array(page), &url);
    }
    let all = filesets(|_| true);
    assert_eq!(all.len(), 2681);
    let with = filesets(linked).len();
    assert_eq!(with, 1543, "hand count of non-empty genome_browser_link");
    check_paging(
        "/files-filesets?source=ENCODE",
        &filesets(|d| s(d, "source") == "ENCODE"),
        500,
    );
    assert_rows(
        &get_json("/files-filesets?fileset_id=nope"),
        &Value::Array(filesets(|d| s(d, "file_set_id") == "nope")),
        "nope",
        true,
    );
    assert_bad_request(
        "/files-filesets?has_genome_browser_link=yes",
        &[(
            "has_genome_browser_link must be 'true' or 'false', got 'yes'",
            &["has_genome_browser_link"],
        )],
    );
    assert_bad_request(
        "/files-filesets?limit=501",
        &[(
            "limit must be an integer from 1 to 500, got \"501\"",
            &["limit"],
        )],
    );
}
