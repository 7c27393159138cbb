//! Writing a catalog: sections are streamed one after another into a temporary file next to
//! the destination, then the section table and footer; the file is fsynced and renamed into
//! place, so a reader never sees a partial catalog.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use xxhash_rust::xxh3::Xxh3;

use crate::bytes::{pad8, Bytes};
use crate::catalog::Catalog;
use crate::error::{ReadError, WriteError};
use crate::layout::{self, SectionEntry, MAX_NAME_LEN};

enum Sink {
    File {
        file: BufWriter<File>,
        tmp: PathBuf,
        dest: PathBuf,
    },
    Memory(Vec<u8>),
}

/// Streams sections into a new catalog.
pub struct CatalogWriter {
    sink: Sink,
    pos: u64,
    entries: Vec<SectionEntry>,
    done: bool,
}

impl CatalogWriter {
    /// Starts a catalog that [`CatalogWriter::finish`] renames to `dest`.
    pub fn create(dest: &Path) -> Result<CatalogWriter, WriteError> {
        dest.file_name()
            .ok_or_else(|| WriteError::Invalid(format!("{}: not a file path", dest.display())))?;
        let tmp = Self::temp_path(dest);
        let file = File::create(&tmp).map_err(|e| {
            WriteError::Io(io::Error::new(e.kind(), format!("{}: {e}", tmp.display())))
        })?;
        let mut w = CatalogWriter {
            sink: Sink::File {
                file: BufWriter::with_capacity(1 << 20, file),
                tmp,
                dest: dest.to_path_buf(),
            },
            pos: 0,
            entries: Vec::new(),
            done: false,
        };
        w.raw_write(&layout::header())?;
        Ok(w)
    }

    /// The file [`CatalogWriter::create`] writes until it is renamed to `dest`.
    pub fn temp_path(dest: &Path) -> PathBuf {
        let mut tmp_name = dest.file_name().unwrap_or_default().to_os_string();
        tmp_name.push(format!(".tmp-{}", std::process::id()));
        dest.with_file_name(tmp_name)
    }

    /// Starts a catalog held in memory ([`CatalogWriter::finish_to_vec`] returns it).
    pub fn in_memory() -> CatalogWriter {
        let mut w = CatalogWriter {
            sink: Sink::Memory(Vec::new()),
            pos: 0,
            entries: Vec::new(),
            done: false,
        };
        w.raw_write(&layout::header()).expect("writing to memory");
        w
    }

    fn raw_write(&mut self, b: &[u8]) -> io::Result<()> {
        match &mut self.sink {
            Sink::File { file, .. } => file.write_all(b)?,
            Sink::Memory(v) => v.extend_from_slice(b),
        }
        self.pos += b.len() as u64;
        Ok(())
    }

    fn align(&mut self) -> io::Result<()> {
        let pad = pad8(self.pos as usize) - self.pos as usize;
        self.raw_write(&[0u8; 8][..pad])
    }

    /// Starts section `name`; write its bytes, then call [`SectionWriter::finish`].
    pub fn section(&mut self, name: &str) -> Result<SectionWriter<'_>, WriteError> {
        if name.is_empty() || name.len() > MAX_NAME_LEN {
            return Err(WriteError::Invalid(format!("bad section name {name:?}")));
        }
        if self.entries.iter().any(|e| e.name == name) {
            return Err(WriteError::Invalid(format!("section {name} written twice")));
        }
        self.align()?;
        let start = self.pos;
        Ok(SectionWriter {
            w: self,
            name: name.to_string(),
            start,
            hasher: Xxh3::new(),
        })
    }

    /// Writes a whole section at once.
    pub fn add(&mut self, name: &str, bytes: &[u8]) -> Result<(), WriteError> {
        let mut s = self.section(name)?;
        s.write_all(bytes)?;
        s.finish()?;
        Ok(())
    }

    /// True when a section of that name was written.
    pub fn has(&self, name: &str) -> bool {
        self.entries.iter().any(|e| e.name == name)
    }

    /// A reader over the sections written so far (for build steps that join earlier sections).
    pub fn read_back(&mut self) -> Result<Catalog, WriteError> {
        let bytes = match &mut self.sink {
            Sink::File { file, tmp, .. } => {
                file.flush()?;
                let f = File::open(&*tmp)?;
                #[allow(unsafe_code)]
                // SAFETY: the temporary file is private to this writer, which only appends to it;
                // the bytes covered by this mapping are never rewritten or truncated while mapped.
                let map = unsafe { memmap2::Mmap::map(&f) }?;
                Bytes::new(Arc::new(map))
            }
            Sink::Memory(v) => Bytes::from_vec(v.clone()),
        };
        Ok(Catalog::assemble(bytes, self.entries.clone(), 0))
    }

    fn write_tail(&mut self) -> Result<u64, WriteError> {
        self.align()?;
        let table_offset = self.pos;
        let table = layout::encode_table(&self.entries);
        self.raw_write(&table)?;
        let file_len = self.pos + layout::FOOTER_LEN as u64;
        let footer = layout::footer(table_offset, &table, file_len);
        self.raw_write(&footer)?;
        Ok(xxhash_rust::xxh3::xxh3_64(&table))
    }

    /// Writes table and footer, fsyncs and atomically renames the file into place.
    /// Returns the catalog checksum.
    pub fn finish(mut self) -> Result<u64, WriteError> {
        let sum = self.write_tail()?;
        if let Sink::File { file, tmp, dest } = &mut self.sink {
            file.flush()?;
            file.get_ref().sync_all()?;
            fs::rename(&*tmp, &*dest).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("{} -> {}: {e}", tmp.display(), dest.display()),
                )
            })?;
            if let Some(dir) = dest.parent().filter(|d| !d.as_os_str().is_empty()) {
                // Persist the rename itself; failure here is not fatal on filesystems without
                // directory fsync.
                let _ = File::open(dir).and_then(|d| d.sync_all());
            }
        }
        self.done = true;
        Ok(sum)
    }

    /// Finishes an in-memory catalog and returns its bytes.
    pub fn finish_to_vec(mut self) -> Result<Vec<u8>, WriteError> {
        self.write_tail()?;
        self.done = true;
        match std::mem::replace(&mut self.sink, Sink::Memory(Vec::new())) {
            Sink::Memory(v) => Ok(v),
            Sink::File { .. } => Err(WriteError::Invalid(
                "finish_to_vec on a file catalog".into(),
            )),
        }
    }

    /// Bytes written so far.
    pub fn position(&self) -> u64 {
        self.pos
    }
}

impl Drop for CatalogWriter {
    fn drop(&mut self) {
        if let (false, Sink::File { tmp, .. }) = (self.done, &self.sink) {
            let _ = fs::remove_file(tmp);
        }
    }
}

/// One section being written; hashes as it goes.
pub struct SectionWriter<'a> {
    w: &'a mut CatalogWriter,
    name: String,
    start: u64,
    hasher: Xxh3,
}

impl<'a> SectionWriter<'a> {
    /// Bytes written to this section so far.
    pub fn len(&self) -> u64 {
        self.w.pos - self.start
    }

    /// True before anything was written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Records the section in the table and hands the catalog writer back.
    pub fn finish(self) -> Result<&'a mut CatalogWriter, WriteError> {
        let len = self.w.pos - self.start;
        let entry = SectionEntry {
            name: self.name,
            offset: self.start,
            len,
            checksum: self.hasher.digest(),
        };
        self.w.entries.push(entry);
        Ok(self.w)
    }
}

impl Write for SectionWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.hasher.update(buf);
        self.w.raw_write(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl From<ReadError> for WriteError {
    fn from(e: ReadError) -> Self {
        WriteError::Invalid(e.to_string())
    }
}
