//! Ordinal width: how many bytes a collection's sections spend on one ordinal.
//!
//! Each collection has its own width (metadata `ordinal_width`): 4 bytes while its document
//! count fits 32 bits, 8 above the build's threshold. Postings, facets, point and interval
//! entries follow it; readers are told the width by the metadata and refuse a section whose
//! tag says otherwise, so a width mix-up is caught at open instead of misreading ordinals.

use crate::error::ReadError;

/// Documents above which a collection is wide by default: 2³² − 2, the threshold v3 catalogs
/// were first built with (kept so that they stay byte-identical; any count up to 2³² would fit
/// narrow sections).
pub const DEFAULT_WIDE_ABOVE: u64 = u32::MAX as u64 - 1;

/// Bytes per ordinal in one collection's sections.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Width {
    /// 4-byte ordinals (32-bit roaring facets, `PTS1`, `IVL1`).
    #[default]
    Narrow,
    /// 8-byte ordinals (`RoaringTreemap` facets, `PTS2`, `IVL2`); ordinals stay below 2⁶³,
    /// the FST inline bit.
    Wide,
}

impl Width {
    /// The width of a collection of `documents` when collections above `wide_above` are wide.
    pub fn for_count(documents: u64, wide_above: u64) -> Width {
        if documents > wide_above {
            Width::Wide
        } else {
            Width::Narrow
        }
    }

    /// Bytes per ordinal (the metadata's `ordinal_width`).
    pub fn bytes(self) -> u8 {
        match self {
            Width::Narrow => 4,
            Width::Wide => 8,
        }
    }

    /// The width the metadata's `ordinal_width` names, or an error naming `collection`.
    pub fn from_bytes(bytes: u8, collection: &str) -> Result<Width, ReadError> {
        match bytes {
            4 => Ok(Width::Narrow),
            8 => Ok(Width::Wide),
            n => Err(ReadError::invalid(
                crate::meta::META_SECTION,
                format!("{collection}: ordinal width {n} (4 or 8)"),
            )),
        }
    }

    /// The largest ordinal a section of this width stores.
    pub fn max_ordinal(self) -> u64 {
        match self {
            Width::Narrow => u32::MAX as u64,
            Width::Wide => (1 << 63) - 1,
        }
    }

    /// The ordinal of this width stored at byte `at` of `bytes`; the caller has checked bounds
    /// (the section checks at open).
    #[inline]
    pub fn ordinal_at(self, bytes: &[u8], at: usize) -> u64 {
        match self {
            Width::Narrow => crate::bytes::u32_at(bytes, at) as u64,
            Width::Wide => crate::bytes::u64_at(bytes, at),
        }
    }

    /// Refuses a section whose own width (`found`, from its tag) is not the metadata's.
    pub fn check(self, found: Width, section: &str) -> Result<(), ReadError> {
        if self == found {
            Ok(())
        } else {
            Err(ReadError::invalid(
                section,
                format!(
                    "{}-byte ordinals where the metadata says {}",
                    found.bytes(),
                    self.bytes()
                ),
            ))
        }
    }
}
