//! VCF text in, VCF text out: each record line is split by hand (CHROM, POS, REF, ALT, INFO)
//! and written back with only its INFO column changed, so every other column, samples
//! included, keeps its bytes.

use std::io::BufRead;

use crate::annotator::Annotator;
use crate::timings::{Stage, Timings};

/// The first eight columns and the rest (with its leading tab), or why there are too few.
fn split(line: &[u8]) -> Result<[&[u8]; 9], String> {
    let mut cols = [&line[..0]; 9];
    let mut rest = line;
    for (i, c) in cols.iter_mut().take(7).enumerate() {
        let Some(t) = memchr::memchr(b'\t', rest) else {
            return Err(format!("{} columns, a VCF record has at least 8", i + 1));
        };
        *c = &rest[..t];
        rest = &rest[t + 1..];
    }
    match memchr::memchr(b'\t', rest) {
        Some(t) => {
            cols[7] = &rest[..t];
            cols[8] = &rest[t..];
        }
        None => cols[7] = rest,
    }
    Ok(cols)
}

/// POS as `u64::from_str` reads it (an optional `+`, then decimal digits, no overflow),
/// without a UTF-8 check first.
fn parse_pos(b: &[u8]) -> Option<u64> {
    let digits = b.strip_prefix(b"+").unwrap_or(b);
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u64, |n, &c| match c {
        b'0'..=b'9' => n.checked_mul(10)?.checked_add(u64::from(c - b'0')),
        _ => None,
    })
}

/// The checks noodles applies to the columns varcat reads.
fn check<'a>(cols: &[&'a [u8]; 9]) -> Result<(&'a str, u64), String> {
    let chrom = std::str::from_utf8(cols[0])
        .ok()
        .filter(|c| !c.is_empty() && !c.contains(char::is_whitespace))
        .ok_or("CHROM is empty or not text")?;
    let pos = parse_pos(cols[1])
        .ok_or_else(|| format!("POS {:?} is not a number", String::from_utf8_lossy(cols[1])))?;
    if cols[3].is_empty() || cols[3] == b"." {
        return Err("REF is missing".into());
    }
    if cols[4].is_empty() {
        return Err("ALT is empty".into());
    }
    if cols[7].is_empty() {
        return Err("INFO is empty".into());
    }
    Ok((chrom, pos))
}

/// Reads about `size` bytes of whole lines from `input` (the last line of the input may lack
/// its newline); empty at the end. On a read error, the whole lines read before it and the error.
pub fn read_chunk(input: &mut dyn BufRead, size: usize) -> (Vec<u8>, Option<std::io::Error>) {
    let mut bytes = Vec::with_capacity(size + (1 << 12));
    let mut fill = |bytes: &mut Vec<u8>| -> std::io::Result<()> {
        while bytes.len() < size {
            let b = input.fill_buf()?;
            if b.is_empty() {
                return Ok(());
            }
            let n = b.len().min(size - bytes.len());
            bytes.extend_from_slice(&b[..n]);
            input.consume(n);
        }
        if bytes.last() != Some(&b'\n') {
            input.read_until(b'\n', bytes)?;
        }
        Ok(())
    };
    match fill(&mut bytes) {
        Ok(()) => (bytes, None),
        Err(e) => {
            // A partial line is not a record: keep the lines before it.
            let keep = memchr::memrchr(b'\n', &bytes).map_or(0, |i| i + 1);
            bytes.truncate(keep);
            (bytes, Some(e))
        }
    }
}

/// Where a record's line went in [`Annotated::out`], and what the index needs of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Its first byte (CHROM starts there).
    pub start: usize,
    /// Past its newline.
    pub end: usize,
    /// The length of CHROM.
    pub chrom_len: usize,
    /// POS.
    pub pos: u64,
    /// Its last reference position as the index counts it (None: not computable, when asked
    /// for; 0 when not asked for).
    pub last: Option<u64>,
}

/// What annotating one chunk of lines gave, in input order.
#[derive(Debug, Default)]
pub struct Annotated {
    /// The output lines.
    pub out: Vec<u8>,
    /// The records among them (malformed lines passed through are not records).
    pub placed: Vec<Placed>,
    /// The lines read.
    pub lines: u64,
    /// Malformed lines passed through: (line within the chunk, 1-based; why).
    pub passed: Vec<(u64, String)>,
    /// The malformed line that stops the run: (line within the chunk; why). `out` holds the
    /// lines before it.
    pub stop: Option<(u64, String)>,
    /// Contigs found missing from the catalog in this chunk, by this chunk's annotator.
    pub unknown: Vec<String>,
}

/// How the index computes a record's end (noodles' `variant_end`): POS + len(REF) − 1,
/// unless INFO has an END (VCF < 4.5) or the file is VCF 4.5 (SVLEN, sample LEN), where the
/// record is parsed by noodles under the output header.
pub struct Ends {
    header: noodles_vcf::Header,
    v45: bool,
}

impl Ends {
    /// The rule under the output `header`.
    pub fn new(header: noodles_vcf::Header) -> Ends {
        let v45 = header.file_format() >= noodles_vcf::header::FileFormat::new(4, 5);
        Ends { header, v45 }
    }

    /// The last position of `line` (at `pos`, with `reference` and `info`).
    pub fn last_of(&self, line: &[u8], pos: u64, reference: &[u8], info: &[u8]) -> Option<u64> {
        use noodles_vcf::variant::Record as _;
        if !self.v45 && memchr::memmem::find(info, b"END=").is_none() {
            return (pos > 0).then(|| pos + reference.len() as u64 - 1);
        }
        let rec = noodles_vcf::Record::try_from(line).ok()?;
        rec.variant_end(&self.header).ok().map(|p| p.get() as u64)
    }
}

/// Annotates the lines of `chunk` into `a` (cleared first). Malformed records stop the chunk
/// (`a.stop`), or under `lenient` pass through unchanged (`a.passed`). With `ends`, each record
/// gets its last position for the index. `t` gets each stage's time.
pub fn annotate_chunk(
    chunk: &[u8],
    ann: &mut Annotator<'_>,
    lenient: bool,
    ends: Option<&Ends>,
    t: &mut Timings,
    a: &mut Annotated,
) {
    a.out.clear();
    a.placed.clear();
    a.passed.clear();
    a.unknown.clear();
    a.stop = None;
    a.lines = 0;
    let unknown_before = ann.unknown_contigs().len();
    let out = &mut a.out;
    out.reserve(chunk.len() + chunk.len() / 2);
    let mut rest = chunk;
    while !rest.is_empty() {
        let (line, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        rest = next;
        a.lines += 1;
        let body = line.strip_suffix(b"\r").unwrap_or(line);
        let parsed = split(body).and_then(|c| check(&c).map(|(chrom, pos)| (c, chrom, pos)));
        t.lap(Stage::Decode);
        let (cols, chrom, pos) = match parsed {
            Ok(p) => p,
            Err(reason) if lenient => {
                ann.counts.records += 1;
                ann.counts.malformed += 1;
                a.passed.push((a.lines, reason));
                out.extend_from_slice(body);
                out.push(b'\n');
                t.lap(Stage::Write);
                continue;
            }
            Err(reason) => {
                a.stop = Some((a.lines, reason));
                break;
            }
        };
        let alts = cols[4].split(|&b| b == b',');
        let found = ann.annotate(chrom, pos, cols[3], alts);
        t.lap(Stage::Lookup);
        let start = out.len();
        for c in &cols[..7] {
            out.extend_from_slice(c);
            out.push(b'\t');
        }
        let info = out.len();
        if cols[7] != b"." {
            out.extend_from_slice(cols[7]);
        }
        if found {
            ann.render_after(out, out.len() > info);
        }
        if out.len() == info {
            out.push(b'.');
        }
        let info_end = out.len();
        out.extend_from_slice(cols[8]);
        t.lap(Stage::Format);
        let last = match ends {
            None => Some(0),
            Some(e) => e.last_of(&out[start..], pos, cols[3], &out[info..info_end]),
        };
        out.push(b'\n');
        a.placed.push(Placed {
            start,
            end: out.len(),
            chrom_len: cols[0].len(),
            pos,
            last,
        });
        t.lap(Stage::Write);
    }
    a.unknown
        .extend_from_slice(&ann.unknown_contigs()[unknown_before..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_columns() {
        let c = split(b"chr1\t10\t.\tA\tT\t.\tPASS\tX=1\tGT\t0/1").unwrap();
        assert_eq!(c[0], b"chr1");
        assert_eq!(c[7], b"X=1");
        assert_eq!(c[8], b"\tGT\t0/1");
        let c = split(b"chr1\t10\t.\tA\tT\t.\tPASS\t.").unwrap();
        assert_eq!(c[7], b".");
        assert_eq!(c[8], b"");
        assert!(split(b"chr1\t10\t.\tA\tT").is_err());
        assert!(check(&split(b"chr1\tx\t.\tA\tT\t.\t.\t.").unwrap()).is_err());
        for p in [
            "0",
            "7",
            "+7",
            "0012",
            "18446744073709551615",
            "",
            "+",
            "++1",
            "-1",
            "1x",
            "18446744073709551616",
            " 1",
        ] {
            assert_eq!(parse_pos(p.as_bytes()), p.parse::<u64>().ok(), "{p:?}");
        }
        assert!(check(&split(b"chr1\t5\t.\t\tT\t.\t.\t.").unwrap()).is_err());
    }
}
