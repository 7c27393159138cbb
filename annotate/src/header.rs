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
/// that already has an INFO key we would add.
pub fn parse(text: &str, fields: &[Field], prefix: &str) -> Result<vcf::Header, String> {
    let header = vcf::header::Parser::default()
        .parse(text)
        .map_err(|e| format!("header: {e}"))?;
    for f in fields {
        let key = format!("{prefix}{}", f.name);
        if header.infos().contains_key(&key) {
            return Err(format!(
                "the input header already has INFO {key} (annotated before?); choose another --prefix"
            ));
        }
    }
    Ok(header)
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
}
