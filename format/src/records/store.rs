//! Reading a record store: ordinal to block to record, through a small per-thread cache of
//! decoded blocks and records.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use zstd::zstd_safe::{self, DCtx, DDict};

use crate::arrays::U64s;
use crate::bytes::{u32_at, u64_at, Bytes};
use crate::codebook::Codebook;
use crate::error::ReadError;
use crate::readahead::Readahead;
use crate::width::Width;

use super::{
    Codec, Member, StoredRecord, MAX_PER_BLOCK, MAX_RAW, MAX_RECORDS, SLOTS_SHIFT, TAG, TRAILER,
};

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
    /// Which chunks of `blob` have been read ahead (shared by the clones of this view).
    readahead: Arc<Readahead>,
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
            offsets,
            n: n as usize,
            per_block: per_block as usize,
            max_raw: max_raw as usize,
            dict,
            codec,
            codebook: Arc::new(codebook),
            slots,
            readahead: Arc::new(Readahead::new(blob.len())),
            blob,
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
            readahead: Arc::new(Readahead::new(0)),
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
    /// stored position of `ords`, widened to whole chunks, and only chunks not read ahead
    /// before are asked for (a warm catalog costs no system call).
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
            self.readahead.will_need(&self.blob, s as usize..e as usize);
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

    /// Decodes record `i` whole into a block the thread's cache recycles (an evicted record's,
    /// buffer and shared count alike), shares it as it is (no copy) and keeps it in the cache.
    fn decode_whole(&self, c: &mut BlockCache, i: usize) -> Option<StoredRecord> {
        let mut block = c
            .spare
            .take()
            .unwrap_or_else(|| Arc::new(std::mem::take(&mut c.scratch)));
        let buf = Arc::get_mut(&mut block).expect("a spare block is not shared");
        if self
            .with_encoded(c, i, |enc| self.codebook.decode_into(enc, buf))
            .is_none()
        {
            c.spare = Some(block);
            return None;
        }
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

    /// The number member `name` of object member `field` of record `ord` (None when absent,
    /// null or not a number): from the thread's decoded record when it holds it, else
    /// [`Codebook::inner_number`] of the encoded one (a predicate tests one number of every
    /// record of a range).
    pub fn inner_number(&self, ord: u64, field: u16, name: &str) -> Option<f64> {
        self.read(
            ord,
            |r| crate::json_scan::number(crate::json_scan::member(r.get(field)?, name.as_bytes())?),
            |c, i| {
                let mut scratch = std::mem::take(&mut c.scratch);
                let got = self.with_encoded(c, i, |enc| {
                    self.codebook
                        .inner_number(enc, field, name.as_bytes(), &mut scratch)
                });
                scratch.clear();
                c.scratch = scratch;
                got
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
    /// The buffer single members are decoded into.
    scratch: Vec<u8>,
    /// The block the next record is decoded into whole: an evicted record's, when nobody
    /// else held it (its allocation and its buffer's are reused, not freed and made again).
    spare: Option<Arc<Vec<u8>>>,
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
            spare: None,
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
        if let Some(mut old) = self.records[i].take() {
            self.record_bytes -= old.2.capacity();
            // The evicted record's block, when nobody holds it, is the next decode's.
            if Arc::get_mut(&mut old.2).is_some() {
                self.spare = Some(old.2);
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

/// A thread's decode caches (decompressed blocks, zstd contexts, decoded records: up to about
/// 5 MiB once warm), detached from the thread. Reads use the calling thread's caches; a server
/// that answers on many threads (one per connection) but computes on few at once hands a few
/// of these from thread to thread ([`DecodeCache::install`]), so their memory is bounded by
/// the answers computed at once, not by the connections, and they stay warm whichever
/// connection's thread computes next.
pub struct DecodeCache(BlockCache);

impl DecodeCache {
    /// Empty caches (no allocation until used).
    pub const fn new() -> DecodeCache {
        DecodeCache(BlockCache::new())
    }

    /// Makes `self` the calling thread's caches and returns the ones it had. Not to be called
    /// from within a read (the reads hold the thread's caches while they run).
    pub fn install(self) -> DecodeCache {
        CACHE.with(|c| DecodeCache(std::mem::replace(&mut *c.borrow_mut(), self.0)))
    }
}

impl Default for DecodeCache {
    fn default() -> DecodeCache {
        DecodeCache::new()
    }
}

/// The widest span [`RecordStore::prefetch`] reads ahead: records further apart are read as they
/// are touched (reading the gap between them would cost more than it saves).
const PREFETCH_SPAN: u64 = 256 << 10;

#[cfg(test)]
mod tests {
    use super::*;

    /// An evicted record's block is the next decode's when nobody holds it, and is left to
    /// its holder otherwise.
    #[test]
    fn test_an_evicted_record_block_is_reused_only_when_unshared() {
        let mut c = BlockCache::new();
        let a = Arc::new(vec![1u8; 16]);
        let at = Arc::as_ptr(&a);
        c.keep_record(1, 0, a);
        // Ordinal RECORD_SLOTS takes the same slot as 0 in the same store.
        c.keep_record(1, RECORD_SLOTS, Arc::new(vec![2u8; 16]));
        assert!(c.spare.as_ref().is_some_and(|s| Arc::as_ptr(s) == at));
        c.spare = None;
        let held = c.record(1, RECORD_SLOTS).expect("kept");
        c.keep_record(1, 0, Arc::new(vec![3u8; 16]));
        assert!(c.spare.is_none(), "a block a reader holds is not reused");
        assert_eq!(held.block[0], 2);
    }

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

    /// Caches installed on a thread are the ones its reads find, and they leave it whole: what
    /// one thread kept, another finds once the caches are installed there.
    #[test]
    fn test_decode_caches_move_between_threads_with_what_they_hold() {
        let mut filled = BlockCache::new();
        filled.keep_record(7, 3, Arc::new(b"{}".to_vec()));
        let mine = DecodeCache(filled).install();
        let found = |store, ord| CACHE.with(|c| c.borrow_mut().record(store, ord).is_some());
        assert!(found(7, 3));
        let detached = DecodeCache::new().install();
        assert!(
            !found(7, 3),
            "the thread's caches went with the detached ones"
        );
        std::thread::spawn(move || {
            drop(detached.install());
            assert!(found(7, 3), "installed on another thread");
        })
        .join()
        .unwrap();
        drop(mine.install());
    }
}
