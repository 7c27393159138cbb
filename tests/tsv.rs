//! TSV answers: `format=tsv` or `Accept: text/tab-separated-values` turns an answer's records
//! into rows under a header row from the endpoint's shape; errors stay JSON, an `Accept` varcat
//! cannot serve gets JSON. Every cell reads back, with the README's recipe, as the JSON answer's
//! value, hostile values included, and no string cell starts with a formula character.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};
use varcat_query::{api::ENDPOINTS, endpoint::Body};
use varcat_server::http::{App, Loaded};

use crate::harness::spawn;
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

/// Every example of every endpoint whose answer is records, plain and verbose: as TSV, one row
/// per record, every cell the JSON answer's value read back (answered in-process).
#[test]
fn test_every_record_example_reads_back_as_its_json() {
    let app = App::new(Loaded::open(catalog(), false).unwrap(), "/api");
    let get = |url: &str| crate::util::get_ok(&app, url);
    let mut checked = 0;
    for ep in ENDPOINTS {
        if matches!(ep.body, Body::Numbers | Body::Table | Body::Any) {
            continue;
        }
        for example in ep.example_urls() {
            for verbose in [false, true] {
                let mut url = format!("/api{example}");
                if verbose && !url.contains("verbose=") {
                    url.push(if url.contains('?') { '&' } else { '?' });
                    url.push_str("verbose=true");
                }
                let json: Value = serde_json::from_slice(&get(&url).body).unwrap();
                let sep = if url.contains('?') { '&' } else { '?' };
                let r = get(&format!("{url}{sep}format=tsv"));
                assert_eq!(r.header("Content-Type"), Some(TSV), "{url}");
                assert_reads_back(&url, &json, &String::from_utf8(r.body).unwrap());
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} examples");
}

/// Values a hostile or careless catalog holds: formula starts, quotes, every kind of control
/// character, escapes' look-alikes, commas, JSON look-alikes, a lone strand.
const NASTY: &[&str] = &[
    "=HYPERLINK(\"http://x\",\"click\")",
    "+/+ (A)",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "\"quoted\" start",
    "\ttab first",
    "\rcr first",
    "line\nbreak",
    "nul\0here",
    "esc\x1b[31mred",
    "c1\u{85}\u{9b}del\x7f",
    "back\\slash \\t",
    "\\N",
    "",
    "'=already",
    "'5' UTR",
    "[not json]",
    "{not json}",
    "a,b,c",
    "+",
    "-",
    "NA",
];

/// A catalog of genes, transcripts (a third of the links dangling), a variant and its effects
/// on the genes (negative numbers), all holding [`NASTY`] values.
fn hostile_catalog(dir: &Path) -> std::path::PathBuf {
    let input = dir.join("in");
    std::fs::create_dir_all(&input).unwrap();
    let nasty = |i: usize| NASTY[i % NASTY.len()];
    let (mut genes, mut transcripts, mut links, mut effects) = (vec![], vec![], vec![], vec![]);
    for i in 0..NASTY.len() {
        let key = format!("ENSG99{i:09}");
        let strand = ["+", "-"][i % 2];
        genes.push(json!({
            "_key": key, "gene_id": format!("{key}.1"), "gene_type": nasty(i + 1),
            "chr": "chr1", "start": 1000 + i, "end": 2000 + i, "strand": strand,
            "symbol": nasty(i), "name": nasty(i), "source": nasty(i + 2),
            "version": nasty(i + 3), "source_url": nasty(i + 4), "organism": "Homo sapiens",
            "hgnc": nasty(i + 5), "synonyms": [nasty(i), "x,y", "=1+1", nasty(i + 6)],
        }));
        let tkey = format!("ENST99{i:09}");
        transcripts.push(json!({
            "_key": tkey, "transcript_id": format!("{tkey}.1"), "name": nasty(i),
            "transcript_type": "protein_coding", "chr": "chr1", "start": 1000 + i,
            "end": 2000 + i, "strand": "+", "gene_name": nasty(i), "source": nasty(i + 1),
            "version": "v1", "source_url": "https://example.org", "organism": "Homo sapiens",
        }));
        let to = if i % 3 == 0 {
            format!("ENST98{i:09}")
        } else {
            tkey
        };
        links.push(json!({
            "_key": format!("{key}_{to}"), "_from": format!("genes/{key}"),
            "_to": format!("transcripts/{to}"), "name": nasty(i), "inverse_name": "x",
            "source": nasty(i + 1), "source_url": "https://example.org", "version": "v1",
            "organism": "Homo sapiens",
        }));
        effects.push(json!({
            "_key": format!("VG99{i}"), "_from": "variants/NC_000001.11:1500:A:G",
            "_to": format!("genes/{key}"), "chr": "chr1", "effect_size": -0.25 * i as f64,
            "log2FC": -1.5, "p_value": 1e-300, "source": nasty(i), "label": nasty(i + 1),
            "method": nasty(i + 2), "biological_context": nasty(i + 3),
            "source_url": "https://example.org", "name": "modulates expression of",
            "inverse_name": "expression modulated by",
        }));
    }
    let variant = json!({
        "_key": "NC_000001.11:1500:A:G", "name": "NC_000001.11:1500:A:G", "chr": "chr1",
        "pos": 1500, "ref": "A", "alt": "G", "variation_type": "SNP",
        "spdi": "NC_000001.11:1500:A:G", "hgvs": "NC_000001.11:g.1501A>G",
        "organism": "Homo sapiens", "rsid": ["rs990001"], "qual": ".", "source": "=cmd",
        "source_url": "https://example.org",
        "annotations": {"bravo_af": 0.1, "cadd_phred": -1.5},
    });
    for (name, docs) in [
        ("genes", genes),
        ("transcripts", transcripts),
        ("genes_transcripts", links),
        ("variants", vec![variant]),
        ("variants_genes", effects),
    ] {
        let text: String = docs.iter().map(|d| format!("{d}\n")).collect();
        std::fs::write(input.join(format!("{name}.jsonl")), text).unwrap();
    }
    let cat = dir.join("hostile.varcat");
    assert!(build_command(&input, &cat).status().unwrap().success());
    cat
}

#[test]
fn test_hostile_values_read_back_and_start_no_formula() {
    let dir = scratch("tsv-hostile");
    let srv = spawn(&hostile_catalog(&dir), &["--quiet"], None);
    let mut rows = 0;
    for url in [
        "/api/genes?region=chr1:1-100000&limit=100",
        "/api/genes/transcripts?region=chr1:1-100000&limit=100",
        "/api/genes/transcripts?region=chr1:1-100000&limit=100&verbose=true",
        "/api/transcripts?region=chr1:1-100000&limit=100",
        "/api/variants/genes?rsid=rs990001&limit=100",
        "/api/variants/genes?rsid=rs990001&limit=100&verbose=true",
        "/api/variants?rsid=rs990001",
    ] {
        let json = request(&srv.addr, "GET", url, &[]);
        let tsv = request(&srv.addr, "GET", &format!("{url}&format=tsv"), &[]);
        assert_eq!((json.status, tsv.status), (200, 200), "{url}");
        let json: Value = serde_json::from_slice(&json.body).unwrap();
        rows += json.as_array().map_or(1, Vec::len);
        assert_reads_back(url, &json, &tsv.text());
    }
    assert!(rows >= 4 * NASTY.len(), "only {rows} rows");
}

/// Checks the TSV of a JSON answer: one row per record; no raw control character; every cell,
/// read back as the README says, is the JSON value of its column (a number or a boolean read
/// as JSON text, as for a column the schema types so); no member is left without a column; no
/// string cell starts with a formula character or `"`.
fn assert_reads_back(url: &str, json: &Value, tsv: &str) {
    let records = match json {
        Value::Array(a) => a.clone(),
        one => vec![one.clone()],
    };
    let bad = tsv
        .chars()
        .find(|c| c.is_control() && !matches!(c, '\t' | '\n'));
    assert_eq!(bad, None, "{url}: a raw control character");
    let lines: Vec<&str> = tsv.strip_suffix('\n').unwrap().split('\n').collect();
    assert_eq!(lines.len(), records.len() + 1, "{url}: rows");
    let columns: Vec<&str> = lines[0].split('\t').collect();
    for (rec, line) in records.iter().zip(&lines[1..]) {
        let cells: Vec<&str> = line.split('\t').collect();
        assert_eq!(cells.len(), columns.len(), "{url}: {line}");
        assert_covered(url, rec, &columns, "");
        for (col, cell) in columns.iter().zip(cells) {
            let want = expected(rec, &columns, col);
            let got = match want {
                Value::Number(_) | Value::Bool(_) => serde_json::from_str(cell).unwrap(),
                _ => read_cell(cell),
            };
            assert!(
                same(&got, &want),
                "{url} {col}: read {got:?}, JSON has {want:?}"
            );
            if want.is_string() && !matches!(cell, "+" | "-") {
                let first = cell.chars().next();
                assert!(
                    !first.is_some_and(|c| "=+-@\"\t\r".contains(c)),
                    "{url} {col}: string cell {cell:?}"
                );
            }
        }
    }
}

/// A column's value in record `rec`: the member at its dotted path (null through a null or a
/// non-object); an expanded reference's own column holds it only when it is not an object.
fn expected(rec: &Value, columns: &[&str], col: &str) -> Value {
    let v = col
        .split('.')
        .try_fold(rec, |v, part| v.get(part))
        .cloned()
        .unwrap_or(Value::Null);
    let group = columns
        .iter()
        .any(|c| c.strip_prefix(col).is_some_and(|r| r.starts_with('.')));
    if group && v.is_object() {
        Value::Null
    } else {
        v
    }
}

/// Fails when a member of `rec` (below `prefix`) has no column: its value would be lost.
fn assert_covered(url: &str, rec: &Value, columns: &[&str], prefix: &str) {
    for (k, v) in rec.as_object().into_iter().flatten() {
        let name = format!("{prefix}{k}");
        let dotted = format!("{name}.");
        if v.is_object() && columns.iter().any(|c| c.starts_with(&dotted)) {
            assert_covered(url, v, columns, &dotted);
        } else {
            assert!(
                v.is_null() || columns.contains(&name.as_str()),
                "{url}: {name} lost"
            );
        }
    }
}

/// JSON equality with numbers compared as numbers (`5.0` is `5`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// A cell of any column but a number's or a boolean's, read back as the README's recipe does:
/// `\N` null; `[`/`{` JSON text; else a string with its escapes undone, then the formula
/// guard's `'` dropped.
fn read_cell(cell: &str) -> Value {
    if cell == "\\N" {
        return Value::Null;
    }
    if cell.starts_with(['[', '{']) {
        return serde_json::from_str(cell).unwrap();
    }
    let mut s = String::new();
    let mut chars = cell.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            s.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => s.push('\t'),
            Some('n') => s.push('\n'),
            Some('r') => s.push('\r'),
            Some('\\') => s.push('\\'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                s.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
            }
            other => panic!("unknown escape \\{other:?} in {cell:?}"),
        }
    }
    let guarded = s
        .strip_prefix('\'')
        .is_some_and(|r| r.trim_start_matches('\'').starts_with(GUARDED));
    if guarded {
        s.remove(0);
    }
    Value::String(s)
}

/// The characters the formula guard puts a `'` before (README, TSV).
const GUARDED: [char; 9] = ['=', '+', '-', '@', '"', '[', '{', '\t', '\r'];

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
