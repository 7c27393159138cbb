//! The record store: ordinal → the record's members, each a compact JSON value.
//!
//! A record is encoded as `n u16 · field_id u16 × n · end u32 × n · values`, fields in
//! ascending id order, `end` the end offset of each value within `values`. A server answers by
//! copying member bytes into the output shape's order; it never re-serialises a value.
//!
//! Section layout: the records back to back, then `offsets u64 × (n + 1)` (offset of record
//! `i` is `offsets[i]`, the blob ends at `offsets[n]`), then the trailer
//! `n u64 · offsets_at u64 · tag "REC1" · 0 u32`. Offsets are streamed through a spool.

use std::io::Write;

use crate::arrays::U64s;
use crate::bytes::{u16_at, u32_at, u64_at, Bytes};
use crate::error::{ReadError, WriteError};
use crate::spool::Spool;

const TAG: [u8; 4] = *b"REC1";
const TRAILER: usize = 24;

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
    bytes: &'a [u8],
    n: usize,
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

    fn id(&self, i: usize) -> u16 {
        u16_at(self.bytes, 2 + 2 * i)
    }

    fn value(&self, i: usize) -> Option<&'a [u8]> {
        let base = 2 + 6 * self.n;
        let end = |j: usize| u32_at(self.bytes, 2 + 2 * self.n + 4 * j) as usize;
        let start = if i == 0 { 0 } else { end(i - 1) };
        let stop = end(i);
        if start > stop || base + stop > self.bytes.len() {
            return None;
        }
        Some(&self.bytes[base + start..base + stop])
    }

    /// The JSON bytes of member `field`.
    pub fn get(&self, field: u16) -> Option<&'a [u8]> {
        let (mut lo, mut hi) = (0, self.n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.id(mid).cmp(&field) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return self.value(mid),
            }
        }
        None
    }

    /// All members as (field id, JSON bytes).
    pub fn members(&self) -> impl Iterator<Item = (u16, &'a [u8])> + '_ {
        (0..self.n).filter_map(move |i| Some((self.id(i), self.value(i)?)))
    }
}

/// Streams records in ordinal order.
pub struct RecordWriter<W: Write> {
    out: W,
    offsets: Spool,
    pos: u64,
    n: u64,
}

impl<W: Write> RecordWriter<W> {
    /// Starts a store written to `out`, spooling offsets to `offsets`.
    pub fn new(out: W, offsets: Spool) -> RecordWriter<W> {
        RecordWriter {
            out,
            offsets,
            pos: 0,
            n: 0,
        }
    }

    /// Appends the next record's encoded bytes; returns its ordinal.
    pub fn push(&mut self, encoded: &[u8]) -> Result<u32, WriteError> {
        // The reader accepts at most u32::MAX - 1 records (ordinals 0..=u32::MAX - 2).
        let ord = u32::try_from(self.n).map_err(|_| {
            WriteError::Invalid("a collection holds more than 2^32-2 documents".into())
        })?;
        if ord >= u32::MAX - 1 {
            return Err(WriteError::Invalid(
                "a collection holds more than 2^32-2 documents".into(),
            ));
        }
        self.offsets.write_all(&self.pos.to_le_bytes())?;
        self.out.write_all(encoded)?;
        self.pos += encoded.len() as u64;
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

    /// Appends offsets and trailer.
    pub fn finish(mut self) -> Result<W, WriteError> {
        self.offsets.write_all(&self.pos.to_le_bytes())?;
        let offsets_at = self.pos;
        self.offsets.copy_into(&mut self.out)?;
        for v in [self.n, offsets_at] {
            self.out.write_all(&v.to_le_bytes())?;
        }
        self.out.write_all(&TAG)?;
        self.out.write_all(&0u32.to_le_bytes())?;
        Ok(self.out)
    }
}

/// A read view of a record store.
#[derive(Clone, Debug)]
pub struct RecordStore {
    blob: Bytes,
    offsets: U64s,
}

impl RecordStore {
    /// Opens a section.
    pub fn open(bytes: Bytes, section: &str) -> Result<RecordStore, ReadError> {
        let b = bytes.as_ref();
        if b.len() < TRAILER || b[b.len() - 8..b.len() - 4] != TAG {
            return Err(ReadError::invalid(section, "not a record store"));
        }
        let t = b.len() - TRAILER;
        let n = u64_at(b, t);
        let at = u64_at(b, t + 8);
        let ok = n < u32::MAX as u64
            && (n + 1).checked_mul(8).and_then(|x| x.checked_add(at)) == Some(t as u64);
        if !ok {
            return Err(ReadError::invalid(section, "offset table does not fit"));
        }
        let blob = bytes.slice(0..at as usize).expect("checked");
        let offsets = U64s::new(
            bytes.slice(at as usize..t).expect("checked"),
            n as usize + 1,
            section,
        )?;
        Ok(RecordStore { blob, offsets })
    }

    /// An empty store.
    pub fn empty() -> RecordStore {
        let offsets = U64s::new(Bytes::from_vec(vec![0; 8]), 1, "empty").expect("8 bytes");
        RecordStore {
            blob: Bytes::from_vec(Vec::new()),
            offsets,
        }
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads ahead the records of `ords` when they lie close together (a page of a region's
    /// variants, say), so that a cold page costs one read rather than one per 4 KiB.
    pub fn prefetch(&self, ords: &[u32]) {
        let (Some(&lo), Some(&hi)) = (ords.iter().min(), ords.iter().max()) else {
            return;
        };
        if hi as usize >= self.len() {
            return;
        }
        let (s, e) = (
            self.offsets.get(lo as usize),
            self.offsets.get(hi as usize + 1),
        );
        if s < e && e - s <= PREFETCH_SPAN && e <= self.blob.len() as u64 {
            self.blob.will_need(s as usize..e as usize);
        }
    }

    /// The record with ordinal `ord` (None if out of range or corrupt).
    pub fn get(&self, ord: u32) -> Option<Record<'_>> {
        let i = ord as usize;
        if i >= self.len() {
            return None;
        }
        let (s, e) = (self.offsets.get(i), self.offsets.get(i + 1));
        if s > e || e > self.blob.len() as u64 {
            return None;
        }
        Some(Record::new(&self.blob.as_ref()[s as usize..e as usize]))
    }
}

/// The widest span [`RecordStore::prefetch`] reads ahead: records further apart are read as they
/// are touched (reading the gap between them would cost more than it saves).
const PREFETCH_SPAN: u64 = 256 << 10;

/// Writes `v` as compact JSON bytes (the member encoding).
pub fn json_bytes(v: &serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(v).expect("serialising a JSON value cannot fail")
}
