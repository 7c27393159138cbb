//! Byte strings whose byte order is the order we want, so one external sorter serves every
//! ordering (records by key or by several fields, index entries, intervals).
//!
//! Strings are escaped (`00` → `00 FF`) and terminated by `00 00`, so a prefix sorts first and
//! embedded NULs cannot break the order; integers are big-endian; a missing value sorts last.
#![allow(clippy::big_endian_bytes)] // big-endian is what makes byte order equal numeric order

use std::borrow::Cow;

/// Appends sort-key components.
#[derive(Default, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SortKey(pub Vec<u8>);

impl SortKey {
    /// An empty key.
    pub fn new() -> SortKey {
        SortKey(Vec::new())
    }

    /// The key's bytes (the builder is left empty), at the end of a chain of appends.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.0)
    }

    /// Appends a string.
    pub fn str(&mut self, s: &[u8]) -> &mut Self {
        self.0.reserve(s.len() + 3);
        self.0.push(0);
        // NULs are rare (JSON text has none unescaped): copy the runs between them whole.
        let mut rest = s;
        while let Some(i) = rest.iter().position(|&b| b == 0) {
            self.0.extend_from_slice(&rest[..=i]);
            self.0.push(0xFF);
            rest = &rest[i + 1..];
        }
        self.0.extend_from_slice(rest);
        self.0.extend_from_slice(&[0, 0]);
        self
    }

    /// Appends an unsigned integer.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }

    /// Appends an unsigned integer.
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }

    /// Appends an ordinal: a length byte (its significant bytes, 0–8) then those bytes
    /// big-endian. A longer ordinal is a larger one, so byte order stays numeric order, and
    /// ordinals below 2²⁴ (every collection but the largest) cost 4 bytes at most.
    pub fn ord(&mut self, v: u64) -> &mut Self {
        let n = 8 - v.leading_zeros() as usize / 8;
        self.0.push(n as u8);
        self.0.extend_from_slice(&v.to_be_bytes()[8 - n..]);
        self
    }

    /// Appends a number (total order: negative < positive, NaN last).
    pub fn f64(&mut self, v: f64) -> &mut Self {
        self.0.push(0);
        let bits = v.to_bits();
        let ordered = if v.is_nan() {
            u64::MAX
        } else if bits >> 63 == 1 {
            !bits
        } else {
            bits | (1 << 63)
        };
        self.0.extend_from_slice(&ordered.to_be_bytes());
        self
    }

    /// Appends a missing value (after every present one).
    pub fn missing(&mut self) -> &mut Self {
        self.0.push(1);
        self
    }
}

/// Reads back components written by [`SortKey`].
pub struct KeyReader<'a> {
    b: &'a [u8],
}

impl<'a> KeyReader<'a> {
    /// Reads `b`.
    pub fn new(b: &'a [u8]) -> KeyReader<'a> {
        KeyReader { b }
    }

    /// Reads a string component (borrowed unless it held an escaped NUL).
    pub fn str(&mut self) -> Option<Cow<'a, [u8]>> {
        let (&tag, rest) = self.b.split_first()?;
        if tag != 0 {
            return None;
        }
        let mut out: Option<Vec<u8>> = None;
        let mut i = 0;
        loop {
            let nul = i + rest[i..].iter().position(|&b| b == 0)?;
            match *rest.get(nul + 1)? {
                0 => {
                    let s = match out {
                        Some(mut v) => {
                            v.extend_from_slice(&rest[i..nul]);
                            Cow::Owned(v)
                        }
                        None => Cow::Borrowed(&rest[..nul]),
                    };
                    self.b = &rest[nul + 2..];
                    return Some(s);
                }
                0xFF => {
                    let v = out.get_or_insert_with(Vec::new);
                    v.extend_from_slice(&rest[i..=nul]);
                    i = nul + 2;
                }
                _ => return None,
            }
        }
    }

    /// Reads a u32 component.
    pub fn u32(&mut self) -> Option<u32> {
        let (v, rest) = self.b.split_first_chunk::<4>()?;
        self.b = rest;
        Some(u32::from_be_bytes(*v))
    }

    /// Reads an ordinal component ([`SortKey::ord`]).
    pub fn ord(&mut self) -> Option<u64> {
        let (&n, rest) = self.b.split_first()?;
        let n = n as usize;
        if n > 8 || rest.len() < n {
            return None;
        }
        let mut v = [0u8; 8];
        v[8 - n..].copy_from_slice(&rest[..n]);
        self.b = &rest[n..];
        Some(u64::from_be_bytes(v))
    }

    /// Reads a u64 component.
    pub fn u64(&mut self) -> Option<u64> {
        let (v, rest) = self.b.split_first_chunk::<8>()?;
        self.b = rest;
        Some(u64::from_be_bytes(*v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Byte strings rich in the bytes the escaping is about (NUL, and 0xFF which follows it).
    fn bytes() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(
            prop_oneof![Just(0u8), Just(0xFF), Just(1u8), any::<u8>()],
            0..12,
        )
    }

    /// Ordinals near every byte-length boundary, 2^32 above all.
    fn ordinal() -> impl Strategy<Value = u64> {
        prop_oneof![
            (0u32..64, -2i64..=2).prop_map(|(k, d)| (1u64 << k).saturating_add_signed(d)),
            (u32::MAX as u64 - 2)..(u32::MAX as u64 + 3),
            Just((1u64 << 63) - 1),
            any::<u64>(),
        ]
    }

    proptest! {
        #[test]
        fn prop_string_order_is_preserved(a in bytes(), b in bytes(), x in any::<u32>(), y in any::<u32>()) {
            let ka = SortKey::new().str(&a).u32(x).clone();
            let kb = SortKey::new().str(&b).u32(y).clone();
            prop_assert_eq!(ka.cmp(&kb), (a.clone(), x).cmp(&(b.clone(), y)));
            let mut r = KeyReader::new(&ka.0);
            prop_assert_eq!(r.str().map(|s| s.into_owned()), Some(a));
            prop_assert_eq!(r.u32(), Some(x));
        }

        #[test]
        fn prop_ordinal_order_is_preserved(a in ordinal(), b in ordinal(), tail in bytes()) {
            // Ordinals of every length, around 2^32 and up to the FST's 2^63 - 1, sort as
            // numbers whatever follows them, and read back.
            let ka = SortKey::new().ord(a).str(&tail).clone();
            let kb = SortKey::new().ord(b).str(&tail).clone();
            prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
            let mut r = KeyReader::new(&ka.0);
            prop_assert_eq!(r.ord(), Some(a));
            prop_assert_eq!(r.str().map(|s| s.into_owned()), Some(tail));
        }

        #[test]
        fn prop_number_order_is_preserved(a in -1e12f64..1e12, b in -1e12f64..1e12) {
            let ka = SortKey::new().f64(a).clone();
            let kb = SortKey::new().f64(b).clone();
            prop_assert_eq!(ka.cmp(&kb), a.partial_cmp(&b).unwrap());
        }
    }

    #[test]
    fn test_missing_sorts_last() {
        let present = SortKey::new().str(b"zzz").clone();
        let missing = SortKey::new().missing().clone();
        assert!(present < missing);
        assert!(SortKey::new().f64(1e300).clone() < missing);
    }
}
