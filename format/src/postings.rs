//! Postings: sorted lists of u32 ordinals, addressed by byte offset.
//!
//! A postings section is a blob of lists, each `count u32` followed by `count` u32 values in
//! ascending order. Lists are found through an FST whose value is either the list's byte
//! offset, or (bit 63 set) a single inlined ordinal, so the common one-value case costs no
//! postings bytes at all.

use std::io::{self, Write};

use crate::bytes::{u32_at, Bytes};

/// FST values with this bit set hold one ordinal inline.
pub const INLINE_BIT: u64 = 1 << 63;

/// Appends lists to a postings blob.
pub struct PostingsWriter<W: Write> {
    out: W,
    len: u64,
}

impl<W: Write> PostingsWriter<W> {
    /// Writes into `out`.
    pub fn new(out: W) -> PostingsWriter<W> {
        PostingsWriter { out, len: 0 }
    }

    /// Stores `values` (ascending) and returns the FST value that finds them.
    pub fn push(&mut self, values: &[u32]) -> io::Result<u64> {
        debug_assert!(
            values.windows(2).all(|w| w[0] < w[1]),
            "postings must be strictly ascending"
        );
        if values.len() == 1 {
            return Ok(INLINE_BIT | values[0] as u64);
        }
        let at = self.len;
        self.out.write_all(&(values.len() as u32).to_le_bytes())?;
        for v in values {
            self.out.write_all(&v.to_le_bytes())?;
        }
        self.len += 4 + 4 * values.len() as u64;
        Ok(at)
    }

    /// Bytes written.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Returns the sink.
    pub fn into_inner(self) -> W {
        self.out
    }
}

/// A read view of a postings blob.
#[derive(Clone, Debug)]
pub struct Postings {
    bytes: Bytes,
}

/// One list: either a single inline value or a slice of the blob.
#[derive(Clone, Debug)]
pub enum List {
    /// One ordinal.
    One(u32),
    /// `count` ordinals starting at byte `at` of the blob.
    Many {
        /// The blob.
        bytes: Bytes,
        /// Byte offset of the first value.
        at: usize,
        /// Number of values.
        count: usize,
    },
}

impl List {
    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            List::One(_) => 1,
            List::Many { count, .. } => *count,
        }
    }

    /// True when empty (only a corrupt list can be).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `i` (`i < len()`).
    pub fn get(&self, i: usize) -> u32 {
        match self {
            List::One(v) => *v,
            List::Many { bytes, at, .. } => u32_at(bytes.as_ref(), at + 4 * i),
        }
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
}

impl Postings {
    /// Views a blob.
    pub fn new(bytes: Bytes) -> Postings {
        Postings { bytes }
    }

    /// An empty blob.
    pub fn empty() -> Postings {
        Postings {
            bytes: Bytes::from_vec(Vec::new()),
        }
    }

    /// The list an FST value designates. A value pointing outside the blob (possible only in
    /// an unverified, corrupt catalog) yields an empty list instead of a panic.
    pub fn list(&self, fst_value: u64) -> List {
        if fst_value & INLINE_BIT != 0 {
            return List::One(fst_value as u32);
        }
        let b = self.bytes.as_ref();
        let empty = List::Many {
            bytes: self.bytes.clone(),
            at: 0,
            count: 0,
        };
        let Ok(at) = usize::try_from(fst_value) else {
            return empty;
        };
        if at.checked_add(4).is_none_or(|e| e > b.len()) {
            return empty;
        }
        let count = u32_at(b, at) as usize;
        let fits = count
            .checked_mul(4)
            .and_then(|n| n.checked_add(at + 4))
            .is_some_and(|e| e <= b.len());
        if !fits {
            return empty;
        }
        List::Many {
            bytes: self.bytes.clone(),
            at: at + 4,
            count,
        }
    }
}
