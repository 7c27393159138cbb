//! Input discovery and reading: a directory of `<collection>[.<part>].jsonl[.gz]` files, one
//! JSON document per line.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use xxhash_rust::xxh3::Xxh3;

use crate::error::BuildError;

/// One input file of a collection.
#[derive(Clone, Debug)]
pub struct InputFile {
    /// Collection name (the file name up to the first `.`).
    pub collection: String,
    /// Full path.
    pub path: PathBuf,
    /// File name.
    pub name: String,
    /// Size in bytes.
    pub bytes: u64,
    /// gzip-compressed.
    pub gz: bool,
}

/// Lists the collection files of `dir`, grouped by collection, parts in name order.
/// Other files (README, hidden files) are ignored.
pub fn discover(dir: &Path) -> Result<BTreeMap<String, Vec<InputFile>>, BuildError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| BuildError::io(format!("{}", dir.display()), e))?;
    let mut out: BTreeMap<String, Vec<InputFile>> = BTreeMap::new();
    for e in entries {
        let e = e.map_err(|e| BuildError::io(format!("{}", dir.display()), e))?;
        let name = e.file_name().to_string_lossy().into_owned();
        let (stem, gz) = if let Some(s) = name.strip_suffix(".jsonl.gz") {
            (s, true)
        } else if let Some(s) = name.strip_suffix(".jsonl") {
            (s, false)
        } else {
            continue;
        };
        if stem.starts_with('.') || stem.is_empty() {
            continue;
        }
        let collection = stem.split('.').next().unwrap_or(stem).to_string();
        let meta = e
            .metadata()
            .map_err(|err| BuildError::io(name.clone(), err))?;
        if !meta.is_file() {
            continue;
        }
        out.entry(collection.clone()).or_default().push(InputFile {
            collection,
            path: e.path(),
            name,
            bytes: meta.len(),
            gz,
        });
    }
    for parts in out.values_mut() {
        parts.sort_by(|a, b| a.name.cmp(&b.name));
    }
    Ok(out)
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

/// Reads the documents of one file line by line.
pub struct Lines {
    reader: Box<dyn BufRead>,
    hasher: Rc<RefCell<Xxh3>>,
    read: Rc<std::cell::Cell<u64>>,
    /// The file.
    pub path: PathBuf,
    /// Current 1-based line number.
    pub line: u64,
    buf: String,
}

impl Lines {
    /// Opens `file` for reading.
    pub fn open(file: &InputFile) -> Result<Lines, BuildError> {
        let f = File::open(&file.path)
            .map_err(|e| BuildError::io(file.path.display().to_string(), e))?;
        let hasher = Rc::new(RefCell::new(Xxh3::new()));
        let read = Rc::new(std::cell::Cell::new(0));
        let raw = Hashing {
            inner: f,
            hasher: hasher.clone(),
            read: read.clone(),
        };
        let reader: Box<dyn BufRead> = if file.gz {
            Box::new(BufReader::with_capacity(
                1 << 20,
                flate2::read::MultiGzDecoder::new(BufReader::new(raw)),
            ))
        } else {
            Box::new(BufReader::with_capacity(1 << 20, raw))
        };
        Ok(Lines {
            reader,
            hasher,
            read,
            path: file.path.clone(),
            line: 0,
            buf: String::new(),
        })
    }

    /// The next line (without its line end) with its 1-based number; `None` at end of file.
    pub fn next_line(&mut self) -> Result<Option<(u64, &str)>, BuildError> {
        self.buf.clear();
        let n = self.reader.read_line(&mut self.buf).map_err(|e| {
            if e.kind() == io::ErrorKind::InvalidData {
                BuildError::Input {
                    file: self.path.clone(),
                    line: self.line + 1,
                    reason: "line is not valid UTF-8 (or the gzip stream is corrupt)".into(),
                }
            } else {
                BuildError::io(self.path.display().to_string(), e)
            }
        })?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        Ok(Some((self.line, self.buf.trim_end_matches(['\n', '\r']))))
    }

    /// Raw (compressed) bytes of the file consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.read.get()
    }

    /// The xxh3 of the raw file bytes; reads whatever is left first.
    pub fn finish(mut self) -> u64 {
        let mut sink = Vec::new();
        let _ = self.reader.read_to_end(&mut sink);
        let d = self.hasher.borrow().digest();
        d
    }
}

/// Replaces the bare tokens `NaN`, `Infinity` and `-Infinity` outside strings (Python's
/// `json.dumps` writes them; JSON has no such values) by `null`; returns how many were replaced.
pub fn fix_non_finite(line: &str) -> Option<(String, u64)> {
    if !(line.contains("NaN") || line.contains("Infinity")) {
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
