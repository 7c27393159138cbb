//! Fuzz entry points, shared by the cargo-fuzz targets in `fuzz/` and the seed-replay test.
//! Each checks invariants and panics only when one is broken (which the fuzzer reports).

use std::fmt::{Debug, Display};
use std::str::FromStr;

use varcat_query::parse::ident::{HgncId, TermId};
use varcat_query::parse::region::Region;
use varcat_query::parse::threshold::Threshold;
use varcat_query::parse::variant::{CaId, Hgvs, Rsid, Spdi, VariantId};
use varcat_query::query::{RawQuery, MAX_PARAMS};

/// Query-string decoding: never panics; accepted pairs are unique, trimmed and non-empty.
pub fn query_string(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(q) = RawQuery::parse(s) {
        assert!(q.pairs.len() <= MAX_PARAMS);
        for (i, (n, v)) in q.pairs.iter().enumerate() {
            assert!(!v.is_empty() && v.trim() == v, "value not trimmed: {v:?}");
            assert!(q.pairs[..i].iter().all(|(m, _)| m != n), "duplicate {n}");
        }
    }
}

/// `s` as a `T`: never panics; an accepted value's text form parses back to the same value,
/// and a refusal says why.
fn round_trip<T>(s: &str)
where
    T: FromStr + Display + PartialEq + Debug,
    T::Err: Display,
{
    match s.parse::<T>() {
        Ok(x) => {
            let text = x.to_string();
            match text.parse::<T>() {
                Ok(again) => assert_eq!(again, x, "{s:?} is written {text:?}"),
                Err(e) => panic!("{s:?} is written {text:?}, which is refused: {e}"),
            }
        }
        Err(e) => assert!(
            !e.to_string().is_empty(),
            "{s:?}: a refusal without a reason"
        ),
    }
}

/// Region parsing: never panics; an accepted region round-trips through its text form and
/// has start < end.
pub fn region(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    round_trip::<Region>(s);
    if let Ok(r) = s.parse::<Region>() {
        assert!(r.start() < r.end());
    }
}

/// Every other request value type (threshold, SPDI, HGVS, rsid, CA id, variant key, ontology
/// term id, HGNC id), picked by the first byte, with the same invariants as [`region`].
pub fn values(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let Ok(s) = std::str::from_utf8(rest) else {
        return;
    };
    let checks: [fn(&str); 8] = [
        round_trip::<Threshold>,
        round_trip::<Spdi>,
        round_trip::<Hgvs>,
        round_trip::<Rsid>,
        round_trip::<CaId>,
        round_trip::<VariantId>,
        round_trip::<TermId>,
        round_trip::<HgncId>,
    ];
    checks[sel as usize % checks.len()](s);
}

/// Typed parameter parsing for every endpoint: never panics; every error has issues naming
/// what is wrong.
pub fn params(data: &[u8]) {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let Ok(s) = std::str::from_utf8(rest) else {
        return;
    };
    let eps = varcat_query::api::ENDPOINTS;
    let ep = &eps[sel as usize % eps.len()];
    match RawQuery::parse(s).and_then(|raw| varcat_query::params::parse(&ep.accepts, &raw, &[])) {
        Ok(p) => {
            if let varcat_query::params::Paging::Paged { max, .. } = ep.accepts.paging {
                assert!(p.limit >= 1 && p.limit <= max as u64);
            }
        }
        Err(e) => {
            assert_eq!(e.status, 400);
            assert!(!e.issues.is_empty());
        }
    }
}

/// A valid adjacency table: a dense target `a`, a sparse one `b` spanning several fences, a
/// handle-only one `h`; list addresses are inline ordinals (no postings needed).
fn sample_adjacency() -> Vec<u8> {
    use varcat_format::adjacency::{self, TargetLists};
    use varcat_format::postings::INLINE_BIT;
    let t = |name: &str, nodes: u64, lists: Vec<(u64, u64)>| {
        TargetLists::in_memory(name, nodes, name != "h", &lists)
    };
    let mut targets = [
        t("a", 4, (0..3).map(|o| (o, INLINE_BIT | o)).collect()),
        t(
            "b",
            100_000,
            (0..3000).map(|i| (i * 31, INLINE_BIT | i)).collect(),
        ),
        t("h", 0, Vec::new()),
    ];
    adjacency::write(Vec::new(), &mut targets).expect("sorted sample")
}

/// Adjacency tables from arbitrary bytes: opened or refused, never a panic, and every lookup
/// of an opened one answers. Mode byte even: the bytes are the table (and its postings). Odd:
/// 5-byte records (offset u32, xor mask) alter the valid sample; unaltered, it answers as
/// written.
pub fn adjacency(data: &[u8]) {
    use varcat_format::adjacency::Adjacency;
    use varcat_format::bytes::Bytes;
    use varcat_format::fstmap::MultiMap;
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let table = if mode % 2 == 0 {
        rest.to_vec()
    } else {
        let mut t = sample_adjacency();
        let len = t.len();
        for c in rest.chunks_exact(5) {
            t[u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as usize % len] ^= c[4];
        }
        t
    };
    let intact = mode % 2 == 1 && rest.len() < 5;
    let opened = Adjacency::open(
        Bytes::from_vec(table),
        Bytes::from_vec(rest.to_vec()),
        MultiMap::empty(),
        "fuzz",
    );
    let Ok(a) = opened else {
        assert!(!intact, "the valid sample is refused");
        return;
    };
    let names: Vec<String> = a.targets().map(str::to_string).collect();
    for t in &names {
        for o in [
            0,
            1,
            2,
            3,
            31,
            62,
            1023 * 31,
            2999 * 31,
            100_000,
            u32::MAX as u64,
            1 << 40,
            u64::MAX,
        ] {
            let _ = a.of(t, o).map(|l| l.iter().count());
        }
        let _ = a.nodes(t).take(5000).count();
        let _ = a.get(&format!("{t}/k"));
    }
    if intact {
        assert_eq!(names, ["a", "b", "h"]);
        assert_eq!(a.of("b", 1023 * 31).map(|l| l.get(0)), Some(1023));
        assert!(a.of("b", 1).is_none() && a.of("a", 3).is_none() && a.by_handle_only("h"));
    }
}

/// A small valid catalog (genes, transcripts and their edges), built once per process.
pub fn small_catalog() -> &'static [u8] {
    static CAT: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    CAT.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("varcat-fuzz-catalog-{}", std::process::id()));
        let input = dir.join("in");
        std::fs::create_dir_all(&input).expect("temp dir");
        std::fs::write(input.join("genes.jsonl"), SMALL_GENES).expect("write");
        std::fs::write(input.join("transcripts.jsonl"), SMALL_TRANSCRIPTS).expect("write");
        std::fs::write(input.join("genes_transcripts.jsonl"), SMALL_EDGES).expect("write");
        std::fs::write(input.join("variants_genes.jsonl"), SMALL_EQTLS).expect("write");
        let out = dir.join("small.varcat");
        varcat_indexer::build(&varcat_indexer::Options::new(&input, &out))
            .expect("small catalog builds");
        let bytes = std::fs::read(&out).expect("read");
        let _ = std::fs::remove_dir_all(&dir);
        bytes
    })
}

const SMALL_GENES: &str = r#"{"_key": "ENSG1", "chr": "chr1", "start": 100, "end": 900, "name": "ABC-1", "gene_type": "protein_coding", "hgnc": "HGNC:1", "synonyms": ["X", null]}
{"_key": "ENSG2", "chr": "chr2", "start": 5.0, "end": 50, "name": "DEF"}
"#;
const SMALL_TRANSCRIPTS: &str = r#"{"_key": "ENST1", "chr": "chr1", "start": 100, "end": 500, "transcript_type": "protein_coding"}
"#;
const SMALL_EDGES: &str = r#"{"_key": "e1", "_from": "genes/ENSG1", "_to": "transcripts/ENST1", "name": "transcribes", "inverse_name": "transcribed by"}
{"_from": "genes/ENSG9", "_to": "transcripts/ENST9"}
"#;

/// Edges of a clustered store (`variants_genes`, stored by `_to`): its slots are fuzzed too.
const SMALL_EQTLS: &str = r#"{"_key": "q1", "_from": "variants/NC_000001.11:100:A:G", "_to": "genes/ENSG2", "label": "eQTL", "neg_log10_pvalue": 3.5}
{"_key": "q2", "_from": "variants/NC_000001.11:200:C:T", "_to": "genes/ENSG1", "label": "eQTL"}
{"_key": "q3", "_from": "variants/NC_000001.11:300:G:A", "_to": "genes/ENSG2", "label": "splice_QTL"}
"#;

/// Opening a catalog from arbitrary bytes: never panics, never accepts garbage silently.
/// Mode byte 0: the bytes are the file. Mode 1: 5-byte records (offset u32, xor mask) mutate
/// the small valid catalog, and a trailing byte cuts it, so the fuzzer reaches every check
/// rather than stopping at the magic. Mode 2: like 1 without the cut, then the checksums are
/// recomputed so corrupt contents reach the section readers themselves (FST sections are left
/// intact: `fst` may panic on corrupt bytes, which verification and the request panic boundary
/// contain).
pub fn catalog_open(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let bytes = if mode % 3 == 0 {
        rest.to_vec()
    } else if mode % 3 == 2 {
        let mut b = small_catalog().to_vec();
        let fst_ranges: Vec<(usize, usize)> = varcat_format::Catalog::from_vec(b.clone())
            .map(|c| {
                c.sections()
                    .iter()
                    .filter(|e| e.name.ends_with(".fst") || e.name.ends_with(".key"))
                    .map(|e| (e.offset as usize, (e.offset + e.len) as usize))
                    .collect()
            })
            .unwrap_or_default();
        let body_end = b.len().saturating_sub(48);
        for c in rest.chunks_exact(5) {
            let off = u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as usize % body_end.max(1);
            if !fst_ranges.iter().any(|(s, e)| (*s..*e).contains(&off)) {
                b[off] ^= c[4];
            }
        }
        if !varcat_format::layout::reseal(&mut b) {
            return;
        }
        b
    } else {
        let mut b = small_catalog().to_vec();
        let chunks = rest.chunks_exact(5);
        if let [cut] = chunks.remainder() {
            let keep = b.len() * (*cut as usize) / 256;
            b.truncate(keep.max(1));
        }
        for c in chunks {
            let off = u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as usize % b.len();
            b[off] ^= c[4];
        }
        b
    };
    if let Ok(c) = varcat_format::Catalog::from_vec(bytes) {
        // On the calling thread: `verify` starts a thread per core for every input, and a
        // thread still running its thread-local destructors when the input returns is a leak
        // to LeakSanitizer (32 bytes from `__cxa_thread_atexit_impl`, seed `lsan-verify-thread`).
        if c.verify_with(1).is_ok() {
            if let Ok(colls) = varcat_format::collection::Collections::open(c) {
                // Read every record and index of what opened.
                for cm in &colls.meta.collections {
                    let Some(coll) = colls.get(&cm.name) else {
                        continue;
                    };
                    // The one-pass reads (annotate's) first: a record read whole is cached,
                    // and the pass reads only encoded records.
                    let store = coll.record_store();
                    let top: Vec<u16> = (0..256).collect();
                    let objects: Vec<(u16, Vec<bool>)> = (0..256u16)
                        .filter_map(|f| {
                            let names = store.codebook().inner_names(f)?;
                            Some((f, vec![true; names.len()]))
                        })
                        .collect();
                    for o in 0..coll.len() {
                        let _ = store.visit(o, &top, None, |_| {});
                        for (f, want) in &objects {
                            let _ = store.visit(o, &top, Some((*f, want)), |_| {});
                        }
                        if let Some(r) = coll.record(o) {
                            let _ = r.members().count();
                        }
                    }
                    if let Some(ix) = coll.intervals() {
                        let _ = ix.overlapping("chr1", 0, u32::MAX);
                    }
                }
            }
        }
    }
}

/// The bundled sample catalog (`testdata/catalog`), built once per process through a temporary
/// directory and held in memory.
pub fn sample_catalog() -> &'static varcat_format::Catalog {
    static CAT: std::sync::OnceLock<varcat_format::Catalog> = std::sync::OnceLock::new();
    CAT.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("varcat-fuzz-sample-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let out = dir.join("sample.varcat");
        let mut opts = varcat_indexer::Options::new(&crate::sample::input_dir(), &out);
        opts.progress = false;
        varcat_indexer::build(&opts).expect("sample catalog builds");
        let bytes = std::fs::read(&out).expect("read");
        let _ = std::fs::remove_dir_all(&dir);
        varcat_format::Catalog::from_vec(bytes).expect("sample catalog opens")
    })
}

/// The sample catalog served by an [`varcat_server::http::App`] under `/api`.
pub fn sample_app() -> &'static varcat_server::http::App {
    static APP: std::sync::OnceLock<varcat_server::http::App> = std::sync::OnceLock::new();
    APP.get_or_init(|| {
        let loaded = varcat_server::http::Loaded::from_catalog(sample_catalog().clone(), None)
            .expect("sample catalog loads");
        varcat_server::http::App::new(loaded, "/api")
    })
}

/// The sample catalog's collections, opened once (the fuzz target opens them before its first
/// input, whose time limit the build would pass).
pub fn sample_collections() -> &'static varcat_format::collection::Collections {
    static COLS: std::sync::OnceLock<varcat_format::collection::Collections> =
        std::sync::OnceLock::new();
    COLS.get_or_init(|| {
        varcat_format::collection::Collections::open(sample_catalog().clone())
            .expect("sample collections open")
    })
}

/// `varcat annotate` on arbitrary input bytes (VCF text, BGZF, gzip or BCF: whatever they
/// are) with the sample catalog: the first byte picks the output format (VCF, BGZF VCF, BCF)
/// and `--lenient`, the rest is the input. Never panics; a refusal is one line that names the
/// input; what is accepted leaves exactly the output file and no temporary one.
pub fn annotate(data: &[u8]) {
    use varcat_annotate::output::OutFormat;
    let cols = sample_collections();
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("varcat-fuzz-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (format, name) = match pick % 3 {
        0 => (OutFormat::Vcf, "out.vcf"),
        1 => (OutFormat::VcfGz, "out.vcf.gz"),
        _ => (OutFormat::Bcf, "out.bcf"),
    };
    let out = dir.join(name);
    for e in std::fs::read_dir(&dir).expect("read temp dir") {
        let _ = std::fs::remove_file(e.expect("entry").path());
    }
    let opts = varcat_annotate::Options {
        input: "fuzz-input".into(),
        output: out.clone(),
        format: Some(format),
        catalog: "sample".into(),
        fields: varcat_annotate::fields::parse("all").expect("all fields"),
        prefix: "VARCAT_".into(),
        threads: 1 + usize::from(pick & 8 != 0),
        assume_grch38: true,
        lenient: pick & 4 != 0,
        window: 100,
        command: "fuzz".into(),
        timings: false,
        rules: varcat_annotate::input::Rules {
            allow_missing_eof: pick & 16 != 0,
            max_line: 1 << 16,
        },
    };
    let result = varcat_annotate::input::from_bytes(input.to_vec(), "fuzz-input", opts.rules)
        .and_then(|i| varcat_annotate::annotate(&opts, cols, i));
    let left: Vec<String> = std::fs::read_dir(&dir)
        .expect("read temp dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    match result {
        Ok(_) => assert!(
            left.iter()
                .all(|n| n == name || n == &format!("{name}.tbi") || n == &format!("{name}.csi")),
            "accepted, but left {left:?}"
        ),
        Err(e) => {
            assert!(left.is_empty(), "refused ({e}), but left {left:?}");
            assert!(!e.contains('\n'), "a refusal of more than one line: {e}");
            assert!(
                e.starts_with("fuzz-input") || e.starts_with("writing"),
                "a refusal that does not name the input: {e}"
            );
        }
    }
}

/// The URL and method a `request` input stands for. An input starting with `/` is the whole
/// URL (GET). Otherwise the first byte picks the endpoint (or `/api/health`; HEAD when its
/// high bit is set) and the rest is the query string; for an endpoint with path parameters,
/// the text before the first `?` gives them, separated by `/`.
pub fn request_url(data: &[u8]) -> Option<(&'static str, String)> {
    let s = std::str::from_utf8(data).ok()?;
    if s.starts_with('/') {
        return Some(("GET", s.to_string()));
    }
    let (&sel, rest) = data.split_first()?;
    let rest = std::str::from_utf8(rest).ok()?;
    let method = if sel & 0x80 != 0 { "HEAD" } else { "GET" };
    let eps = varcat_query::api::ENDPOINTS;
    let i = (sel & 0x7f) as usize % (eps.len() + 1);
    let Some(ep) = eps.get(i) else {
        return Some((method, format!("/api/health?{rest}")));
    };
    let (mut segs, query) = if ep.path.contains('{') {
        let (p, q) = rest.split_once('?').unwrap_or((rest, ""));
        (p.split('/').collect::<Vec<_>>().into_iter(), q)
    } else {
        (Vec::new().into_iter(), rest)
    };
    let path: Vec<&str> = ep
        .path
        .split('/')
        .map(|t| {
            if t.starts_with('{') {
                segs.next().unwrap_or("X")
            } else {
                t
            }
        })
        .collect();
    Some((method, format!("/api{}?{query}", path.join("/"))))
}

/// The full request path (`path?query` → router → parameters → handler → JSON) on the sample
/// catalog: never a 500, only the statuses of the interface, a JSON body of the right form,
/// and the same answer twice.
pub fn request(data: &[u8]) {
    request_with(sample_app(), data)
}

/// [`request`] on a given application.
pub fn request_with(app: &varcat_server::http::App, data: &[u8]) {
    let Some((method, url)) = request_url(data) else {
        return;
    };
    let req = varcat_server::http::Request {
        method,
        url: &url,
        ..Default::default()
    };
    let r = app.handle(&req);
    let body = String::from_utf8_lossy(&r.body);
    assert_ne!(r.status, 500, "{method} {url:?}: {body}");
    assert!(
        matches!(r.status, 200 | 400 | 404 | 405),
        "{method} {url:?}: status {}",
        r.status
    );
    if r.header("Content-Type") == Some("text/html; charset=utf-8") {
        // The landing page (`/`).
        assert_eq!(r.status, 200, "{url:?}");
        assert!(std::str::from_utf8(&r.body).is_ok(), "{url:?}");
        return;
    }
    assert_eq!(
        r.header("Content-Type"),
        Some("application/json"),
        "{url:?}"
    );
    let v: serde_json::Value = serde_json::from_slice(&r.body)
        .unwrap_or_else(|e| panic!("{method} {url:?}: body is not JSON ({e}): {body}"));
    if r.status == 200 {
        assert!(v.is_array() || v.is_object(), "{url:?}: {body}");
    } else {
        assert!(v["message"].is_string(), "{url:?}: {body}");
        assert!(v["code"].is_string(), "{url:?}: {body}");
        if r.status == 400 {
            let issues = v["issues"].as_array().expect("400 has issues");
            assert!(!issues.is_empty(), "{url:?}: {body}");
            for i in issues {
                assert!(i["message"].is_string() && i["path"].is_array(), "{url:?}");
            }
        }
    }
    let again = app.handle(&req);
    assert_eq!(again.status, r.status, "{url:?}: not deterministic");
    assert!(again.body == r.body, "{url:?}: not deterministic");
}
