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
