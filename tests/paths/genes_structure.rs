//! `/genes-structure`: by gene, transcript and type, the protein path's filters, mouse,
//! errors.

use serde_json::{json, Value};

use crate::oracle::{self, coll, data, obj, overlaps, s};
use crate::util::{assert_bad_request, assert_json_eq, check_paging, get_json};

/// Expected 4.10 rows, in (gene_id, transcript_id, start, _key) order.
fn structure(org: &str, f: &[(&str, &str)], region: Option<(&str, u64, u64)>) -> Vec<Value> {
    let tcoll = coll(org, "transcripts");
    let protein_keys: Option<Vec<String>> =
        f.iter().any(|(k, _)| k.starts_with("protein_")).then(|| {
            let filters = f
                .iter()
                .filter(|(k, _)| k.starts_with("protein_"))
                .copied()
                .collect();
            oracle::proteins(org, &filters)
                .iter()
                .map(|p| s(p, "_key").to_string())
                .collect()
        });
    let mut rows: Vec<(Value, Value)> = data()
        .docs(&coll(org, "genes_structure"))
        .iter()
        .filter(|d| region.is_none_or(|r| overlaps(d, r)))
        .map(|d| {
            let mut d = d.clone();
            if d.get("protein_id").is_none() {
                let p =
                    oracle::protein_of_transcript(&format!("{tcoll}/{}", s(&d, "transcript_id")));
                d["protein_id"] = json!(p);
            }
            d
        })
        .filter(|d| {
            f.iter().all(|(k, v)| match *k {
                "protein_id" | "protein_name" => protein_keys
                    .as_ref()
                    .unwrap()
                    .iter()
                    .any(|p| d["protein_id"] == *p),
                "gene_id" | "transcript_id" => s(d, k) == v.split('.').next().unwrap(),
                _ => s(d, k) == *v,
            })
        })
        .map(|d| {
            let row = obj(
                &d,
                &[
                    ("_id", "_key"),
                    ("name", "name"),
                    ("chr", "chr"),
                    ("start", "start"),
                    ("end", "end"),
                    ("strand", "strand"),
                    ("type", "type"),
                    ("gene_id", "gene_id"),
                    ("gene_name", "gene_name"),
                    ("transcript_id", "transcript_id"),
                    ("transcript_name", "transcript_name"),
                    ("protein_id", "protein_id"),
                    ("exon_number", "exon_number"),
                    ("exon_id", "exon_id"),
                    ("organism", "organism"),
                    ("source", "source"),
                    ("version", "version"),
                    ("source_url", "source_url"),
                ],
            );
            (d, row)
        })
        .collect();
    rows.sort_by(|(a, _), (b, _)| {
        (
            s(a, "gene_id"),
            s(a, "transcript_id"),
            a["start"].as_u64(),
            s(a, "_key"),
        )
            .cmp(&(
                s(b, "gene_id"),
                s(b, "transcript_id"),
                b["start"].as_u64(),
                s(b, "_key"),
            ))
    });
    rows.into_iter().map(|(_, r)| r).collect()
}

#[test]
fn test_structure_by_gene_transcript_type() {
    let want = structure(
        "Homo sapiens",
        &[("gene_name", "PAK5"), ("type", "CDS")],
        None,
    );
    check_paging("/genes-structure?gene_name=PAK5&type=CDS", &want, 10);
    let want = structure("Homo sapiens", &[("gene_id", "ENSG00000101349")], None);
    check_paging("/genes-structure?gene_id=ENSG00000101349.17", &want, 30);
    let want = structure(
        "Homo sapiens",
        &[("transcript_id", "ENST00000353224"), ("type", "exon")],
        None,
    );
    assert!(!want.is_empty());
    assert_json_eq(
        &get_json("/genes-structure?transcript_id=ENST00000353224&type=exon&limit=500"),
        &Value::Array(want),
        "transcript",
    );
    let want = structure(
        "Homo sapiens",
        &[("transcript_name", "PAK5-201"), ("type", "intron")],
        None,
    );
    assert_json_eq(
        &get_json("/genes-structure?transcript_name=PAK5-201&type=intron&limit=500"),
        &Value::Array(want),
        "transcript name",
    );
    let region = ("chr20", 9_560_000, 9_600_000);
    let want = structure("Homo sapiens", &[], Some(region));
    check_paging("/genes-structure?region=chr20:9560000-9600000", &want, 10);
}

#[test]
fn test_structure_protein_path_applies_every_filter() {
    let want = structure("Homo sapiens", &[("protein_id", "ENSP00000322957")], None);
    assert!(want.len() > 10 && want.iter().all(|r| r["protein_id"] == "ENSP00000322957"));
    assert_json_eq(
        &get_json("/genes-structure?protein_id=ENSP00000322957&limit=500"),
        &Value::Array(want),
        "protein",
    );
    // Versioned id, and type ANDed on the protein path (IGVF ignores it there).
    let want = structure(
        "Homo sapiens",
        &[("protein_id", "ENSP00000322957.5"), ("type", "CDS")],
        None,
    );
    assert!(want.iter().all(|r| r["type"] == "CDS") && !want.is_empty());
    assert_json_eq(
        &get_json("/genes-structure?protein_id=ENSP00000322957.5&type=CDS&limit=500"),
        &Value::Array(want),
        "protein+type",
    );
    // A UniProt accession reaches every protein carrying it; protein_name too.
    let want = structure("Homo sapiens", &[("protein_id", "Q9P286")], None);
    assert_json_eq(
        &get_json("/genes-structure?protein_id=Q9P286&limit=500"),
        &Value::Array(want),
        "uniprot",
    );
    let want = structure(
        "Homo sapiens",
        &[("protein_name", "SNAP25"), ("type", "start_codon")],
        None,
    );
    assert!(!want.is_empty());
    assert_json_eq(
        &get_json("/genes-structure?protein_name=SNAP25&type=start_codon&limit=500"),
        &Value::Array(want),
        "name",
    );
    assert_eq!(
        get_json("/genes-structure?protein_id=ENSP00000322957&gene_name=SNAP25"),
        json!([])
    );
}

#[test]
fn test_structure_mouse_vs_human() {
    let want = structure("Mus musculus", &[("gene_name", "Rp1")], None);
    assert!(!want.is_empty() && want.iter().all(|r| r["organism"] == "Mus musculus"));
    assert_json_eq(
        &get_json("/genes-structure?gene_name=Rp1&organism=Mus%20musculus&limit=500"),
        &Value::Array(want),
        "mouse",
    );
    assert_eq!(get_json("/genes-structure?gene_name=Rp1"), json!([]));
    // A human request after a mouse one still reads human data (IGVF's schema leak).
    assert!(!get_json("/genes-structure?gene_name=PAK5")
        .as_array()
        .unwrap()
        .is_empty());
    // Mouse protein rows carry the hand-made mouse protein.
    let rows = get_json(
        "/genes-structure?protein_id=ENSMUSP00000146439&organism=Mus%20musculus&limit=500",
    );
    let want = structure(
        "Mus musculus",
        &[("protein_id", "ENSMUSP00000146439")],
        None,
    );
    assert!(!want.is_empty());
    assert_json_eq(&rows, &Value::Array(want), "mouse protein");
}

#[test]
fn test_structure_errors() {
    let rule = "at least one of gene_id, gene_name, transcript_id, transcript_name, protein_id, protein_name, region must be given";
    assert_bad_request("/genes-structure?type=exon", &[(rule, &[])]);
    assert_bad_request(
        "/genes-structure?gene_name=PAK5&type=EXON",
        &[("type must be one of 'CDS', 'UTR', 'exon', 'intron', 'start_codon', 'stop_codon', got 'EXON'", &["type"])],
    );
    assert_bad_request(
        "/genes-structure?region=chr20:5-5",
        &[(
            "region must have start < end, got \"chr20:5-5\"",
            &["region"],
        )],
    );
    assert_bad_request(
        "/genes-structure?gene_name=PAK5&limit=501",
        &[(
            "limit must be an integer from 1 to 500, got \"501\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/genes-structure?gene_name=PAK5&page=1.5",
        &[(
            "page must be a non-negative integer, got \"1.5\"",
            &["page"],
        )],
    );
    assert_bad_request(
        "/genes-structure?gene=PAK5",
        &[
            (
                "unknown parameter `gene`; did you mean `gene_id`?",
                &["gene"],
            ),
            (rule, &[]),
        ],
    );
}
