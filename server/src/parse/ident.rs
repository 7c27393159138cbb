//! Identifier shapes. Only `rsid`, `ca_id`, SPDI-form `spdi`/`variant_id` and `hgvs` are
//! enforced; every other identifier is looked up as given, refused only when empty, over
//! [`MAX_ID_LEN`] bytes or containing control characters.

/// Longest identifier accepted.
pub const MAX_ID_LEN: usize = 512;

/// A generic identifier: non-empty, at most 512 bytes, no control characters.
pub fn plain(s: &str) -> bool {
    !s.is_empty() && s.len() <= MAX_ID_LEN && !s.chars().any(char::is_control)
}

/// `rs` followed by digits.
pub fn rsid(s: &str) -> bool {
    s.strip_prefix("rs")
        .is_some_and(|d| !d.is_empty() && d.len() <= 20 && d.bytes().all(|b| b.is_ascii_digit()))
}

/// `CA` followed by digits.
pub fn ca_id(s: &str) -> bool {
    s.strip_prefix("CA")
        .is_some_and(|d| !d.is_empty() && d.len() <= 20 && d.bytes().all(|b| b.is_ascii_digit()))
}

fn accession(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

/// SPDI: `<accession>:<position>:<deleted>:<inserted>`; the sequences may be empty (indels).
pub fn spdi(s: &str) -> bool {
    if !plain(s) {
        return false;
    }
    let parts: Vec<&str> = s.split(':').collect();
    let [acc, pos, del, ins] = parts.as_slice() else {
        return false;
    };
    let seq = |x: &str| x.bytes().all(|b| b.is_ascii_alphabetic());
    accession(acc)
        && !pos.is_empty()
        && pos.len() <= 10
        && pos.bytes().all(|b| b.is_ascii_digit())
        && seq(del)
        && seq(ins)
}

/// HGVS genomic: `<accession>:g.` followed by a description (`g.79347444_79347445insCCTC`).
pub fn hgvs(s: &str) -> bool {
    plain(s)
        && s.split_once(":g.").is_some_and(|(acc, rest)| {
            accession(acc) && !rest.is_empty() && !rest.contains(char::is_whitespace)
        })
}

/// `variant_id`: SPDI-shaped when it contains `:`, otherwise a key looked up as given (VRS
/// digest keys of long variants).
pub fn variant_id(s: &str) -> bool {
    if s.contains(':') {
        spdi(s)
    } else {
        plain(s)
    }
}

/// An ontology term id: `PREFIX_LOCALID` (`UBERON_0003663`, `CVCL_B0T9`, `NCBITaxon_9606`).
pub fn term_id(s: &str) -> bool {
    let Some((prefix, local)) = s.split_once('_') else {
        return false;
    };
    s.len() <= 128
        && prefix.starts_with(|c: char| c.is_ascii_alphabetic())
        && prefix.bytes().all(|b| b.is_ascii_alphanumeric())
        && local.starts_with(|c: char| c.is_ascii_alphanumeric())
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// `hgnc_id` accepts `HGNC:<n>` and `<n>`; returns the stored form.
pub fn hgnc(s: &str) -> String {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        format!("HGNC:{s}")
    } else {
        s.to_string()
    }
}

/// Keys to try for an Ensembl-style id: as given, then without a `.N` version suffix
/// (stored keys are unversioned: `ENST00000353224.10` finds `ENST00000353224`).
pub fn ensembl_candidates(s: &str) -> Vec<String> {
    let mut out = vec![s.to_string()];
    if s.starts_with("ENS") {
        if let Some((base, v)) = s.rsplit_once('.') {
            if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) && !base.is_empty() {
                out.push(base.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_variant_shapes() {
        assert!(spdi("NC_000020.11:9564577:A:T"));
        assert!(spdi("NC_000010.11:79347444::CCTCCTCAGG"));
        assert!(spdi("NC_000010.11:79347444:CCTC:"));
        assert!(!spdi("NC_000020.11:9564577:A"));
        assert!(!spdi("NC_000020.11:x:A:T"));
        assert!(!spdi("NC_000020.11:1:A:T:G"));
        assert!(hgvs("NC_000020.11:g.9564578A>T"));
        assert!(hgvs("NC_000010.11:g.79347444_79347445insCCTCCTCAGG"));
        assert!(!hgvs("NC_000020.11:c.1A>T"));
        assert!(!hgvs("NC_000020.11:g."));
        assert!(rsid("rs1234") && !rsid("rs") && !rsid("RS1") && !rsid("rs12a"));
        assert!(ca_id("CA900000001") && !ca_id("CA") && !ca_id("ca1"));
        assert!(variant_id("ga4gh:VA.abc") == spdi("ga4gh:VA.abc"));
        assert!(variant_id("6xKsZtvAo1KwL0SRuS_7O3sQ5d6pP8zW"));
    }

    #[test]
    fn test_term_id() {
        for ok in [
            "UBERON_0003663",
            "CVCL_B0T9",
            "NCBITaxon_9606",
            "VCT_0000001",
            "ATCC_CRL-1573",
        ] {
            assert!(term_id(ok), "{ok}");
        }
        for bad in ["UBERON:0003663", "_1", "X_", "1X_2", "A_ b", "A_\u{0}", ""] {
            assert!(!term_id(bad), "{bad:?}");
        }
    }

    #[test]
    fn test_plain_and_normalisation() {
        assert!(plain("ENSG00000101349") && plain("CVCL_B0T9") && !plain("") && !plain("a\u{0}b"));
        assert!(!plain(&"x".repeat(513)));
        assert_eq!(hgnc("15916"), "HGNC:15916");
        assert_eq!(hgnc("HGNC:15916"), "HGNC:15916");
        assert_eq!(
            ensembl_candidates("ENST00000353224.10"),
            vec!["ENST00000353224.10", "ENST00000353224"]
        );
        assert_eq!(
            ensembl_candidates("ENSG00000197976_PAR_Y"),
            vec!["ENSG00000197976_PAR_Y"]
        );
        assert_eq!(ensembl_candidates("Q9P286-2"), vec!["Q9P286-2"]);
    }
}
