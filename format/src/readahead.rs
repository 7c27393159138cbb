//! Reading a mapped section ahead once: which chunks of it the kernel has already been asked
//! to read in (`MADV_WILLNEED`), so that a warm catalog costs no system call per look-up while
//! a cold one still gets one read per span instead of one fault per page.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::bytes::Bytes;

/// The unit of read-ahead: a span asked for is widened to whole chunks, each advised once per
/// mapping (a few pages: on a cold disk one read of it costs about what one page does).
pub const CHUNK: usize = 16 << 10;

/// One bit per [`CHUNK`] of a section: set once the chunk has been advised. A chunk the
/// kernel evicts later is not advised again (its pages then fault in one by one, as any
/// mapped page does); a reload maps a new file with a new bitmap.
#[derive(Debug)]
pub struct Readahead {
    bits: Box<[AtomicU64]>,
    len: usize,
}

impl Readahead {
    /// The bitmap of a section of `len` bytes, nothing advised yet.
    pub fn new(len: usize) -> Readahead {
        let chunks = len.div_ceil(CHUNK);
        Readahead {
            bits: (0..chunks.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            len,
        }
    }

    /// Marks the chunks of `range` advised and returns the span still to advise: from the
    /// first chunk not advised before to the end of the last (None when every chunk of
    /// `range` was, or `range` is empty or out of bounds).
    pub fn claim(&self, range: Range<usize>) -> Option<Range<usize>> {
        if range.start >= range.end || range.end > self.len {
            return None;
        }
        let mut span: Option<(usize, usize)> = None;
        for c in range.start / CHUNK..=(range.end - 1) / CHUNK {
            let bit = 1u64 << (c % 64);
            // Relaxed: a chunk two threads claim at once is at worst advised twice.
            if self.bits[c / 64].fetch_or(bit, Ordering::Relaxed) & bit == 0 {
                span = Some(span.map_or((c, c), |(lo, _)| (lo, c)));
            }
        }
        span.map(|(lo, hi)| lo * CHUNK..((hi + 1) * CHUNK).min(self.len))
    }

    /// Asks the kernel to read in the chunks of `range` of `bytes` (the section this bitmap
    /// was made for) not asked for before: one `madvise` at most, none when all were.
    pub fn will_need(&self, bytes: &Bytes, range: Range<usize>) {
        if let Some(span) = self.claim(range) {
            bytes.will_need(span);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_each_chunk_is_advised_once() {
        let r = Readahead::new(5 * CHUNK + 10);
        assert_eq!(r.claim(10..100), Some(0..CHUNK));
        assert_eq!(r.claim(0..CHUNK), None, "a chunk advised twice");
        // Spanning an advised chunk and a new one: only the new one.
        assert_eq!(r.claim(CHUNK - 1..CHUNK + 1), Some(CHUNK..2 * CHUNK));
        // New chunks around an advised one: one span over all of them.
        assert_eq!(r.claim(2 * CHUNK..3 * CHUNK), Some(2 * CHUNK..3 * CHUNK));
        assert_eq!(
            r.claim(CHUNK + 5..5 * CHUNK + 1),
            Some(3 * CHUNK..5 * CHUNK + 10),
            "the last chunk ends where the section does"
        );
        assert_eq!(r.claim(0..5 * CHUNK + 10), None);
    }

    #[test]
    fn test_empty_and_out_of_bounds_ranges_advise_nothing() {
        let r = Readahead::new(CHUNK);
        assert_eq!(r.claim(5..5), None);
        assert_eq!(r.claim(0..CHUNK + 1), None);
        assert_eq!(Readahead::new(0).claim(0..0), None);
        assert_eq!(
            r.claim(0..1),
            Some(0..CHUNK),
            "refused ranges marked nothing"
        );
    }
}
