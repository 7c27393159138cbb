//! The output files of one generator job: one JSON Lines file per collection, plain or gzip.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use flate2::write::GzEncoder;

use super::Summary;

/// One output file.
enum Out {
    Plain(BufWriter<File>),
    /// Boxed: the zlib-rs encoder's state is large and there is one per file.
    Gz(Box<BufWriter<GzEncoder<File>>>),
}

impl Out {
    fn w(&mut self) -> &mut dyn Write {
        match self {
            Out::Plain(w) => w,
            Out::Gz(w) => w,
        }
    }
    fn finish(self) -> io::Result<()> {
        match self {
            Out::Plain(mut w) => w.flush(),
            Out::Gz(w) => (*w)
                .into_inner()
                .map_err(|e| e.into_error())?
                .finish()
                .map(drop),
        }
    }
}

/// The files of one job: one per collection, opened on first use.
pub(super) struct Sink {
    dir: PathBuf,
    part: String,
    gz: bool,
    outs: BTreeMap<&'static str, (Out, u64, u64)>,
    /// The document being written: filled through [`super::json::Obj`], emptied by [`Sink::put`].
    pub(super) buf: String,
}

impl Sink {
    pub(super) fn new(dir: &Path, part: &str, gz: bool) -> Sink {
        Sink {
            dir: dir.to_path_buf(),
            part: part.to_string(),
            gz,
            outs: BTreeMap::new(),
            buf: String::with_capacity(8192),
        }
    }

    /// Writes the document in `buf` to `coll` and clears `buf`.
    pub(super) fn put(&mut self, coll: &'static str) -> io::Result<()> {
        if !self.outs.contains_key(coll) {
            let name = format!(
                "{coll}{}.jsonl{}",
                self.part,
                if self.gz { ".gz" } else { "" }
            );
            let f = File::create(self.dir.join(name))?;
            let out = if self.gz {
                Out::Gz(Box::new(BufWriter::with_capacity(
                    1 << 18,
                    GzEncoder::new(f, flate2::Compression::new(1)),
                )))
            } else {
                Out::Plain(BufWriter::with_capacity(1 << 18, f))
            };
            self.outs.insert(coll, (out, 0, 0));
        }
        self.buf.push('\n');
        let (out, docs, bytes) = self.outs.get_mut(coll).expect("opened above");
        out.w().write_all(self.buf.as_bytes())?;
        *docs += 1;
        *bytes += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }

    pub(super) fn finish(self, into: &Mutex<Summary>) -> io::Result<()> {
        let mut s = into.lock().unwrap_or_else(|e| e.into_inner());
        for (coll, (out, docs, bytes)) in self.outs {
            out.finish()?;
            *s.docs.entry(coll.to_string()).or_default() += docs;
            *s.bytes.entry(coll.to_string()).or_default() += bytes;
        }
        Ok(())
    }
}
