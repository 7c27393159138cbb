//! `/genes` (node look-ups by every filter, errors) and the gene's edges to genes and
//! transcripts: `/genes/genes` (either end, pairs, IGVF's interaction enumerations),
//! `/genes/transcripts`, `/genes/transcripts/genes` (MORF constructs, readouts, thresholds).
//! The other `/genes/...` paths have files of their own in this folder.

mod coding_variants;
mod diseases;
mod proteins;
mod variants;

use serde_json::{json, Value};

use crate::oracle::{self, data, id_or, name_cascade, obj, overlaps, s, sorted_by_key, GENE};
use crate::util::{
    assert_bad_request, assert_json_eq, assert_rows, check, check_paging, edges, get_json, handles,
    has, rows, TRANSCRIPT,
};

/// A gene–transcript edge seen from the gene.
fn gene_transcript(e: &Value, verbose: bool) -> Value {
    json!({
        "source": e["source"],
        "source_url": e["source_url"],
        "version": e["version"],
        "gene": e["_from"],
        "transcript": id_or(s(e, "_to"), verbose, TRANSCRIPT),
        "name": e["name"],
    })
}

#[test]
fn test_genes_transcripts_from_the_gene_end() {
    for (q, org, genes) in [
        (
            "/genes/transcripts?gene_id=ENSG00000101349",
            "Homo sapiens",
            oracle::genes("Homo sapiens", Some("ENSG00000101349"), None, None, None),
        ),
        (
            "/genes/transcripts?gene_name=TSTA1&verbose=true",
            "Homo sapiens",
            oracle::genes("Homo sapiens", None, None, None, Some("TSTA1")),
        ),
    ] {
        let verbose = q.contains("verbose=true");
        let want: Vec<Value> = edges(
            "genes_transcripts",
            "_from",
            &handles(&oracle::coll(org, "genes"), &genes),
        )
        .into_iter()
        .map(|e| gene_transcript(e, verbose))
        .take(25)
        .collect();
        assert_json_eq(&get_json(q), &Value::Array(want), q);
    }
    // Mouse genes of a region: their edges, paged.
    let region = ("chr1", 3_000_000, 4_000_000);
    let genes: Vec<&Value> = data()
        .docs("mm_genes")
        .iter()
        .filter(|g| overlaps(g, region))
        .collect();
    let all: Vec<Value> = edges("genes_transcripts", "_from", &handles("mm_genes", &genes))
        .into_iter()
        .map(|e| gene_transcript(e, false))
        .collect();
    check_paging(
        "/genes/transcripts?organism=Mus%20musculus&region=chr1:3000000-4000000",
        &all,
        2,
    );
}

#[test]
fn test_genes_genes_either_end_and_pairs() {
    let gene = |name: &str| {
        let g = oracle::genes("Homo sapiens", None, None, None, Some(name));
        format!("genes/{}", s(g[0], "_key"))
    };
    let (a, b) = (gene("TSTA1"), gene("TST-B"));
    let ids = |q: &str| -> Vec<Value> {
        get_json(q)
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["_id"].clone())
            .collect()
    };
    let want = |keep: &dyn Fn(&Value) -> bool| -> Vec<Value> {
        sorted_by_key(
            data()
                .docs("genes_genes")
                .iter()
                .filter(|e| keep(e))
                .collect(),
        )
        .into_iter()
        .map(|e| json!(format!("genes_genes/{}", s(e, "_key"))))
        .collect()
    };
    let touches = |e: &Value, g: &str| s(e, "_from") == g || s(e, "_to") == g;
    let got = ids("/genes/genes?gene_name=TSTA1");
    assert_json_eq(&json!(got), &json!(want(&|e| touches(e, &a))), "either end");
    let got = ids("/genes/genes?gene_name=TSTA1&associated_gene_name=TST-B");
    let pair = |e: &Value| {
        (s(e, "_from") == a && s(e, "_to") == b) || (s(e, "_from") == b && s(e, "_to") == a)
    };
    assert_json_eq(&json!(got), &json!(want(&pair)), "pairs");
    // Verbose genes are one-element arrays without synonyms.
    let v = get_json("/genes/genes?gene_name=TSTA1&associated_gene_name=TST-B&verbose=true");
    let gene_1 = v[0]["gene_1"].as_array().unwrap();
    assert_eq!(gene_1.len(), 1);
    let no_synonyms: Vec<(&str, &str)> = GENE
        .iter()
        .copied()
        .filter(|(n, _)| *n != "synonyms")
        .collect();
    let from = s(&v[0], "_id")
        .strip_prefix("genes_genes/")
        .unwrap()
        .to_string();
    let edge = data().get("genes_genes", &from).unwrap();
    let g = data().handle(s(edge, "_from")).unwrap();
    assert_eq!(gene_1[0], obj(g, &no_synonyms));
}

/// A MORF effect row (`GenesTranscriptsGenes`) from its edge, the construct's gene and
/// transcript and the readout gene expanded with `verbose`.
fn morf_row(e: &Value, verbose: bool) -> Value {
    let construct = data().handle(s(e, "_from")).unwrap();
    let mut row = json!({
        "_id": format!("genes_transcripts_genes/{}", s(e, "_key")),
        "gene_transcript": e["_from"],
        "gene": id_or(s(construct, "_from"), verbose, GENE),
        "transcript": id_or(s(construct, "_to"), verbose, TRANSCRIPT),
        "readout_gene": id_or(s(e, "_to"), verbose, GENE),
    });
    let members = [
        "morf_id",
        "transcript_mapping_method",
        "log2FC",
        "standard_error",
        "base_mean",
        "p_value",
        "p_value_adj",
        "neg_log10_pvalue",
        "neg_log10_pvalue_adj",
        "significant",
        "name",
        "label",
        "class",
        "method",
        "source",
        "source_url",
        "files_filesets",
        "biological_context",
        "biosample_term",
        "treatments_term_ids",
    ];
    for m in members {
        let v = e.get(m).cloned().unwrap_or(Value::Null);
        // The router's name of the standard error fills the client's.
        let v = match (m, &v) {
            ("standard_error", Value::Null) => e.get("log2FC_se").cloned().unwrap_or(Value::Null),
            _ => v,
        };
        row[m] = v;
    }
    row
}

#[test]
fn test_genes_transcripts_genes_by_construct_readout_and_thresholds() {
    // Rows the client can take: the construct exists, log2FC and significant are given.
    let rows = |keep: &dyn Fn(&Value, &Value) -> bool, verbose: bool| -> Value {
        let docs: Vec<&Value> = data()
            .docs("genes_transcripts_genes")
            .iter()
            .filter(|e| e["log2FC"].is_number() && e["significant"].is_boolean())
            .filter(|e| {
                data()
                    .handle(s(e, "_from"))
                    .is_some_and(|construct| keep(e, construct))
            })
            .collect();
        json!(sorted_by_key(docs)
            .into_iter()
            .map(|e| morf_row(e, verbose))
            .collect::<Vec<_>>())
    };
    let (a, b, c) = (
        "genes/ENSG90000000001",
        "genes/ENSG90000000002",
        "genes/ENSG90000000003",
    );
    let want = rows(&|_, g| s(g, "_from") == a, false);
    assert_eq!(want.as_array().unwrap().len(), 2, "{want}");
    assert_json_eq(
        &get_json("/genes/transcripts/genes?gene_name=TSTA1"),
        &want,
        "by the construct's gene",
    );
    assert_json_eq(
        &get_json("/genes/transcripts/genes?gene_id=ENSG90000000001.1&verbose=true"),
        &rows(&|_, g| s(g, "_from") == a, true),
        "verbose",
    );
    assert_json_eq(
        &get_json(
            "/genes/transcripts/genes?gene_id=ENSG90000000001&transcript_id=ENST90000000002.1",
        ),
        &rows(
            &|_, g| s(g, "_from") == a && s(g, "_to") == "transcripts/ENST90000000002",
            false,
        ),
        "gene and transcript",
    );
    assert_json_eq(
        &get_json("/genes/transcripts/genes?readout_gene_name=TSTA1"),
        &rows(&|e, _| s(e, "_to") == a, false),
        "by the readout gene",
    );
    assert_json_eq(
        &get_json("/genes/transcripts/genes?gene_name=TST-B&readout_gene_id=ENSG90000000001"),
        &rows(&|e, g| s(e, "_to") == a && s(g, "_from") == b, false),
        "both ends",
    );
    let num = |e: &Value, m: &str| e[m].as_f64().unwrap_or(f64::NAN);
    for (q, keep) in [
        (
            "method=MORF%20screen&log2FC=gt:0",
            &(|e: &Value| num(e, "log2FC") > 0.0) as &dyn Fn(&Value) -> bool,
        ),
        ("method=MORF%20screen&log2FC=eq:-0.3", &|e| {
            num(e, "log2FC") == -0.3
        }),
        ("files_fileset=IGVFFI9000MRF&significant=false", &|e| {
            e["significant"] == json!(false)
        }),
        (
            "method=MORF%20screen&neg_log10_pvalue=gte:3&p_value_adj=lt:0.05",
            &|e| num(e, "neg_log10_pvalue") >= 3.0 && num(e, "p_value_adj") < 0.05,
        ),
        (
            "morf_id=ccsbBroad304_90001&biosample_term=EFO_0002067",
            &|e| s(e, "morf_id") == "ccsbBroad304_90001",
        ),
        (
            "readout_gene_id=ENSG90000000003&biological_context=K562",
            &|e| s(e, "_to") == c,
        ),
    ] {
        let want = rows(&|e, _| keep(e), false);
        assert!(!want.as_array().unwrap().is_empty(), "{q}");
        assert_json_eq(
            &get_json(&format!("/genes/transcripts/genes?{q}")),
            &want,
            q,
        );
    }
    // The construct missing from the catalog and the incomplete rows have no row.
    let all = rows(&|_, _| true, false);
    let got = get_json("/genes/transcripts/genes?method=MORF%20screen");
    assert_json_eq(&got, &all, "all");
    assert_eq!(all.as_array().unwrap().len(), 3);
    check_paging(
        "/genes/transcripts/genes?method=MORF%20screen",
        all.as_array().unwrap(),
        2,
    );
    assert_bad_request(
        "/genes/transcripts/genes?log2FC=gt:0",
        &[(
            "at least one of gene_id, gene_name, transcript_id, readout_gene_id, readout_gene_name, morf_id, files_fileset, method must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/genes/transcripts/genes?method=CRISPR",
        &[(
            "method must be one of 'MORF screen', got 'CRISPR'",
            &["method"],
        )],
    );
}

#[test]
fn test_interaction_filters_take_igvf_enumerations() {
    // Rows of `coll` touching `node` whose member `m` is `v`, as their `_id`s in key order.
    let want = |coll: &str, node: &str, m: &str, v: &str| -> Value {
        let docs: Vec<&Value> = data()
            .docs(coll)
            .iter()
            .filter(|e| (s(e, "_from") == node || s(e, "_to") == node) && s(e, m) == v)
            .collect();
        json!(sorted_by_key(docs)
            .into_iter()
            .map(|e| json!(format!("{coll}/{}", s(e, "_key"))))
            .collect::<Vec<_>>())
    };
    let ids = |q: &str| -> Value {
        json!(get_json(q)
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["_id"].clone())
            .collect::<Vec<_>>())
    };
    let (g, p) = ("genes/ENSG90000000001", "proteins/ENSP90000000001");
    for (q, coll, node, m, v) in [
        (
            "/genes/genes?gene_id=ENSG90000000001&method=COXPRESdb",
            "genes_genes",
            g,
            "method",
            "COXPRESdb",
        ),
        (
            "/genes/genes?gene_id=ENSG90000000001&method=positive%20genetic%20interaction%20(sensu%20BioGRID)",
            "genes_genes",
            g,
            "method",
            "positive genetic interaction (sensu BioGRID)",
        ),
        (
            "/genes/genes?gene_id=ENSG90000000001&label=co-expression",
            "genes_genes",
            g,
            "label",
            "co-expression",
        ),
        (
            "/proteins/proteins?protein_id=ENSP90000000001&detection_method=two%20hybrid",
            "proteins_proteins",
            p,
            "detection_method",
            "two hybrid",
        ),
        (
            "/proteins/proteins?protein_id=ENSP90000000001&label=pull%20down",
            "proteins_proteins",
            p,
            "label",
            "pull down",
        ),
        (
            "/proteins/proteins?protein_id=ENSP90000000001&method=physical%20association",
            "proteins_proteins",
            p,
            "method",
            "physical association",
        ),
    ] {
        let w = want(coll, node, m, v);
        assert_eq!(w.as_array().unwrap().len(), 1, "{q}");
        assert_json_eq(&ids(q), &w, q);
    }
    // A value IGVF's enumeration lacks is a 400 naming the parameter, as in IGVF; one it has
    // but no row carries selects nothing.
    for (q, param) in [
        (
            "/genes/genes?gene_id=ENSG90000000001&method=coexpression",
            "method",
        ),
        (
            "/proteins/proteins?protein_id=ENSP90000000001&detection_method=telepathy",
            "detection_method",
        ),
        (
            "/proteins/proteins?protein_id=ENSP90000000001&label=interaction",
            "label",
        ),
        (
            "/proteins/proteins?protein_id=ENSP90000000001&method=two%20hybrid",
            "method",
        ),
    ] {
        let r = crate::util::get(q);
        assert_eq!(r.status, 400, "{q}: {}", r.text());
        let body = r.json();
        assert_eq!(body["issues"][0]["path"], json!([param]), "{q}");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{param} must be one of")),
            "{q}: {body}"
        );
    }
    assert_eq!(
        ids("/proteins/proteins?protein_id=ENSP90000000001&detection_method=3D%20electron%20microscopy"),
        json!([])
    );
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
