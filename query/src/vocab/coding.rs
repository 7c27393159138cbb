//! The coding-variant vocabularies: score methods and amino acids.

/// 4.4 score methods.
pub const SCORE_METHODS: &[&str] = &[
    "DUAL-IPA",
    "ESM-1v",
    "MutPred2",
    "SGE",
    "VAMP-seq",
    "Variant painting via fluorescence",
];

/// Amino acids (one-letter) and `*` for a stop codon.
pub const AMINO_ACIDS: &[&str] = &[
    "A", "C", "D", "E", "F", "G", "H", "I", "K", "L", "M", "N", "P", "Q", "R", "S", "T", "V", "W",
    "Y", "*",
];
