//! The IGVF client paths' node leftovers (/coding-variants, /files-filesets), the POST route /llm-query,
//! and the counts and summaries: answers against the oracle or hand-computed expectations from
//! `testdata/catalog/`, errors, paging.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{json, Value};

use crate::coding::coding_row;
use crate::oracle::{data, obj, s};
use crate::util::{
    assert_bad_request, assert_json_eq, assert_rows, check_paging, get_json, parse_response, post,
    request, server, Resp,
};

/// Coding variants passing `keep`, in the collection's record order (protein, position,
/// change, key).
fn coding(keep: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut v: Vec<&Value> = data()
        .docs("coding_variants")
        .iter()
        .filter(|c| keep(c))
        .collect();
    v.sort_by(|a, b| {
        (
            s(a, "protein_id"),
            a["aapos"].as_f64().unwrap_or(-1.0),
            s(a, "hgvsp"),
            s(a, "_key"),
        )
            .partial_cmp(&(
                s(b, "protein_id"),
                b["aapos"].as_f64().unwrap_or(-1.0),
                s(b, "hgvsp"),
                s(b, "_key"),
            ))
            .unwrap()
    });
    v.into_iter().map(coding_row).collect()
}

fn aapos(c: &Value) -> f64 {
    c["aapos"].as_f64().unwrap_or(-1.0)
}

#[test]
fn test_coding_variants_match_the_oracle() {
    let sry = |c: &Value| s(c, "gene_name") == "SRY";
    let want = coding(|c| sry(c) && (135.0..=137.0).contains(&aapos(c)));
    assert_eq!(want.len(), 21, "hand count: SRY positions 135 to 137");
    assert_json_eq(
        &get_json("/coding-variants?gene_name=SRY&amino_acid_position=range:135-137"),
        &Value::Array(want.clone()),
        "range",
    );
    // A single position is a one-position range.
    let at = |p: f64| coding(move |c| sry(c) && aapos(c) == p);
    assert_json_eq(
        &get_json("/coding-variants?gene_name=SRY&amino_acid_position=136"),
        &Value::Array(at(136.0)),
        "position",
    );
    // IGVF's display form of an id (`>` for the stored `-`) and the stored form.
    for q in [
        "/coding-variants?id=SRY_ENST00000383070_p.X205Y_c.615G%3ET",
        "/coding-variants?id=SRY_ENST00000383070_p.X205Y_c.615G-T",
        "/coding-variants?name=SRY_ENST00000383070_p.X205Y_c.615G%3ET",
    ] {
        let got = get_json(q);
        assert_eq!(got.as_array().unwrap().len(), 1, "{q}");
        assert_eq!(got[0]["_id"], "SRY_ENST00000383070_p.X205Y_c.615G-T", "{q}");
        assert_eq!(got[0]["aapos"], 205, "{q}");
    }
    let want = coding(|c| {
        s(c, "protein_id") == "ENSP00000372547" && s(c, "alt") == "Y" && aapos(c) == 205.0
    });
    assert_json_eq(
        &get_json(
            "/coding-variants?protein_id=ENSP00000372547&alt_amino_acid=Y&amino_acid_position=205",
        ),
        &Value::Array(want),
        "protein_id",
    );
    for (q, f, v) in [
        ("hgvsp=p.A135S", "hgvsp", "p.A135S"),
        ("uniprot_name=SRY_HUMAN", "protein_name", "SRY_HUMAN"),
        (
            "transcript_id=ENST00000383070",
            "transcript_id",
            "ENST00000383070",
        ),
        ("gene_name=TSTA1", "gene_name", "TSTA1"),
    ] {
        let want: Vec<Value> = coding(|c| s(c, f) == v).into_iter().take(25).collect();
        assert_json_eq(
            &get_json(&format!("/coding-variants?{q}")),
            &Value::Array(want),
            q,
        );
    }
    assert_rows(
        &get_json("/coding-variants?gene_name=SRY&amino_acid_position=range:1000-2000"),
        &Value::Array(coding(|c| sry(c) && aapos(c) >= 1000.0)),
        "beyond",
        true,
    );
    check_paging("/coding-variants?gene_name=SRY", &coding(sry), 25);
}

#[test]
fn test_coding_variants_errors() {
    let rule = "at least one of id, name, hgvsp, protein_id, uniprot_name, gene_name, transcript_id must be given";
    assert_bad_request("/coding-variants?amino_acid_position=5", &[(rule, &[])]);
    assert_bad_request("/coding-variants?alt_amino_acid=A", &[(rule, &[])]);
    for bad in ["range:5-3", "range:1", "x", "-1", "range:a-b", "1.5"] {
        assert_bad_request(
            &format!("/coding-variants?gene_name=SRY&amino_acid_position={bad}"),
            &[(
                &format!("amino_acid_position must be a non-negative integer or range:<a>-<b> with a <= b, got \"{bad}\""),
                &["amino_acid_position"],
            )],
        );
    }
    assert_bad_request(
        "/coding-variants?gene_name=SRY&limit=26",
        &[(
            "limit must be an integer from 1 to 25, got \"26\"",
            &["limit"],
        )],
    );
}

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

fn has(d: &Value, field: &str, v: &str) -> bool {
    d[field]
        .as_array()
        .is_some_and(|a| a.iter().any(|x| x == v))
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

/// Sends `raw` on a fresh connection and reads until the server closes it (or 5 s pass).
fn exchange(raw: &[u8]) -> Vec<u8> {
    let mut s = TcpStream::connect(&server().addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let _ = s.write_all(raw);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    out
}

fn error_code(r: &Resp) -> String {
    r.json()["code"].as_str().unwrap_or("").to_string()
}

#[test]
fn test_llm_query_answers_501_to_a_valid_post() {
    for body in [
        json!({"query": "genes near rs58658771", "password": "x"}),
        json!({"query": "q", "password": "x", "verbose": "true"}),
    ] {
        let r = post("/llm-query", body.to_string().as_bytes());
        assert_eq!(r.status, 501, "{}", r.text());
        assert_eq!(
            r.json(),
            json!({
                "message": "llm-query needs an external language-model service; this server has none",
                "code": "NOT_IMPLEMENTED",
                "issues": [],
            })
        );
        assert_eq!(r.header("Content-Type"), Some("application/json"));
    }
    // Routes compare case-insensitively and ignore one trailing slash.
    assert_eq!(
        post("/LLM-query/", br#"{"query":"q","password":"p"}"#).status,
        501
    );
}

#[test]
fn test_llm_query_checks_its_body() {
    for (body, paths) in [
        (&br#"{"password":"x"}"#[..], vec![vec!["query"]]),
        (
            br#"{"query":"q","password":"x","verbose":true}"#,
            vec![vec!["verbose"]],
        ),
        (br#"{"query":7}"#, vec![vec!["query"], vec!["password"]]),
        (b"[1]", vec![vec![]]),
        (b"not json", vec![vec![]]),
        (b"", vec![vec![]]),
    ] {
        let r = post("/llm-query", body);
        assert_eq!(r.status, 400, "{}", String::from_utf8_lossy(body));
        let got: Vec<Value> = r.json()["issues"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["path"].clone())
            .collect();
        assert_eq!(got, paths.iter().map(|p| json!(p)).collect::<Vec<_>>());
    }
    let long = json!({"query": "x".repeat(5001), "password": "p"}).to_string();
    assert_eq!(post("/llm-query", long.as_bytes()).status, 400);
    let ok = json!({"query": "é".repeat(5000), "password": "p"}).to_string();
    assert_eq!(post("/llm-query", ok.as_bytes()).status, 501);
}

#[test]
fn test_llm_query_reads_at_most_64_kib() {
    // 64 KiB exactly is read (and is then a 400 or 501 on its merits).
    let pad = 64 * 1024 - r#"{"query":"q","password":"p","x":""}"#.len();
    let body = format!(
        r#"{{"query":"q","password":"p","x":"{}"}}"#,
        "y".repeat(pad)
    );
    assert_eq!(body.len(), 64 * 1024);
    assert_eq!(post("/llm-query", body.as_bytes()).status, 501);
    // One byte more: 413 with the error body, the body unread and the connection closed (a
    // request behind it is never answered).
    let head = format!(
        "POST /api/llm-query HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
        64 * 1024 + 1
    );
    let raw = exchange(format!("{head}GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes());
    let r = parse_response(&raw, false);
    assert_eq!(r.status, 413);
    assert_eq!(error_code(&r), "PAYLOAD_TOO_LARGE");
    assert_eq!(
        String::from_utf8_lossy(&raw).matches("HTTP/1.1 ").count(),
        1
    );
    // A huge announced length is refused at once, nothing read.
    let raw =
        exchange(b"POST /api/llm-query HTTP/1.1\r\nHost: x\r\nContent-Length: 900000\r\n\r\n{");
    assert_eq!(parse_response(&raw, false).status, 413);
    // A chunked body is read up to the limit, then refused.
    let mut chunked =
        b"POST /api/llm-query HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for _ in 0..3 {
        chunked.extend_from_slice(format!("{:x}\r\n{}\r\n", 30000, "z".repeat(30000)).as_bytes());
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    assert_eq!(parse_response(&exchange(&chunked), false).status, 413);
    let b = br#"{"query":"q","password":"p"}"#;
    let small = format!(
        "POST /api/llm-query HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{}\r\n0\r\n\r\n",
        b.len(),
        String::from_utf8_lossy(b)
    );
    assert_eq!(
        parse_response(&exchange(small.as_bytes()), false).status,
        501
    );
    // A body that is read whole keeps the connection: the next request is answered.
    let two = format!(
        "POST /api/llm-query HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{}GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        b.len(),
        String::from_utf8_lossy(b)
    );
    let raw = String::from_utf8_lossy(&exchange(two.as_bytes())).into_owned();
    assert!(raw.starts_with("HTTP/1.1 501"), "{raw}");
    assert!(raw.contains("HTTP/1.1 200"), "{raw}");
}

#[test]
fn test_llm_query_methods() {
    let addr = &server().addr;
    for m in ["GET", "HEAD", "PUT", "DELETE"] {
        let r = request(addr, m, "/api/llm-query", &[]);
        assert_eq!(r.status, 405, "{m}");
        assert_eq!(r.header("Allow"), Some("POST"), "{m}");
        if m != "HEAD" {
            assert_eq!(error_code(&r), "METHOD_NOT_SUPPORTED");
        }
    }
    let r = request(
        addr,
        "OPTIONS",
        "/api/llm-query",
        &[
            ("Origin", "https://x.example"),
            ("Access-Control-Request-Method", "POST"),
        ],
    );
    assert_eq!(r.status, 204);
    assert_eq!(
        r.header("Access-Control-Allow-Methods"),
        Some("POST, OPTIONS")
    );
    assert_eq!(r.header("Access-Control-Allow-Origin"), Some("*"));
    // Every other path keeps its answer to a POST: 405 for a route that takes no batches
    // (tests/batch.rs has those), 404 for none, the body left unread.
    let r = post("/genomic-elements", br#"{"query":"q","password":"p"}"#);
    assert_eq!(r.status, 405);
    assert_eq!(r.header("Allow"), Some("GET, HEAD, OPTIONS"));
    assert_eq!(post("/llm-query/x", b"{}").status, 404);
    let r = request(addr, "OPTIONS", "/api/genomic-elements", &[]);
    assert_eq!(
        r.header("Access-Control-Allow-Methods"),
        Some("GET, HEAD, OPTIONS")
    );
}

#[test]
fn test_coding_variant_phenotype_counts_and_scores() {
    // Hand-computed from coding_variants_phenotypes.consistent.jsonl: TSTA1's coding variants
    // carry CVP001-CVP006 and CVP008.
    assert_eq!(
        get_json("/coding-variants/phenotypes-count?gene_id=ENSG90000000001"),
        json!([
            {"method": "DUAL-IPA", "count": 1},
            {"method": "ESM-1v", "count": 3},
            {"method": "MutPred2", "count": 1},
            {"method": "SGE", "count": 1},
            {"method": "VAMP-seq", "count": 1},
        ])
    );
    assert_eq!(
        get_json("/coding-variants/phenotypes-count?gene_id=ENSG90000000001.7&files_fileset=IGVFFI9000TEST"),
        json!([{"method": "ESM-1v", "count": 1}, {"method": "VAMP-seq", "count": 1}])
    );
    assert_rows(
        &get_json("/coding-variants/phenotypes-count?gene_id=ENSG00000000000"),
        &json!([]),
        "unknown gene",
        true,
    );
    assert_bad_request(
        "/coding-variants/phenotypes-count",
        &[("gene_id is required", &["gene_id"])],
    );
    // All scores of a dataset, highest first; SGE's score 0.0 is a score (not a null).
    let all = |q: &str| {
        get_json(&format!(
            "/genes/coding-variants/all-scores?gene_id=ENSG90000000001&{q}"
        ))
    };
    assert_eq!(all("dataset=ESM-1v"), json!([-1.1, -3.2, -7.5]));
    assert_eq!(all("dataset=SGE"), json!([0.0]));
    assert_eq!(all("dataset=MutPred2"), json!([0.71]));
    assert_eq!(all("dataset=DUAL-IPA"), json!([0.3]));
    assert_eq!(all("dataset=VAMP-seq"), json!([0.9]));
    assert_eq!(all("dataset=ESM-1v&page=1&limit=2"), json!([-7.5]));
    assert_eq!(
        get_json("/genes/coding-variants/all-scores?gene_id=ENSG90000000002&dataset=Variant%20painting%20via%20fluorescence"),
        json!([0.5])
    );
    assert_bad_request(
        "/genes/coding-variants/all-scores?gene_id=ENSG90000000001",
        &[("dataset is required", &["dataset"])],
    );
    assert_bad_request(
        "/genes/coding-variants/all-scores?gene_id=ENSG90000000001&dataset=SGE&limit=501",
        &[(
            "limit must be an integer from 1 to 500, got \"501\"",
            &["limit"],
        )],
    );
}

#[test]
fn test_coding_variant_score_summary() {
    let row = |variant: &str, hgvsp: &str, method: &str, score: f64| {
        json!({
            "variant_id": variant,
            "hgvsp": hgvsp,
            "gene_name": "TSTA1",
            "transcript_id": "ENST90000000001",
            "dataType": method,
            "score": score,
            "portalLink": format!("https://example.org/varcat-testdata/{method}"),
        })
    };
    let v = "variants/NC_000001.11:15000:A:G";
    // Hand-computed: the variant links p.M1T (CVP004, CVP005) and p.M1V (CVP001-CVP003);
    // p.W10* (CVP008) is linked to no variant of this one.
    let want = json!([
        row(v, "p.M1T", "VAMP-seq", 0.9),
        row(v, "p.M1T", "ESM-1v", -1.1),
        row(v, "p.M1V", "ESM-1v", -3.2),
        row(v, "p.M1V", "MutPred2", 0.71),
        row(v, "p.M1V", "SGE", 0.0),
    ]);
    for path in [
        "/coding-variants/phenotypes/score-summary",
        "/variants/phenotypes/score-summary",
    ] {
        assert_eq!(
            get_json(&format!("{path}?variant_id=NC_000001.11:15000:A:G")),
            want,
            "{path}"
        );
        assert_bad_request(
            path,
            &[(
                "at least one of variant_id, coding_variant_id must be given",
                &[],
            )],
        );
    }
    assert_eq!(
        get_json("/coding-variants/phenotypes/score-summary?coding_variant_id=TSTA1_ENST90000000001_p.M1T_c.2T%3EC&files_fileset=IGVFFI9000TEST"),
        json!([row(v, "p.M1T", "VAMP-seq", 0.9)])
    );
    // Without variant_id, the first linked variant by handle (p.M1T has :A:G and :A:T).
    assert_eq!(
        get_json("/coding-variants/phenotypes/score-summary?coding_variant_id=TSTA1_ENST90000000001_p.M1T_c.2T-C")[1],
        row(v, "p.M1T", "ESM-1v", -1.1)
    );
    // Both: ANDed.
    assert_rows(
        &get_json("/coding-variants/phenotypes/score-summary?variant_id=NC_000001.11:15000:A:T&coding_variant_id=TSTA1_ENST90000000001_p.M1V_c.1A-G"),
        &json!([]),
        "and",
        true,
    );
    assert_rows(
        &get_json("/coding-variants/phenotypes/score-summary?variant_id=NC_000001.11:1:A:G"),
        &json!([]),
        "unknown",
        true,
    );
}

/// `/variants/predictions-count` from the JSONL: the elements containing the variants
/// (`start <= pos < end`), their gene edges, distinct contexts and genes by id.
fn predictions_count(keep: impl Fn(&Value) -> bool, fileset: Option<&str>) -> Value {
    let vs: Vec<&Value> = data().docs("variants").iter().filter(|v| keep(v)).collect();
    assert!(!vs.is_empty());
    let mut handles = std::collections::BTreeSet::new();
    for v in &vs {
        let pos = v["pos"].as_f64().unwrap();
        for el in data().docs("genomic_elements") {
            if s(el, "chr") == s(v, "chr")
                && el["start"].as_f64().unwrap() <= pos
                && pos < el["end"].as_f64().unwrap()
            {
                handles.insert(format!("genomic_elements/{}", s(el, "_key")));
            }
        }
    }
    let mut contexts = std::collections::BTreeSet::new();
    let mut genes = std::collections::BTreeMap::new();
    for e in data().docs("genomic_elements_genes") {
        if !handles.contains(s(e, "_from")) {
            continue;
        }
        if fileset.is_some_and(|f| s(e, "files_filesets") != format!("files_filesets/{f}")) {
            continue;
        }
        if let Some(c) = e["biological_context"].as_str() {
            contexts.insert(c.to_string());
        }
        let name = data()
            .handle(s(e, "_to"))
            .map_or(Value::Null, |g| g["name"].clone());
        genes.insert(s(e, "_to").to_string(), name);
    }
    let genes: Vec<Value> = genes
        .into_iter()
        .map(|(id, name)| json!({"gene_name": name, "id": id}))
        .collect();
    json!([{"cell_types": contexts.len(), "genes": genes, "name": "regulates"}])
}

#[test]
fn test_variant_predictions_count() {
    let rs = |id: &'static str| {
        move |v: &Value| {
            v["rsid"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x == id))
        }
    };
    let want = predictions_count(rs("rs900004"), None);
    assert!(!want[0]["genes"].as_array().unwrap().is_empty());
    assert_json_eq(
        &get_json("/variants/predictions-count?rsid=rs900004"),
        &want,
        "rsid",
    );
    let want = predictions_count(|v| s(v, "_key") == "NC_000001.11:15000:A:G", None);
    assert_json_eq(
        &get_json("/variants/predictions-count?spdi=NC_000001.11:15000:A:G"),
        &want,
        "spdi",
    );
    // A gene edge to a gene the catalog lacks keeps its id, with a null name.
    assert!(want[0]["genes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["gene_name"].is_null()));
    let want = predictions_count(rs("rs900004"), Some("IGVFFI9000SCE"));
    assert_json_eq(
        &get_json("/variants/predictions-count?rsid=rs900004&files_fileset=IGVFFI9000SCE"),
        &want,
        "fileset",
    );
    let r = crate::util::get("/variants/predictions-count?rsid=rs1");
    assert_eq!(r.status, 404);
    assert_bad_request(
        "/variants/predictions-count?organism=Homo%20sapiens",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id must be given",
            &[],
        )],
    );
}

#[test]
fn test_variant_genes_proteins() {
    let v = "NC_000001.11:15000:A:G";
    let h = format!("variants/{v}");
    // From the JSONL: genes (any, missing ones as their handle) then resolvable proteins, each
    // target once with its number of edges.
    let mut want: Vec<(String, usize)> = Vec::new();
    for (coll, keep_missing) in [("variants_genes", true), ("variants_proteins", false)] {
        let mut by: std::collections::BTreeMap<String, usize> = Default::default();
        for e in data().docs(coll).iter().filter(|e| s(e, "_from") == h) {
            if keep_missing || data().handle(s(e, "_to")).is_some() {
                *by.entry(s(e, "_to").to_string()).or_default() += 1;
            }
        }
        want.extend(by);
    }
    assert!(want.len() >= 2, "{want:?}");
    let got = get_json(&format!("/variants/genes-proteins?variant_id={v}"));
    assert_eq!(got.as_array().unwrap().len(), 1);
    assert_eq!(got[0]["sequence_variant"]["_id"], v);
    assert_eq!(got[0]["sequence_variant"]["spdi"], v);
    let related = got[0]["related"].as_array().unwrap();
    let seen: Vec<(String, usize)> = related
        .iter()
        .map(|r| {
            let t = if r["gene"].is_null() {
                &r["protein"]
            } else {
                &r["gene"]
            };
            let id = t["_id"].as_str().or(t.as_str()).unwrap().to_string();
            (id, r["sources"].as_array().unwrap().len())
        })
        .collect();
    assert_eq!(seen, want);
    // The same entries as 4.17 gives this variant for its gene.
    let forward = get_json("/genes-proteins/variants?query=TSTA1");
    let row = forward
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["sequence_variant"]["_id"] == v)
        .unwrap();
    for entry in row["related"].as_array().unwrap() {
        assert!(related.contains(entry), "{entry}");
    }
    // Paging applies to `related`.
    let page = get_json(&format!(
        "/variants/genes-proteins?variant_id={v}&page=1&limit=1"
    ));
    assert_eq!(page[0]["related"], json!([related[1].clone()]));
    assert_rows(
        &get_json("/variants/genes-proteins?variant_id=NC_000001.11:1:A:G"),
        &json!([]),
        "unknown",
        true,
    );
    assert_bad_request(
        "/variants/genes-proteins",
        &[("variant_id is required", &["variant_id"])],
    );
}

/// The partners of node `h` in the undirected interaction edges `coll` that exist, by handle.
fn interaction_partners(coll: &str, h: &str) -> Vec<String> {
    let mut out = std::collections::BTreeSet::new();
    for e in data().docs(coll) {
        for (end, other) in [("_from", "_to"), ("_to", "_from")] {
            if s(e, end) == h && data().handle(s(e, other)).is_some() {
                out.insert(s(e, other).to_string());
            }
        }
    }
    out.into_iter().collect()
}

#[test]
fn test_genes_proteins_genes_proteins() {
    let ids = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| r["_id"].as_str().unwrap().to_string())
            .collect()
    };
    // TSTA1 names one gene and (by name) its proteins; the gene's proteins come through its
    // transcripts.
    let gene = "genes/ENSG90000000001";
    let proteins: Vec<String> = crate::oracle::gene_protein_pairs()
        .into_iter()
        .filter(|(g, _, _)| g == gene)
        .map(|(_, p, _)| p)
        .collect();
    assert!(proteins.len() >= 2, "{proteins:?}");
    let got = get_json("/genes-proteins/genes-proteins?query=TSTA1");
    let rows = got.as_array().unwrap();
    let mut want_rows: Vec<(String, Vec<String>)> = proteins
        .iter()
        .map(|p| (p.clone(), interaction_partners("proteins_proteins", p)))
        .filter(|(_, r)| !r.is_empty())
        .collect();
    want_rows.push((gene.to_string(), interaction_partners("genes_genes", gene)));
    let seen: Vec<(String, Vec<String>)> = rows
        .iter()
        .map(|r| {
            let node = if r["gene"].is_null() {
                &r["protein"]
            } else {
                &r["gene"]
            };
            (
                node["_id"].as_str().unwrap().to_string(),
                ids(&r["related"]),
            )
        })
        .collect();
    assert_eq!(seen, want_rows);
    // The compact shapes: a protein with its UniProt names, a gene with its chromosome and id;
    // the dangling partner (PP002's ENSP99999999996) is left out.
    let doc = data().handle(gene).unwrap();
    let g = rows.last().unwrap();
    assert_eq!(g["protein"], Value::Null);
    assert_eq!(g["gene"]["chr"], doc["chr"]);
    assert_eq!(g["gene"]["gene_id"], doc["gene_id"]);
    // Members in the client's GeneCompact order (4.17's differs).
    let members: Vec<&str> = g["gene"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        members,
        [
            "_id",
            "chr",
            "gene_id",
            "hgnc",
            "name",
            "organism",
            "files_filesets"
        ]
    );
    assert_eq!(g["related"][0].as_object().unwrap().len(), members.len());
    assert_eq!(rows[0]["gene"], Value::Null);
    assert!(rows[0]["protein"]["uniprot_names"].is_array());
    assert!(!got.to_string().contains("ENSP99999999996"));
    // A protein query gives the protein's partners and its gene's.
    let by_protein = get_json("/genes-proteins/genes-proteins?query=ENSP90000000002");
    let nodes: Vec<Value> = by_protein
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            if r["gene"].is_null() {
                r["protein"]["_id"].clone()
            } else {
                r["gene"]["_id"].clone()
            }
        })
        .collect();
    assert_eq!(nodes, vec![json!("proteins/ENSP90000000002"), json!(gene)]);
    // Paging applies to each record's partners; records left without partners are dropped.
    let partners = interaction_partners("genes_genes", gene);
    assert!(partners.len() >= 2, "{partners:?}");
    let page = get_json("/genes-proteins/genes-proteins?query=TSTA1&page=1&limit=1");
    let page_rows: Vec<&Value> = page.as_array().unwrap().iter().collect();
    assert_eq!(page_rows.len(), 1, "{page}");
    assert_eq!(ids(&page_rows[0]["related"]), vec![partners[1].clone()]);
    assert_rows(
        &get_json("/genes-proteins/genes-proteins?query=no-such-gene"),
        &json!([]),
        "unknown",
        true,
    );
    assert_bad_request(
        "/genes-proteins/genes-proteins",
        &[("query is required", &["query"])],
    );
    assert_bad_request(
        "/genes-proteins/genes-proteins?query=TSTA1&limit=101",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
    );
}
