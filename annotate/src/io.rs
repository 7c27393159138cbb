//! Opening the input (text, BGZF or BCF, by magic bytes; `-` is stdin) and the output (by
//! extension or `-O`; `-` is stdout), and indexing a finished BGZF output with noodles.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::num::NonZero;
use std::path::{Path, PathBuf};

use noodles_bgzf as bgzf;

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

/// The input, decompressed, with what it holds.
pub struct Input {
    /// Decompressed bytes.
    pub reader: Box<dyn BufRead>,
    /// True when it is BCF (`BCF\2` magic).
    pub bcf: bool,
    /// Its name in messages (`<stdin>` for `-`).
    pub name: String,
}

/// True when `p` names stdin/stdout.
pub fn is_stdio(p: &Path) -> bool {
    p.as_os_str() == "-"
}

/// Opens `path`, detecting BGZF (gzip magic) and BCF (after inflating).
pub fn open_input(path: &Path, threads: usize) -> Result<Input, String> {
    let name = if is_stdio(path) {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    let raw: Box<dyn Read + Send> = if is_stdio(path) {
        Box::new(io::stdin())
    } else {
        Box::new(File::open(path).map_err(|e| format!("{name}: {e}"))?)
    };
    let mut raw = BufReader::with_capacity(1 << 16, raw);
    let gz = raw
        .fill_buf()
        .map_err(|e| format!("{name}: {e}"))?
        .starts_with(&[0x1f, 0x8b]);
    let mut reader: Box<dyn BufRead> = if gz {
        let workers = NonZero::new(threads.max(1)).unwrap_or(NonZero::<usize>::MIN);
        Box::new(bgzf::io::MultithreadedReader::with_worker_count(
            workers, raw,
        ))
    } else {
        Box::new(raw)
    };
    let bcf = reader
        .fill_buf()
        .map_err(|e| format!("{name}: {e}"))?
        .starts_with(b"BCF\x02");
    Ok(Input { reader, bcf, name })
}

/// Creates `path` (`-`: stdout).
pub fn create(path: &Path) -> Result<Box<dyn Write + Send>, String> {
    Ok(if is_stdio(path) {
        Box::new(io::stdout())
    } else {
        Box::new(File::create(path).map_err(|e| format!("{}: {e}", path.display()))?)
    })
}

/// The output sink.
pub enum Output {
    /// Plain bytes (VCF text or uncompressed BCF).
    Plain(BufWriter<Box<dyn Write + Send>>),
    /// BGZF.
    Bgzf(bgzf::io::MultithreadedWriter<Box<dyn Write + Send>>),
}

impl Output {
    /// Creates `path` (`-`: stdout), BGZF for `.vcf.gz`/BCF.
    pub fn create(path: &Path, format: OutFormat, threads: usize) -> Result<Output, String> {
        Ok(Output::on(create(path)?, format, threads))
    }

    /// The output of `format` on `sink`.
    pub fn on(sink: Box<dyn Write + Send>, format: OutFormat, threads: usize) -> Output {
        match format {
            OutFormat::Vcf | OutFormat::BcfRaw => {
                Output::Plain(BufWriter::with_capacity(1 << 17, sink))
            }
            OutFormat::VcfGz | OutFormat::Bcf => {
                let workers = NonZero::new(threads.max(1)).unwrap_or(NonZero::<usize>::MIN);
                Output::Bgzf(
                    bgzf::io::multithreaded_writer::Builder::default()
                        .set_worker_count(workers)
                        .build_from_writer(sink),
                )
            }
        }
    }

    /// Flushes and, for BGZF, writes the end-of-file block.
    pub fn finish(self) -> io::Result<()> {
        match self {
            Output::Plain(mut w) => w.flush(),
            Output::Bgzf(mut w) => w.finish().and_then(|mut s| s.flush()),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Plain(w) => w.write(buf),
            Output::Bgzf(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Plain(w) => w.write_all(buf),
            Output::Bgzf(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Plain(w) => w.flush(),
            Output::Bgzf(w) => w.flush(),
        }
    }
}

/// Indexes the finished BGZF output `path` as bcftools does (`.tbi` for VCF, `.csi` for BCF);
/// returns the index path. A post-pass over the written file: it costs one more inflate
/// (`annotate` indexes while it writes instead, see `live_index`; `export-vcf` still passes).
pub fn write_index(path: &Path, format: OutFormat) -> Result<PathBuf, String> {
    let fail = |e: io::Error| format!("indexing {}: {e}", path.display());
    let built = match format {
        OutFormat::VcfGz => Built::Vcf(noodles_vcf::fs::index(path).map_err(fail)?),
        OutFormat::Bcf => Built::Bcf(noodles_bcf::fs::index(path).map_err(fail)?),
        OutFormat::Vcf | OutFormat::BcfRaw => return Err("only BGZF output is indexed".into()),
    };
    save_index(path, &built)
}

/// Writes `index` of the output `path` next to it (`.tbi`; `.csi` for BCF or long contigs);
/// returns its path.
pub fn save_index(path: &Path, index: &Built) -> Result<PathBuf, String> {
    let fail = |e: io::Error| format!("indexing {}: {e}", path.display());
    let mut name = path.as_os_str().to_owned();
    match index {
        Built::Vcf(noodles_vcf::Index::Tabix(index)) => {
            name.push(".tbi");
            noodles_tabix::fs::write(&name, index).map_err(fail)?;
        }
        Built::Vcf(noodles_vcf::Index::Csi(index)) | Built::Bcf(index) => {
            name.push(".csi");
            noodles_csi::fs::write(&name, index).map_err(fail)?;
        }
    }
    Ok(PathBuf::from(name))
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
