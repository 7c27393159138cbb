//! The record store: ordinal → the record's members, each a compact JSON value.
//!
//! A record is encoded as `n u16 · field_id u16 × n · end u32 × n · values`, fields in
//! ascending id order, `end` the end offset of each value within `values`. A server answers by
//! copying member bytes into the output shape's order; it never re-serialises a value.
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

use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::ops::{Deref, Range};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use zstd::zstd_safe::{self, DCtx, DDict};

use crate::arrays::U64s;
use crate::bytes::{u32_at, u64_at, Bytes};
use crate::codebook::{Chooser, Codebook};
use crate::error::{ReadError, WriteError};
use crate::record::Record;
use crate::spool::Spool;
use crate::width::Width;

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

/// Dictionary size (dictionaries of 16–112 KiB compress within 5 % of each other, measured).
const DICT_SIZE: usize = 64 << 10;
/// The training sample is kept between half and all of this many bytes (every k-th record,
/// k doubling as the collection grows), so it is bounded whatever the collection's size.
const SAMPLE_BYTES: usize = 1 << 20;
/// The first records, kept consecutive, on which the block size is tried.
const TRIAL_BYTES: usize = 256 << 10;
/// A dictionary is trained only when it is at most this fraction of the records (smaller
/// collections compress without one: the dictionary would cost more than it saves).
const DICT_SHARE: u64 = 32;
/// The smallest dictionary worth training.
const MIN_DICT: usize = 4 << 10;
/// Most records a store holds: ordinals stay below 2⁶³ (the FST inline bit, see
/// [`crate::width::Width::max_ordinal`]).
pub const MAX_RECORDS: u64 = (1 << 63) - 1;

/// Blocks never hold more than this many records (keeps `max_raw` and a block's decode
/// bounded for tiny records).
const MAX_PER_BLOCK: u32 = 4096;
/// Readers refuse blocks larger than this decompressed (a corrupt `max_raw`).
const MAX_RAW: u32 = 256 << 20;

/// Streams records in ordinal order. Its memory does not grow with the collection: the
/// sample (≤ 1 MiB), the trial (≤ 256 KiB), the chooser's chunks in flight (≤ 66 × 64 KiB),
/// at finish two batches of blocks per thread (≈ 256 KiB of records each, and what they
/// encode and compress to) and a zstd context per thread (≈ 1–2 MiB at level 3); the records
/// themselves wait in a spool.
pub struct RecordWriter<W: Write> {
    out: W,
    raw: Spool,
    offsets: Spool,
    opts: BlockOptions,
    n: u64,
    raw_bytes: u64,
    /// Every `every`-th record with its ordinal.
    sample: Vec<(u64, Vec<u8>)>,
    sample_bytes: usize,
    every: u64,
    trial: Vec<Vec<u8>>,
    trial_bytes: usize,
    /// Sees every record: the codebook is chosen from all of them.
    chooser: Choosing,
    /// Key maps of the collections whose handles may be stored with or as their ordinals
    /// (`link`, `ref` members), and which of the two.
    refs: std::collections::HashMap<String, crate::keylookup::KeyLookup>,
    handles: crate::schema::Handles,
}

impl<W: Write> RecordWriter<W> {
    /// Starts a store written to `out`, spooling the raw records to `raw` and the block
    /// offsets to `offsets`.
    pub fn new(out: W, raw: Spool, offsets: Spool) -> RecordWriter<W> {
        RecordWriter::with_options(out, raw, offsets, BlockOptions::default())
    }

    /// Like [`RecordWriter::new`] with explicit options.
    pub fn with_options(out: W, raw: Spool, offsets: Spool, opts: BlockOptions) -> RecordWriter<W> {
        RecordWriter {
            out,
            raw,
            offsets,
            opts,
            n: 0,
            raw_bytes: 0,
            sample: Vec::new(),
            sample_bytes: 0,
            every: 1,
            trial: Vec::new(),
            trial_bytes: 0,
            chooser: Choosing::new(opts.threads),
            refs: Default::default(),
            handles: crate::schema::Handles::Text,
        }
    }

    /// Lets members whose values are all handles of one of `refs`' collections be stored as
    /// `handles` says (for `Ordinals`, each collection's records in key order).
    pub fn with_refs(
        mut self,
        refs: std::collections::HashMap<String, crate::keylookup::KeyLookup>,
        handles: crate::schema::Handles,
    ) -> RecordWriter<W> {
        self.refs = refs;
        self.handles = handles;
        self
    }

    /// Appends the next record's encoded bytes; returns its ordinal.
    pub fn push(&mut self, encoded: &[u8]) -> Result<u64, WriteError> {
        let ord = self.note(encoded)?;
        self.raw.write_all(&(encoded.len() as u32).to_le_bytes())?;
        self.raw.write_all(encoded)?;
        Ok(ord)
    }

    /// Counts the next record's encoded bytes (the codebook, dictionary and block size are
    /// chosen from every record noted) without keeping them: a clustered store's records
    /// come back in stored order at [`RecordWriter::finish_clustered`]. Returns its ordinal.
    pub fn note(&mut self, encoded: &[u8]) -> Result<u64, WriteError> {
        let ord = self.n;
        if ord >= MAX_RECORDS {
            return Err(WriteError::Invalid(
                "a collection holds more than 2^63-1 documents".into(),
            ));
        }
        if u32::try_from(encoded.len()).is_err() {
            return Err(WriteError::Invalid("a record over 4 GiB".into()));
        }
        self.raw_bytes += encoded.len() as u64;
        self.chooser.add(encoded);
        if self.trial_bytes < TRIAL_BYTES {
            self.trial_bytes += encoded.len();
            self.trial.push(encoded.to_vec());
        }
        if self.n.is_multiple_of(self.every) {
            self.sample_bytes += encoded.len();
            self.sample.push((self.n, encoded.to_vec()));
            if self.sample_bytes > SAMPLE_BYTES {
                // Halve the sample: keep every (2k)-th record.
                self.every *= 2;
                let every = self.every;
                self.sample.retain(|(o, _)| o.is_multiple_of(every));
                self.sample_bytes = self.sample.iter().map(|s| s.1.len()).sum();
            }
        }
        self.n += 1;
        Ok(ord)
    }

    /// Number of records written.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// True when nothing was written.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Trains the dictionary (empty: none) on the sample.
    fn dictionary(&self) -> Vec<u8> {
        let cap = (self.raw_bytes / DICT_SHARE).min(DICT_SIZE as u64) as usize;
        if cap < MIN_DICT || self.sample.len() < 8 {
            return Vec::new();
        }
        let samples: Vec<&[u8]> = self.sample.iter().map(|s| s.1.as_slice()).collect();
        // libzstd's default trainer (fastCover, d = 8, 4 steps over k, one thread) is
        // deterministic: the same sample gives the same dictionary. Training can fail on a
        // degenerate sample; the collection then goes without.
        zstd::dict::from_samples(&samples, cap).unwrap_or_default()
    }

    /// Records per block from the trial records: for a raw target, their mean size; for a
    /// compressed one, compressed in blocks of a first guess, then of the size that guess
    /// suggests, the second estimate.
    fn per_block(&self, comp: &mut zstd::bulk::Compressor<'_>) -> Result<u32, WriteError> {
        if let Some(r) = self.opts.per_block {
            return Ok(r.clamp(1, MAX_PER_BLOCK));
        }
        if self.trial.is_empty() {
            return Ok(1);
        }
        let target = match self.opts.target {
            BlockTarget::Raw(bytes) => {
                // The block's `end` entry counts with each record.
                let per_record = (4 + self.trial_bytes / self.trial.len()).max(1);
                return Ok(((bytes / per_record) as u32).clamp(1, MAX_PER_BLOCK));
            }
            BlockTarget::Compressed(bytes) => bytes,
        };
        let mut r = 16u32;
        for _ in 0..2 {
            let mut compressed = 0usize;
            let mut records = 0usize;
            for chunk in self.trial.chunks(r as usize) {
                if chunk.len() < r as usize && records > 0 {
                    break; // a short tail would skew the estimate
                }
                compressed += comp.compress(&block_bytes(chunk))?.len();
                records += chunk.len();
            }
            let per_record = compressed.div_ceil(records.max(1)).max(1);
            r = ((target / per_record) as u32).clamp(1, MAX_PER_BLOCK);
        }
        Ok(r)
    }

    /// Encodes the spooled records with the codebook chosen from them, into blocks (zstd
    /// frames or as they are), appends offsets and trailer.
    pub fn finish(self) -> Result<Finished<W>, WriteError> {
        self.finish_from(None)
    }

    /// Like [`RecordWriter::finish`] for records [`noted`](RecordWriter::note) rather than
    /// pushed: `order` hands them back in stored order, then each ordinal's position in it,
    /// stored as a slots table of `width` (FORMAT.md "Records", clustered stores).
    pub fn finish_clustered(
        self,
        order: &mut dyn StoredOrder,
        width: Width,
    ) -> Result<Finished<W>, WriteError> {
        self.finish_from(Some((order, width)))
    }

    fn finish_from(
        mut self,
        mut clustered: Option<(&mut dyn StoredOrder, Width)>,
    ) -> Result<Finished<W>, WriteError> {
        let chooser = std::mem::replace(&mut self.chooser, Choosing::Here(Chooser::new()));
        let mut codebook = chooser
            .finish()
            .codebook_with_refs(&|t| Some((self.refs.get(t)?.clone(), self.handles)));
        let v2_trial = self.trial_bytes.max(1);
        for t in &mut self.trial {
            *t = encode(&codebook, t)?.0;
        }
        for s in &mut self.sample {
            s.1 = encode(&codebook, &s.1)?.0;
        }
        self.trial_bytes = self.trial.iter().map(Vec::len).sum();
        // The dictionary's cap scales with the encoded size, estimated from the trial.
        self.raw_bytes = (self.raw_bytes as u128 * self.trial_bytes as u128 / v2_trial as u128)
            .try_into()
            .unwrap_or(u64::MAX);
        // A collection the size rule (or the schema) keeps uncompressed trains no dictionary
        // and compresses no trial: most collections, and at 1M a tenth of the build's CPU.
        let uncompressed = match self.opts.codec {
            Some(c) => c == Codec::None,
            None => self.raw_bytes <= self.opts.zstd_above,
        };
        let dict = if uncompressed {
            Vec::new()
        } else {
            self.dictionary()
        };
        // The trial's compressor; the blocks get one per thread.
        let mut trial = zstd::bulk::Compressor::with_dictionary(self.opts.level, &dict)?;
        let single = self.opts.single_when_compressed && !uncompressed;
        let mut per_block = if single {
            1
        } else {
            self.per_block(&mut trial)?
        };
        let codec = match self.opts.codec {
            Some(c) => c,
            None if uncompressed => Codec::None,
            None => {
                let (mut raw, mut compressed) = (0, 0);
                for chunk in self.trial.chunks(per_block as usize) {
                    let b = block_bytes(chunk);
                    raw += b.len();
                    compressed += trial.compress(&b)?.len();
                }
                Codec::choose(
                    self.raw_bytes,
                    self.opts.zstd_above,
                    raw,
                    compressed,
                    self.opts.zstd_worth,
                )
            }
        };
        if single && codec == Codec::None {
            per_block = self.per_block(&mut trial)?;
        }
        let dict = if codec == Codec::Zstd {
            dict
        } else {
            Vec::new()
        };
        self.trial = Vec::new();
        self.sample = Vec::new();
        drop(trial);
        let (level, threads, n) = (self.opts.level, self.opts.threads, self.n);
        let mut source = match clustered.as_mut() {
            None => Replay::Spool(self.raw.reader()?),
            Some((order, _)) => Replay::Stored(&mut **order),
        };
        let mut out = Stored::default();
        let mut stored = 0u64;
        crate::parallel::map_ordered_with(
            threads,
            BATCHES_PER_THREAD,
            || zstd::bulk::Compressor::with_dictionary(level, &dict),
            || {
                let batch = source.batch(per_block as usize)?;
                stored += batch.as_ref().map_or(0, |b| b.records() as u64);
                Ok(batch)
            },
            |comp: &mut io::Result<zstd::bulk::Compressor<'static>>, batch: Batch| {
                batch.store(&codebook, codec, comp)
            },
            |blocks| out.append(blocks?, &mut self.out, &mut self.offsets),
        )?;
        drop(source);
        if stored != n {
            return Err(WriteError::Invalid(format!(
                "{stored} records replayed of {n} written"
            )));
        }
        let Stored {
            pos,
            max_raw,
            escapes,
        } = out;
        codebook.escapes = escapes;
        self.offsets.write_all(&pos.to_le_bytes())?;
        self.offsets.copy_into(&mut self.out)?;
        let mut slots = 0u32;
        if let Some((order, width)) = clustered {
            slots = width.bytes() as u32;
            let (n, out) = (self.n, &mut self.out);
            if n > width.max_ordinal().saturating_add(1) {
                return Err(WriteError::Invalid(format!(
                    "{n} clustered records for {slots}-byte slots"
                )));
            }
            let mut written = 0u64;
            order.positions(&mut |p| {
                if p >= n || written >= n {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "a clustered record's position out of range",
                    ));
                }
                written += 1;
                match width {
                    Width::Narrow => out.write_all(&(p as u32).to_le_bytes()),
                    Width::Wide => out.write_all(&p.to_le_bytes()),
                }
            })?;
            if written != n {
                return Err(WriteError::Invalid(format!(
                    "clustered records: {written} positions for {n} records"
                )));
            }
        }
        for v in [self.n, pos] {
            self.out.write_all(&v.to_le_bytes())?;
        }
        self.out.write_all(&per_block.to_le_bytes())?;
        self.out.write_all(&max_raw.to_le_bytes())?;
        self.out.write_all(&TAG)?;
        self.out
            .write_all(&(codec as u32 | slots << SLOTS_SHIFT).to_le_bytes())?;
        Ok(Finished {
            out: self.out,
            dict,
            codebook: codebook.to_bytes(),
            escapes,
            codec,
        })
    }
}

/// A clustered store's records in stored order (FORMAT.md "Records"): records of one node
/// together, so that a request reading a node's edges reads a few neighbouring blocks.
pub trait StoredOrder {
    /// The next record in stored order (None after the last).
    fn next_record(&mut self) -> io::Result<Option<Vec<u8>>>;
    /// After the last record: calls `each` with every ordinal's position in stored order, in
    /// ordinal order.
    fn positions(&mut self, each: &mut dyn FnMut(u64) -> io::Result<()>) -> io::Result<()>;
}

/// Where the trailer's last word keeps the slots' width (0: records in ordinal order).
const SLOTS_SHIFT: u32 = 8;

/// What [`RecordWriter::finish`] hands back: the section's writer and its sibling sections.
pub struct Finished<W> {
    /// The records section's output.
    pub out: W,
    /// The zstd dictionary ([`dict_section`]; empty: none).
    pub dict: Vec<u8>,
    /// The codebook ([`crate::codebook::section`]).
    pub codebook: Vec<u8>,
    /// Members stored verbatim (escapes) in the whole collection.
    pub escapes: u64,
    /// The blocks' codec.
    pub codec: Codec,
}

/// Encodes one v2 record with `codebook`.
fn encode(codebook: &Codebook, rec: &[u8]) -> io::Result<(Vec<u8>, u64)> {
    codebook.encode(rec).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "a record the codebook does not cover",
        )
    })
}

/// A block's decompressed bytes: `end u32 × m · records`.
fn block_bytes<R: AsRef<[u8]>>(records: &[R]) -> Vec<u8> {
    let body: usize = records.iter().map(|r| r.as_ref().len()).sum();
    let mut b = Vec::with_capacity(4 * records.len() + body);
    let mut end = 0u32;
    for r in records {
        end += r.as_ref().len() as u32;
        b.extend_from_slice(&end.to_le_bytes());
    }
    for r in records {
        b.extend_from_slice(r.as_ref());
    }
    b
}

/// Where the codebook's statistics are gathered: here, or on a thread of their own, which
/// takes them off the thread that writes the records (at 10M, two thirds of its work while a
/// large collection's records are written).
enum Choosing {
    Here(Chooser),
    Away {
        /// Records not yet sent, as `len u32 · record` frames.
        chunk: Vec<u8>,
        thread: crate::parallel::Background<Vec<u8>, Chooser>,
    },
}

/// Bytes of records the chooser's thread receives at a time.
const CHOOSER_CHUNK: usize = 64 << 10;
/// Chunks waiting for the chooser's thread: a batch of the indexer's records pass (up to
/// 4 MiB) is pushed in one burst, and with 4 the pass's main thread spent 57 % of `variants`'
/// records pass (1M) blocked on this queue while the workers it feeds waited for batches.
const CHOOSER_DEPTH: usize = 64;

impl Choosing {
    fn new(threads: usize) -> Choosing {
        if threads <= 1 {
            return Choosing::Here(Chooser::new());
        }
        Choosing::Away {
            chunk: Vec::with_capacity(CHOOSER_CHUNK),
            thread: crate::parallel::Background::with_depth(
                1,
                CHOOSER_DEPTH,
                |chunks: crate::parallel::Items<Vec<u8>>| {
                    let mut c = Chooser::new();
                    for chunk in chunks {
                        let mut rest: &[u8] = &chunk;
                        while rest.len() >= 4 {
                            let end = 4 + u32_at(rest, 0) as usize;
                            c.add(&rest[4..end]);
                            rest = &rest[end..];
                        }
                    }
                    c
                },
            ),
        }
    }

    fn add(&mut self, rec: &[u8]) {
        match self {
            Choosing::Here(c) => c.add(rec),
            Choosing::Away { chunk, thread } => {
                // Sent before it would grow (a copy of the whole chunk).
                if !chunk.is_empty() && chunk.len() + 4 + rec.len() > chunk.capacity() {
                    let full = std::mem::replace(chunk, Vec::with_capacity(CHOOSER_CHUNK));
                    thread.push(full);
                }
                chunk.extend_from_slice(&(rec.len() as u32).to_le_bytes());
                chunk.extend_from_slice(rec);
            }
        }
    }

    /// The statistics of every record added.
    fn finish(self) -> Chooser {
        match self {
            Choosing::Here(c) => c,
            Choosing::Away { chunk, mut thread } => {
                thread.push(chunk);
                thread.finish()
            }
        }
    }
}

/// Where a store's records come back from for their blocks: the spool of `len u32 · record`
/// frames, or a clustered store's order.
enum Replay<'a> {
    Spool(Box<dyn Read + 'a>),
    Stored(&'a mut dyn StoredOrder),
}

/// Raw bytes of records per batch handed to a compressing thread: enough to keep a thread
/// busy for a while whatever the block size (one-record frames are ≈ 100 bytes), small
/// enough that the batches in flight stay a small part of the memory reserve.
const BATCH_BYTES: usize = 256 << 10;
/// Batches per compressing thread in flight.
const BATCHES_PER_THREAD: usize = 2;

impl Replay<'_> {
    /// The next record appended to `buf` (false at the end).
    fn next_into(&mut self, buf: &mut Vec<u8>) -> io::Result<bool> {
        match self {
            Replay::Spool(r) => {
                let inside = |e: io::Error| match e.kind() {
                    io::ErrorKind::UnexpectedEof => io::Error::new(
                        io::ErrorKind::InvalidData,
                        "record spool ends inside a record",
                    ),
                    _ => e,
                };
                // The end may only come between frames.
                let mut len = [0u8; 4];
                let first = loop {
                    match r.read(&mut len[..1]) {
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        other => break other?,
                    }
                };
                if first == 0 {
                    return Ok(false);
                }
                r.read_exact(&mut len[1..]).map_err(inside)?;
                let at = buf.len();
                buf.resize(at + u32::from_le_bytes(len) as usize, 0);
                r.read_exact(&mut buf[at..]).map_err(inside)?;
                Ok(true)
            }
            Replay::Stored(o) => match o.next_record()? {
                Some(rec) => {
                    buf.extend_from_slice(&rec);
                    Ok(true)
                }
                None => Ok(false),
            },
        }
    }

    /// The next blocks of `per_block` records (the last may be short), about
    /// [`BATCH_BYTES`] of them; None at the end.
    fn batch(&mut self, per_block: usize) -> io::Result<Option<Batch>> {
        let mut b = Batch::default();
        while b.bytes.len() < BATCH_BYTES {
            for _ in 0..per_block {
                if !self.next_into(&mut b.bytes)? {
                    b.end_block();
                    return Ok((!b.ends.is_empty()).then_some(b));
                }
                b.ends.push(b.bytes.len());
            }
            b.end_block();
        }
        Ok(Some(b))
    }
}

/// Consecutive blocks of v2 records, before encoding: the records' bytes end to end, where
/// each ends, and where each block's records end (indexes into `ends`).
#[derive(Default)]
struct Batch {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    blocks: Vec<usize>,
}

/// A block as stored (compressed or not), its raw size and its escapes.
type StoredBlock = (Vec<u8>, usize, u64);

impl Batch {
    fn end_block(&mut self) {
        if self.blocks.last().copied().unwrap_or(0) < self.ends.len() {
            self.blocks.push(self.ends.len());
        }
    }

    fn records(&self) -> usize {
        self.ends.len()
    }

    /// Encodes each block's records with the codebook and stores the block as `codec` says.
    fn store(
        &self,
        codebook: &Codebook,
        codec: Codec,
        comp: &mut io::Result<zstd::bulk::Compressor<'static>>,
    ) -> io::Result<Vec<StoredBlock>> {
        let mut out = Vec::with_capacity(self.blocks.len());
        let (mut first, mut enc) = (0, Vec::new());
        for &last in &self.blocks {
            let mut escapes = 0;
            enc.clear();
            for r in first..last {
                let start = if r == 0 { 0 } else { self.ends[r - 1] };
                let (e, x) = encode(codebook, &self.bytes[start..self.ends[r]])?;
                escapes += x;
                enc.push(e);
            }
            first = last;
            let raw = block_bytes(&enc);
            let len = raw.len();
            let stored = match (codec, comp.as_mut()) {
                (Codec::None, _) => raw,
                (Codec::Zstd, Ok(c)) => c.compress(&raw)?,
                (Codec::Zstd, Err(e)) => return Err(io::Error::new(e.kind(), e.to_string())),
            };
            out.push((stored, len, escapes));
        }
        Ok(out)
    }
}

/// What the stored blocks add up to: the next block's position, the largest raw block and
/// the escapes.
#[derive(Default)]
struct Stored {
    pos: u64,
    max_raw: u32,
    escapes: u64,
}

impl Stored {
    /// Writes `blocks` (in order) to `out` and their positions to `offsets`.
    fn append(
        &mut self,
        blocks: Vec<StoredBlock>,
        out: &mut impl Write,
        offsets: &mut Spool,
    ) -> io::Result<()> {
        for (frame, raw, escapes) in blocks {
            self.max_raw = self.max_raw.max(u32::try_from(raw).map_err(|_| {
                io::Error::new(io::ErrorKind::InvalidInput, "a record block over 4 GiB")
            })?);
            self.escapes += escapes;
            offsets.write_all(&self.pos.to_le_bytes())?;
            out.write_all(&frame)?;
            self.pos += frame.len() as u64;
        }
        Ok(())
    }
}

/// A read view of a record store.
#[derive(Clone)]
pub struct RecordStore {
    /// Distinguishes this store's blocks in the per-thread cache.
    id: u64,
    blob: Bytes,
    offsets: U64s,
    n: usize,
    per_block: usize,
    max_raw: usize,
    dict: Option<Arc<DDict<'static>>>,
    codec: Codec,
    codebook: Arc<Codebook>,
    /// A clustered store's slots: ordinal → position in stored order (None: the same).
    slots: Option<(Width, Bytes)>,
}

impl std::fmt::Debug for RecordStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordStore")
            .field("n", &self.n)
            .field("per_block", &self.per_block)
            .field("blocks", &(self.offsets.len().saturating_sub(1)))
            .field("dict", &self.dict.is_some())
            .field("codec", &self.codec)
            .field("clustered", &self.slots.is_some())
            .finish()
    }
}

static NEXT_STORE: AtomicU64 = AtomicU64::new(1);

impl RecordStore {
    /// Opens a section with its dictionary and codebook sections' bytes.
    pub fn open(
        bytes: Bytes,
        dict: &[u8],
        codebook: &[u8],
        section: &str,
    ) -> Result<RecordStore, ReadError> {
        let b = bytes.as_ref();
        if b.len() < TRAILER || b[b.len() - 8..b.len() - 4] != TAG {
            return Err(ReadError::invalid(section, "not a record store"));
        }
        let t = b.len() - TRAILER;
        let n = u64_at(b, t);
        let at = u64_at(b, t + 8);
        let per_block = u32_at(b, t + 16) as u64;
        let max_raw = u32_at(b, t + 20);
        let word = u32_at(b, t + 28);
        let codec = match word & ((1 << SLOTS_SHIFT) - 1) {
            0 => Codec::None,
            1 => Codec::Zstd,
            _ => return Err(ReadError::invalid(section, "unknown record codec")),
        };
        let slots_width = match word >> SLOTS_SHIFT {
            0 => None,
            4 => Some(Width::Narrow),
            8 => Some(Width::Wide),
            _ => return Err(ReadError::invalid(section, "unknown record slots width")),
        };
        let codebook = Codebook::from_bytes(codebook)
            .ok_or_else(|| ReadError::invalid(section, "malformed record codebook"))?;
        if n > MAX_RECORDS || per_block == 0 || per_block > MAX_PER_BLOCK as u64 {
            return Err(ReadError::invalid(section, "bad record or block count"));
        }
        if max_raw > MAX_RAW {
            return Err(ReadError::invalid(section, "block size out of range"));
        }
        let blocks = n.div_ceil(per_block);
        let slots_len = slots_width.map_or(Some(0), |w| n.checked_mul(w.bytes() as u64));
        let slots_at = (blocks + 1).checked_mul(8).and_then(|x| x.checked_add(at));
        let ok = slots_at.zip(slots_len).and_then(|(a, l)| a.checked_add(l)) == Some(t as u64);
        if !ok {
            return Err(ReadError::invalid(section, "offset table does not fit"));
        }
        let slots_at = slots_at.expect("checked") as usize;
        let blob = bytes.slice(0..at as usize).expect("checked");
        let offsets = U64s::new(
            bytes.slice(at as usize..slots_at).expect("checked"),
            blocks as usize + 1,
            section,
        )?;
        let slots = slots_width.map(|w| (w, bytes.slice(slots_at..t).expect("checked")));
        let dict = if dict.is_empty() || codec == Codec::None {
            None
        } else {
            let d = DDict::try_create(dict)
                .ok_or_else(|| ReadError::invalid(section, "unusable zstd dictionary"))?;
            Some(Arc::new(d))
        };
        Ok(RecordStore {
            id: NEXT_STORE.fetch_add(1, Ordering::Relaxed),
            blob,
            offsets,
            n: n as usize,
            per_block: per_block as usize,
            max_raw: max_raw as usize,
            dict,
            codec,
            codebook: Arc::new(codebook),
            slots,
        })
    }

    /// An empty store.
    pub fn empty() -> RecordStore {
        let offsets = U64s::new(Bytes::from_vec(vec![0; 8]), 1, "empty").expect("8 bytes");
        RecordStore {
            id: NEXT_STORE.fetch_add(1, Ordering::Relaxed),
            blob: Bytes::from_vec(Vec::new()),
            offsets,
            n: 0,
            per_block: 1,
            max_raw: 0,
            dict: None,
            codec: Codec::None,
            codebook: Arc::new(Codebook::default()),
            slots: None,
        }
    }

    /// The blocks' codec.
    pub fn codec(&self) -> Codec {
        self.codec
    }

    /// This store's identity among the stores open in the process.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The codebook records are encoded with.
    pub fn codebook(&self) -> &Codebook {
        &self.codebook
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Records per block.
    pub fn per_block(&self) -> usize {
        self.per_block
    }

    /// True when records are stored in an order of their own, with a slots table.
    pub fn is_clustered(&self) -> bool {
        self.slots.is_some()
    }

    /// Where record `ord` (< `n`) is stored: its ordinal, or its slot in a clustered store
    /// (None when a corrupt slot points past the records).
    fn position(&self, ord: usize) -> Option<usize> {
        let Some((w, slots)) = &self.slots else {
            return Some(ord);
        };
        let p = w.ordinal_at(slots.as_ref(), ord * w.bytes() as usize);
        usize::try_from(p).ok().filter(|&p| p < self.n)
    }

    /// Reads ahead the blocks of `ords` when they lie close together (a page of a region's
    /// variants, or of a gene's edges in a clustered store), so that a cold page costs one
    /// read rather than one per 4 KiB. The span read is that from the lowest to the highest
    /// stored position of `ords`.
    pub fn prefetch(&self, ords: &[u64]) {
        let mut stored = ords.iter().map(|&o| {
            usize::try_from(o)
                .ok()
                .filter(|&o| o < self.n)
                .and_then(|o| self.position(o))
        });
        let Some((lo, hi)) = stored.try_fold((usize::MAX, 0), |(lo, hi), p| {
            let p = p?;
            Some((lo.min(p), hi.max(p)))
        }) else {
            return;
        };
        if lo > hi {
            return;
        }
        let (lo, hi) = (lo / self.per_block, hi / self.per_block);
        let (s, e) = (self.offsets.get(lo), self.offsets.get(hi + 1));
        if s < e && e - s <= PREFETCH_SPAN && e <= self.blob.len() as u64 {
            self.blob.will_need(s as usize..e as usize);
        }
    }

    /// Decompresses block `b` (None when corrupt).
    fn decode(&self, dctx: &mut DCtx<'static>, b: usize) -> Option<Arc<[u8]>> {
        let (s, e) = (self.offsets.get(b), self.offsets.get(b + 1));
        if s > e || e > self.blob.len() as u64 {
            return None;
        }
        let frame = &self.blob.as_ref()[s as usize..e as usize];
        let size = zstd_safe::get_frame_content_size(frame).ok()??;
        if size > self.max_raw as u64 {
            return None;
        }
        // Decompress straight into the shared block (one allocation, no copy out of a Vec).
        let mut out: Arc<[u8]> = std::iter::repeat_n(0u8, size as usize).collect();
        let buf = Arc::get_mut(&mut out).expect("not shared yet");
        let got = match &self.dict {
            Some(d) => dctx.decompress_using_ddict(buf, frame, d),
            None => dctx.decompress(buf, frame),
        };
        (got.ok()? as u64 == size).then_some(out)
    }

    /// Calls `f` with the encoded bytes of record `ord` (decompressing its block through the
    /// thread's cache when the codec is zstd).
    fn with_encoded<T>(
        &self,
        c: &mut BlockCache,
        i: usize,
        f: impl FnOnce(&[u8]) -> Option<T>,
    ) -> Option<T> {
        let i = self.position(i)?;
        let (b, j) = (i / self.per_block, i % self.per_block);
        let m = (self.n - b * self.per_block).min(self.per_block);
        let held;
        let block: &[u8] = match self.codec {
            Codec::Zstd => {
                held = c.block(self, b)?;
                &held
            }
            Codec::None => {
                let (s, e) = (self.offsets.get(b), self.offsets.get(b + 1));
                if s > e || e > self.blob.len() as u64 {
                    return None;
                }
                &self.blob.as_ref()[s as usize..e as usize]
            }
        };
        if 4 * m > block.len() {
            return None;
        }
        let end = |k: usize| u32_at(block, 4 * k) as usize;
        let start = 4 * m + if j == 0 { 0 } else { end(j - 1) };
        let stop = 4 * m + end(j);
        if start > stop || stop > block.len() {
            return None;
        }
        f(&block[start..stop])
    }

    /// Reads record `ord` through the thread's cache: `hit` on the decoded record when the
    /// cache holds it, else `miss` (None if out of range or corrupt).
    fn read<T>(
        &self,
        ord: u64,
        hit: impl FnOnce(StoredRecord) -> Option<T>,
        miss: impl FnOnce(&mut BlockCache, usize) -> Option<T>,
    ) -> Option<T> {
        let i = usize::try_from(ord).ok().filter(|&i| i < self.len())?;
        CACHE.with(|c| {
            let mut c = c.borrow_mut();
            match c.record(self.id, i) {
                Some(r) => hit(r),
                None => miss(&mut c, i),
            }
        })
    }

    /// The record with ordinal `ord` (None if out of range or corrupt).
    pub fn get(&self, ord: u64) -> Option<StoredRecord> {
        self.read(ord, Some, |c, i| self.decode_whole(c, i))
    }

    /// Decodes record `i` whole into a buffer the thread's cache recycles, shares it as it is
    /// (no copy) and keeps it in the cache.
    fn decode_whole(&self, c: &mut BlockCache, i: usize) -> Option<StoredRecord> {
        let mut buf = std::mem::take(&mut c.scratch);
        let ok = self.with_encoded(c, i, |enc| self.codebook.decode_into(enc, &mut buf));
        if ok.is_none() {
            c.scratch = buf;
            return None;
        }
        let block = Arc::new(buf);
        c.keep_record(self.id, i, block.clone());
        Some(StoredRecord {
            range: 0..block.len(),
            block,
        })
    }

    /// Member `name` of object member `field` of record `ord`: from the thread's decoded
    /// record when it holds it, else decoding that one value only. `null` for a null member.
    pub fn inner(&self, ord: u64, field: u16, name: &str) -> Option<Vec<u8>> {
        self.read(
            ord,
            |r| crate::json_scan::member(r.get(field)?, name.as_bytes()).map(<[u8]>::to_vec),
            |c, i| {
                self.with_encoded(c, i, |enc| {
                    self.codebook.decode_inner(enc, field, name.as_bytes())
                })
            },
        )
    }

    /// [`Codebook::visit`] of record `ord`: the members `top` and the wanted inner members
    /// of `inner`, decoded alone in one pass. None when the record is not read so (in the
    /// thread's decoded cache, corrupt, or escaped where it matters): read it whole then.
    pub fn visit(
        &self,
        ord: u64,
        top: &[u16],
        inner: Option<(u16, &[bool])>,
        f: impl FnMut(crate::codebook::Visited<'_>),
    ) -> Option<()> {
        self.read(
            ord,
            |_| None,
            |c, i| {
                let mut scratch = std::mem::take(&mut c.scratch);
                let got = self.with_encoded(c, i, |enc| {
                    self.codebook.visit(enc, top, inner, &mut scratch, f)
                });
                c.scratch = scratch;
                got
            },
        )
    }

    /// Member `field` of record `ord` alone: from the thread's decoded record when it holds
    /// it, else decoding that member only (a request reading one member of many records, a
    /// variant's rsid say, does not print the rest of each).
    pub fn member(&self, ord: u64, field: u16) -> Option<Member> {
        self.read(
            ord,
            |r| r.member(field),
            |c, i| {
                let v = self.with_encoded(c, i, |enc| self.codebook.decode_member(enc, field))?;
                Some(Member {
                    range: 0..v.len(),
                    block: Arc::new(v),
                })
            },
        )
    }
}

/// Decoded blocks kept per thread: a page of consecutive ordinals (a region's variants, an
/// edge list in key order) decompresses its block once.
const CACHED_BLOCKS: usize = 8;

/// Decompression contexts kept per thread, one per dictionary: libzstd treats a dictionary
/// other than the context's previous one as cold (prefetches its tables and content and takes
/// the slower long-offset sequence decoder), which a page alternating between two
/// collections (a phenotype's edges and their variants) would otherwise pay on every block.
const CACHED_DCTX: usize = 4;

struct BlockCache {
    /// Most recently used first: (dictionary address, 0 for none; context).
    dctxs: Vec<(usize, DCtx<'static>)>,
    /// Most recently used first: (store id, block, bytes).
    slots: Vec<(u64, usize, Arc<[u8]>)>,
    /// Decoded records by slot ([`record_slot`]): (store id, ordinal, record). A handler
    /// reading several members of one record decodes it once, and a page that visits records
    /// again (a phenotype's term, an edge's gene) finds them here.
    records: Vec<Option<CachedRecord>>,
    /// Capacity of the buffers `records` holds (bounded by [`RECORD_BYTES`]).
    record_bytes: usize,
    /// The buffer records are decoded into before they are shared.
    scratch: Vec<u8>,
}

/// A decoded record in the thread's cache: (store id, ordinal, record).
type CachedRecord = (u64, usize, Arc<Vec<u8>>);

/// Decoded records kept per thread: slots, one record each (a power of two).
const RECORD_SLOTS: usize = 512;
/// Most bytes of decoded records kept per thread, whatever the records' sizes.
const RECORD_BYTES: usize = 4 << 20;

/// The slot of record `ord` of store `store`: consecutive ordinals take consecutive slots,
/// so a page of neighbours never evicts itself; stores are spread by a multiplicative hash.
fn record_slot(store: u64, ord: usize) -> usize {
    (ord as u64).wrapping_add(store.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize
        & (RECORD_SLOTS - 1)
}

impl BlockCache {
    const fn new() -> BlockCache {
        BlockCache {
            dctxs: Vec::new(),
            slots: Vec::new(),
            records: Vec::new(),
            record_bytes: 0,
            scratch: Vec::new(),
        }
    }

    fn record(&mut self, store: u64, ord: usize) -> Option<StoredRecord> {
        let (s, o, block) = self.records.get(record_slot(store, ord))?.as_ref()?;
        if (*s, *o) != (store, ord) {
            return None;
        }
        let block = block.clone();
        Some(StoredRecord {
            range: 0..block.len(),
            block,
        })
    }

    fn keep_record(&mut self, store: u64, ord: usize, block: Arc<Vec<u8>>) {
        if self.records.is_empty() {
            self.records.resize(RECORD_SLOTS, None);
        }
        let i = record_slot(store, ord);
        if let Some(old) = self.records[i].take() {
            self.record_bytes -= old.2.capacity();
            // The evicted record's buffer, when nobody holds it, is the next decode's.
            if let Ok(v) = Arc::try_unwrap(old.2) {
                self.scratch = v;
            }
        }
        if self.record_bytes + block.capacity() > RECORD_BYTES {
            // Over the bound: start again rather than track an order to evict in.
            self.records.iter_mut().for_each(|r| *r = None);
            self.record_bytes = 0;
        }
        self.record_bytes += block.capacity();
        self.records[i] = Some((store, ord, block));
    }

    fn block(&mut self, store: &RecordStore, b: usize) -> Option<Arc<[u8]>> {
        if let Some(i) = self.slots.iter().position(|s| s.0 == store.id && s.1 == b) {
            self.slots[..=i].rotate_right(1);
            return Some(self.slots[0].2.clone());
        }
        let key = store.dict.as_ref().map_or(0, |d| Arc::as_ptr(d) as usize);
        match self.dctxs.iter().position(|d| d.0 == key) {
            Some(i) => self.dctxs[..=i].rotate_right(1),
            None => {
                let d = DCtx::try_create()?;
                if self.dctxs.len() == CACHED_DCTX {
                    self.dctxs.pop();
                }
                self.dctxs.insert(0, (key, d));
            }
        }
        let bytes = store.decode(&mut self.dctxs[0].1, b)?;
        if self.slots.len() == CACHED_BLOCKS {
            self.slots.pop();
        }
        self.slots.insert(0, (store.id, b, bytes.clone()));
        Some(bytes)
    }
}

thread_local! {
    static CACHE: RefCell<BlockCache> = const { RefCell::new(BlockCache::new()) };
}

/// The widest span [`RecordStore::prefetch`] reads ahead: records further apart are read as they
/// are touched (reading the gap between them would cost more than it saves).
const PREFETCH_SPAN: u64 = 256 << 10;

/// Writes `v` as compact JSON bytes (the member encoding).
pub fn json_bytes(v: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(v).expect("serialising a JSON value cannot fail")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::RecordBuf;

    /// The decoded-record cache finds what it kept, tells stores and ordinals apart, and
    /// holds at most `RECORD_BYTES` however large the records.
    #[test]
    fn test_record_cache_is_bounded_and_keyed_by_store_and_ordinal() {
        let mut c = BlockCache::new();
        for ord in 0..RECORD_SLOTS {
            c.keep_record(1, ord, Arc::new(vec![ord as u8; 16]));
        }
        for ord in 0..RECORD_SLOTS {
            let r = c.record(1, ord).expect("a page of neighbours stays whole");
            assert_eq!(r.block[0], ord as u8);
            assert!(c.record(2, ord).is_none());
        }
        assert!(c.record(1, RECORD_SLOTS).is_none());
        for ord in 0..1000 {
            c.keep_record(3, ord, Arc::new(vec![0u8; 100_000]));
            assert!(c.record_bytes <= RECORD_BYTES, "{}", c.record_bytes);
            assert!(c.record(3, ord).is_some());
        }
        let held: usize = c.records.iter().flatten().map(|r| r.2.capacity()).sum();
        assert_eq!(held, c.record_bytes);
    }

    /// The spool replays in reads of any size: frames split across reads, even inside their
    /// length prefix, give the same blocks as the whole stream in one read; a spool that ends
    /// inside a frame is refused.
    #[test]
    fn test_blocks_reassemble_split_frames() {
        /// Hands out at most `chunk` bytes per read.
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.1.min(buf.len()).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut stream = Vec::new();
        for i in 0..50usize {
            let mut rb = RecordBuf::new();
            rb.set(0, format!("\"{}\"", "x".repeat(i % 9)).into_bytes());
            let rec = rb.encode();
            stream.extend_from_slice(&(rec.len() as u32).to_le_bytes());
            stream.extend_from_slice(&rec);
        }
        let mut chooser = Chooser::new();
        for i in 0..9 {
            let mut rb = RecordBuf::new();
            rb.set(0, format!("\"{}\"", "x".repeat(i)).into_bytes());
            chooser.add(&rb.encode());
        }
        let codebook = chooser.codebook();
        let run = |bytes: &[u8], chunk: usize| -> io::Result<(Vec<u8>, Vec<u8>, usize)> {
            let (mut out, mut offsets) = (Vec::new(), Spool::memory());
            let mut comp = zstd::bulk::Compressor::new(3);
            let mut replay = Replay::Spool(Box::new(Trickle(bytes, chunk)));
            let (mut stored, mut records) = (Stored::default(), 0);
            while let Some(batch) = replay.batch(4)? {
                records += batch.records();
                let blocks = batch.store(&codebook, Codec::Zstd, &mut comp)?;
                stored.append(blocks, &mut out, &mut offsets)?;
            }
            Ok((out, offsets.to_vec()?, records))
        };
        let whole = run(&stream, stream.len()).unwrap();
        assert_eq!(whole.2, 50);
        assert_eq!(whole.1.len(), 8 * 13, "50 records in blocks of 4");
        for chunk in [1, 2, 3, 5, 7, 13] {
            assert_eq!(run(&stream, chunk).unwrap(), whole, "chunk {chunk}");
        }
        for cut in [1, 3, 5, stream.len() - 1] {
            let e = run(&stream[..cut], 7).unwrap_err();
            assert!(e.to_string().contains("ends inside a record"), "{cut}: {e}");
        }
    }
}
