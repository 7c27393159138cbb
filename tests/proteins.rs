//! 4.23 /proteins/genes and 4.24 /genes/proteins.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::oracle::{self, data, id_or, s, GENE, PROTEIN};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, check_paging, get_json};

fn proteins_genes(org: &str, filters: &[(&str, &str)], verbose: bool) -> Vec<Value> {
    let pairs = oracle::gene_protein_pairs();
    let chosen: Option<Vec<String>> = (!filters.is_empty()).then(|| {
        let f: BTreeMap<&str, &str> = filters.iter().copied().collect();
        oracle::proteins(org, &f)
            .iter()
            .map(|p| format!("proteins/{}", s(p, "_key")))
            .collect()
    });
    pairs
        .iter()
        .filter(|(_, p, o)| match &chosen {
            Some(c) => c.contains(p),
            None => o == org,
        })
        .map(|(g, p, _)| json!({"gene": id_or(g, verbose, GENE), "protein": p}))
        .collect()
}

fn genes_proteins(org: &str, genes: Vec<&Value>, verbose: bool) -> Vec<Value> {
    let gcoll = oracle::coll(org, "genes");
    let handles: Vec<String> = genes
        .iter()
        .map(|g| format!("{gcoll}/{}", s(g, "_key")))
        .collect();
    oracle::gene_protein_pairs()
        .iter()
        .filter(|(g, _, _)| handles.contains(g))
        .map(|(g, p, _)| json!({"gene": g, "protein": id_or(p, verbose, PROTEIN)}))
        .collect()
}

#[test]
fn test_proteins_genes_filters() {
    let h = "Homo sapiens";
    for (q, f) in [
        (
            "protein_id=ENSP00000322957",
            vec![("protein_id", "ENSP00000322957")],
        ),
        (
            "protein_id=ENSP00000322957.5",
            vec![("protein_id", "ENSP00000322957.5")],
        ),
        ("protein_id=P60880-2", vec![("protein_id", "P60880-2")]),
        ("protein_name=SNAP25", vec![("protein_name", "SNAP25")]),
        (
            "uniprot_name=PAK5_HUMAN",
            vec![("uniprot_name", "PAK5_HUMAN")],
        ),
        (
            "uniprot_full_name=Synaptosomal-associated%20protein%2025",
            vec![("uniprot_full_name", "Synaptosomal-associated protein 25")],
        ),
        ("dbxrefs=HGNC:15916", vec![("dbxrefs", "HGNC:15916")]),
        (
            "protein_name=PAK5&uniprot_name=SNP25_HUMAN",
            vec![("protein_name", "PAK5"), ("uniprot_name", "SNP25_HUMAN")],
        ),
    ] {
        let want = proteins_genes(h, &f, false);
        // Two filters no protein satisfies together (ANDed, never one overriding the other).
        assert_rows(
            &get_json(&format!("/proteins/genes?{q}&limit=100")),
            &Value::Array(want),
            q,
            q == "protein_name=PAK5&uniprot_name=SNP25_HUMAN",
        );
    }
    // The matched protein's id is reported, not the input (a UniProt accession here).
    let got = get_json("/proteins/genes?protein_id=Q9P286&limit=100");
    assert!(got.as_array().unwrap().len() >= 3);
    assert!(got
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["protein"].as_str().unwrap().starts_with("proteins/ENSP")));
    assert_eq!(get_json("/proteins/genes?protein_id=NOPE"), json!([]));
}

#[test]
fn test_proteins_genes_verbose_and_paging() {
    let want = proteins_genes("Homo sapiens", &[], true);
    check_paging("/proteins/genes?verbose=true", &want, 10);
    assert!(want[0]["gene"].is_object());
    // Only human pairs without a filter; the dangling protein's pair counts as human (edge organism).
    assert!(want.iter().all(|r| !r["protein"]
        .as_str()
        .unwrap()
        .starts_with("proteins/ENSMUSP")));
}

#[test]
fn test_proteins_genes_mouse_vs_human() {
    let want = proteins_genes("Mus musculus", &[], true);
    assert_eq!(want.len(), 2);
    assert_json_eq(
        &get_json("/proteins/genes?organism=Mus%20musculus&verbose=true"),
        &Value::Array(want),
        "mouse",
    );
    let got = get_json("/proteins/genes?protein_name=Xkr4&organism=Mus%20musculus");
    assert_eq!(
        got,
        json!([{"gene": "mm_genes/ENSMUSG00000051951", "protein": "proteins/ENSMUSP00000070648"}])
    );
    // The organism applies to every filter: a mouse protein is not found as human.
    assert_eq!(get_json("/proteins/genes?protein_name=Xkr4"), json!([]));
    assert_eq!(
        get_json("/proteins/genes?protein_id=ENSP00000322957&organism=Mus%20musculus"),
        json!([])
    );
}

#[test]
fn test_proteins_genes_errors() {
    assert_bad_request(
        "/proteins/genes?protein_id=x&limit=200",
        &[(
            "limit must be an integer from 1 to 100, got \"200\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/proteins/genes?uniprot=PAK5_HUMAN",
        &[(
            "unknown parameter `uniprot`; did you mean `uniprot_name`?",
            &["uniprot"],
        )],
    );
    assert_bad_request(
        "/proteins/genes?organism=Homo%20Sapiens",
        &[(
            "organism must be one of 'Mus musculus', 'Homo sapiens', got 'Homo Sapiens'",
            &["organism"],
        )],
    );
    let long = "x".repeat(varcat::parse::ident::MAX_ID_LEN + 1);
    assert_bad_request(
        &format!("/proteins/genes?protein_id={long}"),
        &[(
            "protein_id must be at most 65536 bytes without control characters",
            &["protein_id"],
        )],
    );
    assert_bad_request(
        "/proteins/genes?protein_name=a%01b",
        &[(
            "protein_name must be at most 65536 bytes without control characters",
            &["protein_name"],
        )],
    );
}

#[test]
fn test_genes_proteins_resolution() {
    let h = "Homo sapiens";
    let cases: Vec<(&str, Vec<&Value>)> = vec![
        (
            "gene_id=ENSG00000101349",
            oracle::genes(h, Some("ENSG00000101349"), None, None, None),
        ),
        (
            "gene_id=ENSG00000101349.17",
            oracle::genes(h, Some("ENSG00000101349.17"), None, None, None),
        ),
        (
            "hgnc_id=HGNC:15916",
            oracle::genes(h, None, Some("HGNC:15916"), None, None),
        ),
        (
            "hgnc_id=15916",
            oracle::genes(h, None, Some("15916"), None, None),
        ),
        (
            "gene_name=SNAP25",
            oracle::genes(h, None, None, None, Some("SNAP25")),
        ),
        (
            "gene_name=MKKS",
            oracle::genes(h, None, None, None, Some("MKKS")),
        ),
        (
            "gene_name=PAK5&hgnc_id=15916",
            oracle::genes(h, None, Some("15916"), None, Some("PAK5")),
        ),
    ];
    for (q, genes) in cases {
        assert!(!genes.is_empty(), "{q}");
        let want = genes_proteins(h, genes, false);
        assert!(!want.is_empty(), "{q}");
        assert_json_eq(
            &get_json(&format!("/genes/proteins?{q}&limit=100")),
            &Value::Array(want),
            q,
        );
    }
    assert_eq!(
        get_json("/genes/proteins?gene_id=ENSG00000101349&hgnc_id=1"),
        json!([])
    );
    // region selects the genes overlapping it, ANDed with the other gene parameters.
    let region_genes: Vec<&Value> = data()
        .docs("genes")
        .iter()
        .filter(|g| oracle::overlaps(g, ("chr20", 9_500_000, 9_700_000)))
        .collect();
    let want = genes_proteins(h, oracle::sorted_by_key(region_genes), false);
    assert!(!want.is_empty());
    assert_json_eq(
        &get_json("/genes/proteins?region=chr20:9500000-9700000&limit=100"),
        &Value::Array(want),
        "region",
    );
    assert_eq!(
        get_json("/genes/proteins?region=chr20:9500000-9700000&gene_name=SNAP25"),
        json!([])
    );
}

#[test]
fn test_genes_proteins_name_tiers() {
    let h = "Homo sapiens";
    // Exact tier.
    let exact = oracle::genes(h, None, None, None, Some("SNAP25"));
    assert_eq!(exact.len(), 1);
    // Token tier: lower case finds SNAP25 (and SNAP25-AS1, which has no protein).
    let tokens = oracle::genes(h, None, None, None, Some("snap25"));
    assert_eq!(tokens.len(), 2);
    assert_json_eq(
        &get_json("/genes/proteins?gene_name=snap25&limit=100"),
        &Value::Array(genes_proteins(h, tokens, false)),
        "tokens",
    );
    // One typo: PAK6 → PAK5.
    let typo = oracle::genes(h, None, None, None, Some("PAK6"));
    assert_eq!(
        typo.iter().map(|g| s(g, "name")).collect::<Vec<_>>(),
        vec!["PAK5"]
    );
    assert_json_eq(
        &get_json("/genes/proteins?gene_name=PAK6&limit=100"),
        &Value::Array(genes_proteins(h, typo, false)),
        "typo",
    );
    // No hit at any tier.
    assert_eq!(get_json("/genes/proteins?gene_name=QWERTYUIOP"), json!([]));
    // An exact hit wins even when other genes would match the later tiers.
    let snap = get_json("/genes/proteins?gene_name=SNAP25&limit=100");
    assert!(snap
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["gene"] == "genes/ENSG00000132639"));
}

#[test]
fn test_genes_proteins_verbose_paging_mouse() {
    let genes = oracle::genes("Homo sapiens", None, None, None, Some("SNAP25"));
    let want = genes_proteins("Homo sapiens", genes, true);
    assert!(want[0]["protein"].is_object());
    check_paging("/genes/proteins?gene_name=SNAP25&verbose=true", &want, 4);
    let mouse = oracle::genes("Mus musculus", None, None, Some("XRG4"), None);
    assert_eq!(mouse.len(), 1);
    let want = genes_proteins("Mus musculus", mouse, true);
    assert_json_eq(
        &get_json("/genes/proteins?alias=XRG4&organism=Mus%20musculus&verbose=true"),
        &Value::Array(want.clone()),
        "mouse alias",
    );
    assert_json_eq(
        &get_json("/genes/proteins?synonym=XRG4&organism=Mus%20musculus&verbose=true"),
        &Value::Array(want),
        "mouse synonym",
    );
    assert_eq!(get_json("/genes/proteins?gene_name=Xkr4"), json!([]));
}

#[test]
fn test_genes_proteins_errors() {
    assert_bad_request(
        "/genes/proteins",
        &[(
            "at least one of gene_id, hgnc_id, gene_name, synonym, region must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/genes/proteins?gene_id=",
        &[(
            "at least one of gene_id, hgnc_id, gene_name, synonym, region must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/genes/proteins?synonym=A&alias=B",
        &[(
            "synonym and alias are the same parameter; give it once",
            &["alias"],
        )],
    );
    assert_bad_request(
        "/genes/proteins?gene_name=PAK5&limit=0&page=x",
        &[
            (
                "limit must be an integer from 1 to 100, got \"0\"",
                &["limit"],
            ),
            ("page must be a non-negative integer, got \"x\"", &["page"]),
        ],
    );
    assert_bad_request(
        "/genes/proteins?genename=PAK5",
        &[
            (
                "unknown parameter `genename`; did you mean `gene_name`?",
                &["genename"],
            ),
            (
                "at least one of gene_id, hgnc_id, gene_name, synonym, region must be given",
                &[],
            ),
        ],
    );
    assert_bad_request(
        "/genes/proteins?gene_name=PAK5&organism=human",
        &[(
            "organism must be one of 'Mus musculus', 'Homo sapiens', got 'human'",
            &["organism"],
        )],
    );
    assert_bad_request(
        "/genes/proteins?region=chr1:10-5",
        &[(
            "region must have start < end, got \"chr1:10-5\"",
            &["region"],
        )],
    );
    assert_bad_request(
        "/genes/proteins?region=1:1-5",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"1:1-5\"", &["region"])],
    );
}

/// Keys of the human proteins `/proteins?uniprot_name=<q>` answers, as IGVF's tiers: a UniProt
/// name equal to `q` upper-cased, else one starting with `q` whatever the case; key order.
fn uniprot_name_tiers(q: &str) -> Vec<String> {
    let human: Vec<&Value> = oracle::sorted_by_key(
        data()
            .docs("proteins")
            .iter()
            .filter(|p| p["organism"] == "Homo sapiens")
            .collect(),
    );
    let names = |p: &Value| -> Vec<String> {
        p["uniprot_names"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|n| n.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let keys = |hit: &dyn Fn(&str) -> bool| -> Vec<String> {
        human
            .iter()
            .filter(|p| names(p).iter().any(|n| hit(n)))
            .map(|p| s(p, "_key").to_string())
            .collect()
    };
    let upper = q.to_uppercase();
    let exact = keys(&|n| n == upper);
    if !exact.is_empty() {
        return exact;
    }
    keys(&|n| n.len() >= q.len() && n.as_bytes()[..q.len()].eq_ignore_ascii_case(q.as_bytes()))
}

#[test]
fn test_proteins_uniprot_name_upper_cased_then_prefix() {
    for (q, at_least) in [
        ("snp25_human", 13),
        ("SNP25_HUMAN", 13),
        ("Pak5_Human", 3),
        ("snp", 13),
        ("pak5", 3),
        ("TSTA1_h", 2),
        ("krt17_human", 0),
    ] {
        let want = uniprot_name_tiers(q);
        assert!(want.len() >= at_least, "{q}: the sample has {}", want.len());
        let path = format!("/proteins?uniprot_name={q}&limit=50");
        let got: Vec<String> = get_json(&path)
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["_id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(got, want, "{path}");
    }
    // A prefix tier is paged on its own, in key order.
    let all = get_json("/proteins?uniprot_name=snp&limit=50");
    check_paging("/proteins?uniprot_name=snp", all.as_array().unwrap(), 5);
    // The other filters still apply to the tier (none of these proteins is a mouse one).
    assert_eq!(
        get_json("/proteins?uniprot_name=snp&organism=Mus%20musculus"),
        json!([])
    );
}
