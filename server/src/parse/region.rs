//! Regions: exactly `chr<name>:<start>-<end>`, decimal integers, `start < end`, 0-based
//! half-open coordinates.

use std::fmt;
use std::str::FromStr;

/// A genomic region `[start, end)` on chromosome `chr`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// Chromosome name as in the data, with its `chr` prefix (`chr20`).
    pub chr: String,
    /// First base (0-based).
    pub start: u32,
    /// One past the last base.
    pub end: u32,
}

/// Why a region string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegionError {
    /// Not of the form `chr<name>:<start>-<end>`.
    Shape,
    /// `start >= end`.
    Empty,
}

impl Region {
    /// Length in bases.
    pub fn len(&self) -> u32 {
        self.end - self.start
    }

    /// True for a zero-length region (never produced by parsing).
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
        let (chr, range) = s.split_once(':').ok_or(RegionError::Shape)?;
        let name = chr.strip_prefix("chr").ok_or(RegionError::Shape)?;
        let name_ok = !name.is_empty()
            && name.len() <= 64
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
        let (start, end) = range.split_once('-').ok_or(RegionError::Shape)?;
        let (Some(start), Some(end)) = (coordinate(start), coordinate(end)) else {
            return Err(RegionError::Shape);
        };
        if !name_ok {
            return Err(RegionError::Shape);
        }
        if start >= end {
            return Err(RegionError::Empty);
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
            (r.chr.as_str(), r.start, r.end, r.len()),
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
            assert_eq!(s.parse::<Region>(), Err(RegionError::Shape), "{s:?}");
        }
        assert_eq!("chr1:5-5".parse::<Region>(), Err(RegionError::Empty));
        assert_eq!("chr1:6-5".parse::<Region>(), Err(RegionError::Empty));
    }
}
