//! Build errors. Input problems carry `file:line`.

use std::fmt;
use std::io;
use std::path::PathBuf;

use varcat_format::WriteError;

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// A malformed input document: `file:line: reason`.
    Input {
        /// Input file.
        file: PathBuf,
        /// 1-based line number.
        line: u64,
        /// What is wrong.
        reason: String,
    },
    /// Reading or writing failed.
    Io {
        /// What was being done.
        context: String,
        /// The error.
        source: io::Error,
    },
    /// Writing the catalog failed.
    Write(WriteError),
    /// A bad option or input layout.
    Usage(String),
}

impl BuildError {
    pub(crate) fn io(context: impl Into<String>, source: io::Error) -> BuildError {
        BuildError::Io {
            context: context.into(),
            source,
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Input { file, line, reason } => {
                write!(f, "{}:{line}: {reason}", file.display())
            }
            BuildError::Io { context, source } => write!(f, "{context}: {source}"),
            BuildError::Write(e) => write!(f, "{e}"),
            BuildError::Usage(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for BuildError {}

impl From<WriteError> for BuildError {
    fn from(e: WriteError) -> Self {
        BuildError::Write(e)
    }
}

impl From<io::Error> for BuildError {
    fn from(e: io::Error) -> Self {
        BuildError::Io {
            context: "build".into(),
            source: e,
        }
    }
}
