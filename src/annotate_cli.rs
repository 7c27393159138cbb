//! `varcat annotate` and `varcat export-vcf`: their options, then the run and the summary
//! line (the work is in the `varcat-annotate` crate).

use std::path::PathBuf;
use std::process::ExitCode;

use lexopt::prelude::*;
use varcat_annotate::fields;
use varcat_annotate::output::OutFormat;
use varcat_tools::args::{string, value};

use crate::usage;

/// Runs `varcat annotate` with the arguments after the command name.
pub fn annotate(mut p: lexopt::Parser, command: String) -> Result<ExitCode, String> {
    let (mut input, mut output, mut catalog) = (None, None, None);
    let (mut spec, mut prefix, mut format) =
        (fields::DEFAULT.to_string(), "VARCAT_".to_string(), None);
    let mut threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let (mut assume_grch38, mut lenient, mut list, mut window) = (false, false, false, 100u64);
    let (mut timings, mut rules) = (false, varcat_annotate::input::Rules::default());
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Short('h') | Long("help") => return usage::print("annotate"),
            Short('o') | Long("output") => output = Some(PathBuf::from(value(&mut p)?)),
            Long("allow-missing-eof") => rules.allow_missing_eof = true,
            Long("max-line") => rules.max_line = crate::cli::max_line(&value(&mut p)?)?,
            Short('O') | Long("output-type") => {
                format = Some(OutFormat::from_letter(&value(&mut p)?)?)
            }
            Long("catalog") => catalog = Some(PathBuf::from(value(&mut p)?)),
            Long("fields") => spec = value(&mut p)?,
            Long("list-fields") => list = true,
            Long("prefix") => prefix = value(&mut p)?,
            Long("threads") => threads = positive(&value(&mut p)?, "--threads")?,
            Long("indel-window") => {
                let v = value(&mut p)?;
                window = v
                    .parse()
                    .map_err(|_| format!("--indel-window takes a number, got {v:?}"))?
            }
            Long("assume-grch38") => assume_grch38 = true,
            Long("lenient") => lenient = true,
            Long("timings") => timings = true,
            Value(v) if input.is_none() => input = Some(PathBuf::from(string(v)?)),
            other => return Err(usage::unexpected("annotate", other)),
        }
    }
    check_prefix(&prefix)?;
    if list {
        print!("{}", fields::listing(&prefix));
        return Ok(ExitCode::SUCCESS);
    }
    let fields = fields::parse(&spec)?;
    let (Some(input), Some(output)) = (input, output) else {
        return Err(
            "annotate needs <in.vcf|.vcf.gz|.bcf|-> and -o <out.vcf|.vcf.gz|.bcf|->".into(),
        );
    };
    let catalog = crate::cli::catalog_arg(catalog)?;
    let opts = varcat_annotate::Options {
        input,
        output,
        format,
        catalog,
        fields,
        prefix,
        threads,
        assume_grch38,
        lenient,
        window,
        command,
        timings,
        rules,
    };
    crate::cli::remove_outputs_when_stopped("annotate")?;
    let report = varcat_annotate::run(&opts)?;
    for c in &report.unknown_contigs {
        eprintln!(
            "varcat annotate: warning: contig {c} is not in the catalog (its records are absent)"
        );
    }
    if report.unsorted {
        eprintln!(
            "varcat annotate: warning: the input is not sorted; no index written (an index \
             needs positions ascending within each contig, each contig in one run, and for BCF \
             the contigs in the header's order)"
        );
    }
    if let Some(i) = &report.index {
        eprintln!("varcat annotate: index {}", i.display());
    }
    if report.timings.on() {
        eprintln!("varcat annotate: timings: {}", report.timings);
    }
    eprintln!("varcat annotate: {report}");
    Ok(ExitCode::SUCCESS)
}

/// Runs `varcat export-vcf`: the catalog's variants as a sites-only VCF with the same fields.
pub fn export_vcf(mut p: lexopt::Parser, command: String) -> Result<ExitCode, String> {
    let (mut catalog, mut output) = (None, None);
    let (mut spec, mut prefix) = (fields::DEFAULT.to_string(), "VARCAT_".to_string());
    let mut threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Short('h') | Long("help") => return usage::print("export-vcf"),
            Short('o') | Long("output") => output = Some(PathBuf::from(value(&mut p)?)),
            Long("fields") => spec = value(&mut p)?,
            Long("prefix") => prefix = value(&mut p)?,
            Long("threads") => threads = positive(&value(&mut p)?, "--threads")?,
            Value(v) if catalog.is_none() => catalog = Some(PathBuf::from(string(v)?)),
            other => return Err(usage::unexpected("export-vcf", other)),
        }
    }
    check_prefix(&prefix)?;
    let fields = fields::parse(&spec)?;
    let output = output.ok_or("export-vcf needs -o <out.vcf|.vcf.gz|->")?;
    let catalog = crate::cli::catalog_arg(catalog)?;
    crate::cli::remove_outputs_when_stopped("export-vcf")?;
    let start = std::time::Instant::now();
    let done =
        varcat_annotate::export::export(&catalog, &output, fields, &prefix, threads, &command)?;
    if let Some(i) = &done.index {
        eprintln!("varcat export-vcf: index {}", i.display());
    }
    eprintln!(
        "varcat export-vcf: {} records ({} variants without an SPDI left out) in {:.1}s",
        done.records,
        done.unplaced,
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn positive(v: &str, flag: &str) -> Result<usize, String> {
    v.parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or(format!("{flag} takes a positive number, got {v:?}"))
}

/// An INFO key prefix: letters, digits and `_`, not starting with a digit.
fn check_prefix(prefix: &str) -> Result<(), String> {
    let ok = prefix
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !prefix.starts_with(|c: char| c.is_ascii_digit());
    if ok {
        Ok(())
    } else {
        Err(format!(
            "--prefix {prefix:?}: an INFO key is letters, digits and _"
        ))
    }
}
