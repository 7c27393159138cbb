//! `varcat annotate` end to end: a small VCF of fixture variants (multi-allelic, absent,
//! REF-mismatch, symbolic and `*`, `1` next to `chr20`, expanded and anchored indels) through
//! the real binary, checked value by value against testdata/catalog/*.consistent.jsonl.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::util::{catalog, scratch};

const HEADER: &str = "##fileformat=VCFv4.2
##contig=<ID=1>
##contig=<ID=2>
##contig=<ID=chr20>
##INFO=<ID=DP,Number=1,Type=Integer,Description=\"depth\">
##FORMAT=<ID=GT,Number=1,Type=String,Description=\"Genotype\">
##FORMAT=<ID=AD,Number=R,Type=Integer,Description=\"Allele depths\">
#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1\tS2
";

/// Records (sorted), each with the INFO the default fields must give it.
const RECORDS: &[(&str, &str)] = &[
    // Multi-allelic: both alleles are catalog variants (chr1 in the catalog, `1` here).
    (
        "1\t15001\tid1\tA\tG,T\t30\tPASS\tDP=5\tGT:AD\t0/1:3,2,0\t1/2:0,4,5",
        "DP=5;VARCAT_rsid=rs900001,rs900002|rs900003;VARCAT_gnomad_af_total=0.11,0.55;VARCAT_bravo_af=0.1,0.5",
    ),
    // The catalog has A at 15000 (0-based): REF C disagrees.
    ("1\t15001\t.\tC\tG\t.\t.\t.\tGT:AD\t0/1:1,1\t./.:.", "."),
    // Insertion with an unknown anchor base (N agrees with anything): SPDI 15500::AAA.
    (
        "1\t15500\t.\tN\tNAAA\t.\t.\t.\tGT\t0/1\t0/0",
        "VARCAT_rsid=rs900008;VARCAT_gnomad_af_total=0.055;VARCAT_bravo_af=0.05",
    ),
    // One annotated allele, a symbolic one and `*`: values per ALT, `.` for the others.
    (
        "1\t20000\t.\tC\tG,<DEL>,*\t.\t.\tDP=1\tGT\t0/1\t0/2",
        "DP=1;VARCAT_rsid=rs900009,.,.;VARCAT_gnomad_af_total=0.011,.,.;VARCAT_bravo_af=0.01,.,.",
    ),
    // Deletion with an anchor: SPDI 25010:CT:.
    (
        "1\t25010\t.\tNCT\tN\t.\t.\t.\tGT\t0/1\t0/0",
        "VARCAT_rsid=rs900005;VARCAT_gnomad_af_total=0;VARCAT_bravo_af=0",
    ),
    // Absent: no catalog variant at this allele.
    ("2\t10101\t.\tT\tG\t.\t.\t.\tGT\t0/1\t0/0", "."),
    // chr20 as the catalog spells it; a VRS-expanded SPDI (9566884:AATA:A) found from AAAT>A.
    (
        "chr20\t9566884\t.\tAAAT\tA\t.\t.\t.\tGT\t0/1\t0/0",
        "VARCAT_rsid=rs1286089749;VARCAT_gnomad_af_total=0.0000279166;VARCAT_bravo_af=0.00003778",
    ),
];

pub fn input_text() -> String {
    let mut s = HEADER.to_string();
    for (r, _) in RECORDS {
        s.push_str(r);
        s.push('\n');
    }
    s
}

fn annotate(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_varcat"));
    c.arg("annotate").arg("--catalog").arg(catalog()).args(args);
    c.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    if let Some(b) = stdin {
        pipe.write_all(b).unwrap();
    }
    drop(pipe);
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

/// The record lines of VCF text.
fn records(vcf: &str) -> Vec<&str> {
    vcf.lines().filter(|l| !l.starts_with('#')).collect()
}

/// Each expected record: the input line with its INFO column replaced.
fn expected() -> Vec<String> {
    RECORDS
        .iter()
        .map(|(line, info)| {
            let mut cols: Vec<&str> = line.split('\t').collect();
            cols[7] = info;
            cols.join("\t")
        })
        .collect()
}

fn write(dir: &Path, name: &str, body: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn test_annotate_vcf_values_counts_and_untouched_columns() {
    let dir = scratch("annotate-vcf");
    let input = write(&dir, "in.vcf", &input_text());
    let out = annotate(&[&input, "-o", "-"], None);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    let vcf = text(&out.stdout);
    assert_eq!(records(&vcf), expected());
    // The header keeps the input's lines and adds ours before #CHROM.
    assert!(vcf.starts_with("##fileformat=VCFv4.2\n##contig=<ID=1>\n"));
    assert!(vcf.contains(
        "##INFO=<ID=VARCAT_gnomad_af_total,Number=A,Type=Float,Description=\"allele frequency from gnomAD (total) (varcat)\">\n"
    ));
    assert!(vcf.contains("##varcat_catalog="));
    let summary = err.lines().last().unwrap();
    assert!(
        summary.contains("records 7 (5 annotated, 0 malformed); ALT alleles: annotated 6, absent 1, ref-mismatch 1, skipped 2"),
        "{summary}"
    );
    // Stdin in, the same answer.
    let piped = annotate(&["-", "-o", "-"], Some(input_text().as_bytes()));
    assert!(piped.status.success());
    assert_eq!(records(&text(&piped.stdout)), expected());
}

#[test]
fn test_annotate_all_fields_of_a_fixture_variant() {
    let dir = scratch("annotate-all");
    let input = write(
        &dir,
        "in.vcf",
        &format!("{HEADER}1\t15001\t.\tA\tG,T\t.\t.\t.\tGT\t0/1\t0/0\n"),
    );
    let fields = "eqtl_n,eqtl_top_gene,sqtl_n,sqtl_top_gene,caqtl_n,gwas_n,gwas_min_p,gwas_top_trait,clingen,hgvsp,sift,revel,alphamissense,gencode_category,cadd_phred";
    let out = annotate(
        &[&input, "-o", "-", "--fields", fields, "--prefix", "X_"],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let vcf = text(&out.stdout);
    let info = records(&vcf)[0].split('\t').nth(7).unwrap().to_string();
    // testdata/catalog/*.consistent.jsonl: 15000:A:G has eQTLs to TSTA1 (−log10 p 5) and TSTG
    // (3), a spliceQTL to TSTA1, one caQTL, a GWAS hit at 1e-09 on "test trait", ClinGen
    // Pathogenic, coding variants p.M1T and p.M1V (key order; SIFT only on p.M1V); 15000:A:T
    // has one eQTL (TSTG; its Variant-EFFECTS edge is no QTL), one caQTL, coding p.M1T.
    let want = "X_eqtl_n=2,1;X_eqtl_top_gene=TSTA1,TSTG;X_sqtl_n=1,0;X_sqtl_top_gene=TSTA1,.;\
X_caqtl_n=1,1;X_gwas_n=1,0;X_gwas_min_p=1e-9,.;X_gwas_top_trait=test%20trait,.;\
X_clingen=Pathogenic,.;X_hgvsp=p.M1T|p.M1V,p.M1T;X_sift=.|0.01,.;X_revel=0.25|0.25,0.25;\
X_gencode_category=coding,coding;X_cadd_phred=1.5,1.5";
    assert_eq!(info, want);
    assert!(vcf.contains("##INFO=<ID=X_eqtl_n,Number=A,Type=Integer,"));
}

#[test]
fn test_annotate_bgzf_index_and_bcf_round_trip() {
    let dir = scratch("annotate-bgzf");
    let input = write(&dir, "in.vcf", &input_text());
    let gz = dir.join("out.vcf.gz");
    let out = annotate(&[&input, "-o", gz.to_str().unwrap(), "--timings"], None);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    // --timings: one line with every stage and the index pass, before the summary.
    let timings = err.lines().find(|l| l.contains("timings:")).unwrap_or("");
    for stage in [
        "decode ",
        "look-up ",
        "format ",
        "write/compress ",
        "index ",
    ] {
        assert!(timings.contains(stage), "{err}");
    }
    assert!(err.lines().last().unwrap().contains("records 7 "), "{err}");
    let mut plain = String::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(&gz).unwrap())
        .read_to_string(&mut plain)
        .unwrap();
    assert_eq!(records(&plain), expected());
    let tbi = std::fs::read(dir.join("out.vcf.gz.tbi")).unwrap();
    let mut magic = Vec::new();
    flate2::read::MultiGzDecoder::new(&tbi[..])
        .take(4)
        .read_to_end(&mut magic)
        .unwrap();
    assert_eq!(magic, b"TBI\x01");

    // BCF out, then BCF in (annotated again under another prefix): values survive both ways.
    let bcf = dir.join("out.bcf");
    let out = annotate(&[&input, "-o", bcf.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("timings:"));
    assert!(dir.join("out.bcf.csi").exists());
    let back = annotate(
        &[
            bcf.to_str().unwrap(),
            "-o",
            "-",
            "--prefix",
            "V2_",
            "--fields",
            "rsid",
        ],
        None,
    );
    assert!(back.status.success(), "{}", text(&back.stderr));
    let vcf = text(&back.stdout);
    let first = records(&vcf)[0];
    assert!(
        first.starts_with("1\t15001\tid1\tA\tG,T\t30\tPASS\t"),
        "{first}"
    );
    assert!(
        first.contains("VARCAT_rsid=rs900001,rs900002|rs900003"),
        "{first}"
    );
    assert!(first.contains("VARCAT_bravo_af=0.1,0.5"), "{first}");
    assert!(
        first.contains("V2_rsid=rs900001,rs900002|rs900003"),
        "{first}"
    );
    assert!(first.ends_with("\tGT:AD\t0/1:3,2,0\t1/2:0,4,5"), "{first}");
    assert_eq!(records(&vcf).len(), RECORDS.len());

    // BCF in, BGZF VCF out: indexed while written (records through noodles' buffers), the
    // same .tbi a second pass builds.
    let gz = dir.join("back.vcf.gz");
    let out = annotate(
        &[
            bcf.to_str().unwrap(),
            "-o",
            gz.to_str().unwrap(),
            "--prefix",
            "V3_",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let tbi = second_pass_index(
        &gz,
        dir.join("back-second.vcf.gz"),
        varcat_annotate::output::OutFormat::VcfGz,
    );
    assert_eq!(gunzip(&dir.join("back.vcf.gz.tbi")), gunzip(&tbi));
}

/// Gunzipped bytes of a BGZF file.
/// The index noodles builds in a second pass over a copy of `written` at `copy`.
fn second_pass_index(
    written: &Path,
    copy: std::path::PathBuf,
    format: varcat_annotate::output::OutFormat,
) -> std::path::PathBuf {
    std::fs::copy(written, &copy).unwrap();
    varcat_annotate::output::write_index(&copy, &copy, format)
        .and_then(|i| i.commit())
        .unwrap()
}

fn gunzip(p: &Path) -> Vec<u8> {
    let mut b = Vec::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(p).unwrap())
        .read_to_end(&mut b)
        .unwrap();
    b
}

/// VCF text without the command line (which names the run's arguments).
fn without_command(vcf: &[u8]) -> String {
    text(vcf)
        .lines()
        .filter(|l| !l.starts_with("##varcat_annotateCommand"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn test_annotate_threads_give_the_same_bytes_and_index() {
    // Each fixture record 3,000 times (still sorted): several chunks of input, several BGZF
    // blocks of output; the counts are 3,000 times those of the 7 records.
    let dir = scratch("annotate-threads");
    let mut body = HEADER.to_string();
    for (r, _) in RECORDS {
        for _ in 0..3_000 {
            body.push_str(r);
            body.push('\n');
        }
    }
    let input = write(&dir, "in.vcf", &body);
    let want = expected();
    let mut got = Vec::new();
    for threads in ["1", "3"] {
        let gz = dir.join(format!("out{threads}.vcf.gz"));
        let out = annotate(
            &[&input, "-o", gz.to_str().unwrap(), "--threads", threads],
            None,
        );
        let err = text(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(
            err.contains(
                "records 21000 (15000 annotated, 0 malformed); ALT alleles: annotated 18000, \
                 absent 3000, ref-mismatch 3000, skipped 6000"
            ),
            "{err}"
        );
        let vcf = without_command(&gunzip(&gz));
        let recs = records(&vcf);
        assert_eq!(recs.len(), 21_000);
        for (i, r) in recs.iter().enumerate() {
            assert_eq!(*r, want[i / 3_000], "record {i}");
        }
        // The index built while writing equals the one a second pass over the file builds.
        let tbi = second_pass_index(
            &gz,
            dir.join(format!("second{threads}.vcf.gz")),
            varcat_annotate::output::OutFormat::VcfGz,
        );
        let live = gunzip(&dir.join(format!("out{threads}.vcf.gz.tbi")));
        assert!(live.starts_with(b"TBI\x01"));
        assert_eq!(live, gunzip(&tbi), "threads {threads}");
        got.push(vcf);

        // BCF: its .csi is built while writing too, and equals noodles_bcf's second pass.
        let bcf = dir.join(format!("out{threads}.bcf"));
        let out = annotate(
            &[&input, "-o", bcf.to_str().unwrap(), "--threads", threads],
            None,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let csi = second_pass_index(
            &bcf,
            dir.join(format!("second{threads}.bcf")),
            varcat_annotate::output::OutFormat::Bcf,
        );
        let live = gunzip(&dir.join(format!("out{threads}.bcf.csi")));
        assert!(live.starts_with(b"CSI\x01"));
        assert_eq!(live, gunzip(&csi), "BCF, threads {threads}");
    }
    assert_eq!(got[0], got[1]);

    // A malformed line in a later chunk, passed through under --lenient: the same bytes and
    // the same warning (line numbers count from the file's first line) on 1 and 3 threads.
    let mut lines: Vec<&str> = body.lines().collect();
    let at = HEADER.lines().count() + 15_000;
    lines.insert(at, "2\tnotapos\t.\tA\tG\t.\t.\t.\tGT\t0/1\t0/0");
    let bad = write(&dir, "bad.vcf", &(lines.join("\n") + "\n"));
    let mut got = Vec::new();
    for threads in ["1", "3"] {
        let out = annotate(&[&bad, "-o", "-", "--threads", threads, "--lenient"], None);
        let err = text(&out.stderr);
        assert!(out.status.success(), "{err}");
        let warning = format!("warning: {bad}:{}: POS \"notapos\"", at + 1);
        assert!(err.contains(&warning), "{err}");
        assert!(
            err.contains("records 21001 (15000 annotated, 1 malformed)"),
            "{err}"
        );
        let vcf = without_command(&out.stdout);
        assert_eq!(records(&vcf)[15_000], lines[at]);
        got.push(vcf);
        // Without --lenient the run stops there, after writing the records before it.
        let out = annotate(&[&bad, "-o", "-", "--threads", threads], None);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains(&format!("{bad}:{}: POS", at + 1)));
        assert_eq!(records(&text(&out.stdout)).len(), 15_000);
    }
    assert_eq!(got[0], got[1]);
}

#[test]
fn test_annotate_unsorted_input_gets_no_index() {
    let dir = scratch("annotate-unsorted");
    let mut body = HEADER.to_string();
    for (r, _) in RECORDS.iter().rev() {
        body.push_str(r);
        body.push('\n');
    }
    let input = write(&dir, "in.vcf", &body);
    let gz = dir.join("out.vcf.gz");
    let out = annotate(&[&input, "-o", gz.to_str().unwrap()], None);
    assert!(out.status.success());
    assert!(text(&out.stderr).contains("the input is not sorted; no index written"));
    assert!(gz.exists() && !dir.join("out.vcf.gz.tbi").exists());

    // Sorted within contigs but not in the header's contig order: VCF gets its .tbi, a BCF
    // no .csi (its index needs the header's order), with the warning.
    let mut body = HEADER.to_string();
    for contig in ["chr20", "2", "1"] {
        for (r, _) in RECORDS
            .iter()
            .filter(|(r, _)| r.split('\t').next() == Some(contig))
        {
            body.push_str(r);
            body.push('\n');
        }
    }
    let input = write(&dir, "groups.vcf", &body);
    let gz = dir.join("groups.vcf.gz");
    let out = annotate(&[&input, "-o", gz.to_str().unwrap()], None);
    assert!(out.status.success() && dir.join("groups.vcf.gz.tbi").exists());
    let bcf = dir.join("groups.bcf");
    let out = annotate(&[&input, "-o", bcf.to_str().unwrap()], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no index written"));
    assert!(bcf.exists() && !dir.join("groups.bcf.csi").exists());
}

#[test]
fn test_annotate_bad_input() {
    let dir = scratch("annotate-bad");
    // Unknown field: refused with the valid names.
    let input = write(&dir, "in.vcf", &input_text());
    let out = annotate(&[&input, "-o", "-", "--fields", "rsid,gnomad_af"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains(
        "unknown field 'gnomad_af' (did you mean 'gnomad_af_total'?); valid: rsid, spdi, bravo_af"
    ));

    // GRCh37 header: refused unless --assume-grch38.
    let grch37 = write(
        &dir,
        "37.vcf",
        &input_text().replace("##contig=<ID=1>", "##contig=<ID=1,length=249250621>"),
    );
    let out = annotate(&[&grch37, "-o", "-"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("another assembly (contig 1 has the GRCh37 length"));
    let out = annotate(&[&grch37, "-o", "-", "--assume-grch38"], None);
    assert!(out.status.success());
    assert_eq!(records(&text(&out.stdout)), expected());

    // A malformed record stops the run with file:line (counted from the file's first line),
    // or passes through unchanged under --lenient.
    let mut body = input_text();
    body.push_str("1\tnotapos\t.\tA\tG\t.\t.\t.\tGT\t0/1\t0/0\n");
    body.push_str("chr20\t9566884\t.\tAAAT\tA\t.\t.\t.\tGT\t0/1\t0/0\n");
    let bad = write(&dir, "bad.vcf", &body);
    let line = HEADER.lines().count() + RECORDS.len() + 1;
    let out = annotate(&[&bad, "-o", "-"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(&format!("{bad}:{line}: POS \"notapos\" is not a number")),
        "{}",
        text(&out.stderr)
    );
    let out = annotate(&[&bad, "-o", "-", "--lenient"], None);
    assert!(out.status.success());
    let vcf = text(&out.stdout);
    let recs = records(&vcf);
    assert_eq!(recs.len(), RECORDS.len() + 2);
    assert_eq!(
        recs[RECORDS.len()],
        "1\tnotapos\t.\tA\tG\t.\t.\t.\tGT\t0/1\t0/0"
    );
    assert!(recs[RECORDS.len() + 1].contains("VARCAT_rsid=rs1286089749"));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("warning: {bad}:{line}: POS")),
        "{err}"
    );
    assert!(
        err.contains("records 9 (6 annotated, 1 malformed)"),
        "{err}"
    );

    // Annotating twice under one prefix is refused rather than writing duplicate keys.
    let once = annotate(&[&input, "-o", "-"], None);
    let twice = annotate(&["-", "-o", "-"], Some(&once.stdout));
    assert_eq!(twice.status.code(), Some(2));
    assert!(text(&twice.stderr).contains("already has INFO VARCAT_rsid"));
}

#[test]
fn test_annotate_list_fields() {
    let out = annotate(&["--list-fields"], None);
    assert!(out.status.success());
    let list = text(&out.stdout);
    let first: Vec<&str> = list.lines().take(2).collect();
    assert_eq!(
        first,
        [
            "VARCAT_rsid\tA\tString\tdbSNP rsid(s) of the allele, |-joined",
            "VARCAT_spdi\tA\tString\tcatalog SPDI of the matched allele"
        ]
    );
    for name in [
        "gnomad_af_total",
        "bravo_af",
        "eqtl_top_gene",
        "gwas_min_p",
        "clingen",
        "hgvsp",
        "revel",
        "alphamissense",
        "esm1b",
        "cadd_raw_coding",
    ] {
        assert!(list.contains(&format!("VARCAT_{name}\tA\t")), "{name}");
    }
}

/// Every fixture variant is found again from its VCF form: `annotations.variant_vcf` where the
/// source gives one (FAVOR: `20-9566884-AAAT-A` for the expanded `9566884:AATA:A`), else built
/// from the SPDI (an indel with an `N` anchor), and each gets its own SPDI back.
#[test]
fn test_annotate_finds_every_fixture_variant_from_its_vcf_form() {
    let dir = scratch("annotate-fixture");
    let mut body =
        String::from("##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n");
    let mut n = 0;
    for file in ["variants.jsonl", "variants.consistent.jsonl"] {
        let text = std::fs::read_to_string(crate::util::testdata().join(file)).unwrap();
        for line in text.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let spdi = v["spdi"].as_str().unwrap();
            let parts: Vec<&str> = spdi.rsplitn(4, ':').collect();
            let (ins, del, p) = (parts[0], parts[1], parts[2].parse::<u64>().unwrap());
            let chrom = v["chr"].as_str().unwrap();
            let from_vcf = v["annotations"]["variant_vcf"]
                .as_str()
                .map(|s| s.split('-').collect::<Vec<_>>())
                .filter(|f| f.len() == 4 && f.iter().all(|x| !x.is_empty()));
            let (c, pos, r, a) = match from_vcf {
                Some(f) => (
                    f[0].to_string(),
                    f[1].to_string(),
                    f[2].to_string(),
                    f[3].to_string(),
                ),
                None if del.len() == ins.len() => (
                    chrom.to_string(),
                    (p + 1).to_string(),
                    del.to_string(),
                    ins.to_string(),
                ),
                None => (
                    chrom.to_string(),
                    p.to_string(),
                    format!("N{del}"),
                    format!("N{ins}"),
                ),
            };
            body.push_str(&format!("{c}\t{pos}\t{spdi}\t{r}\t{a}\t.\t.\t.\n"));
            n += 1;
        }
    }
    assert!(n > 950);
    assert!(body.contains("20\t9566884\tNC_000020.11:9566884:AATA:A\tAAAT\tA\t"));
    let input = write(&dir, "fixture.vcf", &body);
    let out = annotate(&[&input, "-o", "-", "--fields", "spdi"], None);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(&format!("records {n} ({n} annotated, 0 malformed); ALT alleles: annotated {n}, absent 0, ref-mismatch 0, skipped 0")),
        "{err}"
    );
    let vcf = text(&out.stdout);
    for rec in records(&vcf) {
        let cols: Vec<&str> = rec.split('\t').collect();
        let got = cols[7]
            .strip_prefix("VARCAT_spdi=")
            .unwrap()
            .replace("%3A", ":");
        assert_eq!(got, cols[2], "{rec}");
    }
}

/// `export-vcf` writes every catalog variant with the fields `annotate` adds; annotating that
/// file again (under another prefix) finds each record's own variant and the same values.
#[test]
fn test_export_vcf_round_trips_through_annotate() {
    let dir = scratch("annotate-export");
    let gz = dir.join("catalog.vcf.gz");
    let out = Command::new(env!("CARGO_BIN_EXE_varcat"))
        .arg("export-vcf")
        .arg(catalog())
        .args(["-o", gz.to_str().unwrap(), "--fields", "all"])
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(dir.join("catalog.vcf.gz.tbi").exists());
    let mut vcf = String::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(&gz).unwrap())
        .read_to_string(&mut vcf)
        .unwrap();
    let exported = records(&vcf);
    let variants = ["variants.jsonl", "variants.consistent.jsonl"]
        .iter()
        .map(|f| {
            std::fs::read_to_string(crate::util::testdata().join(f))
                .unwrap()
                .lines()
                .count()
        })
        .sum::<usize>();
    assert_eq!(exported.len(), variants);
    assert!(
        err.contains(&format!("{variants} records (0 variants")),
        "{err}"
    );
    assert!(vcf.contains("\nchr1\t15001\t.\tA\tG\t.\t.\tVARCAT_rsid=rs900001;"));
    assert!(vcf.contains("\nchr1\t15500\t.\tN\tNAAA\t.\t.\tVARCAT_rsid=rs900008;"));

    let again = annotate(
        &[
            gz.to_str().unwrap(),
            "-o",
            "-",
            "--fields",
            "all",
            "--prefix",
            "Y_",
        ],
        None,
    );
    let err = text(&again.stderr);
    assert!(again.status.success(), "{err}");
    assert!(
        err.contains(&format!("annotated {variants}, absent 0, ref-mismatch 0")),
        "{err}"
    );
    for rec in records(&text(&again.stdout)) {
        let info = rec.split('\t').nth(7).unwrap();
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for kv in info.split(';') {
            if let Some(v) = kv.strip_prefix("VARCAT_") {
                ours.push(v);
            } else if let Some(v) = kv.strip_prefix("Y_") {
                theirs.push(v);
            }
        }
        assert_eq!(ours, theirs, "{rec}");
    }
}

/// A few variant members are decoded one by one from the encoded record, more (or any edge
/// field) through the whole printed record: both give the same values.
#[test]
fn test_annotate_member_reads_agree_with_whole_record_reads() {
    let dir = scratch("annotate-lean");
    let input = write(&dir, "in.vcf", &input_text());
    let lean = "rsid,gnomad_af_total,bravo_af,gencode_category,cadd_phred";
    let infos = |fields: &str| -> Vec<Vec<String>> {
        let out = annotate(&[&input, "-o", "-", "--fields", fields], None);
        assert!(out.status.success(), "{}", text(&out.stderr));
        records(&text(&out.stdout))
            .iter()
            .map(|r| {
                let info = r.split('\t').nth(7).unwrap();
                info.split(';')
                    .filter(|kv| {
                        lean.split(',')
                            .any(|f| kv.starts_with(&format!("VARCAT_{f}=")))
                    })
                    .map(str::to_string)
                    .collect()
            })
            .collect()
    };
    let one_by_one = infos(lean);
    let whole = infos(&format!("{lean},eqtl_n"));
    assert_eq!(one_by_one, whole);
    // Real values were compared, not empty columns.
    assert!(one_by_one
        .iter()
        .flatten()
        .any(|kv| kv.starts_with("VARCAT_bravo_af=0.0000")));
    assert!(one_by_one
        .iter()
        .flatten()
        .any(|kv| kv.starts_with("VARCAT_gencode_category=")));
}

#[test]
fn test_annotate_one_pass_reads_agree_with_whole_record_reads() {
    // Every field of every catalog variant: the one-pass read of the encoded record (members
    // and annotation members decoded alone) against printing the record whole and scanning it.
    let cat = varcat_format::Catalog::open(catalog()).unwrap();
    let cols = varcat_format::collection::Collections::open(cat).unwrap();
    let variants = cols.get("variants").unwrap();
    let fields = varcat_annotate::fields::all();
    let mut visited = varcat_annotate::values::Values::new(&cols, variants, &fields);
    let mut whole = varcat_annotate::values::Values::new(&cols, variants, &fields);
    whole.read_whole();
    let (mut a, mut b) = (
        vec![Vec::new(); fields.len()],
        vec![Vec::new(); fields.len()],
    );
    let mut filled = vec![0usize; fields.len()];
    for ord in 0..variants.len() {
        visited.fill(ord, &mut a);
        whole.fill(ord, &mut b);
        assert_eq!(a, b, "variant {ord}");
        for (n, v) in filled.iter_mut().zip(&a) {
            *n += usize::from(!v.is_empty());
        }
    }
    // Real values were compared: rsids, frequencies, scores, QTL counts.
    let filled_fields = filled.iter().filter(|&&n| n > 0).count();
    assert!(
        filled_fields > 40,
        "{filled_fields} of {} fields",
        fields.len()
    );
}
