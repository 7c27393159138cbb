//! `/transcripts` (node look-ups) and the transcript's edges: `/transcripts/proteins`,
//! `/transcripts/genes` (by id, region and type, verbose, mouse, paging, errors).

use serde_json::{json, Value};

use crate::oracle::{self, coll, data, id_or, obj, overlaps, s, GENE, PROTEIN};
use crate::util::{
    assert_bad_request, assert_json_eq, assert_rows, check, check_paging, edges, get_json, rows,
    TRANSCRIPT,
};

#[test]
fn test_transcripts_proteins_verbose_protein_is_a_one_element_array() {
    let q = "/transcripts/proteins?transcript_id=ENST00000353224&verbose=true";
    let want: Vec<Value> = edges(
        "transcripts_proteins",
        "_from",
        &["transcripts/ENST00000353224".to_string()],
    )
    .into_iter()
    .map(|e| {
        let protein = match data().handle(s(e, "_to")) {
            Some(p) => json!([obj(p, PROTEIN)]),
            None => json!([]),
        };
        json!({
            "source": e["source"],
            "source_url": e["source_url"],
            "protein": protein,
            "transcript": e["_from"],
            "name": e["name"],
        })
    })
    .collect();
    assert!(want
        .iter()
        .all(|r| r["protein"].as_array().is_some_and(|a| a.len() == 1)));
    assert_json_eq(&get_json(q), &Value::Array(want), q);
    // Not verbose: the handle string.
    let plain = get_json("/transcripts/proteins?transcript_id=ENST00000353224");
    assert_eq!(plain[0]["protein"], json!("proteins/ENSP00000322957"));
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
