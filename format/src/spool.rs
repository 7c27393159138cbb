//! A write-then-replay buffer, in memory or in a temporary file.
//!
//! The catalog is streamed one section at a time, but some structures produce two streams at
//! once (an FST and its postings, a record blob and its offsets). The second stream goes to a
//! spool and is copied into the catalog afterwards, so neither needs to fit in memory.

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A spool of bytes.
pub enum Spool {
    /// Kept in memory (small builds, tests).
    Memory(Vec<u8>),
    /// Kept in a file that is deleted on drop.
    File {
        /// The buffered file.
        file: BufWriter<File>,
        /// Its path.
        path: PathBuf,
        /// Bytes written.
        len: u64,
    },
}

impl Spool {
    /// An in-memory spool.
    pub fn memory() -> Spool {
        Spool::Memory(Vec::new())
    }

    /// A file spool at `path` (created, truncated).
    pub fn file(path: &Path) -> io::Result<Spool> {
        let f = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?;
        Ok(Spool::File {
            // A build holds dozens of spools at once (one per number column): small buffers
            // keep them out of the memory budget's way.
            file: BufWriter::with_capacity(64 << 10, f),
            path: path.to_path_buf(),
            len: 0,
        })
    }

    /// Bytes written.
    pub fn len(&self) -> u64 {
        match self {
            Spool::Memory(v) => v.len() as u64,
            Spool::File { len, .. } => *len,
        }
    }

    /// True when nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Copies everything written into `out`.
    pub fn copy_into<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<u64> {
        if let Spool::Memory(v) = self {
            out.write_all(v)?;
            return Ok(v.len() as u64);
        }
        io::copy(&mut self.reader()?, out)
    }

    /// Reads what was written from its start (writing again after the reader is done appends
    /// at the end).
    pub fn reader(&mut self) -> io::Result<Box<dyn Read + '_>> {
        match self {
            Spool::Memory(v) => Ok(Box::new(v.as_slice())),
            Spool::File { file, .. } => {
                file.flush()?;
                let f = file.get_mut();
                f.seek(SeekFrom::Start(0))?;
                Ok(Box::new(AtEnd(BufReader::with_capacity(1 << 20, f))))
            }
        }
    }

    /// Reads everything written (small spools and tests).
    pub fn to_vec(&mut self) -> io::Result<Vec<u8>> {
        let mut v = Vec::new();
        self.copy_into(&mut v)?;
        Ok(v)
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Spool::Memory(v) => v.extend_from_slice(buf),
            Spool::File { file, len, .. } => {
                file.write_all(buf)?;
                *len += buf.len() as u64;
            }
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Spool::Memory(_) => Ok(()),
            Spool::File { file, .. } => file.flush(),
        }
    }
}

impl Read for Spool {
    /// Not used for replay (see [`Spool::copy_into`] and [`Spool::reader`]); reading a spool
    /// directly is refused.
    fn read(&mut self, _buf: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "use Spool::copy_into",
        ))
    }
}

/// A file spool's reader, which puts the file back at its end when dropped.
struct AtEnd<'a>(BufReader<&'a mut File>);

impl Read for AtEnd<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl Drop for AtEnd<'_> {
    fn drop(&mut self) {
        // So that a write after the replay appends, as after `copy_into`.
        let _ = self.0.get_mut().seek(SeekFrom::End(0));
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        if let Spool::File { path, .. } = self {
            let _ = fs::remove_file(path);
        }
    }
}
