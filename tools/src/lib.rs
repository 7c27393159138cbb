//! varcat-tools: the load tools `varcat-bench` ([`bench`](mod@bench)) and `varcat-soak`, the HTTP/1.1 [`client`] they
//! share with the end-to-end tests, the system calls only the bench needs ([`sys`]) and the
//! deterministic synthetic catalog generator behind `varcat synth` ([`synth`]).

pub mod args;
pub mod bench;
pub mod client;
pub mod synth;
pub mod sys;
