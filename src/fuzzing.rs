//! Fuzz entry points, shared by the cargo-fuzz targets in `fuzz/` and the seed-replay test.
//! Each checks invariants and panics only when one is broken (which the fuzzer reports).

use crate::parse::region::Region;
use crate::query::{RawQuery, MAX_PARAMS};

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

/// Region parsing: never panics; an accepted region round-trips through its text form and
/// has start < end.
pub fn region(data: &[u8]) {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(r) = s.parse::<Region>() {
        assert!(r.start < r.end);
        let again: Region = r.to_string().parse().expect("a region's text form parses");
        assert_eq!(again, r);
    }
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
    let eps = crate::api::ENDPOINTS;
    let ep = &eps[sel as usize % eps.len()];
    match RawQuery::parse(s).and_then(|raw| crate::params::parse(&ep.accepts, &raw, &[])) {
        Ok(p) => {
            if let crate::params::Paging::Paged { max, .. } = ep.accepts.paging {
                assert!(p.limit >= 1 && p.limit <= max as u64);
            }
        }
        Err(e) => {
            assert_eq!(e.status, 400);
            assert!(!e.issues.is_empty());
        }
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
        if c.verify().is_ok() {
            if let Ok(colls) = varcat_format::collection::Collections::open(c) {
                // Read every record and index of what opened.
                for cm in &colls.meta.collections {
                    let Some(coll) = colls.get(&cm.name) else {
                        continue;
                    };
                    for o in 0..coll.len() {
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
