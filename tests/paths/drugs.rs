//! `/drugs`, `/complexes` and `/studies` node look-ups against the oracle.

use serde_json::Value;

use crate::oracle::{self, data, name_cascade, obj, s, sorted_by_key};
use crate::util::{assert_bad_request, check, rows};

const DRUG: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("name", "name"),
    ("drug_ontology_terms", "drug_ontology_terms"),
    ("source", "source"),
    ("source_url", "source_url"),
    ("class", "class"),
    ("method", "method"),
    ("files_filesets", "files_filesets"),
];

const STUDY_MEMBERS: &[&str] = &[
    "name",
    "ancestry_initial",
    "ancestry_replication",
    "n_cases",
    "n_initial",
    "n_replication",
    "pmid",
    "pub_author",
    "pub_date",
    "pub_journal",
    "pub_title",
    "has_sumstats",
    "num_assoc_loci",
    "study_source",
    "trait_reported",
    "trait_efos",
    "trait_category",
    "source",
    "study_type",
    "version",
    "files_filesets",
];

#[test]
fn test_drugs_complexes_studies_match_the_oracle() {
    check(
        "/drugs?name=aspirin",
        rows("drugs", |d| s(d, "name") == "aspirin", DRUG),
    );
    let drugs: Vec<&Value> = data().docs("drugs").iter().collect();
    check(
        "/drugs?name=aspirn",
        sorted_by_key(name_cascade(drugs, "name", "aspirn"))
            .iter()
            .map(|d| obj(d, DRUG))
            .collect(),
    );
    assert_bad_request(
        "/drugs",
        &[("at least one of drug_id, name must be given", &[])],
    );
    let complexes: Vec<&Value> = data().docs("complexes").iter().collect();
    let complex: Vec<(&str, &str)> = [
        "name",
        "alias",
        "molecules",
        "evidence_code",
        "experimental_evidence",
        "description",
        "complex_assembly",
        "complex_source",
        "reactome_xref",
        "class",
        "method",
        "label",
        "files_filesets",
        "source",
        "source_url",
    ]
    .iter()
    .map(|m| (*m, *m))
    .collect();
    let complex: Vec<(&str, &str)> = std::iter::once(("_id", "_key")).chain(complex).collect();
    check(
        "/complexes?name=complex",
        sorted_by_key(name_cascade(complexes.clone(), "name", "complex"))
            .iter()
            .map(|c| obj(c, &complex))
            .collect(),
    );
    let words = oracle::tokens("transcription factor");
    check(
        "/complexes?description=transcription%20factor",
        sorted_by_key(
            complexes
                .into_iter()
                .filter(|c| {
                    let t = oracle::tokens(s(c, "description"));
                    words.iter().all(|w| t.contains(w))
                })
                .collect(),
        )
        .iter()
        .map(|c| obj(c, &complex))
        .collect(),
    );
    let study: Vec<(&str, &str)> = std::iter::once(("_id", "_key"))
        .chain(STUDY_MEMBERS.iter().map(|m| (*m, *m)))
        .collect();
    for q in ["pmid=PMID:29379200", "pmid=29379200"] {
        check(
            &format!("/studies?{q}"),
            rows("studies", |d| s(d, "pmid") == "29379200", &study),
        );
    }
    check(
        "/studies?study_id=GCST900001",
        rows("studies", |d| s(d, "_key") == "GCST900001", &study),
    );
}
