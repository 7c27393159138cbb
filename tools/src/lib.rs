//! varcat-tools: the load tools `varcat-bench` and `varcat-soak`, the HTTP/1.1 [`client`] they
//! share with the end-to-end tests, and the system calls only the bench needs ([`sys`]).

pub mod args;
pub mod client;
pub mod sys;
