//! Parsers of single parameter values (one place per rule). Each is a pure function of a
//! string, never panics, and is a fuzz target.

pub mod ident;
pub mod number;
pub mod region;
pub mod threshold;
