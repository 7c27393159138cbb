//! VCF text in, VCF text out: each record line is split by hand (CHROM, POS, REF, ALT, INFO)
//! and written back with only its INFO column changed, so every other column, samples
//! included, keeps its bytes.

use std::io::{BufRead, Write};

use crate::annotator::Annotator;
use crate::timings::{Stage, Timings};
use crate::Sorted;

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

/// The checks noodles applies to the columns varcat reads.
fn check<'a>(cols: &[&'a [u8]; 9]) -> Result<(&'a str, u64), String> {
    let chrom = std::str::from_utf8(cols[0])
        .ok()
        .filter(|c| !c.is_empty() && !c.contains(char::is_whitespace))
        .ok_or("CHROM is empty or not text")?;
    let pos = std::str::from_utf8(cols[1])
        .ok()
        .and_then(|p| p.parse::<u64>().ok())
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

/// Annotates the records of `input` (after the header) into `out`; `line` is the number of
/// the last header line. Malformed records stop the run with `name:line: reason`, or under
/// `lenient` pass through unchanged with a warning. `t` gets each stage's time.
#[allow(clippy::too_many_arguments)]
pub fn records(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    ann: &mut Annotator<'_>,
    sorted: &mut Sorted,
    name: &str,
    mut line: u64,
    lenient: bool,
    t: &mut Timings,
) -> Result<(), String> {
    let mut buf = Vec::with_capacity(1 << 12);
    let mut info = Vec::with_capacity(1 << 10);
    loop {
        buf.clear();
        let n = input
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("{name}:{}: {e}", line + 1))?;
        if n == 0 {
            return Ok(());
        }
        line += 1;
        let body = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let body = body.strip_suffix(b"\r").unwrap_or(body);
        let parsed = split(body).and_then(|c| check(&c).map(|(chrom, pos)| (c, chrom, pos)));
        t.lap(Stage::Decode);
        let (cols, chrom, pos) = match parsed {
            Ok(p) => p,
            Err(reason) if lenient => {
                ann.counts.records += 1;
                ann.counts.malformed += 1;
                if ann.counts.malformed <= 10 || ann.counts.malformed.is_multiple_of(1000) {
                    eprintln!("varcat annotate: warning: {name}:{line}: {reason} (passed through)");
                }
                out.write_all(body).map_err(|e| format!("writing: {e}"))?;
                out.write_all(b"\n").map_err(|e| format!("writing: {e}"))?;
                t.lap(Stage::Write);
                continue;
            }
            Err(reason) => return Err(format!("{name}:{line}: {reason}")),
        };
        sorted.see(chrom, pos);
        let alts = cols[4].split(|&b| b == b',');
        let found = ann.annotate(chrom, pos, cols[3], alts);
        t.lap(Stage::Lookup);
        info.clear();
        if cols[7] != b"." {
            info.extend_from_slice(cols[7]);
        }
        if found {
            ann.render(&mut info);
        }
        if info.is_empty() {
            info.push(b'.');
        }
        t.lap(Stage::Format);
        let w = |out: &mut dyn Write| -> std::io::Result<()> {
            for c in &cols[..7] {
                out.write_all(c)?;
                out.write_all(b"\t")?;
            }
            out.write_all(&info)?;
            out.write_all(cols[8])?;
            out.write_all(b"\n")
        };
        w(out).map_err(|e| format!("writing: {e}"))?;
        t.lap(Stage::Write);
    }
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
        assert!(check(&split(b"chr1\t5\t.\t\tT\t.\t.\t.").unwrap()).is_err());
    }
}
