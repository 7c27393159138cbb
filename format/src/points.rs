//! Point index: per chromosome, `(position, ordinal)` pairs sorted by position, with a fence
//! table so a lookup touches one small hot array and then a single 4 KiB block.
//!
//! Section layout: entries `pos u32 · ordinal u32` (all chromosomes), then fences (`pos u32` of
//! every [`FENCE`]-th entry of each chromosome, padded to 8), then the chromosome table (see
//! [`crate::chroms`]; `aux` = fences), then the trailer
//! `entries u64 · fences u64 · chromosomes u64 · fence_offset u64 · table_offset u64 · tag "PTS1" · 0 u32`.
//! A wide collection's (see [`Width`]) entries are `pos u32 · ordinal u64` (12 bytes, unaligned)
//! and its tag `"PTS2"`; nothing else differs.

use std::io::Write;

use crate::arrays::U32s;
use crate::bytes::{pad8, u32_at, u64_at, Bytes};
use crate::chroms::{self, Chrom};
use crate::error::{ReadError, WriteError};
use crate::width::Width;

const TAG: [u8; 4] = *b"PTS1";
const TAG_WIDE: [u8; 4] = *b"PTS2";

/// Bytes per entry: the position and an ordinal of `width`.
fn entry(width: Width) -> usize {
    4 + width.bytes() as usize
}
const TRAILER: usize = 48;

/// Entries per fence: 512 × 8 bytes = one 4 KiB page per block.
pub const FENCE: usize = 512;

/// Streams sorted points into a section. Fences are kept in memory (1/512 of the entries).
pub struct PointWriter<W: Write> {
    out: W,
    chroms: Vec<Chrom>,
    fences: Vec<u32>,
    cur: Option<String>,
    cur_count: u64,
    cur_fence_first: u64,
    last: Option<(u32, u64)>,
    total: u64,
    width: Width,
}

impl<W: Write> PointWriter<W> {
    /// Starts a narrow point index written to `out`.
    pub fn new(out: W) -> PointWriter<W> {
        PointWriter::with_width(out, Width::Narrow)
    }

    /// Starts a point index of ordinals of `width` written to `out`.
    pub fn with_width(out: W, width: Width) -> PointWriter<W> {
        PointWriter {
            width,
            out,
            chroms: Vec::new(),
            fences: Vec::new(),
            cur: None,
            cur_count: 0,
            cur_fence_first: 0,
            last: None,
            total: 0,
        }
    }

    /// Adds the next point; input must be sorted by (chrom, pos, ordinal), the ordinal within
    /// the index's width.
    pub fn push(&mut self, chrom: &str, pos: u32, ord: u64) -> Result<(), WriteError> {
        if ord > self.width.max_ordinal() {
            return Err(WriteError::Invalid(format!(
                "point ordinal {ord} wider than the index"
            )));
        }
        if self.cur.as_deref() != Some(chrom) {
            if self.cur.as_deref().is_some_and(|c| c >= chrom) {
                return Err(WriteError::Invalid(format!(
                    "points out of order at chromosome {chrom}"
                )));
            }
            self.end_chrom();
            self.cur = Some(chrom.to_string());
            self.last = None;
        } else if self.last.is_some_and(|l| l >= (pos, ord)) {
            return Err(WriteError::Invalid(format!(
                "points out of order at {chrom}:{pos}"
            )));
        }
        if self.cur_count.is_multiple_of(FENCE as u64) {
            self.fences.push(pos);
        }
        self.out.write_all(&pos.to_le_bytes())?;
        match self.width {
            Width::Narrow => self.out.write_all(&(ord as u32).to_le_bytes())?,
            Width::Wide => self.out.write_all(&ord.to_le_bytes())?,
        }
        self.last = Some((pos, ord));
        self.cur_count += 1;
        Ok(())
    }

    fn end_chrom(&mut self) {
        if let Some(name) = self.cur.take() {
            let aux_count = self.fences.len() as u64 - self.cur_fence_first;
            self.chroms.push(Chrom {
                name,
                first: self.total,
                count: self.cur_count,
                aux_first: self.cur_fence_first,
                aux_count,
            });
            self.total += self.cur_count;
            self.cur_fence_first = self.fences.len() as u64;
            self.cur_count = 0;
        }
    }

    /// Writes fences, table and trailer.
    pub fn finish(mut self) -> Result<W, WriteError> {
        self.end_chrom();
        let fence_offset = self.total * entry(self.width) as u64;
        for f in &self.fences {
            self.out.write_all(&f.to_le_bytes())?;
        }
        let fence_bytes = 4 * self.fences.len();
        self.out
            .write_all(&[0u8; 8][..pad8(fence_bytes) - fence_bytes])?;
        let table_offset = fence_offset + pad8(fence_bytes) as u64;
        chroms::write_table(&mut self.out, &self.chroms)?;
        for v in [
            self.total,
            self.fences.len() as u64,
            self.chroms.len() as u64,
            fence_offset,
            table_offset,
        ] {
            self.out.write_all(&v.to_le_bytes())?;
        }
        self.out.write_all(match self.width {
            Width::Narrow => &TAG,
            Width::Wide => &TAG_WIDE,
        })?;
        self.out.write_all(&0u32.to_le_bytes())?;
        Ok(self.out)
    }
}

/// A read view of a point index.
#[derive(Clone, Debug)]
pub struct PointIndex {
    bytes: Bytes,
    fences: U32s,
    chroms: Vec<Chrom>,
    width: Width,
}

impl PointIndex {
    /// Opens and checks a narrow section.
    pub fn open(bytes: Bytes, section: &str) -> Result<PointIndex, ReadError> {
        PointIndex::open_width(bytes, section, Width::Narrow)
    }

    /// Opens and checks a section of a collection of `width` (one of the other width is
    /// refused).
    pub fn open_width(bytes: Bytes, section: &str, width: Width) -> Result<PointIndex, ReadError> {
        let b = bytes.as_ref();
        if b.len() < TRAILER {
            return Err(ReadError::truncated(format!(
                "section {section}: point trailer"
            )));
        }
        let t = b.len() - TRAILER;
        let found = match b[t + 40..t + 44].try_into().expect("4 bytes") {
            TAG => Width::Narrow,
            TAG_WIDE => Width::Wide,
            _ => return Err(ReadError::invalid(section, "not a point index")),
        };
        width.check(found, section)?;
        let [entries, nfences, nchroms, fence_offset, table_offset] =
            [0, 8, 16, 24, 32].map(|o| u64_at(b, t + o));
        let ok = entries.checked_mul(entry(width) as u64) == Some(fence_offset)
            && nfences
                .checked_mul(4)
                .and_then(|n| n.checked_add(fence_offset))
                .is_some_and(|e| e <= table_offset)
            && table_offset <= t as u64;
        if !ok {
            return Err(ReadError::invalid(section, "inconsistent sizes"));
        }
        let chroms = chroms::read_table(
            &b[table_offset as usize..t],
            nchroms as usize,
            entries,
            nfences,
            section,
        )?;
        for c in &chroms {
            if c.aux_count != c.count.div_ceil(FENCE as u64) {
                return Err(ReadError::invalid(
                    section,
                    format!("fence count of {}", c.name),
                ));
            }
        }
        let fence_bytes = bytes
            .slice(fence_offset as usize..table_offset as usize)
            .expect("checked above");
        let fences = U32s::new(fence_bytes, nfences as usize, section)?;
        Ok(PointIndex {
            bytes,
            fences,
            chroms,
            width,
        })
    }

    /// Chromosomes present.
    pub fn chroms(&self) -> &[Chrom] {
        &self.chroms
    }

    #[inline]
    fn pos(&self, c: &Chrom, i: usize) -> u32 {
        u32_at(
            self.bytes.as_ref(),
            (c.first as usize + i) * entry(self.width),
        )
    }

    #[inline]
    fn ord(&self, c: &Chrom, i: usize) -> u64 {
        let at = (c.first as usize + i) * entry(self.width) + 4;
        self.width.ordinal_at(self.bytes.as_ref(), at)
    }

    /// First index (within the chromosome) whose position is `>= p`.
    fn lower_bound(&self, c: &Chrom, p: u32) -> usize {
        let n = c.count as usize;
        let f0 = c.aux_first as usize;
        let nf = c.aux_count as usize;
        // Fence j holds the position of entry j*FENCE; the answer lies in block j-1.
        let j = self.fences.partition_point_in(f0, f0 + nf, |v| v < p) - f0;
        let lo = j.saturating_sub(1) * FENCE;
        let hi = (j * FENCE).min(n);
        let (mut lo, mut hi) = (lo, hi);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.pos(c, mid) < p {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Calls `f(pos, ordinal)` for each point on `chrom` with `qs <= pos < qe`, in position order.
    pub fn for_each_in(&self, chrom: &str, qs: u32, qe: u32, mut f: impl FnMut(u32, u64)) {
        if let Some((c, span)) = self.span(chrom, qs, qe) {
            for i in span {
                f(self.pos(c, i), self.ord(c, i));
            }
        }
    }

    /// Ordinals of points on `chrom` in `[qs, qe)`, in position order.
    pub fn in_range(&self, chrom: &str, qs: u32, qe: u32) -> Vec<u64> {
        // Sized once from the span's two ends (a region of hundreds of points regrew the list
        // through as many doublings).
        self.span(chrom, qs, qe)
            .map(|(c, span)| span.map(|i| self.ord(c, i)).collect())
            .unwrap_or_default()
    }

    /// The chromosome and the positions of its points in `[qs, qe)`, both ends found by
    /// binary search (None for an unknown chromosome or an empty interval).
    fn span(&self, chrom: &str, qs: u32, qe: u32) -> Option<(&Chrom, std::ops::Range<usize>)> {
        let c = chroms::find(&self.chroms, chrom).filter(|_| qs < qe)?;
        Some((c, self.lower_bound(c, qs)..self.lower_bound(c, qe)))
    }

    /// The points with the largest position `<= p` on `chrom`: (position, ordinals ascending).
    pub fn last_at_or_below(&self, chrom: &str, p: u32) -> Option<(u32, Vec<u64>)> {
        let c = chroms::find(&self.chroms, chrom)?;
        let end = if p == u32::MAX {
            c.count as usize
        } else {
            self.lower_bound(c, p + 1)
        };
        if end == 0 {
            return None;
        }
        let best = self.pos(c, end - 1);
        let mut i = end - 1;
        while i > 0 && self.pos(c, i - 1) == best {
            i -= 1;
        }
        Some((best, (i..end).map(|j| self.ord(c, j)).collect()))
    }

    /// Number of points on `chrom` in `[qs, qe)` (two binary searches, no scan).
    pub fn count_in(&self, chrom: &str, qs: u32, qe: u32) -> usize {
        let Some(c) = chroms::find(&self.chroms, chrom) else {
            return 0;
        };
        if qs >= qe {
            return 0;
        }
        self.lower_bound(c, qe) - self.lower_bound(c, qs)
    }
}
