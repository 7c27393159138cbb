//! Opening a catalog file: structural checks, checksums, section lookup.

use std::collections::HashMap;
use std::fs::File;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use xxhash_rust::xxh3::xxh3_64;

use crate::bytes::Bytes;
use crate::error::ReadError;
use crate::layout::{self, SectionEntry};

/// Sections up to this size are checksummed by [`Catalog::open`] itself; larger ones by
/// [`Catalog::verify`] (the server runs it at start-up unless told not to).
pub const SMALL_SECTION: u64 = 1 << 20;

/// An opened catalog: the mapped file and its section table.
#[derive(Clone)]
pub struct Catalog {
    bytes: Bytes,
    /// The file mapping, when the catalog is a file: kept to give the kernel access advice.
    map: Option<Arc<memmap2::Mmap>>,
    /// The mapped file's open descriptor, when the catalog is a file: a server compares its
    /// `fstat` with the one at open to notice the file changed in place under the mapping.
    file: Option<Arc<File>>,
    entries: Vec<SectionEntry>,
    index: HashMap<String, usize>,
    checksum: u64,
}

impl Catalog {
    /// Maps the file at `path` and checks its structure (magic, version, table, small-section
    /// checksums). Never panics on a bad file.
    pub fn open(path: &Path) -> Result<Catalog, ReadError> {
        let io = |source| ReadError::Io {
            path: path.to_path_buf(),
            source,
        };
        // Opening a FIFO or a device would block or read something that is no catalog: only
        // a regular file is opened (checked without opening it).
        let kind = std::fs::metadata(path).map_err(io)?.file_type();
        if !kind.is_file() {
            return Err(io(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a regular file",
            )));
        }
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len == 0 {
            return Err(ReadError::truncated("file is empty"));
        }
        #[allow(unsafe_code)]
        // SAFETY: catalogs are immutable once renamed into place: the writer only ever writes a
        // fresh temporary file and renames it (replacing the path leaves the old inode, and this
        // mapping, intact). A file changed in place by another program is the server's to
        // notice ([`Catalog::file`]) before it reads the mapping again.
        let map = Arc::new(unsafe { memmap2::Mmap::map(&file) }.map_err(io)?);
        // Queries touch a few scattered pages each; the default read-around (128 KiB per
        // fault) made a cold point lookup read ~1 MB. Advice is a hint: failure changes nothing.
        let _ = map.advise(memmap2::Advice::Random);
        let mut cat = Catalog::from_bytes(Bytes::new(map.clone()))?;
        cat.map = Some(map);
        cat.file = Some(Arc::new(file));
        Ok(cat)
    }

    /// The mapped file, still open (None for a catalog in memory).
    pub fn file(&self) -> Option<&File> {
        self.file.as_deref()
    }

    /// Opens a catalog held in memory (tests, fuzzing).
    pub fn from_vec(bytes: Vec<u8>) -> Result<Catalog, ReadError> {
        Catalog::from_bytes(Bytes::from_vec(bytes))
    }

    /// Opens a catalog over shared bytes.
    pub fn from_bytes(bytes: Bytes) -> Result<Catalog, ReadError> {
        let parsed = layout::parse(bytes.as_ref())?;
        let cat = Catalog::assemble(bytes, parsed.entries, parsed.table_checksum);
        for e in &cat.entries {
            if e.len <= SMALL_SECTION {
                cat.verify_entry(e)?;
            }
        }
        Ok(cat)
    }

    /// Builds a catalog view over sections already checked by the caller (the writer's
    /// read-back of what it has written so far).
    pub(crate) fn assemble(bytes: Bytes, entries: Vec<SectionEntry>, checksum: u64) -> Catalog {
        let index = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.clone(), i))
            .collect();
        Catalog {
            bytes,
            map: None,
            file: None,
            entries,
            index,
            checksum,
        }
    }

    fn verify_entry(&self, e: &SectionEntry) -> Result<(), ReadError> {
        #[cfg(test)]
        tests::VERIFIED_HERE.with(|n| n.set(n.get() + 1));
        let got = xxh3_64(self.raw(e));
        if got != e.checksum {
            return Err(ReadError::ChecksumMismatch {
                section: e.name.clone(),
                expected: e.checksum,
                got,
            });
        }
        Ok(())
    }

    fn raw(&self, e: &SectionEntry) -> &[u8] {
        // Bounds were proven by layout::parse (or by the writer).
        &self.bytes.as_ref()[e.offset as usize..(e.offset + e.len) as usize]
    }

    /// Recomputes every section's checksum on every core (read-ahead on while it runs, random
    /// access advised again afterwards). A 10M-variant catalog is 41 GB: on one thread the
    /// hashing and the page faults took turns, at 1.7 GB/s from a disk that reads 2.8 GB/s.
    pub fn verify(&self) -> Result<(), ReadError> {
        self.verify_with(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// [`Catalog::verify`] on `threads` threads: each takes the largest section not yet taken,
    /// so the longest ones start first. Whatever the thread count, a failure names the first
    /// bad section in file order. With one thread (or one section) the calling thread does
    /// the work and none is started.
    pub fn verify_with(&self, threads: usize) -> Result<(), ReadError> {
        self.verify_from(0, threads)
    }

    /// [`Catalog::verify_with`] for the sections from the `first`-th on, in table order (the
    /// indexer checks each collection's sections as soon as they are written).
    pub fn verify_from(&self, first: usize, threads: usize) -> Result<(), ReadError> {
        if let Some(m) = &self.map {
            let _ = m.advise(memmap2::Advice::Normal);
        }
        let mut order: Vec<usize> = (first.min(self.entries.len())..self.entries.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.entries[i].len));
        let next = AtomicUsize::new(0);
        let bad = Mutex::new(Vec::new());
        let work = || {
            while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                if let Err(e) = self.verify_entry(&self.entries[i]) {
                    bad.lock().unwrap_or_else(|p| p.into_inner()).push((i, e));
                }
            }
        };
        match threads.clamp(1, order.len().max(1)) {
            // One thread is the calling one: no thread is started (a started thread outlives
            // `scope` until its thread-local destructors have run, which LeakSanitizer in the
            // catalog_open fuzz target reported as a leak).
            1 => work(),
            n => std::thread::scope(|sc| {
                for _ in 0..n {
                    sc.spawn(work);
                }
            }),
        }
        if let Some(m) = &self.map {
            let _ = m.advise(memmap2::Advice::Random);
        }
        let bad = bad.into_inner().unwrap_or_else(|p| p.into_inner());
        match bad.into_iter().min_by_key(|(i, _)| *i) {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }

    /// The bytes of section `name`, if present.
    pub fn section(&self, name: &str) -> Option<Bytes> {
        let e = &self.entries[*self.index.get(name)?];
        self.bytes
            .slice(e.offset as usize..(e.offset + e.len) as usize)
    }

    /// The bytes of section `name`, or [`ReadError::MissingSection`].
    pub fn require(&self, name: &str) -> Result<Bytes, ReadError> {
        self.section(name)
            .ok_or_else(|| ReadError::MissingSection(name.to_string()))
    }

    /// The section table, in file order.
    pub fn sections(&self) -> &[SectionEntry] {
        &self.entries
    }

    /// The catalog's identity: xxh3 of its section table, which covers every section checksum.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// File size in bytes.
    pub fn file_len(&self) -> usize {
        self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// Sections checksummed on this thread.
        pub(super) static VERIFIED_HERE: Cell<usize> = const { Cell::new(0) };
    }

    #[test]
    fn test_verify_on_one_thread_starts_none() {
        let mut w = crate::CatalogWriter::in_memory();
        for i in 0..4u8 {
            w.add(&format!("s{i}"), &[i; 100]).unwrap();
        }
        let c = Catalog::from_vec(w.finish_to_vec().unwrap()).unwrap();
        let here = || VERIFIED_HERE.with(Cell::get);
        let before = here();
        c.verify_with(1).unwrap();
        assert_eq!(here() - before, c.sections().len());
        // More threads: the sections are checked on started ones.
        let before = here();
        c.verify_with(2).unwrap();
        assert_eq!(here(), before);
        // One section: however many threads are asked for, none is started.
        let before = here();
        c.verify_from(c.sections().len() - 1, 4).unwrap();
        assert_eq!(here() - before, 1);
    }
}
