//! varcat: the command line (`build`, `serve`, `query`, `info`, `verify`, `synth`) over the
//! query service (`varcat-server`) and the catalog builder (`varcat-indexer`), with the sample
//! catalog bootstrap and the fuzz entry points, which need both.
//!
//! The server's modules are re-exported under their old paths, so `varcat::api`,
//! `varcat::http`, … (tests, fuzz targets) and `crate::…` paths here name the same items.

pub use varcat_server::{
    api, engine, error, http, landing, link, mcp, openapi, params, parse, query, server, shape,
    sys, tsv,
};

pub mod annotate_cli;
pub mod cli;
#[doc(hidden)]
pub mod fuzzing;
pub mod mcp_cli;
pub mod sample;
pub mod usage;
