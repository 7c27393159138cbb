//! BCF in or BCF out: records go through noodles' record buffers (decoded, INFO extended,
//! re-encoded). Values stay the same; BCF has no bytes to keep. VCF text to VCF text never
//! comes here (see `text.rs`).

use std::io::{BufRead, Write};

use noodles_bcf as bcf;
use noodles_vcf as vcf;
use vcf::variant::io::Write as _;
use vcf::variant::record_buf::info::field::value::Array;
use vcf::variant::record_buf::info::field::Value;
use vcf::variant::RecordBuf;

use crate::annotator::Annotator;
use crate::fields::Ty;
use crate::live_index::LiveIndex;
use crate::output::Counting;
use crate::timings::{Stage, Timings};
use crate::Sorted;

/// Where records come from.
pub enum Source {
    /// BCF (decompressed).
    Bcf(bcf::io::Reader<Box<dyn BufRead>>),
    /// VCF text after its header, read line by line (for line numbers and `--lenient`).
    Vcf(Box<dyn BufRead>, u64),
}

/// Where records go.
pub enum Sink<W: Write> {
    /// VCF text.
    Vcf(vcf::io::Writer<W>),
    /// BCF.
    Bcf(bcf::io::Writer<W>),
}

impl<W: Write> Sink<Counting<W>> {
    /// Bytes written so far (uncompressed).
    fn at(&self) -> u64 {
        match self {
            Sink::Vcf(w) => w.get_ref().at,
            Sink::Bcf(w) => w.get_ref().at,
        }
    }
}

impl<W: Write> Sink<W> {
    /// Writes the header.
    pub fn header(&mut self, h: &vcf::Header) -> std::io::Result<()> {
        match self {
            Sink::Vcf(w) => w.write_variant_header(h),
            Sink::Bcf(w) => w.write_variant_header(h),
        }
    }

    fn record(&mut self, h: &vcf::Header, r: &RecordBuf) -> std::io::Result<()> {
        match self {
            Sink::Vcf(w) => w.write_variant_record(h, r),
            Sink::Bcf(w) => w.write_variant_record(h, r),
        }
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        match self {
            Sink::Vcf(w) => w.into_inner(),
            Sink::Bcf(w) => w.into_inner(),
        }
    }
}

/// Adds the annotator's values for `rec` to its INFO.
fn extend_info(ann: &Annotator<'_>, rec: &mut RecordBuf) {
    let mut add = Vec::new();
    ann.for_each_value(|key, field, vals, i| {
        let text = |v: &Vec<Vec<u8>>| -> Option<String> {
            (!v[i].is_empty()).then(|| String::from_utf8_lossy(&v[i]).into_owned())
        };
        let array = match field.ty {
            Ty::Float => Array::Float(
                vals.iter()
                    .map(|v| text(v).and_then(|s| s.parse().ok()))
                    .collect(),
            ),
            Ty::Integer => Array::Integer(
                vals.iter()
                    .map(|v| text(v).and_then(|s| s.parse().ok()))
                    .collect(),
            ),
            Ty::String => Array::String(vals.iter().map(text).collect()),
        };
        add.push((String::from_utf8_lossy(key).into_owned(), array));
    });
    for (k, a) in add {
        rec.info_mut().insert(k, Some(Value::Array(a)));
    }
}

/// Annotates every record of `src` into `sink` under `header` (the output header), each
/// added to `index` as written.
#[allow(clippy::too_many_arguments)]
pub fn records<W: Write>(
    src: Source,
    in_header: &vcf::Header,
    header: &vcf::Header,
    sink: &mut Sink<Counting<W>>,
    ann: &mut Annotator<'_>,
    sorted: &mut Sorted,
    mut index: Option<&mut LiveIndex>,
    name: &str,
    lenient: bool,
    t: &mut Timings,
) -> Result<(), String> {
    let mut rec = RecordBuf::default();
    let bcf_out = matches!(sink, Sink::Bcf(_));
    let mut step = |rec: &mut RecordBuf,
                    ann: &mut Annotator<'_>,
                    t: &mut Timings,
                    place: &dyn Fn() -> String|
     -> Result<(), String> {
        t.lap(Stage::Decode);
        let chrom = rec.reference_sequence_name().to_string();
        // BCF names a contig by its index among the header's: one the header does not
        // declare cannot be written (bcftools adds it to a header it has already written).
        if bcf_out && !header.contigs().contains_key(&chrom) {
            return Err(format!(
                "{}: contig {chrom} is not declared in the header: BCF output needs a \
                     ##contig line for every contig (add them to the input's header, or write \
                     VCF with -O z)",
                place()
            ));
        }
        let pos = rec.variant_start().map_or(0, |p| p.get() as u64);
        sorted.see(&chrom, pos);
        let alts: Vec<String> = rec.alternate_bases().as_ref().to_vec();
        let r = rec.reference_bases().to_string();
        let found = ann.annotate(&chrom, pos, r.as_bytes(), alts.iter().map(|a| a.as_bytes()));
        t.lap(Stage::Lookup);
        if found {
            extend_info(ann, rec);
        }
        t.lap(Stage::Format);
        let from = sink.at();
        sink.record(header, rec)
            .map_err(|e| format!("writing: {e}"))?;
        if let Some(ix) = index.as_deref_mut() {
            use vcf::variant::Record as _;
            // The end as noodles' indexers read it back (INFO END, else REF's span).
            let end = rec.variant_end(header).ok().map(|p| p.get() as u64);
            ix.add(&chrom, pos, end, from, sink.at());
        }
        t.lap(Stage::Write);
        Ok(())
    };
    match src {
        Source::Bcf(mut r) => {
            let mut n = 0u64;
            loop {
                n += 1;
                // A BCF record that does not decode leaves the stream position unknown, so
                // it stops the run even under --lenient.
                match r.read_record_buf(in_header, &mut rec) {
                    Ok(0) => return Ok(()),
                    Ok(_) => step(&mut rec, ann, t, &|| format!("{name}: record {n}"))?,
                    Err(e) => return Err(format!("{name}: record {n}: {e}")),
                }
            }
        }
        Source::Vcf(mut input, mut line) => {
            let mut buf = Vec::new();
            loop {
                buf.clear();
                let got = input
                    .read_until(b'\n', &mut buf)
                    .map_err(|e| format!("{name}:{}: {e}", line + 1))?;
                if got == 0 {
                    return Ok(());
                }
                line += 1;
                let mut one = vcf::io::Reader::new(&buf[..]);
                match one.read_record_buf(in_header, &mut rec) {
                    Ok(_) => step(&mut rec, ann, t, &|| format!("{name}:{line}"))?,
                    Err(e) if lenient => {
                        // BCF cannot carry a record it cannot encode: dropped, and said so.
                        ann.counts.records += 1;
                        ann.counts.malformed += 1;
                        eprintln!(
                            "varcat annotate: warning: {name}:{line}: {e} (not encodable as BCF: dropped)"
                        );
                    }
                    Err(e) => return Err(format!("{name}:{line}: {e}")),
                }
            }
        }
    }
}
