//! Identifiers looked up as given: refused only when empty, over [`MAX_ID_LEN`] bytes or
//! containing control characters; HGNC ids (`HGNC:<n>` or `<n>`) and ontology term ids
//! (`PREFIX_LOCALID`). Variant identifiers, whose shapes are enforced, are in
//! [`super::variant`].

use std::fmt;
use std::str::FromStr;

/// Longest identifier accepted: the longest the build indexes, so every identifier in a
/// catalog can be looked up by its own value.
pub const MAX_ID_LEN: usize = varcat_format::MAX_INDEXED_BYTES;

/// A generic identifier: non-empty, at most [`MAX_ID_LEN`] bytes, no control characters.
pub fn plain(s: &str) -> bool {
    !s.is_empty() && s.len() <= MAX_ID_LEN && !s.chars().any(char::is_control)
}

/// Why a generic identifier was refused (the text is not repeated: it may be long or
/// unprintable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdError;

impl fmt::Display for IdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "must be at most {MAX_ID_LEN} bytes without control characters"
        )
    }
}

impl std::error::Error for IdError {}

/// An accession (`NC_000020.11`): letters, digits, `_` and `.`, at most 64 bytes.
pub(crate) fn accession(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

/// An HGNC id as given, `HGNC:<n>` or `<n>` (any generic identifier is accepted: one that is
/// not an HGNC id finds nothing).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HgncId(String);

impl HgncId {
    /// The stored form (`HGNC:<n>`).
    pub fn stored(&self) -> String {
        hgnc(&self.0)
    }
}

/// Why an HGNC id was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HgncIdError(IdError);

impl fmt::Display for HgncIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for HgncIdError {}

impl FromStr for HgncId {
    type Err = HgncIdError;

    fn from_str(s: &str) -> Result<HgncId, HgncIdError> {
        if plain(s) {
            Ok(HgncId(s.to_string()))
        } else {
            Err(HgncIdError(IdError))
        }
    }
}

/// As given: `<n>` stays `<n>` (its stored form may be too long to parse back).
impl fmt::Display for HgncId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The stored form of an HGNC id given as `HGNC:<n>` or `<n>`.
pub fn hgnc(s: &str) -> String {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        format!("HGNC:{s}")
    } else {
        s.to_string()
    }
}

fn term_id(s: &str) -> bool {
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

checked_id!(
    /// An ontology term id: `PREFIX_LOCALID` (`UBERON_0003663`, `CVCL_B0T9`, `NCBITaxon_9606`).
    TermId,
    /// Why an ontology term id was refused.
    TermIdError,
    term_id,
    "must look like PREFIX_ID (e.g. UBERON_0003663 or CVCL_B0T9)"
);

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
    use proptest::prelude::*;

    #[test]
    fn test_term_id() {
        for ok in [
            "UBERON_0003663",
            "CVCL_B0T9",
            "NCBITaxon_9606",
            "VCT_0000001",
            "ATCC_CRL-1573",
        ] {
            assert_eq!(ok.parse::<TermId>().unwrap().as_str(), ok);
        }
        for bad in ["UBERON:0003663", "_1", "X_", "1X_2", "A_ b", "A_\u{0}", ""] {
            assert_eq!(
                bad.parse::<TermId>(),
                Err(TermIdError {
                    got: bad.to_string()
                }),
                "{bad:?}"
            );
        }
        assert_eq!(
            "UBERON:1".parse::<TermId>().unwrap_err().to_string(),
            "must look like PREFIX_ID (e.g. UBERON_0003663 or CVCL_B0T9), got \"UBERON:1\""
        );
    }

    #[test]
    fn test_plain_and_normalisation() {
        assert!(plain("ENSG00000101349") && plain("CVCL_B0T9") && !plain("") && !plain("a\u{0}b"));
        assert!(plain(&"x".repeat(MAX_ID_LEN)) && !plain(&"x".repeat(MAX_ID_LEN + 1)));
        assert_eq!(hgnc("15916"), "HGNC:15916");
        assert_eq!(hgnc("HGNC:15916"), "HGNC:15916");
        assert_eq!("15916".parse::<HgncId>().unwrap().stored(), "HGNC:15916");
        assert_eq!(
            "HGNC:15916".parse::<HgncId>().unwrap().stored(),
            "HGNC:15916"
        );
        assert_eq!(
            "a\u{1}".parse::<HgncId>().unwrap_err().to_string(),
            "must be at most 65536 bytes without control characters"
        );
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

    proptest! {
        #[test]
        fn test_term_id_round_trips(
            s in "[A-Za-z][A-Za-z0-9]{0,12}_[A-Za-z0-9][A-Za-z0-9_.-]{0,40}"
        ) {
            let t: TermId = s.parse().unwrap();
            prop_assert_eq!(t.to_string().parse::<TermId>(), Ok(t));
        }

        #[test]
        fn test_hgnc_id_round_trips(
            s in "(HGNC:)?[0-9]{1,10}|[0-9]{500,512}|[^\\p{Cc}]{1,60}"
        ) {
            let h: HgncId = s.parse().unwrap();
            prop_assert_eq!(h.to_string().parse::<HgncId>(), Ok(h));
        }
    }
}
