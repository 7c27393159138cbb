//! `varcat export-vcf`: every catalog variant as a sites-only VCF record carrying the same INFO
//! fields `annotate` adds (same table, same formatter), in the point index's order (chromosome,
//! position), so bcftools and vcfanno can annotate from the catalog for comparison.

use std::io::Write;
use std::path::{Path, PathBuf};

use varcat_format::collection::Collections;
use varcat_format::schema::variants;
use varcat_format::Catalog;

use crate::allele;
use crate::annotator::Annotator;
use crate::fields::Field;
use crate::header;
use crate::output::{self, OutFormat, Output};
use varcat_format::json_scan as json;

/// What `export-vcf` wrote.
#[derive(Debug)]
pub struct Exported {
    /// Records written.
    pub records: u64,
    /// Variants left out (no parsable SPDI).
    pub unplaced: u64,
    /// The index written, if any.
    pub index: Option<PathBuf>,
}

/// VCF POS, REF, ALT of a catalog variant from its SPDI `(p, D, I)`: a substitution as is
/// (`POS = p + 1`); an indel with the stored VCF-style `ref`/`alt` when they carry an anchor
/// at `pos == p`, else with `N` as the anchor (the base left of `D` is unknown without a
/// reference; `annotate` trims the shared `N` away again).
pub fn vcf_form(
    e: &allele::Edit<'_>,
    pos: Option<u64>,
    r: &[u8],
    a: &[u8],
) -> (u64, Vec<u8>, Vec<u8>) {
    if e.del.len() == e.ins.len() {
        return (e.pos + 1, e.del.to_vec(), e.ins.to_vec());
    }
    let anchored = pos == Some(e.pos)
        && !r.is_empty()
        && !a.is_empty()
        && r[0] == a[0]
        && r[1..] == *e.del
        && a[1..] == *e.ins;
    if anchored {
        return (e.pos, r.to_vec(), a.to_vec());
    }
    let with_n = |s: &[u8]| [b"N".as_slice(), s].concat();
    (e.pos, with_n(e.del), with_n(e.ins))
}

/// Writes `catalog`'s variants with `fields` to `out` (`.vcf.gz`: BGZF with a `.tbi`).
pub fn export(
    catalog: &Path,
    out_path: &Path,
    fields: Vec<Field>,
    prefix: &str,
    threads: usize,
    command: &str,
) -> Result<Exported, String> {
    varcat_outfile::check_distinct(out_path, &[catalog])?;
    for index in output::index_paths(out_path) {
        varcat_outfile::check_distinct(&index, &[catalog])?;
    }
    let cat = Catalog::open(catalog).map_err(|e| format!("{}: {e}", catalog.display()))?;
    let checksum = format!("{:016x}", cat.checksum());
    let cols = Collections::open(cat).map_err(|e| format!("{}: {e}", catalog.display()))?;
    let (variants, points) = crate::lookup::variants_by_position(&cols)?;
    let field = |n: &str| variants.field(n);
    let (spdi, pos, r, a) = (
        field(variants::spdi),
        field(variants::pos),
        field(variants::r#ref),
        field(variants::alt),
    );
    let mut ann = Annotator::new(&cols, fields.clone(), prefix, 0)?;
    let format = OutFormat::from_path(out_path);
    if format.is_bcf() {
        return Err("export-vcf writes VCF (.vcf or .vcf.gz)".into());
    }
    let mut out = Output::create(out_path, format, threads)?;
    let mut head = String::from("##fileformat=VCFv4.2\n");
    for c in points.chroms() {
        head.push_str(&format!("##contig=<ID={}>\n", c.name));
    }
    head.push_str(&header::added_lines(&fields, prefix, command, &checksum));
    head.push_str("#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n");
    let fail = |e: std::io::Error| format!("writing: {e}");
    out.write_all(head.as_bytes()).map_err(fail)?;
    let (mut records, mut unplaced) = (0u64, 0u64);
    let (mut line, mut info) = (Vec::with_capacity(1 << 10), Vec::with_capacity(1 << 10));
    let mut rows = Vec::new();
    for c in points.chroms() {
        // The point index orders by SPDI position; a substitution's VCF POS is one more than
        // that and an indel's is not, so records are sorted again by VCF POS (stable: ties
        // keep position then ordinal order).
        rows.clear();
        points.for_each_in(&c.name, 0, u32::MAX, |_, ord| {
            let Some(rec) = variants.record(ord) else {
                return;
            };
            let get = |id: Option<u16>| id.and_then(|i| rec.get(i));
            let Some(e) = get(spdi)
                .and_then(json::str_content)
                .and_then(allele::parse_spdi)
            else {
                unplaced += 1;
                return;
            };
            let stored = |id| get(id).and_then(json::str_content).unwrap_or_default();
            let p = get(pos).and_then(json::number).map(|x| x as u64);
            let (vpos, vref, valt) = vcf_form(&e, p, stored(r), stored(a));
            rows.push((vpos, vref, valt, ord));
        });
        rows.sort_by_key(|row| row.0);
        for (vpos, vref, valt, ord) in &rows {
            let ord = *ord;
            line.clear();
            line.extend_from_slice(c.name.as_bytes());
            line.extend_from_slice(format!("\t{vpos}\t.\t").as_bytes());
            line.extend_from_slice(vref);
            line.push(b'\t');
            line.extend_from_slice(valt);
            line.extend_from_slice(b"\t.\t.\t");
            ann.annotate_ordinal(ord);
            info.clear();
            ann.render(&mut info);
            if info.is_empty() {
                info.push(b'.');
            }
            line.extend_from_slice(&info);
            line.push(b'\n');
            out.write_all(&line).map_err(fail)?;
            records += 1;
        }
    }
    let staged = out.finish()?;
    let index = match &staged {
        Some(data) if format == OutFormat::VcfGz => {
            Some(output::write_index(data.temp_path(), out_path, format)?)
        }
        _ => None,
    };
    let index = output::commit(staged, index)?;
    Ok(Exported {
        records,
        unplaced,
        index,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use allele::Edit;

    #[test]
    fn vcf_forms() {
        let e = |pos, d: &'static str, i: &'static str| Edit {
            pos,
            del: d.as_bytes(),
            ins: i.as_bytes(),
        };
        assert_eq!(
            vcf_form(&e(9, "A", "T"), Some(9), b"A", b"T"),
            (10, b"A".to_vec(), b"T".to_vec())
        );
        // FAVOR deletion with its anchor: pos 9564644, ref TA, alt T.
        assert_eq!(
            vcf_form(&e(9564644, "A", ""), Some(9564644), b"TA", b"T"),
            (9564644, b"TA".to_vec(), b"T".to_vec())
        );
        // No anchor stored: N.
        assert_eq!(
            vcf_form(&e(15500, "", "AAA"), Some(15500), b"", b"AAA"),
            (15500, b"N".to_vec(), b"NAAA".to_vec())
        );
        // Annotating the exported form finds the same edit.
        let (p, r, a) = vcf_form(&e(25010, "CT", ""), None, b"", b"");
        assert_eq!(allele::trim(p, &r, &a), Ok(e(25010, "CT", "")));
    }
}
