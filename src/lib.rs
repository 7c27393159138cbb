//! varcat: the command line (`build`, `serve`, `query`, `info`, `verify`, `synth`) over the
//! query service (`varcat-server`) and the catalog builder (`varcat-indexer`), with the sample
//! catalog bootstrap and the fuzz entry points, which need both.
//!
//! The query library is `varcat_query` (endpoints, parameters, answers) and the HTTP service
//! `varcat_server`; this package and its tests name them directly.

pub mod annotate_cli;
pub mod cli;
#[doc(hidden)]
pub mod fuzzing;
pub mod mcp_cli;
pub mod sample;
pub mod usage;
