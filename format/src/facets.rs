//! Categorical filters: for each value of a field, the roaring bitmap of ordinals that carry it.
//!
//! Bitmaps are decoded once when the catalog opens (roaring cannot be read in place from a
//! map, roaring-rs #124) and kept in memory; a facet is meant for fields with few distinct
//! values (method, source, label, type…), where the bitmaps are small next to the data.
//!
//! Section layout: per value `name_len u32 · bitmap_len u32 · name padded to 8 · bitmap
//! (portable roaring format) padded to 8`, values in ascending byte order, then the trailer
//! `values u64 · tag "FCT1" · 0 u32`. A wide collection's facets (see [`Width`]) are the same
//! with each bitmap in roaring's portable 64-bit format (`RoaringTreemap`: `u64` count of
//! high keys, each a key `u32` + a 32-bit portable bitmap) and the tag `"FCT2"`.

use std::collections::BTreeMap;
use std::io::Write;

use roaring::{RoaringBitmap, RoaringTreemap};

use crate::bytes::{pad8, Cursor};
use crate::error::{ReadError, WriteError};
use crate::width::Width;

const TAG: [u8; 4] = *b"FCT1";
const TAG_WIDE: [u8; 4] = *b"FCT2";
const TRAILER: usize = 16;

/// Collects value → ordinals while records stream by (64-bit sets, so that one builder serves
/// both widths; the width is chosen when the collection's count is known, at [`Self::write_width`]).
#[derive(Default)]
pub struct FacetBuilder {
    values: BTreeMap<String, RoaringTreemap>,
}

impl FacetBuilder {
    /// An empty builder.
    pub fn new() -> FacetBuilder {
        FacetBuilder::default()
    }

    /// Records that ordinal `ord` has `value` (any width).
    pub fn add(&mut self, value: &str, ord: u64) {
        if let Some(bm) = self.values.get_mut(value) {
            bm.insert(ord);
        } else {
            let mut bm = RoaringTreemap::new();
            bm.insert(ord);
            self.values.insert(value.to_string(), bm);
        }
    }

    /// Number of distinct values so far.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when no value was added.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Writes the section with narrow bitmaps.
    pub fn write<W: Write>(&self, out: &mut W) -> Result<(), WriteError> {
        self.write_width(out, Width::Narrow)
    }

    /// Writes the section with bitmaps of `width`.
    pub fn write_width<W: Write>(&self, out: &mut W, width: Width) -> Result<(), WriteError> {
        for (name, bm) in &self.values {
            let mut ser = Vec::with_capacity(bm.serialized_size());
            match width {
                Width::Wide => bm.serialize_into(&mut ser)?,
                Width::Narrow => {
                    let mut bits = RoaringBitmap::new();
                    for (high, part) in bm.bitmaps() {
                        if high != 0 {
                            return Err(WriteError::Invalid(format!(
                                "facet value {name}: ordinal past 2^32 in a narrow collection"
                            )));
                        }
                        bits = part.clone();
                    }
                    bits.serialize_into(&mut ser)?;
                }
            }
            let bm_len = u32::try_from(ser.len()).map_err(|_| {
                WriteError::Invalid(format!("facet value {name}: bitmap over 4 GiB"))
            })?;
            out.write_all(&(name.len() as u32).to_le_bytes())?;
            out.write_all(&bm_len.to_le_bytes())?;
            out.write_all(name.as_bytes())?;
            out.write_all(&[0u8; 8][..pad8(name.len()) - name.len()])?;
            out.write_all(&ser)?;
            out.write_all(&[0u8; 8][..pad8(ser.len()) - ser.len()])?;
        }
        out.write_all(&(self.values.len() as u64).to_le_bytes())?;
        out.write_all(match width {
            Width::Narrow => &TAG,
            Width::Wide => &TAG_WIDE,
        })?;
        out.write_all(&0u32.to_le_bytes())?;
        Ok(())
    }
}

/// One value's ordinals: a 32-bit bitmap in a narrow collection, a treemap in a wide one.
#[derive(Clone, Debug)]
pub enum Bits {
    /// Narrow collection.
    Narrow(RoaringBitmap),
    /// Wide collection.
    Wide(RoaringTreemap),
}

impl Bits {
    /// Number of ordinals.
    pub fn len(&self) -> u64 {
        match self {
            Bits::Narrow(b) => b.len(),
            Bits::Wide(t) => t.len(),
        }
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Membership of an ordinal.
    #[inline]
    pub fn contains(&self, ord: u64) -> bool {
        match self {
            Bits::Narrow(b) => u32::try_from(ord).is_ok_and(|o| b.contains(o)),
            Bits::Wide(t) => t.contains(ord),
        }
    }

    /// The ordinals in order.
    pub fn iter(&self) -> Box<dyn Iterator<Item = u64> + '_> {
        match self {
            Bits::Narrow(b) => Box::new(b.iter().map(u64::from)),
            Bits::Wide(t) => Box::new(t.iter()),
        }
    }

    fn serialized_size(&self) -> usize {
        match self {
            Bits::Narrow(b) => b.serialized_size(),
            Bits::Wide(t) => t.serialized_size(),
        }
    }
}

/// A decoded facet: value → ordinals.
#[derive(Clone, Debug, Default)]
pub struct Facet {
    values: BTreeMap<String, Bits>,
}

impl Facet {
    /// Decodes a narrow section (validating every bitmap).
    pub fn open(bytes: &[u8], section: &str) -> Result<Facet, ReadError> {
        Facet::open_width(bytes, section, Width::Narrow)
    }

    /// Decodes a section of a collection of `width` (validating every bitmap); a section of
    /// the other width is refused.
    pub fn open_width(bytes: &[u8], section: &str, width: Width) -> Result<Facet, ReadError> {
        if bytes.len() < TRAILER {
            return Err(ReadError::truncated(format!(
                "section {section}: facet trailer"
            )));
        }
        let t = bytes.len() - TRAILER;
        let found = match bytes[t + 8..t + 12].try_into().expect("4 bytes") {
            TAG => Width::Narrow,
            TAG_WIDE => Width::Wide,
            _ => return Err(ReadError::invalid(section, "not a facet")),
        };
        width.check(found, section)?;
        let count = Cursor::new(&bytes[t..], section).usize("value count")?;
        let mut c = Cursor::new(&bytes[..t], section);
        let mut values = BTreeMap::new();
        for _ in 0..count {
            let name_len = c.u32("value length")? as usize;
            let bm_len = c.u32("bitmap length")? as usize;
            let r = c.skip(pad8(name_len), "value")?;
            let name = std::str::from_utf8(&bytes[r.start..r.start + name_len])
                .map_err(|_| ReadError::invalid(section, "facet value is not UTF-8"))?;
            let r = c.skip(pad8(bm_len), "bitmap")?;
            let raw = &bytes[r.start..r.start + bm_len];
            let bad =
                |e: std::io::Error| ReadError::invalid(section, format!("bitmap of {name}: {e}"));
            let bm = match width {
                Width::Narrow => Bits::Narrow(RoaringBitmap::deserialize_from(raw).map_err(bad)?),
                Width::Wide => Bits::Wide(RoaringTreemap::deserialize_from(raw).map_err(bad)?),
            };
            values.insert(name.to_string(), bm);
        }
        c.finish()?;
        Ok(Facet { values })
    }

    /// The ordinals with `value` (None when no record has it).
    pub fn get(&self, value: &str) -> Option<&Bits> {
        self.values.get(value)
    }

    /// Distinct values in byte order.
    pub fn values(&self) -> impl Iterator<Item = (&str, &Bits)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Bytes held in memory by the decoded bitmaps (approximate).
    pub fn memory(&self) -> usize {
        self.values.values().map(|b| b.serialized_size()).sum()
    }
}
