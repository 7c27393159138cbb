//! Variant identifiers, whose shapes are enforced: `rsid`, `ca_id`, SPDI (and `variant_id` in
//! SPDI form) and genomic HGVS. Each is kept as given: that text is what is looked up.

use super::ident::{accession, plain};

fn rsid(s: &str) -> bool {
    s.strip_prefix("rs")
        .is_some_and(|d| !d.is_empty() && d.len() <= 20 && d.bytes().all(|b| b.is_ascii_digit()))
}

fn ca_id(s: &str) -> bool {
    s.strip_prefix("CA")
        .is_some_and(|d| !d.is_empty() && d.len() <= 20 && d.bytes().all(|b| b.is_ascii_digit()))
}

/// SPDI: `<accession>:<position>:<deleted>:<inserted>`; the sequences may be empty (indels).
fn spdi(s: &str) -> bool {
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
fn hgvs(s: &str) -> bool {
    plain(s)
        && s.split_once(":g.").is_some_and(|(acc, rest)| {
            accession(acc) && !rest.is_empty() && !rest.contains(char::is_whitespace)
        })
}

/// SPDI-shaped when it contains `:`, otherwise a key looked up as given (VRS digest keys of
/// long variants).
fn variant_id(s: &str) -> bool {
    if s.contains(':') {
        spdi(s)
    } else {
        plain(s)
    }
}

checked_id!(
    /// A dbSNP id: `rs` followed by digits.
    Rsid,
    /// Why a dbSNP id was refused.
    RsidError,
    rsid,
    "must look like rs<digits>"
);

checked_id!(
    /// A ClinGen allele id: `CA` followed by digits.
    CaId,
    /// Why a ClinGen allele id was refused.
    CaIdError,
    ca_id,
    "must look like CA<digits>"
);

checked_id!(
    /// An SPDI: `<accession>:<position>:<deleted>:<inserted>`.
    Spdi,
    /// Why an SPDI was refused.
    SpdiError,
    spdi,
    "must be SPDI, <accession>:<position>:<ref>:<alt>"
);

checked_id!(
    /// A genomic HGVS: `<accession>:g.<change>`.
    Hgvs,
    /// Why a genomic HGVS was refused.
    HgvsError,
    hgvs,
    "must be genomic HGVS, <accession>:g.<change>"
);

checked_id!(
    /// A variant key: SPDI when it contains `:`, else a key looked up as given.
    VariantId,
    /// Why a variant key was refused.
    VariantIdError,
    variant_id,
    "must be SPDI (<accession>:<position>:<ref>:<alt>) or a variant key without ':'"
);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ok<T: std::str::FromStr>(s: &str) -> bool {
        s.parse::<T>().is_ok()
    }

    #[test]
    fn test_variant_shapes() {
        assert!(ok::<Spdi>("NC_000020.11:9564577:A:T"));
        assert!(ok::<Spdi>("NC_000010.11:79347444::CCTCCTCAGG"));
        assert!(ok::<Spdi>("NC_000010.11:79347444:CCTC:"));
        assert!(!ok::<Spdi>("NC_000020.11:9564577:A"));
        assert!(!ok::<Spdi>("NC_000020.11:x:A:T"));
        assert!(!ok::<Spdi>("NC_000020.11:1:A:T:G"));
        assert!(ok::<Hgvs>("NC_000020.11:g.9564578A>T"));
        assert!(ok::<Hgvs>("NC_000010.11:g.79347444_79347445insCCTCCTCAGG"));
        assert!(!ok::<Hgvs>("NC_000020.11:c.1A>T"));
        assert!(!ok::<Hgvs>("NC_000020.11:g."));
        assert!(ok::<Rsid>("rs1234") && !ok::<Rsid>("rs") && !ok::<Rsid>("RS1"));
        assert!(!ok::<Rsid>("rs12a"));
        assert!(ok::<CaId>("CA900000001") && !ok::<CaId>("CA") && !ok::<CaId>("ca1"));
        assert!(ok::<VariantId>("ga4gh:VA.abc") == ok::<Spdi>("ga4gh:VA.abc"));
        assert!(ok::<VariantId>("6xKsZtvAo1KwL0SRuS_7O3sQ5d6pP8zW"));
        assert_eq!(
            "rs1".parse::<Rsid>().unwrap().as_str(),
            "rs1",
            "kept as given"
        );
    }

    fn refusal<T: std::str::FromStr>(s: &str) -> String
    where
        T::Err: std::fmt::Display,
    {
        s.parse::<T>().err().expect("refused").to_string()
    }

    #[test]
    fn test_error_messages() {
        assert_eq!(refusal::<Rsid>("x"), "must look like rs<digits>, got \"x\"");
        assert_eq!(refusal::<CaId>("x"), "must look like CA<digits>, got \"x\"");
        assert_eq!(
            refusal::<Spdi>("x"),
            "must be SPDI, <accession>:<position>:<ref>:<alt>, got \"x\""
        );
        assert_eq!(
            refusal::<Hgvs>("x"),
            "must be genomic HGVS, <accession>:g.<change>, got \"x\""
        );
        assert_eq!(
            refusal::<VariantId>("a:b"),
            "must be SPDI (<accession>:<position>:<ref>:<alt>) or a variant key without ':', got \"a:b\""
        );
    }

    const SPDI: &str = "[A-Za-z0-9_.]{1,64}:[0-9]{1,10}:[A-Za-z]{0,12}:[A-Za-z]{0,12}";

    proptest! {
        #[test]
        fn test_rsid_round_trips(s in "rs[0-9]{1,20}") {
            let x: Rsid = s.parse().unwrap();
            prop_assert_eq!(x.to_string().parse::<Rsid>(), Ok(x));
        }

        #[test]
        fn test_ca_id_round_trips(s in "CA[0-9]{1,20}") {
            let x: CaId = s.parse().unwrap();
            prop_assert_eq!(x.to_string().parse::<CaId>(), Ok(x));
        }

        #[test]
        fn test_spdi_round_trips(s in SPDI) {
            let x: Spdi = s.parse().unwrap();
            prop_assert_eq!(x.to_string().parse::<Spdi>(), Ok(x));
        }

        #[test]
        fn test_hgvs_round_trips(s in "[A-Za-z0-9_.]{1,64}:g\\.[^\\s\\p{Cc}]{1,60}") {
            let x: Hgvs = s.parse().unwrap();
            prop_assert_eq!(x.to_string().parse::<Hgvs>(), Ok(x));
        }

        #[test]
        fn test_variant_id_round_trips(s in prop_oneof![SPDI, "[^:\\p{Cc}]{1,80}"]) {
            let x: VariantId = s.parse().unwrap();
            prop_assert_eq!(x.to_string().parse::<VariantId>(), Ok(x));
        }
    }
}
