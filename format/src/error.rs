//! Errors of reading and writing catalogs.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why a catalog (or one of its sections) could not be read.
///
/// Every structural problem of an untrusted file maps to one of these; no input makes the
/// reader panic or read out of bounds.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// The file could not be opened or mapped.
    Io {
        /// The catalog path.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The file (or a section) is shorter than its structure says.
    Truncated {
        /// What was being read.
        what: String,
    },
    /// The file does not start (or end) with the catalog magic.
    BadMagic,
    /// The file was written by another format version.
    VersionMismatch {
        /// The version this build reads.
        expected: u32,
        /// The version in the file.
        got: u32,
    },
    /// A section's bytes do not match the checksum in the section table.
    ChecksumMismatch {
        /// Section name (or "section table").
        section: String,
        /// Checksum recorded at build time.
        expected: u64,
        /// Checksum of the bytes now.
        got: u64,
    },
    /// A section the reader needs is absent.
    MissingSection(String),
    /// A section's content is inconsistent.
    Invalid {
        /// Section name.
        section: String,
        /// What is wrong.
        what: String,
    },
}

impl ReadError {
    pub(crate) fn invalid(section: &str, what: impl Into<String>) -> ReadError {
        ReadError::Invalid {
            section: section.to_string(),
            what: what.into(),
        }
    }
    pub(crate) fn truncated(what: impl Into<String>) -> ReadError {
        ReadError::Truncated { what: what.into() }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io { path, source } => write!(f, "{}: {}", path.display(), source),
            ReadError::Truncated { what } => write!(f, "catalog is truncated: {what}"),
            ReadError::BadMagic => write!(f, "not a varcat catalog (bad magic number)"),
            ReadError::VersionMismatch { expected, got } => write!(
                f,
                "catalog format version {got}, this build reads version {expected}: \
                 rebuild the catalog with this version of varcat"
            ),
            ReadError::ChecksumMismatch { section, expected, got } => write!(
                f,
                "catalog is corrupt: checksum of section {section} is {got:016x}, expected {expected:016x}"
            ),
            ReadError::MissingSection(name) => write!(f, "catalog lacks section {name}"),
            ReadError::Invalid { section, what } => {
                write!(f, "catalog is corrupt: section {section}: {what}")
            }
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Why a catalog could not be written.
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteError {
    /// Writing the file failed.
    Io(io::Error),
    /// The FST builder refused a key (out of order or duplicate).
    Fst {
        /// Section being built.
        section: String,
        /// The builder's error.
        source: fst::Error,
    },
    /// The input does not fit the format (a documented ceiling was exceeded, keys out of order…).
    Invalid(String),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Io(e) => write!(f, "writing catalog: {e}"),
            WriteError::Fst { section, source } => {
                write!(f, "building section {section}: {source}")
            }
            WriteError::Invalid(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Io(e) => Some(e),
            WriteError::Fst { source, .. } => Some(source),
            WriteError::Invalid(_) => None,
        }
    }
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}
