//! Command-line helpers shared by `varcat` and the tools.

use std::ffi::OsString;

/// The next option value as UTF-8 text.
pub fn value(p: &mut lexopt::Parser) -> Result<String, String> {
    string(p.value().map_err(|e| e.to_string())?)
}

/// An argument as UTF-8 text.
pub fn string(v: OsString) -> Result<String, String> {
    v.into_string()
        .map_err(|v| format!("argument is not UTF-8: {v:?}"))
}
