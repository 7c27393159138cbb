//! In-memory fingerprints of a built collection's `_key`s with their ordinals, consulted
//! instead of its `_key` FST while a build resolves the handles later collections hold (to
//! check them, to store them as ordinals, to index edges by them).
//!
//! At 10M variants that is some 200M lookups into a 10M-key FST read through the page cache,
//! about 0.7–1.3 µs each, nearly all of it cache and TLB misses along the path; a fingerprint
//! lookup touches one or two adjacent slots (≈ 0.15 µs). A slot holds a key's 96-bit xxh3
//! fingerprint and its ordinal, not the key, so a handle whose key is absent resolves to the
//! ordinal of a present key when its fingerprint equals that key's: probability n / 2⁹⁶ per
//! dangling handle over n keys (10⁻²² at 10M keys; 10⁻¹⁰ summed over 10¹⁰ dangling handles
//! into 10⁹ keys, far below the chance of a memory error). A present key always finds its
//! own ordinal: two keys of the collection with one 64-bit fingerprint make the index refuse
//! to build, and the FST answers for that collection, as it does for one of more than 2³²
//! records (a slot's ordinal is 32 bits) and at serving time. Indexes are held only within a
//! share of `--mem-budget` (the indexer's `Env::pin`): 16 bytes per slot at a load of at most
//! 3/4, 213 MB at 10M keys.

use crate::bytes::u64_at;
use xxhash_rust::xxh3::xxh3_128;

/// Open addressing with linear probing over `[fingerprint, check << 32 | ordinal]` slots
/// (fingerprint 0 marks an empty slot), little-endian u64s in anonymous memory advised to
/// take huge pages: every look-up lands on a random slot, and with 4 KiB pages each was a
/// TLB miss on top of the cache miss (94 % of the look-up's samples on the slot's load).
pub struct KeyIndex {
    slots: memmap2::MmapMut,
}

const SLOT: usize = 16;

/// A key's fingerprint (never 0) and its 32 check bits.
fn fingerprint(key: &[u8]) -> (u64, u64) {
    let h = xxh3_128(key);
    ((h as u64).max(1), (h >> 96) as u64)
}

impl KeyIndex {
    fn slot_count(keys: usize) -> usize {
        (keys + keys / 3 + 1).max(8)
    }

    /// Heap bytes of an index of `keys` keys.
    pub fn size(keys: usize) -> usize {
        Self::slot_count(keys) * SLOT
    }

    /// An empty index for `keys` keys (None when the memory cannot be had).
    fn with_capacity(keys: usize) -> Option<KeyIndex> {
        let slots = memmap2::MmapMut::map_anon(Self::size(keys)).ok()?;
        // Advice only: without huge pages the index works, slower.
        #[cfg(target_os = "linux")]
        let _ = slots.advise(memmap2::Advice::HugePage);
        Some(KeyIndex { slots })
    }

    fn len(&self) -> usize {
        self.slots.len() / SLOT
    }

    /// Slot `i`'s fingerprint.
    fn fingerprint_at(&self, i: usize) -> u64 {
        u64_at(&self.slots, i * SLOT)
    }

    /// Slot `i`'s check bits and ordinal.
    fn value_at(&self, i: usize) -> u64 {
        u64_at(&self.slots, i * SLOT + 8)
    }

    fn set(&mut self, i: usize, fingerprint: u64, value: u64) {
        self.slots[i * SLOT..i * SLOT + 8].copy_from_slice(&fingerprint.to_le_bytes());
        self.slots[i * SLOT + 8..(i + 1) * SLOT].copy_from_slice(&value.to_le_bytes());
    }

    /// The index of `len` keys (in their stored encoding), which `keys` hands one by one with
    /// its ordinal to the function it is given, if it takes at most `room` bytes, its
    /// ordinals fit in 32 bits and no two of its keys share a fingerprint.
    pub fn from_keys(
        len: u64,
        room: usize,
        keys: impl FnOnce(&mut dyn FnMut(&[u8], u64)),
    ) -> Option<KeyIndex> {
        let n = usize::try_from(len).ok()?;
        if KeyIndex::size(n) > room || len > u64::from(u32::MAX) {
            return None;
        }
        let mut s = KeyIndex::with_capacity(n)?;
        let (mut seen, mut ok) = (0usize, true);
        keys(&mut |k, ord| {
            seen += 1;
            ok = ok && seen <= n && s.insert(k, ord);
        });
        ok.then_some(s)
    }

    /// The slot a fingerprint's probe starts at: the high half of its product with the slot
    /// count, which spreads it over any count (not only powers of two).
    fn home(&self, f: u64) -> usize {
        ((u128::from(f) * self.len() as u128) >> 64) as usize
    }

    /// Where `f`'s probe ends: `Ok(slot)` holding `f`, or `Err(slot)` empty where it would go
    /// (`Err(None)` when the index is full without it).
    fn probe(&self, f: u64) -> Result<usize, Option<usize>> {
        let mut i = self.home(f);
        for _ in 0..self.len() {
            match self.fingerprint_at(i) {
                0 => return Err(Some(i)),
                s if s == f => return Ok(i),
                _ => i = if i + 1 == self.len() { 0 } else { i + 1 },
            }
        }
        Err(None)
    }

    /// Adds `key` at `ord` (below 2³²); false when its fingerprint is already there (another
    /// key's: keys are distinct) or the index is full.
    fn insert(&mut self, key: &[u8], ord: u64) -> bool {
        let (f, check) = fingerprint(key);
        match (self.probe(f), u32::try_from(ord)) {
            (Err(Some(i)), Ok(ord)) => {
                self.set(i, f, check << 32 | u64::from(ord));
                true
            }
            _ => false,
        }
    }

    /// The ordinal of the key with `key`'s fingerprint, if present (see the module note).
    pub fn get(&self, key: &[u8]) -> Option<u64> {
        let (f, check) = fingerprint(key);
        let v = self.value_at(self.probe(f).ok()?);
        (v >> 32 == check).then_some(v & u64::from(u32::MAX))
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn build(keys: &BTreeMap<Vec<u8>, u32>) -> Option<KeyIndex> {
        let mut s = KeyIndex::with_capacity(keys.len()).unwrap();
        keys.iter()
            .all(|(k, &o)| s.insert(k, o.into()))
            .then_some(s)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn prop_index_answers_like_a_map(
            keys in prop::collection::btree_map(prop::collection::vec(any::<u8>(), 0..12), any::<u32>(), 0..300),
            probes in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..12), 0..100),
        ) {
            let s = build(&keys).expect("no fingerprint collision among a few hundred keys");
            prop_assert_eq!(s.heap_bytes(), KeyIndex::size(keys.len()));
            for (k, &o) in &keys {
                prop_assert_eq!(s.get(k), Some(u64::from(o)));
            }
            for p in &probes {
                prop_assert_eq!(s.get(p), keys.get(p).map(|&o| u64::from(o)));
            }
        }
    }

    #[test]
    fn test_full_load_wraps_around_and_stops() {
        // 6,000 keys in 8,001 slots: probes wrap past the last slot and pass other keys.
        let keys: BTreeMap<Vec<u8>, u32> = (0..6000u32)
            .map(|i| (format!("k{i}").into_bytes(), i * 7))
            .collect();
        let s = build(&keys).expect("fits");
        assert!(keys.iter().all(|(k, &o)| s.get(k) == Some(u64::from(o))));
        assert!(!(6000..7000u32).any(|i| s.get(format!("k{i}").as_bytes()).is_some()));
        // An index filled to the last slot answers a miss without looping forever.
        let mut full = KeyIndex::with_capacity(0).unwrap();
        assert_eq!(full.len(), 8);
        assert!((0..8u8).all(|i| full.insert(&[i], u64::from(i))));
        assert!(!full.insert(b"ninth", 8));
        assert_eq!(full.get(b"ninth"), None);
    }

    #[test]
    fn test_a_repeated_fingerprint_or_a_wide_ordinal_refuses_the_key() {
        let mut s = KeyIndex::with_capacity(4).unwrap();
        assert!(s.insert(b"a", 0));
        assert!(!s.insert(b"a", 1));
        assert!(!s.insert(b"b", 1 << 32));
        assert!(s.insert(b"b", u64::from(u32::MAX)));
        assert_eq!(s.get(b"b"), Some(u64::from(u32::MAX)));
    }

    #[test]
    fn test_a_fingerprint_whose_check_bits_differ_is_absent() {
        // A dangling key whose 64-bit fingerprint a present key shares: the check bits tell
        // them apart (forged here by planting the present key's fingerprint elsewhere).
        let mut s = KeyIndex::with_capacity(4).unwrap();
        assert!(s.insert(b"present", 5));
        let (f, check) = fingerprint(b"present");
        let i = s.probe(f).unwrap();
        s.set(i, f, (check ^ 1) << 32 | 5);
        assert_eq!(s.get(b"present"), None);
    }
}
