//! `varcat annotate`: adds INFO fields from a varcat catalog to the records of a VCF or BCF,
//! keeping every record, in order.
//!
//! - [`allele`]: trimming and the reference-free equivalence with the catalog's SPDIs;
//! - [`lookup`]: finding an allele among the catalog's variants;
//! - [`fields`]: the field table; [`values`]: a variant's values as INFO text;
//! - [`export`]: `varcat export-vcf`, the catalog as an annotation VCF;
//! - [`annotator`]: one record, any format; [`text`]: VCF text to VCF text, byte-preserving;
//!   [`generic`]: BCF in or out through noodles; [`header`]: headers;
//! - [`input`]: what is read and what is refused (truncation, other compressions, long lines);
//!   [`output`]: the output, staged until complete, and its index;
//! - [`pipeline`]: VCF text chunks annotated on several threads, written in order;
//!   [`live_index`]: the `.tbi`/`.csi` built while the BGZF output is written;
//!   [`timings`]: `--timings`, the time per stage.

pub mod allele;
pub mod annotator;
pub mod export;
pub mod fields;
pub mod generic;
pub mod header;
pub mod input;
pub mod live_index;
pub mod lookup;
pub mod output;
pub mod pipeline;
pub mod text;
pub mod timings;
pub mod values;

use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Instant;

use noodles_bcf as bcf;
use noodles_vcf as vcf;
use varcat_format::collection::Collections;
use varcat_format::Catalog;

use crate::annotator::{Annotator, Counts};
use crate::fields::Field;
use crate::output::{OutFormat, Output};
use crate::timings::{Stage, Timings};

/// What to annotate, how.
#[derive(Clone, Debug)]
pub struct Options {
    /// Input path (`-`: stdin).
    pub input: PathBuf,
    /// Output path (`-`: stdout).
    pub output: PathBuf,
    /// Output format (None: from the output's extension).
    pub format: Option<OutFormat>,
    /// The catalog.
    pub catalog: PathBuf,
    /// Fields, in output order.
    pub fields: Vec<Field>,
    /// INFO key prefix.
    pub prefix: String,
    /// Threads: annotators of VCF text chunks, and BGZF compression.
    pub threads: usize,
    /// Annotate even when the header names another assembly.
    pub assume_grch38: bool,
    /// Pass malformed records through with a warning instead of stopping.
    pub lenient: bool,
    /// How far left of an indel to look for its expanded SPDI.
    pub window: u64,
    /// The command line, for the output header.
    pub command: String,
    /// Time each stage of the record loop (`--timings`).
    pub timings: bool,
    /// What the input may be (`--allow-missing-eof`, `--max-line`).
    pub rules: input::Rules,
}

/// What a run did.
#[derive(Debug)]
pub struct Report {
    /// Counts.
    pub counts: Counts,
    /// Wall time of the records (seconds).
    pub secs: f64,
    /// The index written, if any.
    pub index: Option<PathBuf>,
    /// True when the output would have been indexed but the input was not sorted.
    pub unsorted: bool,
    /// Input contigs the catalog lacks.
    pub unknown_contigs: Vec<String>,
    /// The time per stage (all zero unless `Options::timings`).
    pub timings: Timings,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}; {:.2}s, {:.0} records/s",
            self.counts,
            self.secs,
            self.counts.records as f64 / self.secs.max(1e-9)
        )
    }
}

/// Sortedness of the input: contigs in blocks, positions not decreasing within each.
#[derive(Debug, Default)]
pub struct Sorted {
    seen: HashSet<String>,
    last: Option<(String, u64)>,
    /// False once a record is out of order.
    pub ok: bool,
}

impl Sorted {
    fn new() -> Sorted {
        Sorted {
            ok: true,
            ..Sorted::default()
        }
    }

    /// Notes a record at (`chrom`, `pos`).
    pub fn see(&mut self, chrom: &str, pos: u64) {
        if !self.ok {
            return;
        }
        match &mut self.last {
            Some((c, p)) if c == chrom => {
                if pos < *p {
                    self.ok = false;
                }
                *p = pos;
            }
            _ => {
                if !self.seen.insert(chrom.to_string()) {
                    self.ok = false;
                }
                self.last = Some((chrom.to_string(), pos));
            }
        }
    }
}

/// The header text of a text VCF, up to and including `#CHROM`, and its line count.
fn read_text_header(input: &mut dyn BufRead, name: &str) -> Result<(String, u64), String> {
    let (mut text, mut lines) = (String::new(), 0u64);
    loop {
        let mut line = Vec::new();
        let n = input
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("{name}:{}: {e}", lines + 1))?;
        if n == 0 {
            return Err(format!("{name}: no #CHROM header line"));
        }
        lines += 1;
        if !line.starts_with(b"#") {
            return Err(format!(
                "{name}:{lines}: a record before the #CHROM header line"
            ));
        }
        let s = String::from_utf8(line).map_err(|_| format!("{name}:{lines}: not UTF-8"))?;
        if s.starts_with("#CHROM ") {
            return Err(format!(
                "{name}:{lines}: the #CHROM line is separated by spaces; VCF columns are \
                 separated by tabs"
            ));
        }
        let last = s.starts_with("#CHROM");
        text.push_str(&s);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        if last {
            return Ok((text, lines));
        }
    }
}

/// `text` with `added` inserted before its `#CHROM` line.
fn with_added(text: &str, added: &str) -> String {
    let at = text.find("\n#CHROM").map_or(0, |i| i + 1);
    format!("{}{added}{}", &text[..at], &text[at..])
}

/// Annotates `opts.input` into `opts.output`. An output that is one of the inputs is refused
/// before anything is opened for writing.
pub fn run(opts: &Options) -> Result<Report, String> {
    let format = opts
        .format
        .unwrap_or_else(|| OutFormat::from_path(&opts.output));
    let mut outputs = vec![opts.output.clone()];
    if matches!(format, OutFormat::VcfGz | OutFormat::Bcf) {
        outputs.extend(output::index_paths(&opts.output));
    }
    for out in &outputs {
        varcat_outfile::check_distinct(out, &[&opts.input, &opts.catalog])?;
    }
    let catalog =
        Catalog::open(&opts.catalog).map_err(|e| format!("{}: {e}", opts.catalog.display()))?;
    let cols =
        Collections::open(catalog).map_err(|e| format!("{}: {e}", opts.catalog.display()))?;
    let input = input::open(&opts.input, 1, opts.rules)?;
    annotate(opts, &cols, input)
}

/// Annotates `input` (opened from `opts.input`, or given in memory) with the catalog `cols`
/// into `opts.output`.
pub fn annotate(opts: &Options, cols: &Collections, input: input::Input) -> Result<Report, String> {
    let format = opts
        .format
        .unwrap_or_else(|| OutFormat::from_path(&opts.output));
    let checksum = format!("{:016x}", cols.catalog.checksum());
    let ann = || Annotator::new(cols, opts.fields.clone(), &opts.prefix, opts.window);
    let mut anns = vec![ann()?];
    let name = input.name.clone();
    let mut reader = input.reader;
    let (text, lines, bcf_in) = if input.bcf {
        let mut r =
            bcf::io::Reader::from(std::mem::replace(&mut reader, Box::new(std::io::empty())));
        let h = r
            .read_header()
            .map_err(|e| format!("{name}: BCF header: {e}"))?;
        let mut w = vcf::io::Writer::new(Vec::new());
        w.write_header(&h)
            .map_err(|e| format!("{name}: header: {e}"))?;
        let text = String::from_utf8(w.into_inner()).map_err(|e| e.to_string())?;
        (text, 0, Some((r, h)))
    } else {
        let (text, lines) = read_text_header(&mut reader, &name)?;
        (text, lines, None)
    };
    if let Some(other) = header::other_assembly(&text) {
        if !opts.assume_grch38 {
            return Err(format!(
                "{name}: the header is for another assembly ({other}); the catalog is GRCh38. \
                 Lift the calls over, or pass --assume-grch38 if they are GRCh38"
            ));
        }
    }
    let mut in_header =
        header::parse(&text, &opts.fields, &opts.prefix).map_err(|e| format!("{name}:{e}"))?;
    let added = header::added_lines(&opts.fields, &opts.prefix, &opts.command, &checksum);
    let out_text = with_added(&text, &added);

    let indexable =
        matches!(format, OutFormat::VcfGz | OutFormat::Bcf) && !input::is_stdio(&opts.output);
    let text_path = bcf_in.is_none() && !format.is_bcf();
    let out_header = vcf::header::Parser::default()
        .parse(&out_text)
        .map_err(|e| format!("output header: {e}"))?;
    let mut sorted = Sorted::new();
    let start = Instant::now();
    let mut t = Timings::new(opts.timings);
    let unknown;
    let mut live = None;
    let mut out = if indexable {
        // Indexed while written: the index sees each block pass to the file.
        let (staged, file) = output::target(&opts.output)?;
        let (ix, tap) = if format.is_bcf() {
            live_index::LiveIndex::new_bcf(&out_header, file)
        } else {
            live_index::LiveIndex::new(&in_header, file)
        }
        .map_err(|e| format!("indexing {}: {e}", opts.output.display()))?;
        live = Some(ix);
        Output::on(Box::new(tap), staged, format, opts.threads)
    } else {
        Output::create(&opts.output, format, opts.threads)?
    };
    if text_path {
        out.write_all(out_text.as_bytes())
            .map_err(|e| format!("writing: {e}"))?;
        // The records' ends as the index computes them, under the output header.
        let ends = live.as_ref().map(|_| text::Ends::new(out_header.clone()));
        while anns.len() < opts.threads {
            anns.push(ann()?);
        }
        let mut w = pipeline::Writer {
            out: &mut out,
            sorted: &mut sorted,
            index: live.take(),
            name: &name,
            line: lines,
            written: out_text.len() as u64,
            malformed: 0,
            unknown: Vec::new(),
        };
        t = pipeline::run(
            &mut reader,
            &mut w,
            &mut anns,
            opts.lenient,
            ends.as_ref(),
            opts.timings,
        )?;
        (live, unknown) = (w.index.take(), std::mem::take(&mut w.unknown));
    } else {
        let src = match bcf_in {
            Some((r, h)) => {
                // BCF records name contigs by index into the header's string maps, which
                // only the header read from the file carries.
                in_header = h;
                generic::Source::Bcf(r)
            }
            None => generic::Source::Vcf(reader, lines),
        };
        let counted = output::Counting { inner: out, at: 0 };
        let mut sink = if format.is_bcf() {
            generic::Sink::Bcf(bcf::io::Writer::from(counted))
        } else {
            generic::Sink::Vcf(vcf::io::Writer::new(counted))
        };
        sink.header(&out_header)
            .map_err(|e| format!("writing: {e}"))?;
        generic::records(
            src,
            &in_header,
            &out_header,
            &mut sink,
            &mut anns[0],
            &mut sorted,
            live.as_mut(),
            &name,
            opts.lenient,
            &mut t,
        )?;
        unknown = anns[0].unknown_contigs().to_vec();
        out = sink.into_inner().inner;
    }
    let staged = out.finish()?;
    t.lap(Stage::Write);
    let secs = start.elapsed().as_secs_f64();
    let at = Instant::now();
    let built = match live {
        Some(ix) if sorted.ok => ix
            .finish()
            .map_err(|e| format!("indexing {}: {e}", opts.output.display()))?,
        _ => None,
    };
    let staged_index = match &built {
        Some(b) => Some(output::save_index(&opts.output, b)?),
        None => None,
    };
    let index = output::commit(staged, staged_index)?;
    t.index = t.on().then(|| at.elapsed());
    let mut counts = Counts::default();
    for a in &anns {
        counts += &a.counts;
    }
    Ok(Report {
        counts,
        secs,
        index,
        unsorted: indexable && built.is_none(),
        unknown_contigs: unknown,
        timings: t,
    })
}
