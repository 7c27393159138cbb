//! varcat-query: a catalog and a request in, an answer out, with no HTTP. The endpoint table
//! ([`api`], one module per path under `api/`, each an [`endpoint::Endpoint`]), parameter
//! checking ([`query`] raw pairs → [`params`], values through [`parse`]), the handlers'
//! building blocks ([`engine`] sets and filters; [`sets`]; node and edge endpoints as data,
//! [`node`] and [`edge`]; shared vocabularies in [`vocab`]), the JSON renderer ([`shape`]),
//! the error body ([`error`]), and what the transport needs to know about an answer: TSV rows
//! ([`tsv`]), paging links ([`link`]) and batches of identifiers ([`batch`]).
//!
//! Catalogs are read through `varcat-format` alone; the HTTP service (`varcat-server`) depends
//! on this crate, never the reverse.

pub mod api;
pub mod batch;
pub mod edge;
pub mod endpoint;
pub mod engine;
pub mod error;
pub mod handler;
pub mod link;
pub mod node;
pub mod params;
pub mod parse;
pub mod prelude;
pub mod query;
pub mod sets;
pub mod shape;
pub mod spare;
pub mod tsv;
pub mod vocab;
