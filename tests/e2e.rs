//! End-to-end tests: a catalog is built from `testdata/`, the real `varcat serve` binary
//! answers on an ephemeral loopback port, and expected rows come from `oracle`, which reads the
//! JSONL directly and shares no code with the server.

mod oracle;
mod util;

mod annotate;
mod annotate_input;
mod batch;
mod cli;
mod faults;
mod fuzz_seeds;
mod golden;
mod harness;
mod hostile;
mod hostile_requests;
mod http_surface;
mod layout;
mod lifecycle;
mod links;
mod mcp;
mod openapi;
mod paths;
mod rules;
mod tool_outputs;
mod tsv;
mod viewer;
