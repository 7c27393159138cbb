//! Golden answers: every example of the landing page, plain, with `verbose=true`, `page=1` and
//! `limit=2&page=1`, answered by the catalog built from testdata with the working tree, must be
//! byte for byte the answers in `tests/golden/sample-v2.txt`, which the format-v2 code rendered
//! (a change of the catalog format must not change a single answer).
//!
//! The file is what `scripts/golden.sh` writes: for each request a line `### <path?query>`, the
//! body, a newline, the status code and a newline. Only status and body are compared (no
//! headers: nothing that varies between runs, such as a date).
//!
//! Regenerating, only when an answer change is intended (a new or changed example, a fixed
//! bug), never to make a format change pass: with the binary of the commit whose answers are
//! meant,
//!
//! ```sh
//! cargo build --release
//! target/release/varcat build testdata/catalog -o /tmp/sample.varcat
//! scripts/golden.sh target/release/varcat /tmp/sample.varcat tests/golden/sample-v2.txt
//! ```
//!
//! (or `VARCAT_GOLDEN_WRITE=1 cargo test --test e2e golden`, which writes the file from this
//! test's server), and commit the file on its own, saying which answers changed and why.
//!
//! The same requests, answered in-process by a debug build, also check the index registry
//! (`varcat_format::collection::registry`): the server asks for no index the catalog lacks,
//! and reads the key map of every collection the schema keys (value indexes are not held to
//! that: the examples do not exercise every parameter).

use std::fmt::Write as _;

use std::path::Path;

use crate::harness::spawn;
use crate::util::{build_command, request, root, scratch, server, testdata};

const GOLDEN: &str = "tests/golden/sample-v2.txt";

/// The landing page's example links, in page order (as `scripts/golden.sh` extracts them).
fn examples(addr: &str) -> Vec<String> {
    let page = request(addr, "GET", "/", &[]);
    assert_eq!(page.status, 200, "landing page");
    let html = page.text();
    html.split("class=\"example\" href=\"")
        .skip(1)
        .map(|s| s[..s.find('"').expect("closing quote")].replace("&amp;", "&"))
        .collect()
}

/// One section of the golden file for `target`, exactly as `scripts/golden.sh` writes it.
fn section(addr: &str, target: &str) -> String {
    let r = request(addr, "GET", target, &[]);
    let body = String::from_utf8(r.body).expect("UTF-8 body");
    format!("### {target}\n{body}\n{}\n", r.status)
}

/// Splits the golden text into (target, whole section) pairs.
fn sections(text: &str) -> Vec<(&str, &str)> {
    let mut starts: Vec<usize> = text.match_indices("### /").map(|(i, _)| i).collect();
    // A section begins at the start of the file or after a newline (a body never holds one).
    starts.retain(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n');
    starts.push(text.len());
    starts
        .windows(2)
        .map(|w| {
            let s = &text[w[0]..w[1]];
            (&s[4..s.find('\n').unwrap_or(s.len())], s)
        })
        .collect()
}

#[test]
fn golden_answers_are_unchanged() {
    let got = answers(&server().addr);
    let path = root().join(GOLDEN);
    if std::env::var_os("VARCAT_GOLDEN_WRITE").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    assert_golden(&got);
}

/// The sample laid out in `to`: each collection's files (links to the sample's) in a folder
/// `<collection>/` when `folder(collection)`, flat otherwise, under their own names.
fn lay_out(to: &Path, folder: impl Fn(&str) -> bool) {
    for e in std::fs::read_dir(testdata()).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        let coll = name.split('.').next().unwrap();
        let at = if name.ends_with(".jsonl") && folder(coll) {
            to.join(coll).join(&name)
        } else {
            to.join(&name)
        };
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(e.path(), at).unwrap();
    }
}

/// The sample laid out one folder per collection, and mixed (some collections in folders,
/// the others flat beside them), gives every golden answer: the layout changes no answer.
#[test]
fn golden_answers_do_not_depend_on_the_input_layout() {
    let dir = scratch("layouts");
    // (name, whether a collection goes into a folder)
    type Layout = (&'static str, fn(&str) -> bool);
    let layouts: [Layout; 2] = [
        ("folders", |_| true),
        ("mixed", |c| c.len() % 2 == 0 || c == "variants"),
    ];
    for (name, folder) in layouts {
        let input = dir.join(name);
        lay_out(&input, folder);
        let out = dir.join(format!("{name}.varcat"));
        let st = build_command(&input, &out).status().unwrap();
        assert!(st.success(), "{name}: varcat build failed");
        let p = spawn(&out, &["--quiet"], None);
        assert_golden(&answers(&p.addr));
    }
}

/// Every golden request answered by the server at `addr`, as the golden file holds them.
fn answers(addr: &str) -> String {
    let examples = examples(addr);
    assert!(examples.len() > 100, "few examples: {}", examples.len());
    let mut got = String::new();
    for u in &examples {
        let sep = if u.contains('?') { '&' } else { '?' };
        for v in [
            u.clone(),
            format!("{u}{sep}verbose=true"),
            format!("{u}{sep}page=1"),
            format!("{u}{sep}limit=2&page=1"),
        ] {
            write!(got, "{}", section(addr, &v)).unwrap();
        }
    }
    got
}

/// Asserts that `got` is the golden file, naming the first differing answer.
fn assert_golden(got: &str) {
    let want = std::fs::read_to_string(root().join(GOLDEN)).unwrap();
    if got == want {
        return;
    }
    let (g, w) = (sections(got), sections(&want));
    for (i, ((gt, gs), (wt, ws))) in g.iter().zip(&w).enumerate() {
        assert_eq!(
            gt, wt,
            "request {i}: the examples changed ({gt} where {GOLDEN} has {wt}); regenerate \
             the file if intended (see tests/golden.rs)"
        );
        if gs != ws {
            let at = gs
                .bytes()
                .zip(ws.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            let around = |s: &str| {
                let mut from = at.saturating_sub(80);
                let mut to = (at + 80).min(s.len());
                while !s.is_char_boundary(from) {
                    from -= 1;
                }
                while !s.is_char_boundary(to) {
                    to += 1;
                }
                s[from..to].to_string()
            };
            panic!(
                "first differing answer: {gt} (byte {at} of its section)\n--- got ---\n{}\n--- want ---\n{}",
                around(gs),
                around(ws)
            );
        }
    }
    panic!(
        "{} requests answered, {GOLDEN} holds {}; regenerate the file if the examples \
         changed on purpose (see tests/golden.rs)",
        g.len(),
        w.len()
    );
}

/// The sample built with wide (8-byte) ordinals in the collections above `wide_above`
/// documents answers every golden request exactly as the narrow build does; returns the
/// collections' widths (name → bytes) from its metadata.
fn golden_with_wide_above(wide_above: u64) -> std::collections::BTreeMap<String, u8> {
    let dir = crate::util::scratch(&format!("wide-{wide_above}"));
    let out = dir.join("wide.varcat");
    let st = crate::util::build_command(&crate::util::testdata(), &out)
        .arg("--wide-above")
        .arg(wide_above.to_string())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(
        st.success(),
        "varcat build --wide-above {wide_above} failed"
    );
    let cat = varcat_format::Catalog::open(&out).unwrap();
    let meta = varcat_format::collection::Collections::open(cat)
        .unwrap()
        .meta;
    assert_eq!(meta.options["wide_threshold"], wide_above);
    let widths = meta
        .collections
        .iter()
        .map(|c| {
            let want = if c.documents > wide_above { 8 } else { 4 };
            assert_eq!(
                c.ordinal_width, want,
                "{}: {} documents",
                c.name, c.documents
            );
            (c.name.clone(), c.ordinal_width)
        })
        .collect();
    let server = crate::harness::spawn(&out, &["--quiet"], None);
    assert_golden(&answers(&server.addr));
    widths
}

#[test]
fn golden_answers_with_every_collection_wide() {
    let widths = golden_with_wide_above(0);
    assert!(widths.values().all(|&w| w == 8), "{widths:?}");
}

#[test]
fn golden_answers_with_narrow_and_wide_collections() {
    let widths = golden_with_wide_above(100);
    // Mixed: edges between a wide and a narrow collection are answered too.
    for (coll, w) in [("variants", 8), ("genes", 4), ("variants_genes", 8)] {
        assert_eq!(widths.get(coll), Some(&w), "{coll}: {widths:?}");
    }
}

/// The sample with every collection that compresses to ≤ ½ stored in zstd blocks
/// (`--zstd-above 0`; the default keeps a catalog this small uncompressed) answers every golden
/// request exactly as the default build does.
#[test]
fn golden_answers_with_records_in_zstd_blocks() {
    let dir = crate::util::scratch("zstd-above-0");
    let out = dir.join("zstd.varcat");
    let st = crate::util::build_command(&crate::util::testdata(), &out)
        .args(["--zstd-above", "0"])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(st.success(), "varcat build --zstd-above 0 failed");
    let colls =
        varcat_format::collection::Collections::open(varcat_format::Catalog::open(&out).unwrap())
            .unwrap();
    assert_eq!(colls.meta.options["zstd_above"], 0);
    let zstd: Vec<&str> = colls
        .meta
        .collections
        .iter()
        .filter(|c| {
            colls.get(&c.name).unwrap().record_store().codec()
                == varcat_format::records::Codec::Zstd
        })
        .map(|c| c.name.as_str())
        .collect();
    // The large, repetitive collections compress; the scores, read hundreds at a time,
    // never do.
    assert!(zstd.contains(&"variants") && zstd.len() > 10, "{zstd:?}");
    assert!(!zstd.contains(&"coding_variant_scores"), "{zstd:?}");
    let server = crate::harness::spawn(&out, &["--quiet"], None);
    assert_golden(&answers(&server.addr));
}

/// The index registry of debug builds (docs/DESIGN.md#the-schema-what-a-catalog-holds): answering every golden
/// request in-process, the server asks only for indexes the catalog has, and it reads the key
/// map of no collection the schema leaves without one (`Spec::keyed`); each keyed collection's
/// map is read by some request.
#[cfg(debug_assertions)]
#[test]
fn golden_requests_read_declared_indexes_only() {
    use varcat_format::collection::registry;
    let loaded = varcat_server::http::Loaded::open(crate::util::catalog(), false).unwrap();
    let app = varcat_server::http::App::new(loaded, "/api");
    let want = std::fs::read_to_string(root().join(GOLDEN)).unwrap();
    for (target, _) in sections(&want) {
        let req = varcat_server::http::Request {
            method: "GET",
            url: target,
            ..Default::default()
        };
        app.handle(&req);
    }
    // No example names a mouse variant by id.
    let extra = ["/api/variants?variant_id=NC_000067.7:3300000:G:A&organism=Mus%20musculus"];
    for target in extra {
        let req = varcat_server::http::Request {
            method: "GET",
            url: target,
            ..Default::default()
        };
        assert_eq!(app.handle(&req).status, 200, "{target}");
    }
    let asked = registry::asked();
    // Every index asked for was there: none the schema does not declare, and no key map of a
    // collection without one.
    let absent: Vec<_> = asked.iter().filter(|a| !a.2).collect();
    assert!(
        absent.is_empty(),
        "asked for, not in the catalog: {absent:?}"
    );
    let read: std::collections::BTreeSet<&str> = asked
        .iter()
        .filter(|a| a.1 == "key")
        .map(|a| a.0.as_str())
        .collect();
    // `coding_variant_scores` is looked up by key only when its ordinals do not align with
    // `coding_variants'` (a guard: the build aligns them), so no request reads its map here.
    let unread: Vec<&str> = varcat_format::schema::SPECS
        .iter()
        .filter(|s| s.keyed.is_some() && !read.contains(s.name))
        .map(|s| s.name)
        .collect();
    // (Other tests of this process may answer requests in-process too: they can only add reads.)
    assert!(
        unread.iter().all(|&c| c == "coding_variant_scores"),
        "keyed, but no request reads the key map: {unread:?}"
    );
}
