//! What the command-line tools write and how, so that no mistake and no failure destroys data:
//!
//! - [`distinct`]: an output that is one of the command's inputs (the same file, or the same
//!   path once resolved) is refused before anything is opened for writing;
//! - [`staged`]: a file or directory is written under a temporary name beside its destination
//!   and renamed into place only when complete; dropped before that, it is removed;
//! - [`interrupt`]: what a running command has on disk, removed when it is stopped by a signal.
#![deny(missing_docs)]

pub mod distinct;
pub mod interrupt;
pub mod staged;

pub use distinct::check_distinct;
pub use staged::{Staged, StagedDir};
