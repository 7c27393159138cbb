//! Hash maps keyed by the names a catalog itself supplies (member, index and collection
//! names). Every record member a request reads is found by name, so these maps sit on the
//! hottest path: SipHash's protection against chosen keys costs more than the look-up, and
//! these keys come from the catalog (its checksummed metadata), not from clients. The build
//! also counts values with it, in maps capped small enough that collisions cannot hurt.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A map hashed with [`NameHasher`] (keys no client chooses, or few enough).
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<NameHasher>>;

/// A map from a catalog-supplied name.
pub type NameMap<V> = FastMap<String, V>;

/// A multiply-rotate hash over 8-byte words (the "Fx" hash of rustc), for short names.
#[derive(Default, Clone, Copy)]
pub struct NameHasher(u64);

const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl NameHasher {
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(K);
    }
}

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        // The length first, so that zero padding of the last word cannot collide.
        self.add(bytes.len() as u64);
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap_or_default()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    fn write_u8(&mut self, b: u8) {
        self.add(b as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_names_find_their_values_and_differ_in_hash() {
        let names = [
            "_key",
            "_from",
            "_to",
            "annotations",
            "annotations.bravo_af",
            "a",
            "b",
        ];
        let m: NameMap<usize> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), i))
            .collect();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(m.get(*n), Some(&i));
        }
        assert_eq!(m.get("_kez"), None);
        let h = |s: &str| {
            let mut x = NameHasher::default();
            x.write(s.as_bytes());
            x.finish()
        };
        // Names that differ only past the first word, or only in length, hash apart.
        assert_ne!(h("annotations.bravo_af"), h("annotations.gnomad_af"));
        assert_ne!(h("a"), h("a\0"));
    }
}
