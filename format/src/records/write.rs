//! Writing a record store: records spooled in ordinal order, the codebook chosen from them,
//! then blocks encoded and compressed at finish.

use std::io::{self, Read, Write};

use crate::bytes::u32_at;
use crate::codebook::{Chooser, Codebook};
use crate::error::WriteError;
use crate::spool::Spool;
use crate::width::Width;

use super::{BlockOptions, BlockTarget, Codec, MAX_PER_BLOCK, MAX_RECORDS, SLOTS_SHIFT, TAG};

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
        crate::build::parallel::map_ordered_with(
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

/// What [`RecordWriter::finish`] hands back: the section's writer and its sibling sections.
pub struct Finished<W> {
    /// The records section's output.
    pub out: W,
    /// The zstd dictionary ([`super::dict_section`]; empty: none).
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
        thread: crate::build::parallel::Background<Vec<u8>, Chooser>,
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
            thread: crate::build::parallel::Background::with_depth(
                1,
                CHOOSER_DEPTH,
                |chunks: crate::build::parallel::Items<Vec<u8>>| {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::RecordBuf;

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
