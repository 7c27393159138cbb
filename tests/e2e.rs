//! End-to-end tests: a catalog is built from `testdata/`, the real `varcat serve` binary
//! answers on an ephemeral loopback port, and expected rows come from `oracle`, which reads the
//! JSONL directly and shares no code with the server.

mod oracle;
mod util;

mod annotate;
mod annotate_input;
mod associations;
mod batch;
mod cli;
mod coding;
mod custom;
mod edges;
mod element_paths;
mod elements;
mod faults;
mod fuzz_seeds;
mod golden;
mod harness;
mod hostile;
mod http_surface;
mod lifecycle;
mod links;
mod mcp;
mod nodes;
mod openapi;
mod phenotypes;
mod proteins;
mod rules;
mod summaries;
mod tool_outputs;
mod transcripts;
mod tsv;
mod variants;
mod viewer;
