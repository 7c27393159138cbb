//! `/genes/proteins`: gene resolution, name tiers, verbose rows, paging, mouse, errors.

use serde_json::{json, Value};

use crate::oracle::{self, data, id_or, s, PROTEIN};
use crate::util::{assert_bad_request, assert_json_eq, check_paging, get_json};

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
