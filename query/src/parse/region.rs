//! Regions: exactly `chr<name>:<start>-<end>`, decimal integers, `start < end`, 0-based
//! half-open coordinates.

use std::fmt;
use std::str::FromStr;

/// A genomic region `[start, end)` on chromosome `chr`; `start < end` always.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    chr: String,
    start: u32,
    end: u32,
}

/// Why a region string was refused (with the text refused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegionError {
    /// Not of the form `chr<name>:<start>-<end>`.
    Shape(String),
    /// `start >= end`.
    Empty(String),
}

impl fmt::Display for RegionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegionError::Shape(s) => write!(
                f,
                "must look like chr<name>:<start>-<end> (0-based, half-open, e.g. \
                 chr20:9564500-9564600), got \"{s}\""
            ),
            RegionError::Empty(s) => write!(f, "must have start < end, got \"{s}\""),
        }
    }
}

impl std::error::Error for RegionError {}

impl Region {
    /// Chromosome name as in the data, with its `chr` prefix (`chr20`).
    pub fn chr(&self) -> &str {
        &self.chr
    }

    /// First base (0-based).
    pub fn start(&self) -> u32 {
        self.start
    }

    /// One past the last base.
    pub fn end(&self) -> u32 {
        self.end
    }

    /// Length in bases.
    pub fn len(&self) -> u32 {
        self.end - self.start
    }

    /// Always false: parsing refuses an empty region.
    pub fn is_empty(&self) -> bool {
        self.start >= self.end
    }
}

fn coordinate(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 10 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl FromStr for Region {
    type Err = RegionError;

    fn from_str(s: &str) -> Result<Region, RegionError> {
        let shape = || RegionError::Shape(s.to_string());
        let (chr, range) = s.split_once(':').ok_or_else(shape)?;
        let name = chr.strip_prefix("chr").ok_or_else(shape)?;
        let name_ok = !name.is_empty()
            && name.len() <= 64
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
        let (start, end) = range.split_once('-').ok_or_else(shape)?;
        let (Some(start), Some(end)) = (coordinate(start), coordinate(end)) else {
            return Err(shape());
        };
        if !name_ok {
            return Err(shape());
        }
        if start >= end {
            return Err(RegionError::Empty(s.to_string()));
        }
        Ok(Region {
            chr: chr.to_string(),
            start,
            end,
        })
    }
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}-{}", self.chr, self.start, self.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn test_parse_and_round_trip() {
        for s in [
            "chr1:100-200",
            "chrX:0-1",
            "chr1_KI270706v1_random:5-9",
            "chrM:16000-16569",
        ] {
            let r: Region = s.parse().unwrap();
            assert_eq!(r.to_string(), s);
        }
        let r: Region = "chr20:9537369-9839076".parse().unwrap();
        assert_eq!(
            (r.chr(), r.start(), r.end(), r.len()),
            ("chr20", 9537369, 9839076, 301707)
        );
    }

    #[test]
    fn test_refusals() {
        for s in [
            "",
            "chr1",
            "chr1:1",
            "1:1-2",
            "chr:1-2",
            "chr1:-1-2",
            "chr1:a-2",
            "xchr1:1-2",
            "chr1:1-2x",
            "chr1:+1-2",
            "chr1:1-99999999999",
            "chr1:1 -2",
            "chr 1:1-2",
            "chr1:1-2-3",
            "chr1:1-2:3",
        ] {
            assert_eq!(
                s.parse::<Region>(),
                Err(RegionError::Shape(s.to_string())),
                "{s:?}"
            );
        }
        for s in ["chr1:5-5", "chr1:6-5"] {
            assert_eq!(s.parse::<Region>(), Err(RegionError::Empty(s.to_string())));
        }
        assert_eq!(
            "chr1:6-5".parse::<Region>().unwrap_err().to_string(),
            "must have start < end, got \"chr1:6-5\""
        );
        assert_eq!(
            "x".parse::<Region>().unwrap_err().to_string(),
            "must look like chr<name>:<start>-<end> (0-based, half-open, e.g. \
             chr20:9564500-9564600), got \"x\""
        );
    }

    proptest! {
        #[test]
        fn test_round_trips(
            chr in "chr[A-Za-z0-9_.]{1,64}",
            start in "[0-9]{1,10}",
            end in "[0-9]{1,10}",
        ) {
            // Leading zeros included: the value, not the text, must come back.
            if let Ok(r) = format!("{chr}:{start}-{end}").parse::<Region>() {
                prop_assert!(r.start() < r.end());
                prop_assert_eq!(r.to_string().parse::<Region>(), Ok(r));
            }
        }

        #[test]
        fn test_valid_regions_parse(
            chr in "chr[A-Za-z0-9_.]{1,64}",
            start in 0u32..u32::MAX,
            len in 1u32..=u32::MAX,
        ) {
            let end = start.saturating_add(len).max(start + 1);
            let r: Region = format!("{chr}:{start}-{end}").parse().unwrap();
            prop_assert_eq!((r.chr(), r.start(), r.end()), (chr.as_str(), start, end));
            prop_assert_eq!(r.to_string().parse::<Region>(), Ok(r));
        }
    }
}
