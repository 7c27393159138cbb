//! What the writing commands (`build`, `annotate`, `export-vcf`, `synth`) do with their
//! outputs: one that is one of their inputs is refused before anything is written; a file
//! appears, whole, only when the command succeeds (its index after it); a failure leaves what
//! was there before; every command answers `--help`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::annotate::input_text;
use crate::util::{catalog, scratch, testdata};

/// `varcat <args>` with standard input closed.
pub fn varcat(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_varcat"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The names in `dir`, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The annotate fixture VCF with `more` sorted `chr20` records after it (several output
/// blocks), then `last` as its last line.
pub fn long_vcf(more: usize, last: &str) -> String {
    let mut v = input_text();
    for i in 0..more {
        v.push_str(&format!(
            "chr20\t{}\t.\tA\tG\t.\t.\t.\tGT\t0/1\t0/0\n",
            10_000_000 + i * 10
        ));
    }
    v.push_str(last);
    v
}

/// `annotate <input> -o <output> [extra]` with the test catalog.
pub fn annotate(input: &Path, output: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "annotate",
        s(input),
        "-o",
        output,
        "--catalog",
        s(catalog()),
    ];
    args.extend_from_slice(extra);
    varcat(&args)
}

fn refused(o: &Output) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("refusing to overwrite"), "{e}");
    e
}

#[test]
fn test_an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = scratch("outputs-same");
    let vcf = dir.join("in.vcf");
    std::fs::write(&vcf, long_vcf(3000, "")).unwrap();
    let gz = dir.join("in.vcf.gz");
    assert!(annotate(&vcf, s(&gz), &["--prefix", "FIRST_"])
        .status
        .success());
    let linked = dir.join("linked.vcf");
    std::fs::hard_link(&vcf, &linked).unwrap();
    for (input, out) in [
        (&vcf, vcf.clone()),
        (&gz, gz.clone()),
        (&vcf, linked.clone()),
        (&vcf, dir.join("sub/../in.vcf")),
    ] {
        let before = std::fs::read(input).unwrap();
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        refused(&annotate(input, s(&out), &[]));
        assert_eq!(std::fs::read(input).unwrap(), before, "{}", out.display());
    }
    // The catalog is an input too, of annotate and of export-vcf.
    let cat = dir.join("copy.varcat");
    std::fs::copy(catalog(), &cat).unwrap();
    let before = std::fs::read(&cat).unwrap();
    refused(&varcat(&[
        "annotate",
        s(&vcf),
        "-o",
        s(&cat),
        "--catalog",
        s(&cat),
    ]));
    refused(&varcat(&["export-vcf", s(&cat), "-o", s(&cat)]));
    assert_eq!(std::fs::read(&cat).unwrap(), before);
    // A build's output that is one of its input files.
    let input = dir.join("collections");
    std::fs::create_dir(&input).unwrap();
    let genes = input.join("genes.jsonl");
    std::fs::copy(testdata().join("genes.jsonl"), &genes).unwrap();
    let before = std::fs::read(&genes).unwrap();
    refused(&varcat(&["build", s(&input), "-o", s(&genes), "--quiet"]));
    assert_eq!(std::fs::read(&genes).unwrap(), before);
    assert_eq!(names(&input), ["genes.jsonl"]);
}

#[test]
fn test_synth_never_writes_over_other_data() {
    let dir = scratch("outputs-synth");
    let data = dir.join("data");
    std::fs::create_dir(&data).unwrap();
    std::fs::write(data.join("genes.jsonl"), b"{\"_key\":\"mine\"}\n").unwrap();
    let o = varcat(&["synth", "--variants", "200", "-o", s(&data)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("did not write"), "{}", stderr(&o));
    assert_eq!(names(&data), ["genes.jsonl"]);
    assert_eq!(
        std::fs::read(data.join("genes.jsonl")).unwrap(),
        b"{\"_key\":\"mine\"}\n"
    );
    // A new directory, then its replacement by another run: only the complete one is seen.
    let out = dir.join("synth");
    for seed in ["1", "2"] {
        let o = varcat(&["synth", "--variants", "200", "--seed", seed, "-o", s(&out)]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(names(&out).contains(&"synth.json".to_string()));
        assert_eq!(names(&dir), ["data", "synth"]);
    }
    let manifest = std::fs::read_to_string(out.join("synth.json")).unwrap();
    assert!(
        manifest.contains("\"seed\": 2") || manifest.contains("\"seed\":2"),
        "{manifest}"
    );
}

#[test]
fn test_a_failed_annotate_leaves_the_old_output_and_nothing_else() {
    let dir = scratch("outputs-failed");
    let vcf = dir.join("in.vcf");
    let text = long_vcf(20_000, "chr20\tnotapos\t.\tA\tG\t.\t.\t.\tGT\t0/1\t0/0\n");
    let bad_line = text.lines().count();
    std::fs::write(&vcf, &text).unwrap();
    for name in ["out.vcf", "out.vcf.gz", "out.bcf"] {
        let out = dir.join(name);
        std::fs::write(&out, b"old").unwrap();
        let o = annotate(&vcf, s(&out), &[]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(
            stderr(&o).contains(&format!("{}:{bad_line}: ", vcf.display())),
            "{name}: {}",
            stderr(&o)
        );
        assert_eq!(std::fs::read(&out).unwrap(), b"old", "{name}");
        std::fs::remove_file(&out).unwrap();
        assert_eq!(names(&dir), ["in.vcf"], "{name}");
    }
    // On standard output nothing can be renamed: the BGZF end-of-file block is left out, so
    // that a reader sees the truncation.
    let o = annotate(&vcf, "-", &["-O", "z"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        o.stdout.len() > 1000,
        "records before the bad one are written"
    );
    assert!(!o.stdout.ends_with(&varcat_annotate::input::BGZF_EOF));
    let whole = annotate(&dir.join("in.vcf"), "-", &["-O", "z", "--lenient"]);
    assert!(whole.status.success());
    assert!(whole.stdout.ends_with(&varcat_annotate::input::BGZF_EOF));
    // A directory that is not there, said plainly.
    let o = annotate(&vcf, "/nonexistent-varcat-dir/out.vcf", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
}

#[test]
fn test_a_finished_output_replaces_the_old_one_and_its_index() {
    let dir = scratch("outputs-index");
    let vcf = dir.join("in.vcf");
    std::fs::write(&vcf, long_vcf(100, "")).unwrap();
    let out = dir.join("out.vcf.gz");
    let index = |ext: &str| PathBuf::from(format!("{}.{ext}", out.display()));
    for f in [out.clone(), index("tbi"), index("csi")] {
        std::fs::write(f, b"stale").unwrap();
    }
    let o = annotate(&vcf, s(&out), &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(names(&dir), ["in.vcf", "out.vcf.gz", "out.vcf.gz.tbi"]);
    assert!(std::fs::read(index("tbi"))
        .unwrap()
        .starts_with(&[0x1f, 0x8b]));
    // Unsorted input: no index, and the old one (of the file replaced) is gone.
    std::fs::write(index("tbi"), b"stale").unwrap();
    let mut unsorted = long_vcf(10, "");
    unsorted.push_str("chr20\t1\t.\tA\tG\t.\t.\t.\tGT\t0/1\t0/0\n");
    std::fs::write(&vcf, unsorted).unwrap();
    let o = annotate(&vcf, s(&out), &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(names(&dir), ["in.vcf", "out.vcf.gz"]);
    // export-vcf: the same staging.
    let exported = dir.join("all.vcf.gz");
    let o = varcat(&["export-vcf", s(catalog()), "-o", s(&exported)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        names(&dir),
        ["all.vcf.gz", "all.vcf.gz.tbi", "in.vcf", "out.vcf.gz"]
    );
}

#[test]
fn test_every_command_answers_help_and_names_the_closest_option() {
    for cmd in [
        "build",
        "serve",
        "query",
        "info",
        "verify",
        "synth",
        "annotate",
        "export-vcf",
    ] {
        for flag in ["--help", "-h"] {
            let o = varcat(&[cmd, flag]);
            let out = String::from_utf8_lossy(&o.stdout);
            assert!(o.status.success(), "{cmd} {flag}: {}", stderr(&o));
            assert!(out.starts_with(&format!("varcat {cmd}")), "{cmd}: {out}");
            assert!(out.contains("--help"), "{cmd}");
        }
    }
    let serve = String::from_utf8_lossy(&varcat(&["serve", "--help"]).stdout).into_owned();
    for flag in [
        "--write-timeout-ms",
        "--idle-timeout-ms",
        "--max-connections",
        "--queue",
    ] {
        assert!(serve.contains(flag), "serve --help lacks {flag}");
    }
    let o = varcat(&["build", "x", "--mem-budgt", "1G"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("invalid option '--mem-budgt' (did you mean --mem-budget?)"),
        "{}",
        stderr(&o)
    );
    let o = varcat(&["annotate", "x.vcf", "--allow-missing-oef"]);
    assert!(
        stderr(&o).contains("did you mean --allow-missing-eof?"),
        "{}",
        stderr(&o)
    );
}
