//! One record's annotation, independent of the file format: each ALT allele trimmed, matched
//! and counted, the chosen fields' values per allele, rendered as INFO text.

use varcat_format::collection::Collections;

use crate::allele;
use crate::fields::Field;
use crate::lookup::{Matcher, Outcome};
use crate::values::Values;

/// Counts over ALT alleles and records (the summary line).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Records read (every one is written).
    pub records: u64,
    /// Records that got at least one value.
    pub records_annotated: u64,
    /// ALT alleles found in the catalog.
    pub annotated: u64,
    /// ALT alleles not in the catalog (including those on contigs it lacks).
    pub absent: u64,
    /// ALT alleles whose REF disagrees with the catalog's.
    pub ref_mismatch: u64,
    /// ALT alleles that are not sequences (symbolic, `*`, breakends, `.`) or equal REF.
    pub skipped: u64,
    /// Malformed records passed through under `--lenient`.
    pub malformed: u64,
}

impl std::ops::AddAssign<&Counts> for Counts {
    fn add_assign(&mut self, o: &Counts) {
        self.records += o.records;
        self.records_annotated += o.records_annotated;
        self.annotated += o.annotated;
        self.absent += o.absent;
        self.ref_mismatch += o.ref_mismatch;
        self.skipped += o.skipped;
        self.malformed += o.malformed;
    }
}

impl std::ops::SubAssign<&Counts> for Counts {
    fn sub_assign(&mut self, o: &Counts) {
        self.records -= o.records;
        self.records_annotated -= o.records_annotated;
        self.annotated -= o.annotated;
        self.absent -= o.absent;
        self.ref_mismatch -= o.ref_mismatch;
        self.skipped -= o.skipped;
        self.malformed -= o.malformed;
    }
}

/// The last annotated record's key (CHROM, POS, REF, ALT as given) and what its alleles added
/// to the counts: a record equal to the one before it reuses its values (`vals` still holds
/// them), which costs a compare instead of a look-up per allele.
#[derive(Default)]
struct Last {
    valid: bool,
    key: Vec<u8>,
    added: Counts,
    any: bool,
    /// Its INFO entries, once rendered (`text`).
    rendered: bool,
    text: Vec<u8>,
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "records {} ({} annotated, {} malformed); ALT alleles: annotated {}, absent {}, ref-mismatch {}, skipped {}",
            self.records,
            self.records_annotated,
            self.malformed,
            self.annotated,
            self.absent,
            self.ref_mismatch,
            self.skipped
        )
    }
}

/// Annotates records against one catalog.
pub struct Annotator<'c> {
    matcher: Matcher<'c>,
    values: Values<'c>,
    fields: Vec<Field>,
    keys: Vec<Vec<u8>>,
    /// `vals[alt][field]`: the value text, empty when missing.
    vals: Vec<Vec<Vec<u8>>>,
    alts: usize,
    upper: Vec<u8>,
    upper_alt: Vec<u8>,
    /// The last input contig and the catalog's name for it (records come in contig blocks).
    contig: Option<(String, Option<String>)>,
    last: Last,
    scratch: Vec<u8>,
    /// The counts so far.
    pub counts: Counts,
}

impl<'c> Annotator<'c> {
    /// An annotator of `fields` (INFO keys `prefix` + name) from `cols`.
    pub fn new(
        cols: &'c Collections,
        fields: Vec<Field>,
        prefix: &str,
        window: u64,
    ) -> Result<Annotator<'c>, String> {
        let matcher = Matcher::new(cols, window)?;
        let values = Values::new(cols, matcher.variants, &fields);
        let keys = fields
            .iter()
            .map(|f| format!("{prefix}{}", f.name).into_bytes())
            .collect();
        Ok(Annotator {
            matcher,
            values,
            fields,
            keys,
            vals: Vec::new(),
            alts: 0,
            upper: Vec::new(),
            upper_alt: Vec::new(),
            contig: None,
            last: Last::default(),
            scratch: Vec::new(),
            counts: Counts::default(),
        })
    }

    /// The fields, in output order.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// Input contigs the catalog has in neither spelling.
    pub fn unknown_contigs(&self) -> &[String] {
        &self.matcher.unknown_contigs
    }

    /// Looks up record (`chrom`, 1-based `pos`, `r`, `alts`) and keeps its values for
    /// [`Annotator::render`]; returns true when any allele got a value.
    pub fn annotate<'a>(
        &mut self,
        chrom: &str,
        pos: u64,
        r: &[u8],
        alts: impl Iterator<Item = &'a [u8]>,
    ) -> bool {
        // The key of this record: CHROM, POS, REF and ALT, with lengths.
        let mut key = std::mem::take(&mut self.scratch);
        key.clear();
        key.extend_from_slice(&chrom.len().to_le_bytes());
        key.extend_from_slice(chrom.as_bytes());
        key.extend_from_slice(&pos.to_le_bytes());
        key.extend_from_slice(&r.len().to_le_bytes());
        key.extend_from_slice(r);
        let at = key.len();
        for a in alts {
            key.extend_from_slice(&a.len().to_le_bytes());
            key.extend_from_slice(a);
        }
        if self.last.valid && self.last.key == key {
            self.scratch = key;
            self.counts += &self.last.added;
            return self.last.any;
        }
        let before = self.counts.clone();
        self.last.rendered = false;
        let mut rest = &key[at..];
        let alts = std::iter::from_fn(|| {
            let (n, tail) = rest.split_first_chunk::<{ size_of::<usize>() }>()?;
            let (a, tail) = tail.split_at(usize::from_le_bytes(*n));
            rest = tail;
            Some(a)
        });
        let any = self.look_up(chrom, pos, r, alts);
        let mut added = self.counts.clone();
        added -= &before;
        self.scratch = std::mem::replace(&mut self.last.key, key);
        self.last.added = added;
        self.last.any = any;
        self.last.valid = true;
        any
    }

    /// [`Annotator::annotate`] without the repeat check.
    fn look_up<'a>(
        &mut self,
        chrom: &str,
        pos: u64,
        r: &[u8],
        alts: impl Iterator<Item = &'a [u8]>,
    ) -> bool {
        self.counts.records += 1;
        self.upper.clear();
        self.upper.extend(r.iter().map(u8::to_ascii_uppercase));
        if self.contig.as_ref().is_none_or(|(c, _)| c != chrom) {
            let mapped = self.matcher.contig(chrom).map(str::to_string);
            self.contig = Some((chrom.to_string(), mapped));
        }
        let catalog_chrom = self.contig.as_ref().and_then(|(_, m)| m.as_deref());
        let n = self.fields.len();
        self.alts = 0;
        let mut any = false;
        for a in alts {
            if self.vals.len() <= self.alts {
                self.vals.push(vec![Vec::new(); n]);
            }
            let slot = &mut self.vals[self.alts];
            self.alts += 1;
            slot.iter_mut().for_each(Vec::clear);
            self.upper_alt.clear();
            self.upper_alt.extend(a.iter().map(u8::to_ascii_uppercase));
            let edit = match (pos, allele::trim(pos.max(1), &self.upper, &self.upper_alt)) {
                (0, _) | (_, Err(_)) => {
                    self.counts.skipped += 1;
                    continue;
                }
                (_, Ok(e)) => e,
            };
            let outcome = match catalog_chrom {
                None => Outcome::Absent,
                Some(c) => self.matcher.find(c, &edit, pos - 1, &self.upper),
            };
            match outcome {
                Outcome::Found(ord) => {
                    self.counts.annotated += 1;
                    self.values.fill(ord, slot);
                    any |= slot.iter().any(|v| !v.is_empty());
                }
                Outcome::Absent => self.counts.absent += 1,
                Outcome::RefMismatch => self.counts.ref_mismatch += 1,
            }
        }
        if any {
            self.counts.records_annotated += 1;
        }
        any
    }

    /// Takes catalog variant `ord` as a record with one ALT allele, the same allele (what
    /// `export-vcf` writes), for [`Annotator::render`]; returns true when it has any value.
    pub fn annotate_ordinal(&mut self, ord: u64) -> bool {
        self.last.valid = false;
        self.last.rendered = false;
        if self.vals.is_empty() {
            self.vals.push(vec![Vec::new(); self.fields.len()]);
        }
        self.alts = 1;
        self.values.fill(ord, &mut self.vals[0]);
        self.vals[0].iter().any(|v| !v.is_empty())
    }

    /// Calls `f(key, values per ALT)` for each field that has a value for some allele of the
    /// last annotated record (a field no allele has is left out, as bcftools does).
    pub fn for_each_value(&self, mut f: impl FnMut(&[u8], &Field, &[Vec<Vec<u8>>], usize)) {
        for (i, field) in self.fields.iter().enumerate() {
            if self.vals[..self.alts].iter().any(|v| !v[i].is_empty()) {
                f(&self.keys[i], field, &self.vals[..self.alts], i);
            }
        }
    }

    /// Appends the last record's INFO entries (`KEY=v1,v2;…`, `.` for an allele without a
    /// value) to `out`, with a leading `;` when `out` is not empty.
    pub fn render(&mut self, out: &mut Vec<u8>) {
        self.render_after(out, !out.is_empty());
    }

    /// [`Annotator::render`] appending to `out` after other INFO entries when `sep`. The text
    /// is kept, so a repeated record copies it instead of rendering it again.
    pub fn render_after(&mut self, out: &mut Vec<u8>, sep: bool) {
        if !self.last.rendered {
            let mut text = std::mem::take(&mut self.last.text);
            text.clear();
            self.for_each_value(|key, _, vals, i| {
                if !text.is_empty() {
                    text.push(b';');
                }
                text.extend_from_slice(key);
                text.push(b'=');
                for (j, v) in vals.iter().enumerate() {
                    if j > 0 {
                        text.push(b',');
                    }
                    if v[i].is_empty() {
                        text.push(b'.');
                    } else {
                        text.extend_from_slice(&v[i]);
                    }
                }
            });
            self.last.text = text;
            self.last.rendered = true;
        }
        if sep && !self.last.text.is_empty() {
            out.push(b';');
        }
        out.extend_from_slice(&self.last.text);
    }
}
