//! Opening the input: VCF text, BGZF, plain (multi-member) gzip or BCF, told apart by their
//! first bytes (`-` is standard input), with what a careless or hostile file cannot get past:
//!
//! - a BGZF stream must end in the end-of-file block (htslib only warns): a `.vcf.gz` cut at a
//!   block boundary, an interrupted download, otherwise reads as a complete file with half its
//!   records; `--allow-missing-eof` reads a complete file from a writer that omits the block;
//! - a stream cut inside a compressed block is refused as truncated, with the line it cut;
//! - a text line may be at most `--max-line` bytes (one 2 GB line in a 3 MB `.vcf.gz` would
//!   otherwise be held whole), and so may a BCF header or record (whose length fields a reader
//!   would otherwise allocate, up to 4 GiB each, from a few bytes of input);
//! - other compressions, a byte-order mark and bytes that are no VCF at all are named.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::num::NonZero;
use std::path::Path;

use noodles_bgzf as bgzf;

/// The BGZF end-of-file block: an empty block, exactly these 28 bytes (SAM specification
/// §4.1.2).
pub const BGZF_EOF: [u8; 28] = [
    0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, b'B', b'C', 2, 0, 0x1b, 0, 3, 0, 0, 0, 0, 0, 0, 0,
    0, 0,
];

/// The default `--max-line`: the build's.
pub const DEFAULT_MAX_LINE: usize = 16 << 20;

/// How strictly the input is read.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Accept a BGZF input without its end-of-file block (with a warning).
    pub allow_missing_eof: bool,
    /// The longest text line, newline included.
    pub max_line: usize,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            allow_missing_eof: false,
            max_line: DEFAULT_MAX_LINE,
        }
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

/// How the raw bytes are compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Packing {
    Bgzf,
    Gzip,
    None,
}

/// True when `p` names standard input or output.
pub fn is_stdio(p: &Path) -> bool {
    p.as_os_str() == "-"
}

/// The name of `path` in messages.
pub fn display_name(path: &Path) -> String {
    if is_stdio(path) {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Opens `path` under `rules`.
pub fn open(path: &Path, threads: usize, rules: Rules) -> Result<Input, String> {
    let name = display_name(path);
    let fail = |e: io::Error| format!("{name}: {e}");
    let (raw, regular): (Box<dyn Read + Send>, bool) = if is_stdio(path) {
        (Box::new(io::stdin()), false)
    } else {
        let f = File::open(path).map_err(fail)?;
        let regular = f.metadata().map_err(fail)?.is_file();
        (Box::new(f), regular)
    };
    opened(raw, regular.then_some(path), &name, threads, rules)
}

/// Opens `bytes` as `name` (for the fuzz target: a file in memory).
pub fn from_bytes(bytes: Vec<u8>, name: &str, rules: Rules) -> Result<Input, String> {
    opened(Box::new(io::Cursor::new(bytes)), None, name, 1, rules)
}

/// Reads the first bytes of `raw`; `file` is its path when it is a regular file, whose end is
/// checked before anything is read.
fn opened(
    mut raw: Box<dyn Read + Send>,
    file: Option<&Path>,
    name: &str,
    threads: usize,
    rules: Rules,
) -> Result<Input, String> {
    let mut head = Vec::with_capacity(18);
    (&mut raw)
        .take(18)
        .read_to_end(&mut head)
        .map_err(|e| format!("{name}: {e}"))?;
    let packing = packing(&head).map_err(|e| format!("{name}: {e}"))?;
    let raw = io::Cursor::new(head).chain(raw);
    let raw: Box<dyn Read + Send> = match (packing, file) {
        (Packing::Bgzf, Some(path)) => {
            if !ends_in_eof_block(path).map_err(|e| format!("{name}: {e}"))? {
                missing_eof(name, rules)?;
            }
            Box::new(raw)
        }
        (Packing::Bgzf, None) => Box::new(TailCheck::new(raw, name, rules)),
        _ => Box::new(raw),
    };
    let raw = BufReader::with_capacity(1 << 16, raw);
    let workers = NonZero::new(threads.max(1)).unwrap_or(NonZero::<usize>::MIN);
    let inflated: Box<dyn BufRead> = match packing {
        Packing::Bgzf => Box::new(bgzf::io::MultithreadedReader::with_worker_count(
            workers, raw,
        )),
        Packing::Gzip => Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(raw),
        )),
        Packing::None => Box::new(raw),
    };
    let mut reader = Truncation(inflated);
    let first = reader.fill_buf().map_err(|e| format!("{name}: {e}"))?;
    let bcf = first.starts_with(b"BCF\x02");
    if !bcf {
        what_text(first, packing).map_err(|e| format!("{name}: {e}"))?;
    }
    let reader: Box<dyn BufRead> = if bcf {
        Box::new(BufReader::with_capacity(
            1 << 16,
            BcfBound::new(reader, rules.max_line),
        ))
    } else {
        Box::new(LineBound::new(reader, rules.max_line))
    };
    Ok(Input {
        reader,
        bcf,
        name: name.to_string(),
    })
}

/// The packing of a stream starting with `head` (its first 18 bytes, fewer when it is
/// shorter); `Err` for compressions varcat does not read.
fn packing(head: &[u8]) -> Result<Packing, String> {
    if head.starts_with(&[0x1f, 0x8b]) {
        // BGZF is gzip with an extra field whose first subfield is `BC`.
        let bgzf = head.len() >= 14 && head[3] & 4 != 0 && head[12..14] == *b"BC";
        return Ok(if bgzf { Packing::Bgzf } else { Packing::Gzip });
    }
    let other = [
        (&[0x28, 0xb5, 0x2f, 0xfd][..], "zstd"),
        (b"BZh", "bzip2"),
        (&[0xfd, b'7', b'z', b'X', b'Z', 0], "xz"),
        (&[b'P', b'K', 3, 4], "zip"),
    ];
    match other.iter().find(|(magic, _)| head.starts_with(magic)) {
        Some((_, what)) => Err(format!(
            "{what}-compressed: varcat reads VCF, BGZF (bgzip), gzip and BCF; decompress it \
             first, or recompress with bgzip"
        )),
        None => Ok(Packing::None),
    }
}

/// `Err` unless the decompressed stream starting with `first` is VCF text.
fn what_text(first: &[u8], packing: Packing) -> Result<(), String> {
    if first.starts_with(b"#") {
        return Ok(());
    }
    if first.starts_with(&[0xef, 0xbb, 0xbf]) {
        return Err(
            "starts with a byte-order mark (bytes EF BB BF) before ##fileformat: a VCF has \
             none; remove it (e.g. sed '1s/^\\xEF\\xBB\\xBF//')"
                .into(),
        );
    }
    if first.is_empty() {
        return Err("empty: no VCF header".into());
    }
    let shown: String = first
        .iter()
        .take(16)
        .flat_map(|&b| std::ascii::escape_default(b))
        .map(char::from)
        .collect();
    let inside = match packing {
        Packing::None => "",
        Packing::Bgzf => " (inside its BGZF compression)",
        Packing::Gzip => " (inside its gzip compression)",
    };
    Err(format!(
        "not VCF, BGZF or BCF: starts with \"{shown}\"{inside}, where a VCF starts with \
         ##fileformat and a BCF with BCF\\2"
    ))
}

/// True when the file at `path` ends in the BGZF end-of-file block.
fn ends_in_eof_block(path: &Path) -> io::Result<bool> {
    let mut f = File::open(path)?;
    if f.metadata()?.len() < BGZF_EOF.len() as u64 {
        return Ok(false);
    }
    f.seek(SeekFrom::End(-(BGZF_EOF.len() as i64)))?;
    let mut tail = [0u8; 28];
    f.read_exact(&mut tail)?;
    Ok(tail == BGZF_EOF)
}

/// What a missing end-of-file block does under `rules`: `Err`, or a warning.
fn missing_eof(name: &str, rules: Rules) -> Result<(), String> {
    if rules.allow_missing_eof {
        eprintln!(
            "varcat annotate: warning: {name}: no BGZF end-of-file block; read as complete \
             (--allow-missing-eof)"
        );
        return Ok(());
    }
    Err(format!(
        "{name}: no BGZF end-of-file block: the file is truncated (an interrupted download or \
         copy?); if its writer omits the block, --allow-missing-eof reads it as complete"
    ))
}

/// A stream's reader that, at its end, checks that the last bytes were the BGZF end-of-file
/// block (for standard input and pipes, which cannot be checked before reading).
struct TailCheck<R> {
    inner: R,
    tail: Vec<u8>,
    name: String,
    rules: Rules,
}

impl<R> TailCheck<R> {
    fn new(inner: R, name: &str, rules: Rules) -> TailCheck<R> {
        TailCheck {
            inner,
            tail: Vec::with_capacity(2 * BGZF_EOF.len()),
            name: name.to_string(),
            rules,
        }
    }
}

impl<R: Read> Read for TailCheck<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            if self.tail != BGZF_EOF {
                missing_eof(&self.name, self.rules).map_err(io::Error::other)?;
            }
            return Ok(0);
        }
        let got = &buf[..n];
        if got.len() >= BGZF_EOF.len() {
            self.tail.clear();
            self.tail
                .extend_from_slice(&got[got.len() - BGZF_EOF.len()..]);
        } else {
            self.tail.extend_from_slice(got);
            let excess = self.tail.len().saturating_sub(BGZF_EOF.len());
            self.tail.drain(..excess);
        }
        Ok(n)
    }
}

/// Says what an unexpected end inside a compressed block means.
struct Truncation<R>(R);

impl<R> Truncation<R> {
    fn explain(e: io::Error) -> io::Error {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the file ends inside a compressed block: it is truncated (an interrupted \
                 download or copy?)",
            )
        } else {
            e
        }
    }
}

impl<R: BufRead> Read for Truncation<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf).map_err(Self::explain)
    }
}

impl<R: BufRead> BufRead for Truncation<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.0.fill_buf().map_err(Self::explain)
    }

    fn consume(&mut self, n: usize) {
        self.0.consume(n)
    }
}

/// A text reader that refuses a line of more than `max` bytes (its newline aside): it passes
/// on no more of such a line than `max + 1` bytes, then errs, so that no reader above it holds
/// more and the error comes while that line is read (its line number is the one reported).
pub struct LineBound<R> {
    inner: R,
    max: usize,
    /// Bytes passed since the last newline.
    run: usize,
    /// How much of the inner buffer's front has been checked and may be passed on.
    ok: usize,
}

impl<R> LineBound<R> {
    /// Bounds the lines of `inner` to `max` bytes.
    pub fn new(inner: R, max: usize) -> LineBound<R> {
        LineBound {
            inner,
            max,
            run: 0,
            ok: 0,
        }
    }

    /// How much of `buf`, read after `run` bytes of a line, may pass: all of it, or up to the
    /// byte that takes a line past `max`.
    fn passable(buf: &[u8], mut run: usize, max: usize) -> usize {
        let mut at = 0;
        loop {
            let (len, newline) = match memchr::memchr(b'\n', &buf[at..]) {
                Some(j) => (j, true),
                None => (buf.len() - at, false),
            };
            if run + len > max {
                return at + (max + 1 - run);
            }
            if !newline {
                return buf.len();
            }
            (at, run) = (at + len + 1, 0);
        }
    }
}

impl<R: BufRead> Read for LineBound<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for LineBound<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.run > self.max {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "a line longer than --max-line ({} bytes); raise --max-line if it is real",
                    self.max
                ),
            ));
        }
        let buf = self.inner.fill_buf()?;
        if self.ok == 0 {
            self.ok = Self::passable(buf, self.run, self.max);
        }
        Ok(&buf[..self.ok.min(buf.len())])
    }

    fn consume(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        if let Ok(b) = self.inner.fill_buf() {
            let seen = &b[..n.min(b.len())];
            self.run = match memchr::memrchr(b'\n', seen) {
                Some(i) => seen.len() - i - 1,
                None => self.run + seen.len(),
            };
        }
        self.ok = self.ok.saturating_sub(n);
        self.inner.consume(n)
    }
}

/// A BCF stream's reader that checks each length field (the header's `l_text`, a record's
/// `l_shared + l_indiv`) against `max` before the bytes holding it pass on: noodles allocates
/// what the field says before reading it.
struct BcfBound<R> {
    inner: R,
    max: usize,
    /// Bytes of the part being passed on (magic, a body) still to pass.
    left: u64,
    /// A length field being gathered, then passed on.
    field: Vec<u8>,
    /// How much of `field` has passed on.
    given: usize,
    /// What the next length field is: 4 bytes of `l_text`, or 8 of a record's two lengths.
    next: usize,
}

impl<R> BcfBound<R> {
    fn new(inner: R, max: usize) -> BcfBound<R> {
        BcfBound {
            inner,
            max,
            // The magic `BCF\2\2`.
            left: 5,
            field: Vec::new(),
            given: 0,
            next: 4,
        }
    }
}

impl<R: Read> Read for BcfBound<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.left > 0 {
            let want = buf.len().min(self.left.min(usize::MAX as u64) as usize);
            let n = self.inner.read(&mut buf[..want])?;
            self.left -= n as u64;
            return Ok(n);
        }
        if self.given == self.field.len() {
            // A new length field: gathered whole and checked before any of it passes.
            self.field.clear();
            self.given = 0;
            let mut chunk = [0u8; 8];
            while self.field.len() < self.next {
                let n = self
                    .inner
                    .read(&mut chunk[..self.next - self.field.len()])?;
                if n == 0 {
                    break;
                }
                self.field.extend_from_slice(&chunk[..n]);
            }
            if self.field.len() == self.next {
                let u32_at = |i: usize| {
                    u64::from(u32::from_le_bytes([
                        self.field[i],
                        self.field[i + 1],
                        self.field[i + 2],
                        self.field[i + 3],
                    ]))
                };
                let (len, what) = if self.next == 4 {
                    (u32_at(0), "the BCF header")
                } else {
                    (u32_at(0) + u32_at(4), "a BCF record")
                };
                if len > self.max as u64 {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "{what} says it is {len} bytes, more than --max-line ({} bytes); \
                             raise --max-line if it is real",
                            self.max
                        ),
                    ));
                }
                self.left = len;
                self.next = 8;
            }
            // A short field (the end): passed on for the reader to see the stream end.
        }
        let n = buf.len().min(self.field.len() - self.given);
        buf[..n].copy_from_slice(&self.field[self.given..self.given + n]);
        self.given += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn bgzf(text: &[u8]) -> Vec<u8> {
        let mut w = bgzf::io::Writer::new(Vec::new());
        w.write_all(text).unwrap();
        w.finish().unwrap()
    }

    fn read_all(bytes: Vec<u8>, rules: Rules) -> Result<(bool, Vec<u8>), String> {
        let mut input = from_bytes(bytes, "in", rules)?;
        let mut out = Vec::new();
        input
            .reader
            .read_to_end(&mut out)
            .map_err(|e| e.to_string())?;
        Ok((input.bcf, out))
    }

    const VCF: &[u8] = b"##fileformat=VCFv4.2\n#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\n";

    #[test]
    fn test_bgzf_gzip_and_text_read_alike() {
        let gz = {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(&VCF[..10]).unwrap();
            let mut first = e.finish().unwrap();
            // Two gzip members, as `cat a.gz b.gz` writes.
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(&VCF[10..]).unwrap();
            first.extend(e.finish().unwrap());
            first
        };
        for bytes in [VCF.to_vec(), bgzf(VCF), gz] {
            assert_eq!(read_all(bytes, Rules::default()).unwrap().1, VCF);
        }
    }

    #[test]
    fn test_a_bgzf_stream_without_its_eof_block_is_refused_unless_allowed() {
        let whole = bgzf(VCF);
        let cut = whole[..whole.len() - BGZF_EOF.len()].to_vec();
        let e = read_all(cut.clone(), Rules::default()).unwrap_err();
        assert!(e.contains("no BGZF end-of-file block"), "{e}");
        let allow = Rules {
            allow_missing_eof: true,
            ..Rules::default()
        };
        assert_eq!(read_all(cut.clone(), allow).unwrap().1, VCF);
        // Cut inside the data block: truncated, whatever the rule.
        let e = read_all(cut[..cut.len() - 5].to_vec(), allow).unwrap_err();
        assert!(e.contains("truncated"), "{e}");
    }

    #[test]
    fn test_a_file_is_checked_before_it_is_read() {
        let dir = std::env::temp_dir().join(format!("varcat-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("cut.vcf.gz");
        let whole = bgzf(VCF);
        std::fs::write(&path, &whole[..whole.len() - 28]).unwrap();
        let e = open(&path, 1, Rules::default()).err().unwrap();
        assert!(
            e.starts_with(&format!("{}: no BGZF", path.display())),
            "{e}"
        );
        std::fs::write(&path, &whole).unwrap();
        assert!(open(&path, 1, Rules::default()).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn test_what_is_not_vcf_is_named() {
        let cases: [(&[u8], &str); 5] = [
            (b"\xef\xbb\xbf##fileformat=VCFv4.2\n", "byte-order mark"),
            (b"\x28\xb5\x2f\xfd\0\0", "zstd"),
            (b"BZh91AY", "bzip2"),
            (b"chr1\t1\t.\tA\tG\n", "not VCF, BGZF or BCF"),
            (b"", "empty"),
        ];
        for (bytes, want) in cases {
            let e = read_all(bytes.to_vec(), Rules::default()).unwrap_err();
            assert!(e.contains(want), "{want}: {e}");
        }
        assert!(
            read_all(bgzf(b"BCF\x02\x02\x00\x00\x00\x00"), Rules::default())
                .unwrap()
                .0
        );
    }

    #[test]
    fn test_a_line_over_the_bound_is_refused() {
        let rules = Rules {
            max_line: 100,
            ..Rules::default()
        };
        let mut long = VCF.to_vec();
        long.extend(std::iter::repeat_n(b'A', 1000));
        long.push(b'\n');
        let e = read_all(long.clone(), rules).unwrap_err();
        assert!(e.contains("--max-line"), "{e}");
        assert!(read_all(long, Rules::default()).is_ok());
        let mut input = from_bytes(VCF.repeat(100), "in", rules).unwrap();
        let mut line = Vec::new();
        while input.reader.read_until(b'\n', &mut line).unwrap() > 0 {
            line.clear();
        }
        // Exactly at the bound, and one over, within one buffer.
        for (len, ok) in [(100, true), (101, false)] {
            let mut text = VCF.to_vec();
            text.extend(std::iter::repeat_n(b'A', len));
            text.extend_from_slice(b"\nnext\n");
            let mut input = from_bytes(text, "in", rules).unwrap();
            let mut lines = Vec::new();
            let got = (0..4).try_for_each(|_| {
                let mut l = Vec::new();
                input
                    .reader
                    .read_until(b'\n', &mut l)
                    .map(|_| lines.push(l))
            });
            assert_eq!(got.is_ok(), ok, "{len}");
            if !ok {
                assert_eq!(lines.len(), 2, "the error comes at the long line");
                assert!(lines.iter().all(|l| l.len() <= 101));
            }
        }
    }

    #[test]
    fn test_bcf_lengths_over_the_bound_are_refused_before_they_pass() {
        let rules = Rules {
            max_line: 1000,
            ..Rules::default()
        };
        let bcf = |l_text: u32, rec: (u32, u32)| {
            let mut b = b"BCF\x02\x02".to_vec();
            b.extend(l_text.to_le_bytes());
            b.extend(std::iter::repeat_n(b'#', l_text as usize));
            b.extend(rec.0.to_le_bytes());
            b.extend(rec.1.to_le_bytes());
            let body = if rec.0 < 1000 { rec.0 + rec.1 } else { 0 };
            b.extend(std::iter::repeat_n(0u8, body as usize));
            bgzf(&b)
        };
        let (is_bcf, bytes) = read_all(bcf(10, (20, 30)), rules).unwrap();
        assert!(is_bcf);
        assert_eq!(bytes.len(), 5 + 4 + 10 + 8 + 50);
        let e = read_all(bcf(2000, (1, 1)), rules).unwrap_err();
        assert!(e.contains("the BCF header says it is 2000 bytes"), "{e}");
        let mut input = from_bytes(bcf(10, (u32::MAX, 1)), "in", rules).unwrap();
        let mut head = [0u8; 19];
        input.reader.read_exact(&mut head).unwrap();
        let mut lens = [0u8; 8];
        let e = input.reader.read_exact(&mut lens).unwrap_err();
        assert!(
            e.to_string()
                .contains("a BCF record says it is 4294967296 bytes"),
            "{e}"
        );
    }
}
