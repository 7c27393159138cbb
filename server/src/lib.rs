//! varcat-server: the HTTP service over the query library (`varcat-query`): a read-only
//! query service for a genomic variant catalog, answering the IGVF Catalog's query interface
//! from one memory-mapped catalog file (read through `varcat-format`; this crate never links
//! the indexer).
//!
//! Request path: [`server`] (tiny_http; each request answered on its connection's thread, admitted by
//! [`slots`], its answer formatted by [`wire`]) →
//! [`http`] (one request in, one response out: status, headers, gzip, ETag) → the query
//! library (route, parameters, handler, JSON; TSV rows and paging links) → back out through
//! [`http`]; POST batches stream through [`batch`]. The [`pages`] (OpenAPI, landing page,
//! region viewer) and the MCP server ([`mcp`]) sit beside the endpoints.

pub mod access_log;
pub mod batch;
pub mod cors;
pub mod http;
pub mod mcp;
pub mod pages;
pub mod server;
pub mod slots;
pub mod sys;
pub mod watch;
pub mod wire;
