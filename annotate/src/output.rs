//! The output (its format by extension or `-O`; `-` is stdout) and its index. A file output is
//! staged ([`varcat_outfile::Staged`]) and appears, whole, only when [`Output::finish`]
//! succeeds; its index is renamed into place after it. An output abandoned on an error writes
//! nothing more: on stdout, where nothing can be renamed, the BGZF end-of-file block is then
//! missing, so that a reader sees the truncation.

use std::io::{self, BufWriter, Write};
use std::num::NonZero;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use noodles_bgzf as bgzf;
use varcat_outfile::Staged;

use crate::input::is_stdio;
use crate::live_index::Built;

/// Output formats (bcftools' `-O` letters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutFormat {
    /// `v`: VCF text.
    Vcf,
    /// `z`: BGZF-compressed VCF.
    VcfGz,
    /// `b`: BCF (BGZF-compressed).
    Bcf,
    /// `u`: uncompressed BCF.
    BcfRaw,
}

impl OutFormat {
    /// From a `-O` letter.
    pub fn from_letter(s: &str) -> Result<OutFormat, String> {
        match s {
            "v" => Ok(OutFormat::Vcf),
            "z" => Ok(OutFormat::VcfGz),
            "b" => Ok(OutFormat::Bcf),
            "u" => Ok(OutFormat::BcfRaw),
            _ => Err(format!("-O takes v, z, b or u, got {s:?}")),
        }
    }

    /// From the output path's extension (`-` and unknown extensions: VCF text).
    pub fn from_path(p: &Path) -> OutFormat {
        let s = p.to_string_lossy();
        if s.ends_with(".vcf.gz") || s.ends_with(".vcf.bgz") {
            OutFormat::VcfGz
        } else if s.ends_with(".bcf") {
            OutFormat::Bcf
        } else {
            OutFormat::Vcf
        }
    }

    /// True for BCF.
    pub fn is_bcf(self) -> bool {
        matches!(self, OutFormat::Bcf | OutFormat::BcfRaw)
    }
}

/// The raw writer of `path`: standard output for `-`, else a staged file (with its guard,
/// which the caller commits once the output is complete).
pub fn target(path: &Path) -> Result<(Option<Staged>, Box<dyn Write + Send>), String> {
    if is_stdio(path) {
        return Ok((None, Box::new(io::stdout())));
    }
    let (staged, file) = Staged::create(path)?;
    Ok((Some(staged), Box::new(file)))
}

/// A writer that passes bytes on until it is closed, then refuses them: an abandoned output's
/// buffered bytes and BGZF end-of-file block (which noodles' writer writes when dropped) never
/// reach the destination.
struct Gate {
    inner: Box<dyn Write + Send>,
    open: Arc<AtomicBool>,
}

impl Gate {
    fn check(&self) -> io::Result<()> {
        if self.open.load(Ordering::Relaxed) {
            Ok(())
        } else {
            Err(io::Error::other("the output was abandoned"))
        }
    }
}

impl Write for Gate {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.check()?;
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.check()?;
        self.inner.flush()
    }
}

/// The encoders.
enum Sink {
    /// Plain bytes (VCF text or uncompressed BCF).
    Plain(BufWriter<Gate>),
    /// BGZF.
    Bgzf(bgzf::io::MultithreadedWriter<Gate>),
}

/// The output: its encoder, the gate below it, and the staged file when it is one.
pub struct Output {
    sink: Option<Sink>,
    open: Arc<AtomicBool>,
    staged: Option<Staged>,
}

impl Output {
    /// Creates `path` (`-`: stdout) in `format`.
    pub fn create(path: &Path, format: OutFormat, threads: usize) -> Result<Output, String> {
        let (staged, raw) = target(path)?;
        Ok(Output::on(raw, staged, format, threads))
    }

    /// The output of `format` on `raw` (staged as `staged`, when a file).
    pub fn on(
        raw: Box<dyn Write + Send>,
        staged: Option<Staged>,
        format: OutFormat,
        threads: usize,
    ) -> Output {
        let open = Arc::new(AtomicBool::new(true));
        let gate = Gate {
            inner: raw,
            open: open.clone(),
        };
        let sink = match format {
            OutFormat::Vcf | OutFormat::BcfRaw => {
                Sink::Plain(BufWriter::with_capacity(1 << 17, gate))
            }
            OutFormat::VcfGz | OutFormat::Bcf => {
                let workers = NonZero::new(threads.max(1)).unwrap_or(NonZero::<usize>::MIN);
                Sink::Bgzf(
                    bgzf::io::multithreaded_writer::Builder::default()
                        .set_worker_count(workers)
                        .build_from_writer(gate),
                )
            }
        };
        Output {
            sink: Some(sink),
            open,
            staged,
        }
    }

    fn sink(&mut self) -> io::Result<&mut Sink> {
        self.sink
            .as_mut()
            .ok_or_else(|| io::Error::other("the output is finished"))
    }

    /// Flushes and, for BGZF, writes the end-of-file block; returns the staged file, complete
    /// but not yet in place (the caller commits it, then its index: [`commit`]).
    pub fn finish(mut self) -> Result<Option<Staged>, String> {
        let fail = |e: io::Error| format!("writing: {e}");
        match self.sink.take() {
            Some(Sink::Plain(mut w)) => w.flush().map_err(fail)?,
            Some(Sink::Bgzf(mut w)) => w.finish().and_then(|mut g| g.flush()).map_err(fail)?,
            None => {}
        }
        Ok(self.staged.take())
    }
}

impl Drop for Output {
    /// Unfinished (on an error), the output is abandoned: the gate closes before the encoders
    /// drop, and the staged file is removed.
    fn drop(&mut self) {
        self.open.store(false, Ordering::Relaxed);
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.sink()? {
            Sink::Plain(w) => w.write(buf),
            Sink::Bgzf(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self.sink()? {
            Sink::Plain(w) => w.write_all(buf),
            Sink::Bgzf(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.sink()? {
            Sink::Plain(w) => w.flush(),
            Sink::Bgzf(w) => w.flush(),
        }
    }
}

/// Indexes the finished BGZF output, written (staged) at `written`, as bcftools does (`.tbi`
/// for VCF, `.csi` for BCF), staged beside `dest`. A post-pass over the written file: it costs
/// one more inflate (`annotate` indexes while it writes instead, see `live_index`;
/// `export-vcf` still passes).
pub fn write_index(written: &Path, dest: &Path, format: OutFormat) -> Result<Index, String> {
    let fail = |e: io::Error| format!("indexing {}: {e}", dest.display());
    let built = match format {
        OutFormat::VcfGz => Built::Vcf(noodles_vcf::fs::index(written).map_err(fail)?),
        OutFormat::Bcf => Built::Bcf(noodles_bcf::fs::index(written).map_err(fail)?),
        OutFormat::Vcf | OutFormat::BcfRaw => return Err("only BGZF output is indexed".into()),
    };
    save_index(dest, &built)
}

/// An index written under a temporary name beside its data file, put in place by [`commit`]
/// after the data file.
pub struct Index {
    staged: Staged,
}

impl Index {
    /// Its final path.
    pub fn path(&self) -> PathBuf {
        self.staged.dest().to_path_buf()
    }

    /// Renames it into place (after its data file: [`commit`]); returns its path.
    pub fn commit(self) -> Result<PathBuf, String> {
        let path = self.path();
        self.staged.commit()?;
        Ok(path)
    }
}

/// The index names a data file `dest` may have beside it.
pub fn index_paths(dest: &Path) -> [PathBuf; 2] {
    ["tbi", "csi"].map(|ext| {
        let mut name = dest.as_os_str().to_owned();
        name.push(format!(".{ext}"));
        PathBuf::from(name)
    })
}

/// Writes `index` of the output `dest` beside it, staged (`.tbi`; `.csi` for BCF or long
/// contigs).
pub fn save_index(dest: &Path, index: &Built) -> Result<Index, String> {
    let fail = |e: io::Error| format!("indexing {}: {e}", dest.display());
    let [tbi, csi] = index_paths(dest);
    let staged = match index {
        Built::Vcf(noodles_vcf::Index::Tabix(index)) => {
            let (staged, file) = Staged::create(&tbi)?;
            let mut w = noodles_tabix::io::Writer::new(file);
            w.write_index(index)
                .and_then(|_| w.try_finish())
                .map_err(fail)?;
            staged
        }
        Built::Vcf(noodles_vcf::Index::Csi(index)) | Built::Bcf(index) => {
            let (staged, file) = Staged::create(&csi)?;
            let mut w = noodles_csi::io::Writer::new(file);
            w.write_index(index)
                .and_then(|_| w.get_mut().try_finish())
                .map_err(fail)?;
            staged
        }
    };
    Ok(Index { staged })
}

/// Puts a finished output in place: the data file, then its index; an index by the data
/// file's name that this run does not replace is removed, as it described the file replaced.
/// Returns the index's path.
pub fn commit(data: Option<Staged>, index: Option<Index>) -> Result<Option<PathBuf>, String> {
    let Some(data) = data else {
        return Ok(None);
    };
    let dest = data.dest().to_path_buf();
    data.commit()?;
    let kept = index.as_ref().map(Index::path);
    for stale in index_paths(&dest) {
        if Some(&stale) != kept.as_ref() && stale.exists() {
            std::fs::remove_file(&stale).map_err(|e| format!("{}: {e}", stale.display()))?;
        }
    }
    index.map(Index::commit).transpose()
}

/// A writer that counts the bytes written through it: the uncompressed offsets of BCF
/// records, which the live index needs.
pub struct Counting<W> {
    /// The writer.
    pub inner: W,
    /// Bytes written so far.
    pub at: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.at += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
