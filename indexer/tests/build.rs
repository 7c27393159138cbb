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
    assert_eq!(cat.get("genes").unwrap().len(), count_lines("genes"));
    // transcripts_proteins edges have no _key: they get `<from> <to>` (a record member; the
    // collection has no key map, nothing looks its edges up by key).
    let tp = cat.get("transcripts_proteins").unwrap();
    assert!(!tp.meta.keyed);
    assert!((0..tp.len()).any(|o| tp.string(o, "_key").as_deref()
        == Some("transcripts/ENST00000353224 proteins/ENSP00000322957")));
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
fn test_duplicates_keep_the_first_by_default_and_strict_refuses() {
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
    assert_eq!(report.duplicates_in("genes"), 1);
    let (n, first) = &report.duplicates["genes"][&varcat_indexer::OnDuplicate::Error];
    assert_eq!(*n, 1);
    assert!(first[0].ends_with("genes.jsonl:2"), "{first:?}");
    assert_eq!(report.non_finite, 1);
    assert!(report.warnings().iter().any(|w| w.contains("unheard_of")));
    assert!(report.warnings().iter().any(|w| w.contains("mystery")));
    let cat = Collections::open(Catalog::open(&out).unwrap()).unwrap();
    let g = cat.get("genes").unwrap();
    let o = g.ord("G1").unwrap();
    // As arangoimport's default: the first document is kept whole, the later one refused.
    assert_eq!(g.string(o, "name").as_deref(), Some("A"));
    assert_eq!(g.string(o, "chr").as_deref(), Some("chr1"));
    assert_eq!(g.value(o, "start"), None);
    assert_eq!(g.value(g.ord("G0").unwrap(), "name"), None);

    // Strict: an unknown collection is refused, naming its file.
    let mut strict = Options::new(&input, &out);
    strict.strict = true;
    let msg = build(&strict).unwrap_err().to_string();
    assert!(
        msg.contains("unheard_of.jsonl: unknown collection unheard_of (--strict)"),
        "{msg}"
    );
    std::fs::remove_file(input.join("unheard_of.jsonl")).unwrap();
    // Strict: the same duplicate (with coordinates that can be placed, which strict also
    // demands) is refused.
    std::fs::write(
        input.join("genes.jsonl"),
        "{\"_key\": \"G1\", \"chr\": \"chr1\", \"start\": 1, \"end\": 2}\n{\"_key\": \"G1\", \"chr\": \"chr1\", \"start\": 1, \"end\": 3}\n",
    )
    .unwrap();
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
    // Ordinals follow the keys' text order (d1's edge first), though the records do not hold
    // the keys (`Spec::key_stored: false`); the LD edges have no key map (nothing looks them
    // up by key), so no key finds them.
    assert_eq!(ld.value(0, "r2").as_deref(), Some(&b"0.7"[..]));
    assert_eq!(ld.value(1, "r2").as_deref(), Some(&b"0.5"[..]));
    assert_eq!((ld.value(0, "_key"), ld.value(1, "_key")), (None, None));
    assert!(!ld.meta.keyed);
    assert_eq!(ld.ord(&d1), None);
    assert_eq!(ld.ord(&d2), None);

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
fn test_handles_resolve_alike_with_and_without_key_indexes() {
    use varcat_format::build::keyindex::KeyIndex;
    use varcat_indexer::derive::Ctx;
    let dir = scratch("keyindexes");
    let out = dir.join("c.varcat");
    build(&Options::new(&testdata(), &out)).unwrap();
    let cat = Collections::open(Catalog::open(&out).unwrap()).unwrap();
    let (mut with, mut without) = (Ctx::default(), Ctx::default());
    let mut indexed = Vec::new();
    for cm in &cat.meta.collections {
        let c = cat.get(&cm.name).unwrap();
        if cm.kind == "node" && cm.keyed {
            let index = |room| KeyIndex::from_keys(c.len(), room, |add| c.for_each_key(add));
            let s = index(usize::MAX).expect("no fingerprint collision");
            assert!(index(KeyIndex::size(c.len() as usize) - 1).is_none());
            with.key_indexes
                .insert(cm.name.clone(), std::sync::Arc::new(s));
            indexed.push(cm.name.clone());
        }
        with.built.insert(cm.name.clone(), c.clone());
        without.built.insert(cm.name.clone(), c.clone());
    }
    assert!(indexed.iter().any(|n| n == "genes"), "{indexed:?}");
    let (mut checked, mut dangling) = (0, 0);
    for cm in cat.meta.collections.iter().filter(|cm| cm.kind == "edge") {
        let c = cat.get(&cm.name).unwrap();
        for ord in 0..c.len() {
            for end in ["_from", "_to"] {
                let Some(h) = c.string(ord, end) else {
                    continue;
                };
                let want = without.resolve(&h).map(|(_, o)| o);
                assert_eq!(
                    with.resolve(&h).map(|(_, o)| o),
                    want,
                    "{} {end} {h}",
                    cm.name
                );
                checked += 1;
                dangling += usize::from(want.is_none());
            }
        }
    }
    // The fixture's edges point both at nodes it has and at nodes it lacks.
    assert!(checked > 1000 && dangling > 100, "{checked} {dangling}");
    for name in &indexed {
        let c = with.get(name).unwrap();
        let mut keys = 0;
        c.for_each_key(|_, _| keys += 1);
        assert_eq!(keys, c.len(), "{}", c.name());
        // Every key finds its own ordinal, through a key lookup as joins make them too.
        let lookup = with.key_lookup(name).unwrap();
        assert!(lookup.index.is_some());
        assert!(
            c.key_lookup().unwrap().index.is_none(),
            "the read view holds no index"
        );
        for ord in (0..c.len()).step_by(7) {
            if let Some(k) = c.string(ord, "_key") {
                assert_eq!(lookup.ord(&k), Some(ord), "{} {k}", c.name());
            }
        }
    }
    assert!(with.resolve("genes/no-such-gene").is_none());
    assert!(with.resolve("no_such_collection/x").is_none());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writes `files` (name, text) into a fresh input directory of `dir`.
fn input(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
    let input = dir.join("in");
    let _ = std::fs::remove_dir_all(&input);
    std::fs::create_dir_all(&input).unwrap();
    for (name, text) in files {
        std::fs::write(input.join(name), text).unwrap();
    }
    input
}

/// Nothing of the build is left beside the output: no scratch directory, no partial catalog.
fn assert_nothing_left(dir: &Path) {
    let left: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "in")
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// A string an index takes (here a gene name, fed to three FSTs) longer than the limit stops
/// the build with `file:line` (one 20 MB name took 2.8 GB under a 256 MiB budget); a long
/// member no index takes is stored.
#[test]
fn test_long_indexed_member_is_refused() {
    let dir = scratch("long-indexed");
    let long = "A".repeat(varcat_indexer::schema::MAX_INDEXED_BYTES + 1);
    let genes = format!(
        "{{\"_key\": \"G1\", \"name\": \"A\", \"source_url\": \"{long}\"}}\n{{\"_key\": \"G2\", \"name\": \"{long}\"}}\n"
    );
    let inp = input(&dir, &[("genes.jsonl", &genes)]);
    let mut opts = Options::new(&inp, &dir.join("x.varcat"));
    opts.mem_budget = 256 << 20;
    let msg = build(&opts).unwrap_err().to_string();
    assert!(
        msg.ends_with(
            "genes.jsonl:2: name longer than 65536 bytes (the limit for a member an index takes)"
        ),
        "{msg}"
    );
    assert_nothing_left(&dir);

    // The same for a key and an array element of an exact index.
    let genes = format!("{{\"_key\": \"{long}\"}}\n");
    input(&dir, &[("genes.jsonl", &genes)]);
    let msg = build(&opts).unwrap_err().to_string();
    assert!(
        msg.contains("genes.jsonl:1: _key longer than 65536"),
        "{msg}"
    );
    let genes = format!("{{\"_key\": \"G1\", \"synonyms\": [\"S\", \"{long}\"]}}\n");
    input(&dir, &[("genes.jsonl", &genes)]);
    let msg = build(&opts).unwrap_err().to_string();
    assert!(
        msg.contains("genes.jsonl:1: synonyms longer than 65536"),
        "{msg}"
    );

    // Not indexed: stored whole.
    let genes = format!("{{\"_key\": \"G1\", \"name\": \"A\", \"source_url\": \"{long}\"}}\n");
    let inp = input(&dir, &[("genes.jsonl", &genes)]);
    let out = dir.join("x.varcat");
    build(&Options::new(&inp, &out)).unwrap();
    let cat = Collections::open(Catalog::open(&out).unwrap()).unwrap();
    let g = cat.get("genes").unwrap();
    assert_eq!(g.string(0, "source_url").map(|d| d.len()), Some(long.len()));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A line longer than `--max-line` stops the build with `file:line`, plain or gzipped (a gzip
/// stream that inflates to one endless line grew memory without limit), and leaves nothing.
#[test]
fn test_line_longer_than_the_limit_is_refused() {
    use std::io::Write;
    let dir = scratch("long-line");
    let genes = format!(
        "{{\"_key\": \"G1\"}}\n{{\"_key\": \"G2\"}}\n{{\"_key\": \"G3\", \"source_url\": \"{}\"}}\n",
        "d".repeat(2000)
    );
    let inp = input(&dir, &[("genes.jsonl", &genes)]);
    let mut opts = Options::new(&inp, &dir.join("x.varcat"));
    opts.max_line = 1000;
    let msg = build(&opts).unwrap_err().to_string();
    assert!(
        msg.ends_with(
            "genes.jsonl:3: line longer than 1000 bytes (the limit; --max-line raises it)"
        ),
        "{msg}"
    );
    assert_nothing_left(&dir);
    // Raised, it builds.
    opts.max_line = 4000;
    build(&opts).unwrap();
    std::fs::remove_file(dir.join("x.varcat")).unwrap();

    // 256 MiB of one line, gzipped to some 250 KB: refused after the limit, not read whole.
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(b"{\"_key\": \"G1\"}\n{\"_key\": \"G2\", \"x\": \"")
        .unwrap();
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..256 {
        e.write_all(&chunk).unwrap();
    }
    let inp = input(&dir, &[]);
    std::fs::write(inp.join("genes.jsonl.gz"), e.finish().unwrap()).unwrap();
    let mut opts = Options::new(&inp, &dir.join("x.varcat"));
    opts.max_line = 4 << 20;
    let msg = build(&opts).unwrap_err().to_string();
    assert!(
        msg.ends_with(
            "genes.jsonl.gz:2: line longer than 4194304 bytes (the limit; --max-line raises it)"
        ),
        "{msg}"
    );
    assert_nothing_left(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Coordinates that cannot be placed: counted with the first `file:line`s (the record stored
/// and found by id, in no region index), or refused under `--strict`. An empty interval is well
/// formed and overlaps no region.
#[test]
fn test_unplaceable_coordinates_are_counted_or_refused() {
    let dir = scratch("unplaced");
    let genes = [
        r#"{"_key": "OK", "chr": "chr1", "start": 100, "end": 200}"#,
        r#"{"_key": "NEG", "chr": "chr1", "start": -1, "end": 200}"#,
        r#"{"_key": "FRAC", "chr": "chr1", "start": 1.5, "end": 200}"#,
        r#"{"_key": "BACK", "chr": "chr1", "start": 300, "end": 200}"#,
        r#"{"_key": "NAN", "chr": "chr1", "start": NaN, "end": 200}"#,
        r#"{"_key": "NOCHR", "start": 100, "end": 200}"#,
        r#"{"_key": "EMPTY", "chr": "chr1", "start": 150, "end": 150}"#,
    ]
    .join("\n");
    let variants = [
        r#"{"_key": "V1", "chr": "chr1", "pos": 150, "spdi": "NC_000001.11:150:A:G"}"#,
        r#"{"_key": "V2", "chr": "chr1", "pos": -150, "spdi": "NC_000001.11:151:A:G"}"#,
    ]
    .join("\n");
    let inp = input(
        &dir,
        &[("genes.jsonl", &genes), ("variants.jsonl", &variants)],
    );
    let out = dir.join("x.varcat");
    let report = build(&Options::new(&inp, &out)).unwrap();
    let (n, first) = &report.unplaced["genes"];
    assert_eq!(*n, 5);
    assert_eq!(first.len(), 3);
    assert!(
        first[0].ends_with("genes.jsonl:2: start is not a non-negative integer: -1"),
        "{first:?}"
    );
    assert!(
        first[1].ends_with("genes.jsonl:3: start is not a non-negative integer: 1.5"),
        "{first:?}"
    );
    assert!(
        first[2].ends_with("genes.jsonl:4: start 300 is after end 200"),
        "{first:?}"
    );
    assert_eq!(report.unplaced["variants"].0, 1);
    let w = report.warnings().join("\n");
    assert!(
        w.contains("genes: 5 documents with coordinates that cannot be placed"),
        "{w}"
    );
    assert!(w.contains("genes.jsonl:2:"), "{w}");

    let cat = Collections::open(Catalog::open(&out).unwrap()).unwrap();
    let g = cat.get("genes").unwrap();
    for key in ["OK", "NEG", "FRAC", "BACK", "NAN", "NOCHR", "EMPTY"] {
        assert!(g.ord(key).is_some(), "{key} not found by id");
    }
    let found: Vec<u64> = g.intervals().unwrap().overlapping("chr1", 0, 1000);
    assert_eq!(found, vec![g.ord("OK").unwrap()]);
    let v = cat.get("variants").unwrap();
    assert!(v.ord("V2").is_some());
    assert_eq!(
        v.points().unwrap().in_range("chr1", 0, 1000),
        vec![v.ord("V1").unwrap()]
    );

    let mut strict = Options::new(&inp, &out);
    strict.strict = true;
    let msg = build(&strict).unwrap_err().to_string();
    assert!(
        msg.ends_with("genes.jsonl:2: start is not a non-negative integer: -1 (coordinates that cannot be placed)"),
        "{msg}"
    );

    // Past the format's ceiling: an error in either mode, with its line.
    let inp = input(
        &dir,
        &[(
            "genes.jsonl",
            r#"{"_key": "BIG", "chr": "chr1", "start": 1, "end": 5000000000}"#,
        )],
    );
    let msg = build(&Options::new(&inp, &out)).unwrap_err().to_string();
    assert!(
        msg.contains("genes.jsonl:1: end 5000000000 exceeds"),
        "{msg}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
