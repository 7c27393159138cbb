//! TSV answers: `format=tsv` or `Accept: text/tab-separated-values` turns an answer's records
//! into rows under a header row from the endpoint's shape; errors stay JSON, an `Accept` varcat
//! cannot serve gets JSON. Every cell reads back, with the README's recipe, as the JSON answer's
//! value, hostile values included, and no string cell starts with a formula character.

use std::process::Command;

use varcat::api::{Body, ENDPOINTS};
use varcat::http::{App, Loaded};

use crate::util::{assert_bad_request, build_command, catalog, request, scratch, server};

const TSV: &str = "text/tab-separated-values; charset=utf-8";

fn get(target: &str, headers: &[(&str, &str)]) -> crate::util::Resp {
    let r = request(&server().addr, "GET", target, headers);
    assert_eq!(r.status, 200, "{target}: {}", r.text());
    r
}

fn tsv(target: &str) -> String {
    let r = get(target, &[]);
    assert_eq!(r.header("Content-Type"), Some(TSV), "{target}");
    r.text()
}

const GENE_HEADER: &str = "_id\tchr\tstart\tend\tgene_type\tname\tstrand\thgnc\tentrez\t\
                           collections\tstudy_sets\tsource\tversion\tsource_url\tsynonyms\n";

#[test]
fn test_tsv_of_a_node_an_edge_and_a_verbose_answer() {
    // A node: nulls are `\N`, an array of strings is its JSON text, a strand `+` stays as it is.
    assert_eq!(
        tsv("/api/genes?name=TSTA1&format=tsv"),
        format!(
            "{GENE_HEADER}ENSG90000000001\tchr1\t10000\t20000\tprotein_coding\tTSTA1\t+\t\
             HGNC:900001\t\\N\t\\N\t\\N\tvarcat-testdata\tv1\t\
             https://example.org/varcat-testdata\t[\"TSTALPHA\"]\n"
        )
    );
    // An edge: numbers keep their stored text (5.0, 0.00001).
    assert_eq!(
        tsv("/api/variants/genes?rsid=rs900001&limit=1&format=tsv"),
        "gene\tsequence_variant\tintron_chr\tintron_start\tintron_end\teffect_size\t\
         neg_log10_pvalue\tneg_log10_pvalue_adj\tlog2FC\tposterior_inclusion_probability\t\
         coefficient_stddev\tpower\tsignificant\tstandard_error\tz_score\tcredible_set_min_r2\t\
         method\tcrispr_modality\tsource\tsource_url\tlabel\tp_value\tchr\tbiological_context\t\
         biosample_term\tstudy\tname\tclass\tfiles_filesets\n\
         genes/ENSG90000000001\tvariants/NC_000001.11:15000:A:G\t\\N\t\\N\t\\N\t0.4\t5.0\t\\N\t\
         \\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\teQTL\t\\N\tAFGR\t\
         https://example.org/varcat-testdata\teQTL\t0.00001\tchr1\tlymphoblastoid cell line\t\
         ontology_terms/EFO_0002784\t\\N\tmodulates expression of\tobserved data\t\
         files_filesets/IGVFFI9000AFGR\n"
    );
    // Verbose: the expanded reference is its own column (null: the record is there), then the
    // record's dotted columns.
    assert_eq!(
        tsv("/api/genes/transcripts?gene_id=ENSG90000000001&verbose=true&limit=1&format=tsv"),
        "source\tsource_url\tversion\tgene\ttranscript\ttranscript._id\t\
         transcript.transcript_type\t\
         transcript.chr\ttranscript.start\ttranscript.end\ttranscript.strand\ttranscript.name\t\
         transcript.gene_name\ttranscript.refseq_transcript_ids\ttranscript.MANE_Select\t\
         transcript.source\ttranscript.version\ttranscript.source_url\tname\n\
         varcat-testdata\thttps://example.org/varcat-testdata\tv1\tgenes/ENSG90000000001\t\\N\t\
         ENST90000000001\tprotein_coding\tchr1\t10000\t20000\t+\tTSTA1-201\tTSTA1\t\\N\t\\N\t\
         varcat-testdata\tv1\thttps://example.org/varcat-testdata\ttranscribes\n"
    );
}

#[test]
fn test_empty_page_paging_and_caching() {
    // An empty page is the header row alone.
    assert_eq!(
        tsv("/api/genes?gene_type=lncRNA&page=1000&format=tsv"),
        GENE_HEADER
    );
    // Paging links keep `format=tsv`; every page has the same header.
    let first = get("/api/genes?gene_type=lncRNA&limit=1&format=tsv", &[]);
    assert_eq!(
        first.header("Link"),
        Some("</api/genes?gene_type=lncRNA&limit=1&format=tsv&page=1>; rel=\"next\"")
    );
    let second = tsv("/api/genes?gene_type=lncRNA&limit=1&format=tsv&page=1");
    assert!(first.text().starts_with(GENE_HEADER) && second.starts_with(GENE_HEADER));
    assert_eq!(
        (first.text().lines().count(), second.lines().count()),
        (2, 2)
    );
    assert_ne!(first.text(), second);
    // Each representation has its own entity tag, and caches are told to key on Accept.
    let json = get("/api/genes?gene_type=lncRNA&limit=1", &[]);
    let (jt, tt) = (json.header("ETag").unwrap(), first.header("ETag").unwrap());
    assert_eq!(tt, format!("{}-tsv\"", jt.trim_end_matches('"')));
    assert_eq!(first.header("Vary"), Some("Accept, Accept-Encoding"));
    let target = "/api/genes?gene_type=lncRNA&limit=1&format=tsv";
    let addr = &server().addr;
    assert_eq!(
        request(addr, "GET", target, &[("If-None-Match", jt)]).status,
        200
    );
    assert_eq!(
        request(addr, "GET", target, &[("If-None-Match", tt)]).status,
        304
    );
}

#[test]
fn test_accept_header_negotiation() {
    let target = "/api/genes?name=TSTA1";
    let by_param = tsv("/api/genes?name=TSTA1&format=tsv");
    for accept in [
        "text/tab-separated-values",
        "application/json;q=0.5, text/tab-separated-values",
        "text/tab-separated-values, */*",
    ] {
        let r = get(target, &[("Accept", accept)]);
        assert_eq!(r.header("Content-Type"), Some(TSV), "{accept}");
        assert_eq!(r.text(), by_param, "{accept}");
    }
    // What varcat cannot serve, or prefers less, gets JSON (never a 406).
    for accept in [
        "text/csv",
        "application/xml",
        "text/html,application/xhtml+xml,*/*;q=0.8",
        "application/json, text/tab-separated-values;q=0.5",
        "text/tab-separated-values;q=0",
    ] {
        let r = get(target, &[("Accept", accept)]);
        assert_eq!(
            r.header("Content-Type"),
            Some("application/json"),
            "{accept}"
        );
    }
    // format=json wins over Accept.
    let r = get(
        "/api/genes?name=TSTA1&format=json",
        &[("Accept", "text/tab-separated-values")],
    );
    assert_eq!(r.header("Content-Type"), Some("application/json"));
    // An answer that is not records answers JSON to the header…
    let table = "/api/variants/predictions-count?rsid=rs900004";
    let r = get(table, &[("Accept", "text/tab-separated-values")]);
    assert_eq!(r.header("Content-Type"), Some("application/json"));
    // …and 400 to the parameter.
    assert_bad_request(
        "/variants/predictions-count?rsid=rs900004&format=tsv",
        &[(
            "format=tsv is not available on this endpoint (its answer is not a list of records)",
            &["format"],
        )],
    );
}

#[test]
fn test_errors_stay_json() {
    assert_bad_request(
        "/genes?name=TSTA1&format=csv",
        &[(
            "format must be one of 'json', 'tsv', got 'csv'",
            &["format"],
        )],
    );
    let r = request(
        &server().addr,
        "GET",
        "/api/genes?name=TSTA1&page=x&format=tsv",
        &[("Accept", "text/tab-separated-values")],
    );
    assert_eq!(r.status, 400);
    assert_eq!(r.header("Content-Type"), Some("application/json"));
    // `format` is a shared parameter: a near miss is suggested.
    assert_bad_request(
        "/genes?name=TSTA1&formt=tsv",
        &[(
            "unknown parameter `formt`; did you mean `format`?",
            &["formt"],
        )],
    );
}

/// Every example of every endpoint whose answer is records: as TSV, one row per record, every
/// row as wide as the header (answered in-process).
#[test]
fn test_every_record_example_has_one_full_row_per_record() {
    let app = App::new(Loaded::open(catalog(), false).unwrap(), "/api");
    let get = |url: &str| crate::util::get_ok(&app, url);
    let mut checked = 0;
    for ep in ENDPOINTS {
        if matches!(ep.body, Body::Numbers | Body::Table | Body::Any) {
            continue;
        }
        for example in ep.example_urls() {
            let url = format!("/api{example}");
            let records = match serde_json::from_slice(&get(&url).body).unwrap() {
                serde_json::Value::Array(a) => a.len(),
                _ => 1,
            };
            let sep = if url.contains('?') { '&' } else { '?' };
            let r = get(&format!("{url}{sep}format=tsv"));
            assert_eq!(r.header("Content-Type"), Some(TSV), "{url}");
            let text = String::from_utf8(r.body).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), records + 1, "{url}: rows");
            let width = lines[0].split('\t').count();
            for l in &lines {
                assert_eq!(l.split('\t').count(), width, "{url}: {l}");
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} examples");
}

#[test]
fn test_query_tsv_escapes_tab_newline_backslash_and_cr() {
    let dir = scratch("tsv-escapes");
    let input = dir.join("in");
    std::fs::create_dir_all(&input).unwrap();
    let gene = serde_json::json!({
        "_key": "ENSG99", "gene_id": "ENSG99.1", "gene_type": "protein_coding",
        "chr": "chr1", "start": 100, "end": 200, "strand": "+", "symbol": "ESC1",
        "name": "ESC1", "source": "a\tb\\c\nd\re", "version": "v1",
        "source_url": "https://example.org/x", "organism": "Homo sapiens",
        "synonyms": ["x\ty", "z"],
    });
    std::fs::write(input.join("genes.jsonl"), format!("{gene}\n")).unwrap();
    let cat = dir.join("esc.varcat");
    assert!(build_command(&input, &cat).status().unwrap().success());
    for args in [
        vec!["/genes?name=ESC1", "--tsv"],
        // `format=tsv` passes through; `--tsv` beside it adds nothing.
        vec!["/genes?name=ESC1&format=tsv"],
        vec!["/genes?name=ESC1&format=tsv", "--tsv"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_varcat"))
            .arg("query")
            .arg(&cat)
            .args(&args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            format!(
                "{GENE_HEADER}ENSG99\tchr1\t100\t200\tprotein_coding\tESC1\t+\t\\N\t\\N\t\\N\t\
                 \\N\ta\\tb\\\\c\\nd\\re\tv1\thttps://example.org/x\t[\"x\\ty\",\"z\"]\n"
            ),
            "{args:?}"
        );
    }
}
