//! One record's members: a record is encoded as `n u16 · field_id u16 × n · end u32 × n ·
//! values`, fields in ascending id order, `end` the end offset of each value within
//! `values`. A server answers by copying member bytes into the output shape's order; it never
//! re-serialises a value.

use std::ops::Range;

use crate::bytes::{u16_at, u32_at};

/// Assembles one record's encoding.
#[derive(Default)]
pub struct RecordBuf {
    members: Vec<(u16, Vec<u8>)>,
}

impl RecordBuf {
    /// An empty record.
    pub fn new() -> RecordBuf {
        RecordBuf::default()
    }

    /// Sets member `field` to the JSON bytes `value` (replacing an earlier value).
    pub fn set(&mut self, field: u16, value: Vec<u8>) {
        match self.members.binary_search_by_key(&field, |m| m.0) {
            Ok(i) => self.members[i].1 = value,
            Err(i) => self.members.insert(i, (field, value)),
        }
    }

    /// Encodes the record.
    pub fn encode(&self) -> Vec<u8> {
        let n = self.members.len();
        let body: usize = self.members.iter().map(|m| m.1.len()).sum();
        let mut out = Vec::with_capacity(2 + 6 * n + body);
        out.extend_from_slice(&(n as u16).to_le_bytes());
        for (id, _) in &self.members {
            out.extend_from_slice(&id.to_le_bytes());
        }
        let mut end = 0u32;
        for (_, v) in &self.members {
            end += v.len() as u32;
            out.extend_from_slice(&end.to_le_bytes());
        }
        for (_, v) in &self.members {
            out.extend_from_slice(v);
        }
        out
    }
}

/// A decoded view of one record. Accessors bound-check, so a corrupt record yields missing
/// members rather than a panic.
#[derive(Clone, Copy, Debug)]
pub struct Record<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) n: usize,
}

impl<'a> Record<'a> {
    /// Views encoded record bytes.
    pub fn new(bytes: &'a [u8]) -> Record<'a> {
        let n = if bytes.len() >= 2 {
            u16_at(bytes, 0) as usize
        } else {
            0
        };
        let n = if 2 + 6 * n <= bytes.len() { n } else { 0 };
        Record { bytes, n }
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when the record has no members.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    pub(crate) fn id(&self, i: usize) -> u16 {
        u16_at(self.bytes, 2 + 2 * i)
    }

    pub(crate) fn range(&self, i: usize) -> Option<Range<usize>> {
        let base = 2 + 6 * self.n;
        let end = |j: usize| u32_at(self.bytes, 2 + 2 * self.n + 4 * j) as usize;
        let start = if i == 0 { 0 } else { end(i - 1) };
        let stop = end(i);
        if start > stop || base + stop > self.bytes.len() {
            return None;
        }
        Some(base + start..base + stop)
    }

    pub(crate) fn find(&self, field: u16) -> Option<Range<usize>> {
        let (mut lo, mut hi) = (0, self.n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.id(mid).cmp(&field) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return self.range(mid),
            }
        }
        None
    }

    /// The JSON bytes of each member of `sorted` (field ids in increasing order) into `out`
    /// (as long; None where absent): one pass along the record's ids, sorted too, instead of a
    /// search per member (a page prints most members of every row).
    pub fn get_sorted(&self, sorted: &[u16], out: &mut [Option<&'a [u8]>]) {
        // The layout sliced once (`new` checked that it fits) and read by exact chunks, which
        // the compiler reads without a bounds check each.
        let n = self.n;
        let (ids, rest) = self.bytes.get(2..).unwrap_or_default().split_at(2 * n);
        let (ends, body) = rest.split_at(4 * n);
        let mut at = ids
            .chunks_exact(2)
            .zip(ends.chunks_exact(4))
            .map(|(i, e)| {
                (
                    u16::from_le_bytes([i[0], i[1]]),
                    u32::from_le_bytes([e[0], e[1], e[2], e[3]]) as usize,
                )
            })
            .peekable();
        // The end of the member before the one `at` is at: where its value starts.
        let mut start = 0;
        for (want, slot) in sorted.iter().zip(out.iter_mut()) {
            while let Some(&(id, end)) = at.peek() {
                if id >= *want {
                    break;
                }
                start = end;
                at.next();
            }
            *slot = match at.peek() {
                Some(&(id, end)) if id == *want => body.get(start..end),
                _ => None,
            };
        }
    }

    /// The JSON bytes of member `field`.
    pub fn get(&self, field: u16) -> Option<&'a [u8]> {
        self.find(field).map(|r| &self.bytes[r])
    }

    /// All members as (field id, JSON bytes).
    pub fn members(&self) -> impl Iterator<Item = (u16, &'a [u8])> + '_ {
        (0..self.n).filter_map(move |i| Some((self.id(i), &self.bytes[self.range(i)?])))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One pass over sorted ids finds what a search per id finds: present members, absent
    /// ones between, before and after them, and nothing from a corrupt record.
    #[test]
    fn test_get_sorted_agrees_with_get() {
        let mut b = RecordBuf::new();
        for (id, v) in [(2u16, "1"), (5, "\"a\""), (9, "[]"), (12, "null")] {
            b.set(id, v.as_bytes().to_vec());
        }
        let enc = b.encode();
        let r = Record::new(&enc);
        let wanted = [0u16, 2, 3, 5, 9, 11, 12, 40];
        let mut out = [None; 8];
        r.get_sorted(&wanted, &mut out);
        let each: Vec<_> = wanted.iter().map(|&id| r.get(id)).collect();
        assert_eq!(out.to_vec(), each);
        assert_eq!(out[1], Some(&b"1"[..]));
        assert_eq!(out[0], None);
        let mut none = [Some(&b"x"[..]); 3];
        Record::new(&enc[..5]).get_sorted(&[2, 5, 9], &mut none);
        assert_eq!(none, [None, None, None]);
        for short in [&[][..], &[1][..], &[1, 0][..]] {
            let mut none = [Some(&b"x"[..]); 2];
            Record::new(short).get_sorted(&[0, 1], &mut none);
            assert_eq!(none, [None, None]);
        }
        // Ends out of order, or past the body: those members are missing, as `get` says.
        let mut bad = enc.clone();
        let ends = 2 + 2 * 4;
        bad[ends + 4..ends + 8].copy_from_slice(&0u32.to_le_bytes());
        bad[ends + 12..ends + 16].copy_from_slice(&9999u32.to_le_bytes());
        let r = Record::new(&bad);
        r.get_sorted(&wanted, &mut out);
        let each: Vec<_> = wanted.iter().map(|&id| r.get(id)).collect();
        assert_eq!(out.to_vec(), each);
        assert_eq!((out[3], out[6]), (None, None));
    }
}
