//! Interval index: per chromosome, intervals `[start, end)` sorted by start, with an implicit
//! augmented binary tree over the sorted array so an overlap query costs O(log n + hits) even
//! when 1-bp features and megabase genes are mixed.
//!
//! The tree is implicit in the indices (as in Heng Li's cgranges): the level of index `i` is
//! its number of trailing one bits; a node `x` at level `k ≥ 1` has children `x ∓ 2^(k-1)` and
//! spans indices `x - (2^k - 1) ..= x + (2^k - 1)`. Each entry stores `max_end`, the largest end
//! in its subtree, which prunes subtrees that end before the query. Nodes at or past `n` are
//! virtual: they store nothing and the search descends into their left child only.
//!
//! Section layout: entries `start u32 · end u32 · max_end u32 · ordinal u32` (all chromosomes,
//! each sorted by (start, end, ordinal)), then the chromosome table (see [`crate::chroms`]),
//! then the trailer `entries u64 · chromosomes u64 · table_offset u64 · tag "IVL1" · 0 u32`.
//! A wide collection's (see [`Width`]) entries are `start u32 · end u32 · max_end u32 ·
//! ordinal u64` (20 bytes, unaligned) and its tag `"IVL2"`; nothing else differs.

use std::io::Write;

use crate::bytes::{u32_at, u64_at, Bytes};
use crate::chroms::{self, Chrom};
use crate::error::{ReadError, WriteError};
use crate::width::Width;

const TAG: [u8; 4] = *b"IVL1";
const TAG_WIDE: [u8; 4] = *b"IVL2";

/// Bytes per entry: three u32 and an ordinal of `width`.
fn entry(width: Width) -> usize {
    12 + width.bytes() as usize
}
const TRAILER: usize = 32;

/// Subtrees at or below this level are scanned linearly (a few cache lines).
const SCAN_LEVEL: u32 = 3;

/// Streams sorted intervals into an index section.
pub struct IntervalWriter<W: Write> {
    out: W,
    chroms: Vec<Chrom>,
    /// start, end, max_end of the current chromosome's entries.
    buf: Vec<[u32; 3]>,
    /// Their ordinals.
    ords: Vec<u64>,
    cur: Option<String>,
    total: u64,
    bytes: u64,
    width: Width,
}

impl<W: Write> IntervalWriter<W> {
    /// Starts a narrow index written to `out`.
    pub fn new(out: W) -> IntervalWriter<W> {
        IntervalWriter::with_width(out, Width::Narrow)
    }

    /// Starts an index of ordinals of `width` written to `out`.
    pub fn with_width(out: W, width: Width) -> IntervalWriter<W> {
        IntervalWriter {
            ords: Vec::new(),
            width,
            out,
            chroms: Vec::new(),
            buf: Vec::new(),
            cur: None,
            total: 0,
            bytes: 0,
        }
    }

    /// Adds the next interval; input must be sorted by (chrom, start, end, ordinal) and have
    /// `start <= end`.
    pub fn push(&mut self, chrom: &str, start: u32, end: u32, ord: u64) -> Result<(), WriteError> {
        if ord > self.width.max_ordinal() {
            return Err(WriteError::Invalid(format!(
                "interval ordinal {ord} wider than the index"
            )));
        }
        if end < start {
            return Err(WriteError::Invalid(format!(
                "interval {chrom}:{start}-{end} ends before it starts"
            )));
        }
        if self.cur.as_deref() != Some(chrom) {
            if self.cur.as_deref().is_some_and(|c| c >= chrom) {
                return Err(WriteError::Invalid(format!(
                    "intervals out of order at chromosome {chrom}"
                )));
            }
            self.flush_chrom()?;
            self.cur = Some(chrom.to_string());
        }
        if let (Some(last), Some(&last_ord)) = (self.buf.last(), self.ords.last()) {
            if (last[0], last[1], last_ord) >= (start, end, ord) {
                return Err(WriteError::Invalid(format!(
                    "intervals out of order at {chrom}:{start}"
                )));
            }
        }
        self.buf.push([start, end, 0]);
        self.ords.push(ord);
        Ok(())
    }

    fn flush_chrom(&mut self) -> Result<(), WriteError> {
        let Some(name) = self.cur.take() else {
            return Ok(());
        };
        fill_max_end(&mut self.buf);
        for (e, &ord) in self.buf.iter().zip(&self.ords) {
            for v in e {
                self.out.write_all(&v.to_le_bytes())?;
            }
            match self.width {
                Width::Narrow => self.out.write_all(&(ord as u32).to_le_bytes())?,
                Width::Wide => self.out.write_all(&ord.to_le_bytes())?,
            }
        }
        let count = self.buf.len() as u64;
        self.chroms.push(Chrom {
            name,
            first: self.total,
            count,
            aux_first: 0,
            aux_count: 0,
        });
        self.total += count;
        self.bytes += count * entry(self.width) as u64;
        self.buf.clear();
        self.ords.clear();
        Ok(())
    }

    /// Writes the chromosome table and trailer; returns the writer.
    pub fn finish(mut self) -> Result<W, WriteError> {
        self.flush_chrom()?;
        let table_offset = self.bytes;
        chroms::write_table(&mut self.out, &self.chroms)?;
        self.out.write_all(&self.total.to_le_bytes())?;
        self.out
            .write_all(&(self.chroms.len() as u64).to_le_bytes())?;
        self.out.write_all(&table_offset.to_le_bytes())?;
        self.out.write_all(match self.width {
            Width::Narrow => &TAG,
            Width::Wide => &TAG_WIDE,
        })?;
        self.out.write_all(&0u32.to_le_bytes())?;
        Ok(self.out)
    }
}

/// Height of the implicit tree over `n` entries: the largest `k` with `2^k <= n`.
fn root_level(n: usize) -> u32 {
    debug_assert!(n > 0);
    usize::BITS - 1 - n.leading_zeros()
}

/// Fills `max_end` (slot 2) of a chromosome's sorted entries.
fn fill_max_end(e: &mut [[u32; 3]]) {
    if e.is_empty() {
        return;
    }
    let k = root_level(e.len());
    subtree_max(e, (1usize << k) - 1, k);
}

/// Largest end among existing entries of the subtree at `x` (level `k`), storing it in every
/// existing node on the way; `None` when the subtree has no existing entry.
fn subtree_max(e: &mut [[u32; 3]], x: usize, k: u32) -> Option<u32> {
    let n = e.len();
    let span = (1usize << k) - 1;
    if x - span >= n {
        return None;
    }
    let mut m = if x < n { Some(e[x][1]) } else { None };
    if k > 0 {
        let half = 1usize << (k - 1);
        m = m.max(subtree_max(e, x - half, k - 1));
        m = m.max(subtree_max(e, x + half, k - 1));
    }
    if x < n {
        e[x][2] = m.unwrap_or(0);
    }
    m
}

/// A read view of an interval index section.
#[derive(Clone, Debug)]
pub struct IntervalIndex {
    bytes: Bytes,
    chroms: Vec<Chrom>,
    width: Width,
}

impl IntervalIndex {
    /// Opens and checks a narrow section.
    pub fn open(bytes: Bytes, section: &str) -> Result<IntervalIndex, ReadError> {
        IntervalIndex::open_width(bytes, section, Width::Narrow)
    }

    /// Opens and checks a section of a collection of `width` (one of the other width is
    /// refused).
    pub fn open_width(
        bytes: Bytes,
        section: &str,
        width: Width,
    ) -> Result<IntervalIndex, ReadError> {
        let b = bytes.as_ref();
        if b.len() < TRAILER {
            return Err(ReadError::truncated(format!(
                "section {section}: interval trailer"
            )));
        }
        let t = b.len() - TRAILER;
        let found = match b[t + 24..t + 28].try_into().expect("4 bytes") {
            TAG => Width::Narrow,
            TAG_WIDE => Width::Wide,
            _ => return Err(ReadError::invalid(section, "not an interval index")),
        };
        width.check(found, section)?;
        let entries = u64_at(b, t);
        let nchroms = u64_at(b, t + 8) as usize;
        let table_offset = u64_at(b, t + 16);
        let entry_bytes = entries.checked_mul(entry(width) as u64);
        if entry_bytes != Some(table_offset) || table_offset > t as u64 {
            return Err(ReadError::invalid(
                section,
                "entry count does not match table offset",
            ));
        }
        let chroms =
            chroms::read_table(&b[table_offset as usize..t], nchroms, entries, 0, section)?;
        Ok(IntervalIndex {
            bytes,
            chroms,
            width,
        })
    }

    /// Chromosomes present.
    pub fn chroms(&self) -> &[Chrom] {
        &self.chroms
    }

    /// Field `f` (0 start, 1 end, 2 max_end) of entry `i`.
    #[inline]
    fn field(&self, c: &Chrom, i: usize, f: usize) -> u32 {
        u32_at(
            self.bytes.as_ref(),
            (c.first as usize + i) * entry(self.width) + f * 4,
        )
    }

    #[inline]
    fn ord(&self, c: &Chrom, i: usize) -> u64 {
        let at = (c.first as usize + i) * entry(self.width) + 12;
        self.width.ordinal_at(self.bytes.as_ref(), at)
    }

    /// Ordinals of intervals on `chrom` overlapping `[qs, qe)` (`start < qe && end > qs`), in
    /// (start, end, ordinal) order.
    pub fn overlapping(&self, chrom: &str, qs: u32, qe: u32) -> Vec<u64> {
        let mut out = Vec::new();
        self.for_each_overlap(chrom, qs, qe, |_, _, ord| out.push(ord));
        out
    }

    /// Calls `f(start, end, ordinal)` for each interval overlapping `[qs, qe)`, in order.
    pub fn for_each_overlap(
        &self,
        chrom: &str,
        qs: u32,
        qe: u32,
        mut f: impl FnMut(u32, u32, u64),
    ) {
        let Some(c) = chroms::find(&self.chroms, chrom) else {
            return;
        };
        let n = c.count as usize;
        if n == 0 || qs >= qe {
            return;
        }
        let k = root_level(n);
        // Explicit stack of (node, level, left_done): an in-order walk, so output stays sorted.
        let mut stack: Vec<(usize, u32, bool)> = Vec::with_capacity(2 * 64);
        stack.push(((1usize << k) - 1, k, false));
        while let Some((x, k, left_done)) = stack.pop() {
            let span = (1usize << k) - 1;
            if x - span >= n {
                continue;
            }
            if k <= SCAN_LEVEL {
                let hi = (x + span).min(n - 1);
                for i in x - span..=hi {
                    let s = self.field(c, i, 0);
                    if s >= qe {
                        break;
                    }
                    if self.field(c, i, 1) > qs {
                        f(s, self.field(c, i, 1), self.ord(c, i));
                    }
                }
                continue;
            }
            let half = 1usize << (k - 1);
            if !left_done {
                if x < n && self.field(c, x, 2) <= qs {
                    continue; // nothing in this subtree ends after the query start
                }
                stack.push((x, k, true));
                stack.push((x - half, k - 1, false));
            } else if x < n {
                let s = self.field(c, x, 0);
                if s >= qe {
                    continue; // x and its right subtree start at or after the query end
                }
                let e = self.field(c, x, 1);
                if e > qs {
                    f(s, e, self.ord(c, x));
                }
                stack.push((x + half, k - 1, false));
            }
        }
    }

    /// The intervals with the smallest start `>= p` on `chrom`: (start, ordinals ascending).
    pub fn first_start_at_or_after(&self, chrom: &str, p: u32) -> Option<(u32, Vec<u64>)> {
        let c = chroms::find(&self.chroms, chrom)?;
        let n = c.count as usize;
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.field(c, mid, 0) < p {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == n {
            return None;
        }
        let best = self.field(c, lo, 0);
        let mut ords: Vec<u64> = (lo..n)
            .take_while(|&i| self.field(c, i, 0) == best)
            .map(|i| self.ord(c, i))
            .collect();
        ords.sort_unstable();
        Some((best, ords))
    }

    /// Every entry of `chrom` as (start, end, ordinal), in order.
    pub fn entries(&self, chrom: &str) -> Vec<(u32, u32, u64)> {
        let Some(c) = chroms::find(&self.chroms, chrom) else {
            return Vec::new();
        };
        (0..c.count as usize)
            .map(|i| (self.field(c, i, 0), self.field(c, i, 1), self.ord(c, i)))
            .collect()
    }
}
