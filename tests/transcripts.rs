//! 4.8 /transcripts/genes and 4.10 /genes-structure.

use serde_json::{json, Value};

use crate::oracle::{self, coll, data, id_or, obj, overlaps, s, GENE};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, check_paging, get_json};

/// Expected 4.8 rows.
fn transcripts_genes(
    org: &str,
    tid: Option<&str>,
    region: Option<(&str, u64, u64)>,
    ttype: Option<&str>,
    verbose: bool,
) -> Vec<Value> {
    let tcoll = coll(org, "transcripts");
    let chosen: Option<Vec<String>> = (region.is_some() || ttype.is_some()).then(|| {
        data()
            .docs(&tcoll)
            .iter()
            .filter(|t| region.is_none_or(|r| overlaps(t, r)))
            .filter(|t| ttype.is_none_or(|ty| s(t, "transcript_type") == ty))
            .map(|t| format!("{tcoll}/{}", s(t, "_key")))
            .collect()
    });
    let edges = data().docs("genes_transcripts").iter().filter(|e| {
        tid.is_none_or(|id| s(e, "_to") == format!("{tcoll}/{}", id.split('.').next().unwrap()))
            && chosen
                .as_ref()
                .is_none_or(|c| c.iter().any(|h| h == s(e, "_to")))
    });
    oracle::sorted_by_key(edges.collect())
        .into_iter()
        .map(|e| {
            json!({
                "source": e["source"], "source_url": e["source_url"], "version": e["version"],
                "gene": id_or(s(e, "_from"), verbose, GENE),
                "transcript": e["_to"], "name": e["inverse_name"],
            })
        })
        .collect()
}

#[test]
fn test_transcript_genes_by_id() {
    let got = get_json("/transcripts/genes?transcript_id=ENST00000353224");
    let want = transcripts_genes("Homo sapiens", Some("ENST00000353224"), None, None, false);
    assert_eq!(want.len(), 1);
    assert_json_eq(&got, &Value::Array(want), "by id");
    // The name is the inverse name whatever the query.
    assert_eq!(got[0]["name"], "transcribed by");
    // A versioned id finds the unversioned key.
    assert_json_eq(
        &get_json("/transcripts/genes?transcript_id=ENST00000353224.10"),
        &got,
        "versioned id",
    );
    assert_eq!(
        get_json("/transcripts/genes?transcript_id=ENST00000000000"),
        json!([])
    );
}

#[test]
fn test_transcript_genes_verbose() {
    for q in [
        "transcript_id=ENST00000353224",
        "region=chr20:9537369-9839076",
    ] {
        let got = get_json(&format!("/transcripts/genes?{q}&verbose=true&limit=100"));
        let region = q
            .starts_with("region")
            .then_some(("chr20", 9537369, 9839076));
        let tid = q.strip_prefix("transcript_id=");
        let want = transcripts_genes("Homo sapiens", tid, region, None, true);
        assert!(got[0]["gene"].is_object());
        assert_json_eq(&got, &Value::Array(want), q);
    }
    // A dangling gene keeps its id string even with verbose.
    let got = get_json("/transcripts/genes?transcript_id=ENST99999999901&verbose=true");
    assert_eq!(got[0]["gene"], "genes/ENSG99999999901");
}

#[test]
fn test_transcript_genes_by_region_type_and_paging() {
    let all = transcripts_genes("Homo sapiens", None, None, Some("lncRNA"), false);
    check_paging("/transcripts/genes?transcript_type=lncRNA", &all, 25);
    let region = ("chr20", 9_500_000, 10_500_000);
    let all = transcripts_genes("Homo sapiens", None, Some(region), None, false);
    check_paging("/transcripts/genes?region=chr20:9500000-10500000", &all, 7);
    // Region and type together are ANDed, and so is an id with them.
    let both = transcripts_genes(
        "Homo sapiens",
        None,
        Some(region),
        Some("protein_coding"),
        false,
    );
    assert!(!both.is_empty() && both.len() < all.len());
    assert_json_eq(&get_json("/transcripts/genes?region=chr20:9500000-10500000&transcript_type=protein_coding&limit=100"), &Value::Array(both), "and");
    assert_eq!(
        get_json("/transcripts/genes?transcript_id=ENST00000353224&transcript_type=lncRNA"),
        json!([])
    );
    // Half-open overlap: a region ending where a transcript starts does not touch it.
    let t = data().get("transcripts", "ENST00000353224").unwrap();
    let start = t["start"].as_u64().unwrap();
    let none = transcripts_genes(
        "Homo sapiens",
        None,
        Some(("chr20", start - 10, start)),
        Some("protein_coding"),
        false,
    );
    let got = get_json(&format!(
        "/transcripts/genes?region=chr20:{}-{start}&transcript_type=protein_coding",
        start - 10
    ));
    assert_rows(&got, &Value::Array(none), "abutting region", true);
    assert_eq!(get_json("/transcripts/genes?region=chrZZ:1-2"), json!([]));
}

#[test]
fn test_transcript_genes_mouse_vs_human() {
    let mouse = get_json(
        "/transcripts/genes?transcript_type=protein_coding&organism=Mus%20musculus&verbose=true",
    );
    let want = transcripts_genes("Mus musculus", None, None, Some("protein_coding"), true);
    assert_eq!(want.len(), 2);
    assert_json_eq(&mouse, &Value::Array(want), "mouse");
    assert!(mouse[0]["gene"]["_id"]
        .as_str()
        .unwrap()
        .starts_with("ENSMUSG"));
    // A mouse transcript is not found as human, and a human one not as mouse.
    assert_eq!(
        get_json("/transcripts/genes?transcript_id=ENSMUST00000070533"),
        json!([])
    );
    assert_eq!(
        get_json("/transcripts/genes?transcript_id=ENST00000353224&organism=Mus%20musculus"),
        json!([])
    );
    let human = get_json("/transcripts/genes?transcript_type=protein_coding&limit=100");
    assert!(human
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["gene"].as_str().unwrap().starts_with("genes/")));
}

#[test]
fn test_transcript_genes_errors() {
    assert_bad_request(
        "/transcripts/genes",
        &[(
            "at least one of transcript_id, region, transcript_type must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/transcripts/genes?verbose=true",
        &[(
            "at least one of transcript_id, region, transcript_type must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/transcripts/genes?transcript_type=coding",
        &[("transcript_type must be one of 'IG_C_gene', 'IG_C_pseudogene', 'IG_D_gene', 'IG_J_gene', 'IG_J_pseudogene', 'IG_V_gene', 'IG_V_pseudogene', 'IG_pseudogene', 'Mt_rRNA', 'Mt_tRNA', 'TEC', 'TR_C_gene', 'TR_D_gene', 'TR_J_gene', 'TR_J_pseudogene', 'TR_V_gene', 'TR_V_pseudogene', 'artifact', 'lncRNA', 'miRNA', 'misc_RNA', 'non_stop_decay', 'nonsense_mediated_decay', 'processed_pseudogene', 'processed_transcript', 'protein_coding', 'protein_coding_CDS_not_defined', 'protein_coding_LoF', 'pseudogene', 'rRNA', 'rRNA_pseudogene', 'retained_intron', 'ribozyme', 'sRNA', 'scRNA', 'scaRNA', 'snRNA', 'snoRNA', 'transcribed_processed_pseudogene', 'transcribed_unitary_pseudogene', 'transcribed_unprocessed_pseudogene', 'translated_processed_pseudogene', 'translated_unprocessed_pseudogene', 'unitary_pseudogene', 'unprocessed_pseudogene', 'vault_RNA', got 'coding'", &["transcript_type"])],
    );
    assert_bad_request(
        "/transcripts/genes?region=chr20:100-50",
        &[(
            "region must have start < end, got \"chr20:100-50\"",
            &["region"],
        )],
    );
    assert_bad_request(
        "/transcripts/genes?region=20:1-2",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"20:1-2\"", &["region"])],
    );
    assert_bad_request(
        "/transcripts/genes?transcript_id=ENST00000353224&limit=101",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/transcripts/genes?transcript_id=ENST00000353224&limit=ten",
        &[(
            "limit must be an integer from 1 to 100, got \"ten\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/transcripts/genes?transcript_id=ENST00000353224&organism=human",
        &[(
            "organism must be one of 'Mus musculus', 'Homo sapiens', got 'human'",
            &["organism"],
        )],
    );
    assert_bad_request(
        "/transcripts/genes?transcript_id=ENST00000353224&verbose=yes",
        &[("verbose must be 'true' or 'false', got 'yes'", &["verbose"])],
    );
    assert_bad_request(
        "/transcripts/genes?transcriptid=ENST00000353224",
        &[
            (
                "unknown parameter `transcriptid`; did you mean `transcript_id`?",
                &["transcriptid"],
            ),
            (
                "at least one of transcript_id, region, transcript_type must be given",
                &[],
            ),
        ],
    );
    assert_bad_request(
        "/transcripts/genes?transcript_id=A&transcript_id=B",
        &[("transcript_id is given more than once", &["transcript_id"])],
    );
}

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
