//! What `varcat annotate` reads and what it refuses: a BGZF or BCF input without its
//! end-of-file block (a truncated file), a stream cut inside a block, plain gzip (read), a line
//! longer than `--max-line`, and header problems named with their line.

use std::io::Write;
use std::path::Path;

use varcat_annotate::input::BGZF_EOF;

use crate::tool_outputs::{annotate, long_vcf, names, s, stderr};
use crate::util::scratch;

/// The offsets where `bgzf`'s blocks start (from each header's BSIZE).
fn blocks(bgzf: &[u8]) -> Vec<usize> {
    let mut at = 0;
    let mut out = Vec::new();
    while at + 18 <= bgzf.len() {
        out.push(at);
        at += u16::from_le_bytes([bgzf[at + 16], bgzf[at + 17]]) as usize + 1;
    }
    out
}

/// The records (non-header lines) of VCF text.
fn records(vcf: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(vcf)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect()
}

fn refused_with(o: &std::process::Output, want: &str) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains(want), "want {want:?} in: {e}");
    e
}

/// A multi-block `.vcf.gz` of the annotate fixture and what it holds as plain text.
fn fixture(dir: &Path) -> (Vec<u8>, Vec<String>) {
    let vcf = dir.join("plain.vcf");
    std::fs::write(&vcf, long_vcf(20_000, "")).unwrap();
    let gz = dir.join("made.vcf.gz");
    let o = annotate(&vcf, s(&gz), &["--prefix", "IN_"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bytes = std::fs::read(&gz).unwrap();
    let want = records(&annotate(&gz, "-", &[]).stdout);
    assert_eq!(want.len(), 20_007);
    std::fs::remove_file(&gz).unwrap();
    std::fs::remove_file(format!("{}.tbi", gz.display())).unwrap();
    std::fs::remove_file(&vcf).unwrap();
    (bytes, want)
}

#[test]
fn test_a_truncated_bgzf_input_is_refused() {
    let dir = scratch("input-truncated");
    let (gz, want) = fixture(&dir);
    let starts = blocks(&gz);
    assert!(starts.len() > 4, "{} blocks", starts.len());
    assert!(gz.ends_with(&BGZF_EOF));
    let input = dir.join("in.vcf.gz");
    let out = dir.join("out.vcf.gz");
    // Cut at a block boundary, as an interrupted download is: without the end-of-file block,
    // refused before anything is written (by path and on standard input).
    for cut in [gz.len() - BGZF_EOF.len(), starts[starts.len() / 2]] {
        std::fs::write(&input, &gz[..cut]).unwrap();
        let e = refused_with(&annotate(&input, s(&out), &[]), "no BGZF end-of-file block");
        assert!(e.contains(&input.display().to_string()), "{e}");
        assert_eq!(names(&dir), ["in.vcf.gz"]);
        let piped = std::process::Command::new(env!("CARGO_BIN_EXE_varcat"))
            .args(["annotate", "-", "-o", "-", "--catalog"])
            .arg(crate::util::catalog())
            .stdin(std::fs::File::open(&input).unwrap())
            .output()
            .unwrap();
        refused_with(&piped, "<stdin>: no BGZF end-of-file block");
    }
    // A complete file whose writer left the block out: read whole under --allow-missing-eof.
    std::fs::write(&input, &gz[..gz.len() - BGZF_EOF.len()]).unwrap();
    let o = annotate(&input, "-", &["--allow-missing-eof"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning"), "{}", stderr(&o));
    assert_eq!(records(&o.stdout), want);
    // Cut inside a block: truncated whatever the rule, with the line where it broke.
    let inside = starts[starts.len() / 2] + 100;
    std::fs::write(&input, &gz[..inside]).unwrap();
    let e = refused_with(
        &annotate(&input, s(&out), &["--allow-missing-eof"]),
        "truncated",
    );
    assert!(e.contains(&format!("{}:", input.display())), "{e}");
    assert_eq!(names(&dir), ["in.vcf.gz"]);
}

#[test]
fn test_a_truncated_bcf_input_is_refused() {
    let dir = scratch("input-bcf");
    let vcf = dir.join("plain.vcf");
    std::fs::write(&vcf, long_vcf(5_000, "")).unwrap();
    let bcf = dir.join("in.bcf");
    assert!(annotate(&vcf, s(&bcf), &["--prefix", "IN_"])
        .status
        .success());
    let bytes = std::fs::read(&bcf).unwrap();
    assert!(bytes.ends_with(&BGZF_EOF));
    std::fs::write(&bcf, &bytes[..bytes.len() - BGZF_EOF.len()]).unwrap();
    refused_with(&annotate(&bcf, "-", &[]), "no BGZF end-of-file block");
    let o = annotate(&bcf, "-", &["--allow-missing-eof"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(records(&o.stdout).len(), 5_007);
}

#[test]
fn test_plain_gzip_is_read_as_bcftools_reads_it() {
    let dir = scratch("input-gzip");
    let text = long_vcf(3_000, "");
    let vcf = dir.join("in.vcf");
    std::fs::write(&vcf, &text).unwrap();
    // Two gzip members (`cat a.gz b.gz`), cut in the middle of a line.
    let mut gz = Vec::new();
    for part in [&text[..text.len() / 2], &text[text.len() / 2..]] {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(part.as_bytes()).unwrap();
        gz.extend(e.finish().unwrap());
    }
    let input = dir.join("in.vcf.gz");
    std::fs::write(&input, &gz).unwrap();
    let plain = annotate(&vcf, "-", &[]);
    let o = annotate(&input, "-", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(records(&o.stdout), records(&plain.stdout));
    // The output is still BGZF when asked for.
    let out = dir.join("out.vcf.gz");
    assert!(annotate(&input, s(&out), &[]).status.success());
    assert!(std::fs::read(&out).unwrap().ends_with(&BGZF_EOF));
    // A truncated gzip member is refused.
    std::fs::write(&input, &gz[..gz.len() - 10]).unwrap();
    refused_with(&annotate(&input, "-", &[]), "truncated");
}

#[test]
fn test_a_line_longer_than_max_line_is_refused_where_it_is() {
    let dir = scratch("input-long");
    // 20 MB of one line compress to a few kilobytes.
    let mut text = long_vcf(10, "");
    let line = text.lines().count() + 1;
    text.push_str("chr20\t99999999\t.\tA\t");
    text.push_str(&"C".repeat(20 << 20));
    text.push_str("\t.\t.\t.\tGT\t0/1\t0/0\n");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(text.as_bytes()).unwrap();
    let input = dir.join("in.vcf.gz");
    std::fs::write(&input, e.finish().unwrap()).unwrap();
    let e = refused_with(&annotate(&input, "-", &[]), "--max-line");
    assert!(e.contains(&format!("{}:{line}: ", input.display())), "{e}");
    let o = annotate(&input, "-", &["--max-line", "32M"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The header is bounded too.
    let vcf = dir.join("in.vcf");
    std::fs::write(
        &vcf,
        format!("##fileformat=VCFv4.2\n##x={}\n", "y".repeat(5000)),
    )
    .unwrap();
    let e = refused_with(&annotate(&vcf, "-", &["--max-line", "1K"]), "--max-line");
    assert!(e.contains(&format!("{}:2: ", vcf.display())), "{e}");
}

#[test]
fn test_header_problems_are_named_with_their_line() {
    let dir = scratch("input-header");
    let head = "##fileformat=VCFv4.2\n##contig=<ID=chr20>\n";
    let chrom = "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n";
    let rec = "chr20\t100\t.\tA\tG\t.\t.\t.\n";
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "info",
            format!("{head}##INFO=<ID=X,Number=1,Description=\"x\">\n{chrom}{rec}").into(),
            ":3: header: invalid record: ",
        ),
        (
            "spaces",
            format!("{head}{}{rec}", chrom.replace('\t', " ")).into(),
            ":3: the #CHROM line is separated by spaces",
        ),
        (
            "bom",
            [
                b"\xef\xbb\xbf".as_slice(),
                format!("{head}{chrom}{rec}").as_bytes(),
            ]
            .concat(),
            ": starts with a byte-order mark",
        ),
        (
            "garbage",
            b"\x00\x01binary stuff".to_vec(),
            ": not VCF, BGZF or BCF",
        ),
        (
            "zstd",
            b"\x28\xb5\x2f\xfd\x00\x00".to_vec(),
            ": zstd-compressed",
        ),
        (
            "contigless",
            format!("##fileformat=VCFv4.2\n{chrom}{rec}").into(),
            ":3: contig chr20 is not declared in the header",
        ),
    ];
    for (name, bytes, want) in cases {
        let input = dir.join(format!("{name}.vcf"));
        std::fs::write(&input, bytes).unwrap();
        let extra: &[&str] = if name == "contigless" {
            &["-O", "b"]
        } else {
            &[]
        };
        let e = refused_with(&annotate(&input, "-", extra), want);
        assert!(
            e.contains(&format!("{}{want}", input.display())),
            "{name}: {e}"
        );
        assert_eq!(e.trim_end().lines().count(), 1, "{name}: {e}");
    }
    // A malformed POS: the same file:line whatever the output format.
    let input = dir.join("pos.vcf");
    std::fs::write(
        &input,
        format!("{head}{chrom}{rec}chr20\tx1\t.\tA\tG\t.\t.\t.\n"),
    )
    .unwrap();
    for ty in ["v", "z", "b", "u"] {
        let e = refused_with(&annotate(&input, "-", &["-O", ty]), ":5: ");
        assert!(
            e.contains(&format!("{}:5: ", input.display())),
            "-O {ty}: {e}"
        );
    }
}
