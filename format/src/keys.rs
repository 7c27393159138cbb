//! How a collection's `_key`s are spelled in its key map (`<collection>.key`).
//!
//! IGVF gives many edge collections (TopLD's LD pairs, eQTLs, GWAS hits) 64-character hex
//! digests as `_key`s. Such keys share no suffixes, so each adds one FST node per byte: the key
//! FST of the LD table was the longest single step of a build and 65 bytes per key. When every
//! key of a collection is lowercase hex of even length, the map stores each key's bytes instead
//! of its text (half the length), which keeps the byte order of the text: hex digits `0-9a-f` sort
//! as their values, and a key that is a prefix of another still sorts first. Any other
//! collection keeps its keys as text.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// The spelling of one collection's keys in its key map (recorded in its metadata).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyEncoding {
    /// Keys as their UTF-8 text.
    #[default]
    Text,
    /// Every key is lowercase hex of even length and is stored as the bytes it spells.
    Hex,
}

/// True when `key` can be stored packed: non-empty lowercase hex of even length.
pub fn packable(key: &[u8]) -> bool {
    !key.is_empty() && key.len().is_multiple_of(2) && key.iter().all(|&b| hex_digit(b).is_some())
}

fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

impl KeyEncoding {
    /// The encoding a collection whose keys were all shown to `chooser` gets.
    pub fn choose(chooser: &Chooser) -> KeyEncoding {
        if chooser.seen && chooser.all_packable {
            KeyEncoding::Hex
        } else {
            KeyEncoding::Text
        }
    }

    /// `key` as stored in the map; None when this encoding cannot hold it (so no record has it).
    pub fn encode(self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        match self {
            KeyEncoding::Text => Some(Cow::Borrowed(key)),
            KeyEncoding::Hex => {
                if !packable(key) {
                    return None;
                }
                let packed = key
                    .chunks_exact(2)
                    .map(|p| {
                        let (hi, lo) = (hex_digit(p[0]), hex_digit(p[1]));
                        (hi.unwrap_or(0) << 4) | lo.unwrap_or(0)
                    })
                    .collect();
                Some(Cow::Owned(packed))
            }
        }
    }

    /// The key text of stored bytes (`encode` inverted): hex spells packed bytes out again.
    pub fn decode(self, stored: &[u8]) -> Vec<u8> {
        match self {
            KeyEncoding::Text => stored.to_vec(),
            KeyEncoding::Hex => {
                const DIGITS: &[u8; 16] = b"0123456789abcdef";
                stored
                    .iter()
                    .flat_map(|&b| [DIGITS[(b >> 4) as usize], DIGITS[(b & 15) as usize]])
                    .collect()
            }
        }
    }
}

/// Watches the keys of one collection as they are read, to choose its [`KeyEncoding`].
#[derive(Clone, Copy, Debug)]
pub struct Chooser {
    seen: bool,
    all_packable: bool,
}

impl Default for Chooser {
    fn default() -> Chooser {
        Chooser {
            seen: false,
            all_packable: true,
        }
    }
}

impl Chooser {
    /// Notes one key.
    pub fn see(&mut self, key: &[u8]) {
        self.seen = true;
        // Once one key is not packable the answer is known; skip the scan for the rest.
        if self.all_packable {
            self.all_packable = packable(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytes::Bytes;
    use crate::fstmap::{KeyMap, KeyMapBuilder};
    use proptest::prelude::*;

    fn choose(keys: &[&str]) -> KeyEncoding {
        let mut c = Chooser::default();
        for k in keys {
            c.see(k.as_bytes());
        }
        KeyEncoding::choose(&c)
    }

    #[test]
    fn test_choice() {
        let digest = "fb32b9404cd4cd7da8cf0b285983e5088b71cefbf591dfa4f0b68554e5e0b6d1";
        assert_eq!(choose(&[digest, "00ab"]), KeyEncoding::Hex);
        assert_eq!(choose(&[]), KeyEncoding::Text);
        // Upper case, odd length, other characters or an empty key keep the text.
        assert_eq!(choose(&[digest, "00AB"]), KeyEncoding::Text);
        assert_eq!(choose(&[digest, "abc"]), KeyEncoding::Text);
        assert_eq!(choose(&["NC_000001.11:19888::TGTTGCC"]), KeyEncoding::Text);
        assert_eq!(choose(&[digest, ""]), KeyEncoding::Text);
    }

    #[test]
    fn test_encode() {
        let hex = KeyEncoding::Hex;
        assert_eq!(
            hex.encode(b"00ff7a").as_deref(),
            Some(&[0x00, 0xff, 0x7a][..])
        );
        assert_eq!(hex.encode(b"00FF"), None);
        assert_eq!(hex.encode(b"0"), None);
        assert_eq!(hex.encode(b"rs123"), None);
        assert_eq!(
            KeyEncoding::Text.encode(b"rs123").as_deref(),
            Some(&b"rs123"[..])
        );
        let json = serde_json::to_string(&KeyEncoding::Hex).unwrap();
        assert_eq!(json, "\"hex\"");
    }

    fn hex_key() -> impl Strategy<Value = String> {
        proptest::collection::vec(any::<u8>(), 1..40)
            .prop_map(|b| b.iter().map(|x| format!("{x:02x}")).collect())
    }

    proptest! {
        /// Packing is one-to-one and keeps the byte order of the text, prefixes included, so
        /// a map built in text order is built in packed order.
        #[test]
        fn prop_hex_keeps_order_and_identity(a in hex_key(), b in hex_key()) {
            let (pa, pb) = (
                KeyEncoding::Hex.encode(a.as_bytes()).unwrap(),
                KeyEncoding::Hex.encode(b.as_bytes()).unwrap(),
            );
            prop_assert_eq!(a.cmp(&b), pa.cmp(&pb));
            prop_assert_eq!(pa.len() * 2, a.len());
            let back: String = pa.iter().map(|x| format!("{x:02x}")).collect();
            prop_assert_eq!(back, a);
        }

        /// A key the encoding cannot hold is never found: it maps to nothing, not to a
        /// neighbour.
        #[test]
        fn prop_unpackable_is_refused(s in "[0-9a-zA-Z_:.]{0,20}") {
            let ok = packable(s.as_bytes());
            prop_assert_eq!(KeyEncoding::Hex.encode(s.as_bytes()).is_some(), ok);
            let expected = !s.is_empty()
                && s.len().is_multiple_of(2)
                && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
            prop_assert_eq!(ok, expected);
        }

        /// Write → read: a key map built from packed keys in text order finds every key by
        /// its text, and nothing for a key it does not hold, whether it was built the way the
        /// indexer builds a hex key map (no suffix sharing) or minimal.
        #[test]
        fn prop_key_map_round_trip(
            keys in proptest::collection::btree_set(hex_key(), 0..60),
            absent in hex_key(),
            minimal in any::<bool>(),
        ) {
            let mut b = if minimal {
                KeyMapBuilder::new(Vec::new(), "t.key").unwrap()
            } else {
                KeyMapBuilder::for_encoding(Vec::new(), "t.key", KeyEncoding::Hex).unwrap()
            };
            for (i, k) in keys.iter().enumerate() {
                b.insert(&KeyEncoding::Hex.encode(k.as_bytes()).unwrap(), i as u64).unwrap();
            }
            let map = KeyMap::open(Bytes::from_vec(b.finish().unwrap()), "t.key").unwrap();
            for (i, k) in keys.iter().enumerate() {
                let found = KeyEncoding::Hex.encode(k.as_bytes()).and_then(|e| map.get(&e));
                prop_assert_eq!(found, Some(i as u64));
            }
            if !keys.contains(&absent) {
                let found = KeyEncoding::Hex.encode(absent.as_bytes()).and_then(|e| map.get(&e));
                prop_assert_eq!(found, None);
            }
        }
    }
}
