//! The record store: ordinal → the record's members, each a compact JSON value.
//!
//! Each record is encoded as [`crate::record`] describes.
//!
//! Records are stored in blocks of `R` consecutive records (`R` fixed per collection, chosen at
//! build so that a block compresses to about one 4 KiB page), each block one zstd frame
//! compressed with the collection's dictionary (section `<c>.zdict`, possibly empty: no
//! dictionary). A block decompresses to `end u32 × m · records`, `m` = `R` except for a short
//! last block, `end[i]` the end of record `i` within the records.
//!
//! Section layout: the frames back to back, then `offsets u64 × (blocks + 1)` (frame `b`
//! occupies `[offsets[b], offsets[b+1])`), then a clustered store's slots, then the trailer
//! `n u64 · offsets_at u64 · per_block u32 · max_raw u32 · tag "REC3" · codec u32`, `max_raw`
//! the largest decompressed block. Ordinal → block is `ord / R`: one offset read, one frame.
//! A clustered store keeps its records in an order of its own (a gene's edges together) and
//! maps ordinal → position by its slots first (FORMAT.md "Records").
//!
//! The writer spools the raw records (and keeps a bounded, deterministic sample of them) and
//! compresses at [`RecordWriter::finish`], when the dictionary can be trained on the sample: the
//! same input gives the same bytes. Readers keep a small per-thread cache of decoded blocks,
//! so a page of neighbouring ordinals pays one decompression.

mod store;
mod write;

use std::ops::{Deref, Range};
use std::sync::Arc;

use crate::record::Record;

pub use store::{DecodeCache, RecordStore};
pub use write::{Finished, RecordWriter, StoredOrder};

const TAG: [u8; 4] = *b"REC3";
const TRAILER: usize = 32;

/// The section holding collection `coll`'s zstd dictionary (raw dictionary bytes, RFC 8878
/// §5; empty when the collection is too small for one to pay).
pub fn dict_section(coll: &str) -> String {
    format!("{coll}.zdict")
}

/// A stored record: its decoded block, shared with the reading thread's block cache, and the
/// record's range in it.
#[derive(Clone, Debug)]
pub struct StoredRecord {
    block: Arc<Vec<u8>>,
    range: Range<usize>,
}

impl StoredRecord {
    /// The record's view.
    pub fn view(&self) -> Record<'_> {
        Record::new(&self.block[self.range.clone()])
    }

    /// The JSON bytes of member `field`.
    pub fn get(&self, field: u16) -> Option<&[u8]> {
        let r = self.view().find(field)?;
        Some(&self.block[self.range.start + r.start..self.range.start + r.end])
    }

    /// The JSON bytes of each member of `sorted` (field ids in increasing order) into `out`
    /// ([`Record::get_sorted`]).
    pub fn get_sorted<'s>(&'s self, sorted: &[u16], out: &mut [Option<&'s [u8]>]) {
        Record::new(&self.block[self.range.clone()]).get_sorted(sorted, out)
    }

    /// All members as (field id, JSON bytes).
    pub fn members(&self) -> impl Iterator<Item = (u16, &[u8])> + '_ {
        let v = Record::new(&self.block[self.range.clone()]);
        (0..v.n).filter_map(move |i| Some((v.id(i), &v.bytes[v.range(i)?])))
    }

    /// Member `field` as an owned handle.
    pub fn member(self, field: u16) -> Option<Member> {
        let r = self.view().find(field)?;
        let start = self.range.start;
        Some(Member {
            block: self.block,
            range: start + r.start..start + r.end,
        })
    }
}

/// The JSON bytes of one member, holding its decoded block (dereferences to the bytes).
#[derive(Clone, Debug)]
pub struct Member {
    block: Arc<Vec<u8>>,
    range: Range<usize>,
}

impl Deref for Member {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.block[self.range.clone()]
    }
}

impl AsRef<[u8]> for Member {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl PartialEq for Member {
    fn eq(&self, other: &Member) -> bool {
        **self == **other
    }
}

impl PartialEq<[u8]> for Member {
    fn eq(&self, other: &[u8]) -> bool {
        **self == *other
    }
}

impl PartialEq<&[u8]> for Member {
    fn eq(&self, other: &&[u8]) -> bool {
        **self == **other
    }
}

impl<const N: usize> PartialEq<&[u8; N]> for Member {
    fn eq(&self, other: &&[u8; N]) -> bool {
        **self == other[..]
    }
}

/// Build options of a record store.
#[derive(Clone, Copy, Debug)]
pub struct BlockOptions {
    /// zstd level of the blocks.
    pub level: i32,
    /// Records per block; `None` chooses it from a trial on the first records, aiming at
    /// `target`.
    pub per_block: Option<u32>,
    /// The block size the trial aims at.
    pub target: BlockTarget,
    /// Threads compressing blocks (the bytes do not depend on it).
    pub threads: usize,
    /// The block codec; `None` chooses it from the trial ([`Codec::choose`]).
    pub codec: Option<Codec>,
    /// zstd only for a collection whose encoded records pass this many bytes.
    pub zstd_above: u64,
    /// The share of their size zstd must take blocks below to be used ([`ZSTD_WORTH`]).
    pub zstd_worth: f64,
    /// One record per block when the blocks are zstd frames (a read of one record then
    /// decompresses that record only); blocks as `per_block` says when they are stored as
    /// they are, where a block costs nothing to read.
    pub single_when_compressed: bool,
}

/// How a record store's blocks are stored (the trailer's last word).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// Encoded records as they are: a record is read in place, no block is decompressed.
    None = 0,
    /// Each block one zstd frame with the collection's dictionary.
    Zstd = 1,
}

/// zstd is chosen only when it takes blocks of encoded records below this share of their
/// size: where the codebook has already removed most redundancy, the decompression a
/// scattered read pays per record is not worth the bytes it saves.
pub const ZSTD_WORTH: f64 = 0.5;

/// [`ZSTD_WORTH`] for a collection whose bytes matter more than its reads' decompression
/// (LD: 12 × 10⁹ rows), or whose frames hold one record each (a read decompresses that
/// record alone, not a block): zstd whenever it saves a tenth.
pub const ZSTD_WORTH_COMPACT: f64 = 0.9;

/// The default of [`BlockOptions::zstd_above`]: a collection whose encoded records fit in
/// 64 MiB stays in the page cache of any server and would save at most that much, while each
/// of its scattered reads (an ontology walk, a verbose join) would pay a block decompression.
pub const DEFAULT_ZSTD_ABOVE: u64 = 64 << 20;

impl Codec {
    /// The codec for a collection of `total` encoded record bytes whose trial blocks of
    /// `raw` encoded bytes compress to `compressed`, zstd worth it below `worth` of the size
    /// (the one rule; FORMAT.md "Records").
    pub fn choose(total: u64, zstd_above: u64, raw: usize, compressed: usize, worth: f64) -> Codec {
        if total > zstd_above && raw > 0 && (compressed as f64) <= worth * raw as f64 {
            Codec::Zstd
        } else {
            Codec::None
        }
    }
}

impl Default for BlockOptions {
    fn default() -> BlockOptions {
        BlockOptions {
            level: 3,
            per_block: None,
            threads: 1,
            target: BlockTarget::Raw(4096),
            codec: None,
            zstd_above: DEFAULT_ZSTD_ABOVE,
            single_when_compressed: false,
            zstd_worth: ZSTD_WORTH,
        }
    }
}

/// What a block's size is measured in when `R` is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockTarget {
    /// Decompressed bytes: bounds what a warm read of one record decompresses. The default:
    /// at 4 KiB a block is ≈ 5–8 µs to decode and, with the dictionary, ≈ 7 % larger than
    /// blocks of 4 KiB compressed (BENCHMARKS.md, "Format v3, step 5").
    Raw(usize),
    /// Compressed bytes: one block ≈ one page read cold, whatever the collection's
    /// compressibility; blocks hold 10–40 KiB of records, which warm reads of scattered
    /// ordinals pay for.
    Compressed(usize),
}

/// Most records a store holds: ordinals stay below 2⁶³ (the FST inline bit, see
/// [`crate::width::Width::max_ordinal`]).
pub const MAX_RECORDS: u64 = (1 << 63) - 1;

/// Where the trailer's last word keeps the slots' width (0: records in ordinal order).
const SLOTS_SHIFT: u32 = 8;

/// Blocks never hold more than this many records (keeps `max_raw` and a block's decode
/// bounded for tiny records).
const MAX_PER_BLOCK: u32 = 4096;
/// Readers refuse blocks larger than this decompressed (a corrupt `max_raw`).
const MAX_RAW: u32 = 256 << 20;

/// Writes `v` as compact JSON bytes (the member encoding).
pub fn json_bytes(v: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(v).expect("serialising a JSON value cannot fail")
}
