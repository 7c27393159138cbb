//! Categorical filters: for each value of a field, the roaring bitmap of ordinals that carry it.
//!
//! Bitmaps are decoded once when the catalog opens (roaring cannot be read in place from a
//! map, roaring-rs #124) and kept in memory; a facet is meant for fields with few distinct
//! values (method, source, label, type…), where the bitmaps are small next to the data.
//!
//! Section layout: per value `name_len u32 · bitmap_len u32 · name padded to 8 · bitmap
//! (portable roaring format) padded to 8`, values in ascending byte order, then the trailer
//! `values u64 · tag "FCT1" · 0 u32`.

use std::collections::BTreeMap;
use std::io::Write;

use roaring::RoaringBitmap;

use crate::bytes::{pad8, Cursor};
use crate::error::{ReadError, WriteError};

const TAG: [u8; 4] = *b"FCT1";
const TRAILER: usize = 16;

/// Collects value → ordinals while records stream by.
#[derive(Default)]
pub struct FacetBuilder {
    values: BTreeMap<String, RoaringBitmap>,
}

impl FacetBuilder {
    /// An empty builder.
    pub fn new() -> FacetBuilder {
        FacetBuilder::default()
    }

    /// Records that ordinal `ord` has `value`.
    pub fn add(&mut self, value: &str, ord: u32) {
        self.values
            .entry(value.to_string())
            .or_default()
            .insert(ord);
    }

    /// Number of distinct values so far.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when no value was added.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Writes the section.
    pub fn write<W: Write>(&self, out: &mut W) -> Result<(), WriteError> {
        for (name, bm) in &self.values {
            let mut ser = Vec::with_capacity(bm.serialized_size());
            bm.serialize_into(&mut ser)?;
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
        out.write_all(&TAG)?;
        out.write_all(&0u32.to_le_bytes())?;
        Ok(())
    }
}

/// A decoded facet: value → bitmap.
#[derive(Clone, Debug, Default)]
pub struct Facet {
    values: BTreeMap<String, RoaringBitmap>,
}

impl Facet {
    /// Decodes a section (validating every bitmap).
    pub fn open(bytes: &[u8], section: &str) -> Result<Facet, ReadError> {
        if bytes.len() < TRAILER {
            return Err(ReadError::truncated(format!(
                "section {section}: facet trailer"
            )));
        }
        let t = bytes.len() - TRAILER;
        if bytes[t + 8..t + 12] != TAG {
            return Err(ReadError::invalid(section, "not a facet"));
        }
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
            let bm = RoaringBitmap::deserialize_from(&bytes[r.start..r.start + bm_len])
                .map_err(|e| ReadError::invalid(section, format!("bitmap of {name}: {e}")))?;
            values.insert(name.to_string(), bm);
        }
        c.finish()?;
        Ok(Facet { values })
    }

    /// The ordinals with `value` (None when no record has it).
    pub fn get(&self, value: &str) -> Option<&RoaringBitmap> {
        self.values.get(value)
    }

    /// Distinct values in byte order.
    pub fn values(&self) -> impl Iterator<Item = (&str, &RoaringBitmap)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Bytes held in memory by the decoded bitmaps (approximate).
    pub fn memory(&self) -> usize {
        self.values.values().map(|b| b.serialized_size()).sum()
    }
}
