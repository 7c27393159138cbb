//! Input discovery and reading: a directory of collections (flat `<collection>[.<part>].jsonl[.gz]`
//! files, or one folder per collection), one JSON document per line.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::OnceLock;

use memchr::memmem;
use xxhash_rust::xxh3::Xxh3;

use crate::duplicates::OnDuplicate;
use crate::error::BuildError;

/// One input file of a collection.
#[derive(Clone, Debug)]
pub struct InputFile {
    /// Collection name (the folder's name, or the file name up to its first `.`).
    pub collection: String,
    /// Full path.
    pub path: PathBuf,
    /// Name relative to the input directory (`genes.jsonl`, `variants/favor_chr1.jsonl`).
    pub name: String,
    /// Name within its collection, what a load plan's patterns match: the file name in a
    /// collection folder, the whole file name in the flat layout.
    pub part: String,
    /// Size in bytes.
    pub bytes: u64,
    /// gzip-compressed.
    pub gz: bool,
    /// What its documents do when their `_key` is already loaded.
    pub on_duplicate: OnDuplicate,
}

/// The collection files of an input directory, by collection, in load order.
pub type Inputs = BTreeMap<String, Vec<InputFile>>;

/// Lists the collection files of `dir`, grouped by collection, in load order (byte order of
/// their names). Two layouts, mixed as one likes: flat files `<collection>[.<part>].jsonl[.gz]`,
/// and one folder per collection whose `.jsonl` and `.jsonl.gz` files are its parts (one level,
/// as IGVF's adapters and bucket lay them out). Hidden names and READMEs are ignored, as are
/// other top-level files; a folder that is not a collection varcat builds is listed with no
/// parts (the build reports it skipped) and not read. Inside a collection folder anything but
/// its parts is an error naming it: a `.json`, `.bz2`, `.zst` or `.xz` file, or a folder, would
/// otherwise be a part silently missing.
pub fn discover(dir: &Path) -> Result<Inputs, BuildError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| BuildError::io(format!("{}", dir.display()), e))?;
    let mut flat: Inputs = BTreeMap::new();
    let mut folders: Inputs = BTreeMap::new();
    for e in entries {
        let e = e.map_err(|e| BuildError::io(format!("{}", dir.display()), e))?;
        let name = e.file_name().to_string_lossy().into_owned();
        if ignored(&name) {
            continue;
        }
        // Followed through symbolic links: an input directory of links to the real files or
        // folders (a shared data area) is a common way to assemble one.
        if std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir()) {
            let parts = if crate::schema::spec(&name).is_some() {
                read_folder(&name, &e.path())?
            } else {
                Vec::new()
            };
            folders.insert(name, parts);
            continue;
        }
        let Some((stem, gz)) = jsonl_stem(&name) else {
            continue;
        };
        let collection = stem.split('.').next().unwrap_or(stem).to_string();
        let file = part(&collection, e.path(), name.clone(), name, gz)?;
        flat.entry(collection).or_default().push(file);
    }
    for (c, parts) in folders {
        if let Some(files) = flat.get(&c) {
            // Which would load first is nobody's guess: refused rather than chosen.
            return Err(BuildError::Usage(format!(
                "{}: collection {c} is both a folder and flat files ({}); keep one layout per collection",
                dir.join(&c).display(),
                files[0].name
            )));
        }
        flat.insert(c, parts);
    }
    for parts in flat.values_mut() {
        parts.sort_by(|a, b| a.part.cmp(&b.part));
    }
    Ok(flat)
}

/// Names the discovery skips: hidden ones and READMEs.
fn ignored(name: &str) -> bool {
    name.starts_with('.') || name.to_ascii_lowercase().starts_with("readme")
}

/// The name without `.jsonl` or `.jsonl.gz`, and whether it is gzipped; None for other names.
fn jsonl_stem(name: &str) -> Option<(&str, bool)> {
    let (stem, gz) = if let Some(s) = name.strip_suffix(".jsonl.gz") {
        (s, true)
    } else {
        (name.strip_suffix(".jsonl")?, false)
    };
    (!stem.is_empty()).then_some((stem, gz))
}

/// An input file of `collection` at `path`.
fn part(
    collection: &str,
    path: PathBuf,
    name: String,
    part: String,
    gz: bool,
) -> Result<InputFile, BuildError> {
    let meta = std::fs::metadata(&path).map_err(|err| BuildError::io(name.clone(), err))?;
    if !meta.is_file() {
        return Err(BuildError::Usage(format!(
            "{}: not a regular file",
            path.display()
        )));
    }
    Ok(InputFile {
        collection: collection.to_string(),
        path,
        name,
        part,
        bytes: meta.len(),
        gz,
        on_duplicate: OnDuplicate::default(),
    })
}

/// The parts of collection folder `dir`.
fn read_folder(collection: &str, dir: &Path) -> Result<Vec<InputFile>, BuildError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| BuildError::io(format!("{}", dir.display()), e))?;
    let mut parts = Vec::new();
    for e in entries {
        let e = e.map_err(|e| BuildError::io(format!("{}", dir.display()), e))?;
        let name = e.file_name().to_string_lossy().into_owned();
        if ignored(&name) {
            continue;
        }
        let path = e.path();
        let refuse = |why: &str| {
            Err(BuildError::Usage(format!(
                "{}: {why} in collection folder {collection}/ (its parts are .jsonl and .jsonl.gz files)",
                path.display()
            )))
        };
        if std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
            return refuse("a folder (collection folders are one level)");
        }
        let Some((_, gz)) = jsonl_stem(&name) else {
            let why = match name.rsplit_once('.').map(|(_, ext)| ext) {
                Some("json") => "a .json file (one JSON document, not JSON Lines)",
                Some("bz2" | "zst" | "xz") => {
                    "a bzip2, zstd or xz file (recompress it with gzip, or decompress it)"
                }
                _ => "not a .jsonl or .jsonl.gz file",
            };
            return refuse(why);
        };
        parts.push(part(
            collection,
            path,
            format!("{collection}/{name}"),
            name,
            gz,
        )?);
    }
    if parts.is_empty() {
        return Err(BuildError::Usage(format!(
            "{}: collection folder {collection}/ holds no .jsonl or .jsonl.gz file",
            dir.display()
        )));
    }
    Ok(parts)
}

/// Hashes the raw file bytes as they are read (before decompression).
struct Hashing {
    inner: File,
    hasher: Rc<RefCell<Xxh3>>,
    read: Rc<std::cell::Cell<u64>>,
}

impl Read for Hashing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.borrow_mut().update(&buf[..n]);
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

/// Reads a file a block of whole lines at a time. The reading thread only moves bytes and
/// counts line ends; splitting lines and checking UTF-8 are left to whoever parses the block
/// (reading line by line, with a check and two copies per line, was a fifth of the reading
/// thread's time).
pub struct Lines {
    reader: Box<dyn Read>,
    hasher: Rc<RefCell<Xxh3>>,
    read: Rc<std::cell::Cell<u64>>,
    /// The file.
    pub path: PathBuf,
    /// Lines handed out so far.
    lines: u64,
    /// The longest line accepted, bytes (without its line end).
    max_line: usize,
    /// The start of a line whose end has not been read yet.
    carry: Vec<u8>,
    eof: bool,
}

/// Whole lines of a file, as read.
pub struct Block {
    /// The lines, each ended by `\n` except perhaps the file's last.
    pub text: Vec<u8>,
    /// The 1-based number of the block's first line.
    pub first_line: u64,
}

impl Block {
    /// The lines with their 1-based numbers, without their line ends (`\n`, `\r\n`).
    pub fn lines(&self) -> impl Iterator<Item = (u64, &[u8])> {
        let text = &self.text[..];
        let body = text.strip_suffix(b"\n").unwrap_or(text);
        (!text.is_empty())
            .then(|| body.split(|&b| b == b'\n'))
            .into_iter()
            .flatten()
            .zip(self.first_line..)
            .map(|(l, n)| {
                let end = l.iter().rposition(|&b| b != b'\r').map_or(0, |i| i + 1);
                (n, &l[..end])
            })
    }
}

impl Lines {
    /// Opens `file` for reading; a line longer than `max_line` bytes is an error.
    pub fn open(file: &InputFile, max_line: usize) -> Result<Lines, BuildError> {
        let f = File::open(&file.path)
            .map_err(|e| BuildError::io(file.path.display().to_string(), e))?;
        let hasher = Rc::new(RefCell::new(Xxh3::new()));
        let read = Rc::new(std::cell::Cell::new(0));
        let raw = Hashing {
            inner: f,
            hasher: hasher.clone(),
            read: read.clone(),
        };
        // Blocks are read straight into their buffers: only the compressed side is buffered.
        let reader: Box<dyn Read> = if file.gz {
            Box::new(flate2::read::MultiGzDecoder::new(BufReader::with_capacity(
                1 << 16,
                raw,
            )))
        } else {
            Box::new(raw)
        };
        Ok(Lines {
            reader,
            hasher,
            read,
            path: file.path.clone(),
            lines: 0,
            max_line,
            carry: Vec::new(),
            eof: false,
        })
    }

    /// The next block of at least `size` bytes of whole lines (fewer at the end of the file,
    /// more when a line is longer); `None` at end of file. A line longer than the limit is an
    /// error naming it, found before more than the limit and a block are held: an endless line
    /// (a gzip bomb inflates to one) would otherwise be read whole into memory.
    pub fn next_block(&mut self, size: usize) -> Result<Option<Block>, BuildError> {
        let mut text = Vec::with_capacity(size + self.carry.len() + (size >> 3));
        text.append(&mut self.carry);
        let mut searched = 0;
        let end = loop {
            if text.len() >= size || self.eof {
                // The last line end, searching only bytes not searched before.
                if let Some(i) = text[searched..].iter().rposition(|&b| b == b'\n') {
                    break searched + i + 1;
                }
                if self.eof {
                    break text.len();
                }
                // No line end yet: the text is the start of one line.
                if line_len(&text) > self.max_line {
                    return Err(self.too_long(self.lines + 1));
                }
                searched = text.len();
            }
            // A line with no end in sight is read only up to one byte past the limit (and a
            // `\r`).
            let mut want = size.max(text.len() >> 1);
            if searched > 0 {
                want = want
                    .min(self.max_line.saturating_add(2) - text.len())
                    .max(1);
            }
            let n = self
                .reader
                .by_ref()
                .take(want as u64)
                .read_to_end(&mut text)
                .map_err(|e| self.read_error(e))?;
            self.eof = n == 0;
        };
        self.carry = text.split_off(end);
        if text.is_empty() {
            return Ok(None);
        }
        let first_line = self.lines + 1;
        // Counting line ends, and finding the first line over the limit in the same pass.
        let (mut count, mut start, mut long) = (0u64, 0usize, None);
        for i in memchr::memchr_iter(b'\n', &text) {
            if long.is_none() && line_len(&text[start..i]) > self.max_line {
                long = Some(first_line + count);
            }
            count += 1;
            start = i + 1;
        }
        if long.is_none() && start < text.len() && line_len(&text[start..]) > self.max_line {
            long = Some(first_line + count);
        }
        if let Some(line) = long {
            return Err(self.too_long(line));
        }
        self.lines += count;
        if !text.ends_with(b"\n") {
            self.lines += 1;
        }
        Ok(Some(Block { text, first_line }))
    }

    fn too_long(&self, line: u64) -> BuildError {
        BuildError::Input {
            file: self.path.clone(),
            line,
            reason: format!(
                "line longer than {} bytes (the limit; --max-line raises it)",
                self.max_line
            ),
        }
    }

    fn read_error(&self, e: io::Error) -> BuildError {
        if matches!(
            e.kind(),
            io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput
        ) {
            BuildError::Input {
                file: self.path.clone(),
                line: self.lines + 1,
                reason: format!("the gzip stream is corrupt: {e}"),
            }
        } else {
            BuildError::io(self.path.display().to_string(), e)
        }
    }

    /// Raw (compressed) bytes of the file consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.read.get()
    }

    /// The xxh3 of the raw file bytes; reads whatever is left first.
    pub fn finish(mut self) -> u64 {
        let _ = io::copy(&mut self.reader, &mut io::sink());
        let d = self.hasher.borrow().digest();
        d
    }
}

/// A line's length without a final `\r` (what [`Block::lines`] hands out).
fn line_len(line: &[u8]) -> usize {
    line.len() - usize::from(line.ends_with(b"\r"))
}

/// Replaces the bare tokens `NaN`, `Infinity` and `-Infinity` outside strings (Python's
/// `json.dumps` writes them; JSON has no such values) by `null`; returns how many were replaced.
pub fn fix_non_finite(line: &str) -> Option<(String, u64)> {
    // Every line is searched: memchr's vectorised finders, built once (`str::contains` was
    // 0.5 % of a build).
    static NAN: OnceLock<memmem::Finder<'static>> = OnceLock::new();
    static INFINITY: OnceLock<memmem::Finder<'static>> = OnceLock::new();
    let has = |f: &OnceLock<memmem::Finder<'static>>, t: &'static str| {
        f.get_or_init(|| memmem::Finder::new(t))
            .find(line.as_bytes())
            .is_some()
    };
    if !(has(&NAN, "NaN") || has(&INFINITY, "Infinity")) {
        return None;
    }
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let (mut i, mut in_str, mut n, mut last) = (0, false, 0u64, 0);
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        if c == b'"' {
            in_str = true;
            i += 1;
            continue;
        }
        let rest = &line[i..];
        let tok = ["-Infinity", "Infinity", "NaN"]
            .into_iter()
            .find(|t| rest.starts_with(t));
        if let Some(t) = tok {
            out.push_str(&line[last..i]);
            out.push_str("null");
            i += t.len();
            last = i;
            n += 1;
            continue;
        }
        i += 1;
    }
    if n == 0 {
        return None;
    }
    out.push_str(&line[last..]);
    Some((out, n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every line of `path` with its number, read in blocks of `size`.
    fn read_all(path: &Path, gz: bool, size: usize) -> Result<Vec<(u64, Vec<u8>)>, BuildError> {
        read_limited(path, gz, size, 1 << 20)
    }

    /// Every line of `path`, refusing lines over `max` bytes.
    fn read_limited(
        path: &Path,
        gz: bool,
        size: usize,
        max: usize,
    ) -> Result<Vec<(u64, Vec<u8>)>, BuildError> {
        let bytes = std::fs::metadata(path).unwrap().len();
        let file = InputFile {
            collection: "t".into(),
            name: "t".into(),
            part: "t".into(),
            on_duplicate: OnDuplicate::default(),
            path: path.to_path_buf(),
            bytes,
            gz,
        };
        let mut lines = Lines::open(&file, max)?;
        let mut out = Vec::new();
        while let Some(b) = lines.next_block(size)? {
            out.extend(b.lines().map(|(n, l)| (n, l.to_vec())));
        }
        assert_eq!(lines.bytes_read(), bytes);
        Ok(out)
    }

    fn temp(name: &str, bytes: &[u8]) -> PathBuf {
        let p = std::env::temp_dir().join(format!("varcat-input-{}-{name}", std::process::id()));
        std::fs::write(&p, bytes).unwrap();
        p
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Blocks of any size give the file's lines, numbered from 1, without their `\n` or
        /// `\r\n`, with or without a final line end, plain or gzipped.
        #[test]
        fn prop_blocks_give_every_line_once(lines in prop::collection::vec("[a-c\r é]{0,12}", 0..40), final_end in any::<bool>(), size in 1usize..48, gz in any::<bool>()) {
            let mut text = lines.join("\n").into_bytes();
            if final_end && !lines.is_empty() {
                text.push(b'\n');
            }
            let stored = if gz {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                std::io::Write::write_all(&mut e, &text).unwrap();
                e.finish().unwrap()
            } else {
                text.clone()
            };
            let path = temp(&format!("prop-{size}-{gz}"), &stored);
            let got = read_all(&path, gz, size).unwrap();
            let _ = std::fs::remove_file(&path);
            let want: Vec<(u64, Vec<u8>)> = if text.is_empty() {
                Vec::new()
            } else {
                let body = text.strip_suffix(b"\n").unwrap_or(&text);
                body.split(|&b| b == b'\n')
                    .zip(1u64..)
                    .map(|(l, n)| {
                        let s = std::str::from_utf8(l).unwrap().trim_end_matches('\r');
                        (n, s.as_bytes().to_vec())
                    })
                    .collect()
            };
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn test_discover_follows_symbolic_links() {
        let base = std::env::temp_dir().join(format!("varcat-discover-{}", std::process::id()));
        let (real, dir) = (base.join("real"), base.join("in"));
        std::fs::create_dir_all(&real).unwrap();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(real.join("genes.jsonl"), "{\"_key\": \"g\"}\n").unwrap();
        std::os::unix::fs::symlink(real.join("genes.jsonl"), dir.join("genes.jsonl")).unwrap();
        let found = discover(&dir).unwrap();
        assert_eq!(found["genes"].len(), 1);
        assert_eq!(found["genes"][0].bytes, 14);
        // A link to nothing stops the build naming it, rather than being skipped silently.
        std::os::unix::fs::symlink(real.join("gone.jsonl"), dir.join("drugs.jsonl")).unwrap();
        let err = discover(&dir).unwrap_err().to_string();
        assert!(err.contains("drugs.jsonl"), "{err}");
        std::fs::remove_dir_all(&base).unwrap();
    }

    /// A fresh directory for a discovery test, with `files` (path → text) written.
    fn tree(name: &str, files: &[&str]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("varcat-layout-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for f in files {
            let p = dir.join(f);
            if f.ends_with('/') {
                std::fs::create_dir_all(&p).unwrap();
            } else {
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(&p, "{\"_key\": \"x\"}\n").unwrap();
            }
        }
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Collection folders beside flat files: a folder's parts in byte order of their names,
    /// named `<collection>/<file>`; hidden files and READMEs skipped at both levels; a folder
    /// varcat builds nothing from listed with no parts and not read.
    #[test]
    fn test_discover_reads_flat_files_and_collection_folders() {
        let dir = tree(
            "mixed",
            &[
                "genes.jsonl",
                "genes.b.jsonl.gz",
                "README.md",
                ".hidden.jsonl",
                "notes.txt",
                "variants/favor_chr2.jsonl",
                "variants/Favor_chr1.jsonl.gz",
                "variants/a_chr10.jsonl",
                "variants/.part.jsonl.tmp",
                "variants/README",
                "variants/readme.txt",
                "not_a_collection/anything.bz2",
                ".cache/x.json",
            ],
        );
        let found = discover(&dir).unwrap();
        let names = |c: &str| -> Vec<(String, String, bool)> {
            found[c]
                .iter()
                .map(|f| (f.name.clone(), f.part.clone(), f.gz))
                .collect()
        };
        assert_eq!(
            names("genes"),
            [
                ("genes.b.jsonl.gz".into(), "genes.b.jsonl.gz".into(), true),
                ("genes.jsonl".into(), "genes.jsonl".into(), false),
            ]
        );
        assert_eq!(
            names("variants"),
            [
                (
                    "variants/Favor_chr1.jsonl.gz".into(),
                    "Favor_chr1.jsonl.gz".into(),
                    true
                ),
                (
                    "variants/a_chr10.jsonl".into(),
                    "a_chr10.jsonl".into(),
                    false
                ),
                (
                    "variants/favor_chr2.jsonl".into(),
                    "favor_chr2.jsonl".into(),
                    false
                ),
            ]
        );
        assert!(found["not_a_collection"].is_empty());
        assert_eq!(found.len(), 3, "{:?}", found.keys());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Inside a collection folder, anything but its parts is an error naming it; so are a
    /// collection given both ways and an empty collection folder.
    #[test]
    fn test_discover_refuses_what_a_collection_folder_must_not_hold() {
        for (i, (files, named, why)) in [
            (
                &["variants/a.jsonl", "variants/b.json"][..],
                "variants/b.json",
                "a .json file",
            ),
            (
                &["variants/a.jsonl.bz2"][..],
                "variants/a.jsonl.bz2",
                "bzip2, zstd or xz",
            ),
            (
                &["genes/a.jsonl", "genes/a.jsonl.zst"][..],
                "genes/a.jsonl.zst",
                "bzip2, zstd or xz",
            ),
            (
                &["genes/a.jsonl", "genes/b.xz"][..],
                "genes/b.xz",
                "bzip2, zstd or xz",
            ),
            (
                &["genes/a.jsonl", "genes/chr1/a.jsonl"][..],
                "genes/chr1",
                "a folder",
            ),
            (
                &["genes/a.jsonl", "genes/a.csv"][..],
                "genes/a.csv",
                "not a .jsonl",
            ),
            (
                &["genes/README.md", "genes/.x.jsonl"][..],
                "genes",
                "holds no .jsonl",
            ),
            (&["genes/"][..], "genes", "holds no .jsonl"),
            (
                &["genes/a.jsonl", "genes.jsonl"][..],
                "genes",
                "both a folder and flat files",
            ),
        ]
        .into_iter()
        .enumerate()
        {
            let dir = tree(&format!("bad{i}"), files);
            let err = discover(&dir).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("{}:", dir.join(named).display())) && err.contains(why),
                "{files:?}: {err}"
            );
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[test]
    fn test_corrupt_gzip_names_the_file_and_line() {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut e, "{\"a\": 1}\n".repeat(5000).as_bytes()).unwrap();
        let mut gz = e.finish().unwrap();
        let mid = gz.len() / 2;
        gz[mid..mid + 16].fill(0xff);
        let path = temp("corrupt.jsonl.gz", &gz);
        let err = read_all(&path, true, 1 << 10).unwrap_err();
        let _ = std::fs::remove_file(&path);
        let BuildError::Input { file, reason, .. } = err else {
            panic!("not an input error: {err}");
        };
        assert_eq!(file, path);
        assert!(reason.contains("gzip"), "{reason}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Whatever the block size, a line longer than the limit is refused naming its number,
        /// and lines up to the limit are read.
        #[test]
        fn prop_line_limit(lens in prop::collection::vec(0usize..40, 1..12), max in 1usize..30, size in 1usize..48, crlf in any::<bool>()) {
            let end = if crlf { "\r\n" } else { "\n" };
            let text: String = lens.iter().map(|&n| "x".repeat(n) + end).collect();
            let path = temp(&format!("limit-{max}-{size}-{crlf}"), text.as_bytes());
            let got = read_limited(&path, false, size, max);
            let _ = std::fs::remove_file(&path);
            match lens.iter().position(|&n| n > max) {
                None => prop_assert_eq!(got.unwrap().len(), lens.len()),
                Some(i) => match got {
                    Err(BuildError::Input { line, reason, .. }) => {
                        prop_assert_eq!(line, i as u64 + 1);
                        prop_assert!(reason.contains("line longer than"), "{}", reason);
                    }
                    other => prop_assert!(false, "{:?}", other.map(|x| x.len())),
                },
            }
        }
    }

    /// An endless line (here 64 MiB of one line, gzipped to a few KB) stops the read with the
    /// line's number once the limit is passed, having inflated little more than the limit.
    #[test]
    fn test_endless_gzip_line_is_cut_at_the_limit() {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut e, b"{\"_key\": \"a\"}\n").unwrap();
        let chunk = vec![b'a'; 1 << 20];
        for _ in 0..64 {
            std::io::Write::write_all(&mut e, &chunk).unwrap();
        }
        let gz = e.finish().unwrap();
        let path = temp("endless.jsonl.gz", &gz);
        let file = InputFile {
            collection: "t".into(),
            name: "t".into(),
            part: "t".into(),
            on_duplicate: OnDuplicate::default(),
            path: path.clone(),
            bytes: gz.len() as u64,
            gz: true,
        };
        let mut lines = Lines::open(&file, 1 << 20).unwrap();
        let mut held = 0;
        let err = loop {
            match lines.next_block(1 << 16) {
                Ok(Some(b)) => held = held.max(b.text.capacity()),
                Ok(None) => panic!("the endless line was accepted"),
                Err(e) => break e,
            }
        };
        let _ = std::fs::remove_file(&path);
        assert!(
            err.to_string()
                .ends_with(":2: line longer than 1048576 bytes (the limit; --max-line raises it)"),
            "{err}"
        );
        assert!(held < 1 << 20);
    }

    #[test]
    fn test_fix_non_finite() {
        let (s, n) =
            fix_non_finite(r#"{"a": NaN, "b": "NaN", "c": [Infinity, -Infinity], "d": "x\"NaN"}"#)
                .unwrap();
        assert_eq!(
            s,
            r#"{"a": null, "b": "NaN", "c": [null, null], "d": "x\"NaN"}"#
        );
        assert_eq!(n, 3);
        assert!(fix_non_finite(r#"{"a": "NaN"}"#).is_none());
        assert!(fix_non_finite(r#"{"a": 1}"#).is_none());
    }
}
