//! varcat-server: a read-only query service for a genomic variant catalog, answering the IGVF
//! Catalog's query interface from one memory-mapped catalog file (read through
//! `varcat-format`; this crate never links the indexer).
//!
//! Request path: [`query`] (raw query string) → [`params`] (typed per endpoint, from the
//! [`api`] table) → handler ([`api`], composing [`engine`] primitives) → [`shape`] (JSON by byte
//! copies) → [`http`] (status, headers, gzip, ETag; [`link`] paging links, [`tsv`] rows) → [`server`] (tiny_http; each request
//! answered on its connection's thread).

pub mod access_log;
pub mod api;
pub mod batch;
pub mod cors;
pub mod engine;
pub mod error;
pub mod http;
pub mod landing;
pub mod link;
pub mod mcp;
pub mod openapi;
pub mod params;
pub mod parse;
pub mod query;
pub mod server;
pub mod shape;
pub mod sys;
pub mod tsv;
pub mod view;
pub mod watch;
