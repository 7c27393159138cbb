//! The VCF header: checks on the input's (assembly, INFO keys we would add) and the lines we
//! add (one `##INFO` per field from the fields table, and where the annotation came from).

use noodles_vcf as vcf;

use crate::fields::Field;

/// GRCh37 length of chromosome 1 (GRCh38's is 248956422).
const GRCH37_CHR1: &str = "249250621";

/// The name of another assembly the header declares (`##reference=` naming GRCh37/hg19/b37/
/// hs37d5/NCBI37, or chromosome 1 with its GRCh37 length), None when it declares none.
pub fn other_assembly(text: &str) -> Option<String> {
    for line in text.lines() {
        let lower = line.to_ascii_lowercase();
        if let Some(r) = lower.strip_prefix("##reference=") {
            let old = ["grch37", "hg19", "b37", "hs37d5", "ncbi37"];
            if let Some(a) = old.iter().find(|a| r.contains(*a)) {
                return Some(format!("##reference names {a}"));
            }
        }
        if let Some(c) = lower.strip_prefix("##contig=<") {
            let id = c.split(',').find_map(|kv| kv.strip_prefix("id="));
            let len = c
                .trim_end_matches('>')
                .split(',')
                .find_map(|kv| kv.strip_prefix("length="));
            if matches!(id, Some("1" | "chr1")) && len == Some(GRCH37_CHR1) {
                return Some(format!("contig 1 has the GRCh37 length {GRCH37_CHR1}"));
            }
        }
    }
    None
}

/// Parses the header text (the `##` lines and the `#CHROM` line) with noodles, refusing one
/// that already has an INFO key we would add. An error names the line (counted from 1) and
/// the reason.
pub fn parse(text: &str, fields: &[Field], prefix: &str) -> Result<vcf::Header, String> {
    let header = vcf::header::Parser::default()
        .parse(text)
        .map_err(|e| locate(text, &reason(&e)))?;
    for f in fields {
        let key = format!("{prefix}{}", f.name);
        if header.infos().contains_key(&key) {
            let at = text
                .lines()
                .position(|l| l.starts_with(&format!("##INFO=<ID={key},")))
                .map_or(1, |i| i + 1);
            return Err(format!(
                "{at}: the input header already has INFO {key} (annotated before?); choose \
                 another --prefix"
            ));
        }
    }
    Ok(header)
}

/// An error with its causes (noodles says "invalid record" and puts what is wrong below).
fn reason(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        s.push_str(&format!(": {c}"));
        cause = c.source();
    }
    s
}

/// `reason` placed at its header line: the `#CHROM` line when the `##` lines parse with a
/// plain one in its place, else the first `##` line whose prefix of the header no longer parses
/// (a line that fails keeps failing).
fn locate(text: &str, reason: &str) -> String {
    const PLAIN: &str = "#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO";
    let lines: Vec<&str> = text.lines().collect();
    let meta = &lines[..lines.len().saturating_sub(1)];
    let fails = |k: usize| {
        let mut t = meta[..k].join("\n");
        t.push('\n');
        t.push_str(PLAIN);
        t.push('\n');
        vcf::header::Parser::default().parse(&t).is_err()
    };
    if meta.is_empty() || fails(1) {
        return format!("1: header: {reason}");
    }
    if !fails(meta.len()) {
        return format!("{}: header: {reason}", lines.len());
    }
    let (mut lo, mut hi) = (1, meta.len());
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if fails(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    format!("{hi}: header: {reason}")
}

/// The lines to add before `#CHROM`: one `##INFO` per field, then version, command and catalog.
pub fn added_lines(fields: &[Field], prefix: &str, command: &str, catalog: &str) -> String {
    let mut s = String::new();
    for f in fields {
        s.push_str(&format!(
            "##INFO=<ID={prefix}{},Number=A,Type={},Description=\"{} (varcat)\">\n",
            f.name,
            f.ty.as_str(),
            f.description
        ));
    }
    s.push_str(&format!(
        "##varcat_annotateVersion={}\n##varcat_annotateCommand={command}\n##varcat_catalog={catalog}\n",
        env!("CARGO_PKG_VERSION")
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_grch37() {
        assert!(other_assembly("##fileformat=VCFv4.2\n##reference=file:///hs37d5.fa\n").is_some());
        assert!(other_assembly("##reference=GRCh37\n").is_some());
        assert!(other_assembly("##contig=<ID=1,length=249250621>\n").is_some());
        assert!(other_assembly("##contig=<ID=chr1,length=248956422>\n").is_none());
        assert!(
            other_assembly("##reference=GRCh38\n##contig=<ID=chr2,length=249250621>\n").is_none()
        );
    }

    #[test]
    fn refuses_existing_keys() {
        let fields = crate::fields::parse("rsid").unwrap();
        let text = "##fileformat=VCFv4.3\n##INFO=<ID=VARCAT_rsid,Number=A,Type=String,Description=\"x\">\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n";
        assert!(parse(text, &fields, "VARCAT_").is_err());
        assert!(parse(text, &fields, "V2_").is_ok());
    }

    #[test]
    fn test_a_header_error_names_its_line() {
        let text = "##fileformat=VCFv4.3\n##contig=<ID=chr1>\n##INFO=<ID=X,Number=1,Description=\"x\">\n##contig=<ID=chr2>\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n";
        let e = parse(text, &[], "V_").unwrap_err();
        assert!(e.starts_with("3: header: invalid record: "), "{e}");
        let e = parse("##fileformat=VCFv4.3\n#CHROM\tPOS\n", &[], "V_").unwrap_err();
        assert!(e.starts_with("2: header: "), "{e}");
    }
}
