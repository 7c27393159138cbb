//! Shared byte handles and little-endian helpers.
//!
//! Every integer in a catalog is little-endian and is copied out of the mapped bytes with
//! `from_le_bytes`, never by casting the buffer, so alignment and endianness cannot cause
//! undefined behaviour. Readers bound-check once at open; after that the accessors below
//! are only called with in-range offsets.

use std::ops::Range;
use std::sync::Arc;

use crate::error::ReadError;

/// A cheaply clonable view of a byte range inside shared storage (a memory map or a `Vec`).
///
/// `fst::Map<Bytes>` works because `Bytes: AsRef<[u8]>`.
#[derive(Clone)]
pub struct Bytes {
    data: Arc<dyn AsRef<[u8]> + Send + Sync>,
    range: Range<usize>,
}

impl Bytes {
    /// Wraps whole storage.
    pub fn new(data: Arc<dyn AsRef<[u8]> + Send + Sync>) -> Bytes {
        let len = (*data).as_ref().len();
        Bytes {
            data,
            range: 0..len,
        }
    }

    /// Wraps an owned vector.
    pub fn from_vec(v: Vec<u8>) -> Bytes {
        Bytes::new(Arc::new(v))
    }

    /// A sub-range of this view; `None` when out of bounds.
    pub fn slice(&self, range: Range<usize>) -> Option<Bytes> {
        if range.start > range.end || range.end > self.range.len() {
            return None;
        }
        Some(Bytes {
            data: self.data.clone(),
            range: self.range.start + range.start..self.range.start + range.end,
        })
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.range.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.range.is_empty()
    }
}

impl Bytes {
    /// Asks the kernel to read `range` (of this view) in ahead: one read for the whole range
    /// instead of one fault per page, since the catalog's mapping is advised random. A hint:
    /// errors are ignored, and bytes not backed by a file mapping are not affected.
    pub fn will_need(&self, range: Range<usize>) {
        let Some(sub) = self.as_ref().get(range) else {
            return;
        };
        if sub.is_empty() {
            return;
        }
        #[allow(unsafe_code)]
        // SAFETY: sysconf has no preconditions. The advised pages are the ones holding `sub`,
        // which is borrowed, so they are mapped; MADV_WILLNEED only schedules reads and never
        // changes their contents.
        unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE).max(1) as usize;
            let start = sub.as_ptr() as usize;
            let aligned = start - start % page;
            libc::madvise(
                aligned as *mut libc::c_void,
                start + sub.len() - aligned,
                libc::MADV_WILLNEED,
            );
        }
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        &(*self.data).as_ref()[self.range.clone()]
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bytes({}..{})", self.range.start, self.range.end)
    }
}

/// Reads a u16 at `at`; the caller has checked bounds.
#[inline]
pub fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

/// Reads a u32 at `at`; the caller has checked bounds.
#[inline]
pub fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// Reads a u64 at `at`; the caller has checked bounds.
#[inline]
pub fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads an f64 at `at`; the caller has checked bounds.
#[inline]
pub fn f64_at(b: &[u8], at: usize) -> f64 {
    f64::from_bits(u64_at(b, at))
}

/// A bounds-checked cursor over untrusted section bytes, used only while opening a section.
pub struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    section: &'a str,
}

impl<'a> Cursor<'a> {
    /// Starts reading `bytes` of section `section` (the name is used in errors).
    pub fn new(bytes: &'a [u8], section: &'a str) -> Cursor<'a> {
        Cursor {
            bytes,
            pos: 0,
            section,
        }
    }

    /// Current offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], ReadError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| ReadError::truncated(format!("section {}: {what}", self.section)))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    /// Reads a u32.
    pub fn u32(&mut self, what: &str) -> Result<u32, ReadError> {
        Ok(u32_at(self.take(4, what)?, 0))
    }

    /// Reads a u64.
    pub fn u64(&mut self, what: &str) -> Result<u64, ReadError> {
        Ok(u64_at(self.take(8, what)?, 0))
    }

    /// Reads a u64 that must fit in usize.
    pub fn usize(&mut self, what: &str) -> Result<usize, ReadError> {
        let v = self.u64(what)?;
        usize::try_from(v)
            .map_err(|_| ReadError::invalid(self.section, format!("{what} too large")))
    }

    /// Skips `n` bytes (an array whose length was computed with [`mul`]).
    pub fn skip(&mut self, n: usize, what: &str) -> Result<Range<usize>, ReadError> {
        let start = self.pos;
        self.take(n, what)?;
        Ok(start..self.pos)
    }

    /// Requires the whole section to have been consumed.
    pub fn finish(&self) -> Result<(), ReadError> {
        if self.pos != self.bytes.len() {
            return Err(ReadError::invalid(
                self.section,
                format!("{} trailing bytes", self.bytes.len() - self.pos),
            ));
        }
        Ok(())
    }
}

/// Multiplies two untrusted sizes, failing instead of overflowing.
pub fn mul(a: usize, b: usize, section: &str, what: &str) -> Result<usize, ReadError> {
    a.checked_mul(b)
        .ok_or_else(|| ReadError::invalid(section, format!("{what}: size overflow")))
}

/// Rounds `n` up to the next multiple of 8.
pub fn pad8(n: usize) -> usize {
    (n + 7) & !7
}
