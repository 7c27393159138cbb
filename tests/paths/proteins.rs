//! `/proteins` (node look-ups, UniProt names upper-cased then prefixes) and the protein's edges:
//! `/proteins/transcripts`, `/proteins/motifs`, `/proteins/complexes`, `/proteins/genes`.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::oracle::{self, data, id_or, obj, s, sorted_by_key, GENE, PROTEIN};
use crate::util::{
    assert_bad_request, assert_json_eq, assert_rows, check, check_paging, edges, get_json,
    TRANSCRIPT,
};

#[test]
fn test_proteins_transcripts_from_the_protein_end_with_the_inverse_name() {
    for verbose in [false, true] {
        let q = format!("/proteins/transcripts?protein_id=ENSP00000322957&verbose={verbose}");
        let want: Vec<Value> = edges(
            "transcripts_proteins",
            "_to",
            &["proteins/ENSP00000322957".to_string()],
        )
        .into_iter()
        .map(|e| {
            json!({
                "source": e["source"],
                "source_url": e["source_url"],
                "protein": e["_to"],
                "transcript": id_or(s(e, "_from"), verbose, TRANSCRIPT),
                "name": e["inverse_name"],
            })
        })
        .collect();
        assert_json_eq(&get_json(&q), &Value::Array(want), &q);
    }
}

#[test]
fn test_proteins_motifs_direct_and_through_complexes() {
    let protein = "proteins/ENSP90000000001".to_string();
    let mut targets: Vec<String> =
        edges("complexes_proteins", "_to", std::slice::from_ref(&protein))
            .into_iter()
            .map(|e| s(e, "_from").to_string())
            .collect();
    targets.push(protein);
    let want: Vec<Value> = edges("motifs_proteins", "_to", &targets)
        .into_iter()
        .map(|e| json!([e["_from"], e["_to"]]))
        .collect();
    let q = "/proteins/motifs?protein_id=ENSP90000000001";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let to = if r["protein"].is_null() {
                &r["complex"]
            } else {
                &r["protein"]
            };
            json!([r["motif"], to])
        })
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    // As IGVF, no parameter lists every motif edge, in key order.
    let all = get_json("/proteins/motifs?limit=1000");
    assert_eq!(
        all.as_array().unwrap().len(),
        data().docs("motifs_proteins").len(),
        "/proteins/motifs"
    );
}

#[test]
fn test_proteins_complexes_takes_the_mcp_servers_limit_of_100() {
    let protein = "proteins/ENSP90000000001".to_string();
    let want: Vec<Value> = edges("complexes_proteins", "_to", std::slice::from_ref(&protein))
        .into_iter()
        .map(|e| json!([e["_from"], e["_to"]]))
        .collect();
    assert!(!want.is_empty());
    let q = "/proteins/complexes?protein_id=ENSP90000000001&limit=100";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["complex"], r["protein"]]))
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/proteins/complexes?protein_id=ENSP90000000001&limit=101",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
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
    let long = "x".repeat(varcat_query::parse::ident::MAX_ID_LEN + 1);
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
