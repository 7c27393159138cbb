//! A collection's key map as another collection resolves handles through it: `_key` to
//! ordinal and back, consulting the build's key fingerprints when it has them.

use crate::bytes::Bytes;
use crate::error::WriteError;
use crate::fstmap::KeyMap;
use crate::keys::KeyEncoding;

/// A target's key map, for resolving handles to node ordinals (linked at open, see
/// [`crate::adjacency::Adjacency::link`]).
#[derive(Clone)]
pub struct KeyLookup {
    /// The key map.
    pub map: KeyMap,
    /// Its key encoding.
    pub encoding: KeyEncoding,
    /// The target's record count.
    pub len: u64,
    /// Fingerprints of its keys, which a build consults before the key map (see
    /// [`crate::build::keyindex`]); None at serving time.
    pub index: Option<std::sync::Arc<crate::build::keyindex::KeyIndex>>,
}

impl KeyLookup {
    /// A key map held in memory: `keys` (`_key` text, ascending in `encoding`'s stored order)
    /// with their ordinals, for a target of as many records as keys.
    pub fn in_memory<K: AsRef<[u8]>>(
        keys: impl IntoIterator<Item = (K, u64)>,
        encoding: KeyEncoding,
    ) -> Result<KeyLookup, WriteError> {
        let mut b = crate::fstmap::KeyMapBuilder::for_encoding(Vec::new(), "key", encoding)?;
        let mut len = 0;
        for (k, ord) in keys {
            let stored = encoding.encode(k.as_ref()).ok_or_else(|| {
                WriteError::Invalid(format!(
                    "key {:?} is not in the key encoding",
                    String::from_utf8_lossy(k.as_ref())
                ))
            })?;
            b.insert(&stored, ord)?;
            len += 1;
        }
        let map = KeyMap::open(Bytes::from_vec(b.finish()?), "key")
            .map_err(|e| WriteError::Invalid(e.to_string()))?;
        Ok(KeyLookup {
            map,
            encoding,
            len,
            index: None,
        })
    }

    /// The ordinal of the record with `_key` = `key`.
    pub fn ord(&self, key: &str) -> Option<u64> {
        let stored = self.encoding.encode(key.as_bytes())?;
        match &self.index {
            Some(index) => index.get(&stored),
            None => self.map.get(&stored),
        }
        .filter(|&o| o < self.len)
    }

    /// The `_key` of record `ord` (None past the end): the key map read backwards, so a
    /// record referred to by ordinal is named without reading it. Only for a collection whose
    /// records are in key order (`schema::Order::Key`): elsewhere an ordinal is not a rank.
    pub fn key_of(&self, ord: u64) -> Option<String> {
        if ord >= self.len {
            return None;
        }
        let stored = self.map.key_of(ord)?;
        String::from_utf8(self.encoding.decode(&stored)).ok()
    }
}
