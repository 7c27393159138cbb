//! Postings: sorted lists of ordinals, addressed by byte offset.
//!
//! A postings section is a blob of lists, each `count` followed by `count` values in ascending
//! order, all of the collection's ordinal width ([`Width`]: u32 or u64). Lists are found through an FST whose value is either the list's byte
//! offset, or (bit 63 set) a single inlined ordinal, so the common one-value case costs no
//! postings bytes at all.

use std::io::{self, Write};

use crate::bytes::{u32_at, u64_at, Bytes};
use crate::width::Width;

/// FST values with this bit set hold one ordinal inline.
pub const INLINE_BIT: u64 = 1 << 63;

/// Appends lists to a postings blob.
pub struct PostingsWriter<W: Write> {
    out: W,
    len: u64,
    width: Width,
}

impl<W: Write> PostingsWriter<W> {
    /// Writes narrow lists into `out`.
    pub fn new(out: W) -> PostingsWriter<W> {
        PostingsWriter::with_width(out, Width::Narrow)
    }

    /// Writes lists of `width` into `out`.
    pub fn with_width(out: W, width: Width) -> PostingsWriter<W> {
        PostingsWriter { out, len: 0, width }
    }

    /// Stores `values` (ascending, each at most the width's [`Width::max_ordinal`]) and returns
    /// the FST value that finds them.
    pub fn push(&mut self, values: &[u64]) -> io::Result<u64> {
        if values.iter().any(|&v| v > self.width.max_ordinal()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "ordinal wider than the postings' width",
            ));
        }
        self.push_iter(values.len(), values.iter().copied())
    }

    fn push_iter(
        &mut self,
        n: usize,
        values: impl Iterator<Item = u64> + Clone,
    ) -> io::Result<u64> {
        debug_assert!(
            values
                .clone()
                .zip(values.clone().skip(1))
                .all(|(a, b)| a < b),
            "postings must be strictly ascending"
        );
        if n == 1 {
            return Ok(INLINE_BIT | values.clone().next().unwrap_or(0));
        }
        let at = self.len;
        match self.width {
            Width::Narrow => {
                self.out.write_all(&(n as u32).to_le_bytes())?;
                for v in values {
                    self.out.write_all(&(v as u32).to_le_bytes())?;
                }
            }
            Width::Wide => {
                self.out.write_all(&(n as u64).to_le_bytes())?;
                for v in values {
                    self.out.write_all(&v.to_le_bytes())?;
                }
            }
        }
        let w = self.width.bytes() as u64;
        self.len += w + w * n as u64;
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
    width: Width,
}

/// One list: either a single inline value or a slice of the blob.
#[derive(Clone, Debug)]
pub enum List {
    /// One ordinal.
    One(u64),
    /// `count` ordinals starting at byte `at` of the blob.
    Many {
        /// The blob.
        bytes: Bytes,
        /// Byte offset of the first value.
        at: usize,
        /// Number of values.
        count: usize,
        /// Their width.
        width: Width,
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
    #[inline]
    pub fn get(&self, i: usize) -> u64 {
        match self {
            List::One(v) => *v,
            List::Many {
                bytes,
                at,
                width: Width::Narrow,
                ..
            } => u32_at(bytes.as_ref(), at + 4 * i) as u64,
            List::Many {
                bytes,
                at,
                width: Width::Wide,
                ..
            } => u64_at(bytes.as_ref(), at + 8 * i),
        }
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
}

impl Postings {
    /// Views a blob of narrow lists.
    pub fn new(bytes: Bytes) -> Postings {
        Postings::with_width(bytes, Width::Narrow)
    }

    /// Views a blob of lists of `width`.
    pub fn with_width(bytes: Bytes, width: Width) -> Postings {
        Postings { bytes, width }
    }

    /// An empty blob.
    pub fn empty() -> Postings {
        Postings::new(Bytes::from_vec(Vec::new()))
    }

    /// The list an FST value designates. A value pointing outside the blob (possible only in
    /// an unverified, corrupt catalog) yields an empty list instead of a panic.
    pub fn list(&self, fst_value: u64) -> List {
        if fst_value & INLINE_BIT != 0 {
            return List::One(fst_value & !INLINE_BIT);
        }
        let b = self.bytes.as_ref();
        let width = self.width;
        let w = width.bytes() as usize;
        let empty = List::Many {
            bytes: self.bytes.clone(),
            at: 0,
            count: 0,
            width,
        };
        let Ok(at) = usize::try_from(fst_value) else {
            return empty;
        };
        if at.checked_add(w).is_none_or(|e| e > b.len()) {
            return empty;
        }
        let count = match width {
            Width::Narrow => u32_at(b, at) as u64,
            Width::Wide => u64_at(b, at),
        };
        let Ok(count) = usize::try_from(count) else {
            return empty;
        };
        let fits = count
            .checked_mul(w)
            .and_then(|n| n.checked_add(at + w))
            .is_some_and(|e| e <= b.len());
        if !fits {
            return empty;
        }
        List::Many {
            bytes: self.bytes.clone(),
            at: at + w,
            count,
            width,
        }
    }
}
