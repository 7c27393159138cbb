//! The command line: query answers like the server; serve refuses bad catalogs.

use std::process::Command;

use crate::harness::spawn;
use crate::util::{build_command, catalog, get, request, scratch};

fn varcat(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_varcat"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn test_query_prints_the_server_answer() {
    let q = "/genes/proteins?gene_name=snap25&verbose=true";
    let out = varcat(&["query", catalog().to_str().unwrap(), q]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim_end(),
        get(q).text()
    );
    let bad = varcat(&["query", catalog().to_str().unwrap(), "/genes/proteins"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8(bad.stdout)
        .unwrap()
        .contains("BAD_REQUEST"));
}

#[test]
fn test_info_and_verify() {
    let out = varcat(&["info", catalog().to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("genes_structure") && text.contains("checksum"));
    // Each collection says whether it has a key map and why (the schema's `keyed` reason),
    // then, when its records are clustered, by which member: line `k` of its entry.
    let line = |name: &str, k: usize| {
        let at = text
            .find(&format!("\n  {name} "))
            .unwrap_or_else(|| panic!("{name}: {text}"));
        text[at..]
            .lines()
            .nth(k)
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    let after = |name: &str| line(name, 2);
    assert!(
        after("variants").starts_with("key map: yes, for `variant_id`"),
        "{}",
        after("variants")
    );
    assert!(
        after("variants_variants").contains("nothing looks its documents up by key")
            && after("variants_variants").contains("`_key` not stored: printed by no shape"),
        "{}",
        after("variants_variants")
    );
    assert!(
        line("variants_genes", 3).starts_with("records: stored by `_to`"),
        "{}",
        line("variants_genes", 3)
    );
    assert!(!line("variants", 3).starts_with("records:"));
    let out = varcat(&["verify", catalog().to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn test_serve_refuses_corrupt_truncated_and_foreign_catalogs() {
    let good = std::fs::read(catalog()).unwrap();
    let dir = scratch("corrupt");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "flipped",
            {
                let mut b = good.clone();
                let n = b.len() / 2;
                b[n] ^= 0x40;
                b
            },
            "catalog is corrupt",
        ),
        ("truncated", good[..good.len() - 100].to_vec(), "truncated"),
        (
            "version",
            {
                let mut b = good.clone();
                b[8] = 77;
                b
            },
            "rebuild the catalog",
        ),
        (
            // What a format-v2 catalog says at the version fields (header and footer): the
            // v3 reader refuses it before reading anything else.
            "v2",
            {
                let mut b = good.clone();
                let n = b.len();
                b[8..12].copy_from_slice(&2u32.to_le_bytes());
                b[n - 16..n - 12].copy_from_slice(&2u32.to_le_bytes());
                b
            },
            "catalog format version 2, this build reads version 3: rebuild the catalog",
        ),
        (
            "text",
            b"{\"not\": \"a catalog\"}".repeat(10),
            "not a varcat catalog",
        ),
        ("empty", Vec::new(), "truncated"),
    ];
    for (name, bytes, want) in cases {
        let p = dir.join(format!("{name}.varcat"));
        std::fs::write(&p, bytes).unwrap();
        let out = varcat(&["serve", p.to_str().unwrap(), "--addr", "127.0.0.1:0"]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(want), "{name}: {err}");
        let v = varcat(&["verify", p.to_str().unwrap()]);
        assert_eq!(v.status.code(), Some(1), "{name}");
    }
}

#[test]
fn test_build_reports_file_and_line() {
    let dir = scratch("cli-build");
    let input = dir.join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join("genes.jsonl"), "{\"_key\": \"A\"}\n{oops}\n").unwrap();
    let out = varcat(&[
        "build",
        input.to_str().unwrap(),
        "-o",
        dir.join("x.varcat").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("genes.jsonl:2: invalid JSON"), "{err}");
}

#[test]
fn test_the_landing_page_lists_every_endpoint_and_examples_answer() {
    // The endpoint list is generated from the endpoint table (no hand-kept copy elsewhere).
    let landing = request(&crate::util::server().addr, "GET", "/", &[]).text();
    for ep in varcat_query::api::ENDPOINTS {
        assert!(
            landing.contains(&ep.path.replace('{', "&#123;").replace('}', "&#125;"))
                || landing.contains(ep.path),
            "the landing page lacks {}",
            ep.path
        );
        assert!(!ep.examples.is_empty(), "{} has no example", ep.path);
        for url in ep.example_urls() {
            let r = get(&url);
            assert_eq!(r.status, 200, "{url}: {}", r.text());
            let v = r.json();
            let has_data = v.as_array().is_none_or(|a| !a.is_empty())
                && v.get("paths") != Some(&serde_json::json!([]));
            assert!(has_data, "example {url} answers no data");
        }
    }
}

#[test]
fn test_serve_writes_one_access_log_line_per_request() {
    // Without --quiet: one line per request, `<ip> "<method> <target>" <status> <bytes> <n>us`.
    let p = spawn(catalog(), &[], None);
    let target = "/api/genes/proteins?gene_name=snap25&access_log_probe=1";
    let r = request(&p.addr, "GET", target, &[]);
    assert_eq!(r.status, 400);
    let line = p
        .wait_log("access_log_probe", std::time::Duration::from_secs(10))
        .expect("no access-log line");
    let want_head = format!("127.0.0.1 \"GET {target}\" 400 {} ", r.body.len());
    assert!(line.starts_with(&want_head), "{line}");
    let micros = line[want_head.len()..].strip_suffix("us").expect(&line);
    assert!(micros.parse::<u64>().is_ok(), "{line}");
    let ok = request(
        &p.addr,
        "HEAD",
        "/api/transcripts/genes?transcript_id=PROBEHEAD",
        &[],
    );
    assert_eq!(ok.status, 200);
    let head = p
        .wait_log("PROBEHEAD", std::time::Duration::from_secs(10))
        .expect("no access-log line for HEAD");
    assert!(
        head.starts_with("127.0.0.1 \"HEAD /api/transcripts/genes?transcript_id=PROBEHEAD\" 200 "),
        "{head}"
    );
    let lines = p.log();
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("access_log_probe"))
            .count(),
        1,
        "{lines:?}"
    );
}

#[test]
fn test_a_closed_pipe_ends_query_and_info_quietly() {
    use std::process::Stdio;
    for args in [
        vec!["info", catalog().to_str().unwrap()],
        vec![
            "query",
            catalog().to_str().unwrap(),
            "/genes-structure?gene_name=PAK5&limit=500",
        ],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_varcat"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader (`| head`) is gone before anything is written
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        use std::os::unix::process::ExitStatusExt;
        assert!(
            out.status.success() || out.status.signal() == Some(13),
            "{args:?}: {:?}",
            out.status
        );
    }
}

#[test]
fn test_interrupted_build_removes_its_scratch_and_partial_catalog() {
    let dir = scratch("interrupt");
    let input = dir.join("in");
    let st = varcat(&[
        "synth",
        "--variants",
        "50000",
        "--seed",
        "3",
        "-o",
        input.to_str().unwrap(),
    ]);
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    for (sig, code) in [("INT", 130), ("TERM", 143)] {
        let out = dir.join("x.varcat");
        let child = build_command(&input, &out)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Interrupted once its sort runs are being written (a 50k build takes seconds).
        let runs = dir.join(format!(".varcat-build-{}", child.id()));
        let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while std::fs::read_dir(&runs).map_or(true, |mut d| d.next().is_none()) {
            assert!(
                std::time::Instant::now() < until,
                "no scratch files in {runs:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        let kill = Command::new("kill")
            .args(["-s", sig, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let done = child.wait_with_output().unwrap();
        let err = String::from_utf8(done.stderr).unwrap();
        assert_eq!(done.status.code(), Some(code), "SIG{sig}: {err}");
        assert!(
            err.contains("interrupted") && err.contains(".varcat-build-"),
            "{err}"
        );
        let mut left: Vec<String> = std::fs::read_dir(&*dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["in"], "SIG{sig} left files behind");
    }
}

/// Every member of the sample catalog's records is stored by its codebook class: none needed
/// the verbatim escape (FORMAT.md "Record codebook") but the dangling handles of `ref` and
/// `link` members (no ordinal to store: real IGVF data has them), and `varcat info` says so
/// per collection.
#[test]
fn test_sample_catalog_records_have_no_escapes() {
    use varcat_format::catalog::Catalog;
    use varcat_format::codebook::Class;
    use varcat_format::collection::Collections;
    let colls = Collections::open(Catalog::open(catalog()).unwrap()).unwrap();
    let mut encoded = 0;
    let (mut refs, mut links) = (0, 0);
    for c in &colls.meta.collections {
        let coll = colls.get(&c.name).unwrap();
        let book = coll.record_store().codebook();
        let mut dangling = 0;
        for e in &book.entries {
            let r = match &e.class {
                Class::Ref(r) => {
                    refs += 1;
                    r
                }
                Class::Link(r) => {
                    links += 1;
                    r
                }
                _ => continue,
            };
            let name = &c.fields[e.field as usize];
            dangling += (0..coll.len())
                .filter_map(|o| coll.string(o, name))
                .filter(|h| colls.resolve(h).is_none())
                .count() as u64;
            assert!(r.is_linked(), "{}: {name}", c.name);
        }
        assert_eq!(book.escapes, dangling, "{}", c.name);
        encoded += book.entries.len();
    }
    // LD's two ends are variant ordinals; the other edges keep their handles with ordinals.
    assert_eq!(refs, 2);
    assert!(links > 20, "{links} link members");
    assert!(encoded > 100, "{encoded} codebook members");
    let text = String::from_utf8(varcat(&["info", catalog().to_str().unwrap()]).stdout).unwrap();
    let row = text
        .lines()
        .skip_while(|l| !l.starts_with("records (codebook-encoded"))
        .find(|l| l.trim_start().starts_with("variants "))
        .unwrap_or_else(|| panic!("{text}"));
    // collection, bytes, dict, codebook, codec, R, escapes, B/doc, classes…
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols[6], "0", "{row}");
    assert!(row.contains("obj 1") && row.contains("same 1"), "{row}");
}

/// Every keyed collection in key order has its key map read backwards (`Collection::key_of`)
/// name each record by the `_key` the record holds (an ordinal is its key's rank); one in
/// another order (coding variants: by protein and position) has no such reading.
#[test]
fn test_key_maps_read_backwards_name_every_record() {
    use varcat_format::catalog::Catalog;
    use varcat_format::collection::Collections;
    let colls = Collections::open(Catalog::open(catalog()).unwrap()).unwrap();
    let mut checked = 0;
    for m in colls.meta.collections.iter().filter(|m| m.keyed) {
        let c = colls.get(&m.name).unwrap();
        let key_ordered = matches!(
            varcat_format::schema::spec(&m.name).map(|s| s.order),
            Some(varcat_format::schema::Order::Key)
        );
        if !key_ordered {
            assert_eq!(c.key_of(0), None, "{}", m.name);
            continue;
        }
        for o in 0..c.len() {
            let key = c
                .key_of(o)
                .unwrap_or_else(|| panic!("{} {o}: no key", m.name));
            assert_eq!(c.ord(&key), Some(o), "{} {o}: {key}", m.name);
            if let Some(stored) = c.string(o, "_key") {
                assert_eq!(key, stored, "{} {o}", m.name);
            }
            checked += 1;
        }
        assert_eq!(c.key_of(c.len()), None, "{}", m.name);
    }
    assert!(checked > 1000, "{checked} keys");
}

/// A build's release name, load plan and what it skipped are in the catalog: `info` prints
/// them and `/api/health` names the release.
#[test]
fn test_release_plan_and_skipped_are_shown_by_info_and_health() {
    let dir = scratch("release");
    let input = dir.join("in");
    std::fs::create_dir_all(input.join("variants")).unwrap();
    std::fs::create_dir_all(input.join("future_things")).unwrap();
    std::fs::write(input.join("future_things/a.jsonl"), "{}\n").unwrap();
    std::fs::write(
        input.join("variants/favor_chr1.jsonl"),
        "{\"_key\": \"k1\", \"chr\": \"chr1\", \"pos\": 5, \"ref\": \"A\", \"alt\": \"G\", \"new_member\": 1}\n",
    )
    .unwrap();
    std::fs::write(
        input.join("variants/y2ave_chr1.jsonl"),
        "{\"_key\": \"k1\", \"chr\": \"chr1\", \"pos\": 5, \"ref\": \"A\", \"alt\": \"C\"}\n",
    )
    .unwrap();
    let plan = dir.join("plan.json");
    std::fs::write(
        &plan,
        r#"{"description": "test plan", "collections": {"variants": [{"files": "favor_*"}, {"files": "y2ave_*", "on_duplicate": "replace"}]}}"#,
    )
    .unwrap();
    let out = dir.join("r.varcat");
    let st = build_command(&input, &out)
        .args(["--release", "IGVF_catalog_v1.0", "--plan"])
        .arg(&plan)
        .status()
        .unwrap();
    assert!(st.success());
    let info = varcat(&["info", out.to_str().unwrap()]);
    let text = String::from_utf8(info.stdout).unwrap();
    for want in [
        "release    IGVF_catalog_v1.0",
        "load plan\n  test plan\n  variants\n",
        "1. favor_*",
        "on duplicate: replace  1 files: variants/y2ave_chr1.jsonl",
        "collection future_things: unknown collection",
        "member variants.new_member: 1 documents",
    ] {
        assert!(text.contains(want), "{want:?} not in\n{text}");
    }
    let p = spawn(&out, &["--quiet"], None);
    let health: serde_json::Value =
        serde_json::from_slice(&request(&p.addr, "GET", "/api/health", &[]).body).unwrap();
    assert_eq!(health["catalog"]["release"], "IGVF_catalog_v1.0");

    // A catalog built without them says so; a release name must be printable.
    let plain = varcat(&["info", crate::util::catalog().to_str().unwrap()]);
    let text = String::from_utf8(plain.stdout).unwrap();
    assert!(
        text.contains("release    (none given)") && text.contains("load plan  none"),
        "{text}"
    );
    let bad = build_command(&input, &dir.join("x.varcat"))
        .args(["--release", "a\nb"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--release takes a name"));
}

#[test]
fn test_access_log_lines_are_all_written_in_order_before_the_server_stops() {
    // Lines are written in batches: each one must still come out, in request order, before
    // the server's own stop messages.
    let mut p = spawn(catalog(), &[], None);
    for i in 0..50 {
        let r = request(&p.addr, "GET", &format!("/api/health?order_probe={i}"), &[]);
        assert_eq!(r.status, 200);
    }
    p.signal("TERM");
    assert!(
        p.wait_exit(std::time::Duration::from_secs(20)).is_some(),
        "the server did not stop"
    );
    let log = p.log();
    let probes: Vec<usize> = log
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("order_probe="))
        .map(|(at, _)| at)
        .collect();
    assert_eq!(probes.len(), 50, "{log:?}");
    for (i, &at) in probes.iter().enumerate() {
        assert!(
            log[at].contains(&format!("order_probe={i}\"")),
            "line {i}: {log:?}"
        );
    }
    let stopping = log
        .iter()
        .position(|l| l.starts_with("varcat: stopping"))
        .expect("the stop message");
    assert!(probes[49] < stopping, "{log:?}");
}
