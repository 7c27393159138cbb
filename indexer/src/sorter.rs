//! A memory-bounded, stable external sorter of (key, payload) byte pairs.
//!
//! Items are buffered until the buffer passes its byte budget, then sorted by key (stable) and
//! spilled to a run file; the final read merges the runs, breaking ties by run index, so the
//! whole sort is stable and a build is deterministic whatever the budget.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Per-item bookkeeping counted against the budget besides the bytes themselves.
const ITEM_OVERHEAD: usize = 56;

static RUN_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Collects items, spilling sorted runs to `dir` when over budget.
pub struct Sorter {
    dir: PathBuf,
    budget: usize,
    buf: Vec<(Vec<u8>, Vec<u8>)>,
    buf_bytes: usize,
    runs: Vec<PathBuf>,
    items: u64,
}

impl Sorter {
    /// A sorter spilling into `dir` when its buffer exceeds `budget` bytes.
    pub fn new(dir: &Path, budget: usize) -> Sorter {
        Sorter {
            dir: dir.to_path_buf(),
            budget: budget.max(1),
            buf: Vec::new(),
            buf_bytes: 0,
            runs: Vec::new(),
            items: 0,
        }
    }

    /// Adds an item.
    pub fn push(&mut self, key: Vec<u8>, payload: Vec<u8>) -> io::Result<()> {
        self.buf_bytes += key.len() + payload.len() + ITEM_OVERHEAD;
        self.buf.push((key, payload));
        self.items += 1;
        if self.buf_bytes >= self.budget {
            self.spill()?;
        }
        Ok(())
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

    fn spill(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        self.buf.sort_by(|a, b| a.0.cmp(&b.0));
        let n = RUN_COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = self.dir.join(format!("run-{}-{n}", std::process::id()));
        let mut w = BufWriter::with_capacity(1 << 20, File::create(&path)?);
        for (k, p) in self.buf.drain(..) {
            write_item(&mut w, &k, &p)?;
        }
        w.flush()?;
        self.runs.push(path);
        self.buf_bytes = 0;
        Ok(())
    }

    /// Finishes: returns the items in key order (stable).
    pub fn finish(mut self) -> io::Result<Sorted> {
        if self.runs.is_empty() {
            let mut buf = std::mem::take(&mut self.buf);
            buf.sort_by(|a, b| a.0.cmp(&b.0));
            return Ok(Sorted {
                inner: Inner::Memory(buf.into_iter()),
                runs: Vec::new(),
            });
        }
        self.spill()?;
        let mut readers = Vec::new();
        let mut heap = BinaryHeap::new();
        for (i, path) in self.runs.iter().enumerate() {
            let mut r = BufReader::with_capacity(1 << 16, File::open(path)?);
            if let Some(item) = read_item(&mut r)? {
                heap.push(Reverse((item.0, i, item.1)));
            }
            readers.push(r);
        }
        let runs = std::mem::take(&mut self.runs);
        Ok(Sorted {
            inner: Inner::Merge { readers, heap },
            runs,
        })
    }
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

fn read_item<R: Read>(r: &mut R) -> io::Result<Option<(Vec<u8>, Vec<u8>)>> {
    let mut len = [0u8; 8];
    match r.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let kl = u32::from_le_bytes(len[..4].try_into().expect("4")) as usize;
    let pl = u32::from_le_bytes(len[4..].try_into().expect("4")) as usize;
    let mut k = vec![0; kl];
    r.read_exact(&mut k)?;
    let mut p = vec![0; pl];
    r.read_exact(&mut p)?;
    Ok(Some((k, p)))
}

type HeapItem = Reverse<(Vec<u8>, usize, Vec<u8>)>;

enum Inner {
    Memory(std::vec::IntoIter<(Vec<u8>, Vec<u8>)>),
    Merge {
        readers: Vec<BufReader<File>>,
        heap: BinaryHeap<HeapItem>,
    },
}

/// Sorted output of a [`Sorter`]; run files are removed when dropped.
pub struct Sorted {
    inner: Inner,
    runs: Vec<PathBuf>,
}

impl Sorted {
    /// The next item in order.
    pub fn next_item(&mut self) -> io::Result<Option<(Vec<u8>, Vec<u8>)>> {
        match &mut self.inner {
            Inner::Memory(it) => Ok(it.next()),
            Inner::Merge { readers, heap } => {
                let Some(Reverse((k, i, p))) = heap.pop() else {
                    return Ok(None);
                };
                if let Some(next) = read_item(&mut readers[i])? {
                    heap.push(Reverse((next.0, i, next.1)));
                }
                Ok(Some((k, p)))
            }
        }
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
        fn prop_external_sort_is_a_stable_sort(items in prop::collection::vec((prop::collection::vec(0u8..4, 0..3), any::<u16>()), 0..400), budget in 64usize..4096) {
            let dir = std::env::temp_dir();
            let mut s = Sorter::new(&dir, budget);
            for (i, (k, _)) in items.iter().enumerate() {
                s.push(k.clone(), (i as u32).to_le_bytes().to_vec()).unwrap();
            }
            let got = drain(s.finish().unwrap());
            let mut want: Vec<(Vec<u8>, Vec<u8>)> = items.iter().enumerate().map(|(i, (k, _))| (k.clone(), (i as u32).to_le_bytes().to_vec())).collect();
            want.sort_by(|a, b| a.0.cmp(&b.0));
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn test_small_budget_spills() {
        let mut s = Sorter::new(&std::env::temp_dir(), 100);
        for i in 0..100u32 {
            s.push((1000 - i).to_le_bytes().to_vec(), Vec::new())
                .unwrap();
        }
        assert!(s.spills() > 5);
        assert_eq!(drain(s.finish().unwrap()).len(), 100);
    }
}
