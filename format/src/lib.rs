//! The varcat catalog format: one immutable, checksummed file holding every collection of a
//! variant catalog with its indexes, read in place through a memory map.
//!
//! `FORMAT.md` beside this crate is the specification; each module documents its own section
//! layout. All integers are little-endian; sections start on 8-byte boundaries.
//!
//! Building blocks (each with a writer and a read view):
//! - [`fstmap`]: FST maps from identifiers and names to ordinals (and ordinal lists through
//!   [`postings`]); [`keys`] says how a collection's `_key`s are spelled in its key map;
//! - [`intervals`]: per-chromosome interval arrays with an implicit interval tree;
//! - [`points`]: per-chromosome sorted positions with fence tables;
//! - [`facets`]: roaring bitmaps for categorical filters;
//! - [`numbers`]: f64 columns for threshold filters;
//! - [`records`]: the record store (member lists of compact JSON values).
#![deny(missing_docs)]

/// The longest string an index takes, bytes (`_key`, `_from`, `_to` and every element of an
/// indexed member): an FST builder holds some hundred bytes of state per byte of the key it is
/// adding, so one 20 MB name took 2.8 GB whatever `--mem-budget` said. The builder refuses
/// longer ones, and the server looks up any identifier up to this length.
pub const MAX_INDEXED_BYTES: usize = 64 << 10;

pub mod adjacency;
pub mod arrays;
pub mod build;
pub mod bytes;
pub mod catalog;
pub mod chroms;
pub mod codebook;
pub mod collection;
pub mod error;
pub mod facets;
pub mod fstmap;
pub mod indexes;
pub mod intervals;
pub mod json_scan;
pub mod keylookup;
pub mod keys;
pub mod layout;
pub mod member_keys;
pub mod meta;
pub mod namemap;
pub mod numbers;
pub mod points;
pub mod postings;
pub mod readahead;
pub mod record;
pub mod records;
pub mod schema;
pub mod spool;
pub mod text;
pub mod vocab;
pub mod width;
pub mod writer;

pub use bytes::Bytes;
pub use catalog::Catalog;
pub use error::{ReadError, WriteError};
pub use keys::KeyEncoding;
pub use layout::FORMAT_VERSION;
pub use meta::{names, CollectionMeta, InputFile, Meta};
pub use writer::CatalogWriter;
