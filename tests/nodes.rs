//! The IGVF client paths' node look-ups (/genes, /variants, /proteins, /transcripts, /ontology-terms,
//! /drugs, /complexes, /studies, /genomic-elements, /motifs): answers against the oracle,
//! errors, paging.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::oracle::{self, data, name_cascade, obj, overlaps, s, sorted_by_key, GENE, PROTEIN};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, check_paging, get_json};

const TRANSCRIPT: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("transcript_type", "transcript_type"),
    ("chr", "chr"),
    ("start", "start"),
    ("end", "end"),
    ("strand", "strand"),
    ("name", "name"),
    ("gene_name", "gene_name"),
    ("refseq_transcript_ids", "refseq_transcript_ids"),
    ("MANE_Select", "MANE_Select"),
    ("source", "source"),
    ("version", "version"),
    ("source_url", "source_url"),
];

const TERM: &[(&str, &str)] = &[
    ("uri", "uri"),
    ("term_id", "term_id"),
    ("name", "name"),
    ("synonyms", "synonyms"),
    ("description", "description"),
    ("source", "source"),
    ("subontology", "subontology"),
    ("source_url", "source_url"),
    ("class", "class"),
    ("method", "method"),
    ("files_filesets", "files_filesets"),
];

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

/// The documents of `coll` passing `keep`, in key order, in `shape`.
fn rows(coll: &str, keep: impl Fn(&Value) -> bool, shape: &[(&str, &str)]) -> Vec<Value> {
    sorted_by_key(data().docs(coll).iter().filter(|d| keep(d)).collect())
        .into_iter()
        .map(|d| obj(d, shape))
        .collect()
}

fn has(d: &Value, field: &str, v: &str) -> bool {
    d[field]
        .as_array()
        .is_some_and(|a| a.iter().any(|x| x == v))
}

/// The first page (25 rows) of `want`.
fn check(q: &str, want: Vec<Value>) {
    let page: Vec<Value> = want.into_iter().take(25).collect();
    assert_json_eq(&get_json(q), &Value::Array(page), q);
}

#[test]
fn test_genes_filters_match_the_oracle() {
    let h = "Homo sapiens";
    let gene = |g: &&Value| obj(g, GENE);
    for (q, want) in [
        (
            "/genes?name=TSTA1",
            oracle::genes(h, None, None, None, Some("TSTA1")),
        ),
        (
            "/genes?name=tsta1",
            oracle::genes(h, None, None, None, Some("tsta1")),
        ),
        (
            "/genes?gene_id=ENSG00000101349.17",
            oracle::genes(h, Some("ENSG00000101349"), None, None, None),
        ),
        (
            "/genes?hgnc_id=15916",
            oracle::genes(h, None, Some("15916"), None, None),
        ),
        (
            "/genes?synonym=TSTALPHA",
            oracle::genes(h, None, None, Some("TSTALPHA"), None),
        ),
    ] {
        check(q, want.iter().map(gene).collect());
    }
    let in_region = |g: &Value| overlaps(g, ("chr1", 1, 30000));
    check("/genes?region=chr1:1-30000", rows("genes", in_region, GENE));
    check(
        "/genes?region=chr1:1-30000&gene_type=protein_coding",
        rows(
            "genes",
            |g| in_region(g) && s(g, "gene_type") == "protein_coding",
            GENE,
        ),
    );
    // The name cascade runs over the other filters' rows.
    let docs: Vec<&Value> = data()
        .docs("genes")
        .iter()
        .filter(|g| in_region(g))
        .collect();
    check(
        "/genes?region=chr1:1-30000&name=TSTB",
        sorted_by_key(name_cascade(docs, "name", "TSTB"))
            .iter()
            .map(gene)
            .collect(),
    );
    let m = "Mus musculus";
    check(
        "/genes?organism=Mus%20musculus&name=Xkr4",
        oracle::genes(m, None, None, None, Some("Xkr4"))
            .iter()
            .map(gene)
            .collect(),
    );
    check(
        "/genes?organism=Mus%20musculus&entrez=497097",
        rows("mm_genes", |g| s(g, "entrez") == "ENTREZ:497097", GENE),
    );
    let lnc = rows("genes", |g| s(g, "gene_type") == "lncRNA", GENE);
    check_paging("/genes?gene_type=lncRNA", &lnc, 3);
    // Every gene when nothing is given (IGVF pages through all genes).
    let all = rows("genes", |_| true, GENE);
    check("/genes", all.iter().take(25).cloned().collect());
    assert_rows(
        &get_json("/genes?collection=ACMG73"),
        &Value::Array(rows("genes", |g| has(g, "collections", "ACMG73"), GENE)),
        "collection",
        true,
    );
}

#[test]
fn test_genes_errors() {
    let r = crate::util::get("/genes?gene_type=protein");
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(
        r.json()["issues"][0]["path"],
        serde_json::json!(["gene_type"])
    );
    let r = crate::util::get("/genes?limit=501");
    assert_eq!(r.status, 400, "{}", r.text());
    let r = crate::util::get("/genes?gene_name=TSTA1");
    assert_eq!(r.status, 400, "unknown parameter: {}", r.text());
}

#[test]
fn test_variants_match_the_oracle() {
    let full = |v: &&Value| oracle::variant_full(v);
    let q = oracle::VariantQuery {
        rsid: Some("rs900001"),
        ..Default::default()
    };
    check(
        "/variants?rsid=rs900001",
        oracle::variants("variants", q).iter().map(full).collect(),
    );
    // The region is not capped at 10 kb here (IGVF does not cap /variants).
    let q = oracle::VariantQuery {
        region: Some(("chr20", 9_000_000, 10_000_000)),
        ..Default::default()
    };
    let all: Vec<Value> = oracle::variants("variants", q).iter().map(full).collect();
    check_paging("/variants?region=chr20:9000000-10000000", &all, 2);
    let q = oracle::VariantQuery {
        region: Some(("chr1", 3_000_000, 4_000_000)),
        ..Default::default()
    };
    check(
        "/variants?organism=Mus%20musculus&region=chr1:3000000-4000000&mouse_strain=A_J",
        oracle::variants("mm_variants", q)
            .into_iter()
            .filter(|v| has(v, "strain", "A_J"))
            .map(oracle::variant_full)
            .collect(),
    );
    assert_bad_request(
        "/variants?organism=Mus%20musculus&region=chr1:3000000-4000000&GENCODE_category=coding",
        &[(
            "GENCODE_category applies to Homo sapiens only",
            &["GENCODE_category"],
        )],
    );
    assert_bad_request(
        "/variants?region=chr1:1-100000&mouse_strain=A_J",
        &[(
            "mouse_strain applies to Mus musculus only",
            &["mouse_strain"],
        )],
    );
    let r = crate::util::get("/variants?GENCODE_category=coding");
    assert_eq!(
        r.status,
        400,
        "an identifier or a region is required: {}",
        r.text()
    );
}

#[test]
fn test_proteins_match_the_oracle() {
    for (q, f) in [
        (
            "protein_id=ENSP00000322957",
            vec![("protein_id", "ENSP00000322957")],
        ),
        ("name=PAK5", vec![("name", "PAK5")]),
        (
            "uniprot_name=PAK5_HUMAN",
            vec![("uniprot_name", "PAK5_HUMAN")],
        ),
        ("dbxrefs=HGNC:15916", vec![("dbxrefs", "HGNC:15916")]),
    ] {
        let f: BTreeMap<&str, &str> = f.into_iter().collect();
        let want = sorted_by_key(oracle::proteins("Homo sapiens", &f));
        check(
            &format!("/proteins?{q}"),
            want.iter().map(|p| obj(p, PROTEIN)).collect(),
        );
    }
    let mouse = sorted_by_key(oracle::proteins("Mus musculus", &BTreeMap::new()));
    check(
        "/proteins?organism=Mus%20musculus",
        mouse.iter().map(|p| obj(p, PROTEIN)).collect(),
    );
    let r = crate::util::get("/proteins?limit=51");
    assert_eq!(r.status, 400, "{}", r.text());
}

#[test]
fn test_transcripts_match_the_oracle() {
    check(
        "/transcripts?transcript_id=ENST00000353224.10",
        rows(
            "transcripts",
            |t| s(t, "_key") == "ENST00000353224",
            TRANSCRIPT,
        ),
    );
    let region = |t: &Value| overlaps(t, ("chr20", 9537369, 9600000));
    let all = rows(
        "transcripts",
        |t| region(t) && s(t, "transcript_type") == "protein_coding",
        TRANSCRIPT,
    );
    check_paging(
        "/transcripts?region=chr20:9537369-9600000&transcript_type=protein_coding",
        &all,
        1,
    );
    check(
        "/transcripts?organism=Mus%20musculus&region=chr1:3000000-4000000",
        rows(
            "mm_transcripts",
            |t| overlaps(t, ("chr1", 3000000, 4000000)),
            TRANSCRIPT,
        ),
    );
    assert_rows(
        &get_json("/transcripts?refseq_transcript_id=NM_000546"),
        &Value::Array(Vec::new()),
        "no refseq ids in the sample",
        true,
    );
}

#[test]
fn test_ontology_terms_match_the_oracle() {
    check(
        "/ontology-terms?term_id=VCT_0000001",
        rows("ontology_terms", |t| s(t, "_key") == "VCT_0000001", TERM),
    );
    let terms: Vec<&Value> = data().docs("ontology_terms").iter().collect();
    for q in ["T cell", "test term 1", "tst term"] {
        let want = sorted_by_key(name_cascade(terms.clone(), "name", q));
        check(
            &format!("/ontology-terms?name={}", q.replace(' ', "%20")),
            want.iter().map(|t| obj(t, TERM)).collect(),
        );
    }
    let cello = rows("ontology_terms", |t| s(t, "source") == "Cellosaurus", TERM);
    check_paging("/ontology-terms?source=Cellosaurus", &cello, 7);
    assert_bad_request(
        "/ontology-terms?subontology=cells",
        &[(
            "subontology must be one of 'biological_process', 'cellular_component', 'molecular_function', got 'cells'",
            &["subontology"],
        )],
    );
}

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
