//! In-memory fingerprints of a built collection's `_key`s, consulted instead of its `_key` FST
//! when later collections check that their `_from` and `_to` resolve.
//!
//! At 10M variants that check is some 100M lookups into a 10M-key FST read through the page
//! cache, about 0.7–1.3 µs each, nearly all of it cache and TLB misses along the path; a
//! fingerprint lookup touches one or two adjacent slots (≈ 0.15 µs). The set holds 64-bit xxh3
//! fingerprints, not keys, so a reference whose key is absent counts as resolved when its
//! fingerprint equals that of one of the n keys present: probability n / 2⁶⁴ per dangling
//! reference (5 × 10⁻¹³ at 10M keys). That only touches the build summary's dangling counts:
//! ordinals, which derived members and tables store, still come from the FST
//! ([`crate::derive::Ctx::resolve`]). Two keys of the collection with one fingerprint make the
//! set refuse to build, and the FST answers for that collection. Sets are held only within a
//! share of `--mem-budget` (see `Env::pin`): 8 bytes per slot at a load of at most 3/4,
//! 107 MB at 10M keys.

use varcat_format::collection::Collection;
use xxhash_rust::xxh3::xxh3_64;

/// Open addressing with linear probing over non-zero fingerprints (0 marks an empty slot).
pub struct KeySet {
    slots: Vec<u64>,
}

fn fingerprint(key: &[u8]) -> u64 {
    xxh3_64(key).max(1)
}

impl KeySet {
    fn slot_count(keys: usize) -> usize {
        (keys + keys / 3 + 1).max(8)
    }

    /// Heap bytes of a set of `keys` keys.
    pub fn size(keys: usize) -> usize {
        Self::slot_count(keys) * 8
    }

    fn with_capacity(keys: usize) -> KeySet {
        KeySet {
            slots: vec![0; Self::slot_count(keys)],
        }
    }

    /// The set of `coll`'s keys (in its stored encoding) if it takes at most `room` bytes and
    /// no two of them share a fingerprint.
    pub fn for_collection(coll: &Collection, room: usize) -> Option<KeySet> {
        let n = coll.len() as usize;
        if KeySet::size(n) > room {
            return None;
        }
        let mut s = KeySet::with_capacity(n);
        let (mut seen, mut ok) = (0usize, true);
        coll.for_each_key(|k, _| {
            seen += 1;
            ok = ok && seen <= n && s.insert(k);
        });
        ok.then_some(s)
    }

    /// The slot a fingerprint's probe starts at: the high half of its product with the slot
    /// count, which spreads it over any count (not only powers of two).
    fn home(&self, f: u64) -> usize {
        ((u128::from(f) * self.slots.len() as u128) >> 64) as usize
    }

    /// Where `f`'s probe ends: `Ok(slot)` holding `f`, or `Err(slot)` empty where it would go
    /// (`Err(None)` when the set is full without it).
    fn probe(&self, f: u64) -> Result<usize, Option<usize>> {
        let mut i = self.home(f);
        for _ in 0..self.slots.len() {
            match self.slots[i] {
                0 => return Err(Some(i)),
                s if s == f => return Ok(i),
                _ => i = if i + 1 == self.slots.len() { 0 } else { i + 1 },
            }
        }
        Err(None)
    }

    /// Adds `key`; false when its fingerprint is already there (another key's: keys are
    /// distinct) or the set is full.
    fn insert(&mut self, key: &[u8]) -> bool {
        let f = fingerprint(key);
        match self.probe(f) {
            Err(Some(i)) => {
                self.slots[i] = f;
                true
            }
            _ => false,
        }
    }

    /// True when a key with `key`'s fingerprint is present (see the module note).
    pub fn contains(&self, key: &[u8]) -> bool {
        self.probe(fingerprint(key)).is_ok()
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.slots.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn build(keys: &BTreeSet<Vec<u8>>) -> Option<KeySet> {
        let mut s = KeySet::with_capacity(keys.len());
        keys.iter().all(|k| s.insert(k)).then_some(s)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn prop_set_answers_like_a_set(
            keys in prop::collection::btree_set(prop::collection::vec(any::<u8>(), 0..12), 0..300),
            probes in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..12), 0..100),
        ) {
            let s = build(&keys).expect("no fingerprint collision among a few hundred keys");
            prop_assert_eq!(s.heap_bytes(), KeySet::size(keys.len()));
            for k in &keys {
                prop_assert!(s.contains(k));
            }
            for p in &probes {
                prop_assert_eq!(s.contains(p), keys.contains(p));
            }
        }
    }

    #[test]
    fn test_full_load_wraps_around_and_stops() {
        // 6,000 keys in 8,001 slots: probes wrap past the last slot and pass other keys.
        let keys: BTreeSet<Vec<u8>> = (0..6000u32).map(|i| format!("k{i}").into_bytes()).collect();
        let s = build(&keys).expect("fits");
        assert!(keys.iter().all(|k| s.contains(k)));
        assert!(!(6000..7000u32).any(|i| s.contains(format!("k{i}").as_bytes())));
        // A set filled to the last slot answers a miss without looping forever.
        let mut full = KeySet { slots: vec![0; 8] };
        assert!((0..8u8).all(|i| full.insert(&[i])));
        assert!(!full.insert(b"ninth"));
        assert!(!full.contains(b"ninth"));
    }

    #[test]
    fn test_a_repeated_fingerprint_refuses_the_set() {
        let mut s = KeySet::with_capacity(4);
        assert!(s.insert(b"a"));
        assert!(!s.insert(b"a"));
    }
}
