//! Text normalisation shared by the indexer and the server (one place for the rule).
//!
//! Name search compares case-folded text: [`fold`] lower-cases with Unicode rules and does not
//! strip accents. [`tokens`] splits folded text into maximal runs of Unicode letters and
//! digits (`HLA-A` → `hla`, `a`).

/// Case-folds `s` (Unicode lower case; accents kept).
pub fn fold(s: &str) -> String {
    s.to_lowercase()
}

/// The folded tokens of `s`, in order, duplicates kept.
pub fn tokens(s: &str) -> Vec<String> {
    fold(s)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_tokens() {
        assert_eq!(tokens("HLA-A"), vec!["hla", "a"]);
        assert_eq!(
            tokens("  Signal Transduction (R-HSA) "),
            vec!["signal", "transduction", "r", "hsa"]
        );
        assert_eq!(tokens("Éclair café"), vec!["éclair", "café"]);
        assert!(tokens("--").is_empty());
    }

    #[test]
    fn test_fold() {
        assert_eq!(fold("BRCA1"), "brca1");
        assert_eq!(fold("ÅB"), "åb");
    }
}

/// The display form of a stored dbNSFP coding-variant name: the adapters write `!` for `?` and
/// `-` for `>` (`SRY_ENST00000383070_p.A135S_c.403G-T`). Every `!` becomes `?`, and only the
/// `-` separating reference and alternate bases in the final `c.` part becomes `>`, so hyphens
/// in gene symbols (`HLA-A`) and negative c. positions (`c.-5G-A`) survive. Names already in
/// display form are returned unchanged, so user input may use either form.
pub fn coding_variant_name(stored: &str) -> String {
    let s = stored.replace('!', "?");
    let Some(at) = s.rfind("_c.") else { return s };
    let (head, tail) = s.split_at(at + 3);
    if tail.contains('>') {
        return s;
    }
    match tail.rfind('-') {
        // A leading `-` is a negative position, not the separator.
        Some(i) if i > 0 => format!("{head}{}>{}", &tail[..i], &tail[i + 1..]),
        _ => s,
    }
}

/// The stored names a user's coding-variant name may mean, in display form: the name as given
/// ([`coding_variant_name`]), and IGVF's display form read back. IGVF shows every `-` of a
/// stored name as `>` (`HLA>A_ENST00000376809_p.C10L_c.29C>G`), so its users copy such names;
/// mapping every `>` back to `-` gives the stored name.
pub fn coding_variant_names(input: &str) -> Vec<String> {
    let mut out = vec![coding_variant_name(input)];
    if input.contains('>') {
        let igvf = coding_variant_name(&input.replace('>', "-"));
        if igvf != out[0] {
            out.push(igvf);
        }
    }
    out
}

#[cfg(test)]
mod name_tests {
    use super::coding_variant_name as f;

    #[test]
    fn test_coding_variant_names_accept_igvf_display_form() {
        use super::coding_variant_names as n;
        assert_eq!(
            n("HLA>A_ENST00000376809_p.C10L_c.29C>G"),
            [
                "HLA>A_ENST00000376809_p.C10L_c.29C>G",
                "HLA-A_ENST00000376809_p.C10L_c.29C>G"
            ]
        );
        assert_eq!(
            n("HLA-A_ENST1_p.C10L_c.29C-G"),
            ["HLA-A_ENST1_p.C10L_c.29C>G"]
        );
        assert_eq!(
            n("SRY_ENST1_p.A135S_c.403G>T"),
            ["SRY_ENST1_p.A135S_c.403G>T"]
        );
        // A negative c. position shown by IGVF as `>5`.
        assert_eq!(n("X_ENST1_p.M1V_c.>5G>A")[1], "X_ENST1_p.M1V_c.-5G>A");
    }

    #[test]
    fn test_coding_variant_name() {
        assert_eq!(
            f("SRY_ENST00000383070_p.A135S_c.403G-T"),
            "SRY_ENST00000383070_p.A135S_c.403G>T"
        );
        assert_eq!(f("HLA-A_ENST1_p.M1!_c.1A-G"), "HLA-A_ENST1_p.M1?_c.1A>G");
        assert_eq!(f("X_ENST1_p.M1V_c.-5G-A"), "X_ENST1_p.M1V_c.-5G>A");
        assert_eq!(f("HLA-A_ENST1_p.M1?_c.1A>G"), "HLA-A_ENST1_p.M1?_c.1A>G");
        assert_eq!(f("no-c-part"), "no-c-part");
    }
}
