//! A memory-bounded, stable external sorter of (key, payload) byte pairs.
//!
//! Items are buffered until the buffer passes its byte budget, then sorted by key (stable) and
//! spilled to a run file; the final read merges the runs, breaking ties by run index, so the
//! whole sort is stable and a build is deterministic whatever the budget.

use std::cmp::{Ordering as CmpOrdering, Reverse};
use std::collections::binary_heap::PeekMut;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static RUN_COUNTER: AtomicU64 = AtomicU64::new(0);

/// One buffered item: where its bytes are in the arena, and eight bytes of its key (after those
/// every buffered key shares) so that most comparisons never leave the index.
#[derive(Clone, Copy)]
struct Slot {
    prefix: u64,
    /// Position in the arena (grows with arrival, so it breaks ties stably).
    at: u64,
    key_len: u32,
    payload_len: u32,
}

/// Bytes one slot costs. The sort is in place (no scratch), so this is all an item adds.
const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// Keys and payloads, appended into chunks (of `chunk` bytes, or one item's size), so growing
/// never copies what is held and a spill keeps the chunks for the next run. An item never
/// straddles chunks.
#[derive(Default)]
struct Arena {
    chunks: Vec<Vec<u8>>,
    /// The chunks' total capacity (kept as they change: summing them per item was a tenth of
    /// a sorter's time with a thousand chunks).
    held: usize,
    /// The chunk being filled.
    cur: usize,
    chunk: usize,
}

impl Arena {
    /// Bytes allocated.
    fn held(&self) -> usize {
        self.held
    }

    /// Where `need` more bytes go: the chunk's index, and the capacity of a chunk to allocate
    /// there first (None: the chunk has room). Both `push` and the budget check use it.
    fn place(&self, need: usize) -> (usize, Option<usize>) {
        let room = |i: usize| {
            self.chunks
                .get(i)
                .is_some_and(|c| c.len() + need <= c.capacity())
        };
        let fresh = Some(need.max(self.chunk));
        match self.chunks.get(self.cur) {
            None => (self.cur, fresh),
            Some(_) if room(self.cur) => (self.cur, None),
            // A reused, empty chunk too small for this item is replaced.
            Some(c) if c.is_empty() => (self.cur, fresh),
            Some(_) if room(self.cur + 1) => (self.cur + 1, None),
            Some(_) => (self.cur + 1, fresh),
        }
    }

    /// Bytes allocated after appending `need` bytes.
    fn held_after(&self, need: usize) -> usize {
        match self.place(need) {
            (_, None) => self.held(),
            (i, Some(cap)) => self.held() - self.chunks.get(i).map_or(0, Vec::capacity) + cap,
        }
    }

    /// Appends `k` then `p`; returns the item's position (chunk << 32 | offset), which grows
    /// with arrival order.
    fn push(&mut self, k: &[u8], p: &[u8]) -> u64 {
        let (i, alloc) = self.place(k.len() + p.len());
        if let Some(cap) = alloc {
            let c = Vec::with_capacity(cap);
            self.held += c.capacity();
            match self.chunks.get_mut(i) {
                Some(old) => self.held -= std::mem::replace(old, c).capacity(),
                None => self.chunks.push(c),
            }
        }
        self.cur = i;
        let c = &mut self.chunks[i];
        let at = ((i as u64) << 32) | c.len() as u64;
        c.extend_from_slice(k);
        c.extend_from_slice(p);
        at
    }

    fn get(&self, at: u64, len: usize) -> &[u8] {
        let off = (at & 0xFFFF_FFFF) as usize;
        &self.chunks[(at >> 32) as usize][off..off + len]
    }

    /// Empties the arena, keeping its memory.
    fn clear(&mut self) {
        for c in &mut self.chunks {
            c.clear();
        }
        self.cur = 0;
    }
}

/// Collects items, spilling sorted runs to `dir` when over budget.
///
/// Keys and payloads live in an arena and each item costs a fixed-size slot, so what the
/// sorter holds is what the budget counts: allocated capacity, not an estimate per item.
pub struct Sorter {
    dir: PathBuf,
    budget: usize,
    arena: Arena,
    slots: Vec<Slot>,
    runs: Vec<PathBuf>,
    items: u64,
    threads: usize,
    /// Fewest slots per thread worth a thread ([`PARALLEL_SORT_MIN`]; tests lower it).
    part_min: usize,
}

/// A shared prefix shorter than this is compared as part of the keys: taking the slots'
/// prefixes again costs a pass over the buffer, and every string key shares its first byte
/// (the sort key's tag), which gains nothing.
const MIN_SKIP: usize = 4;

/// Fewer slots than this per thread are sorted on one thread (spawning would cost more).
const PARALLEL_SORT_MIN: usize = 1 << 15;

impl Sorter {
    /// A sorter spilling into `dir` when its buffers would exceed `budget` bytes.
    pub fn new(dir: &Path, budget: usize) -> Sorter {
        Sorter {
            dir: dir.to_path_buf(),
            budget: budget.max(1),
            // A sixteenth of the budget, at most 1 MiB: small budgets still hold many items.
            arena: Arena {
                chunk: (budget / 16).clamp(256, 1 << 20),
                ..Arena::default()
            },
            slots: Vec::new(),
            runs: Vec::new(),
            items: 0,
            threads: 1,
            part_min: PARALLEL_SORT_MIN,
        }
    }

    /// Sorts its buffer on up to `n` threads (the order does not depend on `n`).
    pub fn with_threads(mut self, n: usize) -> Sorter {
        self.threads = n.max(1);
        self
    }

    /// Adds an item.
    pub fn push(&mut self, key: &[u8], payload: &[u8]) -> io::Result<()> {
        let need = key.len() + payload.len();
        if !self.slots.is_empty() && !self.fits(need) {
            // An item larger than the whole budget is then held alone (the budget cannot be met).
            self.spill()?;
        }
        if self.slots.len() == self.slots.capacity() {
            let grow = self.slot_growth(need).max(1);
            self.slots.reserve_exact(grow);
        }
        let at = self.arena.push(key, payload);
        self.slots.push(Slot {
            // Taken again after a shared prefix when the buffer is sorted (see `reprefix`).
            prefix: prefix(key),
            at,
            key_len: key.len() as u32,
            payload_len: payload.len() as u32,
        });
        self.items += 1;
        Ok(())
    }

    /// Bytes the buffers hold (allocated capacity), which the budget bounds.
    pub fn held(&self) -> usize {
        self.arena.held() + self.slots.capacity() * SLOT_BYTES
    }

    /// How many slots to add when the slot table is full: double it, or as many as the budget
    /// leaves, but at least an eighth more (fewer would copy the table too often).
    fn slot_growth(&self, need: usize) -> usize {
        let cap = self.slots.capacity();
        let room = self
            .budget
            .saturating_sub(self.arena.held_after(need) + cap * SLOT_BYTES)
            / SLOT_BYTES;
        cap.max(64).min(room)
    }

    /// Whether one more item of `need` bytes fits in the budget.
    fn fits(&self, need: usize) -> bool {
        let slots = if self.slots.len() < self.slots.capacity() {
            self.slots.capacity()
        } else {
            let grow = self.slot_growth(need);
            if grow < (self.slots.capacity() / 8).max(1) {
                return false;
            }
            self.slots.capacity() + grow
        };
        self.arena.held_after(need) + slots * SLOT_BYTES <= self.budget
    }

    /// Number of items pushed.
    pub fn len(&self) -> u64 {
        self.items
    }

    /// True when nothing was pushed.
    pub fn is_empty(&self) -> bool {
        self.items == 0
    }

    /// Number of runs spilled so far (tests use it to prove spilling happened).
    pub fn spills(&self) -> usize {
        self.runs.len()
    }

    /// How the buffer is cut for sorting: parts of `size` slots, one per thread. Parts are
    /// runs of arrival, so part order breaks ties between equal keys as arrival does.
    fn part_size(&self) -> usize {
        let n = self.slots.len();
        let k = self.threads.min(n / self.part_min).max(1);
        n.div_ceil(k).max(1)
    }

    /// Sorts the buffer: by key, then by arrival (the position), which makes it stable and the
    /// order total. Parts are sorted on separate threads and returned as ranges, which
    /// [`Parts`] merges as it reads: the same order as one sort, without scratch memory.
    fn sort(&mut self) -> Parts {
        let skip = self.reprefix();
        let arena = &self.arena;
        let (n, size) = (self.slots.len(), self.part_size());
        if size >= n {
            self.slots
                .sort_unstable_by(|a, b| compare(arena, skip, a, b));
        } else {
            std::thread::scope(|sc| {
                for part in self.slots.chunks_mut(size) {
                    sc.spawn(move || part.sort_unstable_by(|a, b| compare(arena, skip, a, b)));
                }
            });
        }
        Parts::new(n, size, skip)
    }

    /// The length of the prefix every buffered key shares, with each slot's prefix taken
    /// after it: keys of one collection often share their first bytes (`variants/NC_0000…`),
    /// and comparisons that the slots' prefixes cannot decide read both keys from the arena,
    /// a cache miss each.
    fn reprefix(&mut self) -> usize {
        let arena = &self.arena;
        let key = |s: &Slot| parts(arena, s).0;
        let Some(first) = self.slots.first().map(key) else {
            return 0;
        };
        let mut skip = first.len();
        for s in &self.slots[1..] {
            let k = key(s);
            skip = first[..skip]
                .iter()
                .zip(k)
                .position(|(a, b)| a != b)
                .unwrap_or(skip.min(k.len()));
            if skip < MIN_SKIP {
                return 0;
            }
        }
        for s in &mut self.slots {
            s.prefix = prefix(&parts(arena, s).0[skip..]);
        }
        skip
    }

    /// Writes the buffer as sorted runs, one per part, each sorted and written on its own
    /// thread: the write (the kernel's copy into the page cache) took as long as the sort and
    /// ran on one core while the parsers waited. Runs are merged in part order, so this is the
    /// order of one sort.
    fn spill(&mut self) -> io::Result<()> {
        if self.slots.is_empty() {
            return Ok(());
        }
        let skip = self.reprefix();
        let size = self.part_size();
        let first = self.runs.len();
        for _ in self.slots.chunks(size) {
            let n = RUN_COUNTER.fetch_add(1, Ordering::Relaxed);
            // Listed before they exist, so that Drop removes them whatever fails.
            self.runs
                .push(self.dir.join(format!("run-{}-{n}", std::process::id())));
        }
        let (arena, paths) = (&self.arena, &self.runs[first..]);
        let write = |part: &mut [Slot], path: &Path| -> io::Result<()> {
            part.sort_unstable_by(|a, b| compare(arena, skip, a, b));
            let mut w = BufWriter::with_capacity(1 << 20, File::create(path)?);
            for s in part.iter() {
                let (k, p) = parts(arena, s);
                write_item(&mut w, k, p)?;
            }
            w.flush()
        };
        if paths.len() == 1 {
            write(&mut self.slots, &paths[0])?;
        } else {
            std::thread::scope(|sc| {
                let handles: Vec<_> = self
                    .slots
                    .chunks_mut(size)
                    .zip(paths)
                    .map(|(part, path)| sc.spawn(move || write(part, path)))
                    .collect();
                // The scope joins any thread left when one fails.
                handles
                    .into_iter()
                    .try_for_each(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            })?;
        }
        // Memory is kept: the next run fills the same chunks.
        self.slots.clear();
        self.arena.clear();
        Ok(())
    }

    /// Finishes: returns the items in key order (stable).
    pub fn finish(self) -> io::Result<Sorted> {
        self.finish_keeping(usize::MAX)
    }

    /// Finishes, keeping the buffer in memory if it holds at most `keep` bytes (merged with
    /// the runs spilled before, if any); otherwise it is spilled too and everything is merged
    /// from disk, so that what comes next can have the rest of the memory.
    pub fn finish_keeping(mut self, keep: usize) -> io::Result<Sorted> {
        let mut sources = Vec::with_capacity(self.runs.len() + 1);
        let mut held = 0;
        if self.held() > keep {
            self.spill()?;
        }
        for path in &self.runs {
            sources.push(Source::Run(BufReader::with_capacity(
                1 << 16,
                File::open(path)?,
            )));
        }
        if !self.slots.is_empty() {
            // Last: it holds the latest arrivals, and ties go to the lower source.
            held = self.held();
            let merged = self.sort();
            sources.push(Source::Memory {
                arena: std::mem::take(&mut self.arena),
                slots: std::mem::take(&mut self.slots),
                merged,
            });
        }
        let mut heap = BinaryHeap::with_capacity(sources.len());
        for (i, src) in sources.iter_mut().enumerate() {
            let (mut k, mut p) = (Vec::new(), Vec::new());
            if src.next_into(&mut k, &mut p)? {
                heap.push(Reverse((prefix(&k), k, i, p)));
            }
        }
        Ok(Sorted {
            held,
            sources,
            heap,
            runs: std::mem::take(&mut self.runs),
        })
    }
}

/// The key's first eight bytes, big-endian, zero-padded: ordering prefixes orders keys, and
/// equal prefixes fall back to the whole key.
#[allow(clippy::big_endian_bytes)] // big-endian is what makes integer order equal byte order
fn prefix(key: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let n = key.len().min(8);
    b[..n].copy_from_slice(&key[..n]);
    u64::from_be_bytes(b)
}

fn parts<'a>(arena: &'a Arena, s: &Slot) -> (&'a [u8], &'a [u8]) {
    let item = arena.get(s.at, s.key_len as usize + s.payload_len as usize);
    item.split_at(s.key_len as usize)
}

/// Sorted parts of a slot table, read in merged order: each head is (next, end) of a part.
/// There are as many parts as sorting threads, so a scan of the heads is cheap.
struct Parts {
    heads: Vec<(usize, usize)>,
    /// The bytes every key shares ([`Sorter::reprefix`]).
    skip: usize,
}

impl Parts {
    /// The parts of `n` slots cut every `size`.
    fn new(n: usize, size: usize, skip: usize) -> Parts {
        Parts {
            heads: (0..n)
                .step_by(size)
                .map(|start| (start, (start + size).min(n)))
                .collect(),
            skip,
        }
    }

    fn next<'s>(&mut self, arena: &Arena, slots: &'s [Slot]) -> Option<&'s Slot> {
        let mut best: Option<usize> = None;
        for (i, &(at, end)) in self.heads.iter().enumerate() {
            if at == end {
                continue;
            }
            best = match best {
                Some(b)
                    if compare(arena, self.skip, &slots[self.heads[b].0], &slots[at]).is_le() =>
                {
                    Some(b)
                }
                _ => Some(i),
            };
        }
        let b = best?;
        self.heads[b].0 += 1;
        Some(&slots[self.heads[b].0 - 1])
    }
}

/// Slot order: by key, then by arrival. Every key starts with the same `skip` bytes and the
/// slots' prefixes are taken after them.
fn compare(arena: &Arena, skip: usize, a: &Slot, b: &Slot) -> CmpOrdering {
    a.prefix
        .cmp(&b.prefix)
        .then_with(|| parts(arena, a).0[skip..].cmp(&parts(arena, b).0[skip..]))
        .then(a.at.cmp(&b.at))
}

impl Drop for Sorter {
    fn drop(&mut self) {
        for r in &self.runs {
            let _ = std::fs::remove_file(r);
        }
    }
}

fn write_item<W: Write>(w: &mut W, k: &[u8], p: &[u8]) -> io::Result<()> {
    w.write_all(&(k.len() as u32).to_le_bytes())?;
    w.write_all(&(p.len() as u32).to_le_bytes())?;
    w.write_all(k)?;
    w.write_all(p)
}

/// Reads the next item into `k` and `p` (their memory is reused); false at the end.
fn read_item_into<R: Read>(r: &mut R, k: &mut Vec<u8>, p: &mut Vec<u8>) -> io::Result<bool> {
    let mut len = [0u8; 8];
    match r.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(false),
        Err(e) => return Err(e),
    }
    let kl = u32::from_le_bytes(len[..4].try_into().expect("4")) as usize;
    let pl = u32::from_le_bytes(len[4..].try_into().expect("4")) as usize;
    for (buf, n) in [(k, kl), (p, pl)] {
        buf.clear();
        buf.resize(n, 0);
        r.read_exact(buf)?;
    }
    Ok(true)
}

/// A source's next item: (key prefix, key, source, payload). The prefix decides most
/// comparisons without a call to `memcmp`; equal keys go to the earlier source.
type HeapItem = Reverse<(u64, Vec<u8>, usize, Vec<u8>)>;

/// One sorted input of the final merge.
enum Source {
    /// A spilled run.
    Run(BufReader<File>),
    /// The buffer left at the end, sorted in parts.
    Memory {
        arena: Arena,
        slots: Vec<Slot>,
        merged: Parts,
    },
}

impl Source {
    /// The next item into `k` and `p` (their memory is reused); false at the end.
    fn next_into(&mut self, k: &mut Vec<u8>, p: &mut Vec<u8>) -> io::Result<bool> {
        match self {
            Source::Run(r) => read_item_into(r, k, p),
            Source::Memory {
                arena,
                slots,
                merged,
            } => Ok(merged.next(arena, slots).is_some_and(|s| {
                let (sk, sp) = parts(arena, s);
                k.clear();
                k.extend_from_slice(sk);
                p.clear();
                p.extend_from_slice(sp);
                true
            })),
        }
    }
}

/// Sorted output of a [`Sorter`]: its runs and its last buffer merged, ties going to the
/// earlier source; run files are removed when dropped.
pub struct Sorted {
    /// What the kept buffer holds until dropped (it is not freed as items are read).
    held: usize,
    sources: Vec<Source>,
    heap: BinaryHeap<HeapItem>,
    runs: Vec<PathBuf>,
}

impl Sorted {
    /// Bytes held in memory (the kept buffer; not the read buffers).
    pub fn held(&self) -> usize {
        self.held
    }

    /// The next item in order. The head's source refills the head in place, so the heap is
    /// sifted once per item (a pop and a push sift twice).
    pub fn next_item(&mut self) -> io::Result<Option<(Vec<u8>, Vec<u8>)>> {
        let (mut k, mut p) = (Vec::new(), Vec::new());
        Ok(self.next_into(&mut k, &mut p)?.then_some((k, p)))
    }

    /// The next item into `k` and `p`, whose memory the source reuses for the item after:
    /// a caller that keeps its two buffers allocates nothing per item. False at the end.
    pub fn next_into(&mut self, k: &mut Vec<u8>, p: &mut Vec<u8>) -> io::Result<bool> {
        let Some(mut head) = self.heap.peek_mut() else {
            return Ok(false);
        };
        let Reverse((pre, hk, i, hp)) = &mut *head;
        std::mem::swap(hk, k);
        std::mem::swap(hp, p);
        if self.sources[*i].next_into(hk, hp)? {
            *pre = prefix(hk);
        } else {
            PeekMut::pop(head);
        }
        Ok(true)
    }
}

impl Drop for Sorted {
    fn drop(&mut self) {
        for r in &self.runs {
            let _ = std::fs::remove_file(r);
        }
    }
}

#[cfg(test)]
#[allow(clippy::big_endian_bytes)] // test keys are big-endian so byte order is numeric order
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn drain(mut s: Sorted) -> Vec<(Vec<u8>, Vec<u8>)> {
        let mut out = Vec::new();
        while let Some(i) = s.next_item().unwrap() {
            out.push(i);
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        /// Whatever the budget, whether the last buffer is kept in memory or spilled too, and
        /// however long a prefix the keys share.
        #[test]
        fn prop_external_sort_is_a_stable_sort(items in prop::collection::vec((prop::collection::vec(0u8..4, 0..3), any::<u16>()), 0..400), budget in 64usize..4096, keep in 0usize..4096, shared in prop::collection::vec(0u8..3, 0..12)) {
            let dir = std::env::temp_dir();
            let mut s = Sorter::new(&dir, budget);
            let items: Vec<(Vec<u8>, u16)> = items.into_iter().map(|(k, v)| ([shared.clone(), k].concat(), v)).collect();
            for (i, (k, _)) in items.iter().enumerate() {
                s.push(k, &(i as u32).to_le_bytes()).unwrap();
            }
            let got = drain(s.finish_keeping(keep).unwrap());
            let mut want: Vec<(Vec<u8>, Vec<u8>)> = items.iter().enumerate().map(|(i, (k, _))| (k.clone(), (i as u32).to_le_bytes().to_vec())).collect();
            want.sort_by(|a, b| a.0.cmp(&b.0));
            prop_assert_eq!(got, want);
        }

        /// Sorting in parts on several threads (merged as read, in memory or from runs) gives
        /// exactly the order of one sort on one thread.
        #[test]
        fn prop_parallel_sort_equals_serial(items in prop::collection::vec((prop::collection::vec(0u8..4, 0..3), any::<u16>()), 0..400), budget in 64usize..8192, threads in 2usize..5, part_min in 1usize..40) {
            let run = |threads: usize| {
                let mut s = Sorter::new(&std::env::temp_dir(), budget).with_threads(threads);
                s.part_min = part_min;
                for (i, (k, _)) in items.iter().enumerate() {
                    s.push(k, &(i as u32).to_le_bytes()).unwrap();
                }
                drain(s.finish().unwrap())
            };
            prop_assert_eq!(run(threads), run(1));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn prop_held_memory_stays_within_budget(sizes in prop::collection::vec(0usize..600, 1..600), budget in 512usize..20_000) {
            let mut s = Sorter::new(&std::env::temp_dir(), budget);
            for (i, n) in sizes.iter().enumerate() {
                s.push(&(i as u32).to_be_bytes(), &vec![7u8; *n]).unwrap();
                // Only an item larger than the budget may exceed it, and then it is held alone.
                prop_assert!(s.held() <= budget || s.slots.len() == 1, "held {} > budget {}", s.held(), budget);
            }
            prop_assert_eq!(drain(s.finish().unwrap()).len(), sizes.len());
        }
    }

    #[test]
    fn test_small_budget_spills() {
        let mut s = Sorter::new(&std::env::temp_dir(), 100);
        for i in 0..100u32 {
            s.push(&(1000 - i).to_le_bytes(), &[]).unwrap();
        }
        assert!(s.spills() > 5);
        assert_eq!(drain(s.finish().unwrap()).len(), 100);
    }

    #[test]
    fn test_finish_keeping_spills_what_it_may_not_keep() {
        let fill = |s: &mut Sorter| {
            for i in 0..1000u32 {
                s.push(&(i * 7919 % 1000).to_be_bytes(), &[1, 2, 3])
                    .unwrap();
            }
        };
        let dir = std::env::temp_dir();
        let mut kept = Sorter::new(&dir, 1 << 20);
        fill(&mut kept);
        let held = kept.held();
        let kept = kept.finish_keeping(held).unwrap();
        assert_eq!(kept.held(), held);
        let mut spilled = Sorter::new(&dir, 1 << 20);
        fill(&mut spilled);
        let spilled = spilled.finish_keeping(held - 1).unwrap();
        assert_eq!(spilled.held(), 0);
        assert_eq!(drain(kept), drain(spilled));
    }
}
