//! Building the bundled test collections: deterministic, budget-independent, correct counts,
//! `file:line` errors.

use std::path::{Path, PathBuf};

use varcat_format::collection::Collections;
use varcat_format::Catalog;
use varcat_indexer::{build, BuildError, Options};

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/catalog")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("varcat-indexer-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn count_lines(collection: &str) -> u64 {
    std::fs::read_dir(testdata())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.ends_with(".jsonl") && n.split('.').next() == Some(collection)
        })
        .map(|e| {
            std::fs::read_to_string(e.path())
                .unwrap()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .count() as u64
        })
        .sum()
}

#[test]
fn test_build_is_deterministic_and_budget_independent() {
    let dir = scratch("det");
    let a = dir.join("a.varcat");
    let b = dir.join("b.varcat");
    let report = build(&Options::new(&testdata(), &a)).unwrap();
    // A 16 KiB budget forces every sorter to spill many runs; the bytes must not change.
    let mut tiny = Options::new(&testdata(), &b);
    tiny.mem_budget = 16 << 10;
    let tiny_report = build(&tiny).unwrap();
    assert_eq!(report.spilled_runs, 0);
    assert!(
        tiny_report.spilled_runs > 100,
        "only {} runs spilled",
        tiny_report.spilled_runs
    );
    let (ba, bb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert!(ba == bb, "catalogs differ between budgets");
    // Parsing runs on worker threads and the `_key` FST on its own: the bytes must not depend
    // on how many.
    for threads in [1, 3] {
        let mut t = Options::new(&testdata(), &b);
        t.threads = threads;
        build(&t).unwrap();
        assert!(
            ba == std::fs::read(&b).unwrap(),
            "catalogs differ with {threads} threads"
        );
    }
    build(&Options::new(&testdata(), &b)).unwrap();
    assert!(
        ba == std::fs::read(&b).unwrap(),
        "catalogs differ between runs"
    );

    // Every document of a node collection is stored once (the fixture has no duplicate keys).
    for c in [
        "genes",
        "transcripts",
        "proteins",
        "genes_structure",
        "mm_genes",
    ] {
        assert_eq!(report.documents[c], count_lines(c), "{c}");
    }
    let cat = Collections::open(Catalog::open(&a).unwrap()).unwrap();
    assert_eq!(cat.get("genes").unwrap().len() as u64, count_lines("genes"));
    // transcripts_proteins edges have no _key: they get `<from> <to>`.
    let tp = cat.get("transcripts_proteins").unwrap();
    assert!(tp
        .ord("transcripts/ENST00000353224 proteins/ENSP00000322957")
        .is_some());
    // The hand-made dangling edge is counted.
    assert!(report
        .dangling
        .keys()
        .any(|(c, f, t)| c == "genes_transcripts" && f == "_from" && t == "genes"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn test_malformed_line_names_file_and_line() {
    let dir = scratch("bad");
    let input = dir.join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(
        input.join("genes.jsonl"),
        "{\"_key\": \"G1\", \"name\": \"A\"}\n\n{\"_key\": \"G2\", \"name\": \n",
    )
    .unwrap();
    let err = build(&Options::new(&input, &dir.join("x.varcat"))).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, BuildError::Input { line: 3, .. }), "{msg}");
    assert!(msg.contains("genes.jsonl:3:"), "{msg}");
    assert!(!dir.join("x.varcat").exists());

    std::fs::write(input.join("genes.jsonl"), "{\"name\": \"no key\"}\n").unwrap();
    let msg = build(&Options::new(&input, &dir.join("x.varcat")))
        .unwrap_err()
        .to_string();
    assert!(msg.contains("genes.jsonl:1: document has no _key"), "{msg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn test_duplicates_merge_and_strict_refuses() {
    let dir = scratch("dup");
    let input = dir.join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(
        input.join("genes.jsonl"),
        "{\"_key\": \"G1\", \"name\": \"A\", \"chr\": \"chr1\"}\n{\"_key\": \"G1\", \"name\": \"B\", \"start\": 5.0, \"mystery\": 1}\n{\"_key\": \"G0\", \"name\": NaN}\n",
    )
    .unwrap();
    std::fs::write(input.join("unheard_of.jsonl"), "{\"_key\": \"x\"}\n").unwrap();
    let out = dir.join("x.varcat");
    let report = build(&Options::new(&input, &out)).unwrap();
    assert_eq!(report.merged["genes"], 1);
    assert_eq!(report.non_finite, 1);
    assert!(report.warnings().iter().any(|w| w.contains("unheard_of")));
    assert!(report.warnings().iter().any(|w| w.contains("mystery")));
    let cat = Collections::open(Catalog::open(&out).unwrap()).unwrap();
    let g = cat.get("genes").unwrap();
    let o = g.ord("G1").unwrap();
    // Later top-level members win; earlier ones not overwritten stay.
    assert_eq!(g.string(o, "name").as_deref(), Some("B"));
    assert_eq!(g.string(o, "chr").as_deref(), Some("chr1"));
    assert_eq!(g.value(o, "start"), Some(&b"5"[..]));
    assert_eq!(g.value(g.ord("G0").unwrap(), "name"), None);

    let mut strict = Options::new(&input, &out);
    strict.strict = true;
    let msg = build(&strict).unwrap_err().to_string();
    assert!(msg.contains("genes.jsonl:2: duplicate _key G1"), "{msg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn test_gzip_input_gives_the_same_catalog() {
    use std::io::Write;
    let dir = scratch("gz");
    let (plain, gz) = (dir.join("plain"), dir.join("gz"));
    std::fs::create_dir_all(&plain).unwrap();
    std::fs::create_dir_all(&gz).unwrap();
    let text = std::fs::read(testdata().join("genes.jsonl")).unwrap();
    std::fs::write(plain.join("genes.jsonl"), &text).unwrap();
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&text).unwrap();
    std::fs::write(gz.join("genes.jsonl.gz"), enc.finish().unwrap()).unwrap();
    build(&Options::new(&plain, &dir.join("a.varcat"))).unwrap();
    build(&Options::new(&gz, &dir.join("b.varcat"))).unwrap();
    let a = Collections::open(Catalog::open(&dir.join("a.varcat")).unwrap()).unwrap();
    let b = Collections::open(Catalog::open(&dir.join("b.varcat")).unwrap()).unwrap();
    // Same records (the metadata differs only in the input file names and checksums).
    let (ga, gb) = (a.get("genes").unwrap(), b.get("genes").unwrap());
    assert_eq!(ga.len(), gb.len());
    for o in 0..ga.len() {
        assert_eq!(
            ga.record(o).unwrap().members().collect::<Vec<_>>(),
            gb.record(o).unwrap().members().collect::<Vec<_>>()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn test_digest_keys_packed_keyless_edges_numbered_dropped_members_unparsed() {
    let dir = scratch("keys");
    let input = dir.join("in");
    std::fs::create_dir_all(&input).unwrap();
    let (d1, d2) = ("0a".repeat(32), "fb".repeat(32));
    std::fs::write(
        input.join("variants_variants.jsonl"),
        format!(
            "{{\"_key\": \"{d2}\", \"_from\": \"variants/A\", \"_to\": \"variants/B\", \"r2\": 0.5}}\n\
             {{\"_key\": \"{d1}\", \"_from\": \"variants/B\", \"_to\": \"variants/C\", \"r2\": 0.7}}\n"
        ),
    )
    .unwrap();
    // Keyless repeated pairs stay distinct; a number beyond f64 in a member nobody keeps does
    // not stop the build (it is checked for syntax only).
    std::fs::write(
        input.join("genes_transcripts.jsonl"),
        "{\"_from\": \"genes/G1\", \"_to\": \"transcripts/T1\", \"mystery\": 1e999}\n\
         {\"_from\": \"genes/G1\", \"_to\": \"transcripts/T1\"}\n",
    )
    .unwrap();
    let out = dir.join("x.varcat");
    let report = build(&Options::new(&input, &out)).unwrap();
    assert!(report.warnings().iter().any(|w| w.contains("mystery")));
    let cat = Collections::open(Catalog::open(&out).unwrap()).unwrap();

    let ld = cat.get("variants_variants").unwrap();
    assert_eq!(ld.meta.key_encoding, varcat_format::KeyEncoding::Hex);
    // Ordinals follow the keys' text order, and lookups take the text.
    assert_eq!((ld.ord(&d1), ld.ord(&d2)), (Some(0), Some(1)));
    assert_eq!(ld.ord(&d1.to_uppercase()), None);
    assert_eq!(ld.ord("variants/A variants/B"), None);
    assert_eq!(ld.value(1, "r2"), Some(&b"0.5"[..]));

    let gt = cat.get("genes_transcripts").unwrap();
    assert_eq!(gt.meta.key_encoding, varcat_format::KeyEncoding::Text);
    let first = gt.ord("genes/G1 transcripts/T1").unwrap();
    let second = gt.ord("genes/G1 transcripts/T1 #000002").unwrap();
    assert_ne!(first, second);

    // The same number in a kept member is an error that names the member.
    std::fs::write(
        input.join("variants_variants.jsonl"),
        format!("{{\"_key\": \"{d1}\", \"_from\": \"variants/A\", \"_to\": \"variants/B\", \"r2\": 1e999}}\n"),
    )
    .unwrap();
    let msg = build(&Options::new(&input, &out)).unwrap_err().to_string();
    assert!(
        msg.contains("variants_variants.jsonl:1: invalid JSON in member r2"),
        "{msg}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn test_reference_checks_agree_with_and_without_key_sets() {
    use varcat_indexer::derive::Ctx;
    use varcat_indexer::keyset::KeySet;
    let dir = scratch("keysets");
    let out = dir.join("c.varcat");
    build(&Options::new(&testdata(), &out)).unwrap();
    let cat = Collections::open(Catalog::open(&out).unwrap()).unwrap();
    let (mut with, mut without) = (Ctx::default(), Ctx::default());
    for cm in &cat.meta.collections {
        let c = cat.get(&cm.name).unwrap();
        with.built.insert(cm.name.clone(), c.clone());
        without.built.insert(cm.name.clone(), c.clone());
        if cm.kind == "node" {
            let s = KeySet::for_collection(c, usize::MAX).expect("no fingerprint collision");
            assert!(KeySet::for_collection(c, KeySet::size(c.len() as usize) - 1).is_none());
            with.key_sets.insert(cm.name.clone(), s);
        }
    }
    assert!(with.key_sets.contains_key("genes"));
    let (mut checked, mut dangling) = (0, 0);
    for cm in cat.meta.collections.iter().filter(|cm| cm.kind == "edge") {
        let c = cat.get(&cm.name).unwrap();
        for ord in 0..c.len() {
            for end in ["_from", "_to"] {
                let Some(h) = c.string(ord, end) else {
                    continue;
                };
                let want = without.resolve(&h).is_some();
                assert_eq!(with.exists(&h), want, "{} {end} {h}", cm.name);
                assert_eq!(without.exists(&h), want, "{} {end} {h}", cm.name);
                checked += 1;
                dangling += usize::from(!want);
            }
        }
    }
    // The fixture's edges point both at nodes it has and at nodes it lacks.
    assert!(checked > 1000 && dangling > 100, "{checked} {dangling}");
    assert!(!with.exists("genes/no-such-gene") && !with.exists("no_such_collection/x"));
    std::fs::remove_dir_all(&dir).unwrap();
}
