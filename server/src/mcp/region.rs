//! Regions as agents write them: `chr1:1000-2000`, `1:1M-2M`, `chrX:1,000,000-2,000,000`,
//! `chr1:1.5M-2.5M` (0-based, end exclusive), checked against the organism's chromosomes; an
//! end past the chromosome is clipped to its length.

/// A parsed region.
#[derive(Debug, PartialEq, Eq)]
pub struct Region {
    /// `chr1` … `chrM`.
    pub chr: String,
    /// Start (0-based).
    pub start: u64,
    /// End (exclusive), at most the chromosome's length.
    pub end: u64,
    /// The end as written, when it was past the chromosome and clipped.
    pub requested_end: Option<String>,
}

impl std::fmt::Display for Region {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}-{}", self.chr, self.start, self.end)
    }
}

/// The organisms and their assemblies.
pub fn assembly(organism: &str) -> Option<&'static str> {
    match organism {
        "Homo sapiens" => Some("GRCh38"),
        "Mus musculus" => Some("GRCm39"),
        _ => None,
    }
}

/// Chromosome lengths (UCSC hg38 and mm39 chrom.sizes): chr1.., then X, Y, M.
const HUMAN: &[u64] = &[
    248_956_422,
    242_193_529,
    198_295_559,
    190_214_555,
    181_538_259,
    170_805_979,
    159_345_973,
    145_138_636,
    138_394_717,
    133_797_422,
    135_086_622,
    133_275_309,
    114_364_328,
    107_043_718,
    101_991_189,
    90_338_345,
    83_257_441,
    80_373_285,
    58_617_616,
    64_444_167,
    46_709_983,
    50_818_468,
    156_040_895,
    57_227_415,
    16_569,
];
const MOUSE: &[u64] = &[
    195_154_279,
    181_755_017,
    159_745_316,
    156_860_686,
    151_758_149,
    149_588_044,
    144_995_196,
    130_127_694,
    124_359_700,
    130_530_862,
    121_973_369,
    120_092_757,
    120_883_175,
    125_139_656,
    104_073_951,
    98_008_968,
    95_294_699,
    90_720_763,
    61_420_004,
    169_476_592,
    91_455_967,
    16_299,
];

/// The length of `chr` in `organism`'s assembly, if it has that chromosome.
fn length(organism: &str, chr: &str) -> Option<u64> {
    let sizes = if organism == "Mus musculus" {
        MOUSE
    } else {
        HUMAN
    };
    let autosomes = sizes.len() - 3;
    let name = chr.strip_prefix("chr")?;
    let i = match name {
        "X" => autosomes,
        "Y" => autosomes + 1,
        "M" => autosomes + 2,
        n => match n.parse::<usize>() {
            Ok(k) if (1..=autosomes).contains(&k) && !n.starts_with('0') => k - 1,
            _ => return None,
        },
    };
    sizes.get(i).copied()
}

const FORMAT_HELP: &str = "expected chr:start-end, e.g. chr1:1000-2000, 1:1M-2M, \
                           chrX:1,000,000-2,000,000 or chr1:1.5M-2.5M";

/// Parses `region` for `organism`.
pub fn parse(region: &str, organism: &str) -> Result<Region, String> {
    let region = region.trim();
    let bad = || format!("Invalid region format: '{region}' ({FORMAT_HELP})");
    let (chr, range) = region.split_once(':').ok_or_else(bad)?;
    let name = match chr.get(..3) {
        Some(p) if p.eq_ignore_ascii_case("chr") => &chr[3..],
        _ => chr,
    };
    let name_ok = matches!(name.len(), 1 | 2) && name.bytes().all(|b| b.is_ascii_digit())
        || matches!(name, "X" | "Y" | "M" | "x" | "y" | "m");
    let (start_s, end_s) = range.split_once('-').ok_or_else(bad)?;
    let pos_ok = |s: &str| {
        let body = s.strip_suffix(['K', 'M', 'G', 'k', 'm', 'g']).unwrap_or(s);
        !body.is_empty()
            && body
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b',' || b == b'.')
    };
    if !name_ok || !pos_ok(start_s) || !pos_ok(end_s) {
        return Err(bad());
    }
    let Some(assembly) = assembly(organism) else {
        return Err(format!(
            "organism: unknown organism '{organism}'; valid: Homo sapiens, Mus musculus"
        ));
    };
    let chr = format!("chr{}", name.to_ascii_uppercase());
    let Some(len) = length(organism, &chr) else {
        let autosomes = if organism == "Mus musculus" { 19 } else { 22 };
        return Err(format!(
            "Invalid chromosome '{chr}' for {organism}; valid: chr1-chr{autosomes}, chrX, chrY, chrM"
        ));
    };
    let start = position(start_s)?;
    let end = position(end_s)?;
    if start >= u128::from(len) {
        return Err(format!(
            "Invalid region: start '{start_s}' is past the end of {chr} ({len} bp in {assembly}; \
             the largest start is {})",
            len - 1
        ));
    }
    if start >= end {
        return Err(format!(
            "Invalid region: the start ({start}) must be less than the end ({end})"
        ));
    }
    let start = start as u64;
    Ok(if end > u128::from(len) {
        Region {
            chr,
            start,
            end: len,
            requested_end: Some(end_s.to_string()),
        }
    } else {
        Region {
            chr,
            start,
            end: end as u64,
            requested_end: None,
        }
    })
}

/// A position: digits (commas between groups of three allowed), an optional decimal part, an
/// optional K, M or G; it must come to a whole number of base pairs. Huge values saturate (they
/// are past every chromosome anyway).
fn position(s: &str) -> Result<u128, String> {
    let bad = || {
        format!(
            "Invalid position format: '{s}'; use digits, commas between groups of three \
             (1,000,000) or a number with K, M or G (1.5M)"
        )
    };
    let (number, zeros) = match s.as_bytes().last().map(u8::to_ascii_uppercase) {
        Some(b'K') => (&s[..s.len() - 1], 3),
        Some(b'M') => (&s[..s.len() - 1], 6),
        Some(b'G') => (&s[..s.len() - 1], 9),
        _ => (s, 0),
    };
    let (int, frac) = match number.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (number, None),
    };
    let frac = frac.unwrap_or("");
    let int_ok = int.is_empty() && !frac.is_empty()
        || !int.is_empty() && int.bytes().all(|b| b.is_ascii_digit())
        || grouped(int);
    if !int_ok || !frac.bytes().all(|b| b.is_ascii_digit()) || (int.is_empty() && frac.is_empty()) {
        return Err(bad());
    }
    let frac = frac.trim_end_matches('0');
    if frac.len() > zeros {
        return Err(format!(
            "Invalid position: '{s}' is not a whole number of base pairs"
        ));
    }
    let digits: String = int.chars().filter(|c| *c != ',').collect();
    let mut v: u128 = 0;
    for b in digits.bytes().chain(frac.bytes()) {
        v = v.saturating_mul(10).saturating_add(u128::from(b - b'0'));
    }
    Ok(v.saturating_mul(10u128.pow((zeros - frac.len()) as u32)))
}

/// `1,000` or `12,345,678`: one to three digits, then groups of three after commas.
fn grouped(s: &str) -> bool {
    let mut parts = s.split(',');
    let first = parts.next().unwrap_or("");
    let mut rest = parts.peekable();
    rest.peek().is_some()
        && (1..=3).contains(&first.len())
        && first.bytes().all(|b| b.is_ascii_digit())
        && rest.all(|p| p.len() == 3 && p.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Result<String, String> {
        parse(s, "Homo sapiens").map(|r| r.to_string())
    }

    #[test]
    fn test_region_forms() {
        assert_eq!(r("chr1:1000-2000").unwrap(), "chr1:1000-2000");
        assert_eq!(r(" 1:1M-2M ").unwrap(), "chr1:1000000-2000000");
        assert_eq!(
            r("CHRx:1,000,000-2,000,000").unwrap(),
            "chrX:1000000-2000000"
        );
        assert_eq!(r("chr1:1.5M-2.5M").unwrap(), "chr1:1500000-2500000");
        assert_eq!(r("chr1:.5K-1k").unwrap(), "chr1:500-1000");
        let clipped = parse("chrM:1-1G", "Homo sapiens").unwrap();
        assert_eq!(
            (clipped.end, clipped.requested_end.as_deref()),
            (16_569, Some("1G"))
        );
        assert_eq!(
            parse("chr19:5-6", "Mus musculus").unwrap().to_string(),
            "chr19:5-6"
        );
    }

    #[test]
    fn test_bad_regions_say_what_is_wrong() {
        assert!(r("chr1-1000-2000")
            .unwrap_err()
            .starts_with("Invalid region format"));
        assert!(r("chr23:1-2")
            .unwrap_err()
            .contains("Invalid chromosome 'chr23'"));
        assert!(parse("chr20:1-2", "Mus musculus").is_err());
        assert!(r("chr1:1.0001K-2K").unwrap_err().contains("whole number"));
        assert!(r("chr1:1,00-2")
            .unwrap_err()
            .contains("Invalid position format"));
        assert!(r("chr1:2000-1000").unwrap_err().contains("less than"));
        assert!(r("chr1:300000000-400000000")
            .unwrap_err()
            .contains("past the end"));
        assert!(r("chr1:99999999999999999999999999999999999999999-1").is_err());
        assert!(parse("chr1:1-2", "Danio rerio")
            .unwrap_err()
            .starts_with("organism:"));
    }
}
