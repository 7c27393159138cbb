//! Builds a varcat catalog from a directory of IGVF Catalog collections (JSON Lines, one
//! document per line, optionally gzip-compressed).
//!
//! The build is deterministic (same input, same bytes), memory-bounded (external sort/merge
//! within `--mem-budget`, whatever the input size) and atomic (a temporary file renamed into
//! place). [`schema`] says what is stored (the shared `varcat_format::schema`) and holds the
//! build-time joins beside the collections they serve; [`derive`](mod@derive) is what those
//! joins work with.

#![forbid(unsafe_code)]

pub mod build;
pub mod collection;
pub mod derive;
pub mod doc;
pub mod duplicates;
pub mod error;
pub mod input;
pub use varcat_outfile::interrupt;
pub mod normalize;
pub mod plan;
pub use varcat_format::build::parallel;
pub mod progress;
pub mod report;
pub mod schema;
pub mod sorter;
pub mod sortkey;
pub mod validate;

pub use build::{build, Options, DEFAULT_MEM_BUDGET};
pub use duplicates::OnDuplicate;
pub use error::BuildError;
pub use plan::LoadPlan;
pub use report::Report;
